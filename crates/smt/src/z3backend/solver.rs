//! [`Z3Solver`]: an incremental solver behind the [`Solver`] trait, and solver checks under a
//! deadline.

use super::context::{read_str, Owner, Z3Ctx};
use super::ownership::Owned;
use super::thread_ctx::thread_ctx;
use super::watchdog::with_deadline;
use super::{unsupported, Res};
use crate::solver::{Model, SatResult, Solver, SolverError};
use crate::sort::Sort;
use crate::term::Term;
use crate::z3ffi as ffi;
use std::cell::RefCell;
use std::collections::HashMap;
use std::os::raw::c_uint;
use std::rc::Rc;
use std::time::Instant;

/// A solver method called while its thread's context is in use (by a caller up the stack).
fn busy() -> SolverError {
    SolverError::Failure("the thread's Z3 context is in use".into())
}

impl Z3Ctx {
    /// Checks the solver `s`, interrupting it after `timeout_ms` (0: no limit).
    pub(super) fn solver_check(&self, s: &Owned<ffi::Z3_solver>, timeout_ms: u64) -> SatResult {
        let c = self.c();
        // SAFETY: live solver.
        let (r, interrupted) = with_deadline(c, timeout_ms, true, || unsafe { ffi::Z3_solver_check(c, s.p) });
        if interrupted {
            return SatResult::Unknown(INTERRUPTED.into());
        }
        if let Some(e) = self.error() {
            return SatResult::Unknown(e);
        }
        match r {
            ffi::Z3_L_TRUE => SatResult::Sat,
            ffi::Z3_L_FALSE => SatResult::Unsat,
            // SAFETY: live solver.
            _ => SatResult::Unknown(read_str(unsafe { ffi::Z3_solver_get_reason_unknown(c, s.p) }).unwrap_or_else(|| "unknown".into())),
        }
    }
}

/// Why an interrupted check answers unknown (whatever Z3 said: see
/// [`super::watchdog::with_deadline`]); Z3's own reason for an interrupted check.
const INTERRUPTED: &str = "canceled";

/// Whether a sort mentions an uninterpreted sort (whose values we cannot name).
fn has_uninterpreted(s: &Sort) -> bool {
    match s {
        Sort::Uninterpreted(_) => true,
        Sort::Array(i, e) => has_uninterpreted(i) || has_uninterpreted(e),
        _ => false,
    }
}

/// The parts of a solver that exist once Z3 gave us a context.
struct Inner {
    /// The thread's context, shared with its other solvers and one-shot queries.
    cx: Rc<RefCell<Z3Ctx>>,
    solver: Owned<ffi::Z3_solver>,
    /// AST id of a tracking constant -> (the constant, the user's name).
    trackers: HashMap<c_uint, (Owned<ffi::Z3_ast>, String)>,
}

/// An incremental Z3 solver in its thread's Z3 context (so it stays on that thread).
pub struct Z3Solver {
    inner: Result<Inner, String>,
    timeout_ms: u64,
    scopes: usize,
    /// Assertions that could not be translated, with the scope depth they were made at.
    poisoned: Vec<(usize, String)>,
    last: Option<SatResult>,
    stats: crate::solver::SolverStats,
}

impl Default for Z3Solver {
    fn default() -> Self {
        Z3Solver::new()
    }
}

impl Z3Solver {
    /// A new solver in this thread's Z3 context, without a timeout.
    pub fn new() -> Z3Solver {
        let inner = thread_ctx().and_then(|cx| {
            let s = {
                let c = cx.try_borrow().map_err(|_| busy())?;
                // SAFETY: live context.
                c.own(unsafe { ffi::Z3_mk_solver(c.c()) }, "solver")?
            };
            Ok(Inner { cx, solver: s, trackers: HashMap::new() })
        });
        Z3Solver {
            inner: inner.map_err(|e| e.to_string()),
            timeout_ms: 0,
            scopes: 0,
            poisoned: Vec::new(),
            last: None,
            stats: Default::default(),
        }
    }

    fn inner(&mut self) -> Result<&mut Inner, SolverError> {
        self.inner.as_mut().map_err(|e| SolverError::Failure(e.clone()))
    }

    fn add(&mut self, name: Option<&str>, t: &Term) {
        self.last = None;
        let r = (|| -> Res<()> {
            if t.sort != Sort::Bool {
                return Err(unsupported(format!("asserting non-Boolean term {t}")));
            }
            let inner = self.inner()?;
            let mut cx = inner.cx.try_borrow_mut().map_err(|_| busy())?;
            let a = cx.encode(t)?;
            let c = cx.c();
            match name {
                None => {
                    // SAFETY: live solver and AST.
                    unsafe { ffi::Z3_solver_assert(c, inner.solver.p, a.p) };
                }
                Some(n) => {
                    let tn = cx.unique_name(&format!("track!{n}"), Owner::Internal);
                    let sort = cx.sort(&Sort::Bool)?;
                    let sym = cx.symbol(&tn)?;
                    // SAFETY: live sort.
                    let p = cx.ast(unsafe { ffi::Z3_mk_const(c, sym, sort.p) }, "tracker")?;
                    // SAFETY: live solver, AST and tracker.
                    unsafe { ffi::Z3_solver_assert_and_track(c, inner.solver.p, a.p, p.p) };
                    // SAFETY: live AST.
                    let id = unsafe { ffi::Z3_get_ast_id(c, p.p) };
                    inner.trackers.insert(id, (p, n.to_string()));
                }
            }
            cx.check_ok("assert")
        })();
        if let Err(e) = r {
            tracing::debug!("z3: assertion dropped: {e}");
            self.poisoned.push((self.scopes, e.to_string()));
        }
    }
}

impl Solver for Z3Solver {
    /// Drops every assertion and scope. Until the next `push`, checks run Z3's
    /// non-incremental preprocessing, which decides formulas with `mod` and `div` that its
    /// incremental core can spend seconds on: one-shot queries should reset, not pop.
    fn reset(&mut self) {
        self.last = None;
        self.scopes = 0;
        self.poisoned.clear();
        if let Ok(inner) = self.inner() {
            // SAFETY: live solver.
            unsafe { ffi::Z3_solver_reset(inner.solver.ctx(), inner.solver.p) };
            inner.trackers.clear();
        }
    }

    fn push(&mut self) {
        self.last = None;
        if let Ok(inner) = self.inner() {
            // SAFETY: live solver.
            unsafe { ffi::Z3_solver_push(inner.solver.ctx(), inner.solver.p) };
        }
        self.scopes += 1;
    }

    fn pop(&mut self) {
        self.last = None;
        if self.scopes == 0 {
            return;
        }
        if let Ok(inner) = self.inner() {
            // SAFETY: live solver with at least one scope.
            unsafe { ffi::Z3_solver_pop(inner.solver.ctx(), inner.solver.p, 1) };
        }
        self.scopes -= 1;
        let depth = self.scopes;
        self.poisoned.retain(|(d, _)| *d <= depth);
    }

    fn assert(&mut self, t: &Term) {
        self.add(None, t);
    }

    fn assert_named(&mut self, name: &str, t: &Term) {
        self.add(Some(name), t);
    }

    fn check(&mut self) -> SatResult {
        let started = Instant::now();
        let r = if let Some((_, e)) = self.poisoned.first() {
            SatResult::Unknown(format!("untranslatable assertion: {e}"))
        } else {
            let timeout = self.timeout_ms;
            match self.inner() {
                Err(e) => SatResult::Unknown(e.to_string()),
                Ok(inner) => match inner.cx.try_borrow() {
                    Ok(cx) => cx.solver_check(&inner.solver, timeout),
                    Err(_) => SatResult::Unknown(busy().to_string()),
                },
            }
        };
        self.stats.record(started, &r);
        self.last = Some(r.clone());
        r
    }

    fn model(&mut self, terms: &[Term]) -> Result<Model, SolverError> {
        if self.last != Some(SatResult::Sat) {
            return Err(SolverError::Failure("no model: the last check was not sat".into()));
        }
        let inner = self.inner()?;
        let mut cx = inner.cx.try_borrow_mut().map_err(|_| busy())?;
        let c = cx.c();
        // SAFETY: live solver after a sat check.
        let model = cx.own(unsafe { ffi::Z3_solver_get_model(c, inner.solver.p) }, "model")?;
        let mut out = Model::default();
        for t in terms {
            if has_uninterpreted(&t.sort) {
                continue;
            }
            let Ok(a) = cx.encode(t) else { continue };
            let mut v: Option<ffi::Z3_ast> = None;
            // SAFETY: live model and AST; `v` is an out-parameter (`Option<Z3_ast>` has the
            // layout of a nullable pointer, so Z3 may store null in it too).
            let ok = unsafe { ffi::Z3_model_eval(c, model.p, a.p, true, (&raw mut v).cast::<ffi::Z3_ast>()) };
            if !ok || v.is_none() {
                continue;
            }
            let Ok(v) = cx.ast(v, "model value") else { continue };
            if let Ok(val) = cx.decode_value(&v, &model) {
                out.values.insert(t.clone(), val);
            }
        }
        Ok(out)
    }

    fn unsat_core(&mut self) -> Result<Vec<String>, SolverError> {
        if self.last != Some(SatResult::Unsat) {
            return Err(SolverError::Failure("no unsat core: the last check was not unsat".into()));
        }
        let inner = self.inner()?;
        let cx = inner.cx.try_borrow().map_err(|_| busy())?;
        let c = cx.c();
        // SAFETY: live solver after an unsat check.
        let core = cx.own(unsafe { ffi::Z3_solver_get_unsat_core(c, inner.solver.p) }, "core")?;
        let mut names = Vec::new();
        // SAFETY: live vector; indices in range.
        for i in 0..unsafe { ffi::Z3_ast_vector_size(c, core.p) } {
            let a = cx.check_ptr(unsafe { ffi::Z3_ast_vector_get(c, core.p, i) }, "core element")?;
            // SAFETY: live AST.
            let id = unsafe { ffi::Z3_get_ast_id(c, a) };
            if let Some((_, n)) = inner.trackers.get(&id) {
                if !names.contains(n) {
                    names.push(n.clone());
                }
            }
        }
        Ok(names)
    }

    fn set_timeout_ms(&mut self, ms: u64) {
        self.timeout_ms = ms;
    }

    fn stats(&self) -> crate::solver::SolverStats {
        self.stats
    }
}
