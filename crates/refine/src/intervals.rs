//! Assertions from abstract interpretation of the trace's path program in the interval domain
//! (as Ultimate Taipan does): the path program is the sub-graph of the control flow that the
//! trace runs through, loops included; its interval invariants, widened at loop heads and then
//! narrowed, give every position of the trace the invariant of its location. When they make the
//! error location unreachable they are a sequence for the trace and, by construction, inductive
//! for its path program (perfect), where interpolants of an unrolled loop count iterations.
//!
//! The abstract post of a transition formula propagates bounds through its linear atoms; atoms
//! it does not understand constrain nothing, so the result over-approximates (and the
//! interpolant automaton checks every Hoare triple it uses anyway).

use crate::portfolio::PathProgram;
use crate::RefineError;
use ir::TransFormula;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use smt::build::{and, eq, ff, le, not, num, or, tt};
use smt::linear::{difference, linearize, LinExpr};
use smt::{Op, Sort, Term};
use std::collections::{BTreeMap, HashMap};

/// Bounds of a numeric quantity; `None` is unbounded.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
struct Range {
    lo: Option<BigRational>,
    hi: Option<BigRational>,
}

impl Range {
    fn is_top(&self) -> bool {
        self.lo.is_none() && self.hi.is_none()
    }

    fn is_empty(&self) -> bool {
        matches!((&self.lo, &self.hi), (Some(l), Some(h)) if l > h)
    }

    /// The smallest range holding both.
    fn hull(&self, other: &Range) -> Range {
        let lo = match (&self.lo, &other.lo) {
            (Some(a), Some(b)) => Some(a.min(b).clone()),
            _ => None,
        };
        let hi = match (&self.hi, &other.hi) {
            (Some(a), Some(b)) => Some(a.max(b).clone()),
            _ => None,
        };
        Range { lo, hi }
    }

    /// Interval widening with thresholds (sorted): a bound that moved jumps to the next
    /// threshold past it, or is dropped.
    fn widen(&self, newer: &Range, thresholds: &[BigRational]) -> Range {
        let lo = match (&self.lo, &newer.lo) {
            (Some(a), Some(b)) if b >= a => Some(a.clone()),
            (Some(_), Some(b)) => thresholds.iter().rev().find(|t| *t <= b).cloned(),
            _ => None,
        };
        let hi = match (&self.hi, &newer.hi) {
            (Some(a), Some(b)) if b <= a => Some(a.clone()),
            (Some(_), Some(b)) => thresholds.iter().find(|t| *t >= b).cloned(),
            _ => None,
        };
        Range { lo, hi }
    }

    /// The intersection.
    fn meet(&self, other: &Range) -> Range {
        let lo = match (&self.lo, &other.lo) {
            (Some(a), Some(b)) => Some(a.max(b).clone()),
            (a, b) => a.clone().or(b.clone()),
        };
        let hi = match (&self.hi, &other.hi) {
            (Some(a), Some(b)) => Some(a.min(b).clone()),
            (a, b) => a.clone().or(b.clone()),
        };
        Range { lo, hi }
    }
}

/// Ranges of program variables at a location; a missing variable is unbounded.
type Bounds = BTreeMap<Term, Range>;

/// Ranges of the atoms of one transition formula (variable instances, opaque subterms).
type Env = HashMap<Term, Range>;

/// How often the bounds of one conjunction are propagated (a cap: stopping early only loses
/// precision).
const PROPAGATION_ROUNDS: usize = 8;

/// Subformula visits of one abstract post.
const PROPAGATION_FUEL: usize = 20_000;

/// Updates of a location after which its range is widened.
const WIDEN_AFTER: usize = 2;

/// Rounds of the ascending iteration before giving up, and of the descending one (narrowing).
const ASCENDING_ROUNDS: usize = 100;
const DESCENDING_ROUNDS: usize = 8;

/// The interval sequence of a flat trace through `path`, if the intervals exclude the error.
pub fn interval_sequence(trace: &[TransFormula], path: &PathProgram) -> Result<Vec<Term>, RefineError> {
    as_sequence(path_boxes(trace, path)?)
}

/// The box of each position's location in the path program's interval invariants (`false`
/// where unreachable); only where the path program has a loop: without one the boxes are only
/// the trace's strongest posts, and Craig's and Newton's assertions generalize better.
pub fn path_boxes(trace: &[TransFormula], path: &PathProgram) -> Result<Vec<Term>, RefineError> {
    let mut visited = std::collections::HashSet::new();
    if path.locs.iter().all(|l| visited.insert(*l)) {
        return Err(RefineError::NotApplicable("the path program has no loop".into()));
    }
    let at: BTreeMap<usize, Term> =
        path_invariants(trace, path)?.into_iter().map(|(l, b)| (l, b.as_ref().map_or_else(ff, to_term))).collect();
    tracing::trace!("path program {:?}: {:?}", path.locs, at);
    Ok(path.locs.iter().map(|l| at[l].clone()).collect())
}

/// The boxes as a sequence for the trace, if they make its error location unreachable.
pub fn as_sequence(mut boxes: Vec<Term>) -> Result<Vec<Term>, RefineError> {
    if !boxes.last().is_some_and(Term::is_false) {
        return Err(RefineError::NotApplicable("the intervals of the path program reach the error".into()));
    }
    boxes[0] = tt();
    Ok(boxes)
}

/// The interval invariant (`None`: unreachable) of every location of the path program.
fn path_invariants(trace: &[TransFormula], path: &PathProgram) -> Result<BTreeMap<usize, Option<Bounds>>, RefineError> {
    // The distinct edges, in the order the trace first takes them.
    let mut seen = std::collections::BTreeSet::new();
    let edges: Vec<(usize, usize, &TransFormula)> = (0..trace.len())
        .filter(|&i| seen.insert((path.locs[i], path.letters[i], path.locs[i + 1])))
        .map(|i| (path.locs[i], path.locs[i + 1], &trace[i]))
        .collect();
    let thresholds = thresholds(trace);
    let entry = path.locs[0];
    let mut at: BTreeMap<usize, Option<Bounds>> = path.locs.iter().map(|&l| (l, None)).collect();
    at.insert(entry, Some(Bounds::new()));
    let mut updates: HashMap<usize, usize> = HashMap::new();
    let mut stable = false;
    for _ in 0..ASCENDING_ROUNDS {
        stable = true;
        for &(src, dst, tf) in &edges {
            let Some(post) = at[&src].as_ref().and_then(|b| post(b, tf)) else { continue };
            let old = at[&dst].clone();
            let joined = match &old {
                None => post,
                Some(o) => {
                    let j = join(o, &post);
                    let n = updates.entry(dst).or_default();
                    *n += 1;
                    if *n > WIDEN_AFTER {
                        widen(o, &j, &thresholds)
                    } else {
                        j
                    }
                }
            };
            if old.as_ref() != Some(&joined) {
                at.insert(dst, Some(joined));
                stable = false;
            }
        }
        if stable {
            break;
        }
    }
    if !stable {
        return Err(RefineError::NotApplicable("the intervals of the path program did not stabilize".into()));
    }
    // Narrowing: recompute each location from its incoming edges and keep the intersection
    // (sound from any over-approximation, since every abstract post is sound).
    for _ in 0..DESCENDING_ROUNDS {
        let mut changed = false;
        let locs: Vec<usize> = at.keys().copied().filter(|&l| l != entry).collect();
        for l in locs {
            let mut incoming: Option<Bounds> = None;
            for &(src, _, tf) in edges.iter().filter(|e| e.1 == l) {
                if let Some(p) = at[&src].as_ref().and_then(|b| post(b, tf)) {
                    incoming = Some(match incoming {
                        None => p,
                        Some(i) => join(&i, &p),
                    });
                }
            }
            let narrowed = match (&at[&l], incoming) {
                (Some(old), Some(new)) => meet(old, &new),
                _ => None,
            };
            if narrowed != at[&l] {
                at.insert(l, narrowed);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    Ok(at)
}

/// Pointwise hull (a variable unbounded on one side stays unbounded).
fn join(a: &Bounds, b: &Bounds) -> Bounds {
    a.iter().filter_map(|(x, r)| b.get(x).map(|s| (x.clone(), r.hull(s)))).filter(|(_, r)| !r.is_top()).collect()
}

/// Pointwise widening of `old` by `new` (`new` includes `old`).
fn widen(old: &Bounds, new: &Bounds, thresholds: &[BigRational]) -> Bounds {
    old.iter().filter_map(|(x, r)| new.get(x).map(|s| (x.clone(), r.widen(s, thresholds)))).filter(|(_, r)| !r.is_top()).collect()
}

/// The widening thresholds of a trace: each numeric literal `k` of its formulas, and `k ± 1`
/// (the bounds that strict and non-strict guards on `k` give), sorted.
fn thresholds(trace: &[TransFormula]) -> Vec<BigRational> {
    let one = BigRational::from_integer(1.into());
    let mut found = std::collections::BTreeSet::new();
    for k in trace.iter().flat_map(|tf| tf.formula.subterms()).filter_map(|t| t.as_rational()) {
        found.insert(&k - &one);
        found.insert(&k + &one);
        found.insert(k);
    }
    found.into_iter().collect()
}

/// Pointwise intersection; `None` if some range becomes empty.
fn meet(a: &Bounds, b: &Bounds) -> Option<Bounds> {
    let mut m = a.clone();
    for (x, r) in b {
        let r = m.get(x).map_or_else(|| r.clone(), |q| q.meet(r));
        if r.is_empty() {
            return None;
        }
        m.insert(x.clone(), r);
    }
    Some(m)
}

/// The ranges after `tf` from ranges before it; `None` if `tf` cannot be taken from them.
fn post(pre: &Bounds, tf: &TransFormula) -> Option<Bounds> {
    let mut env: Env = tf.in_vars.iter().filter_map(|(x, inst)| pre.get(x).map(|r| (inst.clone(), r.clone()))).collect();
    if !propagate(&mut env, &tf.formula, &mut PROPAGATION_FUEL.clone()) {
        return None;
    }
    let mut post = pre.clone();
    for x in tf.in_vars.keys().chain(tf.out_vars.keys()) {
        post.remove(x);
    }
    let after = |x: &Term| tf.out_vars.get(x).or_else(|| tf.in_vars.get(x));
    for x in tf.in_vars.keys().chain(tf.out_vars.keys()) {
        if let Some(r) = after(x).and_then(|inst| env.get(inst)) {
            if x.sort.is_arith() && !r.is_top() {
                post.insert(x.clone(), r.clone());
            }
        }
    }
    Some(post)
}

/// Narrows `env` by the constraint `f`; false if `f` is unsatisfiable within `env`.
/// Each visit of a subformula costs one unit of `fuel`; with none left, nothing is narrowed
/// (nested disjunctions in conjunctions would otherwise multiply the rounds).
fn propagate(env: &mut Env, f: &Term, fuel: &mut usize) -> bool {
    if *fuel == 0 {
        return true;
    }
    *fuel -= 1;
    match (f.op(), f.args.as_slice()) {
        _ if f.is_true() => true,
        _ if f.is_false() => false,
        (Some(Op::And), parts) => {
            for _ in 0..PROPAGATION_ROUNDS {
                let before = env.clone();
                if !parts.iter().all(|p| propagate(env, p, fuel)) {
                    return false;
                }
                if *env == before {
                    break;
                }
            }
            true
        }
        (Some(Op::Or), parts) => {
            let cases: Vec<Env> = parts
                .iter()
                .filter_map(|p| {
                    let mut e = env.clone();
                    propagate(&mut e, p, fuel).then_some(e)
                })
                .collect();
            let Some((first, rest)) = cases.split_first() else { return false };
            *env = first
                .iter()
                .filter_map(|(x, r)| rest.iter().try_fold(r.clone(), |h, e| e.get(x).map(|s| h.hull(s))).map(|h| (x.clone(), h)))
                .filter(|(_, r)| !r.is_top())
                .collect();
            true
        }
        (Some(Op::Implies), [a, b]) => propagate(env, &or(&[not(a), b.clone()]), fuel),
        (Some(Op::Not), [g]) => match (g.op(), g.args.as_slice()) {
            (Some(Op::Not), [h]) => propagate(env, h, fuel),
            (Some(Op::And), parts) => propagate(env, &or(&parts.iter().map(not).collect::<Vec<_>>()), fuel),
            (Some(Op::Or), parts) => propagate(env, &and(&parts.iter().map(not).collect::<Vec<_>>()), fuel),
            // ¬(a ≤ b) is b < a; ¬(a < b) is b ≤ a.
            (Some(Op::Le), [a, b]) if a.sort.is_arith() => bound(env, b, a, Rel::Lt),
            (Some(Op::Lt), [a, b]) if a.sort.is_arith() => bound(env, b, a, Rel::Le),
            (Some(Op::Eq), [a, b]) if a.sort.is_arith() => exclude(env, a, b),
            _ => true,
        },
        (Some(Op::Le), [a, b]) if a.sort.is_arith() => bound(env, a, b, Rel::Le),
        (Some(Op::Lt), [a, b]) if a.sort.is_arith() => bound(env, a, b, Rel::Lt),
        (Some(Op::Eq), [a, b]) if a.sort.is_arith() => bound(env, a, b, Rel::Le) && bound(env, b, a, Rel::Le),
        (Some(Op::Distinct), [a, b]) if a.sort.is_arith() => exclude(env, a, b),
        _ => true,
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Rel {
    Le,
    Lt,
}

/// The range of `e` under `env`.
fn range_of(env: &Env, e: &LinExpr) -> Range {
    let mut lo = Some(e.constant.clone());
    let mut hi = Some(e.constant.clone());
    for (x, c) in &e.coeffs {
        let r = env.get(x).cloned().unwrap_or_else(|| intrinsic(env, x));
        let (min, max) = if c.is_positive() { (&r.lo, &r.hi) } else { (&r.hi, &r.lo) };
        lo = lo.zip(min.as_ref()).map(|(l, m)| l + c * m);
        hi = hi.zip(max.as_ref()).map(|(h, m)| h + c * m);
    }
    Range { lo, hi }
}

/// The range an atom without bounds of its own has by its operator: `t mod k` (k a non-zero
/// constant) lies in `[0, |k| - 1]`, and is `t` where `t` does.
fn intrinsic(env: &Env, x: &Term) -> Range {
    let (Some(Op::Mod), [t, k]) = (x.op(), x.args.as_slice()) else { return Range::default() };
    let Some(k) = k.as_rational().filter(|k| !k.is_zero()) else { return Range::default() };
    let full = Range { lo: Some(BigRational::zero()), hi: Some(k.abs() - BigRational::from_integer(1.into())) };
    let inner = linearize(t).map(|e| range_of(env, &e)).unwrap_or_default();
    if full.meet(&inner) == inner {
        inner
    } else {
        full
    }
}

/// Narrows the range of `x` to `r` (rounded inward for integers); false if it becomes empty.
fn narrow(env: &mut Env, x: &Term, r: Range) -> bool {
    let r = if x.sort == Sort::Int { Range { lo: r.lo.map(|l| l.ceil()), hi: r.hi.map(|h| h.floor()) } } else { r };
    let old = env.get(x).cloned().unwrap_or_else(|| intrinsic(env, x));
    let new = old.meet(&r);
    if new.is_empty() {
        return false;
    }
    if !new.is_top() {
        env.insert(x.clone(), new);
    }
    true
}

/// Narrows the atoms of `a - b` by `a - b ≤ 0` (`< 0`): each atom `c·x` is at most the
/// negated least value of the rest. Integer `<` is `≤ -1`; real `<` is kept as `≤` (weaker).
fn bound(env: &mut Env, a: &Term, b: &Term, rel: Rel) -> bool {
    let Some(mut e) = difference(a, b) else { return true };
    let integral = a.sort == Sort::Int && e.constant.is_integer() && e.coeffs.values().all(|c| c.is_integer());
    if rel == Rel::Lt && integral {
        e.constant += BigRational::from_integer(1.into());
    }
    let whole = range_of(env, &e);
    if whole.lo.as_ref().is_some_and(|l| l.is_positive() || (l.is_zero() && rel == Rel::Lt && !integral)) {
        return false;
    }
    for (x, c) in &e.coeffs {
        // c·x ≤ -(least value of the rest)
        let mut rest = e.clone();
        rest.coeffs.remove(x);
        let Some(least) = range_of(env, &rest).lo else { continue };
        let limit = -least / c;
        let r = if c.is_positive() { Range { lo: None, hi: Some(limit) } } else { Range { lo: Some(limit), hi: None } };
        if !narrow(env, x, r) {
            return false;
        }
    }
    true
}

/// Narrows by `a ≠ b` where one side is a single integer atom and the other a constant that
/// is one end of the atom's range.
fn exclude(env: &mut Env, a: &Term, b: &Term) -> bool {
    let Some(e) = difference(a, b) else { return true };
    if a.sort != Sort::Int || e.coeffs.len() != 1 {
        return true;
    }
    let Some((x, c)) = e.coeffs.iter().next() else { return true };
    let (x, value) = (x.clone(), -&e.constant / c);
    let Some(mut r) = env.get(&x).cloned() else { return true };
    let one = BigRational::from_integer(1.into());
    if r.lo.as_ref() == Some(&value) {
        r.lo = Some(&value + &one);
    }
    if r.hi.as_ref() == Some(&value) {
        r.hi = Some(&value - &one);
    }
    narrow(env, &x, r)
}

/// The conjunction of the bounds.
fn to_term(bounds: &Bounds) -> Term {
    let mut parts = vec![];
    for (x, r) in bounds {
        match (&r.lo, &r.hi) {
            (Some(l), Some(h)) if l == h => parts.push(eq(x, &num(l.clone(), &x.sort))),
            (lo, hi) => {
                if let Some(l) = lo {
                    parts.push(le(&num(l.clone(), &x.sort), x));
                }
                if let Some(h) = hi {
                    parts.push(le(x, &num(h.clone(), &x.sort)));
                }
            }
        }
    }
    and(&parts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use smt::build::{add, int, lt, not};
    use smt::simplify::is_equiv;

    fn x() -> Term {
        Term::var("x", Sort::Int)
    }

    /// `x := 0; while (x < 10) x++; assert x == 10` as the path program of the trace that runs
    /// the loop once: entry 0, head 1, error 2.
    fn counting_loop() -> (Vec<TransFormula>, Vec<usize>, Vec<usize>) {
        let init = TransFormula::assign(&[(x(), int(0))]);
        let body = TransFormula::assume(&lt(&x(), &int(10))).sequence(&TransFormula::assign(&[(x(), add(&[x(), int(1)]))]));
        let exit = TransFormula::assume(&and(&[not(&lt(&x(), &int(10))), not(&eq(&x(), &int(10)))]));
        (vec![init, body, exit], vec![0, 1, 2], vec![0, 1, 1, 2])
    }

    #[test]
    fn a_counting_loop_gets_its_range() {
        let (trace, letters, locs) = counting_loop();
        let preds = interval_sequence(&trace, &PathProgram { letters: &letters, locs: &locs }).expect("applicable");
        let inv = and(&[le(&int(0), &x()), le(&x(), &int(10))]);
        assert_eq!(preds.len(), 4);
        assert!(preds[0].is_true() && preds[3].is_false(), "{preds:?}");
        assert_eq!(is_equiv(&preds[1], &inv, 1000), Some(true), "{}", preds[1]);
        assert_eq!(preds[1], preds[2]);
    }

    #[test]
    fn a_trace_without_a_loop_is_left_to_the_other_sources() {
        let (trace, _, _) = counting_loop();
        let (trace, letters, locs) = (vec![trace[0].clone(), trace[2].clone()], vec![0, 2], vec![0, 1, 2]);
        let r = interval_sequence(&trace, &PathProgram { letters: &letters, locs: &locs });
        assert!(matches!(r, Err(RefineError::NotApplicable(_))));
    }

    #[test]
    fn intervals_that_reach_the_error_are_not_a_sequence() {
        // assert x == 9 instead: the range [0, 10] at the exit does not exclude x = 10.
        let (mut trace, letters, locs) = counting_loop();
        trace[2] = TransFormula::assume(&and(&[not(&lt(&x(), &int(10))), not(&eq(&x(), &int(9)))]));
        let r = interval_sequence(&trace, &PathProgram { letters: &letters, locs: &locs });
        assert!(matches!(r, Err(RefineError::NotApplicable(_))));
    }

    #[test]
    fn guards_narrow_through_linear_sums_and_disjunctions() {
        let y = Term::var("y", Sort::Int);
        let mut env = Env::new();
        // 0 <= x <= 5 ∧ (y = x + 1 ∨ y = x + 3)  ⊢  1 <= y <= 8
        let f = and(&[le(&int(0), &x()), le(&x(), &int(5)), or(&[eq(&y, &add(&[x(), int(1)])), eq(&y, &add(&[x(), int(3)]))])]);
        assert!(propagate(&mut env, &f, &mut PROPAGATION_FUEL.clone()));
        let r = &env[&y];
        assert_eq!((r.lo.clone(), r.hi.clone()), (Some(BigRational::from_integer(1.into())), Some(BigRational::from_integer(8.into()))));
        // x < 0 ∧ 0 <= x is infeasible.
        assert!(!propagate(&mut Env::new(), &and(&[lt(&x(), &int(0)), le(&int(0), &x())]), &mut PROPAGATION_FUEL.clone()));
    }
}
