//! The built-in player's budget as the measuring tools take it on their
//! command lines, shared by `examples/selfplay.rs`, `examples/tune.rs` and
//! `examples/train.rs`.

use clines::ai::Budget;

/// The field of `budget` that `flag` sets (`--candidates`, `--refined`,
/// `--samples`, `--replies` or `--depth`); `None` for any other flag.
pub fn field<'a>(budget: &'a mut Budget, flag: &str) -> Option<&'a mut usize> {
    Some(match flag {
        "--candidates" => &mut budget.candidates,
        "--refined" => &mut budget.refined,
        "--samples" => &mut budget.samples,
        "--replies" => &mut budget.replies,
        "--depth" => &mut budget.depth,
        _ => return None,
    })
}
