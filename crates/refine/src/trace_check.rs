//! The trace check: is a trace (from precondition `true` to postcondition `false`) feasible?

use crate::nested::Nesting;
use crate::ssa::{ssa_scoped, step_name, step_of_name};
use ir::TransFormula;
use smt::{SatResult, Solver, Term};
use std::collections::{BTreeMap, BTreeSet};

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

/// The unsat core of an infeasible flat `trace` (`Ok(None)`: feasible; no model is read, which
/// for traces over arrays costs more than the check), or why the solver could not decide.
pub fn infeasible_core(trace: &[TransFormula], solver: &mut dyn Solver) -> Result<Option<BTreeSet<usize>>, String> {
    match check(trace, None, solver, false) {
        TraceCheck::Infeasible { core } => Ok(Some(core)),
        TraceCheck::Feasible(_) => Ok(None),
        TraceCheck::Unknown(why) => Err(why),
    }
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
    let all: BTreeSet<Term> = s.versions.iter().flat_map(|m| m.values().cloned()).collect();
    let all: Vec<Term> = all.into_iter().collect();
    let model = match solver.model(&all) {
        Ok(m) => m,
        Err(e) => return TraceCheck::Unknown(format!("satisfiable, but no model: {e}")),
    };
    let states =
        s.versions.iter().map(|m| m.iter().filter_map(|(x, v)| model.get(v).map(|val| (x.clone(), val.clone()))).collect()).collect();
    TraceCheck::Feasible(Counterexample { states })
}
