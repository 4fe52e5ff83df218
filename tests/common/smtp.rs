//! The real SMTP server the mail and referee tests run on 127.0.0.1
//! (aiosmtpd, fixtures/mail/smtp_server.py; `tests/run.sh` installs it), started
//! and stopped by the test that uses it.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

pub struct Server {
    child: Child,
    pub port: u16,
    pub dir: tempfile::TempDir,
}

impl Server {
    /// Starts the server with the script's extra `args` (`--auth`,
    /// `--maildir DIR`, ...) and waits until it listens.
    pub fn start(args: &[&str]) -> Server {
        let dir = tempfile::tempdir().unwrap();
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/mail/smtp_server.py");
        let python = std::env::var("POSTAL_TEST_PYTHON").unwrap_or_else(|_| "python3".into());
        let mut child = Command::new(&python)
            .arg(script)
            .arg("--dir")
            .arg(dir.path())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {python}: {e}"));
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .strip_prefix("READY ")
            .and_then(|p| p.trim().parse().ok())
            .unwrap_or_else(|| {
                panic!("the SMTP test server did not start (is aiosmtpd installed for {python}?): {line:?}")
            });
        Server { child, port, dir }
    }

    /// The files of the messages received, in the order they came.
    pub fn files(&self) -> Vec<PathBuf> {
        let mut files: Vec<(u32, PathBuf)> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "eml"))
            .map(|p| {
                let n = p
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .and_then(|s| s.parse().ok());
                (n.unwrap_or(0), p)
            })
            .collect();
        files.sort();
        files.into_iter().map(|(_, p)| p).collect()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
