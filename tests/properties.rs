//! Property tests of the engine through its public API: random rules,
//! random boards and random legal move sequences, each turn checked against
//! independent versions of the rules: a plain breadth-first search, a
//! whole-board line scan, and a replay of the reported events on a shadow
//! board.

use std::collections::VecDeque;

use clines::board::{self, Board, Pos};
use clines::game::{
    Actor, Event, Game, MAX_CHIPS_ONTO_EMPTY, MAX_THROWS_ONTO_EMPTY, MoveError, Rules, Turn,
};
use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

/// The up-to-four cells sharing a side with `p`.
fn neighbours(board: &Board, p: Pos) -> Vec<Pos> {
    let mut out = Vec::with_capacity(4);
    if p.x > 0 {
        out.push(Pos::new(p.x - 1, p.y));
    }
    if p.y > 0 {
        out.push(Pos::new(p.x, p.y - 1));
    }
    if p.x + 1 < board.width() {
        out.push(Pos::new(p.x + 1, p.y));
    }
    if p.y + 1 < board.height() {
        out.push(Pos::new(p.x, p.y + 1));
    }
    out
}

/// Steps from every empty cell to the empty cell `to` over empty cells.
fn distances_to(board: &Board, to: Pos) -> Vec<Option<usize>> {
    let w = board.width();
    let mut dist = vec![None; board.len()];
    let mut queue = VecDeque::from([to]);
    dist[to.y * w + to.x] = Some(0);
    while let Some(p) = queue.pop_front() {
        let d = dist[p.y * w + p.x].unwrap();
        for q in neighbours(board, p) {
            if board.get(q).is_none() && dist[q.y * w + q.x].is_none() {
                dist[q.y * w + q.x] = Some(d + 1);
                queue.push_back(q);
            }
        }
    }
    dist
}

/// Length in steps of the shortest move of the chip at `from` to the empty
/// cell `to`, or `None` when no path of empty cells leads there.
fn bfs_steps(board: &Board, from: Pos, to: Pos) -> Option<usize> {
    let dist = distances_to(board, to);
    neighbours(board, from)
        .into_iter()
        .filter_map(|q| dist[q.y * board.width() + q.x])
        .min()
        .map(|d| d + 1)
}

/// Checks a path the engine reported for moving the chip at `from` to `to`
/// on `board` (before the move): it is 4-connected through empty cells, as
/// short as the BFS says, and at every step it goes vertically toward the
/// target when that stays on a shortest path, else horizontally toward it
/// when that does.
fn check_path(board: &Board, from: Pos, to: Pos, path: &[Pos]) {
    assert_eq!(path.first(), Some(&from));
    assert_eq!(path.last(), Some(&to));
    let steps = bfs_steps(board, from, to).expect("the engine moved along an impossible path");
    assert_eq!(path.len(), steps + 1, "not a shortest path: {path:?}");
    let dist = distances_to(board, to);
    let dist_at = |p: Pos| dist[p.y * board.width() + p.x];
    for (k, pair) in path.windows(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        assert_eq!(
            a.x.abs_diff(b.x) + a.y.abs_diff(b.y),
            1,
            "jump {a:?} -> {b:?}"
        );
        assert!(board.get(b).is_none(), "walked over a chip at {b:?}");
        let remaining = steps - k - 1;
        assert_eq!(dist_at(b), Some(remaining));
        let on_shortest = |p: Pos| board.contains(p) && dist_at(p) == Some(remaining);
        let vertical = match to.y.cmp(&a.y) {
            std::cmp::Ordering::Less => Some(Pos::new(a.x, a.y - 1)),
            std::cmp::Ordering::Greater => Some(Pos::new(a.x, a.y + 1)),
            std::cmp::Ordering::Equal => None,
        };
        let horizontal = match to.x.cmp(&a.x) {
            std::cmp::Ordering::Less => Some(Pos::new(a.x - 1, a.y)),
            std::cmp::Ordering::Greater => Some(Pos::new(a.x + 1, a.y)),
            std::cmp::Ordering::Equal => None,
        };
        if let Some(v) = vertical.filter(|&v| on_shortest(v)) {
            assert_eq!(b, v, "vertical step toward the target skipped at {a:?}");
        } else if let Some(h) = horizontal.filter(|&h| on_shortest(h)) {
            assert_eq!(b, h, "horizontal step toward the target skipped at {a:?}");
        }
    }
}

/// Every maximal run of at least `min` chips of one colour on any of the
/// four axes, found by scanning the whole board from each run's first cell.
fn runs(board: &Board, min: usize) -> Vec<Vec<Pos>> {
    let step = |p: Pos, dx: isize, dy: isize| {
        let q = Pos::new(p.x.checked_add_signed(dx)?, p.y.checked_add_signed(dy)?);
        board.contains(q).then_some(q)
    };
    let mut found = Vec::new();
    for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        for y in 0..board.height() {
            for x in 0..board.width() {
                let start = Pos::new(x, y);
                let Some(color) = board.get(start) else {
                    continue;
                };
                let before = step(start, -dx, -dy).and_then(|p| board.get(p));
                if before == Some(color) {
                    continue;
                }
                let mut run = vec![start];
                while let Some(next) = step(*run.last().unwrap(), dx, dy) {
                    if board.get(next) != Some(color) {
                        break;
                    }
                    run.push(next);
                }
                if run.len() >= min {
                    found.push(run);
                }
            }
        }
    }
    found
}

/// The cells of every line of at least `min` through any of `through`.
fn line_cells_through(board: &Board, through: &[Pos], min: usize) -> Vec<Pos> {
    let mut cells: Vec<Pos> = runs(board, min)
        .into_iter()
        .filter(|run| run.iter().any(|p| through.contains(p)))
        .flatten()
        .collect();
    cells.sort();
    cells.dedup();
    cells
}

/// The events of one turn, read in order with a look at the next.
type Events<'a> = std::iter::Peekable<std::slice::Iter<'a, Event>>;

/// What the rules say the game must look like, rebuilt only from the
/// events the engine reports, checking each as it is applied.
struct Shadow {
    rules: Rules,
    board: Board,
    score: u64,
    streak: u32,
    over: bool,
}

impl Shadow {
    fn of(game: &Game) -> Shadow {
        Shadow {
            rules: *game.rules(),
            board: game.board().clone(),
            score: game.score(),
            streak: game.streak(),
            over: game.is_over(),
        }
    }

    /// The opening: a throw of `N` chips, then the player's turn.
    fn opening(rules: Rules, events: &[Event]) -> Shadow {
        let mut shadow = Shadow {
            rules,
            board: Board::new(rules.width, rules.height),
            score: 0,
            streak: 0,
            over: false,
        };
        let mut events = events.iter().peekable();
        shadow.computer_turn(rules.first, &mut events);
        shadow.begin_player_turn(&mut events);
        assert_eq!(events.next(), None, "unexpected events after the opening");
        shadow
    }

    /// The player's move `from` -> `to` and everything that followed.
    fn player_turn(&mut self, from: Pos, to: Pos, turn: &Turn) {
        let mut events = turn.events.iter().peekable();
        let Some(Event::Moved { path, color }) = events.next() else {
            panic!("a move starts with the chip's path: {:?}", turn.events);
        };
        check_path(&self.board, from, to, path);
        assert_eq!(self.board.get(from), Some(*color));
        self.board.set(from, None);
        self.board.set(to, Some(*color));
        let mut own = (0, 0);
        if let Some(Event::Removed { chips, points, by }) = events.peek() {
            events.next();
            assert_eq!(*by, Actor::Player);
            self.remove(chips, *points, self.streak, &[to]);
            self.streak += 1;
            own = (chips.len(), *points);
        } else {
            assert!(
                line_cells_through(&self.board, &[to], self.rules.line).is_empty(),
                "a line through the moved chip was left"
            );
            self.streak = 0;
            self.computer_turn(self.rules.next, &mut events);
        }
        self.begin_player_turn(&mut events);
        assert_eq!(events.next(), None, "unexpected events: {:?}", turn.events);
        assert_eq!((turn.removed, turn.points), own);
    }

    /// A throw of `count` chips: none when fewer cells are empty (game over),
    /// its lines removed with no streak bonus, game over when it fills the
    /// board.
    fn computer_turn(&mut self, count: usize, events: &mut Events) {
        if count > self.board.free() {
            assert_eq!(events.next(), Some(&Event::GameOver), "no room to throw");
            self.over = true;
            return;
        }
        let Some(Event::Thrown(chips)) = events.next() else {
            panic!("expected a throw of {count}");
        };
        assert_eq!(chips.len(), count);
        for chip in chips {
            assert_eq!(self.board.get(chip.pos), None, "thrown onto a chip");
            assert!(self.board.contains(chip.pos));
            assert!((1..=self.rules.colors).contains(&chip.color));
            self.board.set(chip.pos, Some(chip.color));
        }
        let thrown: Vec<Pos> = chips.iter().map(|c| c.pos).collect();
        if let Some(Event::Removed { chips, points, by }) = events.peek() {
            assert_eq!(*by, Actor::Computer);
            self.remove(chips, *points, 0, &thrown);
            events.next();
        } else {
            assert!(line_cells_through(&self.board, &thrown, self.rules.line).is_empty());
        }
        if self.board.is_full() {
            assert_eq!(events.next(), Some(&Event::GameOver), "the board is full");
            self.over = true;
        }
    }

    /// With no chip to move the computer throws instead; with nothing to
    /// throw, or after too many throws cleared at once, the game ends.
    fn begin_player_turn(&mut self, events: &mut Events) {
        let mut throws = 0;
        while !self.over && self.board.chip_count() == 0 {
            let given_up =
                throws == MAX_THROWS_ONTO_EMPTY || throws * self.rules.next >= MAX_CHIPS_ONTO_EMPTY;
            if self.rules.next == 0 || given_up {
                assert_eq!(events.next(), Some(&Event::GameOver));
                self.over = true;
            } else {
                self.streak = 0;
                self.computer_turn(self.rules.next, events);
                throws += 1;
            }
        }
    }

    /// Checks a removal against the lines through `through` and the scoring
    /// formula, then applies it.
    fn remove(&mut self, chips: &[board::Chip], points: u64, streak: u32, through: &[Pos]) {
        let mut cells: Vec<Pos> = chips.iter().map(|c| c.pos).collect();
        cells.sort();
        assert_eq!(
            cells,
            line_cells_through(&self.board, through, self.rules.line)
        );
        for chip in chips {
            assert_eq!(self.board.get(chip.pos), Some(chip.color));
            self.board.set(chip.pos, None);
        }
        let (n, i, b) = (
            chips.len() as u64,
            self.rules.line as u64,
            u64::from(streak),
        );
        assert_eq!(points, n + n * (n - i) + b * b);
        self.score += points;
    }

    /// The shadow and the game agree, and no line is left on the board.
    fn assert_matches(&self, game: &Game) {
        assert_eq!(&self.board, game.board());
        assert_eq!(self.score, game.score());
        assert_eq!(self.streak, game.streak());
        assert_eq!(self.over, game.is_over());
        assert_eq!(runs(game.board(), self.rules.line), Vec::<Vec<Pos>>::new());
    }
}

/// One player step as random numbers: which chip, which target, and an
/// arbitrary (often illegal) move to try first.
type Step = (usize, usize, (usize, usize, usize, usize));

/// The error the rules give for moving `from` -> `to`, if any.
fn expected_error(game: &Game, from: Pos, to: Pos) -> Option<MoveError> {
    let board = game.board();
    if game.is_over() {
        Some(MoveError::GameOver)
    } else if !board.contains(from) || !board.contains(to) {
        Some(MoveError::OffBoard)
    } else if board.get(from).is_none() {
        Some(MoveError::NoChip)
    } else if board.get(to).is_some() {
        Some(MoveError::Occupied)
    } else if bfs_steps(board, from, to).is_none() {
        Some(MoveError::NoPath)
    } else {
        None
    }
}

/// A legal move chosen by the numbers in `step`, asking the board which
/// targets each chip can reach (and checking that against the BFS).
fn pick_move(board: &Board, chip_pick: usize, target_pick: usize) -> Option<(Pos, Pos)> {
    let chips: Vec<Pos> = board.chips().map(|c| c.pos).collect();
    (0..chips.len()).find_map(|k| {
        let from = chips[(chip_pick + k) % chips.len()];
        let targets: Vec<Pos> = board
            .empty_cells()
            .filter(|&to| {
                let reachable = board.reachable(from, to);
                assert_eq!(reachable, bfs_steps(board, from, to).is_some());
                reachable
            })
            .collect();
        (!targets.is_empty()).then(|| (from, targets[target_pick % targets.len()]))
    })
}

/// Sets up `setup` (when given) on a fresh game: chips put one by one,
/// skipping any that would complete a line, so the board holds no line.
fn apply_setup(game: &mut Game, setup: &[(u8, u8)], density: u8) {
    let rules = *game.rules();
    let mut board = Board::new(rules.width, rules.height);
    for (i, &(roll, color)) in setup.iter().take(board.len()).enumerate() {
        let pos = board.pos(i);
        let color = 1 + color % rules.colors;
        if roll < density {
            board.set(pos, Some(color));
            if !line_cells_through(&board, &[pos], rules.line).is_empty() {
                board.set(pos, None);
            }
        }
    }
    if board.chip_count() == 0 {
        return;
    }
    game.clear();
    for chip in board.chips() {
        game.put(chip.pos, Some(chip.color)).unwrap();
    }
}

/// Plays a whole game, checking every turn; returns every event reported.
fn play_checked(
    rules: Rules,
    seed: u64,
    setup: Option<(&[(u8, u8)], u8)>,
    steps: &[Step],
) -> Vec<Vec<Event>> {
    let (mut game, opening) = Game::new(rules, seed);
    Shadow::opening(rules, &opening).assert_matches(&game);
    let mut transcript = vec![opening];
    if let Some((cells, density)) = setup {
        apply_setup(&mut game, cells, density);
    }
    let mut shadow = Shadow::of(&game);
    shadow.assert_matches(&game);
    for (played, &(chip_pick, target_pick, (x1, y1, x2, y2))) in steps.iter().enumerate() {
        let (w, h) = (rules.width + 1, rules.height + 1);
        let (from, to) = (Pos::new(x1 % w, y1 % h), Pos::new(x2 % w, y2 % h));
        match expected_error(&game, from, to) {
            Some(error) => {
                let before = (game.board().clone(), game.score(), game.streak());
                assert_eq!(game.play(from, to), Err(error));
                assert_eq!((game.board().clone(), game.score(), game.streak()), before);
            }
            None => assert!(game.check_move(from, to).is_ok()),
        }
        if game.is_over() {
            break;
        }
        let Some((from, to)) = pick_move(game.board(), chip_pick, target_pick) else {
            // Only a set-up board can leave the player without a move.
            assert!(played == 0 && setup.is_some(), "no legal move mid-game");
            break;
        };
        let score = game.score();
        let turn = game.play(from, to).expect("a legal move is accepted");
        shadow.player_turn(from, to, &turn);
        shadow.assert_matches(&game);
        assert!(game.score() >= score);
        transcript.push(turn.events);
    }
    transcript
}

fn small_rules() -> impl Strategy<Value = Rules> {
    let any_small = (
        1usize..=10,
        1usize..=10,
        1u8..=6,
        2usize..=6,
        0usize..=4,
        1usize..=5,
    )
        .prop_map(|(width, height, colors, line, next, first)| {
            let cells = width * height;
            Rules {
                width,
                height,
                colors,
                line,
                next: next.min(cells),
                first: first.min(cells),
            }
        });
    prop_oneof![1 => Just(Rules::default()), 3 => any_small]
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    prop::collection::vec(
        (
            any::<usize>(),
            any::<usize>(),
            (0usize..11, 0usize..11, 0usize..11, 0usize..11),
        ),
        0..40,
    )
}

/// A random board of up to `max` × `max` cells, `density` percent full.
fn random_board(max: usize) -> impl Strategy<Value = Board> {
    (1..=max, 1..=max, 1u8..=6, 0u8..=100)
        .prop_flat_map(|(w, h, colors, density)| {
            (
                Just((w, h)),
                prop::collection::vec((0u8..100, 1..=colors), w * h),
                Just(density),
            )
        })
        .prop_map(|((w, h), cells, density)| {
            let mut board = Board::new(w, h);
            for (i, (roll, color)) in cells.into_iter().enumerate() {
                if roll < density {
                    board.set(board.pos(i), Some(color));
                }
            }
            board
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Every turn of random games, from the opening or from random boards,
    /// follows the rules; the same seed and moves give the same game.
    #[test]
    fn random_games_follow_the_rules(
        rules in small_rules(),
        seed in any::<u64>(),
        setup in prop::option::of((prop::collection::vec((0u8..100, any::<u8>()), 100), 0u8..=100)),
        steps in steps(),
    ) {
        let setup = setup.as_ref().map(|(cells, density)| (cells.as_slice(), *density));
        let first = play_checked(rules, seed, setup, &steps);
        let again = play_checked(rules, seed, setup, &steps);
        prop_assert_eq!(first, again);
    }

    /// Paths on boards up to 30 × 30 are shortest, 4-connected through empty
    /// cells and prefer vertical steps toward the target; the board finds
    /// one exactly when the BFS does.
    #[test]
    fn paths_are_shortest(board in random_board(30), picks in (any::<usize>(), any::<usize>())) {
        let chips: Vec<Pos> = board.chips().map(|c| c.pos).collect();
        let empty: Vec<Pos> = board.empty_cells().collect();
        prop_assume!(!chips.is_empty() && !empty.is_empty());
        let (from, to) = (chips[picks.0 % chips.len()], empty[picks.1 % empty.len()]);
        match board.path(from, to) {
            Some(path) => check_path(&board, from, to, &path),
            None => prop_assert_eq!(bfs_steps(&board, from, to), None),
        }
        prop_assert_eq!(board.reachable(from, to), bfs_steps(&board, from, to).is_some());
    }

    /// `lines_through` finds exactly the runs a whole-board scan finds
    /// through the given cells, each chip once.
    #[test]
    fn lines_match_a_whole_board_scan(
        board in random_board(12),
        line in 2usize..=6,
        through in prop::collection::vec((0usize..12, 0usize..12), 0..40),
    ) {
        let through: Vec<Pos> = through
            .into_iter()
            .map(|(x, y)| Pos::new(x % board.width(), y % board.height()))
            .collect();
        let found = board.lines_through(&through, line);
        let cells: Vec<Pos> = found.iter().map(|c| c.pos).collect();
        let mut sorted = cells.clone();
        sorted.sort();
        prop_assert_eq!(sorted, line_cells_through(&board, &through, line));
        for chip in found {
            prop_assert_eq!(board.get(chip.pos), Some(chip.color));
        }
    }

    /// A throw lands only on empty cells, each once, with colours in range,
    /// and changes nothing else; with too few empty cells it changes nothing.
    #[test]
    fn throws_land_on_empty_cells(
        board in random_board(10),
        count in 0usize..=40,
        colors in 1u8..=35,
        seed in any::<u64>(),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut after = board.clone();
        match after.throw(&mut rng, count, colors) {
            None => {
                prop_assert!(count > board.free());
                prop_assert_eq!(&after, &board);
            }
            Some(chips) => {
                prop_assert!(count <= board.free());
                prop_assert_eq!(chips.len(), count);
                let mut expected = board.clone();
                for chip in &chips {
                    prop_assert_eq!(expected.get(chip.pos), None);
                    prop_assert!((1..=colors).contains(&chip.color));
                    expected.set(chip.pos, Some(chip.color));
                }
                prop_assert_eq!(&after, &expected);
            }
        }
    }

    /// A throw picks exactly the cells and colours the original listing
    /// does: every empty cell listed in row-major order, a partial
    /// Fisher–Yates shuffle of that list, then one colour per chip. Boards
    /// up to 64 × 64 with up to 40 chips take both the listing and the
    /// free-cell-count ways.
    #[test]
    fn throws_pick_what_the_listing_picks(
        board in random_board(64),
        count in 0usize..=40,
        colors in 1u8..=35,
        seed in any::<u64>(),
    ) {
        prop_assume!(count <= board.free());
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut pool: Vec<usize> = board.empty_cells().map(|p| board.index(p)).collect();
        for j in 0..count {
            let k = j + board::below(&mut rng, (pool.len() - j) as u64) as usize;
            pool.swap(j, k);
        }
        let listed: Vec<board::Chip> = pool[..count]
            .iter()
            .map(|&i| board::Chip {
                pos: board.pos(i),
                color: 1 + board::below(&mut rng, u64::from(colors)) as u8,
            })
            .collect();
        let mut thrown = board.clone();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        prop_assert_eq!(thrown.throw(&mut rng, count, colors), Some(listed));
    }

    /// `below(n)` stays in `0..n` for any `n`.
    #[test]
    fn below_stays_in_range(n in 1u64..=u64::MAX, seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..64 {
            prop_assert!(board::below(&mut rng, n) < n);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// `below(n)` for small `n` hits every value about equally often: each
    /// count within 25 % of the mean (over six standard deviations).
    #[test]
    fn below_is_uniform(n in 1u64..=12, seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let per_value = 600;
        let mut counts = vec![0u32; n as usize];
        for _ in 0..per_value * n {
            counts[board::below(&mut rng, n) as usize] += 1;
        }
        let (low, high) = (per_value as u32 * 3 / 4, per_value as u32 * 5 / 4);
        prop_assert!(counts.iter().all(|c| (low..=high).contains(c)), "{:?}", counts);
    }
}
