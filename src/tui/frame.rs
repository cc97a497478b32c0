//! A frame of character cells, stored as runs, and the renderer that writes
//! only the cells that changed since the previous frame, with the fewest
//! bytes it can find: cursor jumps are replaced by shorter moves (`\n`,
//! `\r`, backspace, relative moves, or rewriting the unchanged characters
//! in between), and the colour is set only when a visible character needs a
//! different one.
//!
//! The byte budget matters: the original game writes 131 bytes per cursor
//! move and about 455 bytes per second while a chip jumps; see the
//! `termcost` example.

use std::io;

mod line;
mod moves;
mod pending;
mod render;

use line::{Line, Run};
pub use render::Renderer;

/// Asked for under what the screen cannot fit: the board (the
/// required-size lines) or the frame itself (the memory it needs).
pub const RESIZE: &str = "Please resize the window again";

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
/// Stored row by row as runs of equal cells (see [`line`]): a board in a
/// huge terminal takes memory and time for the runs it draws, not for the
/// terminal's area or the length of its lines.
#[derive(Clone, Debug)]
pub struct Frame {
    cols: usize,
    rows: usize,
    lines: Vec<Line>,
    /// False when memory ran out while drawing: some cells were dropped.
    complete: bool,
}

impl Frame {
    /// A blank frame of `cols` × `rows` cells.
    pub fn new(cols: usize, rows: usize) -> Frame {
        Frame {
            cols,
            rows,
            lines: vec![Line::default(); rows],
            complete: true,
        }
    }

    /// Width in cells.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Height in cells.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The cell at `row`, `col`; blank outside the frame.
    pub fn get(&self, row: usize, col: usize) -> Cell {
        match self.lines.get(row) {
            Some(line) if col < self.cols => line.get(col),
            _ => Cell::BLANK,
        }
    }

    /// Sets one cell; anything outside the frame is clipped.
    pub fn set(&mut self, row: usize, col: usize, ch: char, ink: Ink) {
        self.fill(row, col, 1, ch, ink);
    }

    /// Sets `len` cells from `row`, `col` rightwards to `ch` in `ink`,
    /// clipped at the edge.
    pub fn fill(&mut self, row: usize, col: usize, len: usize, ch: char, ink: Ink) {
        let end = col.saturating_add(len).min(self.cols);
        if row >= self.rows || col >= end || !self.complete {
            return;
        }
        let run = Run {
            // A terminal's columns are counted in 16 bits.
            start: col as u32,
            end: end as u32,
            cell: Cell::new(ch, ink),
        };
        // A huge terminal must not abort the game: the renderer refuses an
        // incomplete frame and the game ends the usual way.
        if self.lines[row].write(run).is_err() {
            self.give_up();
        }
    }

    /// Makes row `to` a copy of row `from`, whatever it held; rows outside
    /// the frame are left alone. A row drawn once and copied costs a copy
    /// of its runs instead of a write of each: the grid's rows, all alike,
    /// are thousands of runs each on a huge board.
    pub fn copy_row(&mut self, from: usize, to: usize) {
        if from >= self.rows || to >= self.rows || from == to || !self.complete {
            return;
        }
        match self.lines[from].try_clone() {
            Ok(line) => self.lines[to] = line,
            Err(_) => self.give_up(),
        }
    }

    /// Writes `text` from `row`, `col` rightwards, clipped at the edge.
    pub fn text(&mut self, row: usize, col: usize, text: &str, ink: Ink) {
        for (i, ch) in text.chars().enumerate() {
            self.set(row, col + i, ch, ink);
        }
    }

    /// Marks the frame incomplete and gives back what it stored at once:
    /// the screen that says so needs a little memory too.
    fn give_up(&mut self) {
        self.complete = false;
        self.lines = Vec::new();
    }

    /// Sorts out every row written out of order, so that rows can be
    /// compared and read run by run; fails when memory runs out.
    fn tidy(&mut self) -> io::Result<()> {
        if self.complete && self.lines.iter_mut().all(|line| line.tidy().is_ok()) {
            return Ok(());
        }
        self.give_up();
        Err(too_large(self))
    }

    /// Memory held on the heap, in bytes.
    #[cfg(test)]
    pub fn heap_bytes(&self) -> usize {
        self.lines.capacity() * size_of::<Line>()
            + self.lines.iter().map(Line::heap_bytes).sum::<usize>()
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
