//! Issue 42, point 4: the rules of a game are fixed at `new`. Two
//! players, Ana and Ben, each with their own folder for the game and
//! their own data folder (`XDG_DATA_HOME`, where postal keeps the rules
//! of each game), pass the game file between them; a copy whose rules
//! were changed by the one who mails it is refused by the other, saying
//! what changed, and left as it was.

use mail_parser::{MessageParser, MimeHeaders};
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

const NOW: &str = "2026-12-01T09:00:00Z";

/// A chess game with rules to change: the promotion, the stalemate.
const MINI: &str = "\
[postbox:chess]
promotionPieceTypes = qrb
stalemateValue = draw
";

/// The two players' folders in one temporary folder.
struct Players {
    tmp: tempfile::TempDir,
}

impl Players {
    fn new() -> Players {
        let tmp = tempfile::tempdir().unwrap();
        for who in ["ana", "ben"] {
            fs::create_dir_all(tmp.path().join(who)).unwrap();
        }
        Players { tmp }
    }

    /// `who`'s game file.
    fn game(&self, who: &str) -> PathBuf {
        self.tmp.path().join(who).join("game.json")
    }

    /// `who`'s own data folder.
    fn data(&self, who: &str) -> PathBuf {
        self.tmp.path().join(format!("{who}-data"))
    }

    /// `postal` as `who` runs it, in their folder.
    fn postal(&self, who: &str) -> assert_cmd::Command {
        let mut c = crate::common::postal();
        c.current_dir(self.tmp.path().join(who))
            .env("POSTAL_NOW", NOW)
            .env("XDG_CONFIG_HOME", "/nonexistent")
            .env("XDG_DATA_HOME", self.data(who))
            .env_remove("POSTAL_VARIANTS");
        c
    }

    /// Runs `postal COMMAND FILE REST...` as `who` on their game file
    /// (`args` the command and the rest); the test fails when it does.
    fn ok(&self, who: &str, args: &[&str]) -> String {
        let out = self
            .postal(who)
            .arg(args[0])
            .arg(self.game(who))
            .args(&args[1..])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{who}: postal {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// Starts a game: Ana White, Ben Black; `ini` a definition's file.
    fn start(&self, variant: &str, ini: Option<&str>) {
        let mut c = self.postal("ana");
        c.args(["new", variant, "--white", "Ana <ana@example.org>"])
            .args(["--black", "Ben <ben@example.org>", "-o"])
            .arg(self.game("ana"));
        if let Some(text) = ini {
            let path = self.tmp.path().join("ana/variants.ini");
            fs::write(&path, text).unwrap();
            c.arg("--variants").arg(path);
        }
        let out = c.output().unwrap();
        assert!(out.status.success(), "{out:?}");
    }

    /// `from`'s game file, as it is mailed, saved as `to`'s.
    fn pass(&self, from: &str, to: &str) {
        fs::copy(self.game(from), self.game(to)).unwrap();
    }

    /// A game of `variant` in which Ana has played `first` and Ben has
    /// answered on his copy (so he keeps its rules), and Ana has played
    /// `third` on the copy he sent back: the file she mails next.
    fn under_way(&self, variant: &str, ini: Option<&str>, moves: [&str; 3]) -> String {
        self.start(variant, ini);
        self.ok("ana", &["move", moves[0]]);
        self.pass("ana", "ben");
        self.ok("ben", &["move", moves[1]]);
        self.pass("ben", "ana");
        self.ok("ana", &["move", moves[2]]);
        fs::read_to_string(self.game("ana")).unwrap()
    }

    /// Ben receives `text` as his game file and runs `show` and `move`
    /// on it: both are refused, with an error that contains each of
    /// `said`, and the file is left byte for byte as it came.
    fn refused(&self, text: &str, said: &[&str]) {
        fs::write(self.game("ben"), text).unwrap();
        for args in [&["show"][..], &["move", "a6"][..]] {
            let out = self
                .postal("ben")
                .args(&args[..1])
                .arg(self.game("ben"))
                .args(&args[1..])
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(err.starts_with("postal: error: "), "{err}");
            assert!(err.contains("changed since it was started"), "{err}");
            for s in said {
                assert!(err.contains(s), "{args:?}: {s:?} not in {err}");
            }
            assert_eq!(fs::read_to_string(self.game("ben")).unwrap(), text);
        }
    }
}

/// The game file's JSON, with `edit` applied.
fn edited(text: &str, edit: impl FnOnce(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(text).unwrap();
    edit(&mut v);
    serde_json::to_string_pretty(&v).unwrap()
}

/// Changes the definition of a game file, and with `record` the rules it
/// records too (so that only the player's own record tells).
fn redefine(text: &str, from: &str, to: &str, record: bool) -> String {
    edited(text, |v| {
        let def = v["definition"].as_str().unwrap().replace(from, to);
        assert_ne!(
            v["definition"],
            Value::String(def.clone()),
            "{from} in the definition"
        );
        v["definition"] = Value::String(def.clone());
        if record {
            v["extensions"]["rules"]["definition"] = Value::String(def);
        }
    })
}

/// A game of MINI under way, whose definition Ana changes from `from` to
/// `to` in the file she mails (its record of the rules left as it was):
/// Ben refuses it, saying each of `said`.
fn redefinition_refused(from: &str, to: &str, said: &[&str]) {
    let p = Players::new();
    let text = p.under_way("postbox", Some(MINI), ["e4", "e5", "Nf3"]);
    p.refused(&redefine(&text, from, to, false), said);
}

#[test]
fn a_knight_added_to_the_promotion_types_is_refused() {
    redefinition_refused(
        "promotionPieceTypes = qrb",
        "promotionPieceTypes = qrbn",
        &["promotionPieceTypes was \"qrb\" and is now \"qrbn\""],
    );
}

#[test]
fn a_changed_stalemate_value_is_refused() {
    redefinition_refused(
        "stalemateValue = draw",
        "stalemateValue = loss",
        &["stalemateValue was \"draw\" and is now \"loss\""],
    );
}

#[test]
fn an_added_flag_rule_is_refused() {
    redefinition_refused(
        "stalemateValue = draw\n",
        "stalemateValue = draw\nflagPiece = k\nflagRegionWhite = *8\nflagRegionBlack = *1\n",
        &[
            "flagPiece was unset and is now \"k\"",
            "flagRegionWhite was unset and is now \"*8\"",
        ],
    );
}

#[test]
fn the_record_edited_with_the_definition_is_refused_by_the_players_own() {
    let p = Players::new();
    let text = p.under_way("postbox", Some(MINI), ["e4", "e5", "Nf3"]);
    let changed = redefine(
        &text,
        "promotionPieceTypes = qrb",
        "promotionPieceTypes = qrbn",
        true,
    );
    // The file agrees with itself: a player who keeps no record of the
    // game (the first time he sees it) takes it as it is ...
    let fresh = Players::new();
    fs::write(fresh.game("ben"), &changed).unwrap();
    fresh.ok("ben", &["show"]);
    // ... but Ben keeps the rules the game was started with.
    p.refused(
        &changed,
        &["promotionPieceTypes was \"qrb\" and is now \"qrbn\""],
    );
}

#[test]
fn a_chess_game_relabelled_kristensen_is_refused() {
    let p = Players::new();
    let text = p.under_way("chess", None, ["e4", "e5", "Nf3"]);
    let renamed = edited(&text, |v| v["variant"] = Value::String("kristensen".into()));
    p.refused(
        &renamed,
        &["the variant was renamed from \"chess\" to \"kristensen\""],
    );
    // The record in the file renamed too: Ben's own still says chess.
    let both = edited(&renamed, |v| {
        v["extensions"]["rules"]["variant"] = Value::String("kristensen".into())
    });
    p.refused(
        &both,
        &["the variant was renamed from \"chess\" to \"kristensen\""],
    );
}

#[test]
fn a_gardner_game_relabelled_building_is_refused() {
    let p = Players::new();
    let text = p.under_way("gardner", None, ["d3", "a3", "c3"]);
    let renamed = edited(&text, |v| {
        v["variant"] = Value::String("building".into());
        v["extensions"]["rules"]["variant"] = Value::String("building".into());
    });
    p.refused(
        &renamed,
        &["the variant was renamed from \"gardner\" to \"building\""],
    );
}

#[test]
fn a_file_whose_own_record_disagrees_is_refused_the_first_time() {
    // No record kept by the one who reads it: the file's own tells.
    let p = Players::new();
    let text = p.under_way("postbox", Some(MINI), ["e4", "e5", "Nf3"]);
    let changed = redefine(
        &text,
        "stalemateValue = draw",
        "stalemateValue = win",
        false,
    );
    let fresh = Players::new();
    fresh.refused(
        &changed,
        &["stalemateValue was \"draw\" and is now \"win\""],
    );
    assert!(
        !fresh.data("ben").exists(),
        "a refused file is not recorded"
    );
}

#[test]
fn a_game_started_under_other_rules_of_postal_is_refused_with_the_versions() {
    let p = Players::new();
    let text = p.under_way("chess", None, ["e4", "e5", "Nf3"]);
    let older = edited(&text, |v| {
        v["extensions"]["rules"]["version"] = Value::from(7)
    });
    let fresh = Players::new();
    fresh.refused(
        &older,
        &["started under version 7 of postal's rules of chess, and this postal plays version 1"],
    );
}

/// The id the game's rules are kept under in `who`'s data folder.
fn kept(p: &Players, who: &str) -> Vec<String> {
    crate::common::names(&p.data(who).join("postal/rules"))
        .into_iter()
        .collect()
}

#[test]
fn a_file_written_before_the_record_loads_and_is_recorded_at_its_next_save() {
    // fixtures/game/sample.json was written by a postal that recorded no
    // rules (and gave no game id).
    let p = Players::new();
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/game/sample.json");
    fs::copy(&sample, p.game("ben")).unwrap();
    assert!(p.ok("ben", &["show"]).contains("White"));
    assert!(kept(&p, "ben").is_empty(), "reading records nothing");
    assert_eq!(fs::read(p.game("ben")).unwrap(), fs::read(&sample).unwrap());
    p.ok("ben", &["move", "Ba4"]);
    let saved: Value = serde_json::from_str(&fs::read_to_string(p.game("ben")).unwrap()).unwrap();
    assert_eq!(
        saved["extensions"]["rules"],
        serde_json::json!({"variant": "chess", "version": 1})
    );
    let ids = kept(&p, "ben");
    assert_eq!(ids.len(), 1, "{ids:?}");
    let record: Value = serde_json::from_str(
        &fs::read_to_string(p.data("ben").join("postal/rules").join(&ids[0])).unwrap(),
    )
    .unwrap();
    assert_eq!(record, saved["extensions"]["rules"]);
    // The save fixed the game's id in the file (an id-less file's id is
    // derived from its variant among others), and from now on the game's
    // rules are fixed.
    assert_eq!(saved["id"].as_str(), ids[0].strip_suffix(".json"));
    let mine = fs::read_to_string(p.game("ben")).unwrap();
    p.refused(
        &mine.replace("\"variant\": \"chess\"", "\"variant\": \"kristensen\""),
        &["the variant was renamed from \"chess\" to \"kristensen\""],
    );
}

/// The one message in `who`'s outbox, taken out of it.
fn take_mail(p: &Players, who: &str) -> Vec<u8> {
    let dir = p.tmp.path().join(who).join("outbox/new");
    let names = crate::common::names(&dir);
    assert_eq!(names.len(), 1, "{names:?}");
    let path = dir.join(names.first().unwrap());
    let raw = fs::read(&path).unwrap();
    fs::remove_file(path).unwrap();
    raw
}

/// `from` mails their move; `to` saves the attached game file.
fn deliver(p: &Players, from: &str, to: &str) {
    let raw = take_mail(p, from);
    let m = MessageParser::default().parse(&raw).unwrap();
    let file = m
        .attachments()
        .find(|a| a.attachment_name() == Some("game.json"))
        .expect("the game file attached");
    fs::write(p.game(to), file.contents()).unwrap();
}

#[test]
fn an_unchanged_game_plays_on_by_mail_both_ways() {
    for (variant, ini, moves) in [
        ("chess", None, ["e4", "e5", "Nf3", "Nc6"]),
        ("postbox", Some(MINI), ["d4", "d5", "c4", "e6"]),
    ] {
        let p = Players::new();
        p.start(variant, ini);
        for (i, mv) in moves.iter().enumerate() {
            let (me, you) = if i % 2 == 0 {
                ("ana", "ben")
            } else {
                ("ben", "ana")
            };
            p.ok(me, &["move", mv, "--mail"]);
            deliver(&p, me, you);
        }
        let shown = p.ok("ana", &["show", "--format", "fen"]);
        assert!(shown.contains(" w "), "{shown}");
        // Both keep the game's rules, as its file records them.
        let file: Value =
            serde_json::from_str(&fs::read_to_string(p.game("ana")).unwrap()).unwrap();
        let id = file["id"].as_str().unwrap();
        for who in ["ana", "ben"] {
            assert_eq!(kept(&p, who), [format!("{id}.json")], "{who}");
            let record: Value = serde_json::from_str(
                &fs::read_to_string(p.data(who).join(format!("postal/rules/{id}.json"))).unwrap(),
            )
            .unwrap();
            assert_eq!(record, file["extensions"]["rules"], "{who}");
        }
        match ini {
            Some(text) => assert_eq!(file["extensions"]["rules"]["definition"], Value::from(text)),
            None => assert_eq!(file["extensions"]["rules"]["version"], Value::from(1)),
        }
    }
}
