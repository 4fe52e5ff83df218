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
use crate::limits::{exceeds, MAX_NESTING, MAX_RECORD_BYTES};
use std::io::{self, BufRead};

/// Where the reader is: inside a game, in its movetext, how deep in
/// variations.
#[derive(Default)]
struct State<'a> {
    open: bool,
    movetext: bool,
    depth: usize,
    /// How deep inside a variation nested past [`MAX_NESTING`] the reader
    /// is: its tokens are skipped to its end.
    skipping: usize,
    /// The span of the game's first tag and the end of its last one.
    tags: Option<(Span, usize)>,
    /// The names of the game's tags so far.
    tag_names: Vec<&'a str>,
}

type Sink<'s, 'a> = &'s mut dyn FnMut(Event<'a>);

impl<'a> State<'a> {
    fn begin_movetext(&mut self, span: Span, sink: Sink<'_, 'a>) {
        if !self.open {
            sink(Event::BeginGame { span });
            self.open = true;
        }
        self.movetext = true;
    }

    fn close(&mut self, at: Span, sink: Sink<'_, 'a>) {
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
        self.tag_names.clear();
    }
}

/// Only blanks between two tags, with an empty line among them?
fn blank_line_between(gap: &str) -> bool {
    gap.trim().is_empty() && gap.split('\n').skip(1).count() >= 2
}

/// The name of the tag a line starts with (`[White "Ana"]`).
fn tag_name(line: &str) -> &str {
    let rest = line
        .trim_start()
        .strip_prefix('[')
        .unwrap_or("")
        .trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// Emits the events of the games in `text` (a chunk or a whole file).
pub fn read<'a>(text: &'a str, sink: Sink<'_, 'a>) {
    let mut st = State::default();
    let mut last_span = Span::default();
    for tok in Lexer::new(text, Mode::Pgn) {
        let span = tok.span;
        last_span = Span::new(span.end, span.end);
        if st.skipping > 0 {
            match tok.kind {
                TokenKind::Open => st.skipping += 1,
                TokenKind::Close => st.skipping -= 1,
                _ => {}
            }
            continue;
        }
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
                    if st.open
                        && blank_line_between(&text[end..span.start])
                        && st.tag_names.contains(&name)
                    {
                        // Tags, an empty line, tags that name one of them
                        // again: the first section is a game without
                        // moves. (An empty line inside one tag section, as
                        // ChessBase writes before its extra tags, leaves
                        // one game.)
                        st.close(span, sink);
                    }
                }
                st.tag_names.push(name);
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
            TokenKind::Open if st.depth >= MAX_NESTING => {
                sink(Event::Issue(
                    Issue::error(
                        IssueKind::Syntax,
                        span,
                        format!(
                            "{}; skipped to its end",
                            exceeds(
                                "a variation nested",
                                st.depth + 1,
                                MAX_NESTING,
                                "levels deep"
                            )
                        ),
                    )
                    .expected(format!("at most {MAX_NESTING} nested variations"))
                    .found("("),
                ));
                st.skipping = 1;
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
    /// The game's size in bytes when it is larger than
    /// [`MAX_RECORD_BYTES`]: `text` then holds its first part only, and
    /// the rest was skipped (read, not kept) to the next game.
    pub oversize: Option<u64>,
}

/// Reads a PGN stream game by game into a reused [`Chunk`], in memory
/// bounded by [`MAX_RECORD_BYTES`] whatever the input: a game, or a line,
/// larger than that is cut there and the rest skipped to the next tag
/// section. A NUL byte means the input is not text (a binary file, UTF-16)
/// and ends the reading with an error naming its line.
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

    /// Reads the next line (through its newline) into `line_buf`, keeping
    /// at most `keep` bytes of it; returns the bytes it had (0 at the end).
    fn read_line(&mut self, keep: usize) -> io::Result<usize> {
        self.line_buf.clear();
        let mut total = 0;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok(total);
            }
            let (n, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            if buf[..n].contains(&0) {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "line {}: a NUL byte: this is binary data, not a text record",
                        self.line
                    ),
                ));
            }
            let room = keep.saturating_sub(self.line_buf.len());
            self.line_buf.extend_from_slice(&buf[..n.min(room)]);
            self.input.consume(n);
            total += n;
            if done {
                return Ok(total);
            }
        }
    }

    /// Fills `chunk` with the next game; false at the end of the input.
    pub fn next_chunk(&mut self, chunk: &mut Chunk) -> io::Result<bool> {
        chunk.text.clear();
        chunk.first_line = self.line;
        chunk.oversize = None;
        let mut size: u64 = 0;
        let mut movetext = false;
        let mut in_comment = false;
        // Tags and then an empty line: a tag line after it starts another
        // game (the first had no moves).
        let mut tags_then_blank = false;
        let mut tags = false;
        // The names of the game's tags, a line each.
        let mut names = String::new();
        if self.has_carry {
            self.has_carry = false;
            tags = true;
            names.push_str(tag_name(&self.carry));
            names.push('\n');
            chunk.text.push_str(&self.carry);
            size += self.carry.len() as u64;
            self.line += 1;
        }
        loop {
            let skipping = chunk.oversize.is_some();
            let n = self.read_line(MAX_RECORD_BYTES + 1)?;
            if n == 0 {
                if let Some(total) = chunk.oversize.as_mut() {
                    *total = size;
                }
                return Ok(!chunk.text.trim().is_empty());
            }
            self.bytes_read += n as u64;
            size += n as u64;
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
            if (skipping || !in_comment)
                && trimmed.starts_with('[')
                && (movetext || (tags_then_blank && names.lines().any(|n| n == tag_name(trimmed))))
            {
                if skipping {
                    chunk.oversize = Some(size - n as u64);
                }
                self.carry.clear();
                self.carry.push_str(&line);
                self.has_carry = true;
                return Ok(true);
            }
            if skipping {
                self.line += 1;
                continue;
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
            if is_tag {
                names.push_str(tag_name(trimmed));
                names.push('\n');
            }
            tags_then_blank |= tags && trimmed.is_empty();
            if chunk.text.len() + line.len() > MAX_RECORD_BYTES || n > self.line_buf.len() {
                // Over the limit: keep what fits, skip the rest of the game.
                let mut cut = MAX_RECORD_BYTES
                    .saturating_sub(chunk.text.len())
                    .min(line.len());
                while !line.is_char_boundary(cut) {
                    cut -= 1;
                }
                chunk.text.push_str(&line[..cut]);
                chunk.oversize = Some(0);
                movetext = true;
                self.line += 1;
                continue;
            }
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
