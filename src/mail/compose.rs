//! The message to the player to move: a subject naming the game, the
//! variant, the last move and the move number; a plain-text part (last
//! move, ASCII board, move list, whose turn, deadline, how to answer) and
//! an HTML part with the board as a PNG image attached by content id (the
//! form common mail clients render; inline SVG is dropped by many), or the
//! ASCII board when no image is given. Messages of one game form a thread:
//! a stable `Message-ID` per move, `In-Reply-To` and `References` to the
//! previous one. Names and addresses go through lettre's `Mailbox`, so no
//! text of a player's can add a header.

use super::MailError;
use chrono::{DateTime, Utc};
use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::Message;

/// Everything a notice says; the game layer fills it in.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    /// Stable id of the game, for the thread's message ids.
    pub game_id: String,
    /// A title such as "Ana v Ben".
    pub title: String,
    /// The variant's full name.
    pub variant: String,
    pub from: String,
    /// The player to move, as `Name <address>`.
    pub to: String,
    /// "White" or "Black": the side of the recipient.
    pub side: String,
    /// Plies played so far (0 for the notice that starts a game).
    pub ply: usize,
    /// The last move with its number, e.g. `4. Qd1/g4/g7/h8` or `4... Qh4`.
    pub last_move: Option<String>,
    /// The board as ASCII.
    pub board: String,
    /// The score so far.
    pub moves: String,
    /// When the recipient's time runs out.
    pub deadline: Option<DateTime<Utc>>,
    /// The exact command that answers, e.g. `postal move game.json "MOVE"`.
    pub reply: String,
    /// The result, when the game is over.
    pub result: Option<String>,
    /// The board as a PNG, shown in the HTML part.
    pub board_png: Option<Vec<u8>>,
    pub date: DateTime<Utc>,
    /// Domain for message ids (the sender's).
    pub domain: String,
}

/// The Message-ID of the notice sent after `ply` plies of a game.
pub fn message_id(game_id: &str, ply: usize, domain: &str) -> String {
    let safe: String = game_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    format!("<postal.{safe}.{ply}@{domain}>")
}

fn mailbox(text: &str) -> Result<Mailbox, MailError> {
    text.parse::<Mailbox>()
        .map_err(|e| MailError::Address(format!("{text:?}: {e}")))
}

/// One line, no control characters: for text that goes into a header.
fn header_text(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The subject line.
pub fn subject(n: &Notice) -> String {
    let what = match (&n.result, &n.last_move) {
        (Some(r), Some(m)) => format!("{m}, game over: {r}"),
        (Some(r), None) => format!("game over: {r}"),
        (None, Some(m)) => format!("{m}, your move"),
        (None, None) => "new game, your move".to_string(),
    };
    header_text(&format!("[postal] {} ({}): {what}", n.title, n.variant))
}

/// The plain-text part.
pub fn text_body(n: &Notice) -> String {
    let mut t = String::new();
    t.push_str(&format!("{}: {}\n\n", n.variant, n.title));
    match &n.last_move {
        Some(m) => t.push_str(&format!("Last move: {m}\n\n")),
        None => t.push_str("The game begins.\n\n"),
    }
    t.push_str(&n.board);
    if !n.board.ends_with('\n') {
        t.push('\n');
    }
    t.push('\n');
    if !n.moves.is_empty() {
        t.push_str(&format!("Moves: {}\n\n", n.moves));
    }
    match &n.result {
        Some(r) => t.push_str(&format!("The game is over: {r}\n")),
        None => {
            t.push_str(&format!("{} ({}) to move.\n", n.to, n.side));
            if let Some(d) = n.deadline {
                t.push_str(&format!("Deadline: {}\n", d.format("%Y-%m-%d %H:%M UTC")));
            }
            t.push_str(&format!("\nTo answer, run:\n\n    {}\n", n.reply));
        }
    }
    t
}

fn html_body(n: &Notice, cid: Option<&str>) -> String {
    let board = match cid {
        Some(c) => format!(
            "<p><img src=\"cid:{c}\" alt=\"{}\"></p>",
            escape_html(&n.board)
        ),
        None => format!(
            "<pre style=\"font-family:monospace\">{}</pre>",
            escape_html(&n.board)
        ),
    };
    let mut h = format!(
        "<!DOCTYPE html><html><body><h3>{}: {}</h3>",
        escape_html(&n.variant),
        escape_html(&n.title)
    );
    if let Some(m) = &n.last_move {
        h.push_str(&format!("<p>Last move: <b>{}</b></p>", escape_html(m)));
    }
    h.push_str(&board);
    if !n.moves.is_empty() {
        h.push_str(&format!("<p>Moves: {}</p>", escape_html(&n.moves)));
    }
    match &n.result {
        Some(r) => h.push_str(&format!("<p>The game is over: {}</p>", escape_html(r))),
        None => {
            h.push_str(&format!(
                "<p>{} ({}) to move.</p>",
                escape_html(&n.to),
                escape_html(&n.side)
            ));
            if let Some(d) = n.deadline {
                h.push_str(&format!(
                    "<p>Deadline: {}</p>",
                    d.format("%Y-%m-%d %H:%M UTC")
                ));
            }
            h.push_str(&format!(
                "<p>To answer, run:</p><pre>{}</pre>",
                escape_html(&n.reply)
            ));
        }
    }
    h.push_str("</body></html>\n");
    h
}

/// Builds the message.
pub fn compose(n: &Notice) -> Result<Message, MailError> {
    let mut b = Message::builder()
        .from(mailbox(&n.from)?)
        .to(mailbox(&n.to)?)
        .subject(subject(n))
        .date(n.date.into())
        .message_id(Some(message_id(&n.game_id, n.ply, &n.domain)));
    if n.ply > 0 {
        let prev = message_id(&n.game_id, n.ply - 1, &n.domain);
        let root = message_id(&n.game_id, 0, &n.domain);
        b = b.in_reply_to(prev.clone());
        b = if n.ply > 1 {
            b.references(format!("{root} {prev}"))
        } else {
            b.references(prev)
        };
    }
    let text = SinglePart::plain(text_body(n));
    let body = match &n.board_png {
        Some(png) => {
            let cid = format!("board.{}.{}@{}", n.game_id, n.ply, n.domain);
            let image = Attachment::new_inline(cid.clone()).body(
                png.clone(),
                ContentType::parse("image/png").map_err(|e| MailError::Send(e.to_string()))?,
            );
            MultiPart::alternative().singlepart(text).multipart(
                MultiPart::related()
                    .singlepart(SinglePart::html(html_body(n, Some(&cid))))
                    .singlepart(image),
            )
        }
        None => MultiPart::alternative()
            .singlepart(text)
            .singlepart(SinglePart::html(html_body(n, None))),
    };
    b.multipart(body)
        .map_err(|e| MailError::Send(format!("cannot build the message: {e}")))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub fn notice(ply: usize) -> Notice {
        Notice {
            game_id: "20261129-ana-ben".into(),
            title: "Ana v Ben".into(),
            variant: "Swap Chess".into(),
            from: "Postal <postal@example.org>".into(),
            to: "Ben <ben@example.org>".into(),
            side: "Black".into(),
            ply,
            last_move: Some("1. e4".into()),
            board: " r n b q k b n r  8\n".into(),
            moves: "1. e4".into(),
            deadline: None,
            reply: "postal move game.json \"MOVE\"".into(),
            result: None,
            board_png: None,
            date: DateTime::parse_from_rfc3339("2026-11-29T12:00:00Z")
                .unwrap()
                .with_timezone(&Utc),
            domain: "example.org".into(),
        }
    }

    #[test]
    fn threading_headers() {
        let m = compose(&notice(3)).unwrap();
        // Unfold folded header lines (RFC 5322 2.2.3).
        let raw = String::from_utf8(m.formatted())
            .unwrap()
            .replace("\r\n ", " ");
        assert!(
            raw.contains("Message-ID: <postal.20261129-ana-ben.3@example.org>"),
            "{raw}"
        );
        assert!(raw.contains("In-Reply-To: <postal.20261129-ana-ben.2@example.org>"));
        assert!(raw.contains(
            "References: <postal.20261129-ana-ben.0@example.org> <postal.20261129-ana-ben.2@example.org>"
        ));
        assert!(raw.contains("Subject: [postal] Ana v Ben (Swap Chess): 1. e4, your move"));
    }

    #[test]
    fn names_cannot_inject_headers() {
        let mut n = notice(1);
        n.to = "Ben\r\nBcc: eve@example.org <ben@example.org>".into();
        assert!(matches!(compose(&n), Err(MailError::Address(_))));
        let mut n = notice(1);
        n.title = "Ana v Ben\r\nBcc: eve@example.org".into();
        let raw = String::from_utf8(compose(&n).unwrap().formatted()).unwrap();
        let headers = raw.split("\r\n\r\n").next().unwrap();
        assert!(!headers.contains("\r\nBcc:"), "{headers}");
    }

    #[test]
    fn html_part_carries_the_png() {
        let mut n = notice(1);
        n.board_png = Some(vec![0x89, b'P', b'N', b'G']);
        let raw = String::from_utf8(compose(&n).unwrap().formatted()).unwrap();
        assert!(raw.contains("multipart/related"));
        assert!(raw.contains("Content-Type: image/png"));
        assert!(raw.contains("cid:board.20261129-ana-ben.1@example.org"));
    }
}
