//! The CEGAR loop of trace abstraction, once for every kind of abstraction. Each iteration takes
//! a shortest error word of the current abstraction (the program automaton minus all
//! interpolant automata so far), checks it, and either reports it (feasible: a counterexample
//! of source steps) or subtracts the interpolant automata of the assertion sequences the
//! configured source gives for it. What differs between flat words, nested words and the
//! interleavings of threads is behind [`Abstraction`]; everything else is here.

use crate::annotation::Proof;
use crate::budget::QueryBudget;
use crate::cex::Choices;
use crate::predicate_dfa::{PredicateDfa, Shared};
use crate::sources::Session;
use crate::{cex, CexStep, Config, Counterexample, Retry, Stats, Unknown, Verdict};
use automata::{Interrupted, LazyDfa, LazyDnwa, NestedReach, Nwa};
use ir::{Block, Cfg, Edge, ReturnLetter, Stmt, TransFormula, Violation};
use refine::nested::{Nesting, StepKind};
use refine::portfolio::PathProgram;
use refine::source::Infeasible;
use refine::{check_scoped_trace, check_scoped_trace_with_hints, TraceCheck};
use smt::{Solver, Term};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;
use std::time::Instant;

/// A letter of the program automaton: a statement with its semantics and where it comes from.
pub(crate) struct Letter {
    pub(crate) stmt: Stmt,
    /// The statement's transition formula.
    pub(crate) formula: TransFormula,
    /// Internal, call, or a return with its semantics.
    pub(crate) kind: Kind,
    /// The (large-block) edge the letter labels.
    pub(crate) edge: Edge,
    /// The CFG of the edge (see [`Abstraction::original`]).
    pub(crate) cfg: usize,
    /// The letter as a block of original edges (made once: its edges keep their transition
    /// formulas for every counterexample through them).
    block: Block,
}

impl Letter {
    pub(crate) fn new(stmt: Stmt, kind: Kind, edge: &Edge, cfg: usize) -> Letter {
        // An internal letter is its edge's statement, whose formula the edge keeps.
        let formula = match kind {
            Kind::Internal => edge.trans_formula().clone(),
            _ => stmt.trans_formula(),
        };
        // a call or return letter's own statement at the call's edge
        let block = match kind {
            Kind::Internal => edge.as_block(),
            _ => {
                let mut e = edge.with_stmt(stmt.clone());
                e.block = None;
                Block::Edge(Box::new(e))
            }
        };
        Letter { formula, stmt, kind, edge: edge.clone(), cfg, block }
    }

    /// The letter as a block of original edges: an internal letter's composed edges, a call or
    /// return letter's own statement at the call's edge.
    fn block(&self) -> Block {
        self.block.clone()
    }
}

/// What a letter does to the call stack.
#[derive(Clone)]
pub(crate) enum Kind {
    Internal,
    Call,
    Return(ReturnLetter),
}

/// The return letters' semantics and the variables that are not global, of nested words.
pub(crate) type Scopes = (HashMap<usize, ReturnLetter>, BTreeSet<Term>);

/// An error word and the state of the program automaton it ends in.
pub(crate) type ErrorWord = (Vec<usize>, usize);

/// A kind of abstraction the loop refines: the program automaton and how its words are
/// searched, checked and refined.
pub(crate) trait Abstraction {
    /// The letters of the program automaton.
    fn letters(&self) -> &[Letter];
    /// The violation at a state of the program automaton, if it is an error location.
    fn violation(&self, state: usize) -> Option<Violation>;
    /// The CFG before large-block encoding that a letter's edge belongs to.
    fn original(&self, cfg: usize) -> &Cfg;
    /// For a letter of a concurrent program: the thread that takes it and the thread it starts.
    fn thread_of(&self, _letter: usize) -> Option<(usize, Option<usize>)> {
        None
    }
    /// A shortest error word of the difference with `dfas`, `None` if the difference is empty.
    fn error_word(
        &self,
        dfas: &mut [PredicateDfa],
        interrupt: &mut dyn FnMut(usize) -> Option<String>,
    ) -> Result<Option<ErrorWord>, Interrupted>;
    /// How the calls and returns of a sequence of letters nest (`None`: a flat word).
    fn nesting(&self, letters: &[usize]) -> Option<Nesting>;
    /// The locations a word runs through, where the sources may use its path program (flat
    /// words: the portfolio's perfectness, interval invariants).
    fn path(&self, word: &[usize]) -> Option<Vec<usize>>;
    /// Stops accepting at `state`, a location beyond a bound of the model (such as the number of
    /// thread instances) that a feasible trace reached; whether it did (`false`: the state stays).
    fn set_aside(&self, _state: usize) -> bool {
        false
    }
    /// The return letters' semantics and every variable that is not global (empty for flat
    /// words and interleavings).
    fn scopes(&self) -> Scopes {
        Scopes::default()
    }
    /// The variables that are dead after each letter and that a search may forget (none:
    /// every variable counts).
    fn dead_after(&self, _letter: usize) -> &[Term] {
        &[]
    }
    /// The program automaton's states as an engine that searches them one at a time asks for
    /// them (without calls and returns for flat words and interleavings).
    fn states(&self) -> Box<dyn States + '_>;
    /// The checked proof of a TRUE answer from reachable states of the automaton (state
    /// `(s, _)` is at state `s` of it) with a formula for each (over the variables in scope).
    fn reach_proof(&self, entry: &str, reach: &NestedReach, annotation: &[Term], config: &Config) -> Proof;
    /// The Floyd–Hoare annotation of an empty difference, checked (`None` if time ran out).
    fn proof(&self, entry: &str, dfas: &mut [PredicateDfa], shared: &Rc<RefCell<Shared>>, config: &Config) -> Option<Proof>;
}

/// A program automaton whose states an engine searches one at a time.
pub(crate) trait States {
    fn initial(&self) -> usize;
    /// The internal and call letters that leave `state` with their targets, and the return
    /// letters to the call letter `pending`; an error if they cannot be known.
    fn successors(&self, state: usize, pending: Option<usize>) -> Result<Vec<(usize, usize)>, String>;
    fn accepting(&self, state: usize) -> bool;
    /// Whether a search may reach `state` by more than one path (`false` only where one
    /// transition enters it and it is not the initial state).
    fn join(&self, state: usize) -> bool;
}

/// An automaton built whole as [`States`].
pub(crate) struct Explicit {
    nwa: Nwa,
    joins: Vec<bool>,
}

impl Explicit {
    pub(crate) fn new(nwa: Nwa) -> Explicit {
        let mut incoming = vec![0usize; nwa.accepting.len()];
        let internal = nwa.internal.iter().chain(&nwa.calls).flatten().map(|&(_, t)| t);
        for t in internal.chain(nwa.returns.iter().flatten().map(|&(_, _, t)| t)) {
            incoming[t] += 1;
        }
        let joins = incoming.iter().enumerate().map(|(q, &n)| n > 1 || q == nwa.initial).collect();
        Explicit { nwa, joins }
    }
}

impl States for Explicit {
    fn initial(&self) -> usize {
        self.nwa.initial
    }

    fn successors(&self, state: usize, pending: Option<usize>) -> Result<Vec<(usize, usize)>, String> {
        let internal = self.nwa.internal[state].iter().chain(&self.nwa.calls[state]).copied();
        let returns = self.nwa.returns[state].iter().filter(|(call, _, _)| Some(*call) == pending).map(|&(_, r, t)| (r, t));
        Ok(internal.chain(returns).collect())
    }

    fn accepting(&self, state: usize) -> bool {
        self.nwa.accepting[state]
    }

    fn join(&self, state: usize) -> bool {
        self.joins[state]
    }
}

/// The nesting of a sequence of letters of these kinds (returns matched with calls by a stack).
pub(crate) fn nesting_of<'k>(kinds: impl Iterator<Item = &'k Kind>, globals: &BTreeSet<Term>, locals: &BTreeSet<Term>) -> Nesting {
    let mut stack = vec![];
    let mut steps = vec![];
    for (i, kind) in kinds.enumerate() {
        steps.push(match kind {
            Kind::Internal => StepKind::Internal,
            Kind::Call => {
                stack.push(i);
                StepKind::Call
            }
            Kind::Return(r) => StepKind::Return { call: stack.pop().unwrap_or(0), letter: r.clone() },
        });
    }
    Nesting { kinds: steps, globals: globals.clone(), locals: locals.clone() }
}

/// Why a refinement whose sequences do not reject the word ends the run.
pub(crate) const NO_PROGRESS: &str = "refinement made no progress: the solver could not show that the new assertions reject the trace";

/// Runs `f`, adding its time in milliseconds to `acc`.
pub(crate) fn timed<T>(acc: &mut u128, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let r = f();
    *acc += t.elapsed().as_millis();
    r
}

/// Runs trace abstraction on `a` for the entry procedure `entry`; for TRUE also the proof (if
/// time allows).
pub(crate) fn run(entry: &str, a: &dyn Abstraction, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
    let letters: Vec<TransFormula> = a.letters().iter().map(|l| l.formula.clone()).collect();
    let mut session = match Session::start(config, letters, a.scopes()) {
        Ok(s) => s,
        Err(e) => return (Verdict::unknown(e), None),
    };
    let mut dfas: Vec<PredicateDfa> = vec![];
    let mut beyond = None;
    let verdict = loop {
        if let Some(why) = session.budget.stopped() {
            break Verdict::unknown(why);
        }
        session.refiner.set_timeout_ms(session.budget.next_ms());
        stats.iterations += 1;
        let search = timed(&mut stats.time_abstraction_ms, || a.error_word(&mut dfas, &mut |_| session.budget.stopped().map(String::from)));
        let (word, target) = match search {
            Err(i) => break Verdict::unknown(i.0),
            Ok(None) => break Verdict::Safe,
            Ok(Some(w)) => w,
        };
        let trace: Vec<TransFormula> = word.iter().map(|&l| a.letters()[l].formula.clone()).collect();
        let nesting = a.nesting(&word);
        tracing::debug!(iteration = stats.iterations, length = word.len(), "error trace {:?}", word);
        stats.trace_checks += 1;
        let check = timed(&mut stats.time_trace_check_ms, || check_scoped_trace(&trace, nesting.as_ref(), session.refiner.trace.as_mut()));
        match check {
            TraceCheck::Unknown(r) => break Verdict::unknown(session.budget.give_up(format!("trace check: {r}"))),
            TraceCheck::Feasible(model) => match counterexample(entry, a, &word, target, &model, session.refiner.trace.as_mut(), config) {
                // a location beyond the model's bounds: no proof can exist any more, but an
                // error elsewhere may still be found
                Verdict::Unknown(u) if a.set_aside(target) => {
                    beyond.get_or_insert(u);
                }
                v => break v,
            },
            TraceCheck::Infeasible { core } => {
                let started = Instant::now();
                let locs = a.path(&word);
                let path = locs.as_ref().map(|locs| PathProgram { letters: &word, locs });
                let sequences =
                    session.refiner.sequences(&Infeasible { trace: &trace, core: &core }, path.as_ref(), nesting.as_ref(), stats);
                stats.time_sequence_ms += started.elapsed().as_millis();
                let sequences = match sequences {
                    Ok(s) => s,
                    Err(e) => break Verdict::unknown(session.budget.give_up(format!("refinement failed: {e}"))),
                };
                let before = dfas.len();
                for seq in sequences {
                    tracing::debug!(source = %seq.source_used, "sequence: {}", seq.preds.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("  |  "));
                    let mut dfa = PredicateDfa::new(&seq.preds, session.shared.clone());
                    if rejects(&mut dfa, a.letters(), &word) {
                        dfas.push(dfa);
                    } else {
                        tracing::debug!("the sequence's automaton does not reject the trace");
                    }
                }
                if dfas.len() == before {
                    break Verdict::unknown(session.budget.give_up(NO_PROGRESS));
                }
            }
        }
    };
    session.add_stats(&dfas, stats);
    let verdict = match (verdict, beyond) {
        (Verdict::Safe, Some(u)) => Verdict::Unknown(u),
        (v, _) => v,
    };
    let proof = match verdict {
        Verdict::Safe => a.proof(entry, &mut dfas, &session.shared, config),
        _ => None,
    };
    (verdict, proof)
}

/// The counterexample of a feasible error word, as source steps where the solver resolves the
/// large blocks (UNKNOWN if the word passes an over-approximation that the exact statements do
/// not confirm). The values of `model`, the word's trace check, are the hints of those checks:
/// a block of a thousand constraints is solved once, not again for its source steps.
pub(crate) fn counterexample(
    entry: &str,
    a: &dyn Abstraction,
    word: &[usize],
    target: usize,
    model: &refine::Counterexample,
    solver: &mut dyn Solver,
    config: &Config,
) -> Verdict {
    let hints = model_hints(model);
    counterexample_with_hints(entry, a, word, target, model, Confirmation::Solver(&hints), solver, config, Choices::Matter)
}

/// The values of a trace check's model after each step, as hints.
pub(crate) fn model_hints(model: &refine::Counterexample) -> Vec<Vec<(Term, Term)>> {
    model.states.iter().skip(1).map(|values| values.iter().map(|(x, v)| (x.clone(), v.clone())).collect()).collect()
}

/// Values that variables hold after each letter of a word (`hints[i]`: after letter `i`), as a
/// search that ran the word computed them; they speed up its checks without changing them
/// ([`refine::check_scoped_trace_with_hints`]).
pub(crate) type Hints = [Vec<(Term, Term)>];

/// How the source steps of an error word are confirmed.
pub(crate) enum Confirmation<'h> {
    /// By trace checks of the solver, helped by hints (empty: none).
    Solver(&'h Hints),
    /// By a run of the word on known values alone that evaluated each letter's formula on the
    /// values before and after it: the values each letter wrote (`[i]`: letter `i`'s).
    Ran(&'h [BTreeMap<Term, Term>]),
}

/// [`counterexample`], confirmed as `how` says.
#[allow(clippy::too_many_arguments)]
pub(crate) fn counterexample_with_hints(
    entry: &str,
    a: &dyn Abstraction,
    word: &[usize],
    target: usize,
    model: &refine::Counterexample,
    how: Confirmation,
    solver: &mut dyn Solver,
    config: &Config,
    choices: Choices,
) -> Verdict {
    let Some(violation) = a.violation(target) else {
        return Verdict::unknown("error trace ends at a location without a violation");
    };
    if violation.kind == ir::ViolationKind::ThreadLimit {
        // the trace is feasible: a run of the program has more threads than the model
        let n = config.thread_instances;
        return Verdict::Unknown(Unknown {
            reason: format!(
                "more threads than instances: a run starts more than {n} threads of one procedure at once (--thread-instances)"
            ),
            retry: Some(Retry::MoreThreadInstances),
        });
    }
    let letters = a.letters();
    let overapprox = word.iter().find_map(|&l| letters[l].edge.overapprox.clone());
    if overapprox.is_some() {
        solver.set_timeout_ms(config.exact_recheck_ms());
    }
    // Each step is tagged with its letter and its position in the word: the pieces of a block
    // inherit both, and the last piece takes the block's hints.
    let steps = word.iter().enumerate().map(|(i, &l)| (letters[l].block(), (l, i))).collect();
    // Resolving a long trace's blocks takes a check per choice: past the engine's time the
    // answer keeps the letters (the trace is feasible; only its source steps are missing).
    let budget = QueryBudget::of(config);
    let check: &mut cex::TraceChecker<(usize, usize)> = &mut |tfs, tags| {
        let last_piece = |j: usize| tags.get(j + 1).is_none_or(|next| next.1 != tags[j].1);
        let hints = match (&how, budget.stopped()) {
            (Confirmation::Solver(_), Some(why)) => return TraceCheck::Unknown(why.to_string()),
            (Confirmation::Solver(hints), None) => hints,
            // (letters of one statement each: the word's steps are its letters; no solver
            // query, so past the engine's time too)
            (Confirmation::Ran(wrote), _) if tags.len() == wrote.len() && (0..tags.len()).all(last_piece) => {
                let states = std::iter::once(BTreeMap::new()).chain(tags.iter().map(|t| wrote[t.1].clone())).collect();
                return TraceCheck::Feasible(refine::Counterexample { states });
            }
            (Confirmation::Ran(_), _) => return TraceCheck::Unknown("a run's steps are not single statements".into()),
        };
        let nesting = a.nesting(&tags.iter().map(|t| t.0).collect::<Vec<_>>());
        let step_hints: Vec<&[(Term, Term)]> =
            (0..tags.len()).map(|j| if last_piece(j) { hints.get(tags[j].1).map_or(&[][..], |h| &h[..]) } else { &[] }).collect();
        check_scoped_trace_with_hints(tfs, nesting.as_ref(), solver, &step_hints)
    };
    let origin = |&(l, _): &(usize, usize)| cex::Origin { cfg: a.original(letters[l].cfg), thread: a.thread_of(l) };
    let (initial, steps, source_steps) = match cex::source_counterexample(steps, &origin, check, overapprox, choices) {
        Err(unconfirmed) => return Verdict::Unknown(unconfirmed),
        Ok(Some((initial, steps))) => (initial, steps, true),
        Ok(None) => (model.states.first().cloned().unwrap_or_default(), letter_steps(a, word, model), false),
    };
    Verdict::Unsafe(Box::new(Counterexample { entry: entry.to_string(), violation, initial, steps, source_steps, loop_start: None }))
}

/// The steps of an error word letter by letter (large blocks unresolved), with the trace
/// check's values.
fn letter_steps(a: &dyn Abstraction, word: &[usize], model: &refine::Counterexample) -> Vec<CexStep> {
    let step = |(i, &l): (usize, &usize)| {
        let info = &a.letters()[l];
        let thread = a.thread_of(l);
        CexStep {
            pos: info.edge.pos.clone(),
            stmt: info.stmt.clone(),
            values: model.states.get(i + 1).cloned().unwrap_or_default(),
            assigned: info.formula.assigned_vars().into_iter().collect(),
            branch: None,
            nondet: None,
            function: None,
            thread: thread.map(|(t, _)| t),
            starts_thread: thread.and_then(|(_, s)| s),
        }
    };
    word.iter().enumerate().map(step).collect()
}

/// Whether the automaton reaches its accepting sink on the (nested) word: it proves the word
/// infeasible.
pub(crate) fn rejects(dfa: &mut PredicateDfa, letters: &[Letter], word: &[usize]) -> bool {
    let mut stack = vec![];
    let mut state = dfa.initial();
    for &l in word {
        let Some(s) = state else { return true };
        state = match &letters[l].kind {
            Kind::Internal => dfa.successor(s, l),
            Kind::Call => {
                stack.push(s);
                dfa.successor(s, l)
            }
            Kind::Return(..) => match stack.pop() {
                Some(h) => dfa.return_successor(s, h, l),
                None => return false,
            },
        };
    }
    state.is_none()
}
