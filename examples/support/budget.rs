//! The built-in player's budget as the measuring tools take it on their
//! command lines, shared by `examples/selfplay.rs`, `examples/tune.rs` and
//! `examples/train.rs`.
//!
//! `--refined 0` or `--samples 0` samples no throw: the player takes the
//! best exact candidate, as [`Budget::greedy`] does. `--candidates`,
//! `--replies` and `--depth` count at least one (the player takes 0 as 1),
//! so 0 is refused rather than run as 1. Each count is at most
//! [`MOST`], and the depth at most [`DEEPEST`]: more would only run out of
//! memory or time.

use clines::ai::Budget;

/// The most candidates, refined candidates, samples or replies taken.
pub const MOST: usize = 10_000;

/// The most throws a sample may look ahead.
pub const DEEPEST: usize = 100;

/// Sets the field of `budget` that `flag` names (`--candidates`,
/// `--refined`, `--samples`, `--replies` or `--depth`) to `value`; `None`
/// for any other flag, an error for a value refused.
pub fn set(budget: &mut Budget, flag: &str, value: &str) -> Option<Result<(), String>> {
    let (field, least, most) = match flag {
        "--candidates" => (&mut budget.candidates, 1, MOST),
        "--refined" => (&mut budget.refined, 0, MOST),
        "--samples" => (&mut budget.samples, 0, MOST),
        "--replies" => (&mut budget.replies, 1, MOST),
        "--depth" => (&mut budget.depth, 1, DEEPEST),
        _ => return None,
    };
    Some(match value.parse::<usize>() {
        Ok(number) if (least..=most).contains(&number) => {
            *field = number;
            Ok(())
        }
        Ok(_) => Err(format!("{flag} {value}: must be from {least} to {most}")),
        Err(_) => Err(format!("{flag} {value}: not a whole number")),
    })
}
