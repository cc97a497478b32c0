//! The built-in player: chooses a move from what a player can see.
//!
//! Pure, like the engine: it reads a [`Board`] and the [`Rules`], never the
//! game's generator, and it never looks at a clock. Its effort is a fixed
//! amount of work ([`Budget`]), so the same board, rules, budget and seed
//! always give the same move, on any machine. A front end that must stay
//! responsive can move a [`Player`] to another thread: a move on the default
//! 9 × 9 board takes some tens of milliseconds of processor time.
//!
//! How it plays:
//! 1. **Static evaluation** of a board: every *window* of `i` cells on the
//!    four axes (at most [`MAX_SPAN`] cells on boards with very long lines)
//!    that holds chips of a single colour earns a steeply growing reward for
//!    the chips it holds; free cells are worth much; fragmented empty space
//!    (several components, cells cut off from the largest one) costs, and
//!    so does each chip that belongs to no budding line of its colour. For
//!    the 7-colour game on 9 × 9 (lines of 5, throws of 3) a learned value
//!    is added: the points still to come, read off every window of five
//!    cells by a table that self-play trained (`examples/train.rs`), in
//!    three phases as the board fills.
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
//!    sampled throws, so that their comparison is fair. The samples come in
//!    rounds, each keeping the better half of the candidates (successive
//!    halving), so that the budget goes where the choice is still open.
//!    They run on every core ([`Player::with_threads`]); each sample's
//!    value depends only on the position, the candidate and its seed, so
//!    the move is the same on any number of threads. When a preview shows
//!    the computer's next throw ([`Player::choose_seeing`]), every sample's
//!    first throw is that one: its colours, and its cells where shown (a
//!    chip whose cell the candidate fills lands on a drawn cell, as in the
//!    game); only the throws after it are sampled.
//!
//! On boards far bigger than the default the work is capped (fewer samples
//! past 576 cells, down to none; a spread selection of chips past 2,048
//! and of targets past 65,536; no connectivity terms past 40,000 cells),
//! so that a move on the largest board takes well under a second.
//!
//! The parts, one file each: `geometry` (the board's fixed shape and its
//! windows), `position` (a board being searched, with its window tallies),
//! `evaluation` (the static value), `weights` (its [`Weights`]), `value` (the
//! learned value and its table), `candidates` (which moves are worth
//! playing out) and `search` (sampled look-ahead), with `power` (powers in
//! plain arithmetic, the same on every machine) and [`learn`] (training
//! the learned value).
//!
//! What was tried to make the player stronger and not kept is recorded,
//! with its commands and figures, in the docs of [`Budget::default`],
//! [`Weights::default`] and [`learn::Training::default`]. The tries' code
//! was never merged: the switches they name (`CLINES_EXP_…`, and options
//! such as `train --six`) were theirs alone.

mod candidates;
mod evaluation;
mod geometry;
pub mod learn;
mod position;
mod power;
mod search;
#[cfg(test)]
mod tests;
mod value;
mod weights;

use crate::board::{Board, Color, Pos};
use crate::game::{Planned, Rules};
use candidates::{Candidate, exact_candidates};
use geometry::Geometry;
use position::Position;
use search::{SampleRng, Sampling, ShownChip, Worker, refine};

pub use geometry::MAX_SPAN;
pub use weights::{MAX_WEIGHT, WeightError, Weights};

/// Threads a player samples on by default at most, however many cores
/// there are: more would cost memory (a position each) for little gain on
/// 9 × 9. [`Player::with_threads`] may set more.
const MAX_THREADS: usize = 8;

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
    /// Of those, how many of the best are refined by sampling throws, in
    /// rounds that each keep the better half (successive halving).
    pub refined: usize,
    /// Throws sampled for each surviving candidate in each round; on boards
    /// of more than 576 cells (24 × 24) fewer, in inverse proportion to
    /// their cells, down to none.
    pub samples: usize,
    /// Candidate replies played out exactly after each sampled throw.
    pub replies: usize,
    /// Computer throws simulated in each sample (at least 1), the player
    /// answering each but the last with its best reply.
    pub depth: usize,
}

impl Default for Budget {
    /// Broad and shallow: 32 candidates each sampled 12 times in the first
    /// round, halved to 16, 8, 4 and 2 (744 sampled futures a move). Measured
    /// with `examples/selfplay.rs` (`--games 100 --colors 7 --seed 1`, points
    /// without the streak bonus): 626.9 ± 35.1, where the earlier 16 candidates
    /// with 10 refined by 32 samples a round (640 futures) scored 524.7 ± 25.3.
    /// Breadth was the lever: 48 × 12 (1,140 futures, 46 ms) scored 637.6 ±
    /// 33.9, no better; more samples on fewer candidates did worse at equal
    /// cost. (These figures predate the learned value; with it, the same games
    /// score 742.6 ± 43.0, and 837.2 ± 49.0 with its table in three phases:
    /// see [`Weights::learned`]. A move then took a median of 38 ms of CPU
    /// on a 2.3 GHz Xeon, p99 64 ms, and 59 ms, p99 101 ms, on a 2.0 GHz
    /// AMD EPYC; with the table's phases side by side and tried moves taken
    /// back without reading it, the same moves take 54 ms there, p99 94 ms,
    /// and 42 ms, p99 71 ms, with tried moves taken back from a log of what
    /// they changed, targets gathered by colour and the empty components
    /// found from the empty cells' bits.)
    ///
    /// Spending the time those cuts won on 14 samples a round instead of 12
    /// (a median of 50 ms a move) scored −8.5 ± 68.7 against 12, paired
    /// over `--seed 1`'s 100 games with the learned value: sampling had
    /// flattened already.
    ///
    /// Averaging the sampled futures with aversion to risk, as −e^(−v/300)
    /// of each value `v`, so that a candidate's bad futures weigh more than
    /// its good ones, scored −144.8 ± 62.3 against the plain mean on
    /// `--seed 1`'s first 50 games (paired). Nor did the opposite, seeking
    /// risk: each value taken as e^((v − b)/600), `b` the best exact value
    /// of the move's candidates, and the candidates ranked by the certainty
    /// equivalent `b + 600·ln(mean)` (`CLINES_EXP_SEEK=600`), scored +79.4 ±
    /// 75.2 on `--seed 100001`'s 100 games but −83.1 ± 55.3 on `--seed 1`'s
    /// (paired; −1.8 ± 46.9 over the 200), and at 300 −99.0 ± 112.6 on
    /// `--seed 100001`'s first 50.
    ///
    /// Nor did spending more on crowded boards, where games are lost: with
    /// 25 free cells or fewer (about one move in fourteen), 36 samples a round
    /// instead of 12 scored +0.9 ± 31.2 (CPU per move p99 103 ms), depth 3
    /// −27.5 ± 28.1, and 64 candidates −38.3 ± 26.3 (paired, `--seed 1`'s
    /// 100 games).
    ///
    /// Nor did judging the sampled futures as a less perfect player would
    /// play them (paired on `--seed 1`): the last reply
    /// valued as the mean of the replies' values weighted by softmax at a
    /// temperature of 60 (one free cell) instead of their best, −40.4 ±
    /// 61.6; the first reply drawn by softmax at a temperature of 100
    /// instead of the best, −74.5 ± 60.9 (first 54 games). Depth 1 with 24
    /// samples a round, the same work, scored −187.0 ± 62.1 (first 49
    /// games): the second throw is worth its cost. Nor did more breadth for
    /// fewer samples: 48 candidates sampled 8 times a round instead of 32
    /// sampled 12 times, the same first round, scored −100.8 ± 55.7.
    ///
    /// Nor did depth 3 at about the same work (paired on `--seed 1`):
    /// 8 samples a round scored −106.4 ± 100.7 (first 25 games), 12
    /// samples with 3 replies −142.6 ± 124.6 (first 21). Nor did letting a
    /// scoring move compete in the sampled search with the moves that
    /// score nothing, instead of taking it at once, so that the player
    /// could put a sixth chip on a line before completing it (12 points
    /// instead of 5): with points weighted 5 it scored −97.5 ± 100.1 (first
    /// 24 games); with the weights as they are, four traced games took 52
    /// ms a move and made longer lines no more often (36 of 444 removals,
    /// 35 of 457 before).
    ///
    /// Nor, again, did letting scoring moves compete, now with a scoring
    /// candidate's future starting with the player's extra move (no throw
    /// follows a scoring move): −9.1 ± 88.6 on `--seed 1`'s first 50 games,
    /// at a median of 76 ms of CPU a move, since scoring moves are then
    /// searched too. With points weighted 10 the player made 6-lines in 12 %
    /// of its removals instead of 7 %, but lived shorter (564 points over
    /// the first 6 games where the default scored 794). Points per chip
    /// removed are where the score could grow: a line of 6 scores 12, two
    /// crossing lines of 5 score 45, but the player takes 5 points for 5
    /// chips in 92 % of its removals and no cross was seen in 12 games.
    /// Nor did other numbers of replies, paired on `--seed 1`'s first 50
    /// games: 3 scored −65.8 ± 70.4, 4 −116.4 ± 58.6, 10 −44.3 ± 70.1.
    /// Nor did 16 samples a round instead of 12, on every board: −30.6 ±
    /// 84.8 on the same 50 games, at a median of 61 ms of CPU a move
    /// (`selfplay --samples 16`).
    ///
    /// Nor, a third time, did letting scoring moves compete, now with points
    /// weighted as much as a point the learned value counts on
    /// (`CLINES_EXP_COMPETE=1 selfplay --weight points=5`): +17.1 ± 87.3
    /// on `--seed 1`'s first 50 games, at a median of 68 ms of CPU a move.
    /// Choosing the candidates by playing out every legal move exactly
    /// instead of by the separable estimate, keeping the 32 best with at
    /// most two moves of any one chip (`CLINES_EXP_ALLMOVES=2`), scored
    /// +51.1 ± 83.8 on the same games, within the noise, at a median of 51
    /// ms of CPU a move instead of 38; rebuilt and checked on 100 seeds no
    /// try had been screened on (`--seed 100001`), where it cost only a
    /// millisecond more a move (a median of 32.8 ms instead of 31.4), it
    /// scored −83.5 ± 66.3 paired. Keeping the 32 best whatever their
    /// chips scored −258.8 ± 179.6 on `--seed 1`'s first 12, since a few
    /// chips then fill the list with moves of one idea. Nor did ranking
    /// the candidates by their sampled mean blended with their exact
    /// value, a quarter of it, to steady the noisy means
    /// (`CLINES_EXP_BLEND=0.25`): −2.6 ± 75.3 on `--seed 1`'s first 50
    /// games.
    ///
    /// Nor did sharing the samples out otherwise between the rounds, at
    /// about the same work (`CLINES_EXP_KEEP`, paired on `--seed 1`'s first
    /// 20 games): the first round's 32 candidates cut to 8 instead of 16,
    /// and each later round sampling 24 times (720 sampled futures a move),
    /// −110.2 ± 111.4; 8 samples a round in the first round and 16 in each
    /// later one (736 futures), −97.8 ± 139.1.
    ///
    /// Nor, to see whether the search has room left, did four times the
    /// work on every move: 64 candidates sampled 24 times a round with 8
    /// replies (`selfplay --candidates 64 --refined 64 --samples 24
    /// --replies 8`, a median of 181 ms of CPU a move) scored 691.0 ± 74.3
    /// on `--seed 1`'s first 20 games, −148.4 ± 85.0 paired with these.
    /// More search does not make up for the evaluation.
    fn default() -> Budget {
        Budget {
            candidates: 32,
            refined: 32,
            samples: 12,
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
/// Buffers reused by every search, so that the inner loops allocate nothing.
#[derive(Clone, Debug, Default)]
struct Scratch {
    /// Empty component of each empty cell; `u32::MAX` for chips. Written
    /// by `connectivity` only, so stale after an exact evaluation.
    component: Vec<u32>,
    /// Size of each empty component, in the order of their first cells.
    component_size: Vec<u32>,
    /// Cells still to visit in a flood fill.
    stack: Vec<usize>,
    /// Best colour-blind drop value per component, and its cell.
    parking: Vec<(f64, usize)>,
    /// Per colour (by its number), the targets that extend its windows as
    /// (value, cell): every one, then the best few, best first.
    drops: Vec<Vec<(f64, usize)>>,
    /// The candidates of the position being searched, by estimate.
    candidates: Vec<Candidate>,
    /// Cells whose chips the last move or throw removed.
    removed: Vec<usize>,
    /// The empty cells a sampled throw is drawn from, when drawn by
    /// shuffling them.
    empty: Vec<usize>,
    /// The chips of a sampled throw, as (cell, colour).
    thrown: Vec<(usize, Color)>,
}

/// The built-in player for one set of rules. Keeps its buffers between
/// moves; create one per game and call [`Player::choose`] each turn.
#[derive(Clone, Debug)]
pub struct Player {
    /// The board's shape, the weights and the learned table.
    geometry: Geometry,
    /// The work allowed for each move.
    budget: Budget,
    /// The calling thread's position and buffers.
    main: Worker,
    /// Threads that sample futures, the calling one included.
    threads: usize,
    /// One per extra thread, made when first needed (never on boards too
    /// big to sample).
    helpers: Vec<Worker>,
    /// The next throw as shown for the move being chosen, in cell indices.
    shown: Vec<ShownChip>,
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
        Player::with_weights(rules, budget, Weights::default())
    }

    /// A player that spends `budget` on each move and evaluates positions
    /// with `weights` (for tuning them).
    ///
    /// # Panics
    /// When the rules are invalid ([`Rules::validate`]), or the weights
    /// ([`Weights::validate`]): with them the evaluation would not be a
    /// number.
    pub fn with_weights(rules: Rules, budget: Budget, weights: Weights) -> Player {
        if let Err(e) = rules.validate() {
            panic!("invalid rules: {e}");
        }
        if let Err(e) = weights.validate() {
            panic!("invalid weights: {e}");
        }
        let geometry = Geometry::new(&rules, weights);
        let main = Worker {
            position: Position::new(&geometry),
            scratch: Scratch::default(),
        };
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        Player {
            geometry,
            budget,
            main,
            threads: threads.min(MAX_THREADS),
            helpers: Vec::new(),
            shown: Vec::new(),
        }
    }

    /// The same player valuing positions with the learned table in `bytes`
    /// (a file written by [`learn::train`]) instead of the compiled one,
    /// weighted by its weights' [`Weights::learned`].
    ///
    /// # Errors
    /// When the table was not trained for this player's rules.
    pub fn with_learned_table(mut self, bytes: &[u8]) -> Result<Player, String> {
        let learned = value::Learned::from_bytes(&self.geometry, bytes)
            .ok_or("the learned table was not trained for these rules")?;
        self.geometry.learned = Some(learned);
        self.forget_positions();
        Ok(self)
    }

    /// Whether this player's evaluation counts a learned value: its
    /// [`Weights::learned`] is not 0 and it has a table trained for its
    /// rules, the compiled one (only the 7-colour game on 9 × 9, lines of
    /// 5, throws of 3) or one given to [`Player::with_learned_table`].
    pub fn uses_learned_value(&self) -> bool {
        self.geometry.weights.learned != 0.0 && self.geometry.learned.is_some()
    }

    /// Makes every position of this player recount everything at its next
    /// load: the tables it summed from have changed.
    fn forget_positions(&mut self) {
        self.main.position.forget();
        for helper in &mut self.helpers {
            helper.position.forget();
        }
    }

    /// The same player sampling on `threads` threads (at least 1) instead
    /// of one per available core up to 8, the default. The moves are the
    /// same either way.
    pub fn with_threads(mut self, threads: usize) -> Player {
        self.threads = threads.max(1);
        self.helpers.truncate(self.threads - 1);
        self
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
        self.choose_seeing(board, &[], seed)
    }

    /// The move this player makes on `board` when a preview shows the
    /// computer's next throw as `planned` ([`Game::planned`]): that throw
    /// is taken as certain (its colours, and its cells where shown; a chip
    /// whose cell the move fills lands on a cell drawn among the others, as
    /// in the game), and only the throws after it are sampled. With nothing
    /// planned, the same move as [`Player::choose`].
    ///
    /// [`Game::planned`]: crate::game::Game::planned
    ///
    /// # Panics
    /// When the board's size differs from the rules', or a planned cell
    /// lies outside the board.
    pub fn choose_seeing(&mut self, board: &Board, planned: &[Planned], seed: u64) -> Option<Move> {
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
        self.shown.clear();
        self.shown.extend(planned.iter().map(|p| ShownChip {
            cell: p.pos.map(|pos| board.index(pos)),
            color: p.color,
        }));
        let chosen = self.valued_candidates(board, seed).into_iter().next()?;
        Some(Move {
            from: board.pos(chosen.from),
            to: board.pos(chosen.to),
        })
    }

    /// The candidates still in the running once the search is done, the
    /// chosen one first, with their final values.
    fn valued_candidates(&mut self, board: &Board, seed: u64) -> Vec<Candidate> {
        let geometry = &self.geometry;
        let main = &mut self.main;
        main.position.load(geometry, board);
        let mut best = exact_candidates(
            geometry,
            &mut main.position,
            &mut main.scratch,
            self.budget.candidates,
        );
        let scoring = best.iter().any(|c| c.removed > 0);
        if scoring {
            best.retain(|c| c.removed > 0);
        } else if self.budget.samples > 0 && self.budget.refined > 0 && geometry.next > 0 {
            let sampling = Sampling {
                budget: &self.budget,
                seed,
                shown: &self.shown,
            };
            refine(
                geometry,
                main,
                &mut self.helpers,
                self.threads,
                sampling,
                &mut best,
            );
        }
        best.sort_by(|a, b| b.value.total_cmp(&a.value));
        best
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
