//! The command line: options, their values and their refusals. The config
//! file and the modes of play are tested in files of their own.

use std::fs;
use std::path::Path;

use super::config::ConfigLocation;
use super::*;
use crate::game::Preview;

mod config_file;
mod fuzz;
mod play_modes;

/// No config file, `NO_COLOR` unset.
fn plain() -> Environment {
    Environment::default()
}

fn parse_with(args: &[&str], env: &Environment) -> Result<Parsed, clap::Error> {
    parse_in(std::iter::once("clines").chain(args.iter().copied()), env)
}

/// The rules and appearance of a terminal game, or the refusal.
fn play_in(args: &[&str], env: &Environment) -> Result<(Rules, Appearance), String> {
    match parse_with(args, env) {
        Ok(Parsed {
            command: Command::Play(Play {
                rules, appearance, ..
            }),
            ..
        }) => Ok((rules, appearance)),
        Ok(other) => panic!("not a terminal game: {other:?}"),
        Err(e) => {
            assert_eq!(e.exit_code(), 2, "{e}");
            Err(e.to_string())
        }
    }
}

fn play(args: &[&str]) -> Result<(Rules, Appearance), String> {
    play_in(args, &plain())
}

fn rules_of(args: &[&str]) -> Result<Rules, String> {
    play(args).map(|(rules, _)| rules)
}

fn appearance_of(args: &[&str]) -> Result<Appearance, String> {
    play(args).map(|(_, appearance)| appearance)
}

/// The refusal of `args`, checked to name `names` and contain `says`.
fn refused(args: &[&str], says: &[&str]) {
    refused_in(args, &plain(), says);
}

fn refused_in(args: &[&str], env: &Environment, says: &[&str]) {
    let message = play_in(args, env).expect_err("should be refused");
    for part in says {
        assert!(
            message.contains(part),
            "{args:?}: {message:?} lacks {part:?}"
        );
    }
    assert_eq!(message.matches("error:").count(), 1, "{message}");
    assert!(!message.contains('\x1b'), "{message:?}");
}

#[test]
fn values_attached_separate_or_long() {
    let attached = rules_of(&["-w12", "-t7", "-c3", "-i4", "-n2", "-N5"]).unwrap();
    let separate = rules_of(&[
        "-w", "12", "-t", "7", "-c", "3", "-i", "4", "-n", "2", "-N", "5",
    ])
    .unwrap();
    let long = rules_of(&[
        "--width=12",
        "--height",
        "7",
        "--colors=3",
        "--line=4",
        "--next=2",
        "--first",
        "5",
    ])
    .unwrap();
    assert_eq!(attached, separate);
    assert_eq!(attached, long);
    assert_eq!(
        attached,
        Rules {
            width: 12,
            height: 7,
            colors: 3,
            line: 4,
            next: 2,
            first: 5
        }
    );
    let short = appearance_of(&["-Cwasd ", "-f", "xyz", "-F#AaBbCcDdEeFf", "-mb"]).unwrap();
    let long = appearance_of(&[
        "--keys=wasd ",
        "--font",
        "xyz",
        "--bw-font=#AaBbCcDdEeFf",
        "--mode=b",
    ]);
    assert_eq!(long.unwrap(), short);
    assert_eq!(short.keys.in_order(), ['w', 'a', 's', 'd', ' ']);
    assert_eq!(short.font.in_order(), ['x', 'y', 'z']);
    assert_eq!(short.bw_font.len(), 13);
    assert_eq!(short.mode, Some(ColorMode::Mono));
}

#[test]
fn values_are_taken_getopt_style() {
    // The next argument is the value even when it starts with a dash.
    assert_eq!(
        appearance_of(&["-f", "-O."]).unwrap().font.in_order(),
        ['-', 'O', '.']
    );
    assert_eq!(appearance_of(&["-C", "-+<> "]).unwrap().keys.left, '-');
    refused(&["-w", "-1"], &["'-1'", "whole number from 1 to 1000"]);
    // A repeated option's last value wins.
    assert_eq!(rules_of(&["-w5", "-w", "7"]).unwrap().width, 7);
    assert_eq!(
        appearance_of(&["-mb", "-mc"]).unwrap().mode,
        Some(ColorMode::Color)
    );
}

#[test]
fn an_attached_key_or_glyph_value_keeps_its_leading_equals_sign() {
    let keys = |args: &[&str]| appearance_of(args).map(|a| a.keys.in_order());
    assert_eq!(keys(&["-C=hjkl"]), Ok(['=', 'h', 'j', 'k', 'l']));
    // Not in another option's attached value.
    refused(&["-pC=hjkl"], &["-p C=hjkl:"]);
    refused(
        &["-C=abcde"],
        &["-C \"=abcde\"", "got 6 (the = is one of them)"],
    );
    refused(
        &["-f=xyz"],
        &["-f \"=xyz\"", "got 4 (the = is one of them)"],
    );
    // Not where the = does not make the count wrong.
    let short = play(&["-C=abc"]).unwrap_err();
    assert!(short.ends_with("got 4\n"), "{short}");
    let font = appearance_of(&["-f=Oo", "-F=OoVvAa.'Zz"]).unwrap();
    assert_eq!(font.font.in_order(), ['=', 'O', 'o']);
    assert_eq!(font.bw_font[..3], ['=', 'O', 'o']);
    // Another option's value is taken whole, as typed.
    assert_eq!(keys(&["-C", "-f=ab"]), Ok(['-', 'f', '=', 'a', 'b']));
    assert_eq!(keys(&["--keys", "-C=hj"]), Ok(['-', 'C', '=', 'h', 'j']));
    assert_eq!(keys(&["--keys==hjkl"]), Ok(['=', 'h', 'j', 'k', 'l']));
    // Numbers, where `=` is never part of the value, keep clap's reading.
    assert_eq!(rules_of(&["-w=7"]).unwrap().width, 7);
}

#[test]
fn defaults_are_the_originals() {
    let (rules, appearance) = play(&[]).unwrap();
    assert_eq!(rules, Rules::default());
    assert_eq!(appearance, Appearance::for_colors(5));
}

#[test]
fn boolean_flags_combine() {
    assert_eq!(
        parse_with(&["-hl"], &plain()).unwrap_err().kind(),
        ErrorKind::DisplayHelp
    );
    assert_eq!(
        parse_with(&["-lv"], &plain()).unwrap_err().kind(),
        ErrorKind::DisplayVersion
    );
    let list = parse_with(&["-l", "-w9"], &plain()).unwrap().command;
    assert_eq!(
        list,
        Command::List {
            score_dir: None,
            rules: Rules::default(),
            preview: Preview::Off
        }
    );
    let batch = parse_with(&["--batch", "--seed", "42", "-w5"], &plain()).unwrap();
    assert_eq!(
        batch.command,
        Command::Batch {
            rules: Rules {
                width: 5,
                ..Rules::default()
            },
            preview: Preview::Off,
            seed: Some(42)
        }
    );
}

#[test]
fn help_and_version_exit_zero() {
    for flag in ["-h", "--help", "-v", "--version"] {
        let e = parse_with(&[flag], &plain()).unwrap_err();
        assert_eq!(e.exit_code(), 0, "{flag}");
    }
    let version = parse_with(&["-v"], &plain()).unwrap_err().to_string();
    assert_eq!(version, format!("clines {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn version_alone_is_answered_as_clap_answers_it() {
    let line = |args: &[&str]| {
        args.iter()
            .map(std::ffi::OsString::from)
            .collect::<Vec<_>>()
    };
    for flag in ["-v", "--version"] {
        assert!(asks_only_version(&line(&["clines", flag])));
        let clap = parse_with(&[flag], &plain()).unwrap_err();
        assert_eq!(clap.kind(), ErrorKind::DisplayVersion);
        assert_eq!(clap.to_string(), version_line());
    }
    for args in [
        &["clines"][..],
        &["clines", "-lv"],
        &["clines", "-v", "-l"],
        &["clines", "-l", "-v"],
        &["clines", "--vers"],
        &["clines", "-V"],
    ] {
        assert!(!asks_only_version(&line(args)), "{args:?}");
    }
}

#[test]
fn help_shows_every_default() {
    let help = Args::command().render_help().to_string();
    for default in [
        "[default: 9]",
        "[default: 5]",
        "[default: 3]",
        "[default: \"hjkl \"]",
        "[default: IOo]",
        "[default: *OoVvAa.'Zz]",
        "[default: automatic",
        "[default: 7,1,2,3,4,5",
        "[default: random]",
    ] {
        assert!(help.contains(default), "{default} missing from\n{help}");
    }
}

#[test]
fn board_sides_from_1_to_1000() {
    for flag in ["-w", "-t"] {
        for good in ["1", "1000"] {
            assert!(
                rules_of(&[&format!("{flag}{good}")]).is_ok(),
                "{flag}{good}"
            );
        }
        for bad in ["0", "1001"] {
            let what = if flag == "-w" { "width" } else { "height" };
            refused(
                &[flag, bad],
                &[&format!("{flag} {bad}"), what, "from 1 to 1000"],
            );
        }
        refused(&[flag, "nine"], &["nine", "whole number from 1 to 1000"]);
        refused(&[&format!("{flag}-1")], &["-1", "whole number"]);
    }
}

#[test]
fn colours_from_1_to_35() {
    assert_eq!(rules_of(&["-c1"]).unwrap().colors, 1);
    let (rules, appearance) = play(&["-c35"]).unwrap();
    assert_eq!(rules.colors, 35);
    assert_eq!(appearance.palette, default_palette(35));
    assert_eq!(appearance.palette.len(), 36);
    assert!(
        !appearance.palette.contains(&16),
        "black is not a chip colour"
    );
    assert_eq!(appearance.palette[14..16], [15, 17]);
    for bad in ["0", "36", "300", "100000000000"] {
        refused(&["-c", bad], &[&format!("-c {bad}"), "from 1 to 35"]);
    }
}

#[test]
fn line_from_2_to_1000() {
    assert!(rules_of(&["-i2"]).is_ok());
    assert!(rules_of(&["-i1000"]).is_ok());
    refused(&["-i1"], &["-i 1", "shortest line", "from 2 to 1000"]);
    refused(&["-i1001"], &["-i 1001", "from 2 to 1000"]);
}

#[test]
fn throws_up_to_the_number_of_cells() {
    assert!(rules_of(&["-n0"]).is_ok());
    assert!(rules_of(&["-w3", "-t4", "-n12", "-N12"]).is_ok());
    refused(
        &["-w3", "-t4", "-n13"],
        &["-n 13", "from 0 to 12", "number of cells"],
    );
    refused(&["-N0"], &["-N 0", "from 1 to 81"]);
    refused(&["-w3", "-t4", "-N13"], &["-N 13", "from 1 to 12"]);
}

#[test]
fn keys_exactly_five_different_characters() {
    let appearance = appearance_of(&["-C", "äöüß\u{e9}"]).unwrap();
    assert_eq!(appearance.keys.in_order(), ['ä', 'ö', 'ü', 'ß', 'é']);
    refused(&["-C", "hjkl"], &["-C \"hjkl\"", "exactly 5", "got 4"]);
    refused(&["-C", "hjkl  "], &["exactly 5", "got 6"]);
    refused(&["-C", "hjkjx"], &["'j' is given twice"]);
    // A blank filler, which Rust's `{:?}` leaves as it is, is escaped.
    refused(
        &["-C", "hj\u{3164}\u{3164}x"],
        &["'\\u{3164}' is given twice"],
    );
    // A quote or backslash key is escaped, so that it reads as one key.
    refused(&["-C", "h''kl"], &["'\\'' is given twice"]);
    refused(&["-C", "h\\\\kl"], &["'\\\\' is given twice"]);
}

#[test]
fn keys_must_be_typable() {
    let special = appearance_of(&["-C", "\t\n\u{1b}\u{7f} "]).unwrap();
    assert_eq!(
        special.keys.in_order(),
        ['\t', '\n', '\u{1b}', '\u{7f}', ' ']
    );
    refused(&["-C", "hjkl\u{1}"], &["'\\u{1}' cannot be typed", "Tab"]);
    refused(&["-C", "hjk\rl"], &["'\\r' cannot be typed"]);
}

#[test]
fn font_exactly_three_single_width_glyphs() {
    assert_eq!(
        appearance_of(&["-f●○◦"]).unwrap().font.in_order(),
        ['●', '○', '◦']
    );
    refused(&["-f", "IO"], &["-f \"IO\"", "exactly 3", "got 2"]);
    refused(&["-f", "IOoo"], &["exactly 3", "got 4"]);
    refused(&["-f", "I中o"], &["'中'", "double-width"]);
    refused(&["-f", "I🙂o"], &["double-width"]);
    refused(&["-f", "Ie\u{301}"], &["one column"]);
    refused(&["-f", "I\to"], &["one column"]);
}

#[test]
fn invisible_glyphs_are_refused() {
    let cases = [
        ("   ", "' ' (U+0020) is blank"),
        ("I\u{a0}o", "'\\u{a0}' (U+00A0) is blank"),
        ("I\u{2800}o", "'\\u{2800}' (U+2800) is blank"),
        ("I\u{3000}o", "(U+3000) is blank"),
        ("I\u{2028}o", "(U+2028) is a line separator"),
        ("I\u{2029}o", "is a line separator"),
        ("I\u{200b}o", "(U+200B) takes no column"),
        ("I\u{feff}o", "zero-width"),
        ("I\u{ffa0}o", "'\\u{ffa0}' (U+FFA0) is blank"),
        ("I\u{1b}o", "'\\u{1b}' (U+001B) is a control character"),
    ];
    for (font, says) in cases {
        refused(&["-f", font], &[says, "must be visible"]);
        let bw_font = format!("{font}VvAa.'Zz");
        refused(&["-F", &bw_font], &[says, "must be visible"]);
    }
    // Visible glyphs from beyond ASCII are still welcome.
    assert!(appearance_of(&["-f", "@\u{2588}\u{e000}"]).is_ok());
}

#[test]
fn bw_font_at_least_two_per_colour_plus_one() {
    let appearance = appearance_of(&["-c3", "-F", "#AaBbCc"]).unwrap();
    assert_eq!(appearance.bw_font, "#AaBbCc".chars().collect::<Vec<_>>());
    refused(
        &["-c3", "-F", "#AaBbC"],
        &["-F \"#AaBbC\"", "at least 7", "got 6"],
    );
    refused(&["-F", "*OoVvAa.'Z"], &["at least 11", "got 10"]);
    refused(&["-F", "*OoVvAa.'Z中"], &["double-width"]);
    // More colours than the default glyphs: -F is needed in black and white.
    let glyphs = "*OoVvAa.'ZzXx";
    assert!(appearance_of(&["-c6", "-mb", "-F", glyphs]).is_ok());
    refused(&["-c6", "-mb"], &["-c 6", "-m b", "-F", "at least 13"]);
    // Under -m c black and white is never drawn, so a -F for fewer colours
    // (a config's, say) does not stop a game of more.
    let five = "*OoVvAa.'Zz";
    let colour = appearance_of(&["-c6", "-mc", "-F", five]).unwrap();
    assert_eq!(colour.mode, Some(ColorMode::Color));
    refused(
        &["-c6", "-F", five],
        &["at least 13", "got 11", "-m c draws"],
    );
    let dir = tempfile::tempdir().unwrap();
    let config = with_config(dir.path(), &format!("bw_font = \"{five}\"\nmode = \"c\"\n"));
    assert!(play_in(&["-c6"], &config).is_ok());
    // Automatic mode chooses colour rather than run out of glyphs...
    let automatic = appearance_of(&["-c6"]).unwrap();
    assert_eq!(automatic.mode, Some(ColorMode::Color));
    assert_eq!(appearance_of(&["-c5"]).unwrap().mode, None);
    // ...unless NO_COLOR asks for black and white.
    let no_color = Environment {
        no_color: true,
        ..plain()
    };
    refused_in(&["-c6"], &no_color, &["NO_COLOR", "at least 13"]);
    assert!(play_in(&["-c6", "-mc"], &no_color).is_ok());
    assert!(play_in(&["-c6", "-F", glyphs], &no_color).is_ok());
    // NO_COLOR is read once, here: the game only follows the mode.
    let mode = |args| play_in(args, &no_color).unwrap().1.mode;
    assert_eq!(mode(&["-c5"]), Some(ColorMode::Mono));
    assert_eq!(mode(&["-c5", "-mc"]), Some(ColorMode::Color));
}

/// The first letter decides, in either case, as in the original.
#[test]
fn mode_c_or_b() {
    let mode = |value| appearance_of(&["-m", value]).unwrap().mode;
    for value in ["c", "C", "color", "colour", "Colour", "cb"] {
        assert_eq!(mode(value), Some(ColorMode::Color), "{value}");
    }
    for value in ["b", "B", "bw", "black and white", "bc"] {
        assert_eq!(mode(value), Some(ColorMode::Mono), "{value}");
    }
    assert_eq!(
        appearance_of(&["-mC"]).unwrap().mode,
        Some(ColorMode::Color)
    );
    for (bad, shown) in [("x", "x"), ("mono", "mono"), (" c", "\" c\""), ("", "\"\"")] {
        refused(
            &["-m", bad],
            &[&format!("-m {shown}:"), "start with c (colour) or b"],
        );
    }
}

#[test]
fn palette_needs_a_colour_per_chip_from_1_to_255() {
    let parsed = parse_with(&["-c2", "-o", "7,255,1,9,9"], &plain()).unwrap();
    let Command::Play(Play { appearance, .. }) = parsed.command else {
        panic!("not a game")
    };
    assert_eq!(appearance.palette, vec![7, 255, 1], "extra numbers ignored");
    assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
    refused(&["-c2", "-o", "7,1"], &["-o 7,1", "at least 3", "got 2"]);
    refused(&["-o", "7,1,2,0,4,5"], &["\"0\"", "1 to 255", "black"]);
    refused(&["-o", "7,1,2,16,4,5"], &["\"16\"", "black background"]);
    refused(&["-o", "16,1,2,3,4,5"], &["\"16\"", "black background"]);
    refused(&["-o", "7,1,2,256,4,5"], &["\"256\"", "1 to 255"]);
    refused(&["-o", "7,1,red,3,4,5"], &["\"red\"", "1 to 255"]);
    refused(&["-o", "7,1,2,3,4,5,0"], &["\"0\""]);
    refused(&["-o", ""], &["1 to 255"]);
}

#[test]
fn black_and_white_takes_a_palette_too_short_for_colour() {
    let no_color = Environment {
        no_color: true,
        ..plain()
    };
    // Black and white never draws the palette: how many it has is no matter.
    for (args, env) in [
        (&["-c2", "-mb", "-o", "7,1"][..], &plain()),
        (&["-c2", "-o", "7"][..], &no_color),
    ] {
        let parsed = parse_with(args, env).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        let Command::Play(Play { appearance, .. }) = parsed.command else {
            panic!("not a game")
        };
        assert_eq!(appearance.palette, palette_numbers_of(args), "{args:?}");
        assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
    }
    // Colour may be drawn: the numbers must be there, NO_COLOR or not.
    refused(&["-c2", "-mc", "-o", "7,1"], &["at least 3", "got 2"]);
    refused_in(&["-c2", "-mc", "-o", "7,1"], &no_color, &["at least 3"]);
    // A number wrong in itself is refused in black and white as well.
    refused(&["-c2", "-mb", "-o", "7,0"], &["\"0\"", "1 to 255"]);
}

/// The numbers after `-o` in `args`.
fn palette_numbers_of(args: &[&str]) -> Vec<u8> {
    let list = args[args.iter().position(|&a| a == "-o").unwrap() + 1];
    list.split(',').map(|n| n.parse().unwrap()).collect()
}

#[test]
fn duplicate_palette_colours_warn_then_play() {
    let parsed = parse_with(&["-o", "7,1,2,2,4,7"], &plain()).unwrap();
    let Command::Play(play) = &parsed.command else {
        panic!("not a terminal game: {:?}", parsed.command);
    };
    // The game shows them too: standard error is out of sight meanwhile.
    assert_eq!(play.warnings, parsed.warnings);
    assert_eq!(parsed.warnings.len(), 1, "{:?}", parsed.warnings);
    let warning = &parsed.warnings[0];
    assert!(
        warning.text.starts_with("-o 7,1,2,2,4,7: colour 2, 7 "),
        "{warning:?}"
    );
    // Shown only where the chips are drawn in colour, which a terminal of
    // fewer than 8 colours decides only once the game runs.
    assert!(warning.matters(true) && !warning.matters(false));
    // Headless mode and the records list draw nothing, and black and white
    // draws no colour: nothing to warn of.
    for mode in ["--batch", "-l", "-mb"] {
        let parsed = parse_with(&[mode, "-o", "7,1,2,2,4,7"], &plain()).unwrap();
        assert!(parsed.warnings.is_empty(), "{mode}: {:?}", parsed.warnings);
    }
    let no_color = Environment {
        no_color: true,
        ..plain()
    };
    let parsed = parse_with(&["-o", "7,1,2,2,4,7"], &no_color).unwrap();
    assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
    let parsed = parse_with(&["-mc", "-o", "7,1,2,2,4,7"], &no_color).unwrap();
    assert_eq!(parsed.warnings.len(), 1, "-m c wins: {:?}", parsed.warnings);
}

#[test]
fn keys_that_take_the_games_own_keys_warn_then_play() {
    let warnings = |args: &[&str], env: &Environment| {
        let parsed = parse_with(args, env).unwrap();
        if let Command::Play(play) = &parsed.command {
            assert_eq!(play.warnings, parsed.warnings, "shown in the game too");
        }
        parsed.warnings
    };
    let texts = |args: &[&str]| -> Vec<String> {
        warnings(args, &plain())
            .into_iter()
            .map(|w| w.text)
            .collect()
    };
    assert_eq!(
        texts(&["-C", "hjkls"]),
        ["-C \"hjkls\": `s` is now a -C key, no longer for saving"]
    );
    assert_eq!(
        texts(&["-C", "aunq?"]),
        [
            "-C \"aunq?\": `?`, `a`, `u`, `n` and `q` are now -C keys, no longer for the \
             hint, autoplay, undo, a new game and quitting (Ctrl-C still quits)"
        ]
    );
    assert!(texts(&["-C", "wasd "]).len() == 1 && texts(&["-C", "ijkl "]).is_empty());
    // Headless mode and the records list take no keys.
    assert!(texts(&["--batch", "-C", "hjkls"]).is_empty());
    assert!(texts(&["-l", "-C", "hjkls"]).is_empty());
    // The config file is named as the keys' source; the warning matters in
    // either mode.
    let dir = tempfile::tempdir().unwrap();
    let warned = warnings(&[], &with_config(dir.path(), "keys = \"aswd \"\n"));
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert!(
        warned[0]
            .text
            .contains("keys = \"aswd \": `a` and `s` are now -C keys"),
        "{warned:?}"
    );
    assert!(warned[0].matters(true) && warned[0].matters(false));
}

#[test]
fn values_that_are_not_utf8_name_their_option_and_what_it_accepts() {
    use std::ffi::OsString;
    use std::os::unix::ffi::OsStringExt;
    let bytes = |text: &[u8]| OsString::from_vec(text.to_vec());
    // Each with what the option accepts, in the words of its refusal of
    // other text where it has one.
    let cases: &[(&[&[u8]], &str, &str)] = &[
        (&[b"-C", b"\xff"], "'-C, --keys'", "5 different characters"),
        (
            &[b"-C\xffjkl "],
            "'-C, --keys'",
            "(left, down, up, right, action)",
        ),
        (&[b"--keys=\xff"], "'-C, --keys'", "5 different characters"),
        (
            &[b"-f", b"I\xffo"],
            "'-f, --font'",
            "3 visible, single-width",
        ),
        (
            &[b"-F", b"\xff"],
            "'-F, --bw-font'",
            "visible, single-width",
        ),
        (
            &[b"-m\xff"],
            "'-m, --mode'",
            "c (colour) or b (black and white)",
        ),
        (
            &[b"-o", b"7,\xff"],
            "'-o, --palette'",
            "from 1 to 255 other than 16",
        ),
        (&[b"-p", b"\xff"], "'-p, --preview'", "off, colors or cells"),
        (&[b"--cells=\xff"], "'--cells'", "square or wide"),
        (
            &[b"-w", b"\xff"],
            "'-w, --width'",
            "a whole number from 1 to 1000",
        ),
        (
            &[b"-N\xff"],
            "'-N, --first'",
            "from 1 to the number of cells",
        ),
        (
            &[b"--seed", b"1\xff"],
            "'--seed'",
            "from 0 to 18446744073709551615",
        ),
        (
            &[b"--autoplay-delay=\xff"],
            "'--autoplay-delay'",
            "from 0 to 10000",
        ),
    ];
    for (args, option, accepted) in cases {
        let args = std::iter::once(bytes(b"clines")).chain(args.iter().map(|a| bytes(a)));
        let message = parse_in(args, &plain()).unwrap_err().to_string();
        assert!(message.contains(option), "{message}");
        let expected = message.split("not valid UTF-8 text; expected ").nth(1);
        assert!(
            expected.is_some_and(|expected| expected.contains(accepted)),
            "{message}"
        );
        assert_eq!(message.matches("error:").count(), 1, "{message}");
    }
}

#[test]
fn unknown_flags_refused() {
    for bad in [&["-x"][..], &["--colour", "5"], &["-w"], &["extra"]] {
        let e = parse_with(bad, &plain()).unwrap_err();
        assert_eq!(e.exit_code(), 2, "{bad:?}");
        assert!(!e.to_string().contains('\x1b'));
    }
}

#[test]
fn options_are_checked_in_every_mode() {
    for mode in ["--batch", "-l"] {
        refused_in_any(&[mode, "-C", "abc"]);
        refused_in_any(&[mode, "-w", "0"]);
    }
}

fn refused_in_any(args: &[&str]) {
    let e = parse_with(args, &plain()).unwrap_err();
    assert_eq!(e.exit_code(), 2, "{args:?}");
}

#[test]
fn glyph_and_colour_counts_matter_only_where_the_board_is_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let no_color = Environment {
        no_color: true,
        ..plain()
    };
    // Six numbers: enough for 5 colours, one short for 6.
    let short_palette = with_config(dir.path(), "palette = [7, 9, 10, 11, 12, 13]\n");
    let too_few: [(&[&str], &Environment); 5] = [
        (&["-c6"], &no_color),
        (&["-c6", "-mb"], &plain()),
        (&["-c6", "-mb", "-F", "*OoVvAa.'Zz"], &plain()),
        (&["-c6", "-o", "7,1,2,3,4,5"], &plain()),
        (&["-c6"], &short_palette),
    ];
    for (args, env) in too_few {
        // The full screen needs them...
        assert!(play_in(args, env).is_err(), "{args:?} should be refused");
        // ...while -l and batch mode draw nothing.
        for mode in ["--batch", "-l"] {
            let args: Vec<&str> = std::iter::once(mode).chain(args.iter().copied()).collect();
            let parsed = parse_with(&args, env).unwrap_or_else(|e| panic!("{args:?}: {e}"));
            assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
        }
    }
    // A value wrong in itself is refused in every mode.
    let wrong: [&[&str]; 5] = [
        &["-c6", "-F", "*Oo "],
        &["-c6", "-o", "7,1,0"],
        &["-c6", "-o", "7,red"],
        &["-c6", "-m", "x"],
        &["-c6", "-f", "IO"],
    ];
    for args in wrong {
        for mode in ["--batch", "-l"] {
            let args: Vec<&str> = std::iter::once(mode).chain(args.iter().copied()).collect();
            refused_in_any(&args);
        }
    }
}

#[test]
fn rule_error_requirement_leaves_out_flag_and_value() {
    let error = RuleError {
        rule: Rule::Next,
        value: 90,
        min: 0,
        max: 81,
    };
    assert_eq!(
        error.requirement(),
        "the chips per computer turn must be from 0 to 81 (the number of cells)"
    );
    // The engine knows no letters: the command line names the flag.
    refused(&["-n", "90"], &[&format!("-n 90: {}", error.requirement())]);
}

/// An environment reading `text` as the config file in `dir`.
fn with_config(dir: &Path, text: &str) -> Environment {
    let path = dir.join("config.toml");
    fs::write(&path, text).unwrap();
    Environment {
        config: Some(ConfigLocation {
            path,
            required: false,
        }),
        no_color: false,
    }
}

/// The letters messages give each rule, and the ranges `-h` states, are
/// written apart from clap's definitions and the engine's limits: they must
/// agree, or a message would name the wrong option or range.
#[test]
fn rule_letters_and_help_ranges_agree_with_clap_and_the_engine() {
    use clap::CommandFactory;
    let command = Args::command();
    for rule in Rule::ALL {
        let flag = rule_flag(rule);
        let arg = command
            .get_arguments()
            .find(|arg| arg.get_short().map(|c| format!("-{c}")).as_deref() == Some(flag))
            .unwrap_or_else(|| panic!("no option {flag} for the {}", rule.name()));
        let help = arg
            .get_help()
            .expect("every rule option has help")
            .to_string();
        let range = match rule.fixed_max() {
            Some(max) => format!("({}-{max})", rule.min()),
            None => format!("({} to the number of cells)", rule.min()),
        };
        assert!(
            help.ends_with(&range),
            "{flag}: help {help:?} does not end with {range:?}"
        );
        let default = arg.get_default_values();
        assert_eq!(
            default,
            [rule.value(&Rules::DEFAULT).to_string()],
            "{flag}: default"
        );
    }
}

#[test]
fn modes_that_exclude_each_other_are_refused_together() {
    // Each would silently win over the other, and a script asking for a
    // headless game would get a listing or a script instead.
    for (args, first, second) in [
        (&["--batch", "-l"][..], "--batch", "--list"),
        (&["-l", "--batch"][..], "--list", "--batch"),
        (
            &["--batch", "--completions", "bash"][..],
            "--batch",
            "--completions",
        ),
        (
            &["-l", "--completions", "fish"][..],
            "--list",
            "--completions",
        ),
    ] {
        let message = play(args).expect_err("should be refused");
        assert!(
            message.contains(first)
                && message.contains(second)
                && message.contains("cannot be used with"),
            "{args:?}: {message}"
        );
    }
    // Options a mode does not use stay accepted, so that an alias or a
    // script may give them to every mode.
    for args in [
        &["--batch", "--cells", "wide", "--autoplay", "--new"][..],
        &["-l", "--cells", "wide", "--autoplay"][..],
    ] {
        assert!(parse_with(args, &plain()).is_ok(), "{args:?}");
    }
}

#[test]
fn black_and_white_glyphs_drawn_alike_warn_then_play() {
    let warnings = |args: &[&str]| parse_with(args, &plain()).unwrap().warnings;
    let alike = warnings(&["-mb", "-F", "*OoOoAa.'Zz"]);
    assert_eq!(alike.len(), 1, "{alike:?}");
    assert!(
        alike[0]
            .text
            .starts_with("-F \"*OoOoAa.'Zz\": glyph \"O\" drawn for more than one colour"),
        "{alike:?}"
    );
    assert!(alike[0].matters(false) && !alike[0].matters(true));
    let anywhere = Warning {
        text: String::new(),
        matters_in: None,
    };
    assert!(anywhere.matters(true) && anywhere.matters(false));
    let cursor = warnings(&["-mb", "-F", "OOoVvAa.'Zz"]);
    assert_eq!(cursor.len(), 1, "{cursor:?}");
    assert!(
        cursor[0]
            .text
            .contains("glyph \"O\" drawn for the cursor and a chip"),
        "{cursor:?}"
    );
    let both = warnings(&["-mb", "-F", "OOOOOOOOOOO"]);
    assert_eq!(both.len(), 2, "{both:?}");
    // Only the colours in play count, and jumping glyphs may repeat.
    assert!(warnings(&["-mb", "-c2", "-F", "*OoVvOoOoOo"]).is_empty());
    assert!(warnings(&["-mb", "-F", "*OxVxAx.xZx"]).is_empty());
    // Where black and white is never drawn, nothing to warn of.
    for mode in ["-mc", "-l", "--batch"] {
        assert!(warnings(&[mode, "-F", "*OoOoAa.'Zz"]).is_empty(), "{mode}");
    }
    // Colour may be unavailable: the glyphs the player chose may be used.
    assert_eq!(warnings(&["-F", "*OoOoAa.'Zz"]).len(), 1);
    assert!(warnings(&["-mb"]).is_empty(), "the default glyphs differ");
}
