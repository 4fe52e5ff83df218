//! Which player names and mail addresses postal accepts: one check, used
//! by `postal new` (through [`Player::parse`]) and again before any mail is
//! built from a state file, so a name `new` accepts is one the mail can
//! carry and a hand-edited file cannot smuggle in what `new` refuses.
//!
//! - A name is at most [`MAX_NAME_CHARS`] characters, with no control
//!   characters (CR, LF, tab, ...) and no `<` or `>`. Anything else,
//!   commas and quotes included, is carried: the mail layer writes it as
//!   a quoted string or RFC 2047 encoded words, never raw.
//! - An address is ASCII (postal does not send SMTPUTF8: write an
//!   international domain in its `xn--` form), a dot-atom local part of at
//!   most 64 bytes, `@`, and a domain of letters, digits, `-` and `.`
//!   labels, at most [`MAX_ADDRESS_BYTES`] bytes in all (RFC 5321 4.5.3.1).
//!
//! With these limits no header line of a notice can pass RFC 5322's 998
//! bytes: a `To:` line with two players is at most about 730 bytes.

use super::file::Player;

/// The longest player name, in characters.
pub const MAX_NAME_CHARS: usize = 100;
/// The longest mail address, in bytes (RFC 5321's path limit less `<>`).
pub const MAX_ADDRESS_BYTES: usize = 254;

/// Refuses a name a mail header could not carry safely.
pub fn check_name(name: &str) -> Result<(), String> {
    if name.trim().is_empty() {
        return Err("the name is empty".into());
    }
    let n = name.chars().count();
    if n > MAX_NAME_CHARS {
        return Err(format!(
            "the name is {n} characters long; the limit is {MAX_NAME_CHARS}"
        ));
    }
    if let Some(c) = name.chars().find(|c| c.is_control()) {
        return Err(format!(
            "the name contains the control character {c:?}: names are one line of text"
        ));
    }
    if name.contains(['<', '>']) {
        return Err("the name may not contain < or >".into());
    }
    Ok(())
}

/// The characters of a dot-atom besides letters and digits (RFC 5322 3.2.3).
const ATEXT: &str = "!#$%&'*+-/=?^_`{|}~";

/// Refuses an address postal cannot send to as written.
pub fn check_address(addr: &str) -> Result<(), String> {
    if !addr.is_ascii() {
        return Err(format!(
            "{addr:?} is not an ASCII address: postal does not send SMTPUTF8 mail; \
             write an international domain in its xn-- (punycode) form"
        ));
    }
    if addr.len() > MAX_ADDRESS_BYTES {
        return Err(format!(
            "the address is {} bytes long; the limit is {MAX_ADDRESS_BYTES}",
            addr.len()
        ));
    }
    let Some((local, domain)) = addr.rsplit_once('@') else {
        return Err(format!("{addr:?} is not a mail address (no @)"));
    };
    let atom_ok = |s: &str, extra: &str| {
        !s.is_empty()
            && !s.starts_with('.')
            && !s.ends_with('.')
            && !s.contains("..")
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.' || extra.contains(c))
    };
    if local.len() > 64 || !atom_ok(local, ATEXT) {
        return Err(format!(
            "{addr:?} is not a mail address postal accepts: the part before @ must be \
             letters, digits, dots and {ATEXT} (at most 64)"
        ));
    }
    let labels_ok = domain
        .split('.')
        .all(|l| !l.is_empty() && l.len() <= 63 && !l.starts_with('-') && !l.ends_with('-'));
    if !atom_ok(domain, "-") || !labels_ok {
        return Err(format!(
            "{addr:?} is not a mail address postal accepts: the domain must be \
             dot-separated labels of letters, digits and -"
        ));
    }
    Ok(())
}

impl Player {
    /// Checks the name and address (see the module's rules).
    pub fn check(&self) -> Result<(), String> {
        if let Some(n) = &self.name {
            check_name(n)?;
        }
        if let Some(a) = &self.email {
            check_address(a)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(check_name("Ana Lima").is_ok());
        assert!(check_name("Ana, Ben").is_ok());
        assert!(check_name("Ana \"the rook\" Lima").is_ok());
        assert!(check_name("José Núñez").is_ok());
        assert!(check_name(&"a".repeat(100)).is_ok());
        assert!(check_name(&"a".repeat(101)).is_err());
        assert!(check_name("Ana\r\nBcc: eve@example.org").is_err());
        assert!(check_name("Ana\tLima").is_err());
        assert!(check_name("Ana <x>").is_err());
        assert!(check_name("  ").is_err());
    }

    #[test]
    fn addresses() {
        assert!(check_address("ana@example.org").is_ok());
        assert!(check_address("ana.lima+chess@mail.example-1.org").is_ok());
        assert!(check_address("ana@xn--exmple-cua.org").is_ok());
        assert!(check_address("jö@example.org").is_err());
        assert!(check_address("ana@exämple.org").is_err());
        assert!(check_address("ana@").is_err());
        assert!(check_address("@example.org").is_err());
        assert!(check_address("a..b@example.org").is_err());
        assert!(check_address("ana@example..org").is_err());
        assert!(check_address("ana@-example.org").is_err());
        assert!(check_address("a\"b@example.org").is_err());
        assert!(check_address("ana@exa mple.org").is_err());
        assert!(check_address(&format!("{}@example.org", "a".repeat(65))).is_err());
    }
}
