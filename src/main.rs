//! `clines`: wiring only; the game lives in the library.
//!
//! The program starts from C's `main`, not std's: see [`clines::runtime`]
//! for why and for what it does in std's place.
#![no_main]

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::Path;

use clines::batch;
use clines::cli::{self, Command, Play, Warning};
use clines::game::{Preview, Rules};
use clines::records::{self, RuleSet, Store};
use clines::{runtime, tui};

/// The exit status of a run that did what was asked.
const SUCCESS: i32 = 0;
/// The exit status of a run that failed (clap's refusals exit with 2).
const FAILURE: i32 = 1;

/// The process's entry point, called by the C library's start-up code with
/// the command line.
///
/// # Safety
/// `argv` must hold `argc` pointers, each null or to a NUL-terminated
/// string, as the start-up code passes them; nothing else calls this.
// SAFETY: `no_main` leaves this the only symbol named `main` in the program;
// its signature is the one the C start-up code calls.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
unsafe extern "C" fn main(argc: libc::c_int, argv: *const *const libc::c_char) -> libc::c_int {
    // SAFETY: the caller's promise, passed on.
    unsafe { runtime::run(argc, argv, clines_main) }
}

/// What `clines` does, and its exit status.
fn clines_main(args: Vec<OsString>) -> i32 {
    #[cfg(debug_assertions)]
    runtime::panic_if_asked("start");
    if cli::asks_only_version(&args) {
        return print("the version", cli::version_line().as_bytes());
    }
    let command = match cli::parse(args) {
        Ok(command) => command,
        // Help and version go to standard output, where a failed write
        // must be told (clap's `exit` would say nothing and exit 0).
        Err(e) if !e.use_stderr() => {
            let what = match e.kind() {
                clap::error::ErrorKind::DisplayVersion => "the version",
                _ => "the help",
            };
            return print(what, e.render().to_string().as_bytes());
        }
        Err(e) => e.exit(),
    };
    match command {
        Command::Batch {
            rules,
            preview,
            seed,
        } => play_headless(rules, preview, seed),
        Command::Play(play) => play_in_terminal(play),
        Command::Completions(shell) => {
            print("the completion script", &cli::completion_script(shell))
        }
        Command::List {
            score_dir,
            rules,
            preview,
        } => list(score_dir.as_deref(), &RuleSet::new(rules, preview)),
    }
}

/// Plays headless over standard input and output.
fn play_headless(rules: Rules, preview: Preview, seed: Option<u64>) -> i32 {
    let seed = seed.unwrap_or_else(os_seed);
    let input = io::stdin().lock();
    let played = if runtime::stdout_was_closed() {
        batch::run(rules, preview, seed, input, ClosedOutput)
    } else {
        batch::run(rules, preview, seed, input, io::stdout().lock())
    };
    match played {
        Ok(()) => SUCCESS,
        // A closed pipe means the other side is done with us.
        Err(batch::Error::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => SUCCESS,
        Err(batch::Error::Read(e)) => {
            report(&format!("clines: cannot read standard input: {e}"));
            FAILURE
        }
        Err(batch::Error::Write(e)) => {
            report(&format!("clines: cannot write standard output: {e}"));
            FAILURE
        }
    }
}

/// Plays in the terminal, keeping records and saved games where it can.
fn play_in_terminal(play: Play) -> i32 {
    let Play {
        rules,
        preview,
        seed,
        appearance,
        autoplay,
        new,
        autoplay_delay,
        score_dir,
        mut warnings,
    } = play;
    let store = Store::open(score_dir.as_deref());
    if let Some(text) = records::why_unusable(&store) {
        report(&format!("warning: {text}"));
        warnings.push(Warning {
            text,
            matters_in: None,
        });
    }
    // Saves need the user and directory only, whatever the records; where
    // there is no place for them, the save key says why.
    let saves = match &store {
        Ok(store) => records::SaveSlot::new(store, rules, preview).map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    };
    // Opened even with --seed, for a saved game that goes on. A
    // preview makes the game easier: its records are kept apart.
    let records = match store {
        Ok(store) => tui::RecordKeeping::KeptIn(store.with_rules(RuleSet::new(rules, preview))),
        Err(e) => tui::RecordKeeping::Unavailable(e.to_string()),
    };
    let config = tui::PlayConfig {
        rules,
        preview,
        saves,
        resume: !new,
        seed: seed.unwrap_or_else(os_seed),
        appearance,
        records,
        // Decided on the options as given, before any seed is drawn.
        new_games_keep_records: records::records_enabled(seed),
        autoplay,
        autoplay_delay,
        warnings,
    };
    match tui::run(config) {
        // The game has printed its closing lines.
        Ok(_) => SUCCESS,
        // The first required-size line, as the original prints it.
        Err(tui::Error::TooSmall(message)) => {
            report(&message);
            FAILURE
        }
        Err(e) => {
            report(&format!("clines: {e}"));
            FAILURE
        }
    }
}

/// Prints the records kept for `rules`, with a warning for each file that
/// could not be read.
fn list(score_dir: Option<&Path>, rules: &RuleSet) -> i32 {
    match records::list(score_dir, rules) {
        Ok(listing) => {
            for warning in &listing.warnings {
                report(&format!("clines: {warning}"));
            }
            print("the records", listing.text.as_bytes())
        }
        Err(e) => {
            report(&format!("clines: {e}"));
            FAILURE
        }
    }
}

/// Writes `bytes`, which are `what` (`the help`), on standard output and
/// says whether that worked. A reader that stops early (`| head`) is done
/// with us: no failure. Any other failed write (a full disk) is reported,
/// as a cut-off help, listing or script must not look like success.
fn print(what: &str, bytes: &[u8]) -> i32 {
    // Closed, it is /dev/null, which takes every write: the loss is told.
    if runtime::stdout_was_closed() && !bytes.is_empty() {
        report(&format!(
            "clines: writing {what}: standard output is closed"
        ));
        return FAILURE;
    }
    let mut stdout = io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => SUCCESS,
        Err(e) => {
            report(&format!("clines: writing {what}: {e}"));
            FAILURE
        }
    }
}

/// Standard output that was closed when the program started: it is
/// `/dev/null` since, which takes every write, so writes here fail instead,
/// and the loss is told.
struct ClosedOutput;

impl Write for ClosedOutput {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::other("it is closed"))
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Writes a line on standard error, which may be a terminal that is gone:
/// `eprintln!` would panic there.
fn report(line: &str) {
    let _ = writeln!(io::stderr(), "{line}");
}

/// A seed from the operating system's random source (in debug builds,
/// the tests' `CLINES_TEST_SEED` when given).
fn os_seed() -> u64 {
    #[cfg(debug_assertions)]
    if let Some(seed) = runtime::test_seed() {
        return seed;
    }
    getrandom::u64().expect("the operating system has a random source")
}
