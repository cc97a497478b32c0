//! A board being searched, with per-window tallies kept up to date.

use super::geometry::Geometry;
use crate::board::{Board, Color};

/// Marks a window holding chips of more than one colour.
pub(super) const MIXED: Color = Color::MAX;

/// A board being searched, with per-window tallies kept up to date as cells
/// change, so that a change costs a few windows, not the whole board.
#[derive(Clone, Debug)]
pub(super) struct Position {
    pub(super) cells: Vec<Color>,
    pub(super) free: usize,
    /// Chips in each window.
    pub(super) count: Vec<u16>,
    /// The single colour of each window's chips, 0 when empty, [`MIXED`].
    pub(super) color: Vec<Color>,
    /// Sum of the rewards of all single-coloured windows.
    pub(super) potential: f64,
}

impl Position {
    pub(super) fn new(geometry: &Geometry) -> Position {
        Position {
            cells: vec![0; geometry.cell_count],
            free: geometry.cell_count,
            count: vec![0; 4 * geometry.cell_count],
            color: vec![0; 4 * geometry.cell_count],
            potential: 0.0,
        }
    }

    /// Copies `board` in and recounts every window.
    pub(super) fn load(&mut self, geometry: &Geometry, board: &Board) {
        self.cells.copy_from_slice(board.cells());
        self.free = board.free();
        self.potential = 0.0;
        for id in 0..4 * geometry.cell_count {
            if geometry.valid[id] {
                let (count, color) = self.tally(geometry, id, id % geometry.cell_count);
                self.count[id] = count;
                self.color[id] = color;
                self.potential += window_reward(geometry, count, color);
            }
        }
    }

    /// Tally of window `id` (starting at `start`) from its cells.
    pub(super) fn tally(&self, geometry: &Geometry, id: usize, start: usize) -> (u16, Color) {
        self.tally_skipping(geometry, id, start, None)
    }

    /// Tally of window `id` as if the chip at `lifted` were gone.
    pub(super) fn tally_without(
        &self,
        geometry: &Geometry,
        id: usize,
        start: usize,
        lifted: usize,
    ) -> (u16, Color) {
        self.tally_skipping(geometry, id, start, Some(lifted))
    }

    fn tally_skipping(
        &self,
        geometry: &Geometry,
        id: usize,
        start: usize,
        skip: Option<usize>,
    ) -> (u16, Color) {
        let (mut count, mut color) = (0u16, 0);
        for cell in geometry.window_cells(id, start) {
            let c = self.cells[cell];
            if c == 0 || Some(cell) == skip {
                continue;
            }
            count += 1;
            color = if color == 0 || color == c { c } else { MIXED };
        }
        (count, color)
    }

    /// Sets one cell and updates the windows through it.
    pub(super) fn set(&mut self, geometry: &Geometry, cell: usize, new: Color) {
        let old = self.cells[cell];
        if old == new {
            return;
        }
        if old != 0 {
            self.cells[cell] = 0;
            self.free += 1;
            geometry.windows_through(cell, |id, start| {
                let before = window_reward(geometry, self.count[id], self.color[id]);
                let (count, color) = if self.color[id] == MIXED {
                    self.tally(geometry, id, start)
                } else {
                    let count = self.count[id] - 1;
                    (count, if count == 0 { 0 } else { old })
                };
                self.count[id] = count;
                self.color[id] = color;
                self.potential += window_reward(geometry, count, color) - before;
            });
        }
        if new != 0 {
            self.cells[cell] = new;
            self.free -= 1;
            geometry.windows_through(cell, |id, _| {
                let before = window_reward(geometry, self.count[id], self.color[id]);
                let color = match self.color[id] {
                    0 => new,
                    c if c == new => new,
                    _ => MIXED,
                };
                self.count[id] += 1;
                self.color[id] = color;
                self.potential += window_reward(geometry, self.count[id], color) - before;
            });
        }
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

#[inline]
pub(super) fn window_reward(geometry: &Geometry, count: u16, color: Color) -> f64 {
    if color == 0 || color == MIXED {
        0.0
    } else {
        geometry.reward[usize::from(count).min(geometry.span)]
    }
}
