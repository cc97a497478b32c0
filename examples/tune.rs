//! Tunes the player's evaluation weights by SPSA (simultaneous perturbation
//! stochastic approximation) on paired seeded games.
//!
//! ```text
//! cargo run --release --example tune -- --iterations 30 --games 16 --colors 7 --seed 1
//! ```
//!
//! Every iteration perturbs all tuned weights at once (in log space, each
//! by `±c`, from the defaults at 0), plays the same `--games` seeds with
//! the weights pushed up and pushed down, and steps along the measured
//! difference of the mean score (without the streak bonus), relative to
//! its size. Each iteration uses fresh seeds, 1,000 apart (so at most
//! that many games and iterations), and the final check fresh ones
//! again; the perturbations come from a generator seeded with
//! `--seed`, so a run is reproducible on any machine, whatever `--threads`.
//! The last lines compare the tuned weights with the defaults on
//! `--check-games` fresh seeds (100 by default: fewer cannot tell a real
//! gain from the noise), each side's mean and their difference game by
//! game with its standard error, and print the tuned weights as Rust, for
//! `src/ai/weights.rs`. `--step` and `--perturbation` are finite numbers
//! above 0; a run whose steps leave weights the evaluation cannot take
//! ([`Weights::validate`]) stops with exit status 2. Its tests run with
//! `cargo test --example tune`.
//!
//! Noise is the enemy: a 7-colour game's score varies by ±50 %, so each
//! side needs many games. A run of 12 iterations of 8 games with a step
//! of 0.2 wandered off (315 against the defaults' 485 on 8 fresh seeds);
//! hence the smaller default step and more games. The run of 30
//! iterations of 16 games with a step of 0.1 (`src/ai/weights.rs` names it)
//! ended no better than the defaults either: on this game, at this noise,
//! SPSA needs far more games than an afternoon of two cores gives it.

use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use clines::ai::{Budget, Player, Weights};
use clines::game::{Game, Rule, Rules, points_without_bonus};
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

/// How far apart the first seeds of two iterations are: iteration `k`
/// plays `--seed + SEED_SPACING·k` on, and the final check starts past
/// every iteration's, at `--seed + SEED_SPACING²`.
const SEED_SPACING: u64 = 1_000;

const USAGE: &str =
    "usage: tune [--iterations N] [--games G] [--check-games G] [--seed S] [--max-turns T] [--threads K]
            [--colors C] [--step A] [--perturbation C]
            [--candidates N] [--refined N] [--samples N] [--replies N] [--depth N]";

/// The weights tuned, by name; the rest keep their defaults (`points` sets
/// the scale, `loss` only needs to be far below any other value). The
/// learned value's weight is tuned only where a learned table is read
/// ([`tuned_mask`]).
const TUNED: [&str; 8] = [
    "free",
    "potential",
    "component",
    "outside",
    "orphan",
    "reward_base",
    "reward_steepness",
    "learned",
];

struct Options {
    iterations: u64,
    games: u64,
    /// Fresh seeds of the final comparison with the defaults.
    check_games: u64,
    seed: u64,
    max_turns: u64,
    threads: usize,
    rules: Rules,
    budget: Budget,
    /// SPSA gain `a`: the step in log space per unit of relative gradient.
    step: f64,
    /// SPSA perturbation `c`, in log space (0.15 is ±16 %).
    perturbation: f64,
}

/// The options read from `args` (the program's name left out), or `None`
/// when help was asked for.
fn parse(args: impl IntoIterator<Item = String>) -> Result<Option<Options>, String> {
    let mut options = Options {
        iterations: 30,
        games: 16,
        check_games: 100,
        seed: 1,
        max_turns: 2_000,
        threads: 2,
        rules: Rules {
            colors: 7,
            ..Rules::default()
        },
        budget: Budget::default(),
        step: 0.05,
        perturbation: 0.15,
    };
    let mut args = args.into_iter();
    while let Some(flag) = args.next() {
        if flag == "-h" || flag == "--help" {
            return Ok(None);
        }
        let value = flags::value(&flag, &FLAGS, &mut args).map_err(|e| format!("{e}\n{USAGE}"))?;
        apply(&mut options, &flag, &value).map_err(|e| format!("{e}\n{USAGE}"))?;
    }
    rules::validate(&options.rules, &Rule::ALL)?;
    Ok(Some(options))
}

/// Every option that takes a value.
const FLAGS: [&str; 14] = [
    "--iterations",
    "--games",
    "--check-games",
    "--seed",
    "--max-turns",
    "--threads",
    "--colors",
    "--step",
    "--perturbation",
    "--candidates",
    "--refined",
    "--samples",
    "--replies",
    "--depth",
];

/// Sets the option `flag` to `value` in `options`.
fn apply(options: &mut Options, flag: &str, value: &str) -> Result<(), String> {
    let set = budget::set(&mut options.budget, flag, value)
        .or_else(|| rules::set(&mut options.rules, &[Rule::Colors], flag, value));
    if let Some(set) = set {
        return set;
    }
    if flag == "--step" || flag == "--perturbation" {
        // Both divide or scale steps in log space: 0 would divide by zero
        // (--perturbation) or tune nothing (--step), and NaN or infinity
        // would make every weight no number.
        let real = value
            .parse::<f64>()
            .ok()
            .filter(|real| real.is_finite() && *real > 0.0)
            .ok_or_else(|| format!("{flag} {value}: must be a finite number above 0"))?;
        if flag == "--step" {
            options.step = real;
        } else {
            options.perturbation = real;
        }
        return Ok(());
    }
    let number: u64 = value
        .parse()
        .map_err(|_| format!("{flag} {value}: not a whole number"))?;
    let at_least_one = || match number {
        0 => Err(format!("{flag} 0: must be at least 1")),
        n => Ok(n),
    };
    let at_most_spacing = |least: u64| match number {
        n if (least..=SEED_SPACING).contains(&n) => Ok(n),
        n => Err(format!(
            "{flag} {n}: must be from {least} to {SEED_SPACING}, so that no seed is played twice"
        )),
    };
    match flag {
        "--iterations" => options.iterations = at_most_spacing(0)?,
        "--games" => options.games = at_most_spacing(1)?,
        "--check-games" => options.check_games = at_least_one()?,
        "--seed" => options.seed = number,
        "--max-turns" => options.max_turns = number,
        "--threads" => options.threads = at_least_one()? as usize,
        _ => unreachable!("{flag} is listed in FLAGS"),
    }
    Ok(())
}

/// For each of [`TUNED`], 1 where it is tuned under `rules`, 0 where it
/// stays at its default: the learned value's weight, where no table is
/// read (only the 7-colour game on 9 × 9 has one), changes no move, so its
/// steps would be a drift of noise.
fn tuned_mask(rules: Rules) -> [f64; TUNED.len()] {
    let learned = Player::new(rules).uses_learned_value();
    TUNED.map(|name| {
        if name != "learned" || learned {
            1.0
        } else {
            0.0
        }
    })
}

/// The weights at `theta`, the tuned coordinates: each weight's log
/// ratio to its default (the reward base's excess over 1, which must stay
/// positive), so that the defaults are all zeros and come back exactly
/// (e^0 is 1), with no rounding a tuning did not make.
fn from_theta(theta: &[f64]) -> Weights {
    let default = Weights::default();
    let mut weights = default;
    for (name, &t) in TUNED.iter().zip(theta) {
        let ratio = t.exp();
        match *name {
            "free" => weights.free = default.free * ratio,
            "potential" => weights.potential = default.potential * ratio,
            "component" => weights.component = default.component * ratio,
            "outside" => weights.outside = default.outside * ratio,
            "orphan" => weights.orphan = default.orphan * ratio,
            "reward_base" => weights.reward_base = 1.0 + (default.reward_base - 1.0) * ratio,
            "reward_steepness" => {
                weights.reward_steepness = default.reward_steepness * ratio;
            }
            "learned" => weights.learned = default.learned * ratio,
            _ => unreachable!("every tuned name is listed"),
        }
    }
    weights
}

/// Score without the streak bonus of one game played with `weights`.
fn play(options: &Options, weights: Weights, game_seed: u64) -> u64 {
    let rules = options.rules;
    let (mut game, opening) = Game::new(rules, game_seed);
    let mut player = Player::with_weights(rules, options.budget, weights).with_threads(1);
    let mut points = points_without_bonus(&opening, rules.line);
    let mut turns = 0;
    while !game.is_over() && turns < options.max_turns {
        let chosen = player
            .choose(
                game.board(),
                game_seed.wrapping_mul(1_000_003).wrapping_add(turns),
            )
            .expect("a game that is not over has a move");
        let turn = game
            .play(chosen.from, chosen.to)
            .expect("the player's moves are legal");
        points += points_without_bonus(&turn.events, rules.line);
        turns += 1;
    }
    points
}

/// The score of each of `players` in each game of `seeds` (indexed
/// `[player][game]`), games spread over the threads.
fn play_games(options: &Options, players: &[Weights], seeds: &[u64]) -> Vec<Vec<f64>> {
    let jobs: Vec<(usize, usize)> = (0..players.len())
        .flat_map(|p| (0..seeds.len()).map(move |g| (p, g)))
        .collect();
    let next = AtomicUsize::new(0);
    let scores = Mutex::new(vec![vec![0.0; seeds.len()]; players.len()]);
    std::thread::scope(|scope| {
        for _ in 0..workers(options, jobs.len()) {
            scope.spawn(|| {
                loop {
                    let j = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(p, g)) = jobs.get(j) else { break };
                    let score = play(options, players[p], seeds[g]);
                    scores.lock().expect("no thread panicked")[p][g] = score as f64;
                }
            });
        }
    });
    scores.into_inner().expect("no thread panicked")
}

/// The threads that play `games` games: `--threads`, but no more than
/// there are games, since each would spawn only to find none left (and a
/// huge `--threads` would spawn for ever, or until the system refused one).
fn workers(options: &Options, games: usize) -> usize {
    options.threads.min(games)
}

/// SplitMix64, for the perturbations' signs.
fn next_random(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn main() -> ExitCode {
    let options = match parse(std::env::args().skip(1)) {
        Ok(Some(options)) => options,
        Ok(None) => {
            let mut out = Output::new("tune");
            say!(out, "{USAGE}");
            return out.finish();
        }
        Err(message) => {
            tell(format_args!("tune: {message}"));
            return ExitCode::from(2);
        }
    };
    let mut out = Output::new("tune");
    match tune(&options, &mut out) {
        Ok(Some(tuned)) => compare(&options, &mut out, tuned),
        // Nobody reads the rest.
        Ok(None) => {}
        Err(message) => {
            tell(format_args!("tune: {message}"));
            return ExitCode::from(2);
        }
    }
    out.finish()
}

/// Runs the iterations, reporting each; returns the tuned weights, or
/// `None` once the report cannot be written.
///
/// # Errors
/// When a step leaves weights the evaluation cannot take.
fn tune(options: &Options, out: &mut Output) -> Result<Option<Weights>, String> {
    let mut theta = vec![0.0; TUNED.len()];
    let mask = tuned_mask(options.rules);
    if mask.contains(&0.0)
        && !out.line(format_args!(
            "no learned table for these rules: learned is not tuned"
        ))
    {
        return Ok(None);
    }
    let mut random = options.seed;
    for k in 0..options.iterations {
        // The usual SPSA decay exponents (Spall).
        let a = options.step / (k as f64 + 1.0 + 0.1 * options.iterations as f64).powf(0.602);
        let c = options.perturbation / (k as f64 + 1.0).powf(0.101);
        let delta: Vec<f64> = theta
            .iter()
            .map(|_| {
                if next_random(&mut random) & 1 == 0 {
                    1.0
                } else {
                    -1.0
                }
            })
            .collect();
        // Signs are drawn for every weight, tuned or not, so that a run
        // perturbs the tuned ones as it did before any was left out.
        let pushed_by = |sign: f64| -> Vec<f64> {
            (theta.iter().zip(&delta).zip(&mask))
                .map(|((t, d), m)| t + sign * c * d * m)
                .collect()
        };
        let (plus, minus) = (pushed_by(1.0), pushed_by(-1.0));
        let pushed = [weights_at(&plus, k, "up")?, weights_at(&minus, k, "down")?];
        let first = options.seed.wrapping_add(k.wrapping_mul(SEED_SPACING));
        let seeds: Vec<u64> = (0..options.games).map(|g| first.wrapping_add(g)).collect();
        let scores = play_games(options, &pushed, &seeds);
        let (up, down) = (mean_and_error(&scores[0]).0, mean_and_error(&scores[1]).0);
        let relative = (up - down) / ((up + down) / 2.0).max(1.0);
        for ((t, d), m) in theta.iter_mut().zip(&delta).zip(&mask) {
            *t += m * a * relative / (2.0 * c * d);
        }
        let stepped = weights_at(&theta, k, "stepped")?;
        if !out.line(format_args!(
            "iteration {k}: up {up:.1} down {down:.1} -> {stepped:?}"
        )) {
            return Ok(None);
        }
    }
    Ok(Some(from_theta(&theta)))
}

/// The weights at `theta` in iteration `k`, `how` they were reached
/// there; refused when the evaluation cannot take them, which only too
/// large a step or perturbation does.
fn weights_at(theta: &[f64], k: u64, how: &str) -> Result<Weights, String> {
    let weights = from_theta(theta);
    weights.validate().map_err(|e| {
        format!(
            "iteration {k}, weights {how}: {e}; a smaller --step or --perturbation \
             keeps them in range"
        )
    })?;
    Ok(weights)
}

/// Compares `tuned` with the default weights on fresh seeds, and prints
/// them.
fn compare(options: &Options, out: &mut Output, tuned: Weights) {
    let check: Vec<u64> = (0..options.check_games)
        .map(|g| {
            let after_the_iterations = SEED_SPACING * SEED_SPACING;
            options
                .seed
                .wrapping_add(after_the_iterations)
                .wrapping_add(g)
        })
        .collect();
    let scores = play_games(options, &[Weights::default(), tuned], &check);
    let (default, default_error) = mean_and_error(&scores[0]);
    let (tuned_mean, tuned_error) = mean_and_error(&scores[1]);
    let differences: Vec<f64> = scores[1]
        .iter()
        .zip(&scores[0])
        .map(|(t, d)| t - d)
        .collect();
    let (difference, difference_error) = mean_and_error(&differences);
    say!(
        out,
        "on {} fresh seeds: default {default:.1} ± {default_error:.1}, \
         tuned {tuned_mean:.1} ± {tuned_error:.1}, \
         tuned − default {difference:+.1} ± {difference_error:.1} (game by game)",
        check.len(),
    );
    say!(out, "{tuned:#?}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use command_line::{refusal, words};

    #[test]
    fn an_unknown_option_is_unknown_whatever_its_value() {
        for line in ["--preview cells", "--width 5", "--bogus"] {
            let error = refusal(parse, line);
            assert!(error.starts_with("unknown option --"), "{line}: {error}");
        }
    }

    #[test]
    fn steps_that_make_weights_no_number_are_refused() {
        for flag in ["--step", "--perturbation"] {
            for value in ["0", "-0.1", "NaN", "inf"] {
                let error = refusal(parse, &format!("{flag} {value}"));
                assert!(error.starts_with(&format!("{flag} {value}: ")), "{error}");
            }
        }
        assert!(parse(words("--step 0.2 --perturbation 0.3")).is_ok());
    }

    #[test]
    fn counts_of_nothing_are_refused_not_run_as_one() {
        for flag in ["--games", "--check-games", "--threads"] {
            let error = refusal(parse, &format!("{flag} 0"));
            assert!(error.starts_with(&format!("{flag} 0: ")), "{error}");
        }
        assert!(parse(words("--iterations 0")).is_ok());
    }

    #[test]
    fn counts_that_would_play_a_seed_twice_are_refused() {
        for flag in ["--games", "--iterations"] {
            let error = refusal(parse, &format!("{flag} 1001"));
            assert!(
                error.starts_with(&format!("{flag} 1001: must be from ")),
                "{error}"
            );
            assert!(error.contains("to 1000, so that no seed"), "{error}");
        }
        assert!(parse(words("--games 1000 --iterations 1000")).is_ok());
    }

    #[test]
    fn weights_stepped_out_of_range_are_refused_naming_the_options() {
        let theta = vec![1e6; TUNED.len()];
        let error = weights_at(&theta, 3, "up").expect_err("infinite weights");
        assert!(error.contains("--step or --perturbation"), "{error}");
    }

    #[test]
    fn no_more_threads_play_than_there_are_games() {
        let line = format!("--threads {}", usize::MAX);
        let options = parse(words(&line)).expect("taken").expect("no help");
        assert_eq!(workers(&options, 32), 32);
        assert_eq!(workers(&options, 0), 0);
        let options = parse(words("--threads 2"))
            .expect("taken")
            .expect("no help");
        assert_eq!(workers(&options, 32), 2);
    }

    #[test]
    fn the_learned_weight_is_tuned_only_where_a_table_is_read() {
        let learned = TUNED.iter().position(|&name| name == "learned");
        let learned = learned.expect("learned is listed");
        let seven = Rules {
            colors: 7,
            ..Rules::default()
        };
        assert_eq!(tuned_mask(seven), [1.0; TUNED.len()]);
        for rules in [Rules::default(), Rules { width: 10, ..seven }] {
            let mask = tuned_mask(rules);
            assert_eq!(mask[learned], 0.0, "{rules:?}");
            assert_eq!(mask.iter().sum::<f64>(), (TUNED.len() - 1) as f64);
        }
    }

    #[test]
    fn without_a_learned_table_a_run_leaves_the_learned_weight_alone() {
        let line = "--colors 5 --iterations 2 --games 1 --max-turns 3 --threads 1";
        let options = parse(words(line)).expect("taken").expect("no help");
        let mut out = Output::new("tune");
        let tuned = tune(&options, &mut out)
            .expect("in range")
            .expect("written");
        assert_eq!(tuned.learned, Weights::default().learned);
        assert_ne!(tuned, Weights::default(), "the others were stepped");
    }

    #[test]
    fn no_tuning_gives_the_defaults_exactly() {
        assert_eq!(from_theta(&[0.0; TUNED.len()]), Weights::default());
        let doubled = from_theta(&[2f64.ln(); TUNED.len()]);
        assert!((doubled.free - 120.0).abs() < 1e-9, "{doubled:?}");
        assert!((doubled.reward_base - 7.0).abs() < 1e-9, "{doubled:?}");
        assert_eq!(doubled.points, 1.0);
    }
}
