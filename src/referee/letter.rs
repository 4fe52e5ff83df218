//! The mail a referee writes (design §3.5): notices after an act, answers
//! to refused or unreadable messages, `show` and `help`, confirmation
//! requests for held messages, reminders. Every letter starts with the
//! marker line that a reply is written above, carries in `Reply-To` the
//! recipient's current reply address, and is marked as automatic
//! (`Auto-Submitted`, `X-Auto-Response-Suppress: All`) and as the
//! referee's own (`X-Postal-Referee`), so that it is never answered by a
//! machine and never taken for a player's reply if it comes back.
//!
//! Every letter of a game has the same subject and names the game's root
//! id in `References`, so a mail client keeps the game in one thread.

use super::extract::MARKER;
use super::{token, Referee};
use crate::color::Color;
use crate::game::clock::{format_time, relative};
use crate::game::notices::{is_message_id, Addressee, NoticeRecord};
use crate::game::state::Act;
use crate::game::{Game, Party};
use crate::mail::compose::{game_subject, mailbox, sender};
use crate::mail::MailError;
use crate::render::{ascii, Options};
use chrono::{DateTime, Utc};
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};

/// One letter to one player.
#[derive(Clone, Debug)]
pub struct Letter {
    /// The spool name: also the unique part of the Message-ID.
    pub name: String,
    pub to: String,
    /// The side the letter is to (its reply address is this side's).
    pub side: Color,
    /// The message answered, when there is one (angle brackets excluded).
    pub in_reply_to: Option<String>,
    /// `auto-replied` for an answer to a player's message, else
    /// `auto-generated`.
    pub replied: bool,
    pub text: String,
    /// The reply address, when not the side's current one.
    pub reply_to: Option<String>,
    pub date: DateTime<Utc>,
}

/// The take-back epoch of a game: the number of take-backs accepted.
pub fn epoch(game: &Game) -> usize {
    game.events()
        .iter()
        .filter(|e| matches!(e.act, Act::TakebackAccept { .. }))
        .count()
}

/// A side's current reply address in a game.
pub fn reply_address(r: &Referee, gid: &str, game: &Game, side: Color) -> String {
    token::reply_address(
        r.key(),
        &r.local,
        &r.settings.tag,
        &r.domain,
        gid,
        side,
        game.moves().len(),
        epoch(game),
    )
}

/// The game a Message-ID of this referee's names: `postal.GID.`.
pub fn gid_of_message_id(r: &Referee, id: &str) -> Option<String> {
    let (local, domain) = id.trim_matches(['<', '>']).rsplit_once('@')?;
    if !domain.eq_ignore_ascii_case(&r.domain) {
        return None;
    }
    let gid = local.strip_prefix("postal.")?.split('.').next()?;
    token::is_gid(gid).then(|| gid.to_lowercase())
}

/// `Ana v Ben, FIDE chess (k3f9q2)`.
pub fn title(game: &Game, gid: &str) -> String {
    let p = &game.file().players;
    format!(
        "{} v {}, {} ({gid})",
        p.white.short(Color::White),
        p.black.short(Color::Black),
        game.variant().spec().title
    )
}

/// The player as a mailbox: `Ana <ana@example.org>`.
pub fn mailbox_of(game: &Game, side: Color) -> String {
    let p = game.file().players.get(side);
    match (&p.name, &p.email) {
        (Some(n), Some(e)) => format!("{n} <{e}>"),
        (_, Some(e)) => e.clone(),
        _ => String::new(),
    }
}

/// The score as people write it: `1. e4 e5 2. Nf3`.
pub fn score(game: &Game) -> String {
    let mut out = String::new();
    for i in 0..game.moves().len() {
        if i > 0 {
            out.push(' ');
        }
        if game.turn_at(i) == Color::White || i == 0 {
            out.push_str(&game.numbered_move(i));
        } else {
            out.push_str(&game.moves()[i].canonical);
        }
    }
    out
}

/// `1 move`, `2 moves`: a count with its noun, singular or plural.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A line's first letter in upper case.
pub fn capitalised(text: &str) -> String {
    let mut c = text.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A deadline for its reader: `2026-12-04T09:00:00Z (UTC; in 2 days 5 hours)`.
pub fn deadline_text(deadline: DateTime<Utc>, now: DateTime<Utc>) -> String {
    format!(
        "{} (UTC; {})",
        format_time(deadline),
        relative(deadline, now)
    )
}

/// The number of moves in a game, counted as players count them (a move
/// is White's and Black's turn: a mate at 5... is 5 moves, 9 half-moves).
pub fn moves_played(game: &Game) -> usize {
    match game.moves().len() {
        0 => 0,
        n => game.position(n - 1).fullmove as usize,
    }
}

/// The move to be made at half-move `ply`: `12.` or `12...`.
pub fn move_label(game: &Game, ply: usize) -> String {
    let pos = game.position(ply.min(game.moves().len()));
    match pos.turn {
        Color::White => format!("{}.", pos.fullmove),
        Color::Black => format!("{}...", pos.fullmove),
    }
}

/// The forms a move takes in the game's own variant, from the legal moves
/// of the position: `e.g. "e4", "Nf3" or "O-O"`.
pub fn move_forms(game: &Game) -> String {
    let pos = game.current();
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return String::new();
    }
    let texts = pos.move_texts(&moves);
    // Some of each kind: the first, a middle one and the last move listed.
    let mut picked: Vec<&String> = Vec::new();
    for i in [0, texts.len() / 2, texts.len() - 1] {
        if !picked.contains(&&texts[i]) {
            picked.push(&texts[i]);
        }
    }
    let quoted: Vec<String> = picked.iter().map(|t| format!("\"{t}\"")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            format!("e.g. {} or {last}", rest.join(", "))
        }
        _ => format!("e.g. {}", quoted.join("")),
    }
}

/// What `side` may do now, in a few lines.
pub fn options(game: &Game, side: Color, now: DateTime<Utc>) -> String {
    if let Some(end) = game.result() {
        let opp = game.file().players.get(!side).short(!side);
        return format!(
            "The game is over: {end}.\nA reply to this letter is passed on to {opp} once, as a comment; it plays nothing.\n"
        );
    }
    let turn = game.turn();
    let opp = game.file().players.get(!side).short(!side);
    let mut t = String::new();
    let num = move_label(game, game.moves().len());
    if let Some(by) = game.pending_draw_offer().filter(|by| *by != side) {
        t.push_str(&format!(
            "{} offers a draw: reply \"draw accept\" or \"draw decline\".\n",
            game.file().players.get(by).short(by)
        ));
    }
    if let Some(by) = game.pending_takeback().filter(|by| *by != side) {
        t.push_str(&format!(
            "{} asks to take back a move: reply \"takeback accept\" or \"takeback decline\".\n",
            game.file().players.get(by).short(by)
        ));
    }
    if turn == side {
        t.push_str(&format!(
            "Your move ({side}). Reply with the move on the first line, e.g. \"{num} MOVE\"\n\
             (the number is checked; it may be left out). Lines after the move\n\
             go to {opp} as a comment.\n"
        ));
        if let Some(d) = game.deadline() {
            t.push_str(&format!("Your deadline: {}.\n", deadline_text(d, now)));
        }
    } else {
        t.push_str(&format!(
            "{} ({turn}) to move{}.\n",
            game.file().players.get(turn).short(turn),
            game.deadline()
                .map(|d| format!("; deadline {}", deadline_text(d, now)))
                .unwrap_or_default()
        ));
    }
    if let Some(tc) = game.time_control_text() {
        t.push_str(&format!("Time control: {tc}.\n"));
    }
    for line in game.clock_lines(now) {
        t.push_str(&format!("{line}\n"));
    }
    if let Some(lines) = game.conditional_of(side) {
        t.push_str(&format!("Your conditional moves (never shown to {opp}):\n"));
        for l in lines {
            t.push_str(&format!("  if {}\n", game.numbered_line(l)));
        }
    }
    t.push_str("Also: draw offer | resign | takeback request | claim | leave N days | if LINE | show | help\n");
    t
}

/// The board, the score and what the recipient may do.
pub fn standing(game: &Game, side: Color, now: DateTime<Utc>) -> String {
    let mut t = ascii::position_board(game.current(), Options::default());
    t.push('\n');
    let s = score(game);
    if !s.is_empty() {
        t.push_str(&format!("Moves: {s}\n\n"));
    }
    t.push_str(&options(game, side, now));
    t
}

/// The help text.
pub fn help() -> String {
    "postal plays what the first lines of your reply say, above the quoted notice:\n\n\
     \x20 MOVE or 12. MOVE or 12... MOVE   a move in the variant's notation (number checked)\n\
     \x20 draw offer | draw accept | draw decline\n\
     \x20 takeback request | takeback accept | takeback decline\n\
     \x20 accept | decline                whatever your opponent asked\n\
     \x20 claim [repetition|fifty|time]\n\
     \x20 resign\n\
     \x20 leave 10 days | leave from 2027-01-02 for 10 days   stop your clock\n\
     \x20 if 13. e5 Nd5 14. c4 Nb6       conditional moves after your move, a line each\n\
     \x20 show                            the board again\n\
     \x20 help                            this text\n\n\
     One command a line; a move may be followed by \"draw offer\" or \"claim\",\n\
     on its line or the next. Other lines go to your opponent as a comment.\n\
     A reply to an old notice is refused: answer the latest one.\n"
        .to_string()
}

fn header(name: &'static str, value: String) -> HeaderValue {
    let value: String = value.chars().filter(|c| !c.is_control()).collect();
    HeaderValue::new(HeaderName::new_from_ascii_str(name), value)
}

/// The Message-ID of a letter: `<postal.GAME.ACT.NAME@DOMAIN>` (the shape
/// of src/mail/compose.rs's ids, with the letter's fixed name for the
/// random part: names are unique, since they carry the hash of the
/// message answered).
pub fn message_id(r: &Referee, gid: &str, game: &Game, l: &Letter) -> String {
    format!("<postal.{gid}.{}.{}@{}>", game.last_act(), l.name, r.domain)
}

/// The most `References` a letter names: the first notices and the latest.
const MAX_REFERENCES: usize = 20;

/// The game's thread so far, from the notices record: `References`.
pub fn references(game: &Game) -> Vec<String> {
    let ids: Vec<String> = game
        .notices()
        .iter()
        .map(|n| n.message_id.clone())
        .collect();
    if ids.len() <= MAX_REFERENCES {
        return ids;
    }
    let mut out = ids[..2].to_vec();
    out.extend_from_slice(&ids[ids.len() - (MAX_REFERENCES - 2)..]);
    out
}

/// Records a letter in the game's notices record (before the save that
/// commits the acts it reports, `first_act` to the last).
pub fn record(r: &Referee, gid: &str, game: &mut Game, l: &Letter, first_act: usize) {
    let id = message_id(r, gid, game, l);
    let address = game
        .file()
        .players
        .get(l.side)
        .email
        .clone()
        .unwrap_or_default();
    let act = game.last_act();
    game.record_notice(NoticeRecord {
        message_id: id,
        to: vec![Addressee {
            side: l.side,
            address,
        }],
        act,
        first_act: (first_act < act).then_some(first_act),
        time: l.date,
        resend_of: None,
    });
}

/// The message a letter is, formatted. Its thread: `References` from the
/// game's notices record, `In-Reply-To` the player's message it answers,
/// else the last notice.
pub fn compose(r: &Referee, gid: &str, game: &Game, l: &Letter) -> Result<Vec<u8>, MailError> {
    // A finished game's letters carry no line to write an answer above;
    // their reply address still carries the player's token, the only way
    // a message is passed on to the opponent after the end.
    let over = game.result().is_some();
    let reply_to = l
        .reply_to
        .clone()
        .unwrap_or_else(|| reply_address(r, gid, game, l.side));
    let id = message_id(r, gid, game, l);
    let refs = references(game);
    let p = &game.file().players;
    let subject = game_subject(
        &format!(
            "{} v {}",
            p.white.short(Color::White),
            p.black.short(Color::Black)
        ),
        game.variant().spec().title,
        gid,
    );
    let to =
        l.to.parse::<Mailbox>()
            .map_err(|e| MailError::Address(format!("{:?}: {e}", l.to)))?;
    let mut b = lettre::Message::builder()
        .from(sender(&r.settings.address)?)
        .to(mailbox(to.name.as_deref(), to.email.as_ref())?)
        .reply_to(
            reply_to
                .parse::<Mailbox>()
                .map_err(|e| MailError::Address(e.to_string()))?,
        )
        .subject(if refs.is_empty() {
            subject
        } else {
            format!("Re: {subject}")
        })
        .date(l.date.into())
        .message_id(Some(id));
    // The message answered, else the latest letter to this player (the
    // player's own thread of the game, never a letter the other got).
    let parent = l
        .in_reply_to
        .as_ref()
        .map(|p| format!("<{p}>"))
        .filter(|p| is_message_id(p))
        .or_else(|| {
            game.notices()
                .iter()
                .rev()
                .find(|n| n.to.iter().any(|a| a.side == l.side))
                .map(|n| n.message_id.clone())
        })
        .or_else(|| refs.last().cloned());
    if let Some(parent) = parent {
        let mut chain = refs.clone();
        if !chain.contains(&parent) {
            chain.push(parent.clone());
        }
        b = b.in_reply_to(parent).references(chain.join(" "));
    }
    b = b
        .raw_header(header(
            "Auto-Submitted",
            if l.replied {
                "auto-replied".into()
            } else {
                "auto-generated".into()
            },
        ))
        .raw_header(header("X-Auto-Response-Suppress", "All".into()))
        .raw_header(header("X-Postal-Referee", gid.to_string()));
    let marker = if over && l.reply_to.is_none() {
        String::new()
    } else {
        format!("{MARKER}\n\n")
    };
    let text = format!("{marker}{}", l.text);
    let html = format!(
        "<!DOCTYPE html><html><body><p>{}</p><pre style=\"font-family:monospace\">{}</pre></body></html>\n",
        escape(marker.trim()),
        escape(&l.text)
    );
    let body = MultiPart::mixed()
        .multipart(
            MultiPart::alternative()
                .singlepart(SinglePart::plain(text))
                .singlepart(SinglePart::html(html)),
        )
        .singlepart(Attachment::new(format!("{gid}.json")).body(
            game.json_for(Party::Player(l.side)).into_bytes(),
            ContentType::parse("application/json").map_err(|e| MailError::Send(e.to_string()))?,
        ));
    let m = b
        .multipart(body)
        .map_err(|e| MailError::Send(format!("cannot build the message: {e}")))?;
    Ok(m.formatted())
}

/// A letter that belongs to no game (the answer to a message that named
/// none), to `to`, answering the message `in_reply_to`.
pub fn compose_loose(
    r: &Referee,
    to: &str,
    subject: &str,
    in_reply_to: Option<&str>,
    name: &str,
    text: &str,
    date: DateTime<Utc>,
) -> Result<Vec<u8>, MailError> {
    let subject: String = subject.chars().filter(|c| !c.is_control()).collect();
    let subject = if subject.to_lowercase().starts_with("re:") {
        subject
    } else {
        format!("Re: {subject}")
    };
    standalone(r, to, &subject, Some(in_reply_to), name, text, date)
}

/// A letter of the referee's own that answers nothing and belongs to no
/// one game (a tournament's welcome and standings), to `to`.
pub fn compose_circular(
    r: &Referee,
    to: &str,
    subject: &str,
    name: &str,
    text: &str,
    date: DateTime<Utc>,
) -> Result<Vec<u8>, MailError> {
    let subject: String = subject.chars().filter(|c| !c.is_control()).collect();
    standalone(r, to, &subject, None, name, text, date)
}

/// A letter outside a game's thread: an answer (`auto-replied`) when
/// `answering` is given (with the message answered, if it had an id),
/// else the referee's own (`auto-generated`).
fn standalone(
    r: &Referee,
    to: &str,
    subject: &str,
    answering: Option<Option<&str>>,
    name: &str,
    text: &str,
    date: DateTime<Utc>,
) -> Result<Vec<u8>, MailError> {
    let to = to
        .parse::<Mailbox>()
        .map_err(|e| MailError::Address(format!("{to:?}: {e}")))?;
    let mut b = lettre::Message::builder()
        .from(sender(&r.settings.address)?)
        .to(mailbox(to.name.as_deref(), to.email.as_ref())?)
        .subject(subject)
        .date(date.into())
        .message_id(Some(format!("<postal.referee.{name}@{}>", r.domain)));
    if let Some(parent) = answering
        .flatten()
        .map(|p| format!("<{p}>"))
        .filter(|p| is_message_id(p))
    {
        b = b.in_reply_to(parent.clone()).references(parent);
    }
    let submitted = if answering.is_some() {
        "auto-replied"
    } else {
        "auto-generated"
    };
    let m = b
        .raw_header(header("Auto-Submitted", submitted.into()))
        .raw_header(header("X-Auto-Response-Suppress", "All".into()))
        .raw_header(header("X-Postal-Referee", "referee".into()))
        .singlepart(SinglePart::plain(text.to_string()))
        .map_err(|e| MailError::Send(format!("cannot build the message: {e}")))?;
    Ok(m.formatted())
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The letters after a message's acts were applied: to the mover, what
/// was accepted (and `notes` on how the message was read); to the
/// opponent, what happened, the comment, and the position. `said` is what
/// the acts did, one line each.
#[allow(clippy::too_many_arguments)]
pub fn after_acts(
    game: &Game,
    side: Color,
    said: &[String],
    comment: &str,
    notes: &[String],
    stem: &str,
    in_reply_to: Option<&str>,
    date: DateTime<Utc>,
) -> Vec<Letter> {
    let mover = game.file().players.get(side).short(side);
    let said: Vec<String> = said.iter().map(|l| capitalised(l) + ".").collect();
    let what = said.join("\n");
    let mut to_mover = if what.is_empty() {
        "Accepted.\n\n".to_string()
    } else {
        format!("Accepted: {what}\n\n")
    };
    for n in notes {
        to_mover.push_str(&format!("{n}\n\n"));
    }
    to_mover.push_str(&standing(game, side, date));
    let mut to_opp = format!("{what}\n\n");
    if !comment.is_empty() {
        to_opp.push_str(&format!("{mover} writes:\n"));
        for line in comment.lines() {
            to_opp.push_str(&format!("  {line}\n"));
        }
        to_opp.push('\n');
    }
    to_opp.push_str(&standing(game, !side, date));
    vec![
        pair_letter(game, !side, to_opp, stem, None, date),
        pair_letter(game, side, to_mover, stem, in_reply_to, date),
    ]
}

/// A letter to `side` named `STEM-w` or `STEM-b`.
pub fn pair_letter(
    game: &Game,
    side: Color,
    text: String,
    stem: &str,
    reply: Option<&str>,
    date: DateTime<Utc>,
) -> Letter {
    Letter {
        name: format!("{stem}-{}", if side == Color::White { "w" } else { "b" }),
        to: mailbox_of(game, side),
        side,
        in_reply_to: reply.map(str::to_string),
        replied: reply.is_some(),
        text,
        reply_to: None,
        date,
    }
}

/// The letters of a time forfeit, each in its reader's words: the loser's
/// deadline passed; `arrived` is when the loser's late message came.
pub fn forfeit_letters(
    game: &Game,
    loser: Color,
    deadline: DateTime<Utc>,
    arrived: Option<DateTime<Utc>>,
    stem: &str,
    date: DateTime<Utc>,
) -> Vec<Letter> {
    let name = game.file().players.get(loser).short(loser);
    let end = game
        .result()
        .map(|e| e.to_string())
        .unwrap_or_else(|| "a time forfeit".into());
    let late = match arrived {
        Some(t) => format!(
            " Your message arrived at {} (UTC), after it, and was not played.",
            format_time(t)
        ),
        None => String::new(),
    };
    let to_loser = format!(
        "Your deadline passed at {} (UTC) without a move from you.{late}\nThe referee records a time forfeit: you lose ({end}).\n\n{}",
        format_time(deadline),
        standing(game, loser, date)
    );
    let to_winner = format!(
        "{name}'s deadline passed at {} (UTC) without a move.\nThe referee records a time forfeit: you win ({end}).\n\n{}",
        format_time(deadline),
        standing(game, !loser, date)
    );
    vec![
        pair_letter(game, !loser, to_winner, stem, None, date),
        pair_letter(game, loser, to_loser, stem, None, date),
    ]
}

/// The answer to a message that changed nothing: why, what was read,
/// the position. A move the notation could not read is answered with the
/// forms of the game's own variant.
pub fn refusal(game: &Game, side: Color, why: &str, read: &[String], now: DateTime<Utc>) -> String {
    let why = match why.find("expected a move such as") {
        Some(at) => format!(
            "{}moves in this game are written {}",
            &why[..at],
            move_forms(game)
        ),
        None => why.to_string(),
    };
    let mut t = format!("postal did not play your message: {why} (the game is unchanged).\n\n");
    if !read.is_empty() {
        t.push_str("postal read:\n");
        for l in read {
            t.push_str(&format!("> {l}\n"));
        }
        t.push('\n');
    }
    t.push_str(&standing(game, side, now));
    t
}

/// The first notices of a game the referee takes on, one to each player:
/// who plays whom, the variant, the time control, where to reply, and
/// whose move it is.
pub fn openings(r: &Referee, game: &Game, gid: &str, date: DateTime<Utc>) -> Vec<Letter> {
    let p = &game.file().players;
    let turn = game.turn();
    // A control is said, with the clocks, by the standing below.
    let tc = match game.file().time_control {
        Some(_) => String::new(),
        None => "Time control: none (no deadlines).\n".to_string(),
    };
    [Color::White, Color::Black]
        .into_iter()
        .map(|side| {
            let opp = !side;
            let whose = if side == turn {
                "You move first: reply to this letter with your move.".to_string()
            } else {
                format!(
                    "{} ({turn}) moves first; you will get a letter with the move.",
                    p.get(turn).short(turn)
                )
            };
            let text = format!(
                "A new game: {} (White) v {} (Black), {}.\n\
                 You play {side}; your opponent is {}.\n\
                 {tc}\
                 The referee keeps the game. Reply to its letters from {};\n\
                 a reply from another address is held until you confirm it.\n\
                 Your replies go to this game's address for you:\n\
                 {}\n\
                 {whose}\n\n{}",
                p.white.short(Color::White),
                p.black.short(Color::Black),
                game.variant().spec().title,
                mailbox_of(game, opp),
                p.get(side).email.as_deref().unwrap_or(""),
                reply_address(r, gid, game, side),
                standing(game, side, date)
            );
            Letter {
                name: format!("{gid}-new-{}", if side == Color::White { "w" } else { "b" }),
                to: mailbox_of(game, side),
                side,
                in_reply_to: None,
                replied: false,
                text,
                reply_to: None,
                date,
            }
        })
        .collect()
}
