use super::{read_game_file, write_game_file, GameFile, MoveRecord};
use chrono::{DateTime, Utc};
use std::path::PathBuf;

fn at(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

fn record(played: &str, canonical: &str, time: DateTime<Utc>) -> MoveRecord {
    MoveRecord {
        played: played.into(),
        canonical: canonical.into(),
        time,
        comment: None,
        via: None,
        conditional: false,
    }
}

/// A file of `moves` with every other field set, and strings that name
/// the moves' key where no key is.
fn file(moves: Vec<MoveRecord>) -> GameFile {
    serde_json::from_value(serde_json::json!({
        "format": "postal-game/1",
        "variant": "chess",
        "start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "players": { "white": { "name": "Ana \"moves\": [" }, "black": {} },
        "time_control": null,
        "created": "2025-03-01T09:00:00Z",
        "id": "0123456789ab",
        "moves": moves,
        "events": [],
        "result": null,
        "position": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "extensions": { "x": { "moves": [ { "played": "a4" } ] } }
    }))
    .unwrap()
}

/// Every character JSON writes escaped (the controls, `"`, `\`), and
/// some it writes as they are.
fn awkward() -> String {
    let mut s: String = (0u8..0x80).map(char::from).collect();
    s.push_str("é\u{2028}\u{2029}\u{fffd}😀/");
    s
}

fn files() -> Vec<GameFile> {
    let t = at("2025-03-01T10:00:00Z");
    let mut commented = record("e2-e4", "e4", t);
    commented.comment = Some(awkward());
    let mut via = record("Nf3", "Nf3", at("2025-03-01T10:00:00.5Z"));
    via.via = Some("0f1e2d".into());
    via.comment = Some(String::new());
    vec![
        file(vec![]),
        file(vec![record("e4", "e4", t)]),
        file(vec![
            commented,
            record(&awkward(), "e5", at("0001-01-01T00:00:00Z")),
            via,
            record("Qh5", "Qh5+", at("9999-12-31T23:59:59.999999999Z")),
        ]),
    ]
}

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/state-file")
        .join(name)
}

/// `got` against the fixture `name`, or written to it when blessing.
fn golden(name: &str, got: &str) {
    let path = fixture(name);
    if std::env::var_os("POSTAL_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if got != want {
        let line = got
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(got.lines().count().min(want.lines().count()));
        panic!(
                "fixtures/state-file/{name} differs from line {}:\n  now:    {:?}\n  before: {:?}\n\
                 (the state file's format changed; `POSTAL_BLESS=1 cargo test --lib game::file` if that is meant)",
                line + 1,
                got.lines().nth(line),
                want.lines().nth(line)
            );
    }
}

/// What reading `text` gives: the file, written back on one line, or
/// the error with its line and column.
fn answer(text: &str) -> String {
    match read_game_file(text) {
        Ok(f) => format!("ok {}", serde_json::to_string(&f).unwrap()),
        Err(e) => format!("error {e}"),
    }
}

fn written(f: &GameFile) -> String {
    let mut out = Vec::new();
    write_game_file(&mut out, f);
    String::from_utf8(out).unwrap()
}

/// Files are written byte for byte as before, and read back to
/// themselves, pretty or compact.
#[test]
fn files_are_written_as_before_and_read_back() {
    for (n, f) in files().into_iter().enumerate() {
        let text = written(&f);
        golden(&format!("written-{n}.json"), &text);
        assert_eq!(read_game_file(&text).unwrap(), f, "file {n}");
        let compact = serde_json::to_string(&f).unwrap();
        assert_eq!(read_game_file(&compact).unwrap(), f, "file {n}, compact");
    }
    // A game postal wrote (tests/game.rs plays it) writes back the same.
    let sample = include_str!("../../../fixtures/game/sample.json");
    assert_eq!(written(&read_game_file(sample).unwrap()), sample);
}

/// Files edited by hand, well formed or not, read as before: to the
/// same file, or to the same error at the same place.
#[test]
fn edited_files_read_as_before() {
    let t = at("2025-03-01T10:00:00Z");
    let mut m = record("e2-e4", "e4", t);
    m.comment = Some("as \"usual\"".into());
    let base = serde_json::to_string_pretty(&file(vec![m, record("e5", "e5", t)])).unwrap();
    let edits: &[(&str, &str)] = &[
        ("\"played\": \"e2-e4\"", "\"pl\\u0061yed\": \"e2-e4\""),
        ("\"played\": \"e2-e4\"", "\"played\": \"e2\\u002de4\""),
        (
            "\"played\": \"e2-e4\"",
            "\"played\": \"e2-e4\", \"played\": \"e4\"",
        ),
        (
            "\"played\": \"e2-e4\"",
            "\"played\": \"e2-e4\", \"extra\": 1",
        ),
        ("\"played\": \"e2-e4\"", "\"played\": null"),
        ("\"played\": \"e2-e4\"", "\"played\": 7"),
        ("\"played\": \"e2-e4\",", ""),
        (
            "\"canonical\": \"e4\",",
            "\"canonical\": \"e4\", \"via\": null,",
        ),
        (
            "\"canonical\": \"e4\",",
            "\"canonical\": \"e4\", \"comment\": nul,",
        ),
        (
            "\"canonical\": \"e4\",",
            "\"canonical\": \"e4\", \"via\": [],",
        ),
        ("2025-03-01T10:00:00Z", "2025-03-01T10:00:00+01:00"),
        ("2025-03-01T10:00:00Z", "2025-02-30T10:00:00Z"),
        ("2025-03-01T10:00:00Z", "2025-03-01t10:00:00Z"),
        ("2025-03-01T10:00:00Z", "10000-03-01T10:00:00Z"),
        ("\"moves\": [", "\"moves\": [], \"moves\": ["),
        ("\"moves\": [", "\"moves\" : \n\t["),
        ("\"moves\": [", "\"moves\": [\n    {},"),
        ("\"events\"", "\"moves\": [],\n  \"events\""),
        ("\n  ],\n  \"events\"", ",\n  ],\n  \"events\""),
        ("\n  ],\n  \"events\"", "\n  ,\n  \"events\""),
        ("\n  ],\n  \"events\"", "\n  ]]\n  \"events\""),
        ("\"format\"", "\"moves\": [],\n  \"format\""),
        ("{\n  \"format\"", "[{\n  \"format\""),
        (
            "\"time_control\": null",
            "\"time_control\": \"x\\\"\\\\\\\"moves\\\": [\"",
        ),
    ];
    let mut answers = String::new();
    for (from, to) in edits {
        assert!(base.contains(from), "{from}");
        let text = base.replacen(from, to, 1);
        answers.push_str(&format!("# {from:?} -> {to:?}\n{}\n", answer(&text)));
    }
    golden("edits.txt", &answers);
}

/// FNV-1a, 64 bits: a hash that stays the same from one Rust to the
/// next, for answers recorded in a fixture.
fn fnv(hash: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *hash ^= u64::from(b);
        *hash = hash.wrapping_mul(0x100_0000_01b3);
    }
}

/// Every file one edit away from a good one (a character removed,
/// doubled, or replaced by one that means something in JSON) reads as
/// before. The fixture holds, for each character of each base, a hash
/// of the answers to its seventeen edits.
#[test]
fn files_one_edit_from_a_good_one_read_as_before() {
    let t = at("2025-03-01T10:00:00Z");
    let mut m = record("e4", "e4", t);
    m.comment = Some("a \"b\"\n".into());
    let f = file(vec![m, record("e5", "e5", t)]);
    // And records laid out as postal writes them.
    let plain = file(vec![record("e4", "e4", t), record("Nf6", "Nf6+", t)]);
    let bases = [
        serde_json::to_string_pretty(&f).unwrap(),
        serde_json::to_string(&f).unwrap(),
        serde_json::to_string_pretty(&plain).unwrap(),
    ];
    let marks = [
        "", "\"", "\\", ",", ":", "{", "}", "[", "]", " ", "\n", "\u{1}", "n", "0", "a", "T",
    ];
    let mut hashes = String::new();
    let mut now = Vec::new();
    for (b, base) in bases.iter().enumerate() {
        for (i, c) in base.char_indices() {
            let (head, tail) = (&base[..i], &base[i + c.len_utf8()..]);
            let texts = std::iter::once(format!("{head}{c}{c}{tail}"))
                .chain(marks.iter().map(|mark| format!("{head}{mark}{tail}")));
            let mut hash = 0xcbf2_9ce4_8422_2325;
            let mut answers = Vec::new();
            for text in texts {
                let a = answer(&text);
                fnv(&mut hash, a.as_bytes());
                fnv(&mut hash, &[0xff]);
                answers.push(a);
            }
            hashes.push_str(&format!("{b} {i} {hash:016x}\n"));
            now.push((b, i, c, answers));
        }
    }
    if let Some((n, _)) = std::fs::read_to_string(fixture("one-edit.txt"))
        .unwrap_or_default()
        .lines()
        .zip(hashes.lines())
        .enumerate()
        .find(|(_, (a, b))| a != b)
        .filter(|_| std::env::var_os("POSTAL_BLESS").is_none())
    {
        let (b, i, c, answers) = &now[n];
        panic!(
            "base {b}, character {i} ({c:?}): the edits there read otherwise than before; now:\n{}",
            answers.join("\n")
        );
    }
    golden("one-edit.txt", &hashes);
}
