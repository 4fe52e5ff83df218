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
//! show | help
//! ```
//!
//! At most one move; a move may be followed by `draw offer` or `claim`,
//! played after it in the same save (as FICS does); every other command
//! stands alone. A message is applied whole or not at all: the commands
//! run on a copy of the game, and a refusal leaves the game as it was.

use crate::color::Color;
use crate::game::state::Proposal;
use crate::game::{Claim, Game, GameError};
use chrono::{DateTime, Utc};

/// One command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A move, with the number written before it: (12, false) for `12.`,
    /// (12, true) for `12...`.
    Move {
        number: Option<(u32, bool)>,
        text: String,
    },
    Draw(Proposal),
    Takeback(Proposal),
    /// `accept` or `decline` alone: the pending draw offer, else take-back.
    Answer(bool),
    Claim(Option<Claim>),
    Resign,
    Show,
    Help,
}

impl Command {
    fn stands_alone(&self) -> bool {
        !matches!(
            self,
            Command::Move { .. } | Command::Draw(Proposal::Make) | Command::Claim(_)
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

/// Reads one line.
pub fn parse_line(line: &str) -> Command {
    let lower = line.trim().trim_end_matches(['.', '!']).to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let words: Vec<&str> = match words.as_slice() {
        ["take", "back", rest @ ..] => std::iter::once("takeback")
            .chain(rest.iter().copied())
            .collect(),
        _ => words,
    };
    match words.as_slice() {
        ["draw"] | ["draw", "offer"] | ["offer", "draw"] | ["offer", "a", "draw"] => {
            return Command::Draw(Proposal::Make)
        }
        ["draw", w] | [w, "draw"] if proposal(w).is_some() => {
            return Command::Draw(proposal(w).unwrap_or(Proposal::Make))
        }
        ["takeback"] => return Command::Takeback(Proposal::Make),
        ["takeback", w] | [w, "takeback"] if proposal(w).is_some() => {
            return Command::Takeback(proposal(w).unwrap_or(Proposal::Make))
        }
        ["accept"] => return Command::Answer(true),
        ["decline"] => return Command::Answer(false),
        ["resign"] | ["i", "resign"] => return Command::Resign,
        ["show"] => return Command::Show,
        ["help"] => return Command::Help,
        ["claim"] => return Command::Claim(None),
        ["claim", w] => match *w {
            "repetition" | "threefold" => return Command::Claim(Some(Claim::Repetition)),
            "fifty" | "50" => return Command::Claim(Some(Claim::FiftyMoves)),
            "time" => return Command::Claim(Some(Claim::Time)),
            _ => {}
        },
        _ => {}
    }
    let t = line.trim();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && digits < 5 {
        let rest = &t[digits..];
        let (black, after) = if let Some(a) = rest.strip_prefix("...") {
            (true, a)
        } else if let Some(a) = rest.strip_prefix('.') {
            (false, a)
        } else {
            return Command::Move {
                number: None,
                text: t.to_string(),
            };
        };
        if let Ok(n) = t[..digits].parse() {
            return Command::Move {
                number: Some((n, black)),
                text: after.trim().to_string(),
            };
        }
    }
    Command::Move {
        number: None,
        text: t.to_string(),
    }
}

/// Reads a command block and checks how the commands combine.
pub fn parse_block(lines: &[String]) -> Result<Vec<Command>, String> {
    if lines.is_empty() {
        return Err("no command found above the quoted notice".into());
    }
    let cmds: Vec<Command> = lines.iter().map(|l| parse_line(l)).collect();
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
            "accept, decline, resign, takeback, show and help must stand alone; a move may be followed by \"draw offer\" or \"claim\""
                .into(),
        );
    }
    if let (Some(Command::Move { .. }), true) = (cmds.first(), moves == 1) {
        Ok(cmds)
    } else if moves == 1 {
        Err("put the move first, then \"draw offer\" or \"claim\"".into())
    } else {
        Ok(cmds)
    }
}

/// Checks the number written before a move against the game.
fn check_number(game: &Game, number: (u32, bool)) -> Result<(), GameError> {
    let pos = game.current();
    let now_black = pos.turn == Color::Black;
    let (n, black) = number;
    if n as u64 == pos.fullmove as u64 && black == now_black {
        return Ok(());
    }
    let written = format!("{n}{}", if black { "..." } else { "." });
    let current = format!("{}{}", pos.fullmove, if now_black { "..." } else { "." });
    Err(GameError::Rule(format!(
        "the move is numbered {written} but the game is at {current} ({} to move)",
        pos.turn
    )))
}

/// Applies a message's commands for `side`, all or none. Returns what
/// happened, one line an act, for the players.
pub fn apply(
    game: &mut Game,
    side: Color,
    cmds: &[Command],
    comment: Option<String>,
    now: DateTime<Utc>,
) -> Result<Vec<String>, GameError> {
    let mut work = game.clone();
    let mut said = Vec::new();
    let mut comment = comment.filter(|c| !c.is_empty());
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
                line
            }
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
    *game = work;
    Ok(said)
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
        assert_eq!(parse_line("Draw Offer"), Command::Draw(Proposal::Make));
        assert_eq!(parse_line("accept draw"), Command::Draw(Proposal::Accept));
        assert_eq!(parse_line("take back"), Command::Takeback(Proposal::Make));
        assert_eq!(parse_line("claim time"), Command::Claim(Some(Claim::Time)));
        assert_eq!(
            parse_line("12... Nf6"),
            Command::Move {
                number: Some((12, true)),
                text: "Nf6".into()
            }
        );
        assert_eq!(
            parse_line("3.e4"),
            Command::Move {
                number: Some((3, false)),
                text: "e4".into()
            }
        );
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
        let cmds = parse_block(&lines(&["1. e4", "draw offer"])).unwrap();
        let said = apply(&mut g, Color::White, &cmds, Some("hi".into()), now).unwrap();
        assert_eq!(said[0], "White played 1. e4");
        assert_eq!(g.moves()[0].comment.as_deref(), Some("hi"));
        let before = g.to_json();
        // The number is wrong: nothing at all is applied.
        let cmds = parse_block(&lines(&["2... e5"])).unwrap();
        assert!(apply(&mut g, Color::Black, &cmds, None, now).is_err());
        // White cannot move for Black.
        let cmds = parse_block(&lines(&["e5"])).unwrap();
        assert!(apply(&mut g, Color::White, &cmds, None, now).is_err());
        // A legal move then an impossible claim: the move is not kept either.
        let cmds = parse_block(&lines(&["e5", "claim repetition"])).unwrap();
        assert!(apply(&mut g, Color::Black, &cmds, None, now).is_err());
        assert_eq!(g.to_json(), before);
        let cmds = parse_block(&lines(&["accept"])).unwrap();
        let said = apply(&mut g, Color::Black, &cmds, None, now).unwrap();
        assert!(said[0].contains("game over"), "{said:?}");
    }
}
