//! The libc calls the records need, behind safe functions. This is the one
//! place in the records allowed `unsafe` code: the standard library has no
//! user database lookup, no local time and no access check, and its file
//! locks need a newer Rust than the crate's minimum.
#![allow(unsafe_code)]

use std::ffi::CStr;
use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;

/// The largest buffer tried for one user database entry.
const MAX_PASSWD_BUFFER: usize = 1 << 20;

/// The real user id of this process.
pub(super) fn real_uid() -> u32 {
    // SAFETY: getuid has no preconditions and cannot fail.
    unsafe { libc::getuid() }
}

/// The user database's name for `uid`: `Ok(None)` when it has no entry.
pub(super) fn user_name(uid: u32) -> io::Result<Option<String>> {
    let mut buf = vec![0u8; 1024];
    loop {
        // SAFETY: passwd is plain data; all-zero is a valid value to be
        // overwritten by getpwuid_r.
        let mut entry: libc::passwd = unsafe { std::mem::zeroed() };
        let mut found: *mut libc::passwd = std::ptr::null_mut();
        // SAFETY: every pointer is valid for the call and `buf.len()` is the
        // buffer's real size; the strings written into `entry` point into
        // `buf`, which outlives their use below.
        let rc = unsafe {
            libc::getpwuid_r(
                uid,
                &mut entry,
                buf.as_mut_ptr().cast(),
                buf.len(),
                &mut found,
            )
        };
        if rc == libc::ERANGE && buf.len() < MAX_PASSWD_BUFFER {
            buf.resize(buf.len() * 2, 0);
            continue;
        }
        if rc != 0 {
            return Err(io::Error::from_raw_os_error(rc));
        }
        if found.is_null() || entry.pw_name.is_null() {
            return Ok(None);
        }
        // SAFETY: getpwuid_r succeeded, so pw_name is a NUL-terminated
        // string inside `buf`, which is still alive.
        let name = unsafe { CStr::from_ptr(entry.pw_name) };
        return Ok(Some(name.to_string_lossy().into_owned()));
    }
}

/// Tries once to take an exclusive `flock` on `file` without waiting:
/// `Ok(false)` when another open file holds it. Closing `file` releases it.
pub(super) fn try_lock_exclusive(file: &File) -> io::Result<bool> {
    loop {
        // SAFETY: flock on a descriptor that `file` keeps open for the call.
        let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if rc == 0 {
            return Ok(true);
        }
        let error = io::Error::last_os_error();
        match error.raw_os_error() {
            Some(libc::EINTR) => continue,
            Some(libc::EWOULDBLOCK) => return Ok(false),
            _ => return Err(error),
        }
    }
}

/// The local calendar date (year, month 1-12, day 1-31) of `secs` seconds
/// after the Unix epoch, in the time zone `TZ` or the system names; `None`
/// for a time the C library cannot convert.
pub(super) fn local_date(secs: u64) -> Option<(i64, u32, u32)> {
    // Typed by localtime_r's parameter: naming `time_t` is deprecated on
    // musl, where its width changed.
    let time = secs.try_into().ok()?;
    // SAFETY: tm is plain data; all-zero is a valid value to be overwritten
    // by localtime_r.
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    // SAFETY: both pointers are valid for the call; localtime_r is the
    // thread-safe form, writing only into `tm`.
    let converted = unsafe { libc::localtime_r(&time, &mut tm) };
    if converted.is_null() {
        return None;
    }
    let month = u32::try_from(tm.tm_mon + 1).ok()?;
    let day = u32::try_from(tm.tm_mday).ok()?;
    Some((i64::from(tm.tm_year) + 1900, month, day))
}

/// `path` as C takes it; an error for a path holding a NUL byte.
fn c_path(path: &std::path::Path) -> io::Result<std::ffi::CString> {
    use std::os::unix::ffi::OsStrExt;
    Ok(std::ffi::CString::new(path.as_os_str().as_bytes())?)
}

/// Whether this process may make and replace files in the directory
/// `dir` (write and search permission, by its effective ids, as a save
/// would be judged); the error says why not.
pub(super) fn may_write_in(dir: &std::path::Path) -> io::Result<()> {
    let path = c_path(dir)?;
    // SAFETY: `path` is a valid NUL-terminated string for the call.
    let rc = unsafe {
        libc::faccessat(
            libc::AT_FDCWD,
            path.as_ptr(),
            libc::W_OK | libc::X_OK,
            libc::AT_EACCESS,
        )
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Makes a named pipe at `path`, for tests that plant one.
#[cfg(test)]
pub(super) fn make_fifo(path: &std::path::Path) -> io::Result<()> {
    let path = c_path(path)?;
    // SAFETY: `path` is a valid NUL-terminated string for the call.
    if unsafe { libc::mkfifo(path.as_ptr(), 0o644) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}
