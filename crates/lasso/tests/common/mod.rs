//! Lassos built from statements, and checks of answers that do not trust the crate.
#![allow(dead_code)]

use ir::{Stmt, TransFormula};
use lasso::{Lasso, RankingFunction};
use smt::build::{and, implies, not};
use smt::simplify::{is_sat, is_valid};
use smt::subst::substitute;
use smt::{Sort, Term};
use std::collections::{BTreeMap, HashMap};

pub fn int_var(name: &str) -> Term {
    Term::var(name, Sort::Int)
}

pub fn lasso(stem: Vec<Stmt>, body: Vec<Stmt>) -> Lasso {
    Lasso { stem: Stmt::Seq(stem).trans_formula(), looped: Stmt::Seq(body).trans_formula() }
}

pub fn assign(x: &Term, e: Term) -> Stmt {
    Stmt::Assign(vec![(x.clone(), e)])
}

/// The variables of both formulas.
fn vars(l: &Lasso) -> Vec<Term> {
    let mut v: Vec<Term> = l
        .stem
        .in_vars
        .keys()
        .chain(l.stem.out_vars.keys())
        .chain(l.looped.in_vars.keys())
        .chain(l.looped.out_vars.keys())
        .cloned()
        .collect();
    v.sort();
    v.dedup();
    v
}

/// Instances of the state after the stem, before and after the loop (our own reading of
/// `TransFormula`, independent of the crate's).
pub struct States {
    pub end: HashMap<Term, Term>,
    pub pre: HashMap<Term, Term>,
    pub post: HashMap<Term, Term>,
}

pub fn states(l: &Lasso) -> States {
    let mut s = States { end: HashMap::new(), pre: HashMap::new(), post: HashMap::new() };
    for x in vars(l) {
        let end = l.stem.out_vars.get(&x).or(l.stem.in_vars.get(&x)).cloned().unwrap_or_else(|| Term::fresh("end", x.sort.clone()));
        let pre = l.looped.in_vars.get(&x).cloned().unwrap_or_else(|| Term::fresh("pre", x.sort.clone()));
        let post = l.looped.out_vars.get(&x).cloned().unwrap_or_else(|| pre.clone());
        s.end.insert(x.clone(), end);
        s.pre.insert(x.clone(), pre);
        s.post.insert(x, post);
    }
    s
}

fn at(t: &Term, m: &HashMap<Term, Term>) -> Term {
    substitute(t, m)
}

/// Checks the ranking function with Z3 on the lasso (stem and loop share no instances).
pub fn assert_ranking_valid(l: &Lasso, rf: &RankingFunction) {
    eprintln!("{}: {:?} with {:?}", rf.template, rf.components, rf.supporting_invariants);
    let s = states(l);
    let si = and(&rf.supporting_invariants);
    assert_eq!(is_valid(&implies(&l.stem.formula, &at(&si, &s.end)), 5000), Some(true), "SI initiation of {rf:?}");
    let pre = and(&[at(&si, &s.pre), l.looped.formula.clone()]);
    assert_eq!(is_valid(&implies(&pre, &at(&si, &s.post)), 5000), Some(true), "SI consecution of {rf:?}");
    let old: Vec<Term> = rf.components.iter().map(|c| at(c, &s.pre)).collect();
    let dec = at(&rf.decreases(&old), &s.post);
    assert_eq!(is_valid(&implies(&pre, &dec), 5000), Some(true), "decrease of {rf:?}");
    // one sort for all components: Int, or Real for a function of a real variable
    for c in &rf.components {
        assert!(matches!(c.sort, Sort::Int | Sort::Real) && c.sort == rf.components[0].sort, "{rf:?}");
    }
}

/// Whether the stem can end in `end` (values of the canonical variables).
pub fn stem_reaches(l: &Lasso, end: &BTreeMap<Term, Term>) -> bool {
    let s = states(l);
    let fix: Vec<Term> = end.iter().map(|(x, v)| smt::build::eq(&s.end[x], v)).collect();
    is_sat(&and(&[vec![l.stem.formula.clone()], fix].concat()), 5000) == Some(true)
}

/// Whether one loop iteration can lead from `from` to `to`.
pub fn loop_steps(l: &Lasso, from: &BTreeMap<Term, Term>, to: &BTreeMap<Term, Term>) -> bool {
    let s = states(l);
    let mut fix: Vec<Term> = from.iter().map(|(x, v)| smt::build::eq(&s.pre[x], v)).collect();
    fix.extend(to.iter().map(|(x, v)| smt::build::eq(&s.post[x], v)));
    is_sat(&and(&[vec![l.looped.formula.clone()], fix].concat()), 5000) == Some(true)
}

pub fn not_true(t: &Term) -> Term {
    not(t)
}

pub fn trans(s: &Stmt) -> TransFormula {
    s.trans_formula()
}
