//! Constrained Horn clauses of a CFG: one uninterpreted predicate `inv_ℓ` per location over
//! the program variables, a clause `inv_src(x) ∧ φ(x, x') → inv_dst(x')` per edge, `inv_entry`
//! holds everywhere, and an error location implies `false`. A model of the clauses is an
//! inductive annotation of the CFG; the caller checks it again before it counts as a proof.

use ir::{Cfg, Label, TransFormula};
use smt::build::{and, apply, ff, forall, implies};
use smt::subst::free_vars;
use smt::{FuncDecl, Sort, Term};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The clauses of `cfg` with each location's predicate over the variables live there.
pub struct Clauses {
    /// The arguments of each location's predicate.
    pub args: Vec<Vec<Term>>,
    pub preds: Vec<Arc<FuncDecl>>,
    pub clauses: Vec<Term>,
}

/// The Horn clauses of `cfg` (`None` if it has call edges or thread operations).
pub fn clauses(cfg: &Cfg) -> Option<Clauses> {
    let formulas = cfg
        .edges
        .iter()
        .map(|e| match &e.label {
            Label::Stmt(_) => Some(e.trans_formula().clone()),
            Label::Call(_) | Label::Thread(_) => None,
        })
        .collect::<Option<Vec<TransFormula>>>()?;
    let args: Vec<Vec<Term>> = live_variables(cfg, &formulas).into_iter().map(|l| l.into_iter().collect()).collect();
    let preds: Vec<Arc<FuncDecl>> = args
        .iter()
        .enumerate()
        .map(|(l, a)| {
            Arc::new(FuncDecl { name: format!("inv{l}").into(), domain: a.iter().map(|v| v.sort.clone()).collect(), range: Sort::Bool })
        })
        .collect();
    let fresh = |v: &Term| Term::fresh(v.var_name().unwrap_or("v"), v.sort.clone());
    let mut clauses = vec![];
    let entry_args: Vec<Term> = args[cfg.entry].iter().map(fresh).collect();
    clauses.push(forall(&entry_args, &apply(&preds[cfg.entry], &entry_args)));
    for (e, tf) in cfg.edges.iter().zip(&formulas) {
        let mut ins: BTreeMap<Term, Term> = BTreeMap::new();
        let mut instance =
            |v: &Term| ins.entry(v.clone()).or_insert_with(|| tf.in_vars.get(v).cloned().unwrap_or_else(|| fresh(v))).clone();
        let pre: Vec<Term> = args[e.src].iter().map(&mut instance).collect();
        let post: Vec<Term> = args[e.dst].iter().map(|v| tf.out_vars.get(v).cloned().unwrap_or_else(|| instance(v))).collect();
        let body = and(&[apply(&preds[e.src], &pre), tf.formula.clone()]);
        let head = if cfg.locs[e.dst].error.is_some() { ff() } else { apply(&preds[e.dst], &post) };
        let clause = implies(&body, &head);
        let bound: Vec<Term> = free_vars(&clause).into_iter().collect();
        clauses.push(forall(&bound, &clause));
    }
    Some(Clauses { args, preds, clauses })
}

/// The variables live at each location: read before being assigned on some path onwards
/// (error locations need none).
fn live_variables(cfg: &Cfg, formulas: &[TransFormula]) -> Vec<BTreeSet<Term>> {
    let mut live: Vec<BTreeSet<Term>> = vec![BTreeSet::new(); cfg.locs.len()];
    let effects: Vec<(BTreeSet<Term>, BTreeSet<Term>)> = formulas.iter().map(|tf| (tf.read_vars(), tf.assigned_vars())).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for (e, (read, assigned)) in cfg.edges.iter().zip(&effects) {
            let flows: Vec<Term> = live[e.dst].iter().filter(|v| !assigned.contains(*v)).chain(read).cloned().collect();
            for v in flows {
                changed |= live[e.src].insert(v);
            }
        }
    }
    live
}

/// An inductive annotation of `cfg` (an invariant per location, `false` at error locations)
/// from a model of its Horn clauses; `Ok(None)` when the clauses have none (an error location
/// is reachable), an error when the solver gave up within `timeout_ms`.
pub fn annotation(cfg: &Cfg, timeout_ms: u64) -> Result<Option<Vec<Term>>, String> {
    let c = clauses(cfg).ok_or("the CFG has call edges")?;
    let queries: Vec<Term> = c.preds.iter().zip(&c.args).map(|(p, a)| apply(p, a)).collect();
    let model = smt::z3backend::solve_horn(&c.clauses, &queries, timeout_ms).map_err(|e| e.to_string())?;
    Ok(model.map(|inv| inv.into_iter().enumerate().map(|(l, t)| if cfg.locs[l].error.is_some() { ff() } else { t }).collect()))
}
