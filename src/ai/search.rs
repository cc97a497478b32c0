//! Sampled look-ahead: the computer's throws drawn with the player's own
//! generator, the player's best answers, averaged per candidate.

use super::candidates::{Candidate, estimate_candidates};
use super::evaluation::{play_out, static_value};
use super::geometry::Geometry;
use super::position::Position;
use super::{Budget, Scratch};
use crate::board::Color;

/// Boards up to this many cells (24 × 24) get the budget's samples in
/// full; bigger boards get fewer in proportion, down to none, so that a
/// move on the largest boards stays well under a second.
const FULL_SAMPLING_CELLS: usize = 576;

/// Sample seeds: an odd multiplier spreading sample numbers over
/// the seed space, so that neighbouring samples are unrelated.
const SAMPLE_SEED_MIX: u64 = 0xD6E8_FEB8_6659_FD93;

/// Sets the colour stream of a sample apart from its cell stream.
const COLOR_STREAM_MIX: u64 = 0xA076_1D64_78BD_642F;

/// Weight of a candidate's exact value beside its sampled mean: breaks ties
/// in the exact order without outweighing any real difference of samples.
const TIE_BREAK: f64 = 1e-6;

/// Throws of at most this many chips are drawn by rejection (drawing cells
/// of the whole board until empty ones come up); larger throws shuffle a
/// list of the empty cells, which costs a pass over the board.
const REJECTION_MAX_THROW: usize = 64;

/// Rejection is used while at least one cell in this many is empty: fuller
/// boards would redraw too often.
const REJECTION_FREE_SHARE: usize = 8;

/// A small, fast generator for the player's own samples (SplitMix64); the
/// game's generator is never consulted.
#[derive(Clone, Copy, Debug)]
pub(super) struct SampleRng(pub(super) u64);

impl SampleRng {
    /// The next number of the sequence.
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

/// The value of the best reply on the current position (after a throw).
fn best_reply(
    geometry: &Geometry,
    position: &mut Position,
    scratch: &mut Scratch,
    limit: usize,
) -> f64 {
    match best_reply_move(geometry, position, scratch, limit) {
        Some((value, ..)) => value,
        // No move: nothing on the board can move, judge it as it stands
        // (no move was played out, so the components are this position's).
        None => static_value(geometry, position, scratch, 0),
    }
}

/// The best reply on the current position: the `limit` moves estimated
/// best, played out exactly, and the first of the highest value kept, with
/// its value and cells; `None` when no chip can move.
fn best_reply_move(
    geometry: &Geometry,
    position: &mut Position,
    scratch: &mut Scratch,
    limit: usize,
) -> Option<(f64, usize, usize)> {
    estimate_candidates(geometry, position, scratch, limit.max(1));
    let mut best: Option<(f64, usize, usize)> = None;
    for i in 0..scratch.candidates.len() {
        let Candidate { from, to, .. } = scratch.candidates[i];
        let value = play_out(geometry, position, scratch, from, to).0;
        if best.is_none_or(|b| value > b.0) {
            best = Some((value, from, to));
        }
    }
    best
}

/// One chip of the computer's next throw as a preview shows it: its colour,
/// and under [`Preview::Cells`](crate::game::Preview::Cells) the cell it is
/// planned for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ShownChip {
    /// The planned cell, if shown.
    pub(super) cell: Option<usize>,
    /// Its colour.
    pub(super) color: Color,
}

/// What every sampled future of one search shares.
#[derive(Clone, Copy, Debug)]
pub(super) struct Sampling<'a> {
    /// The player's budget: samples, replies and depth.
    pub(super) budget: &'a Budget,
    /// The search's seed, mixed with each sample's number.
    pub(super) seed: u64,
    /// The next throw as shown (empty without a preview): the first throw
    /// of every sample is this one, not a sampled one.
    pub(super) shown: &'a [ShownChip],
}

/// Where sampled futures are evaluated: a position and buffers of its own,
/// so that samples can run on several threads at once.
#[derive(Clone, Debug)]
pub(super) struct Worker {
    /// The board being searched.
    pub(super) position: Position,
    /// Buffers for the search.
    pub(super) scratch: Scratch,
}

/// Refines the best non-scoring candidates by successive halving: each
/// round samples the computer's throw after every surviving candidate
/// `samples` more times (the player's best answer valued after each), then
/// keeps the better half by mean, until one is left. Every candidate sees
/// the same sampled throws (by seed), so that they are compared fairly;
/// the samples of a round run on up to `threads` threads (`main` and
/// helpers, made as needed), each sample's value depending only on the
/// position, the candidate and the sample's seed, so that the result is
/// the same on any number of threads.
pub(super) fn refine(
    geometry: &Geometry,
    main: &mut Worker,
    helpers: &mut Vec<Worker>,
    threads: usize,
    sampling: Sampling,
    best: &mut Vec<Candidate>,
) {
    let budget = sampling.budget;
    let samples = samples_per_round(geometry, budget);
    let refined = budget.refined.min(best.len());
    if samples == 0 || refined < 2 {
        return;
    }
    // Only sampled values compare with each other.
    best.truncate(refined);
    let exact: Vec<f64> = best.iter().map(|c| c.value).collect();
    let mut totals = vec![0.0; best.len()];
    let mut alive: Vec<usize> = (0..best.len()).collect();
    let mut sampled = 0;
    let mut values = Vec::new();
    while alive.len() > 1 {
        let jobs: Vec<(usize, usize)> = alive
            .iter()
            .flat_map(|&i| (sampled..sampled + samples).map(move |k| (i, k)))
            .collect();
        values.clear();
        values.resize(jobs.len(), 0.0);
        let threads = threads.min(jobs.len());
        while helpers.len() + 1 < threads {
            helpers.push(main.clone());
        }
        run_samples(
            geometry,
            main,
            &mut helpers[..threads - 1],
            sampling,
            best,
            &jobs,
            &mut values,
        );
        // Summed in job order, whichever thread computed what.
        for (&(i, _), value) in jobs.iter().zip(&values) {
            totals[i] += value;
        }
        sampled += samples;
        // Ties keep the order of the exact evaluation.
        let mean = |i: usize| totals[i] / sampled as f64 + TIE_BREAK * exact[i];
        alive.sort_by(|&a, &b| mean(b).total_cmp(&mean(a)));
        alive.truncate(alive.len().div_ceil(2));
    }
    let winner = alive[0];
    let mut chosen = best[winner];
    chosen.value = totals[winner] / sampled as f64 + TIE_BREAK * exact[winner];
    best.clear();
    best.push(chosen);
}

/// Samples per candidate and round: the budget's on boards up to
/// [`FULL_SAMPLING_CELLS`], fewer in proportion on bigger ones (a sample
/// costs a few passes over the board), down to none.
fn samples_per_round(geometry: &Geometry, budget: &Budget) -> usize {
    if geometry.cell_count <= FULL_SAMPLING_CELLS {
        budget.samples
    } else {
        // In 128 bits: a budget of more than 2^54 samples would overflow.
        let scaled = budget.samples as u128 * FULL_SAMPLING_CELLS as u128;
        (scaled / geometry.cell_count as u128) as usize
    }
}

/// Evaluates the sampled futures `jobs` (candidate index, sample number)
/// into `values`, spread over `main` and the `helpers`, one thread each
/// (the helpers' positions are brought in line with `main`'s first).
fn run_samples(
    geometry: &Geometry,
    main: &mut Worker,
    helpers: &mut [Worker],
    sampling: Sampling,
    best: &[Candidate],
    jobs: &[(usize, usize)],
    values: &mut [f64],
) {
    let threads = 1 + helpers.len();
    if threads == 1 {
        for (job, value) in jobs.iter().zip(values.iter_mut()) {
            *value = sample_after(geometry, main, sampling, best[job.0], job.1);
        }
        return;
    }
    for helper in helpers.iter_mut() {
        helper.position.clone_from(&main.position);
    }
    // Contiguous shares, one a thread; each helper hands back its values.
    let share = jobs.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let mut shares = jobs.chunks(share).zip(values.chunks_mut(share));
        let (main_jobs, main_values) = shares.next().expect("at least one job");
        let spawned: Vec<_> = shares
            .zip(helpers.iter_mut())
            .map(|((jobs, values), helper)| {
                let thread = std::thread::Builder::new().spawn_scoped(scope, move || {
                    let sample = |&(i, k): &(usize, usize)| {
                        sample_after(geometry, helper, sampling, best[i], k)
                    };
                    jobs.iter().map(sample).collect::<Vec<f64>>()
                });
                (jobs, values, thread)
            })
            .collect();
        for (job, value) in main_jobs.iter().zip(main_values.iter_mut()) {
            *value = sample_after(geometry, main, sampling, best[job.0], job.1);
        }
        for (jobs, values, thread) in spawned {
            match thread {
                Ok(thread) => match thread.join() {
                    Ok(computed) => values.copy_from_slice(&computed),
                    Err(panic) => std::panic::resume_unwind(panic),
                },
                // A thread the system refused (a process limit): its share
                // is the main thread's, with the same values.
                Err(_) => {
                    for (job, value) in jobs.iter().zip(values.iter_mut()) {
                        *value = sample_after(geometry, main, sampling, best[job.0], job.1);
                    }
                }
            }
        }
    });
}

/// The value of sample number `sample` of the future after `candidate` is
/// played on the worker's position (which is restored afterwards).
fn sample_after(
    geometry: &Geometry,
    worker: &mut Worker,
    sampling: Sampling,
    candidate: Candidate,
    sample: usize,
) -> f64 {
    let position = &mut worker.position;
    let color = position.cells[candidate.from];
    let mark = position.mark();
    position.set(geometry, candidate.from, 0);
    position.set(geometry, candidate.to, color);
    let sample_seed = sampling.seed ^ (sample as u64).wrapping_mul(SAMPLE_SEED_MIX);
    let mut rng = Streams {
        cells: SampleRng(sample_seed),
        colors: SampleRng(sample_seed ^ COLOR_STREAM_MIX),
    };
    let value = sample_future(geometry, position, &mut worker.scratch, sampling, &mut rng);
    position.back_to(mark);
    value
}

/// One sampled future of the current position: the computer throws (the
/// shown throw first, if any), the player answers with its best
/// exactly-valued move (moving again after each scoring move), for
/// `budget.depth` throws; the value is the points won on the way plus the
/// best reply to the last throw, or the weight of a loss when a throw
/// ends the game. The position is restored afterwards.
fn sample_future(
    geometry: &Geometry,
    position: &mut Position,
    scratch: &mut Scratch,
    sampling: Sampling,
    rng: &mut Streams,
) -> f64 {
    let budget = sampling.budget;
    let mark = position.mark();
    let mut points = 0;
    let mut lost = false;
    for turn in 0..budget.depth.max(1) {
        let shown = if turn == 0 { sampling.shown } else { &[] };
        match sample_throw(geometry, position, scratch, rng, shown) {
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
            let best = best_reply_move(geometry, position, scratch, budget.replies);
            let Some((_, from, to)) = best else { break };
            let color = position.cells[from];
            position.set(geometry, from, 0);
            position.set(geometry, to, color);
            scratch.removed.clear();
            position.lines_through(geometry, to, &mut scratch.removed);
            if scratch.removed.is_empty() {
                break;
            }
            points += crate::board::points(scratch.removed.len(), geometry.line, streak);
            streak += 1;
            for i in 0..scratch.removed.len() {
                position.set(geometry, scratch.removed[i], 0);
            }
            if position.free == geometry.cell_count {
                break;
            }
        }
    }
    let value = if lost {
        geometry.weights.loss
    } else {
        geometry.weights.points * points as f64
            + best_reply(geometry, position, scratch, budget.replies)
    };
    position.back_to(mark);
    value
}

/// A computer throw on the current position, with the lines it forms
/// removed: the `shown` chips when a preview shows them (each on its
/// planned cell while that is empty, the others on cells drawn among the
/// rest, as the game throws them), otherwise sampled.
/// Returns the points of those lines, or `None` when the throw ends the
/// game.
fn sample_throw(
    geometry: &Geometry,
    position: &mut Position,
    scratch: &mut Scratch,
    rng: &mut Streams,
    shown: &[ShownChip],
) -> Option<u64> {
    let count = if shown.is_empty() {
        geometry.next
    } else {
        shown.len()
    };
    if count > position.free {
        return None;
    }
    scratch.thrown.clear();
    if shown.is_empty() {
        draw_cells(geometry, position, scratch, rng, count);
        for thrown in &mut scratch.thrown {
            thrown.1 = 1 + rng.colors.below(usize::from(geometry.colors)) as Color;
        }
    } else {
        scratch.thrown.extend(
            shown
                .iter()
                .filter_map(|chip| Some((chip.cell?, chip.color)))
                .filter(|&(cell, _)| position.cells[cell] == 0),
        );
        let kept = scratch.thrown.len();
        draw_cells(geometry, position, scratch, rng, count - kept);
        let homeless = shown
            .iter()
            .filter(|chip| chip.cell.is_none_or(|cell| position.cells[cell] != 0));
        for (thrown, chip) in scratch.thrown[kept..].iter_mut().zip(homeless) {
            thrown.1 = chip.color;
        }
    }
    for i in 0..scratch.thrown.len() {
        let (cell, color) = scratch.thrown[i];
        position.set(geometry, cell, color);
    }
    scratch.removed.clear();
    for i in 0..scratch.thrown.len() {
        position.lines_through(geometry, scratch.thrown[i].0, &mut scratch.removed);
    }
    scratch.removed.sort_unstable();
    scratch.removed.dedup();
    for i in 0..scratch.removed.len() {
        position.set(geometry, scratch.removed[i], 0);
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

/// Adds `n` distinct empty cells, none already in `scratch.thrown`, to
/// `scratch.thrown` (colour 0 for now). There must be that many.
fn draw_cells(
    geometry: &Geometry,
    position: &Position,
    scratch: &mut Scratch,
    rng: &mut Streams,
    n: usize,
) {
    let target = scratch.thrown.len() + n;
    if n <= REJECTION_MAX_THROW && position.free * REJECTION_FREE_SHARE >= geometry.cell_count {
        // Drawing from the whole board and skipping filled cells throws on
        // the same cells after two candidate moves wherever they agree,
        // which makes their comparison much less noisy.
        while scratch.thrown.len() < target {
            let cell = rng.cells.below(geometry.cell_count);
            if position.cells[cell] == 0 && scratch.thrown.iter().all(|&(c, _)| c != cell) {
                scratch.thrown.push((cell, 0));
            }
        }
    } else {
        scratch.empty.clear();
        let thrown = &scratch.thrown;
        scratch.empty.extend(
            (0..geometry.cell_count)
                .filter(|&i| position.cells[i] == 0 && thrown.iter().all(|&(c, _)| c != i)),
        );
        for j in 0..n {
            let k = j + rng.cells.below(scratch.empty.len() - j);
            scratch.empty.swap(j, k);
            scratch.thrown.push((scratch.empty[j], 0));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Weights;
    use crate::board::Board;
    use crate::game::Rules;

    #[test]
    fn big_boards_sample_in_inverse_proportion_to_their_cells() {
        let rules = |side| Rules {
            width: side,
            height: side,
            ..Rules::default()
        };
        let samples = |side, samples| {
            let geometry = Geometry::new(&rules(side), Weights::default());
            let budget = Budget {
                samples,
                ..Budget::default()
            };
            samples_per_round(&geometry, &budget)
        };
        assert_eq!(samples(24, 12), 12);
        assert_eq!(samples(48, 12), 3);
        assert_eq!(samples(100, 12), 0);
        assert_eq!(samples(48, usize::MAX), usize::MAX / 4);
    }

    #[test]
    fn a_shown_throw_lands_as_the_game_throws_it() {
        let board = Board::from_rows(&["1....", ".....", ".....", ".....", "....."]);
        let rules = Rules {
            width: 5,
            height: 5,
            colors: 5,
            line: 5,
            next: 3,
            first: 3,
        };
        let geometry = Geometry::new(&rules, Weights::default());
        let mut position = Position::new(&geometry);
        position.load(&geometry, &board);
        let mut scratch = Scratch::default();
        // The first chip is planned for the filled corner, the second for
        // cell 7, the third has no cell (colours only).
        let shown = [
            ShownChip {
                cell: Some(0),
                color: 2,
            },
            ShownChip {
                cell: Some(7),
                color: 3,
            },
            ShownChip {
                cell: None,
                color: 4,
            },
        ];
        for seed in 0..50 {
            let mut rng = Streams {
                cells: SampleRng(seed),
                colors: SampleRng(!seed),
            };
            let mark = position.mark();
            let points = sample_throw(&geometry, &mut position, &mut scratch, &mut rng, &shown);
            assert_eq!(points, Some(0));
            let thrown = scratch.thrown.clone();
            assert_eq!(thrown.len(), 3);
            assert_eq!(thrown[0], (7, 3), "a shown cell still empty is kept");
            let mut colors: Vec<Color> = thrown.iter().map(|&(_, c)| c).collect();
            colors.sort_unstable();
            assert_eq!(colors, [2, 3, 4], "the colours are the shown ones");
            for &(cell, color) in &thrown {
                assert_ne!(cell, 0, "never on a filled cell");
                assert_eq!(position.cells[cell], color);
            }
            assert!(thrown[1].0 != thrown[2].0 && thrown[1].0 != 7);
            position.back_to(mark);
            assert_eq!(position.free, 24);
        }
    }
}
