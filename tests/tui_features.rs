//! End-to-end tests of the terminal game's additions to the original: wide
//! cells, the next-chip preview, undo, new game and the help overlay. The
//! real binary runs in a pseudo-terminal and its screen is read with vt100,
//! in colour and in black and white; where a game is seeded, what it must
//! show is learnt from the headless mode with the same seed.

use clines::board::color_of_char;

use crate::pty;

use pty::{Key, Options, TIMEOUT, Term};

const CLINES: &str = env!("CARGO_BIN_EXE_clines");

/// The answers of `clines --batch args` to `input`, line by line.
fn batch(args: &[&str], input: &str) -> Vec<String> {
    let mut all = vec!["--batch"];
    all.extend_from_slice(args);
    let output = pty::run_piped(CLINES, &all, input);
    assert!(output.status.success(), "clines {all:?}: {output:?}");
    String::from_utf8(output.stdout)
        .expect("UTF-8 answers")
        .lines()
        .map(str::to_string)
        .collect()
}

/// The board of a headless game: `args`, then `commands`, then `board`;
/// one row of colour numbers (0 for empty) per board row.
fn board(args: &[&str], commands: &[&str], height: usize) -> Vec<Vec<u8>> {
    let mut input: String = commands.iter().map(|c| format!("{c}\n")).collect();
    input.push_str("board\n");
    let lines = batch(args, &input);
    lines[lines.len() - height..]
        .iter()
        .map(|row| {
            let cell =
                |c| color_of_char(c).unwrap_or_else(|| panic!("not a cell: {c:?} in {row:?}"));
            row.chars().map(cell).collect()
        })
        .collect()
}

/// Screen row `row` as text, trailing blanks cut.
fn row_text(screen: &vt100::Screen, row: u16) -> String {
    let (_, cols) = screen.size();
    let text: String = (0..cols.get())
        .map(|col| {
            screen
                .cell(row, col)
                .and_then(|c| c.contents().chars().next())
                .unwrap_or(' ')
        })
        .collect();
    text.trim_end().to_string()
}

/// The character and foreground colour at `row`, `col`.
fn cell(screen: &vt100::Screen, row: u16, col: u16) -> (char, vt100::Color) {
    let cell = screen.cell(row, col).expect("on the screen");
    (
        cell.contents().chars().next().unwrap_or(' '),
        cell.fgcolor(),
    )
}

/// Starts `clines args` in a `cols` × `rows` terminal.
fn spawn(cols: u16, rows: u16, args: &[&str]) -> Term {
    Term::spawn(CLINES, Options::new(cols, rows).args(args.iter().copied()))
}

/// Quits with `q`: status 0, terminal restored, the score line printed.
fn quit(term: &mut Term) {
    term.key(Key::Char('q'));
    let status = term.wait_exit(TIMEOUT);
    assert_eq!(status.code(), Some(0), "exit status {status:?}");
    term.assert_restored();
    assert!(term.contents().contains("Scores earned : "));
}

/// What a wide cell of a chip of colour `color` shows with no cursor on
/// it: its glyph three times.
fn wide_chip(color: u8, mono: bool) -> String {
    let glyph = if mono {
        ['O', 'V', 'A', '.', 'Z'][usize::from(color) - 1]
    } else {
        'O'
    };
    glyph.to_string().repeat(3)
}

/// Checks that the screen shows `board` in wide cells, except under the
/// cursor (cell (0, 0) when `cursor_home`).
fn check_wide_board(
    screen: &vt100::Screen,
    board: &[Vec<u8>],
    mono: bool,
    cursor_home: bool,
) -> Result<(), String> {
    let (width, height) = (board[0].len(), board.len());
    let top = row_text(screen, 0);
    let line = format!("|{}|", "-".repeat(4 * width - 1));
    if top != line || row_text(screen, 2 * height as u16) != line {
        return Err(format!("grid lines: {top:?}"));
    }
    for (y, row) in board.iter().enumerate() {
        for (x, &color) in row.iter().enumerate() {
            if cursor_home && (x, y) == (0, 0) {
                continue;
            }
            let (r, c) = (2 * y as u16 + 1, 4 * x as u16 + 1);
            let shown: String = (0..3).map(|i| cell(screen, r, c + i).0).collect();
            let want = if color == 0 {
                "   ".to_string()
            } else {
                wide_chip(color, mono)
            };
            if shown != want {
                return Err(format!("cell ({x}, {y}): {shown:?}, expected {want:?}"));
            }
            if color > 0 && !mono && cell(screen, r, c).1 != vt100::Color::Idx(color) {
                return Err(format!("cell ({x}, {y}) in {:?}", cell(screen, r, c).1));
            }
            if cell(screen, r, c + 3).0 != '|' {
                return Err(format!("no grid line right of ({x}, {y})"));
            }
        }
    }
    Ok(())
}

#[test]
fn wide_cells_fill_80_by_24_and_play_with_the_mouse_in_colour_and_mono() {
    for mono in [false, true] {
        let mode = if mono { "-mb" } else { "-mc" };
        let opening = board(&["--seed", "31"], &[], 9);
        let mut term = spawn(80, 24, &["--cells", "wide", "--seed", "31", mode]);
        term.expect("the opening in wide cells", |screen| {
            check_wide_board(screen, &opening, mono, true)
        });
        // The cursor starts at (0, 0): its glyph three times on an empty
        // cell, framing a chip.
        term.expect("the cursor", |screen| {
            let shown: String = (1..4).map(|c| cell(screen, 1, c).0).collect();
            let cursor = if mono { '*' } else { 'I' };
            let want = match opening[0][0] {
                0 => cursor.to_string().repeat(3),
                color => format!("{cursor}{}{cursor}", &wide_chip(color, mono)[..1]),
            };
            if shown == want {
                Ok(())
            } else {
                Err(format!("{shown:?}"))
            }
        });
        // Click a chip, then an empty cell's right-hand column: the chip
        // moves there as the headless game says it does.
        let (fx, fy) = (0..81)
            .map(|i| (i % 9, i / 9))
            .find(|&(x, y)| opening[y][x] != 0 && (x, y) != (0, 0))
            .unwrap();
        let (tx, ty) = (0..81)
            .map(|i| (i % 9, i / 9))
            .find(|&(x, y)| opening[y][x] == 0 && (x, y) != (0, 0) && y != fy)
            .unwrap();
        let command = format!("move {fx} {fy} {tx} {ty}");
        let after = board(&["--seed", "31"], &[&command], 9);
        term.click(4 * fx as u16 + 2, 2 * fy as u16 + 1);
        term.click(4 * tx as u16 + 3, 2 * ty as u16 + 1);
        term.expect("the board after the move", |screen| {
            let mut shown = after.clone();
            // The cursor (hidden after a click) is on the target.
            shown[0][0] = opening[0][0];
            check_wide_board(screen, &shown, mono, false)
        });
        // Too small, then large enough again.
        term.resize(50, 18);
        term.expect_text("19 chars tall terminal required, now it's 18");
        term.expect_text("Please resize the window again");
        term.resize(80, 24);
        term.expect("the board back", |screen| {
            check_wide_board(screen, &after, mono, false)
        });
        quit(&mut term);
    }
}

#[test]
fn wide_cells_too_small_at_start_say_the_size_they_need() {
    let mut term = Term::spawn(
        CLINES,
        Options::new(40, 18)
            .args(["--cells", "wide"])
            .separate_stderr(),
    );
    let status = term.wait_exit(TIMEOUT);
    assert_eq!(status.code(), Some(1));
    assert!(
        term.stderr()
            .contains("19 chars tall terminal required, now it's 18"),
        "{}",
        term.stderr()
    );
    term.assert_restored();
}

#[test]
fn square_cells_by_config_are_the_original_screen() {
    let sandbox = pty::Sandbox::new();
    let dir = sandbox.config_dir().join("clines");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), "cells = \"wide\"\n").unwrap();
    let mut term = Term::spawn(
        CLINES,
        Options::new(80, 24)
            .args(["--cells", "square", "--seed", "3"])
            .sandbox(&sandbox),
    );
    // 80 × 24 gives square mini cells of 2: a 19-column board.
    term.expect("the 19 x 19 mini board", |screen| {
        let top = row_text(screen, 0);
        if top == format!("|{}|", "-".repeat(17)) {
            Ok(())
        } else {
            Err(top)
        }
    });
    quit(&mut term);
}

/// The planned throw of a headless game after `commands`: (cell, colour)
/// with `-p cells`, the cell `None` with `-p colors`.
fn next(args: &[&str], commands: &[&str]) -> Vec<(Option<(usize, usize)>, u8)> {
    let mut input: String = commands.iter().map(|c| format!("{c}\n")).collect();
    input.push_str("next\n");
    let answer = batch(args, &input).pop().unwrap();
    let words: Vec<&str> = answer.strip_prefix("next ").unwrap().split(' ').collect();
    let colour = |w: &str| w.parse::<u8>().unwrap();
    if args.contains(&"cells") {
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

/// The chip glyphs of the default look: colour mode `O` for every colour,
/// black and white `O V A . Z`; and their small forms.
fn glyphs(color: u8, mono: bool) -> (char, char) {
    if mono {
        [('O', 'o'), ('V', 'v'), ('A', 'a'), ('.', '\''), ('Z', 'z')][usize::from(color) - 1]
    } else {
        ('O', 'o')
    }
}

/// Checks the preview on the top border and, with cells, the marks: in a
/// `cols` × `rows` terminal with square cells of size `s` on a 9 × 9 board.
fn check_preview(
    screen: &vt100::Screen,
    planned: &[(Option<(usize, usize)>, u8)],
    s: u16,
    mono: bool,
) -> Result<(), String> {
    let last = 9 * s - 1;
    let first = last - planned.len() as u16 - 1;
    let shown: String = (first..=last).map(|c| cell(screen, 0, c).0).collect();
    let want: String = std::iter::once('[')
        .chain(planned.iter().map(|&(_, c)| glyphs(c, mono).0))
        .chain(std::iter::once(']'))
        .collect();
    if shown != want {
        return Err(format!("top border {shown:?}, expected {want:?}"));
    }
    for (i, &(pos, color)) in planned.iter().enumerate() {
        let ink = cell(screen, 0, first + 1 + i as u16).1;
        if !mono && ink != vt100::Color::Idx(color) {
            return Err(format!("preview chip {i} in {ink:?}"));
        }
        let Some((x, y)) = pos else { continue };
        if (x, y) == (0, 0) {
            continue; // under the cursor
        }
        let l = s - 1;
        let (row, col) = (y as u16 * s + 1 + l / 2, x as u16 * s + 1);
        // Full mode, even interiors: two glyphs; otherwise the middle one.
        let cols = if s >= 4 && l % 2 == 0 {
            vec![col + l / 2 - 1, col + l / 2]
        } else {
            vec![col + l / 2]
        };
        for c in cols {
            let (ch, ink) = cell(screen, row, c);
            if ch != glyphs(color, mono).1 || (!mono && ink != vt100::Color::Idx(color)) {
                return Err(format!("mark of ({x}, {y}): {ch:?} in {ink:?}"));
            }
        }
    }
    Ok(())
}

#[test]
fn preview_in_full_and_mini_mode_in_colour_and_mono() {
    // (terminal, cell size): full mode with L = 4, and mini with L = 1.
    for (cols, rows, s) in [(100u16, 50u16, 5u16), (80, 24, 2)] {
        for mono in [false, true] {
            for mode in ["colors", "cells"] {
                let args = ["-p", mode, "--seed", "41"];
                let planned = next(&args, &[]);
                let mut all = args.to_vec();
                all.push(if mono { "-mb" } else { "-mc" });
                let mut term = spawn(cols, rows, &all);
                term.expect("the planned throw", |screen| {
                    check_preview(screen, &planned, s, mono)
                });
                // A move: the next plan appears once the throw has landed.
                let opening = board(&args, &[], 9);
                let (fx, fy) = (0..81)
                    .map(|i| (i % 9, i / 9))
                    .find(|&(x, y)| opening[y][x] != 0)
                    .unwrap();
                let (tx, ty) = (8, 8 - usize::from(opening[8][8] != 0));
                let command = format!("move {fx} {fy} {tx} {ty}");
                let planned = next(&args, &[&command]);
                let at = |x: usize, y: usize| (x as u16 * s + 1, y as u16 * s + 1);
                term.click(at(fx, fy).0, at(fx, fy).1);
                term.click(at(tx, ty).0, at(tx, ty).1);
                term.expect("the next plan after the move", |screen| {
                    check_preview(screen, &planned, s, mono)
                });
                quit(&mut term);
            }
        }
    }
}

/// A terminal the default 9 × 9 board is shown on: its size, the cell size
/// it gives, and whether it is in black and white.
#[derive(Clone, Copy, Debug)]
struct Screen {
    cols: u16,
    rows: u16,
    s: u16,
    mono: bool,
}

/// Mini mode (cells of 2), in colour.
const MINI_COLOUR: Screen = Screen {
    cols: 80,
    rows: 24,
    s: 2,
    mono: false,
};
/// Full mode (cells of 5), in black and white.
const FULL_MONO: Screen = Screen {
    cols: 100,
    rows: 50,
    s: 5,
    mono: true,
};

impl Screen {
    /// The `-m` option for this screen.
    fn mode(self) -> &'static str {
        if self.mono { "-mb" } else { "-mc" }
    }

    /// Starts `clines args` on this screen in `sandbox`, stderr apart.
    fn spawn(self, sandbox: &pty::Sandbox, args: &[&str]) -> Term {
        Term::spawn(CLINES, self.options(sandbox, args))
    }

    /// [`Screen::spawn`], keeping every frame ([`Term::frames`]).
    fn spawn_recording(self, sandbox: &pty::Sandbox, args: &[&str]) -> Term {
        Term::spawn(CLINES, self.options(sandbox, args).record_frames())
    }

    /// The options of [`Screen::spawn`].
    fn options(self, sandbox: &pty::Sandbox, args: &[&str]) -> Options {
        Options::new(self.cols, self.rows)
            .args(args.iter().copied())
            .arg(self.mode())
            .sandbox(sandbox)
            .separate_stderr()
    }

    /// Clicks the middle of cell `(x, y)`'s interior.
    fn click(self, term: &mut Term, (x, y): (usize, usize)) {
        let l = self.s - 1;
        term.click(x as u16 * self.s + 1 + l / 2, y as u16 * self.s + 1 + l / 2);
    }

    /// The board shown: the colour of each cell's chip (0 for none), read
    /// where every chip has a glyph (the middle of a diamond's widest row,
    /// or a mini cell's top-left), by colour or by glyph; the cursor's cell
    /// (0, 0) counts as empty.
    fn board(self, screen: &vt100::Screen) -> Vec<Vec<u8>> {
        let l = self.s - 1;
        (0..9u16)
            .map(|y| {
                (0..9u16)
                    .map(|x| {
                        let (row, col) = (y * self.s + 1 + l / 2, x * self.s + 1 + l / 2);
                        match cell(screen, row, col) {
                            _ if (x, y) == (0, 0) => 0,
                            (glyph, _) if self.mono => "OVA.Z"
                                .chars()
                                .position(|g| g == glyph)
                                .map_or(0, |i| i as u8 + 1),
                            ('O', vt100::Color::Idx(n)) => n,
                            _ => 0,
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// Waits for the screen to show `board` (but for cell (0, 0)).
    fn expect_board(self, term: &Term, board: &[Vec<u8>], what: &str) {
        let mut want = board.to_vec();
        want[0][0] = 0;
        term.expect(what, |screen| {
            let shown = self.board(screen);
            if shown == want {
                Ok(())
            } else {
                Err(format!("{shown:?}"))
            }
        });
    }
}

/// A chip of `board` and an empty cell in the bottom row it can move to:
/// the opening's three chips never block a path.
fn some_move(board: &[Vec<u8>]) -> ((usize, usize), (usize, usize)) {
    let from = (0..81)
        .map(|i| (i % 9, i / 9))
        .find(|&(x, y)| board[y][x] != 0 && (x, y) != (0, 0))
        .unwrap();
    let to = (0..9)
        .map(|x| (x, 8))
        .find(|&(x, y)| board[y][x] == 0)
        .unwrap();
    (from, to)
}

/// The headless `move` command for `(from, to)`.
fn move_command((from, to): ((usize, usize), (usize, usize))) -> String {
    format!("move {} {} {} {}", from.0, from.1, to.0, to.1)
}

#[test]
fn undo_takes_back_moves_to_the_opening_and_the_same_move_brings_the_same_throw() {
    for screen in [MINI_COLOUR, FULL_MONO] {
        let sandbox = pty::Sandbox::new();
        let args = ["--seed", "51"];
        let opening = board(&args, &[], 9);
        let (from, to) = some_move(&opening);
        let after = board(&args, &[&move_command((from, to))], 9);
        let mut term = screen.spawn_recording(&sandbox, &args);
        screen.expect_board(&term, &opening, "the opening");
        let before = term.frames().len();
        screen.click(&mut term, from);
        screen.click(&mut term, to);
        // Typed during the move: it finishes, then is taken back. The
        // move is seen first, so that the opening seen after it is the
        // undo's, not the screen from before the clicks.
        term.key(Key::Char('u'));
        let mut shown = opening.clone();
        shown[0][0] = 0;
        term.expect("the move under way", |_| {
            match term.frames()[before..]
                .iter()
                .any(|frame| screen.board(frame) != shown)
            {
                true => Ok(()),
                false => Err("no frame of the move yet".to_string()),
            }
        });
        screen.expect_board(&term, &opening, "the opening again after u");
        screen.click(&mut term, from);
        screen.click(&mut term, to);
        screen.expect_board(&term, &after, "the same throw after the same move");
        term.key(Key::Char('u'));
        screen.expect_board(&term, &opening, "the opening once more");
        // Nothing more to take back: a beep.
        let bells = term.bells();
        term.key(Key::Char('u'));
        assert!(term.wait_for_bells(bells + 1, TIMEOUT), "no beep");
        quit(&mut term);
    }
}

#[test]
fn f1_shows_every_key_and_any_key_closes_it() {
    for (cols, rows, mono) in [(80u16, 24u16, false), (40, 30, true), (100, 50, false)] {
        let mode = if mono { "-mb" } else { "-mc" };
        let mut term = spawn(cols, rows, &["--seed", "52", "-C", "hjkl\t", mode]);
        let text = |screen: &vt100::Screen| -> Vec<String> {
            (0..rows).map(|r| row_text(screen, r)).collect()
        };
        let before = term.expect_frame("the board", |screen| Ok(text(screen)));
        term.send(b"\x1bOP");
        // The whole box, not just its title: it may be drawn in pieces.
        let keys = [
            "arrows",
            "h j k l",
            "Tab ",
            "click",
            "?  ",
            "a  ",
            "u  ",
            "n  ",
            "s  ",
            "q  ",
            "Ctrl-C",
            "Ctrl-\\",
            "Ctrl-L",
            "Ctrl-Z",
            "F1",
            "n + n*(n-5) + b*b",
        ];
        term.expect("the help with every key", |screen| {
            let help = screen.contents();
            match keys.iter().find(|key| !help.contains(*key)) {
                Some(key) => Err(format!("{key:?} missing")),
                None if help.contains("Keys (any key closes this)") => Ok(()),
                None => Err(String::from("no help title")),
            }
        });
        term.key(Key::Char('x'));
        term.expect_screen("the board without the help", |screen| {
            text(screen) == before
        });
        quit(&mut term);
    }
}

#[test]
fn help_on_a_small_terminal_says_how_large_it_must_be() {
    let mut term = spawn(24, 20, &["--seed", "53"]);
    term.expect_text("|");
    term.send(b"\x1b[11~");
    term.expect_text("Help needs a");
    term.expect_text("enlarge it.");
    term.key(Key::Esc);
    term.expect_screen("the help closed", |screen| {
        !screen.contents().contains("Help needs")
    });
    quit(&mut term);
}

/// F1 on the too-small screen leaves its message readable: the help, which
/// would cover it, does not open, and a help already open is withdrawn
/// when the terminal shrinks, so that no key closes it unseen.
#[test]
fn f1_leaves_the_too_small_screen_readable() {
    const RESIZE: &str = "Please resize the window again";
    let mut term = spawn(80, 24, &["--seed", "55"]);
    term.expect_text("|");
    for help_first in [false, true] {
        if help_first {
            term.send(b"\x1bOP");
            term.expect_text("Keys (any key closes this)");
        }
        term.resize(40, 12);
        term.expect_text(RESIZE);
        // F1, then a redraw that shows the F1 has been handled.
        let repaints = term.count_in_output(b"\x1b[2J");
        term.send(b"\x1bOP");
        term.key(Key::Ctrl('l'));
        assert!(
            term.wait_for_output(TIMEOUT, |raw| {
                raw.windows(4).filter(|w| w == b"\x1b[2J").count() > repaints
            }),
            "no redraw:\n{}",
            term.contents()
        );
        let text = term.contents();
        assert!(
            text.contains(RESIZE) && !text.contains("Keys") && !text.contains("Help"),
            "{text}"
        );
        term.resize(80, 24);
        term.expect_screen("the board", |s| row_text(s, 0).starts_with("|---"));
        assert!(!term.contents().contains("Keys"), "{}", term.contents());
    }
    quit(&mut term);
}

#[test]
fn new_game_after_game_over_in_colour_and_mono() {
    // A 2 × 2 board filled by the opening: game over at once. At 80 × 24
    // its cells are 11 wide: full mode.
    for mono in [false, true] {
        let mode = if mono { "-mb" } else { "-mc" };
        let mut term = spawn(80, 24, &["-w2", "-t2", "-N4", "--seed", "61", mode]);
        term.expect_text("n starts a new game");
        let second = board(&["-w2", "-t2", "-N4", "--seed", "62"], &[], 2);
        term.key(Key::Char('n'));
        term.expect("the next game, seeded 62", |screen| {
            let shown: Vec<u8> = [(1, 0), (0, 1), (1, 1)]
                .iter()
                .map(|&(x, y)| match cell(screen, 11 * y + 6, 11 * x + 6) {
                    (glyph, _) if mono => "OVA.Z"
                        .chars()
                        .position(|g| g == glyph)
                        .map_or(0, |i| i as u8 + 1),
                    (_, vt100::Color::Idx(n)) => n,
                    _ => 0,
                })
                .collect();
            // Cell (0, 0) is under the cursor.
            let want = &second.concat()[1..];
            if shown == want && screen.contents().contains("n starts a new game") {
                Ok(())
            } else {
                Err(format!("{shown:?}"))
            }
        });
        term.key(Key::Char('x'));
        let status = term.wait_exit(TIMEOUT);
        assert_eq!(status.code(), Some(0));
        term.assert_restored();
    }
}

/// `u` typed while the move that ends the game is shown takes it back once
/// shown, and play goes on; on the game-over box it is any key.
#[test]
fn undo_typed_during_the_move_that_ended_the_game_takes_it_back() {
    // Three chips on 2 × 2 and throws of one: (0, 0) to the empty (1, 0)
    // leaves one cell, which the throw fills.
    let args = ["-w2", "-t2", "-N3", "-n1", "--seed", "7"];
    let opening = board(&args, &[], 2);
    assert_eq!(
        (opening[0][0] != 0, opening[0][1]),
        (true, 0),
        "{opening:?}"
    );
    let ended = batch(&args, "move 0 0 1 0\nstatus\n");
    assert!(ended[1].ends_with("over=yes"), "{ended:?}");
    let mut term = spawn(80, 24, &args);
    term.expect_screen("the board", |s| row_text(s, 0).starts_with("|---"));
    // In one write, so that both u come while the move is shown: select,
    // right, move, u, u. The second u finds nothing left to take back
    // only once the first has taken back the move, and beeps.
    let bells = term.bells();
    term.send(b" l uu");
    assert!(term.wait_for_bells(bells + 1, TIMEOUT), "no beep");
    term.expect_screen("the game going on", |s| {
        !s.contents().contains("Game over") && row_text(s, 0).starts_with("|---")
    });
    // The cursor is on (1, 0), where the chip went: back, and again.
    term.send(b"h l ");
    term.expect_text("Game over, press a key...");
    term.key(Key::Char('u'));
    assert!(term.wait_exit(TIMEOUT).success());
    term.assert_restored();
    assert!(term.contents().contains("Scores earned : 0"));
}

/// A move that scores on `board` under `-c1 -i2` (one colour, lines of 2):
/// the first chip to an empty cell beside the second.
fn scoring_move(board: &[Vec<u8>]) -> ((usize, usize), (usize, usize)) {
    let chips: Vec<(usize, usize)> = (0..81)
        .map(|i| (i % 9, i / 9))
        .filter(|&(x, y)| board[y][x] != 0)
        .collect();
    let (a, b) = (chips[0], chips[1]);
    let beside = [(b.0 + 1, b.1), (b.0.wrapping_sub(1), b.1), (b.0, b.1 + 1)]
        .into_iter()
        .find(|&(x, y)| x < 9 && y < 9 && board[y][x] == 0)
        .unwrap();
    (a, beside)
}

#[test]
fn new_game_mid_game_asks_first_in_full_and_mini_mode() {
    for screen in [MINI_COLOUR, FULL_MONO] {
        let sandbox = pty::Sandbox::new();
        let args = ["-c1", "-i2", "--seed", "63"];
        let opening = board(&args, &[], 9);
        let (from, to) = scoring_move(&opening);
        let mut term = screen.spawn(&sandbox, &args);
        screen.expect_board(&term, &opening, "the opening");
        screen.click(&mut term, from);
        screen.click(&mut term, to);
        term.expect_screen("a score", |s| s.contents().contains(": 2 ]"));
        term.key(Key::Char('n'));
        term.expect_text("New game? Press n again,");
        term.key(Key::Char('j'));
        term.expect_screen("the box gone, the game kept", |s| {
            let text = s.contents();
            !text.contains("New game?") && text.contains(": 2 ]")
        });
        term.key(Key::Char('n'));
        term.expect_text("New game? Press n again,");
        term.key(Key::Char('n'));
        let next = board(&["-c1", "-i2", "--seed", "64"], &[], 9);
        screen.expect_board(&term, &next, "the next game, seeded 64");
        term.expect_screen("no score", |s| !s.contents().contains(": 2 ]"));
        quit(&mut term);
    }
}

#[test]
fn a_new_game_saves_the_record_of_the_one_it_ends_first() {
    // Unseeded, so records are kept: the board is read off the screen.
    let sandbox = pty::Sandbox::new();
    let screen = MINI_COLOUR;
    let mut term = screen.spawn(&sandbox, &["-c1", "-i2"]);
    let opening = term.expect("the opening", |s| {
        let board = screen.board(s);
        let chips = board.concat().iter().filter(|&&c| c != 0).count();
        if chips >= 2 {
            Ok(board)
        } else {
            Err(format!("{board:?}"))
        }
    });
    let (from, to) = scoring_move(&opening);
    screen.click(&mut term, from);
    screen.click(&mut term, to);
    let score = term.expect("a score", |s| {
        let top = row_text(s, 0);
        top.strip_prefix("|[ s: ")
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse::<u64>().ok())
            .ok_or(top)
    });
    term.keys(&[Key::Char('n'), Key::Char('n')]);
    // While the new game runs, the first one's record is on file. Files
    // give no signal to wait on, so ask until the deadline.
    let listed = |sandbox: &pty::Sandbox| {
        let mut list = std::process::Command::new(CLINES);
        list.args(["-l", "-c1", "-i2"]);
        sandbox.apply(&mut list);
        let listing = list.output().expect("clines -l runs");
        String::from_utf8_lossy(&listing.stdout).into_owned()
    };
    let deadline = std::time::Instant::now() + TIMEOUT;
    let mut listing = listed(&sandbox);
    while !listing.starts_with('*') && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
        listing = listed(&sandbox);
    }
    // Only the game that ended can have saved it: the new one is running.
    let first: u64 = listing
        .split('\t')
        .nth(1)
        .unwrap_or_default()
        .parse()
        .unwrap_or(0);
    assert!(first >= score, "the first game's record: {listing:?}");
    quit(&mut term);
}

/// The saved games in the sandbox's records directory.
fn saves(sandbox: &pty::Sandbox) -> Vec<std::path::PathBuf> {
    let Ok(listing) = std::fs::read_dir(sandbox.score_dir()) else {
        return Vec::new();
    };
    let mut found: Vec<_> = listing
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "game"))
        .collect();
    found.sort();
    found
}

#[test]
fn a_saved_game_resumes_and_ends_with_q_or_starts_afresh_with_new() {
    for screen in [MINI_COLOUR, FULL_MONO] {
        let sandbox = pty::Sandbox::new();
        let args = ["-p", "cells", "--seed", "71"];
        let opening = board(&args, &[], 9);
        let (from, to) = some_move(&opening);
        let command = move_command((from, to));
        let after = board(&args, &[&command], 9);
        let planned = next(&args, &[&command]);

        let mut term = screen.spawn(&sandbox, &args);
        screen.expect_board(&term, &opening, "the opening");
        screen.click(&mut term, from);
        screen.click(&mut term, to);
        screen.expect_board(&term, &after, "the board after the move");
        term.key(Key::Char('s'));
        assert_eq!(term.wait_exit(TIMEOUT).code(), Some(0));
        term.assert_restored();
        assert!(
            term.contents().contains("Game saved"),
            "{}",
            term.contents()
        );
        assert_eq!(saves(&sandbox).len(), 1);

        // Another seed, the same rules: the saved game, plan included.
        let mut term = screen.spawn(&sandbox, &["-p", "cells", "--seed", "5"]);
        past_the_seed_notice(&mut term);
        screen.expect_board(&term, &after, "the saved game");
        term.expect("its plan", |s| {
            check_preview(s, &planned, screen.s, screen.mono)
        });
        // --new elsewhere leaves the save alone meanwhile.
        let mut fresh = screen.spawn(&sandbox, &["-p", "cells", "--seed", "71", "--new"]);
        screen.expect_board(&fresh, &opening, "a new game with --new");
        quit(&mut fresh);
        assert_eq!(
            saves(&sandbox).len(),
            1,
            "the game --new began did not go on from the save"
        );
        // q ends the resumed game, and with it its save.
        quit(&mut term);
        assert_eq!(saves(&sandbox).len(), 0);
        let mut term = screen.spawn(&sandbox, &args);
        screen.expect_board(&term, &opening, "a new game");
        quit(&mut term);
    }
}

/// Two games of the same rules in two terminals: the one that did not go
/// on from a save leaves the other's save alone when it ends.
#[test]
fn a_game_leaves_a_save_it_did_not_go_on_from() {
    let sandbox = pty::Sandbox::new();
    let screen = MINI_COLOUR;
    let args = ["--seed", "73"];
    let opening = board(&args, &[], 9);
    let mut first = screen.spawn(&sandbox, &args);
    screen.expect_board(&first, &opening, "the first game");
    let mut second = screen.spawn(&sandbox, &args);
    screen.expect_board(&second, &opening, "the second game");
    second.key(Key::Char('s'));
    assert!(second.wait_exit(TIMEOUT).success());
    assert_eq!(saves(&sandbox).len(), 1);
    quit(&mut first);
    assert_eq!(saves(&sandbox).len(), 1, "the second game's save is kept");
}

/// A game of `args` on `screen` in `sandbox`, once a move is played and
/// shown; with its opening board and the board after the move.
fn one_move_played(
    sandbox: &pty::Sandbox,
    screen: Screen,
    args: &[&str],
) -> (Term, Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let opening = board(args, &[], 9);
    let (from, to) = some_move(&opening);
    let after = board(args, &[&move_command((from, to))], 9);
    let mut term = screen.spawn(sandbox, args);
    screen.expect_board(&term, &opening, "the opening");
    screen.click(&mut term, from);
    screen.click(&mut term, to);
    screen.expect_board(&term, &after, "the board after the move");
    (term, opening, after)
}

/// A game of `args` on `screen` in `sandbox`, one move played, then saved
/// with `s`: the only save there. Its opening board and the board after
/// the move.
fn one_move_saved(
    sandbox: &pty::Sandbox,
    screen: Screen,
    args: &[&str],
) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let (mut term, opening, after) = one_move_played(sandbox, screen, args);
    term.key(Key::Char('s'));
    assert!(term.wait_exit(TIMEOUT).success());
    assert_eq!(saves(sandbox).len(), 1);
    (opening, after)
}

#[test]
fn the_terminal_closing_saves_the_game_and_game_over_removes_it() {
    let sandbox = pty::Sandbox::new();
    let screen = MINI_COLOUR;
    let args = ["--seed", "72"];
    let (mut term, _, after) = one_move_played(&sandbox, screen, &args);
    term.signal(libc::SIGHUP);
    assert!(term.wait_exit(TIMEOUT).success());
    assert_eq!(saves(&sandbox).len(), 1);
    let mut term = screen.spawn(&sandbox, &args);
    past_the_seed_notice(&mut term);
    screen.expect_board(&term, &after, "the game, resumed");
    quit(&mut term);

    // 2 × 2 with three chips: saved, resumed, then any move ends it.
    let args = ["-w2", "-t2", "-N3", "--seed", "74"];
    let mut term = spawn_in_sandbox(&sandbox, &args);
    term.expect_text("|");
    term.key(Key::Char('s'));
    assert!(term.wait_exit(TIMEOUT).success());
    assert_eq!(saves(&sandbox).len(), 1);
    let two = board(&args, &[], 2);
    let empty = (0..4)
        .map(|i| (i % 2, i / 2))
        .find(|&(x, y)| two[y][x] == 0)
        .unwrap();
    let chip = (0..4)
        .map(|i| (i % 2, i / 2))
        .find(|&(x, y)| two[y][x] != 0)
        .unwrap();
    let mut term = spawn_in_sandbox(&sandbox, &args);
    past_the_seed_notice(&mut term);
    let at = |(x, y): (usize, usize)| (11 * x as u16 + 6, 11 * y as u16 + 6);
    term.click(at(chip).0, at(chip).1);
    term.click(at(empty).0, at(empty).1);
    term.expect_text("Game over, press a key...");
    term.key(Key::Char('x'));
    assert!(term.wait_exit(TIMEOUT).success());
    assert_eq!(saves(&sandbox).len(), 0, "a finished game removes its save");
}

/// A `--new` game leaves the last save alone, even when its terminal
/// closes: no one chose to replace that save.
#[test]
fn a_new_game_closed_with_its_terminal_keeps_the_earlier_save() {
    let sandbox = pty::Sandbox::new();
    let screen = MINI_COLOUR;
    let args = ["--seed", "72"];
    let (opening, after) = one_move_saved(&sandbox, screen, &args);
    let saved = saves(&sandbox);
    let before = std::fs::read(&saved[0]).unwrap();

    let mut term = screen.spawn(&sandbox, &["--new", "--seed", "72"]);
    screen.expect_board(&term, &opening, "a new game");
    term.signal(libc::SIGHUP);
    assert!(term.wait_exit(TIMEOUT).success());
    assert_eq!(saves(&sandbox), saved);
    assert_eq!(std::fs::read(&saved[0]).unwrap(), before, "the save kept");
    let mut term = screen.spawn(&sandbox, &args);
    past_the_seed_notice(&mut term);
    screen.expect_board(&term, &after, "the saved game, resumed");
    quit(&mut term);
}

/// A new game in place of one that went on from a save removes that save.
/// Where it cannot at once (another program holds the records directory's
/// lock past the wait), the save is still the session's, removed as the
/// session ends: the next `clines` must not go on with throws already seen.
#[test]
fn a_save_a_new_game_could_not_remove_goes_as_the_session_ends() {
    let sandbox = pty::Sandbox::new();
    let screen = MINI_COLOUR;
    let args = ["--seed", "72"];
    let (_, after) = one_move_saved(&sandbox, screen, &args);
    let mut term = screen.spawn(&sandbox, &args);
    past_the_seed_notice(&mut term);
    screen.expect_board(&term, &after, "the saved game, resumed");
    let mut flock = std::process::Command::new("flock")
        .arg(sandbox.score_dir())
        .args(["sh", "-c", "echo $$; exec sleep 1000"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("flock runs");
    let mut said = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(flock.stdout.take().expect("its output")),
        &mut said,
    )
    .expect("the lock's holder says its process id");
    let holder = pty::Killed(said.trim().parse().expect("a process id"));
    // The new game, once the removal has waited for the lock in vain.
    term.key(Key::Char('n'));
    let next = board(&["--seed", "73"], &[], 9);
    screen.expect_board(&term, &next, "the new game, seeded 73");
    assert_eq!(saves(&sandbox).len(), 1, "the lock kept the save");
    drop(holder);
    flock.wait().expect("flock ends with its command");
    quit(&mut term);
    assert_eq!(saves(&sandbox).len(), 0, "the save went at the end");
    // The game that ended is the seeded one, not the save's.
    let shown = term.contents();
    assert!(!shown.contains("--seed was not used"), "{shown}");
}

/// A saved game that keeps no record says so before play when it goes on,
/// `--seed` or not: a game cut short is saved without a key pressed, and
/// its player should not play on for a record.
#[test]
fn a_saved_game_that_keeps_no_record_says_so_before_play() {
    let sandbox = pty::Sandbox::new();
    let screen = MINI_COLOUR;
    let (mut term, _, after) = one_move_played(&sandbox, screen, &["--seed", "72"]);
    term.signal(libc::SIGTERM);
    assert!(term.wait_exit(TIMEOUT).success());
    let mut term = screen.spawn(&sandbox, &[]);
    term.expect_text("Any key goes on to the game.");
    let shown = term.contents();
    let says = "The saved game goes on keeping no record: it was started with --seed.";
    assert!(shown.contains(says), "{shown}");
    term.key(Key::Char('x'));
    screen.expect_board(&term, &after, "the saved game");
    quit(&mut term);
}

/// A saved game going on under `--seed`: the box before play says that
/// the seed is not used, and a key closes it.
fn past_the_seed_notice(term: &mut Term) {
    term.expect_text("Any key goes on to the game.");
    let shown = term.contents();
    assert!(shown.contains("The saved game goes on"), "{shown}");
    term.key(Key::Char('x'));
    term.expect("the box closed", |screen| {
        match screen.contents().contains("Warning") {
            true => Err("the box is up".to_string()),
            false => Ok(()),
        }
    });
}

/// `clines args` at 80 × 24 in `sandbox`.
fn spawn_in_sandbox(sandbox: &pty::Sandbox, args: &[&str]) -> Term {
    MINI_COLOUR.spawn(sandbox, args)
}

#[test]
fn a_warning_about_the_options_is_shown_before_play() {
    let sandbox = pty::Sandbox::new();
    let screen = MINI_COLOUR;
    let args = ["--seed", "73", "-o", "7,1,1,3,4,5"];
    let opening = board(&args, &[], 9);
    let mut term = screen.spawn(&sandbox, &args);
    // Standard error, where it is also printed, is hidden by the game's
    // screen until the game is over.
    term.expect_text("Warning:");
    term.expect_text("Any key goes on to the game.");
    assert!(term.contents().contains("given more than once"));
    term.key(Key::Char('x'));
    screen.expect_board(&term, &opening, "the game, the key only closing the box");
    assert!(!term.contents().contains("Warning"));
    quit(&mut term);
    assert!(term.stderr().contains("colour 1 given more than once"));

    // Each warning a paragraph of its own.
    let mut term = FULL_MONO.spawn(&sandbox, &["--seed", "73", "-F", "OOOOOOOOOOO"]);
    term.expect_text("Warnings:");
    term.expect_text("Any key goes on to the game.");
    let shown = term.contents();
    assert!(
        shown.contains("drawn for more than one colour")
            && shown.contains("drawn for the cursor and a chip"),
        "{shown}"
    );
    term.key(Key::Char('x'));
    term.expect("the box closed", |screen| {
        match screen.contents().contains("Warning") {
            true => Err("the box is up".to_string()),
            false => Ok(()),
        }
    });
    quit(&mut term);

    // A terminal of no colours draws in black and white, where colours
    // given twice are no matter: standard error says it, the screen not.
    let mut term = Term::spawn(
        CLINES,
        Options::new(FULL_MONO.cols, FULL_MONO.rows)
            .args(args)
            .env("TERM", "vt100")
            .sandbox(&sandbox)
            .separate_stderr(),
    );
    FULL_MONO.expect_board(&term, &opening, "the game at once, in black and white");
    assert!(!term.contents().contains("Warning"));
    quit(&mut term);
    assert!(term.stderr().contains("colour 1 given more than once"));
}

#[test]
fn a_corrupt_save_is_reported_set_aside_and_a_new_game_starts() {
    let sandbox = pty::Sandbox::new();
    let screen = MINI_COLOUR;
    let args = ["--seed", "73"];
    let mut term = screen.spawn(&sandbox, &args);
    term.expect_text("|");
    term.key(Key::Char('s'));
    assert!(term.wait_exit(TIMEOUT).success());
    let [save] = &saves(&sandbox)[..] else {
        panic!("one save: {:?}", saves(&sandbox));
    };
    std::fs::write(save, "score = \"lots\"\n").unwrap();
    let opening = board(&args, &[], 9);
    let mut term = screen.spawn(&sandbox, &args);
    // On the screen, where the player is looking, and not only on
    // standard error, which shows once the game is over.
    // (The reason, after the save's path, may be broken across lines.)
    term.expect_text("Any key goes on to a new game.");
    let shown = term.contents();
    assert!(shown.contains("|The saved game "), "{shown}");
    // The footer says what comes next, once.
    assert!(!shown.contains("a new game starts"), "{shown}");
    term.key(Key::Char('x'));
    screen.expect_board(&term, &opening, "a new game");
    assert!(!term.contents().contains("The saved game"));
    quit(&mut term);
    let stderr = term.stderr();
    assert!(
        stderr.contains("cannot be resumed (not a clines saved game)")
            && stderr.contains("a new game starts"),
        "{stderr}"
    );
    let mut aside = save.clone().into_os_string();
    aside.push(".bad");
    assert_eq!(
        std::fs::read_to_string(aside).unwrap(),
        "score = \"lots\"\n"
    );
}

#[test]
fn a_seeded_game_saved_keeps_no_record_when_it_goes_on_without_the_seed() {
    let sandbox = pty::Sandbox::new();
    let screen = MINI_COLOUR;
    let args = ["-c1", "-i2", "--seed", "76"];
    let opening = board(&args, &[], 9);
    let mut term = screen.spawn(&sandbox, &args);
    screen.expect_board(&term, &opening, "the seeded game");
    term.key(Key::Char('s'));
    assert!(term.wait_exit(TIMEOUT).success());
    assert_eq!(saves(&sandbox).len(), 1);

    // Without --seed the records are on, but this game's throws were known:
    // a box says so before play.
    let mut term = screen.spawn(&sandbox, &args[..2]);
    term.expect_text("Any key goes on to the game.");
    let shown = term.contents();
    assert!(shown.contains("it was started with --seed."), "{shown}");
    term.key(Key::Char('x'));
    screen.expect_board(&term, &opening, "the seeded game, resumed");
    // A game of no points would give no reason: it has no record to keep.
    let (from, to) = scoring_move(&opening);
    screen.click(&mut term, from);
    screen.click(&mut term, to);
    term.expect_screen("a score", |s| s.contents().contains(": 2 ]"));
    quit(&mut term);
    // The reason given is the seed, not help the game never had.
    assert!(
        term.contents()
            .contains("No record kept: this game was started with --seed."),
        "{}",
        term.contents()
    );
}

#[test]
fn q_closes_the_help_like_any_key_and_ctrl_c_still_quits() {
    let sandbox = pty::Sandbox::new();
    let screen = MINI_COLOUR;
    let args = ["--seed", "54"];
    let opening = board(&args, &[], 9);
    let mut term = screen.spawn(&sandbox, &args);
    screen.expect_board(&term, &opening, "the opening");
    term.send(b"\x1bOP");
    term.expect_text("Keys (any key closes this)");
    term.key(Key::Char('q'));
    term.expect_screen("the help closed", |s| !s.contents().contains("Keys"));
    screen.expect_board(&term, &opening, "the game going on");
    term.send(b"\x1bOP");
    term.expect_text("Keys (any key closes this)");
    term.send(b"\x03");
    assert!(term.wait_exit(TIMEOUT).success());
    term.assert_restored();
    assert!(term.contents().contains("Scores earned : "));
}
