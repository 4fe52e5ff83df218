//! doc/DESIGN.md stays true to the code: every file and folder it cites
//! exists, every `module::item` it names is defined in `src/`, and the
//! `Rules` methods it lists are the trait's.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn design() -> String {
    fs::read_to_string(root().join("doc/DESIGN.md")).expect("doc/DESIGN.md")
}

/// The texts between backticks, in order.
fn quoted(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// `a/{b,c}.rs` as `a/b.rs` and `a/c.rs`.
fn expand(path: &str) -> Vec<String> {
    match (path.find('{'), path.find('}')) {
        (Some(open), Some(close)) if open < close => path[open + 1..close]
            .split(',')
            .flat_map(|part| expand(&format!("{}{part}{}", &path[..open], &path[close + 1..])))
            .collect(),
        _ => vec![path.to_string()],
    }
}

/// Whether a cited path names a file or folder of the repository: from
/// its top, or from `src/` (modules are cited as `record/lane.rs`), a
/// module name without its `.rs` included (`record/{lexer,pgn}`).
fn exists(path: &str) -> bool {
    let top = root();
    let path = path.trim_end_matches('/');
    [top.join(path), top.join("src").join(path)]
        .iter()
        .any(|p| p.exists() || p.with_extension("rs").exists())
}

fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            source_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// Whether `name` is defined in the source: an item, a method, a field or
/// an enum variant.
fn defined(name: &str, source: &str) -> bool {
    let word = |i: usize| {
        let before = source[..i].chars().next_back();
        let after = source[i + name.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    };
    source.match_indices(name).any(|(i, _)| {
        if !word(i) {
            return false;
        }
        let before = source[..i].trim_end();
        let after = source[i + name.len()..].trim_start();
        [
            "fn", "struct", "enum", "trait", "mod", "const", "static", "type",
        ]
        .iter()
        .any(|k| before.ends_with(k))
            || (after.starts_with(':') && !after.starts_with("::"))
            || (before.ends_with(',') || before.ends_with('{'))
                && after.starts_with([',', '{', '('])
    })
}

#[test]
fn every_path_design_md_cites_exists() {
    let text = design();
    let mut missing = Vec::new();
    let mut checked = 0;
    for q in quoted(&text) {
        let q = q.trim();
        let looks_like_path = !q.contains([' ', '<', '*', '(', '"', '='])
            && !q.starts_with('-')
            && (q.contains('/') || q.ends_with(".rs") || q.ends_with(".md"))
            && !q.contains("::");
        if !looks_like_path {
            continue;
        }
        for p in expand(q) {
            checked += 1;
            if !exists(&p) {
                missing.push(p);
            }
        }
    }
    assert!(
        checked > 40,
        "only {checked} paths found: the reader is off"
    );
    assert!(
        missing.is_empty(),
        "doc/DESIGN.md cites missing paths: {missing:?}"
    );
}

#[test]
fn every_name_design_md_cites_is_defined() {
    let mut files = Vec::new();
    source_files(&root().join("src"), &mut files);
    let source: String = files
        .iter()
        .map(|f| fs::read_to_string(f).unwrap())
        .collect::<Vec<_>>()
        .join("\n");
    let text = design();
    let mut missing = BTreeSet::new();
    let mut checked = 0;
    for q in quoted(&text) {
        // `notation::san::write_fast`, `Rules::outcome`, `Position::check`,
        // with call parentheses or arguments after the name.
        let name = q.split(['(', ' ']).next().unwrap_or("");
        if !name.contains("::")
            || !name
                .split("::")
                .all(|s| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_'))
        {
            continue;
        }
        let last = name.rsplit("::").next().unwrap();
        checked += 1;
        if !defined(last, &source) {
            missing.insert(name.to_string());
        }
    }
    assert!(
        checked > 30,
        "only {checked} names found: the reader is off"
    );
    assert!(
        missing.is_empty(),
        "doc/DESIGN.md names what src/ does not define: {missing:?}"
    );
}

/// The `Rules` methods DESIGN.md lists are the trait's, and the trait
/// stays small: thirteen methods (legality, the game's end, and what
/// callers outside the rules may ask instead of the capability's flags).
#[test]
fn the_rules_methods_design_md_lists_are_the_traits() {
    let source = fs::read_to_string(root().join("src/variant/mod.rs")).unwrap();
    let body = &source[source.find("pub trait Rules").expect("the trait")..];
    let body = &body[..body.find("\n}\n").expect("its end")];
    let trait_methods: BTreeSet<&str> = body
        .match_indices("    fn ")
        .map(|(i, m)| {
            let rest = &body[i + m.len()..];
            &rest[..rest.find(['(', '<']).unwrap()]
        })
        .collect();
    assert!(trait_methods.len() <= 13, "{trait_methods:?}");
    let text = design();
    let start = text
        .find("- `Rules` (`variant/mod.rs`)")
        .expect("the Rules paragraph");
    let para = &text[start..start + text[start..].find(". What a").unwrap()];
    let listed: BTreeSet<&str> = quoted(para)
        .into_iter()
        .filter(|q| q.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        .collect();
    assert_eq!(listed, trait_methods);
}

/// Every test file beside `tests/suite.rs` (a `.rs` file, or a folder with
/// a `mod.rs`) is one of its modules: with one test binary, a file left
/// out would never be built or run.
#[test]
fn every_test_file_is_in_the_suite() {
    let tests = root().join("tests");
    let suite = fs::read_to_string(tests.join("suite.rs")).unwrap();
    let declared: BTreeSet<&str> = suite
        .lines()
        .filter_map(|l| l.strip_prefix("mod ")?.strip_suffix(';'))
        .collect();
    let mut missing = Vec::new();
    for entry in fs::read_dir(&tests).unwrap() {
        let p = entry.unwrap().path();
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        let module = if p.is_dir() {
            p.join("mod.rs").exists()
        } else {
            p.extension().is_some_and(|e| e == "rs") && name != "suite"
        };
        if module && !declared.contains(name.as_str()) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "tests/suite.rs lacks `mod` for: {missing:?}"
    );
}

/// Every module under `src/` is in DESIGN.md's layer table: named there
/// (`record/lane`, `notation/{san,fen}`; a folder's `mod.rs` with the
/// modules it holds), or inside a folder the table names whole
/// (`variant/chess/`, `cli/*`). Test modules
/// (`tests.rs`, files under a `tests/` folder) and the crate roots are
/// left out.
#[test]
fn every_module_is_in_the_layer_table() {
    let text = design();
    let mut named = BTreeSet::new();
    for row in text.lines().filter(|l| {
        l.strip_prefix("| ")
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
    }) {
        let modules = row.split(" | ").nth(2).expect("a modules column");
        for spec in quoted(modules) {
            named.extend(expand(spec));
        }
    }
    let covered = |module: &str| {
        named.iter().any(|n| {
            let n = n.trim_end_matches(".rs");
            if let Some(folder) = n.strip_suffix("/*").or_else(|| n.strip_suffix('/')) {
                module.starts_with(&format!("{folder}/")) || module == folder
            } else {
                // A folder's own `mod.rs` is where its modules are named.
                module == n || n.starts_with(&format!("{module}/"))
            }
        })
    };
    let src = root().join("src");
    let mut files = Vec::new();
    source_files(&src, &mut files);
    let mut missing = Vec::new();
    for file in files {
        let rel = file
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel == "lib.rs"
            || rel == "main.rs"
            || rel.ends_with("/tests.rs")
            || rel.contains("/tests/")
        {
            continue;
        }
        let module = rel
            .trim_end_matches(".rs")
            .trim_end_matches("/mod")
            .to_string();
        if !covered(&module) {
            missing.push(module);
        }
    }
    assert!(
        missing.is_empty(),
        "modules missing from doc/DESIGN.md's layer table: {missing:?}"
    );
}
