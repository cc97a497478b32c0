//! Drawing the game into a [`Frame`]: the grid, chips (diamonds in full
//! mode, one glyph in mini mode, three in a wide cell), the cursor, the
//! score and records lines, the game-over box, and the too-small screen.
//! Pure: everything drawn comes in through [`Scene`] and [`Style`].
//!
//! The next-chip preview shows the coming throw on the top border, right
//! aligned, as `[OOO]`: each chip's own glyph in its colour, so it reads
//! as the chips themselves in colour and, by glyph, in black and white.
//! Planned landing cells hold a mark: the chip's small (jumping) glyph in
//! the middle of the cell, in the chip's colour (see [`draw_mark`]). A
//! resting chip fills its cell (a diamond, or the whole interior in mini
//! mode) with its large glyph, so a lone small glyph cannot be taken for
//! one in either mode, and in black and white the small glyph still names
//! the colour (`o v a ' z` for `O V A . Z`). It comes from `-f` and `-F`,
//! so it follows the player's own glyphs.

use unicode_width::UnicodeWidthChar;

use crate::board::{Board, Chip, Color, Pos};
use crate::cli::{Appearance, CellShape, ColorMode, WHITE};
use crate::game::Planned;
use crate::records::HiLine;

use super::frame::{Frame, Ink, RESIZE};
use super::layout::{self, Layout, TooSmall};
use super::terminfo;

/// How a chip of one colour looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChipLook {
    /// Its glyph.
    pub glyph: char,
    /// Its small glyph: shown on half the ticks while it jumps in a
    /// 1-character interior or a wide cell, and as a planned cell's mark.
    pub jumping: char,
    /// Its colour.
    pub ink: Ink,
}

/// Glyphs, colours and cell shape, from the `-f`, `-F`, `-o`, `-m` and
/// `--cells` options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Style {
    /// Whether colours are used (colour mode) or glyphs only.
    pub color: bool,
    /// Colour of the grid and text.
    pub board: Ink,
    /// The cursor's glyph.
    pub cursor: char,
    /// The cursor's colour; removed chips flash in it too.
    pub cursor_ink: Ink,
    /// Chip looks, index 0 for colour 1.
    pub chips: Vec<ChipLook>,
    /// The shape of the cells.
    pub cells: CellShape,
}

/// Shown for a glyph or colour the options left out; the command line
/// refuses such options, so this only keeps drawing safe.
const MISSING_GLYPH: char = '?';

impl Style {
    /// The look for a game of `colors` colours in colour mode or not.
    pub fn new(appearance: &Appearance, colors: Color, color: bool) -> Style {
        let chips = (1..=usize::from(colors))
            .map(|k| {
                if color {
                    ChipLook {
                        glyph: appearance.font.chip,
                        jumping: appearance.font.jumping,
                        ink: Some(appearance.palette.get(k).copied().unwrap_or(WHITE)),
                    }
                } else {
                    let glyph =
                        |i: usize| appearance.bw_font.get(i).copied().unwrap_or(MISSING_GLYPH);
                    ChipLook {
                        glyph: glyph(2 * k - 1),
                        jumping: glyph(2 * k),
                        ink: None,
                    }
                }
            })
            .collect();
        if color {
            Style {
                color,
                board: Some(WHITE),
                cursor: appearance.font.cursor,
                cursor_ink: Some(appearance.palette.first().copied().unwrap_or(WHITE)),
                chips,
                cells: appearance.cells,
            }
        } else {
            Style {
                color,
                board: None,
                cursor: appearance.bw_font.first().copied().unwrap_or(MISSING_GLYPH),
                cursor_ink: None,
                chips,
                cells: appearance.cells,
            }
        }
    }

    fn chip(&self, color: Color) -> ChipLook {
        let index = usize::from(color).saturating_sub(1);
        self.chips.get(index).copied().unwrap_or(ChipLook {
            glyph: MISSING_GLYPH,
            jumping: MISSING_GLYPH,
            ink: self.board,
        })
    }
}

/// Whether to draw in colour: the mode decided (`-m`, or `NO_COLOR` as the
/// options read it); otherwise colour unless the terminal's terminfo entry
/// has fewer than 8 colours.
pub fn use_color(mode: Option<ColorMode>) -> bool {
    match mode {
        Some(ColorMode::Color) => true,
        Some(ColorMode::Mono) => false,
        None => {
            match terminfo::terminal_colors() {
                Some(colors) => colors >= 8,
                // No entry: TERM is unset or names a terminal this machine
                // has no description of, typically a newer emulator reached
                // over ssh, and those all have colours. So keep the default
                // look and let crossterm guess from COLORTERM and TERM
                // rather than forcing black and white.
                None => crossterm::style::available_color_count() >= 8,
            }
        }
    }
}

/// Everything the board screen shows at one moment.
#[derive(Clone, Copy, Debug)]
pub struct Scene<'a> {
    /// Where the board goes.
    pub layout: &'a Layout,
    /// The chips resting on the board.
    pub board: &'a Board,
    /// The cursor's cell, or `None` while hidden after a mouse action.
    pub cursor: Option<Pos>,
    /// The selected chip and its animation tick.
    pub jumping: Option<(Pos, u64)>,
    /// A chip walking its path, drawn over the board.
    pub walker: Option<Chip>,
    /// Chips about to be removed, drawn in the cursor's colour.
    pub flashing: &'a [Chip],
    /// The score shown.
    pub score: u64,
    /// The records line on the bottom border, if any.
    pub records: Option<&'a HiLine>,
    /// Whether the game-over box is up.
    pub game_over: bool,
    /// The computer's next throw as the preview shows it; empty without
    /// a preview.
    pub planned: &'a [Planned],
    /// The key that starts a new game, named in the game-over box; `None`
    /// when a `-C` key has taken it.
    pub new_game_key: Option<char>,
    /// Whether the box asking to confirm a new game is up.
    pub confirm_new_game: bool,
}

/// The text of the game-over box.
const GAME_OVER: &str = "Game over, press a key...";
/// Column of the score and records lines in full mode.
const FULL_TEXT_COL: usize = 8;

/// Draws the board screen into `frame`.
pub fn draw(scene: &Scene, style: &Style, frame: &mut Frame) {
    draw_grid(scene.layout, style.board, frame);
    draw_cells(scene, style, frame);
    draw_preview(scene, style, frame);
    draw_score_and_records(scene, style, frame);
    draw_question(scene, style, frame);
}

/// Every cell of the board: its chip (or the walking chip), flashing,
/// jumping, the cursor, and a planned chip's mark.
fn draw_cells(scene: &Scene, style: &Style, frame: &mut Frame) {
    let layout = scene.layout;
    // Marked once a frame: looking each cell up in the lists would cost
    // cells × chips, which a big board's big removal makes seconds.
    let index = |pos: Pos| pos.y * layout.width + pos.x;
    let mut flashing = vec![false; layout.width * layout.height];
    for chip in scene.flashing {
        flashing[index(chip.pos)] = true;
    }
    let mut planned: Vec<Option<Color>> = vec![None; flashing.len()];
    for chip in scene.planned {
        if let Some(pos) = chip.pos {
            planned[index(pos)].get_or_insert(chip.color);
        }
    }
    for pos in shown_cells(scene) {
        let chip = match scene.walker {
            Some(walker) if walker.pos == pos => Some(walker.color),
            _ => scene.board.get(pos),
        };
        let look = chip.map(|color| {
            let mut look = style.chip(color);
            if flashing[index(pos)] {
                look.ink = style.cursor_ink;
                if !style.color {
                    look.glyph = style.cursor;
                }
            }
            look
        });
        let tick = scene
            .jumping
            .and_then(|(p, tick)| (p == pos && chip.is_some()).then_some(tick));
        let mark = match chip {
            None => planned[index(pos)].map(|color| style.chip(color)),
            Some(_) => None,
        };
        let cell = CellView {
            pos,
            look,
            tick,
            cursor: scene.cursor == Some(pos),
        };
        if layout.wide {
            draw_wide_cell(layout, &cell, style, frame);
        } else if layout.draws_diamonds() {
            draw_full_cell(layout, &cell, style, frame);
        } else {
            draw_mini_cell(layout, &cell, style, frame);
        }
        if let Some(mark) = mark.filter(|_| !cell.cursor) {
            draw_mark(layout, pos, mark, frame);
        }
    }
}

/// The cells that show something, in reading order, each once: those with
/// a chip (the walking one too), the cursor's and the planned ones. An
/// empty cell without the cursor or a mark shows the blank the frame starts
/// with, so only these are drawn: on a big, mostly empty board, visiting
/// every cell was most of the time a frame took. In reading order, the
/// rows stay written left to right.
fn shown_cells(scene: &Scene) -> Vec<Pos> {
    let layout = scene.layout;
    let on_board = |pos: &Pos| pos.x < layout.width && pos.y < layout.height;
    let reading = |pos: &Pos| (pos.y, pos.x);
    // The board gives its chips in reading order: the few other cells are
    // sorted apart and merged in, in time linear in the chips.
    let walker = scene.walker.map(|walker| walker.pos);
    let planned = scene.planned.iter().filter_map(|chip| chip.pos);
    let mut others: Vec<Pos> = (walker.into_iter().chain(scene.cursor).chain(planned))
        .filter(on_board)
        .collect();
    others.sort_unstable_by_key(reading);
    let mut others = others.into_iter().peekable();
    let mut shown = Vec::with_capacity(scene.board.chip_count() + others.len());
    for chip in scene.board.chips().map(|chip| chip.pos).filter(on_board) {
        while let Some(other) = others.next_if(|other| reading(other) < reading(&chip)) {
            shown.push(other);
        }
        shown.push(chip);
    }
    shown.extend(others);
    shown.dedup();
    shown
}

/// The score line at the top and the records line at the bottom.
fn draw_score_and_records(scene: &Scene, style: &Style, frame: &mut Frame) {
    let layout = scene.layout;
    if let Some((col, text)) = score_line(scene, frame.cols()) {
        frame.text(0, col, &text, style.board);
    }
    if let Some(records) = scene.records {
        let bottom = layout.rows() - 1;
        // Cut to end before the right border, whatever the name's length.
        let room = layout.cols() - 1;
        if layout.draws_diamonds() {
            let text = records.full_text_within(room.saturating_sub(FULL_TEXT_COL));
            frame.text(bottom, FULL_TEXT_COL, &text, style.board);
        } else {
            frame.text(bottom, 1, &records.mini_text_within(room - 1), style.board);
        }
    }
}

/// The score line on the top border and its first column, once there is
/// a score, whole within the screen's `cols`: a narrow board's full-mode
/// line that does not fit takes the mini-mode form, and one that still
/// does not is left out, since a score cut at the edge would show a wrong
/// one.
fn score_line(scene: &Scene, cols: usize) -> Option<(usize, String)> {
    let score = scene.score;
    if score == 0 {
        return None;
    }
    let full = (FULL_TEXT_COL, format!("=[ score : {score} ]="));
    let mini = (1, format!("[ s: {score} ]"));
    let forms = if scene.layout.draws_diamonds() {
        vec![full, mini]
    } else {
        vec![mini]
    };
    forms
        .into_iter()
        .find(|(col, text)| col + text.chars().count() <= cols)
}

/// The game-over box or the new-game question, when either is up.
fn draw_question(scene: &Scene, style: &Style, frame: &mut Frame) {
    if scene.game_over {
        let mut lines = vec![GAME_OVER.to_string()];
        if let Some(key) = scene.new_game_key {
            lines.push(format!("{key} starts a new game"));
        }
        // The original's box where it fits; broken to fit where not.
        let inner = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        if inner + 3 <= frame.cols() {
            draw_box(&lines, style.board, frame);
        } else {
            draw_text_box(&lines, style.board, frame);
        }
    } else if let Some(key) = scene.new_game_key.filter(|_| scene.confirm_new_game) {
        // The box asks for the key that starts a new game, the only one
        // that can put it up.
        let lines = [
            format!("New game? Press {key} again,"),
            "any other key goes back.".to_string(),
        ];
        draw_text_box(&lines, style.board, frame);
    }
}

/// `lines` in a box from row 1, column 1, `+` at the corners, `-` and `|`
/// along the sides, as wide as the longest line: the game-over box's frame,
/// used by every box drawn over the board.
pub fn draw_box(lines: &[String], ink: Ink, frame: &mut Frame) {
    let inner = draw_sides(lines, 2, ink, frame);
    let edge = format!("+{}+", "-".repeat(inner));
    frame.text(1, 1, &edge, ink);
    frame.text(2 + lines.len(), 1, &edge, ink);
}

/// `lines` from row `top`, column 1, between `|` and `|`, as wide as the
/// longest line: a box without its top and bottom edges. That width.
fn draw_sides(lines: &[String], top: usize, ink: Ink, frame: &mut Frame) -> usize {
    let inner = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    for (i, line) in lines.iter().enumerate() {
        frame.text(top + i, 1, &format!("|{line:inner$}|"), ink);
    }
    inner
}

/// `texts` in a box (see [`draw_box`]), each broken at spaces so that the
/// box and a column either side fit the frame. Where the lines are more
/// than the frame's rows hold, the last text (what a key does) is kept
/// whole and the others are cut, ending in `~`; the last text is cut too
/// where it alone is taller than the rows, keeping the first line of the
/// others. On a terminal too short for two lines between the box's edges
/// (3 or 4 rows), the edges are left out. A character that does not take
/// exactly one column (a path's CJK letters, say) is shown as `?`, so that
/// the box's right edge stays straight.
pub fn draw_text_box(texts: &[String], ink: Ink, frame: &mut Frame) {
    let width = frame.cols().saturating_sub(4).max(1);
    let lines_of = |text: &String| {
        let shown: String = text
            .chars()
            .map(|c| if c.width() == Some(1) { c } else { '?' })
            .collect();
        wrap(&shown, width)
    };
    let Some((last, others)) = texts.split_last() else {
        return;
    };
    let mut lines: Vec<String> = others.iter().flat_map(lines_of).collect();
    let mut last = lines_of(last);
    // Row 0 stays the board's; a row each for the box's edges, where they
    // leave room for a question and its answer.
    let edged = frame.rows() >= 5;
    let edges = if edged { 2 } else { 0 };
    let room = frame.rows().saturating_sub(1 + edges).max(1);
    if lines.len() + last.len() > room {
        let kept_of_others = usize::from(!lines.is_empty() && room >= 2);
        let cut_last = last.len() + kept_of_others > room;
        last.truncate(room - kept_of_others);
        let cut_others = lines.len() + last.len() > room;
        lines.truncate(room - last.len());
        if cut_others {
            mark_cut(lines.last_mut(), width);
        }
        if cut_last {
            mark_cut(last.last_mut(), width);
        }
    }
    lines.append(&mut last);
    if edged {
        draw_box(&lines, ink, frame);
    } else {
        draw_sides(&lines, 1, ink, frame);
    }
}

/// Ends `line`, if any, with [`CUT_MARK`], within `width` characters.
fn mark_cut(line: Option<&mut String>, width: usize) {
    if let Some(line) = line {
        if line.chars().count() == width {
            line.pop();
        }
        line.push(CUT_MARK);
    }
}

/// Ends a line of a box cut short, in ASCII as all the screen draws itself.
const CUT_MARK: char = '~';

/// `text` broken at spaces into lines of at most `width` characters (a
/// longer word is cut).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        let mut word: Vec<char> = word.chars().collect();
        match lines.last_mut() {
            Some(last) if last.chars().count() + 1 + word.len() <= width => {
                last.push(' ');
                last.extend(word);
                continue;
            }
            _ => {}
        }
        while word.len() > width {
            lines.push(word.drain(..width).collect());
        }
        lines.push(word.into_iter().collect());
    }
    lines
}

/// Draws the required-size lines and the request to resize.
pub fn draw_too_small(too_small: &TooSmall, style: &Style, frame: &mut Frame) {
    // Each line wraps onto the next rows at the terminal's width, as the
    // original's does, so that all of it can be read.
    let width = frame.cols().max(1);
    let lines = too_small.lines.iter().map(String::as_str).chain([RESIZE]);
    let mut row = 0;
    for line in lines {
        let chars: Vec<char> = line.chars().collect();
        for piece in chars.chunks(width) {
            frame.text(row, 0, &String::from_iter(piece), style.board);
            row += 1;
        }
    }
}

/// The coming throw on the top border, right-aligned: `[`, each chip's
/// glyph in its colour, `]`. It gives way to the score: chips that do not
/// fit beside it end in `+`, and with no room for one, nothing is drawn.
fn draw_preview(scene: &Scene, style: &Style, frame: &mut Frame) {
    if scene.planned.is_empty() {
        return;
    }
    let last = scene.layout.cols().saturating_sub(2);
    // Columns from 2 (the corner and one dash stay on the left), or from
    // the end of the score, to `last`.
    let from = score_line(scene, frame.cols()).map_or(2, |(col, text)| col + text.chars().count());
    let room = (last + 1).saturating_sub(from);
    if room < 3 {
        return;
    }
    let shown = scene.planned.len().min(room - 2);
    let first = last + 1 - (shown + 2);
    frame.set(0, first, '[', style.board);
    for (i, planned) in scene.planned.iter().take(shown).enumerate() {
        let look = style.chip(planned.color);
        frame.set(0, first + 1 + i, look.glyph, look.ink);
    }
    if shown < scene.planned.len() {
        frame.set(0, first + shown, '+', style.board);
    }
    frame.set(0, last, ']', style.board);
}

/// A planned landing cell's mark: the chip's small glyph in its colour, in
/// the middle of the cell (two glyphs side by side where the interior is an
/// even number of columns wide, like the top of a diamond); in a 2 × 2
/// mini cell, its bottom-right corner.
fn draw_mark(layout: &Layout, pos: Pos, look: ChipLook, frame: &mut Frame) {
    let (top, left) = layout.origin(pos);
    let (height, width) = (layout.interior(), layout.interior_width());
    let row = top + height / 2;
    let cols = if width % 2 == 0 && layout.draws_diamonds() {
        width / 2 - 1..=width / 2
    } else {
        width / 2..=width / 2
    };
    for col in cols {
        frame.set(row, left + col, look.jumping, look.ink);
    }
}

/// `|` at every cell boundary column, `-` along every boundary row between
/// the outer columns, so inner crossings show `-`. Each row is written left
/// to right, which keeps the frame's rows in order at no cost. The rows
/// between boundary rows are all alike: the first is drawn and the others
/// copied, a copy of its runs each instead of a write per cell boundary.
fn draw_grid(layout: &Layout, ink: Ink, frame: &mut Frame) {
    let (s, last) = (layout.cell, layout.cols() - 1);
    let mut first_between = None;
    for row in 0..layout.rows() {
        if row % s == 0 {
            frame.set(row, 0, '|', ink);
            frame.fill(row, 1, last - 1, '-', ink);
            frame.set(row, last, '|', ink);
        } else if let Some(first) = first_between {
            frame.copy_row(first, row);
        } else {
            for k in 0..=layout.width {
                frame.set(row, layout.line_col(k), '|', ink);
            }
            first_between = Some(row);
        }
    }
}

/// What one cell holds.
struct CellView {
    pos: Pos,
    /// The chip there, as it looks now.
    look: Option<ChipLook>,
    /// The jump tick when the chip there is selected.
    tick: Option<u64>,
    cursor: bool,
}

/// Full mode: a diamond, raised while jumping; the cursor is a block on
/// an empty cell and hollows out a chip.
fn draw_full_cell(layout: &Layout, cell: &CellView, style: &Style, frame: &mut Frame) {
    let side = layout.interior();
    let (top, left) = layout.origin(cell.pos);
    // Rows and columns 1 ..= side − 2: the cursor's block.
    let inner = 1..side - 1;
    match cell.look {
        None if cell.cursor => {
            for r in inner.clone() {
                frame.fill(
                    top + r,
                    left + 1,
                    inner.len(),
                    style.cursor,
                    style.cursor_ink,
                );
            }
        }
        None => {}
        Some(look) => {
            let shift = cell.tick.map_or(0, layout::jump_shift);
            for r in 0..side {
                let Some((first, last)) = layout::diamond_span(side, r, shift) else {
                    continue;
                };
                if cell.cursor && inner.contains(&r) {
                    // Hollow: the two ends only.
                    frame.set(top + r, left + first, look.glyph, look.ink);
                    frame.set(top + r, left + last, look.glyph, look.ink);
                } else {
                    frame.fill(
                        top + r,
                        left + first,
                        last + 1 - first,
                        look.glyph,
                        look.ink,
                    );
                }
            }
        }
    }
}

/// Wide cells, 3 × 1: a chip is its glyph three times (the jumping glyph
/// on half the ticks while selected, as a 1-character mini cell); the
/// cursor is its glyph three times on an empty cell and frames a chip on
/// both sides.
fn draw_wide_cell(layout: &Layout, cell: &CellView, style: &Style, frame: &mut Frame) {
    let (row, left) = layout.origin(cell.pos);
    let glyphs = match cell.look {
        None if cell.cursor => [(style.cursor, style.cursor_ink); 3],
        None => return,
        Some(look) => {
            let jumping = cell
                .tick
                .is_some_and(|tick| layout::mini_jumping_glyph(1, tick));
            let chip = (if jumping { look.jumping } else { look.glyph }, look.ink);
            if cell.cursor {
                let cursor = (style.cursor, style.cursor_ink);
                [cursor, chip, cursor]
            } else {
                [chip; 3]
            }
        }
    };
    for (i, (glyph, ink)) in glyphs.into_iter().enumerate() {
        frame.set(row, left + i, glyph, ink);
    }
}

/// Mini mode: the whole interior is one glyph; the cursor's glyph replaces
/// it (in the chip's colour on a chip), except on the ticks a selected chip
/// shows its jumping glyph.
fn draw_mini_cell(layout: &Layout, cell: &CellView, style: &Style, frame: &mut Frame) {
    let side = layout.interior();
    let (top, left) = layout.origin(cell.pos);
    let (glyph, ink, blank_rows) = match cell.look {
        None if cell.cursor => (style.cursor, style.cursor_ink, [false, false]),
        None => return,
        Some(look) => {
            let mut glyph = if cell.cursor {
                style.cursor
            } else {
                look.glyph
            };
            let mut blank_rows = [false, false];
            // The jump wins over the cursor, as in the original: a chip
            // selected under the cursor must still be seen to jump.
            if let Some(tick) = cell.tick {
                if layout::mini_jumping_glyph(side, tick) {
                    glyph = look.jumping;
                }
                blank_rows = layout::mini_blank_rows(side, tick);
            }
            (glyph, look.ink, blank_rows)
        }
    };
    for r in 0..side {
        if blank_rows.get(r) == Some(&true) {
            continue;
        }
        frame.fill(top + r, left, side, glyph, ink);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn style(color: bool) -> Style {
        Style::new(&Appearance::for_colors(5), 5, color)
    }

    fn scene<'a>(layout: &'a Layout, board: &'a Board) -> Scene<'a> {
        Scene {
            layout,
            board,
            cursor: None,
            jumping: None,
            walker: None,
            flashing: &[],
            score: 0,
            records: None,
            game_over: false,
            planned: &[],
            new_game_key: None,
            confirm_new_game: false,
        }
    }

    /// The screen rows as text, trailing blanks cut.
    fn screen_rows(frame: &Frame) -> Vec<String> {
        (0..frame.rows())
            .map(|r| {
                let line: String = (0..frame.cols()).map(|c| frame.get(r, c).ch).collect();
                line.trim_end().to_string()
            })
            .collect()
    }

    fn render(scene: &Scene, style: &Style, cols: usize, rows_: usize) -> Frame {
        let mut frame = Frame::new(cols, rows_);
        draw(scene, style, &mut frame);
        frame
    }

    /// The interior of cell `pos` as text lines.
    fn interior(frame: &Frame, layout: &Layout, pos: Pos) -> Vec<String> {
        let (top, left) = layout.origin(pos);
        (0..layout.interior())
            .map(|r| {
                (0..layout.interior())
                    .map(|c| frame.get(top + r, left + c).ch)
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_full_board_in_a_huge_terminal_takes_little_memory() {
        // 81 diamonds of 666-character cells: 18 million characters, 290 MB
        // when a frame held every cell of its rows.
        let side = 6000;
        let layout = Layout::fit(CellShape::Square, side, side, 9, 9).unwrap();
        let mut board = Board::new(9, 9);
        for y in 0..9 {
            for x in 0..9 {
                board.set(Pos::new(x, y), Some(1 + (x + y) as u8 % 5));
            }
        }
        let mut scene = scene(&layout, &board);
        scene.cursor = Some(Pos::new(4, 4));
        let frame = render(&scene, &style(true), side, side);
        let (top, left) = layout.origin(Pos::new(8, 8));
        let middle = layout.interior() / 2;
        assert_eq!(frame.get(top + middle, left + middle).ch, 'O');
        let held = frame.heap_bytes();
        assert!(held <= 8 << 20, "{held} bytes");
    }

    /// Every row of the grid, the copied ones too, holds `|` at each cell
    /// boundary column and `-` along each boundary row, written cell by
    /// cell here as the model: mini, full and wide cells.
    #[test]
    fn copied_grid_rows_match_a_grid_drawn_cell_by_cell() {
        for (shape, cols, rows, width, height) in [
            (CellShape::Square, 23, 12, 11, 5),
            (CellShape::Square, 100, 50, 9, 9),
            (CellShape::Wide, 60, 20, 9, 7),
        ] {
            let layout = Layout::fit(shape, cols, rows, width, height).unwrap();
            let mut frame = Frame::new(cols, rows);
            draw_grid(&layout, Some(7), &mut frame);
            for row in 0..rows {
                for col in 0..cols {
                    let on_board = row < layout.rows() && col < layout.cols();
                    let boundary_col = (0..=width).any(|k| layout.line_col(k) == col);
                    let expected = match () {
                        _ if !on_board => ' ',
                        _ if row % layout.cell == 0 => {
                            if col == 0 || col == layout.cols() - 1 {
                                '|'
                            } else {
                                '-'
                            }
                        }
                        _ if boundary_col => '|',
                        _ => ' ',
                    };
                    assert_eq!(frame.get(row, col).ch, expected, "{shape:?} {row} {col}");
                }
            }
        }
    }

    /// A chip walking its path is drawn over the empty cells it crosses,
    /// in full and mini mode.
    #[test]
    fn a_walking_chip_shows_on_an_empty_cell() {
        for (cols, rows) in [(100, 50), (23, 12)] {
            let layout = Layout::fit(CellShape::Square, cols, rows, 9, 5).unwrap();
            let board = Board::new(9, 5);
            let mut scene = scene(&layout, &board);
            let pos = Pos::new(4, 2);
            scene.walker = Some(Chip { pos, color: 2 });
            let frame = render(&scene, &style(true), cols, rows);
            let (top, left) = layout.origin(pos);
            let middle = layout.interior() / 2;
            let cell = frame.get(top + middle, left + middle);
            assert_eq!((cell.ch, cell.ink), ('O', style(true).chips[1].ink));
        }
    }

    #[test]
    fn grid_lines() {
        let layout = Layout::fit(CellShape::Square, 100, 50, 9, 9).unwrap();
        let board = Board::new(9, 9);
        let frame = render(&scene(&layout, &board), &style(true), 100, 50);
        let rows = screen_rows(&frame);
        assert_eq!(rows[0], format!("|{}|", "-".repeat(44)));
        assert_eq!(rows[1], "|    ".repeat(9) + "|");
        assert_eq!(rows[45], rows[0]);
        assert_eq!(rows[46], "");
        assert_eq!(frame.get(5, 5).ch, '-');
        assert_eq!(frame.get(5, 0).ch, '|');
        assert_eq!(frame.get(0, 0).ink, Some(7));
    }

    #[test]
    fn diamond_chips_and_cursor() {
        let layout = Layout::fit(CellShape::Square, 60, 30, 5, 4).unwrap();
        assert_eq!(layout.cell, 7);
        let mut board = Board::new(5, 4);
        board.set(Pos::new(1, 1), Some(2));
        let mut scene = scene(&layout, &board);
        let frame = render(&scene, &style(true), 60, 30);
        assert_eq!(
            interior(&frame, &layout, Pos::new(1, 1)),
            ["      ", "  OO  ", " OOOO ", "OOOOOO", " OOOO ", "  OO  "]
        );
        let (top, left) = layout.origin(Pos::new(1, 1));
        assert_eq!(frame.get(top + 3, left).ink, Some(2));
        // The cursor hollows the chip on rows and columns 1 ..= L − 2.
        scene.cursor = Some(Pos::new(1, 1));
        let frame = render(&scene, &style(true), 60, 30);
        assert_eq!(
            interior(&frame, &layout, Pos::new(1, 1)),
            ["      ", "  OO  ", " O  O ", "O    O", " O  O ", "  OO  "]
        );
        // On an empty cell it is a block.
        scene.cursor = Some(Pos::new(0, 0));
        let frame = render(&scene, &style(true), 60, 30);
        assert_eq!(
            interior(&frame, &layout, Pos::new(0, 0)),
            ["      ", " IIII ", " IIII ", " IIII ", " IIII ", "      "]
        );
        assert_eq!(frame.get(2, 2).ink, Some(7));
    }

    #[test]
    fn jumping_diamond_shifts() {
        let layout = Layout::fit(CellShape::Square, 100, 50, 9, 9).unwrap();
        let mut board = Board::new(9, 9);
        board.set(Pos::new(0, 0), Some(1));
        let mut scene = scene(&layout, &board);
        let shapes: Vec<Vec<String>> = (0..4)
            .map(|tick| {
                scene.jumping = Some((Pos::new(0, 0), tick));
                interior(
                    &render(&scene, &style(true), 100, 50),
                    &layout,
                    Pos::new(0, 0),
                )
            })
            .collect();
        assert_eq!(shapes[0], ["    ", " OO ", "OOOO", " OO "]);
        assert_eq!(shapes[1], [" OO ", "OOOO", " OO ", "    "]);
        assert_eq!(shapes[2], shapes[0]);
        assert_eq!(shapes[3], ["    ", "    ", " OO ", "OOOO"]);
    }

    #[test]
    fn mini_glyphs() {
        let layout = Layout::fit(CellShape::Square, 40, 30, 9, 9).unwrap();
        assert_eq!(layout.cell, 3);
        let mut board = Board::new(9, 9);
        board.set(Pos::new(2, 0), Some(3));
        let mut scene = scene(&layout, &board);
        let at = |scene: &Scene| {
            interior(
                &render(scene, &style(true), 40, 30),
                &layout,
                Pos::new(2, 0),
            )
        };
        assert_eq!(at(&scene), ["OO", "OO"]);
        scene.cursor = Some(Pos::new(2, 0));
        assert_eq!(at(&scene), ["II", "II"]);
        let frame = render(&scene, &style(true), 40, 30);
        assert_eq!(frame.get(1, 7).ink, Some(3));
        scene.cursor = None;
        scene.jumping = Some((Pos::new(2, 0), 1));
        assert_eq!(at(&scene), ["  ", "OO"]);
        scene.jumping = Some((Pos::new(2, 0), 7));
        assert_eq!(at(&scene), ["OO", "  "]);
        scene.jumping = Some((Pos::new(2, 0), 4));
        assert_eq!(at(&scene), ["OO", "OO"]);

        let tiny = Layout::fit(CellShape::Square, 80, 24, 9, 9).unwrap();
        let mut scene = super::tests::scene(&tiny, &board);
        scene.jumping = Some((Pos::new(2, 0), 0));
        let frame = render(&scene, &style(true), 80, 24);
        assert_eq!(frame.get(1, 5).ch, 'o');
        scene.jumping = Some((Pos::new(2, 0), 4));
        let frame = render(&scene, &style(true), 80, 24);
        assert_eq!(frame.get(1, 5).ch, 'O');
        // Under the cursor the chip jumps too: the jumping glyph on half
        // the ticks, the cursor's on the others, in the chip's colour.
        scene.cursor = Some(Pos::new(2, 0));
        let glyphs: Vec<char> = (0..8)
            .map(|tick| {
                scene.jumping = Some((Pos::new(2, 0), tick));
                render(&scene, &style(true), 80, 24).get(1, 5).ch
            })
            .collect();
        assert_eq!(glyphs, ['o', 'o', 'o', 'o', 'I', 'I', 'I', 'I']);
        assert_eq!(render(&scene, &style(true), 80, 24).get(1, 5).ink, Some(3));
        let mut mono = |tick| {
            scene.jumping = Some((Pos::new(2, 0), tick));
            render(&scene, &style(false), 80, 24).get(1, 5).ch
        };
        assert_eq!((mono(0), mono(4)), ('a', '*'));
    }

    #[test]
    fn mono_glyphs_and_flash() {
        let layout = Layout::fit(CellShape::Square, 40, 30, 9, 9).unwrap();
        let mut board = Board::new(9, 9);
        board.set(Pos::new(0, 0), Some(2));
        board.set(Pos::new(1, 0), Some(1));
        let flashing = [Chip {
            pos: Pos::new(1, 0),
            color: 1,
        }];
        let mut scene = scene(&layout, &board);
        scene.flashing = &flashing;
        let frame = render(&scene, &style(false), 40, 30);
        assert_eq!(frame.get(1, 1), super::super::frame::Cell::new('V', None));
        assert_eq!(frame.get(1, 4).ch, '*');
        let frame = render(&scene, &style(true), 40, 30);
        assert_eq!(
            frame.get(1, 4),
            super::super::frame::Cell::new('O', Some(7))
        );
        assert_eq!(frame.get(0, 0).ink, Some(7));
    }

    #[test]
    fn score_records_and_game_over() {
        let layout = Layout::fit(CellShape::Square, 100, 50, 9, 9).unwrap();
        let board = Board::new(9, 9);
        let records = HiLine::Other {
            name: "ann".into(),
            score: 120,
            you: 30,
        };
        let mut scene = scene(&layout, &board);
        scene.score = 42;
        scene.records = Some(&records);
        scene.game_over = true;
        let rows = screen_rows(&render(&scene, &style(true), 100, 50));
        assert_eq!(&rows[0][8..23], "=[ score : 42 ]");
        assert_eq!(&rows[0][..9], "|-------=");
        assert!(
            rows[45][8..].starts_with("=[ hi -- ann:120 you:30 ]="),
            "{}",
            rows[45]
        );
        assert_eq!(&rows[1][..28], "|+-------------------------+");
        assert_eq!(&rows[2][..28], "||Game over, press a key...|");
        assert_eq!(rows[3][..28], rows[1][..28]);
        let own = HiLine::Own { score: 50 };
        scene.records = Some(&own);
        let rows_full = screen_rows(&render(&scene, &style(true), 100, 50));
        assert!(rows_full[45][8..].starts_with("=[ hi : 50 ]=-"));
        let mini = Layout::fit(CellShape::Square, 40, 30, 9, 9).unwrap();
        scene.layout = &mini;
        let rows = screen_rows(&render(&scene, &style(true), 40, 30));
        assert!(rows[0].starts_with("|[ s: 42 ]-"), "{}", rows[0]);
        assert!(rows[27].starts_with("|[ hi : 50 ]-"), "{}", rows[27]);
    }

    /// A narrow board on a terminal as narrow: the score is shown whole, in
    /// the mini-mode form where the full one does not fit, or not at all;
    /// never cut at the edge, where it would read as another score.
    #[test]
    fn the_score_line_is_never_cut_at_the_screen_edge() {
        let cases = [
            // Full mode (cells of 4) on a 3-wide board: the mini form.
            (3, 13, "|[ s: 12345 ]"),
            (2, 9, "|-------|"),
            (1, 5, "|---|"),
            // Mini mode, the found case: 2x2 board on a 5x5 terminal.
            (2, 5, "|---|"),
        ];
        for (width, cols, top) in cases {
            let layout = Layout::fit(CellShape::Square, cols, 30, width, 5).unwrap();
            let board = Board::new(width, 5);
            let mut scene = scene(&layout, &board);
            scene.score = 12345;
            let rows = screen_rows(&render(&scene, &style(true), cols, 30));
            assert_eq!(rows[0], top, "{width} wide on {cols} columns");
        }
    }

    /// The new-game question on a terminal narrower than its lines: broken
    /// at spaces inside a box that ends before the right edge, every word
    /// there in order.
    #[test]
    fn the_new_game_question_is_broken_to_fit_a_narrow_terminal() {
        let (cols, rows_) = (20, 14);
        let layout = Layout::fit(CellShape::Square, cols, rows_, 2, 2).unwrap();
        let board = Board::new(2, 2);
        let mut scene = scene(&layout, &board);
        scene.confirm_new_game = true;
        scene.new_game_key = Some('n');
        let rows = screen_rows(&render(&scene, &style(true), cols, rows_));
        let edge = &rows[1][1..];
        assert!(edge.starts_with("+-") && edge.ends_with("-+"), "{rows:?}");
        let width = edge.chars().count();
        assert!(width < cols - 1, "{rows:?}");
        let inside: Vec<&str> = rows[2..]
            .iter()
            .take_while(|row| !row[1..].starts_with('+'))
            .map(|row| {
                assert_eq!(row[1..width + 1].chars().last(), Some('|'), "{rows:?}");
                row[2..width].trim()
            })
            .collect();
        assert!(inside.len() > 2, "broken into more lines: {rows:?}");
        assert_eq!(
            inside.join(" "),
            "New game? Press n again, any other key goes back."
        );
        assert_eq!(rows[2 + inside.len()][1..width + 1], *edge);
    }

    #[test]
    fn a_text_box_too_tall_keeps_its_last_text_and_wide_letters_keep_it_straight() {
        let (cols, rows) = (30, 10);
        let long = format!(
            "/home/{}/scores: it is damaged",
            "very-long-name ".repeat(20)
        );
        let texts = [
            "The saved game cannot be resumed:".to_string(),
            long,
            "Any key goes on to a new game.".to_string(),
        ];
        let mut frame = Frame::new(cols, rows);
        draw_text_box(&texts, None, &mut frame);
        let shown = screen_rows(&frame);
        // Rows 1 and 9 are the edges: 7 lines inside, the last two what a
        // key does, the one before them cut.
        assert!(
            shown[1][1..].starts_with("+-") && shown[9][1..].starts_with("+-"),
            "{shown:#?}"
        );
        let inside: Vec<&str> = shown[2..9]
            .iter()
            .map(|row| {
                row.trim_start_matches(" |")
                    .trim_end_matches('|')
                    .trim_end()
            })
            .collect();
        assert_eq!(inside[0], "The saved game cannot be");
        assert_eq!(
            inside[5..],
            ["Any key goes on to a new", "game."],
            "{shown:#?}"
        );
        assert!(inside[4].ends_with('~'), "{shown:#?}");
        // Where what a key does is itself too tall, it is cut and marked,
        // after the first line of the rest.
        let mut frame = Frame::new(7, 7);
        draw_text_box(&texts, None, &mut frame);
        let shown = screen_rows(&frame);
        assert_eq!(
            shown[2..6],
            [" |Th~|", " |Any|", " |key|", " |go~|"],
            "{shown:#?}"
        );
        let mut frame = Frame::new(cols, rows);
        draw_text_box(&["家 /tmp/数据 is full".to_string()], None, &mut frame);
        let shown = screen_rows(&frame);
        assert_eq!(shown[2], " |? /tmp/?? is full|", "{shown:#?}");
    }

    /// A terminal of 3 or 4 rows (a board one cell tall) shows a text box's
    /// question and its answer without the box's edges; on 5 rows the
    /// edges leave room for a line of each.
    #[test]
    fn a_box_on_a_short_terminal_keeps_its_question_and_its_answer() {
        let question = [
            "New game? Press n again,".to_string(),
            "any other key goes back.".to_string(),
        ];
        for rows in [3, 4] {
            let mut frame = Frame::new(40, rows);
            draw_text_box(&question, None, &mut frame);
            let shown = screen_rows(&frame);
            assert_eq!(
                shown[1..3],
                [" |New game? Press n again,|", " |any other key goes back.|"],
                "{shown:#?}"
            );
        }
        let warning = [
            "Colour 1 is given twice: two colours look the same.".to_string(),
            "Any key goes on to the game.".to_string(),
        ];
        let mut frame = Frame::new(19, 5);
        draw_text_box(&warning, None, &mut frame);
        let shown = screen_rows(&frame);
        assert_eq!(
            shown[1..5],
            [
                " +---------------+",
                " |Colour 1 is~   |",
                " |Any key goes o~|",
                " +---------------+"
            ],
            "{shown:#?}"
        );
        // The game-over box stays the original's, cut by the screen's
        // bottom as the original's is: its own line shows.
        let board = Board::new(9, 1);
        let layout = Layout::fit(CellShape::Square, 40, 3, 9, 1).unwrap();
        let mut scene = scene(&layout, &board);
        scene.game_over = true;
        scene.new_game_key = Some('n');
        let rows = screen_rows(&render(&scene, &style(true), 40, 3));
        assert_eq!(rows[1][1..].trim_end(), "+-------------------------+");
        assert_eq!(rows[2][1..].trim_end(), "|Game over, press a key...|");
    }

    /// The game-over box is the original's wherever it fits, to the last
    /// column; on a narrower terminal its lines are broken to fit.
    #[test]
    fn the_game_over_box_is_broken_only_where_it_does_not_fit() {
        let board = Board::new(2, 2);
        for cols in [28, 20] {
            let layout = Layout::fit(CellShape::Square, cols, 14, 2, 2).unwrap();
            let mut scene = scene(&layout, &board);
            scene.game_over = true;
            let rows = screen_rows(&render(&scene, &style(true), cols, 14));
            if cols == 28 {
                assert_eq!(&rows[2][1..], "|Game over, press a key...|");
                assert_eq!(&rows[3][1..], "+-------------------------+");
                continue;
            }
            let width = rows[1][1..].chars().count();
            assert!(width < cols - 1, "{rows:?}");
            let inside: Vec<&str> = rows[2..]
                .iter()
                .take_while(|row| !row[1..].starts_with('+'))
                .map(|row| row[2..width].trim())
                .collect();
            assert_eq!(inside.join(" "), "Game over, press a key...");
        }
    }

    #[test]
    fn a_long_hi_line_stops_at_the_border() {
        let board = Board::new(9, 9);
        let records = HiLine::Other {
            name: "a-very-long-user-name-indeed".into(),
            score: 120,
            you: 30,
        };
        let full = Layout::fit(CellShape::Square, 37, 37, 9, 9).unwrap();
        let mut scene = scene(&full, &board);
        scene.records = Some(&records);
        let rows = screen_rows(&render(&scene, &style(true), 37, 37));
        assert_eq!(rows[36], "|-------=[ hi -- a-ve~:120 you:30 ]=|");
        let huge = HiLine::Own {
            score: 123_456_789_012,
        };
        scene.records = Some(&huge);
        let mini = Layout::fit(CellShape::Square, 19, 19, 9, 9).unwrap();
        scene.layout = &mini;
        let rows = screen_rows(&render(&scene, &style(true), 19, 19));
        // A score that does not fit is left out, never cut.
        assert_eq!(rows[18], "|-----------------|");
        let just = HiLine::Own { score: 123_456_789 };
        scene.records = Some(&just);
        let rows = screen_rows(&render(&scene, &style(true), 19, 19));
        assert_eq!(rows[18], "|[ hi : 123456789~|");
    }

    #[test]
    fn styles_from_options() {
        let mut appearance = Appearance::for_colors(3);
        appearance.palette = vec![6, 9, 200];
        appearance.bw_font = "#ab".chars().collect();
        let color = Style::new(&appearance, 3, true);
        assert_eq!((color.cursor, color.cursor_ink), ('I', Some(6)));
        let inks: Vec<Ink> = color.chips.iter().map(|c| c.ink).collect();
        // A palette too short for the colours falls back to white.
        assert_eq!(inks, [Some(9), Some(200), Some(7)]);
        let mono = Style::new(&appearance, 3, false);
        assert_eq!(
            (mono.cursor, mono.cursor_ink, mono.board),
            ('#', None, None)
        );
        let glyphs: Vec<(char, char)> = mono.chips.iter().map(|c| (c.glyph, c.jumping)).collect();
        assert_eq!(glyphs, [('a', 'b'), ('?', '?'), ('?', '?')]);
    }

    proptest::proptest! {
        #[test]
        fn the_cells_shown_are_every_one_once_in_reading_order(
            chips in proptest::collection::vec(proptest::bool::ANY, 35),
            others in proptest::collection::vec((0usize..8, 0usize..6), 0..6),
        ) {
            // 7 × 5 board; some of the other cells lie off it.
            let mut board = Board::new(7, 5);
            for (i, &taken) in chips.iter().enumerate() {
                if taken {
                    board.set(Pos::new(i % 7, i / 7), Some(1));
                }
            }
            let layout = Layout::fit(CellShape::Square, 100, 50, 7, 5).unwrap();
            let pos = |i: usize| others.get(i).map(|&(x, y)| Pos::new(x, y));
            let marked: Vec<_> = others.iter().skip(2).map(|&xy| (Some(xy), 2)).collect();
            let marks = planned(&marked);
            let mut scene = scene(&layout, &board);
            scene.cursor = pos(0);
            scene.walker = pos(1).map(|pos| Chip { pos, color: 3 });
            scene.planned = &marks;
            let mut expected: Vec<Pos> = (board.chips().map(|chip| chip.pos))
                .chain(others.iter().map(|&(x, y)| Pos::new(x, y)))
                .filter(|pos| pos.x < 7 && pos.y < 5)
                .collect();
            expected.sort_by_key(|pos| (pos.y, pos.x));
            expected.dedup();
            proptest::prop_assert_eq!(shown_cells(&scene), expected);
        }
    }

    fn planned(list: &[(Option<(usize, usize)>, Color)]) -> Vec<Planned> {
        list.iter()
            .map(|&(pos, color)| Planned {
                pos: pos.map(|(x, y)| Pos::new(x, y)),
                color,
            })
            .collect()
    }

    #[test]
    fn preview_on_the_top_border_right_aligned_in_chip_glyphs_and_colours() {
        let board = Board::new(9, 9);
        let next = planned(&[(None, 1), (None, 3), (None, 2)]);
        for (cols, rows_) in [(100, 50), (80, 24)] {
            let layout = Layout::fit(CellShape::Square, cols, rows_, 9, 9).unwrap();
            let mut scene = scene(&layout, &board);
            scene.planned = &next;
            scene.score = 12;
            let frame = render(&scene, &style(true), cols, rows_);
            let top = &screen_rows(&frame)[0];
            let end = layout.cols() - 1;
            assert_eq!(&top[end - 5..], "[OOO]|", "{top}");
            let inks: Vec<Ink> = (end - 4..end - 1).map(|c| frame.get(0, c).ink).collect();
            assert_eq!(inks, [Some(1), Some(3), Some(2)]);
            assert_eq!(frame.get(0, end - 5).ink, Some(7));
            let frame = render(&scene, &style(false), cols, rows_);
            let top = &screen_rows(&frame)[0];
            assert_eq!(&top[end - 5..], "[OAV]|", "{top}");
            // The score is where it always is.
            assert!(top.contains("12"), "{top}");
        }
        // More chips than fit: as many as fit, then +.
        let layout = Layout::fit(CellShape::Square, 80, 24, 9, 9).unwrap();
        let many: Vec<Planned> = planned(&[(None, 1); 20]);
        let mut scene = scene(&layout, &board);
        scene.planned = &many;
        let top = screen_rows(&render(&scene, &style(true), 80, 24))[0].clone();
        assert_eq!(top, format!("|-[{}+]|", "O".repeat(13)));
        // A score gets the room it needs: the throw shows beside it, as
        // much of it as fits, or not at all, never a piece of it under it.
        let next = planned(&[(None, 1), (None, 3), (None, 2)]);
        scene.planned = &next;
        for (score, shown) in [
            (7, "|[ s: 7 ]----[OOO]|"),
            (77_777, "|[ s: 77777 ][OOO]|"),
            (777_777, "|[ s: 777777 ][O+]|"),
            (7_777_777, "|[ s: 7777777 ][+]|"),
            (77_777_777, "|[ s: 77777777 ]--|"),
        ] {
            scene.score = score;
            let top = screen_rows(&render(&scene, &style(true), 80, 24))[0].clone();
            assert_eq!(top, shown);
        }
    }

    #[test]
    fn landing_marks_are_one_small_glyph_mid_cell_and_yield_to_chips_and_cursor() {
        let mut board = Board::new(9, 9);
        board.set(Pos::new(4, 4), Some(2));
        let next = planned(&[(Some((1, 1)), 2), (Some((4, 4)), 3), (Some((0, 0)), 1)]);
        // Full mode, L = 4: two glyphs on the diamond's widest row.
        let layout = Layout::fit(CellShape::Square, 100, 50, 9, 9).unwrap();
        let mut scene = scene(&layout, &board);
        scene.planned = &next;
        scene.cursor = Some(Pos::new(0, 0));
        for color in [true, false] {
            let frame = render(&scene, &style(color), 100, 50);
            let small = if color { "oo" } else { "vv" };
            assert_eq!(
                interior(&frame, &layout, Pos::new(1, 1)),
                ["    ", "    ", &format!(" {small} "), "    "]
            );
            // A chip on a planned cell (a move there) is drawn as a chip.
            let big = if color { "OOOO" } else { "VVVV" };
            assert_eq!(interior(&frame, &layout, Pos::new(4, 4))[2], big);
            // The cursor hides the mark beneath it.
            let cursor = if color { " II " } else { " ** " };
            assert_eq!(interior(&frame, &layout, Pos::new(0, 0))[2], cursor);
        }
        let frame = render(&scene, &style(true), 100, 50);
        let (top, left) = layout.origin(Pos::new(1, 1));
        assert_eq!(frame.get(top + 2, left + 1).ink, Some(2));
        // Full mode, L = 6: row 3, columns 2-3; L = 5, odd: one glyph.
        let layout = Layout::fit(CellShape::Square, 70, 70, 9, 9).unwrap();
        scene.layout = &layout;
        let frame = render(&scene, &style(true), 70, 70);
        assert_eq!(interior(&frame, &layout, Pos::new(1, 1))[3], "  oo  ");
        let layout = Layout::fit(CellShape::Square, 61, 57, 9, 9).unwrap();
        scene.layout = &layout;
        let frame = render(&scene, &style(true), 61, 57);
        assert_eq!(interior(&frame, &layout, Pos::new(1, 1))[2], "  o  ");
        // Mini mode 2 x 2: the bottom-right corner; 1 x 1: the cell.
        let layout = Layout::fit(CellShape::Square, 40, 30, 9, 9).unwrap();
        scene.layout = &layout;
        let frame = render(&scene, &style(false), 40, 30);
        assert_eq!(interior(&frame, &layout, Pos::new(1, 1)), ["  ", " v"]);
        let layout = Layout::fit(CellShape::Square, 80, 24, 9, 9).unwrap();
        scene.layout = &layout;
        let frame = render(&scene, &style(false), 80, 24);
        assert_eq!(interior(&frame, &layout, Pos::new(1, 1)), ["v"]);
        assert_eq!(interior(&frame, &layout, Pos::new(4, 4)), ["V"]);
    }

    /// The interior of a wide cell `pos` as text.
    fn wide_interior(frame: &Frame, layout: &Layout, pos: Pos) -> String {
        let (row, left) = layout.origin(pos);
        (0..3).map(|c| frame.get(row, left + c).ch).collect()
    }

    #[test]
    fn wide_cells_grid_chips_cursor_jump_and_marks() {
        let layout = Layout::fit(CellShape::Wide, 80, 24, 9, 9).unwrap();
        let mut board = Board::new(9, 9);
        board.set(Pos::new(0, 0), Some(1));
        board.set(Pos::new(2, 1), Some(3));
        let next = planned(&[(Some((5, 5)), 2)]);
        let mut scene = scene(&layout, &board);
        scene.planned = &next;
        let rows = screen_rows(&render(&scene, &style(true), 80, 24));
        assert_eq!(rows[0], format!("|{}[O]|", "-".repeat(32)));
        assert_eq!(rows[1], format!("|OOO|{}", "   |".repeat(8)));
        assert_eq!(rows[2], format!("|{}|", "-".repeat(35)));
        assert_eq!(rows[3], format!("|   |   |OOO|{}", "   |".repeat(6)));
        assert_eq!(rows[18], rows[2]);
        assert_eq!(rows[19], "");
        scene.cursor = Some(Pos::new(0, 0));
        scene.jumping = Some((Pos::new(2, 1), 0));
        let frame = render(&scene, &style(false), 80, 24);
        assert_eq!(wide_interior(&frame, &layout, Pos::new(0, 0)), "*O*");
        assert_eq!(wide_interior(&frame, &layout, Pos::new(2, 1)), "aaa");
        assert_eq!(wide_interior(&frame, &layout, Pos::new(5, 5)), " v ");
        scene.jumping = Some((Pos::new(2, 1), 4));
        scene.cursor = Some(Pos::new(1, 0));
        let frame = render(&scene, &style(true), 80, 24);
        assert_eq!(wide_interior(&frame, &layout, Pos::new(2, 1)), "OOO");
        assert_eq!(wide_interior(&frame, &layout, Pos::new(1, 0)), "III");
        assert_eq!(frame.get(1, 5).ink, Some(7));
        assert_eq!(frame.get(11, 22).ink, Some(2));
        // Score and records as in mini mode.
        scene.score = 7;
        let rows = screen_rows(&render(&scene, &style(true), 80, 24));
        assert!(rows[0].starts_with("|[ s: 7 ]-"), "{}", rows[0]);
    }

    #[test]
    fn too_small_screen() {
        let too_small = Layout::fit(CellShape::Square, 18, 10, 9, 9).unwrap_err();
        let mut frame = Frame::new(60, 10);
        draw_too_small(&too_small, &style(false), &mut frame);
        let rows = screen_rows(&frame);
        assert_eq!(rows[0], "19 chars wide terminal required, now it's 18");
        assert_eq!(rows[1], "19 chars tall terminal required, now it's 10");
        assert_eq!(rows[2], "Please resize the window again");
    }
}
