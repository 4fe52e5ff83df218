//! Variants the user defines in Fairy-Stockfish's `variants.ini` format:
//! sections `[name]` and `[name:parent]`, the keys of chess-like games
//! with Fairy-Stockfish's meanings and defaults, pieces in Betza's
//! notation. A section is either loaded whole or refused with the place,
//! the key and why ([`Refusal`]); it is never played by partial rules.
//!
//! A loaded definition ([`Def`]) is owned data built at run time, played
//! by its own generator ([`gen`]) on the program's positions, whose
//! [`State`] ([`board`]) holds what the board does not; the seven
//! built-in games keep their modules.

pub mod board;
pub mod builtin;
pub mod def;
pub mod drops;
pub mod end;
pub mod gen;
pub mod key_table;
pub mod keys;
pub mod lex;
pub mod pawns;
pub mod promote;
pub mod royal;
pub mod tables;

pub use board::{Pos, State};
pub use def::Def;

use crate::diagnostic::{Diagnostic, Paint};
use crate::limits::{MAX_INI_DEPTH, MAX_INI_SECTIONS};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// Why a section was not loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The file as named by the user.
    pub file: String,
    /// The section's name.
    pub variant: String,
    pub line: usize,
    pub col: usize,
    /// The key refused (or the section header's text).
    pub key: String,
    pub why: String,
    /// The line of the file, for the caret.
    pub source_line: String,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: variant `{}` refused: {}: {}",
            self.file, self.line, self.col, self.variant, self.key, self.why
        )
    }
}

impl Refusal {
    /// The refusal as a caret diagnostic, the caret under its column.
    pub fn diagnostic(&self) -> Diagnostic {
        let start = crate::error::char_offset(&self.source_line, self.col.saturating_sub(1));
        let end = self.source_line[start..]
            .chars()
            .next()
            .map_or(start, |c| start + c.len_utf8());
        let mut d = Diagnostic::in_source(
            &self.file,
            &self.source_line,
            crate::error::Span::new(start, end),
            &format!(
                "variant `{}` refused: {}: {}",
                self.variant, self.key, self.why
            ),
        );
        d.line = self.line;
        d
    }

    /// The message with the line and a caret under the column.
    pub fn with_caret(&self) -> String {
        self.diagnostic().render(Paint::PLAIN)
    }
}

impl std::error::Error for Refusal {}

/// The definitions read from one file.
#[derive(Clone, Debug, Default)]
pub struct Loaded {
    pub file: String,
    pub defs: Vec<Def>,
    pub refused: Vec<Refusal>,
}

/// Parents this program provides in code besides a file's own sections:
/// Fairy-Stockfish's `chess` and its base `fairy` (the same rules). The
/// other built-in parents are data ([`builtin`]).
pub const BUILT_IN_PARENTS: &[&str] = &["chess", "fairy"];

/// Reads every section of a variants.ini text. `file` names it in
/// messages. A parent is an earlier section of the file, `chess` or one
/// of [`builtin::parents`].
pub fn load(text: &str, file: &str) -> Loaded {
    load_with(text, file, builtin::parents(), builtin::FAIRY_STOCKFISH)
}

/// [`load`] with `parents` as the built-in parents besides `chess`, and
/// `taken` the names a section may not have.
fn load_with(text: &str, file: &str, parents: &[Def], taken: &[&str]) -> Loaded {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out = Loaded {
        file: file.to_string(),
        ..Loaded::default()
    };
    // Where each loaded section is in `out.defs`, and how many sections of
    // the file its chain of parents holds; the names refused.
    let mut loaded: HashMap<String, (usize, usize)> = HashMap::new();
    let mut refused: HashSet<String> = HashSet::new();
    for (n, section) in lex::sections(text).into_iter().enumerate() {
        let refuse = |at: lex::At, key: String, why: String| Refusal {
            file: file.to_string(),
            variant: section.name.clone(),
            line: at.line,
            col: at.col,
            key,
            why,
            source_line: lines
                .get(at.line.wrapping_sub(1))
                .map(|l| l.trim_end_matches('\r').to_string())
                .unwrap_or_default(),
        };
        if n == MAX_INI_SECTIONS {
            out.refused.push(refuse(
                section.at,
                format!("[{}]", section.name),
                format!(
                    "more than {MAX_INI_SECTIONS} sections in one file: this one and the rest are not read"
                ),
            ));
            break;
        }
        let header = || format!("[{}]", section.name);
        if section.name.is_empty()
            || !section
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            push_refusal(
                &mut refused,
                refuse(
                    section.at,
                    header(),
                    "a variant's name is letters, digits, `-` and `_`".into(),
                ),
                &mut out,
            );
            continue;
        }
        if loaded.contains_key(&section.name)
            || BUILT_IN_PARENTS.contains(&section.name.as_str())
            || parents.iter().any(|d| d.name == section.name)
            || refused.contains(&section.name)
        {
            push_refusal(
                &mut refused,
                refuse(
                    section.at,
                    header(),
                    "a variant of that name exists already".into(),
                ),
                &mut out,
            );
            continue;
        }
        if taken.contains(&section.name.as_str()) {
            // Fairy-Stockfish keeps its built-in and skips the section.
            push_refusal(
                &mut refused,
                refuse(
                    section.at,
                    header(),
                    "Fairy-Stockfish has a built-in variant of that name, which it keeps".into(),
                ),
                &mut out,
            );
            continue;
        }
        let mut depth = 1;
        let mut def = match section.parent.as_deref() {
            None => Def::base(&section.name),
            Some(p) if BUILT_IN_PARENTS.contains(&p) => Def::chess(&section.name),
            Some(p) => match loaded
                .get(p)
                .map(|&(i, d)| (&out.defs[i], d))
                .or_else(|| parents.iter().find(|d| d.name == p).map(|d| (d, 0)))
            {
                Some((_, d)) if d >= MAX_INI_DEPTH => {
                    push_refusal(
                        &mut refused,
                        refuse(
                            section.at,
                            header(),
                            format!("its chain of parents is deeper than {MAX_INI_DEPTH} sections"),
                        ),
                        &mut out,
                    );
                    continue;
                }
                Some((parent, d)) => {
                    depth = d + 1;
                    let mut def = parent.clone();
                    def.name = section.name.clone();
                    def
                }
                None => {
                    let why = if refused.contains(p) {
                        format!("its parent `{p}` was refused")
                    } else if builtin::FAIRY_STOCKFISH.contains(&p) {
                        format!(
                            "its parent `{p}` is a Fairy-Stockfish built-in whose rules postal \
                             does not play (built-in parents: postal-variants(5))"
                        )
                    } else {
                        format!("no variant `{p}` defined before it (built-in parents: postal-variants(5))")
                    };
                    push_refusal(&mut refused, refuse(section.at, header(), why), &mut out);
                    continue;
                }
            },
        };
        def.parent = section.parent.clone();
        if let Err(e) = keys::apply(&mut def, &section) {
            push_refusal(&mut refused, refuse(e.at, e.key, e.why), &mut out);
            continue;
        }
        if let Err((key, why, offset)) = check(&mut def) {
            // At the key's own line where the section sets it (at the
            // part of its value meant, where one is), else (a parent's
            // value) at the section's header.
            let own = key.and_then(|k| section.entries.iter().rev().find(|e| e.key == k));
            let r = match (own, key) {
                (Some(e), _) => {
                    let col = e.value.get(..offset).map_or(0, |v| v.chars().count());
                    let at = lex::At {
                        line: e.value_at.line,
                        col: e.value_at.col + col,
                    };
                    refuse(at, e.key.clone(), why)
                }
                (None, Some(k)) => refuse(section.at, header(), format!("{k}: {why}")),
                (None, None) => refuse(section.at, header(), why),
            };
            push_refusal(&mut refused, r, &mut out);
            continue;
        }
        def.source = def.source.child(&section.text);
        loaded.insert(section.name.clone(), (out.defs.len(), depth));
        out.defs.push(def);
    }
    out
}

/// Records a section's refusal, and its name as refused.
fn push_refusal(refused: &mut HashSet<String>, r: Refusal, out: &mut Loaded) {
    refused.insert(r.variant.clone());
    out.refused.push(r);
}

/// Checks a definition as a whole: distinct letters, a start position
/// that reads and stands. An error names the key it is about, if one,
/// and the byte of its value where the fault is.
fn check(def: &mut Def) -> Result<(), (Option<&'static str>, String, usize)> {
    for (i, k) in def.kinds.iter().enumerate() {
        if def.kinds[..i].iter().any(|o| o.letter == k.letter) {
            return Err((None, format!("two pieces have the letter {}", k.letter), 0));
        }
    }
    def.compile().map_err(|e| (None, e, 0))?;
    Pos::from_fen(def, &def.start_fen).map_err(|e| (Some("startFen"), e.message, e.span.start))?;
    // Fairy-Stockfish warns against explosions with a king (its
    // parser.cpp), and its hand takes what blows up by rules not played
    // here.
    if def.blast_on_capture && def.king().is_some() {
        return Err((
            Some("blastOnCapture"),
            "explosions with a royal king are not supported (make it a commoner)".into(),
            0,
        ));
    }
    // Fairy-Stockfish's test of a pseudo-royal piece's safety lets an
    // explosion take every piece but a pawn, immune or not.
    let immune = def.blast_immune.all || !def.blast_immune.kinds.is_empty();
    if def.pseudo_royal && def.blast_on_capture && immune {
        return Err((
            Some("extinctionPseudoRoyal"),
            "pseudo-royal pieces with blast-immune pieces are not supported".into(),
            0,
        ));
    }
    Ok(())
}

impl Loaded {
    /// Finds a loaded definition by name, ignoring case.
    pub fn find(&self, name: &str) -> Option<&Def> {
        self.defs.iter().find(|d| d.name.eq_ignore_ascii_case(name))
    }

    /// The refusal of a section of that name, if it was refused.
    pub fn refusal(&self, name: &str) -> Option<&Refusal> {
        self.refused
            .iter()
            .find(|r| r.variant.eq_ignore_ascii_case(name))
    }
}

impl Def {
    pub fn start(&self) -> Pos {
        // Checked when loaded.
        Pos::from_fen(self, &self.start_fen).unwrap_or_else(|_| Pos::empty_of(self))
    }
}

#[cfg(test)]
mod tests;
