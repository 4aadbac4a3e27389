//! Bounded model checking (`--engine bmc`): the program automaton that trace abstraction
//! refines, unrolled one letter (a large block, or a statement of one thread) at a time into
//! one incremental SMT query. Depth `k` adds the disjunction of the transitions that can be
//! taken at step `k`: `pc_k = src ∧ pc_k+1 = dst ∧ letter_k = l ∧ tf_l(x_k, x_k+1)`, every
//! variable the letter does not assign kept. Before each step, an error state reachable in `k`
//! steps is asked for (`pc_k ∈ errors`, in a scope of its own). A model gives a word, which is
//! checked again and resolved into source steps like every FALSE
//! ([`cegar::counterexample`]); a word the exact check does not confirm (an
//! over-approximated statement) is blocked and the depth asked again. The engine only refutes:
//! without an error it ends UNKNOWN with the depth it reached.

use crate::annotation::Proof;
use crate::budget::QueryBudget;
use crate::cegar::{self, Abstraction};
use crate::strategy::{on_automaton, Engine, Prepared, Task};
use crate::{Config, Stats, Unknown, Verdict};
use ir::{TransFormula, ViolationKind};
use refine::ssa::{mentioned_vars, rename_step};
use refine::{check_scoped_trace_with_hints, TraceCheck};
use smt::build::{and, eq, int, not, or};
use smt::{SatResult, Solver, Sort, Term};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

/// The engine `bmc`.
pub struct Bmc;

impl Engine for Bmc {
    fn name(&self) -> &'static str {
        "bmc"
    }

    fn decides_both(&self) -> bool {
        false
    }

    fn about(&self) -> &'static str {
        "bounded model checking: the program automaton unrolled letter by letter into one incremental query (can only refute)"
    }

    fn not_applicable(&self, task: &Task, _: &Config) -> Option<String> {
        matches!(task.prepared, Prepared::Nested(_)).then(|| "bmc: recursive programs are not supported".into())
    }

    fn run(&self, task: &Task, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
        let verdict = on_automaton(task, config, ir::Acceleration::Polynomial, stats, |a, stats| unroll(task.entry, a, config, stats));
        (verdict.unwrap_or_else(|u| Verdict::Unknown(u.prefixed("bmc"))), None)
    }
}

/// At most this many words of one depth that the exact check does not confirm are blocked
/// before the search goes deeper.
const MAX_UNCONFIRMED_PER_DEPTH: usize = 8;

/// The variables of one step of the unrolling.
struct Frame {
    pc: Term,
    letter: Term,
    vars: BTreeMap<Term, Term>,
}

impl Frame {
    fn at(k: usize, vars: &BTreeSet<Term>) -> Frame {
        let version = |x: &Term| Term::var(&format!("{}@bmc{k}", x.var_name().unwrap_or("v")), x.sort.clone());
        Frame {
            pc: Term::var(&format!("#pc@bmc{k}"), Sort::Int),
            letter: Term::var(&format!("#letter@bmc{k}"), Sort::Int),
            vars: vars.iter().map(|x| (x.clone(), version(x))).collect(),
        }
    }
}

/// Unrolls `a`'s program automaton until an error is confirmed or the budget ends.
fn unroll(entry: &str, a: &dyn Abstraction, config: &Config, stats: &mut Stats) -> Verdict {
    let automaton = a.states();
    let letters = a.letters();
    let vars: BTreeSet<Term> = letters.iter().flat_map(|l| mentioned_vars(&l.formula)).collect();
    // the variables each letter keeps, for the frame of every step that takes it
    let kept: Vec<Vec<&Term>> = letters
        .iter()
        .map(|l| {
            let assigned = l.formula.assigned_vars();
            vars.iter().filter(|x| !assigned.contains(*x)).collect()
        })
        .collect();
    let is_error = |s: usize| automaton.accepting(s) && a.violation(s).is_some_and(|v| v.kind != ViolationKind::ThreadLimit);
    let (mut solver, mut checker) = match (config.solver.create(), config.solver.create()) {
        (Ok(s), Ok(c)) => (s, c),
        (Err(e), _) | (_, Err(e)) => return Verdict::unknown(format!("bmc: cannot start the solver {}: {e}", config.solver)),
    };
    let mut frames = vec![Frame::at(0, &vars)];
    solver.assert(&eq(&frames[0].pc, &int(automaton.initial() as i64)));
    // the states the automaton can be in after `k` letters
    let mut frontier = BTreeSet::from([automaton.initial()]);
    let mut unconfirmed: Option<Unknown> = None;
    let mut k = 0;
    loop {
        stats.bmc_depth = k;
        if let Some(why) = stopped(config) {
            return unconfirmed.map_or_else(|| Verdict::unknown(no_error_within(why, k)), Verdict::Unknown);
        }
        let reached: Vec<usize> = frontier.iter().copied().filter(|&s| is_error(s)).collect();
        if !reached.is_empty() {
            let at_error = or(&reached.iter().map(|&s| eq(&frames[k].pc, &int(s as i64))).collect::<Vec<_>>());
            solver.push();
            solver.assert(&at_error);
            let found = errors_at(entry, a, &frames, solver.as_mut(), checker.as_mut(), config, stats, &mut unconfirmed);
            solver.pop();
            if let Some(v) = found {
                return v;
            }
        }
        let next = Frame::at(k + 1, &vars);
        let mut steps = vec![];
        let mut successors = BTreeSet::new();
        for &s in &frontier {
            let transitions = match automaton.successors(s, None) {
                Ok(t) => t,
                Err(why) => return Verdict::unknown(format!("bmc: {why}")),
            };
            for (l, d) in transitions {
                let body = rename_step(&letters[l].formula, &frames[k].vars, &next.vars, &mut |x| {
                    Term::var(&format!("{}@bmcaux{k}", x.var_name().unwrap_or("v")), x.sort.clone())
                });
                let mut conj =
                    vec![eq(&frames[k].pc, &int(s as i64)), eq(&next.pc, &int(d as i64)), eq(&frames[k].letter, &int(l as i64)), body];
                conj.extend(kept[l].iter().map(|&x| eq(&next.vars[x], &frames[k].vars[x])));
                steps.push(and(&conj));
                successors.insert(d);
            }
        }
        if steps.is_empty() {
            let ended = format!("bmc: no execution is longer than {k} letters and none reaches an error (bmc does not prove)");
            return unconfirmed.map_or_else(|| Verdict::unknown(ended), Verdict::Unknown);
        }
        solver.assert(&or(&steps));
        frames.push(next);
        frontier = successors;
        k += 1;
    }
}

/// Why the unrolling ended at depth `k` without an error.
fn no_error_within(why: &str, k: usize) -> String {
    format!("bmc: {why}: no error path of fewer than {k} letters")
}

/// Why the run must stop now, if it must.
fn stopped(config: &Config) -> Option<&'static str> {
    QueryBudget::of(config).stopped()
}

/// Asks for an error at the last frame: the verdict if the search ends (a confirmed FALSE, or
/// the solver giving up). Words the exact check does not confirm are blocked; the reason of the
/// first is kept in `unconfirmed` (the answer can then be UNKNOWN at best).
#[allow(clippy::too_many_arguments)]
fn errors_at(
    entry: &str,
    a: &dyn Abstraction,
    frames: &[Frame],
    solver: &mut dyn Solver,
    checker: &mut dyn Solver,
    config: &Config,
    stats: &mut Stats,
    unconfirmed: &mut Option<Unknown>,
) -> Option<Verdict> {
    let k = frames.len() - 1;
    for _ in 0..MAX_UNCONFIRMED_PER_DEPTH {
        solver.set_timeout_ms(config.deadline.map_or(0, |d| d.saturating_duration_since(Instant::now()).as_millis().max(1) as u64));
        match solver.check() {
            SatResult::Unsat => return None,
            SatResult::Unknown(why) => {
                // the check's limit is the time left: an interrupted check is the run's timeout
                let why = match stopped(config) {
                    Some(s) => s.to_string(),
                    None if why == "canceled" => "timeout".to_string(),
                    None => format!("the solver gave up ({why})"),
                };
                return Some(unconfirmed.take().map_or_else(|| Verdict::unknown(no_error_within(&why, k)), Verdict::Unknown));
            }
            SatResult::Sat => {}
        }
        // the word, its target, and the values after each step (hints for the exact check)
        let states = frames[1..].iter().flat_map(|f| f.vars.values().cloned());
        let asked: Vec<Term> = frames.iter().map(|f| f.letter.clone()).take(k).chain([frames[k].pc.clone()]).chain(states).collect();
        let model = solver.model(&asked).ok()?;
        let value = |t: &Term| model.get(t).and_then(|v| v.as_int()).and_then(|v| usize::try_from(v).ok());
        let word: Option<Vec<usize>> = asked[..k].iter().map(value).collect();
        let (Some(word), Some(target)) = (word, value(&asked[k])) else { return Some(Verdict::unknown("bmc: the model has no word")) };
        let hints: Vec<Vec<(Term, Term)>> =
            frames[1..].iter().map(|f| f.vars.iter().filter_map(|(x, v)| Some((x.clone(), model.get(v)?.clone()))).collect()).collect();
        let hints: Vec<&[(Term, Term)]> = hints.iter().map(Vec::as_slice).collect();
        stats.trace_checks += 1;
        let trace: Vec<TransFormula> = word.iter().map(|&l| a.letters()[l].formula.clone()).collect();
        checker.set_timeout_ms(config.exact_recheck_ms());
        if let TraceCheck::Feasible(values) = check_scoped_trace_with_hints(&trace, None, checker, &hints) {
            match cegar::counterexample(entry, a, &word, target, &values, checker, config) {
                Verdict::Unknown(u) => {
                    unconfirmed.get_or_insert(u);
                }
                v => return Some(v),
            }
        }
        let same = and(&asked[..k].iter().zip(&word).map(|(t, &l)| eq(t, &int(l as i64))).collect::<Vec<_>>());
        solver.assert(&not(&same));
    }
    None
}
