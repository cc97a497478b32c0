//! The real binary's command line: refusals, help, version, the config file,
//! and the man page and completion scripts kept in step with the options
//! clap knows.

use std::collections::BTreeSet;
use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use clap::CommandFactory;
use clines::cli::{Args, CONFIG_KEYS};

use crate::pty::{Watchdog, without_privilege};

/// A run of `clines` in its own empty home, with `stdin` as input.
fn clines(home: &Path, args: &[&str], env: &[(&str, &str)], stdin: &str) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_clines"));
    command
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("CLINES_SCORE_DIR", home.join("scores"))
        .envs(env.iter().copied());
    run_with_input(command, stdin)
}

/// `command`'s output, given `stdin` as its input; a program that hangs is
/// killed and fails the test.
fn run_with_input(mut command: Command, stdin: &str) -> Output {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("clines runs");
    let watchdog = Watchdog::new(&child);
    let written = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    // A refusal exits without reading its input.
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    let output = child.wait_with_output().unwrap();
    drop(watchdog);
    output
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).expect("UTF-8 output")
}

/// Checks that `output` is a refusal: status 2, nothing on stdout, one plain
/// message on stderr containing every part of `says`.
fn assert_refused(output: &Output, says: &[&str]) {
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(output.stdout.is_empty(), "{:?}", text(&output.stdout));
    assert!(!output.stderr.contains(&0x1b), "escape code in {stderr:?}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert_eq!(stderr.matches("error:").count(), 1, "{stderr}");
    for part in says {
        assert!(stderr.contains(part), "{stderr:?} lacks {part:?}");
    }
}

#[test]
fn bad_options_are_refused_before_anything_else() {
    let home = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], &[&str])] = &[
        (&["-w0"], &["-w 0", "board width", "from 1 to 1000"]),
        (&["-t", "1001"], &["-t 1001", "from 1 to 1000"]),
        (&["-c36"], &["-c 36", "from 1 to 35"]),
        (&["-i1"], &["-i 1", "from 2 to 1000"]),
        (&["-w2", "-t2", "-n5"], &["-n 5", "from 0 to 4"]),
        (&["-N0"], &["-N 0", "from 1 to 81"]),
        (&["-w", "x"], &["'x'", "whole number"]),
        (&["-C", "hjk"], &["-C \"hjk\"", "exactly 5"]),
        (&["-f", "IＯo"], &["double-width"]),
        (&["-F", "*Oo"], &["-F \"*Oo\"", "at least 11"]),
        (&["-c6", "-mb"], &["-c 6", "-m b", "-F"]),
        (&["-m", "x"], &["-m x", "start with c (colour) or b"]),
        (&["-o", "7,1,2,3,4"], &["-o 7,1,2,3,4", "at least 6"]),
        (&["-o", "7,0,2,3,4,5"], &["\"0\"", "1 to 255"]),
        (&["-o", "7,one,2,3,4,5"], &["\"one\""]),
        (&["-x"], &["'-x'"]),
        (&["--colour=5"], &["'--colour"]),
        (&["--batch", "-w0"], &["-w 0"]),
        (&["--completions", "tcsh"], &["'tcsh'", "bash, zsh, fish"]),
    ];
    for (args, says) in cases {
        let output = clines(home.path(), args, &[], "");
        assert_refused(&output, says);
    }
}

#[test]
fn help_lists_every_option_and_exits_zero() {
    let home = tempfile::tempdir().unwrap();
    for flag in ["-h", "--help", "-hl"] {
        let output = clines(home.path(), &[flag], &[], "");
        assert_eq!(output.status.code(), Some(0));
        assert!(output.stderr.is_empty());
        let help = text(&output.stdout);
        assert!(!help.contains('\x1b'));
        for (short, long) in clap_options() {
            let names = short.iter().chain(long.iter());
            for name in names {
                assert!(help.contains(name.as_str()), "{name} missing from -h");
            }
        }
        assert!(help.contains("[default: 9]"));
        // The configuration directory as this system has it, which the
        // manual's FILES gives too.
        let config_dir = if cfg!(target_os = "macos") {
            "~/Library/Application Support/clines/"
        } else {
            "~/.config/clines/"
        };
        assert!(help.contains(config_dir), "{config_dir} missing from -h");
        assert!(man_section("FILES").contains(config_dir));
    }
}

#[test]
fn version_prints_name_and_version() {
    let home = tempfile::tempdir().unwrap();
    for flag in ["-v", "--version", "-lv"] {
        let output = clines(home.path(), &[flag], &[], "");
        assert_eq!(output.status.code(), Some(0));
        assert_eq!(
            text(&output.stdout),
            format!("clines {}\n", env!("CARGO_PKG_VERSION"))
        );
    }
}

/// A panic on the main thread (asked for through the debug build's
/// `CLINES_TEST_PANIC`) prints std's message, naming the thread, with the
/// note on backtraces or the backtrace asked for, and exits with std's 101.
#[cfg(debug_assertions)]
#[test]
fn a_panic_is_reported_as_std_reports_it() {
    let home = tempfile::tempdir().unwrap();
    let asked = [("CLINES_TEST_PANIC", "start")];
    let output = clines(home.path(), &["-l"], &asked, "");
    assert_eq!(output.status.code(), Some(101));
    let stderr = text(&output.stderr);
    assert!(
        stderr.starts_with("\nthread 'main' panicked at src/main.rs:")
            && stderr.contains(":\nCLINES_TEST_PANIC=start\nnote: run with `RUST_BACKTRACE=1`"),
        "{stderr:?}"
    );
    let traced = [("CLINES_TEST_PANIC", "start"), ("RUST_BACKTRACE", "1")];
    let output = clines(home.path(), &["-l"], &traced, "");
    assert_eq!(output.status.code(), Some(101));
    assert!(
        text(&output.stderr).contains("\nstack backtrace:\n"),
        "{:?}",
        text(&output.stderr)
    );
}

/// A closed standard stream is opened on `/dev/null` before anything else,
/// as std's runtime does, so that no file the program opens can take its
/// place and receive what is meant for it.
#[cfg(target_os = "linux")]
#[test]
fn a_closed_standard_stream_is_opened_on_dev_null() {
    let home = tempfile::tempdir().unwrap();
    // The config file is read at start-up: without the fix, it would be
    // opened as standard error, then closed, leaving none. (Standard
    // output closed ends a headless game at once: see below.)
    fs::write(home.path().join("config.toml"), "width = 9\n").unwrap();
    let mut child = Command::new("sh")
        .args(["-c", "exec \"$0\" --batch 2>&-"])
        .arg(env!("CARGO_BIN_EXE_clines"))
        .env("HOME", home.path())
        .env("CLINES_CONFIG", home.path().join("config.toml"))
        .env("CLINES_SCORE_DIR", home.path().join("scores"))
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    let watchdog = Watchdog::new(&child);
    // The loader opens libraries there for a moment before clines starts;
    // clines then opens /dev/null there first thing, and keeps it while it
    // waits for its first command. Without the fix, standard error is
    // never /dev/null: closed, or the config file while it is read.
    let link = format!("/proc/{}/fd/2", child.id());
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let stdout = loop {
        let stdout = fs::read_link(&link).ok();
        if stdout.as_deref() == Some(Path::new("/dev/null")) || std::time::Instant::now() > deadline
        {
            break stdout;
        }
        std::thread::yield_now();
    };
    drop(child.stdin.take());
    assert_eq!(child.wait().unwrap().code(), Some(0));
    drop(watchdog);
    assert_eq!(stdout.as_deref(), Some(Path::new("/dev/null")));
}

/// Where the C compiler has the unwinder as an archive (`libgcc_eh.a`),
/// the binary links it in (see build.rs) and does not load `libgcc_s` at
/// start, and panics still unwind (see the panic tests).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn the_unwinder_is_linked_in_not_loaded() {
    use std::io::{BufRead, BufReader};
    let compiler = std::env::var_os("CC").unwrap_or_else(|| "cc".into());
    let archive = Command::new(compiler)
        .arg("-print-file-name=libgcc_eh.a")
        .output()
        .map(|o| Path::new(text(&o.stdout).trim()).is_file())
        .unwrap_or(false);
    if !archive {
        // Nothing to link in: the binary loads libgcc_s, as it may.
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_clines"))
        .args(["--batch", "--seed", "1"])
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("CLINES_SCORE_DIR", home.path().join("scores"))
        .env_remove("CLINES_CONFIG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let watchdog = Watchdog::new(&child);
    let mut input = child.stdin.take().unwrap();
    input.write_all(b"status\n").unwrap();
    // Answered: the program has started and is waiting for more.
    let mut answer = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut answer)
        .unwrap();
    let maps = fs::read_to_string(format!("/proc/{}/maps", child.id())).unwrap();
    drop(input);
    assert_eq!(child.wait().unwrap().code(), Some(0));
    drop(watchdog);
    assert!(answer.starts_with("score="), "{answer:?}");
    assert!(maps.contains("libc.so"), "{maps}");
    assert!(!maps.contains("libgcc_s"), "{maps}");
}

/// A reader that stops early (`clines --batch | head -1`) ends the program
/// quietly with status 0: SIGPIPE is ignored, as std's runtime does, so
/// the write fails instead of the signal killing the process.
#[test]
fn a_reader_that_stops_early_is_no_error() {
    let home = tempfile::tempdir().unwrap();
    for args in [&["--batch", "--seed", "1"][..], &["--completions", "bash"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_clines"))
            .args(args)
            .env("HOME", home.path())
            .env("XDG_CONFIG_HOME", home.path().join("config"))
            .env("CLINES_SCORE_DIR", home.path().join("scores"))
            .env_remove("CLINES_CONFIG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let watchdog = Watchdog::new(&child);
        // The reader is gone before the first answer is written.
        drop(child.stdout.take());
        // The program may be gone by now too.
        let _ = child
            .stdin
            .take()
            .unwrap()
            .write_all(b"board\n".repeat(100).as_slice());
        let output = child.wait_with_output().unwrap();
        drop(watchdog);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {:?}",
            output.status
        );
        assert_eq!(text(&output.stderr), "", "{args:?}");
    }
}

/// The board's rows as `--batch` prints them.
fn batch_board(home: &Path, args: &[&str], env: &[(&str, &str)]) -> Vec<String> {
    let mut args = args.to_vec();
    args.extend(["--batch", "--seed", "7"]);
    let output = clines(home, &args, env, "board\nquit\n");
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    text(&output.stdout).lines().map(str::to_string).collect()
}

#[test]
fn config_file_in_xdg_config_home_sets_the_rules_and_flags_override() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("config/clines");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("config.toml"), "width = 4\nheight = 3\n").unwrap();
    let board = batch_board(home.path(), &[], &[]);
    assert_eq!(board.len(), 3);
    assert!(board.iter().all(|row| row.len() == 4), "{board:?}");
    let board = batch_board(home.path(), &["-w6"], &[]);
    assert_eq!(board.len(), 3);
    assert!(board.iter().all(|row| row.len() == 6), "{board:?}");
}

#[test]
fn clines_config_names_the_file() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("elsewhere.toml");
    fs::write(&file, "height = 2\n").unwrap();
    let env = [("CLINES_CONFIG", file.to_str().unwrap())];
    let board = batch_board(home.path(), &["-w5"], &env);
    assert_eq!(board, batch_board(home.path(), &["-w5", "-t2"], &[]));
    assert_eq!(board.len(), 2);
    // The usual file is not read when CLINES_CONFIG names another.
    let dir = home.path().join("config/clines");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("config.toml"), "height = 7\n").unwrap();
    assert_eq!(batch_board(home.path(), &["-w5"], &env).len(), 2);
    // A file named explicitly must exist.
    let missing = home.path().join("missing.toml");
    let env = [("CLINES_CONFIG", missing.to_str().unwrap())];
    let output = clines(home.path(), &["--batch"], &env, "quit\n");
    assert_refused(&output, &["missing.toml", "CLINES_CONFIG"]);
}

#[test]
fn missing_config_means_defaults() {
    let home = tempfile::tempdir().unwrap();
    let board = batch_board(home.path(), &[], &[]);
    assert_eq!(board.len(), 9);
    assert!(board.iter().all(|row| row.len() == 9));
}

#[test]
fn bad_config_files_are_refused_naming_file_and_key() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("config.toml");
    let shown = file.display().to_string();
    let env = [("CLINES_CONFIG", file.to_str().unwrap())];
    let cases: &[(&str, &[&str])] = &[
        ("widht = 9\n", &["unknown key \"widht\"", "width"]),
        ("width = \"nine\"\n", &["width = \"nine\"", "whole number"]),
        ("colors = 0\n", &["colors = 0", "from 1 to 35"]),
        // Batch mode needs no particular number of colours, only good ones.
        (
            "palette = \"7,1,0\"\n",
            &["palette = \"7,1,0\"", "1 to 255"],
        ),
        ("width = [\n", &["invalid TOML at line"]),
    ];
    for (config, says) in cases {
        fs::write(&file, config).unwrap();
        let output = clines(home.path(), &["--batch"], &env, "quit\n");
        let mut says = says.to_vec();
        says.push(&shown);
        assert_refused(&output, &says);
    }
    // A directory where the file should be cannot be read, even by root.
    fs::remove_file(&file).unwrap();
    fs::create_dir(&file).unwrap();
    let output = clines(home.path(), &["--batch"], &env, "quit\n");
    assert_refused(&output, &[&shown, "cannot read"]);
}

/// `command`'s output, which must come within a generous deadline: a
/// program that hangs is killed and fails the test.
fn output_within_deadline(mut command: Command) -> Output {
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("clines runs");
    let pid = child.id().to_string();
    let (send, output) = mpsc::channel();
    thread::spawn(move || send.send(child.wait_with_output()));
    match output.recv_timeout(Duration::from_secs(30)) {
        Ok(output) => output.unwrap(),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid]).status();
            panic!("clines hung");
        }
    }
}

/// `clines --batch` in `home`, with `env` on top.
fn batch_in(home: &Path, env: &[(&str, &Path)]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_clines"));
    command
        .arg("--batch")
        .env_clear()
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("CLINES_SCORE_DIR", home.join("scores"))
        .envs(env.iter().copied());
    command
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status();
    assert!(made.unwrap().success());
}

#[test]
fn a_fifo_as_config_file_is_refused_at_once() {
    let home = tempfile::tempdir().unwrap();
    let named = home.path().join("c.toml");
    mkfifo(&named);
    let output = output_within_deadline(batch_in(home.path(), &[("CLINES_CONFIG", &named)]));
    assert_refused(
        &output,
        &[
            "c.toml",
            "CLINES_CONFIG",
            "a FIFO (named pipe), not a regular file",
        ],
    );

    let dir = home.path().join("config/clines");
    fs::create_dir_all(&dir).unwrap();
    mkfifo(&dir.join("config.toml"));
    let output = output_within_deadline(batch_in(home.path(), &[]));
    assert_refused(
        &output,
        &["config.toml", "a FIFO (named pipe), not a regular file"],
    );
    // Nor is a device read as one.
    let device = Path::new("/dev/zero");
    let output = output_within_deadline(batch_in(home.path(), &[("CLINES_CONFIG", device)]));
    assert_refused(&output, &["/dev/zero", "a character device"]);
}

/// A config file that leads nowhere through a symbolic link is a player's
/// settings gone (a dotfiles folder moved, say): the game plays with the
/// defaults and says why, whether the file or its folder is the link;
/// `CLINES_CONFIG` naming such a file is refused with the reason. With no
/// file at all, nothing is said.
#[cfg(unix)]
#[test]
fn a_config_link_to_nothing_is_warned_of() {
    use std::os::unix::fs::symlink;
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("config");
    fs::create_dir_all(config.join("clines")).unwrap();
    let play = |env: &[(&str, &Path)]| {
        let mut command = batch_in(home.path(), env);
        command.args(["-w4", "-t2", "--seed=1"]);
        output_within_deadline(command)
    };
    let warned = |output: Output| {
        let stderr = text(&output.stderr).to_string();
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        stderr
    };
    assert_eq!(warned(play(&[])), "", "no config, no word");

    let file = config.join("clines/config.toml");
    let gone = home.path().join("dotfiles/clines.toml");
    symlink(&gone, &file).unwrap();
    assert_eq!(
        warned(play(&[])),
        format!(
            "warning: no config file at {}: it is a symbolic link to {}, which leads nowhere; \
             playing with the defaults\n",
            file.display(),
            gone.display()
        )
    );

    // The folder linked, by a path from the link's own folder.
    fs::remove_file(&file).unwrap();
    fs::remove_dir(config.join("clines")).unwrap();
    symlink("../dotfiles/clines", config.join("clines")).unwrap();
    assert_eq!(
        warned(play(&[])),
        format!(
            "warning: no config file at {}: {} above it is a symbolic link to {}, which leads \
             nowhere; playing with the defaults\n",
            file.display(),
            config.join("clines").display(),
            config.join("../dotfiles/clines").display()
        )
    );

    let output = play(&[("CLINES_CONFIG", &file)]);
    assert_refused(
        &output,
        &[
            "cannot read the config file (named by CLINES_CONFIG)",
            "above it is a symbolic link to",
        ],
    );
}

/// A file where the config directory should be (a stray `clines` file,
/// or a link to one) holds no config file: the game plays with the
/// defaults and names the file in the way, as a records directory under a
/// file is told; `CLINES_CONFIG` naming a file below it is refused with
/// the same reason.
#[cfg(unix)]
#[test]
fn a_file_in_the_config_directory_s_place_is_warned_of() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("config");
    fs::create_dir_all(&config).unwrap();
    let in_the_way = config.join("clines");
    fs::write(&in_the_way, "").unwrap();
    let mut command = batch_in(home.path(), &[]);
    command.args(["-w4", "-t2", "--seed=1"]);
    let output = output_within_deadline(command);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "warning: no config file at {}: {} above it is not a directory; \
             playing with the defaults\n",
            in_the_way.join("config.toml").display(),
            in_the_way.display()
        )
    );

    let named = in_the_way.join("config.toml");
    let output = output_within_deadline(batch_in(home.path(), &[("CLINES_CONFIG", &named)]));
    assert_refused(
        &output,
        &[
            "cannot read the config file (named by CLINES_CONFIG)",
            "clines above it is not a directory",
        ],
    );
}

/// Standard output closed (`>&-`) is a failed write, told and exit status 1,
/// not output silently lost: the runtime puts `/dev/null` in its place.
/// A run that has nothing to write there is no failure.
#[test]
fn a_closed_standard_output_is_a_failure_once_written_to() {
    let home = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str, bool); 7] = [
        (&["-v"], "", true),
        (&["-h"], "", true),
        (&["--completions", "bash"], "", true),
        (&["--batch", "--seed", "1"], "status\n", true),
        // No records to list, no answer to give.
        (&["-l"], "", false),
        (&["--batch", "--seed", "1"], "# nothing to answer\n", false),
        (&["--batch", "--seed", "1"], "quit\n", false),
    ];
    for (args, input, fails) in cases {
        let mut child = Command::new("sh")
            .args(["-c", "exec \"$0\" \"$@\" >&-", env!("CARGO_BIN_EXE_clines")])
            .args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", home.path())
            .env("XDG_CONFIG_HOME", home.path().join("config"))
            .env("CLINES_SCORE_DIR", home.path().join("scores"))
            .stdin(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let watchdog = Watchdog::new(&child);
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let output = child.wait_with_output().unwrap();
        drop(watchdog);
        let stderr = text(&output.stderr);
        let told = stderr.contains("standard output") && stderr.contains("closed");
        assert_eq!(
            (output.status.code(), told),
            (Some(i32::from(fails)), fails),
            "{args:?} {input:?}: {stderr}"
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn an_unreadable_config_directory_without_the_file_means_defaults() {
    use std::os::unix::fs::PermissionsExt;
    let home = tempfile::tempdir().unwrap();
    fs::set_permissions(home.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let dir = home.path().join("config/clines");
    fs::create_dir_all(&dir).unwrap();
    let batch = || {
        let mut command = without_privilege(batch_in(home.path(), &[]));
        command.arg("-w4").arg("-t2").arg("--seed=1");
        command
    };
    let set = |mode| fs::set_permissions(&dir, fs::Permissions::from_mode(mode)).unwrap();
    let played = |output: &Output, warned: bool| {
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        assert_eq!(text(&output.stdout), "", "no input, no answer");
        assert_eq!(
            stderr.starts_with("warning: cannot look for a config file in "),
            warned,
            "{stderr}"
        );
    };
    // Listable but not searchable, with no file: the defaults, silently.
    set(0o444);
    played(&output_within_deadline(batch()), false);
    // Neither: nothing can be known, so a warning, then the defaults.
    set(0o000);
    played(&output_within_deadline(batch()), true);
    // A file that is there but cannot be read stops the game.
    set(0o755);
    fs::write(dir.join("config.toml"), "width = 5\n").unwrap();
    fs::set_permissions(dir.join("config.toml"), fs::Permissions::from_mode(0o000)).unwrap();
    for mode in [0o755, 0o444] {
        set(mode);
        let output = output_within_deadline(batch());
        assert_refused(
            &output,
            &[
                "config.toml",
                "cannot read the config file",
                "Permission denied",
            ],
        );
    }
    set(0o755);
}

/// Repeated colours are a warning on the full screen (`cli::tests`); batch
/// mode draws no chips, so it plays without a word.
#[test]
fn duplicate_colours_stop_nothing() {
    let home = tempfile::tempdir().unwrap();
    let output = clines(
        home.path(),
        &["--batch", "-o", "7,1,1,3,4,5"],
        &[],
        "status\n",
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(text(&output.stderr), "");
    assert!(text(&output.stdout).starts_with("score=0 "));
}

/// `-l` and batch mode draw nothing, so too few black-and-white glyphs or
/// colour numbers for the colours stop only a game on the full screen.
#[test]
fn drawing_settings_stop_neither_batch_nor_list() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("config.toml");
    fs::write(&file, "palette = [7, 9, 10, 11, 12, 13]\n").unwrap();
    let no_color = [("NO_COLOR", "1")];
    let short_palette = [("CLINES_CONFIG", file.to_str().unwrap())];
    type Env<'a> = &'a [(&'a str, &'a str)];
    let runs: [(&[&str], Env); 3] = [
        (&["-c6"], &no_color),
        (&["-c6", "-m", "b"], &[]),
        (&["-c6"], &short_palette),
    ];
    for (args, env) in runs {
        let batch = [&["--batch"], args].concat();
        let output = clines(home.path(), &batch, env, "status\n");
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{batch:?}: {stderr}");
        assert!(stderr.is_empty(), "{batch:?}: {stderr}");
        assert_eq!(text(&output.stdout), "score=0 free=78 streak=0 over=no\n");
        let list = [&["-l"], args].concat();
        let output = clines(home.path(), &list, env, "");
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{list:?}: {stderr}");
        assert!(stderr.contains("no records yet"), "{list:?}: {stderr}");
    }
    // The full screen still needs them: refused before any terminal check.
    let output = clines(home.path(), &["-c6"], &no_color, "");
    assert_refused(&output, &["-c 6", "NO_COLOR", "at least 13"]);
}

/// Whether `bytes` are plain printable text: ASCII from space to `~`, the
/// excerpt mark `…` and newlines.
fn printable(bytes: &[u8]) -> bool {
    text(bytes)
        .chars()
        .all(|c| c == '\n' || c == '…' || (' '..='~').contains(&c))
}

#[test]
fn quoted_values_are_escaped_and_cut() {
    let home = tempfile::tempdir().unwrap();
    let long = "k".repeat(100_000);
    let cases: &[(&[&str], &str)] = &[
        (&["-w", "\u{1b}[31m9"], r"'\u{1b}[31m9'"),
        (&["--\u{1b}]0;x\u{7}"], r"'--\u{1b}]0;x\u{7}'"),
        (&["-m", "\u{9b}31m"], r"-m \u{9b}31m:"),
        (&["-p", "x\u{1b}]2;title\u{7}"], r"-p x\u{1b}]2;title\u{7}:"),
        (&["--cells", "x\u{1b}[2Jy"], r"--cells x\u{1b}[2Jy:"),
        (&["--cells", &long], "kkkk…: the cells must be"),
        // Empty or spaced values are quoted, so that the message reads.
        (&["-p", ""], r#"-p "": the preview must be"#),
        (&["-m", " c"], r#"-m " c": the mode must start with"#),
        (&["-o", ""], r#"-o "": "#),
        (&["-o", "7,\u{1b}[2J"], r#""\u{1b}[2J""#),
        (&["-f", "\u{202e}ab"], r#"-f "\u{202e}ab""#),
        (&["-C", &long], "kkkk…\": expected exactly 5 keys"),
        (&["-w", &long], "kkkk…' for"),
        (&[&long], "kkkk…' found"),
    ];
    for (args, says) in cases {
        let output = clines(home.path(), args, &[], "");
        assert_refused(&output, &[says]);
        assert!(printable(&output.stderr), "{:?}", text(&output.stderr));
        assert!(output.stderr.len() < 1000, "{} bytes", output.stderr.len());
    }
    // Values and names from the config file too.
    let file = home.path().join("x\u{1b}[31m.toml");
    fs::write(&file, format!("keys = \"{long}\"\n")).unwrap();
    let env = [("CLINES_CONFIG", file.to_str().unwrap())];
    let output = clines(home.path(), &["--batch"], &env, "");
    assert_refused(
        &output,
        &[r"x\u{1b}[31m.toml", "kkkk…\": expected", "got 100000"],
    );
    assert!(printable(&output.stderr), "{:?}", text(&output.stderr));
    assert!(output.stderr.len() < 1000, "{} bytes", output.stderr.len());
}

/// Runs `clines args` with standard error on `/dev/full`, where every
/// write fails, as on a closed pipe or terminal.
#[cfg(target_os = "linux")]
fn with_stderr_full(home: &Path, args: &[&str], stdin: &str) -> Output {
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_clines"))
        .args(args)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("CLINES_SCORE_DIR", home.join("scores"))
        .env_remove("CLINES_CONFIG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(full)
        .spawn()
        .unwrap();
    let watchdog = Watchdog::new(&child);
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let output = child.wait_with_output().unwrap();
    drop(watchdog);
    output
}

#[cfg(target_os = "linux")]
#[test]
fn a_failing_standard_error_never_panics() {
    let home = tempfile::tempdir().unwrap();
    // A warning, then the game plays.
    let output = with_stderr_full(home.path(), &["--batch", "-o", "7,1,1,3,4,5"], "status\n");
    assert_eq!(output.status.code(), Some(0));
    assert!(text(&output.stdout).starts_with("score=0 "));
    // Refusals, clap's and ours, and a failure while playing.
    for args in [&["-w", "x"][..], &["-w0"], &["--nonsense"]] {
        assert_eq!(
            with_stderr_full(home.path(), args, "").status.code(),
            Some(2)
        );
    }
    let output = with_stderr_full(home.path(), &["--batch"], "");
    assert_eq!(output.status.code(), Some(0));
    fs::write(home.path().join("scores"), "a file").unwrap();
    let output = with_stderr_full(home.path(), &["-l"], "");
    assert_eq!(output.status.code(), Some(1));
}

/// Every option clap knows: its short and long names, with dashes.
fn clap_options() -> Vec<(Option<String>, Option<String>)> {
    Args::command()
        .get_arguments()
        .map(|arg| {
            (
                arg.get_short().map(|c| format!("-{c}")),
                arg.get_long().map(|l| format!("--{l}")),
            )
        })
        .collect()
}

/// The option names the man page's OPTIONS section lists, from the tag line
/// after each `.TP`.
fn man_options() -> BTreeSet<String> {
    let page = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("man/clines.6"))
        .expect("man/clines.6 exists");
    let section = page
        .split("\n.SH ")
        .find(|s| s.starts_with("OPTIONS\n"))
        .expect("an OPTIONS section");
    let mut names = BTreeSet::new();
    let mut lines = section.lines();
    while let Some(line) = lines.next() {
        if line != ".TP" {
            continue;
        }
        let tag = lines.next().expect("a tag after .TP");
        let plain = tag
            .replace("\\fB", "")
            .replace("\\fI", "")
            .replace("\\fR", "")
            .replace("\\fP", "")
            .replace("\\-", "-");
        names.extend(
            plain
                .split([' ', ',', '|', '='])
                .filter(|word| word.starts_with('-'))
                .map(str::to_string),
        );
    }
    names
}

/// Every option name clap knows, short and long, with dashes.
fn clap_option_names() -> BTreeSet<String> {
    clap_options()
        .into_iter()
        .flat_map(|(short, long)| short.into_iter().chain(long))
        .collect()
}

#[test]
fn man_page_options_match_clap() {
    let clap = clap_option_names();
    let man = man_options();
    assert!(clap.len() >= 30, "{clap:?}");
    assert_eq!(
        man, clap,
        "man page OPTIONS (left) and clap's options (right) differ"
    );
}

#[test]
fn readme_config_example_is_accepted() {
    let readme = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md exists");
    let example = readme
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a TOML example in the README");
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("config.toml");
    fs::write(&file, example).unwrap();
    let env = [("CLINES_CONFIG", file.to_str().unwrap())];
    let output = clines(home.path(), &["--batch"], &env, "status\n");
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(output.stderr.is_empty(), "{}", text(&output.stderr));
}

/// The README says which options that take a value have no config key:
/// exactly those clap knows to take a value whose long name, with `_` for
/// `-`, is no key.
#[test]
fn readme_names_the_options_without_a_config_key() {
    let readme = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md exists");
    let flat = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let sentence = flat
        .split("Every option that takes a value")
        .nth(1)
        .and_then(|rest| rest.split("has a key of the same name").next())
        .expect("the README's sentence on config keys");
    let named: BTreeSet<String> = sentence
        .split('`')
        .filter(|word| word.starts_with("--"))
        .map(str::to_string)
        .collect();
    let keyless: BTreeSet<String> = Args::command()
        .get_arguments()
        .filter(|arg| arg.get_action().takes_values())
        .filter_map(|arg| arg.get_long())
        .filter(|long| !CONFIG_KEYS.contains(&long.replace('-', "_").as_str()))
        .map(|long| format!("--{long}"))
        .collect();
    assert!(keyless.contains("--seed"), "{keyless:?}");
    assert_eq!(
        named, keyless,
        "options the README names as keyless (left) and those with no key (right) differ"
    );
}

/// A section of the man page, from its `.SH` line to the next.
fn man_section(name: &str) -> String {
    let page = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("man/clines.6"))
        .expect("man/clines.6 exists");
    page.split("\n.SH ")
        .find(|s| s.starts_with(&format!("{name}\n")))
        .unwrap_or_else(|| panic!("a {name} section"))
        .to_string()
}

#[test]
fn man_page_and_readme_name_every_config_key_and_long_option() {
    let files = man_section("FILES");
    for key in CONFIG_KEYS {
        let bold = files
            .lines()
            .any(|line| line.starts_with(".B") && line.split([' ', '"']).any(|w| w == key));
        assert!(bold, "config key {key} missing from the man page's FILES");
    }
    let readme = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md exists");
    for (_, long) in clap_options() {
        let long = long.expect("every option has a long form");
        assert!(
            readme.contains(&format!("`{long}")),
            "{long} missing from the README"
        );
    }
}

/// The option names a completion script offers, read the way each shell's
/// script spells them.
fn completion_options(shell: &str, script: &str) -> BTreeSet<String> {
    match shell {
        // The top command's `opts="..."` line (after an empty one).
        "bash" => script
            .lines()
            .filter_map(|line| line.trim().strip_prefix("opts=\"")?.strip_suffix('"'))
            .find(|opts| !opts.is_empty())
            .expect("an opts line")
            .split_whitespace()
            .map(str::to_string)
            .collect(),
        // One `'-w+[help]...'` or `'--width=[help]...'` spec a line, after
        // the options it cannot go with, if any: `'(-l --list)--batch[...'`.
        "zsh" => script
            .lines()
            .filter_map(|line| line.strip_prefix('\''))
            .map(|spec| match spec.strip_prefix('(') {
                Some(rest) => rest.split_once(')').map_or(spec, |(_, spec)| spec),
                None => spec,
            })
            .filter(|spec| spec.starts_with('-'))
            .map(|spec| spec[..spec.find(['+', '=', '[']).unwrap_or(spec.len())].to_string())
            .collect(),
        // `complete -c clines -s w -l width -d 'help' ...`.
        "fish" => script
            .lines()
            .filter_map(|line| line.strip_prefix("complete -c clines "))
            .flat_map(|line| {
                let words: Vec<&str> = line.split(' ').take_while(|&w| w != "-d").collect();
                words
                    .chunks(2)
                    .filter_map(|pair| match pair {
                        ["-s", short] => Some(format!("-{short}")),
                        ["-l", long] => Some(format!("--{long}")),
                        _ => None,
                    })
                    .collect::<Vec<_>>()
            })
            .collect(),
        _ => unreachable!("no completion test for {shell}"),
    }
}

#[test]
fn every_key_of_the_help_overlay_is_in_the_man_page_the_readme_and_help() {
    let controls = man_section("CONTROLS");
    let readme = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md exists");
    let home = tempfile::tempdir().unwrap();
    let help = text(&clines(home.path(), &["-h"], &[], "").stdout).to_string();
    let lines = clines::tui::help_lines(&clines::cli::DEFAULT_KEYS, 5);
    let keys: Vec<&str> = lines
        .iter()
        .filter_map(|line| line.get(..8).map(str::trim))
        .filter(|key| key.len() == 1 || key.starts_with("Ctrl-") || *key == "F1")
        .collect();
    assert!(keys.len() >= 9, "{keys:?}");
    for key in keys {
        let man = format!(".B {}", key.replace('-', "\\-"));
        assert!(
            controls.lines().any(|l| l.starts_with(&man)),
            "{key} missing from the man page's CONTROLS"
        );
        let listed = if key.len() == 1 {
            format!("`{key}`")
        } else {
            key.to_string()
        };
        assert!(readme.contains(&listed), "{key} missing from the README");
        if key.len() == 1 || key == "F1" {
            assert!(help.contains(&format!("{key} ")), "{key} missing from -h");
        }
    }
}

#[test]
fn completion_scripts_offer_every_option_and_every_shell() {
    let home = tempfile::tempdir().unwrap();
    let clap = clap_option_names();
    // How each script offers the shell names after --completions.
    let shells: [(&str, &[&str]); 3] = [
        ("bash", &["compgen -W \"bash zsh fish\""]),
        ("zsh", &["((bash\\:", "\nzsh\\:", "\nfish\\:"]),
        (
            "fish",
            &["-l completions", "\"bash\\t", "\nzsh\\t", "\nfish\\t"],
        ),
    ];
    for (shell, offers_shells) in shells {
        let output = clines(home.path(), &["--completions", shell], &[], "");
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        assert!(output.stderr.is_empty(), "{}", text(&output.stderr));
        let script = text(&output.stdout);
        assert_eq!(
            completion_options(shell, script),
            clap,
            "the {shell} script's options (left) and clap's (right) differ"
        );
        for offer in offers_shells {
            assert!(script.contains(offer), "{shell} script lacks {offer:?}");
        }
    }
}

/// The options that take one of a few names offer those names, not file
/// names.
#[test]
fn completion_scripts_offer_the_names_an_option_takes() {
    let home = tempfile::tempdir().unwrap();
    let names = [
        ("preview", ["off", "colors", "cells"].as_slice()),
        ("cells", &["square", "wide"]),
        ("mode", &["c", "b"]),
    ];
    for shell in ["bash", "zsh", "fish"] {
        let output = clines(home.path(), &["--completions", shell], &[], "");
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        let script = text(&output.stdout);
        for (option, names) in names {
            let offer = match shell {
                "bash" => format!("compgen -W \"{}\"", names.join(" ")),
                "zsh" => format!(":({})'", names.join(" ")),
                _ => format!(
                    "-r -f -a \"{}\"",
                    names
                        .iter()
                        .map(|name| format!("{name}\\t''"))
                        .collect::<Vec<_>>()
                        .join("\n")
                ),
            };
            assert!(
                script.contains(&offer),
                "the {shell} script does not offer {offer:?} for --{option}"
            );
        }
    }
}

/// No option takes a file, so no script offers file names: not after a
/// number, keys, glyphs or a palette either.
#[test]
fn completion_scripts_offer_no_file_names() {
    let home = tempfile::tempdir().unwrap();
    for shell in ["bash", "zsh", "fish"] {
        let output = clines(home.path(), &["--completions", shell], &[], "");
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        let script = text(&output.stdout);
        let offers_files: Vec<&str> = match shell {
            "bash" => script
                .lines()
                .filter(|l| l.contains("compgen -f"))
                .collect(),
            "zsh" => script
                .lines()
                .filter(|l| l.contains(":_default") || l.contains("_files"))
                .collect(),
            _ => script
                .lines()
                .filter(|l| l.contains(" -r") && !l.contains(" -r -f"))
                .collect(),
        };
        assert!(
            offers_files.is_empty(),
            "the {shell} script offers file names: {offers_files:#?}"
        );
        assert!(script.contains("width"), "the {shell} script lacks --width");
    }
}

/// Run in bash, the script completes a value typed after `=` (bash splits
/// `--preview=c` in three words) and never falls back to bash's own
/// completion, which offered file names wherever the script offered
/// nothing: clines takes no operands. The fish script says so too.
#[test]
fn completion_scripts_fall_back_to_no_file_names() {
    let home = tempfile::tempdir().unwrap();
    let output = clines(home.path(), &["--completions", "bash"], &[], "");
    let script = home.path().join("clines.bash");
    fs::write(&script, &output.stdout).unwrap();
    fs::write(home.path().join("a-file"), "").unwrap();
    // Each case sets the words as bash would, then calls the function with
    // the command, the word being completed and the word before it.
    let probe = r#"source "$1"
complete -p clines
COMP_WORDS=(clines --preview = c); COMP_CWORD=3; _clines clines c =
echo "after --preview=c: ${COMPREPLY[*]}"
COMP_WORDS=(clines -p c); COMP_CWORD=2; _clines clines c -p
echo "after -p c: ${COMPREPLY[*]}"
COMP_WORDS=(clines a); COMP_CWORD=1; _clines clines a clines
echo "as an operand: ${COMPREPLY[*]}"
"#;
    let ran = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", probe, "probe"])
        .arg(&script)
        .current_dir(home.path())
        .output()
        .expect("bash runs");
    assert!(ran.status.success(), "{}", text(&ran.stderr));
    let (how, offered) = text(&ran.stdout).split_once('\n').unwrap();
    assert!(
        how.starts_with("complete ") && how.ends_with(" clines"),
        "{how}"
    );
    assert!(
        !how.contains("default"),
        "bash falls back on its own: {how}"
    );
    assert_eq!(
        offered,
        "after --preview=c: colors cells\n\
         after -p c: colors cells\n\
         as an operand: \n"
    );
    let fish = clines(home.path(), &["--completions", "fish"], &[], "");
    assert!(
        text(&fish.stdout)
            .lines()
            .any(|line| line == "complete -c clines -f"),
        "{}",
        text(&fish.stdout)
    );
}

#[test]
fn completions_need_no_config_file() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("config.toml");
    fs::write(&file, "widht = 9\n").unwrap();
    let env = [("CLINES_CONFIG", file.to_str().unwrap())];
    let output = clines(home.path(), &["--completions", "fish"], &env, "");
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(text(&output.stdout).starts_with("complete -c clines "));
}

/// A completion script that cannot be written whole is an error, not a
/// cut-off file with status 0 (Linux has the always-full device).
#[cfg(target_os = "linux")]
#[test]
fn completions_on_a_full_disk_fail() {
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_clines"))
        .args(["--completions", "bash"])
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(
        stderr.starts_with("clines: writing the completion script: "),
        "{stderr}"
    );
}

/// A write past a file-size limit (`ulimit -f`) fails as on a full disk:
/// the limit's SIGXFSZ does not kill the program.
#[test]
fn writing_past_a_file_size_limit_fails_as_on_a_full_disk() {
    let home = tempfile::tempdir().unwrap();
    let file = fs::File::create(home.path().join("version")).unwrap();
    let output = Command::new("sh")
        .args(["-c", "ulimit -f 0 && exec \"$0\" -v"])
        .arg(env!("CARGO_BIN_EXE_clines"))
        .stdin(Stdio::null())
        .stdout(file)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stderr = text(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{:?}: {stderr}",
        output.status
    );
    assert!(
        stderr.starts_with("clines: writing the version: File too large"),
        "{stderr}"
    );
}

/// Help, the version and the records that cannot be written whole are an
/// error, as the completion script is, not silence with status 0.
#[cfg(target_os = "linux")]
#[test]
fn help_version_and_records_on_a_full_disk_fail() {
    let home = tempfile::tempdir().unwrap();
    let scores = home.path().join("scores");
    fs::create_dir(&scores).unwrap();
    fs::write(scores.join("zed.toml"), "score = 12\nset_at = 1\n").unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["-h"], "the help"),
        (&["--help"], "the help"),
        (&["-v"], "the version"),
        (&["-lv"], "the version"),
        (&["-l"], "the records"),
    ];
    for (args, what) in cases {
        let full = fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_clines"))
            .args(args)
            .env_clear()
            .env("HOME", home.path())
            .env("XDG_CONFIG_HOME", home.path().join("config"))
            .env("XDG_DATA_HOME", home.path().join("data"))
            .env("CLINES_SCORE_DIR", &scores)
            .stdin(Stdio::null())
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(
            stderr,
            format!("clines: writing {what}: No space left on device (os error 28)\n"),
            "{args:?}"
        );
    }
}

/// A config directory found from a relative `HOME` would follow where
/// clines is started: no config file is read from it, as no records are
/// kept there, while the same file found from an absolute `HOME` is.
#[test]
fn no_config_file_is_read_from_a_relative_home() {
    let started_in = tempfile::tempdir().unwrap();
    let config = started_in.path().join("home/.config/clines");
    fs::create_dir_all(&config).unwrap();
    fs::write(config.join("config.toml"), "width = 7\n").unwrap();
    let rules = |home: &Path| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_clines"));
        command
            .args(["--batch", "--seed", "1"])
            .current_dir(started_in.path())
            .env_clear()
            .env("HOME", home)
            .env("CLINES_SCORE_DIR", started_in.path().join("scores"));
        let output = run_with_input(command, "rules\n");
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    assert!(rules(&started_in.path().join("home")).contains("width=7"));
    assert!(rules(Path::new("home")).contains("width=9"));
}
