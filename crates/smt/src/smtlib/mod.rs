//! [`SmtLibSolver`]: a [`Solver`] over a child process that speaks SMT-LIB2 on stdin/stdout
//! (`z3 -in`, `cvc5 --incremental --lang smt2`, `yices-smt2 --incremental`).
//!
//! The solver keeps the commands of every open scope (declarations, assertions), so it can
//! start the process lazily and restart it at any time by replaying them: after a timeout
//! (the process is killed; the answer is `Unknown`), or when the process died. Commands are
//! sent with `:print-success`, so every one of them has exactly one answer, which is read
//! (pipelined) before the next query: an `(error ..)` poisons the scope of its command, and
//! checks in that scope answer `Unknown`.

mod names;
mod process;
mod terms;

pub use names::{escape, unescape};

use crate::sexp::Sexp;
use crate::solver::{Model, SatResult, Solver, SolverError, SolverStats};
use crate::sort::Sort;
use crate::term::Term;
use names::{assertion_name, assertion_symbol, term_text, Table};
use process::{Process, ReadFail};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Extra time for a check beyond its timeout before the process is killed (communication).
const SLACK: Duration = Duration::from_millis(200);

/// A command whose `success` has not been read yet: its scope depth, and whether it opens
/// or closes a scope (an error there desynchronizes the process, which is then restarted).
struct Pending {
    depth: usize,
    scope: bool,
    what: &'static str,
}

/// An incremental solver in a child process.
pub struct SmtLibSolver {
    argv: Vec<String>,
    interpolating: bool,
    process: Option<Process>,
    /// Commands per scope; `frames[0]` is the outermost one.
    frames: Vec<Vec<String>>,
    table: Table,
    pending: VecDeque<Pending>,
    /// Errors of commands, with the depth of their scope.
    poisoned: Vec<(usize, String)>,
    timeout_ms: u64,
    last: Option<SatResult>,
    interpolants: u64,
    stats: SolverStats,
}

impl SmtLibSolver {
    /// A solver running `argv` (program and arguments), started at once so that a command
    /// that cannot run is reported here.
    pub fn new(argv: &[String]) -> Result<SmtLibSolver, SolverError> {
        Self::start(argv, false)
    }

    /// A solver that also computes interpolants (`:produce-interpolants`, cvc5).
    pub fn interpolating(argv: &[String]) -> Result<SmtLibSolver, SolverError> {
        Self::start(argv, true)
    }

    fn start(argv: &[String], interpolating: bool) -> Result<SmtLibSolver, SolverError> {
        let mut s = SmtLibSolver {
            argv: argv.to_vec(),
            interpolating,
            process: None,
            frames: vec![Vec::new()],
            table: Table::default(),
            pending: VecDeque::new(),
            poisoned: Vec::new(),
            timeout_ms: 0,
            last: None,
            interpolants: 0,
            stats: SolverStats::default(),
        };
        s.ensure_started().map_err(SolverError::Failure)?;
        s.stats.restarts = 0;
        Ok(s)
    }

    /// The command line of the solver.
    pub fn command(&self) -> String {
        self.argv.join(" ")
    }

    fn depth(&self) -> usize {
        self.frames.len() - 1
    }

    /// Sends a command that answers `success` (if the process runs).
    fn send(&mut self, cmd: &str, depth: usize, scope: bool, what: &'static str) {
        if let Some(p) = self.process.as_mut() {
            if let Err(e) = p.send(cmd) {
                tracing::debug!("smtlib: {e}");
                self.process = None;
                self.pending.clear();
                return;
            }
            self.pending.push_back(Pending { depth, scope, what });
        }
    }

    /// Records a command of the current scope and sends it.
    fn command_here(&mut self, cmd: String, what: &'static str) {
        let d = self.depth();
        self.send(&cmd, d, false, what);
        if let Some(f) = self.frames.last_mut() {
            f.push(cmd);
        }
    }

    /// Starts the process if needed and replays every scope into it.
    fn ensure_started(&mut self) -> Result<(), String> {
        if self.process.is_some() {
            return Ok(());
        }
        let mut p = Process::spawn(&self.argv)?;
        // cvc5 cannot interpolate with unsat cores enabled.
        let options = if self.interpolating {
            [":print-success true", ":produce-models true", ":produce-interpolants true"]
        } else {
            [":print-success true", ":produce-models true", ":produce-unsat-cores true"]
        };
        for o in &options {
            p.send(&format!("(set-option {o})"))?;
        }
        p.send("(set-logic ALL)")?;
        for _ in 0..options.len() {
            match p.read(startup_deadline()) {
                Ok(r) if r.is_symbol("success") || r.is_symbol("unsupported") => {}
                Ok(r) => return Err(format!("`{}` rejected an option: {r}", self.command())),
                Err(e) => return Err(format!("`{}` did not start: {}", self.command(), fail_text(e))),
            }
        }
        match p.read(startup_deadline()) {
            Ok(r) if r.is_symbol("success") => {}
            Ok(r) => return Err(format!("`{}` does not speak SMT-LIB (set-logic ALL: {r})", self.command())),
            Err(e) => return Err(format!("`{}` did not start: {}", self.command(), fail_text(e))),
        }
        self.process = Some(p);
        self.stats.restarts += 1;
        self.pending.clear();
        let frames = std::mem::take(&mut self.frames);
        for (d, frame) in frames.iter().enumerate() {
            if d > 0 {
                self.send("(push 1)", d - 1, true, "push");
            }
            for cmd in frame {
                self.send(cmd, d, false, "replay");
            }
        }
        self.frames = frames;
        Ok(())
    }

    /// A deadline `limit` from now, or the solver's timeout if that is shorter.
    fn deadline(&self, limit: Duration) -> Option<Instant> {
        let t = if self.timeout_ms > 0 { limit.min(Duration::from_millis(self.timeout_ms) + SLACK) } else { limit };
        Instant::now().checked_add(t)
    }

    fn kill(&mut self, why: &str) {
        tracing::debug!("smtlib: stopping `{}`: {why}", self.command());
        self.process = None;
        self.pending.clear();
    }

    /// Starts the process if needed and reads the answers of all commands sent so far. A
    /// process that died (a solver may exit on an error) is restarted once, by replay.
    fn sync(&mut self) -> Result<(), String> {
        match self.drain() {
            Err((msg, true)) => {
                tracing::debug!("smtlib: restarting `{}` after: {msg}", self.command());
                self.drain().map_err(|(m, _)| m)
            }
            r => r.map_err(|(m, _)| m),
        }
    }

    /// Like [`SmtLibSolver::sync`] without the restart; the flag says whether a restart may help.
    fn drain(&mut self) -> Result<(), (String, bool)> {
        self.ensure_started().map_err(|e| (e, false))?;
        while let Some(p) = self.pending.pop_front() {
            let deadline = self.deadline(Duration::from_secs(60));
            let Some(proc_) = self.process.as_mut() else { return Err(("solver process lost".into(), true)) };
            match proc_.read(deadline) {
                Ok(r) if r.is_symbol("success") => {}
                Ok(r) => {
                    let msg = format!("{} failed: {}", p.what, error_text(&r));
                    tracing::debug!("smtlib: {msg}");
                    if p.scope {
                        self.kill(&msg);
                        return Err((msg, true));
                    }
                    self.poisoned.push((p.depth, msg));
                }
                Err(e) => {
                    let retry = matches!(e, ReadFail::Dead(_));
                    let msg = fail_text(e);
                    self.kill(&msg);
                    return Err((msg, retry));
                }
            }
        }
        Ok(())
    }

    /// Sends a query and reads its answer within the solver's timeout (killing the process
    /// if it does not answer in time).
    fn query(&mut self, cmd: &str) -> Result<Sexp, String> {
        self.sync()?;
        if let Some((_, e)) = self.poisoned.first() {
            return Err(format!("an earlier command failed: {e}"));
        }
        let deadline = if self.timeout_ms > 0 { Instant::now().checked_add(Duration::from_millis(self.timeout_ms) + SLACK) } else { None };
        let Some(p) = self.process.as_mut() else { return Err("solver process lost".into()) };
        let r = p.send(cmd).map_err(ReadFail::Dead).and_then(|()| p.read(deadline));
        match r {
            Ok(r) => Ok(r),
            Err(ReadFail::Timeout) => {
                self.stats.timeouts += 1;
                self.kill("timeout");
                Err("timeout".into())
            }
            Err(ReadFail::Dead(m)) => {
                self.kill(&m);
                Err(m)
            }
        }
    }

    /// Declares what `terms` use (in the current scope); a clash poisons the scope.
    fn declare(&mut self, terms: &[Term]) {
        let depth = self.depth();
        match self.table.declare(terms, depth) {
            Ok(cmds) => {
                for c in cmds {
                    self.command_here(c, "declaration");
                }
            }
            Err(e) => self.poisoned.push((depth, e)),
        }
    }

    fn add(&mut self, name: Option<&str>, t: &Term) {
        self.last = None;
        if t.sort != Sort::Bool {
            let d = self.depth();
            self.poisoned.push((d, format!("asserting non-Boolean term {t}")));
            return;
        }
        self.declare(std::slice::from_ref(t));
        let cmd = match name {
            None => format!("(assert {})", term_text(t)),
            Some(n) => format!("(assert (! {} :named {}))", term_text(t), assertion_symbol(n)),
        };
        self.command_here(cmd, "assertion");
    }

    /// A Craig interpolant `I` with `a ⇒ I`, `I ⇒ ¬b` (in cvc5's terms, for `A = a` and
    /// `B = ¬b`: `(get-interpolant I (not b))`), over the symbols `a` and `b` share. The
    /// interpolant is the solver's word and must be checked by the caller.
    pub fn interpolant(&mut self, a: &[Term], b: &Term) -> Result<Term, SolverError> {
        let started = Instant::now();
        self.push();
        for t in a {
            self.assert(t);
        }
        let goal = crate::build::not(b);
        self.declare(std::slice::from_ref(&goal));
        self.interpolants += 1;
        let name = format!("I_{}", self.interpolants);
        let r = self.query(&format!("(get-interpolant {name} {})", term_text(&goal)));
        let out = match r {
            Err(e) => Err(SolverError::Failure(e)),
            Ok(Sexp::List(l)) if l.len() == 5 && l[0].is_symbol("define-fun") && l[1].is_symbol(&name) => {
                terms::formula(&l[4], &self.table).map_err(|e| SolverError::Unsupported(format!("interpolant: {e}")))
            }
            Ok(other) => Err(SolverError::Failure(format!("no interpolant: {}", error_text(&other)))),
        };
        self.pop();
        let answer = if out.is_ok() { SatResult::Unsat } else { SatResult::Unknown(String::new()) };
        self.stats.record(started, &answer);
        out
    }
}

/// How long a solver may take to start and accept its options.
fn startup_deadline() -> Option<Instant> {
    Instant::now().checked_add(Duration::from_secs(10))
}

fn fail_text(e: ReadFail) -> String {
    match e {
        ReadFail::Timeout => "no answer in time".into(),
        ReadFail::Dead(m) => m,
    }
}

/// The message of `(error "..")`, or the response as text.
fn error_text(r: &Sexp) -> String {
    match r.list() {
        Some([h, Sexp::Str(m)]) if h.is_symbol("error") => m.trim().to_string(),
        _ => r.to_string(),
    }
}

fn has_uninterpreted(s: &Sort) -> bool {
    match s {
        Sort::Uninterpreted(_) => true,
        Sort::Array(i, e) => has_uninterpreted(i) || has_uninterpreted(e),
        _ => false,
    }
}

impl Solver for SmtLibSolver {
    fn push(&mut self) {
        self.last = None;
        let d = self.depth();
        self.send("(push 1)", d, true, "push");
        self.frames.push(Vec::new());
    }

    fn pop(&mut self) {
        if self.frames.len() == 1 {
            return;
        }
        self.last = None;
        self.frames.pop();
        let d = self.depth();
        self.table.pop_to(d);
        self.poisoned.retain(|(p, _)| *p <= d);
        self.send("(pop 1)", d, true, "pop");
    }

    /// Pops every scope; assertions at the outermost level cannot be popped, so with any
    /// there the process is stopped and starts afresh at the next command.
    fn reset(&mut self) {
        while self.frames.len() > 1 {
            self.pop();
        }
        if !self.frames[0].is_empty() {
            self.kill("reset");
            self.frames[0].clear();
            self.table = Table::default();
            self.poisoned.clear();
            self.last = None;
        }
    }

    fn assert(&mut self, t: &Term) {
        self.add(None, t);
    }

    fn assert_named(&mut self, name: &str, t: &Term) {
        self.add(Some(name), t);
    }

    fn check(&mut self) -> SatResult {
        let started = Instant::now();
        let r = match self.query("(check-sat)") {
            Ok(r) if r.is_symbol("sat") => SatResult::Sat,
            Ok(r) if r.is_symbol("unsat") => SatResult::Unsat,
            Ok(r) if r.is_symbol("unknown") => SatResult::Unknown(format!("`{}` answered unknown", self.command())),
            Ok(r) => SatResult::Unknown(format!("`{}`: {}", self.command(), error_text(&r))),
            Err(e) => SatResult::Unknown(format!("`{}`: {e}", self.command())),
        };
        self.stats.record(started, &r);
        self.last = Some(r.clone());
        r
    }

    /// Values the solver prints exactly (see [`terms::value`]). Terms with uninterpreted
    /// sorts or undeclared symbols (they occur in no assertion) and array values the solver
    /// prints abstractly are left out; a Bool, Int or Real value that cannot be read makes
    /// the whole model unavailable.
    fn model(&mut self, terms: &[Term]) -> Result<Model, SolverError> {
        if self.last != Some(SatResult::Sat) {
            return Err(SolverError::Failure("no model: the last check was not sat".into()));
        }
        let asked: Vec<&Term> = terms.iter().filter(|t| !has_uninterpreted(&t.sort) && self.table.covers(t)).collect();
        let mut out = Model::default();
        if asked.is_empty() {
            return Ok(out);
        }
        let texts: Vec<String> = asked.iter().map(|t| term_text(t)).collect();
        let r = self.query(&format!("(get-value ({}))", texts.join(" "))).map_err(SolverError::Failure)?;
        let pairs =
            r.list().filter(|l| l.len() == asked.len()).ok_or_else(|| SolverError::Failure(format!("no model: {}", error_text(&r))))?;
        for (t, pair) in asked.iter().zip(pairs) {
            let v = match pair.list() {
                Some([_, v]) => terms::value(v, &t.sort),
                _ => Err(format!("malformed get-value answer {pair}")),
            };
            match v {
                Ok(v) => {
                    out.values.insert((*t).clone(), v);
                }
                Err(e) if matches!(t.sort, Sort::Array(..)) => tracing::debug!("smtlib: no value for {t}: {e}"),
                Err(e) => return Err(SolverError::Unsupported(format!("model value of {t}: {e}"))),
            }
        }
        Ok(out)
    }

    fn unsat_core(&mut self) -> Result<Vec<String>, SolverError> {
        if self.last != Some(SatResult::Unsat) {
            return Err(SolverError::Failure("no unsat core: the last check was not unsat".into()));
        }
        let r = self.query("(get-unsat-core)").map_err(SolverError::Failure)?;
        let items = r.list().ok_or_else(|| SolverError::Failure(format!("no unsat core: {}", error_text(&r))))?;
        let mut names = Vec::new();
        for i in items {
            let n =
                i.symbol().and_then(assertion_name).ok_or_else(|| SolverError::Failure(format!("unknown name {i} in the unsat core")))?;
            if !names.contains(&n) {
                names.push(n);
            }
        }
        Ok(names)
    }

    fn set_timeout_ms(&mut self, ms: u64) {
        self.timeout_ms = ms;
    }

    fn stats(&self) -> SolverStats {
        self.stats
    }
}
