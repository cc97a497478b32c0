//! A frame buffer of character cells and the renderer that writes only the
//! cells that changed since the previous frame, with the fewest bytes it can
//! find: cursor jumps are replaced by shorter moves (`\n`, `\r`, backspace,
//! relative moves, or rewriting the unchanged characters in between), and
//! the colour is set only when a visible character needs a different one.
//!
//! The byte budget matters: the original game writes 131 bytes per cursor
//! move and about 455 bytes per second while a chip jumps; see the
//! `termcost` example.

use std::io;

mod moves;
mod render;

pub use render::Renderer;

/// A foreground colour: an ANSI colour number, or `None` for the terminal's
/// default (black-and-white mode never sets a colour).
pub type Ink = Option<u8>;

/// One character cell. Every blank cell compares equal whatever its ink,
/// since a space shows only the (fixed) background.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The character shown.
    pub ch: char,
    /// Its colour.
    pub ink: Ink,
}

impl Cell {
    /// An empty cell.
    pub const BLANK: Cell = Cell { ch: ' ', ink: None };

    /// `ch` in `ink`; a space is always [`Cell::BLANK`].
    pub fn new(ch: char, ink: Ink) -> Cell {
        if ch == ' ' {
            Cell::BLANK
        } else {
            Cell { ch, ink }
        }
    }
}

/// The whole screen as it should look.
///
/// Stored row by row, each row only up to its last written cell: the rest
/// is blank. A small board in a huge terminal then takes memory for what
/// it shows, not for the terminal's area.
#[derive(Clone, Debug)]
pub struct Frame {
    cols: usize,
    rows: usize,
    lines: Vec<Vec<Cell>>,
    /// False when memory ran out while drawing: some cells were dropped.
    complete: bool,
}

impl PartialEq for Frame {
    fn eq(&self, other: &Frame) -> bool {
        self.cols == other.cols
            && self.rows == other.rows
            && self.complete == other.complete
            && self
                .lines
                .iter()
                .zip(&other.lines)
                .all(|(a, b)| trim_blanks(a) == trim_blanks(b))
    }
}

impl Eq for Frame {}

/// `line` without its trailing blank cells.
fn trim_blanks(line: &[Cell]) -> &[Cell] {
    let end = line
        .iter()
        .rposition(|&c| c != Cell::BLANK)
        .map_or(0, |i| i + 1);
    &line[..end]
}

impl Frame {
    /// A blank frame of `cols` × `rows` cells.
    pub fn new(cols: usize, rows: usize) -> Frame {
        Frame {
            cols,
            rows,
            lines: vec![Vec::new(); rows],
            complete: true,
        }
    }

    /// Width in cells.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Height in cells.
    #[cfg(test)]
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The cell at `row`, `col`; blank outside the frame.
    pub fn get(&self, row: usize, col: usize) -> Cell {
        match self.lines.get(row) {
            Some(line) if col < self.cols => line.get(col).copied().unwrap_or(Cell::BLANK),
            _ => Cell::BLANK,
        }
    }

    /// Sets one cell; anything outside the frame is clipped.
    pub fn set(&mut self, row: usize, col: usize, ch: char, ink: Ink) {
        if row >= self.rows || col >= self.cols || !self.complete {
            return;
        }
        let cell = Cell::new(ch, ink);
        let line = &mut self.lines[row];
        if col >= line.len() {
            if cell == Cell::BLANK {
                return;
            }
            // A huge terminal must not abort the game: the renderer refuses
            // an incomplete frame and the game ends the usual way.
            if line.try_reserve(col + 1 - line.len()).is_err() {
                // What was stored is given back at once: the screen that
                // says so needs a little memory too.
                self.complete = false;
                self.lines = Vec::new();
                return;
            }
            line.resize(col + 1, Cell::BLANK);
        }
        line[col] = cell;
    }

    /// Writes `text` from `row`, `col` rightwards, clipped at the edge.
    pub fn text(&mut self, row: usize, col: usize, text: &str, ink: Ink) {
        for (i, ch) in text.chars().enumerate() {
            self.set(row, col + i, ch, ink);
        }
    }

    /// How many cells the frame stores: its memory, in cells.
    #[cfg(test)]
    fn stored(&self) -> usize {
        self.lines.iter().map(Vec::len).sum()
    }

    /// A copy, or an error when memory runs out.
    fn try_clone(&self) -> io::Result<Frame> {
        let mut lines = Vec::new();
        lines
            .try_reserve_exact(self.rows)
            .map_err(|_| too_large(self))?;
        for line in &self.lines {
            let mut copy = Vec::new();
            copy.try_reserve_exact(line.len())
                .map_err(|_| too_large(self))?;
            copy.extend_from_slice(line);
            lines.push(copy);
        }
        Ok(Frame { lines, ..*self })
    }

    /// The cells stored for one row; those after them are blank.
    fn line(&self, row: usize) -> &[Cell] {
        &self.lines[row]
    }
}

/// The error for a frame that does not fit in the memory left.
fn too_large(frame: &Frame) -> io::Error {
    io::Error::new(
        io::ErrorKind::OutOfMemory,
        format!(
            "Not enough memory to draw a {}x{} screen",
            frame.cols, frame.rows
        ),
    )
}
