//! Property tests of the protocol as the manual states it: arbitrary
//! sessions (real commands with good and bad arguments, junk, control
//! characters, bytes that are not UTF-8, over-long lines, CRLF endings, no
//! final newline) under small and odd rules, read in chunks of any size.
//! Every line gets the answers it is promised, error answers are one
//! visible line, and what the answers show of the game stays consistent.

use std::io::BufReader;

use proptest::prelude::*;

use super::*;
use crate::game::strategies;

/// The rules of a small game, odd ones included: one colour, lines of 2,
/// no throws between moves.
fn small_rules() -> impl Strategy<Value = Rules> {
    // Mostly boards moves can be made on; a side of one now and then.
    let side = || prop_oneof![1 => Just(1usize), 6 => 2usize..=6];
    strategies::rules(side(), side(), 1u8..=12, 2usize..=5, 0usize..=4, 1usize..=4)
}

/// One argument: a coordinate or colour in or off a small board, one too
/// large, signed, a colour as `board` shows it, or junk with characters a
/// terminal would act on or hide.
fn argument() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (0usize..7).prop_map(|n| n.to_string()),
        1 => Just("99999999999999999999999999".to_string()),
        1 => Just(usize::MAX.to_string()),
        1 => prop::sample::select(vec!["-1", "+2", "0x1", "1.5", "٣", "."]).prop_map(String::from),
        2 => "[.0-9a-z]",
        2 => "[\\x00-\\x7f\u{85}\u{feff}\u{202e}\u{2028}\u{200b}\u{301}é€]{1,8}",
    ]
}

/// A command word of the protocol and the number of arguments it takes.
fn known_command() -> impl Strategy<Value = (&'static str, usize)> {
    prop_oneof![
        4 => Just(("move", 4)),
        3 => Just(("put", 3)),
        2 => Just(("undo", 0)),
        3 => prop::sample::select(vec![
            ("board", 0),
            ("status", 0),
            ("clear", 0),
            ("hint", 0),
            ("next", 0),
            ("rules", 0),
        ]),
    ]
}

/// A command word with its arguments: mostly one of the protocol's with
/// as many small numbers as it takes, so that games move on; else with
/// any arguments, or a word it does not know. `quit` is rare, so that
/// sessions go on.
fn command() -> impl Strategy<Value = (String, Vec<String>)> {
    let small = prop::collection::vec((0usize..5).prop_map(|n| n.to_string()), 4);
    prop_oneof![
        12 => (known_command(), small).prop_map(|((command, count), mut args)| {
            args.truncate(count);
            (command.to_string(), args)
        }),
        6 => (known_command(), prop::collection::vec(argument(), 0..=6))
            .prop_map(|((command, _), args)| (command.to_string(), args)),
        1 => Just(("quit".to_string(), Vec::new())),
        2 => (
            prop_oneof![
                prop::sample::select(vec!["MOVE", "Board", "stat", "\u{feff}status", "#x", "quit"])
                    .prop_map(String::from),
                "[\\x00-\\x7f\u{1b}\u{202e}]{1,10}",
            ],
            prop::collection::vec(argument(), 0..=2),
        ),
    ]
}

/// The white space between words.
fn space() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![" ", " ", " ", "  ", "\t", "\u{3000}", "\u{a0}", "\r"])
}

/// A command line.
fn command_line() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::sample::select(vec!["", "", "", " ", "\u{feff}", "\t"]),
        command(),
        prop::collection::vec(space(), 6),
    )
        .prop_map(|(lead, (command, args), spaces)| {
            let mut line = format!("{lead}{command}");
            for (space, arg) in spaces.into_iter().zip(args) {
                line.push_str(space);
                line.push_str(&arg);
            }
            line.into_bytes()
        })
}

/// A chip put on a cell, then a move of it: few moves of chips picked
/// blindly find one.
fn put_and_move() -> impl Strategy<Value = Vec<u8>> {
    (0usize..4, 0usize..4, 1u8..=3, 0usize..4, 0usize..4).prop_map(|(x, y, c, to_x, to_y)| {
        format!("put {x} {y} {c}\nmove {x} {y} {to_x} {to_y}").into_bytes()
    })
}

/// Any line of a session, without its end; or two.
fn any_line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        30 => command_line(),
        8 => put_and_move(),
        3 => prop::collection::vec(any::<u8>(), 0..24),
        2 => prop::sample::select(vec!["", " ", "\t \u{3000}", "# a comment", "  #status"])
            .prop_map(|line| line.as_bytes().to_vec()),
        1 => (MAX_LINE_BYTES - 2..MAX_LINE_BYTES + 40, prop::sample::select(vec![
            "m", " ", "#", "\u{3000}", "\u{feff}", "\u{e9}"
        ]))
            .prop_map(|(len, fill)| fill.repeat(len / fill.len()).into_bytes()),
        1 => (MAX_LINE_BYTES - 8..MAX_LINE_BYTES + 8, command_line()).prop_map(|(len, command)| {
            let mut line = vec![b' '; len];
            line.extend(command);
            line
        }),
    ]
}

/// A session's input: lines ending in `\n` or `\r\n`, the last maybe with
/// no end at all.
fn session() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec((any_line(), prop::bool::weighted(0.2)), 0..40),
        any::<bool>(),
    )
        .prop_map(|(lines, last_ended)| {
            let mut input = Vec::new();
            let count = lines.len();
            for (i, (line, crlf)) in lines.into_iter().enumerate() {
                input.extend(line);
                if i + 1 < count || last_ended {
                    input.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
                }
            }
            input
        })
}

/// Characters a terminal would act on or hide, which no answer may hold
/// raw: control characters, zero-width and direction marks, line and
/// paragraph separators, the byte-order mark.
fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

/// The values of `key=value` words of an answer, in order, checking the
/// keys.
fn values<'a>(answer: &'a str, keys: &[&str]) -> Vec<&'a str> {
    let words: Vec<&str> = answer.split(' ').collect();
    assert_eq!(words.len(), keys.len(), "{answer:?}");
    words
        .iter()
        .zip(keys)
        .map(|(word, key)| {
            let (found, value) = word.split_once('=').unwrap_or_else(|| panic!("{answer:?}"));
            assert_eq!(found, *key, "{answer:?}");
            value
        })
        .collect()
}

fn number(text: &str) -> u64 {
    assert!(
        !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()),
        "not a number: {text:?}"
    );
    text.parse().unwrap()
}

/// What the answers have shown of the game since it last changed: each
/// check compares an answer with what an earlier one showed.
#[derive(Default)]
struct Shown {
    score: Option<u64>,
    free: Option<usize>,
    over: Option<bool>,
}

/// The settings a session was started with.
struct Session {
    rules: Rules,
    preview: Preview,
    seed: u64,
}

/// The answers promised to one input line, taken from `answers` and
/// checked; `false` once the session has ended.
fn check_line(
    line: &[u8],
    session: &Session,
    answers: &mut std::vec::IntoIter<&str>,
    shown: &mut Shown,
) -> bool {
    let text = String::from_utf8_lossy(line);
    let trimmed = text.trim_start_matches('\u{feff}').trim();
    // A comment or a blank line is skipped, however long.
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return true;
    }
    let mut next = || {
        answers
            .next()
            .unwrap_or_else(|| panic!("no answer to {text:?}"))
    };
    if line.len() > MAX_LINE_BYTES {
        let answer = next();
        assert!(answer.starts_with("error: line longer than"), "{answer:?}");
        return true;
    }
    let words: Vec<&str> = trimmed.split_whitespace().collect();
    if words == ["quit"] {
        return false;
    }
    if words == ["board"] {
        let rows: Vec<&str> = (0..session.rules.height).map(|_| next()).collect();
        check_board(&rows, session.rules, shown);
        return true;
    }
    let answer = next();
    if let Some(message) = answer.strip_prefix("error: ") {
        assert!(!message.is_empty());
        if ![
            "board", "status", "move", "put", "clear", "hint", "next", "undo", "rules", "quit",
        ]
        .contains(&words[0])
        {
            assert!(message.starts_with("unknown command \""), "{answer:?}");
            assert!(message.contains("(commands: "), "{answer:?}");
        }
        // A command that fails changes nothing: `shown` stands.
        return true;
    }
    check_success(words[0], answer, session, shown);
    true
}

/// The rows that `board` printed: the rules' size, every cell empty or a
/// colour of the rules, and as many free cells as shown before.
fn check_board(rows: &[&str], rules: Rules, shown: &mut Shown) {
    let mut free = 0;
    for row in rows {
        assert_eq!(row.chars().count(), rules.width, "{row:?}");
        for c in row.chars() {
            match c {
                '.' => free += 1,
                _ => {
                    let color = board::color_of_char(c).unwrap_or_else(|| panic!("{row:?}"));
                    assert!(color <= rules.colors, "{row:?}");
                }
            }
        }
    }
    assert_eq!(*shown.free.get_or_insert(free), free, "board after status");
}

/// The answer of `command` that succeeded, as the manual writes it, and
/// consistent with what was shown before.
fn check_success(command: &str, answer: &str, session: &Session, shown: &mut Shown) {
    let rules = session.rules;
    match command {
        "status" => check_status(answer, rules, shown),
        "move" => check_move(answer, rules, shown),
        "put" | "clear" => {
            assert_eq!(answer, "ok");
            shown.free = (command == "clear").then_some(rules.cells());
            shown.over = Some(false);
        }
        "undo" => {
            let score = answer
                .strip_prefix("ok score=")
                .map(number)
                .unwrap_or_else(|| panic!("{answer:?}"));
            if let Some(before) = shown.score {
                assert!(score <= before, "{answer:?} after score {before}");
            }
            *shown = Shown {
                score: Some(score),
                free: None,
                over: Some(false),
            };
        }
        "hint" => {
            assert_ne!(shown.over, Some(true), "a hint in a game over");
            let words: Vec<&str> = answer.split(' ').collect();
            assert_eq!(words.len(), 5, "{answer:?}");
            assert_eq!(words[0], "hint");
            for (i, word) in words[1..].iter().enumerate() {
                let side = if i % 2 == 0 {
                    rules.width
                } else {
                    rules.height
                };
                assert!((number(word) as usize) < side, "{answer:?}");
            }
        }
        "next" => check_next(answer, session, shown),
        "rules" => {
            let (preview, seed) = (session.preview, session.seed);
            let expected = format!(
                "rules width={} height={} colors={} line={} next={} first={} preview={preview} \
                 seed={seed}",
                rules.width, rules.height, rules.colors, rules.line, rules.next, rules.first
            );
            assert_eq!(answer, expected);
        }
        _ => panic!("{command:?} succeeded: {answer:?}"),
    }
}

/// `status`: its four values, the same as shown before.
fn check_status(answer: &str, rules: Rules, shown: &mut Shown) {
    let v = values(answer, &["score", "free", "streak", "over"]);
    let (score, free, _streak) = (number(v[0]), number(v[1]) as usize, number(v[2]));
    let over = match v[3] {
        "yes" => true,
        "no" => false,
        _ => panic!("{answer:?}"),
    };
    assert!(free <= rules.cells());
    assert_eq!(*shown.score.get_or_insert(score), score, "{answer:?}");
    assert_eq!(*shown.free.get_or_insert(free), free, "{answer:?}");
    assert_eq!(*shown.over.get_or_insert(over), over, "{answer:?}");
}

/// `move`: no move in a game over, and a score that never falls.
fn check_move(answer: &str, rules: Rules, shown: &mut Shown) {
    assert_ne!(shown.over, Some(true), "a move in a game over");
    let (answer, over) = match answer.strip_suffix(" over") {
        Some(answer) => (answer, true),
        None => (answer, false),
    };
    let answer = answer
        .strip_prefix("ok ")
        .unwrap_or_else(|| panic!("{answer:?}"));
    let v = values(answer, &["removed", "points", "score"]);
    let (removed, points, score) = (number(v[0]), number(v[1]), number(v[2]));
    assert!(removed as usize <= rules.cells(), "{answer:?}");
    if let Some(before) = shown.score {
        assert!(score >= before + points, "{answer:?} after score {before}");
    }
    *shown = Shown {
        score: Some(score),
        free: None,
        over: Some(over),
    };
}

/// `next`: only with a preview, and never in a game over; each chip's
/// colour within the rules, and its cell on the board where shown.
fn check_next(answer: &str, session: &Session, shown: &Shown) {
    let rules = session.rules;
    assert_ne!(session.preview, Preview::Off, "{answer:?}");
    assert_ne!(shown.over, Some(true), "a throw shown in a game over");
    let words: Vec<&str> = answer.split(' ').collect();
    assert_eq!(words[0], "next");
    let per_chip = if session.preview == Preview::Cells {
        3
    } else {
        1
    };
    assert_eq!(words.len(), 1 + per_chip * rules.next, "{answer:?}");
    for chip in words[1..].chunks(per_chip) {
        let color = chip[per_chip - 1];
        let color = color.chars().next().and_then(board::color_of_char);
        assert!(matches!(color, Some(c) if (1..=rules.colors).contains(&c)));
        if per_chip == 3 && chip[..2] != ["-", "-"] {
            assert!((number(chip[0]) as usize) < rules.width, "{answer:?}");
            assert!((number(chip[1]) as usize) < rules.height, "{answer:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn any_session_gets_the_answers_each_line_is_promised(
        rules in small_rules(),
        preview in strategies::preview(),
        seed in any::<u64>(),
        input in session(),
        capacity in prop_oneof![1usize..16, Just(8192)],
    ) {
        let mut output = Vec::new();
        let reader = BufReader::with_capacity(capacity, input.as_slice());
        run(rules, preview, seed, reader, &mut output).unwrap();
        let output = String::from_utf8(output).expect("answers in UTF-8");
        prop_assert!(output.is_empty() || output.ends_with('\n'), "{:?}", output);
        // Split at `\n` only, so that a stray `\r` shows as a character.
        let answers: Vec<&str> = match output.strip_suffix('\n') {
            Some(answers) => answers.split('\n').collect(),
            None => Vec::new(),
        };
        for answer in &answers {
            prop_assert!(!answer.chars().any(invisible), "{:?}", answer);
        }
        let mut answers = answers.into_iter();
        let mut shown = Shown::default();
        let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
        // The input's last newline ends a line; it does not start one.
        if input.ends_with(b"\n") {
            lines.pop();
        }
        let session = Session { rules, preview, seed };
        for line in lines {
            if !check_line(line, &session, &mut answers, &mut shown) {
                break;
            }
        }
        let extra: Vec<&str> = answers.collect();
        prop_assert!(extra.is_empty(), "answers to no line: {:?}", extra);
    }
}
