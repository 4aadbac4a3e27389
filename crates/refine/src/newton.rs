//! The Newton family of assertion sources: strongest post (`sp`, `it-sp`, `sp-lv`, `it-sp-lv`)
//! and weakest precondition (`wp`, `it-wp`, `wp-lv`, `it-wp-lv`).
//!
//! `IT` replaces the steps outside an unsat core by their abstraction (Dietsch et al., "Craig vs.
//! Newton", Def. 4.1: `assume φ` becomes `assume true`, `x := e` and `havoc x` become `havoc x`);
//! `SP` applies the strongest post along the (abstracted) trace from `true`, `WP` the weakest
//! precondition backwards from `false`; `LV` projects each assertion onto the live variables
//! (Def. 5.1/5.2): existentially onto the future-live ones after `SP`, universally onto the
//! past-live ones after `WP`.

use crate::error::RefineError;
use crate::transformer::{sp, wp};
use ir::TransFormula;
use smt::build::{ff, not, tt};
use smt::qe::{project_exists, project_forall};
use smt::simplify::simplify;
use smt::subst::free_vars;
use smt::{SatResult, Solver, Term};
use std::collections::BTreeSet;

/// The predicate transformer a Newton variant runs along the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Transformer {
    /// Strongest post, forwards from `true`.
    Sp,
    /// Weakest precondition, backwards from `false`.
    Wp,
}

/// Which transformer and which optional steps of the Newton algorithm to take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NewtonOptions {
    pub transformer: Transformer,
    /// Abstract the trace to its infeasible core (`IT`).
    pub it: bool,
    /// Project each assertion onto the live variables (`LV`).
    pub lv: bool,
}

impl NewtonOptions {
    /// The variant's name (`it-sp-lv`, `wp`, ...), for messages.
    pub fn name(self) -> String {
        let core = match self.transformer {
            Transformer::Sp => "sp",
            Transformer::Wp => "wp",
        };
        format!("{}{core}{}", if self.it { "it-" } else { "" }, if self.lv { "-lv" } else { "" })
    }
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

/// `pl[i]`: the variables past-live at position `i` (read or written by a step up to `i` and
/// not havocked by any step after it up to `i`); `n + 1` sets, `pl[0]` empty.
pub fn past_live(trace: &[TransFormula]) -> Vec<BTreeSet<Term>> {
    let mut pl = vec![BTreeSet::new(); trace.len() + 1];
    for (i, tf) in trace.iter().enumerate() {
        let (related, havocked) = related_and_havocked(tf);
        pl[i + 1] = pl[i].union(&related).filter(|x| !havocked.contains(*x)).cloned().collect();
    }
    pl
}

/// The variables `tf` reads or writes, and those it havocs. A large block has no syntax to
/// tell, so "havocs" means assigned with an out-instance the formula leaves unconstrained: only
/// then may the value after the step differ freely, which the universal projection relies on.
fn related_and_havocked(tf: &TransFormula) -> (BTreeSet<Term>, BTreeSet<Term>) {
    let fv = free_vars(&tf.formula);
    let (written, havocked): (BTreeSet<Term>, BTreeSet<Term>) = tf.assigned_vars().into_iter().partition(|x| fv.contains(&tf.out_vars[x]));
    let mut related = tf.read_vars();
    related.extend(written);
    (related, havocked)
}

/// Checks that an end assertion of a sequence (the last one, or the negated first one) is
/// unsatisfiable, as it must be for an infeasible trace.
pub(crate) fn ensure_unsat(t: &Term, solver: &mut dyn Solver, what: &str) -> Result<(), RefineError> {
    if t.is_false() {
        return Ok(());
    }
    solver.push();
    solver.assert(t);
    let r = solver.check();
    solver.pop();
    match r {
        SatResult::Unsat => Ok(()),
        SatResult::Sat => Err(RefineError::NotInfeasible(format!("{what} {t} is satisfiable"))),
        SatResult::Unknown(why) => Err(RefineError::Unknown(format!("{what}: {why}"))),
    }
}

/// The Newton sequence for `trace` (abstracted by `core` if `opts.it`).
pub fn newton(
    trace: &[TransFormula],
    core: &BTreeSet<usize>,
    opts: NewtonOptions,
    solver: &mut dyn Solver,
) -> Result<NewtonSequence, RefineError> {
    newton_with(trace, core, opts, solver, false)
}

/// The size (distinct term nodes) at which a bounded weakest-precondition sequence gives up.
pub const MAX_WP_NODES: usize = 400;

/// The time after which a bounded weakest-precondition sequence gives up (checked between steps).
pub const WP_BUDGET_MS: u128 = 1_000;

/// [`newton`]; with `bounded`, a weakest-precondition sequence gives up (not applicable) where
/// elimination leaves a quantifier that neither the step nor the assertion after it has, where
/// an assertion grows past [`MAX_WP_NODES`], or after [`WP_BUDGET_MS`]: every earlier
/// precondition would carry the quantifier or the size, and each elimination then costs its
/// full timeout.
pub fn newton_with(
    trace: &[TransFormula],
    core: &BTreeSet<usize>,
    opts: NewtonOptions,
    solver: &mut dyn Solver,
    bounded: bool,
) -> Result<NewtonSequence, RefineError> {
    let abstracted;
    let steps: &[TransFormula] = if opts.it {
        abstracted = infeasible_core(trace, core);
        &abstracted
    } else {
        trace
    };
    let mut preds = match opts.transformer {
        Transformer::Sp => sp_sequence(steps, opts.lv),
        Transformer::Wp => wp_sequence(steps, opts.lv, bounded)?,
    };
    // The ends are `true` and `false` only up to equivalence (and only if the trace is
    // infeasible, and the solver can tell): check that, then make them literal.
    let n = steps.len();
    let name = opts.name();
    ensure_unsat(&not(&preds[0]), solver, &format!("{name}: negated first assertion"))?;
    ensure_unsat(&preds[n], solver, &format!("{name}: final assertion"))?;
    preds[0] = tt();
    preds[n] = ff();
    let quantified = preds.iter().filter(|p| p.has_quantifier()).count();
    Ok(NewtonSequence { preds, quantified })
}

/// Strongest posts from `true`; with `lv`, each projected existentially onto the future-live
/// variables (the next post starts from the projection, which keeps the sequence inductive).
fn sp_sequence(steps: &[TransFormula], lv: bool) -> Vec<Term> {
    let live = lv.then(|| future_live(steps));
    let mut preds = Vec::with_capacity(steps.len() + 1);
    preds.push(tt());
    for (i, tf) in steps.iter().enumerate() {
        let mut post = sp(&preds[i], tf);
        if let Some(live) = &live {
            post = project_exists(&post, &live[i + 1]);
        }
        preds.push(simplify(&post));
    }
    preds
}

/// Weakest preconditions backwards from `false`; with `lv`, each projected universally onto
/// the past-live variables. The projection only strengthens, so `{I_i} st {I_{i+1}}` holds by
/// construction; that `I_0` stays valid is what liveness buys (and [`newton`] checks).
fn wp_sequence(steps: &[TransFormula], lv: bool, bounded: bool) -> Result<Vec<Term>, RefineError> {
    let live = lv.then(|| past_live(steps));
    let mut preds = vec![ff(); steps.len() + 1];
    let started = std::time::Instant::now();
    for (i, tf) in steps.iter().enumerate().rev() {
        if bounded && started.elapsed().as_millis() > WP_BUDGET_MS {
            return Err(RefineError::NotApplicable(format!("weakest preconditions took over {WP_BUDGET_MS} ms")));
        }
        let mut pre = wp(tf, &preds[i + 1]);
        if let Some(live) = &live {
            pre = project_forall(&pre, &live[i]);
        }
        let pre = simplify(&pre);
        if bounded && pre.has_quantifier() && !preds[i + 1].has_quantifier() && !tf.formula.has_quantifier() {
            return Err(RefineError::NotApplicable(format!("the weakest precondition of step {i} keeps a quantifier")));
        }
        if bounded && pre.dag_size() > MAX_WP_NODES {
            return Err(RefineError::NotApplicable(format!("the weakest precondition of step {i} has over {MAX_WP_NODES} nodes")));
        }
        preds[i] = pre;
    }
    Ok(preds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::Stmt;
    use smt::build::{add, ge, int, not};
    use smt::Sort;

    fn vars() -> (Term, Term) {
        (Term::var("k", Sort::Int), Term::var("y", Sort::Int))
    }

    fn set(v: &[&Term]) -> BTreeSet<Term> {
        v.iter().map(|t| (*t).clone()).collect()
    }

    fn trace_of(stmts: &[Stmt]) -> Vec<TransFormula> {
        stmts.iter().map(|s| s.trans_formula()).collect()
    }

    /// The paper's live-variable example: `k := 0; assume y >= k; k := y; y := y + k; assume y < 0`.
    fn lv_example() -> Vec<TransFormula> {
        let (k, y) = vars();
        trace_of(&[
            Stmt::Assign(vec![(k.clone(), int(0))]),
            Stmt::Assume(ge(&y, &k)),
            Stmt::Assign(vec![(k.clone(), y.clone())]),
            Stmt::Assign(vec![(y.clone(), add(&[y.clone(), k.clone()]))]),
            Stmt::Assume(not(&ge(&y, &int(0)))),
        ])
    }

    #[test]
    fn future_live_of_the_lv_example() {
        let (k, y) = vars();
        let fl = future_live(&lv_example());
        assert_eq!(fl, vec![set(&[&y]), set(&[&y, &k]), set(&[&y]), set(&[&y, &k]), set(&[&y]), set(&[])]);
    }

    #[test]
    fn past_live_of_the_lv_example() {
        let (k, y) = vars();
        let pl = past_live(&lv_example());
        // y is untouched before `assume y >= k`: its value is still the arbitrary initial one.
        assert_eq!(pl, vec![set(&[]), set(&[&k]), set(&[&k, &y]), set(&[&k, &y]), set(&[&k, &y]), set(&[&k, &y])]);
    }

    /// A havoc ends past liveness, also inside a large block; a constrained write does not.
    #[test]
    fn past_live_ends_at_a_havoc() {
        let (k, y) = vars();
        let trace = trace_of(&[
            Stmt::Assume(ge(&y, &k)),
            Stmt::Havoc(vec![k.clone()]),
            Stmt::Seq(vec![Stmt::Assume(ge(&k, &int(0))), Stmt::Havoc(vec![y.clone()])]),
            Stmt::Choice(vec![Stmt::Assign(vec![(y.clone(), int(1))]), Stmt::Assign(vec![(y.clone(), int(2))])]),
        ]);
        let pl = past_live(&trace);
        assert_eq!(pl, vec![set(&[]), set(&[&k, &y]), set(&[&y]), set(&[&k]), set(&[&k, &y])]);
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
