//! Nontermination arguments, each checked on the exact formulas.
//!
//! A fixed point is one query: `σ(x) ∧ τ(x, x)` (the model is the state). A geometric
//! argument (Leike & Heizmann, "Geometric nontermination arguments") with one direction `y`
//! and an integer eigenvalue `λ ∈ {1, 2, 3}` is searched on one exact disjunct `D` of the
//! loop: `σ(x0) ∧ τ(x0, x1) ∧ D(x1, x1 + y, a) ∧ D⁰(y, λy, w)` (`D⁰` the homogeneous rows:
//! `(y, λy, w)` is a ray of `D`'s polyhedron), linear for fixed `λ`. Then it is checked
//! without the DNF: `σ(x0) ∧ τ(x0, x1)` is satisfiable and
//! `k ≥ 0 ∧ ¬τ(x1 + k·y, x1 + y + kλ·y, a + k·w)` is not, so every state of the ray steps to
//! the next (see `NonterminationArgument::Geometric`).

use crate::dnf::{dnf, Row};
use crate::relation::Relation;
use crate::solve::Oracle;
use crate::{Lasso, LassoError, NonterminationArgument, Settings, Stats};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use smt::build::{add, and, eq, ge, int, le, mul, not, num, real, to_real};
use smt::linear::literal_value;
use smt::linear::{to_term, LinExpr};
use smt::subst::substitute;
use smt::{SatResult, Sort, Term};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The eigenvalues the geometric search tries.
const EIGENVALUES: [i64; 3] = [1, 2, 3];

pub(crate) fn search(lasso: &Lasso, settings: &Settings, stats: &mut Stats) -> Result<Option<NonterminationArgument>, LassoError> {
    let rel = Relation::new(&lasso.stem, &lasso.looped)?;
    if rel.stem.has_quantifier() || rel.looped.has_quantifier() {
        stats.note = Some("quantifiers in the lasso".into());
        return Ok(None);
    }
    let mut oracle = Oracle::new(settings.timeout_ms, settings.deadline, stats);
    if let Some(arg) = fixed_point(&rel, &mut oracle) {
        return Ok(Some(arg));
    }
    let plain = |s: &Sort| matches!(s, Sort::Int | Sort::Real | Sort::Bool);
    let others = rel.loop_aux.keys().chain(&rel.consts);
    if !rel.vars.iter().chain(others).all(|v| plain(&v.sort)) {
        oracle.stats.note = Some("variables of sorts other than Int, Real, Bool".into());
        return Ok(None);
    }
    let Some(loop_dnf) = dnf(&rel.looped, settings.max_disjuncts) else {
        oracle.stats.note = Some(format!("the loop has more than {} disjuncts", settings.max_disjuncts));
        return Ok(None);
    };
    if !loop_dnf.exact {
        oracle.stats.note = Some("the loop is not linear".into());
        return Ok(None);
    }
    for lambda in EIGENVALUES {
        for d in &loop_dnf.disjuncts {
            if oracle.expired() {
                oracle.stats.note = Some("deadline".into());
                return Ok(None);
            }
            if let Some(arg) = geometric(&rel, d, lambda, &mut oracle) {
                return Ok(Some(arg));
            }
        }
    }
    Ok(None)
}

/// `σ(x) ∧ τ(x, x)`.
fn fixed_point(rel: &Relation, oracle: &mut Oracle) -> Option<NonterminationArgument> {
    let same: Vec<Term> = rel.vars.iter().filter(|x| rel.changes(x)).map(|x| eq(&rel.post[x], &rel.pre[x])).collect();
    if oracle.check(&[rel.stem.clone(), rel.looped.clone(), and(&same)]) != SatResult::Sat {
        return None;
    }
    let pre: Vec<Term> = rel.vars.iter().map(|x| rel.pre[x].clone()).collect();
    let m = oracle.model(&pre)?;
    let state = rel.vars.iter().filter_map(|x| Some((x.clone(), m.get(&rel.pre[x])?.clone()))).collect();
    Some(NonterminationArgument::FixedPoint { state })
}

/// `c·t` for a literal `c` and a term `t` of its sort.
fn times(c: &Term, t: &Term) -> Term {
    mul(&[c.clone(), t.clone()])
}

/// The row `Σ coeffs·v + constant ≤ 0` over the reals with the variables replaced by `sigma`;
/// without the constant when `homogeneous` (the row's recession cone).
fn row_term(r: &Row, sigma: &HashMap<Term, Term>, homogeneous: bool) -> Term {
    let e = LinExpr { coeffs: r.coeffs.clone(), constant: if homogeneous { BigRational::zero() } else { r.constant.clone() } };
    le(&substitute(&to_term(&e, &Sort::Real), sigma), &real(BigRational::zero()))
}

fn zero_of(s: &Sort) -> Term {
    num(BigRational::zero(), s)
}

/// The geometric argument on disjunct `d` with eigenvalue `lambda`, checked exactly.
fn geometric(rel: &Relation, d: &[Row], lambda: i64, oracle: &mut Oracle) -> Option<NonterminationArgument> {
    let changed: Vec<&Term> = rel.vars.iter().filter(|x| rel.changes(x) && x.sort.is_arith()).collect();
    let dir: BTreeMap<Term, Term> = changed.iter().map(|x| ((*x).clone(), Term::fresh("dir", x.sort.clone()))).collect();
    let state_vars: BTreeSet<&Term> = rel.pre.values().chain(rel.post.values()).collect();
    let row_vars: BTreeSet<Term> = d.iter().flat_map(|r| r.coeffs.keys().cloned()).collect();
    // the disjunct's other variables: the loop's aux, quotients, remainders (constants stay)
    let aux: Vec<Term> = row_vars.iter().filter(|v| !state_vars.contains(v) && !rel.consts.contains(*v)).cloned().collect();
    let a1: BTreeMap<Term, Term> = aux.iter().map(|v| (v.clone(), Term::fresh("auxpt", v.sort.clone()))).collect();
    let w: BTreeMap<Term, Term> = aux.iter().map(|v| (v.clone(), Term::fresh("auxdir", v.sort.clone()))).collect();
    let lam = |s: &Sort| num(BigRational::from_integer(lambda.into()), s);
    let mut base = HashMap::new();
    let mut ray = HashMap::new();
    for x in &rel.vars {
        let (p, q) = (&rel.pre[x], &rel.post[x]);
        match dir.get(x) {
            Some(y) => {
                base.insert(p.clone(), q.clone());
                base.insert(q.clone(), add(&[q.clone(), y.clone()]));
                ray.insert(p.clone(), y.clone());
                ray.insert(q.clone(), times(&lam(&x.sort), y));
            }
            None if x.sort.is_arith() => {
                ray.insert(p.clone(), zero_of(&x.sort));
                ray.insert(q.clone(), zero_of(&x.sort));
            }
            None => {}
        }
    }
    for v in &aux {
        base.insert(v.clone(), a1[v].clone());
        ray.insert(v.clone(), w[v].clone());
    }
    for c in &rel.consts {
        if c.sort.is_arith() {
            ray.insert(c.clone(), zero_of(&c.sort));
        }
    }
    let mut query = vec![rel.stem.clone(), rel.looped.clone()];
    query.extend(d.iter().map(|r| row_term(r, &base, false)));
    query.extend(d.iter().map(|r| row_term(r, &ray, true)));
    if oracle.check(&query) != SatResult::Sat {
        return None;
    }
    let mut wanted: Vec<Term> = rel.pre.values().chain(rel.post.values()).cloned().collect();
    wanted.extend(dir.values().cloned());
    wanted.extend(a1.values().cloned());
    wanted.extend(w.values().cloned());
    wanted.extend(rel.consts.iter().cloned());
    wanted.extend(rel.loop_aux.keys().cloned());
    let m = oracle.model(&wanted)?;
    let value = |t: &Term| -> Option<Term> { m.get(t).cloned() };
    let x0: BTreeMap<Term, Term> = rel.vars.iter().map(|x| Some((x.clone(), value(&rel.pre[x])?))).collect::<Option<_>>()?;
    let x1: BTreeMap<Term, Term> = rel.vars.iter().map(|x| Some((x.clone(), value(&rel.post[x])?))).collect::<Option<_>>()?;
    let y: BTreeMap<Term, Term> = rel
        .vars
        .iter()
        .filter(|x| x.sort.is_arith())
        .map(|x| Some((x.clone(), dir.get(x).map_or(Some(zero_of(&x.sort)), value)?)))
        .collect::<Option<_>>()?;
    let consts: HashMap<Term, Term> = rel.consts.iter().map(|c| Some((c.clone(), value(c)?))).collect::<Option<_>>()?;
    // the loop's aux along the ray: from the disjunct's solution, else the first step's value
    let mut aux_point = BTreeMap::new();
    let mut aux_direction = BTreeMap::new();
    for v in rel.loop_aux.keys() {
        let (p, dv) = match (a1.get(v), w.get(v)) {
            (Some(p), Some(dv)) => (value(p)?, Some(value(dv)?)),
            _ => match value(v) {
                Some(p) => (p, v.sort.is_arith().then(|| zero_of(&v.sort))),
                None => continue,
            },
        };
        aux_point.insert(v.clone(), p);
        if let Some(dv) = dv {
            aux_direction.insert(v.clone(), dv);
        }
    }
    if !check_geometric(rel, &x0, &x1, &y, lambda, &aux_point, &aux_direction, &consts, oracle) {
        oracle.stats.rejected += 1;
        return None;
    }
    let original = |mp: BTreeMap<Term, Term>| -> BTreeMap<Term, Term> {
        mp.into_iter().filter_map(|(k, v)| Some((rel.loop_aux.get(&k)?.clone(), v))).collect()
    };
    Some(NonterminationArgument::Geometric {
        x0,
        x1,
        directions: vec![y],
        eigenvalues: vec![BigInt::from(lambda)],
        aux_point: original(aux_point),
        aux_direction: original(aux_direction),
    })
}

/// `base + k·dir` for a value and direction of sort `s` (`k` an Int variable).
fn along(base: &Term, dir: &Term, k: &Term, s: &Sort) -> Term {
    let k = if *s == Sort::Real { to_real(k) } else { k.clone() };
    add(&[base.clone(), times(dir, &k)])
}

/// The exact check of a geometric argument (see the module documentation).
#[allow(clippy::too_many_arguments)]
fn check_geometric(
    rel: &Relation,
    x0: &BTreeMap<Term, Term>,
    x1: &BTreeMap<Term, Term>,
    y: &BTreeMap<Term, Term>,
    lambda: i64,
    aux_point: &BTreeMap<Term, Term>,
    aux_direction: &BTreeMap<Term, Term>,
    consts: &HashMap<Term, Term>,
    oracle: &mut Oracle,
) -> bool {
    if y.values().chain(aux_direction.values()).any(|v| literal_value(v).is_none()) {
        return false;
    }
    // the stem reaches x0 and one iteration leads to x1
    let mut first: HashMap<Term, Term> = consts.clone();
    for x in &rel.vars {
        first.insert(rel.pre[x].clone(), x0[x].clone());
        first.insert(rel.post[x].clone(), x1[x].clone());
    }
    if rel.vars.iter().any(|x| !rel.changes(x) && x0[x] != x1[x]) {
        return false;
    }
    let reach = [substitute(&rel.stem, &first), substitute(&rel.looped, &first)];
    if oracle.check(&reach) != SatResult::Sat {
        return false;
    }
    // every k ≥ 0: τ(x1 + k·y, x1 + y + kλ·y, a + k·w)
    let k = Term::fresh("k", Sort::Int);
    let mut sigma: HashMap<Term, Term> = consts.clone();
    for x in &rel.vars {
        let (p, q) = (&rel.pre[x], &rel.post[x]);
        match y.get(x) {
            Some(d) if rel.changes(x) => {
                let lam = num(BigRational::from_integer(lambda.into()), &x.sort);
                sigma.insert(p.clone(), along(&x1[x], d, &k, &x.sort));
                sigma.insert(q.clone(), along(&add(&[x1[x].clone(), d.clone()]), &times(&lam, d), &k, &x.sort));
            }
            _ if rel.changes(x) => {
                sigma.insert(p.clone(), x1[x].clone());
                sigma.insert(q.clone(), x1[x].clone());
            }
            _ => {
                sigma.insert(p.clone(), x1[x].clone());
            }
        }
    }
    for (v, p) in aux_point {
        let dv = aux_direction.get(v).cloned().unwrap_or_else(|| zero_of(&v.sort));
        let t = if v.sort.is_arith() { along(p, &dv, &k, &v.sort) } else { p.clone() };
        sigma.insert(v.clone(), t);
    }
    let step = substitute(&rel.looped, &sigma);
    oracle.check(&[ge(&k, &int(0)), not(&step)]) == SatResult::Unsat
}
