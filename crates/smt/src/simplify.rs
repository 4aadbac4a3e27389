//! Simplification and one-shot satisfiability/validity checks through Z3.
//!
//! These use a Z3 context shared by the calling thread (each thread has its own) and never
//! fail: on any Z3 or translation problem `simplify` returns its input and the checks `None`.

use crate::build;
use crate::solver::SatResult;
use crate::sort::Sort;
use crate::term::Term;
use crate::z3backend::with_thread_ctx;

/// Z3's `simplify` rewriter on `t`, translated back; `t` itself on any failure.
pub fn simplify(t: &Term) -> Term {
    match with_thread_ctx(|cx| cx.simplify_term(t)) {
        Ok(r) => r,
        Err(e) => {
            tracing::trace!("simplify failed: {e}");
            t.clone()
        }
    }
}

/// [`simplify`] followed, for formulas, by Z3's `ctx-solver-simplify` (bounded by `timeout_ms`;
/// 0: no time for it, since a tactic with no limit could not be stopped).
pub fn simplify_strong(t: &Term, timeout_ms: u64) -> Term {
    let s = simplify(t);
    if s.sort != Sort::Bool || s.is_literal() || timeout_ms == 0 {
        return s;
    }
    match with_thread_ctx(|cx| cx.apply_tactic(&s, "ctx-solver-simplify", timeout_ms)) {
        Ok(r) => r,
        Err(e) => {
            tracing::trace!("ctx-solver-simplify failed: {e}");
            s
        }
    }
}

/// Whether the formula `t` is satisfiable (`None`: unknown, timeout, or not translatable).
pub fn is_sat(t: &Term, timeout_ms: u64) -> Option<bool> {
    if t.is_true() {
        return Some(true);
    }
    if t.is_false() {
        return Some(false);
    }
    match with_thread_ctx(|cx| cx.check_sat(t, timeout_ms)) {
        Ok(SatResult::Sat) => Some(true),
        Ok(SatResult::Unsat) => Some(false),
        _ => None,
    }
}

/// Whether the formula `t` is valid (`None`: unknown, timeout, or not translatable).
pub fn is_valid(t: &Term, timeout_ms: u64) -> Option<bool> {
    if t.sort != Sort::Bool {
        return None;
    }
    is_sat(&build::not(t), timeout_ms).map(|sat| !sat)
}

/// Whether `a` and `b` are equivalent formulas (`None`: unknown).
pub fn is_equiv(a: &Term, b: &Term, timeout_ms: u64) -> Option<bool> {
    if a == b {
        return Some(true);
    }
    if a.sort != Sort::Bool || b.sort != Sort::Bool {
        return None;
    }
    is_valid(&build::eq(a, b), timeout_ms)
}

#[cfg(test)]
#[allow(clippy::cloned_ref_to_slice_refs)]
mod tests {
    use super::*;
    use crate::build::*;
    use crate::term::{Kind, Op};

    #[test]
    fn simplify_and_checks() {
        let x = Term::var("x", Sort::Int);
        let t = and(&[gt(&sub(&add(&[x.clone(), int(1)]), &int(1)), &int(2)), le(&int(0), &int(1))]);
        let s = simplify(&t);
        assert_eq!(is_equiv(&s, &t, 1000), Some(true));
        assert!(s.dag_size() <= t.dag_size(), "{s}");
        assert_eq!(is_valid(&ge(&x, &x), 1000), Some(true));
        assert_eq!(is_valid(&gt(&x, &int(0)), 1000), Some(false));
        assert_eq!(is_sat(&and(&[gt(&x, &int(0)), lt(&x, &int(0))]), 1000), Some(false));
        assert_eq!(is_sat(&gt(&x, &int(0)), 1000), Some(true));
        let strong = simplify_strong(&and(&[gt(&x, &int(0)), gt(&x, &int(1)), or(&[gt(&x, &int(0)), lt(&x, &int(-5))])]), 1000);
        assert_eq!(is_equiv(&strong, &gt(&x, &int(1)), 1000), Some(true), "{strong}");
    }

    #[test]
    fn failures_fall_back() {
        let x = Term::var("x", Sort::Int);
        let bad = Term::mk(Kind::App(Op::Add), vec![x.clone(), tt()], Sort::Int);
        let t = eq(&bad, &int(1));
        assert_eq!(simplify(&t), t);
        assert_eq!(is_sat(&t, 100), None);
        assert_eq!(is_valid(&x, 100), None);
    }
}
