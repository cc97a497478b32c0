//! The command line: the original's getopt-style options, parsed with clap,
//! merged over the config file and validated into [`Rules`] and
//! [`Appearance`] before the terminal is touched.
//!
//! Every setting remembers where it came from (a flag, a config key or the
//! default) so that a refusal names it the way the user wrote it.

mod attached;
mod cells;
mod command;
mod config;
mod help;
mod setting;
mod values;

use std::ffi::OsStr;
use std::io::Write;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use clap::builder::{PossibleValuesParser, StringValueParser, TypedValueParser};
use clap::error::ErrorKind;
use clap::parser::ValueSource;
use clap::{ArgAction, ArgMatches, CommandFactory, FromArgMatches, Parser, ValueHint};

use crate::board::MAX_COLORS;
use crate::game::{Preview, Rule, RuleError, Rules};
use crate::text;

use config::{Config, ConfigLocation};
use help::{SYNOPSIS, after_help};
use setting::{Setting, Source};
use values::{
    COLOR_MODES, bw_glyphs_alike, color_mode, distinct_keys, font, game_keys_taken, glyphs,
    palette, palette_numbers, parsed,
};

pub use cells::CellShape;
pub use command::{
    AUTOPLAY_KEY, Appearance, ColorMode, Command, DEFAULT_BW_FONT, DEFAULT_FONT, DEFAULT_KEYS,
    Font, GAME_KEYS, GameKey, HINT_KEY, Keys, NEW_GAME_KEY, Play, QUIT_KEY, SAVE_KEY, UNDO_KEY,
    WHITE, Warning, default_palette,
};
pub use config::KEYS as CONFIG_KEYS;

/// Console Lines: move chips along free paths, line up five of a colour.
#[derive(Parser, Debug)]
#[command(
    name = "clines",
    version,
    override_usage = SYNOPSIS,
    after_help = after_help(),
    disable_help_flag = true,
    disable_version_flag = true,
    // getopt: a repeated option's last value wins. (Errors are plain text
    // always, never escape codes: clap is built without colour.)
    args_override_self = true
)]
pub struct Args {
    /// Print this help and exit
    #[arg(short = 'h', long = "help", action = ArgAction::Help)]
    pub help: Option<bool>,

    /// List every user's record for the rules given and exit
    #[arg(short = 'l', long = "list", conflicts_with_all = ["batch", "completions"])]
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
        default_value_t = Rules::DEFAULT.width,
        value_parser = whole_number(accepted_range(Rule::Width))
    )]
    pub width: usize,

    /// Board height in cells (1-1000)
    #[arg(
        short = 't',
        long = "height",
        value_name = "N",
        allow_hyphen_values = true,
        default_value_t = Rules::DEFAULT.height,
        value_parser = whole_number(accepted_range(Rule::Height))
    )]
    pub height: usize,

    /// Number of chip colours (1-35)
    #[arg(
        short = 'c',
        long = "colors",
        value_name = "N",
        allow_hyphen_values = true,
        default_value_t = usize::from(Rules::DEFAULT.colors),
        value_parser = whole_number(accepted_range(Rule::Colors))
    )]
    pub colors: usize,

    /// Shortest line of one colour that is removed (2-1000)
    #[arg(
        short = 'i',
        long = "line",
        value_name = "N",
        allow_hyphen_values = true,
        default_value_t = Rules::DEFAULT.line,
        value_parser = whole_number(accepted_range(Rule::Line))
    )]
    pub line: usize,

    /// Chips thrown after each move that removes nothing (0 to the number of cells)
    #[arg(
        short = 'n',
        long = "next",
        value_name = "N",
        allow_hyphen_values = true,
        default_value_t = Rules::DEFAULT.next,
        value_parser = whole_number(accepted_range(Rule::Next))
    )]
    pub next: usize,

    /// Chips in the opening throw (1 to the number of cells)
    #[arg(
        short = 'N',
        long = "first",
        value_name = "N",
        allow_hyphen_values = true,
        default_value_t = Rules::DEFAULT.first,
        value_parser = whole_number(accepted_range(Rule::First))
    )]
    pub first: usize,

    /// Keys for left, down, up, right and action (5 different characters)
    #[arg(
        short = 'C',
        long = "keys",
        value_name = "KEYS",
        allow_hyphen_values = true,
        value_parser = text_value("5 different characters (left, down, up, right, action)"),
        default_value_t = String::from_iter(DEFAULT_KEYS.in_order())
    )]
    pub keys: String,

    /// Colour-mode glyphs: cursor, chip, jumping chip (exactly 3 visible,
    /// single-width characters)
    #[arg(
        short = 'f',
        long = "font",
        value_name = "GLYPHS",
        allow_hyphen_values = true,
        value_parser = text_value("3 visible, single-width characters"),
        default_value_t = String::from_iter(DEFAULT_FONT.in_order())
    )]
    pub font: String,

    /// Black-and-white glyphs: cursor, then a chip and its jumping glyph per
    /// colour (at least 2c+1; needed with -m b or NO_COLOR when c > 5)
    /// [default: *OoVvAa.'Zz]
    #[arg(
        short = 'F',
        long = "bw-font",
        value_name = "GLYPHS",
        allow_hyphen_values = true,
        value_parser = text_value("visible, single-width characters")
    )]
    pub bw_font: Option<String>,

    /// Force colour (c) or black-and-white (b) drawing [default: automatic,
    /// black and white when NO_COLOR is set or the terminal has fewer than
    /// 8 colours]
    #[arg(
        short = 'm',
        long = "mode",
        value_name = "c|b",
        allow_hyphen_values = true,
        value_parser = text_value("c (colour) or b (black and white)")
    )]
    pub mode: Option<String>,

    /// Colour numbers 1-255 (not 16, black) for the cursor, then one per chip colour
    /// [default: 7,1,2,3,4,5; more colours continue 6,8,9,… skipping 7 and 16]
    #[arg(
        short = 'o',
        long = "palette",
        value_name = "LIST",
        allow_hyphen_values = true,
        value_parser = text_value("colour numbers from 1 to 255 other than 16, separated by commas")
    )]
    pub palette: Option<String>,

    /// Show the computer's next throw: its colours (colors), or its colours
    /// and the cells it will land on (cells, Color Lines 98 rules); off
    /// shows nothing; each keeps its own records [default: off]
    #[arg(
        short = 'p',
        long = "preview",
        value_name = "MODE",
        allow_hyphen_values = true,
        value_parser = text_value("off, colors or cells")
    )]
    pub preview: Option<String>,

    /// Cell shape: square (sized to the terminal, the original's look) or
    /// wide (3 characters by 1 with grid lines, a 9x9 board in 37x19)
    /// [default: square]
    #[arg(
        long = "cells",
        value_name = "SHAPE",
        allow_hyphen_values = true,
        value_parser = text_value("square or wide")
    )]
    pub cells: Option<String>,

    /// Start a new game even when a game of these rules was saved (the s
    /// key, the terminal closing, or SIGTERM); the save stays, unless this
    /// game is saved in its place with s
    #[arg(long = "new")]
    pub new: bool,

    /// Play headless: commands on stdin, answers on stdout (see clines(6))
    #[arg(long = "batch", conflicts_with_all = ["list", "completions"])]
    pub batch: bool,

    /// Seed the random generator, making the game repeatable (no records);
    /// a saved game of these rules goes on instead, its record kept as
    /// without --seed, unless --new
    /// [default: random]
    #[arg(long = "seed", value_name = "S",
        allow_hyphen_values = true, value_parser = seed_number())]
    pub seed: Option<u64>,

    /// Let the built-in player play from the start; the a key starts and
    /// stops it during the game (no record is kept)
    #[arg(long = "autoplay")]
    pub autoplay: bool,

    /// Start without autoplay, where the config file's autoplay = true
    /// asks for it
    #[arg(long = "no-autoplay", overrides_with = "autoplay")]
    pub no_autoplay: bool,

    /// Milliseconds autoplay shows each move (chip selected, cursor on the
    /// target) before making it (0-10000)
    #[arg(
        long = "autoplay-delay",
        value_name = "MS",
        allow_hyphen_values = true,
        default_value_t = DEFAULT_AUTOPLAY_DELAY.as_millis() as usize,
        value_parser = whole_number(format!("from 0 to {MAX_AUTOPLAY_DELAY_MS}"))
    )]
    pub autoplay_delay: usize,

    /// Print a completion script for SHELL and exit
    #[arg(
        long = "completions",
        value_name = "SHELL",
        value_enum,
        conflicts_with_all = ["list", "batch"]
    )]
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
    clap_complete::generate(generator, &mut completion_command(), "clines", &mut script);
    match shell {
        CompletionShell::Bash => bash_offering_no_file_names(script),
        // Operands too: clines takes none.
        CompletionShell::Fish => [script, b"complete -c clines -f\n".to_vec()].concat(),
        CompletionShell::Zsh => script,
    }
}

/// clap's bash script, made to offer no file names: without bash's own
/// completion as a fallback (`-o bashdefault -o default`), which offered
/// files wherever the script offers nothing, and reading the option
/// before an `=` (`--preview=c`, which bash splits in three words) as the
/// option whose value is completed.
fn bash_offering_no_file_names(script: Vec<u8>) -> Vec<u8> {
    let script = String::from_utf8_lossy(&script)
        .replace(" -o bashdefault -o default clines", " clines")
        .replacen(
            "    prev=\"$3\"\n",
            "    prev=\"$3\"\n    \
             if [[ \"${prev}\" == \"=\" && ${COMP_CWORD} -ge 2 ]]; then\n        \
             prev=\"${COMP_WORDS[COMP_CWORD-2]}\"\n    \
             fi\n",
            1,
        );
    script.into_bytes()
}

/// The command as the completion scripts see it: the options that take
/// one of a few names offer them. Parsing checks those names itself, with
/// messages of its own, so they are declared here only. No option takes a
/// file, so the others (numbers, keys, glyphs, colours) offer no file
/// names.
fn completion_command() -> clap::Command {
    let command = Args::command()
        .mut_arg("preview", |arg| {
            arg.value_parser(PossibleValuesParser::new(Preview::NAMES))
        })
        .mut_arg("cells", |arg| {
            arg.value_parser(PossibleValuesParser::new(CellShape::NAMES))
        })
        .mut_arg("mode", |arg| {
            arg.value_parser(PossibleValuesParser::new(COLOR_MODES))
        });
    let free_values: Vec<clap::Id> = command
        .get_arguments()
        .filter(|arg| arg.get_action().takes_values() && arg.get_possible_values().is_empty())
        .map(|arg| arg.get_id().clone())
        .collect();
    free_values.into_iter().fold(command, |command, id| {
        command.mut_arg(id, |arg| arg.value_hint(ValueHint::Other))
    })
}

/// Autoplay's pause before each move, unless told.
pub const DEFAULT_AUTOPLAY_DELAY: Duration = Duration::from_millis(300);
/// The longest pause autoplay accepts, in milliseconds.
pub const MAX_AUTOPLAY_DELAY_MS: usize = 10_000;

/// A clap value parser that first checks that the value is text, so that
/// one that is not UTF-8 is refused naming its option (clap's own message
/// names none) and what it accepts, then hands it to the parser it wraps.
#[derive(Clone)]
struct Utf8<P> {
    parser: P,
    /// What the option accepts: `off, colors or cells`.
    expected: String,
}

/// The parser of an option whose value is text, any text until it is
/// checked, accepting what `expected` says.
fn text_value(expected: &str) -> Utf8<StringValueParser> {
    Utf8 {
        parser: StringValueParser::new(),
        expected: expected.to_string(),
    }
}

impl<P: TypedValueParser> TypedValueParser for Utf8<P> {
    type Value = P::Value;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<P::Value, clap::Error> {
        if value.to_str().is_none() {
            let short = arg.and_then(|a| a.get_short()).map(|c| format!("-{c}"));
            let long = arg.and_then(|a| a.get_long()).map(|l| format!("--{l}"));
            let option = [short, long]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(", ");
            let message = format!(
                "invalid value '{}' for '{option}': not valid UTF-8 text; expected {}\n",
                text::excerpt(&value.to_string_lossy()),
                self.expected
            );
            return Err(clap::Error::raw(ErrorKind::InvalidUtf8, message).with_cmd(cmd));
        }
        self.parser.parse_ref(cmd, arg, value)
    }
}

/// A clap value parser for a whole number `accepted` (`from 1 to 1000`),
/// whose refusal says what the option accepts.
fn whole_number(
    accepted: String,
) -> Utf8<impl Fn(&str) -> Result<usize, String> + Clone + Send + Sync + 'static> {
    number(format!("a whole number {accepted}"))
}

/// A clap value parser for the seed.
fn seed_number() -> Utf8<impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync + 'static> {
    number(format!("a whole number from 0 to {}", u64::MAX))
}

/// A clap value parser for a number of type `T`, whose refusals (not a
/// number of that type, or not text) say it expects `expected`.
fn number<T: FromStr>(
    expected: String,
) -> Utf8<impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static> {
    Utf8 {
        expected: expected.clone(),
        parser: move |text: &str| text.parse().map_err(|_| format!("expected {expected}")),
    }
}

/// The short option that sets `rule`, as messages name it: the engine
/// knows rules, the command line knows their letters.
fn rule_flag(rule: Rule) -> &'static str {
    match rule {
        Rule::Width => "-w",
        Rule::Height => "-t",
        Rule::Colors => "-c",
        Rule::Line => "-i",
        Rule::Next => "-n",
        Rule::First => "-N",
    }
}

/// What a rule accepts, for messages about its value as text:
/// `from 1 to 1000`.
fn accepted_range(rule: Rule) -> String {
    match rule.fixed_max() {
        Some(max) => format!("from {} to {max}", rule.min()),
        None => format!("from {} to the number of cells", rule.min()),
    }
}

/// Whether the command line (program name first) is `-v` or `--version`
/// alone: the one request answered without clap or the config file, since
/// it needs neither, and they were most of `clines -v`'s start-up. Every
/// other way of asking (`-lv`, `-v -l`) goes to [`parse`].
pub fn asks_only_version(args: &[std::ffi::OsString]) -> bool {
    matches!(args, [_, flag] if flag == "-v" || flag == "--version")
}

/// What `-v` prints, the same as clap prints it: `clines <version>` and a
/// newline.
pub fn version_line() -> String {
    format!("clines {}\n", env!("CARGO_PKG_VERSION"))
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
        // Not eprintln!, which panics when standard error is closed or full.
        let _ = writeln!(std::io::stderr(), "warning: {}", warning.text);
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
    warnings: Vec<Warning>,
}

/// [`parse`] without touching the process environment or printing.
fn parse_in<I, T>(args: I, env: &Environment) -> Result<Parsed, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let command = Args::command();
    let takes_value = |name: attached::Name| {
        command
            .get_arguments()
            .find(|arg| match name {
                attached::Name::Short(short) => arg.get_short() == Some(short),
                attached::Name::Long(long) => arg.get_long() == Some(long),
            })
            .map(|arg| arg.get_action().takes_values())
    };
    let args =
        attached::split_free_text_values(args.into_iter().map(Into::into).collect(), takes_value);
    let matches = command
        .clone()
        .try_get_matches_from(args)
        .map_err(shown_safely)?;
    let args = Args::from_arg_matches(&matches)?;
    // Needs nothing else: a packager's build must not depend on a config file.
    if let Some(shell) = args.completions {
        return Ok(Parsed {
            command: Command::Completions(shell),
            warnings: Vec::new(),
        });
    }
    let invalid = |msg: String| clap::Error::raw(ErrorKind::ValueValidation, format!("{msg}\n"));
    let (config, mut warnings) = match &env.config {
        Some(location) => config::load(location).map_err(invalid)?,
        None => (Config::default(), Vec::new()),
    };
    let mut parsed = Settings::merge(args, &matches, config)
        .resolve(env.no_color)
        .map_err(invalid)?;
    warnings.append(&mut parsed.warnings);
    if let Command::Play(play) = &mut parsed.command {
        play.warnings.clone_from(&warnings);
    }
    parsed.warnings = warnings;
    Ok(parsed)
}

/// A clap error whose quoted values (an unknown argument, a value clap
/// refused) are escaped and cut, so that printing it cannot send the
/// terminal an escape sequence or a megabyte of text.
fn shown_safely(mut error: clap::Error) -> clap::Error {
    use clap::error::ContextValue;
    let shown: Vec<_> = error
        .context()
        .filter_map(|(kind, value)| match value {
            ContextValue::String(text) => Some((kind, ContextValue::String(text::excerpt(text)))),
            ContextValue::Strings(texts) => Some((
                kind,
                ContextValue::Strings(texts.iter().map(|t| text::excerpt(t)).collect()),
            )),
            _ => None,
        })
        .collect();
    for (kind, value) in shown {
        error.insert(kind, value);
    }
    error
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
    preview: Option<Setting<String>>,
    cells: Option<Setting<String>>,
    new: bool,
    autoplay: bool,
    autoplay_delay: Setting<usize>,
    score_dir: Option<PathBuf>,
    /// The config file's values that flags replaced: unused, but checked.
    overridden: Config,
}

/// A flag's value as messages show it: bare (`-p sometimes`) where that
/// reads unambiguously, quoted where it is empty or holds white space
/// (`-p ""`, `-p "on off"`).
fn shown_bare(value: &str) -> String {
    if value.is_empty() || value.contains(char::is_whitespace) {
        text::quote(value)
    } else {
        text::excerpt(value)
    }
}

impl Settings {
    /// Lays the options given on the command line over the config file; what
    /// neither gives keeps clap's default.
    fn merge(args: Args, matches: &ArgMatches, mut config: Config) -> Settings {
        let given = |id: &str| matches.value_source(id) == Some(ValueSource::CommandLine);
        let overridden = config.take_overridden(|id| given(id));
        let number = |id: &str, flag: &'static str, value: usize, file: Option<Setting<usize>>| {
            if given(id) {
                Setting::flag(flag, value, value.to_string())
            } else {
                file.unwrap_or_else(|| Setting::default(flag, value, value.to_string()))
            }
        };
        let string =
            |id: &str, flag: &'static str, value: String, file: Option<Setting<String>>| {
                if given(id) {
                    let shown = text::quote(&value);
                    Setting::flag(flag, value, shown)
                } else {
                    file.unwrap_or_else(|| {
                        let shown = text::quote(&value);
                        Setting::default(flag, value, shown)
                    })
                }
            };
        Settings {
            list: args.list,
            batch: args.batch,
            seed: args.seed,
            width: number("width", rule_flag(Rule::Width), args.width, config.width),
            height: number(
                "height",
                rule_flag(Rule::Height),
                args.height,
                config.height,
            ),
            colors: number(
                "colors",
                rule_flag(Rule::Colors),
                args.colors,
                config.colors,
            ),
            line: number("line", rule_flag(Rule::Line), args.line, config.line),
            next: number("next", rule_flag(Rule::Next), args.next, config.next),
            first: number("first", rule_flag(Rule::First), args.first, config.first),
            keys: string("keys", "-C", args.keys, config.keys),
            font: string("font", "-f", args.font, config.font),
            bw_font: args
                .bw_font
                .map(|v| Setting::flag("-F", v.clone(), text::quote(&v)))
                .or(config.bw_font),
            mode: args
                .mode
                .map(|v| Setting::flag("-m", v.clone(), shown_bare(&v)))
                .or(config.mode),
            palette: args
                .palette
                .map(|v| {
                    let items = v.split(',').map(|n| n.trim().to_string()).collect();
                    Setting::flag("-o", items, shown_bare(&v))
                })
                .or(config.palette),
            preview: args
                .preview
                .map(|v| Setting::flag("-p", v.clone(), shown_bare(&v)))
                .or(config.preview),
            cells: args
                .cells
                .map(|v| Setting::flag("--cells", v.clone(), shown_bare(&v)))
                .or(config.cells),
            new: args.new,
            autoplay: args.autoplay
                || (!args.no_autoplay && config.autoplay.is_some_and(|s| s.value)),
            autoplay_delay: number(
                "autoplay_delay",
                "--autoplay-delay",
                args.autoplay_delay,
                config.autoplay_delay,
            ),
            score_dir: config.score_dir.map(|s| s.value),
            overridden,
        }
    }

    /// Checks every setting and builds the command. `no_color`: `NO_COLOR`
    /// asks for black and white when no mode is forced.
    fn resolve(self, no_color: bool) -> Result<Parsed, String> {
        let rules = self.rules()?;
        self.overridden.check().map_err(|e| {
            format!("{e} (a config file value must be right even where an option overrides it)")
        })?;
        let preview = self.preview.as_ref().map(parsed).transpose()?;
        let cells = self.cells.as_ref().map(parsed).transpose()?;
        let autoplay_delay = self.autoplay_delay()?;
        let colors = usize::from(rules.colors);
        // `-l` and batch mode draw nothing: there every look setting must
        // be valid in itself, but whether there are enough glyphs and colour
        // numbers for the colours is no matter.
        let draws = !self.list && !self.batch;
        let keys = distinct_keys(&self.keys)?;
        let font = font(&self.font)?;
        let mode = self.mode.as_ref().map(color_mode).transpose()?;
        let (bw_font, mode) = self.bw_font(colors, mode, no_color, draws)?;
        let mut warnings = Vec::new();
        if draws {
            warnings.extend(game_keys_taken(&self.keys, &keys));
        }
        // The glyphs the player chose, where black and white may use them.
        if let Some(font) = self
            .bw_font
            .as_ref()
            .filter(|_| draws && mode != Some(ColorMode::Color))
        {
            bw_glyphs_alike(font, &bw_font, colors, &mut warnings);
        }
        // NO_COLOR decides where the options do not, once, here.
        let mode = mode.or(no_color.then_some(ColorMode::Mono));
        // Black and white shows no colour: how many are given, and one
        // given twice, are no matter.
        let mono = mode == Some(ColorMode::Mono);
        let palette = match &self.palette {
            None => default_palette(colors),
            Some(list) => palette(list, colors, draws && !mono, &mut warnings)?,
        };
        let command = if self.list {
            Command::List {
                score_dir: self.score_dir,
                rules,
                preview: preview.unwrap_or_default(),
            }
        } else if self.batch {
            Command::Batch {
                rules,
                preview: preview.unwrap_or_default(),
                seed: self.seed,
            }
        } else {
            Command::Play(Play {
                rules,
                preview: preview.unwrap_or_default(),
                seed: self.seed,
                appearance: Appearance {
                    keys,
                    font,
                    bw_font,
                    mode,
                    palette,
                    cells: cells.unwrap_or_default(),
                },
                autoplay: self.autoplay,
                new: self.new,
                autoplay_delay,
                score_dir: self.score_dir,
                warnings: Vec::new(),
            })
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
                    rule: Rule::Colors,
                    value: self.colors.value,
                    min: Rule::Colors.min(),
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
            let setting = match error.rule {
                Rule::Width => &self.width,
                Rule::Height => &self.height,
                Rule::Colors => &self.colors,
                Rule::Line => &self.line,
                Rule::Next => &self.next,
                Rule::First => &self.first,
            };
            let refusal = setting.source.refuse(&error.requirement());
            // A board too small for the throw is most likely too small for
            // the opening too: name both at once, so that fixing one does
            // not only bring the other's refusal.
            let opening = Rules { next: 0, ..rules }.validate().err();
            match opening.filter(|e| e.rule == Rule::First && error.rule == Rule::Next) {
                Some(first) => format!(
                    "{refusal}; and {}",
                    self.first.source.refuse(&first.requirement())
                ),
                None => refusal,
            }
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

    /// The black-and-white glyphs and the mode they leave. Under `-m c` they
    /// are never drawn, so their number does not matter. Otherwise `-F`
    /// must cover the colours; with more colours than the default glyphs
    /// cover and no `-F`, black and white is refused when asked for (`-m b`
    /// or `NO_COLOR`) and colour is chosen otherwise. When nothing `draws`,
    /// the glyphs are checked only in themselves.
    fn bw_font(
        &self,
        colors: usize,
        mode: Option<ColorMode>,
        no_color: bool,
        draws: bool,
    ) -> Result<(Vec<char>, Option<ColorMode>), String> {
        let needed = 2 * colors + 1;
        let drawn = draws && mode != Some(ColorMode::Color);
        if let Some(font) = &self.bw_font {
            let glyphs = glyphs(font).map_err(|why| font.source.refuse(&why))?;
            if drawn && glyphs.len() < needed {
                return Err(font.source.refuse(&format!(
                    "expected at least {needed} glyphs for {colors} colours (the cursor, then a \
                     chip and its jumping glyph per colour), got {}; -m c draws in colour \
                     without them",
                    glyphs.len()
                )));
            }
            return Ok((glyphs, mode));
        }
        let default: Vec<char> = DEFAULT_BW_FONT.chars().collect();
        if !drawn || default.len() >= needed {
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

#[cfg(test)]
mod tests;
