//! Starts that are refused: too small a terminal, no terminal, a terminal
//! that cannot move the cursor.

use super::*;

#[test]
fn too_small_messages_wrap_at_the_terminal_width() {
    let (mut term, view) = start(100, 50, 96, &[], &[]);
    term.resize(15, 50);
    let wrapped = [
        "19 chars wide t",
        "erminal require",
        "d, now it's 15",
        "Please resize t",
        "he window again",
    ];
    term.expect("the messages wrapped at 15 columns", |screen| {
        let rows: Vec<String> = screen.rows(0, 15).take(wrapped.len()).collect();
        if rows == wrapped {
            Ok(())
        } else {
            Err(format!("{rows:?}"))
        }
    });
    term.resize(100, 50);
    expect_view(&term, &view, "the same board after resizing back");
    quit_and_check(&mut term, 0);
}

/// Checks a refused start: exit status 1, standard error saying each of
/// `says`, and not a single escape sequence sent to the terminal.
fn refused_start(term: &mut Term, says: &[&str]) {
    let status = term.wait_exit(TIMEOUT);
    assert_eq!(status.code(), Some(1), "exit status {status:?}");
    let stderr = term.stderr();
    for part in says {
        assert!(stderr.contains(part), "stderr {stderr:?} lacks {part:?}");
    }
    let raw = term.raw_output();
    assert!(
        !raw.contains(&0x1b),
        "the terminal was touched: {:?}",
        String::from_utf8_lossy(&raw)
    );
    term.assert_restored();
}

#[test]
fn output_not_a_terminal_is_refused_suggesting_batch() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let script = format!("exec {CLINES} > '{}'", out.display());
    let mut term = Term::spawn(
        "sh",
        Options::new(100, 50)
            .args(["-c", &script])
            .separate_stderr(),
    );
    refused_start(&mut term, &["standard output is not a terminal", "--batch"]);
    assert_eq!(
        std::fs::read(&out).unwrap(),
        b"",
        "nothing drawn in the file"
    );
}

#[test]
fn no_terminal_at_all_is_refused_suggesting_batch() {
    // A new session has no controlling terminal; standard output is still
    // the terminal, standard input not.
    let script = format!("exec setsid -w {CLINES} </dev/null");
    let mut term = Term::spawn(
        "sh",
        Options::new(100, 50)
            .args(["-c", &script])
            .separate_stderr(),
    );
    refused_start(&mut term, &["there is no terminal", "--batch"]);
}

#[test]
fn terminals_that_cannot_move_the_cursor_are_refused() {
    let mut term = Term::spawn(
        CLINES,
        Options::new(100, 50).env("TERM", "dumb").separate_stderr(),
    );
    refused_start(
        &mut term,
        &["TERM=dumb", "cannot move its cursor", "--batch"],
    );
    // Any entry without cursor addressing, whatever its name: the system's
    // dumb entry under another name.
    let Some(dumb) = ["/usr/share/terminfo/d/dumb", "/lib/terminfo/d/dumb"]
        .into_iter()
        .find(|path| std::path::Path::new(path).is_file())
    else {
        eprintln!("skipping the renamed entry: no system terminfo entry for dumb");
        return;
    };
    let terminfo = tempfile::tempdir().unwrap();
    std::fs::create_dir(terminfo.path().join("p")).unwrap();
    std::fs::copy(dumb, terminfo.path().join("p/plain")).unwrap();
    let mut term = Term::spawn(
        CLINES,
        Options::new(100, 50)
            .env("TERM", "plain")
            .env("TERMINFO", terminfo.path())
            .separate_stderr(),
    );
    refused_start(&mut term, &["TERM=plain", "cannot move its cursor"]);
}

#[test]
fn too_small_at_start_exits_1_without_touching_the_terminal() {
    for (cols, rows, message) in [
        (10, 10, "19 chars wide terminal required, now it's 10"),
        (80, 10, "19 chars tall terminal required, now it's 10"),
    ] {
        let mut term = Term::spawn(CLINES, Options::new(cols, rows).separate_stderr());
        refused_start(&mut term, &[message]);
        // One line, the width's first, as the original stops at the first
        // size that is short; the screen shown on a resize has both.
        assert_eq!(term.stderr().lines().count(), 1, "{:?}", term.stderr());
    }
}
