//! The layout of a variants.ini file, as Fairy-Stockfish reads it: lines
//! before the first `[` are skipped; a section opens with `[name]` or
//! `[name:parent]`; inside, a line starting with `#` or `;` is a comment,
//! an empty line is nothing, and `key = value` sets a key (spaces around
//! the key and before the value are dropped). Each piece keeps the line,
//! column and byte offset where it stands, for messages.

/// A place in the file: 1-based line and column (in characters), and the
/// byte offset of the line's start.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct At {
    pub line: usize,
    pub col: usize,
}

/// One `key = value` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: String,
    pub value: String,
    pub key_at: At,
    pub value_at: At,
}

/// A section: its name, its parent, its lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    pub name: String,
    pub parent: Option<String>,
    pub at: At,
    pub entries: Vec<Entry>,
    /// Lines inside the section that are neither comments nor `key = value`.
    pub stray: Vec<(At, String)>,
    /// The section's own text, header included, as written.
    pub text: String,
}

fn col_of(line: &str, byte: usize) -> usize {
    line[..byte].chars().count() + 1
}

/// Splits a file into sections.
pub fn sections(text: &str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    for (n, raw) in text.split('\n').enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let lineno = n + 1;
        if line.starts_with('[') {
            let (head, _) = line.split_once(']').unwrap_or((line, ""));
            let head = &head[1..];
            let (name, parent) = match head.split_once(':') {
                Some((a, b)) => (a.to_string(), Some(b.to_string())),
                None => (head.to_string(), None),
            };
            out.push(Section {
                name,
                parent,
                at: At {
                    line: lineno,
                    col: 2,
                },
                entries: Vec::new(),
                stray: Vec::new(),
                text: String::new(),
            });
        }
        let Some(section) = out.last_mut() else {
            continue;
        };
        section.text.push_str(line);
        section.text.push('\n');
        if line.starts_with('[') || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let Some(eq) = line.find('=') else {
            let start = line.len() - line.trim_start().len();
            section.stray.push((
                At {
                    line: lineno,
                    col: col_of(line, start),
                },
                line.to_string(),
            ));
            continue;
        };
        let key_part = &line[..eq];
        let key = key_part.trim_end();
        let key_start = key_part.len() - key_part.trim_start().len();
        let value_part = &line[eq + 1..];
        let value_start = eq + 1 + (value_part.len() - value_part.trim_start().len());
        if key.trim().is_empty() {
            continue;
        }
        section.entries.push(Entry {
            key: key.trim_start().to_string(),
            value: value_part.trim().to_string(),
            key_at: At {
                line: lineno,
                col: col_of(line, key_start),
            },
            value_at: At {
                line: lineno,
                col: col_of(line, value_start),
            },
        });
    }
    for s in &mut out {
        while s.text.ends_with("\n\n") {
            s.text.pop();
        }
    }
    out
}
