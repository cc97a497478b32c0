//! Where the records live.

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::text;

/// The environment variable naming the records directory; it overrides the
/// config file and the platform default.
pub const SCORE_DIR_ENV: &str = "CLINES_SCORE_DIR";

/// Why there is no records directory at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoScoreDir {
    /// Neither `$CLINES_SCORE_DIR` nor `score_dir` names one, and no home
    /// directory was found to hold the platform's.
    NoHome,
    /// `$CLINES_SCORE_DIR` holds this relative path, which would put the
    /// records wherever clines was started; refused, as the config file's
    /// `score_dir` refuses one.
    Relative(OsString),
    /// The platform's data directory, found from a relative `$HOME`, is
    /// this relative path: it too would follow where clines was started.
    RelativeHome(PathBuf),
}

impl fmt::Display for NoScoreDir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no directory for records: ")?;
        match self {
            NoScoreDir::NoHome => f.write_str(
                "set CLINES_SCORE_DIR or score_dir in the config file \
                 (no home directory was found)",
            ),
            NoScoreDir::Relative(value) => write!(
                f,
                "{SCORE_DIR_ENV}={}: expected an absolute directory path, not one \
                 relative to where clines is started",
                text::quote(&value.to_string_lossy())
            ),
            NoScoreDir::RelativeHome(data) => write!(
                f,
                "set CLINES_SCORE_DIR or score_dir in the config file (the data directory \
                 found from HOME, {}, is relative to where clines is started)",
                text::quote(&data.to_string_lossy())
            ),
        }
    }
}

impl std::error::Error for NoScoreDir {}

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
/// an error when none is known (no home directory) or the variable holds a
/// relative path.
pub fn score_dir(config_score_dir: Option<&Path>) -> Result<ScoreDir, NoScoreDir> {
    resolve_score_dir(
        std::env::var_os(SCORE_DIR_ENV),
        config_score_dir,
        platform_data_dir,
    )
}

/// [`score_dir`] with its inputs given: the environment variable's value and
/// a way to find the platform data directory, asked only when needed. An
/// empty variable counts as unset; a relative one is refused rather than
/// passed over, so that the player learns why no record is kept.
pub fn resolve_score_dir(
    env_value: Option<OsString>,
    config_score_dir: Option<&Path>,
    platform_data_dir: impl FnOnce() -> Option<PathBuf>,
) -> Result<ScoreDir, NoScoreDir> {
    match (env_value, config_score_dir) {
        (Some(dir), _) if !dir.is_empty() => {
            if Path::new(&dir).is_absolute() {
                Ok(ScoreDir::new(dir))
            } else {
                Err(NoScoreDir::Relative(dir))
            }
        }
        (_, Some(dir)) => Ok(ScoreDir::new(dir)),
        _ => match platform_data_dir() {
            Some(data) if data.is_relative() => Err(NoScoreDir::RelativeHome(data)),
            Some(data) => Ok(ScoreDir {
                path: data.join(SCORES_FOLDER),
                legacy: Some(data),
            }),
            None => Err(NoScoreDir::NoHome),
        },
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
            Ok(ScoreDir::new("/env/dir"))
        );
        assert_eq!(
            resolve_score_dir(Some("".into()), Some(config), unused),
            Ok(ScoreDir::new("/config/dir"))
        );
        assert_eq!(
            resolve_score_dir(None, None, platform),
            Ok(ScoreDir {
                path: PathBuf::from("/platform/dir/scores"),
                legacy: Some(PathBuf::from("/platform/dir")),
            })
        );
        assert_eq!(
            resolve_score_dir(None, None, || None),
            Err(NoScoreDir::NoHome)
        );
    }

    #[test]
    fn a_data_directory_from_a_relative_home_is_refused() {
        let relative = || Some(PathBuf::from("home/.local/share/clines"));
        let refusal = resolve_score_dir(None, None, relative).unwrap_err();
        assert_eq!(
            refusal,
            NoScoreDir::RelativeHome("home/.local/share/clines".into())
        );
        assert!(
            refusal.to_string().contains("CLINES_SCORE_DIR"),
            "{refusal}"
        );
        // The variable or the config file still name one.
        let config = Path::new("/config/dir");
        assert_eq!(
            resolve_score_dir(None, Some(config), relative),
            Ok(ScoreDir::new("/config/dir"))
        );
    }

    #[test]
    fn a_relative_score_dir_variable_is_refused() {
        let config = Path::new("/config/dir");
        let unused = || -> Option<PathBuf> { panic!("platform directory asked for") };
        for relative in ["rel", "./scores", "../x", "scores/", "~/scores"] {
            // Neither the config's directory nor the platform's stands in:
            // the player asked for this one.
            assert_eq!(
                resolve_score_dir(Some(relative.into()), Some(config), unused),
                Err(NoScoreDir::Relative(relative.into())),
            );
        }
        let refusal = resolve_score_dir(Some("my scores".into()), None, unused).unwrap_err();
        assert_eq!(
            refusal.to_string(),
            "no directory for records: CLINES_SCORE_DIR=\"my scores\": expected an absolute \
             directory path, not one relative to where clines is started"
        );
        // Escaped: the value could hold anything.
        let refusal = resolve_score_dir(Some("a\u{1b}[2J".into()), None, unused).unwrap_err();
        assert!(!refusal.to_string().contains('\u{1b}'), "{refusal}");
    }
}
