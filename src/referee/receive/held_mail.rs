//! Mail held for confirmation (step 5): a message the referee will not
//! play as it came (a right token from another address, a forged sender,
//! a message routed only by its thread) is held, and the side's
//! registered address is asked to `confirm` it; the confirmation plays
//! it.

use super::*;

impl Ctx<'_> {
    pub(super) fn hold(
        &self,
        game: &Game,
        side: Color,
        why: &str,
    ) -> Result<Outcome, RefereeError> {
        let all = held::list(self.r)?;
        let here = all.iter().filter(|h| h.gid == self.gid).count();
        if here >= MAX_HELD_PER_GAME || all.len() >= MAX_HELD {
            return Ok(ignored(format!(
                "not held ({why}): {here} messages are held for this game and {} in all, the most kept ({MAX_HELD_PER_GAME} and {MAX_HELD})",
                all.len()
            )));
        }
        let read = extract::extract(&self.msg.text).commands;
        let from = self.msg.from.clone().unwrap_or_else(|| "nobody".into());
        let h = Held {
            key: self.key.clone(),
            gid: self.gid.clone(),
            side,
            ply: game.moves().len(),
            from: from.clone(),
            why: why.to_string(),
            received: self.now,
            read: read.clone(),
        };
        held::put(self.r, &h, self.raw, &self.msg.text)?;
        let mut text = format!(
            "The referee did not play a message for this game from {from},\n\
             because {why}. It reads:\n\n"
        );
        for l in &read {
            text.push_str(&format!("> {l}\n"));
        }
        if read.is_empty() {
            text.push_str("> (nothing the referee could read)\n");
        }
        text.push_str(&format!(
            "\nIf you sent it, reply with the one word \"confirm\" to play it.\n\
             If you did not, reply \"drop\", or do nothing: it is dropped on\n\
             {} (UTC). Any other reply does not play it; a move in\n\
             your reply is read as your own move.\n\n",
            format_time(self.now + chrono::Duration::days(HOLD_DAYS))
        ));
        text.push_str(&letter::standing(game, side, self.now));
        let confirm = token::confirm_address(
            self.r.key(),
            &self.r.local,
            &self.r.settings.tag,
            &self.r.domain,
            &self.gid,
            side,
            game.moves().len(),
            epoch(game),
            &self.key,
        );
        self.answer(game, side, text, Some(confirm), false)?;
        Ok(Outcome::Held {
            gid: self.gid.clone(),
            why: why.to_string(),
        })
    }

    pub(super) fn confirm(
        &self,
        game: Game,
        side: Color,
        ply: usize,
        held_key: &str,
        mac: &str,
    ) -> Result<Outcome, RefereeError> {
        let good = token::same_mac(
            mac,
            &token::confirm_mac(self.r.key(), &self.gid, side, ply, epoch(&game), held_key),
        );
        if !good {
            return Ok(ignored("a confirmation token that is not valid"));
        }
        if self.msg.from != self.registered(&game, side) {
            return Ok(ignored(format!(
                "an answer to a confirmation request from {}, not from the player",
                self.msg.from.as_deref().unwrap_or("nobody")
            )));
        }
        if let Some(why) = self.auth_failure() {
            return Ok(ignored(format!(
                "an answer to a confirmation request whose sender may be forged: {why}"
            )));
        }
        if game.has_via(held_key) {
            return Ok(Outcome::Duplicate {
                gid: Some(self.gid.clone()),
            });
        }
        let reply = extract::extract(&self.msg.text);
        let word = reply
            .commands
            .first()
            .map(|l| l.trim().trim_end_matches(['.', '!']).to_lowercase())
            .unwrap_or_default();
        let kept = held::get(self.r, held_key);
        match (word.as_str(), kept) {
            ("confirm" | "confirmed", Some((_, raw))) => {
                if ply != game.moves().len() {
                    held::remove(self.r, held_key)?;
                    let text = letter::refusal(
                        &game,
                        side,
                        "the game has moved on since the message was held; it was not played, and is dropped",
                        &[],
                        self.now,
                    );
                    return self.answered(&game, side, "stale confirmation", text);
                }
                let Some(original) = inbound::parse(&raw) else {
                    held::remove(self.r, held_key)?;
                    return Ok(ignored("the held message cannot be read"));
                };
                let out = self.act(
                    game,
                    side,
                    &original.text,
                    held_key,
                    Some("You confirmed the held message; it was read as follows."),
                )?;
                held::remove(self.r, held_key)?;
                Ok(out)
            }
            ("confirm" | "confirmed" | "drop", None) => {
                let text = format!(
                    "The held message is no longer held (it was played, dropped, or expired); nothing was done.\n\n{}",
                    letter::standing(&game, side, self.now)
                );
                self.answered(&game, side, "the held message is gone", text)
            }
            ("drop", Some(_)) => {
                held::remove(self.r, held_key)?;
                let text = format!(
                    "Dropped: the held message was not played, and is gone.\n\n{}",
                    letter::standing(&game, side, self.now)
                );
                self.answered(&game, side, "held message dropped by its player", text)
            }
            (_, kept) => {
                let still = match &kept {
                    Some((h, _)) => format!(
                        "It stays held until\n{} (UTC), unless you reply \"confirm\" to play it or \"drop\" to\ndrop it now.",
                        format_time(h.received + chrono::Duration::days(HOLD_DAYS))
                    ),
                    None => "It is no longer held.".to_string(),
                };
                let note = format!(
                    "Your answer did not say \"confirm\", so the held message was not played.\n{still}"
                );
                // A move or an act in the answer is the player's own, read
                // as any reply to the position it answers.
                let own = reply.commands.first().is_some_and(|l| {
                    command::looks_like_move(l)
                        || command::parse_block(&reply.commands).is_ok_and(|b| {
                            b.commands
                                .iter()
                                .all(|c| !matches!(c, Command::Move { .. }))
                        })
                });
                if own && ply == game.moves().len() {
                    let via = self.key.clone();
                    return self.act(game, side, &self.msg.text, &via, Some(&note));
                }
                let text = format!("{note}\n\n{}", letter::standing(&game, side, self.now));
                self.answered(&game, side, "held message not confirmed", text)
            }
        }
    }
}
