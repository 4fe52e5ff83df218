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
/// The column counts characters, not bytes; the line and its caret are
/// laid out by [`mark`], so the caret stands under the right characters
/// whatever the line holds (tabs, wide characters).
pub fn caret_snippet(origin: &str, source: &str, span: Span, message: &str) -> String {
    crate::diagnostic::Diagnostic::in_source(origin, source, span, message)
        .render(crate::diagnostic::Paint::PLAIN)
}

/// Tab stops of a shown line are this many columns apart.
pub const TAB_STOP: usize = 4;

/// The one place carets are drawn: a source line as shown under a
/// diagnostic, and the line of spaces and carets that marks the bytes
/// `start..end` of it. Both are laid out by display width: a tab is
/// expanded to the next tab stop, a wide character (CJK, most emoji)
/// takes two columns and a combining mark none (unicode-width), so the
/// caret stands under the marked text in a terminal. Control characters
/// are shown as U+FFFD, so a line cannot send the terminal a command. A
/// trailing `\r` is dropped; the caret is at least one column wide.
pub fn mark(line: &str, start: usize, end: usize) -> (String, String) {
    use unicode_width::UnicodeWidthChar;
    let line = line.strip_suffix('\r').unwrap_or(line);
    let mut shown = String::with_capacity(line.len());
    let mut col = 0;
    let (mut from, mut to) = (None, None);
    for (i, c) in line.char_indices() {
        if i >= start && from.is_none() {
            from = Some(col);
        }
        if i >= end && to.is_none() {
            to = Some(col);
        }
        if c == '\t' {
            let next = (col / TAB_STOP + 1) * TAB_STOP;
            shown.push_str(&" ".repeat(next - col));
            col = next;
        } else if c.is_control() {
            shown.push('\u{FFFD}');
            col += 1;
        } else {
            shown.push(c);
            col += c.width().unwrap_or(0);
        }
    }
    let from = from.unwrap_or(col);
    let to = to.unwrap_or(col).max(from + 1);
    let caret = format!("{}{}", " ".repeat(from), "^".repeat(to - from));
    (shown, caret)
}

/// The byte offset of the `n`th character of a line (from 0), or its
/// length past the end: for callers that count columns in characters.
pub fn char_offset(line: &str, n: usize) -> usize {
    line.char_indices().nth(n).map_or(line.len(), |(i, _)| i)
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

    /// The caret's column in the shown line, and its width.
    fn caret_at(line: &str, text: &str) -> (String, usize, usize) {
        let at = line.find(text).unwrap();
        let (shown, caret) = mark(line, at, at + text.len());
        let from = caret.find('^').unwrap();
        (shown, from, caret.len() - from)
    }

    #[test]
    fn carets_expand_tabs_to_tab_stops() {
        let (shown, from, width) = caret_at("1.\te4\tKe7", "Ke7");
        assert_eq!(shown, "1.  e4  Ke7");
        assert_eq!((from, width), (8, 3));
        assert_eq!(&shown[from..from + width], "Ke7");
        let (shown, from, _) = caret_at("\tx", "x");
        assert_eq!((shown.as_str(), from), ("    x", 4));
    }

    #[test]
    fn carets_count_wide_characters_twice() {
        // CJK and emoji take two columns each; a combining mark none.
        let (_, from, width) = caret_at("[Event \"象棋\"] 1. e4 Kx9", "Kx9");
        assert_eq!((from, width), ("[Event \"\"] 1. e4 ".len() + 4, 3));
        let (_, from, width) = caret_at("🎉🎉 Qh5", "Qh5");
        assert_eq!((from, width), (2 + 2 + 1, 3));
        let (_, from, width) = caret_at("e\u{301}4 x", "x");
        assert_eq!((from, width), (3, 1));
        // A wide character marked is two carets wide.
        let (_, from, width) = caret_at("1. 象", "象");
        assert_eq!((from, width), (3, 2));
    }

    #[test]
    fn carets_at_the_end_and_on_control_characters() {
        let line = "1. e4\u{1b}[2J";
        let (shown, caret) = mark(line, line.len(), line.len());
        assert_eq!(shown, "1. e4\u{FFFD}[2J");
        assert_eq!(caret, "         ^");
        let (shown, _) = mark("e4\r", 0, 2);
        assert_eq!(shown, "e4");
        let s = caret_snippet("g.pgn", "1.\tKé7", Span::new(3, 7), "bad");
        assert!(s.starts_with("g.pgn:1:4: bad"), "{s}");
        assert!(s.ends_with("1 | 1.  Ké7\n  |     ^^^"), "{s}");
    }
}
