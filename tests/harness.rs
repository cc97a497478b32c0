//! The pty harness itself (`tests/pty`): a test whose program has died
//! must fail with a message, not hang.

use crate::pty;

use std::sync::mpsc;
use std::time::Duration;

use pty::{Options, SendError, TIMEOUT, Term};

/// Far more than a pseudo-terminal buffers for a program that does not
/// read (some 64 KiB on Linux).
const MORE_THAN_THE_BUFFER: usize = 1 << 20;

/// Runs `send` on a thread of its own and returns what it returned, or
/// fails the test if it has not returned within `limit`: a send that
/// hangs fails this test instead of hanging the run.
fn within<T: Send + 'static>(limit: Duration, send: impl FnOnce() -> T + Send + 'static) -> T {
    let (done, result) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(send());
    });
    result
        .recv_timeout(limit)
        .unwrap_or_else(|_| panic!("the send did not return within {limit:?}"))
}

/// Starts `sh -c script` and waits for it to print `ready`.
fn shell(script: &str) -> Term {
    let term = Term::spawn("sh", Options::new(80, 24).args(["-c", script]));
    term.expect_text("ready");
    term
}

#[test]
fn typing_to_a_program_that_exited_fails_at_once_naming_the_keys() {
    // Raw mode, so that the terminal buffers all it can before the exit.
    let mut term = shell("stty raw -echo; echo ready; exec sleep 0");
    let status = term.wait_exit(TIMEOUT);
    assert!(status.success(), "{status}");
    let keys = vec![b'x'; MORE_THAN_THE_BUFFER];
    let error = within(TIMEOUT, move || {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| term.send(&keys)));
        outcome.expect_err("typing to a program that exited fails")
    });
    let message = error
        .downcast_ref::<String>()
        .expect("a formatted panic message");
    assert!(
        message.starts_with("typing \"xxxx") && message.contains("(1048576 bytes)"),
        "the keys named: {message}"
    );
    assert!(message.contains("the program exited"), "{message}");
}

#[test]
fn typing_to_a_program_that_stopped_reading_fails_after_the_patience() {
    let mut term = shell("stty raw -echo; echo ready; exec sleep 120");
    let patience = Duration::from_millis(300);
    let keys = vec![b'x'; MORE_THAN_THE_BUFFER];
    let error: SendError = within(TIMEOUT, move || {
        let outcome = term.try_send(&keys, patience);
        outcome.expect_err("typing to a program that does not read fails")
    });
    let message = error.to_string();
    assert!(
        message.contains("the program stopped reading: it took nothing for 300ms"),
        "{message}"
    );
}

/// Typing more than the terminal buffers to a program that reads it all
/// still works: the sender waits for room.
#[test]
fn typing_more_than_the_buffer_to_a_reader_succeeds() {
    let mut term = shell(&format!(
        "stty raw -echo; echo ready; head -c {MORE_THAN_THE_BUFFER} >/dev/null; echo read-all"
    ));
    term.send(&vec![b'x'; MORE_THAN_THE_BUFFER]);
    term.expect_text("read-all");
    assert!(term.wait_exit(TIMEOUT).success());
}
