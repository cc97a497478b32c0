//! Every integration test in one binary, ripgrep's habit: each test file
//! below links the whole crate once instead of once per file, which makes a
//! cold `cargo test` faster. `Cargo.toml` turns off automatic test discovery,
//! so a new file under `tests/` runs only when it is declared here; the test
//! [`every_test_file_is_declared`] catches one that is not.

mod pty;

mod ai;
mod autoplay;
mod batch;
mod cli;
mod harness;
mod layout;
mod properties;
mod records;
mod records_game;
mod replay;
mod tui;
mod tui_features;

/// A test file left out of the list above would silently never run.
#[test]
fn every_test_file_is_declared() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let this = std::fs::read_to_string(dir.join("integration.rs")).expect("this file");
    for entry in std::fs::read_dir(&dir).expect("the tests folder") {
        let path = entry.expect("a folder entry").path();
        let module = if path.is_dir() {
            if !path.join("mod.rs").exists() {
                continue;
            }
            path.file_name()
        } else if path.extension().is_some_and(|e| e == "rs") {
            path.file_stem()
        } else {
            continue;
        };
        let module = module.and_then(|m| m.to_str()).expect("a UTF-8 name");
        if module == "integration" {
            continue;
        }
        assert!(
            this.lines().any(|line| line == format!("mod {module};")),
            "tests/{module} is not declared in tests/integration.rs, so it never runs"
        );
    }
}
