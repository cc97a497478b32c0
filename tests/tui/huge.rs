//! The widest and tallest boards the rules allow: clicks past column and
//! row 223, where only the SGR mouse encoding reaches, and resizes to
//! tiny terminals with a chip selected or walking.

use super::*;

/// Starts a `w` × `h` board with 300 chips thrown at the smallest terminal
/// that shows it, clicks the chip nearest the far corner and an empty cell
/// near it, resizing to terminals too small for the board in between, and
/// checks the move against the headless mode. Clicks off the board, on
/// its border and at the terminal's last column and row, change nothing:
/// the chip stays selected, where a click read as one on the empty cells
/// beside it would move it. Arrow keys past the far edges leave the cursor
/// in the corner.
fn far_corner_test(w: usize, h: usize, seed: u64) {
    let rules = [format!("-w{w}"), format!("-t{h}"), "-N300".to_string()];
    let rules: Vec<&str> = rules.iter().map(String::as_str).collect();
    let cols = u16::try_from(2 * w + 1).expect("a terminal width");
    let rows = u16::try_from(2 * h + 1).expect("a terminal height");
    let (mut term, view) = start(cols, rows, seed, &rules, &[]);
    assert_eq!(view.cell_size(), 2);
    let corner = (w - 1, h - 1);
    let from_corner = |(x, y): Pos| (corner.0 - x) + (corner.1 - y);
    let from = view
        .game
        .chips()
        .into_iter()
        .min_by_key(|&p| from_corner(p))
        .expect("a chip");
    let reach = view.game.distances(from, from);
    let to = view
        .game
        .positions()
        .filter(|&(x, y)| view.game.at((x, y)) == 0 && reach[y * w + x].is_some())
        .min_by_key(|&p| from_corner(p))
        .expect("a cell the chip can reach");
    // Past column or row 223: the legacy mouse encoding cannot say these.
    let [_, (col, row)] = view.corners(from);
    assert!(col.max(row) > 223, "{from:?} at {col}, {row}");

    term.click(col, row);
    for (col, row) in [(cols - 1, rows - 1), (cols - 1, 0), (0, rows - 1)] {
        term.click(col, row);
    }
    // A key after the clicks shows the cursor, moved from the chip, so the
    // screen waited for is the one after every click.
    let (key, cursor) = if w > 1 {
        (Key::Left, (from.0 - 1, from.1))
    } else {
        (Key::Up, (from.0, from.1 - 1))
    };
    term.key(key);
    let selected = View {
        cursor: Some(cursor),
        selected: Some((from, Pose::Any)),
        ..view.clone()
    };
    expect_view(&term, &selected, "the far chip selected, nothing else");
    for (c, r) in [(10, 3), (1, 1), (500, 200)] {
        term.resize(c, r);
        if c > 1 {
            term.expect_text("chars");
        }
    }
    term.resize(cols, rows);
    expect_view(&term, &selected, "the chip still selected after resizes");

    let [(col, row), _] = view.corners(to);
    term.click(col, row);
    for (c, r) in [(10, 3), (1, 1), (cols + 1, rows + 1)] {
        term.resize(c, r);
    }
    let command = format!("move {} {} {} {}", from.0, from.1, to.0, to.1);
    let moved = View::new(batch(&rules, seed, &[command]), cols + 1, rows + 1);
    expect_view(&term, &moved, "the move as the headless mode plays it");

    let moved = View {
        cols,
        rows,
        ..moved
    };
    term.resize(cols, rows);
    expect_view(&term, &moved, "the board after resizing back");
    term.send(&b"\x1b[C".repeat(w + 5));
    term.send(&b"\x1b[B".repeat(h + 5));
    expect_view(
        &term,
        &moved.with_cursor(Some(corner)),
        "the cursor stopped in the far corner",
    );
    quit_and_check(&mut term, moved.game.score);
}

#[test]
fn the_widest_board_takes_clicks_at_its_far_end() {
    far_corner_test(1000, 1, 3);
}

#[test]
fn the_tallest_board_takes_clicks_at_its_far_end() {
    far_corner_test(1, 1000, 3);
}
