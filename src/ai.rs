//! The built-in player: chooses a move from what a player can see.
//!
//! Pure, like the engine: it reads a [`Board`] and the [`Rules`], never the
//! game's generator, and it never looks at a clock. Its effort is a fixed
//! amount of work ([`Budget`]), so the same board, rules, budget and seed
//! always give the same move, on any machine. A front end that must stay
//! responsive can move a [`Player`] to another thread: a move on the default
//! 9 × 9 board takes milliseconds.
//!
//! How it plays:
//! 1. **Static evaluation** of a board: every *window* of `i` cells on the
//!    four axes (at most [`MAX_SPAN`] cells on boards with very long lines)
//!    that holds chips of a single colour earns a steeply growing reward for
//!    the chips it holds; free cells are worth much; fragmented empty space
//!    (several components, cells cut off from the largest one) costs, and
//!    so does each chip that belongs to no budding line of its colour.
//! 2. **Candidates:** the value of moving chip `a` to cell `t` is nearly the
//!    value of lifting `a` plus the value of dropping its colour on `t`, both
//!    read off per-window tallies, so every chip is paired cheaply with its
//!    best reachable targets (a chip reaches every empty cell of the empty
//!    components beside it). The best few candidates are then played out
//!    exactly on a scratch board.
//! 3. **Look-ahead:** a move that completes a line is taken at once (the
//!    player moves again and space is freed). Otherwise the best few are
//!    refined by sampling futures with the player's own generator: the
//!    computer's throw, the player's best answer, the next throw
//!    ([`Budget::depth`] throws in all), valued by the best reply to the
//!    last one and averaged over the samples. Every candidate sees the same
//!    sampled throws, so that their comparison is fair.
//!
//! On boards far bigger than the default the work is capped (fewer samples,
//! down to none; a spread selection of chips; a few targets per colour), so
//! that a move on the largest board takes well under a second.

use crate::board::{Board, Color, Pos};
use crate::game::Rules;

/// The longest window the evaluation looks at; lines longer than this are
/// still found and scored, but potential lines are judged on shorter pieces
/// of them so that the work per cell stays bounded.
pub const MAX_SPAN: usize = 8;

/// Boards with more cells than this skip the connectivity and orphan terms
/// in the exact evaluation of a candidate (a pass over the whole board each
/// time).
const CONNECTIVITY_CELLS: usize = 40_000;

/// Cell visits all sampled throws of one move may cost together, so that
/// big boards sample less instead of taking long (about 40 ms here).
const SAMPLE_WORK: usize = 3_000_000;

/// Targets kept per colour when pairing chips with targets.
const DROPS_PER_COLOR: usize = 64;

/// Movable chips considered per position at most; bigger boards consider
/// an evenly spread selection.
const MAX_CHIPS: usize = 2048;

/// Marks a window holding chips of more than one colour.
const MIXED: Color = Color::MAX;

/// A move of the chip at `from` to the empty cell `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The chip's cell.
    pub from: Pos,
    /// The empty cell it moves to.
    pub to: Pos,
}

/// How much work the player may do for one move. Counts, not time, so that
/// a move is the same on every machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Candidate moves played out exactly on a scratch board.
    pub candidates: usize,
    /// Of those, how many of the best are refined by sampling throws.
    pub refined: usize,
    /// Throws sampled for each refined candidate.
    pub samples: usize,
    /// Candidate replies played out exactly after each sampled throw.
    pub replies: usize,
    /// Computer throws simulated in each sample (at least 1), the player
    /// answering each but the last with its best reply.
    pub depth: usize,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            candidates: 16,
            refined: 6,
            samples: 16,
            replies: 6,
            depth: 2,
        }
    }
}

impl Budget {
    /// The cheapest useful player: the best exact static evaluation, with no
    /// look-ahead.
    pub fn greedy() -> Budget {
        Budget {
            candidates: 16,
            refined: 0,
            samples: 0,
            replies: 0,
            depth: 1,
        }
    }
}

/// Weights of the static evaluation.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Weights {
    /// Per free cell.
    free: f64,
    /// Per point scored.
    points: f64,
    /// Multiplies the sum of window rewards.
    potential: f64,
    /// Per empty component beyond the first.
    component: f64,
    /// Per empty cell outside the largest empty component.
    outside: f64,
    /// The value of a lost game.
    loss: f64,
    /// Per orphan chip (see [`orphans`]).
    orphan: f64,
}

/// Tuned by self-play (`examples/selfplay.rs`) with 7 colours.
const WEIGHTS: Weights = Weights {
    free: 60.0,
    points: 1.0,
    potential: 1.0,
    component: 8.0,
    outside: 6.0,
    loss: -1.0e6,
    orphan: 15.0,
};

/// A candidate move in cell indices, with its estimated or exact value.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    from: usize,
    to: usize,
    value: f64,
    removed: usize,
}

/// The fixed shape of the board: sizes, axes, which windows exist and what
/// each is worth.
#[derive(Clone, Debug)]
struct Geometry {
    width: usize,
    height: usize,
    cells: usize,
    line: usize,
    span: usize,
    colors: Color,
    next: usize,
    /// Unit steps of the four axes.
    axes: [(isize, isize); 4],
    /// Index steps of the four axes.
    steps: [isize; 4],
    /// Per window id (`axis * cells + first cell`): whether the window fits
    /// on the board and lies on a board line long enough for a line.
    valid: Vec<bool>,
    /// Reward of a single-coloured window by the chips it holds.
    reward: Vec<f64>,
}

impl Geometry {
    /// How many chips of `color` lie in a row next to `(x, y)`, stepping by
    /// `(dx, dy)`; the cell `(x, y)` itself is not counted.
    fn run(
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

    fn new(rules: &Rules) -> Geometry {
        let (width, height) = (rules.width, rules.height);
        let cells = width * height;
        let span = rules.line.min(MAX_SPAN);
        let axes = [(1, 0), (0, 1), (1, 1), (1, -1)];
        let steps = axes.map(|(dx, dy)| dy * width as isize + dx);
        let mut geometry = Geometry {
            width,
            height,
            cells,
            line: rules.line,
            span,
            colors: rules.colors,
            next: rules.next,
            axes,
            steps,
            valid: vec![false; 4 * cells],
            reward: Vec::new(),
        };
        for axis in 0..4 {
            for start in 0..cells {
                let (x, y) = (start % width, start / width);
                let fits = geometry.steps_inside(x, y, axis, 1) >= span - 1;
                let line_length = 1
                    + geometry.steps_inside(x, y, axis, 1)
                    + geometry.steps_inside(x, y, axis, -1);
                geometry.valid[axis * cells + start] = fits && line_length >= rules.line;
            }
        }
        // Steep in the share of the line already in place, so that nearly
        // complete lines dominate and lines of any length compare alike.
        geometry.reward = (0..=span)
            .map(|m| (4f64.powf(5.0 * m as f64 / span as f64) - 1.0) / 3.0)
            .collect();
        geometry
    }

    /// How many steps along `axis` (times `sign`) stay on the board from
    /// `(x, y)`.
    fn steps_inside(&self, x: usize, y: usize, axis: usize, sign: isize) -> usize {
        let (dx, dy) = (self.axes[axis].0 * sign, self.axes[axis].1 * sign);
        let limit = |at: usize, d: isize, size: usize| match d {
            0 => usize::MAX,
            1 => size - 1 - at,
            _ => at,
        };
        limit(x, dx, self.width).min(limit(y, dy, self.height))
    }

    /// Calls `visit(window id, first cell)` for every window through `cell`.
    #[inline]
    fn windows_through(&self, cell: usize, mut visit: impl FnMut(usize, usize)) {
        let (x, y) = ((cell % self.width) as isize, (cell / self.width) as isize);
        for axis in 0..4 {
            let (dx, dy) = self.axes[axis];
            for k in 0..self.span as isize {
                let (sx, sy) = (x - k * dx, y - k * dy);
                if sx < 0 || sy < 0 || sx >= self.width as isize || sy >= self.height as isize {
                    break;
                }
                let start = sy as usize * self.width + sx as usize;
                let id = axis * self.cells + start;
                if self.valid[id] {
                    visit(id, start);
                }
            }
        }
    }

    /// The cells of window `id` starting at `start`.
    #[inline]
    fn window_cells(&self, id: usize, start: usize) -> impl Iterator<Item = usize> {
        let step = self.steps[id / self.cells];
        (0..self.span as isize).map(move |k| (start as isize + k * step) as usize)
    }

    /// The neighbours of `cell`, 4-connected.
    #[inline]
    fn neighbours(&self, cell: usize) -> [Option<usize>; 4] {
        let (x, y) = (cell % self.width, cell / self.width);
        [
            (y > 0).then(|| cell - self.width),
            (y + 1 < self.height).then(|| cell + self.width),
            (x > 0).then(|| cell - 1),
            (x + 1 < self.width).then(|| cell + 1),
        ]
    }
}

/// A board being searched, with per-window tallies kept up to date as cells
/// change, so that a change costs a few windows, not the whole board.
#[derive(Clone, Debug)]
struct Position {
    cells: Vec<Color>,
    free: usize,
    /// Chips in each window.
    count: Vec<u16>,
    /// The single colour of each window's chips, 0 when empty, [`MIXED`].
    color: Vec<Color>,
    /// Sum of the rewards of all single-coloured windows.
    potential: f64,
}

impl Position {
    fn new(geometry: &Geometry) -> Position {
        Position {
            cells: vec![0; geometry.cells],
            free: geometry.cells,
            count: vec![0; 4 * geometry.cells],
            color: vec![0; 4 * geometry.cells],
            potential: 0.0,
        }
    }

    /// Copies `board` in and recounts every window.
    fn load(&mut self, geometry: &Geometry, board: &Board) {
        self.cells.copy_from_slice(board.cells());
        self.free = board.free();
        self.potential = 0.0;
        for id in 0..4 * geometry.cells {
            if geometry.valid[id] {
                let (count, color) = self.scan(geometry, id, id % geometry.cells, usize::MAX);
                self.count[id] = count;
                self.color[id] = color;
                self.potential += window_reward(geometry, count, color);
            }
        }
    }

    /// Tally of window `id` from its cells, leaving out cell `skip`.
    fn scan(&self, geometry: &Geometry, id: usize, start: usize, skip: usize) -> (u16, Color) {
        let (mut count, mut color) = (0u16, 0);
        for cell in geometry.window_cells(id, start) {
            let c = self.cells[cell];
            if c == 0 || cell == skip {
                continue;
            }
            count += 1;
            color = if color == 0 || color == c { c } else { MIXED };
        }
        (count, color)
    }

    /// Sets one cell and updates the windows through it.
    fn set(&mut self, geometry: &Geometry, cell: usize, new: Color) {
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
                    self.scan(geometry, id, start, usize::MAX)
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
    fn lines_through(&self, geometry: &Geometry, cell: usize, out: &mut Vec<usize>) {
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
fn window_reward(geometry: &Geometry, count: u16, color: Color) -> f64 {
    if color == 0 || color == MIXED {
        0.0
    } else {
        geometry.reward[usize::from(count).min(geometry.span)]
    }
}

/// A small, fast generator for the player's own samples (SplitMix64); the
/// game's generator is never consulted.
#[derive(Clone, Copy, Debug)]
struct SampleRng(u64);

impl SampleRng {
    fn next_u64(&mut self) -> u64 {
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

/// Buffers reused by every search, so that the inner loops allocate nothing.
#[derive(Clone, Debug, Default)]
struct Scratch {
    /// Empty component of each empty cell; `u32::MAX` for chips.
    component: Vec<u32>,
    component_size: Vec<u32>,
    stack: Vec<usize>,
    /// Best colour-blind drop value per component, and its cell.
    parking: Vec<(f64, usize)>,
    /// Per colour, summed during one cell's scan.
    drop_color: Vec<f64>,
    /// Per colour: whether a window at the cell lacks one chip of it.
    near_line: Vec<bool>,
    touched: Vec<Color>,
    /// (colour, value, cell) of drops that extend some colour's windows.
    drops: Vec<(Color, f64, usize)>,
    /// `drops` grouped by colour, each colour's best first.
    grouped: Vec<(Color, f64, usize)>,
    /// Start and end of each colour's slice of `grouped`.
    drop_start: Vec<usize>,
    drop_end: Vec<usize>,
    candidates: Vec<Candidate>,
    removed: Vec<usize>,
    empty: Vec<usize>,
    thrown: Vec<(usize, Color)>,
    /// Cells changed by a sampled throw, with their old colours, to undo.
    undo: Vec<(usize, Color)>,
}

/// The built-in player for one set of rules. Keeps its buffers between
/// moves; create one per game and call [`Player::choose`] each turn.
#[derive(Clone, Debug)]
pub struct Player {
    geometry: Geometry,
    budget: Budget,
    position: Position,
    scratch: Scratch,
}

impl Player {
    /// A player with the default budget.
    ///
    /// # Panics
    /// When the rules are invalid ([`Rules::validate`]).
    pub fn new(rules: Rules) -> Player {
        Player::with_budget(rules, Budget::default())
    }

    /// A player that spends `budget` on each move.
    ///
    /// # Panics
    /// When the rules are invalid ([`Rules::validate`]).
    pub fn with_budget(rules: Rules, budget: Budget) -> Player {
        if let Err(e) = rules.validate() {
            panic!("invalid rules: {e}");
        }
        let geometry = Geometry::new(&rules);
        let position = Position::new(&geometry);
        Player {
            geometry,
            budget,
            position,
            scratch: Scratch::default(),
        }
    }

    /// The move this player makes on `board`, using `seed` for its own
    /// samples of the computer's throws.
    ///
    /// Always a legal move when one exists; `None` only when the board holds
    /// no chip or no empty cell (then no move exists: any chip beside an
    /// empty cell can move there).
    ///
    /// # Panics
    /// When the board's size differs from the rules'.
    pub fn choose(&mut self, board: &Board, seed: u64) -> Option<Move> {
        let geometry = &self.geometry;
        assert!(
            board.width() == geometry.width && board.height() == geometry.height,
            "the board is {}x{}, the rules say {}x{}",
            board.width(),
            board.height(),
            geometry.width,
            geometry.height
        );
        if board.free() == 0 || board.chip_count() == 0 {
            return None;
        }
        self.position.load(geometry, board);
        let mut best = exact_candidates(
            geometry,
            &mut self.position,
            &mut self.scratch,
            self.budget.candidates,
        );
        let scoring = best.iter().any(|c| c.removed > 0);
        if !scoring && self.budget.samples > 0 && self.budget.refined > 0 && geometry.next > 0 {
            refine(
                geometry,
                &mut self.position,
                &mut self.scratch,
                &self.budget,
                seed,
                &mut best,
            );
        }
        let chosen = best
            .iter()
            .filter(|c| !scoring || c.removed > 0)
            .max_by(|a, b| a.value.total_cmp(&b.value))?;
        Some(Move {
            from: board.pos(chosen.from),
            to: board.pos(chosen.to),
        })
    }
}

/// The move the default player makes on `board` under `rules`: a one-off
/// convenience around [`Player::choose`].
pub fn hint(board: &Board, rules: Rules, seed: u64) -> Option<Move> {
    Player::new(rules).choose(board, seed)
}

/// A seed for [`Player::choose`] derived from a game's seed and the board,
/// so that front ends asking about the same position in the same game get
/// the same move, and a seeded game's hints replay.
pub fn board_seed(board: &Board, game_seed: u64) -> u64 {
    board.cells().iter().fold(game_seed, |h, &cell| {
        SampleRng(h ^ u64::from(cell)).next_u64()
    })
}

/// The `limit` best candidate moves by estimate, each played out exactly,
/// best first. Empty only when no move exists.
fn exact_candidates(
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
fn refine(
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
        budget.depth.max(1) * geometry.cells * (4 * geometry.span + budget.replies + 2);
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
            if position.free == geometry.cells {
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
    if count <= 64 && position.free * 8 >= geometry.cells {
        // Drawing from the whole board and skipping filled cells throws on
        // the same cells after two candidate moves wherever they agree,
        // which makes their comparison much less noisy.
        while scratch.thrown.len() < count {
            let cell = rng.cells.below(geometry.cells);
            if position.cells[cell] == 0 && scratch.thrown.iter().all(|&(c, _)| c != cell) {
                scratch.thrown.push((cell, 0));
            }
        }
    } else {
        scratch.empty.clear();
        scratch
            .empty
            .extend((0..geometry.cells).filter(|&i| position.cells[i] == 0));
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

/// Plays the move on the position, values the result, and takes it back.
/// Returns the value and the number of chips the move removed.
fn play_out(
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
    if geometry.cells <= CONNECTIVITY_CELLS {
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
fn static_value(geometry: &Geometry, position: &Position, scratch: &Scratch, points: u64) -> f64 {
    let mut value = WEIGHTS.free * position.free as f64
        + WEIGHTS.points * points as f64
        + WEIGHTS.potential * position.potential;
    if geometry.cells <= CONNECTIVITY_CELLS {
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
fn orphans(geometry: &Geometry, position: &Position) -> usize {
    (0..geometry.cells)
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
fn connectivity(geometry: &Geometry, position: &Position, scratch: &mut Scratch) {
    scratch.component.clear();
    scratch.component.resize(geometry.cells, u32::MAX);
    scratch.component_size.clear();
    for start in 0..geometry.cells {
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

/// Fills `scratch.candidates` with the `limit` most promising moves by the
/// separable estimate `lift(chip) + drop(colour, target)`; every chip that
/// can move contributes at least its best parking move, so the list is
/// empty only when no move exists.
fn estimate_candidates(
    geometry: &Geometry,
    position: &Position,
    scratch: &mut Scratch,
    limit: usize,
) {
    connectivity(geometry, position, scratch);
    let colors = usize::from(geometry.colors);
    scratch.drop_color.clear();
    scratch.drop_color.resize(colors + 1, 0.0);
    scratch.near_line.clear();
    scratch.near_line.resize(colors + 1, false);
    scratch.parking.clear();
    scratch.parking.resize(
        scratch.component_size.len(),
        (f64::NEG_INFINITY, usize::MAX),
    );
    scratch.drops.clear();
    let reward = &geometry.reward;
    for t in 0..geometry.cells {
        if position.cells[t] != 0 {
            continue;
        }
        let mut base = 0.0;
        scratch.touched.clear();
        geometry.windows_through(t, |id, _| {
            let (count, color) = (usize::from(position.count[id]), position.color[id]);
            match color {
                0 => base += reward[1],
                MIXED => {}
                c => {
                    base -= reward[count];
                    let slot = usize::from(c);
                    if scratch.drop_color[slot] == 0.0 {
                        scratch.touched.push(c);
                    }
                    scratch.drop_color[slot] += reward[(count + 1).min(geometry.span)];
                    if count + 1 >= geometry.span {
                        scratch.near_line[slot] = true;
                    }
                }
            }
        });
        let component = scratch.component[t] as usize;
        if base > scratch.parking[component].0 {
            scratch.parking[component] = (base, t);
        }
        for i in 0..scratch.touched.len() {
            let c = scratch.touched[i];
            let slot = usize::from(c);
            let mut value = base + scratch.drop_color[slot];
            if scratch.near_line[slot] {
                value += line_bonus(geometry, position, t, c);
            }
            scratch.drops.push((c, value, t));
            scratch.drop_color[slot] = 0.0;
            scratch.near_line[slot] = false;
        }
    }
    // Group by colour (a counting sort), then keep each colour's best.
    scratch.drop_start.clear();
    scratch.drop_start.resize(colors + 2, 0);
    for d in &scratch.drops {
        scratch.drop_start[usize::from(d.0) + 1] += 1;
    }
    for c in 1..colors + 2 {
        scratch.drop_start[c] += scratch.drop_start[c - 1];
    }
    scratch.grouped.clear();
    scratch
        .grouped
        .resize(scratch.drops.len(), (0, 0.0, usize::MAX));
    scratch.drop_end.clear();
    scratch.drop_end.extend_from_slice(&scratch.drop_start);
    for &d in &scratch.drops {
        let slot = &mut scratch.drop_end[usize::from(d.0)];
        scratch.grouped[*slot] = d;
        *slot += 1;
    }
    let best_first =
        |a: &(Color, f64, usize), b: &(Color, f64, usize)| b.1.total_cmp(&a.1).then(a.2.cmp(&b.2));
    for c in 1..=colors {
        let group = &mut scratch.grouped[scratch.drop_start[c]..scratch.drop_end[c]];
        if group.len() > DROPS_PER_COLOR {
            group.select_nth_unstable_by(DROPS_PER_COLOR - 1, best_first);
            scratch.drop_end[c] = scratch.drop_start[c] + DROPS_PER_COLOR;
        }
        scratch.grouped[scratch.drop_start[c]..scratch.drop_end[c]].sort_unstable_by(best_first);
    }

    // On big boards only every few movable chips is considered, so that
    // the candidates stay few; the first movable chip always is.
    let stride = (geometry.cells - position.free).div_ceil(MAX_CHIPS).max(1);
    let mut movable = 0;
    scratch.candidates.clear();
    for a in 0..geometry.cells {
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
        let mut taken = 0;
        for &(_, value, t) in &scratch.grouped[scratch.drop_start[slot]..scratch.drop_end[slot]] {
            if beside.contains(&scratch.component[t]) {
                scratch.candidates.push(Candidate {
                    from: a,
                    to: t,
                    value: lift + value,
                    removed: 0,
                });
                taken += 1;
                if taken == 3 {
                    break;
                }
            }
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
    WEIGHTS.free * removed as f64
}

/// The change in window rewards from lifting the chip at `a`.
fn lift_value(geometry: &Geometry, position: &Position, a: usize) -> f64 {
    let reward = &geometry.reward;
    let mut delta = 0.0;
    geometry.windows_through(a, |id, start| {
        let (count, color) = (position.count[id], position.color[id]);
        if color == MIXED {
            let (count, color) = position.scan(geometry, id, start, a);
            delta += window_reward(geometry, count, color);
        } else {
            let count = usize::from(count);
            delta += reward[count - 1] - reward[count];
        }
    });
    delta
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules_for(board: &Board, colors: Color) -> Rules {
        Rules {
            width: board.width(),
            height: board.height(),
            colors,
            ..Rules::default()
        }
    }

    /// Every legal move, and whether it removes chips, by the real engine.
    fn scoring_moves(board: &Board, rules: Rules) -> Vec<Move> {
        let mut scoring = Vec::new();
        for from in board.chips().map(|c| c.pos) {
            for to in board.empty_cells() {
                if !board.reachable(from, to) {
                    continue;
                }
                let mut game = game_at(board, rules);
                if game.play(from, to).expect("reachable").removed > 0 {
                    scoring.push(Move { from, to });
                }
            }
        }
        scoring
    }

    /// A game under `rules` whose board is `board`.
    fn game_at(board: &Board, rules: Rules) -> crate::game::Game {
        let (mut game, _) = crate::game::Game::new(rules, 0);
        game.clear();
        for chip in board.chips() {
            game.put(chip.pos, Some(chip.color)).expect("on the board");
        }
        game
    }

    #[test]
    fn takes_the_only_scoring_move() {
        let boards = [
            Board::from_rows(&[
                "1111.....",
                "22.3..2..",
                ".........",
                "..3...2..",
                ".2....3..",
                ".........",
                "3....2...",
                "......3..",
                "........1",
            ]),
            Board::from_rows(&[
                "2.3.2.3.2",
                ".3.2.3.2.",
                "4....4...",
                ".4.......",
                "..4...1..",
                ".........",
                "..5.4...5",
                "3.......2",
                "2.3.2.3.1",
            ]),
        ];
        for board in boards {
            let rules = rules_for(&board, 5);
            let scoring = scoring_moves(&board, rules);
            assert_eq!(scoring.len(), 1, "one scoring move on {board:?}");
            for seed in 0..4 {
                assert_eq!(hint(&board, rules, seed), Some(scoring[0]));
            }
            let mut greedy = Player::with_budget(rules, Budget::greedy());
            assert_eq!(greedy.choose(&board, 0), Some(scoring[0]));
        }
    }

    #[test]
    fn same_board_and_seed_give_the_same_move() {
        let rules = Rules {
            colors: 7,
            ..Rules::default()
        };
        let (mut game, _) = crate::game::Game::new(rules, 11);
        let mut reused = Player::new(rules);
        for turn in 0..30 {
            let chosen = reused.choose(game.board(), turn);
            assert_eq!(chosen, Player::new(rules).choose(game.board(), turn));
            assert_eq!(chosen, reused.choose(game.board(), turn));
            let Some(chosen) = chosen else { break };
            game.play(chosen.from, chosen.to).expect("legal");
            if game.is_over() {
                break;
            }
        }
    }

    #[test]
    fn a_player_can_work_on_another_thread() {
        let rules = Rules::default();
        let (game, _) = crate::game::Game::new(rules, 3);
        let board = game.board().clone();
        let mut player = Player::new(rules);
        let expected = player.choose(&board, 1);
        let worker = std::thread::spawn(move || player.choose(&board, 1));
        assert_eq!(worker.join().expect("the player does not panic"), expected);
    }

    #[test]
    fn board_seed_depends_on_the_board_and_the_game_seed() {
        let a = Board::from_rows(&["12.", "..3"]);
        let b = Board::from_rows(&["21.", "..3"]);
        assert_eq!(board_seed(&a, 9), board_seed(&a.clone(), 9));
        assert_ne!(board_seed(&a, 9), board_seed(&b, 9));
        assert_ne!(board_seed(&a, 9), board_seed(&a, 10));
    }

    #[test]
    fn no_move_without_a_chip_or_an_empty_cell() {
        let rules = Rules {
            width: 3,
            height: 2,
            ..Rules::default()
        };
        assert_eq!(hint(&Board::new(3, 2), rules, 1), None);
        assert_eq!(hint(&Board::from_rows(&["123", "451"]), rules, 1), None);
        let one = Board::from_rows(&["..1", "..."]);
        let chosen = hint(&one, rules, 1).expect("a chip beside empty cells");
        assert!(one.reachable(chosen.from, chosen.to));
    }

    #[test]
    fn big_boards_still_get_a_legal_move() {
        let rules = Rules {
            width: 300,
            height: 200,
            colors: 35,
            line: 7,
            ..Rules::default()
        };
        let (game, _) = crate::game::Game::new(
            Rules {
                first: 20_000,
                ..rules
            },
            5,
        );
        let chosen = hint(game.board(), rules, 2).expect("chips and empty cells");
        assert!(game.board().reachable(chosen.from, chosen.to));
    }

    proptest::proptest! {
        #[test]
        fn the_move_is_always_legal(
            width in 1usize..12,
            height in 1usize..12,
            colors in 1u8..10,
            line in 2usize..8,
            next in 0usize..5,
            fill in proptest::collection::vec(0u8..10, 144),
            seed: u64,
        ) {
            let rules = Rules { width, height, colors, line, next: next.min(width * height), first: 1 };
            let mut board = Board::new(width, height);
            for (i, &c) in fill.iter().take(width * height).enumerate() {
                // About half the cells empty; colours within the rules.
                if c >= 5 {
                    board.set(board.pos(i), Some(1 + (c - 5) % colors));
                }
            }
            let chosen = hint(&board, rules, seed);
            if board.chip_count() == 0 || board.free() == 0 {
                proptest::prop_assert_eq!(chosen, None);
            } else {
                let chosen = chosen.expect("a move exists");
                proptest::prop_assert!(board.reachable(chosen.from, chosen.to), "{:?}", chosen);
            }
        }
    }

    #[test]
    fn tallies_follow_changes() {
        let board = Board::from_rows(&["11.2.", ".1...", "..1..", "...1.", "....2"]);
        let rules = rules_for(&board, 2);
        let geometry = Geometry::new(&rules);
        let mut position = Position::new(&geometry);
        position.load(&geometry, &board);
        let mut changed = position.clone();
        changed.set(&geometry, 0, 0);
        changed.set(&geometry, 2, 2);
        changed.set(&geometry, 24, 0);
        changed.set(&geometry, 24, 1);
        let mut expected_board = board.clone();
        expected_board.set(Pos::new(0, 0), None);
        expected_board.set(Pos::new(2, 0), Some(2));
        expected_board.set(Pos::new(4, 4), Some(1));
        let mut expected = Position::new(&geometry);
        expected.load(&geometry, &expected_board);
        assert_eq!(changed.count, expected.count);
        assert_eq!(changed.color, expected.color);
        assert_eq!(changed.free, expected.free);
        assert!((changed.potential - expected.potential).abs() < 1e-9);
    }

    #[test]
    fn orphans_are_chips_in_no_budding_line() {
        let board = Board::from_rows(&["1.2..", ".....", "..11.", ".....", "....3"]);
        let rules = rules_for(&board, 3);
        let geometry = Geometry::new(&rules);
        let mut position = Position::new(&geometry);
        position.load(&geometry, &board);
        // The 1 in the corner, the 2 and the 3; the pair of 1s is a line.
        assert_eq!(orphans(&geometry, &position), 3);
        // A 1 in the far corner joins the corner 1 on the diagonal.
        position.set(&geometry, 24, 1);
        assert_eq!(orphans(&geometry, &position), 1);
    }
}
