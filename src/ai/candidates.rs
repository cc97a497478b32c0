//! Which moves are worth playing out: a cheap separable estimate for every
//! chip and target, then the best few played out exactly.

use super::Scratch;
use super::evaluation::{connectivity, play_out};
use super::geometry::Geometry;
use super::position::{MIXED, Position, window_reward};
use crate::board::{Color, MAX_COLORS};

/// Targets kept per colour when pairing chips with targets: more finds a
/// reachable good target behind walls more often, at the cost of scanning
/// longer lists per chip.
const DROPS_PER_COLOR: usize = 64;

/// Colour targets each chip is paired with (besides one parking target per
/// empty component beside it): more candidates find more good moves but
/// crowd the short list that is played out exactly.
const TARGETS_PER_CHIP: usize = 3;

/// Movable chips considered per position at most; bigger boards consider
/// an evenly spread selection, trading missed moves for bounded time.
const MAX_CHIPS: usize = 2048;

/// Empty cells valued as targets per position at most; bigger boards value
/// an evenly spread selection, trading missed targets for bounded time
/// (valuing every cell of a 1000 × 1000 board took half of a hint).
const MAX_TARGETS: usize = 65_536;

// A scan keeps the colours a cell touches as the bits of a `u64`.
const _: () = assert!((MAX_COLORS as u32) < u64::BITS);

/// A candidate move in cell indices, with its estimated or exact value.
#[derive(Clone, Copy, Debug)]
pub(super) struct Candidate {
    /// The chip's cell.
    pub(super) from: usize,
    /// The empty target cell.
    pub(super) to: usize,
    /// Estimated, exact or sampled value, by the stage it has reached.
    pub(super) value: f64,
    /// Chips the move removes (known once played out exactly).
    pub(super) removed: usize,
}

/// The `limit` best candidate moves by estimate, each played out exactly,
/// best first. Empty only when no move exists.
pub(super) fn exact_candidates(
    geometry: &Geometry,
    position: &mut Position,
    scratch: &mut Scratch,
    limit: usize,
) -> Vec<Candidate> {
    estimate_candidates(geometry, position, scratch, limit.max(1));
    let mut exact: Vec<Candidate> = scratch.candidates.clone();
    for candidate in &mut exact {
        let (value, removed) = play_out(geometry, position, scratch, candidate.from, candidate.to);
        candidate.value = value;
        candidate.removed = removed;
    }
    exact.sort_by(|a, b| b.value.total_cmp(&a.value));
    exact
}

/// Fills `scratch.candidates` with the `limit` most promising moves by the
/// separable estimate `lift(chip) + drop(colour, target)`; every chip that
/// can move contributes at least its best parking move, so the list is
/// empty only when no move exists.
pub(super) fn estimate_candidates(
    geometry: &Geometry,
    position: &Position,
    scratch: &mut Scratch,
    limit: usize,
) {
    connectivity(geometry, position, scratch);
    value_drops(geometry, position, scratch);
    keep_best_drops_per_color(scratch);
    pair_chips_with_drops(geometry, position, scratch);
    keep_best_candidates(scratch, limit);
}

/// Step 1: values every empty cell as a target (on boards with more than
/// [`MAX_TARGETS`] empty cells, an evenly spread selection of them and the
/// first cell of each empty component). Fills `scratch.drops[c]` with
/// (value, cell) for each cell that extends colour `c`'s windows, and
/// `scratch.parking` with each empty component's best colour-blind target.
fn value_drops(geometry: &Geometry, position: &Position, scratch: &mut Scratch) {
    let colors = usize::from(geometry.colors);
    scratch.drops.resize_with(colors + 1, Vec::new);
    for drops in &mut scratch.drops {
        drops.clear();
    }
    scratch.parking.clear();
    scratch.parking.resize(
        scratch.component_size.len(),
        (f64::NEG_INFINITY, usize::MAX),
    );
    let reward = &geometry.reward;
    let stride = position.free.div_ceil(MAX_TARGETS).max(1);
    // Per colour, summed during one cell's scan.
    let mut drop_color = [0.0; MAX_COLORS as usize + 1];
    let mut empty = 0;
    for t in 0..geometry.cell_count {
        if position.cells[t] != 0 {
            continue;
        }
        empty += 1;
        // Every component keeps a parking target, however big the stride.
        let skipped = (empty - 1) % stride != 0;
        if skipped && scratch.parking[scratch.component[t] as usize].1 != usize::MAX {
            continue;
        }
        let mut base = 0.0;
        // The colours whose windows the cell extends, and those a window
        // at the cell lacks one chip of, as bits.
        let (mut touched, mut near_line) = (0u64, 0u64);
        geometry.windows_through(t, |id, _| {
            let (count, color) = (usize::from(position.count[id]), position.color[id]);
            match color {
                0 => base += reward[1],
                MIXED => {}
                c => {
                    base -= reward[count];
                    let slot = usize::from(c);
                    touched |= 1 << slot;
                    drop_color[slot] += reward[(count + 1).min(geometry.span)];
                    near_line |= u64::from(count + 1 >= geometry.span) << slot;
                }
            }
        });
        let component = scratch.component[t] as usize;
        if base > scratch.parking[component].0 {
            scratch.parking[component] = (base, t);
        }
        while touched != 0 {
            let slot = touched.trailing_zeros() as usize;
            touched &= touched - 1;
            let mut value = base + drop_color[slot];
            if near_line & 1 << slot != 0 {
                value += line_bonus(geometry, position, t, slot as Color);
            }
            scratch.drops[slot].push((value, t));
            drop_color[slot] = 0.0;
        }
    }
}

/// Step 2: keeps each colour's [`DROPS_PER_COLOR`] best targets, best
/// first (ties by cell, so the order never depends on the sort).
fn keep_best_drops_per_color(scratch: &mut Scratch) {
    let best_first = |a: &(f64, usize), b: &(f64, usize)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
    for drops in &mut scratch.drops {
        if drops.len() > DROPS_PER_COLOR {
            drops.select_nth_unstable_by(DROPS_PER_COLOR - 1, best_first);
            drops.truncate(DROPS_PER_COLOR);
        }
        drops.sort_unstable_by(best_first);
    }
}

/// Step 3: pairs each movable chip with the best [`TARGETS_PER_CHIP`]
/// targets of its colour that it can reach, and with the parking target of
/// every empty component beside it, into `scratch.candidates`. On big
/// boards only every few movable chips is considered (at most
/// [`MAX_CHIPS`]); the first movable chip always is.
fn pair_chips_with_drops(geometry: &Geometry, position: &Position, scratch: &mut Scratch) {
    let stride = (geometry.cell_count - position.free)
        .div_ceil(MAX_CHIPS)
        .max(1);
    let mut movable = 0;
    scratch.candidates.clear();
    for a in 0..geometry.cell_count {
        let color = position.cells[a];
        if color == 0 {
            continue;
        }
        let mut beside = [u32::MAX; 4];
        let mut n_beside = 0;
        for n in geometry.neighbours(a).into_iter().flatten() {
            let component = scratch.component[n];
            if component != u32::MAX && !beside[..n_beside].contains(&component) {
                beside[n_beside] = component;
                n_beside += 1;
            }
        }
        if n_beside == 0 {
            continue;
        }
        movable += 1;
        if (movable - 1) % stride != 0 {
            continue;
        }
        let beside = &beside[..n_beside];
        let lift = lift_value(geometry, position, a);
        let slot = usize::from(color);
        let reachable = scratch.drops[slot]
            .iter()
            .filter(|&&(_, t)| beside.contains(&scratch.component[t]))
            .take(TARGETS_PER_CHIP);
        for &(value, t) in reachable {
            scratch.candidates.push(Candidate {
                from: a,
                to: t,
                value: lift + value,
                removed: 0,
            });
        }
        for &component in beside {
            let (value, t) = scratch.parking[component as usize];
            scratch.candidates.push(Candidate {
                from: a,
                to: t,
                value: lift + value,
                removed: 0,
            });
        }
    }
}

/// Step 4: keeps the `limit` best of `scratch.candidates`, best first
/// (ties by cells, so the order never depends on the sort).
///
/// A move can come twice, as a target of its colour and as a parking
/// place, with two estimates. The list is cut to `limit` first, so a copy
/// among the best takes a slot either way: dropped (only when it comes
/// right after the other copy) it leaves the list one shorter; kept, it
/// sees the same sampled throws as the other, and they rank alike.
/// Dropping every copy before the cut (a chip's parking place skipped when
/// it is already one of the chip's colour targets) scored −38.9 ± 40.5 on
/// `--seed 100001`'s 100 games, paired (`selfplay --games 100 --colors 7
/// --seed 100001`): the slot is worth nothing, and the player's moves stay
/// as they are.
fn keep_best_candidates(scratch: &mut Scratch, limit: usize) {
    let by_value = |a: &Candidate, b: &Candidate| {
        b.value
            .total_cmp(&a.value)
            .then(a.from.cmp(&b.from))
            .then(a.to.cmp(&b.to))
    };
    if scratch.candidates.len() > limit {
        scratch
            .candidates
            .select_nth_unstable_by(limit - 1, by_value);
        scratch.candidates.truncate(limit);
    }
    scratch.candidates.sort_unstable_by(by_value);
    scratch
        .candidates
        .dedup_by(|a, b| a.from == b.from && a.to == b.to);
}

/// Estimated worth of completing lines by dropping colour `c` on the empty
/// cell `t`: the free cells won back, if the runs beside it are long enough.
fn line_bonus(geometry: &Geometry, position: &Position, t: usize, c: Color) -> f64 {
    let (x, y) = ((t % geometry.width) as isize, (t / geometry.width) as isize);
    let mut removed = 0;
    for &(dx, dy) in &geometry.axes {
        let run = geometry.run(&position.cells, (x, y), (dx, dy), c)
            + geometry.run(&position.cells, (x, y), (-dx, -dy), c);
        if run + 1 >= geometry.line {
            removed += run + usize::from(removed == 0);
        }
    }
    geometry.weights.free * removed as f64
}

/// The change in window rewards from lifting the chip at `a`.
fn lift_value(geometry: &Geometry, position: &Position, a: usize) -> f64 {
    let reward = &geometry.reward;
    let mut delta = 0.0;
    geometry.windows_through(a, |id, _| {
        let (count, color) = (position.count[id], position.color[id]);
        if color == MIXED {
            let (count, color) = position.tally_without(id, position.cells[a]);
            delta += window_reward(geometry, count, color);
        } else {
            let count = usize::from(count);
            delta += reward[count - 1] - reward[count];
        }
    });
    delta
}
