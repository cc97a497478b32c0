//! linkorder: writes `link/order.ld`, the linker script that lays the code
//! `clines` runs at start next to each other.
//!
//! Code is mapped from the binary, and the kernel maps it 64 KiB at a time
//! (fault-around): a process's memory holds every 64 KiB stretch of code
//! it has run anything in. Laid out as the compiler leaves it, the
//! functions a start runs are spread over the whole text, and nearly all
//! of it (1.4 MB) is resident after the first frame. Laid out together,
//! only their own stretches are.
//!
//! It runs an unstripped release build under callgrind in three ways:
//! `clines -l` listing a thousand records, `clines --batch` answering a
//! short script, and the game in a pseudo-terminal (first frame, a few
//! keys, `q`). It writes the functions they ran as input-section patterns
//! of one output section, `.text.ordered`, put before `.text`: those
//! only the listing runs first, then those both the listing and the others
//! run, then the rest. So each of the three finds its code in one stretch.
//!
//! The patterns leave out what changes from build to build: the hash that
//! ends a legacy-mangled name (`17h…E`), the crate disambiguators and the
//! back-references (offsets that move with them) of v0-mangled names
//! (`Cs…_`, `B…_`) and the numbered suffix of a local clone (`.123`). A pattern may then match several instances of a generic
//! function; a function the layout does not name stays where it was.
//! A script from an older build only lays the code out less well.
//!
//! ```text
//! CARGO_PROFILE_RELEASE_STRIP=false cargo build --release
//! cargo run --release --example linkorder -- target/release/clines link/order.ld
//! ```
//!
//! Needs valgrind. `build.rs` passes the script to the linker.

#[path = "../tests/pty/mod.rs"]
mod pty;
#[path = "support/replace.rs"]
mod replace;
#[path = "support/tell.rs"]
mod tell;

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Duration;

use pty::{END_SYNC, Key, Options, Sandbox, Term, count};
use replace::Replacement;
use tell::tell;

/// How many records the listing runs over: enough to run every part of it.
const LISTED_RECORDS: usize = 1000;

/// What `--batch` answers: every command but `hint` (the player is not
/// start-up code), a rejected one among them.
const BATCH_SCRIPT: &str =
    "board\nstatus\nnext\nput 0 0 1\nmove 0 0 8 8\nmove 9 9 0 0\nundo\nclear\nstatus\nquit\n";

/// The seed of the game played: its opening puts a chip in the top row's
/// fifth cell, with the cells to its left empty (seeded games replay in
/// every version).
const GAME_SEED: &str = "1";

/// The keys typed into the game: the cursor (which starts in the top left
/// corner) to the chip, a selection, the cursor back and a move there,
/// a repaint.
const GAME_KEYS: &[Key] = &[
    Key::Right,
    Key::Right,
    Key::Right,
    Key::Right,
    Key::Char(' '),
    Key::Left,
    Key::Left,
    Key::Left,
    Key::Left,
    Key::Char(' '),
    Key::Ctrl('l'),
];

/// How long one step of the game under callgrind may take.
const STEP_TIMEOUT: Duration = Duration::from_secs(120);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [binary, out] = args.as_slice() else {
        tell(format_args!(
            "usage: linkorder PATH/TO/UNSTRIPPED/clines OUT.ld"
        ));
        return ExitCode::from(2);
    };
    match run(Path::new(binary), Path::new(out)) {
        Ok(count) => {
            tell(format_args!("linkorder: {count} patterns written to {out}"));
            ExitCode::SUCCESS
        }
        Err(message) => {
            tell(format_args!("linkorder: {message}"));
            ExitCode::FAILURE
        }
    }
}

/// Profiles `binary` three ways and writes the script to `out`.
fn run(binary: &Path, out: &Path) -> Result<usize, String> {
    let binary = binary
        .canonicalize()
        .map_err(|e| format!("{}: {e}", binary.display()))?;
    let work = tempfile::tempdir().map_err(|e| e.to_string())?;
    let listing = functions(&profile_listing(&binary, work.path())?, &binary)?;
    let batch = functions(&profile_batch(&binary, work.path())?, &binary)?;
    let game = functions(&profile_game(&binary, work.path())?, &binary)?;
    // A stripped binary's functions are named by address (`0x…`), which
    // no pattern can match: such a profile is not empty, but names nothing.
    if !names_a_function(&listing) || !names_a_function(&batch) || !names_a_function(&game) {
        return Err(format!(
            "callgrind named no function of {}: is it stripped? (build it with CARGO_PROFILE_RELEASE_STRIP=false)",
            binary.display()
        ));
    }
    let others: Vec<String> = batch.into_iter().chain(game).collect();
    let patterns = layout(&listing, &others);
    write_script(out, &patterns)?;
    Ok(patterns.len())
}

/// Whether any of the functions a profile saw run gets a pattern.
fn names_a_function(ran: &[String]) -> bool {
    ran.iter().any(|symbol| pattern(symbol).is_some())
}

/// Writes the script of `patterns` to `out`, refusing an empty layout,
/// which would leave every build linked with none. The script goes to a
/// temporary file in `out`'s directory, renamed over `out` once whole:
/// `build.rs` hands `out` to every link, so an interrupted or failed run
/// must leave the old script, never a half-written one.
fn write_script(out: &Path, patterns: &[String]) -> Result<(), String> {
    if patterns.is_empty() {
        return Err(format!(
            "no function to lay out: {} left as it was",
            out.display()
        ));
    }
    Replacement::new(out)
        .and_then(|replacement| replacement.write(script(patterns).as_bytes()))
        .map_err(|e| format!("{}: {e}", out.display()))
}

/// The arguments that run a program under callgrind, its profile written
/// to `out` with names as the symbol table has them.
fn callgrind(out: &Path) -> Vec<String> {
    vec![
        "--tool=callgrind".into(),
        "--demangle=no".into(),
        "--compress-pos=no".into(),
        format!("--callgrind-out-file={}", out.display()),
    ]
}

/// `clines -l` over [`LISTED_RECORDS`] records.
fn profile_listing(binary: &Path, work: &Path) -> Result<PathBuf, String> {
    let sandbox = Sandbox::new();
    for user in 0..LISTED_RECORDS {
        let score = user * 7919 % 5000;
        std::fs::write(
            sandbox.score_dir().join(format!("user{user:04}.toml")),
            format!("score = {score}\nset_at = 1700000000\n"),
        )
        .map_err(|e| e.to_string())?;
    }
    let out = work.join("listing.out");
    let mut command = Command::new("valgrind");
    sandbox.apply(&mut command);
    let run = command
        .args(callgrind(&out))
        .arg(binary)
        .arg("-l")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("valgrind: {e}"))?;
    checked(run.status.success(), &run.stderr, "clines -l", out)
}

/// `clines --batch` answering [`BATCH_SCRIPT`].
fn profile_batch(binary: &Path, work: &Path) -> Result<PathBuf, String> {
    let sandbox = Sandbox::new();
    let out = work.join("batch.out");
    let mut command = Command::new("valgrind");
    sandbox.apply(&mut command);
    let mut child = command
        .args(callgrind(&out))
        .arg(binary)
        .args(["--batch", "--seed", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("valgrind: {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(BATCH_SCRIPT.as_bytes())
            .map_err(|e| e.to_string())?;
    }
    let run = child.wait_with_output().map_err(|e| e.to_string())?;
    checked(run.status.success(), &run.stderr, "clines --batch", out)
}

/// The game at 100 × 50: the first frame, [`GAME_KEYS`] one answer at a
/// time, then `q`.
fn profile_game(binary: &Path, work: &Path) -> Result<PathBuf, String> {
    let sandbox = Sandbox::new();
    let out = work.join("game.out");
    let mut args = callgrind(&out);
    args.push(binary.display().to_string());
    args.extend(["--seed".into(), GAME_SEED.into()]);
    let mut term = Term::spawn(
        "valgrind",
        Options::new(100, 50).sandbox(&sandbox).args(args),
    );
    if !term.wait_for_output(STEP_TIMEOUT, |raw| count(raw, END_SYNC) > 0) {
        term.kill();
        return Err("the game drew no frame under callgrind".into());
    }
    // A key answers with a frame, or with a bell where it cannot act.
    let answers = |raw: &[u8]| count(raw, END_SYNC) + count(raw, b"\x07");
    for &key in GAME_KEYS {
        let before = answers(&term.raw_output());
        term.key(key);
        if !term.wait_for_output(STEP_TIMEOUT, |raw| answers(raw) > before) {
            term.kill();
            return Err(format!("the game drew nothing after {key:?}"));
        }
    }
    term.key(Key::Char('q'));
    let status = term.wait_exit(STEP_TIMEOUT);
    checked(
        status.success(),
        term.contents().as_bytes(),
        "the game",
        out,
    )
}

/// `out` if the run succeeded and left it; else an error with the last
/// lines of what it said (valgrind's messages and the program's, or the
/// game's screen).
fn checked(success: bool, said: &[u8], what: &str, out: PathBuf) -> Result<PathBuf, String> {
    if success && out.is_file() {
        return Ok(out);
    }
    let said = String::from_utf8_lossy(said);
    let lines: Vec<&str> = said.lines().collect();
    let last = lines[lines.len().saturating_sub(12)..].join("\n");
    Err(format!("{what} under callgrind failed:\n{last}"))
}

/// The functions of `binary` a callgrind profile saw run, each once, in
/// the order the profile lists them.
fn functions(profile: &Path, binary: &Path) -> Result<Vec<String>, String> {
    let text =
        std::fs::read_to_string(profile).map_err(|e| format!("{}: {e}", profile.display()))?;
    Ok(ran_in(&text, &binary.display().to_string()))
}

/// The functions a callgrind profile (`text`) saw run in object `object`.
///
/// The profile names a function in its first `fn=` or `cfn=` line
/// (`fn=(7) name`) and by number only after that (`fn=(7)`); objects alike
/// (`ob=`, `cob=`). The functions that ran are those of `fn=` lines, each
/// in the object of the `ob=` line before it. Callgrind leaves much of an
/// executable's code in an object it cannot name (`???`), so that counts
/// as `object` too: the shared libraries' code is always named.
fn ran_in(text: &str, object: &str) -> Vec<String> {
    let mut names: HashMap<String, String> = HashMap::new();
    let mut objects: HashMap<String, String> = HashMap::new();
    let mut current_object = String::new();
    let mut seen = HashSet::new();
    let mut ran = Vec::new();
    for line in text.lines() {
        let Some((key, rest)) = line.split_once('=') else {
            continue;
        };
        let (id, name) = match rest.strip_prefix('(').and_then(|r| r.split_once(')')) {
            Some((id, name)) => (id.to_string(), name.trim()),
            None => continue,
        };
        match key {
            "ob" | "cob" => {
                if !name.is_empty() {
                    objects.insert(id.clone(), name.to_string());
                }
                if key == "ob" {
                    current_object = objects.get(&id).cloned().unwrap_or_default();
                }
            }
            "fn" | "cfn" => {
                if !name.is_empty() {
                    names.insert(id.clone(), name.to_string());
                }
                let ours = current_object == object || current_object == UNNAMED;
                if key == "fn" && ours && seen.insert(id.clone()) {
                    if let Some(name) = names.get(&id) {
                        ran.push(name.clone());
                    }
                }
            }
            _ => {}
        }
    }
    ran
}

/// How callgrind names an object it cannot name.
const UNNAMED: &str = "???";

/// The input-section pattern for the function named `symbol`: its name
/// without what changes from build to build (see the module docs). `None`
/// for what is not a function's name (callgrind's own entries).
fn pattern(symbol: &str) -> Option<String> {
    let valid = |c: char| c.is_ascii_alphanumeric() || "_$.".contains(c);
    let address = symbol.starts_with("0x");
    if symbol.is_empty() || !symbol.chars().all(valid) || symbol.starts_with('.') || address {
        return None;
    }
    let mut name = symbol.to_string();
    let mut open = false;
    // A local clone's suffix: `.llvm.123` or `.123`.
    if let Some((base, suffix)) = name.rsplit_once('.') {
        if !suffix.is_empty() && suffix.bytes().all(|b| b.is_ascii_digit()) {
            let base = base.strip_suffix(".llvm").unwrap_or(base).to_string();
            name = base;
            open = true;
        }
    }
    if name.starts_with("_ZN") {
        name = without_legacy_hash(&name);
    } else if name.starts_with("_R") {
        name = without_v0_offsets(&name);
    }
    if open {
        name.push('*');
    }
    Some(name)
}

/// A legacy-mangled name with its closing hash (`17h` and 16 hex digits,
/// then `E`) made a wildcard.
fn without_legacy_hash(name: &str) -> String {
    if name.len() > 21 && name.ends_with('E') {
        let hash = &name[name.len() - 20..name.len() - 1];
        if hash.starts_with("17h") && hash[3..].bytes().all(|b| b.is_ascii_hexdigit()) {
            return format!("{}17h*E", &name[..name.len() - 20]);
        }
    }
    name.to_string()
}

/// A v0-mangled name with every crate disambiguator (`Cs`, base-62
/// digits, `_`, then the crate's name's length) and every back-reference
/// (`B`, base-62 digits, `_`: an offset into the name, which moves when a
/// disambiguator before it is longer or shorter) made a wildcard. Where
/// the same letters happen to stand inside a name, the pattern only
/// matches more.
fn without_v0_offsets(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(at) = rest.find(['C', 'B']) {
        let back_reference = rest[at..].starts_with('B');
        if !back_reference && !rest[at..].starts_with("Cs") {
            out.push_str(&rest[..=at]);
            rest = &rest[at + 1..];
            continue;
        }
        let tag = if back_reference { 1 } else { 2 };
        let after = &rest[at + tag..];
        let digits = after
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(after.len());
        let closed = after[digits..].starts_with('_');
        let crate_named = closed && after[digits + 1..].starts_with(|c: char| c.is_ascii_digit());
        out.push_str(&rest[..at + tag]);
        if closed && (back_reference || (digits > 0 && crate_named)) {
            out.push_str("*_");
            rest = &after[digits + 1..];
        } else {
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// The order of the patterns: the listing's own functions, then those the
/// listing shares with the others, then the others' own; each pattern once.
fn layout(listing: &[String], others: &[String]) -> Vec<String> {
    let listing: Vec<String> = listing.iter().filter_map(|s| pattern(s)).collect();
    let others: Vec<String> = others.iter().filter_map(|s| pattern(s)).collect();
    let shared: HashSet<&String> = others.iter().collect();
    let mut placed = HashSet::new();
    let mut order = Vec::new();
    let own = listing.iter().filter(|p| !shared.contains(p));
    let common = listing.iter().filter(|p| shared.contains(p));
    for pattern in own.chain(common).chain(&others) {
        if placed.insert(pattern.clone()) {
            order.push(pattern.clone());
        }
    }
    order
}

/// The linker script: one output section of `patterns`, in order (a
/// function may be in `.text.NAME` or, when cold, `.text.unlikely.NAME`),
/// with the C run-time's start-up code first, put before `.text`. Its
/// objects are named whole: a file pattern is matched against an object's
/// path, which may hold anything.
fn script(patterns: &[String]) -> String {
    let mut out = String::from(
        "/* The code clines runs at start, laid out in one stretch: see\n   \
         examples/linkorder.rs, which wrote this file, and build.rs. */\n\
         SECTIONS\n{\n  .text.ordered :\n  {\n    */crt1.o(.text .text.*)\n    \
         */Scrt1.o(.text .text.*)\n    */crtbegin.o(.text .text.*)\n    \
         */crtbeginS.o(.text .text.*)\n",
    );
    for pattern in patterns {
        out.push_str(&format!(
            "    *(.text.{pattern} .text.unlikely.{pattern})\n"
        ));
    }
    out.push_str("  }\n}\nINSERT BEFORE .text;\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_legacy_name_loses_its_hash() {
        assert_eq!(
            pattern("_ZN6clines7runtime3run17he9c3af754574dba3E").as_deref(),
            Some("_ZN6clines7runtime3run17h*E")
        );
        // Not a hash: kept.
        assert_eq!(
            pattern("_ZN6clines3run17hxyzE").as_deref(),
            Some("_ZN6clines3run17hxyzE")
        );
    }

    #[test]
    fn a_v0_name_loses_its_back_references() {
        assert_eq!(
            pattern("_RNvMsn_NtCsa1_5alloc4syncINtB5_3ArcE9drop_slowBO_").as_deref(),
            Some("_RNvMsn_NtCs*_5alloc4syncINtB*_3ArcE9drop_slowB*_")
        );
        // Back-reference zero.
        assert_eq!(pattern("_RINvB_3fooE").as_deref(), Some("_RINvB*_3fooE"));
    }

    #[test]
    fn a_v0_name_loses_its_crate_disambiguators() {
        assert_eq!(
            pattern("_RNvNtNtCsjrHSEGnQ3l9_3std6thread7current12init_current").as_deref(),
            Some("_RNvNtNtCs*_3std6thread7current12init_current")
        );
        assert_eq!(
            pattern("_RINvCsa1_4core3fooCsB2c_5alloc").as_deref(),
            Some("_RINvCs*_4core3fooCs*_5alloc")
        );
        // `Cs` inside an identifier, not followed by a crate: kept.
        assert_eq!(
            pattern("_RNvCs9_6clines4Csv1").as_deref(),
            Some("_RNvCs*_6clines4Csv1")
        );
    }

    #[test]
    fn a_local_clone_matches_whatever_its_number() {
        assert_eq!(
            pattern("_RNvMs5_NtNtCsX_3std2io5errorNtB5_5Error4kind.417").as_deref(),
            Some("_RNvMs5_NtNtCs*_3std2io5errorNtB*_5Error4kind*")
        );
        assert_eq!(
            pattern("_ZN4core3fmt5write17h0123456789abcdefE.llvm.42").as_deref(),
            Some("_ZN4core3fmt5write17h*E*")
        );
    }

    #[test]
    fn what_is_not_a_symbol_gets_no_pattern() {
        assert_eq!(pattern("0x0000000000001050"), None);
        assert_eq!(pattern("(below main)"), None);
        assert_eq!(pattern(""), None);
        assert_eq!(pattern("main").as_deref(), Some("main"));
    }

    #[test]
    fn only_the_functions_that_ran_in_the_object_are_read() {
        let profile = "\
ob=(1) /bin/clines
fn=(1) main
cob=(2) /lib/libc.so.6
cfn=(2) write
calls=1 0
0 5
ob=(2)
fn=(2)
0 3
ob=(1)
fn=(3) _ZN6clines3run17h0123456789abcdefE
0 1
cfn=(4) never_ran
fn=(1)
0 1
";
        assert_eq!(
            ran_in(profile, "/bin/clines"),
            ["main", "_ZN6clines3run17h0123456789abcdefE"]
        );
        assert_eq!(ran_in(profile, "/lib/libc.so.6"), ["write"]);
        let unnamed = profile.replace("ob=(1) /bin/clines", "ob=(1) ???");
        assert_eq!(
            ran_in(&unnamed, "/bin/clines"),
            ["main", "_ZN6clines3run17h0123456789abcdefE"]
        );
    }

    #[test]
    fn the_listing_own_code_comes_first_then_the_shared_then_the_rest() {
        let names = |s: &[&str]| s.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let listing = names(&["main", "list", "parse"]);
        let others = names(&["main", "parse", "draw", "list_not", "draw"]);
        assert_eq!(
            layout(&listing, &others),
            ["list", "main", "parse", "draw", "list_not"]
        );
    }

    #[test]
    fn a_stripped_binary_s_profile_names_no_function() {
        let names = |s: &[&str]| s.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(!names_a_function(&names(&["0x0000000000001050", "0x2000"])));
        assert!(!names_a_function(&[]));
        assert!(names_a_function(&names(&["0x1050", "main"])));
    }

    #[test]
    fn an_empty_layout_leaves_the_script_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("order.ld");
        std::fs::write(&out, "old script").unwrap();
        assert!(write_script(&out, &[]).is_err());
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "old script");
    }

    #[test]
    fn the_script_replaces_the_old_file_whole() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("order.ld");
        std::fs::write(&out, "old script").unwrap();
        let mode = std::os::unix::fs::PermissionsExt::from_mode(0o640);
        std::fs::set_permissions(&out, mode).unwrap();
        let old = std::fs::metadata(&out).unwrap().ino();
        write_script(&out, &["main".into()]).unwrap();
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            script(&["main".into()])
        );
        // Renamed over, not truncated and rewritten in place.
        assert_ne!(std::fs::metadata(&out).unwrap().ino(), old);
        let mode = std::fs::metadata(&out).unwrap().mode() & 0o777;
        assert_eq!(mode, 0o640, "the old file's permissions kept");
        let files = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(files, 1, "no temporary file left behind");
    }

    #[test]
    fn the_script_puts_one_section_before_text() {
        let text = script(&["main".into(), "_ZN1a17h*E".into()]);
        assert!(text.contains("*(.text.main .text.unlikely.main)\n"));
        assert!(text.contains("*(.text._ZN1a17h*E .text.unlikely._ZN1a17h*E)\n"));
        assert!(text.trim_end().ends_with("INSERT BEFORE .text;"));
        let main_at = text.find(".text.main").unwrap();
        assert!(text.find("*/Scrt1.o(.text").unwrap() < main_at);
        assert!(
            !text.contains("*crt"),
            "a pattern for any path with crt in it"
        );
        assert!(main_at < text.find("_ZN1a").unwrap());
    }
}
