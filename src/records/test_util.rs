//! Helpers shared by the records' unit tests.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use super::lookup::ScoreDir;
use super::scan::Entry;
use super::store::Store;

thread_local! {
    /// Set while a test poses as a user other than the real one.
    static POSING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` as if the player were not the real user, so that the links
/// the test makes count as another user's, planted.
pub(super) fn posing_as_another_user<T>(f: impl FnOnce() -> T) -> T {
    /// Ends the pose however `f` ends.
    struct Pose;
    impl Drop for Pose {
        fn drop(&mut self) {
            POSING.with(|posing| posing.set(false));
        }
    }
    POSING.with(|posing| posing.set(true));
    let _pose = Pose;
    f()
}

/// The player's user id as [`super::format`] sees it in tests.
pub(super) fn player_uid() -> u32 {
    let real = super::sys::real_uid();
    match POSING.with(std::cell::Cell::get) {
        true => real.wrapping_add(1),
        false => real,
    }
}

pub(super) fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

/// A records directory `scores` inside `data`, which is its legacy
/// directory, as the platform's data directory is.
pub(super) fn inside_legacy(data: &Path) -> ScoreDir {
    ScoreDir {
        path: data.join("scores"),
        legacy: Some(data.to_path_buf()),
    }
}

pub(super) fn cscore_bytes(magic: u32, version: u32, score: i32) -> Vec<u8> {
    [
        magic.to_be_bytes(),
        version.to_be_bytes(),
        score.to_be_bytes(),
    ]
    .concat()
}

pub(super) fn write_toml(dir: &Path, user: &str, score: u64) {
    fs::write(
        dir.join(format!("{user}.toml")),
        format!("score = {score}\nset_at = 1700000000\n"),
    )
    .unwrap();
}

/// An entry without a date, as the original's files give.
pub(super) fn entry(user: &str, score: u64) -> Entry {
    Entry {
        user: user.to_string(),
        score,
        set_at: None,
    }
}

/// `entries` with their dates left out, to compare with [`entry`]s.
pub(super) fn undated(entries: Vec<Entry>) -> Vec<Entry> {
    entries
        .into_iter()
        .map(|entry| Entry {
            set_at: None,
            ..entry
        })
        .collect()
}

pub(super) fn store(dir: &Path, user: &str) -> Store {
    Store::new(dir, user).unwrap()
}

/// Whether permission bits stop this process (not so for root).
pub(super) fn permissions_apply(dir: &Path) -> bool {
    let probe = dir.join("probe");
    fs::create_dir(&probe).unwrap();
    fs::set_permissions(&probe, fs::Permissions::from_mode(0o555)).unwrap();
    let applies = fs::write(probe.join("file"), b"x").is_err();
    fs::set_permissions(&probe, fs::Permissions::from_mode(0o755)).unwrap();
    fs::remove_dir_all(&probe).unwrap();
    applies
}
