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
    match trained.and_then(|table| {
        std::fs::write(&options.out, &table).map_err(|e| format!("{}: {e}", options.out))
    }) {
        Ok(()) => out.finish(),
        Err(e) => {
            eprintln!("train: {e}");
            ExitCode::FAILURE
        }
    }
}
