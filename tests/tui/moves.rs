//! Selecting and moving chips with keys and mouse: the jump, the walk,
//! the flash of removed lines, refused targets.

use super::*;
use std::time::{Duration, Instant};

/// Moves the cursor to `target` with the arrow keys, waiting for each step.
fn go_to(term: &mut Term, view: &View, target: Pos) -> View {
    let mut view = view.clone();
    loop {
        let (x, y) = view.cursor.expect("a visible cursor");
        let (key, next) = match (x.cmp(&target.0), y.cmp(&target.1)) {
            (std::cmp::Ordering::Less, _) => (Key::Right, (x + 1, y)),
            (std::cmp::Ordering::Greater, _) => (Key::Left, (x - 1, y)),
            (_, std::cmp::Ordering::Less) => (Key::Down, (x, y + 1)),
            (_, std::cmp::Ordering::Greater) => (Key::Up, (x, y - 1)),
            _ => return view,
        };
        term.key(key);
        view = view.with_cursor(Some(next));
        expect_view(term, &view, &format!("the cursor at {next:?}"));
    }
}

#[test]
fn action_key_selects_changes_and_clears_the_selection() {
    let (mut term, view) = start(100, 50, 25, &["-N6"], &[]);
    let game = view.game.clone();
    let chips = game.chips();
    let (b, target) = some_move(&game);
    let a = *chips.iter().find(|&&chip| chip != b).expect("two chips");
    let space = Key::Char(' ');

    let view = go_to(&mut term, &view, a);
    term.key(space);
    let selected_a = View {
        selected: Some((a, Pose::Shift(1))),
        ..view.clone()
    };
    expect_view(&term, &selected_a, "A selected, jumping under the cursor");
    let view = View {
        selected: Some((a, Pose::Any)),
        ..view
    };

    // Another chip takes the selection; the same chip again clears it.
    let view = go_to(&mut term, &view, b);
    term.key(space);
    let selected_b = View {
        selected: Some((b, Pose::Shift(1))),
        ..view.clone()
    };
    expect_view(&term, &selected_b, "B selected instead of A");
    term.key(space);

    // With nothing selected, the action on an empty cell does nothing:
    // the board stays as it was while the cursor goes back to B.
    let view = View {
        selected: None,
        ..view
    };
    let view = go_to(&mut term, &view, target);
    term.key(space);
    let view = go_to(&mut term, &view, b);

    // Selected again, B moves where the headless mode moves it.
    term.key(space);
    let view = View {
        selected: Some((b, Pose::Any)),
        ..view
    };
    let view = go_to(&mut term, &view, target);
    term.key(space);
    let command = format!("move {} {} {} {}", b.0, b.1, target.0, target.1);
    let after = View {
        game: batch(&["-N6"], 25, &[command]),
        selected: None,
        ..view
    };
    expect_view(&term, &after, "B moved by the keyboard");
    quit_and_check(&mut term, after.game.score);
}

/// A chip of `game` with an empty cell it can reach, the farthest first
/// found in reading order.
fn some_move(game: &Game) -> (Pos, Pos) {
    game.chips()
        .into_iter()
        .find_map(|chip| game.reachable(chip).last().map(|&to| (chip, to)))
        .expect("a chip that can move")
}

/// Clicks `from` then `to` in a game recording its frames, waits for the
/// board the headless mode gives after that move, and returns the frames
/// and the views before and after.
fn recorded_mouse_move(
    cols: u16,
    rows: u16,
    seed: u64,
    rules: &[&str],
    extra: &[&str],
    choose: impl FnOnce(&Game) -> (Pos, Pos),
) -> (Vec<vt100::Screen>, View, View, Pos, Pos) {
    let look = if extra.contains(&"-mb") {
        Look::mono("*OoVvAa.'Zz")
    } else {
        Look::color(&[7, 1, 2, 3, 4, 5])
    };
    let (mut term, view) = start_with(cols, rows, seed, rules, extra, look, Options::record_frames);
    let (from, to) = choose(&view.game);
    let [(col, row), _] = view.corners(from);
    term.click(col, row);
    let [_, (col, row)] = view.corners(to);
    term.click(col, row);
    let command = format!("move {} {} {} {}", from.0, from.1, to.0, to.1);
    let after = View {
        game: batch(rules, seed, &[command]),
        cursor: None,
        ..view.clone()
    };
    expect_view(&term, &after, "the board after the move");
    quit_and_check(&mut term, after.game.score);
    (term.frames(), view, after, from, to)
}

#[test]
fn moving_chip_walks_a_shortest_path_vertically_first() {
    // A move with a real choice: two vertical steps toward the target and
    // one horizontal step are all on shortest paths.
    let choose = |game: &Game| {
        game.chips()
            .into_iter()
            .flat_map(|from| game.reachable(from).into_iter().map(move |to| (from, to)))
            .find(|&(from, to)| {
                let to_target = game.distances(to, from);
                let total = to_target[from.1 * game.width + from.0].unwrap_or(0);
                let on_path = |(x, y): Pos| to_target[y * game.width + x] == Some(total - 1);
                let dy = if to.1 > from.1 { 1 } else { -1 };
                let dx = if to.0 > from.0 { 1 } else { -1 };
                let step = |(x, y): Pos, (dx, dy): (isize, isize)| {
                    ((x as isize + dx) as usize, (y as isize + dy) as usize)
                };
                let down = step(from, (0, dy));
                to.0 != from.0
                    && to.1.abs_diff(from.1) >= 2
                    && on_path(down)
                    && to_target[{
                        let (x, y) = step(down, (0, dy));
                        y * game.width + x
                    }] == Some(total - 2)
                    && on_path(step(from, (dx, 0)))
            })
            .expect("a move with a choice of first step")
    };
    let (frames, before, _, from, to) = recorded_mouse_move(100, 50, 81, &[], &[], choose);
    let from_source = before.game.distances(from, from);
    let to_target = before.game.distances(to, from);
    let index = |(x, y): Pos| y * before.game.width + x;
    let total = to_target[index(from)].expect("reachable");
    // Where the walking chip is in each frame, among the cells of shortest
    // paths.
    let candidates: Vec<Pos> = before
        .game
        .positions()
        .filter(|&p| match (from_source[index(p)], to_target[index(p)]) {
            (Some(a), Some(b)) => a + b == total && p != from,
            _ => false,
        })
        .collect();
    let mut walked: Vec<Pos> = Vec::new();
    for frame in &frames {
        let at = candidates.iter().copied().find(|&p| {
            let walking = View {
                game: before.game.moved(from, p),
                cursor: None,
                ..before.clone()
            };
            walking.check(frame).is_ok()
        });
        if let Some(p) = at.filter(|&p| walked.last() != Some(&p)) {
            walked.push(p);
        }
    }
    // The last step may be drawn together with the computer's throw, so
    // the walk is checked up to there.
    assert!(walked.len() >= 2, "the walk was not seen: {walked:?}");
    assert!(
        walked
            .windows(2)
            .all(|pair| from_source[index(pair[0])] < from_source[index(pair[1])]),
        "the walk goes back: {walked:?}"
    );
    assert_eq!(
        walked[0].0, from.0,
        "the first step is not vertical: {walked:?}"
    );
}

#[test]
fn removed_chips_flash_in_the_cursor_colour_then_the_score_updates() {
    // One colour and lines of two: any chip moved next to another scores.
    let rules = ["-c1", "-i2"];
    let scoring_move = |game: &Game| {
        game.chips()
            .into_iter()
            .flat_map(|from| game.reachable(from).into_iter().map(move |to| (from, to)))
            .find(|&(from, (x, y))| {
                game.chips()
                    .into_iter()
                    .any(|chip| chip != from && chip.0.abs_diff(x) <= 1 && chip.1.abs_diff(y) <= 1)
            })
    };
    let seed = (1..100)
        .find(|&seed| scoring_move(&batch(&rules, seed, &[])).is_some())
        .expect("an opening with a scoring move");
    let choose = |game: &Game| scoring_move(game).expect("a scoring move");
    for (cols, rows, extra) in [
        (100, 50, &[][..]),
        (80, 24, &[][..]),
        (100, 50, &["-mb"][..]),
    ] {
        let (frames, before, after, from, to) =
            recorded_mouse_move(cols, rows, seed, &rules, extra, choose);
        assert!(
            after.game.score > before.game.score,
            "the move did not score"
        );
        let moved = before.game.moved(from, to);
        let removed: Vec<Pos> = moved
            .chips()
            .into_iter()
            .filter(|&p| after.game.at(p) == 0)
            .collect();
        assert!(removed.contains(&to), "{removed:?}");
        let flashing = View {
            game: moved,
            cursor: None,
            flash: removed,
            ..before.clone()
        };
        let flash_frames: Vec<usize> = (0..frames.len())
            .filter(|&i| flashing.check(&frames[i]).is_ok())
            .collect();
        let Some(&last_flash) = flash_frames.last() else {
            let last = frames.iter().rev().find_map(|f| flashing.check(f).err());
            panic!("no frame shows the removed chips flashing: {last:?}");
        };
        let scored = frames.iter().position(|frame| after.check(frame).is_ok());
        assert!(
            scored.is_some_and(|i| i > last_flash),
            "the score shows before the flash ends ({cols}x{rows} {extra:?})"
        );
    }
}

/// Clicks a chip, waits for it to jump (in `pose`), clicks an empty cell
/// and checks the result against the headless mode playing the same move.
fn mouse_move_test(cols: u16, rows: u16, seed: u64, pose: Pose) {
    let (mut term, view) = start(cols, rows, seed, &[], &[]);
    let (from, to) = some_move(&view.game);
    let [_, (col, row)] = view.corners(from);
    term.click(col, row);
    let selected = View {
        cursor: None,
        selected: Some((from, pose)),
        ..view.clone()
    };
    expect_view(
        &term,
        &selected,
        "the clicked chip jumping, the cursor hidden",
    );

    let [(col, row), _] = view.corners(to);
    term.click(col, row);
    let command = format!("move {} {} {} {}", from.0, from.1, to.0, to.1);
    let after = View::new(batch(&[], seed, &[command]), cols, rows);
    assert_ne!(after.game, view.game);
    expect_view(
        &term,
        &after,
        "the board after the move, as the headless mode plays it",
    );

    // The next key shows the cursor again, moved from where the click was.
    term.key(Key::Up);
    let cursor = (to.0, to.1.saturating_sub(1));
    expect_view(
        &term,
        &after.with_cursor(Some(cursor)),
        "the cursor back after a key",
    );
    quit_and_check(&mut term, after.game.score);
}

#[test]
fn mouse_selects_and_moves_a_chip_in_full_mode() {
    mouse_move_test(100, 50, 21, Pose::Shift(1));
}

#[test]
fn mouse_selects_and_moves_a_chip_in_mini_mode() {
    mouse_move_test(80, 24, 22, Pose::JumpGlyph);
}

/// The selected chip's jump moves on every tick of this long (the game's
/// `JUMP_TICK`).
const TICK: Duration = Duration::from_millis(200);
/// How much later than due a pose may be seen before the reading counts
/// as held up: the program, or this reader, was not running for a while,
/// and the poses due meanwhile were never drawn.
const LATE: Duration = Duration::from_millis(150);
/// Readings held up in a row before the test gives up.
const READINGS: usize = 5;

/// Clicks the first chip and reads how it is drawn, frame after frame,
/// until `count` poses (among `poses`, `None` meaning at rest, each shown
/// for `ticks` ticks) have been seen one after another. Frames matching
/// none of them (before the click is handled) are skipped. The pose drawn
/// follows the clock, so a machine that holds the game up skips poses: a
/// reading in which a pose came later than due is taken again, in a new
/// game, rather than judged.
fn jump_sequence(
    cols: u16,
    rows: u16,
    poses: &[Option<Pose>],
    ticks: u32,
    count: usize,
) -> Vec<Option<Pose>> {
    let look = Look::color(&[7, 1, 2, 3, 4, 5]);
    jump_sequence_in(cols, rows, &[], look, poses, ticks, count)
}

/// [`jump_sequence`] with `extra` options drawing with `look`.
fn jump_sequence_in(
    cols: u16,
    rows: u16,
    extra: &[&str],
    look: Look,
    poses: &[Option<Pose>],
    ticks: u32,
    count: usize,
) -> Vec<Option<Pose>> {
    let mut held_up = Vec::new();
    for _ in 0..READINGS {
        let seen = read_jump(cols, rows, extra, look.clone(), poses, count);
        let due = TICK * ticks + LATE;
        if seen.windows(2).all(|pair| pair[1].0 - pair[0].0 <= due) {
            return seen.into_iter().map(|(_, pose)| pose).collect();
        }
        held_up.push(seen);
    }
    panic!("every reading was held up: {held_up:?}");
}

/// One reading of [`jump_sequence_in`]: each pose seen, with when the
/// frame that first showed it was read.
fn read_jump(
    cols: u16,
    rows: u16,
    extra: &[&str],
    look: Look,
    poses: &[Option<Pose>],
    count: usize,
) -> Vec<(Instant, Option<Pose>)> {
    let (mut term, view) = start_with(cols, rows, 23, &[], extra, look, Options::record_frames);
    let chip = view.game.chips()[0];
    let (col, row) = view.point(chip);
    term.click(col, row);
    let views: Vec<(Option<Pose>, View)> = poses
        .iter()
        .map(|&pose| {
            let view = View {
                cursor: None,
                selected: pose.map(|pose| (chip, pose)),
                ..view.clone()
            };
            (pose, view)
        })
        .collect();
    // Every frame counts, so they are read from the recording.
    let seen = term.expect("the chip jumping", |_| {
        let mut seen: Vec<(Instant, Option<Pose>)> = Vec::new();
        for (read_at, frame) in term.timed_frames() {
            if let Some((pose, _)) = views.iter().find(|(_, view)| view.check(&frame).is_ok()) {
                if seen.last().map(|(_, last)| last) != Some(pose) {
                    seen.push((read_at, *pose));
                }
            }
        }
        if seen.len() >= count {
            seen.truncate(count);
            Ok(seen)
        } else {
            Err(format!("poses so far: {seen:?}"))
        }
    });
    quit_and_check(&mut term, 0);
    seen
}

#[test]
fn selected_chip_jumps_up_first_in_full_mode() {
    // Ticks of 200 ms: shift 0, +1, 0, -1, repeating from the selection.
    let shifts = [
        Some(Pose::Shift(0)),
        Some(Pose::Shift(1)),
        Some(Pose::Shift(-1)),
    ];
    let seen = jump_sequence(100, 50, &shifts, 1, 6);
    let expected = [0, 1, 0, -1, 0, 1].map(|shift| Some(Pose::Shift(shift)));
    assert_eq!(seen, expected);
}

#[test]
fn selected_chip_jumps_in_a_two_by_two_interior() {
    // Of every 12 ticks: top row blank on 0-2, bottom row blank on 6-8.
    let poses = [None, Some(Pose::TopBlank), Some(Pose::BottomBlank)];
    let seen = jump_sequence(40, 30, &poses, 3, 5);
    let expected = [
        Some(Pose::TopBlank),
        None,
        Some(Pose::BottomBlank),
        None,
        Some(Pose::TopBlank),
    ];
    assert_eq!(seen, expected);
}

#[test]
fn selected_chip_jumps_in_a_one_character_interior() {
    // The jumping glyph for 4 ticks out of 8, the chip glyph otherwise.
    // Four changes seen means the glyph keeps swapping.
    let seen = jump_sequence(80, 24, &[None, Some(Pose::JumpGlyph)], 4, 4);
    assert!(seen.contains(&Some(Pose::JumpGlyph)), "{seen:?}");
    // Black-and-white mode: colour k jumps with -F glyph 2k.
    let look = Look::mono("*OoVvAa.'Zz");
    let poses = [None, Some(Pose::JumpGlyph)];
    let seen = jump_sequence_in(80, 24, &["-mb"], look, &poses, 4, 4);
    assert!(seen.contains(&Some(Pose::JumpGlyph)), "{seen:?}");
}

#[test]
fn clicks_on_grid_lines_and_other_mouse_events_are_ignored() {
    let (mut term, view) = start(100, 50, 24, &[], &[]);
    let (from, to) = some_move(&view.game);
    let s = view.cell_size() as u16;
    let (col, row) = view.point(from);
    // The chip's left and top grid lines: nothing selected.
    term.click(col - col % s, row);
    term.click(col, row - row % s);
    // Middle and right buttons, the wheel, motion with and without the
    // left button held, a left press without its release: nothing either.
    for code in [1, 2] {
        term.mouse(code, col, row, false);
        term.mouse(code, col, row, true);
    }
    for code in [64, 65, 35, 32] {
        term.mouse(code, col, row, false);
    }
    term.mouse(0, col, row, false);
    // Then a key that moves the cursor proves all that was handled.
    let cursor = view.cursor.expect("cursor");
    let (key, next) = if cursor.0 > 0 {
        (Key::Left, (cursor.0 - 1, cursor.1))
    } else {
        (Key::Right, (1, cursor.1))
    };
    term.key(key);
    expect_view(&term, &view.with_cursor(Some(next)), "the board untouched");
    // A click on the target now has nothing selected to move: still untouched.
    let (col, row) = view.point(to);
    term.click(col, row);
    term.key(Key::Up);
    let (x, y) = to;
    expect_view(
        &term,
        &view.with_cursor(Some((x, y.saturating_sub(1)))),
        "the board untouched after a click with nothing selected",
    );
    quit_and_check(&mut term, 0);
}

#[test]
fn unreachable_target_beeps_and_keeps_the_selection() {
    // A 1 × 3 board whose opening is two chips on top: the top one cannot
    // pass the middle one.
    let rules = ["-w1", "-t3", "-N2", "-c2"];
    let seed = (1..200)
        .find(|&seed| {
            let game = batch(&rules, seed, &[]);
            game.cells[0] != 0 && game.cells[1] != 0
        })
        .expect("a seed with the top two cells taken");
    let (mut term, view) = start(30, 31, seed, &rules, &[]);
    assert_eq!(view.cell_size(), 10);
    let (col, row) = view.point((0, 0));
    term.click(col, row);
    let selected = View {
        cursor: None,
        selected: Some(((0, 0), Pose::Shift(1))),
        ..view.clone()
    };
    expect_view(&term, &selected, "the top chip selected");
    let (col, row) = view.point((0, 2));
    term.click(col, row);
    assert!(
        term.wait_for_bells(1, TIMEOUT),
        "no bell for an unreachable target"
    );
    let still = View {
        selected: Some(((0, 0), Pose::Shift(-1))),
        ..selected
    };
    expect_view(&term, &still, "the chip still selected and jumping");
    quit_and_check(&mut term, 0);
}

#[test]
fn keys_typed_during_an_animation_are_not_lost() {
    let (mut term, view) = start(100, 50, 71, &[], &[]);
    let (from, to) = some_move(&view.game);
    let (col, row) = view.point(from);
    term.click(col, row);
    let (col, row) = view.point(to);
    term.click(col, row);
    // Typed while the chip walks: must be handled once it has arrived.
    term.key(Key::Up);
    let command = format!("move {} {} {} {}", from.0, from.1, to.0, to.1);
    let after = View::new(batch(&[], 71, &[command]), 100, 50);
    let cursor = (to.0, to.1.saturating_sub(1));
    expect_view(
        &term,
        &after.with_cursor(Some(cursor)),
        "the move done, then the key handled",
    );
    quit_and_check(&mut term, after.game.score);
}
