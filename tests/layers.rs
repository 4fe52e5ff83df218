//! The layer check (doc/DESIGN.md, "Layers"): every `crate::` and `super::`
//! path in `src/` points down the layer table below, or stays in its own
//! layer; a path up the table fails the test, naming the file, the line
//! and the arrow. Test modules (`#[cfg(test)]`) are left out: tests sit
//! above every layer. Keep this table and DESIGN.md's in step.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// The layers, bottom first, with the top-level modules of each. A module
/// may use its own layer and the ones before it.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "vocabulary",
        &[
            "square",
            "color",
            "piece",
            "mv",
            "error",
            "diagnostic",
            "limits",
            "files",
        ],
    ),
    ("geometry", &["board"]),
    ("movement", &["movement"]),
    ("rules", &["position", "movegen", "perft", "variant"]),
    ("notation", &["notation"]),
    ("records", &["record"]),
    ("game", &["game"]),
    ("output", &["render", "mail"]),
    ("referee", &["referee"]),
    ("cli", &["cli"]),
];

/// `Position`'s text methods, defined in `notation/mod.rs`: the rules
/// layer may not call them outside its tests (a method call names no
/// path, so the path check alone would not see it).
const TEXT_METHODS: &[&str] = &[
    ".to_text(",
    ".move_text(",
    ".parse_move(",
    "::from_text(",
    "Position::start(",
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, mods)| mods.contains(&module))
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rs_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file under `src/`: `notation/dialect/swap.rs` is
/// `["notation", "dialect", "swap"]`, `game/mod.rs` is `["game"]`.
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The code of a file without comments and without `#[cfg(test)]` items,
/// as (line number, line) pairs.
fn code_lines(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.trim() == "#[cfg(test)]" {
            // Skip the item: one line for a `use`, else up to its closing
            // brace at the item's own indentation (rustfmt's layout).
            let indent = line.len() - line.trim_start().len();
            let close = format!("{}}}", " ".repeat(indent));
            i += 1;
            // A `use` or a `mod name;` is one item up to its `;`.
            if lines.get(i).is_some_and(|l| {
                let l = without_visibility(l.trim_start());
                l.starts_with("use ") || (l.starts_with("mod ") && !l.contains('{'))
            }) {
                while i < lines.len() && !lines[i].trim_end().ends_with(';') {
                    i += 1;
                }
            } else {
                while i < lines.len() && lines[i].trim_end() != close {
                    i += 1;
                }
            }
            i += 1;
            continue;
        }
        let code = match line.find("//") {
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        };
        if !code.trim().is_empty() {
            out.push((i + 1, code.to_string()));
        }
        i += 1;
    }
    out
}

/// An item's text after its visibility (`pub`, `pub(crate)`, ...).
fn without_visibility(item: &str) -> &str {
    let Some(rest) = item.strip_prefix("pub") else {
        return item;
    };
    let rest = match rest.strip_prefix('(') {
        Some(r) => match r.find(')') {
            Some(end) => &r[end + 1..],
            None => return item,
        },
        None => rest,
    };
    match rest.strip_prefix(' ') {
        Some(r) => r.trim_start(),
        None => item,
    }
}

/// The files of the modules a file declares test-only (`#[cfg(test)]`
/// then `mod name;`): `name.rs` or `name/mod.rs` beside a `mod.rs`, under
/// a folder named after any other file. Their code is a test, as an inline
/// `#[cfg(test)] mod tests { .. }` is.
fn test_module_files(file: &Path, text: &str) -> Vec<PathBuf> {
    let dir = if file.file_name().is_some_and(|n| n == "mod.rs") {
        file.parent().unwrap().to_path_buf()
    } else {
        file.with_extension("")
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for w in lines.windows(2) {
        if w[0].trim() != "#[cfg(test)]" {
            continue;
        }
        let Some(name) = without_visibility(w[1].trim())
            .strip_prefix("mod ")
            .and_then(|r| r.strip_suffix(';'))
        else {
            continue;
        };
        out.push(dir.join(format!("{name}.rs")));
        out.push(dir.join(name).join("mod.rs"));
    }
    out
}

/// The names `pub use` re-exports at the crate root, with their module:
/// `crate::Position` is `position`'s.
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for line in lib.lines() {
        let Some(rest) = line.trim().strip_prefix("pub use ") else {
            continue;
        };
        let rest = rest.trim_end_matches(';');
        let Some((module, names)) = rest.split_once("::") else {
            continue;
        };
        let names = names.trim_start_matches('{').trim_end_matches('}');
        for name in names.split(',') {
            let name = name.trim().rsplit("::").next().unwrap().trim();
            if !name.is_empty() {
                map.insert(name.to_string(), module.to_string());
            }
        }
    }
    map
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The top-level modules a line's paths name: `crate::a::..`,
/// `crate::{a::.., b}`, and `super::` paths resolved from `module`.
fn targets(line: &str, module: &[String], roots: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    let bytes: Vec<char> = line.chars().collect();
    let text: String = bytes.iter().collect();
    let mut push = |name: &str| {
        let top = roots.get(name).cloned().unwrap_or_else(|| name.to_string());
        out.push(top);
    };
    // crate::...
    let mut from = 0;
    while let Some(at) = text[from..].find("crate::") {
        let start = from + at;
        from = start + "crate::".len();
        if start > 0 && is_ident(bytes[start - 1]) {
            continue; // `postal_crate::`, not ours
        }
        let rest = &text[from..];
        if let Some(group) = rest.strip_prefix('{') {
            // The group's items at brace depth 0, each by its first name.
            let mut depth = 0;
            let mut item = String::new();
            let mut items = Vec::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => items.push(std::mem::take(&mut item)),
                    c if depth == 0 => item.push(c),
                    _ => {}
                }
            }
            items.push(item);
            for item in items {
                let name: String = item.trim().chars().take_while(|&c| is_ident(c)).collect();
                if !name.is_empty() {
                    push(&name);
                }
            }
        } else {
            let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
            if !name.is_empty() {
                push(&name);
            }
        }
    }
    // super::...: from a file `a/b/c.rs` (module a::b::c), `super` is a::b.
    let mut from = 0;
    while let Some(at) = text[from..].find("super::") {
        let start = from + at;
        if start > 0 && (is_ident(bytes[start - 1]) || bytes[start - 1] == ':') {
            from = start + 1;
            continue; // part of a longer path, counted from its head
        }
        let mut base: Vec<String> = module.to_vec();
        let mut rest = &text[start..];
        while let Some(r) = rest.strip_prefix("super::") {
            base.pop();
            rest = r;
        }
        from = text.len() - rest.len();
        let top = match base.first() {
            Some(top) => top.clone(),
            None => {
                let rest = rest.trim_start_matches('{');
                rest.chars().take_while(|&c| is_ident(c)).collect()
            }
        };
        if !top.is_empty() {
            push(&top);
        }
    }
    out
}

#[test]
fn every_import_points_down_the_layer_table() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let roots = root_reexports(&fs::read_to_string(src.join("lib.rs")).unwrap());
    let mut files = Vec::new();
    rs_files(&src, &mut files);
    files.sort();
    let tests: Vec<PathBuf> = files
        .iter()
        .flat_map(|f| test_module_files(f, &fs::read_to_string(f).unwrap()))
        .collect();
    files.retain(|f| !tests.contains(f));
    let mut against = Vec::new();
    let mut unplaced = Vec::new();
    let mut checked = 0;
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let module = module_path(rel);
        if module == ["lib"] || module == ["main"] {
            continue; // the root: declares and re-exports every layer
        }
        let Some(own) = layer_of(&module[0]) else {
            unplaced.push(format!(
                "src/{}: module {} is in no layer",
                rel.display(),
                module[0]
            ));
            continue;
        };
        let text = fs::read_to_string(file).unwrap();
        for (n, line) in code_lines(&text) {
            for target in targets(&line, &module, &roots) {
                checked += 1;
                match layer_of(&target) {
                    Some(l) if l <= own => {}
                    Some(l) => against.push(format!(
                        "src/{}:{n}: {} -> {} ({} uses {}): {}",
                        rel.display(),
                        LAYERS[own].0,
                        LAYERS[l].0,
                        module[0],
                        target,
                        line.trim()
                    )),
                    None if target == "self" || target == "crate" => {}
                    None => unplaced.push(format!(
                        "src/{}:{n}: path to {target}, which is in no layer",
                        rel.display()
                    )),
                }
            }
            if LAYERS[own].0 == "rules" || own < layer_of("notation").unwrap() {
                for m in TEXT_METHODS {
                    if line.contains(m) {
                        against.push(format!(
                            "src/{}:{n}: {} calls Position's text method {m}..) from notation: {}",
                            rel.display(),
                            LAYERS[own].0,
                            line.trim()
                        ));
                    }
                }
            }
        }
    }
    assert!(
        checked > 300,
        "only {checked} paths found: is the parser broken?"
    );
    assert!(
        unplaced.is_empty(),
        "modules missing from the layer table (tests/layers.rs and doc/DESIGN.md):\n{}",
        unplaced.join("\n")
    );
    assert!(
        against.is_empty(),
        "{} arrows against the layer table (doc/DESIGN.md, \"Layers\"):\n{}",
        against.len(),
        against.join("\n")
    );
}

#[test]
fn the_checker_sees_what_it_must() {
    // The parser itself: each form of path, and what it must skip.
    let roots = root_reexports("pub use position::{Effects, Position};\npub use variant::Variant;");
    let m = |s: &str| s.split("::").map(String::from).collect::<Vec<_>>();
    assert_eq!(
        targets(
            "use crate::notation::san::MoveText;",
            &m("variant::swap"),
            &roots
        ),
        ["notation"]
    );
    assert_eq!(
        targets(
            "use crate::{board::Board, Position, notation::{fen, san}};",
            &m("variant"),
            &roots
        ),
        ["board", "position", "notation"]
    );
    assert_eq!(
        targets(
            "    crate::notation::fen::read(v, t)",
            &m("position"),
            &roots
        ),
        ["notation"]
    );
    assert_eq!(
        targets(
            "use super::walk::Walker;",
            &m("variant::swap::text"),
            &roots
        ),
        ["variant"]
    );
    assert_eq!(
        targets("use super::GameError;", &m("game::state"), &roots),
        ["game"]
    );
    assert_eq!(
        targets(
            "use super::super::Rules;",
            &m("variant::corral::movegen"),
            &roots
        ),
        ["variant"]
    );
    assert!(targets("let x = my_crate::notation;", &m("variant"), &roots).is_empty());
    let code = code_lines(
        "use crate::board::Board; // crate::notation in a comment\n/// [`crate::notation`]\n#[cfg(test)]\nmod tests {\n    use crate::notation::fen;\n}\nfn f() {}\n",
    );
    let kept: Vec<&str> = code.iter().map(|(_, l)| l.trim()).collect();
    assert_eq!(kept, ["use crate::board::Board;", "fn f() {}"]);
    // A test module in a file of its own: one line skipped here, the
    // file skipped by its path.
    let code = code_lines("#[cfg(test)]\nmod tests;\nfn g() {}\n");
    let kept: Vec<&str> = code.iter().map(|(_, l)| l.trim()).collect();
    assert_eq!(kept, ["fn g() {}"]);
    // With a visibility too, and a `pub use`: still one line each.
    let code =
        code_lines("#[cfg(test)]\npub(crate) mod tests;\n#[cfg(test)]\npub use a::b;\nfn g() {}\n");
    let kept: Vec<&str> = code.iter().map(|(_, l)| l.trim()).collect();
    assert_eq!(kept, ["fn g() {}"]);
    assert_eq!(
        test_module_files(Path::new("src/a/b.rs"), "#[cfg(test)]\npub(crate) mod t;\n"),
        [Path::new("src/a/b/t.rs"), Path::new("src/a/b/t/mod.rs")]
    );
    assert_eq!(without_visibility("pub(in crate::a) mod x;"), "mod x;");
    assert_eq!(without_visibility("pubx mod x;"), "pubx mod x;");
    let bits = Path::new("src/variant/chess/bits/mod.rs");
    assert_eq!(
        test_module_files(bits, "mod attacks;\n#[cfg(test)]\nmod tests;\n"),
        [
            Path::new("src/variant/chess/bits/tests.rs"),
            Path::new("src/variant/chess/bits/tests/mod.rs")
        ]
    );
    assert_eq!(
        test_module_files(Path::new("src/a/b.rs"), "#[cfg(test)]\nmod t;\n"),
        [Path::new("src/a/b/t.rs"), Path::new("src/a/b/t/mod.rs")]
    );
    assert_eq!(layer_of("variant"), Some(3));
    assert!(layer_of("notation") > layer_of("perft"));
    assert!(layer_of("cli") > layer_of("render"));
}
