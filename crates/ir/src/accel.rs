//! Loop acceleration. A self-loop `ℓ → ℓ` (or one path through its body) whose integer
//! updates are affine, `x := A·x + b`, with a closed form polynomial in the number of
//! iterations (see [`crate::recurrence`]: translations `x := x + c`, sums of counters
//! `i := i + 1; s := s + i`, resets and copies), under a guard whose atoms over the assigned
//! variables are linear, gets a second self-loop: `k` iterations at once,
//!
//! ```text
//! G(x) ∧ x' = P(k) ∧ G(P(k - 1))
//! ```
//!
//! where `P(t)` is the closed form. An atom `q(x) ≤ 0` of the guard becomes `q(P(t)) ≤ 0`, a
//! polynomial in `t`: if it is convex in `t` (degree 1, or degree 2 with a non-negative leading
//! coefficient, which is assumed when it is not a constant), the atom holding at the first and
//! the last iteration makes it hold at every iteration between; so does it if the polynomial is
//! monotone between them. A body whose closed form does not exist may have one when taken twice
//! (`x := -x` or `b := !b` alternate: `k` double iterations). Boolean variables must keep their
//! values (in the body taken twice if need be). An unsigned update `x := e mod 2^n` is taken
//! where it does not wrap (`0 ≤ e < 2^n`), and an update `x := c ? a : b` has a path for each
//! case: the wrap is one more iteration of the loop.
//!
//! The new edge is contained in the loop's `k`-fold iteration, so proofs stay proofs, and a
//! feasible trace through it is a real execution: bugs behind a million iterations become
//! traces of three letters. Closed forms of degree 2 and more, and those where the number of
//! iterations multiplies a variable, are non-linear integer arithmetic: the solver decides them
//! within the query budget, and its UNKNOWN is never a FALSE. They are only added on request
//! ([`Acceleration::Polynomial`]): trace abstraction proves less with them.

use crate::recurrence::{apply, substitute_lin, ClosedForm, Update};
use crate::{Block, Cfg, Edge, Label, Stmt, TransFormula};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed};
use smt::build::{add, and, eq, ge, int, int_big, int_div, le, lt, mul, not, or, sub, tt};
use smt::linear::{to_term, LinExpr};
use smt::subst::{conjuncts, free_vars, substitute};
use smt::{Op, Sort, Term};
use std::collections::{BTreeMap, HashMap};

/// At most this many paths through a loop body are looked at.
const MAX_PATHS: usize = 16;

/// Which closed forms acceleration uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acceleration {
    /// Linear in the number of iterations with constant coefficients (`x + k·c`): the edge is
    /// linear arithmetic, which interpolation and Hoare triples handle as well as the loop.
    Linear,
    /// Every closed form (`s + k·i + k(k+1)/2`): non-linear arithmetic, for engines that only
    /// look for bugs (the proofs of trace abstraction suffer from it).
    Polynomial,
}

/// `cfg` with an accelerated self-loop next to each self-loop path that has a closed form of
/// the given kind.
pub fn accelerate(cfg: &Cfg, kind: Acceleration) -> Cfg {
    let mut out = cfg.clone();
    out.edges.extend(accelerated(cfg, kind));
    out
}

/// Whether a self-loop path of `cfg` has a closed form that only [`Acceleration::Polynomial`]
/// takes: a loop whose deep bugs only the engines that take non-linear closed forms reach at
/// once.
pub fn has_polynomial_loop(cfg: &Cfg) -> bool {
    accelerated(cfg, Acceleration::Polynomial).len() > accelerated(cfg, Acceleration::Linear).len()
}

/// The accelerated self-loops of `cfg` with closed forms of the given kind.
fn accelerated(cfg: &Cfg, kind: Acceleration) -> Vec<Edge> {
    let mut out = vec![];
    for e in &cfg.edges {
        if e.src != e.dst || !matches!(e.label, Label::Stmt(_)) {
            continue;
        }
        let k = Term::var(&format!("#k{}", e.src), Sort::Int);
        for path in paths(&e.as_block()).unwrap_or_else(|| vec![vec![e.stmt()]]) {
            for s in LoopPath::all(&Stmt::Seq(path).trans_formula()).iter().filter_map(|p| p.iterated(&k, kind)) {
                out.push(Edge::new(e.src, e.dst, Label::Stmt(s), e.pos.clone(), e.overapprox.clone()));
            }
        }
    }
    out
}

/// The statements along each path through a block, or `None` past [`MAX_PATHS`].
fn paths(b: &Block) -> Option<Vec<Vec<Stmt>>> {
    let all = match b {
        Block::Edge(e) => vec![vec![e.stmt()]],
        Block::Choice(branches) => {
            let mut all = vec![];
            for branch in branches {
                all.extend(paths(branch)?);
            }
            all
        }
        Block::Seq(parts) => {
            let mut all = vec![vec![]];
            for part in parts {
                let tails = paths(part)?;
                all = all.iter().flat_map(|p: &Vec<Stmt>| tails.iter().map(move |t| [p.clone(), t.clone()].concat())).collect();
                if all.len() > MAX_PATHS {
                    return None;
                }
            }
            all
        }
    };
    (all.len() <= MAX_PATHS).then_some(all)
}

/// One path through a loop body over canonical variables: `assume guard; x := update(x)`.
#[derive(Clone)]
struct LoopPath {
    guard: Vec<Term>,
    update: Update,
    /// The new value of each assigned Boolean variable.
    bools: BTreeMap<Term, Term>,
}

/// A guard atom `e rel 0`.
#[derive(Clone, Copy, PartialEq)]
enum Rel {
    Le,
    Lt,
    Eq,
}

impl LoopPath {
    /// The paths of a transition formula whose assigned variables are integers that get affine
    /// expressions of the values before it (and Booleans): one per case of its updates
    /// `x' = ite(c, a, b)`, where unsigned updates do not wrap.
    fn all(tf: &TransFormula) -> Vec<LoopPath> {
        let canonical: HashMap<Term, Term> = tf.in_vars.iter().map(|(v, i)| (i.clone(), v.clone())).collect();
        let assigned: HashMap<Term, Term> =
            tf.out_vars.iter().filter(|(v, o)| tf.in_vars.get(*v) != Some(*o)).map(|(v, o)| (o.clone(), v.clone())).collect();
        if !tf.aux_vars.is_empty() || assigned.is_empty() || assigned.values().any(|v| v.sort != Sort::Int && v.sort != Sort::Bool) {
            return vec![];
        }
        let mut variants: Vec<Vec<Term>> = vec![vec![]];
        for p in conjuncts(&tf.formula) {
            let cases = cases(&p, &assigned);
            variants = variants.iter().flat_map(|v| cases.iter().map(move |c| [v.clone(), c.clone()].concat())).take(MAX_PATHS).collect();
        }
        variants.into_iter().filter_map(|parts| LoopPath::of(parts, &canonical, &assigned)).collect()
    }

    /// The path of the conjuncts of a transition formula (its in-instances and assigned
    /// out-instances mapped to their variables), if it is one.
    fn of(mut parts: Vec<Term>, canonical: &HashMap<Term, Term>, assigned: &HashMap<Term, Term>) -> Option<LoopPath> {
        // Each integer out-instance is defined by an equation over in-instances and the
        // out-instances defined before it, each Boolean one by an equation over those; the
        // other conjuncts are the guard.
        let mut defined: HashMap<Term, LinExpr> = HashMap::new();
        while defined.len() < assigned.values().filter(|v| v.sort == Sort::Int).count() {
            let (at, out, value) = parts.iter().enumerate().find_map(|(i, p)| {
                let (out, value) = definition(p, assigned, &defined, canonical)?;
                Some((i, out, value))
            })?;
            parts.remove(at);
            defined.insert(out, value);
        }
        let mut outs: HashMap<Term, Term> = defined.iter().map(|(o, e)| (o.clone(), to_term(e, &Sort::Int))).collect();
        let mut bools = BTreeMap::new();
        for (o, x) in assigned.iter().filter(|(_, x)| x.sort == Sort::Bool) {
            let (at, value) = parts.iter().enumerate().find_map(|(i, p)| Some((i, boolean_definition(p, o)?)))?;
            parts.remove(at);
            let value = substitute(&value, &outs);
            if !free_vars(&value).iter().all(|v| canonical.contains_key(v)) {
                return None;
            }
            bools.insert(x.clone(), substitute(&value, canonical));
            outs.insert(o.clone(), value);
        }
        let mut guard = vec![];
        for p in parts {
            let p = substitute(&p, &outs);
            if !free_vars(&p).iter().all(|x| canonical.contains_key(x)) {
                return None;
            }
            guard.push(substitute(&p, canonical));
        }
        let update =
            defined.into_iter().map(|(o, e)| (assigned[&o].clone(), substitute_lin(&e, |x| canonical.get(x).map(LinExpr::atom)))).collect();
        Some(LoopPath { guard, update, bools })
    }

    /// The body taken twice.
    fn twice(&self) -> LoopPath {
        let mut values: HashMap<Term, Term> = self.update.iter().map(|(x, e)| (x.clone(), to_term(e, &Sort::Int))).collect();
        values.extend(self.bools.iter().map(|(b, e)| (b.clone(), e.clone())));
        let mut guard = self.guard.clone();
        guard.extend(self.guard.iter().map(|g| substitute(g, &values)));
        let update = self.update.iter().map(|(x, e)| (x.clone(), apply(e, &self.update, true))).collect();
        let bools = self.bools.iter().map(|(b, e)| (b.clone(), substitute(e, &values))).collect();
        LoopPath { guard, update, bools }
    }

    /// Whether the Boolean variables keep their values (as `b := !b` does taken twice).
    fn keeps_booleans(&self) -> bool {
        self.bools.iter().all(|(b, e)| b == e)
    }

    /// `k ≥ 1` iterations (of this path, or of the path taken twice when only that has a
    /// closed form): `assume G; havoc k; assume k ≥ 1 ∧ side; assume G(P(k - 1)); x := P(k);
    /// havoc k`, where `side` are the conditions under which the moving atoms holding at the
    /// ends hold between. The last havoc keeps `k` out of every assertion after the loop.
    fn iterated(&self, k: &Term, kind: Acceleration) -> Option<Stmt> {
        let (path, form) = std::iter::once(self.clone())
            .chain(std::iter::once_with(|| self.twice()))
            .filter(LoopPath::keeps_booleans)
            .find_map(|p| ClosedForm::of(&p.update).map(|f| (p, f)))?;
        let linear = form.degree() <= 1 && form.coeffs.values().all(|c| c.iter().skip(1).all(LinExpr::is_constant));
        if path.update.is_empty() || (kind == Acceleration::Linear && !linear) {
            return None;
        }
        let moves = |g: &Term| free_vars(g).iter().any(|x| path.update.contains_key(x));
        let first = int(form.shift.max(1) as i64);
        let mut checks = vec![ge(k, &first)];
        // The iterations after the first ones that `G(x)` checks are `shift + s` for
        // `s = 0 ..= last`.
        let last = sub(k, &int(form.shift as i64 + 1));
        for g in path.guard.iter().filter(|g| moves(g)) {
            let (e, rel) = linear_atom(g)?;
            let q = form.of_expr(&e);
            checks.push(endpoints_suffice(&q, rel, &last)?);
            if form.shift == 1 {
                checks.push(relation(rel, &to_term(&q[0], &Sort::Int)));
            }
            checks.push(relation(rel, &value_at(&q, &last)));
        }
        let at_k = sub(k, &int(form.shift as i64));
        let assign = form.coeffs.iter().map(|(x, c)| (x.clone(), value_at(c, &at_k))).collect::<Vec<_>>();
        let rest: Vec<Stmt> = checks.into_iter().map(Stmt::Assume).collect();
        Some(Stmt::Seq(
            [
                vec![Stmt::Assume(and(&path.guard)), Stmt::Havoc(vec![k.clone()])],
                rest,
                vec![Stmt::Assign(assign), Stmt::Havoc(vec![k.clone()])],
            ]
            .concat(),
        ))
    }
}

/// The out-instance a conjunct defines and its value over in-instances: `out = e` (in any
/// linear arrangement, `out` with coefficient ±1), where `e` is affine in in-instances and in
/// out-instances already defined.
fn definition(
    p: &Term,
    assigned: &HashMap<Term, Term>,
    defined: &HashMap<Term, LinExpr>,
    canonical: &HashMap<Term, Term>,
) -> Option<(Term, LinExpr)> {
    if p.op() != Some(&Op::Eq) || p.args.len() != 2 || p.args[0].sort != Sort::Int {
        return None;
    }
    let e = substitute_lin(&smt::linear::difference(&p.args[0], &p.args[1])?, |x| defined.get(x).cloned());
    let mut unknown = e.coeffs.iter().filter(|(x, _)| !canonical.contains_key(*x));
    let (out, c) = unknown.next()?;
    if unknown.next().is_some() || !assigned.contains_key(out) || defined.contains_key(out) || !c.abs().is_one() {
        return None;
    }
    // c·out + rest = 0, so out = -rest / c.
    let mut rest = e.clone();
    rest.coeffs.remove(out);
    let value = rest.scale(&-c.recip());
    let integral = value.coeffs.values().chain([&value.constant]).all(BigRational::is_integer);
    integral.then(|| (out.clone(), value))
}

/// The cases of a conjunct: `out = ite(c, a, b)` is `c ∧ out = a` or `¬c ∧ out = b`;
/// `out = e mod M` (an unsigned update, `M` a positive literal) is taken where it does not wrap,
/// `out = e ∧ 0 ≤ e ∧ e < M`. Other conjuncts are one case of their own.
fn cases(p: &Term, assigned: &HashMap<Term, Term>) -> Vec<Vec<Term>> {
    if let (Some(Op::Eq), [a, b]) = (p.op(), p.args.as_slice()) {
        for (out, value) in [(a, b), (b, a)] {
            if !assigned.contains_key(out) {
                continue;
            }
            match (value.op(), value.args.as_slice()) {
                (Some(Op::Ite), [c, then, other]) => {
                    return vec![vec![c.clone(), eq(out, then)], vec![not(c), eq(out, other)]];
                }
                (Some(Op::Mod), [e, modulus]) if modulus.as_rational().is_some_and(|r| r.is_positive()) => {
                    return vec![vec![eq(out, e), le(&int(0), e), lt(e, modulus)]];
                }
                _ => {}
            }
        }
    }
    vec![vec![p.clone()]]
}

/// The value a conjunct gives the Boolean out-instance `out`: `out = e`, `out`, or `!out`.
fn boolean_definition(p: &Term, out: &Term) -> Option<Term> {
    if p == out {
        return Some(tt());
    }
    match (p.op(), p.args.as_slice()) {
        (Some(Op::Not), [a]) if a == out => Some(smt::build::ff()),
        (Some(Op::Eq), [a, b]) if a == out => Some(b.clone()),
        (Some(Op::Eq), [a, b]) if b == out => Some(a.clone()),
        _ => None,
    }
}

/// A guard atom as `e rel 0` with `e` affine in integer variables (no opaque non-linear term).
fn linear_atom(g: &Term) -> Option<(LinExpr, Rel)> {
    let (negated, atom) = match g.op() {
        Some(Op::Not) => (true, &g.args[0]),
        _ => (false, g),
    };
    let (rel, [a, b]) = (atom.op()?, atom.args.as_slice()) else { return None };
    let (e, rel) = match (rel, negated) {
        (Op::Le, false) => (smt::linear::difference(a, b)?, Rel::Le),
        (Op::Lt, false) => (smt::linear::difference(a, b)?, Rel::Lt),
        (Op::Eq, false) => (smt::linear::difference(a, b)?, Rel::Eq),
        (Op::Le, true) => (smt::linear::difference(b, a)?, Rel::Lt),
        (Op::Lt, true) => (smt::linear::difference(b, a)?, Rel::Le),
        _ => return None,
    };
    e.coeffs.keys().all(|x| x.is_var() && x.sort == Sort::Int).then_some((e, rel))
}

/// The condition under which `q(s) rel 0` holding at `s = 0` and `s = last` makes it hold at
/// every `s` between: always for degree 1; for degree 2 (`q(s) = L0 + s·L1 + C(s, 2)·L2`), `q`
/// convex (`L2 ≥ 0`, for `≤` and `<`) or monotone on the interval (its difference
/// `L1 + s·L2` has one sign at both ends), and linear for `=`. `None` when it cannot hold.
fn endpoints_suffice(q: &[LinExpr], rel: Rel, last: &Term) -> Option<Term> {
    let cond = match q {
        [] | [_] | [_, _] => tt(),
        [_, l1, l2] => {
            let (l1, l2, zero) = (to_term(l1, &Sort::Int), to_term(l2, &Sort::Int), int(0));
            let end = add(&[l1.clone(), mul(&[sub(last, &int(1)), l2.clone()])]);
            match rel {
                Rel::Eq => eq(&l2, &zero),
                Rel::Le | Rel::Lt => {
                    or(&[ge(&l2, &zero), and(&[ge(&l1, &zero), ge(&end, &zero)]), and(&[le(&l1, &zero), le(&end, &zero)])])
                }
            }
        }
        _ => return None,
    };
    (!cond.is_false()).then_some(cond)
}

fn relation(rel: Rel, e: &Term) -> Term {
    let zero = int(0);
    match rel {
        Rel::Le => le(e, &zero),
        Rel::Lt => lt(e, &zero),
        Rel::Eq => eq(e, &zero),
    }
}

/// `Σ_p C(t, p)·coeffs[p]` as an integer term. Binomials of degree 2 and more are written over
/// a common denominator `D = deg!` and divided exactly: `(Σ_p (D/p!)·t(t-1)..(t-p+1)·L_p) div D`.
fn value_at(coeffs: &[LinExpr], t: &Term) -> Term {
    let degree = coeffs.len().saturating_sub(1);
    let denominator: BigInt = (1..=degree).map(BigInt::from).product();
    let parts: Vec<Term> = coeffs
        .iter()
        .enumerate()
        .map(|(p, l)| {
            let scale = &denominator / (1..=p).map(BigInt::from).product::<BigInt>();
            let falling = (0..p).map(|i| sub(t, &int(i as i64)));
            mul(&[vec![int_big(scale)], falling.collect(), vec![to_term(l, &Sort::Int)]].concat())
        })
        .collect();
    let sum = add(&parts);
    if denominator.is_one() {
        sum
    } else {
        int_div(&sum, &int_big(denominator))
    }
}
