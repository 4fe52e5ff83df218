//! What a notice says: the acts it reports, in its first lines; then, for
//! each recipient, what they may do now with the exact commands (answer
//! the offer, move, claim); then the game, the board and the score. The
//! same words go into the text part (readable in a fixed-width pager) and
//! the HTML part (with the board as an image).
//!
//! [`build`] turns a game and the acts to report into a
//! [`compose::Notice`] and the recipients to record.

use super::compose::{self, board_cid, game_subject, Notice, To};
use super::config::Config;
use super::MailError;
use crate::color::Color;
use crate::game::notices::{ActRef, Addressee};
use crate::game::state::Act;
use crate::game::Game;
use crate::render;
use chrono::{DateTime, Utc};
use std::ops::RangeInclusive;

/// A piece of a notice's body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// A sentence, a line of its own.
    Line(String),
    /// A command to run, indented in the text part.
    Command(String),
    /// A blank line between paragraphs.
    Gap,
}

/// At most this many acts are told one by one; earlier ones are counted.
const MAX_TOLD: usize = 6;

/// `Ana (White)`, or `White` when the file names nobody.
pub fn who(game: &Game, side: Color) -> String {
    let short = game.file().players.get(side).short(side);
    if short == side.name() {
        short
    } else {
        format!("{short} ({side})")
    }
}

/// One act in words: `Ana (White) played 4. Qh4+.`
pub fn describe(game: &Game, act: ActRef) -> String {
    let by = |s: Color| who(game, s);
    match act {
        ActRef::Start => {
            let tc = match game.file().time_control {
                Some(tc) => format!(", time control {tc}"),
                None => String::new(),
            };
            format!(
                "A new game of {} begins: {} v {}{tc}.",
                game.variant().spec().title,
                by(Color::White),
                by(Color::Black)
            )
        }
        ActRef::Move(i) => {
            let check = if i + 1 < game.moves().len() && game.position(i + 1).is_check() {
                ", check"
            } else {
                ""
            };
            let answer = if game.moves()[i].conditional {
                " at once, a conditional answer left in advance"
            } else {
                ""
            };
            format!(
                "{} played {}{answer}{check}.",
                by(game.turn_at(i)),
                game.numbered_move(i)
            )
        }
        ActRef::Retracted { event, index } => {
            let side = game.actor(act).expect("a move has a side");
            let Act::TakebackAccept { retracted } = &game.events()[event].act else {
                unreachable!("acts() names take-backs only")
            };
            format!(
                "{} played {} (since taken back).",
                by(side),
                retracted[index].canonical
            )
        }
        ActRef::Event(i) => {
            let e = &game.events()[i];
            let s = by(e.side);
            let o = game.file().players.get(!e.side).short(!e.side);
            match &e.act {
                Act::DrawOffer => format!("{s} offers a draw."),
                Act::DrawAccept => format!("{s} accepts {o}'s draw offer."),
                Act::DrawDecline => format!("{s} declines {o}'s draw offer."),
                Act::Resign => format!("{s} resigns."),
                Act::Claim { claim } => format!("{s} claims {}.", claim.name()),
                Act::TakebackRequest => match requested(game, i) {
                    Some(moves) => format!("{s} asks to take back {moves}."),
                    None => format!("{s} asks to take back their last move."),
                },
                Act::TakebackAccept { retracted } => {
                    let texts: Vec<&str> = retracted.iter().map(|m| m.canonical.as_str()).collect();
                    format!("{s} agrees to take back {}.", numbered(game, e.ply, &texts))
                }
                Act::TakebackDecline => format!("{s} refuses {o}'s take-back request."),
                Act::Adjudicate { result, reason } => {
                    format!("The referee adjudicates the game {result}: {reason}.")
                }
                Act::Abort { reason } => format!("The referee aborts the game: {reason}."),
                Act::Extend { by } => format!("The referee gives {s} {by} more for this move."),
                Act::Leave { from, days } => format!(
                    "{s} takes leave for {days} day{} from {} to {} (UTC): {s}'s clock stops meanwhile.",
                    if *days == 1 { "" } else { "s" },
                    crate::game::clock::format_time(*from),
                    crate::game::clock::format_time(*from + chrono::Duration::days((*days).into()))
                ),
            }
        }
    }
}

/// Moves played from ply `ply` on, numbered when the position there is
/// still known (`1... e5 and 2. Nf3`), else as they are (`e5 Nf3`).
fn numbered(game: &Game, ply: usize, texts: &[&str]) -> String {
    let Some(start) = game.positions().get(ply) else {
        return texts.join(" ");
    };
    let (mut turn, mut number) = (start.turn, start.fullmove);
    let mut out = Vec::new();
    for t in texts {
        out.push(match turn {
            Color::White => format!("{number}. {t}"),
            Color::Black => format!("{number}... {t}"),
        });
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
    match out.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => out.join(""),
    }
}

/// The moves a take-back request (event `i`) asks to retract, while they
/// are still on the board: back to and including the asker's last move.
fn requested(game: &Game, i: usize) -> Option<String> {
    let e = &game.events()[i];
    let later_takeback = game.events()[i + 1..]
        .iter()
        .any(|l| matches!(l.act, Act::TakebackAccept { .. }));
    if later_takeback || e.ply > game.moves().len() {
        return None;
    }
    let first = (0..e.ply).rev().find(|&j| game.turn_at(j) == e.side)?;
    let texts: Vec<&str> = game.moves()[first..e.ply]
        .iter()
        .map(|m| m.canonical.as_str())
        .collect();
    Some(numbered(game, first, &texts))
}

fn deadline_text(d: DateTime<Utc>) -> String {
    d.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// What `side` may do now, with the commands, for a game on `file`.
pub fn what_now(game: &Game, side: Color, file: &str) -> Vec<Block> {
    let mut b = Vec::new();
    let cmd = |s: &str| Block::Command(format!("postal {s} {file} --mail"));
    let me = who(game, side);
    let other = game.file().players.get(!side).short(!side);
    let turn = game.turn();
    let answer = |b: &mut Vec<Block>, what: &str, verb: &str| {
        b.push(Block::Line(format!(
            "{other}'s {what} stands; to answer it:"
        )));
        for step in ["accept", "decline"] {
            b.push(Block::Command(format!(
                "postal {verb} {file} {step} --mail"
            )));
        }
    };
    if side == turn {
        b.push(Block::Line(format!("{me}, it is your move:")));
        b.push(Block::Command(format!(
            "postal move {file} \"MOVE\" --mail"
        )));
        b.push(Block::Line(format!(
            "(postal moves {file} lists the legal moves.)"
        )));
        if let Some(d) = game.deadline() {
            b.push(Block::Line(format!("Your deadline: {}.", deadline_text(d))));
        }
    } else {
        let until = match game.deadline() {
            Some(d) => format!(", until {}", deadline_text(d)),
            None => String::new(),
        };
        b.push(Block::Line(format!("{me}, it is {other}'s move{until}.")));
    }
    if game.pending_draw_offer() == Some(!side) {
        answer(&mut b, "draw offer", "draw");
    }
    if game.pending_takeback() == Some(!side) {
        answer(&mut b, "take-back request", "takeback");
    }
    if game.pending_draw_offer() == Some(side) {
        b.push(Block::Line(format!(
            "Your draw offer stands until {other} answers it or moves."
        )));
    }
    if game.pending_takeback() == Some(side) {
        b.push(Block::Line(format!(
            "Your take-back request stands until {other} answers it."
        )));
    }
    if side == turn && (game.repetitions() >= 3 || game.current().halfmove >= 100) {
        b.push(Block::Line("You may claim a draw:".into()));
        b.push(cmd("claim"));
    }
    if side != turn && game.deadline().is_some() {
        b.push(Block::Line(format!(
            "Once {other}'s deadline has passed, you may claim the game:"
        )));
        b.push(Block::Command(format!("postal claim {file} time --mail")));
    }
    b
}

/// The score as people write it, `1. e4 e5 2. Nf3`, wrapped at 72.
fn score_lines(game: &Game) -> Vec<String> {
    let mut words = Vec::new();
    for i in 0..game.moves().len() {
        if game.turn_at(i) == Color::White || i == 0 {
            words.push(game.numbered_move(i));
        } else {
            words.push(game.moves()[i].canonical.clone());
        }
    }
    let mut lines = Vec::new();
    let mut line = String::from("Moves:");
    for w in words {
        if line.len() + 1 + w.len() > 72 {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    lines.push(line);
    lines
}

fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The blocks as text.
pub fn text_of(blocks: &[Block]) -> String {
    let mut t = String::new();
    for b in blocks {
        match b {
            Block::Line(l) => t.push_str(l),
            Block::Command(c) => {
                t.push_str("    ");
                t.push_str(c);
            }
            Block::Gap => {}
        }
        t.push('\n');
    }
    t
}

fn html_of(blocks: &[Block]) -> String {
    let mut h = String::new();
    for b in blocks {
        match b {
            Block::Line(l) => h.push_str(&format!("<p>{}</p>\n", escape_html(l))),
            Block::Command(c) => h.push_str(&format!(
                "<pre style=\"margin-left:2em\">{}</pre>\n",
                escape_html(c)
            )),
            Block::Gap => {}
        }
    }
    h
}

/// The notice of the acts `acts` (numbers of [`Game::acts`]) of a game
/// saved as `file_name`, to the players who should hear of them, with
/// their addresses for the record. The state file is not attached yet:
/// the caller attaches the file with this notice recorded in it
/// ([`super::post`]), so the recipient's copy knows the whole thread.
pub fn build(
    game: &Game,
    acts: RangeInclusive<usize>,
    file_name: &str,
    config: &Config,
    now: DateTime<Utc>,
) -> Result<(Notice, Vec<Addressee>), MailError> {
    let players = &game.file().players;
    for side in Color::ALL {
        players
            .get(side)
            .check()
            .map_err(|e| MailError::Address(format!("{side}: {e}")))?;
    }
    let sides = game.recipients_of(acts.clone());
    let mut to = Vec::new();
    let mut record = Vec::new();
    let mut missing = Vec::new();
    for &side in &sides {
        let p = players.get(side);
        match &p.email {
            Some(address) => {
                to.push(To {
                    name: p.name.clone(),
                    address: address.clone(),
                });
                record.push(Addressee {
                    side,
                    address: address.clone(),
                });
            }
            None => missing.push(side),
        }
    }
    if to.is_empty() {
        let side = missing.first().copied().unwrap_or(game.turn());
        return Err(MailError::Address(format!(
            "{side} has no mail address in {file_name}: start the game with --{} \"Name <address>\"",
            side.name().to_lowercase()
        )));
    }
    let reported = *acts.end();
    let all = game.acts();
    let told: Vec<ActRef> = acts.filter_map(|n| all.get(n).copied()).collect();
    let mut blocks = Vec::new();
    let skip = told.len().saturating_sub(MAX_TOLD);
    if skip > 0 {
        blocks.push(Block::Line(format!(
            "Since the last notice: {skip} acts (see the moves below), then:"
        )));
    }
    for &a in &told[skip..] {
        blocks.push(Block::Line(describe(game, a)));
    }
    blocks.push(Block::Gap);
    match game.result() {
        Some(end) => {
            blocks.push(Block::Line(format!("The game is over: {end}.")));
            blocks.push(Block::Line(
                "Nothing is left to answer; the final file is attached.".into(),
            ));
            blocks.push(Block::Gap);
        }
        None => {
            for &side in &sides {
                blocks.extend(what_now(game, side, file_name));
                blocks.push(Block::Gap);
            }
            if let Some(tc) = game.time_control_text() {
                blocks.push(Block::Line(format!("Time control: {tc}.")));
                blocks.extend(game.clock_lines(now).into_iter().map(Block::Line));
                blocks.push(Block::Gap);
            }
        }
    }
    let id = game.id();
    let variant = game.variant().spec().title;
    let pos = game.current();
    let last = game.moves().len().checked_sub(1);
    let opts = render::Options::for_position(pos, game.last_move());
    let board = render::ascii::position_board(pos, opts.clone());
    let mut tail = vec![Block::Line(format!(
        "{variant}: {} v {}, game {id}.",
        who(game, Color::White),
        who(game, Color::Black)
    ))];
    tail.push(Block::Line(match last {
        Some(i) => format!("The position after {}:", game.numbered_move(i)),
        None => "The start position:".into(),
    }));
    let mut text = text_of(&blocks);
    text.push_str(&text_of(&tail));
    text.push('\n');
    text.push_str(&board);
    if !board.ends_with('\n') {
        text.push('\n');
    }
    text.push('\n');
    let score = if game.moves().is_empty() {
        Vec::new()
    } else {
        score_lines(game)
    };
    for l in &score {
        text.push_str(l);
        text.push('\n');
    }
    let attach_note = format!(
        "The game's file is attached as {file_name}: save it, and answer\nwith the commands above."
    );
    text.push_str(&format!("\n{attach_note}\n"));

    let config_domain = config.domain();
    let message_id = compose::message_id(&id, reported, &config_domain);
    let mut html = String::from("<!DOCTYPE html>\n<html><body>\n");
    html.push_str(&html_of(&blocks));
    html.push_str(&html_of(&tail));
    html.push_str(&format!(
        "<p><img src=\"cid:{}\" alt=\"the board\"></p>\n",
        board_cid(&message_id)
    ));
    for l in &score {
        html.push_str(&format!("<p>{}</p>\n", escape_html(l)));
    }
    html.push_str(&format!(
        "<p>{}</p>\n</body></html>\n",
        escape_html(&attach_note)
    ));
    let title = format!(
        "{} v {}",
        players.white.short(Color::White),
        players.black.short(Color::Black)
    );
    let notice = Notice {
        message_id,
        references: game
            .notices()
            .iter()
            .map(|n| n.message_id.clone())
            .collect(),
        subject: game_subject(&title, variant, &id),
        from: config.from_address().to_string(),
        to,
        text,
        html,
        board_png: Some(render::render(pos, render::Format::Png, &opts)),
        attachment: None,
        date: now,
    };
    Ok((notice, record))
}
