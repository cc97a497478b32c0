use super::geometry::Geometry;
use super::position::Position;
use super::*;
use proptest::strategy::{Just, Strategy};

/// A budget that samples in several rounds of halving, cheap enough for
/// the many moves of a test in a debug build.
fn light_sampling() -> Budget {
    Budget {
        refined: 5,
        samples: 3,
        ..Budget::default()
    }
}

fn rules_for(board: &Board, colors: Color) -> Rules {
    Rules {
        width: board.width(),
        height: board.height(),
        colors,
        ..Rules::default()
    }
}

/// The legal moves that remove chips, by the real engine.
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
    let mut reused = Player::with_budget(rules, light_sampling());
    for turn in 0..30 {
        let chosen = reused.choose(game.board(), turn);
        assert_eq!(
            chosen,
            Player::with_budget(rules, light_sampling()).choose(game.board(), turn)
        );
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
        let chosen = Player::with_budget(rules, light_sampling()).choose(&board, seed);
        if board.chip_count() == 0 || board.free() == 0 {
            proptest::prop_assert_eq!(chosen, None);
        } else {
            let chosen = chosen.expect("a move exists");
            proptest::prop_assert!(board.reachable(chosen.from, chosen.to), "{:?}", chosen);
        }
    }
}

/// Rules for the property below: small boards of any shape, and the
/// 7-colour game on 9 × 9 that reads the learned table.
fn rules_with_and_without_the_table() -> impl Strategy<Value = Rules> {
    let small = crate::game::strategies::rules(
        1usize..9,
        1usize..9,
        1u8..9,
        2usize..6,
        0usize..5,
        1usize..20,
    );
    let learned = Just(Rules {
        colors: 7,
        ..Rules::default()
    });
    proptest::prop_oneof![3 => small, 1 => learned]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 24, ..Default::default() })]

    /// One player kept through a game, sampling on two threads, chooses
    /// each move as a player made for that position alone does on one:
    /// nothing it keeps between moves (its position, tallies, buffers,
    /// helpers) leaks into the next, whatever the preview shows.
    #[test]
    fn a_player_kept_through_a_game_chooses_as_a_fresh_one(
        rules in rules_with_and_without_the_table(),
        preview in crate::game::strategies::preview(),
        game_seed: u64,
        moves in 1usize..12,
    ) {
        let (mut game, _) = crate::game::Game::with_preview(rules, preview, game_seed);
        let mut kept = Player::with_budget(rules, light_sampling()).with_threads(2);
        for turn in 0..moves {
            if game.is_over() {
                break;
            }
            let seed = board_seed(game.board(), turn as u64);
            let chosen = kept.choose_seeing(game.board(), game.planned(), seed);
            let fresh = Player::with_budget(rules, light_sampling())
                .with_threads(1)
                .choose_seeing(game.board(), game.planned(), seed);
            proptest::prop_assert_eq!(chosen, fresh, "turn {}", turn);
            let Some(chosen) = chosen else { break };
            proptest::prop_assert!(game.board().reachable(chosen.from, chosen.to));
            game.play(chosen.from, chosen.to).expect("a legal move");
        }
    }
}

#[test]
fn tallies_follow_changes() {
    let board = Board::from_rows(&["11.2.", ".1...", "..1..", "...1.", "....2"]);
    let rules = rules_for(&board, 2);
    let geometry = Geometry::new(&rules, Weights::default());
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

/// Chips in no window holding two or more chips of their colour alone,
/// counted from the cells (the tallies kept by `Position` are not read).
fn scanned_orphans(geometry: &Geometry, position: &Position) -> usize {
    let supported = |cell: usize, color: Color| {
        let mut supported = false;
        geometry.windows_through(cell, |id, start| {
            let chips: Vec<Color> = geometry
                .window_cells(id, start)
                .map(|c| position.cells[c])
                .filter(|&c| c != 0)
                .collect();
            supported |= chips.len() >= 2 && chips.iter().all(|&c| c == color);
        });
        supported
    };
    (0..geometry.cell_count)
        .filter(|&cell| position.cells[cell] != 0 && !supported(cell, position.cells[cell]))
        .count()
}

#[test]
fn orphans_are_chips_in_no_budding_line() {
    let board = Board::from_rows(&["1.2..", ".....", "..11.", ".....", "....3"]);
    let rules = rules_for(&board, 3);
    let geometry = Geometry::new(&rules, Weights::default());
    let mut position = Position::new(&geometry);
    position.load(&geometry, &board);
    // The 1 in the corner, the 2 and the 3; the pair of 1s is a line.
    assert_eq!(position.orphans, 3);
    assert_eq!(scanned_orphans(&geometry, &position), 3);
    // A 1 in the far corner joins the corner 1 on the diagonal.
    position.set(&geometry, 24, 1);
    assert_eq!(position.orphans, 1);
    assert_eq!(scanned_orphans(&geometry, &position), 1);
}

proptest::proptest! {
    #[test]
    fn tallies_after_any_changes_equal_a_fresh_count(
        fill in proptest::collection::vec(0u8..5, 81),
        changes in proptest::collection::vec((0usize..81, 0u8..5), 1..40),
    ) {
        let mut board = board_of(&fill);
        let (geometry, mut changed) = loaded_with_scrambled_table(&board);
        for (cell, color) in changes {
            changed.set(&geometry, cell, color);
            board.set(board.pos(cell), (color != 0).then_some(color));
            let mut fresh = Position::new(&geometry);
            fresh.load(&geometry, &board);
            proptest::prop_assert_eq!(&changed.cells, &fresh.cells);
            proptest::prop_assert_eq!(&changed.count, &fresh.count);
            proptest::prop_assert_eq!(&changed.color, &fresh.color);
            proptest::prop_assert_eq!(changed.free, fresh.free);
            proptest::prop_assert_eq!(changed.potential.to_bits(), fresh.potential.to_bits());
            proptest::prop_assert_eq!(&changed.support, &fresh.support);
            proptest::prop_assert_eq!(changed.orphans, fresh.orphans);
            proptest::prop_assert_eq!(changed.orphans, scanned_orphans(&geometry, &changed));
            proptest::prop_assert_eq!(changed.learned, fresh.learned);
            let learned = geometry.learned.as_ref().expect("set above");
            proptest::prop_assert_eq!(changed.learned_value(&geometry).to_bits(), learned.total(&geometry, board.cells()).to_bits());
        }
    }
}

proptest::proptest! {
    /// Changes taken back to a mark, nested in another mark, leave the
    /// position as it was at each mark, learned value included, and the
    /// changes that follow still value the board as a fresh count does (so
    /// every window's tallies and learned values were restored too).
    #[test]
    fn changes_taken_back_to_a_mark_leave_the_position_as_it_was(
        fill in proptest::collection::vec(0u8..5, 81),
        outer in proptest::collection::vec((0usize..81, 0u8..5), 0..12),
        inner in proptest::collection::vec((0usize..81, 0u8..5), 1..12),
        after in proptest::collection::vec((0usize..81, 0u8..5), 1..12),
    ) {
        let mut board = board_of(&fill);
        let (geometry, mut position) = loaded_with_scrambled_table(&board);
        let at_first = tallies(&position);
        let outer_mark = position.mark();
        set_all(&geometry, &mut position, &outer);
        let at_second = tallies(&position);
        let inner_mark = position.mark();
        set_all(&geometry, &mut position, &inner);
        position.back_to(inner_mark);
        proptest::prop_assert_eq!(tallies(&position), at_second);
        position.back_to(outer_mark);
        proptest::prop_assert_eq!(tallies(&position), at_first);
        for &(cell, color) in &after {
            position.set(&geometry, cell, color);
            board.set(board.pos(cell), (color != 0).then_some(color));
        }
        let mut fresh = Position::new(&geometry);
        fresh.load(&geometry, &board);
        proptest::prop_assert_eq!(tallies(&position), tallies(&fresh));
    }
}

/// Going back to an outer mark while an inner one is open is caught at
/// once: the inner changes would stay logged for good.
#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "innermost first")]
fn marks_are_gone_back_to_innermost_first() {
    let (geometry, mut position) = loaded_with_scrambled_table(&board_of(&[0; 81]));
    let outer = position.mark();
    let _inner = position.mark();
    position.set(&geometry, 40, 1);
    position.back_to(outer);
}

/// A 9 × 9 board of these colours, row after row.
fn board_of(fill: &[Color]) -> Board {
    let rows: Vec<String> = fill
        .chunks(9)
        .map(|row| row.iter().copied().map(crate::board::color_char).collect())
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    Board::from_rows(&rows)
}

/// The geometry of `board` in the 4-colour game with lines of five, with
/// a scrambled table of three phases, and a position holding the board.
fn loaded_with_scrambled_table(board: &Board) -> (Geometry, Position) {
    let rules = rules_for(board, 4);
    let mut geometry = Geometry::new(&rules, Weights::default());
    geometry.learned = Some(super::value::tests::scrambled_phases(&geometry, 3));
    let mut position = Position::new(&geometry);
    position.load(&geometry, board);
    (geometry, position)
}

/// Sets each cell to its colour, in order.
fn set_all(geometry: &Geometry, position: &mut Position, changes: &[(usize, Color)]) {
    for &(cell, color) in changes {
        position.set(geometry, cell, color);
    }
}

/// What a position keeps of its board, to compare two.
#[derive(Debug, PartialEq)]
struct Tallies {
    cells: Vec<Color>,
    count: Vec<u16>,
    color: Vec<Color>,
    free: usize,
    potential: u64,
    support: Vec<u16>,
    orphans: usize,
    empty_bits: u128,
    learned: [i64; super::value::MAX_PHASES],
}

/// The tallies of `position`.
fn tallies(position: &Position) -> Tallies {
    Tallies {
        cells: position.cells.clone(),
        count: position.count.clone(),
        color: position.color.clone(),
        free: position.free,
        potential: position.potential.to_bits(),
        support: position.support.clone(),
        orphans: position.orphans,
        empty_bits: position.empty_bits,
        learned: position.learned,
    }
}

/// Window tallies counted from the cells: the chips, and their colour when
/// they are all one ([`MIXED`](super::position::MIXED) otherwise).
fn scanned_tallies(geometry: &Geometry, cells: &[Color]) -> (Vec<u16>, Vec<Color>) {
    let windows = 4 * geometry.cell_count;
    let (mut counts, mut colors) = (vec![0; windows], vec![0; windows]);
    for id in (0..windows).filter(|&id| geometry.valid[id]) {
        let chips: Vec<Color> = geometry
            .window_cells(id, id % geometry.cell_count)
            .map(|cell| cells[cell])
            .filter(|&c| c != 0)
            .collect();
        counts[id] = chips.len() as u16;
        colors[id] = match chips.first() {
            None => 0,
            Some(&first) if chips.iter().all(|&c| c == first) => first,
            Some(_) => super::position::MIXED,
        };
    }
    (counts, colors)
}

proptest::proptest! {
    /// With every colour a game may have, and windows as long as the
    /// evaluation reads them, the tallies kept from the windows' colour
    /// sums are those counted from the cells, and so are the empty cells'
    /// bits.
    #[test]
    fn tallies_of_any_colours_equal_those_counted_from_the_cells(
        (width, height) in (1usize..=12, 1usize..=12),
        line in 2usize..=9,
        changes in proptest::collection::vec((0usize..144, 0u8..=crate::board::MAX_COLORS), 1..120),
    ) {
        let rules = Rules {
            width,
            height,
            line,
            colors: crate::board::MAX_COLORS,
            ..Rules::default()
        };
        let geometry = Geometry::new(&rules, Weights::default());
        let mut position = Position::new(&geometry);
        let mut board = Board::new(width, height);
        position.load(&geometry, &board);
        for (cell, color) in changes {
            let cell = cell % geometry.cell_count;
            position.set(&geometry, cell, color);
            board.set(board.pos(cell), (color != 0).then_some(color));
            let (counts, colors) = scanned_tallies(&geometry, board.cells());
            proptest::prop_assert_eq!(&position.count, &counts);
            proptest::prop_assert_eq!(&position.color, &colors);
            if geometry.bit_masks.is_some() {
                let bits = (0..geometry.cell_count)
                    .filter(|&cell| board.cells()[cell] == 0)
                    .fold(0u128, |bits, cell| bits | 1 << cell);
                proptest::prop_assert_eq!(position.empty_bits, bits);
            }
        }
    }

    /// The empty components read from the bits are those of the flood
    /// fill, labelled and sized in the same order, on every board shape the
    /// bits serve: up to a single row or column of 128 cells.
    #[test]
    fn components_from_bits_equal_the_flood_fill(
        (width, height) in (1usize..=super::geometry::BIT_CELLS)
            .prop_flat_map(|w| (Just(w), 1..=super::geometry::BIT_CELLS / w)),
        fill in proptest::collection::vec(proptest::bool::weighted(0.45), super::geometry::BIT_CELLS),
    ) {
        let (from_bits, filled) = components_both_ways(width, height, |cell| fill[cell]);
        proptest::prop_assert_eq!(from_bits, filled);
    }
}

/// The empty components on a `width` × `height` board with a chip where
/// `chip` says, read from the bits and by the flood fill.
fn components_both_ways(
    width: usize,
    height: usize,
    chip: impl Fn(usize) -> bool,
) -> (Components, Components) {
    let rules = Rules {
        width,
        height,
        ..Rules::default()
    };
    let geometry = Geometry::new(&rules, Weights::default());
    assert!(geometry.bit_masks.is_some(), "{width}x{height}");
    let mut board = Board::new(width, height);
    for cell in (0..geometry.cell_count).filter(|&cell| chip(cell)) {
        board.set(board.pos(cell), Some(1));
    }
    let mut position = Position::new(&geometry);
    position.load(&geometry, &board);
    let mut sized = Scratch::default();
    super::evaluation::component_sizes(&geometry, &position, &mut sized);
    let mut labelled = Scratch::default();
    super::evaluation::connectivity(&geometry, &position, &mut labelled);
    let mut filled = Scratch {
        component: vec![u32::MAX; geometry.cell_count],
        ..Scratch::default()
    };
    super::evaluation::flood_fill(&geometry, &position, &mut filled);
    let from_bits = Components {
        sizes: sized.component_size,
        labels: labelled.component,
        labelled_sizes: labelled.component_size,
    };
    let from_flood_fill = Components {
        sizes: filled.component_size.clone(),
        labels: filled.component,
        labelled_sizes: filled.component_size,
    };
    (from_bits, from_flood_fill)
}

/// Empty components as one way of finding them gives them.
#[derive(Debug, PartialEq)]
struct Components {
    /// The sizes alone, as the exact evaluation reads them.
    sizes: Vec<u32>,
    /// Each cell's component, as the candidate estimate reads them.
    labels: Vec<u32>,
    /// The sizes found with the labels.
    labelled_sizes: Vec<u32>,
}

/// The shapes at the edges of what the bits serve: a single cell, a row
/// or a column of 128 cells, two rows or columns of 64.
#[test]
fn components_from_bits_at_the_edge_shapes() {
    for (width, height) in [(1, 1), (128, 1), (1, 128), (64, 2), (2, 64), (16, 8)] {
        for every in [3, 5, 7] {
            let (from_bits, filled) = components_both_ways(width, height, |cell| cell % every == 1);
            assert_eq!(
                from_bits, filled,
                "{width}x{height}, a chip every {every} cells"
            );
        }
    }
}

/// The windows through each cell, and its neighbours, as the geometry
/// lists them (from tables on small boards, worked out on big ones) equal
/// those found by brute force: every valid window that holds the cell.
#[test]
fn every_cell_lists_the_windows_through_it_and_its_neighbours() {
    for (width, height, line) in [(9, 9, 5), (5, 12, 4), (70, 61, 5), (64, 64, 9)] {
        let rules = Rules {
            width,
            height,
            line,
            ..Rules::default()
        };
        let geometry = Geometry::new(&rules, Weights::default());
        let cells = geometry.cell_count;
        let mut expected = vec![Vec::new(); cells];
        for id in (0..4 * cells).filter(|&id| geometry.valid[id]) {
            for cell in geometry.window_cells(id, id % cells) {
                expected[cell].push((id, id % cells));
            }
        }
        for (cell, expected) in expected.iter_mut().enumerate() {
            let mut listed = Vec::new();
            geometry.windows_through(cell, |id, start| listed.push((id, start)));
            listed.sort_unstable();
            expected.sort_unstable();
            assert_eq!(&listed, expected, "{width}x{height}, cell {cell}");
            let (x, y) = (cell % width, cell / width);
            let neighbours = [
                (y > 0).then(|| cell - width),
                (y + 1 < height).then(|| cell + width),
                (x > 0).then(|| cell - 1),
                (x + 1 < width).then(|| cell + 1),
            ];
            assert_eq!(geometry.neighbours(cell), neighbours, "{width}x{height}");
        }
    }
}

#[test]
fn sampling_on_more_threads_gives_the_same_values() {
    let rules = Rules {
        colors: 7,
        ..Rules::default()
    };
    let budget = Budget {
        refined: 7,
        samples: 5,
        ..Budget::default()
    };
    let mut one = Player::with_budget(rules, budget).with_threads(1);
    let mut three = Player::with_budget(rules, budget).with_threads(3);
    assert!(
        one.geometry.learned.is_some(),
        "the learned value is summed too"
    );
    let (mut game, _) = crate::game::Game::new(rules, 5);
    let mut sampled = 0;
    for turn in 0..40 {
        let alone = one.valued_candidates(game.board(), turn);
        let shared = three.valued_candidates(game.board(), turn);
        assert_eq!(alone.len(), shared.len());
        for (a, b) in alone.iter().zip(&shared) {
            assert_eq!((a.from, a.to), (b.from, b.to));
            assert_eq!(a.value.to_bits(), b.value.to_bits());
        }
        sampled += usize::from(alone.len() == 1 && alone[0].removed == 0);
        let chosen = alone[0];
        let (from, to) = (game.board().pos(chosen.from), game.board().pos(chosen.to));
        game.play(from, to).expect("legal");
        if game.is_over() {
            break;
        }
    }
    assert!(sampled > 10, "only {sampled} moves were sampled");
}

#[test]
fn loading_a_board_over_another_gives_the_same_tallies() {
    let before = Board::from_rows(&["11.2.", ".1...", "..1..", "...1.", "....2"]);
    let after = Board::from_rows(&["1..2.", ".1.2.", "..1..", "...1.", "2...2"]);
    let rules = rules_for(&before, 2);
    let geometry = Geometry::new(&rules, Weights::default());
    let mut reloaded = Position::new(&geometry);
    reloaded.load(&geometry, &before);
    reloaded.load(&geometry, &after);
    let mut fresh = Position::new(&geometry);
    fresh.load(&geometry, &after);
    assert_eq!(reloaded.cells, fresh.cells);
    assert_eq!(reloaded.count, fresh.count);
    assert_eq!(reloaded.color, fresh.color);
    assert_eq!(reloaded.free, fresh.free);
    assert_eq!(reloaded.potential.to_bits(), fresh.potential.to_bits());
}

#[test]
fn a_shown_throw_that_completes_a_line_is_counted_on() {
    // Three reds in the top row and a free red: without a preview the
    // free red goes to the row's far end, (4, 0). When the preview shows
    // the computer throwing a red on (4, 0), the right move is to (3, 0):
    // the throw then completes the line, where a red on (4, 0) would push
    // the thrown red elsewhere.
    let board = Board::from_rows(&[
        "111......",
        ".........",
        ".........",
        ".........",
        ".........",
        ".....1...",
        ".........",
        ".........",
        ".........",
    ]);
    let rules = rules_for(&board, 5);
    let mut player = Player::with_budget(rules, light_sampling());
    let planned = |x, y, color| Planned {
        color,
        pos: Some(Pos::new(x, y)),
    };
    let shown = [planned(4, 0, 1), planned(8, 8, 3), planned(8, 7, 4)];
    let from = Pos::new(5, 5);
    for seed in 0..3 {
        let unseen = Move {
            from,
            to: Pos::new(4, 0),
        };
        assert_eq!(player.choose(&board, seed), Some(unseen));
        assert_eq!(player.choose_seeing(&board, &[], seed), Some(unseen));
        let seeing = Move {
            from,
            to: Pos::new(3, 0),
        };
        assert_eq!(player.choose_seeing(&board, &shown, seed), Some(seeing));
    }
}

#[test]
fn weights_that_make_the_evaluation_no_number_are_refused() {
    assert_eq!(Weights::default().validate(), Ok(()));
    let with = |change: fn(&mut Weights)| {
        let mut weights = Weights::default();
        change(&mut weights);
        weights.validate().map_err(|e| (e.name, e.to_string()))
    };
    // At base 1 the window reward is 0/0.
    let refused = with(|w| w.reward_base = 1.0).expect_err("base 1");
    assert_eq!(refused.0, "reward_base");
    assert!(refused.1.contains("more than 1, not 1.0"), "{}", refused.1);
    assert!(with(|w| w.reward_base = 0.5).is_err());
    assert_eq!(with(|w| w.free = f64::NAN).map_err(|e| e.0), Err("free"));
    assert_eq!(with(|w| w.loss = -1e300).map_err(|e| e.0), Err("loss"));
    assert_eq!(
        with(|w| w.learned = f64::INFINITY).map_err(|e| e.0),
        Err("learned")
    );
    for steepness in [f64::NAN, 1e300, 25.0, -25.0] {
        let weights = Weights {
            reward_steepness: steepness,
            ..Weights::default()
        };
        let refused = weights.validate().map_err(|e| e.name);
        assert_eq!(refused, Err("reward_steepness"), "{steepness}");
    }
    // 4^24 is 2.8e14, 4^25 1.1e15: the steepest reward's bound.
    assert_eq!(with(|w| w.reward_steepness = 24.0), Ok(()));
    assert_eq!(with(|w| w.reward_steepness = 0.0), Ok(()));
    assert_eq!(with(|w| w.potential = -1e15), Ok(()));
}

#[test]
#[should_panic(expected = "invalid weights: the weight reward_base")]
fn a_player_with_weights_the_evaluation_refuses_panics_at_once() {
    let weights = Weights {
        reward_base: 1.0,
        ..Weights::default()
    };
    Player::with_weights(Rules::default(), Budget::greedy(), weights);
}

#[test]
fn training_refuses_a_rate_or_blend_of_no_number_before_any_game() {
    let rules = Rules {
        colors: 7,
        ..Rules::default()
    };
    for (rate, blend) in [(f64::NAN, 5.0), (0.0, 5.0), (-1.0, 5.0), (0.001, f64::NAN)] {
        let training = learn::Training {
            games: 1,
            rate,
            blend,
            ..learn::Training::default()
        };
        let mut reports = 0;
        let trained = learn::train(rules, &training, None, 1, |_| reports += 1);
        assert!(trained.is_err(), "rate {rate}, blend {blend}");
        assert_eq!(reports, 0);
    }
}

#[test]
fn training_refuses_a_board_too_big_for_a_table_before_any_game() {
    let big = Rules {
        width: 65,
        height: 64,
        colors: 7,
        ..Rules::default()
    };
    let training = learn::Training {
        games: 1,
        ..learn::Training::default()
    };
    let mut reports = 0;
    let refused = learn::train(big, &training, None, 1, |_| reports += 1);
    assert_eq!(
        refused,
        Err("a table is made for boards of at most 4096 cells, not 65x64".to_string())
    );
    assert_eq!(reports, 0);
    let most = Rules { width: 64, ..big };
    assert_eq!(learn::fits(most), Ok(()));
    let table = learn::train(
        most,
        &learn::Training {
            games: 0,
            ..training
        },
        None,
        1,
        |_| {},
    );
    let table = table.expect("a table of 4,096 cells");
    assert_eq!(learn::phases_of(most, &table), Ok(1));
    assert!(learn::phases_of(big, &table).is_err());
}

#[test]
fn a_table_tells_its_phases() {
    let rules = Rules {
        colors: 7,
        ..Rules::default()
    };
    let compiled = include_bytes!("value.bin");
    assert_eq!(learn::phases_of(rules, compiled), Ok(3));
    assert!(learn::phases_of(Rules::default(), compiled).is_err());
}

#[test]
fn a_learned_value_is_used_where_weighted_and_trained_for_the_rules() {
    let seven = Rules {
        colors: 7,
        ..Rules::default()
    };
    let budget = Budget::default();
    let off = Weights {
        learned: 0.0,
        ..Weights::default()
    };
    assert!(Player::new(seven).uses_learned_value());
    assert!(!Player::with_weights(seven, budget, off).uses_learned_value());
    // A table given counts for nothing at a weight of 0 either.
    let given = Player::with_weights(seven, budget, off)
        .with_learned_table(include_bytes!("value.bin"))
        .expect("trained for the 7-colour game");
    assert!(!given.uses_learned_value());
    for rules in [
        Rules::default(),
        Rules { width: 10, ..seven },
        Rules { line: 4, ..seven },
        Rules { next: 4, ..seven },
    ] {
        assert!(!Player::new(rules).uses_learned_value(), "{rules:?}");
    }
}
