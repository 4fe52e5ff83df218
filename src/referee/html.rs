//! An HTML-only reply read as text (issue 29): the lines a reader sees,
//! with the quoted notice marked as quoted, so that the text reader
//! ([`super::extract`]) treats an HTML reply exactly as a plain one.
//!
//! - Block elements end a line (`div`, `li`, `tr`, headings, ...), `br`
//!   ends one, and a paragraph (`p`) is followed by a blank line, as a
//!   reader sees it: so `<div>e4</div><div><br></div><div>Good luck!</div>`
//!   is `e4`, a blank line, `Good luck!`.
//! - Quoted parts become `> ` lines: `blockquote` (Apple Mail's and
//!   Thunderbird's `type="cite"`, Gmail's `class="gmail_quote"`), and the
//!   attribution above a quote (Gmail's `gmail_attr`, Thunderbird's
//!   `moz-cite-prefix`, Yahoo's `yahoo_quoted`).
//! - Outlook quotes without quoting: the original follows a header block
//!   (`From:`/`Sent:`/`To:`/`Subject:`) in a `div` with a top border
//!   (desktop Outlook) or `id="divRplyFwdMsg"` (Outlook on the web, after
//!   `<div id="appendonsend">` and an `hr`). Everything from there on is
//!   cut: it is the notice, never the reply.
//! - `head`, `style`, `script` and `title` are not text.
//!
//! The HTML is read with html5gum, a WHATWG tokenizer: entities, broken
//! markup and the raw text of `style` are read as a browser reads them.
//! A tokenizer rather than a whole converter (html2text) because the cuts
//! depend on an element's class, id and style, and on everything after an
//! element, which a converter does not expose; and html5gum brings no
//! further dependencies.

use html5gum::{State, Token, Tokenizer};
use std::collections::HashMap;

/// How an open element bears on the text inside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Text as it comes.
    Plain,
    /// A quoted part: its lines are marked `> `.
    Quote,
    /// Not text at all (`head`, `style`, `script`, `title`).
    Hidden,
}

/// Elements that end a line where they start and where they end.
const BLOCKS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "center",
    "dd",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "li",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "tr",
    "ul",
    "main",
];

/// Elements that have no end tag.
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
];

/// Classes that mark a quote or its attribution.
const QUOTE_CLASSES: &[&str] = &[
    "gmail_quote",
    "gmail_attr",
    "moz-cite-prefix",
    "yahoo_quoted",
    "protonmail_quote",
    "zmail_extra",
];

struct Lines {
    out: Vec<(bool, String)>,
    line: String,
    quoted: bool,
}

impl Lines {
    /// Ends the current line, if it has text.
    fn end(&mut self) {
        if !self.line.trim().is_empty() {
            let line = std::mem::take(&mut self.line);
            self.out.push((self.quoted, line.trim().to_string()));
        }
        self.line.clear();
        self.quoted = false;
    }

    /// Ends the current line, or writes an empty one (`<br>`).
    fn br(&mut self, quoted: bool) {
        if self.line.trim().is_empty() {
            self.out.push((quoted, String::new()));
            self.line.clear();
        } else {
            self.end();
        }
    }

    /// One blank line, unless there is one already.
    fn blank(&mut self, quoted: bool) {
        self.end();
        if self.out.last().is_some_and(|(_, l)| !l.is_empty()) {
            self.out.push((quoted, String::new()));
        }
    }

    fn text(&mut self, text: &str, quoted: bool, pre: bool) {
        if pre {
            let mut parts = text.split('\n');
            if let Some(first) = parts.next() {
                self.line.push_str(first);
                self.quoted |= quoted;
            }
            for part in parts {
                self.br(quoted);
                self.line.push_str(part);
                self.quoted |= quoted;
            }
            return;
        }
        // HTML whitespace collapses to one space.
        let mut last_space = self.line.is_empty() || self.line.ends_with(' ');
        for c in text.chars() {
            if matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{c}') {
                if !last_space {
                    self.line.push(' ');
                    last_space = true;
                }
            } else {
                self.line.push(c);
                last_space = false;
                self.quoted |= quoted;
            }
        }
    }
}

/// The open elements, innermost last, with counts kept as they change
/// so that every question about them (inside a quote? a `pre`? is a `td`
/// open at all?) is answered without walking them: reading stays linear
/// however deep the nesting, and unclosed elements cost nothing more.
#[derive(Default)]
struct Open {
    stack: Vec<(String, Kind)>,
    /// How many open elements have each name.
    named: HashMap<String, usize>,
    quotes: usize,
    hidden: usize,
}

impl Open {
    fn push(&mut self, name: String, kind: Kind) {
        *self.named.entry(name.clone()).or_default() += 1;
        match kind {
            Kind::Quote => self.quotes += 1,
            Kind::Hidden => self.hidden += 1,
            Kind::Plain => {}
        }
        self.stack.push((name, kind));
    }

    fn pop(&mut self) -> Option<(String, Kind)> {
        let (name, kind) = self.stack.pop()?;
        if let Some(n) = self.named.get_mut(&name) {
            *n -= 1;
        }
        match kind {
            Kind::Quote => self.quotes -= 1,
            Kind::Hidden => self.hidden -= 1,
            Kind::Plain => {}
        }
        Some((name, kind))
    }

    fn last(&self) -> Option<&(String, Kind)> {
        self.stack.last()
    }

    fn is_open(&self, name: &str) -> bool {
        self.named.get(name).is_some_and(|n| *n > 0)
    }

    /// Closes the innermost open `name` and everything inside it; false
    /// when none is open (an end tag without its start is ignored).
    fn close(&mut self, name: &str) -> bool {
        if !self.is_open(name) {
            return false;
        }
        while let Some((n, _)) = self.pop() {
            if n == name {
                break;
            }
        }
        true
    }
}

fn attr(tag: &html5gum::StartTag<()>, name: &str) -> String {
    tag.attributes
        .get(name.as_bytes())
        .map(|v| String::from_utf8_lossy(v).to_lowercase())
        .unwrap_or_default()
}

/// Outlook's header block, where its unquoted copy of the notice begins.
fn starts_outlook_original(name: &str, tag: &html5gum::StartTag<()>) -> bool {
    if name != "div" {
        return false;
    }
    let id = attr(tag, "id");
    let style: String = attr(tag, "style")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    id.starts_with("divrplyfwdmsg")
        || id == "appendonsend"
        || attr(tag, "name") == "divrplyfwdmsg"
        || attr(tag, "class").contains("outlookmessageheader")
        || (style.contains("border-top:solid") && style.contains("border:none"))
}

fn kind_of(name: &str, tag: &html5gum::StartTag<()>) -> Kind {
    if matches!(name, "head" | "style" | "script" | "title") {
        return Kind::Hidden;
    }
    let class = attr(tag, "class");
    if name == "blockquote" || class.split_whitespace().any(|c| QUOTE_CLASSES.contains(&c)) {
        return Kind::Quote;
    }
    Kind::Plain
}

/// The text of an HTML reply, its quoted parts marked `> ` and Outlook's
/// copy of the notice cut.
pub fn to_text(html: &str) -> String {
    let mut lines = Lines {
        out: Vec::new(),
        line: String::new(),
        quoted: false,
    };
    let mut open = Open::default();
    let mut tokens = Tokenizer::new(html);
    while let Some(Ok(token)) = tokens.next() {
        let quoted = open.quotes > 0;
        let hidden = open.hidden > 0;
        match token {
            Token::StartTag(tag) => {
                let name = String::from_utf8_lossy(&tag.name).to_lowercase();
                if !quoted && starts_outlook_original(&name, &tag) {
                    break;
                }
                // A block closes an open paragraph, a list item the last
                // one (the parser's implied end tags).
                let implied = match open.last() {
                    Some((p, _)) if p == "p" && BLOCKS.contains(&name.as_str()) => true,
                    Some((li, _)) if li == "li" && name == "li" => true,
                    _ => false,
                };
                if implied && open.pop().is_some_and(|(n, _)| n == "p") {
                    lines.blank(quoted);
                }
                match name.as_str() {
                    "br" => lines.br(quoted),
                    "hr" => lines.end(),
                    "td" | "th" => lines.text(" ", quoted, false),
                    n if BLOCKS.contains(&n) => lines.end(),
                    _ => {}
                }
                if VOID.contains(&name.as_str()) || tag.self_closing {
                    continue;
                }
                match name.as_str() {
                    "style" | "xmp" | "iframe" | "noembed" | "noframes" => {
                        tokens.set_state(State::RawText)
                    }
                    "script" => tokens.set_state(State::ScriptData),
                    "title" | "textarea" => tokens.set_state(State::RcData),
                    _ => {}
                }
                let kind = kind_of(&name, &tag);
                open.push(name, kind);
            }
            Token::EndTag(tag) => {
                let name = String::from_utf8_lossy(&tag.name).to_lowercase();
                if name == "br" {
                    lines.br(quoted);
                    continue;
                }
                if !open.close(&name) {
                    continue;
                }
                if name == "p" {
                    lines.blank(quoted);
                } else if BLOCKS.contains(&name.as_str()) {
                    lines.end();
                }
            }
            Token::String(s) if !hidden => {
                let pre = open.is_open("pre");
                lines.text(&String::from_utf8_lossy(&s), quoted, pre);
            }
            _ => {}
        }
    }
    lines.end();
    let mut text = String::new();
    for (quoted, line) in &lines.out {
        match (quoted, line.is_empty()) {
            (true, true) => text.push('>'),
            (true, false) => {
                text.push_str("> ");
                text.push_str(line);
            }
            (false, _) => text.push_str(line),
        }
        text.push('\n');
    }
    text.trim_matches('\n').to_string() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_end_lines_and_paragraphs_leave_a_blank_line() {
        assert_eq!(
            to_text("<div>e4</div><div><br></div><div>Good luck!</div>"),
            "e4\n\nGood luck!\n"
        );
        assert_eq!(to_text("<p>e4</p><p>Good luck!</p>"), "e4\n\nGood luck!\n");
        assert_eq!(to_text("e4<br>Good<br>\n luck!"), "e4\nGood\nluck!\n");
        assert_eq!(
            to_text("<ul><li>e4</li><li>d4</li></ul><h1>x</h1>"),
            "e4\nd4\nx\n"
        );
        assert_eq!(to_text("<p>a &amp; b&nbsp;c</p>"), "a & b\u{a0}c\n");
    }

    #[test]
    fn quotes_are_marked_and_outlook_originals_cut() {
        let gmail = "<div dir=\"ltr\">e4</div><br><div class=\"gmail_quote\"><div dir=\"ltr\" class=\"gmail_attr\">On Tue, Dec 1, 2026 at 9:00 AM Postal &lt;<a href=\"mailto:postal@example.org\">postal@example.org</a>&gt; wrote:<br></div><blockquote class=\"gmail_quote\" style=\"margin:0px 0px 0px 0.8ex\"><div>-- postal: write your answer above this line --</div></blockquote></div>";
        let t = to_text(gmail);
        assert!(t.starts_with("e4\n"), "{t}");
        assert!(t.contains("> On Tue"), "{t}");
        assert!(t.contains("> -- postal"), "{t}");
        let outlook = "<html><head><style><!-- p.MsoNormal {margin:0cm} --></style></head><body><div class=\"WordSection1\"><p class=\"MsoNormal\">1. e4<o:p></o:p></p><div><div style=\"border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm\"><p class=\"MsoNormal\"><b>From:</b> Postal</p></div></div><p>-- postal</p></div></body></html>";
        assert_eq!(to_text(outlook), "1. e4\n");
        let web = "<div>Hi Ben</div><div id=\"appendonsend\"></div><hr><div id=\"divRplyFwdMsg\"><b>From:</b> Postal</div>";
        assert_eq!(to_text(web), "Hi Ben\n");
        // Script and style are never text; broken markup is read on.
        assert_eq!(
            to_text("<script>if (a < b) x()</script><p>Nf6<p>ok</b>"),
            "Nf6\n\nok\n"
        );
    }

    /// Issue 40, point 3: nesting or unclosed elements cost no more than
    /// the text: 1 MiB of each shape is read in well under a second
    /// (quadratic, 0.8 MB took about a minute).
    #[test]
    fn deep_and_unclosed_elements_are_read_in_linear_time() {
        for tag in ["td", "div", "b", "blockquote"] {
            let open = format!("<{tag}>x");
            let html = format!(
                "e4{}{}",
                open.repeat((1 << 20) / open.len()),
                "</p>".repeat(1000)
            );
            let t = std::time::Instant::now();
            let text = to_text(&html);
            assert!(
                t.elapsed().as_secs_f64() < 5.0,
                "<{tag}>: {:?}",
                t.elapsed()
            );
            assert!(text.starts_with("e4"), "<{tag}>");
        }
    }
}
