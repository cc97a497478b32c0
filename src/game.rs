//! The turn cycle: the player's move, removal of lines, the computer's throw,
//! the streak bonus and the end of the game.
//!
//! Pure, like the board: the game owns a seeded generator and returns what
//! happened as [`Event`]s for a front end to animate. It never sleeps.

use std::fmt;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::board::{self, Board, Chip, Color, Pos};

/// The rules a game is played by: the original's `-w -t -c -i -n -N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Board width in cells (`-w`).
    pub width: usize,
    /// Board height in cells (`-t`).
    pub height: usize,
    /// Number of chip colours (`-c`).
    pub colors: Color,
    /// Shortest line that is removed (`-i`).
    pub line: usize,
    /// Chips the computer throws each turn (`-n`).
    pub next: usize,
    /// Chips in the opening throw (`-N`).
    pub first: usize,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            width: 9,
            height: 9,
            colors: 5,
            line: 5,
            next: 3,
            first: 3,
        }
    }
}

/// The largest accepted board side.
pub const MAX_SIDE: usize = 1000;
/// The largest accepted shortest line.
pub const MAX_LINE: usize = 1000;

impl Rules {
    /// Number of cells on the board.
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// Whether these are the default rules, under which records are kept.
    pub fn is_default(&self) -> bool {
        *self == Rules::default()
    }

    /// Checks every rule against its accepted range. The error names the
    /// flag, the value given and what is accepted.
    pub fn validate(&self) -> Result<(), RuleError> {
        let check = |flag: char, value: usize, min: usize, max: usize| {
            if (min..=max).contains(&value) {
                Ok(())
            } else {
                Err(RuleError {
                    flag,
                    value,
                    min,
                    max,
                })
            }
        };
        check('w', self.width, 1, MAX_SIDE)?;
        check('t', self.height, 1, MAX_SIDE)?;
        check('c', self.colors.into(), 1, board::MAX_COLORS.into())?;
        check('i', self.line, 2, MAX_LINE)?;
        check('n', self.next, 0, self.cells())?;
        check('N', self.first, 1, self.cells())
    }
}

/// A rule outside its accepted range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleError {
    /// The short flag of the rule (`w t c i n N`).
    pub flag: char,
    /// The value that was given.
    pub value: usize,
    /// The smallest accepted value.
    pub min: usize,
    /// The largest accepted value.
    pub max: usize,
}

impl RuleError {
    /// What the rule accepts, without the flag and value: for example
    /// `the board width must be from 1 to 1000`. Lets a caller name the value's
    /// source its own way (a config file key rather than a flag).
    pub fn requirement(&self) -> String {
        let what = match self.flag {
            'w' => "board width",
            't' => "board height",
            'c' => "number of colours",
            'i' => "shortest line",
            'n' => "chips per computer turn",
            _ => "chips in the opening throw",
        };
        let cells = if matches!(self.flag, 'n' | 'N') {
            " (the number of cells)"
        } else {
            ""
        };
        format!(
            "the {what} must be from {} to {}{cells}",
            self.min, self.max
        )
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "-{} {}: {}", self.flag, self.value, self.requirement())
    }
}

impl std::error::Error for RuleError {}

/// Who caused a removal of chips.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    /// The player's move completed the lines.
    Player,
    /// The computer's throw completed them.
    Computer,
}

/// Something that happened during a turn, in the order it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The player's chip walked this path, both ends included.
    Moved {
        /// The cells walked, from the chip's old cell to its new one.
        path: Vec<Pos>,
        /// The chip's colour.
        color: Color,
    },
    /// Chips on completed lines were removed and scored.
    Removed {
        /// The chips removed, each once.
        chips: Vec<Chip>,
        /// The points they earned.
        points: u64,
        /// Whose move completed the lines.
        by: Actor,
    },
    /// The computer threw these chips.
    Thrown(Vec<Chip>),
    /// The game is over; nothing more can happen.
    GameOver,
}

/// Why a move was refused. A refused move changes nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The game has ended.
    GameOver,
    /// A position lies outside the board.
    OffBoard,
    /// There is no chip at the starting cell.
    NoChip,
    /// The target cell already holds a chip.
    Occupied,
    /// No path of empty cells leads to the target.
    NoPath,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveError::GameOver => "game over",
            MoveError::OffBoard => "off the board",
            MoveError::NoChip => "no chip there",
            MoveError::Occupied => "target occupied",
            MoveError::NoPath => "no path",
        })
    }
}

impl std::error::Error for MoveError {}

/// What one accepted player move did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// Everything that happened, in order.
    pub events: Vec<Event>,
    /// Chips removed by the player's move itself.
    pub removed: usize,
    /// Points earned by the player's move itself.
    pub points: u64,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    board: Board,
    score: u64,
    streak: u32,
    over: bool,
    rng: ChaCha8Rng,
}

impl Game {
    /// Starts a game: makes the opening throw and removes any lines it
    /// formed. Returns the game and what the opening did.
    ///
    /// The same rules and seed always give the same game: the generator is
    /// ChaCha8 keyed by [`seed_key`]`(seed)`, and every draw goes through
    /// [`board::below`].
    ///
    /// # Panics
    /// When the rules are invalid; check them with [`Rules::validate`].
    pub fn new(rules: Rules, seed: u64) -> (Game, Vec<Event>) {
        if let Err(e) = rules.validate() {
            panic!("invalid rules: {e}");
        }
        let mut game = Game {
            rules,
            board: Board::new(rules.width, rules.height),
            score: 0,
            streak: 0,
            over: false,
            rng: ChaCha8Rng::from_seed(seed_key(seed)),
        };
        let mut events = Vec::new();
        game.computer_turn(rules.first, &mut events);
        game.begin_player_turn(&mut events);
        (game, events)
    }

    /// The rules of this game.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The board as it stands.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Points earned so far.
    pub fn score(&self) -> u64 {
        self.score
    }

    /// Scoring player moves in a row in the current player turn; the next
    /// scoring move earns this squared as a bonus.
    pub fn streak(&self) -> u32 {
        self.streak
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Checks a player move without making it: the path the chip would walk.
    pub fn check_move(&self, from: Pos, to: Pos) -> Result<Vec<Pos>, MoveError> {
        if self.over {
            return Err(MoveError::GameOver);
        }
        if !self.board.contains(from) || !self.board.contains(to) {
            return Err(MoveError::OffBoard);
        }
        if self.board.get(from).is_none() {
            return Err(MoveError::NoChip);
        }
        if self.board.get(to).is_some() {
            return Err(MoveError::Occupied);
        }
        self.board.path(from, to).ok_or(MoveError::NoPath)
    }

    /// The player moves the chip at `from` to the empty cell `to`. Lines
    /// through it are removed and scored; if none formed, the computer
    /// throws. An illegal move is refused and changes nothing.
    pub fn play(&mut self, from: Pos, to: Pos) -> Result<Turn, MoveError> {
        let path = self.check_move(from, to)?;
        let color = self.board.get(from).expect("checked: a chip is there");
        self.board.set(from, None);
        self.board.set(to, Some(color));
        let mut events = vec![Event::Moved { path, color }];

        let chips = self.board.lines_through(&[to], self.rules.line);
        let (removed, points) = (
            chips.len(),
            board::points(chips.len(), self.rules.line, self.streak),
        );
        if chips.is_empty() {
            self.streak = 0;
            self.computer_turn(self.rules.next, &mut events);
        } else {
            self.board.remove(&chips);
            self.score += points;
            self.streak += 1;
            events.push(Event::Removed {
                chips,
                points,
                by: Actor::Player,
            });
        }
        self.begin_player_turn(&mut events);
        Ok(Turn {
            events,
            removed,
            points,
        })
    }

    /// Puts a chip of `color` at `pos` (or empties it), removing nothing.
    /// For setting up positions in tests and the headless mode.
    pub fn put(&mut self, pos: Pos, color: Option<Color>) -> Result<(), MoveError> {
        if !self.board.contains(pos) {
            return Err(MoveError::OffBoard);
        }
        self.board.set(pos, color);
        Ok(())
    }

    /// Empties the board, keeping the score.
    pub fn clear(&mut self) {
        self.board.clear();
    }

    /// The computer throws `count` chips, or ends the game when there is no
    /// room for them; lines the throw forms are removed with no streak
    /// bonus, and a full board ends the game.
    fn computer_turn(&mut self, count: usize, events: &mut Vec<Event>) {
        let Some(chips) = self.board.throw(&mut self.rng, count, self.rules.colors) else {
            self.end(events);
            return;
        };
        let through: Vec<Pos> = chips.iter().map(|c| c.pos).collect();
        events.push(Event::Thrown(chips));
        let removed = self.board.lines_through(&through, self.rules.line);
        if !removed.is_empty() {
            let points = board::points(removed.len(), self.rules.line, 0);
            self.board.remove(&removed);
            self.score += points;
            events.push(Event::Removed {
                chips: removed,
                points,
                by: Actor::Computer,
            });
        }
        if self.board.is_full() {
            self.end(events);
        }
    }

    /// Before handing the turn to the player: with no chip on the board
    /// there is nothing to move, so the computer throws instead (the
    /// original deadlocks here). When it throws nothing at all (`-n 0`), no
    /// chip can ever appear again and the game ends.
    fn begin_player_turn(&mut self, events: &mut Vec<Event>) {
        while !self.over && self.board.chip_count() == 0 {
            if self.rules.next == 0 {
                self.end(events);
            } else {
                self.streak = 0;
                self.computer_turn(self.rules.next, events);
            }
        }
    }

    fn end(&mut self, events: &mut Vec<Event>) {
        self.over = true;
        events.push(Event::GameOver);
    }
}

/// The 32-byte ChaCha8 key for a `--seed` value: four SplitMix64 outputs,
/// little-endian. Fixed here, so a seed replays the same game in every
/// version of the program.
pub fn seed_key(seed: u64) -> [u8; 32] {
    let mut state = seed;
    let mut key = [0u8; 32];
    for chunk in key.chunks_exact_mut(8) {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        chunk.copy_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    key
}
