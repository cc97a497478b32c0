//! `clines`: wiring only; the game lives in the library.

use std::io::{self, Write};
use std::process::ExitCode;

use clines::batch;
use clines::cli::{self, Command};
use clines::records::{self, RuleSet, Store};
use clines::tui;

fn main() -> ExitCode {
    let command = cli::parse(std::env::args_os()).unwrap_or_else(|e| e.exit());
    match command {
        Command::Batch {
            rules,
            preview,
            seed,
        } => {
            let seed = seed.unwrap_or_else(os_seed);
            let (input, output) = (io::stdin().lock(), io::stdout().lock());
            match batch::run(rules, preview, seed, input, output) {
                Ok(()) => ExitCode::SUCCESS,
                // A closed pipe means the other side is done with us.
                Err(batch::Error::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
                    ExitCode::SUCCESS
                }
                Err(batch::Error::Read(e)) => {
                    report(&format!("clines: cannot read standard input: {e}"));
                    ExitCode::FAILURE
                }
                Err(batch::Error::Write(e)) => {
                    report(&format!("clines: cannot write standard output: {e}"));
                    ExitCode::FAILURE
                }
            }
        }
        Command::Play {
            rules,
            preview,
            seed,
            appearance,
            score_dir,
            autoplay,
            autoplay_delay,
            new,
        } => {
            // Decided on the options as given, before any seed is drawn. A
            // preview makes the game easier: its records are kept apart.
            let records = if records::records_enabled(seed) {
                match Store::open(score_dir.as_deref()) {
                    Ok(store) => {
                        tui::RecordKeeping::KeptIn(store.with_rules(RuleSet::new(rules, preview)))
                    }
                    Err(e) => tui::RecordKeeping::Unavailable(format!("clines: {e}")),
                }
            } else {
                tui::RecordKeeping::Off
            };
            // Saves need the user and directory only, whatever the records.
            let saves = Store::open(score_dir.as_deref())
                .ok()
                .and_then(|store| records::SaveSlot::new(&store, rules, preview));
            let config = tui::PlayConfig {
                rules,
                preview,
                saves,
                resume: !new,
                seed: seed.unwrap_or_else(os_seed),
                appearance,
                records,
                autoplay,
                autoplay_delay,
            };
            match tui::run(config) {
                // The game has printed its closing lines.
                Ok(_) => ExitCode::SUCCESS,
                // The required-size lines, as the original prints them.
                Err(tui::Error::TooSmall(message)) => {
                    report(&message);
                    ExitCode::FAILURE
                }
                Err(e) => {
                    report(&format!("clines: {e}"));
                    ExitCode::FAILURE
                }
            }
        }
        Command::Completions(shell) => {
            let mut stdout = io::stdout().lock();
            let written = stdout
                .write_all(&cli::completion_script(shell))
                .and_then(|()| stdout.flush());
            match written {
                Ok(()) => ExitCode::SUCCESS,
                // A reader that stops early (`| head`) is done with us.
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                // A full disk must not leave a packager a cut-off script.
                Err(e) => {
                    report(&format!("clines: writing the completion script: {e}"));
                    ExitCode::FAILURE
                }
            }
        }
        Command::List {
            score_dir,
            rules,
            preview,
        } => {
            match records::list(score_dir.as_deref(), &RuleSet::new(rules, preview)) {
                Ok(listing) => {
                    for warning in &listing.warnings {
                        report(&format!("clines: {warning}"));
                    }
                    // `clines -l | head` closing the pipe early is not an error.
                    let _ = io::stdout().write_all(listing.text.as_bytes());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    report(&format!("clines: {e}"));
                    ExitCode::FAILURE
                }
            }
        }
    }
}

/// Writes a line on standard error, which may be a terminal that is gone:
/// `eprintln!` would panic there.
fn report(line: &str) {
    let _ = writeln!(io::stderr(), "{line}");
}

/// A seed from the operating system's random source.
fn os_seed() -> u64 {
    getrandom::u64().expect("the operating system has a random source")
}
