//! The config file: `config.toml` in the platform config directory, or the
//! file named by `$CLINES_CONFIG`. Each key sets the default of the option of
//! the same name; options given on the command line override it.
//!
//! The file is read as a plain TOML table and each key checked by hand, so
//! that every refusal names the file, the key and what the key accepts.

use std::fs;
use std::io::{self, ErrorKind};
use std::path::{Path, PathBuf};

use directories::ProjectDirs;

use crate::files;
use crate::game::{MAX_SIDE, Preview, Rule};
use crate::text::{self, TomlProblem};

use super::{CellShape, MAX_AUTOPLAY_DELAY_MS, Setting, Source, Warning, accepted_range};

/// The keys a config file may hold.
pub const KEYS: [&str; 16] = [
    "width",
    "height",
    "colors",
    "line",
    "next",
    "first",
    "keys",
    "font",
    "bw_font",
    "mode",
    "palette",
    "preview",
    "cells",
    "autoplay",
    "autoplay_delay",
    "score_dir",
];

/// Where the config file is looked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ConfigLocation {
    /// The file.
    pub(super) path: PathBuf,
    /// Whether a missing file is an error: true when `$CLINES_CONFIG` names
    /// it, since the user asked for that file.
    pub(super) required: bool,
}

impl ConfigLocation {
    /// `$CLINES_CONFIG` if set and not empty, else `config.toml` in the
    /// platform config directory, if the platform has one. A directory
    /// found from a relative `$HOME` is none, as for records: it would
    /// follow where clines is started.
    pub(super) fn of_process() -> Option<ConfigLocation> {
        match std::env::var_os("CLINES_CONFIG") {
            Some(path) if !path.is_empty() => Some(ConfigLocation {
                path: path.into(),
                required: true,
            }),
            _ => ProjectDirs::from("", "", "clines")
                .map(|dirs| dirs.config_dir().join("config.toml"))
                .filter(|path| path.is_absolute())
                .map(|path| ConfigLocation {
                    path,
                    required: false,
                }),
        }
    }
}

/// The settings a config file gives, each with its key for messages.
#[derive(Debug, Default)]
pub(super) struct Config {
    pub(super) width: Option<Setting<usize>>,
    pub(super) height: Option<Setting<usize>>,
    pub(super) colors: Option<Setting<usize>>,
    pub(super) line: Option<Setting<usize>>,
    pub(super) next: Option<Setting<usize>>,
    pub(super) first: Option<Setting<usize>>,
    pub(super) keys: Option<Setting<String>>,
    pub(super) font: Option<Setting<String>>,
    pub(super) bw_font: Option<Setting<String>>,
    pub(super) mode: Option<Setting<String>>,
    /// The palette's items, still as text, checked like `-o`'s.
    pub(super) palette: Option<Setting<Vec<String>>>,
    pub(super) preview: Option<Setting<String>>,
    pub(super) cells: Option<Setting<String>>,
    pub(super) autoplay: Option<Setting<bool>>,
    pub(super) autoplay_delay: Option<Setting<usize>>,
    pub(super) score_dir: Option<Setting<PathBuf>>,
}

impl Config {
    /// Takes out the values that options on the command line replace:
    /// `given` says whether the option with clap's id was given.
    pub(super) fn take_overridden(&mut self, given: impl Fn(&str) -> bool) -> Config {
        fn take<T>(given: bool, value: &mut Option<T>) -> Option<T> {
            if given { value.take() } else { None }
        }
        Config {
            width: take(given("width"), &mut self.width),
            height: take(given("height"), &mut self.height),
            colors: take(given("colors"), &mut self.colors),
            line: take(given("line"), &mut self.line),
            next: take(given("next"), &mut self.next),
            first: take(given("first"), &mut self.first),
            keys: take(given("keys"), &mut self.keys),
            font: take(given("font"), &mut self.font),
            bw_font: take(given("bw_font"), &mut self.bw_font),
            mode: take(given("mode"), &mut self.mode),
            palette: take(given("palette"), &mut self.palette),
            preview: take(given("preview"), &mut self.preview),
            cells: take(given("cells"), &mut self.cells),
            autoplay: None,
            autoplay_delay: take(given("autoplay_delay"), &mut self.autoplay_delay),
            score_dir: None,
        }
    }

    /// Checks the values that options replaced, each on its own: a bad
    /// value in the file is an error even when it is not used. What depends
    /// on other settings is left to the values in use: `next` and `first`
    /// need only fit the largest board (the file may set up a larger board
    /// than the one the options ask for), and how many glyphs or colours
    /// are enough is not asked.
    pub(super) fn check(&self) -> Result<(), String> {
        let within =
            |setting: &Option<Setting<usize>>, min: usize, max: usize, cells: &str| match setting {
                Some(s) if !(min..=max).contains(&s.value) => Err(s.source.refuse(&format!(
                    "expected a whole number from {min} to {max}{cells}"
                ))),
                _ => Ok(()),
            };
        let rules = [
            (Rule::Width, &self.width),
            (Rule::Height, &self.height),
            (Rule::Colors, &self.colors),
            (Rule::Line, &self.line),
            (Rule::Next, &self.next),
            (Rule::First, &self.first),
        ];
        for (rule, setting) in rules {
            match rule.fixed_max() {
                Some(max) => within(setting, rule.min(), max, "")?,
                None => within(
                    setting,
                    rule.min(),
                    MAX_SIDE * MAX_SIDE,
                    " (the cells of the largest board)",
                )?,
            }
        }
        within(&self.autoplay_delay, 0, MAX_AUTOPLAY_DELAY_MS, "")?;
        if let Some(keys) = &self.keys {
            super::distinct_keys(keys)?;
        }
        if let Some(font) = &self.font {
            super::font(font)?;
        }
        if let Some(bw_font) = &self.bw_font {
            super::glyphs(bw_font).map_err(|why| bw_font.source.refuse(&why))?;
        }
        if let Some(mode) = &self.mode {
            super::color_mode(mode)?;
        }
        if let Some(palette) = &self.palette {
            super::palette_numbers(palette)?;
        }
        if let Some(preview) = &self.preview {
            super::parsed::<crate::game::Preview>(preview)?;
        }
        if let Some(cells) = &self.cells {
            super::parsed::<super::CellShape>(cells)?;
        }
        Ok(())
    }
}

/// Reads the config file, with any warning about it. A missing file gives
/// no settings unless it was named explicitly; any other problem is a
/// message naming the file.
pub(super) fn load(location: &ConfigLocation) -> Result<(Config, Vec<Warning>), String> {
    let file = &location.path;
    let refuse = |e: io::Error| {
        let named = if location.required {
            " (named by CLINES_CONFIG)"
        } else {
            ""
        };
        format!(
            "{}: cannot read the config file{named}: {e}",
            text::path(file)
        )
    };
    let text = match read(file) {
        Ok(text) => text,
        Err(e) if location.required => {
            return Err(match why_not_there(file, &e) {
                Some(why) => format!("{}; {why}", refuse(e)),
                None => refuse(e),
            });
        }
        // Nothing there, or a file where a directory on the way should be,
        // so that no config file can be there: said only when there is a
        // reason to tell.
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
            let why = why_not_there(file, &e)
                .or_else(|| (e.kind() == ErrorKind::NotADirectory).then(|| e.to_string()));
            let warning = why.map(|why| Warning {
                text: format!(
                    "no config file at {}: {why}; playing with the defaults",
                    text::path(file)
                ),
                matters_in: None,
            });
            return Ok((Config::default(), warning.into_iter().collect()));
        }
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
            // Only a file that is there and cannot be read is an error; a
            // directory that cannot be searched may well hold none.
            return match exists(file) {
                Some(true) => Err(refuse(e)),
                Some(false) => Ok((Config::default(), Vec::new())),
                None => Ok((
                    Config::default(),
                    vec![Warning {
                        text: format!(
                            "cannot look for a config file in {}: {e}; playing with the defaults",
                            file.parent().map(text::path).unwrap_or_default()
                        ),
                        matters_in: None,
                    }],
                )),
            };
        }
        Err(e) => return Err(refuse(e)),
    };
    parse(&text, file).map(|config| (config, Vec::new()))
}

/// Why no file is at `path`, as reading it failed with `e`: a symbolic
/// link on the way that leads nowhere, or a file where a directory on the
/// way should be; `None` when neither.
fn why_not_there(path: &Path, e: &io::Error) -> Option<String> {
    match e.kind() {
        ErrorKind::NotFound => files::broken_link(path),
        ErrorKind::NotADirectory => {
            let file = files::file_in_the_way(path.parent()?)?;
            Some(format!("{} above it is not a directory", text::path(file)))
        }
        _ => None,
    }
}

/// The largest config file read: a wrong file (a log named by
/// `CLINES_CONFIG`, say) must not fill the memory before it is refused.
const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// The text of the file at `path`, which must be a regular file (a FIFO
/// there would hang the start) of at most [`MAX_CONFIG_BYTES`].
fn read(path: &Path) -> io::Result<String> {
    files::read_text_within(files::open_regular(path)?, MAX_CONFIG_BYTES, || {
        format!("it is larger than 1 MiB ({MAX_CONFIG_BYTES} bytes), the most a config file may be")
    })
}

/// Whether something is at `path`, found by looking at it or, when its
/// directory cannot be searched, by listing that directory; `None` when
/// neither is allowed.
fn exists(path: &Path) -> Option<bool> {
    match fs::symlink_metadata(path) {
        Ok(_) => return Some(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Some(false),
        Err(_) => {}
    }
    let name = path.file_name()?;
    let mut entries = fs::read_dir(path.parent()?).ok()?;
    Some(entries.any(|entry| entry.is_ok_and(|entry| entry.file_name() == name)))
}

/// Reads the text of a config file; `file` names it in messages.
pub(super) fn parse(text: &str, file: &Path) -> Result<Config, String> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let problem = TomlProblem::new(&e, text);
        format!(
            "{}: invalid TOML{}: {}",
            text::path(file),
            problem.at(),
            problem.why()
        )
    })?;
    let mut config = Config::default();
    for (key, value) in &table {
        let Some(&key) = KEYS.iter().find(|&&k| k == key) else {
            return Err(format!(
                "{}: unknown key {}; the keys are {}",
                text::path(file),
                text::quote(key),
                KEYS.join(", ")
            ));
        };
        let entry = Entry { file, key, value };
        match key {
            "width" => config.width = Some(entry.number(&accepted_range(Rule::Width))?),
            "height" => config.height = Some(entry.number(&accepted_range(Rule::Height))?),
            "colors" => config.colors = Some(entry.number(&accepted_range(Rule::Colors))?),
            "line" => config.line = Some(entry.number(&accepted_range(Rule::Line))?),
            "next" => config.next = Some(entry.number(&accepted_range(Rule::Next))?),
            "first" => config.first = Some(entry.number(&accepted_range(Rule::First))?),
            "keys" => {
                config.keys =
                    Some(entry.string("5 different keys: left, down, up, right, action")?);
            }
            "font" => {
                config.font = Some(entry.string("3 glyphs: cursor, chip, jumping chip")?);
            }
            "bw_font" => {
                config.bw_font =
                    Some(entry.string(
                        "glyphs: the cursor, then a chip and its jumping glyph per colour",
                    )?);
            }
            "mode" => {
                config.mode = Some(entry.string("\"c\" (colour) or \"b\" (black and white)")?)
            }
            "palette" => config.palette = Some(entry.palette()?),
            "cells" => config.cells = Some(entry.string(&one_of(&CellShape::NAMES))?),
            "preview" => {
                config.preview = Some(entry.string(&one_of(&Preview::NAMES))?);
            }
            "autoplay" => config.autoplay = Some(entry.boolean()?),
            "autoplay_delay" => {
                config.autoplay_delay = Some(entry.number(&format!(
                    "of milliseconds from 0 to {MAX_AUTOPLAY_DELAY_MS}"
                ))?);
            }
            "score_dir" => config.score_dir = Some(entry.directory()?),
            _ => unreachable!("every key of KEYS is matched: {key}"),
        }
    }
    Ok(config)
}

/// `names` quoted, as a choice: `"a", "b" or "c"`.
fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("\"{name}\"")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// One key of the config file and its value.
struct Entry<'a> {
    file: &'a std::path::Path,
    key: &'static str,
    value: &'a toml::Value,
}

impl Entry<'_> {
    /// The source of this entry, for later messages.
    fn source(&self) -> Source {
        Source::Config {
            file: self.file.to_path_buf(),
            key: self.key,
            value: match self.value {
                toml::Value::String(value) => text::quote(value),
                value => text::excerpt(&value.to_string()),
            },
        }
    }

    /// A value of this entry, remembering where it came from.
    fn setting<T>(&self, value: T) -> Setting<T> {
        Setting {
            value,
            source: self.source(),
        }
    }

    /// A refusal of this entry: it should have been `accepted`.
    fn expected(&self, accepted: &str) -> String {
        self.source().refuse(&format!("expected {accepted}"))
    }

    /// A whole number; its range is checked with the rules.
    fn number(&self, range: &str) -> Result<Setting<usize>, String> {
        self.value
            .as_integer()
            .and_then(|n| usize::try_from(n).ok())
            .map(|n| self.setting(n))
            .ok_or_else(|| self.expected(&format!("a whole number {range}")))
    }

    /// `true` or `false`.
    fn boolean(&self) -> Result<Setting<bool>, String> {
        self.value
            .as_bool()
            .map(|b| self.setting(b))
            .ok_or_else(|| self.expected("true or false"))
    }

    /// A string; what it must hold is checked with the options.
    fn string(&self, what: &str) -> Result<Setting<String>, String> {
        self.value
            .as_str()
            .map(|s| self.setting(s.to_string()))
            .ok_or_else(|| self.expected(&format!("a string of {what}")))
    }

    /// Colour numbers as an array of integers or a comma-separated string,
    /// like `-o`.
    fn palette(&self) -> Result<Setting<Vec<String>>, String> {
        let items = match self.value {
            toml::Value::String(list) => {
                Some(list.split(',').map(|n| n.trim().to_string()).collect())
            }
            toml::Value::Array(items) => items
                .iter()
                .map(|n| n.as_integer().map(|n| n.to_string()))
                .collect(),
            _ => None,
        };
        items.map(|items| self.setting(items)).ok_or_else(|| {
            self.expected(
                "an array of colour numbers from 1 to 255, such as [7, 1, 2, 3, 4, 5], \
                 or the same as a string, \"7,1,2,3,4,5\"",
            )
        })
    }

    /// An absolute directory path.
    fn directory(&self) -> Result<Setting<PathBuf>, String> {
        self.value
            .as_str()
            .map(PathBuf::from)
            .filter(|path| path.is_absolute())
            .map(|path| self.setting(path))
            .ok_or_else(|| {
                // A shell would expand it; a file read as it is does not.
                let tilde = self
                    .value
                    .as_str()
                    .is_some_and(|path| path.starts_with('~'));
                let hint = if tilde {
                    " (~ is not read as the home directory here: write the directory out)"
                } else {
                    ""
                };
                self.expected(&format!(
                    "a string holding an absolute directory path{hint}"
                ))
            })
    }
}
