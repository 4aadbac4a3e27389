//! Nested traces: traces of programs with procedures, where a return is matched with its call.
//!
//! A nested trace is an ordinary sequence of transition formulas (a call letter binds the
//! callee's parameters and havocs its frame; a return letter assigns the caller's result
//! variables from the callee's results) together with its [`Nesting`]: which steps are calls
//! and returns, and which variables are global. Its SSA form (`ssa::ssa_scoped`) restores the
//! caller's frame after a return. Its assertion sequences are *nested* sequences: for a return
//! at `i` matching the call at `c`, `{I_i ∧ I_c} return {I_{i+1}}` with `I_c` over the caller's
//! frame ([`ReturnLetter::formula`]); all other steps as usual.

use crate::error::RefineError;
use crate::newton::{abstract_step, ensure_unsat, NewtonOptions, NewtonSequence, Transformer};
use crate::transformer::{sp, wp};
use crate::{hoare, Validity};
use ir::{ReturnLetter, TransFormula};
use smt::build::{and, ff, not, tt};
use smt::qe::project_exists;
use smt::simplify::simplify;
use smt::{Solver, Term};
use std::collections::{BTreeMap, BTreeSet};

/// What a step of a nested trace is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepKind {
    Internal,
    Call,
    /// A return and the index of its matching call.
    Return {
        call: usize,
        letter: ReturnLetter,
    },
}

/// The nesting of a trace.
#[derive(Clone, Debug)]
pub struct Nesting {
    /// One per step.
    pub kinds: Vec<StepKind>,
    /// Variables that flow through calls and returns.
    pub globals: BTreeSet<Term>,
    /// Every variable that is not global (each comes back from the call site on a return).
    pub locals: BTreeSet<Term>,
}

impl Nesting {
    /// The matching call of the step at `i` if it is a return.
    pub fn matching_call(&self, i: usize) -> Option<usize> {
        match self.kinds.get(i) {
            Some(StepKind::Return { call, .. }) => Some(*call),
            _ => None,
        }
    }

    /// The step `i` as a transition formula from the assertion before it (`pre_call`: the
    /// assertion at a return's matching call, which the return's formula constrains).
    pub fn step_formula(&self, trace: &[TransFormula], i: usize, pre_call: &dyn Fn(usize) -> Term) -> TransFormula {
        match &self.kinds[i] {
            StepKind::Return { call, letter } => letter.formula(&pre_call(*call), &self.locals),
            _ => trace[i].clone(),
        }
    }
}

/// `fl[i]`: the variables live at position `i` of a nested trace. Inside a callee, a caller's
/// variable is not live (the return restores it from the call site): it is live at the call.
/// A return's links keep their callee side live at the exit and their call-site side at the call.
pub fn future_live_nested(trace: &[TransFormula], nesting: &Nesting) -> Vec<BTreeSet<Term>> {
    let n = trace.len();
    let mut fl = vec![BTreeSet::new(); n + 1];
    let mut pending: BTreeMap<usize, BTreeSet<Term>> = BTreeMap::new();
    for i in (0..n).rev() {
        let tf = &trace[i];
        let assigned = tf.assigned_vars();
        let after = &fl[i + 1];
        let mut live: BTreeSet<Term>;
        match &nesting.kinds[i] {
            StepKind::Return { call, letter } => {
                let caller: BTreeSet<Term> =
                    after.iter().filter(|x| !nesting.globals.contains(*x) && !assigned.contains(*x)).cloned().collect();
                let waiting = pending.entry(*call).or_default();
                waiting.extend(caller);
                waiting.extend(letter.site_vars());
                live = after.iter().filter(|x| nesting.globals.contains(*x) && !assigned.contains(*x)).cloned().collect();
                live.extend(letter.exit_vars());
            }
            _ => {
                live = after.iter().filter(|x| !assigned.contains(*x)).cloned().collect();
                live.extend(tf.read_vars());
                if let Some(p) = pending.remove(&i) {
                    live.extend(p);
                }
            }
        }
        fl[i] = live;
    }
    fl
}

/// The Newton strongest-post sequence of an infeasible nested trace (`it`: internal steps
/// outside the unsat core abstracted; calls and returns stay exact; `lv`: projection onto
/// [`future_live_nested`]); or the weakest-precondition sequence ([`wp_nested`], without `lv`).
pub fn newton_nested(
    trace: &[TransFormula],
    nesting: &Nesting,
    core: &BTreeSet<usize>,
    opts: NewtonOptions,
    solver: &mut dyn Solver,
) -> Result<NewtonSequence, RefineError> {
    let steps: Vec<TransFormula> = trace
        .iter()
        .enumerate()
        .map(|(i, tf)| match nesting.kinds[i] {
            StepKind::Internal if opts.it && !core.is_empty() && !core.contains(&i) => abstract_step(tf),
            _ => tf.clone(),
        })
        .collect();
    if opts.transformer == Transformer::Wp {
        return wp_nested(&steps, nesting, &opts.name(), solver);
    }
    let live = opts.lv.then(|| future_live_nested(&steps, nesting));
    let n = steps.len();
    let mut preds: Vec<Term> = vec![tt()];
    for i in 0..n {
        let tf = nesting.step_formula(&steps, i, &|c| preds[c].clone());
        let mut post = sp(&preds[i], &tf);
        if let Some(live) = &live {
            post = project_exists(&post, &live[i + 1]);
        }
        preds.push(simplify(&post));
    }
    let name = format!("{} (nested)", opts.name());
    tracing::trace!(
        "{name}: {:?} {:?}",
        nesting
            .kinds
            .iter()
            .map(|k| match k {
                StepKind::Internal => "i".to_string(),
                StepKind::Call => "c".into(),
                StepKind::Return { call, .. } => format!("r{call}"),
            })
            .collect::<Vec<_>>(),
        preds.iter().map(|p| p.to_string()).collect::<Vec<_>>()
    );
    if let Some(live) = &live {
        tracing::trace!("live: {:?}", live);
    }
    ensure_unsat(&preds[n], solver, &format!("{name}: final assertion"))?;
    preds[n] = ff();
    let quantified = preds.iter().filter(|p| p.has_quantifier()).count();
    Ok(NewtonSequence { preds, quantified })
}

/// Weakest preconditions backwards from `false` on a nested trace. Before a return, the
/// conjuncts of the assertion after it that speak only of the caller's restored variables wait
/// for the matching call (they hold there and come back); the rest is the weakest precondition
/// of the return without anything known at the call site (links still relate the callee's exit
/// to the call). At a call, the waiting conjuncts join the weakest precondition of the call.
/// `I_0` must come out valid, which is checked; otherwise the sequence is not applicable.
fn wp_nested(steps: &[TransFormula], nesting: &Nesting, name: &str, solver: &mut dyn Solver) -> Result<NewtonSequence, RefineError> {
    let n = steps.len();
    let mut preds = vec![ff(); n + 1];
    let mut waiting: BTreeMap<usize, Vec<Term>> = BTreeMap::new();
    for i in (0..n).rev() {
        let post = preds[i + 1].clone();
        let pre = match &nesting.kinds[i] {
            StepKind::Return { call, letter } => {
                let lhs: BTreeSet<&Term> = letter.assign.iter().map(|(l, _)| l).collect();
                let restored = |c: &Term| {
                    let fv = smt::subst::free_vars(c);
                    !fv.is_empty() && fv.iter().all(|x| nesting.locals.contains(x) && !lhs.contains(x))
                };
                let (caller, rest): (Vec<Term>, Vec<Term>) = smt::subst::conjuncts(&post).into_iter().partition(|c| restored(c));
                waiting.entry(*call).or_default().extend(caller);
                // Without the kept caller variables: the callee's assertion then speaks of its
                // own frame (a caller's variable reaches it only through a parameter link).
                let own_frame = ReturnLetter { kept: vec![], ..letter.clone() };
                wp(&own_frame.formula(&tt(), &nesting.locals), &and(&rest))
            }
            _ => {
                let mut pre = wp(&steps[i], &post);
                if let Some(w) = waiting.remove(&i) {
                    pre = and(&[pre, and(&w)]);
                }
                pre
            }
        };
        preds[i] = simplify(&pre);
    }
    ensure_unsat(&not(&preds[0]), solver, &format!("{name} (nested): negated first assertion"))?;
    preds[0] = tt();
    let quantified = preds.iter().filter(|p| p.has_quantifier()).count();
    Ok(NewtonSequence { preds, quantified })
}

/// Whether `preds` is a nested inductive sequence for the trace (`None`: undecided).
pub fn check_inductive_nested(preds: &[Term], trace: &[TransFormula], nesting: &Nesting, solver: &mut dyn Solver) -> Option<bool> {
    if preds.len() != trace.len() + 1 || !preds[0].is_true() || !preds[trace.len()].is_false() {
        return Some(false);
    }
    let mut unknown = false;
    for i in 0..trace.len() {
        let tf = nesting.step_formula(trace, i, &|c| preds[c].clone());
        match hoare::check_triple(&preds[i], &tf, &preds[i + 1], solver) {
            Validity::Valid => {}
            Validity::Invalid => return Some(false),
            Validity::Unknown => unknown = true,
        }
    }
    (!unknown).then_some(true)
}

/// The conjuncts of `t`, an equality between integers split into two bounds (so that one
/// bound alone may remain: `x = 1` becomes `x >= 1`).
fn split_equalities(t: &Term) -> Vec<Term> {
    let mut out = vec![];
    for c in smt::subst::conjuncts(t) {
        match (c.op(), c.args.as_slice()) {
            (Some(smt::term::Op::Eq), [a, b]) if a.sort == smt::Sort::Int => {
                out.push(smt::build::le(a, b));
                out.push(smt::build::ge(a, b));
            }
            _ => out.push(c),
        }
    }
    out
}

/// Drops conjuncts of the inner assertions of a nested inductive sequence while it stays
/// inductive (greedily): each dropped conjunct was a fact the proof of this trace
/// does not need, such as a range bound that would otherwise drift through recursive calls.
/// Back to front, so that an assertion no longer needs what a later one dropped.
/// An assertion is the pre of its step and the hierarchical predecessor of the returns
/// matching a call at its position; only those triples are checked again (a weaker assertion
/// is still a valid post). `budget` bounds the number of solver queries.
pub fn weaken_nested(preds: &[Term], trace: &[TransFormula], nesting: &Nesting, solver: &mut dyn Solver, budget: usize) -> Vec<Term> {
    let mut preds = preds.to_vec();
    let n = trace.len();
    let mut queries = 0;
    let returns_of = |c: usize| -> Vec<usize> { (0..n).filter(|&j| nesting.matching_call(j) == Some(c)).collect() };
    for i in (1..n).rev() {
        let parts = split_equalities(&preds[i]);
        if parts.len() < 2 {
            continue;
        }
        let rets = returns_of(i);
        let mut kept = parts.clone();
        for c in parts {
            if queries >= budget {
                return preds;
            }
            let candidate: Vec<Term> = kept.iter().filter(|k| **k != c).cloned().collect();
            let weaker = and(&candidate);
            let mut trial = preds.clone();
            trial[i] = weaker.clone();
            let mut ok = true;
            for j in std::iter::once(i).chain(rets.iter().copied()) {
                queries += 1;
                let tf = nesting.step_formula(trace, j, &|k| trial[k].clone());
                if hoare::check_triple(&trial[j], &tf, &trial[j + 1], solver) != Validity::Valid {
                    ok = false;
                    break;
                }
            }
            if ok {
                kept = candidate;
                preds[i] = weaker;
            }
        }
    }
    preds
}
