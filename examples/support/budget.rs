//! The built-in player's budget as the measuring tools take it on their
//! command lines, shared by `examples/selfplay.rs`, `examples/tune.rs` and
//! `examples/train.rs`.
//!
//! `--refined 0` or `--samples 0` samples no throw: the player takes the
//! best exact candidate, as [`Budget::greedy`] does. `--candidates`,
//! `--replies` and `--depth` count at least one (the player takes 0 as 1),
//! so 0 is refused rather than run as 1.

use clines::ai::Budget;

/// Sets the field of `budget` that `flag` names (`--candidates`,
/// `--refined`, `--samples`, `--replies` or `--depth`) to `value`; `None`
/// for any other flag, an error for a value refused.
pub fn set(budget: &mut Budget, flag: &str, value: &str) -> Option<Result<(), String>> {
    let (field, least) = match flag {
        "--candidates" => (&mut budget.candidates, 1),
        "--refined" => (&mut budget.refined, 0),
        "--samples" => (&mut budget.samples, 0),
        "--replies" => (&mut budget.replies, 1),
        "--depth" => (&mut budget.depth, 1),
        _ => return None,
    };
    Some(match value.parse::<usize>() {
        Ok(number) if number >= least => {
            *field = number;
            Ok(())
        }
        Ok(_) => Err(format!("{flag} {value}: must be at least {least}")),
        Err(_) => Err(format!("{flag} {value}: not a whole number")),
    })
}
