//! The next-chip preview: the computer's coming throw decided at the end of
//! the turn before it, so that the player can see it.
//!
//! With [`Preview::Colors`] only the colours are decided in advance; the
//! cells are drawn when the chips are thrown, as without a preview. With
//! [`Preview::Cells`] (Color Lines 98) the cells are decided too. A chip
//! whose planned cell holds a chip when the throw comes (the player moved
//! one there) lands on another empty cell, drawn at random among those no
//! other chip of the throw is planned for. Removals never change the plan:
//! a line the player completes empties cells, which stay empty until the
//! throw, and a line the throw itself completes is removed before the next
//! throw is planned, so that one is planned on the board as it is then.

use std::fmt;
use std::str::FromStr;

use rand_chacha::ChaCha8Rng;

use crate::board::{self, Board, Chip, Color, Pos};

/// How much of the computer's next throw the player is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Preview {
    /// Nothing: the original game. Throws draw from the generator exactly
    /// as they always have, so a `--seed` game replays.
    #[default]
    Off,
    /// The colours of the coming throw.
    Colors,
    /// The colours and the cells they will land on (Color Lines 98).
    Cells,
}

impl Preview {
    /// The names accepted by `--preview` and the config key, in order.
    pub const NAMES: [&'static str; 3] = ["off", "colors", "cells"];

    /// The name `--preview` takes for this mode.
    pub fn name(self) -> &'static str {
        match self {
            Preview::Off => Preview::NAMES[0],
            Preview::Colors => Preview::NAMES[1],
            Preview::Cells => Preview::NAMES[2],
        }
    }
}

impl fmt::Display for Preview {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preview {
    type Err = String;

    fn from_str(text: &str) -> Result<Preview, String> {
        match text {
            "off" => Ok(Preview::Off),
            "colors" => Ok(Preview::Colors),
            "cells" => Ok(Preview::Cells),
            _ => Err(format!(
                "the preview must be {} (nothing), {} or {}",
                Preview::NAMES[0],
                Preview::NAMES[1],
                Preview::NAMES[2]
            )),
        }
    }
}

/// One chip of the computer's next throw, decided in advance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Planned {
    /// Its colour.
    pub color: Color,
    /// The cell it is planned to land on ([`Preview::Cells`]); `None` when
    /// only its colour is decided, or when the board had no room left for
    /// it when the throw was planned.
    pub pos: Option<Pos>,
}

/// Decides the next throw of `count` chips. [`Preview::Cells`] draws the
/// cells first, as a throw does (as many as there are empty cells), then
/// one colour per chip.
pub(super) fn plan(
    board: &Board,
    preview: Preview,
    rng: &mut ChaCha8Rng,
    count: usize,
    colors: Color,
) -> Vec<Planned> {
    // The draws of `choose_cells` over the list of empty cells, without
    // listing them when the throw is small: a turn costs the chips thrown,
    // not the board.
    let cells = match preview {
        Preview::Cells => board.choose_empty(rng, count),
        Preview::Off | Preview::Colors => Vec::new(),
    };
    (0..count)
        .map(|i| Planned {
            pos: cells.get(i).map(|&index| board.pos(index as usize)),
            color: 1 + board::below(rng, u64::from(colors)) as Color,
        })
        .collect()
}

/// Throws the planned chips: each on its planned cell while that is empty,
/// the others on distinct random empty cells no other chip is planned for.
/// Returns `None`, changing nothing, when fewer cells are empty than chips
/// are planned.
pub(super) fn throw(
    board: &mut Board,
    rng: &mut ChaCha8Rng,
    plan: &[Planned],
) -> Option<Vec<Chip>> {
    if plan.len() > board.free() {
        return None;
    }
    let kept: Vec<Option<Pos>> = plan
        .iter()
        .map(|p| p.pos.filter(|&pos| board.get(pos).is_none()))
        .collect();
    // The chips that keep their cells land first, so that the empty cells
    // left are exactly those no chip keeps: `choose_empty` then draws the
    // others' cells as `choose_cells` over the list of those cells would,
    // and a turn costs the chips thrown, not the board.
    for (planned, pos) in plan.iter().zip(&kept) {
        if let Some(pos) = *pos {
            board.set(pos, Some(planned.color));
        }
    }
    let homeless = kept.iter().filter(|pos| pos.is_none()).count();
    let mut drawn = board.choose_empty(rng, homeless).into_iter();
    let chips: Vec<Chip> = plan
        .iter()
        .zip(kept)
        .map(|(planned, pos)| Chip {
            pos: pos.unwrap_or_else(|| {
                board.pos(
                    drawn
                        .next()
                        .expect("the board holds a cell for every homeless chip")
                        as usize,
                )
            }),
            color: planned.color,
        })
        .collect();
    // Setting a kept chip again changes nothing.
    for chip in &chips {
        board.set(chip.pos, Some(chip.color));
    }
    Some(chips)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Event, Game, Rules};

    /// The row-major indices of the empty cells, the list that the throws
    /// once drew from.
    fn empty_indices(board: &Board) -> Vec<usize> {
        board.empty_cells().map(|pos| board.index(pos)).collect()
    }

    fn at(x: usize, y: usize) -> Pos {
        Pos::new(x, y)
    }

    /// A game under `preview` whose board holds exactly `chips`, as
    /// `(x, y, colour)`, with the next throw planned on that board.
    fn game_with(preview: Preview, seed: u64, chips: &[(usize, usize, Color)]) -> Game {
        let (mut game, _) = Game::with_preview(Rules::default(), preview, seed);
        game.clear();
        for &(x, y, color) in chips {
            game.put(at(x, y), Some(color)).unwrap();
        }
        let planned = plan(
            &game.board,
            preview,
            &mut game.rng,
            game.rules.next,
            game.rules.colors,
        );
        game.plan = Some(planned.into());
        game
    }

    fn thrown(events: &[Event]) -> Vec<Chip> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Thrown(chips) => Some(chips.clone()),
                _ => None,
            })
            .flatten()
            .collect()
    }

    /// A move from `from` that removes nothing: to the first empty cell
    /// the chip can reach that is not in `avoid`.
    fn quiet_target(game: &Game, from: Pos, avoid: &[Pos]) -> Pos {
        game.board()
            .empty_cells()
            .find(|&to| !avoid.contains(&to) && game.check_move(from, to).is_ok())
            .expect("a free cell")
    }

    #[test]
    fn names_round_trip_and_bad_names_say_what_is_accepted() {
        for name in Preview::NAMES {
            assert_eq!(name.parse::<Preview>().unwrap().name(), name);
        }
        let error = "color".parse::<Preview>().unwrap_err();
        assert!(error.contains("off") && error.contains("colors") && error.contains("cells"));
        assert_eq!(Preview::default(), Preview::Off);
    }

    #[test]
    fn without_a_preview_nothing_is_planned_and_the_game_is_the_original() {
        for seed in 0..20 {
            let (mut game, opening) = Game::with_preview(Rules::default(), Preview::Off, seed);
            let (mut original, original_opening) = Game::new(Rules::default(), seed);
            assert_eq!((&game, &opening), (&original, &original_opening));
            assert!(game.planned().is_empty());
            let from = game.board().chips().next().unwrap().pos;
            let to = quiet_target(&game, from, &[]);
            assert_eq!(game.play(from, to), original.play(from, to));
            assert!(game.planned().is_empty());
        }
    }

    #[test]
    fn colours_are_planned_and_then_thrown_in_that_order() {
        for seed in 0..20 {
            let (mut game, opening) = Game::with_preview(Rules::default(), Preview::Colors, seed);
            assert_eq!(thrown(&opening).len(), 3, "the opening is not previewed");
            let planned = game.planned().to_vec();
            assert_eq!(planned.len(), 3);
            assert!(
                planned
                    .iter()
                    .all(|p| p.pos.is_none() && (1..=5).contains(&p.color))
            );
            let from = game.board().chips().next().unwrap().pos;
            let to = quiet_target(&game, from, &[]);
            let turn = game.play(from, to).unwrap();
            let colors: Vec<Color> = thrown(&turn.events).iter().map(|c| c.color).collect();
            let expected: Vec<Color> = planned.iter().map(|p| p.color).collect();
            assert_eq!(colors, expected);
            assert_eq!(game.planned().len(), 3, "the next throw is planned");
        }
    }

    #[test]
    fn planned_cells_are_empty_and_a_quiet_move_elsewhere_throws_exactly_the_plan() {
        for seed in 0..20 {
            let (mut game, _) = Game::with_preview(Rules::default(), Preview::Cells, seed);
            let planned = game.planned().to_vec();
            let cells: Vec<Pos> = planned.iter().map(|p| p.pos.unwrap()).collect();
            assert!(cells.iter().all(|&pos| game.board().get(pos).is_none()));
            let mut distinct = cells.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), 3);
            let from = game.board().chips().next().unwrap().pos;
            let to = quiet_target(&game, from, &cells);
            let turn = game.play(from, to).unwrap();
            let expected: Vec<Chip> = planned
                .iter()
                .map(|p| Chip {
                    pos: p.pos.unwrap(),
                    color: p.color,
                })
                .collect();
            assert_eq!(thrown(&turn.events), expected);
        }
    }

    #[test]
    fn a_chip_moved_onto_a_planned_cell_sends_that_chip_of_the_throw_elsewhere() {
        for seed in 0..40 {
            let mut game = game_with(Preview::Cells, seed, &[(0, 0, 1), (8, 8, 2)]);
            let planned = game.planned().to_vec();
            let cells: Vec<Pos> = planned.iter().map(|p| p.pos.unwrap()).collect();
            let target = cells[1];
            let turn = game.play(at(0, 0), target).unwrap();
            let chips = thrown(&turn.events);
            assert_eq!(chips.len(), 3);
            assert_eq!(
                chips[0],
                Chip {
                    pos: cells[0],
                    color: planned[0].color
                }
            );
            assert_eq!(
                chips[2],
                Chip {
                    pos: cells[2],
                    color: planned[2].color
                }
            );
            assert_eq!(chips[1].color, planned[1].color, "the colour stays");
            assert!(!cells.contains(&chips[1].pos), "{seed}: lands elsewhere");
            assert_eq!(game.board().get(target), Some(1), "the player's chip stays");
            assert_eq!(game.board().get(chips[1].pos), Some(planned[1].color));
        }
    }

    #[test]
    fn a_scoring_move_keeps_the_plan() {
        // Four 1s on row 0; the fifth comes from (4, 2).
        let setup = [
            (0, 0, 1),
            (1, 0, 1),
            (2, 0, 1),
            (3, 0, 1),
            (4, 2, 1),
            (8, 8, 2),
        ];
        for preview in [Preview::Colors, Preview::Cells] {
            let mut game = game_with(preview, 3, &setup);
            let planned = game.planned().to_vec();
            let turn = game.play(at(4, 2), at(4, 0)).unwrap();
            assert_eq!(turn.removed, 5);
            assert!(thrown(&turn.events).is_empty());
            assert_eq!(game.planned(), planned);
        }
    }

    #[test]
    fn the_game_ends_when_the_plan_finds_no_room_and_lines_the_throw_forms_go_first() {
        // A 5 × 1 board of one colour: every throw of 5 fills the row, which
        // is removed at once, so the next throw is planned on an empty row.
        let rules = Rules {
            width: 5,
            height: 1,
            colors: 1,
            line: 5,
            next: 5,
            first: 4,
        };
        let (mut game, _) = Game::with_preview(rules, Preview::Cells, 1);
        assert_eq!(game.planned().iter().filter(|p| p.pos.is_some()).count(), 1);
        let to = game.board().empty_cells().next().unwrap();
        let from = game
            .board()
            .chips()
            .map(|c| c.pos)
            .find(|&from| game.check_move(from, to).is_ok())
            .unwrap();
        // Five chips planned, one cell free after the move: no room.
        let turn = game.play(from, to).unwrap();
        assert_eq!(turn.events.last(), Some(&Event::GameOver));
        assert!(
            game.planned().is_empty(),
            "nothing is planned after the end"
        );

        // Row 0 is 1 1 1 1 _ and the plan puts a 1 in the gap: the throw
        // completes the line, which is removed before the next plan.
        let setup = [(0, 0, 1), (1, 0, 1), (2, 0, 1), (3, 0, 1), (0, 5, 2)];
        let mut game = game_with(Preview::Cells, 4, &setup);
        let planned = [(4, 0, 1), (8, 8, 2), (8, 7, 3)].map(|(x, y, color)| Planned {
            color,
            pos: Some(at(x, y)),
        });
        game.plan = Some(planned.into());
        let turn = game.play(at(0, 5), at(0, 6)).unwrap();
        assert!(matches!(
            &turn.events[2],
            Event::Removed { chips, by: crate::game::Actor::Computer, .. } if chips.len() == 5
        ));
        assert_eq!(game.board().chip_count(), 3);
        let next = game.planned();
        assert_eq!(next.len(), 3);
        assert!(
            next.iter()
                .all(|p| game.board().get(p.pos.unwrap()).is_none())
        );
    }

    #[test]
    fn with_too_little_room_some_chips_have_no_cell_until_lines_clear_room() {
        // 3 × 3, lines of 3; the plan is made with two empty cells.
        let rules = Rules {
            width: 3,
            height: 3,
            colors: 3,
            line: 3,
            next: 3,
            first: 1,
        };
        let (mut game, _) = Game::with_preview(rules, Preview::Cells, 2);
        game.clear();
        let rows = [[1, 1, 0], [2, 3, 0], [3, 2, 1]];
        for (y, row) in rows.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                game.put(at(x, y), (c > 0).then_some(c)).unwrap();
            }
        }
        game.plan = Some(plan(&game.board, Preview::Cells, &mut game.rng, 3, 3).into());
        assert_eq!(game.planned().iter().filter(|p| p.pos.is_some()).count(), 2);
        // The 1 at (2, 2) stepping up leaves row 0 incomplete: the throw
        // finds two cells for three chips.
        let mut lost = game.clone();
        let turn = lost.play(at(2, 2), at(2, 1)).unwrap();
        assert_eq!(turn.events.last(), Some(&Event::GameOver));
        // Completing row 0 clears three cells: the throw fits.
        let turn = game.play(at(2, 2), at(2, 0)).unwrap();
        assert_eq!(turn.removed, 3);
        let quiet = game.play(at(0, 1), at(0, 0)).unwrap();
        assert_eq!(thrown(&quiet.events).len(), 3);
    }

    /// On a board big enough that the plan draws without listing the empty
    /// cells, it draws as from their list, also where the throw does not
    /// fit: seeded games replay as they did when the plan listed them.
    #[test]
    fn a_plan_on_a_big_board_draws_as_from_the_list_of_empty_cells() {
        use rand_core::SeedableRng;
        for empty in [2, 3, 40] {
            let mut board = Board::new(30, 30);
            for i in empty..board.len() {
                // The empty cells spread over the board.
                let cell = (i * 7) % board.len();
                board.set(board.pos(cell), Some(1 + (i % 5) as Color));
            }
            assert_eq!(board.free(), empty);
            let mut drawn = ChaCha8Rng::seed_from_u64(7);
            let planned = plan(&board, Preview::Cells, &mut drawn, 3, 5);
            let mut listed = ChaCha8Rng::seed_from_u64(7);
            let mut pool = empty_indices(&board);
            let cells = board::choose_cells(&mut listed, &mut pool, 3);
            let expected: Vec<Planned> = (0..3)
                .map(|i| Planned {
                    pos: cells.get(i).map(|&cell| board.pos(cell)),
                    color: 1 + board::below(&mut listed, 5) as Color,
                })
                .collect();
            assert_eq!(planned, expected, "{empty} empty cells");
        }
    }

    /// Where some chips keep their planned cells and others were moved
    /// onto, the others' cells are drawn without listing the empty cells,
    /// as from the list of those no chip keeps: seeded games replay as they
    /// did when the throw listed them. Boards small enough to list and big
    /// enough not to, with one or two chips displaced.
    #[test]
    fn a_throw_with_some_cells_taken_draws_as_from_the_list_of_cells_left() {
        use rand_core::{Rng, SeedableRng};
        for (side, empty) in [(9, 20), (30, 4), (30, 40), (100, 5000)] {
            for displaced in [1, 2] {
                for seed in 0..8 {
                    let mut board = Board::new(side, side);
                    let len = board.len();
                    for i in empty..len {
                        // The empty cells spread over the board.
                        let cell = (i * 7) % len;
                        board.set(board.pos(cell), Some(1 + (i % 5) as Color));
                    }
                    let chips: Vec<usize> = (0..len).filter(|&i| board.cells()[i] != 0).collect();
                    let holes = empty_indices(&board);
                    // Chip 0 (and 1) planned on a cell that now holds a
                    // chip, the others on empty cells spread over the board.
                    let plan: Vec<Planned> = (0..4)
                        .map(|i| {
                            let cell = if i < displaced {
                                chips[(seed as usize * 13 + i * 5) % chips.len()]
                            } else {
                                holes[(seed as usize * 3 + i * holes.len() / 4) % holes.len()]
                            };
                            Planned {
                                color: 1 + i as Color,
                                pos: Some(board.pos(cell)),
                            }
                        })
                        .collect();
                    let mut after = board.clone();
                    let mut rng = ChaCha8Rng::seed_from_u64(seed);
                    let thrown = throw(&mut after, &mut rng, &plan).unwrap();

                    // The listing method: every empty cell no chip keeps.
                    let mut listed = ChaCha8Rng::seed_from_u64(seed);
                    let taken: Vec<usize> = plan[displaced..]
                        .iter()
                        .map(|p| board.index(p.pos.unwrap()))
                        .collect();
                    let mut pool: Vec<usize> = holes
                        .iter()
                        .copied()
                        .filter(|i| !taken.contains(i))
                        .collect();
                    let mut drawn =
                        board::choose_cells(&mut listed, &mut pool, displaced).into_iter();
                    let expected: Vec<Chip> = plan
                        .iter()
                        .enumerate()
                        .map(|(i, p)| Chip {
                            pos: if i < displaced {
                                board.pos(drawn.next().unwrap())
                            } else {
                                p.pos.unwrap()
                            },
                            color: p.color,
                        })
                        .collect();
                    let case =
                        format!("{side}x{side}, {empty} empty, {displaced} displaced, seed {seed}");
                    assert_eq!(thrown, expected, "{case}");
                    assert_eq!(rng.next_u64(), listed.next_u64(), "{case}: as many draws");
                    assert_eq!(after.free(), empty - 4, "{case}");
                    assert!(thrown.iter().all(|c| after.get(c.pos) == Some(c.color)));
                }
            }
        }
    }

    #[test]
    fn the_same_seed_previews_and_plays_the_same_game() {
        for preview in [Preview::Colors, Preview::Cells] {
            let (mut a, _) = Game::with_preview(Rules::default(), preview, 9);
            let (mut b, _) = Game::with_preview(Rules::default(), preview, 9);
            for _ in 0..10 {
                assert_eq!(a.planned(), b.planned());
                let from = a.board().chips().next().unwrap().pos;
                let to = quiet_target(&a, from, &[]);
                assert_eq!(a.play(from, to), b.play(from, to));
            }
        }
    }
}
