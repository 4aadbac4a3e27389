//! Running one verifier process under operating-system limits.
//!
//! The child gets `RLIMIT_CPU` (soft limit: the timeout rounded up plus one second of grace so
//! that the verifier can report its own timeout; hard limit two seconds later), `RLIMIT_AS` (the
//! memory limit) and `RLIMIT_CORE` 0, set in the child by `pre_exec`. It runs in a process group
//! of its own. A watchdog thread kills the whole group when the wall-clock guard expires. The
//! child is waited for with `waitid(WNOWAIT)` (so that its process group cannot be reused while
//! the watchdog may still kill it), then reaped with `wait4`, whose `rusage` gives its CPU time
//! (user + system, including its reaped descendants) and peak resident memory.

use std::ffi::OsString;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Limits of one run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// CPU-time limit in seconds (the task's timeout).
    pub cpu_secs: f64,
    /// Address-space limit in MiB (`None`: no limit).
    pub memory_mb: Option<u64>,
    /// Wall-clock time after which the process group is killed.
    pub wall_secs: f64,
}

impl Limits {
    /// The limits for a task timeout of `timeout` seconds: the wall-clock guard at 2×timeout+5 s.
    pub fn for_timeout(timeout: f64, memory_mb: Option<u64>) -> Limits {
        Limits { cpu_secs: timeout, memory_mb, wall_secs: 2.0 * timeout + 5.0 }
    }

    /// The soft `RLIMIT_CPU` in whole seconds.
    pub fn rlimit_cpu_soft(&self) -> u64 {
        (self.cpu_secs.max(0.0).ceil() as u64).saturating_add(1)
    }
}

/// How the child ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// It exited with this code.
    Exited(i32),
    /// It was killed by this signal (not by the watchdog).
    Signaled(i32),
    /// The wall-clock guard killed it.
    WallGuard,
    /// It could not be started.
    SpawnFailed(String),
}

impl Termination {
    /// `exit 0`, `signal 11 (SIGSEGV)`, `killed by the wall-clock guard`, ...
    pub fn describe(&self) -> String {
        match self {
            Termination::Exited(c) => format!("exit {c}"),
            Termination::Signaled(s) => format!("signal {s} ({})", signal_name(*s)),
            Termination::WallGuard => "killed by the wall-clock guard".into(),
            Termination::SpawnFailed(e) => format!("not started: {e}"),
        }
    }
}

/// The name of a signal number (`SIGSEGV`), or `SIG<n>`.
pub fn signal_name(sig: i32) -> String {
    let name = match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        _ => return format!("SIG{sig}"),
    };
    name.to_string()
}

/// What one run produced and measured.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    pub termination: Termination,
    /// CPU time (user + system) in seconds.
    pub cpu: f64,
    /// Wall-clock time in seconds.
    pub wall: f64,
    /// Peak resident memory in KiB.
    pub peak_kib: u64,
    /// Standard output (the first and last MiB when it is longer).
    pub stdout: String,
    pub stderr: String,
}

const HEAD_CAP: usize = 1 << 20;
const TAIL_CAP: usize = 1 << 20;

/// Reads a pipe to its end, keeping the first and the last MiB.
fn capture(mut r: impl Read) -> String {
    let mut head = Vec::new();
    let mut tail: Vec<u8> = Vec::new();
    let mut dropped = 0usize;
    let mut buf = [0u8; 64 * 1024];
    loop {
        let n = match r.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let mut chunk = &buf[..n];
        if head.len() < HEAD_CAP {
            let take = chunk.len().min(HEAD_CAP - head.len());
            head.extend_from_slice(&chunk[..take]);
            chunk = &chunk[take..];
        }
        tail.extend_from_slice(chunk);
        if tail.len() > 2 * TAIL_CAP {
            let cut = tail.len() - TAIL_CAP;
            dropped += cut;
            tail.drain(..cut);
        }
    }
    if tail.len() > TAIL_CAP {
        let cut = tail.len() - TAIL_CAP;
        dropped += cut;
        tail.drain(..cut);
    }
    let mut out = String::from_utf8_lossy(&head).into_owned();
    if dropped > 0 {
        out.push_str(&format!("\n[... {dropped} bytes left out ...]\n"));
    }
    out.push_str(&String::from_utf8_lossy(&tail));
    out
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
type Resource = libc::__rlimit_resource_t;
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
type Resource = libc::c_int;

fn set_rlimit(resource: Resource, soft: u64, hard: u64) -> std::io::Result<()> {
    let lim = libc::rlimit { rlim_cur: soft as libc::rlim_t, rlim_max: hard as libc::rlim_t };
    // SAFETY: setrlimit reads a valid struct; it is async-signal-safe (allowed after fork).
    if unsafe { libc::setrlimit(resource, &lim) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Runs `program args...` with the limits, stdin from /dev/null, and measures it. Never panics:
/// a child that cannot be started gives [`Termination::SpawnFailed`].
pub fn run(program: &Path, args: &[OsString], limits: &Limits) -> RunOutcome {
    let cpu_soft = limits.rlimit_cpu_soft();
    let cpu_hard = cpu_soft.saturating_add(2);
    let mem_bytes = limits.memory_mb.map(|mb| mb.saturating_mul(1024 * 1024));
    let mut cmd = Command::new(program);
    cmd.args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0);
    // SAFETY: the closure only calls prctl and setrlimit (async-signal-safe) and allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            // If the bench dies (Ctrl-C), the child dies with the thread that started it.
            #[cfg(target_os = "linux")]
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, 0, 0, 0);
            set_rlimit(libc::RLIMIT_CORE, 0, 0)?;
            set_rlimit(libc::RLIMIT_CPU, cpu_soft, cpu_hard)?;
            if let Some(b) = mem_bytes {
                set_rlimit(libc::RLIMIT_AS, b, b)?;
            }
            Ok(())
        });
    }
    let start = Instant::now();
    // Starting a script that another thread has just written can fail with ETXTBSY while a
    // concurrent fork still holds the file open for writing: retry a few times.
    let mut tries = 0;
    let mut child = loop {
        match cmd.spawn() {
            Ok(c) => break c,
            Err(e) if e.raw_os_error() == Some(libc::ETXTBSY) && tries < 50 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => {
                return RunOutcome {
                    termination: Termination::SpawnFailed(format!("{}: {e}", program.display())),
                    cpu: 0.0,
                    wall: 0.0,
                    peak_kib: 0,
                    stdout: String::new(),
                    stderr: String::new(),
                }
            }
        }
    };
    let pid = child.id() as libc::pid_t;
    let out_reader = child.stdout.take().map(|o| std::thread::spawn(move || capture(o)));
    let err_reader = child.stderr.take().map(|e| std::thread::spawn(move || capture(e)));

    // The watchdog: (child has exited, watchdog fired).
    let state = Arc::new((Mutex::new((false, false)), Condvar::new()));
    let watchdog = {
        let state = Arc::clone(&state);
        let wall = Duration::from_secs_f64(limits.wall_secs.clamp(0.0, 1e9));
        std::thread::spawn(move || {
            let (lock, cvar) = &*state;
            let deadline = Instant::now() + wall;
            let mut guard = lock.lock().unwrap_or_else(|e| e.into_inner());
            while !guard.0 {
                let now = Instant::now();
                if now >= deadline {
                    // The child is not yet reaped, so its process group id is still its own.
                    // SAFETY: plain kill(2) on our child's process group.
                    unsafe { libc::kill(-pid, libc::SIGKILL) };
                    guard.1 = true;
                    break;
                }
                guard = cvar.wait_timeout(guard, deadline - now).unwrap_or_else(|e| e.into_inner()).0;
            }
        })
    };

    // Wait for the exit without reaping.
    loop {
        // SAFETY: waitid writes into a zeroed siginfo_t we own.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, libc::WEXITED | libc::WNOWAIT) };
        if r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            break;
        }
    }
    // Whatever the child left running in its group would keep the pipes open: end it. The
    // group leader is a zombie, so the group id cannot have been reused.
    // SAFETY: kill(2) on our child's process group.
    unsafe { libc::kill(-pid, libc::SIGKILL) };
    let fired = {
        let (lock, cvar) = &*state;
        let mut guard = lock.lock().unwrap_or_else(|e| e.into_inner());
        guard.0 = true;
        cvar.notify_all();
        guard.1
    };
    let _ = watchdog.join();

    let mut status: libc::c_int = 0;
    // SAFETY: wait4 writes into the zeroed rusage and status we own.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let reaped = loop {
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            break true;
        }
        if r < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
            continue;
        }
        break false;
    };
    let wall = start.elapsed().as_secs_f64();
    let stdout = out_reader.and_then(|h| h.join().ok()).unwrap_or_default();
    let stderr = err_reader.and_then(|h| h.join().ok()).unwrap_or_default();
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    let termination = if !reaped {
        Termination::SpawnFailed("the child could not be waited for".into())
    } else if fired {
        Termination::WallGuard
    } else if libc::WIFEXITED(status) {
        Termination::Exited(libc::WEXITSTATUS(status))
    } else if libc::WIFSIGNALED(status) {
        Termination::Signaled(libc::WTERMSIG(status))
    } else {
        Termination::Exited(-1)
    };
    RunOutcome { termination, cpu: tv(usage.ru_utime) + tv(usage.ru_stime), wall, peak_kib: usage.ru_maxrss.max(0) as u64, stdout, stderr }
}
