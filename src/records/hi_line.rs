//! The `hi` line on the board's bottom border.

use super::scan::Entry;
use super::store::MOST_RECORDED;

/// What the board shows of the records, read when the game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardRecords {
    /// The player.
    pub user: String,
    /// The best record of all users, the player's included.
    pub best: Option<Entry>,
    /// The player's own record.
    pub own: Option<u64>,
}

/// The `hi` line on the board's bottom border.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HiLine {
    /// The best of all is the player's own (stored, or the score beyond it).
    Own {
        /// The best score.
        score: u64,
    },
    /// Someone else holds the best record.
    Other {
        /// Who holds it.
        name: String,
        /// Their score.
        score: u64,
        /// The player's record, or the current score once it is higher.
        you: u64,
    },
}

impl HiLine {
    /// Full mode: `=[ hi : N ]=` or `=[ hi -- NAME:N you:M ]=`.
    pub fn full_text(&self) -> String {
        match self {
            HiLine::Own { score } => format!("=[ hi : {score} ]="),
            HiLine::Other { name, score, you } => format!("=[ hi -- {name}:{score} you:{you} ]="),
        }
    }

    /// Mini mode: `[ hi : N ]` with the best score.
    pub fn mini_text(&self) -> String {
        let (HiLine::Own { score } | HiLine::Other { score, .. }) = self;
        format!("[ hi : {score} ]")
    }
}

/// Ends a name or a line cut to fit the board.
const CUT_MARK: char = '~';

impl HiLine {
    /// [`HiLine::full_text`] in at most `room` columns (names are ASCII, one
    /// column a character): someone else's name is cut first, then the
    /// player's own record left out, then the line itself is cut after the
    /// score, or left out where the score would be cut. Someone else's
    /// record never takes the form of the player's own, which would claim
    /// the best for the player.
    pub fn full_text_within(&self, room: usize) -> String {
        let HiLine::Other { name, score, you } = self else {
            return cut_after_score(self.full_text(), room);
        };
        let with_you = |name: &str| format!("=[ hi -- {name}:{score} you:{you} ]=");
        let without_you = |name: &str| format!("=[ hi -- {name}:{score} ]=");
        let initial: String = name.chars().take(1).chain([CUT_MARK]).collect();
        with_name_within(name, room, with_you)
            .or_else(|| with_name_within(name, room, without_you))
            .or_else(|| {
                // The whole name while it fits, then its first letter.
                [name.as_str(), &initial]
                    .into_iter()
                    .map(|name| cut_after_score(without_you(name), room))
                    .find(|text| !text.is_empty())
            })
            .unwrap_or_default()
    }

    /// [`HiLine::mini_text`] in at most `room` columns: cut after the
    /// score, or left out where the score would be cut.
    pub fn mini_text_within(&self, room: usize) -> String {
        cut_after_score(self.mini_text(), room)
    }
}

/// The line `line` makes of `name` in at most `room` columns, with the
/// name cut to fit and ending with [`CUT_MARK`]; `None` where not even
/// one character of it would fit.
fn with_name_within(name: &str, room: usize, line: impl Fn(&str) -> String) -> Option<String> {
    let text = line(name);
    let len = text.chars().count();
    if len <= room {
        return Some(text);
    }
    let keep = room
        .checked_sub(len - name.chars().count() + 1)
        .filter(|&keep| keep > 0)?;
    let cut: String = name.chars().take(keep).chain([CUT_MARK]).collect();
    Some(line(&cut))
}

/// `text`, a line whose last digits are a score (a name before it may hold
/// digits too), in at most `room` characters: whole, or cut after the score
/// and ending with [`CUT_MARK`], or empty, since a cut score would show a
/// wrong one.
fn cut_after_score(text: String, room: usize) -> String {
    if text.len() <= room {
        return text;
    }
    let score_end = text
        .rfind(|c: char| c.is_ascii_digit())
        .map_or(0, |at| at + 1);
    if room <= score_end {
        return String::new();
    }
    let mut kept = text[..room - 1].to_string();
    kept.push(CUT_MARK);
    kept
}

impl BoardRecords {
    /// The line to show while the player has `score`: the stored records,
    /// overtaken live as the score reaches them, the score counting at most
    /// what a record file holds, as it will be kept. As in the original, a
    /// player whose record or score equals the best shows the best as their
    /// own. `None` while there is neither a record nor a score.
    pub fn hi_line(&self, score: u64) -> Option<HiLine> {
        let score = score.min(MOST_RECORDED);
        let you = self.own.unwrap_or(0).max(score);
        match &self.best {
            Some(best) if best.user != self.user && best.score > you => Some(HiLine::Other {
                name: best.user.clone(),
                score: best.score,
                you,
            }),
            Some(best) => Some(HiLine::Own {
                score: you.max(best.score),
            }),
            None if score > 0 => Some(HiLine::Own { score }),
            None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::test_util::entry;

    #[test]
    fn hi_line_follows_the_score() {
        let other_best = BoardRecords {
            user: "alice".to_string(),
            best: Some(entry("bob", 100)),
            own: Some(40),
        };
        let other = |you| HiLine::Other {
            name: "bob".to_string(),
            score: 100,
            you,
        };
        assert_eq!(other_best.hi_line(0), Some(other(40)));
        assert_eq!(other_best.hi_line(40), Some(other(40)));
        assert_eq!(other_best.hi_line(41), Some(other(41)));
        assert_eq!(other_best.hi_line(99), Some(other(99)));
        // The original's line: its own form once the best is reached.
        assert_eq!(other_best.hi_line(100), Some(HiLine::Own { score: 100 }));
        assert_eq!(other_best.hi_line(101), Some(HiLine::Own { score: 101 }));
        let tied = BoardRecords {
            own: Some(100),
            ..other_best.clone()
        };
        assert_eq!(tied.hi_line(0), Some(HiLine::Own { score: 100 }));

        let no_own = BoardRecords {
            own: None,
            ..other_best.clone()
        };
        assert_eq!(no_own.hi_line(0), Some(other(0)));

        let own_best = BoardRecords {
            user: "alice".to_string(),
            best: Some(entry("alice", 100)),
            own: Some(100),
        };
        assert_eq!(own_best.hi_line(7), Some(HiLine::Own { score: 100 }));
        assert_eq!(own_best.hi_line(130), Some(HiLine::Own { score: 130 }));

        let nothing = BoardRecords {
            user: "alice".to_string(),
            best: None,
            own: None,
        };
        assert_eq!(nothing.hi_line(0), None);
        assert_eq!(nothing.hi_line(5), Some(HiLine::Own { score: 5 }));
        // A score past what a file holds shows as what will be kept.
        let most = i64::MAX as u64;
        for line in [&nothing, &own_best, &other_best] {
            assert_eq!(line.hi_line(u64::MAX), Some(HiLine::Own { score: most }));
        }
        assert_eq!(
            other_best.hi_line(most + 1),
            Some(HiLine::Own { score: most })
        );
    }

    /// `name` holds the best record, 300; the player's is 12.
    fn best_of(name: &str) -> HiLine {
        HiLine::Other {
            name: name.to_string(),
            score: 300,
            you: 12,
        }
    }

    #[test]
    fn hi_line_texts() {
        let own = HiLine::Own { score: 250 };
        assert_eq!(own.full_text(), "=[ hi : 250 ]=");
        assert_eq!(own.mini_text(), "[ hi : 250 ]");
        let other = best_of("bob");
        assert_eq!(other.full_text(), "=[ hi -- bob:300 you:12 ]=");
        assert_eq!(other.mini_text(), "[ hi : 300 ]");
    }

    #[test]
    fn hi_lines_cut_to_the_room_there_is() {
        let other = best_of("bartholomew");
        let text = "=[ hi -- bartholomew:300 you:12 ]=";
        assert_eq!(other.full_text_within(100), text);
        assert_eq!(other.full_text_within(text.len()), text);
        assert_eq!(
            other.full_text_within(text.len() - 1),
            "=[ hi -- bartholom~:300 you:12 ]="
        );
        assert_eq!(other.full_text_within(25), "=[ hi -- b~:300 you:12 ]=");
        // Then the player's own record goes; the best is still someone
        // else's, never shown as the player's own `=[ hi : 300 ]=`.
        assert_eq!(other.full_text_within(24), "=[ hi -- barthol~:300 ]=");
        assert_eq!(other.full_text_within(18), "=[ hi -- b~:300 ]=");
        assert_eq!(other.full_text_within(17), "=[ hi -- b~:300 ~");
        assert_eq!(other.full_text_within(16), "=[ hi -- b~:300~");
        assert_eq!(other.full_text_within(15), "");
        assert_eq!(other.full_text_within(0), "");
        let short = best_of("al");
        assert_eq!(short.full_text_within(18), "=[ hi -- al:300 ]=");
        // A short name is not cut while the line can be cut after the score.
        assert_eq!(short.full_text_within(17), "=[ hi -- al:300 ~");
        assert_eq!(short.full_text_within(16), "=[ hi -- al:300~");
        assert_eq!(short.full_text_within(15), "");
        let one = best_of("a");
        assert_eq!(one.full_text_within(16), "=[ hi -- a:300 ~");
        assert_eq!(one.full_text_within(15), "=[ hi -- a:300~");
        let own = HiLine::Own { score: 250 };
        assert_eq!(own.full_text_within(14), "=[ hi : 250 ]=");
        assert_eq!(own.full_text_within(13), "=[ hi : 250 ~");
        assert_eq!(own.mini_text_within(12), "[ hi : 250 ]");
        assert_eq!(own.mini_text_within(11), "[ hi : 250~");
        assert_eq!(own.mini_text_within(10), "");
        for room in 0..40 {
            assert!(other.full_text_within(room).chars().count() <= room);
            assert!(!other.full_text_within(room).starts_with("=[ hi :"));
            assert!(other.mini_text_within(room).chars().count() <= room);
        }
    }
}
