//! A pseudo-terminal harness for whole-program tests: runs a program on the
//! slave side of a real pty (its controlling terminal), reads everything it
//! writes into a [`vt100::Parser`], and lets a test type keys, click, resize
//! the window, send signals and wait for the screen to show something.
//!
//! ```ignore
//! let options = Options::new(80, 24).arg("--seed=1");
//! let mut term = Term::spawn(env!("CARGO_BIN_EXE_clines"), options);
//! term.expect_screen("the board", |screen| screen.contents().contains('|'));
//! term.key(Key::Char('q'));
//! assert!(term.wait_exit(TIMEOUT).success());
//! term.assert_restored();
//! ```
//!
//! Every program runs in a [`Sandbox`]: its own temporary `HOME`,
//! `XDG_CONFIG_HOME`, `XDG_DATA_HOME` and `CLINES_SCORE_DIR`, and an
//! environment cleared of everything else but `PATH`, `TERM=xterm-256color`
//! and a UTF-8 locale, so a test never reads or writes real files and never
//! depends on the caller's terminal settings (`NO_COLOR` in particular).
//!
//! Synchronisation is by waiting for a condition on the parsed screen (or the
//! raw output) with a deadline, woken by the program's output; only process
//! states that produce no output (exit, stop) are polled, with a deadline.
//! Nothing sleeps a fixed time to let the program catch up.
//!
//! Shared by several test binaries and the `termcost` and `linkorder`
//! examples, each of which uses a different part of it: hence
//! `allow(dead_code)`.

// Driving a pty, pipes and signals needs libc calls; this is test code.
#![allow(unsafe_code)]
#![allow(dead_code)]

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use portable_pty::{MasterPty, PtySize, native_pty_system};

/// Whether this test runs as root, whom permission bits do not stop.
fn running_as_root() -> bool {
    // SAFETY: geteuid takes nothing and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// The arguments of util-linux's `setpriv` that run the command after them
/// as the user nobody, with no groups.
const AS_NOBODY: [&str; 4] = ["--reuid=65534", "--regid=65534", "--clear-groups", "--"];

/// `command` run as the user nobody (through util-linux's `setpriv`) when
/// the test runs as root, so that permission bits apply to it, as they do
/// to players.
pub fn without_privilege(command: Command) -> Command {
    if !running_as_root() {
        return command;
    }
    let mut unprivileged = Command::new("setpriv");
    unprivileged
        .args(AS_NOBODY)
        .arg(command.get_program())
        .args(command.get_args())
        .env_clear()
        .envs(command.get_envs().filter_map(|(k, v)| Some((k, v?))));
    unprivileged
}

/// What [`Term::spawn`] takes to run `program` with `options` as the user
/// nobody when this test runs as root, as [`without_privilege`] does: the
/// program to spawn, and the options with its arguments first.
pub fn unprivileged(program: &str, mut options: Options) -> (String, Options) {
    if !running_as_root() {
        return (program.to_string(), options);
    }
    let first = AS_NOBODY.into_iter().chain([program]);
    options.args.splice(0..0, first.map(OsString::from));
    ("setpriv".to_string(), options)
}

/// How long the `expect_*` helpers wait before failing the test: generous,
/// because the machine running the tests may be busy.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// How long a [`Watchdog`] lets a process run: a whole test's worth of
/// [`TIMEOUT`]s.
const LIFETIME: Duration = Duration::from_secs(120);

/// Kills a process still running [`LIFETIME`] after it was watched, so that
/// a program that hangs fails its test (its wait returns, killed) instead
/// of hanging the whole run, which cargo would wait on for ever. Dropped,
/// it lets the process be: drop it once the process has been waited for.
pub struct Watchdog {
    /// Dropped to call the watchdog off.
    call_off: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    /// Watches `child`, which must not have been waited for yet.
    pub fn new(child: &Child) -> Watchdog {
        let pid = child.id() as libc::pid_t;
        let (call_off, called_off) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            if called_off.recv_timeout(LIFETIME) == Err(std::sync::mpsc::RecvTimeoutError::Timeout)
            {
                // SAFETY: kill takes no pointers. The process has not been
                // waited for (the watchdog is dropped once it has), so the
                // pid is still the child's.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        });
        Watchdog {
            call_off: Some(call_off),
            thread: Some(thread),
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        drop(self.call_off.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A temporary directory tree standing in for the user's home, configuration,
/// data and records directories. Deleted when dropped.
pub struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    /// Creates a fresh, empty sandbox.
    pub fn new() -> Sandbox {
        let dir = tempfile::Builder::new()
            .prefix("clines-test-")
            .tempdir()
            .expect("create a temporary directory");
        let sandbox = Sandbox { dir };
        for path in [
            sandbox.home(),
            sandbox.config_dir(),
            sandbox.data_dir(),
            sandbox.score_dir(),
        ] {
            std::fs::create_dir_all(&path).expect("create a sandbox directory");
        }
        sandbox
    }

    /// Lets every user reach the sandbox's folders (not write in them), for
    /// a program run as another user ([`unprivileged`]).
    pub fn open_to_all(&self) {
        use std::os::unix::fs::PermissionsExt;
        let reachable = std::fs::Permissions::from_mode(0o755);
        std::fs::set_permissions(self.dir.path(), reachable).expect("open the sandbox");
    }

    /// `HOME`.
    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// `XDG_CONFIG_HOME`.
    pub fn config_dir(&self) -> PathBuf {
        self.dir.path().join("config")
    }

    /// `XDG_DATA_HOME`.
    pub fn data_dir(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// `CLINES_SCORE_DIR`.
    pub fn score_dir(&self) -> PathBuf {
        self.dir.path().join("scores")
    }

    /// The environment variables pointing a program at this sandbox.
    pub fn env(&self) -> Vec<(&'static str, PathBuf)> {
        vec![
            ("HOME", self.home()),
            ("XDG_CONFIG_HOME", self.config_dir()),
            ("XDG_DATA_HOME", self.data_dir()),
            ("CLINES_SCORE_DIR", self.score_dir()),
        ]
    }

    /// Gives `command` an environment of its own: cleared, then `PATH`, a
    /// UTF-8 locale and [`Sandbox::env`].
    pub fn apply(&self, command: &mut Command) {
        clean_env(command, self.env());
    }
}

/// Clears `command`'s environment, then sets `PATH` (the caller's), a UTF-8
/// locale and `sandbox_env`.
fn clean_env(command: &mut Command, sandbox_env: Vec<(&'static str, PathBuf)>) {
    command.env_clear();
    if let Some(path) = std::env::var_os("PATH") {
        command.env("PATH", path);
    }
    command.env("LANG", "C.UTF-8");
    for (key, value) in sandbox_env {
        command.env(key, value);
    }
}

/// What to run and in which window: the window size, arguments, extra
/// environment, sandbox and where standard error goes.
#[derive(Clone, Debug)]
pub struct Options {
    cols: u16,
    rows: u16,
    args: Vec<OsString>,
    env: Vec<(OsString, OsString)>,
    env_remove: Vec<OsString>,
    sandbox_env: Option<Vec<(&'static str, PathBuf)>>,
    separate_stderr: bool,
    record_frames: bool,
    emulated: Option<(u16, u16)>,
    current_dir: Option<PathBuf>,
    outside_session: bool,
}

impl Options {
    /// A `cols` × `rows` window, no arguments.
    pub fn new(cols: u16, rows: u16) -> Options {
        Options {
            cols,
            rows,
            args: Vec::new(),
            env: Vec::new(),
            env_remove: Vec::new(),
            sandbox_env: None,
            separate_stderr: false,
            record_frames: false,
            emulated: None,
            current_dir: None,
            outside_session: false,
        }
    }

    /// Appends one argument.
    pub fn arg(mut self, arg: impl Into<OsString>) -> Options {
        self.args.push(arg.into());
        self
    }

    /// Appends several arguments.
    pub fn args<I: IntoIterator<Item = S>, S: Into<OsString>>(mut self, args: I) -> Options {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Sets an environment variable (after the sandbox's, so it can override
    /// `TERM` or a sandbox directory).
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Options {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Removes an environment variable the harness would otherwise set
    /// (`TERM`, for instance).
    pub fn env_remove(mut self, key: impl Into<OsString>) -> Options {
        self.env_remove.push(key.into());
        self
    }

    /// Runs in `sandbox` (which must outlive the [`Term`]) instead of a fresh
    /// one, so that several runs can share records or a configuration file.
    pub fn sandbox(mut self, sandbox: &Sandbox) -> Options {
        self.sandbox_env = Some(sandbox.env());
        self
    }

    /// Keeps a copy of the screen at the end of every frame (every
    /// synchronized update), read with [`Term::frames`]: for animations,
    /// whose short-lived frames a wait on the current screen could miss.
    pub fn record_frames(mut self) -> Options {
        self.record_frames = true;
        self
    }

    /// Reads the output on an emulated screen of `cols` × `rows` instead of
    /// the window's size: for windows too large to emulate, whose frames
    /// are then read as bytes.
    pub fn emulate(mut self, cols: u16, rows: u16) -> Options {
        self.emulated = Some((cols, rows));
        self
    }

    /// Starts the program in `dir` rather than the test's working directory,
    /// for what a relative path would reach.
    pub fn current_dir(mut self, dir: impl Into<PathBuf>) -> Options {
        self.current_dir = Some(dir.into());
        self
    }

    /// Sends standard error to a pipe, read with [`Term::stderr`], instead of
    /// the terminal; standard input and output stay on the terminal.
    pub fn separate_stderr(mut self) -> Options {
        self.separate_stderr = true;
        self
    }

    /// Starts the program in a session of its own that the terminal does
    /// not control, as `setsid clines` does: the terminal sends it no
    /// SIGHUP when closed, nor SIGWINCH when resized.
    pub fn outside_session(mut self) -> Options {
        self.outside_session = true;
        self
    }
}

/// A key to type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// A printable character, sent as UTF-8.
    Char(char),
    /// Ctrl and a letter or one of `@[\]^_`: the control byte.
    Ctrl(char),
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Return (carriage return).
    Enter,
    /// Escape.
    Esc,
}

/// Keys that could not be typed: the program exited, or stopped reading.
#[derive(Debug)]
pub struct SendError {
    bytes: Vec<u8>,
    sent: usize,
    why: String,
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const SHOWN: usize = 64;
        let shown = &self.bytes[..self.bytes.len().min(SHOWN)];
        let more = if self.bytes.len() > SHOWN { "…" } else { "" };
        write!(
            f,
            "typing {:?}{more} ({} bytes) stuck after {} bytes: {}",
            String::from_utf8_lossy(shown),
            self.bytes.len(),
            self.sent,
            self.why
        )
    }
}

/// Counts the bells the program rings.
#[derive(Default)]
struct BellCounter(usize);

impl vt100::Callbacks for BellCounter {
    fn audible_bell(&mut self, _: &mut vt100::Screen) {
        self.0 += 1;
    }
}

/// What the reader thread shares with the test.
struct Output {
    parser: vt100::Parser<BellCounter>,
    raw: Vec<u8>,
    closed: bool,
    /// Chunks taken so far: tells a waiter the screen may have changed.
    chunks: u64,
    /// With [`Options::record_frames`]: the screen at the end of every
    /// synchronized update, and when the chunk that ended it was read.
    frames: Option<Vec<(Instant, vt100::Screen)>>,
}

impl Output {
    /// Takes a chunk of the program's output.
    fn take(&mut self, chunk: &[u8]) {
        self.chunks += 1;
        let start = self.raw.len();
        self.raw.extend_from_slice(chunk);
        let Some(frames) = &mut self.frames else {
            self.parser.process(chunk);
            return;
        };
        let read_at = Instant::now();
        // A frame's end marker may have begun in the previous chunk.
        let search_from = start.saturating_sub(END_SYNC.len() - 1);
        let mut processed = start;
        let ends: Vec<usize> = self.raw[search_from..]
            .windows(END_SYNC.len())
            .enumerate()
            .filter(|(_, w)| *w == END_SYNC)
            .map(|(i, _)| search_from + i + END_SYNC.len())
            .collect();
        for end in ends {
            self.parser.process(&self.raw[processed..end]);
            processed = end;
            frames.push((read_at, self.parser.screen().clone()));
        }
        self.parser.process(&self.raw[processed..]);
    }
}

/// Ends a synchronized update (`ESC [ ? 2026 l`): a frame is complete.
pub const END_SYNC: &[u8] = b"\x1b[?2026l";

/// A copy of the screen taken for a check, so that the check holds no lock
/// on the program's output.
struct ScreenCopy {
    screen: vt100::Screen,
    /// [`Output::chunks`] when it was taken.
    chunks: u64,
    /// Whether the terminal had closed.
    closed: bool,
    /// Whether everything written so far ended with a complete frame.
    complete: bool,
}

struct Shared {
    output: Mutex<Output>,
    changed: Condvar,
}

/// A program running in a pseudo-terminal, with its screen.
pub struct Term {
    /// `None` after [`Term::hang_up`], like `writer`.
    master: Option<Box<dyn MasterPty + Send>>,
    writer: Option<Box<dyn Write + Send>>,
    /// Dropping this (a pipe's write end) stops the reader thread.
    stop_reader: Option<File>,
    child: Child,
    shared: Arc<Shared>,
    reader: Option<JoinHandle<()>>,
    stderr_reader: Option<JoinHandle<Vec<u8>>>,
    stderr: Option<Vec<u8>>,
    status: Option<ExitStatus>,
    termios_at_start: libc::termios,
    spawned_at: Instant,
    _sandbox: Option<Sandbox>,
}

impl Term {
    /// Starts `program` in a new pseudo-terminal as `options` say: a new
    /// session whose controlling terminal is the pty, standard input and
    /// output (and error, unless [`Options::separate_stderr`]) on it,
    /// `TERM=xterm-256color`, in a sandbox. Panics if that fails.
    ///
    /// The program is started with std's `Command` on the pty's slave rather
    /// than portable-pty's `spawn_command`, so that standard error can go to
    /// a pipe and the exit status says whether a signal ended the program.
    pub fn spawn(program: impl AsRef<Path>, options: Options) -> Term {
        let program = program.as_ref();
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: options.rows,
                cols: options.cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("open a pseudo-terminal");
        let tty_path = pair.master.tty_name().expect("the pty's slave has a name");
        let tty = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&tty_path)
            .expect("open the pty's slave");
        drop(pair.slave);
        let termios_at_start = termios(&*pair.master);

        let (mut command, sandbox) = command_on(program, &options, tty);
        let spawned_at = Instant::now();
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("start {}: {e}", program.display()));
        // The parent's copies of the slave were in `command`: with them gone,
        // the master reads end of file once the child is done with the pty.
        drop(command);

        let emulated = options.emulated.unwrap_or((options.cols, options.rows));
        let shared = Arc::new(Shared {
            output: Mutex::new(Output {
                parser: vt100::Parser::new_with_callbacks(
                    emulated.1.try_into().expect("at least one row"),
                    emulated.0.try_into().expect("at least one column"),
                    0,
                    BellCounter::default(),
                ),
                raw: Vec::new(),
                closed: false,
                chunks: 0,
                frames: options.record_frames.then(Vec::new),
            }),
            changed: Condvar::new(),
        });
        let (reader, stop_reader) = read_into(&*pair.master, Arc::clone(&shared));
        let stderr_reader = child.stderr.take().map(|mut pipe| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                // A read error ends the capture; what was read is kept.
                let _ = pipe.read_to_end(&mut bytes);
                bytes
            })
        });
        let writer = pair.master.take_writer().expect("write to the pty");
        // A blocking write to a program that no longer reads would never
        // return: `try_send` waits for room itself, with a deadline.
        set_nonblocking(&*pair.master);
        Term {
            master: Some(pair.master),
            writer: Some(writer),
            stop_reader: Some(stop_reader),
            child,
            shared,
            reader: Some(reader),
            stderr_reader,
            stderr: None,
            status: None,
            termios_at_start,
            spawned_at,
            _sandbox: sandbox,
        }
    }

    /// The program's process id, for [`Term::signal`] or `/proc`.
    pub fn pid(&self) -> i32 {
        i32::try_from(self.child.id()).expect("a pid fits in i32")
    }

    /// The terminal's foreground process group, once known: under a shell
    /// with job control, the group of the job it runs in the foreground,
    /// whose leader's process id it is.
    pub fn foreground_group(&self) -> Option<i32> {
        self.master.as_ref()?.process_group_leader()
    }

    /// When the program was started.
    pub fn spawned_at(&self) -> Instant {
        self.spawned_at
    }

    /// Sends the signal `signal` (`libc::SIGTERM`, …) to the program.
    pub fn signal(&self, signal: i32) {
        send_signal(self.pid(), signal);
    }

    /// Types raw bytes. Fails the test, naming them, if the program has
    /// exited or stops reading for [`TIMEOUT`] while some are still unsent.
    pub fn send(&mut self, bytes: &[u8]) {
        if let Err(error) = self.try_send(bytes, TIMEOUT) {
            panic!("{error}");
        }
    }

    /// Types raw bytes, as much as the terminal takes at a time, while the
    /// program reads them: fails once it has exited with some unsent, or
    /// when it takes none for `patience` (a deadline for progress, renewed
    /// by every byte it takes).
    pub fn try_send(&mut self, bytes: &[u8], patience: Duration) -> Result<(), SendError> {
        let writer = self.writer.as_mut().expect("typing before hang_up");
        let fd = self
            .master
            .as_deref()
            .and_then(|master| master.as_raw_fd())
            .expect("the master has a file descriptor");
        let mut sent = 0;
        let mut deadline = Instant::now() + patience;
        while sent < bytes.len() {
            match writer.write(&bytes[sent..]) {
                Ok(n) => {
                    sent += n;
                    deadline = Instant::now() + patience;
                    continue;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => panic!("write to the pty: {e}"),
            }
            // The terminal's buffer is full: wait for the program to read,
            // or for its side to close (POLLHUP, whatever was asked).
            let left = deadline.saturating_duration_since(Instant::now());
            let mut master = libc::pollfd {
                fd,
                events: libc::POLLOUT,
                revents: 0,
            };
            let millis = libc::c_int::try_from(left.as_millis()).unwrap_or(libc::c_int::MAX);
            // SAFETY: master is one valid pollfd for the call.
            let ready = unsafe { libc::poll(&mut master, 1, millis) };
            let stuck = |why: String| SendError {
                bytes: bytes.to_vec(),
                sent,
                why,
            };
            if master.revents & (libc::POLLHUP | libc::POLLERR) != 0 {
                let status = self.child.try_wait().ok().flatten();
                return Err(stuck(match status {
                    Some(status) => format!("the program exited ({status})"),
                    None => String::from("the program closed the terminal"),
                }));
            }
            if ready == 0 && Instant::now() >= deadline {
                return Err(stuck(format!(
                    "the program stopped reading: it took nothing for {patience:?}"
                )));
            }
        }
        Ok(())
    }

    /// Closes the terminal, as when its window is closed: the program gets
    /// SIGHUP (unless started [`Options::outside_session`]), and its reads
    /// and writes on the terminal fail. Nothing more can be typed or read
    /// afterwards; [`Term::wait_exit`] still works.
    pub fn hang_up(&mut self) {
        self.stop_reader = None;
        if let Some(reader) = self.reader.take() {
            reader.join().expect("the pty reader thread");
        }
        self.writer = None;
        self.master = None;
    }

    /// Types one key. Arrows are sent as the terminal would send them in
    /// the cursor-key mode the program has set (`ESC [ A` or `ESC O A`).
    pub fn key(&mut self, key: Key) {
        let arrow = |letter: u8| {
            let application = self.screen(|screen| screen.application_cursor());
            vec![0x1b, if application { b'O' } else { b'[' }, letter]
        };
        let bytes = match key {
            Key::Char(c) => c.to_string().into_bytes(),
            Key::Ctrl(c) => {
                let upper = c.to_ascii_uppercase();
                assert!(('@'..='_').contains(&upper), "no Ctrl-{c} byte");
                vec![upper as u8 - b'@']
            }
            Key::Up => arrow(b'A'),
            Key::Down => arrow(b'B'),
            Key::Right => arrow(b'C'),
            Key::Left => arrow(b'D'),
            Key::Enter => vec![b'\r'],
            Key::Esc => vec![0x1b],
        };
        self.send(&bytes);
    }

    /// Types several keys.
    pub fn keys(&mut self, keys: &[Key]) {
        for &key in keys {
            self.key(key);
        }
    }

    /// Presses and releases the left mouse button at screen column `col`,
    /// row `row` (0-based, as in [`vt100::Screen::cell`]), in the SGR
    /// encoding: `ESC [ < 0 ; X ; Y M` then `ESC [ < 0 ; X ; Y m` with
    /// 1-based X and Y.
    pub fn click(&mut self, col: u16, row: u16) {
        self.mouse(0, col, row, false);
        self.mouse(0, col, row, true);
    }

    /// Sends one SGR mouse report: `ESC [ < CODE ; X ; Y M` (or `m` for a
    /// button release) at screen column `col`, row `row` (0-based). `code`
    /// is the xterm button code: 0 left, 1 middle, 2 right, 64/65 the wheel,
    /// plus 32 for motion (35: motion with no button).
    pub fn mouse(&mut self, code: u16, col: u16, row: u16, release: bool) {
        let (x, y) = (col + 1, row + 1);
        let end = if release { 'm' } else { 'M' };
        self.send(format!("\x1b[<{code};{x};{y}{end}").as_bytes());
    }

    /// Resizes the window: the parser first, so that what the program draws
    /// for the new size is read at that size, then the pty, which sends the
    /// program SIGWINCH.
    pub fn resize(&mut self, cols: u16, rows: u16) {
        self.output().parser.set_size(
            rows.try_into().expect("at least one row"),
            cols.try_into().expect("at least one column"),
        );
        self.resize_pty_only(cols, rows);
    }

    /// Resizes the pty alone, keeping the parser's size: for terminals too
    /// large to emulate. What the program draws is read at the old size.
    pub fn resize_pty_only(&mut self, cols: u16, rows: u16) {
        self.master
            .as_ref()
            .expect("resizing before hang_up")
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("resize the pty");
    }

    /// Runs `f` on the current screen.
    pub fn screen<R>(&self, f: impl FnOnce(&vt100::Screen) -> R) -> R {
        f(self.output().parser.screen())
    }

    /// Replaces the parsed screen with `bytes` processed on top of it,
    /// without the program knowing: for instance `ESC [ 2 J` to check that
    /// the program repaints everything on request.
    pub fn process_locally(&mut self, bytes: &[u8]) {
        self.output().parser.process(bytes);
    }

    /// The screen's text, rows joined by newlines (for messages).
    pub fn contents(&self) -> String {
        self.screen(|screen| screen.contents())
    }

    /// Everything the program has written so far.
    pub fn raw_output(&self) -> Vec<u8> {
        self.output().raw.clone()
    }

    /// How many bytes the program has written so far.
    pub fn output_len(&self) -> usize {
        self.output().raw.len()
    }

    /// Whether the program's side of the terminal has closed: it exited,
    /// or the terminal was hung up.
    pub fn closed(&self) -> bool {
        self.output().closed
    }

    /// How many times `needle` occurs in everything written so far.
    pub fn count_in_output(&self, needle: &[u8]) -> usize {
        count(&self.output().raw, needle)
    }

    /// The screen at the end of every frame so far
    /// ([`Options::record_frames`] only).
    pub fn frames(&self) -> Vec<vt100::Screen> {
        let frames = self.timed_frames();
        frames.into_iter().map(|(_, frame)| frame).collect()
    }

    /// [`Term::frames`], each with when it was read: a frame read long
    /// after the one before may mean that the program (or this reader)
    /// was held up meanwhile.
    pub fn timed_frames(&self) -> Vec<(Instant, vt100::Screen)> {
        self.output()
            .frames
            .clone()
            .expect("frames are kept with Options::record_frames")
    }

    /// How many bells (BEL) the program has rung.
    pub fn bells(&self) -> usize {
        self.output().parser.callbacks().0
    }

    /// Waits until `done` holds for the screen, or `timeout` passes: true if
    /// it held. Checked at the start and whenever output has come since the
    /// last check.
    pub fn wait_for(
        &self,
        timeout: Duration,
        mut done: impl FnMut(&vt100::Screen) -> bool,
    ) -> bool {
        self.wait_screen(timeout, |screen| {
            if done(screen) {
                Ok(())
            } else {
                Err(String::new())
            }
        })
        .is_ok()
    }

    /// Waits until `check` accepts the screen, or `timeout` passes, or the
    /// terminal closes; then returns what `check` last returned. Checks run
    /// on a copy of the screen, so that a slow check never holds up the
    /// reading of the program's output (which would block the program).
    pub fn wait_screen<T>(
        &self,
        timeout: Duration,
        check: impl FnMut(&vt100::Screen) -> Result<T, String>,
    ) -> Result<T, String> {
        self.wait_copy(timeout, false, check)
    }

    /// [`Term::wait_screen`]; with `frames_only`, a screen is checked only
    /// when everything written so far ends with a complete frame
    /// ([`END_SYNC`]).
    fn wait_copy<T>(
        &self,
        timeout: Duration,
        frames_only: bool,
        mut check: impl FnMut(&vt100::Screen) -> Result<T, String>,
    ) -> Result<T, String> {
        let deadline = Instant::now() + timeout;
        let mut result = Err(String::from("no complete frame"));
        // The chunk count at which the last judged screen was copied: each
        // screen is judged once, however often the loop comes round.
        let mut judged = None;
        loop {
            // Past the deadline, one more pass still judges what was
            // written while a slow check ran.
            let past = Instant::now() >= deadline;
            let copy = self.screen_copy();
            if (copy.complete || !frames_only) && judged != Some(copy.chunks) {
                judged = Some(copy.chunks);
                result = check(&copy.screen);
            }
            if result.is_ok() || copy.closed || past {
                return result;
            }
            self.wait_output(
                deadline.saturating_duration_since(Instant::now()),
                |output| output.chunks != copy.chunks || output.closed,
            );
        }
    }

    /// The screen as it stands, and what a waiter needs to know with it.
    fn screen_copy(&self) -> ScreenCopy {
        let output = self.output();
        ScreenCopy {
            screen: output.parser.screen().clone(),
            chunks: output.chunks,
            closed: output.closed,
            complete: output.raw.ends_with(END_SYNC),
        }
    }

    /// Waits until the program has rung at least `count` bells, or `timeout`
    /// passes: true if it has.
    pub fn wait_for_bells(&self, count: usize, timeout: Duration) -> bool {
        self.wait_output(timeout, |output| output.parser.callbacks().0 >= count)
    }

    /// Waits until `done` holds for everything written so far (raw bytes),
    /// or `timeout` passes: true if it held.
    pub fn wait_for_output(&self, timeout: Duration, mut done: impl FnMut(&[u8]) -> bool) -> bool {
        self.wait_output(timeout, |output| done(&output.raw))
    }

    /// Waits up to [`TIMEOUT`] for `check` to accept the screen and returns
    /// what it returned; otherwise fails the test with `what`, the last
    /// reason `check` gave and the screen.
    pub fn expect<T>(
        &self,
        what: &str,
        mut check: impl FnMut(&vt100::Screen) -> Result<T, String>,
    ) -> T {
        self.wait_screen(TIMEOUT, &mut check)
            .unwrap_or_else(|reason| {
                let (written, closed, tail, contents) = {
                    let output = self.output();
                    let raw = &output.raw;
                    let tail = String::from_utf8_lossy(&raw[raw.len().saturating_sub(300)..]);
                    let contents = output.parser.screen().contents();
                    (raw.len(), output.closed, tail.into_owned(), contents)
                };
                let closed = if closed { ", terminal closed" } else { "" };
                panic!(
                    "waited {TIMEOUT:?} for {what}: {reason}\n\
                 {written} bytes written{closed}, ending {tail:?}\nscreen:\n{contents}"
                )
            })
    }

    /// [`Term::expect`], looking at the screen only when everything written
    /// so far ends with a complete frame ([`END_SYNC`]): never half-way
    /// through drawing one. For tests that read the whole board.
    pub fn expect_frame<T>(
        &self,
        what: &str,
        check: impl FnMut(&vt100::Screen) -> Result<T, String>,
    ) -> T {
        self.wait_copy(TIMEOUT, true, check)
            .unwrap_or_else(|reason| {
                panic!(
                    "waited {TIMEOUT:?} for {what}: {reason}\nscreen:\n{}",
                    self.contents()
                )
            })
    }

    /// Waits up to [`TIMEOUT`] for `done` to hold for the screen, or fails
    /// the test naming `what` and showing the screen.
    pub fn expect_screen(&self, what: &str, mut done: impl FnMut(&vt100::Screen) -> bool) {
        self.expect(what, |screen| {
            if done(screen) {
                Ok(())
            } else {
                Err(String::from("not yet"))
            }
        });
    }

    /// Waits up to [`TIMEOUT`] for the screen to show `text` somewhere.
    pub fn expect_text(&self, text: &str) {
        self.expect_screen(&format!("{text:?} on the screen"), |screen| {
            screen.contents().contains(text)
        });
    }

    /// Waits up to `timeout` for the program to exit and returns its exit
    /// status, after all its output has been read. Fails the test (killing
    /// the program) if it is still running then.
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        if let Some(status) = self.status {
            return status;
        }
        let deadline = Instant::now() + timeout;
        let closed = self.wait_output(timeout, |output| output.closed);
        let status = loop {
            match self.child.try_wait().expect("query the child") {
                Some(status) => break Some(status),
                None if Instant::now() >= deadline => break None,
                // The terminal is closed, so the process is in its last
                // moments; poll for the exit until the deadline.
                None if closed => std::thread::sleep(Duration::from_millis(5)),
                None => break None,
            }
        };
        let Some(status) = status else {
            let screen = self.contents();
            let threads = self.thread_states();
            self.kill();
            panic!(
                "the program did not exit within {timeout:?}\n\
                 threads (name, state, waiting in): {threads:?}\nscreen:\n{screen}"
            );
        };
        self.status = Some(status);
        if let Some(reader) = self.reader.take() {
            reader.join().expect("the pty reader thread");
        }
        if let Some(reader) = self.stderr_reader.take() {
            self.stderr = Some(reader.join().expect("the stderr reader thread"));
        }
        status
    }

    /// What the program wrote to standard error, once it has exited
    /// ([`Options::separate_stderr`] only).
    pub fn stderr(&self) -> String {
        let bytes = self
            .stderr
            .as_ref()
            .expect("stderr is read after wait_exit, with Options::separate_stderr");
        String::from_utf8_lossy(bytes).into_owned()
    }

    /// Checks that the program has left the terminal as it found it (call
    /// it once the program has exited, or stopped itself): the main screen
    /// shown, mouse reporting off, the cursor visible, every DEC private mode
    /// it set reset, and the line discipline (raw mode) back to its initial
    /// settings.
    pub fn assert_restored(&self) {
        self.screen(|screen| {
            assert!(
                !screen.alternate_screen(),
                "the alternate screen is still shown"
            );
            assert_eq!(
                screen.mouse_protocol_mode(),
                vt100::MouseProtocolMode::None,
                "mouse reporting is still on"
            );
            assert!(!screen.hide_cursor(), "the cursor is still hidden");
        });
        let left_set = private_modes_left_changed(&self.output().raw);
        assert!(
            left_set.is_empty(),
            "DEC private modes left changed (mode, set): {left_set:?}"
        );
        let master = self
            .master
            .as_deref()
            .expect("assert_restored before hang_up");
        let now = termios(master);
        let start = &self.termios_at_start;
        assert_eq!(
            (now.c_iflag, now.c_oflag, now.c_lflag),
            (start.c_iflag, start.c_oflag, start.c_lflag),
            "the terminal's line settings (iflag, oflag, lflag) were not restored"
        );
    }

    /// Puts the terminal's line settings back as they were before the
    /// program started (cooked mode: echo and line editing on), as a shell
    /// does when a job stops.
    pub fn restore_line_settings(&self) {
        let fd = self
            .master
            .as_deref()
            .and_then(|master| master.as_raw_fd())
            .expect("the master has a file descriptor");
        // SAFETY: fd is open for the master's lifetime; the termios is valid.
        let result = unsafe { libc::tcsetattr(fd, libc::TCSANOW, &self.termios_at_start) };
        assert_eq!(result, 0, "tcsetattr on the pty");
    }

    /// Waits up to `timeout` for the program to be stopped (by SIGTSTP,
    /// SIGSTOP, …): true if it is.
    pub fn wait_stopped(&self, timeout: Duration) -> bool {
        wait_stopped(self.pid(), timeout)
    }

    /// Each thread of the program: its name, state letter and the kernel
    /// function it waits in (from `/proc`), for failure messages.
    pub fn thread_states(&self) -> Vec<(String, String, String)> {
        let tasks = format!("/proc/{}/task", self.pid());
        let Ok(entries) = std::fs::read_dir(tasks) else {
            return Vec::new();
        };
        entries
            .flatten()
            .map(|task| {
                let read = |name: &str| {
                    std::fs::read_to_string(task.path().join(name))
                        .unwrap_or_default()
                        .trim()
                        .to_owned()
                };
                let stat = read("stat");
                let state = stat
                    .rsplit(')')
                    .next()
                    .and_then(|rest| rest.split_whitespace().next())
                    .unwrap_or("?")
                    .to_owned();
                (read("comm"), state, read("wchan"))
            })
            .collect()
    }

    /// Kills the program (SIGKILL) if it is still running.
    pub fn kill(&mut self) {
        if self.status.is_none() {
            // Already gone is fine.
            let _ = self.child.kill();
            self.status = self.child.wait().ok();
        }
    }

    fn output(&self) -> MutexGuard<'_, Output> {
        self.shared.output.lock().expect("output lock")
    }

    fn wait_output(&self, timeout: Duration, mut done: impl FnMut(&Output) -> bool) -> bool {
        let deadline = Instant::now() + timeout;
        let mut output = self.output();
        loop {
            if done(&output) {
                return true;
            }
            let now = Instant::now();
            if now >= deadline || output.closed {
                return false;
            }
            output = self
                .shared
                .changed
                .wait_timeout(output, deadline - now)
                .expect("output lock")
                .0;
        }
    }
}

impl Drop for Term {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The command that runs `program` as [`Term::spawn`] says, on the pty
/// slave `tty`, and the sandbox it runs in unless `options` give one.
fn command_on(program: &Path, options: &Options, tty: File) -> (Command, Option<Sandbox>) {
    let (sandbox, sandbox_env) = match &options.sandbox_env {
        Some(env) => (None, env.clone()),
        None => {
            let sandbox = Sandbox::new();
            let env = sandbox.env();
            (Some(sandbox), env)
        }
    };
    let mut command = Command::new(program);
    command.args(&options.args);
    clean_env(&mut command, sandbox_env);
    command.env("TERM", "xterm-256color");
    for (key, value) in &options.env {
        command.env(key, value);
    }
    for key in &options.env_remove {
        command.env_remove(key);
    }
    if let Some(dir) = &options.current_dir {
        command.current_dir(dir);
    }
    let stderr = if options.separate_stderr {
        Stdio::piped()
    } else {
        Stdio::from(tty.try_clone().expect("duplicate the pty's slave"))
    };
    command
        .stdin(Stdio::from(
            tty.try_clone().expect("duplicate the pty's slave"),
        ))
        .stdout(Stdio::from(tty))
        .stderr(stderr);
    // The child leads a new session and, unless outside it, takes its
    // standard input, the pty's slave, as controlling terminal: like a
    // login shell's job, it gets SIGWINCH on resizes and SIGHUP when the
    // terminal goes away.
    let controlled = !options.outside_session;
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        command.pre_exec(move || {
            if libc::setsid() == -1 || controlled && libc::ioctl(0, libc::TIOCSCTTY, 0) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    (command, sandbox)
}

/// A thread feeding what `master` reads into `shared` until the slave side
/// closes, or until the returned pipe end is dropped.
fn read_into(master: &dyn MasterPty, shared: Arc<Shared>) -> (JoinHandle<()>, File) {
    // The reader's own descriptor of the master, so that it can poll it
    // together with the stop pipe.
    let master_fd = master
        .as_raw_fd()
        .expect("the master has a file descriptor");
    // Close-on-exec: a copy leaked into another test's program would keep
    // this terminal open after hang_up.
    // SAFETY: fcntl has no memory-safety preconditions; the result is checked.
    let reader_fd = unsafe { libc::fcntl(master_fd, libc::F_DUPFD_CLOEXEC, 0) };
    assert!(reader_fd >= 0, "dup the pty's master");
    // SAFETY: reader_fd is a fresh descriptor owned by nothing else.
    let mut reader = File::from(unsafe { OwnedFd::from_raw_fd(reader_fd) });
    let (stop_read, stop_write) = pipe();
    let thread = std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        loop {
            let mut fds = [
                libc::pollfd {
                    fd: reader.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                },
                libc::pollfd {
                    fd: stop_read.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                },
            ];
            // SAFETY: fds is a valid array of two pollfd for the call.
            let ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) };
            if ready < 0 {
                continue; // EINTR
            }
            if fds[1].revents != 0 {
                // Stopped: the terminal is being hung up or dropped.
                let mut output = shared.output.lock().expect("output lock");
                output.closed = true;
                shared.changed.notify_all();
                return;
            }
            let n = match reader.read(&mut buf) {
                // The master is non-blocking (see `set_nonblocking`).
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::Interrupted | std::io::ErrorKind::WouldBlock
                    ) =>
                {
                    continue;
                }
                // End of file or EIO: the slave side is closed.
                Ok(n) => n,
                Err(_) => 0,
            };
            let mut output = shared.output.lock().expect("output lock");
            if n == 0 {
                output.closed = true;
                shared.changed.notify_all();
                return;
            }
            output.take(&buf[..n]);
            shared.changed.notify_all();
        }
    });
    (thread, stop_write)
}

/// A pipe (read end, write end), both closed on exec.
fn pipe() -> (File, File) {
    let mut fds = [0; 2];
    // SAFETY: fds has room for the two descriptors pipe2 writes.
    let result = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    assert_eq!(result, 0, "pipe2");
    // SAFETY: both descriptors are fresh and owned by nothing else.
    unsafe {
        (
            File::from(OwnedFd::from_raw_fd(fds[0])),
            File::from(OwnedFd::from_raw_fd(fds[1])),
        )
    }
}

/// Makes reads and writes on `master` (every descriptor of it: they share
/// one open file) return at once rather than wait.
fn set_nonblocking(master: &dyn MasterPty) {
    let fd = master
        .as_raw_fd()
        .expect("the master has a file descriptor");
    // SAFETY: fcntl has no memory-safety preconditions; results are checked.
    let result = unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 {
            flags
        } else {
            libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK)
        }
    };
    assert!(result >= 0, "make the pty's master non-blocking");
}

/// The line-discipline settings of the terminal behind `master`.
fn termios(master: &dyn MasterPty) -> libc::termios {
    let fd = master
        .as_raw_fd()
        .expect("the master has a file descriptor");
    // SAFETY: termios is plain data, filled in by tcgetattr.
    let mut termios: libc::termios = unsafe { std::mem::zeroed() };
    // SAFETY: fd is open for the master's lifetime; termios is valid.
    let result = unsafe { libc::tcgetattr(fd, &mut termios) };
    assert_eq!(result, 0, "tcgetattr on the pty");
    termios
}

/// How many times `needle` occurs in `haystack`.
pub fn count(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .filter(|w| *w == needle)
        .count()
}

/// The DEC private modes (`ESC [ ? N h` / `l`) whose last setting in
/// `output` differs from the terminal's default, with that last setting
/// (true: set). Text cursor (25) and autowrap (7) are on by default,
/// everything else off.
pub fn private_modes_left_changed(output: &[u8]) -> Vec<(u32, bool)> {
    let mut last: Vec<(u32, bool)> = Vec::new();
    let mut rest = output;
    while let Some(start) = find(rest, b"\x1b[?") {
        rest = &rest[start + 3..];
        let end = rest
            .iter()
            .position(|b| !(b.is_ascii_digit() || *b == b';'))
            .unwrap_or(rest.len());
        let set = match rest.get(end) {
            Some(b'h') => true,
            Some(b'l') => false,
            _ => continue,
        };
        let params = std::str::from_utf8(&rest[..end]).expect("digits");
        for mode in params.split(';').filter_map(|p| p.parse::<u32>().ok()) {
            last.retain(|&(m, _)| m != mode);
            last.push((mode, set));
        }
        rest = &rest[end + 1..];
    }
    last.retain(|&(mode, set)| set != matches!(mode, 7 | 25));
    last.sort_unstable();
    last
}

/// Where `needle` first occurs in `haystack`.
pub fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Runs `program` in a fresh sandbox with `args`, `input` on standard input
/// and standard output and error captured (no terminal).
pub fn run_piped(program: impl AsRef<Path>, args: &[&str], input: &str) -> std::process::Output {
    let sandbox = Sandbox::new();
    let mut command = Command::new(program.as_ref());
    command.args(args);
    sandbox.apply(&mut command);
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("start {}: {e}", program.as_ref().display()));
    let watchdog = Watchdog::new(&child);
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_owned();
    let writer = std::thread::spawn(move || {
        // The program may stop reading early (quit); that is its business.
        let _ = stdin.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().expect("wait for the program");
    drop(watchdog);
    writer.join().expect("the stdin writer thread");
    output
}

/// Waits up to `timeout` for the process `pid` to be stopped (by SIGTSTP,
/// SIGSTOP, …): true if it is.
pub fn wait_stopped(pid: i32, timeout: Duration) -> bool {
    wait_stopped_after(pid, None, timeout)
}

/// Waits up to `timeout` for the process `pid`, stopped when its main
/// thread had given up the processor `switches` times (see
/// [`voluntary_switches`]), to be stopped again once continued: true if it
/// is. A stop shows as soon as it happens; a continuation followed at once
/// by another stop may never show in the process's state, but the second
/// stop counts a switch.
pub fn wait_stopped_again(pid: i32, switches: u64, timeout: Duration) -> bool {
    wait_stopped_after(pid, Some(switches), timeout)
}

fn wait_stopped_after(pid: i32, switches: Option<u64>, timeout: Duration) -> bool {
    let deadline = Instant::now() + timeout;
    loop {
        // The count first: once it has changed, the process has run since
        // its last stop, and a stop read after it is a new one.
        let since = switches.is_none_or(|before| voluntary_switches(pid) != before);
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid)).unwrap_or_default();
        // "PID (COMM) STATE ...": the state follows the last ')'.
        let state = stat
            .rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().next());
        if state == Some("T") && since {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// How many times the main thread of the process `pid` has given up the
/// processor: to sleep, or to stop. 0 if it cannot be told.
pub fn voluntary_switches(pid: i32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("voluntary_ctxt_switches:"))
        .and_then(|count| count.trim().parse().ok())
        .unwrap_or(0)
}

/// Sends the signal `signal` (`libc::SIGTERM`, …) to the process `pid`.
pub fn send_signal(pid: i32, signal: i32) {
    // SAFETY: kill has no memory-safety preconditions.
    let result = unsafe { libc::kill(pid, signal) };
    assert_eq!(result, 0, "kill({pid}, {signal}) failed");
}

/// The process of this id, killed (SIGTERM) when dropped, even by a test
/// that fails.
pub struct Killed(pub i32);

impl Drop for Killed {
    fn drop(&mut self) {
        // SAFETY: kill has no memory-safety preconditions; a process gone
        // already only makes it fail.
        unsafe { libc::kill(self.0, libc::SIGTERM) };
    }
}
