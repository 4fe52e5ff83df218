//! Coloured diagnostics on a terminal, as cargo and ripgrep show them:
//! the level (`error` red, `warning` yellow, `note` cyan) and its carets,
//! the gutter and the `= expected:` labels in blue, the location and the
//! message in bold. Whether to colour is `--color auto|always|never`; on
//! `auto` anstream decides as other tools do (a terminal, and neither
//! `NO_COLOR` nor `TERM=dumb`; `CLICOLOR_FORCE` forces it). The text is
//! the same either way: colouring only wraps parts of the lines the
//! diagnostics already print ([`Styled`]).

use anstyle::{AnsiColor, Style};
use std::io::{self, Write};

/// `--color`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum When {
    #[default]
    Auto,
    Always,
    Never,
}

impl When {
    /// Whether to colour what goes to `stream`.
    pub fn colours<S: anstream::stream::RawStream>(self, stream: &S) -> bool {
        match self {
            When::Auto => anstream::AutoStream::choice(stream) != anstream::ColorChoice::Never,
            When::Always => true,
            When::Never => false,
        }
    }
}

const BOLD: Style = Style::new().bold();
const BLUE: Style = AnsiColor::Blue.on_default().bold();

fn level_style(level: &str) -> Style {
    match level {
        "error" => AnsiColor::Red.on_default().bold(),
        "warning" => AnsiColor::Yellow.on_default().bold(),
        _ => AnsiColor::Cyan.on_default().bold(),
    }
}

fn paint(out: &mut String, style: Style, text: &str) {
    if text.is_empty() {
        return;
    }
    out.push_str(&format!("{}{text}{}", style.render(), style.render_reset()));
}

/// The level of a diagnostic's first line (`file:1:2: error: ...`,
/// `postal: error: ...`): where it starts and which.
fn level_at(line: &str) -> Option<(usize, &'static str)> {
    ["error", "warning", "note"].into_iter().find_map(|level| {
        let mark = format!("{level}: ");
        if line.starts_with(&mark) {
            return Some((0, level));
        }
        line.find(&format!(": {mark}")).map(|i| (i + 2, level))
    })
}

/// A line of a diagnostic, coloured; `level` is the level of the last
/// first line seen (for the carets under it).
pub fn colour_line(line: &str, level: &mut &'static str) -> String {
    let mut out = String::with_capacity(line.len() + 32);
    if let Some((at, found)) = level_at(line) {
        *level = found;
        paint(&mut out, BOLD, &line[..at]);
        paint(&mut out, level_style(found), found);
        paint(&mut out, BOLD, &line[at + found.len()..]);
        return out;
    }
    // The gutter: `  |`, `36 |`, with the source or the carets after it.
    let trimmed = line.trim_start();
    let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    if let Some(bar) = trimmed[digits..]
        .strip_prefix(" |")
        .or_else(|| (digits == 0).then(|| trimmed.strip_prefix('|')).flatten())
    {
        let gutter = line.len() - bar.len();
        paint(&mut out, BLUE, &line[..gutter]);
        if digits == 0 && bar.trim_start().starts_with(['^', '-']) {
            let lead = bar.len() - bar.trim_start().len();
            out.push_str(&bar[..lead]);
            paint(&mut out, level_style(level), &bar[lead..]);
        } else {
            out.push_str(bar);
        }
        return out;
    }
    // `   = expected: ...`
    if let Some(rest) = trimmed.strip_prefix("= ") {
        if let Some(colon) = rest.find(':') {
            let lead = line.len() - trimmed.len();
            out.push_str(&line[..lead]);
            paint(&mut out, BLUE, "=");
            out.push(' ');
            paint(&mut out, BOLD, &rest[..=colon]);
            out.push_str(&rest[colon + 1..]);
            return out;
        }
    }
    line.to_string()
}

/// A writer that colours the diagnostic lines of what passes through it,
/// a line at a time; other lines, and anything not UTF-8, pass as they
/// are.
pub struct Styled<W: Write> {
    inner: W,
    line: Vec<u8>,
    level: &'static str,
}

impl<W: Write> Styled<W> {
    pub fn new(inner: W) -> Styled<W> {
        Styled {
            inner,
            line: Vec::new(),
            level: "error",
        }
    }

    fn emit_line(&mut self) -> io::Result<()> {
        match std::str::from_utf8(&self.line) {
            Ok(text) => {
                let (body, end) = match text.strip_suffix('\n') {
                    Some(b) => (b, "\n"),
                    None => (text, ""),
                };
                let coloured = colour_line(body, &mut self.level);
                self.inner.write_all(coloured.as_bytes())?;
                self.inner.write_all(end.as_bytes())?;
            }
            Err(_) => self.inner.write_all(&self.line)?,
        }
        self.line.clear();
        Ok(())
    }
}

impl<W: Write> Write for Styled<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for part in buf.split_inclusive(|&b| b == b'\n') {
            self.line.extend_from_slice(part);
            if part.ends_with(b"\n") {
                self.emit_line()?;
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.line.is_empty() {
            self.emit_line()?;
        }
        self.inner.flush()
    }
}

/// `text` coloured line by line, for standard error.
pub fn colour_text(text: &str) -> String {
    let mut level = "error";
    text.split_inclusive('\n')
        .map(|l| match l.strip_suffix('\n') {
            Some(body) => colour_line(body, &mut level) + "\n",
            None => colour_line(l, &mut level),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = "fixtures/records/swap-chess.txt:36:23: warning: the move gives check but does not mate: the mark should be +
   |
36 | 1. 1 Qb6/b1/d3=N/c4/f7++
   |                       ^^
   = expected: +
   = rule: FI-4

verified 2 games in 1 file";

    /// Colouring changes nothing but the escape codes around parts of
    /// the lines.
    #[test]
    fn colours_wrap_the_text_and_add_nothing_else() {
        let coloured = colour_text(REPORT);
        assert_ne!(coloured, REPORT);
        let mut plain = Vec::new();
        let mut strip = anstream::StripStream::new(&mut plain);
        strip.write_all(coloured.as_bytes()).unwrap();
        assert_eq!(String::from_utf8(plain).unwrap(), REPORT);
        assert!(coloured.contains(&format!(
            "{}warning{}",
            level_style("warning").render(),
            level_style("warning").render_reset()
        )));
        // The carets take the level's colour.
        assert!(coloured.contains(&format!("{}^^", level_style("warning").render())));
        assert!(coloured.ends_with("verified 2 games in 1 file"));
    }

    #[test]
    fn the_styled_writer_colours_whole_lines_however_written() {
        let mut out = Vec::new();
        {
            let mut w = Styled::new(&mut out);
            for piece in REPORT.as_bytes().chunks(7) {
                w.write_all(piece).unwrap();
            }
            w.flush().unwrap();
        }
        assert_eq!(String::from_utf8(out).unwrap(), colour_text(REPORT));
    }
}
