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
//! Every option is checked before then too, `--from` against the rules and
//! `--phases`. Its tests run with `cargo test --example train`.

use std::path::Path;
use std::process::ExitCode;

use clines::ai::Weights;
use clines::ai::learn::{self, MAX_PHASES, Training, train};
use clines::game::{Rule, Rules};

#[path = "support/budget.rs"]
mod budget;
#[cfg(test)]
#[path = "support/command_line.rs"]
mod command_line;
#[path = "support/flags.rs"]
mod flags;
#[path = "support/output.rs"]
mod output;
#[path = "support/replace.rs"]
mod replace;
#[path = "support/rules.rs"]
mod rules;
#[path = "support/tell.rs"]
mod tell;

use output::{Output, say};
use replace::Replacement;
use tell::tell;

const USAGE: &str = "usage: train --out FILE [--from FILE] [--games N] [--seed S] [--rate R] [--blend B]
             [--candidates N] [--refined N] [--samples N] [--replies N] [--depth N] [--max-turns T] [--phases P] [--every N] [--width W] [--height H] [--colors C] [--next N]";

struct Options {
    out: String,
    from: Option<String>,
    every: u64,
    rules: Rules,
    training: Training,
}

/// The options read from `args` (the program's name left out), or `None`
/// when help was asked for. Each is checked here, naming it, rather than
/// by the training once started.
fn parse(args: impl IntoIterator<Item = String>) -> Result<Option<Options>, String> {
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
    let mut args = args.into_iter();
    while let Some(flag) = args.next() {
        if flag == "-h" || flag == "--help" {
            return Ok(None);
        }
        let value = flags::value(&flag, &FLAGS, &mut args).map_err(|e| format!("{e}\n{USAGE}"))?;
        apply(&mut options, &flag, &value).map_err(|e| format!("{e}\n{USAGE}"))?;
    }
    if options.out.is_empty() {
        return Err(format!("--out is needed\n{USAGE}"));
    }
    // Before the rules, so that a board too small for the opening throw
    // (which no flag sets) is told what it lacks.
    let Rules {
        width,
        height,
        line,
        ..
    } = options.rules;
    if width < line && height < line {
        return Err(format!(
            "--width {width} --height {height}: a table needs room for a line of {line}, \
             a width or height of at least {line}\n{USAGE}"
        ));
    }
    rules::validate(&options.rules, &Rule::ALL)?;
    // The lines are five cells (no flag sets them): only the board can
    // be too big for a table.
    learn::fits(options.rules)
        .map_err(|e| format!("--width {width} --height {height}: {e}\n{USAGE}"))?;
    // Zero games only copy a --from table, into more phases.
    if options.training.games == 0 && options.from.is_none() {
        return Err(format!(
            "--games 0: with no --from table to copy, the table would be all zeros; \
             give at least 1\n{USAGE}"
        ));
    }
    Ok(Some(options))
}

/// Every option that takes a value.
const FLAGS: [&str; 18] = [
    "--out",
    "--from",
    "--games",
    "--seed",
    "--rate",
    "--blend",
    "--candidates",
    "--refined",
    "--samples",
    "--replies",
    "--depth",
    "--max-turns",
    "--phases",
    "--every",
    "--width",
    "--height",
    "--colors",
    "--next",
];

/// The rules this tool takes.
const RULES: [Rule; 4] = [Rule::Width, Rule::Height, Rule::Colors, Rule::Next];

/// Sets the option `flag` to `value` in `options`.
fn apply(options: &mut Options, flag: &str, value: &str) -> Result<(), String> {
    let set = budget::set(&mut options.training.budget, flag, value)
        .or_else(|| rules::set(&mut options.rules, &RULES, flag, value));
    if let Some(set) = set {
        return set;
    }
    let whole = || {
        value
            .parse::<u64>()
            .map_err(|_| format!("{flag} {value}: not a whole number"))
    };
    let real = || {
        value
            .parse::<f64>()
            .map_err(|_| format!("{flag} {value}: not a number"))
    };
    let training = &mut options.training;
    match flag {
        "--out" => options.out = value.to_string(),
        "--from" => options.from = Some(value.to_string()),
        "--games" => training.games = whole()?,
        "--seed" => training.seed = whole()?,
        // A NaN rate would make every weight of the table NaN.
        "--rate" => {
            training.rate = Some(real()?)
                .filter(|rate| rate.is_finite() && *rate > 0.0)
                .ok_or_else(|| format!("--rate {value}: must be a finite number above 0"))?;
        }
        "--blend" => {
            training.blend = real()?;
            let weights = Weights {
                learned: training.blend,
                ..Weights::default()
            };
            weights
                .validate()
                .map_err(|e| format!("--blend {value}: {e}"))?;
        }
        "--max-turns" => training.max_turns = whole()?,
        "--phases" => {
            training.phases = Some(whole()?)
                .filter(|phases| (1..=MAX_PHASES as u64).contains(phases))
                .ok_or_else(|| format!("--phases {value}: must be from 1 to {MAX_PHASES}"))?
                as usize;
        }
        "--every" => {
            options.every = Some(whole()?)
                .filter(|&every| every > 0)
                .ok_or_else(|| format!("--every {value}: must be at least 1"))?;
        }
        _ => unreachable!("{flag}: every flag in FLAGS is handled above"),
    }
    Ok(())
}

/// The table `--from` names, read and checked against the rules and
/// `--phases`; `None` without `--from`.
fn read_start(options: &Options) -> Result<Option<Vec<u8>>, String> {
    let Some(from) = &options.from else {
        return Ok(None);
    };
    let bytes = std::fs::read(from).map_err(|e| format!("--from {from}: {e}"))?;
    let phases =
        learn::phases_of(options.rules, &bytes).map_err(|e| format!("--from {from}: {e}"))?;
    // A table of one phase is copied into as many as asked.
    if phases > 1 && phases != options.training.phases {
        return Err(format!(
            "--from {from}: the table has {phases} phases, not {}: give --phases {phases} \
             to train it on",
            options.training.phases
        ));
    }
    Ok(Some(bytes))
}

fn main() -> ExitCode {
    let options = match parse(std::env::args().skip(1)) {
        Ok(Some(options)) => options,
        Ok(None) => {
            let mut out = Output::new("train");
            say!(out, "{USAGE}");
            return out.finish();
        }
        Err(e) => {
            tell(format_args!("train: {e}"));
            return ExitCode::from(2);
        }
    };
    let start = match read_start(&options) {
        Ok(start) => start,
        Err(e) => {
            tell(format_args!("train: {e}"));
            return ExitCode::from(2);
        }
    };
    let destination = match Replacement::new(Path::new(&options.out)) {
        Ok(destination) => destination,
        Err(e) => {
            tell(format_args!("train: --out {}: {e}", options.out));
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
    let written = trained.and_then(|table| {
        destination
            .write(&table)
            .map_err(|e| format!("{}: {e}; it is left as it was", options.out))
    });
    match written {
        Ok(()) => out.finish(),
        Err(e) => {
            tell(format_args!("train: {e}"));
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use command_line::{refusal, words};

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
        assert!(Replacement::new(&dir.path().join("none/t.bin")).is_err());
        assert!(Replacement::new(dir.path()).is_err());
    }

    #[test]
    fn the_table_replaces_out_whole_or_not_at_all() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let out = dir.path().join("value.bin");
        std::fs::write(&out, "earlier").expect("written");
        // A training that fails drops its destination unwritten.
        let destination = Replacement::new(&out).expect("a writable directory");
        assert_eq!(listing(dir.path()).len(), 2);
        drop(destination);
        assert_eq!(listing(dir.path()), ["value.bin"]);
        assert_eq!(std::fs::read(&out).expect("read"), b"earlier");
        let destination = Replacement::new(&out).expect("a writable directory");
        destination.write(b"table").expect("written");
        assert_eq!(listing(dir.path()), ["value.bin"]);
        assert_eq!(std::fs::read(&out).expect("read"), b"table");
    }

    #[test]
    fn options_the_training_would_refuse_are_refused_by_name() {
        for (line, start) in [
            ("--rate NaN", "--rate NaN: "),
            ("--rate 0", "--rate 0: "),
            ("--blend inf", "--blend inf: "),
            ("--phases 0", "--phases 0: "),
            ("--phases 5", "--phases 5: "),
            ("--every 0", "--every 0: "),
            ("--colors 300", "--colors 300: "),
            ("--width 0", "--width 0: "),
        ] {
            let error = refusal(parse, &format!("--out x {line}"));
            assert!(error.starts_with(start), "{line}: {error}");
        }
    }

    #[test]
    fn a_board_with_no_room_for_a_line_is_refused_by_name() {
        for (line, start) in [
            ("--width 4 --height 4", "--width 4 --height 4: "),
            ("--height 3 --width 1 --next 1", "--width 1 --height 3: "),
            ("--width 1 --height 2 --next 1", "--width 1 --height 2: "),
        ] {
            let error = refusal(parse, &format!("--out x {line}"));
            assert!(error.starts_with(start), "{line}: {error}");
            assert!(error.contains("room for a line of 5"), "{line}: {error}");
        }
        assert!(parse(words("--out x --width 5 --height 1 --next 1")).is_ok());
        assert!(parse(words("--out x --width 1 --height 5 --next 1")).is_ok());
    }

    #[test]
    fn rules_too_big_for_a_table_are_refused_saying_what_fits() {
        for (line, says) in [
            ("--width 65 --height 64", "at most 4096 cells, not 65x64"),
            (
                "--width 1000 --height 1000",
                "at most 4096 cells, not 1000x1000",
            ),
        ] {
            let error = refusal(parse, &format!("--out x {line}"));
            assert!(error.starts_with(&format!("{line}: ")), "{error}");
            assert!(error.contains(says), "{line}: {error}");
        }
        assert!(parse(words("--out x --width 64 --height 64 --next 4096")).is_ok());
    }

    #[test]
    fn no_games_are_refused_unless_a_table_is_copied() {
        let error = refusal(parse, "--out x --games 0");
        assert!(error.starts_with("--games 0: "), "{error}");
        assert!(error.contains("give at least 1"), "{error}");
        assert!(parse(words("--out x --games 0 --from y --phases 3")).is_ok());
    }

    #[test]
    fn an_unknown_option_is_unknown_whatever_its_value() {
        for line in ["--bogus", "--bogus x", "--out x --bogus", "--line 5"] {
            let error = refusal(parse, line);
            assert!(error.starts_with("unknown option --"), "{line}: {error}");
            assert!(error.contains("usage: train"), "{line}: {error}");
        }
    }

    #[test]
    fn every_option_listed_is_taken() {
        for flag in FLAGS {
            // The board keeps room for a line of 5.
            let value = if flag == "--width" || flag == "--height" {
                "9"
            } else {
                "1"
            };
            let line = format!("--out x {flag} {value}");
            assert!(parse(words(&line)).is_ok(), "{line}");
        }
    }

    #[test]
    fn a_table_of_other_phases_names_the_option_to_give() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let from = dir.path().join("value.bin");
        std::fs::write(&from, include_bytes!("../src/ai/value.bin")).expect("written");
        let line = format!("--out x --from {}", from.display());
        let options = parse(words(&line)).expect("taken").expect("no help");
        let error = read_start(&options).expect_err("3 phases, not 1");
        assert!(error.contains("give --phases 3"), "{error}");
        let options = Options {
            training: Training {
                phases: 3,
                ..options.training
            },
            ..options
        };
        assert!(read_start(&options).is_ok());
    }
}
