//! Hoare triples `{pre} tf {post}` over transition formulas, with a cache and statistics.

use ir::TransFormula;
use smt::build::{and, not};
use smt::subst::{conjuncts, free_vars, substitute};
use smt::{SatResult, Solver, Term};
use std::collections::{BTreeSet, HashMap};

pub use crate::transformer::{sp, wp};

/// The answer to a Hoare-triple query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Validity {
    /// Every execution of the statement from a `pre` state ends in a `post` state.
    Valid,
    /// Some execution from a `pre` state ends outside `post`.
    Invalid,
    /// The solver could not decide.
    Unknown,
}

/// Counters of a [`HoareChecker`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HoareStats {
    /// Queries asked.
    pub queries: u64,
    /// Queries answered from the cache.
    pub cache_hits: u64,
    /// Queries answered by a syntactic check.
    pub syntactic: u64,
    /// Queries sent to the solver.
    pub solver_calls: u64,
    /// Answers `Valid` (all ways).
    pub valid: u64,
    /// Answers `Invalid` (all ways).
    pub invalid: u64,
    /// Answers `Unknown` (all ways).
    pub unknown: u64,
}

/// Decides Hoare triples with cheap syntactic checks, a cache, and a solver.
pub struct HoareChecker {
    solver: Box<dyn Solver>,
    cache: HashMap<(u64, usize, u64), Validity>,
    /// What the checker did so far.
    pub stats: HoareStats,
}

/// A syntactic answer to `{pre} tf {post}`, if a cheap check settles it (only ever `Valid`).
pub fn syntactic_check(pre: &Term, tf: &TransFormula, post: &Term) -> Option<Validity> {
    if post.is_true() || pre.is_false() || tf.formula.is_false() {
        return Some(Validity::Valid);
    }
    let post_conj = conjuncts(post);
    if !post_conj.is_empty() {
        let pre_conj: BTreeSet<Term> = conjuncts(pre).into_iter().collect();
        if post_conj.iter().all(|c| pre_conj.contains(c)) {
            let assigned = tf.assigned_vars();
            if free_vars(post).iter().all(|v| !assigned.contains(v)) {
                return Some(Validity::Valid);
            }
        }
    }
    None
}

/// The query `pre[in] ∧ tf ∧ ¬post[out]` whose unsatisfiability means the triple is valid.
pub fn triple_query(pre: &Term, tf: &TransFormula, post: &Term) -> Term {
    let (pres, posts) = step_instances(std::slice::from_ref(pre), tf, std::slice::from_ref(post));
    and(&[pres[0].clone(), tf.formula.clone(), not(&posts[0])])
}

/// Formulas over the variables before the step `tf`, `pre[in]`, and after it, `post[out]`,
/// for `pre[in] ∧ tf.formula ∧ post[out]`.
pub fn step_instances(pres: &[Term], tf: &TransFormula, posts: &[Term]) -> (Vec<Term>, Vec<Term>) {
    let instances: BTreeSet<Term> = tf.in_vars.values().chain(tf.out_vars.values()).chain(tf.aux_vars.iter()).cloned().collect();
    let vars: BTreeSet<Term> = pres.iter().chain(posts).flat_map(free_vars).collect();
    let mut in_map: HashMap<Term, Term> = HashMap::new();
    let mut out_map: HashMap<Term, Term> = HashMap::new();
    for x in &vars {
        let i = match tf.in_vars.get(x) {
            Some(i) => i.clone(),
            None if instances.contains(x) || tf.out_vars.contains_key(x) => Term::fresh(x.var_name().unwrap_or("v"), x.sort.clone()),
            None => x.clone(),
        };
        let o = tf.out_vars.get(x).cloned().unwrap_or_else(|| i.clone());
        in_map.insert(x.clone(), i);
        out_map.insert(x.clone(), o);
    }
    let over = |ts: &[Term], map: &HashMap<Term, Term>| ts.iter().map(|t| substitute(t, map)).collect();
    (over(pres, &in_map), over(posts, &out_map))
}

/// Decides `{pre} tf {post}` with `solver` (syntactic checks first, no cache).
pub fn check_triple(pre: &Term, tf: &TransFormula, post: &Term, solver: &mut dyn Solver) -> Validity {
    if let Some(v) = syntactic_check(pre, tf, post) {
        return v;
    }
    solve_triple(pre, tf, post, solver)
}

fn solve_triple(pre: &Term, tf: &TransFormula, post: &Term, solver: &mut dyn Solver) -> Validity {
    let q = triple_query(pre, tf, post);
    if q.is_false() {
        return Validity::Valid;
    }
    solver.push();
    solver.assert(&q);
    let r = solver.check();
    solver.pop();
    match r {
        SatResult::Unsat => Validity::Valid,
        SatResult::Sat => Validity::Invalid,
        SatResult::Unknown(why) => {
            tracing::debug!("Hoare triple unknown: {why}");
            Validity::Unknown
        }
    }
}

/// The valuations of `preds` after `tf` that some execution from a `pre` state ends in, by
/// enumerating models and blocking each valuation found (all-SAT): the Boolean abstraction
/// of the strongest post. An empty list: no execution. `None` if the solver does not decide,
/// a predicate has no Boolean value in a model, or there are more than `limit` valuations.
pub fn post_valuations(pre: &Term, tf: &TransFormula, preds: &[Term], limit: usize, solver: &mut dyn Solver) -> Option<Vec<Vec<bool>>> {
    let (pres, posts) = step_instances(std::slice::from_ref(pre), tf, preds);
    solver.push();
    solver.assert(&and(&[pres[0].clone(), tf.formula.clone()]));
    let found = valuations(&posts, limit, solver);
    solver.pop();
    found
}

fn valuations(posts: &[Term], limit: usize, solver: &mut dyn Solver) -> Option<Vec<Vec<bool>>> {
    let mut found = vec![];
    loop {
        match solver.check() {
            SatResult::Unsat => return Some(found),
            SatResult::Unknown(_) => return None,
            SatResult::Sat if found.len() == limit => return None,
            SatResult::Sat => {}
        }
        let model = solver.model(posts).ok()?;
        let values: Vec<bool> =
            posts.iter().map(|p| model.get(p).and_then(|v| (v.is_true() || v.is_false()).then(|| v.is_true()))).collect::<Option<_>>()?;
        let literals: Vec<Term> = posts.iter().zip(&values).map(|(p, &b)| if b { p.clone() } else { not(p) }).collect();
        solver.assert(&not(&and(&literals)));
        found.push(values);
    }
}

impl HoareChecker {
    /// A checker that asks `solver` what syntactic checks cannot settle.
    pub fn new(solver: Box<dyn Solver>) -> HoareChecker {
        HoareChecker { solver, cache: HashMap::new(), stats: HoareStats::default() }
    }

    /// Decides `{pre} tf {post}`; `letter` identifies `tf` for the cache.
    pub fn check(&mut self, pre: &Term, letter: usize, tf: &TransFormula, post: &Term) -> Validity {
        self.stats.queries += 1;
        let key = (pre.id(), letter, post.id());
        let v = if let Some(v) = self.cache.get(&key) {
            self.stats.cache_hits += 1;
            *v
        } else {
            let v = match syntactic_check(pre, tf, post) {
                Some(v) => {
                    self.stats.syntactic += 1;
                    v
                }
                None => {
                    self.stats.solver_calls += 1;
                    solve_triple(pre, tf, post, self.solver.as_mut())
                }
            };
            self.cache.insert(key, v);
            v
        };
        match v {
            Validity::Valid => self.stats.valid += 1,
            Validity::Invalid => self.stats.invalid += 1,
            Validity::Unknown => self.stats.unknown += 1,
        }
        v
    }

    /// The solver the checker uses (e.g. to set a timeout).
    pub fn solver(&mut self) -> &mut dyn Solver {
        self.solver.as_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::Stmt;
    use smt::build::{add, and2, ff, ge, int, tt};
    use smt::Sort;

    #[test]
    fn syntactic_checks() {
        let x = Term::var("x", Sort::Int);
        let y = Term::var("y", Sort::Int);
        let inc = Stmt::Assign(vec![(x.clone(), add(&[x.clone(), int(1)]))]).trans_formula();
        let px = ge(&x, &int(0));
        let py = ge(&y, &int(0));
        assert_eq!(syntactic_check(&px, &inc, &tt()), Some(Validity::Valid));
        assert_eq!(syntactic_check(&ff(), &inc, &px), Some(Validity::Valid));
        assert_eq!(syntactic_check(&and2(&px, &py), &inc, &py), Some(Validity::Valid));
        assert_eq!(syntactic_check(&and2(&px, &py), &inc, &px), None);
        let blocked = Stmt::Assume(ff()).trans_formula();
        assert_eq!(syntactic_check(&px, &blocked, &ff()), Some(Validity::Valid));
    }

    #[test]
    fn post_valuations_are_the_boolean_abstraction_of_the_strongest_post() {
        let x = Term::var("x", Sort::Int);
        let inc = Stmt::Assign(vec![(x.clone(), add(&[x.clone(), int(1)]))]).trans_formula();
        let preds = [ge(&x, &int(1)), ge(&x, &int(6)), ge(&x, &int(0))];
        let mut solver = smt::z3backend::Z3Solver::new();
        let mut found = post_valuations(&ge(&x, &int(0)), &inc, &preds, 8, &mut solver).unwrap();
        found.sort();
        assert_eq!(found, vec![vec![true, false, true], vec![true, true, true]]);
        assert_eq!(post_valuations(&ge(&x, &int(0)), &inc, &preds, 1, &mut solver), None, "beyond the limit");
        let blocked = Stmt::Assume(ff()).trans_formula();
        assert_eq!(post_valuations(&tt(), &blocked, &preds, 8, &mut solver), Some(vec![]));
        assert_eq!(post_valuations(&tt(), &inc, &[], 8, &mut solver), Some(vec![vec![]]), "feasible, nothing to tell apart");
    }
}
