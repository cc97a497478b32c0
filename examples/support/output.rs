//! Standard output of the measuring tools (`examples/selfplay.rs`,
//! `examples/tune.rs`, `examples/train.rs`): a write that fails does not
//! panic, as `println!` would, but ends the report. A message to standard
//! error that fails ([`tell`]) is lost, and nothing more.

use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;

use super::tell::tell;

/// Standard output, remembering its first failed write.
pub struct Output {
    /// The tool's name, which starts its messages.
    tool: &'static str,
    failed: Option<io::Error>,
}

impl Output {
    /// Standard output for the tool named `tool`.
    pub fn new(tool: &'static str) -> Output {
        Output { tool, failed: None }
    }

    /// Writes one line; after a failed write, nothing more is written.
    /// Returns whether every line so far was written: a tool may stop
    /// early once not, as nobody reads what follows.
    pub fn line(&mut self, text: fmt::Arguments) -> bool {
        if self.failed.is_none() {
            if let Err(e) = writeln!(io::stdout().lock(), "{text}") {
                self.failed = Some(e);
            }
        }
        self.failed.is_none()
    }

    /// The exit status: success, or after a closed pipe (the reader, such
    /// as `head`, had enough, as the game takes it); failure, with a
    /// message, after any other failed write (a full disk).
    pub fn finish(self) -> ExitCode {
        match self.failed {
            None => ExitCode::SUCCESS,
            Some(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Some(e) => {
                tell(format_args!("{}: standard output: {e}", self.tool));
                ExitCode::FAILURE
            }
        }
    }
}

/// Writes a line to an [`Output`], formatted as `println!` formats it,
/// whatever [`Output::line`] returns.
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {{
        $out.line(format_args!($($arg)*));
    }};
}
pub(crate) use say;
