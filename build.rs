//! Links the unwinder statically where it can: on Linux with glibc, std
//! otherwise loads `libgcc_s.so.1` at every start for the few unwinding
//! functions a panic needs. Loading it (opening, mapping and relocating a
//! second library) was a sixth of the processor time of `clines -v`, and
//! its pages a tenth of a megabyte of memory. `libgcc_eh.a` is the same
//! unwinder as an archive: linked before std asks for `gcc_s`, it leaves
//! nothing to take from the shared library, which the linker then drops
//! (std links with `--as-needed`).
//!
//! Where the C compiler has no `libgcc_eh.a`, or when building for another
//! machine, nothing changes: the binary loads `libgcc_s` as before.

use std::env;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CC");
    let var = |name: &str| env::var(name).unwrap_or_default();
    let native = var("HOST") == var("TARGET");
    if !native || var("CARGO_CFG_TARGET_OS") != "linux" || var("CARGO_CFG_TARGET_ENV") != "gnu" {
        return;
    }
    if let Some(archive) = static_unwinder() {
        if let Some(dir) = archive.parent() {
            println!("cargo:rustc-link-search=native={}", dir.display());
        }
        // Not bundled into the library's rlib: passed to the final link,
        // where it comes before std's libraries.
        println!("cargo:rustc-link-lib=static:-bundle=gcc_eh");
    }
}

/// Where the C compiler keeps `libgcc_eh.a`, if it has one: asked for a
/// file it does not know, it answers the bare name.
fn static_unwinder() -> Option<PathBuf> {
    let compiler = env::var_os("CC").unwrap_or_else(|| "cc".into());
    let output = Command::new(compiler)
        .arg("-print-file-name=libgcc_eh.a")
        .output()
        .ok()?;
    let answer = String::from_utf8(output.stdout).ok()?;
    let path = PathBuf::from(answer.trim());
    (output.status.success() && path.is_absolute() && path.is_file()).then_some(path)
}
