//! Reply addresses (design §3.4). A notice to a side is answered at
//!
//! ```text
//! local+[tag-]GID-SIDEPLY-MAC@domain        postal+k3f9q2-b12-x7m4q2c9ta5r8e3w@example.org
//! local+[tag-]GID-SIDEcPLY-HELD-MAC@domain  a confirmation of the held message HELD
//! local+[tag-]GID@domain                    the bare game address: show and help only
//! ```
//!
//! SIDE is `w` or `b`, PLY the number of moves on the board when the notice
//! was made. MAC is the first 16 characters of base32 (lower case) of
//! HMAC-SHA256 with the referee's secret key over a label, the game id, the
//! side, the ply and the take-back epoch (the number of take-backs accepted
//! in the game so far), each separated by a zero byte: 80 bits. Because the
//! ply and the epoch are in it, a reply to an old notice is recognised as
//! stale rather than played in the new position; a take-back raises the
//! epoch, since the ply later comes back to the same number.

use crate::color::Color;
use ring::hmac;

/// What a recipient address says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Address {
    /// A reply to a notice.
    Reply {
        gid: String,
        side: Color,
        ply: usize,
        mac: String,
    },
    /// A reply to a request to confirm a held message.
    Confirm {
        gid: String,
        side: Color,
        ply: usize,
        held: String,
        mac: String,
    },
    /// The game's bare address.
    Game { gid: String },
}

impl Address {
    pub fn gid(&self) -> &str {
        match self {
            Address::Reply { gid, .. } | Address::Confirm { gid, .. } | Address::Game { gid } => {
                gid
            }
        }
    }
}

fn side_letter(side: Color) -> char {
    match side {
        Color::White => 'w',
        Color::Black => 'b',
    }
}

fn mac(key: &[u8], parts: &[&str]) -> String {
    let k = hmac::Key::new(hmac::HMAC_SHA256, key);
    let mut ctx = hmac::Context::with_key(&k);
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            ctx.update(&[0]);
        }
        ctx.update(p.as_bytes());
    }
    let tag = ctx.sign();
    data_encoding::BASE32_NOPAD.encode(tag.as_ref())[..16].to_lowercase()
}

/// The MAC of a reply token.
pub fn reply_mac(key: &[u8], gid: &str, side: Color, ply: usize, epoch: usize) -> String {
    mac(
        key,
        &[
            "postal-reply-1",
            gid,
            &side_letter(side).to_string(),
            &ply.to_string(),
            &epoch.to_string(),
        ],
    )
}

/// The MAC of a confirmation token.
pub fn confirm_mac(
    key: &[u8],
    gid: &str,
    side: Color,
    ply: usize,
    epoch: usize,
    held: &str,
) -> String {
    mac(
        key,
        &[
            "postal-confirm-1",
            gid,
            &side_letter(side).to_string(),
            &ply.to_string(),
            &epoch.to_string(),
            held,
        ],
    )
}

/// Compares two MACs in time independent of where they differ.
pub fn same_mac(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The local part's prefix: `postal+` or `postal+tag-`.
fn prefix(local: &str, tag: &str) -> String {
    if tag.is_empty() {
        format!("{local}+")
    } else {
        format!("{local}+{tag}-")
    }
}

/// The address a side answers a notice at.
#[allow(clippy::too_many_arguments)]
pub fn reply_address(
    key: &[u8],
    local: &str,
    tag: &str,
    domain: &str,
    gid: &str,
    side: Color,
    ply: usize,
    epoch: usize,
) -> String {
    format!(
        "{}{gid}-{}{ply}-{}@{domain}",
        prefix(local, tag),
        side_letter(side),
        reply_mac(key, gid, side, ply, epoch)
    )
}

/// The address a side confirms the held message `held` at.
#[allow(clippy::too_many_arguments)]
pub fn confirm_address(
    key: &[u8],
    local: &str,
    tag: &str,
    domain: &str,
    gid: &str,
    side: Color,
    ply: usize,
    epoch: usize,
    held: &str,
) -> String {
    format!(
        "{}{gid}-{}c{ply}-{held}-{}@{domain}",
        prefix(local, tag),
        side_letter(side),
        confirm_mac(key, gid, side, ply, epoch, held)
    )
}

/// A game id the referee can put in an address: 6 to 16 letters and
/// digits (the game file's own id, src/game/notices.rs).
pub fn is_gid(s: &str) -> bool {
    (6..=16).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

fn side_ply(s: &str, confirm: bool) -> Option<(Color, usize)> {
    let mut chars = s.chars();
    let side = match chars.next()? {
        'w' => Color::White,
        'b' => Color::Black,
        _ => return None,
    };
    let rest = chars.as_str();
    let digits = if confirm {
        rest.strip_prefix('c')?
    } else {
        rest
    };
    if digits.is_empty() || digits.len() > 6 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((side, digits.parse().ok()?))
}

/// Reads a recipient address as one of the referee's, or `None` when it is
/// not addressed to this referee (another local part or domain, no token).
/// Case does not matter: some mail servers change it.
pub fn parse(address: &str, local: &str, tag: &str, domain: &str) -> Option<Address> {
    let address = address.trim().to_lowercase();
    let (l, d) = address.rsplit_once('@')?;
    if d != domain.to_lowercase() {
        return None;
    }
    let rest = l.strip_prefix(&prefix(local, tag).to_lowercase())?;
    let parts: Vec<&str> = rest.split('-').collect();
    match parts.as_slice() {
        [gid] if is_gid(gid) => Some(Address::Game {
            gid: gid.to_string(),
        }),
        [gid, sp, mac] if is_gid(gid) && mac.len() == 16 => {
            let (side, ply) = side_ply(sp, false)?;
            Some(Address::Reply {
                gid: gid.to_string(),
                side,
                ply,
                mac: mac.to_string(),
            })
        }
        [gid, sp, held, mac] if is_gid(gid) && mac.len() == 16 && held.len() == 16 => {
            let (side, ply) = side_ply(sp, true)?;
            Some(Address::Confirm {
                gid: gid.to_string(),
                side,
                ply,
                held: held.to_string(),
                mac: mac.to_string(),
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &[u8] = b"0123456789abcdef0123456789abcdef";

    #[test]
    fn reply_addresses_round_trip_in_any_case() {
        let a = reply_address(
            KEY,
            "postal",
            "",
            "example.org",
            "k3f9q2",
            Color::Black,
            12,
            0,
        );
        assert!(a.starts_with("postal+k3f9q2-b12-"), "{a}");
        assert!(a.split('@').next().unwrap().len() <= 64);
        let parsed = parse(&a.to_uppercase(), "postal", "", "example.org").unwrap();
        let Address::Reply {
            gid,
            side,
            ply,
            mac,
        } = parsed
        else {
            panic!()
        };
        assert_eq!((gid.as_str(), side, ply), ("k3f9q2", Color::Black, 12));
        assert!(same_mac(
            &mac,
            &reply_mac(KEY, "k3f9q2", Color::Black, 12, 0)
        ));
        assert!(!same_mac(
            &mac,
            &reply_mac(KEY, "k3f9q2", Color::Black, 12, 1)
        ));
        assert!(!same_mac(
            &mac,
            &reply_mac(KEY, "k3f9q2", Color::White, 12, 0)
        ));
        assert!(!same_mac(
            &mac,
            &reply_mac(
                b"another key, another key, anothe",
                "k3f9q2",
                Color::Black,
                12,
                0
            )
        ));
    }

    #[test]
    fn tags_confirmations_and_strangers() {
        let a = reply_address(
            KEY,
            "ana",
            "postal",
            "example.org",
            "k3f9q2",
            Color::White,
            0,
            0,
        );
        assert!(a.starts_with("ana+postal-k3f9q2-w0-"), "{a}");
        assert!(parse(&a, "ana", "postal", "example.org").is_some());
        assert!(parse(&a, "ana", "", "example.org").is_none());
        let c = confirm_address(
            KEY,
            "postal",
            "",
            "x.org",
            "k3f9q2",
            Color::White,
            3,
            1,
            "0123456789abcdef",
        );
        assert!(matches!(
            parse(&c, "postal", "", "x.org"),
            Some(Address::Confirm { ply: 3, .. })
        ));
        assert_eq!(
            parse("postal+k3f9q2@x.org", "postal", "", "x.org"),
            Some(Address::Game {
                gid: "k3f9q2".into()
            })
        );
        assert_eq!(parse("postal@x.org", "postal", "", "x.org"), None);
        assert_eq!(
            parse("postal+k3f9q2-b1-short@x.org", "postal", "", "x.org"),
            None
        );
        assert_eq!(parse("other+k3f9q2@x.org", "postal", "", "x.org"), None);
        assert_eq!(parse("postal+k3f9q2@y.org", "postal", "", "x.org"), None);
    }
}
