//! Constraints that make an implication between linear inequalities valid, by Farkas' lemma
//! (the affine form with the infeasible-premise alternative), for conclusions whose
//! coefficients are unknowns.
//!
//! `∀z. A·z + k ≤ 0 ∧ ⋀ₜ pₜ(z) ≤ 0 ⟹ c·z + c₀ ≤ 0` holds over ℚ if there are `λ, μ ≥ 0` with
//! either `λA + Σ μₜpₜ = c` and `λk + Σ μₜpₜ₀ ≥ c₀` (the sum of the premises is the conclusion,
//! loosened), or `λA + Σ μₜpₜ = 0` and `λk + Σ μₜpₜ₀ ≥ 1` (the premises are contradictory).
//! Rows `A·z + k ≤ 0` have rational coefficients; the *premises* `pₜ` (supporting invariants,
//! a template's own conditions) have unknown coefficients, so `μₜ·pₜ` is a product of
//! unknowns unless `μₜ` ranges over {0, 1}: [`Mode`].

use crate::dnf::Row;
use num_rational::BigRational;
use smt::build::{add, and, eq, ge, ite, mul, or, real};
use smt::{Sort, Term};
use std::collections::{BTreeMap, BTreeSet};

/// An affine expression `Σ coeffs[v]·v + constant` over state variables whose coefficients are
/// Real terms over the unknowns.
#[derive(Clone, Debug)]
pub(crate) struct Affine {
    pub coeffs: BTreeMap<Term, Term>,
    pub constant: Term,
}

/// The Real literal `n`.
pub(crate) fn lit(n: i64) -> Term {
    real(BigRational::from_integer(n.into()))
}

impl Affine {
    /// The constant expression `n`.
    pub fn constant(n: i64) -> Affine {
        Affine { coeffs: BTreeMap::new(), constant: lit(n) }
    }

    /// `self + other`.
    pub fn plus(&self, other: &Affine) -> Affine {
        let mut coeffs = self.coeffs.clone();
        for (v, c) in &other.coeffs {
            let sum = match coeffs.get(v) {
                Some(d) => add(&[d.clone(), c.clone()]),
                None => c.clone(),
            };
            coeffs.insert(v.clone(), sum);
        }
        Affine { coeffs, constant: add(&[self.constant.clone(), other.constant.clone()]) }
    }

    /// `-self`.
    pub fn negated(&self) -> Affine {
        let m = |t: &Term| mul(&[lit(-1), t.clone()]);
        Affine { coeffs: self.coeffs.iter().map(|(v, c)| (v.clone(), m(c))).collect(), constant: m(&self.constant) }
    }

    /// `self - other`.
    pub fn minus(&self, other: &Affine) -> Affine {
        self.plus(&other.negated())
    }

    /// `self + n`.
    pub fn plus_const(&self, n: i64) -> Affine {
        self.plus(&Affine::constant(n))
    }
}

/// How the multipliers of premises with unknown coefficients (supporting invariants, a
/// template's own premises) are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// The supporting invariants' multipliers are 1, the template premises' 0 or 1: linear, and
    /// quick to refute, but an invariant is then a premise of every implication, also of
    /// another invariant's consecution, where its variables must cancel (`y1 ≥ 1` and `y2 ≥ 1`
    /// for `y1 + y2` of Euclid's loop are not found so).
    Fixed,
    /// Every multiplier 0 or 1, a Boolean unknown choosing (as Leike & Heizmann fix them to
    /// {0, 1}): linear, but an unsatisfiable problem takes a search over the choices.
    Linear,
    /// Each multiplier is an unknown `μ ≥ 0`: products of unknowns (non-linear real
    /// arithmetic, complete for the template but harder for the solver).
    Nonlinear,
}

/// Collects the constraints of several implications (their multipliers are fresh unknowns).
#[derive(Default)]
pub(crate) struct Constraints {
    pub terms: Vec<Term>,
}

fn rat(r: &BigRational) -> Term {
    real(r.clone())
}

impl Constraints {
    fn multiplier(&mut self) -> Term {
        let l = Term::fresh("lambda", Sort::Real);
        self.terms.push(ge(&l, &lit(0)));
        l
    }

    /// Adds constraints under which `rows ∧ ⋀ invariants ≤ 0 ∧ ⋀ premises ≤ 0 ⟹ conclusion ≤ 0`
    /// holds over ℚ (the multipliers of the supporting invariants and of the template's
    /// premises as [`Mode`] says).
    pub fn implication(&mut self, rows: &[Row], invariants: &[Affine], premises: &[Affine], conclusion: &Affine, mode: Mode) {
        let mut vars: BTreeSet<&Term> = rows.iter().flat_map(|r| r.coeffs.keys()).collect();
        vars.extend(invariants.iter().chain(premises).flat_map(|p| p.coeffs.keys()));
        vars.extend(conclusion.coeffs.keys());
        let mut sums: BTreeMap<&Term, Vec<Term>> = vars.iter().map(|v| (*v, vec![])).collect();
        let mut constant = vec![];
        for r in rows {
            let l = self.multiplier();
            for (v, c) in &r.coeffs {
                sums.entry(v).or_default().push(mul(&[rat(c), l.clone()]));
            }
            constant.push(mul(&[rat(&r.constant), l]));
        }
        let tagged = invariants.iter().map(|p| (p, true)).chain(premises.iter().map(|p| (p, false)));
        for (p, invariant) in tagged {
            let mu = match mode {
                Mode::Fixed if invariant => None,
                Mode::Fixed | Mode::Linear => Some(Term::fresh("used", Sort::Bool)),
                Mode::Nonlinear => Some(self.multiplier()),
            };
            let scaled = |t: &Term| match (mode, &mu) {
                (_, None) => t.clone(),
                (Mode::Fixed | Mode::Linear, Some(b)) => ite(b, t, &lit(0)),
                (Mode::Nonlinear, Some(m)) => mul(&[m.clone(), t.clone()]),
            };
            for (v, c) in &p.coeffs {
                sums.entry(v).or_default().push(scaled(c));
            }
            constant.push(scaled(&p.constant));
        }
        let zero = lit(0);
        let total = |parts: &[Term]| if parts.is_empty() { zero.clone() } else { add(parts) };
        let k = total(&constant);
        let mut follows = vec![ge(&k, &conclusion.constant)];
        let mut contradicts = vec![ge(&k, &lit(1))];
        for (v, parts) in &sums {
            let s = total(parts);
            follows.push(eq(&s, conclusion.coeffs.get(*v).unwrap_or(&zero)));
            contradicts.push(eq(&s, &zero));
        }
        self.terms.push(or(&[and(&follows), and(&contradicts)]));
    }
}
