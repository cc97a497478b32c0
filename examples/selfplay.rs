//! Self-play benchmark of the built-in player on the real engine.
//!
//! ```text
//! cargo run --release --example selfplay -- --games 20 --colors 7 --seed 1 --max-turns 10000
//! cargo run --release --example selfplay -- --games 20 --colors 7 --preview cells
//! ```
//!
//! Game `g` is played with seed `S + g`. A turn is one player move. Scores
//! are shown as the engine counts them and without the streak bonus (`b²`),
//! recomputed from the removals, for comparison with players whose scoring
//! has none: mean ± standard error, median, range. `--threads` plays that
//! many games at once; each player samples on `--player-threads` threads
//! (1 by default, so that the CPU time per move, read from the thread's
//! clock, is the whole cost of the move). With `--preview colors` or
//! `--preview cells` the game shows its next throw and the player counts on
//! it ([`Player::choose_seeing`]). `--weight NAME=VALUE` (repeatable)
//! changes one of the evaluation's [`Weights`] by its field name, to check
//! a set that `examples/tune.rs` printed; `--learned W` is
//! `--weight learned=W`. `--value FILE` values positions with the learned
//! table in FILE (as `examples/train.rs` writes it) in place of the
//! compiled one; it is refused where no game would use it, trained for
//! other rules or at a learned weight of 0. The settings line says which
//! learned value the player counts, if any: the compiled table serves only
//! the 7-colour game on 9 × 9 with lines of 5 and throws of 3.
//!
//! `--trace FILE` writes every turn to FILE (created once every option is
//! checked, and never the `--against` file): the free cells before the
//! move and at the end of the turn (after the throw, when the move scored
//! nothing), the empty regions left (how many, and the largest) and the
//! points. The report then adds how the free cells drift
//! in a turn, by the free cells it began with: the board fills where the
//! change is negative and empties where it is positive, so a game settles
//! about where the sign turns and is lost when it strays far below.
//!
//! `--against FILE` compares this run with an earlier one game by game:
//! FILE holds that run's game lines (what it wrote to standard error), and
//! the games of the same seed are paired. Pair runs of the same rules only.
//! With 7 colours pairing gains little: two players' games of one seed
//! part within a few turns, and their scores hardly correlate (r from 0.10
//! to 0.25 between the default and four variants, over 20 to 100 games),
//! so the paired error is only a little smaller than two means' (66.3
//! against 70.7 over 100 games). Throws that stay alike as games part do
//! not help either: with each throw's cells taken in a fixed random order
//! of the board's cells and its colours fixed, both by the throw's number,
//! the default and `--samples 11` correlated at r = −0.19 over 60 games.
//! A change must be large to show on 20 games (a standard error of about
//! 100 points).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use clines::ai::{Budget, Player, Weights};
use clines::game::{Game, Preview, Rule, Rules, points_without_bonus};
use output::{Output, say};
use stats::mean_and_error;
use tell::tell;

#[path = "support/budget.rs"]
mod budget;
#[cfg(test)]
#[path = "support/command_line.rs"]
mod command_line;
#[path = "support/flags.rs"]
mod flags;
#[path = "support/output.rs"]
mod output;
#[path = "support/rules.rs"]
mod rules;
#[path = "support/stats.rs"]
mod stats;
#[path = "support/tell.rs"]
mod tell;
#[path = "support/trace.rs"]
mod trace;

use trace::{Step, drift, empty_regions, step_line};

const USAGE: &str =
    "usage: selfplay [--games N] [--seed S] [--max-turns T] [--threads K] [--player-threads K]
                [--preview off|colors|cells] [--width W] [--height H] [--colors C] [--line I] [--next N] [--first N]
                [--candidates N] [--refined N] [--samples N] [--replies N] [--depth N]
                [--learned WEIGHT] [--weight NAME=VALUE]... [--value TABLE-FILE] [--against EARLIER-RUN]
                [--trace FILE]
(--refined 0 or --samples 0: no sampling, the best exact candidate)";

/// What one game came to.
struct Outcome {
    seed: u64,
    score: u64,
    score_without_bonus: u64,
    turns: u64,
    reached_cap: bool,
    /// Wall-clock time of every move, in microseconds.
    move_micros: Vec<u32>,
    /// Processor time of every move (its thread's), in microseconds: what
    /// the move costs on this machine, however busy it is.
    move_cpu_micros: Vec<u32>,
    /// Every turn, with `--trace`.
    steps: Vec<Step>,
}

struct Options {
    games: u64,
    seed: u64,
    max_turns: u64,
    threads: usize,
    player_threads: usize,
    rules: Rules,
    preview: Preview,
    budget: Budget,
    /// The evaluation's weights.
    weights: Weights,
    /// The file of a learned table to use instead of the compiled one.
    value: Option<String>,
    /// The table read from it.
    table: Option<Vec<u8>>,
    /// Whether the player counts a learned value
    /// ([`Player::uses_learned_value`]).
    learned: bool,
    /// An earlier run's games to pair these with, and the file named.
    against: Option<(String, Vec<Earlier>)>,
    /// Where every turn is written, with the file's name.
    trace: Option<(String, Mutex<BufWriter<File>>)>,
}

/// A game of an earlier run, read back from its game line.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Earlier {
    seed: u64,
    score_without_bonus: u64,
    turns: u64,
}

/// The options read from `args` (the program's name left out), or `None`
/// when help was asked for. Every option is checked before the trace file
/// is created, so that a refused command line leaves no file behind.
fn parse(args: impl IntoIterator<Item = String>) -> Result<Option<Options>, String> {
    let mut options = Options {
        games: 10,
        seed: 1,
        max_turns: 10_000,
        threads: 1,
        player_threads: 1,
        rules: Rules::default(),
        preview: Preview::Off,
        budget: Budget::default(),
        weights: Weights::default(),
        value: None,
        table: None,
        learned: false,
        against: None,
        trace: None,
    };
    let mut trace = None;
    let mut args = args.into_iter();
    while let Some(flag) = args.next() {
        if flag == "-h" || flag == "--help" {
            return Ok(None);
        }
        let value = flags::value(&flag, &FLAGS, &mut args).map_err(|e| format!("{e}\n{USAGE}"))?;
        if flag == "--trace" {
            trace = Some(value);
        } else {
            apply(&mut options, &flag, value)?;
        }
    }
    rules::validate(&options.rules, &Rule::ALL)?;
    options.weights.validate().map_err(|e| match e.name {
        "learned" => format!("--learned: {e}"),
        name => format!("--weight {name}: {e}"),
    })?;
    check_learned(&mut options)?;
    if let Some(name) = trace {
        let file = open_trace(&name, &options.against)?;
        options.trace = Some((name, file));
    }
    Ok(Some(options))
}

/// Reads the table of `--value`, if given, and notes whether the player
/// counts a learned value. A table no game would use is refused, as one
/// trained for other rules is: at a weight of 0 it counts for nothing, and
/// a run that named it would be taken for a run with it.
fn check_learned(options: &mut Options) -> Result<(), String> {
    let mut player = Player::with_weights(options.rules, options.budget, options.weights);
    if let Some(value) = &options.value {
        if options.weights.learned == 0.0 {
            return Err(format!(
                "--value {value}: the learned value's weight (--learned, or --weight \
                 learned=) is 0, so no table is used; leave out --value, or give \
                 --learned a weight other than 0"
            ));
        }
        let table = std::fs::read(value).map_err(|e| format!("--value {value}: {e}"))?;
        player = player
            .with_learned_table(&table)
            .map_err(|e| format!("--value {value}: {e}"))?;
        options.table = Some(table);
    }
    options.learned = player.uses_learned_value();
    Ok(())
}

/// Every option that takes a value.
const FLAGS: [&str; 22] = [
    "--games",
    "--seed",
    "--max-turns",
    "--threads",
    "--player-threads",
    "--preview",
    "--width",
    "--height",
    "--colors",
    "--line",
    "--next",
    "--first",
    "--candidates",
    "--refined",
    "--samples",
    "--replies",
    "--depth",
    "--learned",
    "--weight",
    "--value",
    "--against",
    "--trace",
];

/// Creates the trace file `name`, which must not be the `--against` file
/// read: that would empty the earlier run before it is paired.
fn open_trace(
    name: &str,
    against: &Option<(String, Vec<Earlier>)>,
) -> Result<Mutex<BufWriter<File>>, String> {
    if let Some((earlier, _)) = against {
        if same_file(name, earlier) {
            return Err(format!(
                "--trace {name}: the same file as --against {earlier}, which it would empty"
            ));
        }
    }
    let file = File::create(name).map_err(|e| format!("--trace {name}: {e}"))?;
    Ok(Mutex::new(BufWriter::new(file)))
}

/// Whether the paths `a` and `b` name one existing file, by whatever links.
fn same_file(a: &str, b: &str) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

/// Sets the option `flag` to `value` in `options`.
fn apply(options: &mut Options, flag: &str, value: String) -> Result<(), String> {
    match flag {
        "--learned" => {
            options.weights.learned = value
                .parse()
                .map_err(|_| format!("--learned {value}: not a number\n{USAGE}"))?;
        }
        "--weight" => set_weight(&mut options.weights, &value)
            .map_err(|e| format!("--weight {value}: {e}\n{USAGE}"))?,
        "--value" => options.value = Some(value),
        "--against" => {
            let text =
                std::fs::read_to_string(&value).map_err(|e| format!("--against {value}: {e}"))?;
            let games: Vec<Earlier> = text.lines().filter_map(read_game_line).collect();
            if games.is_empty() {
                return Err(format!(
                    "--against {value}: no game lines (\"game N (seed S): score ...\"); \
                     give what an earlier selfplay run wrote to standard error"
                ));
            }
            options.against = Some((value, games));
        }
        "--preview" => {
            options.preview = value
                .parse()
                .map_err(|e| format!("--preview {value}: {e}\n{USAGE}"))?;
        }
        _ => set_number(options, flag, &value)?,
    }
    Ok(())
}

/// Sets the option `flag`, which takes a whole number, to `value`.
fn set_number(options: &mut Options, flag: &str, value: &str) -> Result<(), String> {
    let set = budget::set(&mut options.budget, flag, value)
        .or_else(|| rules::set(&mut options.rules, &Rule::ALL, flag, value));
    if let Some(set) = set {
        return set.map_err(|e| format!("{e}\n{USAGE}"));
    }
    let number: u64 = value
        .parse()
        .map_err(|_| format!("{flag} {value}: not a whole number\n{USAGE}"))?;
    let threads = || match number {
        0 => Err(format!("{flag} 0: must be at least 1")),
        n => Ok(n as usize),
    };
    match flag {
        "--games" => options.games = number,
        "--seed" => options.seed = number,
        "--max-turns" => options.max_turns = number,
        "--threads" => options.threads = threads()?,
        "--player-threads" => options.player_threads = threads()?,
        _ => unreachable!("{flag} is listed in FLAGS"),
    }
    Ok(())
}

/// Sets the weight named in `assignment` (`NAME=VALUE`).
fn set_weight(weights: &mut Weights, assignment: &str) -> Result<(), String> {
    let (name, value) = assignment.split_once('=').ok_or("not NAME=VALUE")?;
    let value: f64 = value
        .parse()
        .map_err(|_| format!("{value}: not a number"))?;
    let field = match name {
        "free" => &mut weights.free,
        "points" => &mut weights.points,
        "potential" => &mut weights.potential,
        "component" => &mut weights.component,
        "outside" => &mut weights.outside,
        "loss" => &mut weights.loss,
        "orphan" => &mut weights.orphan,
        "reward_base" => &mut weights.reward_base,
        "reward_steepness" => &mut weights.reward_steepness,
        "learned" => &mut weights.learned,
        _ => {
            return Err(format!(
                "no weight {name}; the weights are free, points, potential, component, \
                 outside, loss, orphan, reward_base, reward_steepness and learned"
            ));
        }
    };
    *field = value;
    Ok(())
}

fn play(options: &Options, game_seed: u64) -> Outcome {
    let rules = options.rules;
    let (mut game, opening) = Game::with_preview(rules, options.preview, game_seed);
    let mut player = Player::with_weights(rules, options.budget, options.weights)
        .with_threads(options.player_threads);
    if let Some(table) = &options.table {
        player = player
            .with_learned_table(table)
            .expect("the table was checked when the options were read");
    }
    let mut without_bonus = points_without_bonus(&opening, rules.line);
    let mut turns = 0;
    let mut move_micros = Vec::new();
    let mut move_cpu_micros = Vec::new();
    let mut steps = Vec::new();
    while !game.is_over() && turns < options.max_turns {
        let free_before = game.board().free();
        let started = Instant::now();
        let cpu_started = thread_cpu_micros();
        let chosen = player
            .choose_seeing(
                game.board(),
                game.planned(),
                game_seed.wrapping_mul(1_000_003).wrapping_add(turns),
            )
            .expect("a game that is not over has a move");
        move_micros.push(started.elapsed().as_micros().min(u128::from(u32::MAX)) as u32);
        move_cpu_micros.push((thread_cpu_micros() - cpu_started).min(u64::from(u32::MAX)) as u32);
        let turn = game
            .play(chosen.from, chosen.to)
            .expect("the player's moves are legal");
        let points = points_without_bonus(&turn.events, rules.line);
        without_bonus += points;
        turns += 1;
        if options.trace.is_some() {
            let (regions, largest) = empty_regions(game.board());
            steps.push(Step {
                turn: turns,
                free_before,
                free_after: game.board().free(),
                regions,
                largest,
                points,
            });
        }
    }
    Outcome {
        seed: game_seed,
        score: game.score(),
        score_without_bonus: without_bonus,
        turns,
        reached_cap: !game.is_over(),
        move_micros,
        move_cpu_micros,
        steps,
    }
}

/// Processor time used by the calling thread, in microseconds.
// The standard library has no per-thread CPU clock.
#[allow(unsafe_code)]
fn thread_cpu_micros() -> u64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable timespec for the call's duration.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    assert_eq!(status, 0, "the thread's CPU clock is readable");
    now.tv_sec as u64 * 1_000_000 + now.tv_nsec as u64 / 1000
}

fn main() -> ExitCode {
    run(std::env::args().skip(1))
}

/// Plays and reports as the command line `args` (the program's name left
/// out) asks, returning the exit status.
fn run(args: impl IntoIterator<Item = String>) -> ExitCode {
    let options = match parse(args) {
        Ok(Some(options)) => options,
        Ok(None) => {
            let mut out = Output::new("selfplay");
            say!(out, "{USAGE}");
            return out.finish();
        }
        Err(message) => {
            tell(format_args!("selfplay: {message}"));
            return ExitCode::from(2);
        }
    };
    let next_game = AtomicUsize::new(0);
    let outcomes = Mutex::new(Vec::new());
    let trace_error = Mutex::new(None);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..workers(&options) {
            scope.spawn(|| {
                loop {
                    let g = next_game.fetch_add(1, Ordering::Relaxed) as u64;
                    if g >= options.games {
                        break;
                    }
                    let outcome = play(&options, options.seed.wrapping_add(g));
                    if let Some((_, file)) = &options.trace {
                        let mut file = file.lock().expect("no thread panicked");
                        let written = outcome.steps.iter().try_for_each(|step| {
                            writeln!(file, "{}", step_line(g, outcome.seed, step))
                        });
                        if let Err(e) = written {
                            trace_error
                                .lock()
                                .expect("no thread panicked")
                                .get_or_insert(e);
                        }
                    }
                    tell(game_line(g, &outcome));
                    outcomes.lock().expect("no thread panicked").push(outcome);
                }
            });
        }
    });
    let outcomes = outcomes.into_inner().expect("no thread panicked");
    if let Some((name, file)) = &options.trace {
        let flushed = file.lock().expect("no thread panicked").flush();
        let error = trace_error.into_inner().expect("no thread panicked");
        if let Some(e) = error.or(flushed.err()) {
            tell(format_args!(
                "selfplay: --trace {name}: {e}; the trace is incomplete"
            ));
            return ExitCode::FAILURE;
        }
    }
    let mut out = Output::new("selfplay");
    report(
        &mut out,
        &options,
        &outcomes,
        started.elapsed().as_secs_f64(),
    );
    out.finish()
}

/// The threads that play the games: `--threads`, but no more than there
/// are games, since each would spawn only to find none left (and a huge
/// `--threads` would spawn for ever, or until the system refused one).
fn workers(options: &Options) -> usize {
    usize::try_from(options.games).map_or(options.threads, |games| options.threads.min(games))
}

/// The line written for game `g` as it ends; [`read_game_line`] reads it
/// back.
fn game_line(g: u64, outcome: &Outcome) -> String {
    format!(
        "game {g} (seed {}): score {} (without bonus {}), {} turns{}",
        outcome.seed,
        outcome.score,
        outcome.score_without_bonus,
        outcome.turns,
        if outcome.reached_cap {
            ", reached the cap"
        } else {
            ""
        }
    )
}

/// The game a line written by [`game_line`] describes; `None` for any
/// other line.
fn read_game_line(line: &str) -> Option<Earlier> {
    let rest = line.strip_prefix("game ")?;
    let (_, rest) = rest.split_once(" (seed ")?;
    let (seed, rest) = rest.split_once("): score ")?;
    let (_, rest) = rest.split_once(" (without bonus ")?;
    let (plain, rest) = rest.split_once("), ")?;
    let (turns, _) = rest.split_once(" turns")?;
    Some(Earlier {
        seed: seed.parse().ok()?,
        score_without_bonus: plain.parse().ok()?,
        turns: turns.parse().ok()?,
    })
}

/// Differences game by game between two runs, this minus that, over the
/// seeds both played.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Paired {
    games: usize,
    /// Mean and standard error of the points without the bonus.
    points: (f64, f64),
    /// Mean and standard error of the turns.
    turns: (f64, f64),
}

/// This run's games paired by seed with an earlier run's; `None` without
/// a common seed.
fn paired(outcomes: &[Outcome], earlier: &[Earlier]) -> Option<Paired> {
    let mut points = Vec::new();
    let mut turns = Vec::new();
    for outcome in outcomes {
        if let Some(before) = earlier.iter().find(|e| e.seed == outcome.seed) {
            points.push(outcome.score_without_bonus as f64 - before.score_without_bonus as f64);
            turns.push(outcome.turns as f64 - before.turns as f64);
        }
    }
    if points.is_empty() {
        return None;
    }
    Some(Paired {
        games: points.len(),
        points: mean_and_error(&points),
        turns: mean_and_error(&turns),
    })
}

/// Prints the settings, then what the games came to.
fn report(out: &mut Output, options: &Options, outcomes: &[Outcome], seconds: f64) {
    print_settings(out, options, outcomes.len(), seconds);
    if outcomes.is_empty() {
        return;
    }
    let scores: Vec<u64> = outcomes.iter().map(|o| o.score).collect();
    let plain: Vec<u64> = outcomes.iter().map(|o| o.score_without_bonus).collect();
    let turns: Vec<u64> = outcomes.iter().map(|o| o.turns).collect();
    print_summary(out, "score (with streak bonus)", &scores);
    print_summary(out, "score (without bonus)    ", &plain);
    print_summary(out, "turns                    ", &turns);
    say!(
        out,
        "games reaching the cap: {} of {}",
        outcomes.iter().filter(|o| o.reached_cap).count(),
        outcomes.len()
    );
    if let Some((file, earlier)) = &options.against {
        match paired(outcomes, earlier) {
            Some(Paired {
                games,
                points: (points, points_error),
                turns: (turns, turns_error),
            }) => say!(
                out,
                "against {file}, {games} games of the same seeds: without bonus {points:+.1} ± \
                 {points_error:.1}, turns {turns:+.1} ± {turns_error:.1}"
            ),
            None => say!(out, "against {file}: no game of the same seed"),
        }
    }
    if options.trace.is_some() {
        say!(
            out,
            "free cells at the start of a turn: turns, share freeing cells, mean change"
        );
        for row in drift(outcomes.iter().flat_map(|o| &o.steps)) {
            say!(
                out,
                "  {:3}-{:3}: {:7} {:6.3} {:+7.3}",
                row.from,
                row.from + trace::BAND - 1,
                row.turns,
                row.freeing,
                row.change
            );
        }
    }
    print_times(
        out,
        "ms per move, wall clock",
        outcomes.iter().flat_map(|o| o.move_micros.iter().copied()),
    );
    if options.player_threads > 1 {
        say!(out, "(CPU time below counts the choosing thread only)");
    }
    print_times(
        out,
        "ms per move, CPU time  ",
        outcomes
            .iter()
            .flat_map(|o| o.move_cpu_micros.iter().copied()),
    );
}

/// The learned value the player counts, as the settings line says it.
fn learned_used(options: &Options) -> String {
    match (&options.value, options.learned) {
        (Some(value), true) => format!(
            "learned value x{} (table from --value {value})",
            options.weights.learned
        ),
        (None, true) => format!("learned value x{}", options.weights.learned),
        _ if options.weights.learned == 0.0 => "learned value off (weight 0)".to_string(),
        _ => "no learned table for these rules".to_string(),
    }
}

/// The rules, weights and budget played, and how many games took how long.
fn print_settings(out: &mut Output, options: &Options, games: usize, seconds: f64) {
    let rules = options.rules;
    say!(
        out,
        "rules: {}x{} colors={} line={} next={} first={} preview={}",
        rules.width,
        rules.height,
        rules.colors,
        rules.line,
        rules.next,
        rules.first,
        options.preview
    );
    if options.weights != Weights::default() {
        say!(out, "weights: {:?}", options.weights);
    }
    say!(
        out,
        "budget: candidates={} refined={} samples={} replies={} depth={}; {}",
        options.budget.candidates,
        options.budget.refined,
        options.budget.samples,
        options.budget.replies,
        options.budget.depth,
        learned_used(options)
    );
    say!(
        out,
        "games: {games}{}, max turns {}, {:.1} s wall",
        match options.games {
            0 => String::new(),
            n => format!(
                " (seeds {} to {})",
                options.seed,
                options.seed.wrapping_add(n - 1)
            ),
        },
        options.max_turns,
        seconds
    );
}

fn print_times(out: &mut Output, label: &str, micros: impl Iterator<Item = u32>) {
    let mut micros: Vec<u32> = micros.collect();
    if micros.is_empty() {
        return;
    }
    micros.sort_unstable();
    let at = |q: f64| f64::from(micros[((micros.len() - 1) as f64 * q) as usize]) / 1000.0;
    say!(
        out,
        "{label}: median {:.3}, p99 {:.3}, max {:.3} ({} moves)",
        at(0.5),
        at(0.99),
        at(1.0),
        micros.len()
    );
}

/// Mean ± standard error of the mean, median and range of `values`.
fn print_summary(out: &mut Output, label: &str, values: &[u64]) {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let reals: Vec<f64> = sorted.iter().map(|&v| v as f64).collect();
    let (mean, error) = mean_and_error(&reals);
    let median = if sorted.len() % 2 == 1 {
        sorted[sorted.len() / 2] as f64
    } else {
        (sorted[sorted.len() / 2 - 1] + sorted[sorted.len() / 2]) as f64 / 2.0
    };
    say!(
        out,
        "{label}: mean {mean:.1} ± {error:.1}, median {median:.1}, min {}, max {}",
        sorted[0],
        sorted[sorted.len() - 1]
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use command_line::{refusal, words};

    fn outcome(seed: u64, score_without_bonus: u64, turns: u64, reached_cap: bool) -> Outcome {
        Outcome {
            seed,
            score: score_without_bonus + 7,
            score_without_bonus,
            turns,
            reached_cap,
            move_micros: Vec::new(),
            move_cpu_micros: Vec::new(),
            steps: Vec::new(),
        }
    }

    #[test]
    fn no_more_threads_play_than_there_are_games() {
        let options = |line: &str| parse(words(line)).expect("taken").expect("no help");
        let huge = usize::MAX;
        assert_eq!(workers(&options(&format!("--games 3 --threads {huge}"))), 3);
        assert_eq!(workers(&options(&format!("--games 0 --threads {huge}"))), 0);
        assert_eq!(workers(&options("--games 5 --threads 2")), 2);
    }

    #[test]
    fn a_game_line_reads_back() {
        for reached_cap in [false, true] {
            let line = game_line(4, &outcome(1_000_005, 612, 341, reached_cap));
            assert_eq!(
                read_game_line(&line),
                Some(Earlier {
                    seed: 1_000_005,
                    score_without_bonus: 612,
                    turns: 341,
                }),
                "{line}"
            );
        }
    }

    #[test]
    fn other_lines_are_not_games() {
        for line in [
            "",
            "games reaching the cap: 0 of 100",
            "score (without bonus)    : mean 742.6 ± 43.0, median 587.5, min 62, max 2431",
            // Lines before the seed was written name no seed to pair by.
            "game 0: score 1219 (without bonus 1211), 615 turns",
            "game 0 (seed x): score 1 (without bonus 1), 2 turns",
        ] {
            assert_eq!(read_game_line(line), None, "{line}");
        }
    }

    #[test]
    fn games_are_paired_by_seed() {
        let now = [
            outcome(3, 500, 250, false),
            outcome(1, 100, 60, false),
            outcome(9, 999, 400, false),
        ];
        let earlier = [
            Earlier {
                seed: 1,
                score_without_bonus: 140,
                turns: 70,
            },
            Earlier {
                seed: 3,
                score_without_bonus: 300,
                turns: 150,
            },
            Earlier {
                seed: 5,
                score_without_bonus: 800,
                turns: 390,
            },
        ];
        let Paired {
            games,
            points: (points, points_error),
            turns: (turns, turns_error),
        } = paired(&now, &earlier).expect("seeds 1 and 3 are in both");
        assert_eq!(games, 2);
        // Differences +200 and −40: mean 80, standard deviation 120√2,
        // standard error 120.
        assert!((points - 80.0).abs() < 1e-9, "{points}");
        assert!((points_error - 120.0).abs() < 1e-9, "{points_error}");
        // Differences +100 and −10.
        assert!((turns - 45.0).abs() < 1e-9, "{turns}");
        assert!((turns_error - 55.0).abs() < 1e-9, "{turns_error}");
        assert_eq!(paired(&now[2..], &earlier), None);
    }

    #[test]
    fn one_value_has_no_error() {
        assert_eq!(mean_and_error(&[42.0]), (42.0, 0.0));
    }

    #[test]
    fn an_unknown_option_is_unknown_whatever_its_value() {
        for line in ["--prevue cells", "--bogus abc", "--bogus 5", "--bogus"] {
            let error = refusal(parse, line);
            assert!(error.starts_with("unknown option --"), "{line}: {error}");
            assert!(error.contains("usage: selfplay"), "{line}: {error}");
        }
    }

    #[test]
    fn weights_the_evaluation_cannot_take_are_refused_by_their_option() {
        for (line, start) in [
            ("--weight reward_base=1", "--weight reward_base: "),
            (
                "--weight reward_steepness=NaN",
                "--weight reward_steepness: ",
            ),
            ("--learned inf", "--learned: "),
        ] {
            let error = refusal(parse, line);
            assert!(error.starts_with(start), "{line}: {error}");
        }
    }

    /// The compiled table, trained for the 7-colour game.
    const TABLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/ai/value.bin");

    #[test]
    fn the_settings_say_which_learned_value_is_counted() {
        let told = |line: &str| {
            let options = parse(words(line)).expect("taken").expect("not help");
            learned_used(&options)
        };
        assert_eq!(told("--colors 7"), "learned value x5");
        assert_eq!(
            told(&format!("--colors 7 --value {TABLE} --learned 2")),
            format!("learned value x2 (table from --value {TABLE})")
        );
        for line in [
            "",
            "--colors 6",
            "--colors 7 --width 10",
            "--colors 7 --next 4",
        ] {
            assert_eq!(told(line), "no learned table for these rules", "{line}");
        }
        for line in ["--colors 7 --learned 0", "--weight learned=0"] {
            assert_eq!(told(line), "learned value off (weight 0)", "{line}");
        }
    }

    #[test]
    fn a_table_no_game_would_use_is_refused() {
        // Refused at a weight of 0 before the file is read: none is there.
        for weight in ["--learned 0", "--weight learned=0"] {
            let error = refusal(
                parse,
                &format!("--colors 7 {weight} --value /nowhere/t.bin"),
            );
            assert!(error.starts_with("--value /nowhere/t.bin: "), "{error}");
            for option in ["--learned", "--weight learned=", "leave out --value"] {
                assert!(error.contains(option), "{option}: {error}");
            }
        }
        let error = refusal(parse, &format!("--colors 6 --value {TABLE}"));
        assert!(error.contains("not trained for these rules"), "{error}");
    }

    #[test]
    fn a_count_that_would_be_taken_as_another_is_refused() {
        for flag in ["--candidates", "--replies", "--depth", "--threads"] {
            let error = refusal(parse, &format!("{flag} 0"));
            assert!(error.starts_with(&format!("{flag} 0: ")), "{error}");
        }
        assert!(refusal(parse, "--colors 300").contains("from 1 to 35"));
        assert!(parse(words("--samples 0 --refined 0")).is_ok());
    }

    #[test]
    fn a_budget_beyond_memory_or_time_is_refused_with_its_range() {
        for (line, says) in [
            ("--samples 18446744073709551615", "from 0 to 10000"),
            ("--refined 10001", "from 0 to 10000"),
            ("--candidates 10001", "from 1 to 10000"),
            ("--replies 10001", "from 1 to 10000"),
            ("--depth 101", "from 1 to 100"),
        ] {
            let error = refusal(parse, line);
            assert!(
                error.starts_with(&format!("{line}: must be {says}")),
                "{error}"
            );
        }
        assert!(parse(words("--samples 10000 --depth 100")).is_ok());
    }

    #[test]
    fn the_trace_is_made_only_for_a_command_line_taken() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let trace = dir.path().join("trace.txt");
        let trace = trace.to_str().expect("a UTF-8 path");
        for rest in ["--width 0", "--weight free=NaN", "--bogus 1"] {
            refusal(parse, &format!("--trace {trace} {rest}"));
            assert!(std::fs::metadata(trace).is_err(), "{rest}");
        }
        // An earlier trace named again, and then refused, is kept.
        std::fs::write(trace, "earlier").expect("written");
        refusal(
            parse,
            &format!("--trace {trace} --trace {trace}x --width 0"),
        );
        assert_eq!(std::fs::read_to_string(trace).expect("read"), "earlier");
    }

    #[test]
    fn the_trace_cannot_empty_the_run_it_is_paired_with() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let earlier = dir.path().join("earlier.txt");
        let line = game_line(0, &outcome(1, 100, 60, false));
        std::fs::write(&earlier, &line).expect("written");
        let earlier = earlier.to_str().expect("a UTF-8 path");
        let linked = format!("{}/./earlier.txt", dir.path().display());
        let error = refusal(parse, &format!("--against {earlier} --trace {linked}"));
        assert!(error.contains("the same file as --against"), "{error}");
        assert_eq!(std::fs::read_to_string(earlier).expect("read"), line);
    }

    /// Set to make [`a_failed_write_to_standard_error_changes_nothing`]
    /// the run it checks.
    const CHILD: &str = "SELFPLAY_TEST_STANDARD_ERROR";

    /// The stdout of this test run again, alone and uncaptured (the test
    /// harness captures `eprintln!`, which would hide its panic), as the
    /// run it checks, with standard error `stderr`.
    fn rerun(stderr: std::process::Stdio) -> String {
        let output = std::process::Command::new(std::env::current_exe().expect("this test"))
            .args([
                "--exact",
                "tests::a_failed_write_to_standard_error_changes_nothing",
                "--nocapture",
            ])
            .env(CHILD, "1")
            .stderr(stderr)
            .output()
            .expect("the test run again");
        let stdout = String::from_utf8(output.stdout).expect("UTF-8");
        assert!(output.status.success(), "{stdout}");
        stdout
    }

    #[test]
    fn a_failed_write_to_standard_error_changes_nothing() {
        if std::env::var_os(CHILD).is_some() {
            let line = "--games 3 --max-turns 100 --candidates 1 --refined 0 --depth 1";
            assert_eq!(run(words(line)), ExitCode::SUCCESS);
            return;
        }
        let full = File::options()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let failed = rerun(full.into());
        let written = rerun(std::process::Stdio::null());
        // The results, without the times, which vary from run to run.
        let results = |report: &str| {
            report
                .lines()
                .filter(|line| line.starts_with("score") || line.starts_with("turns"))
                .map(String::from)
                .collect::<Vec<_>>()
        };
        assert_eq!(results(&failed).len(), 3, "{failed}");
        assert_eq!(results(&failed), results(&written));
    }
}
