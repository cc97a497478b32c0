//! Console Lines: the Color Lines puzzle game, as a pure engine ([`board`],
//! [`game`]) with a headless line protocol ([`batch`]) and the command line
//! ([`cli`]), the high scores ([`records`]) and the terminal front end
//! ([`tui`]) on top.

pub mod ai;
pub mod batch;
pub mod board;
pub mod cli;
pub mod files;
pub mod game;
pub mod records;
pub mod text;
pub mod tui;
