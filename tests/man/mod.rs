//! The man pages, generated from the clap definitions (clap_mangen, a
//! dev-dependency: the shipped binary does not carry the generator): one
//! page for `postal`, one per command, and `postal-config(5)` for the mail
//! settings. NAME, DESCRIPTION and OPTIONS come from clap; SYNOPSIS is
//! written here from the same definitions (as the commands are typed);
//! EXIT STATUS, ENVIRONMENT and FILES from the tables below; EXAMPLES are
//! the README's command lines for that command. The pages are committed
//! under `man/`; tests/cli.rs fails when they are stale
//! (`POSTAL_BLESS=1 cargo test --test suite cli::man_pages` rewrites them).

use clap::{Arg, ArgAction, Command};
use postal::cli::GROUPS;

const SOURCE: &str = concat!("postal ", env!("CARGO_PKG_VERSION"));
const MANUAL: &str = "postal manual";

/// Escapes text for roff: backslashes, hyphens (so they print as the
/// minus sign of command lines), and a leading `.` or `'`.
pub fn roff(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split('\n') {
        if !out.is_empty() {
            out.push('\n');
        }
        if line.starts_with('.') || line.starts_with('\'') {
            out.push_str("\\&");
        }
        for c in line.chars() {
            match c {
                '\\' => out.push_str("\\e"),
                '-' => out.push_str("\\-"),
                c => out.push(c),
            }
        }
    }
    out
}

fn bold(text: &str) -> String {
    format!("\\fB{}\\fR", roff(text))
}

fn italic(text: &str) -> String {
    format!("\\fI{}\\fR", roff(text))
}

/// What postal(1) says after its one-line description.
const OVERVIEW: &str = "A correspondence game is a state file (JSON) that travels between \
the players, by mail, a shared folder or a repository: each runs postal move FILE MOVE when \
it is their turn, and the other acts (draw offers, take-backs, claims, resignation) the \
same way; every move is checked against the variant's numbered rules (postal rules \
VARIANT), and a command that fails leaves the file unchanged. postal verify replays \
published game scores, PGN or prose, and reports each problem with its line and a caret; \
postal diagram and postal convert draw positions as ASCII, Unicode, SVG, PNG or a page that \
replays the game.";

/// The commands whose pages list `POSTAL_NOW`: those that read the clock.
const CLOCK: &[&str] = &[
    "new", "move", "show", "history", "status", "draw", "takeback", "claim", "resign", "mail",
    "moves",
];

/// True for a command that can send mail (`postal mail`, or `--mail`).
fn mails(cmd: &Command) -> bool {
    cmd.get_name() == "mail" || cmd.get_arguments().any(|a| a.get_id() == "mail")
}

/// True for a command that reads or changes a game's state file.
fn uses_game_file(name: &str) -> bool {
    CLOCK.contains(&name)
}

/// What exit statuses 0, 1 and 2 mean for a command (`None`: not used).
fn exit_status(name: &str) -> [Option<&'static str>; 3] {
    let usage = "Bad usage, or input that cannot be read (an unknown variant, position \
text that does not parse), or an input or output error.";
    let game = "Bad usage, a state file that cannot be read or does not load (the first \
bad move is named), or an input or output error. The file is left unchanged.";
    match name {
        "variants" | "rules" | "completions" => [Some("Printed."), None, Some(usage)],
        "perft" | "moves" | "diagram" => [
            Some("Printed (or written with \\-o)."),
            Some("A move of \\-\\-moves is illegal."),
            Some(usage),
        ],
        "new" => [
            Some("The game file is created (and with \\-\\-mail, the notice sent)."),
            Some("The game is saved but the mail was not sent."),
            Some(
                "Bad usage or position, the file exists already, or it cannot be written. \
No file is created.",
            ),
        ],
        "move" => [
            Some("The move is played and saved (and with \\-\\-mail, the notice sent)."),
            Some(
                "A rule said no: the move is illegal or ambiguous, or the game is over; the \
file is left unchanged. Or the move is saved but the mail was not sent.",
            ),
            Some(game),
        ],
        "draw" | "takeback" | "claim" | "resign" => [
            Some("The act is recorded in the file (and with \\-\\-mail, the notice sent)."),
            Some(
                "A rule said no (nothing to accept, the claim does not hold, the variant \
forbids resigning, the game is over); the file is left unchanged. Or the act is saved but \
the mail was not sent.",
            ),
            Some(game),
        ],
        "mail" => [
            Some("The notice is sent or written to the outbox (or printed with \\-\\-dry\\-run)."),
            Some("The message could not be composed or sent (the settings are wrong, the server refused it)."),
            Some(game),
        ],
        "show" | "history" => [Some("Printed (or written with \\-o)."), None, Some(game)],
        "status" => [
            Some("The table is printed; a file that does not load is listed with the reason."),
            None,
            Some("Bad usage, or the folder cannot be read."),
        ],
        "verify" => [
            Some("Every record is sound (warnings and notes may be printed)."),
            Some("Some record is unsound: an error was found."),
            Some("A file or a game could not be read at all, or bad usage."),
        ],
        "receive" => [
            Some(
                "The message was handled, whatever became of it: applied, answered with a \
refusal, held for confirmation, or ignored (an auto-reply, a bounce, a message already \
handled). Run by a mail server, postal exits 0 or 75 only.",
            ),
            None,
            Some("Run by hand: bad usage or an unreadable referee folder."),
        ],
        "convert" => [
            Some("Converted."),
            Some("The record is unsound: its first error is printed and nothing is written."),
            Some("The record cannot be read, there is no such game or ply, or bad usage."),
        ],
        _ => [
            Some("Success."),
            Some("A rule said no: an illegal move, an act the rules refuse, an unsound record."),
            Some(usage),
        ],
    }
}

/// Environment variables the command reads, with what they do.
fn environment(name: &str, mails: bool) -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    if CLOCK.contains(&name) || name.is_empty() {
        out.push((
            "POSTAL_NOW",
            "An RFC 3339 time (2025\\-03\\-01T09:00:00Z) that replaces the computer's clock: \
for tests, and for entering a move made earlier by post.",
        ));
    }
    if mails || name.is_empty() {
        out.push((
            "POSTAL_SMTP_PASSWORD",
            "The SMTP password, unless the settings name another variable (password_env) \
or a password_command. It is never stored in a file.",
        ));
        out.push((
            "XDG_CONFIG_HOME",
            "Where the settings are looked for: $XDG_CONFIG_HOME/postal/config.toml.",
        ));
        out.push((
            "HOME",
            "Without XDG_CONFIG_HOME, the settings are ~/.config/postal/config.toml.",
        ));
    }
    if uses_game_file(name) || name.is_empty() {
        out.push((
            "XDG_DATA_HOME",
            "Where the rules of each game are kept: $XDG_DATA_HOME/postal/rules (without it, \
~/.local/share/postal/rules, under HOME).",
        ));
    }
    if ["variants", "perft", "moves"].contains(&name) || name.is_empty() {
        out.push((
            "POSTAL_VARIANTS",
            "A variants.ini file read when \\-\\-variants is not given (postal\\-variants(5)).",
        ));
    }
    if name == "referee" || name.is_empty() {
        out.push((
            "POSTAL_IMAP_PASSWORD",
            "The IMAP password of referee run \\-\\-imap, unless [imap] in referee.toml has \
a password_command or a token_command (XOAUTH2). It is never stored in a file.",
        ));
    }
    out.push((
        "NO_COLOR",
        "When set, help and usage errors are printed without colour (CLICOLOR=0 does the \
same, CLICOLOR_FORCE=1 forces colour).",
    ));
    out
}

/// Files the command reads or writes.
fn files(name: &str, mails: bool) -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    if uses_game_file(name) || name.is_empty() {
        out.push((
            "FILE",
            "A game's state file (postal\\-game/1, JSON): the start, the players, the time \
control, every move and act. Every change replaces it whole (a temporary file renamed over it).",
        ));
        out.push((
            "FILE.lock",
            "Beside the state file: the advisory lock that serialises changes to it.",
        ));
        out.push((
            "~/.local/share/postal/rules/ID.json",
            "The rules each game was started with, by its id (or under \
$XDG_DATA_HOME/postal/rules): written when the game is started or first saved here; a game file \
whose rules differ from them (a renamed variant, another version of postal's rules, a changed \
definition) is refused, saying what changed.",
        ));
    }
    if mails || name.is_empty() {
        out.push((
            "outbox/",
            "Beside the state file: the Maildir notices are written to when no mail transport \
is set (the default); read it with a mail reader (neomutt \\-f outbox).",
        ));
        out.push((
            "~/.config/postal/config.toml",
            "The mail settings (or $XDG_CONFIG_HOME/postal/config.toml, or \\-\\-config FILE); \
see postal\\-config(5).",
        ));
    }
    out
}

/// The README's command lines for a command (`postal NAME ...`), with the
/// comment beside each, environment assignments dropped, each once.
fn examples(name: &str) -> Vec<(String, Option<String>)> {
    let readme = include_str!("../../README.md");
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    let mut in_block = false;
    let mut lang = "";
    for line in readme.lines() {
        if let Some(rest) = line.strip_prefix("```") {
            in_block = !in_block;
            lang = rest.trim();
            continue;
        }
        if !in_block || lang == "toml" {
            continue;
        }
        let line = line.strip_prefix("$ ").unwrap_or(line);
        // A pipe in a mail filter (procmail's `| postal receive ...`).
        let line = line.strip_prefix("| ").unwrap_or(line);
        let (command, comment) = match line.split_once("  #") {
            Some((c, m)) => (c.trim(), Some(m.trim().to_string())),
            None => (line.trim(), None),
        };
        let command = command
            .split(' ')
            .skip_while(|w| w.contains('=') && !w.starts_with('-') && !w.starts_with('"'))
            .collect::<Vec<_>>()
            .join(" ");
        let words: Vec<&str> = command.split(' ').collect();
        // `referee-tournament-new` names `postal referee tournament new`.
        let parts: Vec<&str> = name.split('-').collect();
        if words.first() == Some(&"postal")
            && (name.is_empty() || words.get(1..=parts.len()) == Some(&parts[..]))
            && !out.iter().any(|(c, _)| *c == command)
        {
            out.push((command, comment));
        }
    }
    let limit = if name.is_empty() { 8 } else { 4 };
    out.truncate(limit);
    out
}

/// `postal move [OPTIONS]... FILE MOVE` as it is typed, in roff.
fn synopsis(cmd: &Command, page_name: &str) -> String {
    // `postal-referee-tournament-new` is typed `postal referee tournament new`.
    let words: Vec<&str> = page_name.split('-').collect();
    let mut line = words.iter().map(|w| bold(w)).collect::<Vec<_>>().join(" ");
    let shown = |a: &&Arg| !a.is_hide_set() && !matches!(a.get_id().as_str(), "help" | "version");
    for a in cmd
        .get_arguments()
        .filter(shown)
        .filter(|a| !a.is_positional())
    {
        let flag = match (a.get_short(), a.get_long()) {
            (Some(s), _) => format!("-{s}"),
            (None, Some(l)) => format!("--{l}"),
            (None, None) => continue,
        };
        let mut text = bold(&flag);
        if a.get_action().takes_values() {
            let value = a
                .get_value_names()
                .and_then(|v| v.first().map(|s| s.to_string()))
                .unwrap_or_else(|| a.get_id().as_str().to_uppercase());
            text.push(' ');
            text.push_str(&italic(&value));
        }
        if matches!(a.get_action(), ArgAction::Append) {
            text.push_str("...");
        }
        if a.is_required_set() {
            line.push_str(&format!(" {text}"));
        } else {
            line.push_str(&format!(" [{text}]"));
        }
    }
    for a in cmd
        .get_arguments()
        .filter(shown)
        .filter(|a| a.is_positional())
    {
        let values: Vec<String> = a
            .get_possible_values()
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| v.get_name().to_string())
            .collect();
        let mut text = if !values.is_empty() && values.len() <= 6 {
            values.iter().map(|v| bold(v)).collect::<Vec<_>>().join("|")
        } else {
            let name = a
                .get_value_names()
                .and_then(|v| v.first().map(|s| s.to_string()))
                .unwrap_or_else(|| a.get_id().as_str().to_uppercase());
            italic(&name)
        };
        if a.get_num_args().is_some_and(|n| n.max_values() > 1) {
            text.push_str("...");
        }
        if a.is_required_set() {
            line.push_str(&format!(" {text}"));
        } else {
            line.push_str(&format!(" [{text}]"));
        }
    }
    if cmd.has_subcommands() {
        line.push_str(&format!(" {} [{}]", italic("COMMAND"), italic("ARGS")));
    }
    format!(".SH SYNOPSIS\n.nh\n.ad l\n{line}\n.ad b\n.hy\n")
}

fn section(title: &str, items: &[(String, String)]) -> String {
    let mut out = format!(".SH {title}\n");
    for (term, text) in items {
        out.push_str(&format!(".TP\n{term}\n{text}\n"));
    }
    out
}

fn exit_section(name: &str) -> String {
    let mut items: Vec<(String, String)> = exit_status(name)
        .iter()
        .enumerate()
        .filter_map(|(code, text)| text.map(|t| (bold(&code.to_string()), t.to_string())))
        .collect();
    if name == "receive" {
        items.push((
            bold("75"),
            "EX_TEMPFAIL: the message should be delivered again later (the game's lock is \
busy, the disk is full, the spool cannot be written); nothing was applied."
                .to_string(),
        ));
    }
    section("EXIT STATUS", &items)
}

fn env_section(name: &str, mails: bool) -> String {
    let items: Vec<(String, String)> = environment(name, mails)
        .into_iter()
        .map(|(var, text)| (bold(var), text.to_string()))
        .collect();
    section("ENVIRONMENT", &items)
}

fn files_section(name: &str, mails: bool) -> String {
    let items: Vec<(String, String)> = files(name, mails)
        .into_iter()
        .map(|(file, text)| (italic(file), text.to_string()))
        .collect();
    if items.is_empty() {
        return String::new();
    }
    section("FILES", &items)
}

fn examples_section(name: &str) -> String {
    let list = examples(name);
    if list.is_empty() {
        return String::new();
    }
    let mut out = String::from(".SH EXAMPLES\n");
    for (command, comment) in list {
        match comment {
            Some(c) => out.push_str(&format!(".PP\n{}:\n", roff(&capitalised(&c)))),
            None => out.push_str(".PP\n"),
        }
        out.push_str(&format!(".RS 4\n.nf\n{}\n.fi\n.RE\n", bold(&command)));
    }
    out
}

fn capitalised(text: &str) -> String {
    let mut c = text.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn see_also(pages: &[String]) -> String {
    let refs: Vec<String> = pages
        .iter()
        .map(|p| {
            let (name, sec) = p.rsplit_once('.').unwrap_or((p, "1"));
            format!("{}({sec})", bold(name))
        })
        .collect();
    format!(".SH SEE ALSO\n{}\n", refs.join(", "))
}

/// The parts clap_mangen renders: the NAME, DESCRIPTION and OPTIONS.
fn mangen(
    man: &clap_mangen::Man,
    part: fn(&clap_mangen::Man, &mut dyn std::io::Write) -> std::io::Result<()>,
) -> String {
    let mut buf = Vec::new();
    part(man, &mut buf).expect("render to memory");
    String::from_utf8(buf).expect("roff is UTF-8")
}

/// The `COMMANDS` section of postal(1), by [`GROUPS`].
fn commands_section(cmd: &Command) -> String {
    let mut out = String::from(".SH COMMANDS\n");
    for (heading, names) in GROUPS {
        out.push_str(&format!(".SS {}\n", roff(heading)));
        for name in names.iter().filter(|n| **n != "help") {
            let sub = cmd.find_subcommand(name).expect("grouped command exists");
            let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
            out.push_str(&format!(
                ".TP\n{}(1)\n{}\n",
                bold(&format!("postal-{name}")),
                roff(&about)
            ));
        }
    }
    out.push_str(&format!(
        ".PP\n{} {} prints the help of a command, the same as {} {} {}.\n",
        bold("postal help"),
        italic("COMMAND"),
        bold("postal"),
        italic("COMMAND"),
        bold("--help")
    ));
    out
}

/// One command's page.
fn page(cmd: &Command, page_name: &str, name: &str, see: &[String]) -> Vec<u8> {
    let named = cmd
        .clone()
        .name(&*Box::leak(page_name.to_string().into_boxed_str()))
        .display_name(page_name)
        .bin_name(page_name.replace('-', " "));
    let man = clap_mangen::Man::new(named.clone())
        .title(page_name)
        .section("1")
        .source(SOURCE)
        .manual(MANUAL);
    let mails = mails(cmd);
    let mut text = String::new();
    text.push_str(&mangen(&man, clap_mangen::Man::render_title));
    text.push_str(&mangen(&man, clap_mangen::Man::render_name_section));
    text.push_str(&synopsis(cmd, page_name));
    text.push_str(&mangen(&man, clap_mangen::Man::render_description_section));
    if let Some(after) = cmd.get_after_help() {
        text.push_str(&format!(
            ".PP\n{}\n",
            roff(&after.to_string()).replace('\n', "\n.br\n")
        ));
    }
    if name.is_empty() {
        text.push_str(&format!(".PP\n{}\n", roff(OVERVIEW)));
        text.push_str(&commands_section(cmd));
    } else if cmd.has_subcommands() && name.contains('-') {
        text.push_str(&mangen(&man, clap_mangen::Man::render_subcommands_section));
    }
    text.push_str(&mangen(&man, clap_mangen::Man::render_options_section));
    text.push_str(&exit_section(name));
    text.push_str(&env_section(name, mails));
    text.push_str(&files_section(name, mails));
    text.push_str(&examples_section(name));
    text.push_str(&see_also(see));
    text.into_bytes()
}

/// postal-config(5): the mail settings file.
fn config_page() -> Vec<u8> {
    let keys: &[(&str, &str)] = &[
        ("from", "The sender, \"Name <address>\" (default: postal <postal@localhost>)."),
        ("transport", "outbox (the default: a Maildir folder), sendmail, or smtp."),
        ("outbox", "The folder for the outbox transport (default: outbox beside the game file)."),
        ("[smtp] host", "The SMTP server (required for the smtp transport)."),
        ("[smtp] port", "Default: 587 with starttls, 465 with tls, 25 with none."),
        ("[smtp] security", "starttls (the default, required), tls (TLS from the first byte), or none (a server on this machine only)."),
        ("[smtp] user", "The login name; with it a password is needed."),
        ("[smtp] password_env", "The environment variable holding the password (default: POSTAL_SMTP_PASSWORD)."),
        ("[smtp] password_command", "A command whose output is the password (pass show mail/example.org)."),
        ("[smtp] ca_file", "A PEM certificate to trust besides the system's."),
        ("[smtp] timeout", "Seconds to wait for the server (default: 30)."),
        ("[sendmail] command", "The sendmail program (default: sendmail on the PATH)."),
    ];
    let mut text = format!(
        ".TH postal-config 5 \"\" \"{SOURCE}\" \"{MANUAL}\"\n.SH NAME\npostal\\-config \\- mail settings of postal\n\
.SH SYNOPSIS\n{}\n.SH DESCRIPTION\n",
        italic("~/.config/postal/config.toml")
    );
    text.push_str(
        "The commands that mail (postal mail, and the acts with \\-\\-mail) read their settings \
from \\-\\-config FILE, else $XDG_CONFIG_HOME/postal/config.toml, else \
~/.config/postal/config.toml. No file at all is fine: notices are then written to the outbox \
folder beside the game. The file is TOML; an unknown key is an error. A password is never \
kept in this file or in a game file: it comes from an environment variable or a command.\n",
    );
    let items: Vec<(String, String)> = keys.iter().map(|(k, v)| (bold(k), roff(v))).collect();
    text.push_str(&section("KEYS", &items));
    text.push_str(&env_section("config", true));
    let items: Vec<(String, String)> = [
        (
            "$XDG_CONFIG_HOME/postal/config.toml",
            "The settings, where XDG_CONFIG_HOME is set.",
        ),
        ("~/.config/postal/config.toml", "The settings otherwise."),
    ]
    .iter()
    .map(|(f, t)| (italic(f), t.to_string()))
    .collect();
    text.push_str(&section("FILES", &items));
    let readme = include_str!("../../README.md");
    let toml = readme
        .split("```toml\n")
        .nth(1)
        .and_then(|t| t.split("```").next())
        .unwrap_or("");
    text.push_str(&format!(
        ".SH EXAMPLES\nA real account, from the README:\n.PP\n.RS 4\n.nf\n{}.fi\n.RE\n",
        roff(toml)
    ));
    text.push_str(&see_also(&[
        "postal.1".into(),
        "postal-mail.1".into(),
        "postal-move.1".into(),
        "postal-new.1".into(),
    ]));
    text.into_bytes()
}

/// postal-variants(5): variants defined in Fairy-Stockfish's format.
fn variants_page() -> Vec<u8> {
    use postal::variant::ini::{def, keys};
    let mut text = format!(
        ".TH postal-variants 5 \"\" \"{SOURCE}\" \"{MANUAL}\"\n.SH NAME\npostal\\-variants \\- \
variants defined in Fairy\\-Stockfish's variants.ini format\n.SH SYNOPSIS\n{}\n.SH DESCRIPTION\n",
        italic("FILE.ini")
    );
    text.push_str(&roff(
        "postal variants, perft, moves and new read chess-like variants from a file in the format of \
Fairy-Stockfish's variants.ini, given with --variants FILE or POSTAL_VARIANTS. A game started \
by postal new carries its variant's definition in its state file, so that move, mail, show, \
the referee and the rest play it as they play the built-in games, in SAN (a piece of the \
variant's own is named by its letter: Ae3, e8=C), with the file gone or changed. A section is \
[name] (Fairy-Stockfish's defaults with no pieces) or [name:parent], the parent one of the \
file's earlier sections, the built-in chess (also called fairy), or one of the Fairy-Stockfish \
built-in games listed under PARENTS. A section may not take the name of a Fairy-Stockfish \
built-in game (Fairy-Stockfish keeps its own). Lines starting with # or ; \
are comments; every other line is key = value. Keys and values have Fairy-Stockfish's meanings \
and defaults (its default promotion region is rank 8 and its double steps start from ranks 2 \
and 7, whatever the board's size). A section that uses a key not listed here, or a listed \
key with a value postal cannot honour, is refused whole, with file:line:col, the key and why; \
it is never played by partial rules. Positions are FEN in Fairy-Stockfish's conventions and \
moves UCI (e2e4, a9a10q, castling as the king's move).\n",
    ));
    let mut items: Vec<(String, String)> = keys::PLAYED
        .iter()
        .map(|k| {
            (
                bold(k),
                "Played with Fairy-Stockfish's meaning.".to_string(),
            )
        })
        .collect();
    for (key, default, why) in keys::neutral_keys() {
        items.push((
            bold(key),
            roff(&format!("Accepted only as {default}: otherwise {why}.")),
        ));
    }
    for (key, why) in keys::refused_keys() {
        items.push((bold(key), roff(&format!("Refused: {why}."))));
    }
    text.push_str(&section("KEYS", &items));
    let mut items: Vec<(String, String)> = def::NAMED
        .iter()
        .map(|(n, _, b)| (bold(n), roff(&format!("Betza {b}."))))
        .collect();
    items.push((
        bold("king"),
        roff("The royal king: a letter (it moves as K) or letter:Betza for its own movement; it castles."),
    ));
    items.push((
        bold("customPiece1 .. customPiece25"),
        roff("letter:Betza, in the forms below."),
    ));
    for (n, why) in def::CODED {
        items.push((bold(n), roff(&format!("Refused: {why}."))));
    }
    text.push_str(&section("PIECES", &items));
    text.push_str(".SH PARENTS\n");
    let names: Vec<&str> = postal::variant::ini::builtin::parents()
        .iter()
        .map(|d| d.name.as_str())
        .collect();
    text.push_str(&roff(&format!(
        "Besides chess, these Fairy-Stockfish built-in games may be parents, each with \
Fairy-Stockfish's rules for it (checked against Fairy-Stockfish's own): {}. A section whose \
parent is another Fairy-Stockfish built-in game (crazyhouse, makruk, xiangqi, atomic, shogi, \
...) is refused with that reason.\n",
        names.join(", ")
    )));
    text.push_str(".SH BETZA\n");
    text.push_str(&roff(
        "Atoms W F D N A H L C J Z G K, riders R B Q, an atom doubled (NN) or followed by a \
digit (R2) for a rider and its range; modifiers m (move only) and c (capture only), p (cannon) \
and g (grasshopper), n (lame leaper), i (initial moves: quiet moves from the double-step region), \
e (the piece takes en passant), directions f b v h r l s alone or paired (fs, rb, hl), read as \
Fairy-Stockfish reads them. Refused: any other letter, and riders or hoppers along an atom longer \
than two squares (Fairy-Stockfish gives them no moves).\n",
    ));
    text.push_str(&section(
        "ENVIRONMENT",
        &[(
            bold("POSTAL_VARIANTS"),
            "The file read when \\-\\-variants is not given.".into(),
        )],
    ));
    text.push_str(&format!(
        ".SH EXAMPLES\n.PP\n.RS 4\n.nf\n{}\n.fi\n.RE\n",
        roff("[capa:chess]\nmaxFile = 10\narchbishop = a\nchancellor = c\ncastlingKingsideFile = i\n\
castlingQueensideFile = c\npromotionPieceTypes = acqrbn\n\
startFen = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1")
    ));
    text.push_str(&see_also(&[
        "postal.1".into(),
        "postal-moves.1".into(),
        "postal-perft.1".into(),
        "postal-variants.1".into(),
    ]));
    text.into_bytes()
}

/// Every man page as `(file name, contents)`.
pub fn pages() -> Vec<(String, Vec<u8>)> {
    let mut cmd = postal::cli::command();
    cmd.build();
    let subs: Vec<&Command> = cmd
        .get_subcommands()
        .filter(|s| s.get_name() != "help" && !s.is_hide_set())
        .collect();
    let mut all: Vec<String> = subs
        .iter()
        .map(|s| format!("postal-{}.1", s.get_name()))
        .collect();
    all.push("postal-config.5".to_string());
    all.push("postal-variants.5".to_string());
    let mut out = vec![("postal.1".to_string(), page(&cmd, "postal", "", &all))];
    for sub in &subs {
        let mut see = vec!["postal.1".to_string()];
        if mails(sub) {
            see.push("postal-config.5".to_string());
        }
        if ["variants", "perft", "moves"].contains(&sub.get_name()) {
            see.push("postal-variants.5".to_string());
        }
        let name = sub.get_name();
        if name == "referee" {
            see.push("postal-referee-tournament.1".to_string());
        }
        out.push((
            format!("postal-{name}.1"),
            page(sub, &format!("postal-{name}"), name, &see),
        ));
    }
    out.extend(tournament_pages());
    out.push(("postal-config.5".to_string(), config_page()));
    out.push(("postal-variants.5".to_string(), variants_page()));
    out
}

/// postal-referee-tournament(1) and a page for each of its commands
/// (`new`, `table`, `withdraw`), whose options are their own.
fn tournament_pages() -> Vec<(String, Vec<u8>)> {
    // Built alone, without a `help` command to make a page for.
    let mut t = postal::cli::command()
        .find_subcommand("referee")
        .and_then(|r| r.find_subcommand("tournament"))
        .expect("postal referee tournament")
        .clone()
        .disable_help_subcommand(true);
    t.build();
    let t = &t;
    let subs: Vec<&Command> = t
        .get_subcommands()
        .filter(|s| s.get_name() != "help")
        .collect();
    let mut see = vec!["postal.1".to_string(), "postal-referee.1".to_string()];
    see.extend(
        subs.iter()
            .map(|s| format!("postal-referee-tournament-{}.1", s.get_name())),
    );
    let mut out = vec![(
        "postal-referee-tournament.1".to_string(),
        page(t, "postal-referee-tournament", "referee-tournament", &see),
    )];
    for sub in subs {
        let name = format!("referee-tournament-{}", sub.get_name());
        let see = vec![
            "postal-referee.1".to_string(),
            "postal-referee-tournament.1".to_string(),
        ];
        out.push((
            format!("postal-{name}.1"),
            page(sub, &format!("postal-{name}"), &name, &see),
        ));
    }
    out
}
