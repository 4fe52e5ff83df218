use super::*;
use crate::game::clock::parse_time;

fn t(s: &str) -> DateTime<Utc> {
    parse_time(s).unwrap()
}

fn day(n: i64) -> DateTime<Utc> {
    t("2027-01-01T00:00:00Z") + Duration::days(n)
}

/// Turns alternating from White, each made at the given day.
fn turns(days: &[i64]) -> (Vec<Turn>, DateTime<Utc>, Color) {
    let mut out = Vec::new();
    let mut started = day(0);
    let mut side = Color::White;
    for &d in days {
        out.push(Turn {
            side,
            started,
            moved: day(d),
        });
        started = day(d);
        side = !side;
    }
    (out, started, side)
}

fn account(tc: &str, days: &[i64], leaves: &[Leave], now: i64) -> Account {
    let (turns, started, side) = turns(days);
    TimeControl::parse(tc).unwrap().account(
        &turns,
        side,
        started,
        leaves,
        Duration::zero(),
        day(now),
    )
}

#[test]
fn parses_and_writes_back() {
    for s in [
        "3d",
        "10d+1d",
        "36h",
        "2h+10m",
        "90m+0d",
        "10/50d",
        "30d+1d/45d",
        "10/50d free 24h double 20d",
        "3d double 2d",
    ] {
        let tc = TimeControl::parse(s).unwrap();
        assert_eq!(TimeControl::parse(&tc.to_string()).unwrap(), tc, "{s}");
    }
    assert_eq!(TimeControl::parse("10d+1d").unwrap().to_string(), "10d+1d");
    assert_eq!(TimeControl::parse("48h").unwrap().to_string(), "2d");
    assert_eq!(
        TimeControl::parse("10/50d  FREE 1d").unwrap().to_string(),
        "10/50d free 24h"
    );
    for bad in [
        "",
        "3",
        "d",
        "3w",
        "0d",
        "3d+",
        "+1d",
        "-3d",
        "99999999d",
        "0/50d",
        "10/0d",
        "30d+1d/20d",
        "3d free",
        "3d free 1d free 2d",
        "3d later 1d",
    ] {
        assert!(TimeControl::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn words_and_pgn() {
    let w = |s: &str| TimeControl::parse(s).unwrap().words();
    assert_eq!(w("10/50d"), "10 moves in 50 days, repeating");
    assert_eq!(
        w("30d+1d/45d"),
        "30 days for the game, plus 1 day a move, at most 45 days banked"
    );
    assert_eq!(
        w("3d free 24h double 20d"),
        "3 days a move; the first 24 hours of each move free; time beyond 20 days on one move counts double"
    );
    let tag = |s: &str| TimeControl::parse(s).unwrap().pgn_tag();
    assert_eq!(tag("3d").as_deref(), Some("1/259200"));
    assert_eq!(tag("10/50d").as_deref(), Some("10/4320000"));
    assert_eq!(tag("10d+1d").as_deref(), Some("864000+86400"));
    assert_eq!(tag("30d+1d/45d"), None);
    assert_eq!(tag("3d free 1d"), None);
}

#[test]
fn per_move_deadline_counts_from_the_turn() {
    let a = account("3d", &[], &[], 0);
    assert_eq!(a.deadline, day(3));
    let a = account("3d", &[2, 3], &[], 4);
    assert_eq!(a.deadline, day(6));
    assert_eq!(a.used[Color::White], Duration::days(3));
    assert_eq!(a.left[Color::White], Duration::days(2));
}

#[test]
fn increment_spends_and_adds() {
    // White spent 2 days (9 left), Black 1 day (10 left).
    let a = account("10d+1d", &[2, 3], &[], 3);
    assert_eq!(a.deadline, day(3 + 9));
    assert_eq!(a.left[Color::Black], Duration::days(10));
    // A late move leaves nothing but the increment.
    let a = account("10d+1d", &[31], &[], 31);
    assert_eq!(a.left[Color::White], Duration::days(1));
}

/// A 10/50d game over two periods: each player's time runs only on their
/// move, and what is not used carries over.
#[test]
fn moves_in_days_cross_two_periods() {
    // White moves 2 days after each of Black's moves; Black after 1 day.
    let mut days = Vec::new();
    let mut d = 0;
    for _ in 0..12 {
        d += 2;
        days.push(d);
        d += 1;
        days.push(d);
    }
    // After 12 moves each: White used 24 days, Black 12.
    let a = account("10/50d", &days, &[], d);
    assert_eq!(a.used[Color::White], Duration::days(24));
    assert_eq!(a.used[Color::Black], Duration::days(12));
    // Two periods begun: 100 days given, 24 used.
    assert_eq!(a.left[Color::White], Duration::days(76));
    assert_eq!(a.moves_left.unwrap()[Color::White], 8);
    assert_eq!(a.deadline, day(d + 76));
    // After 2 moves of the first period, however long Black thought.
    let a = account("10/50d", &[2, 40], &[], 40);
    assert_eq!(a.left[Color::White], Duration::days(48));
    assert_eq!(a.moves_left.unwrap()[Color::White], 9);
    assert_eq!(a.deadline, day(40 + 48));
    // Black's 38 days on one move leave 12 for 9 moves.
    assert_eq!(a.left[Color::Black], Duration::days(12));
}

#[test]
fn a_capped_fischer_clock_stops_at_its_cap() {
    // Every move at once: 30 + 1 a move, but never more than 45.
    let days: Vec<i64> = vec![0; 40];
    let a = account("30d+1d/45d", &days, &[], 0);
    assert_eq!(a.left[Color::White], Duration::days(45));
    assert_eq!(a.deadline, day(45));
    let a = account("30d+1d", &days, &[], 0);
    assert_eq!(a.left[Color::White], Duration::days(50));
}

#[test]
fn free_hours_are_not_counted() {
    let a = account("10d+0d free 24h", &[3], &[], 3);
    assert_eq!(a.used[Color::White], Duration::days(2));
    assert_eq!(a.left[Color::White], Duration::days(8));
    // Black's deadline: a free day, then 10.
    assert_eq!(a.deadline, day(3 + 11));
}

#[test]
fn days_beyond_the_threshold_count_double() {
    // 25 days on one move under `double 20d`: 20 + 2 x 5 = 30 charged.
    let a = account("50d+0d double 20d", &[25], &[], 25);
    assert_eq!(a.used[Color::White], Duration::days(30));
    assert_eq!(a.left[Color::White], Duration::days(20));
    // Black, 50 days banked: 20 plain, then 30 at double, 15 days.
    assert_eq!(a.deadline, day(25 + 35));
    // The deadline is where the charge reaches the bank.
    let tc = TimeControl::parse("50d+0d double 20d").unwrap();
    assert_eq!(tc.charged(Color::Black, day(25), day(60), &[]), 50 * 86_400);
}

#[test]
fn leave_stops_the_clock_and_moves_the_deadline() {
    let leave = Leave {
        side: Color::White,
        from: day(1),
        until: day(11),
    };
    // White to move from day 0 with 3 days a move: 1 day, 10 on leave,
    // then 2 more.
    let a = account("3d", &[], &[leave], 5);
    assert_eq!(a.deadline, day(13));
    assert_eq!(a.used[Color::White], Duration::days(1));
    // Black's leave does not stop White's clock.
    let other = Leave {
        side: Color::Black,
        ..leave
    };
    assert_eq!(account("3d", &[], &[other], 0).deadline, day(3));
    // A move made after the leave is charged without it.
    let a = account("10/50d", &[12], &[leave], 12);
    assert_eq!(a.used[Color::White], Duration::days(2));
}
