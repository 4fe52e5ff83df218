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
    match std::panic::catch_unwind(postal::cli::main_code) {
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
