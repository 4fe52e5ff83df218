//! The mail settings (`mail::config::Config::parse`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| checks::mail_config(text));
