//! A board being searched, with per-window tallies kept up to date.

use super::geometry::{Geometry, MAX_SPAN};
use super::value::MAX_PHASES;
use crate::board::{Board, Color, MAX_COLORS};
use crate::game::MAX_SIDE;

/// Marks a window holding chips of more than one colour.
pub(super) const MIXED: Color = Color::MAX;

/// Loading a board cell by cell pays while fewer than one cell in this
/// many differs from the board before; beyond, recounting every window is
/// cheaper.
const RELOAD_SHARE: usize = 8;

/// A board being searched, with per-window tallies kept up to date as cells
/// change, so that a change costs a few windows, not the whole board.
#[derive(Clone, Debug)]
pub(super) struct Position {
    /// The colour of each cell, 0 for empty.
    pub(super) cells: Vec<Color>,
    /// Empty cells.
    pub(super) free: usize,
    /// The empty cells as bits (cell `i` is bit `i`) on boards that have
    /// [`Geometry::bit_masks`]; 0 on bigger ones.
    pub(super) empty_bits: u128,
    /// Chips in each window.
    pub(super) count: Vec<u16>,
    /// The single colour of each window's chips, 0 when empty, [`MIXED`]
    /// when they are of several.
    pub(super) color: Vec<Color>,
    /// Per window, the sum of its chips' colours and of their squares
    /// ([`color_sums`]), so that what a mixed window holds once a chip is
    /// gone is known without reading its cells again ([`tally_of_sums`]).
    sums: Vec<u32>,
    /// Sum of the rewards of all single-coloured windows, computed from
    /// `single` after every change so that it never depends on the order
    /// of the changes (a running float sum would).
    pub(super) potential: f64,
    /// Chips in no window that holds two or more chips of their colour
    /// alone: clutter that helps no line (see `Weights::orphan`).
    pub(super) orphans: usize,
    /// Per chip, the windows through it that hold two or more chips of its
    /// colour alone (0 for empty cells), so that a change updates
    /// [`Position::orphans`] from the few windows it touches.
    pub(super) support: Vec<u16>,
    /// The sum of the learned values of the windows in each phase of the
    /// table, in table units, when the geometry has one (see
    /// `value::Learned`); 0 otherwise.
    pub(super) learned: [i64; MAX_PHASES],
    /// The learned value of each window as it stands in each phase (0 in
    /// phases beyond the table's), in table units (empty without a table),
    /// so that a change need only value the windows through the cell
    /// afresh. One whole array per window, so that logging a window is a
    /// single copy.
    window_learned: Vec<[i32; MAX_PHASES]>,
    /// Single-coloured windows by the chips they hold (up to the span).
    single: [i64; MAX_SPAN + 1],
    /// Whether `cells` holds a board already, so that loading the next one
    /// needs only the cells that differ.
    loaded: bool,
    /// Marks not yet gone back to ([`Position::mark`]): while there are
    /// any, every change logs what it overwrites in `log`.
    marks: usize,
    /// What the changes since the first open mark overwrote.
    log: ChangeLog,
}

/// How long each of a [`ChangeLog`]'s lists was.
#[derive(Clone, Copy, Debug)]
struct Logged {
    cells: usize,
    windows: usize,
    support: usize,
    learned: usize,
}

/// What changes overwrote, oldest first, so that [`Position::back_to`]
/// restores it with no window counted or valued afresh: taking a change
/// back by setting its cells again cost as much as the change.
#[derive(Clone, Debug, Default)]
struct ChangeLog {
    /// Cells with the colours they held.
    cells: Vec<(u32, Color)>,
    /// Windows with the chips, colour and sums they held.
    windows: Vec<(u32, u16, Color, u32)>,
    /// Chips with the support they had.
    support: Vec<(u32, u16)>,
    /// Windows with the learned values they stood at, in each phase.
    learned: Vec<(u32, [i32; MAX_PHASES])>,
}

/// A point to take a position back to ([`Position::mark`]): how deep it
/// is among open marks, how long each log was, and the totals as they
/// stood.
#[must_use = "a mark is gone back to with `Position::back_to`"]
pub(super) struct Mark {
    depth: usize,
    logged: Logged,
    free: usize,
    empty_bits: u128,
    potential: f64,
    orphans: usize,
    single: [i64; MAX_SPAN + 1],
    learned: [i64; MAX_PHASES],
}

impl Position {
    /// An empty board, no board loaded yet.
    pub(super) fn new(geometry: &Geometry) -> Position {
        Position {
            cells: vec![0; geometry.cell_count],
            free: geometry.cell_count,
            empty_bits: empty_bits(geometry, |_| true),
            count: vec![0; 4 * geometry.cell_count],
            color: vec![0; 4 * geometry.cell_count],
            sums: vec![0; 4 * geometry.cell_count],
            potential: 0.0,
            orphans: 0,
            support: vec![0; geometry.cell_count],
            learned: [0; MAX_PHASES],
            window_learned: Vec::new(),
            single: [0; MAX_SPAN + 1],
            loaded: false,
            marks: 0,
            log: ChangeLog::default(),
        }
    }

    /// Copies `board` in: cell by cell when few cells differ from the
    /// board loaded before (a move and a throw), otherwise recounting every
    /// window. The tallies are the same either way.
    pub(super) fn load(&mut self, geometry: &Geometry, board: &Board) {
        debug_assert_eq!(
            self.marks, 0,
            "a board is loaded with no change to take back"
        );
        let windows = geometry
            .learned
            .as_ref()
            .map_or(0, |_| 4 * geometry.cell_count);
        if self.window_learned.len() != windows {
            // A table came or went since this position was made.
            self.window_learned = vec![[0; MAX_PHASES]; windows];
            self.loaded = false;
        }
        let differing = if self.loaded {
            self.cells
                .iter()
                .zip(board.cells())
                .filter(|(a, b)| a != b)
                .count()
        } else {
            usize::MAX
        };
        if differing <= geometry.cell_count / RELOAD_SHARE {
            for (cell, &color) in board.cells().iter().enumerate() {
                if self.cells[cell] != color {
                    self.set(geometry, cell, color);
                }
            }
            return;
        }
        self.cells.copy_from_slice(board.cells());
        self.free = board.free();
        self.empty_bits = empty_bits(geometry, |cell| self.cells[cell] == 0);
        self.single.fill(0);
        for id in 0..4 * geometry.cell_count {
            if geometry.valid[id] {
                let (count, sums) = geometry
                    .window_cells(id, id % geometry.cell_count)
                    .map(|cell| self.cells[cell])
                    .filter(|&color| color != 0)
                    .fold((0u16, 0), |(count, sums), color| {
                        (count + 1, sums + color_sums(color))
                    });
                let color = tally_of_sums(count, sums);
                self.count[id] = count;
                self.color[id] = color;
                self.sums[id] = sums;
                self.count_single(count, color, 1);
            }
        }
        self.potential = self.sum_rewards(geometry);
        self.orphans = 0;
        for cell in 0..geometry.cell_count {
            let mut support = 0;
            if self.cells[cell] != 0 {
                geometry.windows_through(cell, |id, _| {
                    support += u16::from(supports(self.count[id], self.color[id]));
                });
                self.orphans += usize::from(support == 0);
            }
            self.support[cell] = support;
        }
        self.learned = [0; MAX_PHASES];
        if let Some(learned) = &geometry.learned {
            for (id, stood) in self.window_learned.iter_mut().enumerate() {
                let values =
                    learned.window_values(geometry, &self.cells, id, id % geometry.cell_count);
                *stood = [0; MAX_PHASES];
                stood[..values.len()].copy_from_slice(values);
                for (sum, &value) in self.learned.iter_mut().zip(values) {
                    *sum += i64::from(value);
                }
            }
        }
        self.loaded = true;
    }

    /// Adds `sign` to the single-coloured windows holding `count` chips if
    /// a window of that tally is one.
    #[inline]
    fn count_single(&mut self, count: u16, color: Color, sign: i64) {
        if color != 0 && color != MIXED {
            self.single[usize::from(count)] += sign;
        }
    }

    /// The sum of the rewards of the single-coloured windows, always added
    /// in the same order.
    fn sum_rewards(&self, geometry: &Geometry) -> f64 {
        self.single
            .iter()
            .zip(&geometry.reward)
            .map(|(&n, &reward)| n as f64 * reward)
            .sum()
    }

    /// Tally of window `id` as if one of its chips of colour `lifted_color`
    /// were gone; the window must hold such a chip.
    #[inline]
    pub(super) fn tally_without(&self, id: usize, lifted_color: Color) -> (u16, Color) {
        debug_assert!(self.count[id] > 0, "window {id} holds no chip to lift");
        let count = self.count[id] - 1;
        let sums = self.sums[id] - color_sums(lifted_color);
        (count, tally_of_sums(count, sums))
    }

    /// Sets one cell and updates the windows through it.
    pub(super) fn set(&mut self, geometry: &Geometry, cell: usize, new: Color) {
        if self.cells[cell] != new {
            self.retally_cell(geometry, cell, new);
            self.relearn(geometry, cell);
        }
    }

    /// Starts changes to be taken back: each cell set from now on logs
    /// what it overwrites, and [`Position::back_to`] restores the position
    /// as it is here. Marks nest, and are gone back to innermost first.
    pub(super) fn mark(&mut self) -> Mark {
        self.marks += 1;
        let log = &self.log;
        Mark {
            depth: self.marks,
            logged: Logged {
                cells: log.cells.len(),
                windows: log.windows.len(),
                support: log.support.len(),
                learned: log.learned.len(),
            },
            free: self.free,
            empty_bits: self.empty_bits,
            potential: self.potential,
            orphans: self.orphans,
            single: self.single,
            learned: self.learned,
        }
    }

    /// Restores the position as it stood at `mark`, undoing every cell set
    /// since from the log.
    pub(super) fn back_to(&mut self, mark: Mark) {
        debug_assert_eq!(
            mark.depth, self.marks,
            "marks are gone back to innermost first"
        );
        let logged = mark.logged;
        for (cell, color) in self.log.cells.drain(logged.cells..).rev() {
            self.cells[cell as usize] = color;
        }
        for (id, count, color, sums) in self.log.windows.drain(logged.windows..).rev() {
            let id = id as usize;
            self.count[id] = count;
            self.color[id] = color;
            self.sums[id] = sums;
        }
        for (cell, had) in self.log.support.drain(logged.support..).rev() {
            self.support[cell as usize] = had;
        }
        for (id, stood) in self.log.learned.drain(logged.learned..).rev() {
            self.window_learned[id as usize] = stood;
        }
        self.free = mark.free;
        self.empty_bits = mark.empty_bits;
        self.potential = mark.potential;
        self.orphans = mark.orphans;
        self.single = mark.single;
        self.learned = mark.learned;
        self.marks -= 1;
    }

    /// Logs window `id` as it stands, while a mark is open.
    #[inline]
    fn log_window(&mut self, id: usize) {
        if self.marks > 0 {
            let entry = (id as u32, self.count[id], self.color[id], self.sums[id]);
            self.log.windows.push(entry);
        }
    }

    /// Logs the support of the chip at `cell` as it stands, while a mark
    /// is open.
    #[inline]
    fn log_support(&mut self, cell: usize) {
        if self.marks > 0 {
            self.log.support.push((cell as u32, self.support[cell]));
        }
    }

    /// Sets one cell and updates the tallies of the windows through it,
    /// all but their learned values.
    fn retally_cell(&mut self, geometry: &Geometry, cell: usize, new: Color) {
        let old = self.cells[cell];
        if self.marks > 0 {
            self.log.cells.push((cell as u32, old));
        }
        if old != 0 {
            self.cells[cell] = 0;
            self.free += 1;
            // Every window through the cell held the chip, so the windows
            // that supported it go with it.
            self.orphans -= usize::from(self.support[cell] == 0);
            self.log_support(cell);
            self.support[cell] = 0;
            geometry.windows_through(cell, |id, start| {
                self.log_window(id);
                let before = (self.count[id], self.color[id]);
                let after = self.tally_without(id, old);
                self.sums[id] -= color_sums(old);
                self.retally(geometry, id, start, cell, before, after);
            });
        }
        if new != 0 {
            self.cells[cell] = new;
            self.free -= 1;
            self.orphans += 1;
            geometry.windows_through(cell, |id, start| {
                self.log_window(id);
                let before = (self.count[id], self.color[id]);
                let color = match before.1 {
                    0 => new,
                    c if c == new => new,
                    _ => MIXED,
                };
                let after = (before.0 + 1, color);
                self.sums[id] += color_sums(new);
                self.retally(geometry, id, start, cell, before, after);
                if supports(after.0, after.1) {
                    self.gain_support(cell);
                }
            });
        }
        if geometry.bit_masks.is_some() {
            let bit = 1 << cell;
            if new == 0 {
                self.empty_bits |= bit;
            } else {
                self.empty_bits &= !bit;
            }
        }
        self.potential = self.sum_rewards(geometry);
    }

    /// Values afresh the windows through `cell`, which changed, and moves
    /// [`Position::learned`] by the difference.
    #[inline]
    fn relearn(&mut self, geometry: &Geometry, cell: usize) {
        if let Some(learned) = &geometry.learned {
            geometry.windows_through(cell, |id, start| {
                let values = learned.window_values(geometry, &self.cells, id, start);
                let stood = &mut self.window_learned[id];
                if self.marks > 0 {
                    self.log.learned.push((id as u32, *stood));
                }
                for ((sum, old), &new) in self.learned.iter_mut().zip(stood).zip(values) {
                    *sum += i64::from(new) - i64::from(*old);
                    *old = new;
                }
            });
        }
    }

    /// The learned value of the position, in table units: the phases'
    /// sums interpolated at its free cells; 0 without a table.
    #[inline]
    pub(super) fn learned_value(&self, geometry: &Geometry) -> f64 {
        geometry.learned.as_ref().map_or(0.0, |learned| {
            learned.interpolated(&self.learned, self.free, geometry.cell_count)
        })
    }

    /// Forgets the board loaded before, so that the next load recounts
    /// everything (after the learned table changed, say).
    pub(super) fn forget(&mut self) {
        self.loaded = false;
    }

    /// Moves window `id` (starting at `start`) from tally `before` to
    /// `after` after `changed` changed, and moves the support of the
    /// window's other chips with it when the window starts or stops
    /// supporting them.
    #[inline]
    fn retally(
        &mut self,
        geometry: &Geometry,
        id: usize,
        start: usize,
        changed: usize,
        before: (u16, Color),
        after: (u16, Color),
    ) {
        self.count_single(before.0, before.1, -1);
        self.count[id] = after.0;
        self.color[id] = after.1;
        self.count_single(after.0, after.1, 1);
        let (was, is) = (supports(before.0, before.1), supports(after.0, after.1));
        if was == is {
            return;
        }
        for other in geometry.window_cells(id, start) {
            if other == changed || self.cells[other] == 0 {
                continue;
            }
            if is {
                self.gain_support(other);
            } else {
                self.log_support(other);
                self.support[other] -= 1;
                self.orphans += usize::from(self.support[other] == 0);
            }
        }
    }

    /// One more window supports the chip at `cell`.
    #[inline]
    fn gain_support(&mut self, cell: usize) {
        self.log_support(cell);
        self.orphans -= usize::from(self.support[cell] == 0);
        self.support[cell] += 1;
    }

    /// Pushes onto `out` every chip on a line of at least `line` chips
    /// through `cell` (the cell itself once), as the engine removes them.
    pub(super) fn lines_through(&self, geometry: &Geometry, cell: usize, out: &mut Vec<usize>) {
        let color = self.cells[cell];
        if color == 0 {
            return;
        }
        let (x, y) = (
            (cell % geometry.width) as isize,
            (cell / geometry.width) as isize,
        );
        let mut included = false;
        for &(dx, dy) in &geometry.axes {
            let forward = geometry.run(&self.cells, (x, y), (dx, dy), color);
            let backward = geometry.run(&self.cells, (x, y), (-dx, -dy), color);
            if 1 + forward + backward < geometry.line {
                continue;
            }
            if !included {
                out.push(cell);
                included = true;
            }
            for k in (1..=forward)
                .map(|k| k as isize)
                .chain((1..=backward).map(|k| -(k as isize)))
            {
                out.push(((y + k * dy) as usize) * geometry.width + (x + k * dx) as usize);
            }
        }
    }
}

/// The cells for which `empty` holds as bits, on boards that have
/// [`Geometry::bit_masks`]; 0 on bigger ones.
fn empty_bits(geometry: &Geometry, empty: impl Fn(usize) -> bool) -> u128 {
    if geometry.bit_masks.is_none() {
        return 0;
    }
    (0..geometry.cell_count)
        .filter(|&cell| empty(cell))
        .fold(0, |bits, cell| bits | 1 << cell)
}

/// What a chip of `color` adds to a window's sums: the colour in the low
/// half, its square in the high half. Neither half overflows: a window
/// holds at most [`MAX_SPAN`] chips of at most [`MAX_COLORS`].
#[inline]
fn color_sums(color: Color) -> u32 {
    let c = u32::from(color);
    c | (c * c) << 16
}

const _: () = assert!(MAX_SPAN * (MAX_COLORS as usize).pow(2) <= 0xFFFF);

// The change log keeps cells and windows as `u32`.
const _: () = assert!(4 * MAX_SIDE * MAX_SIDE <= u32::MAX as usize);

/// The colour of a window of `count` chips with these sums: 0 when empty,
/// their colour when they are all one ([`MIXED`] otherwise). The chips are
/// all one colour exactly when the square of the sum of their colours is
/// `count` times the sum of the squares.
#[inline]
fn tally_of_sums(count: u16, sums: u32) -> Color {
    let (sum, squares) = (sums & 0xFFFF, sums >> 16);
    if count == 0 {
        0
    } else if sum * sum == u32::from(count) * squares {
        (sum / u32::from(count)) as Color
    } else {
        MIXED
    }
}

/// Whether a window of this tally supports its chips: two or more, of one
/// colour.
#[inline]
fn supports(count: u16, color: Color) -> bool {
    count >= 2 && color != MIXED
}

/// The reward of a window of `count` chips of `color` alone: 0 for an
/// empty or [`MIXED`] window.
#[inline]
pub(super) fn window_reward(geometry: &Geometry, count: u16, color: Color) -> f64 {
    if color == 0 || color == MIXED {
        0.0
    } else {
        geometry.reward[usize::from(count).min(geometry.span)]
    }
}
