//! One-shot operations on a context: Z3's simplifier, tactics (such as quantifier elimination)
//! and satisfiability checks of single formulas.

use super::context::{cstring, Z3Ctx};
use super::watchdog::with_deadline;
use super::{unsupported, Res};
use crate::build;
use crate::solver::{SatResult, SolverError};
use crate::sort::Sort;
use crate::term::Term;
use crate::z3ffi as ffi;

impl Z3Ctx {
    /// Z3's `simplify` on a term.
    pub(crate) fn simplify_term(&mut self, t: &Term) -> Res<Term> {
        let a = self.encode(t)?;
        // SAFETY: live AST.
        let s = self.ast(unsafe { ffi::Z3_simplify(self.c(), a.p) }, "simplify")?;
        self.decode(&s)
    }

    /// Applies the named tactic to the formula `t` (with a timeout in ms, 0 for none) and
    /// returns the disjunction over subgoals of their conjunctions. Fails unless every subgoal
    /// is precise (equivalence-preserving).
    pub(crate) fn apply_tactic(&mut self, t: &Term, tactic: &str, timeout_ms: u64) -> Res<Term> {
        if t.sort != Sort::Bool {
            return Err(unsupported("tactic on a non-Boolean term"));
        }
        let f = self.encode(t)?;
        let c = self.c();
        // SAFETY: all objects are live and of this context; results are checked.
        unsafe {
            let goal = self.own(ffi::Z3_mk_goal(c, false, false, false), "goal")?;
            ffi::Z3_goal_assert(c, goal.p, f.p);
            self.check_ok("goal assert")?;
            let name = cstring(tactic);
            let tac = self.own(ffi::Z3_mk_tactic(c, name.as_ptr()), "tactic")?;
            // Not interrupted when the thread's work is canceled, only at its own deadline:
            // Z3 4.8.12's `qe` crashes when interrupted (seen in portfolio lanes canceled by
            // another lane's answer, which the crash then turned into UNKNOWN).
            let (res, interrupted) = with_deadline(c, timeout_ms, false, || ffi::Z3_tactic_apply(c, tac.p, goal.p));
            // the result of an interrupted call is not touched (its error was cleared with the
            // interrupt: it may be no result at all); the context keeps it until its next one
            if interrupted {
                return Err(SolverError::Failure(format!("{tactic}: canceled")));
            }
            let res = self.own(res, tactic)?;
            let n = ffi::Z3_apply_result_get_num_subgoals(c, res.p);
            let mut disjuncts = Vec::new();
            for i in 0..n {
                let g = self.own(ffi::Z3_apply_result_get_subgoal(c, res.p, i), "subgoal")?;
                if ffi::Z3_goal_precision(c, g.p) != ffi::GoalPrec::Precise {
                    return Err(SolverError::Failure(format!("{tactic}: imprecise subgoal")));
                }
                let mut conj = Vec::new();
                for j in 0..ffi::Z3_goal_size(c, g.p) {
                    let fj = self.ast(ffi::Z3_goal_formula(c, g.p, j), "goal formula")?;
                    conj.push(self.decode(&fj)?);
                }
                disjuncts.push(build::and(&conj));
            }
            Ok(build::or(&disjuncts))
        }
    }

    /// Checks satisfiability of `t`: in a scope of this context's own solver, made once
    /// (making a Z3 solver reads Z3's parameters through process-wide tables: milliseconds of
    /// CPU per solver, under a lock the threads of a portfolio share). A quantified formula gets
    /// a fresh solver: only a solver used without scopes runs the tactics that eliminate
    /// quantifiers.
    pub(crate) fn check_sat(&mut self, t: &Term, timeout_ms: u64) -> Res<SatResult> {
        if t.sort != Sort::Bool {
            return Err(unsupported("satisfiability of a non-Boolean term"));
        }
        let f = self.encode(t)?;
        let c = self.c();
        let scoped = !t.has_quantifier();
        let kept = if scoped { self.checker.take() } else { None };
        let s = match kept {
            Some(s) => s,
            // SAFETY: live context.
            None => self.own(unsafe { ffi::Z3_mk_solver(c) }, "solver")?,
        };
        // SAFETY: all objects are live and of this context.
        let r = unsafe {
            if scoped {
                ffi::Z3_solver_push(c, s.p);
            }
            ffi::Z3_solver_assert(c, s.p, f.p);
            self.check_ok("assert")?;
            let r = self.solver_check(&s, timeout_ms);
            if scoped {
                ffi::Z3_solver_pop(c, s.p, 1);
            }
            r
        };
        // a solver that reported an error is not used again
        if scoped && self.check_ok("pop").is_ok() {
            self.checker = Some(s);
        }
        Ok(r)
    }
}
