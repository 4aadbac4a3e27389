//! Craig interpolants from an external interpolating solver (cvc5's `get-interpolant`).
//!
//! The sequence is built by repeated binary interpolation, which makes it inductive by
//! construction (if the solver's answers are right): `I_0 = true` and, for `i = 1..n-1`,
//! `I_i` interpolates `A = I_{i-1} ∧ st_i` against `B = st_{i+1} ∧ .. ∧ st_n` (SSA, steps
//! outside the unsat core dropped), then is renamed back to program variables; `I_n = false`.
//! External interpolants are never trusted: the caller checks the sequence
//! ([`crate::check_inductive`]) before using it.

use crate::error::RefineError;
use crate::ssa::ssa;
use ir::TransFormula;
use smt::build::{and, ff, tt};
use smt::subst::{free_vars, substitute};
use smt::{SmtLibSolver, Term};
use std::collections::BTreeSet;

fn na(msg: impl Into<String>) -> RefineError {
    RefineError::NotApplicable(msg.into())
}

/// The interpolant sequence for the infeasible `trace` with unsat core `core` (step indices;
/// empty means all steps), over canonical program variables. Not checked for inductivity.
pub fn smtlib_sequence(trace: &[TransFormula], core: &BTreeSet<usize>, itp: &mut SmtLibSolver) -> Result<Vec<Term>, RefineError> {
    let n = trace.len();
    if n == 0 {
        return Err(na("empty trace"));
    }
    let s = ssa(trace);
    let steps: Vec<Term> =
        s.conjuncts.iter().enumerate().map(|(i, c)| if core.is_empty() || core.contains(&i) { c.clone() } else { tt() }).collect();
    let mut preds = vec![tt()];
    // The previous interpolant over the versions current at its position.
    let mut prev = tt();
    for i in 1..n {
        let b = and(&steps[i..]);
        let j = if prev.is_false() || b.is_true() {
            prev.clone()
        } else {
            itp.interpolant(&[prev.clone(), steps[i - 1].clone()], &b)
                .map_err(|e| na(format!("{} gave no interpolant at position {i}: {e}", itp.command())))?
        };
        let back = s.back_to_canonical(i);
        if let Some(v) = free_vars(&j).into_iter().find(|v| !back.contains_key(v)) {
            return Err(na(format!("interpolant at position {i} mentions {v}, not a variable current there")));
        }
        preds.push(substitute(&j, &back));
        prev = j;
    }
    preds.push(ff());
    Ok(preds)
}
