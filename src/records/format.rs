//! The two kinds of record file: ours, `<user>.toml`, and the original's,
//! `<user>.cscore`, read without following symlinks or hanging on pipes.

use std::fmt;
use std::fs::OpenOptions;
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// First four bytes of an original `.cscore` file (big-endian).
pub(super) const CSCORE_MAGIC: u32 = 0xC001_CEED;
/// The only `.cscore` format version there is.
const CSCORE_VERSION: u32 = 1;
/// A `.cscore` file: magic, version, score, each four bytes.
const CSCORE_LEN: usize = 12;
/// No record file is anywhere near this long; a longer one is not ours.
const MAX_RECORD_BYTES: u64 = 4096;

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

/// The text of a `<user>.toml` file holding `score`, set at `set_at`.
pub(super) fn toml_text(score: u64, set_at: u64) -> Result<String, toml::ser::Error> {
    toml::to_string(&RecordFile { score, set_at })
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

/// Reads one record file without following a symlink; `Ok(None)` when it
/// does not exist.
pub(super) fn read_record(path: &Path, kind: Kind) -> Result<Option<Record>, SkipReason> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::test_util::cscore_bytes;

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
