//! Console Lines: the Color Lines puzzle game, as a pure engine ([`board`],
//! [`game`]) and a built-in player ([`ai`]) that sees only what the engine
//! shows, with the edges on top: a headless line protocol ([`batch`]), the
//! command line and config file ([`cli`]), the high scores ([`records`]),
//! the terminal front end ([`tui`]) and the process's start and end
//! ([`runtime`]). Two small helpers serve every edge:
//! [`text`] makes input safe to quote in a message, [`files`] opens only
//! regular files.
//!
//! `clines` runs on Unix-like systems only: the records need `flock`, the
//! user database and Unix file modes, the terminal front end Unix signals
//! (suspend, hang-up), and opening files safely Unix open flags. Elsewhere
//! every module is left out, so that the build stops on the one message
//! below instead of a wall of errors.

#[cfg(not(unix))]
compile_error!(
    "clines runs on Unix-like systems only (Linux, macOS, the BSDs): it needs a Unix \
     terminal and signals, flock and the user database"
);

#[cfg(unix)]
pub mod ai;
#[cfg(unix)]
pub mod batch;
#[cfg(unix)]
pub mod board;
#[cfg(unix)]
pub mod cli;
#[cfg(unix)]
pub mod files;
#[cfg(unix)]
pub mod game;
#[cfg(unix)]
pub mod records;
#[cfg(unix)]
pub mod runtime;
#[cfg(unix)]
pub mod text;
#[cfg(unix)]
pub mod tui;
