//! The operator's answers to a held message (`postal referee held DIR
//! --release KEY | --drop KEY`), through the same acts and letters as a
//! player's `confirm` and `drop`.

use super::*;

/// The operator's release of a held message (`postal referee held DIR
/// --release KEY`): played as its player's "confirm" would play it, if
/// the game is still where it was; the players told as after any act.
pub fn release(r: &Referee, key: &str, now: DateTime<Utc>) -> Result<Outcome, RefereeError> {
    let Some((h, raw)) = held::get(r, key) else {
        return Err(RefereeError::Config(format!("no held message {key}")));
    };
    let Some(msg) = inbound::parse(&raw) else {
        return Err(RefereeError::Config(format!(
            "the held message {key} cannot be read"
        )));
    };
    let path = r.game_path(&h.gid);
    let _lock = lock_game(&path, LOCK_WAIT)?;
    let game = load_game(&path)?;
    let ctx = Ctx::new(r, h.gid.clone(), &path, &msg, &raw, key, now);
    let outcome = if game.has_via(key) {
        Outcome::Duplicate {
            gid: Some(h.gid.clone()),
        }
    } else if game.result().is_some() || game.moves().len() != h.ply {
        let text = letter::refusal(
            &game,
            h.side,
            "the referee's operator released your held message, but the game has moved on since it came; it was not played, and is dropped",
            &h.read,
            now,
        );
        ctx.answered(&game, h.side, "released too late: dropped", text)?
    } else {
        ctx.act(
            game,
            h.side,
            &msg.text,
            key,
            Some("The referee's operator released your held message; it was read as follows."),
        )?
    };
    held::remove(r, key)?;
    r.log(
        now,
        &serde_json::json!({
            "time": format_time(now),
            "key": key,
            "outcome": format!("released by the operator: {}", outcome.describe()),
        }),
    );
    Ok(outcome)
}

/// The operator's drop of a held message (`postal referee held DIR
/// --drop KEY`): its player is told.
pub fn drop_held(r: &Referee, key: &str, now: DateTime<Utc>) -> Result<Outcome, RefereeError> {
    let Some((h, raw)) = held::get(r, key) else {
        return Err(RefereeError::Config(format!("no held message {key}")));
    };
    let msg = inbound::parse(&raw).unwrap_or_default();
    let path = r.game_path(&h.gid);
    let _lock = lock_game(&path, LOCK_WAIT)?;
    let game = load_game(&path)?;
    held::remove(r, key)?;
    let ctx = Ctx::new(r, h.gid.clone(), &path, &msg, &raw, key, now);
    let text = format!(
        "The referee's operator dropped the message held for you (from {}, {}); it was not played.\n\n{}",
        h.from,
        h.why,
        letter::standing(&game, h.side, now)
    );
    let name = format!("dropped-{key}");
    let l = Letter {
        name: name.clone(),
        to: letter::mailbox_of(&game, h.side),
        side: h.side,
        in_reply_to: None,
        replied: false,
        text,
        reply_to: None,
        date: now,
    };
    let bytes =
        letter::compose(r, &ctx.gid, &game, &l).map_err(|e| RefereeError::Io(e.to_string()))?;
    spool::put(r, &name, &bytes)?;
    let outcome = Outcome::Answered {
        gid: Some(h.gid),
        why: "held message dropped by the operator".into(),
        sent: true,
    };
    r.log(
        now,
        &serde_json::json!({"time": format_time(now), "key": key, "outcome": outcome.describe()}),
    );
    Ok(outcome)
}
