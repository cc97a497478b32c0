//! The headless mode: one command per line on the input, one answer per
//! line on the output, flushed as it goes, so that a script or an agent can
//! converse with the game over pipes.

use std::io::{self, BufRead, Write};

use crate::ai::{self, Player};
use crate::board::{Color, Pos};
use crate::game::{Game, MoveError, Rules};

/// Plays one game, reading commands from `input` and answering on `output`
/// until `quit` or the end of the input.
pub fn run<R: BufRead, W: Write>(
    rules: Rules,
    seed: u64,
    input: R,
    mut output: W,
) -> io::Result<()> {
    let mut game = Game::new_unseen(rules, seed);
    let mut player = Player::new(rules);
    // Read as bytes: a line that is not UTF-8 is a bad command to answer,
    // not a reason to end the session.
    for line in input.split(b'\n') {
        let line = String::from_utf8_lossy(&line?).into_owned();
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let command = words.next().unwrap_or_default();
        let args: Vec<&str> = words.collect();
        match command {
            "quit" if args.is_empty() => break,
            "board" if args.is_empty() => write_board(&game, &mut output)?,
            "hint" => {
                let answer =
                    hint(&game, &mut player, seed, &args).unwrap_or_else(|e| format!("error: {e}"));
                writeln!(output, "{answer}")?;
            }
            _ => {
                let answer =
                    answer(&mut game, command, &args).unwrap_or_else(|e| format!("error: {e}"));
                writeln!(output, "{answer}")?;
            }
        }
        output.flush()?;
    }
    output.flush()
}

/// The one-line answer to a command other than `board` and `quit`.
fn answer(game: &mut Game, command: &str, args: &[&str]) -> Result<String, String> {
    match command {
        "status" => {
            no_args(command, args)?;
            Ok(format!(
                "score={} free={} streak={} over={}",
                game.score(),
                game.board().free(),
                game.streak(),
                if game.is_over() { "yes" } else { "no" }
            ))
        }
        "move" => {
            let [x1, y1, x2, y2] = numbers(args, "move X1 Y1 X2 Y2")?;
            let turn = game
                .play(Pos::new(x1, y1), Pos::new(x2, y2))
                .map_err(|e| e.to_string())?;
            let over = if game.is_over() { " over" } else { "" };
            Ok(format!(
                "ok removed={} points={} score={}{over}",
                turn.removed,
                turn.points,
                game.score()
            ))
        }
        "put" => {
            let [x, y, c] = numbers(args, "put X Y C")?;
            let colors = game.rules().colors;
            if c > usize::from(colors) {
                return Err(format!("colour {c} is not 0 (empty) or 1 to {colors}"));
            }
            let color = (c > 0).then_some(c as Color);
            game.put(Pos::new(x, y), color).map_err(|e| e.to_string())?;
            Ok("ok".into())
        }
        "clear" => {
            no_args(command, args)?;
            game.clear();
            Ok("ok".into())
        }
        // Reached only with arguments; without, `run` handles them.
        "board" | "quit" => Err(format!("usage: {command} (no arguments)")),
        _ => Err(format!(
            "unknown command '{command}' (commands: board status move put clear hint quit)"
        )),
    }
}

/// The built-in player's move, `hint X1 Y1 X2 Y2`. Its samples are seeded
/// from the game's seed and the board, so a transcript replays.
fn hint(game: &Game, player: &mut Player, seed: u64, args: &[&str]) -> Result<String, String> {
    no_args("hint", args)?;
    if game.is_over() {
        return Err(MoveError::GameOver.to_string());
    }
    match player.choose(game.board(), ai::board_seed(game.board(), seed)) {
        Some(chosen) => Ok(format!(
            "hint {} {} {} {}",
            chosen.from.x, chosen.from.y, chosen.to.x, chosen.to.y
        )),
        None => Err("no move: the board holds no chip that can move".into()),
    }
}

fn no_args(command: &str, args: &[&str]) -> Result<(), String> {
    if args.is_empty() {
        Ok(())
    } else {
        Err(format!("usage: {command} (no arguments)"))
    }
}

/// Exactly `N` non-negative whole numbers, or the command's usage.
fn numbers<const N: usize>(args: &[&str], usage: &str) -> Result<[usize; N], String> {
    let bad = || format!("usage: {usage} (whole numbers, 0-based)");
    let values: Vec<usize> = args
        .iter()
        .map(|a| a.parse().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    values.try_into().map_err(|_| bad())
}

/// `h` lines of `w` characters: `.` for empty, `1`–`9` then `a`–`z`.
fn write_board<W: Write>(game: &Game, output: &mut W) -> io::Result<()> {
    let board = game.board();
    let mut text = String::with_capacity((board.width() + 1) * board.height());
    for row in board.cells().chunks(board.width()) {
        text.extend(row.iter().map(|&c| color_char(c)));
        text.push('\n');
    }
    output.write_all(text.as_bytes())
}

/// The character for a cell's contents in `board` output.
pub fn color_char(color: Color) -> char {
    match color {
        0 => '.',
        1..=9 => char::from(b'0' + color),
        _ => char::from(b'a' + color - 10),
    }
}
