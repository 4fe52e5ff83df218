//! The published-text reader: a score inside prose, as on the rule pages.
//!
//! - A score starts at a move number (`4.`, `4...`) followed by something
//!   that looks like a move and not by prose on the same line (`2. P1 can
//!   continue` is a numbered rule), and runs until a word of prose.
//! - Inside a score, words are moves as written (in any notation the
//!   variants accept); words that only look like a move attempt
//!   (`Bxq5`, `e9`) are passed on too, so the builder reports them as
//!   unparsable. Bare numbers (the Swap page's `1. 1 Qb6/...`) are stray
//!   tokens: a warning, skipped.
//! - Parenthesised text is commentary, never moves; `{}` comments too.
//! - ASCII diagrams come from the lexer as whole blocks.
//! - A move number that goes back to 1 after moves starts a new game, and
//!   so does a tag pair after moves (`[SetUp "1"]`).
//! - "White to move" / "Black to move" says who moves after a diagram.
//!
//! Like the PGN reader it never judges a move.

use super::lexer::{is_en_passant_mark, is_number, Lexer, Mode, Token, TokenKind};
use super::{Event, Issue, IssueKind};
use crate::color::Color;
use crate::notation::san;

/// What a word of published text is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WordClass {
    /// Reads as a move in some notation.
    Move,
    /// Does not read as a move but looks like an attempt at one: a piece
    /// or file letter first, a digit, only move characters.
    Attempt,
    Prose,
}

pub fn classify(word: &str) -> WordClass {
    if san::parse_text(word).is_ok() {
        return WordClass::Move;
    }
    if word == "Z0" {
        return WordClass::Attempt;
    }
    // A move with a second part glued on by the lexer (`e2-e4; e7-e5`,
    // `Nc3 @z9`) that does not read: an attempt when its first part is.
    if let Some((head, _)) = word.split_once([';', ' ', '\t']) {
        return match classify(head) {
            WordClass::Prose => WordClass::Prose,
            _ => WordClass::Attempt,
        };
    }
    let first = word.chars().next().unwrap_or(' ');
    let starts = "KQRBNPFWO0".contains(first) || first.is_ascii_lowercase();
    let has_digit = word.bytes().any(|b| b.is_ascii_digit());
    let alphabet = word
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-x:/=+#!?@;".contains(c));
    let mut run = 0;
    let mut prose_run = false;
    for c in word.chars() {
        run = if c.is_ascii_lowercase() { run + 1 } else { 0 };
        prose_run |= run >= 3;
    }
    if starts && has_digit && alphabet && !prose_run {
        WordClass::Attempt
    } else {
        WordClass::Prose
    }
}

/// `2025-03-01T09:00:00Z`: the time of a move, as `postal history`
/// prints it; skipped inside a score.
fn is_timestamp(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
}

fn is_move_like(tok: &Token) -> bool {
    matches!(tok.kind, TokenKind::Word(w) if !is_number(w) && classify(w) != WordClass::Prose)
}

fn side_to_move(toks: &[Token], i: usize) -> Option<Color> {
    let word = |k: usize| match toks.get(k).map(|t| &t.kind) {
        Some(TokenKind::Word(w)) => Some(w.trim_end_matches(['.', ',', ':', ';', '!'])),
        _ => None,
    };
    let color = match word(i)?.to_ascii_lowercase().as_str() {
        "white" => Color::White,
        "black" => Color::Black,
        _ => return None,
    };
    (word(i + 1)?.eq_ignore_ascii_case("to") && word(i + 2)?.eq_ignore_ascii_case("move"))
        .then_some(color)
}

fn open_game<'a>(open: &mut bool, span: crate::error::Span, sink: &mut dyn FnMut(Event<'a>)) {
    if !*open {
        sink(Event::BeginGame { span });
        *open = true;
    }
}

/// Emits the events of the games in a published text.
pub fn read<'a>(text: &'a str, sink: &mut dyn FnMut(Event<'a>)) {
    let toks: Vec<Token<'a>> = Lexer::new(text, Mode::Published).collect();
    let mut open = false;
    let mut has_moves = false;
    let mut in_score = false;
    let mut i = 0;
    while i < toks.len() {
        let span = toks[i].span;
        match &toks[i].kind {
            TokenKind::Tag {
                name,
                value,
                value_span,
            } => {
                // Tags head a game: one after moves begins the next (as
                // `convert --to text` heads a game from a set-up
                // position, whose numbers need not go back to 1).
                if has_moves {
                    sink(Event::EndGame { next_follows: true });
                    open = false;
                    has_moves = false;
                }
                open_game(&mut open, span, sink);
                sink(Event::Tag {
                    name,
                    value: value.clone(),
                    value_span: *value_span,
                });
            }
            TokenKind::Diagram(d) => {
                open_game(&mut open, span, sink);
                sink(Event::Diagram {
                    diagram: d.clone(),
                    span,
                });
            }
            &TokenKind::MoveNumber { number, black } => {
                // A move number counts only when a move follows it (after
                // `...`, stray numbers or commentary); `1998.` in prose
                // does not.
                let mut j = i + 1;
                let mut black = black;
                while let Some(t) = toks.get(j) {
                    match &t.kind {
                        TokenKind::Ellipsis => black = true,
                        TokenKind::Word(w) if is_number(w) => {}
                        TokenKind::Commentary(_) | TokenKind::Comment(_) => {}
                        _ => break,
                    }
                    j += 1;
                }
                // `2. P1 can continue ...` is a numbered list, not a
                // score: the would-be move runs on into prose.
                let runs_into_prose = toks.get(j + 1).is_some_and(|next| {
                    matches!(next.kind, TokenKind::Word(w) if w.chars().any(char::is_alphabetic)
                        && !is_en_passant_mark(w)
                        && !is_timestamp(w)
                        && classify(w) == WordClass::Prose)
                        && !text[toks[j].span.end..next.span.start].contains('\n')
                });
                if !toks.get(j).is_some_and(is_move_like) || runs_into_prose {
                    in_score = false;
                    i += 1;
                    continue;
                }
                if number == 1 && !black && has_moves {
                    sink(Event::EndGame { next_follows: true });
                    open = false;
                    has_moves = false;
                }
                open_game(&mut open, span, sink);
                sink(Event::MoveNumber {
                    number,
                    black,
                    span,
                });
                in_score = true;
            }
            TokenKind::Word(w) if in_score && (is_en_passant_mark(w) || is_timestamp(w)) => {}
            TokenKind::Word(w) => {
                if in_score && is_number(w) {
                    sink(Event::Issue(
                        Issue::warning(
                            IssueKind::StrayToken,
                            span,
                            format!("stray token `{w}` skipped"),
                        )
                        .expected("a move")
                        .found(*w),
                    ));
                } else if in_score && classify(w) != WordClass::Prose {
                    sink(Event::Move { text: w, span });
                    has_moves = true;
                } else {
                    in_score = false;
                    if let Some(color) = side_to_move(&toks, i) {
                        open_game(&mut open, span, sink);
                        sink(Event::SideToMove { color, span });
                    }
                }
            }
            TokenKind::Result(r) => {
                if has_moves {
                    sink(Event::Result { text: r, span });
                }
                in_score = false;
            }
            TokenKind::Comment(c) | TokenKind::Commentary(c) if open => {
                sink(Event::Comment { text: c, span });
            }
            &TokenKind::Nag(nag) if in_score => {
                sink(Event::Nag { nag, span });
            }
            _ => {}
        }
        i += 1;
    }
    if open {
        sink(Event::EndGame {
            next_follows: false,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        assert_eq!(classify("Qd1/g4/g7/h8"), WordClass::Move);
        assert_eq!(classify("Nd5:c7+"), WordClass::Move);
        assert_eq!(classify("Rc7:c8++"), WordClass::Move);
        // Squares off the board read as moves; the builder says why not.
        assert_eq!(classify("Bxq5"), WordClass::Move);
        assert_eq!(classify("Nf0"), WordClass::Attempt);
        assert_eq!(classify("e0"), WordClass::Attempt);
        assert_eq!(classify("1st"), WordClass::Prose);
        assert_eq!(classify("Last"), WordClass::Prose);
        assert_eq!(classify("03,"), WordClass::Prose);
        assert_eq!(classify("abc1"), WordClass::Prose);
    }

    fn events(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        read(text, &mut |e| {
            out.push(match e {
                Event::BeginGame { .. } => "begin".to_string(),
                Event::MoveNumber { number, black, .. } => {
                    format!("n{number}{}", if black { "..." } else { "." })
                }
                Event::Move { text, .. } => format!("m {text}"),
                Event::Diagram { .. } => "diagram".into(),
                Event::Comment { .. } => "c".into(),
                Event::Result { text, .. } => format!("r {text}"),
                Event::SideToMove { color, .. } => format!("{color} to move"),
                Event::Issue(i) => format!("issue {}", i.kind.as_str()),
                Event::EndGame { next_follows } => format!("end {next_follows}"),
                other => format!("{other:?}"),
            })
        });
        out
    }

    #[test]
    fn prose_scores_and_restarts() {
        let text = "Intro 12. words here.\n\n . . k  2\n K . .  1\n\n a b c\nBlack to move\n\n\
                    1. 1 Kb2 (if 1. Kb1 then) and so on\n\nA game\n 1. e2-e4 e7-e5\n 2. Bxq5\n\n1-0 Created 1998. Last";
        assert_eq!(
            events(text),
            vec![
                "begin",
                "diagram",
                "Black to move",
                "n1.",
                "issue stray-token",
                "m Kb2",
                "c",
                "end true",
                "begin",
                "n1.",
                "m e2-e4",
                "m e7-e5",
                "n2.",
                "m Bxq5",
                "r 1-0",
                "end false"
            ]
        );
    }
}
