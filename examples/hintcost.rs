//! Time the default player takes to answer `hint` on a board of a given
//! size and fill, as the headless mode and the terminal ask it.
//!
//! ```text
//! cargo run --release --example hintcost -- --width 300 --height 300 --fill 30 --colors 7
//! ```
//!
//! The board is a seeded game's first throw of `fill` % of the cells. Each
//! of `--repeats` hints (different seeds) is timed on the wall clock and
//! by the processor time of the whole process (all the player's threads),
//! which a busy machine inflates less.

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
    let mut wall = Vec::new();
    let mut cpu = Vec::new();
    for seed in 0..repeats as u64 {
        let started = Instant::now();
        let cpu_started = process_cpu_ms();
        let chosen = player.choose(game.board(), seed);
        wall.push(started.elapsed().as_secs_f64() * 1000.0);
        cpu.push(process_cpu_ms() - cpu_started);
        assert!(chosen.is_some(), "a board with chips and room has a move");
    }
    wall.sort_by(f64::total_cmp);
    cpu.sort_by(f64::total_cmp);
    println!(
        "{}x{} colors={} fill={}%, {} hints: making the player {:.1} ms; hint wall median {:.1} ms (max {:.1}), CPU median {:.1} ms (max {:.1})",
        rules.width,
        rules.height,
        rules.colors,
        fill,
        repeats,
        made.as_secs_f64() * 1000.0,
        wall[wall.len() / 2],
        wall[wall.len() - 1],
        cpu[cpu.len() / 2],
        cpu[cpu.len() - 1],
    );
    ExitCode::SUCCESS
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
