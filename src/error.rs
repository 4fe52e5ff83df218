//! Errors as values: a kind, a message, and for text a byte span, so the
//! command line can point at the offending characters with a caret.

use std::fmt;

/// A byte range in some text.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The same span moved `by` bytes to the right (for text embedded at an
    /// offset in a larger text).
    pub fn shift(self, by: usize) -> Span {
        Span::new(self.start + by, self.end + by)
    }
}

/// Text that could not be read: where, what was expected, what was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub span: Span,
    pub message: String,
}

impl ParseError {
    pub fn new(span: Span, message: impl Into<String>) -> ParseError {
        ParseError {
            span,
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

/// Why a move text does not name exactly one legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move in any notation this program reads.
    Syntax(ParseError),
    /// Well formed, but no legal move matches. `rule` names the rule id
    /// that decides it, where one does.
    Illegal {
        reason: String,
        rule: Option<&'static str>,
    },
    /// More than one legal move matches; the candidates in canonical notation.
    Ambiguous { candidates: Vec<String> },
}

impl MoveError {
    pub fn illegal(reason: impl Into<String>) -> MoveError {
        MoveError::Illegal {
            reason: reason.into(),
            rule: None,
        }
    }

    pub fn illegal_by(rule: &'static str, reason: impl Into<String>) -> MoveError {
        MoveError::Illegal {
            reason: reason.into(),
            rule: Some(rule),
        }
    }

    /// The span in the move text, for syntax errors.
    pub fn span(&self) -> Option<Span> {
        match self {
            MoveError::Syntax(e) => Some(e.span),
            _ => None,
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(e) => write!(f, "cannot read the move: {}", e.message),
            MoveError::Illegal { reason, rule } => {
                write!(f, "illegal move: {reason}")?;
                if let Some(r) = rule {
                    write!(f, " ({r})")?;
                }
                Ok(())
            }
            MoveError::Ambiguous { candidates } => {
                write!(f, "ambiguous move: could be {}", candidates.join(", "))
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// Why a `Move` value cannot be played in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    Illegal {
        reason: String,
        rule: Option<&'static str>,
    },
    GameOver,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Illegal { reason, rule } => {
                write!(f, "illegal move: {reason}")?;
                if let Some(r) = rule {
                    write!(f, " ({r})")?;
                }
                Ok(())
            }
            PlayError::GameOver => f.write_str("the game is over"),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<PlayError> for MoveError {
    fn from(e: PlayError) -> MoveError {
        match e {
            PlayError::Illegal { reason, rule } => MoveError::Illegal { reason, rule },
            PlayError::GameOver => MoveError::illegal("the game is over"),
        }
    }
}

/// Renders a caret diagnostic in the style of `regex-syntax`:
///
/// ```text
/// game.pgn:3:7: illegal move: ...
///   |
/// 3 | 1. e4 Ke7
///   |       ^^^
/// ```
///
/// `origin` names the text (a file name, or `<move>` for an argument).
/// Columns count characters, not bytes, so the caret stands under the
/// right character on lines with multi-byte UTF-8 text.
pub fn caret_snippet(origin: &str, source: &str, span: Span, message: &str) -> String {
    let start = span.start.min(source.len());
    let end = span.end.clamp(start, source.len());
    let line_start = source[..start].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let line_end = source[start..]
        .find('\n')
        .map(|i| start + i)
        .unwrap_or(source.len());
    let line_no = source[..start].matches('\n').count() + 1;
    let line = source[line_start..line_end].trim_end_matches('\r');
    let col = source[line_start..start].chars().count() + 1;
    let width = source[start..end.min(line_end)].chars().count().max(1);
    let gutter = " ".repeat(line_no.to_string().len());
    format!(
        "{origin}:{line_no}:{col}: {message}\n{gutter} |\n{line_no} | {line}\n{gutter} | {}{}",
        " ".repeat(col - 1),
        "^".repeat(width)
    )
}

/// Line and column (both from 1; the column in characters) of a byte offset.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let line_start = source[..offset].rfind('\n').map(|i| i + 1).unwrap_or(0);
    (
        source[..offset].matches('\n').count() + 1,
        source[line_start..offset].chars().count() + 1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_under_multibyte_text() {
        let src = "[Event \"Zürich\"]\n1. e4 Ké7";
        let at = src.find("Ké7").unwrap();
        let s = caret_snippet("g.pgn", src, Span::new(at, at + "Ké7".len()), "bad");
        assert!(s.starts_with("g.pgn:2:7: bad"), "{s}");
        assert!(s.ends_with("  |       ^^^"), "{s}");
        assert_eq!(line_col(src, at), (2, 7));
    }
}
