//! The two kinds of record file: ours, `<user>.toml`, and the original's,
//! `<user>.cscore`, read without following another user's symlinks or
//! hanging on pipes.

use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use super::rule_set::RuleSet;
use super::user::SAFE_NAMES;
use crate::text::{self, TomlProblem};

/// First four bytes of an original `.cscore` file (big-endian).
pub(super) const CSCORE_MAGIC: u32 = 0xC001_CEED;
/// The only `.cscore` format version there is.
const CSCORE_VERSION: u32 = 1;
/// A `.cscore` file: magic, version, score, each four bytes.
const CSCORE_LEN: usize = 12;
/// A record file holding thousands of rule sets is still shorter than
/// this; a longer one is not ours.
pub(super) const MAX_RECORD_BYTES: u64 = 256 * 1024;

/// A stored best score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The score.
    pub score: u64,
    /// When it was set, in seconds since the Unix epoch; `None` for the
    /// original's files, which do not say.
    pub set_at: Option<u64>,
}

/// The contents of a `<user>.toml` file: the default rule set's record at
/// the top (`score`, `set_at`), as every version has written it, and each
/// other rule set's under `[rules.<key>]` (see [`RuleSet::key`]). Kept as
/// the TOML table it was read as, so that a save changes one record and
/// keeps everything else, tables of rule sets this version does not know
/// included.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct RecordFile {
    /// The whole file.
    table: toml::Table,
}

/// The table holding the records of rule sets other than the default.
const RULES_TABLE: &str = "rules";
/// What every record holds.
const EXPECTED: &str = "expected `score` and `set_at` as whole numbers, 0 or more";

impl RecordFile {
    /// Reads a `<user>.toml` file, checking every record in it. A file
    /// with nothing in it (emptied, or made with `touch`) holds no record
    /// and may be replaced; one that holds something else is not ours.
    fn parse(bytes: &[u8]) -> Result<RecordFile, SkipReason> {
        let text = std::str::from_utf8(bytes)
            .map_err(|_| SkipReason::Corrupt("not UTF-8 text".to_string()))?;
        let table: toml::Table = toml::from_str(text).map_err(|e| {
            let problem = TomlProblem::new(&e, text);
            SkipReason::Corrupt(format!("not TOML{}: {}", problem.at(), problem.why()))
        })?;
        if table.is_empty() {
            return Ok(RecordFile { table });
        }
        let foreign = |why: String| SkipReason::Foreign(why);
        let mut any = record_in(&table).map_err(|()| foreign(EXPECTED.to_string()))?;
        if let Some(rules) = table.get(RULES_TABLE) {
            let rules = rules
                .as_table()
                .ok_or_else(|| foreign(format!("`{RULES_TABLE}` is not a table of rule sets")))?;
            for (key, entry) in rules {
                let record = entry.as_table().ok_or(()).and_then(record_in);
                let record =
                    record.map_err(|()| foreign(format!("{EXPECTED} in {}", text::quote(key))))?;
                any = any.or(record);
            }
        }
        match any {
            Some(_) => Ok(RecordFile { table }),
            None => Err(foreign(EXPECTED.to_string())),
        }
    }

    /// The record of `rules`, if the file holds one.
    pub(super) fn record(&self, rules: &RuleSet) -> Option<Record> {
        let table = if rules.is_default() {
            &self.table
        } else {
            self.table
                .get(RULES_TABLE)?
                .as_table()?
                .get(&rules.key())?
                .as_table()?
        };
        // Checked when read.
        record_in(table).ok().flatten()
    }

    /// Whether the file holds a record of a rule set other than `rules`
    /// that this version can list: tables of keys it does not write (from
    /// another version, or the default rules' moved there by hand) are
    /// kept but name no rules to give `-l`.
    fn holds_other_than(&self, rules: &RuleSet) -> bool {
        let holds = |table: &toml::Table| matches!(record_in(table), Ok(Some(_)));
        let default = !rules.is_default() && holds(&self.table);
        let others = self
            .table
            .get(RULES_TABLE)
            .and_then(toml::Value::as_table)
            .is_some_and(|table| {
                table.iter().any(|(key, entry)| {
                    let listed = RuleSet::from_key(key)
                        .is_some_and(|set| !set.is_default() && set != *rules);
                    listed && entry.as_table().is_some_and(holds)
                })
            });
        default || others
    }

    /// Sets the record of `rules` to `score`, set at `set_at`.
    pub(super) fn set(
        &mut self,
        rules: &RuleSet,
        score: u64,
        set_at: u64,
    ) -> Result<(), toml::ser::Error> {
        let values = [
            ("score", toml::Value::try_from(score)?),
            ("set_at", toml::Value::try_from(set_at)?),
        ];
        let table = if rules.is_default() {
            &mut self.table
        } else {
            let all = self
                .table
                .entry(RULES_TABLE)
                .or_insert_with(|| toml::Value::Table(toml::Table::new()));
            let Some(all) = all.as_table_mut() else {
                unreachable!("a file whose `rules` is not a table is never read");
            };
            let entry = all
                .entry(rules.key())
                .or_insert_with(|| toml::Value::Table(toml::Table::new()));
            let Some(entry) = entry.as_table_mut() else {
                unreachable!("a file with a rule set that is not a table is never read");
            };
            entry
        };
        for (key, value) in values {
            table.insert(key.to_string(), value);
        }
        Ok(())
    }

    /// The file's text.
    pub(super) fn to_text(&self) -> Result<String, toml::ser::Error> {
        toml::to_string(&self.table)
    }
}

/// The record in one table: `Ok(None)` without `score` and `set_at`,
/// `Err` when only one is there or either is not a whole number.
fn record_in(table: &toml::Table) -> Result<Option<Record>, ()> {
    let number = |key: &str| match table.get(key) {
        None => Ok(None),
        Some(toml::Value::Integer(n)) => u64::try_from(*n).map(Some).map_err(|_| ()),
        Some(_) => Err(()),
    };
    match (number("score")?, number("set_at")?) {
        (Some(score), Some(set_at)) => Ok(Some(Record {
            score,
            set_at: Some(set_at),
        })),
        (None, None) => Ok(None),
        _ => Err(()),
    }
}

/// Why a file in the records directory was not read as a record.
#[derive(Debug)]
pub enum SkipReason {
    /// A symbolic link not followed: another user's, so that nobody can
    /// point us elsewhere, or one that leads nowhere.
    Symlink,
    /// A directory, device or pipe rather than a regular file.
    NotAFile,
    /// Opening or reading it failed.
    Unreadable(io::Error),
    /// Not a valid file of its kind (truncated, not TOML, a negative score).
    Corrupt(String),
    /// A well-formed file that is not a record (other fields, other magic).
    Foreign(String),
    /// Its name is not `<user>.toml` or `<user>.cscore` for a safe user name.
    BadName,
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipReason::Symlink => write!(f, "a symbolic link, not followed"),
            SkipReason::NotAFile => write!(f, "not a regular file"),
            SkipReason::Unreadable(e) => write!(f, "unreadable: {e}"),
            SkipReason::Corrupt(why) => write!(f, "corrupt: {why}"),
            SkipReason::Foreign(why) => write!(f, "not a clines record: {why}"),
            SkipReason::BadName => write!(f, "the file name is not a user name ({SAFE_NAMES})"),
        }
    }
}

/// A file left out of the records, untouched.
#[derive(Debug)]
pub struct Skipped {
    /// The file.
    pub path: PathBuf,
    /// Why it was left out.
    pub reason: SkipReason,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "skipping {}: {}", text::path(&self.path), self.reason)
    }
}

/// The two kinds of record file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Ours: `<user>.toml`.
    Toml,
    /// The original's: `<user>.cscore`.
    Cscore,
}

impl Kind {
    /// The file name extension, without the dot.
    pub(super) fn extension(self) -> &'static str {
        match self {
            Kind::Toml => "toml",
            Kind::Cscore => "cscore",
        }
    }
}

/// Splits `<user>.toml` / `<user>.cscore` into the user and the kind; `None`
/// for anything else, including dot files.
pub(super) fn record_name(file_name: &str) -> Option<(&str, Kind)> {
    if file_name.starts_with('.') {
        return None;
    }
    if let Some(user) = file_name.strip_suffix(".toml") {
        Some((user, Kind::Toml))
    } else {
        file_name
            .strip_suffix(".cscore")
            .map(|user| (user, Kind::Cscore))
    }
}

/// What a record file holds.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Contents {
    /// A `<user>.toml` file: records of any rule set.
    Toml(RecordFile),
    /// An original `<user>.cscore` file: the default rule set's record.
    Cscore(Record),
}

impl Contents {
    /// The record of `rules`, if there is one.
    pub(super) fn record(&self, rules: &RuleSet) -> Option<Record> {
        match self {
            Contents::Toml(file) => file.record(rules),
            Contents::Cscore(record) => rules.is_default().then_some(*record),
        }
    }

    /// Whether the file holds a record of a rule set other than `rules`.
    pub(super) fn holds_other_than(&self, rules: &RuleSet) -> bool {
        match self {
            Contents::Toml(file) => file.holds_other_than(rules),
            Contents::Cscore(_) => !rules.is_default(),
        }
    }
}

/// The record of `rules` in one record file; `Ok(None)` when the file
/// does not exist or holds none for these rules.
pub(super) fn read_record(
    path: &Path,
    kind: Kind,
    rules: &RuleSet,
) -> Result<Option<Record>, SkipReason> {
    // The original knew only the default rules: its files need not be read.
    if kind == Kind::Cscore && !rules.is_default() {
        return Ok(None);
    }
    Ok(read_file(path, kind)?.and_then(|contents| contents.record(rules)))
}

/// Reads one record file without following a symlink, unless the link in
/// the records directory is the player's own (a player may keep the file
/// elsewhere, in a folder of dotfiles say); `Ok(None)` when it does not
/// exist. Another user's link is never followed, so nobody can point the
/// player's records at a file of the player's.
pub(super) fn read_file(path: &Path, kind: Kind) -> Result<Option<Contents>, SkipReason> {
    // O_NONBLOCK: opening a planted FIFO must not hang the game.
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path);
    match file {
        Ok(file) => read_contents(file, kind).map(Some),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) if refused_symlink(&e) => match fs::symlink_metadata(path) {
            Ok(link) if link.file_type().is_symlink() && link.uid() == player_uid() => {
                read_through(path, kind).map(Some)
            }
            Ok(link) if link.file_type().is_symlink() => Err(SkipReason::Symlink),
            // A loop of links on the way to the directory, not the file.
            _ => Err(SkipReason::Unreadable(e)),
        },
        Err(e) => Err(SkipReason::Unreadable(e)),
    }
}

/// The real user, whose own links are followed and whose own files keep
/// their permissions.
#[cfg(not(test))]
pub(super) fn player_uid() -> u32 {
    super::sys::real_uid()
}

/// The real user, unless a test poses as another
/// ([`super::test_util::posing_as_another_user`]).
#[cfg(test)]
pub(super) fn player_uid() -> u32 {
    super::test_util::player_uid()
}

/// The record file the player's own link at `path` leads to. A link that
/// leads nowhere, or into a loop, is taken as another user's link is, to
/// be replaced; a file it leads to that cannot be read is told as if it
/// stood in the link's place, and is kept.
fn read_through(path: &Path, kind: Kind) -> Result<Contents, SkipReason> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path);
    match file {
        Ok(file) => read_contents(file, kind),
        Err(e) if e.kind() == io::ErrorKind::NotFound || refused_symlink(&e) => {
            Err(SkipReason::Symlink)
        }
        Err(e) => Err(SkipReason::Unreadable(e)),
    }
}

/// The contents of an open record file, which must be a regular file.
fn read_contents(file: fs::File, kind: Kind) -> Result<Contents, SkipReason> {
    let metadata = file.metadata().map_err(SkipReason::Unreadable)?;
    if !metadata.is_file() {
        return Err(SkipReason::NotAFile);
    }
    // Sized from the file, so it comes in one read and one to see its end.
    let expected = metadata.len().min(MAX_RECORD_BYTES + 1);
    let mut bytes = Vec::with_capacity(usize::try_from(expected).unwrap_or(0));
    file.take(MAX_RECORD_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(SkipReason::Unreadable)?;
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        return Err(SkipReason::Foreign(format!(
            "longer than {MAX_RECORD_BYTES} bytes"
        )));
    }
    match kind {
        Kind::Toml => RecordFile::parse(&bytes).map(Contents::Toml),
        Kind::Cscore => parse_cscore(&bytes).map(Contents::Cscore),
    }
}

/// Whether opening with `O_NOFOLLOW` failed because the path is a symlink:
/// `ELOOP` on Linux and most systems, `EMLINK` on FreeBSD.
pub(super) fn refused_symlink(error: &io::Error) -> bool {
    matches!(error.raw_os_error(), Some(libc::ELOOP | libc::EMLINK))
}

/// An original `<user>.cscore` record: big-endian magic, version, score.
fn parse_cscore(bytes: &[u8]) -> Result<Record, SkipReason> {
    let word = |at: usize| bytes[at..at + 4].try_into().map(u32::from_be_bytes);
    if bytes.len() < 4 {
        return Err(SkipReason::Corrupt(format!(
            "{} bytes, expected {CSCORE_LEN}",
            bytes.len()
        )));
    }
    let magic = word(0).expect("four bytes checked");
    if magic != CSCORE_MAGIC {
        return Err(SkipReason::Foreign(format!(
            "magic number {magic:#010X}, expected {CSCORE_MAGIC:#010X}"
        )));
    }
    if bytes.len() != CSCORE_LEN {
        return Err(SkipReason::Corrupt(format!(
            "{} bytes, expected {CSCORE_LEN}",
            bytes.len()
        )));
    }
    let version = word(4).expect("length checked");
    if version != CSCORE_VERSION {
        return Err(SkipReason::Foreign(format!(
            "format version {version}, expected {CSCORE_VERSION}"
        )));
    }
    let score = word(8).expect("length checked") as i32;
    let score =
        u64::try_from(score).map_err(|_| SkipReason::Corrupt(format!("negative score {score}")))?;
    Ok(Record {
        score,
        set_at: None,
    })
}

#[cfg(test)]
mod tests {
    use proptest::collection::vec;
    use proptest::prelude::*;

    use super::*;
    use crate::game::{Preview, Rules, strategies};
    use crate::records::store::MOST_RECORDED;
    use crate::records::test_util::{cscore_bytes, damage, damaged};

    #[test]
    fn a_symlink_refused_by_any_system_is_a_symlink() {
        for errno in [libc::ELOOP, libc::EMLINK] {
            assert!(refused_symlink(&io::Error::from_raw_os_error(errno)));
        }
        for errno in [libc::ENOENT, libc::EACCES, libc::ENOTDIR] {
            assert!(!refused_symlink(&io::Error::from_raw_os_error(errno)));
        }
    }

    #[test]
    fn record_files_hold_a_record_per_rule_set() {
        let default = RuleSet::default();
        let wide = RuleSet::new(
            Rules {
                width: 12,
                ..Default::default()
            },
            Preview::Off,
        );
        // Today's files: the default record alone.
        let old = RecordFile::parse(b"score = 40\nset_at = 7\n").unwrap();
        let record = |score, set_at| {
            Some(Record {
                score,
                set_at: Some(set_at),
            })
        };
        assert_eq!(old.record(&default), record(40, 7));
        assert_eq!(old.record(&wide), None);
        assert!(!old.holds_other_than(&default));
        assert!(old.holds_other_than(&wide));

        let mut file = old.clone();
        file.set(&wide, 12, 8).unwrap();
        let text = file.to_text().unwrap();
        assert_eq!(
            text,
            "score = 40\nset_at = 7\n\n[rules.w12-t9-c5-i5-n3-N3]\nscore = 12\nset_at = 8\n"
        );
        let again = RecordFile::parse(text.as_bytes()).unwrap();
        assert_eq!(again.record(&default), record(40, 7));
        assert_eq!(again.record(&wide), record(12, 8));

        // Another rule set alone, and what this version does not know, kept.
        let mut only_wide = RecordFile::parse(
            b"future = true\n[rules.w12-t9-c5-i5-n3-N3]\nscore = 5\nset_at = 1\n",
        )
        .unwrap();
        assert_eq!(only_wide.record(&default), None);
        assert!(only_wide.holds_other_than(&default));
        assert!(
            !only_wide.holds_other_than(&wide),
            "its own record is not another's"
        );
        // Keys this version does not write name no rules to list.
        for key in ["w9-t9-c5-i5-n3-N3-x2", "w9-t9-c5-i5-n3-N3"] {
            let text = format!("[rules.{key}]\nscore = 4\nset_at = 1\n");
            let unknown = RecordFile::parse(text.as_bytes()).unwrap();
            assert!(!unknown.holds_other_than(&default), "{key}");
            assert!(!unknown.holds_other_than(&wide), "{key}");
        }
        only_wide.set(&default, 9, 2).unwrap();
        let text = only_wide.to_text().unwrap();
        assert!(
            text.starts_with("future = true\nscore = 9\nset_at = 2\n"),
            "{text}"
        );
        assert_eq!(
            RecordFile::parse(text.as_bytes()).unwrap().record(&wide),
            record(5, 1)
        );
    }

    /// A rule set of small rules (so that two drawn are often the same)
    /// and any preview.
    fn rule_set() -> impl Strategy<Value = RuleSet> {
        let rules = strategies::rules(
            8usize..=10,
            9usize..=10,
            5u8..=6,
            5usize..=6,
            3usize..=4,
            3usize..=4,
        );
        (rules, strategies::preview()).prop_map(|(rules, preview)| RuleSet::new(rules, preview))
    }

    proptest! {
        /// Keys round trip: what is saved under one rule set is read back
        /// under that rule set alone, through the file's text; the default
        /// rule set's record stays at the top, where today's files and the
        /// original's hold it, and every other one under its own key.
        #[test]
        fn each_rule_set_reads_back_its_own_record(
            a in rule_set(),
            b in rule_set(),
            same_rules in any::<bool>(),
        ) {
            // Half the pairs differ at most in their preview.
            let b = if same_rules { RuleSet { rules: a.rules, ..b } } else { b };
            let mut file = RecordFile::default();
            file.set(&a, 1, 10).unwrap();
            file.set(&b, 2, 20).unwrap();
            let text = file.to_text().unwrap();
            let again = RecordFile::parse(text.as_bytes()).unwrap();
            let record = |score, set_at| Some(Record { score, set_at: Some(set_at) });
            prop_assert_eq!(a.key() == b.key(), a == b);
            prop_assert_eq!(again.record(&b), record(2, 20));
            prop_assert_eq!(again.record(&a), if a == b { record(2, 20) } else { record(1, 10) });
            for set in [&a, &b] {
                let header = format!("[rules.{}]\n", set.key());
                prop_assert_eq!(text.contains(&header), !set.is_default(), "{}", text);
            }
            let default = RuleSet::default();
            if a != default && b != default {
                prop_assert_eq!(again.record(&default), None);
                prop_assert!(text.starts_with("[rules."), "{}", text);
            }
        }
    }

    /// Any rule set of [`rule_set`], or the default one, whose record is
    /// kept apart from the others'.
    fn any_rule_set() -> impl Strategy<Value = RuleSet> {
        prop_oneof![Just(RuleSet::default()), rule_set()]
    }

    /// Text made of the parts of a record file, in any order.
    fn record_like_text() -> impl Strategy<Value = String> {
        "(score|set_at|rules|w9-t9|\\[|\\]|\\.|=| |\n|\"|-?[0-9]{1,20}|[a-z]{1,3}|\\{|\\}|,)*"
    }

    /// Checks why a parser refused a file, as `clines -l` tells it: a
    /// reason of the parsers' own, saying something, with no character
    /// that a terminal would take as a command.
    fn check_reason(why: &SkipReason) -> Result<(), TestCaseError> {
        let (SkipReason::Corrupt(text) | SkipReason::Foreign(text)) = why else {
            return Err(TestCaseError::fail(format!(
                "{why:?}, which no parser gives"
            )));
        };
        prop_assert!(!text.is_empty());
        prop_assert!(!text.chars().any(char::is_control), "{:?}", text);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// A record file edited by hand, cut short or corrupted is refused
        /// saying why, or read as records a save keeps: each in range and
        /// dated, and each still there, unchanged, once a save has set
        /// another rule set's record in the file.
        #[test]
        fn a_damaged_record_file_is_refused_with_a_reason_or_loses_no_record(
            records in vec((any_rule_set(), 0..=MOST_RECORDED, 0..=MOST_RECORDED), 1..4),
            damage in vec(damage(), 1..4),
            saved in any_rule_set(),
        ) {
            let mut file = RecordFile::default();
            for (rules, score, set_at) in &records {
                file.set(rules, *score, *set_at).unwrap();
            }
            let bytes = damaged(file.to_text().unwrap().as_bytes(), &damage);
            let read = match RecordFile::parse(&bytes) {
                Ok(read) => read,
                Err(why) => {
                    check_reason(&why)?;
                    return Ok(());
                }
            };
            let mut rule_sets: Vec<&RuleSet> = records.iter().map(|(rules, ..)| rules).collect();
            rule_sets.push(&saved);
            let held: Vec<Option<Record>> =
                rule_sets.iter().map(|rules| read.record(rules)).collect();
            for record in held.iter().flatten() {
                prop_assert!(record.score <= MOST_RECORDED, "{:?}", record);
                prop_assert!(record.set_at.is_some_and(|at| at <= MOST_RECORDED), "{:?}", record);
            }
            let mut written = read;
            written.set(&saved, 7, 8).unwrap();
            let again = RecordFile::parse(written.to_text().unwrap().as_bytes()).unwrap();
            for (rules, before) in rule_sets.into_iter().zip(held) {
                let expected = if *rules == saved {
                    Some(Record { score: 7, set_at: Some(8) })
                } else {
                    before
                };
                prop_assert_eq!(again.record(rules), expected);
            }
        }

        /// Whatever a file holds, reading it as either kind of record file
        /// gives a record or a reason, never a panic; a `.cscore` record is
        /// the original's twelve bytes and a score it could hold.
        #[test]
        fn any_bytes_are_read_as_a_record_file_or_refused_with_a_reason(
            bytes in prop_oneof![
                vec(any::<u8>(), 0..64),
                record_like_text().prop_map(String::into_bytes),
            ],
            score in any::<i32>(),
            damage in vec(damage(), 0..3),
        ) {
            if let Err(why) = RecordFile::parse(&bytes) {
                check_reason(&why)?;
            }
            let cscore = damaged(&cscore_bytes(CSCORE_MAGIC, CSCORE_VERSION, score), &damage);
            for bytes in [&bytes, &cscore] {
                match parse_cscore(bytes) {
                    Ok(record) => {
                        prop_assert_eq!(bytes.len(), CSCORE_LEN);
                        prop_assert!(record.score <= i32::MAX as u64, "{:?}", record);
                        prop_assert_eq!(record.set_at, None);
                    }
                    Err(why) => check_reason(&why)?,
                }
            }
        }
    }

    #[test]
    fn a_file_with_nothing_in_it_holds_no_record() {
        for empty in [&b""[..], b"\n", b"# kept by hand\n"] {
            let file = RecordFile::parse(empty).unwrap();
            assert_eq!(file.record(&RuleSet::default()), None);
        }
    }

    #[test]
    fn bad_record_files() {
        let cases: [(&[u8], &str); 9] = [
            (b"score = ", "corrupt: not TOML at line 1: "),
            (
                b"set_at = 1\nscore = 18446744073709551616\n",
                "corrupt: not TOML at line 2: the number \"18446744073709551616\" is out of \
                 the range TOML holds, -9223372036854775808 to 9223372036854775807",
            ),
            (b"\xff", "corrupt: not UTF-8"),
            (
                b"[server]\nport = 80\n",
                "not a clines record: expected `score`",
            ),
            (b"score = 3\n", "not a clines record: expected `score`"),
            (
                b"score = 1\nset_at = -1\n",
                "not a clines record: expected `score` and `set_at` as whole numbers, 0 or more",
            ),
            (
                b"score = -3\nset_at = 1\n",
                "not a clines record: expected `score`",
            ),
            (b"rules = 3\n", "`rules` is not a table"),
            (
                b"score = 1\nset_at = 1\n[rules.\"\\u001b[2J\"]\nscore = \"lots\"\n",
                "as whole numbers, 0 or more in \"\\u{1b}[2J\"",
            ),
        ];
        for (bytes, message) in cases {
            let reason = RecordFile::parse(bytes).unwrap_err().to_string();
            assert!(reason.contains(message), "{reason} lacks {message}");
        }
    }

    #[test]
    fn cscore_formats() {
        let good = parse_cscore(&cscore_bytes(CSCORE_MAGIC, 1, 1234)).unwrap();
        assert_eq!(good.score, 1234);
        assert_eq!(
            parse_cscore(&[0xC0, 0x01, 0xCE, 0xED, 0, 0, 0, 1, 0, 0, 0, 7])
                .unwrap()
                .score,
            7
        );
        let cases: [(Vec<u8>, &str); 5] = [
            (vec![0xC0, 0x01], "corrupt: 2 bytes"),
            (
                cscore_bytes(0xDEAD_BEEF, 1, 5),
                "not a clines record: magic",
            ),
            (
                cscore_bytes(CSCORE_MAGIC, 1, 5)[..10].to_vec(),
                "corrupt: 10 bytes",
            ),
            (cscore_bytes(CSCORE_MAGIC, 2, 5), "format version 2"),
            (cscore_bytes(CSCORE_MAGIC, 1, -5), "negative score -5"),
        ];
        for (bytes, message) in cases {
            let reason = parse_cscore(&bytes).unwrap_err().to_string();
            assert!(reason.contains(message), "{reason} lacks {message}");
        }
    }
}
