//! The value of an option on the measuring tools' command lines, shared by
//! `examples/selfplay.rs`, `examples/tune.rs`, `examples/train.rs` and
//! `examples/hintcost.rs`, whose options all take one.

/// The value that follows `flag` in `args`, if `flag` is one of `known`.
/// An unknown flag is named as such before any value is looked for, so
/// that `--bogus` and `--bogus 1` are refused alike, not as a value
/// missing or wrong.
pub fn value(
    flag: &str,
    known: &[&str],
    args: &mut impl Iterator<Item = String>,
) -> Result<String, String> {
    if !known.contains(&flag) {
        return Err(format!("unknown option {flag}"));
    }
    args.next().ok_or_else(|| format!("{flag} needs a value"))
}
