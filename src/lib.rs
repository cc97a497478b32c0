//! Console Lines: the Color Lines puzzle game, as a pure engine ([`board`],
//! [`game`]) and a built-in player ([`ai`]) that sees only what the engine
//! shows, with the edges on top: a headless line protocol ([`batch`]), the
//! command line and config file ([`cli`]), the high scores ([`records`]) and
//! the terminal front end ([`tui`]). Two small helpers serve every edge:
//! [`text`] makes input safe to quote in a message, [`files`] opens only
//! regular files.

pub mod ai;
pub mod batch;
pub mod board;
pub mod cli;
pub mod files;
pub mod game;
pub mod records;
pub mod text;
pub mod tui;
