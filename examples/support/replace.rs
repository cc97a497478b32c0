//! Replacing a file a tool writes whole (`examples/train.rs`'s table,
//! `examples/linkorder.rs`'s linker script): the new contents go to a
//! temporary file beside it, renamed over it once whole, so that a write
//! interrupted or failed (a full disk) leaves the old file as it was.

use std::fs::{self, Permissions};
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

/// A file on its way to replacing another.
pub struct Replacement {
    out: PathBuf,
    file: NamedTempFile,
}

impl Replacement {
    /// The temporary file beside `out`, made at once, so that a path that
    /// cannot be written fails before any work; it goes when dropped
    /// unwritten.
    ///
    /// # Errors
    /// When `out` is a directory, or its directory cannot be written.
    pub fn new(out: &Path) -> io::Result<Replacement> {
        if out.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                "it is a directory",
            ));
        }
        let dir = match out.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        Ok(Replacement {
            out: out.to_path_buf(),
            file: NamedTempFile::new_in(dir)?,
        })
    }

    /// Writes `bytes` whole, then renames the file over `out`. It keeps
    /// the old file's permissions, or a new file's usual 0644 (the
    /// temporary file is private, 0600).
    ///
    /// # Errors
    /// When a write fails; `out` is then left as it was.
    pub fn write(self, bytes: &[u8]) -> io::Result<()> {
        let permissions = match fs::metadata(&self.out) {
            Ok(old) => old.permissions(),
            Err(_) => Permissions::from_mode(0o644),
        };
        let mut file = self.file;
        file.as_file().set_permissions(permissions)?;
        file.write_all(bytes)?;
        file.as_file().sync_all()?;
        file.persist(&self.out).map_err(|e| e.error)?;
        Ok(())
    }
}
