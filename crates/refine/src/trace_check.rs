//! The trace check: is a trace (from precondition `true` to postcondition `false`) feasible?

use crate::nested::Nesting;
use crate::ssa::{aux_var, conjunct_name, conjunct_of_name, rename_step, ssa, ssa_scoped, step_name, step_of_name};
use ir::TransFormula;
use smt::build::and;
use smt::subst::conjuncts;
use smt::{SatResult, Solver, Sort, Term};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// A feasible trace's witness: values of the canonical variables at each position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    /// `states[0]`: values before step 0; `states[i + 1]`: values after step `i`.
    pub states: Vec<BTreeMap<Term, Term>>,
}

/// Outcome of a trace check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceCheck {
    /// The trace is feasible; the counterexample gives concrete values.
    Feasible(Counterexample),
    /// The trace is infeasible; `core` holds the steps of an unsat core.
    Infeasible {
        /// The indices of the steps in the unsat core.
        core: BTreeSet<usize>,
    },
    /// The solver could not decide; the string says why.
    Unknown(String),
}

/// Checks the feasibility of `trace` with its SSA trace formula, one named conjunct per step.
pub fn check_trace(trace: &[TransFormula], solver: &mut dyn Solver) -> TraceCheck {
    check_scoped_trace(trace, None, solver)
}

/// [`check_trace`] for a nested trace (calls and returns as given by `nesting`, see
/// [`crate::ssa::ssa_scoped`]).
pub fn check_scoped_trace(trace: &[TransFormula], nesting: Option<&Nesting>, solver: &mut dyn Solver) -> TraceCheck {
    check(trace, nesting, solver, true)
}

/// [`check_scoped_trace`] helped by `hints`: for some steps, values that variables hold after
/// them (a search that ran the trace computed them). The hints only narrow the models: the
/// hinted instances are replaced by their values, which folds most of the trace formula away,
/// and a model of what is left, with the hinted values, is a model of the trace. Without one
/// the trace is checked as usual. The solver must hold no assertions of its own: the check
/// resets it, so that Z3 solves the rest with its non-incremental preprocessing (its
/// incremental solver takes minutes on a chain of a thousand array writes that this solves in a
/// tenth of a second).
pub fn check_scoped_trace_with_hints(
    trace: &[TransFormula],
    nesting: Option<&Nesting>,
    solver: &mut dyn Solver,
    hints: &[&[(Term, Term)]],
) -> TraceCheck {
    if hints.iter().all(|h| h.is_empty()) {
        return check_scoped_trace(trace, nesting, solver);
    }
    let s = ssa_scoped(trace, nesting);
    let known: HashMap<Term, Term> = s
        .versions
        .iter()
        .skip(1)
        .zip(hints)
        .flat_map(|(after, h)| h.iter().filter_map(|(x, v)| Some((after.get(x)?.clone(), v.clone()))))
        .collect();
    solver.reset();
    let mut constrained = HashSet::new();
    for c in &s.conjuncts {
        let c = smt::subst::substitute(c, &known);
        if !c.is_true() {
            constrained.extend(smt::subst::free_vars(&c));
            solver.assert(&c);
        }
    }
    let result = match solver.check() {
        SatResult::Sat => {
            Some(counterexample_with(&s, &known, solver, Some(&constrained))).filter(|r| matches!(r, TraceCheck::Feasible(_)))
        }
        _ => None,
    };
    solver.reset();
    result.unwrap_or_else(|| check_scoped_trace(trace, nesting, solver))
}

/// The unsat core of an infeasible flat `trace` (`Ok(None)`: feasible; no model is read, which
/// for traces over arrays costs more than the check), or why the solver could not decide.
pub fn infeasible_core(trace: &[TransFormula], solver: &mut dyn Solver) -> Result<Option<BTreeSet<usize>>, String> {
    match check(trace, None, solver, false) {
        TraceCheck::Infeasible { core } => Ok(Some(core)),
        TraceCheck::Feasible(_) => Ok(None),
        TraceCheck::Unknown(why) => Err(why),
    }
}

/// An infeasible flat `trace` with each step cut down to the conjuncts of its formula that an
/// unsat core names (a step keeps its variables: one without conjuncts assigns arbitrary values
/// to what it writes). Every step's relation only grows and the trace stays infeasible, so an
/// assertion sequence of the result is one of `trace`, made of the facts its infeasibility
/// uses: a large block's branch conditions and memory updates that the contradiction does not
/// need stay out of its strongest post. `None` if the trace is feasible, the solver does not
/// decide, or the trace is too long or over bit-vectors to be checked with names.
pub fn conjunct_core(trace: &[TransFormula], solver: &mut dyn Solver) -> Option<Vec<TransFormula>> {
    let parts: Vec<Vec<Term>> = trace.iter().map(|tf| conjuncts(&tf.formula)).collect();
    if parts.iter().map(Vec::len).sum::<usize>() > MAX_NAMED_STEPS || trace.iter().any(|tf| tf.formula.has_bitvector()) {
        return None;
    }
    let versions = ssa(trace).versions;
    let mut renamed: BTreeMap<(usize, usize), Term> = BTreeMap::new();
    for (i, (tf, cs)) in trace.iter().zip(&parts).enumerate() {
        for (j, c) in cs.iter().enumerate() {
            let part = TransFormula { formula: c.clone(), ..tf.clone() };
            renamed.insert((i, j), rename_step(&part, &versions[i], &versions[i + 1], &mut |a| aux_var(a, i)));
        }
    }
    let mut core = unsat_core_of(&renamed, &renamed.keys().copied().collect(), solver)?;
    // Z3's cores are not minimal: the conjuncts over arrays, which weigh most on assertions,
    // are dropped one by one while the rest stays contradictory
    let over_arrays: Vec<(usize, usize)> =
        core.iter().copied().filter(|k| renamed[k].any_subterm(|t| matches!(t.sort, Sort::Array(..)))).collect();
    for k in over_arrays.into_iter().take(MAX_CORE_DROPS) {
        if core.contains(&k) {
            let mut rest = core.clone();
            rest.remove(&k);
            if let Some(smaller) = unsat_core_of(&renamed, &rest, solver) {
                core = smaller;
            }
        }
    }
    let cut = |(i, (tf, cs)): (usize, (&TransFormula, Vec<Term>))| {
        let kept: Vec<Term> = cs.into_iter().enumerate().filter(|(j, _)| core.contains(&(i, *j))).map(|(_, c)| c).collect();
        TransFormula { formula: and(&kept), ..tf.clone() }
    };
    Some(trace.iter().zip(parts).enumerate().map(cut).collect())
}

/// The most conjuncts [`conjunct_core`] tries to drop from a core.
const MAX_CORE_DROPS: usize = 16;

/// The unsat core of the conjuncts `renamed` keyed by `keys`, if they are contradictory.
fn unsat_core_of(
    renamed: &BTreeMap<(usize, usize), Term>,
    keys: &BTreeSet<(usize, usize)>,
    solver: &mut dyn Solver,
) -> Option<BTreeSet<(usize, usize)>> {
    solver.push();
    for &(i, j) in keys {
        solver.assert_named(&conjunct_name(i, j), &renamed[&(i, j)]);
    }
    let core = match solver.check() {
        SatResult::Unsat => solver.unsat_core().ok(),
        _ => None,
    };
    solver.pop();
    Some(core?.iter().filter_map(|n| conjunct_of_name(n)).collect())
}

/// The longest trace checked with a name for each step (for its unsat core).
const MAX_NAMED_STEPS: usize = 5000;

/// The check; a feasible trace's counterexample has no states unless `model`.
fn check(trace: &[TransFormula], nesting: Option<&Nesting>, solver: &mut dyn Solver, model: bool) -> TraceCheck {
    let s = ssa_scoped(trace, nesting);
    // Z3 4.8.12 gives up on bit-vector conversions among named assertions, and names keep its
    // preprocessing from solving the equations of long traces (a recursion of 10^5 steps takes
    // seconds more): such a trace is checked without names, and its core is the whole trace
    let named = trace.len() <= MAX_NAMED_STEPS && !s.conjuncts.iter().any(Term::has_bitvector);
    solver.push();
    for (i, c) in s.conjuncts.iter().enumerate() {
        if named {
            solver.assert_named(&step_name(i), c);
        } else {
            solver.assert(c);
        }
    }
    let result = match solver.check() {
        SatResult::Sat if model => extract_counterexample(&s, solver),
        SatResult::Sat => TraceCheck::Feasible(Counterexample { states: vec![] }),
        SatResult::Unsat if !named => TraceCheck::Infeasible { core: (0..trace.len()).collect() },
        SatResult::Unsat => {
            let core = match solver.unsat_core() {
                Ok(names) => names.iter().filter_map(|n| step_of_name(n)).filter(|i| *i < trace.len()).collect(),
                Err(e) => {
                    tracing::warn!("no unsat core ({e}); using the whole trace");
                    (0..trace.len()).collect()
                }
            };
            TraceCheck::Infeasible { core }
        }
        SatResult::Unknown(why) => TraceCheck::Unknown(why),
    };
    solver.pop();
    result
}

fn extract_counterexample(s: &crate::ssa::Ssa, solver: &mut dyn Solver) -> TraceCheck {
    counterexample_with(s, &HashMap::new(), solver, None)
}

/// The counterexample of a satisfied trace formula: the `known` instances' values, the others'
/// from the solver's model. Where the formula was asserted with the known values substituted,
/// `constrained` holds the versions it still mentions: the others are free, and take their
/// sort's first value without a question to the model (a free array is left out), which keeps
/// a path of many thousand steps, whose search hinted nearly every value, from decoding the
/// model of every temporary and memory version on it.
fn counterexample_with(
    s: &crate::ssa::Ssa,
    known: &HashMap<Term, Term>,
    solver: &mut dyn Solver,
    constrained: Option<&HashSet<Term>>,
) -> TraceCheck {
    let mut free: HashMap<Term, Term> = HashMap::new();
    let mut asked: BTreeSet<Term> = BTreeSet::new();
    for v in s.versions.iter().flat_map(|m| m.values()) {
        if known.contains_key(v) || free.contains_key(v) {
            continue;
        }
        match constrained {
            None => {
                asked.insert(v.clone());
            }
            // (the arrays that hints do not give are left out: decoding every version of memory
            // along a long path would cost more than the check)
            Some(_) if matches!(v.sort, Sort::Array(..)) => {}
            Some(c) if c.contains(v) => {
                asked.insert(v.clone());
            }
            Some(_) => {
                if let Some(first) = smt::value::Value::first(&v.sort) {
                    free.insert(v.clone(), first.to_term(&v.sort));
                }
            }
        }
    }
    let asked: Vec<Term> = asked.into_iter().collect();
    let model = match solver.model(&asked) {
        Ok(m) => m,
        Err(e) => return TraceCheck::Unknown(format!("satisfiable, but no model: {e}")),
    };
    let value = |v: &Term| known.get(v).or_else(|| free.get(v)).or_else(|| model.get(v));
    let states = s.versions.iter().map(|m| m.iter().filter_map(|(x, v)| value(v).map(|val| (x.clone(), val.clone()))).collect()).collect();
    TraceCheck::Feasible(Counterexample { states })
}
