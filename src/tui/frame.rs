//! A frame buffer of character cells and the renderer that writes only the
//! cells that changed since the previous frame, with the fewest bytes it can
//! find: cursor jumps are replaced by shorter moves (`\n`, `\r`, backspace,
//! relative moves, or rewriting the unchanged characters in between), and
//! the colour is set only when a visible character needs a different one.
//!
//! The byte budget matters: the original game writes 131 bytes per cursor
//! move and about 455 bytes per second while a chip jumps; see the
//! `termcost` example.

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
    #[cfg(test)]
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
    /// synchronized update. Writes nothing when nothing changed. Returns the
    /// number of bytes written.
    pub fn draw<W: Write>(&mut self, frame: &Frame, bell: bool, out: &mut W) -> io::Result<usize> {
        let mut bytes = Vec::new();
        self.encode(frame, &mut bytes);
        if bell {
            bytes.push(0x07);
        }
        if bytes.is_empty() {
            return Ok(0);
        }
        out.write_all(&bytes)?;
        out.flush()?;
        Ok(bytes.len())
    }

    /// Appends the bytes that turn the screen into `frame`, wrapped in a
    /// synchronized update, or nothing when the screen already shows it.
    fn encode(&mut self, frame: &Frame, out: &mut Vec<u8>) {
        let mut body = Vec::new();
        let old = match self.shown.take() {
            Some(old) if old.cols == frame.cols && old.rows == frame.rows => old,
            _ => {
                self.clear(&mut body);
                Frame::new(frame.cols, frame.rows)
            }
        };
        for row in 0..frame.rows {
            let (new_row, old_row) = (frame.row(row), old.row(row));
            for col in 0..frame.cols {
                let cell = new_row[col];
                if cell == old_row[col] {
                    continue;
                }
                self.move_to(frame, row, col, &mut body);
                if cell.ch != ' ' && self.ink != Some(cell.ink) {
                    set_ink(cell.ink, &mut body);
                    self.ink = Some(cell.ink);
                }
                push_char(cell.ch, &mut body);
                self.cursor = (col + 1 < frame.cols).then_some((row, col + 1));
            }
        }
        self.shown = Some(frame.clone());
        if !body.is_empty() {
            out.extend_from_slice(BEGIN_SYNC);
            out.extend_from_slice(&body);
            out.extend_from_slice(END_SYNC);
        }
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

    /// Moves the terminal cursor to `row`, `col` by the shortest sequence.
    fn move_to(&mut self, frame: &Frame, row: usize, col: usize, out: &mut Vec<u8>) {
        let Some((from_row, from_col)) = self.cursor else {
            cup(row, col, out);
            return;
        };
        if (from_row, from_col) == (row, col) {
            return;
        }
        let mut best = Vec::new();
        cup(row, col, &mut best);
        let mut candidates: Vec<Vec<u8>> = Vec::new();
        let vertical: Vec<u8> = match row.cmp(&from_row) {
            std::cmp::Ordering::Equal => Vec::new(),
            std::cmp::Ordering::Greater => {
                let n = row - from_row;
                let mut csi = Vec::new();
                csi_n(n, b'B', &mut csi);
                if n <= csi.len() { vec![b'\n'; n] } else { csi }
            }
            std::cmp::Ordering::Less => {
                let mut csi = Vec::new();
                csi_n(from_row - row, b'A', &mut csi);
                csi
            }
        };
        // Along the row from where the cursor is, or from column 0 after a
        // carriage return.
        let mut along = vertical.clone();
        self.horizontal(frame, row, from_col, col, &mut along);
        candidates.push(along);
        if col < from_col || from_col > 0 {
            let mut from_start = vec![b'\r'];
            from_start.extend_from_slice(&vertical);
            self.horizontal(frame, row, 0, col, &mut from_start);
            candidates.push(from_start);
        }
        for candidate in candidates {
            if candidate.len() < best.len() {
                best = candidate;
            }
        }
        out.extend_from_slice(&best);
    }

    /// The cheapest way along `row` from column `from` to `to`: a relative
    /// move, backspaces, or rewriting the characters in between when they
    /// need no colour change.
    fn horizontal(&self, frame: &Frame, row: usize, from: usize, to: usize, out: &mut Vec<u8>) {
        match to.cmp(&from) {
            std::cmp::Ordering::Equal => {}
            std::cmp::Ordering::Less => {
                let n = from - to;
                let mut csi = Vec::new();
                csi_n(n, b'D', &mut csi);
                if n <= csi.len() {
                    out.extend(std::iter::repeat_n(0x08, n));
                } else {
                    out.extend_from_slice(&csi);
                }
            }
            std::cmp::Ordering::Greater => {
                let mut csi = Vec::new();
                csi_n(to - from, b'C', &mut csi);
                let mut rewrite = Vec::new();
                let same_ink = frame.row(row)[from..to]
                    .iter()
                    .all(|c| c.ch == ' ' || self.ink == Some(c.ink));
                if same_ink {
                    for c in &frame.row(row)[from..to] {
                        push_char(c.ch, &mut rewrite);
                    }
                }
                if same_ink && rewrite.len() <= csi.len() {
                    out.extend_from_slice(&rewrite);
                } else {
                    out.extend_from_slice(&csi);
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
        frame.set(1, 0, 'y', None);
        let out = draw(&mut renderer, &frame);
        // Three blanks are shorter than a jump from the home position.
        assert_eq!(body(&out), b"   x\x1b[2Hy".as_slice());
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
        for step in 0..60 {
            let mut frame = Frame::new(cols, rows);
            for r in 0..rows {
                for c in 0..cols {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let roll = (state >> 33) % 10;
                    if roll < 2 + step % 3 {
                        let ink = [1u8, 7, 12, 100][((state >> 20) % 4) as usize];
                        frame.set(
                            r,
                            c,
                            ['O', 'é', '|'][((state >> 40) % 3) as usize],
                            Some(ink),
                        );
                    }
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
