//! Path queries, line detection and the computer's throw on boards from the
//! default 9 × 9 up to the largest accepted 1000 × 1000; the opening of a
//! million chips; and whole-process start-up (`-v`, `--batch`).
//!
//! Before timing, each path query's peak heap use is measured once with a
//! counting allocator and printed, as memory is part of the target.

#[path = "../tests/pty/mod.rs"]
mod pty;

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::VecDeque;
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use std::io::Write;
use std::process::{Command, Stdio};

use clines::board::{Board, Pos};
use clines::game::{Game, Preview, Rules};
use criterion::{BatchSize, BenchmarkId, Criterion, criterion_main};
use pty::Sandbox;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// The system allocator, keeping count of the bytes in use and their peak.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// A counting allocator can only be an `unsafe impl`.
#[allow(unsafe_code)]
// SAFETY: every call is passed straight to the system allocator; only
// counters are updated around it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = IN_USE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller upholds `GlobalAlloc::dealloc`'s contract.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let now = IN_USE.fetch_add(new_size, Ordering::Relaxed) + new_size;
        PEAK.fetch_max(now, Ordering::Relaxed);
        // SAFETY: the caller upholds `GlobalAlloc::realloc`'s contract.
        let moved = unsafe { System.realloc(ptr, layout, new_size) };
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
        moved
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Peak extra heap bytes while running `f` once.
fn peak_bytes<T>(f: impl FnOnce() -> T) -> usize {
    let base = IN_USE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    black_box(f());
    PEAK.load(Ordering::Relaxed) - base
}

/// A board and the path query to time on it.
struct Case {
    name: &'static str,
    board: Board,
    from: Pos,
    to: Pos,
}

/// Chips of colours 1–5 on `percent` % of the cells, at random.
fn random_board(w: usize, h: usize, percent: u64, seed: u64) -> Board {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut board = Board::new(w, h);
    for i in 0..board.len() {
        if rng.next_u64() % 100 < percent {
            board.set(board.pos(i), Some((rng.next_u64() % 5) as u8 + 1));
        }
    }
    board
}

/// Walls of chips every third row, each open by two cells at alternate
/// ends: a corridor two cells wide snaking down the whole board.
fn serpentine(w: usize, h: usize) -> Board {
    let mut board = Board::new(w, h);
    for y in (2..h).step_by(3) {
        let gap = if (y / 3) % 2 == 0 { w - 2 } else { 0 };
        for x in (0..w).filter(|x| !(gap..gap + 2).contains(x)) {
            board.set(Pos::new(x, y), Some((x % 5) as u8 + 1));
        }
    }
    board
}

/// The empty cell farthest (in steps) from the chip at `from`: the longest
/// path query the board allows from there.
fn farthest_from(board: &Board, from: Pos) -> Pos {
    let mut seen = vec![false; board.len()];
    let mut queue = VecDeque::from([from]);
    seen[board.index(from)] = true;
    let mut last = from;
    while let Some(p) = queue.pop_front() {
        last = p;
        let steps = [(0, 1), (1, 0), (0, -1), (-1, 0)];
        for (dx, dy) in steps {
            let (Some(x), Some(y)) = (p.x.checked_add_signed(dx), p.y.checked_add_signed(dy))
            else {
                continue;
            };
            let q = Pos::new(x, y);
            if board.contains(q) && board.get(q).is_none() && !seen[board.index(q)] {
                seen[board.index(q)] = true;
                queue.push_back(q);
            }
        }
    }
    last
}

/// A chip in the top-left corner moving to the farthest cell it can reach.
fn far_move(name: &'static str, mut board: Board) -> Case {
    let from = Pos::new(0, 0);
    board.set(from, Some(1));
    let to = farthest_from(&board, from);
    assert_ne!(to, from, "{name}: the chip cannot move");
    Case {
        name,
        board,
        from,
        to,
    }
}

/// The worst case: the chip walled into its corner, the target in the open,
/// so the search floods every other cell before giving up.
fn unreachable(w: usize, h: usize) -> Case {
    let mut board = Board::new(w, h);
    board.set(Pos::new(0, 0), Some(1));
    board.set(Pos::new(1, 0), Some(2));
    board.set(Pos::new(0, 1), Some(2));
    let to = Pos::new(w - 1, h - 1);
    assert!(board.path(Pos::new(0, 0), to).is_none());
    Case {
        name: "unreachable",
        board,
        from: Pos::new(0, 0),
        to,
    }
}

/// The chip in a closed room of 20 × 20 cells in its corner, the target
/// in the open: the flood from the chip fills the room before giving up.
fn walled_room(w: usize, h: usize) -> Case {
    let mut board = Board::new(w, h);
    board.set(Pos::new(0, 0), Some(1));
    for i in 0..=20 {
        board.set(Pos::new(i, 20), Some(2));
        board.set(Pos::new(20, i), Some(2));
    }
    let to = Pos::new(w - 1, h - 1);
    assert!(board.path(Pos::new(0, 0), to).is_none());
    Case {
        name: "chip in a walled room",
        board,
        from: Pos::new(0, 0),
        to,
    }
}

/// The target walled into the far corner, the chip in the open: a search
/// from the chip alone would flood the board.
fn target_walled_in(w: usize, h: usize) -> Case {
    let mut board = Board::new(w, h);
    let to = Pos::new(w - 1, h - 1);
    board.set(Pos::new(0, 0), Some(1));
    board.set(Pos::new(w - 2, h - 1), Some(2));
    board.set(Pos::new(w - 1, h - 2), Some(2));
    assert!(board.path(Pos::new(0, 0), to).is_none());
    Case {
        name: "target walled in",
        board,
        from: Pos::new(0, 0),
        to,
    }
}

fn cases(w: usize, h: usize) -> Vec<Case> {
    if (w, h) == (9, 9) {
        return vec![
            far_move("empty", Board::new(w, h)),
            far_move("50% full", random_board(w, h, 50, 1)),
            unreachable(w, h),
        ];
    }
    vec![
        far_move("empty", Board::new(w, h)),
        far_move("30% full", random_board(w, h, 30, 2)),
        far_move("serpentine", serpentine(w, h)),
        unreachable(w, h),
        walled_room(w, h),
        target_walled_in(w, h),
    ]
}

const SIZES: [(usize, usize); 4] = [(9, 9), (200, 100), (300, 300), (1000, 1000)];

fn path_queries(c: &mut Criterion) {
    let mut group = c.benchmark_group("path");
    for (w, h) in SIZES {
        for case in cases(w, h) {
            let first = peak_bytes(|| case.board.path(case.from, case.to));
            let length = case.board.path(case.from, case.to).map(|p| p.len() - 1);
            let again = peak_bytes(|| case.board.path(case.from, case.to));
            println!(
                "path {w}x{h} {}: {} steps, peak heap {first} bytes on the thread's first \
                 query ({:.1} per cell), {again} bytes on later ones",
                case.name,
                length.map_or("no".to_string(), |n| n.to_string()),
                first as f64 / (w * h) as f64,
            );
            let id = BenchmarkId::new(format!("{w}x{h}"), case.name);
            group.bench_function(id, |b| {
                b.iter(|| black_box(&case.board).path(black_box(case.from), black_box(case.to)))
            });
        }
    }
    group.finish();
}

/// A full row and a full column of one colour crossing at `(x, y)`.
fn crossing(w: usize, h: usize, x: usize, y: usize) -> Board {
    let mut board = Board::new(w, h);
    for i in 0..w {
        board.set(Pos::new(i, y), Some(1));
    }
    for j in 0..h {
        board.set(Pos::new(x, j), Some(1));
    }
    board
}

fn line_detection(c: &mut Criterion) {
    let mut group = c.benchmark_group("lines");
    for (w, h) in SIZES {
        let (x, y) = (w / 2, h / 2);
        let cross = crossing(w, h, x, y);
        let at = [Pos::new(x, y)];
        group.bench_function(
            BenchmarkId::new(format!("{w}x{h}"), "full row and column"),
            |b| b.iter(|| black_box(&cross).lines_through(black_box(&at), 5)),
        );
        let mut full = Board::new(w, h);
        let every: Vec<Pos> = (0..full.len()).map(|i| full.pos(i)).collect();
        for &p in &every {
            full.set(p, Some(1));
        }
        group.bench_function(
            BenchmarkId::new(format!("{w}x{h}"), "full board of one colour, every cell"),
            |b| b.iter(|| black_box(&full).lines_through(black_box(&every), 5)),
        );
        let random = random_board(w, h, if w == 9 { 50 } else { 30 }, 3);
        let thrown: Vec<Pos> = random.chips().take(3).map(|c| c.pos).collect();
        group.bench_function(
            BenchmarkId::new(format!("{w}x{h}"), "three chips, random"),
            |b| b.iter(|| black_box(&random).lines_through(black_box(&thrown), 5)),
        );
    }
    group.finish();
}

fn throws(c: &mut Criterion) {
    let mut group = c.benchmark_group("throw");
    for (w, h) in SIZES {
        let board = random_board(w, h, 30, 4);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        group.bench_function(
            BenchmarkId::new(format!("{w}x{h}"), "3 chips, 30% full"),
            |b| {
                b.iter_batched_ref(
                    || board.clone(),
                    |board| board.throw(&mut rng, 3, 5),
                    BatchSize::LargeInput,
                )
            },
        );
    }
    group.finish();
}

/// The opening of `-w1000 -t1000 -c1 -N1000000`: a million chips of one
/// colour fill the board, every line goes, three more are thrown; as the
/// terminal game makes it, listing the chips, and as `--batch` does.
fn full_opening(c: &mut Criterion) {
    let rules = Rules {
        width: 1000,
        height: 1000,
        colors: 1,
        first: 1_000_000,
        ..Rules::default()
    };
    let peak = peak_bytes(|| Game::new(rules, 1));
    println!("game 1000x1000 -c1 -N1000000 opening: peak heap {peak} bytes");
    let unseen = peak_bytes(|| Game::new_unseen(rules, Preview::Off, 1));
    println!("game 1000x1000 -c1 -N1000000 opening, unseen: peak heap {unseen} bytes");
    let mut group = c.benchmark_group("game");
    group.bench_function(
        BenchmarkId::new("1000x1000", "opening of a million chips, one colour"),
        |b| b.iter(|| Game::new(black_box(rules), 1)),
    );
    group.bench_function(
        BenchmarkId::new("1000x1000", "unseen opening of a million chips, one colour"),
        |b| b.iter(|| Game::new_unseen(black_box(rules), Preview::Off, 1)),
    );
    group.finish();
}

/// Going on from the state of a `-w1000 -t1000 -c35 -i1000 -n1000000
/// -p cells` opening, as a saved game is loaded: its throw of a million
/// chips is planned on nearly every cell, each checked to be planned once.
fn state_with_a_million_planned(c: &mut Criterion) {
    let rules = Rules {
        width: 1000,
        height: 1000,
        colors: 35,
        line: 1000,
        next: 1_000_000,
        first: 3,
    };
    let (game, _) = Game::with_preview(rules, Preview::Cells, 1);
    let state = game.state();
    let mut group = c.benchmark_group("game");
    group.bench_function(
        BenchmarkId::new("1000x1000", "state with a million chips planned"),
        |b| {
            b.iter_batched(
                || state.clone(),
                |state| Game::from_state(black_box(state)),
                BatchSize::LargeInput,
            )
        },
    );
    group.finish();
}

/// One turn of `-w1000 -t1000` with each preview: a chip moved one cell,
/// the planned throw landing and the next one planned; and with `-p cells`
/// a chip moved onto a planned cell, sending that chip elsewhere. Three
/// chips thrown should cost three chips, not a list of the million cells.
fn preview_turns(c: &mut Criterion) {
    let rules = Rules {
        width: 1000,
        height: 1000,
        ..Rules::default()
    };
    let mut group = c.benchmark_group("turn");
    for preview in [Preview::Off, Preview::Colors, Preview::Cells] {
        let (game, _) = Game::with_preview(rules, preview, 1);
        let from = game.board().chips().next().expect("an opening chip").pos;
        let to = game
            .board()
            .empty_cells()
            .find(|&to| game.check_move(from, to).is_ok())
            .expect("an empty cell to move to");
        let id = BenchmarkId::new("1000x1000", format!("one move, preview {preview}"));
        group.bench_function(id, |b| {
            b.iter_batched(
                || game.clone(),
                |mut game| game.play(black_box(from), black_box(to)),
                BatchSize::LargeInput,
            )
        });
    }
    // A chip moved onto a planned cell: the other two chips keep theirs,
    // and that one is drawn a cell among those no chip is planned for.
    let (game, _) = Game::with_preview(rules, Preview::Cells, 1);
    let (from, to) = game
        .planned()
        .iter()
        .filter_map(|planned| planned.pos)
        .find_map(|to| {
            let from = game
                .board()
                .chips()
                .find(|chip| game.check_move(chip.pos, to).is_ok())?;
            Some((from.pos, to))
        })
        .expect("a chip that can move onto a planned cell");
    let id = BenchmarkId::new("1000x1000", "one move onto a planned cell, preview cells");
    group.bench_function(id, |b| {
        b.iter_batched(
            || game.clone(),
            |mut game| game.play(black_box(from), black_box(to)),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

/// Runs `clines` with `args` and `input` on standard input to the end, in
/// `sandbox` as the tests run it: the environment cleared but for `PATH`,
/// a locale and the sandbox's private directories, so that no
/// configuration file or variable of the user's changes what is timed.
fn run_clines(sandbox: &Sandbox, args: &[&str], input: &[u8]) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_clines"));
    sandbox.apply(&mut command);
    let mut child = command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("the clines binary runs");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(input)
        .expect("clines reads its input");
    assert!(child.wait().expect("clines ends").success());
}

/// Whole processes: `clines -v`, and `--batch` reading an empty input, as a
/// script would start them (the binary of this profile).
fn start_up(c: &mut Criterion) {
    // Made once, outside the timed runs.
    let sandbox = Sandbox::new();
    let mut group = c.benchmark_group("start-up");
    group.bench_function("clines -v", |b| {
        b.iter(|| run_clines(&sandbox, &["-v"], b""))
    });
    group.bench_function("clines --batch at end of input", |b| {
        b.iter(|| run_clines(&sandbox, &["--batch"], b""))
    });
    group.bench_function("clines --batch -w1000 -t1000 -c1 -N1000000", |b| {
        let args = ["--batch", "-w1000", "-t1000", "-c1", "-N1000000"];
        b.iter(|| run_clines(&sandbox, &args, b""))
    });
    group.finish();
}

/// Few samples, short runs and no plots, so that the whole suite takes a
/// few minutes even on a busy machine.
fn quick() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .without_plots()
}

/// Every benchmark with the quick configuration: what `criterion_group!`
/// writes, by hand, because criterion 0.7's macro makes a public function
/// without docs, which `missing_docs` refuses.
fn benches() {
    let mut criterion = quick().configure_from_args();
    path_queries(&mut criterion);
    line_detection(&mut criterion);
    throws(&mut criterion);
    full_opening(&mut criterion);
    state_with_a_million_planned(&mut criterion);
    preview_turns(&mut criterion);
    start_up(&mut criterion);
}
criterion_main!(benches);
