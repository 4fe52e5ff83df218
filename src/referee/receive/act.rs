//! Applying a message's commands (`impl Ctx` continued): all or none,
//! the comment within its limit, and nothing that would take the room a
//! game file keeps for the referee's own acts.

use super::*;
use crate::limits::{MAX_COMMENT, MAX_STATE_BYTES, STATE_RESERVE};

impl Ctx<'_> {
    /// Reads and applies a message's commands for `side`, recording `via`.
    /// `note` opens the mover's letter.
    pub(super) fn act(
        &self,
        mut game: Game,
        side: Color,
        text: &str,
        via: &str,
        note: Option<&str>,
    ) -> Result<Outcome, RefereeError> {
        let reply = extract::extract(text);
        let block = match command::parse_block(&reply.commands) {
            Ok(b) => b,
            Err(why) => return self.refuse(&game, side, &why, &reply.commands, note),
        };
        match block.commands.as_slice() {
            [Command::Show] => {
                let text = letter::standing(&game, side, self.now);
                return self.answered(&game, side, "show", text);
            }
            [Command::Help] => return self.answered(&game, side, "help", letter::help()),
            _ => {}
        }
        let (moves, events) = (game.moves().len(), game.events().len());
        let first_act = game.last_act() + 1;
        let (comment, comment_cut) = extract::comment_of(&block.comment, &reply);
        // The acts with the comment, and without it when the game file
        // would not keep it: what the sender sends never takes the room
        // kept for the referee's own acts.
        let start = game.clone();
        let mut dropped_comment = false;
        let (applied, letters) = loop {
            let kept = if dropped_comment {
                ""
            } else {
                comment.as_str()
            };
            game = start.clone();
            let applied = match command::apply(
                &mut game,
                side,
                &block.commands,
                (!kept.is_empty()).then(|| kept.to_string()),
                self.now,
            ) {
                Ok(s) => s,
                Err(e) => return self.refuse(&start, side, &e.to_string(), &reply.commands, note),
            };
            game.mark_via(moves, events, via);
            let mut notes: Vec<String> = note.map(str::to_string).into_iter().collect();
            if !block.comment.is_empty() {
                let opp = game.file().players.get(!side).short(!side);
                let lines: Vec<String> = block.comment.iter().map(|l| format!("\"{l}\"")).collect();
                notes.push(format!(
                    "Not a command, so read as your comment to {opp}: {}.",
                    lines.join(", ")
                ));
            }
            if dropped_comment {
                notes.push(format!(
                    "Your comment was not kept or passed on: the game's file has no room left for it (a game file holds at most {} MiB, with room kept for the referee's own acts).",
                    MAX_STATE_BYTES >> 20
                ));
            } else if comment_cut {
                notes.push(format!(
                    "Your comment was longer than the referee keeps: only its first {MAX_COMMENT} characters were kept and passed on."
                ));
            }
            notes.extend(self.reading_notes());
            notes.extend(applied.private.iter().cloned());
            let mut letters = letter::after_acts(
                &game,
                side,
                &applied.said,
                kept,
                &notes,
                via,
                self.msg.message_id.as_deref(),
                self.now,
            );
            // Conditional moves alone are the sender's business: no act,
            // no letter to the opponent, and the message marked seen.
            if applied.said.is_empty() {
                letters.retain(|l| l.side == side);
            }
            let mut saved = game.clone();
            for l in &letters {
                letter::record(self.r, &self.gid, &mut saved, l, first_act);
            }
            if saved.to_json().len() <= MAX_STATE_BYTES - STATE_RESERVE {
                break (applied, letters);
            }
            if dropped_comment || kept.is_empty() {
                let why = format!(
                    "the game's file has no room left for it (a game file holds at most {} MiB, with room kept for the referee's own acts); the operator can adjudicate the game",
                    MAX_STATE_BYTES >> 20
                );
                return self.refuse(&start, side, &why, &reply.commands, note);
            }
            dropped_comment = true;
        };
        let private_only = applied.said.is_empty();
        let said = if private_only {
            let n = game.conditional_of(side).map_or(0, |l| l.len());
            vec![format!(
                "{} of conditional moves kept, for the sender alone",
                letter::count(n, "line")
            )]
        } else {
            applied.said
        };
        let mut letters = letters;
        if start.result().is_none() {
            super::super::tournament::on_result(
                self.r,
                &self.gid,
                &game,
                &mut letters,
                via,
                self.now,
            )?;
        }
        for l in &letters {
            let bytes = letter::compose(self.r, &self.gid, &game, l)
                .map_err(|e| RefereeError::Io(e.to_string()))?;
            spool::prepare(self.r, &l.name, &bytes)?;
        }
        for l in &letters {
            letter::record(self.r, &self.gid, &mut game, l, first_act);
        }
        fail_at("after-prepare")?;
        write_game(self.path, game.to_json().as_bytes())?;
        fail_at("after-commit")?;
        spool::release(self.r, via)?;
        if private_only {
            self.mark_seen()?;
        }
        Ok(Outcome::Applied {
            gid: self.gid.clone(),
            said,
        })
    }
}
