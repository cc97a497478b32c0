//! Time the default player takes to answer `hint` on a board of a given
//! size and fill, as the headless mode and the terminal ask it.
//!
//! ```text
//! cargo run --release --example hintcost -- --width 300 --height 300 --fill 30 --colors 7
//! ```
//!
//! The board is a seeded game's first throw of `--fill` % of the cells
//! (0 to 99, at least one chip; the report gives the chips left after any
//! lines the throw made went, and a board left with no chip or no free
//! cell, where no move can be hinted, is refused). Each of `--repeats`
//! hints (different seeds) is timed on the wall clock and by the processor
//! time of the whole process (all the player's threads), which a busy
//! machine inflates less.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use clines::ai::Player;
use clines::game::{Game, Rule, Rules};
use tell::tell;

#[path = "support/flags.rs"]
mod flags;
#[path = "support/rules.rs"]
mod rules;
#[path = "support/tell.rs"]
mod tell;

const USAGE: &str = "usage: hintcost [--width W] [--height H] [--colors C] [--line I] [--next N] [--fill PERCENT] [--repeats N] [--threads K]";

/// The rules hintcost takes on its command line.
const RULES: [Rule; 5] = [
    Rule::Width,
    Rule::Height,
    Rule::Colors,
    Rule::Line,
    Rule::Next,
];

/// The largest `--fill`: a full board has no move to hint.
const MAX_FILL: usize = 99;

/// What to measure.
#[derive(Debug, PartialEq)]
struct Options {
    rules: Rules,
    /// Percent of the cells the opening throw fills.
    fill: usize,
    /// How many hints are timed.
    repeats: usize,
    /// The player's threads; 0 for its default.
    threads: usize,
}

fn main() -> ExitCode {
    let options = match parse(std::env::args().skip(1)) {
        Ok(Some(options)) => options,
        Ok(None) => return print(USAGE),
        Err(e) => {
            tell(format_args!("hintcost: {e}\n{USAGE}"));
            return ExitCode::from(2);
        }
    };
    match measure(&options) {
        Ok(report) => print(&report),
        Err(e) => {
            tell(format_args!("hintcost: {e}"));
            ExitCode::FAILURE
        }
    }
}

/// Prints `text` and a newline; a closed or full standard output
/// (`hintcost | head`, `> /dev/full`) is an error and exit 1, not the
/// panic `println!` gives.
fn print(text: &str) -> ExitCode {
    match write_line(&mut std::io::stdout().lock(), text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tell(format_args!("hintcost: standard output: {e}"));
            ExitCode::FAILURE
        }
    }
}

/// Writes `text` and a newline to `out`, flushed so that a failure shows.
fn write_line(out: &mut impl Write, text: &str) -> std::io::Result<()> {
    writeln!(out, "{text}")?;
    out.flush()
}

/// Every option, each taking a value.
const FLAGS: [&str; 8] = [
    "--width",
    "--height",
    "--colors",
    "--line",
    "--next",
    "--fill",
    "--repeats",
    "--threads",
];

/// The options in `args`, checked; `None` for `-h` or `--help`.
fn parse(mut args: impl Iterator<Item = String>) -> Result<Option<Options>, String> {
    let mut options = Options {
        rules: Rules::default(),
        fill: 30,
        repeats: 5,
        threads: 0,
    };
    while let Some(flag) = args.next() {
        if flag == "-h" || flag == "--help" {
            return Ok(None);
        }
        let text = flags::value(&flag, &FLAGS, &mut args)?;
        if let Some(set) = rules::set(&mut options.rules, &RULES, &flag, &text) {
            set?;
            continue;
        }
        let value = text
            .parse::<usize>()
            .map_err(|_| format!("{flag} {text}: not a whole number"))?;
        set(&mut options, &flag, value)?;
    }
    // The rules are checked before the fill is turned into chips, so that
    // the number of cells, at most a million, cannot overflow.
    let opening = Rules {
        first: 1,
        ..options.rules
    };
    rules::validate(&opening, &RULES)?;
    Ok(Some(options))
}

/// Sets the option `flag` (a known one, not a rule) to `value`, refusing
/// what is out of its range rather than clamping it.
fn set(options: &mut Options, flag: &str, value: usize) -> Result<(), String> {
    match flag {
        "--fill" if value > MAX_FILL => {
            return Err(format!(
                "--fill {value}: must be from 0 to {MAX_FILL} (a full board has no move)"
            ));
        }
        "--fill" => options.fill = value,
        "--repeats" if value == 0 => return Err("--repeats 0: must be at least 1".into()),
        "--repeats" => options.repeats = value,
        _ => options.threads = value,
    }
    Ok(())
}

/// Times the hints `options` asks for; the line that reports them.
fn measure(options: &Options) -> Result<String, String> {
    let Options {
        rules,
        fill,
        repeats,
        threads,
    } = *options;
    // At least one chip, so that there is something to move.
    let first = (rules.cells() * fill / 100).max(1);
    // The player does not read the opening's size, but checks it is valid.
    let rules = Rules { first, ..rules };
    let (game, _) = Game::new(rules, 1);
    let chips = game.board().len() - game.board().free();
    // With a chip and a free cell, some chip borders a free cell, so
    // the player has a move.
    if chips == 0 {
        return Err(format!(
            "the opening's lines took all of its {first} chips: no chip is left to move; \
             take another --fill, --colors or --line"
        ));
    }
    if game.board().free() == 0 {
        return Err(format!(
            "the opening's {first} chips fill the board: no cell is left to move to; \
             take a lower --fill or a bigger board"
        ));
    }
    let started = Instant::now();
    let mut player = Player::new(rules);
    if threads > 0 {
        player = player.with_threads(threads);
    }
    let made = started.elapsed();
    let mut wall = Vec::new();
    let mut cpu = Vec::new();
    for seed in 0..repeats as u64 {
        let started = Instant::now();
        let cpu_started = process_cpu_ms();
        let chosen = player.choose(game.board(), seed);
        wall.push(started.elapsed().as_secs_f64() * 1000.0);
        cpu.push(process_cpu_ms() - cpu_started);
        if chosen.is_none() {
            return Err(format!("the player found no move among {chips} chips"));
        }
    }
    wall.sort_by(f64::total_cmp);
    cpu.sort_by(f64::total_cmp);
    Ok(format!(
        "{}x{} colors={} fill={fill}% chips={chips}, {repeats} hints: making the player {:.1} ms; hint wall median {:.1} ms (max {:.1}), CPU median {:.1} ms (max {:.1})",
        rules.width,
        rules.height,
        rules.colors,
        made.as_secs_f64() * 1000.0,
        wall[wall.len() / 2],
        wall[wall.len() - 1],
        cpu[cpu.len() / 2],
        cpu[cpu.len() - 1],
    ))
}

/// Processor time used by the whole process, in milliseconds.
#[allow(unsafe_code)]
fn process_cpu_ms() -> f64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable timespec for the call's duration.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) };
    assert_eq!(status, 0, "the process's CPU clock is readable");
    now.tv_sec as f64 * 1000.0 + now.tv_nsec as f64 / 1e6
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(args: &[&str]) -> Result<Option<Options>, String> {
        parse(args.iter().map(|a| a.to_string()))
    }

    #[test]
    fn a_full_output_is_an_error_not_a_panic() {
        let mut full = [0u8; 4];
        let error = write_line(&mut &mut full[..], "9x9 colors=5").unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::WriteZero);
        let mut written = Vec::new();
        write_line(&mut written, "9x9").unwrap();
        assert_eq!(written, b"9x9\n");
    }

    #[test]
    fn help_is_asked_for_not_a_missing_number() {
        assert_eq!(parsed(&["--help"]), Ok(None));
        assert_eq!(parsed(&["--fill", "10", "-h"]), Ok(None));
    }

    #[test]
    fn a_fill_out_of_range_is_refused_not_clamped() {
        assert_eq!(parsed(&["--fill", "99"]).unwrap().unwrap().fill, 99);
        assert_eq!(parsed(&["--fill", "0"]).unwrap().unwrap().fill, 0);
        for fill in ["100", "150"] {
            let error = parsed(&["--fill", fill]).unwrap_err();
            assert!(error.starts_with(&format!("--fill {fill}: ")), "{error}");
        }
    }

    #[test]
    fn the_colours_reported_are_those_given() {
        let error = parsed(&["--colors", "300"]).unwrap_err();
        assert!(error.starts_with("--colors 300: "), "{error}");
        assert!(!error.contains("255"), "{error}");
        let error = parsed(&["--colors", "36"]).unwrap_err();
        assert!(error.starts_with("--colors 36: "), "{error}");
    }

    #[test]
    fn no_repeats_is_refused() {
        assert!(
            parsed(&["--repeats", "0"])
                .unwrap_err()
                .starts_with("--repeats 0")
        );
    }

    #[test]
    fn a_huge_board_is_refused_without_overflowing() {
        let huge = "4294967296";
        let error = parsed(&["--width", huge, "--height", huge]).unwrap_err();
        assert!(error.starts_with("--width 4294967296: "), "{error}");
        let max = usize::MAX.to_string();
        assert!(parsed(&["--height", &max, "--fill", "99"]).is_err());
    }

    #[test]
    fn a_board_too_small_for_the_throws_names_the_option_to_give() {
        let error = parsed(&["--width", "1", "--height", "2"]).unwrap_err();
        assert!(error.starts_with("--next 3: "), "{error}");
        let options = parsed(&["--width", "1", "--height", "2", "--next", "1"])
            .unwrap()
            .unwrap();
        assert_eq!(options.rules.next, 1);
    }

    #[test]
    fn an_unknown_option_is_named_whatever_its_value() {
        for args in [&["--bogus", "abc"][..], &["--bogus"]] {
            assert_eq!(parsed(args).unwrap_err(), "unknown option --bogus");
        }
        assert_eq!(parsed(&["--width"]).unwrap_err(), "--width needs a value");
        assert_eq!(
            parsed(&["--width", "abc"]).unwrap_err(),
            "--width abc: not a whole number"
        );
    }

    #[test]
    fn the_chips_reported_are_those_on_the_board() {
        let options = Options {
            fill: 0,
            repeats: 1,
            ..parsed(&[]).unwrap().unwrap()
        };
        let report = measure(&options).unwrap();
        assert!(report.contains("fill=0% chips=1,"), "{report}");
    }

    #[test]
    fn a_board_with_no_move_is_refused_saying_why() {
        let full = Rules {
            width: 1,
            height: 1,
            next: 0,
            ..Rules::default()
        };
        let cleared = Rules {
            colors: 1,
            line: 2,
            next: 0,
            ..Rules::default()
        };
        for (rules, fill, says) in [
            (full, 0, "fill the board: no cell is left to move to"),
            (
                cleared,
                90,
                "took all of its 72 chips: no chip is left to move",
            ),
        ] {
            let options = Options {
                rules,
                fill,
                repeats: 1,
                threads: 1,
            };
            let error = measure(&options).unwrap_err();
            assert!(error.contains(says), "{error}");
        }
    }
}
