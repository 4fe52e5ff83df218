//! The commands a reply may hold (design §3.6), one a line, keywords in
//! any case:
//!
//! ```text
//! [12. | 12...] MOVE             a move for the side to move, its number checked
//! draw offer | draw accept | draw decline    (also "offer draw", "accept draw", ...)
//! takeback request | takeback accept | takeback decline
//! accept | decline               whatever the opponent has asked
//! claim [repetition | fifty | time]
//! resign
//! leave 10 days | leave from 2027-01-02 for 10 days
//! if 13. e5 Nd5 14. c4 Nb6       conditional moves, one line each
//! show | help
//! ```
//!
//! At most one move; a move may be followed by `draw offer`, `claim`,
//! `leave` or `if` lines, played after it in the same save (as FICS
//! does); every other command stands alone. `if` lines replace the
//! conditional moves left before; they are the sender's alone, told to
//! nobody else. A message is applied whole or not at all: the commands
//! run on a copy of the game, and a refusal leaves the game as it was.

use crate::color::Color;
use crate::game::state::Proposal;
use crate::game::{Claim, Game, GameError};
use chrono::{DateTime, Utc};

/// One command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A move, with the number written before it: (12, Some(false)) for
    /// `12.`, (12, Some(true)) for `12...`, (12, None) for `12` or `12)`,
    /// which say nothing of the side.
    Move {
        number: Option<(u32, Option<bool>)>,
        text: String,
    },
    Draw(Proposal),
    Takeback(Proposal),
    /// `accept` or `decline` alone: the pending draw offer, else take-back.
    Answer(bool),
    Claim(Option<Claim>),
    Resign,
    /// Leave: from a day (default now), so many days.
    Leave {
        from: Option<DateTime<Utc>>,
        days: u32,
    },
    /// A line of conditional moves, as written after `if`.
    If(String),
    Show,
    Help,
}

impl Command {
    fn stands_alone(&self) -> bool {
        !matches!(
            self,
            Command::Move { .. }
                | Command::Draw(Proposal::Make)
                | Command::Claim(_)
                | Command::Leave { .. }
                | Command::If(_)
        )
    }
}

fn proposal(word: &str) -> Option<Proposal> {
    match word {
        "offer" | "request" | "ask" => Some(Proposal::Make),
        "accept" | "accepted" | "yes" => Some(Proposal::Accept),
        "decline" | "declined" | "refuse" | "no" => Some(Proposal::Decline),
        _ => None,
    }
}

/// The acts a line may hold, when it is not a move.
fn act_of(words: &[&str]) -> Option<Command> {
    let words: Vec<&str> = match words {
        ["take", "back", rest @ ..] => std::iter::once("takeback")
            .chain(rest.iter().copied())
            .collect(),
        _ => words.to_vec(),
    };
    Some(match words.as_slice() {
        ["draw"] | ["draw", "offer"] | ["offer", "draw"] | ["offer", "a", "draw"] => {
            Command::Draw(Proposal::Make)
        }
        ["draw", w] | [w, "draw"] if proposal(w).is_some() => {
            Command::Draw(proposal(w).unwrap_or(Proposal::Make))
        }
        ["takeback"] => Command::Takeback(Proposal::Make),
        ["takeback", w] | [w, "takeback"] if proposal(w).is_some() => {
            Command::Takeback(proposal(w).unwrap_or(Proposal::Make))
        }
        ["accept"] => Command::Answer(true),
        ["decline"] => Command::Answer(false),
        ["resign"] | ["i", "resign"] => Command::Resign,
        ["show"] => Command::Show,
        ["help"] => Command::Help,
        ["claim"] => Command::Claim(None),
        ["claim", "repetition" | "threefold"] => Command::Claim(Some(Claim::Repetition)),
        ["claim", "fifty" | "50"] => Command::Claim(Some(Claim::FiftyMoves)),
        ["claim", "time"] => Command::Claim(Some(Claim::Time)),
        ["leave", rest @ ..] => leave_of(rest)?,
        _ => return None,
    })
}

/// `10 days`, `10`, `from 2027-01-02 for 10 days`, `for 10 days from
/// 2027-01-02`: a leave's words after `leave`.
fn leave_of(words: &[&str]) -> Option<Command> {
    let days = |w: &str| w.parse::<u32>().ok();
    let unit = |rest: &[&str]| matches!(rest, [] | ["day" | "days"]);
    let from = |w: &str| crate::game::clock::parse_day_or_time(w).ok();
    let (from, days) = match words {
        [n, rest @ ..] if unit(rest) => (None, days(n)?),
        ["for", n, rest @ ..] if unit(rest) => (None, days(n)?),
        ["from", d, "for", n, rest @ ..] if unit(rest) => (Some(from(d)?), days(n)?),
        ["for", n, u, "from", d] if unit(&[u]) => (Some(from(d)?), days(n)?),
        _ => return None,
    };
    Some(Command::Leave { from, days })
}

/// The line after `if `, when the line is a conditional line.
fn if_line(line: &str) -> Option<&str> {
    let t = line.trim();
    let head = t.get(..3)?;
    head.eq_ignore_ascii_case("if ").then(|| t[3..].trim())
}

/// The words of a line in lower case, without closing punctuation.
fn words_of(line: &str) -> Vec<String> {
    line.trim()
        .trim_end_matches(['.', '!', ','])
        .to_lowercase()
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// A move's text as the notation reads it: closing punctuation (`e4.`)
/// dropped, and a check mark written before a Building Chess placement
/// (`Qxd1+ @h2`) put after it (`Qxd1 @h2+`).
fn move_text(text: &str) -> String {
    let t = text.trim().trim_end_matches(['.', ',', ';']).trim();
    if let Some((mv, place)) = t.split_once(" @") {
        let mark: String = mv
            .chars()
            .rev()
            .take_while(|c| *c == '+' || *c == '#')
            .collect();
        if !mark.is_empty() && !place.ends_with(['+', '#']) {
            let mv = mv.trim_end_matches(['+', '#']);
            return format!("{mv} @{}{mark}", place.trim());
        }
    }
    t.to_string()
}

/// Reads a move with the number people write before it: `12. Nf6`,
/// `12... Nf6`, `12...Nf6`, `12 Nf6`, `12) Nf6`.
fn read_move(line: &str) -> Command {
    let t = line.trim();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && digits < 5 {
        let rest = &t[digits..];
        let numbered = if let Some(a) = rest.strip_prefix("...") {
            Some((Some(true), a))
        } else if let Some(a) = rest.strip_prefix('.') {
            Some((Some(false), a))
        } else if let Some(a) = rest.strip_prefix(')') {
            Some((None, a))
        } else if rest.starts_with(' ') && !rest.trim().is_empty() {
            Some((None, rest))
        } else {
            None
        };
        if let (Some((black, after)), Ok(n)) = (numbered, t[..digits].parse()) {
            let after = after.trim();
            // `12. ... Nf6`
            let (black, after) = match after.strip_prefix("...") {
                Some(a) => (Some(true), a.trim()),
                None => (black, after),
            };
            return Command::Move {
                number: Some((n, black)),
                text: move_text(after),
            };
        }
    }
    Command::Move {
        number: None,
        text: move_text(t),
    }
}

/// Whether a text could be a move, in any variant's notation: one word
/// with a digit or a castling (`Nf6`, `e7-e5`, `Qd1/g4`, `O-O`), or a move
/// and a Building Chess placement (`Nc3 @f3`), after a move number. "Good
/// luck!" and "Thanks" could not.
pub fn looks_like_move(line: &str) -> bool {
    let Command::Move { text, .. } = read_move(line) else {
        return false;
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    let word_ok = |w: &str| {
        w.len() <= 24
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || "=+#x/@:;-!?()".contains(c))
    };
    let castle = |w: &str| {
        let w = w.trim_end_matches(['+', '#', '!', '?']);
        matches!(w, "O-O" | "O-O-O" | "0-0" | "0-0-0" | "o-o" | "o-o-o")
    };
    match words.as_slice() {
        [w] => word_ok(w) && (w.chars().any(|c| c.is_ascii_digit()) || castle(w)),
        [w, place] => {
            word_ok(w) && place.starts_with('@') && place.chars().any(|c| c.is_ascii_digit())
        }
        _ => false,
    }
}

/// Reads one line as one or two commands: a move may be followed by an
/// act on the same line (`5. Nc3 draw offer`).
pub fn parse_line(line: &str) -> Vec<Command> {
    if let Some(rest) = if_line(line) {
        return vec![Command::If(rest.to_string())];
    }
    let words = words_of(line);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    if let Some(c) = act_of(&words) {
        return vec![c];
    }
    // A move and then an act: the act is the line's last one to three words.
    let raw: Vec<&str> = line.split_whitespace().collect();
    for n in 1..=3.min(raw.len().saturating_sub(1)) {
        let (head, _) = raw.split_at(raw.len() - n);
        let head = head.join(" ");
        if let Some(c) = act_of(&words[words.len() - n..]) {
            if matches!(c, Command::Draw(Proposal::Make) | Command::Claim(_))
                && looks_like_move(&head)
            {
                return vec![read_move(&head), c];
            }
        }
    }
    vec![read_move(line)]
}

/// A command block read: the commands, and the lines after the first
/// command that are neither commands nor moves, read as the start of the
/// comment (`e4` then `Good luck!`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Block {
    pub commands: Vec<Command>,
    pub comment: Vec<String>,
}

/// Reads a command block and checks how the commands combine.
pub fn parse_block(lines: &[String]) -> Result<Block, String> {
    if lines.is_empty() {
        return Err("no command found above the quoted notice".into());
    }
    let mut block = Block::default();
    for (i, line) in lines.iter().enumerate() {
        if !block.comment.is_empty() {
            block.comment.push(line.clone());
            continue;
        }
        let words = words_of(line);
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        if i == 0 || act_of(&words).is_some() || looks_like_move(line) || if_line(line).is_some() {
            block.commands.extend(parse_line(line));
        } else {
            block.comment.push(line.clone());
        }
    }
    let cmds = &block.commands;
    let moves = cmds
        .iter()
        .filter(|c| matches!(c, Command::Move { .. }))
        .count();
    if moves > 1 {
        return Err(format!(
            "{moves} moves in one message: send one move (the first lines, up to a blank line, are read as commands)"
        ));
    }
    if cmds.len() > 1 && cmds.iter().any(Command::stands_alone) {
        return Err(
            "accept, decline, resign, takeback, show and help must stand alone; a move may be followed by \"draw offer\", \"claim\", \"leave\" or \"if\" lines"
                .into(),
        );
    }
    if moves == 1 && !matches!(cmds.first(), Some(Command::Move { .. })) {
        return Err(
            "put the move first, then \"draw offer\", \"claim\", \"leave\" or \"if\" lines".into(),
        );
    }
    Ok(block)
}

/// Checks the number written before a move against the game.
fn check_number(game: &Game, number: (u32, Option<bool>)) -> Result<(), GameError> {
    let pos = game.current();
    let now_black = pos.turn == Color::Black;
    let (n, black) = number;
    if n as u64 == pos.fullmove as u64 && black.is_none_or(|b| b == now_black) {
        return Ok(());
    }
    let written = match black {
        Some(true) => format!("{n}..."),
        Some(false) => format!("{n}."),
        None => n.to_string(),
    };
    let current = format!("{}{}", pos.fullmove, if now_black { "..." } else { "." });
    Err(GameError::Rule(format!(
        "the move is numbered {written} but the game is at {current} ({} to move)",
        pos.turn
    )))
}

/// What a message's commands did: lines for both players, and lines for
/// the sender alone (their conditional moves).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    pub said: Vec<String>,
    pub private: Vec<String>,
}

/// Applies a message's commands for `side`, all or none. Returns what
/// happened, one line an act.
pub fn apply(
    game: &mut Game,
    side: Color,
    cmds: &[Command],
    comment: Option<String>,
    now: DateTime<Utc>,
) -> Result<Applied, GameError> {
    let mut work = game.clone();
    let mut said = Vec::new();
    let mut private = Vec::new();
    let mut comment = comment.filter(|c| !c.is_empty());
    let mut answered = false;
    let lines: Vec<String> = cmds
        .iter()
        .filter_map(|c| match c {
            Command::If(l) => Some(l.clone()),
            _ => None,
        })
        .collect();
    for c in cmds {
        let line = match c {
            Command::Move { number, text } => {
                if work.result().is_none() && work.turn() != side {
                    return Err(GameError::Rule(format!(
                        "it is {}'s move, not {side}'s",
                        work.turn()
                    )));
                }
                if let Some(n) = number {
                    check_number(&work, *n)?;
                }
                let r = work.play(text, comment.take(), now)?;
                let mut line = format!("{} played {}", r.mover, r.numbered());
                for f in r.facts() {
                    line.push_str(&format!("; {f}"));
                }
                if let Some(a) = &r.answer {
                    answered = true;
                    said.push(line);
                    line = format!(
                        "{} answered at once with {}, a conditional move left in advance",
                        a.mover,
                        a.numbered()
                    );
                    for f in a.facts() {
                        line.push_str(&format!("; {f}"));
                    }
                }
                line
            }
            Command::Leave { from, days } => work.take_leave(side, *from, *days, now)?,
            Command::If(_) => continue,
            Command::Draw(p) => work.draw(*p, Some(side), now)?,
            Command::Takeback(p) => work.takeback(*p, Some(side), now)?,
            Command::Answer(yes) => {
                let p = if *yes {
                    Proposal::Accept
                } else {
                    Proposal::Decline
                };
                if work.pending_draw_offer().is_some_and(|by| by != side) {
                    work.draw(p, Some(side), now)?
                } else if work.pending_takeback().is_some_and(|by| by != side) {
                    work.takeback(p, Some(side), now)?
                } else {
                    return Err(GameError::Rule(format!(
                        "nothing to {}: no draw offer or take-back request is waiting for {side}",
                        if *yes { "accept" } else { "decline" }
                    )));
                }
            }
            Command::Claim(c) => {
                let e = work.claim(*c, Some(side), now)?;
                format!("{side} claims: game over: {e}")
            }
            Command::Resign => {
                let e = work.resign(Some(side), now)?;
                format!("game over: {e}")
            }
            Command::Show | Command::Help => continue,
        };
        said.push(line);
    }
    if !lines.is_empty() {
        if answered {
            private.push(
                "Your conditional moves were not kept: your move was answered at once, and it is your move again.".into(),
            );
        } else {
            let shown = work.set_conditional(side, &lines)?;
            let opp = work.file().players.get(!side).short(!side);
            private.push(format!(
                "Your {} of conditional moves {} kept for {opp}'s reply (never shown to {opp}; listed below).",
                if shown.len() == 1 { "line".to_string() } else { format!("{} lines", shown.len()) },
                if shown.len() == 1 { "is" } else { "are" },
            ));
        }
    }
    *game = work;
    Ok(Applied { said, private })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::clock::parse_time;
    use crate::game::state::Players;
    use crate::position::Position;
    use crate::variant::Variant;

    fn lines(s: &[&str]) -> Vec<String> {
        s.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn reads_commands() {
        let one = |l: &str| {
            let mut c = parse_line(l);
            assert_eq!(c.len(), 1, "{l}: {c:?}");
            c.remove(0)
        };
        let mv = |n: Option<(u32, Option<bool>)>, t: &str| Command::Move {
            number: n,
            text: t.into(),
        };
        assert_eq!(one("Draw Offer"), Command::Draw(Proposal::Make));
        assert_eq!(one("accept draw"), Command::Draw(Proposal::Accept));
        assert_eq!(one("take back"), Command::Takeback(Proposal::Make));
        assert_eq!(one("claim time"), Command::Claim(Some(Claim::Time)));
        assert_eq!(one("12... Nf6"), mv(Some((12, Some(true))), "Nf6"));
        assert_eq!(one("3.e4"), mv(Some((3, Some(false))), "e4"));
        assert_eq!(one("e4."), mv(None, "e4"));
        assert_eq!(one("1 e4"), mv(Some((1, None)), "e4"));
        assert_eq!(one("1) e4"), mv(Some((1, None)), "e4"));
        assert_eq!(one("12. ... Nf6"), mv(Some((12, Some(true))), "Nf6"));
        assert_eq!(one("Qxd1+ @h2"), mv(None, "Qxd1 @h2+"));
        assert_eq!(
            parse_line("5. Nc3 draw offer"),
            vec![
                mv(Some((5, Some(false))), "Nc3"),
                Command::Draw(Proposal::Make)
            ]
        );
        assert_eq!(
            parse_line("Nf3 claim repetition"),
            vec![mv(None, "Nf3"), Command::Claim(Some(Claim::Repetition))]
        );
        for m in [
            "Nf6",
            "e7-e5",
            "Qd1/g4",
            "O-O",
            "12... Nf6",
            "Nc3 @f3",
            "exd8=Q+",
        ] {
            assert!(looks_like_move(m), "{m}");
        }
        for m in ["Good luck!", "Thanks", "NO! That was not me.", "Hi Ben"] {
            assert!(!looks_like_move(m), "{m}");
        }
        let b = parse_block(&lines(&["e4", "Good luck!", "See you"])).unwrap();
        assert_eq!(b.commands.len(), 1);
        assert_eq!(b.comment, vec!["Good luck!", "See you"]);
        assert!(parse_block(&lines(&["e4", "draw offer"])).is_ok());
        assert!(parse_block(&lines(&["e4", "d4"])).is_err());
        assert!(parse_block(&lines(&["resign", "e4"])).is_err());
        assert!(parse_block(&lines(&[])).is_err());
    }

    #[test]
    fn all_or_none_and_numbers() {
        let now = parse_time("2025-01-01T00:00:00Z").unwrap();
        let mut g = Game::new(
            Position::start(Variant::Chess),
            Players::default(),
            None,
            now,
        )
        .unwrap();
        let cmds = parse_block(&lines(&["1. e4", "draw offer"]))
            .unwrap()
            .commands;
        let said = apply(&mut g, Color::White, &cmds, Some("hi".into()), now).unwrap();
        assert_eq!(said.said[0], "White played 1. e4");
        assert_eq!(g.moves()[0].comment.as_deref(), Some("hi"));
        let before = g.to_json();
        // The number is wrong: nothing at all is applied.
        let cmds = parse_block(&lines(&["2... e5"])).unwrap().commands;
        assert!(apply(&mut g, Color::Black, &cmds, None, now).is_err());
        // White cannot move for Black.
        let cmds = parse_block(&lines(&["e5"])).unwrap().commands;
        assert!(apply(&mut g, Color::White, &cmds, None, now).is_err());
        // A legal move then an impossible claim: the move is not kept either.
        let cmds = parse_block(&lines(&["e5", "claim repetition"]))
            .unwrap()
            .commands;
        assert!(apply(&mut g, Color::Black, &cmds, None, now).is_err());
        assert_eq!(g.to_json(), before);
        let cmds = parse_block(&lines(&["accept"])).unwrap().commands;
        let said = apply(&mut g, Color::Black, &cmds, None, now).unwrap();
        assert!(said.said[0].contains("game over"), "{said:?}");
    }
}
