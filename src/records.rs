//! High scores: one `<user>.toml` per user in a score directory, the
//! original's `<user>.cscore` files read alongside, saving that never lowers
//! or loses a record, the `clines -l` listing and the `hi` line on the board.
//!
//! Everything works on an explicit directory and user name ([`Store::new`]),
//! so tests never touch real files; [`Store::open`] and [`list`] find the
//! real ones.

use std::cmp::Reverse;
use std::ffi::{CStr, OsString};
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::game::Rules;

/// The environment variable naming the score directory; it overrides the
/// config file and the platform default.
pub const SCORE_DIR_ENV: &str = "CLINES_SCORE_DIR";

/// First four bytes of an original `.cscore` file (big-endian).
const CSCORE_MAGIC: u32 = 0xC001_CEED;
/// The only `.cscore` format version there is.
const CSCORE_VERSION: u32 = 1;
/// A `.cscore` file: magic, version, score, each four bytes.
const CSCORE_LEN: usize = 12;
/// No record file is anywhere near this long; a longer one is not ours.
const MAX_RECORD_BYTES: u64 = 4096;
/// How long a save waits for another process's save to finish.
const LOCK_WAIT: Duration = Duration::from_secs(5);
/// Pause between attempts to take a busy lock.
const LOCK_RETRY: Duration = Duration::from_millis(5);

/// Whether a game keeps records: only under the default rules and without a
/// fixed seed, so every record was earned in the same, unrepeatable game.
/// Default values given explicitly still count as defaults.
pub fn records_enabled(rules: &Rules, seed: Option<u64>) -> bool {
    rules.is_default() && seed.is_none()
}

/// Where records live: `$CLINES_SCORE_DIR`, else the config file's
/// `score_dir`, else the platform data directory; `None` when none is known
/// (no home directory).
pub fn score_dir(config_score_dir: Option<&Path>) -> Option<PathBuf> {
    resolve_score_dir(
        std::env::var_os(SCORE_DIR_ENV),
        config_score_dir,
        platform_data_dir,
    )
}

/// [`score_dir`] with its inputs given: the environment variable's value and
/// a way to find the platform directory, asked only when needed. An empty
/// variable counts as unset.
pub fn resolve_score_dir(
    env_value: Option<OsString>,
    config_score_dir: Option<&Path>,
    platform_dir: impl FnOnce() -> Option<PathBuf>,
) -> Option<PathBuf> {
    match env_value {
        Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir)),
        _ => config_score_dir
            .map(Path::to_path_buf)
            .or_else(platform_dir),
    }
}

/// The platform's data directory for clines, e.g. `~/.local/share/clines`.
fn platform_data_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "clines").map(|dirs| dirs.data_dir().to_path_buf())
}

/// Why records are off for this user.
#[derive(Debug)]
pub enum UserError {
    /// The user database has no entry for the real user id.
    Unknown {
        /// The real user id.
        uid: u32,
    },
    /// Looking the user id up failed.
    Lookup {
        /// The real user id.
        uid: u32,
        /// What went wrong.
        source: io::Error,
    },
    /// The name cannot safely be used as a file name.
    UnsafeName(String),
}

impl fmt::Display for UserError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "records are off: ")?;
        match self {
            UserError::Unknown { uid } => write!(f, "user id {uid} has no user name"),
            UserError::Lookup { uid, source } => {
                write!(f, "cannot look up the name of user id {uid}: {source}")
            }
            UserError::UnsafeName(name) => write!(
                f,
                "the user name {name:?} is not a safe file name \
                 (letters, digits, '.', '_' and '-' only, not starting with '.')"
            ),
        }
    }
}

impl std::error::Error for UserError {}

/// The name of the real user (not `$USER`, which anyone can set), checked
/// to be a safe file name.
pub fn current_user() -> Result<String, UserError> {
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    let name = passwd_name(uid)?;
    check_user_name(&name)?;
    Ok(name)
}

/// The user database's name for `uid`.
fn passwd_name(uid: libc::uid_t) -> Result<String, UserError> {
    let mut buf = vec![0u8; 1024];
    loop {
        // SAFETY: passwd is plain data; all-zero is a valid value to be
        // overwritten by getpwuid_r.
        let mut entry: libc::passwd = unsafe { std::mem::zeroed() };
        let mut found: *mut libc::passwd = std::ptr::null_mut();
        // SAFETY: every pointer is valid for the call and `buf.len()` is the
        // buffer's real size; the strings written into `entry` point into
        // `buf`, which outlives their use below.
        let rc = unsafe {
            libc::getpwuid_r(
                uid,
                &mut entry,
                buf.as_mut_ptr().cast(),
                buf.len(),
                &mut found,
            )
        };
        if rc == libc::ERANGE && buf.len() < 1 << 20 {
            buf.resize(buf.len() * 2, 0);
            continue;
        }
        if rc != 0 {
            return Err(UserError::Lookup {
                uid,
                source: io::Error::from_raw_os_error(rc),
            });
        }
        if found.is_null() || entry.pw_name.is_null() {
            return Err(UserError::Unknown { uid });
        }
        // SAFETY: getpwuid_r succeeded, so pw_name is a NUL-terminated
        // string inside `buf`.
        let name = unsafe { CStr::from_ptr(entry.pw_name) };
        return Ok(name.to_string_lossy().into_owned());
    }
}

/// Accepts names made of `[A-Za-z0-9._-]` that do not start with `.`, so a
/// name can never climb out of the directory or hide as a dot file.
pub fn check_user_name(name: &str) -> Result<(), UserError> {
    let safe_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
    if name.is_empty() || name.starts_with('.') || !name.chars().all(safe_char) {
        return Err(UserError::UnsafeName(name.to_string()));
    }
    Ok(())
}

/// A stored best score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The score.
    pub score: u64,
    /// When it was set, in seconds since the Unix epoch; `None` for the
    /// original's files, which do not say.
    pub set_at: Option<u64>,
}

/// The contents of a `<user>.toml` file.
#[derive(Serialize, Deserialize)]
struct RecordFile {
    /// The best score.
    score: u64,
    /// When it was set, in seconds since the Unix epoch.
    set_at: u64,
}

/// One user's best record, for the listing and the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The user's name.
    pub user: String,
    /// The user's best score.
    pub score: u64,
}

/// Why a file in the score directory was not read as a record.
#[derive(Debug)]
pub enum SkipReason {
    /// A symbolic link: never followed, so nobody can point us elsewhere.
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
            SkipReason::Unreadable(e) => write!(f, "cannot be read: {e}"),
            SkipReason::Corrupt(why) => write!(f, "corrupt: {why}"),
            SkipReason::Foreign(why) => write!(f, "not a clines record: {why}"),
            SkipReason::BadName => write!(f, "the file name is not a user name"),
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
        write!(f, "skipping {}: {}", self.path.display(), self.reason)
    }
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
    let mut best: std::collections::BTreeMap<String, u64> = Default::default();
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

/// The two kinds of record file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Ours: `<user>.toml`.
    Toml,
    /// The original's: `<user>.cscore`.
    Cscore,
}

/// Splits `<user>.toml` / `<user>.cscore` into the user and the kind; `None`
/// for anything else, including dot files.
fn record_name(file_name: &str) -> Option<(&str, Kind)> {
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

/// Reads one record file without following a symlink; `Ok(None)` when it
/// does not exist.
fn read_record(path: &Path, kind: Kind) -> Result<Option<Record>, SkipReason> {
    // O_NONBLOCK: opening a planted FIFO must not hang the game.
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path);
    let file = match file {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Err(SkipReason::Symlink),
        Err(e) => return Err(SkipReason::Unreadable(e)),
    };
    let metadata = file.metadata().map_err(SkipReason::Unreadable)?;
    if !metadata.is_file() {
        return Err(SkipReason::NotAFile);
    }
    let mut bytes = Vec::new();
    file.take(MAX_RECORD_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(SkipReason::Unreadable)?;
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        return Err(SkipReason::Foreign(format!(
            "longer than {MAX_RECORD_BYTES} bytes"
        )));
    }
    match kind {
        Kind::Toml => parse_toml(&bytes),
        Kind::Cscore => parse_cscore(&bytes),
    }
    .map(Some)
}

/// A `<user>.toml` record: TOML with an unsigned `score` and `set_at`.
fn parse_toml(bytes: &[u8]) -> Result<Record, SkipReason> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| SkipReason::Corrupt("not UTF-8 text".to_string()))?;
    let table: toml::Table = toml::from_str(text)
        .map_err(|e| SkipReason::Corrupt(format!("not TOML: {}", one_line(e.message()))))?;
    let file: RecordFile = toml::Value::Table(table).try_into().map_err(|e| {
        SkipReason::Foreign(format!(
            "expected `score` and `set_at` as whole numbers: {}",
            one_line(e.message())
        ))
    })?;
    Ok(Record {
        score: file.score,
        set_at: Some(file.set_at),
    })
}

/// A parser's message on one line, so each warning stays one line.
fn one_line(message: &str) -> String {
    message.split_whitespace().collect::<Vec<_>>().join(" ")
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

/// Why there is no score directory at all.
const NO_DIRECTORY: &str = "no directory for records: \
     set CLINES_SCORE_DIR or score_dir in the config file (no home directory was found)";

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

impl BoardRecords {
    /// The line to show while the player has `score`: the stored records,
    /// overtaken live as the score passes them (a tie does not overtake).
    /// `None` while there is neither a record nor a score.
    pub fn hi_line(&self, score: u64) -> Option<HiLine> {
        let you = self.own.unwrap_or(0).max(score);
        match &self.best {
            Some(best) if best.user != self.user && best.score >= score => Some(HiLine::Other {
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
        }
    }
}

impl std::error::Error for SaveError {}

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
        let ext = match kind {
            Kind::Toml => "toml",
            Kind::Cscore => "cscore",
        };
        dir.join(format!("{}.{ext}", self.user))
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
    /// Two games of the same user may end at once, so the read-compare-write
    /// runs under an exclusive `flock` on the directory itself: the second
    /// save re-reads what the first wrote and keeps the higher. Locking the
    /// directory needs no lock file that could be planted or left behind,
    /// and it is the descriptor we fsync anyway. The record is replaced
    /// atomically: a temporary file created exclusively without following
    /// symlinks, fsynced, renamed over `<user>.toml` (which replaces a
    /// planted symlink rather than writing through it), then the directory
    /// is fsynced so the rename survives a crash.
    pub fn save(&self, score: u64) -> Result<SaveOutcome, SaveError> {
        let dir = self.dir().ok_or(SaveError::NoDirectory)?;
        let io_error = |action, path: &Path| {
            let path = path.to_path_buf();
            move |source| SaveError::Io {
                action,
                path,
                source,
            }
        };
        fs::create_dir_all(dir).map_err(io_error("creating the score directory", dir))?;
        let dir_file = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_DIRECTORY | libc::O_CLOEXEC)
            .open(dir)
            .map_err(io_error("opening the score directory", dir))?;
        lock(&dir_file, dir)?;

        let stored = self.stored_for_save(dir)?;
        if let Some(record) = stored.filter(|&record| record >= score) {
            return Ok(SaveOutcome::NotBeaten { record });
        }
        let others_best = scan(dir)
            .map(|scan| {
                scan.entries
                    .into_iter()
                    .filter(|entry| entry.user != self.user)
                    .map(|entry| entry.score)
                    .max()
            })
            .unwrap_or(None);

        let text = toml::to_string(&RecordFile {
            score,
            set_at: now_secs(),
        })
        .map_err(|e| SaveError::Io {
            action: "writing",
            path: self.file(dir, Kind::Toml),
            source: io::Error::new(io::ErrorKind::InvalidData, e),
        })?;
        let target = self.file(dir, Kind::Toml);
        let temp = self.write_temp(dir, text.as_bytes())?;
        if let Err(e) = fs::rename(&temp, &target) {
            // Best effort: the temporary file is ours and useless now.
            let _ = fs::remove_file(&temp);
            return Err(io_error("replacing", &target)(e));
        }
        dir_file
            .sync_all()
            .map_err(io_error("flushing the score directory", dir))?;
        Ok(SaveOutcome::Saved {
            best_of_all: others_best.is_none_or(|best| score > best),
        })
    }

    /// The stored record, re-read under the lock. A symlink at `<user>.toml`
    /// counts as no record (it is replaced, never read through); any other
    /// unusable `<user>.toml` stops the save. A bad `.cscore` is ignored:
    /// it is never written, so no save can lower it.
    fn stored_for_save(&self, dir: &Path) -> Result<Option<u64>, SaveError> {
        let path = self.file(dir, Kind::Toml);
        let toml = match read_record(&path, Kind::Toml) {
            Ok(record) => record,
            Err(SkipReason::Symlink) => None,
            Err(reason) => return Err(SaveError::StoredUnreadable(Skipped { path, reason })),
        };
        let cscore = read_record(&self.file(dir, Kind::Cscore), Kind::Cscore).unwrap_or(None);
        Ok(higher(toml, cscore).map(|record| record.score))
    }

    /// Writes `bytes` to a new hidden file in `dir`, fsynced, and returns
    /// its path. Created exclusively and without following symlinks, so
    /// nothing planted under its name is written through.
    fn write_temp(&self, dir: &Path, bytes: &[u8]) -> Result<PathBuf, SaveError> {
        let pid = std::process::id();
        loop {
            let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
            let path = dir.join(format!(".{}.toml.{pid}.{n}.tmp", self.user));
            let file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o644)
                .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
                .open(&path);
            let mut file = match file {
                // Left over by a crashed game with our pid: take the next name.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(SaveError::Io {
                        action: "creating",
                        path,
                        source: e,
                    });
                }
                Ok(file) => file,
            };
            let written = file.write_all(bytes).and_then(|()| file.sync_all());
            return match written {
                Ok(()) => Ok(path),
                Err(source) => {
                    // Best effort: a half-written temporary file is useless.
                    let _ = fs::remove_file(&path);
                    Err(SaveError::Io {
                        action: "writing",
                        path,
                        source,
                    })
                }
            };
        }
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

/// Takes an exclusive `flock` on the open directory, waiting up to
/// [`LOCK_WAIT`] so that a stuck process cannot hang our exit forever.
/// Closing the descriptor releases it.
fn lock(dir_file: &File, dir: &Path) -> Result<(), SaveError> {
    let deadline = Instant::now() + LOCK_WAIT;
    loop {
        // SAFETY: flock on a descriptor we own for the call's duration.
        let rc = unsafe { libc::flock(dir_file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if rc == 0 {
            return Ok(());
        }
        let error = io::Error::last_os_error();
        match error.raw_os_error() {
            Some(libc::EINTR) => continue,
            Some(libc::EWOULDBLOCK) if Instant::now() < deadline => std::thread::sleep(LOCK_RETRY),
            Some(libc::EWOULDBLOCK) => {
                return Err(SaveError::Locked {
                    path: dir.to_path_buf(),
                });
            }
            _ => {
                return Err(SaveError::Io {
                    action: "locking",
                    path: dir.to_path_buf(),
                    source: error,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{PermissionsExt, symlink};

    fn temp_dir() -> tempfile::TempDir {
        tempfile::tempdir().expect("a temporary directory")
    }

    fn cscore_bytes(magic: u32, version: u32, score: i32) -> Vec<u8> {
        [
            magic.to_be_bytes(),
            version.to_be_bytes(),
            score.to_be_bytes(),
        ]
        .concat()
    }

    fn write_toml(dir: &Path, user: &str, score: u64) {
        fs::write(
            dir.join(format!("{user}.toml")),
            format!("score = {score}\nset_at = 1700000000\n"),
        )
        .unwrap();
    }

    fn entry(user: &str, score: u64) -> Entry {
        Entry {
            user: user.to_string(),
            score,
        }
    }

    fn store(dir: &Path, user: &str) -> Store {
        Store::new(dir, user).unwrap()
    }

    /// Whether permission bits stop this process (not so for root).
    fn permissions_apply(dir: &Path) -> bool {
        let probe = dir.join("probe");
        fs::create_dir(&probe).unwrap();
        fs::set_permissions(&probe, fs::Permissions::from_mode(0o555)).unwrap();
        let applies = fs::write(probe.join("file"), b"x").is_err();
        fs::set_permissions(&probe, fs::Permissions::from_mode(0o755)).unwrap();
        fs::remove_dir_all(&probe).unwrap();
        applies
    }

    #[test]
    fn safe_user_names() {
        for name in ["alice", "Bob_2", "a.b-c", "x", "0"] {
            assert!(check_user_name(name).is_ok(), "{name}");
        }
        for name in ["", ".hidden", "..", "a/b", "a b", "é", "a\0b", "x*"] {
            let error = check_user_name(name).unwrap_err();
            assert!(
                error
                    .to_string()
                    .starts_with("records are off: the user name"),
                "{error}"
            );
        }
    }

    #[test]
    fn current_user_is_the_real_one() {
        // SAFETY: no preconditions.
        let uid = unsafe { libc::getuid() };
        let id = std::process::Command::new("id")
            .arg("-un")
            .output()
            .expect("id(1) runs");
        // In a container the uid may have no name; then both must say so.
        if !id.status.success() {
            assert!(matches!(passwd_name(uid), Err(UserError::Unknown { .. })));
            return;
        }
        let name = passwd_name(uid).unwrap();
        assert_eq!(String::from_utf8_lossy(&id.stdout).trim(), name);
        if check_user_name(&name).is_ok() {
            assert_eq!(current_user().unwrap(), name);
        }
    }

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

    #[test]
    fn score_dir_precedence() {
        let config = Path::new("/config/dir");
        let platform = || Some(PathBuf::from("/platform/dir"));
        let unused = || -> Option<PathBuf> { panic!("platform directory asked for") };
        assert_eq!(
            resolve_score_dir(Some("/env/dir".into()), Some(config), unused),
            Some(PathBuf::from("/env/dir"))
        );
        assert_eq!(
            resolve_score_dir(Some("".into()), Some(config), unused),
            Some(PathBuf::from("/config/dir"))
        );
        assert_eq!(
            resolve_score_dir(None, None, platform),
            Some(PathBuf::from("/platform/dir"))
        );
        assert_eq!(resolve_score_dir(None, None, || None), None);
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
        let fifo =
            std::ffi::CString::new(path("pipe.cscore").into_os_string().into_encoded_bytes())
                .unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
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
        assert_eq!(
            other_best.hi_line(100),
            Some(other(100)),
            "a tie is not a win"
        );
        assert_eq!(other_best.hi_line(101), Some(HiLine::Own { score: 101 }));

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
    }

    #[test]
    fn hi_line_texts() {
        let own = HiLine::Own { score: 250 };
        assert_eq!(own.full_text(), "=[ hi : 250 ]=");
        assert_eq!(own.mini_text(), "[ hi : 250 ]");
        let other = HiLine::Other {
            name: "bob".to_string(),
            score: 300,
            you: 12,
        };
        assert_eq!(other.full_text(), "=[ hi -- bob:300 you:12 ]=");
        assert_eq!(other.mini_text(), "[ hi : 300 ]");
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
