//! A received message, read with a MIME parser (mail-parser): its id,
//! sender, recipients, threading headers and text (the text/plain part of
//! an alternative, else the HTML read as text by [`super::html`]), its
//! attachments (never kept), its `Authentication-Results`, and the rules by
//! which the referee never answers (design §3.9): auto-replies
//! (`Auto-Submitted` other than `no`, `X-Autoreply`, `X-Autorespond`,
//! `Precedence: bulk|list|junk`), list mail (`List-*`), bounces
//! (`multipart/report`, a null sender, `MAILER-DAEMON`, `postmaster`) and
//! the referee's own mail coming back (`X-Postal-Referee` or its address).

use mail_parser::{HeaderValue, MessageParser, MimeHeaders, PartType};

/// The size limit: a message larger than this is read for its text alone,
/// and its sender told that its attachments were dropped.
pub const MAX_SIZE: usize = 1 << 20;

/// The most of a message that is read at all (a mail server's usual limit);
/// the rest is not read, and the sender told so.
pub const MAX_READ: usize = 32 << 20;

/// One `Authentication-Results` header (RFC 8601): who wrote it and the
/// results, `(method, result)` in lower case (`("dmarc", "fail")`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AuthResults {
    pub authserv_id: String,
    pub results: Vec<(String, String)>,
}

impl AuthResults {
    /// Reads a header's value: `mx.example.org; dkim=pass header.d=x.org;
    /// spf=fail (sender IP is 1.2.3.4) smtp.mailfrom=x.org; dmarc=fail`.
    pub fn parse(value: &str) -> AuthResults {
        // Comments, in parentheses, may nest (RFC 5322 CFWS).
        let mut text = String::with_capacity(value.len());
        let mut depth = 0usize;
        for c in value.chars() {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                c if depth == 0 => text.push(c),
                _ => {}
            }
        }
        let mut parts = text.split(';');
        let authserv_id = parts
            .next()
            .and_then(|p| p.split_whitespace().next())
            .unwrap_or("")
            .to_lowercase();
        let results = parts
            .filter_map(|p| {
                let (method, rest) = p.trim().split_once('=')?;
                let result = rest.split_whitespace().next()?;
                Some((method.trim().to_lowercase(), result.to_lowercase()))
            })
            .collect();
        AuthResults {
            authserv_id,
            results,
        }
    }

    fn result<'a>(&'a self, method: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.results
            .iter()
            .filter(move |(m, _)| m == method)
            .map(|(_, r)| r.as_str())
    }

    /// Why these results say the sender is not who `From` says: DMARC
    /// failed, or SPF failed and no DKIM signature passed.
    pub fn failure(&self) -> Option<String> {
        if self.result("dmarc").any(|r| r == "fail") {
            return Some(format!("dmarc=fail (said by {})", self.authserv_id));
        }
        if self.result("spf").any(|r| r == "fail") && !self.result("dkim").any(|r| r == "pass") {
            return Some(format!(
                "spf=fail and no passing DKIM signature (said by {})",
                self.authserv_id
            ));
        }
        None
    }
}

/// Why the `Authentication-Results` of a message say its `From` is forged,
/// when they do. Read are those whose authserv-id is in `trusted`, or,
/// when `trusted` is empty, the topmost one: the receiving server adds its
/// own above all others, and any below it may come from the sender.
pub fn auth_failure(auth: &[AuthResults], trusted: &[String]) -> Option<String> {
    let read: Vec<&AuthResults> = if trusted.is_empty() {
        auth.first().into_iter().collect()
    } else {
        auth.iter()
            .filter(|a| {
                trusted
                    .iter()
                    .any(|t| t.eq_ignore_ascii_case(&a.authserv_id))
            })
            .collect()
    };
    read.iter().find_map(|a| a.failure())
}

/// What the referee reads of a message.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inbound {
    /// `Message-ID` without angle brackets, when there is one.
    pub message_id: Option<String>,
    /// The `From` address, lower case.
    pub from: Option<String>,
    /// The `Sender` address, lower case.
    pub sender: Option<String>,
    pub subject: String,
    /// Every recipient address, in search order: To, Cc, Delivered-To,
    /// X-Original-To, X-Delivered-To, Envelope-To, X-Envelope-To.
    pub recipients: Vec<String>,
    /// `In-Reply-To` and then `References`, without angle brackets.
    pub parents: Vec<String>,
    /// The text the reply's commands are read from.
    pub text: String,
    /// The names of the attachments (never kept, never passed on).
    pub attachments: Vec<String>,
    /// The `Authentication-Results` headers, topmost first.
    pub auth: Vec<AuthResults>,
    /// Why its `From` is not exactly one mailbox (two `From` headers, a
    /// list or a group), when it is not: such a message is held, as a
    /// forged one is (a DMARC check may have judged another mailbox than
    /// the one read).
    pub from_problem: Option<String>,
    /// The message's size in bytes.
    pub size: usize,
    /// Why the message must never be answered, when it must not.
    pub never_answer: Option<String>,
}

fn texts(v: &HeaderValue) -> Vec<String> {
    match v {
        HeaderValue::Text(t) => vec![t.to_string()],
        HeaderValue::TextList(l) => l.iter().map(|t| t.to_string()).collect(),
        _ => Vec::new(),
    }
}

fn first_address(a: Option<&mail_parser::Address>) -> Option<String> {
    a.and_then(|a| a.first())
        .and_then(|a| a.address())
        .map(|s| s.trim().to_lowercase())
}

/// Reads a message; `None` when it is not a message at all.
pub fn parse(raw: &[u8]) -> Option<Inbound> {
    let msg = MessageParser::default().parse(raw)?;
    if msg.headers().is_empty() {
        return None;
    }
    let mut recipients: Vec<String> = Vec::new();
    for a in msg.to().into_iter().chain(msg.cc()) {
        for addr in a.iter() {
            if let Some(s) = addr.address() {
                recipients.push(s.trim().to_string());
            }
        }
    }
    for name in [
        "Delivered-To",
        "X-Original-To",
        "X-Delivered-To",
        "Envelope-To",
        "X-Envelope-To",
    ] {
        for (n, v) in msg.headers_raw() {
            if n.eq_ignore_ascii_case(name) {
                let v = v.trim().trim_start_matches('<').trim_end_matches('>');
                recipients.push(v.trim().to_string());
            }
        }
    }
    let mut parents = texts(msg.in_reply_to());
    parents.extend(texts(msg.references()));
    let text = body_text(&msg);
    let attachments = msg
        .attachments()
        .map(|a| {
            let size = match &a.body {
                PartType::Binary(b) | PartType::InlineBinary(b) => b.len(),
                PartType::Text(t) | PartType::Html(t) => t.len(),
                _ => 0,
            };
            let name = a.attachment_name().unwrap_or("an attachment");
            format!("{name} ({} kB)", size.div_ceil(1000))
        })
        .collect();
    let auth = msg
        .headers_raw()
        .filter(|(n, _)| n.eq_ignore_ascii_case("Authentication-Results"))
        .map(|(_, v)| AuthResults::parse(v))
        .collect();
    let raw_header = |name: &str| -> Option<String> {
        msg.headers_raw()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim().to_lowercase())
    };
    let from = first_address(msg.from());
    let from_headers = msg
        .headers_raw()
        .filter(|(n, _)| n.eq_ignore_ascii_case("From"))
        .count();
    let mailboxes = match msg.from() {
        Some(mail_parser::Address::List(l)) => l.len(),
        Some(mail_parser::Address::Group(g)) => {
            g.iter().map(|g| g.addresses.len()).sum::<usize>().max(2)
        }
        None => 0,
    };
    let from_problem = if from_headers > 1 {
        Some(format!("it has {from_headers} From headers"))
    } else if mailboxes > 1 {
        Some(format!("its From names {mailboxes} mailboxes"))
    } else {
        None
    };
    let mut never = None;
    let mut why = |w: String| {
        if never.is_none() {
            never = Some(w);
        }
    };
    if let Some(v) = raw_header("Auto-Submitted") {
        if v.split(';').next().map(str::trim) != Some("no") {
            why(format!("Auto-Submitted: {v}"));
        }
    }
    for h in ["X-Autoreply", "X-Autorespond", "X-Postal-Referee"] {
        if raw_header(h).is_some() {
            why(format!("{h} header"));
        }
    }
    if let Some(p) = raw_header("Precedence") {
        if ["bulk", "list", "junk"].contains(&p.as_str()) {
            why(format!("Precedence: {p}"));
        }
    }
    if msg
        .headers_raw()
        .any(|(n, _)| n.len() > 5 && n[..5].eq_ignore_ascii_case("list-"))
    {
        why("a mailing list header (List-*)".into());
    }
    if let Some(ct) = msg.root_part().content_type() {
        if ct.ctype().eq_ignore_ascii_case("multipart")
            && ct
                .subtype()
                .is_some_and(|s| s.eq_ignore_ascii_case("report"))
        {
            why("a delivery report (multipart/report)".into());
        }
    }
    if let Some(rp) = raw_header("Return-Path") {
        if rp
            .trim_matches(|c: char| c == '<' || c == '>' || c.is_whitespace())
            .is_empty()
        {
            why("a null sender (Return-Path: <>)".into());
        }
    }
    match &from {
        None => why("no From address".into()),
        Some(f) => {
            let local = f.split('@').next().unwrap_or("");
            if ["mailer-daemon", "postmaster"].contains(&local)
                || local.starts_with("owner-")
                || local.ends_with("-request")
            {
                why(format!("a system sender ({f})"));
            }
        }
    }
    Some(Inbound {
        message_id: msg.message_id().map(|s| s.trim().to_string()),
        from,
        sender: first_address(msg.sender()),
        subject: msg.subject().unwrap_or("").to_string(),
        recipients,
        parents,
        text,
        attachments,
        auth,
        from_problem,
        size: raw.len(),
        never_answer: never,
    })
}

/// The text of the message's first body part: a text/plain part as it is,
/// an HTML part read by [`super::html::to_text`].
fn body_text(msg: &mail_parser::Message<'_>) -> String {
    let part = msg
        .text_body
        .first()
        .or(msg.html_body.first())
        .and_then(|&i| msg.parts.get(i as usize));
    match part.map(|p| &p.body) {
        Some(PartType::Text(t)) => t.to_string(),
        Some(PartType::Html(h)) => super::html::to_text(h),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_plain_and_html_and_spots_auto_replies() {
        let plain = b"From: Ben <Ben@Example.org>\r\nTo: postal+abc@x.org\r\nMessage-ID: <m1@b>\r\nIn-Reply-To: <postal.abcdef.2.x@x.org>\r\nSubject: Re: game\r\n\r\ne5\r\n";
        let m = parse(plain).unwrap();
        assert_eq!(m.from.as_deref(), Some("ben@example.org"));
        assert_eq!(m.message_id.as_deref(), Some("m1@b"));
        assert_eq!(m.parents, vec!["postal.abcdef.2.x@x.org"]);
        assert_eq!(m.text.trim(), "e5");
        assert_eq!(m.never_answer, None);
        let html = b"From: ben@example.org\r\nTo: a@x.org\r\nContent-Type: text/html\r\n\r\n<div>Nf6<br></div><blockquote>old</blockquote>";
        assert!(parse(html).unwrap().text.contains("Nf6"));
        let ooo = b"From: ben@example.org\r\nAuto-Submitted: auto-replied\r\nTo: a@x.org\r\n\r\nI am away";
        assert!(parse(ooo).unwrap().never_answer.is_some());
        let no = b"From: ben@example.org\r\nAuto-Submitted: no\r\nTo: a@x.org\r\n\r\ne5";
        assert!(parse(no).unwrap().never_answer.is_none());
        let list = b"From: ben@example.org\r\nList-Id: <chess.x.org>\r\nTo: a@x.org\r\n\r\ne5";
        assert!(parse(list).unwrap().never_answer.is_some());
        let daemon = b"From: MAILER-DAEMON@x.org\r\nTo: a@x.org\r\n\r\nfailed";
        assert!(parse(daemon).unwrap().never_answer.is_some());
    }
}
