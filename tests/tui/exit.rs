//! How the game ends, is suspended and is resumed: keys, signals, a closed
//! terminal, game over and a panic, the terminal restored every time.

use super::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Quits the game at 80×24 with `quit`, then checks the exit.
fn quit_test(quit: impl FnOnce(&mut Term)) {
    let (mut term, _) = start(80, 24, 51, &[], &[]);
    quit(&mut term);
    check_exit(&mut term, 0);
}

#[test]
fn q_quits_and_restores_the_terminal() {
    quit_test(|term| term.key(Key::Char('q')));
}

/// On a terminal without an alternate screen (the Linux console, `vt100`)
/// the game erases the screen as it ends, as the original does, and the
/// closing lines go at its bottom, not over the board. Such a terminal
/// sees the game's output without the alternate screen's switches.
#[test]
fn without_an_alternate_screen_the_closing_lines_go_on_an_erased_screen() {
    let (mut term, _) = start(80, 24, 51, &[], &[]);
    term.key(Key::Char('q'));
    check_exit(&mut term, 0);
    let rows: Vec<String> = without_an_alternate_screen(&term, 80, 24)
        .rows(0, 80)
        .collect();
    let at = rows
        .iter()
        .position(|row| row.contains("Scores earned"))
        .unwrap_or_else(|| panic!("no score line: {rows:#?}"));
    assert_eq!(rows[at].trim_end(), "Scores earned : 0", "{rows:#?}");
    assert!(at >= 22, "at the bottom: {rows:#?}");
    assert!(
        rows[..at].iter().all(|row| row.trim().is_empty()),
        "nothing above it: {rows:#?}"
    );
}

/// Stopped (SIGTSTP, as Ctrl-Z sends), the game leaves the board on such a
/// terminal, as curses programs do, with the cursor below it for the
/// shell's words.
#[test]
fn without_an_alternate_screen_a_stop_leaves_the_board_and_goes_below_it() {
    let (mut term, _) = start(80, 24, 52, &[], &[]);
    term.signal(libc::SIGTSTP);
    assert!(term.wait_stopped(TIMEOUT), "the game did not stop");
    // What it wrote before stopping may still be on its way to the parser.
    term.expect_screen("the main screen", |screen| !screen.alternate_screen());
    let screen = without_an_alternate_screen(&term, 80, 24);
    let rows: Vec<String> = screen.rows(0, 80).collect();
    assert!(
        rows[0].starts_with("|-"),
        "the board still there: {rows:#?}"
    );
    assert_eq!(
        screen.cursor_position(),
        (23, 0),
        "the cursor on the bottom row"
    );
    term.signal(libc::SIGCONT);
    term.expect_screen("the board again", |screen| {
        screen.contents().starts_with("|-")
    });
    term.key(Key::Char('q'));
    check_exit(&mut term, 0);
}

/// The screen of a terminal without an alternate screen after the
/// program's output so far: that output with the alternate screen's
/// switches taken out, on a fresh `cols` × `rows` terminal.
fn without_an_alternate_screen(term: &Term, cols: u16, rows: u16) -> vt100::Screen {
    let mut shown = term.raw_output();
    for switch in [b"\x1b[?1049h", b"\x1b[?1049l"] {
        while let Some(at) = shown.windows(switch.len()).position(|w| w == switch) {
            shown.drain(at..at + switch.len());
        }
    }
    let size = |n: u16| n.try_into().expect("not zero");
    let mut parser = vt100::Parser::new(size(rows), size(cols), 0);
    parser.process(&shown);
    parser.screen().clone()
}

#[test]
fn ctrl_c_quits_and_restores_the_terminal() {
    quit_test(|term| term.send(&[0x03]));
}

#[test]
fn ctrl_backslash_quits_and_restores_the_terminal() {
    quit_test(|term| term.send(&[0x1c]));
}

#[test]
fn sigterm_quits_and_restores_the_terminal() {
    quit_test(|term| term.signal(libc::SIGTERM));
}

#[test]
fn sigint_quits_and_restores_the_terminal() {
    quit_test(|term| term.signal(libc::SIGINT));
}

#[test]
fn sigquit_quits_and_restores_the_terminal() {
    quit_test(|term| term.signal(libc::SIGQUIT));
}

#[test]
fn sighup_quits_and_restores_the_terminal() {
    quit_test(|term| term.signal(libc::SIGHUP));
}

#[test]
fn closing_the_terminal_ends_the_game() {
    for select_first in [false, true] {
        // Standard error stays on the terminal, as in real use: a message
        // printed there once it is gone fails too.
        let (mut term, view) = start(100, 50, 52, &[], &[]);
        if select_first {
            // A jumping chip: the game is writing when the terminal goes.
            let chip = view.game.chips()[0];
            let [(col, row), _] = view.corners(chip);
            term.click(col, row);
            let selected = View {
                cursor: None,
                selected: Some((chip, Pose::Shift(1))),
                ..view.clone()
            };
            expect_view(&term, &selected, "the chip jumping");
        }
        term.hang_up();
        let status = term.wait_exit(TIMEOUT);
        assert_eq!(
            status.code(),
            Some(0),
            "exit status {status:?} (101: a panic, such as printing to the closed terminal)"
        );
    }
}

/// Clicks the first chip of `view`'s game and waits for it to jump.
fn select_the_first_chip(term: &mut Term, view: &View) {
    let chip = view.game.chips()[0];
    let (col, row) = view.point(chip);
    term.click(col, row);
    let jumping = View {
        cursor: None,
        selected: Some((chip, Pose::JumpGlyph)),
        ..view.clone()
    };
    expect_view(term, &jumping, "the chip jumping");
}

/// Quitting while a selected chip jumps, its timer running.
#[test]
fn quitting_with_a_chip_selected_restores_the_terminal() {
    let (mut term, view) = start(80, 24, 51, &[], &[]);
    select_the_first_chip(&mut term, &view);
    term.key(Key::Char('q'));
    check_exit(&mut term, 0);
}

/// Moves the cursor of `view` one cell along its row and expects the
/// screen to show it (`what`): the game reads keys and draws.
fn cursor_moves(term: &mut Term, view: &View, what: &str) {
    let (x, y) = view.cursor.expect("the cursor is shown");
    let moved = if x + 1 < view.game.width {
        x + 1
    } else {
        x - 1
    };
    term.key(if moved > x { Key::Right } else { Key::Left });
    expect_view(term, &view.with_cursor(Some((moved, y))), what);
}

/// Suspends the game with `suspend`, checks the terminal is handed back
/// and the process stopped, resumes it with SIGCONT and expects the board
/// repainted in full.
fn suspend_test(suspend: impl FnOnce(&mut Term)) {
    let (mut term, view) = start(100, 50, 91, &[], &[]);
    suspend(&mut term);
    assert!(term.wait_stopped(TIMEOUT), "the game did not stop");
    // What it wrote before stopping may still be on its way to the parser.
    term.expect_screen("the main screen with the cursor shown", |screen| {
        !screen.alternate_screen() && !screen.hide_cursor()
    });
    term.assert_restored();
    term.signal(libc::SIGCONT);
    // Re-entering the alternate screen clears it: only a full repaint
    // brings the board back.
    expect_view(&term, &view, "the board repainted after SIGCONT");
    quit_and_check(&mut term, 0);
}

/// The game as the program a terminal started, as `xterm -e` or `ssh -t`
/// start it (the pty's session leader): no shell could continue it once
/// stopped, so Ctrl-Z beeps and the game goes on.
#[test]
fn ctrl_z_with_no_shell_to_return_to_beeps_and_plays_on() {
    let (mut term, view) = start(100, 50, 91, &[], &[]);
    let bells = term.bells();
    term.send(&[0x1a]);
    assert!(term.wait_for_bells(bells + 1, TIMEOUT), "no beep");
    cursor_moves(&mut term, &view, "the cursor moved: the game plays on");
    quit_and_check(&mut term, 0);
}

#[test]
fn sigtstp_suspends_and_sigcont_repaints() {
    suspend_test(|term| term.signal(libc::SIGTSTP));
}

#[test]
fn ctrl_z_under_a_wrapper_stops_the_whole_job() {
    // An interactive shell with job control runs a wrapper script that runs
    // the game: Ctrl-Z must stop the whole job and give the prompt back.
    let view = View::new(batch(&[], 92, &[]), 100, 50);
    let mut term = Term::spawn(
        "bash",
        Options::new(100, 50)
            .args(["--norc", "--noprofile", "-i"])
            .env("PS1", "ready$ "),
    );
    term.expect_text("ready$ ");
    term.send(format!("sh -c '{CLINES} --seed=92; echo after $?'\n").as_bytes());
    let cursor = term.expect("the opening board", |screen| view.locate_cursor(screen));
    let view = view.with_cursor(Some(cursor));
    term.send(&[0x1a]);
    term.expect_screen("the prompt again, the job stopped", |screen| {
        !screen.alternate_screen() && screen.contents().matches("ready$ ").count() == 2
    });
    term.send(b"fg\n");
    expect_view(&term, &view, "the board back after fg");
    term.key(Key::Char('q'));
    term.expect_text("after 0");
    term.send(b"exit\n");
    let status = term.wait_exit(TIMEOUT);
    assert!(status.success(), "the shell's exit status {status:?}");
}

/// An interactive bash with job control, at its first prompt (`ready$ `),
/// on a 100 × 50 terminal, in `sandbox`.
fn bash_in(sandbox: &pty::Sandbox) -> Term {
    let term = Term::spawn(
        "bash",
        Options::new(100, 50)
            .sandbox(sandbox)
            .args(["--norc", "--noprofile", "-i"])
            .env("PS1", "ready$ "),
    );
    term.expect_text("ready$ ");
    term
}

/// How a game is stopped and sent to the background in
/// [`background_then_sigterm`].
struct Background {
    /// Set `stty tostop` first, so that the game's writing to the terminal
    /// from the background stops it.
    tostop: bool,
    /// Select a chip first: its jump wakes the game up to draw as soon as
    /// it is continued.
    jumping: bool,
    /// Stops the game, given the shell's terminal and the game's pid.
    stop: fn(&mut Term, i32),
    /// Send it to the background (`bg`) once stopped, before `kill %1`.
    bg: bool,
}

/// A game stopped, and sent to the background (`bg`) if asked, stops
/// again there, the game's screen modes undone; `kill %1` (SIGTERM, then
/// SIGCONT) ends it there as in the foreground: the game saved, its closing
/// lines printed (even under `stty tostop`), and the shell's line modes
/// left as the shell set them.
fn background_then_sigterm(how: Background) {
    let sandbox = pty::Sandbox::new();
    let view = View::new(batch(&[], 93, &[]), 100, 50);
    let mut term = bash_in(&sandbox);
    if how.tostop {
        term.send(b"stty tostop\n");
        term.expect_screen("the next prompt", |screen| {
            screen.contents().matches("ready$ ").count() == 2
        });
    }
    term.send(format!("{CLINES} --seed=93\n").as_bytes());
    term.expect("the opening board", |screen| view.locate_cursor(screen));
    if how.jumping {
        select_the_first_chip(&mut term, &view);
    }
    let shell = term.pid();
    let children = format!("/proc/{shell}/task/{shell}/children");
    let listed = std::fs::read_to_string(children).expect("the shell's children");
    let pid: i32 = listed
        .trim()
        .parse()
        .expect("the game, the shell's one child");
    (how.stop)(&mut term, pid);
    assert!(pty::wait_stopped(pid, TIMEOUT), "the game did not stop");
    // Only a job the shell knows is stopped gets the SIGCONT after the
    // SIGTERM: the shell says so.
    term.expect_text("Stopped");
    if how.bg {
        let switches = pty::voluntary_switches(pid);
        term.send(b"bg\n");
        assert!(
            pty::wait_stopped_again(pid, switches, TIMEOUT),
            "the game did not stop again in the background"
        );
        term.expect_screen("the main screen, the cursor shown", |screen| {
            !screen.alternate_screen() && !screen.hide_cursor()
        });
        until_the_shell_knows_the_job_stopped(&mut term);
    }
    term.send(b"kill %1\n");
    // Printed once the game is saved, before the game exits.
    term.expect_text("Scores earned : 0");
    let shown = term.contents();
    assert!(shown.contains("Game saved: "), "{shown}");
    let saves = std::fs::read_dir(sandbox.score_dir())
        .expect("the records directory")
        .filter(|entry| entry.as_ref().unwrap().path().extension() == Some("game".as_ref()))
        .count();
    assert_eq!(saves, 1, "the game saved");
    term.expect_screen("the main screen, the cursor shown", |screen| {
        !screen.alternate_screen() && !screen.hide_cursor()
    });
    // With the line modes set back under the shell, the kernel would echo
    // the command as well as the shell.
    term.send(b"echo mark\n");
    term.expect_screen("the command's output", |screen| {
        screen.contents().lines().any(|line| line == "mark")
    });
    let shown = term.contents();
    assert_eq!(shown.matches("echo mark").count(), 1, "{shown}");
    until_the_shell_knows_the_job_ended(&mut term);
    term.send(b"exit\n");
    let status = term.wait_exit(TIMEOUT);
    assert!(status.success(), "the shell's exit status {status:?}");
}

/// The process ids a shell gave its jobs numbered 1 as they started
/// (`[1] <pid>`), in order, from all it wrote.
fn job_ids(raw: &[u8]) -> Vec<i32> {
    String::from_utf8_lossy(raw)
        .split(['\r', '\n'])
        .filter_map(|line| line.strip_prefix("[1] ")?.trim().parse().ok())
        .collect()
}

/// Numbers the questions put to a shell, across the rounds of a test and
/// across tests, so that an answer still on the screen is never taken for
/// a later question's.
static ASKED: AtomicUsize = AtomicUsize::new(0);

/// Asks the shell for its jobs; returns the lines of its answer.
fn jobs(term: &mut Term) -> Vec<String> {
    let asked = ASKED.fetch_add(1, Ordering::Relaxed);
    let answered = format!("asked {asked}");
    term.send(format!("jobs; echo {answered}\n").as_bytes());
    let screen = term.expect("the shell's answer", |screen| {
        let contents = screen.contents();
        contents
            .lines()
            .any(|line| line == answered)
            .then_some(contents)
            .ok_or_else(|| "not yet".to_string())
    });
    let lines: Vec<&str> = screen.lines().collect();
    let asked_at = lines
        .iter()
        .rposition(|line| line.ends_with(&format!("echo {answered}")));
    let answered_at = lines.iter().rposition(|line| *line == answered);
    match (asked_at, answered_at) {
        (Some(from), Some(to)) if from < to => lines[from + 1..to]
            .iter()
            .map(|line| line.to_string())
            .collect(),
        _ => panic!("no answer to {answered:?}:\n{screen}"),
    }
}

/// Asks the shell for its jobs until it lists the game as stopped, for up
/// to [`TIMEOUT`]. It learns of a stop from a SIGCHLD, which may come after
/// it has read the next command, and only once every thread of the game
/// has stopped, which on a loaded machine was seen to take seconds (a
/// thread just started waiting for a processor). Only to a job it knows
/// is stopped does `kill` send a SIGCONT after the SIGTERM.
fn until_the_shell_knows_the_job_stopped(term: &mut Term) {
    until_the_jobs(
        term,
        "the shell never listed the game as stopped",
        |answer| answer.iter().any(|line| line.contains("Stopped")),
    );
}

/// Asks the shell for its jobs until it lists the game neither as stopped
/// nor as running, for up to [`TIMEOUT`]. The game's closing lines come
/// before it exits, and the shell learns of its end, as of its being
/// continued, from a SIGCHLD: until then it may still count the job as
/// stopped and refuse to exit.
fn until_the_shell_knows_the_job_ended(term: &mut Term) {
    until_the_jobs(term, "the shell still lists the game", |answer| {
        !answer
            .iter()
            .any(|line| line.contains("Stopped") || line.contains("Running"))
    });
}

/// Asks the shell for its jobs until `done` accepts its answer, for up to
/// [`TIMEOUT`]; otherwise fails the test, saying `never` and the screen.
fn until_the_jobs(term: &mut Term, never: &str, done: impl Fn(&[String]) -> bool) {
    let deadline = Instant::now() + TIMEOUT;
    while Instant::now() < deadline {
        if done(&jobs(term)) {
            return;
        }
    }
    panic!("{never}:\n{}", term.contents());
}

#[test]
fn a_game_suspended_then_in_the_background_ends_on_sigterm() {
    background_then_sigterm(Background {
        tostop: false,
        jumping: false,
        stop: |term, _| term.send(&[0x1a]),
        bg: true,
    });
}

/// Stopped from outside, the game still holds the terminal in its modes,
/// and in the background must undo the screen's without setting the line
/// modes back.
#[test]
fn a_game_stopped_from_outside_ends_on_sigterm_in_the_background() {
    background_then_sigterm(Background {
        tostop: false,
        jumping: false,
        stop: |_, pid| pty::send_signal(pid, libc::SIGSTOP),
        bg: false,
    });
}

/// Under `stty tostop`, a frame drawn in the background, or the screen's
/// modes undone there, would stop the game inside the write, where no
/// signal could end it, and the closing lines would stop it until `fg`; a
/// jumping chip wakes the game up to draw as soon as it is continued.
#[test]
fn a_game_stopped_from_outside_then_in_the_background_ends_on_sigterm_under_tostop() {
    background_then_sigterm(Background {
        tostop: true,
        jumping: true,
        stop: |_, pid| pty::send_signal(pid, libc::SIGSTOP),
        bg: true,
    });
}

/// Has a process started from the shell in `term` take the lock of the
/// records directory of `sandbox` and hold it until the returned value is
/// dropped, so that a game ending there waits for it.
fn hold_the_records_lock(term: &mut Term, sandbox: &pty::Sandbox) -> pty::Killed {
    std::fs::create_dir_all(sandbox.score_dir()).expect("the records directory");
    let holder = format!(
        "(flock {} sh -c 'echo locked by $$; exec sleep 1000' &)\n",
        sandbox.score_dir().display()
    );
    term.send(holder.as_bytes());
    pty::Killed(term.expect("the lock held", |screen| {
        let contents = screen.contents();
        contents
            .lines()
            .filter(|line| !line.contains("echo locked by"))
            .find_map(|line| line.split("locked by ").nth(1))
            .and_then(|pid| pid.trim().parse().ok())
            .ok_or_else(|| "not yet".to_string())
    }))
}

/// A shell in a terminal of 100 × 50, `clines --seed=93` started from it
/// (after the assignments `env`, if any) and showing its opening, and a
/// process holding the lock of the records directory of `sandbox` until
/// the value returned is dropped.
fn a_game_in_bash_with_the_records_locked(
    sandbox: &pty::Sandbox,
    env: &str,
) -> (Term, pty::Killed) {
    let view = View::new(batch(&[], 93, &[]), 100, 50);
    let mut term = bash_in(sandbox);
    let holder = hold_the_records_lock(&mut term, sandbox);
    term.send(format!("{env} {CLINES} --seed=93\n").as_bytes());
    term.expect("the opening board", |screen| view.locate_cursor(screen));
    (term, holder)
}

/// A line typed while the game closes, the terminal given back but the
/// game still saving, is the shell's next command, as after any program
/// that reads no more: the game stops reading once it has ended. The lock
/// of the records directory, held elsewhere, keeps the game saving while
/// the line is typed.
#[test]
fn a_line_typed_while_the_game_closes_is_left_for_the_shell() {
    let sandbox = pty::Sandbox::new();
    let (mut term, holder) = a_game_in_bash_with_the_records_locked(&sandbox, LONG_LOCK_WAIT);
    let shell = term.pid();
    let game = term
        .foreground_group()
        .filter(|&group| group != shell)
        .expect("the game is the shell's foreground job");
    pty::send_signal(game, libc::SIGTERM);
    type_a_line_while_the_game_closes(&mut term, holder);
    assert_eq!(
        term.count_in_output(b"Game saved: "),
        1,
        "{}",
        term.contents()
    );
    term.send(b"exit\n");
    let status = term.wait_exit(TIMEOUT);
    assert!(status.success(), "the shell's exit status {status:?}");
}

/// So is a line typed while a game closes after a panic on its own thread:
/// the panic hook stops the reading of keys before it gives the terminal
/// back. The debug build panics on a resize when `CLINES_TEST_PANIC` asks
/// it to; the game, keeping records (`CLINES_TEST_SEED`) and with points
/// scored, then waits for the lock to save its record.
#[cfg(debug_assertions)]
#[test]
fn a_line_typed_while_a_panicked_game_closes_is_left_for_the_shell() {
    use crate::records_game::{TEST_SEED, play_until_scored};
    let sandbox = pty::Sandbox::new();
    let mut term = bash_in(&sandbox);
    let holder = hold_the_records_lock(&mut term, &sandbox);
    let command = format!(
        "{LONG_LOCK_WAIT} CLINES_TEST_SEED={TEST_SEED} CLINES_TEST_PANIC=resize {CLINES}\n"
    );
    term.send(command.as_bytes());
    let score = play_until_scored(&mut term, 100, 50);
    term.resize(101, 50);
    type_a_line_while_the_game_closes(&mut term, holder);
    let closing = format!("Scores earned : {score}");
    assert_eq!(
        term.count_in_output(closing.as_bytes()),
        1,
        "{}",
        term.contents()
    );
    term.send(b"exit\n");
    let status = term.wait_exit(TIMEOUT);
    assert!(status.success(), "the shell's exit status {status:?}");
}

/// Lets a debug build's save wait up to two minutes for the records lock
/// (the release build waits its 5 s), so that on a busy machine the wait
/// cannot run out before a test has acted while the game waits; the test
/// then releases the lock itself.
const LONG_LOCK_WAIT: &str = "CLINES_TEST_LOCK_WAIT=120";

/// Once the game in the shell in `term` has given the terminal back,
/// while it still waits for the records lock `holder` holds, types a line
/// for the shell, then releases the lock and checks that the shell ran
/// the line.
fn type_a_line_while_the_game_closes(term: &mut Term, holder: pty::Killed) {
    term.expect_screen("the terminal given back", |screen| {
        !screen.alternate_screen()
    });
    // The terminal echoes the line itself, in cooked mode again, once it
    // has it; a game still reading would have it by then.
    term.send(b"echo $((6 * 7))-typed\n");
    term.expect_text("echo $((6 * 7))-typed");
    assert_eq!(
        term.count_in_output(b"Scores earned"),
        0,
        "the game ended before the line was typed: {}",
        term.contents()
    );
    drop(holder);
    let ran = term.wait_for_output(TIMEOUT, |raw| pty::count(raw, b"42-typed") > 0);
    assert!(ran, "the line typed was lost:\n{}", term.contents());
}

/// A game ended in the background goes on to its end even when something
/// is typed meanwhile: reading the terminal there would stop it (SIGTTIN)
/// before it is saved. The records directory's lock, held elsewhere, keeps
/// the game at its end for a while (the wait for the lock), and the shell
/// runs a command that reads nothing, so what is typed waits for a reader.
#[test]
fn a_game_ending_in_the_background_is_not_stopped_by_typing() {
    let sandbox = pty::Sandbox::new();
    let (mut term, holder) = a_game_in_bash_with_the_records_locked(&sandbox, "");
    term.send(&[0x1a]);
    term.expect_text("Stopped");
    // One write: what is typed (`true`) is in the terminal's queue as the
    // shell runs the line, for the game to find. The shell's command reads
    // nothing, and ends once told to by a file.
    let done = sandbox.home().join("done");
    let command = format!(
        "kill %1; until [ -e {} ]; do sleep 0.1; done\ntrue",
        done.display()
    );
    term.send(command.as_bytes());
    term.expect_text("Scores earned : 0");
    assert!(
        term.contents().contains("could not be saved"),
        "{}",
        term.contents()
    );
    // The lock's holder writes to the terminal too: it must go for the
    // terminal to close.
    drop(holder);
    std::fs::write(&done, "").expect("the file that ends the command");
    // What was typed is a command of its own, which does nothing.
    term.send(b"\nexit\n");
    let status = term.wait_exit(TIMEOUT);
    assert!(
        status.code().is_some(),
        "the shell's exit status {status:?}"
    );
}

/// Started in the background (`clines &`), the game leaves the terminal
/// alone and stops until `fg` brings it, drawn; `kill %1` ends it there,
/// saved, where setting the terminal's modes would have stopped it for good.
#[test]
fn a_game_started_in_the_background_waits_for_fg_or_ends_on_sigterm() {
    let sandbox = pty::Sandbox::new();
    let view = View::new(batch(&[], 93, &[]), 100, 50);
    let mut term = bash_in(&sandbox);
    for (started, end) in [(1, "fg"), (2, "kill %1")] {
        term.send(format!("{CLINES} --seed=93 &\n").as_bytes());
        // The shell says "[1] <pid>" once per game started. What it printed
        // is read from all it wrote, as its questions to the shell may have
        // scrolled the first round off the screen.
        let mut pid = None;
        let started_shown = term.wait_for_output(TIMEOUT, |raw| {
            let ids = job_ids(raw);
            pid = ids.last().copied().filter(|_| ids.len() == started);
            pid.is_some()
        });
        let pid = pid
            .filter(|_| started_shown)
            .unwrap_or_else(|| panic!("no process id of game {started}:\n{}", term.contents()));
        assert!(pty::wait_stopped(pid, TIMEOUT), "the game did not stop");
        until_the_shell_knows_the_job_stopped(&mut term);
        term.send(format!("{end}\n").as_bytes());
        if end == "fg" {
            term.expect("the opening board", |screen| view.locate_cursor(screen));
            term.key(Key::Char('q'));
        }
        let ended = term.wait_for_output(TIMEOUT, |raw| {
            pty::count(raw, b"Scores earned : 0") == started
        });
        assert!(ended, "game {started} did not end:\n{}", term.contents());
        if end == "fg" {
            // The shell's prompt comes once the game has exited: the next
            // command goes to a shell that is ready for it.
            let prompted = term.wait_for_output(TIMEOUT, |raw| {
                let closing = raw
                    .windows(b"Scores earned : 0".len())
                    .rposition(|w| w == b"Scores earned : 0");
                closing.is_some_and(|at| pty::count(&raw[at..], b"ready$ ") > 0)
            });
            assert!(
                prompted,
                "no prompt after game {started}:\n{}",
                term.contents()
            );
        }
    }
    assert_eq!(
        term.count_in_output(b"Game saved: "),
        1,
        "{}",
        term.contents()
    );
    until_the_shell_knows_the_job_ended(&mut term);
    term.send(b"exit\n");
    let status = term.wait_exit(TIMEOUT);
    assert!(status.success(), "the shell's exit status {status:?}");
}

#[test]
fn sigstop_from_outside_then_sigcont_restores_raw_mode_and_screen() {
    let (mut term, view) = start(100, 50, 94, &[], &[]);
    term.signal(libc::SIGSTOP);
    assert!(term.wait_stopped(TIMEOUT), "the game did not stop");
    // What a shell does meanwhile: cooked mode, and its own output.
    term.restore_line_settings();
    term.process_locally(b"\x1b[2J");
    term.signal(libc::SIGCONT);
    expect_view(&term, &view, "the board repainted after SIGCONT");
    // Raw mode again: a key arrives at once and is not echoed.
    cursor_moves(&mut term, &view, "the cursor moved, nothing echoed");
    quit_and_check(&mut term, 0);
}

#[test]
fn game_over_box_then_any_key_ends() {
    // Two columns never make a line of five: four chips fill the board.
    let (mut term, view) = {
        let rules = ["-w2", "-t2", "-N4"];
        let game = batch(&rules, 61, &[]);
        let term = Term::spawn(CLINES, Options::new(80, 24).arg("--seed=61").args(rules));
        (term, View::new(game, 80, 24))
    };
    assert!(view.game.cells.iter().all(|&c| c != 0));
    // The original's box, with a line saying how to play again (issue 10).
    let boxed = [
        "+-------------------------+",
        "|Game over, press a key...|",
        "|n starts a new game      |",
        "+-------------------------+",
    ];
    let in_box = |row: usize, col: usize| (1..=4).contains(&row) && (1..=27).contains(&col);
    term.expect(
        "the game-over box at row 1, column 1, over the board",
        |screen| {
            for (i, line) in boxed.iter().enumerate() {
                let shown: String = (1..=27)
                    .map(|col| {
                        let cell = screen.cell(1 + i as u16, col);
                        cell.and_then(|c| c.contents().chars().next())
                            .unwrap_or(' ')
                    })
                    .collect();
                if shown != *line {
                    return Err(format!("row {}: {shown:?}", 1 + i));
                }
            }
            // Around the box, the full board (the cursor wherever it is).
            let cursors = std::iter::once(None).chain(view.game.positions().map(Some));
            let mut last = String::new();
            for cursor in cursors {
                let shown = view.with_cursor(cursor);
                let outside: Vec<_> = shown
                    .differences(screen)
                    .into_iter()
                    .filter(|&(row, col, _)| !in_box(row, col))
                    .collect();
                if outside.is_empty() {
                    return Ok(());
                }
                last = shown.describe(&outside);
            }
            Err(last)
        },
    );
    term.key(Key::Char('x'));
    check_exit(&mut term, 0);
}

/// A panic on the main thread while the game has the terminal (asked for
/// through the debug build's `CLINES_TEST_PANIC`) restores the terminal,
/// prints std's message naming the thread and exits with std's 101.
#[cfg(debug_assertions)]
#[test]
fn a_panic_restores_the_terminal_and_is_reported() {
    let mut term = Term::spawn(
        CLINES,
        Options::new(80, 24)
            .arg("--seed=1")
            .env("CLINES_TEST_PANIC", "game")
            .separate_stderr(),
    );
    let status = term.wait_exit(TIMEOUT);
    assert_eq!(status.code(), Some(101), "exit status {status:?}");
    term.assert_restored();
    let stderr = term.stderr();
    assert!(
        stderr.contains("thread 'main' panicked at src/")
            && stderr.contains("\nCLINES_TEST_PANIC=game\n"),
        "{stderr:?}"
    );
}
