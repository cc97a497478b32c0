//! Messages of the measuring tools on standard error.

use std::fmt;
use std::io::{self, Write};

/// Writes `text` and a newline to standard error, as `eprintln!` does but
/// for a write that fails (a closed pipe, a full disk): that does not panic
/// and is not told, as standard error is where it would be told.
pub fn tell(text: impl fmt::Display) {
    let _ = writeln!(io::stderr().lock(), "{text}");
}
