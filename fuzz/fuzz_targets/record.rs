//! A record file (`record::verify::read`), as PGN and as published text:
//! no panic, no runaway, every issue located.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| checks::record(bytes));
