//! What a record's tags say, in words for a reader: a PGN date with its
//! unknown parts left out, and PGN's `TimeControl` tag (PGN standard,
//! section 9.6.1) as a sentence.

/// A PGN date (`1858.??.??`, `2024.03.02`) with its unknown parts left
/// out: `1858`, `2024-03-02`.
pub fn date_words(date: &str) -> String {
    date.split('.')
        .take_while(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
        .collect::<Vec<_>>()
        .join("-")
}

/// A span of seconds in the largest whole unit: `3 days`, `2 hours`,
/// `90 seconds`.
fn duration_words(seconds: u64) -> String {
    let units = [
        (86_400, "day"),
        (3_600, "hour"),
        (60, "minute"),
        (1, "second"),
    ];
    let (size, name) = units
        .into_iter()
        .find(|(size, _)| seconds >= *size && seconds.is_multiple_of(*size))
        .unwrap_or((1, "second"));
    let n = seconds / size;
    format!("{n} {name}{}", if n == 1 { "" } else { "s" })
}

/// PGN's `TimeControl` tag in words: `1/259200` is "3 days a move",
/// `40/7200:3600` "40 moves in 2 hours, then 1 hour for the game",
/// `300+2` "5 minutes plus 2 seconds a move", `*60` "a sandglass of 1
/// minute"; `?` and `-` (unknown, none) say nothing.
pub fn time_control_words(tag: &str) -> Option<String> {
    let period = |p: &str| -> Option<String> {
        if let Some(sand) = p.strip_prefix('*') {
            return Some(format!(
                "a sandglass of {}",
                duration_words(sand.parse().ok()?)
            ));
        }
        if let Some((moves, secs)) = p.split_once('/') {
            let (moves, secs): (u64, u64) = (moves.parse().ok()?, secs.parse().ok()?);
            return Some(if moves == 1 {
                format!("{} a move", duration_words(secs))
            } else {
                format!("{moves} moves in {}", duration_words(secs))
            });
        }
        let (base, inc) = match p.split_once('+') {
            Some((b, i)) => (b, Some(i.parse::<u64>().ok()?)),
            None => (p, None),
        };
        let base = duration_words(base.parse().ok()?);
        Some(match inc {
            Some(i) => format!("{base} plus {} a move", duration_words(i)),
            None => format!("{base} for the game"),
        })
    };
    let periods = tag.split(':').map(period).collect::<Option<Vec<_>>>()?;
    Some(periods.join(", then "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_in_words() {
        for (tag, words) in [
            ("1/259200", Some("3 days a move")),
            (
                "40/7200:3600",
                Some("40 moves in 2 hours, then 1 hour for the game"),
            ),
            ("300+2", Some("5 minutes plus 2 seconds a move")),
            ("5400", Some("90 minutes for the game")),
            ("*60", Some("a sandglass of 1 minute")),
            ("?", None),
            ("-", None),
            ("40/x", None),
        ] {
            assert_eq!(time_control_words(tag).as_deref(), words, "{tag}");
        }
    }

    #[test]
    fn dates_without_their_unknown_parts() {
        assert_eq!(date_words("1858.??.??"), "1858");
        assert_eq!(date_words("2024.03.02"), "2024-03-02");
        assert_eq!(date_words("????.??.??"), "");
    }
}
