//! The ranking templates (Leike & Heizmann, "Ranking templates for linear loops"), each as
//! (a) implications with unknown affine functions `f₁..f_k` for Farkas' lemma, and (b) the
//! well-founded relation `decreases` between the components' values at consecutive visits.
//!
//! The implications are written so that, once the components are scaled to integer-valued
//! functions, they imply `decreases` over the integers (validation checks that anyway). In
//! the formulas below `cᵢ` is a component's value now and `oᵢ` at the previous visit.

use crate::farkas::Affine;
use crate::Template;
use smt::build::{add, and, ge, le, or, sub};
use smt::Term;
use std::collections::BTreeMap;

/// An affine function with unknown coefficients over (canonical) template variables.
#[derive(Clone, Debug)]
pub(crate) struct Unknown {
    pub coeffs: BTreeMap<Term, Term>,
    pub constant: Term,
}

impl Unknown {
    /// Fresh Real unknowns for the coefficients of `vars` and the constant.
    pub fn fresh(name: &str, vars: &[Term]) -> Unknown {
        let v = |s: &str| Term::fresh(&format!("{name}_{s}"), smt::Sort::Real);
        Unknown { coeffs: vars.iter().map(|x| (x.clone(), v(x.var_name().unwrap_or("x")))).collect(), constant: v("c") }
    }

    /// The function read at a state (canonical variable → state variable).
    pub fn at(&self, state: &BTreeMap<Term, Term>) -> Affine {
        let mut coeffs: BTreeMap<Term, Term> = BTreeMap::new();
        for (x, c) in &self.coeffs {
            if let Some(s) = state.get(x) {
                let sum = match coeffs.get(s) {
                    Some(d) => add(&[d.clone(), c.clone()]),
                    None => c.clone(),
                };
                coeffs.insert(s.clone(), sum);
            }
        }
        Affine { coeffs, constant: self.constant.clone() }
    }

    /// All unknowns.
    pub fn unknowns(&self) -> Vec<Term> {
        self.coeffs.values().cloned().chain([self.constant.clone()]).collect()
    }
}

/// One implication `loop ∧ ⋀ premises ≤ 0 ⟹ conclusion ≤ 0` of a template.
pub(crate) struct Condition {
    pub premises: Vec<Affine>,
    pub conclusion: Affine,
}

fn cond(premises: Vec<Affine>, conclusion: Affine) -> Condition {
    Condition { premises, conclusion }
}

/// How many components the template has.
pub(crate) fn size(t: &Template) -> usize {
    match *t {
        Template::Affine => 1,
        Template::Nested(k) | Template::Multiphase(k) | Template::Lexicographic(k) => k.max(1),
    }
}

/// The template's implications over the pre-state values `f` and post-state values `g` of the
/// components (`≤ 0` forms; a decrease is "by at least 1", which scaling keeps).
pub(crate) fn conditions(t: &Template, f: &[Affine], g: &[Affine]) -> Vec<Condition> {
    let k = f.len();
    let mut out = vec![];
    match t {
        // nested: f_k ≥ 0, g₁ ≤ f₁ - 1, gᵢ ≤ fᵢ + fᵢ₋₁ (affine: k = 1)
        Template::Affine | Template::Nested(_) => {
            out.push(cond(vec![], f[k - 1].negated()));
            out.push(cond(vec![], g[0].minus(&f[0]).plus_const(1)));
            for i in 1..k {
                out.push(cond(vec![], g[i].minus(&f[i]).minus(&f[i - 1])));
            }
        }
        // multiphase: (f₁ ≤ 0 ∧ .. ∧ f_{k-1} ≤ 0 ⟹ f_k ≥ 1), g₁ ≤ f₁ - 1,
        // (fᵢ₋₁ ≤ 0 ⟹ gᵢ ≤ fᵢ - 1)
        Template::Multiphase(_) => {
            out.push(cond(f[..k - 1].to_vec(), f[k - 1].negated().plus_const(1)));
            out.push(cond(vec![], g[0].minus(&f[0]).plus_const(1)));
            for i in 1..k {
                out.push(cond(vec![f[i - 1].clone()], g[i].minus(&f[i]).plus_const(1)));
            }
        }
        // lexicographic: every fᵢ ≥ 0; (no fⱼ, j < i, decreased ⟹ gᵢ ≤ fᵢ) for i < k;
        // (no fⱼ, j < k, decreased ⟹ g_k ≤ f_k - 1); "not decreased" is fⱼ ≤ gⱼ over ℤ
        Template::Lexicographic(_) => {
            for fi in f {
                out.push(cond(vec![], fi.negated()));
            }
            let kept = |i: usize| (0..i).map(|j| f[j].minus(&g[j])).collect::<Vec<_>>();
            for i in 0..k - 1 {
                out.push(cond(kept(i), g[i].minus(&f[i])));
            }
            out.push(cond(kept(k - 1), g[k - 1].minus(&f[k - 1]).plus_const(1)));
        }
    }
    out
}

/// The well-founded relation of a template between the components' current values `c` and
/// their values `o` at the previous visit (Int terms; `false` if the lengths differ).
///
/// Why each is well-founded (no infinite chain `o⁰, o¹, ..` with `decreases(oⁱ, oⁱ⁺¹)`):
/// - affine / nested: `o_k ≥ 0 ∧ c₁ ≤ o₁ - 1 ∧ ⋀ᵢ₌₂..k cᵢ ≤ oᵢ + oᵢ₋₁`. Component 1 falls
///   by 1 each step, so from some step on it stays ≤ -1; then component 2 falls by 1 each step,
///   and so on, until component k falls below 0, contradicting `o_k ≥ 0`.
/// - multiphase: `(o₁ > 0 ∨ .. ∨ o_k > 0) ∧ c₁ ≤ o₁ - 1 ∧ ⋀ᵢ₌₂..k (oᵢ₋₁ > 0 ∨ cᵢ ≤ oᵢ - 1)`.
///   Component 1 falls until it is ≤ 0 and then keeps falling; from then on component 2
///   falls by 1 each step, and so on, until all are ≤ 0, contradicting the disjunction.
/// - lexicographic: `⋀ᵢ oᵢ ≥ 0 ∧ ⋀ᵢ₌₁..k-1 (cᵢ ≤ oᵢ ∨ ⋁ⱼ₍ⱼ₌₁..i-1₎ cⱼ ≤ oⱼ - 1) ∧ ⋁ᵢ cᵢ ≤ oᵢ - 1`.
///   With `m` the least index that falls by 1, the components before `m` do not grow, so the
///   tuples decrease lexicographically in `ℕᵏ`, a well-order.
pub(crate) fn decreases(t: &Template, c: &[Term], o: &[Term]) -> Term {
    let k = c.len();
    if k == 0 || o.len() != k {
        return smt::build::ff();
    }
    // the components' sort: Int, or Real for a function of a real variable
    let int = |n: i64| smt::build::num(num_rational::BigRational::from_integer(n.into()), &c[0].sort);
    let below = |x: &Term, y: &Term, n: i64| le(x, &sub(y, &int(n)));
    match t {
        Template::Affine | Template::Nested(_) => {
            let mut parts = vec![ge(&o[k - 1], &int(0)), below(&c[0], &o[0], 1)];
            for i in 1..k {
                parts.push(le(&c[i], &add(&[o[i].clone(), o[i - 1].clone()])));
            }
            and(&parts)
        }
        Template::Multiphase(_) => {
            let positive = |x: &Term| smt::build::gt(x, &int(0));
            let mut parts = vec![or(&o.iter().map(positive).collect::<Vec<_>>()), below(&c[0], &o[0], 1)];
            for i in 1..k {
                parts.push(or(&[positive(&o[i - 1]), below(&c[i], &o[i], 1)]));
            }
            and(&parts)
        }
        Template::Lexicographic(_) => {
            let mut parts: Vec<Term> = o.iter().map(|x| ge(x, &int(0))).collect();
            for i in 0..k - 1 {
                let mut alts = vec![le(&c[i], &o[i])];
                alts.extend((0..i).map(|j| below(&c[j], &o[j], 1)));
                parts.push(or(&alts));
            }
            parts.push(or(&(0..k).map(|i| below(&c[i], &o[i], 1)).collect::<Vec<_>>()));
            and(&parts)
        }
    }
}
