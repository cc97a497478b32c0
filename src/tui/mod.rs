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
//! between, or, after a panic, through `end_session` (both in `session`,
//! with the rest of the record and save policy).

mod animation;
mod app;
mod event;
mod frame;
mod help;
mod input;
mod layout;
mod live;
mod offscreen;
mod player;
mod session;
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
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

use crate::cli::{Appearance, Warning};
use crate::game::{Game, Preview, Rules};
use crate::records::{LockWait, NoRecord, SaveSlot, SavedGame, Store};

use app::{App, Stop};
use event::{Foreground, InputSlot, Message, Part};
use frame::Renderer;
pub use help::lines as help_lines;
pub use offscreen::Offscreen;

use input::actions_for;
use layout::Layout;
use player::PlayerThread;
use session::{
    Owned, RecordProblem, Session, close, end_session, record_before_new_game, save_game, slot_of,
};
use sys::SignalSet;

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
    /// A thread of the game panicked, a bug: the game ended as on a closed
    /// terminal, saved, and the panic was reported.
    Panicked(Part),
}

/// The game loop's error when one of its threads panicked, told apart from
/// the terminal's errors by its type.
#[derive(Debug)]
struct Panicked(Part);

impl fmt::Display for Panicked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            Part::Player => "the built-in player failed",
            Part::Input => "reading the keys failed",
        })
    }
}

impl std::error::Error for Panicked {}

impl Error {
    /// The error that ended the game loop, as the program tells it.
    fn of_loop(e: io::Error) -> Error {
        match e
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<Panicked>())
        {
            Some(Panicked(part)) => Error::Panicked(*part),
            None => Error::Io(e),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::TooSmall(message) | Error::Unusable(message) => f.write_str(message),
            Error::Io(e) => write!(f, "terminal: {e}"),
            Error::Thread(e) => write!(f, "cannot start the game's signal or input handling: {e}"),
            Error::Panicked(part) => Panicked(*part).fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::TooSmall(_) | Error::Unusable(_) | Error::Panicked(_) => None,
            Error::Io(e) | Error::Thread(e) => Some(e),
        }
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Error {
        Error::Io(e)
    }
}

/// Plays in the terminal, game after game as the new-game key asks, until
/// the player quits, a signal arrives or a game is over and a key ends it.
/// The terminal is restored on every path, then the record is saved (see
/// [`RecordKeeping`]) and the closing lines printed: the games left for a
/// new one, what became of the record, then `Scores earned : N`.
/// A place the game cannot be drawn on (see [`Error::Unusable`]) or a
/// terminal too small for the board is reported before any terminal mode
/// changes, and nothing is saved or printed then.
pub fn run(config: PlayConfig) -> Result<Outcome, Error> {
    let (cols, rows) = starting_size(&config)?;
    let rules = config.rules;
    let color = view::use_color(config.appearance.mode);
    let (mut app, went_on_from) = first_game(&config, color, (cols, rows));
    let session = Arc::new(Session::start(&config, app.live(), went_on_from.is_some()));
    let for_panic = Arc::clone(&session);
    let reading = Arc::new(InputSlot::default());
    let stop_reading = Arc::clone(&reading);
    terminal::install_panic_hook(
        move || stop_reading.stop(),
        move || {
            end_session(&for_panic, Ending::Panic);
        },
    );
    let (sender, receiver) = mpsc::channel();
    let signals = event::spawn_signals(sender.clone()).map_err(Error::Thread)?;
    let terminal = terminal::Guard::enter_in_the_foreground()?;
    let foreground = Arc::new(Foreground::default());
    let mut job = Job {
        terminal,
        signals,
        foreground: Arc::clone(&foreground),
    };
    #[cfg(debug_assertions)]
    crate::runtime::panic_if_asked("game");
    // Frames go straight to the terminal, one write each, bypassing the
    // line buffering of `Stdout`.
    let mut out = File::from(io::stdout().as_fd().try_clone_to_owned()?);
    let mut player = PlayerThread::new(rules, config.seed, sender.clone());
    let hangup = event::spawn_hangup_watch(sender.clone()).map_err(Error::Thread)?;
    reading.hold(event::spawn_input(sender, foreground).map_err(Error::Thread)?);
    catch_up_with_a_resize(&mut app, &job, (cols, rows));
    let mut renderer = renderer_for_terminal(color);
    let mut seed = config.seed;
    // The save the game went on from: only that save is its own, to remove
    // when it ends. Another game of the same rules, in another terminal,
    // may have saved over it since.
    let owned = RefCell::new(Owned {
        on_screen: went_on_from.is_some(),
        save: went_on_from,
    });
    let mut new_game = |app: &mut App| {
        let lost = record_before_new_game(&session, app.game().is_over())?;
        seed = seed.wrapping_add(1);
        let save = owned.take().save;
        let left = next_game(app, &config, &session, save, seed, lost.as_ref());
        owned.replace(Owned {
            save: left,
            on_screen: false,
        });
        if let Some(problem) = lost {
            app.record_lost_at_game_over(&problem.why);
        }
        Ok(seed)
    };
    let mut save = |app: &App| save_game(slot_of(&config), app).map_err(|problem| problem.reason);
    let result = event_loop(
        &mut app,
        &receiver,
        &mut player,
        &mut renderer,
        &mut out,
        &mut job,
        &mut SessionHooks {
            new_game: &mut new_game,
            save: &mut save,
        },
    );
    reading.stop();
    hangup.stop();
    drop(job);
    let owned = owned.take();
    // Ended in the background (`kill %1`), the game still finishes: its
    // closing lines go through even under `stty tostop`, rather than stop
    // it until `fg`.
    sys::with_sigttou_blocked(|| close(&config, &app, &session, result, &owned))
}

/// Fits `app` to the terminal if it was resized since its size (`was`) was
/// read, before the game listened for resizes: that resize sent no event.
fn catch_up_with_a_resize(app: &mut App, job: &Job, was: (usize, usize)) {
    let now = job.size().map(|(c, r)| (usize::from(c), usize::from(r)));
    if let Some((c, r)) = now.filter(|&size| size != was) {
        app.resize(c, r);
    }
}

/// The terminal's size before play, once it is known to be a terminal the
/// game can draw on and large enough for the board.
fn starting_size(config: &PlayConfig) -> Result<(usize, usize), Error> {
    check_terminal()?;
    let (cols, rows) = crossterm::terminal::size()?;
    let (cols, rows) = (usize::from(cols), usize::from(rows));
    let rules = config.rules;
    let shape = config.appearance.cells;
    if let Err(too_small) = Layout::fit(shape, cols, rows, rules.width, rules.height) {
        // The first size that is short, as the original says.
        return Err(Error::TooSmall(too_small.lines[0].clone()));
    }
    Ok((cols, rows))
}

/// Puts the game of `seed` in place of the one on screen, whose record is
/// saved ([`record_before_new_game`]), or `lost`; the save it went on from
/// (`owned`), if still there, goes, without waiting again for a lock that
/// kept the record out. That save when it could not go: still the
/// session's, to remove as it ends (or to save the new game over), so that
/// no later game goes on with throws already seen.
fn next_game(
    app: &mut App,
    config: &PlayConfig,
    session: &Session,
    owned: Option<SavedGame>,
    seed: u64,
    lost: Option<&RecordProblem>,
) -> Option<SavedGame> {
    let left = match (&config.saves, owned) {
        (Ok(slot), Some(owned)) => {
            let wait = lost.map_or(LockWait::Usual, |lost| lost.lock_wait_in(slot.dir()));
            slot.remove_if_unchanged(&owned, wait).err().map(|_| owned)
        }
        _ => None,
    };
    let (game, opening) = Game::with_preview(config.rules, config.preview, seed);
    let records = board_records(&session.records).filter(|_| config.new_games_keep_records);
    app.restart(game, opening, records, Instant::now());
    if !config.new_games_keep_records {
        app.live().mark_seeded();
    }
    left
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
    let resumed = match &config.saves {
        Ok(slot) if config.resume => slot.load().unwrap_or_else(|bad| {
            // Before the screen changes, so that it is still there after
            // the game; a box says it meanwhile.
            let _ = writeln!(io::stderr(), "clines: {bad}");
            not_resumed = Some(bad.what_became());
            None
        }),
        _ => None,
    };
    let (game, opening, saved) = match resumed {
        Some((saved, game)) => (game, Vec::new(), Some(saved)),
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
    // Said at the end too; a game saved when it was cut short goes on
    // without a key pressed, and its player should know before playing
    // on for a record.
    if let Some(why) = saved
        .as_ref()
        .and_then(|saved| goes_on_unrecorded(saved.no_record))
    {
        warnings.push(why);
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

/// What the box before play says of a saved game that goes on keeping no
/// record, for the reason the game's end gives first; `None` for one that
/// keeps its record.
fn goes_on_unrecorded(no_record: NoRecord) -> Option<&'static str> {
    if no_record.helped {
        Some("The saved game goes on keeping no record: the built-in player helped in it.")
    } else if no_record.undone {
        Some("The saved game goes on keeping no record: a move was taken back in it.")
    } else if no_record.seeded {
        Some("The saved game goes on keeping no record: it was started with --seed.")
    } else {
        None
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

/// What the event loop does to the terminal besides drawing on it.
trait JobControl {
    /// Gives the terminal back and stops until continued.
    fn suspend(&mut self) -> io::Result<()>;
    /// Whether a shell with job control runs the game as a job, and so
    /// can continue it once stopped.
    fn in_a_job(&self) -> bool;
    /// Whether the game's process group has the terminal (see
    /// [`sys::in_foreground`]).
    fn in_foreground(&self) -> bool;
    /// Whether a signal has been sent that the loop has not been told of
    /// yet, nor will be before the signal thread takes it.
    fn signal_pending(&self) -> bool;
    /// Takes the terminal again once continued.
    fn resume(&mut self) -> io::Result<()>;
    /// The terminal's size now, if it can be told: a window resized while
    /// the game was stopped sent its SIGWINCH to the shell, not the game.
    fn size(&self) -> Option<(u16, u16)>;
}

/// The game's job control: the terminal in the game's modes, the signals
/// that reach the game, and the input thread's wait for the terminal.
struct Job {
    terminal: terminal::Guard,
    signals: Arc<SignalSet>,
    foreground: Arc<Foreground>,
}

impl JobControl for Job {
    fn suspend(&mut self) -> io::Result<()> {
        self.terminal.suspend()
    }

    fn in_a_job(&self) -> bool {
        sys::in_a_job()
    }

    fn in_foreground(&self) -> bool {
        sys::in_foreground()
    }

    fn signal_pending(&self) -> bool {
        self.signals.any_pending()
    }

    fn resume(&mut self) -> io::Result<()> {
        self.terminal.resume()?;
        self.foreground.take();
        Ok(())
    }

    fn size(&self) -> Option<(u16, u16)> {
        crossterm::terminal::size().ok()
    }
}

/// What the event loop does next, once [`job_control`] has done its part.
enum Pass {
    /// Draw the frame, then wait for the next message.
    Draw,
    /// Wait for the next message without drawing: the terminal is not the
    /// game's.
    Wait,
    /// Go round again: the game has been stopped, or a message handled.
    Again,
    /// End the game.
    Ended(Ending),
}

/// The loop's job control: stops the game when asked to (Ctrl-Z, SIGTSTP),
/// and takes the terminal again once the game is continued in the
/// foreground. `stopped` says whether the game has been stopped since it
/// last had the terminal.
///
/// Continued in the background (`bg`, or the SIGCONT that `kill %1` sends
/// after its SIGTERM), the game leaves the terminal to the shell: taking it
/// would stop the game inside the call (SIGTTOU), again after every
/// SIGCONT, where no signal could end it. It stops again once the signals
/// sent with the SIGCONT are handled. The signal thread takes pending
/// signals lowest-numbered first, each sent to the channel before the next
/// is taken: with none pending, all but the last taken are in the channel.
/// Only one numbered above SIGCONT, sent with it, can still be on its way,
/// to be handled at the next SIGCONT.
fn job_control(
    app: &mut App,
    receiver: &Receiver<Message>,
    terminal: &mut dyn JobControl,
    renderer: &mut Renderer,
    stopped: &mut bool,
) -> io::Result<Pass> {
    match app.take_suspend() {
        // Stopped, a game that no shell runs as a job would stay
        // stopped; the one who sent SIGTSTP can continue it.
        Some(Stop::Key) if !terminal.in_a_job() => app.cannot_stop(),
        Some(_) => {
            if terminal.suspend().is_err() {
                return Ok(Pass::Ended(Ending::TerminalLost));
            }
            *stopped = true;
        }
        None => {}
    }
    let foreground = terminal.in_foreground();
    if app.take_continued() && foreground {
        if terminal.resume().is_err() {
            return Ok(Pass::Ended(Ending::TerminalLost));
        }
        *stopped = false;
        if let Some((cols, rows)) = terminal.size() {
            app.resize(usize::from(cols), usize::from(rows));
        }
        // The shell has used the screen meanwhile.
        renderer.invalidate();
    }
    if foreground {
        return Ok(Pass::Draw);
    }
    if terminal.signal_pending() {
        return Ok(Pass::Wait);
    }
    match receiver.try_recv() {
        Ok(message) => handle(app, message)?,
        Err(TryRecvError::Empty) => {
            if terminal.suspend().is_err() {
                return Ok(Pass::Ended(Ending::TerminalLost));
            }
            *stopped = true;
        }
        Err(TryRecvError::Disconnected) => return Ok(Pass::Ended(Ending::Quit)),
    }
    Ok(Pass::Again)
}

/// Draws, sleeps until something happens, handles it; until the game ends.
/// `player` answers the game's requests through `receiver`; `terminal`
/// stops the process until it is continued (job control) and takes the
/// terminal again after every SIGCONT. A terminal that can no longer be
/// written or read has gone (closed, hung up): that ends the game as the
/// SIGHUP that comes with it does, whichever is noticed first. `hooks`
/// start the next game (the record of the one in progress saved first) and
/// save the game for the save key, which ends it only once it is saved.
fn event_loop<W: Write>(
    app: &mut App,
    receiver: &Receiver<Message>,
    player: &mut PlayerThread,
    renderer: &mut Renderer,
    out: &mut W,
    terminal: &mut dyn JobControl,
    hooks: &mut SessionHooks,
) -> io::Result<Ending> {
    // From a suspension until the SIGCONT that ends it in the foreground,
    // the terminal is the shell's: nothing is drawn.
    let mut stopped = false;
    loop {
        let now = Instant::now();
        app.advance(now);
        match app.ending() {
            // The save key: the game ends only once it is saved; if it
            // cannot be, it goes on, and a box says why.
            Some(Ending::Saved) if !app.game().is_over() => match (hooks.save)(app) {
                Ok(()) => return Ok(Ending::Saved),
                Err(problem) => app.save_failed(&problem),
            },
            Some(ending) => return Ok(ending),
            None => {}
        }
        if app.take_new_game() {
            match (hooks.new_game)(app) {
                // Its hints are those of its own seed, as headless ones are.
                Ok(seed) => player.set_seed(seed),
                Err(problem) => app.new_game_refused(&problem),
            }
        }
        if let Some(request) = app.take_request() {
            player.ask(request)?;
        }
        match job_control(app, receiver, terminal, renderer, &mut stopped)? {
            Pass::Ended(ending) => return Ok(ending),
            Pass::Again => continue,
            Pass::Wait => {}
            Pass::Draw => {
                if app.take_repaint() {
                    renderer.invalidate();
                }
                // Stopped from outside and sent to the background while the
                // frame was made, the game writes it there: a write that
                // stopped it (SIGTTOU, under `stty tostop`) would stop it
                // again after every SIGCONT, where no signal could end it.
                let draw = || renderer.draw(app.frame(now), app.take_bell(), out);
                if !stopped && sys::with_sigttou_blocked(draw).is_err() {
                    return Ok(Ending::TerminalLost);
                }
            }
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

/// What the event loop asks of the session around the game: the records
/// and saved games it keeps.
struct SessionHooks<'a> {
    /// Puts a new game in place of the one on screen, whose record is kept
    /// and whose save, if it went on from one, goes; returns its seed, or
    /// why the game on screen stays (its record could not be saved).
    new_game: &'a mut dyn FnMut(&mut App) -> Result<u64, String>,
    /// Saves the game on screen to go on with later; what went wrong if it
    /// could not.
    save: &'a mut dyn FnMut(&App) -> Result<(), String>,
}

/// The renderer for this terminal: one that says it clears in its own
/// default background (no `bce`) gets its blank cells written. One with no
/// entry is taken to clear in the colour set, as most terminals do.
fn renderer_for_terminal(color: bool) -> Renderer {
    let renderer = Renderer::new(color);
    if terminfo::terminal_back_color_erase() == Some(false) {
        renderer.without_back_color_erase()
    } else {
        renderer
    }
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
            for action in actions_for(&event, app.keys()) {
                app.act(action, Instant::now());
            }
        }
        // Reading fails when the terminal has gone away, racing the SIGHUP
        // that closing it also sends: both end the game the same way.
        Message::InputFailed => app.end(Ending::TerminalLost),
        Message::Signal(signal) => app.end(Ending::Signal(signal)),
        Message::Suspend => app.stop_signalled(),
        Message::Continued => app.continued(),
        Message::Suggestion(suggestion) => app.suggested(suggestion, Instant::now()),
        Message::Panicked(part) => return Err(io::Error::other(Panicked(part))),
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

    pub(super) fn app(cols: usize, rows: usize) -> App {
        let (game, opening) = Game::new(Rules::default(), 3);
        app_of(game, opening, (cols, rows))
    }

    /// `game`, begun with `opening`, on a screen of `size`, in the default
    /// look.
    pub(super) fn app_of(
        game: Game,
        opening: Vec<crate::game::Event>,
        size: (usize, usize),
    ) -> App {
        let appearance = Appearance::for_colors(5);
        App::new(
            game,
            opening,
            view::Style::new(&appearance, 5, true),
            appearance.keys,
            None,
            size,
            Instant::now(),
        )
    }

    /// A shell's job control stand-in: counts suspensions and, like `fg`
    /// or `bg`, continues the process at once (the SIGCONT message).
    struct Shell {
        sender: Sender<Message>,
        suspends: usize,
        window: Window,
        /// Whether the last continuation came in the background.
        background: bool,
        /// Whether the signal of [`Window::signal_on_its_way`] is still to
        /// come.
        signal_to_come: std::cell::Cell<bool>,
    }

    /// Where the game runs.
    #[derive(Clone, Copy)]
    struct Window {
        /// The terminal's size after a stop, if the window was resized
        /// meanwhile (while the shell had the terminal, which then got the
        /// SIGWINCH).
        size_after_stop: Option<(u16, u16)>,
        /// Whether a shell runs the game as a job.
        job: bool,
        /// How many of the first continuations come in the background
        /// (`bg`), the others in the foreground (`fg`).
        in_background: usize,
        /// A signal that is pending when the game first asks, in the
        /// background, and reaches the loop just after.
        signal_on_its_way: Option<i32>,
    }

    /// Run by a shell, in a window never resized.
    const IN_A_JOB: Window = Window {
        size_after_stop: None,
        job: true,
        in_background: 0,
        signal_on_its_way: None,
    };

    impl JobControl for Shell {
        fn suspend(&mut self) -> io::Result<()> {
            self.suspends += 1;
            self.background = self.suspends <= self.window.in_background;
            self.sender.send(Message::Continued).unwrap();
            Ok(())
        }

        fn in_a_job(&self) -> bool {
            self.window.job
        }

        fn in_foreground(&self) -> bool {
            !self.background
        }

        fn signal_pending(&self) -> bool {
            let signal = self
                .window
                .signal_on_its_way
                .filter(|_| self.signal_to_come.get());
            if let Some(signal) = signal {
                self.signal_to_come.set(false);
                self.sender.send(Message::Signal(signal)).unwrap();
            }
            signal.is_some()
        }

        fn resume(&mut self) -> io::Result<()> {
            Ok(())
        }

        fn size(&self) -> Option<(u16, u16)> {
            self.window.size_after_stop
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
        run_in_shell(app, script, gone_after, IN_A_JOB)
    }

    /// [`run_counting`] in `window`.
    fn run_in_shell(
        app: &mut App,
        script: Vec<(usize, Vec<Message>)>,
        gone_after: Option<usize>,
        window: Window,
    ) -> (io::Result<Ending>, Vec<Vec<u8>>, usize, usize) {
        run_saving(app, script, gone_after, window, &mut |_| Ok(()))
    }

    /// [`run_in_shell`], the save key saving with `save`.
    fn run_saving(
        app: &mut App,
        script: Vec<(usize, Vec<Message>)>,
        gone_after: Option<usize>,
        window: Window,
        save: &mut dyn FnMut(&App) -> Result<(), String>,
    ) -> (io::Result<Ending>, Vec<Vec<u8>>, usize, usize) {
        let (sender, receiver) = mpsc::channel();
        let mut player = PlayerThread::new(Rules::default(), 3, sender.clone());
        let mut shell = Shell {
            sender: sender.clone(),
            suspends: 0,
            window,
            background: false,
            signal_to_come: std::cell::Cell::new(true),
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
            &mut SessionHooks {
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

    /// The box before play gives the reason the game's end would give
    /// first, and none for a game that keeps its record.
    #[test]
    fn a_saved_game_keeping_no_record_says_why_before_play() {
        let no_record = |helped, undone, seeded| NoRecord {
            helped,
            undone,
            seeded,
        };
        assert_eq!(goes_on_unrecorded(no_record(false, false, false)), None);
        let why = |n| goes_on_unrecorded(n).expect("a reason");
        assert!(why(no_record(true, true, true)).ends_with("the built-in player helped in it."));
        assert!(why(no_record(false, true, true)).ends_with("a move was taken back in it."));
        assert!(why(no_record(false, false, true)).ends_with("it was started with --seed."));
    }

    #[test]
    fn resize_burst_draws_once_then_signal_ends() {
        let mut app = app(100, 50);
        let resize = |c, r| Message::Input(Event::Resize(c, r));
        let script = vec![
            (1, vec![resize(60, 20), resize(70, 25), resize(40, 30)]),
            (2, vec![Message::Signal(libc::SIGTERM)]),
        ];
        let (ending, frames, _) = run_script(&mut app, script);
        assert_eq!(ending.unwrap(), Ending::Signal(libc::SIGTERM));
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
        let script = vec![
            (1, vec![ctrl_z()]),
            (2, vec![Message::Signal(libc::SIGTERM)]),
        ];
        let (_, frames, suspends, _) = run_in_shell(
            &mut app,
            script,
            None,
            Window {
                size_after_stop: Some((20, 8)),
                ..IN_A_JOB
            },
        );
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

    /// Ctrl-Z typed.
    fn ctrl_z() -> Message {
        Message::Input(Event::Key(KeyEvent::new(
            KeyCode::Char('z'),
            KeyModifiers::CONTROL,
        )))
    }

    /// Ctrl-Z, then SIGTSTP, then a hang-up, each after a frame.
    fn ctrl_z_sigtstp_hangup() -> Vec<(usize, Vec<Message>)> {
        vec![
            (1, vec![ctrl_z()]),
            (2, vec![Message::Suspend]),
            (3, vec![Message::Signal(libc::SIGHUP)]),
        ]
    }

    #[test]
    fn suspend_then_repaint_everything() {
        let mut app = app(100, 50);
        let script = ctrl_z_sigtstp_hangup();
        let (ending, frames, suspends) = run_script(&mut app, script);
        assert_eq!(ending.unwrap(), Ending::Signal(libc::SIGHUP));
        assert_eq!(suspends, 2);
        assert_eq!(frames.len(), 3);
        assert_eq!(frames[1], frames[0]);
        assert_eq!(frames[2], frames[0]);
    }

    /// With no shell to continue it, Ctrl-Z does not stop the game: it
    /// beeps. SIGTSTP still stops it: its sender can continue it.
    #[test]
    fn ctrl_z_beeps_where_no_shell_could_continue_the_game() {
        let mut app = app(100, 50);
        let script = ctrl_z_sigtstp_hangup();
        let alone = Window {
            job: false,
            ..IN_A_JOB
        };
        let (ending, frames, suspends, _) = run_in_shell(&mut app, script, None, alone);
        assert_eq!(ending.unwrap(), Ending::Signal(libc::SIGHUP));
        assert_eq!(suspends, 1, "by SIGTSTP only");
        assert_eq!(frames.len(), 3);
        assert_eq!(frames[1], b"\x07", "a beep, the screen unchanged");
    }

    /// Continued in the background (`bg`), the game leaves the terminal
    /// alone and stops again, drawing nothing, until continued in the
    /// foreground (`fg`).
    #[test]
    fn continued_in_the_background_the_game_stops_again() {
        let mut app = app(100, 50);
        let script = vec![
            (1, vec![ctrl_z()]),
            (2, vec![Message::Signal(libc::SIGTERM)]),
        ];
        let bg_twice = Window {
            in_background: 2,
            ..IN_A_JOB
        };
        let (ending, frames, suspends, _) = run_in_shell(&mut app, script, None, bg_twice);
        assert_eq!(ending.unwrap(), Ending::Signal(libc::SIGTERM));
        assert_eq!(suspends, 3, "Ctrl-Z, then once for each bg");
        assert_eq!(frames.len(), 2, "drawn before Ctrl-Z and after fg only");
    }

    /// A signal sent with the SIGCONT that continued the game in the
    /// background, still pending, is handled before the game stops again.
    #[test]
    fn a_signal_pending_in_the_background_is_handled_before_stopping_again() {
        let mut app = app(100, 50);
        let script = vec![
            (1, vec![ctrl_z()]),
            (2, vec![Message::Signal(libc::SIGHUP)]),
        ];
        let killed_in_the_background = Window {
            in_background: 1,
            signal_on_its_way: Some(libc::SIGTERM),
            ..IN_A_JOB
        };
        let (ending, frames, suspends, _) =
            run_in_shell(&mut app, script, None, killed_in_the_background);
        assert_eq!(ending.unwrap(), Ending::Signal(libc::SIGTERM));
        assert_eq!((suspends, frames.len()), (1, 1), "not stopped again");
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
        let (ending, _, _) = run_script(&mut app, vec![(1, vec![Message::Panicked(Part::Player)])]);
        assert_eq!(
            ending.unwrap_err().to_string(),
            "the built-in player failed"
        );
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
            (2, vec![Message::Signal(libc::SIGTERM)]),
        ];
        let (ending, frames, suspends) = run_script(&mut app, script);
        assert_eq!(ending.unwrap(), Ending::Signal(libc::SIGTERM));
        assert_eq!(suspends, 0);
        assert_eq!(frames.len(), 2);
        assert_eq!(frames[1], frames[0], "a full repaint");
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
        let (ending, frames, _, _) = run_saving(&mut app, script, None, IN_A_JOB, &mut |_| {
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
