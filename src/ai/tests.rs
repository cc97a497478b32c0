use super::evaluation::orphans;
use super::geometry::Geometry;
use super::position::Position;
use super::*;

fn rules_for(board: &Board, colors: Color) -> Rules {
    Rules {
        width: board.width(),
        height: board.height(),
        colors,
        ..Rules::default()
    }
}

/// Every legal move, and whether it removes chips, by the real engine.
fn scoring_moves(board: &Board, rules: Rules) -> Vec<Move> {
    let mut scoring = Vec::new();
    for from in board.chips().map(|c| c.pos) {
        for to in board.empty_cells() {
            if !board.reachable(from, to) {
                continue;
            }
            let mut game = game_at(board, rules);
            if game.play(from, to).expect("reachable").removed > 0 {
                scoring.push(Move { from, to });
            }
        }
    }
    scoring
}

/// A game under `rules` whose board is `board`.
fn game_at(board: &Board, rules: Rules) -> crate::game::Game {
    let (mut game, _) = crate::game::Game::new(rules, 0);
    game.clear();
    for chip in board.chips() {
        game.put(chip.pos, Some(chip.color)).expect("on the board");
    }
    game
}

#[test]
fn takes_the_only_scoring_move() {
    let boards = [
        Board::from_rows(&[
            "1111.....",
            "22.3..2..",
            ".........",
            "..3...2..",
            ".2....3..",
            ".........",
            "3....2...",
            "......3..",
            "........1",
        ]),
        Board::from_rows(&[
            "2.3.2.3.2",
            ".3.2.3.2.",
            "4....4...",
            ".4.......",
            "..4...1..",
            ".........",
            "..5.4...5",
            "3.......2",
            "2.3.2.3.1",
        ]),
    ];
    for board in boards {
        let rules = rules_for(&board, 5);
        let scoring = scoring_moves(&board, rules);
        assert_eq!(scoring.len(), 1, "one scoring move on {board:?}");
        for seed in 0..4 {
            assert_eq!(hint(&board, rules, seed), Some(scoring[0]));
        }
        let mut greedy = Player::with_budget(rules, Budget::greedy());
        assert_eq!(greedy.choose(&board, 0), Some(scoring[0]));
    }
}

#[test]
fn same_board_and_seed_give_the_same_move() {
    let rules = Rules {
        colors: 7,
        ..Rules::default()
    };
    let (mut game, _) = crate::game::Game::new(rules, 11);
    let mut reused = Player::new(rules);
    for turn in 0..30 {
        let chosen = reused.choose(game.board(), turn);
        assert_eq!(chosen, Player::new(rules).choose(game.board(), turn));
        assert_eq!(chosen, reused.choose(game.board(), turn));
        let Some(chosen) = chosen else { break };
        game.play(chosen.from, chosen.to).expect("legal");
        if game.is_over() {
            break;
        }
    }
}

#[test]
fn a_player_can_work_on_another_thread() {
    let rules = Rules::default();
    let (game, _) = crate::game::Game::new(rules, 3);
    let board = game.board().clone();
    let mut player = Player::new(rules);
    let expected = player.choose(&board, 1);
    let worker = std::thread::spawn(move || player.choose(&board, 1));
    assert_eq!(worker.join().expect("the player does not panic"), expected);
}

#[test]
fn board_seed_depends_on_the_board_and_the_game_seed() {
    let a = Board::from_rows(&["12.", "..3"]);
    let b = Board::from_rows(&["21.", "..3"]);
    assert_eq!(board_seed(&a, 9), board_seed(&a.clone(), 9));
    assert_ne!(board_seed(&a, 9), board_seed(&b, 9));
    assert_ne!(board_seed(&a, 9), board_seed(&a, 10));
}

#[test]
fn no_move_without_a_chip_or_an_empty_cell() {
    let rules = Rules {
        width: 3,
        height: 2,
        ..Rules::default()
    };
    assert_eq!(hint(&Board::new(3, 2), rules, 1), None);
    assert_eq!(hint(&Board::from_rows(&["123", "451"]), rules, 1), None);
    let one = Board::from_rows(&["..1", "..."]);
    let chosen = hint(&one, rules, 1).expect("a chip beside empty cells");
    assert!(one.reachable(chosen.from, chosen.to));
}

#[test]
fn big_boards_still_get_a_legal_move() {
    let rules = Rules {
        width: 300,
        height: 200,
        colors: 35,
        line: 7,
        ..Rules::default()
    };
    let (game, _) = crate::game::Game::new(
        Rules {
            first: 20_000,
            ..rules
        },
        5,
    );
    let chosen = hint(game.board(), rules, 2).expect("chips and empty cells");
    assert!(game.board().reachable(chosen.from, chosen.to));
}

proptest::proptest! {
    #[test]
    fn the_move_is_always_legal(
        width in 1usize..12,
        height in 1usize..12,
        colors in 1u8..10,
        line in 2usize..8,
        next in 0usize..5,
        fill in proptest::collection::vec(0u8..10, 144),
        seed: u64,
    ) {
        let rules = Rules { width, height, colors, line, next: next.min(width * height), first: 1 };
        let mut board = Board::new(width, height);
        for (i, &c) in fill.iter().take(width * height).enumerate() {
            // About half the cells empty; colours within the rules.
            if c >= 5 {
                board.set(board.pos(i), Some(1 + (c - 5) % colors));
            }
        }
        let chosen = hint(&board, rules, seed);
        if board.chip_count() == 0 || board.free() == 0 {
            proptest::prop_assert_eq!(chosen, None);
        } else {
            let chosen = chosen.expect("a move exists");
            proptest::prop_assert!(board.reachable(chosen.from, chosen.to), "{:?}", chosen);
        }
    }
}

#[test]
fn tallies_follow_changes() {
    let board = Board::from_rows(&["11.2.", ".1...", "..1..", "...1.", "....2"]);
    let rules = rules_for(&board, 2);
    let geometry = Geometry::new(&rules);
    let mut position = Position::new(&geometry);
    position.load(&geometry, &board);
    let mut changed = position.clone();
    changed.set(&geometry, 0, 0);
    changed.set(&geometry, 2, 2);
    changed.set(&geometry, 24, 0);
    changed.set(&geometry, 24, 1);
    let mut expected_board = board.clone();
    expected_board.set(Pos::new(0, 0), None);
    expected_board.set(Pos::new(2, 0), Some(2));
    expected_board.set(Pos::new(4, 4), Some(1));
    let mut expected = Position::new(&geometry);
    expected.load(&geometry, &expected_board);
    assert_eq!(changed.count, expected.count);
    assert_eq!(changed.color, expected.color);
    assert_eq!(changed.free, expected.free);
    assert!((changed.potential - expected.potential).abs() < 1e-9);
}

#[test]
fn orphans_are_chips_in_no_budding_line() {
    let board = Board::from_rows(&["1.2..", ".....", "..11.", ".....", "....3"]);
    let rules = rules_for(&board, 3);
    let geometry = Geometry::new(&rules);
    let mut position = Position::new(&geometry);
    position.load(&geometry, &board);
    // The 1 in the corner, the 2 and the 3; the pair of 1s is a line.
    assert_eq!(orphans(&geometry, &position), 3);
    // A 1 in the far corner joins the corner 1 on the diagonal.
    position.set(&geometry, 24, 1);
    assert_eq!(orphans(&geometry, &position), 1);
}
