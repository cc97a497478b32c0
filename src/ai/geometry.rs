//! The fixed shape of the board: sizes, axes, and the windows of cells
//! the evaluation tallies.

use super::Weights;
use super::power::power;
use super::value::Learned;
use crate::board::Color;
use crate::game::Rules;

/// The longest window the evaluation looks at; lines longer than this are
/// still found and scored, but potential lines are judged on shorter pieces
/// of them so that the work per cell stays bounded.
pub const MAX_SPAN: usize = 8;

/// Boards up to this many cells keep tables of the windows and neighbours
/// of every cell (at most about 1 MB), read on every change and every
/// target; bigger boards work them out from the coordinates each time,
/// which costs a few divisions and bounds checks per cell.
const TABLE_CELLS: usize = 4096;

/// Boards up to this many cells keep their empty cells as the bits of one
/// number as well ([`BitMasks`]), for the empty components.
pub(super) const BIT_CELLS: usize = u128::BITS as usize;

/// Marks a missing neighbour in the neighbour table.
const NO_CELL: u32 = u32::MAX;

/// The fixed shape of the board: sizes, axes, which windows exist and what
/// each is worth, with the evaluation's weights that these rewards come
/// from (every evaluation reads both).
#[derive(Clone, Debug)]
pub(super) struct Geometry {
    /// Cells across ([`Rules::width`]).
    pub(super) width: usize,
    /// Cells down ([`Rules::height`]).
    pub(super) height: usize,
    /// Cells on the board, `width * height`.
    pub(super) cell_count: usize,
    /// The shortest line removed ([`Rules::line`]).
    pub(super) line: usize,
    /// Cells in a window: the line's length, at most [`MAX_SPAN`].
    pub(super) span: usize,
    /// Colours of chips ([`Rules::colors`]).
    pub(super) colors: Color,
    /// Chips the computer throws each turn ([`Rules::next`]).
    pub(super) next: usize,
    /// Unit steps of the four axes.
    pub(super) axes: [(isize, isize); 4],
    /// Index steps of the four axes.
    pub(super) steps: [isize; 4],
    /// Per window id (`axis * cell_count + first cell`): whether the window fits
    /// on the board and lies on a board line long enough for a line.
    pub(super) valid: Vec<bool>,
    /// Per cell (on boards up to [`TABLE_CELLS`]), the windows through it
    /// as (window id, first cell), in the order [`Geometry::windows_through`]
    /// visits them; the cell's entries start at `through_start[cell]`.
    through: Vec<(u32, u32)>,
    /// Where each cell's windows start in `through`, and where the last
    /// cell's end; empty on bigger boards.
    through_start: Vec<u32>,
    /// Per cell (on boards up to [`TABLE_CELLS`]), its neighbours as
    /// [`Geometry::neighbours`] lists them, [`NO_CELL`] for none.
    neighbour_table: Vec<[u32; 4]>,
    /// Masks for the cells as bits (cell `i` is bit `i`), on boards of up
    /// to [`BIT_CELLS`] cells.
    pub(super) bit_masks: Option<BitMasks>,
    /// Reward of a single-coloured window by the chips it holds.
    pub(super) reward: Vec<f64>,
    /// The static evaluation's weights.
    pub(super) weights: Weights,
    /// The learned value, when the weights use it and it was trained for
    /// these rules.
    pub(super) learned: Option<Learned>,
}

impl Geometry {
    /// How many chips of `color` lie in a row next to `(x, y)`, stepping by
    /// `(dx, dy)`; the cell `(x, y)` itself is not counted.
    pub(super) fn run(
        &self,
        cells: &[Color],
        (x, y): (isize, isize),
        (dx, dy): (isize, isize),
        color: Color,
    ) -> usize {
        let (mut px, mut py) = (x + dx, y + dy);
        let mut n = 0;
        while px >= 0
            && py >= 0
            && (px as usize) < self.width
            && (py as usize) < self.height
            && cells[py as usize * self.width + px as usize] == color
        {
            n += 1;
            px += dx;
            py += dy;
        }
        n
    }

    /// The shape of boards under `rules`, valued with `weights` (and the
    /// compiled learned table, when the weights use it and it was trained
    /// for these rules).
    pub(super) fn new(rules: &Rules, weights: Weights) -> Geometry {
        let (width, height) = (rules.width, rules.height);
        let cell_count = width * height;
        let span = rules.line.min(MAX_SPAN);
        let axes = [(1, 0), (0, 1), (1, 1), (1, -1)];
        let steps = axes.map(|(dx, dy)| dy * width as isize + dx);
        let mut geometry = Geometry {
            width,
            height,
            cell_count,
            line: rules.line,
            span,
            colors: rules.colors,
            next: rules.next,
            axes,
            steps,
            valid: vec![false; 4 * cell_count],
            through: Vec::new(),
            through_start: Vec::new(),
            neighbour_table: Vec::new(),
            bit_masks: (cell_count <= BIT_CELLS).then(|| BitMasks::new(width, height)),
            reward: Vec::new(),
            weights,
            learned: None,
        };
        for axis in 0..4 {
            for start in 0..cell_count {
                let (x, y) = (start % width, start / width);
                let fits = geometry.steps_inside(x, y, axis, 1) >= span - 1;
                let line_length = 1
                    + geometry.steps_inside(x, y, axis, 1)
                    + geometry.steps_inside(x, y, axis, -1);
                geometry.valid[axis * cell_count + start] = fits && line_length >= rules.line;
            }
        }
        if cell_count <= TABLE_CELLS {
            geometry.build_tables();
        }
        // Steep in the share of the line already in place, so that nearly
        // complete lines dominate and lines of any length compare alike.
        geometry.reward = (0..=span)
            .map(|m| {
                let base = weights.reward_base;
                (power(base, weights.reward_steepness * m as f64 / span as f64) - 1.0)
                    / (base - 1.0)
            })
            .collect();
        if weights.learned != 0.0 {
            geometry.learned = Learned::compiled(&geometry);
        }
        geometry
    }

    /// How many steps along `axis` (times `sign`) stay on the board from
    /// `(x, y)`.
    pub(super) fn steps_inside(&self, x: usize, y: usize, axis: usize, sign: isize) -> usize {
        let (dx, dy) = (self.axes[axis].0 * sign, self.axes[axis].1 * sign);
        let limit = |at: usize, d: isize, size: usize| match d {
            0 => usize::MAX,
            1 => size - 1 - at,
            _ => at,
        };
        limit(x, dx, self.width).min(limit(y, dy, self.height))
    }

    /// Fills the per-cell tables of windows and neighbours.
    fn build_tables(&mut self) {
        let mut through = Vec::new();
        let mut through_start = Vec::with_capacity(self.cell_count + 1);
        let mut windows = [(0, 0); 4 * MAX_SPAN];
        for cell in 0..self.cell_count {
            through_start.push(through.len() as u32);
            let n = self.scan_windows_through(cell, &mut windows);
            through.extend_from_slice(&windows[..n]);
        }
        through_start.push(through.len() as u32);
        self.neighbour_table = (0..self.cell_count)
            .map(|cell| {
                self.compute_neighbours(cell)
                    .map(|n| n.map_or(NO_CELL, |n| n as u32))
            })
            .collect();
        self.through = through;
        self.through_start = through_start;
    }

    /// Calls `visit(window id, first cell)` for every window through `cell`.
    #[inline]
    pub(super) fn windows_through(&self, cell: usize, mut visit: impl FnMut(usize, usize)) {
        let mut scanned = [(0, 0); 4 * MAX_SPAN];
        let windows = if self.through_start.is_empty() {
            let n = self.scan_windows_through(cell, &mut scanned);
            &scanned[..n]
        } else {
            let (first, end) = (self.through_start[cell], self.through_start[cell + 1]);
            &self.through[first as usize..end as usize]
        };
        for &(id, start) in windows {
            visit(id as usize, start as usize);
        }
    }

    /// Writes the windows through `cell` into `out` as (window id, first
    /// cell), axis by axis, each axis's from the cell backwards; returns
    /// how many. Ids fit in `u32`: a board has at most a million cells.
    fn scan_windows_through(&self, cell: usize, out: &mut [(u32, u32); 4 * MAX_SPAN]) -> usize {
        let (x, y) = ((cell % self.width) as isize, (cell / self.width) as isize);
        let mut n = 0;
        for axis in 0..4 {
            let (dx, dy) = self.axes[axis];
            for k in 0..self.span as isize {
                let (sx, sy) = (x - k * dx, y - k * dy);
                if sx < 0 || sy < 0 || sx >= self.width as isize || sy >= self.height as isize {
                    break;
                }
                let start = sy as usize * self.width + sx as usize;
                let id = axis * self.cell_count + start;
                if self.valid[id] {
                    out[n] = (id as u32, start as u32);
                    n += 1;
                }
            }
        }
        n
    }

    /// The cells of window `id` starting at `start`.
    #[inline]
    pub(super) fn window_cells(&self, id: usize, start: usize) -> impl Iterator<Item = usize> {
        let step = self.steps[id / self.cell_count];
        (0..self.span as isize).map(move |k| (start as isize + k * step) as usize)
    }

    /// The neighbours of `cell`, 4-connected: above, below, left, right.
    #[inline]
    pub(super) fn neighbours(&self, cell: usize) -> [Option<usize>; 4] {
        match self.neighbour_table.get(cell) {
            Some(table) => table.map(|n| (n != NO_CELL).then_some(n as usize)),
            None => self.compute_neighbours(cell),
        }
    }

    /// [`Geometry::neighbours`] from the coordinates.
    fn compute_neighbours(&self, cell: usize) -> [Option<usize>; 4] {
        let (x, y) = (cell % self.width, cell / self.width);
        [
            (y > 0).then(|| cell - self.width),
            (y + 1 < self.height).then(|| cell + self.width),
            (x > 0).then(|| cell - 1),
            (x + 1 < self.width).then(|| cell + 1),
        ]
    }
}

/// The cells of a board of up to [`BIT_CELLS`] cells as bits, cell `i` the
/// bit `1 << i`: masks that keep a step left or right within its row.
#[derive(Clone, Copy, Debug)]
pub(super) struct BitMasks {
    /// The board's width: a step up or down.
    width: u32,
    /// Every cell but those of the first column.
    not_first_column: u128,
    /// Every cell but those of the last column.
    not_last_column: u128,
}

impl BitMasks {
    /// The masks of a `width` × `height` board of at most [`BIT_CELLS`]
    /// cells.
    fn new(width: usize, height: usize) -> BitMasks {
        let mut first_column = 0u128;
        for y in 0..height {
            first_column |= 1 << (y * width);
        }
        let board = u128::MAX >> (u128::BITS as usize - width * height);
        BitMasks {
            width: width as u32,
            not_first_column: board & !first_column,
            not_last_column: board & !(first_column << (width - 1)),
        }
    }

    /// The sizes of the 4-connected components of the cells `set`, in the
    /// order of their first cells, pushed onto `out`.
    pub(super) fn component_sizes(&self, set: u128, out: &mut Vec<u32>) {
        out.extend(self.components(set).map(u128::count_ones));
    }

    /// Labels the cells of each 4-connected component of the cells `set`
    /// in `label` with the component's number, in the order of their first
    /// cells, and pushes the components' sizes onto `sizes`; other cells'
    /// labels are left as they are.
    pub(super) fn label_components(&self, set: u128, label: &mut [u32], sizes: &mut Vec<u32>) {
        for component in self.components(set) {
            let id = sizes.len() as u32;
            sizes.push(component.count_ones());
            let mut rest = component;
            while rest != 0 {
                label[rest.trailing_zeros() as usize] = id;
                rest &= rest - 1;
            }
        }
    }

    /// The 4-connected components of the cells `set`, in the order of
    /// their first cells.
    fn components(&self, set: u128) -> impl Iterator<Item = u128> {
        let mut rest = set;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            // Grows the component from its first cell a step at a time.
            let mut component = rest & rest.wrapping_neg();
            loop {
                // A board 128 cells wide has no step up or down.
                let grown = (component
                    | component.checked_shl(self.width).unwrap_or(0)
                    | component.checked_shr(self.width).unwrap_or(0)
                    | (component << 1) & self.not_first_column
                    | (component >> 1) & self.not_last_column)
                    & set;
                if grown == component {
                    break;
                }
                component = grown;
            }
            rest &= !component;
            Some(component)
        })
    }
}
