use super::*;
use crate::variant::Variant;

fn piece(text: &str) -> PieceText {
    match parse_text(text).unwrap().text {
        MoveText::Piece(p) => p,
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn syntax_of_every_form() {
    let p = piece("Nf3");
    assert_eq!(
        (p.roles.clone(), p.to),
        (vec![Role::Knight], Square::new(6, 3))
    );
    let p = piece("Ng1-f3");
    assert_eq!(p.from_square(), Some(Square::new(7, 1)));
    let p = piece("exd5");
    assert_eq!((p.from_file, p.capture), (Some(5), true));
    let p = piece("Nxd5");
    assert_eq!((p.from_file, p.from_rank, p.capture), (None, None, true));
    let p = piece("Nd5:c7");
    assert!(p.capture);
    let p = piece("h:g7");
    assert_eq!((p.from_file, p.to), (Some(8), Square::new(7, 7)));
    let p = piece("Rxd1");
    assert_eq!(
        (p.from_file, p.capture, p.to),
        (None, true, Square::new(4, 1))
    );
    let p = piece("R:c7");
    assert_eq!((p.mover(), p.capture), (Role::Rook, true));
    let p = piece("e8=Q");
    assert_eq!(p.promotions, vec![Role::Queen]);
    let p = piece("Nbd2");
    assert_eq!(p.from_file, Some(2));
    let p = piece("R1a3");
    assert_eq!(p.from_rank, Some(1));
    let p = piece("QKc2-c4");
    assert_eq!(
        (p.mover(), p.carried()),
        (Role::Queen, Roles::one(Role::King))
    );
    let p = piece("Kc5-prison");
    assert_eq!(p.to, Square::PRISON);
    let p = piece("PPa8-a9=Q=N");
    assert_eq!(p.promotions, vec![Role::Queen, Role::Knight]);
    let p = piece("Nb1-c3 @f3");
    assert_eq!(p.place, Some(Square::new(6, 3)));
    let p = piece("e2-e3@(0,3)");
    assert_eq!(p.place, Some(Square::new(0, 3)));
    let p = piece("Wd4xd5");
    assert_eq!(p.mover(), Role::Barrier);
    let p = piece("a10");
    assert_eq!(p.to, Square::new(1, 10));
    assert_eq!(
        parse_text("O-O-O").unwrap().text,
        MoveText::Castle { long: true }
    );
    assert_eq!(
        parse_text("0-0").unwrap().text,
        MoveText::Castle { long: false }
    );
    let m = parse_text("Qb6/b1/d3=N/c4/f7++").unwrap();
    assert_eq!(m.check, Some(CheckMark::Mate));
    match m.text {
        MoveText::Swap(s) => {
            assert_eq!(s.role, Some(Role::Queen));
            assert_eq!(s.squares.len(), 5);
            assert_eq!(s.squares[2].promotion, Some(Role::Knight));
        }
        other => panic!("{other:?}"),
    }
    let m = parse_text("e4/d5").unwrap();
    assert!(matches!(
        m.text,
        MoveText::Swap(SwapText { role: None, .. })
    ));
    let m = parse_text("Bf1-c4?").unwrap();
    assert_eq!(m.glyph, Some("?"));
    let m = parse_text("Bb5/d3??").unwrap();
    assert_eq!(m.glyph, Some("??"));
    let m = parse_text("Nb1-c3 @f3+!?").unwrap();
    assert_eq!((m.check, m.glyph), (Some(CheckMark::Check), Some("!?")));
}

#[test]
fn capture_mark_before_the_square() {
    let p = piece("Nxe5");
    assert_eq!((p.from_file, p.capture), (None, true));
    let p = piece("Qxg8");
    assert_eq!((p.mover(), p.to), (Role::Queen, Square::new(7, 8)));
    let p = piece("exd5");
    assert_eq!((p.from_file, p.capture), (Some(5), true));
}

#[test]
fn syntax_errors_have_spans() {
    let e = parse_text("Nf3zz").unwrap_err();
    assert_eq!(e.span, Span::new(3, 5));
    let e = parse_text("  hello").unwrap_err();
    assert_eq!(e.span.start, 2);
    assert!(parse_text("").is_err());
    assert!(parse_text("%e4").is_err());
    // Any letter names a piece: a defined variant's (issue 33).
    assert!(parse_text("Xe4").is_ok());
}

#[test]
fn resolution_errors_say_why() {
    let p = Position::start(Variant::Chess);
    assert!(matches!(
        p.parse_move("Nd4"),
        Err(MoveError::Illegal { .. })
    ));
    let e = p.parse_move("Ke2").unwrap_err().to_string();
    assert!(e.contains("no white king"), "{e}");
    let p = Position::from_text(Variant::Chess, "4k3/8/8/8/8/8/4K3/R6R w - - 0 1").unwrap();
    assert!(matches!(
        p.parse_move("Rd1"),
        Err(MoveError::Ambiguous { .. })
    ));
    assert_eq!(p.move_text(&p.parse_move("Ra1-d1").unwrap()), "Rad1");
    let p = Position::from_text(Variant::Chess, "4k3/8/8/N7/8/8/8/N3K3 w - - 0 1").unwrap();
    assert!(matches!(
        p.parse_move("Nb3"),
        Err(MoveError::Ambiguous { .. })
    ));
    assert_eq!(p.move_text(&p.parse_move("N1b3").unwrap()), "N1b3");
    let p = Position::from_text(Variant::Chess, "4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1").unwrap();
    assert_eq!(p.move_text(&p.parse_move("Nxd5").unwrap()), "Nxd5");
    assert_eq!(
        p.parse_move("N:d5").unwrap(),
        p.parse_move("Nc3xd5").unwrap()
    );
    let p = Position::from_text(Variant::Chess, "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").unwrap();
    let e = p.parse_move("Kd2").unwrap_err().to_string();
    assert!(e.contains("attacked"), "{e}");
    let p = Position::from_text(Variant::Chess, "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert!(matches!(
        p.parse_move("a8"),
        Err(MoveError::Ambiguous { .. })
    ));
    assert_eq!(p.move_text(&p.parse_move("axb8=N").unwrap()), "axb8=N");
}
