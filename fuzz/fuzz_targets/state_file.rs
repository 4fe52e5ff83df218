//! A whole game state file (`game::Game::from_json`): no panic; a file
//! that loads answers every question and writes back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| checks::state_file(text));
