//! Every user's record in a directory, and the `clines -l` listing of them.

use std::cmp::Ordering;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::format::{Kind, SkipReason, Skipped, read_file, record_name};
use super::lookup::{NoScoreDir, ScoreDir, score_dir};
use super::rule_set::RuleSet;
use super::sys;
use super::user::{check_user_name, current_user};
use crate::{files, text};

/// One user's best record, for the listing and the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The user's name.
    pub user: String,
    /// The user's best score.
    pub score: u64,
    /// When it was set, in seconds since the Unix epoch; `None` when the
    /// file does not say (the original's).
    pub set_at: Option<u64>,
}

/// Every record in a directory.
#[derive(Debug, Default)]
pub struct Scan {
    /// One entry per user, best first, ties by name.
    pub entries: Vec<Entry>,
    /// Files that looked like records but could not be used.
    pub skipped: Vec<Skipped>,
}

/// Reads every user's record of the default rule set in `dir`: the higher
/// of `<user>.toml` and `<user>.cscore` per user. A missing directory has
/// no records. Files starting with `.` (our temporary files) and other
/// extensions are ignored.
pub fn scan(dir: &Path) -> io::Result<Scan> {
    scan_all(&ScoreDir::new(dir), &RuleSet::default())
}

/// [`scan`] for the records of `rules` in the records directory, with those
/// of the legacy directory added (see [`ScoreDir::legacy`]): its files
/// that are not usable records are not reported, nor is a failure to read
/// it.
pub fn scan_all(dir: &ScoreDir, rules: &RuleSet) -> io::Result<Scan> {
    scan_telling_others(dir, rules, false).map(|(scan, _)| scan)
}

/// [`scan_all`], and whether the files hold records of other rule sets
/// that `-l` can list, when `others` asks (which reads the original's
/// files for rules they hold no record of).
fn scan_telling_others(dir: &ScoreDir, rules: &RuleSet, others: bool) -> io::Result<(Scan, bool)> {
    let mut found = Found::new(rules, others);
    found.read(&dir.path)?;
    if let Some(legacy) = &dir.legacy {
        let mut quiet = Found {
            read: std::mem::take(&mut found.read),
            ..Found::new(rules, others)
        };
        // Whatever was read before a failure still counts.
        let _ = quiet.read(legacy);
        found.read = quiet.read;
        found.others |= quiet.others;
    }
    let others = found.others;
    Ok((found.into_scan(), others))
}

/// The records of one rule set read so far, and the files left out.
struct Found<'a> {
    /// The rule set whose records are read.
    rules: &'a RuleSet,
    /// Every record read, in the order read; a user may have several (a
    /// `.toml` and a `.cscore`, or one in each directory). One list rather
    /// than a map by user: `clines -l` over 1,000 records peaked at 123 KB
    /// of heap rather than 147.
    read: Vec<Entry>,
    /// Files that looked like records but could not be used.
    skipped: Vec<Skipped>,
    /// Whether to tell if other rule sets have records.
    ask_others: bool,
    /// Whether a file read holds a record of another rule set, when asked.
    others: bool,
}

impl Found<'_> {
    /// Nothing found yet; `ask_others` asks whether other rule sets have
    /// records.
    fn new(rules: &RuleSet, ask_others: bool) -> Found<'_> {
        Found {
            rules,
            read: Vec::new(),
            skipped: Vec::new(),
            ask_others,
            others: false,
        }
    }

    /// Adds the records in `dir`; a missing directory has none.
    fn read(&mut self, dir: &Path) -> io::Result<()> {
        let listing = match fs::read_dir(dir) {
            Ok(listing) => listing,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(e),
        };
        for item in listing {
            let item = item?;
            // Users are ASCII names, so a name that is not UTF-8 is no
            // record; one that looks like a record's is told, as a name
            // with control characters is.
            let Some(name) = item.file_name().to_str().map(str::to_string) else {
                let lossy = item.file_name().to_string_lossy().into_owned();
                if record_name(&lossy).is_some() {
                    self.skipped.push(Skipped {
                        path: item.path(),
                        reason: SkipReason::BadName,
                    });
                }
                continue;
            };
            let Some((user, kind)) = record_name(&name) else {
                continue;
            };
            let path = item.path();
            if check_user_name(user).is_err() {
                self.skipped.push(Skipped {
                    path,
                    reason: SkipReason::BadName,
                });
                continue;
            }
            // The original's files hold the default rules' record only:
            // for other rules they only tell that it exists.
            if kind == Kind::Cscore && !self.rules.is_default() {
                if self.ask_others && !self.others {
                    self.others = matches!(read_file(&path, kind), Ok(Some(_)));
                }
                continue;
            }
            match read_file(&path, kind) {
                Ok(None) => {}
                Ok(Some(contents)) => {
                    if self.ask_others && !self.others {
                        self.others = contents.holds_other_than(self.rules);
                    }
                    if let Some(record) = contents.record(self.rules) {
                        self.read.push(Entry {
                            user: user.to_string(),
                            score: record.score,
                            set_at: record.set_at,
                        });
                    }
                }
                Err(reason) => self.skipped.push(Skipped { path, reason }),
            }
        }
        Ok(())
    }

    /// Each user's best entry (of equal scores, the first [`rank`]ed: the
    /// one set first), best first ([`rank`]); and the skipped files by
    /// path.
    fn into_scan(self) -> Scan {
        let mut entries = self.read;
        entries.sort_by(|a, b| a.user.cmp(&b.user).then_with(|| rank(a, b)));
        entries.dedup_by(|later, first| later.user == first.user);
        // One entry a user now: nothing left for stability to keep.
        entries.sort_unstable_by(rank);
        let mut skipped = self.skipped;
        skipped.sort_by(|a, b| a.path.cmp(&b.path));
        Scan { entries, skipped }
    }
}

/// The order of the records: best first; of equal scores, the one set
/// first, as a high-score table ranks them, then those whose files keep no
/// date (the original's), then by name.
fn rank(a: &Entry, b: &Entry) -> Ordering {
    let set = |entry: &Entry| (entry.set_at.is_none(), entry.set_at);
    b.score
        .cmp(&a.score)
        .then_with(|| set(a).cmp(&set(b)))
        .then_with(|| a.user.cmp(&b.user))
}

/// The `clines -l` text: one line per entry, as the original prints it:
/// `*` before `current_user` (a space before others), a space, the name
/// padded to 8 columns (never cut), a tab and the score; then, when known,
/// a tab and the local date the record was set (`2026-11-23`). Entries are
/// printed in the order given.
pub fn format_listing(entries: &[Entry], current_user: Option<&str>) -> String {
    entries
        .iter()
        .map(|entry| {
            let mark = if Some(entry.user.as_str()) == current_user {
                '*'
            } else {
                ' '
            };
            let date = entry
                .set_at
                .and_then(sys::local_date)
                .map(|(year, month, day)| format!("\t{year:04}-{month:02}-{day:02}"))
                .unwrap_or_default();
            format!("{mark} {:<8}\t{}{date}\n", entry.user, entry.score)
        })
        .collect()
}

/// What `clines -l` prints.
#[derive(Debug, Default)]
pub struct Listing {
    /// For stdout: the records, best first; empty when there are none.
    pub text: String,
    /// For stderr, one line each: the files skipped, and a note when there
    /// are no records at all.
    pub warnings: Vec<String>,
}

/// Why `clines -l` cannot list the records.
#[derive(Debug)]
pub enum ListError {
    /// No records directory is known, for this reason.
    NoDirectory(NoScoreDir),
    /// The records directory, or a folder above it, is a file or something
    /// else.
    NotADirectory {
        /// The records directory.
        dir: PathBuf,
        /// What is there instead of a directory: the records directory
        /// itself or a folder above it.
        file: PathBuf,
    },
    /// Reading the records directory failed.
    Unreadable {
        /// The records directory.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
}

impl fmt::Display for ListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ListError::NoDirectory(why) => write!(f, "{why}"),
            ListError::NotADirectory { dir, file } if dir == file => write!(
                f,
                "the records directory {} is not a directory",
                text::path(dir)
            ),
            ListError::NotADirectory { dir, file } => write!(
                f,
                "the records directory {}: {} above it is not a directory",
                text::path(dir),
                text::path(file)
            ),
            ListError::Unreadable { path, source } => write!(
                f,
                "cannot read the records directory {}: {source}",
                text::path(path)
            ),
        }
    }
}

impl std::error::Error for ListError {}

/// What `clines -l` adds to "no records" when records of other rules are
/// there.
const OTHER_RULES: &str = "; other rules have records there: give -l their options to list them";

/// Lists every user's record of `rules` in the records directory (see
/// [`score_dir`]), marking the current user's when their name is known and
/// safe.
pub fn list(config_score_dir: Option<&Path>, rules: &RuleSet) -> Result<Listing, ListError> {
    let dir = score_dir(config_score_dir).map_err(ListError::NoDirectory)?;
    list_dir(&dir, rules, current_user().ok().as_deref())
}

/// [`list`] for a given directory and user.
pub fn list_dir(
    dir: &ScoreDir,
    rules: &RuleSet,
    current_user: Option<&str>,
) -> Result<Listing, ListError> {
    let (scan, others) = scan_telling_others(dir, rules, true).map_err(|source| {
        if source.raw_os_error() == Some(libc::ENOTDIR) {
            ListError::NotADirectory {
                dir: dir.path.clone(),
                // Gone since, or never found: the directory is as good a
                // name as any.
                file: files::file_in_the_way(&dir.path)
                    .unwrap_or(&dir.path)
                    .to_path_buf(),
            }
        } else {
            ListError::Unreadable {
                path: dir.path.clone(),
                source,
            }
        }
    })?;
    let mut warnings: Vec<String> = scan.skipped.iter().map(Skipped::to_string).collect();
    if scan.entries.is_empty() {
        let of_rules = if rules.is_default() {
            String::new()
        } else {
            format!(" for {rules}")
        };
        let mut warning = match files::broken_link(&dir.path) {
            Some(why) => format!("no records{of_rules} in {}: {why}", text::path(&dir.path)),
            None => format!("no records yet{of_rules} in {}", text::path(&dir.path)),
        };
        if others {
            // A player who set records with other options looks for them.
            warning.push_str(OTHER_RULES);
        }
        warnings.push(warning);
    }
    Ok(Listing {
        text: format_listing(&scan.entries, current_user),
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::format::CSCORE_MAGIC;
    use crate::records::sys;
    use crate::records::test_util::{
        cscore_bytes, entry, inside_legacy, posing_as_another_user, temp_dir, undated, write_toml,
    };
    use std::os::unix::fs::{PermissionsExt, symlink};

    #[test]
    fn listing_format() {
        let entries = [
            entry("zoe", 900),
            entry("al", 35),
            entry("bartholomew", 35),
            entry("eightchr", 0),
        ];
        assert_eq!(
            format_listing(&entries, Some("al")),
            "  zoe     \t900\n* al      \t35\n  bartholomew\t35\n  eightchr\t0\n"
        );
        assert_eq!(format_listing(&entries[..1], None), "  zoe     \t900\n");
        let dated = Entry {
            set_at: Some(1_700_000_000),
            ..entry("zoe", 900)
        };
        let line = format_listing(&[dated], None);
        // 2023-11-14 22:13:20 UTC: the 14th or 15th in any time zone.
        assert!(
            line == "  zoe     \t900\t2023-11-14\n" || line == "  zoe     \t900\t2023-11-15\n",
            "{line:?}"
        );
        assert_eq!(format_listing(&[], Some("al")), "");
    }

    #[test]
    fn scan_orders_best_first_then_by_name() {
        let dir = temp_dir();
        write_toml(dir.path(), "carol", 50);
        write_toml(dir.path(), "bob", 70);
        write_toml(dir.path(), "amy", 50);
        write_toml(dir.path(), "dan", 20);
        fs::write(
            dir.path().join("dan.cscore"),
            cscore_bytes(CSCORE_MAGIC, 1, 80),
        )
        .unwrap();
        fs::write(
            dir.path().join("eve.cscore"),
            cscore_bytes(CSCORE_MAGIC, 1, 50),
        )
        .unwrap();
        // Ignored without a word: our temporary files and other names.
        fs::write(dir.path().join(".bob.toml.1.0.tmp"), "junk").unwrap();
        fs::write(dir.path().join("README"), "junk").unwrap();
        let scan = scan(dir.path()).unwrap();
        assert_eq!(
            undated(scan.entries),
            [
                entry("dan", 80),
                entry("bob", 70),
                entry("amy", 50),
                entry("carol", 50),
                entry("eve", 50),
            ]
        );
        assert!(scan.skipped.is_empty(), "{:?}", scan.skipped);
    }

    /// Of equal scores, the one set first ranks first, as in a high-score
    /// table, whatever the names; a record with no date comes after.
    #[test]
    fn equal_scores_rank_by_when_they_were_set() {
        let dir = temp_dir();
        for (user, set_at) in [("amy", 1_700_000_300), ("zed", 1_700_000_100)] {
            let text = format!("score = 50\nset_at = {set_at}\n");
            fs::write(dir.path().join(format!("{user}.toml")), text).unwrap();
        }
        write_toml(dir.path(), "bob", 60);
        fs::write(
            dir.path().join("abe.cscore"),
            cscore_bytes(CSCORE_MAGIC, 1, 50),
        )
        .unwrap();
        // The same score in the original's file too, with no date: the
        // dated one is amy's, whichever file is read first.
        fs::write(
            dir.path().join("amy.cscore"),
            cscore_bytes(CSCORE_MAGIC, 1, 50),
        )
        .unwrap();
        let order: Vec<String> = scan(dir.path())
            .unwrap()
            .entries
            .into_iter()
            .map(|entry| entry.user)
            .collect();
        assert_eq!(order, ["bob", "zed", "amy", "abe"]);
    }

    #[test]
    fn bad_files_are_skipped_with_a_warning_and_left_alone() {
        let dir = temp_dir();
        let path = |name: &str| dir.path().join(name);
        write_toml(dir.path(), "good", 10);
        let contents: [(&str, &[u8]); 5] = [
            ("corrupt.toml", b"score = = 3"),
            ("foreign.toml", b"[server]\nport = 80\n"),
            ("binary.toml", &[0xFF, 0xFE, 0x00]),
            ("old.cscore", &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
            ("bad name.toml", b"score = 1\nset_at = 1\n"),
        ];
        for (name, bytes) in contents {
            fs::write(path(name), bytes).unwrap();
        }
        fs::create_dir(path("folder.toml")).unwrap();
        symlink(path("good.toml"), path("link.toml")).unwrap();
        sys::make_fifo(&path("pipe.cscore")).expect("a FIFO");
        let locked = path("locked.toml");
        fs::write(&locked, "score = 1\nset_at = 1\n").unwrap();
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
        let locked_skipped = fs::read(&locked).is_err();

        // The link counts as another user's: the player's own are followed.
        let scan = posing_as_another_user(|| scan(dir.path())).unwrap();
        let mut entries = vec![entry("good", 10)];
        // Root reads a mode-000 file anyway; then it is simply a record.
        if !locked_skipped {
            entries.push(entry("locked", 1));
        }
        assert_eq!(undated(scan.entries), entries);
        let mut expected = vec![
            (
                "bad name.toml",
                "the file name is not a user name (letters, digits, '.', '_', '-' and '@' only, \
                 not starting with '.')",
            ),
            ("binary.toml", "corrupt: not UTF-8"),
            ("corrupt.toml", "corrupt: not TOML"),
            ("folder.toml", "not a regular file"),
            ("foreign.toml", "not a clines record: expected `score`"),
            ("link.toml", "a symbolic link"),
            ("old.cscore", "not a clines record: magic"),
            ("pipe.cscore", "not a regular file"),
        ];
        if locked_skipped {
            expected.push(("locked.toml", "unreadable: "));
            expected.sort();
        }
        assert_eq!(scan.skipped.len(), expected.len(), "{:?}", scan.skipped);
        for (skipped, (name, reason)) in scan.skipped.iter().zip(expected) {
            let message = skipped.to_string();
            assert!(
                message.starts_with(&format!("skipping {}: {reason}", path(name).display())),
                "{message}"
            );
            assert!(!message.contains('\n'), "{message}");
        }
        assert_eq!(fs::read(path("corrupt.toml")).unwrap(), b"score = = 3");
        assert_eq!(
            fs::read(path("foreign.toml")).unwrap(),
            b"[server]\nport = 80\n"
        );
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o644)).unwrap();
    }

    #[test]
    fn hostile_file_names_are_shown_escaped() {
        let dir = temp_dir();
        fs::write(
            dir.path().join("x\u{1b}[31m.toml"),
            "score = 1\nset_at = 1\n",
        )
        .unwrap();
        let listing = list_dir(&ScoreDir::new(dir.path()), &RuleSet::default(), None).unwrap();
        assert_eq!(listing.warnings.len(), 2, "{:?}", listing.warnings);
        for warning in &listing.warnings {
            assert!(!warning.chars().any(char::is_control), "{warning:?}");
        }
        assert!(
            listing.warnings[0].contains("x\\u{1b}[31m.toml: the file name is not a user name"),
            "{:?}",
            listing.warnings
        );
        // Not UTF-8: told too, its bad bytes shown as U+FFFD.
        use std::os::unix::ffi::OsStrExt;
        let not_utf8 = std::ffi::OsStr::from_bytes(b"inv\xffutf.toml");
        fs::write(dir.path().join(not_utf8), "score = 1\nset_at = 1\n").unwrap();
        fs::write(
            dir.path().join(std::ffi::OsStr::from_bytes(b"\xff.txt")),
            "",
        )
        .unwrap();
        let listing = list_dir(&ScoreDir::new(dir.path()), &RuleSet::default(), None).unwrap();
        assert!(
            listing
                .warnings
                .iter()
                .any(|w| w.contains("inv\u{fffd}utf.toml: the file name is not a user name")),
            "{:?}",
            listing.warnings
        );
        assert!(!listing.warnings.iter().any(|w| w.contains(".txt")));
        let file = dir.path().join("\u{9b}2J");
        fs::write(&file, "").unwrap();
        let error = list_dir(&ScoreDir::new(&file), &RuleSet::default(), None)
            .unwrap_err()
            .to_string();
        assert!(error.contains("\\u{9b}2J is not a directory"), "{error:?}");
    }

    #[test]
    fn an_empty_listing_says_when_other_rules_have_records() {
        let dir = temp_dir();
        let here = ScoreDir::new(dir.path());
        let seven = RuleSet {
            rules: crate::game::Rules {
                colors: 7,
                ..crate::game::Rules::default()
            },
            ..RuleSet::default()
        };
        let warnings = |rules: &RuleSet| list_dir(&here, rules, None).unwrap().warnings;
        let none = |rules: &RuleSet| {
            let of_rules = if rules.is_default() {
                String::new()
            } else {
                format!(" for {rules}")
            };
            format!("no records yet{of_rules} in {}", dir.path().display())
        };
        let others = |rules: &RuleSet| format!("{}{OTHER_RULES}", none(rules));
        // A record of the rules listed is no other rules' record.
        let own = format!("[rules.{}]\nscore = 0\nset_at = 1\n", seven.key());
        fs::write(dir.path().join("al.toml"), &own).unwrap();
        assert_eq!(warnings(&RuleSet::default()), [others(&RuleSet::default())]);
        assert!(list_dir(&here, &seven, None).unwrap().warnings.is_empty());
        // A record of the default rules, in either kind of file.
        fs::write(dir.path().join("al.toml"), "score = 3\nset_at = 1\n").unwrap();
        assert_eq!(warnings(&seven), [others(&seven)]);
        fs::remove_file(dir.path().join("al.toml")).unwrap();
        let cscore = dir.path().join("bo.cscore");
        fs::write(&cscore, cscore_bytes(CSCORE_MAGIC, 1, 50)).unwrap();
        assert_eq!(warnings(&seven), [others(&seven)]);
        // A file that holds no record tells of none.
        fs::write(&cscore, b"garbage").unwrap();
        assert_eq!(warnings(&seven), [none(&seven)]);
        fs::remove_file(&cscore).unwrap();
        // A record in the legacy directory counts too.
        let data = temp_dir();
        let legacy = inside_legacy(data.path());
        fs::create_dir(&legacy.path).unwrap();
        write_toml(data.path(), "old", 40);
        let listing = list_dir(&legacy, &seven, None).unwrap();
        let none = format!("no records yet for {seven} in {}", legacy.path.display());
        assert_eq!(listing.warnings, [format!("{none}{OTHER_RULES}")]);
    }

    #[test]
    fn listing_a_directory() {
        let dir = temp_dir();
        let missing = ScoreDir::new(dir.path().join("missing"));
        let listing = list_dir(&missing, &RuleSet::default(), Some("al")).unwrap();
        assert!(listing.text.is_empty());
        assert_eq!(
            listing.warnings,
            [format!("no records yet in {}", missing.path.display())]
        );
        assert!(!missing.path.exists());
        // A folder a symbolic link should lead to, moved away.
        let linked = ScoreDir::new(dir.path().join("linked"));
        std::os::unix::fs::symlink("moved", &linked.path).unwrap();
        let listing = list_dir(&linked, &RuleSet::default(), Some("al")).unwrap();
        assert_eq!(
            listing.warnings,
            [format!(
                "no records in {}: it is a symbolic link to {}, which leads nowhere",
                linked.path.display(),
                dir.path().join("moved").display()
            )]
        );
        let here = ScoreDir::new(dir.path());
        write_toml(dir.path(), "al", 3);
        write_toml(dir.path(), "zed", 30);
        fs::write(dir.path().join("x.toml"), "nonsense").unwrap();
        let listing = list_dir(&here, &RuleSet::default(), Some("al")).unwrap();
        let (year, month, day) = sys::local_date(1_700_000_000).unwrap();
        let date = format!("{year}-{month:02}-{day:02}");
        assert_eq!(
            listing.text,
            format!("  zed     \t30\t{date}\n* al      \t3\t{date}\n")
        );
        assert_eq!(listing.warnings.len(), 1);
        assert!(
            listing.warnings[0].contains("x.toml"),
            "{:?}",
            listing.warnings
        );

        let file = ScoreDir::new(dir.path().join("al.toml"));
        let error = list_dir(&file, &RuleSet::default(), None)
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            format!(
                "the records directory {} is not a directory",
                file.path.display()
            )
        );
        // A file above it is named as what is in the way.
        let below = ScoreDir::new(file.path.join("sub"));
        let error = list_dir(&below, &RuleSet::default(), None)
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            format!(
                "the records directory {}: {} above it is not a directory",
                below.path.display(),
                file.path.display()
            )
        );
    }

    #[test]
    fn of_a_users_equal_scores_the_dated_one_stands() {
        let data = temp_dir();
        let dir = inside_legacy(data.path());
        fs::create_dir(&dir.path).unwrap();
        // The records directory is read first; whichever directory holds
        // the dated record of two equal scores, that one stands, as it
        // ranks first.
        write_toml(&dir.path, "amy", 30);
        fs::write(
            data.path().join("amy.cscore"),
            cscore_bytes(CSCORE_MAGIC, 1, 30),
        )
        .unwrap();
        fs::write(
            dir.path.join("bob.cscore"),
            cscore_bytes(CSCORE_MAGIC, 1, 30),
        )
        .unwrap();
        write_toml(data.path(), "bob", 30);
        let entries = scan_all(&dir, &RuleSet::default()).unwrap().entries;
        let dates: Vec<_> = entries
            .iter()
            .map(|e| (e.user.as_str(), e.set_at))
            .collect();
        let dated = Some(1_700_000_000);
        assert_eq!(dates, [("amy", dated), ("bob", dated)]);
    }

    #[test]
    fn records_in_the_legacy_directory_are_read_quietly() {
        let data = temp_dir();
        let dir = inside_legacy(data.path());
        write_toml(data.path(), "old", 40);
        write_toml(data.path(), "both", 5);
        // On macOS the config file shares the data directory.
        fs::write(data.path().join("config.toml"), "width = 9\n").unwrap();
        fs::create_dir(&dir.path).unwrap();
        write_toml(&dir.path, "new", 20);
        write_toml(&dir.path, "both", 9);
        fs::write(dir.path.join("bad.toml"), "score =").unwrap();
        let scan = scan_all(&dir, &RuleSet::default()).unwrap();
        assert_eq!(
            undated(scan.entries),
            [entry("old", 40), entry("new", 20), entry("both", 9)]
        );
        assert_eq!(scan.skipped.len(), 1, "{:?}", scan.skipped);
        assert!(scan.skipped[0].path.ends_with("scores/bad.toml"));
        // Only the records directory itself must be readable.
        let gone = ScoreDir {
            path: dir.path.clone(),
            legacy: Some(data.path().join("missing")),
        };
        assert_eq!(
            scan_all(&gone, &RuleSet::default()).unwrap().entries.len(),
            2
        );
    }
}
