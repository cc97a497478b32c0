//! The system calls of job control that no safe API offers: stopping the
//! whole process group, and telling whether a shell could continue it.
#![allow(unsafe_code)]

use std::io;
use std::os::fd::AsRawFd;

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

/// Whether this process group is the terminal's foreground group, or the
/// terminal cannot say (not our controlling terminal, or gone): whether
/// its modes are ours to set. A group in the background that set them
/// would be stopped (SIGTTOU) inside the call, again after every SIGCONT,
/// where no signal's handling could reach it.
pub fn in_foreground() -> bool {
    let terminal = io::stdout().as_raw_fd();
    // SAFETY: tcgetpgrp and getpgrp take and return plain integers; a
    // descriptor that is not a terminal only makes tcgetpgrp fail (-1).
    let (foreground, group) = unsafe { (libc::tcgetpgrp(terminal), libc::getpgrp()) };
    foreground == -1 || foreground == group
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
