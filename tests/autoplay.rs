//! The built-in player in the terminal game, end to end: the real binary in
//! a pseudo-terminal, its screen read back cell by cell.
//!
//! The games run at 80 × 24 with the default 9 × 9 board, so the cells are
//! drawn in mini mode with a 1-character interior: board cell `(x, y)` is
//! the screen character at column `2x + 1`, row `2y + 1`, showing `O` in a
//! chip's colour, `o` for a selected chip on half its jump, `I` for the
//! cursor (white on an empty cell, in the chip's colour on a chip), or a
//! blank.

use crate::pty;

use pty::{Key, Options, TIMEOUT, Term};

const CLINES: &str = env!("CARGO_BIN_EXE_clines");

/// A board cell: column and row, 0-based.
type Pos = (usize, usize);

/// The default board's side.
const SIDE: usize = 9;

/// The cursor's colour in the default palette.
const WHITE: u8 = 7;

/// What one board cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Empty,
    /// A chip of this palette colour (1-5), or the cursor's white while it
    /// flashes before removal.
    Chip(u8),
    /// A selected chip on the jumping half of its jump.
    Jumping(u8),
}

/// The board as the screen shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Seen {
    cells: Vec<Cell>,
    cursor: Option<Pos>,
    /// The score on the top border (absent while 0).
    score: u64,
}

impl Seen {
    fn at(&self, (x, y): Pos) -> Cell {
        self.cells[y * SIDE + x]
    }

    fn chips(&self) -> usize {
        self.cells.iter().filter(|&&c| c != Cell::Empty).count()
    }

    fn jumping(&self) -> Vec<Pos> {
        positions()
            .filter(|&p| matches!(self.at(p), Cell::Jumping(_)))
            .collect()
    }
}

fn positions() -> impl Iterator<Item = Pos> {
    (0..SIDE).flat_map(|y| (0..SIDE).map(move |x| (x, y)))
}

/// Reads the 9 × 9 board off an 80 × 24 screen, or says what is not there.
fn read(screen: &vt100::Screen) -> Result<Seen, String> {
    let mut cells = Vec::with_capacity(SIDE * SIDE);
    let mut cursor = None;
    for (x, y) in positions() {
        let (row, col) = (2 * y as u16 + 1, 2 * x as u16 + 1);
        let cell = screen
            .cell(row, col)
            .ok_or_else(|| format!("no screen cell at row {row}, column {col}"))?;
        let color = match cell.fgcolor() {
            vt100::Color::Idx(n) => n,
            vt100::Color::Default => WHITE,
            other => return Err(format!("({x}, {y}) drawn in {other:?}")),
        };
        let seen = match cell.contents() {
            " " | "" => Cell::Empty,
            "O" => Cell::Chip(color),
            "o" => Cell::Jumping(color),
            "I" => {
                cursor = Some((x, y));
                if color == WHITE {
                    Cell::Empty
                } else {
                    Cell::Chip(color)
                }
            }
            other => return Err(format!("({x}, {y}) shows {other:?}")),
        };
        cells.push(seen);
    }
    let top = screen.contents_between(0, 0, 0, 80);
    let score = match top.split_once("[ s: ") {
        Some((_, rest)) => rest
            .split_whitespace()
            .next()
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| format!("unreadable score in {top:?}"))?,
        None => 0,
    };
    Ok(Seen {
        cells,
        cursor,
        score,
    })
}

/// Starts `clines ARGS` at 80 × 24 and waits for the opening three chips.
fn start(args: &[&str]) -> (Term, Seen) {
    let term = Term::spawn(CLINES, Options::new(80, 24).args(args.iter().copied()));
    let opening = term.expect("the opening board", |screen| {
        let seen = read(screen)?;
        match seen.chips() {
            3 => Ok(seen),
            n => Err(format!("{n} chips")),
        }
    });
    (term, opening)
}

/// Waits up to [`TIMEOUT`] for a whole frame (the end of a synchronized
/// update, so that no half-drawn frame is judged) whose board `check`
/// accepts, and returns that board; otherwise fails the test with `what`.
fn expect_frame(
    term: &Term,
    what: &str,
    mut check: impl FnMut(&Seen) -> Result<(), String>,
) -> Seen {
    let mut result = Err(String::from("no whole frame yet"));
    term.wait_for_output(TIMEOUT, |raw| {
        if !raw.ends_with(pty::END_SYNC) {
            return false;
        }
        let mut parser = vt100::Parser::new(24.try_into().unwrap(), 80.try_into().unwrap(), 0);
        parser.process(raw);
        result = read(parser.screen()).and_then(|seen| check(&seen).map(|()| seen));
        result.is_ok()
    });
    result.unwrap_or_else(|reason| {
        panic!(
            "waited {TIMEOUT:?} for {what}: {reason}\nscreen:\n{}",
            term.contents()
        )
    })
}

/// Waits for the exit after a key that ends the game: status 0, terminal
/// restored, and the score printed; returns the score.
fn check_exit(term: &mut Term) -> u64 {
    let status = term.wait_exit(TIMEOUT);
    assert_eq!(status.code(), Some(0), "exit status {status:?}");
    term.assert_restored();
    let contents = term.contents();
    contents
        .lines()
        .find_map(|line| line.trim().strip_prefix("Scores earned : "))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no score line after exit:\n{contents}"))
}

/// What the headless mode says about the opening of the game seeded
/// `seed`: its board, its hint, and whether `from` → `to` is a legal move.
struct Headless {
    rows: Vec<String>,
    hint: String,
    legal: bool,
}

/// Runs the headless mode on the opening of the game seeded `seed`.
fn headless_opening(seed: u64, from: Pos, to: Pos) -> Headless {
    let seed = seed.to_string();
    let input = format!(
        "board\nhint\nmove {} {} {} {}\nquit\n",
        from.0, from.1, to.0, to.1
    );
    let output = pty::run_piped(CLINES, &["--batch", "--seed", &seed], &input);
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).expect("UTF-8 answers");
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    assert_eq!(lines.len(), SIDE + 2, "{text}");
    Headless {
        rows: lines[..SIDE].to_vec(),
        hint: lines[SIDE].clone(),
        legal: lines[SIDE + 1].starts_with("ok "),
    }
}

/// Presses `?` and waits for the hint: returns the chip it selects, the
/// cursor on its target, and the board. The selected chip shows its
/// jumping glyph on half of its jump.
fn ask_hint(term: &mut Term) -> (Pos, Pos, Seen) {
    term.key(Key::Char('?'));
    let hinted = expect_frame(term, "a chip selected by the hint", |seen| {
        match seen.jumping()[..] {
            [_] => Ok(()),
            _ => Err(String::from("no jumping chip")),
        }
    });
    let from = hinted.jumping()[0];
    let to = hinted.cursor.expect("the cursor is shown");
    (from, to, hinted)
}

/// The board as the headless mode prints it.
fn batch_rows(seen: &Seen) -> Vec<String> {
    (0..SIDE)
        .map(|y| {
            (0..SIDE)
                .map(|x| match seen.at((x, y)) {
                    Cell::Empty => '.',
                    Cell::Chip(c) | Cell::Jumping(c) => char::from(b'0' + c),
                })
                .collect()
        })
        .collect()
}

#[test]
fn autoplay_plays_by_itself_until_q() {
    let (mut term, opening) = start(&["--seed=5", "--autoplay", "--autoplay-delay", "50"]);
    let mut cursors = vec![opening.cursor];
    let mut last = opening.clone();
    // Three computer throws (each follows one of the player's moves) or a
    // score: several moves made, with no key pressed.
    term.expect("several moves by the built-in player", |screen| {
        let seen = read(screen)?;
        if !cursors.contains(&seen.cursor) {
            cursors.push(seen.cursor);
        }
        last = seen.clone();
        if seen.chips() >= opening.chips() + 9 || seen.score > 0 {
            Ok(())
        } else {
            Err(format!("{} chips, score {}", seen.chips(), seen.score))
        }
    });
    assert_ne!(last.cells, opening.cells);
    // Each move is shown first: the cursor went to the chosen targets.
    assert!(cursors.len() >= 2, "the cursor never moved: {cursors:?}");
    term.key(Key::Char('q'));
    let score = check_exit(&mut term);
    assert!(score >= last.score, "{score} < {}", last.score);
}

#[test]
fn autoplay_stops_at_game_over_and_any_key_ends() {
    // A 4 × 4 board fills up within a few turns.
    let mut term = Term::spawn(
        CLINES,
        Options::new(80, 24).args(["--seed=2", "-w4", "-t4", "--autoplay", "--autoplay-delay=0"]),
    );
    term.expect_text("Game over, press a key...");
    // The box stays until a key, autoplay's own included.
    term.key(Key::Char('a'));
    check_exit(&mut term);
}

#[test]
fn hint_selects_a_chip_and_puts_the_cursor_on_a_legal_target() {
    let seed = 9;
    let (mut term, opening) = start(&[&format!("--seed={seed}")]);
    let (from, to, hinted) = ask_hint(&mut term);
    assert_eq!(hinted.at(to), Cell::Empty, "the cursor is on a chip");
    let headless = headless_opening(seed, from, to);
    assert_eq!(headless.rows, batch_rows(&opening), "the opening differs");
    assert!(
        headless.legal,
        "the hint {from:?} -> {to:?} is not a legal move"
    );
    // The same game gets the same hint in both modes.
    let hint = format!("hint {} {} {} {}", from.0, from.1, to.0, to.1);
    assert_eq!(headless.hint, hint);
    // The action key accepts it: the chip arrives at the target.
    let color = match hinted.at(from) {
        Cell::Jumping(c) => c,
        other => panic!("{other:?}"),
    };
    term.key(Key::Char(' '));
    term.expect("the hinted chip at its target", |screen| {
        let seen = read(screen)?;
        match (seen.at(from), seen.at(to)) {
            (Cell::Empty, Cell::Chip(c)) if c == color => Ok(()),
            cells => Err(format!("from and to show {cells:?}")),
        }
    });
    term.key(Key::Char('q'));
    assert_eq!(check_exit(&mut term), 0);
}

/// After `n` under `--seed S` the game is that of seed S + 1, and so are
/// its hints: the headless mode's under `--seed S + 1`.
#[test]
fn a_new_game_gets_the_hints_of_its_own_seed() {
    let seed = 9;
    let (mut term, opening) = start(&[&format!("--seed={seed}")]);
    term.key(Key::Char('n'));
    let second = expect_frame(&term, "the second game's opening", |seen| {
        match seen.chips() == 3 && batch_rows(seen) != batch_rows(&opening) {
            true => Ok(()),
            false => Err(String::from("still the first game")),
        }
    });
    let (from, to, _) = ask_hint(&mut term);
    let headless = headless_opening(seed + 1, from, to);
    assert_eq!(
        headless.rows,
        batch_rows(&second),
        "not the next seed's game"
    );
    assert_eq!(
        headless.hint,
        format!("hint {} {} {} {}", from.0, from.1, to.0, to.1)
    );
    term.key(Key::Char('q'));
    assert_eq!(check_exit(&mut term), 0);
}

#[test]
fn a_signal_ends_an_autoplayed_game_with_the_terminal_restored() {
    let (mut term, opening) = start(&["--seed=6", "--autoplay", "--autoplay-delay=0"]);
    term.expect("a move by the built-in player", |screen| {
        let seen = read(screen)?;
        if seen.chips() > opening.chips() {
            Ok(())
        } else {
            Err(format!("{} chips", seen.chips()))
        }
    });
    term.signal(libc::SIGTERM);
    check_exit(&mut term);
}

#[test]
fn keys_given_with_dash_c_win_over_the_hint_and_autoplay_keys() {
    // `a` moves left and `?` down: neither asks the built-in player, and
    // a box says so before play.
    let mut term = Term::spawn(
        CLINES,
        Options::new(80, 24).args(["--seed=9", "-C", "a?wd "]),
    );
    // The box's last line: the warning itself is also on standard error,
    // printed before the game takes the terminal.
    term.expect_text("Any key goes on to the game.");
    let shown = term.contents();
    assert!(shown.contains("`?` and `a` are now -C keys"), "{shown}");
    term.key(Key::Char('x'));
    let opening = term.expect("the opening board", |screen| {
        let seen = read(screen)?;
        match seen.chips() {
            3 => Ok(seen),
            n => Err(format!("{n} chips")),
        }
    });
    term.keys(&[Key::Right, Key::Right, Key::Char('a')]);
    term.expect("the cursor one cell right of the start", |screen| {
        let seen = read(screen)?;
        match seen.cursor {
            Some((1, 0)) => Ok(()),
            other => Err(format!("the cursor at {other:?}")),
        }
    });
    term.key(Key::Char('?'));
    let seen = term.expect("the cursor moved down", |screen| {
        let seen = read(screen)?;
        match seen.cursor {
            Some((1, 1)) => Ok(seen),
            other => Err(format!("the cursor at {other:?}")),
        }
    });
    assert!(seen.jumping().is_empty());
    assert_eq!(seen.cells, opening.cells);
    term.key(Key::Char('q'));
    assert_eq!(check_exit(&mut term), 0);
}
