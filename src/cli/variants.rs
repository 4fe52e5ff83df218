//! `postal variants`: the variants, their board sizes and a summary.

use super::{emit, CliError};
use crate::variant::Variant;
use std::io::Write;

/// List the variants: name, board size, one-line summary.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    let mut text = String::new();
    for v in Variant::ALL {
        let s = v.spec();
        text.push_str(&format!(
            "{:<15} {:>5}  {}\n",
            s.name,
            format!("{}x{}", s.files, s.ranks),
            s.summary
        ));
    }
    emit(out, &text)
}
