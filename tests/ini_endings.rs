//! How games of defined variants end, against Fairy-Stockfish (issue 42):
//! pyffish plays games of every section of Fairy-Stockfish's own
//! variants.ini that postal loads (and of tests/pyffish/variants.ini) to
//! their end (tests/pyffish/playout.py: random, repeating and quiet
//! play, up to 200 plies: past FIDE's 150), and postal's game layer, playing the same
//! moves, must end each at the same ply with the same result: n-fold
//! repetition with its value, the n-move rule (none where it is 0),
//! checkmate and stalemate values, extinction and flag; and never by
//! FIDE's fivefold repetition or seventy-five moves, which are not a
//! definition's rules.

use chrono::{TimeZone, Utc};
use postal::game::Game;
use postal::position::{GameResult, Position};
use postal::variant::ini::def::Score;
use postal::variant::ini::{self, gen, Def};
use postal::variant::{defined, Extra};
use serde_json::Value;
use std::path::Path;

const PLIES: u32 = 200;
const STYLES: [&str; 3] = ["random", "shuffle", "quiet"];

fn playout(ini: &Path, jobs: &Value) -> Vec<Value> {
    crate::common::pyffish("playout.py", ini, jobs)
}

/// How the `i`th game is played: quiet where the n-move rule is off or
/// short, repeating where a repetition does not draw, else in turn.
fn style(i: usize, def: &Def) -> &'static str {
    if def.n_move_rule == 0 || def.n_move_rule < 20 {
        "quiet"
    } else if def.n_fold_value != Score::Draw {
        "shuffle"
    } else {
        STYLES[i % STYLES.len()]
    }
}

/// The result pyffish's value means, `stm` to move at the end.
fn result_of(value: i64, stm: postal::color::Color) -> GameResult {
    match value.signum() {
        0 => GameResult::Draw,
        1 => GameResult::win_for(stm),
        _ => GameResult::win_for(!stm),
    }
}

/// Plays one of pyffish's games in postal's game layer; what differs.
fn replay(def: &Def, file: &str, game: &Value, what: &str) -> Option<String> {
    let variant = defined::register(def, file).unwrap();
    let now = Utc.with_ymd_and_hms(2026, 12, 4, 12, 0, 0).unwrap();
    let mut g = Game::new(Position::start(variant), Default::default(), None, now)
        .map_err(|e| format!("{what}: no game: {e}"))
        .ok()?;
    let moves = game["moves"].as_array().unwrap();
    for (ply, uci) in moves.iter().enumerate() {
        let uci = uci.as_str().unwrap();
        let pos = g.current().clone();
        let Extra::Defined(_) = &pos.extra else {
            return Some(format!("{what}: not a defined position"));
        };
        let engine = &pos;
        let Some(i) = gen::legal_moves(def, engine)
            .iter()
            .position(|m| engine.uci(def, m) == uci)
        else {
            return Some(format!("{what}: ply {ply}: {uci} is not legal in postal"));
        };
        let mv = variant.rules().legal_moves(&pos)[i].clone();
        let text = pos.move_text(&mv);
        if let Some(ended) = g.result() {
            return Some(format!(
                "{what}: postal ended the game before ply {ply} ({}: {}); Fairy-Stockfish played on",
                ended.result, ended.reason
            ));
        }
        if let Err(e) = g.play(&text, None, now) {
            return Some(format!("{what}: ply {ply} {text}: {e}"));
        }
    }
    let theirs = game["end"]
        .as_str()
        .map(|_| result_of(game["value"].as_i64().unwrap(), g.turn()).as_str());
    let ours = g.result().map(|e| e.result.as_str());
    (ours != theirs).then(|| {
        format!(
            "{what}: after {} plies Fairy-Stockfish says {:?} ({}), postal {:?} ({})",
            moves.len(),
            theirs,
            game["end"],
            ours,
            g.result().map_or("", |e| e.reason.as_str())
        )
    })
}

/// Plays a game of each of `defs` (pyffish reading `path`, the
/// built-in parents by their own names); the number of games and the
/// differences.
fn endings_agree(path: &Path, defs: &[Def], seed: usize) -> (usize, Vec<String>) {
    let file = path.display().to_string();
    let jobs: Vec<Value> = defs
        .iter()
        .enumerate()
        .map(|(i, d)| {
            serde_json::json!({
                "variant": d.name,
                "seed": seed + i,
                "plies": PLIES,
                "style": style(i, d),
                "immediate": d.extinction != Score::None || d.flag_region != [0, 0] || d.connect_n > 0,
            })
        })
        .collect();
    let games = playout(path, &Value::Array(jobs));
    let mut bad = Vec::new();
    let mut ends = std::collections::BTreeMap::<String, usize>::new();
    for (i, (def, game)) in defs.iter().zip(&games).enumerate() {
        let style = style(i, def);
        *ends.entry(game["end"].to_string()).or_default() += 1;
        if let Some(d) = replay(def, &file, game, &format!("{} ({style})", def.name)) {
            bad.push(d);
        }
    }
    eprintln!("{file}: {} games; ends {ends:?}", games.len());
    (games.len(), bad)
}

fn loaded(path: &Path) -> Vec<Def> {
    let text = std::fs::read_to_string(path).unwrap();
    ini::load(&text, &path.display().to_string()).defs
}

/// The definitions of tests/pyffish/variants.ini, the built-in parents
/// and the sections of Fairy-Stockfish's own file that postal loads:
/// more than 60 variants, a game each.
#[test]
fn games_end_as_fairy_stockfish_ends_them() {
    let fixture = Path::new("tests/pyffish/variants.ini");
    let (n, mut bad) = endings_agree(fixture, &loaded(fixture), 4200);
    let (m, more) = endings_agree(fixture, ini::builtin::parents(), 4300);
    bad.extend(more);
    let own = crate::common::fairy_stockfish_ini();
    let (k, more) = endings_agree(&own, &loaded(&own), 4400);
    bad.extend(more);
    assert!(n + m + k >= 60, "{} games", n + m + k);
    assert!(
        bad.is_empty(),
        "{} of {} games differ:\n{}",
        bad.len(),
        n + m + k,
        bad.join("\n")
    );
}

/// Plays a fixed line in each section of `text` (in order) in pyffish and
/// in postal's game layer; each must end at the same ply with the same
/// result. pyffish's games, for their ends and values.
fn lines_end_alike(text: &str, lines: &[Vec<&str>]) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lines.ini");
    std::fs::write(&path, text).unwrap();
    let defs = ini::load(text, "lines.ini").defs;
    assert_eq!(defs.len(), lines.len());
    let jobs: Vec<Value> = defs
        .iter()
        .zip(lines)
        .map(|(d, line)| {
            serde_json::json!({"variant": d.name, "seed": 1, "plies": line.len(),
                "style": "random", "immediate": false, "moves": line})
        })
        .collect();
    let games = playout(&path, &Value::Array(jobs));
    let file = path.display().to_string();
    let mut bad = Vec::new();
    for (def, game) in defs.iter().zip(&games) {
        assert!(game["end"].is_string(), "{}: no end: {game}", def.name);
        bad.extend(replay(def, &file, game, &def.name));
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    games
}

/// Perpetual check (`perpetualCheckIllegal`): a repetition during which
/// one side checked at every turn is lost by that side, whatever
/// `nFoldValue` says; at the fourth occurrence with `nFoldRule = 4`, as
/// in shogi. The queen checks from d4 and d3 while the king steps
/// between h8 and h7.
#[test]
fn perpetual_check_loses_as_fairy_stockfish_says() {
    let text = "[perpetual:chess]\nstartFen = 7k/8/8/8/8/8/8/K2Q4 w - - 0 1\n\
        perpetualCheckIllegal = true\nnFoldValue = win\n\
        [perpetual4:perpetual]\nnFoldRule = 4\n\
        [quiet:perpetual]\nstartFen = 7k/8/8/8/8/8/8/K4Q2 w - - 0 1\n";
    let checks = ["d1d4", "h8h7", "d4d3", "h7h8"]
        .into_iter()
        .chain(["d3d4", "h8h7", "d4d3", "h7h8"].repeat(4));
    // Without checks: the queen between f1 and e1, the king between h8
    // and g8.
    let quiet = ["f1e1", "h8g8", "e1f1", "g8h8"].repeat(4);
    let games = lines_end_alike(text, &[checks.clone().collect(), checks.collect(), quiet]);
    // The checked side (Black, to move) wins; without checks nFoldValue
    // (a win for the side to move) holds.
    let values: Vec<i64> = games.iter().map(|g| g["value"].as_i64().unwrap()).collect();
    assert!(games.iter().all(|g| g["end"] == "optional"), "{games:?}");
    assert!(values.iter().all(|&v| v > 0), "{values:?}");
}

/// Shogi's ban on mate by a pawn drop (`shogiPawnDropMateIllegal`, set by
/// the built-in parent `minishogi`): the king mated by a pawn just
/// dropped wins; mated by a pawn's step, it loses.
#[test]
fn a_mate_by_a_pawn_drop_is_lost_by_the_dropper() {
    let text = "[pawndrop:minishogi]\nstartFen = k4/5/1G1B1/5/4K[P] w 0 1\n\
        [pawnstep:minishogi]\nstartFen = k4/5/PG1B1/5/4K[-] w 0 1\n";
    let games = lines_end_alike(text, &[vec!["P@a4"], vec!["a3a4"]]);
    assert!(games.iter().all(|g| g["end"] == "no move"), "{games:?}");
    let values: Vec<i64> = games.iter().map(|g| g["value"].as_i64().unwrap()).collect();
    assert!(values[0] > 0 && values[1] < 0, "{values:?}");
}

/// A definition's repetitions and move count end its games by
/// themselves: FIDE's draw claims are refused, naming the rule.
#[test]
fn a_definition_has_no_draw_claims() {
    use postal::game::Claim;
    let text = "[nocount:chess]\nnMoveRule = 0\n";
    let loaded = ini::load(text, "my.ini");
    let variant = defined::register(&loaded.defs[0], "my.ini").unwrap();
    let now = Utc.with_ymd_and_hms(2026, 12, 4, 12, 0, 0).unwrap();
    let mut g = Game::new(Position::start(variant), Default::default(), None, now).unwrap();
    for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
        g.play(m, None, now).unwrap();
    }
    // The start position three times: FIDE's claim would hold; nFoldRule's
    // default (3) has ended the game already.
    assert_eq!(
        g.result().map(|e| e.rule.as_deref()),
        Some(Some("nFoldRule"))
    );
    let mut g = Game::new(Position::start(variant), Default::default(), None, now).unwrap();
    let e = g.claim(Some(Claim::Repetition), None, now).unwrap_err();
    assert!(
        e.to_string()
            .contains("end the game by themselves (nFoldRule)"),
        "{e}"
    );
}
