//! The rules a game was started with, kept so that a mailed file cannot
//! change them (issue 42, point 4), and the one comparison that says
//! whether a file still plays them ([`changes`]).
//!
//! A game's rules are its variant's name and either the version of
//! postal's rules of a built-in variant ([`crate::variant::Spec::rules_version`])
//! or a defined variant's variants.ini text ([`RulesRecord`]). They are
//! recorded twice:
//!
//! - in the file, under `extensions.rules` (where a file's fields of a
//!   newer minor version go, so that an older postal keeps it on every
//!   save): both players' copies carry what the game was started with,
//!   and a file whose own record disagrees with its variant or definition
//!   is refused;
//! - in each player's own data folder ([`RuleBook`]), by the game's id,
//!   which the opponent cannot edit: a file whose rules differ from the
//!   player's record is refused, whatever its own record says.
//!
//! A game of which the player keeps no record (one the opponent started,
//! arriving for the first time, or a file older than these records) is
//! recorded at its next save, from the file (trust on first use). Refusals
//! say what changed: the variant renamed, the version of postal's rules,
//! each key of a definition that differs.

use super::file::GameFile;
use super::state::Game;
use super::GameError;
use crate::limits::{MAX_INI_DEPTH, MAX_STATE_BYTES};
use crate::variant::ini::lex::{sections, Section};
use crate::variant::Variant;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The key of the record under a file's `extensions`.
const KEY: &str = "rules";

/// Most changes a refusal lists; the rest are counted.
const MOST_LISTED: usize = 10;

/// A game's rules as recorded: the variant's name and, for a built-in
/// variant, the version of postal's rules of it; for a defined one, its
/// definition's text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesRecord {
    pub variant: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub definition: Option<String>,
}

impl RulesRecord {
    /// The rules a file plays: its definition's text as written, or the
    /// built-in variant it names (an alias read as the variant's name)
    /// and the version of postal's rules of it.
    pub fn of_file(file: &GameFile) -> Result<RulesRecord, GameError> {
        if let Some(text) = &file.definition {
            return Ok(RulesRecord {
                variant: file.variant.clone(),
                version: None,
                definition: Some(text.clone()),
            });
        }
        let variant = Variant::from_name(&file.variant)
            .ok_or_else(|| GameError::Corrupt(format!("unknown variant {:?}", file.variant)))?;
        Ok(RulesRecord::of_variant(variant))
    }

    /// The rules of `variant` as this postal plays them.
    fn of_variant(variant: Variant) -> RulesRecord {
        match variant.defined() {
            Some(d) => RulesRecord {
                variant: variant.name().to_string(),
                version: None,
                definition: Some(d.def.source.text()),
            },
            None => RulesRecord {
                variant: variant.name().to_string(),
                version: Some(variant.spec().rules_version),
                definition: None,
            },
        }
    }

    /// The record a file carries under `extensions.rules`; `None` in a
    /// file written before records were kept.
    pub fn in_file(file: &GameFile) -> Result<Option<RulesRecord>, GameError> {
        let Some(value) = file.extensions.get(KEY) else {
            return Ok(None);
        };
        let bad = |why: String| {
            GameError::Corrupt(format!(
                "the record of the game's rules (extensions.rules): {why}"
            ))
        };
        let record = RulesRecord::deserialize(value).map_err(|e| bad(e.to_string()))?;
        record.check().map_err(bad)?;
        Ok(Some(record))
    }

    /// Writes the record into a file's `extensions`.
    pub(super) fn put_in(&self, file: &mut GameFile) {
        let value = serde_json::to_value(self).expect("a rules record serialises");
        file.extensions.insert(KEY.to_string(), value);
    }

    /// Exactly one of a version and a definition.
    fn check(&self) -> Result<(), String> {
        match (&self.version, &self.definition) {
            (Some(_), None) | (None, Some(_)) => Ok(()),
            _ => Err("it has either a `version` (a built-in variant) or a `definition`".into()),
        }
    }

    fn describe(&self) -> String {
        match self.version {
            Some(_) => format!("{:?} (built in)", self.variant),
            None => format!("{:?} (defined in the file)", self.variant),
        }
    }
}

/// What differs between the rules a game was started with (`was`) and
/// the rules a file plays now (`now`), each change in words; empty when
/// they are the same. The one judge of "same rules": every check of a
/// file's rules asks it.
pub fn changes(was: &RulesRecord, now: &RulesRecord) -> Vec<String> {
    let mut out = Vec::new();
    if was.variant != now.variant {
        out.push(format!(
            "the variant was renamed from {:?} to {:?}",
            was.variant, now.variant
        ));
    }
    match (
        (&was.version, &was.definition),
        (&now.version, &now.definition),
    ) {
        ((Some(a), _), (Some(b), _)) => {
            if a != b && was.variant == now.variant {
                out.push(format!(
                    "it was started under version {a} of postal's rules of {}, and this postal plays version {b}: finish the game with the postal that started it",
                    now.variant
                ));
            }
        }
        ((_, Some(a)), (_, Some(b))) => {
            if a != b || was.variant != now.variant {
                out.extend(definition_changes(a, &was.variant, b, &now.variant));
            }
        }
        _ => out.push(format!(
            "the variant was {} and is now {}",
            was.describe(),
            now.describe()
        )),
    }
    if out.len() > MOST_LISTED {
        let more = out.len() - MOST_LISTED;
        out.truncate(MOST_LISTED);
        out.push(format!("and {more} more"));
    }
    out
}

/// [`changes`] as a refusal of game `id`: `Ok` when the rules are the
/// same.
pub fn same_rules(id: &str, was: &RulesRecord, now: &RulesRecord) -> Result<(), GameError> {
    let changed = changes(was, now);
    if changed.is_empty() {
        return Ok(());
    }
    Err(GameError::Corrupt(format!(
        "the rules of game {} changed since it was started: {}",
        id.escape_debug(),
        changed.join("; ")
    )))
}

/// The keys of section `name` of a definition's text, its ancestors'
/// included (a child's key replacing its parent's), in the order they
/// are first set, and the built-in variant the chain starts from (a
/// parent the text does not define).
fn effective_keys(text: &str, name: &str) -> (Keys, Option<String>) {
    let all = sections(text);
    let find = |name: &str, before: usize| -> Option<usize> {
        all[..before].iter().rposition(|s: &Section| s.name == name)
    };
    let mut chain = Vec::new();
    let mut base = None;
    let mut at = find(name, all.len());
    while let Some(i) = at {
        // A chain is at most as deep as a definition may be (the rest,
        // and a loop, are the loader's to refuse).
        if chain.len() > MAX_INI_DEPTH {
            break;
        }
        chain.push(i);
        at = match &all[i].parent {
            Some(p) => {
                let found = find(p, i).or_else(|| find(p, all.len()).filter(|&j| j != i));
                if found.is_none() {
                    base = Some(p.clone());
                }
                found
            }
            None => None,
        };
    }
    // Looked up by name, so that a definition of many keys (it comes
    // from a mailed file) costs time in its length.
    let mut keys = Keys::default();
    for &i in chain.iter().rev() {
        for e in &all[i].entries {
            match keys.index.get(&e.key) {
                Some(&at) => keys.list[at].1 = e.value.clone(),
                None => {
                    keys.index.insert(e.key.clone(), keys.list.len());
                    keys.list.push((e.key.clone(), e.value.clone()));
                }
            }
        }
    }
    (keys, base)
}

/// A section's keys and values in the order first set, with an index by
/// key.
#[derive(Default)]
struct Keys {
    list: Vec<(String, String)>,
    index: HashMap<String, usize>,
}

impl Keys {
    fn get(&self, key: &str) -> Option<&str> {
        self.index.get(key).map(|&i| self.list[i].1.as_str())
    }
}

/// What differs between two definitions' texts, key by key.
fn definition_changes(was: &str, was_name: &str, now: &str, now_name: &str) -> Vec<String> {
    let (old, old_base) = effective_keys(was, was_name);
    let (new, new_base) = effective_keys(now, now_name);
    let mut out = Vec::new();
    if old_base != new_base {
        let show = |b: &Option<String>| match b {
            Some(b) => format!("{:?}", b),
            None => "none".to_string(),
        };
        out.push(format!(
            "the built-in variant it derives from was {} and is now {}",
            show(&old_base),
            show(&new_base)
        ));
    }
    for (key, value) in &old.list {
        let shown = key.escape_debug();
        match new.get(key) {
            Some(v) if v != value => out.push(format!("{shown} was {value:?} and is now {v:?}")),
            Some(_) => {}
            None => out.push(format!("{shown} was {value:?} and is now unset")),
        }
    }
    for (key, value) in &new.list {
        if old.get(key).is_none() {
            out.push(format!(
                "{} was unset and is now {value:?}",
                key.escape_debug()
            ));
        }
    }
    if out.is_empty() && was != now {
        out.push("the definition's text changed (comments, spacing or other sections)".into());
    }
    out
}

/// A player's own record of each game's rules: one file a game, named by
/// its id, in the player's data folder (`$XDG_DATA_HOME/postal/rules`,
/// else `~/.local/share/postal/rules`), which no mailed file can change.
#[derive(Clone, Debug)]
pub struct RuleBook {
    dir: PathBuf,
}

impl RuleBook {
    /// The records kept in `dir`.
    pub fn at(dir: impl Into<PathBuf>) -> RuleBook {
        RuleBook { dir: dir.into() }
    }

    /// The player's records: `$XDG_DATA_HOME/postal/rules` (an absolute
    /// path, as the XDG base directories say), else
    /// `$HOME/.local/share/postal/rules`.
    pub fn from_env() -> Result<RuleBook, GameError> {
        let xdg = std::env::var_os("XDG_DATA_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute());
        let data = xdg
            .or_else(|| {
                std::env::var_os("HOME")
                    .filter(|h| !h.is_empty())
                    .map(|h| PathBuf::from(h).join(".local/share"))
            })
            .ok_or_else(|| {
                GameError::Usage(
                    "no folder to keep the games' rules in: set HOME or XDG_DATA_HOME".into(),
                )
            })?;
        Ok(RuleBook::at(data.join("postal/rules")))
    }

    /// The folder of the records.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The record of game `id`: its file, the id checked to be a plain
    /// token first (it comes from a mailed file).
    fn path(&self, id: &str) -> Result<PathBuf, GameError> {
        super::notices::check_game_id(id)?;
        Ok(self.dir.join(format!("{id}.json")))
    }

    /// The rules kept for game `id`; `None` when none are.
    pub fn kept(&self, id: &str) -> Result<Option<RulesRecord>, GameError> {
        let path = self.path(id)?;
        let file = match fs::File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(GameError::io(&path, e)),
        };
        let mut text = String::new();
        file.take(MAX_STATE_BYTES as u64)
            .read_to_string(&mut text)
            .map_err(|e| GameError::io(&path, e))?;
        let bad = |why: String| {
            GameError::Corrupt(format!(
                "{}: not a record of a game's rules: {why}",
                path.display()
            ))
        };
        let record: RulesRecord = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
        record.check().map_err(bad)?;
        Ok(Some(record))
    }

    /// Refuses a file whose rules differ from those kept for its game.
    pub fn check(&self, file: &GameFile) -> Result<(), GameError> {
        let id = file
            .id
            .clone()
            .unwrap_or_else(|| super::notices::derived_game_id(file));
        match self.kept(&id)? {
            Some(was) => same_rules(&id, &was, &RulesRecord::of_file(file)?),
            None => Ok(()),
        }
    }

    /// Keeps the rules of `game` when none are kept for it yet (a game
    /// just started, or seen for the first time); refuses a game whose
    /// rules differ from those kept.
    pub fn keep(&self, game: &Game) -> Result<(), GameError> {
        let id = game.id();
        let now = RulesRecord::of_file(game.file())?;
        if let Some(was) = self.kept(&id)? {
            return same_rules(&id, &was, &now);
        }
        let path = self.path(&id)?;
        create_private_dir(&self.dir)?;
        let mut text = serde_json::to_string_pretty(&now).expect("a rules record serialises");
        text.push('\n');
        crate::files::write_atomic(&path, text.as_bytes())
            .map(|_| ())
            .map_err(|e| GameError::io(&path, e))
    }
}

/// Makes `dir` and its parents, the new folders readable by the user
/// alone.
fn create_private_dir(dir: &Path) -> Result<(), GameError> {
    use std::os::unix::fs::DirBuilderExt;
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|e| GameError::io(dir, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defined(name: &str, text: &str) -> RulesRecord {
        RulesRecord {
            variant: name.into(),
            version: None,
            definition: Some(text.into()),
        }
    }

    fn built_in(name: &str, version: u32) -> RulesRecord {
        RulesRecord {
            variant: name.into(),
            version: Some(version),
            definition: None,
        }
    }

    #[test]
    fn a_key_changed_added_or_removed_is_named() {
        let was = defined(
            "mini",
            "[base:chess]\npromotionPieceTypes = qrb\n\n[mini:base]\nstalemateValue = draw\n",
        );
        assert!(changes(&was, &was.clone()).is_empty());
        let now = defined(
            "mini",
            "[base:chess]\npromotionPieceTypes = qrbn\n\n[mini:base]\nstalemateValue = loss\nflagPiece = k\n",
        );
        assert_eq!(
            changes(&was, &now),
            [
                "promotionPieceTypes was \"qrb\" and is now \"qrbn\"",
                "stalemateValue was \"draw\" and is now \"loss\"",
                "flagPiece was unset and is now \"k\"",
            ]
        );
        let comment = defined(
            "mini",
            &format!("# mine\n{}", was.definition.clone().unwrap()),
        );
        assert_eq!(
            changes(&was, &comment),
            ["the definition's text changed (comments, spacing or other sections)"]
        );
        let rebased = defined(
            "mini",
            "[base:shogi]\npromotionPieceTypes = qrb\n\n[mini:base]\nstalemateValue = draw\n",
        );
        assert_eq!(
            changes(&was, &rebased),
            ["the built-in variant it derives from was \"chess\" and is now \"shogi\""]
        );
    }

    #[test]
    fn a_renamed_or_newer_built_in_variant_is_named() {
        assert!(changes(&built_in("chess", 1), &built_in("chess", 1)).is_empty());
        assert_eq!(
            changes(&built_in("chess", 1), &built_in("kristensen", 1)),
            ["the variant was renamed from \"chess\" to \"kristensen\""]
        );
        let newer = changes(&built_in("chess", 1), &built_in("chess", 2));
        assert!(
            newer[0].contains("version 1 of postal's rules of chess"),
            "{newer:?}"
        );
        let kinds = changes(&built_in("chess", 1), &defined("chess", "[chess:chess]\n"));
        assert_eq!(
            kinds,
            ["the variant was \"chess\" (built in) and is now \"chess\" (defined in the file)"]
        );
        let err = same_rules("abc", &built_in("chess", 1), &built_in("gardner", 1))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with(
                "the rules of game abc changed since it was started: the variant was renamed"
            ),
            "{err}"
        );
    }

    #[test]
    fn a_long_list_of_changes_is_cut() {
        let keys =
            |v: &str| -> String { (0..30).map(|i| format!("k{i} = {v}\n")).collect::<String>() };
        let was = defined("v", &format!("[v:chess]\n{}", keys("a")));
        let now = defined("v", &format!("[v:chess]\n{}", keys("b")));
        let c = changes(&was, &now);
        assert_eq!(c.len(), MOST_LISTED + 1);
        assert_eq!(c.last().unwrap(), "and 20 more");
    }

    #[test]
    fn a_definition_of_many_keys_is_compared_in_linear_time() {
        // A mailed file's definition may hold some 16 MB: 200,000 keys,
        // compared by name, not each against each (which would take
        // minutes).
        let keys: String = (0..200_000).map(|i| format!("k{i} = v\n")).collect();
        let was = defined("v", &format!("[v:chess]\n{keys}"));
        let now = defined("v", &format!("[v:chess]\n{keys}extra = 1\n"));
        assert_eq!(changes(&was, &now), ["extra was unset and is now \"1\""]);
    }

    #[test]
    fn a_loop_of_parents_ends() {
        let was = defined("a", "[a:b]\nx = 1\n[b:a]\ny = 2\n");
        let now = defined("a", "[a:b]\nx = 2\n[b:a]\ny = 2\n");
        assert_eq!(changes(&was, &now), ["x was \"1\" and is now \"2\""]);
    }

    #[test]
    fn the_book_keeps_the_first_record_and_refuses_bad_ids() {
        let dir = tempfile::tempdir().unwrap();
        let book = RuleBook::at(dir.path().join("rules"));
        assert_eq!(book.kept("abc").unwrap(), None);
        assert!(book.kept("../x").is_err());
        assert!(book.kept("").is_err());
        fs::create_dir_all(book.dir()).unwrap();
        fs::write(book.dir().join("abc.json"), "{\"variant\": \"chess\"}").unwrap();
        assert!(book.kept("abc").is_err());
        fs::write(book.dir().join("abc.json"), "[1, 2").unwrap();
        assert!(book.kept("abc").is_err());
    }
}
