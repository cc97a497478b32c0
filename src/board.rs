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
/// rather than finding each one in the free-cell counts.
const LISTING_RATIO: usize = 256;

/// Line detection through at least one cell per this many cells scans the
/// whole board rather than the lines through each cell.
const SCAN_RATIO: usize = 16;

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
    /// An empty board. Both sides must be at least 1.
    pub fn new(width: usize, height: usize) -> Board {
        assert!(width > 0 && height > 0, "a board needs at least one cell");
        let len = width * height;
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
        self.changed(&cells, true);
        Some(cells)
    }

    /// Brings the free-cell counts up to date after `cells`, all empty
    /// before, were filled (`filled`) or all full were emptied: one by one
    /// when they are few, all at once when they are many.
    fn changed(&mut self, cells: &[u32], filled: bool) {
        if filled {
            self.free -= cells.len();
        } else {
            self.free += cells.len();
        }
        if cells.len().saturating_mul(LISTING_RATIO) >= self.len() {
            self.free_cells = FreeCells::of(&self.cells);
        } else {
            for &i in cells {
                self.free_cells.update(i as usize, !filled);
            }
        }
    }

    /// `count` (at most [`Board::free`]) distinct empty cells, as
    /// [`choose_cells`] picks them from the list of empty cells in
    /// row-major order, with the same draws.
    ///
    /// A throw of a few chips does not list the cells: it shuffles a virtual
    /// list, keeping only the entries it swapped, and finds an untouched
    /// entry, the k-th empty cell, with the free-cell counts in O(log n).
    /// A throw of many chips lists them, which is then cheaper.
    fn choose_empty<R: Rng + ?Sized>(&self, rng: &mut R, count: usize) -> Vec<u32> {
        if count.saturating_mul(LISTING_RATIO) >= self.len() {
            // Four bytes an entry: a full 1000 × 1000 throw lists 4 MB.
            let mut pool: Vec<u32> = (0..self.len() as u32)
                .filter(|&i| self.cells[i as usize] == 0)
                .collect();
            return choose_cells(rng, &mut pool, count);
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
        cells
            .iter()
            .map(|&i| Chip {
                pos: self.pos(i as usize),
                color: self.cells[i as usize],
            })
            .collect()
    }

    /// [`Board::lines_through`] by scanning every line of the board once
    /// on each axis: linear in the cells, two bytes a cell while it runs.
    fn lines_by_scan(&self, through: &[u32], min_len: usize) -> Vec<u32> {
        let mut given = vec![false; self.len()];
        for &i in through {
            given[i as usize] = true;
        }
        let mut hit = vec![false; self.len()];
        let (w, h) = (self.width, self.height);
        for (dx, dy) in AXES {
            // Every line on this axis starts on the left column or, for the
            // vertical and diagonal axes, on the top or bottom row.
            let left = (0..h).map(|y| Pos::new(0, y));
            let edge_y = if dy < 0 { h - 1 } else { 0 };
            let starts: Vec<Pos> = match (dx, dy) {
                (1, 0) => left.collect(),
                (0, _) => (0..w).map(|x| Pos::new(x, 0)).collect(),
                _ => left.chain((1..w).map(|x| Pos::new(x, edge_y))).collect(),
            };
            for start in starts {
                self.mark_runs(start, (dx, dy), min_len, &given, &mut hit);
            }
        }
        (0..self.len() as u32)
            .filter(|&i| hit[i as usize])
            .collect()
    }

    /// Walks the line from `start` along `step`, marking in `hit` every
    /// cell of a run of at least `min_len` chips of one colour holding a
    /// `given` cell.
    fn mark_runs(
        &self,
        start: Pos,
        (dx, dy): (isize, isize),
        min_len: usize,
        given: &[bool],
        hit: &mut [bool],
    ) {
        let across = if dx > 0 {
            self.width - start.x
        } else {
            usize::MAX
        };
        let down = match dy {
            1 => self.height - start.y,
            -1 => start.y + 1,
            _ => usize::MAX,
        };
        let len = across.min(down);
        let stride = dy * self.width as isize + dx;
        let first = self.index(start) as isize;
        let at = |k: usize| (first + k as isize * stride) as usize;
        let mut k = 0;
        while k < len {
            let color = self.cells[at(k)];
            let run = k;
            let mut has_given = false;
            while k < len && self.cells[at(k)] == color {
                has_given |= given[at(k)];
                k += 1;
            }
            if color != 0 && k - run >= min_len && has_given {
                for j in run..k {
                    hit[at(j)] = true;
                }
            }
        }
    }

    /// A board drawn as text, one string per row, in the headless `board`
    /// notation: `.` empty, `1`–`9` then `a`–`z` for colours. For tests.
    #[cfg(test)]
    pub(crate) fn from_rows(rows: &[&str]) -> Board {
        let mut board = Board::new(rows[0].len(), rows.len());
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                if let Some(color) = ch.to_digit(36).filter(|&d| d > 0) {
                    board.set(Pos::new(x, y), Some(color as Color));
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
        let mut emptied = Vec::with_capacity(cells.len());
        for &i in cells {
            let cell = &mut self.cells[i as usize];
            if *cell != 0 {
                *cell = 0;
                emptied.push(i);
            }
        }
        self.changed(&emptied, false);
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
/// long, after `streak` scoring player moves in a row: `n + n·(n − i) + b²`.
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
    let len = pool.len();
    (0..count.min(len))
        .map(|j| {
            let k = j + below(rng, (len - j) as u64) as usize;
            pool.swap(j, k);
            pool[j]
        })
        .collect()
}

/// A uniformly random number in `0..n` (`n > 0`) by rejection sampling over
/// whole 64-bit outputs. Written out rather than borrowed so that a seed's
/// game can never change with a library's sampling algorithm.
pub fn below<R: Rng + ?Sized>(rng: &mut R, n: u64) -> u64 {
    assert!(n > 0, "cannot draw from an empty range");
    // Values above the last whole multiple of n are redrawn.
    let rejected = (u64::MAX % n + 1) % n;
    loop {
        let v = rng.next_u64();
        if v <= u64::MAX - rejected {
            return v % n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

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
