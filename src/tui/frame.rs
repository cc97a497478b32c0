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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    cols: usize,
    rows: usize,
    cells: Vec<Cell>,
}

impl Frame {
    /// A blank frame of `cols` × `rows` cells.
    pub fn new(cols: usize, rows: usize) -> Frame {
        Frame {
            cols,
            rows,
            cells: vec![Cell::BLANK; cols * rows],
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
    #[cfg(test)]
    pub fn get(&self, row: usize, col: usize) -> Cell {
        if row < self.rows && col < self.cols {
            self.cells[row * self.cols + col]
        } else {
            Cell::BLANK
        }
    }

    /// Sets one cell; anything outside the frame is clipped.
    pub fn set(&mut self, row: usize, col: usize, ch: char, ink: Ink) {
        if row < self.rows && col < self.cols {
            self.cells[row * self.cols + col] = Cell::new(ch, ink);
        }
    }

    /// Writes `text` from `row`, `col` rightwards, clipped at the edge.
    pub fn text(&mut self, row: usize, col: usize, text: &str, ink: Ink) {
        for (i, ch) in text.chars().enumerate() {
            self.set(row, col + i, ch, ink);
        }
    }

    /// One row's cells.
    fn row(&self, row: usize) -> &[Cell] {
        &self.cells[row * self.cols..(row + 1) * self.cols]
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
}

impl Renderer {
    /// A renderer whose first frame paints the whole screen.
    pub fn new(color: bool) -> Renderer {
        Renderer {
            shown: None,
            cursor: None,
            ink: None,
            color,
        }
    }

    /// Forgets what the screen shows, so the next frame repaints it all.
    pub fn invalidate(&mut self) {
        self.shown = None;
    }

    /// Writes what changed between the screen and `frame` (and a bell when
    /// `bell` is set) to `out` as one write and one flush, inside one
    /// synchronized update. Writes nothing when nothing changed.
    pub fn draw<W: Write>(&mut self, frame: &Frame, bell: bool, out: &mut W) -> io::Result<()> {
        let mut bytes = Vec::new();
        self.encode(frame, &mut bytes);
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
    /// or a jump, and a diamond is drawn row under row.
    fn encode(&mut self, frame: &Frame, out: &mut Vec<u8>) {
        let mut body = Vec::new();
        let old = match self.shown.take() {
            Some(old) if old.cols == frame.cols && old.rows == frame.rows => old,
            _ => {
                self.clear(&mut body);
                Frame::new(frame.cols, frame.rows)
            }
        };
        let mut pending: Vec<bool> = frame
            .cells
            .iter()
            .zip(&old.cells)
            .map(|(new, old)| new != old)
            .collect();
        let mut left = pending.iter().filter(|&&p| p).count();
        // Every cell before `scan` has been written.
        let mut scan = 0;
        while left > 0 {
            while !pending[scan] {
                scan += 1;
            }
            let (index, moves, rewritten) = self.next_cell(frame, &pending, scan);
            body.extend_from_slice(&moves);
            if let Some((row, from, to)) = rewritten {
                let start = row * frame.cols;
                for done in &mut pending[start + from..start + to] {
                    if std::mem::take(done) {
                        left -= 1;
                    }
                }
            }
            let (row, col) = (index / frame.cols, index % frame.cols);
            let cell = frame.cells[index];
            if cell.ch != ' ' && self.ink != Some(cell.ink) {
                set_ink(cell.ink, &mut body);
                self.ink = Some(cell.ink);
            }
            push_char(cell.ch, &mut body);
            pending[index] = false;
            left -= 1;
            self.cursor = (col + 1 < frame.cols).then_some((row, col + 1));
        }
        self.shown = Some(frame.clone());
        if !body.is_empty() {
            out.extend_from_slice(BEGIN_SYNC);
            out.extend_from_slice(&body);
            out.extend_from_slice(END_SYNC);
        }
    }

    /// Chooses the next cell to write: the cheapest, counting the move and
    /// any colour change, of the first pending cell in reading order
    /// (`scan`) and the pending cells a few rows below and columns around
    /// the cursor that start a run of pending cells (so a run is written
    /// left to right in one go). Ties go to the earlier cell in reading
    /// order. Returns its index, the move there, and the row and columns
    /// `from..to` the move rewrote.
    fn next_cell(
        &self,
        frame: &Frame,
        pending: &[bool],
        scan: usize,
    ) -> (usize, Vec<u8>, Rewritten) {
        let cost = |index: usize| {
            let cell = frame.cells[index];
            let (moves, rewritten) = self.move_to(frame, index / frame.cols, index % frame.cols);
            let mut total = moves.len();
            if cell.ch != ' ' && self.ink != Some(cell.ink) {
                let mut sgr = Vec::new();
                set_ink(cell.ink, &mut sgr);
                total += sgr.len();
            }
            (total, moves, rewritten)
        };
        // The common case first: the run goes on under the cursor.
        if let Some((row, col)) = self.cursor {
            let index = row * frame.cols + col;
            let cell = frame.cells[index];
            if pending[index] && (cell.ch == ' ' || self.ink == Some(cell.ink)) {
                return (index, Vec::new(), None);
            }
        }
        let (scan_cost, moves, rewritten) = cost(scan);
        let mut best = (scan_cost, scan, moves, rewritten);
        let Some((row, col)) = self.cursor else {
            return (best.1, best.2, best.3);
        };
        let rows = row..(row + NEARBY_ROWS).min(frame.rows);
        let cols = col.saturating_sub(NEARBY_LEFT)..(col + NEARBY_RIGHT).min(frame.cols);
        for r in rows {
            for c in cols.clone() {
                let index = r * frame.cols + c;
                let run_start = c == 0 || !pending[index - 1];
                if index == scan || !pending[index] || !run_start {
                    continue;
                }
                let (total, moves, rewritten) = cost(index);
                if total < best.0 || (total == best.0 && index < best.1) {
                    best = (total, index, moves, rewritten);
                }
                if best.0 == 0 {
                    return (best.1, best.2, best.3);
                }
            }
        }
        (best.1, best.2, best.3)
    }

    /// Resets the colours and clears the screen; the cursor ends at the
    /// top-left corner.
    fn clear(&mut self, out: &mut Vec<u8>) {
        if self.color {
            // The board is white on black: the black background is set once
            // here and the clear fills the screen with it.
            out.extend_from_slice(b"\x1b[0;37;40m");
            self.ink = Some(Some(7));
        } else {
            out.extend_from_slice(b"\x1b[0m");
            self.ink = Some(None);
        }
        out.extend_from_slice(b"\x1b[H\x1b[2J");
        self.cursor = Some((0, 0));
    }

    /// The shortest bytes that move the terminal cursor to `row`, `col`,
    /// and the row and columns `from..to` they rewrite, if they do.
    fn move_to(
        &self,
        frame: &Frame,
        row: usize,
        col: usize,
    ) -> (Vec<u8>, Option<(usize, usize, usize)>) {
        let mut jump = Vec::new();
        cup(row, col, &mut jump);
        let Some((from_row, from_col)) = self.cursor else {
            return (jump, None);
        };
        let vertical: Vec<u8> = match row.cmp(&from_row) {
            Ordering::Equal => Vec::new(),
            Ordering::Greater => {
                let n = row - from_row;
                let mut csi = Vec::new();
                csi_n(n, b'B', &mut csi);
                if n <= csi.len() { vec![b'\n'; n] } else { csi }
            }
            Ordering::Less => {
                let mut csi = Vec::new();
                csi_n(from_row - row, b'A', &mut csi);
                csi
            }
        };
        let mut best = (jump, None);
        // Along the row from where the cursor is, or from column 0 after a
        // carriage return.
        let mut starts = vec![(from_col, vertical.clone())];
        if from_col > 0 {
            let mut from_start = vec![b'\r'];
            from_start.extend_from_slice(&vertical);
            starts.push((0, from_start));
        }
        for (start, mut moves) in starts {
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
        out: &mut Vec<u8>,
    ) -> bool {
        match to.cmp(&from) {
            Ordering::Equal => false,
            Ordering::Less => {
                let n = from - to;
                let mut csi = Vec::new();
                csi_n(n, b'D', &mut csi);
                if n <= csi.len() {
                    out.extend(std::iter::repeat_n(0x08, n));
                } else {
                    out.extend_from_slice(&csi);
                }
                false
            }
            Ordering::Greater => {
                let mut csi = Vec::new();
                csi_n(to - from, b'C', &mut csi);
                let between = &frame.row(row)[from..to];
                let same_ink = between
                    .iter()
                    .all(|c| c.ch == ' ' || self.ink == Some(c.ink));
                let rewrite_len: usize = between.iter().map(|c| c.ch.len_utf8()).sum();
                if same_ink && rewrite_len <= csi.len() {
                    for c in between {
                        push_char(c.ch, out);
                    }
                    true
                } else {
                    out.extend_from_slice(&csi);
                    false
                }
            }
        }
    }
}

/// `ESC [ n <final>`, with `n` left out when it is 1 (the default).
fn csi_n(n: usize, last: u8, out: &mut Vec<u8>) {
    out.extend_from_slice(b"\x1b[");
    if n != 1 {
        out.extend_from_slice(n.to_string().as_bytes());
    }
    out.push(last);
}

/// An absolute cursor move, leaving out default (1) coordinates.
fn cup(row: usize, col: usize, out: &mut Vec<u8>) {
    out.extend_from_slice(b"\x1b[");
    if row > 0 || col > 0 {
        out.extend_from_slice((row + 1).to_string().as_bytes());
    }
    if col > 0 {
        out.push(b';');
        out.extend_from_slice((col + 1).to_string().as_bytes());
    }
    out.push(b'H');
}

/// The shortest SGR sequence for a foreground colour, as the terminfo
/// `setaf` of xterm-256color writes it.
fn set_ink(ink: Ink, out: &mut Vec<u8>) {
    let text = match ink {
        None => "\x1b[39m".to_string(),
        Some(n @ 0..=7) => format!("\x1b[3{n}m"),
        Some(n @ 8..=15) => format!("\x1b[9{}m", n - 8),
        Some(n) => format!("\x1b[38;5;{n}m"),
    };
    out.extend_from_slice(text.as_bytes());
}

/// Appends `ch` as UTF-8.
fn push_char(ch: char, out: &mut Vec<u8>) {
    let mut buf = [0; 4];
    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
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
