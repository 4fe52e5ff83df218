//! Time for correspondence games: the [`Clock`] that says what time it is
//! (passed in, so tests set it), the times of the state file, and spans
//! in words. Time controls and the players' clocks are in
//! [`super::time_control`].

use chrono::{DateTime, Duration, Timelike, Utc};

/// Where the current time comes from.
pub trait Clock {
    /// The current time, in whole seconds (the state file stores seconds).
    fn now(&self) -> DateTime<Utc>;
}

/// The computer's clock.
#[derive(Copy, Clone, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        whole_seconds(Utc::now())
    }
}

/// A clock stopped at one time: for tests, and for `POSTAL_NOW`.
#[derive(Copy, Clone, Debug)]
pub struct FixedClock(pub DateTime<Utc>);

impl Clock for FixedClock {
    fn now(&self) -> DateTime<Utc> {
        whole_seconds(self.0)
    }
}

/// Drops the fraction of a second.
pub fn whole_seconds(t: DateTime<Utc>) -> DateTime<Utc> {
    t.with_nanosecond(0).unwrap_or(t)
}

/// Reads an RFC 3339 time (`2025-03-01T09:00:00Z`, any offset) as UTC,
/// in the years RFC 3339 can write ([`check_year`]).
pub fn parse_time(text: &str) -> Result<DateTime<Utc>, String> {
    // The form postal writes, as the state file's reader takes it.
    if let Some(t) = time::plain_utc(text.trim().as_bytes()) {
        return Ok(t);
    }
    let t = DateTime::parse_from_rfc3339(text.trim())
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| {
            format!("{text:?} is not an RFC 3339 time ({e}); write e.g. 2025-03-01T09:00:00Z")
        })?;
    check_year(t).map_err(|e| format!("{text:?}: {e}"))
}

/// Reads a day (`2027-01-02`, from 00:00 UTC) or an RFC 3339 time.
pub fn parse_day_or_time(text: &str) -> Result<DateTime<Utc>, String> {
    match chrono::NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d") {
        Ok(d) => check_year(d.and_hms_opt(0, 0, 0).expect("midnight exists").and_utc()),
        Err(_) => parse_time(text).map_err(|e| format!("{e}, or a day such as 2027-01-02")),
    }
}

/// The latest year a time may have: RFC 3339 writes four digits, and
/// deadlines computed from such a time stay far inside chrono's range.
pub const LAST_YEAR: i32 = 9999;

/// Refuses a time outside the years 1 to [`LAST_YEAR`] (chrono reads
/// `+262142-12-31T23:59:59Z`, at the edge of what it can add to).
pub fn check_year(t: DateTime<Utc>) -> Result<DateTime<Utc>, String> {
    use chrono::Datelike;
    if (1..=LAST_YEAR).contains(&t.year()) {
        Ok(t)
    } else {
        Err(format!(
            "the year {} is outside 1 to {LAST_YEAR}, the years an RFC 3339 time can have",
            t.year()
        ))
    }
}

/// The times of a state file: RFC 3339, UTC, whole years 1 to 9999
/// (`#[serde(with = "crate::game::clock::time")]`).
pub mod time {
    use chrono::{DateTime, FixedOffset, NaiveDate, Utc};
    use serde::{Deserializer, Serialize, Serializer};

    /// As chrono writes a `DateTime<Utc>`, with a fast path for a time in
    /// whole seconds in the years 1 to 9999 (every time postal makes),
    /// which chrono writes `2025-03-01T09:00:00Z` through the formatter,
    /// a character at a time.
    pub fn serialize<S: Serializer>(t: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
        match plain_text(t) {
            Some(text) => {
                s.serialize_str(std::str::from_utf8(&text).expect("the text is ASCII digits"))
            }
            None => t.serialize(s),
        }
    }

    /// `t` as `YYYY-MM-DDTHH:MM:SSZ` when it is in whole seconds in the
    /// years 1 to 9999 (as chrono writes it then).
    pub(in crate::game) fn plain_text(t: &DateTime<Utc>) -> Option<[u8; 20]> {
        use chrono::{Datelike, Timelike};
        let t = t.naive_utc();
        let year = t.year();
        if t.nanosecond() != 0 || !(1..=9999).contains(&year) {
            return None;
        }
        let mut out = *b"0000-00-00T00:00:00Z";
        let mut put = |at: usize, width: usize, mut n: u32| {
            for i in (at..at + width).rev() {
                out[i] = b'0' + (n % 10) as u8;
                n /= 10;
            }
        };
        put(0, 4, year as u32);
        put(5, 2, t.month());
        put(8, 2, t.day());
        put(11, 2, t.hour());
        put(14, 2, t.minute());
        put(17, 2, t.second());
        Some(out)
    }

    /// As chrono reads a `DateTime<Utc>` (the same errors), with a fast
    /// path for the form postal writes, `2025-03-01T09:00:00Z`: a state
    /// file holds one time a move, and chrono's general reader would be
    /// a good part of loading it.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime<Utc>, D::Error> {
        let t = d.deserialize_str(TimeVisitor)?;
        super::check_year(t).map_err(serde::de::Error::custom)
    }

    struct TimeVisitor;

    impl serde::de::Visitor<'_> for TimeVisitor {
        type Value = DateTime<Utc>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            // chrono's words, so that errors read as they did.
            f.write_str("an RFC 3339 formatted date and time string")
        }

        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<DateTime<Utc>, E> {
            if let Some(t) = plain_utc(v.as_bytes()) {
                return Ok(t);
            }
            v.parse::<DateTime<FixedOffset>>()
                .map(|t| t.with_timezone(&Utc))
                .map_err(E::custom)
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` with a valid date and time in the years 1
    /// to 9999, read directly; `None` for anything else, left to chrono
    /// (other forms, leap seconds, invalid dates, which it reads or
    /// refuses as always).
    pub(in crate::game) fn plain_utc(b: &[u8]) -> Option<DateTime<Utc>> {
        let shape = b.len() == 20
            && b[4] == b'-'
            && b[7] == b'-'
            && b[10] == b'T'
            && b[13] == b':'
            && b[16] == b':'
            && b[19] == b'Z';
        if !shape {
            return None;
        }
        let num = |from: usize, to: usize| {
            b[from..to].iter().try_fold(0u32, |n, &c| {
                c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
            })
        };
        let year = num(0, 4).filter(|&y| y >= 1)?;
        let date = NaiveDate::from_ymd_opt(year as i32, num(5, 7)?, num(8, 10)?)?;
        let time = date.and_hms_opt(num(11, 13)?, num(14, 16)?, num(17, 19)?)?;
        Some(time.and_utc())
    }
}

/// A span of time in words, to the two largest units: `2 days 3 hours`.
pub fn describe(d: Duration) -> String {
    let total = d.num_minutes().abs();
    let (days, hours, minutes) = (total / 1440, total / 60 % 24, total % 60);
    let part = |n: i64, unit: &str| format!("{n} {unit}{}", if n == 1 { "" } else { "s" });
    let mut parts = Vec::new();
    if days > 0 {
        parts.push(part(days, "day"));
    }
    if hours > 0 {
        parts.push(part(hours, "hour"));
    }
    if minutes > 0 && days == 0 {
        parts.push(part(minutes, "minute"));
    }
    if parts.is_empty() {
        return "less than a minute".to_string();
    }
    parts.truncate(2);
    parts.join(" ")
}

/// When a deadline falls, seen from `now`: `in 2 days 3 hours` or
/// `passed 5 hours ago`.
pub fn relative(deadline: DateTime<Utc>, now: DateTime<Utc>) -> String {
    if deadline >= now {
        format!("in {}", describe(deadline - now))
    } else {
        format!("passed {} ago", describe(now - deadline))
    }
}

/// A time as the state file and the reports write it.
pub fn format_time(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> DateTime<Utc> {
        parse_time(s).unwrap()
    }

    #[test]
    fn the_fast_time_reader_agrees_with_chrono() {
        for s in [
            "2025-03-01T09:00:00Z",
            "0001-01-01T00:00:00Z",
            "9999-12-31T23:59:59Z",
            "2024-02-29T12:34:56Z",
        ] {
            let chrono = DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc);
            assert_eq!(time::plain_utc(s.as_bytes()), Some(chrono), "{s}");
        }
        for s in [
            "2023-02-29T00:00:00Z",
            "2025-03-01T24:00:00Z",
            "2025-12-31T23:59:60Z",
            "0000-01-01T00:00:00Z",
            "2025-03-01t09:00:00Z",
            "2025-03-01T09:00:00+00:00",
            "2025-03-01T09:00:00.5Z",
            "+2025-03-01T09:00:00Z",
            "2025-03-01T09:0a:00Z",
        ] {
            assert_eq!(time::plain_utc(s.as_bytes()), None, "{s}");
        }
    }

    #[test]
    fn the_fast_time_writer_agrees_with_chrono() {
        for s in [
            "2025-03-01T09:00:00Z",
            "0001-01-01T00:00:00Z",
            "9999-12-31T23:59:59Z",
            "2024-02-29T12:34:56Z",
            "0999-10-05T01:02:03Z",
        ] {
            let t = t(s);
            let chrono = serde_json::to_string(&t).unwrap();
            let fast = time::plain_text(&t).unwrap();
            assert_eq!(format!("{:?}", std::str::from_utf8(&fast).unwrap()), chrono);
        }
        let fraction = t("2025-03-01T09:00:00.5Z");
        assert_eq!(time::plain_text(&fraction), None);
    }

    #[test]
    fn times_at_the_edge_of_chrono_are_refused() {
        assert!(parse_time("+262142-12-31T23:59:59Z").is_err());
        let edge = DateTime::<Utc>::MAX_UTC;
        assert!(check_year(edge).is_err());
        assert!(parse_time("9999-12-31T23:59:59Z").is_ok());
    }

    #[test]
    fn words() {
        assert_eq!(
            describe(Duration::minutes(3 * 1440 + 125)),
            "3 days 2 hours"
        );
        assert_eq!(describe(Duration::minutes(61)), "1 hour 1 minute");
        assert_eq!(describe(Duration::seconds(5)), "less than a minute");
        let now = t("2025-01-02T00:00:00Z");
        assert_eq!(relative(t("2025-01-01T00:00:00Z"), now), "passed 1 day ago");
    }
}
