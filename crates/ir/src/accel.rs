//! Loop acceleration for translations. A self-loop `ℓ → ℓ` whose relation is a *translation*
//! (each assigned integer variable `x` gets `x + c_x` for a constant `c_x`) under a guard `G`
//! that is a conjunction of linear atoms (or of any formula over variables the loop does not
//! assign) gets a second self-loop: `k ≥ 1` iterations at once,
//!
//! ```text
//! G(x) ∧ x' = x + k·c ∧ G(x + (k-1)·c)
//! ```
//!
//! Exact, because a polyhedron is convex: if the first and the last point of the segment
//! `x, x + c, .., x + (k-1)·c` satisfy `G`, so does every point between. The new edge adds no
//! behaviour, so proofs stay proofs and a feasible trace through it is a real execution (of `k`
//! iterations): bugs behind a million iterations become traces of three letters. A loop body
//! with branches (a large block with choices) gets one such edge per path through it that is a
//! guarded translation: `k` iterations along that path.

use crate::{Block, Cfg, Edge, Label, Stmt, TransFormula};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use smt::build::{add, and, ge, int, int_big, mul, sub};
use smt::linear::linearize;
use smt::subst::{conjuncts, free_vars, substitute};
use smt::{Op, Sort, Term};
use std::collections::{BTreeMap, HashMap};

/// At most this many paths through a loop body are looked at.
const MAX_PATHS: usize = 16;

/// `cfg` with an accelerated self-loop next to each self-loop path that is a guarded translation.
pub fn accelerate(cfg: &Cfg) -> Cfg {
    let mut out = cfg.clone();
    for e in &cfg.edges {
        if e.src != e.dst || !matches!(e.label, Label::Stmt(_)) {
            continue;
        }
        let k = Term::var(&format!("#k{}", e.src), Sort::Int);
        for path in paths(&e.as_block()).unwrap_or_else(|| vec![vec![e.stmt()]]) {
            if let Some(t) = translation(&Stmt::Seq(path).trans_formula()) {
                out.edges.push(Edge::new(e.src, e.dst, Label::Stmt(t.iterated(&k)), e.pos.clone(), e.overapprox.clone()));
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

/// A guarded translation over canonical variables.
struct Translation {
    guard: Vec<Term>,
    /// `x ↦ c_x` for each assigned variable.
    steps: BTreeMap<Term, BigInt>,
}

impl Translation {
    /// `k ≥ 1` iterations: `assume G; havoc k; assume k ≥ 1; x := x + k·c; assume G(x - c);
    /// havoc k` (the last havoc keeps `k` out of every assertion after the loop).
    fn iterated(&self, k: &Term) -> Stmt {
        let guard = and(&self.guard);
        let back: HashMap<Term, Term> = self.steps.iter().map(|(x, c)| (x.clone(), sub(x, &int_big(c.clone())))).collect();
        let assign = self.steps.iter().map(|(x, c)| (x.clone(), add(&[x.clone(), mul(&[k.clone(), int_big(c.clone())])]))).collect();
        Stmt::Seq(vec![
            Stmt::Assume(guard.clone()),
            Stmt::Havoc(vec![k.clone()]),
            Stmt::Assume(ge(k, &int(1))),
            Stmt::Assign(assign),
            Stmt::Assume(substitute(&guard, &back)),
            Stmt::Havoc(vec![k.clone()]),
        ])
    }
}

/// The translation a transition formula is, if it is one (see the module documentation).
fn translation(tf: &TransFormula) -> Option<Translation> {
    if !tf.aux_vars.is_empty() {
        return None;
    }
    let canonical: HashMap<Term, Term> = tf.in_vars.iter().map(|(v, i)| (i.clone(), v.clone())).collect();
    let assigned: Vec<(&Term, &Term)> = tf.out_vars.iter().filter(|(v, o)| tf.in_vars.get(*v) != Some(*o)).collect();
    if assigned.is_empty() {
        return None;
    }
    let mut parts = conjuncts(&tf.formula);
    let mut steps = BTreeMap::new();
    let mut out_to_in = HashMap::new();
    for (v, out) in assigned {
        let input = tf.in_vars.get(v)?;
        if v.sort != Sort::Int {
            return None;
        }
        let (at, c) = parts.iter().enumerate().find_map(|(i, p)| Some((i, step_of(p, out, input)?)))?;
        parts.remove(at);
        out_to_in.insert(out.clone(), add(&[input.clone(), int_big(c.clone())]));
        steps.insert(v.clone(), c);
    }
    let moving: Vec<Term> = steps.keys().map(|v| tf.in_vars[v].clone()).collect();
    let mut guard = vec![];
    for p in parts {
        let p = substitute(&p, &out_to_in);
        let vars = free_vars(&p);
        if !vars.iter().all(|x| canonical.contains_key(x)) {
            return None;
        }
        if vars.iter().any(|x| moving.contains(x)) && !is_convex_atom(&p) {
            return None;
        }
        guard.push(substitute(&p, &canonical));
    }
    Some(Translation { guard, steps })
}

/// `c` if `p` is `out = input + c` (in any linear arrangement).
fn step_of(p: &Term, out: &Term, input: &Term) -> Option<BigInt> {
    if p.op() != Some(&Op::Eq) || p.args.len() != 2 {
        return None;
    }
    let e = linearize(&sub(&p.args[0], &p.args[1]))?;
    let (a, b) = (e.coeffs.get(out)?, e.coeffs.get(input)?);
    if e.coeffs.len() != 2 || !(a + b).is_zero() || !(a.is_one() || (-a).is_one()) {
        return None;
    }
    // a·out - a·input + constant = 0, so out = input - constant / a.
    let c: BigRational = -(&e.constant) / a;
    c.is_integer().then(|| c.to_integer())
}

/// A linear (in)equality, or the negation of an inequality: a convex set.
fn is_convex_atom(p: &Term) -> bool {
    let linear = |t: &Term| matches!(t.op(), Some(Op::Le | Op::Lt | Op::Eq)) && t.args.iter().all(|a| linearize(a).is_some());
    match p.op() {
        Some(Op::Not) => matches!(p.args[0].op(), Some(Op::Le | Op::Lt)) && linear(&p.args[0]),
        _ => linear(p),
    }
}
