//! postal's integration tests, as one test binary: each file beside this
//! one is a module here, so the dependency tree is linked once, not once a
//! file (`cargo test --test suite referee::` runs one file's tests).
//! `design::every_test_file_is_in_the_suite` fails on a file left out.

mod common;
mod man;
mod playout;
mod swap_brute;

mod building;
mod capability;
mod catalogue;
mod cli;
mod clocks;
mod corral;
mod defined;
mod design;
mod disintegration;
mod fast_lane;
mod game;
mod imap;
mod imap_load;
mod ini_agree;
mod ini_atomic;
mod ini_cli;
mod ini_drops;
mod ini_endings;
mod ini_positions;
mod kristensen;
mod layers;
mod mail;
mod pages;
mod perft;
mod printed_scores;
mod reader_forms;
mod record_formats;
mod record_reports;
mod records;
mod referee;
mod referee_content;
mod referee_files;
mod render;
mod robustness;
mod rules_fixed;
mod swap;
mod tournament;
mod tournament_play;
