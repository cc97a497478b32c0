//! What becomes of a game's record, and of the game itself, as a session
//! ends or starts a new game: the record saved or why not, the game saved
//! to go on with or its save removed, and the closing lines. This is the
//! policy alone, apart from the event loop that calls it: it draws
//! nothing and sets no terminal mode; it only asks, once the terminal is
//! restored, for a failed thread's panic to be told.

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::records::{LockWait, Placed, SaveError, SaveSlot, SavedGame};
use crate::text;

use super::app::App;
use super::live::Live;
use super::terminal;
use super::{Ending, Error, Outcome, PlayConfig, RecordKeeping, SEED_NOT_USED};

/// What every way out of a game needs, shared with the panic hook.
#[derive(Debug)]
pub(super) struct Session {
    /// The game's score and why it keeps no record, kept current.
    pub(super) live: Arc<Live>,
    /// Where the record goes.
    pub(super) records: RecordKeeping,
    /// Set by the first ending, so that the record is saved and the closing
    /// lines printed once even if a panic follows another ending.
    pub(super) ended: AtomicBool,
    /// The games with points left for a new game, in order, told of as the
    /// session ends: the player saw what became of their records only when
    /// one could not be saved (in a box).
    left: Mutex<Vec<LeftGame>>,
}

/// A game with points left for a new game.
#[derive(Debug, PartialEq, Eq)]
struct LeftGame {
    /// Its score.
    score: u64,
    /// What became of its record.
    record: LeftRecord,
}

/// What became of the record of a game left for a new one.
#[derive(Debug, PartialEq, Eq)]
enum LeftRecord {
    /// Saved, or not kept: what the closing lines tell of it, if anything.
    Settled(Option<&'static str>),
    /// It could not be saved, for this reason.
    Lost(String),
}

impl fmt::Display for LeftGame {
    /// The line on standard output; why a record was lost goes to standard
    /// error, as the last game's does.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Left for a new game with {} points.", self.score)?;
        match &self.record {
            LeftRecord::Settled(Some(notice)) => write!(f, " {notice}"),
            LeftRecord::Settled(None) => Ok(()),
            LeftRecord::Lost(_) => write!(f, " {LEFT_RECORD_LOST}"),
        }
    }
}

/// Told of a game left for a new one whose record could not be saved.
const LEFT_RECORD_LOST: &str = "Its record could not be saved.";

impl Session {
    /// The session of the first game, `went_on` from a save or new: a new
    /// game keeps records only where new games do (none does with `--seed`).
    pub(super) fn start(config: &PlayConfig, live: Arc<Live>, went_on: bool) -> Session {
        let records = if went_on || config.new_games_keep_records {
            config.records.clone()
        } else {
            RecordKeeping::Off
        };
        Session {
            live,
            records,
            ended: AtomicBool::new(false),
            left: Mutex::default(),
        }
    }

    /// The games left for a new game so far.
    fn left_games(&self) -> MutexGuard<'_, Vec<LeftGame>> {
        self.left.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The one way out of a game, after the terminal is restored: every ending,
/// a panic included, comes through here or through [`close`]. The first
/// call saves the record (only the file system is involved, so a closed
/// terminal cannot stop it) and then prints the closing lines; a failed
/// write is ignored, as the terminal may be gone (SIGHUP).
pub(super) fn end_session(session: &Session, ending: Ending) -> Outcome {
    let settled = settle_record(session);
    closing_lines(session, ending, settled)
}

/// The session's end, once the terminal is restored: says that `--seed`
/// was not used if the game on screen is still the save it went on from
/// (`owned`), saves the record, keeps the game or removes its save, then
/// prints the closing lines. The record comes first: where it cannot be
/// saved, a game that is not over is saved instead, so that its score is
/// not lost.
pub(super) fn close(
    config: &PlayConfig,
    app: &App,
    session: &Session,
    result: io::Result<Ending>,
    owned: &Owned,
) -> Result<Outcome, Error> {
    if owned.on_screen && !config.new_games_keep_records {
        let _ = writeln!(io::stdout(), "{SEED_NOT_USED}");
    }
    let ending = result
        .as_ref()
        .map_or(Ending::TerminalLost, |&ending| ending);
    let settled = settle_record(session);
    let record_lost = settled.as_ref().and_then(|settled| settled.lost.as_ref());
    tell_kept(game_kept(
        slot_of(config),
        app,
        ending,
        owned.save.as_ref(),
        record_lost,
    ));
    let closed = match result {
        Ok(ending) => Ok(closing_lines(session, ending, settled)),
        Err(e) => {
            // The game still ends the usual way, so its score is not lost.
            closing_lines(session, Ending::TerminalLost, settled);
            Err(Error::of_loop(e))
        }
    };
    // A thread that failed (the player's, the input's) ended the game; what
    // went wrong there can be read now that the terminal is restored.
    terminal::report_deferred_panic();
    closed
}

/// The save the session went on from, while it is the session's: removed
/// as the session ends, or saved over by a game cut short.
#[derive(Debug, Default)]
pub(super) struct Owned {
    /// The save as it was loaded; `None` when there is none.
    pub(super) save: Option<SavedGame>,
    /// Whether the game on screen is the one that went on from it, not a
    /// new game started since (whose start could not remove the save).
    pub(super) on_screen: bool,
}

/// A session's record, once saved or not.
struct Settled {
    /// What to tell the player as the session ends.
    notice: Option<&'static str>,
    /// Why the record the game earned could not be saved, if so.
    lost: Option<RecordProblem>,
}

/// Why a record could not be saved.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct RecordProblem {
    /// As the player is told it.
    pub(super) why: String,
    /// The records directory, when another process held its lock past the
    /// wait: saving the game there instead would wait as long again for
    /// the same lock, and the player is waiting to leave.
    locked: Option<PathBuf>,
}

impl RecordProblem {
    /// A record that could not be kept for `why`, no lock involved.
    fn because(why: &str) -> RecordProblem {
        RecordProblem {
            why: why.to_string(),
            locked: None,
        }
    }

    /// How long saving in `dir` may wait for its lock: not again for the
    /// lock the record waited for in vain, only taken if freed since.
    pub(super) fn lock_wait_in(&self, dir: &Path) -> LockWait {
        if self.locked.as_deref() == Some(dir) {
            LockWait::None
        } else {
            LockWait::Usual
        }
    }
}

impl From<SaveError> for RecordProblem {
    fn from(error: SaveError) -> RecordProblem {
        let locked = match &error {
            SaveError::Locked { path } => Some(path.clone()),
            _ => None,
        };
        RecordProblem {
            why: error.to_string(),
            locked,
        }
    }
}

/// Saves the record the first time only (`None` after), saying at once
/// what went wrong; first tells of the games left for a new game.
fn settle_record(session: &Session) -> Option<Settled> {
    if session.ended.swap(true, Ordering::SeqCst) {
        return None;
    }
    tell_left(session);
    let (notice, problem) = keep_record(session);
    if let Some(problem) = &problem {
        let _ = writeln!(io::stderr(), "clines: {}", problem.why);
    }
    let lost = problem.filter(|_| matches!(session.records, RecordKeeping::KeptIn(_)));
    Some(Settled { notice, lost })
}

/// Tells of each game left for a new game, in order, before the lines
/// about the last one: a line each on standard output, and why a record
/// was lost on standard error.
fn tell_left(session: &Session) {
    for game in session.left_games().iter() {
        let _ = writeln!(io::stdout(), "{game}");
        if let LeftRecord::Lost(why) = &game.record {
            let _ = writeln!(io::stderr(), "clines: {why}");
        }
    }
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
fn keep_record(session: &Session) -> (Option<&'static str>, Option<RecordProblem>) {
    let live = &session.live;
    match &session.records {
        // Records are off for a game begun with --seed; one that scored
        // says so, as any game that scored and keeps no record does.
        RecordKeeping::Off if live.score() > 0 => (Some(SEEDED), None),
        RecordKeeping::Off => (None, None),
        RecordKeeping::Unavailable(why) => (None, Some(RecordProblem::because(why))),
        // Nothing to save, and no record to create at 0: no reason either.
        RecordKeeping::KeptIn(_) if live.score() == 0 => (None, None),
        RecordKeeping::KeptIn(_) if live.assisted() => (Some(ASSISTED), None),
        RecordKeeping::KeptIn(_) if live.undone() => (Some(UNDONE), None),
        RecordKeeping::KeptIn(_) if live.seeded() => (Some(SEEDED), None),
        RecordKeeping::KeptIn(store) => match store.save(live.score()) {
            Ok(saved) => (saved.message(), None),
            Err(e) => (None, Some(e.into())),
        },
    }
}

/// Printed instead of saving when the built-in player helped.
const ASSISTED: &str = "No record kept: the built-in player helped in this game.";
/// Printed instead of saving when a move was taken back.
const UNDONE: &str = "No record kept: a move was taken back in this game.";
/// Printed instead of saving for a game begun with `--seed`, also when it
/// went on without it.
const SEEDED: &str = "No record kept: this game was started with --seed.";

/// Saves the record of the game on screen before a new game replaces it,
/// as if it had been quit. Where it earned a record that could not be
/// saved: `Err` with the reason when the game is not `over`, as it must
/// stay so that its score is not lost; `Ok` with the problem, to be told,
/// when it is over, as its score is lost however it ends. A game with
/// points that is left is noted, to be told of as the session ends.
pub(super) fn record_before_new_game(
    session: &Session,
    over: bool,
) -> Result<Option<RecordProblem>, String> {
    let (notice, problem) = keep_record(session);
    let problem = problem.filter(|_| matches!(session.records, RecordKeeping::KeptIn(_)));
    if let Some(problem) = problem.as_ref().filter(|_| !over) {
        return Err(problem.why.clone());
    }
    let score = session.live.score();
    if score > 0 {
        let record = match &problem {
            Some(problem) => LeftRecord::Lost(problem.why.clone()),
            None => LeftRecord::Settled(notice),
        };
        session.left_games().push(LeftGame { score, record });
    }
    Ok(problem)
}

/// Prints what [`game_kept`] says became of the game.
fn tell_kept(kept: Result<Option<&'static str>, String>) {
    // The terminal may be gone (SIGHUP): failed writes are ignored.
    match kept {
        Ok(Some(notice)) => {
            let _ = writeln!(io::stdout(), "{notice}");
        }
        Ok(None) => {}
        Err(problem) => {
            let _ = writeln!(io::stderr(), "{problem}");
        }
    }
}

/// Says that the game was saved, when the save key's loop saved it (by
/// [`save_game`]), or saves it when it was cut short ([`cuts_short`]) or
/// its record could not be saved (`record_lost` says why), but never over
/// a save other than the one it went on from (`owned`); any other ending
/// removes that save, if it is still there, as the game is over. What to
/// tell the player, or what went wrong. A game over is never saved; one that ended on
/// the save key says so.
fn game_kept(
    slot: Result<&SaveSlot, &str>,
    app: &App,
    ending: Ending,
    owned: Option<&SavedGame>,
    record_lost: Option<&RecordProblem>,
) -> Result<Option<&'static str>, String> {
    let game = app.game();
    // The save key pressed while the move that ended the game was still
    // drawn: the player has not seen the game end, so is told.
    let notice = (game.is_over() && ending == Ending::Saved).then_some(OVER_NOT_SAVED);
    if game.is_over() {
        // Nothing to go on with. A save it went on from would replay
        // throws already seen, so it goes even when the record was lost.
    } else if ending == Ending::Saved {
        return Ok(Some(SAVED));
    } else if let Some(problem) = record_lost {
        return save_for_lost_record(slot, app, owned, problem);
    } else if cuts_short(ending) {
        return save_unless_taken(slot, app, owned)
            .map(Some)
            .map_err(|problem| problem.to_string());
    }
    let Ok(slot) = slot else {
        return Ok(notice);
    };
    let Some(owned) = owned else {
        return Ok(notice);
    };
    let wait = record_lost.map_or(LockWait::Usual, |lost| lost.lock_wait_in(slot.dir()));
    slot.remove_if_unchanged(owned, wait)
        .map(|()| notice)
        .map_err(|e| {
            format!(
                "clines: the saved game {} could not be removed: {e}",
                text::path(slot.path())
            )
        })
}

/// Whether `ending` cuts the game short rather than ends it: the terminal
/// closed, or the session is ending (SIGTERM, as a logout or a shutdown
/// sends), and no one chose to leave the game. Such a game is saved.
fn cuts_short(ending: Ending) -> bool {
    use libc::{SIGHUP, SIGTERM};
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
/// is the record's own reason, told already. A records directory whose
/// lock kept the record out is not waited for twice.
fn save_for_lost_record(
    slot: Result<&SaveSlot, &str>,
    app: &App,
    owned: Option<&SavedGame>,
    problem: &RecordProblem,
) -> Result<Option<&'static str>, String> {
    let not_saved = |why: &str| match problem.why.contains(why) {
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
    match slot.save_unless_taken(&game, owned, problem.lock_wait_in(slot.dir())) {
        Ok(placed) => placed_notice(placed, SAVED_FOR_RECORD)
            .map(Some)
            .map_err(|why| {
                format!(
                    "clines: nor could the game be saved instead in {}: {why}",
                    text::path(slot.path())
                )
            }),
        Err(e) => not_saved(&e.cause().to_string()),
    }
}

/// `notice`, for a game that was saved, once any damaged save it replaced
/// has been told of (on standard error, as the record's problems are);
/// why it was refused otherwise.
fn placed_notice(placed: Placed, notice: &'static str) -> Result<&'static str, String> {
    match placed {
        Placed::Saved => Ok(notice),
        Placed::SavedOver(bad) => {
            // The terminal may be gone (SIGHUP): a failed write is ignored.
            let _ = writeln!(io::stderr(), "clines: {}", bad.what_became());
            Ok(notice)
        }
        Placed::Refused(why) => Err(why),
    }
}

/// The save slot of the game's rules, or why there is none.
pub(super) fn slot_of(config: &PlayConfig) -> Result<&SaveSlot, &str> {
    config.saves.as_ref().map_err(String::as_str)
}

/// Saves the game on screen in `slot` to go on with later, with the reasons
/// it keeps no record ([`Live::no_record`]); what went wrong, if it could not be saved (the
/// session's end says that it was: [`game_kept`]). With no `slot` (no user
/// name or records directory), there is nowhere, for the reason given
/// instead.
pub(super) fn save_game(slot: Result<&SaveSlot, &str>, app: &App) -> Result<(), SaveProblem> {
    let slot = slot.map_err(SaveProblem::nowhere)?;
    slot.save(&saved_game(app))
        .map_err(|e| SaveProblem::in_slot(slot, e.cause().to_string()))
}

/// Saves the game on screen as [`save_game`] does, for a game cut short
/// ([`cuts_short`]), unless the slot holds a game other than `owned` (the
/// save it went on from): no one chose to replace that game, kept with
/// `--new` or saved meanwhile in another terminal, so it is kept, and this
/// one is not saved.
fn save_unless_taken(
    slot: Result<&SaveSlot, &str>,
    app: &App,
    owned: Option<&SavedGame>,
) -> Result<&'static str, SaveProblem> {
    let slot = slot.map_err(SaveProblem::nowhere)?;
    match slot.save_unless_taken(&saved_game(app), owned, LockWait::Usual) {
        Ok(placed) => placed_notice(placed, SAVED).map_err(|why| SaveProblem::in_slot(slot, why)),
        Err(e) => Err(SaveProblem::in_slot(slot, e.cause().to_string())),
    }
}

/// The game on screen as saved, with the reasons it keeps no record.
fn saved_game(app: &App) -> SavedGame {
    SavedGame {
        state: app.game().state(),
        no_record: app.live().no_record(),
    }
}

/// Why a game could not be saved.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct SaveProblem {
    /// ` in FILE`, or empty when there was no file to save in.
    place: String,
    /// What went wrong, as the save key's box shows it.
    pub(super) reason: String,
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
            place: format!(" in {}", text::path(slot.path())),
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

/// Printed when the game was saved.
const SAVED: &str = "Game saved: the next clines with these rules goes on with it.";

/// Printed when the save key was pressed as the game ended.
const OVER_NOT_SAVED: &str = "Nothing saved: the game was over.";

/// Printed when the game could not be saved instead of its record, for the
/// record's own reason.
const SAME_REASON: &str = "clines: nor could the game be saved instead, for the same reason";

/// Printed when the game was saved because its record could not be.
const SAVED_FOR_RECORD: &str = "Game saved, since its record could not be: \
     the next clines with these rules goes on with it.";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Pos;
    use crate::game::{Game, Preview, Rules};
    use crate::records::Store;
    use std::time::Instant;

    use super::super::tests::{app, app_of};

    /// The saved game `slot` holds, without the game made of it.
    fn saved_in(slot: &SaveSlot) -> Option<SavedGame> {
        slot.load().unwrap().map(|(saved, _)| saved)
    }

    fn session(score: u64, records: RecordKeeping) -> Session {
        let live = Arc::new(Live::default());
        live.set_score(score);
        Session {
            live,
            records,
            ended: AtomicBool::new(false),
            left: Mutex::default(),
        }
    }

    fn stored(dir: &std::path::Path) -> Option<u64> {
        Store::new(dir, "me")
            .unwrap()
            .load()
            .unwrap()
            .map(|r| r.score)
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
        assert_eq!(told.map(|told| told.why), Some(refused.clone()));
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

    /// A game left for a new one with points is noted, its record saved
    /// or not as at an ending, to be told of before the closing lines; one
    /// without points is not; one whose record could not be saved tells why.
    #[test]
    fn games_left_with_points_are_noted_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), "me").unwrap();
        let kept = session(30, RecordKeeping::KeptIn(store));
        assert_eq!(record_before_new_game(&kept, false), Ok(None));
        assert_eq!(stored(dir.path()), Some(30));
        kept.live.set_score(0);
        assert_eq!(record_before_new_game(&kept, false), Ok(None));
        kept.live.set_score(20);
        kept.live.mark_seeded();
        assert_eq!(record_before_new_game(&kept, false), Ok(None));
        assert_eq!(stored(dir.path()), Some(30), "a seeded game keeps none");

        let damaged = tempfile::tempdir().unwrap();
        std::fs::write(damaged.path().join("me.toml"), "score = \"lots\"\n").unwrap();
        let store = Store::new(damaged.path(), "me").unwrap();
        let lost = session(40, RecordKeeping::KeptIn(store));
        assert!(record_before_new_game(&lost, false).is_err());
        assert!(
            lost.left_games().is_empty(),
            "a game that stays is not left"
        );
        let why = record_before_new_game(&lost, true).unwrap().unwrap().why;
        assert_eq!(lost.left_games()[0].record, LeftRecord::Lost(why));

        let told = |session: &Session| -> Vec<String> {
            session
                .left_games()
                .iter()
                .map(ToString::to_string)
                .collect()
        };
        assert_eq!(
            told(&kept),
            [
                "Left for a new game with 30 points. New record saved!",
                "Left for a new game with 20 points. \
                 No record kept: this game was started with --seed.",
            ]
        );
        assert_eq!(
            told(&lost),
            ["Left for a new game with 40 points. Its record could not be saved."]
        );
    }

    #[test]
    fn the_first_ending_saves_once() {
        let dir = tempfile::tempdir().unwrap();
        let session = session(
            30,
            RecordKeeping::KeptIn(Store::new(dir.path(), "me").unwrap()),
        );
        let outcome = end_session(&session, Ending::Signal(libc::SIGHUP));
        assert_eq!(
            outcome,
            Outcome {
                score: 30,
                ending: Ending::Signal(libc::SIGHUP),
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
            assert_eq!(save_game(Ok(&slot), &played), Ok(()));
            let saved = saved_in(&slot).expect("the save");
            let resumed = app(100, 50).resumed(saved.no_record);
            let session = Session {
                live: resumed.live(),
                records: RecordKeeping::KeptIn(store.clone()),
                ended: AtomicBool::new(false),
                left: Mutex::default(),
            };
            session.live.set_score(40);
            assert_eq!(keep_record(&session), (Some(says), None));
        }
        assert_eq!(stored(dir.path()), None);
    }

    /// A save's path comes from the records directory the player names
    /// (`CLINES_SCORE_DIR`, the config's `score_dir`): a control character
    /// in it is shown escaped, never sent to the terminal.
    #[test]
    fn a_save_s_path_is_told_escaped() {
        let dir = tempfile::tempdir().unwrap();
        let named = dir.path().join("scores\u{1b}]0;title\u{7}");
        let store = Store::new(&named, "me").unwrap();
        let slot = SaveSlot::new(&store, Rules::default(), Preview::Off).unwrap();
        let told = SaveProblem::in_slot(&slot, "the disk is full".to_string()).to_string();
        assert!(!told.contains(['\u{1b}', '\u{7}']), "{told:?}");
        assert!(told.contains("scores\\u{1b}]0;title\\u{7}"), "{told:?}");
    }

    /// A game whose record could not be saved is saved in its place, so
    /// that its score is not lost, but never over another session's save;
    /// a game over goes, as its save would replay throws already seen.
    #[test]
    fn a_game_whose_record_is_lost_is_saved_instead_unless_the_slot_is_taken() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), "me").unwrap();
        let slot = SaveSlot::new(&store, Rules::default(), Preview::Off).unwrap();
        let problem = &RecordProblem::because("the record could not be saved: the disk is full");
        let playing = app(100, 50);
        let end =
            |app: &App, ending, owned| game_kept(Ok(&slot), app, ending, owned, Some(problem));
        for ending in [Ending::Quit, Ending::Signal(libc::SIGTERM)] {
            assert_eq!(
                end(&playing, ending, None),
                Ok(Some(SAVED_FOR_RECORD)),
                "{ending:?}"
            );
            let saved = saved_in(&slot).expect("the game saved");
            assert_eq!(saved.state, playing.game().state());
            slot.remove_if_unchanged(&saved, LockWait::Usual).unwrap();
        }
        // Another session's save stays, and that is told.
        let other = app(100, 50);
        other.live().mark_assisted();
        save_game(Ok(&slot), &other).unwrap();
        let theirs = saved_in(&slot).expect("the other save");
        let kept = end(&playing, Ending::Quit, None).unwrap_err();
        assert!(
            kept.contains("another game of these rules is saved there"),
            "{kept}"
        );
        assert_eq!(saved_in(&slot).as_ref(), Some(&theirs));
        // The save it went on from, unchanged, it replaces.
        assert_eq!(
            end(&playing, Ending::Quit, Some(&theirs)),
            Ok(Some(SAVED_FOR_RECORD))
        );
        let ours = saved_in(&slot).expect("the game saved");
        assert_eq!(ours.state, playing.game().state());
        // No slot, for the record's own reason: said briefly.
        assert_eq!(
            game_kept(
                Err("the disk is full"),
                &playing,
                Ending::Quit,
                None,
                Some(problem)
            ),
            Err(SAME_REASON.to_string())
        );
        // The closed terminal's save does not replace another session's
        // either, when the record was lost; nor does one that went on from
        // a save that another session has replaced since.
        save_game(Ok(&slot), &other).unwrap();
        for ending in [Ending::Signal(libc::SIGHUP), Ending::Quit] {
            assert!(end(&playing, ending, Some(&ours)).is_err(), "{ending:?}");
            assert_eq!(saved_in(&slot).as_ref(), Some(&theirs));
        }
        save_game(Ok(&slot), &playing).unwrap();
        // Over: its own save goes.
        assert_eq!(end(&over(), Ending::Quit, Some(&ours)), Ok(None));
        assert_eq!(slot.load().unwrap(), None, "a game over leaves no save");
    }

    /// A record kept out by a lock held too long: the game is saved in the
    /// same directory without waiting for that lock again, if it is free
    /// by then, as here; elsewhere, or for another reason, as usual.
    #[test]
    fn a_game_whose_record_met_a_held_lock_waits_for_it_no_more() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), "me").unwrap();
        let slot = SaveSlot::new(&store, Rules::default(), Preview::Off).unwrap();
        let locked_in = |path: &Path| {
            RecordProblem::from(SaveError::Locked {
                path: path.to_path_buf(),
            })
        };
        let here = locked_in(dir.path());
        assert_eq!(here.lock_wait_in(slot.dir()), LockWait::None);
        let elsewhere = locked_in(&dir.path().join("other"));
        assert_eq!(elsewhere.lock_wait_in(slot.dir()), LockWait::Usual);
        let full = RecordProblem::because("the disk is full");
        assert_eq!(full.lock_wait_in(slot.dir()), LockWait::Usual);
        let playing = app(100, 50);
        assert_eq!(
            game_kept(Ok(&slot), &playing, Ending::Quit, None, Some(&here)),
            Ok(Some(SAVED_FOR_RECORD))
        );
        assert!(slot.load().unwrap().is_some(), "saved, the lock free");
    }

    /// A game over from its opening: 3 chips on a board of 3 cells.
    fn over() -> App {
        let rules = Rules {
            width: 3,
            height: 1,
            ..Rules::default()
        };
        let (full, opening) = Game::new(rules, 3);
        assert!(full.is_over());
        app_of(full, opening, (100, 50))
    }

    #[test]
    fn the_save_key_as_the_game_ends_saves_nothing_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), "me").unwrap();
        // 3 chips and a free cell: the one move fills the board.
        let rules = Rules {
            width: 4,
            height: 1,
            ..Rules::default()
        };
        let slot = SaveSlot::new(&store, rules, Preview::Off).unwrap();
        let (mut game, opening) = Game::new(rules, 3);
        let owned = SavedGame {
            state: game.state(),
            no_record: Default::default(),
        };
        let cells = || (0..4).map(|x| Pos::new(x, 0));
        let ended = cells()
            .flat_map(|from| cells().map(move |to| (from, to)))
            .any(|(from, to)| game.play(from, to).is_ok());
        assert!(ended && game.is_over());
        let over = app_of(game, opening, (100, 50));
        let kept = |ending, owned| game_kept(Ok(&slot), &over, ending, owned, None);
        assert_eq!(kept(Ending::Saved, None), Ok(Some(OVER_NOT_SAVED)));
        assert_eq!(slot.load().unwrap(), None, "nothing saved");
        // The save it went on from goes, as with any ending of a game over.
        slot.save(&owned).unwrap();
        assert_eq!(kept(Ending::Saved, Some(&owned)), Ok(Some(OVER_NOT_SAVED)));
        assert_eq!(slot.load().unwrap(), None, "its save removed");
        // Other endings of a game over say nothing of saving.
        assert_eq!(kept(Ending::Quit, None), Ok(None));
        let nowhere = game_kept(Err("no user"), &over, Ending::Saved, None, None);
        assert_eq!(nowhere, Ok(Some(OVER_NOT_SAVED)));
    }

    #[test]
    fn a_game_cut_short_is_saved_over_no_other_game() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), "me").unwrap();
        let slot = SaveSlot::new(&store, Rules::default(), Preview::Off).unwrap();
        let playing = app(100, 50);
        let other = app(100, 50);
        other.live().mark_assisted();
        let closed = |ending, owned| game_kept(Ok(&slot), &playing, ending, owned, None);
        let ours = SavedGame {
            state: playing.game().state(),
            no_record: playing.live().no_record(),
        };
        save_game(Ok(&slot), &other).unwrap();
        let theirs = saved_in(&slot).expect("the other save");
        for ending in [
            Ending::TerminalLost,
            Ending::Signal(libc::SIGHUP),
            Ending::Signal(libc::SIGTERM),
        ] {
            // Into an empty slot, or over the save it went on from.
            let _ = std::fs::remove_file(slot.path());
            assert_eq!(closed(ending, None), Ok(Some(SAVED)), "{ending:?}");
            assert_eq!(saved_in(&slot).as_ref(), Some(&ours));
            save_game(Ok(&slot), &other).unwrap();
            assert_eq!(closed(ending, Some(&theirs)), Ok(Some(SAVED)));
            assert_eq!(saved_in(&slot).as_ref(), Some(&ours));
            // Not over a game kept with --new, nor over one that another
            // session saved after this one went on from its save.
            save_game(Ok(&slot), &other).unwrap();
            for owned in [None, Some(&ours)] {
                let refused = closed(ending, owned).unwrap_err();
                assert!(
                    refused.contains("another game of these rules is saved there"),
                    "{refused}"
                );
                assert_eq!(saved_in(&slot).as_ref(), Some(&theirs));
            }
        }
        // A save of this version's, damaged, holds no game: it is set
        // aside, kept, and the game saved.
        let aside = dir.path().join(format!(
            "{}.bad",
            slot.path().file_name().unwrap().to_string_lossy()
        ));
        let saved = std::fs::read_to_string(slot.path()).unwrap();
        let damaged = saved.replace("board = [", "board = [\"#\", ");
        std::fs::write(slot.path(), &damaged).unwrap();
        let ending = Ending::Signal(libc::SIGTERM);
        assert_eq!(closed(ending, None), Ok(Some(SAVED)));
        assert_eq!(saved_in(&slot).as_ref(), Some(&ours));
        assert_eq!(std::fs::read_to_string(&aside).unwrap(), damaged);
        // What this version cannot read is not its to set aside: a newer
        // version's save, a file that is no save at all.
        let newer = saved.replace("clines saved game 1", "clines saved game 2");
        for other in [newer.as_str(), "not a save"] {
            std::fs::write(slot.path(), other).unwrap();
            let refused = closed(ending, None).unwrap_err();
            assert!(
                refused.contains("is not a save this game can replace"),
                "{refused}"
            );
            assert_eq!(std::fs::read_to_string(slot.path()).unwrap(), other);
        }
    }

    #[test]
    fn a_game_ending_removes_only_the_save_it_went_on_from() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), "me").unwrap();
        let slot = SaveSlot::new(&store, Rules::default(), Preview::Off).unwrap();
        let quit = |owned| game_kept(Ok(&slot), &app(100, 50), Ending::Quit, owned, None);
        // A game that went on from no save leaves another game's.
        save_game(Ok(&slot), &app(100, 50)).unwrap();
        let ours = saved_in(&slot).expect("the save");
        assert_eq!(quit(None), Ok(None));
        assert_eq!(saved_in(&slot).as_ref(), Some(&ours));
        // One that went on from it leaves it too once another game has
        // saved over it.
        let other = app(100, 50);
        other.live().mark_assisted();
        save_game(Ok(&slot), &other).unwrap();
        let theirs = saved_in(&slot).expect("the other save");
        assert_ne!(theirs, ours);
        assert_eq!(quit(Some(&ours)), Ok(None));
        assert_eq!(saved_in(&slot).as_ref(), Some(&theirs));
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
            Ending::Signal(libc::SIGHUP),
            Ending::Signal(libc::SIGTERM),
        ] {
            assert_eq!(
                game_kept(Err(why), &app, ending, None, None),
                Err(nowhere.clone())
            );
        }
        assert_eq!(
            game_kept(Err(why), &app, Ending::Quit, None, None),
            Ok(None)
        );
        assert_eq!(save_game(Err(why), &app).unwrap_err().reason, why);
    }
}
