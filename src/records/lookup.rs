//! Where the records live.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The environment variable naming the score directory; it overrides the
/// config file and the platform default.
pub const SCORE_DIR_ENV: &str = "CLINES_SCORE_DIR";

/// Why there is no score directory at all.
pub(super) const NO_DIRECTORY: &str = "no directory for records: \
     set CLINES_SCORE_DIR or score_dir in the config file (no home directory was found)";

/// The folder of the platform data directory that holds the records, so
/// that they never mix with other files (on macOS the data directory is
/// also the config directory).
const SCORES_FOLDER: &str = "scores";

/// Where the records are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreDir {
    /// The directory records are read from and saved in.
    pub path: PathBuf,
    /// Where earlier versions saved them by default, the platform data
    /// directory itself: read too, quietly (other files live there), and
    /// never written, so no record is lost by the move. `None` when the
    /// directory was chosen by `$CLINES_SCORE_DIR` or `score_dir`.
    pub legacy: Option<PathBuf>,
}

impl ScoreDir {
    /// Records in `path` alone.
    pub fn new(path: impl Into<PathBuf>) -> ScoreDir {
        ScoreDir {
            path: path.into(),
            legacy: None,
        }
    }
}

/// Where records live: `$CLINES_SCORE_DIR`, else the config file's
/// `score_dir`, else the `scores` folder of the platform data directory;
/// `None` when none is known (no home directory).
pub fn score_dir(config_score_dir: Option<&Path>) -> Option<ScoreDir> {
    resolve_score_dir(
        std::env::var_os(SCORE_DIR_ENV),
        config_score_dir,
        platform_data_dir,
    )
}

/// [`score_dir`] with its inputs given: the environment variable's value and
/// a way to find the platform data directory, asked only when needed. An
/// empty variable counts as unset.
pub fn resolve_score_dir(
    env_value: Option<OsString>,
    config_score_dir: Option<&Path>,
    platform_data_dir: impl FnOnce() -> Option<PathBuf>,
) -> Option<ScoreDir> {
    match (env_value, config_score_dir) {
        (Some(dir), _) if !dir.is_empty() => Some(ScoreDir::new(dir)),
        (_, Some(dir)) => Some(ScoreDir::new(dir)),
        _ => platform_data_dir().map(|data| ScoreDir {
            path: data.join(SCORES_FOLDER),
            legacy: Some(data),
        }),
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
            Some(ScoreDir::new("/env/dir"))
        );
        assert_eq!(
            resolve_score_dir(Some("".into()), Some(config), unused),
            Some(ScoreDir::new("/config/dir"))
        );
        assert_eq!(
            resolve_score_dir(None, None, platform),
            Some(ScoreDir {
                path: PathBuf::from("/platform/dir/scores"),
                legacy: Some(PathBuf::from("/platform/dir")),
            })
        );
        assert_eq!(resolve_score_dir(None, None, || None), None);
    }
}
