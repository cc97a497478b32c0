//! How a terminal game plays: autoplay and its pace, the preview.

use super::*;

/// Whether a terminal game plays itself from the start, and its pace.
fn autoplay_in(args: &[&str], env: &Environment) -> (bool, Duration) {
    match parse_with(args, env).unwrap().command {
        Command::Play(Play {
            autoplay,
            autoplay_delay,
            ..
        }) => (autoplay, autoplay_delay),
        other => panic!("not a terminal game: {other:?}"),
    }
}

#[test]
fn autoplay_and_its_delay() {
    let ms = Duration::from_millis;
    assert_eq!(autoplay_in(&[], &plain()), (false, ms(300)));
    assert_eq!(autoplay_in(&["--autoplay"], &plain()), (true, ms(300)));
    assert_eq!(
        autoplay_in(&["--autoplay", "--autoplay-delay", "50"], &plain()),
        (true, ms(50))
    );
    assert_eq!(
        autoplay_in(&["--autoplay-delay=0"], &plain()),
        (false, ms(0))
    );
    assert_eq!(
        autoplay_in(&["--autoplay-delay=10000"], &plain()),
        (false, ms(10_000))
    );
    refused(
        &["--autoplay-delay", "10001"],
        &["--autoplay-delay 10001", "from 0 to 10000 milliseconds"],
    );
    refused(
        &["--autoplay-delay", "-1"],
        &["'-1'", "--autoplay-delay", "whole number from 0 to 10000"],
    );
    refused(
        &["--autoplay-delay", "fast"],
        &["whole number from 0 to 10000"],
    );
    // Long options only.
    refused(&["-a"], &["-a"]);
}

#[test]
fn autoplay_from_the_config() {
    let dir = tempfile::tempdir().unwrap();
    let ms = Duration::from_millis;
    let env = with_config(dir.path(), "autoplay = true\nautoplay_delay = 120\n");
    assert_eq!(autoplay_in(&[], &env), (true, ms(120)));
    assert_eq!(
        autoplay_in(&["--autoplay-delay", "80"], &env),
        (true, ms(80))
    );
    // --no-autoplay overrides the file, and the last of the two flags wins.
    assert_eq!(autoplay_in(&["--no-autoplay"], &env), (false, ms(120)));
    assert!(autoplay_in(&["--no-autoplay", "--autoplay"], &env).0);
    assert!(!autoplay_in(&["--autoplay", "--no-autoplay"], &env).0);
    assert!(!autoplay_in(&["--autoplay", "--no-autoplay"], &plain()).0);
    let env = with_config(dir.path(), "autoplay = false\n");
    assert_eq!(autoplay_in(&[], &env), (false, ms(300)));
    assert_eq!(autoplay_in(&["--autoplay"], &env), (true, ms(300)));
    let file = dir.path().join("config.toml").display().to_string();
    let cases: &[(&str, &[&str])] = &[
        (
            "autoplay = \"yes\"",
            &["autoplay = \"yes\"", "true or false"],
        ),
        ("autoplay = 1", &["autoplay = 1", "true or false"]),
        (
            "autoplay_delay = 20000",
            &["autoplay_delay = 20000", "from 0 to 10000 milliseconds"],
        ),
        (
            "autoplay_delay = -5",
            &["autoplay_delay = -5", "milliseconds from 0 to 10000"],
        ),
    ];
    for (text, says) in cases {
        let env = with_config(dir.path(), text);
        let mut says = says.to_vec();
        says.push(&file);
        refused_in(&[], &env, &says);
    }
}

/// The preview of a terminal game, or the refusal.
fn preview_in(args: &[&str], env: &Environment) -> Result<Preview, String> {
    match parse_with(args, env) {
        Ok(Parsed {
            command:
                Command::Play(Play { preview, .. })
                | Command::Batch { preview, .. }
                | Command::List { preview, .. },
            ..
        }) => Ok(preview),
        Ok(other) => panic!("no preview: {other:?}"),
        Err(e) => Err(e.to_string()),
    }
}

#[test]
fn preview_from_flags_and_config() {
    assert_eq!(preview_in(&[], &plain()), Ok(Preview::Off));
    assert_eq!(preview_in(&["-p", "colors"], &plain()), Ok(Preview::Colors));
    assert_eq!(preview_in(&["-pcells"], &plain()), Ok(Preview::Cells));
    assert_eq!(
        preview_in(&["--batch", "--preview=cells"], &plain()),
        Ok(Preview::Cells)
    );
    // A preview keeps its own records: -l lists that table.
    assert_eq!(
        preview_in(&["-l", "-p", "cells"], &plain()),
        Ok(Preview::Cells)
    );
    assert_eq!(preview_in(&["-l"], &plain()), Ok(Preview::Off));
    refused(
        &["-p", "all"],
        &["-p all", "off (nothing), colors or cells"],
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("config.toml");
    let env = with_config(dir.path(), "preview = \"colors\"\n");
    assert_eq!(preview_in(&[], &env), Ok(Preview::Colors));
    assert_eq!(preview_in(&["-l"], &env), Ok(Preview::Colors));
    assert_eq!(preview_in(&["-p", "off"], &env), Ok(Preview::Off));
    assert_eq!(preview_in(&["-l", "-p", "off"], &env), Ok(Preview::Off));
    fs::write(&file, "preview = \"some\"\n").unwrap();
    refused_in(&[], &env, &["preview = \"some\"", "colors or cells"]);
    fs::write(&file, "preview = true\n").unwrap();
    refused_in(&[], &env, &["preview = true", "a string of \"off\""]);
}

#[test]
fn cells_from_flag_and_config() {
    let cells = |args: &[&str], env: &Environment| {
        play_in(args, env).map(|(_, appearance)| appearance.cells)
    };
    assert_eq!(cells(&[], &plain()), Ok(CellShape::Square));
    assert_eq!(cells(&["--cells", "wide"], &plain()), Ok(CellShape::Wide));
    assert_eq!(cells(&["--cells=square"], &plain()), Ok(CellShape::Square));
    refused(&["--cells", "big"], &["--cells big", "square", "wide"]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("config.toml");
    let env = with_config(dir.path(), "cells = \"wide\"\n");
    assert_eq!(cells(&[], &env), Ok(CellShape::Wide));
    assert_eq!(cells(&["--cells", "square"], &env), Ok(CellShape::Square));
    fs::write(&file, "cells = 3\n").unwrap();
    refused_in(&[], &env, &["cells = 3", "\"square\" or \"wide\""]);
}
