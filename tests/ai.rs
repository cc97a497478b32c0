//! The built-in player through the real binary's headless mode, over pipes.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use crate::pty::Watchdog;
use clines::ai::{self, Player};
use clines::board::{Board, Pos};
use clines::game::{Planned, Rules};

/// A `clines --batch` process to converse with, in its own temporary home.
struct Batch {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    _home: tempfile::TempDir,
    _watchdog: Watchdog,
}

impl Batch {
    fn start(args: &[&str]) -> Batch {
        let home = tempfile::tempdir().expect("a temporary directory");
        let mut child = Command::new(env!("CARGO_BIN_EXE_clines"))
            .arg("--batch")
            .args(args)
            .env_clear()
            .env("HOME", home.path())
            .env("XDG_CONFIG_HOME", home.path().join("config"))
            .env("XDG_DATA_HOME", home.path().join("data"))
            .env("CLINES_SCORE_DIR", home.path().join("scores"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the clines binary runs");
        let input = child.stdin.take().expect("piped stdin");
        let output = BufReader::new(child.stdout.take().expect("piped stdout"));
        Batch {
            _watchdog: Watchdog::new(&child),
            child,
            input,
            output,
            _home: home,
        }
    }

    /// Sends one command and reads its one-line answer.
    fn ask(&mut self, command: &str) -> String {
        writeln!(self.input, "{command}").expect("the game reads its input");
        self.input.flush().expect("the game reads its input");
        self.line(command)
    }

    /// Reads one more line of the answer to `command`.
    fn line(&mut self, command: &str) -> String {
        let mut answer = String::new();
        self.output
            .read_line(&mut answer)
            .expect("the game answers");
        assert!(answer.ends_with('\n'), "no answer to {command:?}");
        answer.trim_end().to_string()
    }

    fn finish(mut self) {
        writeln!(self.input, "quit").expect("the game reads its input");
        let status = self.child.wait().expect("the game exits");
        assert!(status.success(), "exit status {status}");
    }
}

/// The four coordinates of a `hint X1 Y1 X2 Y2` answer.
fn parse_hint(answer: &str) -> [usize; 4] {
    let words: Vec<&str> = answer.split(' ').collect();
    assert_eq!(words.len(), 5, "{answer:?}");
    assert_eq!(words[0], "hint", "{answer:?}");
    let numbers: Vec<usize> = words[1..]
        .iter()
        .map(|w| w.parse().unwrap_or_else(|_| panic!("{answer:?}")))
        .collect();
    numbers.try_into().expect("four numbers")
}

#[test]
fn hints_are_legal_moves_until_the_game_ends() {
    let mut game = Batch::start(&["--seed", "42", "-c", "7", "-w", "6", "-t", "6"]);
    let mut moves = 0;
    loop {
        let hint = game.ask("hint");
        let [x1, y1, x2, y2] = parse_hint(&hint);
        assert!(x1 < 6 && y1 < 6 && x2 < 6 && y2 < 6, "{hint:?}");
        let answer = game.ask(&format!("move {x1} {y1} {x2} {y2}"));
        assert!(
            answer.starts_with("ok removed="),
            "{hint:?} gave {answer:?}"
        );
        moves += 1;
        if answer.ends_with(" over") {
            break;
        }
        assert!(moves < 10_000, "a 6x6 game with 7 colours ends");
    }
    assert!(moves > 1);
    assert_eq!(game.ask("hint"), "error: game over");
    assert!(game.ask("status").ends_with("over=yes"));
    game.finish();
}

#[test]
fn hints_replay_with_the_seed() {
    let transcript = || {
        let mut game = Batch::start(&["--seed", "7"]);
        let answers: Vec<String> = (0..5)
            .map(|_| {
                let [x1, y1, x2, y2] = parse_hint(&game.ask("hint"));
                game.ask(&format!("move {x1} {y1} {x2} {y2}"))
                    + &format!(" after {x1} {y1} {x2} {y2}")
            })
            .collect();
        game.finish();
        answers
    };
    assert_eq!(transcript(), transcript());
}

#[test]
fn hint_takes_no_arguments_and_needs_a_chip() {
    let mut game = Batch::start(&["--seed", "1"]);
    assert!(game.ask("hint 1").starts_with("error: usage: hint"));
    assert_eq!(game.ask("clear"), "ok");
    assert!(game.ask("hint").starts_with("error: no move"));
    assert_eq!(game.ask("put 8 8 2"), "ok");
    let [x1, y1, ..] = parse_hint(&game.ask("hint"));
    assert_eq!((x1, y1), (8, 8));
    game.finish();
}

/// The board of a `width` × `height` game, read with `board`.
fn read_board(game: &mut Batch, width: usize, height: usize) -> Board {
    let mut board = Board::new(width, height);
    let first = game.ask("board");
    let rows: Vec<String> = std::iter::once(first)
        .chain((1..height).map(|_| game.line("board")))
        .collect();
    for (y, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), width, "{rows:?}");
        for (x, ch) in row.chars().enumerate() {
            let color = ch.to_digit(10).map(|d| d as u8);
            board.set(Pos::new(x, y), color);
        }
    }
    board
}

/// The planned throw, read with `next` (cells shown with `cells`).
fn read_plan(game: &mut Batch, cells: bool) -> Vec<Planned> {
    let answer = game.ask("next");
    let words: Vec<&str> = answer.split(' ').collect();
    assert_eq!(words[0], "next", "{answer:?}");
    let per_chip = if cells { 3 } else { 1 };
    words[1..]
        .chunks(per_chip)
        .map(|chip| Planned {
            color: chip[per_chip - 1].parse().expect("a colour digit"),
            pos: cells.then(|| {
                let x = chip[0].parse().expect("a column");
                let y = chip[1].parse().expect("a row");
                Pos::new(x, y)
            }),
        })
        .collect()
}

#[test]
fn hints_count_on_the_previewed_throw() {
    let rules = Rules {
        width: 6,
        height: 6,
        colors: 7,
        ..Rules::default()
    };
    let seed = 42;
    for (preview, cells) in [("colors", false), ("cells", true)] {
        let mut game = Batch::start(&[
            "--seed",
            "42",
            "-c",
            "7",
            "-w",
            "6",
            "-t",
            "6",
            "--preview",
            preview,
        ]);
        let mut player = Player::new(rules);
        let mut differing = 0;
        for _ in 0..8 {
            let board = read_board(&mut game, 6, 6);
            let planned = read_plan(&mut game, cells);
            assert_eq!(planned.len(), rules.next, "{preview}");
            let hint = parse_hint(&game.ask("hint"));
            let board_seed = ai::board_seed(&board, seed);
            let seeing = player
                .choose_seeing(&board, &planned, board_seed)
                .expect("a move");
            assert_eq!(
                hint,
                [seeing.from.x, seeing.from.y, seeing.to.x, seeing.to.y],
                "{preview}: the hint counts on the shown throw"
            );
            if player.choose(&board, board_seed) != Some(seeing) {
                differing += 1;
            }
            let [x1, y1, x2, y2] = hint;
            let answer = game.ask(&format!("move {x1} {y1} {x2} {y2}"));
            assert!(answer.starts_with("ok removed="), "{answer:?}");
            if answer.ends_with(" over") {
                break;
            }
        }
        assert!(differing > 0, "{preview}: the shown throw changed no hint");
        game.finish();
    }
}
