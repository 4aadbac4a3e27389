//! A solver child process: commands to its stdin, S-expressions from its stdout, read with a
//! deadline by a reader thread so that a solver that does not answer can be killed.

use crate::sexp::{read_one, ReadError, Sexp};
use std::io::{BufWriter, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Why no response was read.
#[derive(Debug)]
pub enum ReadFail {
    /// The deadline passed first.
    Timeout,
    /// The process ended or its output is not SMT-LIB; the message says what happened.
    Dead(String),
}

/// How much of the solver's stderr is kept for messages.
const STDERR_KEEP: usize = 2000;

/// A running solver process.
pub struct Process {
    child: Child,
    stdin: BufWriter<ChildStdin>,
    chunks: Receiver<Vec<u8>>,
    buf: Vec<u8>,
    stderr: Arc<Mutex<String>>,
}

impl Process {
    /// Starts `argv[0]` with the arguments `argv[1..]`.
    pub fn spawn(argv: &[String]) -> Result<Process, String> {
        let (prog, args) = argv.split_first().ok_or("empty solver command")?;
        let mut cmd = Command::new(prog);
        cmd.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        kill_with_parent(&mut cmd);
        let mut child = cmd.spawn().map_err(|e| format!("cannot start `{}`: {e}", argv.join(" ")))?;
        let (Some(stdin), Some(mut stdout), Some(mut err)) = (child.stdin.take(), child.stdout.take(), child.stderr.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("solver pipes unavailable".into());
        };
        let (tx, chunks) = mpsc::channel();
        std::thread::Builder::new()
            .name("smtlib-stdout".into())
            .spawn(move || {
                let mut b = [0u8; 8192];
                while let Ok(n @ 1..) = stdout.read(&mut b) {
                    if tx.send(b[..n].to_vec()).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        let stderr = Arc::new(Mutex::new(String::new()));
        let keep = stderr.clone();
        let _ = std::thread::Builder::new().name("smtlib-stderr".into()).spawn(move || {
            let mut b = [0u8; 4096];
            while let Ok(n @ 1..) = err.read(&mut b) {
                let mut k = keep.lock().unwrap_or_else(|e| e.into_inner());
                k.push_str(&String::from_utf8_lossy(&b[..n]));
                if k.len() > STDERR_KEEP {
                    let cut = k.len() - STDERR_KEEP;
                    let cut = (cut..k.len()).find(|&i| k.is_char_boundary(i)).unwrap_or(k.len());
                    k.drain(..cut);
                }
            }
        });
        Ok(Process { child, stdin: BufWriter::new(stdin), chunks, buf: Vec::new(), stderr })
    }

    /// Writes one command (buffered; [`Process::read`] flushes).
    pub fn send(&mut self, command: &str) -> Result<(), String> {
        tracing::trace!("smtlib> {command}");
        writeln!(self.stdin, "{command}").map_err(|e| self.dead(&format!("cannot write to the solver: {e}")))
    }

    /// What the solver said on stderr, for messages.
    fn dead(&mut self, what: &str) -> String {
        let status = match self.child.try_wait() {
            Ok(Some(s)) => format!(" ({s})"),
            _ => String::new(),
        };
        let err = self.stderr.lock().map(|s| s.trim().to_string()).unwrap_or_default();
        if err.is_empty() {
            format!("{what}{status}")
        } else {
            format!("{what}{status}: {err}")
        }
    }

    /// Reads the next S-expression, waiting at most until `deadline`.
    pub fn read(&mut self, deadline: Option<Instant>) -> Result<Sexp, ReadFail> {
        self.stdin.flush().map_err(|e| ReadFail::Dead(self.dead(&format!("cannot write to the solver: {e}"))))?;
        loop {
            let text = match std::str::from_utf8(&self.buf) {
                Ok(t) => t,
                Err(e) if e.error_len().is_none() => std::str::from_utf8(&self.buf[..e.valid_up_to()]).unwrap_or(""),
                Err(_) => return Err(ReadFail::Dead("the solver printed invalid UTF-8".into())),
            };
            match read_one(text) {
                Ok(Some((e, end))) => {
                    self.buf.drain(..end);
                    tracing::trace!("smtlib< {e}");
                    return Ok(e);
                }
                Ok(None) | Err(ReadError::Incomplete) => {}
                Err(ReadError::Malformed(m)) => return Err(ReadFail::Dead(format!("unreadable solver output: {m}"))),
            }
            let chunk = match deadline {
                None => self.chunks.recv().map_err(|_| RecvTimeoutError::Disconnected),
                Some(d) => self.chunks.recv_timeout(d.saturating_duration_since(Instant::now())),
            };
            match chunk {
                Ok(c) => self.buf.extend_from_slice(&c),
                Err(RecvTimeoutError::Timeout) => return Err(ReadFail::Timeout),
                Err(RecvTimeoutError::Disconnected) => {
                    let _ = self.child.wait();
                    return Err(ReadFail::Dead(self.dead("the solver process ended")));
                }
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Asks the kernel to kill the solver when the thread that started it ends (so a solver never
/// outlives Tracery, even when the CLI exits at its hard deadline). If the starting thread ends
/// while the solver is still in use, the solver notices the dead process and restarts it.
#[cfg(target_os = "linux")]
fn kill_with_parent(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: `prctl(PR_SET_PDEATHSIG)` is async-signal-safe and touches no memory of ours.
    unsafe {
        cmd.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn kill_with_parent(_: &mut Command) {}
