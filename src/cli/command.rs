//! What a valid command line comes to: the command and the look of the
//! game, free of where each setting came from.

use std::path::PathBuf;
use std::time::Duration;

use super::values::BLACK;
use super::{CellShape, CompletionShell};
use crate::game::{Preview, Rules};

/// The keys `-C` sets: the cursor's four moves and the action key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keys {
    /// Moves the cursor left.
    pub left: char,
    /// Moves the cursor down.
    pub down: char,
    /// Moves the cursor up.
    pub up: char,
    /// Moves the cursor right.
    pub right: char,
    /// Selects a chip, or moves the selected one to the cursor.
    pub act: char,
}

impl Keys {
    /// The keys in the order `-C` spells them: left, down, up, right,
    /// action.
    pub fn in_order(&self) -> [char; 5] {
        [self.left, self.down, self.up, self.right, self.act]
    }

    /// Whether `key` is one of them.
    pub fn contains(&self, key: char) -> bool {
        self.in_order().contains(&key)
    }
}

impl From<[char; 5]> for Keys {
    /// Keys in the order `-C` spells them.
    fn from([left, down, up, right, act]: [char; 5]) -> Keys {
        Keys {
            left,
            down,
            up,
            right,
            act,
        }
    }
}

/// Default keys: `hjkl`, as in vi, and space.
pub const DEFAULT_KEYS: Keys = Keys {
    left: 'h',
    down: 'j',
    up: 'k',
    right: 'l',
    act: ' ',
};

/// The key that quits, unless it is one of the `-C` keys.
pub const QUIT_KEY: char = 'q';
/// The key that asks for a hint, unless it is one of the `-C` keys.
pub const HINT_KEY: char = '?';
/// The key that starts and stops autoplay, unless it is one of the `-C`
/// keys.
pub const AUTOPLAY_KEY: char = 'a';
/// The key that takes back a move, unless it is one of the `-C` keys.
pub const UNDO_KEY: char = 'u';
/// The key that starts a new game, unless it is one of the `-C` keys.
pub const NEW_GAME_KEY: char = 'n';
/// The key that saves the game and quits, unless it is one of the `-C`
/// keys.
pub const SAVE_KEY: char = 's';

/// One of the game's own letter keys, which a `-C` key wins over, and what
/// it does in the two places that say so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameKey {
    /// The key.
    pub key: char,
    /// What it is for, in the warning when a `-C` key takes it.
    pub use_of: &'static str,
    /// What it does, in the F1 help.
    pub help: &'static str,
}

/// The game's own letter keys, in the order the help lists them.
pub const GAME_KEYS: [GameKey; 6] = [
    GameKey {
        key: HINT_KEY,
        use_of: "the hint",
        help: "hint: a good move",
    },
    GameKey {
        key: AUTOPLAY_KEY,
        use_of: "autoplay",
        help: "autoplay on or off",
    },
    GameKey {
        key: UNDO_KEY,
        use_of: "undo",
        help: "take back a move",
    },
    GameKey {
        key: NEW_GAME_KEY,
        use_of: "a new game",
        help: "new game",
    },
    GameKey {
        key: SAVE_KEY,
        use_of: "saving",
        help: "save, quit; resume later",
    },
    GameKey {
        key: QUIT_KEY,
        use_of: "quitting",
        help: "quit",
    },
];

/// The glyphs `-f` sets for colour mode, where colour tells chips apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Font {
    /// The cursor's glyph.
    pub cursor: char,
    /// A chip.
    pub chip: char,
    /// A selected chip's glyph half the time, as it jumps, where a cell's
    /// interior is one character; a preview also marks the cells planned
    /// for chips with it.
    pub jumping: char,
}

impl Font {
    /// The glyphs in the order `-f` spells them: cursor, chip, jumping
    /// chip.
    pub fn in_order(&self) -> [char; 3] {
        [self.cursor, self.chip, self.jumping]
    }
}

impl From<[char; 3]> for Font {
    /// Glyphs in the order `-f` spells them.
    fn from([cursor, chip, jumping]: [char; 3]) -> Font {
        Font {
            cursor,
            chip,
            jumping,
        }
    }
}

/// Default colour-mode glyphs.
pub const DEFAULT_FONT: Font = Font {
    cursor: 'I',
    chip: 'O',
    jumping: 'o',
};
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

/// A warning about the options or the config file: the game goes on, but
/// the player should know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// What is wrong, naming the option or the file.
    pub text: String,
    /// Where it matters: only in colour, only in black and white (`Some`
    /// of that mode), or whatever the game draws in (`None`). Which mode
    /// a game without `-m` draws in is known only once its terminal is.
    pub matters_in: Option<ColorMode>,
}

impl Warning {
    /// Whether the warning matters to a game drawn in `colour` or not.
    pub fn matters(&self, colour: bool) -> bool {
        match self.matters_in {
            None => true,
            Some(ColorMode::Color) => colour,
            Some(ColorMode::Mono) => !colour,
        }
    }
}

/// How the game looks and which keys it takes; none of this changes the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Appearance {
    /// Keys for left, down, up, right and action.
    pub keys: Keys,
    /// Colour-mode glyphs.
    pub font: Font,
    /// Black-and-white glyphs: cursor, then chip and jumping glyph per colour.
    pub bw_font: Vec<char>,
    /// `None` chooses from the terminal. [`parse`](super::parse) sets
    /// `Some(Mono)` when `NO_COLOR` is set and `-m` is not given, and
    /// `Some(Color)` when there are more colours than the default
    /// black-and-white glyphs can show and no `-F` was given.
    pub mode: Option<ColorMode>,
    /// ANSI colour numbers: cursor, then one per chip colour (exactly
    /// `colors + 1` after [`parse`](super::parse)).
    pub palette: Vec<u8>,
    /// The shape of the cells.
    pub cells: CellShape,
}

impl Appearance {
    /// The original's look for a game of `colors` colours.
    pub fn for_colors(colors: usize) -> Appearance {
        Appearance {
            keys: DEFAULT_KEYS,
            font: DEFAULT_FONT,
            bw_font: DEFAULT_BW_FONT.chars().collect(),
            mode: None,
            palette: default_palette(colors),
            cells: CellShape::Square,
        }
    }
}

/// The colour number of white: the board's colour and the cursor's unless
/// `-o` says otherwise.
pub const WHITE: u8 = 7;

/// The cursor's [`WHITE`], then colours 1, 2, 3, … skipping white and black
/// (16), which would not show on the board.
pub fn default_palette(colors: usize) -> Vec<u8> {
    std::iter::once(WHITE)
        .chain(
            (1..=u8::MAX)
                .filter(|&c| c != WHITE && !BLACK.contains(&c))
                .take(colors),
        )
        .collect()
}

/// What a game in the terminal is played with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    /// The rules of the game.
    pub rules: Rules,
    /// How much of the next throw is shown.
    pub preview: Preview,
    /// A fixed seed, or `None` to seed from the operating system.
    pub seed: Option<u64>,
    /// How it looks.
    pub appearance: Appearance,
    /// Whether the built-in player plays from the start.
    pub autoplay: bool,
    /// Whether to start afresh rather than resume a saved game.
    pub new: bool,
    /// How long autoplay shows each move before making it.
    pub autoplay_delay: Duration,
    /// The records directory named by the config file's `score_dir`, or
    /// `None`. `$CLINES_SCORE_DIR` overrides it; the records code
    /// decides.
    pub score_dir: Option<PathBuf>,
    /// What the options and the config file were warned of (also printed on
    /// standard error, which the game's screen hides), for the game to show
    /// before play.
    pub warnings: Vec<Warning>,
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Play in the terminal.
    Play(Play),
    /// Play headless over stdin and stdout.
    Batch {
        /// The rules of the game.
        rules: Rules,
        /// How much of the next throw is shown.
        preview: Preview,
        /// A fixed seed, or `None` to seed from the operating system.
        seed: Option<u64>,
    },
    /// List the records.
    List {
        /// The config file's `score_dir`, as in [`Play`].
        score_dir: Option<PathBuf>,
        /// The rules whose records are listed.
        rules: Rules,
        /// The preview whose records are listed: each keeps its own.
        preview: Preview,
    },
    /// Print a shell's completion script (see [`completion_script`](super::completion_script)).
    Completions(CompletionShell),
}
