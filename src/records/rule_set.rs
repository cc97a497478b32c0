//! The rule set a record belongs to: each set of rules has its own table.

use std::fmt;

use crate::game::{Preview, Rules};

/// The rules a record was earned under: the game's rules and the preview
/// shown. Records of different rule sets are never compared.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleSet {
    /// The original's `-w -t -c -i -n -N`.
    pub rules: Rules,
    /// The next-chip preview shown. A preview makes the game easier, so it
    /// is part of the rule set.
    pub preview: Preview,
}

impl RuleSet {
    /// `rules` played with `preview`.
    pub fn new(rules: Rules, preview: Preview) -> RuleSet {
        RuleSet { rules, preview }
    }

    /// Whether this is the original's rule set: the default rules without
    /// a preview, whose record sits at the top of a record file and is the
    /// one an original `.cscore` file holds.
    pub fn is_default(&self) -> bool {
        self.rules.is_default() && self.preview == Preview::Off
    }

    /// The key of this rule set's table in a record file, a bare TOML key:
    /// `w12-t9-c5-i5-n3-N3`, with `-p<preview>` after it when there is one.
    pub fn key(&self) -> String {
        let Rules {
            width,
            height,
            colors,
            line,
            next,
            first,
        } = self.rules;
        let mut key = format!("w{width}-t{height}-c{colors}-i{line}-n{next}-N{first}");
        if self.preview != Preview::Off {
            key.push_str(&format!("-p{}", self.preview));
        }
        key
    }

    /// The rule set whose [`RuleSet::key`] is `key`, if `key` is one this
    /// version writes: valid rules, in its form. A table of another key
    /// (another version's) names no rule set this one can list.
    pub(super) fn from_key(key: &str) -> Option<RuleSet> {
        let mut parts = key.split('-');
        let mut number = |tag: char| parts.next()?.strip_prefix(tag)?.parse::<usize>().ok();
        let rules = Rules {
            width: number('w')?,
            height: number('t')?,
            colors: number('c')?.try_into().ok()?,
            line: number('i')?,
            next: number('n')?,
            first: number('N')?,
        };
        let preview = match parts.next() {
            None => Preview::Off,
            Some(part) => part.strip_prefix('p')?.parse().ok()?,
        };
        let set = RuleSet::new(rules, preview);
        let written = parts.next().is_none() && set.key() == key;
        (written && rules.validate().is_ok()).then_some(set)
    }
}

impl fmt::Display for RuleSet {
    /// The rules as options: `-w12 -t9 -c5 -i5 -n3 -N3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Rules {
            width,
            height,
            colors,
            line,
            next,
            first,
        } = self.rules;
        write!(
            f,
            "-w{width} -t{height} -c{colors} -i{line} -n{next} -N{first}"
        )?;
        if self.preview != Preview::Off {
            write!(f, " --preview {}", self.preview)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_names() {
        let default = RuleSet::default();
        assert!(default.is_default());
        assert_eq!(default.key(), "w9-t9-c5-i5-n3-N3");
        assert_eq!(RuleSet::from_key(&default.key()), Some(default.clone()));
        let wide_rules = Rules {
            width: 12,
            colors: 7,
            ..Rules::default()
        };
        let seen = RuleSet::new(wide_rules, Preview::Cells);
        assert_eq!(RuleSet::from_key("w12-t9-c7-i5-n3-N3-pcells"), Some(seen));
        for other in [
            "w9-t9-c5-i5-n3-N3-x2",
            "w9-t9-c5-i5-n3-N3-poff",
            "w9-t9-c5-i5-n3",
            "w09-t9-c5-i5-n3-N3",
            "w0-t9-c5-i5-n3-N3",
            "t9-w9-c5-i5-n3-N3",
            "w9-t9-c5-i5-n3-N3-pcells-pcells",
            "",
        ] {
            assert_eq!(RuleSet::from_key(other), None, "{other:?}");
        }
        let wide = RuleSet::new(wide_rules, Preview::Off);
        assert!(!wide.is_default());
        assert_eq!(wide.key(), "w12-t9-c7-i5-n3-N3");
        assert_eq!(wide.to_string(), "-w12 -t9 -c7 -i5 -n3 -N3");
        let previewed = RuleSet {
            preview: Preview::Cells,
            ..RuleSet::default()
        };
        assert!(!previewed.is_default());
        assert_eq!(previewed.key(), "w9-t9-c5-i5-n3-N3-pcells");
        assert_eq!(
            previewed.to_string(),
            "-w9 -t9 -c5 -i5 -n3 -N3 --preview cells"
        );
        // Every key is a bare TOML key.
        for key in [wide.key(), previewed.key()] {
            let text = format!("[rules.{key}]\nscore = 1\n");
            assert!(toml::from_str::<toml::Table>(&text).is_ok(), "{key}");
        }
    }
}
