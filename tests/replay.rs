//! Seeded games recorded with an earlier version replay move for move: the
//! promise that a `--seed` game is the same game in every version.
//!
//! Each fixture starts with `# clines ARGS`, then lists commands, each
//! followed by its answer lines written after `> `.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Replays one fixture through the real binary and compares every answer.
fn replay(name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("the fixture is readable");
    let mut lines = text.lines();
    let header = lines.next().expect("a header line");
    let args: Vec<&str> = header
        .strip_prefix("# clines ")
        .expect("the header names the command line")
        .split_whitespace()
        .collect();
    let mut commands = String::new();
    let mut expected = Vec::new();
    for line in lines.filter(|l| !l.starts_with("# ")) {
        match line.strip_prefix("> ") {
            Some(answer) => expected.push(answer),
            None => {
                commands.push_str(line);
                commands.push('\n');
            }
        }
    }
    assert!(
        expected.len() > 100,
        "{name}: the fixture holds a real game"
    );

    let home = tempfile::tempdir().expect("a temporary directory");
    let mut child = Command::new(env!("CARGO_BIN_EXE_clines"))
        .args(&args)
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env("CLINES_SCORE_DIR", home.path().join("scores"))
        .env_remove("CLINES_CONFIG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the clines binary runs");
    let watchdog = crate::pty::Watchdog::new(&child);
    let mut stdin = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || stdin.write_all(commands.as_bytes()));
    let output = child.wait_with_output().expect("the game exits");
    drop(watchdog);
    writer
        .join()
        .expect("the writer thread ends")
        .expect("the game reads all its input");
    assert!(
        output.status.success(),
        "{name}: exit status {}",
        output.status
    );
    let actual = String::from_utf8(output.stdout).expect("the answers are UTF-8");
    let actual: Vec<&str> = actual.lines().collect();
    for (i, (want, got)) in expected.iter().zip(&actual).enumerate() {
        assert_eq!(got, want, "{name}: answer {} differs", i + 1);
    }
    assert_eq!(actual.len(), expected.len(), "{name}: number of answers");
}

#[test]
fn default_rules_game_replays() {
    replay("seed-20261123-default.txt");
}

#[test]
fn seven_colour_game_to_the_end_replays() {
    replay("seed-99-c7.txt");
}

#[test]
fn large_board_with_odd_rules_replays() {
    replay("seed-7-w20-t15-c7-n4-N10.txt");
}

#[test]
fn preview_cells_game_with_undos_replays() {
    replay("seed-5-preview-cells.txt");
}

#[test]
fn preview_colors_game_with_undos_replays() {
    replay("seed-6-preview-colors-c4.txt");
}
