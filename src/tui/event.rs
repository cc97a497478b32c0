//! The event loop's protocol: every [`Message`] that can wake the loop, and
//! the threads that feed the terminal's events and the signals into it.
//!
//! The loop owns this protocol; its sources (the input and signal threads
//! here, the built-in player in `player`) only send into it, so no source
//! knows another.

use std::io::{self, IsTerminal};
use std::os::fd::{AsFd, BorrowedFd};
use std::os::unix::net::UnixStream;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use crossterm::event;
use libc::{
    SIGALRM, SIGCONT, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGTSTP, SIGTTIN, SIGUSR1, SIGUSR2,
    SIGVTALRM, SIGWINCH, SIGXCPU,
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
    /// Reading the terminal failed, or it hung up: it has most likely been
    /// closed.
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
    /// A thread of the game panicked: it answers no more.
    Panicked(Part),
}

/// A part of the game that runs in a thread of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The built-in player, answering hints and autoplay.
    Player,
    /// The reading of keys, mouse and resizes.
    Input,
}

/// The signals that end the game, saving its record: the ones meant to end
/// a program, and the others that would kill it where nobody handles them
/// (a CPU-time limit's SIGXCPU, a stray SIGUSR1 or alarm), which would leave
/// the terminal raw and the record unsaved. SIGHUP and SIGTERM cut the game
/// short, and it is saved to go on with; the others end it as `q` does.
/// SIGPROF is left to profilers. SIGXFSZ is ignored from the start
/// (`runtime`): a file-size limit sends it to the thread whose write went
/// past the limit, where the signal thread could not take it, and the
/// write fails anyway, to be reported as any failed write.
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
pub fn spawn_signals(sender: Sender<Message>) -> io::Result<Arc<SignalSet>> {
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

/// How many times the game has taken the terminal back after a stop, for
/// the input thread to wait on while the game is in the background, and
/// whether the game is closing, when the thread must read no more.
#[derive(Debug, Default)]
pub struct Foreground {
    state: Mutex<Turns>,
    changed: Condvar,
}

/// What [`Foreground`] keeps.
#[derive(Debug, Default)]
struct Turns {
    /// Times the terminal has been taken back.
    taken: u64,
    /// Whether the game is closing.
    closing: bool,
}

impl Foreground {
    /// Times the terminal has been taken back so far.
    pub fn taken(&self) -> u64 {
        self.turns().taken
    }

    /// Notes that the game has taken the terminal back.
    pub fn take(&self) {
        self.turns().taken += 1;
        self.changed.notify_all();
    }

    /// Sleeps until the terminal has been taken back more than `since`
    /// times, or the game is closing.
    pub fn wait_past(&self, since: u64) {
        drop(
            self.changed
                .wait_while(self.turns(), |turns| turns.taken <= since && !turns.closing)
                .unwrap_or_else(PoisonError::into_inner),
        );
    }

    /// Notes that the game is closing, waking a wait for the terminal.
    fn close(&self) {
        self.turns().closing = true;
        self.changed.notify_all();
    }

    /// Whether the game is closing.
    fn closing(&self) -> bool {
        self.turns().closing
    }

    fn turns(&self) -> MutexGuard<'_, Turns> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The thread reading the terminal's events, to be stopped before the game
/// gives the terminal back ([`Input::stop`]).
#[derive(Debug)]
pub struct Input {
    thread: JoinHandle<()>,
    foreground: Arc<Foreground>,
}

impl Input {
    /// Stops the thread and waits for it to end, so that the game reads
    /// nothing typed from now on. Bytes still in the terminal's queue stay
    /// there: a line typed while the game closes (saving, writing records),
    /// the terminal back in cooked mode, is the shell's next command, as it
    /// is after a program that reads no more.
    ///
    /// The thread sleeps in the terminal's event source, which has no way
    /// to be woken but input and a resize. So the game raises a SIGWINCH on
    /// itself, which the source takes for a resize and returns from its
    /// read; the thread drops that event, finding the game closing.
    pub fn stop(self) {
        self.foreground.close();
        // Should raising fail, the thread is left reading rather than the
        // closing hung on it.
        if sys::raise(SIGWINCH).is_ok() {
            let _ = self.thread.join();
        }
    }
}

/// Where the input thread is kept once started, so that whichever comes
/// first, the game's end or a panic on the game's thread (its panic hook),
/// stops it before the terminal is given back.
#[derive(Debug, Default)]
pub struct InputSlot(Mutex<Option<Input>>);

impl InputSlot {
    /// Keeps `input` until [`InputSlot::stop`].
    pub fn hold(&self, input: Input) {
        *self.input() = Some(input);
    }

    /// Stops the thread held, if any ([`Input::stop`]); a second call
    /// finds none.
    pub fn stop(&self) {
        // Taken out first: the lock is not held while the thread ends.
        let input = self.input().take();
        if let Some(input) = input {
            input.stop();
        }
    }

    fn input(&self) -> MutexGuard<'_, Option<Input>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Starts the thread that feeds `sender` terminal events; it sleeps in a
/// blocking read until one arrives. Started once the terminal is raw, and
/// stopped ([`Input::stop`]) before the terminal is given back.
///
/// The terminal's event source, and with it the SIGWINCH handler, is made
/// here, before this returns: made by the thread, it could come after the
/// first frame on a busy machine, and a resize in between would be lost
/// (SIGWINCH is ignored by default). Any failure to make it is the
/// thread's first read's to report.
///
/// Reading the terminal from the background would stop the whole game
/// (SIGTTIN), even while it ends, saving itself, after `kill %1`; so the
/// thread blocks SIGTTIN, and a read there fails instead. The thread then
/// waits for the game to take the terminal back (`foreground`), and a
/// terminal that fails in the foreground, twice in a row, is taken for
/// lost: the first failure may have come from the background, just before
/// `fg`. The foreground is told from standard output, the terminal drawn
/// on; keys read from another terminal (standard output a terminal other
/// than the controlling one) fail twice there and end the game, where they
/// stopped it before.
pub fn spawn_input(sender: Sender<Message>, foreground: Arc<Foreground>) -> io::Result<Input> {
    let _ = event::poll(Duration::ZERO);
    let shared = Arc::clone(&foreground);
    let thread = thread::Builder::new().name("input".into()).spawn(move || {
        let sigttin_blocked = SignalSet::of(&[SIGTTIN]).and_then(|set| set.block());
        let mut failed_before = false;
        while !foreground.closing() {
            let taken = foreground.taken();
            // A panic here must still end the game, or the loop would wait
            // forever on the signal thread alone.
            let got = std::panic::catch_unwind(read);
            if foreground.closing() {
                break;
            }
            let message = match got {
                Ok(Ok(event)) => Message::Input(event),
                Ok(Err(_)) if sigttin_blocked.is_ok() && !sys::in_foreground() => {
                    failed_before = false;
                    foreground.wait_past(taken);
                    continue;
                }
                Ok(Err(_)) if sigttin_blocked.is_ok() && !failed_before => {
                    failed_before = true;
                    continue;
                }
                Ok(Err(_)) => Message::InputFailed,
                Err(_) => Message::Panicked(Part::Input),
            };
            failed_before = false;
            let failed = matches!(message, Message::InputFailed | Message::Panicked(_));
            if sender.send(message).is_err() || failed {
                break;
            }
        }
    })?;
    Ok(Input {
        thread,
        foreground: shared,
    })
}

/// The thread that watches the terminal for a hangup
/// ([`spawn_hangup_watch`]), to be stopped as the game ends.
#[derive(Debug)]
pub struct HangupWatch {
    thread: JoinHandle<()>,
    /// The other end of the socket the thread also waits on.
    wake: UnixStream,
}

impl HangupWatch {
    /// Stops the thread and waits for it to end: closing this end of the
    /// wake socket ends its wait.
    pub fn stop(self) {
        drop(self.wake);
        let _ = self.thread.join();
    }
}

/// Starts the thread that sleeps until the terminal hangs up (standard
/// input or output, whichever is a terminal), then tells the loop that
/// input failed. Closing a terminal sends SIGHUP only to the session it
/// controls; a game started outside it (`setsid clines`) hears only this,
/// and its input thread cannot tell it either, since the terminal's event
/// source takes a closed terminal's empty reads for no input, and spins.
pub fn spawn_hangup_watch(sender: Sender<Message>) -> io::Result<HangupWatch> {
    let (wake, waker) = UnixStream::pair()?;
    let thread = thread::Builder::new()
        .name("hangup".into())
        .spawn(move || {
            let stdin = io::stdin();
            let stdout = io::stdout();
            let watched: Vec<BorrowedFd<'_>> = [stdin.as_fd(), stdout.as_fd()]
                .into_iter()
                .filter(IsTerminal::is_terminal)
                .collect();
            // A failed wait leaves the game to its signals and its reads.
            if let Ok(true) = sys::wait_for_hangup(&watched, wake.as_fd()) {
                let _ = sender.send(Message::InputFailed);
            }
        })?;
    Ok(HangupWatch {
        thread,
        wake: waker,
    })
}

/// The next event from the terminal.
fn read() -> io::Result<event::Event> {
    let event = event::read();
    // A bug in reading a key, when a test asks for one with F12, a key
    // the game leaves alone.
    #[cfg(debug_assertions)]
    if matches!(&event, Ok(event::Event::Key(key)) if key.code == event::KeyCode::F(12)) {
        crate::runtime::panic_if_asked("input");
    }
    event
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_for_the_terminal_ends_once_it_is_taken_back() {
        let foreground = Arc::new(Foreground::default());
        let before = foreground.taken();
        // Taken back already: no wait.
        foreground.take();
        foreground.wait_past(before);
        let now = foreground.taken();
        assert_eq!(now, before + 1);
        let (sender, receiver) = std::sync::mpsc::channel();
        let waiting = Arc::clone(&foreground);
        let waiter = thread::spawn(move || {
            waiting.wait_past(now);
            sender.send(waiting.taken()).unwrap();
        });
        // Not taken back yet: still waiting.
        let early = receiver.recv_timeout(Duration::from_millis(50));
        assert!(early.is_err(), "{early:?}");
        foreground.take();
        let answer = receiver.recv_timeout(Duration::from_secs(30));
        assert_eq!(answer, Ok(now + 1));
        waiter.join().unwrap();
    }

    #[test]
    fn a_wait_for_the_terminal_ends_once_the_game_is_closing() {
        let foreground = Arc::new(Foreground::default());
        let (sender, receiver) = std::sync::mpsc::channel();
        let waiting = Arc::clone(&foreground);
        let waiter = thread::spawn(move || {
            waiting.wait_past(waiting.taken());
            sender.send(waiting.closing()).unwrap();
        });
        assert!(!foreground.closing());
        foreground.close();
        let answer = receiver.recv_timeout(Duration::from_secs(30));
        assert_eq!(answer, Ok(true));
        assert_eq!(foreground.taken(), 0, "closing takes nothing back");
        waiter.join().unwrap();
    }
}
