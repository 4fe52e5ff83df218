//! `postal variants`: the variants, their board sizes and a summary.

use super::{emit, CliError};
use crate::variant::Variant;
use std::io::Write;

/// List the variants: name, board size, one-line summary, and the PGN
/// Variant tag written and read for each.
///
/// `postal convert --to pgn` writes the tag value shown (none for FIDE
/// chess); `verify` and `convert` read it and every other name shown,
/// ignoring case, spaces and hyphens.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Also list the variants defined in this variants.ini file (default:
    /// $POSTAL_VARIANTS): each loaded one with its pieces, each refused
    /// one with file:line:col, the key and why (postal-variants(5)).
    #[arg(long, value_name = "FILE")]
    pub variants: Option<std::path::PathBuf>,
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    let mut text = String::new();
    for v in Variant::ALL {
        let s = v.spec();
        text.push_str(&format!(
            "{:<15} {:>5}  {}\n",
            s.name,
            format!("{}x{}", s.files, s.ranks),
            s.summary
        ));
        let mut names: Vec<&str> = vec![s.name, s.title];
        names.extend(s.aliases.iter().copied());
        let mut seen = vec![v.tag().to_lowercase()];
        names.retain(|n| {
            let fresh = !seen.contains(&n.to_lowercase());
            seen.push(n.to_lowercase());
            fresh
        });
        let written = if v == Variant::Chess {
            format!(
                "[Variant \"{}\"] (not written: PGN without the tag is FIDE chess)",
                v.tag()
            )
        } else {
            format!("[Variant \"{}\"]", v.tag())
        };
        text.push_str(&format!(
            "{:<22} PGN tag {written}; also read: {}\n",
            "",
            names.join(", ")
        ));
    }
    if let Some(path) = super::ini::file(args.variants.as_deref()) {
        text.push('\n');
        text.push_str(&super::ini::listing(&path)?);
    }
    emit(out, &text)
}
