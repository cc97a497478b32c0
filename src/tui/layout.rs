//! Screen geometry: the cell size for a terminal, where each cell's interior
//! lies, the diamond shape of a chip, and which cell a mouse click hit.
//!
//! Cells are square and sized to the terminal, as in the original, unless
//! `--cells wide` asks for a fixed shape: interiors 3 characters wide and 1
//! high between grid lines, so a 9 × 9 board takes 37 × 19 characters and
//! reads well on an 80 × 24 terminal, where square cells would be the
//! 19 × 19 mini board.

use crate::board::Pos;
use crate::cli::CellShape;

/// The smallest cell size: one interior character and a grid line.
pub const MIN_CELL: usize = 2;
/// From this cell size on chips are diamonds ("full mode"); below it each
/// interior is one glyph ("mini mode").
pub const FULL_CELL: usize = 4;

/// Columns from one grid line to the next with wide cells.
const WIDE_STRIDE: usize = 4;
/// Rows from one grid line to the next with wide cells.
const WIDE_ROWS: usize = 2;

/// Where the board is drawn: `cell` characters per cell, grid lines
/// included, for a board of `width` × `height` cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Characters from one grid line to the next (`s`); for wide cells,
    /// the rows from one grid line to the next (2).
    pub cell: usize,
    /// Board width in cells.
    pub width: usize,
    /// Board height in cells.
    pub height: usize,
    /// Whether cells are wide (3 × 1) rather than square.
    pub wide: bool,
}

/// The terminal is smaller than the board needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooSmall {
    /// One line per direction that does not fit, e.g.
    /// `19 chars wide terminal required, now it's 12`.
    pub lines: Vec<String>,
}

impl Layout {
    /// The layout of a `width` × `height` board of cells of `shape` on a
    /// terminal of `cols` × `rows`. Square cells take the largest size that
    /// fits, `min((cols − 1) / width, (rows − 1) / height)`; wide cells need
    /// `4·width + 1` columns and `2·height + 1` rows, and keep that size on
    /// any larger terminal.
    pub fn fit(
        shape: CellShape,
        cols: usize,
        rows: usize,
        width: usize,
        height: usize,
    ) -> Result<Layout, TooSmall> {
        if shape == CellShape::Wide {
            return Layout::fit_wide(cols, rows, width, height);
        }
        let across = cols.saturating_sub(1) / width;
        let down = rows.saturating_sub(1) / height;
        let mut lines = Vec::new();
        if across < MIN_CELL {
            lines.push(format!(
                "{} chars wide terminal required, now it's {cols}",
                MIN_CELL * width + 1
            ));
        }
        if down < MIN_CELL {
            lines.push(format!(
                "{} chars tall terminal required, now it's {rows}",
                MIN_CELL * height + 1
            ));
        }
        if lines.is_empty() {
            Ok(Layout {
                cell: across.min(down),
                width,
                height,
                wide: false,
            })
        } else {
            Err(TooSmall { lines })
        }
    }

    fn fit_wide(cols: usize, rows: usize, width: usize, height: usize) -> Result<Layout, TooSmall> {
        let layout = Layout {
            cell: WIDE_ROWS,
            width,
            height,
            wide: true,
        };
        let mut lines = Vec::new();
        if cols < layout.cols() {
            lines.push(format!(
                "{} chars wide terminal required, now it's {cols}",
                layout.cols()
            ));
        }
        if rows < layout.rows() {
            lines.push(format!(
                "{} chars tall terminal required, now it's {rows}",
                layout.rows()
            ));
        }
        if lines.is_empty() {
            Ok(layout)
        } else {
            Err(TooSmall { lines })
        }
    }

    /// Whether chips are drawn as diamonds.
    pub fn draws_diamonds(&self) -> bool {
        !self.wide && self.cell >= FULL_CELL
    }

    /// Side of a cell's interior (`L = s − 1`); the height of a wide one.
    pub fn interior(&self) -> usize {
        self.cell - 1
    }

    /// Columns from one grid line to the next.
    fn stride(&self) -> usize {
        if self.wide { WIDE_STRIDE } else { self.cell }
    }

    /// Width of a cell's interior: `L`, or 3 for a wide cell.
    pub fn interior_width(&self) -> usize {
        self.stride() - 1
    }

    /// Columns the board takes.
    pub fn cols(&self) -> usize {
        self.stride() * self.width + 1
    }

    /// Rows the board takes.
    pub fn rows(&self) -> usize {
        self.cell * self.height + 1
    }

    /// Screen column of grid line `k` (0 at the left edge).
    pub fn line_col(&self, k: usize) -> usize {
        k * self.stride()
    }

    /// Screen row and column of the top-left interior character of `pos`.
    pub fn origin(&self, pos: Pos) -> (usize, usize) {
        (pos.y * self.cell + 1, pos.x * self.stride() + 1)
    }

    /// The cell whose interior holds screen `row`, `col`; `None` on a grid
    /// line or off the board.
    pub fn cell_at(&self, row: usize, col: usize) -> Option<Pos> {
        let stride = self.stride();
        let pos = Pos::new(col / stride, row / self.cell);
        let on_line = row % self.cell == 0 || col % stride == 0;
        (!on_line && pos.x < self.width && pos.y < self.height).then_some(pos)
    }
}

/// The interior columns a diamond chip fills on interior row `row` of a
/// `side`-character interior, raised by `shift` rows (a jumping chip):
/// `d ..= side − 1 − d` with `d = |side / 2 − (row + shift)|`, or `None`
/// when the row is empty.
pub fn diamond_span(side: usize, row: usize, shift: i64) -> Option<(usize, usize)> {
    let d = (side as i64 / 2 - (row as i64 + shift)).unsigned_abs() as usize;
    (d + d < side).then(|| (d, side - 1 - d))
}

/// Full-mode vertical offsets of a jumping chip, one a tick, repeating.
const JUMP_SHIFTS: [i64; 4] = [0, 1, 0, -1];
/// Mini mode, 2 × 2 interior: ticks before the blank rows repeat.
const MINI_BLANK_CYCLE: u64 = 12;
/// Mini mode, 1-character interior: ticks before the glyph swaps repeat.
const MINI_GLYPH_CYCLE: u64 = 8;
/// Ticks before every jump looks as it started: a multiple of each cycle
/// above, so that one cycle holds every change there will be.
const JUMP_CYCLE: u64 = 24;
const _: () = assert!(
    JUMP_CYCLE % JUMP_SHIFTS.len() as u64 == 0
        && JUMP_CYCLE % MINI_BLANK_CYCLE == 0
        && JUMP_CYCLE % MINI_GLYPH_CYCLE == 0
);

/// Full-mode vertical offset of a jumping chip on animation tick `tick`.
pub fn jump_shift(tick: u64) -> i64 {
    JUMP_SHIFTS[(tick % JUMP_SHIFTS.len() as u64) as usize]
}

/// Mini mode: which interior rows of a jumping chip are blank on `tick`.
/// A 1-character interior never blanks (it swaps glyphs, see
/// [`mini_jumping_glyph`]); a 2 × 2 one blanks its top row on ticks 0–2 and
/// its bottom row on ticks 6–8 of every 12.
pub fn mini_blank_rows(side: usize, tick: u64) -> [bool; 2] {
    if side != 2 {
        return [false, false];
    }
    let t = tick % MINI_BLANK_CYCLE;
    [t <= 2, (6..=8).contains(&t)]
}

/// Mini mode with a 1-character interior: whether a jumping chip shows its
/// jumping glyph on `tick` (4 ticks out of 8).
pub fn mini_jumping_glyph(side: usize, tick: u64) -> bool {
    side == 1 && tick % MINI_GLYPH_CYCLE < MINI_GLYPH_CYCLE / 2
}

/// Whether a jumping chip looks different on `tick` than on the tick
/// before, so that ticks that change nothing need no wake-up.
fn jump_changes(layout: &Layout, tick: u64) -> bool {
    let side = layout.interior();
    if layout.draws_diamonds() {
        return true;
    }
    let before = tick.wrapping_sub(1);
    mini_blank_rows(side, tick) != mini_blank_rows(side, before)
        || mini_jumping_glyph(side, tick) != mini_jumping_glyph(side, before)
}

/// The first tick after `tick` on which a jumping chip looks different,
/// `None` if it never does.
pub fn next_jump_change(layout: &Layout, tick: u64) -> Option<u64> {
    (tick + 1..=tick + JUMP_CYCLE).find(|&t| jump_changes(layout, t))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn widths(side: usize, shift: i64) -> Vec<usize> {
        (0..side)
            .map(|r| diamond_span(side, r, shift).map_or(0, |(a, b)| b - a + 1))
            .collect()
    }

    #[test]
    fn cell_size_from_terminal() {
        let at = |cols, rows| Layout::fit(CellShape::Square, cols, rows, 9, 9).map(|l| l.cell);
        assert_eq!(at(100, 50), Ok(5));
        assert_eq!(at(80, 24), Ok(2));
        assert_eq!(at(40, 30), Ok(3));
        assert_eq!(at(61, 57), Ok(6));
        assert_eq!(at(120, 80), Ok(8));
        assert_eq!(
            Layout::fit(CellShape::Square, 60, 30, 5, 4).map(|l| l.cell),
            Ok(7)
        );
        assert_eq!(at(19, 19), Ok(2));
    }

    #[test]
    fn too_small_names_each_direction() {
        let err = Layout::fit(CellShape::Square, 18, 19, 9, 9).unwrap_err();
        assert_eq!(err.lines, ["19 chars wide terminal required, now it's 18"]);
        let err = Layout::fit(CellShape::Square, 10, 5, 9, 9).unwrap_err();
        assert_eq!(
            err.lines,
            [
                "19 chars wide terminal required, now it's 10",
                "19 chars tall terminal required, now it's 5"
            ]
        );
        assert!(Layout::fit(CellShape::Square, 0, 0, 1, 1).is_err());
    }

    #[test]
    fn board_extent_and_origins() {
        let layout = Layout::fit(CellShape::Square, 100, 50, 9, 9).unwrap();
        assert_eq!((layout.cols(), layout.rows()), (46, 46));
        assert_eq!(layout.origin(Pos::new(2, 3)), (16, 11));
        assert!(layout.draws_diamonds());
        assert!(
            !Layout::fit(CellShape::Square, 40, 30, 9, 9)
                .unwrap()
                .draws_diamonds()
        );
    }

    #[test]
    fn clicks_on_interiors_only() {
        let layout = Layout::fit(CellShape::Square, 100, 50, 9, 9).unwrap();
        assert_eq!(layout.cell_at(1, 1), Some(Pos::new(0, 0)));
        assert_eq!(layout.cell_at(14, 44), Some(Pos::new(8, 2)));
        assert_eq!(layout.cell_at(5, 3), None);
        assert_eq!(layout.cell_at(3, 10), None);
        assert_eq!(layout.cell_at(3, 46), None);
        assert_eq!(layout.cell_at(47, 3), None);
    }

    #[test]
    fn wide_cells_take_4_columns_and_2_rows_each() {
        let wide = |cols, rows, w, h| Layout::fit(CellShape::Wide, cols, rows, w, h);
        let layout = wide(80, 24, 9, 9).unwrap();
        assert_eq!((layout.cols(), layout.rows()), (37, 19));
        assert!(!layout.draws_diamonds());
        assert_eq!((layout.interior(), layout.interior_width()), (1, 3));
        assert_eq!(layout.origin(Pos::new(2, 3)), (7, 9));
        assert_eq!(layout, wide(200, 100, 9, 9).unwrap(), "no larger cells");
        assert_eq!(layout.cell_at(7, 9), Some(Pos::new(2, 3)));
        assert_eq!(layout.cell_at(7, 11), Some(Pos::new(2, 3)));
        assert_eq!(layout.cell_at(7, 12), None);
        assert_eq!(layout.cell_at(8, 10), None);
        assert_eq!(layout.cell_at(1, 37), None);
        assert!(wide(37, 19, 9, 9).is_ok());
        assert_eq!(
            wide(36, 18, 9, 9).unwrap_err().lines,
            [
                "37 chars wide terminal required, now it's 36",
                "19 chars tall terminal required, now it's 18"
            ]
        );
        let square = Layout::fit(CellShape::Square, 80, 24, 9, 9).unwrap();
        assert_eq!(
            square,
            Layout::fit(CellShape::Square, 80, 24, 9, 9).unwrap()
        );
        assert_eq!(square.cell, 2);
        assert_eq!("wide".parse(), Ok(CellShape::Wide));
        assert!("tall".parse::<CellShape>().unwrap_err().contains("square"));
    }

    #[test]
    fn diamonds_match_the_spec() {
        assert_eq!(widths(6, 0), [0, 2, 4, 6, 4, 2]);
        assert_eq!(widths(4, 0), [0, 2, 4, 2]);
        assert_eq!(widths(4, 1), [2, 4, 2, 0]);
        assert_eq!(widths(4, -1), [0, 0, 2, 4]);
        assert_eq!(widths(3, 0), [1, 3, 1]);
        assert_eq!(widths(5, 0), [1, 3, 5, 3, 1]);
        assert_eq!(diamond_span(6, 2, 0), Some((1, 4)));
    }

    #[test]
    fn jump_patterns() {
        let shifts: Vec<i64> = (0..8).map(jump_shift).collect();
        assert_eq!(shifts, [0, 1, 0, -1, 0, 1, 0, -1]);
        // 4 ticks of 8 in one run, not 4 swaps of a shorter cycle.
        let glyph: Vec<bool> = (0..16).map(|t| mini_jumping_glyph(1, t)).collect();
        let run = [[true; 4], [false; 4]].concat();
        assert_eq!(glyph, [run.clone(), run].concat());
        let top: Vec<u64> = (0..12).filter(|&t| mini_blank_rows(2, t)[0]).collect();
        let bottom: Vec<u64> = (0..12).filter(|&t| mini_blank_rows(2, t)[1]).collect();
        assert_eq!(top, [0, 1, 2]);
        assert_eq!(bottom, [6, 7, 8]);
        let mini = Layout::fit(CellShape::Square, 40, 30, 9, 9).unwrap();
        let changes: Vec<u64> = (0..12).filter(|&t| jump_changes(&mini, t)).collect();
        assert_eq!(changes, [0, 3, 6, 9]);
    }
}
