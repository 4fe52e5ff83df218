//! `--variants FILE` (or the environment variable `POSTAL_VARIANTS`):
//! variants defined in Fairy-Stockfish's variants.ini format, for the
//! commands that take a variant (`variants`, `perft`, `moves`). A name
//! the file defines is played by its definition; a name it refused fails
//! with the refusal (file:line:col, the key and why, the line and a
//! caret), never with partial rules.

use super::CliError;
use crate::variant::ini::{self, gen, Def, Loaded, Pos};
use std::path::{Path, PathBuf};

/// The environment variable naming a variants file when `--variants` is
/// not given.
pub const ENV: &str = "POSTAL_VARIANTS";

/// The file to read: `--variants`, else `POSTAL_VARIANTS` (if not empty).
pub fn file(flag: Option<&Path>) -> Option<PathBuf> {
    flag.map(Path::to_path_buf).or_else(|| {
        std::env::var_os(ENV)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    })
}

/// The largest variants file read (README, "Limits").
pub const MAX_BYTES: u64 = 1 << 20;

/// Reads and loads a variants file.
pub fn load(path: &Path) -> Result<Loaded, CliError> {
    use std::io::Read;
    let shown = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| CliError::io(&shown, e))?;
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::io(&shown, e))?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(CliError::usage(format!(
            "{shown}: a variants file is limited to {MAX_BYTES} bytes"
        )));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        // The first byte that is not UTF-8, at its line and column (the
        // text before it is the same in the lossy reading).
        let at = e.utf8_error().valid_up_to();
        let lossy = String::from_utf8_lossy(e.as_bytes());
        let span = crate::error::Span::new(at, at + '\u{FFFD}'.len_utf8());
        CliError::in_text(&shown, &lossy, span, "not UTF-8 text", 2)
    })?;
    Ok(ini::load(&text, &shown))
}

/// The definition of `name` in the file given, if one is given and it
/// defines or refuses that name; `Ok(None)` leaves the name to the
/// built-in variants.
pub fn lookup(flag: Option<&Path>, name: &str) -> Result<Option<Def>, CliError> {
    let Some(path) = file(flag) else {
        return Ok(None);
    };
    let loaded = load(&path)?;
    if let Some(def) = loaded.find(name) {
        return Ok(Some(def.clone()));
    }
    if let Some(r) = loaded.refusal(name) {
        return Err(CliError::diagnostic(r.diagnostic(), 2));
    }
    Ok(None)
}

/// Makes the variant `name` of the file given (if one is given and it
/// defines that name) a variant every command plays: the registered
/// variant, or `Ok(None)` when the name is left to the built-in games.
/// A name the file refused fails with the refusal.
pub fn register(flag: Option<&Path>, name: &str) -> Result<Option<crate::Variant>, CliError> {
    let Some(path) = file(flag) else {
        return Ok(None);
    };
    let shown = path.display().to_string();
    match lookup(Some(&path), name)? {
        Some(def) => crate::variant::defined::register(&def, &shown)
            .map(Some)
            .map_err(|e| CliError::usage(format!("{shown}: [{}]: {e}", def.name))),
        None => Ok(None),
    }
}

/// Registers every definition of the file given (if one is given), for
/// the commands that find the variant in what they read: a PGN's
/// `Variant` tag.
pub fn register_all(flag: Option<&Path>) -> Result<(), CliError> {
    let Some(path) = file(flag) else {
        return Ok(());
    };
    let shown = path.display().to_string();
    for def in &load(&path)?.defs {
        crate::variant::defined::register(def, &shown)
            .map_err(|e| CliError::usage(format!("{shown}: [{}]: {e}", def.name)))?;
    }
    Ok(())
}

/// The position a command starts from: `--position FEN` or the start,
/// then `--moves` (UCI moves separated by spaces) played on it.
pub fn position(def: &Def, fen: Option<&str>, moves: Option<&str>) -> Result<Pos, CliError> {
    let mut pos = match fen {
        Some(text) => {
            Pos::from_fen(def, text).map_err(|e| CliError::usage(format!("--position: {e}")))?
        }
        None => def.start(),
    };
    for text in moves.unwrap_or("").split_whitespace() {
        let mv = gen::parse_uci(def, &pos, text).ok_or_else(|| {
            CliError::rule(format!(
                "--moves: {text} is not a legal move in {}",
                pos.to_fen(def)
            ))
        })?;
        pos = gen::play(def, &pos, &mv);
    }
    Ok(pos)
}

/// `postal variants --variants FILE`: what was loaded, what was refused.
pub fn listing(path: &Path) -> Result<String, CliError> {
    let loaded = load(path)?;
    let mut text = format!(
        "{}: {} loaded, {} refused\n",
        loaded.file,
        loaded.defs.len(),
        loaded.refused.len()
    );
    for d in &loaded.defs {
        let parent = d
            .parent
            .as_deref()
            .map(|p| format!(" (from {p})"))
            .unwrap_or_default();
        let pieces: Vec<String> = d
            .kinds
            .iter()
            .map(|k| format!("{} {}", k.letter, k.name))
            .collect();
        text.push_str(&format!(
            "{:<15} {:>5}  loaded{parent}: {}\n",
            d.name,
            format!("{}x{}", d.files, d.ranks),
            pieces.join(", ")
        ));
    }
    for r in &loaded.refused {
        text.push_str(&format!("{:<15} {:>5}  refused: {r}\n", r.variant, ""));
    }
    Ok(text)
}
