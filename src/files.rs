//! Opening a file that the user or the system names (the config file, a
//! terminfo entry) without trusting what is there: a FIFO would block the
//! open, or the first read, for ever, and a device or directory is no file
//! to read. And reading no more of one than its purpose allows, and
//! telling a path that is missing through a broken symbolic link.

use std::fs::{self, File, FileType, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

use crate::text;

/// The UTF-8 text `reader` holds, when it is at most `max` bytes long: a
/// longer one is refused as soon as its byte past `max` is read, with the
/// reason `too_large` gives (checked before the text, so that where the
/// cut falls cannot change the reason); one that is not UTF-8 is refused
/// as not text. Both refusals are of kind `InvalidData`.
pub fn read_text_within(
    reader: impl Read,
    max: u64,
    too_large: impl FnOnce() -> String,
) -> io::Result<String> {
    let mut bytes = Vec::new();
    reader.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(io::Error::new(io::ErrorKind::InvalidData, too_large()));
    }
    String::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "it is not UTF-8 text"))
}

/// Opens `path` for reading, refusing anything but a regular file
/// (following symbolic links). `O_NONBLOCK` keeps the open of a FIFO from
/// waiting for a writer, and the type is checked on the opened file, so
/// nothing swapped in between a check and the open can slip through. The
/// refusal is an error of kind `IsADirectory` or `InvalidInput` saying what
/// was found instead.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)?;
    let kind = file.metadata()?.file_type();
    if kind.is_file() {
        // Reads of a regular file never block, so O_NONBLOCK may stay.
        return Ok(file);
    }
    let error_kind = if kind.is_dir() {
        io::ErrorKind::IsADirectory
    } else {
        io::ErrorKind::InvalidInput
    };
    Err(io::Error::new(
        error_kind,
        format!("it is {}, not a regular file", describe(kind)),
    ))
}

/// The first of `dir` and the folders above it that is there but is not a
/// directory: what stops `dir` from being a directory or being made one.
pub fn file_in_the_way(dir: &Path) -> Option<&Path> {
    dir.ancestors()
        .find(|path| fs::metadata(path).is_ok_and(|found| !found.is_dir()))
}

/// Why `path` is not found when a symbolic link on the way leads nowhere:
/// `path` itself, or a folder above it (as dotfiles managers link whole
/// folders), its target moved or deleted. Said of `path`, as "it is a
/// symbolic link to …" or "`link` above it is …", with the link's target
/// shown as a path from the link's own folder; `None` when no link on the
/// way leads to nothing.
pub fn broken_link(path: &Path) -> Option<String> {
    path.ancestors().find_map(|link| {
        // Only a target that is not there: one the player may not search
        // (or a loop of links) is there, and its own error says so.
        let missing = fs::metadata(link).is_err_and(|e| e.kind() == io::ErrorKind::NotFound);
        if !is_link(link) || !missing {
            return None;
        }
        let target = fs::read_link(link).ok()?;
        let target = link.parent().unwrap_or(Path::new("")).join(target);
        let subject = if link == path {
            "it".to_string()
        } else {
            format!("{} above it", text::path(link))
        };
        Some(format!(
            "{subject} is a symbolic link to {}, which leads nowhere",
            text::path(&target)
        ))
    })
}

/// Whether `path` itself is a symbolic link.
pub fn is_link(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|found| found.file_type().is_symlink())
}

/// What a file that is not a regular file is, for messages.
fn describe(kind: FileType) -> &'static str {
    if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO (named pipe)"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else {
        "not a regular file"
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;
    use std::process::Command;

    use super::*;

    /// A link whose target is not there is named, on the path itself or
    /// above it; a working link, a plain path, and a loop of links (whose
    /// own error says what is wrong) are not.
    #[test]
    fn only_a_link_to_what_is_not_there_is_broken() {
        let dir = tempfile::tempdir().unwrap();
        let link = |target: &str, name: &str| {
            std::os::unix::fs::symlink(target, dir.path().join(name)).unwrap();
            dir.path().join(name)
        };
        let gone = link("gone", "gone-link");
        assert_eq!(
            broken_link(&gone.join("inner")),
            Some(format!(
                "{} above it is a symbolic link to {}, which leads nowhere",
                gone.display(),
                dir.path().join("gone").display()
            ))
        );
        assert!(
            broken_link(&gone)
                .unwrap()
                .starts_with("it is a symbolic link to ")
        );
        fs::create_dir(dir.path().join("there")).unwrap();
        let working = link("there", "there-link");
        assert_eq!(broken_link(&working.join("missing")), None);
        assert_eq!(broken_link(&dir.path().join("plain")), None);
        let looped = link("loop-b", "loop-a");
        link("loop-a", "loop-b");
        assert_eq!(broken_link(&looped), None);
    }

    #[test]
    fn a_regular_file_is_opened_and_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "width = 5\n").unwrap();
        let mut text = String::new();
        open_regular(&path)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "width = 5\n");
    }

    #[test]
    fn a_fifo_directory_or_device_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        assert!(
            Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        let cases = [
            (
                fifo.as_path(),
                io::ErrorKind::InvalidInput,
                "a FIFO (named pipe)",
            ),
            (dir.path(), io::ErrorKind::IsADirectory, "a directory"),
            (
                Path::new("/dev/null"),
                io::ErrorKind::InvalidInput,
                "a character device",
            ),
        ];
        for (path, kind, what) in cases {
            let error = open_regular(path).unwrap_err();
            assert_eq!(error.kind(), kind, "{path:?}");
            assert_eq!(
                error.to_string(),
                format!("it is {what}, not a regular file")
            );
        }
    }

    #[test]
    fn a_missing_file_keeps_its_error() {
        let dir = tempfile::tempdir().unwrap();
        let error = open_regular(&dir.path().join("missing")).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::NotFound);
    }
}
