//! Conditional moves (`impl Game` continued): "if he plays this, I answer
//! that". The player who has just moved leaves lines of expected replies
//! and answers (`13. e5 Nd5 14. c4 Nb6`), together a tree: lines that
//! agree on their first moves share them, and one reply has one answer.
//! Every move of a line is checked legal in its position when given.
//!
//! When the opponent plays the first move of a line, its answer is played
//! at once, in the same save (so a crash loses neither), marked as a
//! conditional answer; the lines go on from there. Any other move, a
//! take-back, or new lines clear them. The lines live in the state file
//! (`conditional`) and nowhere else: notices, exports and the referee's
//! site never show them, and a state file mailed to the opponent goes
//! without them ([`super::party`]).

use super::file::Conditional;
use super::state::{canonical_text, Game};
use super::GameError;
use crate::color::Color;
use crate::position::Position;

/// The most lines a player may leave at once.
pub const MAX_LINES: usize = 64;
/// The most moves (half-moves) in one line.
pub const MAX_LINE_PLIES: usize = 40;

/// The moves of a line as written: move numbers (`13.`, `13...`) apart,
/// a Building Chess placement (`@f3`) joined to its move.
fn tokens(line: &str) -> Vec<(Option<u32>, String)> {
    let mut out: Vec<(Option<u32>, String)> = Vec::new();
    let mut number = None;
    for word in line.split_whitespace() {
        if word.starts_with('@') {
            if let Some(last) = out.last_mut() {
                last.1.push(' ');
                last.1.push_str(word);
                continue;
            }
        }
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        let rest = &word[digits..];
        if digits > 0 && rest.starts_with('.') {
            number = word[..digits].parse().ok();
            let after = rest.trim_start_matches('.');
            if after.is_empty() {
                continue;
            }
            out.push((number.take(), after.to_string()));
            continue;
        }
        out.push((number.take(), word.to_string()));
    }
    out
}

impl Game {
    /// The lines `side` has left, as canonical texts from the current
    /// position.
    pub fn conditional_of(&self, side: Color) -> Option<&[Vec<String>]> {
        self.file()
            .conditional
            .as_ref()
            .filter(|c| c.side == side)
            .map(|c| c.lines.as_slice())
    }

    /// Reads and checks the lines, each from the current position, the
    /// side to move first: their canonical texts.
    fn read_lines(&self, lines: &[String]) -> Result<Vec<Vec<String>>, GameError> {
        if lines.len() > MAX_LINES {
            return Err(GameError::Rule(format!(
                "{} lines, more than the {MAX_LINES} one player may leave",
                lines.len()
            )));
        }
        let mut out: Vec<Vec<String>> = Vec::new();
        for (n, line) in lines.iter().enumerate() {
            let moves = tokens(line);
            let label = format!("line {} ({line:?})", n + 1);
            if moves.is_empty() {
                return Err(GameError::Rule(format!("{label} has no move")));
            }
            if moves.len() > MAX_LINE_PLIES {
                return Err(GameError::Rule(format!(
                    "{label} has {} moves, more than {MAX_LINE_PLIES}",
                    moves.len()
                )));
            }
            let mut pos: Position = self.current().clone();
            let mut texts = Vec::new();
            for (number, text) in &moves {
                if let Some(n) = number {
                    if *n != pos.fullmove {
                        return Err(GameError::Rule(format!(
                            "{label}: {text} is numbered {n}, but it would be move {} ({} to move)",
                            pos.fullmove, pos.turn
                        )));
                    }
                }
                let mv = pos.parse_move(text).map_err(|error| GameError::Move {
                    text: text.clone(),
                    error,
                })?;
                let (next, _) = pos.play_with_effects(&mv).map_err(|e| GameError::Move {
                    text: text.clone(),
                    error: e.into(),
                })?;
                texts.push(canonical_text(&pos, &mv, &next));
                pos = next;
            }
            if texts.len() % 2 == 1 {
                return Err(GameError::Rule(format!(
                    "{label} ends with the opponent's move {}: give your answer to it",
                    texts.last().expect("not empty")
                )));
            }
            if !out.contains(&texts) {
                out.push(texts);
            }
        }
        // One answer to each reply where lines share their moves.
        for (i, a) in out.iter().enumerate() {
            for b in &out[i + 1..] {
                let same = a.iter().zip(b).take_while(|(x, y)| x == y).count();
                if same % 2 == 1 && same < a.len() && same < b.len() {
                    return Err(GameError::Rule(format!(
                        "two answers to {}: {} and {}",
                        a[..same].join(" "),
                        a[same],
                        b[same]
                    )));
                }
            }
        }
        Ok(out)
    }

    /// Leaves conditional moves for `side`, who has just moved, replacing
    /// any it left before (no lines: clears them). Returns the lines as
    /// they will be played, numbered.
    pub fn set_conditional(
        &mut self,
        side: Color,
        lines: &[String],
    ) -> Result<Vec<String>, GameError> {
        self.not_over()?;
        if side == self.turn() {
            return Err(GameError::Rule(format!(
                "it is {side}'s move: conditional moves are left after moving, for the opponent's reply"
            )));
        }
        let read = self.read_lines(lines)?;
        let shown = read.iter().map(|l| self.numbered_line(l)).collect();
        self.file_mut().conditional =
            (!read.is_empty()).then_some(Conditional { side, lines: read });
        Ok(shown)
    }

    /// A line of canonical texts from the current position, numbered:
    /// `13. e5 Nd5 14. c4 Nb6`.
    pub fn numbered_line(&self, line: &[String]) -> String {
        let pos = self.current();
        let (mut turn, mut number) = (pos.turn, pos.fullmove);
        let mut out = Vec::new();
        for (i, t) in line.iter().enumerate() {
            match turn {
                Color::White => out.push(format!("{number}. {t}")),
                Color::Black if i == 0 => out.push(format!("{number}... {t}")),
                Color::Black => out.push(t.clone()),
            }
            if turn == Color::Black {
                number += 1;
            }
            turn = !turn;
        }
        out.join(" ")
    }

    /// Checks the lines of a loaded file: their owner has just moved, and
    /// every move is legal as recorded.
    pub(super) fn check_conditional(&self) -> Result<(), GameError> {
        let Some(c) = &self.file().conditional else {
            return Ok(());
        };
        let bad = |why: String| GameError::Corrupt(format!("the conditional moves: {why}"));
        if self.result().is_none() && c.side == self.turn() {
            return Err(bad(format!("they are {}'s, who is to move", c.side)));
        }
        if self.result().is_some() {
            return Ok(());
        }
        let read = self
            .read_lines(&c.lines.iter().map(|l| l.join(" ")).collect::<Vec<_>>())
            .map_err(|e| bad(e.to_string()))?;
        if read != c.lines {
            return Err(bad("they are not written as postal writes them".into()));
        }
        Ok(())
    }

    /// After the opponent's move `played` (canonical): takes the lines,
    /// and returns the answer to play when one starts with it, the lines
    /// left to go on from there set already.
    pub(super) fn take_answer(&mut self, mover: Color, played: &str) -> Option<String> {
        let c = self.file_mut().conditional.take()?;
        if c.side == mover {
            return None;
        }
        let answer = c
            .lines
            .iter()
            .find(|l| l.len() >= 2 && l[0] == played)
            .map(|l| l[1].clone())?;
        let rest: Vec<Vec<String>> = c
            .lines
            .into_iter()
            .filter(|l| l.len() > 2 && l[0] == played && l[1] == answer)
            .map(|l| l[2..].to_vec())
            .collect();
        if !rest.is_empty() {
            self.file_mut().conditional = Some(Conditional {
                side: c.side,
                lines: rest,
            });
        }
        Some(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_numbers_and_placements() {
        let t = tokens("13. e5 Nd5 14.c4 14...Nb6 Nc3 @f3");
        let texts: Vec<&str> = t.iter().map(|(_, s)| s.as_str()).collect();
        assert_eq!(texts, ["e5", "Nd5", "c4", "Nb6", "Nc3 @f3"]);
        assert_eq!(t[0].0, Some(13));
        assert_eq!(t[1].0, None);
        assert_eq!(t[3].0, Some(14));
    }
}
