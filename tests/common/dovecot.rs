//! The real IMAP server the IMAP tests run on 127.0.0.1: Debian's Dovecot
//! (`dovecot-imapd`; `tests/run.sh` installs it), started by each test from a
//! configuration written into a temporary folder (after
//! ../shared/design/dovecot-test.conf): unprivileged, plain text on a free
//! port, a static user, Maildir with a `/` separator. imap-login refuses to
//! run as root, so as root (CI) Dovecot runs as `nobody`, through setpriv.
//! Also a small IMAP client to put messages in (APPEND) and count them
//! (STATUS), and a TCP proxy whose connections a test can cut.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub const USER: &str = "referee";
pub const PASSWORD: &str = "secret";

/// Every wait in these tests ends within this.
pub const WAIT: Duration = Duration::from_secs(20);

fn dovecot_binary() -> PathBuf {
    for p in ["/usr/sbin/dovecot", "/usr/local/sbin/dovecot"] {
        if Path::new(p).exists() {
            return PathBuf::from(p);
        }
    }
    panic!(
        "Dovecot is not installed: the IMAP tests need it (apt-get install dovecot-imapd, \
         with a policy-rc.d that stops apt from starting the system's Dovecot; tests/run.sh does this)"
    );
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

fn id(flag: &str) -> String {
    let out = Command::new("id").arg(flag).output().unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// A Dovecot of the test's own.
pub struct Dovecot {
    child: Option<Child>,
    pub port: u16,
    /// The TLS port ([`Dovecot::start_tls`]).
    pub imaps_port: u16,
    pub dir: tempfile::TempDir,
    conf: PathBuf,
}

impl Dovecot {
    pub fn start() -> Dovecot {
        Dovecot::start_with("")
    }

    /// Starts Dovecot with TLS: STARTTLS on `port`, TLS on `imaps_port`,
    /// a self-signed certificate for 127.0.0.1 (its file: `cert.pem` in
    /// `dir`), plain text still allowed for the tests' own client.
    pub fn start_tls() -> Dovecot {
        Dovecot::start_inner("", true)
    }

    /// Starts Dovecot with `extra` lines of configuration and waits until
    /// it answers.
    pub fn start_with(extra: &str) -> Dovecot {
        Dovecot::start_inner(extra, false)
    }

    pub fn cert_file(&self) -> PathBuf {
        self.dir.path().join("cert.pem")
    }

    fn start_inner(extra: &str, tls: bool) -> Dovecot {
        let dir = tempfile::tempdir().unwrap();
        let (user, group, uid) = if is_root() {
            ("nobody".to_string(), "nogroup".to_string(), 65534)
        } else {
            // SAFETY: getuid has no preconditions.
            (id("-un"), id("-gn"), unsafe { libc::getuid() })
        };
        if is_root() {
            std::os::unix::fs::chown(dir.path(), Some(65534), Some(65534)).unwrap();
        }
        let mut extra = extra.to_string();
        if tls {
            // rustls accepts a self-signed end-entity certificate with
            // basicConstraints CA:FALSE and the IP as a name.
            let mut params = rcgen::CertificateParams::new(vec!["127.0.0.1".to_string()]).unwrap();
            params.is_ca = rcgen::IsCa::ExplicitNoCa;
            let key = rcgen::KeyPair::generate().unwrap();
            let cert = params.self_signed(&key).unwrap();
            std::fs::write(dir.path().join("cert.pem"), cert.pem()).unwrap();
            std::fs::write(dir.path().join("key.pem"), key.serialize_pem()).unwrap();
            let d = dir.path().display();
            extra.push_str(&format!(
                "ssl = yes\nssl_cert = <{d}/cert.pem\nssl_key = <{d}/key.pem\n"
            ));
        }
        let conf = dir.path().join("dovecot.conf");
        let mut d = Dovecot {
            child: None,
            port: 0,
            imaps_port: 0,
            dir,
            conf,
        };
        // A free port may be taken by another test between its choice and
        // Dovecot's bind: then choose again.
        let mut failure = String::new();
        for _ in 0..3 {
            d.port = free_port();
            d.imaps_port = if tls { free_port() } else { 0 };
            let text = include_str!("dovecot.conf.in")
                .replace("@DIR@", &d.dir.path().display().to_string())
                .replace("@USER@", &user)
                .replace("@GROUP@", &group)
                .replace("@UID@", &uid.to_string())
                .replace("@PASSWORD@", PASSWORD)
                .replace("@PORT@", &d.port.to_string())
                .replace("@IMAPS_PORT@", &d.imaps_port.to_string())
                .replace("@EXTRA@", &extra);
            std::fs::write(&d.conf, text).unwrap();
            match d.spawn() {
                Ok(()) => return d,
                Err(e) => failure = e,
            }
        }
        panic!("{failure}");
    }

    /// Starts the master and waits until it answers; an error when it
    /// exited (a port taken, a bad configuration).
    fn spawn(&mut self) -> Result<(), String> {
        let bin = dovecot_binary();
        let mut cmd = if is_root() {
            let mut c = Command::new("setpriv");
            c.args(["--reuid=nobody", "--regid=nogroup", "--clear-groups"])
                .arg(&bin);
            c
        } else {
            Command::new(&bin)
        };
        let child = cmd
            .arg("-F")
            .arg("-c")
            .arg(&self.conf)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
        self.child = Some(child);
        let start = Instant::now();
        loop {
            if let Ok(s) = TcpStream::connect(("127.0.0.1", self.port)) {
                let mut line = String::new();
                s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
                let _ = BufReader::new(s).read_line(&mut line);
                if line.starts_with("* OK") {
                    return Ok(());
                }
            }
            if let Some(Ok(Some(status))) = self.child.as_mut().map(|c| c.try_wait()) {
                let mut err = String::new();
                let _ = self
                    .child
                    .take()
                    .unwrap()
                    .stderr
                    .unwrap()
                    .read_to_string(&mut err);
                return Err(format!("Dovecot exited ({status}): {err}\n{}", self.log()));
            }
            assert!(
                start.elapsed() < WAIT,
                "Dovecot did not answer on port {} within {WAIT:?}\n{}",
                self.port,
                self.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("dovecot.log")).unwrap_or_default()
    }

    /// Stops Dovecot (SIGTERM) and waits for its master to exit.
    pub fn stop(&mut self) {
        let Some(mut child) = self.child.take() else {
            return;
        };
        // SAFETY: kill with a pid of our own child.
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        let start = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > WAIT {
                let _ = child.kill();
                let _ = child.wait();
                panic!("Dovecot did not stop within {WAIT:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        // Its login and imap processes go with the master; wait until the
        // port is free for the restart.
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
            assert!(
                start.elapsed() < WAIT,
                "the port stays open after Dovecot stopped"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn start_again(&mut self) {
        if let Err(e) = self.spawn() {
            panic!("{e}");
        }
    }

    /// Removes INBOX's files (Dovecot will not delete INBOX itself), so
    /// that the next start gives it a new UIDVALIDITY. Only while stopped.
    pub fn remove_inbox(&self) {
        assert!(self.child.is_none(), "stop Dovecot first");
        let md = self.dir.path().join("home").join(USER).join("Maildir");
        for e in std::fs::read_dir(&md).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue; // the other folders (Maildir++: .postal.done)
            }
            if e.file_type().unwrap().is_dir() {
                std::fs::remove_dir_all(e.path()).unwrap();
            } else {
                std::fs::remove_file(e.path()).unwrap();
            }
        }
    }

    /// The referee's `--imap` URL for this server (or for a proxy's port).
    pub fn url(port: u16) -> String {
        format!("imap://{USER}@127.0.0.1:{port}/INBOX")
    }

    pub fn client(&self) -> Imap {
        Imap::connect(self.port)
    }
}

impl Drop for Dovecot {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            // SAFETY: kill with a pid of our own child.
            unsafe { libc::kill(c.id() as i32, libc::SIGTERM) };
            let start = Instant::now();
            while c.try_wait().ok().flatten().is_none() && start.elapsed() < WAIT {
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// A small IMAP client: log in, APPEND, STATUS.
pub struct Imap {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    n: u32,
}

impl Imap {
    pub fn connect(port: u16) -> Imap {
        let s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.set_read_timeout(Some(WAIT)).unwrap();
        let writer = s.try_clone().unwrap();
        let mut c = Imap {
            reader: BufReader::new(s),
            writer,
            n: 0,
        };
        c.command(format!("LOGIN {USER} {PASSWORD}").as_bytes());
        c
    }

    /// Sends a command (its tag added) and returns the untagged lines;
    /// panics unless it ends OK.
    pub fn command(&mut self, cmd: &[u8]) -> Vec<String> {
        self.n += 1;
        let tag = format!("t{}", self.n);
        let mut line = tag.clone().into_bytes();
        line.push(b' ');
        line.extend_from_slice(cmd);
        line.extend_from_slice(b"\r\n");
        self.writer.write_all(&line).unwrap();
        let mut lines = Vec::new();
        loop {
            let mut l = String::new();
            let n = self.reader.read_line(&mut l).unwrap();
            assert!(n > 0, "the IMAP server closed the connection: {lines:?}");
            if let Some(rest) = l.strip_prefix(&format!("{tag} ")) {
                assert!(rest.starts_with("OK"), "{tag}: {rest} after {lines:?}");
                return lines;
            }
            lines.push(l.trim_end().to_string());
        }
    }

    /// Puts a message into a mailbox (with LITERAL+).
    pub fn append(&mut self, mailbox: &str, raw: &[u8]) {
        let mut cmd = format!("APPEND \"{mailbox}\" {{{}+}}\r\n", raw.len()).into_bytes();
        cmd.extend_from_slice(raw);
        self.command(&cmd);
    }

    fn status(&mut self, mailbox: &str, item: &str) -> u32 {
        let lines = self.command(format!("STATUS \"{mailbox}\" ({item})").as_bytes());
        let line = lines
            .iter()
            .find(|l| l.starts_with("* STATUS"))
            .unwrap_or_else(|| panic!("no STATUS: {lines:?}"));
        let after = line.split(item).nth(1).unwrap();
        after
            .trim()
            .trim_end_matches(')')
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap()
    }

    /// The number of messages in a mailbox.
    pub fn count(&mut self, mailbox: &str) -> u32 {
        self.status(mailbox, "MESSAGES")
    }

    pub fn uidvalidity(&mut self, mailbox: &str) -> u32 {
        self.status(mailbox, "UIDVALIDITY")
    }
}

/// A TCP proxy on 127.0.0.1 to a port, whose connections [`Proxy::cut`]
/// cuts, as a NAT or a flaky network does.
pub struct Proxy {
    pub port: u16,
    open: Arc<Mutex<Vec<TcpStream>>>,
    stop: Arc<AtomicBool>,
}

impl Proxy {
    pub fn start(target: u16) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let open: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let (o, st) = (Arc::clone(&open), Arc::clone(&stop));
        std::thread::spawn(move || {
            while !st.load(Ordering::SeqCst) {
                let Ok((client, _)) = listener.accept() else {
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                };
                client.set_nonblocking(false).unwrap();
                let Ok(server) = TcpStream::connect(("127.0.0.1", target)) else {
                    continue; // the server is down: the client sees a closed connection
                };
                let mut list = o.lock().unwrap();
                list.push(client.try_clone().unwrap());
                list.push(server.try_clone().unwrap());
                for (mut from, mut to) in [
                    (client.try_clone().unwrap(), server.try_clone().unwrap()),
                    (server, client),
                ] {
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut to);
                        let _ = to.shutdown(Shutdown::Both);
                        let _ = from.shutdown(Shutdown::Both);
                    });
                }
            }
        });
        Proxy { port, open, stop }
    }

    /// Cuts every connection open now.
    pub fn cut(&self) {
        for s in self.open.lock().unwrap().drain(..) {
            let _ = s.shutdown(Shutdown::Both);
        }
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.cut();
    }
}
