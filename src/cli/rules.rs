//! `postal rules VARIANT`: the rules as implemented, with their ids.

use super::{emit, variant_arg, CliError};
use std::io::Write;

/// Print the rules of a variant as this program implements them.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The variant (see `postal variants`).
    #[arg(value_parser = super::Offered::<String>::new(super::variant_names))]
    pub variant: String,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    let v = variant_arg(&args.variant)?;
    let s = v.spec();
    // Line 3 of each rule file (`Code: ...`) points developers at the
    // modules and tests; users get the rules without paths.
    let mut text: String = s
        .rules_text
        .lines()
        .filter(|l| !l.starts_with("Code: "))
        .flat_map(|l| [l, "\n"])
        .collect();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&format!("\nStart position: {}\n", s.start));
    emit(out, &text)
}
