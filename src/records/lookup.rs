//! Where the records live.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The environment variable naming the score directory; it overrides the
/// config file and the platform default.
pub const SCORE_DIR_ENV: &str = "CLINES_SCORE_DIR";

/// Why there is no score directory at all.
pub(super) const NO_DIRECTORY: &str = "no directory for records: \
     set CLINES_SCORE_DIR or score_dir in the config file (no home directory was found)";

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
