//! Sampled look-ahead: the computer's throws drawn with the player's own
//! generator, the player's best answers, averaged per candidate.

use super::candidates::{Candidate, estimate_candidates};
use super::evaluation::{WEIGHTS, connectivity, play_out, static_value};
use super::geometry::Geometry;
use super::position::Position;
use super::{Budget, Scratch};
use crate::board::Color;

/// Cell visits all sampled throws of one move may cost together, so that
/// big boards sample less instead of taking long (about 40 ms here).
const SAMPLE_WORK: usize = 3_000_000;

/// A small, fast generator for the player's own samples (SplitMix64); the
/// game's generator is never consulted.
#[derive(Clone, Copy, Debug)]
pub(super) struct SampleRng(pub(super) u64);

impl SampleRng {
    pub(super) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`); the tiny bias of the multiply-shift
    /// method does not matter for sampling.
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// The two generators of sampled throws: cells and colours apart, so that
/// the colours stay in step however many cells were redrawn.
#[derive(Clone, Copy, Debug)]
struct Streams {
    cells: SampleRng,
    colors: SampleRng,
}
/// The value of the best reply on the current position (after a throw):
/// estimates, then the best `limit` played out exactly.
fn best_reply(
    geometry: &Geometry,
    position: &mut Position,
    scratch: &mut Scratch,
    limit: usize,
) -> f64 {
    estimate_candidates(geometry, position, scratch, limit.max(1));
    let mut best = f64::NEG_INFINITY;
    for i in 0..scratch.candidates.len() {
        let Candidate { from, to, .. } = scratch.candidates[i];
        best = best.max(play_out(geometry, position, scratch, from, to).0);
    }
    if best == f64::NEG_INFINITY {
        // No move: nothing on the board can move, judge it as it stands.
        connectivity(geometry, position, scratch);
        best = static_value(geometry, position, scratch, 0)
    }
    best
}

/// Refines the best non-scoring candidates by sampling the computer's
/// throw after each and averaging the best reply's value. The same samples
/// (by seed) serve every candidate, so that they are compared fairly.
pub(super) fn refine(
    geometry: &Geometry,
    position: &mut Position,
    scratch: &mut Scratch,
    budget: &Budget,
    seed: u64,
    best: &mut Vec<Candidate>,
) {
    let refined = budget.refined.min(best.len());
    // A sample costs, per simulated throw, about a pass over every window
    // of the board and a flood fill per reply tried; keep the total bounded
    // on big boards, down to no sampling at all.
    let per_sample =
        budget.depth.max(1) * geometry.cell_count * (4 * geometry.span + budget.replies + 2);
    let samples = budget
        .samples
        .min(SAMPLE_WORK / per_sample / refined.max(1));
    if samples == 0 {
        return;
    }
    // Only sampled values compare with each other.
    best.truncate(refined);
    for candidate in best.iter_mut() {
        let color = position.cells[candidate.from];
        position.set(geometry, candidate.from, 0);
        position.set(geometry, candidate.to, color);
        let mut total = 0.0;
        for sample in 0..samples {
            let sample_seed = seed ^ (sample as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93);
            let mut rng = Streams {
                cells: SampleRng(sample_seed),
                colors: SampleRng(sample_seed ^ 0xA076_1D64_78BD_642F),
            };
            total += sample_future(geometry, position, scratch, budget, &mut rng);
        }
        position.set(geometry, candidate.to, 0);
        position.set(geometry, candidate.from, color);
        // Ties keep the order of the exact evaluation.
        candidate.value = total / samples as f64 + 1e-6 * candidate.value;
    }
    best.sort_by(|a, b| b.value.total_cmp(&a.value));
}

/// One sampled future of the current position: the computer throws, the
/// player answers with its best exactly-valued move (moving again after
/// each scoring move), for `budget.depth` throws; the value is the points
/// won on the way plus the best reply to the last throw. The position is
/// restored afterwards.
fn sample_future(
    geometry: &Geometry,
    position: &mut Position,
    scratch: &mut Scratch,
    budget: &Budget,
    rng: &mut Streams,
) -> f64 {
    scratch.undo.clear();
    let mut points = 0;
    let mut lost = false;
    for turn in 0..budget.depth.max(1) {
        match sample_throw(geometry, position, scratch, rng) {
            Some(computer_points) => points += computer_points,
            None => {
                lost = true;
                break;
            }
        }
        if turn + 1 == budget.depth.max(1) {
            break;
        }
        // The player's turn: moves until one scores nothing.
        let mut streak = 0;
        loop {
            estimate_candidates(geometry, position, scratch, budget.replies.max(1));
            let mut best: Option<(f64, usize, usize)> = None;
            for i in 0..scratch.candidates.len() {
                let Candidate { from, to, .. } = scratch.candidates[i];
                let value = play_out(geometry, position, scratch, from, to).0;
                if best.is_none_or(|b| value > b.0) {
                    best = Some((value, from, to));
                }
            }
            let Some((_, from, to)) = best else { break };
            let color = position.cells[from];
            set_logged(geometry, position, &mut scratch.undo, from, 0);
            set_logged(geometry, position, &mut scratch.undo, to, color);
            scratch.removed.clear();
            position.lines_through(geometry, to, &mut scratch.removed);
            if scratch.removed.is_empty() {
                break;
            }
            points += crate::board::points(scratch.removed.len(), geometry.line, streak);
            streak += 1;
            for i in 0..scratch.removed.len() {
                set_logged(geometry, position, &mut scratch.undo, scratch.removed[i], 0);
            }
            if position.free == geometry.cell_count {
                break;
            }
        }
    }
    let value = if lost {
        WEIGHTS.loss
    } else {
        WEIGHTS.points * points as f64 + best_reply(geometry, position, scratch, budget.replies)
    };
    for i in (0..scratch.undo.len()).rev() {
        let (cell, color) = scratch.undo[i];
        position.set(geometry, cell, color);
    }
    value
}

/// Sets a cell, logging its old colour in `undo`.
fn set_logged(
    geometry: &Geometry,
    position: &mut Position,
    undo: &mut Vec<(usize, Color)>,
    cell: usize,
    color: Color,
) {
    undo.push((cell, position.cells[cell]));
    position.set(geometry, cell, color);
}

/// A sampled computer throw on the current position, logged in
/// `scratch.undo`, with the lines it forms removed. Returns the points of
/// those lines, or `None` when the throw ends the game.
fn sample_throw(
    geometry: &Geometry,
    position: &mut Position,
    scratch: &mut Scratch,
    rng: &mut Streams,
) -> Option<u64> {
    let count = geometry.next;
    if count > position.free {
        return None;
    }
    scratch.thrown.clear();
    if count <= 64 && position.free * 8 >= geometry.cell_count {
        // Drawing from the whole board and skipping filled cells throws on
        // the same cells after two candidate moves wherever they agree,
        // which makes their comparison much less noisy.
        while scratch.thrown.len() < count {
            let cell = rng.cells.below(geometry.cell_count);
            if position.cells[cell] == 0 && scratch.thrown.iter().all(|&(c, _)| c != cell) {
                scratch.thrown.push((cell, 0));
            }
        }
    } else {
        scratch.empty.clear();
        scratch
            .empty
            .extend((0..geometry.cell_count).filter(|&i| position.cells[i] == 0));
        for j in 0..count {
            let k = j + rng.cells.below(scratch.empty.len() - j);
            scratch.empty.swap(j, k);
            scratch.thrown.push((scratch.empty[j], 0));
        }
    }
    for thrown in &mut scratch.thrown {
        thrown.1 = 1 + rng.colors.below(usize::from(geometry.colors)) as Color;
    }
    for i in 0..scratch.thrown.len() {
        let (cell, color) = scratch.thrown[i];
        set_logged(geometry, position, &mut scratch.undo, cell, color);
    }
    scratch.removed.clear();
    for i in 0..scratch.thrown.len() {
        position.lines_through(geometry, scratch.thrown[i].0, &mut scratch.removed);
    }
    scratch.removed.sort_unstable();
    scratch.removed.dedup();
    for i in 0..scratch.removed.len() {
        set_logged(geometry, position, &mut scratch.undo, scratch.removed[i], 0);
    }
    if position.free == 0 {
        return None;
    }
    Some(crate::board::points(
        scratch.removed.len(),
        geometry.line,
        0,
    ))
}
