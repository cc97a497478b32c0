//! Records kept by real games: `clines` in a pseudo-terminal, played by a
//! small test player that reads the board off the screen and moves chips
//! with the mouse until it scores, then ended by a key or a real signal.
//! Each test has its own temporary records directory.

use crate::pty;

use std::collections::VecDeque;
use std::fs;
use std::path::Path;
use std::process::Command;

use pty::{Key, Options, Sandbox, TIMEOUT, Term};

const CLINES: &str = env!("CARGO_BIN_EXE_clines");
/// The default board.
const SIDE: usize = 9;
/// The default shortest line.
const LINE: usize = 5;
/// Moves the player may take to score, over the games it loses first; a
/// greedy player needs far fewer.
const MAX_MOVES: usize = 80;
/// The game-over box's first line.
const GAME_OVER: &str = "Game over, press a key...";
/// The seed of the games that keep records, given as the debug build's
/// `CLINES_TEST_SEED` (`--seed` would keep none), so that the test player
/// plays the same game every time: one it scores in, and again after a
/// save (a game of any seed may be lost).
pub(crate) const TEST_SEED: &str = "1";
/// Leaves full-screen mode.
const LEAVE_ALTERNATE: &[u8] = b"\x1b[?1049l";

#[cfg(debug_assertions)]
mod signals;

/// A cell on the board: column, row.
type Pos = (usize, usize);

/// The board as read off the screen: the chip colour (palette number) in
/// each cell, and the score.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Seen {
    cells: [[Option<u8>; SIDE]; SIDE],
    score: u64,
}

impl Seen {
    fn get(&self, (x, y): Pos) -> Option<u8> {
        self.cells[y][x]
    }

    fn chips(&self) -> usize {
        self.cells.iter().flatten().flatten().count()
    }
}

/// Cell size of the default board in a `cols` × `rows` window (SPEC §5).
fn cell_size(cols: u16, rows: u16) -> usize {
    ((usize::from(cols) - 1) / SIDE).min((usize::from(rows) - 1) / SIDE)
}

/// Reads the board in full mode: each cell's middle interior row, first
/// interior column, is the widest row of the chip's diamond and is left
/// alone by the cursor. Fails while chips flash (drawn in the cursor's
/// white) or a cell shows something unexpected, so that only settled
/// boards are read.
fn read_board(screen: &vt100::Screen, s: usize) -> Result<Seen, String> {
    let mut cells = [[None; SIDE]; SIDE];
    for (y, row) in cells.iter_mut().enumerate() {
        for (x, cell) in row.iter_mut().enumerate() {
            let (r, c) = (y * s + 1 + (s - 1) / 2, x * s + 1);
            let shown = screen
                .cell(r as u16, c as u16)
                .ok_or_else(|| format!("no cell at row {r}, column {c}"))?;
            *cell = match (shown.contents(), shown.fgcolor()) {
                ("" | " ", _) => None,
                ("O", vt100::Color::Idx(color @ 1..=5)) => Some(color),
                (text, color) => {
                    return Err(format!("cell {x},{y} shows {text:?} in {color:?}"));
                }
            };
        }
    }
    Ok(Seen {
        cells,
        score: score_on(screen),
    })
}

/// The score on the top border, 0 while none is shown.
fn score_on(screen: &vt100::Screen) -> u64 {
    let top = screen
        .rows(0, screen.size().1.get())
        .next()
        .unwrap_or_default();
    top.split("=[ score : ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// The text of the bottom border of a board of cell size `s`.
fn bottom_border(screen: &vt100::Screen, s: usize) -> String {
    let row = (SIDE * s) as u16;
    screen
        .rows(0, screen.size().1.get())
        .nth(row.into())
        .unwrap_or_default()
}

/// Empty cells reachable from `from` along 4-connected empty cells.
fn reachable(seen: &Seen, from: Pos) -> Vec<Pos> {
    let mut found = vec![from];
    let mut queue = VecDeque::from([from]);
    while let Some((x, y)) = queue.pop_front() {
        let steps = [(0, 1), (1, 0), (0, -1), (-1, 0)];
        for (dx, dy) in steps {
            let (Some(nx), Some(ny)) = (x.checked_add_signed(dx), y.checked_add_signed(dy)) else {
                continue;
            };
            let next = (nx, ny);
            if nx < SIDE && ny < SIDE && seen.get(next).is_none() && !found.contains(&next) {
                found.push(next);
                queue.push_back(next);
            }
        }
    }
    found.remove(0);
    found
}

/// Every run of `LINE` cells in a row or a column.
fn windows() -> Vec<Vec<Pos>> {
    let mut all = Vec::new();
    for fixed in 0..SIDE {
        for start in 0..=SIDE - LINE {
            all.push((start..start + LINE).map(|i| (i, fixed)).collect());
            all.push((start..start + LINE).map(|i| (fixed, i)).collect());
        }
    }
    all
}

/// A move toward a line of one colour: the window holding most chips of
/// one colour (fewest strangers breaking ties); a stranger in it is moved
/// out, else a chip of that colour is brought in. Falls back to any legal
/// move.
fn plan(seen: &Seen) -> Option<(Pos, Pos)> {
    let mut candidates: Vec<(i64, u8, Vec<Pos>)> = Vec::new();
    for window in windows() {
        for color in 1..=5 {
            let own = window
                .iter()
                .filter(|&&p| seen.get(p) == Some(color))
                .count() as i64;
            let strangers = window
                .iter()
                .filter(|&&p| seen.get(p).is_some_and(|c| c != color))
                .count() as i64;
            candidates.push((own * 4 - strangers * 3, color, window.clone()));
        }
    }
    candidates.sort_by_key(|(value, _, _)| -value);
    let all: Vec<Pos> = (0..SIDE)
        .flat_map(|y| (0..SIDE).map(move |x| (x, y)))
        .collect();
    for (_, color, window) in &candidates {
        let stranger = window
            .iter()
            .find(|&&p| seen.get(p).is_some_and(|c| c != *color));
        if let Some(&from) = stranger {
            if let Some(to) = reachable(seen, from)
                .into_iter()
                .find(|to| !window.contains(to))
            {
                return Some((from, to));
            }
            continue;
        }
        for &to in window.iter().filter(|&&p| seen.get(p).is_none()) {
            let from = all.iter().copied().find(|&p| {
                seen.get(p) == Some(*color)
                    && !window.contains(&p)
                    && reachable(seen, p).contains(&to)
            });
            if let Some(from) = from {
                return Some((from, to));
            }
        }
    }
    all.iter()
        .filter(|&&p| seen.get(p).is_some())
        .find_map(|&from| reachable(seen, from).first().map(|&to| (from, to)))
}

/// Plays the game in `term` (full mode, `cols` × `rows`) until it scores;
/// returns the score.
pub(crate) fn play_until_scored(term: &mut Term, cols: u16, rows: u16) -> u64 {
    play_until_score_above(term, cols, rows, 0)
}

/// Plays the game in `term` (full mode, `cols` × `rows`) until its score
/// is above `above`; returns the score. A game lost before it scored is
/// followed by a new one (`n`): a release build ignores `CLINES_TEST_SEED`,
/// so its games are random, and the test player can lose one.
fn play_until_score_above(term: &mut Term, cols: u16, rows: u16, above: u64) -> u64 {
    let s = cell_size(cols, rows);
    assert!(s >= 4, "the player reads full mode only");
    let opening = |term: &Term| {
        term.expect_frame("the opening board", |screen| {
            read_board(screen, s).and_then(|seen| match seen.chips() {
                0 => Err("no chips yet".into()),
                _ => Ok(seen),
            })
        })
    };
    let mut seen = opening(term);
    for _ in 0..MAX_MOVES {
        if seen.score > above {
            return seen.score;
        }
        let (from, to) = plan(&seen).expect("a legal move");
        let centre = |(x, y): Pos| ((x * s + s / 2) as u16, (y * s + s / 2) as u16);
        let (from_col, from_row) = centre(from);
        let (to_col, to_row) = centre(to);
        term.click(from_col, from_row);
        term.click(to_col, to_row);
        let before = seen;
        let color = before.get(from);
        // The turn is over once nothing flashes and either points were
        // scored or the chip has arrived and the computer's chips landed
        // (perhaps on the cell the chip left); or once the game is over.
        let played = term.expect_frame(&format!("the move {from:?} -> {to:?}"), |screen| {
            if screen.contents().contains(GAME_OVER) {
                return Ok(None);
            }
            let now = read_board(screen, s)?;
            let done = now.score > before.score
                || (now.get(to) == color && now.chips() == before.chips() + 3);
            if done {
                Ok(Some(now))
            } else {
                Err(format!("{} chips, score {}", now.chips(), now.score))
            }
        });
        seen = match played {
            Some(now) => now,
            None => {
                assert_eq!(before.score, 0, "lost after scoring:\n{}", term.contents());
                term.key(Key::Char('n'));
                // The board under the box is the lost game's: read only
                // once the box is gone.
                term.expect_screen("the game-over box gone", |screen| {
                    !screen.contents().contains(GAME_OVER)
                });
                opening(term)
            }
        };
    }
    panic!("no score after {MAX_MOVES} moves:\n{}", term.contents());
}

/// The name records are kept under: the real user's.
fn user() -> String {
    clines::records::current_user().expect("the test runs as a user with a safe name")
}

/// `clines -l` in `sandbox`, without the dates (tests/records.rs checks
/// those).
fn listing(sandbox: &Sandbox) -> String {
    let mut command = Command::new(CLINES);
    command.arg("-l");
    sandbox.apply(&mut command);
    let output = command.output().expect("clines -l runs");
    assert!(output.status.success(), "clines -l: {output:?}");
    let text = String::from_utf8(output.stdout).expect("UTF-8 listing");
    text.lines()
        .map(|line| {
            let mut columns = line.split('\t');
            let name = columns.next().unwrap_or_default();
            let score = columns.next().unwrap_or_default();
            format!("{name}\t{score}\n")
        })
        .collect()
}

/// Everything written after the program left full-screen mode for the last
/// time.
fn after_leaving(term: &Term) -> String {
    let raw = term.raw_output();
    let at = raw
        .windows(LEAVE_ALTERNATE.len())
        .rposition(|w| w == LEAVE_ALTERNATE)
        .expect("the program left full-screen mode");
    String::from_utf8_lossy(&raw[at..]).into_owned()
}

/// Waits for the exit and checks it: status 0, terminal restored, `lines`
/// then `Scores earned : N` printed after full-screen mode was left.
fn check_exit(term: &mut Term, lines: &[&str], score: u64) {
    let status = term.wait_exit(TIMEOUT);
    assert_eq!(status.code(), Some(0), "exit status {status:?}");
    term.assert_restored();
    let after = after_leaving(term);
    let mut expected: Vec<String> = lines.iter().map(|line| line.to_string()).collect();
    expected.push(format!("Scores earned : {score}"));
    let mut rest = after.as_str();
    for line in &expected {
        let at = rest
            .find(line.as_str())
            .unwrap_or_else(|| panic!("{line:?} not printed, in order, after exit: {after:?}"));
        rest = &rest[at + line.len()..];
    }
}

/// A default-rules game in `sandbox` at 100 × 50, played until it scores.
fn scoring_game(sandbox: &Sandbox, args: &[&str]) -> (Term, u64) {
    let mut term = Term::spawn(
        CLINES,
        Options::new(100, 50)
            .sandbox(sandbox)
            .env("CLINES_TEST_SEED", TEST_SEED)
            .args(args.iter().copied()),
    );
    let score = play_until_scored(&mut term, 100, 50);
    (term, score)
}

/// The record file of the current user.
fn record_file(sandbox: &Sandbox) -> std::path::PathBuf {
    sandbox.score_dir().join(format!("{}.toml", user()))
}

/// The stored record's score, read from the TOML file.
fn stored_score(path: &Path) -> u64 {
    let text = fs::read_to_string(path).expect("the record file is readable");
    let line = text
        .lines()
        .find_map(|line| line.strip_prefix("score = "))
        .unwrap_or_else(|| panic!("no score in {text:?}"));
    line.trim().parse().expect("a number")
}

/// The saved games in `sandbox`'s records directory.
fn saved_games(sandbox: &Sandbox) -> usize {
    fs::read_dir(sandbox.score_dir())
        .expect("the records directory")
        .filter(|entry| entry.as_ref().unwrap().path().extension() == Some("game".as_ref()))
        .count()
}

/// Ends a scoring game with `end`, then checks the record: saved, the
/// messages printed, listed by `clines -l`; the game itself saved to go on
/// with when `kept` (cut short), otherwise not; a later new game quit at
/// once leaves the record alone.
fn scoring_game_ended_by(end: impl FnOnce(&mut Term), kept: bool) {
    let sandbox = Sandbox::new();
    let (mut term, score) = scoring_game(&sandbox, &[]);
    end(&mut term);
    check_exit(&mut term, &["New record saved!"], score);
    let file = record_file(&sandbox);
    assert_eq!(stored_score(&file), score);
    assert_eq!(listing(&sandbox), format!("* {:<8}\t{score}\n", user()));
    let shown = after_leaving(&term);
    assert_eq!(shown.contains("Game saved: "), kept, "{shown}");
    let saves = saved_games(&sandbox);
    assert_eq!(saves, usize::from(kept));

    let saved = fs::read(&file).expect("the record");
    let options = Options::new(100, 50).sandbox(&sandbox).arg("--new");
    let mut term = Term::spawn(CLINES, options);
    term.expect_text(&format!("=[ hi : {score} ]="));
    term.key(Key::Char('q'));
    check_exit(&mut term, &[], 0);
    assert!(!after_leaving(&term).contains("saved"));
    assert_eq!(
        fs::read(&file).expect("the record"),
        saved,
        "record changed"
    );
}

/// SIGTERM, as a logout or a shutdown sends: the record is saved, and the
/// game, cut short, is saved to go on with.
#[test]
fn sigterm_saves_the_record_and_the_game() {
    scoring_game_ended_by(|term| term.signal(libc::SIGTERM), true);
}

/// A crash saves the record as any other ending does: the debug build
/// panics on a resize when `CLINES_TEST_PANIC` asks it to.
#[cfg(debug_assertions)]
#[test]
fn a_crash_saves_the_record() {
    let sandbox = Sandbox::new();
    let options = Options::new(100, 50)
        .sandbox(&sandbox)
        .env("CLINES_TEST_SEED", TEST_SEED)
        .env("CLINES_TEST_PANIC", "resize")
        .separate_stderr();
    let mut term = Term::spawn(CLINES, options);
    let score = play_until_scored(&mut term, 100, 50);
    term.resize(101, 50);
    let status = term.wait_exit(TIMEOUT);
    assert_eq!(status.code(), Some(101), "exit status {status:?}");
    term.assert_restored();
    assert!(term.stderr().contains("CLINES_TEST_PANIC=resize"));
    assert!(after_leaving(&term).contains("New record saved!"));
    assert_eq!(stored_score(&record_file(&sandbox)), score);
}

/// A panic in the built-in player (asked for through `CLINES_TEST_PANIC`
/// in the debug build) ends the game as a closed terminal does: the game
/// saved to go on with, the terminal restored. The panic is reported once
/// the game has said its last, not on its screen, and the error names the
/// player, not the terminal.
#[cfg(debug_assertions)]
#[test]
fn a_panic_in_the_built_in_player_saves_the_game_and_is_reported() {
    a_panic_saves_the_game_and_is_reported("player", b"?", "the built-in player failed");
}

/// So does a panic in the thread that reads the keys, which ended the game
/// as a closed terminal does, with the exit status of a game played out.
#[cfg(debug_assertions)]
#[test]
fn a_panic_reading_the_keys_saves_the_game_and_is_reported() {
    // F12, which the game leaves alone, is the test point's key.
    a_panic_saves_the_game_and_is_reported("input", b"\x1b[24~", "reading the keys failed");
}

/// Plays until a line is scored with the test point `point` set, sends
/// `key` to reach it, and checks the game's end: exit status 1, the
/// terminal restored, the game saved, the closing lines then the panic
/// then `error` printed, in that order.
#[cfg(debug_assertions)]
fn a_panic_saves_the_game_and_is_reported(point: &str, key: &[u8], error: &str) {
    let sandbox = Sandbox::new();
    let options = Options::new(100, 50)
        .sandbox(&sandbox)
        .env("CLINES_TEST_SEED", TEST_SEED)
        .env("CLINES_TEST_PANIC", point);
    let mut term = Term::spawn(CLINES, options);
    let score = play_until_scored(&mut term, 100, 50);
    term.send(key);
    let status = term.wait_exit(TIMEOUT);
    assert_eq!(status.code(), Some(1), "exit status {status:?}");
    term.assert_restored();
    let after = after_leaving(&term);
    let mut rest = after.as_str();
    for line in [
        "Game saved: ",
        &format!("Scores earned : {score}"),
        &format!("thread '{point}' panicked at src/"),
        &format!("CLINES_TEST_PANIC={point}\r\n"),
        &format!("clines: {error}\r\n"),
    ] {
        let at = rest
            .find(line)
            .unwrap_or_else(|| panic!("{line:?} not printed, in order, after exit: {after:?}"));
        rest = &rest[at + line.len()..];
    }
    assert!(!after.contains("terminal:"), "{after:?}");
    let saves = saved_games(&sandbox);
    assert_eq!(saves, 1);
}

#[test]
fn sigint_saves_the_record() {
    scoring_game_ended_by(|term| term.signal(libc::SIGINT), false);
}

/// Signals that would kill an unprepared program end the game as SIGINT
/// does: a CPU-time limit's SIGXCPU, a stray SIGUSR1, SIGUSR2, SIGALRM or
/// SIGVTALRM.
#[test]
fn other_ending_signals_save_the_record() {
    for signal in [
        libc::SIGXCPU,
        libc::SIGUSR1,
        libc::SIGUSR2,
        libc::SIGALRM,
        libc::SIGVTALRM,
    ] {
        scoring_game_ended_by(|term| term.signal(signal), false);
    }
}

#[test]
fn q_saves_the_record() {
    scoring_game_ended_by(|term| term.key(Key::Char('q')), false);
}

/// Keys typed in the same burst as `q` come after the game has ended: a
/// hint, autoplay or an undo there does not take the record away.
#[test]
fn keys_typed_with_q_keep_the_record() {
    scoring_game_ended_by(|term| term.send(b"q?au"), false);
}

/// A saved game that had no help goes on keeping its record even when
/// `--seed` is given: the seed did not make it. The player is told the seed
/// was not used.
#[test]
fn a_saved_game_goes_on_keeping_its_record_under_seed() {
    let sandbox = Sandbox::new();
    let mut term = Term::spawn(
        CLINES,
        Options::new(100, 50)
            .sandbox(&sandbox)
            .env("CLINES_TEST_SEED", TEST_SEED),
    );
    let score = play_until_scored(&mut term, 100, 50);
    term.key(Key::Char('s'));
    check_exit(&mut term, &["Game saved", "New record saved!"], score);
    let file = record_file(&sandbox);
    assert_eq!(stored_score(&file), score);

    // The saved game comes back with its score: it has scored already. A
    // box first says that the seed is not used.
    let mut term = Term::spawn(
        CLINES,
        Options::new(100, 50)
            .sandbox(&sandbox)
            .args(["--seed", "9"]),
    );
    past_the_warning(&mut term, "The saved game goes on: --seed is not used");
    let resumed = play_until_scored(&mut term, 100, 50);
    assert_eq!(resumed, score);
    term.expect_text(&format!("=[ hi : {score} ]="));
    let more = play_until_score_above(&mut term, 100, 50, score);
    term.key(Key::Char('q'));
    check_exit(
        &mut term,
        &[
            "The saved game went on: --seed was not used",
            "New record saved!",
        ],
        more,
    );
    assert_eq!(stored_score(&file), more);
}

/// Games left for a new one with points are told of before the lines
/// about the last game (here saved with `s`, or quit), each with what
/// became of its record out of the player's sight: saved, or not kept for a
/// game begun with `--seed`.
#[test]
fn games_left_for_a_new_game_are_told_of_as_the_session_ends() {
    let cases = [
        (false, "New record saved!", 's', Some("Game saved: ")),
        (
            true,
            "No record kept: this game was started with --seed.",
            'q',
            None,
        ),
    ];
    for (seeded, notice, end, last) in cases {
        let sandbox = Sandbox::new();
        let options = Options::new(100, 50).sandbox(&sandbox);
        let options = if seeded {
            options.arg(format!("--seed={TEST_SEED}"))
        } else {
            options.env("CLINES_TEST_SEED", TEST_SEED)
        };
        let mut term = Term::spawn(CLINES, options);
        let score = play_until_scored(&mut term, 100, 50);
        term.key(Key::Char('n'));
        term.expect_text("New game? Press n again,");
        term.key(Key::Char('n'));
        let s = cell_size(100, 50);
        term.expect_frame("the new game", |screen| {
            let seen = read_board(screen, s)?;
            match (seen.score, seen.chips()) {
                (0, 1..) => Ok(()),
                (score, chips) => Err(format!("score {score}, {chips} chips")),
            }
        });
        term.key(Key::Char(end));
        let left = format!("Left for a new game with {score} points. {notice}");
        let lines: Vec<&str> = std::iter::once(left.as_str()).chain(last).collect();
        check_exit(&mut term, &lines, 0);
        let shown = after_leaving(&term);
        assert_eq!(shown.matches("Left for a new game").count(), 1, "{shown}");
        let file = record_file(&sandbox);
        if seeded {
            assert!(!file.exists(), "a record kept with --seed");
        } else {
            assert_eq!(stored_score(&file), score);
        }
    }
}

/// SIGHUP, as when the terminal is closed: the record is saved without
/// the terminal's help. A symbolic link at the record's place that leads
/// nowhere is replaced by the record. (Another user's link, planted, is
/// replaced too: `records::store`'s unit tests pose as another user,
/// which a test cannot be here without root.)
#[test]
fn sighup_saves_the_record_replacing_a_link_that_leads_nowhere() {
    let sandbox = Sandbox::new();
    let target = sandbox.home().join("moved");
    let file = record_file(&sandbox);
    std::os::unix::fs::symlink(&target, &file).expect("make the link");
    let (mut term, score) = scoring_game(&sandbox, &[]);
    term.signal(libc::SIGHUP);
    check_exit(&mut term, &["New record saved!"], score);
    assert!(
        fs::symlink_metadata(&file)
            .expect("the record")
            .file_type()
            .is_file(),
        "the record is a regular file"
    );
    assert_eq!(stored_score(&file), score);
    assert!(!target.exists(), "nothing made where the link led");
}

/// A game outside the terminal's session (`setsid clines`), whose closing
/// sends it no SIGHUP: it sees the terminal hang up all the same, and ends
/// as on SIGHUP, its record saved and the game kept to go on with, instead
/// of spinning on the closed terminal for ever.
#[test]
fn closing_the_terminal_of_a_game_outside_its_session_saves_the_game() {
    let sandbox = Sandbox::new();
    let options = Options::new(100, 50)
        .sandbox(&sandbox)
        .env("CLINES_TEST_SEED", TEST_SEED)
        .outside_session();
    let mut term = Term::spawn(CLINES, options);
    let score = play_until_scored(&mut term, 100, 50);
    term.hang_up();
    let status = term.wait_exit(TIMEOUT);
    assert_eq!(status.code(), Some(0), "exit status {status:?}");
    assert_eq!(stored_score(&record_file(&sandbox)), score);
    let saves = saved_games(&sandbox);
    assert_eq!(saves, 1, "the game kept to go on with");
}

/// Another user's higher record, in the original's format: shown on the
/// board, passed by nobody, so the saved record is a personal one; shown
/// in mini mode as the best score alone.
#[test]
fn another_users_higher_record_is_shown_and_kept() {
    let sandbox = Sandbox::new();
    let other = sandbox.score_dir().join("zed.cscore");
    let cscore = [
        0xC001_CEED_u32.to_be_bytes(),
        1_u32.to_be_bytes(),
        100_000_i32.to_be_bytes(),
    ]
    .concat();
    fs::write(&other, &cscore).expect("write the other user's record");
    // Default rules given explicitly keep records on.
    let mut term = Term::spawn(
        CLINES,
        Options::new(100, 50)
            .sandbox(&sandbox)
            .args(["-w9", "-n", "3", "-i5"]),
    );
    term.expect_screen("the other user's record", |screen| {
        bottom_border(screen, 5)
            .get(8..)
            .is_some_and(|text| text.starts_with("=[ hi -- zed:100000 you:0 ]="))
    });
    let score = play_until_scored(&mut term, 100, 50);
    let live = format!("=[ hi -- zed:100000 you:{score} ]=");
    term.expect_screen("the score passing the player's record", |screen| {
        bottom_border(screen, 5)
            .get(8..)
            .is_some_and(|text| text.starts_with(&live))
    });
    term.signal(libc::SIGQUIT);
    check_exit(&mut term, &["New personal record saved!"], score);
    assert_eq!(
        listing(&sandbox),
        format!("  zed     \t100000\n* {:<8}\t{score}\n", user())
    );
    assert_eq!(fs::read(&other).expect("zed's record"), cscore);

    let mut term = Term::spawn(CLINES, Options::new(80, 24).sandbox(&sandbox));
    term.expect_screen("the best record in mini mode", |screen| {
        bottom_border(screen, 2).starts_with("|[ hi : 100000 ]-")
    });
    term.key(Key::Ctrl('c'));
    check_exit(&mut term, &[], 0);
}

/// A record that cannot be saved (the player's own records file is
/// damaged, and is left as it is) keeps its game instead: the game is
/// saved, and the next clines goes on with it and its score.
#[test]
fn a_game_whose_record_cannot_be_saved_is_saved_instead() {
    let sandbox = Sandbox::new();
    let (mut term, score) = scoring_game_of_a_damaged_record(&sandbox);
    term.key(Key::Char('q'));
    check_exit(&mut term, &[SAVED_INSTEAD], score);
    assert!(
        after_leaving(&term).contains("the record could not be saved"),
        "{}",
        after_leaving(&term)
    );
    assert_eq!(
        fs::read_to_string(record_file(&sandbox)).expect("the file"),
        DAMAGED
    );
    let mut term = Term::spawn(CLINES, Options::new(100, 50).sandbox(&sandbox));
    term.expect_screen("the game saved, going on", |s| score_on(s) == score);
    term.key(Key::Char('q'));
    check_exit(&mut term, &[], score);
}

/// `n` where the record of the game on screen cannot be saved: no new
/// game, which would lose its score; a box says why, the game stays, and
/// quitting saves it instead.
#[test]
fn no_new_game_while_the_record_cannot_be_saved() {
    let sandbox = Sandbox::new();
    let (mut term, score) = scoring_game_of_a_damaged_record(&sandbox);
    term.keys(&[Key::Char('n'), Key::Char('n')]);
    box_then_back(
        &mut term,
        &[
            "No new game, so that this game's score is not lost:",
            "The record could not be saved: the stored record",
        ],
    );
    term.expect_screen("the game kept", |s| score_on(s) == score);
    term.key(Key::Char('q'));
    check_exit(&mut term, &[SAVED_INSTEAD], score);
}

/// A records file that is not one, which a save leaves as it is.
const DAMAGED: &str = "score = \"lots\"\n";

/// What a game whose record could not be saved says as it is saved instead.
const SAVED_INSTEAD: &str = "Game saved, since its record could not be: \
                             the next clines with these rules goes on with it.";

/// A game played until it scores, in `sandbox`, where the player's records
/// file is [`DAMAGED`], so that no record can be saved.
fn scoring_game_of_a_damaged_record(sandbox: &Sandbox) -> (Term, u64) {
    fs::write(record_file(sandbox), DAMAGED).expect("write a damaged record");
    scoring_game(sandbox, &[])
}

/// A records directory that cannot be created: the game plays, and at the
/// end says that the record could not be saved and why.
#[test]
fn an_unusable_records_directory_is_reported_at_exit() {
    let sandbox = Sandbox::new();
    let not_a_dir = sandbox.home().join("file");
    fs::write(&not_a_dir, "").expect("write a file");
    let score_dir = not_a_dir.join("scores");
    let (term, stderr) = score_then_quit(
        Options::new(100, 50)
            .sandbox(&sandbox)
            .env("CLINES_SCORE_DIR", &score_dir),
        "Records and saved games cannot be kept in",
    );
    let warning = format!(
        "warning: records and saved games cannot be kept in {}: {} above it is not a \
         directory\n",
        score_dir.display(),
        not_a_dir.display()
    );
    let stderr = stderr
        .strip_prefix(&warning)
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(
        stderr.contains("the record could not be saved")
            && stderr.contains(&score_dir.display().to_string()),
        "stderr: {stderr:?}"
    );
    assert!(!stderr.contains("saved game"), "stderr: {stderr:?}");
    assert!(!after_leaving(&term).contains("saved!"));
}

/// A records directory the player may not write in, or one that cannot be
/// made where it should be, is told before play, not first as the game
/// ends with its record lost; the same directory open to the player is
/// told of nothing. The game runs as the user nobody when the test is
/// root, whom permission bits do not stop.
#[test]
fn an_unwritable_records_directory_is_told_before_play() {
    use std::os::unix::fs::PermissionsExt;
    let sandbox = Sandbox::new();
    sandbox.open_to_all();
    let shut = sandbox.home().join("shut");
    fs::create_dir(&shut).expect("make a directory");
    let set = |mode| {
        fs::set_permissions(&shut, fs::Permissions::from_mode(mode)).expect("set its mode");
    };
    let inside = shut.join("scores");
    let spawn_with = |dir: &Path, options: Options| {
        let options = options
            .sandbox(&sandbox)
            .env("CLINES_SCORE_DIR", dir)
            .separate_stderr();
        let (program, options) = pty::unprivileged(CLINES, options);
        Term::spawn(program, options)
    };
    // A seeded game: it keeps no record, so quitting says nothing more.
    let spawn = |dir: &Path| spawn_with(dir, Options::new(100, 50).args(["--seed", "1"]));
    set(0o555);
    let told = [
        (&shut, "it may not be written in".to_string()),
        (
            &inside,
            format!(
                "it cannot be made, as {} may not be written in",
                shut.display()
            ),
        ),
    ];
    for (dir, why) in told {
        let warning = format!(
            "warning: records and saved games cannot be kept in {}: {why}: Permission denied \
             (os error 13)\n",
            dir.display()
        );
        quit_past_the_records_warning(&mut spawn(dir), &warning);
    }
    // A game that keeps a record loses it as it ends, and the reason names
    // the directory, not the hidden file the save would have written.
    let options = Options::new(100, 50).env("CLINES_TEST_SEED", TEST_SEED);
    let mut term = spawn_with(&shut, options);
    past_the_warning(&mut term, "Records and saved games cannot be kept in");
    let score = play_until_scored(&mut term, 100, 50);
    term.key(Key::Char('q'));
    check_exit(&mut term, &[], score);
    let lost = format!(
        "the record could not be saved: creating a file in {}: Permission denied",
        shut.display()
    );
    assert!(term.stderr().contains(&lost), "{}", term.stderr());
    // No box before play: the first key quits.
    set(0o777);
    for dir in [&shut, &inside] {
        let mut term = spawn(dir);
        term.key(Key::Char('q'));
        check_exit(&mut term, &[], 0);
        assert_eq!(term.stderr(), "", "{}", dir.display());
    }
}

/// A records directory that is a plain file holds no saved game: quitting
/// says nothing about one. A seeded game keeps no record and says
/// nothing; a scoring game says once that its record could not be saved,
/// and that the game could not be saved instead either.
#[test]
fn a_records_directory_that_is_a_file_holds_no_saved_game() {
    let sandbox = Sandbox::new();
    let file = sandbox.home().join("file");
    fs::write(&file, "").expect("write a file");
    let options = || {
        Options::new(100, 50)
            .sandbox(&sandbox)
            .env("CLINES_SCORE_DIR", &file)
            .separate_stderr()
    };
    let warning = format!(
        "warning: records and saved games cannot be kept in {}: it is not a directory\n",
        file.display()
    );
    let mut term = Term::spawn(CLINES, options().args(["--seed", "1"]));
    quit_past_the_records_warning(&mut term, &warning);

    let (_, stderr) = score_then_quit(options(), "Records and saved games cannot be kept in");
    let stderr = stderr
        .strip_prefix(&warning)
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(!stderr.contains("saved game"), "stderr: {stderr:?}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(
        lines.len() == 2
            && lines[0].contains("the record could not be saved")
            && lines[0].contains(&file.display().to_string()),
        "stderr: {stderr:?}"
    );
    // Saving the game instead fails for the same reason, said briefly.
    assert_eq!(
        lines[1], "clines: nor could the game be saved instead, for the same reason",
        "stderr: {stderr:?}"
    );
    assert_eq!(fs::read(&file).expect("the file"), b"", "the file changed");
}

/// `s` where the game cannot be saved: the game goes on, a box says why,
/// and any key goes back to it; `q` then quits as usual.
#[test]
fn the_save_key_keeps_the_game_when_it_cannot_be_saved() {
    let sandbox = Sandbox::new();
    let file = sandbox.home().join("file");
    fs::write(&file, "").expect("write a file");
    let options = Options::new(100, 50)
        .sandbox(&sandbox)
        .env("CLINES_SCORE_DIR", &file)
        .args(["--seed", "2"]);
    let mut term = Term::spawn(CLINES, options);
    past_the_warning(&mut term, "Records and saved games cannot be kept in");
    term.key(Key::Char('s'));
    term.expect_text("The game could not be saved:");
    term.expect_text("Any key goes back to it.");
    closed_then_quit_unsaved(&mut term);
    assert_eq!(fs::read(&file).expect("the file"), b"", "the file changed");
}

/// `s` under a file-size limit (`ulimit -f 0`): the save's write fails, and
/// the limit's SIGXFSZ does not end the game; a box says why it could not
/// be saved, and the game goes on.
#[test]
fn the_save_key_under_a_file_size_limit_keeps_the_game() {
    let sandbox = Sandbox::new();
    let options = Options::new(100, 50).sandbox(&sandbox).args([
        "-c",
        "ulimit -f 0 && exec \"$0\" \"$@\"",
        CLINES,
        "--seed",
        "2",
    ]);
    let mut term = Term::spawn("sh", options);
    term.expect_frame("the opening board", |screen| {
        read_board(screen, cell_size(100, 50)).and_then(|seen| match seen.chips() {
            0 => Err("no chips yet".into()),
            _ => Ok(seen),
        })
    });
    term.key(Key::Char('s'));
    term.expect_text("Any key goes back to it.");
    let shown = term.contents();
    assert!(
        shown.contains("The game could not be saved:") && shown.contains("File too"),
        "{shown}"
    );
    // Nor is the limit's SIGXFSZ left pending on the thread that wrote,
    // where the signal thread could never take it, and where it would
    // read as a signal still on its way for good.
    let status = format!("/proc/{0}/task/{0}/status", term.pid());
    let pending = fs::read_to_string(status).expect("the main thread's status");
    let pending = pending
        .lines()
        .find_map(|line| line.strip_prefix("SigPnd:"))
        .map(|mask| u64::from_str_radix(mask.trim(), 16).expect("a mask"))
        .expect("the thread's pending signals");
    assert_eq!(pending & (1 << (libc::SIGXFSZ - 1)), 0, "SIGXFSZ pending");
    closed_then_quit_unsaved(&mut term);
}

/// A records directory behind a symbolic link that leads nowhere (a moved
/// dotfiles folder, say) is told before play, in a box and on standard
/// error, since otherwise only the save at the end would find it out.
/// Nothing is made where the link points.
#[test]
fn a_records_directory_behind_a_broken_link_is_told_before_play() {
    let sandbox = Sandbox::new();
    let link = sandbox.home().join("linked");
    let gone = sandbox.home().join("gone");
    std::os::unix::fs::symlink(&gone, &link).expect("make a link");
    let score_dir = link.join("scores");
    let options = Options::new(100, 50)
        .sandbox(&sandbox)
        .env("CLINES_SCORE_DIR", &score_dir)
        .separate_stderr()
        .args(["--seed", "1"]);
    let warning = format!(
        "warning: records and saved games cannot be kept in {}: {} above it is a symbolic link \
         to {}, which leads nowhere\n",
        score_dir.display(),
        link.display(),
        gone.display()
    );
    quit_past_the_records_warning(&mut Term::spawn(CLINES, options), &warning);
    assert!(!gone.exists(), "made where the link points");
}

/// `s` with no records directory at all: the box says why there is none,
/// as the warning before play did, not only that there is nowhere to save.
#[test]
fn the_save_key_says_why_there_is_no_records_directory() {
    let sandbox = Sandbox::new();
    let options = Options::new(100, 50)
        .sandbox(&sandbox)
        .current_dir(sandbox.home())
        .env("CLINES_SCORE_DIR", "rel");
    let mut term = Term::spawn(CLINES, options);
    past_the_warning(&mut term, "no directory for records");
    term.key(Key::Char('s'));
    box_then_back(
        &mut term,
        &[
            "The game could not be saved:",
            "No directory for records: CLINES_SCORE_DIR=\"rel\"",
        ],
    );
    term.key(Key::Char('q'));
    check_exit(&mut term, &[], 0);
    assert!(
        !sandbox.home().join("rel").exists(),
        "saved where it was started"
    );
}

/// A relative `CLINES_SCORE_DIR` would put records wherever clines was
/// started: it is refused, the game plays without records, and the end
/// says why none was saved.
#[test]
fn a_relative_score_dir_variable_is_refused_at_exit() {
    let sandbox = Sandbox::new();
    let (term, stderr) = score_then_quit(
        Options::new(100, 50)
            .sandbox(&sandbox)
            .current_dir(sandbox.home())
            .env("CLINES_SCORE_DIR", "rel"),
        "Records and saved games cannot be kept: no directory for records",
    );
    assert!(
        stderr.starts_with(
            "warning: records and saved games cannot be kept: no directory for records: \
             CLINES_SCORE_DIR=\"rel\": expected an absolute directory path"
        ),
        "stderr: {stderr:?}"
    );
    assert!(
        stderr.contains(
            "the record could not be saved: no directory for records: \
             CLINES_SCORE_DIR=\"rel\": expected an absolute directory path"
        ),
        "stderr: {stderr:?}"
    );
    assert!(!after_leaving(&term).contains("saved!"));
    assert!(!sandbox.home().join("rel").exists(), "records written");
}

/// Closes the box saying why the game could not be saved, checks that the
/// game goes on, quits it with `q`, and checks that nothing was saved.
fn closed_then_quit_unsaved(term: &mut Term) {
    term.key(Key::Char('x'));
    term.expect_screen("the box closed", |s| {
        !s.contents().contains("could not be saved")
    });
    assert!(!term.closed(), "the game goes on");
    term.key(Key::Char('q'));
    check_exit(term, &[], 0);
    assert!(!after_leaving(term).contains("Game saved"));
}

/// Waits for a box that any key closes back to the game, checks that each
/// of `lines` starts a line of it, and closes it.
fn box_then_back(term: &mut Term, lines: &[&str]) {
    term.expect_text("Any key goes back to it.");
    let shown = term.contents();
    for line in lines {
        assert!(shown.contains(&format!("|{line}")), "{line:?}:\n{shown}");
    }
    term.key(Key::Char('x'));
    term.expect_screen("the box closed", |s| {
        !s.contents().contains("Any key goes back to it.")
    });
}

/// Waits for the box before play, checks that it says `says` (on one
/// line of the screen), and closes it.
fn past_the_warning(term: &mut Term, says: &str) {
    term.expect_text("Any key goes on to the game.");
    let shown = term.contents();
    assert!(
        shown.contains("Warning:") && shown.contains(says),
        "{shown}"
    );
    term.key(Key::Char('x'));
    term.expect_screen("the box closed", |s| !s.contents().contains("Warning"));
}

/// Quits a seeded game, which keeps no record, past the box that warns of
/// its records directory; all it wrote on standard error is `warning`.
fn quit_past_the_records_warning(term: &mut Term, warning: &str) {
    past_the_warning(term, "Records and saved games cannot be kept in");
    term.key(Key::Char('q'));
    check_exit(term, &[], 0);
    assert_eq!(
        term.stderr(),
        warning,
        "a seeded game has nothing more to report"
    );
}

/// Plays a 100 × 50 game with `options` until it scores, quits with `q`
/// and checks the exit; returns the terminal and what the game wrote on
/// standard error. The records directory is one the game warns of before
/// play, saying `warned`.
fn score_then_quit(options: Options, warned: &str) -> (Term, String) {
    let options = options.env("CLINES_TEST_SEED", TEST_SEED).separate_stderr();
    let mut term = Term::spawn(CLINES, options);
    past_the_warning(&mut term, warned);
    let score = play_until_scored(&mut term, 100, 50);
    term.key(Key::Char('q'));
    check_exit(&mut term, &[], score);
    let stderr = term.stderr();
    (term, stderr)
}

/// With a fixed seed, records are off: no `hi` line though a record
/// exists, and nothing written.
#[test]
fn records_are_off_with_a_seed() {
    let sandbox = Sandbox::new();
    let other = sandbox.score_dir().join("zed.toml");
    fs::write(&other, "score = 7\nset_at = 0\n").expect("write a record");
    for args in [&["--seed=3"][..], &["--seed=3", "-N4"][..]] {
        let (mut term, score) = scoring_game(&sandbox, args);
        assert!(
            !term.contents().contains("hi "),
            "{args:?}: a hi line:\n{}",
            term.contents()
        );
        term.key(Key::Char('q'));
        check_exit(
            &mut term,
            &["No record kept: this game was started with --seed."],
            score,
        );
        let names: Vec<_> = fs::read_dir(sandbox.score_dir())
            .expect("the records directory")
            .map(|entry| entry.expect("an entry").file_name())
            .collect();
        assert_eq!(names, ["zed.toml"], "{args:?}");
    }
}

/// Rules off the defaults keep their own record, in the same file: the
/// default rules' records are not shown, the score is saved under the rule
/// set's key and listed by `clines -l` with the same rules.
#[test]
fn other_rules_keep_their_own_record() {
    let sandbox = Sandbox::new();
    let other = sandbox.score_dir().join("zed.toml");
    fs::write(&other, "score = 7\nset_at = 0\n").expect("write a record");
    let (mut term, score) = scoring_game(&sandbox, &["-N4"]);
    term.expect_text(&format!("=[ hi : {score} ]="));
    assert!(!term.contents().contains("zed"), "{}", term.contents());
    term.key(Key::Char('q'));
    check_exit(&mut term, &["New record saved!"], score);
    let text = fs::read_to_string(record_file(&sandbox)).expect("the record file");
    assert!(
        text.starts_with(&format!(
            "[rules.w9-t9-c5-i5-n3-N4]\nscore = {score}\nset_at = "
        )),
        "{text:?}"
    );
    assert_eq!(
        fs::read_to_string(&other).expect("zed's record"),
        "score = 7\nset_at = 0\n"
    );
    let mut command = Command::new(CLINES);
    command.args(["-l", "-N4"]);
    sandbox.apply(&mut command);
    let output = command.output().expect("clines -l runs");
    let listed = String::from_utf8(output.stdout).expect("UTF-8 listing");
    assert!(
        listed.starts_with(&format!("* {:<8}\t{score}\t", user())) && listed.lines().count() == 1,
        "{listed:?}"
    );
    assert_eq!(listing(&sandbox), "  zed     \t7\n");
}

/// `clines -l` with `args` in `sandbox`: the listing and standard error.
fn listing_with(sandbox: &Sandbox, args: &[&str]) -> (String, String) {
    let mut command = Command::new(CLINES);
    command.arg("-l").args(args);
    sandbox.apply(&mut command);
    let output = command.output().expect("clines -l runs");
    assert!(output.status.success(), "clines -l {args:?}: {output:?}");
    (
        String::from_utf8(output.stdout).expect("UTF-8 listing"),
        String::from_utf8(output.stderr).expect("UTF-8 warnings"),
    )
}

/// A game with a preview keeps its own record, apart from the same rules
/// without one: saved under the rule set's key, listed by `clines -l` with
/// that preview alone, and shown on the board by the next game with it.
#[test]
fn a_preview_keeps_its_own_record() {
    let sandbox = Sandbox::new();
    let other = sandbox.score_dir().join("zed.toml");
    fs::write(&other, "score = 7\nset_at = 0\n").expect("write a record");
    let (mut term, score) = scoring_game(&sandbox, &["--preview", "cells"]);
    term.expect_text(&format!("=[ hi : {score} ]="));
    assert!(!term.contents().contains("zed"), "{}", term.contents());
    term.key(Key::Char('q'));
    check_exit(&mut term, &["New record saved!"], score);
    let text = fs::read_to_string(record_file(&sandbox)).expect("the record file");
    assert!(
        text.starts_with(&format!(
            "[rules.w9-t9-c5-i5-n3-N3-pcells]\nscore = {score}\nset_at = "
        )),
        "{text:?}"
    );

    let (listed, _) = listing_with(&sandbox, &["--preview", "cells"]);
    assert!(
        listed.starts_with(&format!("* {:<8}\t{score}\t", user())) && listed.lines().count() == 1,
        "{listed:?}"
    );
    // The same table with the default rules given, and none without the
    // preview, with another one, or with other rules.
    assert_eq!(listing_with(&sandbox, &["-w9", "-pcells"]).0, listed);
    assert_eq!(listing(&sandbox), "  zed     \t7\n");
    for args in [&["-p", "colors"][..], &["-pcells", "-N4"][..]] {
        let (listed, warnings) = listing_with(&sandbox, args);
        assert_eq!(listed, "", "{args:?}");
        assert!(warnings.contains("no records yet for -w9"), "{warnings:?}");
    }

    // The next game with the preview shows the record from the start.
    let mut term = Term::spawn(
        CLINES,
        Options::new(100, 50)
            .sandbox(&sandbox)
            .args(["-p", "cells"]),
    );
    term.expect_screen("the preview's record", |screen| {
        bottom_border(screen, 5)
            .get(8..)
            .is_some_and(|text| text.starts_with(&format!("=[ hi : {score} ]=")))
    });
    term.key(Key::Char('q'));
    check_exit(&mut term, &[], 0);
}
