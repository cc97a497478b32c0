//! The system calls of job control and signals that no safe API offers:
//! stopping the whole process group, telling whether a shell could continue
//! it, and taking signals in the order they came.
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

/// A set of signals, blocked in every thread and taken by one
/// ([`SignalSet::wait`]), so that none is handled anywhere else and they
/// are taken in the kernel's order.
pub struct SignalSet {
    set: libc::sigset_t,
}

impl SignalSet {
    /// The set of `signals`.
    pub fn of(signals: &[i32]) -> io::Result<SignalSet> {
        // SAFETY: a sigset_t is plain integers, for which all zeros is a
        // value.
        let mut set = unsafe { std::mem::zeroed() };
        // SAFETY: sigemptyset and sigaddset only write into the set they
        // are given.
        let made = unsafe {
            libc::sigemptyset(&mut set) == 0
                && signals
                    .iter()
                    .all(|&signal| libc::sigaddset(&mut set, signal) == 0)
        };
        if !made {
            return Err(io::Error::last_os_error());
        }
        Ok(SignalSet { set })
    }

    /// Blocks the set in the calling thread, and so in every thread it
    /// starts afterwards: a signal of the set then stays pending, whatever
    /// thread it was sent to, until [`SignalSet::wait`] takes it.
    pub fn block(&self) -> io::Result<()> {
        // SAFETY: the set is initialised; a null old set is allowed.
        match unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &self.set, std::ptr::null_mut()) } {
            0 => Ok(()),
            code => Err(io::Error::from_raw_os_error(code)),
        }
    }

    /// Waits until a signal of the set is pending, and takes it. Of several
    /// pending at once, Linux gives the lowest-numbered first, so that a
    /// SIGTERM sent with a SIGCONT (`kill %1` to a stopped job) comes first.
    pub fn wait(&self) -> io::Result<i32> {
        let mut signal = 0;
        // SAFETY: the set is initialised and `signal` is a valid place for
        // the answer.
        match unsafe { libc::sigwait(&self.set, &mut signal) } {
            0 => Ok(signal),
            code => Err(io::Error::from_raw_os_error(code)),
        }
    }
}
