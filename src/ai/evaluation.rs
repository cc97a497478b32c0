//! The static value of a position, and of a move played out on it.

use super::Scratch;
use super::geometry::Geometry;
use super::position::Position;
use super::value::UNIT;

/// Boards with more cells than this skip the connectivity and orphan terms
/// in every static evaluation: finding the empty components after each
/// move played out is a pass over the whole board.
pub(super) const CONNECTIVITY_CELLS: usize = 40_000;

/// Plays the move on the position, values the result, and takes it back.
/// Returns the value and the number of chips the move removed.
pub(super) fn play_out(
    geometry: &Geometry,
    position: &mut Position,
    scratch: &mut Scratch,
    from: usize,
    to: usize,
) -> (f64, usize) {
    let (value, removed) = with_move(
        geometry,
        position,
        scratch,
        from,
        to,
        |position, scratch| {
            if geometry.cell_count <= CONNECTIVITY_CELLS {
                component_sizes(geometry, position, scratch);
            }
            let points = crate::board::points(scratch.removed.len(), geometry.line, 0);
            static_value(geometry, position, scratch, points)
        },
    );
    (value, removed)
}

/// Plays the move on the position, removing the lines it completes (their
/// cells in `scratch.removed`), reads the result with `read`, and takes the
/// move back. Returns what `read` returned and the number of chips removed.
pub(super) fn with_move<T>(
    geometry: &Geometry,
    position: &mut Position,
    scratch: &mut Scratch,
    from: usize,
    to: usize,
    read: impl FnOnce(&Position, &mut Scratch) -> T,
) -> (T, usize) {
    let color = position.cells[from];
    let mark = position.mark();
    position.set(geometry, from, 0);
    position.set(geometry, to, color);
    scratch.removed.clear();
    position.lines_through(geometry, to, &mut scratch.removed);
    let removed = scratch.removed.len();
    for i in 0..removed {
        position.set(geometry, scratch.removed[i], 0);
    }
    let read = read(position, scratch);
    position.back_to(mark);
    (read, removed)
}

/// The static value of the position; reads the empty components from
/// `scratch` when the board is small enough for them to be computed.
pub(super) fn static_value(
    geometry: &Geometry,
    position: &Position,
    scratch: &Scratch,
    points: u64,
) -> f64 {
    let mut value = geometry.weights.free * position.free as f64
        + geometry.weights.points * points as f64
        + geometry.weights.potential * position.potential
        + geometry.weights.learned * position.learned_value(geometry) / UNIT;
    if geometry.cell_count <= CONNECTIVITY_CELLS {
        let components = scratch.component_size.len();
        let largest = scratch.component_size.iter().copied().max().unwrap_or(0) as usize;
        value -= geometry.weights.component * components.saturating_sub(1) as f64
            + geometry.weights.outside * (position.free - largest) as f64
            + geometry.weights.orphan * position.orphans as f64;
    }
    value
}

/// The sizes of the empty components of the position, into
/// `scratch.component_size`: what [`static_value`] reads. The cells may be
/// left unlabelled: `scratch.component` is stale afterwards, and only
/// [`connectivity`] makes it fit the position again.
pub(super) fn component_sizes(geometry: &Geometry, position: &Position, scratch: &mut Scratch) {
    match &geometry.bit_masks {
        Some(masks) => {
            scratch.component_size.clear();
            masks.component_sizes(position.empty_bits, &mut scratch.component_size);
        }
        None => connectivity(geometry, position, scratch),
    }
}

/// Labels the empty components of the position: from the empty cells'
/// bits where the board has them, otherwise by flood fill.
pub(super) fn connectivity(geometry: &Geometry, position: &Position, scratch: &mut Scratch) {
    scratch.component.clear();
    scratch.component.resize(geometry.cell_count, u32::MAX);
    scratch.component_size.clear();
    if let Some(masks) = &geometry.bit_masks {
        masks.label_components(
            position.empty_bits,
            &mut scratch.component,
            &mut scratch.component_size,
        );
        return;
    }
    flood_fill(geometry, position, scratch);
}

/// Labels the empty components of the position by flood fill, into the
/// cleared `scratch.component` and `scratch.component_size`.
pub(super) fn flood_fill(geometry: &Geometry, position: &Position, scratch: &mut Scratch) {
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
