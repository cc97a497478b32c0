//! The command line: the original's getopt-style options, parsed with clap,
//! merged over the config file and validated into [`Rules`] and
//! [`Appearance`] before the terminal is touched.
//!
//! Every setting remembers where it came from (a flag, a config key or the
//! default) so that a refusal names it the way the user wrote it.

mod config;

use std::path::PathBuf;
use std::time::Duration;

use clap::error::ErrorKind;
use clap::parser::ValueSource;
use clap::{ArgAction, ArgMatches, CommandFactory, FromArgMatches, Parser};
use unicode_width::UnicodeWidthChar;

use crate::board::MAX_COLORS;
use crate::game::{RuleError, Rules};

use config::{Config, ConfigLocation};

/// The original's synopsis, plus the options the clone adds.
const SYNOPSIS: &str = "clines [-hlv] [-wN] [-tN] [-cN] [-iN] [-CS] [-fS] [-FS] [-m{c|b}] [-nN] [-NN] [-oC]\n              [--seed S] [--autoplay] [--autoplay-delay MS]\n       clines --batch [-wN] [-tN] [-cN] [-iN] [-nN] [-NN] [--seed S]\n       clines --completions bash|zsh|fish";

/// Printed after the options by `-h`.
const AFTER_HELP: &str = "\
Options not given on the command line are read from config.toml in the
configuration directory ($XDG_CONFIG_HOME/clines/ on Linux), or from the file
named by $CLINES_CONFIG. Records are kept only with the default
-w -t -c -i -n -N, no --seed, and no help from the built-in player (a hint or
autoplay).

Keys: arrows or h j k l move the cursor, space selects and moves a chip,
? shows a hint, a starts or stops autoplay, q quits; -C keys win over ? and a.
See clines(6).";

/// Console Lines: move chips along free paths, line up five of a colour.
#[derive(Parser, Debug)]
#[command(
    name = "clines",
    version,
    override_usage = SYNOPSIS,
    after_help = AFTER_HELP,
    disable_help_flag = true,
    disable_version_flag = true,
    // getopt: a repeated option's last value wins.
    args_override_self = true,
    // Plain text always: errors must never carry escape codes.
    color = clap::ColorChoice::Never
)]
pub struct Args {
    /// Print this help and exit
    #[arg(short = 'h', long = "help", action = ArgAction::Help)]
    pub help: Option<bool>,

    /// List every user's record and exit
    #[arg(short = 'l', long = "list")]
    pub list: bool,

    /// Print the version and exit
    #[arg(short = 'v', long = "version", action = ArgAction::Version)]
    pub version: Option<bool>,

    /// Board width in cells (1-1000)
    #[arg(
        short = 'w',
        long = "width",
        value_name = "N",
        allow_hyphen_values = true,
        default_value_t = 9,
        value_parser = whole_number("from 1 to 1000")
    )]
    pub width: usize,

    /// Board height in cells (1-1000)
    #[arg(
        short = 't',
        long = "height",
        value_name = "N",
        allow_hyphen_values = true,
        default_value_t = 9,
        value_parser = whole_number("from 1 to 1000")
    )]
    pub height: usize,

    /// Number of chip colours (1-35)
    #[arg(
        short = 'c',
        long = "colors",
        value_name = "N",
        allow_hyphen_values = true,
        default_value_t = 5,
        value_parser = whole_number("from 1 to 35")
    )]
    pub colors: usize,

    /// Shortest line of one colour that is removed (2-1000)
    #[arg(
        short = 'i',
        long = "line",
        value_name = "N",
        allow_hyphen_values = true,
        default_value_t = 5,
        value_parser = whole_number("from 2 to 1000")
    )]
    pub line: usize,

    /// Chips thrown after each move that removes nothing (0 to the number of cells)
    #[arg(
        short = 'n',
        long = "next",
        value_name = "N",
        allow_hyphen_values = true,
        default_value_t = 3,
        value_parser = whole_number("from 0 to the number of cells")
    )]
    pub next: usize,

    /// Chips in the opening throw (1 to the number of cells)
    #[arg(
        short = 'N',
        long = "first",
        value_name = "N",
        allow_hyphen_values = true,
        default_value_t = 3,
        value_parser = whole_number("from 1 to the number of cells")
    )]
    pub first: usize,

    /// Keys for left, down, up, right and action (5 different characters)
    #[arg(
        short = 'C',
        long = "keys",
        value_name = "KEYS",
        allow_hyphen_values = true,
        default_value = "hjkl "
    )]
    pub keys: String,

    /// Colour-mode glyphs: cursor, chip, jumping chip (exactly 3 characters)
    #[arg(
        short = 'f',
        long = "font",
        value_name = "GLYPHS",
        allow_hyphen_values = true,
        default_value = "IOo"
    )]
    pub font: String,

    /// Black-and-white glyphs: cursor, then a chip and its jumping glyph per
    /// colour (at least 2c+1; needed when c > 5) [default: *OoVvAa.'Zz]
    #[arg(
        short = 'F',
        long = "bw-font",
        value_name = "GLYPHS",
        allow_hyphen_values = true
    )]
    pub bw_font: Option<String>,

    /// Force colour (c) or black-and-white (b) drawing [default: automatic,
    /// black and white when NO_COLOR is set or the terminal has fewer than
    /// 8 colours]
    #[arg(
        short = 'm',
        long = "mode",
        value_name = "c|b",
        allow_hyphen_values = true
    )]
    pub mode: Option<String>,

    /// Colour numbers 1-255 for the cursor, then one per chip colour
    /// [default: 7,1,2,3,4,5; more colours continue 6,8,9,… skipping 7]
    #[arg(
        short = 'o',
        long = "palette",
        value_name = "LIST",
        allow_hyphen_values = true
    )]
    pub palette: Option<String>,

    /// Play headless: commands on stdin, answers on stdout (see clines(6))
    #[arg(long = "batch")]
    pub batch: bool,

    /// Seed the random generator, making the game repeatable (no records)
    /// [default: random]
    #[arg(long = "seed", value_name = "S",
        allow_hyphen_values = true, value_parser = whole_number_u64)]
    pub seed: Option<u64>,

    /// Let the built-in player play from the start; the a key starts and
    /// stops it during the game (no record is kept)
    #[arg(long = "autoplay")]
    pub autoplay: bool,

    /// Milliseconds autoplay shows each move (chip selected, cursor on the
    /// target) before making it (0-10000)
    #[arg(
        long = "autoplay-delay",
        value_name = "MS",
        allow_hyphen_values = true,
        default_value_t = DEFAULT_AUTOPLAY_DELAY_MS,
        value_parser = whole_number("from 0 to 10000")
    )]
    pub autoplay_delay: usize,

    /// Print a completion script for SHELL and exit
    #[arg(long = "completions", value_name = "SHELL", value_enum)]
    pub completions: Option<CompletionShell>,
}

/// A shell that `--completions` writes a script for. The variants' docs are
/// shown by the shells beside each name, so they stay plain words: quotes
/// would reach fish escaped twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CompletionShell {
    /// Bash, with the bash-completion package
    Bash,
    /// Zsh, with compinit
    Zsh,
    /// Fish
    Fish,
}

/// The completion script for `shell`, generated from [`Args`] so that it
/// always offers exactly the options this binary takes.
pub fn completion_script(shell: CompletionShell) -> Vec<u8> {
    let generator = match shell {
        CompletionShell::Bash => clap_complete::Shell::Bash,
        CompletionShell::Zsh => clap_complete::Shell::Zsh,
        CompletionShell::Fish => clap_complete::Shell::Fish,
    };
    let mut script = Vec::new();
    clap_complete::generate(generator, &mut Args::command(), "clines", &mut script);
    script
}

/// Autoplay's pause before each move, in milliseconds, unless told.
pub const DEFAULT_AUTOPLAY_DELAY_MS: usize = 300;
/// The longest pause autoplay accepts, in milliseconds.
pub const MAX_AUTOPLAY_DELAY_MS: usize = 10_000;

/// A clap value parser for a whole number, whose refusal says what the
/// option accepts.
fn whole_number(
    accepted: &'static str,
) -> impl Fn(&str) -> Result<usize, String> + Clone + Send + Sync + 'static {
    move |text| {
        text.parse()
            .map_err(|_| format!("expected a whole number {accepted}"))
    }
}

/// A clap value parser for the seed.
fn whole_number_u64(text: &str) -> Result<u64, String> {
    text.parse()
        .map_err(|_| format!("expected a whole number from 0 to {}", u64::MAX))
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
    /// `None` chooses from the terminal and `NO_COLOR`. [`parse`] sets
    /// `Some(Color)` when there are more colours than the default
    /// black-and-white glyphs can show and no `-F` was given.
    pub mode: Option<ColorMode>,
    /// ANSI colour numbers: cursor, then one per chip colour (exactly
    /// `colors + 1` after [`parse`]).
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
        /// Whether the built-in player plays from the start.
        autoplay: bool,
        /// How long autoplay shows each move before making it.
        autoplay_delay: Duration,
        /// The records directory named by the config file's `score_dir`, or
        /// `None`. `$CLINES_SCORE_DIR` overrides it; the records code
        /// decides.
        score_dir: Option<PathBuf>,
    },
    /// Play headless over stdin and stdout.
    Batch {
        /// The rules of the game.
        rules: Rules,
        /// A fixed seed, or `None` to seed from the operating system.
        seed: Option<u64>,
    },
    /// List the records.
    List {
        /// The config file's `score_dir`, as in [`Command::Play`].
        score_dir: Option<PathBuf>,
    },
    /// Print a shell's completion script (see [`completion_script`]).
    Completions(CompletionShell),
}

/// Parses and validates a command line (program name first), reading the
/// config file and `NO_COLOR` from the environment. Warnings (duplicate
/// colours) are printed on stderr. Help and version requests, and every
/// invalid option or config entry, come back as a clap error whose `exit()`
/// prints it and exits with the right status (0 or 2).
pub fn parse<I, T>(args: I) -> Result<Command, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let parsed = parse_in(args, &Environment::of_process())?;
    for warning in &parsed.warnings {
        eprintln!("warning: {warning}");
    }
    Ok(parsed.command)
}

/// What parsing reads from the process environment, gathered in one place
/// so that tests can supply their own.
#[derive(Clone, Debug, Default)]
struct Environment {
    /// The config file to read, if there is a place for one.
    config: Option<ConfigLocation>,
    /// `NO_COLOR` is set to something non-empty.
    no_color: bool,
}

impl Environment {
    /// This process's environment.
    fn of_process() -> Environment {
        Environment {
            config: ConfigLocation::of_process(),
            no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
        }
    }
}

/// A command and the warnings found on the way.
#[derive(Debug)]
struct Parsed {
    command: Command,
    warnings: Vec<String>,
}

/// [`parse`] without touching the process environment or printing.
fn parse_in<I, T>(args: I, env: &Environment) -> Result<Parsed, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let matches = Args::command().try_get_matches_from(args)?;
    let args = Args::from_arg_matches(&matches)?;
    // Needs nothing else: a packager's build must not depend on a config file.
    if let Some(shell) = args.completions {
        return Ok(Parsed {
            command: Command::Completions(shell),
            warnings: Vec::new(),
        });
    }
    let invalid = |msg: String| clap::Error::raw(ErrorKind::ValueValidation, format!("{msg}\n"));
    let config = match &env.config {
        Some(location) => config::load(location).map_err(invalid)?,
        None => Config::default(),
    };
    Settings::merge(args, &matches, config)
        .resolve(env.no_color)
        .map_err(invalid)
}

/// Where a setting came from, so that a refusal can name it as it was given.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Source {
    /// The built-in default.
    Default,
    /// A command-line option: the short flag and the value as given.
    Flag {
        /// The flag, such as `-w`.
        flag: &'static str,
        /// The value, quoted where spaces would hide.
        value: String,
    },
    /// A config file entry.
    Config {
        /// The config file.
        file: PathBuf,
        /// The key.
        key: &'static str,
        /// The value as TOML.
        value: String,
    },
}

impl Source {
    /// The setting as it was given: `-m b`, or `mode = "b" in FILE`.
    fn describe(&self) -> String {
        match self {
            Source::Default => "the default".to_string(),
            Source::Flag { flag, value } => format!("{flag} {value}"),
            Source::Config { file, key, value } => {
                format!("{key} = {value} in {}", file.display())
            }
        }
    }

    /// A refusal of this value: what was given, then why it is refused.
    fn refuse(&self, why: &str) -> String {
        match self {
            Source::Default => why.to_string(),
            Source::Flag { flag, value } => format!("{flag} {value}: {why}"),
            Source::Config { file, key, value } => {
                format!("{}: {key} = {value}: {why}", file.display())
            }
        }
    }
}

/// A value and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Setting<T> {
    value: T,
    source: Source,
}

impl<T> Setting<T> {
    /// A value given with `flag`, shown as `shown` in messages.
    fn flag(flag: &'static str, value: T, shown: String) -> Setting<T> {
        Setting {
            value,
            source: Source::Flag { flag, value: shown },
        }
    }

    /// A built-in default.
    fn default(value: T) -> Setting<T> {
        Setting {
            value,
            source: Source::Default,
        }
    }
}

/// Every setting after flags are laid over the config file, not yet checked.
#[derive(Debug)]
struct Settings {
    list: bool,
    batch: bool,
    seed: Option<u64>,
    width: Setting<usize>,
    height: Setting<usize>,
    colors: Setting<usize>,
    line: Setting<usize>,
    next: Setting<usize>,
    first: Setting<usize>,
    keys: Setting<String>,
    font: Setting<String>,
    bw_font: Option<Setting<String>>,
    mode: Option<Setting<String>>,
    palette: Option<Setting<Vec<String>>>,
    autoplay: bool,
    autoplay_delay: Setting<usize>,
    score_dir: Option<PathBuf>,
}

impl Settings {
    /// Lays the options given on the command line over the config file; what
    /// neither gives keeps clap's default.
    fn merge(args: Args, matches: &ArgMatches, config: Config) -> Settings {
        let given = |id: &str| matches.value_source(id) == Some(ValueSource::CommandLine);
        let number = |id: &str, flag: &'static str, value: usize, file: Option<Setting<usize>>| {
            if given(id) {
                Setting::flag(flag, value, value.to_string())
            } else {
                file.unwrap_or(Setting::default(value))
            }
        };
        let text = |id: &str, flag: &'static str, value: String, file: Option<Setting<String>>| {
            if given(id) {
                let shown = format!("{value:?}");
                Setting::flag(flag, value, shown)
            } else {
                file.unwrap_or(Setting::default(value))
            }
        };
        Settings {
            list: args.list,
            batch: args.batch,
            seed: args.seed,
            width: number("width", "-w", args.width, config.width),
            height: number("height", "-t", args.height, config.height),
            colors: number("colors", "-c", args.colors, config.colors),
            line: number("line", "-i", args.line, config.line),
            next: number("next", "-n", args.next, config.next),
            first: number("first", "-N", args.first, config.first),
            keys: text("keys", "-C", args.keys, config.keys),
            font: text("font", "-f", args.font, config.font),
            bw_font: args
                .bw_font
                .map(|v| Setting::flag("-F", v.clone(), format!("{v:?}")))
                .or(config.bw_font),
            mode: args
                .mode
                .map(|v| Setting::flag("-m", v.clone(), v))
                .or(config.mode),
            palette: args
                .palette
                .map(|v| {
                    let items = v.split(',').map(|n| n.trim().to_string()).collect();
                    Setting::flag("-o", items, v)
                })
                .or(config.palette),
            autoplay: args.autoplay || config.autoplay.is_some_and(|s| s.value),
            autoplay_delay: number(
                "autoplay_delay",
                "--autoplay-delay",
                args.autoplay_delay,
                config.autoplay_delay,
            ),
            score_dir: config.score_dir.map(|s| s.value),
        }
    }

    /// Checks every setting and builds the command. `no_color`: `NO_COLOR`
    /// asks for black and white when no mode is forced.
    fn resolve(self, no_color: bool) -> Result<Parsed, String> {
        let rules = self.rules()?;
        let autoplay_delay = self.autoplay_delay()?;
        let colors = usize::from(rules.colors);
        let keys = distinct_keys(&self.keys)?;
        let font = glyphs(&self.font)
            .and_then(|font| {
                font.try_into().map_err(|font: Vec<char>| {
                    format!(
                        "expected exactly 3 glyphs (cursor, chip, jumping chip), got {}",
                        font.len()
                    )
                })
            })
            .map_err(|why| self.font.source.refuse(&why))?;
        let mode = match &self.mode {
            None => None,
            Some(mode) => Some(match mode.value.as_str() {
                "c" => ColorMode::Color,
                "b" => ColorMode::Mono,
                _ => {
                    return Err(mode
                        .source
                        .refuse("the mode must be c (colour) or b (black and white)"));
                }
            }),
        };
        let (bw_font, mode) = self.bw_font(colors, mode, no_color)?;
        let mut warnings = Vec::new();
        let palette = match &self.palette {
            None => default_palette(colors),
            Some(list) => palette(list, colors, &mut warnings)?,
        };
        let command = if self.list {
            Command::List {
                score_dir: self.score_dir,
            }
        } else if self.batch {
            Command::Batch {
                rules,
                seed: self.seed,
            }
        } else {
            Command::Play {
                rules,
                seed: self.seed,
                appearance: Appearance {
                    keys,
                    font,
                    bw_font,
                    mode,
                    palette,
                },
                autoplay: self.autoplay,
                autoplay_delay,
                score_dir: self.score_dir,
            }
        };
        Ok(Parsed { command, warnings })
    }

    /// The rules, each checked against its range.
    fn rules(&self) -> Result<Rules, String> {
        let max_colors = usize::from(MAX_COLORS);
        let colors = u8::try_from(self.colors.value)
            .ok()
            .filter(|&c| c <= MAX_COLORS)
            .ok_or_else(|| {
                let error = RuleError {
                    flag: 'c',
                    value: self.colors.value,
                    min: 1,
                    max: max_colors,
                };
                self.colors.source.refuse(&error.requirement())
            })?;
        let rules = Rules {
            width: self.width.value,
            height: self.height.value,
            colors,
            line: self.line.value,
            next: self.next.value,
            first: self.first.value,
        };
        rules.validate().map_err(|error| {
            let source = match error.flag {
                'w' => &self.width.source,
                't' => &self.height.source,
                'c' => &self.colors.source,
                'i' => &self.line.source,
                'n' => &self.next.source,
                _ => &self.first.source,
            };
            source.refuse(&error.requirement())
        })?;
        Ok(rules)
    }

    /// Autoplay's pause, checked against its range.
    fn autoplay_delay(&self) -> Result<Duration, String> {
        let ms = self.autoplay_delay.value;
        if ms > MAX_AUTOPLAY_DELAY_MS {
            return Err(self.autoplay_delay.source.refuse(&format!(
                "the autoplay delay must be from 0 to {MAX_AUTOPLAY_DELAY_MS} milliseconds"
            )));
        }
        Ok(Duration::from_millis(ms as u64))
    }

    /// The black-and-white glyphs and the mode they leave. With more colours
    /// than the default glyphs cover and no `-F`, black and white is refused
    /// when asked for (`-m b` or `NO_COLOR`) and colour is chosen otherwise.
    fn bw_font(
        &self,
        colors: usize,
        mode: Option<ColorMode>,
        no_color: bool,
    ) -> Result<(Vec<char>, Option<ColorMode>), String> {
        let needed = 2 * colors + 1;
        if let Some(font) = &self.bw_font {
            let glyphs = glyphs(font).map_err(|why| font.source.refuse(&why))?;
            if glyphs.len() < needed {
                return Err(font.source.refuse(&format!(
                    "expected at least {needed} glyphs for {colors} colours (the cursor, then a \
                     chip and its jumping glyph per colour), got {}",
                    glyphs.len()
                )));
            }
            return Ok((glyphs, mode));
        }
        let default: Vec<char> = DEFAULT_BW_FONT.chars().collect();
        if default.len() >= needed {
            return Ok((default, mode));
        }
        let why = match (mode, &self.mode) {
            (Some(ColorMode::Mono), Some(forced)) => format!("with {}", forced.source.describe()),
            (None, _) if no_color => "with NO_COLOR set".to_string(),
            _ => return Ok((default, Some(ColorMode::Color))),
        };
        Err(self.colors.source.refuse(&format!(
            "{why}, black-and-white mode needs -F (bw_font) with at least {needed} glyphs \
             for {colors} colours (the default has {}), or -m c for colour",
            default.len()
        )))
    }
}

/// The characters of a glyph string, each of which must take exactly one
/// column on screen.
fn glyphs(text: &Setting<String>) -> Result<Vec<char>, String> {
    let glyphs: Vec<char> = text.value.chars().collect();
    match glyphs.iter().find(|g| g.width() != Some(1)) {
        None => Ok(glyphs),
        Some(g) if g.width() == Some(2) => Err(format!(
            "{g:?} is a double-width glyph; every glyph must take one column"
        )),
        Some(g) => Err(format!(
            "{g:?} does not take one column on screen; every glyph must"
        )),
    }
}

/// The `-C` keys: exactly five different characters.
fn distinct_keys(keys: &Setting<String>) -> Result<[char; 5], String> {
    let chars: Vec<char> = keys.value.chars().collect();
    let refuse = |why: String| keys.source.refuse(&why);
    let keys: [char; 5] = chars.try_into().map_err(|chars: Vec<char>| {
        refuse(format!(
            "expected exactly 5 keys (left, down, up, right, action), got {}",
            chars.len()
        ))
    })?;
    // Of the control characters only these arrive as plain keys; any other
    // is read as a Ctrl chord and could never be pressed.
    let typable = |key: char| !key.is_control() || matches!(key, '\t' | '\n' | '\u{1b}' | '\u{7f}');
    if let Some(&key) = keys.iter().find(|&&key| !typable(key)) {
        return Err(refuse(format!(
            "{key:?} cannot be typed as a key; control characters other than Tab, \
             Enter (newline), Escape and Backspace are refused"
        )));
    }
    match (1..keys.len()).find(|&i| keys[..i].contains(&keys[i])) {
        Some(i) => Err(refuse(format!(
            "{:?} is given twice; the 5 keys (left, down, up, right, action) must differ",
            keys[i]
        ))),
        None => Ok(keys),
    }
}

/// The palette: at least `colors + 1` numbers from 1 to 255, of which the
/// first `colors + 1` are kept. Repeated colours are allowed with a warning.
fn palette(
    list: &Setting<Vec<String>>,
    colors: usize,
    warnings: &mut Vec<String>,
) -> Result<Vec<u8>, String> {
    let needed = colors + 1;
    let mut numbers = Vec::with_capacity(list.value.len());
    for item in &list.value {
        match item.parse::<u8>() {
            Ok(n) if n > 0 => numbers.push(n),
            _ => {
                return Err(list.source.refuse(&format!(
                    "{item:?} is not a colour number; expected numbers from 1 to 255 \
                     (0, black, is refused)"
                )));
            }
        }
    }
    if numbers.len() < needed {
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
    if !repeated.is_empty() {
        warnings.push(list.source.refuse(&format!(
            "colour {} given more than once; those chips (or the cursor) will look alike",
            repeated.join(", ")
        )));
    }
    Ok(numbers)
}

#[cfg(test)]
mod tests;
