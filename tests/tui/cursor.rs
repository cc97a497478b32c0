//! The cursor keys: arrows, hjkl and remapped keys, edges, bursts of
//! input.

use super::*;

/// Presses each key and follows the cursor: after every key that should
/// move it, waits for the screen to show it there. A key that should not
/// move it (at an edge) is checked by the next one that does. Returns the
/// final view.
fn drive(term: &mut Term, view: &View, steps: &[(Key, (isize, isize))]) -> View {
    let mut view = view.clone();
    let mut moved = false;
    for &(key, (dx, dy)) in steps {
        let (x, y) = view.cursor.expect("a visible cursor");
        let max_x = view.game.width as isize - 1;
        let max_y = view.game.height as isize - 1;
        let next = (
            (x as isize + dx).clamp(0, max_x) as usize,
            (y as isize + dy).clamp(0, max_y) as usize,
        );
        term.key(key);
        moved = next != (x, y);
        if moved {
            view = view.with_cursor(Some(next));
            expect_view(
                term,
                &view,
                &format!("the cursor at {next:?} after {key:?}"),
            );
        }
    }
    assert!(moved, "a test sequence must end with a move");
    view
}

/// Every key of `keys` (left, down, up, right) repeated past the edges:
/// the cursor crosses the board both ways in both directions.
fn edge_tour(view: &View, [left, down, up, right]: [Key; 4]) -> Vec<(Key, (isize, isize))> {
    let (w, h) = (view.game.width, view.game.height);
    let mut steps = Vec::new();
    steps.extend(std::iter::repeat_n((left, (-1, 0)), w + 1));
    steps.extend(std::iter::repeat_n((up, (0, -1)), h + 1));
    steps.extend(std::iter::repeat_n((right, (1, 0)), w + 1));
    steps.extend(std::iter::repeat_n((down, (0, 1)), h + 1));
    steps.extend(std::iter::repeat_n((left, (-1, 0)), w + 1));
    steps.extend(std::iter::repeat_n((up, (0, -1)), h + 1));
    steps.push((right, (1, 0)));
    steps
}

#[test]
fn arrows_move_the_cursor_and_stop_at_the_edges() {
    let (mut term, view) = start(100, 50, 11, &[], &[]);
    let steps = edge_tour(&view, [Key::Left, Key::Down, Key::Up, Key::Right]);
    drive(&mut term, &view, &steps);
    quit_and_check(&mut term, 0);
}

#[test]
fn hjkl_move_the_cursor_in_mini_mode() {
    let (mut term, view) = start(80, 24, 12, &[], &[]);
    let keys = ['h', 'j', 'k', 'l'].map(Key::Char);
    let steps = edge_tour(&view, keys);
    drive(&mut term, &view, &steps);
    quit_and_check(&mut term, 0);
}

#[test]
fn remapped_keys_replace_hjkl() {
    let (mut term, view) =
        start_warned(61, 57, 13, &["-C", "asdfg"], "`a` and `s` are now -C keys");
    let keys = ['a', 's', 'd', 'f'].map(Key::Char);
    let mut steps = edge_tour(&view, keys);
    // The default keys no longer move the cursor; arrows still do.
    steps.extend([
        (Key::Char('l'), (0, 0)),
        (Key::Char('j'), (0, 0)),
        (Key::Right, (1, 0)),
    ]);
    drive(&mut term, &view, &steps);
    quit_and_check(&mut term, 0);
}

#[test]
fn q_in_the_remapped_keys_moves_instead_of_quitting() {
    let (mut term, view) = start_warned(100, 50, 14, &["-C", "hjkq "], "`q` is now a -C key");
    let steps = [
        (Key::Left, (-1, 0)),
        (Key::Left, (-1, 0)),
        (Key::Left, (-1, 0)),
        (Key::Left, (-1, 0)),
        (Key::Left, (-1, 0)),
        (Key::Left, (-1, 0)),
        (Key::Left, (-1, 0)),
        (Key::Left, (-1, 0)),
        (Key::Char('q'), (1, 0)),
    ];
    drive(&mut term, &view, &steps);
    term.key(Key::Ctrl('c'));
    check_exit(&mut term, 0);
}

#[test]
fn a_burst_of_input_is_handled_without_waiting_for_more() {
    let (mut term, view) = start(100, 50, 95, &[], &[]);
    // 1,000 arrows, 3,000 bytes in one write: the cursor ends at the top.
    term.send(&b"\x1b[A".repeat(1000));
    let (x, _) = view.cursor.expect("the cursor is shown");
    expect_view(
        &term,
        &view.with_cursor(Some((x, 0))),
        "the cursor at the top",
    );
    // The game read every byte: one more key is handled at once.
    let burst: Vec<u8> = b"\x1b[B".repeat(1000).into_iter().chain(*b"q").collect();
    term.send(&burst);
    check_exit(&mut term, 0);
}

/// Escape as a `-C` key keeps its press when the next key comes with it
/// in one read: a terminal sends Alt and a key as Escape and the key, which
/// is what pressing Escape and the key quickly sends too.
#[test]
fn escape_as_a_remapped_key_read_with_the_next_key_is_both_keys() {
    let (mut term, view) = start(100, 50, 15, &[], &["-C", "\x1bjkl "]);
    term.send(b"lllljj");
    let view = view.with_cursor(Some((4, 2)));
    expect_view(&term, &view, "the cursor at (4, 2)");
    term.send(b"\x1b");
    let view = view.with_cursor(Some((3, 2)));
    expect_view(&term, &view, "a cell left after an Escape alone");
    term.send(b"\x1bk");
    let view = view.with_cursor(Some((2, 1)));
    expect_view(&term, &view, "left and up after Escape and k in one write");
    term.send(b"\x1bj\x1bj");
    let view = view.with_cursor(Some((0, 3)));
    expect_view(&term, &view, "two cells left and down after two pairs");
    quit_and_check(&mut term, 0);
}
