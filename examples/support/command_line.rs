//! Command lines in the measuring tools' tests (`examples/selfplay.rs`,
//! `examples/tune.rs`, `examples/train.rs`), each tool's own `parse` given.

/// The words of `line`, split at spaces as a shell splits a line without
/// quotes.
pub fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(String::from).collect()
}

/// The message with which `parse` refuses the command line `line`; fails
/// the test if `parse` takes it.
pub fn refusal<T>(parse: impl FnOnce(Vec<String>) -> Result<T, String>, line: &str) -> String {
    match parse(words(line)) {
        Err(e) => e,
        Ok(_) => panic!("{line} was taken"),
    }
}
