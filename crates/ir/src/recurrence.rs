//! Closed forms of affine loop updates. A loop body that assigns integer variables affine
//! expressions of their values before it, `x := A·x + b` (the variables it does not assign are
//! parameters), has after `t` iterations the values `x(t)`. When these are polynomials in `t`
//! from iteration `d` on (triangular systems whose diagonal is 1 or 0: `i := i + 1; s := s + i`,
//! `x := x + y; y := y + 1`, resets `x := 0` and copies `x := y`), the closed form states them in
//! the binomial basis, `x(t) = Σ_p C(t - d, p)·L_p` with each `L_p` affine in the initial values
//! and with integer coefficients.
//!
//! The closed form is fitted through the first iterations (forward differences) and then checked
//! against the update as an identity of polynomials, `x(t + 1) = A·x(t) + b`: with the fit at
//! `t = d` this makes it exact for every `t ≥ d`, or there is none.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use smt::linear::LinExpr;
use smt::Term;
use std::collections::BTreeMap;

/// The new value of each assigned variable, affine in the values before the body.
pub type Update = BTreeMap<Term, LinExpr>;

/// Closed forms of degree above this are not looked for.
pub const MAX_DEGREE: usize = 4;

/// The values of the assigned variables after `t ≥ shift` iterations:
/// `x(t) = Σ_p C(t - shift, p)·coeffs[x][p]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ClosedForm {
    pub shift: usize,
    pub coeffs: BTreeMap<Term, Vec<LinExpr>>,
}

impl ClosedForm {
    /// The closed form of `update`, if its values are polynomials in `t` from iteration 0 or 1
    /// on, of degree at most [`MAX_DEGREE`].
    pub fn of(update: &Update) -> Option<ClosedForm> {
        let degree = update.len().min(MAX_DEGREE);
        let mut points = vec![update.keys().map(|x| (x.clone(), LinExpr::atom(x))).collect::<Update>()];
        while points.len() < degree + 2 {
            let last = points.last()?;
            points.push(update.iter().map(|(x, e)| (x.clone(), apply(e, last, true))).collect());
        }
        (0..=1).find_map(|shift| {
            let coeffs = update.keys().map(|x| (x.clone(), differences(points[shift..=shift + degree].iter().map(|p| &p[x])))).collect();
            let form = ClosedForm { shift, coeffs };
            form.satisfies(update).then_some(form)
        })
    }

    /// The degree in `t`.
    pub fn degree(&self) -> usize {
        self.coeffs.values().map(|c| c.len().saturating_sub(1)).max().unwrap_or(0)
    }

    /// The closed form of an affine expression of the variables (in the same basis).
    pub fn of_expr(&self, e: &LinExpr) -> Vec<LinExpr> {
        trimmed((0..=self.degree()).map(|p| apply(e, &self.layer(p), p == 0)).collect())
    }

    /// The coefficients of `C(t - shift, p)`: one affine expression per variable.
    fn layer(&self, p: usize) -> Update {
        self.coeffs.iter().map(|(x, c)| (x.clone(), c.get(p).cloned().unwrap_or_else(zero))).collect()
    }

    /// Whether `x(t + 1) = A·x(t) + b` holds as an identity of polynomials in `t`. In the
    /// binomial basis `C(t + 1 - d, p) = C(t - d, p) + C(t - d, p - 1)`, so the left side's
    /// coefficient of `C(t - d, p)` is `L_p + L_{p+1}`.
    fn satisfies(&self, update: &Update) -> bool {
        (0..=self.degree() + 1).all(|p| {
            let (layer, next) = (self.layer(p), self.layer(p + 1));
            update.iter().all(|(x, e)| {
                let mut left = layer[x].clone();
                left.add_scaled(&next[x], &BigRational::one());
                left == apply(e, &layer, p == 0)
            })
        })
    }

    /// The value of `x` after `t` iterations from the given integer state (`t ≥ shift`).
    pub fn value(&self, x: &Term, t: usize, state: &BTreeMap<Term, BigInt>) -> BigRational {
        self.coeffs[x].iter().enumerate().map(|(p, l)| BigRational::from_integer(binomial(t - self.shift, p)) * evaluate(l, state)).sum()
    }
}

/// `e` with each assigned variable replaced by its value in `values`. With `affine`, the other
/// variables and the constant stay (the value of `e`); without, they count as 0 (the part of `e`
/// that a coefficient of a higher power of `t` passes on).
pub fn apply(e: &LinExpr, values: &Update, affine: bool) -> LinExpr {
    if affine {
        return substitute_lin(e, |x| values.get(x).cloned());
    }
    let mut out = zero();
    for (x, c) in &e.coeffs {
        if let Some(v) = values.get(x) {
            out.add_scaled(v, c);
        }
    }
    out
}

/// `e` with each variable that `value` gives replaced by it (the others stay).
pub fn substitute_lin(e: &LinExpr, value: impl Fn(&Term) -> Option<LinExpr>) -> LinExpr {
    let mut out = LinExpr::constant(e.constant.clone());
    for (x, c) in &e.coeffs {
        out.add_scaled(&value(x).unwrap_or_else(|| LinExpr::atom(x)), c);
    }
    out
}

/// The value of `e` in an integer state (variables it does not give count as 0).
pub fn evaluate(e: &LinExpr, state: &BTreeMap<Term, BigInt>) -> BigRational {
    e.coeffs.iter().fold(e.constant.clone(), |acc, (x, c)| acc + c * BigRational::from_integer(state.get(x).cloned().unwrap_or_default()))
}

/// `C(n, p)`.
pub fn binomial(n: usize, p: usize) -> BigInt {
    (0..p).fold(BigInt::one(), |acc, i| acc * BigInt::from(n.saturating_sub(i)) / BigInt::from(i + 1))
}

/// The forward differences `Δ^p` at the first point, highest zero ones dropped.
fn differences<'a>(points: impl Iterator<Item = &'a LinExpr>) -> Vec<LinExpr> {
    let mut row: Vec<LinExpr> = points.cloned().collect();
    let mut out = vec![];
    while let Some(first) = row.first() {
        out.push(first.clone());
        row = row
            .windows(2)
            .map(|w| {
                let mut d = w[1].clone();
                d.add_scaled(&w[0], &-BigRational::one());
                d
            })
            .collect();
    }
    trimmed(out)
}

fn trimmed(mut coeffs: Vec<LinExpr>) -> Vec<LinExpr> {
    while coeffs.len() > 1 && coeffs.last().is_some_and(|c| c.is_constant() && c.constant.is_zero()) {
        coeffs.pop();
    }
    coeffs
}

fn zero() -> LinExpr {
    LinExpr::constant(BigRational::zero())
}

#[cfg(test)]
mod tests {
    use super::*;
    use smt::Sort;

    fn var(name: &str) -> Term {
        Term::var(name, Sort::Int)
    }

    /// `Σ c·x + constant` from (variable, coefficient) pairs.
    fn lin(terms: &[(&str, i64)], constant: i64) -> LinExpr {
        let mut e = LinExpr::constant(BigRational::from_integer(constant.into()));
        for (x, c) in terms {
            e.add_scaled(&LinExpr::atom(&var(x)), &BigRational::from_integer((*c).into()));
        }
        e
    }

    fn update(defs: &[(&str, LinExpr)]) -> Update {
        defs.iter().map(|(x, e)| (var(x), e.clone())).collect()
    }

    /// Runs the loop body 100 times from a few integer states and compares every state with
    /// the closed form.
    fn agrees_with_interpreter(u: &Update, form: &ClosedForm) {
        for seed in [-7i64, 0, 3, 12] {
            let mut state: BTreeMap<Term, BigInt> = BTreeMap::new();
            for (i, x) in u.keys().chain(u.values().flat_map(|e| e.coeffs.keys())).enumerate() {
                state.entry(x.clone()).or_insert_with(|| BigInt::from(seed * (i as i64 + 1) - 5));
            }
            let initial = state.clone();
            for t in 0..=100 {
                if t >= form.shift {
                    for x in u.keys() {
                        assert_eq!(
                            form.value(x, t, &initial),
                            BigRational::from_integer(state[x].clone()),
                            "{x} after {t} iterations from {initial:?}"
                        );
                    }
                }
                let next: Vec<(Term, BigInt)> = u.iter().map(|(x, e)| (x.clone(), evaluate(e, &state).to_integer())).collect();
                state.extend(next);
            }
        }
    }

    fn check(defs: &[(&str, LinExpr)], shift: usize, degree: usize) -> ClosedForm {
        let u = update(defs);
        let form = ClosedForm::of(&u).expect("a closed form");
        assert_eq!((form.shift, form.degree()), (shift, degree));
        agrees_with_interpreter(&u, &form);
        form
    }

    #[test]
    fn a_translation_is_linear() {
        let form = check(&[("x", lin(&[("x", 1)], 3)), ("y", lin(&[("y", 1)], -2))], 0, 1);
        assert_eq!(form.coeffs[&var("x")], vec![lin(&[("x", 1)], 0), lin(&[], 3)]);
    }

    #[test]
    fn a_sum_of_a_counter_is_quadratic() {
        // i := i + 1; s := s + i (the new i)
        let form = check(&[("i", lin(&[("i", 1)], 1)), ("s", lin(&[("s", 1), ("i", 1)], 1))], 0, 2);
        // s(t) = s + t·(i + 1) + C(t, 2)
        assert_eq!(form.coeffs[&var("s")], vec![lin(&[("s", 1)], 0), lin(&[("i", 1)], 1), lin(&[], 1)]);
    }

    #[test]
    fn a_chain_of_sums_is_cubic() {
        check(&[("x", lin(&[("x", 1), ("y", 1)], 0)), ("y", lin(&[("y", 1), ("z", 1)], 0)), ("z", lin(&[("z", 1)], 1))], 0, 3);
    }

    #[test]
    fn parameters_stay() {
        // x := x + n (n is not assigned), y := y + x
        check(&[("x", lin(&[("x", 1), ("n", 1)], 0)), ("y", lin(&[("y", 1), ("x", 1)], 0))], 0, 2);
    }

    #[test]
    fn resets_and_copies_hold_from_the_first_iteration() {
        // x := 0; y := y + 2 (reset)
        check(&[("x", lin(&[], 0)), ("y", lin(&[("y", 1)], 2))], 1, 1);
        // c := i; i := i + 1 (copy of the old value)
        check(&[("c", lin(&[("i", 1)], 0)), ("i", lin(&[("i", 1)], 1))], 1, 1);
        // s := s + c; c := 5 (a sum of a reset)
        check(&[("s", lin(&[("s", 1), ("c", 1)], 0)), ("c", lin(&[], 5))], 1, 1);
    }

    #[test]
    fn non_polynomial_updates_have_no_closed_form() {
        assert_eq!(ClosedForm::of(&update(&[("x", lin(&[("x", 2)], 0))])), None);
        assert_eq!(ClosedForm::of(&update(&[("x", lin(&[("x", -1)], 0))])), None);
        // a swap: period 2
        assert_eq!(ClosedForm::of(&update(&[("x", lin(&[("y", 1)], 0)), ("y", lin(&[("x", 1)], 0))])), None);
    }

    #[test]
    fn the_closed_form_of_an_expression_combines_the_variables() {
        let u = update(&[("i", lin(&[("i", 1)], 1)), ("s", lin(&[("s", 1), ("i", 1)], 1))]);
        let form = ClosedForm::of(&u).unwrap();
        // s - n after t iterations: s - n + t·(i + 1) + C(t, 2)
        let q = form.of_expr(&lin(&[("s", 1), ("n", -1)], 0));
        assert_eq!(q, vec![lin(&[("s", 1), ("n", -1)], 0), lin(&[("i", 1)], 1), lin(&[], 1)]);
    }

    #[test]
    fn binomials() {
        assert_eq!(binomial(5, 2), BigInt::from(10));
        assert_eq!(binomial(3, 4), BigInt::from(0));
        assert_eq!(binomial(7, 0), BigInt::from(1));
    }
}
