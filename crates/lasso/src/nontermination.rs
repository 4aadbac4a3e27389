//! Nontermination arguments, each checked on the exact formulas.
//!
//! A fixed point is one query: `σ(x) ∧ τ(x, x)` (the model is the state); a cycle of two
//! states is `σ(x) ∧ τ(x, z) ∧ τ(z, x)`. A geometric argument (Leike & Heizmann, "Geometric
//! nontermination arguments") with directions `y₁..yₙ` (n ≤ 3), eigenvalues `λᵢ` and a
//! nilpotent part `μᵢ ∈ {0, 1}` (the image of `yᵢ₊₁` is `λᵢ₊₁·yᵢ₊₁ + μᵢ·yᵢ`) is searched
//! on one disjunct `D` of the loop's DNF: `σ(x0) ∧ τ(x0, x1) ∧ τ(x1, x1 + Σyᵢ, a) ∧
//! D(x1, x1 + Σyᵢ, a) ∧ ⋀ᵢ D⁰(yᵢ, λᵢyᵢ + μᵢ₋₁yᵢ₋₁, wᵢ)` (`D⁰` the homogeneous rows: each is a
//! ray of `D`'s polyhedron), linear for a fixed shape `(λ, μ)` and a linear loop (a disjunct
//! that dropped atoms or weakened strict ones only proposes rays). The eigenvalues tried are
//! 1, 2, 3 and the coefficients with which the loop scales a variable (`x := 2.5·x + ..`);
//! integers only when a variable of the argument is an integer. Then it is checked without
//! the DNF:
//! `σ(x0) ∧ τ(x0, x1)` is satisfiable and `⋀ kᵢ ≥ 0 ∧ ¬τ(x1 + Σkᵢyᵢ, x1 + Σⱼ(1 + λⱼkⱼ +
//! μⱼkⱼ₊₁)yⱼ, a + Σkᵢwᵢ)` is not, so the set of states `x1 + Σkᵢyᵢ` contains `x1` and every
//! state of it steps to another (see `NonterminationArgument::Geometric`).

use crate::array_rays;
use crate::dnf::{dnf, Row};
use crate::relation::Relation;
use crate::solve::Oracle;
use crate::{Lasso, LassoError, NonterminationArgument, Settings, Stats};
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use smt::build::{add, and, eq, ge, le, mul, not, num, real, to_real};
use smt::linear::literal_value;
use smt::linear::{to_term, LinExpr};
use smt::subst::substitute;
use smt::{SatResult, Sort, Term};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The eigenvalues every geometric search tries (besides the loop's own coefficients).
const EIGENVALUES: [i64; 3] = [1, 2, 3];

/// The most directions of a geometric argument.
const MAX_DIRECTIONS: usize = 3;

/// The most geometric queries per lasso beyond one direction: a terminating loop that no
/// linear ranking function fits comes here too, and its non-linear ranking problems follow.
const MAX_SHAPE_QUERIES: usize = 200;

pub(crate) fn search(lasso: &Lasso, settings: &Settings, stats: &mut Stats) -> Result<Option<NonterminationArgument>, LassoError> {
    let Some(rel) = relation(lasso, stats)? else { return Ok(None) };
    let mut oracle = Oracle::new(settings.timeout_ms, settings.deadline, stats);
    if let Some(arg) = cycles(&rel, &mut oracle) {
        return Ok(Some(arg));
    }
    let plain = |s: &Sort| matches!(s, Sort::Int | Sort::Real | Sort::Bool);
    let others = rel.loop_aux.keys().chain(&rel.consts);
    if !rel.vars.iter().chain(others).all(|v| plain(&v.sort) || matches!(v.sort, Sort::Array(..))) {
        oracle.stats.note = Some("variables of sorts other than Int, Real, Bool and arrays".into());
        return Ok(None);
    }
    if rel.vars.iter().any(|v| !plain(&v.sort)) {
        return Ok(array_rays::search(&rel, settings, &mut oracle));
    }
    let found = rays(&rel, settings, &mut oracle, &mut |arg, oracle| check(&rel, arg, &[], &|_| HashMap::new(), oracle));
    Ok(found.map(|arg| arg.into_argument(&|x| x, &|a| rel.loop_aux.get(a).cloned())))
}

/// A fixed point or a cycle of two states of the lasso's loop that its stem reaches: two
/// queries, the cheap part of [`search`].
pub(crate) fn periodic(lasso: &Lasso, settings: &Settings, stats: &mut Stats) -> Result<Option<NonterminationArgument>, LassoError> {
    let Some(rel) = relation(lasso, stats)? else { return Ok(None) };
    Ok(cycles(&rel, &mut Oracle::new(settings.timeout_ms, settings.deadline, stats)))
}

/// The relation of a lasso without quantifiers (`None`, noted, for one with).
fn relation(lasso: &Lasso, stats: &mut Stats) -> Result<Option<Relation>, LassoError> {
    let rel = Relation::new(&lasso.stem, &lasso.looped)?;
    if rel.stem.has_quantifier() || rel.looped.has_quantifier() {
        stats.note = Some("quantifiers in the lasso".into());
        return Ok(None);
    }
    Ok(Some(rel))
}

/// A fixed point, else a cycle of two states.
fn cycles(rel: &Relation, oracle: &mut Oracle) -> Option<NonterminationArgument> {
    [1, 2].into_iter().find_map(|period| cycle(rel, period, oracle))
}

/// The first geometric argument of the search (see the module documentation) that `accept`s.
pub(crate) fn rays(
    rel: &Relation,
    settings: &Settings,
    oracle: &mut Oracle,
    accept: &mut dyn FnMut(&Geometric, &mut Oracle) -> bool,
) -> Option<Geometric> {
    let Some(loop_dnf) = dnf(&rel.looped, settings.max_disjuncts) else {
        oracle.stats.note = Some(format!("the loop has more than {} disjuncts", settings.max_disjuncts));
        return None;
    };
    let changed = rel.vars.iter().filter(|x| rel.changes(x) && x.sort.is_arith()).count();
    let mut budget = MAX_SHAPE_QUERIES;
    for n in 1..=changed.clamp(1, MAX_DIRECTIONS) {
        for d in &loop_dnf.disjuncts {
            let integral =
                rel.vars.iter().chain(rel.loop_aux.keys()).chain(d.iter().flat_map(|r| r.coeffs.keys())).any(|v| v.sort == Sort::Int);
            let mut all = shapes(&eigenvalues(rel, d, integral), n);
            if n == 1 && !integral {
                // an eigenvalue the loop's coefficients do not show (a non-linear query)
                all.push(Shape { lambdas: vec![None], mus: vec![] });
            }
            for shape in all {
                if oracle.expired() {
                    oracle.stats.note = Some("deadline".into());
                    return None;
                }
                if n > 1 {
                    if budget == 0 {
                        return None;
                    }
                    budget -= 1;
                }
                let Some(arg) = geometric(rel, d, &shape, integral, oracle) else { continue };
                if accept(&arg, oracle) {
                    return Some(arg);
                }
                oracle.stats.rejected += 1;
            }
        }
    }
    if !loop_dnf.exact {
        oracle.stats.note = Some("the loop is not linear".into());
    }
    None
}

/// `σ(x) ∧ τ(x, x)` (period 1) or `σ(x) ∧ τ(x, z) ∧ τ(z, x)` (period 2, for a loop without
/// auxiliary variables: the second iteration's would need their own instances).
fn cycle(rel: &Relation, period: usize, oracle: &mut Oracle) -> Option<NonterminationArgument> {
    let changed: Vec<&Term> = rel.vars.iter().filter(|x| rel.changes(x)).collect();
    let query = match period {
        1 => vec![rel.stem.clone(), rel.looped.clone(), and(&changed.iter().map(|x| eq(&rel.post[*x], &rel.pre[*x])).collect::<Vec<_>>())],
        _ if rel.loop_aux.is_empty() && !changed.is_empty() => {
            let mid: HashMap<Term, Term> = changed.iter().map(|x| (rel.post[*x].clone(), Term::fresh("mid", x.sort.clone()))).collect();
            let back: HashMap<Term, Term> = changed
                .iter()
                .flat_map(|x| [(rel.pre[*x].clone(), mid[&rel.post[*x]].clone()), (rel.post[*x].clone(), rel.pre[*x].clone())])
                .collect();
            vec![rel.stem.clone(), substitute(&rel.looped, &mid), substitute(&rel.looped, &back)]
        }
        _ => return None,
    };
    if oracle.check(&query) != SatResult::Sat {
        return None;
    }
    let pre: Vec<Term> = rel.vars.iter().map(|x| rel.pre[x].clone()).collect();
    let m = oracle.model(&pre)?;
    let state = rel.vars.iter().filter_map(|x| Some((x.clone(), m.get(&rel.pre[x])?.clone()))).collect();
    Some(NonterminationArgument::FixedPoint { state, period })
}

/// The eigenvalues to try on disjunct `d`: [`EIGENVALUES`] and each positive factor `c` of a
/// row relating a variable's post value to its pre value (`x' - c·x ..`); integers only when
/// the argument is `integral`.
fn eigenvalues(rel: &Relation, d: &[Row], integral: bool) -> Vec<BigRational> {
    let mut out: BTreeSet<BigRational> = EIGENVALUES.iter().map(|&l| BigRational::from_integer(l.into())).collect();
    for x in rel.vars.iter().filter(|x| rel.changes(x)) {
        for r in d {
            if let (Some(cq), Some(cp)) = (r.coeffs.get(&rel.post[x]), r.coeffs.get(&rel.pre[x])) {
                let c = -cp / cq;
                if c.is_positive() && (!integral || c.is_integer()) {
                    out.insert(c);
                }
            }
        }
    }
    out.into_iter().collect()
}

/// A geometric argument's eigenvalues and nilpotent part (see the module documentation).
#[derive(Clone, Debug)]
struct Shape {
    /// `None`: a free (real) eigenvalue, found by the solver.
    lambdas: Vec<Option<BigRational>>,
    mus: Vec<BigRational>,
}

/// The shapes with `n` directions: every eigenvalue for one; for more, the sets of distinct
/// eigenvalues without nilpotent part (their order does not matter, and two uncoupled
/// directions of one eigenvalue are one); with a nilpotent part (`μᵢ ∈ {0, 1}`, not all 0)
/// every ordered pair, and every ordered triple of distinct eigenvalues.
fn shapes(eigenvalues: &[BigRational], n: usize) -> Vec<Shape> {
    let (zero, one) = (BigRational::zero(), BigRational::one());
    let sets = sequences(eigenvalues.len(), n, &|m, i| m.last().is_none_or(|&l| i > l));
    let pick = |m: &[usize]| m.iter().map(|&i| Some(eigenvalues[i].clone())).collect::<Vec<_>>();
    let mut out: Vec<Shape> = sets.iter().map(|m| Shape { lambdas: pick(m), mus: vec![zero.clone(); n - 1] }).collect();
    let ordered = sequences(eigenvalues.len(), n, &|m, i| n == 2 || !m.contains(&i));
    let couplings: Vec<Vec<BigRational>> = match n {
        2 => vec![vec![one.clone()]],
        3 => vec![vec![one.clone(), zero.clone()], vec![zero.clone(), one.clone()], vec![one.clone(), one.clone()]],
        _ => vec![],
    };
    for m in &ordered {
        out.extend(couplings.iter().map(|mus| Shape { lambdas: pick(m), mus: mus.clone() }));
    }
    out
}

/// The sequences of `n` indices below `len` whose every index `admit`s after its prefix.
fn sequences(len: usize, n: usize, admit: &dyn Fn(&[usize], usize) -> bool) -> Vec<Vec<usize>> {
    let mut seqs = vec![vec![]];
    for _ in 0..n {
        seqs = seqs
            .iter()
            .flat_map(|m: &Vec<usize>| (0..len).filter(|&i| admit(m, i)).map(|i| [m.as_slice(), &[i]].concat()).collect::<Vec<_>>())
            .collect();
    }
    seqs
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

/// A candidate geometric argument of `shape` on disjunct `d` (not yet checked).
fn geometric(rel: &Relation, d: &[Row], shape: &Shape, integral: bool, oracle: &mut Oracle) -> Option<Geometric> {
    let n = shape.lambdas.len();
    let free: Vec<Option<Term>> = shape.lambdas.iter().map(|l| l.is_none().then(|| Term::fresh("lambda", Sort::Real))).collect();
    let lambda = |i: usize, s: &Sort| match (&shape.lambdas[i], &free[i]) {
        (Some(l), _) => num(l.clone(), s),
        (None, f) => f.clone().expect("a free eigenvalue"),
    };
    let changed: Vec<&Term> = rel.vars.iter().filter(|x| rel.changes(x) && x.sort.is_arith()).collect();
    let dirs: Vec<BTreeMap<Term, Term>> =
        (0..n).map(|_| changed.iter().map(|x| ((*x).clone(), Term::fresh("dir", x.sort.clone()))).collect()).collect();
    let state_vars: BTreeSet<&Term> = rel.pre.values().chain(rel.post.values()).collect();
    let row_vars: BTreeSet<Term> = d.iter().flat_map(|r| r.coeffs.keys().cloned()).collect();
    // the disjunct's other variables: the loop's aux, quotients, remainders (constants stay)
    let aux: Vec<Term> = row_vars.iter().filter(|v| !state_vars.contains(v) && !rel.consts.contains(*v)).cloned().collect();
    let a1: BTreeMap<Term, Term> =
        aux.iter().chain(rel.loop_aux.keys()).map(|v| (v.clone(), Term::fresh("auxpt", v.sort.clone()))).collect();
    let ws: Vec<BTreeMap<Term, Term>> =
        (0..n).map(|_| aux.iter().map(|v| (v.clone(), Term::fresh("auxdir", v.sort.clone()))).collect()).collect();
    let mut base = HashMap::new();
    let mut rays = vec![HashMap::new(); n];
    for x in &rel.vars {
        let (p, q) = (&rel.pre[x], &rel.post[x]);
        if dirs[0].contains_key(x) {
            base.insert(p.clone(), q.clone());
            base.insert(q.clone(), add(&[vec![q.clone()], dirs.iter().map(|y| y[x].clone()).collect()].concat()));
            for (i, ray) in rays.iter_mut().enumerate() {
                let mut image = vec![times(&lambda(i, &x.sort), &dirs[i][x])];
                if i > 0 {
                    image.push(times(&num(shape.mus[i - 1].clone(), &x.sort), &dirs[i - 1][x]));
                }
                ray.insert(p.clone(), dirs[i][x].clone());
                ray.insert(q.clone(), add(&image));
            }
        } else if rel.changes(x) {
            // a changed Boolean keeps its value along the ray
            base.insert(p.clone(), q.clone());
        } else if x.sort.is_arith() {
            for ray in &mut rays {
                ray.insert(p.clone(), zero_of(&x.sort));
                ray.insert(q.clone(), zero_of(&x.sort));
            }
        }
    }
    base.extend(a1.iter().map(|(v, p)| (v.clone(), p.clone())));
    for v in &aux {
        for (ray, w) in rays.iter_mut().zip(&ws) {
            ray.insert(v.clone(), w[v].clone());
        }
    }
    for c in rel.consts.iter().filter(|c| c.sort.is_arith()) {
        for ray in &mut rays {
            ray.insert(c.clone(), zero_of(&c.sort));
        }
    }
    // the first step of the ray on the exact loop too: a disjunct that dropped or weakened
    // atoms (Booleans, products, strict real rows) only proposes the rays
    let mut query = vec![rel.stem.clone(), rel.looped.clone(), substitute(&rel.looped, &base)];
    query.extend(free.iter().flatten().map(|l| smt::build::gt(l, &zero_of(&Sort::Real))));
    query.extend(d.iter().map(|r| row_term(r, &base, false)));
    for ray in &rays {
        query.extend(d.iter().map(|r| row_term(r, ray, true)));
    }
    if oracle.check(&query) != SatResult::Sat {
        return None;
    }
    let mut wanted: Vec<Term> = rel.pre.values().chain(rel.post.values()).cloned().collect();
    wanted.extend(dirs.iter().flat_map(|y| y.values().cloned()));
    wanted.extend(a1.values().cloned());
    wanted.extend(free.iter().flatten().cloned());
    wanted.extend(ws.iter().flat_map(|w| w.values().cloned()));
    wanted.extend(rel.consts.iter().cloned());
    let m = oracle.model(&wanted)?;
    let value = |t: &Term| -> Option<Term> { m.get(t).cloned() };
    let x0: BTreeMap<Term, Term> = rel.vars.iter().map(|x| Some((x.clone(), value(&rel.pre[x])?))).collect::<Option<_>>()?;
    let x1: BTreeMap<Term, Term> = rel.vars.iter().map(|x| Some((x.clone(), value(&rel.post[x])?))).collect::<Option<_>>()?;
    let directions: Vec<BTreeMap<Term, Term>> = dirs
        .iter()
        .map(|dir| {
            rel.vars
                .iter()
                .filter(|x| x.sort.is_arith())
                .map(|x| Some((x.clone(), dir.get(x).map_or(Some(zero_of(&x.sort)), value)?)))
                .collect::<Option<_>>()
        })
        .collect::<Option<_>>()?;
    let consts: HashMap<Term, Term> = rel.consts.iter().map(|c| Some((c.clone(), value(c)?))).collect::<Option<_>>()?;
    // the loop's aux along the ray: the first step's values, moving with the disjunct's rays
    let mut aux_point = BTreeMap::new();
    let mut aux_directions = vec![BTreeMap::new(); n];
    for v in rel.loop_aux.keys() {
        aux_point.insert(v.clone(), value(&a1[v])?);
        if ws[0].contains_key(v) {
            for (dv, w) in aux_directions.iter_mut().zip(&ws) {
                dv.insert(v.clone(), value(&w[v])?);
            }
        }
    }
    let lambdas: Vec<BigRational> =
        shape.lambdas.iter().zip(&free).map(|(l, f)| l.clone().or_else(|| literal_value(&value(f.as_ref()?)?))).collect::<Option<_>>()?;
    Some(Geometric { x0, x1, directions, lambdas, mus: shape.mus.clone(), aux_point, aux_directions, consts, integral })
}

/// A geometric argument over the relation's own variables (before the loop's aux are named
/// by their original instances), with the constants' values.
pub(crate) struct Geometric {
    pub x0: BTreeMap<Term, Term>,
    pub x1: BTreeMap<Term, Term>,
    pub directions: Vec<BTreeMap<Term, Term>>,
    pub lambdas: Vec<BigRational>,
    pub mus: Vec<BigRational>,
    pub aux_point: BTreeMap<Term, Term>,
    pub aux_directions: Vec<BTreeMap<Term, Term>>,
    pub consts: HashMap<Term, Term>,
    /// The `kᵢ` range over the integers.
    pub integral: bool,
}

impl Geometric {
    /// The argument with its states' variables named by `state` and the loop's aux by `aux`
    /// (those it does not name are left out).
    pub fn into_argument(self, state: &dyn Fn(Term) -> Term, aux: &dyn Fn(&Term) -> Option<Term>) -> NonterminationArgument {
        let states = |m: BTreeMap<Term, Term>| m.into_iter().map(|(k, v)| (state(k), v)).collect();
        let auxes = |m: BTreeMap<Term, Term>| m.into_iter().filter_map(|(k, v)| Some((aux(&k)?, v))).collect();
        NonterminationArgument::Geometric {
            x0: states(self.x0),
            x1: states(self.x1),
            directions: self.directions.into_iter().map(states).collect(),
            eigenvalues: self.lambdas,
            nilpotent: self.mus,
            aux_point: auxes(self.aux_point),
            aux_directions: self.aux_directions.into_iter().map(auxes).collect(),
        }
    }
}

/// The coefficients of a ray's directions at a state of it (`kᵢ ≥ 0`) and at its successor
/// (`1 + λⱼkⱼ + μⱼkⱼ₊₁`).
pub(crate) struct Ray {
    pub ks: Vec<Term>,
    pub next: Vec<Term>,
}

/// `base + Σ coefᵢ·dirᵢ` of sort `s` (the coefficients are Int or Real terms).
pub(crate) fn along(base: &Term, dirs: &[Term], coefs: &[Term], s: &Sort) -> Term {
    let scaled =
        dirs.iter().zip(coefs).map(|(d, c)| times(d, &if *s == Sort::Real && c.sort == Sort::Int { to_real(c) } else { c.clone() }));
    add(&[vec![base.clone()], scaled.collect()].concat())
}

/// The exact check of a geometric argument (see the module documentation): the reach query
/// has the extra `pins`, and `arrays` gives the values of array variables along the ray.
pub(crate) fn check(
    rel: &Relation,
    arg: &Geometric,
    pins: &[Term],
    arrays: &dyn Fn(&Ray) -> HashMap<Term, Term>,
    oracle: &mut Oracle,
) -> bool {
    let literal = |m: &BTreeMap<Term, Term>| m.values().all(|v| literal_value(v).is_some());
    if !arg.directions.iter().chain(&arg.aux_directions).all(literal) {
        return false;
    }
    // the stem reaches x0 and one iteration leads to x1
    let mut first: HashMap<Term, Term> = arg.consts.clone();
    for x in rel.vars.iter().filter(|x| arg.x0.contains_key(*x)) {
        if !rel.changes(x) && arg.x0[x] != arg.x1[x] {
            return false;
        }
        first.insert(rel.pre[x].clone(), arg.x0[x].clone());
        first.insert(rel.post[x].clone(), arg.x1[x].clone());
    }
    let mut reach = vec![substitute(&rel.stem, &first), substitute(&rel.looped, &first)];
    reach.extend(pins.iter().cloned());
    if oracle.check(&reach) != SatResult::Sat {
        return false;
    }
    // every k ≥ 0: τ(x1 + Σkᵢyᵢ, x1 + Σⱼ(1 + λⱼkⱼ + μⱼkⱼ₊₁)yⱼ, a + Σkᵢwᵢ)
    let n = arg.lambdas.len();
    let ksort = if arg.integral { Sort::Int } else { Sort::Real };
    let ks: Vec<Term> = (0..n).map(|_| Term::fresh("k", ksort.clone())).collect();
    let next: Vec<Term> = (0..n)
        .map(|j| {
            let mut c = vec![num(BigRational::one(), &ksort), times(&num(arg.lambdas[j].clone(), &ksort), &ks[j])];
            if j + 1 < n {
                c.push(times(&num(arg.mus[j].clone(), &ksort), &ks[j + 1]));
            }
            add(&c)
        })
        .collect();
    let ray = Ray { ks, next };
    let mut sigma: HashMap<Term, Term> = arg.consts.clone();
    for x in rel.vars.iter().filter(|x| arg.x1.contains_key(*x)) {
        let (p, q) = (&rel.pre[x], &rel.post[x]);
        if !rel.changes(x) {
            sigma.insert(p.clone(), arg.x1[x].clone());
        } else if x.sort.is_arith() {
            let ys: Vec<Term> = arg.directions.iter().map(|y| y[x].clone()).collect();
            sigma.insert(p.clone(), along(&arg.x1[x], &ys, &ray.ks, &x.sort));
            sigma.insert(q.clone(), along(&arg.x1[x], &ys, &ray.next, &x.sort));
        } else {
            sigma.insert(p.clone(), arg.x1[x].clone());
            sigma.insert(q.clone(), arg.x1[x].clone());
        }
    }
    for (v, p) in &arg.aux_point {
        let t = if v.sort.is_arith() {
            let ws: Vec<Term> = arg.aux_directions.iter().map(|w| w.get(v).cloned().unwrap_or_else(|| zero_of(&v.sort))).collect();
            along(p, &ws, &ray.ks, &v.sort)
        } else {
            p.clone()
        };
        sigma.insert(v.clone(), t);
    }
    sigma.extend(arrays(&ray));
    let step = substitute(&rel.looped, &sigma);
    let mut query: Vec<Term> = ray.ks.iter().map(|k| ge(k, &zero_of(&ksort))).collect();
    query.push(not(&step));
    oracle.check(&query) == SatResult::Unsat
}
