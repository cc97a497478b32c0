//! The command line: the original's getopt-style options, parsed with clap
//! and validated into [`Rules`] and [`Appearance`] before the terminal is
//! touched.

use clap::Parser;
use clap::error::ErrorKind;

use crate::game::Rules;

/// Console Lines: move chips along free paths, line up five of a colour.
#[derive(Parser, Debug)]
#[command(name = "clines", version, disable_version_flag = true)]
pub struct Args {
    /// List every user's record and exit
    #[arg(short = 'l', long = "list")]
    pub list: bool,

    /// Print the version and exit
    #[arg(short = 'v', long = "version", action = clap::ArgAction::Version)]
    pub version: Option<bool>,

    /// Board width in cells (1-1000)
    #[arg(short = 'w', long = "width", value_name = "N", default_value_t = 9)]
    pub width: usize,

    /// Board height in cells (1-1000)
    #[arg(short = 't', long = "height", value_name = "N", default_value_t = 9)]
    pub height: usize,

    /// Number of chip colours (1-35)
    #[arg(short = 'c', long = "colors", value_name = "N", default_value_t = 5)]
    pub colors: usize,

    /// Shortest line of one colour that is removed (2-1000)
    #[arg(short = 'i', long = "line", value_name = "N", default_value_t = 5)]
    pub line: usize,

    /// Chips thrown after each move that removes nothing (0 to the number of cells)
    #[arg(short = 'n', long = "next", value_name = "N", default_value_t = 3)]
    pub next: usize,

    /// Chips in the opening throw (1 to the number of cells)
    #[arg(short = 'N', long = "first", value_name = "N", default_value_t = 3)]
    pub first: usize,

    /// Keys for left, down, up, right and action (exactly 5 characters)
    #[arg(
        short = 'C',
        long = "keys",
        value_name = "KEYS",
        default_value = "hjkl "
    )]
    pub keys: String,

    /// Colour-mode glyphs: cursor, chip, jumping chip (exactly 3 characters)
    #[arg(
        short = 'f',
        long = "font",
        value_name = "GLYPHS",
        default_value = "IOo"
    )]
    pub font: String,

    /// Black-and-white glyphs: cursor, then a chip and its jumping glyph per colour
    #[arg(short = 'F', long = "bw-font", value_name = "GLYPHS")]
    pub bw_font: Option<String>,

    /// Force colour (c) or black-and-white (b) drawing [default: automatic]
    #[arg(short = 'm', long = "mode", value_name = "c|b")]
    pub mode: Option<String>,

    /// Colour numbers for the cursor, then one per chip colour [default: 7,1,2,3,4,5]
    #[arg(short = 'o', long = "palette", value_name = "LIST")]
    pub palette: Option<String>,

    /// Play headless: commands on stdin, answers on stdout
    #[arg(long = "batch")]
    pub batch: bool,

    /// Seed the game's random generator, making it repeatable
    #[arg(long = "seed", value_name = "S")]
    pub seed: Option<u64>,
}

/// Default black-and-white glyphs.
pub const DEFAULT_BW_FONT: &str = "*OoVvAa.'Zz";

/// How chips are told apart on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorMode {
    /// Chips drawn in their colours.
    Color,
    /// Chips told apart by glyph only.
    Mono,
}

/// How the game looks and which keys it takes; none of this changes the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Appearance {
    /// Keys for left, down, up, right and action.
    pub keys: [char; 5],
    /// Colour-mode glyphs: cursor, chip, jumping chip.
    pub font: [char; 3],
    /// Black-and-white glyphs: cursor, then chip and jumping glyph per colour.
    pub bw_font: Vec<char>,
    /// `None` chooses from the terminal and `NO_COLOR`.
    pub mode: Option<ColorMode>,
    /// ANSI colour numbers: cursor, then one per chip colour.
    pub palette: Vec<u8>,
}

impl Appearance {
    /// The original's look for a game of `colors` colours.
    pub fn for_colors(colors: usize) -> Appearance {
        Appearance {
            keys: ['h', 'j', 'k', 'l', ' '],
            font: ['I', 'O', 'o'],
            bw_font: DEFAULT_BW_FONT.chars().collect(),
            mode: None,
            palette: default_palette(colors),
        }
    }
}

/// The cursor's white (7), then colours 1, 2, 3, … skipping 7.
pub fn default_palette(colors: usize) -> Vec<u8> {
    std::iter::once(7)
        .chain((1..=u8::MAX).filter(|&c| c != 7).take(colors))
        .collect()
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Play in the terminal.
    Play {
        /// The rules of the game.
        rules: Rules,
        /// A fixed seed, or `None` to seed from the operating system.
        seed: Option<u64>,
        /// How it looks.
        appearance: Appearance,
    },
    /// Play headless over stdin and stdout.
    Batch {
        /// The rules of the game.
        rules: Rules,
        /// A fixed seed, or `None` to seed from the operating system.
        seed: Option<u64>,
    },
    /// List the records.
    List,
}

/// Parses and validates a command line (program name first). Help and
/// version requests, and every invalid option, come back as a clap error
/// whose `exit()` prints it and exits with the right status (0 or 2).
pub fn parse<I, T>(args: I) -> Result<Command, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args = Args::try_parse_from(args)?;
    let invalid = |msg: String| clap::Error::raw(ErrorKind::ValueValidation, format!("{msg}\n"));
    if args.list {
        return Ok(Command::List);
    }
    let colors = u8::try_from(args.colors).unwrap_or(u8::MAX);
    let rules = Rules {
        width: args.width,
        height: args.height,
        colors,
        line: args.line,
        next: args.next,
        first: args.first,
    };
    if colors == u8::MAX {
        return Err(invalid(format!(
            "-c {}: the number of colours must be from 1 to 35",
            args.colors
        )));
    }
    rules.validate().map_err(|e| invalid(e.to_string()))?;
    if args.batch {
        return Ok(Command::Batch {
            rules,
            seed: args.seed,
        });
    }
    let mut appearance = Appearance::for_colors(args.colors);
    appearance.keys =
        exact_chars(&args.keys, "-C", "left, down, up, right and action").map_err(invalid)?;
    appearance.font =
        exact_chars(&args.font, "-f", "cursor, chip and jumping chip").map_err(invalid)?;
    if let Some(font) = args.bw_font {
        appearance.bw_font = font.chars().collect();
    }
    appearance.mode = match args.mode.as_deref() {
        None => None,
        Some("c") => Some(ColorMode::Color),
        Some("b") => Some(ColorMode::Mono),
        Some(other) => {
            return Err(invalid(format!(
                "-m {other}: the mode must be c (colour) or b (black and white)"
            )));
        }
    };
    if let Some(list) = args.palette {
        appearance.palette = list
            .split(',')
            .map(|n| n.trim().parse::<u8>().ok().filter(|&n| n > 0))
            .collect::<Option<Vec<u8>>>()
            .ok_or_else(|| {
                invalid(format!(
                    "-o {list}: expected comma-separated colour numbers from 1 to 255"
                ))
            })?;
    }
    Ok(Command::Play {
        rules,
        seed: args.seed,
        appearance,
    })
}

/// `text` as exactly `N` characters, or a message naming the option.
fn exact_chars<const N: usize>(text: &str, flag: &str, what: &str) -> Result<[char; N], String> {
    let chars: Vec<char> = text.chars().collect();
    chars.try_into().map_err(|chars: Vec<char>| {
        format!(
            "{flag} {text:?}: expected exactly {N} characters ({what}), got {}",
            chars.len()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules_of(args: &[&str]) -> Result<Rules, clap::Error> {
        let line = std::iter::once("clines").chain(args.iter().copied());
        match parse(line)? {
            Command::Play { rules, .. } | Command::Batch { rules, .. } => Ok(rules),
            Command::List => panic!("not a game"),
        }
    }

    #[test]
    fn values_attached_or_separate() {
        let attached = rules_of(&["-w12", "-t7", "-c3", "-i4", "-n2", "-N5"]).unwrap();
        let separate = rules_of(&[
            "-w", "12", "-t", "7", "-c", "3", "-i", "4", "-n", "2", "-N", "5",
        ])
        .unwrap();
        assert_eq!(attached, separate);
        assert_eq!(
            attached,
            Rules {
                width: 12,
                height: 7,
                colors: 3,
                line: 4,
                next: 2,
                first: 5
            }
        );
    }

    #[test]
    fn rule_bounds() {
        assert!(rules_of(&["-w1000", "-t1"]).is_ok());
        assert!(rules_of(&["-w1001"]).is_err());
        assert!(rules_of(&["-t0"]).is_err());
        assert!(rules_of(&["-c35"]).is_ok());
        assert!(rules_of(&["-c36"]).is_err());
        assert!(rules_of(&["-c0"]).is_err());
        assert!(rules_of(&["-i2"]).is_ok());
        assert!(rules_of(&["-i1"]).is_err());
        assert!(rules_of(&["-n0"]).is_ok());
        assert!(rules_of(&["-w3", "-t3", "-n9", "-N9"]).is_ok());
        assert!(rules_of(&["-w3", "-t3", "-n10"]).is_err());
        assert!(rules_of(&["-N0"]).is_err());
    }

    #[test]
    fn bad_value_names_the_flag_and_range() {
        let err = rules_of(&["--batch", "-w0"]).unwrap_err();
        assert_eq!(err.exit_code(), 2);
        let text = err.to_string();
        assert!(
            text.contains("-w 0") && text.contains("1 to 1000"),
            "{text}"
        );
    }

    #[test]
    fn default_palette_skips_white() {
        assert_eq!(default_palette(5), vec![7, 1, 2, 3, 4, 5]);
        assert_eq!(default_palette(7), vec![7, 1, 2, 3, 4, 5, 6, 8]);
    }
}
