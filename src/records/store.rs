//! One player's record: read at the start of a game, saved at its end so
//! that no record is ever lowered or lost, whatever else runs at once.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::format::{self, Kind, Record, SkipReason, Skipped, read_record};
use super::hi_line::BoardRecords;
use super::lookup::{NO_DIRECTORY, score_dir};
use super::scan::scan;
use super::sys;
use super::user::{UserError, check_user_name, current_user};

/// How long a save waits for another process's save to finish.
const LOCK_WAIT: Duration = Duration::from_secs(5);
/// Pause between attempts to take a busy lock.
const LOCK_RETRY: Duration = Duration::from_millis(5);

/// What a save did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveOutcome {
    /// The score was written as the player's record.
    Saved {
        /// It is also higher than every other user's record:
        /// `New record saved!` rather than `New personal record saved!`.
        best_of_all: bool,
    },
    /// The stored record is as high or higher; nothing was written.
    NotBeaten {
        /// The stored record.
        record: u64,
    },
}

impl SaveOutcome {
    /// What to print after the terminal is restored, if anything.
    pub fn message(&self) -> Option<&'static str> {
        match self {
            SaveOutcome::Saved { best_of_all: true } => Some("New record saved!"),
            SaveOutcome::Saved { best_of_all: false } => Some("New personal record saved!"),
            SaveOutcome::NotBeaten { .. } => None,
        }
    }
}

/// Why a record could not be saved. Its message starts with
/// "the record could not be saved" and names the path involved.
#[derive(Debug)]
pub enum SaveError {
    /// No score directory is known.
    NoDirectory,
    /// A file operation failed.
    Io {
        /// What was being done, e.g. "creating the score directory".
        action: &'static str,
        /// The file or directory it was done to.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// Another process held the directory's lock for too long.
    Locked {
        /// The score directory.
        path: PathBuf,
    },
    /// The stored record is unreadable, so it is left as it is rather than
    /// risk replacing a higher score.
    StoredUnreadable(Skipped),
    /// The record could not be put into TOML.
    Encoding {
        /// The record file it was meant for.
        path: PathBuf,
        /// What the TOML writer said.
        source: toml::ser::Error,
    },
}

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the record could not be saved: ")?;
        match self {
            SaveError::NoDirectory => write!(f, "{NO_DIRECTORY}"),
            SaveError::Io {
                action,
                path,
                source,
            } => write!(f, "{action} {}: {source}", path.display()),
            SaveError::Locked { path } => write!(
                f,
                "{} stayed locked by another game for {} s",
                path.display(),
                LOCK_WAIT.as_secs()
            ),
            SaveError::StoredUnreadable(skipped) => write!(
                f,
                "the stored record {} is {}; it was left as it is",
                skipped.path.display(),
                skipped.reason
            ),
            SaveError::Encoding { path, source } => {
                write!(f, "encoding {} as TOML: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for SaveError {}

/// The `SaveError::Io` for `action` on `path`, to be given the cause.
fn io_error(action: &'static str, path: &Path) -> impl FnOnce(io::Error) -> SaveError {
    let path = path.to_path_buf();
    move |source| SaveError::Io {
        action,
        path,
        source,
    }
}

/// One user's records in one directory. Cheap to clone, so a signal or
/// panic path can hold its own copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Store {
    /// The score directory, or `None` when none could be found.
    dir: Option<PathBuf>,
    /// The player; always a safe file name.
    user: String,
}

/// Numbers temporary files apart within one process.
static TEMP_COUNTER: AtomicU32 = AtomicU32::new(0);

impl Store {
    /// The records of `user` in `dir`.
    pub fn new(dir: impl Into<PathBuf>, user: &str) -> Result<Store, UserError> {
        check_user_name(user)?;
        Ok(Store {
            dir: Some(dir.into()),
            user: user.to_string(),
        })
    }

    /// The real user's records in the score directory (see [`score_dir`]).
    /// Fails only when records must be off for this user; with no directory
    /// the game still reads nothing and [`Store::save`] explains why.
    pub fn open(config_score_dir: Option<&Path>) -> Result<Store, UserError> {
        Ok(Store {
            dir: score_dir(config_score_dir),
            user: current_user()?,
        })
    }

    /// The score directory, if one is known.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The player's name.
    pub fn user(&self) -> &str {
        &self.user
    }

    /// Path of the player's `<user>.<ext>` file in `dir`.
    fn file(&self, dir: &Path, kind: Kind) -> PathBuf {
        dir.join(format!("{}.{}", self.user, kind.extension()))
    }

    /// The player's record: the higher of `<user>.toml` and `<user>.cscore`.
    /// A file that cannot be used is reported when the other gives nothing.
    pub fn load(&self) -> Result<Option<Record>, Skipped> {
        let Some(dir) = self.dir() else {
            return Ok(None);
        };
        let read = |kind| {
            let path = self.file(dir, kind);
            read_record(&path, kind).map_err(|reason| Skipped { path, reason })
        };
        match (read(Kind::Toml), read(Kind::Cscore)) {
            (Ok(a), Ok(b)) => Ok(higher(a, b)),
            (Ok(Some(record)), Err(_)) | (Err(_), Ok(Some(record))) => Ok(Some(record)),
            (Err(skipped), _) | (_, Err(skipped)) => Err(skipped),
        }
    }

    /// What the board shows at the start of a game. Unreadable files are
    /// left out here; `clines -l` reports them.
    pub fn board_records(&self) -> BoardRecords {
        let entries = self
            .dir()
            .and_then(|dir| scan(dir).ok())
            .map(|scan| scan.entries)
            .unwrap_or_default();
        BoardRecords {
            user: self.user.clone(),
            own: entries
                .iter()
                .find(|entry| entry.user == self.user)
                .map(|entry| entry.score),
            best: entries.into_iter().next(),
        }
    }

    /// Saves `score` as the player's record if it beats the stored one.
    ///
    /// Two games may end at once, so the whole save runs under the
    /// directory's lock ([`DirLock`]): the second save re-reads what the
    /// first wrote and keeps the higher. The record is then replaced
    /// atomically ([`replace_atomically`]), so a crash at any moment leaves
    /// either the old record or the new one.
    pub fn save(&self, score: u64) -> Result<SaveOutcome, SaveError> {
        let dir = self.dir().ok_or(SaveError::NoDirectory)?;
        let lock = DirLock::acquire(dir)?;
        let outcome = judge(score, self.standing(dir)?);
        if let SaveOutcome::Saved { .. } = outcome {
            let target = self.file(dir, Kind::Toml);
            let text =
                format::toml_text(score, now_secs()).map_err(|source| SaveError::Encoding {
                    path: target.clone(),
                    source,
                })?;
            let temp_prefix = format!(".{}.toml", self.user);
            replace_atomically(&lock, &temp_prefix, &target, text.as_bytes())?;
        }
        Ok(outcome)
    }

    /// The records a save is judged against, read under the lock.
    fn standing(&self, dir: &Path) -> Result<Standing, SaveError> {
        let own = self.stored_for_save(dir)?;
        let everyone = scan(dir).map_err(io_error("reading the score directory", dir))?;
        let others_best = everyone
            .entries
            .into_iter()
            .filter(|entry| entry.user != self.user)
            .map(|entry| entry.score)
            .max();
        Ok(Standing { own, others_best })
    }

    /// The player's stored record. A symlink at `<user>.toml` counts as no
    /// record (it is replaced, never read through); any other unusable
    /// `<user>.toml` stops the save.
    fn stored_for_save(&self, dir: &Path) -> Result<Option<u64>, SaveError> {
        let path = self.file(dir, Kind::Toml);
        let toml = match read_record(&path, Kind::Toml) {
            Ok(record) => record,
            Err(SkipReason::Symlink) => None,
            Err(reason) => return Err(SaveError::StoredUnreadable(Skipped { path, reason })),
        };
        // An unusable `.cscore` counts as no record: it is never written,
        // so no save can lower it.
        let cscore = read_record(&self.file(dir, Kind::Cscore), Kind::Cscore).unwrap_or_default();
        Ok(higher(toml, cscore).map(|record| record.score))
    }
}

/// The stored records a new score is judged against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Standing {
    /// The player's own record.
    own: Option<u64>,
    /// The best record of every other user.
    others_best: Option<u64>,
}

/// Whether `score` beats the player's record, and if so, everyone's: only a
/// higher score is saved, and only a higher one takes the title.
fn judge(score: u64, standing: Standing) -> SaveOutcome {
    match standing.own {
        Some(record) if record >= score => SaveOutcome::NotBeaten { record },
        _ => SaveOutcome::Saved {
            best_of_all: standing.others_best.is_none_or(|best| score > best),
        },
    }
}

/// An exclusive `flock` on the score directory, held until dropped: closing
/// the descriptor releases it. Locking the directory itself needs no lock
/// file that could be planted or left behind, and it is the descriptor a
/// save fsyncs anyway.
struct DirLock {
    /// The open directory, locked.
    dir: File,
    /// Its path, for messages.
    path: PathBuf,
}

impl DirLock {
    /// Creates `dir` if needed and locks it, waiting up to [`LOCK_WAIT`] so
    /// that a stuck process cannot hang our exit forever.
    fn acquire(dir: &Path) -> Result<DirLock, SaveError> {
        fs::create_dir_all(dir).map_err(io_error("creating the score directory", dir))?;
        let file = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_DIRECTORY | libc::O_CLOEXEC)
            .open(dir)
            .map_err(io_error("opening the score directory", dir))?;
        let deadline = Instant::now() + LOCK_WAIT;
        while !sys::try_lock_exclusive(&file).map_err(io_error("locking", dir))? {
            if Instant::now() >= deadline {
                return Err(SaveError::Locked {
                    path: dir.to_path_buf(),
                });
            }
            std::thread::sleep(LOCK_RETRY);
        }
        Ok(DirLock {
            dir: file,
            path: dir.to_path_buf(),
        })
    }

    /// Flushes the directory, so that a rename in it survives a crash.
    fn sync(&self) -> Result<(), SaveError> {
        self.dir
            .sync_all()
            .map_err(io_error("flushing the score directory", &self.path))
    }
}

/// Replaces `target` in the locked directory with a file holding `bytes`:
/// a temporary file (named from `temp_prefix`) is written and fsynced, then
/// renamed over `target`, which replaces a planted symlink rather than
/// writing through it, then the directory is fsynced.
fn replace_atomically(
    lock: &DirLock,
    temp_prefix: &str,
    target: &Path,
    bytes: &[u8],
) -> Result<(), SaveError> {
    let temp = write_temp(&lock.path, temp_prefix, bytes)?;
    if let Err(e) = fs::rename(&temp, target) {
        // Best effort: the temporary file is ours and useless now.
        let _ = fs::remove_file(&temp);
        return Err(io_error("replacing", target)(e));
    }
    lock.sync()
}

/// Writes `bytes` to a new file `<temp_prefix>.<pid>.<n>.tmp` in `dir`,
/// fsynced, and returns its path. Created exclusively and without following
/// symlinks, so nothing planted under its name is written through.
fn write_temp(dir: &Path, temp_prefix: &str, bytes: &[u8]) -> Result<PathBuf, SaveError> {
    let pid = std::process::id();
    loop {
        let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!("{temp_prefix}.{pid}.{n}.tmp"));
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o644)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(&path);
        let mut file = match file {
            // Left over by a crashed game with our pid: take the next name.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(io_error("creating", &path)(e)),
            Ok(file) => file,
        };
        return match file.write_all(bytes).and_then(|()| file.sync_all()) {
            Ok(()) => Ok(path),
            Err(source) => {
                // Best effort: a half-written temporary file is useless.
                let _ = fs::remove_file(&path);
                Err(io_error("writing", &path)(source))
            }
        };
    }
}

/// The higher of two optional records.
fn higher(a: Option<Record>, b: Option<Record>) -> Option<Record> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if b.score > a.score { b } else { a }),
        (a, b) => a.or(b),
    }
}

/// Seconds since the Unix epoch (0 if the clock is before it).
fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::format::CSCORE_MAGIC;
    use crate::records::test_util::{
        cscore_bytes, entry, permissions_apply, store, temp_dir, write_toml,
    };
    use std::os::unix::fs::{PermissionsExt, symlink};

    #[test]
    fn judging_a_score() {
        let standing = |own, others_best| Standing { own, others_best };
        let saved = |best_of_all| SaveOutcome::Saved { best_of_all };
        assert_eq!(judge(5, standing(None, None)), saved(true));
        assert_eq!(
            judge(5, standing(Some(5), None)),
            SaveOutcome::NotBeaten { record: 5 }
        );
        assert_eq!(judge(6, standing(Some(5), Some(6))), saved(false));
        assert_eq!(judge(7, standing(Some(5), Some(6))), saved(true));
        assert_eq!(judge(0, standing(None, Some(1))), saved(false));
    }

    #[test]
    fn load_reads_toml_and_cscore_and_takes_the_higher() {
        let dir = temp_dir();
        let alice = store(dir.path(), "alice");
        assert_eq!(alice.load().unwrap(), None);

        write_toml(dir.path(), "alice", 40);
        assert_eq!(
            alice.load().unwrap(),
            Some(Record {
                score: 40,
                set_at: Some(1_700_000_000)
            })
        );

        let cscore = dir.path().join("alice.cscore");
        fs::write(&cscore, cscore_bytes(CSCORE_MAGIC, 1, 90)).unwrap();
        assert_eq!(
            alice.load().unwrap(),
            Some(Record {
                score: 90,
                set_at: None
            })
        );
        fs::write(&cscore, cscore_bytes(CSCORE_MAGIC, 1, 10)).unwrap();
        assert_eq!(alice.load().unwrap().unwrap().score, 40);

        // A broken file gives way to a good one, and is reported alone.
        fs::write(dir.path().join("alice.toml"), "score = ").unwrap();
        assert_eq!(alice.load().unwrap().unwrap().score, 10);
        fs::remove_file(&cscore).unwrap();
        let skipped = alice.load().unwrap_err();
        assert!(skipped.to_string().contains("alice.toml"), "{skipped}");
    }

    #[test]
    fn save_creates_the_directory_and_writes_the_record() {
        let dir = temp_dir();
        let scores = dir.path().join("a").join("scores");
        let alice = store(&scores, "alice");
        assert_eq!(alice.load().unwrap(), None);
        assert!(!scores.exists(), "reading creates nothing");

        let before = now_secs();
        assert_eq!(
            alice.save(120).unwrap(),
            SaveOutcome::Saved { best_of_all: true }
        );
        let record = alice.load().unwrap().unwrap();
        assert_eq!(record.score, 120);
        let set_at = record.set_at.unwrap();
        assert!(set_at >= before && set_at <= now_secs(), "{set_at}");
        // Only the record is left: no temporary file.
        let names: Vec<_> = fs::read_dir(&scores)
            .unwrap()
            .map(|item| item.unwrap().file_name())
            .collect();
        assert_eq!(names, ["alice.toml"]);
    }

    #[test]
    fn save_never_lowers_a_record() {
        let dir = temp_dir();
        let alice = store(dir.path(), "alice");
        alice.save(50).unwrap();
        assert_eq!(
            alice.save(50).unwrap(),
            SaveOutcome::NotBeaten { record: 50 }
        );
        assert_eq!(
            alice.save(0).unwrap(),
            SaveOutcome::NotBeaten { record: 50 }
        );
        assert_eq!(alice.load().unwrap().unwrap().score, 50);
        assert_eq!(
            alice.save(51).unwrap(),
            SaveOutcome::Saved { best_of_all: true }
        );
        assert_eq!(alice.load().unwrap().unwrap().score, 51);
    }

    #[test]
    fn save_compares_with_the_original_record() {
        let dir = temp_dir();
        let cscore = dir.path().join("alice.cscore");
        let original = cscore_bytes(CSCORE_MAGIC, 1, 300);
        fs::write(&cscore, &original).unwrap();
        let alice = store(dir.path(), "alice");
        assert_eq!(
            alice.save(200).unwrap(),
            SaveOutcome::NotBeaten { record: 300 }
        );
        assert!(!dir.path().join("alice.toml").exists());
        assert_eq!(
            alice.save(301).unwrap(),
            SaveOutcome::Saved { best_of_all: true }
        );
        assert_eq!(fs::read(&cscore).unwrap(), original, "never written");
        assert_eq!(alice.load().unwrap().unwrap().score, 301);
    }

    #[test]
    fn best_of_all_or_personal() {
        let dir = temp_dir();
        write_toml(dir.path(), "bob", 100);
        let bob_before = fs::read(dir.path().join("bob.toml")).unwrap();
        let alice = store(dir.path(), "alice");
        assert_eq!(
            alice.save(60).unwrap(),
            SaveOutcome::Saved { best_of_all: false }
        );
        // A tie does not take the title.
        assert_eq!(
            alice.save(100).unwrap(),
            SaveOutcome::Saved { best_of_all: false }
        );
        assert_eq!(
            alice.save(101).unwrap(),
            SaveOutcome::Saved { best_of_all: true }
        );
        assert_eq!(fs::read(dir.path().join("bob.toml")).unwrap(), bob_before);
    }

    #[test]
    fn save_messages() {
        let saved = |best_of_all| SaveOutcome::Saved { best_of_all };
        assert_eq!(saved(true).message(), Some("New record saved!"));
        assert_eq!(saved(false).message(), Some("New personal record saved!"));
        assert_eq!(SaveOutcome::NotBeaten { record: 3 }.message(), None);
    }

    #[test]
    fn an_unreadable_record_is_left_alone() {
        let dir = temp_dir();
        let path = dir.path().join("alice.toml");
        fs::write(&path, "score = \"lots\"\n").unwrap();
        let error = store(dir.path(), "alice").save(10).unwrap_err();
        let message = error.to_string();
        assert!(
            message.starts_with("the record could not be saved: the stored record")
                && message.contains("alice.toml"),
            "{message}"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), "score = \"lots\"\n");
    }

    #[test]
    fn a_planted_symlink_is_replaced_not_followed() {
        let dir = temp_dir();
        let target = dir.path().join("precious");
        fs::write(&target, "score = 999\nset_at = 1\n").unwrap();
        let link = dir.path().join("alice.toml");
        symlink(&target, &link).unwrap();
        let alice = store(dir.path(), "alice");
        // The link is not read through: its target's 999 does not count.
        let skipped = alice.load().unwrap_err();
        assert!(matches!(skipped.reason, SkipReason::Symlink), "{skipped}");
        assert_eq!(alice.board_records().own, None);
        assert_eq!(
            alice.save(5).unwrap(),
            SaveOutcome::Saved { best_of_all: true }
        );
        assert_eq!(
            fs::read_to_string(&target).unwrap(),
            "score = 999\nset_at = 1\n"
        );
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_file());
        assert_eq!(alice.load().unwrap().unwrap().score, 5);
    }

    #[test]
    fn unwritable_places_give_a_clear_error() {
        let dir = temp_dir();
        // A parent that is a regular file stops everyone, root included.
        let file = dir.path().join("plain");
        fs::write(&file, "x").unwrap();
        let error = store(&file.join("scores"), "alice").save(10).unwrap_err();
        let message = error.to_string();
        assert!(
            message.starts_with("the record could not be saved: creating the score directory")
                && message.contains(&file.join("scores").display().to_string()),
            "{message}"
        );

        let no_dir = Store {
            dir: None,
            user: "alice".to_string(),
        };
        assert!(
            no_dir
                .save(10)
                .unwrap_err()
                .to_string()
                .starts_with("the record could not be saved: no directory for records"),
        );
        assert_eq!(no_dir.load().unwrap(), None);
        assert_eq!(no_dir.board_records().best, None);

        // A read-only directory: permission bits do not stop root, so this
        // part is checked only where they apply.
        let read_only = dir.path().join("read-only");
        fs::create_dir(&read_only).unwrap();
        if permissions_apply(dir.path()) {
            fs::set_permissions(&read_only, fs::Permissions::from_mode(0o555)).unwrap();
            let message = store(&read_only, "alice").save(10).unwrap_err().to_string();
            assert!(
                message.starts_with("the record could not be saved: creating")
                    && message.contains("read-only"),
                "{message}"
            );
            fs::set_permissions(&read_only, fs::Permissions::from_mode(0o755)).unwrap();
        }
    }

    #[test]
    fn board_records_from_the_directory() {
        let dir = temp_dir();
        let alice = store(dir.path(), "alice");
        let empty = alice.board_records();
        assert_eq!(
            empty,
            BoardRecords {
                user: "alice".to_string(),
                best: None,
                own: None
            }
        );
        write_toml(dir.path(), "alice", 20);
        fs::write(
            dir.path().join("bob.cscore"),
            cscore_bytes(CSCORE_MAGIC, 1, 75),
        )
        .unwrap();
        let view = alice.board_records();
        assert_eq!(view.best, Some(entry("bob", 75)));
        assert_eq!(view.own, Some(20));
        assert_eq!(
            view.hi_line(0).unwrap().full_text(),
            "=[ hi -- bob:75 you:20 ]="
        );
    }

    #[test]
    fn threads_saving_at_once_keep_the_higher() {
        let dir = temp_dir();
        let rounds = 200;
        std::thread::scope(|scope| {
            for parity in 0..2 {
                let alice = store(dir.path(), "alice");
                scope.spawn(move || {
                    for round in 0..rounds {
                        alice.save(2 * round + parity + 1).unwrap();
                        let stored = alice.load().unwrap().unwrap().score;
                        assert!(stored > 2 * round + parity, "lowered to {stored}");
                    }
                });
            }
        });
        assert_eq!(
            store(dir.path(), "alice").load().unwrap().unwrap().score,
            2 * rounds
        );
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "temp files left"
        );
    }
}
