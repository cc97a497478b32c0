//! Time the default player takes to answer `hint` on a board of a given
//! size and fill, as the headless mode and the terminal ask it.
//!
//! ```text
//! cargo run --release --example hintcost -- --width 300 --height 300 --fill 30 --colors 7
//! ```
//!
//! The board is a seeded game's first throw of `fill` % of the cells. Each
//! of `--repeats` hints (different seeds) is timed on the wall clock, with
//! the player's own threads; the first one includes making the player.

use std::process::ExitCode;
use std::time::Instant;

use clines::ai::Player;
use clines::game::{Game, Rules};

const USAGE: &str = "usage: hintcost [--width W] [--height H] [--colors C] [--line I] [--fill PERCENT] [--repeats N] [--threads K]";

fn main() -> ExitCode {
    let mut rules = Rules::default();
    let (mut fill, mut repeats, mut threads) = (30usize, 5usize, 0usize);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let Some(value) = args.next().and_then(|v| v.parse::<usize>().ok()) else {
            eprintln!("{flag} needs a whole number\n{USAGE}");
            return ExitCode::from(2);
        };
        match flag.as_str() {
            "--width" => rules.width = value,
            "--height" => rules.height = value,
            "--colors" => rules.colors = value.min(255) as u8,
            "--line" => rules.line = value,
            "--fill" => fill = value.min(100),
            "--repeats" => repeats = value.max(1),
            "--threads" => threads = value,
            _ => {
                eprintln!("unknown option {flag}\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let first = (rules.width * rules.height * fill / 100).max(1);
    if let Err(e) = (Rules { first, ..rules }).validate() {
        eprintln!("{e}");
        return ExitCode::from(2);
    }
    let (game, _) = Game::new(Rules { first, ..rules }, 1);
    let started = Instant::now();
    let mut player = Player::new(rules);
    if threads > 0 {
        player = player.with_threads(threads);
    }
    let made = started.elapsed();
    let mut times = Vec::new();
    for seed in 0..repeats as u64 {
        let started = Instant::now();
        let chosen = player.choose(game.board(), seed);
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        assert!(chosen.is_some(), "a board with chips and room has a move");
    }
    let first_hint = times[0];
    times.sort_by(f64::total_cmp);
    println!(
        "{}x{} colors={} fill={}%: making the player {:.1} ms; hint median {:.1} ms, min {:.1}, max {:.1}, first {:.1} ({} hints)",
        rules.width,
        rules.height,
        rules.colors,
        fill,
        made.as_secs_f64() * 1000.0,
        times[times.len() / 2],
        times[0],
        times[times.len() - 1],
        first_hint,
        repeats
    );
    ExitCode::SUCCESS
}
