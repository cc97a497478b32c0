//! Text from outside (commands, option values, file and user names) made
//! safe to quote in a message: what a terminal would act on or hide
//! (control characters, escape sequences, bidirectional overrides,
//! zero-width and line-separator characters) is written as a visible
//! `\u{..}` escape, and long values are cut to a readable excerpt.
//!
//! Every message that repeats something the user or a file supplied goes
//! through [`quote`], [`excerpt`] or [`escape`], so no input can move the
//! cursor, retitle the window or fill the screen.

use std::path::Path;

/// How many characters of a value a message shows before cutting it.
pub const EXCERPT_CHARS: usize = 40;

/// `text` with every character a terminal would not simply show replaced by
/// its `\u{..}` escape; everything else, backslashes and quotes included,
/// unchanged. For names shown bare (a file or user name).
pub fn escape(text: &str) -> String {
    visible(text, false)
}

/// [`escape`]d, and cut after [`EXCERPT_CHARS`] characters with `…`.
/// For a value shown bare, such as `-o 7,1,2`.
pub fn excerpt(text: &str) -> String {
    let (head, cut) = head(text);
    let mut shown = visible(head, false);
    if cut {
        shown.push('…');
    }
    shown
}

/// `text` in double quotes, as Rust writes a string literal (`"`, `\` and
/// every invisible character escaped), cut like [`excerpt`]: `"hjkl "`,
/// `"\u{1b}]0;x"`, `"aaaa…"`.
pub fn quote(text: &str) -> String {
    let (head, cut) = head(text);
    let mut shown = String::from('"');
    shown.push_str(&visible(head, true));
    if cut {
        shown.push('…');
    }
    shown.push('"');
    shown
}

/// A path shown bare: [`escape`]d, with bytes that are not UTF-8 replaced.
pub fn path(path: &Path) -> String {
    escape(&path.to_string_lossy())
}

/// The first [`EXCERPT_CHARS`] characters of `text`, and whether that cut
/// anything off.
fn head(text: &str) -> (&str, bool) {
    match text.char_indices().nth(EXCERPT_CHARS) {
        Some((end, _)) => (&text[..end], true),
        None => (text, false),
    }
}

/// Characters that draw nothing although they are neither white space nor
/// unprintable: fillers and the blank braille pattern. Messages show them
/// escaped; glyphs may not be one.
pub const BLANKS: [char; 5] = ['\u{115f}', '\u{1160}', '\u{2800}', '\u{3164}', '\u{ffa0}'];

/// `text` with what a terminal would act on or not show escaped. Rust's
/// own test of what is printable decides: it escapes control, format,
/// separator and unassigned characters; [`BLANKS`] are escaped too. A
/// combining mark is kept only on a letter shown as itself; at the start
/// or after an escape it would land on something else. Quotes and
/// backslashes stay as they are unless `quoting`.
fn visible(text: &str, quoting: bool) -> String {
    let mut shown = String::with_capacity(text.len());
    let mut after_plain = false;
    for c in text.chars() {
        let escaped = c.escape_debug();
        let plain = match c {
            '\'' => true,
            '"' | '\\' => !quoting,
            _ if BLANKS.contains(&c) => false,
            _ if escaped.len() == 1 => true,
            // Escaped on its own but printable after a letter: a combining
            // mark.
            _ => after_plain && format!("x{c}").escape_debug().count() == 2,
        };
        if plain {
            shown.push(c);
        } else if BLANKS.contains(&c) {
            shown.extend(c.escape_unicode());
        } else {
            shown.extend(escaped);
        }
        after_plain = plain;
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_unchanged() {
        assert_eq!(escape("Zoë O'Brien \\ \"x\""), "Zoë O'Brien \\ \"x\"");
        // A combining mark after its letter, as in decomposed file names.
        assert_eq!(escape("Zoe\u{308}"), "Zoe\u{308}");
        assert_eq!(excerpt("7,1,2,3,4,5"), "7,1,2,3,4,5");
        assert_eq!(quote("hjkl "), "\"hjkl \"");
    }

    #[test]
    fn what_a_terminal_acts_on_is_escaped() {
        let hostile =
            "\u{1b}]0;pwned\u{7}\r\n\t\u{9b}\u{202e}\u{200b}\u{2028}\u{a0}\u{301}\u{2800}\u{3164}";
        for shown in [escape(hostile), excerpt(hostile), quote(hostile)] {
            assert!(
                shown.chars().all(|c| (' '..='~').contains(&c) || c == '…'),
                "{shown:?}"
            );
            assert!(shown.contains("\\u{1b}]0;pwned\\u{7}"), "{shown}");
            assert!(shown.contains("\\u{202e}"), "{shown}");
            assert!(shown.contains("\\u{2800}\\u{3164}"), "{shown}");
        }
    }

    #[test]
    fn quoting_escapes_quotes_and_backslashes() {
        assert_eq!(quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
    }

    #[test]
    fn long_values_are_cut() {
        let long = "k".repeat(1_000_000);
        let cut = "k".repeat(EXCERPT_CHARS);
        assert_eq!(excerpt(&long), format!("{cut}…"));
        assert_eq!(quote(&long), format!("\"{cut}…\""));
        assert_eq!(quote(&cut), format!("\"{cut}\""));
        // Escape is for names, which are never cut.
        assert_eq!(escape(&long), long);
    }

    #[cfg(unix)]
    #[test]
    fn paths_that_are_not_utf8_are_shown() {
        use std::os::unix::ffi::OsStrExt;
        let name = std::ffi::OsStr::from_bytes(b"/tmp/x\xff\x1b[31m.toml");
        assert_eq!(path(Path::new(name)), "/tmp/x\u{fffd}\\u{1b}[31m.toml");
    }
}
