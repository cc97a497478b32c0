//! High scores: one `<user>.toml` per user in a records directory, the
//! original's `<user>.cscore` files read alongside, saving that never lowers
//! or loses a record, the `clines -l` listing and the `hi` line on the board.
//!
//! Everything works on an explicit directory and user name ([`Store::new`]),
//! so tests never touch real files; [`Store::open`] and [`list`] find the
//! real ones.
//!
//! The parts, one file each: `lookup` finds the records directory, `user` the
//! player's name, `rule_set` names the rules a record was earned under,
//! `format` reads the two kinds of record file, `scan` reads a whole
//! directory and makes the `-l` listing, `hi_line` is what the board shows,
//! `store` loads and saves one player's record, `saved` keeps a game to go
//! on with later, and `sys` holds the few libc calls the records need, the
//! only `unsafe` code among them.

mod format;
mod hi_line;
mod lookup;
mod rule_set;
mod saved;
mod scan;
mod store;
mod sys;
#[cfg(test)]
mod test_util;
mod user;

pub use format::{Record, SkipReason, Skipped};
pub use hi_line::{BoardRecords, HiLine};
pub use lookup::{NoScoreDir, SCORE_DIR_ENV, ScoreDir, resolve_score_dir, score_dir};
pub use rule_set::RuleSet;
pub use saved::{BadSave, NoRecord, Placed, SaveSlot, SavedGame};
pub use scan::{Entry, ListError, Listing, Scan, format_listing, list, list_dir, scan, scan_all};
pub use store::{LockWait, SaveCause, SaveError, SaveOutcome, Store, why_unusable};
pub use user::{UserError, check_user_name, current_user};

/// Whether a game keeps a record: only without a fixed seed, so that every
/// record was earned in an unrepeatable game. Each rule set keeps its own
/// (see [`RuleSet`]); whether the built-in player helped is known only at
/// the end.
pub fn records_enabled(seed: Option<u64>) -> bool {
    seed.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_only_without_seed() {
        assert!(records_enabled(None));
        assert!(!records_enabled(Some(7)));
    }
}
