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

/// What is wrong with a TOML file, from the parser's error, in words a
/// player can act on: the line, where the parser gave one, and why, on one
/// line and [`escape`]d. The parser's Rust types are told as what the file
/// may hold: "expected u64" as a whole number, 0 or more, a decimal number
/// past 64 bits ("as i128") as out of TOML's range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TomlProblem {
    /// The line of the file, from 1.
    line: Option<usize>,
    /// Why the file was refused.
    why: String,
}

impl TomlProblem {
    /// The problem `error` found in the TOML text `source`.
    pub fn new(error: &toml::de::Error, source: &str) -> TomlProblem {
        // A missing key comes with an empty span at the start: no place.
        let span = error.span().filter(|span| *span != (0..0));
        let line = span
            .as_ref()
            .and_then(|span| source.get(..span.start))
            .map(|before| before.matches('\n').count() + 1);
        let message = error.message();
        let why = match span.and_then(|span| source.get(span)) {
            Some(number) if message.contains("i128") && is_integer_out_of_range(number) => {
                format!(
                    "the number {} is out of the range TOML holds, {} to {}",
                    quote(number),
                    i64::MIN,
                    i64::MAX
                )
            }
            // The parser names no key; the player's file does.
            Some(key) if message.trim() == "duplicate key" => {
                // Quoted, without its quotes, unless it holds an escape,
                // which only the quotes as typed make sense of: then cut
                // as typed, like any value.
                let key = key.trim();
                let shown = match ['"', '\'']
                    .iter()
                    .find_map(|q| key.strip_prefix(*q)?.strip_suffix(*q))
                {
                    Some(quoted) if quoted.contains('\\') => excerpt(key),
                    Some(quoted) => quote(quoted),
                    None => quote(key),
                };
                format!("the key {shown} is given twice")
            }
            _ => in_players_words(message),
        };
        TomlProblem { line, why }
    }

    /// ` at line N`, or nothing where the parser gave no place.
    pub fn at(&self) -> String {
        self.line
            .map(|n| format!(" at line {n}"))
            .unwrap_or_default()
    }

    /// Why the file was refused.
    pub fn why(&self) -> &str {
        &self.why
    }
}

/// The parser's `message` on one line, escaped, with its Rust types told
/// as what a file may hold.
fn in_players_words(message: &str) -> String {
    let mut words = message.split_whitespace().collect::<Vec<_>>().join(" ");
    let whole = |most: u64| format!("expected a whole number from 0 to {most}");
    // No row for 128 bits: a number past 64 bits is out of TOML's range,
    // which `TomlProblem::new` tells apart.
    let unsigned = [
        ("u8", whole(u8::MAX.into())),
        ("u16", whole(u16::MAX.into())),
        ("u32", whole(u32::MAX.into())),
        ("u64", "expected a whole number, 0 or more".to_string()),
        ("usize", "expected a whole number, 0 or more".to_string()),
    ];
    for (rust, players) in unsigned {
        if let Some(rest) = words.strip_suffix(&format!("expected {rust}")) {
            words = format!("{rest}{players}");
        }
    }
    escape(&words.replace("expected a boolean", "expected true or false"))
}

/// Whether `text` is a decimal integer beyond the 64 bits TOML holds: the
/// parser's own words for one ("as i128") say little to a player.
/// Hexadecimal, octal and binary ones keep them.
fn is_integer_out_of_range(text: &str) -> bool {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    digits.starts_with(|c: char| c.is_ascii_digit())
        && digits.chars().all(|c| c.is_ascii_digit() || c == '_')
        && text.replace('_', "").parse::<i64>().is_err()
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

    /// The parser's words for what a file holds wrong, with its place.
    fn toml_problem<T: serde::de::DeserializeOwned>(source: &str) -> TomlProblem {
        let error = toml::from_str::<T>(source).err().expect("refused");
        TomlProblem::new(&error, source)
    }

    #[test]
    fn a_toml_problem_is_told_as_what_the_file_may_hold() {
        type Numbers = std::collections::BTreeMap<String, u64>;
        type Switches = std::collections::BTreeMap<String, bool>;
        let string = toml_problem::<Numbers>("a = 1\nb = \"x\"\n");
        assert_eq!(string.at(), " at line 2");
        assert_eq!(
            string.why(),
            "invalid type: string \"x\", expected a whole number, 0 or more"
        );
        let negative = toml_problem::<Numbers>("a = -1");
        assert_eq!(
            negative.why(),
            "invalid value: integer `-1`, expected a whole number, 0 or more"
        );
        // A smaller type says where it ends.
        let past = toml_problem::<std::collections::BTreeMap<String, u8>>("a = 300");
        assert_eq!(
            past.why(),
            "invalid value: integer `300`, expected a whole number from 0 to 255"
        );
        let past = toml_problem::<std::collections::BTreeMap<String, u32>>("a = 4294967296");
        assert_eq!(
            past.why(),
            "invalid value: integer `4294967296`, expected a whole number from 0 to 4294967295"
        );
        let number = toml_problem::<Switches>("\n\non = 1");
        assert_eq!(number.at(), " at line 3");
        assert_eq!(
            number.why(),
            "invalid type: integer `1`, expected true or false"
        );
        let huge = toml_problem::<Numbers>("a = 1_000_000_000_000_000_000_000");
        assert_eq!(
            huge.why(),
            "the number \"1_000_000_000_000_000_000_000\" is out of the range TOML holds, \
             -9223372036854775808 to 9223372036854775807"
        );
        // Hexadecimal keeps the parser's words; a syntax error too.
        let hex = toml_problem::<Numbers>("a = 0xffffffffffffffffff");
        assert!(hex.why().contains("i128"), "{}", hex.why());
        let syntax = toml_problem::<toml::Table>("a = [\n");
        assert_eq!(syntax.at(), " at line 1");
        assert_eq!(syntax.why(), "unclosed array, expected `]`");
        #[derive(Debug, serde::Deserialize)]
        struct Needs {
            #[expect(dead_code, reason = "read only to be required")]
            needed: u64,
        }
        let missing = toml_problem::<Needs>("\nother = 1");
        assert_eq!(missing.why(), "missing field `needed`");
        assert_eq!(missing.at(), "");
    }

    #[test]
    fn what_a_toml_problem_quotes_is_escaped() {
        type Numbers = std::collections::BTreeMap<String, u64>;
        let hostile = toml_problem::<Numbers>("a = \"\\u001b]0;x\\u0007\"");
        assert!(
            hostile.why().chars().all(|c| (' '..='~').contains(&c)),
            "{:?}",
            hostile.why()
        );
        // The parser quotes a string with Rust's `{:?}`, which leaves a
        // blank filler as it is.
        let blank = toml_problem::<Numbers>("a = \"\\u3164\"");
        assert!(blank.why().contains("\\u{3164}"), "{:?}", blank.why());
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
