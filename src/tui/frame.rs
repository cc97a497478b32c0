//! A frame buffer of character cells and the renderer that writes only the
//! cells that changed since the previous frame, with the fewest bytes it can
//! find: cursor jumps are replaced by shorter moves (`\n`, `\r`, backspace,
//! relative moves, or rewriting the unchanged characters in between), and
//! the colour is set only when a visible character needs a different one.
//!
//! The byte budget matters: the original game writes 131 bytes per cursor
//! move and about 455 bytes per second while a chip jumps; see the
//! `termcost` example.

use std::cmp::Ordering;
use std::io::{self, Write};

use crate::cli::WHITE;

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

/// A row and the columns `from..to` on it that a cursor move rewrote.
type Rewritten = Option<(usize, usize, usize)>;

/// How far below the cursor, and left and right of it, the renderer looks
/// for a cheap next cell before falling back to reading order.
const NEARBY_ROWS: usize = 4;
const NEARBY_LEFT: usize = 4;
const NEARBY_RIGHT: usize = 6;

/// Starts a synchronized update: the terminal shows the frame at once.
const BEGIN_SYNC: &[u8] = b"\x1b[?2026h";
/// Ends a synchronized update.
const END_SYNC: &[u8] = b"\x1b[?2026l";

/// Writes frames as differences from the previous one.
#[derive(Debug)]
pub struct Renderer {
    /// What the terminal shows, or `None` when unknown (start, resize,
    /// Ctrl-L): the next frame then clears the screen and paints it all.
    shown: Option<Frame>,
    /// Where the terminal's cursor is, when known. After a character in the
    /// last column the cursor may be waiting to wrap, so it becomes unknown.
    cursor: Option<(usize, usize)>,
    /// The foreground colour last set, when known.
    ink: Option<Ink>,
    /// Whether colours are used at all; black-and-white mode sends none.
    color: bool,
    /// Cells the last frame's encoding looked at: compared, or weighed as
    /// the next to write. Lets tests check that the work follows what the
    /// screen shows and what changed, not the terminal's area.
    #[cfg(test)]
    visited: std::cell::Cell<usize>,
}

/// Which cells still need writing: one flag per stored cell, row by row,
/// and how many are set.
struct Pending {
    rows: Vec<Vec<bool>>,
    left: usize,
}

impl Pending {
    /// The cells where `new` differs from `old`, or an error when memory
    /// runs out.
    fn between(new: &Frame, old: &Frame) -> io::Result<Pending> {
        let mut left = 0;
        let mut rows = Vec::new();
        rows.try_reserve_exact(new.rows)
            .map_err(|_| too_large(new))?;
        for r in 0..new.rows {
            let (a, b) = (new.line(r), old.line(r));
            let mut row = Vec::new();
            if a != b {
                let len = a.len().max(b.len());
                row.try_reserve_exact(len).map_err(|_| too_large(new))?;
                let cell = |line: &[Cell], c: usize| line.get(c).copied().unwrap_or(Cell::BLANK);
                row.extend((0..len).map(|c| cell(a, c) != cell(b, c)));
                while row.last() == Some(&false) {
                    row.pop();
                }
                left += row.iter().filter(|&&p| p).count();
            }
            rows.push(row);
        }
        Ok(Pending { rows, left })
    }

    /// Whether the cell at `row`, `col` still needs writing.
    fn at(&self, row: usize, col: usize) -> bool {
        self.rows[row].get(col).copied().unwrap_or(false)
    }

    /// Marks the cell written.
    fn take(&mut self, row: usize, col: usize) {
        if let Some(flag) = self.rows[row].get_mut(col) {
            if std::mem::take(flag) {
                self.left -= 1;
            }
        }
    }

    /// The first pending cell at or after `row`, `col` in reading order.
    fn next_from(&self, (mut row, mut col): (usize, usize)) -> (usize, usize) {
        loop {
            match self.rows[row].get(col) {
                Some(true) => return (row, col),
                Some(false) => col += 1,
                None => (row, col) = (row + 1, 0),
            }
        }
    }
}

impl Renderer {
    /// A renderer whose first frame paints the whole screen.
    pub fn new(color: bool) -> Renderer {
        Renderer {
            shown: None,
            cursor: None,
            ink: None,
            color,
            #[cfg(test)]
            visited: std::cell::Cell::new(0),
        }
    }

    /// Forgets what the screen shows, so the next frame repaints it all.
    pub fn invalidate(&mut self) {
        self.shown = None;
    }

    /// Writes what changed between the screen and `frame` (and a bell when
    /// `bell` is set) to `out` as one write and one flush, inside one
    /// synchronized update. Writes nothing when nothing changed.
    ///
    /// A frame too large for the memory left (a huge terminal with little
    /// memory) does not abort the game: the screen says so and asks for
    /// another size, and the game goes on when the terminal is resized.
    pub fn draw<W: Write>(&mut self, frame: &Frame, bell: bool, out: &mut W) -> io::Result<()> {
        let mut bytes = Vec::new();
        if let Err(e) = self.encode(frame, &mut bytes) {
            if e.kind() != io::ErrorKind::OutOfMemory {
                return Err(e);
            }
            bytes = Vec::new();
            self.shown = None;
            let mut notice = Frame::new(frame.cols, frame.rows);
            notice.text(0, 0, &e.to_string(), None);
            notice.text(1, 0, "Please resize the window again", None);
            self.encode(&notice, &mut bytes)?;
        }
        if bell {
            bytes.push(0x07);
        }
        if bytes.is_empty() {
            return Ok(());
        }
        out.write_all(&bytes)?;
        out.flush()
    }

    /// Appends the bytes that turn the screen into `frame`, wrapped in a
    /// synchronized update, or nothing when the screen already shows it.
    ///
    /// Changed cells are not written in reading order but greedily, the
    /// cheapest next (see [`Renderer::next_cell`]): a vertical grid line
    /// then costs `\n\b` (two bytes) a character instead of a row of blanks
    /// or a jump, and a diamond is drawn row under row. Each written cell
    /// costs a bounded amount of work, so a frame costs time in proportion
    /// to the cells the screen shows and the cells that changed.
    fn encode(&mut self, frame: &Frame, out: &mut Vec<u8>) -> io::Result<()> {
        if !frame.complete {
            return Err(too_large(frame));
        }
        let start = out.len();
        out.extend_from_slice(BEGIN_SYNC);
        let body_start = out.len();
        let old = match self.shown.take() {
            Some(old) if old.cols == frame.cols && old.rows == frame.rows => old,
            _ => {
                self.clear(out);
                Frame::new(frame.cols, frame.rows)
            }
        };
        let mut pending = Pending::between(frame, &old)?;
        #[cfg(test)]
        self.visited.set(
            (0..frame.rows)
                .map(|r| frame.line(r).len().max(old.line(r).len()))
                .sum(),
        );
        drop(old);
        // Every cell before `scan` has been written.
        let mut scan = (0, 0);
        while pending.left > 0 {
            // Room for the longest move, colour and character.
            if out.capacity() - out.len() < 2 * size_of::<Moves>() {
                out.try_reserve(out.len().max(4096))
                    .map_err(|_| too_large(frame))?;
            }
            scan = pending.next_from(scan);
            let ((row, col), moves, rewritten) = self.next_cell(frame, &pending, scan);
            out.extend_from_slice(moves.as_slice());
            if let Some((row, from, to)) = rewritten {
                for c in from..to {
                    pending.take(row, c);
                }
            }
            let cell = frame.get(row, col);
            if cell.ch != ' ' && self.ink != Some(cell.ink) {
                set_ink(cell.ink, out);
                self.ink = Some(cell.ink);
            }
            push_char(cell.ch, out);
            pending.take(row, col);
            self.cursor = (col + 1 < frame.cols).then_some((row, col + 1));
        }
        drop(pending);
        self.shown = Some(frame.try_clone()?);
        if out.len() == body_start {
            out.truncate(start);
        } else {
            out.extend_from_slice(END_SYNC);
        }
        Ok(())
    }

    /// Chooses the next cell to write: the cheapest, counting the move and
    /// any colour change, of the first pending cell in reading order
    /// (`scan`) and the pending cells a few rows below and columns around
    /// the cursor that start a run of pending cells (so a run is written
    /// left to right in one go). Ties go to the earlier cell in reading
    /// order. Returns its row and column, the move there, and the row and
    /// columns `from..to` the move rewrote.
    fn next_cell(
        &self,
        frame: &Frame,
        pending: &Pending,
        scan: (usize, usize),
    ) -> ((usize, usize), Moves, Rewritten) {
        // The common case first: the run goes on under the cursor.
        if let Some((row, col)) = self.cursor {
            let cell = frame.get(row, col);
            if pending.at(row, col) && (cell.ch == ' ' || self.ink == Some(cell.ink)) {
                return ((row, col), Moves::default(), None);
            }
        }
        // Only the winner's move is kept: the others are weighed by length.
        let chosen = |at: (usize, usize)| {
            let (moves, rewritten) = self.move_to(frame, at.0, at.1);
            (at, moves, rewritten)
        };
        let mut best = (self.cost(frame, scan), scan);
        let Some((row, col)) = self.cursor else {
            return chosen(best.1);
        };
        let rows = row..(row + NEARBY_ROWS).min(frame.rows);
        let cols = col.saturating_sub(NEARBY_LEFT)..(col + NEARBY_RIGHT).min(frame.cols);
        for r in rows {
            for c in cols.clone() {
                #[cfg(test)]
                self.visited.set(self.visited.get() + 1);
                let run_start = c == 0 || !pending.at(r, c - 1);
                if (r, c) == scan || !pending.at(r, c) || !run_start {
                    continue;
                }
                let total = self.cost(frame, (r, c));
                if total < best.0 || (total == best.0 && (r, c) < best.1) {
                    best = (total, (r, c));
                }
                if best.0 == 0 {
                    return chosen(best.1);
                }
            }
        }
        chosen(best.1)
    }

    /// The bytes it takes to write the cell at `at` next, counting the move
    /// and any colour change.
    fn cost(&self, frame: &Frame, (row, col): (usize, usize)) -> usize {
        let cell = frame.get(row, col);
        let mut total = self.move_to(frame, row, col).0.len();
        if cell.ch != ' ' && self.ink != Some(cell.ink) {
            let mut sgr = Moves::default();
            set_ink(cell.ink, &mut sgr);
            total += sgr.len();
        }
        total
    }

    /// Resets the colours and clears the screen; the cursor ends at the
    /// top-left corner.
    fn clear(&mut self, out: &mut Vec<u8>) {
        if self.color {
            // The board is white on black: the black background is set once
            // here and the clear fills the screen with it.
            out.extend_from_slice(b"\x1b[0;37;40m");
            self.ink = Some(Some(WHITE));
        } else {
            out.extend_from_slice(b"\x1b[0m");
            self.ink = Some(None);
        }
        out.extend_from_slice(b"\x1b[H\x1b[2J");
        self.cursor = Some((0, 0));
    }

    /// The shortest bytes that move the terminal cursor to `row`, `col`,
    /// and the row and columns `from..to` they rewrite, if they do.
    fn move_to(&self, frame: &Frame, row: usize, col: usize) -> (Moves, Rewritten) {
        let mut jump = Moves::default();
        cup(row, col, &mut jump);
        let Some((from_row, from_col)) = self.cursor else {
            return (jump, None);
        };
        let mut vertical = Moves::default();
        match row.cmp(&from_row) {
            Ordering::Equal => {}
            Ordering::Greater => {
                let n = row - from_row;
                csi_n(n, b'B', &mut vertical);
                if n <= vertical.len() {
                    vertical = Moves::default();
                    for _ in 0..n {
                        vertical.put(b"\n");
                    }
                }
            }
            Ordering::Less => csi_n(from_row - row, b'A', &mut vertical),
        }
        let mut best = (jump, None);
        // Along the row from where the cursor is, or from column 0 after a
        // carriage return.
        let mut from_start = Moves::default();
        from_start.put(b"\r");
        from_start.put(vertical.as_slice());
        let starts = [(from_col, vertical), (0, from_start)];
        let tried = if from_col > 0 { 2 } else { 1 };
        for &(start, mut moves) in &starts[..tried] {
            let rewrote = self.horizontal(frame, row, start, col, &mut moves);
            if moves.len() < best.0.len() {
                best = (moves, rewrote.then_some((row, start, col)));
            }
        }
        best
    }

    /// Appends the cheapest way along `row` from column `from` to `to`: a
    /// relative move, backspaces, or rewriting the characters in between
    /// when they need no colour change. Returns whether it rewrote them.
    fn horizontal(
        &self,
        frame: &Frame,
        row: usize,
        from: usize,
        to: usize,
        out: &mut Moves,
    ) -> bool {
        match to.cmp(&from) {
            Ordering::Equal => false,
            Ordering::Less => {
                let n = from - to;
                let mut csi = Moves::default();
                csi_n(n, b'D', &mut csi);
                if n <= csi.len() {
                    for _ in 0..n {
                        out.put(&[0x08]);
                    }
                } else {
                    out.put(csi.as_slice());
                }
                false
            }
            Ordering::Greater => {
                let mut csi = Moves::default();
                csi_n(to - from, b'C', &mut csi);
                // Every character takes at least a byte: a longer stretch
                // is never shorter to rewrite, so it is not looked at.
                if to - from > csi.len() {
                    out.put(csi.as_slice());
                    return false;
                }
                #[cfg(test)]
                self.visited.set(self.visited.get() + to - from);
                let between = (from..to).map(|c| frame.get(row, c));
                let same_ink = between
                    .clone()
                    .all(|c| c.ch == ' ' || self.ink == Some(c.ink));
                let rewrite_len: usize = between.clone().map(|c| c.ch.len_utf8()).sum();
                if same_ink && rewrite_len <= csi.len() {
                    for c in between {
                        push_char(c.ch, out);
                    }
                    true
                } else {
                    out.put(csi.as_slice());
                    false
                }
            }
        }
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

/// Somewhere to append bytes: the frame's output, or a [`Moves`].
trait Bytes {
    /// Appends `bytes`.
    fn put(&mut self, bytes: &[u8]);
}

impl Bytes for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// A cursor move (or a colour change), kept on the stack: the renderer
/// weighs dozens of them for each cell it writes. Any move on a terminal
/// fits, its coordinates being below 65 536: a jump is at most 14 bytes,
/// a carriage return, vertical and horizontal move 17.
#[derive(Clone, Copy, Debug)]
struct Moves {
    bytes: [u8; MOVES_MAX],
    len: usize,
}

/// Room in a [`Moves`]: twice the longest move on a terminal, so that the
/// larger frames of tests fit too.
const MOVES_MAX: usize = 40;

impl Default for Moves {
    fn default() -> Moves {
        Moves {
            bytes: [0; MOVES_MAX],
            len: 0,
        }
    }
}

impl Moves {
    fn len(&self) -> usize {
        self.len
    }

    fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl Bytes for Moves {
    fn put(&mut self, bytes: &[u8]) {
        self.bytes[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }
}

/// Appends `n` in decimal.
fn put_number(n: usize, out: &mut impl Bytes) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.put(&digits[at..]);
}

/// `ESC [ n <final>`, with `n` left out when it is 1 (the default).
fn csi_n(n: usize, last: u8, out: &mut impl Bytes) {
    out.put(b"\x1b[");
    if n != 1 {
        put_number(n, out);
    }
    out.put(&[last]);
}

/// An absolute cursor move, leaving out default (1) coordinates.
fn cup(row: usize, col: usize, out: &mut impl Bytes) {
    out.put(b"\x1b[");
    if row > 0 || col > 0 {
        put_number(row + 1, out);
    }
    if col > 0 {
        out.put(b";");
        put_number(col + 1, out);
    }
    out.put(b"H");
}

/// The shortest SGR sequence for a foreground colour, as the terminfo
/// `setaf` of xterm-256color writes it.
fn set_ink(ink: Ink, out: &mut impl Bytes) {
    match ink {
        None => out.put(b"\x1b[39m"),
        Some(n @ 0..=7) => out.put(&[0x1b, b'[', b'3', b'0' + n, b'm']),
        Some(n @ 8..=15) => out.put(&[0x1b, b'[', b'9', b'0' + n - 8, b'm']),
        Some(n) => {
            out.put(b"\x1b[38;5;");
            put_number(n.into(), out);
            out.put(b"m");
        }
    }
}

/// Appends `ch` as UTF-8.
fn push_char(ch: char, out: &mut impl Bytes) {
    let mut buf = [0; 4];
    out.put(ch.encode_utf8(&mut buf).as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Draws `frame` and returns the bytes written.
    fn draw(renderer: &mut Renderer, frame: &Frame) -> Vec<u8> {
        let mut out = Vec::new();
        renderer.draw(frame, false, &mut out).unwrap();
        out
    }

    /// The bytes between the synchronized-update markers.
    fn body(bytes: &[u8]) -> &[u8] {
        assert!(bytes.starts_with(BEGIN_SYNC), "{bytes:?}");
        assert!(bytes.ends_with(END_SYNC), "{bytes:?}");
        &bytes[BEGIN_SYNC.len()..bytes.len() - END_SYNC.len()]
    }

    /// Feeds `bytes` to a terminal emulator of the frame's size.
    fn screen_after(parser: &mut vt100::Parser, bytes: &[u8]) -> Vec<String> {
        parser.process(bytes);
        parser
            .screen()
            .rows(0, 200)
            .map(|row| row.trim_end().to_string())
            .collect()
    }

    fn text_of(frame: &Frame) -> Vec<String> {
        (0..frame.rows())
            .map(|r| {
                (0..frame.cols())
                    .map(|c| frame.get(r, c).ch)
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect()
    }

    #[test]
    fn first_frame_clears_then_writes_rows() {
        let mut frame = Frame::new(10, 3);
        frame.text(0, 0, "|--|", Some(7));
        frame.text(1, 0, "|  |", Some(7));
        let out = draw(&mut Renderer::new(true), &frame);
        assert_eq!(
            body(&out),
            b"\x1b[0;37;40m\x1b[H\x1b[2J|--|\r\n|  |".as_slice()
        );
    }

    #[test]
    fn unchanged_frame_writes_nothing() {
        let mut renderer = Renderer::new(false);
        let mut frame = Frame::new(5, 5);
        frame.text(2, 1, "ab", None);
        draw(&mut renderer, &frame);
        assert!(draw(&mut renderer, &frame).is_empty());
    }

    #[test]
    fn colour_set_only_when_it_changes() {
        let mut renderer = Renderer::new(true);
        let mut frame = Frame::new(10, 2);
        draw(&mut renderer, &frame);
        frame.text(0, 0, "ab", Some(1));
        frame.text(0, 3, "c", Some(1));
        frame.text(0, 5, "d", Some(200));
        let out = draw(&mut renderer, &frame);
        assert_eq!(body(&out), b"\x1b[31mab c \x1b[38;5;200md".as_slice());
    }

    #[test]
    fn short_moves_replace_jumps() {
        let mut renderer = Renderer::new(false);
        let mut frame = Frame::new(20, 6);
        draw(&mut renderer, &frame);
        frame.set(2, 5, 'x', None);
        frame.set(2, 6, 'x', None);
        frame.set(3, 5, 'y', None);
        frame.set(3, 6, 'y', None);
        let out = draw(&mut renderer, &frame);
        // A jump to the first cell, then down a line and back two.
        assert_eq!(body(&out), b"\x1b[3;6Hxx\n\x08\x08yy".as_slice());
    }

    #[test]
    fn last_column_forgets_the_cursor() {
        let mut renderer = Renderer::new(false);
        let mut frame = Frame::new(4, 3);
        draw(&mut renderer, &frame);
        frame.set(0, 3, 'x', None);
        // Three blanks are shorter than a jump from the home position.
        assert_eq!(body(&draw(&mut renderer, &frame)), b"   x".as_slice());
        // The cursor may now wait to wrap: only an absolute move is safe.
        frame.set(1, 0, 'y', None);
        assert_eq!(body(&draw(&mut renderer, &frame)), b"\x1b[2Hy".as_slice());
    }

    #[test]
    fn invalidate_repaints_everything() {
        let mut renderer = Renderer::new(false);
        let mut frame = Frame::new(6, 2);
        frame.text(0, 0, "abc", None);
        let first = draw(&mut renderer, &frame);
        renderer.invalidate();
        assert_eq!(draw(&mut renderer, &frame), first);
    }

    #[test]
    fn bell_alone_when_nothing_changed() {
        let mut renderer = Renderer::new(false);
        let frame = Frame::new(3, 3);
        draw(&mut renderer, &frame);
        let mut out = Vec::new();
        renderer.draw(&frame, true, &mut out).unwrap();
        assert_eq!(out, b"\x07");
    }

    #[test]
    fn a_small_screen_in_a_huge_terminal_costs_what_it_shows() {
        // A 9 × 9 board's worth of text in a 5000 × 5000 terminal: before,
        // every frame held and compared 25 million cells.
        let (width, height) = (46, 20);
        let mut frame = Frame::new(5000, 5000);
        for r in 0..height {
            frame.text(r, 0, &"|-".repeat(width / 2), Some(7));
        }
        assert_eq!(frame.stored(), width * height);
        let mut renderer = Renderer::new(true);
        draw(&mut renderer, &frame);
        // Each cell compared once, and a bounded look around the cursor (4
        // rows by 10 columns, and the moves there) at the start of a run.
        let (shown, per_run) = (width * height, 100);
        assert!(
            renderer.visited.get() <= shown + per_run * height,
            "{}",
            renderer.visited.get()
        );
        frame.set(3, 3, 'O', Some(2));
        frame.set(9, 30, 'O', Some(2));
        draw(&mut renderer, &frame);
        assert!(
            renderer.visited.get() <= shown + per_run * 2,
            "{}",
            renderer.visited.get()
        );
        assert!(renderer.shown.as_ref().unwrap().stored() <= shown);
    }

    #[test]
    fn far_apart_changes_cost_no_more_than_near_ones() {
        // Two changed cells a whole row apart: weighing the move between
        // them must not walk the cells in between.
        let mut renderer = Renderer::new(false);
        let mut frame = Frame::new(60_000, 2);
        frame.set(0, 59_990, 'x', None);
        draw(&mut renderer, &frame);
        frame.set(1, 0, 'y', None);
        frame.set(1, 59_999, 'z', None);
        let out = draw(&mut renderer, &frame);
        assert_eq!(body(&out), b"\r\ny\x1b[59998Cz".as_slice());
        // The two rows are compared once; the moves cost a few cells each.
        let compared = 59_991 + 60_000;
        assert!(
            renderer.visited.get() <= compared + 2 * 50,
            "{}",
            renderer.visited.get()
        );
    }

    #[test]
    fn a_frame_memory_cannot_hold_asks_for_another_size() {
        let mut renderer = Renderer::new(false);
        let mut frame = Frame::new(60, 4);
        frame.text(0, 0, "board", None);
        frame.complete = false;
        let mut parser = vt100::Parser::new(
            std::num::NonZeroU16::new(4).unwrap(),
            std::num::NonZeroU16::new(60).unwrap(),
            0,
        );
        let shown = screen_after(&mut parser, &draw(&mut renderer, &frame));
        assert_eq!(
            &shown[..2],
            [
                "Not enough memory to draw a 60x4 screen",
                "Please resize the window again"
            ]
        );
        // Once it fits again, the screen is repainted in full.
        frame.complete = true;
        let shown = screen_after(&mut parser, &draw(&mut renderer, &frame));
        assert_eq!(&shown[..2], ["board", ""]);
    }

    #[test]
    fn emulated_screen_matches_every_frame() {
        // A sequence of frames that exercises every kind of move; a terminal
        // emulator fed the output must show each frame exactly.
        let (cols, rows) = (23, 9);
        let mut parser = vt100::Parser::new(
            std::num::NonZeroU16::new(rows as u16).unwrap(),
            std::num::NonZeroU16::new(cols as u16).unwrap(),
            0,
        );
        let mut renderer = Renderer::new(true);
        let mut state = 7u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state >> 24
        };
        let mut frame = Frame::new(cols, rows);
        for step in 0..120 {
            let random_cell = |roll: u64| {
                let ink = [1u8, 7, 12, 100][(roll % 4) as usize];
                let ch = [' ', 'O', 'é', '|'][(roll / 4 % 4) as usize];
                (ch, Some(ink))
            };
            if step % 2 == 0 {
                // A new screen of a random density.
                frame = Frame::new(cols, rows);
                for r in 0..rows {
                    for c in 0..cols {
                        if next() % 10 < 2 + step % 5 {
                            let (ch, ink) = random_cell(next());
                            frame.set(r, c, ch, ink);
                        }
                    }
                }
            } else {
                // A few cells changed, as when the cursor moves.
                for _ in 0..next() % 8 {
                    let (r, c) = (
                        (next() % rows as u64) as usize,
                        (next() % cols as u64) as usize,
                    );
                    let (ch, ink) = random_cell(next());
                    frame.set(r, c, ch, ink);
                }
            }
            if step % 17 == 0 {
                renderer.invalidate();
            }
            let out = draw(&mut renderer, &frame);
            let shown = screen_after(&mut parser, &out);
            assert_eq!(shown, text_of(&frame), "step {step}");
            for r in 0..rows {
                for c in 0..cols {
                    let cell = frame.get(r, c);
                    if cell.ch != ' ' {
                        let seen = parser.screen().cell(r as u16, c as u16).unwrap().fgcolor();
                        assert_eq!(seen, vt100::Color::Idx(cell.ink.unwrap()), "{r},{c}");
                    }
                }
            }
        }
    }
}
