//! Resizing the terminal and repainting it.

use std::time::Duration;

use super::*;

#[test]
fn resize_to_too_small_and_back_keeps_the_game() {
    let (mut term, view) = start(100, 50, 31, &[], &[]);
    term.resize(100, 15);
    term.expect_text("19 chars tall terminal required, now it's 15");
    term.expect_text("Please resize the window again");
    term.resize(40, 30);
    expect_view(
        &term,
        &View {
            cols: 40,
            rows: 30,
            ..view.clone()
        },
        "the same game in mini mode",
    );
    // A burst of resizes ends on the first size: the board as it was.
    for (cols, rows) in [(90, 45), (70, 40), (30, 12), (100, 50)] {
        term.resize(cols, rows);
    }
    expect_view(&term, &view, "the same board after resizing back");
    quit_and_check(&mut term, 0);
}

#[test]
fn a_resize_as_the_game_starts_is_not_lost() {
    // The game reads the terminal's size, switches it to raw mode and the
    // alternate screen, then listens for resizes. A resize as soon as it
    // writes anything falls between the two: the game must still draw at
    // the new size.
    let seed = 43;
    let look = Look::color(&[7, 1, 2, 3, 4, 5]);
    let mut term = Term::spawn(CLINES, Options::new(100, 50).arg(format!("--seed={seed}")));
    assert!(
        term.wait_for_output(TIMEOUT, |raw| !raw.is_empty()),
        "the game wrote nothing"
    );
    term.resize(40, 30);
    let view = View {
        look,
        ..View::new(batch(&[], seed, &[]), 40, 30)
    };
    term.expect("the opening board at 40 x 30", |screen| {
        view.locate_cursor(screen)
    });
    quit_and_check(&mut term, 0);
}

/// How long a 6000 × 6000 frame may take: a debug build writes its 36
/// million characters in about 5 s on an idle machine, and took over 30 s
/// beside the rest of the suite on a loaded one. The limit only tells a
/// game that died or stalled from a slow one.
const HUGE_FRAME_TIMEOUT: Duration = Duration::from_secs(180);

#[test]
fn a_huge_resize_with_little_memory_keeps_the_game() {
    // Under a 400 MB address-space limit, a 6000 × 6000 terminal: a 9 × 9
    // board of 666-character cells, 36 million characters. Stored cell by
    // cell, two frames of it did not fit; stored as runs they take a few
    // megabytes, and the game goes on at that size.
    let seed = 41;
    let view = View::new(batch(&[], seed, &[]), 100, 50);
    let limited = "ulimit -v 400000 && exec \"$0\" \"$@\"";
    let mut term = Term::spawn(
        "/bin/sh",
        Options::new(100, 50).args(["-c", limited, CLINES, &format!("--seed={seed}")]),
    );
    let cursor = term.expect("the opening board", |screen| view.locate_cursor(screen));
    let view = view.with_cursor(Some(cursor));
    // A move along the row, which stays on the board.
    let (step, x) = if cursor.0 + 1 < 9 {
        (Key::Right, cursor.0 + 1)
    } else {
        (Key::Left, cursor.0 - 1)
    };
    for key in [None, Some(step)] {
        // The screen is too large to emulate: its frame is read as bytes.
        let start = term.output_len();
        match key {
            None => term.resize_pty_only(6000, 6000),
            Some(key) => term.key(key),
        }
        let ended = |raw: &[u8]| pty::find(&raw[start..], pty::END_SYNC);
        if !term.wait_for_output(HUGE_FRAME_TIMEOUT, |raw| ended(raw).is_some()) {
            // Whether the game died or stalled, and how far it got.
            let written = term.output_len() - start;
            let raw = term.raw_output();
            let tail = String::from_utf8_lossy(&raw[raw.len().saturating_sub(200)..]).into_owned();
            let state = if term.closed() {
                format!("the terminal closed, {:?}", term.wait_exit(TIMEOUT))
            } else {
                format!("still running after {HUGE_FRAME_TIMEOUT:?}")
            };
            panic!(
                "no frame after {key:?} at 6000 x 6000: {written} bytes, {state}, ending {tail:?}"
            );
        }
        let raw = term.raw_output();
        let frame = &raw[start..start + ended(&raw).unwrap()];
        let text = String::from_utf8_lossy(frame);
        assert!(!text.contains("Not enough memory"), "{text:.200}");
        if key.is_none() {
            // Ten vertical lines down the 5995 rows of the board.
            let bars = pty::count(frame, b"|");
            assert!(bars >= 10 * 5900, "{bars} grid characters: {text:.200}");
        }
    }
    term.resize(100, 50);
    let moved = view.with_cursor(Some((x, cursor.1)));
    expect_view(&term, &moved, "the same board after resizing back");
    quit_and_check(&mut term, 0);
}

#[test]
fn too_narrow_after_resize_shows_the_width_needed() {
    let rules = ["-w40", "-t20"];
    let (mut term, view) = start(100, 50, 32, &rules, &[]);
    assert_eq!(view.cell_size(), 2);
    term.resize(60, 50);
    term.expect_text("81 chars wide terminal required, now it's 60");
    term.expect_text("Please resize the window again");
    term.resize(100, 50);
    expect_view(&term, &view, "the same board after resizing back");
    quit_and_check(&mut term, 0);
}

#[test]
fn ctrl_l_repaints_the_whole_screen() {
    let (mut term, view) = start(100, 50, 41, &[], &[]);
    // Wipe our copy of the screen: only a full repaint brings it back.
    term.process_locally(b"\x1b[2J");
    assert!(term.screen(|screen| view.check(screen)).is_err());
    term.key(Key::Ctrl('l'));
    expect_view(&term, &view, "the board repainted after Ctrl-L");
    quit_and_check(&mut term, 0);
}
