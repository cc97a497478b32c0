//! The terminal's modes.
//!
//! [`Guard`] enables raw mode, the alternate screen, mouse reporting and a
//! hidden cursor, and undoes all of them when dropped. The same restore runs
//! from the panic hook, so a crash never leaves the terminal unusable.
//! Restoring twice is harmless: only the first call writes anything.

use std::io::{self, Write};
use std::panic::PanicHookInfo;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::thread;

use super::sys;

/// Whether the terminal is in the game's modes and needs restoring.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Alternate screen on, then mouse button reporting (1000) in SGR encoding
/// (1006), then the cursor hidden. Mouse motion (1002/1003) is not
/// requested: the game ignores it, and every report would wake it up.
const ENTER_MODES: &[u8] = b"\x1b[?1049h\x1b[?1000;1006h\x1b[?25l";
/// Colours reset, mouse reporting off, cursor shown, the cursor on the
/// bottom row's first column (the terminal stops it at its last row), the
/// alternate screen left. A terminal without an alternate screen (the
/// Linux console, `vt100`) shows the board there still: what is printed
/// next (the shell's "Stopped") then goes below it, as after curses's
/// `endwin`, not over it. One with an alternate screen puts the cursor
/// back where it was before the game.
const LEAVE_MODES: &[u8] = b"\x1b[0m\x1b[?1000;1006l\x1b[?25h\x1b[9999;1H\x1b[?1049l";
/// The screen erased in the terminal's own colours, as the original does
/// as it ends: a terminal without an alternate screen is left blank but for
/// the closing lines at its bottom.
const ERASE: &[u8] = b"\x1b[0m\x1b[2J";

/// The terminal in the game's modes; dropping it restores the terminal.
#[derive(Debug)]
pub struct Guard(());

impl Guard {
    /// Enters raw mode, the alternate screen, mouse reporting and hides the
    /// cursor. On failure, whatever was already enabled is undone.
    pub fn enter() -> io::Result<Guard> {
        crossterm::terminal::enable_raw_mode()?;
        ACTIVE.store(true, Ordering::SeqCst);
        let guard = Guard(());
        let mut out = io::stdout().lock();
        out.write_all(ENTER_MODES)?;
        out.flush()?;
        Ok(guard)
    }

    /// Enters the game's modes as [`Guard::enter`] does, only if the game
    /// has the terminal. Started in the background (`clines &`), the game
    /// would be stopped inside the call (SIGTTOU), again after every
    /// SIGCONT, where no signal could end it; so it leaves the terminal
    /// alone there, and [`Guard::resume`] takes it once the game is brought
    /// to the foreground (`fg`).
    pub fn enter_in_the_foreground() -> io::Result<Guard> {
        if sys::in_foreground() {
            Guard::enter()
        } else {
            Ok(Guard(()))
        }
    }
}

impl Guard {
    /// Job control (Ctrl-Z, SIGTSTP): hands the terminal back to the shell,
    /// then stops the whole process group, as curses programs do, so that
    /// a wrapper stops too. Returns once continued; [`Guard::resume`] then
    /// takes the terminal again.
    pub fn suspend(&mut self) -> io::Result<()> {
        leave(false);
        sys::stop_process_group()
    }

    /// Takes the terminal again after the process was continued (SIGCONT),
    /// however it was stopped: by [`Guard::suspend`], which handed the
    /// terminal back, or from outside (`kill -STOP`), after which the shell
    /// may have put the terminal back in cooked mode and drawn over the
    /// screen. Raw mode is set afresh from the terminal's current settings
    /// and the alternate screen re-entered; the caller repaints.
    pub fn resume(&mut self) -> io::Result<()> {
        // crossterm skips enabling raw mode when it believes it is on.
        crossterm::terminal::disable_raw_mode()?;
        crossterm::terminal::enable_raw_mode()?;
        ACTIVE.store(true, Ordering::SeqCst);
        let mut out = io::stdout().lock();
        out.write_all(ENTER_MODES)?;
        out.flush()
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Puts the terminal back as it was as the game ends, once; later calls do
/// nothing. Errors are ignored: there is nothing better to do on a terminal
/// that is gone. The screen is erased first (see [`ERASE`]).
///
/// In the background (stopped from outside while in the game's modes, then
/// sent there by `bg`, or ended by `kill %1`), the screen's modes are still
/// undone, the write let through even under `stty tostop`, but the line
/// modes are left as they are: the shell has set its own since the game was
/// stopped, and would have them taken from under it. Nor is the screen
/// erased there: without an alternate screen, it is the shell's.
pub fn restore() {
    leave(true);
}

/// Puts the terminal back as [`restore`] does, erasing the screen first
/// when the game is ending (`erase`), not stopping for a while.
fn leave(erase: bool) {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let foreground = sys::in_foreground();
        sys::with_sigttou_blocked(|| {
            let mut out = io::stdout().lock();
            if erase && foreground {
                let _ = out.write_all(ERASE);
            }
            let _ = out.write_all(LEAVE_MODES);
            let _ = out.flush();
            if foreground {
                let _ = crossterm::terminal::disable_raw_mode();
            }
        });
    }
}

/// Installs a panic hook for the calling thread's panics, which runs
/// `first` (to stop reading the keys: once the terminal is restored, what
/// is typed is for the shell), restores the terminal, then runs `then`
/// (for last words such as the score), then the previous hook, which
/// prints the panic message on the restored terminal.
///
/// Another thread's panic leaves the terminal and the game to the game:
/// the threads that run code which could panic (the player's, the
/// input's) catch it and tell the game loop, which ends the game its own
/// way (saving it). Printed while the game has the terminal, the report
/// would be drawn over and lost with the alternate screen, so it is kept
/// for [`report_deferred_panic`], or printed at once where the game does
/// not have the terminal (stopped, or already closing).
pub fn install_panic_hook(
    first: impl Fn() + Send + Sync + 'static,
    then: impl Fn() + Send + Sync + 'static,
) {
    let previous = std::panic::take_hook();
    let main = thread::current().id();
    std::panic::set_hook(Box::new(move |info| {
        if thread::current().id() != main {
            defer_report(info);
            // Kept first, then looked at: a game that has left its screen
            // since may have printed its reports already, without this one.
            if !ACTIVE.load(Ordering::SeqCst) {
                report_deferred_panic();
            }
            return;
        }
        let was_active = ACTIVE.load(Ordering::SeqCst);
        first();
        restore();
        if was_active {
            then();
        }
        report_deferred_panic();
        previous(info);
    }));
}

/// The report of another thread's panic, kept until the terminal is
/// restored.
static DEFERRED: Mutex<Option<String>> = Mutex::new(None);

/// Keeps the report of `info`, in std's words.
fn defer_report(info: &PanicHookInfo) {
    let thread = thread::current();
    let report = crate::runtime::panic_report(info, thread.name().unwrap_or("<unnamed>"));
    let mut deferred = DEFERRED.lock().unwrap_or_else(PoisonError::into_inner);
    // The first panic is the cause; any after it, its consequences.
    deferred.get_or_insert(report);
}

/// Prints the report of another thread's panic on standard error, if one
/// was kept while the game had the terminal. Errors are ignored: standard
/// error may be gone.
pub fn report_deferred_panic() {
    let report = DEFERRED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    if let Some(report) = report {
        let _ = io::stderr().write_all(report.as_bytes());
    }
}
