//! The terminal front end's drawing on the largest board, 1000 × 1000, on
//! the 2001 × 2001 screen it needs: building the frame of the screen, a
//! full repaint (the first frame, a resize or Ctrl-L) and the redraw after
//! one cursor move, which writes a few bytes; on the board as a game
//! starts, and on one nearly full, every row of chips drawn over its grid.

use std::hint::black_box;
use std::time::Duration;

use clines::game::Rules;
use clines::tui::Offscreen;
use criterion::{Criterion, criterion_main};

/// The board's side, in cells.
const SIDE: usize = 1000;
/// The screen's side: a column or row per cell and one per grid line.
const SCREEN: usize = 2 * SIDE + 1;

/// The game of `--seed=5` on the largest board, opening with `first`
/// chips.
fn screen(first: usize) -> Offscreen {
    let rules = Rules {
        width: SIDE,
        height: SIDE,
        first,
        ..Rules::DEFAULT
    };
    Offscreen::new(rules, 5, SCREEN, SCREEN)
}

/// Building a frame, a full repaint, and a cursor move's redraw, on the
/// board as a game starts and on one nearly full: of an opening of 990,000
/// chips, the lines it makes go, and 965,533 stay (96.6 % of the cells).
fn drawing(c: &mut Criterion) {
    for (name, first) in [
        ("screen_1000x1000", Rules::DEFAULT.first),
        ("screen_1000x1000_full", SIDE * SIDE / 100 * 99),
    ] {
        draw_group(c, name, screen(first));
    }
}

/// The three benchmarks of one screen, named `name`.
fn draw_group(c: &mut Criterion, name: &str, mut screen: Offscreen) {
    let mut group = c.benchmark_group(name);
    group.bench_function("build_frame", |b| b.iter(|| screen.build()));
    let mut out = Vec::new();
    group.bench_function("full_repaint", |b| {
        b.iter(|| {
            out.clear();
            screen.invalidate();
            screen.draw(&mut out).unwrap();
            black_box(out.len())
        })
    });
    group.bench_function("cursor_move", |b| {
        b.iter(|| {
            out.clear();
            screen.nudge_cursor();
            screen.draw(&mut out).unwrap();
            black_box(out.len())
        })
    });
    group.finish();
}

/// Few samples and no plots: a full repaint takes over a tenth of a second.
fn quick() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(3))
        .without_plots()
}

/// The benchmarks with the quick configuration: what `criterion_group!`
/// writes, by hand, because criterion 0.7's macro makes a public function
/// without docs, which `missing_docs` refuses.
fn benches() {
    drawing(&mut quick().configure_from_args());
}
criterion_main!(benches);
