//! Trace abstraction on nested words: the CEGAR loop for an entry that reaches recursion.
//!
//! The program is a nested word automaton over the CFGs of [`ir::NestedProgram`] (each
//! large-block encoded on its own): a CFG edge with a statement is an internal letter, a `Call`
//! edge is a call letter (to the callee's entry) and a return letter (from the callee's exit
//! back to the edge's target, matched with that call). Error traces are nested words; their
//! feasibility is decided with the scoped SSA, and infeasible ones are cut away by interpolant
//! automata with return transitions `{p ∧ h} return {q}` ([`PredicateDfa`] as [`LazyDnwa`]).

use crate::annotation::{self, marks_of, Mark, Proof};
use crate::cegar::{self, nesting_of, Abstraction, ErrorWord, Explicit, Kind, Letter, Scopes, States};
use crate::predicate_dfa::{PredicateDfa, Shared};
use crate::{Config, Stats, Verdict};
use automata::{nested_reachable_in_difference, nested_word_in_difference, Interrupted, LazyDnwa, NestedEmptiness, NestedReach, Nwa};
use ir::{Cfg, Label, NestedProgram, ReturnLetter, Stmt, TransFormula, Violation};
use refine::hoare::check_triple;
use refine::nested::Nesting;
use refine::Validity;
use smt::build::and;
use smt::simplify::simplify;
use smt::Term;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;
use std::time::Instant;

/// The nested word automaton of the program and its letters.
pub(crate) struct Program<'n> {
    np: &'n NestedProgram,
    /// Every variable that is not global.
    locals: BTreeSet<Term>,
    /// The semantics of each return letter.
    returns: HashMap<usize, ReturnLetter>,
    nwa: Nwa,
    letters: Vec<Letter>,
    /// The location (in the automaton's numbering) of each state, for error lookups.
    locs: Vec<ir::Location>,
    /// The locations whose invariants a TRUE answer reports: loop heads, and the entry and
    /// exit of each recursive procedure.
    marks: Vec<Mark>,
    /// The CFGs before large-block encoding: the entry's, then each procedure's.
    originals: Vec<Cfg>,
}

/// The program automaton of `np`, each CFG encoded as `config` says.
pub(crate) fn build<'n>(np: &'n NestedProgram, config: &Config) -> Result<Program<'n>, String> {
    let encode = |c: &Cfg| crate::strategy::encode(c, config);
    let mut cfgs: Vec<(Option<String>, Cfg)> = vec![(None, encode(&np.entry))];
    cfgs.extend(np.procedures.iter().map(|(n, c)| (Some(n.clone()), encode(c))));
    let originals: Vec<Cfg> = std::iter::once(&np.entry).chain(np.procedures.values()).cloned().collect();
    let mut offset = vec![];
    let mut locs = vec![];
    let mut marks = vec![];
    for (name, c) in &cfgs {
        offset.push(locs.len());
        marks.extend(marks_of(name.as_deref(), c, locs.len()));
        locs.extend(c.locs.iter().cloned());
    }
    let bounds: HashMap<&str, (usize, usize)> =
        cfgs.iter().zip(&offset).filter_map(|((n, c), o)| Some((n.as_deref()?, (o + c.entry, o + c.exit)))).collect();
    let n = locs.len();
    let mut nwa = Nwa {
        initial: cfgs[0].1.entry,
        internal: vec![vec![]; n],
        calls: vec![vec![]; n],
        returns: vec![vec![]; n],
        accepting: locs.iter().map(|l| l.error.is_some()).collect(),
    };
    let mut letters = vec![];
    for (k, ((_, c), &o)) in cfgs.iter().zip(&offset).enumerate() {
        for e in &c.edges {
            let (src, dst) = (o + e.src, o + e.dst);
            match &e.label {
                Label::Stmt(s) => {
                    nwa.internal[src].push((letters.len(), dst));
                    letters.push(Letter::new(s.clone(), Kind::Internal, e, k));
                }
                Label::Call(call) => {
                    let &(entry, exit) = bounds.get(call.callee.as_str()).ok_or_else(|| format!("call of {} has no CFG", call.callee))?;
                    let stmt = np.call_stmt(call).map_err(|e| e.to_string())?;
                    let ret = np.return_letter(call).map_err(|e| e.to_string())?;
                    let (cl, rl) = (letters.len(), letters.len() + 1);
                    nwa.calls[src].push((cl, entry));
                    nwa.returns[exit].push((cl, rl, dst));
                    letters.push(Letter::new(stmt, Kind::Call, e, k));
                    let assign = Stmt::Assign(ret.assign.clone());
                    letters.push(Letter::new(assign, Kind::Return(ret), e, k));
                }
                Label::Thread(_) => return Err("a thread operation in a recursive program".into()),
            }
        }
    }
    let mut locals: BTreeSet<Term> = np.locals.clone();
    for l in &letters {
        locals.extend(l.formula.in_vars.keys().chain(l.formula.out_vars.keys()).filter(|x| !np.globals.contains(*x)).cloned());
    }
    let returns = letters
        .iter()
        .enumerate()
        .filter_map(|(i, l)| match &l.kind {
            Kind::Return(r) => Some((i, r.clone())),
            _ => None,
        })
        .collect();
    Ok(Program { np, locals, returns, nwa, letters, locs, marks, originals })
}

fn as_lazy(dfas: &mut [PredicateDfa]) -> Vec<&mut dyn LazyDnwa> {
    dfas.iter_mut().map(|d| d as &mut dyn LazyDnwa).collect()
}

impl Abstraction for Program<'_> {
    fn letters(&self) -> &[Letter] {
        &self.letters
    }

    fn violation(&self, state: usize) -> Option<Violation> {
        self.locs[state].error.clone()
    }

    fn original(&self, cfg: usize) -> &Cfg {
        &self.originals[cfg]
    }

    fn error_word(
        &self,
        dfas: &mut [PredicateDfa],
        interrupt: &mut dyn FnMut(usize) -> Option<String>,
    ) -> Result<Option<ErrorWord>, Interrupted> {
        Ok(match nested_word_in_difference(&self.nwa, &mut as_lazy(dfas), interrupt)? {
            NestedEmptiness::Empty => None,
            NestedEmptiness::Word { letters, target } => Some((letters, target)),
        })
    }

    fn nesting(&self, letters: &[usize]) -> Option<Nesting> {
        Some(nesting_of(letters.iter().map(|&l| &self.letters[l].kind), &self.np.globals, &self.locals))
    }

    fn path(&self, _: &[usize]) -> Option<Vec<usize>> {
        None
    }

    fn scopes(&self) -> Scopes {
        (self.returns.clone(), self.locals.clone())
    }

    fn states(&self) -> Box<dyn States + '_> {
        Box::new(Explicit::new(self.nwa.clone()))
    }

    fn reach_proof(&self, entry: &str, reach: &NestedReach, annotation: &[Term], config: &Config) -> Proof {
        proof_of_reach(entry, self, reach, annotation, config)
    }

    fn proof(&self, entry: &str, dfas: &mut [PredicateDfa], _: &Rc<RefCell<Shared>>, config: &Config) -> Option<Proof> {
        proof_of_safety(entry, self, dfas, config)
    }
}

/// Runs trace abstraction on nested words for the entry `entry`; for TRUE also the proof (if
/// time allows).
pub fn verify_nested(entry: &str, np: &NestedProgram, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
    let p = match build(np, config) {
        Ok(p) => p,
        Err(e) => return (Verdict::unknown(format!("{entry}: {e}")), None),
    };
    cegar::run(entry, &p, config, stats)
}

/// The Floyd–Hoare annotation of an empty difference: each reachable product state is
/// annotated with the conjunction of its predicates ([`proof_of_reach`]). `None` if time ran
/// out while collecting them.
fn proof_of_safety(entry: &str, p: &Program, dfas: &mut [PredicateDfa], config: &Config) -> Option<Proof> {
    let deadline = config.deadline;
    let reach = nested_reachable_in_difference(&p.nwa, &mut as_lazy(dfas), &mut |_| {
        deadline.is_some_and(|d| Instant::now() >= d).then(|| "timeout".to_string())
    });
    let reach = reach.ok().flatten()?;
    let annotation: Vec<Term> = reach
        .states
        .iter()
        .map(|(_, ds)| simplify(&and(&dfas.iter().zip(ds).map(|(d, &s)| d.state_formula(s)).collect::<Vec<_>>())))
        .collect();
    Some(proof_of_reach(entry, p, &reach, &annotation, config))
}

/// The proof from annotated reachable states: every transition between them is checked again
/// as a Hoare triple with a fresh solver (a return together with the state at its call), and
/// no reachable state is at an error location. The invariant of a location is the
/// disjunction of its states' annotations.
fn proof_of_reach(entry: &str, p: &Program, reach: &NestedReach, annotation: &[Term], config: &Config) -> Proof {
    let deadline = config.deadline;
    let checked = check_nested(p, reach, annotation, config);
    let mut at: Vec<Vec<Term>> = vec![vec![]; p.locs.len()];
    for ((q, _), f) in reach.states.iter().zip(annotation) {
        at[*q].push(f.clone());
    }
    let formulas = p.marks.iter().map(|m| annotation::simplified_disjunction(&at[m.loc], deadline));
    let invariants = p.marks.iter().zip(formulas).map(|(m, formula)| m.invariant(entry, formula)).collect();
    Proof { invariants, checked, ..Proof::default() }
}

/// Checks the annotation of the reachable states (see [`proof_of_safety`]): `Some(false)` when
/// a triple fails, `None` when one is undecided (time ran out, or no solver could start): a
/// busy machine leaves a proof unchecked, never refuted.
fn check_nested(p: &Program, reach: &NestedReach, annotation: &[Term], config: &Config) -> Option<bool> {
    if reach.states.iter().any(|(q, _)| p.nwa.accepting[*q]) {
        return Some(false);
    }
    let deadline = config.deadline;
    let mut solver = config.solver.create().ok()?;
    let mut obligations = annotation::Obligations::default();
    let mut refuted = |pre: &Term, tf: &TransFormula, post: &Term| -> bool {
        let left = annotation::millis_left(deadline, 10_000);
        let v = if left == 0 {
            Validity::Unknown
        } else {
            solver.set_timeout_ms(left);
            check_triple(pre, tf, post, solver.as_mut())
        };
        obligations.refutes(v)
    };
    for &(s, letter, t) in &reach.steps {
        if refuted(&annotation[s], &p.letters[letter].formula, &annotation[t]) {
            return Some(false);
        }
    }
    for r in &reach.returns {
        let Some(ret) = p.returns.get(&r.letter) else { return Some(false) };
        let tf = ret.formula(&annotation[r.hier], &p.locals);
        if refuted(&annotation[r.state], &tf, &annotation[r.target]) {
            return Some(false);
        }
    }
    obligations.outcome()
}
