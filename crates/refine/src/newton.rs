//! The Newton family of assertion sources with strongest post: `sp`, `it-sp`, `sp-lv`, `it-sp-lv`.
//!
//! `IT` replaces the steps outside an unsat core by their abstraction (Dietsch et al., "Craig vs.
//! Newton", Def. 4.1: `assume φ` becomes `assume true`, `x := e` and `havoc x` become `havoc x`);
//! `SP` applies the strongest post along the (abstracted) trace from `true`; `LV` projects each
//! assertion existentially onto the variables future-live at its position (Def. 5.1).

use crate::error::RefineError;
use crate::transformer::{project_away, sp};
use ir::TransFormula;
use smt::build::{ff, tt};
use smt::simplify::simplify;
use smt::{SatResult, Solver, Term};
use std::collections::BTreeSet;

/// Which optional steps of the Newton algorithm to take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NewtonOptions {
    /// Abstract the trace to its infeasible core (`IT`).
    pub it: bool,
    /// Project each assertion onto the future-live variables (`LV`).
    pub lv: bool,
}

/// An assertion sequence computed by Newton, with the number of assertions left quantified.
#[derive(Clone, Debug)]
pub struct NewtonSequence {
    /// `I_0 = true, .., I_n = false`.
    pub preds: Vec<Term>,
    /// How many assertions still contain a quantifier.
    pub quantified: usize,
}

/// The `IT` abstraction of one step: `assume true` if it assigns nothing, else a havoc of
/// the variables it assigns.
pub fn abstract_step(tf: &TransFormula) -> TransFormula {
    let assigned: Vec<Term> = tf.assigned_vars().into_iter().collect();
    if assigned.is_empty() {
        TransFormula::skip()
    } else {
        TransFormula::havoc(&assigned)
    }
}

/// The infeasible core of `trace` for the unsat core `core` (an empty core keeps every step).
pub fn infeasible_core(trace: &[TransFormula], core: &BTreeSet<usize>) -> Vec<TransFormula> {
    if core.is_empty() {
        return trace.to_vec();
    }
    trace.iter().enumerate().map(|(i, tf)| if core.contains(&i) { tf.clone() } else { abstract_step(tf) }).collect()
}

/// `fl[i]`: the variables future-live at position `i` (read by a later step before any step in
/// between writes or havocs them); `n + 1` sets.
pub fn future_live(trace: &[TransFormula]) -> Vec<BTreeSet<Term>> {
    let mut fl = vec![BTreeSet::new(); trace.len() + 1];
    for (i, tf) in trace.iter().enumerate().rev() {
        let assigned = tf.assigned_vars();
        let mut live: BTreeSet<Term> = fl[i + 1].iter().filter(|x| !assigned.contains(*x)).cloned().collect();
        live.extend(tf.read_vars());
        fl[i] = live;
    }
    fl
}

/// Checks that a final assertion is unsatisfiable (it must be, for an infeasible trace).
pub(crate) fn ensure_false(last: &Term, solver: &mut dyn Solver, what: &str) -> Result<(), RefineError> {
    if last.is_false() {
        return Ok(());
    }
    solver.push();
    solver.assert(last);
    let r = solver.check();
    solver.pop();
    match r {
        SatResult::Unsat => Ok(()),
        SatResult::Sat => Err(RefineError::NotInfeasible(format!("{what}: final assertion {last} is satisfiable"))),
        SatResult::Unknown(why) => Err(RefineError::Unknown(format!("{what}: final assertion: {why}"))),
    }
}

/// The Newton sequence with strongest post along `trace` (abstracted by `core` if `opts.it`).
pub fn newton_sp(
    trace: &[TransFormula],
    core: &BTreeSet<usize>,
    opts: NewtonOptions,
    solver: &mut dyn Solver,
) -> Result<NewtonSequence, RefineError> {
    let abstracted;
    let steps: &[TransFormula] = if opts.it {
        abstracted = infeasible_core(trace, core);
        &abstracted
    } else {
        trace
    };
    let all_vars: BTreeSet<Term> = steps.iter().flat_map(crate::ssa::mentioned_vars).collect();
    let live = if opts.lv { Some(future_live(steps)) } else { None };
    let mut preds = Vec::with_capacity(steps.len() + 1);
    preds.push(tt());
    let mut cur = tt();
    for (i, tf) in steps.iter().enumerate() {
        let mut next = sp(&cur, tf);
        if let Some(live) = &live {
            let dead: BTreeSet<Term> = all_vars.iter().filter(|x| !live[i + 1].contains(*x)).cloned().collect();
            next = project_away(&next, &dead);
        }
        let next = simplify(&next);
        preds.push(next.clone());
        cur = next;
    }
    let name = name_of(opts);
    if let Some(last) = preds.last() {
        ensure_false(last, solver, name)?;
    }
    if let Some(last) = preds.last_mut() {
        *last = ff();
    }
    let quantified = preds.iter().filter(|p| p.has_quantifier()).count();
    Ok(NewtonSequence { preds, quantified })
}

fn name_of(opts: NewtonOptions) -> &'static str {
    match (opts.it, opts.lv) {
        (true, true) => "it-sp-lv",
        (true, false) => "it-sp",
        (false, true) => "sp-lv",
        (false, false) => "sp",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::Stmt;
    use smt::build::{add, ge, int, not};
    use smt::Sort;

    #[test]
    fn future_live_of_the_lv_example() {
        let k = Term::var("k", Sort::Int);
        let y = Term::var("y", Sort::Int);
        let trace: Vec<TransFormula> = [
            Stmt::Assign(vec![(k.clone(), int(0))]),
            Stmt::Assume(ge(&y, &k)),
            Stmt::Assign(vec![(k.clone(), y.clone())]),
            Stmt::Assign(vec![(y.clone(), add(&[y.clone(), k.clone()]))]),
            Stmt::Assume(not(&ge(&y, &int(0)))),
        ]
        .iter()
        .map(|s| s.trans_formula())
        .collect();
        let fl = future_live(&trace);
        let set = |v: &[&Term]| v.iter().map(|t| (*t).clone()).collect::<BTreeSet<Term>>();
        assert_eq!(fl, vec![set(&[&y]), set(&[&y, &k]), set(&[&y]), set(&[&y, &k]), set(&[&y]), set(&[])]);
    }

    #[test]
    fn abstraction_of_steps() {
        let x = Term::var("x", Sort::Int);
        let a = abstract_step(&Stmt::Assume(ge(&x, &int(0))).trans_formula());
        assert!(a.formula.is_true() && a.assigned_vars().is_empty());
        let h = abstract_step(&Stmt::Assign(vec![(x.clone(), add(&[x.clone(), int(1)]))]).trans_formula());
        assert!(h.formula.is_true());
        assert_eq!(h.assigned_vars(), [x.clone()].into_iter().collect());
        assert!(h.read_vars().is_empty());
        let core: BTreeSet<usize> = [1].into_iter().collect();
        let t = vec![Stmt::Assume(ge(&x, &int(0))).trans_formula(), Stmt::Havoc(vec![x.clone()]).trans_formula()];
        let ic = infeasible_core(&t, &core);
        assert!(ic[0].formula.is_true());
        assert_eq!(ic[1], t[1]);
    }
}
