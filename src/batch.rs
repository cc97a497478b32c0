//! The headless mode: one command per line on the input, one answer per
//! line on the output, flushed as it goes, so that a script or an agent can
//! converse with the game over pipes.

use std::fmt;
use std::io::{self, BufRead, Write};

use crate::ai::{self, Player};
use crate::board::{self, Board, Color, Pos, color_char};
use crate::game::{Game, MoveError, Preview, Rules};
use crate::text;

/// Why a headless game stopped before its input ended.
#[derive(Debug)]
pub enum Error {
    /// The commands could not be read.
    Read(io::Error),
    /// An answer could not be written (a closed pipe among others).
    Write(io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Read(e) => write!(f, "cannot read the commands: {e}"),
            Error::Write(e) => write!(f, "cannot write the answers: {e}"),
        }
    }
}

impl std::error::Error for Error {}

/// Plays one game under `rules` with `preview`, reading commands from
/// `input` and answering on `output` until `quit` or the end of the input.
pub fn run<R: BufRead, W: Write>(
    rules: Rules,
    preview: Preview,
    seed: u64,
    input: R,
    mut output: W,
) -> Result<(), Error> {
    let mut game = Game::new_unseen(rules, preview, seed);
    // Made at the first hint: a script that never asks for one does not pay
    // for the player's tables of the board and its look at the machine.
    let mut player = None;
    let mut lines = Lines::new(input);
    while let Some(line) = lines.next_line().map_err(Error::Read)? {
        let line = match line {
            Line::Text(line) => line,
            Line::TooLong => {
                let answer = format!(
                    "error: line longer than {MAX_LINE_BYTES} bytes, ignored (commands are short)\n"
                );
                send(&mut output, &answer)?;
                continue;
            }
        };
        // Some editors begin a file with a byte-order mark.
        let line = line.trim_start_matches('\u{feff}').trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let command = words.next().unwrap_or_default();
        let args: Vec<&str> = words.collect();
        let answer = match command {
            "quit" if args.is_empty() => break,
            "board" if args.is_empty() => board(&game),
            "hint" => hint(
                &game,
                player.get_or_insert_with(|| Player::new(rules)),
                seed,
                &args,
            ),
            "rules" => rules_line(&game, seed, &args),
            _ => answer(&mut game, command, &args),
        };
        let mut answer = answer.unwrap_or_else(|e| format!("error: {e}"));
        if !answer.ends_with('\n') {
            answer.push('\n');
        }
        send(&mut output, &answer)?;
    }
    output.flush().map_err(Error::Write)
}

/// Writes one answer and flushes it, so that the other side can read it
/// before sending the next command.
fn send<W: Write>(output: &mut W, answer: &str) -> Result<(), Error> {
    output
        .write_all(answer.as_bytes())
        .and_then(|()| output.flush())
        .map_err(Error::Write)
}

/// The longest command line read, in bytes (not a line of chips). The
/// longest command is a few dozen; the cap keeps memory flat whatever
/// arrives (`/dev/zero` never sends a newline).
pub const MAX_LINE_BYTES: usize = 4096;

/// One line of input.
enum Line {
    /// A line within [`MAX_LINE_BYTES`], without its newline; bytes that
    /// are not UTF-8 replaced, so that it is a bad command to answer rather
    /// than a reason to end the session.
    Text(String),
    /// A line longer than [`MAX_LINE_BYTES`] that is neither a comment nor
    /// blank. Reported as soon as the cap is passed, or past it at its
    /// first character that is not white space; the rest of the line is
    /// skipped unread.
    TooLong,
}

/// The input split into lines of at most [`MAX_LINE_BYTES`] bytes, in
/// bounded memory.
struct Lines<R> {
    input: R,
    /// The line read so far.
    line: Vec<u8>,
    /// Skipping the rest of an over-long line, up to its newline.
    skipping: bool,
    /// In an over-long line with nothing but white space so far: a comment
    /// or a blank line if it stays so, a command too long if not.
    undecided: Option<Opening>,
}

impl<R: BufRead> Lines<R> {
    fn new(input: R) -> Lines<R> {
        Lines {
            input,
            line: Vec::with_capacity(MAX_LINE_BYTES),
            skipping: false,
            undecided: None,
        }
    }

    /// The next line, or `None` at the end of the input. An over-long
    /// comment or blank line is skipped silently, like any other.
    fn next_line(&mut self) -> io::Result<Option<Line>> {
        loop {
            let available = match self.input.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                // The end of the input ends a last line without a newline.
                self.skipping = false;
                if let Some(mut opening) = self.undecided.take() {
                    if opening.end().is_some() {
                        return Ok(Some(Line::TooLong));
                    }
                }
                if self.line.is_empty() {
                    return Ok(None);
                }
                return Ok(Some(self.take()));
            }
            let newline = available.iter().position(|&b| b == b'\n');
            let used = newline.map_or(available.len(), |at| at + 1);
            if let Some(mut opening) = self.undecided.take() {
                let content = &available[..newline.unwrap_or(available.len())];
                let mut first = opening.first_other(content);
                if newline.is_some() {
                    first = first.or_else(|| opening.end());
                }
                self.skipping = first.is_some() && newline.is_none();
                self.undecided = (first.is_none() && newline.is_none()).then_some(opening);
                self.input.consume(used);
                match first {
                    Some('#') | None => continue,
                    Some(_) => return Ok(Some(Line::TooLong)),
                }
            }
            if !self.skipping {
                let content = &available[..newline.unwrap_or(available.len())];
                if self.line.len() + content.len() > MAX_LINE_BYTES {
                    let mut opening = Opening::default();
                    let mut first = opening
                        .first_other(&self.line)
                        .or_else(|| opening.first_other(content));
                    if newline.is_some() {
                        first = first.or_else(|| opening.end());
                    }
                    let silent = matches!(first, None | Some('#'));
                    self.line.clear();
                    self.skipping = first.is_some() && newline.is_none();
                    self.undecided = (first.is_none() && newline.is_none()).then_some(opening);
                    self.input.consume(used);
                    if silent {
                        continue;
                    }
                    return Ok(Some(Line::TooLong));
                }
                self.line.extend_from_slice(content);
            }
            self.input.consume(used);
            if newline.is_some() {
                if std::mem::take(&mut self.skipping) {
                    continue;
                }
                return Ok(Some(self.take()));
            }
        }
    }

    /// The line read so far, leaving the buffer empty for the next.
    fn take(&mut self) -> Line {
        let line = Line::Text(String::from_utf8_lossy(&self.line).into_owned());
        self.line.clear();
        line
    }
}

/// The start of an over-long line, read piece by piece as [`run`] reads a
/// short line: byte-order marks first, then white space (Unicode's, as
/// `str::trim` takes it), then the character that tells a comment from a
/// command. Bytes that are not UTF-8 count as a character, U+FFFD, as in
/// a short line.
#[derive(Default)]
struct Opening {
    /// The bytes of a character cut between two pieces.
    cut: Vec<u8>,
    /// Past the byte-order marks the line may begin with.
    past_marks: bool,
}

impl Opening {
    /// The first character of `piece` that is neither white space nor a
    /// byte-order mark at the line's start; `None` while there is none.
    fn first_other(&mut self, mut piece: &[u8]) -> Option<char> {
        while !self.cut.is_empty() {
            let (&byte, rest) = piece.split_first()?;
            piece = rest;
            self.cut.push(byte);
            match std::str::from_utf8(&self.cut) {
                Ok(whole) => {
                    let c = whole.chars().next().expect("one whole character");
                    self.cut.clear();
                    if let Some(found) = self.telling(c) {
                        return Some(found);
                    }
                }
                Err(e) if e.error_len().is_some() => return Some(char::REPLACEMENT_CHARACTER),
                Err(_) => {}
            }
        }
        let (valid, broken) = match std::str::from_utf8(piece) {
            Ok(valid) => (valid, None),
            Err(e) => {
                let (valid, rest) = piece.split_at(e.valid_up_to());
                let valid = std::str::from_utf8(valid).expect("valid up to here");
                (valid, Some((rest, e.error_len())))
            }
        };
        if let Some(found) = valid.chars().find_map(|c| self.telling(c)) {
            return Some(found);
        }
        match broken {
            Some((_, Some(_))) => Some(char::REPLACEMENT_CHARACTER),
            Some((rest, None)) => {
                self.cut.extend_from_slice(rest);
                None
            }
            None => None,
        }
    }

    /// At the line's end: a character left cut is not UTF-8.
    fn end(&mut self) -> Option<char> {
        (!std::mem::take(&mut self.cut).is_empty()).then_some(char::REPLACEMENT_CHARACTER)
    }

    /// `c` when it tells what the line is: not white space, nor a
    /// byte-order mark at the line's start.
    fn telling(&mut self, c: char) -> Option<char> {
        if !self.past_marks && c == '\u{feff}' {
            return None;
        }
        self.past_marks = true;
        (!c.is_whitespace()).then_some(c)
    }
}

/// The one-line answer to a command other than `board`, `hint`, `rules`
/// and `quit`.
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
                .map_err(|e| move_error(game, e))?;
            let over = if game.is_over() { " over" } else { "" };
            Ok(format!(
                "ok removed={} points={} score={}{over}",
                turn.removed,
                turn.points,
                game.score()
            ))
        }
        "put" => {
            const USAGE: &str = "usage: put X Y C (X and Y whole numbers from 0; C a colour \
                                 as a number, or as board shows it: . for empty, 1-9, a-z)";
            let usage = || USAGE.to_string();
            let &[x, y, c] = args else {
                return Err(usage());
            };
            let x = whole_number(x).ok_or_else(usage)?;
            let y = whole_number(y).ok_or_else(usage)?;
            let typed = c;
            let c = color_value(typed).ok_or_else(usage)?;
            let colors = game.rules().colors;
            if c > usize::from(colors) {
                return Err(format!(
                    "colour {} is not 0 or . (empty) or {}",
                    text::excerpt(typed),
                    color_range(colors)
                ));
            }
            let color = (c > 0).then_some(c as Color);
            game.put(Pos::new(x, y), color)
                .map_err(|e| move_error(game, e))?;
            Ok("ok".into())
        }
        "clear" => {
            no_args(command, args)?;
            game.clear();
            Ok("ok".into())
        }
        "next" => {
            no_args(command, args)?;
            next(game)
        }
        "undo" => {
            no_args(command, args)?;
            // A script that set up a position may not know it ended undo.
            game.undo().map_err(|e| {
                format!("{e} (only moves since the opening or the last put or clear go back)")
            })?;
            Ok(format!("ok score={}", game.score()))
        }
        // Reached only with arguments; without, `run` handles them.
        "board" | "quit" => Err(format!("usage: {command} (no arguments)")),
        _ => Err(format!(
            "unknown command {} (commands: board status move put clear hint next undo rules \
             quit)",
            text::quote(command)
        )),
    }
}

/// The game's rules and seed, `rules width=W height=H colors=C line=I
/// next=N first=F preview=P seed=S`: what a script needs to read `board`
/// and `next`, and to replay the game, whatever the config file set.
fn rules_line(game: &Game, seed: u64, args: &[&str]) -> Result<String, String> {
    no_args("rules", args)?;
    let rules = game.rules();
    Ok(format!(
        "rules width={} height={} colors={} line={} next={} first={} preview={} seed={seed}",
        rules.width,
        rules.height,
        rules.colors,
        rules.line,
        rules.next,
        rules.first,
        game.preview()
    ))
}

/// The colours of a game of `colors` as `put` takes them: `1` alone, `1 to
/// 4`, or `1 to 12 (1-9, a-c)` where letters stand for colours past 9.
fn color_range(colors: Color) -> String {
    match colors {
        0 | 1 => "1".to_string(),
        2..=9 => format!("1 to {colors}"),
        10 => "1 to 10 (1-9, a)".to_string(),
        _ => format!("1 to {colors} (1-9, a-{})", color_char(colors)),
    }
}

/// What went wrong with a move or a `put`; off the board, it says where the
/// board is.
fn move_error(game: &Game, error: MoveError) -> String {
    let board = game.board();
    match error {
        MoveError::OffBoard => format!(
            "{error} (X from 0 to {}, Y from 0 to {})",
            board.width() - 1,
            board.height() - 1
        ),
        _ => error.to_string(),
    }
}

/// The built-in player's move, `hint X1 Y1 X2 Y2`, counting on the next
/// throw where a preview shows it. Its samples are seeded from the game's
/// seed and the board, so a transcript replays.
fn hint(game: &Game, player: &mut Player, seed: u64, args: &[&str]) -> Result<String, String> {
    no_args("hint", args)?;
    if game.is_over() {
        return Err(MoveError::GameOver.to_string());
    }
    let seed = ai::board_seed(game.board(), seed);
    match player.choose_seeing(game.board(), game.planned(), seed) {
        Some(chosen) => Ok(format!(
            "hint {} {} {} {}",
            chosen.from.x, chosen.from.y, chosen.to.x, chosen.to.y
        )),
        None => Err(no_move(game.board())),
    }
}

/// Why the player found no move on `board`: with a chip and an empty cell
/// some chip always borders the empty cells, so one of them is missing.
fn no_move(board: &Board) -> String {
    if board.chip_count() == 0 {
        "no move: the board has no chip".into()
    } else if board.free() == 0 {
        "no move: the board is full, with no empty cell to move to".into()
    } else {
        "no move: no chip can reach an empty cell".into()
    }
}

/// The planned throw: `next C C C` with `--preview colors`, `next X Y C
/// X Y C X Y C` with `--preview cells`, where a chip the board had no room
/// for when the throw was planned shows `- -` for its cell.
fn next(game: &Game) -> Result<String, String> {
    if game.preview() == Preview::Off {
        return Err("no preview in this game (start it with --preview colors or cells)".into());
    }
    if game.is_over() {
        return Err(MoveError::GameOver.to_string());
    }
    let mut answer = String::from("next");
    for planned in game.planned() {
        if game.preview() == Preview::Cells {
            match planned.pos {
                Some(pos) => answer.push_str(&format!(" {} {}", pos.x, pos.y)),
                None => answer.push_str(" - -"),
            }
        }
        answer.push(' ');
        answer.push(color_char(planned.color));
    }
    Ok(answer)
}

/// Nothing, or `command`'s usage when it was given `args`.
fn no_args(command: &str, args: &[&str]) -> Result<(), String> {
    if args.is_empty() {
        Ok(())
    } else {
        Err(format!("usage: {command} (no arguments)"))
    }
}

/// Exactly `N` coordinates, or the command's usage.
fn numbers<const N: usize>(args: &[&str], usage: &str) -> Result<[usize; N], String> {
    let bad = || format!("usage: {usage} (whole numbers from 0)");
    let values: Vec<usize> = args
        .iter()
        .map(|a| whole_number(a).ok_or_else(bad))
        .collect::<Result<_, _>>()?;
    values.try_into().map_err(|_| bad())
}

/// A whole number written in digits only (no sign), as every number of the
/// protocol is: a coordinate or a colour. One too large to hold is
/// `usize::MAX`, as far off the board or out of range as any.
fn whole_number(text: &str) -> Option<usize> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    match text.parse::<usize>() {
        Ok(number) => Some(number),
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Some(usize::MAX),
        Err(_) => None,
    }
}

/// `h` lines of `w` characters: `.` for empty, `1`–`9` then `a`–`z`.
fn board(game: &Game) -> Result<String, String> {
    let board = game.board();
    let mut text = String::with_capacity((board.width() + 1) * board.height());
    for row in board.cells().chunks(board.width()) {
        text.extend(row.iter().map(|&c| color_char(c)));
        text.push('\n');
    }
    Ok(text)
}

/// A colour as `put` takes it: a whole number (0 for empty), or the
/// character `board` shows for it.
fn color_value(text: &str) -> Option<usize> {
    if let Some(number) = whole_number(text) {
        return Some(number);
    }
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => board::color_of_char(c).map(usize::from),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::io::BufReader;

    use super::*;

    /// The lines `Lines` finds in `input`, read through a buffer of
    /// `capacity` bytes: `None` for an over-long line.
    fn lines(input: &[u8], capacity: usize) -> Vec<Option<String>> {
        let mut lines = Lines::new(BufReader::with_capacity(capacity, input));
        let mut found = Vec::new();
        while let Some(line) = lines.next_line().unwrap() {
            found.push(match line {
                Line::Text(text) => Some(text),
                Line::TooLong => None,
            });
        }
        found
    }

    #[test]
    fn lines_up_to_the_cap_are_read_whole_in_any_chunks() {
        let longest = "m".repeat(MAX_LINE_BYTES);
        let input = format!("status\n\n{longest}\nlast");
        for capacity in [1, 7, 4096, 100_000] {
            assert_eq!(
                lines(input.as_bytes(), capacity),
                [Some("status"), Some(""), Some(&longest), Some("last")]
                    .map(|line| line.map(str::to_string)),
                "capacity {capacity}"
            );
        }
    }

    #[test]
    fn a_longer_line_is_one_too_long_and_the_next_is_read() {
        let over = "m".repeat(MAX_LINE_BYTES + 1);
        let input = format!("{over}\nstatus\n{over}{over}");
        for capacity in [1, 7, 4096, 100_000] {
            assert_eq!(
                lines(input.as_bytes(), capacity),
                [None, Some("status".to_string()), None],
                "capacity {capacity}"
            );
        }
    }

    #[test]
    fn a_long_comment_is_skipped() {
        let comment = format!("  # {}", "c".repeat(3 * MAX_LINE_BYTES));
        let input = format!("{comment}\nstatus\n{comment}");
        for capacity in [1, 7, 4096, 100_000] {
            assert_eq!(
                lines(input.as_bytes(), capacity),
                [Some("status".to_string())],
                "capacity {capacity}"
            );
        }
    }

    #[test]
    fn a_long_blank_line_is_skipped_and_long_blanks_before_a_command_are_not() {
        let blanks = " \t".repeat(3 * MAX_LINE_BYTES);
        let input = format!("{blanks}\n{blanks}# comment\nstatus\n{blanks}status\nboard\n{blanks}");
        for capacity in [1, 7, 4096, 100_000] {
            assert_eq!(
                lines(input.as_bytes(), capacity),
                [Some("status".to_string()), None, Some("board".to_string())],
                "capacity {capacity}"
            );
        }
    }

    /// Whether a headless session skips `line` as blank or a comment:
    /// followed by `status`, only the status is answered; last, nothing is.
    fn skipped(line: &[u8], last: bool, capacity: usize) -> bool {
        let mut input = line.to_vec();
        if !last {
            input.extend_from_slice(b"\nstatus\n");
        }
        let mut output = Vec::new();
        let reader = BufReader::with_capacity(capacity, input.as_slice());
        run(Rules::default(), Preview::Off, 1, reader, &mut output).unwrap();
        let answers = String::from_utf8(output).unwrap();
        let answers = answers.lines().count();
        assert!(answers <= 2, "{answers} answers");
        answers == usize::from(!last)
    }

    #[test]
    fn a_long_line_is_skipped_exactly_when_it_would_be_short() {
        // Two-byte and three-byte blanks, so that small buffers cut them.
        let blank = "\u{a0}\u{3000}\t\u{2028}";
        let mark = "\u{feff}";
        let cases: [(&[u8], &[u8], bool, bool); 9] = [
            (mark.as_bytes(), b"", false, true),
            (b"", b"", true, true),
            (mark.as_bytes(), b"# a comment", false, true),
            (b"", b"status", false, false),
            (b"", mark.as_bytes(), false, false),
            (b"", b"\xff", false, false),
            (b"", b"\xe3\x80", false, false),
            (b"", b"\xe3\x80", true, false),
            (b"", "\u{3000}#".as_bytes(), true, true),
        ];
        for (start, end, last, skip) in cases {
            for repeats in [1, 2 * MAX_LINE_BYTES] {
                let line = [start, blank.repeat(repeats).as_bytes(), end].concat();
                for capacity in [1, 2, 7, 4096, 100_000] {
                    assert_eq!(
                        skipped(&line, last, capacity),
                        skip,
                        "{start:?} {repeats} blanks {end:?}, last {last}, capacity {capacity}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_colour_range_names_the_letters_there_are() {
        assert_eq!(color_range(1), "1");
        assert_eq!(color_range(5), "1 to 5");
        assert_eq!(color_range(10), "1 to 10 (1-9, a)");
        assert_eq!(color_range(12), "1 to 12 (1-9, a-c)");
    }
}

#[cfg(test)]
mod fuzz;
