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
/// The longest comment kept.
pub const MAX_COMMENT: usize = 2000;

/// What a reply says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// The command lines, trimmed.
    pub commands: Vec<String>,
    /// The comment to the opponent, trimmed (empty when none).
    pub comment: String,
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

/// An unquoted `From:` line followed by another header-like line.
fn is_header_block(lines: &[&str], i: usize) -> bool {
    let first = header_name(lines[i]);
    if !first.as_deref().is_some_and(|n| FROM.contains(&n)) {
        return false;
    }
    lines
        .get(i + 1)
        .and_then(|l| header_name(l))
        .is_some_and(|n| FIELDS.contains(&n.as_str()) || n == "do")
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

/// The first line of an attribution wrapped over two lines (Gmail wraps
/// at 78 characters: `On Tue, Dec 1, 2026 at 9:00 AM Postal <` and then
/// `postal@example.org> wrote:`): it opens as an attribution does, or
/// holds a year, and the next line ends it.
fn starts_wrapped_attribution(lines: &[&str], i: usize) -> bool {
    const OPENERS: [&str; 8] = ["on ", "le ", "am ", "el ", "il ", "op ", "em ", "w dniu "];
    let lower = lines[i].trim().to_lowercase();
    let opens = OPENERS.iter().any(|o| lower.starts_with(o))
        || lower
            .split(|c: char| !c.is_ascii_digit())
            .any(|d| d.len() == 4 && (d.starts_with("19") || d.starts_with("20")));
    opens
        && !is_attribution(lines[i])
        && lines
            .get(i + 1)
            .is_some_and(|next| !is_quote(next) && is_attribution(next))
}

fn is_quote(line: &str) -> bool {
    line.trim_start().starts_with('>')
}

/// Reads a reply's command block and comment.
pub fn extract(text: &str) -> Reply {
    let text = normalise(text);
    let lines: Vec<&str> = text.lines().collect();
    let mut commands = Vec::new();
    let mut comment: Vec<&str> = Vec::new();
    let mut in_block = false;
    let mut block_done = false;
    for (i, line) in lines.iter().enumerate() {
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
        if quoted || is_attribution(line) || starts_wrapped_attribution(&lines, i) {
            if in_block {
                block_done = true;
            }
            continue;
        }
        let t = line.trim();
        if !block_done {
            if t.is_empty() {
                if in_block {
                    block_done = true;
                }
                continue;
            }
            in_block = true;
            commands.push(t.to_string());
        } else {
            comment.push(line.trim_end());
        }
    }
    let mut comment = comment.join("\n").trim().to_string();
    if comment.len() > MAX_COMMENT {
        let mut cut = MAX_COMMENT;
        while !comment.is_char_boundary(cut) {
            cut -= 1;
        }
        comment.truncate(cut);
    }
    Reply { commands, comment }
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
}
