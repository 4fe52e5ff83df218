//! The binary as linked (`build.rs`, `src/main.rs`): the shared libraries
//! it needs, and a panic unwinding through the unwinder linked into it.

use std::process::Command;

/// The shared libraries the binary names (`DT_NEEDED`), by `readelf`.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn needed() -> Vec<String> {
    let out = Command::new("readelf")
        .args(["-d", env!("CARGO_BIN_EXE_postal")])
        .output()
        .expect("readelf (binutils, which the C compiler that links postal comes with)");
    assert!(out.status.success(), "readelf failed");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| l.contains("(NEEDED)"))
        .filter_map(|l| Some(l.split('[').nth(1)?.trim_end_matches(']').to_string()))
        .collect()
}

/// Each shared library costs every start of the binary its loading (about
/// a seventh of a millisecond on the machine `build.rs` was measured on):
/// the unwinder is linked in, and the math functions are the binary's own.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn the_binary_needs_only_libc() {
    let needed = needed();
    assert!(needed.iter().any(|l| l == "libc.so.6"), "{needed:?}");
    let others: Vec<_> = needed
        .iter()
        .filter(|l| *l != "libc.so.6" && !l.starts_with("ld-linux"))
        .collect();
    assert!(
        others.is_empty(),
        "the binary needs {others:?} too: a dependency calls a function \
         that src/main.rs's math does not define, or build.rs did not link \
         the unwinder"
    );
}

/// A panic in the binary unwinds to `main`'s `catch_unwind` and exits
/// with std's code for it, 101, after std's message. The trigger exists in
/// test builds only (`src/main.rs`).
#[cfg(debug_assertions)]
#[test]
fn a_panic_unwinds_and_exits_101() {
    let out = Command::new(env!("CARGO_BIN_EXE_postal"))
        .arg("variants")
        .env("POSTAL_TEST_PANIC", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(101), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("POSTAL_TEST_PANIC is set"), "{err}");
    assert!(out.stdout.is_empty());
}

/// The binary's diagrams are the library's: the binary does its
/// trigonometry with the `libm` crate's functions (`src/main.rs`), the
/// library in this test with glibc's, and the PNG and SVG of every
/// variant's start come out byte for byte the same. Arcs, rotations and
/// anti-aliased edges go through those functions.
#[test]
fn the_binary_draws_what_the_library_draws() {
    use postal::position::Position;
    use postal::render::{render, Format, Options};
    use postal::variant::Variant;
    let dir = std::env::temp_dir().join(format!("postal-binary-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for v in Variant::ALL {
        let pos = Position::start(v);
        for (format, name) in [(Format::Png, "png"), (Format::Svg, "svg")] {
            let out = dir.join(format!("{}.{name}", v.name()));
            let status = Command::new(env!("CARGO_BIN_EXE_postal"))
                .args(["diagram", v.name(), "--format", name, "-o"])
                .arg(&out)
                .status()
                .unwrap();
            assert!(status.success(), "{} {name}", v.name());
            let drawn = std::fs::read(&out).unwrap();
            let expected = render(&pos, format, &Options::default());
            assert!(
                drawn == expected,
                "{} {name}: the binary's differs",
                v.name()
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
