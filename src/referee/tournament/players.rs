//! The players file of `postal referee tournament new`: one player a
//! line, `Name <address>` as `postal new` takes a player (here both the
//! name and the address are needed: the cross-table shows names, the
//! referee mails addresses), `#` to the end of a line a comment, blank
//! lines skipped. The order of the lines is the seeding: the first player
//! is number 1 of the Berger tables.
//!
//! Every error names the line and the bytes at fault ([`PlayersError`]),
//! so that the command line prints it with a caret as other file errors.

use crate::error::Span;
use crate::game::Player;

/// The fewest players of a tournament.
pub const MIN_PLAYERS: usize = 3;
/// The most: 64 players are 2,016 games a cycle.
pub const MAX_PLAYERS: usize = 64;

/// A player of the file, with where it stands in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    /// As written; compared in lower case.
    pub email: String,
    pub span: Span,
}

/// What is wrong with a players file: the message, and the bytes it is
/// about (none when it is about the whole file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayersError {
    pub message: String,
    pub span: Option<Span>,
}

impl std::fmt::Display for PlayersError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PlayersError {}

fn at(span: Span, message: String) -> PlayersError {
    PlayersError {
        message,
        span: Some(span),
    }
}

/// Reads a players file's text.
pub fn read(text: &str) -> Result<Vec<Entry>, PlayersError> {
    let mut out: Vec<Entry> = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let body = line.split('#').next().unwrap_or("");
        let trimmed = body.trim();
        if trimmed.is_empty() {
            continue;
        }
        let lead = body.len() - body.trim_start().len();
        let span = Span::new(start + lead, start + lead + trimmed.len());
        let player = Player::parse(trimmed).map_err(|e| at(span, e))?;
        let (Some(name), Some(email)) = (player.name, player.email) else {
            return Err(at(
                span,
                format!(
                    "a player is \"Name <address>\", with both: {trimmed:?} has {}",
                    if trimmed.contains('@') {
                        "no name"
                    } else {
                        "no address"
                    }
                ),
            ));
        };
        if let Some(first) = out
            .iter()
            .find(|p| p.email.eq_ignore_ascii_case(&email) || p.name == name)
        {
            let line = text[..first.span.start].matches('\n').count() + 1;
            return Err(at(
                span,
                format!("{} is already a player, on line {line}", first.name),
            ));
        }
        if out.len() == MAX_PLAYERS {
            return Err(at(
                span,
                format!("a tournament has at most {MAX_PLAYERS} players"),
            ));
        }
        out.push(Entry { name, email, span });
    }
    if out.len() < MIN_PLAYERS {
        return Err(PlayersError {
            message: format!(
                "{} in the file; a tournament needs at least {MIN_PLAYERS}",
                match out.len() {
                    1 => "1 player".to_string(),
                    n => format!("{n} players"),
                }
            ),
            span: None,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_comments_and_blank_lines() {
        let text = "# the club\nAna <ana@example.org>\n\n  Ben <ben@example.org>  # seeded 2\nCid <cid@example.org>";
        let p = read(text).unwrap();
        assert_eq!(
            p.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(),
            ["Ana", "Ben", "Cid"]
        );
        assert_eq!(
            &text[p[1].span.start..p[1].span.end],
            "Ben <ben@example.org>"
        );
    }

    #[test]
    fn a_player_twice_is_refused_where_it_stands() {
        let text = "Ana <ana@example.org>\nBen <ben@example.org>\nAnna <ANA@example.org>\n";
        let e = read(text).unwrap_err();
        assert_eq!(e.message, "Ana is already a player, on line 1");
        assert_eq!(
            &text[e.span.unwrap().start..e.span.unwrap().end],
            "Anna <ANA@example.org>"
        );
    }

    #[test]
    fn an_address_or_a_name_missing_is_refused() {
        let e = read("Ana <ana@example.org>\nBen\nCid <cid@example.org>\n").unwrap_err();
        assert!(e.message.contains("no address"), "{}", e.message);
        assert_eq!(e.span, Some(Span::new(22, 25)));
        let e = read("Ana <ana@example.org>\nben@example.org\n").unwrap_err();
        assert!(e.message.contains("no name"), "{}", e.message);
    }

    #[test]
    fn fewer_than_three_players_are_refused() {
        let e = read("Ana <ana@example.org>\nBen <ben@example.org>\n").unwrap_err();
        assert_eq!(e.span, None);
        assert!(e.message.starts_with("2 players"), "{}", e.message);
    }
}
