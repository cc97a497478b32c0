//! End-to-end tests of the terminal game's additions to the original: wide
//! cells, the next-chip preview, undo, new game and the help overlay. The
//! real binary runs in a pseudo-terminal and its screen is read with vt100,
//! in colour and in black and white; where a game is seeded, what it must
//! show is learnt from the headless mode with the same seed.

mod pty;

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
            row.chars()
                .map(|c| c.to_digit(36).map_or(0, |d| d as u8))
                .collect()
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
