//! Predicate transformers over transition formulas: strongest post and weakest precondition,
//! with partial quantifier elimination.

use ir::TransFormula;
use smt::build::{and2, ff, implies, tt};
use smt::subst::substitute;
use smt::{Quantifier, Term};
use std::collections::HashMap;

fn fresh_like(t: &Term) -> Term {
    Term::fresh(t.var_name().unwrap_or("v"), t.sort.clone())
}

/// The strongest post of `pre` under `tf` as `(vars, body)` meaning `∃ vars. body`.
pub fn sp_parts(pre: &Term, tf: &TransFormula) -> (Vec<Term>, Term) {
    let assigned = tf.assigned_vars();
    let mut old: HashMap<Term, Term> = HashMap::new();
    let mut bound = Vec::new();
    for x in &assigned {
        let x0 = fresh_like(x);
        bound.push(x0.clone());
        old.insert(x.clone(), x0);
    }
    let mut map: HashMap<Term, Term> = HashMap::new();
    for (x, inst) in &tf.in_vars {
        let to = old.get(x).cloned().unwrap_or_else(|| x.clone());
        map.insert(inst.clone(), to);
    }
    for (x, inst) in &tf.out_vars {
        if assigned.contains(x) {
            map.insert(inst.clone(), x.clone());
        }
    }
    for a in &tf.aux_vars {
        let a2 = fresh_like(a);
        bound.push(a2.clone());
        map.insert(a.clone(), a2);
    }
    let body = and2(&substitute(pre, &old), &substitute(&tf.formula, &map));
    (bound, body)
}

/// The weakest precondition of `post` under `tf` as `(vars, body)` meaning `∀ vars. body`.
pub fn wp_parts(tf: &TransFormula, post: &Term) -> (Vec<Term>, Term) {
    let assigned = tf.assigned_vars();
    let mut new: HashMap<Term, Term> = HashMap::new();
    let mut bound = Vec::new();
    for x in &assigned {
        let x1 = fresh_like(x);
        bound.push(x1.clone());
        new.insert(x.clone(), x1);
    }
    let mut map: HashMap<Term, Term> = HashMap::new();
    for (x, inst) in &tf.in_vars {
        map.insert(inst.clone(), x.clone());
    }
    for (x, inst) in &tf.out_vars {
        if let Some(x1) = new.get(x) {
            map.insert(inst.clone(), x1.clone());
        }
    }
    for a in &tf.aux_vars {
        let a2 = fresh_like(a);
        bound.push(a2.clone());
        map.insert(a.clone(), a2);
    }
    let body = implies(&substitute(&tf.formula, &map), &substitute(post, &new));
    (bound, body)
}

/// The budget of Z3 work of each quantifier elimination.
pub const QE_TIMEOUT_MS: u64 = smt::qe::DEFAULT_QE_TIMEOUT_MS;

/// The strongest post of `pre` under `tf`, quantifiers eliminated where possible.
pub fn sp(pre: &Term, tf: &TransFormula) -> Term {
    if pre.is_false() || tf.formula.is_false() {
        return ff();
    }
    let (vars, body) = sp_parts(pre, tf);
    smt::qe::eliminate(Quantifier::Exists, &vars, &body, QE_TIMEOUT_MS)
}

/// The weakest precondition of `post` under `tf`, quantifiers eliminated where possible.
pub fn wp(tf: &TransFormula, post: &Term) -> Term {
    if post.is_true() || tf.formula.is_false() {
        return tt();
    }
    let (vars, body) = wp_parts(tf, post);
    smt::qe::eliminate(Quantifier::Forall, &vars, &body, QE_TIMEOUT_MS)
}
