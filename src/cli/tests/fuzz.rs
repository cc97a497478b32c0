//! Property tests of the command line and the config file: whatever is
//! typed or written, parsing does not panic, every refusal and warning is
//! safe to print (no control or invisible character, no value repeated
//! past [`text::EXCERPT_CHARS`]), and whatever is accepted is within the
//! bounds the game relies on.

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;

use proptest::prelude::*;
use proptest::test_runner::TestRunner;

use clap::CommandFactory;

use super::*;
use crate::cli::values::{BLACK, unfit_glyph};

/// The short options, flags and those that take a value alike, as clap
/// defines them: a new option is fuzzed as soon as it exists.
fn short_options() -> Vec<char> {
    Args::command()
        .get_arguments()
        .filter_map(clap::Arg::get_short)
        .collect()
}

/// The long options, as clap defines them, and a near miss that clap
/// answers with a suggestion.
fn long_options() -> Vec<String> {
    let command = Args::command();
    let longs = command.get_arguments().filter_map(clap::Arg::get_long);
    longs.chain(["colour"]).map(String::from).collect()
}

/// Values some option accepts, or just misses.
const PLAIN_VALUES: [&str; 30] = [
    "0",
    "1",
    "2",
    "5",
    "9",
    "35",
    "36",
    "81",
    "1000",
    "1001",
    "10000",
    "-1",
    "+3",
    "18446744073709551616",
    "hjkl ",
    "wasd ",
    "hjkl",
    "*Oo",
    "*OoVvAa.'Zz",
    "c",
    "b",
    "7,1,2,3,4,5",
    "7,0,16,300",
    "colors",
    "cells",
    "wide",
    "bash",
    "",
    " ",
    "=",
];

/// Characters a terminal acts on or hides, and others that test the
/// escaping: quotes, a backslash, combining marks, wide and blank glyphs.
const HOSTILE_CHARS: [char; 24] = [
    '\u{1b}', '\u{7}', '\r', '\n', '\t', '\0', '\u{7f}', '\u{9b}', '\u{202e}', '\u{200b}',
    '\u{2028}', '\u{feff}', '\u{301}', '\u{3164}', '\u{2800}', '"', '\\', '\'', '[', ';', 'a', 'é',
    '中', ',',
];

/// Characters no message may hold raw: they are drawn as nothing, or turn
/// the text around. (Control characters are tested apart.)
const INVISIBLE: [char; 14] = [
    '\u{200b}', '\u{200c}', '\u{200d}', '\u{200e}', '\u{200f}', '\u{202a}', '\u{202e}', '\u{2028}',
    '\u{2029}', '\u{2066}', '\u{2069}', '\u{feff}', '\u{3164}', '\u{2800}',
];

/// Text of any kind: plain values, escape sequences, runs of hostile
/// characters long enough to be cut, and any Unicode at all.
fn wild_text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(&PLAIN_VALUES[..]).prop_map(String::from),
        1 => Just("\u{1b}[31mred\u{1b}[0m".to_string()),
        1 => Just("\u{1b}]0;title\u{7}".to_string()),
        2 => prop::collection::vec(prop::sample::select(&HOSTILE_CHARS[..]), 0..8)
            .prop_map(String::from_iter),
        3 => prop::collection::vec(prop::sample::select(&HOSTILE_CHARS[..]), 35..120)
            .prop_map(String::from_iter),
        1 => "[0-9]{15,60}",
        1 => any::<String>(),
    ]
}

/// One argument as bytes: an option in any of its forms, a value, or
/// both, sometimes with a byte that is not UTF-8.
fn argument() -> impl Strategy<Value = Vec<u8>> {
    let short = prop::sample::select(short_options());
    let long = prop::sample::select(long_options());
    let cluster = prop::collection::vec(short.clone(), 1..4).prop_map(String::from_iter);
    let form = prop_oneof![
        short.clone().prop_map(|option| format!("-{option}")),
        (cluster, wild_text()).prop_map(|(options, value)| format!("-{options}{value}")),
        (short, wild_text()).prop_map(|(option, value)| format!("-{option}={value}")),
        long.clone().prop_map(|option| format!("--{option}")),
        (long, wild_text()).prop_map(|(option, value)| format!("--{option}={value}")),
        wild_text(),
        Just("--".to_string()),
    ];
    (
        form,
        prop::option::weighted(0.1, (any::<prop::sample::Index>(), 0x80u8..)),
    )
        .prop_map(|(form, odd)| {
            let mut bytes = form.into_bytes();
            if let Some((at, byte)) = odd {
                bytes.insert(at.index(bytes.len() + 1), byte);
            }
            bytes
        })
}

/// The arguments after the program's name.
fn arguments() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop::collection::vec(argument(), 0..7)
}

/// A config file that sets every key.
const VALID_CONFIG: [&str; 16] = [
    "width = 12",
    "height = 8",
    "colors = 6",
    "line = 4",
    "next = 2",
    "first = 7",
    "keys = \"wasd \"",
    "font = \"#@.\"",
    "bw_font = \"*AaBbCcDdEeFf\"",
    "mode = \"b\"",
    "palette = [15, 1, 2, 3, 4, 5, 6]",
    "preview = \"colors\"",
    "cells = \"wide\"",
    "autoplay = true",
    "autoplay_delay = 500",
    "score_dir = \"/srv/clines\"",
];

/// Lines that are not TOML, or not a key and its value.
const BROKEN_LINES: [&str; 10] = [
    "[table]",
    "[[array]]",
    "width",
    "= 3",
    "keys = \"unterminated",
    "keys = '''",
    "palette = [1, 2",
    "width = 1 2",
    "font = { a = 1 }",
    "\"\\u{1b}\" = 1",
];

/// `text` as a TOML basic string on one line, every control character
/// escaped.
fn basic_string(text: &str) -> String {
    let mut quoted = String::from('"');
    for c in text.chars() {
        match c {
            '"' | '\\' => quoted.extend(['\\', c]),
            _ if c.is_control() => quoted.push_str(&format!("\\u{:04X}", u32::from(c))),
            _ => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// `text` quoted in TOML, with what a message may not repeat whole:
/// the text, and the quoted form within its quotes (a message may add
/// quotes of its own, or keep the opening one of a key shown as typed).
fn quoted(text: String, quote: fn(&str) -> String) -> (String, Vec<String>) {
    let written = quote(&text);
    let within = written[1..written.len() - 1].to_string();
    (written, vec![text, within])
}

/// A key: one the file may hold, or not, bare or quoted; with what a
/// message may not repeat whole.
fn config_key() -> impl Strategy<Value = (String, Vec<String>)> {
    prop_oneof![
        3 => prop::sample::select(&CONFIG_KEYS[..]).prop_map(|key| (key.to_string(), Vec::new())),
        1 => "[A-Za-z0-9_-]{1,60}".prop_map(|key| (key.clone(), vec![key])),
        2 => wild_text().prop_map(|key| quoted(key, basic_string)),
    ]
}

/// A TOML value of any type; with what a message may not repeat whole.
fn toml_value() -> impl Strategy<Value = (String, Vec<String>)> {
    let number = prop_oneof![
        (0i64..1200).prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        "[0-9]{19,45}",
        "-[0-9]{19,45}",
        "0x[0-9a-f]{1,20}",
        Just("1_000".to_string()),
        Just("2.5".to_string()),
        Just("inf".to_string()),
        Just("1979-05-27".to_string()),
    ];
    let array = |written: String| (written.clone(), vec![written]);
    prop_oneof![
        3 => number.prop_map(|n| (n.clone(), vec![n])),
        1 => any::<bool>().prop_map(|b| (b.to_string(), Vec::new())),
        3 => wild_text().prop_map(|text| quoted(text, basic_string)),
        1 => wild_text().prop_map(|text| quoted(text, |text| format!("'{text}'"))),
        1 => prop::collection::vec(-20i64..300, 0..40)
            .prop_map(move |numbers| array(toml::Value::from(numbers).to_string())),
        1 => prop::collection::vec(wild_text(), 0..4)
            .prop_map(move |texts| array(toml::Value::from(texts).to_string())),
    ]
}

/// A line that a valid config file does not hold: a key, known or not,
/// with a value of any kind, a broken line, or wild text; with what a
/// message may not repeat whole. (A refusal names the key beside the
/// value: the two may repeat more than the excerpt together.)
fn odd_line() -> impl Strategy<Value = (String, Vec<String>)> {
    prop_oneof![
        8 => (config_key(), toml_value()).prop_map(|((key, mut inputs), (value, more))| {
            inputs.extend(more);
            (format!("{key} = {value}"), inputs)
        }),
        1 => prop::sample::select(&BROKEN_LINES[..])
            .prop_map(|line| (line.to_string(), Vec::new())),
        1 => wild_text().prop_map(|line| (line.clone(), vec![line])),
    ]
}

/// `line` of a valid config file, mostly kept; else dropped, its value
/// replaced, or the line replaced by an odd one.
fn mutated_line(line: &'static str) -> impl Strategy<Value = Option<(String, Vec<String>)>> {
    let key = &line[..line.find(" = ").unwrap_or(0)];
    prop_oneof![
        8 => Just(Some((line.to_string(), Vec::new()))),
        1 => Just(None),
        4 => toml_value()
            .prop_map(move |(value, inputs)| Some((format!("{key} = {value}"), inputs))),
        1 => odd_line().prop_map(Some),
    ]
}

/// A config file as bytes, and the texts to look for in messages: the
/// valid file's lines mutated and shuffled, a few odd lines after them,
/// sometimes a line repeated, an odd one where there is one. Its lines
/// end in LF or CR LF; a few hold a byte that is not UTF-8.
fn config_file() -> impl Strategy<Value = (Vec<u8>, Vec<String>)> {
    let lines: Vec<_> = VALID_CONFIG.iter().map(|line| mutated_line(line)).collect();
    (
        lines.prop_shuffle(),
        prop::collection::vec(odd_line(), 0..2),
        prop::option::weighted(0.5, any::<prop::sample::Index>()),
        prop::sample::select(&["\n", "\r\n"][..]),
        prop::option::weighted(0.05, (any::<prop::sample::Index>(), 0x80u8..)),
    )
        .prop_map(|(lines, odd, repeated, end, odd_byte)| {
            let repeated = match (repeated, odd.is_empty()) {
                (Some(index), false) => Some(index.get(&odd).clone()),
                (Some(index), true) if !lines.is_empty() => index.get(&lines).clone(),
                _ => None,
            };
            let lines: Vec<_> = lines
                .into_iter()
                .flatten()
                .chain(odd)
                .chain(repeated)
                .collect();
            let mut text = String::new();
            let mut inputs = Vec::new();
            for (line, strings) in lines {
                text.push_str(&line);
                text.push_str(end);
                inputs.extend(strings);
            }
            let mut bytes = text.into_bytes();
            if let Some((at, byte)) = odd_byte {
                bytes.insert(at.index(bytes.len() + 1), byte);
            }
            (bytes, inputs)
        })
}

/// How far into an input a value may start: past its option
/// (`--autoplay-delay=`) and a byte that is not UTF-8. Messages show a
/// value from its start.
const VALUE_STARTS: usize = 20;

/// Asserts that `message` is safe to print: not empty, no control
/// character but newline, nothing invisible, each line as [`text::escape`]
/// leaves it, and no part of `inputs` longer than the excerpt repeated
/// from where a value may start.
fn assert_safe(message: &str, inputs: &[String]) {
    assert!(!message.trim().is_empty(), "an empty message");
    if let Some(c) = message
        .chars()
        .find(|&c| (c.is_control() && c != '\n') || INVISIBLE.contains(&c))
    {
        panic!("{c:?} raw in {message:?}");
    }
    for line in message.lines() {
        assert_eq!(text::escape(line), line, "not escaped in {message:?}");
    }
    for input in inputs {
        let chars: Vec<char> = input.chars().collect();
        let starts = chars.windows(text::EXCERPT_CHARS + 1).take(VALUE_STARTS);
        for window in starts {
            let window = String::from_iter(window);
            for shown in [text::escape(&window), window] {
                assert!(
                    !message.contains(&shown),
                    "{shown:?}, longer than the excerpt, repeated in {message:?}"
                );
            }
        }
    }
}

/// Asserts what the game relies on of an accepted command: rules the
/// engine accepts, keys it can tell apart, glyphs that draw, a colour
/// number for the cursor and each colour where colour may be drawn, none
/// black.
fn assert_playable(command: &Command, no_color: bool) {
    let rules = match command {
        Command::Play(play) => &play.rules,
        Command::Batch { rules, .. } | Command::List { rules, .. } => rules,
        Command::Completions(_) => return,
    };
    assert_eq!(rules.validate(), Ok(()), "{rules:?}");
    let Command::Play(play) = command else {
        return;
    };
    assert!(play.autoplay_delay <= Duration::from_millis(MAX_AUTOPLAY_DELAY_MS as u64));
    let look = &play.appearance;
    let keys = look.keys.in_order();
    for (i, key) in keys.iter().enumerate() {
        assert!(!keys[..i].contains(key), "{keys:?} repeat a key");
    }
    let glyphs = look.font.in_order();
    for glyph in glyphs.iter().chain(&look.bw_font) {
        assert_eq!(unfit_glyph(*glyph), None, "{glyph:?}");
    }
    let colors = usize::from(rules.colors);
    if look.mode != Some(ColorMode::Color) {
        assert!(look.bw_font.len() > 2 * colors, "{:?}", look.bw_font);
    }
    if no_color && look.mode.is_none() {
        panic!("NO_COLOR set, yet the terminal chooses the mode");
    }
    // Black and white draws no colour, so takes a palette of any length.
    if look.mode == Some(ColorMode::Mono) {
        assert!(look.palette.len() <= colors + 1, "{:?}", look.palette);
    } else {
        assert_eq!(look.palette.len(), colors + 1, "{:?}", look.palette);
    }
    assert!(
        look.palette.iter().all(|n| !BLACK.contains(n)),
        "{:?}",
        look.palette
    );
}

/// Parses `args` in `env`, and checks the outcome: a command the game can
/// play, or a message safe to print, with warnings that are too.
fn check(args: Vec<Vec<u8>>, env: &Environment, inputs: &[String]) {
    let argv =
        std::iter::once(OsString::from("clines")).chain(args.into_iter().map(OsString::from_vec));
    match parse_in(argv, env) {
        Ok(parsed) => {
            assert_playable(&parsed.command, env.no_color);
            for warning in &parsed.warnings {
                assert_safe(&warning.text, inputs);
            }
        }
        Err(error) => assert_safe(&error.to_string(), inputs),
    }
}

/// The arguments as text, for finding them in messages.
fn as_text(args: &[Vec<u8>]) -> Vec<String> {
    args.iter()
        .map(|arg| String::from_utf8_lossy(arg).into_owned())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, ..ProptestConfig::default() })]

    #[test]
    fn no_command_line_panics_and_every_refusal_is_safe_to_print(
        args in arguments(),
        no_color in any::<bool>(),
    ) {
        let inputs = as_text(&args);
        let env = Environment { no_color, ..plain() };
        check(args, &env, &inputs);
    }
}

/// Config files are written over one another in one directory: a
/// directory for each would take most of the test's time.
#[test]
fn no_config_file_panics_and_every_refusal_and_warning_is_safe_to_print() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let cases = (
        config_file(),
        // Mostly none: wild ones are refused before the file is read.
        prop::option::weighted(0.25, argument()),
        any::<bool>(),
        any::<bool>(),
    );
    let mut runner = TestRunner::new(ProptestConfig::with_cases(192));
    let outcome = runner.run(&cases, |((file, mut inputs), arg, required, no_color)| {
        let args = Vec::from_iter(arg);
        fs::write(&path, file).unwrap();
        let env = Environment {
            config: Some(ConfigLocation {
                path: path.clone(),
                required,
            }),
            no_color,
        };
        inputs.extend(as_text(&args));
        check(args, &env, &inputs);
        Ok(())
    });
    if let Err(failure) = outcome {
        panic!("{failure}");
    }
}

/// Characters that make fine keys and glyphs.
const PLAIN_GLYPHS: [char; 12] = ['h', 'j', 'k', 'l', '*', 'O', 'o', '.', '#', '@', '=', 'é'];

/// Characters a key or a glyph may not be, or not every one: control,
/// white space, double-width, combining, blank.
const UNFIT_GLYPHS: [char; 8] = [
    ' ', '\t', '\u{1b}', '\u{1}', '中', '\u{301}', '\u{3164}', '\u{2800}',
];

/// A number near the ranges the rules accept: mostly small, some at a
/// bound or past.
fn near_number() -> impl Strategy<Value = usize> {
    prop_oneof![
        6 => 1usize..10,
        1 => 0usize..12,
        1 => 30usize..40,
        1 => prop::sample::select(&[81, 999, 1000, 1001, 10_000, 10_001, 1_000_000][..]),
        1 => 0usize..1_000_001,
    ]
}

/// Keys or glyphs: mostly `count` different plain ones, some of any
/// number, drawn from a few so that they repeat, mostly unfit.
fn near_glyphs(count: usize) -> impl Strategy<Value = String> {
    let any_glyph = prop_oneof![
        1 => prop::sample::select(&PLAIN_GLYPHS[..3]),
        2 => prop::sample::select(&UNFIT_GLYPHS[..]),
    ];
    let lengths = prop_oneof![3 => Just(count), 1 => count - 1..count + 2];
    prop_oneof![
        1 => prop::sample::subsequence(&PLAIN_GLYPHS[..], count)
            .prop_shuffle()
            .prop_map(String::from_iter),
        1 => lengths
            .prop_flat_map(move |length| prop::collection::vec(any_glyph.clone(), length))
            .prop_map(String::from_iter),
    ]
}

/// Black-and-white glyphs: mostly plain ones, about as many as a few
/// colours need, or the default 5 colours.
fn near_bw_glyphs() -> impl Strategy<Value = String> {
    let plain = prop::sample::select(&PLAIN_GLYPHS[..]);
    prop_oneof![
        2 => prop::collection::vec(plain.clone(), 9..14),
        2 => prop::collection::vec(plain, 1..24),
        1 => prop::collection::vec(prop::sample::select(&UNFIT_GLYPHS[..]), 0..3),
    ]
    .prop_map(String::from_iter)
}

/// A list of colour numbers, some black or past 255.
fn near_palette() -> impl Strategy<Value = Vec<usize>> {
    let number = prop_oneof![
        6 => 1usize..256,
        1 => prop::sample::select(&[0, 16, 255, 256][..]),
    ];
    prop::collection::vec(number, 0..12)
}

/// A setting near what is accepted, as the option name of the command
/// line (long, without dashes) and its value, or `None` for a flag.
fn near_setting() -> impl Strategy<Value = (&'static str, Option<String>)> {
    let number = |name: &'static str| near_number().prop_map(move |n| (name, Some(n.to_string())));
    let choice = |name: &'static str, names: &'static [&'static str]| {
        prop::sample::select(names).prop_map(move |value| (name, Some(value.to_string())))
    };
    prop_oneof![
        number("width"),
        number("height"),
        number("colors"),
        number("line"),
        number("next"),
        number("first"),
        number("autoplay-delay"),
        near_glyphs(5).prop_map(|keys| ("keys", Some(keys))),
        near_glyphs(3).prop_map(|font| ("font", Some(font))),
        near_bw_glyphs().prop_map(|font| ("bw-font", Some(font))),
        choice("mode", &["c", "b", "C", "color", "x", ""]),
        near_palette().prop_map(|list| {
            let list: Vec<String> = list.iter().map(usize::to_string).collect();
            ("palette", Some(list.join(",")))
        }),
        choice("preview", &["off", "colors", "cells", "x"]),
        choice("cells", &["square", "wide", "x"]),
        choice("seed", &["0", "18446744073709551615"]),
        prop::sample::select(&["list", "batch", "new", "autoplay", "no-autoplay"][..])
            .prop_map(|flag| (flag, None)),
    ]
}

/// `setting` in the config file, as TOML: `None` for the flags it has
/// no key for.
fn config_entry((name, value): &(&'static str, Option<String>)) -> Option<String> {
    let key = name.replace('-', "_");
    match (name, value) {
        (&"autoplay", None) => Some("autoplay = true".to_string()),
        (_, None) | (&"seed", _) => None,
        (&"palette", Some(list)) => Some(format!("palette = [{list}]")),
        (_, Some(value)) => match value.parse::<usize>() {
            Ok(number) => Some(format!("{key} = {number}")),
            Err(_) => Some(format!("{key} = {}", basic_string(value))),
        },
    }
}

/// The config files are written over one another in one directory, as
/// in [`no_config_file_panics_and_every_refusal_and_warning_is_safe_to_print`].
#[test]
fn whatever_the_options_and_config_file_accept_the_game_can_play() {
    let dir = tempfile::tempdir().unwrap();
    let cases = (
        prop::collection::vec(near_setting(), 0..4),
        prop::collection::vec(near_setting(), 0..4),
        any::<bool>(),
    );
    let mut runner = TestRunner::new(ProptestConfig::with_cases(512));
    let outcome = runner.run(&cases, |(options, entries, no_color)| {
        let file: Vec<String> = entries.iter().filter_map(config_entry).collect();
        let env = Environment {
            no_color,
            ..with_config(dir.path(), &file.join("\n"))
        };
        let args: Vec<Vec<u8>> = options
            .into_iter()
            .map(|(name, value)| match value {
                Some(value) => format!("--{name}={value}").into_bytes(),
                None => format!("--{name}").into_bytes(),
            })
            .collect();
        let inputs = as_text(&args);
        check(args, &env, &inputs);
        Ok(())
    });
    if let Err(failure) = outcome {
        panic!("{failure}");
    }
}
