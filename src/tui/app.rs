//! The game as the player sees it: the cursor, the selection, and the
//! animation (see `animation`) that replays the engine's events on a board
//! of its own.
//!
//! The built-in player takes part through requests: a hint or autoplay
//! leaves a [`Request`] for the event loop to hand to the player's thread,
//! and its [`Suggestion`] comes back through [`App::suggested`]. Autoplay
//! shows each chosen move as a hint does (the chip selected, the cursor on
//! the target), waits its delay, then plays it with the usual animations.
//!
//! Time is passed in, never read here, so the game's logic is testable.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::ai::Move;
use crate::board::Pos;
use crate::cli::{DEFAULT_AUTOPLAY_DELAY, Keys, NEW_GAME_KEY};
use crate::game::{Event, Game, MoveError, Planned};
use crate::records::{BoardRecords, HiLine, NoRecord};

use super::Ending;
use super::animation::{Animation, Shown};
use super::event::Suggestion;
use super::frame::Frame;
use super::help;
use super::input::{Action, Dir};
use super::layout::{self, Layout, TooSmall};
use super::live::Live;
use super::player::Request;
use super::view::{self, Scene, Style};

/// One tick of a selected chip's jump.
pub const JUMP_TICK: Duration = Duration::from_millis(200);

/// What an answer from the built-in player is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// Show the move.
    Hint,
    /// Show the move, then make it.
    Autoplay,
}

/// The built-in player's part in the game.
#[derive(Debug)]
struct Assist {
    /// Whether the game plays itself.
    autoplay: bool,
    /// How long autoplay shows a move before making it.
    delay: Duration,
    /// The id of the next request.
    next_id: u64,
    /// The request still unanswered, and what its answer is for. An answer
    /// to any other request is stale and dropped.
    waiting: Option<(u64, Purpose)>,
    /// A request made but not yet handed to the player's thread.
    outbox: Option<Request>,
    /// Autoplay's next move, shown, and when to make it: `None` while the
    /// board is hidden (the screen too small), to be shown for the whole
    /// delay again once it is back.
    planned: Option<(Move, Option<Instant>)>,
}

impl Assist {
    /// Drops every request still pending (unsent, unanswered) and the move
    /// autoplay was about to make: they were about a board that is gone, or
    /// the player changed their mind.
    fn forget_pending(&mut self) {
        self.waiting = None;
        self.outbox = None;
        self.planned = None;
    }
}

/// Where the player points and what they have asked for.
#[derive(Debug)]
struct Input {
    cursor: Pos,
    /// The cursor glyph is hidden after a mouse action until a key press.
    cursor_hidden: bool,
    /// The selected chip and when it was selected (its jump's tick 0).
    selected: Option<(Pos, Instant)>,
    /// Actions that came during an animation, handled after it.
    queued: VecDeque<Action>,
}

/// What asked the game to stop until continued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The player, with Ctrl-Z.
    Key,
    /// Another program, with SIGTSTP.
    Signal,
}

/// What the game asks of the event loop, each taken (and so reset) by the
/// loop once it has acted on it.
#[derive(Debug, Default)]
struct LoopRequests {
    bell: bool,
    repaint: bool,
    suspend: Option<Stop>,
    /// Take the terminal again: the process was continued (SIGCONT).
    continued: bool,
    /// How the game ended, once it has; never taken, the loop stops on it.
    ending: Option<Ending>,
    /// An ending that came while the save key's game was being saved (a
    /// signal in the same burst): it ends the game if the save fails.
    after_save: Option<Ending>,
    /// The player asked for a new game, the record of this one to be
    /// saved first.
    new_game: bool,
}

/// A box over the board that takes the next key.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Overlay {
    /// Nothing over the board.
    None,
    /// The keys and the scoring rule (F1); any key closes it.
    Help,
    /// The new-game key again starts a new game; any other key goes back.
    ConfirmNewGame,
    /// Paragraphs, each broken into lines as drawn: the save key failed,
    /// no new game started or the last game's record was lost (a record
    /// that could not be saved), or, before play, the saved game could not
    /// be resumed or the options drew warnings, and why; any key closes it
    /// once the board is on screen.
    Notice(Vec<String>),
}

/// The game on screen.
#[derive(Debug)]
pub struct App {
    game: Game,
    style: Style,
    keys: Keys,
    /// The records read when the game began; `None` when records are off.
    records: Option<BoardRecords>,
    /// Terminal size: columns, rows.
    size: (usize, usize),
    layout: Result<Layout, TooSmall>,
    animation: Animation,
    input: Input,
    requests: LoopRequests,
    assist: Assist,
    overlay: Overlay,
    /// The next throw as shown: the engine's plan, except while a turn is
    /// replayed, when it stays the plan that turn's throw came from.
    planned: Vec<Planned>,
    /// What the exit paths need, readable from the panic hook.
    live: Arc<Live>,
}

impl App {
    /// A new game on a `cols` × `rows` terminal at time `now`; the opening
    /// throw is replayed like any other turn.
    pub fn new(
        game: Game,
        opening: Vec<Event>,
        style: Style,
        keys: Keys,
        records: Option<BoardRecords>,
        (cols, rows): (usize, usize),
        now: Instant,
    ) -> App {
        let rules = *game.rules();
        let mut app = App {
            animation: Animation::new(rules.width, rules.height, now),
            layout: Layout::fit(style.cells, cols, rows, rules.width, rules.height),
            game,
            style,
            keys,
            records,
            size: (cols, rows),
            input: Input {
                cursor: Pos::new(0, 0),
                cursor_hidden: false,
                selected: None,
                queued: VecDeque::new(),
            },
            requests: LoopRequests::default(),
            assist: Assist {
                autoplay: false,
                delay: DEFAULT_AUTOPLAY_DELAY,
                next_id: 0,
                waiting: None,
                outbox: None,
                planned: None,
            },
            overlay: Overlay::None,
            planned: Vec::new(),
            live: Arc::new(Live::default()),
        };
        app.replay(opening, now);
        app
    }

    /// Sets how long autoplay shows each move before making it, and whether
    /// the game starts playing itself (which marks it assisted).
    pub fn with_autoplay(mut self, autoplay: bool, delay: Duration) -> App {
        self.assist.delay = delay;
        if autoplay {
            self.toggle_autoplay();
        }
        self
    }

    /// The `-C` keys: left, down, up, right, action.
    pub fn keys(&self) -> &Keys {
        &self.keys
    }

    /// The state the exit paths need, shared so that the panic hook can
    /// read it.
    pub fn live(&self) -> Arc<Live> {
        Arc::clone(&self.live)
    }

    /// How the game ended, once it has.
    pub fn ending(&self) -> Option<Ending> {
        self.requests.ending
    }

    /// Ends the game (quit key, signal). The first ending stands, but one
    /// that comes while the save key's game is being saved is kept, to end
    /// the game should the save fail.
    pub fn end(&mut self, ending: Ending) {
        match self.requests.ending {
            Some(Ending::Saved) if ending != Ending::Saved => {
                self.requests.after_save.get_or_insert(ending);
            }
            Some(_) => {}
            None => self.requests.ending = Some(ending),
        }
    }

    /// The game could not be saved, for `reason`: it goes on rather than
    /// end, and a box says why; any key closes it.
    pub fn save_failed(&mut self, reason: &str) {
        if self.requests.ending == Some(Ending::Saved) {
            self.requests.ending = self.requests.after_save.take();
        }
        self.notice(
            "The game could not be saved:",
            reason,
            "Any key goes back to it.",
        );
    }

    /// No new game: the record of the one on screen, which stays, could not
    /// be saved, for `reason`; a box says why, and any key closes it.
    pub fn new_game_refused(&mut self, reason: &str) {
        self.notice(
            "No new game, so that this game's score is not lost:",
            reason,
            "Any key goes back to it.",
        );
    }

    /// The new game on screen follows one that was over, whose record
    /// could not be saved, for `reason`: a box says so, and any key closes
    /// it.
    pub fn record_lost_at_game_over(&mut self, reason: &str) {
        self.notice(
            "The last game's record could not be saved:",
            reason,
            "Any key goes on to the new game.",
        );
    }

    /// What the player must know before play, printed on standard error
    /// before the screen changed and out of sight since (or, for a saved
    /// game that goes on under `--seed`, on standard output at the end):
    /// the saved game of these rules could not be resumed (`not_resumed`
    /// says why and where it was set aside; this game is a new one), and
    /// the options drew `warnings` (where the original paused on its
    /// warning). A box says them, each
    /// warning a paragraph of its own; any key closes it. With nothing to
    /// say, no box.
    pub fn before_play(&mut self, not_resumed: Option<&str>, warnings: &[&str]) {
        let mut paragraphs = Vec::new();
        if let Some(reason) = not_resumed {
            // No full stop: it may end with a path, which one would seem part of.
            paragraphs.push(sentence(reason));
        }
        if !warnings.is_empty() {
            let heading = if warnings.len() == 1 {
                "Warning:"
            } else {
                "Warnings:"
            };
            paragraphs.push(heading.to_string());
            paragraphs.extend(warnings.iter().map(|w| sentence(w)));
        }
        let footer = match (not_resumed, paragraphs.is_empty()) {
            (_, true) => return,
            (Some(_), false) => "Any key goes on to a new game.",
            (None, false) => "Any key goes on to the game.",
        };
        paragraphs.push(footer.to_string());
        self.overlay = Overlay::Notice(paragraphs);
    }

    /// A box of `heading`, `reason` and `footer`, broken into lines when
    /// drawn ([`view::draw_text_box`]); any key closes it.
    fn notice(&mut self, heading: &str, reason: &str, footer: &str) {
        self.overlay = Overlay::Notice(vec![heading.into(), sentence(reason), footer.into()]);
    }

    /// The terminal changed size: lay the board out again and repaint.
    pub fn resize(&mut self, cols: usize, rows: usize) {
        self.size = (cols, rows);
        let rules = self.game.rules();
        let layout = Layout::fit(self.style.cells, cols, rows, rules.width, rules.height);
        if layout != self.layout {
            // A click held back during a move was aimed at the screen it
            // was made on: on the new one its place may be another cell.
            self.input
                .queued
                .retain(|action| !matches!(action, Action::Click { .. }));
        }
        self.layout = layout;
        if self.layout.is_err() {
            // The too-small screen cannot show the new-game question or the
            // help without covering its own message, and a key must not
            // answer or close them unseen. A notice stays, hidden and deaf
            // to keys until the board is back: it says what the player
            // would not learn again.
            if !matches!(self.overlay, Overlay::Notice(_)) {
                self.overlay = Overlay::None;
            }
            // Nor is autoplay's move made unseen: once the board is back,
            // it is shown for the whole delay again.
            if let Some((chosen, _)) = self.assist.planned {
                self.assist.planned = Some((chosen, None));
            }
        }
        self.requests.repaint = true;
    }

    /// Takes the request for a full repaint (Ctrl-L, resize).
    pub fn take_repaint(&mut self) -> bool {
        std::mem::take(&mut self.requests.repaint)
    }

    /// Takes the request to stop until continued, and what made it.
    pub fn take_suspend(&mut self) -> Option<Stop> {
        self.requests.suspend.take()
    }

    /// SIGTSTP came: stop until continued, as Ctrl-Z does.
    pub fn stop_signalled(&mut self) {
        self.requests.suspend = Some(Stop::Signal);
    }

    /// Ctrl-Z cannot stop the game, as nothing could continue it: a beep.
    pub fn cannot_stop(&mut self) {
        self.requests.bell = true;
    }

    /// The process was continued (SIGCONT) after a stop, however it came:
    /// the terminal must be taken again and the screen repainted.
    pub fn continued(&mut self) {
        self.requests.continued = true;
        // Autoplay's move was not seen while the game was stopped: once the
        // board is back, it is shown for the whole delay again.
        if let Some((chosen, _)) = self.assist.planned {
            self.assist.planned = Some((chosen, None));
        }
    }

    /// Takes the request to take the terminal again after a stop.
    pub fn take_continued(&mut self) -> bool {
        std::mem::take(&mut self.requests.continued)
    }

    /// Takes the request for a beep.
    pub fn take_bell(&mut self) -> bool {
        std::mem::take(&mut self.requests.bell)
    }

    /// Takes the request for a new game (the record of this one to be
    /// saved first, then [`App::restart`]).
    pub fn take_new_game(&mut self) -> bool {
        std::mem::take(&mut self.requests.new_game)
    }

    /// Replaces the game with a new one at time `now`, with `records` read
    /// afresh; the cursor goes home, autoplay keeps running if it was.
    pub fn restart(
        &mut self,
        game: Game,
        opening: Vec<Event>,
        records: Option<BoardRecords>,
        now: Instant,
    ) {
        let rules = *game.rules();
        self.game = game;
        self.records = records;
        self.animation = Animation::new(rules.width, rules.height, now);
        self.input = Input {
            cursor: Pos::new(0, 0),
            cursor_hidden: false,
            selected: None,
            queued: VecDeque::new(),
        };
        self.overlay = Overlay::None;
        self.assist.forget_pending();
        self.live.reset();
        if self.assist.autoplay {
            self.live.mark_assisted();
        }
        self.replay(opening, now);
    }

    /// Takes the question for the built-in player, if one was asked since.
    pub fn take_request(&mut self) -> Option<Request> {
        self.assist.outbox.take()
    }

    fn animating(&self) -> bool {
        self.animation.is_running()
    }

    /// Handles one action at time `now`. Quitting, saving, repainting,
    /// suspending, the help, the autoplay key and any key on a box happen
    /// at once; anything else waits while an animation runs. Once the game
    /// has ended (quit, saved), keys typed after in the same burst do
    /// nothing: a hint or an undo there would take the record away.
    pub fn act(&mut self, action: Action, now: Instant) {
        if self.requests.ending.is_some() {
            return;
        }
        // The cursor hidden by a click shows again at any key, also one
        // that never reaches the board (F1, Ctrl-L, a key closing a box).
        if !matches!(action, Action::Click { .. }) {
            self.input.cursor_hidden = false;
        }
        match action {
            Action::Interrupt => self.end(Ending::Quit),
            Action::Quit if self.overlay == Overlay::None => self.end(Ending::Quit),
            // Saving takes the game as the engine has it, animation or not.
            Action::SaveQuit if self.overlay == Overlay::None && !self.animation.over() => {
                self.end(Ending::Saved);
            }
            Action::Repaint => self.requests.repaint = true,
            Action::Suspend => self.requests.suspend = Some(Stop::Key),
            // An overlay takes the next key at once, animation or not.
            _ if self.overlay != Overlay::None => self.close_overlay(action, now),
            // Over the too-small screen the help would hide the size it
            // asks for: F1 waits for a board.
            Action::Help if self.layout.is_err() => {}
            Action::Help => self.overlay = Overlay::Help,
            // Starting or stopping autoplay does not wait for the move on
            // screen, but on the game-over box it is any key.
            Action::Autoplay if !self.animation.over() => self.toggle_autoplay(),
            _ if self.animating() => self.input.queued.push_back(action),
            _ => self.perform(action, now),
        }
    }

    fn perform(&mut self, action: Action, now: Instant) {
        let Ok(layout) = &self.layout else {
            return;
        };
        if self.animation.over() {
            match action {
                Action::Click { .. } => {}
                Action::NewGame => self.requests.new_game = true,
                _ => self.end(Ending::GameOver),
            }
            return;
        }
        let input = &mut self.input;
        match action {
            Action::Cursor(dir) => {
                input.cursor_hidden = false;
                let Pos { x, y } = input.cursor;
                let rules = self.game.rules();
                input.cursor = match dir {
                    Dir::Left => Pos::new(x.saturating_sub(1), y),
                    Dir::Right => Pos::new((x + 1).min(rules.width - 1), y),
                    Dir::Up => Pos::new(x, y.saturating_sub(1)),
                    Dir::Down => Pos::new(x, (y + 1).min(rules.height - 1)),
                };
            }
            Action::Act => {
                input.cursor_hidden = false;
                self.act_at(self.input.cursor, now);
            }
            Action::Click { row, col } => {
                if let Some(pos) = layout.cell_at(row, col) {
                    input.cursor = pos;
                    input.cursor_hidden = true;
                    self.act_at(pos, now);
                }
            }
            Action::Hint => {
                input.cursor_hidden = false;
                // Autoplay is already showing the moves it makes.
                if !self.assist.autoplay && !self.game.is_over() {
                    self.live.mark_assisted();
                    self.ask(Purpose::Hint);
                }
            }
            Action::Other => input.cursor_hidden = false,
            Action::Undo => {
                input.cursor_hidden = false;
                self.undo();
            }
            Action::NewGame if self.game.score() > 0 => self.overlay = Overlay::ConfirmNewGame,
            Action::NewGame => self.requests.new_game = true,
            Action::Quit
            | Action::Interrupt
            | Action::Repaint
            | Action::Suspend
            | Action::Autoplay
            | Action::Help
            | Action::SaveQuit => {}
        }
    }

    /// The key that closes the overlay at time `now`: the new-game key
    /// confirms a new game; every other key only closes it. Autoplay, which
    /// waited under the overlay, shows its move for the whole delay again,
    /// so that the player sees it before it is made.
    fn close_overlay(&mut self, action: Action, now: Instant) {
        // A notice is not drawn over the too-small screen: no key closes it
        // unread.
        if matches!(self.overlay, Overlay::Notice(_)) && self.layout.is_err() {
            return;
        }
        if self.overlay == Overlay::ConfirmNewGame && action == Action::NewGame {
            self.requests.new_game = true;
        }
        self.overlay = Overlay::None;
        if let Some((chosen, _)) = self.assist.planned {
            self.plan(chosen, now);
        }
    }

    /// Takes back the last move (or beeps when there is none): the board,
    /// score and plan are shown as the engine now has them, at once. The
    /// game keeps no record after that. Autoplay stops, as the player has
    /// taken over.
    fn undo(&mut self) {
        // The player takes over, whether or not there is a move to take
        // back: autoplay stops, dropping the move it was about to make.
        if self.assist.autoplay {
            self.toggle_autoplay();
        }
        if self.game.undo().is_err() {
            self.requests.bell = true;
            return;
        }
        self.live.mark_undone();
        self.assist.forget_pending();
        self.input.selected = None;
        self.show_engine();
    }

    /// Shows the board, score and plan as the engine has them, at once.
    fn show_engine(&mut self) {
        self.live.set_score(self.game.score());
        self.animation.show(self.game.board(), self.game.score());
        self.planned = self.game.planned().to_vec();
    }

    /// A game resumed from a save: shown as it stands, no opening replayed;
    /// `no_record` says why it kept no record before it was saved.
    pub fn resumed(mut self, no_record: NoRecord) -> App {
        self.show_engine();
        if no_record.helped {
            self.live.mark_assisted();
        }
        if no_record.undone {
            self.live.mark_undone();
        }
        if no_record.seeded {
            self.live.mark_seeded();
        }
        self
    }

    /// The game as the engine has it.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Starts or stops autoplay. Stopping drops its unanswered request and
    /// the move it was about to make; the chip stays selected.
    fn toggle_autoplay(&mut self) {
        // A game over, its last move still drawn, has nothing left to play:
        // started, autoplay would only cost the game its record.
        if !self.assist.autoplay && self.game.is_over() {
            return;
        }
        self.assist.autoplay = !self.assist.autoplay;
        // Whatever was asked before is superseded either way.
        self.assist.forget_pending();
        if self.assist.autoplay {
            self.live.mark_assisted();
        }
    }

    /// Asks the built-in player about the engine's board.
    fn ask(&mut self, purpose: Purpose) {
        let assist = &mut self.assist;
        let id = assist.next_id;
        assist.next_id += 1;
        assist.waiting = Some((id, purpose));
        assist.outbox = Some(Request {
            id,
            board: self.game.board().clone(),
            planned: self.game.planned().to_vec(),
        });
    }

    /// The built-in player answered: show its move (the chip selected, the
    /// cursor on the target), and for autoplay plan to make it after the
    /// delay. Answers to requests that no longer matter are dropped.
    pub fn suggested(&mut self, suggestion: Suggestion, now: Instant) {
        let Some((id, purpose)) = self.assist.waiting else {
            return;
        };
        if suggestion.id != id {
            return;
        }
        self.assist.waiting = None;
        let Some(chosen) = suggestion.chosen else {
            // No move exists (the engine never leaves the player there):
            // beep, and let autoplay stop rather than ask again and again.
            self.requests.bell = true;
            self.assist.autoplay = false;
            return;
        };
        self.input.selected = Some((chosen.from, now));
        self.input.cursor = chosen.to;
        self.input.cursor_hidden = false;
        if purpose == Purpose::Autoplay {
            self.plan(chosen, now);
        }
    }

    /// Autoplay will make `chosen`, shown from `now`, once the delay is
    /// over; the delay starts only when the board is on screen.
    fn plan(&mut self, chosen: Move, now: Instant) {
        let at = self.layout.is_ok().then(|| now + self.assist.delay);
        self.assist.planned = Some((chosen, at));
    }

    /// Autoplay's part of [`App::advance`], once nothing animates: make the
    /// planned move when its time has come, or ask for the next one. It
    /// waits while the help or a question covers the board, or the screen
    /// is too small to show it.
    fn autoplay(&mut self, now: Instant) {
        let ready = self.assist.autoplay
            && self.overlay == Overlay::None
            && self.layout.is_ok()
            && !self.animation.over()
            && !self.game.is_over()
            && self.requests.ending.is_none();
        if !ready {
            return;
        }
        match self.assist.planned {
            Some((chosen, None)) => {
                self.assist.planned = Some((chosen, Some(now + self.assist.delay)));
            }
            Some((chosen, Some(at))) if at <= now => {
                self.assist.planned = None;
                if !self.play(chosen.from, chosen.to, now) {
                    // Cannot happen for the engine's own board; asking
                    // again keeps autoplay going should it ever.
                    self.ask(Purpose::Autoplay);
                }
            }
            Some(_) => {}
            None if self.assist.waiting.is_none() => self.ask(Purpose::Autoplay),
            None => {}
        }
    }

    /// Selects or deselects the chip at `pos`, or moves the selected chip
    /// there.
    fn act_at(&mut self, pos: Pos, now: Instant) {
        if self.game.board().get(pos).is_some() {
            self.input.selected = match self.input.selected {
                Some((selected, _)) if selected == pos => None,
                _ => Some((pos, now)),
            };
            return;
        }
        let Some((from, _)) = self.input.selected else {
            return;
        };
        self.play(from, pos, now);
    }

    /// Moves the chip at `from` to `to` and starts replaying the turn; a
    /// move with no free path beeps. Whether the move was made.
    fn play(&mut self, from: Pos, to: Pos, now: Instant) -> bool {
        match self.game.play(from, to) {
            Ok(turn) => {
                self.input.selected = None;
                // The board changes: what the player was asked is stale.
                self.assist.forget_pending();
                self.replay(turn.events, now);
                true
            }
            Err(MoveError::NoPath) => {
                self.requests.bell = true;
                false
            }
            Err(_) => false,
        }
    }

    /// Starts replaying `events` at `now`, after whatever still runs.
    fn replay(&mut self, events: Vec<Event>, now: Instant) {
        let shown = self.animation.replay(events, now);
        self.on_shown(shown);
        self.live.set_score(self.game.score());
        self.advance(now);
    }

    /// Reacts to what the animation has just shown.
    fn on_shown(&mut self, shown: Shown) {
        match shown {
            Shown::Progress => {}
            // Autoplay stops. Keys typed while the last chips fell must
            // not close the box before it is seen; but an undo typed then
            // takes the end back now that it has been shown, as it does
            // any move it is typed during, and the keys after it go on.
            // On the box itself the undo key is any key, as in the
            // original.
            Shown::GameOver => {
                self.assist.autoplay = false;
                let queued = &mut self.input.queued;
                match queued.iter().position(|action| *action == Action::Undo) {
                    Some(undo) => {
                        queued.drain(..=undo);
                        self.input.cursor_hidden = false;
                        self.undo();
                    }
                    None => queued.clear(),
                }
            }
        }
    }

    /// Brings the animations up to time `now`; when they are done, handles
    /// the actions that waited for them.
    pub fn advance(&mut self, now: Instant) {
        loop {
            let shown = self.animation.advance(now);
            self.on_shown(shown);
            if self.animating() || self.requests.ending.is_some() {
                return;
            }
            if self.planned != self.game.planned() {
                self.planned = self.game.planned().to_vec();
            }
            let Some(action) = self.input.queued.pop_front() else {
                self.autoplay(now);
                return;
            };
            // A key typed ahead may answer the box an earlier one opened.
            if self.overlay == Overlay::None {
                self.perform(action, now);
            } else {
                self.close_overlay(action, now);
            }
        }
    }

    /// When the screen next changes by itself: the next animation step, the
    /// selected chip's next jump, or autoplay's next move; `None` when only
    /// input (or the player's answer) can change it.
    pub fn deadline(&self, now: Instant) -> Option<Instant> {
        if let Some(at) = self.animation.deadline(now) {
            return Some(at);
        }
        let layout = self.layout.as_ref().ok()?;
        let planned = self
            .assist
            .planned
            .filter(|_| self.overlay == Overlay::None)
            // A move whose delay has yet to start (the board is back) starts
            // it at once.
            .map(|(_, at)| at.unwrap_or(now));
        let jump = self.jumping_chip().and_then(|(_, since)| {
            let tick = jump_tick(since, now);
            let next = layout::next_jump_change(layout, tick)?;
            Some(since + JUMP_TICK * next as u32)
        });
        planned.into_iter().chain(jump).min()
    }

    /// The selected chip and when it was selected, while it jumps: not
    /// under a box, where the game waits, as autoplay does, so that the
    /// chip rests there and the loop sleeps until a key.
    fn jumping_chip(&self) -> Option<(Pos, Instant)> {
        self.input
            .selected
            .filter(|_| self.overlay == Overlay::None)
    }

    /// The screen at time `now`.
    pub fn frame(&self, now: Instant) -> Frame {
        let (cols, rows) = self.size;
        let mut frame = Frame::new(cols, rows);
        match &self.layout {
            Err(too_small) => view::draw_too_small(too_small, &self.style, &mut frame),
            Ok(layout) => {
                let records = self.hi_line();
                let input = &self.input;
                let scene = Scene {
                    layout,
                    board: self.animation.board(),
                    cursor: (!input.cursor_hidden).then_some(input.cursor),
                    jumping: self
                        .jumping_chip()
                        .map(|(pos, since)| (pos, jump_tick(since, now))),
                    walker: self.animation.walker(),
                    flashing: self.animation.flashing(),
                    score: self.animation.score(),
                    records: records.as_ref(),
                    // Any box over the game-over box hides it: one
                    // smaller (on a small terminal) would leave its edges
                    // standing around.
                    game_over: self.animation.over() && self.overlay == Overlay::None,
                    planned: &self.planned,
                    new_game_key: (!self.keys.contains(NEW_GAME_KEY)).then_some(NEW_GAME_KEY),
                    confirm_new_game: self.overlay == Overlay::ConfirmNewGame,
                };
                view::draw(&scene, &self.style, &mut frame);
            }
        }
        match &self.overlay {
            Overlay::Help => {
                let lines = help::lines(&self.keys, self.game.rules().line);
                help::draw(&lines, self.style.board, self.size, &mut frame);
            }
            // Not over the too-small screen, whose request it would hide.
            Overlay::Notice(texts) if self.layout.is_ok() => {
                view::draw_text_box(texts, self.style.board, &mut frame);
            }
            _ => {}
        }
        frame
    }

    /// The records line for the score shown, which overtakes the records
    /// as it passes them; once the game keeps no record (the built-in
    /// player helped, a move was taken back, or a saved game begun with
    /// `--seed` goes on), the score will not be kept, so the line shows the
    /// records as they stay.
    fn hi_line(&self) -> Option<HiLine> {
        let kept = if self.live.no_record().any() {
            0
        } else {
            self.animation.score()
        };
        self.records.as_ref()?.hi_line(kept)
    }
}

/// `text` as a sentence of a box: its first letter a capital. Messages
/// start in lower case to follow `clines: ` on standard error.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) if first.is_ascii_lowercase() => {
            first.to_ascii_uppercase().to_string() + chars.as_str()
        }
        _ => text.to_string(),
    }
}

/// The jump tick at `now` for a chip selected at `since`.
fn jump_tick(since: Instant, now: Instant) -> u64 {
    (now.saturating_duration_since(since).as_millis() / JUMP_TICK.as_millis()) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;
    use crate::cli::Appearance;
    use crate::game::{Actor, Rules};
    use crate::tui::animation::{FLASH_TIME, MAX_FLASHES_PER_TURN};

    fn app_with(board: &[(usize, usize, Color)], cols: usize, rows: usize) -> (App, Instant) {
        let rules = Rules {
            width: 9,
            height: 9,
            colors: 5,
            line: 5,
            next: 3,
            first: 1,
        };
        let (mut game, _) = Game::new(rules, 1);
        game.clear();
        for &(x, y, color) in board {
            game.put(Pos::new(x, y), Some(color)).unwrap();
        }
        let opening = vec![Event::Thrown(game.board().chips().collect())];
        let now = Instant::now();
        let style = Style::new(&Appearance::for_colors(5), 5, true);
        let app = App::new(
            game,
            opening,
            style,
            crate::cli::DEFAULT_KEYS,
            None,
            (cols, rows),
            now,
        );
        (app, now)
    }

    #[test]
    fn endless_clearing_throws_flash_three_times_then_end_at_once() {
        // One colour, lines of 2, two chips a throw on a 2×1 board: every
        // throw is removed at once until the engine gives up.
        let rules = Rules {
            width: 2,
            height: 1,
            colors: 1,
            line: 2,
            next: 2,
            first: 2,
        };
        let (game, opening) = Game::new(rules, 1);
        assert!(game.is_over());
        let score = game.score();
        let now = Instant::now();
        let style = Style::new(&Appearance::for_colors(1), 1, true);
        let keys = crate::cli::DEFAULT_KEYS;
        let mut app = App::new(game, opening, style, keys, None, (40, 20), now);
        let flashes = MAX_FLASHES_PER_TURN as u32;
        app.advance(now + FLASH_TIME * flashes - Duration::from_millis(1));
        assert!(!app.animation.over(), "the first removals flash");
        app.advance(now + FLASH_TIME * flashes);
        assert!(app.animation.over(), "the rest vanish at once");
        assert_eq!(app.animation.score(), score);
        assert_eq!(app.animation.board().chip_count(), 0);
    }

    #[test]
    fn cursor_stops_at_edges() {
        let (mut app, now) = app_with(&[], 100, 50);
        app.act(Action::Cursor(Dir::Left), now);
        app.act(Action::Cursor(Dir::Up), now);
        assert_eq!(app.input.cursor, Pos::new(0, 0));
        for _ in 0..20 {
            app.act(Action::Cursor(Dir::Right), now);
            app.act(Action::Cursor(Dir::Down), now);
        }
        assert_eq!(app.input.cursor, Pos::new(8, 8));
    }

    #[test]
    fn select_change_and_clear() {
        let (mut app, now) = app_with(&[(0, 0, 1), (1, 0, 2)], 100, 50);
        app.act(Action::Act, now);
        assert_eq!(app.input.selected.map(|s| s.0), Some(Pos::new(0, 0)));
        app.act(Action::Cursor(Dir::Right), now);
        app.act(Action::Act, now);
        assert_eq!(app.input.selected.map(|s| s.0), Some(Pos::new(1, 0)));
        app.act(Action::Act, now);
        assert_eq!(app.input.selected, None);
        // Nothing selected: acting on an empty cell does nothing.
        app.act(Action::Cursor(Dir::Down), now);
        app.act(Action::Act, now);
        assert_eq!(app.input.selected, None);
        assert!(!app.animating());
    }

    #[test]
    fn unreachable_target_beeps_and_keeps_selection() {
        // The chip at the corner is walled in.
        let (mut app, now) = app_with(&[(0, 0, 1), (1, 0, 2), (0, 1, 3)], 100, 50);
        app.act(Action::Act, now);
        app.act(Action::Click { row: 21, col: 21 }, now);
        assert!(app.take_bell());
        assert_eq!(app.input.selected.map(|s| s.0), Some(Pos::new(0, 0)));
        assert_eq!(app.input.cursor, Pos::new(4, 4));
        assert!(app.input.cursor_hidden);
    }

    #[test]
    fn clicks_on_grid_lines_are_ignored() {
        let (mut app, now) = app_with(&[(0, 0, 1)], 100, 50);
        app.act(Action::Click { row: 5, col: 2 }, now);
        assert_eq!(app.input.cursor, Pos::new(0, 0));
        assert!(!app.input.cursor_hidden);
        app.act(Action::Click { row: 2, col: 2 }, now);
        assert_eq!(app.input.selected.map(|s| s.0), Some(Pos::new(0, 0)));
        assert!(app.input.cursor_hidden);
        app.act(Action::Cursor(Dir::Right), now);
        assert!(!app.input.cursor_hidden);
        // Also at a key that never reaches the board: F1, Ctrl-L.
        for key in [Action::Help, Action::Repaint] {
            app.act(Action::Click { row: 2, col: 2 }, now);
            assert!(app.input.cursor_hidden);
            app.act(key, now);
            assert!(!app.input.cursor_hidden, "{key:?}");
            app.act(Action::Other, now);
            assert_eq!(app.overlay, Overlay::None);
        }
    }

    #[test]
    fn move_walks_then_lines_flash_then_score() {
        // Four blues in row 0 from x = 1; the fifth walks in from (0, 3).
        let (mut app, start) = app_with(
            &[(1, 0, 1), (2, 0, 1), (3, 0, 1), (4, 0, 1), (0, 3, 1)],
            100,
            50,
        );
        app.act(Action::Click { row: 16, col: 1 }, start);
        app.act(Action::Click { row: 1, col: 1 }, start);
        assert!(app.animating());
        // Keys wait for the animation.
        app.act(Action::Cursor(Dir::Right), start);
        assert_eq!(app.input.cursor, Pos::new(0, 0));
        let at = |ms| start + Duration::from_millis(ms);
        app.advance(at(60));
        assert_eq!(app.animation.walker().map(|w| w.pos), Some(Pos::new(0, 2)));
        assert_eq!(app.animation.board().get(Pos::new(0, 3)), None);
        assert_eq!(app.deadline(at(60)), Some(at(100)));
        app.advance(at(150));
        assert_eq!(app.animation.walker(), None);
        assert_eq!(app.animation.flashing().len(), 5);
        assert_eq!(app.animation.score(), 0);
        assert_eq!(app.live.score(), 5);
        assert_eq!(app.deadline(at(150)), Some(at(750)));
        app.advance(at(749));
        assert_eq!(app.animation.flashing().len(), 5);
        app.advance(at(750));
        assert!(app.animation.flashing().is_empty());
        assert_eq!(app.animation.score(), 5);
        assert_eq!(app.animation.board(), app.game.board());
        // The queued key ran after the animation.
        assert_eq!(app.input.cursor, Pos::new(1, 0));
        assert_eq!(app.deadline(at(750)), None);
    }

    /// A click made during a move waits for it; but a resize meanwhile
    /// voids it, as its place on the new screen may be another cell.
    #[test]
    fn a_click_held_back_by_a_move_is_void_after_a_resize() {
        let (mut app, now) = app_with(&SOME_CHIPS, 100, 50);
        let before = app.layout.clone().unwrap();
        let after = Layout::fit(app.style.cells, 60, 30, 9, 9).unwrap();
        let chips: Vec<Pos> = app.game.board().chips().map(|chip| chip.pos).collect();
        let (row, col) = (0..50)
            .flat_map(|row| (0..100).map(move |col| (row, col)))
            .find(|&(row, col)| {
                let now_empty = before
                    .cell_at(row, col)
                    .is_none_or(|pos| !chips.contains(&pos));
                let then_chip = after
                    .cell_at(row, col)
                    .is_some_and(|pos| chips.contains(&pos));
                now_empty && then_chip
            })
            .expect("a place that a resize moves onto a chip");
        // The chip at (8, 8) walks to (7, 8).
        app.act(Action::Click { row: 41, col: 41 }, now);
        app.act(Action::Click { row: 41, col: 36 }, now);
        assert!(app.animating());
        app.act(Action::Click { row, col }, now);
        // A resize to the same size (as after every stop) keeps it.
        app.resize(100, 50);
        assert!(app.input.queued.contains(&Action::Click { row, col }));
        app.resize(60, 30);
        app.advance(now + Duration::from_secs(10));
        assert!(!app.animating());
        assert_eq!(app.input.selected, None, "no chip selected by the click");
    }

    #[test]
    fn undo_during_a_move_lets_it_finish_then_takes_it_back() {
        let setup = [
            (1, 0, 1),
            (2, 0, 1),
            (3, 0, 1),
            (4, 0, 1),
            (0, 3, 1),
            (8, 8, 2),
        ];
        let (mut app, start) = app_with(&setup, 100, 50);
        let before = app.game.clone();
        let shown = app.animation.board().clone();
        // Nothing to take back yet: a beep, nothing changes.
        app.act(Action::Undo, start);
        assert!(app.take_bell());
        assert!(!app.live.undone());
        app.act(Action::Click { row: 16, col: 1 }, start);
        app.act(Action::Click { row: 1, col: 1 }, start);
        assert!(app.animating());
        app.act(Action::Undo, start);
        assert!(app.animating(), "the undo waits for the move on screen");
        let at = |ms| start + Duration::from_millis(ms);
        app.advance(at(750));
        assert!(!app.animating());
        assert_eq!(app.game, before);
        assert_eq!(*app.animation.board(), shown);
        assert_eq!((app.animation.score(), app.live.score()), (0, 0));
        assert_eq!(app.input.selected, None);
        assert!(app.live.undone() && !app.live.assisted());
        assert!(!app.take_bell());
    }

    #[test]
    fn undo_shows_the_plan_again_and_stops_autoplay() {
        let rules = Rules::default();
        let (game, opening) = Game::with_preview(rules, crate::game::Preview::Cells, 5);
        let now = Instant::now();
        let style = Style::new(&Appearance::for_colors(5), 5, true);
        let keys = crate::cli::DEFAULT_KEYS;
        let mut app = App::new(game, opening, style, keys, None, (100, 50), now);
        let planned = app.planned.clone();
        assert_eq!(planned.len(), 3);
        assert_eq!(planned, app.game.planned());
        let from = app.game.board().chips().next().unwrap().pos;
        let to = app
            .game
            .board()
            .empty_cells()
            .find(|&to| app.game.check_move(from, to).is_ok())
            .unwrap();
        assert!(app.play(from, to, now));
        // While the move is replayed the plan it throws stays on screen.
        assert!(app.animating());
        assert_eq!(app.planned, planned);
        let later = now + Duration::from_secs(10);
        app.advance(later);
        assert_eq!(app.planned, app.game.planned());
        assert_ne!(app.planned, planned);
        app.toggle_autoplay();
        app.act(Action::Undo, later);
        assert_eq!(app.planned, planned);
        assert!(!app.assist.autoplay);
    }

    /// Help opened on the game-over box is drawn over the board alone,
    /// as it would be during play, also where the help is a box smaller
    /// than the game-over box, asking for a bigger terminal; closing it
    /// brings the box back. A warning before play likewise.
    #[test]
    fn a_box_on_the_game_over_box_hides_it_until_closed() {
        let text = |frame: Frame| -> Vec<String> {
            (0..frame.rows())
                .map(|r| (0..frame.cols()).map(|c| frame.get(r, c).ch).collect())
                .collect()
        };
        for (cols, rows, asks) in [(20, 20, true), (100, 50, false)] {
            let (mut during_play, now) = app_with(&[], cols, rows);
            during_play.act(Action::Help, now);
            let (mut over, _) = app_with(&[], cols, rows);
            over.replay(vec![Event::GameOver], now);
            let with_box = text(over.frame(now));
            assert!(with_box.concat().contains("Game over"), "{cols}x{rows}");
            over.act(Action::Help, now);
            assert_eq!(over.overlay, Overlay::Help);
            let shown = text(over.frame(now));
            assert_eq!(shown.concat().contains("Help needs"), asks, "{cols}x{rows}");
            assert_eq!(shown, text(during_play.frame(now)), "{cols}x{rows}");
            over.act(Action::Help, now);
            assert_eq!(over.overlay, Overlay::None);
            assert_eq!(text(over.frame(now)), with_box, "{cols}x{rows}");
        }
        // So does a warning before play on a game over at once.
        let warning = "-o 7,1,1,3,4,5: colour 1 given more than once";
        let (mut during_play, now) = app_with(&[], 29, 24);
        during_play.before_play(None, &[warning]);
        let (mut over, _) = app_with(&[], 29, 24);
        over.replay(vec![Event::GameOver], now);
        over.before_play(None, &[warning]);
        assert!(matches!(over.overlay, Overlay::Notice(_)));
        assert_eq!(text(over.frame(now)), text(during_play.frame(now)));
    }

    #[test]
    fn the_help_stays_off_the_too_small_screen() {
        let (mut app, now) = app_with(&SOME_CHIPS, 80, 24);
        app.act(Action::Help, now);
        app.resize(10, 5);
        assert_eq!(app.overlay, Overlay::None, "withdrawn");
        app.act(Action::Help, now);
        assert_eq!(app.overlay, Overlay::None, "not opened");
        app.resize(80, 24);
        app.act(Action::Help, now);
        assert_eq!(app.overlay, Overlay::Help);
    }

    #[test]
    fn a_notice_is_broken_at_spaces_to_fit_the_terminal_as_it_is_now() {
        let (mut app, now) = app_with(&SOME_CHIPS, 100, 50);
        app.save_failed("creating /tmp/scores/sub: Not a directory (os error 20)");
        let row = |app: &App, r: usize| -> String {
            let frame = app.frame(now);
            (0..frame.cols()).map(|c| frame.get(r, c).ch).collect()
        };
        assert!(row(&app, 2)[1..].starts_with("|The game could not be saved:"));
        // Narrower, the box is broken again: 20 columns inside, its borders
        // and a column either side.
        app.resize(24, 40);
        let rows: Vec<String> = (1..11).map(|r| row(&app, r)).collect();
        let box_rows = [
            " +--------------------+ ",
            " |The game could not  | ",
            " |be saved:           | ",
            " |Creating            | ",
            " |/tmp/scores/sub: Not| ",
            " |a directory (os     | ",
            " |error 20)           | ",
            " |Any key goes back to| ",
            " |it.                 | ",
            " +--------------------+ ",
        ];
        for (shown, expected) in rows.iter().zip(box_rows) {
            assert_eq!(&shown[1..23], &expected[1..23], "{rows:#?}");
        }
    }

    #[test]
    fn what_to_know_before_play_is_one_box_a_paragraph_each() {
        let (mut app, now) = app_with(&SOME_CHIPS, 80, 24);
        app.before_play(None, &[]);
        assert_eq!(app.overlay, Overlay::None, "nothing to say");
        app.before_play(None, &["-o 7,1,1: colour 1 given more than once"]);
        assert_eq!(
            app.overlay,
            Overlay::Notice(vec![
                "Warning:".into(),
                "-o 7,1,1: colour 1 given more than once".into(),
                "Any key goes on to the game.".into(),
            ])
        );
        // A save set aside hides no warning, and each stays apart.
        app.before_play(Some("the saved game is damaged"), &["first", "-o second"]);
        let paragraphs = [
            "The saved game is damaged",
            "Warnings:",
            "First",
            "-o second",
            "Any key goes on to a new game.",
        ];
        assert_eq!(
            app.overlay,
            Overlay::Notice(paragraphs.map(String::from).to_vec())
        );
        let frame = app.frame(now);
        let rows: Vec<String> = (2..8)
            .map(|r| (0..frame.cols()).map(|c| frame.get(r, c).ch).collect())
            .collect();
        for (row, paragraph) in rows.iter().zip(paragraphs) {
            assert!(row[1..].starts_with(&format!("|{paragraph}")), "{rows:#?}");
        }
    }

    #[test]
    fn a_notice_waits_out_the_too_small_screen_hidden_and_deaf_to_keys() {
        let (mut app, now) = app_with(&SOME_CHIPS, 80, 24);
        app.before_play(Some("the saved game is not a clines saved game"), &[]);
        let shown = |app: &App| {
            let frame = app.frame(now);
            let rows = (0..frame.rows()).map(|r| (0..frame.cols()).map(move |c| (r, c)));
            rows.flatten()
                .map(|(r, c)| frame.get(r, c).ch)
                .collect::<String>()
                .contains("The saved game")
        };
        assert!(shown(&app));
        app.resize(10, 5);
        assert!(!shown(&app), "the request to resize is not covered");
        app.act(Action::Cursor(Dir::Right), now);
        app.act(Action::Other, now);
        assert!(
            matches!(app.overlay, Overlay::Notice(_)),
            "not closed unread"
        );
        app.resize(80, 24);
        assert!(shown(&app), "back with the board");
        app.act(Action::Cursor(Dir::Right), now);
        assert_eq!(app.overlay, Overlay::None, "closed by a key");
        assert_eq!(app.input.cursor, Pos::new(0, 0), "which does nothing else");
    }

    #[test]
    fn help_opens_at_once_and_any_key_closes_it() {
        let (mut app, now) = app_with(&SOME_CHIPS, 80, 24);
        app.act(Action::Help, now);
        let rows = |app: &App| {
            let frame = app.frame(now);
            (0..24)
                .map(|r| (0..80).map(|c| frame.get(r, c).ch).collect::<String>())
                .collect::<Vec<_>>()
        };
        assert!(rows(&app)[2][1..].starts_with("|Keys"), "{:?}", rows(&app));
        // The closing key does nothing else.
        app.act(Action::Cursor(Dir::Right), now);
        assert_eq!(app.input.cursor, Pos::new(0, 0));
        assert!(!rows(&app).concat().contains("Keys"));
        // The quit key too only closes it; Ctrl-C quits.
        app.act(Action::Help, now);
        app.act(Action::Quit, now);
        assert_eq!((app.ending(), &app.overlay), (None, &Overlay::None));
        app.act(Action::Help, now);
        app.act(Action::Interrupt, now);
        assert_eq!(app.ending(), Some(Ending::Quit));
    }

    #[test]
    fn new_game_asks_first_when_points_would_be_lost() {
        let (mut app, now) = app_with(&SOME_CHIPS, 100, 50);
        app.act(Action::NewGame, now);
        assert!(app.take_new_game(), "no points: at once");
        app.game.put(Pos::new(4, 4), Some(1)).unwrap();
        let setup = [(0, 2, 2), (1, 2, 2), (2, 2, 2), (3, 2, 2), (4, 5, 2)];
        for (x, y, c) in setup {
            app.game.put(Pos::new(x, y), Some(c)).unwrap();
        }
        assert!(app.play(Pos::new(4, 5), Pos::new(4, 2), now));
        app.advance(now + Duration::from_secs(10));
        assert!(app.game.score() > 0);
        app.act(Action::NewGame, now);
        assert!(!app.take_new_game());
        assert_eq!(app.overlay, Overlay::ConfirmNewGame);
        app.act(Action::Act, now);
        assert_eq!(app.overlay, Overlay::None);
        assert!(!app.take_new_game(), "any other key goes back");
        app.act(Action::NewGame, now);
        app.act(Action::Quit, now);
        assert_eq!((app.ending(), &app.overlay), (None, &Overlay::None));
        assert!(!app.take_new_game(), "the quit key too goes back");
        app.act(Action::NewGame, now);
        app.act(Action::NewGame, now);
        assert!(app.take_new_game());
        // The loop saves the record, then restarts.
        app.toggle_autoplay();
        let (game, opening) = Game::new(Rules::default(), 9);
        let board = game.board().clone();
        app.restart(game, opening, None, now);
        assert_eq!(*app.animation.board(), board);
        assert_eq!((app.live.score(), app.animation.score()), (0, 0));
        assert!(
            app.live.assisted(),
            "autoplay goes on, so the game is assisted"
        );
        assert_eq!(app.input.cursor, Pos::new(0, 0));
    }

    #[test]
    fn a_question_the_terminal_cannot_show_is_withdrawn() {
        let (mut app, now) = app_with(&SOME_CHIPS, 100, 50);
        let setup = [(0, 2, 2), (1, 2, 2), (2, 2, 2), (3, 2, 2), (4, 5, 2)];
        for (x, y, c) in setup {
            app.game.put(Pos::new(x, y), Some(c)).unwrap();
        }
        assert!(app.play(Pos::new(4, 5), Pos::new(4, 2), now));
        app.advance(now + Duration::from_secs(10));
        app.act(Action::NewGame, now);
        assert_eq!(app.overlay, Overlay::ConfirmNewGame);
        app.resize(10, 5);
        app.act(Action::NewGame, now);
        app.resize(100, 50);
        assert!(!app.take_new_game(), "answered unseen");
        assert_eq!(app.overlay, Overlay::None);
        app.act(Action::NewGame, now);
        assert_eq!(app.overlay, Overlay::ConfirmNewGame, "asked again");
    }

    #[test]
    fn new_game_typed_twice_during_a_move_asks_then_confirms() {
        // Four 1s in row 0: the fifth scores, and its flash takes a while.
        let setup = [
            (1, 0, 1),
            (2, 0, 1),
            (3, 0, 1),
            (4, 0, 1),
            (0, 3, 1),
            (8, 8, 2),
        ];
        let (mut app, now) = app_with(&setup, 100, 50);
        app.act(Action::Click { row: 16, col: 1 }, now);
        app.act(Action::Click { row: 1, col: 1 }, now);
        assert!(app.animating());
        app.act(Action::NewGame, now);
        app.act(Action::NewGame, now);
        assert!(!app.take_new_game(), "both wait for the move on screen");
        app.advance(now + Duration::from_secs(10));
        assert!(app.game.score() > 0);
        assert!(app.take_new_game(), "the second answered the first's box");
        assert_eq!(app.overlay, Overlay::None);
    }

    #[test]
    fn at_game_over_the_new_game_key_starts_one_and_the_box_says_so() {
        let (mut app, now) = app_with(&[], 100, 50);
        app.replay(vec![Event::GameOver], now);
        let frame = app.frame(now);
        let row = |r| (1..28).map(|c| frame.get(r, c).ch).collect::<String>();
        assert_eq!(row(2), "|Game over, press a key...|");
        assert_eq!(row(3), "|n starts a new game      |");
        assert_eq!(row(4), "+-------------------------+");
        app.act(Action::NewGame, now);
        assert!(app.take_new_game());
        assert_eq!(app.ending(), None);
        // With n taken by -C the box is the original's.
        app.keys = Keys::from(['n', 'j', 'k', 'l', ' ']);
        let frame = app.frame(now);
        let row = |r| (1..28).map(|c| frame.get(r, c).ch).collect::<String>();
        assert_eq!(row(3), "+-------------------------+");
    }

    #[test]
    fn jump_deadlines_follow_the_pattern() {
        let (mut app, now) = app_with(&[(0, 0, 1)], 100, 50);
        app.act(Action::Act, now);
        let tick = |n: u32| now + JUMP_TICK * n;
        assert_eq!(app.deadline(now), Some(tick(1)));
        // Mini mode, 2 × 2: the look changes on ticks 3, 6, 9, 12.
        app.resize(40, 30);
        assert!(app.take_repaint());
        assert_eq!(app.deadline(tick(1)), Some(tick(3)));
        assert_eq!(app.deadline(tick(10)), Some(tick(12)));
        app.resize(10, 10);
        assert_eq!(app.deadline(now), None);
    }

    #[test]
    fn a_selected_chip_stands_still_while_a_box_is_open() {
        // In the far corner from the boxes, which are drawn at the top left.
        let (mut app, now) = app_with(&[(8, 8, 1)], 100, 50);
        let (mut unselected, _) = app_with(&[(8, 8, 1)], 100, 50);
        for _ in 0..8 {
            app.act(Action::Cursor(Dir::Right), now);
            app.act(Action::Cursor(Dir::Down), now);
        }
        app.act(Action::Act, now);
        let tick = |n: u32| now + JUMP_TICK * n;
        let screen = |app: &App, at: Instant| {
            let frame = app.frame(at);
            let frame = &frame;
            let cells = |r| (0..frame.cols()).map(move |c| frame.get(r, c));
            (0..frame.rows()).flat_map(cells).collect::<Vec<_>>()
        };
        let jumps = (1..8).any(|n| screen(&app, tick(n)) != screen(&app, tick(0)));
        assert!(jumps, "the chip is seen to jump");
        // Under the help it rests, as an unselected chip: the cursor is
        // hidden so that only the chip can tell the screens apart.
        app.act(Action::Help, now);
        unselected.act(Action::Help, now);
        app.input.cursor_hidden = true;
        unselected.input.cursor_hidden = true;
        for n in 0..8 {
            assert!(
                screen(&app, tick(n)) == screen(&unselected, tick(n)),
                "tick {n}"
            );
        }
        app.act(Action::Quit, now);
        for help in [true, false] {
            if help {
                app.act(Action::Help, now);
            } else {
                app.new_game_refused("the disk is full");
            }
            assert_ne!(app.overlay, Overlay::None);
            assert_eq!(
                app.deadline(now),
                None,
                "no jump under the box (help: {help})"
            );
            app.act(Action::Quit, tick(10));
            assert_eq!(app.overlay, Overlay::None, "any key closes the box");
            assert!(app.input.selected.is_some(), "the chip is still selected");
            assert_eq!(app.deadline(tick(10)), Some(tick(11)), "it jumps again");
        }
    }

    #[test]
    fn game_over_box_then_any_key_ends() {
        // The undo key too, as in the original, where it was any key.
        for key in [Action::Other, Action::Undo] {
            let (mut app, now) = app_with(&[], 100, 50);
            app.replay(vec![Event::GameOver], now);
            assert!(app.animation.over());
            app.act(Action::Click { row: 2, col: 2 }, now);
            assert_eq!(app.ending(), None);
            app.act(key, now);
            assert_eq!(app.ending(), Some(Ending::GameOver), "{key:?}");
        }
    }

    /// The cursor taken to `to` from wherever it is, then the action key.
    fn act_at(app: &mut App, to: Pos, now: Instant) {
        let Pos { x, y } = app.input.cursor;
        let steps = [
            (Dir::Left, x.saturating_sub(to.x)),
            (Dir::Right, to.x.saturating_sub(x)),
            (Dir::Up, y.saturating_sub(to.y)),
            (Dir::Down, to.y.saturating_sub(y)),
        ];
        for (dir, count) in steps {
            for _ in 0..count {
                app.act(Action::Cursor(dir), now);
            }
        }
        app.act(Action::Act, now);
    }

    /// The autoplay key typed while the move that ended the game is still
    /// drawn starts nothing: the game keeps its record.
    #[test]
    fn autoplay_typed_during_the_move_that_ended_the_game_leaves_it_unhelped() {
        let (mut app, now) = app_with(&nearly_full(), 100, 50);
        app.advance(now);
        act_at(&mut app, Pos::new(5, 8), now);
        act_at(&mut app, Pos::new(6, 8), now);
        assert!(app.game.is_over() && app.animating());
        app.act(Action::Autoplay, now);
        assert!(!app.assist.autoplay);
        assert!(!app.live.assisted(), "the record is kept");
        app.advance(now + Duration::from_secs(10));
        assert!(app.animation.over());
        assert_eq!(app.ending(), None, "the box waits for its own key");
    }

    /// Every cell but three, no five of a colour in a line: a quiet move
    /// leaves three cells for the throw, which fills the board.
    fn nearly_full() -> Vec<(usize, usize, Color)> {
        (0..81)
            .map(|i| (i % 9, i / 9))
            .filter(|&(x, y)| y < 8 || x < 6)
            .map(|(x, y)| (x, y, ((x + 2 * y) % 5 + 1) as Color))
            .collect()
    }

    /// The undo key typed while the move that ends the game is shown
    /// takes it back once shown, as during any other move, and the keys
    /// typed after it are handled; those before it are dropped. On the
    /// game-over box itself it is any key, as in the original.
    #[test]
    fn undo_typed_during_the_move_that_ended_the_game_takes_it_back() {
        let (mut app, mut now) = app_with(&nearly_full(), 100, 50);
        app.advance(now);
        let before = app.game.clone();
        act_at(&mut app, Pos::new(5, 8), now);
        act_at(&mut app, Pos::new(6, 8), now);
        assert!(app.game.is_over(), "the throw filled the board");
        assert!(app.animating());
        for typed in [Action::Other, Action::Undo, Action::Cursor(Dir::Up)] {
            app.act(typed, now);
        }
        now += Duration::from_secs(10);
        app.advance(now);
        assert_eq!(app.ending(), None);
        assert!(!app.animation.over(), "no box");
        assert_eq!(app.game, before);
        assert_eq!(app.animation.board(), before.board());
        assert_eq!(app.input.cursor, Pos::new(6, 7), "the key after it went on");
        // The same move again, and the undo key on the box: it ends.
        act_at(&mut app, Pos::new(5, 8), now);
        act_at(&mut app, Pos::new(6, 8), now);
        now += Duration::from_secs(10);
        app.advance(now);
        assert!(app.animation.over());
        app.act(Action::Undo, now);
        assert_eq!(app.ending(), Some(Ending::GameOver));
    }

    /// Answers the app's pending request as the player's thread would.
    fn answer(app: &mut App, now: Instant) -> Move {
        let request = app.take_request().expect("a request");
        assert_eq!(request.board, *app.game.board());
        let chosen = crate::ai::hint(&request.board, *app.game.rules(), 1).expect("a move");
        let suggestion = Suggestion {
            id: request.id,
            chosen: Some(chosen),
        };
        app.suggested(suggestion, now);
        chosen
    }

    const SOME_CHIPS: [(usize, usize, Color); 6] = [
        (0, 0, 1),
        (1, 0, 1),
        (2, 0, 1),
        (5, 5, 2),
        (8, 8, 3),
        (4, 7, 1),
    ];

    #[test]
    fn hint_selects_a_chip_and_points_at_a_legal_target() {
        let (mut app, now) = app_with(&SOME_CHIPS, 100, 50);
        assert!(!app.live.assisted());
        assert_eq!(app.take_request(), None);
        app.act(Action::Hint, now);
        assert!(app.live.assisted());
        let chosen = answer(&mut app, now);
        let (selected, since) = app.input.selected.expect("a chip is selected");
        assert_eq!((selected, since), (chosen.from, now));
        assert_eq!(app.input.cursor, chosen.to);
        assert!(app.game.check_move(selected, app.input.cursor).is_ok());
        // The action key accepts it.
        app.act(Action::Act, now);
        assert!(app.animating());
        assert_eq!(app.game.board().get(chosen.from), None);
        assert!(app.game.board().get(chosen.to).is_some() || app.game.score() > 0);
        // A hint is no move: nothing more is asked.
        app.advance(now + Duration::from_secs(10));
        assert_eq!(app.take_request(), None);
    }

    #[test]
    fn hint_answers_for_an_older_board_are_dropped() {
        let (mut app, now) = app_with(&SOME_CHIPS, 100, 50);
        app.act(Action::Hint, now);
        let request = app.take_request().unwrap();
        // The player moves a chip before the answer comes.
        app.act(Action::Click { row: 1, col: 1 }, now);
        app.act(Action::Click { row: 21, col: 21 }, now);
        assert!(app.animating());
        let later = now + Duration::from_secs(10);
        app.advance(later);
        let chosen = crate::ai::hint(&request.board, *app.game.rules(), 1);
        app.suggested(
            Suggestion {
                id: request.id,
                chosen,
            },
            later,
        );
        assert_eq!(app.input.selected, None);
        assert_eq!(app.input.cursor, Pos::new(4, 4));
    }

    #[test]
    fn hint_on_the_game_over_box_ends_the_game() {
        let (mut app, now) = app_with(&SOME_CHIPS, 100, 50);
        app.replay(vec![Event::GameOver], now);
        app.act(Action::Hint, now);
        assert_eq!(app.take_request(), None);
        assert_eq!(app.ending(), Some(Ending::GameOver));
        assert!(!app.live.assisted());
    }

    #[test]
    fn autoplay_shows_waits_then_moves_and_asks_again() {
        let delay = Duration::from_millis(100);
        let (app, now) = app_with(&SOME_CHIPS, 100, 50);
        let mut app = app.with_autoplay(true, delay);
        assert!(app.live.assisted());
        app.advance(now);
        // Nothing happens without the answer: no timer runs.
        assert_eq!(app.deadline(now), None);
        let chosen = answer(&mut app, now);
        assert_eq!(app.input.selected, Some((chosen.from, now)));
        assert_eq!(app.input.cursor, chosen.to);
        assert_eq!(app.deadline(now), Some(now + delay));
        let before = app.game.board().clone();
        app.advance(now + delay - Duration::from_millis(1));
        assert_eq!(*app.game.board(), before);
        app.advance(now + delay);
        assert_ne!(*app.game.board(), before);
        assert!(app.animating());
        assert_eq!(app.input.selected, None);
        // The next question waits for the move on screen.
        assert_eq!(app.take_request(), None);
        let later = now + Duration::from_secs(10);
        app.advance(later);
        assert!(!app.animating());
        let request = app.take_request().expect("the next question");
        assert_eq!(request.board, *app.game.board());
        // Stopping drops the question and its answer.
        app.act(Action::Autoplay, later);
        assert_eq!(app.take_request(), None);
        app.suggested(
            Suggestion {
                id: request.id,
                chosen: crate::ai::hint(&request.board, *app.game.rules(), 1),
            },
            later,
        );
        assert_eq!(app.input.selected, None);
        assert_eq!(app.deadline(later), None);
        app.advance(later + Duration::from_secs(10));
        assert_eq!(app.take_request(), None);
        // Starting again asks at once.
        app.act(Action::Autoplay, later);
        app.advance(later);
        assert!(app.take_request().is_some());
    }

    #[test]
    fn a_signal_while_saving_ends_the_game_if_the_save_fails() {
        let (mut app, now) = app_with(&SOME_CHIPS, 100, 50);
        app.act(Action::SaveQuit, now);
        app.end(Ending::Signal(15));
        assert_eq!(app.ending(), Some(Ending::Saved));
        app.save_failed("the disk is full");
        assert_eq!(app.ending(), Some(Ending::Signal(15)));
        // Without a signal, the game goes on under the box.
        let (mut app, now) = app_with(&SOME_CHIPS, 100, 50);
        app.act(Action::SaveQuit, now);
        app.save_failed("the disk is full");
        assert_eq!(app.ending(), None);
        assert!(matches!(app.overlay, Overlay::Notice(_)));
    }

    #[test]
    fn keys_after_quitting_or_saving_change_nothing() {
        for ending in [Action::Quit, Action::SaveQuit, Action::Interrupt] {
            for after in [
                Action::Hint,
                Action::Autoplay,
                Action::Undo,
                Action::NewGame,
            ] {
                let (mut app, now) = app_with(&SOME_CHIPS, 100, 50);
                app.act(Action::Click { row: 1, col: 1 }, now);
                app.act(Action::Click { row: 21, col: 21 }, now);
                app.advance(now + Duration::from_secs(10));
                let board = app.game.board().clone();
                app.act(ending, now + Duration::from_secs(10));
                let ended = app.ending();
                assert!(ended.is_some(), "{ending:?}");
                app.act(after, now + Duration::from_secs(10));
                app.advance(now + Duration::from_secs(20));
                assert_eq!(app.ending(), ended, "{ending:?} then {after:?}");
                assert!(!app.live.assisted(), "{ending:?} then {after:?}");
                assert_eq!(*app.game.board(), board, "{ending:?} then {after:?}");
                assert_eq!(app.take_request(), None, "{ending:?} then {after:?}");
                assert!(!app.requests.new_game, "{ending:?} then {after:?}");
            }
        }
    }

    #[test]
    fn autoplay_waits_under_the_help_and_shows_its_move_again_after() {
        let delay = Duration::from_secs(5);
        let (mut app, now, chosen) = autoplay_answered(delay);
        let before = app.game.board().clone();
        app.act(Action::Help, now);
        // Nothing wakes the loop under the help: the selected chip stands
        // still, and no move is made.
        assert_eq!(app.deadline(now), None);
        let later = now + Duration::from_secs(60);
        app.advance(later);
        assert_eq!(*app.game.board(), before);
        assert_eq!(app.take_request(), None);
        // Closed, the move is shown for the whole delay again, then made.
        app.act(Action::Other, later);
        assert_eq!(app.overlay, Overlay::None);
        assert_eq!(app.input.selected.map(|(pos, _)| pos), Some(chosen.from));
        moves_after_the_whole_delay(&mut app, later, delay);
        // Nor does it ask under the help once the move is on the board.
        let after_move = later + Duration::from_secs(60);
        app.act(Action::Help, after_move);
        app.advance(after_move);
        assert_eq!(app.take_request(), None);
        app.act(Action::Other, after_move);
        app.advance(after_move);
        assert!(app.take_request().is_some());
    }

    /// An app on [`SOME_CHIPS`] with autoplay on at `delay`, its first
    /// question answered: the chosen move is shown, to be made after
    /// `delay`.
    fn autoplay_answered(delay: Duration) -> (App, Instant, Move) {
        let (app, now) = app_with(&SOME_CHIPS, 100, 50);
        let mut app = app.with_autoplay(true, delay);
        app.advance(now);
        let chosen = answer(&mut app, now);
        (app, now, chosen)
    }

    /// Autoplay's move, shown from `from`, is made once `delay` is over
    /// and not before.
    fn moves_after_the_whole_delay(app: &mut App, from: Instant, delay: Duration) {
        let before = app.game.board().clone();
        let planned = app.assist.planned.map(|(_, at)| at);
        assert_eq!(planned, Some(Some(from + delay)));
        app.advance(from + delay - Duration::from_millis(1));
        assert_eq!(*app.game.board(), before);
        app.advance(from + delay);
        assert_ne!(*app.game.board(), before);
    }

    /// Stopped (Ctrl-Z) while autoplay showed its move, and continued after
    /// the delay was over, the game shows the move for the whole delay
    /// again before making it.
    #[test]
    fn autoplay_shows_its_move_again_after_a_stop() {
        let delay = Duration::from_secs(5);
        let (mut app, now, _) = autoplay_answered(delay);
        let later = now + Duration::from_secs(60);
        app.continued();
        app.advance(later);
        moves_after_the_whole_delay(&mut app, later, delay);
    }

    /// The player's own move, made while autoplay shows the one it is
    /// about to make, replaces it: autoplay asks again about the new board.
    #[test]
    fn a_move_of_the_players_replaces_the_one_autoplay_was_about_to_make() {
        let delay = Duration::from_secs(5);
        let (mut app, now, chosen) = autoplay_answered(delay);
        let board = app.game.board().clone();
        let (from, to, expected) = board
            .chips()
            .filter(|chip| chip.pos != chosen.from)
            .flat_map(|chip| board.empty_cells().map(move |to| (chip.pos, to)))
            .filter(|&(_, to)| to != chosen.to)
            .find_map(|(from, to)| {
                let mut game = app.game.clone();
                game.play(from, to).ok()?;
                Some((from, to, game))
            })
            .expect("another move");
        let layout = app.layout.clone().expect("the board fits");
        for pos in [from, to] {
            let (row, col) = layout.origin(pos);
            app.act(Action::Click { row, col }, now);
        }
        assert_ne!(*app.game.board(), board, "the player's move is made");
        let later = now + delay + Duration::from_secs(60);
        app.advance(later);
        assert_eq!(app.game, expected, "autoplay's move is not made after it");
        let request = app.take_request().expect("a question about the new board");
        assert_eq!(request.board, *expected.board());
    }

    #[test]
    fn autoplay_waits_while_the_board_is_hidden_and_shows_its_move_again_after() {
        let delay = Duration::from_secs(5);
        let (mut app, now, _) = autoplay_answered(delay);
        let before = app.game.board().clone();
        app.resize(10, 5);
        assert_eq!(app.deadline(now), None, "nothing to wake for");
        let later = now + Duration::from_secs(60);
        app.advance(later);
        assert_eq!(*app.game.board(), before, "no move made unseen");
        // Back, the move is shown for the whole delay, then made; the loop
        // wakes at once to start the delay.
        app.resize(100, 50);
        assert_eq!(app.deadline(later), Some(later));
        app.advance(later);
        moves_after_the_whole_delay(&mut app, later, delay);
        // An answer that comes while the board is hidden waits alike.
        let next = later + delay + Duration::from_secs(60);
        app.advance(next);
        app.resize(10, 5);
        answer(&mut app, next);
        let before = app.game.board().clone();
        let back = next + Duration::from_secs(60);
        app.resize(100, 50);
        app.advance(back);
        assert_eq!(*app.game.board(), before);
        app.advance(back + delay);
        assert_ne!(*app.game.board(), before);
    }

    #[test]
    fn no_move_beeps_and_stops_autoplay() {
        let (app, now) = app_with(&SOME_CHIPS, 100, 50);
        let mut app = app.with_autoplay(true, Duration::ZERO);
        app.advance(now);
        let request = app.take_request().unwrap();
        app.suggested(
            Suggestion {
                id: request.id,
                chosen: None,
            },
            now,
        );
        assert!(app.take_bell());
        app.advance(now);
        assert_eq!(app.take_request(), None);
        assert_eq!(app.deadline(now), None);
    }

    #[test]
    fn autoplay_toggles_during_a_move_and_stops_at_game_over() {
        let (mut app, now) = app_with(&SOME_CHIPS, 100, 50);
        // Move a chip: the walk animates.
        app.act(Action::Click { row: 1, col: 1 }, now);
        app.act(Action::Click { row: 21, col: 21 }, now);
        assert!(app.animating());
        // The toggle does not wait for the walk, but the question does.
        app.act(Action::Autoplay, now);
        assert!(app.assist.autoplay);
        assert_eq!(app.take_request(), None);
        app.replay(vec![Event::GameOver], now);
        app.advance(now + Duration::from_secs(10));
        assert!(app.animation.over());
        assert!(!app.assist.autoplay, "stopped, so a new game waits");
        assert_eq!(app.take_request(), None);
        assert_eq!(app.deadline(now + Duration::from_secs(10)), None);
        // On the box the autoplay key is any key.
        app.act(Action::Autoplay, now + Duration::from_secs(10));
        assert_eq!(app.ending(), Some(Ending::GameOver));
    }

    /// `u` stops autoplay also with nothing to take back, as on the first
    /// move of a game begun with `--autoplay`: only the beep says why
    /// nothing else happened.
    #[test]
    fn undo_stops_autoplay_with_or_without_a_move_to_take_back() {
        let (mut app, now) = app_with(&SOME_CHIPS, 100, 50);
        app.act(Action::Autoplay, now);
        app.advance(now);
        let request = app.take_request().expect("autoplay asks for a move");
        let chosen = crate::ai::hint(&request.board, *app.game.rules(), 1);
        app.suggested(
            Suggestion {
                id: request.id,
                chosen,
            },
            now,
        );
        let before = app.game.clone();
        app.act(Action::Undo, now);
        assert!(app.take_bell(), "nothing to take back");
        assert!(!app.assist.autoplay);
        assert!(!app.live.undone());
        app.advance(now + Duration::from_secs(10));
        assert_eq!(app.game, before, "the move autoplay planned is not made");
        assert_eq!(app.take_request(), None);
    }

    #[test]
    fn records_follow_the_score() {
        let (mut app, mut now) = app_with(&[], 100, 50);
        // The shown score grows by `points` once a removal has flashed.
        let mut score_shown = |app: &mut App, points| {
            let removed = Event::Removed {
                chips: Vec::new(),
                points,
                by: Actor::Player,
            };
            app.replay(vec![removed], now);
            now += FLASH_TIME;
            app.advance(now);
        };
        score_shown(&mut app, 15);
        assert_eq!(app.hi_line(), None, "records off: no hi line");
        app.records = Some(BoardRecords {
            user: "bob".into(),
            best: Some(crate::records::Entry {
                user: "ann".into(),
                score: 20,
                set_at: None,
            }),
            own: Some(10),
        });
        let other = |you| HiLine::Other {
            name: "ann".into(),
            score: 20,
            you,
        };
        assert_eq!(app.hi_line(), Some(other(15)));
        score_shown(&mut app, 4);
        assert_eq!(app.hi_line(), Some(other(19)));
        // Reaching the best shows it as the player's, as in the original.
        score_shown(&mut app, 1);
        assert_eq!(app.hi_line(), Some(HiLine::Own { score: 20 }));
        score_shown(&mut app, 1);
        assert_eq!(app.hi_line(), Some(HiLine::Own { score: 21 }));
    }

    #[test]
    fn an_assisted_game_shows_the_records_it_keeps() {
        for help in [Live::mark_assisted, Live::mark_undone, Live::mark_seeded] {
            a_game_with_help_shows_the_records_it_keeps(help);
        }
    }

    /// After `help`, the records line stops following the score.
    fn a_game_with_help_shows_the_records_it_keeps(help: fn(&Live)) {
        let (mut app, now) = app_with(&[], 100, 50);
        app.records = Some(BoardRecords {
            user: "bob".into(),
            best: Some(crate::records::Entry {
                user: "ann".into(),
                score: 20,
                set_at: None,
            }),
            own: Some(10),
        });
        let removed = Event::Removed {
            chips: Vec::new(),
            points: 30,
            by: Actor::Player,
        };
        app.replay(vec![removed], now);
        app.advance(now + FLASH_TIME);
        assert_eq!(app.hi_line(), Some(HiLine::Own { score: 30 }));
        help(&app.live);
        assert_eq!(
            app.hi_line(),
            Some(HiLine::Other {
                name: "ann".into(),
                score: 20,
                you: 10,
            })
        );
        app.records = Some(BoardRecords {
            user: "bob".into(),
            best: None,
            own: None,
        });
        assert_eq!(app.hi_line(), None, "no record, and none will be kept");
    }
}

#[cfg(test)]
mod fuzz;
