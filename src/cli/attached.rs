//! Free-text short options whose attached value begins with `=`, kept as
//! typed.
//!
//! clap reads `-C=abcd` as `-C abcd`, dropping the `=` as it does in
//! `--keys=abcd`; getopt, which the original game used, reads the keys
//! `=abcd`. Keys and glyphs are free text, where `=` is a character like
//! any other, so such a value is split off into an argument of its own
//! before clap sees it, and taken whole. Options with other values (`-w=7`)
//! keep clap's reading, as `=` is never part of them.

use std::ffi::OsString;

/// The short options whose values are free text: keys and glyphs.
const FREE_TEXT: [char; 3] = ['C', 'f', 'F'];

/// An option's name as typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Name<'a> {
    /// `-C`.
    Short(char),
    /// `--keys`.
    Long(&'a str),
}

/// `args` (program name first) with the value attached to a free-text
/// short option split off when it begins with `=`: `-C=abcd` becomes `-C`
/// and `=abcd`, `-lC=abcd` becomes `-lC` and `=abcd`. `takes_value` says
/// whether an option takes a value (`None` for an unknown one, which clap
/// is left to refuse). An argument that is another option's value is left
/// alone, as are the arguments after `--`.
pub(super) fn split_free_text_values(
    args: Vec<OsString>,
    takes_value: impl Fn(Name) -> Option<bool>,
) -> Vec<OsString> {
    let mut split = Vec::with_capacity(args.len() + 1);
    let mut args = args.into_iter();
    split.extend(args.next());
    let mut value_next = false;
    while let Some(arg) = args.next() {
        let is_value = std::mem::take(&mut value_next);
        let text = match arg.to_str() {
            Some(text) if !is_value => text,
            _ => {
                split.push(arg);
                continue;
            }
        };
        if text == "--" {
            split.push(arg);
            split.extend(args);
            break;
        }
        if let Some(long) = text.strip_prefix("--") {
            // `--keys=abcd` holds its value; `--keys` takes the next.
            value_next = match long.split_once('=') {
                Some(_) => false,
                None => takes_value(Name::Long(long)) == Some(true),
            };
            split.push(arg);
            continue;
        }
        let Some(cluster) = text.strip_prefix('-') else {
            split.push(arg);
            continue;
        };
        let mut at = None;
        for (i, option) in cluster.char_indices() {
            match takes_value(Name::Short(option)) {
                Some(false) => continue,
                Some(true) => {
                    let rest = &cluster[i + option.len_utf8()..];
                    if rest.is_empty() {
                        value_next = true;
                    } else if FREE_TEXT.contains(&option) && rest.starts_with('=') {
                        at = Some(1 + i + option.len_utf8());
                    }
                }
                None => {}
            }
            break;
        }
        match at {
            Some(at) => split.extend([text[..at].into(), text[at..].into()]),
            None => split.push(arg),
        }
    }
    split
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStringExt;

    /// `l` and `list` flags; `C`, `f`, `w` and `keys` take values.
    fn split(args: &[&str]) -> Vec<String> {
        let takes_value = |name: Name| match name {
            Name::Short('l') | Name::Long("list") => Some(false),
            Name::Short('C' | 'f' | 'w') | Name::Long("keys") => Some(true),
            _ => None,
        };
        let args = std::iter::once("clines").chain(args.iter().copied());
        let split = split_free_text_values(args.map(OsString::from).collect(), takes_value);
        split
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect()
    }

    #[test]
    fn a_free_text_value_attached_with_an_equals_sign_is_split_off() {
        assert_eq!(split(&["-C=hjkl"]), ["clines", "-C", "=hjkl"]);
        assert_eq!(split(&["-lC=hjkl"]), ["clines", "-lC", "=hjkl"]);
        assert_eq!(split(&["-f==", "-w=7"]), ["clines", "-f", "==", "-w=7"]);
        // Values, the options' own or after `--`, are left as typed.
        assert_eq!(split(&["-Chjk=l"]), ["clines", "-Chjk=l"]);
        assert_eq!(split(&["-C", "-f=ab"]), ["clines", "-C", "-f=ab"]);
        assert_eq!(split(&["-lC", "-C=x"]), ["clines", "-lC", "-C=x"]);
        assert_eq!(
            split(&["-w", "-C=x", "-C=y"]),
            ["clines", "-w", "-C=x", "-C", "=y"]
        );
        assert_eq!(split(&["--", "-C=x"]), ["clines", "--", "-C=x"]);
        assert_eq!(
            split(&["--keys=-C=x", "-C=y"]),
            ["clines", "--keys=-C=x", "-C", "=y"]
        );
        assert_eq!(split(&["--keys", "-C=x"]), ["clines", "--keys", "-C=x"]);
        assert_eq!(split(&["--list", "-C=x"]), ["clines", "--list", "-C", "=x"]);
        // An unknown option, and what follows it in its cluster, is clap's.
        assert_eq!(split(&["-xC=hjkl"]), ["clines", "-xC=hjkl"]);
    }

    #[test]
    fn an_argument_that_is_not_unicode_is_passed_on() {
        let odd = OsString::from_vec(b"-C=\xff".to_vec());
        // Also as a value: the argument after it is not one.
        let args = [
            "clines".into(),
            odd.clone(),
            "-C".into(),
            odd.clone(),
            "-C=a".into(),
        ];
        let split = split_free_text_values(args.to_vec(), |_| Some(true));
        let expected = [
            "clines".into(),
            odd.clone(),
            "-C".into(),
            odd,
            "-C".into(),
            "=a".into(),
        ];
        assert_eq!(split, expected);
    }
}
