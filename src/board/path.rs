//! Shortest paths whose cost follows the path and the reachable area, not
//! the board.
//!
//! The search runs from the target toward the chip as A* with the Manhattan
//! distance to the chip: on a 4-connected grid of unit steps that bound is
//! consistent, and a step changes `g + h` by 0 or 2, so two stacks (this
//! bound, the next) stand in for a priority queue. Within a bound the
//! stacks are last-in first-out with the cell the walk back will want on
//! top, so on an open board the search runs straight along the path the
//! chip takes. Beside it, one step for every few, a flood from the chip
//! proves the chip walled in soon after its side is exhausted.
//!
//! The chip then walks back as the original game moves it: each step
//! vertically toward the target when that stays on a shortest path, else
//! horizontally toward it, else the other ways. A neighbour whose distance
//! is not known yet is settled by carrying on with the last bound's cells,
//! which the search would have expanded anyway had it not stopped early.

use super::{Board, Pos};

/// The flood from the chip takes one step per this many of the search: on
/// an open board, where the flood only proves what the search finds, it
/// then costs little, and a walled-in chip is still found out within this
/// many times the cells of its side.
const FLOOD_EVERY: usize = 2;

/// Reusable buffers for path queries: allocated for the largest board
/// searched, then reused, with no clearing between queries.
#[derive(Clone, Debug, Default)]
pub struct PathSearch {
    /// One number per cell, valid for this query when at least `base`:
    /// `base` is "reached by the flood from the chip", `base + 1 + g` is
    /// "reached by the search at `g` steps from the target". Anything below
    /// `base` is left from earlier queries and means "not reached".
    marks: Vec<u32>,
    base: u32,
    /// Cells whose `g + h` is the bound being expanded.
    now: Vec<u32>,
    /// Cells whose `g + h` is two more.
    later: Vec<u32>,
    /// The flood's cells to expand.
    flood: Vec<u32>,
    /// The bound of `now`.
    bound: u32,
    /// The chip and the target of the query, as row-major indices.
    chip: usize,
    target: usize,
    /// The query's board width.
    width: usize,
    /// The chip's column and row.
    chip_x: usize,
    chip_y: usize,
    /// Divides by `width` as a multiplication: see [`PathSearch::xy`].
    reciprocal: u64,
}

/// What the search found: the chip's distance to the target, or that the
/// chip's side or the target's side ran out of cells first.
type Found = Option<u32>;

impl PathSearch {
    /// An empty workspace; the first query allocates it.
    pub fn new() -> PathSearch {
        PathSearch::default()
    }

    /// The shortest path moving the chip at `from` to the empty cell `to`,
    /// as [`Board::path`] describes it.
    pub fn path(&mut self, board: &Board, from: Pos, to: Pos) -> Option<Vec<Pos>> {
        if !valid_query(board, from, to) {
            return None;
        }
        let Some(steps) = self.search(board, from, to) else {
            self.end();
            return None;
        };
        let mut path = Vec::with_capacity(steps as usize + 1);
        let mut at = from;
        path.push(at);
        for remaining in (0..steps).rev() {
            at = step_preference(board, at, to)
                .into_iter()
                .flatten()
                .find(|&p| board.get(p).is_none() && self.settle(board, board.index(p), remaining))
                .expect("a cell one step closer exists on a shortest path");
            path.push(at);
        }
        self.end();
        Some(path)
    }

    /// Whether the chip at `from` can move to the empty cell `to`.
    pub fn reachable(&mut self, board: &Board, from: Pos, to: Pos) -> bool {
        if !valid_query(board, from, to) {
            return false;
        }
        let found = self.search(board, from, to);
        self.end();
        found.is_some()
    }

    /// Starts a query: sizes the marks for `board` and moves `base` past
    /// every mark an earlier query left.
    fn begin(&mut self, board: &Board, from: Pos, to: Pos) {
        let cells = board.len();
        // A query's marks stay below `base + bound + 4`, and its bound
        // (steps plus a Manhattan distance) below twice the cells.
        let headroom = u32::MAX as usize - 3 * cells - 8;
        if self.marks.len() != cells || self.base as usize > headroom {
            self.marks.clear();
            self.marks.resize(cells, 0);
            self.base = 1;
        }
        self.now.clear();
        self.later.clear();
        self.flood.clear();
        self.chip = board.index(from);
        self.target = board.index(to);
        self.width = board.width();
        self.reciprocal = reciprocal(self.width);
        (self.chip_x, self.chip_y) = self.xy(self.chip);
    }

    /// Ends a query: later queries see none of its marks as their own.
    fn end(&mut self) {
        // The largest mark set is `base + 1 + g` with `g` below `bound`
        // plus the cells of one step.
        self.base += self.bound + 4;
    }

    /// The number of steps from the chip at `from` to the empty cell `to`,
    /// or `None` when no path of empty cells joins them. The caller ends
    /// the query with [`PathSearch::end`] once done with its marks.
    fn search(&mut self, board: &Board, from: Pos, to: Pos) -> Found {
        self.begin(board, from, to);
        self.bound = self.h(self.xy(self.target));
        self.marks[self.target] = self.base + 1;
        self.now.push(self.target as u32);
        let mut flooding = self.start_flood(board);
        for round in 0usize.. {
            match self.expand(board, true) {
                Step::Goal(steps) => return Some(steps),
                Step::Exhausted => return None,
                Step::Expanded => {}
            }
            if flooding && round % FLOOD_EVERY == 0 {
                match self.flood_step(board) {
                    Flood::Exhausted => return None,
                    Flood::Met => flooding = false,
                    Flood::Going => {}
                }
            }
        }
        unreachable!("the search ends before its rounds run out")
    }

    /// Marks the chip's empty neighbours for the flood; `false` when the
    /// flood has nothing to do because the target is one of them.
    fn start_flood(&mut self, board: &Board) -> bool {
        let chip = self.chip;
        for n in neighbours(board, chip, self.chip_x).into_iter().flatten() {
            if n == self.target {
                return false;
            }
            if board.cells[n] == 0 {
                self.marks[n] = self.base;
                self.flood.push(n as u32);
            }
        }
        true
    }

    /// One cell of the flood from the chip.
    fn flood_step(&mut self, board: &Board) -> Flood {
        let Some(cell) = self.flood.pop() else {
            return Flood::Exhausted;
        };
        let cell = cell as usize;
        for n in neighbours(board, cell, self.xy(cell).0)
            .into_iter()
            .flatten()
        {
            if board.cells[n] != 0 {
                continue;
            }
            let mark = self.marks[n];
            if mark > self.base {
                return Flood::Met;
            }
            if mark < self.base {
                self.marks[n] = self.base;
                self.flood.push(n as u32);
            }
        }
        Flood::Going
    }

    /// Expands one cell of the current bound, moving on to the next bound
    /// when `may_raise` and this one is done.
    fn expand(&mut self, board: &Board, may_raise: bool) -> Step {
        let cell = loop {
            match self.now.pop() {
                Some(cell) => {
                    let cell = cell as usize;
                    // A cell reached again by a shorter way is expanded
                    // from the lower bound; its older entry is skipped.
                    let xy = self.xy(cell);
                    if self.g(cell) + self.h(xy) == self.bound {
                        break (cell, xy);
                    }
                }
                None if may_raise && !self.later.is_empty() => {
                    std::mem::swap(&mut self.now, &mut self.later);
                    self.bound += 2;
                }
                None => return Step::Exhausted,
            }
        };
        let (cell, xy) = cell;
        let next = self.base + 2 + self.g(cell);
        let mut step = Step::Expanded;
        for (n, closer) in self.toward_chip_last(board, cell, xy).into_iter().flatten() {
            if n == self.chip {
                // The other neighbours are still queued: the walk back may
                // need them.
                step = Step::Goal(next - self.base - 1);
                continue;
            }
            if board.cells[n] != 0 || (self.marks[n] > self.base && self.marks[n] <= next) {
                continue;
            }
            self.marks[n] = next;
            if closer {
                self.now.push(n as u32);
            } else {
                self.later.push(n as u32);
            }
        }
        step
    }

    /// Whether the cell `index` is `steps` from the target, given that it
    /// is no closer: expands the last bound's cells until it is reached at
    /// that count or the bound is done.
    fn settle(&mut self, board: &Board, index: usize, steps: u32) -> bool {
        loop {
            if self.marks[index] == self.base + 1 + steps {
                return true;
            }
            if let Step::Exhausted = self.expand(board, false) {
                return false;
            }
        }
    }

    /// Steps from the target to a cell the search reached.
    fn g(&self, cell: usize) -> u32 {
        self.marks[cell] - self.base - 1
    }

    /// The column and row of `cell`, with no division: `y` is the high
    /// word of `cell × reciprocal`, exact for every `cell` and `width`
    /// below 2^32 (row-major indices are `u32`) as the error of the
    /// reciprocal, times `cell`, stays below 2^64.
    fn xy(&self, cell: usize) -> (usize, usize) {
        let y = if self.reciprocal == 0 {
            cell
        } else {
            ((cell as u128 * u128::from(self.reciprocal)) >> 64) as usize
        };
        (cell - y * self.width, y)
    }

    /// The Manhattan distance from the cell at `(x, y)` to the chip.
    fn h(&self, (x, y): (usize, usize)) -> u32 {
        (x.abs_diff(self.chip_x) + y.abs_diff(self.chip_y)) as u32
    }

    /// The neighbours of `cell`, at `(x, y)`, each with whether it is
    /// closer to the chip, the one the chip's walk back will prefer last
    /// first, so that it is expanded first: the chip walks vertically
    /// first, so from the target the search goes horizontally toward the
    /// chip's column first, then vertically toward the chip.
    fn toward_chip_last(
        &self,
        board: &Board,
        cell: usize,
        (x, y): (usize, usize),
    ) -> [Option<(usize, bool)>; 4] {
        let [up, down, left, right] = neighbours(board, cell, x);
        let (cx, cy) = (self.chip_x, self.chip_y);
        let toward = |n: Option<usize>| n.map(|n| (n, true));
        let away = |n: Option<usize>| n.map(|n| (n, false));
        let (toward_h, away_h) = if cx < x {
            (toward(left), away(right))
        } else {
            // On the chip's column neither way is closer.
            (right.map(|n| (n, cx > x)), away(left))
        };
        let (toward_v, away_v) = if cy < y {
            (toward(up), away(down))
        } else {
            (down.map(|n| (n, cy > y)), away(up))
        };
        if cx == x {
            [away_h, toward_h, away_v, toward_v]
        } else {
            [away_v, away_h, toward_v, toward_h]
        }
    }
}

/// One expansion's outcome.
enum Step {
    /// The chip is this many steps from the target.
    Goal(u32),
    /// Nothing is left to expand within the allowed bounds.
    Exhausted,
    /// A cell was expanded.
    Expanded,
}

/// One flood step's outcome.
enum Flood {
    /// The chip's side has no more cells: the target is out of reach.
    Exhausted,
    /// The flood touched a cell the search reached: the two sides join.
    Met,
    /// Nothing decided yet.
    Going,
}

/// What [`PathSearch::xy`] multiplies by to divide by `width`:
/// floor((2^64 − 1) / width) + 1, or 0 for a width of 1.
fn reciprocal(width: usize) -> u64 {
    (u64::MAX / width as u64).wrapping_add(1)
}

/// Whether `from` holds a chip and `to` is an empty cell on the board.
fn valid_query(board: &Board, from: Pos, to: Pos) -> bool {
    board.get(from).is_some() && board.contains(to) && board.get(to).is_none()
}

/// The row-major indices of the cells above, below, left and right of
/// `cell`, in column `x`, where they lie on the board.
fn neighbours(board: &Board, cell: usize, x: usize) -> [Option<usize>; 4] {
    let w = board.width;
    [
        cell.checked_sub(w),
        (cell + w < board.len()).then_some(cell + w),
        (x > 0).then(|| cell - 1),
        (x + 1 < w).then_some(cell + 1),
    ]
}

/// The neighbours of `at` in the order a step toward `to` tries them:
/// vertically toward it, horizontally toward it, then the rest. On the
/// target's row no vertical step leads toward it, so the horizontal step
/// toward it comes first there.
fn step_preference(board: &Board, at: Pos, to: Pos) -> [Option<Pos>; 4] {
    let up = (at.y > 0).then(|| Pos::new(at.x, at.y - 1));
    let down = (at.y + 1 < board.height).then(|| Pos::new(at.x, at.y + 1));
    let left = (at.x > 0).then(|| Pos::new(at.x - 1, at.y));
    let right = (at.x + 1 < board.width).then(|| Pos::new(at.x + 1, at.y));
    let (toward_v, away_v) = if to.y < at.y { (up, down) } else { (down, up) };
    let (toward_h, away_h) = if to.x < at.x {
        (left, right)
    } else {
        (right, left)
    };
    if to.y == at.y {
        [toward_h, toward_v, away_v, away_h]
    } else {
        [toward_v, toward_h, away_v, away_h]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_cleared_when_they_would_overflow() {
        let board = Board::from_rows(&["1....", ".22..", "....."]);
        let (from, to) = (Pos::new(0, 0), Pos::new(4, 2));
        let mut search = PathSearch::new();
        let fresh = search.path(&board, from, to);
        assert_eq!(fresh.as_ref().map(Vec::len), Some(7));
        // Marks of earlier queries just below the limit must not be read
        // as this query's.
        search.base = u32::MAX - 20;
        search.marks.fill(u32::MAX - 21);
        assert_eq!(search.path(&board, from, to), fresh);
        assert_eq!(search.base, 1 + search.bound + 4);
        assert_eq!(search.path(&board, from, to), fresh);
    }

    #[test]
    fn xy_divides_exactly() {
        let mut search = PathSearch::new();
        let last = u32::MAX as usize;
        for width in [1, 2, 3, 7, 300, 1000, 65_537, 1 << 31, last - 1, last] {
            search.width = width;
            search.reciprocal = reciprocal(width);
            let edges = [
                0,
                1,
                width - 1,
                width,
                width + 1,
                last - width,
                last - 1,
                last,
            ];
            let spread = (0..last).step_by(last / 100_000 + 7);
            for cell in edges.into_iter().chain(spread) {
                assert_eq!(
                    search.xy(cell),
                    (cell % width, cell / width),
                    "{cell} / {width}"
                );
            }
        }
    }

    #[test]
    fn one_workspace_serves_boards_of_any_size() {
        let mut search = PathSearch::new();
        let big = Board::from_rows(&["1.........", "..........", "........2."]);
        let small = Board::from_rows(&["1.", ".."]);
        for _ in 0..3 {
            assert_eq!(
                search
                    .path(&big, Pos::new(0, 0), Pos::new(9, 2))
                    .unwrap()
                    .len(),
                12
            );
            assert!(search.reachable(&small, Pos::new(0, 0), Pos::new(1, 1)));
            assert!(!search.reachable(&big, Pos::new(8, 2), Pos::new(8, 2)));
        }
    }
}
