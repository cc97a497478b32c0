//! Proptest strategies for the rules of a game, shared by the property
//! tests of the modules that take rules: each draws from its own ranges.

use proptest::prelude::*;

use super::{Preview, Rules};
use crate::board::Color;

/// Rules drawn from a strategy for each: `next` and `first` are kept to
/// the board's cells, as the rules allow no more.
pub fn rules(
    width: impl Strategy<Value = usize>,
    height: impl Strategy<Value = usize>,
    colors: impl Strategy<Value = Color>,
    line: impl Strategy<Value = usize>,
    next: impl Strategy<Value = usize>,
    first: impl Strategy<Value = usize>,
) -> impl Strategy<Value = Rules> {
    (width, height, colors, line, next, first).prop_map(
        |(width, height, colors, line, next, first)| {
            let cells = width * height;
            Rules {
                width,
                height,
                colors,
                line,
                next: next.min(cells),
                first: first.min(cells),
            }
        },
    )
}

/// Any preview, none included.
pub fn preview() -> impl Strategy<Value = Preview> {
    prop_oneof![
        Just(Preview::Off),
        Just(Preview::Colors),
        Just(Preview::Cells)
    ]
}
