//! Writing frames: the renderer, which sends only what changed.

use std::cmp::Ordering;
use std::io::{self, Write};

use crate::cli::WHITE;

use super::moves::{Length, Move, Moves, csi_n, cup, push_char, set_ink};
use super::pending::Pending;
use super::{Frame, Ink, RESIZE, too_large};

/// A row and the columns `from..to` on it that a cursor move rewrote.
type Rewritten = Option<(usize, usize, usize)>;

/// How far below the cursor, and left and right of it, the renderer looks
/// for a cheap next cell before falling back to reading order.
const NEARBY_ROWS: usize = 4;
const NEARBY_LEFT: usize = 4;
const NEARBY_RIGHT: usize = 6;

/// A cell no frame draws: stands for a cell whose background is unknown.
const UNWRITTEN: char = '\0';

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
    /// Whether clearing the screen leaves it in the black background set
    /// (the terminal has `bce`); if not, a repaint writes every blank cell.
    clears_black: bool,
    /// What the last frame's encoding looked at: runs compared, cells
    /// weighed as the next to write and cells a move might rewrite. Lets
    /// tests check that the work follows the runs the screen shows and what
    /// changed, not the terminal's area.
    #[cfg(test)]
    visited: std::cell::Cell<usize>,
    /// Whether every cell is chosen by [`Renderer::next_cell`], with no
    /// short cut: for tests that check the short cut writes the same bytes.
    #[cfg(test)]
    weigh_every_cell: bool,
}

impl Renderer {
    /// A renderer whose first frame paints the whole screen.
    pub fn new(color: bool) -> Renderer {
        Renderer {
            shown: None,
            cursor: None,
            ink: None,
            color,
            clears_black: true,
            #[cfg(test)]
            visited: std::cell::Cell::new(0),
            #[cfg(test)]
            weigh_every_cell: false,
        }
    }

    /// The renderer for a terminal that clears in its default background,
    /// not the one set (no `bce`, as GNU screen and tmux describe
    /// themselves): a repaint in colour writes the blank cells too, as
    /// curses does, or the cells no frame draws would keep the default
    /// background, which may not be black.
    pub fn without_back_color_erase(mut self) -> Renderer {
        self.clears_black = false;
        self
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
    pub fn draw<W: Write>(&mut self, frame: Frame, bell: bool, out: &mut W) -> io::Result<()> {
        let (cols, rows) = (frame.cols, frame.rows);
        let mut bytes = Vec::new();
        if let Err(e) = self.encode(frame, &mut bytes) {
            if e.kind() != io::ErrorKind::OutOfMemory {
                return Err(e);
            }
            bytes = Vec::new();
            self.shown = None;
            let mut notice = Frame::new(cols, rows);
            notice.text(0, 0, &e.to_string(), None);
            notice.text(1, 0, RESIZE, None);
            self.encode(notice, &mut bytes)?;
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
    /// synchronized update, or nothing when the screen already shows it;
    /// `frame` is then what the screen shows.
    ///
    /// Changed cells are not written in reading order but greedily, the
    /// cheapest next (see [`Renderer::next_cell`]): a vertical grid line
    /// then costs `\n\b` (two bytes) a character instead of a row of blanks
    /// or a jump, and a diamond is drawn row under row. Rows are compared
    /// run by run, a run that goes on under the cursor is written in one
    /// go and any other cell costs a bounded amount of work, so a frame
    /// costs time in proportion to its runs, the cells that changed and
    /// the bytes written.
    fn encode(&mut self, mut frame: Frame, out: &mut Vec<u8>) -> io::Result<()> {
        if !frame.complete {
            return Err(too_large(&frame));
        }
        frame.tidy()?;
        let start = out.len();
        out.extend_from_slice(BEGIN_SYNC);
        let body_start = out.len();
        let old = match self.shown.take() {
            Some(old) if old.cols == frame.cols && old.rows == frame.rows => old,
            _ => {
                self.clear(out);
                self.cleared(frame.cols, frame.rows)?
            }
        };
        let mut pending = Pending::between(&frame, &old)?;
        #[cfg(test)]
        self.visited.set(
            (0..frame.rows)
                .map(|r| frame.lines[r].runs().len() + old.lines[r].runs().len())
                .sum(),
        );
        drop(old);
        // Every cell before `scan` has been written.
        let mut scan = (0, 0);
        while pending.left > 0 {
            if self.go_on(&frame, &mut pending, out)? {
                continue;
            }
            // Room for the longest move, colour and character.
            reserve(out, 2 * size_of::<Moves>(), &frame)?;
            scan = pending.next_from(scan);
            if self.over_one_blank(&frame, &pending, scan) {
                out.push(b' ');
                self.cursor = self.cursor.map(|(row, col)| (row, col + 1));
                continue;
            }
            let ((row, col), moves, rewritten) = self.next_cell(&frame, &pending, scan);
            out.extend_from_slice(moves.as_slice());
            if let Some((row, from, to)) = rewritten {
                pending.take(row, from, to);
            }
            let cell = frame.get(row, col);
            if cell.ch != ' ' && self.ink != Some(cell.ink) {
                set_ink(cell.ink, out);
                self.ink = Some(cell.ink);
            }
            push_char(cell.ch, out);
            pending.take(row, col, col + 1);
            self.cursor = (col + 1 < frame.cols).then_some((row, col + 1));
        }
        drop(pending);
        self.shown = Some(frame);
        if out.len() == body_start {
            out.truncate(start);
        } else {
            out.extend_from_slice(END_SYNC);
        }
        Ok(())
    }

    /// Writes, where the run goes on under the cursor, the pending cells
    /// from there that need neither a move nor a colour change, a stretch
    /// of equal cells at a time. Returns whether it wrote any.
    fn go_on(
        &mut self,
        frame: &Frame,
        pending: &mut Pending,
        out: &mut Vec<u8>,
    ) -> io::Result<bool> {
        let Some((row, col)) = self.cursor else {
            return Ok(false);
        };
        let Some(end) = pending.stretch_end(row, col) else {
            return Ok(false);
        };
        let mut written = col;
        for segment in frame.lines[row].segments(col, end) {
            let cell = segment.cell;
            if cell.ch != ' ' && self.ink != Some(cell.ink) {
                break;
            }
            let count = (segment.end - segment.start) as usize;
            reserve(out, count * cell.ch.len_utf8(), frame)?;
            for _ in 0..count {
                push_char(cell.ch, out);
            }
            written = segment.end as usize;
        }
        if written == col {
            return Ok(false);
        }
        pending.take(row, col, written);
        self.cursor = (written < frame.cols).then_some((row, written));
        Ok(true)
    }

    /// Whether the next cell to write is the one after the blank right of
    /// the cursor, pending and needing no colour change: the blank is then
    /// written over to get there. [`Renderer::next_cell`] would choose the
    /// same, at a cost of a byte, but only after weighing the cells around.
    /// No cell costs less but the one under the cursor, which is not
    /// pending, and ties go to the earliest cell, so it is the choice
    /// unless an earlier cell costs a byte too: the one left of the
    /// cursor (a backspace) or the row's first (a carriage return); any
    /// other on the row costs two bytes at least, and one on a row above
    /// three. On a grid's rows, where every other cell is a line, this
    /// short cut skips most of the work of a repaint.
    fn over_one_blank(&self, frame: &Frame, pending: &Pending, scan: (usize, usize)) -> bool {
        #[cfg(test)]
        if self.weigh_every_cell {
            return false;
        }
        let Some((row, col)) = self.cursor else {
            return false;
        };
        if col + 1 >= frame.cols || frame.get(row, col).ch != ' ' {
            return false;
        }
        // `scan` there: no cell before it is pending. Otherwise, looked up.
        let pending_at = |col| pending.stretch_end(row, col).is_some();
        let chosen = scan == (row, col + 1)
            || pending_at(col + 1)
                && !(col > 0 && (pending.first_column(row) || pending_at(col - 1)));
        let cell = frame.get(row, col + 1);
        chosen && (cell.ch == ' ' || self.ink == Some(cell.ink))
    }

    /// Chooses the next cell to write: the cheapest, counting the move and
    /// any colour change, of the first pending cell in reading order
    /// (`scan`), the pending cells a few rows below and columns around the
    /// cursor that start a stretch of pending cells (so a stretch is
    /// written left to right in one go), and, once the cursor's row is
    /// done while `scan` is held back on a row above (by a colour change
    /// that costs more than any move), the first pending cell of the rows
    /// below: so the rows after it are still written in reading order,
    /// `\r\n` from one to the next, rather than back and forth from the
    /// end of each row. Ties go to the earlier cell in reading order.
    /// Returns its row and column, the move there, and the row and columns
    /// `from..to` the move rewrote.
    fn next_cell(
        &self,
        frame: &Frame,
        pending: &Pending,
        scan: (usize, usize),
    ) -> ((usize, usize), Moves, Rewritten) {
        let mut best = (self.cost(frame, scan), scan);
        if let Some((row, col)) = self.cursor {
            let below = pending.first_from((row, col), row + NEARBY_ROWS);
            if let Some(below) = below.filter(|&below| scan.0 < row && below.0 > row) {
                #[cfg(test)]
                self.visited.set(self.visited.get() + 1);
                best = best.min((self.cost(frame, below), below));
            }
            let (left, right) = (
                col.saturating_sub(NEARBY_LEFT),
                (col + NEARBY_RIGHT).min(frame.cols),
            );
            for r in row..(row + NEARBY_ROWS).min(frame.rows) {
                for start in pending.starts_from(r, left) {
                    let at = (r, start);
                    if at.1 >= right {
                        break;
                    }
                    #[cfg(test)]
                    self.visited.set(self.visited.get() + 1);
                    // Any move down or across takes a byte at least: a
                    // cell that cannot beat the best is not weighed.
                    let least = usize::from(r != row) + usize::from(at.1 != col);
                    if at == scan || (least, at) >= best {
                        continue;
                    }
                    let total = self.cost(frame, at);
                    if (total, at) < best {
                        best = (total, at);
                    }
                }
            }
        }
        // Only the winner's move is kept: the others are weighed by length.
        let (moves, rewritten) = self.move_to::<Moves>(frame, best.1.0, best.1.1);
        (best.1, moves, rewritten)
    }

    /// The bytes it takes to write the cell at `at` next, counting the move
    /// and any colour change.
    fn cost(&self, frame: &Frame, (row, col): (usize, usize)) -> usize {
        let cell = frame.get(row, col);
        let mut total = self.move_to::<Length>(frame, row, col).0.len();
        if cell.ch != ' ' && self.ink != Some(cell.ink) {
            let mut sgr = Length::default();
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

    /// What a `cols` × `rows` screen shows once cleared, as far as the
    /// renderer may count on: blank where the clear left it black, and
    /// otherwise a cell no frame draws, so that every blank cell is
    /// written. All but the bottom-right one: writing there would scroll a
    /// terminal that wraps at once, and one cell is left the default
    /// background rather than risk that.
    fn cleared(&self, cols: usize, rows: usize) -> io::Result<Frame> {
        let mut cleared = Frame::new(cols, rows);
        if self.color && !self.clears_black {
            for row in 0..rows {
                let len = if row + 1 == rows {
                    cols.saturating_sub(1)
                } else {
                    cols
                };
                cleared.fill(row, 0, len, UNWRITTEN, None);
            }
            cleared.tidy()?;
        }
        Ok(cleared)
    }

    /// The shortest bytes that move the terminal cursor to `row`, `col`
    /// (or their length), and the row and columns `from..to` they rewrite,
    /// if they do.
    fn move_to<M: Move>(&self, frame: &Frame, row: usize, col: usize) -> (M, Rewritten) {
        let mut jump = M::default();
        cup(row, col, &mut jump);
        let Some((from_row, from_col)) = self.cursor else {
            return (jump, None);
        };
        let mut vertical = M::default();
        match row.cmp(&from_row) {
            Ordering::Equal => {}
            Ordering::Greater => {
                let n = row - from_row;
                csi_n(n, b'B', &mut vertical);
                if n <= vertical.len() {
                    vertical = M::default();
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
        let mut from_start = M::default();
        from_start.put(b"\r");
        from_start.append(&vertical);
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
    fn horizontal<M: Move>(
        &self,
        frame: &Frame,
        row: usize,
        from: usize,
        to: usize,
        out: &mut M,
    ) -> bool {
        match to.cmp(&from) {
            Ordering::Equal => false,
            Ordering::Less => {
                let n = from - to;
                let mut csi = M::default();
                csi_n(n, b'D', &mut csi);
                if n <= csi.len() {
                    for _ in 0..n {
                        out.put(&[0x08]);
                    }
                } else {
                    out.append(&csi);
                }
                false
            }
            Ordering::Greater => {
                let mut csi = M::default();
                csi_n(to - from, b'C', &mut csi);
                // Every character takes at least a byte: a longer stretch
                // is never shorter to rewrite, so it is not looked at.
                if to - from > csi.len() {
                    out.append(&csi);
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
                    out.append(&csi);
                    false
                }
            }
        }
    }
}

/// Makes room for `more` bytes in `out`, growing it at least twofold; or
/// an error when memory runs out.
fn reserve(out: &mut Vec<u8>, more: usize, frame: &Frame) -> io::Result<()> {
    if out.capacity() - out.len() < more {
        out.try_reserve(more.max(out.len()).max(4096))
            .map_err(|_| too_large(frame))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Draws `frame` and returns the bytes written.
    fn draw(renderer: &mut Renderer, frame: &Frame) -> Vec<u8> {
        let mut out = Vec::new();
        renderer.draw(frame.clone(), false, &mut out).unwrap();
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
        renderer.draw(frame.clone(), true, &mut out).unwrap();
        assert_eq!(out, b"\x07");
    }

    /// A 9 × 9 board of `cell`-character cells: the grid, a chip as a
    /// diamond and the cursor as a block, drawn as the view does.
    fn board(frame: &mut Frame, cell: usize, cursor: usize) {
        for row in 0..=9 * cell {
            for k in 0..=9 {
                frame.set(row, k * cell, '|', Some(7));
            }
        }
        for k in 0..=9 {
            frame.fill(k * cell, 1, 9 * cell - 1, '-', Some(7));
        }
        let half = cell / 2;
        for r in 1..cell {
            let width = half - r.abs_diff(half);
            frame.fill(cell + r, 2 * cell + half - width, 2 * width, 'O', Some(2));
        }
        for r in 2..cell - 1 {
            frame.fill(cursor * cell + r, cursor * cell + 2, cell - 3, '#', Some(3));
        }
    }

    #[test]
    fn a_board_in_a_huge_terminal_costs_its_runs_not_its_area() {
        // The default board in a 5000 × 5000 terminal: 555-character cells.
        // Stored cell by cell, a frame took 200 MB and each draw compared
        // and copied 25 million cells.
        let (side, cell) = (5000, 555);
        let mut frame = Frame::new(side, side);
        board(&mut frame, cell, 4);
        let mut renderer = Renderer::new(true);
        draw(&mut renderer, &frame);
        // Runs: 10 on each row, the lines and the chip's and cursor's rows.
        let runs = 10 * side + 10 + 2 * cell;
        let shown = renderer.shown.as_ref().unwrap().heap_bytes();
        assert!(shown <= 2 << 20, "{shown} bytes held");
        // Each run compared once, and a bounded look around the cursor (4
        // rows, and the moves there) where a stretch of changes starts.
        let per_run = 50;
        let visited = renderer.visited.get();
        assert!(
            visited <= per_run * runs,
            "{visited} runs and cells looked at"
        );
        // The cursor moves: the work follows the rows that changed.
        let mut moved = Frame::new(side, side);
        board(&mut moved, cell, 5);
        draw(&mut renderer, &moved);
        let visited = renderer.visited.get();
        assert!(
            visited <= per_run * runs,
            "{visited} runs and cells looked at"
        );
    }

    /// A seeded stream of numbers (a linear congruential generator's high
    /// bits), for frames that are the same every run.
    fn numbers(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state >> 24
        }
    }

    #[test]
    fn the_short_cut_over_a_blank_writes_what_weighing_every_cell_would() {
        let mut next = numbers(11);
        // First, a grid row of cells one column wide, a line and a blank
        // in turn: the short cut's case.
        let mut grid_row = Frame::new(2001, 3);
        for col in (0..2001).step_by(2) {
            grid_row.set(1, col, '|', Some(7));
        }
        let mut frames = vec![grid_row];
        for (cell, cursor) in [(2, 3), (5, 0), (5, 4), (5, 8)] {
            let mut frame = Frame::new(60, 50);
            board(&mut frame, cell, cursor);
            frames.push(frame);
        }
        // Then screens of every density, each with a few cells changed.
        for step in 0..80 {
            let mut frame = Frame::new(31, 12);
            for r in 0..12 {
                for c in 0..31 {
                    if next() % 10 < 1 + step % 9 {
                        let ch = [' ', 'O', '|', '-'][(next() % 4) as usize];
                        frame.set(r, c, ch, Some([1, 7, 12][(next() % 3) as usize]));
                    }
                }
            }
            frames.push(frame.clone());
            for _ in 0..next() % 6 {
                let (r, c) = ((next() % 12) as usize, (next() % 31) as usize);
                frame.set(r, c, ['O', '|', ' '][(next() % 3) as usize], Some(7));
            }
            frames.push(frame);
        }
        for color in [true, false] {
            let mut quick = Renderer::new(color);
            let mut weighed = Renderer::new(color);
            weighed.weigh_every_cell = true;
            // Each frame drawn over the one before, then over a cleared
            // screen.
            for repaint in [false, true] {
                for (i, frame) in frames.iter().enumerate() {
                    if repaint {
                        quick.invalidate();
                        weighed.invalidate();
                    }
                    let bytes = draw(&mut quick, frame);
                    assert_eq!(bytes, draw(&mut weighed, frame), "frame {i}, {repaint}");
                    if i == 0 && color {
                        let (quick, weighed) = (quick.visited.get(), weighed.visited.get());
                        // The row's runs are compared either way.
                        assert!(quick < weighed / 2, "{quick} against {weighed}");
                    }
                }
            }
        }
    }

    #[test]
    fn rows_after_a_colour_change_are_still_written_in_reading_order() {
        // A grid of cells one column wide, a chip of another colour in the
        // first cell: it costs more than any move until its turn comes,
        // and the rows after it were written back and forth, three
        // backspaces a line.
        // A column is left free: after the last one the cursor is lost.
        let (cols, rows) = (41, 9);
        let mut frame = Frame::new(cols + 1, rows);
        for row in 0..rows {
            if row % 2 == 0 {
                frame.fill(row, 1, cols - 2, '-', Some(7));
            } else {
                for col in (2..cols).step_by(2) {
                    frame.set(row, col, '|', Some(7));
                }
            }
            frame.set(row, 0, '|', Some(7));
            frame.set(row, cols - 1, '|', Some(7));
        }
        frame.set(1, 1, 'O', Some(2));
        let out = draw(&mut Renderer::new(true), &frame);
        let body = body(&out);
        assert!(!body.windows(2).any(|w| w == b"\x08\x08"), "{body:?}");
        // Each row and a `\r\n` after it, the clear, and the chip's colour,
        // jump and colour back.
        let most = rows * (cols + 2) + 40;
        assert!(body.len() <= most, "{} bytes: {body:?}", body.len());
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

    /// The cells of `rows` × `cols` whose background is not black once
    /// `out` is shown on a fresh terminal that clears in its own default
    /// background (no `bce`): its clears are taken out, since on a fresh
    /// screen they change nothing there.
    fn not_black_without_bce(out: &[u8], cols: u16, rows: u16) -> Vec<(u16, u16)> {
        let mut out = out.to_vec();
        while let Some(at) = out.windows(4).position(|w| w == b"\x1b[2J") {
            out.drain(at..at + 4);
        }
        let mut parser = vt100::Parser::new(
            std::num::NonZeroU16::new(rows).unwrap(),
            std::num::NonZeroU16::new(cols).unwrap(),
            0,
        );
        parser.process(&out);
        let screen = parser.screen();
        (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .filter(|&(r, c)| screen.cell(r, c).unwrap().bgcolor() != vt100::Color::Idx(0))
            .collect()
    }

    #[test]
    fn without_back_colour_erase_a_repaint_writes_the_blank_cells() {
        let (cols, rows) = (12, 4);
        let mut frame = Frame::new(cols.into(), rows.into());
        frame.text(0, 0, "|--|", Some(7));
        frame.text(1, 0, "|O |", Some(1));
        let mut renderer = Renderer::new(true).without_back_color_erase();
        for _ in 0..2 {
            let out = draw(&mut renderer, &frame);
            // All black but the bottom-right cell, which is not written.
            assert_eq!(
                not_black_without_bce(&out, cols, rows),
                [(rows - 1, cols - 1)]
            );
            let mut parser = vt100::Parser::new(
                std::num::NonZeroU16::new(rows).unwrap(),
                std::num::NonZeroU16::new(cols).unwrap(),
                0,
            );
            assert_eq!(screen_after(&mut parser, &out), text_of(&frame));
            renderer.invalidate();
        }
        // Where the clear leaves the screen black, blank cells are not
        // written; in black and white there is no background to keep.
        let with_bce = draw(&mut Renderer::new(true), &frame);
        let not_black = not_black_without_bce(&with_bce, cols, rows);
        assert!((2..rows).all(|r| (0..cols).all(|c| not_black.contains(&(r, c)))));
        let mono = Renderer::new(false);
        assert_eq!(
            draw(&mut mono.without_back_color_erase(), &frame),
            draw(&mut Renderer::new(false), &frame)
        );
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
        let mut next = numbers(7);
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
