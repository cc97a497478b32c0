//! The board: cells and chips, the computer's random throw, shortest paths
//! and line detection, and the scoring formula.
//!
//! Everything here is pure: no I/O, no clock, no terminal. Randomness comes
//! from the caller's generator, so a seeded game replays exactly.

use std::cell::RefCell;
use std::collections::BTreeMap;

use rand_core::Rng;

mod free_cells;
mod path;

use free_cells::FreeCells;
pub use path::PathSearch;

thread_local! {
    /// The workspace of [`Board::path`] and [`Board::reachable`]: allocated
    /// for the largest board searched on this thread, then reused.
    static SEARCH: RefCell<PathSearch> = RefCell::new(PathSearch::new());
}

/// A chip colour, `1..=colors`.
pub type Color = u8;

/// The largest number of colours a game can have (`1`–`9`, then `a`–`z`).
pub const MAX_COLORS: u8 = 35;

/// The character for a cell's contents in the text of a board (the
/// headless `board` answer, a saved game): `.` for an empty cell (0),
/// `1`–`9`, then `a`–`z` for colours 10 to [`MAX_COLORS`].
pub fn color_char(color: Color) -> char {
    match color {
        0 => '.',
        1..=9 => char::from(b'0' + color),
        _ => char::from(b'a' + color - 10),
    }
}

/// The cell contents that `c` stands for in the text of a board (see
/// [`color_char`]), 0 for empty; `None` for any other character.
pub fn color_of_char(c: char) -> Option<Color> {
    match c {
        '.' => Some(0),
        '1'..='9' | 'a'..='z' => c.to_digit(36).map(|d| d as Color),
        _ => None,
    }
}

/// A cell position: `x` is the column, `y` the row, both 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    /// Column, 0-based from the left.
    pub x: usize,
    /// Row, 0-based from the top.
    pub y: usize,
}

impl Pos {
    /// The position at column `x`, row `y`.
    pub const fn new(x: usize, y: usize) -> Pos {
        Pos { x, y }
    }
}

/// A chip thrown onto or removed from the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chip {
    /// Where the chip is.
    pub pos: Pos,
    /// Its colour.
    pub color: Color,
}

/// The four axes a line can lie on, as unit steps.
const AXES: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A throw of at least one chip per this many cells lists the empty cells
/// rather than finding each one in the free-cell counts; a throw or a
/// removal of that many cells rebuilds the counts rather than updating
/// them cell by cell.
const LISTING_RATIO: usize = 256;

/// Line detection through at least one cell per this many cells scans the
/// whole board rather than the lines through each cell.
const SCAN_RATIO: usize = 16;

/// The flag of [`Board::lines_by_scan`] marking a given cell; bits 0–3
/// are the axes'.
const GIVEN: u8 = 1 << 4;

/// The flag of [`Board::lines_by_scan`] marking a cell of a line.
const HIT: u8 = 1 << 5;

/// A run of chips of one colour on one axis, as far as a sweep has come:
/// the chips so far, counted up to the shortest line, times two, plus one
/// when one of them is a given cell. Plain integers, so that the compiler
/// can vectorize the sweep.
type Run = u32;

/// The way down of [`Board::lines_by_scan`] for a shortest line of `min`.
struct Sweep {
    min: u32,
}

impl Sweep {
    /// The run ending at a cell of colour `color` (0 for empty) whose
    /// neighbour before it on the axis has colour `before` and ends the
    /// run `prev`; sets bit `axis` of the cell's `flag` when it qualifies.
    fn extend(&self, color: Color, before: Color, prev: Run, flag: &mut u8, axis: u8) -> Run {
        let same = u32::from((color != 0) & (color == before));
        let kept = prev & same.wrapping_neg();
        let len = ((kept >> 1) + u32::from(color != 0)).min(self.min);
        let given = (kept & 1) | u32::from(*flag & GIVEN != 0);
        *flag |= (u8::from(len >= self.min) & given as u8) << axis;
        len << 1 | given
    }

    /// [`Sweep::extend`] for each cell of `row`, given the cells before
    /// them and their runs, aligned with it.
    fn extend_row(
        &self,
        row: &[Color],
        before: &[Color],
        prev: &[Run],
        flags: &mut [u8],
        runs: &mut [Run],
        axis: u8,
    ) {
        // Slices of one length, so that the loop has no bounds checks.
        let n = row.len();
        let (before, prev, flags, runs) =
            (&before[..n], &prev[..n], &mut flags[..n], &mut runs[..n]);
        for k in 0..n {
            runs[k] = self.extend(row[k], before[k], prev[k], &mut flags[k], axis);
        }
    }
}

/// The answer, bit `axis`, of a cell of colour `color` on the way up of
/// [`Board::lines_by_scan`]: the next cell's `next` when that one, of
/// colour `after`, goes on the run, else the cell's own `flag`.
fn pass_on(color: Color, after: Color, next: u8, flag: u8, axis: u8) -> u8 {
    let bit = 1 << axis;
    let same = u8::from((color != 0) & (color == after)).wrapping_neg();
    (next & same | flag & !same) & bit
}

/// [`pass_on`] for each cell of `row`, given the next cells' colours and
/// answers and the cells' flags, aligned with it; adds each to `answers`.
fn carry(row: &[Color], after: &[Color], next: &[u8], flags: &[u8], answers: &mut [u8], axis: u8) {
    // Slices of one length, so that the loop has no bounds checks.
    let n = row.len();
    let (after, next, flags, answers) = (&after[..n], &next[..n], &flags[..n], &mut answers[..n]);
    for k in 0..n {
        answers[k] |= pass_on(row[k], after[k], next[k], flags[k], axis);
    }
}

/// A `width` × `height` grid of cells, each empty or holding one chip.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    width: usize,
    height: usize,
    /// Row-major; 0 is empty, otherwise the chip's colour.
    cells: Vec<Color>,
    /// Kept in step with `cells` so that fullness checks are O(1).
    free: usize,
    /// Kept in step with `cells`, so that a throw finds its cells quickly.
    free_cells: FreeCells,
}

impl Board {
    /// An empty board.
    ///
    /// # Panics
    /// When a side is 0, or the board has more cells than a `u32` counts:
    /// cells are indexed by `u32` (the game's rules allow 10⁶ cells).
    pub fn new(width: usize, height: usize) -> Board {
        assert!(width > 0 && height > 0, "a board needs at least one cell");
        let len = width
            .checked_mul(height)
            .filter(|&len| u32::try_from(len).is_ok())
            .expect("a board of at most u32::MAX cells");
        Board {
            width,
            height,
            cells: vec![0; len],
            free: len,
            free_cells: FreeCells::all_empty(len),
        }
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether the board has no cells; never true, as boards are at least 1×1.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Number of empty cells.
    pub fn free(&self) -> usize {
        self.free
    }

    /// Number of chips on the board.
    pub fn chip_count(&self) -> usize {
        self.len() - self.free
    }

    /// Whether every cell holds a chip.
    pub fn is_full(&self) -> bool {
        self.free == 0
    }

    /// Whether `pos` lies on the board.
    pub fn contains(&self, pos: Pos) -> bool {
        pos.x < self.width && pos.y < self.height
    }

    /// The chip's colour at `pos`, or `None` for an empty cell or a position
    /// off the board.
    pub fn get(&self, pos: Pos) -> Option<Color> {
        if !self.contains(pos) {
            return None;
        }
        match self.cells[self.index(pos)] {
            0 => None,
            color => Some(color),
        }
    }

    /// Puts a chip of `color` at `pos`, or empties it with `None`.
    ///
    /// # Panics
    /// When `pos` is off the board or the colour is 0.
    pub fn set(&mut self, pos: Pos, color: Option<Color>) {
        assert!(self.contains(pos), "{pos:?} is off the board");
        let new = color.unwrap_or(0);
        assert!(color != Some(0), "colour 0 is not a chip");
        let i = self.index(pos);
        match (self.cells[i], new) {
            (0, 0) => {}
            (0, _) => {
                self.free -= 1;
                self.free_cells.update(i, false);
            }
            (_, 0) => {
                self.free += 1;
                self.free_cells.update(i, true);
            }
            _ => {}
        }
        self.cells[i] = new;
    }

    /// Empties every cell.
    pub fn clear(&mut self) {
        self.cells.fill(0);
        self.free = self.len();
        self.free_cells = FreeCells::all_empty(self.len());
    }

    /// The raw cells, row-major, 0 for empty.
    pub fn cells(&self) -> &[Color] {
        &self.cells
    }

    /// Every chip on the board, row by row.
    pub fn chips(&self) -> impl Iterator<Item = Chip> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != 0)
            .map(|(i, &color)| Chip {
                pos: self.pos(i),
                color,
            })
    }

    /// Every empty cell, row by row.
    pub fn empty_cells(&self) -> impl Iterator<Item = Pos> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c == 0)
            .map(|(i, _)| self.pos(i))
    }

    /// Row-major index of `pos`.
    pub fn index(&self, pos: Pos) -> usize {
        pos.y * self.width + pos.x
    }

    /// Position of row-major index `i`.
    pub fn pos(&self, i: usize) -> Pos {
        Pos::new(i % self.width, i / self.width)
    }

    /// The computer's throw: `count` chips on distinct, uniformly random
    /// empty cells, each of a uniformly random colour in `1..=colors`.
    ///
    /// Returns `None`, changing nothing, when fewer than `count` cells are
    /// empty. The draw order is fixed (see [`choose_cells`]) so that a seeded
    /// generator always produces the same throw.
    pub fn throw<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        count: usize,
        colors: Color,
    ) -> Option<Vec<Chip>> {
        let cells = self.throw_cells(rng, count, colors)?;
        Some(self.chips_at(&cells))
    }

    /// [`Board::throw`], returning the cells thrown onto as row-major
    /// indices, in draw order: four bytes a chip rather than 24.
    pub fn throw_cells<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        count: usize,
        colors: Color,
    ) -> Option<Vec<u32>> {
        if count > self.free {
            return None;
        }
        let cells = self.choose_empty(rng, count);
        // Every position is drawn before any colour.
        for &i in &cells {
            self.cells[i as usize] = 1 + below(rng, u64::from(colors)) as Color;
        }
        self.filled(&cells);
        Some(cells)
    }

    /// Brings the free-cell counts up to date after `cells`, all empty
    /// before, were filled: one by one when they are few, all at once when
    /// they are many.
    fn filled(&mut self, cells: &[u32]) {
        self.free -= cells.len();
        if cells.len().saturating_mul(LISTING_RATIO) >= self.len() {
            self.free_cells = FreeCells::of(&self.cells);
        } else {
            for &i in cells {
                self.free_cells.update(i as usize, false);
            }
        }
    }

    /// `count` distinct empty cells (every one, where fewer are empty: a
    /// preview plans a throw that may not fit), as [`choose_cells`] picks
    /// them from the list of empty cells in row-major order, with the same
    /// draws.
    ///
    /// A throw of a few chips does not list the cells: it shuffles a virtual
    /// list, keeping only the entries it swapped, and finds an untouched
    /// entry, the k-th empty cell, with the free-cell counts in O(log n).
    /// A throw of many chips lists them, which is then cheaper.
    pub(crate) fn choose_empty<R: Rng + ?Sized>(&self, rng: &mut R, count: usize) -> Vec<u32> {
        if count.saturating_mul(LISTING_RATIO) >= self.len() {
            // Four bytes an entry: a full 1000 × 1000 throw lists 4 MB,
            // which becomes the answer.
            let mut pool: Vec<u32> = (0..self.len() as u32)
                .filter(|&i| self.cells[i as usize] == 0)
                .collect();
            let count = shuffle_prefix(rng, &mut pool, count);
            pool.truncate(count);
            return pool;
        }
        self.choose_empty_sparse(rng, count)
    }

    /// [`Board::choose_empty`] without listing the empty cells.
    fn choose_empty_sparse<R: Rng + ?Sized>(&self, rng: &mut R, count: usize) -> Vec<u32> {
        let len = self.free;
        let mut swapped: BTreeMap<usize, usize> = BTreeMap::new();
        let entry = |swapped: &BTreeMap<usize, usize>, k: usize| {
            swapped
                .get(&k)
                .copied()
                .unwrap_or_else(|| free_cells::kth_empty(&self.cells, &self.free_cells, k))
        };
        (0..count.min(len))
            .map(|j| {
                let k = j + below(rng, (len - j) as u64) as usize;
                let (at_j, at_k) = (entry(&swapped, j), entry(&swapped, k));
                swapped.insert(k, at_j);
                swapped.insert(j, at_k);
                at_k as u32
            })
            .collect()
    }

    /// The shortest 4-connected path that moves the chip at `from` to the
    /// empty cell `to` through empty cells, both ends included; `None` when
    /// `to` cannot be reached (or `from` holds no chip, or `to` is occupied).
    ///
    /// Among several shortest paths, each step prefers moving vertically
    /// toward the target, then horizontally toward it, as the original game
    /// does. The cost follows the path and the area the chip or the target
    /// can reach, not the board (see [`PathSearch`]); the buffers are this
    /// thread's, allocated once for the largest board and reused.
    pub fn path(&self, from: Pos, to: Pos) -> Option<Vec<Pos>> {
        SEARCH.with_borrow_mut(|search| search.path(self, from, to))
    }

    /// Whether the chip at `from` can move to the empty cell `to`.
    pub fn reachable(&self, from: Pos, to: Pos) -> bool {
        SEARCH.with_borrow_mut(|search| search.reachable(self, from, to))
    }

    /// Every chip lying on a line of at least `min_len` same-coloured chips,
    /// on any of the four axes, through any of `through`. Each chip appears
    /// once, even where lines cross; the result is in row-major order.
    ///
    /// A few given cells are looked at along their own lines only; many
    /// (a throw filling much of the board) make one linear pass over every
    /// line of the board instead.
    pub fn lines_through(&self, through: &[Pos], min_len: usize) -> Vec<Chip> {
        let cells: Vec<u32> = through
            .iter()
            .filter(|&&p| self.contains(p))
            .map(|&p| self.index(p) as u32)
            .collect();
        self.chips_at(&self.lines_through_cells(&cells, min_len))
    }

    /// [`Board::lines_through`] for cells given and returned as row-major
    /// indices: four bytes a cell rather than a [`Chip`]'s 24, for throws
    /// of up to a million chips.
    pub fn lines_through_cells(&self, through: &[u32], min_len: usize) -> Vec<u32> {
        if through.len().saturating_mul(SCAN_RATIO) >= self.len() {
            return self.lines_by_scan(through, min_len);
        }
        // Each run is walked once per axis however many given cells lie on
        // it.
        let mut given: Vec<usize> = through
            .iter()
            .map(|&i| i as usize)
            .filter(|&i| self.cells[i] != 0)
            .collect();
        given.sort_unstable();
        given.dedup();
        let mut walked = vec![[false; AXES.len()]; given.len()];
        let mut hits = Vec::new();
        for (axis, (dx, dy)) in AXES.into_iter().enumerate() {
            for j in 0..given.len() {
                if walked[j][axis] {
                    continue;
                }
                let color = self.cells[given[j]];
                let same = |p: &Pos| self.cells[self.index(*p)] == color;
                let mut first = self.pos(given[j]);
                while let Some(p) = self.offset(first, -dx, -dy).filter(same) {
                    first = p;
                }
                let run_start = hits.len();
                let mut at = Some(first);
                while let Some(p) = at.filter(same) {
                    let i = self.index(p);
                    if let Ok(k) = given.binary_search(&i) {
                        walked[k][axis] = true;
                    }
                    hits.push(i as u32);
                    at = self.offset(p, dx, dy);
                }
                if hits.len() - run_start < min_len {
                    hits.truncate(run_start);
                }
            }
        }
        hits.sort_unstable();
        hits.dedup();
        hits
    }

    /// The chips at the row-major indices `cells`.
    pub fn chips_at(&self, cells: &[u32]) -> Vec<Chip> {
        // Cells of a row that come one after another (as the line passes
        // give them) share one division: on a full 1000 × 1000 board the
        // line pass returns a million cells, and a division each was a
        // sixth of its time.
        let (mut row, mut y) = (0..0, 0);
        cells
            .iter()
            .map(|&i| {
                let i = i as usize;
                if !row.contains(&i) {
                    y = i / self.width;
                    row = y * self.width..(y + 1) * self.width;
                }
                Chip {
                    pos: Pos::new(i - row.start, y),
                    color: self.cells[i],
                }
            })
            .collect()
    }

    /// [`Board::lines_through`] by two sweeps over the rows, each reading
    /// the board in memory order: linear in the cells, one byte a cell and
    /// a few words a column while it runs.
    ///
    /// Going down, each cell learns of the run that ends there on each
    /// axis, as far as it has come: its length (counted up to `min_len`)
    /// and whether it holds a given cell. A run qualifies when it has come
    /// far enough, which is then true at its last cell. Going back up, each
    /// cell takes its run's answer from the next cell of the run, or, at
    /// the run's last cell, from what the way down found. Each step is one
    /// simple loop along a row, which the compiler can vectorize.
    fn lines_by_scan(&self, through: &[u32], min_len: usize) -> Vec<u32> {
        if min_len > self.width.max(self.height) {
            return Vec::new();
        }
        let mut flags = vec![0u8; self.len()];
        for &i in through {
            flags[i as usize] = GIVEN;
        }
        let sweep = Sweep {
            min: min_len.max(1) as u32,
        };
        self.sweep_down(&sweep, &mut flags);
        self.sweep_up(&mut flags);
        let hits = flags.iter().filter(|&&f| f & HIT != 0).count();
        let mut cells = Vec::with_capacity(hits);
        cells.extend((0..self.len() as u32).filter(|&i| flags[i as usize] & HIT != 0));
        cells
    }

    /// The way down of [`Board::lines_by_scan`]: sets bit `axis` of each
    /// chip's `flags` when the run ending there on that axis, as far as it
    /// has come, qualifies.
    fn sweep_down(&self, sweep: &Sweep, flags: &mut [u8]) {
        let w = self.width;
        let blank = vec![0; w];
        // The runs ending at each cell of the row above and of this row, on
        // the vertical, diagonal and antidiagonal axes.
        let mut above = [(); 3].map(|_| vec![0; w]);
        let mut here = above.clone();
        for y in 0..self.height {
            let row = &self.cells[y * w..][..w];
            let up = y
                .checked_sub(1)
                .map_or(&blank[..], |u| &self.cells[u * w..][..w]);
            let flags = &mut flags[y * w..][..w];
            let mut left = 0;
            for x in 0..w {
                let before = if x > 0 { row[x - 1] } else { 0 };
                left = sweep.extend(row[x], before, left, &mut flags[x], 0);
            }
            let [vertical, diagonal, anti] = &mut here;
            sweep.extend_row(row, up, &above[0], flags, vertical, 1);
            // Above left of each cell but the first.
            sweep.extend_row(
                &row[1..],
                up,
                &above[1],
                &mut flags[1..],
                &mut diagonal[1..],
                2,
            );
            diagonal[0] = sweep.extend(row[0], 0, 0, &mut flags[0], 2);
            // Above right of each cell but the last.
            let last = w - 1;
            sweep.extend_row(
                &row[..last],
                &up[1..],
                &above[2][1..],
                &mut flags[..last],
                &mut anti[..last],
                3,
            );
            anti[last] = sweep.extend(row[last], 0, 0, &mut flags[last], 3);
            std::mem::swap(&mut above, &mut here);
        }
    }

    /// The way up of [`Board::lines_by_scan`]: each chip's axis bits
    /// become its whole run's answer, and chips on a qualifying run on any
    /// axis are flagged [`HIT`].
    fn sweep_up(&self, flags: &mut [u8]) {
        let (w, h) = (self.width, self.height);
        let blank = vec![0; w];
        // The answers of the row below and of this row, one bit an axis.
        let mut below = vec![0u8; w];
        let mut here = vec![0u8; w];
        for y in (0..h).rev() {
            let row = &self.cells[y * w..][..w];
            let down = if y + 1 < h {
                &self.cells[(y + 1) * w..][..w]
            } else {
                &blank[..]
            };
            let flags = &mut flags[y * w..][..w];
            here.fill(0);
            // Below, below right (all but the last cell), below left (all
            // but the first).
            carry(row, down, &below, flags, &mut here, 1);
            let last = w - 1;
            carry(
                &row[..last],
                &down[1..],
                &below[1..],
                &flags[..last],
                &mut here[..last],
                2,
            );
            here[last] |= pass_on(row[last], 0, 0, flags[last], 2);
            carry(&row[1..], down, &below, &flags[1..], &mut here[1..], 3);
            here[0] |= pass_on(row[0], 0, 0, flags[0], 3);
            let mut right = 0;
            for x in (0..w).rev() {
                let after = if x + 1 < w { row[x + 1] } else { 0 };
                right = pass_on(row[x], after, right, flags[x], 0);
                here[x] |= right;
            }
            for (flag, &answer) in flags.iter_mut().zip(&here) {
                *flag = if answer != 0 { HIT } else { 0 };
            }
            std::mem::swap(&mut below, &mut here);
        }
    }

    /// A board drawn as text, one string per row, in the notation of
    /// [`color_char`]: `.` empty, `1`–`9` then `a`–`z` for colours. For
    /// tests: any other character is a mistake in the test, and panics.
    #[cfg(test)]
    pub(crate) fn from_rows(rows: &[&str]) -> Board {
        let mut board = Board::new(rows[0].len(), rows.len());
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let color = color_of_char(ch).unwrap_or_else(|| panic!("{ch:?} in {row:?}"));
                if color > 0 {
                    board.set(Pos::new(x, y), Some(color));
                }
            }
        }
        board
    }

    /// Removes `chips` from the board.
    pub fn remove(&mut self, chips: &[Chip]) {
        for chip in chips {
            self.set(chip.pos, None);
        }
    }

    /// Empties the cells at the row-major indices `cells`.
    pub fn remove_cells(&mut self, cells: &[u32]) {
        let many = cells.len().saturating_mul(LISTING_RATIO) >= self.len();
        for &i in cells {
            let cell = &mut self.cells[i as usize];
            if *cell != 0 {
                *cell = 0;
                self.free += 1;
                if !many {
                    self.free_cells.update(i as usize, true);
                }
            }
        }
        if many {
            self.free_cells = FreeCells::of(&self.cells);
        }
    }

    /// `pos` moved by `(dx, dy)`, or `None` off the board.
    fn offset(&self, pos: Pos, dx: isize, dy: isize) -> Option<Pos> {
        let x = pos.x.checked_add_signed(dx)?;
        let y = pos.y.checked_add_signed(dy)?;
        let p = Pos::new(x, y);
        self.contains(p).then_some(p)
    }
}

/// Points for removing `removed` chips when lines are at least `min_len`
/// long, after `streak` scoring player moves in a row: `n + n·(n − i) + b²`
/// with `n` the chips removed, `i` the shortest line and `b` the streak
/// (the manual's SCORING).
pub fn points(removed: usize, min_len: usize, streak: u32) -> u64 {
    if removed == 0 {
        return 0;
    }
    let n = removed as u64;
    let extra = n.saturating_sub(min_len as u64);
    let b = u64::from(streak);
    n + n * extra + b * b
}

/// Picks `count` distinct entries of `pool` uniformly at random, in draw
/// order, by a partial Fisher–Yates shuffle of `pool` in place: draw `j`
/// swaps entry `j` with entry `j + below(len − j)`.
pub fn choose_cells<R: Rng + ?Sized, T: Copy>(rng: &mut R, pool: &mut [T], count: usize) -> Vec<T> {
    let count = shuffle_prefix(rng, pool, count);
    pool[..count].to_vec()
}

/// Draws made ahead of their swaps in [`shuffle_prefix`].
const DRAWS_AHEAD: usize = 256;

/// The shuffle of [`choose_cells`], leaving the picks as the first entries
/// of `pool`; returns how many (`count`, at most the pool's length).
///
/// The draws are made a batch at a time before their swaps, which then
/// run in a loop of their own: on a pool larger than the cache the swaps'
/// misses overlap rather than each waiting behind a division.
fn shuffle_prefix<R: Rng + ?Sized, T>(rng: &mut R, pool: &mut [T], count: usize) -> usize {
    let len = pool.len();
    let count = count.min(len);
    let mut picks = [0usize; DRAWS_AHEAD];
    for start in (0..count).step_by(DRAWS_AHEAD) {
        let batch = (start..count.min(start + DRAWS_AHEAD)).zip(&mut picks);
        let mut drawn = 0;
        for (j, pick) in batch {
            *pick = j + below(rng, (len - j) as u64) as usize;
            drawn += 1;
        }
        for (j, &k) in (start..).zip(&picks[..drawn]) {
            pool.swap(j, k);
        }
    }
    count
}

/// A uniformly random number in `0..n` (`n > 0`) by rejection sampling over
/// whole 64-bit outputs. Written out rather than borrowed so that a seed's
/// game can never change with a library's sampling algorithm.
pub fn below<R: Rng + ?Sized>(rng: &mut R, n: u64) -> u64 {
    assert!(n > 0, "cannot draw from an empty range");
    loop {
        let v = rng.next_u64();
        // Values above the last whole multiple of n are redrawn. That
        // remainder is below n, so almost every value is kept before it
        // costs a second division to work out.
        if v <= u64::MAX - (n - 1) || v <= u64::MAX - (u64::MAX % n + 1) % n {
            // One colour, or any power of two, needs no division at all.
            return if n.is_power_of_two() {
                v & (n - 1)
            } else {
                v % n
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    /// Cells are indexed by `u32`: a larger board would wrap its indices.
    #[test]
    #[should_panic(expected = "at most u32::MAX cells")]
    fn a_board_of_more_cells_than_a_u32_counts_is_refused() {
        Board::new(70_000, 70_000);
    }

    #[test]
    #[should_panic(expected = "at most u32::MAX cells")]
    fn a_board_whose_size_overflows_is_refused() {
        Board::new(usize::MAX, 2);
    }

    #[test]
    fn colours_as_text_and_back() {
        let shown: String = (0..=MAX_COLORS).map(color_char).collect();
        assert_eq!(shown, ".123456789abcdefghijklmnopqrstuvwxyz");
        for color in 0..=MAX_COLORS {
            assert_eq!(color_of_char(color_char(color)), Some(color));
        }
        for other in ['0', 'A', 'Z', '#', ' ', 'é'] {
            assert_eq!(color_of_char(other), None, "{other:?}");
        }
    }

    #[test]
    fn scoring_table() {
        assert_eq!(points(5, 5, 0), 5);
        assert_eq!(points(5, 5, 1), 6);
        assert_eq!(points(6, 5, 0), 12);
        assert_eq!(points(9, 5, 0), 45);
        assert_eq!(points(5, 5, 3), 14);
        assert_eq!(points(0, 5, 4), 0);
        assert_eq!(points(2, 2, 0), 2);
    }

    #[test]
    fn chips_at_places_cells_in_any_order() {
        let b = Board::from_rows(&["12.3.", "...45", "6...."]);
        // In order, back and forth between rows, repeated, row ends.
        let cells = [0, 1, 3, 8, 9, 10, 4, 0, 14, 9, 5];
        let chips = b.chips_at(&cells);
        let expected: Vec<Chip> = cells
            .iter()
            .map(|&i| {
                let pos = Pos::new(i as usize % 5, i as usize / 5);
                Chip {
                    pos,
                    color: b.get(pos).unwrap_or(0),
                }
            })
            .collect();
        assert_eq!(chips, expected);
    }

    #[test]
    fn free_count_follows_set() {
        let mut b = Board::new(3, 2);
        assert_eq!(b.free(), 6);
        b.set(Pos::new(1, 1), Some(2));
        b.set(Pos::new(1, 1), Some(3));
        assert_eq!(b.free(), 5);
        assert_eq!(b.chip_count(), 1);
        b.set(Pos::new(1, 1), None);
        b.set(Pos::new(1, 1), None);
        assert_eq!(b.free(), 6);
    }

    #[test]
    fn throw_places_distinct_chips_on_empty_cells() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut b = Board::from_rows(&["1....", ".....", "....."]);
        let chips = b.throw(&mut rng, 14, 4).expect("14 cells are empty");
        let mut seen: Vec<Pos> = chips.iter().map(|c| c.pos).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 14);
        assert!(!seen.contains(&Pos::new(0, 0)));
        assert!(chips.iter().all(|c| (1..=4).contains(&c.color)));
        assert!(b.is_full());
    }

    #[test]
    fn throw_refuses_when_too_few_cells_are_empty() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut b = Board::from_rows(&["12.", "345"]);
        assert_eq!(b.throw(&mut rng, 2, 5), None);
        assert_eq!(b.free(), 1);
    }

    #[test]
    fn throw_is_uniform_over_cells_and_colours() {
        let mut rng = ChaCha8Rng::seed_from_u64(99);
        let mut cell_hits = [0u32; 4];
        let mut color_hits = [0u32; 3];
        for _ in 0..12_000 {
            let mut b = Board::new(2, 2);
            let chip = b.throw(&mut rng, 1, 3).unwrap()[0];
            cell_hits[b.index(chip.pos)] += 1;
            color_hits[chip.color as usize - 1] += 1;
        }
        assert!(
            cell_hits.iter().all(|&n| (2700..3300).contains(&n)),
            "{cell_hits:?}"
        );
        assert!(
            color_hits.iter().all(|&n| (3700..4300).contains(&n)),
            "{color_hits:?}"
        );
    }

    #[test]
    fn path_is_shortest_and_prefers_vertical_first() {
        let b = Board::from_rows(&["1....", ".....", "....."]);
        let path = b.path(Pos::new(0, 0), Pos::new(2, 2)).unwrap();
        let expected = [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)];
        assert_eq!(path, expected.map(|(x, y)| Pos::new(x, y)));
    }

    #[test]
    fn path_on_the_targets_row_steps_toward_it_first() {
        // Going right first or down first are both shortest; on the
        // target's row no vertical step leads toward it.
        let b = Board::from_rows(&["1.2.", "...."]);
        let path = b.path(Pos::new(0, 0), Pos::new(3, 0)).unwrap();
        let expected = [(0, 0), (1, 0), (1, 1), (2, 1), (3, 1), (3, 0)];
        assert_eq!(path, expected.map(|(x, y)| Pos::new(x, y)));
    }

    #[test]
    fn path_goes_around_walls() {
        let b = Board::from_rows(&["1.2..", "..2..", "....."]);
        let path = b.path(Pos::new(0, 0), Pos::new(3, 0)).unwrap();
        assert_eq!(path.len(), 8);
        assert_eq!(path.last(), Some(&Pos::new(3, 0)));
        for pair in path.windows(2) {
            assert_eq!(
                pair[0].x.abs_diff(pair[1].x) + pair[0].y.abs_diff(pair[1].y),
                1
            );
        }
    }

    #[test]
    fn no_path_when_walled_off() {
        let b = Board::from_rows(&["1.2..", "222..", "....."]);
        assert_eq!(b.path(Pos::new(0, 0), Pos::new(4, 2)), None);
        assert!(!b.reachable(Pos::new(0, 0), Pos::new(4, 2)));
        assert!(b.reachable(Pos::new(0, 0), Pos::new(1, 0)));
    }

    #[test]
    fn path_needs_a_chip_and_an_empty_target() {
        let b = Board::from_rows(&["12.", "..."]);
        assert_eq!(b.path(Pos::new(2, 0), Pos::new(2, 1)), None);
        assert_eq!(b.path(Pos::new(0, 0), Pos::new(1, 0)), None);
        assert_eq!(b.path(Pos::new(0, 0), Pos::new(9, 9)), None);
    }

    #[test]
    fn lines_on_every_axis() {
        let horizontal = Board::from_rows(&["11111", "....."]);
        assert_eq!(horizontal.lines_through(&[Pos::new(2, 0)], 5).len(), 5);
        let vertical = Board::from_rows(&["2", "2", "2", "2", "2"]);
        assert_eq!(vertical.lines_through(&[Pos::new(0, 4)], 5).len(), 5);
        let diagonal = Board::from_rows(&["3....", ".3...", "..3..", "...3.", "....3"]);
        assert_eq!(diagonal.lines_through(&[Pos::new(4, 4)], 5).len(), 5);
        let anti = Board::from_rows(&["....4", "...4.", "..4..", ".4...", "4...."]);
        assert_eq!(anti.lines_through(&[Pos::new(0, 4)], 5).len(), 5);
    }

    #[test]
    fn short_or_mixed_runs_are_not_lines() {
        let b = Board::from_rows(&["11112", "1111."]);
        assert!(
            b.lines_through(&[Pos::new(0, 0), Pos::new(3, 1)], 5)
                .is_empty()
        );
        assert_eq!(b.lines_through(&[Pos::new(0, 0)], 4).len(), 4);
    }

    #[test]
    fn crossing_lines_count_the_shared_chip_once() {
        let b = Board::from_rows(&[
            "....1....",
            "....1....",
            "....1....",
            "....1....",
            "111111111",
        ]);
        let hits = b.lines_through(&[Pos::new(4, 4)], 5);
        assert_eq!(hits.len(), 13);
        assert!(hits.iter().all(|c| c.color == 1));
    }

    #[test]
    fn a_full_board_of_one_colour_is_all_lines() {
        let mut b = Board::new(30, 20);
        for i in 0..b.len() {
            b.set(b.pos(i), Some(1));
        }
        let every: Vec<Pos> = (0..b.len()).rev().map(|i| b.pos(i)).collect();
        let hits = b.lines_through(&every, 5);
        assert_eq!(hits.len(), 600);
        assert!(
            hits.windows(2)
                .all(|w| b.index(w[0].pos) < b.index(w[1].pos))
        );
        assert!(b.lines_through(&every, 31).is_empty());
        assert_eq!(b.lines_through(&every, 30).len(), 600, "rows of 30");
    }

    /// Hands out the given values, then panics.
    struct Script(std::vec::IntoIter<u64>);

    impl rand_core::TryRng for Script {
        type Error = std::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            unreachable!("below draws whole 64-bit values")
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Ok(self.0.next().expect("no more values were scripted"))
        }
        fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), Self::Error> {
            unreachable!("below draws whole 64-bit values")
        }
    }

    #[test]
    fn below_redraws_exactly_the_values_past_the_last_whole_multiple() {
        // (n, the largest value kept): 2^64 leaves remainder 1 by 3, none
        // by 2^63, and 2^63 − 1 by 2^63 + 1.
        let cases = [
            (3, u64::MAX - 1),
            (1 << 63, u64::MAX),
            ((1 << 63) + 1, 1 << 63),
            (1, u64::MAX),
        ];
        for (n, kept) in cases {
            let mut values = vec![kept, 7];
            if kept < u64::MAX {
                values.insert(0, kept + 1);
                values.insert(0, u64::MAX);
            }
            let mut script = Script(values.into_iter());
            assert_eq!(below(&mut script, n), kept % n, "n = {n}");
            assert_eq!(script.0.next(), Some(7), "n = {n}: one value too many");
        }
    }

    #[test]
    fn choose_cells_draws_as_one_swap_after_each_draw() {
        for (len, count) in [(3000, 1000), (600, 600), (300, 1000), (10, 0)] {
            let mut rng = ChaCha8Rng::seed_from_u64(len as u64);
            let mut pool: Vec<usize> = (0..len).collect();
            let picked = choose_cells(&mut rng, &mut pool, count);
            let mut rng = ChaCha8Rng::seed_from_u64(len as u64);
            let mut reference: Vec<usize> = (0..len).collect();
            for j in 0..count.min(len) {
                let k = j + below(&mut rng, (len - j) as u64) as usize;
                reference.swap(j, k);
            }
            assert_eq!(picked, reference[..count.min(len)], "{len} {count}");
            assert_eq!(pool, reference, "{len} {count}");
        }
    }

    #[test]
    fn below_stays_in_range() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for n in [1, 2, 3, 7, 1000, u64::MAX] {
            for _ in 0..100 {
                assert!(below(&mut rng, n) < n);
            }
        }
    }
}
