//! The `postal` binary: the command line ([`postal::cli::main`]).
//!
//! It starts without std's runtime start-up (`#![no_main]`, the C `main`
//! below), which reads `/proc/self/maps` to place a guard page and sets up
//! a signal stack, about a sixth of a millisecond that every `postal move`
//! would pay for a stack-overflow message (the parsers bound their depth,
//! issue 16). What of that start-up the command line relies on is done
//! here: the standard streams open, `SIGPIPE` ignored (a closed pipe is an
//! error the command line handles, `CliError::stdout`), and a panic ending
//! the process with std's code, 101. The arguments are std's as ever: on
//! glibc std reads them before `main` runs. (The test harness, which
//! brings its own `main`, builds this file without it.)
#![cfg_attr(not(test), no_main)]

#[cfg(not(test))]
use std::os::raw::{c_char, c_int};

#[cfg(not(test))]
#[no_mangle]
extern "C" fn main(_argc: c_int, _argv: *const *const c_char) -> c_int {
    // SAFETY: plain libc calls on the process's own descriptors and
    // signal disposition, made before anything else runs.
    unsafe {
        standard_streams_open();
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    match std::panic::catch_unwind(|| {
        // A test build can be made to panic, so that `tests/binary.rs`
        // sees a panic unwind in the binary as linked (`build.rs`).
        #[cfg(debug_assertions)]
        if std::env::var_os("POSTAL_TEST_PANIC").is_some() {
            panic!("POSTAL_TEST_PANIC is set");
        }
        postal::cli::main_code()
    }) {
        Ok(code) => c_int::from(code),
        Err(_) => 101,
    }
}

#[cfg(not(test))]
/// Opens `/dev/null` on any of descriptors 0, 1 and 2 that is closed, so
/// that no file the program opens takes its place (as std's start-up does).
unsafe fn standard_streams_open() {
    let mut fds = [0, 1, 2].map(|fd| libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    });
    if libc::poll(fds.as_mut_ptr(), 3, 0) < 0 {
        return;
    }
    for p in fds {
        if p.revents & libc::POLLNVAL != 0 {
            libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
        }
    }
}

/// The C math functions that the diagram renderer's dependencies call
/// (resvg, tiny-skia and usvg, for arcs, rotations and gradients), defined
/// in the binary from the `libm` crate. Without them the binary needs the
/// shared `libm.so.6` for these fourteen functions, and loading a shared
/// library costs every run of postal about a seventh of a millisecond of
/// CPU (`postal move` that fails at once: see `build.rs` for the other
/// library). The linker keeps a shared library only when something is
/// left for it to define; `tests/binary.rs` checks that the binary needs
/// none but libc, and that its diagrams are those the library draws with
/// glibc's functions (these are musl's, within an ulp of glibc's).
#[cfg(not(test))]
mod math {
    macro_rules! unary {
        ($($name:ident: $t:ty),* $(,)?) => {$(
            #[no_mangle]
            extern "C" fn $name(x: $t) -> $t {
                libm::$name(x)
            }
        )*};
    }
    macro_rules! binary {
        ($($name:ident: $t:ty),* $(,)?) => {$(
            #[no_mangle]
            extern "C" fn $name(x: $t, y: $t) -> $t {
                libm::$name(x, y)
            }
        )*};
    }
    unary!(acos: f64, acosf: f32, cos: f64, cosf: f32, log2: f64, tan: f64, tanf: f32);
    binary!(atan2: f64, atan2f: f32, hypotf: f32, pow: f64, powf: f32);

    /// # Safety
    /// `s` and `c` point to writable values, as C's `sincos` requires.
    #[no_mangle]
    unsafe extern "C" fn sincos(x: f64, s: *mut f64, c: *mut f64) {
        let (sin, cos) = libm::sincos(x);
        *s = sin;
        *c = cos;
    }

    /// # Safety
    /// As [`sincos`].
    #[no_mangle]
    unsafe extern "C" fn sincosf(x: f32, s: *mut f32, c: *mut f32) {
        let (sin, cos) = libm::sincosf(x);
        *s = sin;
        *c = cos;
    }
}
