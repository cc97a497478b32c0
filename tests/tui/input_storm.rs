//! Hostile input: bytes typed at the game that crossterm decodes badly or
//! not at all must leave the game running, its board untouched, and its
//! end clean.

use super::*;

/// A mouse report at column or row 0 (SGR and rxvt `0`, X10's byte 32 or
/// below) and a cursor report at 0: crossterm 0.29 takes one from each
/// unchecked, which panicked the reading of keys in debug builds and ended
/// the game (see Cargo.toml). Wrapped, they point far off the board.
#[test]
fn mouse_and_cursor_reports_at_column_or_row_0_are_ignored() {
    let (mut term, view) = start(80, 24, 47, &["-w5", "-t5"], &[]);
    term.send(b"\x1b[<0;0;0M\x1b[<0;1;0m\x1b[<3;0;1M");
    term.send(b"\x1b[M#\x20\x21\x1b[M\x23\x21\x00");
    term.send(b"\x1b[35;0;1M\x1b[0;0R");
    let (x, y) = view.cursor.expect("the cursor at the start");
    let (arrow, moved) = if x + 1 < view.game.width {
        (Key::Right, (x + 1, y))
    } else {
        (Key::Left, (x - 1, y))
    };
    term.key(arrow);
    let moved = view.with_cursor(Some(moved));
    expect_view(&term, &moved, "the same board, the cursor a cell over");
    quit_and_check(&mut term, 0);
}
