//! The static value of a position, and of a move played out on it.

use super::Scratch;
use super::geometry::Geometry;
use super::position::Position;

/// Boards with more cells than this skip the connectivity and orphan terms
/// in the exact evaluation of a candidate (a pass over the whole board each
/// time).
pub(super) const CONNECTIVITY_CELLS: usize = 40_000;

/// Weights of the static evaluation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Weights {
    /// Per free cell.
    pub(super) free: f64,
    /// Per point scored.
    pub(super) points: f64,
    /// Multiplies the sum of window rewards.
    pub(super) potential: f64,
    /// Per empty component beyond the first.
    pub(super) component: f64,
    /// Per empty cell outside the largest empty component.
    pub(super) outside: f64,
    /// The value of a lost game.
    pub(super) loss: f64,
    /// Per orphan chip (see [`orphans`]).
    pub(super) orphan: f64,
}

/// Tuned by self-play (`examples/selfplay.rs`) with 7 colours.
pub(super) const WEIGHTS: Weights = Weights {
    free: 60.0,
    points: 1.0,
    potential: 1.0,
    component: 8.0,
    outside: 6.0,
    loss: -1.0e6,
    orphan: 15.0,
};
/// Plays the move on the position, values the result, and takes it back.
/// Returns the value and the number of chips the move removed.
pub(super) fn play_out(
    geometry: &Geometry,
    position: &mut Position,
    scratch: &mut Scratch,
    from: usize,
    to: usize,
) -> (f64, usize) {
    let color = position.cells[from];
    position.set(geometry, from, 0);
    position.set(geometry, to, color);
    scratch.removed.clear();
    position.lines_through(geometry, to, &mut scratch.removed);
    let removed = scratch.removed.len();
    for i in 0..removed {
        position.set(geometry, scratch.removed[i], 0);
    }
    if geometry.cell_count <= CONNECTIVITY_CELLS {
        connectivity(geometry, position, scratch);
    }
    let points = crate::board::points(removed, geometry.line, 0);
    let value = static_value(geometry, position, scratch, points);
    for i in 0..removed {
        position.set(geometry, scratch.removed[i], color);
    }
    position.set(geometry, to, 0);
    position.set(geometry, from, color);
    (value, removed)
}

/// The static value of the position; reads the empty components from
/// `scratch` when the board is small enough for them to be computed.
pub(super) fn static_value(
    geometry: &Geometry,
    position: &Position,
    scratch: &Scratch,
    points: u64,
) -> f64 {
    let mut value = WEIGHTS.free * position.free as f64
        + WEIGHTS.points * points as f64
        + WEIGHTS.potential * position.potential;
    if geometry.cell_count <= CONNECTIVITY_CELLS {
        let components = scratch.component_size.len();
        let largest = scratch.component_size.iter().copied().max().unwrap_or(0) as usize;
        value -= WEIGHTS.component * components.saturating_sub(1) as f64
            + WEIGHTS.outside * (position.free - largest) as f64
            + WEIGHTS.orphan * orphans(geometry, position) as f64;
    }
    value
}

/// Chips that lie in no single-coloured window holding at least two chips
/// of their colour: clutter that helps no line and must be moved or buried.
/// With 7 colours, counting them lengthens the game by about a tenth.
pub(super) fn orphans(geometry: &Geometry, position: &Position) -> usize {
    (0..geometry.cell_count)
        .filter(|&cell| {
            let color = position.cells[cell];
            if color == 0 {
                return false;
            }
            let mut in_line = false;
            geometry.windows_through(cell, |id, _| {
                in_line |= position.color[id] == color && position.count[id] >= 2;
            });
            !in_line
        })
        .count()
}

/// Labels the empty components of the position (flood fill).
pub(super) fn connectivity(geometry: &Geometry, position: &Position, scratch: &mut Scratch) {
    scratch.component.clear();
    scratch.component.resize(geometry.cell_count, u32::MAX);
    scratch.component_size.clear();
    for start in 0..geometry.cell_count {
        if position.cells[start] != 0 || scratch.component[start] != u32::MAX {
            continue;
        }
        let id = scratch.component_size.len() as u32;
        let mut size = 0;
        scratch.component[start] = id;
        scratch.stack.push(start);
        while let Some(cell) = scratch.stack.pop() {
            size += 1;
            for n in geometry.neighbours(cell).into_iter().flatten() {
                if position.cells[n] == 0 && scratch.component[n] == u32::MAX {
                    scratch.component[n] = id;
                    scratch.stack.push(n);
                }
            }
        }
        scratch.component_size.push(size);
    }
}
