//! The Floyd–Hoare annotation of a TRUE answer. When the difference of the program automaton
//! and the interpolant automata is empty, every reachable product state `(ℓ, S1..Sk)` is
//! annotated with the conjunction of its predicates, and `inv(ℓ)` is the disjunction over the
//! states at `ℓ`: the entry gets `true` (the initial states are empty sets), an error location
//! gets `false` (no state there is reachable), and every edge is a valid Hoare triple by the
//! construction of the automata. The invariants are simplified and then checked again with
//! independent solver queries, so what is printed is what was checked.

use crate::predicate_dfa::PredicateDfa;
use ir::{Cfg, SourcePos};
use refine::hoare::check_triple;
use refine::Validity;
use smt::build::{and, not, or};
use smt::{SatResult, Solver, SolverSpec, Term};
use std::time::Instant;
pub use verdict::{Invariant, Proof, Role};

/// The annotation of every location of `cfg` from the reachable product states.
pub fn annotation(cfg: &Cfg, states: &[automata::ProductState], dfas: &[PredicateDfa]) -> Vec<Term> {
    let mut disjuncts: Vec<Vec<Term>> = vec![vec![]; cfg.locs.len()];
    for (loc, parts) in states {
        let conj: Vec<Term> = dfas.iter().zip(parts).map(|(d, &s)| d.state_formula(s)).collect();
        disjuncts[*loc].push(and(&conj));
    }
    disjuncts.iter().map(|d| or(d)).collect()
}

/// Milliseconds left before `deadline`, at most `cap`.
pub(crate) fn millis_left(deadline: Option<Instant>, cap: u64) -> u64 {
    deadline.map_or(cap, |d| d.saturating_duration_since(Instant::now()).as_millis() as u64).min(cap)
}

/// The disjunction of `disjuncts`, each simplified, without those that imply another one
/// (an equivalent one is kept once); the result is equivalent to `or(disjuncts)` and reads
/// better. Within the time left; past it, disjuncts are kept as they are.
pub fn simplified_disjunction(disjuncts: &[Term], deadline: Option<Instant>) -> Term {
    /// Beyond this many disjuncts, no implication between them is looked for.
    const MAX_COMPARED: usize = 64;
    let mut kept: Vec<Term> = vec![];
    for d in disjuncts {
        let d = smt::simplify::simplify_strong(d, millis_left(deadline, 200));
        if kept.contains(&d) {
            continue;
        }
        if disjuncts.len() <= MAX_COMPARED {
            let implies = |a: &Term, b: &Term| smt::simplify::is_sat(&and(&[a.clone(), not(b)]), millis_left(deadline, 100)) == Some(false);
            if kept.iter().any(|k| implies(&d, k)) {
                continue;
            }
            kept.retain(|k| !implies(k, &d));
        }
        kept.push(d);
    }
    or(&kept)
}

/// Simplifies each location's invariant (within the time left, at most half a second each:
/// the simplifier can spend seconds on wrap-around terms such as `x mod 2^64`).
pub fn simplify_all(inv: &[Term], deadline: Option<Instant>) -> Vec<Term> {
    inv.iter()
        .map(|t| {
            let left = millis_left(deadline, 500);
            if left < 50 {
                smt::simplify::simplify(t)
            } else {
                smt::simplify::simplify_strong(t, left)
            }
        })
        .collect()
}

/// Checks an annotation with a fresh solver of `spec`: `true` at the entry, `false` at error
/// locations, a valid Hoare triple along every edge. `Some(false)` when a query fails, `None`
/// when one is undecided (the solver's time ran out, or it cannot start): a busy machine leaves
/// a proof unchecked, never refuted.
pub fn check(cfg: &Cfg, inv: &[Term], timeout_ms: u64, spec: &SolverSpec) -> Option<bool> {
    let Ok(mut solver) = spec.create() else { return None };
    let solver = solver.as_mut();
    solver.set_timeout_ms(timeout_ms);
    let valid = |t: &Term, solver: &mut dyn Solver| {
        solver.push();
        solver.assert(&not(t));
        let r = solver.check();
        solver.pop();
        match r {
            SatResult::Unsat => Validity::Valid,
            SatResult::Sat => Validity::Invalid,
            SatResult::Unknown(_) => Validity::Unknown,
        }
    };
    let mut obligations = Obligations::default();
    let mut refuted = |v: Validity| obligations.refutes(v);
    let formulas = std::iter::once(inv[cfg.entry].clone()).chain(cfg.error_locs().into_iter().map(|l| not(&inv[l])));
    for f in formulas {
        if refuted(valid(&f, solver)) {
            return Some(false);
        }
    }
    for e in &cfg.edges {
        if refuted(check_triple(&inv[e.src], e.trans_formula(), &inv[e.dst], solver)) {
            return Some(false);
        }
    }
    obligations.outcome()
}

/// The obligations of an annotation's check so far: a failed one refutes the annotation, an
/// undecided one leaves it unchecked.
#[derive(Default)]
pub(crate) struct Obligations {
    undecided: bool,
}

impl Obligations {
    /// Whether an obligation with this outcome refutes the annotation.
    pub(crate) fn refutes(&mut self, v: Validity) -> bool {
        self.undecided |= v == Validity::Unknown;
        v == Validity::Invalid
    }

    /// The check's result once every obligation held or was undecided.
    pub(crate) fn outcome(&self) -> Option<bool> {
        (!self.undecided).then_some(true)
    }
}

/// The proof of a TRUE answer for one entry procedure, checked with a solver of `spec`.
pub fn proof(entry: &str, cfg: &Cfg, inv: &[Term], deadline: Option<Instant>, spec: &SolverSpec) -> Proof {
    let simplified = simplify_all(inv, deadline);
    let left = millis_left(deadline, 10_000);
    let mut checked = if left > 0 { check(cfg, &simplified, left, spec) } else { None };
    // a simplification cut off by its time limit may not be equivalent: then the proof as found
    let inv = if checked == Some(false) {
        checked = check(cfg, inv, millis_left(deadline, 10_000).max(1), spec);
        inv.to_vec()
    } else {
        simplified
    };
    let invariants = marks_of(None, cfg, 0).into_iter().map(|m| m.invariant(entry, inv[m.loc].clone())).collect();
    Proof { invariants, checked, ..Proof::default() }
}

/// The checked proof of `cfg` from reachable states at its locations (state `(ℓ, _)` at
/// location `ℓ`) with a formula each: a location's invariant is their disjunction.
pub(crate) fn proof_of_states(entry: &str, cfg: &Cfg, reach: &automata::NestedReach, annotation: &[Term], config: &crate::Config) -> Proof {
    let mut at: Vec<Vec<Term>> = vec![vec![]; cfg.locs.len()];
    for ((loc, _), f) in reach.states.iter().zip(annotation) {
        at[*loc].push(f.clone());
    }
    let inv: Vec<Term> = at.iter().map(|d| or(d)).collect();
    proof(entry, cfg, &inv, config.deadline, &config.solver)
}

/// A location whose invariant a TRUE answer reports.
pub(crate) struct Mark {
    pub(crate) loc: usize,
    role: Role,
    function: Option<String>,
    pos: Option<SourcePos>,
}

impl Mark {
    pub(crate) fn invariant(&self, entry: &str, formula: Term) -> Invariant {
        Invariant { role: self.role, entry: entry.to_string(), function: self.function.clone(), pos: self.pos.clone(), formula }
    }
}

/// The reported locations of a CFG whose locations are numbered from `offset`: its loop heads
/// (at the loop condition's position) and, for the CFG of the procedure `name`, its entry and
/// exit.
pub(crate) fn marks_of(name: Option<&str>, c: &Cfg, offset: usize) -> Vec<Mark> {
    let succ = c.successors();
    let first_pos = |l: usize| c.locs[l].pos.clone().or_else(|| succ[l].iter().find_map(|&e| c.edges[e].pos.clone()));
    let mut marks: Vec<Mark> = c
        .loop_heads()
        .into_iter()
        .map(|l| Mark {
            loc: offset + l,
            role: Role::LoopHead,
            function: c.locs[l].name.split_once('.').map(|(p, _)| p.to_string()),
            pos: first_pos(l),
        })
        .collect();
    if let Some(name) = name {
        for (l, role) in [(c.entry, Role::Entry), (c.exit, Role::Exit)] {
            marks.push(Mark { loc: offset + l, role, function: Some(name.to_string()), pos: first_pos(c.entry) });
        }
    }
    marks
}
