//! Taking back the player's moves.
//!
//! Each accepted move leaves a [`Record`] of what it changed: the cells, in
//! order, with what they held before, and the game's state before it
//! (score, streak, plan and the generator's position). Undoing restores the
//! cells in reverse order and the state as it was, so the same move then
//! brings the same throw again.
//!
//! Records hold changes rather than boards: a move changes its two ends,
//! the chips removed and the chips thrown, and the generator is kept as its
//! 16-byte position in the ChaCha stream, not as its 300-byte state. The
//! planned throw of a preview is shared, not copied: it stands from one
//! throw to the next, so the records of the moves made meanwhile all hold
//! the one plan. A record costs about 125 bytes on a 9 × 9 board as on a
//! 1000 × 1000 one, whose whole board would be a megabyte, plus 8 bytes a
//! cell its move changed; a move that throws also keeps the plan it threw,
//! 32 bytes a chip. So the history grows with the chips moved, removed and
//! thrown, not with the moves made while a plan stands, and is not capped.

use std::sync::Arc;

use crate::board::{Board, Color};

use super::{Event, Planned};

/// One accepted move, as undo needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Record {
    /// Cells the move changed, as (row-major index, colour before, 0 for
    /// empty), in the order they changed.
    cells: Vec<(u32, Color)>,
    /// The state before the move.
    pub(super) score: u64,
    pub(super) streak: u32,
    pub(super) over: bool,
    pub(super) word_pos: u128,
    pub(super) plan: Option<Arc<[Planned]>>,
}

impl Record {
    /// A record of the state before a move; its cells come with
    /// [`Record::changed`].
    pub(super) fn before(
        score: u64,
        streak: u32,
        over: bool,
        word_pos: u128,
        plan: Option<Arc<[Planned]>>,
    ) -> Record {
        Record {
            cells: Vec::new(),
            score,
            streak,
            over,
            word_pos,
            plan,
        }
    }

    /// Notes the cells `events` changed on `board`, in order. The events
    /// say everything a move changes: the chip leaving its cell and taking
    /// another, removed chips leaving theirs, thrown chips filling empty
    /// ones.
    pub(super) fn changed(&mut self, board: &Board, events: &[Event]) {
        let index = |pos| board.index(pos) as u32;
        for event in events {
            match event {
                Event::Moved { path, color } => {
                    if let (Some(&from), Some(&to)) = (path.first(), path.last()) {
                        self.cells.push((index(from), *color));
                        self.cells.push((index(to), 0));
                    }
                }
                Event::Removed { chips, .. } => {
                    self.cells
                        .extend(chips.iter().map(|c| (index(c.pos), c.color)));
                }
                Event::Thrown(chips) => {
                    self.cells.extend(chips.iter().map(|c| (index(c.pos), 0)));
                }
                Event::GameOver => {}
            }
        }
        self.cells.shrink_to_fit();
    }

    /// Puts every changed cell back as it was before the move.
    pub(super) fn restore_cells(&self, board: &mut Board) {
        for &(index, color) in self.cells.iter().rev() {
            let pos = board.pos(index as usize);
            board.set(pos, (color != 0).then_some(color));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use proptest::prelude::*;

    use crate::board::Pos;
    use crate::game::{Game, NothingToUndo, Preview, Rules};

    /// The legal moves on the board, in a fixed order.
    fn legal_moves(game: &Game) -> Vec<(Pos, Pos)> {
        let board = game.board();
        let mut moves = Vec::new();
        for chip in board.chips() {
            for to in board.empty_cells() {
                if board.reachable(chip.pos, to) {
                    moves.push((chip.pos, to));
                }
            }
        }
        moves
    }

    fn preview() -> impl Strategy<Value = Preview> {
        prop_oneof![
            Just(Preview::Off),
            Just(Preview::Colors),
            Just(Preview::Cells)
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Moves and undos in any order: each undo leaves the game exactly
        /// as it was before the move it takes back (the generator and the
        /// plan included), and the same move then plays out the same way.
        #[test]
        fn undo_restores_the_game_before_the_move(
            seed in any::<u64>(),
            preview in preview(),
            side in 3usize..8,
            line in 3usize..5,
            choices in proptest::collection::vec((any::<prop::sample::Index>(), 0u8..4), 1..60),
        ) {
            let rules = Rules { width: side, height: side, colors: 3, line, next: 3, first: 3 };
            let (mut game, _) = Game::with_preview(rules, preview, seed);
            let opening = game.clone();
            let mut before: Vec<(Game, (Pos, Pos))> = Vec::new();
            for (choice, kind) in choices {
                if kind == 0 {
                    match before.pop() {
                        Some((earlier, (from, to))) => {
                            let mut replayed = earlier.clone();
                            let again = replayed.play(from, to);
                            prop_assert_eq!(game.undo(), Ok(()));
                            prop_assert_eq!(&game, &earlier);
                            let mut undone = game.clone();
                            prop_assert_eq!(undone.play(from, to), again);
                            prop_assert_eq!(&undone, &replayed);
                        }
                        None => {
                            prop_assert_eq!(game.undo(), Err(NothingToUndo));
                            prop_assert_eq!(&game, &opening);
                        }
                    }
                    continue;
                }
                let moves = legal_moves(&game);
                if game.is_over() || moves.is_empty() {
                    continue;
                }
                let chosen = moves[choice.index(moves.len())];
                before.push((game.clone(), chosen));
                game.play(chosen.0, chosen.1).expect("a legal move");
                prop_assert_eq!(game.undoable(), before.len());
            }
            while let Some((earlier, _)) = before.pop() {
                prop_assert_eq!(game.undo(), Ok(()));
                prop_assert_eq!(&game, &earlier);
            }
            prop_assert_eq!(&game, &opening);
        }
    }

    #[test]
    fn a_game_from_its_state_plays_on_the_same() {
        for preview in [Preview::Off, Preview::Colors, Preview::Cells] {
            let (mut game, _) = Game::with_preview(Rules::default(), preview, 11);
            for _ in 0..5 {
                let (from, to) = legal_moves(&game)[0];
                game.play(from, to).unwrap();
            }
            let mut copy = Game::from_state(game.state()).unwrap();
            assert_eq!(copy.undoable(), 0);
            assert_eq!(copy.state(), game.state());
            for _ in 0..5 {
                let (from, to) = legal_moves(&game)[0];
                assert_eq!(copy.play(from, to), game.play(from, to));
            }
            assert_eq!(copy.state(), game.state());
        }
    }

    #[test]
    fn impossible_states_are_refused() {
        let (game, _) = Game::with_preview(Rules::default(), Preview::Cells, 12);
        let state = game.state();
        let refused = |change: &dyn Fn(&mut crate::game::GameState), says: &str| {
            let mut bad = state.clone();
            change(&mut bad);
            let error = Game::from_state(bad).unwrap_err();
            assert!(error.contains(says), "{error:?} lacks {says:?}");
        };
        refused(
            &|s| s.cells.pop().map(drop).unwrap_or(()),
            "80 cells, where a 9x9 board has 81",
        );
        refused(
            &|s| s.cells[0] = 6,
            "colour 6, where the colours are 1 to 5 (0 for an empty cell)",
        );
        refused(&|s| s.rules.width = 0, "width");
        refused(&|s| s.plan = None, "no planned throw");
        refused(
            &|s| s.plan.as_mut().unwrap().pop().map(drop).unwrap_or(()),
            "2 planned chips, where the rules throw 3",
        );
        refused(
            &|s| s.plan.as_mut().unwrap()[0].color = 0,
            "planned colour 0, where the colours are 1 to 5",
        );
        refused(
            &|s| s.plan.as_mut().unwrap()[0].pos = Some(Pos::new(9, 0)),
            "planned cell 9 0, off the board",
        );
        refused(
            &|s| {
                let plan = s.plan.as_mut().unwrap();
                plan[1].pos = plan[0].pos;
            },
            "planned twice",
        );
        refused(
            &|s| s.preview = Preview::Colors,
            "with a preview of colours only",
        );
        refused(&|s| s.preview = Preview::Off, "without a preview");
        // Three scoring moves in a row earn at least 3 × 5 chips and the
        // bonuses 0 + 1 + 4; a huge streak would overflow the score.
        refused(
            &|s| (s.score, s.streak) = (19, 3),
            "a streak of 3 scoring moves with a score of 19, where such a streak scores at \
             least 20",
        );
        refused(
            &|s| (s.score, s.streak) = (i64::MAX as u64, u32::MAX),
            "a streak of 4294967295",
        );
        // A position past the end of the generator's stream, which it
        // would take as one near its start: no game reaches it.
        refused(
            &|s| s.word_pos = 1 << 68,
            "generator position 295147905179352825856, where the positions are 0 to \
             295147905179352825855",
        );
        // A game that is over plans no throw.
        refused(
            &|s| s.over = true,
            "a planned throw in a game that is over, where a game plans none once it ends",
        );
        // Lines go as they form: a board never holds one.
        refused(
            &|s| s.cells[9..14].fill(2),
            "a line of 5 or more chips of colour 2 through cell 0 1, where the board holds \
             only shorter ones",
        );
        // A game going on has a chip to move and a cell to move it to.
        refused(&|s| s.cells.fill(1), "no move to make");
        refused(&|s| s.cells.fill(0), "no move to make");
        let mut streak = state.clone();
        (streak.score, streak.streak) = (20, 3);
        assert!(Game::from_state(streak).is_ok());
        assert!(Game::from_state(state).is_ok());
    }

    #[test]
    fn undo_takes_back_the_end_of_the_game() {
        let rules = Rules {
            width: 3,
            height: 3,
            colors: 5,
            line: 4,
            next: 3,
            first: 6,
        };
        let (mut game, _) = Game::new(rules, 1);
        let before = game.clone();
        let (from, to) = legal_moves(&game)[0];
        let turn = game.play(from, to).unwrap();
        assert!(game.is_over(), "{:?}", turn.events);
        game.undo().unwrap();
        assert!(!game.is_over());
        assert_eq!(game, before);
    }

    #[test]
    fn setting_up_the_board_forgets_the_moves_before() {
        let (mut game, _) = Game::new(Rules::default(), 2);
        let (from, to) = legal_moves(&game)[0];
        game.play(from, to).unwrap();
        let (from, to) = legal_moves(&game)[0];
        game.play(from, to).unwrap();
        assert_eq!(game.undoable(), 2);
        game.put(Pos::new(0, 0), Some(1)).unwrap();
        assert_eq!(game.undoable(), 0);
        let (from, to) = legal_moves(&game)[0];
        game.play(from, to).unwrap();
        game.clear();
        assert_eq!(game.undo(), Err(NothingToUndo));
    }

    /// A plan stands until the next throw, however many scoring moves come
    /// before it: the records of those moves keep that one plan, not a
    /// copy each, so with a throw of 100,000 chips the history does not
    /// grow by the throw's size at every move.
    #[test]
    fn the_moves_made_while_a_plan_stands_share_it() {
        let rules = Rules {
            next: 20,
            ..Rules::default()
        };
        let (mut game, _) = Game::with_preview(rules, Preview::Cells, 3);
        game.clear();
        for y in [0, 4] {
            for x in 0..4 {
                game.put(Pos::new(x, y), Some(1)).unwrap();
            }
            game.put(Pos::new(6, y + 1), Some(1)).unwrap();
        }
        game.put(Pos::new(8, 8), Some(2)).unwrap();
        let standing = game.plan.clone().expect("a planned throw");
        for (from, to) in [((6, 1), (4, 0)), ((6, 5), (4, 4)), ((8, 8), (8, 7))] {
            game.play(Pos::new(from.0, from.1), Pos::new(to.0, to.1))
                .unwrap();
        }
        assert_eq!(game.score(), 5 + 6, "two scoring moves, then a quiet one");
        assert_eq!(game.undoable(), 3);
        for record in &game.history {
            let plan = record.plan.as_ref().expect("a plan before each move");
            assert!(Arc::ptr_eq(plan, &standing), "a copy of the plan");
        }
        let next = game.plan.as_ref().expect("the next throw planned");
        assert!(!Arc::ptr_eq(next, &standing), "the throw made a new plan");
        assert_eq!(Arc::strong_count(&standing), 4, "three records and this");
    }
}
