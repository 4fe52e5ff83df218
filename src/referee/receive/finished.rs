//! A message to a finished game (step 4): passed on to the opponent
//! once, as a comment, when it carries the player's token; it plays
//! nothing.

use super::*;

impl Ctx<'_> {
    /// A message to a finished game: passed on to the opponent once, as a
    /// comment, when it comes from a player (rate-limited); it plays
    /// nothing.
    pub(super) fn after_end(&self, game: Game, route: &Address) -> Result<Outcome, RefereeError> {
        let Some(side) = self.side_of_from(&game) else {
            return Ok(ignored(
                "the game is over, and the message is not from a player",
            ));
        };
        if let Some(why) = self.auth_failure() {
            return Ok(ignored(format!(
                "the game is over, and the sender may be forged: {why}"
            )));
        }
        if let Address::Confirm { held, .. } = route {
            // An answer to a confirmation request: nothing to pass on.
            held::remove(self.r, held)?;
            let text = format!(
                "The game is over ({}); the held message was not played, and is dropped.\n",
                game.result().map(|e| e.to_string()).unwrap_or_default()
            );
            return self.answered(&game, side, "the game is over; held message dropped", text);
        }
        // Passed on only with the player's own token: a From alone is
        // easily forged.
        let tokened = match route {
            Address::Reply {
                side: s, ply, mac, ..
            } => {
                *s == side
                    && *ply <= game.moves().len()
                    && (0..=epoch(&game)).any(|e| {
                        token::same_mac(
                            mac,
                            &token::reply_mac(self.r.key(), &self.gid, side, *ply, e),
                        )
                    })
            }
            _ => false,
        };
        if !tokened {
            return Ok(ignored(
                "the game is over, and the message carries no reply token of the player's: nothing is passed on",
            ));
        }
        let reply = extract::extract(&self.msg.text);
        let (said, _) = extract::comment_of(&reply.commands, &reply);
        let end = game.result().map(|e| e.to_string()).unwrap_or_default();
        if said.trim().is_empty() {
            let text = format!(
                "The game is over ({end}), and your message had nothing to pass on.\n\n{}",
                letter::standing(&game, side, self.now)
            );
            return self.answered(&game, side, "the game is over; nothing to pass on", text);
        }
        let limit_key = format!("after-end {} {}", self.gid, side.name());
        if !within_rate(self.r, &limit_key, AFTER_END_PER_DAY, 86_400, self.now)? {
            let text = format!(
                "The game is over ({end}). Your message was not passed on to your opponent: \
                 at most {AFTER_END_PER_DAY} messages a day are passed on after the end.\n"
            );
            return self.answered(
                &game,
                side,
                "the game is over; comment not passed on (limit)",
                text,
            );
        }
        let mover = game.file().players.get(side).short(side);
        let opp = game.file().players.get(!side).short(!side);
        let mut to_opp = format!("{mover} writes, after the game:\n");
        for line in said.lines() {
            to_opp.push_str(&format!("  {line}\n"));
        }
        to_opp.push_str(&format!("\nThe game is over: {end}.\n"));
        let to_mover = format!(
            "Passed on to {opp}: your message, as a comment (the game is over: {end}; it plays nothing).\n"
        );
        let stem = format!("after-{}", self.key);
        for l in [
            letter::pair_letter(&game, !side, to_opp, &stem, None, self.now),
            letter::pair_letter(
                &game,
                side,
                to_mover,
                &stem,
                self.msg.message_id.as_deref(),
                self.now,
            ),
        ] {
            let bytes = letter::compose(self.r, &self.gid, &game, &l)
                .map_err(|e| RefereeError::Io(e.to_string()))?;
            spool::put(self.r, &l.name, &bytes)?;
        }
        self.mark_seen()?;
        Ok(Outcome::Answered {
            gid: Some(self.gid.clone()),
            why: "the game is over; passed on to the opponent as a comment".into(),
            sent: true,
        })
    }
}
