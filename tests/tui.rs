//! End-to-end tests of the terminal game: the real binary in a pseudo-terminal,
//! its screen read by a terminal parser and compared, character and colour,
//! with SPEC §5–6.
//!
//! The opening of a `--seed` game is learnt from the headless mode run with
//! the same seed and rules (`clines --batch --seed S`, then `board`), so no
//! test hard-codes where chips are; moves are cross-checked the same way.
//!
//! This file holds what every part shares: the headless-mode reader, the
//! model of the expected screen and the start and quit steps. The tests are
//! in its parts: `drawing`, `cursor`, `moves`, `resize`, `huge`, `start` and
//! `exit`.

use crate::pty;

use pty::{Key, Options, TIMEOUT, Term};

const CLINES: &str = env!("CARGO_BIN_EXE_clines");

mod cursor;
mod drawing;
mod exit;
mod huge;
mod input_storm;
mod moves;
mod resize;
mod start;

/// A board cell: column and row, 0-based.
type Pos = (usize, usize);

/// A game state as the headless mode reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Game {
    width: usize,
    height: usize,
    /// Row by row: 0 empty, otherwise the colour (1-based).
    cells: Vec<u8>,
    score: u64,
}

impl Game {
    fn at(&self, (x, y): Pos) -> u8 {
        self.cells[y * self.width + x]
    }

    fn chips(&self) -> Vec<Pos> {
        self.positions().filter(|&p| self.at(p) != 0).collect()
    }

    fn positions(&self) -> impl Iterator<Item = Pos> + use<> {
        let (width, height) = (self.width, self.height);
        (0..height).flat_map(move |y| (0..width).map(move |x| (x, y)))
    }

    /// Steps from `origin` to every cell over empty cells (4-connected),
    /// with `vacated` counted as empty; `None` where unreachable.
    fn distances(&self, origin: Pos, vacated: Pos) -> Vec<Option<usize>> {
        let index = |(x, y): Pos| y * self.width + x;
        let mut distance = vec![None; self.cells.len()];
        distance[index(origin)] = Some(0);
        let mut queue = std::collections::VecDeque::from([origin]);
        while let Some(pos) = queue.pop_front() {
            let next = distance[index(pos)].map(|d| d + 1);
            for neighbour in self.neighbours(pos) {
                let free = self.at(neighbour) == 0 || neighbour == vacated;
                if free && distance[index(neighbour)].is_none() {
                    distance[index(neighbour)] = next;
                    queue.push_back(neighbour);
                }
            }
        }
        distance
    }

    /// The cells beside `(x, y)`, up, down, left and right.
    fn neighbours(&self, (x, y): Pos) -> Vec<Pos> {
        [
            (x.wrapping_sub(1), y),
            (x + 1, y),
            (x, y.wrapping_sub(1)),
            (x, y + 1),
        ]
        .into_iter()
        .filter(|&(x, y)| x < self.width && y < self.height)
        .collect()
    }

    /// This board with the chip at `from` moved to `to`, nothing removed.
    fn moved(&self, from: Pos, to: Pos) -> Game {
        let mut game = self.clone();
        game.cells[to.1 * self.width + to.0] = self.at(from);
        game.cells[from.1 * self.width + from.0] = 0;
        game
    }

    /// The empty cells reachable from `from` by 4-connected steps over
    /// empty cells.
    fn reachable(&self, from: Pos) -> Vec<Pos> {
        let mut seen = vec![false; self.cells.len()];
        let mut queue = std::collections::VecDeque::from([from]);
        let mut found = Vec::new();
        seen[from.1 * self.width + from.0] = true;
        while let Some((x, y)) = queue.pop_front() {
            let neighbours = [
                (x.wrapping_sub(1), y),
                (x + 1, y),
                (x, y.wrapping_sub(1)),
                (x, y + 1),
            ];
            for (nx, ny) in neighbours {
                if nx < self.width && ny < self.height {
                    let index = ny * self.width + nx;
                    if !seen[index] && self.cells[index] == 0 {
                        seen[index] = true;
                        found.push((nx, ny));
                        queue.push_back((nx, ny));
                    }
                }
            }
        }
        found
    }
}

/// Runs the headless mode with `rules` (options such as `-w5`) and `seed`,
/// sends `commands` (each answered by one line starting `ok`), then reads
/// the board and status.
fn batch(rules: &[&str], seed: u64, commands: &[String]) -> Game {
    let seed = seed.to_string();
    let mut args = vec!["--batch", "--seed", &seed];
    args.extend_from_slice(rules);
    let mut input: String = commands.iter().map(|c| format!("{c}\n")).collect();
    input.push_str("board\nstatus\nquit\n");
    let output = pty::run_piped(CLINES, &args, &input);
    assert!(output.status.success(), "clines {args:?}: {output:?}");
    let text = String::from_utf8(output.stdout).expect("UTF-8 answers");
    let mut lines: Vec<&str> = text.lines().collect();
    for (command, answer) in commands.iter().zip(&lines) {
        assert!(answer.starts_with("ok"), "{command:?} answered {answer:?}");
    }
    let status = lines.pop().expect("a status line");
    let board = &lines[commands.len()..];
    let score = status
        .split_whitespace()
        .find_map(|field| field.strip_prefix("score="))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no score in {status:?}"));
    let width = board[0].len();
    let cells = board
        .iter()
        .flat_map(|row| row.chars())
        .map(|c| match c {
            '.' => 0,
            '1'..='9' => c as u8 - b'0',
            'a'..='z' => c as u8 - b'a' + 10,
            _ => panic!("unexpected board character {c:?}"),
        })
        .collect();
    Game {
        width,
        height: board.len(),
        cells,
        score,
    }
}

/// One expected screen cell: a character, and the palette colour it must be
/// drawn in (chips and the cursor in colour mode) or, when `plain`, white
/// (or the default colour) on black (the grid, text, black-and-white glyphs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Expected {
    ch: char,
    color: Option<u8>,
    plain: bool,
}

const BLANK: Expected = Expected {
    ch: ' ',
    color: None,
    plain: false,
};

/// Glyphs and colours (`-f`, `-F`, `-o`, `-m`).
#[derive(Clone, Debug)]
struct Look {
    cursor: char,
    /// Per chip colour (index 0 for colour 1): its glyph and jumping glyph.
    chips: Vec<(char, char)>,
    /// Colour mode: the cursor's colour, then one per chip colour.
    palette: Option<Vec<u8>>,
}

impl Look {
    /// Colour mode with the default glyphs `IOo` and `palette`.
    fn color(palette: &[u8]) -> Look {
        Look {
            cursor: 'I',
            chips: vec![('O', 'o'); palette.len() - 1],
            palette: Some(palette.to_vec()),
        }
    }

    /// Black-and-white mode with the `-F` glyphs `font`.
    fn mono(font: &str) -> Look {
        let glyphs: Vec<char> = font.chars().collect();
        Look {
            cursor: glyphs[0],
            chips: glyphs[1..]
                .chunks(2)
                .map(|pair| (pair[0], pair[1]))
                .collect(),
            palette: None,
        }
    }

    /// `ch` drawn in palette entry `index` (0 for the cursor's colour).
    fn ink(&self, ch: char, index: usize) -> Expected {
        match &self.palette {
            Some(palette) => Expected {
                ch,
                color: Some(palette[index]),
                plain: false,
            },
            None => Expected {
                ch,
                color: None,
                plain: true,
            },
        }
    }
}

/// How the selected chip is posed in its jump.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pose {
    /// Full mode: the diamond shifted by this many rows (0, +1 or −1).
    Shift(i32),
    /// Mini mode, 1-character interior: the jumping glyph.
    JumpGlyph,
    /// Mini mode, 2 × 2 interior: the top row blank.
    TopBlank,
    /// Mini mode, 2 × 2 interior: the bottom row blank.
    BottomBlank,
    /// Any of the poses of the cell size (for a chip jumping while the test
    /// looks at something else).
    Any,
}

/// What the screen should show: a game in a window of a given size.
#[derive(Clone, Debug)]
struct View {
    game: Game,
    cols: u16,
    rows: u16,
    look: Look,
    cursor: Option<Pos>,
    selected: Option<(Pos, Pose)>,
    /// Chips being removed: drawn in the cursor's colour (black-and-white
    /// mode: as the cursor glyph).
    flash: Vec<Pos>,
}

impl View {
    fn new(game: Game, cols: u16, rows: u16) -> View {
        View {
            game,
            cols,
            rows,
            look: Look::color(&[7, 1, 2, 3, 4, 5]),
            cursor: None,
            selected: None,
            flash: Vec::new(),
        }
    }

    /// The cell size, SPEC §5.
    fn cell_size(&self) -> usize {
        ((usize::from(self.cols) - 1) / self.game.width)
            .min((usize::from(self.rows) - 1) / self.game.height)
    }

    fn with_cursor(&self, cursor: Option<Pos>) -> View {
        View {
            cursor,
            ..self.clone()
        }
    }

    /// The whole screen, row by row.
    fn render(&self) -> Vec<Vec<Expected>> {
        let mut screen = vec![vec![BLANK; usize::from(self.cols)]; usize::from(self.rows)];
        let s = self.cell_size();
        let (w, h) = (self.game.width, self.game.height);
        for (row, line) in screen.iter_mut().enumerate().take(s * h + 1) {
            for (col, cell) in line.iter_mut().enumerate().take(s * w + 1) {
                let ch = if row % s == 0 && (1..s * w).contains(&col) {
                    '-'
                } else if col % s == 0 {
                    '|'
                } else {
                    continue;
                };
                *cell = Expected {
                    ch,
                    color: None,
                    plain: true,
                };
            }
        }
        if self.game.score > 0 {
            let (text, from) = if s >= 4 {
                (format!("=[ score : {} ]=", self.game.score), 8)
            } else {
                (format!("[ s: {} ]", self.game.score), 1)
            };
            for (i, ch) in text.chars().enumerate() {
                screen[0][from + i] = Expected {
                    ch,
                    color: None,
                    plain: true,
                };
            }
        }
        for pos in self.game.positions() {
            for (r, c, cell) in self.interior(pos) {
                screen[pos.1 * s + 1 + r][pos.0 * s + 1 + c] = cell;
            }
        }
        screen
    }

    /// The interior cells of board cell `pos` that are not blank, as
    /// (interior row, interior column, cell).
    fn interior(&self, pos: Pos) -> Vec<(usize, usize, Expected)> {
        let s = self.cell_size();
        let l = s - 1;
        let look = &self.look;
        let cursor_here = self.cursor == Some(pos);
        let mut cells = Vec::new();
        let color = usize::from(self.game.at(pos));
        if color == 0 {
            // The cursor on an empty cell: a block in full mode, the whole
            // interior in mini mode.
            let inner = if s >= 4 { 1..l - 1 } else { 0..l };
            if cursor_here {
                for r in inner.clone() {
                    for c in inner.clone() {
                        cells.push((r, c, look.ink(look.cursor, 0)));
                    }
                }
            }
            return cells;
        }
        // The glyphs and palette entry this chip is drawn with.
        let (chip_glyph, jump_glyph, ink) = if self.flash.contains(&pos) {
            let glyph = if look.palette.is_some() {
                look.chips[color - 1].0
            } else {
                look.cursor
            };
            (glyph, glyph, 0)
        } else {
            let (chip, jump) = look.chips[color - 1];
            (chip, jump, color)
        };
        let pose = self
            .selected
            .filter(|&(p, _)| p == pos)
            .map(|(_, pose)| pose);
        if s >= 4 {
            let shift = match pose {
                Some(Pose::Shift(shift)) => shift,
                _ => 0,
            };
            let half = i32::try_from(l / 2).expect("small");
            let last = i32::try_from(l).expect("small") - 1;
            for r in 0..l {
                let d = (half - (i32::try_from(r).expect("small") + shift)).abs();
                let hollow = cursor_here && (1..l - 1).contains(&r);
                for c in 0..l {
                    let col = i32::try_from(c).expect("small");
                    let on_chip = (d..=last - d).contains(&col);
                    let hollowed = hollow && (1 + d..=last - 1 - d).contains(&col);
                    if on_chip && !hollowed {
                        cells.push((r, c, look.ink(chip_glyph, ink)));
                    }
                }
            }
            return cells;
        }
        let ch = match pose {
            _ if cursor_here => look.cursor,
            Some(Pose::JumpGlyph) => jump_glyph,
            _ => chip_glyph,
        };
        for r in 0..l {
            let blank = match pose {
                Some(Pose::TopBlank) => r == 0,
                Some(Pose::BottomBlank) => r == l - 1,
                _ => false,
            };
            if !blank {
                for c in 0..l {
                    cells.push((r, c, look.ink(ch, ink)));
                }
            }
        }
        cells
    }

    /// The screen cells (row, column) that differ from this view, with a
    /// description of each.
    fn differences(&self, screen: &vt100::Screen) -> Vec<(usize, usize, String)> {
        let mut differences = Vec::new();
        for (row, line) in self.render().iter().enumerate() {
            for (col, want) in line.iter().enumerate() {
                let Some(cell) = screen.cell(row as u16, col as u16) else {
                    differences.push((row, col, format!("({row},{col}) missing")));
                    continue;
                };
                let ch = cell.contents().chars().next().unwrap_or(' ');
                let fg = cell.fgcolor();
                let on_black =
                    matches!(cell.bgcolor(), vt100::Color::Default | vt100::Color::Idx(0));
                let good_color = match (want.color, want.plain) {
                    (Some(n), _) => fg == vt100::Color::Idx(n) && on_black,
                    (None, true) => {
                        matches!(fg, vt100::Color::Default | vt100::Color::Idx(7)) && on_black
                    }
                    (None, false) => true,
                };
                if ch != want.ch || !good_color {
                    let found = format!("{ch:?} in {fg:?}/{:?}", cell.bgcolor());
                    let text = format!(
                        "(row {row}, col {col}) expected {:?} in {:?}, found {found}",
                        want.ch, want.color
                    );
                    differences.push((row, col, text));
                }
            }
        }
        differences
    }

    /// Describes `differences` from this view.
    fn describe(&self, differences: &[(usize, usize, String)]) -> String {
        let first: Vec<&str> = differences
            .iter()
            .take(8)
            .map(|(_, _, text)| text.as_str())
            .collect();
        format!(
            "{} cells differ from the expected {}×{} screen (s = {}, cursor {:?}, selected {:?}): {}",
            differences.len(),
            self.cols,
            self.rows,
            self.cell_size(),
            self.cursor,
            self.selected,
            first.join("; ")
        )
    }

    /// `Ok` if `screen` shows exactly this view, otherwise the first
    /// differences.
    fn check(&self, screen: &vt100::Screen) -> Result<(), String> {
        if let Some((pos, Pose::Any)) = self.selected {
            let poses: &[Pose] = match self.cell_size() {
                2 => &[Pose::Shift(0), Pose::JumpGlyph],
                3 => &[Pose::Shift(0), Pose::TopBlank, Pose::BottomBlank],
                _ => &[Pose::Shift(0), Pose::Shift(1), Pose::Shift(-1)],
            };
            let mut result = Ok(());
            for &pose in poses {
                let posed = View {
                    selected: Some((pos, pose)),
                    ..self.clone()
                };
                result = posed.check(screen);
                if result.is_ok() {
                    break;
                }
            }
            return result;
        }
        let differences = self.differences(screen);
        if differences.is_empty() {
            Ok(())
        } else {
            Err(self.describe(&differences))
        }
    }

    /// `Ok(cursor)` if `screen` shows this view with the cursor on some cell.
    fn locate_cursor(&self, screen: &vt100::Screen) -> Result<Pos, String> {
        let plain = self.with_cursor(None);
        let differences = plain.differences(screen);
        if differences.is_empty() {
            return Err("the screen matches with no cursor shown".into());
        }
        // The cursor can only be in a cell whose interior differs.
        let s = self.cell_size();
        let mut candidates: Vec<Pos> = differences
            .iter()
            .filter(|&&(row, col, _)| row % s != 0 && col % s != 0)
            .map(|&(row, col, _)| (col / s, row / s))
            .filter(|&(x, y)| x < self.game.width && y < self.game.height)
            .collect();
        candidates.sort_unstable();
        candidates.dedup();
        // The cursor changes its own cell's interior only: differences in
        // two cells are never all the cursor's. Trying each would check the
        // whole screen once per cell, which on a half-drawn huge board
        // outlasts the wait.
        let only = match candidates[..] {
            [only] => Some(only),
            _ => None,
        };
        only.filter(|&p| self.with_cursor(Some(p)).check(screen).is_ok())
            .ok_or_else(|| {
                format!(
                    "no cursor position makes the screen match; without a cursor: {}",
                    plain.describe(&differences)
                )
            })
    }

    /// The screen point in the middle of `pos`'s interior.
    fn point(&self, (x, y): Pos) -> (u16, u16) {
        let s = self.cell_size();
        let col = x * s + 1 + (s - 1) / 2;
        let row = y * s + 1 + (s - 1) / 2;
        (col as u16, row as u16)
    }

    /// The screen points at the top-left and bottom-right corners of
    /// `pos`'s interior, next to the grid lines: clicks there find any
    /// off-by-one in the mouse's coordinates.
    fn corners(&self, (x, y): Pos) -> [(u16, u16); 2] {
        let s = self.cell_size();
        let first = |i: usize| (i * s + 1) as u16;
        let last = |i: usize| (i * s + s - 1) as u16;
        [(first(x), first(y)), (last(x), last(y))]
    }
}

/// Starts `clines --seed SEED RULES EXTRA` at `cols` × `rows` and waits for
/// the opening board, learnt from the headless mode. Returns the terminal,
/// the view (cursor where it was found) and the cursor.
fn start(cols: u16, rows: u16, seed: u64, rules: &[&str], extra: &[&str]) -> (Term, View) {
    let look = Look::color(&[7, 1, 2, 3, 4, 5]);
    start_with(cols, rows, seed, rules, extra, look, |options| options)
}

/// [`start`] with `-C` keys (in `extra`) that take some of the game's own
/// keys: a box before play says `says`, and a key that is no `-C` key
/// closes it.
fn start_warned(cols: u16, rows: u16, seed: u64, extra: &[&str], says: &str) -> (Term, View) {
    let game = batch(&[], seed, &[]);
    let mut term = Term::spawn(
        CLINES,
        Options::new(cols, rows)
            .arg(format!("--seed={seed}"))
            .args(extra.iter().copied()),
    );
    // The box's last line: the warning itself is also on standard error,
    // printed before the game takes the terminal.
    term.expect_text("Any key goes on to the game.");
    let shown = term.contents();
    assert!(shown.contains(says), "{shown}");
    term.key(Key::Char('x'));
    let view = View {
        look: Look::color(&[7, 1, 2, 3, 4, 5]),
        ..View::new(game, cols, rows)
    };
    let cursor = term.expect("the opening board", |screen| view.locate_cursor(screen));
    (term, view.with_cursor(Some(cursor)))
}

/// [`start`], expecting `look`, with the options adjusted by `adjust` (to
/// record frames, …).
fn start_with(
    cols: u16,
    rows: u16,
    seed: u64,
    rules: &[&str],
    extra: &[&str],
    look: Look,
    adjust: impl FnOnce(Options) -> Options,
) -> (Term, View) {
    let game = batch(rules, seed, &[]);
    let term = Term::spawn(
        CLINES,
        adjust(
            Options::new(cols, rows)
                .arg(format!("--seed={seed}"))
                .args(rules.iter().copied())
                .args(extra.iter().copied()),
        ),
    );
    let view = View {
        look,
        ..View::new(game, cols, rows)
    };
    let cursor = term.expect("the opening board", |screen| view.locate_cursor(screen));
    (term, view.with_cursor(Some(cursor)))
}

/// Waits for `view` on the screen.
fn expect_view(term: &Term, view: &View, what: &str) {
    term.expect(what, |screen| view.check(screen));
}

/// Quits with `q` and checks the exit: status 0, terminal restored,
/// `Scores earned : N` printed.
fn quit_and_check(term: &mut Term, score: u64) {
    term.key(Key::Char('q'));
    check_exit(term, score);
}

fn check_exit(term: &mut Term, score: u64) {
    let status = term.wait_exit(TIMEOUT);
    assert_eq!(status.code(), Some(0), "exit status {status:?}");
    term.assert_restored();
    let contents = term.contents();
    assert!(
        contents.contains(&format!("Scores earned : {score}")),
        "no score line after exit:\n{contents}"
    );
}

/// The board at `cols` × `rows` must have cell size `s`, draw exactly as
/// SPEC §5 says, and quit cleanly.
fn board_test(cols: u16, rows: u16, s: usize, seed: u64, rules: &[&str]) {
    let (mut term, view) = start(cols, rows, seed, rules, &[]);
    assert_eq!(view.cell_size(), s);
    assert!(!view.game.chips().is_empty());
    quit_and_check(&mut term, 0);
}

/// The expected-screen model itself against SPEC §5's worked facts, so that
/// a wrong model cannot make the end-to-end tests pass.
#[test]
fn model_matches_the_spec_examples() {
    let game = |width: usize, height: usize, cells: Vec<u8>| Game {
        width,
        height,
        cells,
        score: 0,
    };
    // s = 7 (L = 6): a chip's rows are 0, 2, 4, 6, 4, 2 glyphs wide.
    let view = View::new(game(1, 1, vec![1]), 8, 8);
    assert_eq!(view.cell_size(), 7);
    let screen = view.render();
    let widths: Vec<usize> = (1..7)
        .map(|row| screen[row].iter().filter(|c| c.ch == 'O').count())
        .collect();
    assert_eq!(widths, [0, 2, 4, 6, 4, 2]);
    assert!(screen[4][1..7].iter().all(|c| c.color == Some(1)));
    // The grid: outer corners `|`, inner crossings `-`.
    let view = View::new(game(2, 2, vec![0; 4]), 9, 9);
    let screen = view.render();
    let text: Vec<String> = screen
        .iter()
        .map(|row| row.iter().map(|c| c.ch).collect())
        .collect();
    assert_eq!(text[0], "|-------|");
    assert_eq!(text[1], "|   |   |");
    assert_eq!(text[4], "|-------|");
    assert_eq!(text[8], "|-------|");
    // s = 5 (L = 4): the cursor hollows a chip to its outline and fills an
    // empty cell's middle 2 × 2.
    let view = View::new(game(2, 1, vec![2, 0]), 11, 6).with_cursor(Some((0, 0)));
    let hollow: Vec<String> = view.render()[1..5]
        .iter()
        .map(|row| row[1..5].iter().map(|c| c.ch).collect())
        .collect();
    assert_eq!(hollow, ["    ", " OO ", "O  O", " OO "]);
    let view = view.with_cursor(Some((1, 0)));
    let block: Vec<String> = view.render()[1..5]
        .iter()
        .map(|row| row[6..10].iter().map(|c| c.ch).collect())
        .collect();
    assert_eq!(block, ["    ", " II ", " II ", "    "]);
}
