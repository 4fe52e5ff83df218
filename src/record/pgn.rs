//! The PGN reader: tag pairs, movetext, `{}` and `;` comments, `()`
//! variations, NAGs, results, several games a file.
//!
//! [`Chunker`] streams a file game by game in constant memory: it reads
//! lines into one reused buffer until the game is complete (the next tag
//! section begins, or a line ends with a result), so a file of any size is
//! read one game at a time. [`read`] turns one chunk into [`Event`]s; it
//! never judges a move.

use super::lexer::{glyph_nag, is_en_passant_mark, is_number, Lexer, Mode, TokenKind};
use super::{Event, Issue, IssueKind};
use crate::error::Span;
use std::io::{self, BufRead};

/// Where the reader is: inside a game, in its movetext, how deep in
/// variations.
#[derive(Default)]
struct State {
    open: bool,
    movetext: bool,
    depth: usize,
    /// The span of the game's first tag and the end of its last one.
    tags: Option<(Span, usize)>,
}

type Sink<'s, 'a> = &'s mut dyn FnMut(Event<'a>);

impl State {
    fn begin_movetext<'a>(&mut self, span: Span, sink: Sink<'_, 'a>) {
        if !self.open {
            sink(Event::BeginGame { span });
            self.open = true;
        }
        self.movetext = true;
    }

    fn close<'a>(&mut self, at: Span, sink: Sink<'_, 'a>) {
        if let (true, false, Some((first, _))) = (self.open, self.movetext, self.tags) {
            // Tags and no movetext: a game without moves, as python-chess
            // reads it (not merged into the next game).
            sink(Event::Issue(
                Issue::warning(
                    IssueKind::Tag,
                    first,
                    "a tag section without moves: read as a game of its own, with no moves",
                )
                .expected("movetext after the tag section, even just a result such as *")
                .found("no moves"),
            ));
        }
        while self.depth > 0 {
            sink(Event::Issue(
                Issue::error(IssueKind::Syntax, at, "a variation is never closed")
                    .expected("')'")
                    .found("the end of the game"),
            ));
            sink(Event::EndVariation { span: at });
            self.depth -= 1;
        }
        if self.open {
            sink(Event::EndGame {
                next_follows: false,
            });
        }
        self.open = false;
        self.movetext = false;
        self.tags = None;
    }
}

/// Only blanks between two tags, with an empty line among them?
fn blank_line_between(gap: &str) -> bool {
    gap.trim().is_empty() && gap.split('\n').skip(1).count() >= 2
}

/// Emits the events of the games in `text` (a chunk or a whole file).
pub fn read<'a>(text: &'a str, sink: Sink<'_, 'a>) {
    let mut st = State::default();
    let mut last_span = Span::default();
    for tok in Lexer::new(text, Mode::Pgn) {
        let span = tok.span;
        last_span = Span::new(span.end, span.end);
        match tok.kind {
            TokenKind::Tag {
                name,
                value,
                value_span,
            } => {
                if st.movetext {
                    st.close(span, sink);
                }
                if let Some((_, end)) = st.tags {
                    if st.open && blank_line_between(&text[end..span.start]) {
                        // Tags, an empty line, tags: the first section is
                        // a game without moves.
                        st.close(span, sink);
                    }
                }
                let first = st.tags.map_or(span, |(f, _)| f);
                st.tags = Some((first, span.end));
                if !st.open {
                    sink(Event::BeginGame { span });
                    st.open = true;
                }
                sink(Event::Tag {
                    name,
                    value,
                    value_span,
                });
            }
            TokenKind::BadTag(t) => {
                if !st.open {
                    sink(Event::BeginGame { span });
                    st.open = true;
                }
                sink(Event::Issue(
                    Issue::error(IssueKind::Syntax, span, "cannot read this tag pair")
                        .expected("a tag pair such as [White \"Name\"]")
                        .found(t),
                ));
            }
            TokenKind::Escape(_) | TokenKind::Ellipsis => {}
            TokenKind::LineComment(c) => {
                if st.open {
                    sink(Event::Comment { text: c, span });
                }
            }
            TokenKind::Comment(c) | TokenKind::Commentary(c) => {
                if st.open {
                    sink(Event::Comment { text: c, span });
                }
            }
            TokenKind::Unclosed(_) => {
                st.begin_movetext(span, sink);
                sink(Event::Issue(
                    Issue::error(
                        IssueKind::Syntax,
                        Span::new(span.start, span.start + 1),
                        "a comment is never closed",
                    )
                    .expected("'}'")
                    .found("the end of the file"),
                ));
            }
            TokenKind::Open => {
                st.begin_movetext(span, sink);
                st.depth += 1;
                sink(Event::BeginVariation { span });
            }
            TokenKind::Close => {
                if st.depth == 0 {
                    sink(Event::Issue(
                        Issue::error(IssueKind::Syntax, span, "')' closes no variation")
                            .expected("a move, a comment or a result")
                            .found(")"),
                    ));
                } else {
                    st.depth -= 1;
                    sink(Event::EndVariation { span });
                }
            }
            TokenKind::MoveNumber { number, black } => {
                st.begin_movetext(span, sink);
                sink(Event::MoveNumber {
                    number,
                    black,
                    span,
                });
            }
            TokenKind::Nag(nag) => {
                if st.open {
                    sink(Event::Nag { nag, span });
                }
            }
            TokenKind::Word(w) => {
                st.begin_movetext(span, sink);
                if is_en_passant_mark(w) {
                    continue;
                }
                if let Some(nag) = glyph_nag(w) {
                    sink(Event::Nag { nag, span });
                } else if is_number(w) {
                    sink(Event::Issue(
                        Issue::warning(
                            IssueKind::StrayToken,
                            span,
                            format!("stray token `{w}` skipped"),
                        )
                        .expected("a move, a move number such as 12. or a comment")
                        .found(w),
                    ));
                } else {
                    sink(Event::Move { text: w, span });
                }
            }
            TokenKind::Result(r) => {
                st.begin_movetext(span, sink);
                if st.depth > 0 {
                    sink(Event::Issue(
                        Issue::warning(
                            IssueKind::StrayToken,
                            span,
                            "a result inside a variation, skipped",
                        )
                        .expected("a move or ')'")
                        .found(r),
                    ));
                    continue;
                }
                sink(Event::Result { text: r, span });
                st.close(span, sink);
            }
            TokenKind::Diagram(_) => {}
        }
    }
    st.close(last_span, sink);
}

/// One game's text (or a few games without tags), with the line number of
/// its first line in the file.
#[derive(Debug, Default)]
pub struct Chunk {
    pub text: String,
    pub first_line: usize,
}

/// Reads a PGN stream game by game into a reused [`Chunk`].
pub struct Chunker<R> {
    input: R,
    /// The number of the next line to read.
    line: usize,
    line_buf: Vec<u8>,
    /// A tag line already read that starts the next chunk.
    carry: String,
    has_carry: bool,
    pub bytes_read: u64,
    /// Lines that were not UTF-8 (read as Latin-1), the first of them.
    pub latin1: Option<usize>,
}

impl<R: BufRead> Chunker<R> {
    pub fn new(input: R) -> Chunker<R> {
        Chunker {
            input,
            line: 1,
            line_buf: Vec::new(),
            carry: String::new(),
            has_carry: false,
            bytes_read: 0,
            latin1: None,
        }
    }

    /// The memory held for lines, for the constant-memory test.
    pub fn capacity(&self) -> usize {
        self.line_buf.capacity() + self.carry.capacity()
    }

    /// Fills `chunk` with the next game; false at the end of the input.
    pub fn next_chunk(&mut self, chunk: &mut Chunk) -> io::Result<bool> {
        chunk.text.clear();
        chunk.first_line = self.line;
        let mut movetext = false;
        let mut in_comment = false;
        // Tags and then an empty line: a tag line after it starts another
        // game (the first had no moves).
        let mut tags_then_blank = false;
        let mut tags = false;
        if self.has_carry {
            self.has_carry = false;
            tags = true;
            chunk.text.push_str(&self.carry);
            self.line += 1;
        }
        loop {
            self.line_buf.clear();
            let n = self.input.read_until(b'\n', &mut self.line_buf)?;
            if n == 0 {
                return Ok(!chunk.text.trim().is_empty());
            }
            self.bytes_read += n as u64;
            let line: std::borrow::Cow<str> = match std::str::from_utf8(&self.line_buf) {
                Ok(s) => s.into(),
                Err(_) => {
                    // Old PGN files are often Latin-1: every byte is a char.
                    self.latin1.get_or_insert(self.line);
                    self.line_buf
                        .iter()
                        .map(|&b| b as char)
                        .collect::<String>()
                        .into()
                }
            };
            // A byte-order mark (Windows editors) is no part of the text.
            let line = if line.starts_with('\u{feff}') {
                std::borrow::Cow::Owned(line['\u{feff}'.len_utf8()..].to_string())
            } else {
                line
            };
            let trimmed = line.trim();
            if !in_comment && trimmed.starts_with('[') && (movetext || tags_then_blank) {
                self.carry.clear();
                self.carry.push_str(&line);
                self.has_carry = true;
                return Ok(true);
            }
            let was_in_comment = in_comment;
            for c in line.chars() {
                match c {
                    ';' if !in_comment => break,
                    '{' if !in_comment => in_comment = true,
                    '}' if in_comment => in_comment = false,
                    _ => {}
                }
            }
            let is_tag = !was_in_comment && trimmed.starts_with('[');
            if !trimmed.is_empty() && !is_tag && !trimmed.starts_with('%') {
                movetext = true;
            }
            tags |= is_tag;
            tags_then_blank |= tags && trimmed.is_empty();
            chunk.text.push_str(&line);
            self.line += 1;
            if movetext
                && !in_comment
                && ["1-0", "0-1", "1/2-1/2", "*"]
                    .iter()
                    .any(|r| trimmed.ends_with(r))
                && chunk.text.len() > 4096
            {
                // A long run of games without tags: end the chunk at a
                // result so memory stays bounded.
                return Ok(true);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        read(text, &mut |e| {
            out.push(match e {
                Event::BeginGame { .. } => "begin".to_string(),
                Event::Tag { name, value, .. } => format!("tag {name}={value}"),
                Event::MoveNumber { number, black, .. } => {
                    format!("n{number}{}", if black { "..." } else { "." })
                }
                Event::Move { text, .. } => format!("m {text}"),
                Event::Nag { nag, .. } => format!("${nag}"),
                Event::Comment { text, .. } => format!("c {text}"),
                Event::BeginVariation { .. } => "(".into(),
                Event::EndVariation { .. } => ")".into(),
                Event::Result { text, .. } => format!("r {text}"),
                Event::Issue(i) => format!("issue {}", i.kind.as_str()),
                Event::EndGame { .. } => "end".into(),
                other => format!("{other:?}"),
            })
        });
        out
    }

    #[test]
    fn games_tags_variations() {
        let e = events("[White \"A\"]\n\n1. e4 e5! (1... c5 2. Nf3) 2. Nf3 $1 {ok} 1-0\n[White \"B\"]\n1. d4 *\n");
        assert_eq!(
            e,
            vec![
                "begin",
                "tag White=A",
                "n1.",
                "m e4",
                "m e5!",
                "(",
                "n1...",
                "m c5",
                "n2.",
                "m Nf3",
                ")",
                "n2.",
                "m Nf3",
                "$1",
                "c ok",
                "r 1-0",
                "end",
                "begin",
                "tag White=B",
                "n1.",
                "m d4",
                "r *",
                "end"
            ]
        );
    }

    #[test]
    fn tagless_games_and_unclosed_variation() {
        let e = events("1. e4 1-0 1. d4 (1. c4");
        assert_eq!(
            e,
            vec![
                "begin",
                "n1.",
                "m e4",
                "r 1-0",
                "end",
                "begin",
                "n1.",
                "m d4",
                "(",
                "n1.",
                "m c4",
                "issue syntax",
                ")",
                "end"
            ]
        );
    }

    #[test]
    fn chunks_are_games() {
        let text = "[A \"1\"]\n1. e4 {multi\n[not a tag]} e5 *\n\n[A \"2\"]\n1. d4 *\n";
        let mut c = Chunker::new(text.as_bytes());
        let mut chunk = Chunk::default();
        assert!(c.next_chunk(&mut chunk).unwrap());
        assert!(chunk.text.contains("[not a tag]"));
        assert_eq!(chunk.first_line, 1);
        assert!(c.next_chunk(&mut chunk).unwrap());
        assert_eq!(chunk.first_line, 5);
        assert!(chunk.text.starts_with("[A \"2\"]"));
        assert!(!c.next_chunk(&mut chunk).unwrap());
    }
}
