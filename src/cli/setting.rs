//! A setting's value and where it came from, so that a refusal names it
//! as the user wrote it.

use std::path::PathBuf;

use crate::text;

/// Where a setting came from, so that a refusal can name it as it was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Source {
    /// The built-in default of an option not given.
    Default {
        /// The option's flag, such as `-n`.
        flag: &'static str,
        /// The default value, as `-h` shows it.
        value: String,
    },
    /// A command-line option: its flag and the value as given.
    Flag {
        /// The flag as messages name it: the short one, such as `-w`, or
        /// the long one of an option without a short form (`--cells`).
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
    pub(super) fn describe(&self) -> String {
        match self {
            Source::Default { flag, value } => format!("{flag} {value} (the default)"),
            Source::Flag { flag, value } => format!("{flag} {value}"),
            Source::Config { file, key, value } => {
                format!("{key} = {value} in {}", text::path(file))
            }
        }
    }

    /// A refusal of this value: what was given, then why it is refused.
    pub(super) fn refuse(&self, why: &str) -> String {
        match self {
            // Only a default that does not fit other settings is refused
            // (-n 3 on a board of 2 cells): say which option to give.
            Source::Default { flag, value } => {
                format!("{flag} {value} (the default): {why}; give {flag} a value in that range")
            }
            Source::Flag { flag, value } => format!("{flag} {value}: {why}"),
            Source::Config { file, key, value } => {
                format!("{}: {key} = {value}: {why}", text::path(file))
            }
        }
    }
}

/// A value and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Setting<T> {
    pub(super) value: T,
    pub(super) source: Source,
}

impl<T> Setting<T> {
    /// A value given with `flag`, shown as `shown` in messages.
    pub(super) fn flag(flag: &'static str, value: T, shown: String) -> Setting<T> {
        Setting {
            value,
            source: Source::Flag { flag, value: shown },
        }
    }

    /// The built-in default of the option `flag`, shown as `shown`.
    pub(super) fn default(flag: &'static str, value: T, shown: String) -> Setting<T> {
        Setting {
            value,
            source: Source::Default { flag, value: shown },
        }
    }
}
