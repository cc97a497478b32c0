//! The system calls of job control that no safe API offers: stopping the
//! whole process group, and telling whether a shell could continue it.
#![allow(unsafe_code)]

use std::io;

/// Stops every process in this process group, this one included, and
/// returns once continued (SIGCONT). Suspending this way, rather than
/// stopping this process alone, stops a wrapper too (`sh -c "clines; echo
/// after"`), so the shell sees its job stopped and gives the prompt back,
/// as it does for curses programs. SIGSTOP rather than SIGTSTP, which the
/// game's own handler would catch.
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

/// Whether this process group is a job of a shell with job control: one
/// that is not the group of the session's leader. The session leader's
/// group is the program a terminal window or ssh started (`xterm -e
/// clines`, `ssh -t host clines`), or a wrapper of it: no shell waits to
/// continue it once stopped. The kernel discards a SIGTSTP sent to such
/// a group for that reason, and Ctrl-Z does not stop the game there.
pub fn in_a_job() -> bool {
    // SAFETY: getpgrp and getsid take and return plain integers; pid 0
    // names the caller. getsid cannot fail for the caller, and if it did
    // (-1) the game would stop as it did before.
    let (group, session) = unsafe { (libc::getpgrp(), libc::getsid(0)) };
    group != session
}
