//! The shape of the board's cells, `--cells` and the config key `cells`:
//! a setting of the look, kept apart from the rules.

use std::fmt;
use std::str::FromStr;

/// The shape of the board's cells (`--cells`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CellShape {
    /// Square, as large as the terminal allows: the original's look.
    #[default]
    Square,
    /// 3 characters wide and 1 high, whatever the terminal's size.
    Wide,
}

impl CellShape {
    /// The names `--cells` accepts, in order.
    pub const NAMES: [&'static str; 2] = ["square", "wide"];
}

impl fmt::Display for CellShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CellShape::Square => CellShape::NAMES[0],
            CellShape::Wide => CellShape::NAMES[1],
        })
    }
}

impl FromStr for CellShape {
    type Err = String;

    fn from_str(text: &str) -> Result<CellShape, String> {
        match text {
            "square" => Ok(CellShape::Square),
            "wide" => Ok(CellShape::Wide),
            _ => Err(format!(
                "the cells must be {} (sized to the terminal) or {} (3 characters by 1)",
                CellShape::NAMES[0],
                CellShape::NAMES[1]
            )),
        }
    }
}
