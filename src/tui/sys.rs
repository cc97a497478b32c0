//! The one system call the terminal front end needs that no safe API
//! offers: stopping the whole process group.
#![allow(unsafe_code)]

use std::io;

/// Stops every process in this process group, this one included, and
/// returns once continued (SIGCONT). Suspending this way, rather than
/// stopping this process alone, stops a wrapper too (`sh -c "clines; echo
/// after"`), so the shell sees its job stopped and gives the prompt back,
/// as it does for curses programs. SIGSTOP rather than SIGTSTP because it
/// stops even a group that no shell controls (an orphaned group discards
/// SIGTSTP), as the game always has when suspended.
pub fn stop_process_group() -> io::Result<()> {
    // SAFETY: kill takes plain integers and touches no memory of ours; pid 0
    // names the caller's own process group.
    let sent = unsafe { libc::kill(0, libc::SIGSTOP) };
    if sent == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}
