//! The `moves` array of a state file, read and written directly.
//!
//! A state file is mostly its moves: a 300-ply game is 30 KB, of which the
//! rest is half a kilobyte. Read and written through serde's general JSON
//! machinery, the moves were most of the instructions of a `postal move`
//! on a long game. Here they are read and written by hand, for the form
//! they take, and serde remains the definition:
//!
//! - [`write`] writes the array byte for byte as `serde_json`'s pretty
//!   printer does (a test compares the two on every kind of text).
//! - [`find`] reads the array only when it is written plainly: every
//!   record an object of the keys `played`, `canonical`, `time`, and
//!   `comment` and `via` at most once each, the strings without `\u`
//!   escapes, the time in the form postal writes
//!   (`2025-03-01T09:00:00Z`). Anything else, well formed or not, gives
//!   `None`, and the caller reads the whole text with serde, which reads
//!   it or says where it is wrong. So a file reads to the same game, or
//!   is refused with the same error, either way (a test edits files a
//!   character at a time and compares).

use super::clock::time::{self, plain_text, plain_utc};
use super::file::MoveRecord;

/// Where the top-level `moves` array of a state file's text is, and its
/// moves: `(moves, start, end)` with `text[start..end]` the array, `[`
/// to `]`. `None` when the text has no such key where this reader looks
/// for it, or its moves are not written plainly (see the module text).
/// `room` is the vector's first capacity.
pub(super) fn find(text: &str, room: usize) -> Option<(Vec<MoveRecord>, usize, usize)> {
    let start = moves_key_value(text)?;
    let mut r = Reader::new(text, start);
    let moves = r.array(room)?;
    Some((moves, start, r.i))
}

/// The offset of the value of the top-level object's first `moves` key.
/// The values before it are skipped by their brackets and strings alone:
/// serde reads them afterwards, in the same text, and refuses them there
/// if they are not JSON.
fn moves_key_value(text: &str) -> Option<usize> {
    let mut r = Reader::new(text, 0);
    r.ws();
    r.eat(b'{')?;
    loop {
        if r.key()? == b"moves" {
            return Some(r.i);
        }
        r.skip_value()?;
        r.ws();
        r.eat(b',')?;
    }
}

struct Reader<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str, i: usize) -> Reader<'a> {
        Reader {
            text,
            b: text.as_bytes(),
            i,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// The text from the reader on.
    fn rest(&self) -> &'a [u8] {
        let b: &'a [u8] = self.b;
        &b[self.i.min(b.len())..]
    }

    /// JSON's white space: space, tab, line feed, carriage return.
    fn ws(&mut self) {
        let rest = self.rest();
        self.i += rest
            .iter()
            .position(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
            .unwrap_or(rest.len());
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// Past the characters of a string that stand for themselves: to its
    /// end, an escape, or a control character (which a string may not
    /// hold).
    fn plain_run(&mut self) {
        let rest = self.rest();
        self.i += rest
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
            .unwrap_or(rest.len());
    }

    /// A string with no escape in it, as its bytes.
    fn string_raw(&mut self) -> Option<&'a [u8]> {
        self.eat(b'"')?;
        let from = self.i;
        self.plain_run();
        self.eat(b'"')?;
        let b: &'a [u8] = self.b;
        Some(&b[from..self.i - 1])
    }

    /// An object's key without escapes, and its colon, white space around.
    fn key(&mut self) -> Option<&'a [u8]> {
        self.ws();
        let key = self.string_raw()?;
        self.ws();
        self.eat(b':')?;
        self.ws();
        Some(key)
    }

    /// Past `literal` when the text goes on with it.
    fn literal(&mut self, literal: &[u8]) -> Option<()> {
        self.rest()
            .starts_with(literal)
            .then(|| self.i += literal.len())
    }

    /// The rest of a string whose opening quote is read, and its closing
    /// one, when it has no escape: copied as it stands. `None` leaves the
    /// reader at what stopped it (an escape, a control character, the
    /// text's end).
    fn plain_tail(&mut self) -> Option<String> {
        let from = self.i;
        self.plain_run();
        self.eat(b'"')?;
        // The text was cut at ASCII bytes only.
        Some(self.text[from..self.i - 1].to_owned())
    }

    /// A string, its escapes but `\u` read.
    fn string(&mut self) -> Option<String> {
        self.eat(b'"')?;
        let from = self.i;
        // Most strings have no escape; the others are read on from the
        // first.
        if let Some(plain) = self.plain_tail() {
            return Some(plain);
        }
        let mut out = Vec::new();
        let mut from = from;
        loop {
            match self.peek()? {
                b'"' => break,
                b'\\' => {
                    out.extend_from_slice(&self.b[from..self.i]);
                    let c = *self.b.get(self.i + 1)?;
                    out.push(match c {
                        b'"' | b'\\' | b'/' => c,
                        b'b' => 0x08,
                        b'f' => 0x0c,
                        b'n' => b'\n',
                        b'r' => b'\r',
                        b't' => b'\t',
                        _ => return None,
                    });
                    self.i += 2;
                    from = self.i;
                }
                c if c < 0x20 => return None,
                _ => self.i += 1,
            }
        }
        out.extend_from_slice(&self.b[from..self.i]);
        self.i += 1;
        // The text is UTF-8 and it was cut at ASCII bytes only.
        String::from_utf8(out).ok()
    }

    /// Past one value, by its brackets and strings: to the first `,`,
    /// `}` or `]` outside them.
    fn skip_value(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            match self.peek()? {
                b'"' => {
                    self.i += 1;
                    loop {
                        match self.peek()? {
                            b'"' => break,
                            b'\\' => self.i += 2,
                            _ => self.i += 1,
                        }
                    }
                }
                b'{' | b'[' => depth += 1,
                b',' | b'}' | b']' if depth == 0 => return Some(()),
                b'}' | b']' => depth -= 1,
                _ => {}
            }
            self.i += 1;
        }
    }

    fn array(&mut self, room: usize) -> Option<Vec<MoveRecord>> {
        self.eat(b'[')?;
        let mut moves = Vec::with_capacity(room);
        self.ws();
        if self.eat(b']').is_some() {
            return Some(moves);
        }
        loop {
            moves.push(self.record()?);
            self.ws();
            match self.peek()? {
                b',' => {
                    self.i += 1;
                    self.ws();
                }
                b']' => {
                    self.i += 1;
                    return Some(moves);
                }
                _ => return None,
            }
        }
    }

    fn record(&mut self) -> Option<MoveRecord> {
        let at = self.i;
        self.record_as_written().or_else(|| {
            self.i = at;
            self.record_any()
        })
    }

    /// A record laid out as [`write`] writes one with neither comment nor
    /// via, its strings without escapes: the layout's fixed text matched
    /// whole, the values read between. It reads the same record as
    /// [`Reader::record_any`] would, which reads anything else.
    fn record_as_written(&mut self) -> Option<MoveRecord> {
        self.literal(PLAYED)?;
        self.eat(b'"')?;
        let played = self.plain_tail()?;
        self.literal(CANONICAL)?;
        self.eat(b'"')?;
        let canonical = self.plain_tail()?;
        self.literal(TIME)?;
        self.eat(b'"')?;
        let time = plain_utc(self.b.get(self.i..self.i + 20)?)?;
        self.i += 20;
        self.eat(b'"')?;
        self.literal(END)?;
        Some(MoveRecord {
            played,
            canonical,
            time,
            comment: None,
            via: None,
        })
    }

    /// A record in any layout.
    fn record_any(&mut self) -> Option<MoveRecord> {
        self.eat(b'{')?;
        let (mut played, mut canonical, mut time) = (None, None, None);
        let (mut comment, mut via) = (None, None);
        loop {
            let key = self.key()?;
            if key == b"time" {
                // Read where it stands, not copied: a plain time has no
                // escape (nor anything but ASCII digits and signs).
                if time.is_some() {
                    return None;
                }
                time = Some(plain_utc(self.string_raw()?)?);
            } else {
                let slot = match key {
                    b"played" => &mut played,
                    b"canonical" => &mut canonical,
                    b"comment" => &mut comment,
                    b"via" => &mut via,
                    _ => return None,
                };
                if slot.is_some() {
                    return None;
                }
                *slot = Some(match self.peek()? {
                    b'n' if key == b"comment" || key == b"via" => {
                        self.b.get(self.i..self.i + 4).filter(|w| w == b"null")?;
                        self.i += 4;
                        None
                    }
                    _ => Some(self.string()?),
                });
            }
            self.ws();
            match self.peek()? {
                b',' => self.i += 1,
                b'}' => {
                    self.i += 1;
                    break;
                }
                _ => return None,
            }
        }
        Some(MoveRecord {
            played: played??,
            canonical: canonical??,
            time: time?,
            comment: comment.flatten(),
            via: via.flatten(),
        })
    }
}

/// The fixed text of a record as [`write`] lays it out, around the values
/// of its keys; [`Reader::record_as_written`] matches the same.
const PLAYED: &[u8] = b"{\n      \"played\": ";
const CANONICAL: &[u8] = b",\n      \"canonical\": ";
const TIME: &[u8] = b",\n      \"time\": ";
const END: &[u8] = b"\n    }";

/// Writes `moves` as `serde_json::to_writer_pretty` writes the value of
/// the top-level key `moves`, one level in.
pub(super) fn write(out: &mut Vec<u8>, moves: &[MoveRecord]) {
    if moves.is_empty() {
        out.extend_from_slice(b"[]");
        return;
    }
    out.push(b'[');
    for (n, m) in moves.iter().enumerate() {
        if n > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"\n    ");
        out.extend_from_slice(PLAYED);
        string(out, &m.played);
        out.extend_from_slice(CANONICAL);
        string(out, &m.canonical);
        out.extend_from_slice(TIME);
        match plain_text(&m.time) {
            Some(t) => {
                out.push(b'"');
                out.extend_from_slice(&t);
                out.push(b'"');
            }
            // Any other time as the field's own writer writes it.
            None => time::serialize(&m.time, &mut serde_json::Serializer::new(&mut *out))
                .expect("a time serialises"),
        }
        for (key, value) in [(&b"comment"[..], &m.comment), (b"via", &m.via)] {
            if let Some(v) = value {
                out.extend_from_slice(b",\n      \"");
                out.extend_from_slice(key);
                out.extend_from_slice(b"\": ");
                string(out, v);
            }
        }
        out.extend_from_slice(END);
    }
    out.extend_from_slice(b"\n  ]");
}

/// A JSON string as `serde_json` writes it: `"` and `\` escaped, the
/// control characters as `\b \t \n \f \r` or `\u00XX`, all else as it is.
fn string(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    let mut rest = s.as_bytes();
    loop {
        let n = rest
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
            .unwrap_or(rest.len());
        out.extend_from_slice(&rest[..n]);
        let Some(&c) = rest.get(n) else { break };
        match c {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(c >> 4)]);
                out.push(HEX[usize::from(c & 0xf)]);
            }
        }
        rest = &rest[n + 1..];
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::super::file::{read_game_file, write_game_file, GameFile, MoveRecord};
    use chrono::{DateTime, Utc};

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
        }
    }

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

    /// Every character serde writes apart (the controls, `"`, `\`), and
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

    #[test]
    fn the_moves_are_written_as_serde_writes_them() {
        for f in files() {
            let mut serde = serde_json::to_vec_pretty(&f).unwrap();
            serde.push(b'\n');
            let mut ours = Vec::new();
            write_game_file(&mut ours, &f);
            assert_eq!(
                String::from_utf8(ours).unwrap(),
                String::from_utf8(serde).unwrap()
            );
        }
    }

    /// The reader's answer is serde's: the same file, or the same error.
    fn same_as_serde(text: &str) {
        let ours = read_game_file(text);
        let serde = serde_json::from_str::<GameFile>(text);
        match (&ours, &serde) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{text}"),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{text}"),
            _ => panic!("{text}\nours: {ours:?}\nserde: {serde:?}"),
        }
    }

    /// The records postal writes, strings plain and without comment or
    /// via, are each read by matching the layout (the fast path), not by
    /// the general reader.
    #[test]
    fn records_as_written_are_matched_whole() {
        let t = at("2025-03-01T10:00:00Z");
        let moves = vec![record("e4", "e4", t), record("Nf6", "Nf6+", t)];
        let mut out = Vec::new();
        super::write(&mut out, &moves);
        let text = String::from_utf8(out).unwrap();
        let mut r = super::Reader::new(&text, 0);
        r.eat(b'[').unwrap();
        for m in &moves {
            r.ws();
            assert_eq!(r.record_as_written().as_ref(), Some(m), "{text}");
            r.ws();
            r.eat(b',');
        }
        assert_eq!(r.peek(), Some(b']'));
    }

    #[test]
    fn a_file_reads_as_serde_reads_it() {
        for (n, f) in files().into_iter().enumerate() {
            let pretty = serde_json::to_string_pretty(&f).unwrap();
            let compact = serde_json::to_string(&f).unwrap();
            for text in [&pretty, &compact] {
                same_as_serde(text);
                assert_eq!(read_game_file(text).unwrap(), f);
            }
            // The moves are read by hand where they are plain: the last
            // file has `\u` escapes and times in fractions of a second.
            let found = super::find(&pretty, 0).map(|(m, _, _)| m);
            assert_eq!(found, (n < 2).then(|| f.moves.clone()), "file {n}");
        }
    }

    #[test]
    fn what_is_not_written_plainly_is_left_to_serde() {
        let t = at("2025-03-01T10:00:00Z");
        let mut m = record("e2-e4", "e4", t);
        m.comment = Some("as \"usual\"".into());
        let base = serde_json::to_string_pretty(&file(vec![m, record("e5", "e5", t)])).unwrap();
        assert!(super::find(&base, 0).is_some(), "the base is read by hand");
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
        for (from, to) in edits {
            assert!(base.contains(from), "{from}");
            same_as_serde(&base.replacen(from, to, 1));
        }
    }

    /// Every file one edit away from a good one (a character removed,
    /// doubled, or replaced by one that means something in JSON) reads as
    /// serde reads it.
    #[test]
    fn files_one_edit_from_a_good_one_read_as_serde_reads_them() {
        let t = at("2025-03-01T10:00:00Z");
        let mut m = record("e4", "e4", t);
        m.comment = Some("a \"b\"\n".into());
        let f = file(vec![m, record("e5", "e5", t)]);
        // And records as postal writes them (`Reader::record_as_written`).
        let plain = file(vec![record("e4", "e4", t), record("Nf6", "Nf6+", t)]);
        let bases = [
            serde_json::to_string_pretty(&f).unwrap(),
            serde_json::to_string(&f).unwrap(),
            serde_json::to_string_pretty(&plain).unwrap(),
        ];
        let marks = [
            "", "\"", "\\", ",", ":", "{", "}", "[", "]", " ", "\n", "\u{1}", "n", "0", "a", "T",
        ];
        for base in &bases {
            for (i, c) in base.char_indices() {
                let (head, tail) = (&base[..i], &base[i + c.len_utf8()..]);
                same_as_serde(&format!("{head}{c}{c}{tail}"));
                for mark in marks {
                    same_as_serde(&format!("{head}{mark}{tail}"));
                }
            }
        }
    }
}
