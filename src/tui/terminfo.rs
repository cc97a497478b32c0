//! How many colours the terminal has, whether it can move its cursor and
//! whether it erases in the colour set, read from its compiled terminfo
//! entry the way ncurses finds it.
//! crossterm only guesses from `COLORTERM` and `TERM` and never answers
//! fewer than 8, so a `vt100` or `xterm-mono` would otherwise be drawn in
//! colour; and it sends cursor moves to any terminal, even a `dumb` one.
//!
//! [`search_dirs`] and [`find_capabilities`] take the environment as
//! arguments and the `parse_` functions are pure, so each can be tested on
//! its own; the `terminal_` functions wire them to the real environment,
//! whose entry is read once.

use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::files;

/// The directories ncurses searches after the environment's, in its order.
const SYSTEM_DIRS: [&str; 4] = [
    "/etc/terminfo",
    "/lib/terminfo",
    "/usr/share/terminfo",
    "/usr/lib/terminfo",
];

/// Magic number of the legacy format, with 16-bit numbers.
const LEGACY_MAGIC: u16 = 0o432;
/// Magic number of the extended-number format, with 32-bit numbers.
const EXTENDED_MAGIC: u16 = 0o1036;
/// Bytes of the header: magic and five section sizes, 16 bits each.
const HEADER_LEN: usize = 12;
/// Index of `back_color_erase` (`bce`) among the boolean capabilities.
const BACK_COLOR_ERASE_INDEX: usize = 28;
/// Index of `colors` among the numeric capabilities.
const COLORS_INDEX: usize = 13;
/// Index of `cursor_address` (`cup`) among the string capabilities.
const CURSOR_ADDRESS_INDEX: usize = 10;
/// ncurses reads no more of an entry than this; the numbers come long before.
const MAX_ENTRY_SIZE: u64 = 32768;
/// Bytes first set aside for an entry: more than xterm-256color's 3 912.
const ENTRY_CAPACITY: usize = 8192;

/// The colours of `$TERM` as its terminfo entry gives them: `None` when
/// `TERM` is unset or no readable entry for it is found.
pub fn terminal_colors() -> Option<u32> {
    process_capabilities().colors
}

/// Whether `$TERM` can move its cursor to any cell, as its terminfo entry
/// says: `None` when `TERM` is unset or no readable entry for it is found.
pub fn terminal_cursor_address() -> Option<bool> {
    process_capabilities().cursor_address
}

/// Whether `$TERM` erases in the background colour set, as its terminfo
/// entry says: `None` when `TERM` is unset or no readable entry for it is
/// found.
pub fn terminal_back_color_erase() -> Option<bool> {
    process_capabilities().back_color_erase
}

/// What a terminal's terminfo entries say, each capability from the first
/// entry that gives it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Capabilities {
    /// See [`parse_colors`].
    pub colors: Option<u32>,
    /// See [`parse_cursor_address`].
    pub cursor_address: Option<bool>,
    /// See [`parse_back_color_erase`].
    pub back_color_erase: Option<bool>,
}

/// [`find_capabilities`] for `$TERM` in this process's environment, read
/// once: the start-up asks for each capability at a different moment.
fn process_capabilities() -> Capabilities {
    static FOUND: OnceLock<Capabilities> = OnceLock::new();
    *FOUND.get_or_init(|| match std::env::var("TERM") {
        Ok(term) => find_capabilities(&term, &process_search_dirs()),
        Err(_) => Capabilities::default(),
    })
}

/// [`search_dirs`] for this process's environment.
fn process_search_dirs() -> Vec<PathBuf> {
    search_dirs(
        std::env::var_os("TERMINFO").as_deref(),
        std::env::var_os("HOME").as_deref(),
        std::env::var_os("TERMINFO_DIRS").as_deref(),
    )
}

/// The directories to search, first to last: `terminfo` (`$TERMINFO`),
/// `~/.terminfo`, each entry of `terminfo_dirs` (`$TERMINFO_DIRS`, an empty
/// entry standing for the system directories), then the system directories.
/// Unset or empty variables add nothing.
pub fn search_dirs(
    terminfo: Option<&OsStr>,
    home: Option<&OsStr>,
    terminfo_dirs: Option<&OsStr>,
) -> Vec<PathBuf> {
    let system = || SYSTEM_DIRS.iter().map(PathBuf::from);
    let mut dirs = Vec::new();
    dirs.extend(terminfo.filter(|dir| !dir.is_empty()).map(PathBuf::from));
    dirs.extend(
        home.filter(|home| !home.is_empty())
            .map(|home| Path::new(home).join(".terminfo")),
    );
    if let Some(list) = terminfo_dirs.filter(|list| !list.is_empty()) {
        for dir in std::env::split_paths(list) {
            if dir.as_os_str().is_empty() {
                dirs.extend(system());
            } else {
                dirs.push(dir);
            }
        }
    }
    dirs.extend(system());
    dirs
}

/// The capabilities of the terminal `term`: each from the first readable
/// entry named `term` in `dirs` that gives it, each entry tried as
/// `<dir>/<first character>/<term>` then `<dir>/<first byte in
/// hex>/<term>` (the layout of case-insensitive file systems), and each
/// file read at most once. `None` for a capability no entry gives, or when
/// `term` is not a plain file name.
pub fn find_capabilities(term: &str, dirs: &[PathBuf]) -> Capabilities {
    let mut found = Capabilities::default();
    let Some(first) = term.chars().next() else {
        return found;
    };
    if term == "." || term == ".." || term.contains('/') {
        return found;
    }
    let letter = first.to_string();
    let hex = format!("{:02x}", term.as_bytes()[0]);
    let paths = dirs
        .iter()
        .flat_map(|dir| [dir.join(&letter).join(term), dir.join(&hex).join(term)]);
    for path in paths {
        let Some(entry) = read_entry(&path) else {
            continue;
        };
        found.colors = found.colors.or_else(|| parse_colors(&entry));
        found.cursor_address = found
            .cursor_address
            .or_else(|| parse_cursor_address(&entry));
        found.back_color_erase = found
            .back_color_erase
            .or_else(|| parse_back_color_erase(&entry));
        if found.colors.is_some()
            && found.cursor_address.is_some()
            && found.back_color_erase.is_some()
        {
            break;
        }
    }
    found
}

/// The first [`MAX_ENTRY_SIZE`] bytes of the file at `path`, if it is a
/// readable regular file. Anything else (a FIFO would hang the start) is
/// passed over like a missing entry, as the search goes on to the next.
fn read_entry(path: &Path) -> Option<Vec<u8>> {
    // Room for a whole common entry, so it comes in one read rather than
    // in reads of 32, 64, 128... bytes.
    let mut bytes = Vec::with_capacity(ENTRY_CAPACITY);
    files::open_regular(path)
        .ok()?
        .take(MAX_ENTRY_SIZE)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(bytes)
}

/// Where the sections of a compiled terminfo entry are.
struct Sections {
    /// Where the booleans start, one byte each, and how many there are.
    booleans_start: usize,
    booleans: usize,
    /// Bytes per number: 2 in the legacy format, 4 in the extended one.
    number_width: usize,
    /// Where the numbers start, and how many there are.
    numbers_start: usize,
    numbers: usize,
    /// How many string capabilities there are; their offsets follow the
    /// numbers.
    strings: usize,
}

impl Sections {
    /// The sections of `entry`, in the legacy or the extended-number
    /// format; `None` when `entry` is not a compiled entry.
    fn of(entry: &[u8]) -> Option<Sections> {
        let header = |i: usize| -> Option<u16> {
            let at = 2 * i;
            Some(u16::from_le_bytes(entry.get(at..at + 2)?.try_into().ok()?))
        };
        let number_width = match header(0)? {
            LEGACY_MAGIC => 2,
            EXTENDED_MAGIC => 4,
            _ => return None,
        };
        // Negative sizes are invalid; as u16 they are above i16::MAX.
        let size = |i: usize| header(i).filter(|&n| n <= i16::MAX as u16).map(usize::from);
        let (names, booleans, numbers, strings) = (size(1)?, size(2)?, size(3)?, size(4)?);
        let start = HEADER_LEN + names + booleans;
        // The numbers start on an even byte.
        Some(Sections {
            booleans_start: HEADER_LEN + names,
            booleans,
            number_width,
            numbers_start: start + start % 2,
            numbers,
            strings,
        })
    }

    /// Where the string offsets start.
    fn strings_start(&self) -> usize {
        self.numbers_start + self.numbers * self.number_width
    }
}

/// The `colors` capability of a compiled terminfo entry, in the legacy or
/// the extended-number format: 0 when the entry lacks it (absent or
/// cancelled), as such a terminal has no colours. `None` when `entry` is
/// not a compiled entry or is cut short before its numbers end.
pub fn parse_colors(entry: &[u8]) -> Option<u32> {
    let sections = Sections::of(entry)?;
    let (start, width) = (sections.numbers_start, sections.number_width);
    let section = entry.get(start..sections.strings_start())?;
    let Some(colors) = section.chunks_exact(width).nth(COLORS_INDEX) else {
        return Some(0);
    };
    let colors = match *colors {
        [a, b] => i32::from(i16::from_le_bytes([a, b])),
        [a, b, c, d] => i32::from_le_bytes([a, b, c, d]),
        _ => return None,
    };
    // -1 is absent, -2 cancelled.
    Some(u32::try_from(colors).unwrap_or(0))
}

/// Whether a compiled terminfo entry has the `bce` capability: the terminal
/// erases (clears the screen) in the background colour set, not in its
/// own default background. False when absent or cancelled. `None` when
/// `entry` is not a compiled entry or is cut short before its booleans
/// end.
pub fn parse_back_color_erase(entry: &[u8]) -> Option<bool> {
    let sections = Sections::of(entry)?;
    let start = sections.booleans_start;
    let booleans = entry.get(start..start + sections.booleans)?;
    // 1 is set; 0 absent, -2 cancelled.
    Some(booleans.get(BACK_COLOR_ERASE_INDEX) == Some(&1))
}

/// Whether a compiled terminfo entry has the `cup` capability (moving the
/// cursor to any row and column): false when absent or cancelled. `None`
/// when `entry` is not a compiled entry or is cut short before the string
/// offsets end.
pub fn parse_cursor_address(entry: &[u8]) -> Option<bool> {
    let sections = Sections::of(entry)?;
    let start = sections.strings_start();
    let offsets = entry.get(start..start + 2 * sections.strings)?;
    let Some(offset) = offsets.chunks_exact(2).nth(CURSOR_ADDRESS_INDEX) else {
        return Some(false);
    };
    // -1 is absent, -2 cancelled.
    Some(i16::from_le_bytes([offset[0], offset[1]]) >= 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A compiled entry with these names, booleans and numbers (`None`
    /// written as -1), in the extended format when `extended`, and no
    /// strings.
    fn entry(extended: bool, names: &str, booleans: usize, numbers: &[Option<i32>]) -> Vec<u8> {
        let magic = if extended {
            EXTENDED_MAGIC
        } else {
            LEGACY_MAGIC
        };
        let names = format!("{names}\0");
        let mut bytes = Vec::new();
        for word in [
            magic,
            names.len() as u16,
            booleans as u16,
            numbers.len() as u16,
            0,
            0,
        ] {
            bytes.extend(word.to_le_bytes());
        }
        bytes.extend(names.as_bytes());
        bytes.extend(std::iter::repeat_n(1, booleans));
        if bytes.len() % 2 == 1 {
            bytes.push(0);
        }
        for number in numbers {
            let number = number.unwrap_or(-1);
            if extended {
                bytes.extend(number.to_le_bytes());
            } else {
                bytes.extend((number as i16).to_le_bytes());
            }
        }
        bytes
    }

    /// Numbers up to and including `colors`, the others 80 (like `cols`).
    fn numbers_with_colors(colors: Option<i32>) -> Vec<Option<i32>> {
        let mut numbers = vec![Some(80); COLORS_INDEX];
        numbers.push(colors);
        numbers.push(Some(64));
        numbers
    }

    #[test]
    fn legacy_entries_give_their_colours() {
        for (booleans, colors) in [(29, 8), (30, 256), (0, 0), (1, 88)] {
            let bytes = entry(
                false,
                "t|test",
                booleans,
                &numbers_with_colors(Some(colors)),
            );
            assert_eq!(
                parse_colors(&bytes),
                Some(colors as u32),
                "{booleans} booleans"
            );
        }
    }

    #[test]
    fn extended_entries_give_their_32_bit_colours() {
        for colors in [8, 256, 0x100_0000] {
            let bytes = entry(true, "t|test", 37, &numbers_with_colors(Some(colors)));
            assert_eq!(parse_colors(&bytes), Some(colors as u32));
        }
    }

    #[test]
    fn absent_or_cancelled_colours_are_none_at_all() {
        for extended in [false, true] {
            let absent = entry(extended, "t", 2, &numbers_with_colors(None));
            assert_eq!(parse_colors(&absent), Some(0));
            let cancelled = entry(extended, "t", 2, &numbers_with_colors(Some(-2)));
            assert_eq!(parse_colors(&cancelled), Some(0));
            let too_few_numbers = entry(extended, "t", 2, &[Some(80); COLORS_INDEX]);
            assert_eq!(parse_colors(&too_few_numbers), Some(0));
            let no_numbers = entry(extended, "t", 2, &[]);
            assert_eq!(parse_colors(&no_numbers), Some(0));
        }
    }

    #[test]
    fn cut_short_or_garbage_entries_are_refused() {
        for extended in [false, true] {
            let whole = entry(extended, "t|test", 3, &numbers_with_colors(Some(8)));
            assert_eq!(parse_colors(&whole), Some(8));
            for len in 0..whole.len() {
                assert_eq!(parse_colors(&whole[..len]), None, "cut to {len} bytes");
            }
        }
        let mut negative_size = entry(false, "t", 3, &numbers_with_colors(Some(8)));
        negative_size[2..4].copy_from_slice(&(-1i16).to_le_bytes());
        assert_eq!(parse_colors(&negative_size), None);
        let mut wrong_magic = entry(false, "t", 3, &numbers_with_colors(Some(8)));
        wrong_magic[0] ^= 1;
        assert_eq!(parse_colors(&wrong_magic), None);
        assert_eq!(
            parse_colors(b"#\tReconstructed via infocmp\nxterm|...,\n"),
            None
        );
        let huge_sizes: Vec<u8> = [LEGACY_MAGIC, 0x7fff, 0x7fff, 0x7fff, 0x7fff, 0x7fff]
            .iter()
            .flat_map(|word| word.to_le_bytes())
            .collect();
        assert_eq!(parse_colors(&huge_sizes), None);
    }

    /// `bytes`, an entry with no strings, given these string offsets
    /// (`None` written as -1) after its numbers.
    fn with_strings(mut bytes: Vec<u8>, offsets: &[Option<i16>]) -> Vec<u8> {
        bytes[8..10].copy_from_slice(&(offsets.len() as u16).to_le_bytes());
        for offset in offsets {
            bytes.extend(offset.unwrap_or(-1).to_le_bytes());
        }
        bytes
    }

    #[test]
    fn cursor_addressing_is_read_from_the_string_offsets() {
        for extended in [false, true] {
            let base = || entry(extended, "t|test", 3, &numbers_with_colors(Some(8)));
            let mut offsets = vec![Some(0); CURSOR_ADDRESS_INDEX + 2];
            let whole = with_strings(base(), &offsets);
            assert_eq!(parse_cursor_address(&whole), Some(true));
            assert_eq!(parse_colors(&whole), Some(8), "the numbers still read");
            for len in 0..whole.len() {
                assert_eq!(
                    parse_cursor_address(&whole[..len]),
                    None,
                    "cut to {len} bytes"
                );
            }
            for missing in [None, Some(-2)] {
                offsets[CURSOR_ADDRESS_INDEX] = missing;
                let without = with_strings(base(), &offsets);
                assert_eq!(parse_cursor_address(&without), Some(false), "{missing:?}");
            }
            let too_few = with_strings(base(), &[Some(0); CURSOR_ADDRESS_INDEX]);
            assert_eq!(parse_cursor_address(&too_few), Some(false));
            assert_eq!(parse_cursor_address(&base()), Some(false));
        }
        assert_eq!(parse_cursor_address(b"not an entry"), None);
    }

    #[test]
    fn back_colour_erase_is_read_from_the_booleans() {
        for extended in [false, true] {
            let with =
                |booleans| entry(extended, "t|test", booleans, &numbers_with_colors(Some(8)));
            let whole = with(BACK_COLOR_ERASE_INDEX + 1);
            assert_eq!(parse_back_color_erase(&whole), Some(true));
            assert_eq!(parse_colors(&whole), Some(8), "the numbers still read");
            let at = HEADER_LEN + "t|test\0".len() + BACK_COLOR_ERASE_INDEX;
            for len in 0..=at {
                assert_eq!(
                    parse_back_color_erase(&whole[..len]),
                    None,
                    "cut to {len} bytes"
                );
            }
            for unset in [0, -2i8 as u8] {
                let mut without = whole.clone();
                without[at] = unset;
                assert_eq!(parse_back_color_erase(&without), Some(false), "{unset}");
            }
            let too_few = with(BACK_COLOR_ERASE_INDEX);
            assert_eq!(parse_back_color_erase(&too_few), Some(false));
        }
        assert_eq!(parse_back_color_erase(b"not an entry"), None);
    }

    #[test]
    fn each_capability_comes_from_the_first_entry_that_gives_it() {
        let root = tempfile::tempdir().unwrap();
        let (first, second) = (root.path().join("first"), root.path().join("second"));
        let dirs = [first.clone(), second.clone()];
        let with_cup = |colors| {
            let offsets = vec![Some(0); CURSOR_ADDRESS_INDEX + 1];
            let numbers = numbers_with_colors(Some(colors));
            with_strings(entry(false, "x", 1, &numbers), &offsets)
        };
        // Its numbers are whole, its string offsets cut short.
        let whole = with_cup(16);
        let cut = &whole[..whole.len() - 1];
        assert_eq!(
            (parse_colors(cut), parse_cursor_address(cut)),
            (Some(16), None)
        );
        install(&first, "x", "xterm", cut);
        install(&second, "x", "xterm", &with_cup(256));
        let both = Capabilities {
            colors: Some(16),
            cursor_address: Some(true),
            back_color_erase: Some(false),
        };
        assert_eq!(find_capabilities("xterm", &dirs), both);
        assert_eq!(find_capabilities("kitty", &dirs), Capabilities::default());
    }

    #[test]
    fn the_search_follows_ncurses_order() {
        let dirs = search_dirs(
            Some(OsStr::new("/ti")),
            Some(OsStr::new("/home/me")),
            Some(OsStr::new("/a::/b")),
        );
        let mut expected = vec![
            PathBuf::from("/ti"),
            PathBuf::from("/home/me/.terminfo"),
            PathBuf::from("/a"),
        ];
        expected.extend(SYSTEM_DIRS.iter().map(PathBuf::from));
        expected.push(PathBuf::from("/b"));
        expected.extend(SYSTEM_DIRS.iter().map(PathBuf::from));
        assert_eq!(dirs, expected);

        let unset = search_dirs(None, Some(OsStr::new("")), Some(OsStr::new("")));
        assert_eq!(unset, SYSTEM_DIRS.map(PathBuf::from).to_vec());
    }

    /// Writes `bytes` to `dir/sub/name`.
    fn install(dir: &Path, sub: &str, name: &str, bytes: &[u8]) {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        std::fs::write(dir.join(sub).join(name), bytes).unwrap();
    }

    #[test]
    fn entries_are_found_in_both_layouts_first_directory_first() {
        let root = tempfile::tempdir().unwrap();
        let (first, second) = (root.path().join("first"), root.path().join("second"));
        let dirs = [first.clone(), second.clone()];
        let colors = |n| entry(false, "x", 1, &numbers_with_colors(Some(n)));

        install(&second, "x", "xterm", &colors(8));
        assert_eq!(find_capabilities("xterm", &dirs).colors, Some(8));
        install(&first, "78", "xterm", &colors(256));
        assert_eq!(
            find_capabilities("xterm", &dirs).colors,
            Some(256),
            "hex layout, earlier dir"
        );
        install(&first, "x", "xterm", &colors(16));
        assert_eq!(
            find_capabilities("xterm", &dirs).colors,
            Some(16),
            "letter before hex"
        );

        install(&first, "v", "vt100", b"not a terminfo entry");
        install(&second, "v", "vt100", &colors(0));
        assert_eq!(
            find_capabilities("vt100", &dirs).colors,
            Some(0),
            "garbage is skipped"
        );

        assert_eq!(find_capabilities("kitty", &dirs).colors, None);
        assert_eq!(find_capabilities("", &dirs).colors, None);
        // Found as first/./../second/x/xterm if paths were let through.
        assert_eq!(find_capabilities("../second/x/xterm", &dirs).colors, None);
    }

    #[test]
    fn a_fifo_or_directory_in_the_way_is_passed_over() {
        let root = tempfile::tempdir().unwrap();
        let (first, second) = (root.path().join("first"), root.path().join("second"));
        install(
            &second,
            "x",
            "xterm",
            &entry(false, "x", 1, &numbers_with_colors(Some(8))),
        );
        std::fs::create_dir_all(first.join("x").join("xterm")).unwrap();
        std::fs::create_dir_all(first.join("78")).unwrap();
        let fifo = first.join("78").join("xterm");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        let dirs = vec![first, second];
        // On a thread, so that a hang fails the test instead of stalling it.
        let (send, found) = std::sync::mpsc::channel();
        std::thread::spawn(move || send.send(find_capabilities("xterm", &dirs).colors));
        let found = found.recv_timeout(std::time::Duration::from_secs(30));
        assert_eq!(found, Ok(Some(8)));
    }

    #[test]
    fn system_entries_give_the_known_colours() {
        let dirs = search_dirs(None, None, None);
        let known = [("xterm-256color", 256), ("xterm", 8), ("vt100", 0)];
        let installed = |term: &str| {
            let first = &term[..1];
            dirs.iter().any(|dir| dir.join(first).join(term).is_file())
        };
        if !known.iter().all(|(term, _)| installed(term)) {
            eprintln!(
                "skipping: the system terminfo entries for {known:?} are not all installed \
                 (install ncurses-base)"
            );
            return;
        }
        for (term, colors) in known {
            assert_eq!(
                find_capabilities(term, &dirs).colors,
                Some(colors),
                "{term}"
            );
            assert_eq!(
                find_capabilities(term, &dirs).cursor_address,
                Some(true),
                "{term}"
            );
        }
        if installed("dumb") {
            assert_eq!(find_capabilities("dumb", &dirs).cursor_address, Some(false));
        }
        for (term, bce) in [
            ("xterm-256color", true),
            ("vt100", false),
            ("screen", false),
        ] {
            if installed(term) {
                assert_eq!(
                    find_capabilities(term, &dirs).back_color_erase,
                    Some(bce),
                    "{term}"
                );
            }
        }
    }
}
