//! Real signals at seeded moments of seeded games: whatever the game was
//! showing (a settled board, a chip selected, the help, the new-game
//! question, a move on its way), each signal does what the manual says,
//! leaves the terminal restored, and leaves the record and the saved game
//! whole, holding the game as it was.
//!
//! The game is followed move by move by the headless mode run with the same
//! seed, so every wait is for the board the game must show. That needs the
//! debug build's `CLINES_TEST_SEED`.

use super::*;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write as _};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The seeds of the games, each ended or interrupted by one signal, the
/// signals in turn: the first six games are signalled early, the others
/// once they have scored (their seeds score within a few moves), so that
/// each signal meets a record. Between them, their dice take every action
/// and reach every moment, and a game with a move taken back is saved by
/// SIGTERM (seed 46), to go on keeping no record.
const SEEDS: [u64; 12] = [46, 3, 5, 6, 8, 9, 19, 33, 34, 57, 4, 7];
/// How many games are played side by side.
const PLAYED_AT_ONCE: usize = 3;
/// The most keys and clicks (moves, undos, help…) before the signal.
const MOST_ACTIONS: usize = 5;
/// The most moves a game signalled once it has scored takes to score.
const MOST_MOVES_TO_SCORE: usize = 8;
/// The window the games start in.
const COLS: u16 = 100;
const ROWS: u16 = 50;
/// The first line of the help (F1).
const HELP: &str = "Keys (any key closes this)";
/// The new-game question, asked when the game has scored.
const QUESTION: &str = "New game? Press n again,";
/// F1 as xterm sends it.
const F1: &[u8] = b"\x1bOP";

/// The signals sent, one a game, in turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Signal {
    Term,
    Hup,
    Int,
    Quit,
    /// SIGTSTP, then SIGCONT once the game has stopped.
    StopThenCont,
    /// A resize of the pty, which sends SIGWINCH.
    Winch,
}

const SIGNALS: [Signal; 6] = [
    Signal::Term,
    Signal::Hup,
    Signal::Int,
    Signal::Quit,
    Signal::StopThenCont,
    Signal::Winch,
];

/// What the game shows when the signal comes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Moment {
    /// The board after the last key, settled.
    Settled,
    /// This chip selected, jumping.
    Selected(Pos),
    Help,
    Question,
    /// A move's clicks just sent, perhaps not yet read: the game is either
    /// before it or after it.
    MidMove,
}

impl Moment {
    /// Which of [`MOMENTS`] this is.
    fn kind(self) -> &'static str {
        match self {
            Moment::Settled => "settled",
            Moment::Selected(_) => "selected",
            Moment::Help => "help",
            Moment::Question => "question",
            Moment::MidMove => "mid-move",
        }
    }
}

/// Every kind of [`Moment`].
const MOMENTS: [&str; 5] = ["help", "mid-move", "question", "selected", "settled"];

/// Every action [`Player::act`] takes.
const ACTIONS: [&str; 6] = ["help", "move", "question", "select", "undo", "walk"];

/// A seeded stream of numbers (SplitMix64): the same keys every run.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z % n as u64) as usize
    }
}

/// The headless mode playing the same game, answering what the board must
/// be after each move.
struct Model {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    _watchdog: pty::Watchdog,
}

impl Model {
    fn new(seed: u64) -> Model {
        let sandbox = Sandbox::new();
        let mut command = Command::new(CLINES);
        command.args(["--batch", "--seed", &seed.to_string()]);
        sandbox.apply(&mut command);
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the headless game");
        let watchdog = pty::Watchdog::new(&child);
        Model {
            input: child.stdin.take().expect("piped"),
            output: BufReader::new(child.stdout.take().expect("piped")),
            child,
            _watchdog: watchdog,
        }
    }

    /// Sends `command` and returns the `lines` of its answer.
    fn ask(&mut self, command: &str, lines: usize) -> Vec<String> {
        writeln!(self.input, "{command}").expect("write to the headless game");
        (0..lines)
            .map(|_| {
                let mut line = String::new();
                self.output
                    .read_line(&mut line)
                    .expect("read the headless game");
                assert!(!line.is_empty(), "the headless game ended at {command:?}");
                line.trim_end().to_owned()
            })
            .collect()
    }

    fn seen(&mut self) -> Seen {
        let rows = self.ask("board", SIDE);
        let mut cells = [[None; SIDE]; SIDE];
        for (row, text) in cells.iter_mut().zip(&rows) {
            for (cell, ch) in row.iter_mut().zip(text.chars()) {
                *cell = ch.to_digit(10).map(|color| color as u8);
            }
        }
        let status = self.ask("status", 1).remove(0);
        let score = status
            .strip_prefix("score=")
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no score in {status:?}"));
        assert!(status.ends_with("over=no"), "the game ended: {status}");
        Seen { cells, score }
    }

    fn play(&mut self, (x1, y1): Pos, (x2, y2): Pos) {
        let answer = self.ask(&format!("move {x1} {y1} {x2} {y2}"), 1).remove(0);
        assert!(answer.starts_with("ok"), "move answered {answer:?}");
    }

    fn undo(&mut self) {
        let answer = self.ask("undo", 1).remove(0);
        assert!(answer.starts_with("ok"), "undo answered {answer:?}");
    }
}

impl Drop for Model {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A game in a terminal and its model, played by seeded keys and clicks.
struct Player {
    term: Term,
    model: Model,
    dice: Dice,
    /// The cell size.
    s: usize,
    /// The board the game shows once settled.
    board: Seen,
    /// Where the cursor is, once a click has put it somewhere known.
    cursor: Option<Pos>,
    /// Moves that an undo can take back.
    moves: usize,
    /// No undo yet: the game keeps its record.
    keeps_record: bool,
}

impl Player {
    fn start(sandbox: &Sandbox, seed: u64) -> Player {
        let term = Term::spawn(
            CLINES,
            Options::new(COLS, ROWS)
                .sandbox(sandbox)
                .env("CLINES_TEST_SEED", seed.to_string()),
        );
        let mut model = Model::new(seed);
        let board = model.seen();
        let player = Player {
            term,
            model,
            dice: Dice(seed),
            s: cell_size(COLS, ROWS),
            board,
            cursor: None,
            moves: 0,
            keeps_record: true,
        };
        player.expect_board("the opening");
        player
    }

    fn expect_board(&self, what: &str) {
        expect_board(&self.term, self.s, &self.board, what);
    }

    fn centre(&self, (x, y): Pos) -> (u16, u16) {
        let s = self.s;
        ((x * s + s / 2) as u16, (y * s + s / 2) as u16)
    }

    fn click(&mut self, cell: Pos) {
        let (col, row) = self.centre(cell);
        self.term.click(col, row);
        self.cursor = Some(cell);
    }

    /// Moves the cursor to `cell` with arrows or `hjkl`, as the dice say.
    fn walk(&mut self, cell: Pos) {
        let (mut x, mut y) = self.cursor.expect("the cursor is somewhere known");
        let letters = self.dice.below(2) == 0;
        while (x, y) != cell {
            let key = if x < cell.0 {
                x += 1;
                if letters { Key::Char('l') } else { Key::Right }
            } else if x > cell.0 {
                x -= 1;
                if letters { Key::Char('h') } else { Key::Left }
            } else if y < cell.1 {
                y += 1;
                if letters { Key::Char('j') } else { Key::Down }
            } else {
                y -= 1;
                if letters { Key::Char('k') } else { Key::Up }
            };
            self.term.key(key);
        }
        self.cursor = Some(cell);
    }

    /// Sends a move's keys or clicks and plays it on the model; returns
    /// the board before it.
    fn send_move(&mut self) -> Seen {
        let (from, to) = plan(&self.board).expect("a legal move");
        if self.cursor.is_some() && self.dice.below(2) == 0 {
            self.walk(from);
            self.term.key(Key::Char(' '));
            self.walk(to);
            let act = [Key::Char(' '), Key::Enter][self.dice.below(2)];
            self.term.key(act);
        } else {
            self.click(from);
            self.click(to);
        }
        self.model.play(from, to);
        self.moves += 1;
        std::mem::replace(&mut self.board, self.model.seen())
    }

    /// One seeded action, waited for on the screen; returns which of
    /// [`ACTIONS`] it was.
    fn act(&mut self) -> &'static str {
        match self.dice.below(8) {
            0 if self.moves > 0 => {
                self.term.key(Key::Char('u'));
                self.model.undo();
                self.moves -= 1;
                self.keeps_record = false;
                self.board = self.model.seen();
                self.expect_board("the move taken back");
                "undo"
            }
            1 => {
                self.term.send(F1);
                self.term.expect_text(HELP);
                self.term.key(Key::Char('x'));
                self.expect_board("the help closed");
                "help"
            }
            2 => {
                let chip = self.chip();
                self.click(chip);
                self.click(chip);
                self.expect_board("a chip selected, then not");
                "select"
            }
            3 if self.board.score > 0 => {
                self.term.key(Key::Char('n'));
                self.term.expect_text(QUESTION);
                self.term.key(Key::Char('x'));
                self.expect_board("the question gone");
                "question"
            }
            4 if self.cursor.is_some() => {
                let target = (self.dice.below(SIDE), self.dice.below(SIDE));
                self.walk(target);
                "walk"
            }
            _ => {
                self.send_move();
                self.expect_board("the move played");
                "move"
            }
        }
    }

    /// A chip of the board, chosen by the dice.
    fn chip(&mut self) -> Pos {
        let chips: Vec<Pos> = (0..SIDE)
            .flat_map(|y| (0..SIDE).map(move |x| (x, y)))
            .filter(|&p| self.board.get(p).is_some())
            .collect();
        chips[self.dice.below(chips.len())]
    }

    /// Brings the game to a seeded moment; returns it and, for a move
    /// on its way, the board before it.
    fn reach_moment(&mut self) -> (Moment, Option<Seen>) {
        match self.dice.below(5) {
            1 => {
                let chip = self.chip();
                self.click(chip);
                let board = self.board.clone();
                let s = self.s;
                self.term
                    .expect_frame("the chip jumping", |screen| match read_board(screen, s) {
                        Ok(seen) if seen == board => Err("not yet".into()),
                        _ => Ok(()),
                    });
                (Moment::Selected(chip), None)
            }
            2 => {
                self.term.send(F1);
                self.term.expect_text(HELP);
                (Moment::Help, None)
            }
            3 if self.board.score > 0 => {
                self.term.key(Key::Char('n'));
                self.term.expect_text(QUESTION);
                (Moment::Question, None)
            }
            4 => {
                let before = self.send_move();
                (Moment::MidMove, Some(before))
            }
            _ => (Moment::Settled, None),
        }
    }

    /// After a stop or a resize: closes what covered the board and
    /// expects it as the model says.
    fn back_to_the_board(&mut self, moment: Moment) {
        match moment {
            Moment::Help => {
                self.term.expect_text(HELP);
                self.term.key(Key::Char('x'));
            }
            Moment::Question => {
                self.term.expect_text(QUESTION);
                self.term.key(Key::Char('x'));
            }
            Moment::Selected(chip) => self.click(chip),
            Moment::Settled | Moment::MidMove => {}
        }
        self.expect_board("the board as it was");
    }
}

/// Waits for the screen, cell size `s`, to show `board` and its score.
fn expect_board(term: &Term, s: usize, board: &Seen, what: &str) {
    term.expect_frame(what, |screen| {
        let seen = read_board(screen, s)?;
        if seen == *board {
            Ok(())
        } else {
            Err(format!("shows {seen:?}, not {board:?}"))
        }
    });
}

/// The number in `Scores earned : N`, printed as the game ends.
fn scores_earned(term: &Term) -> u64 {
    let after = after_leaving(term);
    after
        .split("Scores earned : ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no score printed: {after:?}"))
}

/// The saved games in `sandbox`'s records directory.
fn saves(sandbox: &Sandbox) -> usize {
    fs::read_dir(sandbox.score_dir())
        .expect("the records directory")
        .filter(|entry| entry.as_ref().unwrap().path().extension() == Some("game".as_ref()))
        .count()
}

/// Checks the record after a game that ended with `score`: kept when the
/// game keeps records and scored, no file otherwise.
fn check_record(sandbox: &Sandbox, keeps_record: bool, score: u64, case: &str) {
    let file = record_file(sandbox);
    if keeps_record && score > 0 {
        assert_eq!(stored_score(&file), score, "{case}");
    } else {
        assert!(!file.exists(), "{case}: a record where none is kept");
    }
}

/// Plays one move of the game in `term` showing `board` (cell size `s`)
/// and waits for the turn to end; returns the board after it.
fn one_move(term: &mut Term, s: usize, board: &Seen) -> Seen {
    let (from, to) = plan(board).expect("a legal move");
    let centre = |(x, y): Pos| ((x * s + s / 2) as u16, (y * s + s / 2) as u16);
    for cell in [from, to] {
        let (col, row) = centre(cell);
        term.click(col, row);
    }
    let color = board.get(from);
    term.expect_frame(&format!("the move {from:?} -> {to:?}"), |screen| {
        let now = read_board(screen, s)?;
        let done =
            now.score > board.score || (now.get(to) == color && now.chips() == board.chips() + 3);
        if done {
            Ok(now)
        } else {
            Err(format!("{} chips, score {}", now.chips(), now.score))
        }
    })
}

/// Ends the game with `signal` (one that ends it) and checks the exit, the
/// record and the save; then goes on with the save, expects the game as
/// it was, and plays a move in it. `before`: the board before a move whose
/// clicks had just been sent, which the game may not have read.
fn ended_by(sandbox: &Sandbox, mut player: Player, signal: i32, before: Option<Seen>, case: &str) {
    player.term.signal(signal);
    let status = player.term.wait_exit(TIMEOUT);
    assert_eq!(status.code(), Some(0), "{case}: exit status {status:?}");
    player.term.assert_restored();
    let possible: Vec<Seen> = std::iter::once(player.board.clone())
        .chain(before)
        .collect();
    let earned = scores_earned(&player.term);
    assert!(
        possible.iter().any(|board| board.score == earned),
        "{case}: {earned} printed, not a score of {possible:?}"
    );
    check_record(sandbox, player.keeps_record, earned, case);
    let saved = matches!(signal, libc::SIGTERM | libc::SIGHUP);
    let shown = after_leaving(&player.term);
    assert_eq!(shown.contains("Game saved: "), saved, "{case}: {shown}");
    assert_eq!(saves(sandbox), usize::from(saved), "{case}: the saves");
    if !saved {
        return;
    }

    let mut term = Term::spawn(CLINES, Options::new(COLS, ROWS).sandbox(sandbox));
    if !player.keeps_record {
        term.expect_text("Any key goes on to the game.");
        term.key(Key::Char('x'));
    }
    let s = cell_size(COLS, ROWS);
    let resumed = term.expect_frame("the saved game", |screen| read_board(screen, s));
    assert!(
        possible.contains(&resumed) && resumed.score == earned,
        "{case}: the saved game came back as {resumed:?}, not as {possible:?} with {earned}"
    );
    let score = one_move(&mut term, s, &resumed).score;
    term.key(Key::Char('q'));
    check_exit(&mut term, &[], score);
    check_record(sandbox, player.keeps_record, score.max(earned), case);
    assert_eq!(saves(sandbox), 0, "{case}: the save went on, so it is gone");
}

/// Stops the game (SIGTSTP), checks it gave the terminal back, continues
/// it (SIGCONT) and expects the board as it was, then a move answered.
fn stopped_and_continued(player: &mut Player, moment: Moment, case: &str) {
    player.term.signal(libc::SIGTSTP);
    assert!(player.term.wait_stopped(TIMEOUT), "{case}: not stopped");
    // What it wrote before stopping may still be on its way to the parser.
    player
        .term
        .expect_screen("the main screen with the cursor shown", |screen| {
            !screen.alternate_screen() && !screen.hide_cursor()
        });
    player.term.assert_restored();
    player.term.signal(libc::SIGCONT);
    player.back_to_the_board(moment);
}

/// Resizes the window (SIGWINCH) and expects the board as it was at the
/// new cell size.
fn resized(player: &mut Player, moment: Moment) {
    let (cols, rows) = [(120, 60), (90, 45)][player.dice.below(2)];
    player.term.resize(cols, rows);
    player.s = cell_size(cols, rows);
    player.back_to_the_board(moment);
}

/// What one case went through.
struct Covered {
    /// Whether a record with points was checked.
    scored: bool,
    /// Which of [`ACTIONS`] were taken.
    actions: Vec<&'static str>,
    /// The moment the signal came.
    moment: Moment,
    /// The signal.
    signal: Signal,
}

/// Plays seeded keys and clicks, sends a signal at a seeded moment and
/// checks all it must leave.
fn signal_case(case: usize) -> Covered {
    let signal = SIGNALS[case % SIGNALS.len()];
    let seed = SEEDS[case];
    let sandbox = Sandbox::new();
    let mut player = Player::start(&sandbox, seed);
    if case >= SIGNALS.len() {
        for _ in 0..MOST_MOVES_TO_SCORE {
            if player.board.score > 0 {
                break;
            }
            player.send_move();
            player.expect_board("a move on the way to a score");
        }
    }
    let actions = player.dice.below(MOST_ACTIONS + 1);
    let taken: Vec<&'static str> = (0..actions).map(|_| player.act()).collect();
    let (moment, before) = player.reach_moment();
    let case = format!("seed {seed}, actions {taken:?}, {signal:?} at {moment:?}");
    let covered = |scored| Covered {
        scored,
        actions: taken.clone(),
        moment,
        signal,
    };
    let ending = match signal {
        Signal::Term => Some(libc::SIGTERM),
        Signal::Hup => Some(libc::SIGHUP),
        Signal::Int => Some(libc::SIGINT),
        Signal::Quit => Some(libc::SIGQUIT),
        Signal::StopThenCont | Signal::Winch => None,
    };
    if let Some(ending) = ending {
        let scored = player.keeps_record && player.board.score > 0;
        ended_by(&sandbox, player, ending, before, &case);
        return covered(scored);
    }
    if signal == Signal::StopThenCont {
        stopped_and_continued(&mut player, moment, &case);
    } else {
        resized(&mut player, moment);
    }
    player.send_move();
    player.expect_board("a move after the signal");
    player.term.key(Key::Char('q'));
    let score = player.board.score;
    check_exit(&mut player.term, &[], score);
    check_record(&sandbox, player.keeps_record, score, &case);
    assert_eq!(saves(&sandbox), 0, "{case}: a save");
    covered(player.keeps_record && score > 0)
}

#[test]
fn a_signal_at_any_moment_leaves_the_game_the_terminal_and_the_files_whole() {
    // The games spend their time waiting for animations: played side by
    // side, they take a fraction of the time, even on a busy machine.
    let next = AtomicUsize::new(0);
    let cases = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..PLAYED_AT_ONCE {
            scope.spawn(|| {
                loop {
                    let case = next.fetch_add(1, Ordering::Relaxed);
                    if case >= SEEDS.len() {
                        break;
                    }
                    let covered = signal_case(case);
                    cases.lock().unwrap().push(covered);
                }
            });
        }
    });
    let cases = cases.into_inner().unwrap();
    // Records are checked only where a game scored.
    let scored = cases.iter().filter(|case| case.scored).count();
    assert!(scored >= SIGNALS.len() - 1, "only {scored} games scored");
    // The seeds are chosen so that every action and every moment comes.
    let taken: BTreeSet<&str> = cases.iter().flat_map(|case| case.actions.clone()).collect();
    assert_eq!(taken, BTreeSet::from(ACTIONS), "the actions taken");
    let moments: BTreeSet<&str> = cases.iter().map(|case| case.moment.kind()).collect();
    assert_eq!(moments, BTreeSet::from(MOMENTS), "the moments signalled");
    let saved_without_record = cases.iter().any(|case| {
        matches!(case.signal, Signal::Term | Signal::Hup) && case.actions.contains(&"undo")
    });
    assert!(saved_without_record, "no game saved after an undo");
}
