//! Console Lines: the Color Lines puzzle game, as a pure engine ([`board`],
//! [`game`]) with a headless line protocol ([`batch`]) and the command line
//! ([`cli`]), the high scores ([`records`]) and the terminal front end
//! ([`tui`]) on top.
//!
//! `clines` runs on Unix-like systems only: the records need `flock`, the
//! user database and Unix file modes, and the terminal front end needs Unix
//! signals (suspend, hang-up) and file descriptors. Elsewhere those two
//! modules are left out, so that the build stops on the one message below
//! instead of a wall of errors; the engine, the player, the headless mode
//! and the command line use nothing of theirs and stay portable.

#[cfg(not(unix))]
compile_error!(
    "clines runs on Unix-like systems only (Linux, macOS, the BSDs): it needs a Unix \
     terminal and signals, flock and the user database"
);

pub mod ai;
pub mod batch;
pub mod board;
pub mod cli;
pub mod game;
#[cfg(unix)]
pub mod records;
#[cfg(unix)]
pub mod tui;
