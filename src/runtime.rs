//! The start and end of the process, done by the binary itself instead of
//! std's runtime: `clines` is built without std's `main` (`#![no_main]`)
//! and starts from C's.
//!
//! std's set-up before `main` finds the main thread's stack, which glibc
//! does by reading and parsing `/proc/self/maps`, and gives every thread an
//! alternate signal stack, all to report a stack overflow by name. That was
//! a fifth of the instructions of `clines -v` and 20 of its 52 system
//! calls. What of the set-up the program relies on is done here, the same
//! way:
//! - closed standard streams are opened on `/dev/null` (see
//!   `sys::open_closed_standard_streams`), and whether standard output was
//!   one of them is kept ([`stdout_was_closed`]);
//! - SIGPIPE is ignored, so a reader that stops early (`clines --batch |
//!   head -1`) makes a write fail rather than kill the program; and so is
//!   SIGXFSZ, so that a write past a file-size limit fails too;
//! - a panic on the main thread is reported as `thread 'main' panicked at
//!   …` and the process exits with status 101;
//! - standard output is flushed at exit;
//! - the command line is read from C's `argv`: std finds it for
//!   `std::env::args` by itself only with glibc and on macOS, and
//!   elsewhere (musl, the BSDs) stores it in its own start-up, which is
//!   skipped.
//!
//! Given up: std's message for a stack overflow. A thread that overflows its
//! stack still dies, by SIGSEGV, without the line saying so.

mod sys;

use std::ffi::{OsString, c_char, c_int};
use std::io::Write;
use std::panic::{self, PanicHookInfo, UnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, ThreadId};

/// The exit status of a process whose main thread panicked, as with std's
/// runtime.
pub const PANICKED: i32 = 101;

/// Runs `main` with the command line as std's runtime would run a Rust
/// `main`, then exits with the status it returns, or [`PANICKED`] if it
/// panicked. Call it first thing, from the C `main`, with its arguments.
///
/// # Safety
/// `argv` must hold `argc` pointers, each null or to a NUL-terminated
/// string, as the C start-up code passes to `main`; they are copied.
#[allow(unsafe_code)]
pub unsafe fn run(
    argc: c_int,
    argv: *const *const c_char,
    main: impl FnOnce(Vec<OsString>) -> i32 + UnwindSafe,
) -> ! {
    let [_, stdout_closed, _] = sys::open_closed_standard_streams();
    STDOUT_CLOSED.store(stdout_closed, Ordering::Relaxed);
    sys::ignore_write_signals();
    // SAFETY: passed on from the caller's promise.
    let args = unsafe { sys::args(argc, argv) };
    name_the_main_thread_in_panics(thread::current().id());
    let status = panic::catch_unwind(|| main(args)).unwrap_or_else(|payload| {
        // Dropping the payload could panic again, outside any catch.
        std::mem::forget(payload);
        PANICKED
    });
    // Flushes standard output first.
    std::process::exit(status)
}

/// Whether standard output was closed when the process started.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Whether standard output was closed when the process started (`>&-`):
/// it is `/dev/null` since, where every write succeeds, so a program that
/// must tell a lost output asks here.
pub fn stdout_was_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

/// Panics when the environment variable `CLINES_TEST_PANIC` names `point`.
/// Debug builds only: the tests use it to see what a panic does. The panic
/// is placed at the call.
#[cfg(debug_assertions)]
#[track_caller]
pub fn panic_if_asked(point: &str) {
    if std::env::var_os("CLINES_TEST_PANIC").is_some_and(|asked| asked == point) {
        panic!("CLINES_TEST_PANIC={point}");
    }
}

/// The seed in the environment variable `CLINES_TEST_SEED`, if any. Debug
/// builds only: the tests use it for a game that keeps records (which
/// `--seed` does not) and still throws the same chips on every run.
#[cfg(debug_assertions)]
pub fn test_seed() -> Option<u64> {
    std::env::var("CLINES_TEST_SEED").ok()?.parse().ok()
}

/// How long a save waits for the records directory's lock, in seconds,
/// from the environment variable `CLINES_TEST_LOCK_WAIT`, if any. Debug
/// builds only: the tests that act while a game waits for a lock they hold
/// elsewhere use it, so that a busy machine cannot let the wait run out
/// before they have acted; they release the lock themselves.
#[cfg(debug_assertions)]
pub fn test_lock_wait() -> Option<u64> {
    std::env::var("CLINES_TEST_LOCK_WAIT").ok()?.parse().ok()
}

/// Whether the note on `RUST_BACKTRACE` has been printed: std prints it for
/// the first panic only.
static NOTED: AtomicBool = AtomicBool::new(false);

/// Installs a panic hook that reports a panic on the main thread, as std's
/// hook would have, with the thread's name, which only std's runtime can
/// give it; other threads' panics go to std's hook unchanged.
fn name_the_main_thread_in_panics(main: ThreadId) {
    let default = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        let current = thread::current();
        if current.id() == main && current.name().is_none() {
            report_main_panic(info);
        } else {
            default(info);
        }
    }));
}

/// Prints a main-thread panic in std's words (see [`panic_report`]).
/// Errors are ignored: standard error may be gone.
fn report_main_panic(info: &PanicHookInfo) {
    let _ = std::io::stderr().write_all(panic_report(info, "main").as_bytes());
}

/// The report of a panic on the thread `name`, in std's words, with a
/// backtrace when `RUST_BACKTRACE` asks for one.
pub fn panic_report(info: &PanicHookInfo, name: &str) -> String {
    let payload = info.payload();
    let message = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("Box<dyn Any>");
    let place = info
        .location()
        .map_or_else(String::new, |place| format!(" at {place}"));
    let mut text = format!("\nthread '{name}' panicked{place}:\n{message}\n");
    match std::env::var_os("RUST_BACKTRACE") {
        Some(setting) if setting != "0" => {
            let backtrace = std::backtrace::Backtrace::force_capture();
            text.push_str(&format!("stack backtrace:\n{backtrace}"));
        }
        _ if !NOTED.swap(true, Ordering::Relaxed) => text.push_str(
            "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n",
        ),
        _ => {}
    }
    text
}
