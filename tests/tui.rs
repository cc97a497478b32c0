//! End-to-end tests of the terminal game: the real binary in a pseudo-terminal,
//! its screen read by a terminal parser and compared, character and colour,
//! with SPEC §5–6.
//!
//! The opening of a `--seed` game is learnt from the headless mode run with
//! the same seed and rules (`clines --batch --seed S`, then `board`), so no
//! test hard-codes where chips are; moves are cross-checked the same way.

use crate::pty;

use pty::{Key, Options, TIMEOUT, Term};

const CLINES: &str = env!("CARGO_BIN_EXE_clines");

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
        candidates.dedup();
        candidates
            .into_iter()
            .find(|&p| self.with_cursor(Some(p)).check(screen).is_ok())
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

#[test]
fn board_100x50_full_mode_s5() {
    board_test(100, 50, 5, 1, &[]);
}

#[test]
fn board_80x24_mini_mode_s2() {
    board_test(80, 24, 2, 2, &[]);
}

#[test]
fn board_40x30_mini_mode_s3() {
    board_test(40, 30, 3, 3, &[]);
}

#[test]
fn board_61x57_full_mode_s6() {
    board_test(61, 57, 6, 4, &[]);
}

#[test]
fn board_120x80_full_mode_s8() {
    board_test(120, 80, 8, 5, &[]);
}

#[test]
fn board_5x4_at_60x30_full_mode_s7() {
    board_test(60, 30, 7, 6, &["-w5", "-t4"]);
}

#[test]
fn many_chips_in_seven_colours_full_and_mini() {
    // Seven colours use palette 7,1,2,3,4,5,6,8; 40 chips show most of them.
    let rules = ["-c7", "-N40"];
    let colors: std::collections::BTreeSet<u8> = batch(&rules, 7, &[])
        .cells
        .into_iter()
        .filter(|&c| c != 0)
        .collect();
    assert!(
        colors.len() >= 5,
        "too few colours to be a test: {colors:?}"
    );
    for (cols, rows) in [(100, 50), (80, 24)] {
        let look = Look::color(&[7, 1, 2, 3, 4, 5, 6, 8]);
        let (mut term, view) = start_with(cols, rows, 7, &rules, &[], look, |o| o);
        quit_and_check(&mut term, view.game.score);
    }
}

#[test]
fn palette_option_colours_chips_and_cursor() {
    let extra = ["-o", "9,10,11,12,13,14"];
    let look = Look::color(&[9, 10, 11, 12, 13, 14]);
    let (mut term, view) = start_with(100, 50, 8, &["-N30"], &extra, look, |o| o);
    quit_and_check(&mut term, view.game.score);
}

#[test]
fn score_on_the_top_border_in_full_and_mini_mode() {
    // Short lines of few colours: the opening throw itself scores.
    let rules = ["-i3", "-c3", "-N30"];
    let seed = (1..100)
        .find(|&seed| batch(&rules, seed, &[]).score > 0)
        .expect("an opening that scores");
    for (cols, rows) in [(100, 50), (80, 24)] {
        let (mut term, view) = start(cols, rows, seed, &rules, &[]);
        quit_and_check(&mut term, view.game.score);
    }
}

/// Starts a `-N30` game at `cols` × `rows` with `extra` options and
/// environment, expects it drawn with `look`, and quits.
fn look_test(cols: u16, rows: u16, seed: u64, extra: &[&str], env: &[(&str, &str)], look: Look) {
    let with_env = |options: Options| {
        env.iter()
            .fold(options, |options, &(key, value)| options.env(key, value))
    };
    let (mut term, view) = start_with(cols, rows, seed, &["-N30"], extra, look, with_env);
    quit_and_check(&mut term, view.game.score);
}

#[test]
fn black_and_white_mode_draws_the_bw_glyphs() {
    for (cols, rows) in [(100, 50), (40, 30), (80, 24)] {
        look_test(cols, rows, 9, &["-m", "b"], &[], Look::mono("*OoVvAa.'Zz"));
    }
}

#[test]
fn black_and_white_glyphs_from_the_command_line() {
    let font = "#aAbBcCdDeE";
    look_test(61, 57, 10, &["-mb", "-F", font], &[], Look::mono(font));
}

#[test]
fn no_color_means_black_and_white_unless_forced() {
    let no_color = [("NO_COLOR", "1")];
    look_test(100, 50, 11, &[], &no_color, Look::mono("*OoVvAa.'Zz"));
    look_test(
        100,
        50,
        11,
        &["-m", "c"],
        &no_color,
        Look::color(&[7, 1, 2, 3, 4, 5]),
    );
}

#[test]
fn terminals_of_fewer_than_eight_colours_get_black_and_white() {
    // terminfo: vt100 and xterm-mono have no colours, xterm has 8.
    let mono = Look::mono("*OoVvAa.'Zz");
    let color = Look::color(&[7, 1, 2, 3, 4, 5]);
    look_test(100, 50, 14, &[], &[("TERM", "vt100")], mono.clone());
    look_test(100, 50, 14, &[], &[("TERM", "xterm-mono")], mono);
    look_test(100, 50, 14, &[], &[("TERM", "xterm")], color.clone());
    look_test(100, 50, 14, &["-mc"], &[("TERM", "vt100")], color);
}

#[test]
fn colour_glyphs_from_the_command_line() {
    let mut look = Look::color(&[7, 1, 2, 3, 4, 5]);
    look.cursor = '+';
    look.chips = vec![('@', '.'); 5];
    for (cols, rows) in [(100, 50), (80, 24)] {
        look_test(cols, rows, 12, &["-f", "+@."], &[], look.clone());
    }
    // Glyphs are characters, whatever their length in UTF-8.
    look.cursor = '▒';
    look.chips = vec![('●', '∙'); 5];
    for (cols, rows) in [(100, 50), (80, 24)] {
        look_test(cols, rows, 12, &["-f", "▒●∙"], &[], look.clone());
    }
    let font = "▒●∙■□▲△◆◇★☆";
    for (cols, rows) in [(61, 57), (40, 30)] {
        look_test(cols, rows, 12, &["-mb", "-F", font], &[], Look::mono(font));
    }
}

/// Presses each key and follows the cursor: after every key that should
/// move it, waits for the screen to show it there. A key that should not
/// move it (at an edge) is checked by the next one that does. Returns the
/// final view.
fn drive(term: &mut Term, view: &View, steps: &[(Key, (isize, isize))]) -> View {
    let mut view = view.clone();
    let mut moved = false;
    for &(key, (dx, dy)) in steps {
        let (x, y) = view.cursor.expect("a visible cursor");
        let max_x = view.game.width as isize - 1;
        let max_y = view.game.height as isize - 1;
        let next = (
            (x as isize + dx).clamp(0, max_x) as usize,
            (y as isize + dy).clamp(0, max_y) as usize,
        );
        term.key(key);
        moved = next != (x, y);
        if moved {
            view = view.with_cursor(Some(next));
            expect_view(
                term,
                &view,
                &format!("the cursor at {next:?} after {key:?}"),
            );
        }
    }
    assert!(moved, "a test sequence must end with a move");
    view
}

/// Every key of `keys` (left, down, up, right) repeated past the edges:
/// the cursor crosses the board both ways in both directions.
fn edge_tour(view: &View, [left, down, up, right]: [Key; 4]) -> Vec<(Key, (isize, isize))> {
    let (w, h) = (view.game.width, view.game.height);
    let mut steps = Vec::new();
    steps.extend(std::iter::repeat_n((left, (-1, 0)), w + 1));
    steps.extend(std::iter::repeat_n((up, (0, -1)), h + 1));
    steps.extend(std::iter::repeat_n((right, (1, 0)), w + 1));
    steps.extend(std::iter::repeat_n((down, (0, 1)), h + 1));
    steps.extend(std::iter::repeat_n((left, (-1, 0)), w + 1));
    steps.extend(std::iter::repeat_n((up, (0, -1)), h + 1));
    steps.push((right, (1, 0)));
    steps
}

#[test]
fn arrows_move_the_cursor_and_stop_at_the_edges() {
    let (mut term, view) = start(100, 50, 11, &[], &[]);
    let steps = edge_tour(&view, [Key::Left, Key::Down, Key::Up, Key::Right]);
    drive(&mut term, &view, &steps);
    quit_and_check(&mut term, 0);
}

#[test]
fn hjkl_move_the_cursor_in_mini_mode() {
    let (mut term, view) = start(80, 24, 12, &[], &[]);
    let keys = ['h', 'j', 'k', 'l'].map(Key::Char);
    let steps = edge_tour(&view, keys);
    drive(&mut term, &view, &steps);
    quit_and_check(&mut term, 0);
}

#[test]
fn remapped_keys_replace_hjkl() {
    let (mut term, view) = start(61, 57, 13, &[], &["-C", "asdfg"]);
    let keys = ['a', 's', 'd', 'f'].map(Key::Char);
    let mut steps = edge_tour(&view, keys);
    // The default keys no longer move the cursor; arrows still do.
    steps.extend([
        (Key::Char('l'), (0, 0)),
        (Key::Char('j'), (0, 0)),
        (Key::Right, (1, 0)),
    ]);
    drive(&mut term, &view, &steps);
    quit_and_check(&mut term, 0);
}

#[test]
fn q_in_the_remapped_keys_moves_instead_of_quitting() {
    let (mut term, view) = start(100, 50, 14, &[], &["-C", "hjkq "]);
    let steps = [
        (Key::Left, (-1, 0)),
        (Key::Left, (-1, 0)),
        (Key::Left, (-1, 0)),
        (Key::Left, (-1, 0)),
        (Key::Left, (-1, 0)),
        (Key::Left, (-1, 0)),
        (Key::Left, (-1, 0)),
        (Key::Left, (-1, 0)),
        (Key::Char('q'), (1, 0)),
    ];
    drive(&mut term, &view, &steps);
    term.key(Key::Ctrl('c'));
    check_exit(&mut term, 0);
}

/// Moves the cursor to `target` with the arrow keys, waiting for each step.
fn go_to(term: &mut Term, view: &View, target: Pos) -> View {
    let mut view = view.clone();
    loop {
        let (x, y) = view.cursor.expect("a visible cursor");
        let (key, next) = match (x.cmp(&target.0), y.cmp(&target.1)) {
            (std::cmp::Ordering::Less, _) => (Key::Right, (x + 1, y)),
            (std::cmp::Ordering::Greater, _) => (Key::Left, (x - 1, y)),
            (_, std::cmp::Ordering::Less) => (Key::Down, (x, y + 1)),
            (_, std::cmp::Ordering::Greater) => (Key::Up, (x, y - 1)),
            _ => return view,
        };
        term.key(key);
        view = view.with_cursor(Some(next));
        expect_view(term, &view, &format!("the cursor at {next:?}"));
    }
}

#[test]
fn action_key_selects_changes_and_clears_the_selection() {
    let (mut term, view) = start(100, 50, 25, &["-N6"], &[]);
    let game = view.game.clone();
    let chips = game.chips();
    let (b, target) = some_move(&game);
    let a = *chips.iter().find(|&&chip| chip != b).expect("two chips");
    let space = Key::Char(' ');

    let view = go_to(&mut term, &view, a);
    term.key(space);
    let selected_a = View {
        selected: Some((a, Pose::Shift(1))),
        ..view.clone()
    };
    expect_view(&term, &selected_a, "A selected, jumping under the cursor");
    let view = View {
        selected: Some((a, Pose::Any)),
        ..view
    };

    // Another chip takes the selection; the same chip again clears it.
    let view = go_to(&mut term, &view, b);
    term.key(space);
    let selected_b = View {
        selected: Some((b, Pose::Shift(1))),
        ..view.clone()
    };
    expect_view(&term, &selected_b, "B selected instead of A");
    term.key(space);

    // With nothing selected, the action on an empty cell does nothing:
    // the board stays as it was while the cursor goes back to B.
    let view = View {
        selected: None,
        ..view
    };
    let view = go_to(&mut term, &view, target);
    term.key(space);
    let view = go_to(&mut term, &view, b);

    // Selected again, B moves where the headless mode moves it.
    term.key(space);
    let view = View {
        selected: Some((b, Pose::Any)),
        ..view
    };
    let view = go_to(&mut term, &view, target);
    term.key(space);
    let command = format!("move {} {} {} {}", b.0, b.1, target.0, target.1);
    let after = View {
        game: batch(&["-N6"], 25, &[command]),
        selected: None,
        ..view
    };
    expect_view(&term, &after, "B moved by the keyboard");
    quit_and_check(&mut term, after.game.score);
}

/// A chip of `game` with an empty cell it can reach, the farthest first
/// found in reading order.
fn some_move(game: &Game) -> (Pos, Pos) {
    game.chips()
        .into_iter()
        .find_map(|chip| game.reachable(chip).last().map(|&to| (chip, to)))
        .expect("a chip that can move")
}

/// Clicks `from` then `to` in a game recording its frames, waits for the
/// board the headless mode gives after that move, and returns the frames
/// and the views before and after.
fn recorded_mouse_move(
    cols: u16,
    rows: u16,
    seed: u64,
    rules: &[&str],
    extra: &[&str],
    choose: impl FnOnce(&Game) -> (Pos, Pos),
) -> (Vec<vt100::Screen>, View, View, Pos, Pos) {
    let look = if extra.contains(&"-mb") {
        Look::mono("*OoVvAa.'Zz")
    } else {
        Look::color(&[7, 1, 2, 3, 4, 5])
    };
    let (mut term, view) = start_with(cols, rows, seed, rules, extra, look, Options::record_frames);
    let (from, to) = choose(&view.game);
    let [(col, row), _] = view.corners(from);
    term.click(col, row);
    let [_, (col, row)] = view.corners(to);
    term.click(col, row);
    let command = format!("move {} {} {} {}", from.0, from.1, to.0, to.1);
    let after = View {
        game: batch(rules, seed, &[command]),
        cursor: None,
        ..view.clone()
    };
    expect_view(&term, &after, "the board after the move");
    quit_and_check(&mut term, after.game.score);
    (term.frames(), view, after, from, to)
}

#[test]
fn moving_chip_walks_a_shortest_path_vertically_first() {
    // A move with a real choice: two vertical steps toward the target and
    // one horizontal step are all on shortest paths.
    let choose = |game: &Game| {
        game.chips()
            .into_iter()
            .flat_map(|from| game.reachable(from).into_iter().map(move |to| (from, to)))
            .find(|&(from, to)| {
                let to_target = game.distances(to, from);
                let total = to_target[from.1 * game.width + from.0].unwrap_or(0);
                let on_path = |(x, y): Pos| to_target[y * game.width + x] == Some(total - 1);
                let dy = if to.1 > from.1 { 1 } else { -1 };
                let dx = if to.0 > from.0 { 1 } else { -1 };
                let step = |(x, y): Pos, (dx, dy): (isize, isize)| {
                    ((x as isize + dx) as usize, (y as isize + dy) as usize)
                };
                let down = step(from, (0, dy));
                to.0 != from.0
                    && to.1.abs_diff(from.1) >= 2
                    && on_path(down)
                    && to_target[{
                        let (x, y) = step(down, (0, dy));
                        y * game.width + x
                    }] == Some(total - 2)
                    && on_path(step(from, (dx, 0)))
            })
            .expect("a move with a choice of first step")
    };
    let (frames, before, _, from, to) = recorded_mouse_move(100, 50, 81, &[], &[], choose);
    let from_source = before.game.distances(from, from);
    let to_target = before.game.distances(to, from);
    let index = |(x, y): Pos| y * before.game.width + x;
    let total = to_target[index(from)].expect("reachable");
    // Where the walking chip is in each frame, among the cells of shortest
    // paths.
    let candidates: Vec<Pos> = before
        .game
        .positions()
        .filter(|&p| match (from_source[index(p)], to_target[index(p)]) {
            (Some(a), Some(b)) => a + b == total && p != from,
            _ => false,
        })
        .collect();
    let mut walked: Vec<Pos> = Vec::new();
    for frame in &frames {
        let at = candidates.iter().copied().find(|&p| {
            let walking = View {
                game: before.game.moved(from, p),
                cursor: None,
                ..before.clone()
            };
            walking.check(frame).is_ok()
        });
        if let Some(p) = at.filter(|&p| walked.last() != Some(&p)) {
            walked.push(p);
        }
    }
    // The last step may be drawn together with the computer's throw, so
    // the walk is checked up to there.
    assert!(walked.len() >= 2, "the walk was not seen: {walked:?}");
    assert!(
        walked
            .windows(2)
            .all(|pair| from_source[index(pair[0])] < from_source[index(pair[1])]),
        "the walk goes back: {walked:?}"
    );
    assert_eq!(
        walked[0].0, from.0,
        "the first step is not vertical: {walked:?}"
    );
}

#[test]
fn removed_chips_flash_in_the_cursor_colour_then_the_score_updates() {
    // One colour and lines of two: any chip moved next to another scores.
    let rules = ["-c1", "-i2"];
    let scoring_move = |game: &Game| {
        game.chips()
            .into_iter()
            .flat_map(|from| game.reachable(from).into_iter().map(move |to| (from, to)))
            .find(|&(from, (x, y))| {
                game.chips()
                    .into_iter()
                    .any(|chip| chip != from && chip.0.abs_diff(x) <= 1 && chip.1.abs_diff(y) <= 1)
            })
    };
    let seed = (1..100)
        .find(|&seed| scoring_move(&batch(&rules, seed, &[])).is_some())
        .expect("an opening with a scoring move");
    let choose = |game: &Game| scoring_move(game).expect("a scoring move");
    for (cols, rows, extra) in [
        (100, 50, &[][..]),
        (80, 24, &[][..]),
        (100, 50, &["-mb"][..]),
    ] {
        let (frames, before, after, from, to) =
            recorded_mouse_move(cols, rows, seed, &rules, extra, choose);
        assert!(
            after.game.score > before.game.score,
            "the move did not score"
        );
        let moved = before.game.moved(from, to);
        let removed: Vec<Pos> = moved
            .chips()
            .into_iter()
            .filter(|&p| after.game.at(p) == 0)
            .collect();
        assert!(removed.contains(&to), "{removed:?}");
        let flashing = View {
            game: moved,
            cursor: None,
            flash: removed,
            ..before.clone()
        };
        let flash_frames: Vec<usize> = (0..frames.len())
            .filter(|&i| flashing.check(&frames[i]).is_ok())
            .collect();
        let Some(&last_flash) = flash_frames.last() else {
            let last = frames.iter().rev().find_map(|f| flashing.check(f).err());
            panic!("no frame shows the removed chips flashing: {last:?}");
        };
        let scored = frames.iter().position(|frame| after.check(frame).is_ok());
        assert!(
            scored.is_some_and(|i| i > last_flash),
            "the score shows before the flash ends ({cols}x{rows} {extra:?})"
        );
    }
}

/// Clicks a chip, waits for it to jump (in `pose`), clicks an empty cell
/// and checks the result against the headless mode playing the same move.
fn mouse_move_test(cols: u16, rows: u16, seed: u64, pose: Pose) {
    let (mut term, view) = start(cols, rows, seed, &[], &[]);
    let (from, to) = some_move(&view.game);
    let [_, (col, row)] = view.corners(from);
    term.click(col, row);
    let selected = View {
        cursor: None,
        selected: Some((from, pose)),
        ..view.clone()
    };
    expect_view(
        &term,
        &selected,
        "the clicked chip jumping, the cursor hidden",
    );

    let [(col, row), _] = view.corners(to);
    term.click(col, row);
    let command = format!("move {} {} {} {}", from.0, from.1, to.0, to.1);
    let after = View::new(batch(&[], seed, &[command]), cols, rows);
    assert_ne!(after.game, view.game);
    expect_view(
        &term,
        &after,
        "the board after the move, as the headless mode plays it",
    );

    // The next key shows the cursor again, moved from where the click was.
    term.key(Key::Up);
    let cursor = (to.0, to.1.saturating_sub(1));
    expect_view(
        &term,
        &after.with_cursor(Some(cursor)),
        "the cursor back after a key",
    );
    quit_and_check(&mut term, after.game.score);
}

#[test]
fn mouse_selects_and_moves_a_chip_in_full_mode() {
    mouse_move_test(100, 50, 21, Pose::Shift(1));
}

#[test]
fn mouse_selects_and_moves_a_chip_in_mini_mode() {
    mouse_move_test(80, 24, 22, Pose::JumpGlyph);
}

/// Clicks the first chip and reads how it is drawn, frame after frame,
/// until `count` poses (among `poses`, `None` meaning at rest) have been
/// seen one after another. Frames matching none of them (before the click
/// is handled) are skipped.
fn jump_sequence(cols: u16, rows: u16, poses: &[Option<Pose>], count: usize) -> Vec<Option<Pose>> {
    let look = Look::color(&[7, 1, 2, 3, 4, 5]);
    jump_sequence_in(cols, rows, &[], look, poses, count)
}

/// [`jump_sequence`] with `extra` options drawing with `look`.
fn jump_sequence_in(
    cols: u16,
    rows: u16,
    extra: &[&str],
    look: Look,
    poses: &[Option<Pose>],
    count: usize,
) -> Vec<Option<Pose>> {
    let (mut term, view) = start_with(cols, rows, 23, &[], extra, look, Options::record_frames);
    let chip = view.game.chips()[0];
    let (col, row) = view.point(chip);
    term.click(col, row);
    let views: Vec<(Option<Pose>, View)> = poses
        .iter()
        .map(|&pose| {
            let view = View {
                cursor: None,
                selected: pose.map(|pose| (chip, pose)),
                ..view.clone()
            };
            (pose, view)
        })
        .collect();
    // Every frame counts, so they are read from the recording.
    let seen = term.expect("the chip jumping", |_| {
        let mut seen: Vec<Option<Pose>> = Vec::new();
        for frame in term.frames() {
            if let Some((pose, _)) = views.iter().find(|(_, view)| view.check(&frame).is_ok()) {
                if seen.last() != Some(pose) {
                    seen.push(*pose);
                }
            }
        }
        if seen.len() >= count {
            seen.truncate(count);
            Ok(seen)
        } else {
            Err(format!("poses so far: {seen:?}"))
        }
    });
    quit_and_check(&mut term, 0);
    seen
}

#[test]
fn selected_chip_jumps_up_first_in_full_mode() {
    // Ticks of 200 ms: shift 0, +1, 0, -1, repeating from the selection.
    let shifts = [
        Some(Pose::Shift(0)),
        Some(Pose::Shift(1)),
        Some(Pose::Shift(-1)),
    ];
    let seen = jump_sequence(100, 50, &shifts, 6);
    let expected = [0, 1, 0, -1, 0, 1].map(|shift| Some(Pose::Shift(shift)));
    assert_eq!(seen, expected);
}

#[test]
fn selected_chip_jumps_in_a_two_by_two_interior() {
    // Of every 12 ticks: top row blank on 0-2, bottom row blank on 6-8.
    let poses = [None, Some(Pose::TopBlank), Some(Pose::BottomBlank)];
    let seen = jump_sequence(40, 30, &poses, 5);
    let expected = [
        Some(Pose::TopBlank),
        None,
        Some(Pose::BottomBlank),
        None,
        Some(Pose::TopBlank),
    ];
    assert_eq!(seen, expected);
}

#[test]
fn selected_chip_jumps_in_a_one_character_interior() {
    // The jumping glyph for 4 ticks out of 8, the chip glyph otherwise.
    // Four changes seen means the glyph keeps swapping.
    let seen = jump_sequence(80, 24, &[None, Some(Pose::JumpGlyph)], 4);
    assert!(seen.contains(&Some(Pose::JumpGlyph)), "{seen:?}");
    // Black-and-white mode: colour k jumps with -F glyph 2k.
    let look = Look::mono("*OoVvAa.'Zz");
    let poses = [None, Some(Pose::JumpGlyph)];
    let seen = jump_sequence_in(80, 24, &["-mb"], look, &poses, 4);
    assert!(seen.contains(&Some(Pose::JumpGlyph)), "{seen:?}");
}

#[test]
fn clicks_on_grid_lines_and_other_mouse_events_are_ignored() {
    let (mut term, view) = start(100, 50, 24, &[], &[]);
    let (from, to) = some_move(&view.game);
    let s = view.cell_size() as u16;
    let (col, row) = view.point(from);
    // The chip's left and top grid lines: nothing selected.
    term.click(col - col % s, row);
    term.click(col, row - row % s);
    // Middle and right buttons, the wheel, motion with and without the
    // left button held, a left press without its release: nothing either.
    for code in [1, 2] {
        term.mouse(code, col, row, false);
        term.mouse(code, col, row, true);
    }
    for code in [64, 65, 35, 32] {
        term.mouse(code, col, row, false);
    }
    term.mouse(0, col, row, false);
    // Then a key that moves the cursor proves all that was handled.
    let cursor = view.cursor.expect("cursor");
    let (key, next) = if cursor.0 > 0 {
        (Key::Left, (cursor.0 - 1, cursor.1))
    } else {
        (Key::Right, (1, cursor.1))
    };
    term.key(key);
    expect_view(&term, &view.with_cursor(Some(next)), "the board untouched");
    // A click on the target now has nothing selected to move: still untouched.
    let (col, row) = view.point(to);
    term.click(col, row);
    term.key(Key::Up);
    let (x, y) = to;
    expect_view(
        &term,
        &view.with_cursor(Some((x, y.saturating_sub(1)))),
        "the board untouched after a click with nothing selected",
    );
    quit_and_check(&mut term, 0);
}

#[test]
fn unreachable_target_beeps_and_keeps_the_selection() {
    // A 1 × 3 board whose opening is two chips on top: the top one cannot
    // pass the middle one.
    let rules = ["-w1", "-t3", "-N2", "-c2"];
    let seed = (1..200)
        .find(|&seed| {
            let game = batch(&rules, seed, &[]);
            game.cells[0] != 0 && game.cells[1] != 0
        })
        .expect("a seed with the top two cells taken");
    let (mut term, view) = start(30, 31, seed, &rules, &[]);
    assert_eq!(view.cell_size(), 10);
    let (col, row) = view.point((0, 0));
    term.click(col, row);
    let selected = View {
        cursor: None,
        selected: Some(((0, 0), Pose::Shift(1))),
        ..view.clone()
    };
    expect_view(&term, &selected, "the top chip selected");
    let (col, row) = view.point((0, 2));
    term.click(col, row);
    assert!(
        term.wait_for_bells(1, TIMEOUT),
        "no bell for an unreachable target"
    );
    let still = View {
        selected: Some(((0, 0), Pose::Shift(-1))),
        ..selected
    };
    expect_view(&term, &still, "the chip still selected and jumping");
    quit_and_check(&mut term, 0);
}

#[test]
fn resize_to_too_small_and_back_keeps_the_game() {
    let (mut term, view) = start(100, 50, 31, &[], &[]);
    term.resize(100, 15);
    term.expect_text("19 chars tall terminal required, now it's 15");
    term.expect_text("Please resize the window again");
    term.resize(40, 30);
    expect_view(
        &term,
        &View {
            cols: 40,
            rows: 30,
            ..view.clone()
        },
        "the same game in mini mode",
    );
    // A burst of resizes ends on the first size: the board as it was.
    for (cols, rows) in [(90, 45), (70, 40), (30, 12), (100, 50)] {
        term.resize(cols, rows);
    }
    expect_view(&term, &view, "the same board after resizing back");
    quit_and_check(&mut term, 0);
}

#[test]
fn a_huge_resize_with_little_memory_keeps_the_game() {
    // Under a 400 MB address-space limit, a 6000 × 6000 terminal: a 9 × 9
    // board of 666-character cells, 36 million characters. Stored cell by
    // cell, two frames of it did not fit; stored as runs they take a few
    // megabytes, and the game goes on at that size.
    let seed = 41;
    let view = View::new(batch(&[], seed, &[]), 100, 50);
    let limited = "ulimit -v 400000 && exec \"$0\" \"$@\"";
    let mut term = Term::spawn(
        "/bin/sh",
        Options::new(100, 50).args(["-c", limited, CLINES, &format!("--seed={seed}")]),
    );
    let cursor = term.expect("the opening board", |screen| view.locate_cursor(screen));
    let view = view.with_cursor(Some(cursor));
    // A move along the row, which stays on the board.
    let (step, x) = if cursor.0 + 1 < 9 {
        (Key::Right, cursor.0 + 1)
    } else {
        (Key::Left, cursor.0 - 1)
    };
    for key in [None, Some(step)] {
        // The screen is too large to emulate: its frame is read as bytes.
        let start = term.output_len();
        match key {
            None => term.resize_pty_only(6000, 6000),
            Some(key) => term.key(key),
        }
        let ended = |raw: &[u8]| pty::find(&raw[start..], pty::END_SYNC);
        assert!(
            term.wait_for_output(TIMEOUT, |raw| ended(raw).is_some()),
            "no frame after {key:?} at 6000 x 6000"
        );
        let raw = term.raw_output();
        let frame = &raw[start..start + ended(&raw).unwrap()];
        let text = String::from_utf8_lossy(frame);
        assert!(!text.contains("Not enough memory"), "{text:.200}");
        if key.is_none() {
            // Ten vertical lines down the 5995 rows of the board.
            let bars = pty::count(frame, b"|");
            assert!(bars >= 10 * 5900, "{bars} grid characters: {text:.200}");
        }
    }
    term.resize(100, 50);
    let moved = view.with_cursor(Some((x, cursor.1)));
    expect_view(&term, &moved, "the same board after resizing back");
    quit_and_check(&mut term, 0);
}

#[test]
fn too_narrow_after_resize_shows_the_width_needed() {
    let rules = ["-w40", "-t20"];
    let (mut term, view) = start(100, 50, 32, &rules, &[]);
    assert_eq!(view.cell_size(), 2);
    term.resize(60, 50);
    term.expect_text("81 chars wide terminal required, now it's 60");
    term.expect_text("Please resize the window again");
    term.resize(100, 50);
    expect_view(&term, &view, "the same board after resizing back");
    quit_and_check(&mut term, 0);
}

#[test]
fn ctrl_l_repaints_the_whole_screen() {
    let (mut term, view) = start(100, 50, 41, &[], &[]);
    // Wipe our copy of the screen: only a full repaint brings it back.
    term.process_locally(b"\x1b[2J");
    assert!(term.screen(|screen| view.check(screen)).is_err());
    term.key(Key::Ctrl('l'));
    expect_view(&term, &view, "the board repainted after Ctrl-L");
    quit_and_check(&mut term, 0);
}

/// Quits the game at 80×24 with `quit`, then checks the exit.
fn quit_test(quit: impl FnOnce(&mut Term)) {
    let (mut term, _) = start(80, 24, 51, &[], &[]);
    quit(&mut term);
    check_exit(&mut term, 0);
}

#[test]
fn q_quits_and_restores_the_terminal() {
    quit_test(|term| term.key(Key::Char('q')));
}

#[test]
fn ctrl_c_quits_and_restores_the_terminal() {
    quit_test(|term| term.send(&[0x03]));
}

#[test]
fn ctrl_backslash_quits_and_restores_the_terminal() {
    quit_test(|term| term.send(&[0x1c]));
}

#[test]
fn sigterm_quits_and_restores_the_terminal() {
    quit_test(|term| term.signal(libc::SIGTERM));
}

#[test]
fn sigint_quits_and_restores_the_terminal() {
    quit_test(|term| term.signal(libc::SIGINT));
}

#[test]
fn sigquit_quits_and_restores_the_terminal() {
    quit_test(|term| term.signal(libc::SIGQUIT));
}

#[test]
fn sighup_quits_and_restores_the_terminal() {
    quit_test(|term| term.signal(libc::SIGHUP));
}

#[test]
fn closing_the_terminal_ends_the_game() {
    for select_first in [false, true] {
        // Standard error stays on the terminal, as in real use: a message
        // printed there once it is gone fails too.
        let (mut term, view) = start(100, 50, 52, &[], &[]);
        if select_first {
            // A jumping chip: the game is writing when the terminal goes.
            let chip = view.game.chips()[0];
            let [(col, row), _] = view.corners(chip);
            term.click(col, row);
            let selected = View {
                cursor: None,
                selected: Some((chip, Pose::Shift(1))),
                ..view.clone()
            };
            expect_view(&term, &selected, "the chip jumping");
        }
        term.hang_up();
        let status = term.wait_exit(TIMEOUT);
        assert_eq!(
            status.code(),
            Some(0),
            "exit status {status:?} (101: a panic, such as printing to the closed terminal)"
        );
    }
}

#[test]
fn quitting_with_a_chip_selected_restores_the_terminal() {
    quit_test(|term| {
        // Select whatever is under the cursor, then move and quit at once,
        // while the screen is busy.
        term.keys(&[Key::Char(' '), Key::Right, Key::Char(' '), Key::Char('q')]);
    });
}

/// Suspends the game with `suspend`, checks the terminal is handed back
/// and the process stopped, resumes it with SIGCONT and expects the board
/// repainted in full.
fn suspend_test(suspend: impl FnOnce(&mut Term)) {
    let (mut term, view) = start(100, 50, 91, &[], &[]);
    suspend(&mut term);
    assert!(term.wait_stopped(TIMEOUT), "the game did not stop");
    // What it wrote before stopping may still be on its way to the parser.
    term.expect_screen("the main screen with the cursor shown", |screen| {
        !screen.alternate_screen() && !screen.hide_cursor()
    });
    term.assert_restored();
    term.signal(libc::SIGCONT);
    // Re-entering the alternate screen clears it: only a full repaint
    // brings the board back.
    expect_view(&term, &view, "the board repainted after SIGCONT");
    quit_and_check(&mut term, 0);
}

#[test]
fn ctrl_z_suspends_and_sigcont_repaints() {
    suspend_test(|term| term.send(&[0x1a]));
}

#[test]
fn sigtstp_suspends_and_sigcont_repaints() {
    suspend_test(|term| term.signal(libc::SIGTSTP));
}

#[test]
fn ctrl_z_under_a_wrapper_stops_the_whole_job() {
    // An interactive shell with job control runs a wrapper script that runs
    // the game: Ctrl-Z must stop the whole job and give the prompt back.
    let view = View::new(batch(&[], 92, &[]), 100, 50);
    let mut term = Term::spawn(
        "bash",
        Options::new(100, 50)
            .args(["--norc", "--noprofile", "-i"])
            .env("PS1", "ready$ "),
    );
    term.expect_text("ready$ ");
    term.send(format!("sh -c '{CLINES} --seed=92; echo after $?'\n").as_bytes());
    let cursor = term.expect("the opening board", |screen| view.locate_cursor(screen));
    let view = view.with_cursor(Some(cursor));
    term.send(&[0x1a]);
    term.expect_screen("the prompt again, the job stopped", |screen| {
        !screen.alternate_screen() && screen.contents().matches("ready$ ").count() == 2
    });
    term.send(b"fg\n");
    expect_view(&term, &view, "the board back after fg");
    term.key(Key::Char('q'));
    term.expect_text("after 0");
    term.send(b"exit\n");
    let status = term.wait_exit(TIMEOUT);
    assert!(status.success(), "the shell's exit status {status:?}");
}

#[test]
fn sigstop_from_outside_then_sigcont_restores_raw_mode_and_screen() {
    let (mut term, view) = start(100, 50, 94, &[], &[]);
    term.signal(libc::SIGSTOP);
    assert!(term.wait_stopped(TIMEOUT), "the game did not stop");
    // What a shell does meanwhile: cooked mode, and its own output.
    term.restore_line_settings();
    term.process_locally(b"\x1b[2J");
    term.signal(libc::SIGCONT);
    expect_view(&term, &view, "the board repainted after SIGCONT");
    // Raw mode again: a key arrives at once and is not echoed.
    let (x, y) = view.cursor.expect("the cursor is shown");
    let moved = if x + 1 < view.game.width {
        x + 1
    } else {
        x - 1
    };
    term.key(if moved > x { Key::Right } else { Key::Left });
    expect_view(
        &term,
        &view.with_cursor(Some((moved, y))),
        "the cursor moved, nothing echoed",
    );
    quit_and_check(&mut term, 0);
}

#[test]
fn a_burst_of_input_is_handled_without_waiting_for_more() {
    let (mut term, view) = start(100, 50, 95, &[], &[]);
    // 1,000 arrows, 3,000 bytes in one write: the cursor ends at the top.
    term.send(&b"\x1b[A".repeat(1000));
    let (x, _) = view.cursor.expect("the cursor is shown");
    expect_view(
        &term,
        &view.with_cursor(Some((x, 0))),
        "the cursor at the top",
    );
    // The game read every byte: one more key is handled at once.
    let burst: Vec<u8> = b"\x1b[B".repeat(1000).into_iter().chain(*b"q").collect();
    term.send(&burst);
    check_exit(&mut term, 0);
}

#[test]
fn too_small_messages_wrap_at_the_terminal_width() {
    let (mut term, view) = start(100, 50, 96, &[], &[]);
    term.resize(15, 50);
    let wrapped = [
        "19 chars wide t",
        "erminal require",
        "d, now it's 15",
        "Please resize t",
        "he window again",
    ];
    term.expect("the messages wrapped at 15 columns", |screen| {
        let rows: Vec<String> = screen.rows(0, 15).take(wrapped.len()).collect();
        if rows == wrapped {
            Ok(())
        } else {
            Err(format!("{rows:?}"))
        }
    });
    term.resize(100, 50);
    expect_view(&term, &view, "the same board after resizing back");
    quit_and_check(&mut term, 0);
}

/// Checks a refused start: exit status 1, standard error saying each of
/// `says`, and not a single escape sequence sent to the terminal.
fn refused_start(term: &mut Term, says: &[&str]) {
    let status = term.wait_exit(TIMEOUT);
    assert_eq!(status.code(), Some(1), "exit status {status:?}");
    let stderr = term.stderr();
    for part in says {
        assert!(stderr.contains(part), "stderr {stderr:?} lacks {part:?}");
    }
    let raw = term.raw_output();
    assert!(
        !raw.contains(&0x1b),
        "the terminal was touched: {:?}",
        String::from_utf8_lossy(&raw)
    );
    term.assert_restored();
}

#[test]
fn output_not_a_terminal_is_refused_suggesting_batch() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let script = format!("exec {CLINES} > '{}'", out.display());
    let mut term = Term::spawn(
        "sh",
        Options::new(100, 50)
            .args(["-c", &script])
            .separate_stderr(),
    );
    refused_start(&mut term, &["standard output is not a terminal", "--batch"]);
    assert_eq!(
        std::fs::read(&out).unwrap(),
        b"",
        "nothing drawn in the file"
    );
}

#[test]
fn no_terminal_at_all_is_refused_suggesting_batch() {
    // A new session has no controlling terminal; standard output is still
    // the terminal, standard input not.
    let script = format!("exec setsid -w {CLINES} </dev/null");
    let mut term = Term::spawn(
        "sh",
        Options::new(100, 50)
            .args(["-c", &script])
            .separate_stderr(),
    );
    refused_start(&mut term, &["there is no terminal", "--batch"]);
}

#[test]
fn terminals_that_cannot_move_the_cursor_are_refused() {
    let mut term = Term::spawn(
        CLINES,
        Options::new(100, 50).env("TERM", "dumb").separate_stderr(),
    );
    refused_start(
        &mut term,
        &["TERM=dumb", "cannot move its cursor", "--batch"],
    );
    // Any entry without cursor addressing, whatever its name: the system's
    // dumb entry under another name.
    let Some(dumb) = ["/usr/share/terminfo/d/dumb", "/lib/terminfo/d/dumb"]
        .into_iter()
        .find(|path| std::path::Path::new(path).is_file())
    else {
        eprintln!("skipping the renamed entry: no system terminfo entry for dumb");
        return;
    };
    let terminfo = tempfile::tempdir().unwrap();
    std::fs::create_dir(terminfo.path().join("p")).unwrap();
    std::fs::copy(dumb, terminfo.path().join("p/plain")).unwrap();
    let mut term = Term::spawn(
        CLINES,
        Options::new(100, 50)
            .env("TERM", "plain")
            .env("TERMINFO", terminfo.path())
            .separate_stderr(),
    );
    refused_start(&mut term, &["TERM=plain", "cannot move its cursor"]);
}

#[test]
fn game_over_box_then_any_key_ends() {
    // Two columns never make a line of five: four chips fill the board.
    let (mut term, view) = {
        let rules = ["-w2", "-t2", "-N4"];
        let game = batch(&rules, 61, &[]);
        let term = Term::spawn(CLINES, Options::new(80, 24).arg("--seed=61").args(rules));
        (term, View::new(game, 80, 24))
    };
    assert!(view.game.cells.iter().all(|&c| c != 0));
    // The original's box, with a line saying how to play again (issue 10).
    let boxed = [
        "+-------------------------+",
        "|Game over, press a key...|",
        "|n starts a new game      |",
        "+-------------------------+",
    ];
    let in_box = |row: usize, col: usize| (1..=4).contains(&row) && (1..=27).contains(&col);
    term.expect(
        "the game-over box at row 1, column 1, over the board",
        |screen| {
            for (i, line) in boxed.iter().enumerate() {
                let shown: String = (1..=27)
                    .map(|col| {
                        let cell = screen.cell(1 + i as u16, col);
                        cell.and_then(|c| c.contents().chars().next())
                            .unwrap_or(' ')
                    })
                    .collect();
                if shown != *line {
                    return Err(format!("row {}: {shown:?}", 1 + i));
                }
            }
            // Around the box, the full board (the cursor wherever it is).
            let cursors = std::iter::once(None).chain(view.game.positions().map(Some));
            let mut last = String::new();
            for cursor in cursors {
                let shown = view.with_cursor(cursor);
                let outside: Vec<_> = shown
                    .differences(screen)
                    .into_iter()
                    .filter(|&(row, col, _)| !in_box(row, col))
                    .collect();
                if outside.is_empty() {
                    return Ok(());
                }
                last = shown.describe(&outside);
            }
            Err(last)
        },
    );
    term.key(Key::Char('x'));
    check_exit(&mut term, 0);
}

#[test]
fn too_small_at_start_exits_1_without_touching_the_terminal() {
    for (cols, rows, message) in [
        (10, 10, "19 chars wide terminal required, now it's 10"),
        (80, 10, "19 chars tall terminal required, now it's 10"),
    ] {
        let mut term = Term::spawn(CLINES, Options::new(cols, rows).separate_stderr());
        let status = term.wait_exit(TIMEOUT);
        assert_eq!(status.code(), Some(1), "exit status {status:?}");
        assert!(
            term.stderr().contains(message),
            "stderr {:?} lacks {message:?}",
            term.stderr()
        );
        // Not a single escape sequence: no alternate screen, no modes.
        let raw = term.raw_output();
        assert!(
            !raw.contains(&0x1b),
            "the terminal was touched: {:?}",
            String::from_utf8_lossy(&raw)
        );
        term.assert_restored();
    }
}

#[test]
fn keys_typed_during_an_animation_are_not_lost() {
    let (mut term, view) = start(100, 50, 71, &[], &[]);
    let (from, to) = some_move(&view.game);
    let (col, row) = view.point(from);
    term.click(col, row);
    let (col, row) = view.point(to);
    term.click(col, row);
    // Typed while the chip walks: must be handled once it has arrived.
    term.key(Key::Up);
    let command = format!("move {} {} {} {}", from.0, from.1, to.0, to.1);
    let after = View::new(batch(&[], 71, &[command]), 100, 50);
    let cursor = (to.0, to.1.saturating_sub(1));
    expect_view(
        &term,
        &after.with_cursor(Some(cursor)),
        "the move done, then the key handled",
    );
    quit_and_check(&mut term, after.game.score);
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

/// A panic on the main thread while the game has the terminal (asked for
/// through the debug build's `CLINES_TEST_PANIC`) restores the terminal,
/// prints std's message naming the thread and exits with std's 101.
#[cfg(debug_assertions)]
#[test]
fn a_panic_restores_the_terminal_and_is_reported() {
    let mut term = Term::spawn(
        CLINES,
        Options::new(80, 24)
            .arg("--seed=1")
            .env("CLINES_TEST_PANIC", "game")
            .separate_stderr(),
    );
    let status = term.wait_exit(TIMEOUT);
    assert_eq!(status.code(), Some(101), "exit status {status:?}");
    term.assert_restored();
    let stderr = term.stderr();
    assert!(
        stderr.contains("thread 'main' panicked at src/")
            && stderr.contains("\nCLINES_TEST_PANIC=game\n"),
        "{stderr:?}"
    );
}
