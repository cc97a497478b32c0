//! The headless mode end to end: the real binary, `clines --batch`, over
//! real pipes, conversing one command and one answer at a time.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Duration;

use tempfile::TempDir;

use crate::pty::Watchdog;

/// How long an answer may take before the test gives up on it: generous,
/// as the machine may be busy; a missing flush fails long before anyone
/// would wait this long by hand.
const ANSWER_DEADLINE: Duration = Duration::from_secs(30);

/// `undo`'s error when no move can be taken back, saying which can.
const NOTHING_TO_UNDO: &str =
    "nothing to undo (only moves since the opening or the last put or clear go back)";

/// `clines --batch args`, its home and data directories in `home`.
fn clines(home: &TempDir, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_clines"));
    command
        .arg("--batch")
        .args(args)
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env("CLINES_SCORE_DIR", home.path().join("scores"))
        .env_remove("CLINES_CONFIG");
    command
}

/// A running `clines --batch` to converse with line by line.
struct Batch {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    _home: TempDir,
    _watchdog: Watchdog,
}

impl Batch {
    /// Starts `clines --batch` with `args`.
    fn start(args: &[&str]) -> Batch {
        Batch::start_in(TempDir::new().unwrap(), args)
    }

    /// Starts `clines --batch` with `args` and `config` as its config file.
    fn start_configured(config: &str, args: &[&str]) -> Batch {
        let home = TempDir::new().unwrap();
        let dir = home.path().join("config").join("clines");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("config.toml"), config).unwrap();
        Batch::start_in(home, args)
    }

    /// Starts `clines --batch` with `args`, its home in `home`.
    fn start_in(home: TempDir, args: &[&str]) -> Batch {
        let mut child = clines(&home, args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the binary starts");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (send, lines) = mpsc::channel();
        // A reader thread, so that a missing answer fails the test at the
        // deadline instead of blocking it for ever.
        thread::spawn(move || {
            for line in stdout.lines() {
                if send.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        Batch {
            _watchdog: Watchdog::new(&child),
            child,
            stdin,
            lines,
            _home: home,
        }
    }

    /// Sends one line as it is, without waiting for anything.
    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("input still open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line of output, which must come within the deadline.
    fn read_line(&self, after: &str) -> String {
        self.lines
            .recv_timeout(ANSWER_DEADLINE)
            .unwrap_or_else(|e| panic!("no answer to {after:?}: {e}"))
    }

    /// Sends `command` and returns its one-line answer.
    fn ask(&mut self, command: &str) -> String {
        self.send(command);
        self.read_line(command)
    }

    /// The board, one string per row (`height` rows).
    fn board(&mut self, height: usize) -> Vec<String> {
        self.send("board");
        (0..height).map(|_| self.read_line("board")).collect()
    }

    /// Asks for `put X Y C` on each chip, expecting `ok` each time.
    fn put_all(&mut self, chips: &[(usize, usize, u8)]) {
        for &(x, y, c) in chips {
            assert_eq!(self.ask(&format!("put {x} {y} {c}")), "ok");
        }
    }

    /// Clears the board and puts exactly `chips` on it.
    fn set_up(&mut self, chips: &[(usize, usize, u8)]) {
        assert_eq!(self.ask("clear"), "ok");
        self.put_all(chips);
    }

    /// Closes the input, checks nothing more was said, and waits for exit.
    fn finish(mut self) -> ExitStatus {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        let rest: Vec<String> = self.lines.iter().collect();
        assert_eq!(rest, Vec::<String>::new(), "output after the last answer");
        status
    }
}

/// Runs `clines --batch args` on all of `input` at once.
fn run_all(args: &[&str], input: &str) -> Output {
    let home = TempDir::new().unwrap();
    let mut child = clines(&home, args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let watchdog = Watchdog::new(&child);
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_owned();
    // Written from a thread so a large answer cannot deadlock the pipes.
    let writer = thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    drop(watchdog);
    match writer.join().unwrap() {
        // A program that refuses its options never reads its input.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        written => written.unwrap(),
    }
    output
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).expect("UTF-8 output")
}

/// The four cells `(0..4, y)` in colour `c`: a line of five once `(4, y)`
/// is filled.
fn four_in_row(y: usize, c: u8) -> Vec<(usize, usize, u8)> {
    (0..4).map(|x| (x, y, c)).collect()
}

#[test]
fn answers_come_one_line_at_a_time() {
    let mut game = Batch::start(&["--seed", "1"]);
    assert_eq!(game.ask("status"), "score=0 free=78 streak=0 over=no");
    let board = game.board(9);
    assert!(board.iter().all(|row| row.len() == 9), "{board:?}");
    let chips = board.concat().chars().filter(|&c| c != '.').count();
    assert_eq!(chips, 3, "the opening throw: {board:?}");
    assert!(
        board
            .concat()
            .chars()
            .all(|c| c == '.' || ('1'..='5').contains(&c))
    );
    assert_eq!(game.ask("status"), "score=0 free=78 streak=0 over=no");
    assert!(game.finish().success());
}

/// A script saved by an editor that begins files with a byte-order mark
/// still reads.
#[test]
fn a_byte_order_mark_before_the_first_command_is_ignored() {
    let output = run_all(&["--seed", "1"], "\u{feff}status\n");
    assert_eq!(output.status.code(), Some(0));
    assert!(
        text(&output.stdout).starts_with("score=0 free="),
        "{}",
        text(&output.stdout)
    );
}

#[test]
fn line_of_five_then_the_streak_bonus() {
    let mut game = Batch::start(&["--seed", "2"]);
    let mut chips = four_in_row(0, 1);
    chips.extend(four_in_row(4, 2));
    chips.extend(four_in_row(8, 3));
    chips.extend([(4, 2, 1), (4, 6, 2), (8, 6, 3), (8, 0, 4)]);
    game.set_up(&chips);
    assert_eq!(game.ask("move 4 2 4 0"), "ok removed=5 points=5 score=5");
    assert_eq!(game.ask("status"), "score=5 free=70 streak=1 over=no");
    assert_eq!(game.ask("move 4 6 4 4"), "ok removed=5 points=6 score=11");
    assert_eq!(game.ask("move 8 6 4 8"), "ok removed=5 points=9 score=20");
    assert_eq!(game.ask("status"), "score=20 free=80 streak=3 over=no");
    assert_eq!(game.board(9)[0], "........4");

    // A move that removes nothing ends the streak; the computer throws 3.
    assert_eq!(game.ask("move 8 0 0 0"), "ok removed=0 points=0 score=20");
    let status = game.ask("status");
    assert!(status.ends_with("streak=0 over=no"), "{status}");
    let mut again = four_in_row(0, 1);
    again.extend([(4, 2, 1), (8, 8, 2)]);
    game.set_up(&again);
    assert_eq!(game.ask("move 4 2 4 0"), "ok removed=5 points=5 score=25");
    assert!(game.finish().success());
}

#[test]
fn line_of_six_scores_12() {
    let mut game = Batch::start(&["--seed", "3"]);
    game.set_up(&[
        (0, 0, 2),
        (1, 0, 2),
        (2, 0, 2),
        (4, 0, 2),
        (5, 0, 2),
        (3, 5, 2),
        (8, 8, 1),
    ]);
    assert_eq!(game.ask("move 3 5 3 0"), "ok removed=6 points=12 score=12");
    assert_eq!(game.ask("status"), "score=12 free=80 streak=1 over=no");
    assert!(game.finish().success());
}

#[test]
fn two_lines_crossing_at_the_moved_chip_score_45() {
    let mut game = Batch::start(&["--seed", "4"]);
    let mut chips = four_in_row(4, 3);
    chips.extend([
        (4, 0, 3),
        (4, 1, 3),
        (4, 2, 3),
        (4, 3, 3),
        (8, 8, 3),
        (0, 8, 1),
    ]);
    game.set_up(&chips);
    assert_eq!(game.ask("move 8 8 4 4"), "ok removed=9 points=45 score=45");
    let board = game.board(9);
    assert_eq!(board.concat().replace('.', ""), "1", "{board:?}");
    assert_eq!(board[8], "1........");
    assert!(game.finish().success());
}

#[test]
fn a_walled_in_chip_has_no_path() {
    let mut game = Batch::start(&["--seed", "5"]);
    game.set_up(&[(0, 0, 1), (1, 0, 2), (0, 1, 2), (1, 1, 2)]);
    let (board, status) = (game.board(9), game.ask("status"));
    assert_eq!(game.ask("move 0 0 8 8"), "error: no path");
    assert_eq!((game.board(9), game.ask("status")), (board, status));
    assert!(game.finish().success());
}

#[test]
fn game_over_when_the_computer_cannot_throw() {
    // 3 × 3 cannot hold a line of 5; fill all but (1, 2) and (2, 2).
    let mut game = Batch::start(&["-w3", "-t3", "--seed", "6"]);
    let chips: Vec<_> = (0..7).map(|i| (i % 3, i / 3, (i % 5) as u8 + 1)).collect();
    game.set_up(&chips);
    assert_eq!(
        game.ask("move 2 1 2 2"),
        "ok removed=0 points=0 score=0 over"
    );
    let (board, status) = (game.board(3), game.ask("status"));
    assert_eq!(status, "score=0 free=2 streak=0 over=yes");
    assert_eq!(board, ["123", "45.", "2.1"]);
    assert_eq!(game.ask("move 0 0 2 1"), "error: game over");
    assert_eq!(game.ask("hint"), "error: game over");
    assert_eq!(
        game.ask("put 3 0 1"),
        "error: off the board (X from 0 to 2, Y from 0 to 2)"
    );
    assert_eq!((game.board(3), game.ask("status")), (board, status));
    // Setting up a position starts play again from it, and status agrees.
    assert_eq!(game.ask("put 0 0 0"), "ok");
    assert_eq!(game.ask("status"), "score=0 free=3 streak=0 over=no");
    assert_eq!(
        game.ask("move 1 0 0 0"),
        "ok removed=0 points=0 score=0 over"
    );
    assert_eq!(game.ask("clear"), "ok");
    assert_eq!(game.ask("status"), "score=0 free=9 streak=0 over=no");
    assert!(game.finish().success());
}

#[test]
fn game_over_when_the_throw_fills_the_board() {
    let mut game = Batch::start(&["-w", "3", "-t", "3", "-n", "2", "--seed", "6"]);
    let chips: Vec<_> = (0..7).map(|i| (i % 3, i / 3, (i % 5) as u8 + 1)).collect();
    game.set_up(&chips);
    assert_eq!(
        game.ask("move 2 1 2 2"),
        "ok removed=0 points=0 score=0 over"
    );
    assert_eq!(game.ask("status"), "score=0 free=0 streak=0 over=yes");
    assert!(game.finish().success());
}

/// `put` takes a colour as a number or as `board` and `next` show it, so
/// what a script reads it can write back.
#[test]
fn put_takes_colours_as_board_shows_them() {
    let mut game = Batch::start(&["--seed", "3", "-c", "35", "-p", "colors"]);
    assert_eq!(game.ask("clear"), "ok");
    let shown = game.ask("next");
    let letters: Vec<&str> = shown.split(' ').skip(1).collect();
    assert_eq!(letters.len(), 3, "{shown}");
    for (x, letter) in letters.iter().enumerate() {
        assert_eq!(game.ask(&format!("put {x} 0 {letter}")), "ok", "{letter}");
    }
    for (x, color) in ["a", "z", "35", "9", "10"].iter().enumerate() {
        assert_eq!(game.ask(&format!("put {x} 1 {color}")), "ok", "{color}");
    }
    assert_eq!(game.ask("put 0 2 7"), "ok");
    assert_eq!(game.ask("put 0 2 ."), "ok");
    let board = game.board(9);
    assert_eq!(board[0][..3], letters.concat(), "{board:?}");
    assert_eq!(&board[1][..5], "azz9a", "{board:?}");
    assert_eq!(&board[2][..1], ".", "{board:?}");
    for bad in ["A", "ab", "-1", "?"] {
        let answer = game.ask(&format!("put 0 0 {bad}"));
        assert!(
            answer.starts_with("error: usage: put X Y C") && answer.contains("a-z"),
            "{bad}: {answer}"
        );
    }
}

#[test]
fn every_error_answers_one_line_and_changes_nothing() {
    let mut game = Batch::start(&["--seed", "7"]);
    // A 1 walled into the corner, a free 4, and four 4s waiting for it.
    let mut chips = vec![(0, 0, 1), (1, 0, 2), (0, 1, 2), (1, 1, 2), (6, 6, 4)];
    chips.extend(four_in_row(8, 4));
    game.set_up(&chips);
    let (board, status) = (game.board(9), game.ask("status"));
    let cases = [
        ("jump 1 2", "unknown command"),
        ("MOVE 6 6 5 5", "unknown command"),
        ("move 6 6 5", "usage: move X1 Y1 X2 Y2"),
        ("move 6 6 5 5 4", "usage: move X1 Y1 X2 Y2"),
        ("move a b c d", "usage: move X1 Y1 X2 Y2"),
        ("move -1 0 5 5", "usage: move X1 Y1 X2 Y2"),
        ("put 1 2", "usage: put X Y C"),
        ("put x 2 1", "usage: put X Y C"),
        ("status now", "usage: status"),
        ("clear all", "usage: clear"),
        ("board 1", "usage: board"),
        ("quit now", "usage: quit"),
        ("move 9 0 5 5", "off the board"),
        ("move 6 6 5 9", "off the board"),
        ("move 99999999999999999999 0 1 1", "off the board"),
        ("put 0 99999999999999999999 1", "off the board"),
        ("put 9 9 1", "off the board (X from 0 to 8, Y from 0 to 8)"),
        ("move 5 5 5 6", "no chip there"),
        ("move 6 6 1 1", "target occupied"),
        ("move 6 6 6 6", "target occupied"),
        ("move 0 0 5 5", "no path"),
        ("put 5 5 6", "colour 6 is not 0 or . (empty) or 1 to 5"),
        ("put 5 5 36", "colour 36"),
        ("put 5 5 z", "colour z is not"),
        (
            "put 5 5 99999999999999999999",
            "colour 99999999999999999999 is not",
        ),
        // Numbers are digits only, whatever their sign.
        ("move +6 6 5 5", "usage: move X1 Y1 X2 Y2"),
        ("move 6 6 -0 5", "usage: move X1 Y1 X2 Y2"),
        ("put 5 5 +1", "usage: put X Y C"),
        ("rules now", "usage: rules"),
    ];
    for (command, reason) in cases {
        let answer = game.ask(command);
        assert!(
            answer.starts_with("error: ") && answer.contains(reason),
            "{command:?} -> {answer:?}"
        );
        assert_eq!(game.board(9), board, "after {command:?}");
        assert_eq!(game.ask("status"), status, "after {command:?}");
    }
    // The game still plays normally afterwards.
    assert_eq!(game.ask("move 6 6 4 8"), "ok removed=5 points=5 score=5");
    assert!(game.finish().success());
}

#[test]
fn put_and_clear_set_up_positions_and_keep_the_score() {
    let mut game = Batch::start(&["-w5", "-t2", "--seed", "8"]);
    game.set_up(&[(0, 0, 1), (4, 1, 5)]);
    assert_eq!(game.board(2), ["1....", "....5"]);
    assert_eq!(game.ask("put 0 0 0"), "ok");
    assert_eq!(game.ask("put 4 1 3"), "ok");
    assert_eq!(game.board(2), [".....", "....3"]);
    assert_eq!(game.ask("status"), "score=0 free=9 streak=0 over=no");
    game.put_all(&four_in_row(0, 3));
    assert_eq!(game.ask("move 4 1 4 0"), "ok removed=5 points=5 score=5");
    // The board was left empty, so the computer threw, starting a new
    // player turn: the streak is over.
    assert_eq!(game.ask("status"), "score=5 free=7 streak=0 over=no");
    assert_eq!(game.ask("clear"), "ok");
    assert_eq!(game.ask("status"), "score=5 free=10 streak=0 over=no");
    assert!(game.finish().success());
}

#[test]
fn blank_lines_and_comments_are_ignored() {
    let input = "\n# a comment\n   \n\t\nstatus\n   # an indented comment\n\n";
    let output = run_all(&["--seed", "9"], input);
    assert!(output.status.success());
    assert_eq!(text(&output.stdout), "score=0 free=78 streak=0 over=no\n");
    assert_eq!(text(&output.stderr), "");
}

#[test]
fn quit_and_end_of_input_exit_successfully() {
    let quit = run_all(&["--seed", "10"], "status\nquit\nstatus\n");
    assert_eq!(quit.status.code(), Some(0));
    assert_eq!(text(&quit.stdout), "score=0 free=78 streak=0 over=no\n");

    let eof = run_all(&["--seed", "10"], "status");
    assert_eq!(eof.status.code(), Some(0));
    assert_eq!(text(&eof.stdout), "score=0 free=78 streak=0 over=no\n");

    let mut game = Batch::start(&["--seed", "10"]);
    game.send("quit");
    assert_eq!(game.finish().code(), Some(0));
    let silent = Batch::start(&["--seed", "10"]);
    assert_eq!(silent.finish().code(), Some(0));
}

#[test]
fn colours_above_9_are_letters() {
    let mut game = Batch::start(&["-c", "12", "-w", "4", "-t", "2", "--seed", "11"]);
    game.set_up(&[(0, 0, 9), (1, 0, 10), (2, 0, 11), (3, 0, 12), (0, 1, 1)]);
    assert_eq!(game.board(2), ["9abc", "1..."]);
    let answer = game.ask("put 1 1 13");
    assert!(answer.starts_with("error: colour 13"), "{answer}");
    assert!(game.finish().success());

    let mut most = Batch::start(&["-c35", "-w1", "-t1", "-n1", "-N1", "--seed", "11"]);
    assert_eq!(most.ask("put 0 0 35"), "ok");
    assert_eq!(most.board(1), ["z"]);
    assert!(most.finish().success());
}

#[test]
fn rule_flags_take_values_attached_or_separate() {
    let script = "status\nboard\nmove 0 0 11 6\nmove 3 3 4 4\nstatus\nboard\n";
    let attached = run_all(&["-w12", "-t7", "-c3", "-n2", "-N4", "--seed=12"], script);
    let separate = run_all(
        &[
            "-w", "12", "-t", "7", "-c", "3", "-n", "2", "-N", "4", "--seed", "12",
        ],
        script,
    );
    assert!(attached.status.success() && separate.status.success());
    assert_eq!(text(&attached.stdout), text(&separate.stdout));
    let lines: Vec<&str> = text(&attached.stdout).lines().collect();
    assert_eq!(lines[0], "score=0 free=80 streak=0 over=no");
    assert_eq!(lines.len(), 1 + 7 + 3 + 7);
    assert!(lines[1..8].iter().all(|row| row.len() == 12));
    let chips = lines[1..8].concat().chars().filter(|&c| c != '.').count();
    assert_eq!(chips, 4, "-N4 throws four");
    assert!(lines[1..8].concat().chars().all(|c| ".123".contains(c)));
}

#[test]
fn a_bad_rule_value_is_one_line_naming_the_flag_and_range() {
    let cases: [(&[&str], &str, &str); 11] = [
        (&["-w0"], "-w 0", "1 to 1000"),
        // A board under 3 cells with -n or -N left at its default; with
        // both wrong, both are named at once, given or not.
        (&["-w1", "-t1"], "-n 3 (the default)", "0 to 1"),
        (&["-w1", "-t1"], "and -N 3 (the default)", "1 to 1"),
        (&["-w1", "-t1", "-N5"], "and -N 5", "1 to 1"),
        (&["-w2", "-t1", "-n1"], "-N 3 (the default)", "1 to 2"),
        (&["-t", "1001"], "-t 1001", "1 to 1000"),
        (&["-c36"], "-c 36", "1 to 35"),
        (&["-c", "0"], "-c 0", "1 to 35"),
        (&["-i1"], "-i 1", "2 to 1000"),
        (&["-n", "82"], "-n 82", "0 to 81"),
        (&["-w3", "-t3", "-N10"], "-N 10", "1 to 9"),
    ];
    for (args, flag, range) in cases {
        let output = run_all(args, "status\n");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(text(&output.stdout), "", "{args:?}");
        let stderr = text(&output.stderr);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr:?}");
        assert!(
            stderr.contains(flag) && stderr.contains(range),
            "{args:?}: {stderr:?}"
        );
    }
}

#[test]
fn a_1000_by_1000_board_works() {
    let mut game = Batch::start(&["-w", "1000", "-t", "1000", "--seed", "13"]);
    game.set_up(&[(0, 0, 1)]);
    // A wall across the middle row but for the last cell.
    for x in 0..999 {
        game.send(&format!("put {x} 500 {}", x % 5 + 1));
    }
    for x in 0..999 {
        assert_eq!(game.read_line("put"), "ok", "put {x} 500");
    }
    assert_eq!(game.ask("move 0 0 0 999"), "ok removed=0 points=0 score=0");
    assert_eq!(game.ask("status"), "score=0 free=998997 streak=0 over=no");
    let board = game.board(1000);
    assert!(board.iter().all(|row| row.len() == 1000));
    assert_eq!(&board[999][..1], "1");
    assert_eq!(&board[0][..1], ".");
    assert!(board[500].ends_with("4."));
    assert_eq!(game.ask("put 999 500 1"), "ok");
    assert_eq!(game.ask("move 0 999 0 0"), "error: no path");
    assert!(game.finish().success());
}

/// Plays 25 moves chosen from what `board` shows, recording every line.
fn transcript(seed: &str) -> Vec<String> {
    let mut game = Batch::start(&["--seed", seed]);
    let mut lines = Vec::new();
    for turn in 0..25 {
        let board = game.board(9);
        let cells: Vec<char> = board.concat().chars().collect();
        let chips: Vec<usize> = (0..81).filter(|&i| cells[i] != '.').collect();
        let empty: Vec<usize> = (0..81).filter(|&i| cells[i] == '.').collect();
        lines.extend(board);
        if chips.is_empty() || empty.is_empty() {
            break;
        }
        let (from, to) = (chips[turn % chips.len()], empty[turn * 7 % empty.len()]);
        let answer = game.ask(&format!(
            "move {} {} {} {}",
            from % 9,
            from / 9,
            to % 9,
            to / 9
        ));
        lines.push(answer);
        lines.push(game.ask("status"));
    }
    assert!(game.finish().success());
    lines
}

#[test]
fn the_same_seed_gives_the_same_transcript() {
    let first = transcript("14");
    assert_eq!(first, transcript("14"));
    assert_ne!(first, transcript("15"));
    let moves = first.iter().filter(|l| l.starts_with("ok ")).count();
    assert!(moves >= 10, "too few moves played: {first:?}");
}

#[test]
fn a_line_that_is_not_utf8_is_an_unknown_command() {
    let home = TempDir::new().unwrap();
    let mut child = clines(&home, &["--seed", "16"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let watchdog = Watchdog::new(&child);
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"status\n\xff\xfe 1 2\nmove \xff 0 1 1\nstatus\n")
        .unwrap();
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    drop(watchdog);
    assert_eq!(output.status.code(), Some(0));
    let answers: Vec<&str> = text(&output.stdout).lines().collect();
    assert_eq!(answers.len(), 4, "{answers:?}");
    assert_eq!(answers[0], answers[3]);
    assert!(
        answers[1].starts_with("error: unknown command"),
        "{answers:?}"
    );
    assert!(answers[2].starts_with("error: usage: move"), "{answers:?}");
    assert_eq!(text(&output.stderr), "");
}

#[test]
fn quoted_commands_are_escaped_and_cut() {
    let long = "x".repeat(3000);
    let input = format!("\u{1b}]0;pwned\u{7}\n\u{202e}evil \u{9b}31m\n{long}\nstatus\n");
    let output = run_all(&["--seed", "17"], &input);
    assert_eq!(output.status.code(), Some(0));
    let answers: Vec<&str> = text(&output.stdout).lines().collect();
    assert_eq!(answers.len(), 4, "{answers:?}");
    for answer in &answers[..3] {
        assert!(answer.starts_with("error: unknown command"), "{answer:?}");
        assert!(
            answer.chars().all(|c| c == '…' || (' '..='~').contains(&c)),
            "{answer:?}"
        );
        assert!(answer.len() < 200, "{answer:?}");
    }
    assert!(
        answers[0].contains(r#""\u{1b}]0;pwned\u{7}""#),
        "{answers:?}"
    );
    assert!(answers[1].contains(r"\u{202e}evil"), "{answers:?}");
    assert!(answers[2].contains("xxxxxxxxxx…\""), "{answers:?}");
    assert!(answers[3].starts_with("score=0 "), "{answers:?}");
}

#[test]
fn an_over_long_line_is_answered_once_without_being_read_whole() {
    // 20 MB with no newline, then more commands: one short error, then the
    // rest is played, and the program ends with its input.
    let mut input = "\0".repeat(20_000_000);
    input.push_str("\nstatus\n# ");
    input.push_str(&"c".repeat(20_000));
    input.push_str("\nstatus\n");
    let output = run_all(&["--seed", "18"], &input);
    assert_eq!(output.status.code(), Some(0));
    let answers: Vec<&str> = text(&output.stdout).lines().collect();
    assert_eq!(answers.len(), 3, "{:?}", text(&output.stdout).get(..200));
    assert_eq!(
        answers[0],
        "error: line longer than 4096 bytes, ignored (commands are short)"
    );
    assert!(answers[1].starts_with("score=0 "), "{answers:?}");
    assert_eq!(answers[1], answers[2]);
}

#[test]
fn an_over_long_line_is_answered_before_its_newline() {
    let mut game = Batch::start(&["--seed", "19"]);
    let stdin = game.stdin.as_mut().unwrap();
    stdin.write_all(&[b'x'; 5000]).unwrap();
    stdin.flush().unwrap();
    assert!(
        game.read_line("5000 bytes")
            .starts_with("error: line longer")
    );
    game.send(" and the rest of it");
    assert!(game.ask("status").starts_with("score=0 "));
    assert!(game.finish().success());
}

#[test]
fn unreadable_standard_input_is_named() {
    let home = TempDir::new().unwrap();
    let directory = std::fs::File::open(home.path()).unwrap();
    let output = clines(&home, &[]).stdin(directory).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(text(&output.stdout), "");
    let stderr = text(&output.stderr);
    assert!(
        stderr.starts_with("clines: cannot read standard input: "),
        "{stderr:?}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
}

#[test]
fn hint_says_why_there_is_no_move() {
    let mut game = Batch::start(&["-w3", "-t3", "--seed", "20"]);
    assert_eq!(game.ask("clear"), "ok");
    assert_eq!(game.ask("hint"), "error: no move: the board has no chip");
    let full: Vec<_> = (0..9).map(|i| (i % 3, i / 3, (i % 5) as u8 + 1)).collect();
    game.put_all(&full);
    assert_eq!(
        game.ask("hint"),
        "error: no move: the board is full, with no empty cell to move to"
    );
    assert_eq!(game.ask("put 1 1 0"), "ok");
    assert!(game.ask("hint").starts_with("hint "));
    assert!(game.finish().success());
}

/// The answer to `next` as (cell, colour) pairs; the cell is `None` with
/// `--preview colors`.
fn planned(answer: &str, cells: bool) -> Vec<(Option<(usize, usize)>, char)> {
    let words: Vec<&str> = answer
        .strip_prefix("next ")
        .unwrap_or_else(|| panic!("not a next answer: {answer:?}"))
        .split(' ')
        .collect();
    let colour = |w: &str| w.chars().next().unwrap();
    if cells {
        words
            .chunks(3)
            .map(|c| {
                (
                    Some((c[0].parse().unwrap(), c[1].parse().unwrap())),
                    colour(c[2]),
                )
            })
            .collect()
    } else {
        words.iter().map(|w| (None, colour(w))).collect()
    }
}

/// The character at `(x, y)` of a board as `board` prints it.
fn cell(board: &[String], (x, y): (usize, usize)) -> char {
    board[y].as_bytes()[x] as char
}

/// The chips of a board as `(x, y, colour character)`, row by row.
fn chips_of(board: &[String]) -> Vec<(usize, usize, char)> {
    let mut chips = Vec::new();
    for (y, row) in board.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            if c != '.' {
                chips.push((x, y, c));
            }
        }
    }
    chips
}

/// The chips of `after` on cells that were empty in `before` and that no
/// chip of the throw `next` was planned for: those that landed off plan.
fn landed_off_plan(
    before: &[String],
    after: &[String],
    next: &[(Option<(usize, usize)>, char)],
) -> Vec<(usize, usize, char)> {
    chips_of(after)
        .into_iter()
        .filter(|&(x, y, _)| {
            cell(before, (x, y)) == '.' && next.iter().all(|p| p.0 != Some((x, y)))
        })
        .collect()
}

/// `board` with the chip at `from` moved to `to`.
fn moved(board: &[String], from: (usize, usize), to: (usize, usize)) -> Vec<String> {
    let mut board = board.to_vec();
    let colour = cell(&board, from).to_string();
    board[from.1].replace_range(from.0..from.0 + 1, ".");
    board[to.1].replace_range(to.0..to.0 + 1, &colour);
    board
}

#[test]
fn preview_colors_names_the_colours_the_next_throw_brings() {
    for seed in ["1", "2", "3"] {
        let mut game = Batch::start(&["--preview", "colors", "--seed", seed]);
        let next = game.ask("next");
        let mut colours: Vec<char> = planned(&next, false).iter().map(|p| p.1).collect();
        assert_eq!(colours.len(), 3, "{next}");
        let before = game.board(9);
        let (x, y, _) = chips_of(&before)[0];
        // The opening's three chips cannot make a line: this move is quiet.
        let to = if (x, y) == (0, 8) { (1, 8) } else { (0, 8) };
        let answer = game.ask(&format!("move {x} {y} {} {}", to.0, to.1));
        assert_eq!(answer, "ok removed=0 points=0 score=0");
        let moved = moved(&before, (x, y), to);
        let after = game.board(9);
        let mut thrown: Vec<char> = chips_of(&after)
            .iter()
            .filter(|&&(x, y, _)| cell(&moved, (x, y)) == '.')
            .map(|c| c.2)
            .collect();
        colours.sort_unstable();
        thrown.sort_unstable();
        assert_eq!(thrown, colours, "seed {seed}: {before:?} then {after:?}");
        assert!(game.ask("next").starts_with("next "));
        assert!(game.finish().success());
    }
}

#[test]
fn preview_cells_shows_where_the_throw_lands_and_a_taken_cell_moves_its_chip() {
    for seed in ["4", "5", "6"] {
        let mut game = Batch::start(&["-p", "cells", "--seed", seed]);
        let next = planned(&game.ask("next"), true);
        assert_eq!(next.len(), 3);
        let before = game.board(9);
        for &(pos, _) in &next {
            assert_eq!(cell(&before, pos.unwrap()), '.', "planned on an empty cell");
        }
        let (x, y, colour) = chips_of(&before)[0];
        // Onto the first planned cell: its chip of the throw lands elsewhere.
        let (tx, ty) = next[0].0.unwrap();
        let answer = game.ask(&format!("move {x} {y} {tx} {ty}"));
        assert_eq!(answer, "ok removed=0 points=0 score=0");
        let after = game.board(9);
        assert_eq!(cell(&after, (tx, ty)), colour, "the moved chip stays");
        for &(pos, c) in &next[1..] {
            assert_eq!(cell(&after, pos.unwrap()), c, "seed {seed}: {after:?}");
        }
        let moved = moved(&before, (x, y), (tx, ty));
        let elsewhere = landed_off_plan(&moved, &after, &next);
        assert_eq!(elsewhere.len(), 1, "seed {seed}: {after:?}");
        assert_eq!(elsewhere[0].2, next[0].1);

        // A move elsewhere throws exactly what was shown.
        let next = planned(&game.ask("next"), true);
        let (x, y, _) = chips_of(&after)[0];
        let to = (0..81)
            .map(|i| (i % 9, i / 9))
            .find(|&p| cell(&after, p) == '.' && next.iter().all(|n| n.0 != Some(p)))
            .unwrap();
        let answer = game.ask(&format!("move {x} {y} {} {}", to.0, to.1));
        assert!(answer.starts_with("ok "), "{answer}");
        let board = game.board(9);
        if answer == "ok removed=0 points=0 score=0" {
            for &(pos, c) in &next {
                assert_eq!(cell(&board, pos.unwrap()), c, "seed {seed}: {board:?}");
            }
        }
        assert!(game.finish().success());
    }
}

/// `next` answers the throw as planned, as the manual says: a planned cell
/// that `put` fills is still named, and its chip lands elsewhere at the
/// throw, as when a move fills it.
#[test]
fn next_after_put_shows_the_throw_as_planned() {
    let mut game = Batch::start(&["-p", "cells", "--seed", "4"]);
    let answer = game.ask("next");
    let next = planned(&answer, true);
    let (px, py) = next[0].0.unwrap();
    let before = game.board(9);
    let put = if next[0].1 == '1' { '2' } else { '1' };
    assert_eq!(game.ask(&format!("put {px} {py} {put}")), "ok");
    assert_eq!(game.ask("next"), answer, "the plan stays as it was");
    let (x, y, _) = chips_of(&before)[0];
    let to = (0..81)
        .map(|i| (i % 9, i / 9))
        .find(|&p| p != (px, py) && cell(&before, p) == '.' && next.iter().all(|n| n.0 != Some(p)))
        .unwrap();
    let answer = game.ask(&format!("move {x} {y} {} {}", to.0, to.1));
    assert_eq!(answer, "ok removed=0 points=0 score=0");
    let after = game.board(9);
    assert_eq!(cell(&after, (px, py)), put, "the chip put there stays");
    for &(pos, c) in &next[1..] {
        assert_eq!(cell(&after, pos.unwrap()), c, "{after:?}");
    }
    let mut expected = moved(&before, (x, y), to);
    expected[py].replace_range(px..px + 1, &put.to_string());
    let elsewhere = landed_off_plan(&expected, &after, &next);
    assert_eq!(elsewhere.len(), 1, "{after:?}");
    assert_eq!(elsewhere[0].2, next[0].1);
    assert!(game.finish().success());
}

#[test]
fn next_is_refused_without_a_preview_and_after_the_end() {
    let mut game = Batch::start(&["--seed", "7"]);
    let answer = game.ask("next");
    assert!(
        answer.starts_with("error: ") && answer.contains("--preview"),
        "{answer}"
    );
    assert!(game.finish().success());

    let mut game = Batch::start(&["-w3", "-t3", "-p", "colors", "--seed", "6"]);
    assert_eq!(game.ask("next 1"), "error: usage: next (no arguments)");
    let chips: Vec<_> = (0..7).map(|i| (i % 3, i / 3, (i % 5) as u8 + 1)).collect();
    game.set_up(&chips);
    assert_eq!(
        game.ask("move 2 1 2 2"),
        "ok removed=0 points=0 score=0 over"
    );
    assert_eq!(game.ask("next"), "error: game over");
    // Setting up a position revives the game, with a throw planned again.
    assert_eq!(game.ask("put 0 0 0"), "ok");
    let next = game.ask("next");
    assert_eq!(planned(&next, false).len(), 3, "{next}");
    assert!(game.finish().success());
}

#[test]
fn undo_takes_moves_back_to_the_opening_and_the_same_move_brings_the_same_throw() {
    for preview in ["off", "colors", "cells"] {
        let mut game = Batch::start(&["-p", preview, "--seed", "8"]);
        let mut states = Vec::new();
        for turn in 0..6 {
            let board = game.board(9);
            let state = (board.clone(), game.ask("status"));
            let chips = chips_of(&board);
            let (x, y, _) = chips[turn % chips.len()];
            let to = (0..81)
                .map(|i| (i % 9, i / 9))
                .find(|&p| cell(&board, p) == '.')
                .unwrap();
            let command = format!("move {x} {y} {} {}", to.0, to.1);
            let answer = game.ask(&command);
            assert!(answer.starts_with("ok "), "{answer}");
            states.push((state, command, answer, game.board(9)));
        }
        while let Some(((board, status), command, answer, after)) = states.pop() {
            let score = status.split(' ').next().unwrap().replace("score=", "");
            assert_eq!(game.ask("undo"), format!("ok score={score}"));
            assert_eq!((game.board(9), game.ask("status")), (board, status));
            // Again, and again back.
            assert_eq!(game.ask(&command), answer);
            assert_eq!(game.board(9), after, "{preview}: {command}");
            game.ask("undo");
        }
        assert_eq!(game.ask("undo"), format!("error: {NOTHING_TO_UNDO}"));
        assert_eq!(game.ask("undo now"), "error: usage: undo (no arguments)");
        assert!(game.finish().success());
    }
}

/// A set-up ends what `undo` can take back, and its error says so; a move
/// made after it can be taken back.
#[test]
fn put_and_clear_end_what_undo_takes_back() {
    // The first chip to the first empty cell.
    let a_move = |board: &[String]| {
        let (x, y, _) = chips_of(board)[0];
        let to = (0..81)
            .map(|i| (i % 9, i / 9))
            .find(|&p| cell(board, p) == '.')
            .unwrap();
        format!("move {x} {y} {} {}", to.0, to.1)
    };
    let mut game = Batch::start(&["--seed", "8"]);
    for setup in ["put 0 0 1", "clear"] {
        let first = a_move(&game.board(9));
        let answer = game.ask(&first);
        assert!(answer.starts_with("ok "), "{answer}");
        assert_eq!(game.ask(setup), "ok");
        assert_eq!(game.ask("undo"), format!("error: {NOTHING_TO_UNDO}"));
        if setup == "clear" {
            assert_eq!(game.ask("put 4 4 2"), "ok");
        }
        let board = game.board(9);
        let status = game.ask("status");
        let answer = game.ask(&a_move(&board));
        assert!(answer.starts_with("ok "), "{answer}");
        assert!(game.ask("undo").starts_with("ok score="));
        assert_eq!((game.board(9), game.ask("status")), (board, status));
        assert_eq!(game.ask("undo"), format!("error: {NOTHING_TO_UNDO}"));
    }
    assert!(game.finish().success());
}

#[test]
fn undo_reopens_a_lost_game_and_restores_the_plan() {
    let mut game = Batch::start(&["-w3", "-t3", "-p", "cells", "--seed", "6"]);
    let chips: Vec<_> = (0..6).map(|i| (i % 3, i / 3, (i % 5) as u8 + 1)).collect();
    game.set_up(&chips);
    // The plan was made before the set-up; a quiet move throws it.
    assert_eq!(
        game.ask("move 2 1 2 2"),
        "ok removed=0 points=0 score=0 over"
    );
    assert_eq!(game.ask("status"), "score=0 free=0 streak=0 over=yes");
    assert_eq!(game.ask("undo"), "ok score=0");
    assert_eq!(game.ask("status"), "score=0 free=3 streak=0 over=no");
    let next = game.ask("next");
    assert_eq!(planned(&next, true).len(), 3, "{next}");
    assert!(game.finish().success());
}

#[test]
fn a_bad_preview_is_refused_naming_what_is_accepted() {
    let output = run_all(&["-p", "colours"], "status\n");
    assert_eq!(output.status.code(), Some(2));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("-p colours") && stderr.contains("off (nothing), colors or cells"),
        "{stderr}"
    );
}

#[test]
fn rules_says_what_the_config_set_and_the_seed_that_replays_the_game() {
    let config = "width = 6\nheight = 4\ncolors = 12\npreview = \"cells\"\n";
    let mut game = Batch::start_configured(config, &[]);
    let rules = game.ask("rules");
    let seed = rules
        .strip_prefix("rules width=6 height=4 colors=12 line=5 next=3 first=3 preview=cells seed=")
        .unwrap_or_else(|| panic!("{rules}"));
    assert!(seed.parse::<u64>().is_ok(), "{rules}");
    let (board, next) = (game.board(4), game.ask("next"));
    assert!(game.finish().success());
    // The seed it gave plays the same game.
    let mut again = Batch::start(&["-w6", "-t4", "-c12", "-p", "cells", "--seed", seed]);
    assert_eq!(again.ask("rules"), rules);
    assert_eq!((again.board(4), again.ask("next")), (board, next));
    assert!(again.finish().success());
}

/// The headless examples of the README and the manual, run as written:
/// what they show is what the program answers.
#[test]
fn the_documented_examples_answer_as_shown() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |name: &str| std::fs::read_to_string(root.join(name)).expect(name);
    // The manual's roff, as it reads once formatted.
    let unroff = |line: &str| {
        line.replace("\\(aq", "'")
            .replace("\\en", "\\n")
            .replace("\\-", "-")
            .replace("\\&", "")
    };
    let readme: Vec<String> = read("README.md").lines().map(str::to_string).collect();
    let manual: Vec<String> = read("man/clines.6").lines().map(unroff).collect();
    for (name, lines) in [("README.md", readme), ("man/clines.6", manual)] {
        let at = lines
            .iter()
            .position(|line| line.starts_with("$ printf '"))
            .unwrap_or_else(|| panic!("{name}: no example"));
        let (input, args) = lines[at]
            .strip_prefix("$ printf '")
            .and_then(|rest| rest.split_once("' | clines --batch "))
            .unwrap_or_else(|| panic!("{name}: {}", lines[at]));
        let args: Vec<&str> = args.split_whitespace().collect();
        let shown: Vec<&str> = lines[at + 1..]
            .iter()
            .take_while(|line| !line.starts_with("```") && !line.starts_with(".EE"))
            .map(String::as_str)
            .collect();
        assert!(shown.len() > 2, "{name}: {shown:?}");
        let output = run_all(&args, &input.replace("\\n", "\n"));
        assert!(output.status.success(), "{name}");
        let answered: Vec<&str> = text(&output.stdout).lines().collect();
        assert_eq!(answered, shown, "{name}");
    }
}

/// An answer that cannot be written for another reason than a reader gone
/// (a full disk) stops the game with status 1 and says why; a reader gone
/// is no error (`cli::a_reader_that_stops_early_is_no_error`).
#[cfg(target_os = "linux")]
#[test]
fn answers_that_cannot_be_written_end_with_status_1() {
    let home = TempDir::new().unwrap();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let mut child = clines(&home, &["--seed", "17"])
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let watchdog = Watchdog::new(&child);
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(b"status\nstatus\n");
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    drop(watchdog);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).starts_with("clines: cannot write standard output: "),
        "{:?}",
        text(&output.stderr)
    );
}

/// With one colour, `put`'s error names it alone, not a range `1 to 1`.
#[test]
fn a_colour_past_the_only_one_is_named() {
    let mut game = Batch::start(&["--seed", "18", "-c1"]);
    assert_eq!(
        game.ask("put 0 0 2"),
        "error: colour 2 is not 0 or . (empty) or 1"
    );
    assert_eq!(game.ask("put 0 0 1"), "ok");
    assert_eq!(game.finish().code(), Some(0));
}
