//! The turn cycle: the player's move, removal of lines, the computer's throw,
//! the streak bonus and the end of the game.
//!
//! Pure, like the board: the game owns a seeded generator and returns what
//! happened as [`Event`]s for a front end to animate. It never sleeps.
//!
//! Two additions to the original's rules live in their own modules: the
//! next-chip preview ([`Preview`], in `preview`) and taking moves back
//! ([`Game::undo`], in `undo`).

mod preview;
#[cfg(test)]
pub(crate) mod strategies;
mod undo;

use std::fmt;
use std::sync::Arc;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::board::{self, Board, Chip, Color, Pos};

pub use preview::{Planned, Preview};
use undo::Record;

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

impl Rules {
    /// The original's defaults: a 9 × 9 board, 5 colours, lines of 5, 3
    /// chips a turn and 3 to open.
    pub const DEFAULT: Rules = Rules {
        width: 9,
        height: 9,
        colors: 5,
        line: 5,
        next: 3,
        first: 3,
    };
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::DEFAULT
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

    /// Whether these are the default rules, the original's.
    pub fn is_default(&self) -> bool {
        *self == Rules::default()
    }

    /// Checks every rule against its accepted range, in the order of
    /// [`Rule::ALL`]. The error names the rule, the value given and what is
    /// accepted.
    pub fn validate(&self) -> Result<(), RuleError> {
        for rule in Rule::ALL {
            let value = rule.value(self);
            let (min, max) = (rule.min(), rule.max(self));
            if !(min..=max).contains(&value) {
                return Err(RuleError {
                    rule,
                    value,
                    min,
                    max,
                });
            }
        }
        Ok(())
    }
}

/// One of the rules of [`Rules`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// [`Rules::width`].
    Width,
    /// [`Rules::height`].
    Height,
    /// [`Rules::colors`].
    Colors,
    /// [`Rules::line`].
    Line,
    /// [`Rules::next`].
    Next,
    /// [`Rules::first`].
    First,
}

impl Rule {
    /// Every rule, in the order they are checked.
    pub const ALL: [Rule; 6] = [
        Rule::Width,
        Rule::Height,
        Rule::Colors,
        Rule::Line,
        Rule::Next,
        Rule::First,
    ];

    /// This rule's value in `rules`.
    pub fn value(self, rules: &Rules) -> usize {
        match self {
            Rule::Width => rules.width,
            Rule::Height => rules.height,
            Rule::Colors => rules.colors.into(),
            Rule::Line => rules.line,
            Rule::Next => rules.next,
            Rule::First => rules.first,
        }
    }

    /// The smallest accepted value.
    pub fn min(self) -> usize {
        match self {
            Rule::Width | Rule::Height | Rule::Colors | Rule::First => 1,
            Rule::Line => 2,
            Rule::Next => 0,
        }
    }

    /// The largest accepted value in a game of `rules`: the chips thrown
    /// are limited by the number of cells.
    pub fn max(self, rules: &Rules) -> usize {
        self.fixed_max().unwrap_or_else(|| rules.cells())
    }

    /// The largest accepted value whatever the board; `None` for the
    /// chips thrown, which are limited by the number of cells.
    pub fn fixed_max(self) -> Option<usize> {
        match self {
            Rule::Width | Rule::Height => Some(MAX_SIDE),
            Rule::Colors => Some(board::MAX_COLORS.into()),
            Rule::Line => Some(MAX_LINE),
            Rule::Next | Rule::First => None,
        }
    }

    /// What the rule is, as messages name it: `board width`.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Width => "board width",
            Rule::Height => "board height",
            Rule::Colors => "number of colours",
            Rule::Line => "shortest line",
            Rule::Next => "chips per computer turn",
            Rule::First => "chips in the opening throw",
        }
    }
}

/// A rule outside its accepted range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleError {
    /// The rule.
    pub rule: Rule,
    /// The value that was given.
    pub value: usize,
    /// The smallest accepted value.
    pub min: usize,
    /// The largest accepted value.
    pub max: usize,
}

impl RuleError {
    /// What the rule accepts, without the value: for example `the board
    /// width must be from 1 to 1000`. Lets a caller name the value's source
    /// its own way (a flag, a config file key).
    pub fn requirement(&self) -> String {
        let cells = if self.rule.fixed_max().is_none() {
            " (the number of cells)"
        } else {
            ""
        };
        format!(
            "the {} must be from {} to {}{cells}",
            self.rule.name(),
            self.min,
            self.max
        )
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, not {}", self.requirement(), self.value)
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
    /// A chip of a colour the rules do not have (0, or more than
    /// [`Rules::colors`]), given to [`Game::put`].
    NoSuchColor,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveError::GameOver => "game over",
            MoveError::OffBoard => "off the board",
            MoveError::NoChip => "no chip there",
            MoveError::Occupied => "target occupied",
            MoveError::NoPath => "no path",
            MoveError::NoSuchColor => "no such colour",
        })
    }
}

impl std::error::Error for MoveError {}

/// Why an undo was refused: no move has been made since the opening (or
/// since the board was last set up with [`Game::put`] or [`Game::clear`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NothingToUndo;

impl fmt::Display for NothingToUndo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("nothing to undo")
    }
}

impl std::error::Error for NothingToUndo {}

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

/// How many throws in a row onto an empty board may be cleared away at
/// once before the game ends because the player can never move.
pub const MAX_THROWS_ONTO_EMPTY: usize = 1000;

/// How many chips such throws may place in all before the game ends, so
/// that on a big board the end comes within seconds.
pub const MAX_CHIPS_ONTO_EMPTY: usize = 1_000_000;

/// The points of the removals among `events` without the streak bonus, as
/// players that compare with scores kept without one count them.
pub fn points_without_bonus(events: &[Event], line: usize) -> u64 {
    events
        .iter()
        .map(|e| match e {
            Event::Removed { chips, .. } => crate::board::points(chips.len(), line, 0),
            _ => 0,
        })
        .sum()
}

/// Whether the computer, after `throws` throws in a row onto an empty board
/// that were all cleared at once, gives up: the player can never move.
pub fn endless_throws(throws: usize, next: usize) -> bool {
    throws == MAX_THROWS_ONTO_EMPTY || throws * next >= MAX_CHIPS_ONTO_EMPTY
}

/// What the events of a computer's throw say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Report {
    /// The chips thrown and removed, for a front end that shows them.
    Chips,
    /// Only what happened (a throw, lines removed and their points): the
    /// headless mode shows no opening, and a million chips' list is
    /// 50 MB.
    OutcomeOnly,
}

/// A game in progress. Two games are equal when everything about them is,
/// the generator's position and the moves that can be taken back included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    rules: Rules,
    board: Board,
    score: u64,
    streak: u32,
    over: bool,
    rng: ChaCha8Rng,
    preview: Preview,
    /// The computer's next throw, decided in advance when a preview is on
    /// (`None` without a preview, and once the game is over). Shared with
    /// the undo records of the moves made while it stands rather than
    /// copied into each, since a throw may be of many chips.
    plan: Option<Arc<[Planned]>>,
    /// One record per move that can still be taken back, oldest first.
    history: Vec<Record>,
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
        Game::with_preview(rules, Preview::Off, seed)
    }

    /// [`Game::new`] with a next-chip preview. The opening throw is not
    /// previewed; every throw after it is decided at the end of the turn
    /// before (see [`Game::planned`]). With [`Preview::Off`] this is
    /// exactly [`Game::new`].
    ///
    /// # Panics
    /// When the rules are invalid; check them with [`Rules::validate`].
    pub fn with_preview(rules: Rules, preview: Preview, seed: u64) -> (Game, Vec<Event>) {
        Game::open(rules, preview, seed, Report::Chips)
    }

    /// [`Game::with_preview`] for a caller that does not show the opening
    /// (the headless mode): the opening's events are not built, which for
    /// an opening of a million chips saves about 50 MB.
    ///
    /// # Panics
    /// When the rules are invalid; check them with [`Rules::validate`].
    pub fn new_unseen(rules: Rules, preview: Preview, seed: u64) -> Game {
        Game::open(rules, preview, seed, Report::OutcomeOnly).0
    }

    /// Starts a game; `report` says whether the opening's events list its
    /// chips.
    fn open(rules: Rules, preview: Preview, seed: u64, report: Report) -> (Game, Vec<Event>) {
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
            preview,
            plan: None,
            history: Vec::new(),
        };
        let mut events = Vec::new();
        game.computer_turn(rules.first, &mut events, report);
        game.begin_player_turn(&mut events, report);
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

    /// How much of the next throw the player is shown.
    pub fn preview(&self) -> Preview {
        self.preview
    }

    /// The computer's next throw as decided so far: one entry per chip,
    /// with its cell under [`Preview::Cells`]. Empty without a preview and
    /// once the game is over.
    pub fn planned(&self) -> &[Planned] {
        self.plan.as_deref().unwrap_or_default()
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
        let mut record = Record::before(
            self.score,
            self.streak,
            self.over,
            self.rng.get_word_pos(),
            self.plan.clone(),
        );
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
            self.computer_turn(self.rules.next, &mut events, Report::Chips);
        } else {
            self.board.remove(&chips);
            self.score = self.score.saturating_add(points);
            self.streak += 1;
            events.push(Event::Removed {
                chips,
                points,
                by: Actor::Player,
            });
        }
        self.begin_player_turn(&mut events, Report::Chips);
        record.changed(&self.board, &events);
        self.history.push(record);
        Ok(Turn {
            events,
            removed,
            points,
        })
    }

    /// Takes back the last move and everything that followed it (its
    /// removals, the computer's throw, the end of the game): the board,
    /// score, streak, planned throw and random generator are as they were
    /// before it, so the same move brings the same throw again. Moves can
    /// be taken back one after another up to the opening.
    pub fn undo(&mut self) -> Result<(), NothingToUndo> {
        let record = self.history.pop().ok_or(NothingToUndo)?;
        record.restore_cells(&mut self.board);
        self.score = record.score;
        self.streak = record.streak;
        self.over = record.over;
        self.rng.set_word_pos(record.word_pos);
        self.plan = record.plan;
        Ok(())
    }

    /// How many moves [`Game::undo`] can take back.
    pub fn undoable(&self) -> usize {
        self.history.len()
    }

    /// Everything needed to go on with this game later (see
    /// [`Game::from_state`]), but the moves that could be taken back.
    pub fn state(&self) -> GameState {
        GameState {
            rules: self.rules,
            preview: self.preview,
            cells: self.board.cells().to_vec(),
            score: self.score,
            streak: self.streak,
            over: self.over,
            key: self.rng.get_seed(),
            word_pos: self.rng.get_word_pos(),
            plan: self.plan.as_deref().map(<[Planned]>::to_vec),
        }
    }

    /// The game `state` describes, which then plays on exactly as the game
    /// it was taken from would have; no move can be taken back before it.
    /// A state that no game can be in is refused, saying what is wrong.
    pub fn from_state(state: GameState) -> Result<Game, String> {
        let rules = state.rules;
        rules.validate().map_err(|e| e.to_string())?;
        if state.cells.len() != rules.cells() {
            return Err(format!(
                "{} cells, where a {}x{} board has {}",
                state.cells.len(),
                rules.width,
                rules.height,
                rules.cells()
            ));
        }
        if let Some(&bad) = state.cells.iter().find(|&&c| c > rules.colors) {
            return Err(format!(
                "colour {bad}, where the colours are 1 to {} (0 for an empty cell)",
                rules.colors
            ));
        }
        // Every cell empty, or none: the turn cannot begin (the computer
        // throws on an empty board, and a full one ends the game).
        let chips = state.cells.iter().filter(|&&c| c > 0).count();
        if !state.over && (chips == 0 || chips == state.cells.len()) {
            return Err(format!("{chips} chips on the board: no move to make"));
        }
        let least = least_score(state.streak, rules.line);
        if least > u128::from(state.score) {
            return Err(format!(
                "a streak of {} scoring moves with a score of {}, where such a streak \
                 scores at least {least}",
                state.streak, state.score
            ));
        }
        if state.word_pos >= WORD_POSITIONS {
            return Err(format!(
                "generator position {}, where the positions are 0 to {}",
                state.word_pos,
                WORD_POSITIONS - 1
            ));
        }
        let mut board = Board::new(rules.width, rules.height);
        for (i, &color) in state.cells.iter().enumerate() {
            board.set(board.pos(i), (color > 0).then_some(color));
        }
        check_no_line(&board, rules.line)?;
        if state.over && state.plan.is_some() {
            return Err(
                "a planned throw in a game that is over, where a game plans none once it ends"
                    .into(),
            );
        }
        if let Some(plan) = &state.plan {
            check_plan(plan, &board, &rules, state.preview)?;
        } else if state.preview != Preview::Off && !state.over {
            return Err("a preview game with no planned throw".into());
        }
        let mut rng = ChaCha8Rng::from_seed(state.key);
        rng.set_word_pos(state.word_pos);
        Ok(Game {
            rules,
            board,
            score: state.score,
            streak: state.streak,
            over: state.over,
            rng,
            preview: state.preview,
            plan: state.plan.map(Arc::from),
            history: Vec::new(),
        })
    }

    /// Puts a chip of `color` at `pos` (or empties it), removing nothing.
    /// For setting up positions in tests and the headless mode: play goes
    /// on from the board it leaves, even in a game that was over. The moves
    /// before it can no longer be taken back. A planned cell that now holds
    /// a chip is handled as one the player moved onto.
    pub fn put(&mut self, pos: Pos, color: Option<Color>) -> Result<(), MoveError> {
        if !self.board.contains(pos) {
            return Err(MoveError::OffBoard);
        }
        if color.is_some_and(|c| c == 0 || c > self.rules.colors) {
            return Err(MoveError::NoSuchColor);
        }
        self.board.set(pos, color);
        self.set_up();
        Ok(())
    }

    /// Empties the board, keeping the score. Like [`Game::put`], it sets up
    /// a position to play on, so a game that was over goes on, and the moves
    /// before it can no longer be taken back.
    pub fn clear(&mut self) {
        self.board.clear();
        self.set_up();
    }

    /// After the board was set up by hand: the moves before cannot be taken
    /// back, and a game that was over goes on, with its next throw planned
    /// again when there is a preview.
    fn set_up(&mut self) {
        self.history.clear();
        if self.over {
            self.over = false;
            self.plan_next();
        }
    }

    /// The computer throws `count` chips, or ends the game when there is no
    /// room for them; lines the throw forms are removed with no streak
    /// bonus, and a full board ends the game.
    ///
    /// With a preview the throw is the planned one (the opening has none),
    /// and once it has landed the next one is planned. `report` says
    /// whether the events list the chips thrown and removed.
    fn computer_turn(&mut self, count: usize, events: &mut Vec<Event>, report: Report) {
        let thrown = match self.plan.take() {
            Some(plan) => preview::throw(&mut self.board, &mut self.rng, &plan).map(|chips| {
                let board = &self.board;
                chips
                    .iter()
                    .map(|chip| board.index(chip.pos) as u32)
                    .collect()
            }),
            None => self
                .board
                .throw_cells(&mut self.rng, count, self.rules.colors),
        };
        let Some(thrown) = thrown else {
            self.end(events);
            return;
        };
        let chips = |board: &Board, cells: &[u32]| match report {
            Report::Chips => board.chips_at(cells),
            Report::OutcomeOnly => Vec::new(),
        };
        events.push(Event::Thrown(chips(&self.board, &thrown)));
        let removed = self.board.lines_through_cells(&thrown, self.rules.line);
        drop(thrown);
        if !removed.is_empty() {
            let points = board::points(removed.len(), self.rules.line, 0);
            let chips = chips(&self.board, &removed);
            self.board.remove_cells(&removed);
            self.score = self.score.saturating_add(points);
            events.push(Event::Removed {
                chips,
                points,
                by: Actor::Computer,
            });
        }
        if self.board.is_full() {
            self.end(events);
        } else {
            self.plan_next();
        }
    }

    /// With a preview, decides the next throw on the board as it is.
    fn plan_next(&mut self) {
        if self.preview != Preview::Off {
            let plan = preview::plan(
                &self.board,
                self.preview,
                &mut self.rng,
                self.rules.next,
                self.rules.colors,
            );
            self.plan = Some(plan.into());
        }
    }

    /// Before handing the turn to the player: with no chip on the board
    /// there is nothing to move, so the computer throws instead (the
    /// original deadlocks here). When it throws nothing at all (`-n 0`), no
    /// chip can ever appear again and the game ends. Some settings clear
    /// every throw at once (`-w2 -t1 -c1 -i2 -n2`), so the player would
    /// never move: after [`MAX_THROWS_ONTO_EMPTY`] such throws in a row, or
    /// [`MAX_CHIPS_ONTO_EMPTY`] chips thrown by them, the game ends too.
    /// `report` says whether the events of those throws list their chips.
    fn begin_player_turn(&mut self, events: &mut Vec<Event>, report: Report) {
        let mut throws = 0;
        while !self.over && self.board.chip_count() == 0 {
            if self.rules.next == 0 || endless_throws(throws, self.rules.next) {
                self.end(events);
            } else {
                self.streak = 0;
                self.computer_turn(self.rules.next, events, report);
                throws += 1;
            }
        }
    }

    fn end(&mut self, events: &mut Vec<Event>) {
        self.over = true;
        self.plan = None;
        events.push(Event::GameOver);
    }
}

/// How many positions the generator's stream has, in words: 2⁶⁴ blocks of
/// 16. One past its end would be taken as one near its start.
const WORD_POSITIONS: u128 = 1 << 68;

/// The least score a game can have after `streak` scoring moves in a row
/// with lines of `line`: each removed `line` chips or more, and earned the
/// bonus of the moves before it.
fn least_score(streak: u32, line: usize) -> u128 {
    let s = u128::from(streak);
    let bonuses = s.saturating_sub(1) * s * (2 * s).saturating_sub(1) / 6;
    s * line as u128 + bonuses
}

/// A game's whole state, as [`Game::state`] gives it and
/// [`Game::from_state`] takes it: plain data for saving a game to go on with
/// later.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameState {
    /// The rules.
    pub rules: Rules,
    /// The preview.
    pub preview: Preview,
    /// The board, row-major: 0 for an empty cell, else the chip's colour.
    pub cells: Vec<Color>,
    /// Points earned.
    pub score: u64,
    /// Scoring moves in a row in the current player turn.
    pub streak: u32,
    /// Whether the game has ended.
    pub over: bool,
    /// The generator's ChaCha8 key.
    pub key: [u8; 32],
    /// The generator's position in its stream, in 32-bit words.
    pub word_pos: u128,
    /// The planned throw; `None` without a preview or after the end.
    pub plan: Option<Vec<Planned>>,
}

/// Checks that `board` holds no line of `line` chips or more: lines are
/// removed as they form, so no game ever holds one. The first found is
/// named by its colour and a cell of it.
fn check_no_line(board: &Board, line: usize) -> Result<(), String> {
    let chips: Vec<u32> = (0..board.len() as u32)
        .filter(|&i| board.cells()[i as usize] != 0)
        .collect();
    match board.lines_through_cells(&chips, line).first() {
        Some(&first) => {
            let pos = board.pos(first as usize);
            Err(format!(
                "a line of {line} or more chips of colour {} through cell {} {}, where \
                 the board holds only shorter ones (longer ones are removed as they form)",
                board.cells()[first as usize],
                pos.x,
                pos.y
            ))
        }
        None => Ok(()),
    }
}

/// Checks that `plan` is one a game under `rules` and `preview` can have:
/// one chip per `next`, colours in range, cells (with [`Preview::Cells`]
/// only) on the board and distinct.
fn check_plan(
    plan: &[Planned],
    board: &Board,
    rules: &Rules,
    preview: Preview,
) -> Result<(), String> {
    if preview == Preview::Off {
        return Err("a planned throw without a preview".into());
    }
    if plan.len() != rules.next {
        return Err(format!(
            "{} planned chips, where the rules throw {}",
            plan.len(),
            rules.next
        ));
    }
    // One flag a cell, as the board has: a search of the cells planned so
    // far would make a plan of a million chips take hours to check.
    let mut planned_cells = vec![false; board.len()];
    for planned in plan {
        if !(1..=rules.colors).contains(&planned.color) {
            return Err(format!(
                "planned colour {}, where the colours are 1 to {}",
                planned.color, rules.colors
            ));
        }
        if let Some(pos) = planned.pos {
            let wrong = if preview != Preview::Cells {
                Some("with a preview of colours only")
            } else if !board.contains(pos) {
                Some("off the board")
            } else if std::mem::replace(&mut planned_cells[board.index(pos)], true) {
                Some("planned twice")
            } else {
                None
            };
            if let Some(why) = wrong {
                return Err(format!("planned cell {} {}, {why}", pos.x, pos.y));
            }
        }
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: usize, y: usize) -> Pos {
        Pos::new(x, y)
    }

    fn chip(x: usize, y: usize, color: Color) -> Chip {
        Chip {
            pos: at(x, y),
            color,
        }
    }

    /// A game on `rules` (seeded with `seed`) whose board holds exactly
    /// `chips`, as `(x, y, colour)`.
    fn game_with(rules: Rules, seed: u64, chips: &[(usize, usize, Color)]) -> Game {
        let (mut game, _) = Game::new(rules, seed);
        game.clear();
        for &(x, y, color) in chips {
            game.put(at(x, y), Some(color)).unwrap();
        }
        game
    }

    /// The chips of every cell in `cells`, in row-major order, as
    /// [`Board::lines_through`] reports them.
    fn chips_at(cells: &[(usize, usize)], color: Color) -> Vec<Chip> {
        let mut chips: Vec<Chip> = cells.iter().map(|&(x, y)| chip(x, y, color)).collect();
        chips.sort_by_key(|c| (c.pos.y, c.pos.x));
        chips
    }

    fn throws(events: &[Event]) -> usize {
        events
            .iter()
            .filter(|e| matches!(e, Event::Thrown(_)))
            .count()
    }

    /// `0..4` on row `y` in `color`, a line of 5 once `(4, y)` is filled.
    fn four_in_row(y: usize, color: Color) -> [(usize, usize, Color); 4] {
        [0, 1, 2, 3].map(|x| (x, y, color))
    }

    #[test]
    fn five_in_a_line_on_the_first_scoring_move_scores_5() {
        let mut setup = four_in_row(0, 1).to_vec();
        setup.extend([(4, 2, 1), (8, 8, 2)]);
        let mut game = game_with(Rules::default(), 1, &setup);
        let turn = game.play(at(4, 2), at(4, 0)).unwrap();
        assert_eq!(
            turn.events,
            vec![
                Event::Moved {
                    path: vec![at(4, 2), at(4, 1), at(4, 0)],
                    color: 1
                },
                Event::Removed {
                    chips: chips_at(&[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)], 1),
                    points: 5,
                    by: Actor::Player
                },
            ]
        );
        assert_eq!((turn.removed, turn.points), (5, 5));
        assert_eq!((game.score(), game.streak()), (5, 1));
        assert_eq!(game.board().chips().collect::<Vec<_>>(), [chip(8, 8, 2)]);
        assert!(!game.is_over());
    }

    /// A saved game can be edited by hand: a score near the largest stays
    /// there instead of wrapping round to 0 (or panicking).
    #[test]
    fn the_score_stops_at_the_largest_number() {
        let mut setup = four_in_row(0, 1).to_vec();
        setup.extend([(4, 2, 1), (8, 8, 2)]);
        let mut game = game_with(Rules::default(), 1, &setup);
        game.score = u64::MAX - 1;
        game.play(at(4, 2), at(4, 0)).unwrap();
        assert_eq!(game.score(), u64::MAX);
    }

    #[test]
    fn streak_bonus_counts_scoring_moves_in_a_row_and_resets() {
        let mut setup = Vec::new();
        setup.extend(four_in_row(0, 1));
        setup.extend(four_in_row(4, 2));
        setup.extend(four_in_row(8, 3));
        setup.extend([(4, 2, 1), (4, 6, 2), (8, 6, 3), (8, 0, 4)]);
        let mut game = game_with(Rules::default(), 2, &setup);

        let first = game.play(at(4, 2), at(4, 0)).unwrap();
        assert_eq!((first.removed, first.points, game.streak()), (5, 5, 1));
        let second = game.play(at(4, 6), at(4, 4)).unwrap();
        assert_eq!((second.removed, second.points, game.streak()), (5, 6, 2));
        let third = game.play(at(8, 6), at(4, 8)).unwrap();
        assert_eq!((third.removed, third.points, game.streak()), (5, 9, 3));
        assert_eq!(game.score(), 5 + 6 + 9);
        assert_eq!(throws(&first.events) + throws(&second.events), 0);
        assert_eq!(throws(&third.events), 0, "a chip is left to move");

        // A move that removes nothing hands the turn to the computer.
        let quiet = game.play(at(8, 0), at(7, 0)).unwrap();
        assert_eq!((quiet.removed, quiet.points), (0, 0));
        assert_eq!(throws(&quiet.events), 1);
        assert_eq!(game.streak(), 0);

        let score = game.score();
        game.clear();
        for (x, y, c) in four_in_row(0, 1).into_iter().chain([(4, 2, 1), (8, 8, 2)]) {
            game.put(at(x, y), Some(c)).unwrap();
        }
        let fresh = game.play(at(4, 2), at(4, 0)).unwrap();
        assert_eq!((fresh.removed, fresh.points), (5, 5));
        assert_eq!(game.score(), score + 5);
    }

    #[test]
    fn line_of_six_scores_12() {
        let setup = [
            (0, 0, 2),
            (1, 0, 2),
            (2, 0, 2),
            (4, 0, 2),
            (5, 0, 2),
            (3, 5, 2),
            (8, 8, 1),
        ];
        let mut game = game_with(Rules::default(), 3, &setup);
        let turn = game.play(at(3, 5), at(3, 0)).unwrap();
        assert_eq!((turn.removed, turn.points), (6, 12));
        assert_eq!(game.score(), 12);
        assert_eq!(game.board().chip_count(), 1);
    }

    #[test]
    fn two_lines_crossing_at_the_moved_chip_score_45() {
        let mut setup = four_in_row(4, 3).to_vec();
        setup.extend([
            (4, 0, 3),
            (4, 1, 3),
            (4, 2, 3),
            (4, 3, 3),
            (8, 8, 3),
            (0, 8, 1),
        ]);
        let mut game = game_with(Rules::default(), 4, &setup);
        let turn = game.play(at(8, 8), at(4, 4)).unwrap();
        let expected = chips_at(
            &[
                (0, 4),
                (1, 4),
                (2, 4),
                (3, 4),
                (4, 4),
                (4, 0),
                (4, 1),
                (4, 2),
                (4, 3),
            ],
            3,
        );
        assert_eq!(
            turn.events[1],
            Event::Removed {
                chips: expected,
                points: 45,
                by: Actor::Player
            }
        );
        assert_eq!((turn.removed, turn.points, game.score()), (9, 45, 45));
        assert_eq!(game.board().chips().collect::<Vec<_>>(), [chip(0, 8, 1)]);
    }

    #[test]
    fn the_computers_removals_score_with_no_streak_bonus() {
        // Row 0 is 1 1 1 1 2 and row 1 is 1 1 1 1 _. Moving the 2 down
        // leaves one empty cell, so the single thrown chip lands where the
        // 2 was and completes row 0 exactly when it comes out as colour 1.
        let rules = Rules {
            width: 5,
            height: 2,
            colors: 2,
            line: 5,
            next: 1,
            first: 1,
        };
        let mut setup = four_in_row(0, 1).to_vec();
        setup.extend(four_in_row(1, 1));
        setup.push((4, 0, 2));
        let moved = Event::Moved {
            path: vec![at(4, 0), at(4, 1)],
            color: 2,
        };
        let (mut completed, mut missed) = (0, 0);
        for seed in 0..64 {
            let mut game = game_with(rules, seed, &setup);
            let turn = game.play(at(4, 0), at(4, 1)).unwrap();
            assert_eq!((turn.removed, turn.points), (0, 0));
            assert_eq!(game.streak(), 0);
            if game.board().get(at(4, 0)).is_none() {
                completed += 1;
                assert_eq!(
                    turn.events,
                    vec![
                        moved.clone(),
                        Event::Thrown(vec![chip(4, 0, 1)]),
                        Event::Removed {
                            chips: chips_at(&[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)], 1),
                            points: 5,
                            by: Actor::Computer
                        },
                    ]
                );
                assert_eq!(game.score(), 5);
                assert!(!game.is_over());
            } else {
                missed += 1;
                assert_eq!(
                    turn.events,
                    vec![
                        moved.clone(),
                        Event::Thrown(vec![chip(4, 0, 2)]),
                        Event::GameOver
                    ]
                );
                assert_eq!(game.score(), 0);
                assert!(game.is_over());
            }
        }
        assert!(completed > 0 && missed > 0, "{completed} / {missed}");
    }

    /// Asserts that the move is refused with `error` and changes nothing,
    /// the generator included: afterwards the game plays on exactly like an
    /// untouched copy.
    fn assert_refused(game: &mut Game, from: Pos, to: Pos, error: MoveError, then: (Pos, Pos)) {
        let before = game.clone();
        assert_eq!(game.play(from, to), Err(error));
        assert_eq!(game.check_move(from, to), Err(error));
        assert_eq!(game.board(), before.board());
        assert_eq!(
            (game.score(), game.streak(), game.is_over()),
            (before.score(), before.streak(), before.is_over())
        );
        let mut untouched = before;
        assert_eq!(game.play(then.0, then.1), untouched.play(then.0, then.1));
        assert_eq!(game.board(), untouched.board());
    }

    #[test]
    fn every_illegal_move_changes_nothing() {
        // A 1 walled into the corner by 2s; a free 3 elsewhere.
        let setup = [(0, 0, 1), (1, 0, 2), (0, 1, 2), (1, 1, 2), (6, 6, 3)];
        let quiet = (at(6, 6), at(6, 7));
        let cases = [
            (at(9, 0), at(5, 5), MoveError::OffBoard),
            (at(6, 6), at(6, 9), MoveError::OffBoard),
            (at(5, 5), at(5, 6), MoveError::NoChip),
            (at(6, 6), at(1, 1), MoveError::Occupied),
            (at(6, 6), at(6, 6), MoveError::Occupied),
            (at(0, 0), at(5, 5), MoveError::NoPath),
        ];
        for (from, to, error) in cases {
            let mut game = game_with(Rules::default(), 5, &setup);
            assert_refused(&mut game, from, to, error, quiet);
        }
    }

    #[test]
    fn no_path_through_chips_and_diagonal_gaps() {
        // The 1 at (0, 0) touches the empty (1, 1) only diagonally.
        let setup = [(0, 0, 1), (1, 0, 2), (0, 1, 2), (2, 1, 2), (1, 2, 2)];
        let mut game = game_with(Rules::default(), 6, &setup);
        assert_eq!(game.check_move(at(0, 0), at(1, 1)), Err(MoveError::NoPath));
        assert_refused(
            &mut game,
            at(0, 0),
            at(1, 1),
            MoveError::NoPath,
            (at(2, 1), at(2, 2)),
        );
    }

    /// A `side` × `side` board on which no line can form, full but for the
    /// last `empty` cells in row-major order.
    fn nearly_full(side: usize, empty: usize, next: usize) -> Game {
        let rules = Rules {
            width: side,
            height: side,
            colors: 5,
            line: side + 1,
            next,
            first: 1,
        };
        let cells = side * side;
        let setup: Vec<_> = (0..cells - empty)
            .map(|i| (i % side, i / side, (i % 5) as Color + 1))
            .collect();
        game_with(rules, 7, &setup)
    }

    #[test]
    fn game_over_when_fewer_cells_are_empty_than_the_computer_throws() {
        let mut game = nearly_full(3, 2, 3);
        // (2, 1) is the last chip before the two empty cells (1, 2), (2, 2).
        let turn = game.play(at(2, 1), at(2, 2)).unwrap();
        assert_eq!(turn.events.len(), 2);
        assert_eq!(turn.events[1], Event::GameOver);
        assert_eq!(throws(&turn.events), 0, "nothing is thrown");
        assert_eq!(game.board().free(), 2);
        assert!(game.is_over());
        assert_refused(
            &mut game,
            at(0, 0),
            at(2, 1),
            MoveError::GameOver,
            (at(1, 1), at(1, 2)),
        );
    }

    #[test]
    fn setting_up_a_position_revives_a_game_that_was_over() {
        let mut game = nearly_full(3, 2, 3);
        game.play(at(2, 1), at(2, 2)).unwrap();
        assert!(game.is_over());
        game.put(at(0, 0), None).unwrap();
        assert!(!game.is_over());
        assert!(game.play(at(1, 0), at(0, 0)).is_ok());

        let mut game = nearly_full(3, 2, 3);
        game.play(at(2, 1), at(2, 2)).unwrap();
        let score = game.score();
        game.clear();
        assert!(!game.is_over());
        assert_eq!(game.score(), score);
        // A refused put changes nothing, the end of the game included.
        let mut game = nearly_full(3, 2, 3);
        game.play(at(2, 1), at(2, 2)).unwrap();
        assert_eq!(game.put(at(3, 0), None), Err(MoveError::OffBoard));
        assert!(game.is_over());
        // Nor does a colour the rules do not have: one that could not be
        // drawn, saved or resumed.
        let board = game.board().clone();
        for color in [0, game.rules().colors + 1] {
            assert_eq!(game.put(at(0, 0), Some(color)), Err(MoveError::NoSuchColor));
        }
        assert_eq!(*game.board(), board);
        assert!(game.is_over());
    }

    #[test]
    fn game_over_when_the_throw_fills_the_board() {
        let mut game = nearly_full(3, 2, 2);
        let turn = game.play(at(2, 1), at(2, 2)).unwrap();
        assert_eq!(turn.events.len(), 3);
        let Event::Thrown(chips) = &turn.events[1] else {
            panic!("expected a throw: {:?}", turn.events);
        };
        let mut cells: Vec<Pos> = chips.iter().map(|c| c.pos).collect();
        cells.sort();
        assert_eq!(cells, [at(1, 2), at(2, 1)]);
        assert_eq!(turn.events[2], Event::GameOver);
        assert!(game.board().is_full() && game.is_over());
    }

    #[test]
    fn a_throw_that_leaves_room_does_not_end_the_game() {
        let mut game = nearly_full(3, 3, 2);
        let turn = game.play(at(2, 1), at(2, 2)).unwrap();
        assert_eq!(throws(&turn.events), 1);
        assert_eq!(game.board().free(), 1);
        assert!(!game.is_over());
    }

    #[test]
    fn opening_throw_places_the_first_chips() {
        let rules = Rules {
            first: 7,
            line: 9,
            ..Rules::default()
        };
        let (game, events) = Game::new(rules, 8);
        let [Event::Thrown(chips)] = events.as_slice() else {
            panic!("expected only the opening throw: {events:?}");
        };
        assert_eq!(chips.len(), 7);
        assert_eq!(game.board().chip_count(), 7);
        for c in chips {
            assert_eq!(game.board().get(c.pos), Some(c.color));
            assert!((1..=5).contains(&c.color));
        }
        assert_eq!((game.score(), game.streak(), game.is_over()), (0, 0, false));
    }

    #[test]
    fn opening_throw_that_fills_the_board_ends_the_game() {
        let rules = Rules {
            width: 3,
            height: 3,
            line: 4,
            first: 9,
            ..Rules::default()
        };
        let (game, events) = Game::new(rules, 9);
        assert_eq!(events.len(), 2);
        assert_eq!(events[1], Event::GameOver);
        assert!(game.board().is_full() && game.is_over());
    }

    #[test]
    fn opening_lines_are_removed_and_then_the_computer_throws_again() {
        // Two chips of the only colour on a 2 × 1 board always form a line
        // of 2; removing them leaves no chip, so the computer throws again.
        let rules = Rules {
            width: 2,
            height: 1,
            colors: 1,
            line: 2,
            next: 1,
            first: 2,
        };
        let (game, events) = Game::new(rules, 10);
        assert_eq!(events.len(), 3, "{events:?}");
        assert_eq!(
            events[1],
            Event::Removed {
                chips: chips_at(&[(0, 0), (1, 0)], 1),
                points: 2,
                by: Actor::Computer
            }
        );
        let Event::Thrown(again) = &events[2] else {
            panic!("expected a second throw: {events:?}");
        };
        assert_eq!(again.len(), 1);
        assert_eq!((game.score(), game.board().chip_count()), (2, 1));
        assert!(!game.is_over());
    }

    #[test]
    fn the_computer_throws_when_the_player_has_no_chip_to_move() {
        let rules = Rules {
            line: 2,
            ..Rules::default()
        };
        let mut game = game_with(rules, 11, &[(0, 0, 1), (4, 4, 1)]);
        let turn = game.play(at(4, 4), at(1, 0)).unwrap();
        assert_eq!((turn.removed, turn.points), (2, 2));
        assert!(matches!(
            turn.events[1],
            Event::Removed {
                by: Actor::Player,
                ..
            }
        ));
        let Event::Thrown(chips) = &turn.events[2] else {
            panic!("expected a throw: {:?}", turn.events);
        };
        assert_eq!(chips.len(), 3);
        assert_eq!(game.streak(), 0, "a new player turn begins");
        assert!(game.board().chip_count() > 0 && !game.is_over());
    }

    #[test]
    fn with_no_throws_an_empty_board_ends_the_game() {
        let rules = Rules {
            line: 2,
            next: 0,
            ..Rules::default()
        };
        let mut game = game_with(rules, 12, &[(0, 0, 1), (2, 0, 1)]);
        let turn = game.play(at(2, 0), at(1, 0)).unwrap();
        assert_eq!(turn.events.len(), 3);
        assert_eq!(turn.events[2], Event::GameOver);
        assert!(game.is_over() && game.board().chip_count() == 0);

        let opening_clears = Rules {
            width: 2,
            height: 1,
            colors: 1,
            line: 2,
            next: 0,
            first: 2,
        };
        let (game, events) = Game::new(opening_clears, 13);
        assert_eq!(events.last(), Some(&Event::GameOver));
        assert!(game.is_over());
    }

    #[test]
    fn with_no_throws_a_quiet_move_throws_nothing_and_play_goes_on() {
        let rules = Rules {
            next: 0,
            ..Rules::default()
        };
        let mut game = game_with(rules, 14, &[(0, 0, 1)]);
        let turn = game.play(at(0, 0), at(5, 5)).unwrap();
        assert_eq!(turn.events.len(), 2);
        assert_eq!(turn.events[1], Event::Thrown(Vec::new()));
        assert!(!game.is_over());
    }

    #[test]
    fn settings_that_clear_every_throw_end_the_game_instead_of_hanging() {
        let rules = Rules {
            width: 2,
            height: 1,
            colors: 1,
            line: 2,
            next: 2,
            first: 2,
        };
        let (game, events) = Game::new(rules, 15);
        assert!(game.is_over());
        assert_eq!(events.last(), Some(&Event::GameOver));
        assert_eq!(throws(&events), 1 + MAX_THROWS_ONTO_EMPTY);
        assert_eq!(game.score(), 2 * (1 + MAX_THROWS_ONTO_EMPTY as u64));
    }

    #[test]
    fn on_big_boards_throws_that_are_always_cleared_end_sooner() {
        assert!(!endless_throws(MAX_THROWS_ONTO_EMPTY - 1, 3));
        assert!(endless_throws(MAX_THROWS_ONTO_EMPTY, 3));
        assert!(!endless_throws(99, 10_000));
        assert!(endless_throws(100, 10_000));
        assert!(endless_throws(1, MAX_CHIPS_ONTO_EMPTY));
        assert!(!endless_throws(0, MAX_CHIPS_ONTO_EMPTY));
    }

    #[test]
    fn an_unseen_opening_is_the_same_game() {
        let cases = [
            Rules::default(),
            Rules {
                width: 30,
                height: 20,
                colors: 1,
                first: 600,
                ..Rules::default()
            },
            Rules {
                width: 12,
                height: 12,
                colors: 2,
                line: 3,
                first: 100,
                ..Rules::default()
            },
        ];
        for rules in cases {
            for seed in 0..5 {
                let (mut seen, _) = Game::new(rules, seed);
                let mut unseen = Game::new_unseen(rules, Preview::Off, seed);
                assert_eq!(unseen.board(), seen.board(), "{rules:?} {seed}");
                assert_eq!(
                    (unseen.score(), unseen.is_over()),
                    (seen.score(), seen.is_over())
                );
                let first = seen.board().chips().next();
                if let Some(chip) = first {
                    let to = seen
                        .board()
                        .empty_cells()
                        .find(|&to| seen.board().reachable(chip.pos, to));
                    if let Some(to) = to {
                        assert_eq!(unseen.play(chip.pos, to), seen.play(chip.pos, to));
                    }
                }
            }
        }
    }

    #[test]
    fn the_same_seed_plays_the_same_game() {
        let rules = Rules::default();
        let (a, opening_a) = Game::new(rules, 42);
        let (b, opening_b) = Game::new(rules, 42);
        let (c, _) = Game::new(rules, 43);
        assert_eq!(opening_a, opening_b);
        assert_eq!(a.board(), b.board());
        assert_ne!(a.board(), c.board(), "different seeds, different openings");
    }

    #[test]
    fn rules_outside_their_range_name_the_rule() {
        let wide = Rules {
            width: 1001,
            ..Rules::default()
        };
        let error = wide.validate().unwrap_err();
        assert_eq!(
            (error.rule, error.min, error.max),
            (Rule::Width, 1, MAX_SIDE)
        );
        assert_eq!(
            error.to_string(),
            "the board width must be from 1 to 1000, not 1001"
        );
        let crowded = Rules {
            width: 3,
            height: 3,
            next: 10,
            ..Rules::default()
        };
        assert_eq!(crowded.validate().unwrap_err().max, 9);
        assert!(Rules::default().validate().is_ok());
    }
}
