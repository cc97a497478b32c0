//! Helpers shared by the records' unit tests.

use std::fs;
use std::ops::Range;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{Index, select};

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

/// One way a file on disk goes wrong: edited by hand, cut short by a crash
/// or corrupted. Each says where by an index into what it is applied to.
#[derive(Clone, Debug)]
pub(super) enum Damage {
    /// A byte replaced by another.
    Byte(Index, u8),
    /// One bit of a byte flipped.
    Bit(Index, u8),
    /// Everything from a point on lost.
    Cut(Index),
    /// Bytes put in, not always UTF-8.
    Insert(Index, Vec<u8>),
    /// A line removed.
    DropLine(Index),
    /// A line written twice.
    RepeatLine(Index),
    /// Two lines swapped.
    SwapLines(Index, Index),
    /// A number written as something else: a run of digits that is not
    /// part of a name (`w9`) or of hexadecimal digits.
    Number(Index, &'static str),
}

/// What a hand can make of a number: out of every range the files use,
/// negative, not whole, not a number at all.
const NUMBER_EDITS: [&str; 17] = [
    "-1",
    "-9223372036854775808",
    "0",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "1e3",
    "1.5",
    "0x10",
    "+5",
    "007",
    "nan",
    "x",
    "",
    "\"3\"",
];

/// Any [`Damage`].
pub(super) fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        (any::<Index>(), any::<u8>()).prop_map(|(at, byte)| Damage::Byte(at, byte)),
        (any::<Index>(), 0u8..8).prop_map(|(at, bit)| Damage::Bit(at, bit)),
        any::<Index>().prop_map(Damage::Cut),
        (any::<Index>(), vec(any::<u8>(), 1..4)).prop_map(|(at, bytes)| Damage::Insert(at, bytes)),
        any::<Index>().prop_map(Damage::DropLine),
        any::<Index>().prop_map(Damage::RepeatLine),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Damage::SwapLines(a, b)),
        (any::<Index>(), select(&NUMBER_EDITS[..])).prop_map(|(at, with)| Damage::Number(at, with)),
    ]
}

/// `bytes` with each of `damage` done to them in turn.
pub(super) fn damaged(bytes: &[u8], damage: &[Damage]) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    for damage in damage {
        damage.apply(&mut bytes);
    }
    bytes
}

impl Damage {
    fn apply(&self, bytes: &mut Vec<u8>) {
        // Damage to a part that is not there (no bytes, no number) is none.
        match self {
            Damage::Byte(at, byte) if !bytes.is_empty() => {
                let at = at.index(bytes.len());
                bytes[at] = *byte;
            }
            Damage::Bit(at, bit) if !bytes.is_empty() => {
                let at = at.index(bytes.len());
                bytes[at] ^= 1 << bit;
            }
            Damage::Cut(at) => bytes.truncate(at.index(bytes.len() + 1)),
            Damage::Insert(at, new) => {
                let at = at.index(bytes.len() + 1);
                bytes.splice(at..at, new.iter().copied());
            }
            Damage::DropLine(at) => edit_lines(bytes, |lines| {
                lines.remove(at.index(lines.len()));
            }),
            Damage::RepeatLine(at) => edit_lines(bytes, |lines| {
                let at = at.index(lines.len());
                lines.insert(at, lines[at].clone());
            }),
            Damage::SwapLines(a, b) => edit_lines(bytes, |lines| {
                let len = lines.len();
                lines.swap(a.index(len), b.index(len));
            }),
            Damage::Number(at, with) => {
                let numbers = digit_runs(bytes);
                if !numbers.is_empty() {
                    let range = numbers[at.index(numbers.len())].clone();
                    bytes.splice(range, with.bytes());
                }
            }
            Damage::Byte(..) | Damage::Bit(..) => {}
        }
    }
}

/// Applies `edit` to the lines of `bytes` (each with its newline), if any.
fn edit_lines(bytes: &mut Vec<u8>, edit: impl FnOnce(&mut Vec<Vec<u8>>)) {
    let mut lines: Vec<Vec<u8>> = bytes
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    if !lines.is_empty() {
        edit(&mut lines);
        *bytes = lines.concat();
    }
}

/// Where each number in `bytes` is: each run of ASCII digits with no
/// letter or digit just before or after it.
fn digit_runs(bytes: &[u8]) -> Vec<Range<usize>> {
    let mut runs = Vec::new();
    let mut start = None;
    let mut after_letter = false;
    for (i, &byte) in bytes.iter().chain([&b' ']).enumerate() {
        match (byte.is_ascii_digit(), start) {
            (true, None) if !after_letter => start = Some(i),
            (false, Some(from)) => {
                if !byte.is_ascii_alphabetic() {
                    runs.push(from..i);
                }
                start = None;
            }
            _ => {}
        }
        after_letter = byte.is_ascii_alphanumeric();
    }
    runs
}
