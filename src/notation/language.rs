//! Piece letters of other languages. FIDE's Laws (Handbook, Appendix C.3)
//! let each player write "the first letter of the name which is commonly
//! used in his country" (`F` for the French fou, `L` for the Dutch loper),
//! and printed scores in many countries do; the PGN standard (1994,
//! section 17, "Alternative chesspiece identifier letters") lists the
//! letters of seventeen languages, which this table follows. A score in
//! one of them is read by turning its letters into the English ones
//! before the move is parsed ([`Language::to_english`]); which language a
//! text is in is named (`--language`) or found from its letters
//! ([`detect`]).

use super::san::castle_prefix;
use std::borrow::Cow;

/// A language's piece letters.
#[derive(Debug, PartialEq, Eq)]
pub struct Language {
    /// Its name in English, lower case, as `--language` takes it.
    pub name: &'static str,
    /// The letters of the knight, bishop, rook, queen and king.
    pub letters: [char; 5],
}

/// The English letters, in the order of [`Language::letters`].
const ENGLISH: [char; 5] = ['N', 'B', 'R', 'Q', 'K'];

/// The PGN standard's table (section 17), knight to king.
pub const LANGUAGES: &[Language] = &[
    Language {
        name: "english",
        letters: ENGLISH,
    },
    Language {
        name: "czech",
        letters: ['J', 'S', 'V', 'D', 'K'],
    },
    Language {
        name: "danish",
        letters: ['S', 'L', 'T', 'D', 'K'],
    },
    Language {
        name: "dutch",
        letters: ['P', 'L', 'T', 'D', 'K'],
    },
    Language {
        name: "estonian",
        letters: ['R', 'O', 'V', 'L', 'K'],
    },
    Language {
        name: "finnish",
        letters: ['R', 'L', 'T', 'D', 'K'],
    },
    Language {
        name: "french",
        letters: ['C', 'F', 'T', 'D', 'R'],
    },
    Language {
        name: "german",
        letters: ['S', 'L', 'T', 'D', 'K'],
    },
    Language {
        name: "hungarian",
        letters: ['H', 'F', 'B', 'V', 'K'],
    },
    Language {
        name: "icelandic",
        letters: ['R', 'B', 'H', 'D', 'K'],
    },
    Language {
        name: "italian",
        letters: ['C', 'A', 'T', 'D', 'R'],
    },
    Language {
        name: "norwegian",
        letters: ['S', 'L', 'T', 'D', 'K'],
    },
    Language {
        name: "polish",
        letters: ['S', 'G', 'W', 'H', 'K'],
    },
    Language {
        name: "portuguese",
        letters: ['C', 'B', 'T', 'D', 'R'],
    },
    Language {
        name: "romanian",
        letters: ['C', 'N', 'T', 'D', 'R'],
    },
    Language {
        name: "spanish",
        letters: ['C', 'A', 'T', 'D', 'R'],
    },
    Language {
        name: "swedish",
        letters: ['S', 'L', 'T', 'D', 'K'],
    },
];

impl Language {
    /// The language of a name, in any case.
    pub fn named(name: &str) -> Option<&'static Language> {
        LANGUAGES.iter().find(|l| l.name.eq_ignore_ascii_case(name))
    }

    /// The English letter of one of this language's piece letters.
    fn english(&self, c: char) -> Option<char> {
        self.letters
            .iter()
            .position(|&l| l == c)
            .map(|i| ENGLISH[i])
    }

    /// A move written in this language, with English piece letters
    /// (`Sf3` in German is `Nf3`, `e8=D` is `e8=Q`); castling and every
    /// other character are left as written.
    pub fn to_english<'t>(&self, word: &'t str) -> Cow<'t, str> {
        if self.letters == ENGLISH || castle_prefix(word).is_some() {
            return Cow::Borrowed(word);
        }
        Cow::Owned(
            word.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        self.english(c).unwrap_or(c)
                    } else {
                        c
                    }
                })
                .collect(),
        )
    }
}

/// Why the language of a text could not be told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ambiguous {
    /// The piece letters the text uses.
    pub letters: String,
    /// The languages whose letters fit them, and read them differently.
    pub languages: Vec<&'static str>,
}

impl std::fmt::Display for Ambiguous {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let letters: Vec<String> = self.letters.chars().map(String::from).collect();
        let (last, rest) = self.languages.split_last().unwrap_or((&"", &[]));
        write!(
            f,
            "the piece letters {} could be {} or {}, which read them differently; name the language with --language",
            letters.join(", "),
            rest.join(", "),
            last
        )
    }
}

/// The piece letter a move-like word starts with or promotes to: an
/// upper-case letter followed by a square (`Sf3`, `Lxb5+`, `Tad1`,
/// `S1d2`), or `=X` after a square (`e8=D`).
fn piece_letters_of(word: &str, into: &mut Vec<char>) {
    let b = word.as_bytes();
    if b.len() >= 3 && b[0].is_ascii_uppercase() {
        let rest = &word[1..];
        let rest = rest.trim_start_matches(|c: char| c.is_ascii_lowercase() && c != 'x');
        let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
        let rest = rest.trim_start_matches(['x', ':', '-']);
        let square = rest.as_bytes();
        let named = square.len() >= 2
            && (b'a'..=b'h').contains(&square[0])
            && (b'1'..=b'8').contains(&square[1]);
        // `Sf3` and `S1d2`, but not a word such as `Fine` or `Black`.
        if named || (b.len() == 3 && (b'a'..=b'h').contains(&b[1]) && (b'1'..=b'8').contains(&b[2]))
        {
            into.push(b[0] as char);
        }
    }
    if let Some(i) = word.find('=') {
        if let Some(c) = word[i + 1..]
            .chars()
            .next()
            .filter(char::is_ascii_uppercase)
        {
            if i >= 2 {
                into.push(c);
            }
        }
    }
}

/// The language of a chess score's piece letters, from its words: `None`
/// when they are English (or fit no language: the moves are then read,
/// and refused, as written), the language when they fit only languages
/// that read them alike, and an error when they fit languages that read
/// them differently.
pub fn detect<'w>(
    words: impl IntoIterator<Item = &'w str>,
) -> Result<Option<&'static Language>, Ambiguous> {
    let mut used = Vec::new();
    for w in words {
        piece_letters_of(w, &mut used);
    }
    used.sort_unstable();
    used.dedup();
    if used.iter().all(|c| ENGLISH.contains(c)) {
        return Ok(None);
    }
    let fits: Vec<&'static Language> = LANGUAGES
        .iter()
        .filter(|l| used.iter().all(|c| l.letters.contains(c)))
        .collect();
    let Some(first) = fits.first() else {
        return Ok(None);
    };
    let alike = fits
        .iter()
        .all(|l| used.iter().all(|&c| l.english(c) == first.english(c)));
    if alike {
        Ok(Some(first))
    } else {
        Err(Ambiguous {
            letters: used.iter().collect(),
            languages: fits.iter().map(|l| l.name).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_turn_into_english() {
        let german = Language::named("German").unwrap();
        assert_eq!(german.to_english("Sxf3+"), "Nxf3+");
        assert_eq!(german.to_english("e8=D"), "e8=Q");
        assert_eq!(german.to_english("Tad1"), "Rad1");
        assert_eq!(german.to_english("O-O-O"), "O-O-O");
        let french = Language::named("french").unwrap();
        assert_eq!(french.to_english("Rxe2"), "Kxe2");
        assert_eq!(french.to_english("Fb5"), "Bb5");
    }

    #[test]
    fn languages_are_found_from_the_letters_or_called_ambiguous() {
        let words = |t: &'static str| t.split_whitespace().collect::<Vec<_>>();
        assert_eq!(detect(words("1. e4 e5 2. Nf3 Nc6 3. Bb5")), Ok(None));
        // German, Danish, Norwegian and Swedish read S L T D K alike.
        let found = detect(words("1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. Dxd8 Txd8")).unwrap();
        assert_eq!(found.map(|l| l.letters), Some(['S', 'L', 'T', 'D', 'K']));
        assert_eq!(
            detect(words("1. e4 e5 2. Cf3 Cc6 3. Fb5"))
                .unwrap()
                .map(|l| l.name),
            Some("french")
        );
        // S and D alone: a German knight and queen, or a Czech bishop and
        // queen.
        let err = detect(words("1. e4 e5 2. Sf3 Dh4")).unwrap_err();
        assert!(err.languages.contains(&"czech") && err.languages.contains(&"german"));
        // Prose is not read as moves.
        assert_eq!(detect(words("Fine play by Black in Dresden")), Ok(None));
    }
}
