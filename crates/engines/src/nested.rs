//! Trace abstraction on nested words: the CEGAR loop for an entry that reaches recursion.
//!
//! The program is a nested word automaton over the CFGs of [`ir::NestedProgram`] (each
//! large-block encoded on its own): a CFG edge with a statement is an internal letter, a `Call`
//! edge is a call letter (to the callee's entry) and a return letter (from the callee's exit
//! back to the edge's target, matched with that call). Error traces are nested words; their
//! feasibility is decided with the scoped SSA, and infeasible ones are cut away by interpolant
//! automata with return transitions `{p ∧ h} return {q}` ([`PredicateDfa`] as [`LazyDnwa`]).

use crate::annotation::{self, marks_of, Mark, Proof};
use crate::automizer::{timed, Solvers};
use crate::cex;
use crate::predicate_dfa::{PredicateDfa, QueryBudget, Shared};
use crate::{CexStep, Config, Counterexample, Stats, Unknown, Verdict};
use automata::{nested_reachable_in_difference, nested_word_in_difference, LazyDfa, LazyDnwa, NestedEmptiness, NestedReach, Nwa};
use ir::{Block, Cfg, Edge, Label, NestedProgram, ReturnLetter, Stmt, TransFormula};
use refine::farkas::farkas_nested_sequence;
use refine::hoare::check_triple;
use refine::nested::{newton_nested, weaken_nested, Nesting, StepKind};
use refine::newton::Transformer;
use refine::{check_scoped_trace, count_quantified, HoareChecker, RefineError, Sequence, Source, TraceCheck, Validity};
use smt::build::and;
use smt::simplify::simplify;
use smt::z3backend::Z3Solver;
use smt::{Solver, Term};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;
use std::time::Instant;

/// What a letter is and where it comes from.
struct LetterInfo {
    stmt: Stmt,
    /// The statement's transition formula.
    formula: TransFormula,
    /// Internal, call, or a return with its semantics.
    kind: Kind,
    edge: Edge,
    /// The CFG of the edge (an index into [`Program::originals`]).
    cfg: usize,
}

impl LetterInfo {
    fn new(stmt: Stmt, kind: Kind, edge: &Edge, cfg: usize) -> LetterInfo {
        LetterInfo { formula: stmt.trans_formula(), stmt, kind, edge: edge.clone(), cfg }
    }
}

#[derive(Clone)]
enum Kind {
    Internal,
    Call,
    Return(ReturnLetter),
}

/// The nested word automaton of the program and its letters.
struct Program {
    nwa: Nwa,
    letters: Vec<LetterInfo>,
    /// The location (in the automaton's numbering) of each state, for error lookups.
    locs: Vec<ir::Location>,
    /// The locations whose invariants a TRUE answer reports: loop heads, and the entry and
    /// exit of each recursive procedure.
    marks: Vec<Mark>,
    /// The CFGs before large-block encoding: the entry's, then each procedure's.
    originals: Vec<Cfg>,
}

fn build(np: &NestedProgram, config: &Config) -> Result<Program, String> {
    let encode = |c: &Cfg| crate::encode(c, config);
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
                    letters.push(LetterInfo::new(s.clone(), Kind::Internal, e, k));
                }
                Label::Call(call) => {
                    let &(entry, exit) = bounds.get(call.callee.as_str()).ok_or_else(|| format!("call of {} has no CFG", call.callee))?;
                    let stmt = np.call_stmt(call).map_err(|e| e.to_string())?;
                    let ret = np.return_letter(call).map_err(|e| e.to_string())?;
                    let (cl, rl) = (letters.len(), letters.len() + 1);
                    nwa.calls[src].push((cl, entry));
                    nwa.returns[exit].push((cl, rl, dst));
                    letters.push(LetterInfo::new(stmt, Kind::Call, e, k));
                    let assign = Stmt::Assign(ret.assign.clone());
                    letters.push(LetterInfo::new(assign, Kind::Return(ret), e, k));
                }
            }
        }
    }
    Ok(Program { nwa, letters, locs, marks, originals })
}

/// The nesting of a word (returns matched with their calls by a stack).
fn nesting_of(p: &Program, word: &[usize], globals: &BTreeSet<Term>, locals: &BTreeSet<Term>) -> Nesting {
    nesting_of_kinds(word.iter().map(|&l| &p.letters[l].kind), globals, locals)
}

/// The nesting of a sequence of steps of these kinds.
fn nesting_of_kinds<'k>(kinds: impl Iterator<Item = &'k Kind>, globals: &BTreeSet<Term>, locals: &BTreeSet<Term>) -> Nesting {
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

/// The counterexample of a feasible nested error trace as source steps (the large blocks'
/// branches resolved by the solver, see [`cex::source_counterexample`]): `Ok(None)` if the
/// solver could not resolve them, `Err` if the trace passes through an over-approximation that
/// the exact statements do not confirm.
fn source_steps(
    p: &Program,
    word: &[usize],
    np: &NestedProgram,
    locals: &BTreeSet<Term>,
    solver: &mut dyn Solver,
) -> Result<Option<cex::SourceSteps>, Unknown> {
    let overapprox = word.iter().find_map(|&l| p.letters[l].edge.overapprox.clone());
    let steps: Vec<(Block, (Kind, usize))> = word
        .iter()
        .map(|&l| {
            let info = &p.letters[l];
            let block = match info.kind {
                Kind::Internal => info.edge.as_block(),
                // A call or return letter: its own statement at the call's edge.
                _ => Block::Edge(Box::new(Edge { label: Label::Stmt(info.stmt.clone()), block: None, ..info.edge.clone() })),
            };
            (block, (info.kind.clone(), info.cfg))
        })
        .collect();
    let check: &mut cex::TraceChecker<(Kind, usize)> = &mut |tfs, tags| {
        let nesting = nesting_of_kinds(tags.iter().map(|(k, _)| k), &np.globals, locals);
        check_scoped_trace(tfs, Some(&nesting), solver)
    };
    cex::source_counterexample(steps, &|(_, k)| &p.originals[*k], check, overapprox)
}

/// The sources run on a nested trace for the configured one (the portfolio: Craig's tree
/// interpolants, it-sp-lv, sp-lv and it-wp, every sequence kept) and the source to fall back to
/// when none of them gives a sequence: `craig` falls back to it-sp-lv where Farkas does not
/// apply, `craig-smtlib` and `intervals` always (binary interpolants and path programs of one
/// procedure do not fit nested traces).
fn nested_sources(source: Source) -> (Vec<Source>, Option<Source>) {
    match source {
        Source::Portfolio => (vec![Source::Craig, Source::NewtonItSpLv, Source::NewtonSpLv, Source::NewtonItWp], None),
        Source::Craig => (vec![Source::Craig], Some(Source::NewtonItSpLv)),
        Source::CraigSmtLib | Source::Intervals => (vec![], Some(Source::NewtonItSpLv)),
        newton => (vec![newton], None),
    }
}

/// The assertion sequence of one source for an infeasible nested trace.
fn nested_sequence(
    source: Source,
    steps: &[TransFormula],
    nesting: &Nesting,
    core: &BTreeSet<usize>,
    solver: &mut dyn Solver,
) -> Result<Vec<Term>, RefineError> {
    match source.newton_options() {
        Some(opts) => Ok(newton_nested(steps, nesting, core, opts, solver)?.preds),
        None => farkas_nested_sequence(steps, nesting, core, solver),
    }
}

/// Adds a sequence unless an equal one is there.
fn push_new(sequences: &mut Vec<Sequence>, preds: Vec<Term>, source_used: Source, fallback: Option<String>) {
    if !sequences.iter().any(|q| q.preds == preds) {
        sequences.push(Sequence { quantified: count_quantified(&preds), preds, source_used, fallback });
    }
}

/// Runs trace abstraction on nested words for the entry `entry`; for TRUE also the proof (if
/// time allows).
pub fn verify_nested(entry: &str, np: &NestedProgram, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
    let p = match build(np, config) {
        Ok(p) => p,
        Err(e) => return (Verdict::unknown(format!("{entry}: {e}")), None),
    };
    let formulas: Vec<TransFormula> = p.letters.iter().map(|l| l.formula.clone()).collect();
    let mut locals: BTreeSet<Term> = np.locals.clone();
    for tf in &formulas {
        locals.extend(tf.in_vars.keys().chain(tf.out_vars.keys()).filter(|x| !np.globals.contains(*x)).cloned());
    }
    let returns: HashMap<usize, ReturnLetter> = p
        .letters
        .iter()
        .enumerate()
        .filter_map(|(i, l)| match &l.kind {
            Kind::Return(r) => Some((i, r.clone())),
            _ => None,
        })
        .collect();
    let budget = QueryBudget { per_query: config.query_timeout, deadline: config.deadline };
    let Solvers { mut trace, hoare, .. } = match Solvers::create(&Config { source: Source::NewtonItSpLv, ..config.clone() }) {
        Ok(s) => s,
        Err(e) => return (Verdict::unknown(e), None),
    };
    let shared = Rc::new(RefCell::new(Shared {
        letters: formulas.clone(),
        returns,
        locals: locals.clone(),
        hoare: HoareChecker::new(hoare),
        checks: 0,
        budget,
    }));
    let solver = trace.as_mut();
    let mut dfas: Vec<PredicateDfa> = vec![];
    let (sources, fallback) = nested_sources(config.source);
    let deadline = config.deadline;
    let verdict = loop {
        if budget.expired() {
            break Verdict::unknown("timeout");
        }
        solver.set_timeout_ms(budget.next_ms());
        stats.iterations += 1;
        let search = timed(&mut stats.time_abstraction_ms, || {
            let mut subs: Vec<&mut dyn LazyDnwa> = dfas.iter_mut().map(|d| d as &mut dyn LazyDnwa).collect();
            nested_word_in_difference(&p.nwa, &mut subs, &mut |_| {
                deadline.is_some_and(|d| Instant::now() >= d).then(|| "timeout".to_string())
            })
        });
        let (word, target) = match search {
            Err(i) => break Verdict::unknown(i.0),
            Ok(NestedEmptiness::Empty) => break Verdict::Safe,
            Ok(NestedEmptiness::Word { letters, target }) => (letters, target),
        };
        let steps: Vec<TransFormula> = word.iter().map(|&l| formulas[l].clone()).collect();
        let nesting = nesting_of(&p, &word, &np.globals, &locals);
        tracing::debug!(iteration = stats.iterations, length = word.len(), "nested error trace {:?}", word);
        stats.trace_checks += 1;
        let check = timed(&mut stats.time_trace_check_ms, || check_scoped_trace(&steps, Some(&nesting), solver));
        match check {
            TraceCheck::Unknown(r) => break Verdict::unknown(budget.give_up(format!("trace check: {r}"))),
            TraceCheck::Feasible(model) => {
                let Some(violation) = p.locs[target].error.clone() else {
                    break Verdict::unknown("error trace ends at a location without a violation");
                };
                if word.iter().any(|&l| p.letters[l].edge.overapprox.is_some()) {
                    solver.set_timeout_ms(config.exact_recheck_ms());
                }
                let (initial, steps, source_steps) = match source_steps(&p, &word, np, &locals, solver) {
                    Err(unconfirmed) => break Verdict::Unknown(unconfirmed),
                    Ok(Some((initial, steps))) => (initial, steps, true),
                    Ok(None) => (model.states.first().cloned().unwrap_or_default(), letter_steps(&p, &word, &model), false),
                };
                let cex = Counterexample { entry: entry.to_string(), violation, initial, steps, source_steps };
                break Verdict::Unsafe(Box::new(cex));
            }
            TraceCheck::Infeasible { core } => {
                let started = Instant::now();
                let mut sequences: Vec<Sequence> = vec![];
                let mut error = None;
                for &source in &sources {
                    match nested_sequence(source, &steps, &nesting, &core, solver) {
                        Ok(preds) => {
                            if source.newton_options().is_some_and(|o| o.transformer == Transformer::Sp && o.it) {
                                // Also the sequence without the conjuncts this trace does not need.
                                push_new(&mut sequences, weaken_nested(&preds, &steps, &nesting, solver, 200), source, None);
                            }
                            push_new(&mut sequences, preds, source, None);
                        }
                        Err(e) => {
                            tracing::debug!("{source}: {e}");
                            error = Some(e)
                        }
                    }
                }
                if let (true, Some(fallback)) = (sequences.is_empty(), fallback) {
                    let why = match &error {
                        Some(e) => format!("{}: {e}", config.source),
                        None => format!("{}: nested trace", config.source),
                    };
                    stats.fallbacks += 1;
                    stats.first_fallback.get_or_insert_with(|| why.clone());
                    match nested_sequence(fallback, &steps, &nesting, &core, solver) {
                        Ok(preds) => push_new(&mut sequences, preds, fallback, Some(why)),
                        Err(e) => error = Some(e),
                    }
                }
                stats.time_sequence_ms += started.elapsed().as_millis();
                stats.sequences += sequences.len();
                let before = dfas.len();
                for seq in sequences {
                    stats.quantified_predicates += seq.quantified;
                    tracing::debug!("nested sequence: {}", seq.preds.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("  |  "));
                    let mut dfa = PredicateDfa::new(&seq.preds, shared.clone());
                    if rejects(&mut dfa, &p, &word) {
                        dfas.push(dfa);
                    } else {
                        tracing::debug!("the sequence's automaton does not reject the trace");
                    }
                }
                if dfas.len() == before {
                    break Verdict::unknown(budget.give_up(match error {
                        Some(e) => format!("refinement failed: {e}"),
                        None => "refinement made no progress on a nested trace".into(),
                    }));
                }
            }
        }
    };
    stats.hoare_checks += shared.borrow().checks;
    stats.hoare_solver_calls += shared.borrow().hoare.stats.solver_calls as usize;
    stats.abstraction_states += dfas.iter().map(|d| d.state_count()).sum::<usize>();
    stats.trace_solver += solver.stats();
    stats.hoare_solver += shared.borrow_mut().hoare.solver().stats();
    let proof = match verdict {
        Verdict::Safe => {
            // Not borrowed during the search: the automata may still ask `shared` for triples.
            let returns = shared.borrow().returns.clone();
            proof_of_safety(entry, &p, &mut dfas, &returns, &locals, deadline)
        }
        _ => None,
    };
    (verdict, proof)
}

/// The Floyd–Hoare annotation of an empty difference: each reachable product state is
/// annotated with the conjunction of its predicates; every transition the search took is
/// checked again as a Hoare triple with a fresh solver (a return together with the state at
/// its call), and no reachable state is at an error location. The invariant of a location is
/// the disjunction of its states' annotations. `None` if time ran out while collecting them.
fn proof_of_safety(
    entry: &str,
    p: &Program,
    dfas: &mut [PredicateDfa],
    returns: &HashMap<usize, ReturnLetter>,
    locals: &BTreeSet<Term>,
    deadline: Option<Instant>,
) -> Option<Proof> {
    let mut subs: Vec<&mut dyn LazyDnwa> = dfas.iter_mut().map(|d| d as &mut dyn LazyDnwa).collect();
    let reach = nested_reachable_in_difference(&p.nwa, &mut subs, &mut |_| {
        deadline.is_some_and(|d| Instant::now() >= d).then(|| "timeout".to_string())
    });
    let reach = reach.ok().flatten()?;
    let annotation: Vec<Term> = reach
        .states
        .iter()
        .map(|(_, ds)| simplify(&and(&dfas.iter().zip(ds).map(|(d, &s)| d.state_formula(s)).collect::<Vec<_>>())))
        .collect();
    let checked = check_nested(p, &reach, &annotation, returns, locals, deadline);
    let mut at: Vec<Vec<Term>> = vec![vec![]; p.locs.len()];
    for ((q, _), f) in reach.states.iter().zip(&annotation) {
        at[*q].push(f.clone());
    }
    let formulas = p.marks.iter().map(|m| annotation::simplified_disjunction(&at[m.loc], deadline));
    let invariants = p.marks.iter().zip(formulas).map(|(m, formula)| m.invariant(entry, formula)).collect();
    Some(Proof { invariants, checked })
}

/// Checks the annotation of the reachable states (see [`proof_of_safety`]); `None` when time
/// ran out.
fn check_nested(
    p: &Program,
    reach: &NestedReach,
    annotation: &[Term],
    returns: &HashMap<usize, ReturnLetter>,
    locals: &BTreeSet<Term>,
    deadline: Option<Instant>,
) -> Option<bool> {
    if reach.states.iter().any(|(q, _)| p.nwa.accepting[*q]) {
        return Some(false);
    }
    let mut solver = Z3Solver::new();
    let mut valid = |pre: &Term, tf: &TransFormula, post: &Term| -> Option<bool> {
        let left = annotation::millis_left(deadline, 10_000);
        if left == 0 {
            return None;
        }
        solver.set_timeout_ms(left);
        Some(matches!(check_triple(pre, tf, post, &mut solver), Validity::Valid))
    };
    for &(s, letter, t) in &reach.steps {
        if !valid(&annotation[s], &p.letters[letter].formula, &annotation[t])? {
            return Some(false);
        }
    }
    for r in &reach.returns {
        let Some(ret) = returns.get(&r.letter) else { return Some(false) };
        let tf = ret.formula(&annotation[r.hier], locals);
        if !valid(&annotation[r.state], &tf, &annotation[r.target])? {
            return Some(false);
        }
    }
    Some(true)
}

/// The steps of a nested error trace letter by letter (large blocks unresolved).
fn letter_steps(p: &Program, word: &[usize], model: &refine::Counterexample) -> Vec<CexStep> {
    word.iter()
        .enumerate()
        .map(|(i, &l)| {
            let info = &p.letters[l];
            CexStep {
                pos: info.edge.pos.clone(),
                stmt: info.stmt.clone(),
                values: model.states.get(i + 1).cloned().unwrap_or_default(),
                assigned: info.formula.assigned_vars().into_iter().collect(),
                branch: None,
                nondet: None,
                function: None,
            }
        })
        .collect()
}

/// Whether the automaton reaches its accepting sink on the nested word (it proves it infeasible).
fn rejects(dfa: &mut PredicateDfa, p: &Program, word: &[usize]) -> bool {
    let mut stack = vec![];
    let mut state = dfa.initial();
    for &l in word {
        let Some(s) = state else { return true };
        state = match &p.letters[l].kind {
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
