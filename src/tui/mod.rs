//! The terminal front end: the board drawn as the original draws it, played
//! with the keyboard and the mouse.
//!
//! [`run`] checks the terminal size, then takes over the terminal (see
//! `terminal::Guard`) and runs the event loop: one thread blocks reading
//! terminal events, one blocks waiting for signals, and the loop sleeps on
//! their channel, with a timeout only while something animates. The
//! built-in player (hints, autoplay) runs on a third thread, started on the
//! first request, and answers through the same channel. Every exit (quit
//! keys, signals, game over, a lost terminal, and a panic through the panic
//! hook) restores the terminal, then saves the record once and prints the
//! closing lines: through `close`, which keeps or removes the saved game in
//! between, or, after a panic, through `end_session`.

mod animation;
mod app;
mod event;
mod frame;
mod help;
mod input;
mod layout;
mod player;
mod sys;
mod terminal;
mod terminfo;
mod view;

use std::cell::RefCell;
use std::fmt;
use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::os::fd::AsFd;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::cli::{Appearance, Warning};
use crate::game::{Game, Preview, Rules};
use crate::records::{SaveSlot, SavedGame, Store};

use app::{App, Live};
use event::Message;
use frame::Renderer;
pub use help::lines as help_lines;

use input::{Action, action_for};
use layout::Layout;
use player::PlayerThread;

/// Everything a terminal game needs.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    /// The rules of the game.
    pub rules: Rules,
    /// How much of the computer's next throw is shown.
    pub preview: Preview,
    /// The seed of the game's random generator.
    pub seed: u64,
    /// Keys, glyphs and colours.
    pub appearance: Appearance,
    /// Whether and where the record is kept.
    pub records: RecordKeeping,
    /// Whether a game started here keeps a record (none does with
    /// `--seed`). A saved game that goes on keeps one or not by what
    /// happened in it, whatever this says.
    pub new_games_keep_records: bool,
    /// Where a game of these rules is saved to go on with later, or why
    /// there is no place for it.
    pub saves: Result<SaveSlot, String>,
    /// Whether to go on with a saved game, if there is one (not `--new`).
    pub resume: bool,
    /// Whether the built-in player starts playing at once (the autoplay key
    /// toggles it either way).
    pub autoplay: bool,
    /// How long autoplay shows each move (the chip selected, the cursor on
    /// its target) before making it.
    pub autoplay_delay: Duration,
    /// Warnings about the options, shown in a box before play where they
    /// matter (they were printed on standard error too, where the game's
    /// screen hides them).
    pub warnings: Vec<Warning>,
}

/// Whether and where a game's record is kept.
#[derive(Clone, Debug)]
pub enum RecordKeeping {
    /// Records are off for this game (a fixed seed): nothing is read or
    /// written, no `hi` line.
    Off,
    /// Records are on, but this player's store could not be opened; the
    /// message says why and is printed, after `clines: `, once the
    /// terminal is restored.
    Unavailable(String),
    /// The record is read from and saved to this store.
    KeptIn(Store),
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The player quit: `q`, Ctrl-C or Ctrl-\; or nothing can reach the
    /// game any more (every sender of its messages is gone).
    Quit,
    /// A signal ended the game: one meant to end a program (SIGINT,
    /// SIGQUIT, SIGTERM, SIGHUP) or one that would kill it unhandled.
    Signal(i32),
    /// The board filled up and the player dismissed the game-over box.
    GameOver,
    /// The program panicked.
    Panic,
    /// Reading or writing the terminal failed (it may have been closed).
    TerminalLost,
    /// The player saved the game to go on with next time (`s`).
    Saved,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Points earned.
    pub score: u64,
    /// How it ended.
    pub ending: Ending,
    /// Whether the game keeps no record for how it was played: the
    /// built-in player helped, a move was taken back, or it was begun with
    /// `--seed`, in this session or before it was saved and resumed.
    pub keeps_no_record: bool,
}

/// Why the game could not run.
#[derive(Debug)]
pub enum Error {
    /// The terminal is too small for the board; the message is the first
    /// required-size line (width before height). The terminal was not
    /// touched.
    TooSmall(String),
    /// There is no terminal to play on (standard output is not one, or
    /// there is none at all) or it cannot move its cursor; the message says
    /// which and what to do instead. The terminal was not touched.
    Unusable(String),
    /// Reading or writing the terminal failed.
    Io(io::Error),
    /// The game's signal or input handling could not be started: most
    /// likely a process or memory limit refused its thread. The terminal
    /// was not touched, or restored.
    Thread(io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::TooSmall(message) | Error::Unusable(message) => f.write_str(message),
            Error::Io(e) => write!(f, "terminal: {e}"),
            Error::Thread(e) => write!(f, "cannot start the game's signal or input handling: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::TooSmall(_) | Error::Unusable(_) => None,
            Error::Io(e) | Error::Thread(e) => Some(e),
        }
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Error {
        Error::Io(e)
    }
}

/// Plays one game in the terminal until the player quits, a signal arrives
/// or the game is over and a key is pressed. The terminal is restored on
/// every path, then the record is saved (see [`RecordKeeping`]) and the closing
/// lines printed: what became of the record, then `Scores earned : N`.
/// A place the game cannot be drawn on (see [`Error::Unusable`]) or a
/// terminal too small for the board is reported before any terminal mode
/// changes, and nothing is saved or printed then.
pub fn run(config: PlayConfig) -> Result<Outcome, Error> {
    check_terminal()?;
    let (cols, rows) = crossterm::terminal::size()?;
    let (cols, rows) = (usize::from(cols), usize::from(rows));
    let rules = config.rules;
    let shape = config.appearance.cells;
    if let Err(too_small) = Layout::fit(shape, cols, rows, rules.width, rules.height) {
        // The first size that is short, as the original says.
        return Err(Error::TooSmall(too_small.lines[0].clone()));
    }
    let color = view::use_color(config.appearance.mode);
    let (mut app, went_on_from) = first_game(&config, color, (cols, rows));
    let records = match &config.records {
        _ if went_on_from.is_none() && !config.new_games_keep_records => RecordKeeping::Off,
        records => records.clone(),
    };
    let session = Arc::new(Session {
        live: app.live(),
        records,
        ended: AtomicBool::new(false),
    });
    let for_panic = Arc::clone(&session);
    terminal::install_panic_hook(move || {
        end_session(&for_panic, Ending::Panic);
    });
    let (sender, receiver) = mpsc::channel();
    let signals = event::spawn_signals(sender.clone()).map_err(Error::Thread)?;
    let mut guard = terminal::Guard::enter()?;
    #[cfg(debug_assertions)]
    crate::runtime::panic_if_asked("game");
    // Frames go straight to the terminal, one write each, bypassing the
    // line buffering of `Stdout`.
    let mut out = File::from(io::stdout().as_fd().try_clone_to_owned()?);
    let mut player = PlayerThread::new(rules, config.seed, sender.clone());
    event::spawn_input(sender).map_err(Error::Thread)?;
    // A resize since the size was read, before the game listened for one,
    // sent no event.
    let now = guard.size().map(|(c, r)| (usize::from(c), usize::from(r)));
    if let Some((c, r)) = now.filter(|&size| size != (cols, rows)) {
        app.resize(c, r);
    }
    let mut renderer = Renderer::new(color);
    let mut seed = config.seed;
    // The save the game on screen went on from: only that save is its own,
    // to remove when it ends. Another game of the same rules, in another
    // terminal, may have saved over it since.
    let owned_save = RefCell::new(went_on_from);
    let mut new_game = |app: &mut App| {
        let lost = record_before_new_game(&session, app.game().is_over())?;
        seed = seed.wrapping_add(1);
        next_game(app, &config, &session, owned_save.take(), seed);
        if let Some(problem) = lost {
            app.record_lost_at_game_over(&problem);
        }
        Ok(seed)
    };
    // A seeded game's throws can be known beforehand: it goes on, even
    // without --seed, keeping no record.
    let seeded = matches!(session.records, RecordKeeping::Off);
    let mut save = |app: &App| {
        save_game(slot_of(&config), app, seeded)
            .map(|_| ())
            .map_err(|problem| problem.reason)
    };
    let result = event_loop(
        &mut app,
        &receiver,
        &mut player,
        &mut renderer,
        &mut out,
        &mut guard,
        &mut Files {
            new_game: &mut new_game,
            save: &mut save,
        },
    );
    signals.close();
    drop(guard);
    let owned = owned_save.borrow();
    close(&config, &app, &session, result, owned.as_ref(), seeded)
}

/// Saves the record of the game on screen before a new game replaces it,
/// as if it had been quit. Where it earned a record that could not be
/// saved: `Err` with the reason when the game is not `over`, as it must
/// stay so that its score is not lost; `Ok` with the reason, to be told,
/// when it is over, as its score is lost however it ends.
fn record_before_new_game(session: &Session, over: bool) -> Result<Option<String>, String> {
    match keep_record(session) {
        (_, Some(problem)) if matches!(session.records, RecordKeeping::KeptIn(_)) => {
            if over {
                Ok(Some(problem))
            } else {
                Err(problem)
            }
        }
        _ => Ok(None),
    }
}

/// Puts the game of `seed` in place of the one on screen, whose record is
/// saved ([`record_before_new_game`]); the save it went on from (`owned`),
/// if still there, goes.
fn next_game(
    app: &mut App,
    config: &PlayConfig,
    session: &Session,
    owned: Option<SavedGame>,
    seed: u64,
) {
    if let (Ok(slot), Some(owned)) = (&config.saves, owned) {
        let _ = slot.remove_if_unchanged(&owned);
    }
    let (game, opening) = Game::with_preview(config.rules, config.preview, seed);
    let records = board_records(&session.records).filter(|_| config.new_games_keep_records);
    app.restart(game, opening, records, Instant::now());
    if !config.new_games_keep_records {
        app.live().mark_seeded();
    }
}

/// The session's end, once the terminal is restored: says that `--seed`
/// was not used if the game on screen is still the save it went on from
/// (`owned`), saves the record, keeps the game or removes its save, then
/// prints the closing lines. The record comes first: where it cannot be
/// saved, a game that is not over is saved instead, so that its score is
/// not lost.
fn close(
    config: &PlayConfig,
    app: &App,
    session: &Session,
    result: io::Result<Ending>,
    owned: Option<&SavedGame>,
    seeded: bool,
) -> Result<Outcome, Error> {
    if owned.is_some() && !config.new_games_keep_records {
        let _ = writeln!(io::stdout(), "{SEED_NOT_USED}");
    }
    let ending = result
        .as_ref()
        .map_or(Ending::TerminalLost, |&ending| ending);
    let settled = settle_record(session);
    let record_lost = settled.as_ref().and_then(|settled| settled.lost.as_deref());
    keep_game(slot_of(config), app, ending, seeded, owned, record_lost);
    match result {
        Ok(ending) => Ok(closing_lines(session, ending, settled)),
        Err(e) => {
            // The game still ends the usual way, so its score is not lost.
            closing_lines(session, Ending::TerminalLost, settled);
            Err(Error::Io(e))
        }
    }
}

/// Suggested wherever the game cannot be drawn.
const USE_BATCH: &str = "use --batch to play over standard input and output";

/// Refuses to start where the game cannot be drawn, before the terminal is
/// touched. Standard output must be the terminal: the game refuses rather
/// than draw on `/dev/tty` behind a redirection, since whoever redirected
/// the output expects it in the file (the closing lines would go there
/// while the board went elsewhere). Keys are read from standard input if it
/// is a terminal, else from `/dev/tty`, which fails without a controlling
/// terminal. A `dumb` terminal, or one whose terminfo entry lacks cursor
/// addressing, cannot show the board; a terminal with no entry on this
/// machine is given the benefit of the doubt.
fn check_terminal() -> Result<(), Error> {
    let keyboard = io::stdin().is_terminal()
        || File::options()
            .read(true)
            .write(true)
            .open("/dev/tty")
            .is_ok();
    if !keyboard {
        return Err(Error::Unusable(format!(
            "there is no terminal to play on (no controlling terminal, and \
             standard input is not one); {USE_BATCH}"
        )));
    }
    if !io::stdout().is_terminal() {
        return Err(Error::Unusable(format!(
            "standard output is not a terminal, and the game draws on its \
             terminal; run it without redirecting its output, or {USE_BATCH}"
        )));
    }
    let term = std::env::var("TERM").unwrap_or_default();
    if term == "dumb" || terminfo::terminal_cursor_address() == Some(false) {
        return Err(Error::Unusable(format!(
            "this terminal (TERM={term}) cannot move its cursor, which the \
             board needs; set TERM to the terminal's type, or {USE_BATCH}"
        )));
    }
    Ok(())
}

/// The app for the session's first game, and the save it goes on from if
/// any: the saved game of these rules, unless `--new` was given or there
/// is none (a save that cannot be used is reported and set aside), else a
/// new game.
fn first_game(config: &PlayConfig, color: bool, size: (usize, usize)) -> (App, Option<SavedGame>) {
    let rules = config.rules;
    let mut not_resumed = None;
    let saved = match &config.saves {
        Ok(slot) if config.resume => slot.load().unwrap_or_else(|bad| {
            // Before the screen changes, so that it is still there after
            // the game; a box says it meanwhile.
            let _ = writeln!(io::stderr(), "clines: {bad}");
            not_resumed = Some(bad.what_became());
            None
        }),
        _ => None,
    };
    let resumed = saved.and_then(|saved| {
        Game::from_state(saved.state.clone())
            .ok()
            .map(|game| (game, saved))
    });
    let (game, opening, saved) = match resumed {
        Some((game, saved)) => (game, Vec::new(), Some(saved)),
        None => {
            let (game, opening) = Game::with_preview(rules, config.preview, config.seed);
            (game, opening, None)
        }
    };
    let records =
        board_records(&config.records).filter(|_| saved.is_some() || config.new_games_keep_records);
    let mut app = App::new(
        game,
        opening,
        view::Style::new(&config.appearance, rules.colors, color),
        config.appearance.keys,
        records,
        size,
        Instant::now(),
    )
    .with_autoplay(config.autoplay, config.autoplay_delay);
    // Only now is it known whether the game draws in colour.
    let mut warnings: Vec<&str> = config
        .warnings
        .iter()
        .filter(|warning| warning.matters(color))
        .map(|warning| warning.text.as_str())
        .collect();
    // Said at the end too; a player who asked for a seed should not play
    // the whole game thinking it is that seed's.
    if saved.is_some() && !config.new_games_keep_records {
        warnings.push(SEED_NOT_USED_NOW);
    }
    app.before_play(not_resumed.as_deref(), &warnings);
    match saved {
        Some(saved) => (app.resumed(saved.no_record), Some(saved)),
        None => {
            if !config.new_games_keep_records {
                app.live().mark_seeded();
            }
            (app, None)
        }
    }
}

/// The records shown on the board, read afresh, when records are kept.
fn board_records(records: &RecordKeeping) -> Option<crate::records::BoardRecords> {
    match records {
        RecordKeeping::KeptIn(store) => Some(store.board_records()),
        RecordKeeping::Off | RecordKeeping::Unavailable(_) => None,
    }
}

/// Printed when a saved game went on although `--seed` asked for a game.
const SEED_NOT_USED: &str =
    "The saved game went on: --seed was not used (with --new it starts afresh).";

/// The same, before play.
const SEED_NOT_USED_NOW: &str =
    "The saved game goes on: --seed is not used (with --new it starts afresh).";

/// Printed instead of saving when the built-in player helped.
const ASSISTED: &str = "No record kept: the built-in player helped in this game.";
/// Printed instead of saving when a move was taken back.
const UNDONE: &str = "No record kept: a move was taken back in this game.";
/// Printed instead of saving for a game begun with `--seed`, also when it
/// went on without it.
const SEEDED: &str = "No record kept: this game was started with --seed.";

/// Says that the game was saved, when the save key's loop saved it, or
/// saves it when it was cut short ([`cuts_short`]) or its record could
/// not be saved
/// (`record_lost` says why), but never over a save other than the one it
/// went on from (`owned`); any other ending removes that save, if it is
/// still there, as the game is over. Says what became of it. A `seeded` game is saved as one that keeps no
/// record.
fn keep_game(
    slot: Result<&SaveSlot, &str>,
    app: &App,
    ending: Ending,
    seeded: bool,
    owned: Option<&SavedGame>,
    record_lost: Option<&str>,
) {
    // The terminal may be gone (SIGHUP): failed writes are ignored.
    match game_kept(slot, app, ending, seeded, owned, record_lost) {
        Ok(Some(notice)) => {
            let _ = writeln!(io::stdout(), "{notice}");
        }
        Ok(None) => {}
        Err(problem) => {
            let _ = writeln!(io::stderr(), "{problem}");
        }
    }
}

/// [`keep_game`]'s work: what to tell the player, or what went wrong. The
/// save key's game was saved by the loop already ([`save_game`]).
fn game_kept(
    slot: Result<&SaveSlot, &str>,
    app: &App,
    ending: Ending,
    seeded: bool,
    owned: Option<&SavedGame>,
    record_lost: Option<&str>,
) -> Result<Option<&'static str>, String> {
    let game = app.game();
    if game.is_over() {
        // Nothing to go on with. A save it went on from would replay
        // throws already seen, so it goes even when the record was lost.
    } else if ending == Ending::Saved {
        return Ok(Some(SAVED));
    } else if let Some(problem) = record_lost {
        return save_for_lost_record(slot, app, owned, problem);
    } else if cuts_short(ending) {
        return save_unless_taken(slot, app, seeded, owned)
            .map(Some)
            .map_err(|problem| problem.to_string());
    }
    let Ok(slot) = slot else {
        return Ok(None);
    };
    let Some(owned) = owned else {
        return Ok(None);
    };
    slot.remove_if_unchanged(owned).map(|()| None).map_err(|e| {
        format!(
            "clines: the saved game {} could not be removed: {e}",
            slot.path().display()
        )
    })
}

/// Whether `ending` cuts the game short rather than ends it: the terminal
/// closed, or the session is ending (SIGTERM, as a logout or a shutdown
/// sends), and no one chose to leave the game. Such a game is saved.
fn cuts_short(ending: Ending) -> bool {
    use signal_hook::consts::{SIGHUP, SIGTERM};
    matches!(
        ending,
        Ending::TerminalLost | Ending::Signal(SIGHUP | SIGTERM)
    )
}

/// Saves the game on screen, whose record could not be saved for
/// `problem`, so that its score is not lost (however it ends, the closed
/// terminal's save included); but not over a game that another session
/// saved in the slot since this one went on from `owned` (or started),
/// whose score may be unkept too. What went wrong is told, briefly when it
/// is the record's own reason, told already.
fn save_for_lost_record(
    slot: Result<&SaveSlot, &str>,
    app: &App,
    owned: Option<&SavedGame>,
    problem: &str,
) -> Result<Option<&'static str>, String> {
    let not_saved = |why: &str| match problem.contains(why) {
        true => Err(SAME_REASON.to_string()),
        false => Err(format!(
            "clines: nor could the game be saved instead: {why}"
        )),
    };
    let slot = match slot {
        Ok(slot) => slot,
        Err(why) => return not_saved(why),
    };
    let game = SavedGame {
        state: app.game().state(),
        no_record: app.live().no_record(),
    };
    match slot.save_unless_taken(&game, owned) {
        Ok(true) => Ok(Some(SAVED_FOR_RECORD)),
        Ok(false) => not_saved(&format!(
            "another game of these rules is saved in {}",
            slot.path().display()
        )),
        Err(e) => not_saved(&e.cause().to_string()),
    }
}

/// The save slot of the game's rules, or why there is none.
fn slot_of(config: &PlayConfig) -> Result<&SaveSlot, &str> {
    config.saves.as_ref().map_err(String::as_str)
}

/// Saves the game on screen in `slot` to go on with later, `seeded` saying
/// that it keeps no record; the notice to print, or what went wrong. With
/// no `slot` (no user name or records directory), there is nowhere, for
/// the reason given instead.
fn save_game(
    slot: Result<&SaveSlot, &str>,
    app: &App,
    seeded: bool,
) -> Result<&'static str, SaveProblem> {
    let slot = slot.map_err(SaveProblem::nowhere)?;
    slot.save(&saved_game(app, seeded))
        .map(|()| SAVED)
        .map_err(|e| SaveProblem::in_slot(slot, e.cause().to_string()))
}

/// Saves the game on screen as [`save_game`] does, for a game cut short
/// ([`cuts_short`]), unless the slot holds a game other than `owned` (the save it
/// went on from): no one chose to replace that game, kept with `--new` or
/// saved meanwhile in another terminal, so it is kept, and this one is
/// not saved.
fn save_unless_taken(
    slot: Result<&SaveSlot, &str>,
    app: &App,
    seeded: bool,
    owned: Option<&SavedGame>,
) -> Result<&'static str, SaveProblem> {
    let slot = slot.map_err(SaveProblem::nowhere)?;
    match slot.save_unless_taken(&saved_game(app, seeded), owned) {
        Ok(true) => Ok(SAVED),
        Ok(false) => Err(SaveProblem::in_slot(slot, TAKEN.to_string())),
        Err(e) => Err(SaveProblem::in_slot(slot, e.cause().to_string())),
    }
}

/// The game on screen as saved, `seeded` saying that it keeps no record.
fn saved_game(app: &App, seeded: bool) -> SavedGame {
    let mut no_record = app.live().no_record();
    no_record.seeded |= seeded;
    SavedGame {
        state: app.game().state(),
        no_record,
    }
}

/// Why a game could not be saved.
#[derive(Debug, PartialEq, Eq)]
struct SaveProblem {
    /// ` in FILE`, or empty when there was no file to save in.
    place: String,
    /// What went wrong, as the save key's box shows it.
    reason: String,
}

impl SaveProblem {
    /// No slot to save in, for `why`.
    fn nowhere(why: &str) -> SaveProblem {
        SaveProblem {
            place: String::new(),
            reason: why.to_string(),
        }
    }

    /// Saving in `slot` failed for `reason`.
    fn in_slot(slot: &SaveSlot, reason: String) -> SaveProblem {
        SaveProblem {
            place: format!(" in {}", slot.path().display()),
            reason,
        }
    }
}

impl fmt::Display for SaveProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "clines: the game could not be saved{}: {}",
            self.place, self.reason
        )
    }
}

/// Why a game cut short was not saved over another game's save.
const TAKEN: &str = "another game of these rules is saved there, and is kept";

/// Printed when the game was saved.
const SAVED: &str = "Game saved: the next clines with these rules goes on with it.";

/// Printed when the game could not be saved instead of its record, for the
/// record's own reason.
const SAME_REASON: &str = "clines: nor could the game be saved instead, for the same reason";

/// Printed when the game was saved because its record could not be.
const SAVED_FOR_RECORD: &str = "Game saved, since its record could not be: \
     the next clines with these rules goes on with it.";

/// What every way out of a game needs, shared with the panic hook.
#[derive(Debug)]
struct Session {
    /// The game's score and whether it was assisted, kept current.
    live: Arc<Live>,
    /// Where the record goes.
    records: RecordKeeping,
    /// Set by the first ending, so that the record is saved and the closing
    /// lines printed once even if a panic follows another ending.
    ended: AtomicBool,
}

/// The one way out of a game, after the terminal is restored: every ending,
/// a panic included, comes through here or through [`close`]. The first
/// call saves the record (only the file system is involved, so a closed
/// terminal cannot stop it) and then prints the closing lines; a failed
/// write is ignored, as the terminal may be gone (SIGHUP).
fn end_session(session: &Session, ending: Ending) -> Outcome {
    let settled = settle_record(session);
    closing_lines(session, ending, settled)
}

/// A session's record, once saved or not.
struct Settled {
    /// What to tell the player as the session ends.
    notice: Option<&'static str>,
    /// Why the record the game earned could not be saved, if so.
    lost: Option<String>,
}

/// Saves the record the first time only (`None` after), saying at once
/// what went wrong.
fn settle_record(session: &Session) -> Option<Settled> {
    if session.ended.swap(true, Ordering::SeqCst) {
        return None;
    }
    let (notice, problem) = keep_record(session);
    if let Some(problem) = &problem {
        let _ = writeln!(io::stderr(), "clines: {problem}");
    }
    let lost = problem.filter(|_| matches!(session.records, RecordKeeping::KeptIn(_)));
    Some(Settled { notice, lost })
}

/// The closing lines of a session whose record was `settled` here (none
/// when it was settled before).
fn closing_lines(session: &Session, ending: Ending, settled: Option<Settled>) -> Outcome {
    let outcome = Outcome {
        score: session.live.score(),
        ending,
        keeps_no_record: session.live.no_record().any(),
    };
    let Some(Settled { notice, .. }) = settled else {
        return outcome;
    };
    let mut out = io::stdout().lock();
    if let Some(notice) = notice {
        let _ = writeln!(out, "{notice}");
    }
    let _ = writeln!(out, "Scores earned : {}", outcome.score);
    let _ = out.flush();
    outcome
}

/// Saves the record of the game in progress when it earns one: what to
/// tell the player (a new record, or why none is kept) and what went wrong.
fn keep_record(session: &Session) -> (Option<&'static str>, Option<String>) {
    let live = &session.live;
    match &session.records {
        // Records are off for a game begun with --seed; one that scored
        // says so, as any game that scored and keeps no record does.
        RecordKeeping::Off if live.score() > 0 => (Some(SEEDED), None),
        RecordKeeping::Off => (None, None),
        RecordKeeping::Unavailable(why) => (None, Some(why.clone())),
        // Nothing to save, and no record to create at 0: no reason either.
        RecordKeeping::KeptIn(_) if live.score() == 0 => (None, None),
        RecordKeeping::KeptIn(_) if live.assisted() => (Some(ASSISTED), None),
        RecordKeeping::KeptIn(_) if live.undone() => (Some(UNDONE), None),
        RecordKeeping::KeptIn(_) if live.seeded() => (Some(SEEDED), None),
        RecordKeeping::KeptIn(store) => match store.save(live.score()) {
            Ok(saved) => (saved.message(), None),
            Err(e) => (None, Some(e.to_string())),
        },
    }
}

/// What the event loop does to the terminal besides drawing on it.
trait JobControl {
    /// Gives the terminal back and stops until continued.
    fn suspend(&mut self) -> io::Result<()>;
    /// Takes the terminal again once continued.
    fn resume(&mut self) -> io::Result<()>;
    /// The terminal's size now, if it can be told: a window resized while
    /// the game was stopped sent its SIGWINCH to the shell, not the game.
    fn size(&self) -> Option<(u16, u16)>;
}

impl JobControl for terminal::Guard {
    fn suspend(&mut self) -> io::Result<()> {
        terminal::Guard::suspend(self)
    }

    fn resume(&mut self) -> io::Result<()> {
        terminal::Guard::resume(self)
    }

    fn size(&self) -> Option<(u16, u16)> {
        crossterm::terminal::size().ok()
    }
}

/// Draws, sleeps until something happens, handles it; until the game ends.
/// `player` answers the game's requests through `receiver`; `terminal`
/// stops the process until it is continued (job control) and takes the
/// terminal again after every SIGCONT. A terminal that can no longer be
/// written or read has gone (closed, hung up): that ends the game as the
/// SIGHUP that comes with it does, whichever is noticed first. `files`
/// start the next game (the record of the one in progress saved first) and
/// save the game for the save key, which ends it only once it is saved.
fn event_loop<W: Write>(
    app: &mut App,
    receiver: &Receiver<Message>,
    player: &mut PlayerThread,
    renderer: &mut Renderer,
    out: &mut W,
    terminal: &mut dyn JobControl,
    files: &mut Files,
) -> io::Result<Ending> {
    // From a suspension until the SIGCONT that ends it, the terminal is the
    // shell's: nothing is drawn.
    let mut stopped = false;
    loop {
        let now = Instant::now();
        app.advance(now);
        match app.ending() {
            // The save key: the game ends only once it is saved; if it
            // cannot be, it goes on, and a box says why.
            Some(Ending::Saved) if !app.game().is_over() => match (files.save)(app) {
                Ok(()) => return Ok(Ending::Saved),
                Err(problem) => app.save_failed(&problem),
            },
            Some(ending) => return Ok(ending),
            None => {}
        }
        if app.take_new_game() {
            match (files.new_game)(app) {
                // Its hints are those of its own seed, as headless ones are.
                Ok(seed) => player.set_seed(seed),
                Err(problem) => app.new_game_refused(&problem),
            }
        }
        if let Some(request) = app.take_request() {
            player.ask(request)?;
        }
        if app.take_suspend() {
            if terminal.suspend().is_err() {
                return Ok(Ending::TerminalLost);
            }
            stopped = true;
        }
        if app.take_continued() {
            if terminal.resume().is_err() {
                return Ok(Ending::TerminalLost);
            }
            stopped = false;
            if let Some((cols, rows)) = terminal.size() {
                app.resize(usize::from(cols), usize::from(rows));
            }
            // The shell has used the screen meanwhile.
            renderer.invalidate();
        }
        if app.take_repaint() {
            renderer.invalidate();
        }
        if !stopped && renderer.draw(app.frame(now), app.take_bell(), out).is_err() {
            return Ok(Ending::TerminalLost);
        }
        let message = match app.deadline(now) {
            None => receiver.recv().ok(),
            Some(at) => match receiver.recv_timeout(at.saturating_duration_since(now)) {
                Ok(message) => Some(message),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => None,
            },
        };
        // Every sender gone: nothing can reach the game any more.
        let Some(message) = message else {
            return Ok(Ending::Quit);
        };
        handle(app, message)?;
        // Whatever else is waiting (a burst of resizes, typed-ahead keys)
        // is handled before the next frame, so a burst draws once.
        while let Ok(message) = receiver.try_recv() {
            handle(app, message)?;
        }
    }
}

/// What the event loop asks of the files around the game.
struct Files<'a> {
    /// Puts a new game in place of the one on screen, whose record is kept
    /// and whose save, if it went on from one, goes; returns its seed, or
    /// why the game on screen stays (its record could not be saved).
    new_game: &'a mut dyn FnMut(&mut App) -> Result<u64, String>,
    /// Saves the game on screen to go on with later; what went wrong if it
    /// could not.
    save: &'a mut dyn FnMut(&App) -> Result<(), String>,
}

/// Applies one message from the sources to the game.
fn handle(app: &mut App, message: Message) -> io::Result<()> {
    match message {
        Message::Input(crossterm::event::Event::Resize(cols, rows)) => {
            // A crash in mid-game, when a test asks for one.
            #[cfg(debug_assertions)]
            crate::runtime::panic_if_asked("resize");
            app.resize(usize::from(cols), usize::from(rows));
        }
        Message::Input(event) => {
            if let Some(action) = action_for(&event, app.keys()) {
                app.act(action, Instant::now());
            }
        }
        // Reading fails when the terminal has gone away, racing the SIGHUP
        // that closing it also sends: both end the game the same way.
        Message::InputFailed => app.end(Ending::TerminalLost),
        Message::Signal(signal) => app.end(Ending::Signal(signal)),
        Message::Suspend => app.act(Action::Suspend, Instant::now()),
        Message::Continued => app.continued(),
        Message::Suggestion(suggestion) => app.suggested(suggestion, Instant::now()),
        Message::PlayerFailed => return Err(io::Error::other("the built-in player failed")),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    use std::sync::mpsc::Sender;

    /// A terminal stand-in: keeps each flushed frame, and after the
    /// frame numbered in `script` feeds the loop that entry's messages.
    struct Screen {
        pending: Vec<u8>,
        frames: Vec<Vec<u8>>,
        sender: Sender<Message>,
        script: Vec<(usize, Vec<Message>)>,
        /// Once this many frames are drawn, writing fails as on a terminal
        /// that has gone.
        gone_after: Option<usize>,
    }

    impl Write for Screen {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            if self.gone_after == Some(self.frames.len()) {
                return Err(io::Error::from_raw_os_error(libc::EIO));
            }
            self.pending.extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            self.frames.push(std::mem::take(&mut self.pending));
            let count = self.frames.len();
            for (after, messages) in &mut self.script {
                if *after == count {
                    for message in messages.drain(..) {
                        self.sender.send(message).unwrap();
                    }
                }
            }
            Ok(())
        }
    }

    fn app(cols: usize, rows: usize) -> App {
        let appearance = Appearance::for_colors(5);
        let (game, opening) = Game::new(Rules::default(), 3);
        App::new(
            game,
            opening,
            view::Style::new(&appearance, 5, true),
            appearance.keys,
            None,
            (cols, rows),
            Instant::now(),
        )
    }

    /// A shell's job control stand-in: counts suspensions and, like `fg`,
    /// continues the process at once (the SIGCONT message).
    struct Shell {
        sender: Sender<Message>,
        suspends: usize,
        /// The terminal's size after a stop, if the window was resized
        /// meanwhile (while the shell had the terminal, which then got the
        /// SIGWINCH).
        size_after_stop: Option<(u16, u16)>,
    }

    impl JobControl for Shell {
        fn suspend(&mut self) -> io::Result<()> {
            self.suspends += 1;
            self.sender.send(Message::Continued).unwrap();
            Ok(())
        }

        fn resume(&mut self) -> io::Result<()> {
            Ok(())
        }

        fn size(&self) -> Option<(u16, u16)> {
            self.size_after_stop
        }
    }

    /// Runs the loop on `script`: how it ended, the frames, the suspensions.
    fn run_script(
        app: &mut App,
        script: Vec<(usize, Vec<Message>)>,
    ) -> (io::Result<Ending>, Vec<Vec<u8>>, usize) {
        run_on(app, script, None)
    }

    /// [`run_script`] on a terminal that goes away after `gone_after`
    /// frames, if given.
    fn run_on(
        app: &mut App,
        script: Vec<(usize, Vec<Message>)>,
        gone_after: Option<usize>,
    ) -> (io::Result<Ending>, Vec<Vec<u8>>, usize) {
        let (ending, frames, suspends, _) = run_counting(app, script, gone_after);
        (ending, frames, suspends)
    }

    /// [`run_on`], also counting the new games started (each the default
    /// rules' game with seed 4).
    fn run_counting(
        app: &mut App,
        script: Vec<(usize, Vec<Message>)>,
        gone_after: Option<usize>,
    ) -> (io::Result<Ending>, Vec<Vec<u8>>, usize, usize) {
        run_in_shell(app, script, gone_after, None)
    }

    /// [`run_counting`] in a window resized to `size_after_stop` (if given)
    /// while the game was stopped.
    fn run_in_shell(
        app: &mut App,
        script: Vec<(usize, Vec<Message>)>,
        gone_after: Option<usize>,
        size_after_stop: Option<(u16, u16)>,
    ) -> (io::Result<Ending>, Vec<Vec<u8>>, usize, usize) {
        run_saving(app, script, gone_after, size_after_stop, &mut |_| Ok(()))
    }

    /// [`run_in_shell`], the save key saving with `save`.
    fn run_saving(
        app: &mut App,
        script: Vec<(usize, Vec<Message>)>,
        gone_after: Option<usize>,
        size_after_stop: Option<(u16, u16)>,
        save: &mut dyn FnMut(&App) -> Result<(), String>,
    ) -> (io::Result<Ending>, Vec<Vec<u8>>, usize, usize) {
        let (sender, receiver) = mpsc::channel();
        let mut player = PlayerThread::new(Rules::default(), 3, sender.clone());
        let mut shell = Shell {
            sender: sender.clone(),
            suspends: 0,
            size_after_stop,
        };
        let mut screen = Screen {
            pending: Vec::new(),
            frames: Vec::new(),
            sender,
            script,
            gone_after,
        };
        let mut new_games = 0;
        let ending = event_loop(
            app,
            &receiver,
            &mut player,
            &mut Renderer::new(true),
            &mut screen,
            &mut shell,
            &mut Files {
                new_game: &mut |app: &mut App| {
                    new_games += 1;
                    let (game, opening) = Game::new(Rules::default(), 4);
                    app.restart(game, opening, None, Instant::now());
                    Ok(4)
                },
                save,
            },
        );
        (ending, screen.frames, shell.suspends, new_games)
    }

    fn count(haystack: &[u8], needle: &[u8]) -> usize {
        haystack
            .windows(needle.len())
            .filter(|w| *w == needle)
            .count()
    }

    #[test]
    fn resize_burst_draws_once_then_signal_ends() {
        let mut app = app(100, 50);
        let resize = |c, r| Message::Input(Event::Resize(c, r));
        let script = vec![
            (1, vec![resize(60, 20), resize(70, 25), resize(40, 30)]),
            (2, vec![Message::Signal(signal_hook::consts::SIGTERM)]),
        ];
        let (ending, frames, _) = run_script(&mut app, script);
        assert_eq!(
            ending.unwrap(),
            Ending::Signal(signal_hook::consts::SIGTERM)
        );
        assert_eq!(frames.len(), 2);
        assert_eq!(count(&frames[1], b"\x1b[2J"), 1);
        // Only the last size was drawn: mini mode, 2 x 2 interiors.
        let mut parser = vt100::Parser::new(
            std::num::NonZeroU16::new(30).unwrap(),
            std::num::NonZeroU16::new(40).unwrap(),
            0,
        );
        parser.process(&frames[1]);
        let rows: Vec<String> = parser.screen().rows(0, 40).collect();
        assert_eq!(rows[0], format!("|{}|", "-".repeat(26)));
        assert_eq!(rows[1], format!("|II{}|", "|  ".repeat(8)));
    }

    #[test]
    fn a_window_resized_while_stopped_is_drawn_at_its_new_size() {
        let mut app = app(100, 50);
        let ctrl_z = Message::Input(Event::Key(KeyEvent::new(
            KeyCode::Char('z'),
            KeyModifiers::CONTROL,
        )));
        let script = vec![
            (1, vec![ctrl_z]),
            (2, vec![Message::Signal(signal_hook::consts::SIGTERM)]),
        ];
        let (_, frames, suspends, _) = run_in_shell(&mut app, script, None, Some((20, 8)));
        assert_eq!((suspends, frames.len()), (1, 2));
        let mut parser = vt100::Parser::new(
            std::num::NonZeroU16::new(8).unwrap(),
            std::num::NonZeroU16::new(20).unwrap(),
            0,
        );
        parser.process(&frames[1]);
        let text = parser.screen().contents().replace('\n', "");
        assert!(text.contains("Please resize the window again"), "{text:?}");
    }

    #[test]
    fn quit_key_and_typed_ahead_keys() {
        let mut app = app(100, 50);
        let key = |ch| {
            Message::Input(Event::Key(KeyEvent::new(
                KeyCode::Char(ch),
                KeyModifiers::NONE,
            )))
        };
        let script = vec![(1, vec![key('l'), key('j'), key('q')])];
        let (ending, frames, _) = run_script(&mut app, script);
        assert_eq!(ending.unwrap(), Ending::Quit);
        // The quit came in the same burst: no frame was drawn for the moves.
        assert_eq!(frames.len(), 1);
    }

    #[test]
    fn suspend_then_repaint_everything() {
        let mut app = app(100, 50);
        let ctrl_z = Message::Input(Event::Key(KeyEvent::new(
            KeyCode::Char('z'),
            KeyModifiers::CONTROL,
        )));
        let script = vec![
            (1, vec![ctrl_z]),
            (2, vec![Message::Suspend]),
            (3, vec![Message::Signal(signal_hook::consts::SIGHUP)]),
        ];
        let (ending, frames, suspends) = run_script(&mut app, script);
        assert_eq!(ending.unwrap(), Ending::Signal(signal_hook::consts::SIGHUP));
        assert_eq!(suspends, 2);
        assert_eq!(frames.len(), 3);
        assert_eq!(frames[1], frames[0]);
        assert_eq!(frames[2], frames[0]);
    }

    fn session(score: u64, records: RecordKeeping) -> Session {
        let live = Arc::new(Live::default());
        live.set_score(score);
        Session {
            live,
            records,
            ended: AtomicBool::new(false),
        }
    }

    /// `n` over a game whose record cannot be saved: refused while the
    /// game goes on, whose score would be lost; told once it is over, as
    /// its score is lost however it ends. Records off stop nothing.
    #[test]
    fn a_new_game_waits_for_the_record_of_one_not_over() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("me.toml"), "score = \"lots\"\n").unwrap();
        let store = Store::new(dir.path(), "me").unwrap();
        let damaged = session(40, RecordKeeping::KeptIn(store));
        let refused = record_before_new_game(&damaged, false).unwrap_err();
        assert!(
            refused.starts_with("the record could not be saved: "),
            "{refused}"
        );
        let told = record_before_new_game(&damaged, true).unwrap();
        assert_eq!(told.as_deref(), Some(refused.as_str()));
        let off = session(40, RecordKeeping::Unavailable("no home".into()));
        assert_eq!(record_before_new_game(&off, false), Ok(None));
        let mut next = app(100, 50);
        next.record_lost_at_game_over(&refused);
        let frame = next.frame(Instant::now());
        let shown: String = (0..frame.rows())
            .flat_map(|r| (0..frame.cols()).map(move |c| (r, c)))
            .map(|(r, c)| frame.get(r, c).ch)
            .collect();
        assert!(
            shown.contains("The last game's record could not be saved:"),
            "{shown}"
        );
    }

    fn stored(dir: &std::path::Path) -> Option<u64> {
        Store::new(dir, "me")
            .unwrap()
            .load()
            .unwrap()
            .map(|r| r.score)
    }

    #[test]
    fn the_new_game_key_at_no_score_starts_the_next_game_at_once() {
        let mut app = app(100, 50);
        let key = |ch| {
            Message::Input(Event::Key(KeyEvent::new(
                KeyCode::Char(ch),
                KeyModifiers::NONE,
            )))
        };
        let script = vec![(1, vec![key('n')]), (2, vec![key('q')])];
        let (ending, frames, _, new_games) = run_counting(&mut app, script, None);
        assert_eq!(ending.unwrap(), Ending::Quit);
        assert_eq!(new_games, 1);
        // Seeds 3 and 4 open differently.
        assert_ne!(frames[1], Vec::<u8>::new());
    }

    #[test]
    fn a_failed_player_is_an_error() {
        let mut app = app(100, 50);
        let (ending, _, _) = run_script(&mut app, vec![(1, vec![Message::PlayerFailed])]);
        assert_eq!(
            ending.unwrap_err().to_string(),
            "the built-in player failed"
        );
    }

    #[test]
    fn the_first_ending_saves_once() {
        let dir = tempfile::tempdir().unwrap();
        let session = session(
            30,
            RecordKeeping::KeptIn(Store::new(dir.path(), "me").unwrap()),
        );
        let outcome = end_session(&session, Ending::Signal(signal_hook::consts::SIGHUP));
        assert_eq!(
            outcome,
            Outcome {
                score: 30,
                ending: Ending::Signal(signal_hook::consts::SIGHUP),
                keeps_no_record: false,
            }
        );
        assert_eq!(stored(dir.path()), Some(30));
        // A panic after the ending (in the hook) must not save again.
        session.live.set_score(50);
        assert_eq!(end_session(&session, Ending::Panic).score, 50);
        assert_eq!(stored(dir.path()), Some(30));
    }

    #[test]
    fn nothing_saved_without_points_or_with_records_off() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), "me").unwrap();
        end_session(&session(0, RecordKeeping::KeptIn(store)), Ending::Quit);
        end_session(&session(40, RecordKeeping::Off), Ending::Quit);
        end_session(
            &session(40, RecordKeeping::Unavailable("off".into())),
            Ending::Quit,
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_failed_write_ends_the_game_like_a_hang_up() {
        let mut app = app(100, 50);
        let ctrl_l = Message::Input(Event::Key(KeyEvent::new(
            KeyCode::Char('l'),
            KeyModifiers::CONTROL,
        )));
        // The first frame is drawn, the repaint's write fails.
        let (ending, frames, _) = run_on(&mut app, vec![(1, vec![ctrl_l])], Some(1));
        assert_eq!(ending.unwrap(), Ending::TerminalLost);
        assert_eq!(frames.len(), 1);
    }

    #[test]
    fn continued_from_outside_takes_the_terminal_and_repaints() {
        let mut app = app(100, 50);
        let script = vec![
            (1, vec![Message::Continued]),
            (2, vec![Message::Signal(signal_hook::consts::SIGTERM)]),
        ];
        let (ending, frames, suspends) = run_script(&mut app, script);
        assert_eq!(
            ending.unwrap(),
            Ending::Signal(signal_hook::consts::SIGTERM)
        );
        assert_eq!(suspends, 0);
        assert_eq!(frames.len(), 2);
        assert_eq!(frames[1], frames[0], "a full repaint");
    }

    #[test]
    fn nothing_saved_after_an_undo_or_a_hint() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), "me").unwrap();
        let undone = session(40, RecordKeeping::KeptIn(store.clone()));
        undone.live.mark_undone();
        assert_eq!(keep_record(&undone), (Some(UNDONE), None));
        let outcome = end_session(&undone, Ending::Quit);
        assert!(outcome.keeps_no_record);
        let helped = session(40, RecordKeeping::KeptIn(store.clone()));
        helped.live.mark_assisted();
        assert_eq!(keep_record(&helped), (Some(ASSISTED), None));
        let seeded = session(40, RecordKeeping::KeptIn(store.clone()));
        seeded.live.mark_seeded();
        assert_eq!(keep_record(&seeded), (Some(SEEDED), None));
        assert!(end_session(&seeded, Ending::Quit).keeps_no_record);
        assert_eq!(stored(dir.path()), None);
        // Begun with --seed, records are off: a score says why it is not
        // kept, and no score needs no word.
        let off = session(40, RecordKeeping::Off);
        assert_eq!(keep_record(&off), (Some(SEEDED), None));
        assert_eq!(keep_record(&session(0, RecordKeeping::Off)), (None, None));
        // Nor does any other reason at 0, as with --seed.
        for mark in [Live::mark_assisted as fn(&Live), Live::mark_undone] {
            let nothing = session(0, RecordKeeping::KeptIn(store.clone()));
            mark(&nothing.live);
            assert_eq!(keep_record(&nothing), (None, None));
        }
    }

    #[test]
    fn a_saved_game_goes_on_keeping_no_record_for_the_same_reason() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), "me").unwrap();
        let slot = SaveSlot::new(&store, Rules::default(), Preview::Off).unwrap();
        let marks = [
            (Live::mark_assisted as fn(&Live), ASSISTED),
            (Live::mark_undone, UNDONE),
            (Live::mark_seeded, SEEDED),
        ];
        for (mark, says) in marks {
            let played = app(100, 50);
            mark(&played.live());
            assert_eq!(save_game(Ok(&slot), &played, false), Ok(SAVED));
            let saved = slot.load().unwrap().expect("the save");
            let resumed = app(100, 50).resumed(saved.no_record);
            let session = Session {
                live: resumed.live(),
                records: RecordKeeping::KeptIn(store.clone()),
                ended: AtomicBool::new(false),
            };
            session.live.set_score(40);
            assert_eq!(keep_record(&session), (Some(says), None));
        }
        // Seeded in this session (records off), then resumed without it.
        save_game(Ok(&slot), &app(100, 50), true).unwrap();
        let saved = slot.load().unwrap().expect("the save");
        assert_eq!(
            saved.no_record,
            crate::records::NoRecord {
                seeded: true,
                ..Default::default()
            }
        );
        assert_eq!(stored(dir.path()), None);
    }

    /// A game whose record could not be saved is saved in its place, so
    /// that its score is not lost, but never over another session's save;
    /// a game over goes, as its save would replay throws already seen.
    #[test]
    fn a_game_whose_record_is_lost_is_saved_instead_unless_the_slot_is_taken() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), "me").unwrap();
        let slot = SaveSlot::new(&store, Rules::default(), Preview::Off).unwrap();
        let problem = "the record could not be saved: the disk is full";
        let playing = app(100, 50);
        let end = |app: &App, ending, owned| {
            game_kept(Ok(&slot), app, ending, false, owned, Some(problem))
        };
        for ending in [Ending::Quit, Ending::Signal(signal_hook::consts::SIGTERM)] {
            assert_eq!(
                end(&playing, ending, None),
                Ok(Some(SAVED_FOR_RECORD)),
                "{ending:?}"
            );
            let saved = slot.load().unwrap().expect("the game saved");
            assert_eq!(saved.state, playing.game().state());
            slot.remove_if_unchanged(&saved).unwrap();
        }
        // Another session's save stays, and that is told.
        let other = app(100, 50);
        other.live().mark_assisted();
        save_game(Ok(&slot), &other, false).unwrap();
        let theirs = slot.load().unwrap().expect("the other save");
        let kept = end(&playing, Ending::Quit, None).unwrap_err();
        assert!(
            kept.contains("another game of these rules is saved in"),
            "{kept}"
        );
        assert_eq!(slot.load().unwrap().as_ref(), Some(&theirs));
        // The save it went on from, unchanged, it replaces.
        assert_eq!(
            end(&playing, Ending::Quit, Some(&theirs)),
            Ok(Some(SAVED_FOR_RECORD))
        );
        let ours = slot.load().unwrap().expect("the game saved");
        assert_eq!(ours.state, playing.game().state());
        // No slot, for the record's own reason: said briefly.
        assert_eq!(
            game_kept(
                Err("the disk is full"),
                &playing,
                Ending::Quit,
                false,
                None,
                Some(problem)
            ),
            Err(SAME_REASON.to_string())
        );
        // The closed terminal's save does not replace another session's
        // either, when the record was lost; nor does one that went on from
        // a save that another session has replaced since.
        save_game(Ok(&slot), &other, false).unwrap();
        for ending in [Ending::Signal(signal_hook::consts::SIGHUP), Ending::Quit] {
            assert!(end(&playing, ending, Some(&ours)).is_err(), "{ending:?}");
            assert_eq!(slot.load().unwrap().as_ref(), Some(&theirs));
        }
        save_game(Ok(&slot), &playing, false).unwrap();
        // Over: its own save goes.
        let rules = Rules {
            width: 3,
            height: 1,
            ..Rules::default()
        };
        let (full, opening) = Game::new(rules, 3);
        assert!(full.is_over());
        let appearance = Appearance::for_colors(5);
        let over = App::new(
            full,
            opening,
            view::Style::new(&appearance, 5, true),
            appearance.keys,
            None,
            (100, 50),
            Instant::now(),
        );
        assert_eq!(end(&over, Ending::Quit, Some(&ours)), Ok(None));
        assert_eq!(slot.load().unwrap(), None, "a game over leaves no save");
    }

    #[test]
    fn a_game_cut_short_is_saved_over_no_other_game() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), "me").unwrap();
        let slot = SaveSlot::new(&store, Rules::default(), Preview::Off).unwrap();
        let playing = app(100, 50);
        let other = app(100, 50);
        other.live().mark_assisted();
        let closed = |ending, owned| game_kept(Ok(&slot), &playing, ending, false, owned, None);
        let ours = SavedGame {
            state: playing.game().state(),
            no_record: playing.live().no_record(),
        };
        save_game(Ok(&slot), &other, false).unwrap();
        let theirs = slot.load().unwrap().expect("the other save");
        for ending in [
            Ending::TerminalLost,
            Ending::Signal(signal_hook::consts::SIGHUP),
            Ending::Signal(signal_hook::consts::SIGTERM),
        ] {
            // Into an empty slot, or over the save it went on from.
            let _ = std::fs::remove_file(slot.path());
            assert_eq!(closed(ending, None), Ok(Some(SAVED)), "{ending:?}");
            assert_eq!(slot.load().unwrap().as_ref(), Some(&ours));
            save_game(Ok(&slot), &other, false).unwrap();
            assert_eq!(closed(ending, Some(&theirs)), Ok(Some(SAVED)));
            assert_eq!(slot.load().unwrap().as_ref(), Some(&ours));
            // Not over a game kept with --new, nor over one that another
            // session saved after this one went on from its save.
            save_game(Ok(&slot), &other, false).unwrap();
            for owned in [None, Some(&ours)] {
                let refused = closed(ending, owned).unwrap_err();
                assert!(refused.contains(TAKEN), "{refused}");
                assert_eq!(slot.load().unwrap().as_ref(), Some(&theirs));
            }
        }
    }

    #[test]
    fn a_game_ending_removes_only_the_save_it_went_on_from() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), "me").unwrap();
        let slot = SaveSlot::new(&store, Rules::default(), Preview::Off).unwrap();
        let quit = |owned| game_kept(Ok(&slot), &app(100, 50), Ending::Quit, false, owned, None);
        // A game that went on from no save leaves another game's.
        save_game(Ok(&slot), &app(100, 50), false).unwrap();
        let ours = slot.load().unwrap().expect("the save");
        assert_eq!(quit(None), Ok(None));
        assert_eq!(slot.load().unwrap().as_ref(), Some(&ours));
        // One that went on from it leaves it too once another game has
        // saved over it.
        let other = app(100, 50);
        other.live().mark_assisted();
        save_game(Ok(&slot), &other, false).unwrap();
        let theirs = slot.load().unwrap().expect("the other save");
        assert_ne!(theirs, ours);
        assert_eq!(quit(Some(&ours)), Ok(None));
        assert_eq!(slot.load().unwrap().as_ref(), Some(&theirs));
        // Its own save, unchanged, goes.
        assert_eq!(quit(Some(&theirs)), Ok(None));
        assert_eq!(slot.load().unwrap(), None, "its own save goes");
    }

    #[test]
    fn a_game_left_with_nowhere_to_save_it_says_why() {
        let app = app(100, 50);
        let why = "no directory for records: CLINES_SCORE_DIR=\"rel\": relative";
        let nowhere = format!("clines: the game could not be saved: {why}");
        for ending in [
            Ending::TerminalLost,
            Ending::Signal(signal_hook::consts::SIGHUP),
            Ending::Signal(signal_hook::consts::SIGTERM),
        ] {
            assert_eq!(
                game_kept(Err(why), &app, ending, false, None, None),
                Err(nowhere.clone())
            );
        }
        assert_eq!(
            game_kept(Err(why), &app, Ending::Quit, false, None, None),
            Ok(None)
        );
        assert_eq!(save_game(Err(why), &app, false).unwrap_err().reason, why);
    }

    /// The save key's game is saved by the loop before it ends; where that
    /// fails, the game goes on, and a box says why.
    #[test]
    fn the_save_key_ends_the_game_only_once_it_is_saved() {
        let key = |c| {
            Message::Input(Event::Key(KeyEvent::new(
                KeyCode::Char(c),
                KeyModifiers::NONE,
            )))
        };
        let mut app = app(100, 50);
        let mut tries = 0;
        // The second frame is the box: one q closes it, one quits.
        let script = vec![(1, vec![key('s')]), (2, vec![key('q'), key('q')])];
        let (ending, frames, _, _) = run_saving(&mut app, script, None, None, &mut |_| {
            tries += 1;
            Err("the disk is full".to_string())
        });
        // The save failed: the box showed why, and q (which closed it) did
        // not end the game; the q after it did.
        assert_eq!(tries, 1);
        let shown = String::from_utf8_lossy(&frames.concat()).into_owned();
        assert!(shown.contains("The game could not be saved:"), "{shown}");
        assert!(shown.contains("The disk is full"), "{shown}");
        assert_eq!(ending.unwrap(), Ending::Quit);
    }

    #[test]
    fn input_failure_ends_the_game_like_a_hang_up() {
        let mut app = app(100, 50);
        let (ending, _, _) = run_script(&mut app, vec![(1, vec![Message::InputFailed])]);
        assert_eq!(ending.unwrap(), Ending::TerminalLost);
    }
}
