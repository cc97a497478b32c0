//! The help overlay (F1): every key the game takes, as the `-C` keys have
//! made them, and the scoring rule, in a box over the top-left corner of
//! the screen. Where the terminal is too small for it, a smaller box says
//! how large it must be.

use super::frame::{Frame, Ink};
use super::input::ENTER;
use super::view;
use crate::cli::{GAME_KEYS, Keys};
use crate::text;
use unicode_width::UnicodeWidthChar;

/// Columns of the key names; longer names take a row of their own.
const KEY_COLUMN: usize = 8;

/// The overlay's lines, without the frame: the keys for `keys` (left, down,
/// up, right, action, as `-C` gives them) and the scoring rule for lines
/// of at least `line` chips. A game key that is one of the `-C` keys is
/// left out: it does what `-C` says.
pub fn lines(keys: &Keys, line: usize) -> Vec<String> {
    let moves: Vec<String> = [keys.left, keys.down, keys.up, keys.right]
        .map(key_name)
        .to_vec();
    let mut entries = vec![
        ("arrows".to_string(), "move the cursor"),
        (moves.join(" "), "left, down, up, right"),
        (key_name(keys.act), "select a chip, or move"),
        (String::new(), "the selected chip here"),
    ];
    if !keys.contains(ENTER) {
        entries.push(("Enter".to_string(), "the same"));
    }
    entries.push(("click".to_string(), "the same, on the cell"));
    for game in GAME_KEYS {
        if !keys.contains(game.key) {
            entries.push((game.key.to_string(), game.help));
        }
    }
    entries.extend([
        ("Ctrl-C".to_string(), "quit (also Ctrl-\\)"),
        ("Ctrl-L".to_string(), "redraw the screen"),
        ("Ctrl-Z".to_string(), "suspend; fg resumes"),
        ("F1".to_string(), "this help"),
    ]);
    let mut lines = vec!["Keys (any key closes this)".to_string()];
    for (key, meaning) in entries {
        if key.chars().count() >= KEY_COLUMN {
            lines.push(key);
            lines.push(format!("{:KEY_COLUMN$}{meaning}", ""));
        } else {
            lines.push(format!("{key:KEY_COLUMN$}{meaning}"));
        }
    }
    lines.extend([
        format!("{line}+ of a colour in a row vanish:"),
        format!("n chips score n + n*(n-{line}) + b*b,"),
        "b: scoring moves just before it.".to_string(),
    ]);
    lines
}

/// How a `-C` key is named on screen.
fn key_name(key: char) -> String {
    match key {
        ' ' => "space".into(),
        '\t' => "Tab".into(),
        ENTER => "Enter".into(),
        '\u{1b}' => "Esc".into(),
        '\u{7f}' => "Backspace".into(),
        // A key drawn wider or narrower than a column (a CJK letter, a
        // combining mark) would push the box's edge out of line, and a
        // blank one (white space, a line separator, a filler) would not be
        // seen or would break the line.
        _ if key.width() != Some(1) || key.is_whitespace() || text::BLANKS.contains(&key) => {
            format!("U+{:04X}", u32::from(key))
        }
        _ => key.to_string(),
    }
}

/// Draws `lines` in a box from row 1, column 1, or, when the terminal of
/// `size` (columns, rows) is too small for that box, the size it needs in
/// a box that fits.
pub fn draw(lines: &[String], ink: Ink, size: (usize, usize), frame: &mut Frame) {
    let inner = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let (cols, rows) = (inner + 3, lines.len() + 3);
    if size.0 >= cols && size.1 >= rows {
        view::draw_box(lines, ink, frame);
        return;
    }
    // The whole request where it fits, else a shorter one: a box running
    // off the screen would hide the size it names.
    let requests = [
        format!("Help needs a {cols}x{rows} terminal: enlarge it. Any key goes back."),
        format!("Help needs {cols}x{rows}"),
        format!("{cols}x{rows}"),
    ];
    let width = size.0.saturating_sub(3).max(1);
    let mut wrapped = requests.iter().map(|request| view::wrap(request, width));
    let shortest = wrapped.next_back().expect("a shortest request");
    let fits = wrapped.find(|request| request.len() + 3 <= size.1);
    view::draw_box(&fits.unwrap_or(shortest), ink, frame);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(frame: &Frame) -> Vec<String> {
        (0..frame.rows())
            .map(|r| {
                let line: String = (0..frame.cols()).map(|c| frame.get(r, c).ch).collect();
                line.trim_end().to_string()
            })
            .collect()
    }

    #[test]
    fn every_key_is_listed() {
        let lines = lines(&crate::cli::DEFAULT_KEYS, 5);
        for key in [
            "arrows", "h j k l", "space", "Enter", "click", "?", "a", "u", "n", "s", "q", "Ctrl-C",
            "Ctrl-L", "Ctrl-Z", "F1",
        ] {
            let listed = lines.iter().any(|l| l.starts_with(&format!("{key:8}")));
            assert!(listed, "{key:?} missing from {lines:?}");
        }
        let text = lines.join("\n");
        assert!(text.contains("Ctrl-\\"), "{text}");
        assert!(text.contains("n + n*(n-5) + b*b"), "{text}");
    }

    #[test]
    fn remapped_keys_are_named_and_game_keys_they_take_are_left_out() {
        let text = lines(&Keys::from(['a', 's', 'w', 'd', '\n']), 4).join("\n");
        assert!(
            text.contains("a s w d ") && text.contains("Enter   select"),
            "{text}"
        );
        assert!(!text.contains("autoplay"), "{text}");
        assert!(
            !text.contains("Enter   the same"),
            "Enter is the action key: {text}"
        );
        assert!(text.contains("(n-4)"), "{text}");
        let long = lines(&Keys::from(['\t', '\u{7f}', '\u{1b}', 'l', ' ']), 5);
        let at = long
            .iter()
            .position(|l| l == "Tab Backspace Esc l")
            .unwrap();
        assert_eq!(long[at + 1].trim(), "left, down, up, right");
    }

    /// A key a column wide is shown as it is; any other, or a blank one,
    /// by its code, so that every key is seen and every line of the box
    /// is as wide on screen as it is long.
    #[test]
    fn keys_not_seen_as_one_column_are_named_by_their_codes() {
        let odd = lines(
            &Keys::from(['中', '\u{301}', '\u{2028}', '\u{2800}', '\u{a0}']),
            5,
        );
        assert!(
            odd.contains(&"U+4E2D U+0301 U+2028 U+2800".to_string()),
            "{odd:?}"
        );
        assert!(odd.contains(&"U+00A0  select a chip, or move".to_string()));
        let words = lines(&Keys::from(['é', '\u{2003}', 'k', 'l', ' ']), 5);
        assert!(words.contains(&"é U+2003 k l".to_string()), "{words:?}");
        for line in odd.iter().chain(&words) {
            let columns: usize = line.chars().map(|c| c.width().unwrap_or(0)).sum();
            assert_eq!(columns, line.chars().count(), "{line:?}");
        }
    }

    #[test]
    fn fits_a_mini_mode_terminal_of_80_by_23_and_of_40_by_30() {
        let lines = lines(&crate::cli::DEFAULT_KEYS, 5);
        // 80 × 23: an 80 × 24 window less the status line of tmux or
        // screen.
        for (cols, rows_) in [(80, 23), (40, 30)] {
            let mut frame = Frame::new(cols, rows_);
            draw(&lines, Some(7), (cols, rows_), &mut frame);
            let shown = rows(&frame);
            assert!(shown[1].starts_with(" +---"), "{shown:?}");
            assert!(shown[2].starts_with(" |Keys"), "{shown:?}");
            let bottom = 2 + lines.len();
            assert_eq!(shown[bottom], shown[1]);
            assert_eq!(frame.get(2, 1).ink, Some(7));
        }
    }

    /// Below the height the whole request needs, a shorter one is shown,
    /// and below that the size alone, in a box that ends inside the
    /// terminal.
    #[test]
    fn a_tiny_terminal_is_still_shown_the_size_in_a_box_that_fits() {
        let lines = lines(&crate::cli::DEFAULT_KEYS, 5);
        let inner = lines.iter().map(|l| l.chars().count()).max().unwrap();
        let size = format!("{}x{}", inner + 3, lines.len() + 3);
        for (rows_, says) in [(8, format!("Help needs {size}")), (5, size.clone())] {
            let mut frame = Frame::new(8, rows_);
            draw(&lines, None, (8, rows_), &mut frame);
            let shown = rows(&frame);
            assert_eq!(shown[1], " +-----+", "{shown:?}");
            let inside = shown[2..]
                .iter()
                .take_while(|r| r.starts_with(" |"))
                .count();
            assert_eq!(shown[inside + 2], shown[1], "the bottom edge: {shown:?}");
            let text: Vec<&str> = shown[2..inside + 2]
                .iter()
                .map(|r| r[2..7].trim())
                .collect();
            assert_eq!(text.join(" "), says);
        }
    }

    #[test]
    fn a_small_terminal_is_told_the_size_to_reach() {
        let lines = lines(&crate::cli::DEFAULT_KEYS, 5);
        let mut frame = Frame::new(19, 19);
        draw(&lines, None, (19, 19), &mut frame);
        let shown = rows(&frame).join("\n");
        assert!(shown.contains("Help needs a"), "{shown}");
        assert!(shown.contains("terminal:"), "{shown}");
        assert!(shown.contains("enlarge it."), "{shown}");
        assert!(rows(&frame).iter().all(|r| r.chars().count() <= 19));
    }
}
