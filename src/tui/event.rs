//! The event loop's protocol: every [`Message`] that can wake the loop, and
//! the threads that feed the terminal's events and the signals into it.
//!
//! The loop owns this protocol; its sources (the input and signal threads
//! here, the built-in player in `player`) only send into it, so no source
//! knows another.

use std::io;
use std::sync::Arc;
use std::sync::mpsc::Sender;
use std::thread;
use std::time::Duration;

use crossterm::event;
use signal_hook::consts::{
    SIGALRM, SIGCONT, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGTSTP, SIGUSR1, SIGUSR2, SIGVTALRM,
    SIGXCPU, SIGXFSZ,
};

use super::sys::{self, SignalSet};
use crate::ai::Move;

/// The built-in player's answer to the request numbered `id`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Suggestion {
    /// The request's id.
    pub id: u64,
    /// The move it would make; `None` when no move exists.
    pub chosen: Option<Move>,
}

/// Something that wakes the game's loop.
#[derive(Debug)]
pub enum Message {
    /// A key, mouse or resize event from the terminal.
    Input(event::Event),
    /// Reading the terminal failed: it has most likely been closed.
    InputFailed,
    /// A signal asking the game to end (one of [`QUIT_SIGNALS`]).
    Signal(i32),
    /// SIGTSTP: stop until continued, giving the terminal back meanwhile.
    Suspend,
    /// SIGCONT: the process was stopped, by the game itself or from
    /// outside, and has been continued; the terminal must be taken again.
    Continued,
    /// The built-in player's answer to a hint or autoplay request.
    Suggestion(Suggestion),
    /// The built-in player panicked; it answers no more.
    PlayerFailed,
}

/// The signals that end the game, saving its record: the ones meant to end
/// a program, and the others that would kill it where nobody handles them
/// (a CPU-time limit's SIGXCPU, a stray SIGUSR1 or alarm), which would leave
/// the terminal raw and the record unsaved. SIGHUP and SIGTERM cut the game
/// short, and it is saved to go on with; the others end it as `q` does.
/// SIGPROF is left to profilers, and SIGXFSZ is ignored (see
/// [`spawn_signals`]).
pub const QUIT_SIGNALS: [i32; 9] = [
    SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGXCPU,
];

/// Starts the thread that feeds `sender` the signals that end, suspend or
/// continue the game; it sleeps until one arrives. Started before the
/// terminal is switched, so that no signal finds it raw with nobody to
/// restore it, and before any other thread: the signals are blocked in the
/// calling thread and so in every thread started after, and this one takes
/// them in the kernel's order. A handler would run on whichever thread the
/// kernel picked, so that two signals sent together (a SIGTERM and the
/// SIGCONT after it) could reach the loop in either order. Returns the set
/// of signals taken, for telling whether one is still on its way.
///
/// SIGXFSZ is ignored instead: a file-size limit raises it against the
/// thread whose write went past the limit, where the signal thread could
/// not take it, and the write fails anyway (EFBIG), to be reported as any
/// failed write; the game goes on.
pub fn spawn_signals(sender: Sender<Message>) -> io::Result<Arc<SignalSet>> {
    sys::ignore(SIGXFSZ)?;
    let watched: Vec<i32> = QUIT_SIGNALS
        .iter()
        .chain(&[SIGTSTP, SIGCONT])
        .copied()
        .collect();
    let signals = Arc::new(SignalSet::of(&watched)?);
    signals.block()?;
    let taken = Arc::clone(&signals);
    thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            while let Ok(signal) = taken.wait() {
                let message = match signal {
                    SIGTSTP => Message::Suspend,
                    SIGCONT => Message::Continued,
                    _ => Message::Signal(signal),
                };
                // Once the loop has ended, signals are only taken, not
                // acted on: nothing may cut short the saving of the game.
                let _ = sender.send(message);
            }
        })?;
    Ok(signals)
}

/// Starts the thread that feeds `sender` terminal events; it sleeps in a
/// blocking read until one arrives. Started once the terminal is raw.
///
/// The terminal's event source, and with it the SIGWINCH handler, is made
/// here, before this returns: made by the thread, it could come after the
/// first frame on a busy machine, and a resize in between would be lost
/// (SIGWINCH is ignored by default). Any failure to make it is the
/// thread's first read's to report.
pub fn spawn_input(sender: Sender<Message>) -> io::Result<()> {
    let _ = event::poll(Duration::ZERO);
    thread::Builder::new().name("input".into()).spawn(move || {
        loop {
            // A panic here must still end the game, or the loop would wait
            // forever on the signal thread alone.
            let message = match std::panic::catch_unwind(event::read) {
                Ok(Ok(event)) => Message::Input(event),
                Ok(Err(_)) | Err(_) => Message::InputFailed,
            };
            let failed = matches!(message, Message::InputFailed);
            if sender.send(message).is_err() || failed {
                break;
            }
        }
    })?;
    Ok(())
}
