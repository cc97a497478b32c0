//! `clines`: wiring only; the game lives in the library.

use std::io::{self, Write};
use std::process::ExitCode;

use clines::cli::{self, Command};
use clines::tui;

fn main() -> ExitCode {
    let command = cli::parse(std::env::args_os()).unwrap_or_else(|e| e.exit());
    match command {
        Command::Batch { rules, seed } => {
            let seed = seed.unwrap_or_else(os_seed);
            match clines::batch::run(rules, seed, io::stdin().lock(), io::stdout().lock()) {
                Ok(()) => ExitCode::SUCCESS,
                // A closed pipe means the other side is done with us.
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("clines: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Play {
            rules,
            seed,
            appearance,
            autoplay,
            autoplay_delay,
            ..
        } => {
            let config = tui::PlayConfig {
                rules,
                seed: seed.unwrap_or_else(os_seed),
                appearance,
                scoreboard: tui::Scoreboard::default(),
                autoplay,
                autoplay_delay,
            };
            match tui::run(config) {
                Ok(outcome) => {
                    // The terminal may be gone (SIGHUP): nothing to report to.
                    let _ = writeln!(io::stdout(), "Scores earned : {}", outcome.score);
                    ExitCode::SUCCESS
                }
                // The required-size lines, as the original prints them.
                Err(tui::Error::TooSmall(message)) => {
                    eprintln!("{message}");
                    ExitCode::FAILURE
                }
                Err(e) => {
                    eprintln!("clines: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::List { score_dir } => {
            let listing = clines::records::list(score_dir.as_deref());
            for warning in &listing.warnings {
                eprintln!("clines: {warning}");
            }
            // `clines -l | head` closing the pipe early is not an error.
            let _ = io::stdout().write_all(listing.text.as_bytes());
            ExitCode::SUCCESS
        }
    }
}

/// A seed from the operating system's random source.
fn os_seed() -> u64 {
    getrandom::u64().expect("the operating system has a random source")
}
