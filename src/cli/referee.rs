//! `postal referee init|adopt|run|sweep|games|send|held|adjudicate|extend|abort|tournament
//! DIR`: a referee folder
//! that plays games by mail replies (src/referee/), and `postal receive
//! --referee DIR [MESSAGE]`, the one-message entry point for a mail
//! server (procmail, `.forward`, a Sieve pipe).

use super::game::{clock, game_error, rule_book};
use super::{emit, CliError};
use crate::game::{store, Game};
use crate::referee::inbound::MAX_READ;
use crate::referee::index::refresh;
use crate::referee::letter::count;
use crate::referee::operator::{self, Decision};
use crate::referee::{maildir, site, spool, sweep, Referee, RefereeError};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Run a referee: games played by replying to mail.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: Sub,
}

#[derive(clap::Subcommand, Debug)]
pub enum Sub {
    /// Make a referee folder: settings, a secret key (mode 0600), games/,
    /// spool/, held/, log/, and outbox/ (a Maildir, used when no transport
    /// is configured in DIR/referee.toml).
    Init {
        dir: PathBuf,
        /// The referee's address; replies come to its plus addresses
        /// (postal+TOKEN@example.org).
        #[arg(long, value_name = "ADDRESS")]
        address: String,
    },
    /// Put an existing game under the referee (both players need an
    /// address), and mail the side to move.
    Adopt { dir: PathBuf, file: PathBuf },
    /// Process the messages in a Maildir's new/ (each moved to cur/ once
    /// done), or in an IMAP mailbox (each moved to postal/done once done,
    /// waiting with IDLE), and send the spool; with --once a single pass.
    /// SIGTERM or SIGINT end an --imap run after the message at hand.
    Run {
        dir: PathBuf,
        #[arg(
            long,
            value_name = "PATH",
            required_unless_present = "imap",
            conflicts_with = "imap"
        )]
        maildir: Option<PathBuf>,
        // Help text, not rustdoc: its brackets are not links.
        #[allow(rustdoc::broken_intra_doc_links)]
        /// imaps://USER@HOST[:PORT]/MAILBOX (imap:// for STARTTLS); the
        /// password from POSTAL_IMAP_PASSWORD or [imap] in DIR/referee.toml.
        #[arg(long, value_name = "URL")]
        imap: Option<String>,
        /// Allow imap:// without TLS, to a server on this machine only.
        #[arg(long, requires = "imap")]
        insecure_plain: bool,
        #[arg(long)]
        once: bool,
        /// Seconds between passes (with --imap, where the server has no IDLE).
        #[arg(long, value_name = "SECONDS", default_value_t = 30)]
        poll: u64,
    },
    /// Send deadline reminders and record time forfeits (run it hourly).
    Sweep { dir: PathBuf },
    /// Write the games as a static web site: an index, a page and a PGN
    /// per game, a page per player; no mail address, token or held
    /// message on any page. `site = "../www"` in referee.toml has `referee
    /// run` keep it current.
    Site {
        dir: PathBuf,
        /// The folder to write the site into (made when missing).
        #[arg(short = 'o', long = "output", value_name = "FOLDER")]
        output: PathBuf,
    },
    /// List the games.
    Games {
        dir: PathBuf,
        /// Only games of this address.
        #[arg(long, value_name = "ADDR")]
        player: Option<String>,
        /// Only games where that player (--player) is to move; without
        /// --player, every game going on.
        #[arg(long)]
        my_turn: bool,
        #[arg(long)]
        json: bool,
    },
    /// Send what is in the spool.
    Send { dir: PathBuf },
    /// Tournaments: round robins of referee games, their cross-tables,
    /// withdrawals.
    #[command(subcommand)]
    Tournament(super::tournament::Sub),
    /// End a game with the referee's result, recorded in the game as an
    /// event and mailed to both players.
    Adjudicate {
        dir: PathBuf,
        /// The game's id.
        game: String,
        /// 1-0, 0-1 or 1/2-1/2.
        result: String,
        /// Why, for the players and the record.
        #[arg(long, value_name = "TEXT")]
        reason: String,
    },
    /// Give the side to move more time for this move (recorded in the
    /// game, mailed to both players).
    Extend {
        dir: PathBuf,
        /// The game's id.
        game: String,
        /// How much more: 2d, 12h, 30m.
        #[arg(long, value_name = "DURATION")]
        by: String,
    },
    /// End a game without a result (PGN's "*"), recorded in the game and
    /// mailed to both players.
    Abort {
        dir: PathBuf,
        /// The game's id.
        game: String,
        /// Why, for the players and the record.
        #[arg(long, value_name = "TEXT")]
        reason: String,
    },
    /// List the messages held for their players' confirmation; with
    /// --release play one as its player's "confirm" would, with --drop
    /// drop it (its player is told either way).
    Held {
        dir: PathBuf,
        /// Play the held message KEY (if its game is still where it was).
        #[arg(long, value_name = "KEY", conflicts_with = "drop")]
        release: Option<String>,
        /// Drop the held message KEY.
        #[arg(long, value_name = "KEY")]
        drop: Option<String>,
    },
}

/// Read one mail message and play it (for a mail server).
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Exit status: 0 for every outcome about the message (applied, \
answered, held, ignored); 75 (EX_TEMPFAIL) when it should be delivered again later (a \
game's lock busy, a full disk, an unusable referee folder)."
)]
pub struct ReceiveArgs {
    /// The referee folder.
    #[arg(long, value_name = "DIR")]
    pub referee: PathBuf,
    /// The message (RFC 5322); standard input when absent.
    pub message: Option<PathBuf>,
}

/// EX_TEMPFAIL (sysexits.h): the mail server keeps the message and tries again.
pub const EX_TEMPFAIL: u8 = 75;

fn tempfail(e: RefereeError) -> CliError {
    CliError {
        message: e.to_string(),
        code: EX_TEMPFAIL,
        diagnostic: None,
    }
}

fn referee_error(e: RefereeError) -> CliError {
    CliError::usage(e.to_string())
}

fn open(dir: &Path) -> Result<Referee, CliError> {
    crate::referee::folder::private_umask();
    Referee::open(dir).map_err(referee_error)
}

/// Registers a game under its id, with its first notice recorded in it
/// and spooled (prepared before the game is written, released after), and
/// sends the spool; returns what to print.
pub fn register(r: &Referee, game: &Game) -> Result<String, CliError> {
    let now = clock()?.now();
    let start = crate::referee::start::prepare(r, game, now).map_err(referee_error)?;
    crate::referee::start::write(r, &start).map_err(referee_error)?;
    crate::referee::start::release(r, &start).map_err(referee_error)?;
    let (gid, letters) = (&start.gid, &start.letters);
    let mut text = format!("Game {gid} registered in {}\n", r.game_path(gid).display());
    match spool::drain(r) {
        Ok(sent) => {
            for (name, d) in sent {
                let to = letters
                    .iter()
                    .find(|(l, _)| l.name == name)
                    .map_or("", |(l, _)| l.to.as_str());
                text.push_str(&format!("Mailed {to}: {d}\n"));
            }
        }
        Err(e) => text.push_str(&format!("Not sent yet (left in the spool): {e}\n")),
    }
    Ok(text)
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    match args.command {
        Sub::Init { dir, address } => {
            crate::referee::folder::private_umask();
            let r = Referee::init(&dir, &address).map_err(referee_error)?;
            emit(
                out,
                &format!(
                    "Referee folder {} made; replies come to {}+...@{}\n",
                    dir.display(),
                    r.local,
                    r.domain
                ),
            )
        }
        Sub::Adopt { dir, file } => {
            let r = open(&dir)?;
            // A player's file, taken in: checked as the operator's own copy.
            let game = store::load(&file, Some(&rule_book()?)).map_err(|e| game_error(&file, e))?;
            let text = register(&r, &game)?;
            emit(out, &text)
        }
        Sub::Run {
            dir,
            maildir: md,
            imap,
            insecure_plain,
            once,
            poll,
        } => {
            let r = open(&dir)?;
            let Some(md) = md else {
                let url = imap.unwrap_or_default();
                return run_imap(&r, &url, insecure_plain, once, poll, out);
            };
            loop {
                let now = clock()?.now();
                let p = maildir::pass(&r, &md, now).map_err(tempfail)?;
                let mut text = String::new();
                for (name, o) in &p.messages {
                    match o {
                        Ok(o) => text.push_str(&format!("{name}: {}\n", o.describe())),
                        Err(e) => text.push_str(&format!("{name}: left for later: {e}\n")),
                    }
                }
                if p.sent > 0 {
                    text.push_str(&format!("sent {}\n", count(p.sent, "letter")));
                }
                if let Some(e) = p.send_error {
                    text.push_str(&format!("sending: {e}\n"));
                }
                if !p.messages.is_empty() {
                    text.extend(site::keep_current(&r, now));
                }
                emit(out, &text)?;
                let _ = out.flush();
                if once {
                    return Ok(());
                }
                std::thread::sleep(std::time::Duration::from_secs(poll.max(1)));
            }
        }
        Sub::Site { dir, output } => {
            let r = open(&dir)?;
            let now = clock()?.now();
            let w = site::write(&r, &output, now).map_err(referee_error)?;
            let mut text = format!(
                "wrote {} and {} to {}\n",
                count(w.games, "game"),
                count(w.players, "player"),
                output.display()
            );
            for gid in &w.skipped {
                text.push_str(&format!("left out {gid}: its file cannot be read\n"));
            }
            emit(out, &text)
        }
        Sub::Sweep { dir } => {
            let r = open(&dir)?;
            let now = clock()?.now();
            let s = sweep::sweep(&r, now).map_err(tempfail)?;
            let sent = spool::drain(&r).map(|s| s.len()).unwrap_or(0);
            emit(
                out,
                &format!(
                    "{}; {}; {}{}; {}{}; {} expired;{} sent {}\n",
                    count(s.games, "game"),
                    count(s.reminders.len(), "reminder"),
                    count(s.forfeits.len(), "time forfeit"),
                    if s.forfeits.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", s.forfeits.join(", "))
                    },
                    count(s.overdue.len(), "overdue game"),
                    if s.overdue.is_empty() {
                        String::new()
                    } else {
                        format!(" ({}: postal referee adjudicate)", s.overdue.join(", "))
                    },
                    count(s.expired.len(), "held message"),
                    if s.standings > 0 {
                        format!(" {};", count(s.standings, "weekly standing"))
                    } else {
                        String::new()
                    },
                    count(sent, "letter")
                ),
            )
        }
        Sub::Games {
            dir,
            player,
            my_turn,
            json,
        } => {
            let r = open(&dir)?;
            let (index, broken) = refresh(&r).map_err(referee_error)?;
            let player = player.map(|p| p.to_lowercase());
            let rows: Vec<_> = index
                .games
                .iter()
                .filter(|(_, row)| match &player {
                    Some(p) => &row.white_email == p || &row.black_email == p,
                    None => true,
                })
                .filter(|(_, row)| {
                    !my_turn
                        || match &player {
                            Some(p) => row.to_move_email() == Some(p.as_str()),
                            None => row.result.is_none(),
                        }
                })
                .collect();
            let mut text = String::new();
            if json {
                let v: Vec<_> = rows
                    .iter()
                    .map(|(gid, row)| {
                        serde_json::json!({
                            "id": gid, "variant": row.variant, "white": row.white,
                            "black": row.black, "to_move": row.result.is_none().then_some(&row.turn),
                            "plies": row.plies, "moves": row.moves, "deadline": row.deadline, "result": row.result,
                            "tournament": row.tournament, "round": row.round,
                        })
                    })
                    .collect();
                text = serde_json::to_string_pretty(&v).unwrap_or_default();
                text.push('\n');
            } else {
                for (gid, row) in rows {
                    let state = match &row.result {
                        Some(r) => r.clone(),
                        None => format!(
                            "{} to move{}",
                            row.turn,
                            row.deadline
                                .map(|d| format!(
                                    ", deadline {}",
                                    crate::game::clock::format_time(d)
                                ))
                                .unwrap_or_default()
                        ),
                    };
                    let event = match (&row.tournament, row.round) {
                        (Some(t), Some(round)) => format!("  {t}, round {round}"),
                        _ => String::new(),
                    };
                    text.push_str(&format!(
                        "{gid}  {} v {}  {}  {}  {state}{event}\n",
                        row.white,
                        row.black,
                        row.variant,
                        count(row.moves, "move")
                    ));
                }
            }
            for b in broken {
                text.push_str(&format!("unreadable: {b}\n"));
            }
            emit(out, &text)
        }
        Sub::Adjudicate {
            dir,
            game,
            result,
            reason,
        } => decide(&dir, &game, Decision::Adjudicate { result, reason }, out),
        Sub::Extend { dir, game, by } => decide(&dir, &game, Decision::Extend { by }, out),
        Sub::Abort { dir, game, reason } => decide(&dir, &game, Decision::Abort { reason }, out),
        Sub::Held { dir, release, drop } => {
            let r = open(&dir)?;
            let now = clock()?.now();
            let done = match (release, drop) {
                (Some(key), _) => {
                    Some(crate::referee::receive::release(&r, &key, now).map_err(referee_error)?)
                }
                (None, Some(key)) => {
                    Some(crate::referee::receive::drop_held(&r, &key, now).map_err(referee_error)?)
                }
                (None, None) => None,
            };
            let mut text = String::new();
            match done {
                Some(o) => {
                    text.push_str(&format!("{}\n", o.describe()));
                    let sent = spool::drain(&r).map(|s| s.len()).unwrap_or(0);
                    text.push_str(&format!("sent {}\n", count(sent, "letter")));
                }
                None => {
                    for h in crate::referee::held::list(&r).map_err(referee_error)? {
                        text.push_str(&format!(
                            "{}  {}  {}  from {}  {}  reads {:?}  held because {}\n",
                            h.key,
                            h.gid,
                            h.side.name().to_lowercase(),
                            h.from,
                            crate::game::clock::format_time(h.received),
                            h.read.join(" / "),
                            h.why
                        ));
                    }
                }
            }
            emit(out, &text)
        }
        Sub::Tournament(sub) => super::tournament::run(sub, out),
        Sub::Send { dir } => {
            let r = open(&dir)?;
            let sent = spool::drain(&r).map_err(tempfail)?;
            emit(out, &format!("sent {}\n", count(sent.len(), "letter")))
        }
    }
}

/// `adjudicate`, `extend`, `abort`: the operator's decision, then the spool.
fn decide(dir: &Path, gid: &str, d: Decision, out: &mut dyn Write) -> Result<(), CliError> {
    let r = open(dir)?;
    let now = clock()?.now();
    let said = operator::decide(&r, gid, &d, now).map_err(referee_error)?;
    let sent = spool::drain(&r).map(|s| s.len()).unwrap_or(0);
    emit(out, &format!("{said}\nsent {}\n", count(sent, "letter")))
}

/// `postal referee run DIR --imap URL` (src/referee/imap.rs).
fn run_imap(
    r: &Referee,
    url: &str,
    insecure_plain: bool,
    once: bool,
    poll: u64,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    use crate::referee::imap;
    let opts = imap::Options {
        url: imap::Url::parse(url, insecure_plain).map_err(referee_error)?,
        once,
        poll: std::time::Duration::from_secs(poll.max(1)),
        stop: imap::stop_on_signals().map_err(tempfail)?,
    };
    let clock = clock()?;
    let mut report = |line: &str| {
        let _ = out.write_all(format!("{line}\n").as_bytes());
        let _ = out.flush();
    };
    imap::run(r, &opts, &|| clock.now(), &mut report).map_err(tempfail)
}

/// `postal receive --referee DIR [MESSAGE]`.
pub fn receive(args: ReceiveArgs, out: &mut dyn Write) -> Result<(), CliError> {
    crate::referee::folder::private_umask();
    let r = Referee::open(&args.referee).map_err(tempfail)?;
    // The first MAX_READ bytes are read (a larger message is read in part,
    // and its sender told); the rest is drained, so the mail server's
    // pipe is never left unread.
    let mut raw = Vec::new();
    let limit = MAX_READ as u64;
    let read = match &args.message {
        Some(p) => std::fs::File::open(p).and_then(|f| f.take(limit).read_to_end(&mut raw)),
        None => {
            let mut stdin = std::io::stdin().lock();
            (&mut stdin)
                .take(limit)
                .read_to_end(&mut raw)
                .and_then(|n| std::io::copy(&mut stdin, &mut std::io::sink()).map(|_| n))
        }
    };
    read.map_err(|e| CliError::usage(format!("reading the message: {e}")))?;
    let now = clock()?.now();
    let outcome = crate::referee::receive(&r, &raw, now).map_err(tempfail)?;
    let mut text = format!("{}\n", outcome.describe());
    match spool::drain(&r) {
        Ok(sent) if !sent.is_empty() => {
            text.push_str(&format!("sent {}\n", count(sent.len(), "letter")))
        }
        Ok(_) => {}
        Err(e) => text.push_str(&format!("sending later: {e}\n")),
    }
    emit(out, &text)
}
