//! The message of a notice: headers and MIME parts.
//!
//! - `From` from the settings, `To` the recipients, each a mailbox built
//!   from a checked name and address ([`crate::game::address`]): a name is
//!   written as a quoted string or RFC 2047 encoded words, never raw, so no
//!   text of a player's can add a header, and no header line passes
//!   RFC 5322's 998 bytes.
//! - Threading (RFC 5322 3.6.4): a `Message-ID` made fresh for every notice
//!   ([`message_id`]: a random part from the OS and the game's id, never
//!   reused, also for re-sends); `References`, the full chain of the game's
//!   earlier notices, so a player whose mailbox lacks the notices sent to
//!   the opponent still sees one thread; `In-Reply-To`, the last of them.
//!   The subject is the same for the whole game, `Re: ` after the first.
//! - `Auto-Submitted: auto-generated` (RFC 3834), so vacation responders
//!   and well-behaved robots do not answer.
//! - The body: a text part, and an HTML part with the board as a PNG
//!   attached by content id (the form common mail clients render; inline
//!   SVG is dropped by many), then the state file attached.

use super::MailError;
use crate::game::address::{check_address, check_name};
use crate::game::notices::random_hex;
use chrono::{DateTime, Utc};
use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, Mailboxes, MultiPart, SinglePart};
use lettre::{Address, Message};

/// One recipient: a checked name and address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct To {
    pub name: Option<String>,
    pub address: String,
}

/// A notice, ready to be written as a message.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    /// This message's `Message-ID`, angle brackets included.
    pub message_id: String,
    /// The game's earlier notices, oldest first: `References`; the last is
    /// `In-Reply-To`.
    pub references: Vec<String>,
    /// The game's subject, without `Re: `.
    pub subject: String,
    /// The sender, `Name <address>` or an address.
    pub from: String,
    pub to: Vec<To>,
    /// The plain-text part.
    pub text: String,
    /// The HTML part; an image of the board, when given, is referred to as
    /// `cid:` + [`board_cid`] of the message id.
    pub html: String,
    /// The board as a PNG, shown by the HTML part.
    pub board_png: Option<Vec<u8>>,
    /// A file attached: its name and bytes (the game's state file).
    pub attachment: Option<(String, Vec<u8>)>,
    pub date: DateTime<Utc>,
}

/// A new Message-ID for a notice about act `act` of game `game_id`:
/// `<postal.GAME.ACT.RANDOM@DOMAIN>`, with 16 random hex digits from the
/// OS, so no two notices share one, whatever the clock says.
pub fn message_id(game_id: &str, act: usize, domain: &str) -> String {
    let safe: String = game_id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    let domain: String = domain
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || "-.".contains(*c))
        .collect();
    let domain = if domain.is_empty() {
        "localhost".to_string()
    } else {
        domain
    };
    format!("<postal.{safe}.{act}.{}@{domain}>", random_hex(8))
}

/// The content id of the board image of the message `message_id`.
pub fn board_cid(message_id: &str) -> String {
    format!("board.{}", message_id.trim_matches(['<', '>']))
}

/// The game's subject: `[postal] Ana v Ben, Swap Chess (ID)`.
pub fn game_subject(title: &str, variant: &str, game_id: &str) -> String {
    header_text(&format!("[postal] {title}, {variant} ({game_id})"))
}

/// One line, no control characters: for text that goes into a header.
pub fn header_text(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// `Auto-Submitted` (RFC 3834).
#[derive(Clone, Debug)]
struct AutoSubmitted;

impl Header for AutoSubmitted {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("Auto-Submitted")
    }
    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(AutoSubmitted)
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "auto-generated".into())
    }
}

fn address(a: &str) -> Result<Address, MailError> {
    check_address(a).map_err(MailError::Address)?;
    a.parse::<Address>()
        .map_err(|e| MailError::Address(format!("{a:?}: {e}")))
}

/// A mailbox from a name and an address, both checked; the name as a
/// mail client will show it, literally. A name holding `=?` (what a
/// client would decode as an RFC 2047 encoded word) gets a word joiner
/// (U+2060, invisible) after each `=`: the name is then not ASCII, so
/// lettre encodes it whole, and it decodes to what was written, to the
/// eye. (The subject's way, [`literal`], does not serve here: lettre
/// writes a display name of atom characters bare only without a `9`,
/// and encoded words inside the quotes it uses instead are not decoded.)
pub fn mailbox(name: Option<&str>, addr: &str) -> Result<Mailbox, MailError> {
    if let Some(n) = name {
        check_name(n).map_err(|e| MailError::Address(format!("{n:?}: {e}")))?;
    }
    let shown = name.map(|n| n.replace("=?", "=\u{2060}?"));
    Ok(Mailbox::new(shown, address(addr)?))
}

/// Header text that a mail client shows as written. Text holding what a
/// client would decode, an RFC 2047 encoded word (`=?utf-8?q?...?=`, say
/// a player's name `=?utf-8?q?Ana=0D=0ABcc:_eve@example.org?=` that
/// decodes to a line break), is itself written as base64 encoded words
/// (RFC 2047, section 4.1), which decode to the text, `=?` and all, and
/// nothing else; other text is left to lettre's encoder.
pub fn literal(text: &str) -> String {
    if !text.contains("=?") {
        return text.to_string();
    }
    // Encoded words of at most 75 characters (RFC 2047, section 2): 45
    // bytes of text a word, cut between characters.
    let mut words = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let mut cut = rest.len().min(45);
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        let (chunk, tail) = rest.split_at(cut);
        words.push(format!(
            "=?utf-8?b?{}?=",
            data_encoding::BASE64.encode(chunk.as_bytes())
        ));
        rest = tail;
    }
    words.join(" ")
}

/// The sender's mailbox from the settings' `from` text.
pub fn sender(from: &str) -> Result<Mailbox, MailError> {
    let parsed = from
        .parse::<Mailbox>()
        .map_err(|e| MailError::Config(format!("from {from:?}: {e}")))?;
    mailbox(parsed.name.as_deref(), parsed.email.as_ref())
        .map_err(|e| MailError::Config(format!("from {from:?}: {e}")))
}

/// Builds the message.
pub fn compose(n: &Notice) -> Result<Message, MailError> {
    if n.to.is_empty() {
        return Err(MailError::Address("a notice with no recipient".into()));
    }
    let mut to = Mailboxes::new();
    for t in &n.to {
        to.push(mailbox(t.name.as_deref(), &t.address)?);
    }
    for id in n.references.iter().chain([&n.message_id]) {
        if !crate::game::notices::is_message_id(id) {
            return Err(MailError::Send(format!("{id:?} is not a Message-ID")));
        }
    }
    let subject = if n.references.is_empty() {
        literal(&header_text(&n.subject))
    } else {
        format!("Re: {}", literal(&header_text(&n.subject)))
    };
    let mut b = Message::builder()
        .from(sender(&n.from)?)
        .mailbox(lettre::message::header::To::from(to))
        .subject(subject)
        .date(n.date.into())
        .message_id(Some(n.message_id.clone()))
        .header(AutoSubmitted);
    if let Some(parent) = n.references.last() {
        b = b
            .in_reply_to(parent.clone())
            .references(n.references.join(" "));
    }
    let text = SinglePart::plain(n.text.clone());
    let body = match &n.board_png {
        Some(png) => {
            let image = Attachment::new_inline(board_cid(&n.message_id)).body(
                png.clone(),
                ContentType::parse("image/png").map_err(|e| MailError::Send(e.to_string()))?,
            );
            MultiPart::alternative().singlepart(text).multipart(
                MultiPart::related()
                    .singlepart(SinglePart::html(n.html.clone()))
                    .singlepart(image),
            )
        }
        None => MultiPart::alternative()
            .singlepart(text)
            .singlepart(SinglePart::html(n.html.clone())),
    };
    let body = match &n.attachment {
        Some((name, bytes)) => MultiPart::mixed().multipart(body).singlepart(
            Attachment::new(name.clone()).body(
                bytes.clone(),
                ContentType::parse("application/json")
                    .map_err(|e| MailError::Send(e.to_string()))?,
            ),
        ),
        None => body,
    };
    b.multipart(body)
        .map_err(|e| MailError::Send(format!("cannot build the message: {e}")))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub fn notice(refs: usize) -> Notice {
        Notice {
            message_id: message_id("abc123", refs, "example.org"),
            references: (0..refs)
                .map(|i| message_id("abc123", i, "example.org"))
                .collect(),
            subject: game_subject("Ana v Ben", "Swap Chess", "abc123"),
            from: "Postal <postal@example.org>".into(),
            to: vec![To {
                name: Some("Ben".into()),
                address: "ben@example.org".into(),
            }],
            text: "Ana (White) played 1. e4.\n".into(),
            html: "<p>Ana (White) played 1. e4.</p>".into(),
            board_png: None,
            attachment: None,
            date: DateTime::parse_from_rfc3339("2026-11-29T12:00:00Z")
                .unwrap()
                .with_timezone(&Utc),
        }
    }

    fn head(n: &Notice) -> String {
        let raw = String::from_utf8(compose(n).unwrap().formatted()).unwrap();
        raw.split("\r\n\r\n").next().unwrap().to_string()
    }

    #[test]
    fn threading_headers() {
        let n = notice(3);
        let h = head(&n).replace("\r\n ", " ");
        assert!(n.message_id.starts_with("<postal.abc123.3."));
        assert!(h.contains(&format!("Message-ID: {}", n.message_id)), "{h}");
        assert!(h.contains(&format!("In-Reply-To: {}", n.references[2])));
        assert!(h.contains(&format!("References: {}", n.references.join(" "))));
        assert!(h.contains("Subject: Re: [postal] Ana v Ben, Swap Chess (abc123)"));
        assert!(h.contains("Auto-Submitted: auto-generated"));
        let first = head(&notice(0));
        assert!(first.contains("Subject: [postal] Ana v Ben"));
        assert!(!first.contains("In-Reply-To"));
        assert_ne!(
            message_id("abc123", 1, "x.org"),
            message_id("abc123", 1, "x.org")
        );
    }

    #[test]
    fn names_cannot_inject_headers_or_overflow_lines() {
        let mut n = notice(1);
        n.to[0].name = Some("Ben\r\nBcc: eve@example.org".into());
        assert!(matches!(compose(&n), Err(MailError::Address(_))));
        let mut n = notice(1);
        n.to[0].address = "ben@example.org>\r\nBcc: eve@example.org".into();
        assert!(matches!(compose(&n), Err(MailError::Address(_))));
        let mut n = notice(1);
        n.to[0].address = "bén@example.org".into();
        assert!(matches!(compose(&n), Err(MailError::Address(_))));
        let mut n = notice(1);
        n.subject = "Ana v Ben\r\nBcc: eve@example.org".into();
        assert!(!head(&n).contains("\r\nBcc:"));
        let mut n = notice(1);
        n.references.push("<x@y>\r\nBcc: eve@example.org".into());
        assert!(compose(&n).is_err());
        // The longest names accepted, unbroken, ASCII and not.
        for name in [
            "a".repeat(100),
            "é".repeat(100),
            format!("Ana, \"{}\"", "b".repeat(90)),
        ] {
            let mut n = notice(40);
            n.to[0].name = Some(name.clone());
            n.to.push(To {
                name: Some(name),
                address: format!("{}@{}.org", "a".repeat(64), "d".repeat(60)),
            });
            let h = head(&n);
            let longest = h.split("\r\n").map(str::len).max().unwrap();
            assert!(longest <= 998, "{longest}: {h}");
        }
    }

    /// A name or subject holding an encoded word reaches the reader as
    /// written: every header of the message, decoded as a mail client
    /// decodes it, holds no line break, and the subject and the names are
    /// the text itself.
    #[test]
    fn encoded_words_in_names_and_subjects_are_shown_literally() {
        let sneaky = "=?utf-8?q?Ana=0D=0ABcc:_eve@example.org?=";
        let long = format!("{sneaky} and {} =?utf-8?b?QQ0KQg==?= é", "x".repeat(20));
        for name in [sneaky.to_string(), long] {
            let mut n = notice(2);
            n.subject = game_subject(&format!("{name} v Ben"), "Swap Chess", "abc123");
            n.to[0].name = Some(name.clone());
            let raw = compose(&n).unwrap().formatted();
            let parsed = mail_parser::MessageParser::default().parse(&raw).unwrap();
            for h in parsed.headers() {
                let text = format!("{:?}", h.value());
                assert!(
                    !text.contains("\\r") && !text.contains("\\n"),
                    "{}: {text}",
                    h.name()
                );
            }
            let subject = parsed.subject().unwrap();
            assert_eq!(
                subject,
                format!("Re: [postal] {name} v Ben, Swap Chess (abc123)")
            );
            let to = parsed.to().unwrap().first().unwrap();
            assert_eq!(
                to.name().map(|n| n.replace('\u{2060}', "")),
                Some(name.clone())
            );
        }
    }

    #[test]
    fn html_part_carries_the_png() {
        let mut n = notice(1);
        n.board_png = Some(vec![0x89, b'P', b'N', b'G']);
        let raw = String::from_utf8(compose(&n).unwrap().formatted()).unwrap();
        assert!(raw.contains("multipart/related"));
        assert!(raw.contains("Content-Type: image/png"));
        assert!(raw.contains("board.postal.abc123.1."));
    }
}
