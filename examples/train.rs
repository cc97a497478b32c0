//! Trains the player's learned value by self-play and writes the table.
//!
//! ```text
//! cargo run --release --example train -- --out one-phase.bin
//! cargo run --release --example train -- --from one-phase.bin --phases 3 --out src/ai/value.bin
//! ```
//!
//! These two passes, of about half an hour each on one core, trained the
//! table in the repository: the first trains a table of one phase from
//! zeros; the second copies it into three phases (weights for a board more
//! or less full) and trains those on.
//! The rules are the 7-colour game on 9 × 9 unless given; the table applies
//! to the rules it was trained for only. The same options train the same
//! table (one thread, game `g` seeded `--seed + g`). `--from` continues
//! from an earlier table. Progress, every `--every` games: mean points
//! (without the streak bonus) and turns of the games since the last line.
//!
//! `--out` is checked before the first game: a temporary file is created
//! beside it, which the table is written to and then renamed over it, so
//! that a training lost to an unwritable path fails at once, and a write
//! interrupted or failed (a full disk) leaves the earlier file whole: the
//! second pass writes over the table compiled into the game.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clines::ai::learn::{Training, train};
use clines::game::Rules;

#[path = "support/budget.rs"]
mod budget;
#[path = "support/output.rs"]
mod output;

use output::{Output, say};

const USAGE: &str = "usage: train --out FILE [--from FILE] [--games N] [--seed S] [--rate R] [--blend B]
             [--candidates N] [--refined N] [--samples N] [--replies N] [--depth N] [--max-turns T] [--phases P] [--every N] [--width W] [--height H] [--colors C] [--next N]";

struct Options {
    out: String,
    from: Option<String>,
    every: u64,
    rules: Rules,
    training: Training,
}

fn parse() -> Result<Option<Options>, String> {
    let mut options = Options {
        out: String::new(),
        from: None,
        every: 1000,
        rules: Rules {
            colors: 7,
            ..Rules::default()
        },
        training: Training::default(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "-h" || flag == "--help" {
            return Ok(None);
        }
        let value = args
            .next()
            .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
        let whole = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("{flag} {value}: not a whole number\n{USAGE}"))
        };
        let real = || {
            value
                .parse::<f64>()
                .map_err(|_| format!("{flag} {value}: not a number\n{USAGE}"))
        };
        if let Some(set) = budget::set(&mut options.training.budget, &flag, &value) {
            set.map_err(|e| format!("{e}\n{USAGE}"))?;
            continue;
        }
        match flag.as_str() {
            "--out" => options.out = value.clone(),
            "--from" => options.from = Some(value.clone()),
            "--games" => options.training.games = whole()?,
            "--seed" => options.training.seed = whole()?,
            "--rate" => options.training.rate = real()?,
            "--blend" => options.training.blend = real()?,
            "--max-turns" => options.training.max_turns = whole()?,
            "--phases" => options.training.phases = whole()? as usize,
            "--every" => options.every = whole()?,
            "--width" => options.rules.width = whole()? as usize,
            "--height" => options.rules.height = whole()? as usize,
            "--colors" => {
                options.rules.colors =
                    u8::try_from(whole()?).map_err(|_| format!("--colors {value}: too many"))?
            }
            "--next" => options.rules.next = whole()? as usize,
            _ => return Err(format!("unknown option {flag}\n{USAGE}")),
        }
    }
    if options.out.is_empty() {
        return Err(format!("--out is needed\n{USAGE}"));
    }
    Ok(Some(options))
}

fn main() -> ExitCode {
    let options = match parse() {
        Ok(Some(options)) => options,
        Ok(None) => {
            let mut out = Output::new("train");
            say!(out, "{USAGE}");
            return out.finish();
        }
        Err(e) => {
            eprintln!("train: {e}");
            return ExitCode::from(2);
        }
    };
    let start = match options.from.as_deref().map(std::fs::read).transpose() {
        Ok(start) => start,
        Err(e) => {
            eprintln!("train: --from: {e}");
            return ExitCode::FAILURE;
        }
    };
    let destination = match Destination::new(Path::new(&options.out)) {
        Ok(destination) => destination,
        Err(e) => {
            eprintln!("train: --out {}: {e}", options.out);
            return ExitCode::from(2);
        }
    };
    // The table is what counts: a failed report does not stop the
    // training, and is told once it is written.
    let mut out = Output::new("train");
    say!(out, "{:?}", options.training);
    let trained = train(
        options.rules,
        &options.training,
        start.as_deref(),
        options.every,
        |p| {
            say!(
                out,
                "games {:>8}  points {:>8.1}  turns {:>7.1}",
                p.games,
                p.points,
                p.turns
            )
        },
    );
    match trained.and_then(|table| destination.write(&table)) {
        Ok(()) => out.finish(),
        Err(e) => {
            eprintln!("train: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Where the table goes: a temporary file beside `--out`, created before
/// training so that a path that cannot be written fails at once, and
/// renamed over `--out` once the whole table is in it.
struct Destination {
    out: PathBuf,
    temporary: PathBuf,
    file: File,
}

impl Destination {
    /// Creates the temporary file beside `out`.
    ///
    /// # Errors
    /// When `out` is a directory or its directory cannot be written.
    fn new(out: &Path) -> Result<Destination, String> {
        if out.is_dir() {
            return Err("a directory".to_string());
        }
        let name = out.file_name().ok_or("no file name")?;
        let mut temporary_name = std::ffi::OsString::from(".");
        temporary_name.push(name);
        temporary_name.push(format!(".{}.tmp", std::process::id()));
        let temporary = out.with_file_name(temporary_name);
        let file = File::options()
            .write(true)
            .create_new(true)
            .open(&temporary)
            .map_err(|e| format!("{}: {e}", temporary.display()))?;
        Ok(Destination {
            out: out.to_path_buf(),
            temporary,
            file,
        })
    }

    /// Writes `table` whole to the temporary file, then renames it over
    /// `--out`. On failure `--out` is left as it was, and the temporary
    /// file goes as the destination is dropped.
    fn write(mut self, table: &[u8]) -> Result<(), String> {
        self.file
            .write_all(table)
            .and_then(|()| self.file.sync_all())
            .and_then(|()| std::fs::rename(&self.temporary, &self.out))
            .map_err(|e| format!("{}: {e}; it is left as it was", self.out.display()))
    }
}

impl Drop for Destination {
    /// Removes the temporary file when it was not renamed (the training
    /// or the write failed); after the rename, no file has its name.
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.temporary);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names in `dir`, sorted.
    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("a directory")
            .map(|entry| {
                entry
                    .expect("an entry")
                    .file_name()
                    .into_string()
                    .expect("UTF-8")
            })
            .collect();
        names.sort();
        names
    }

    #[test]
    fn an_out_that_cannot_be_written_fails_before_training() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        assert!(Destination::new(&dir.path().join("none/t.bin")).is_err());
        assert!(Destination::new(dir.path()).is_err());
    }

    #[test]
    fn the_table_replaces_out_whole_or_not_at_all() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let out = dir.path().join("value.bin");
        std::fs::write(&out, "earlier").expect("written");
        // A training that fails drops its destination unwritten.
        let destination = Destination::new(&out).expect("a writable directory");
        assert_eq!(listing(dir.path()).len(), 2);
        drop(destination);
        assert_eq!(listing(dir.path()), ["value.bin"]);
        assert_eq!(std::fs::read(&out).expect("read"), b"earlier");
        let destination = Destination::new(&out).expect("a writable directory");
        destination.write(b"table").expect("written");
        assert_eq!(listing(dir.path()), ["value.bin"]);
        assert_eq!(std::fs::read(&out).expect("read"), b"table");
    }
}
