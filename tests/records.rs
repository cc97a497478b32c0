//! Records through real processes: `clines -l` on a prepared records
//! directory, and two processes of the same user saving at once.

use std::fs;
use std::io::{self, BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::pty::{Watchdog, without_privilege};
use clines::records::{self, SaveOutcome, Store};

/// Set in a child copy of this test binary: the records directory to save in.
const CHILD_DIR: &str = "CLINES_TEST_SAVE_DIR";
/// Set in a child copy: which half of the scores it saves (0 or 1).
const CHILD_PARITY: &str = "CLINES_TEST_SAVE_PARITY";
/// Saves per child, each one made at the same time as the other child's.
const ROUNDS: u64 = 150;
/// A child's line before each round.
const READY: &str = "ready\n";

fn cscore_bytes(score: i32) -> Vec<u8> {
    [
        0xC001_CEED_u32.to_be_bytes(),
        1_u32.to_be_bytes(),
        score.to_be_bytes(),
    ]
    .concat()
}

/// Runs `clines` with every place it could look for files inside `home`.
fn clines(home: &Path, score_dir: Option<&Path>, args: &[&str]) -> Output {
    clines_command(home, score_dir, args)
        .output()
        .expect("clines runs")
}

/// The command [`clines`] runs.
fn clines_command(home: &Path, score_dir: Option<&Path>, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_clines"));
    command
        .args(args)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env_remove("CLINES_SCORE_DIR")
        .env_remove("CLINES_CONFIG")
        // The listing's dates are local.
        .env("TZ", "UTC");
    if let Some(dir) = score_dir {
        command.env("CLINES_SCORE_DIR", dir);
    }
    command
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).expect("UTF-8 output")
}

#[test]
fn list_shows_every_record_best_first_and_warns_about_bad_files() {
    let home = tempfile::tempdir().unwrap();
    let scores = home.path().join("scores");
    fs::create_dir(&scores).unwrap();
    fs::write(scores.join("zed.cscore"), cscore_bytes(500)).unwrap();
    fs::write(scores.join("bob.toml"), "score = 700\nset_at = 1\n").unwrap();
    fs::write(scores.join("broken.toml"), "score = [").unwrap();
    let me = records::current_user().ok();
    if let Some(me) = &me {
        let outcome = Store::new(&scores, me).unwrap().save(42).unwrap();
        assert_eq!(outcome, SaveOutcome::Saved { best_of_all: false });
    }

    let output = clines(home.path(), Some(&scores), &["-l"]);
    assert!(output.status.success(), "{output:?}");
    let listed = text(&output.stdout);
    // The original's files give no date; a record saved now, today's.
    let (others, mine) = listed.split_at(listed.find("* ").unwrap_or(listed.len()));
    assert_eq!(others, "  bob     \t700\t1970-01-01\n  zed     \t500\n");
    if let Some(me) = &me {
        let date = mine
            .strip_prefix(&format!("* {me:<8}\t42\t"))
            .and_then(|rest| rest.strip_suffix('\n'))
            .unwrap_or_else(|| panic!("{listed:?}"));
        assert!(
            date.len() == 10 && date.starts_with("20") && date.as_bytes()[4] == b'-',
            "{listed:?}"
        );
    } else {
        assert_eq!(mine, "");
    }
    let stderr = text(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("clines: skipping ") && stderr.contains("broken.toml: corrupt"),
        "{stderr}"
    );
    assert_eq!(
        fs::read_to_string(scores.join("broken.toml")).unwrap(),
        "score = ["
    );
}

#[test]
fn list_without_records_says_so() {
    let home = tempfile::tempdir().unwrap();
    let empty = home.path().join("empty");
    fs::create_dir(&empty).unwrap();
    let missing = home.path().join("missing");
    for dir in [&empty, &missing] {
        let output = clines(home.path(), Some(dir), &["-l"]);
        assert!(output.status.success(), "{output:?}");
        assert_eq!(text(&output.stdout), "");
        assert_eq!(
            text(&output.stderr),
            format!("clines: no records yet in {}\n", dir.display())
        );
    }
    assert!(!missing.exists(), "listing creates no directory");
}

#[test]
fn list_fails_when_the_records_directory_cannot_be_read() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("file");
    fs::write(&file, "").unwrap();
    let output = clines(home.path(), Some(&file), &["-l"]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert_eq!(text(&output.stdout), "");
    assert_eq!(
        text(&output.stderr),
        format!(
            "clines: the records directory {} is not a directory\n",
            file.display()
        )
    );

    let locked = home.path().join("locked");
    fs::create_dir(&locked).unwrap();
    fs::write(locked.join("amy.toml"), "score = 9\nset_at = 1\n").unwrap();
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
    // Root reads it anyway: run as a user whom permissions stop.
    fs::set_permissions(home.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let command = clines_command(home.path(), Some(&locked), &["-l"]);
    let output = without_privilege(command).output().expect("clines runs");
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let stderr = text(&output.stderr);
    assert!(
        stderr.starts_with(&format!(
            "clines: cannot read the records directory {}: ",
            locked.display()
        )),
        "{stderr}"
    );
}

/// A relative `CLINES_SCORE_DIR` would put records wherever clines was
/// started: refused, as the config file's `score_dir` refuses one, even
/// where it names a directory with records.
#[test]
fn list_refuses_a_relative_score_dir_variable() {
    let home = tempfile::tempdir().unwrap();
    let scores = home.path().join("scores");
    fs::create_dir(&scores).unwrap();
    fs::write(scores.join("amy.toml"), "score = 9\nset_at = 1\n").unwrap();
    for relative in ["scores", "./scores"] {
        let (config, data) = (home.path().join("config"), home.path().join("data"));
        let env = [
            ("HOME", home.path().as_os_str()),
            ("XDG_CONFIG_HOME", config.as_os_str()),
            ("XDG_DATA_HOME", data.as_os_str()),
            ("CLINES_SCORE_DIR", relative.as_ref()),
        ];
        list_refused(
            home.path(),
            &env,
            &format!(
                "clines: no directory for records: CLINES_SCORE_DIR=\"{relative}\": expected an \
                 absolute directory path, not one relative to where clines is started\n"
            ),
        );
    }
}

/// Runs `clines -l` in `cwd` with `env` alone naming places (the other
/// variables that could are removed), and checks that it fails with
/// `message` and lists nothing.
fn list_refused(cwd: &Path, env: &[(&str, &std::ffi::OsStr)], message: &str) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_clines"));
    command.arg("-l").current_dir(cwd);
    for name in [
        "XDG_CONFIG_HOME",
        "XDG_DATA_HOME",
        "CLINES_SCORE_DIR",
        "CLINES_CONFIG",
    ] {
        command.env_remove(name);
    }
    let output = command
        .envs(env.iter().copied())
        .output()
        .expect("clines runs");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert_eq!(text(&output.stdout), "");
    assert_eq!(text(&output.stderr), message);
}

/// A relative `HOME` would put the default records directory wherever
/// clines is started: it is refused, and nothing is read there.
#[cfg(target_os = "linux")]
#[test]
fn list_refuses_a_records_directory_under_a_relative_home() {
    let cwd = tempfile::tempdir().unwrap();
    let scores = cwd.path().join("home/.local/share/clines/scores");
    fs::create_dir_all(&scores).unwrap();
    fs::write(scores.join("amy.toml"), "score = 9\nset_at = 1\n").unwrap();
    list_refused(
        cwd.path(),
        &[("HOME", "home".as_ref())],
        "clines: no directory for records: set CLINES_SCORE_DIR or score_dir in the config \
         file (the data directory found from HOME, \"home/.local/share/clines\", is relative \
         to where clines is started)\n",
    );
}

#[cfg(target_os = "linux")]
#[test]
fn list_falls_back_to_the_data_directory() {
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join("data").join("clines");
    let scores = data.join("scores");
    fs::create_dir_all(&scores).unwrap();
    fs::write(scores.join("bob.toml"), "score = 12\nset_at = 1\n").unwrap();
    // Where earlier versions kept records: still read, never reported.
    fs::write(data.join("amy.toml"), "score = 9\nset_at = 1\n").unwrap();
    fs::write(data.join("notes.toml"), "title = \"mine\"\n").unwrap();
    let output = clines(home.path(), None, &["-l"]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        text(&output.stdout),
        "  bob     \t12\t1970-01-01\n  amy     \t9\t1970-01-01\n"
    );
    assert_eq!(text(&output.stderr), "");
}

/// Not a test on its own: the role of each child process in
/// [`processes_saving_at_once_keep_the_higher`], selected by environment
/// variables; without them it returns at once. Before each round it says
/// [`READY`] on standard error and waits for a line on standard input.
#[test]
fn concurrent_save_child() {
    let (Some(dir), Some(parity)) = (std::env::var_os(CHILD_DIR), std::env::var_os(CHILD_PARITY))
    else {
        return;
    };
    let dir = Path::new(&dir);
    let parity: u64 = parity.to_str().unwrap().parse().unwrap();
    let alice = Store::new(dir.join("scores"), "alice").unwrap();
    let mut go = io::stdin().lines();
    for round in 0..ROUNDS {
        // Written straight to the descriptor: the test harness captures
        // eprintln!.
        io::stderr().write_all(READY.as_bytes()).unwrap();
        go.next().expect("the parent gone").unwrap();
        let score = 2 * round + parity + 1;
        alice.save(score).unwrap();
        let stored = alice.load().unwrap().unwrap().score;
        assert!(stored >= score, "saved {score}, then found {stored}");
    }
}

/// Two processes save the same user's record round after round. Each round
/// starts when both are ready, so that every save meets the other's, and
/// neither can take the lock round after round while the other waits: on a
/// loaded machine that kept a waiter out past the lock's 5 s bound.
#[test]
fn processes_saving_at_once_keep_the_higher() {
    let home = tempfile::tempdir().unwrap();
    let mut children: Vec<_> = (0..2)
        .map(|parity| {
            Command::new(std::env::current_exe().unwrap())
                .args([
                    "records::concurrent_save_child",
                    "--exact",
                    "--test-threads=1",
                ])
                .env(CHILD_DIR, home.path())
                .env(CHILD_PARITY, parity.to_string())
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("a child test process")
        })
        .collect();
    let watchdogs: Vec<_> = children.iter().map(Watchdog::new).collect();
    let mut said: Vec<_> = children
        .iter_mut()
        .map(|child| BufReader::new(child.stderr.take().unwrap()).lines())
        .collect();
    // Whatever else a child says, kept for the failure message.
    let mut other_lines = String::new();
    'rounds: for _ in 0..ROUNDS {
        for lines in &mut said {
            loop {
                match lines.next() {
                    Some(Ok(line)) if line == READY.trim_end() => break,
                    Some(Ok(line)) => other_lines.push_str(&(line + "\n")),
                    // A child that ended early: its status tells why.
                    _ => break 'rounds,
                }
            }
        }
        for child in &mut children {
            if writeln!(child.stdin.as_mut().unwrap(), "go").is_err() {
                break 'rounds;
            }
        }
    }
    for ((mut child, lines), watchdog) in children.into_iter().zip(said).zip(watchdogs) {
        // A child still waiting for its round ends.
        drop(child.stdin.take());
        let rest: Vec<String> = lines.map_while(Result::ok).collect();
        let output = child.wait_with_output().unwrap();
        drop(watchdog);
        assert!(
            output.status.success(),
            "child failed:\n{}{other_lines}{}",
            text(&output.stdout),
            rest.join("\n")
        );
        assert!(
            text(&output.stdout).contains("1 passed"),
            "the child role did not run: {}",
            text(&output.stdout)
        );
    }
    let scores = home.path().join("scores");
    let alice = Store::new(&scores, "alice").unwrap();
    assert_eq!(alice.load().unwrap().unwrap().score, 2 * ROUNDS);
    let names: Vec<_> = fs::read_dir(&scores)
        .unwrap()
        .map(|item| item.unwrap().file_name())
        .collect();
    assert_eq!(names, ["alice.toml"], "temporary files left behind");
    let output = clines(home.path(), Some(&scores), &["-l"]);
    let listed = text(&output.stdout);
    assert!(
        listed.starts_with(&format!("  alice   \t{}\t", 2 * ROUNDS)) && listed.lines().count() == 1,
        "{listed:?}"
    );
}

#[test]
fn list_shows_the_table_of_the_rules_given_with_dates() {
    let home = tempfile::tempdir().unwrap();
    let scores = home.path().join("scores");
    fs::create_dir(&scores).unwrap();
    // 2023-11-14 22:13:20 UTC.
    fs::write(
        scores.join("amy.toml"),
        "score = 80\nset_at = 1700000000\n\n\
         [rules.w12-t9-c5-i5-n3-N3]\nscore = 30\nset_at = 1700000000\n",
    )
    .unwrap();
    fs::write(
        scores.join("bob.toml"),
        "[rules.w12-t9-c5-i5-n3-N3]\nscore = 45\nset_at = 86400\n",
    )
    .unwrap();
    fs::write(scores.join("zed.cscore"), cscore_bytes(500)).unwrap();

    let output = clines(home.path(), Some(&scores), &["-l"]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        text(&output.stdout),
        "  zed     \t500\n  amy     \t80\t2023-11-14\n"
    );
    for wide in [&["-l", "-w12"][..], &["-l", "--width", "12", "-c5"][..]] {
        let output = clines(home.path(), Some(&scores), wide);
        assert!(output.status.success(), "{output:?}");
        assert_eq!(
            text(&output.stdout),
            "  bob     \t45\t1970-01-02\n  amy     \t30\t2023-11-14\n"
        );
        assert_eq!(text(&output.stderr), "");
    }
    let mut tokyo = Command::new(env!("CARGO_BIN_EXE_clines"));
    tokyo
        .args(["-l", "-w12"])
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("CLINES_SCORE_DIR", &scores)
        .env_remove("CLINES_CONFIG")
        .env("TZ", "JST-9");
    let output = tokyo.output().unwrap();
    assert_eq!(
        text(&output.stdout),
        "  bob     \t45\t1970-01-02\n  amy     \t30\t2023-11-15\n",
        "local dates"
    );

    let output = clines(home.path(), Some(&scores), &["-l", "-c7", "-N4"]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(text(&output.stdout), "");
    assert_eq!(
        text(&output.stderr),
        format!(
            "clines: no records yet for -w9 -t9 -c7 -i5 -n3 -N4 in {}; other rules have records \
             there: give -l their options to list them\n",
            scores.display()
        )
    );
}

#[test]
fn list_escapes_what_files_name_and_hold() {
    let home = tempfile::tempdir().unwrap();
    let scores = home.path().join("scores");
    fs::create_dir(&scores).unwrap();
    fs::write(scores.join("x\u{1b}[31m.toml"), "score = 1\nset_at = 1\n").unwrap();
    fs::write(scores.join("bad.toml"), "score = \u{1b}]0;pwned\u{7}\n").unwrap();
    let output = clines(home.path(), Some(&scores), &["-l"]);
    assert!(output.status.success(), "{output:?}");
    let stderr = text(&output.stderr);
    assert_eq!(stderr.lines().count(), 3, "{stderr}");
    assert!(
        !stderr.chars().any(|c| c.is_control() && c != '\n'),
        "{stderr:?}"
    );
    assert!(
        stderr.contains("x\\u{1b}[31m.toml: the file name"),
        "{stderr}"
    );
    assert!(stderr.contains("bad.toml: corrupt: not TOML"), "{stderr}");
}
