//! The checks of one setting's value on its own terms: glyphs, keys, the
//! mode and the palette. Each refusal names the setting as it was given.

use unicode_width::UnicodeWidthChar;

use super::{ColorMode, Font, GAME_KEYS, GameKey, Keys, QUIT_KEY, Setting, Warning};
use crate::text;

/// The `-f` glyphs: exactly three.
pub(super) fn font(font: &Setting<String>) -> Result<Font, String> {
    glyphs(font)
        .and_then(|glyphs| {
            <[char; 3]>::try_from(glyphs)
                .map(Font::from)
                .map_err(|glyphs| {
                    format!(
                        "expected exactly 3 glyphs (cursor, chip, jumping chip), got {}{}",
                        glyphs.len(),
                        equals_counted(&glyphs, 3)
                    )
                })
        })
        .map_err(|why| font.source.refuse(&why))
}

/// The names `-m` is written with: colour, black and white.
pub(super) const COLOR_MODES: [&str; 2] = ["c", "b"];

/// The `-m` mode: `c` or `b`. As the original reads it, the first letter
/// decides, in either case, so that its command lines (`-m C`, `-m color`)
/// still work.
pub(super) fn color_mode(mode: &Setting<String>) -> Result<ColorMode, String> {
    match mode.value.chars().next() {
        Some('c' | 'C') => Ok(ColorMode::Color),
        Some('b' | 'B') => Ok(ColorMode::Mono),
        _ => Err(mode
            .source
            .refuse("the mode must start with c (colour) or b (black and white)")),
    }
}

/// The characters of a glyph string, each of which must be visible and take
/// exactly one column on screen.
pub(super) fn glyphs(text: &Setting<String>) -> Result<Vec<char>, String> {
    let glyphs: Vec<char> = text.value.chars().collect();
    match glyphs
        .iter()
        .find_map(|&g| unfit_glyph(g).map(|why| (g, why)))
    {
        None => Ok(glyphs),
        Some((g, why)) => Err(format!(
            "{} (U+{:04X}) {why}; every glyph must be visible and take one column",
            shown_char(g),
            u32::from(g)
        )),
    }
}

/// A key or glyph as messages show it: in single quotes, escaped where a
/// terminal would hide it or act on it (`'\u{3164}'`, a blank filler that
/// Rust's `{:?}` shows as itself), and a quote or backslash escaped as in
/// a Rust character (`'\''`, not `'''`).
fn shown_char(c: char) -> String {
    match c {
        '\'' | '\\' => format!("'\\{c}'"),
        _ => format!("'{}'", text::escape(&c.to_string())),
    }
}

/// Why `glyph` cannot draw a chip or the cursor, if it cannot.
pub(super) fn unfit_glyph(glyph: char) -> Option<&'static str> {
    if glyph.is_control() {
        Some("is a control character")
    } else if matches!(glyph, '\u{2028}' | '\u{2029}') {
        Some("is a line separator, which breaks the grid")
    } else if glyph.is_whitespace() || text::BLANKS.contains(&glyph) {
        // A chip drawn with it would vanish.
        Some("is blank and would draw nothing")
    } else {
        match glyph.width() {
            Some(1) => None,
            Some(2) => Some("is a double-width glyph"),
            _ => Some("takes no column on screen (zero-width)"),
        }
    }
}

/// Said of a value one character too long that begins with `=`: written
/// `-C=hjkl `, as some programs take options, its `=` is one of the
/// characters.
fn equals_counted(chars: &[char], expected: usize) -> &'static str {
    match chars.first() {
        Some('=') if chars.len() == expected + 1 => " (the = is one of them)",
        _ => "",
    }
}

/// The `-C` keys: exactly five different characters.
pub(super) fn distinct_keys(keys: &Setting<String>) -> Result<Keys, String> {
    let chars: Vec<char> = keys.value.chars().collect();
    let refuse = |why: String| keys.source.refuse(&why);
    let keys: [char; 5] = chars.try_into().map_err(|chars: Vec<char>| {
        refuse(format!(
            "expected exactly 5 keys (left, down, up, right, action), got {}{}",
            chars.len(),
            equals_counted(&chars, 5)
        ))
    })?;
    // Of the control characters only these arrive as plain keys; any other
    // is read as a Ctrl chord and could never be pressed.
    let typable = |key: char| !key.is_control() || matches!(key, '\t' | '\n' | '\u{1b}' | '\u{7f}');
    if let Some(&key) = keys.iter().find(|&&key| !typable(key)) {
        return Err(refuse(format!(
            "{} cannot be typed as a key; control characters other than Tab, \
             Enter (newline), Escape and Backspace are refused",
            shown_char(key)
        )));
    }
    match (1..keys.len()).find(|&i| keys[..i].contains(&keys[i])) {
        Some(i) => Err(refuse(format!(
            "{} is given twice; the 5 keys (left, down, up, right, action) must differ",
            shown_char(keys[i])
        ))),
        None => Ok(Keys::from(keys)),
    }
}

/// The warning for `-C` keys that take the game's own keys (`s`, say),
/// whose use is then lost for the game: the player should know before
/// finding that nothing saves.
pub(super) fn game_keys_taken(setting: &Setting<String>, keys: &Keys) -> Option<Warning> {
    let taken: Vec<GameKey> = GAME_KEYS
        .into_iter()
        .filter(|game| keys.contains(game.key))
        .collect();
    let (last, rest) = taken.split_last()?;
    let list = |part: &dyn Fn(&GameKey) -> String| {
        let rest: Vec<String> = rest.iter().map(part).collect();
        match rest.is_empty() {
            true => part(last),
            false => format!("{} and {}", rest.join(", "), part(last)),
        }
    };
    let now = if rest.is_empty() {
        "is now a -C key"
    } else {
        "are now -C keys"
    };
    let still = if keys.contains(QUIT_KEY) {
        " (Ctrl-C still quits)"
    } else {
        ""
    };
    Some(Warning {
        text: setting.source.refuse(&format!(
            "{} {now}, no longer for {}{still}",
            list(&|game| format!("`{}`", game.key)),
            list(&|game| game.use_of.to_string()),
        )),
        matters_in: None,
    })
}

/// The colour numbers that are black in every terminal palette (0, and 16
/// in the 256-colour cube), invisible on the board's black background.
pub(super) const BLACK: [u8; 2] = [0, 16];

/// The colour numbers of a palette, each from 1 to 255 and not black.
pub(super) fn palette_numbers(list: &Setting<Vec<String>>) -> Result<Vec<u8>, String> {
    let mut numbers = Vec::with_capacity(list.value.len());
    for item in &list.value {
        match item.parse::<u8>() {
            Ok(n) if !BLACK.contains(&n) => numbers.push(n),
            Ok(_) => {
                return Err(list.source.refuse(&format!(
                    "{} is black, which would not show on the board's black background; \
                     expected numbers from 1 to 255 other than 16",
                    text::quote(item)
                )));
            }
            _ => {
                return Err(list.source.refuse(&format!(
                    "{} is not a colour number; expected numbers from 1 to 255 \
                     (0 and 16, black, are refused)",
                    text::quote(item)
                )));
            }
        }
    }
    Ok(numbers)
}

/// The palette: numbers from 1 to 255, of which the first `colors + 1` are
/// kept. Where the game may draw in `colour`, fewer than `colors + 1` are
/// refused, and repeated colours are allowed with a warning; black and
/// white, `-l` and batch mode, which draw no colour, take any numbers.
pub(super) fn palette(
    list: &Setting<Vec<String>>,
    colors: usize,
    colour: bool,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<u8>, String> {
    let needed = colors + 1;
    let mut numbers = palette_numbers(list)?;
    if colour && numbers.len() < needed {
        return Err(list.source.refuse(&format!(
            "expected at least {needed} colour numbers (the cursor, then one per colour \
             for {colors} colours), got {}",
            numbers.len()
        )));
    }
    numbers.truncate(needed);
    let repeated: Vec<String> = numbers
        .iter()
        .enumerate()
        .filter(|&(i, n)| numbers[..i].contains(n) && !numbers[i + 1..].contains(n))
        .map(|(_, n)| n.to_string())
        .collect();
    if colour && !repeated.is_empty() {
        warnings.push(Warning {
            text: list.source.refuse(&format!(
                "colour {} given more than once; those chips (or the cursor) will look alike",
                repeated.join(", ")
            )),
            matters_in: Some(ColorMode::Color),
        });
    }
    Ok(numbers)
}

/// Warnings for black-and-white glyphs (`-F`) that draw two colours' chips
/// alike, or a chip like the cursor: in black and white the glyph is all
/// that tells them apart. Only the glyphs of the `colors` in play count.
pub(super) fn bw_glyphs_alike(
    font: &Setting<String>,
    glyphs: &[char],
    colors: usize,
    warnings: &mut Vec<Warning>,
) {
    let chips: Vec<char> = (1..=colors)
        .filter_map(|k| glyphs.get(2 * k - 1).copied())
        .collect();
    let repeated: Vec<String> = chips
        .iter()
        .enumerate()
        .filter(|&(i, g)| chips[..i].contains(g) && !chips[i + 1..].contains(g))
        .map(|(_, &g)| text::quote(&g.to_string()))
        .collect();
    let mut warn = |why: String| {
        warnings.push(Warning {
            text: font.source.refuse(&why),
            matters_in: Some(ColorMode::Mono),
        });
    };
    if !repeated.is_empty() {
        warn(format!(
            "glyph {} drawn for more than one colour; in black and white those chips will \
             look alike",
            repeated.join(", ")
        ));
    }
    if let Some(&cursor) = glyphs.first().filter(|cursor| chips.contains(cursor)) {
        warn(format!(
            "glyph {} drawn for the cursor and a chip; in black and white the cursor on an \
             empty cell can look like that chip",
            text::quote(&cursor.to_string())
        ));
    }
}

/// A setting whose text names one of a few choices (`-p`, `--cells`); the
/// refusal says which are accepted.
pub(super) fn parsed<T: std::str::FromStr<Err = String>>(
    setting: &Setting<String>,
) -> Result<T, String> {
    setting
        .value
        .parse()
        .map_err(|why: String| setting.source.refuse(&why))
}
