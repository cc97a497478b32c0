//! Two things for the binary on Linux with glibc.
//!
//! It lays out the code the program runs at start in one stretch, with
//! the linker script `link/order.ld` (written by `examples/linkorder.rs`,
//! which says why). A linker that reads no such script (mold, gold) is
//! left without it, and so is every build with `CLINES_LINK_ORDER=off`
//! (see [`scriptless_linker`]).
//!
//! It links the unwinder statically where it can: on Linux with glibc, std
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
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest_dir = env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default();
    let script = PathBuf::from(manifest_dir).join("link/order.ld");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CC");
    // By its whole path, which is the one linked with: a checkout moved
    // elsewhere (its target directory with it) has lost that file, so this
    // script runs again and links the script where it is now. A relative
    // path would be looked for in the new place and found unchanged.
    println!("cargo:rerun-if-changed={}", script.display());
    println!("cargo:rerun-if-env-changed=CLINES_LINK_ORDER");
    println!("cargo:rerun-if-env-changed=LD_PRELOAD");
    let var = |name: &str| env::var(name).unwrap_or_default();
    let native = var("HOST") == var("TARGET");
    if var("CARGO_CFG_TARGET_OS") != "linux" || var("CARGO_CFG_TARGET_ENV") != "gnu" {
        return;
    }
    let laid_out = var("CLINES_LINK_ORDER") != "off" && !scriptless_linker();
    if laid_out {
        // The compiler driver's own -T, not -Wl, which would split a path
        // at its commas.
        println!("cargo:rustc-link-arg-bins=-T");
        println!("cargo:rustc-link-arg-bins={}", script.display());
    }
    // For the test that checks the layout.
    println!("cargo:rustc-env=CLINES_LAID_OUT={laid_out}");
    if !native {
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

/// Whether the build links with mold or gold, which take no script that
/// adds sections to the default layout (`INSERT`): chosen in the
/// compiler's flags (`-fuse-ld=`, clang's `--ld-path=`, a `-B` directory
/// of mold's), named as the linker, or slipped in by `mold -run`. A way
/// this misses ends in the linker refusing the script; then
/// `CLINES_LINK_ORDER=off` builds without it.
fn scriptless_linker() -> bool {
    let scriptless = |linker: &str| {
        let name = Path::new(linker).file_name().unwrap_or_default();
        let name = name.to_string_lossy();
        name.contains("mold") || name.contains("gold")
    };
    let flags = env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    // One flag may carry several linker arguments: `-Clink-args=a b`,
    // `-Wl,a,b`.
    let chosen = flags.split(['\x1f', ' ', ',']).any(|word| {
        ["-fuse-ld=", "--ld-path=", "-B"].iter().any(|option| {
            word.split_once(option)
                .is_some_and(|(_, linker)| scriptless(linker))
        })
    });
    let named = env::var("RUSTC_LINKER").is_ok_and(|linker| scriptless(&linker));
    let preloaded = env::var("LD_PRELOAD").is_ok_and(|preload| preload.contains("mold"));
    chosen || named || preloaded
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
