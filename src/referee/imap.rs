//! `postal referee run DIR --imap imaps://USER@HOST[:PORT]/MAILBOX`: the
//! referee on an ordinary mailbox (issue 30). Each message in the mailbox
//! goes through [`mod@super::receive`], the pipeline of `postal receive`; once
//! it returns (the game file and the letters saved), the message is
//! written to the [journal](super::journal) and moved to `postal/done`
//! (`postal/unreadable` when it is not a message at all), with UID MOVE,
//! or COPY, `\Deleted` and UID EXPUNGE where the server lacks MOVE. The
//! folders are made when missing, with the hierarchy separator the server
//! names (LIST), so `postal/done` is `postal.done` on a server that
//! separates with `.`.
//!
//! A message is fetched as `postal receive` reads one: its first 32 MB
//! (`BODY.PEEK[]<0.N>`); the pipeline reads one over 1 MB for its text
//! alone and tells the sender that its attachments were dropped. No
//! answer of the server may be larger than that and its framing
//! (`MAX_ANSWER`): a server that sends more has its connection dropped.
//! On the first pass over a mailbox, mail that was already there and
//! names no game is moved to `postal/done` unanswered.
//!
//! After a pass over the mailbox the spool is sent; when the pass finished
//! a message, or the server announced new mail meanwhile, another pass
//! follows at once. Only then does the loop wait with IDLE, renewed every
//! 25 minutes (servers may drop an IDLE after 30; RFC 2177 asks for 29 at
//! most), or poll every `--poll` seconds where the server has no IDLE. A
//! dropped connection or a restarted server is met by connecting again
//! after 0.5 s, 1 s, 2 s, ... up to 60 s; every command is bounded by a
//! timeout (`[imap] timeout`, 60 s), so a silent network is noticed too.
//! A message left for later (a game's lock busy, a full disk) or a letter
//! not sent is tried again after `--poll` seconds rather than at the next
//! push. SIGTERM or SIGINT finish the message at hand and end the loop (a
//! second one exits at once).
//!
//! `imaps://` is TLS from the first byte (port 993), `imap://` is STARTTLS
//! (port 143) and refused when the server does not offer it; plain text
//! only with `--insecure-plain` and a loopback host (for tests). TLS is
//! rustls with the Mozilla roots (webpki-roots, as the SMTP transport),
//! plus `[imap] ca_file`. Credentials never come from the command line:
//! a password in the URL is refused. In `referee.toml`:
//!
//! ```toml
//! [imap]
//! password_command = "pass show mail/club"  # else $POSTAL_IMAP_PASSWORD
//! # token_command = "oauth2-token club"     # XOAUTH2 (Gmail, Microsoft 365): prints an access token
//! done = "postal/done"                      # where finished messages go ("/" separates levels)
//! unreadable = "postal/unreadable"          # where messages that are not mail go
//! # ca_file = "/etc/ssl/my-ca.pem"          # trust this certificate too
//! timeout = 60                              # seconds for any one command
//! ```
//!
//! The IMAP client is async-imap on a single-threaded tokio runtime that
//! lives inside [`run`]; the pipeline and the SMTP transport stay blocking
//! and are called from it between awaits.

mod access;

use access::{check_name, secret, tls_config, Conn, Secret, XOauth2};
pub use access::{ImapSettings, Security, Url, PASSWORD_ENV};

use super::journal::{Dest, Entry, Journal};
use super::receive::receive;
use super::{hash16, inbound, spool, Referee, RefereeError};
use async_imap::extensions::idle::IdleResponse;
use async_imap::types::UnsolicitedResponse;
use async_imap::{Client, Session};
use chrono::{DateTime, Utc};
use std::collections::BTreeSet;
use std::future::Future;
use std::pin::pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;
use tokio::net::TcpStream;

/// What [`run`] is asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    pub url: Url,
    /// One pass, then send the spool and stop.
    pub once: bool,
    /// Between passes where the server has no IDLE.
    pub poll: Duration,
    /// Set (by a signal) to stop after the message at hand.
    pub stop: Arc<AtomicBool>,
}

/// A flag set by SIGTERM or SIGINT; a second signal exits at once (status
/// 1), for an operator who does not want to wait.
pub fn stop_on_signals() -> Result<Arc<AtomicBool>, RefereeError> {
    let flag = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        let e = |e: std::io::Error| RefereeError::io("signal handler", e);
        signal_hook::flag::register_conditional_shutdown(sig, 1, Arc::clone(&flag)).map_err(e)?;
        signal_hook::flag::register(sig, Arc::clone(&flag)).map_err(e)?;
    }
    Ok(flag)
}

/// Why a session ended early.
enum Fail {
    /// The connection or the server: connect again after a pause.
    Lost(String),
    /// The server answered a command with NO or BAD: where that means the
    /// settings are wrong (no such mailbox, no STARTTLS) the caller makes
    /// it [`Fail::Fatal`]; elsewhere it is met like [`Fail::Lost`].
    Refused(String),
    /// Settings, credentials, the referee folder: stop.
    Fatal(RefereeError),
}

/// The server's own words in async-imap's NO or BAD text (`code: None,
/// info: Some("...")`), else the text as it is.
fn server_text(m: &str) -> String {
    m.split_once("info: Some(\"")
        .and_then(|(_, rest)| rest.rsplit_once("\")"))
        .map(|(info, _)| info.replace("\\\"", "\""))
        .unwrap_or_else(|| m.to_string())
}

impl From<async_imap::error::Error> for Fail {
    fn from(e: async_imap::error::Error) -> Fail {
        use async_imap::error::Error;
        match e {
            Error::No(m) => Fail::Refused(format!("NO {}", server_text(&m))),
            Error::Bad(m) => Fail::Refused(format!("BAD {}", server_text(&m))),
            e => Fail::Lost(e.to_string()),
        }
    }
}

impl From<std::io::Error> for Fail {
    fn from(e: std::io::Error) -> Fail {
        Fail::Lost(e.to_string())
    }
}

impl From<RefereeError> for Fail {
    fn from(e: RefereeError) -> Fail {
        Fail::Fatal(e)
    }
}

/// The first and the longest pause before connecting again.
const BACKOFF_FIRST: Duration = Duration::from_millis(500);
const BACKOFF_MAX: Duration = Duration::from_secs(60);

/// IDLE is ended and started again this often (a test may shorten it
/// with `POSTAL_TEST_IDLE_SECONDS`).
fn idle_renew() -> Duration {
    std::env::var("POSTAL_TEST_IDLE_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .map(Duration::from_secs_f64)
        .unwrap_or(Duration::from_secs(25 * 60))
}

/// A test hook, as `POSTAL_TEST_FAIL_AT` in `receive`: `before-move`
/// stops after the journal is written and before the message is moved,
/// as a crash would.
fn fail_at(point: &str) -> Result<(), Fail> {
    match std::env::var("POSTAL_TEST_FAIL_AT") {
        Ok(p) if p == point => Err(Fail::Fatal(RefereeError::Io(format!(
            "stopped {point} (test)"
        )))),
        _ => Ok(()),
    }
}

/// Runs the referee on the mailbox until `--once` is done or a signal
/// sets `opts.stop`. `now` is the clock; `report` gets one line per
/// message and per event of the connection.
pub fn run(
    r: &Referee,
    opts: &Options,
    now: &dyn Fn() -> DateTime<Utc>,
    report: &mut dyn FnMut(&str),
) -> Result<(), RefereeError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| RefereeError::io("starting the IMAP client", e))?;
    runtime.block_on(run_loop(r, opts, now, report))
}

async fn run_loop(
    r: &Referee,
    opts: &Options,
    now: &dyn Fn() -> DateTime<Utc>,
    report: &mut dyn FnMut(&str),
) -> Result<(), RefereeError> {
    let _lock = lock_folder(r)?;
    let mut journal = Journal::open(&r.dir)?;
    let mut backoff = BACKOFF_FIRST;
    loop {
        if opts.stop.load(Ordering::SeqCst) {
            return Ok(());
        }
        let mut m = Mailbox {
            r,
            opts,
            now,
            report: &mut *report,
            journal: &mut journal,
            timeout: Duration::from_secs(r.settings.imap.timeout.unwrap_or(60).max(1)),
            selected: false,
            news: false,
        };
        match m.session().await {
            Ok(()) => return Ok(()),
            Err(Fail::Fatal(e)) => return Err(e),
            Err(Fail::Lost(e) | Fail::Refused(e)) if opts.once => {
                return Err(RefereeError::Io(format!("imap: {e}")));
            }
            Err(Fail::Lost(e) | Fail::Refused(e)) => {
                if m.selected {
                    backoff = BACKOFF_FIRST;
                }
                report(&format!(
                    "imap: {e}; connecting again in {:.1} s",
                    backoff.as_secs_f64()
                ));
                if sleep_unless_stopped(backoff, &opts.stop).await {
                    return Ok(());
                }
                backoff = (backoff * 2).min(BACKOFF_MAX);
            }
        }
    }
}

/// One `referee run --imap` per referee folder: two would each move
/// the other's messages and rewrite one journal. Held while the file is
/// open; the kernel lets go when the process ends, however it ends.
fn lock_folder(r: &Referee) -> Result<std::fs::File, RefereeError> {
    let dir = r.dir.join("imap");
    std::fs::create_dir_all(&dir).map_err(|e| RefereeError::io(dir.display(), e))?;
    let path = dir.join("run.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| RefereeError::io(path.display(), e))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(RefereeError::Busy(format!(
            "another `referee run --imap` is working on {}",
            r.dir.display()
        ))),
        Err(std::fs::TryLockError::Error(e)) => Err(RefereeError::io(path.display(), e)),
    }
}

/// Sleeps `d`, waking early when the stop flag is set; true if it was.
async fn sleep_unless_stopped(d: Duration, stop: &AtomicBool) -> bool {
    let end = tokio::time::Instant::now() + d;
    while tokio::time::Instant::now() < end {
        if stop.load(Ordering::SeqCst) {
            return true;
        }
        let left = end - tokio::time::Instant::now();
        tokio::time::sleep(left.min(Duration::from_millis(100))).await;
    }
    stop.load(Ordering::SeqCst)
}

/// Resolves once the stop flag is set.
async fn stopped(stop: &AtomicBool) {
    while !stop.load(Ordering::SeqCst) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// One connection's work.
struct Mailbox<'a> {
    r: &'a Referee,
    opts: &'a Options,
    now: &'a dyn Fn() -> DateTime<Utc>,
    report: &'a mut dyn FnMut(&str),
    journal: &'a mut Journal,
    timeout: Duration,
    /// Whether the mailbox was selected (the back-off starts afresh).
    selected: bool,
    /// Whether the server announced new mail during the pass.
    news: bool,
}

/// Bounds a command by the timeout.
async fn bounded<T, E: Into<Fail>>(
    d: Duration,
    what: &str,
    f: impl Future<Output = Result<T, E>>,
) -> Result<T, Fail> {
    match tokio::time::timeout(d, f).await {
        Ok(r) => r.map_err(Into::into),
        Err(_) => Err(Fail::Lost(format!(
            "{what}: no answer in {} s",
            d.as_secs()
        ))),
    }
}

/// Whether a mailbox of this (quoted) name exists.
async fn exists(s: &mut Sess, quoted: &str) -> Result<bool, async_imap::error::Error> {
    use futures_util::TryStreamExt;
    let mut found = false;
    let mut names = s.list(Some(""), Some(quoted)).await?;
    while names.try_next().await?.is_some() {
        found = true;
    }
    Ok(found)
}

/// Reads a stream of answers to its end, keeping none.
async fn drained<T, S>(answers: S) -> Result<(), async_imap::error::Error>
where
    S: futures_util::Stream<Item = Result<T, async_imap::error::Error>>,
{
    use futures_util::TryStreamExt;
    answers.try_for_each(|_| std::future::ready(Ok(()))).await
}

/// Empties the session's announcements (a bounded queue, each holding its
/// buffer); whether one was of new mail.
fn news(s: &mut Sess) -> bool {
    let mut new_mail = false;
    while let Ok(u) = s.unsolicited_responses.try_recv() {
        new_mail |= matches!(
            u,
            UnsolicitedResponse::Exists(_) | UnsolicitedResponse::Recent(_)
        );
    }
    new_mail
}

/// The folders a session uses, with the server's separator.
struct Folders {
    done: String,
    unreadable: String,
}

impl Folders {
    fn of(&self, d: Dest) -> &str {
        match d {
            Dest::Done => &self.done,
            Dest::Unreadable => &self.unreadable,
        }
    }
}

/// What the server offers, as far as the loop cares.
struct Caps {
    idle: bool,
    mv: bool,
    uidplus: bool,
}

type Sess = Session<Conn>;

impl Mailbox<'_> {
    fn say(&mut self, line: &str) {
        (self.report)(line);
    }

    async fn connect(&mut self) -> Result<Sess, Fail> {
        let url = &self.opts.url;
        let t = self.timeout;
        let tcp = bounded(
            t,
            "connecting",
            TcpStream::connect((url.host.as_str(), url.port)),
        )
        .await
        .map_err(|e| match e {
            Fail::Lost(m) => Fail::Lost(format!("{}:{}: {m}", url.host, url.port)),
            f => f,
        })?;
        let _ = tcp.set_nodelay(true);
        let tls = |tcp: TcpStream| async {
            let config = tls_config(&self.r.settings.imap)?;
            let name = rustls::pki_types::ServerName::try_from(url.host.clone())
                .map_err(|e| Fail::Fatal(RefereeError::Config(format!("{}: {e}", url.host))))?;
            let s = bounded(
                t,
                "TLS handshake",
                tokio_rustls::TlsConnector::from(config).connect(name, tcp),
            )
            .await?;
            Ok::<Conn, Fail>(Conn::tls(s))
        };
        let conn = match url.security {
            Security::Tls => tls(tcp).await?,
            _ => Conn::plain(tcp),
        };
        let mut client = Client::new(conn);
        let greeting = bounded(t, "greeting", client.read_response()).await?;
        if greeting.is_none() {
            return Err(Fail::Lost("the server closed the connection".into()));
        }
        if url.security == Security::StartTls {
            bounded(
                t,
                "STARTTLS",
                client.run_command_and_check_ok("STARTTLS", None),
            )
            .await
            .map_err(|e| match e {
                // The server said no (BAD or NO): it has no STARTTLS.
                Fail::Refused(m) => Fail::Fatal(RefereeError::Config(format!(
                    "{}: STARTTLS refused ({m}); use imaps://, or --insecure-plain for a server on this machine",
                    url.host
                ))),
                f => f,
            })?;
            let Some(tcp) = client.into_inner().into_plain() else {
                return Err(Fail::Lost("STARTTLS on a TLS connection".into()));
            };
            client = Client::new(tls(tcp).await?);
        }
        let secret = secret(&self.r.settings.imap)?;
        let login = match secret {
            Secret::Password(p) => tokio::time::timeout(t, client.login(&url.user, &p)).await,
            Secret::Token(token) => {
                let auth = XOauth2 {
                    user: url.user.clone(),
                    token,
                    sent: false,
                };
                tokio::time::timeout(t, client.authenticate("XOAUTH2", auth)).await
            }
        };
        match login {
            Err(_) => Err(Fail::Lost("login: no answer".into())),
            Ok(Ok(s)) => Ok(s),
            // RFC 5530's UNAVAILABLE is the server's trouble, not the password's.
            Ok(Err((async_imap::error::Error::No(m), _))) if !m.contains("UNAVAILABLE") => {
                Err(Fail::Fatal(RefereeError::Config(format!(
                    "{}: login refused: {}",
                    url.host,
                    server_text(&m)
                ))))
            }
            Ok(Err((async_imap::error::Error::No(m), _))) => Err(Fail::Lost(format!(
                "login: the server is unavailable: {}",
                server_text(&m)
            ))),
            Ok(Err((e, _))) => Err(Fail::Lost(format!("login: {e}"))),
        }
    }

    /// The hierarchy separator of the server's names (LIST "" "").
    async fn separator(&self, s: &mut Sess) -> Result<Option<String>, Fail> {
        use futures_util::TryStreamExt;
        bounded(self.timeout, "LIST", async {
            let mut first = None;
            let mut names = s.list(Some(""), Some("\"\"")).await?;
            while let Some(n) = names.try_next().await? {
                first = first.or_else(|| Some(n.delimiter().map(str::to_string)));
            }
            Ok::<_, async_imap::error::Error>(first.flatten())
        })
        .await
    }

    /// Makes `name` (levels written with `/`) with the server's separator,
    /// when it is missing; returns the server's name for it.
    async fn folder(&self, s: &mut Sess, sep: Option<&str>, name: &str) -> Result<String, Fail> {
        let name = name
            .split('/')
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join(sep.unwrap_or("-"));
        check_name(&name)?;
        let quoted = format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""));
        if !bounded(self.timeout, "LIST", exists(s, &quoted)).await? {
            if let Err(e) = bounded(self.timeout, "CREATE", s.create(&name)).await {
                // Another client may have made it meanwhile.
                if !bounded(self.timeout, "LIST", exists(s, &quoted)).await? {
                    return Err(match e {
                        Fail::Refused(m) => Fail::Fatal(RefereeError::Config(format!(
                            "cannot make the folder {name:?}: {m}"
                        ))),
                        f => f,
                    });
                }
            }
        }
        Ok(name)
    }

    /// Connects, then passes and waits until done.
    async fn session(&mut self) -> Result<(), Fail> {
        let mut s = self.connect().await?;
        let caps = bounded(self.timeout, "CAPABILITY", s.capabilities()).await?;
        let caps = Caps {
            idle: caps.has_str("IDLE"),
            mv: caps.has_str("MOVE"),
            uidplus: caps.has_str("UIDPLUS"),
        };
        let sep = self.separator(&mut s).await?;
        let settings = &self.r.settings.imap;
        let done = settings.done.clone().unwrap_or("postal/done".into());
        let unreadable = settings
            .unreadable
            .clone()
            .unwrap_or("postal/unreadable".into());
        let folders = Folders {
            done: self.folder(&mut s, sep.as_deref(), &done).await?,
            unreadable: self.folder(&mut s, sep.as_deref(), &unreadable).await?,
        };
        let url = &self.opts.url;
        self.say(&format!(
            "imap: {}@{}:{} {}: {}; finished mail goes to {}",
            url.user,
            url.host,
            url.port,
            url.mailbox,
            match (caps.idle, caps.mv) {
                (true, true) => "IDLE, MOVE".to_string(),
                (true, false) => "IDLE, no MOVE (COPY and EXPUNGE)".to_string(),
                (false, true) => format!(
                    "no IDLE (polling every {} s), MOVE",
                    self.opts.poll.as_secs()
                ),
                (false, false) => format!(
                    "no IDLE (polling every {} s), no MOVE (COPY and EXPUNGE)",
                    self.opts.poll.as_secs()
                ),
            },
            folders.done
        ));
        loop {
            let mailbox = match bounded(self.timeout, "SELECT", s.select(&url.mailbox)).await {
                Err(Fail::Refused(m)) => {
                    return Err(Fail::Fatal(RefereeError::Config(format!(
                        "cannot open the mailbox {:?}: {m}",
                        url.mailbox
                    ))))
                }
                other => other?,
            };
            self.selected = true;
            news(&mut s);
            let uidvalidity = mailbox.uid_validity.unwrap_or(0);
            let (finished, left) = self
                .pass(&mut s, &caps, &folders, uidvalidity, mailbox.uid_next)
                .await?;
            let sent = self.send();
            // What the server announced meanwhile: mail that came while
            // the pass was at work is not announced again in IDLE.
            let announced = std::mem::take(&mut self.news) | news(&mut s);
            if self.opts.once || self.opts.stop.load(Ordering::SeqCst) {
                let _ = tokio::time::timeout(Duration::from_secs(5), s.logout()).await;
                return Ok(());
            }
            // After a batch, what arrived during it is fetched at once
            // rather than at the next push or renewal.
            if finished > 0 || announced {
                continue;
            }
            // A message left for later (a busy game) or a letter not sent
            // is tried again after --poll seconds, not at the next push.
            let wait = if left > 0 || !sent {
                self.opts.poll.min(idle_renew())
            } else {
                idle_renew()
            };
            if caps.idle {
                let (back, stop) = self.idle(s, wait).await?;
                s = back;
                if stop {
                    let _ = tokio::time::timeout(Duration::from_secs(5), s.logout()).await;
                    return Ok(());
                }
            } else {
                if sleep_unless_stopped(self.opts.poll, &self.opts.stop).await {
                    let _ = tokio::time::timeout(Duration::from_secs(5), s.logout()).await;
                    return Ok(());
                }
                bounded(self.timeout, "NOOP", s.noop()).await?;
            }
        }
    }

    /// Waits with IDLE until the server says something, `renew` has
    /// passed, or a signal; returns the session and whether to stop.
    async fn idle(&mut self, s: Sess, renew: Duration) -> Result<(Sess, bool), Fail> {
        let mut h = s.idle();
        bounded(self.timeout, "IDLE", h.init()).await?;
        let woke = {
            // The server's own keepalives reset wait_with_timeout's timer,
            // so the renewal has a timer of its own.
            let (wait, _interrupt) = h.wait_with_timeout(renew);
            let mut wait = pin!(wait);
            let mut stop = pin!(stopped(&self.opts.stop));
            let mut renewal = pin!(tokio::time::sleep(renew));
            std::future::poll_fn(|cx| {
                if let Poll::Ready(r) = wait.as_mut().poll(cx) {
                    return Poll::Ready(match r {
                        Ok(IdleResponse::NewData(_)) | Ok(IdleResponse::Timeout) => Ok(false),
                        // The interrupt is never used: the stream ended.
                        Ok(IdleResponse::ManualInterrupt) => {
                            Err(Fail::Lost("the server closed the connection".into()))
                        }
                        Err(e) => Err(Fail::from(e)),
                    });
                }
                if stop.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(Ok(true));
                }
                if renewal.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(Ok(false));
                }
                Poll::Pending
            })
            .await?
        };
        let s = bounded(self.timeout, "DONE", h.done()).await?;
        Ok((s, woke))
    }

    /// Sends the spool; false when a letter is left in it.
    fn send(&mut self) -> bool {
        match spool::drain(self.r) {
            Ok(sent) => {
                if !sent.is_empty() {
                    let line = format!("sent {}", super::letter::count(sent.len(), "letter"));
                    self.say(&line);
                    // Letters follow every act: the games' site, where
                    // one is kept, is brought up to date.
                    if let Some(line) = super::site::keep_current(self.r, (self.now)()) {
                        self.say(line.trim_end());
                    }
                }
                true
            }
            Err(e) => {
                self.say(&format!("sending later: {e}"));
                false
            }
        }
    }

    /// One pass over the mailbox, oldest UID first: how many messages
    /// were finished (moved out) and how many left for later.
    async fn pass(
        &mut self,
        s: &mut Sess,
        caps: &Caps,
        folders: &Folders,
        uidvalidity: u32,
        uidnext: Option<u32>,
    ) -> Result<(usize, usize), Fail> {
        use futures_util::TryStreamExt;
        let mailbox = self.opts.url.mailbox.clone();
        // Each answer is dropped as it is read: async-imap gives each its
        // own buffer of at least 4 kB.
        let mut uids: Vec<u32> = bounded(self.timeout, "FETCH", async {
            let mut uids = Vec::new();
            let mut answers = s.uid_fetch("1:*", "UID").await?;
            while let Some(f) = answers.try_next().await? {
                uids.extend(f.uid);
            }
            Ok::<_, async_imap::error::Error>(uids)
        })
        .await?;
        uids.sort_unstable();
        uids.dedup();
        let uids: BTreeSet<u32> = uids.into_iter().collect();
        let uidnext = uidnext.unwrap_or_else(|| uids.last().map_or(1, |u| u.saturating_add(1)));
        let mut keys = BTreeSet::new();
        let (mut finished, mut left) = (0, 0);
        for &uid in &uids {
            if self.opts.stop.load(Ordering::SeqCst) {
                return Ok((finished, left));
            }
            if let Some(e) = self.journal.by_uid(&mailbox, uidvalidity, uid).cloned() {
                keys.insert(e.key.clone());
                self.move_to(s, caps, folders, &e, "finished before")
                    .await?;
                finished += 1;
                continue;
            }
            let now = (self.now)();
            // One size rule with `postal receive` and the Maildir: the
            // first MAX_READ bytes are fetched (a larger message is read
            // in part), and the pipeline reads a message over MAX_SIZE for
            // its text alone and tells its sender.
            let raw = bounded(self.timeout, "FETCH", async {
                let mut raw = None;
                let mut answers = s
                    .uid_fetch(
                        uid.to_string(),
                        format!("BODY.PEEK[]<0.{}>", inbound::MAX_READ),
                    )
                    .await?;
                while let Some(f) = answers.try_next().await? {
                    if raw.is_none() && f.uid == Some(uid) {
                        raw = f.body().map(<[u8]>::to_vec);
                    }
                }
                Ok::<_, async_imap::error::Error>(raw)
            })
            .await?;
            let Some(raw) = raw else {
                // Expunged meanwhile by another client.
                continue;
            };
            let parsed = inbound::parse(&raw);
            let key = match parsed.as_ref().and_then(|m| m.message_id.as_ref()) {
                Some(id) => hash16(id.as_bytes()),
                None => hash16(&raw),
            };
            if let Some(e) = self.journal.by_key(&mailbox, &key).cloned() {
                keys.insert(key.clone());
                let moved = Entry {
                    uidvalidity,
                    uid,
                    ..e
                };
                self.journal.record(moved.clone())?;
                self.move_to(s, caps, folders, &moved, "recognised by its Message-ID")
                    .await?;
                finished += 1;
                continue;
            }
            let old = self
                .journal
                .before_first_pass(&mailbox, uidvalidity, uidnext, uid)?;
            let (to, outcome) = match &parsed {
                // Mail that was waiting before the referee's first pass
                // and names no game is not the referee's to answer.
                Some(m) if old && !names_a_game(self.r, m) => (
                    Dest::Done,
                    "ignored: names no game and was there before the first pass".to_string(),
                ),
                _ => match receive(self.r, &raw, now) {
                    Ok(o) if parsed.is_none() => (Dest::Unreadable, o.describe()),
                    Ok(o) => (Dest::Done, o.describe()),
                    Err(e) => {
                        self.say(&format!("{mailbox} {uid}: left for later: {e}"));
                        left += 1;
                        continue;
                    }
                },
            };
            keys.insert(key.clone());
            let entry = Entry {
                mailbox: mailbox.clone(),
                uidvalidity,
                uid,
                key,
                to,
                outcome,
            };
            self.journal.record(entry.clone())?;
            fail_at("before-move")?;
            self.move_to(s, caps, folders, &entry, "").await?;
            finished += 1;
        }
        self.journal.prune(&mailbox, uidvalidity, &uids, &keys)?;
        Ok((finished, left))
    }

    /// Moves a finished message to its folder, forgets it in the journal,
    /// logs and reports it.
    async fn move_to(
        &mut self,
        s: &mut Sess,
        caps: &Caps,
        folders: &Folders,
        e: &Entry,
        note: &str,
    ) -> Result<(), Fail> {
        let folder = folders.of(e.to).to_string();
        let uid = e.uid.to_string();
        let t = self.timeout;
        if caps.mv {
            bounded(t, "UID MOVE", s.uid_mv(&uid, &folder)).await?;
        } else {
            bounded(t, "UID COPY", s.uid_copy(&uid, &folder)).await?;
            bounded(t, "UID STORE", async {
                drained(s.uid_store(&uid, "+FLAGS.SILENT (\\Deleted)").await?).await
            })
            .await?;
            if caps.uidplus {
                bounded(t, "UID EXPUNGE", async {
                    drained(s.uid_expunge(&uid).await?).await
                })
                .await?;
            } else {
                bounded(t, "EXPUNGE", async { drained(s.expunge().await?).await }).await?;
            }
        }
        // Announcements are read as they come, so that few are kept.
        self.news |= news(s);
        self.journal.forget(&e.mailbox, &e.key)?;
        let now = (self.now)();
        self.r.log(
            now,
            &serde_json::json!({
                "time": crate::game::clock::format_time(now),
                "imap": e.mailbox,
                "uidvalidity": e.uidvalidity,
                "uid": e.uid,
                "key": e.key,
                "moved_to": folder,
                "outcome": e.outcome,
            }),
        );
        let note = if note.is_empty() {
            String::new()
        } else {
            format!(" ({note})")
        };
        let line = format!(
            "{} {}: {}; moved to {folder}{note}",
            e.mailbox, e.uid, e.outcome
        );
        self.say(&line);
        Ok(())
    }
}

/// Whether a message names a game: a reply token among its recipients,
/// or a parent that is one of the referee's letters (the two ways
/// [`receive`] routes a message).
fn names_a_game(r: &Referee, m: &inbound::Inbound) -> bool {
    m.recipients
        .iter()
        .any(|a| super::token::parse(a, &r.local, &r.settings.tag, &r.domain).is_some())
        || m.parents
            .iter()
            .any(|p| super::letter::gid_of_message_id(r, p).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_servers_words_are_kept_from_async_imaps_text() {
        assert_eq!(
            server_text(r#"code: None, info: Some("[UNAVAILABLE] Temporary \"auth\" failure.")"#),
            r#"[UNAVAILABLE] Temporary "auth" failure."#
        );
        assert_eq!(server_text("outcome: x"), "outcome: x");
    }
}
