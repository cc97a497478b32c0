//! The board as the player sees it, catching up with the engine's board by
//! replaying the engine's events: a chip walking its path, removed chips
//! flashing, thrown chips appearing, the game-over box.
//!
//! Time is passed in, never read here, so the animation is testable.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crate::board::{Board, Chip, Color, Pos};
use crate::game::Event;

/// Time a moving chip spends on each cell of its path.
pub const STEP_TIME: Duration = Duration::from_millis(50);
/// Steps a walk takes at most: 5 s. Every path on the original's 9 × 9
/// board is shorter, so it walks cell by cell; a longer path, which only a
/// big board has, is shown at this many cells spread evenly along it,
/// instead of walking for a minute or more.
pub const MAX_WALK_STEPS: usize = 100;
/// How long removed chips flash before they vanish.
pub const FLASH_TIME: Duration = Duration::from_millis(600);
/// Removals flashed in one turn; any further ones vanish at once. A normal
/// turn has at most two, but odd rules can have the engine throw onto an
/// empty board a thousand times over, which would flash for ten minutes.
pub const MAX_FLASHES_PER_TURN: usize = 3;

/// One part of replaying a turn: either timed (it lasts a while and the
/// screen changes as it runs) or instant.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    /// Timed: a chip walks `path`, one cell per [`STEP_TIME`], in at most
    /// [`MAX_WALK_STEPS`] steps.
    Walk { path: Vec<Pos>, color: Color },
    /// Timed: chips flash for [`FLASH_TIME`], then vanish and the score
    /// grows.
    Flash { chips: Vec<Chip>, points: u64 },
    /// Instant: chips appear.
    Throw(Vec<Chip>),
    /// Instant: chips vanish and the score grows, without flashing.
    Clear { chips: Vec<Chip>, points: u64 },
    /// Instant: the game-over box appears.
    Over,
}

/// The board, score and game-over box as shown, and the steps still to
/// replay.
///
/// Invariant, kept by every method that takes a time `now`: the first of
/// `steps`, if any, is a timed step that has not finished at `now`. Instant
/// steps and finished timed steps are applied at once and never wait at the
/// front, so [`Animation::deadline`] only ever has a timed step to time.
#[derive(Debug)]
pub struct Animation {
    /// The board as shown, behind the engine's while steps remain.
    board: Board,
    /// The score as shown.
    score: u64,
    /// Whether the game-over box is shown.
    over: bool,
    steps: VecDeque<Step>,
    /// When the first of `steps` began.
    step_started: Instant,
    /// The walking chip, while one walks.
    walker: Option<Chip>,
    /// The chips flashing, while some flash.
    flashing: Vec<Chip>,
}

/// What [`Animation::advance`] brought on screen that the game must react
/// to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use]
pub enum Shown {
    /// Nothing the game needs to know.
    Progress,
    /// The game-over box has just appeared.
    GameOver,
}

impl Animation {
    /// An empty board of `width` × `height` cells at time `now`.
    pub fn new(width: usize, height: usize, now: Instant) -> Animation {
        Animation {
            board: Board::new(width, height),
            score: 0,
            over: false,
            steps: VecDeque::new(),
            step_started: now,
            walker: None,
            flashing: Vec::new(),
        }
    }

    /// The board as shown.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The score as shown.
    pub fn score(&self) -> u64 {
        self.score
    }

    /// Whether the game-over box is shown.
    pub fn over(&self) -> bool {
        self.over
    }

    /// The walking chip, while one walks.
    pub fn walker(&self) -> Option<Chip> {
        self.walker
    }

    /// The chips flashing, while some flash.
    pub fn flashing(&self) -> &[Chip] {
        &self.flashing
    }

    /// Shows `board` and `score` at once, dropping every step still to run
    /// and the game-over box: for a move taken back.
    pub fn show(&mut self, board: &Board, score: u64) {
        self.board.clone_from(board);
        self.score = score;
        self.over = false;
        self.steps.clear();
        self.walker = None;
        self.flashing.clear();
    }

    /// Whether steps remain: the shown board is behind the engine's.
    pub fn is_running(&self) -> bool {
        !self.steps.is_empty()
    }

    /// Queues the replay of `events` after any steps still running, then
    /// brings the animation up to `now` (a replay queued while idle starts
    /// at `now`).
    pub fn replay(&mut self, events: Vec<Event>, now: Instant) -> Shown {
        if !self.is_running() {
            self.step_started = now;
        }
        let mut flashes = 0;
        for event in events {
            self.steps.push_back(match event {
                Event::Moved { path, color } => Step::Walk { path, color },
                Event::Removed { chips, points, .. } if flashes == MAX_FLASHES_PER_TURN => {
                    Step::Clear { chips, points }
                }
                Event::Removed { chips, points, .. } => {
                    flashes += 1;
                    Step::Flash { chips, points }
                }
                Event::Thrown(chips) => Step::Throw(chips),
                Event::GameOver => Step::Over,
            });
        }
        self.advance(now)
    }

    /// Applies every step that has finished by `now`, leaving the first
    /// unfinished timed step at the front.
    pub fn advance(&mut self, now: Instant) -> Shown {
        let mut shown = Shown::Progress;
        while let Some(step) = self.steps.front() {
            let elapsed = now.saturating_duration_since(self.step_started);
            match step {
                Step::Walk { path, color } => {
                    let color = *color;
                    let last = path.len() - 1;
                    self.board.set(path[0], None);
                    let steps = last.min(MAX_WALK_STEPS);
                    let step = (elapsed.as_millis() / STEP_TIME.as_millis()) as usize;
                    if step < steps {
                        // Cell `step` of a path of at most MAX_WALK_STEPS.
                        let reached = step * last / steps;
                        self.walker = Some(Chip {
                            pos: path[reached],
                            color,
                        });
                        return shown;
                    }
                    self.board.set(path[last], Some(color));
                    self.walker = None;
                    self.step_started += STEP_TIME * steps as u32;
                }
                Step::Flash { chips, points } => {
                    if elapsed < FLASH_TIME {
                        self.flashing.clone_from(chips);
                        return shown;
                    }
                    self.score = self.score.saturating_add(*points);
                    self.board.remove(chips);
                    self.flashing.clear();
                    self.step_started += FLASH_TIME;
                }
                Step::Throw(chips) => {
                    for chip in chips {
                        self.board.set(chip.pos, Some(chip.color));
                    }
                }
                Step::Clear { chips, points } => {
                    self.score = self.score.saturating_add(*points);
                    self.board.remove(chips);
                }
                Step::Over => {
                    self.over = true;
                    shown = Shown::GameOver;
                }
            }
            self.steps.pop_front();
        }
        shown
    }

    /// When the shown board next changes by itself, `None` when no steps
    /// remain. Instant steps are never at the front (see the type's
    /// invariant); were one there, it would be due at once.
    pub fn deadline(&self, now: Instant) -> Option<Instant> {
        let step = self.steps.front()?;
        let elapsed = now.saturating_duration_since(self.step_started);
        Some(match step {
            Step::Walk { .. } => {
                let reached = elapsed.as_millis() / STEP_TIME.as_millis();
                self.step_started + STEP_TIME * (reached as u32 + 1)
            }
            Step::Flash { .. } => self.step_started + FLASH_TIME,
            Step::Throw(_) | Step::Clear { .. } | Step::Over => self.step_started,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Actor;

    fn chip(x: usize, y: usize) -> Chip {
        Chip {
            pos: Pos::new(x, y),
            color: 1,
        }
    }

    /// A walk of more moves than [`MAX_WALK_STEPS`] is shown in that many
    /// steps, spread evenly along its path; a shorter one goes cell by
    /// cell. What follows it starts as the chip lands.
    #[test]
    fn a_long_walk_is_shown_in_the_most_steps_spread_evenly() {
        let many = [MAX_WALK_STEPS + 1, 3 * MAX_WALK_STEPS - 1, 1000];
        for moves in [1, 2, MAX_WALK_STEPS].into_iter().chain(many) {
            let path: Vec<Pos> = (0..=moves).map(|x| Pos::new(x, 0)).collect();
            let now = Instant::now();
            let mut animation = Animation::new(moves + 1, 1, now);
            let events = vec![
                Event::Moved {
                    path: path.clone(),
                    color: 1,
                },
                Event::Removed {
                    chips: vec![chip(moves, 0)],
                    points: 1,
                    by: Actor::Player,
                },
            ];
            assert_eq!(animation.replay(events, now), Shown::Progress);
            let mut shown = Vec::new();
            let mut at = now;
            while let Some(walker) = animation.walker() {
                shown.push(walker.pos.x);
                assert_eq!(animation.deadline(at), Some(at + STEP_TIME));
                at += STEP_TIME;
                assert_eq!(animation.advance(at), Shown::Progress);
            }
            let steps = moves.min(MAX_WALK_STEPS);
            assert_eq!(shown.len(), steps, "{moves} moves");
            assert_eq!(shown[0], 0);
            let gaps: Vec<usize> = shown
                .windows(2)
                .map(|pair| pair[1] - pair[0])
                .chain([moves - shown[steps - 1]])
                .collect();
            let least = *gaps.iter().min().unwrap();
            let most = *gaps.iter().max().unwrap();
            assert!(least >= 1 && most - least <= 1, "{moves} moves: {gaps:?}");
            assert_eq!(most == 1, moves <= MAX_WALK_STEPS, "{moves} moves");
            // Landed, and flashing from the moment it landed.
            assert_eq!(at, now + STEP_TIME * steps as u32);
            assert_eq!(animation.board().get(path[moves]), Some(1));
            assert_eq!(animation.flashing(), [chip(moves, 0)]);
            assert_eq!(animation.deadline(at), Some(at + FLASH_TIME));
        }
    }

    #[test]
    fn instant_steps_never_wait_at_the_front() {
        let now = Instant::now();
        let mut animation = Animation::new(3, 3, now);
        let shown = animation.replay(
            vec![
                Event::Thrown(vec![chip(0, 0)]),
                Event::Removed {
                    chips: vec![chip(0, 0)],
                    points: 2,
                    by: Actor::Computer,
                },
                Event::Thrown(vec![chip(1, 1)]),
                Event::GameOver,
            ],
            now,
        );
        assert_eq!(shown, Shown::Progress);
        // The flash is the front step: due when it ends, not at once.
        assert_eq!(animation.deadline(now), Some(now + FLASH_TIME));
        assert_eq!(animation.board().chip_count(), 1);
        assert_eq!(animation.advance(now + FLASH_TIME), Shown::GameOver);
        assert!(!animation.is_running());
        assert_eq!(animation.deadline(now + FLASH_TIME), None);
        assert_eq!(animation.score(), 2);
        assert_eq!(animation.board().get(Pos::new(1, 1)), Some(1));
        assert!(animation.over());
    }

    /// A hand-edited save may start near the largest score: the score
    /// shown stops there, as the game's does, rather than wrap round.
    #[test]
    fn the_score_shown_stops_at_the_largest_number() {
        let now = Instant::now();
        let mut animation = Animation::new(3, 3, now);
        animation.show(&Board::new(3, 3), u64::MAX - 1);
        // Flashed removals, then one past the flashes a turn shows, cleared
        // at once: each way of adding to the score is taken.
        let events = (0..=MAX_FLASHES_PER_TURN).flat_map(|_| {
            [
                Event::Thrown(vec![chip(0, 0)]),
                Event::Removed {
                    chips: vec![chip(0, 0)],
                    points: 5,
                    by: Actor::Player,
                },
            ]
        });
        assert_eq!(animation.replay(events.collect(), now), Shown::Progress);
        let mut at = now;
        while animation.is_running() {
            at += FLASH_TIME;
            assert_eq!(animation.advance(at), Shown::Progress);
        }
        assert_eq!(animation.score(), u64::MAX);
    }
}
