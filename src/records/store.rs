//! One player's record: read at the start of a game, saved at its end so
//! that no record is ever lowered or lost, whatever else runs at once.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::format::{
    Contents, Kind, MAX_RECORD_BYTES, Record, RecordFile, SkipReason, Skipped, player_uid,
    read_file, read_record, record_name,
};
use super::hi_line::BoardRecords;
use super::lookup::{NoScoreDir, ScoreDir, score_dir};
use super::rule_set::RuleSet;
use super::saved::SAVE_EXTENSION;
use super::scan::scan_all;
use super::sys;
use super::user::{UserError, check_user_name, current_user};
use crate::{files, text};

/// How long a save waits for another process's save to finish.
const LOCK_WAIT: Duration = Duration::from_secs(5);

/// [`LOCK_WAIT`], or in debug builds the tests' `CLINES_TEST_LOCK_WAIT`
/// ([`crate::runtime::test_lock_wait`]).
fn lock_wait() -> Duration {
    #[cfg(debug_assertions)]
    if let Some(secs) = crate::runtime::test_lock_wait() {
        return Duration::from_secs(secs);
    }
    LOCK_WAIT
}

/// How long a save waits for the records directory's lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockWait {
    /// Up to 5 s, as saves do.
    Usual,
    /// Not at all: the lock is taken only if it is free. For a save right
    /// after another waited for it in vain, as the player leaves.
    None,
}

/// Pause between attempts to take a busy lock.
const LOCK_RETRY: Duration = Duration::from_millis(5);
/// A record file's permissions: everyone may read the records.
const RECORD_MODE: u32 = 0o644;
/// The highest record a file holds: TOML's largest integer. Only a
/// hand-edited save can pass it (the game's own score goes on to
/// `u64::MAX`); such a game keeps this as its record rather than none.
pub(super) const MOST_RECORDED: u64 = i64::MAX as u64;

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

/// Why a record, or a game to go on with, could not be saved. Its message
/// starts with "the record could not be saved" and names the path
/// involved; [`SaveError::cause`] is the reason alone.
#[derive(Debug)]
pub enum SaveError {
    /// No records directory is known, for this reason.
    NoDirectory(NoScoreDir),
    /// A file operation failed.
    Io {
        /// What was being done, e.g. "creating the records directory".
        action: &'static str,
        /// The file or directory it was done to.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// The records directory's path names a file or something else.
    NotADirectory(PathBuf),
    /// A symbolic link on the records directory's path leads nowhere.
    BrokenLink {
        /// The records directory.
        path: PathBuf,
        /// Which link, and where it points.
        why: String,
    },
    /// Another process held the directory's lock for too long.
    Locked {
        /// The records directory.
        path: PathBuf,
    },
    /// The stored record is unreadable, so it is left as it is rather than
    /// risk replacing a higher score.
    StoredUnreadable(Skipped),
    /// The record file would grow past what clines reads (256 KiB), so it
    /// is left as it is: written, it would lose every record in it.
    TooLong {
        /// The record file.
        path: PathBuf,
    },
    /// The record could not be put into TOML.
    Encoding {
        /// The record file it was meant for.
        path: PathBuf,
        /// What the TOML writer said.
        source: toml::ser::Error,
    },
}

impl SaveError {
    /// Why the file could not be saved, without saying which file it was.
    pub fn cause(&self) -> SaveCause<'_> {
        SaveCause(self)
    }
}

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the record could not be saved: {}", self.cause())
    }
}

/// The reason in a [`SaveError`], shown alone.
#[derive(Debug)]
pub struct SaveCause<'a>(&'a SaveError);

impl fmt::Display for SaveCause<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            SaveError::NoDirectory(why) => write!(f, "{why}"),
            SaveError::Io {
                action,
                path,
                source,
            } => write!(f, "{action} {}: {source}", text::path(path)),
            SaveError::NotADirectory(path) => write!(
                f,
                "the records directory {} exists but is not a directory",
                text::path(path)
            ),
            SaveError::BrokenLink { path, why } => {
                write!(f, "the records directory {}: {why}", text::path(path))
            }
            SaveError::Locked { path } => write!(
                f,
                "{} stayed locked for {} s, by another game or another program that holds its lock",
                text::path(path),
                lock_wait().as_secs()
            ),
            SaveError::StoredUnreadable(skipped) => write!(
                f,
                "the stored record {} is {}; it was left as it is, and records are saved \
                 again once it is mended or moved away",
                text::path(&skipped.path),
                skipped.reason
            ),
            SaveError::TooLong { path } => write!(
                f,
                "{} would grow past {MAX_RECORD_BYTES} bytes, more than clines reads; \
                 it was left as it is",
                text::path(path)
            ),
            SaveError::Encoding { path, source } => {
                write!(f, "encoding {} as TOML: {source}", text::path(path))
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
    /// The records directory, or why none could be found.
    dir: Result<ScoreDir, NoScoreDir>,
    /// The player; always a safe file name.
    user: String,
    /// The rule set whose record is read and saved.
    rules: RuleSet,
}

/// Numbers temporary files apart within one process.
static TEMP_COUNTER: AtomicU32 = AtomicU32::new(0);

impl Store {
    /// The records of `user` in `dir`.
    pub fn new(dir: impl Into<PathBuf>, user: &str) -> Result<Store, UserError> {
        Store::in_score_dir(ScoreDir::new(dir), user)
    }

    /// The records of `user` in `dir`, its legacy directory included.
    pub fn in_score_dir(dir: ScoreDir, user: &str) -> Result<Store, UserError> {
        check_user_name(user)?;
        Ok(Store {
            dir: Ok(dir),
            user: user.to_string(),
            rules: RuleSet::default(),
        })
    }

    /// The same player's records of the rule set `rules` (the default rule
    /// set unless this is used).
    pub fn with_rules(self, rules: RuleSet) -> Store {
        Store { rules, ..self }
    }

    /// The real user's records in the records directory (see [`score_dir`]).
    /// Fails only when records must be off for this user; with no directory
    /// the game still reads nothing and [`Store::save`] explains why.
    pub fn open(config_score_dir: Option<&Path>) -> Result<Store, UserError> {
        Ok(Store {
            dir: score_dir(config_score_dir),
            user: current_user()?,
            rules: RuleSet::default(),
        })
    }

    /// The records directory, or why there is none.
    pub fn dir(&self) -> Result<&Path, &NoScoreDir> {
        self.dir.as_ref().map(|dir| dir.path.as_path())
    }

    /// Why nothing can be kept in the records directory, when that is known
    /// before anything is saved: there is none (`CLINES_SCORE_DIR` is
    /// relative, say), a symbolic link on the way to it leads nowhere, a
    /// file stands where it or a folder above it should be, it cannot
    /// be reached (a loop of links), or the player may not write in it
    /// (or, while it is not there yet, in the folder it would be made in).
    /// Told before play, since the first save would otherwise find it out
    /// only as the game ends.
    pub fn unusable(&self) -> Option<String> {
        let dir = match &self.dir {
            Ok(dir) => &dir.path,
            Err(e) => return Some(format!("records and saved games cannot be kept: {e}")),
        };
        let why = files::broken_link(dir)
            .or_else(|| {
                let file = files::file_in_the_way(dir)?;
                Some(match file == dir {
                    true => "it is not a directory".to_string(),
                    false => format!("{} above it is not a directory", text::path(file)),
                })
            })
            // A loop of links, a folder above it or itself that may not be
            // entered: a directory not there yet is made by the first save.
            .or_else(|| match fs::metadata(dir.join(".")) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => {
                    Some(format!("it cannot be reached: {e}"))
                }
                _ => None,
            })
            .or_else(|| not_writable(dir))?;
        Some(format!(
            "records and saved games cannot be kept in {}: {why}",
            text::path(dir)
        ))
    }

    /// The player's name.
    pub fn user(&self) -> &str {
        &self.user
    }

    /// Path of the player's `<user>.<ext>` file in `dir`.
    fn file(&self, dir: &Path, kind: Kind) -> PathBuf {
        dir.join(format!("{}.{}", self.user, kind.extension()))
    }

    /// The player's record of the store's rule set: the higher of
    /// `<user>.toml` and `<user>.cscore`, in the records directory and the
    /// legacy one. A file in the records directory that cannot be used is
    /// reported when no other file gives a record.
    pub fn load(&self) -> Result<Option<Record>, Skipped> {
        let Ok(dir) = &self.dir else {
            return Ok(None);
        };
        let read = |kind| {
            let path = self.file(&dir.path, kind);
            read_record(&path, kind, &self.rules).map_err(|reason| Skipped { path, reason })
        };
        let legacy = dir.legacy.as_deref().and_then(|legacy| {
            let quietly =
                |kind| read_record(&self.file(legacy, kind), kind, &self.rules).unwrap_or_default();
            higher(quietly(Kind::Toml), quietly(Kind::Cscore))
        });
        match (read(Kind::Toml), read(Kind::Cscore), legacy) {
            (Ok(a), Ok(b), c) => Ok(higher(higher(a, b), c)),
            (Ok(Some(record)), Err(_), c) | (Err(_), Ok(Some(record)), c) => {
                Ok(higher(Some(record), c))
            }
            (_, _, Some(record)) => Ok(Some(record)),
            (Err(skipped), _, None) | (_, Err(skipped), None) => Err(skipped),
        }
    }

    /// What the board shows at the start of a game. Unreadable files are
    /// left out here; `clines -l` reports them.
    pub fn board_records(&self) -> BoardRecords {
        let entries = self
            .dir
            .as_ref()
            .ok()
            .and_then(|dir| scan_all(dir, &self.rules).ok())
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

    /// Saves `score` as the player's record if it beats the stored one; a
    /// score beyond the most a file holds (TOML's largest integer) is saved
    /// as that.
    ///
    /// Two games may end at once, so the whole save runs under an
    /// exclusive lock on the directory (`DirLock`): the second save re-reads
    /// what the first wrote and keeps the higher. The file is then replaced
    /// atomically (`replace_atomically`), so a crash at any moment leaves
    /// either the old records or the new ones.
    pub fn save(&self, score: u64) -> Result<SaveOutcome, SaveError> {
        let score = score.min(MOST_RECORDED);
        let dir = self
            .dir
            .as_ref()
            .map_err(|why| SaveError::NoDirectory(why.clone()))?;
        let lock = DirLock::acquire(&dir.path, LockWait::Usual)?;
        lock.remove_stale_temps();
        let target = self.file(&dir.path, Kind::Toml);
        let mut file = self.stored_file(&target)?;
        let outcome = judge(score, self.standing(dir, &file)?);
        if let SaveOutcome::Saved { .. } = outcome {
            let encoding = |source| SaveError::Encoding {
                path: target.clone(),
                source,
            };
            file.set(&self.rules, score, now_secs()).map_err(encoding)?;
            let text = file.to_text().map_err(encoding)?;
            if text.len() as u64 > MAX_RECORD_BYTES {
                return Err(SaveError::TooLong { path: target });
            }
            replace_atomically(&lock, &target, text.as_bytes(), kept_mode(&target))?;
        }
        Ok(outcome)
    }

    /// The records a save is judged against, read under the lock: the
    /// player's `file` and everyone's records of the store's rule set.
    fn standing(&self, dir: &ScoreDir, file: &RecordFile) -> Result<Standing, SaveError> {
        let mut own = file.record(&self.rules).map(|record| record.score);
        let everyone = scan_all(dir, &self.rules)
            .map_err(io_error("reading the records directory", &dir.path))?;
        let mut others_best = None;
        // The player's entry adds the `.cscore` and legacy records: they
        // are never written, so no save can lower them, and an unusable one
        // counts as none.
        for entry in everyone.entries {
            if entry.user == self.user {
                own = own.max(Some(entry.score));
            } else {
                others_best = others_best.max(Some(entry.score));
            }
        }
        Ok(Standing { own, others_best })
    }

    /// The player's `<user>.toml` at `path`, the file a save replaces with
    /// one record changed: empty when missing, or when a symlink not
    /// followed (another user's, or one that leads nowhere), which is
    /// replaced; any other unusable file, the player's own link to one
    /// included, stops the save, since replacing it could lose records.
    fn stored_file(&self, path: &Path) -> Result<RecordFile, SaveError> {
        match read_file(path, Kind::Toml) {
            Ok(Some(Contents::Toml(file))) => Ok(file),
            Ok(None) | Err(SkipReason::Symlink) => Ok(RecordFile::default()),
            // A read as TOML never gives a `.cscore` record; were it to,
            // the file is kept, not replaced with an empty one.
            Ok(Some(Contents::Cscore(_))) => Err(SaveError::StoredUnreadable(Skipped {
                path: path.to_path_buf(),
                reason: SkipReason::Foreign("read as an original .cscore file".into()),
            })),
            Err(reason) => Err(SaveError::StoredUnreadable(Skipped {
                path: path.to_path_buf(),
                reason,
            })),
        }
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

/// An exclusive `flock` on the records directory, held until dropped: closing
/// the descriptor releases it. Locking the directory itself needs no lock
/// file that could be planted or left behind, and it is the descriptor a
/// save fsyncs anyway.
pub(super) struct DirLock {
    /// The open directory, locked.
    dir: File,
    /// Its path, for messages.
    path: PathBuf,
}

impl DirLock {
    /// Creates `dir` if needed and locks it, waiting as `wait` says, never
    /// longer than [`LOCK_WAIT`] ([`lock_wait`]), so that a stuck process
    /// cannot hang our exit forever.
    pub(super) fn acquire(dir: &Path, wait: LockWait) -> Result<DirLock, SaveError> {
        fs::create_dir_all(dir).map_err(|source| {
            // Not created through a link that leads nowhere: where it
            // should lead is the player's to say.
            if let Some(why) = files::broken_link(dir) {
                SaveError::BrokenLink {
                    path: dir.to_path_buf(),
                    why,
                }
            } else if source.kind() == io::ErrorKind::AlreadyExists {
                SaveError::NotADirectory(dir.to_path_buf())
            } else {
                io_error("creating the records directory", dir)(source)
            }
        })?;
        let file = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_DIRECTORY | libc::O_CLOEXEC)
            .open(dir)
            .map_err(io_error("opening the records directory", dir))?;
        let deadline = Instant::now()
            + match wait {
                LockWait::Usual => lock_wait(),
                LockWait::None => Duration::ZERO,
            };
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

    /// Removes the temporary files of saves that were interrupted (a game
    /// killed mid-save). Every save writes and renames its temporary file
    /// while holding this lock, and the lock dies with its holder; so while
    /// we hold it, any temporary file there belongs to a save that can no
    /// longer finish, whatever its process id says and on whatever machine
    /// it ran. Best effort: what cannot be removed (another user's file in
    /// a sticky directory) is left for its owner's next save.
    pub(super) fn remove_stale_temps(&self) {
        let Ok(listing) = fs::read_dir(&self.path) else {
            return;
        };
        for item in listing.flatten() {
            if item.file_name().to_str().is_some_and(is_temp_name) {
                let _ = fs::remove_file(item.path());
            }
        }
    }

    /// Flushes the directory, so that a rename in it survives a crash.
    fn sync(&self) -> Result<(), SaveError> {
        self.dir
            .sync_all()
            .map_err(io_error("flushing the records directory", &self.path))
    }
}

/// Why the player may not write in `dir`, or, while it is not there yet,
/// in the nearest folder above it that is, where the first save makes it;
/// `None` when the player may.
fn not_writable(dir: &Path) -> Option<String> {
    let existing = dir.ancestors().find(|path| path.exists())?;
    let e = sys::may_write_in(existing).err()?;
    Some(match existing == dir {
        true => format!("it may not be written in: {e}"),
        false => format!(
            "it cannot be made, as {} may not be written in: {e}",
            text::path(existing)
        ),
    })
}

/// Why records and saved games cannot be kept, as [`Store::unusable`]
/// tells it, or why there is no store at all ([`Store::open`]'s error:
/// records are off for this user); told before play, since otherwise
/// only `s` and the game's end would say.
pub fn why_unusable(store: &Result<Store, UserError>) -> Option<String> {
    match store {
        Ok(store) => store.unusable(),
        Err(e) => Some(format!(
            "records and saved games cannot be kept: {}",
            e.reason()
        )),
    }
}

/// The permissions of the records file that replaces `target`: those of
/// the player's own file there, so that one made private (or read-only)
/// stays so, but never more than [`RECORD_MODE`] grants; [`RECORD_MODE`]
/// for a new file, or one another user planted.
fn kept_mode(target: &Path) -> u32 {
    match fs::symlink_metadata(target) {
        Ok(found) if found.is_file() && found.uid() == player_uid() => found.mode() & RECORD_MODE,
        _ => RECORD_MODE,
    }
}

/// Replaces `target` in the locked directory with a file holding `bytes`,
/// with permissions `mode`: a temporary file is written and fsynced, then
/// renamed over `target`, which replaces a planted symlink rather than
/// writing through it, then the directory is fsynced.
pub(super) fn replace_atomically(
    lock: &DirLock,
    target: &Path,
    bytes: &[u8],
    mode: u32,
) -> Result<(), SaveError> {
    let temp = write_temp(lock, target, bytes, mode)?;
    if let Err(e) = fs::rename(&temp, target) {
        // Best effort: the temporary file is ours and useless now.
        let _ = fs::remove_file(&temp);
        return Err(io_error("replacing", target)(e));
    }
    lock.sync()
}

/// Writes `bytes` to a new temporary file for `target` in the locked
/// directory ([`temp_name`]), fsynced, and returns its path. Created
/// exclusively and without following symlinks, so nothing planted under
/// its name is written through.
fn write_temp(
    lock: &DirLock,
    target: &Path,
    bytes: &[u8],
    mode: u32,
) -> Result<PathBuf, SaveError> {
    let target_name = target.file_name().unwrap_or_default().to_string_lossy();
    let pid = std::process::id();
    loop {
        let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = lock.path.join(temp_name(&target_name, pid, n));
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(&path);
        let mut file = match file {
            // Left over by a crashed game with our pid: take the next name.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            // The directory is what the player can mend, not the hidden
            // file's name.
            Err(e) => return Err(io_error("creating a file in", &lock.path)(e)),
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

/// The temporary file for `target_name` written by process `pid` as its
/// `n`th: `.<target_name>.<pid>.<n>.tmp`, hidden from the scan.
fn temp_name(target_name: &str, pid: u32, n: u32) -> String {
    format!(".{target_name}.{pid}.{n}.tmp")
}

/// Whether `name` is a [`temp_name`] for some user's record file or saved
/// game.
fn is_temp_name(name: &str) -> bool {
    let Some(inner) = name
        .strip_prefix('.')
        .and_then(|rest| rest.strip_suffix(".tmp"))
    else {
        return false;
    };
    let mut parts = inner.rsplitn(3, '.');
    let (Some(n), Some(pid), Some(target)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let number = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    let saved_game = |target: &str| {
        target
            .strip_suffix(SAVE_EXTENSION)
            .is_some_and(|name| check_user_name(name).is_ok())
    };
    number(n)
        && number(pid)
        && (record_name(target).is_some_and(|(user, _)| check_user_name(user).is_ok())
            || saved_game(target))
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
        cscore_bytes, entry, inside_legacy, permissions_apply, posing_as_another_user, store,
        temp_dir, undated, write_toml,
    };
    use std::os::unix::fs::{PermissionsExt, symlink};

    /// Told before play: records off for the user, as well as a records
    /// directory that cannot be used; nothing when all is well.
    #[test]
    fn records_off_for_the_user_are_told_before_play() {
        let off = Err(UserError::Unknown { uid: 4242 });
        assert_eq!(
            why_unusable(&off).as_deref(),
            Some("records and saved games cannot be kept: user id 4242 has no user name")
        );
        let dir = temp_dir();
        let fine = Store::new(dir.path().join("records"), "me");
        assert_eq!(why_unusable(&fine), None);
        let file = dir.path().join("file");
        fs::write(&file, "").unwrap();
        let not_a_dir = Store::new(&file, "me");
        let why = why_unusable(&not_a_dir).expect("a file");
        assert!(why.ends_with(": it is not a directory"), "{why}");
    }

    #[test]
    fn temp_names() {
        assert!(is_temp_name(&temp_name("alice.toml", 12, 0)));
        assert!(is_temp_name(".bob.cscore.1.22.tmp"));
        assert!(is_temp_name(&temp_name(
            "ann.w9.t9.c5.i5.n3.N3.off.game",
            7,
            3
        )));
        for name in [
            "alice.toml",
            ".alice.toml",
            ".alice.toml.1.tmp",
            ".alice.toml.x.1.tmp",
            ".alice.toml.1..tmp",
            ".alice.txt.1.2.tmp",
            ".a b.toml.1.2.tmp",
            "..toml.1.2.tmp",
            "alice.toml.1.2.tmp",
            ".ann.w9.game.x.1.tmp",
            "..game.1.2.tmp",
        ] {
            assert!(!is_temp_name(name), "{name}");
        }
    }

    #[test]
    fn a_save_removes_the_temporary_files_of_interrupted_saves() {
        let dir = temp_dir();
        let stale = [".alice.toml.4000000.0.tmp", ".bob.toml.1.7.tmp"];
        let kept = [".alice.toml.notes", "alice.tmp", ".config.tmp"];
        for name in stale.iter().chain(&kept) {
            fs::write(dir.path().join(name), "score = 1\nset_at = 1\n").unwrap();
        }
        let alice = store(dir.path(), "alice");
        alice.save(3).unwrap();
        // Also when nothing is written.
        fs::write(dir.path().join(stale[1]), "").unwrap();
        assert_eq!(alice.save(2).unwrap(), SaveOutcome::NotBeaten { record: 3 });
        let mut names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|item| item.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        let mut expected: Vec<_> = kept.iter().map(|name| name.to_string()).collect();
        expected.push("alice.toml".to_string());
        expected.sort();
        assert_eq!(names, expected);
    }

    /// A score past what a TOML file holds (from a hand-edited save) is
    /// recorded as the most it holds, not lost to an encoding error.
    #[test]
    fn a_score_past_what_a_file_holds_is_recorded_as_the_most() {
        let dir = temp_dir();
        let alice = store(dir.path(), "alice");
        assert!(matches!(
            alice.save(u64::MAX),
            Ok(SaveOutcome::Saved { .. })
        ));
        assert_eq!(
            alice.save(MOST_RECORDED + 1).unwrap(),
            SaveOutcome::NotBeaten {
                record: MOST_RECORDED
            }
        );
        let text = fs::read_to_string(dir.path().join("alice.toml")).unwrap();
        assert!(
            text.starts_with(&format!("score = {}\n", i64::MAX)),
            "{text}"
        );
    }

    /// A record that would make the file longer than clines reads is not
    /// written: the file, and every record in it, stays.
    #[test]
    fn a_record_file_never_grows_past_what_is_read() {
        // Rule sets whose keys are all as long, written as a save writes
        // them, to just under the limit.
        let text_of = |count: usize| {
            let text: String = (0..count)
                .map(|i| {
                    let (width, height) = (100 + i / 9, 1 + i % 9);
                    format!("[rules.w{width}-t{height}-c5-i5-n3-N3]\nscore = 7\nset_at = 1\n")
                })
                .collect();
            toml::to_string(&toml::from_str::<toml::Table>(&text).unwrap()).unwrap()
        };
        let fits = |count| text_of(count).len() as u64 <= MAX_RECORD_BYTES;
        let (mut low, mut high) = (1, 8100);
        while low + 1 < high {
            let middle = (low + high) / 2;
            if fits(middle) {
                low = middle;
            } else {
                high = middle;
            }
        }
        // The most rule sets that fit: one more would not.
        let text = text_of(low);
        assert!(fits(low) && !fits(low + 1));
        let dir = temp_dir();
        let path = dir.path().join("alice.toml");
        fs::write(&path, &text).unwrap();
        let rules = |width| {
            let rules = crate::game::Rules {
                width,
                ..crate::game::Rules::default()
            };
            RuleSet::new(rules, crate::game::Preview::Off)
        };
        let alice = store(dir.path(), "alice").with_rules(rules(99));
        let refused = alice.save(10).unwrap_err();
        assert!(matches!(refused, SaveError::TooLong { .. }), "{refused}");
        assert!(
            refused.to_string().contains("more than clines reads"),
            "{refused}"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), text);
        // The records in it are still read.
        let kept = store(dir.path(), "alice").with_rules(rules(100));
        assert_eq!(kept.save(5).unwrap(), SaveOutcome::NotBeaten { record: 7 });
    }

    #[test]
    fn a_records_directory_that_is_a_file_is_named_as_such() {
        let dir = temp_dir();
        let file = dir.path().join("scores");
        fs::write(&file, "x").unwrap();
        let message = store(&file, "alice").save(10).unwrap_err().to_string();
        assert_eq!(
            message,
            format!(
                "the record could not be saved: the records directory {} \
                 exists but is not a directory",
                file.display()
            )
        );
    }

    /// A records directory, or a folder above it, that is a symbolic link
    /// leading nowhere (a shared folder moved, say) is named as such, and
    /// nothing is made where it points.
    #[test]
    fn a_records_directory_through_a_broken_link_is_named_as_such() {
        let dir = temp_dir();
        let gone = dir.path().join("moved/scores");
        let link = dir.path().join("scores");
        std::os::unix::fs::symlink(&gone, &link).unwrap();
        for (scores, subject) in [
            (link.clone(), "it".to_string()),
            (link.join("inner"), format!("{} above it", link.display())),
        ] {
            let message = store(&scores, "alice").save(10).unwrap_err().to_string();
            assert_eq!(
                message,
                format!(
                    "the record could not be saved: the records directory {}: {subject} is a \
                     symbolic link to {}, which leads nowhere",
                    scores.display(),
                    gone.display()
                )
            );
        }
        assert!(!dir.path().join("moved").exists());
    }

    #[test]
    fn legacy_records_count_and_stay_where_they_are() {
        let data = temp_dir();
        let dir = inside_legacy(data.path());
        write_toml(data.path(), "alice", 50);
        write_toml(data.path(), "bob", 70);
        let legacy_alice = fs::read(data.path().join("alice.toml")).unwrap();
        let alice = Store::in_score_dir(dir.clone(), "alice").unwrap();
        assert_eq!(alice.load().unwrap().unwrap().score, 50);
        assert_eq!(
            alice.board_records().best.map(|best| undated(vec![best])),
            Some(vec![entry("bob", 70)])
        );
        assert_eq!(
            alice.save(40).unwrap(),
            SaveOutcome::NotBeaten { record: 50 }
        );
        assert_eq!(
            alice.save(60).unwrap(),
            SaveOutcome::Saved { best_of_all: false }
        );
        assert_eq!(alice.load().unwrap().unwrap().score, 60);
        assert_eq!(
            fs::read(data.path().join("alice.toml")).unwrap(),
            legacy_alice
        );
        assert!(dir.path.join("alice.toml").is_file());
    }

    #[test]
    fn each_rule_set_keeps_its_own_record_in_the_same_file() {
        let dir = temp_dir();
        let wide = RuleSet::new(
            crate::game::Rules {
                width: 12,
                ..Default::default()
            },
            crate::game::Preview::Off,
        );
        fs::write(
            dir.path().join("alice.cscore"),
            cscore_bytes(CSCORE_MAGIC, 1, 300),
        )
        .unwrap();
        write_toml(dir.path(), "bob", 100);
        let alice = store(dir.path(), "alice");
        let alice_wide = alice.clone().with_rules(wide.clone());
        let bob_wide = store(dir.path(), "bob").with_rules(wide);
        // The original's record counts for the default rules alone.
        assert_eq!(alice_wide.load().unwrap(), None);
        assert_eq!(alice_wide.board_records().best, None);
        assert_eq!(
            alice_wide.save(20).unwrap(),
            SaveOutcome::Saved { best_of_all: true }
        );
        assert_eq!(
            bob_wide.save(10).unwrap(),
            SaveOutcome::Saved { best_of_all: false }
        );
        assert_eq!(
            alice_wide.save(15).unwrap(),
            SaveOutcome::NotBeaten { record: 20 }
        );
        assert_eq!(
            alice.save(301).unwrap(),
            SaveOutcome::Saved { best_of_all: true }
        );
        // The default rules with a preview are a rule set of their own.
        let alice_previewed = alice.clone().with_rules(RuleSet::new(
            crate::game::Rules::default(),
            crate::game::Preview::Cells,
        ));
        assert_eq!(alice_previewed.load().unwrap(), None);
        assert_eq!(
            alice_previewed.save(7).unwrap(),
            SaveOutcome::Saved { best_of_all: true }
        );
        assert_eq!(alice_previewed.load().unwrap().unwrap().score, 7);
        assert_eq!(alice.load().unwrap().unwrap().score, 301);
        assert_eq!(alice_wide.load().unwrap().unwrap().score, 20);
        assert_eq!(bob_wide.load().unwrap().unwrap().score, 10);
        assert_eq!(store(dir.path(), "bob").load().unwrap().unwrap().score, 100);
        let text = fs::read_to_string(dir.path().join("alice.toml")).unwrap();
        assert!(
            text.starts_with("score = 301\n")
                && text.contains("[rules.w12-t9-c5-i5-n3-N3]\nscore = 20\n")
                && text.contains("[rules.w9-t9-c5-i5-n3-N3-pcells]\nscore = 7\n"),
            "{text}"
        );
        let wide_board = bob_wide.board_records();
        assert_eq!(wide_board.own, Some(10));
        assert_eq!(
            wide_board.best.map(|best| (best.user, best.score)),
            Some(("alice".to_string(), 20))
        );
    }

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
                && message.contains("alice.toml")
                && message.ends_with("once it is mended or moved away"),
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
        // Another user's link is not read through: its target's 999 does
        // not count.
        posing_as_another_user(|| {
            let skipped = alice.load().unwrap_err();
            assert!(matches!(skipped.reason, SkipReason::Symlink), "{skipped}");
            assert_eq!(alice.board_records().own, None);
            assert_eq!(
                alice.save(5).unwrap(),
                SaveOutcome::Saved { best_of_all: true }
            );
        });
        assert_eq!(
            fs::read_to_string(&target).unwrap(),
            "score = 999\nset_at = 1\n"
        );
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_file());
        assert_eq!(alice.load().unwrap().unwrap().score, 5);
    }

    /// A link of the player's own to a records file kept elsewhere is read
    /// through: its records count, and the save that replaces the link
    /// with a file keeps them all.
    /// A record that replaces the player's records file keeps its
    /// permissions, narrowed to the usual ones; a file another user
    /// planted there passes on none.
    #[test]
    fn a_records_file_keeps_the_players_permissions() {
        let dir = temp_dir();
        let alice = store(dir.path(), "alice");
        let file = dir.path().join("alice.toml");
        let mode = || fs::metadata(&file).unwrap().permissions().mode() & 0o7777;
        let set = |mode| fs::set_permissions(&file, fs::Permissions::from_mode(mode)).unwrap();
        alice.save(10).unwrap();
        let mut score = 10;
        for private in [0o600, 0o400, 0o444] {
            set(private);
            score += 1;
            alice.save(score).unwrap();
            assert_eq!(mode(), private, "{private:o}");
        }
        // Never more than a records file is given: no one else writes it.
        set(0o4777);
        alice.save(20).unwrap();
        assert_eq!(mode() & 0o7133, 0, "{:o}", mode());
        // Another user's file, read-only: the new one is the player's own,
        // made as a new one is.
        set(0o400);
        posing_as_another_user(|| alice.save(30).unwrap());
        assert_ne!(mode() & 0o200, 0, "{:o}", mode());
    }

    #[test]
    fn the_players_own_link_to_a_records_file_is_read_through() {
        let dir = temp_dir();
        let dotfiles = temp_dir();
        let target = dotfiles.path().join("clines.toml");
        let kept =
            "score = 5000\nset_at = 1\n\n[rules.w12-t9-c5-i5-n3-N3]\nscore = 77\nset_at = 5\n";
        fs::write(&target, kept).unwrap();
        let link = dir.path().join("alice.toml");
        symlink(&target, &link).unwrap();
        let alice = store(dir.path(), "alice");
        assert_eq!(alice.load().unwrap().unwrap().score, 5000);
        assert_eq!(alice.board_records().own, Some(5000));
        assert_eq!(
            alice.save(2000).unwrap(),
            SaveOutcome::NotBeaten { record: 5000 }
        );
        assert_eq!(
            alice.save(6000).unwrap(),
            SaveOutcome::Saved { best_of_all: true }
        );
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_file());
        let text = fs::read_to_string(&link).unwrap();
        assert!(
            text.starts_with("score = 6000\n")
                && text.contains("[rules.w12-t9-c5-i5-n3-N3]\nscore = 77\n"),
            "{text}"
        );
        assert_eq!(fs::read_to_string(&target).unwrap(), kept, "left alone");
        // One that leads to a file that cannot be read is kept, as such a
        // file is: a damaged one, or a FIFO, which must not hang the game.
        let fifo = dotfiles.path().join("fifo");
        sys::make_fifo(&fifo).unwrap();
        fs::write(&target, "score = 5000\nset_at = \"yesterday\"\n").unwrap();
        for (target, reason) in [
            (&target, "not a clines record"),
            (&fifo, "not a regular file"),
        ] {
            fs::remove_file(&link).unwrap();
            symlink(target, &link).unwrap();
            let error = alice.save(7000).unwrap_err().to_string();
            assert!(error.contains(reason), "{error}");
            assert!(
                fs::symlink_metadata(&link)
                    .unwrap()
                    .file_type()
                    .is_symlink()
            );
        }
        // A link of the player's that leads nowhere is replaced.
        fs::remove_file(&link).unwrap();
        symlink(dir.path().join("nowhere"), &link).unwrap();
        assert_eq!(
            alice.save(1).unwrap(),
            SaveOutcome::Saved { best_of_all: true }
        );
        assert_eq!(alice.load().unwrap().unwrap().score, 1);
    }

    /// Each reason reads as what the stored record is.
    #[test]
    fn an_unreadable_stored_record_is_told_in_a_sentence() {
        let path = PathBuf::from("/x/alice.toml");
        let told = |reason| {
            SaveError::StoredUnreadable(Skipped {
                path: path.clone(),
                reason,
            })
            .to_string()
        };
        let denied = io::Error::from_raw_os_error(libc::EACCES);
        assert!(told(SkipReason::Unreadable(denied)).starts_with(
            "the record could not be saved: the stored record /x/alice.toml is unreadable: "
        ));
        assert!(told(SkipReason::NotAFile).contains("alice.toml is not a regular file;"));
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
            message.starts_with("the record could not be saved: creating the records directory")
                && message.contains(&file.join("scores").display().to_string()),
            "{message}"
        );

        let no_dir = Store {
            dir: Err(NoScoreDir::NoHome),
            user: "alice".to_string(),
            rules: RuleSet::default(),
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
                message.starts_with("the record could not be saved: creating a file in")
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
        // Each round starts together, so that every save meets the other's
        // and neither takes the lock round after round while the other
        // waits (on a loaded machine, past LOCK_WAIT).
        let round_start = std::sync::Barrier::new(2);
        std::thread::scope(|scope| {
            for parity in 0..2 {
                let alice = store(dir.path(), "alice");
                let round_start = &round_start;
                scope.spawn(move || {
                    for round in 0..rounds {
                        round_start.wait();
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
