//! Trace abstraction (Automizer): the CEGAR loop over the program automaton. Each iteration
//! takes a shortest error trace of the current abstraction (the program automaton minus all
//! interpolant automata so far), checks it, and either reports it (feasible) or subtracts an
//! interpolant automaton built from an inductive assertion sequence for it.

use crate::annotation::{self, Proof};
use crate::predicate_dfa::{PredicateDfa, QueryBudget, Shared};
use crate::{cex, CexStep, Config, Counterexample, Stats, Verdict};
use automata::{reachable_in_difference, shortest_in_difference, Emptiness, LazyDfa, Nfa};
use ir::{Cfg, Label, TransFormula};
use refine::portfolio::{is_perfect, portfolio, PathProgram};
use refine::{assertion_sequence_with, check_trace, HoareChecker, RefineError, Sequence, Source, TraceCheck};
use smt::{SmtLibSolver, Solver};
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;
use std::time::Instant;

/// The CFG as an automaton whose letters are edge ids and whose accepting states are the
/// error locations.
fn program_automaton(cfg: &Cfg) -> Nfa {
    let mut transitions = vec![Vec::new(); cfg.locs.len()];
    for (i, e) in cfg.edges.iter().enumerate() {
        transitions[e.src].push((i, e.dst));
    }
    Nfa { initial: cfg.entry, transitions, accepting: cfg.locs.iter().map(|l| l.error.is_some()).collect() }
}

fn letter_formulas(cfg: &Cfg) -> Result<Vec<TransFormula>, String> {
    cfg.edges
        .iter()
        .map(|e| match &e.label {
            Label::Stmt(s) => Ok(s.trans_formula()),
            Label::Call(c) => Err(format!("call of {} was not expanded", c.callee)),
        })
        .collect()
}

pub(crate) fn timed<T>(acc: &mut u128, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let r = f();
    *acc += t.elapsed().as_millis();
    r
}

/// The steps of an error trace as the (large-block) edges themselves, with the trace check's values.
fn block_steps(edges: &[&ir::Edge], model: &refine::Counterexample) -> Vec<CexStep> {
    let step = |(i, e): (usize, &&ir::Edge)| {
        let stmt = e.stmt();
        let assigned = stmt.trans_formula().assigned_vars().into_iter().collect();
        let values = model.states.get(i + 1).cloned().unwrap_or_default();
        CexStep { pos: e.pos.clone(), stmt, values, assigned, branch: None, nondet: None, function: None }
    };
    edges.iter().enumerate().map(step).collect()
}

/// Runs trace abstraction on a prepared (call-free) CFG of the entry procedure `entry`:
/// `cfg` is the CFG the automaton is built from (large blocks or not), `original` the prepared
/// CFG before large-block encoding (its edges are the steps of a counterexample).
pub fn verify_cfg(entry: &str, original: &Cfg, cfg: &Cfg, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
    let letters = match letter_formulas(cfg) {
        Ok(l) => l,
        Err(e) => return (Verdict::unknown(e), None),
    };
    let nfa = program_automaton(cfg);
    let budget = QueryBudget { per_query: config.query_timeout, deadline: config.deadline };
    let Solvers { mut trace, hoare, mut interpolator } = match Solvers::create(config) {
        Ok(s) => s,
        Err(e) => return (Verdict::unknown(e), None),
    };
    let shared = Rc::new(RefCell::new(Shared {
        letters,
        returns: Default::default(),
        locals: Default::default(),
        hoare: HoareChecker::new(hoare),
        checks: 0,
        budget,
    }));
    let solver = trace.as_mut();
    let mut dfas: Vec<PredicateDfa> = vec![];
    let deadline = config.deadline;
    let verdict = loop {
        if budget.expired() {
            break Verdict::unknown("timeout");
        }
        solver.set_timeout_ms(budget.next_ms());
        if let Some(itp) = interpolator.as_mut() {
            itp.set_timeout_ms(budget.next_ms());
        }
        stats.iterations += 1;
        let search = timed(&mut stats.time_abstraction_ms, || {
            let mut subtrahends: Vec<&mut dyn LazyDfa> = dfas.iter_mut().map(|d| d as &mut dyn LazyDfa).collect();
            shortest_in_difference(&nfa, &mut subtrahends, &mut |_| {
                deadline.is_some_and(|d| Instant::now() >= d).then(|| "timeout".to_string())
            })
        });
        let (word, target) = match search {
            Err(i) => break Verdict::unknown(i.0),
            Ok(Emptiness::Empty) => break Verdict::Safe,
            Ok(Emptiness::Word { letters, target }) => (letters, target),
        };
        let trace: Vec<TransFormula> = word.iter().map(|&l| shared.borrow().letters[l].clone()).collect();
        tracing::debug!(iteration = stats.iterations, length = word.len(), "error trace {:?}", word);
        stats.trace_checks += 1;
        let check = timed(&mut stats.time_trace_check_ms, || check_trace(&trace, solver));
        match check {
            TraceCheck::Unknown(r) => break Verdict::unknown(budget.give_up(format!("trace check: {r}"))),
            TraceCheck::Feasible(model) => {
                let Some(violation) = cfg.locs[target].error.clone() else {
                    break Verdict::unknown("error trace ends at a location without a violation");
                };
                let overapprox = word.iter().find_map(|&l| cfg.edges[l].overapprox.clone());
                if overapprox.is_some() {
                    solver.set_timeout_ms(config.exact_recheck_ms());
                }
                let edges: Vec<&ir::Edge> = word.iter().map(|&l| &cfg.edges[l]).collect();
                let steps = edges.iter().map(|e| (e.as_block(), ())).collect();
                let check: &mut cex::TraceChecker<()> = &mut |tfs, _| check_trace(tfs, solver);
                let (initial, steps, source_steps) = match cex::source_counterexample(steps, &|_| original, check, overapprox) {
                    Err(unconfirmed) => break Verdict::Unknown(unconfirmed),
                    Ok(Some((initial, steps))) => (initial, steps, true),
                    Ok(None) => (model.states.first().cloned().unwrap_or_default(), block_steps(&edges, &model), false),
                };
                break Verdict::Unsafe(Box::new(Counterexample { entry: entry.to_string(), violation, initial, steps, source_steps }));
            }
            TraceCheck::Infeasible { core } => {
                let started = Instant::now();
                let sequences = sequences_for(config.source, &trace, &word, cfg, &core, (solver, interpolator.as_mut()), &shared, stats);
                stats.time_sequence_ms += started.elapsed().as_millis();
                let sequences = match sequences {
                    Ok(s) => s,
                    Err(e) => break Verdict::unknown(budget.give_up(format!("refinement failed: {e}"))),
                };
                let before = dfas.len();
                for seq in sequences {
                    tracing::debug!(source = %seq.source_used, "sequence: {}", seq.preds.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("  |  "));
                    let mut dfa = PredicateDfa::new(&seq.preds, shared.clone());
                    if accepts_run(&mut dfa, &word) {
                        dfas.push(dfa);
                    }
                }
                if dfas.len() == before {
                    break Verdict::unknown(
                        budget.give_up("refinement made no progress: the solver could not show that the new assertions reject the trace"),
                    );
                }
            }
        }
    };
    stats.hoare_checks += shared.borrow().checks;
    stats.hoare_solver_calls += shared.borrow().hoare.stats.solver_calls as usize;
    stats.abstraction_states += dfas.iter().map(|d| d.state_count()).sum::<usize>();
    stats.trace_solver += solver.stats();
    stats.hoare_solver += shared.borrow_mut().hoare.solver().stats();
    if let Some(itp) = &interpolator {
        stats.interpolator += itp.stats();
    }
    let proof = matches!(verdict, Verdict::Safe).then(|| proof_of_safety(entry, cfg, &nfa, &mut dfas, deadline)).flatten();
    (verdict, proof)
}

/// The loop invariants of an empty difference, from its reachable product states (`None` if
/// time ran out while collecting them).
fn proof_of_safety(entry: &str, cfg: &Cfg, nfa: &Nfa, dfas: &mut [PredicateDfa], deadline: Option<Instant>) -> Option<Proof> {
    let mut subtrahends: Vec<&mut dyn LazyDfa> = dfas.iter_mut().map(|d| d as &mut dyn LazyDfa).collect();
    let states = reachable_in_difference(nfa, &mut subtrahends, &mut |_| {
        deadline.is_some_and(|d| Instant::now() >= d).then(|| "timeout".to_string())
    });
    let states = states.ok().flatten()?;
    let inv = annotation::annotation(cfg, &states, dfas);
    Some(annotation::proof(entry, cfg, &inv, deadline))
}

/// The solver instances of a run: trace checks, Hoare triples, interpolants (craig-smtlib).
pub(crate) struct Solvers {
    pub(crate) trace: Box<dyn Solver>,
    pub(crate) hoare: Box<dyn Solver>,
    pub(crate) interpolator: Option<SmtLibSolver>,
}

impl Solvers {
    pub(crate) fn create(config: &Config) -> Result<Solvers, String> {
        let start = |what: &str| config.solver.create().map_err(|e| format!("cannot start the {what} solver {}: {e}", config.solver));
        let trace = start("trace-check")?;
        let hoare = start("Hoare-triple")?;
        let interpolator = if config.source == Source::CraigSmtLib {
            Some(SmtLibSolver::interpolating(&config.interpolator).map_err(|e| format!("cannot start the interpolating solver: {e}"))?)
        } else {
            None
        };
        Ok(Solvers { trace, hoare, interpolator })
    }
}

/// The assertion sequences for an infeasible trace from the configured source.
#[allow(clippy::too_many_arguments)]
fn sequences_for(
    source: Source,
    trace: &[TransFormula],
    word: &[usize],
    cfg: &Cfg,
    core: &BTreeSet<usize>,
    (solver, interpolator): (&mut dyn Solver, Option<&mut SmtLibSolver>),
    shared: &Rc<RefCell<Shared>>,
    stats: &mut Stats,
) -> Result<Vec<Sequence>, RefineError> {
    let mut locs = vec![cfg.entry];
    locs.extend(word.iter().map(|&l| cfg.edges[l].dst));
    let path = PathProgram { letters: word, locs: &locs };
    if source == Source::Portfolio {
        let result = portfolio(trace, &path, core, solver, &mut shared.borrow_mut().hoare)?;
        stats.sequences += result.computed;
        stats.perfect_sequences += result.perfect;
        stats.quantified_predicates += result.sequences.iter().map(|s| s.quantified).sum::<usize>();
        return Ok(result.sequences);
    }
    let seq = assertion_sequence_with(source, trace, core, solver, interpolator, Some(&path))?;
    stats.sequences += 1;
    // Counted for every source, as in the paper's comparison (the Hoare triples are cached for
    // the interpolant automaton, which needs most of them anyway).
    if is_perfect(&seq.preds, trace, &path, &mut shared.borrow_mut().hoare) {
        stats.perfect_sequences += 1;
    }
    if seq.source_used != source {
        stats.fallbacks += 1;
        if stats.first_fallback.is_none() {
            stats.first_fallback = seq.fallback.clone();
        }
    }
    stats.quantified_predicates += seq.quantified;
    Ok(vec![seq])
}

/// Whether the automaton reaches its accepting sink on the word (it proves the trace infeasible).
fn accepts_run(dfa: &mut PredicateDfa, word: &[usize]) -> bool {
    let mut state = dfa.initial();
    for &l in word {
        match state {
            None => return true,
            Some(s) => state = dfa.successor(s, l),
        }
    }
    state.is_none()
}
