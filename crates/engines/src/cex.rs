//! From a feasible error trace of large blocks to a counterexample of source steps: the solver
//! decides which branch of each `Choice` the execution took (a branch is kept when the trace
//! stays feasible with the choice replaced by it), then one more trace check over the original
//! edges gives the values after each step. The verdict does not depend on this: it comes from
//! the trace check of the large-block trace.
//!
//! Each step carries a tag `K` that the trace check needs (`()` for a trace of one procedure;
//! for a nested word, what kind of letter it is): the pieces of a block inherit its tag.

use crate::{CexStep, NondetValue, Retry, Unknown};
use ir::{Block, Cfg, Edge, Label, Stmt, TransFormula};
use refine::TraceCheck;
use smt::subst::conjuncts;
use smt::Term;
use std::collections::BTreeMap;

/// Decides the feasibility of a trace of formulas with the tags of its steps.
pub type TraceChecker<'a, K> = dyn FnMut(&[TransFormula], &[K]) -> TraceCheck + 'a;

/// A resolved counterexample: the values before the first step, and the source steps.
pub type SourceSteps = (BTreeMap<Term, Term>, Vec<CexStep>);

/// The original edges of a feasible trace of (possibly composed) steps, or `None` when the
/// solver could not decide a choice.
pub fn basic_path<K: Clone>(steps: Vec<(Block, K)>, check: &mut TraceChecker<K>) -> Option<Vec<(Edge, K)>> {
    let mut items: Vec<(Block, TransFormula, K)> = vec![];
    for (b, k) in steps {
        push_flat(&mut items, b, &k);
    }
    let mut i = 0;
    while i < items.len() {
        let branches = match &items[i].0 {
            Block::Edge(_) => {
                i += 1;
                continue;
            }
            Block::Seq(parts) => {
                let mut flat = vec![];
                parts.iter().for_each(|p| push_flat(&mut flat, p.clone(), &items[i].2));
                items.splice(i..=i, flat);
                continue;
            }
            Block::Choice(branches) => branches,
        };
        let tags: Vec<K> = items.iter().map(|(_, _, k)| k.clone()).collect();
        let branches = branches.clone();
        let mut chosen = None;
        let mut all_infeasible = true;
        for (k, b) in branches.iter().enumerate() {
            let tf = b.trans_formula();
            let last = k + 1 == branches.len();
            if last && all_infeasible {
                chosen = Some((b.clone(), tf, items[i].2.clone()));
                break;
            }
            let mut trace: Vec<TransFormula> = items.iter().map(|(_, t, _)| t.clone()).collect();
            trace[i] = tf.clone();
            match check(&trace, &tags) {
                TraceCheck::Feasible(_) => {
                    chosen = Some((b.clone(), tf, items[i].2.clone()));
                    break;
                }
                TraceCheck::Infeasible { .. } => {}
                TraceCheck::Unknown(_) => all_infeasible = false,
            }
        }
        items[i] = chosen?;
    }
    Some(items.into_iter().filter_map(|(b, _, k)| if let Block::Edge(e) = b { Some((*e, k)) } else { None }).collect())
}

fn push_flat<K: Clone>(items: &mut Vec<(Block, TransFormula, K)>, b: Block, k: &K) {
    match b {
        Block::Seq(parts) => parts.into_iter().for_each(|p| push_flat(items, p, k)),
        b => {
            let tf = b.trans_formula();
            items.push((b, tf, k.clone()));
        }
    }
}

/// The source steps and initial values of a feasible error trace of (possibly composed) steps,
/// `Ok(None)` when they cannot be recovered. A trace that passes through an over-approximation
/// (`overapprox`, the first reason on it) is a counterexample only if its path stays feasible
/// with every over-approximating edge replaced by its exact statement; otherwise `Err` says why.
/// `choices` says whether the edges without one (a choice of a value the model does not know)
/// must have one, or whether the trace is known not to depend on what they choose.
pub fn source_counterexample<'c, K: Clone>(
    steps: Vec<(Block, K)>,
    original: &dyn Fn(&K) -> Origin<'c>,
    check: &mut TraceChecker<K>,
    overapprox: Option<String>,
    choices: Choices,
) -> Result<Option<SourceSteps>, Unknown> {
    let path = basic_path(steps, check);
    let Some(reason) = overapprox else {
        return Ok(path.and_then(|p| steps_with_values(&p, original, check)));
    };
    let bit_precise_exact = path.as_ref().is_some_and(|p| p.iter().all(|(e, _)| e.overapprox.is_none() || e.bit_precise_exact));
    path.and_then(|p| exact_path(p, choices)).and_then(|p| steps_with_values(&p, original, check)).map(Some).ok_or_else(|| Unknown {
        reason: format!("feasible error trace uses an over-approximation: {reason}"),
        retry: bit_precise_exact.then_some(Retry::BitPrecise),
    })
}

/// Whether an error trace's feasibility depends on the values its over-approximating edges
/// without an exact statement choose. Where it does not (a search that ran the trace saw no
/// constraint on them), the trace reaches the error whatever the program would have chosen.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Choices {
    Matter,
    Irrelevant,
}

/// `path` with each over-approximating edge given its exact statement (`None` if one has none
/// and its choice matters).
fn exact_path<K>(path: Vec<(Edge, K)>, choices: Choices) -> Option<Vec<(Edge, K)>> {
    path.into_iter()
        .map(|(e, k)| match (&e.overapprox, &e.exact) {
            (None, _) => Some((e, k)),
            (Some(_), Some(x)) => {
                let mut exact = e.with_stmt(x.clone());
                (exact.overapprox, exact.exact) = (None, None);
                Some((exact, k))
            }
            (Some(_), None) if choices == Choices::Irrelevant => Some((e, k)),
            (Some(_), None) => None,
        })
        .collect()
}

/// Where a step's edge comes from.
pub struct Origin<'c> {
    /// The CFG (before large-block encoding) the edge belongs to.
    pub cfg: &'c Cfg,
    /// In a concurrent program: the thread that takes the step, and the thread it starts.
    pub thread: Option<(usize, Option<usize>)>,
}

impl<'c> Origin<'c> {
    /// An edge of a sequential program's CFG.
    pub fn sequential(cfg: &'c Cfg) -> Origin<'c> {
        Origin { cfg, thread: None }
    }
}

/// The steps of a path of original edges with the values after each step, and the values
/// before the first; `None` if the path is not (or not provably) feasible. `original` says
/// where a step's edge comes from.
pub fn steps_with_values<'c, K: Clone>(
    path: &[(Edge, K)],
    original: &dyn Fn(&K) -> Origin<'c>,
    check: &mut TraceChecker<K>,
) -> Option<(BTreeMap<Term, Term>, Vec<CexStep>)> {
    let stmts: Vec<Stmt> = path.iter().map(|(e, _)| e.source_stmt()).collect();
    let tfs: Vec<TransFormula> = path.iter().map(|(e, _)| e.source_trans_formula()).collect();
    let tags: Vec<K> = path.iter().map(|(_, k)| k.clone()).collect();
    let TraceCheck::Feasible(model) = check(&tfs, &tags) else { return None };
    let after = |i: usize| model.states.get(i + 1).cloned().unwrap_or_default();
    let steps = path
        .iter()
        .zip(stmts)
        .zip(&tfs)
        .enumerate()
        .map(|(i, (((e, k), stmt), tf))| {
            let values = after(i);
            let Origin { cfg: original, thread } = original(k);
            let nondet = e.nondet.as_ref().and_then(|n| {
                let var = first_havoc(&stmt)?;
                Some(NondetValue { function: n.function.clone(), ty: n.ty, value: values.get(&var)?.clone() })
            });
            CexStep {
                pos: e.pos.clone(),
                branch: branch_direction(original, e),
                assigned: tf.assigned_vars().into_iter().collect(),
                stmt,
                values,
                nondet,
                function: procedure_of(original, e),
                thread: thread.map(|(t, _)| t),
                starts_thread: thread.and_then(|(_, s)| s),
            }
        })
        .collect();
    Some((model.states.first().cloned().unwrap_or_default(), steps))
}

/// The procedure an edge of a prepared CFG comes from (its locations are named `proc.loc`).
fn procedure_of(cfg: &Cfg, e: &Edge) -> Option<String> {
    let name = &cfg.locs.get(e.src)?.name;
    name.split_once('.').map(|(p, _)| p.to_string())
}

/// The first variable a statement havocs.
fn first_havoc(s: &Stmt) -> Option<Term> {
    match s {
        Stmt::Havoc(vs) => vs.first().cloned(),
        Stmt::Seq(ss) | Stmt::Choice(ss) => ss.iter().find_map(first_havoc),
        _ => None,
    }
}

/// For an edge that leaves a two-way branch (two `assume` edges whose conditions are each
/// other's negation): whether it is the first of the two (the branch the front end built for
/// the condition being true).
fn branch_direction(cfg: &Cfg, e: &Edge) -> Option<bool> {
    let outs: Vec<&Edge> = cfg.edges.iter().filter(|o| o.src == e.src).collect();
    let [a, b] = outs.as_slice() else { return None };
    let cond = |x: &Edge| match &x.label {
        Label::Stmt(Stmt::Assume(c)) => Some(c.clone()),
        _ => None,
    };
    let (ca, cb) = (cond(a)?, cond(b)?);
    let negated = smt::build::not(&ca) == cb || smt::build::not(&cb) == ca;
    if !negated || conjuncts(&ca).is_empty() {
        return None;
    }
    let this = cond(e)?;
    if this == ca && a.dst == e.dst {
        Some(true)
    } else if this == cb && b.dst == e.dst {
        Some(false)
    } else {
        None
    }
}
