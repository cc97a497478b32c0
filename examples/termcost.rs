//! termcost: what the terminal game costs the terminal and the machine.
//!
//! Runs the real `clines` in a pseudo-terminal of 100 × 50 with
//! `TERM=xterm-256color` (through the test suite's pty harness) and prints,
//! next to the original program's figures and the targets of issue 4:
//! bytes written for the first frame, per cursor move, per second with a
//! chip selected and for a Ctrl-L repaint; wake-ups per second when idle and
//! with a chip selected; the time to the first complete frame; peak memory.
//!
//! Then, for issue 11, whole-process costs: the CPU time and peak memory
//! of `clines -v`, of `--batch` at the end of its input, of the
//! million-chip opening and of `clines -l` listing 1 000 records (median
//! of 101 runs for the CPU time, from `wait4`, and of 5 for the peak
//! memory, from `/usr/bin/time`), and the CPU time, wall time and peak
//! memory up to the first frame for the default board at 100 × 50 and a
//! 300 × 300 board at 602 × 602. Given the
//! original program's path too, it measures the original the same way,
//! interleaving the runs, and prints the ratios.
//!
//! Last, for issue 9, huge terminals: the first frame and a full repaint
//! (Ctrl-L) of a 300 × 300 board at 602 × 602 and a 1000 × 1000 board at
//! 2002 × 2002, and the default board at 5000 × 5000 and 6000 × 6000: CPU
//! time, wall time and bytes of each, and peak memory (median of 3 runs,
//! by the repaint's CPU time). Those screens are too large to emulate:
//! their frames are read as bytes.
//!
//! ```text
//! cargo build --release && cargo run --release --example termcost [PATH/TO/clines [ORIGINAL]]
//! ```
//!
//! Without a path it runs the `clines` built next to the example (for
//! `target/release/examples/termcost`, `target/release/clines`).
//!
//! Every run, in the pseudo-terminal or not, is in a sandbox of its own
//! (the test suite's: a private temporary home, configuration, data and
//! records directories, and an environment cleared of the rest), so the
//! user's configuration, `NO_COLOR` or `CLINES_*` variables change nothing
//! measured; and a run that ends with a non-zero status is an error, not
//! a figure.
//!
//! A frame is everything up to the end of a synchronized update
//! (`ESC [ ? 2026 l`), so the program must bracket its frames with them.
//! Wake-ups are the context switches of all the program's threads
//! (`/proc/PID/task/*/status`: voluntary + involuntary): each time a thread
//! blocked and was woken, or was preempted. System calls are counted by
//! `strace -c -f` when it is installed and may attach (`n/a` otherwise), in
//! a separate window since tracing adds wake-ups. Peak memory is `VmHWM`.
//! The first frame's latency is judged on the best of several starts: on a
//! busy machine the others measure the scheduler more than the program.
//! Only the measured intervals (a few seconds of idleness or of a jumping
//! chip) are timed sleeps; everything else waits for the program's output.

#[path = "../tests/pty/mod.rs"]
mod pty;
#[path = "support/tell.rs"]
mod tell;

use std::ffi::OsString;
use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use pty::{END_SYNC, Key, Options, Sandbox, Term};
use tell::tell;

/// How long an interval of idleness or jumping is measured.
const WINDOW: Duration = Duration::from_secs(3);
/// How long to wait for a frame before giving up.
const FRAME_TIMEOUT: Duration = Duration::from_secs(5);
/// How many times the program is started to time its first frame.
const STARTS: usize = 15;
/// The default board's side, in cells.
const SIDE: usize = 9;
/// The seed of the measured game, so every run sees the same board.
const SEED: u64 = 1;

const USAGE: &str = "usage: termcost [PATH/TO/clines [ORIGINAL]]";

/// The paths given: the program, then the original; `None` for `-h` or
/// `--help`.
type Paths = (Option<PathBuf>, Option<PathBuf>);

/// The paths in `args`; an error for an option or a third path.
fn parse(args: impl Iterator<Item = OsString>) -> Result<Option<Paths>, String> {
    let mut paths = Vec::new();
    for arg in args {
        if arg == "-h" || arg == "--help" {
            return Ok(None);
        }
        if arg.to_string_lossy().starts_with('-') {
            return Err(format!("unknown option {}", arg.to_string_lossy()));
        }
        paths.push(PathBuf::from(arg));
    }
    if paths.len() > 2 {
        return Err(format!(
            "{} paths given, at most 2 (the program and the original)",
            paths.len()
        ));
    }
    let mut paths = paths.into_iter();
    Ok(Some((paths.next(), paths.next())))
}

fn main() -> ExitCode {
    let (program, original) = match parse(std::env::args_os().skip(1)) {
        Ok(Some(paths)) => paths,
        Ok(None) => {
            return match say(format_args!("{USAGE}")) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    tell(format_args!("termcost: {e}"));
                    ExitCode::FAILURE
                }
            };
        }
        Err(e) => {
            tell(format_args!("termcost: {e}\n{USAGE}"));
            return ExitCode::from(2);
        }
    };
    let program = match program {
        Some(path) => path,
        None => {
            let exe = std::env::current_exe().expect("the example's own path");
            let dir = exe
                .parent()
                .and_then(|d| d.parent())
                .expect("target/PROFILE");
            dir.join("clines")
        }
    };
    if !program.is_file() {
        tell(format_args!(
            "termcost: no program at {}; build it first (cargo build --release) or give its path",
            program.display()
        ));
        return ExitCode::from(2);
    }
    let result = measure(&program).and_then(|report| {
        report.print(&program)?;
        print_costs(&program, original.as_deref())?;
        print_large_screens(&program)
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tell(format_args!("termcost: {e}"));
            ExitCode::FAILURE
        }
    }
}

/// Writes `line` and a newline to standard output: an error, not a panic
/// as `println!` gives, when it is closed or full (`termcost | head`,
/// `termcost > /dev/full`).
fn say(line: std::fmt::Arguments) -> Result<(), String> {
    write_line(&mut std::io::stdout().lock(), line).map_err(|e| format!("standard output: {e}"))
}

/// Writes `line` and a newline to `out`, flushed so that a failure shows
/// at once.
fn write_line(out: &mut impl Write, line: std::fmt::Arguments) -> std::io::Result<()> {
    writeln!(out, "{line}")?;
    out.flush()
}

/// [`say`] with `println!`'s arguments, returning its error from the
/// function it is in.
macro_rules! say {
    () => {
        say(format_args!(""))?
    };
    ($($arg:tt)*) => {
        say(format_args!($($arg)*))?
    };
}

/// How many times each start-up is measured; the median is reported.
const RUNS: usize = 101;
/// How many times each peak memory is measured; the median is reported.
const PEAK_RUNS: usize = 5;

/// CPU time (user + system) and peak memory of one whole process.
#[derive(Clone, Copy)]
struct ProcessCost {
    cpu: Duration,
    peak_kb: u64,
}

/// One measured command: the program, its arguments and the sandbox it
/// runs in (home, configuration, data and records directories).
#[derive(Clone, Copy)]
struct Run<'a> {
    program: &'a Path,
    args: &'a [&'a str],
    sandbox: &'a Sandbox,
}

impl Run<'_> {
    /// An error unless the run ended with status 0: a failed run (a bad
    /// option, say) costs something else than the one meant.
    fn succeeded(&self, status: ExitStatus) -> Result<(), String> {
        if status.success() {
            return Ok(());
        }
        Err(format!(
            "{} {}: {status}",
            self.program.display(),
            self.args.join(" ")
        ))
    }
}

/// Runs `run` with standard input at its end and output discarded, and
/// returns its CPU time, from `wait4`'s resource usage. (Its peak memory
/// there would count the copy of this harness the child was before it
/// started the program: see [`peak_kb`].)
// A child's own resource usage needs wait4, which std does not offer.
#[allow(unsafe_code)]
fn run_cost(run: Run) -> Result<ProcessCost, String> {
    let child = sandboxed(Command::new(run.program).args(run.args), run.sandbox)
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", run.program.display()))?;
    let pid = i32::try_from(child.id()).map_err(|e| e.to_string())?;
    let mut status = 0;
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: `pid` is our own unwaited child; wait4 writes a whole status
    // and a whole rusage into the buffers given.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, usage.as_mut_ptr()) };
    if waited != pid {
        return Err(format!("wait4 failed for {}", run.program.display()));
    }
    run.succeeded(ExitStatus::from_raw(status))?;
    // SAFETY: wait4 succeeded, so it filled the rusage.
    let usage = unsafe { usage.assume_init() };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    Ok(ProcessCost {
        cpu: time(usage.ru_utime) + time(usage.ru_stime),
        peak_kb: 0,
    })
}

/// `command` in `sandbox`, as the pseudo-terminal runs are, with input at
/// its end and output discarded. The environment is cleared but for
/// `PATH`, a UTF-8 locale and the sandbox's private home, configuration,
/// data and records directories (`XDG_STATE_HOME` unset, so under that
/// home): no configuration file of the user's, no `NO_COLOR`, no
/// `CLINES_*` variable changes what is measured.
fn sandboxed<'c>(command: &'c mut Command, sandbox: &Sandbox) -> &'c mut Command {
    sandbox.apply(command);
    command.stdin(Stdio::null()).stdout(Stdio::null())
}

/// The peak memory of `run` as `/usr/bin/time` reports it, whose own small
/// process is what the measured one starts from.
fn peak_kb(run: Run) -> Result<u64, String> {
    let output = sandboxed(
        Command::new("/usr/bin/time")
            .args(["-f", "%M"])
            .arg(run.program)
            .args(run.args),
        run.sandbox,
    )
    .stderr(Stdio::piped())
    .output()
    .map_err(|e| format!("/usr/bin/time: {e}"))?;
    let text = String::from_utf8_lossy(&output.stderr);
    // /usr/bin/time exits as the program did, and still prints the peak.
    run.succeeded(output.status)
        .map_err(|e| format!("{e}: {}", text.trim_end()))?;
    text.lines()
        .last()
        .and_then(|line| line.trim().parse().ok())
        .ok_or_else(|| format!("/usr/bin/time said {text:?}"))
}

/// The median CPU time of [`RUNS`] runs, the runs of `a` and `b`
/// interleaved so that both see the same machine load, and the median
/// peak memory of a few more runs each.
fn median_costs(a: Run, b: Option<Run>) -> Result<(ProcessCost, Option<ProcessCost>), String> {
    let (mut first, mut second) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        first.push(run_cost(a)?);
        if let Some(b) = b {
            second.push(run_cost(b)?);
        }
    }
    let summary = |costs: &mut Vec<ProcessCost>, run: Run| {
        costs.sort_by_key(|c| c.cpu);
        let mut peaks = (0..PEAK_RUNS)
            .map(|_| peak_kb(run))
            .collect::<Result<Vec<_>, _>>()?;
        peaks.sort();
        Ok::<_, String>(ProcessCost {
            cpu: costs[costs.len() / 2].cpu,
            peak_kb: peaks[peaks.len() / 2],
        })
    };
    let b = match b {
        Some(b) => Some(summary(&mut second, b)?),
        None => None,
    };
    Ok((summary(&mut first, a)?, b))
}

/// How many records the listing is measured with.
const LISTED_RECORDS: usize = 1000;

/// A sandbox whose records directory holds [`LISTED_RECORDS`] users'
/// records in this program's format.
fn listed_scores() -> Result<Sandbox, String> {
    let sandbox = Sandbox::new();
    let dir = sandbox.score_dir();
    for user in 0..LISTED_RECORDS {
        let score = user * 7919 % 5000;
        std::fs::write(
            dir.join(format!("user{user:04}.toml")),
            format!("score = {score}\nset_at = 1700000000\n"),
        )
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    Ok(sandbox)
}

/// How many lines `run` prints (the original's `-l` reads the records of
/// its own data directory, whatever this harness prepares).
fn lines_printed(run: Run) -> Result<usize, String> {
    let output = sandboxed(Command::new(run.program).args(run.args), run.sandbox)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .output()
        .map_err(|e| format!("{}: {e}", run.program.display()))?;
    run.succeeded(output.status)?;
    Ok(output
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .count())
}

/// CPU time so far of every thread of process `pid`, from the scheduler's
/// statistics (nanoseconds).
fn process_cpu(pid: i32) -> Result<Duration, String> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).map_err(|e| e.to_string())?;
    let mut total = 0;
    for task in tasks {
        let path = task.map_err(|e| e.to_string())?.path().join("schedstat");
        let stat = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
        total += stat
            .split_whitespace()
            .next()
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or(0);
    }
    Ok(Duration::from_nanos(total))
}

/// What the game at `cols` × `rows` with `args` costs up to its first
/// complete frame: CPU time, wall time and peak memory. A frame of the
/// original (which brackets nothing) is complete when the board's bottom
/// edge is on the screen.
fn first_frame_cost(
    program: &Path,
    args: &[&str],
    (cols, rows): (u16, u16),
    side: usize,
    bracketed: bool,
) -> Result<(Duration, Duration, u64), String> {
    let mut term = Term::spawn(program, Options::new(cols, rows).args(args.iter().copied()));
    let drawn = if bracketed {
        wait_frame(&term, 0).map(|_| ())
    } else {
        term.wait_screen(FRAME_TIMEOUT * 12, |screen| {
            let edges = screen
                .contents()
                .lines()
                .filter(|l| l.starts_with("|--"))
                .count();
            if edges > side {
                Ok(())
            } else {
                Err(format!("{edges} of the board's {} edges drawn", side + 1))
            }
        })
    };
    let wall = term.spawned_at().elapsed();
    drawn?;
    let cpu = process_cpu(term.pid())?;
    let status = std::fs::read_to_string(format!("/proc/{}/status", term.pid()))
        .map_err(|e| e.to_string())?;
    let peak_kb = status_field(&status, "VmHWM:");
    term.key(Key::Char('q'));
    term.wait_exit(FRAME_TIMEOUT * 12);
    Ok((cpu, wall, peak_kb))
}

/// A measured first frame: its name, the arguments, the terminal's size
/// and the board's side.
type Screen<'a> = (&'a str, &'a [&'a str], (u16, u16), usize);

/// Start-up CPU, time to the first frame and peak memory, of `program`
/// and, when given, of the original side by side (runs interleaved).
fn print_costs(program: &Path, original: Option<&Path>) -> Result<(), String> {
    print_process_costs(program, original)?;
    print_first_frames(program, original)
}

/// Milliseconds, as the tables show them.
fn ms(duration: Duration) -> String {
    format!("{:.2} ms", duration.as_secs_f64() * 1e3)
}

/// Megabytes of `kb` kilobytes, as the tables show them.
fn mb(kb: u64) -> String {
    format!("{:.1} MB", kb as f64 / 1024.0)
}

/// CPU time and peak memory of whole runs: `-v`, `--batch`, `-l`.
fn print_process_costs(program: &Path, original: Option<&Path>) -> Result<(), String> {
    say!();
    say!("| process | ours: CPU, peak | original: CPU, peak | ratio of CPU |");
    say!("|---|---|---|---|");
    let row = |what: &str, ours: ProcessCost, theirs: Option<ProcessCost>| {
        let (other, ratio) = match theirs {
            Some(t) => (
                format!("{}, {}", ms(t.cpu), mb(t.peak_kb)),
                format!("{:.2}", ours.cpu.as_secs_f64() / t.cpu.as_secs_f64()),
            ),
            None => ("-".into(), "-".into()),
        };
        say!(
            "| {what} | {}, {} | {other} | {ratio} |",
            ms(ours.cpu),
            mb(ours.peak_kb)
        );
        Ok::<(), String>(())
    };
    // One sandbox for every run but the listing's, which has its own records.
    let scratch = Sandbox::new();
    let run = |program, args| Run {
        program,
        args,
        sandbox: &scratch,
    };
    let version = median_costs(run(program, &["-v"]), original.map(|o| run(o, &["-v"])))?;
    row("`-v`", version.0, version.1)?;
    // The original has no headless mode: its `-v` is the nearest start-up.
    let batch = median_costs(
        run(program, &["--batch"]),
        original.map(|o| run(o, &["-v"])),
    )?;
    row(
        "`--batch` at end of input (original: `-v`)",
        batch.0,
        batch.1,
    )?;
    let big: &[&str] = &["--batch", "-w1000", "-t1000", "-c1", "-N1000000"];
    let opening = median_costs(run(program, big), None)?;
    row("`--batch -w1000 -t1000 -c1 -N1000000`", opening.0, None)?;
    let listed = listed_scores()?;
    let ours = Run {
        sandbox: &listed,
        ..run(program, &["-l"])
    };
    let theirs = original.map(|o| run(o, &["-l"]));
    let listing = median_costs(ours, theirs)?;
    let theirs_listed = match theirs {
        Some(run) => format!("; original: {} lines", lines_printed(run)?),
        None => String::new(),
    };
    row(
        &format!(
            "`-l`, {LISTED_RECORDS} records (ours: {} lines{theirs_listed})",
            lines_printed(ours)?
        ),
        listing.0,
        listing.1,
    )?;
    Ok(())
}

/// CPU time, wall time and peak memory up to the first frame of a game.
fn print_first_frames(program: &Path, original: Option<&Path>) -> Result<(), String> {
    say!();
    say!("| first frame | ours: CPU, wall, peak | original: CPU, wall, peak |");
    say!("|---|---|---|");
    let cases: [Screen; 2] = [
        ("9x9 at 100x50", &["--seed=1"], (100, 50), SIDE),
        (
            "300x300 at 602x602",
            &["--seed=1", "-w300", "-t300"],
            (602, 602),
            300,
        ),
    ];
    for (what, args, size, side) in cases {
        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        let runs = if size.0 > 200 { 3 } else { 15 };
        for _ in 0..runs {
            ours.push(first_frame_cost(program, args, size, side, true)?);
            if let Some(original) = original {
                theirs.push(first_frame_cost(original, &args[1..], size, side, false)?);
            }
        }
        let median = |runs: &mut Vec<(Duration, Duration, u64)>| {
            runs.sort();
            runs.get(runs.len() / 2)
                .map_or("-".to_string(), |&(cpu, wall, peak)| {
                    format!("{}, {}, {}", ms(cpu), ms(wall), mb(peak))
                })
        };
        say!(
            "| {what} | {} | {} |",
            median(&mut ours),
            median(&mut theirs)
        );
    }
    Ok(())
}

/// The CPU time, wall time and bytes of one frame.
type FrameCost = (Duration, Duration, usize);

/// The first frame and a Ctrl-L repaint of the game with `args` in a
/// `cols` × `rows` terminal, and its peak memory then.
fn huge_screen_cost(
    program: &Path,
    args: &[&str],
    (cols, rows): (u16, u16),
) -> Result<(FrameCost, FrameCost, u64), String> {
    let options = Options::new(cols, rows).emulate(100, 50);
    let mut term = Term::spawn(program, options.args(args.iter().copied()));
    let end = wait_frame(&term, 0)?;
    let first = (process_cpu(term.pid())?, term.spawned_at().elapsed(), end);
    let frames = settle(&term);
    let (cpu, bytes) = (process_cpu(term.pid())?, term.output_len());
    let started = Instant::now();
    term.key(Key::Ctrl('l'));
    let end = wait_frame(&term, frames)?;
    let repaint = (
        process_cpu(term.pid())? - cpu,
        started.elapsed(),
        end - bytes,
    );
    let status = std::fs::read_to_string(format!("/proc/{}/status", term.pid()))
        .map_err(|e| e.to_string())?;
    let peak_kb = status_field(&status, "VmHWM:");
    term.key(Key::Char('q'));
    term.wait_exit(FRAME_TIMEOUT * 12);
    Ok((first, repaint, peak_kb))
}

/// First frame, full repaint and peak memory in huge terminals.
fn print_large_screens(program: &Path) -> Result<(), String> {
    let cost = |(cpu, wall, bytes): FrameCost| {
        format!(
            "{:.1} ms, {:.1} ms, {bytes} B",
            cpu.as_secs_f64() * 1e3,
            wall.as_secs_f64() * 1e3
        )
    };
    say!();
    say!(
        "| huge terminal | first frame: CPU, wall, bytes | Ctrl-L repaint: CPU, wall, bytes | peak |"
    );
    say!("|---|---|---|---|");
    let cases: [Screen; 4] = [
        (
            "300x300 at 602x602",
            &["--seed=1", "-w300", "-t300"],
            (602, 602),
            300,
        ),
        (
            "1000x1000 at 2002x2002",
            &["--seed=1", "-w1000", "-t1000"],
            (2002, 2002),
            1000,
        ),
        ("9x9 at 5000x5000", &["--seed=1"], (5000, 5000), SIDE),
        ("9x9 at 6000x6000", &["--seed=1"], (6000, 6000), SIDE),
    ];
    for (what, args, size, _) in cases {
        let mut runs = (0..3)
            .map(|_| huge_screen_cost(program, args, size))
            .collect::<Result<Vec<_>, _>>()?;
        runs.sort_by_key(|run| run.1.0);
        let (first, repaint, peak_kb) = runs[runs.len() / 2];
        say!(
            "| {what} | {} | {} | {:.1} MB |",
            cost(first),
            cost(repaint),
            peak_kb as f64 / 1024.0
        );
    }
    Ok(())
}

/// What was measured.
struct Report {
    first_frame_bytes: usize,
    /// Several starts, sorted.
    first_frame_times: Vec<Duration>,
    /// Time from start to the first byte of `clines -v`, best of several:
    /// the cost of starting the process at all, for comparison.
    exec_baseline: Duration,
    move_bytes: Vec<usize>,
    repaint_bytes: usize,
    idle_bytes_per_s: f64,
    idle_wakeups_per_s: f64,
    idle_syscalls_per_s: Option<f64>,
    selected_bytes_per_s: f64,
    selected_wakeups_per_s: f64,
    selected_syscalls_per_s: Option<f64>,
    peak_memory_kb: u64,
}

impl Report {
    /// Prints the report: a table of each cost beside the original game's
    /// and the target, and whether it is met.
    fn print(&self, program: &std::path::Path) -> Result<(), String> {
        say!(
            "termcost: {} at 100x50, TERM=xterm-256color",
            program.display()
        );
        say!();
        say!("| | original | target | ours | met |");
        say!("|---|---|---|---|---|");
        self.print_output_rows()?;
        self.print_start_rows()
    }

    /// The rows of what the game writes to the terminal, and how often it
    /// wakes to do so.
    fn print_output_rows(&self) -> Result<(), String> {
        let moves = self.move_bytes.len();
        let move_avg = self.move_bytes.iter().sum::<usize>() as f64 / moves as f64;
        let (min, max) = (
            self.move_bytes.iter().min().copied().unwrap_or(0),
            self.move_bytes.iter().max().copied().unwrap_or(0),
        );
        row(
            "first frame",
            "2 643 B",
            "<= 2 643 B",
            format!("{} B", self.first_frame_bytes),
            self.first_frame_bytes <= 2643,
        )?;
        row(
            "one cursor move",
            "131 B",
            "<= 131 B (aim 65)",
            format!("{move_avg:.1} B (avg of {moves}, {min}-{max})"),
            move_avg <= 131.0,
        )?;
        row(
            "chip selected",
            "455-476 B/s, 75 syscalls/s",
            "<= 455 B/s",
            format!(
                "{:.0} B/s, {:.1} wake-ups/s, {} syscalls/s",
                self.selected_bytes_per_s,
                self.selected_wakeups_per_s,
                per_second(self.selected_syscalls_per_s)
            ),
            self.selected_bytes_per_s <= 455.0,
        )?;
        row(
            "Ctrl-L repaint",
            "2 300 B",
            "<= 2 300 B",
            format!("{} B", self.repaint_bytes),
            self.repaint_bytes <= 2300,
        )?;
        row(
            "idle, nothing selected",
            "15 syscalls/s",
            "0",
            format!(
                "{:.1} wake-ups/s, {} syscalls/s, {:.0} B/s",
                self.idle_wakeups_per_s,
                per_second(self.idle_syscalls_per_s),
                self.idle_bytes_per_s
            ),
            self.idle_wakeups_per_s == 0.0 && self.idle_syscalls_per_s.is_none_or(|n| n == 0.0),
        )
    }

    /// The rows of what starting the game costs: time to the first frame
    /// and peak memory.
    fn print_start_rows(&self) -> Result<(), String> {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let times = &self.first_frame_times;
        let median = times[times.len() / 2];
        row(
            "first frame after start",
            "2.8 ms",
            "<= 5 ms",
            format!(
                "{:.1} ms best of {} (median {:.1}, worst {:.1}); exec alone {:.1} ms",
                ms(times[0]),
                times.len(),
                ms(median),
                ms(times[times.len() - 1]),
                ms(self.exec_baseline)
            ),
            times[0] <= Duration::from_millis(5),
        )?;
        row(
            "peak memory (VmHWM)",
            "2.8 MB",
            "<= 5 MB",
            format!("{:.1} MB", self.peak_memory_kb as f64 / 1024.0),
            self.peak_memory_kb <= 5 * 1024,
        )
    }
}

/// Prints one row of the report's table: what was measured, the original
/// game's figure, the target, ours, and whether `met`.
fn row(what: &str, original: &str, target: &str, ours: String, met: bool) -> Result<(), String> {
    let met = if met { "yes" } else { "NO" };
    say!("| {what} | {original} | {target} | {ours} | {met} |");
    Ok(())
}

/// A rate for the table, or `n/a` when it could not be measured.
fn per_second(rate: Option<f64>) -> String {
    rate.map_or_else(|| "n/a".into(), |rate| format!("{rate:.1}"))
}

/// System calls per second of every thread of process `pid` over
/// [`WINDOW`], counted by `strace -c -f` attached for that time; `None`
/// when strace is missing or may not attach. Measured separately from the
/// wake-ups, which tracing would inflate.
// Stopping strace needs a signal, which the standard library cannot send.
#[allow(unsafe_code)]
fn syscalls_over_window(pid: i32) -> Option<f64> {
    let strace = std::process::Command::new("strace")
        .args(["-f", "-c", "-q", "-p", &pid.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    let started = Instant::now();
    std::thread::sleep(WINDOW);
    let strace_pid = i32::try_from(strace.id()).ok()?;
    // SAFETY: kill has no memory-safety preconditions; SIGINT makes strace
    // detach and print its summary.
    unsafe { libc::kill(strace_pid, libc::SIGINT) };
    let seconds = started.elapsed().as_secs_f64();
    let output = strace.wait_with_output().ok()?;
    let summary = String::from_utf8_lossy(&output.stderr);
    // The last line: "100.00  seconds  usecs/call  calls  [errors]  total".
    let total = summary
        .lines()
        .rev()
        .find(|line| line.trim_end().ends_with("total"));
    let calls = match total {
        Some(line) => line.split_whitespace().nth(3)?.parse::<f64>().ok()?,
        // No table at all: nothing was called.
        None if output.status.success() || summary.trim().is_empty() => 0.0,
        None => return None,
    };
    Some(calls / seconds)
}

/// Where each frame ends in `output`, as byte offsets just past the marker.
fn frame_ends(output: &[u8]) -> Vec<usize> {
    output
        .windows(END_SYNC.len())
        .enumerate()
        .filter(|(_, w)| *w == END_SYNC)
        .map(|(i, _)| i + END_SYNC.len())
        .collect()
}

/// Waits for frame number `n` (0-based) to be complete; returns where it ends.
fn wait_frame(term: &Term, n: usize) -> Result<usize, String> {
    // Only what came since the last look is searched: a frame of a huge
    // screen comes in a thousand reads, and searching all of the output
    // at each one, with the reader kept waiting, took longer than the
    // timeout.
    let mut ends = Vec::new();
    let mut searched: usize = 0;
    let found = term.wait_for_output(FRAME_TIMEOUT, |raw| {
        let from = searched.saturating_sub(END_SYNC.len() - 1);
        ends.extend(frame_ends(&raw[from..]).into_iter().map(|end| from + end));
        searched = raw.len();
        ends.len() > n
    });
    if found {
        Ok(ends[n])
    } else {
        Err(format!(
            "frame {} did not come within {FRAME_TIMEOUT:?} (output so far: {} bytes, {} frames)",
            n + 1,
            term.output_len(),
            frame_ends(&term.raw_output()).len()
        ))
    }
}

/// Waits until the program has written nothing for a while (it has
/// handled everything typed so far), then returns the number of frames.
fn settle(term: &Term) -> usize {
    loop {
        let len = term.output_len();
        if !term.wait_for_output(Duration::from_millis(300), |raw| raw.len() > len) {
            return frame_ends(&term.raw_output()).len();
        }
    }
}

/// Sends `key` and returns the size of the one frame it causes.
fn frame_after(term: &mut Term, key: Key) -> Result<usize, String> {
    let frames = settle(term);
    let start = frame_ends(&term.raw_output()).last().copied().unwrap_or(0);
    term.key(key);
    let end = wait_frame(term, frames)?;
    Ok(end - start)
}

/// Context switches of every thread of process `pid` so far.
fn context_switches(pid: i32) -> Result<u64, String> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).map_err(|e| e.to_string())?;
    let mut total = 0;
    for task in tasks {
        let path = task.map_err(|e| e.to_string())?.path().join("status");
        let status = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
        total += status_field(&status, "voluntary_ctxt_switches:")
            + status_field(&status, "nonvoluntary_ctxt_switches:");
    }
    Ok(total)
}

/// The number after `name` in a `/proc/.../status` text (0 if absent).
fn status_field(status: &str, name: &str) -> u64 {
    status
        .lines()
        .find_map(|line| line.strip_prefix(name))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// Bytes and wake-ups per second over [`WINDOW`] of doing nothing.
fn rates_over_window(term: &Term) -> Result<(f64, f64), String> {
    let bytes = term.output_len();
    let switches = context_switches(term.pid())?;
    let started = Instant::now();
    std::thread::sleep(WINDOW);
    let seconds = started.elapsed().as_secs_f64();
    let switches = context_switches(term.pid())? - switches;
    let bytes = term.output_len() - bytes;
    Ok((bytes as f64 / seconds, switches as f64 / seconds))
}

/// The first chip of the seeded opening, from the headless mode.
fn first_chip(program: &std::path::Path) -> Result<(usize, usize), String> {
    let seed = SEED.to_string();
    let output = pty::run_piped(program, &["--batch", "--seed", &seed], "board\n");
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines()
        .enumerate()
        .find_map(|(y, row)| row.find(|c| c != '.').map(|x| (x, y)))
        .ok_or_else(|| format!("no chip in the headless board {text:?}"))
}

/// Time from starting `clines` to its first complete frame.
fn time_first_frame(program: &std::path::Path) -> Result<Duration, String> {
    let mut term = Term::spawn(program, Options::new(100, 50).arg(format!("--seed={SEED}")));
    wait_frame(&term, 0)?;
    let elapsed = term.spawned_at().elapsed();
    term.key(Key::Char('q'));
    term.wait_exit(FRAME_TIMEOUT);
    Ok(elapsed)
}

/// Time from starting `clines -v` to its first byte of output.
fn exec_baseline(program: &std::path::Path) -> Result<Duration, String> {
    let mut term = Term::spawn(program, Options::new(100, 50).arg("-v"));
    if !term.wait_for_output(FRAME_TIMEOUT, |raw| !raw.is_empty()) {
        return Err("clines -v wrote nothing".into());
    }
    let elapsed = term.spawned_at().elapsed();
    term.wait_exit(FRAME_TIMEOUT);
    Ok(elapsed)
}

fn measure(program: &std::path::Path) -> Result<Report, String> {
    let chip = first_chip(program)?;
    let mut term = Term::spawn(program, Options::new(100, 50).arg(format!("--seed={SEED}")));
    let first_frame_bytes = wait_frame(&term, 0)?;
    let mut first_frame_times = vec![term.spawned_at().elapsed()];

    // To the top-left corner, then right and down along the edges.
    term.keys(&[Key::Left; SIDE]);
    term.keys(&[Key::Up; SIDE]);
    let mut move_bytes = Vec::new();
    for key in [[Key::Right; SIDE - 1], [Key::Down; SIDE - 1]].concat() {
        move_bytes.push(frame_after(&mut term, key)?);
    }
    let repaint_bytes = frame_after(&mut term, Key::Ctrl('l'))?;

    settle(&term);
    let (idle_bytes_per_s, idle_wakeups_per_s) = rates_over_window(&term)?;
    let idle_syscalls_per_s = syscalls_over_window(term.pid());

    // Select the first chip with the keyboard.
    term.keys(&[Key::Left; SIDE]);
    term.keys(&[Key::Up; SIDE]);
    term.keys(&vec![Key::Right; chip.0]);
    term.keys(&vec![Key::Down; chip.1]);
    settle(&term);
    term.key(Key::Char(' '));
    let (selected_bytes_per_s, selected_wakeups_per_s) = rates_over_window(&term)?;
    let selected_syscalls_per_s = syscalls_over_window(term.pid());

    let status = std::fs::read_to_string(format!("/proc/{}/status", term.pid()))
        .map_err(|e| e.to_string())?;
    let peak_memory_kb = status_field(&status, "VmHWM:");

    term.key(Key::Char('q'));
    let exit = term.wait_exit(FRAME_TIMEOUT);
    if !exit.success() {
        return Err(format!("clines exited with {exit}"));
    }
    for _ in 1..STARTS {
        first_frame_times.push(time_first_frame(program)?);
    }
    first_frame_times.sort();
    Ok(Report {
        first_frame_bytes,
        first_frame_times,
        exec_baseline: (0..STARTS)
            .map(|_| exec_baseline(program))
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .min()
            .unwrap_or_default(),
        move_bytes,
        repaint_bytes,
        idle_bytes_per_s,
        idle_wakeups_per_s,
        idle_syscalls_per_s,
        selected_bytes_per_s,
        selected_wakeups_per_s,
        selected_syscalls_per_s,
        peak_memory_kb,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(args: &[&str]) -> Result<Option<Paths>, String> {
        parse(args.iter().map(OsString::from))
    }

    #[test]
    fn help_is_asked_for_not_a_program() {
        assert_eq!(parsed(&["--help"]), Ok(None));
        assert_eq!(parsed(&["clines", "-h"]), Ok(None));
    }

    #[test]
    fn options_and_extra_paths_are_refused() {
        assert_eq!(parsed(&[]), Ok(Some((None, None))));
        let both = Some((Some("a".into()), Some("b".into())));
        assert_eq!(parsed(&["a", "b"]), Ok(both));
        assert!(parsed(&["a", "b", "c"]).is_err());
        assert_eq!(parsed(&["--bogus"]), Err("unknown option --bogus".into()));
    }

    #[test]
    fn a_full_output_is_an_error_not_a_panic() {
        let mut full = [0u8; 4];
        let error = write_line(&mut &mut full[..], format_args!("| a row |")).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::WriteZero);
        let mut written = Vec::new();
        write_line(&mut written, format_args!("| {} |", 1)).unwrap();
        assert_eq!(written, b"| 1 |\n");
    }

    #[test]
    fn a_failed_run_is_an_error_not_a_cost() {
        let sandbox = Sandbox::new();
        let run = Run {
            program: Path::new("false"),
            args: &[],
            sandbox: &sandbox,
        };
        assert!(run_cost(run).is_err());
        assert!(peak_kb(run).is_err());
        assert!(lines_printed(run).is_err());
        let run = Run {
            program: Path::new("true"),
            ..run
        };
        assert!(run_cost(run).is_ok());
        assert!(lines_printed(run).is_ok());
    }

    #[test]
    fn a_run_sees_only_its_sandbox() {
        let sandbox = Sandbox::new();
        let mut command = Command::new("env");
        let output = sandboxed(&mut command, &sandbox)
            .stdout(Stdio::piped())
            .output()
            .unwrap();
        let text = String::from_utf8(output.stdout).unwrap();
        let mut names: Vec<&str> = text.lines().filter_map(|l| l.split('=').next()).collect();
        names.sort();
        let expected = [
            "CLINES_SCORE_DIR",
            "HOME",
            "LANG",
            "PATH",
            "XDG_CONFIG_HOME",
            "XDG_DATA_HOME",
        ];
        assert_eq!(names, expected);
        let home = format!("HOME={}", sandbox.home().display());
        assert!(text.lines().any(|l| l == home), "{text}");
    }
}
