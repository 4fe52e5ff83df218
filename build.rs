//! Links the stack unwinder into the `postal` binary.
//!
//! On `*-linux-gnu`, std unwinds panics through libgcc's unwinder, which
//! rustc links as the shared `libgcc_s.so.1`. Loading one more shared
//! library costs every run of the program about a quarter of a
//! millisecond of CPU on the machine this was measured on (`postal move`
//! that fails at once: 1.90 against 1.63 ms, medians of 41), a tenth of a
//! move's whole budget. The same unwinder ships as the static archive
//! `libgcc_eh.a` with every GCC, the C compiler rustc links through, and
//! is what gcc's own `-static-libgcc` uses. Linked whole into the binary,
//! it defines the `_Unwind_*` functions there, and the linker, which keeps
//! shared libraries only as needed, drops `libgcc_s`.
//!
//! Nothing changes when the archive is not found (another C compiler, a
//! static or non-GNU target): rustc's shared unwinder stays. Panics unwind
//! the same either way (`tests/binary.rs` runs one through `catch_unwind`).
//! Only the binary is linked so; the test harnesses keep rustc's default.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let gnu = var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu";
    let crt_static = var("CARGO_CFG_TARGET_FEATURE")
        .split(',')
        .any(|f| f == "crt-static");
    if !gnu || crt_static || var("CARGO_CFG_PANIC") != "unwind" {
        return;
    }
    if let Some(archive) = gcc_archive("libgcc_eh.a") {
        println!("cargo:rustc-link-arg-bins=-Wl,--whole-archive");
        println!("cargo:rustc-link-arg-bins={}", archive.display());
        println!("cargo:rustc-link-arg-bins=-Wl,--no-whole-archive");
    }
}

/// Where the C compiler that rustc links with (`cc`) keeps `name`, asked
/// the way gcc answers it (`-print-file-name`, which echoes the bare name
/// when it has no such file).
fn gcc_archive(name: &str) -> Option<PathBuf> {
    let out = Command::new("cc")
        .arg(format!("-print-file-name={name}"))
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let path = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    (path.is_absolute() && path.is_file()).then_some(path)
}
