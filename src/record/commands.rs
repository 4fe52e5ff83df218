//! Commands embedded in comments, as lichess, ChessBase and the DGT
//! boards write them (the "PGN Specification Supplement" of
//! Silman/Wellnitz): `[%clk 0:03:00]` the clock after the move,
//! `[%emt 0:00:12]` the time the move took, `[%eval 0.3]` or
//! `[%eval #-2]` an engine's evaluation, `[%cal Ge2e4,Rd8d1]` arrows and
//! `[%csl Rd4]` marked squares. The record keeps the comment as written
//! (so PGN output carries the commands); a page or a diagram reads them
//! here, and shows the rest of the comment as prose.

use crate::notation::square::parse_square;
use crate::square::Square;

/// The colour of an arrow or a marked square: the letter the command
/// gives it (`G` green, `R` red, `Y` yellow, `B` blue).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MarkColour {
    Green,
    Red,
    Yellow,
    Blue,
}

impl MarkColour {
    fn from_letter(c: char) -> Option<MarkColour> {
        match c.to_ascii_uppercase() {
            'G' => Some(MarkColour::Green),
            'R' => Some(MarkColour::Red),
            'Y' => Some(MarkColour::Yellow),
            'B' => Some(MarkColour::Blue),
            _ => None,
        }
    }

    /// The letter the commands write.
    pub fn letter(self) -> char {
        match self {
            MarkColour::Green => 'G',
            MarkColour::Red => 'R',
            MarkColour::Yellow => 'Y',
            MarkColour::Blue => 'B',
        }
    }

    /// Its colour on a board, as lichess draws it.
    pub fn css(self) -> &'static str {
        match self {
            MarkColour::Green => "#15781b",
            MarkColour::Red => "#882020",
            MarkColour::Yellow => "#e68f00",
            MarkColour::Blue => "#003088",
        }
    }
}

/// An arrow (`[%cal]`) or a marked square (`[%csl]`) on the board at a
/// move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    Arrow {
        from: Square,
        to: Square,
        colour: MarkColour,
    },
    Square {
        square: Square,
        colour: MarkColour,
    },
}

/// What the commands of a move's comments say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Commands {
    /// `[%clk]`: the time left on the mover's clock after the move.
    pub clock: Option<String>,
    /// `[%emt]`: the time the move took.
    pub elapsed: Option<String>,
    /// `[%eval]`: `+0.30`, `-1.20`, `#-2`, as the page prints it.
    pub eval: Option<String>,
    /// `[%cal]` and `[%csl]`, in the order written.
    pub marks: Vec<Mark>,
}

impl Commands {
    /// True when no command was read.
    pub fn is_empty(&self) -> bool {
        self.clock.is_none()
            && self.elapsed.is_none()
            && self.eval.is_none()
            && self.marks.is_empty()
    }
}

/// Reads the commands out of one comment into `into` and returns the
/// prose left, trimmed (empty when the comment held only commands).
/// Commands other than the five known ones are left in the prose; a
/// malformed one is left as written.
pub fn read(comment: &str, into: &mut Commands) -> String {
    let mut prose = String::new();
    let mut rest = comment;
    while let Some(open) = rest.find("[%") {
        let Some(close) = rest[open..].find(']') else {
            break;
        };
        let body = &rest[open + 2..open + close];
        let (name, args) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
        if read_command(name, args.trim(), into) {
            prose.push_str(&rest[..open]);
        } else {
            prose.push_str(&rest[..open + close + 1]);
        }
        rest = &rest[open + close + 1..];
    }
    prose.push_str(rest);
    prose.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The commands of a move's comments (those after it) and their prose.
pub fn of_comments(comments: &[String]) -> (Commands, Vec<String>) {
    let mut commands = Commands::default();
    let prose = comments
        .iter()
        .map(|c| read(c, &mut commands))
        .filter(|p| !p.is_empty())
        .collect();
    (commands, prose)
}

fn read_command(name: &str, args: &str, into: &mut Commands) -> bool {
    match name {
        "clk" if is_time(args) => into.clock = Some(short_time(args)),
        "emt" if is_time(args) => into.elapsed = Some(short_time(args)),
        "eval" => match eval_text(args) {
            Some(e) => into.eval = Some(e),
            None => return false,
        },
        "cal" | "csl" => {
            let mut marks = Vec::new();
            for item in args.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let mut chars = item.chars();
                let Some(colour) = chars.next().and_then(MarkColour::from_letter) else {
                    return false;
                };
                let squares = chars.as_str();
                let mark = if name == "cal" {
                    let split = (2..squares.len())
                        .filter(|&i| squares.is_char_boundary(i))
                        .find_map(|i| {
                            Some((parse_square(&squares[..i])?, parse_square(&squares[i..])?))
                        });
                    match split {
                        Some((from, to)) => Mark::Arrow { from, to, colour },
                        None => return false,
                    }
                } else {
                    match parse_square(squares) {
                        Some(square) => Mark::Square { square, colour },
                        None => return false,
                    }
                };
                marks.push(mark);
            }
            into.marks.extend(marks);
        }
        _ => return false,
    }
    true
}

/// `H:MM:SS` or `H:MM:SS.s`, as the clocks write.
fn is_time(text: &str) -> bool {
    let parts: Vec<&str> = text.split(':').collect();
    (2..=3).contains(&parts.len())
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit() || c == '.'))
}

/// A clock as a reader wants it: no leading zero hours (`0:03:00` is
/// `3:00`), tenths kept.
fn short_time(text: &str) -> String {
    match text.split_once(':') {
        Some((h, rest)) if h.trim_start_matches('0').is_empty() => {
            let rest = rest
                .strip_prefix('0')
                .filter(|r| r.len() > 3)
                .unwrap_or(rest);
            rest.to_string()
        }
        _ => text.to_string(),
    }
}

/// An evaluation as printed: pawns with a sign and two decimals
/// (`+0.30`), or a mate in so many moves (`#-2`).
fn eval_text(args: &str) -> Option<String> {
    // An evaluation may be followed by a depth: `[%eval 0.3,20]`.
    let value = args.split([',', ' ']).next()?.trim();
    if let Some(m) = value.strip_prefix('#') {
        let n: i32 = m.parse().ok()?;
        return Some(format!("#{n}"));
    }
    let v: f64 = value.parse().ok()?;
    v.is_finite().then(|| format!("{v:+.2}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_five_commands_are_read_and_the_prose_left() {
        let mut c = Commands::default();
        let prose = read(
            "A fine move [%clk 0:03:00] [%eval 0.3] [%cal Ge2e4,Rd8d1] [%csl Rd4] [%emt 0:00:12]",
            &mut c,
        );
        assert_eq!(prose, "A fine move");
        assert_eq!(c.clock.as_deref(), Some("3:00"));
        assert_eq!(c.elapsed.as_deref(), Some("0:12"));
        assert_eq!(c.eval.as_deref(), Some("+0.30"));
        assert_eq!(c.marks.len(), 3);
        assert_eq!(
            c.marks[0],
            Mark::Arrow {
                from: Square::new(5, 2),
                to: Square::new(5, 4),
                colour: MarkColour::Green
            }
        );
        assert_eq!(
            c.marks[2],
            Mark::Square {
                square: Square::new(4, 4),
                colour: MarkColour::Red
            }
        );
    }

    #[test]
    fn mates_hours_and_unknown_commands() {
        let mut c = Commands::default();
        assert_eq!(read("[%eval #-2] [%clk 1:02:03.4]", &mut c), "");
        assert_eq!(c.eval.as_deref(), Some("#-2"));
        assert_eq!(c.clock.as_deref(), Some("1:02:03.4"));
        let mut c = Commands::default();
        assert_eq!(
            read("x [%foo bar] [%cal Qe2e4]", &mut c),
            "x [%foo bar] [%cal Qe2e4]"
        );
        assert!(c.is_empty());
        let mut c = Commands::default();
        read("[%clk 0:00:09.5]", &mut c);
        assert_eq!(c.clock.as_deref(), Some("0:09.5"));
    }
}
