//! Move-by-move traces of self-play games: how full and how broken up the
//! board is after each turn, and how that drifts with the free cells.

use clines::board::Board;

/// Free cells per row of the drift table.
pub const BAND: usize = 10;

/// One turn of a game: the player's move, and the computer's throw after it
/// when the move scored nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The turn's number, from 1.
    pub turn: u64,
    /// Free cells before the move.
    pub free_before: usize,
    /// Free cells at the end of the turn.
    pub free_after: usize,
    /// Empty regions after the turn (cells joined side by side).
    pub regions: usize,
    /// Cells of the largest of them.
    pub largest: usize,
    /// Points of the turn, without the streak bonus.
    pub points: u64,
}

/// The empty regions of `board` (cells joined across a side): how many,
/// and the size of the largest.
pub fn empty_regions(board: &Board) -> (usize, usize) {
    let (width, cells) = (board.width(), board.cells());
    let mut seen = vec![false; cells.len()];
    let mut stack = Vec::new();
    let (mut regions, mut largest) = (0, 0);
    for start in 0..cells.len() {
        if cells[start] != 0 || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let mut size = 0;
        while let Some(cell) = stack.pop() {
            size += 1;
            let x = cell % width;
            let neighbours = [
                (x > 0).then(|| cell - 1),
                (x + 1 < width).then_some(cell + 1),
                cell.checked_sub(width),
                Some(cell + width).filter(|&n| n < cells.len()),
            ];
            for next in neighbours.into_iter().flatten() {
                if cells[next] == 0 && !seen[next] {
                    seen[next] = true;
                    stack.push(next);
                }
            }
        }
        regions += 1;
        largest = largest.max(size);
    }
    (regions, largest)
}

/// The trace line of one turn of game `g`.
pub fn step_line(g: u64, seed: u64, step: &Step) -> String {
    format!(
        "game {g} (seed {seed}) turn {}: free {} -> {}, regions {}, largest {}, points {}",
        step.turn, step.free_before, step.free_after, step.regions, step.largest, step.points
    )
}

/// One row of the drift table: the turns that began with free cells in
/// `from..from + BAND`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drift {
    /// The band's fewest free cells.
    pub from: usize,
    /// Turns that began in the band.
    pub turns: usize,
    /// Share of those turns that left more cells free than they found (a
    /// scoring move, or a throw completing a line).
    pub freeing: f64,
    /// Mean change of the free cells over the turn.
    pub change: f64,
}

/// How the free cells change in a turn, by the free cells it began with:
/// where the mean change is negative the board fills, where positive it
/// empties, and the game settles where the sign turns.
pub fn drift<'a>(steps: impl Iterator<Item = &'a Step>) -> Vec<Drift> {
    let mut rows: Vec<Drift> = Vec::new();
    for step in steps {
        let from = step.free_before / BAND * BAND;
        let at = match rows.binary_search_by_key(&from, |row| row.from) {
            Ok(at) => at,
            Err(at) => {
                rows.insert(
                    at,
                    Drift {
                        from,
                        turns: 0,
                        freeing: 0.0,
                        change: 0.0,
                    },
                );
                at
            }
        };
        let row = &mut rows[at];
        row.turns += 1;
        row.freeing += f64::from(u8::from(step.free_after > step.free_before));
        row.change += step.free_after as f64 - step.free_before as f64;
    }
    for row in &mut rows {
        row.freeing /= row.turns as f64;
        row.change /= row.turns as f64;
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use clines::board::Pos;

    /// A board drawn as rows of `.` (empty) and colour digits.
    fn drawn(rows: &[&str]) -> Board {
        let mut board = Board::new(rows[0].len(), rows.len());
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                if let Some(color) = ch.to_digit(10).filter(|&d| d > 0) {
                    board.set(Pos::new(x, y), Some(color as u8));
                }
            }
        }
        board
    }

    #[test]
    fn regions_are_counted_across_sides_not_corners() {
        // Two cells touching at a corner only, and a region that wraps
        // no row end: the last cell of a row is not beside the next row's
        // first.
        let board = drawn(&[".1..", "1.11", "11..", "..11"]);
        assert_eq!(empty_regions(&board), (5, 2));
        assert_eq!(empty_regions(&Board::new(3, 2)), (1, 6));
        let full = drawn(&["12", "21"]);
        assert_eq!(empty_regions(&full), (0, 0));
    }

    fn step(free_before: usize, free_after: usize) -> Step {
        Step {
            turn: 1,
            free_before,
            free_after,
            regions: 1,
            largest: free_after,
            points: 0,
        }
    }

    #[test]
    fn drift_is_the_mean_change_per_band_of_free_cells() {
        let steps = [step(45, 42), step(41, 46), step(12, 9), step(49, 46)];
        let rows = drift(steps.iter());
        assert_eq!(
            rows,
            [
                Drift {
                    from: 10,
                    turns: 1,
                    freeing: 0.0,
                    change: -3.0
                },
                Drift {
                    from: 40,
                    turns: 3,
                    freeing: 1.0 / 3.0,
                    change: -1.0 / 3.0
                },
            ]
        );
        assert!(drift([].iter()).is_empty());
    }

    #[test]
    fn a_step_line_names_the_game_and_every_figure() {
        let line = step_line(
            4,
            5,
            &Step {
                turn: 17,
                free_before: 41,
                free_after: 38,
                regions: 2,
                largest: 30,
                points: 0,
            },
        );
        assert_eq!(
            line,
            "game 4 (seed 5) turn 17: free 41 -> 38, regions 2, largest 30, points 0"
        );
    }
}
