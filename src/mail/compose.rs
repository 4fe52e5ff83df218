//! The message to the player to move: a subject naming the game, the
//! variant, the last move and the move number; a plain-text part (last
//! move, ASCII board, move list, whose turn, deadline, how to answer) and
//! an HTML part with the board as a PNG image attached by content id (the
//! form common mail clients render; inline SVG is dropped by many), or the
//! ASCII board when no image is given. Messages of one game form a thread:
//! a stable `Message-ID` per move, `In-Reply-To` and `References` to the
//! previous one. Names and addresses go through lettre's `Mailbox`, so no
//! text of a player's can add a header.

use super::config::Config;
use super::MailError;
use crate::color::Color;
use crate::game::Game;
use crate::render;
use chrono::{DateTime, Utc};
use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::Message;
use std::path::Path;

/// Where a message stands in its game's thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thread {
    /// This message's `Message-ID`, angle brackets included.
    pub id: String,
    /// The message it answers: the notice of the position before.
    pub parent: Option<String>,
    /// The first message of the thread, when it is not the parent.
    pub root: Option<String>,
}

/// Everything a notice says; [`notice_for_game`] fills it in from a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub thread: Thread,
    /// A title such as "Ana v Ben".
    pub title: String,
    /// The variant's full name.
    pub variant: String,
    pub from: String,
    /// The player to move, as `Name <address>`.
    pub to: String,
    /// "White" or "Black": the side of the recipient.
    pub side: String,
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
    /// The game's state file, attached so the recipient has the game.
    pub attachment: Option<(String, Vec<u8>)>,
    pub date: DateTime<Utc>,
}

/// FNV-1a, 64 bits: a hash that stays the same across versions and
/// machines, for message ids.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The Message-ID of the notice sent when `moves` (canonical texts) have
/// been played in the game `game_id`. The same moves give the same id, so
/// every message can name the one before it; after a take-back the moves
/// played again get new ids.
pub fn message_id(game_id: &str, moves: &[String], domain: &str) -> String {
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
    let hash = fnv1a(moves.join(" ").as_bytes());
    format!("<postal.{safe}.{}.{hash:016x}@{domain}>", moves.len())
}

/// The thread position of the notice after `moves`.
pub fn thread(game_id: &str, moves: &[String], domain: &str) -> Thread {
    let id = message_id(game_id, moves, domain);
    let parent = moves
        .len()
        .checked_sub(1)
        .map(|n| message_id(game_id, &moves[..n], domain));
    let root = (moves.len() > 1).then(|| message_id(game_id, &[], domain));
    Thread { id, parent, root }
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
        .message_id(Some(n.thread.id.clone()));
    if let Some(parent) = &n.thread.parent {
        b = b.in_reply_to(parent.clone());
        b = match &n.thread.root {
            Some(root) => b.references(format!("{root} {parent}")),
            None => b.references(parent.clone()),
        };
    }
    let text = SinglePart::plain(text_body(n));
    let body = match &n.board_png {
        Some(png) => {
            let cid = format!("board.{}", n.thread.id.trim_matches(['<', '>']));
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

/// The notice for the player to move in a game (or, once it has ended, for
/// the player who did not make the last move): the game's state after its
/// last move, with the board as PNG and the state file attached.
pub fn notice_for_game(
    game: &Game,
    game_path: &Path,
    config: &Config,
    now: DateTime<Utc>,
) -> Result<Notice, MailError> {
    let side = game.turn();
    let player = game.file().players.get(side);
    let Some(email) = &player.email else {
        // The game's fault, not the settings' (exit 1, as a rule refusal).
        return Err(MailError::Address(format!(
            "{side} has no mail address in {}: start the game with --{} \"Name <address>\"",
            game_path.display(),
            side.name().to_lowercase()
        )));
    };
    let to = match &player.name {
        Some(name) => format!("{name} <{email}>"),
        None => email.clone(),
    };
    let players = &game.file().players;
    let title = format!(
        "{} v {}",
        players.white.short(Color::White),
        players.black.short(Color::Black)
    );
    let canon: Vec<String> = game.moves().iter().map(|m| m.canonical.clone()).collect();
    let game_id = format!(
        "{}-{}",
        game.file().created.format("%Y%m%dT%H%M%SZ"),
        game.variant().name()
    );
    let file_name = game_path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| "game.json".into());
    let pos = game.current();
    let last = canon.len().checked_sub(1);
    let last_move = last.map(|i| game.numbered_move(i));
    let last_mv = last.and_then(|i| {
        game.positions()[i]
            .parse_move(&game.moves()[i].canonical)
            .ok()
    });
    let opts = render::Options::for_position(pos, last_mv.as_ref());
    // The score as people write it: `1. e4 e5 2. Nf3`.
    let mut moves = String::new();
    for (i, text) in canon.iter().enumerate() {
        if i > 0 {
            moves.push(' ');
        }
        let before = &game.positions()[i];
        if before.turn == Color::White || i == 0 {
            moves.push_str(&game.numbered_move(i));
        } else {
            moves.push_str(text);
        }
    }
    Ok(Notice {
        thread: thread(&game_id, &canon, &config.domain()),
        title: format!("{title}, {file_name}"),
        variant: game.variant().spec().title.to_string(),
        from: config.from_address().to_string(),
        to,
        side: side.name().to_string(),
        last_move,
        board: render::ascii::board(&pos.board, opts.clone()),
        moves,
        deadline: game.deadline(),
        reply: format!("postal move {file_name} \"MOVE\""),
        result: game.result().map(|e| e.to_string()),
        board_png: Some(render::render(pos, render::Format::Png, &opts)),
        attachment: Some((file_name, game.to_json().into_bytes())),
        date: now,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub fn notice(ply: usize) -> Notice {
        let moves: Vec<String> = ["e4", "e5", "Nf3", "Nc6"][..ply]
            .iter()
            .map(|s| s.to_string())
            .collect();
        Notice {
            thread: thread("20261129-ana-ben", &moves, "example.org"),
            title: "Ana v Ben".into(),
            variant: "Swap Chess".into(),
            from: "Postal <postal@example.org>".into(),
            to: "Ben <ben@example.org>".into(),
            side: "Black".into(),
            last_move: Some("1. e4".into()),
            board: " r n b q k b n r  8\n".into(),
            moves: "1. e4".into(),
            deadline: None,
            reply: "postal move game.json \"MOVE\"".into(),
            result: None,
            board_png: None,
            attachment: None,
            date: DateTime::parse_from_rfc3339("2026-11-29T12:00:00Z")
                .unwrap()
                .with_timezone(&Utc),
        }
    }

    #[test]
    fn threading_headers() {
        let m = compose(&notice(3)).unwrap();
        // Unfold folded header lines (RFC 5322 2.2.3).
        let raw = String::from_utf8(m.formatted())
            .unwrap()
            .replace("\r\n ", " ");
        let id = |n: usize| {
            let moves: Vec<String> = ["e4", "e5", "Nf3"][..n]
                .iter()
                .map(|s| s.to_string())
                .collect();
            message_id("20261129-ana-ben", &moves, "example.org")
        };
        assert!(id(3).starts_with("<postal.20261129-ana-ben.3."));
        assert!(raw.contains(&format!("Message-ID: {}", id(3))), "{raw}");
        assert!(raw.contains(&format!("In-Reply-To: {}", id(2))));
        assert!(raw.contains(&format!("References: {} {}", id(0), id(2))));
        assert!(raw.contains("Subject: [postal] Ana v Ben (Swap Chess): 1. e4, your move"));
        // Other moves, other ids: a take-back starts a new branch.
        let other = message_id("20261129-ana-ben", &["d4".to_string()], "example.org");
        assert_ne!(other, id(1));
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
        assert!(raw.contains("cid:board.postal.20261129-ana-ben.1."));
    }
}
