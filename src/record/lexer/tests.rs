use super::*;

fn kinds(text: &str, mode: Mode) -> Vec<TokenKind<'_>> {
    Lexer::new(text, mode).map(|t| t.kind).collect()
}

#[test]
fn pgn_tokens() {
    let k = kinds(
        "[Event \"A \\\"b\\\"\"]\n% escape\n1.e4 {c} e5 $1 (1... c5 ; x\n) 2. Nf3 1-0",
        Mode::Pgn,
    );
    assert_eq!(
        k[0],
        TokenKind::Tag {
            name: "Event",
            value: Cow::Owned("A \"b\"".into()),
            value_span: Span::new(8, 15)
        }
    );
    assert_eq!(k[1], TokenKind::Escape(" escape"));
    assert_eq!(
        k[2],
        TokenKind::MoveNumber {
            number: 1,
            black: false
        }
    );
    assert_eq!(k[3], TokenKind::Word("e4"));
    assert_eq!(k[4], TokenKind::Comment("c"));
    assert_eq!(k[6], TokenKind::Nag(1));
    assert_eq!(k[7], TokenKind::Open);
    assert_eq!(
        k[8],
        TokenKind::MoveNumber {
            number: 1,
            black: true
        }
    );
    assert_eq!(k[10], TokenKind::LineComment(" x"));
    assert_eq!(k[11], TokenKind::Close);
    assert_eq!(k.last(), Some(&TokenKind::Result("1-0")));
}

#[test]
fn second_parts_join_their_move_with_the_same_spans_in_both_modes() {
    let text = "1. Nc3 @f3 Ra5-(0,5)@d6 2. b1-c3; @(0,3) (1. e4 ; x\n)";
    let words = |mode| -> Vec<(TokenKind, Span)> {
        Lexer::new(text, mode)
            .filter(|t| matches!(t.kind, TokenKind::Word(_)))
            .map(|t| (t.kind, t.span))
            .collect()
    };
    let pgn = words(Mode::Pgn);
    assert_eq!(pgn[0], (TokenKind::Word("Nc3 @f3"), Span::new(3, 10)));
    assert_eq!(pgn[1], (TokenKind::Word("Ra5-(0,5)@d6"), Span::new(11, 23)));
    assert_eq!(
        pgn[2],
        (TokenKind::Word("b1-c3; @(0,3)"), Span::new(27, 40))
    );
    // `;` then a word that is no placement: a PGN comment.
    assert_eq!(pgn[3].0, TokenKind::Word("e4"));
    assert_eq!(pgn.len(), 4);
    assert_eq!(words(Mode::Published)[..3], pgn[..3]);
    assert!(Lexer::new(text, Mode::Pgn).any(|t| t.kind == TokenKind::LineComment(" x")));
}

#[test]
fn byte_order_mark_is_a_blank() {
    let k = kinds("\u{feff}[Event \"x\"]\r\n1. e4\r\n", Mode::Pgn);
    assert!(
        matches!(k[0], TokenKind::Tag { name: "Event", .. }),
        "{k:?}"
    );
    assert_eq!(k[2], TokenKind::Word("e4"));
}

#[test]
fn published_commentary_and_words() {
    let k = kinds(
        "4. Qd1/g4 (the 1st swap, Qh8) 4... Qd8-h4 (open\n\nx)",
        Mode::Published,
    );
    assert_eq!(k[1], TokenKind::Word("Qd1/g4"));
    assert_eq!(k[2], TokenKind::Commentary("the 1st swap, Qh8"));
    assert_eq!(
        k[3],
        TokenKind::MoveNumber {
            number: 4,
            black: true
        }
    );
    assert_eq!(k[5], TokenKind::Word("(open"));
}

#[test]
fn diagrams_with_holes_and_labels() {
    let text = "intro\n . . . r k . . .  8\n . Q . . . . . .  7\n\n a b c d e f g h\nafter";
    let toks: Vec<Token> = Lexer::new(text, Mode::Published).collect();
    let TokenKind::Diagram(d) = &toks[1].kind else {
        panic!("{toks:?}")
    };
    assert_eq!(d.ranks.len(), 2);
    assert_eq!(d.ranks[0].label, Some(8));
    assert_eq!(d.ranks[1].cells[1].text, "Q");
    assert_eq!(d.files.len(), 8);
    assert_eq!(toks[2].kind, TokenKind::Word("after"));
    let holes = "     .   .  2\n .   .   .  1\n\n (0) a   b\n";
    let (d, _) = diagram_block(holes, 0).unwrap();
    assert_eq!(d.files[0].file, 0);
    assert_eq!(d.ranks[0].cells[0].column, 5);
    assert_eq!(d.files[1].column, 5);
    // Prose is not a diagram.
    assert!(diagram_block("I have\nNo idea\na b\n", 0).is_none());
}

#[test]
fn diagrams_with_labels_off_the_grid() {
    // As render::ascii writes a grown Building board: (0,_) over the
    // column of file 0, (_,0) beside the row of rank 0.
    let grown = "       .     .  2\n .     .     .  1\n       .  (_,0)\n\n (0,_) a     b\n";
    let (d, _) = diagram_block(grown, 0).unwrap();
    assert_eq!(d.files[0].file, 0);
    assert_eq!(d.files[1].file, 1);
    assert_eq!(d.ranks[2].label, Some(0));
    assert_eq!(d.ranks[0].label, Some(2));
}
