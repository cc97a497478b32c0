//! Every user's record in a directory, and the `clines -l` listing of them.

use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::Path;

use super::format::{SkipReason, Skipped, read_record, record_name};
use super::lookup::{NO_DIRECTORY, score_dir};
use super::user::{check_user_name, current_user};

/// One user's best record, for the listing and the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The user's name.
    pub user: String,
    /// The user's best score.
    pub score: u64,
}

/// Every record in a directory.
#[derive(Debug, Default)]
pub struct Scan {
    /// One entry per user, best first, ties by name.
    pub entries: Vec<Entry>,
    /// Files that looked like records but could not be used.
    pub skipped: Vec<Skipped>,
}

/// Reads every user's record in `dir`: the higher of `<user>.toml` and
/// `<user>.cscore` per user. A missing directory has no records. Files
/// starting with `.` (our temporary files) and other extensions are ignored.
pub fn scan(dir: &Path) -> io::Result<Scan> {
    let mut scan = Scan::default();
    let listing = match fs::read_dir(dir) {
        Ok(listing) => listing,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(scan),
        Err(e) => return Err(e),
    };
    let mut best: BTreeMap<String, u64> = BTreeMap::new();
    for item in listing {
        let item = item?;
        // Users are ASCII names, so a name that is not UTF-8 is no record.
        let Some(name) = item.file_name().to_str().map(str::to_string) else {
            continue;
        };
        let Some((user, kind)) = record_name(&name) else {
            continue;
        };
        let path = item.path();
        if check_user_name(user).is_err() {
            scan.skipped.push(Skipped {
                path,
                reason: SkipReason::BadName,
            });
            continue;
        }
        match read_record(&path, kind) {
            Ok(None) => {}
            Ok(Some(record)) => {
                let score = best.entry(user.to_string()).or_default();
                *score = (*score).max(record.score);
            }
            Err(reason) => scan.skipped.push(Skipped { path, reason }),
        }
    }
    scan.entries = best
        .into_iter()
        .map(|(user, score)| Entry { user, score })
        .collect();
    // The map gave name order; a stable sort keeps it among equal scores.
    scan.entries.sort_by_key(|entry| Reverse(entry.score));
    scan.skipped.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(scan)
}

/// The `clines -l` text: one line per entry, `*` before `current_user`
/// (a space before others), the name padded to 8 columns (never cut), a
/// tab and the score. Entries are printed in the order given.
pub fn format_listing(entries: &[Entry], current_user: Option<&str>) -> String {
    entries
        .iter()
        .map(|entry| {
            let mark = if Some(entry.user.as_str()) == current_user {
                '*'
            } else {
                ' '
            };
            format!("{mark}{:<8}\t{}\n", entry.user, entry.score)
        })
        .collect()
}

/// What `clines -l` prints.
#[derive(Debug, Default)]
pub struct Listing {
    /// For stdout: the records, best first; empty when there are none.
    pub text: String,
    /// For stderr, one line each: files skipped, or why nothing could be read.
    pub warnings: Vec<String>,
}

/// Lists every user's records in the score directory (see [`score_dir`]),
/// marking the current user's when their name is known and safe.
pub fn list(config_score_dir: Option<&Path>) -> Listing {
    let Some(dir) = score_dir(config_score_dir) else {
        return Listing {
            text: String::new(),
            warnings: vec![NO_DIRECTORY.to_string()],
        };
    };
    list_dir(&dir, current_user().ok().as_deref())
}

/// [`list`] for a given directory and user.
pub fn list_dir(dir: &Path, current_user: Option<&str>) -> Listing {
    match scan(dir) {
        Ok(scan) => Listing {
            text: format_listing(&scan.entries, current_user),
            warnings: scan.skipped.iter().map(Skipped::to_string).collect(),
        },
        Err(e) => Listing {
            text: String::new(),
            warnings: vec![format!(
                "cannot read the score directory {}: {e}",
                dir.display()
            )],
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::format::CSCORE_MAGIC;
    use crate::records::sys;
    use crate::records::test_util::{cscore_bytes, entry, temp_dir, write_toml};
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
            " zoe     \t900\n*al      \t35\n bartholomew\t35\n eightchr\t0\n"
        );
        assert_eq!(format_listing(&entries[..1], None), " zoe     \t900\n");
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
            scan.entries,
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

        let scan = scan(dir.path()).unwrap();
        let mut entries = vec![entry("good", 10)];
        // Root reads a mode-000 file anyway; then it is simply a record.
        if !locked_skipped {
            entries.push(entry("locked", 1));
        }
        assert_eq!(scan.entries, entries);
        let mut expected = vec![
            ("bad name.toml", "the file name is not a user name"),
            ("binary.toml", "corrupt: not UTF-8"),
            ("corrupt.toml", "corrupt: not TOML"),
            ("folder.toml", "not a regular file"),
            ("foreign.toml", "not a clines record: expected `score`"),
            ("link.toml", "a symbolic link"),
            ("old.cscore", "not a clines record: magic"),
            ("pipe.cscore", "not a regular file"),
        ];
        if locked_skipped {
            expected.push(("locked.toml", "cannot be read"));
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
    fn listing_a_directory() {
        let dir = temp_dir();
        assert!(
            list_dir(&dir.path().join("missing"), Some("al"))
                .text
                .is_empty()
        );
        assert!(!dir.path().join("missing").exists());
        write_toml(dir.path(), "al", 3);
        write_toml(dir.path(), "zed", 30);
        fs::write(dir.path().join("x.toml"), "nonsense").unwrap();
        let listing = list_dir(dir.path(), Some("al"));
        assert_eq!(listing.text, " zed     \t30\n*al      \t3\n");
        assert_eq!(listing.warnings.len(), 1);
        assert!(
            listing.warnings[0].contains("x.toml"),
            "{:?}",
            listing.warnings
        );

        let file = dir.path().join("al.toml");
        let listing = list_dir(&file, None);
        assert!(listing.text.is_empty());
        assert!(
            listing.warnings[0].starts_with("cannot read the score directory"),
            "{:?}",
            listing.warnings
        );
    }
}
