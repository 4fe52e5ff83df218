//! The command block of a reply (design §3.6). Read top down:
//!
//! 1. Stop at a signature (`-- `, `__`), a mobile footer ("Sent from my
//!    ..."), an unquoted header block (`From:` then `Sent:`/`To:`/`Date:`/
//!    `Subject:`, as Outlook quotes, in eight languages: `Von:`/`Gesendet:`,
//!    `De :`/`Envoyé :`, `Od:`/`Wysłane:`, ...), a separator (`-----Original
//!    Message-----`, `-----Ursprüngliche Nachricht-----`, any such line),
//!    or postal's marker line when it is not quoted.
//! 2. Skip quoted lines (`>`) and attribution lines ("On ... wrote:", "Le
//!    ... a écrit :", "Am ... schrieb ...:", "El ... escribió:", "Il ... ha
//!    scritto:", "Op ... schreef ...:", "Em ... escreveu:", "... napisał(a):",
//!    also wrapped over two lines), and go on: so a bottom-posted reply,
//!    below the quote, is read too.
//! 3. The first lines that are left, up to a blank line, are the command
//!    block; later lines up to the stop are the comment to the opponent.
//!
//! Text is normalised first: U+00A0 and other spaces become spaces, zero
//! width characters go, `…` becomes `...`, CRLF becomes LF.

/// The first line of every notice; replies are written above it.
pub const MARKER: &str = "-- postal: write your answer above this line --";
const MARKER_CORE: &str = "write your answer above this line";
pub use crate::limits::MAX_COMMENT;
use crate::limits::{cut_bytes, cut_chars, MAX_COMMAND_LINES, MAX_REPLY_LINE, MAX_REPLY_TEXT};

/// What a reply says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// The command lines, trimmed.
    pub commands: Vec<String>,
    /// The comment to the opponent, trimmed (empty when none).
    pub comment: String,
    /// Whether some of what the sender wrote above the quote was cut: a
    /// line or the comment longer than the referee keeps
    /// ([`crate::limits`]). (Text past [`MAX_REPLY_TEXT`] is not read.)
    pub cut: bool,
}

/// The comment a reply stores and passes on: the lines of its command
/// block that are not commands, then its comment, together at most
/// [`MAX_COMMENT`] characters; whether it was cut.
pub fn comment_of(block_lines: &[String], reply: &Reply) -> (String, bool) {
    let mut comment = block_lines.join("\n");
    if !reply.comment.is_empty() {
        if !comment.is_empty() {
            comment.push_str("\n\n");
        }
        comment.push_str(&reply.comment);
    }
    let (kept, cut) = cut_chars(&comment, MAX_COMMENT);
    (kept.trim_end().to_string(), cut || reply.cut)
}

/// Normalises a body's text.
pub fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\r' => {}
            '\u{a0}' | '\u{2007}' | '\u{202f}' | '\u{2002}' | '\u{2003}' | '\u{2009}' | '\t' => {
                out.push(' ')
            }
            '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' | '\u{feff}' => {}
            '\u{2026}' => out.push_str("..."),
            c if c.is_control() && c != '\n' => {}
            c => out.push(c),
        }
    }
    out
}

fn is_signature(line: &str) -> bool {
    let t = line.trim();
    line.trim_end_matches(' ') == "--"
        || line == "-- "
        || (t.len() >= 2 && t.chars().all(|c| c == '_'))
}

/// Outlook's separator above its copy of the original, in any language:
/// `-----Original Message-----`, `-----Ursprüngliche Nachricht-----`,
/// `-----Message d'origine-----`, `-----Mensaje original-----`,
/// `-----Messaggio originale-----`, `-----Oorspronkelijk bericht-----`,
/// `-----Mensagem original-----`, `-----Oryginalna wiadomość-----`.
fn is_separator(line: &str) -> bool {
    let t = line.trim();
    let inner = t.trim_start_matches('-').trim_end_matches('-');
    t.starts_with("----")
        && t.ends_with("----")
        && inner.chars().any(char::is_alphabetic)
        && inner.len() < 60
}

const FOOTERS: [&str; 14] = [
    "sent from my ",
    "sent from mail for windows",
    "sent from yahoo mail",
    "sent from outlook",
    "sent from proton mail",
    "sent with proton mail",
    "get outlook for ",
    "envoyé de mon ",
    "von meinem ",
    "gesendet von ",
    "enviado desde mi ",
    "inviato da ",
    "verzonden vanaf ",
    "wysłane z ",
];

fn is_footer(line: &str) -> bool {
    let t = line.trim().to_lowercase();
    FOOTERS.iter().any(|f| t.starts_with(f))
}

/// The name of a header-like line (`From:`, `*From:*`, `De :`), lower case.
fn header_name(line: &str) -> Option<String> {
    let (name, _) = line.trim().split_once(':')?;
    let name = name
        .trim_start_matches('*')
        .trim_end_matches('*')
        .trim()
        .to_lowercase();
    (!name.is_empty() && name.chars().count() < 20 && !name.contains(' ')).then_some(name)
}

/// `From` in Outlook's header block, in English, German, French,
/// Spanish, Portuguese, Italian, Dutch and Polish.
const FROM: [&str; 6] = ["from", "von", "de", "da", "van", "od"];
/// The other fields of the block, in the same languages.
const FIELDS: [&str; 27] = [
    "sent",
    "to",
    "date",
    "subject",
    "cc", // en
    "gesendet",
    "an",
    "betreff",
    "datum", // de
    "envoyé",
    "à",
    "objet", // fr
    "enviado",
    "enviada",
    "para",
    "asunto",
    "fecha",
    "assunto", // es, pt
    "inviato",
    "a",
    "oggetto",
    "data", // it, pl
    "verzonden",
    "aan",
    "onderwerp", // nl
    "wysłane",
    "temat", // pl
];

/// An unquoted header block: a `From:` line followed by another field
/// (Outlook: `From:`, `Sent:`, ...), or a field, a `From:` line and a field
/// (GMX and web.de: `Gesendet: Freitag, 4. Dezember 2026 um 13:29 Uhr`,
/// `Von:`, `An:`, `Betreff:`).
fn is_header_block(lines: &[&str], i: usize) -> bool {
    let name = |at: usize| lines.get(at).and_then(|l| header_name(l));
    let is_from = |at: usize| name(at).is_some_and(|n| FROM.contains(&n.as_str()));
    let is_field = |at: usize| name(at).is_some_and(|n| FIELDS.contains(&n.as_str()) || n == "do");
    (is_from(i) && is_field(i + 1)) || (is_field(i) && is_from(i + 1) && is_field(i + 2))
}

/// The words of a sensitivity label's banner, as Microsoft Purview and
/// company policies put them above a reply (`[AMD Official Use Only -
/// General]`, `General`, `Internal`, `Classification: Public`).
const LABEL_WORDS: [&str; 22] = [
    "general",
    "internal",
    "public",
    "confidential",
    "restricted",
    "official",
    "sensitive",
    "unclassified",
    "personal",
    "business",
    "highly",
    "use",
    "only",
    "non",
    "classification",
    "sensitivity",
    "external",
    "limited",
    "distribution",
    "label",
    "for",
    "and",
];

/// A classification banner above a reply: a line in brackets naming a
/// label (`[AMD Official Use Only - General]`, any company's name in it),
/// or a line of label words alone (`General`, `Internal Use Only`).
fn is_banner(line: &str) -> bool {
    let t = line.trim().trim_matches('*').trim();
    let (bracketed, inner) = match t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        Some(inner) => (true, inner),
        None => (false, t),
    };
    let words: Vec<String> = inner
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    if words.is_empty() || words.len() > 10 {
        return false;
    }
    let label = |w: &String| LABEL_WORDS.contains(&w.as_str());
    let named = words.iter().any(|w| {
        [
            "general",
            "internal",
            "public",
            "confidential",
            "restricted",
            "official",
        ]
        .contains(&w.as_str())
    });
    named && (bracketed || words.iter().all(label))
}

/// The verbs of an attribution ("On ... Ana wrote:"), as Gmail, Apple
/// Mail and Thunderbird write them in English, French, German, Spanish,
/// Italian, Dutch, Portuguese and Polish.
const WROTE: [&str; 10] = [
    "wrote",
    "a écrit",
    "schrieb",
    "escribió",
    "ha scritto",
    "schreef",
    "escreveu",
    "napisał",
    "skrev",
    "kirjoitti",
];

fn is_attribution(line: &str) -> bool {
    let lower = line.trim().to_lowercase();
    lower.ends_with(':') && WROTE.iter().any(|w| lower.contains(w))
}

/// An attribution wrapped over two lines (Gmail wraps at 78 characters:
/// `On Tue, Dec 1, 2026 at 9:00 AM Postal <` then `postal@example.org>
/// wrote:`; `Am Di., 1. Dez. 2026 um 09:00 Uhr schrieb Postal <` then
/// `postal@example.org>:`): the first line opens as an attribution does,
/// or holds a year, and the two end as one.
fn is_wrapped_attribution(lines: &[&str], i: usize) -> bool {
    const OPENERS: [&str; 9] = [
        "on ", "le ", "am ", "el ", "il ", "op ", "em ", "w dniu ", "den ",
    ];
    let Some(next) = lines.get(i + 1) else {
        return false;
    };
    let lower = lines[i].trim().to_lowercase();
    let opens = OPENERS.iter().any(|o| lower.starts_with(o))
        || lower
            .split(|c: char| !c.is_ascii_digit())
            .any(|d| d.len() == 4 && (d.starts_with("19") || d.starts_with("20")));
    opens
        && !is_attribution(lines[i])
        && !is_quote(next)
        && next.trim().ends_with(':')
        && is_attribution(&format!("{} {}", lines[i].trim(), next.trim()))
}

fn is_quote(line: &str) -> bool {
    line.trim_start().starts_with('>')
}

/// Reads a reply's command block and comment.
pub fn extract(text: &str) -> Reply {
    let text = normalise(cut_bytes(text, MAX_REPLY_TEXT));
    let mut cut = false;
    let lines: Vec<&str> = text.lines().collect();
    let mut commands: Vec<String> = Vec::new();
    let mut comment: Vec<&str> = Vec::new();
    let mut comment_chars = 0;
    let mut in_block = false;
    let mut block_done = false;
    let mut skip_next = false;
    for (i, line) in lines.iter().enumerate() {
        if std::mem::take(&mut skip_next) {
            continue;
        }
        let quoted = is_quote(line);
        if !quoted
            && (line.contains(MARKER_CORE)
                || is_signature(line)
                || is_separator(line)
                || is_footer(line)
                || is_header_block(&lines, i))
        {
            break;
        }
        let wrapped = !quoted && is_wrapped_attribution(&lines, i);
        skip_next = wrapped;
        if quoted || wrapped || is_attribution(line) {
            if in_block {
                block_done = true;
            }
            continue;
        }
        let t = line.trim();
        if !in_block && is_banner(t) {
            continue;
        }
        if !block_done {
            if t.is_empty() {
                if in_block {
                    block_done = true;
                }
                continue;
            }
            in_block = true;
            let (t, long) = cut_chars(t, MAX_REPLY_LINE);
            cut |= long;
            commands.push(t.trim_end().to_string());
            if commands.len() == MAX_COMMAND_LINES {
                block_done = true;
            }
        } else if comment_chars <= MAX_COMMENT {
            // Lines past the longest comment kept are not gathered.
            comment_chars += line.len() + 1;
            comment.push(line.trim_end());
        } else {
            cut = true;
        }
    }
    let comment = comment.join("\n");
    let (kept, long) = cut_chars(comment.trim(), MAX_COMMENT);
    Reply {
        commands,
        comment: kept.trim_end().to_string(),
        cut: cut || long,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmds(text: &str) -> Vec<String> {
        extract(text).commands
    }

    #[test]
    fn top_posted_with_quote_and_signature() {
        let r = extract(
            "e5\n\nThanks, nice opening.\n\n-- \nBen\n\nOn Tue, 1 Dec 2026, postal wrote:\n> -- postal: write your answer above this line --\n> Your move\n",
        );
        assert_eq!(r.commands, vec!["e5"]);
        assert_eq!(r.comment, "Thanks, nice opening.");
    }

    #[test]
    fn bottom_posted_and_mobile() {
        let t = "On Tue, 1 Dec 2026 at 09:00, postal <postal@x.org> wrote:\n> -- postal: write your answer above this line --\n> Your move, Ben\n\nNf6\ndraw offer\n\nSent from my iPhone\n";
        assert_eq!(cmds(t), vec!["Nf6", "draw offer"]);
    }

    #[test]
    fn reply_headers_in_eight_languages() {
        let heads = [
            "On Tue, Dec 1, 2026 at 9:00 AM Postal Referee <\npostal@example.org> wrote:",
            "Le mar. 1 déc. 2026 à 09:00, Postal Referee <postal@example.org> a écrit :",
            "Am Di., 1. Dez. 2026 um 09:00 Uhr schrieb Postal Referee <\npostal@example.org>:",
            "El mar, 1 dic 2026 a las 9:00, Postal Referee (<postal@example.org>)\nescribió:",
            "Il giorno mar 1 dic 2026 alle ore 09:00 Postal Referee <\npostal@example.org> ha scritto:",
            "Op di 1 dec 2026 om 09:00 schreef Postal Referee <postal@example.org>:",
            "Em ter., 1 de dez. de 2026 às 09:00, Postal Referee <\npostal@example.org> escreveu:",
            "wt., 1 gru 2026 o 09:00 Postal Referee <postal@example.org> napisał(a):",
            "-----Original Message-----\nFrom: Postal",
            "-----Ursprüngliche Nachricht-----\nVon: Postal",
            "-----Message d'origine-----\nDe : Postal",
            "-----Mensaje original-----\nDe: Postal",
            "-----Messaggio originale-----\nDa: Postal",
            "-----Oorspronkelijk bericht-----\nVan: Postal",
            "-----Mensagem original-----\nDe: Postal",
            "-----Oryginalna wiadomość-----\nOd: Postal",
            "De : Postal Referee <postal@example.org>\nEnvoyé : mardi 1 décembre 2026 09:00",
            "Von: Postal Referee <postal@example.org>\nGesendet: Dienstag, 1. Dezember 2026 09:00",
            "De: Postal Referee <postal@example.org>\nEnviado: martes, 1 de diciembre de 2026 9:00",
            "Da: Postal Referee <postal@example.org>\nInviato: martedì 1 dicembre 2026 09:00",
            "Van: Postal Referee <postal@example.org>\nVerzonden: dinsdag 1 december 2026 09:00",
            "De: Postal Referee <postal@example.org>\nEnviada: terça-feira, 1 de dezembro de 2026 09:00",
            "Od: Postal Referee <postal@example.org>\nWysłane: wtorek, 1 grudnia 2026 09:00",
        ];
        for head in heads {
            let t = format!("e4\n\nGood luck!\n\n{head}\n\n> -- postal: write your answer above this line --\n> Your move\n");
            let r = extract(&t);
            assert_eq!(r.commands, vec!["e4"], "{head}");
            assert_eq!(r.comment, "Good luck!", "{head}");
        }
    }

    #[test]
    fn html_converted_outlook_and_nbsp() {
        // An HTML reply converted to text: no quote marks, the marker unquoted.
        let t =
            "12.\u{a0}Nf6\u{200b}\n\n-- postal: write your answer above this line --\nYour move\n";
        assert_eq!(cmds(t), vec!["12. Nf6"]);
        let outlook = "12\u{2026} Nf6\r\n\r\nFrom: postal <postal@x.org>\r\nSent: Tuesday\r\nTo: Ben\r\n-- postal: write";
        assert_eq!(cmds(outlook), vec!["12... Nf6"]);
        assert_eq!(cmds("Get Outlook for Android"), Vec::<String>::new());
        assert_eq!(cmds("--\nresign"), Vec::<String>::new());
    }

    #[test]
    fn gmx_header_blocks_and_classification_banners() {
        let gmx = "e4\n\nSchöne Eröffnung!\n\nGesendet: Freitag, 4. Dezember 2026 um 13:29 Uhr\nVon: \"Postal\" <postal@example.org>\nAn: ana@example.org\nBetreff: [postal]\n\n-- postal: write";
        let r = extract(gmx);
        assert_eq!(r.commands, vec!["e4"]);
        assert_eq!(r.comment, "Schöne Eröffnung!");
        for banner in [
            "[AMD Official Use Only - General]",
            "General",
            "Internal",
            "[Public]",
            "Classification: Internal",
            "*Internal Use Only*",
        ] {
            let r = extract(&format!("{banner}\n\n1... e5\n\nBest,\nBen"));
            assert_eq!(r.commands, vec!["1... e5"], "{banner}");
            assert_eq!(r.comment, "Best,\nBen", "{banner}");
        }
        // A comment after the move that happens to say "General" is kept.
        assert_eq!(extract("e4\nGeneral\n").commands, vec!["e4", "General"]);
    }

    #[test]
    fn long_replies_are_read_to_their_limits() {
        let many = "e4\n".to_string() + &"x\n".repeat(5000);
        let r = extract(&many);
        assert_eq!(r.commands.len(), MAX_COMMAND_LINES);
        assert!(r.comment.chars().count() <= MAX_COMMENT && r.cut);
        let wide = "y".repeat(5000);
        let r = extract(&wide);
        assert_eq!(r.commands[0].chars().count(), MAX_REPLY_LINE);
        assert!(r.cut);
        let block: Vec<String> = vec!["z".repeat(1500), "w".repeat(1500)];
        let (c, cut) = comment_of(&block, &Reply::default());
        assert!(cut && c.chars().count() == MAX_COMMENT);
    }
}
