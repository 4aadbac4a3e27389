//! Horn solving: constrained Horn clauses with Z3's Spacer engine.

use super::context::Z3Ctx;
use super::Res;
use crate::solver::{SatResult, SolverError};
use crate::term::Term;
use crate::z3ffi as ffi;

impl Z3Ctx {
    /// Solves constrained Horn clauses with Z3's Horn engine (Spacer). `Ok(Some(vs))`: they are
    /// satisfiable and `vs[i]` is the model's interpretation of `queries[i]` (an application
    /// of a clause predicate to variables, so a formula over those variables); `Ok(None)`: they
    /// are not (the error is reachable).
    fn solve_horn(&mut self, clauses: &[Term], queries: &[Term], timeout_ms: u64) -> Res<Option<Vec<Term>>> {
        let c = self.c();
        let logic = self.symbol("HORN")?;
        // SAFETY: live context and symbol.
        let s = self.own(unsafe { ffi::Z3_mk_solver_for_logic(c, logic) }, "Horn solver")?;
        // Spacer always: with only finite sorts (bit-vectors) Z3 would pick its Datalog
        // engine, which enumerates tables of 2^32 rows and writes warnings to stdout
        let (key, engine) = (self.symbol("engine")?, self.symbol("spacer")?);
        // SAFETY: live context.
        let params = self.own(unsafe { ffi::Z3_mk_params(c) }, "parameters")?;
        // SAFETY: live parameter set, symbols and solver.
        unsafe {
            ffi::Z3_params_set_symbol(c, params.p, key, engine);
            ffi::Z3_solver_set_params(c, s.p, params.p);
        }
        self.check_ok("Horn engine")?;
        for clause in clauses {
            let a = self.encode(clause)?;
            // SAFETY: live solver and AST.
            unsafe { ffi::Z3_solver_assert(c, s.p, a.p) };
            self.check_ok("assert")?;
        }
        match self.solver_check(&s, timeout_ms) {
            SatResult::Sat => {}
            SatResult::Unsat => return Ok(None),
            SatResult::Unknown(reason) => return Err(SolverError::Failure(format!("the Horn solver: {reason}"))),
        }
        // SAFETY: live solver after a sat check.
        let model = self.own(unsafe { ffi::Z3_solver_get_model(c, s.p) }, "model")?;
        let mut out = Vec::with_capacity(queries.len());
        for q in queries {
            let a = self.encode(q)?;
            let mut v: Option<ffi::Z3_ast> = None;
            // SAFETY: live model and AST; `v` is an out-parameter (see `Solver::model`). Without
            // model completion the query's variables stay symbolic.
            let ok = unsafe { ffi::Z3_model_eval(c, model.p, a.p, false, (&raw mut v).cast::<ffi::Z3_ast>()) };
            if !ok {
                return Err(SolverError::Failure("no interpretation of a Horn predicate".into()));
            }
            let v = self.ast(v, "interpretation")?;
            out.push(self.decode(&v)?);
        }
        Ok(Some(out))
    }
}

/// Solves constrained Horn clauses (universally quantified implications over uninterpreted
/// predicates) with Z3's Horn engine in a fresh context, within `timeout_ms` (0: no limit).
/// `Ok(Some(vs))`: satisfiable, `vs[i]` the interpretation of the predicate application
/// `queries[i]`; `Ok(None)`: unsatisfiable; an error when Z3 gave up or failed.
pub fn solve_horn(clauses: &[Term], queries: &[Term], timeout_ms: u64) -> Result<Option<Vec<Term>>, SolverError> {
    Z3Ctx::new()?.solve_horn(clauses, queries, timeout_ms)
}
