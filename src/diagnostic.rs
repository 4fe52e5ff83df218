//! Caret diagnostics, drawn in one place, plain or styled as cargo and
//! ripgrep style them on a terminal: the level (`error` red, `warning`
//! yellow, `note` cyan) and its carets, the gutter and the `=` of the
//! labels in blue, the location and the message in bold.
//!
//! ```text
//! game.pgn:12:5: error: illegal move: no white bishop on f1 can move to c4
//!    |
//! 12 | 10. Bf1-c4?  Qh4/h2/h1/g1+
//!    |     ^^^^^^^
//!    = expected: a legal move for White at 10.
//! ```
//!
//! The text is the same either way: styling only wraps parts of it, and
//! the caller that writes it decides whether to style ([`Paint`]).

use crate::error::{mark, Span};
use anstyle::{AnsiColor, Style};

/// Whether what is drawn is styled for a terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Paint {
    pub styled: bool,
}

impl Paint {
    pub const PLAIN: Paint = Paint { styled: false };
    pub const STYLED: Paint = Paint { styled: true };

    /// `text` in `style`, when styling.
    pub fn push(self, out: &mut String, style: Style, text: &str) {
        if self.styled && !text.is_empty() {
            out.push_str(&format!("{}{text}{}", style.render(), style.render_reset()));
        } else {
            out.push_str(text);
        }
    }

    /// A diagnostic's first line: `prefix` and `rest` in bold, the level
    /// between them in its colour (`postal: error: ...`,
    /// `file:3:1: warning: ...`).
    pub fn headline(self, out: &mut String, prefix: &str, level: Level, rest: &str) {
        self.push(out, BOLD, prefix);
        self.push(out, level.style(), level.as_str());
        self.push(out, BOLD, rest);
    }
}

const BOLD: Style = Style::new().bold();
const BLUE: Style = AnsiColor::Blue.on_default().bold();

/// How grave a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Error,
    Warning,
    Note,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        }
    }

    fn style(self) -> Style {
        match self {
            Level::Error => AnsiColor::Red.on_default().bold(),
            Level::Warning => AnsiColor::Yellow.on_default().bold(),
            Level::Note => AnsiColor::Cyan.on_default().bold(),
        }
    }
}

/// A message about a place in a text: where (origin, line, column), the
/// line as shown and the carets under the part meant ([`mark`]), and
/// labelled notes (`expected`, `found`, `rule`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub origin: String,
    pub line: usize,
    pub column: usize,
    /// Written before the message when given (`warning: ...`); a
    /// diagnostic inside an error's own line (`postal: error: ...`) has
    /// none of its own, and its carets take `caret_level`'s colour.
    pub level: Option<Level>,
    pub caret_level: Level,
    pub message: String,
    pub shown: String,
    pub carets: String,
    pub notes: Vec<(String, String)>,
}

impl Diagnostic {
    /// The diagnostic of the bytes `span` of `source`, which may hold many
    /// lines: the line and column (in characters) are counted here.
    pub fn in_source(origin: &str, source: &str, span: Span, message: &str) -> Diagnostic {
        let start = floor_char(source, span.start.min(source.len()));
        let end = floor_char(source, span.end.clamp(start, source.len()));
        let line_start = source[..start].rfind('\n').map(|i| i + 1).unwrap_or(0);
        let line_end = source[start..]
            .find('\n')
            .map(|i| start + i)
            .unwrap_or(source.len());
        let line = source[..start].matches('\n').count() + 1;
        let column = source[line_start..start].chars().count() + 1;
        let (shown, carets) = mark(
            &source[line_start..line_end],
            start - line_start,
            end.min(line_end) - line_start,
        );
        Diagnostic {
            origin: origin.to_string(),
            line,
            column,
            level: None,
            caret_level: Level::Error,
            message: message.to_string(),
            shown,
            carets,
            notes: Vec::new(),
        }
    }

    /// The diagnostic of the bytes `start..end` of one line of a text,
    /// at the line and column given.
    #[allow(clippy::too_many_arguments)]
    pub fn in_line(
        origin: &str,
        line: usize,
        column: usize,
        text: &str,
        start: usize,
        end: usize,
        level: Level,
        message: &str,
    ) -> Diagnostic {
        let (shown, carets) = mark(text, start, end);
        Diagnostic {
            origin: origin.to_string(),
            line,
            column,
            level: Some(level),
            caret_level: level,
            message: message.to_string(),
            shown,
            carets,
            notes: Vec::new(),
        }
    }

    /// The lines of the diagnostic, without a line feed after the last.
    pub fn render(&self, paint: Paint) -> String {
        let mut out = String::new();
        let place = format!("{}:{}:{}: ", self.origin, self.line, self.column);
        match self.level {
            Some(level) => paint.headline(&mut out, &place, level, &format!(": {}", self.message)),
            None => paint.push(&mut out, BOLD, &format!("{place}{}", self.message)),
        }
        let number = self.line.to_string();
        let gutter = " ".repeat(number.len());
        out.push('\n');
        paint.push(&mut out, BLUE, &format!("{gutter} |"));
        out.push('\n');
        paint.push(&mut out, BLUE, &format!("{number} |"));
        out.push(' ');
        out.push_str(&self.shown);
        out.push('\n');
        paint.push(&mut out, BLUE, &format!("{gutter} |"));
        out.push(' ');
        let lead = self.carets.len() - self.carets.trim_start().len();
        out.push_str(&self.carets[..lead]);
        paint.push(&mut out, self.caret_level.style(), &self.carets[lead..]);
        for (name, value) in &self.notes {
            out.push('\n');
            out.push_str(&gutter);
            out.push(' ');
            paint.push(&mut out, BLUE, "=");
            out.push(' ');
            paint.push(&mut out, BOLD, &format!("{name}:"));
            out.push(' ');
            out.push_str(value);
        }
        out
    }
}

fn floor_char(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip(text: &str) -> String {
        let mut plain = Vec::new();
        let mut strip = anstream::StripStream::new(&mut plain);
        std::io::Write::write_all(&mut strip, text.as_bytes()).unwrap();
        String::from_utf8(plain).unwrap()
    }

    /// Styling wraps parts of the same text and adds nothing else.
    #[test]
    fn styles_wrap_the_plain_text() {
        let mut d = Diagnostic::in_line(
            "swap-chess.txt",
            36,
            23,
            "1. 1 Qb6/b1/d3=N/c4/f7++",
            22,
            24,
            Level::Warning,
            "the move gives check but does not mate",
        );
        d.notes.push(("expected".into(), "+".into()));
        let plain = d.render(Paint::PLAIN);
        assert_eq!(
            plain,
            "swap-chess.txt:36:23: warning: the move gives check but does not mate\n   |\n36 | 1. 1 Qb6/b1/d3=N/c4/f7++\n   |                       ^^\n   = expected: +"
        );
        let styled = d.render(Paint::STYLED);
        assert_ne!(styled, plain);
        assert_eq!(strip(&styled), plain);
        let yellow = Level::Warning.style();
        assert!(styled.contains(&format!(
            "{}warning{}",
            yellow.render(),
            yellow.render_reset()
        )));
        assert!(styled.contains(&format!("{}^^", yellow.render())));
    }
}
