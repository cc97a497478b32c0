//! The config file: every key, its refusals, and how options override it.

use std::fs;

use super::*;

#[test]
fn config_sets_every_option() {
    let dir = tempfile::tempdir().unwrap();
    let env = with_config(
        dir.path(),
        r##"
width = 12
height = 8
colors = 6
line = 4
next = 2
first = 7
keys = "wasd "
font = "#@."
bw_font = "*AaBbCcDdEeFf"
mode = "b"
palette = [15, 1, 2, 3, 4, 5, 6]
score_dir = "/srv/clines"
"##,
    );
    let parsed = parse_with(&[], &env).unwrap();
    let Command::Play(Play {
        rules,
        appearance,
        score_dir,
        ..
    }) = parsed.command
    else {
        panic!("not a game")
    };
    assert_eq!(
        rules,
        Rules {
            width: 12,
            height: 8,
            colors: 6,
            line: 4,
            next: 2,
            first: 7
        }
    );
    assert_eq!(appearance.keys.in_order(), ['w', 'a', 's', 'd', ' ']);
    assert_eq!(appearance.font.in_order(), ['#', '@', '.']);
    assert_eq!(appearance.bw_font.len(), 13);
    assert_eq!(appearance.mode, Some(ColorMode::Mono));
    assert_eq!(appearance.palette, vec![15, 1, 2, 3, 4, 5, 6]);
    assert_eq!(score_dir, Some(PathBuf::from("/srv/clines")));
    let list = parse_with(&["-l"], &env).unwrap().command;
    assert_eq!(
        list,
        Command::List {
            score_dir: Some(PathBuf::from("/srv/clines")),
            // The listing is of the rule set the config plays.
            rules,
            preview: Preview::Off
        }
    );
}

#[test]
fn flags_override_the_config() {
    let dir = tempfile::tempdir().unwrap();
    let env = with_config(
        dir.path(),
        "width = 12\nheight = 8\nkeys = \"wasd \"\nmode = \"b\"\npalette = \"7,2,1,3,4,5\"\n",
    );
    let (rules, appearance) = play_in(&["-w9", "-C", "hjkl ", "-mc"], &env).unwrap();
    assert_eq!((rules.width, rules.height), (9, 8));
    assert!(!rules.is_default());
    assert_eq!(appearance.keys.in_order(), ['h', 'j', 'k', 'l', ' ']);
    assert_eq!(appearance.mode, Some(ColorMode::Color));
    assert_eq!(appearance.palette, vec![7, 2, 1, 3, 4, 5]);
    // A flag's bad value is reported as the flag's, even over the file.
    refused_in(&["-w0"], &env, &["-w 0:"]);
    // Config at the default values keeps the default rules (records on).
    let env = with_config(dir.path(), "width = 9\nline = 5\n");
    assert!(play_in(&[], &env).unwrap().0.is_default());
}

/// A file may set up a larger board than the options ask for: its `next`
/// and `first`, replaced by options, need not fit the smaller board, but
/// one in use must.
#[test]
fn a_replaced_next_or_first_need_not_fit_the_board_in_use() {
    let dir = tempfile::tempdir().unwrap();
    let env = with_config(
        dir.path(),
        "width = 20\nheight = 20\nnext = 50\nfirst = 60\n",
    );
    let rules = play_in(&["-w5", "-t5", "-n3", "-N3"], &env).unwrap().0;
    assert_eq!((rules.cells(), rules.next, rules.first), (25, 3, 3));
    refused_in(
        &["-w5", "-t5", "-N3"],
        &env,
        &[
            "next = 50",
            "from 0 to 25 (the number of cells)",
            "config.toml",
        ],
    );
}

#[test]
fn a_bad_config_value_is_refused_even_when_a_flag_overrides_it() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &[&str], &[&str])] = &[
        (
            "width = 1001",
            &["-w6"],
            &["width = 1001", "from 1 to 1000"],
        ),
        (
            "height = 0",
            &["-t", "4"],
            &["height = 0", "from 1 to 1000"],
        ),
        ("colors = 36", &["-c3"], &["colors = 36", "from 1 to 35"]),
        ("line = 1", &["-i4"], &["line = 1", "from 2 to 1000"]),
        (
            "next = 1000001",
            &["-n2"],
            &["next = 1000001", "from 0 to 1000000"],
        ),
        ("first = 0", &["-N2"], &["first = 0", "from 1 to 1000000"]),
        (
            "autoplay_delay = 10001",
            &["--autoplay-delay=5"],
            &["autoplay_delay = 10001"],
        ),
        (
            "keys = \"hhjkl\"",
            &["-C", "wasd "],
            &["keys = \"hhjkl\"", "given twice"],
        ),
        (
            "font = \"IO\"",
            &["-f", "@Oo"],
            &["font = \"IO\"", "exactly 3"],
        ),
        (
            "bw_font = \"*O \"",
            &["-F", "*OoVvAa.'Zz"],
            &["bw_font", "is blank"],
        ),
        (
            "mode = \"x\"",
            &["-mc"],
            &["mode = \"x\"", "c (colour) or b"],
        ),
        (
            "palette = [7, 16, 2]",
            &["-o", "7,1,2,3,4,5"],
            &["palette = [7, 16", "black"],
        ),
    ];
    for (config, args, says) in cases {
        let env = with_config(dir.path(), config);
        let mut says = says.to_vec();
        says.push("config.toml");
        refused_in(args, &env, &says);
    }
    // What depends on other settings is judged by the game in use: next =
    // 100 fits a 20 by 20 board, and a short palette fits fewer colours.
    let env = with_config(
        dir.path(),
        "next = 100\npalette = [7, 1]\nbw_font = \"*Oo\"",
    );
    assert!(
        play_in(
            &[
                "-w20",
                "-t20",
                "-n3",
                "-o",
                "7,1,2,3,4,5",
                "-F",
                "*OoVvAa.'Zz"
            ],
            &env
        )
        .is_ok()
    );
}

#[test]
fn config_refusals_name_file_key_and_accepted() {
    refused_saying(&[
        ("colour = 5", &["unknown key \"colour\"", "width, height"]),
        (
            "width = \"9\"",
            &["width = \"9\"", "whole number from 1 to 1000"],
        ),
        (
            "width = 0",
            &["width = 0", "board width must be from 1 to 1000"],
        ),
        ("next = -1", &["next = -1", "whole number from 0"]),
        ("first = 1.5", &["first = 1.5", "whole number"]),
        ("colors = 36", &["colors = 36", "from 1 to 35"]),
        ("keys = 5", &["keys = 5", "expected a string"]),
        ("keys = \"abc\"", &["keys = \"abc\"", "exactly 5"]),
        ("font = \"I中o\"", &["font = \"I中o\"", "double-width"]),
        ("bw_font = \"*Oo\"", &["bw_font = \"*Oo\"", "at least 11"]),
        ("mode = \"x\"", &["mode = \"x\"", "c (colour) or b"]),
        ("mode = true", &["mode = true", "\"c\" (colour) or \"b\""]),
        (
            "palette = [7, 0, 2, 3, 4, 5]",
            &["palette = [7, 0", "1 to 255"],
        ),
        (
            "palette = [7, \"1\"]",
            &["palette = [7, \"1\"]", "array of colour numbers"],
        ),
        ("palette = \"7,1\"", &["palette = \"7,1\"", "at least 6"]),
        (
            "score_dir = \"scores\"",
            &["score_dir = \"scores\"", "absolute"],
        ),
        (
            "score_dir = \"~/games\"",
            &[
                "score_dir = \"~/games\"",
                "absolute",
                "~ is not read as the home",
            ],
        ),
        (
            "colors = 6\nmode = \"b\"",
            &["colors = 6", "mode = \"b\" in", "-F (bw_font)"],
        ),
    ]);
}

/// A file that is not TOML is refused naming the line, and the key where
/// one is at fault.
#[test]
fn invalid_toml_is_refused_naming_the_line() {
    refused_saying(&[
        ("width = ", &["invalid TOML at line 1"]),
        (
            "width = 9\nwidth = 10",
            &["invalid TOML at line 2: the key \"width\" is given twice"],
        ),
        (
            "\"width\" = 9\n'width' = 10",
            &["invalid TOML at line 2: the key \"width\" is given twice"],
        ),
        (
            "width = 9\n\"wid\\u0074h\" = 10",
            &["invalid TOML at line 2: the key \"wid\\u0074h\" is given twice"],
        ),
        (
            // A key with an escape is shown as typed: cut like a value.
            "\"k\\u0065y_with_an_escape_and_longer_than_forty\" = 1\n\
             \"k\\u0065y_with_an_escape_and_longer_than_forty\" = 2",
            &["the key \"k\\u0065y_with_an_escape_and_longer_than… is given twice"],
        ),
        (
            "\nwidth = 99999999999999999999",
            &[
                "invalid TOML at line 2: the number \"99999999999999999999\" is out of the range",
                "9223372036854775807",
            ],
        ),
        (
            "colors = -1_000_000_000_000_000_000_000",
            &["\"-1_000_000_000_000_000_000_000\" is out of the range"],
        ),
    ]);
}

/// Checks that each config file's text is refused, saying each of its
/// phrases and naming the file.
fn refused_saying(cases: &[(&str, &[&str])]) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("config.toml").display().to_string();
    for (text, says) in cases {
        let env = with_config(dir.path(), text);
        let mut says = says.to_vec();
        says.push(&file);
        refused_in(&[], &env, &says);
    }
}

#[test]
fn only_a_number_out_of_range_is_called_one() {
    let file = std::path::Path::new("config.toml");
    let twice = config::parse("99999999999999999999 = 1\n99999999999999999999 = 2\n", file);
    let message = twice.unwrap_err();
    assert!(!message.contains("out of the range"), "{message}");
    let message = config::parse("width = 99999999999999999999\n", file).unwrap_err();
    assert!(message.contains("out of the range"), "{message}");
}

#[test]
fn a_config_file_too_large_or_not_text_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    // A comment: the size alone is wrong.
    let mut big = "# ".repeat(1 << 19);
    big.push('\n');
    let env = with_config(dir.path(), &big);
    refused_in(
        &[],
        &env,
        &[
            "cannot read the config file",
            "larger than 1 MiB (1048576 bytes)",
        ],
    );
    let env = with_config(dir.path(), &big[..1 << 20]);
    assert!(
        parse_with(&[], &env).is_ok(),
        "1 MiB of comment is still read"
    );
    let env = with_config(dir.path(), "");
    std::fs::write(dir.path().join("config.toml"), b"width = 9 # \xff\n").unwrap();
    refused_in(&[], &env, &["cannot read the config file", "not UTF-8"]);
}

#[test]
fn config_table_is_a_wrong_type() {
    let dir = tempfile::tempdir().unwrap();
    let env = with_config(dir.path(), "[width]\nsize = 3\n");
    refused_in(&[], &env, &["width = ", "whole number"]);
}

#[test]
fn missing_config_means_defaults_unless_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("absent.toml");
    let mut env = Environment {
        config: Some(ConfigLocation {
            path: path.clone(),
            required: false,
        }),
        no_color: false,
    };
    assert!(play_in(&[], &env).unwrap().0.is_default());
    env.config = Some(ConfigLocation {
        path,
        required: true,
    });
    refused_in(&[], &env, &["absent.toml", "cannot read"]);
}

#[test]
fn unreadable_config_is_refused() {
    // A directory cannot be read as a file, even by root.
    let dir = tempfile::tempdir().unwrap();
    let env = Environment {
        config: Some(ConfigLocation {
            path: dir.path().to_path_buf(),
            required: false,
        }),
        no_color: false,
    };
    refused_in(&[], &env, &["cannot read the config file"]);
    let file = dir.path().join("config.toml");
    fs::write(&file, b"width = 9\n\xff\n").unwrap();
    let env = Environment {
        config: Some(ConfigLocation {
            path: file,
            required: false,
        }),
        no_color: false,
    };
    refused_in(&[], &env, &["config.toml", "cannot read"]);
}
