//! High scores: one `<user>.toml` per user in a score directory, the
//! original's `<user>.cscore` files read alongside, saving that never lowers
//! or loses a record, the `clines -l` listing and the `hi` line on the board.
//!
//! Everything works on an explicit directory and user name ([`Store::new`]),
//! so tests never touch real files; [`Store::open`] and [`list`] find the
//! real ones.
//!
//! The parts, one file each: `lookup` finds the score directory, `user` the
//! player's name, `format` reads the two kinds of record file, `scan` reads
//! a whole directory and makes the `-l` listing, `hi_line` is what the board
//! shows, `store` loads and saves one player's record, and `sys` holds the
//! few libc calls, the only `unsafe` code in the crate.

mod format;
mod hi_line;
mod lookup;
mod scan;
mod store;
mod sys;
#[cfg(test)]
mod test_util;
mod user;

pub use format::{Record, SkipReason, Skipped};
pub use hi_line::{BoardRecords, HiLine};
pub use lookup::{SCORE_DIR_ENV, resolve_score_dir, score_dir};
pub use scan::{Entry, Listing, Scan, format_listing, list, list_dir, scan};
pub use store::{SaveError, SaveOutcome, Store};
pub use user::{UserError, check_user_name, current_user};

use crate::game::Rules;

/// Whether a game keeps records: only under the default rules and without a
/// fixed seed, so every record was earned in the same, unrepeatable game.
/// Default values given explicitly still count as defaults.
pub fn records_enabled(rules: &Rules, seed: Option<u64>) -> bool {
    rules.is_default() && seed.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_only_under_default_rules_without_seed() {
        let default = Rules::default();
        assert!(records_enabled(&default, None));
        assert!(!records_enabled(&default, Some(7)));
        let wide = Rules {
            width: 10,
            ..default
        };
        assert!(!records_enabled(&wide, None));
        let one_more = Rules { next: 4, ..default };
        assert!(!records_enabled(&one_more, None));
    }
}
