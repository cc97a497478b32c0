//! The system calls of job control and signals that no safe API offers:
//! stopping the whole process group, telling whether a shell could continue
//! it and whether it has the terminal, taking signals in the order they
//! came, and waiting for the terminal to hang up.
#![allow(unsafe_code)]

use std::io;
use std::os::fd::{AsRawFd, BorrowedFd};

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

/// Whether this process group is the terminal's foreground group, or the
/// terminal cannot say (standard output is not this process's controlling
/// terminal, or the terminal is gone): whether the terminal is the game's
/// to draw on. A group in the background that set the terminal's modes
/// would be stopped (SIGTTOU) inside the call, and again after every
/// SIGCONT, where no signal could end it.
pub fn in_foreground() -> bool {
    let terminal = io::stdout().as_raw_fd();
    // SAFETY: tcgetpgrp and getpgrp take and return plain integers; a
    // descriptor that is not a terminal only makes tcgetpgrp fail (-1).
    let (foreground, group) = unsafe { (libc::tcgetpgrp(terminal), libc::getpgrp()) };
    foreground == -1 || foreground == group
}

/// Sends `signal` to the calling thread, which runs its handler before this
/// returns.
pub fn raise(signal: i32) -> io::Result<()> {
    // SAFETY: raise takes a plain integer and touches no memory of ours.
    if unsafe { libc::raise(signal) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Sleeps until one of `watched` hangs up or fails (its other end closed,
/// as a terminal's when its window goes), returning `true`, or until
/// anything happens on `wake` (a byte, or its other end closed), returning
/// `false`. Asks for no data on `watched`: a terminal's input is left to
/// its reader, and a poll, unlike a read, does not stop a game in the
/// background.
pub fn wait_for_hangup(watched: &[BorrowedFd<'_>], wake: BorrowedFd<'_>) -> io::Result<bool> {
    let poll_fd = |fd: &BorrowedFd<'_>, events| libc::pollfd {
        fd: fd.as_raw_fd(),
        events,
        revents: 0,
    };
    let mut fds: Vec<libc::pollfd> = watched.iter().map(|fd| poll_fd(fd, 0)).collect();
    fds.push(poll_fd(&wake, libc::POLLIN));
    let count = libc::nfds_t::try_from(fds.len()).map_err(io::Error::other)?;
    loop {
        // SAFETY: `fds` is a live array of `count` initialised pollfds,
        // which poll only writes the `revents` of; the descriptors are
        // borrowed, so open for the call.
        if unsafe { libc::poll(fds.as_mut_ptr(), count, -1) } >= 0 {
            break;
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
    let watched = &fds[..fds.len() - 1];
    let gone = libc::POLLHUP | libc::POLLERR | libc::POLLNVAL;
    Ok(watched.iter().any(|fd| fd.revents & gone != 0))
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
        loop {
            let mut signal = 0;
            // SAFETY: the set is initialised and `signal` is a valid place
            // for the answer.
            match unsafe { libc::sigwait(&self.set, &mut signal) } {
                // Some systems end the wait for a signal that a handler
                // took (EINTR), or answer 0 then with no signal: wait on.
                libc::EINTR => {}
                0 if signal == 0 => {}
                0 => return Ok(signal),
                code => return Err(io::Error::from_raw_os_error(code)),
            }
        }
    }

    /// Whether a signal of the set is pending: sent, and not yet taken by
    /// [`SignalSet::wait`].
    pub fn any_pending(&self) -> bool {
        // SAFETY: a sigset_t is plain integers, for which all zeros is a
        // value.
        let mut pending = unsafe { std::mem::zeroed() };
        // SAFETY: sigpending writes the pending set into `pending`, and
        // sigismember only reads the two sets. The standard signals (1 to
        // 31) are every one a set is made of here.
        unsafe {
            libc::sigpending(&mut pending) == 0
                && (1..32).any(|signal| {
                    libc::sigismember(&self.set, signal) == 1
                        && libc::sigismember(&pending, signal) == 1
                })
        }
    }
}

/// Runs `f` with SIGTTOU blocked in the calling thread, so that what it
/// writes to the terminal goes through from the background, even under
/// `stty tostop`, instead of stopping the game inside the write.
pub fn with_sigttou_blocked<T>(f: impl FnOnce() -> T) -> T {
    /// The calling thread's signal mask before SIGTTOU was blocked, put
    /// back when dropped, even by a panic.
    struct Restore(libc::sigset_t);

    impl Drop for Restore {
        fn drop(&mut self) {
            // SAFETY: the mask was written by pthread_sigmask.
            unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &self.0, std::ptr::null_mut()) };
        }
    }

    let Ok(sigttou) = SignalSet::of(&[libc::SIGTTOU]) else {
        return f();
    };
    // SAFETY: a sigset_t is plain integers, for which all zeros is a value.
    let mut before = unsafe { std::mem::zeroed() };
    // SAFETY: pthread_sigmask reads the initialised set and writes the mask
    // it replaces into `before`.
    let blocked = unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &sigttou.set, &mut before) } == 0;
    let _restore = blocked.then(|| Restore(before));
    f()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sends `signal` to the calling thread alone, so that no other thread
    /// of the test process can take it.
    fn send_to_this_thread(signal: i32) {
        // SAFETY: pthread_kill takes the calling thread's own handle and a
        // plain signal number.
        let failed = unsafe { libc::pthread_kill(libc::pthread_self(), signal) };
        assert_eq!(failed, 0);
    }

    /// That keys waiting on the terminal do not end the wait is the pty
    /// test's to check (`closing_the_terminal_of_a_game_outside_its_session`
    /// types keys before the hangup): here a wait that began before them
    /// could not be told from one that began after.
    #[test]
    fn a_wait_for_a_hangup_ends_at_one_or_when_woken() {
        use std::io::Write;
        use std::os::fd::AsFd;
        use std::os::unix::net::UnixStream;
        let (watched, far_end) = UnixStream::pair().unwrap();
        let (wake, _waker) = UnixStream::pair().unwrap();
        drop(far_end);
        assert!(wait_for_hangup(&[watched.as_fd()], wake.as_fd()).unwrap());
        // Woken, with nothing hung up.
        let (watched, _far_end) = UnixStream::pair().unwrap();
        let (wake, mut waker) = UnixStream::pair().unwrap();
        waker.write_all(&[0]).unwrap();
        assert!(!wait_for_hangup(&[watched.as_fd()], wake.as_fd()).unwrap());
    }

    #[test]
    fn signals_sent_together_are_taken_lowest_numbered_first() {
        // A thread of its own: the mask it changes goes with it.
        std::thread::spawn(|| {
            let set = SignalSet::of(&[libc::SIGTERM, libc::SIGCONT, libc::SIGXCPU]).unwrap();
            set.block().unwrap();
            assert!(!set.any_pending());
            for signal in [libc::SIGXCPU, libc::SIGCONT, libc::SIGTERM] {
                send_to_this_thread(signal);
            }
            assert!(set.any_pending());
            let taken: Vec<i32> = (0..3).map(|_| set.wait().unwrap()).collect();
            assert_eq!(taken, [libc::SIGTERM, libc::SIGCONT, libc::SIGXCPU]);
            assert!(!set.any_pending());
        })
        .join()
        .unwrap();
    }

    #[test]
    fn sigttou_is_blocked_inside_and_the_mask_put_back_after() {
        std::thread::spawn(|| {
            let blocked = || {
                // SAFETY: as in `with_sigttou_blocked`; a null new set only
                // reads the mask.
                let mut mask = unsafe { std::mem::zeroed() };
                // SAFETY: as above.
                unsafe {
                    libc::pthread_sigmask(libc::SIG_BLOCK, std::ptr::null(), &mut mask);
                    libc::sigismember(&mask, libc::SIGTTOU) == 1
                }
            };
            let before = blocked();
            assert!(with_sigttou_blocked(blocked));
            assert_eq!(blocked(), before, "the mask as it was");
        })
        .join()
        .unwrap();
    }
}
