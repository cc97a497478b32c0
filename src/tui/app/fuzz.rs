//! Property tests of the game screen as the event loop drives it:
//! arbitrary keys, clicks anywhere, resizes to any size, the player's
//! answers early, late or never, boxes and new games, with time moving on
//! by arbitrary steps. Whatever comes, nothing panics, the frame is the
//! screen's size and renders, the cursor and the selection stay on the
//! board, the board drawn is the engine's once the animations are over,
//! keys wait only for an animation, only a notice stays over the
//! too-small screen, autoplay is off on the game-over box, and the loop is
//! never left a deadline already past.

use std::time::{Duration, Instant};

use proptest::prelude::*;

use super::*;
use crate::cli::{Appearance, CellShape};
use crate::game::{Preview, Rules, strategies};
use crate::records::Entry;
use crate::tui::frame::Renderer;
use crate::tui::input::Dir;

/// A game on a small board, odd rules included: one colour, lines of 2,
/// no throws between moves.
fn small_rules() -> impl Strategy<Value = Rules> {
    // Small boards fill up: games end, and new ones start.
    let side = || prop_oneof![2 => 1usize..=3, 1 => 4usize..=10];
    // Few colours score often: points to lose, boxes to ask.
    let colors = prop_oneof![1u8..=2, 3u8..=6];
    strategies::rules(side(), side(), colors, 2usize..=5, 0usize..=3, 1usize..=5)
}

/// A terminal size: mostly around the board's, down to nothing; now and
/// then large, or as long as a terminal reports one way and too small the
/// other.
fn size() -> impl Strategy<Value = (usize, usize)> {
    let huge = 0..=usize::from(u16::MAX);
    prop_oneof![
        12 => (0usize..90, 0usize..45),
        // Snug around a small board: the board and what runs past it.
        12 => (0usize..25, 0usize..25),
        2 => (150usize..300, 80usize..150),
        // Rare, as their frames are slow to draw.
        1 => (huge.clone(), 0usize..3),
        1 => (0usize..3, huge),
    ]
}

/// The records read at the start: a best of the player's or someone
/// else's, a name as long as a user's may be, scores small enough to pass.
fn records() -> impl Strategy<Value = Option<BoardRecords>> {
    let name = || "[a-zA-Z0-9._-]{1,40}";
    let score = || prop_oneof![0u64..50, Just(u64::MAX)];
    let best = (name(), score()).prop_map(|(user, score)| Entry {
        user,
        score,
        set_at: None,
    });
    prop::option::of(
        (name(), prop::option::of(best), prop::option::of(score()))
            .prop_map(|(user, best, own)| BoardRecords { user, best, own }),
    )
}

/// What happens between two frames.
#[derive(Clone, Debug)]
enum Step {
    /// The player's key or click.
    Act(Action),
    /// The terminal's new size.
    Resize(usize, usize),
    /// Time passes.
    Wait(Duration),
    /// The player's thread answers the oldest question it holds.
    Answer,
    /// The process is stopped (SIGTSTP) and continued.
    StopAndContinue,
}

fn action() -> impl Strategy<Value = Action> {
    let dir = prop::sample::select(vec![Dir::Left, Dir::Down, Dir::Up, Dir::Right]);
    prop_oneof![
        12 => dir.prop_map(Action::Cursor),
        6 => Just(Action::Act),
        6 => (0usize..50, 0usize..100).prop_map(|(row, col)| Action::Click { row, col }),
        1 => (any::<u16>(), any::<u16>()).prop_map(|(row, col)| Action::Click {
            row: row.into(),
            col: col.into(),
        }),
        2 => Just(Action::Hint),
        1 => Just(Action::Autoplay),
        2 => Just(Action::Undo),
        1 => Just(Action::NewGame),
        4 => Just(Action::Help),
        1 => prop::sample::select(vec![Action::Repaint, Action::Suspend, Action::Other]),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        100 => action().prop_map(Step::Act),
        10 => size().prop_map(|(cols, rows)| Step::Resize(cols, rows)),
        30 => (0u64..400).prop_map(|ms| Step::Wait(Duration::from_millis(ms))),
        5 => (0u64..5000).prop_map(|ms| Step::Wait(Duration::from_millis(ms))),
        25 => Just(Step::Answer),
        5 => Just(Step::StopAndContinue),
        // Ending the game ends the session: rare, so that most go on.
        1 => prop::sample::select(vec![Action::Quit, Action::SaveQuit]).prop_map(Step::Act),
    ]
}

/// How the session around the game is set up.
#[derive(Clone, Debug)]
struct Setup {
    rules: Rules,
    preview: Preview,
    seed: u64,
    color: bool,
    cells: CellShape,
    size: (usize, usize),
    records: Option<BoardRecords>,
    autoplay: bool,
    delay: Duration,
    /// A box before play, as a saved game that could not be resumed
    /// brings.
    notice: bool,
    /// Whether saving fails, keeping the game on screen under a box.
    save_fails: bool,
    /// Whether a new game is refused, its record unsaved.
    new_game_refused: bool,
}

fn setup() -> impl Strategy<Value = Setup> {
    (
        (
            small_rules(),
            strategies::preview(),
            any::<u64>(),
            any::<bool>(),
            prop::sample::select(vec![CellShape::Square, CellShape::Wide]),
        ),
        (
            size(),
            records(),
            prop::bool::weighted(0.5),
            (0u64..100).prop_map(Duration::from_millis),
            prop::bool::weighted(0.2),
            any::<bool>(),
            prop::bool::weighted(0.3),
        ),
    )
        .prop_map(
            |(
                (rules, preview, seed, color, cells),
                (size, records, autoplay, delay, notice, save_fails, new_game_refused),
            )| Setup {
                rules,
                preview,
                seed,
                color,
                cells,
                size,
                records,
                autoplay,
                delay,
                notice,
                save_fails,
                new_game_refused,
            },
        )
}

fn style(setup: &Setup) -> Style {
    let colors = setup.rules.colors;
    let mut appearance = Appearance::for_colors(colors.into());
    appearance.cells = setup.cells;
    Style::new(&appearance, colors, setup.color)
}

/// The game of `setup` as the event loop starts it at `now`.
fn start(setup: &Setup, now: Instant) -> App {
    let (game, opening) = Game::with_preview(setup.rules, setup.preview, setup.seed);
    let mut app = App::new(
        game,
        opening,
        style(setup),
        crate::cli::DEFAULT_KEYS,
        setup.records.clone(),
        setup.size,
        now,
    )
    .with_autoplay(setup.autoplay, setup.delay);
    if setup.notice {
        let reason = "the saved game ~/.local/share/clines/save.toml could not be read: \
                      unexpected end of file at line 3";
        app.before_play(Some(reason), &["--autoplay-delay is ignored with --batch"]);
    }
    app
}

/// Checks what must hold between any two frames at `now`, the animations
/// brought up to it.
fn check(app: &App, now: Instant, renderer: &mut Renderer) {
    let rules = *app.game.rules();
    let on_board = |pos: Pos| pos.x < rules.width && pos.y < rules.height;
    let cursor = app.input.cursor;
    assert!(on_board(cursor), "cursor {cursor:?} off the board");
    if let Some((selected, _)) = app.input.selected {
        assert!(
            app.game.board().get(selected).is_some(),
            "selected {selected:?} is no chip"
        );
    }
    if !app.animating() {
        assert_eq!(app.animation.board(), app.game.board(), "board drawn");
        assert_eq!(app.animation.score(), app.game.score(), "score drawn");
        assert_eq!(
            app.input.queued,
            [],
            "keys held back with nothing to wait for"
        );
    }
    if app.layout.is_err() {
        // Only a notice waits out the too-small screen.
        assert!(
            matches!(app.overlay, Overlay::None | Overlay::Notice(_)),
            "{:?} over the too-small screen",
            app.overlay
        );
    }
    if app.animation.over() {
        assert!(!app.assist.autoplay, "autoplay on the game-over box");
    }
    if app.ending().is_none() {
        // The loop sleeps until the deadline: one already past would
        // have it spin.
        if let Some(at) = app.deadline(now) {
            assert!(at > now, "deadline {at:?} not after now {now:?}");
        }
    }
    let frame = app.frame(now);
    assert_eq!((frame.cols(), frame.rows()), app.size, "frame size");
    // A score cut at the screen's edge would show a wrong one.
    let top: String = (0..frame.cols()).map(|col| frame.get(0, col).ch).collect();
    if top.contains("[ ") {
        let score = app.animation.score();
        let mini = format!("[ s: {score} ]");
        let full = format!("=[ score : {score} ]=");
        assert!(
            top.contains(&mini) || top.contains(&full),
            "score {score} shown as {top:?}"
        );
    }
    let mut written = Vec::new();
    renderer.draw(frame, false, &mut written).unwrap();
}

/// Plays `steps` from `setup` as the event loop does, checking each frame.
fn play(setup: &Setup, steps: &[Step]) {
    let mut now = Instant::now();
    let mut app = start(setup, now);
    let mut renderer = Renderer::new(setup.color);
    // The questions the player's thread holds, oldest first.
    let mut asked: VecDeque<Request> = VecDeque::new();
    let mut seed = setup.seed;
    for step in steps {
        match *step {
            Step::Act(action) => app.act(action, now),
            Step::Resize(cols, rows) => app.resize(cols, rows),
            Step::Wait(wait) => now += wait,
            Step::Answer => {
                if let Some(request) = asked.pop_front() {
                    let chosen = crate::ai::hint(&request.board, setup.rules, seed);
                    let suggestion = Suggestion {
                        id: request.id,
                        chosen,
                    };
                    app.suggested(suggestion, now);
                }
            }
            Step::StopAndContinue => {
                app.stop_signalled();
                app.continued();
            }
        }
        app.advance(now);
        match app.ending() {
            Some(Ending::Saved) if !app.game().is_over() && setup.save_fails => {
                app.save_failed("the disk is full");
            }
            Some(_) => break,
            None => {}
        }
        if app.take_new_game() {
            if setup.new_game_refused {
                app.new_game_refused("the records file is locked");
            } else {
                seed = seed.wrapping_add(1);
                let (game, opening) = Game::with_preview(setup.rules, setup.preview, seed);
                app.restart(game, opening, setup.records.clone(), now);
            }
        }
        asked.extend(app.take_request());
        if app.take_suspend().is_some() {
            app.continued();
        }
        if app.take_continued() {
            let (cols, rows) = app.size;
            app.resize(cols, rows);
        }
        if app.take_repaint() {
            renderer.invalidate();
        }
        app.take_bell();
        // The loop wakes at once for a deadline already due: advancing
        // then must settle it, or the loop would spin.
        if app.deadline(now).is_some_and(|at| at <= now) {
            app.advance(now);
        }
        check(&app, now, &mut renderer);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn any_keys_clicks_sizes_and_answers_keep_the_screen_whole(
        setup in setup(),
        steps in prop::collection::vec(step(), 0..100),
    ) {
        play(&setup, &steps);
    }
}
