//! Variants defined by the user (issue 33): a definition read from a
//! variants.ini file ([`super::ini`]), registered as a [`Variant`] like the
//! built-in games so that every command plays it. Its rules are the ini
//! engine's ([`super::ini::gen`], checked against Fairy-Stockfish), which
//! plays on the [`Position`] itself: its board holds the pieces, each kind
//! the [`Role`] of its letter, and its [`Extra`] the rest
//! ([`super::ini::State`]).
//!
//! A definition is registered once per process and kept for its life:
//! the registry only grows, by the definitions a run reads (a file's,
//! or the one a state file carries), so that a [`Variant`] stays `Copy`.

use super::ini::board::Pos;
use super::ini::def::{Def, Part, Score};
use super::ini::gen;
use super::{Capability, Endings, Extra, Relative, Rules, Spec, Tables, Variant};
use crate::color::Color;
use crate::movegen::CellKind;
use crate::mv::Move;
use crate::piece::{Piece, Role};
use crate::position::{Castling, Effects, GameResult, Outcome, Position};
use std::sync::RwLock;

/// A registered definition: what the rest of the program reads of a
/// variant, built from it once.
pub struct Defined {
    pub def: Def,
    /// [`Def::plays_as`], found once.
    plays_as: Option<Variant>,
    spec: Spec,
    rules: DefinedRules,
}

/// The rules of one registered definition.
pub struct DefinedRules {
    id: u16,
}

static REGISTRY: RwLock<Vec<&'static Defined>> = RwLock::new(Vec::new());

/// Most definitions one run registers.
const MOST: usize = 4096;

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// Registers a loaded definition (again: the same definition gives the
/// same variant) and returns its variant. Refused when a piece's letter
/// is not a Latin letter, which no [`Role`] names.
pub fn register(def: &Def, file: &str) -> Result<Variant, String> {
    let mut registry = REGISTRY.write().unwrap_or_else(|e| e.into_inner());
    if let Some(d) = registry.iter().find(|d| d.def == *def) {
        return Ok(d.spec.variant);
    }
    if registry.len() >= MOST {
        return Err(format!("more than {MOST} variants defined in one run"));
    }
    // What loading found already; found again, so that a definition
    // made otherwise is refused here as loading refuses it.
    let mut def = def.clone();
    def.compile()?;
    let def = &def;
    let id = registry.len() as u16;
    let variant = Variant::Defined(id);
    let summary = format!(
        "defined in {file}: {} x {}, {}",
        def.files,
        def.ranks,
        def.kinds
            .iter()
            .map(|k| format!("{} {}", k.letter, k.name))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let spec = Spec {
        name: leak(def.name.clone()),
        title: leak(def.name.clone()),
        aliases: &[],
        summary: leak(summary),
        files: def.files as i16,
        ranks: def.ranks as i16,
        start: leak(def.start_fen.clone()),
        pieces: &[],
        promotion: &[],
        promotion_ranks: None,
        double_step_ranks: &[],
        en_passant: false,
        castling: false,
        board_grows: false,
        stacks: false,
        rules_text: leak(def.source.text()),
        variant,
        // Fairy-Stockfish compares a position with those since the last
        // capture or pawn move (its `rule50` counter, the position's
        // halfmove clock); where taken pieces go to hand, with all before
        // it, a capture being no longer for good.
        repetitions_since_reset: !def.captures_to_hand,
        never_repeats: false,
        looks_back: false,
        // A definition's rules are its text, which a game records.
        rules_version: 0,
        no_resigning: None,
        endings: endings(def),
    };
    let defined: &'static Defined = Box::leak(Box::new(Defined {
        def: def.clone(),
        plays_as: def.plays_as(),
        spec,
        rules: DefinedRules { id },
    }));
    registry.push(defined);
    Ok(variant)
}

/// A definition's endings by repetition, as Fairy-Stockfish plays them:
/// the `nFoldRule`th occurrence of a position ends the game at once, with
/// `nFoldValue` for the side to move (for White with
/// `nFoldValueAbsolute`). No claims: a definition's
/// repetition and its `nMoveRule` (which the position counts,
/// [`super::ini::end::outcome`]) end the game by themselves, and FIDE's
/// seventy-five moves are not among its rules.
fn endings(def: &Def) -> Endings {
    Endings {
        repetition: def.n_fold_rule,
        repetition_result: match def.n_fold_value {
            Score::Win => Relative::Win,
            Score::Loss => Relative::Loss,
            Score::Draw | Score::None => Relative::Draw,
        },
        repetition_absolute: def.n_fold_value_absolute,
        perpetual_check: def.perpetual_check,
        seventy_five_moves: false,
        claims: false,
        rule: "nFoldRule",
    }
}

/// Registers the variant `name` of a definition's text, as a state file
/// carries it ([`Defined::def`]'s `source`).
pub fn from_text(text: &str, name: &str) -> Result<Variant, String> {
    let loaded = super::ini::load(text, "the definition");
    if let Some(r) = loaded.refusal(name) {
        return Err(r.to_string());
    }
    let def = loaded
        .defs
        .iter()
        .find(|d| d.name == name)
        .ok_or_else(|| format!("it does not define the variant {name:?}"))?;
    register(def, "the game file")
}

/// The registered definition of a variant's id.
pub fn get(id: u16) -> &'static Defined {
    REGISTRY.read().unwrap_or_else(|e| e.into_inner())[id as usize]
}

/// The variant registered last under this name, ignoring case.
pub fn find(name: &str) -> Option<Variant> {
    REGISTRY
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .rev()
        .find(|d| d.def.name.eq_ignore_ascii_case(name))
        .map(|d| d.spec.variant)
}

impl Defined {
    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// The movement tables of its pieces where the shared king-safety
    /// filter judges its moves with them
    /// ([`Shared::safety`](super::ini::tables::Shared::safety)); else
    /// none, so that the shared attack test finds no attacker (the ini
    /// engine judges such a variant itself).
    pub fn tables(&self) -> &Tables {
        static NONE: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
        self.def
            .shared
            .safety_tables()
            .unwrap_or_else(|| NONE.get_or_init(|| Tables::of([]).expect("no pieces")))
    }

    pub fn rules(&self) -> &DefinedRules {
        &self.rules
    }

    /// The kind of a role in this variant, if it has one.
    pub fn kind(&self, role: Role) -> Option<usize> {
        self.def.kind_of_role(role)
    }

    /// What this variant calls the piece of a role, with its letter and
    /// its movement in Betza's notation: `archbishop (A): BN`.
    pub fn piece_name(&self, role: Role) -> Option<String> {
        let k = &self.def.kinds[self.kind(role)?];
        Some(match k.part {
            Part::Pawn | Part::King => format!("{} ({})", k.name, k.letter),
            Part::Plain => format!("{} ({}): {}", k.name, k.letter, k.betza_text),
        })
    }

    /// The pieces `color` holds in hand to drop, by kind with how many,
    /// in the order a position text writes them; `None` where the variant
    /// has no hands.
    pub fn hand(&self, pos: &Position, color: Color) -> Option<Vec<(Role, u8)>> {
        let d = self;
        if !d.def.piece_drops {
            return None;
        }
        let p = engine(pos)?;
        let mut kinds: Vec<usize> = (0..d.def.kinds.len()).collect();
        kinds.sort_by_key(|&k| std::cmp::Reverse(d.def.kinds[k].order));
        let side = &p.state().hands[usize::from(color == Color::Black)];
        Some(
            kinds
                .into_iter()
                .filter_map(|k| side.get(k).filter(|&&n| n > 0).map(|&n| (d.def.role(k), n)))
                .collect(),
        )
    }

    /// The engine's position as a position of this variant.
    pub fn position(&self, mut pos: Pos) -> Position {
        pos.variant = self.spec.variant;
        pos
    }
}

/// Perft of a defined variant's position: by the built-in game's own
/// perft where the definition plays its moves ([`Def::plays_as`]) and the
/// position is one of that game ([`as_built_in`]), else by its engine.
fn engine_perft(pos: &Position, depth: u32) -> u64 {
    let (Some(d), Some(p)) = (pos.variant.defined(), engine(pos)) else {
        return 0;
    };
    match as_built_in(d, p) {
        Some(game) => crate::perft::perft(&game, depth),
        None => gen::perft(&d.def, p, depth),
    }
}

/// The position of the built-in game that a position of a definition
/// playing its moves is: its castling rights those of the king on the
/// e-file with the rook in the corner, at most one en passant square, no
/// pawn on the first or last rank.
/// `None` for another definition or such a position.
fn as_built_in(d: &Defined, pos: &Pos) -> Option<Position> {
    let variant = d.plays_as?;
    let state = pos.state();
    let mut castling = Castling::NONE;
    for (c, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let rank = if c == 0 { 0 } else { state.ranks - 1 };
        for (side, rook_file) in [state.files - 1, 0].into_iter().enumerate() {
            if let Some(right) = state.castling[c][side] {
                if Some(right.king) != pos.sq(4, rank)
                    || Some(right.rook) != pos.sq(rook_file, rank)
                {
                    return None;
                }
                castling.set(color, side == 0, true);
            }
        }
    }
    let ep = match state.ep.as_slice() {
        [] => None,
        [e] => Some(pos.square_of(*e)),
        _ => return None,
    };
    // A pawn on the first or last rank, which the built-in game never has.
    let edge_pawn = [0, state.ranks - 1].into_iter().any(|rank| {
        (0..state.files).any(|file| {
            pos.sq(file, rank)
                .and_then(|sq| pos.piece_at(sq))
                .is_some_and(|p| p.role == Role::Pawn)
        })
    });
    if edge_pawn {
        return None;
    }
    Some(Position {
        variant,
        board: pos.board.clone(),
        turn: pos.turn,
        castling,
        ep,
        halfmove: pos.halfmove,
        fullmove: pos.fullmove,
        extra: Extra::default(),
    })
}

impl DefinedRules {
    fn defined(&self) -> &'static Defined {
        get(self.id)
    }
}

/// The engine's position a position of a defined variant carries.
fn engine(pos: &Position) -> Option<&Pos> {
    matches!(pos.extra, Extra::Defined(_)).then_some(pos)
}

/// The rule behind an end of the engine's, named by the key that sets it.
fn rule_of(why: &str) -> &'static str {
    match why {
        "checkmate" => "checkmateValue",
        "checkmate by a pawn drop" => "shogiPawnDropMateIllegal",
        "stalemate" => "stalemateValue",
        "extinction" => "extinctionValue",
        "flag" => "flagPiece",
        "connection" => "connectN",
        "castling" => "castlingWins",
        _ => "nMoveRule",
    }
}

impl Rules for DefinedRules {
    fn spec(&self) -> &'static Spec {
        &self.defined().spec
    }

    /// The engine read the position text and checked it.
    fn validate(&self, pos: &Position) -> Result<(), String> {
        match engine(pos) {
            Some(_) => Ok(()),
            None => Err("not a position of this variant".into()),
        }
    }

    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        let d = self.defined();
        let Some(p) = engine(pos) else {
            return Vec::new();
        };
        gen::legal_moves(&d.def, p)
            .iter()
            .map(|m| Move::Piece(p.piece_move(m)))
            .collect()
    }

    fn apply(&self, pos: &mut Position, mv: &Move) -> Effects {
        let d = self.defined();
        let Some(p) = engine(pos) else {
            return Effects::default();
        };
        // A legal move, as the trait promises: played as it is, not
        // looked for among all the legal moves again.
        let Some(m) = mv.piece().and_then(|pm| p.cell_move(pm)) else {
            return Effects::default();
        };
        let mut effects = Effects::default();
        let taken = match m.kind {
            CellKind::EnPassant { captured } => Some(captured),
            CellKind::Castle { .. } | CellKind::Drop => None,
            CellKind::Normal | CellKind::DoubleStep => Some(m.to),
        };
        if let Some(at) = taken {
            if let Some(piece) = p.board.cell(at as usize).piece() {
                effects.captured.push((p.board.square(at as usize), piece));
            }
        }
        if let Some(role) = m.promotion {
            let piece = Piece::new(p.turn, role);
            effects
                .promoted
                .push((p.board.square(m.to as usize), piece));
        }
        let next = gen::play(&d.def, p, &m);
        *pos = d.position(next);
        effects
    }

    fn in_check(&self, pos: &Position) -> bool {
        engine(pos).is_some_and(|p| gen::in_check(&self.defined().def, p))
    }

    /// Perft is counted by the engine on its own positions, as
    /// `postal perft --uci` counts it (the general count finds each move
    /// played among all the legal ones again).
    fn capability(&self) -> Capability {
        Capability {
            perft: Some(engine_perft),
            ..Capability::default()
        }
    }

    fn outcome(&self, pos: &Position, _known_move: bool) -> Option<Outcome> {
        let end = super::ini::end::outcome(&self.defined().def, engine(pos)?)?;
        let result = match end.white {
            1.. => GameResult::WhiteWins,
            0 => GameResult::Draw,
            _ => GameResult::BlackWins,
        };
        Some(Outcome::new(result, end.why, rule_of(end.why)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::ini::load;
    use crate::variant::testing::Rng;

    fn compiled(text: &str) -> Def {
        let loaded = load(text, "t.ini");
        assert!(loaded.refused.is_empty(), "{:?}", loaded.refused);
        let mut d = loaded.defs.last().expect("a section").clone();
        d.compile().expect("compiles");
        d
    }

    /// A definition plays chess's moves unless a key that moves depend on
    /// differs from Fairy-Stockfish's `chess`; the endings may differ.
    /// Gardner's likewise.
    #[test]
    fn only_a_definition_with_chess_moves_plays_chess() {
        let gardner = compiled("[g:gardner]\nstalemateValue = win\n");
        assert_eq!(gardner.plays_as(), Some(Variant::Gardner));
        let other = compiled("[g:gardner]\npromotionPieceTypes = q\n");
        assert_eq!(other.plays_as(), None);
        for same in [
            "",
            "stalemateValue = loss",
            "nMoveRule = 0",
            "nFoldRule = 5",
        ] {
            let d = compiled(&format!("[a:chess]\n{same}\n"));
            assert_eq!(d.plays_as(), Some(Variant::Chess), "{same:?}");
        }
        for other in [
            "mustCapture = true",
            "promotionPieceTypes = qrb",
            "castling = false",
            "doubleStep = false",
            "checking = false",
            "extinctionValue = loss",
            "flagPiece = k\nflagRegionWhite = *8",
            "mandatoryPawnPromotion = false",
            "customPiece1 = a:NB",
            "knight = h\nstartFen = rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1",
            "pieceDrops = true",
        ] {
            let d = compiled(&format!("[a:chess]\n{other}\n"));
            assert_eq!(d.plays_as(), None, "{other:?}");
        }
    }

    /// Chess's and Gardner's own perft, counting a definition that plays
    /// their moves, agrees with the engine's general count
    /// ([`gen::perft`]) on the positions of random games of every such
    /// definition of the agreement file.
    #[test]
    fn a_definition_playing_chess_is_counted_as_chess_counts() {
        let mut games = std::collections::BTreeSet::new();
        let text = include_str!("../../tests/pyffish/variants.ini");
        let mut counted = 0;
        for def in load(text, "variants.ini").defs.iter() {
            let variant = register(def, "variants.ini").expect("registers");
            let d = variant.defined().expect("defined");
            let Some(game) = d.plays_as else {
                continue;
            };
            games.insert(game.name());
            let mut rng = Rng(0x2545_f491_4f6c_dd1d ^ def.name.len() as u64);
            for _game in 0..4 {
                let mut pos = d.def.start();
                for ply in 0..80 {
                    let moves = gen::legal_moves(&d.def, &pos);
                    if moves.is_empty() {
                        break;
                    }
                    if ply % 4 == 0 && as_built_in(d, &pos).is_some() {
                        let depth = if ply % 16 == 0 { 3 } else { 2 };
                        let general = gen::perft(&d.def, &pos, depth);
                        let chess = crate::perft::perft(&d.position(pos.clone()), depth);
                        assert_eq!(chess, general, "{}: {}", d.def.name, pos.to_fen(&d.def));
                        counted += 1;
                    }
                    pos = gen::play(&d.def, &pos, &moves[rng.below(moves.len())]);
                }
            }
        }
        assert!(counted > 300, "{counted}");
        assert_eq!(games.len(), 2, "{games:?}");
    }
}
