//! The terminal front end without a terminal, for the benchmarks of its
//! drawing (`benches/screen.rs`): what a key press or a repaint costs in
//! building the screen and encoding it, apart from the terminal's own time.

use std::io;
use std::time::{Duration, Instant};

use crate::cli::{Appearance, DEFAULT_KEYS};
use crate::game::{Game, Rules};

use super::app::App;
use super::frame::Renderer;
use super::input::{Action, Dir};
use super::view::Style;

/// A game in colour on a screen of a given size, drawn into memory.
#[derive(Debug)]
pub struct Offscreen {
    app: App,
    renderer: Renderer,
    now: Instant,
    /// Which way the next [`Offscreen::nudge_cursor`] goes.
    right: bool,
}

impl Offscreen {
    /// A new game of `rules` from `seed`, with the default look, on a
    /// `cols` × `rows` screen, its opening throw already landed.
    pub fn new(rules: Rules, seed: u64, cols: usize, rows: usize) -> Offscreen {
        let (game, opening) = Game::new(rules, seed);
        let style = Style::new(
            &Appearance::for_colors(rules.colors.into()),
            rules.colors,
            true,
        );
        let start = Instant::now();
        let mut app = App::new(
            game,
            opening,
            style,
            DEFAULT_KEYS,
            None,
            (cols, rows),
            start,
        );
        // Long after the opening's animation.
        let now = start + Duration::from_secs(3600);
        app.advance(now);
        Offscreen {
            app,
            renderer: Renderer::new(true),
            now,
            right: true,
        }
    }

    /// Builds the screen's frame, as each redraw does, and drops it
    /// unencoded.
    pub fn build(&self) {
        drop(self.app.frame(self.now));
    }

    /// Builds the screen's frame and appends to `out` the bytes that turn
    /// what the terminal shows into it, as a redraw does.
    pub fn draw(&mut self, out: &mut Vec<u8>) -> io::Result<()> {
        self.renderer.draw(self.app.frame(self.now), false, out)
    }

    /// Forgets what the terminal shows, as Ctrl-L does: the next
    /// [`Offscreen::draw`] repaints the whole screen.
    pub fn invalidate(&mut self) {
        self.renderer.invalidate();
    }

    /// Moves the cursor one cell, as an arrow key does: right, then back
    /// left on the next call, so that repeated calls stay near the corner.
    pub fn nudge_cursor(&mut self) {
        let dir = if self.right { Dir::Right } else { Dir::Left };
        self.right = !self.right;
        self.app.act(Action::Cursor(dir), self.now);
    }
}
