//! The lasso as two formulas over one set of state variables: the stem `σ(pre)` and the loop
//! `τ(pre, post)`, each with its own instances renamed apart, so every other module can
//! speak of "the state at the loop head" without caring how the engine named instances.

use crate::LassoError;
use ir::TransFormula;
use smt::subst::{free_vars, substitute};
use smt::Term;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The stem and the loop over shared state variables.
#[derive(Clone, Debug)]
pub(crate) struct Relation {
    /// The canonical program variables the lasso mentions.
    pub vars: Vec<Term>,
    /// Those the loop mentions (reads, keeps or writes).
    pub loop_vars: Vec<Term>,
    /// Canonical variable → its value at the loop head (before an iteration).
    pub pre: BTreeMap<Term, Term>,
    /// Canonical variable → its value after one iteration; the `pre` variable itself when
    /// the loop keeps the variable.
    pub post: BTreeMap<Term, Term>,
    /// `σ(pre)`: the stem's formula, its final instances renamed to `pre`, its other
    /// instances to fresh (existential) variables.
    pub stem: Term,
    /// `τ(pre, post, aux)`: the loop's formula.
    pub looped: Term,
    /// The loop's auxiliary variables as renamed here → the loop's own instance.
    pub loop_aux: BTreeMap<Term, Term>,
    /// Free variables of the formulas that are no instance: constants, the same in every
    /// iteration (and in the stem).
    pub consts: BTreeSet<Term>,
}

impl Relation {
    /// Whether the loop may change `x`.
    pub fn changes(&self, x: &Term) -> bool {
        self.pre.get(x) != self.post.get(x)
    }
}

/// The equations among the conjuncts of `t`, each as its two sides.
pub(crate) fn equations(t: &Term) -> Vec<(Term, Term)> {
    smt::subst::conjuncts(t)
        .into_iter()
        .filter_map(|c| match (c.op(), c.args.as_slice()) {
            (Some(smt::Op::Eq), [a, b]) => Some((a.clone(), b.clone())),
            _ => None,
        })
        .collect()
}

fn fresh_like(t: &Term) -> Term {
    Term::fresh(t.var_name().unwrap_or("v"), t.sort.clone())
}

/// Records `from ↦ to`; an instance that two variables share (with different targets) or
/// whose sort differs from its variable's is a malformed transition formula.
fn bind(map: &mut HashMap<Term, Term>, from: &Term, to: &Term) -> Result<(), LassoError> {
    if from.sort != to.sort || !from.is_var() {
        return Err(LassoError::Unsupported(format!("instance {from} does not fit its variable")));
    }
    match map.insert(from.clone(), to.clone()) {
        Some(prev) if prev != *to => Err(LassoError::Unsupported(format!("instance {from} stands for two variables"))),
        _ => Ok(()),
    }
}

impl Relation {
    /// Renames the lasso's formulas onto fresh state variables (see the fields).
    pub fn new(stem: &TransFormula, looped: &TransFormula) -> Result<Relation, LassoError> {
        let mut vars: BTreeSet<Term> = BTreeSet::new();
        for tf in [stem, looped] {
            vars.extend(tf.in_vars.keys().cloned());
            vars.extend(tf.out_vars.keys().cloned());
        }
        let pre: BTreeMap<Term, Term> = vars.iter().map(|x| (x.clone(), fresh_like(x))).collect();
        // the loop: in-instances are pre, out-instances post (pre when kept)
        let mut lmap = HashMap::new();
        let mut post = BTreeMap::new();
        for x in &vars {
            let p = &pre[x];
            let i = looped.in_vars.get(x);
            if let Some(i) = i {
                bind(&mut lmap, i, p)?;
            }
            let q = match looped.out_vars.get(x) {
                Some(o) if Some(o) == i => p.clone(),
                Some(o) => {
                    let q = fresh_like(x);
                    bind(&mut lmap, o, &q)?;
                    q
                }
                None => p.clone(),
            };
            post.insert(x.clone(), q);
        }
        let mut loop_aux = BTreeMap::new();
        for a in &looped.aux_vars {
            let f = fresh_like(a);
            bind(&mut lmap, a, &f)?;
            loop_aux.insert(f, a.clone());
        }
        // the stem: out-instances (or kept in-instances) are pre, the rest fresh
        let mut smap = HashMap::new();
        for x in &vars {
            let p = &pre[x];
            match (stem.in_vars.get(x), stem.out_vars.get(x)) {
                (Some(i), Some(o)) if i == o => bind(&mut smap, o, p)?,
                (i, Some(o)) => {
                    bind(&mut smap, o, p)?;
                    if let Some(i) = i {
                        bind(&mut smap, i, &fresh_like(i))?;
                    }
                }
                (Some(i), None) => bind(&mut smap, i, p)?,
                (None, None) => {}
            }
        }
        for a in &stem.aux_vars {
            bind(&mut smap, a, &fresh_like(a))?;
        }
        let mut consts: BTreeSet<Term> = free_vars(&looped.formula).into_iter().filter(|v| !lmap.contains_key(v)).collect();
        consts.extend(free_vars(&stem.formula).into_iter().filter(|v| !smap.contains_key(v)));
        let loop_vars = vars.iter().filter(|x| looped.in_vars.contains_key(*x) || looped.out_vars.contains_key(*x)).cloned().collect();
        let mut rel = Relation {
            vars: vars.into_iter().collect(),
            loop_vars,
            stem: substitute(&stem.formula, &smap),
            looped: substitute(&looped.formula, &lmap),
            pre,
            post,
            loop_aux,
            consts,
        };
        rel.keep_copies();
        Ok(rel)
    }

    /// A variable the loop sets to its own value (`x := x`, a conjunct `x' = x`) is kept: its
    /// post value is the pre value (an equivalent formula with one variable less, and a cell
    /// indexed by it reads the same place before and after an iteration).
    fn keep_copies(&mut self) {
        let copies = equations(&self.looped);
        let mut kept = HashMap::new();
        for (x, q) in &self.post {
            let p = &self.pre[x];
            if q != p && copies.iter().any(|(a, b)| (a == p && b == q) || (a == q && b == p)) {
                kept.insert(q.clone(), p.clone());
            }
        }
        if kept.is_empty() {
            return;
        }
        self.looped = substitute(&self.looped, &kept);
        for q in self.post.values_mut() {
            if let Some(p) = kept.get(q) {
                *q = p.clone();
            }
        }
    }

    /// `t` over canonical variables, read in the pre-state.
    pub fn at_pre(&self, t: &Term) -> Term {
        substitute(t, &self.pre.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
    }

    /// `t` over canonical variables, read in the post-state.
    pub fn at_post(&self, t: &Term) -> Term {
        substitute(t, &self.post.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
    }
}
