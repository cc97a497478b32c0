//! The libc calls the program's own start-up needs, behind safe functions:
//! std makes them in the runtime set-up that `clines` does without (see
//! [`super`]), and offers no API for them.
#![allow(unsafe_code)]

use std::ffi::{CStr, OsStr, OsString, c_char, c_int};
use std::io;
use std::os::unix::ffi::OsStrExt;

/// Opens `/dev/null` on whichever of the standard streams 0, 1 and 2 is
/// closed, so that none of them can be taken by a file the program opens
/// later: a record file must never become standard output. Aborts if a
/// closed stream cannot be reopened, as std does, since writing to the
/// stream would then reach whatever file came to hold its number. Returns
/// which of the three were closed.
pub(super) fn open_closed_standard_streams() -> [bool; 3] {
    let mut streams = [0, 1, 2].map(|fd| libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    });
    loop {
        // SAFETY: `streams` is a live array of three pollfd structs and the
        // count given is its length; a zero timeout only asks.
        let polled = unsafe { libc::poll(streams.as_mut_ptr(), 3, 0) };
        if polled >= 0 {
            break;
        }
        match io::Error::last_os_error().raw_os_error() {
            Some(libc::EINTR) => continue,
            // poll itself failed (too many files, no memory): ask each
            // stream alone.
            _ => {
                for stream in &mut streams {
                    // SAFETY: F_GETFD only reads the descriptor's flags.
                    let closed = unsafe { libc::fcntl(stream.fd, libc::F_GETFD) } == -1
                        && io::Error::last_os_error().raw_os_error() == Some(libc::EBADF);
                    stream.revents = if closed { libc::POLLNVAL } else { 0 };
                }
                break;
            }
        }
    }
    let closed = streams.map(|stream| stream.revents & libc::POLLNVAL != 0);
    for _ in closed.iter().filter(|&&closed| closed) {
        // SAFETY: the path is a valid C string; open takes no pointer it
        // keeps. The lowest free number is the first closed stream's.
        let opened = unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) };
        if opened == -1 {
            std::process::abort();
        }
    }
    closed
}

/// Ignores SIGPIPE, as std does before `main`: writing to a pipe whose
/// reader is gone then fails with `BrokenPipe` instead of killing the
/// process. Processes the program starts get the default action back
/// (std's `Command` resets it). SIGXFSZ, which a file-size limit (`ulimit
/// -f`) sends to a thread writing past it, is ignored too: the write then
/// fails (`File too large`) and is reported as any failed write, where the
/// signal would kill the program, leaving a terminal in the game's modes.
pub(super) fn ignore_write_signals() {
    for signal in [libc::SIGPIPE, libc::SIGXFSZ] {
        // SAFETY: SIG_IGN is a valid disposition for both; no handler code
        // of ours is installed.
        unsafe {
            libc::signal(signal, libc::SIG_IGN);
        }
    }
}

/// The command line as C's `main` received it; a null entry ends it early.
///
/// # Safety
/// `argv` must hold `argc` pointers, each null or to a NUL-terminated
/// string, as the C start-up code passes to `main`.
pub(super) unsafe fn args(argc: c_int, argv: *const *const c_char) -> Vec<OsString> {
    let count = usize::try_from(argc).unwrap_or(0);
    let mut args = Vec::with_capacity(count);
    for i in 0..count {
        // SAFETY: i < argc, within the array the caller vouches for.
        let arg = unsafe { *argv.add(i) };
        if arg.is_null() {
            break;
        }
        // SAFETY: a non-null entry is a NUL-terminated string.
        let bytes = unsafe { CStr::from_ptr(arg) }.to_bytes();
        args.push(OsStr::from_bytes(bytes).to_os_string());
    }
    args
}

#[cfg(test)]
mod tests {
    use std::ffi::CString;
    use std::ptr;

    use super::*;

    #[test]
    fn the_command_line_is_read_from_argv_bytes_and_all() {
        let strings = [&b"clines"[..], b"-w", b"5", b"caf\xe9", b""]
            .map(|bytes| CString::new(bytes).unwrap());
        let mut argv: Vec<*const c_char> = strings.iter().map(|s| s.as_ptr()).collect();
        argv.push(ptr::null());
        let expected: Vec<OsString> = strings
            .iter()
            .map(|s| OsStr::from_bytes(s.as_bytes()).to_os_string())
            .collect();
        // SAFETY: argv holds live NUL-terminated strings, then a null.
        let read = |argc: usize| unsafe { args(c_int::try_from(argc).unwrap(), argv.as_ptr()) };
        assert_eq!(read(strings.len()), expected);
        // A null entry ends the list, whatever argc says.
        assert_eq!(read(argv.len()), expected);
        assert_eq!(read(2), expected[..2]);
        assert_eq!(read(0), Vec::<OsString>::new());
    }
}
