//! Linear arithmetic view of terms and canonical forms of arithmetic atoms.
//!
//! Non-linear subterms (`x*y`, `select`, function applications, `div`/`mod`, `ite`, `to_int`,
//! division by a non-constant) are kept as opaque atoms, so every arithmetic term has a linear
//! form. Canonical atoms are `sum <= c`, `sum < c` (Real only) or `sum = c`, where `sum` lists
//! the atoms by increasing term id with non-zero coefficients and `c` is a literal.

use crate::build;
use crate::sort::Sort;
use crate::term::{Kind, Op, Term};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::collections::{BTreeMap, HashMap};

/// A linear combination `Σ coeffs[x]·x + constant` of atoms `x`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinExpr {
    /// Non-zero coefficients of the atoms, ordered by term id.
    pub coeffs: BTreeMap<Term, BigRational>,
    /// The constant summand.
    pub constant: BigRational,
}

impl LinExpr {
    /// The constant expression `c`.
    pub fn constant(c: BigRational) -> LinExpr {
        LinExpr { coeffs: BTreeMap::new(), constant: c }
    }

    /// The expression `1·x`.
    pub fn atom(x: &Term) -> LinExpr {
        let mut coeffs = BTreeMap::new();
        coeffs.insert(x.clone(), BigRational::one());
        LinExpr { coeffs, constant: BigRational::zero() }
    }

    /// Whether the expression has no atoms.
    pub fn is_constant(&self) -> bool {
        self.coeffs.is_empty()
    }

    /// `self + k·other`.
    pub fn add_scaled(&mut self, other: &LinExpr, k: &BigRational) {
        for (x, c) in &other.coeffs {
            let e = self.coeffs.entry(x.clone()).or_insert_with(BigRational::zero);
            *e += c * k;
            if e.is_zero() {
                self.coeffs.remove(x);
            }
        }
        self.constant += &other.constant * k;
    }

    /// `k·self`.
    pub fn scale(&self, k: &BigRational) -> LinExpr {
        if k.is_zero() {
            return LinExpr::constant(BigRational::zero());
        }
        LinExpr { coeffs: self.coeffs.iter().map(|(x, c)| (x.clone(), c * k)).collect(), constant: &self.constant * k }
    }
}

/// The linear form of `a - b`; `None` unless both are arithmetic.
pub fn difference(a: &Term, b: &Term) -> Option<LinExpr> {
    let mut e = linearize(a)?;
    e.add_scaled(&linearize(b)?, &-BigRational::one());
    Some(e)
}

/// The linear form of an Int or Real term; `None` only for non-arithmetic terms.
pub fn linearize(t: &Term) -> Option<LinExpr> {
    if !t.sort.is_arith() {
        return None;
    }
    let mut memo = HashMap::new();
    Some(lin(t, &mut memo))
}

fn lin(t: &Term, memo: &mut HashMap<Term, LinExpr>) -> LinExpr {
    if let Some(r) = t.as_rational() {
        return LinExpr::constant(r);
    }
    if let Some(e) = memo.get(t) {
        return e.clone();
    }
    let one = BigRational::one();
    let arith_args = t.args.iter().all(|a| a.sort.is_arith());
    let e = match t.op() {
        Some(Op::Add) if arith_args => {
            let mut e = LinExpr::constant(BigRational::zero());
            for a in &t.args {
                e.add_scaled(&lin(a, memo), &one);
            }
            e
        }
        // SMT-LIB: (- x) is negation
        Some(Op::Sub) if arith_args && t.args.len() == 1 => lin(&t.args[0], memo).scale(&-one),
        Some(Op::Sub) if arith_args && !t.args.is_empty() => {
            let mut e = lin(&t.args[0], memo);
            for a in &t.args[1..] {
                e.add_scaled(&lin(a, memo), &-one.clone());
            }
            e
        }
        Some(Op::Neg) if arith_args && t.args.len() == 1 => lin(&t.args[0], memo).scale(&-one),
        Some(Op::Mul) if arith_args => {
            let parts: Vec<LinExpr> = t.args.iter().map(|a| lin(a, memo)).collect();
            let non_const = parts.iter().filter(|p| !p.is_constant()).count();
            if non_const <= 1 {
                let k: BigRational = parts.iter().filter(|p| p.is_constant()).map(|p| p.constant.clone()).product();
                match parts.iter().find(|p| !p.is_constant()) {
                    Some(p) => p.scale(&k),
                    None => LinExpr::constant(k),
                }
            } else {
                LinExpr::atom(t)
            }
        }
        Some(Op::RealDiv) if arith_args && t.args.len() == 2 => match t.args[1].as_rational() {
            Some(d) if !d.is_zero() => lin(&t.args[0], memo).scale(&(one / d)),
            _ => LinExpr::atom(t),
        },
        Some(Op::ToReal) if arith_args && t.args.len() == 1 => lin(&t.args[0], memo),
        _ => LinExpr::atom(t),
    };
    memo.insert(t.clone(), e.clone());
    e
}

/// A coefficient times an atom, converting Int atoms to Real in a Real sum.
fn monomial(c: &BigRational, x: &Term, sort: &Sort) -> Term {
    let x = if *sort == Sort::Real { build::to_real(x) } else { x.clone() };
    if c.is_one() {
        x
    } else {
        build::mul(&[build::num(c.clone(), sort), x])
    }
}

/// The term `Σ c·x + constant` of the given sort (Int atoms are converted for Real).
pub fn to_term(e: &LinExpr, sort: &Sort) -> Term {
    let mut parts: Vec<Term> = e.coeffs.iter().map(|(x, c)| monomial(c, x, sort)).collect();
    if !e.constant.is_zero() || parts.is_empty() {
        parts.push(build::num(e.constant.clone(), sort));
    }
    if parts.len() == 1 {
        return parts.pop().unwrap_or_else(|| build::num(BigRational::zero(), sort));
    }
    build::add(&parts)
}

fn gcd_of(coeffs: &BTreeMap<Term, BigRational>) -> BigInt {
    coeffs.values().fold(BigInt::zero(), |g, c| g.gcd(&c.to_integer()))
}

/// The canonical form of an arithmetic atom `a <= b`, `a < b` or `a = b`; other terms are
/// returned unchanged. Equivalent atoms get the same (hash-consed) term; constant atoms fold
/// to `true`/`false`.
pub fn normalize_atom(t: &Term) -> Term {
    let (op, a, b) = match (t.op(), t.args.as_slice()) {
        (Some(op @ (Op::Le | Op::Lt | Op::Eq)), [a, b]) if a.sort.is_arith() && b.sort.is_arith() => (op.clone(), a, b),
        _ => return t.clone(),
    };
    // e REL 0, with e = a - b
    let Some(mut e) = difference(a, b) else {
        return t.clone();
    };
    let sort = if a.sort == Sort::Real || b.sort == Sort::Real { Sort::Real } else { Sort::Int };
    let is_int = sort == Sort::Int && e.coeffs.iter().all(|(x, c)| x.sort == Sort::Int && c.is_integer());
    let mut op = op;
    if is_int && op == Op::Lt {
        // e < 0  iff  e + 1 <= 0 over the integers
        e.constant += BigRational::one();
        op = Op::Le;
    }
    let Some(lead) = e.coeffs.values().next().cloned() else {
        let c = &e.constant;
        return build::bool_lit(match op {
            Op::Le => !c.is_positive(),
            Op::Lt => c.is_negative(),
            _ => c.is_zero(),
        });
    };
    // Scale by a positive factor (any sign for equalities): gcd for Int, |lead| for Real.
    let mut k = if is_int { BigRational::from_integer(gcd_of(&e.coeffs)) } else { lead.abs() };
    if op == Op::Eq && lead.is_negative() {
        k = -k;
    }
    let e = e.scale(&(BigRational::one() / k));
    // sum REL rhs with rhs = -constant
    let mut rhs = -e.constant.clone();
    if is_int && !rhs.is_integer() {
        match op {
            Op::Eq => return build::ff(),
            _ => rhs = rhs.floor(),
        }
    }
    let lhs = to_term(&LinExpr { coeffs: e.coeffs, constant: BigRational::zero() }, &sort);
    let rhs = build::num(rhs, &sort);
    match op {
        Op::Le => build::le(&lhs, &rhs),
        Op::Lt => build::lt(&lhs, &rhs),
        _ => build::eq(&lhs, &rhs),
    }
}

/// Normalizes every arithmetic atom of a term (see [`normalize_atom`]).
pub fn normalize(t: &Term) -> Term {
    let mut memo = HashMap::new();
    norm_rec(t, &mut memo)
}

/// Whether `t` has the arity the simplifying builders expect (raw `Term::mk` allows any).
fn arity_ok(t: &Term) -> bool {
    let n = t.args.len();
    match &t.kind {
        Kind::Quant(..) => n == 1,
        Kind::App(Op::Not | Op::Neg | Op::ToReal | Op::ToInt | Op::ConstArray(_)) => n == 1,
        Kind::App(Op::Implies | Op::IntDiv | Op::Mod | Op::RealDiv | Op::Select) => n == 2,
        Kind::App(Op::Ite | Op::Store) => n == 3,
        _ => true,
    }
}

fn norm_rec(t: &Term, memo: &mut HashMap<Term, Term>) -> Term {
    if t.args.is_empty() {
        return t.clone();
    }
    if let Some(r) = memo.get(t) {
        return r.clone();
    }
    let args: Vec<Term> = t.args.iter().map(|a| norm_rec(a, memo)).collect();
    let r = if arity_ok(t) { build::rebuild(t, args) } else { Term::mk(t.kind.clone(), args, t.sort.clone()) };
    let r = if matches!(r.kind, Kind::App(Op::Le | Op::Lt | Op::Eq)) { normalize_atom(&r) } else { r };
    memo.insert(t.clone(), r.clone());
    r
}

/// The value of a model literal: an Int or Real literal, or a negation, quotient or `to_real`
/// of literals (how solvers write rational values).
pub fn literal_value(t: &Term) -> Option<BigRational> {
    if let Some(r) = t.as_rational() {
        return Some(r);
    }
    match t.op() {
        Some(Op::Neg) if t.args.len() == 1 => Some(-literal_value(&t.args[0])?),
        Some(Op::RealDiv) if t.args.len() == 2 => {
            let d = literal_value(&t.args[1])?;
            if d.is_zero() {
                return None;
            }
            Some(literal_value(&t.args[0])? / d)
        }
        Some(Op::ToReal) if t.args.len() == 1 => literal_value(&t.args[0]),
        _ => None,
    }
}

#[cfg(test)]
#[allow(clippy::cloned_ref_to_slice_refs)]
mod tests {
    use super::*;
    use crate::build::*;
    use crate::term::FuncDecl;
    use std::sync::Arc;

    fn r(n: i64) -> BigRational {
        BigRational::from_integer(n.into())
    }

    #[test]
    fn linearize_with_atoms() {
        let (x, y) = (Term::var("x", Sort::Int), Term::var("y", Sort::Int));
        let t = add(&[mul(&[int(2), add(&[x.clone(), y.clone()])]), neg(&mul(&[int(3), x.clone()])), int(5)]);
        let e = linearize(&t).unwrap();
        assert_eq!(e.coeffs.get(&x), Some(&r(-1)));
        assert_eq!(e.coeffs.get(&y), Some(&r(2)));
        assert_eq!(e.constant, r(5));
        let a = Term::var("a", Sort::array(Sort::Int, Sort::Int));
        let f = Arc::new(FuncDecl { name: Arc::from("f"), domain: vec![Sort::Int], range: Sort::Int });
        let xy = mul(&[x.clone(), y.clone()]);
        let t = sub(&add(&[xy.clone(), select(&a, &x), apply(&f, &[y.clone()]), modulo(&x, &int(2))]), &xy);
        let e = linearize(&t).unwrap();
        assert_eq!(e.coeffs.len(), 3, "{e:?}");
        assert!(linearize(&tt()).is_none());
        let back = to_term(&linearize(&add(&[x.clone(), int(2)])).unwrap(), &Sort::Int);
        assert_eq!(back, add(&[x, int(2)]));
    }

    #[test]
    fn equivalent_atoms_coincide() {
        let (x, y) = (Term::var("x", Sort::Int), Term::var("y", Sort::Int));
        let n = normalize_atom;
        assert_eq!(n(&lt(&x, &int(2))), n(&le(&x, &int(1))));
        assert_eq!(n(&le(&mul(&[int(2), x.clone()]), &int(3))), n(&le(&x, &int(1))));
        assert_eq!(n(&lt(&mul(&[int(2), x.clone()]), &int(3))), n(&le(&x, &int(1))));
        assert_eq!(n(&ge(&int(-1), &neg(&x))), n(&le(&int(1), &x)));
        assert_eq!(n(&eq(&x, &y)), n(&eq(&sub(&y, &x), &int(0))));
        assert_eq!(n(&eq(&mul(&[int(2), x.clone()]), &mul(&[int(4), y.clone()]))), n(&eq(&x, &mul(&[int(2), y.clone()]))));
        assert_eq!(n(&eq(&mul(&[int(2), x.clone()]), &int(3))), ff());
        assert_eq!(n(&le(&add(&[x.clone(), int(1)]), &x)), ff());
        let (p, q) = (Term::var("p", Sort::Real), Term::var("q", Sort::Real));
        assert_eq!(n(&lt(&mul(&[real(r(2)), p.clone()]), &real(r(4)))), n(&lt(&p, &real(r(2)))));
        assert_ne!(n(&lt(&p, &q)), n(&le(&p, &q)));
        let phi = and(&[lt(&x, &int(2)), not(&le(&add(&[y.clone(), y.clone()]), &int(3)))]);
        let psi = and(&[le(&x, &int(1)), not(&le(&y, &int(1)))]);
        assert_eq!(normalize(&phi), normalize(&psi));
        assert_eq!(crate::simplify::is_equiv(&phi, &normalize(&phi), 1000), Some(true));
    }
}
