//! Free variables and substitution.

use crate::build::rebuild;
use crate::term::{Kind, Term};
use std::collections::{BTreeSet, HashMap};

/// The free variables of a term.
pub fn free_vars(t: &Term) -> BTreeSet<Term> {
    let mut out = BTreeSet::new();
    let mut seen = HashMap::new();
    collect(t, &mut out, &mut seen, &BTreeSet::new());
    out
}

fn collect(t: &Term, out: &mut BTreeSet<Term>, seen: &mut HashMap<u64, ()>, bound: &BTreeSet<Term>) {
    // The memo is only valid outside binders, where `bound` is empty.
    if bound.is_empty() && seen.insert(t.id(), ()).is_some() {
        return;
    }
    match &t.kind {
        Kind::Var(_) => {
            if !bound.contains(t) {
                out.insert(t.clone());
            }
        }
        Kind::Quant(_, vars) => {
            let mut inner = bound.clone();
            inner.extend(vars.iter().cloned());
            collect(&t.args[0], out, seen, &inner);
        }
        _ => {
            for a in &t.args {
                collect(a, out, seen, bound);
            }
        }
    }
}

/// Simultaneous substitution of terms for terms (usually variables). Bound variables of
/// quantifiers are never replaced; the caller keeps substituted terms free of bound names
/// (bound variables are fresh by construction).
pub fn substitute(t: &Term, map: &HashMap<Term, Term>) -> Term {
    if map.is_empty() {
        return t.clone();
    }
    let mut memo = HashMap::new();
    subst_rec(t, map, &mut memo)
}

fn subst_rec(t: &Term, map: &HashMap<Term, Term>, memo: &mut HashMap<u64, Term>) -> Term {
    if let Some(r) = map.get(t) {
        return r.clone();
    }
    if t.args.is_empty() {
        return t.clone();
    }
    if let Some(r) = memo.get(&t.id()) {
        return r.clone();
    }
    let r = match &t.kind {
        Kind::Quant(_, vars) if vars.iter().any(|v| map.contains_key(v)) => {
            let inner: HashMap<Term, Term> = map.iter().filter(|(k, _)| !vars.contains(k)).map(|(k, v)| (k.clone(), v.clone())).collect();
            rebuild(t, vec![substitute(&t.args[0], &inner)])
        }
        _ => {
            let args = t.args.iter().map(|a| subst_rec(a, map, memo)).collect();
            rebuild(t, args)
        }
    };
    memo.insert(t.id(), r.clone());
    r
}

/// Substitution of a single term.
pub fn substitute1(t: &Term, from: &Term, to: &Term) -> Term {
    let mut m = HashMap::new();
    m.insert(from.clone(), to.clone());
    substitute(t, &m)
}

/// The conjuncts of a formula (itself if it is not a conjunction).
pub fn conjuncts(t: &Term) -> Vec<Term> {
    if t.op() == Some(&crate::term::Op::And) {
        t.args.clone()
    } else if t.is_true() {
        vec![]
    } else {
        vec![t.clone()]
    }
}

/// The disjuncts of a formula (itself if it is not a disjunction).
pub fn disjuncts(t: &Term) -> Vec<Term> {
    if t.op() == Some(&crate::term::Op::Or) {
        t.args.clone()
    } else if t.is_false() {
        vec![]
    } else {
        vec![t.clone()]
    }
}
