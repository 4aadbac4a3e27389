//! Bit-vector terms (SMT-LIB `QF_BV`): literals and operators, folded on literal arguments.
//!
//! A literal of width `w` is `((_ int2bv w) v)` with `0 <= v < 2^w` (no node kind of its own:
//! every term algorithm already handles applications); [`lit`] builds it and
//! [`crate::Term::as_bv`] reads it.

use crate::build::{self, bool_lit};
use crate::sort::Sort;
use crate::term::{Kind, Op, Term};
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// A bit-vector operator (the bitwise `and`/`or`/`xor` are [`Op::BvAnd`] and friends).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BvOp {
    Add,
    Sub,
    Mul,
    Neg,
    Not,
    UDiv,
    SDiv,
    URem,
    SRem,
    Shl,
    LShr,
    AShr,
    Ult,
    Ule,
    Slt,
    Sle,
    Concat,
    /// Bits `hi..=lo`.
    Extract(u32, u32),
    /// `n` more bits, zeros.
    ZeroExt(u32),
    /// `n` more bits, copies of the sign bit.
    SignExt(u32),
}

impl BvOp {
    /// The SMT-LIB name (indexed operators without their indices).
    pub fn name(self) -> &'static str {
        match self {
            BvOp::Add => "bvadd",
            BvOp::Sub => "bvsub",
            BvOp::Mul => "bvmul",
            BvOp::Neg => "bvneg",
            BvOp::Not => "bvnot",
            BvOp::UDiv => "bvudiv",
            BvOp::SDiv => "bvsdiv",
            BvOp::URem => "bvurem",
            BvOp::SRem => "bvsrem",
            BvOp::Shl => "bvshl",
            BvOp::LShr => "bvlshr",
            BvOp::AShr => "bvashr",
            BvOp::Ult => "bvult",
            BvOp::Ule => "bvule",
            BvOp::Slt => "bvslt",
            BvOp::Sle => "bvsle",
            BvOp::Concat => "concat",
            BvOp::Extract(..) => "extract",
            BvOp::ZeroExt(_) => "zero_extend",
            BvOp::SignExt(_) => "sign_extend",
        }
    }

    fn is_predicate(self) -> bool {
        matches!(self, BvOp::Ult | BvOp::Ule | BvOp::Slt | BvOp::Sle)
    }
}

/// The width of a bit-vector term (0 for other sorts).
pub fn width(t: &Term) -> u32 {
    match t.sort {
        Sort::BitVec(w) => w,
        _ => 0,
    }
}

/// The literal `v mod 2^w` of width `w`.
pub fn lit(v: &BigInt, w: u32) -> Term {
    build::int2bv(w, &build::int_big(v.clone()))
}

/// The two's complement value of the pattern `u` of width `w`.
pub fn signed(u: &BigInt, w: u32) -> BigInt {
    if w > 0 && u.bit(u64::from(w - 1)) {
        u - (BigInt::one() << w)
    } else {
        u.clone()
    }
}

/// The result sort of `op` on arguments of width `w` (the first) and `w2` (the second).
fn result_sort(op: BvOp, w: u32, w2: u32) -> Sort {
    match op {
        _ if op.is_predicate() => Sort::Bool,
        BvOp::Concat => Sort::BitVec(w + w2),
        BvOp::Extract(hi, lo) => Sort::BitVec(hi - lo + 1),
        BvOp::ZeroExt(n) | BvOp::SignExt(n) => Sort::BitVec(w + n),
        _ => Sort::BitVec(w),
    }
}

/// `op(args)`, folded when every argument is a literal.
pub fn app(op: BvOp, args: &[Term]) -> Term {
    let w = args.first().map_or(0, width);
    let w2 = args.get(1).map_or(0, width);
    let sort = result_sort(op, w, w2);
    let lits: Option<Vec<BigInt>> = args.iter().map(|a| a.as_bv().map(|(v, _)| v.clone())).collect();
    if let Some(vals) = lits {
        if let Some(t) = fold(op, &vals, w, w2) {
            return t;
        }
    }
    match op {
        BvOp::ZeroExt(0) | BvOp::SignExt(0) => return args[0].clone(),
        BvOp::Extract(hi, 0) => {
            let x = &args[0];
            if hi + 1 == w {
                return x.clone();
            }
            // extending and cutting back to the original width is the identity
            if matches!(x.op(), Some(Op::Bv(BvOp::ZeroExt(_) | BvOp::SignExt(_)))) && width(&x.args[0]) == hi + 1 {
                return x.args[0].clone();
            }
        }
        _ => {}
    }
    Term::mk(Kind::App(Op::Bv(op)), args.to_vec(), sort)
}

/// The value of `op` on literal patterns (`None`: left to the solver, e.g. division by zero).
fn fold(op: BvOp, v: &[BigInt], w: u32, w2: u32) -> Option<Term> {
    let a = v.first()?;
    let s = |x: &BigInt| signed(x, w);
    let out = |x: BigInt| Some(lit(&x, w));
    match (op, v.get(1)) {
        (BvOp::Neg, None) => out(-a),
        (BvOp::Not, None) => out(-a - 1),
        (BvOp::ZeroExt(n), None) => Some(lit(a, w + n)),
        (BvOp::SignExt(n), None) => Some(lit(&s(a), w + n)),
        (BvOp::Extract(hi, lo), None) => Some(lit(&(a >> lo), hi - lo + 1)),
        (_, None) => None,
        (BvOp::Add, Some(b)) => out(a + b),
        (BvOp::Sub, Some(b)) => out(a - b),
        (BvOp::Mul, Some(b)) => out(a * b),
        (BvOp::UDiv | BvOp::URem | BvOp::SDiv | BvOp::SRem, Some(b)) if b.is_zero() => None,
        (BvOp::UDiv, Some(b)) => out(a / b),
        (BvOp::URem, Some(b)) => out(a % b),
        // BigInt's `/` and `%` truncate toward zero, as bvsdiv/bvsrem do
        (BvOp::SDiv, Some(b)) => out(s(a) / s(b)),
        (BvOp::SRem, Some(b)) => out(s(a) % s(b)),
        (BvOp::Shl | BvOp::LShr | BvOp::AShr, Some(b)) => {
            let k = b.to_u32().filter(|k| *k < w);
            match (op, k) {
                (BvOp::Shl, Some(k)) => out(a << k),
                (BvOp::LShr, Some(k)) => out(a >> k),
                (BvOp::AShr, Some(k)) => out(s(a) >> k),
                (BvOp::AShr, None) => out(if s(a).is_negative() { BigInt::from(-1) } else { BigInt::zero() }),
                _ => out(BigInt::zero()),
            }
        }
        (BvOp::Ult, Some(b)) => Some(bool_lit(a < b)),
        (BvOp::Ule, Some(b)) => Some(bool_lit(a <= b)),
        (BvOp::Slt, Some(b)) => Some(bool_lit(s(a) < s(b))),
        (BvOp::Sle, Some(b)) => Some(bool_lit(s(a) <= s(b))),
        (BvOp::Concat, Some(b)) => Some(lit(&((a << w2) + b), w + w2)),
        _ => None,
    }
}

/// `a op b` for a binary operator.
pub fn bin(op: BvOp, a: &Term, b: &Term) -> Term {
    app(op, &[a.clone(), b.clone()])
}

/// `t` at width `w`: cut to its low bits, or extended (sign-extended when `signed`).
pub fn resize(t: &Term, w: u32, signed: bool) -> Term {
    let n = width(t);
    match n.cmp(&w) {
        std::cmp::Ordering::Equal => t.clone(),
        std::cmp::Ordering::Greater => app(BvOp::Extract(w - 1, 0), std::slice::from_ref(t)),
        std::cmp::Ordering::Less if signed => app(BvOp::SignExt(w - n), std::slice::from_ref(t)),
        std::cmp::Ordering::Less => app(BvOp::ZeroExt(w - n), std::slice::from_ref(t)),
    }
}

/// The integer value of `t` (two's complement when `signed`).
pub fn to_int(t: &Term, signed: bool) -> Term {
    let w = width(t);
    if let Some((v, _)) = t.as_bv() {
        return build::int_big(if signed { self::signed(v, w) } else { v.clone() });
    }
    let u = build::bv2nat(t);
    if !signed {
        return u;
    }
    let negative = bin(BvOp::Slt, t, &lit(&BigInt::zero(), w));
    build::ite(&negative, &build::sub(&u, &build::int_big(BigInt::one() << w)), &u)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(v: i64, w: u32) -> Term {
        lit(&BigInt::from(v), w)
    }

    #[test]
    fn literals_fold_like_c_on_two_s_complement() {
        assert_eq!(bin(BvOp::Add, &l(255, 8), &l(1, 8)), l(0, 8));
        assert_eq!(bin(BvOp::SDiv, &l(-7, 8), &l(2, 8)), l(-3, 8));
        assert_eq!(bin(BvOp::SRem, &l(-7, 8), &l(2, 8)), l(-1, 8));
        assert_eq!(bin(BvOp::AShr, &l(-8, 8), &l(1, 8)), l(-4, 8));
        assert_eq!(bin(BvOp::LShr, &l(-8, 8), &l(1, 8)), l(124, 8));
        assert_eq!(bin(BvOp::Slt, &l(-1, 8), &l(0, 8)), build::tt());
        assert_eq!(bin(BvOp::Ult, &l(-1, 8), &l(0, 8)), build::ff());
        assert_eq!(resize(&l(-1, 8), 16, true), l(-1, 16));
        assert_eq!(resize(&l(-1, 8), 16, false), l(255, 16));
        assert_eq!(resize(&l(0x1234, 16), 8, false), l(0x34, 8));
        assert_eq!(to_int(&l(-1, 8), true), build::int(-1));
        assert!(bin(BvOp::UDiv, &l(1, 8), &l(0, 8)).as_bv().is_none());
    }

    #[test]
    fn extending_and_cutting_back_is_the_identity() {
        let x = Term::var("x", Sort::BitVec(8));
        assert_eq!(resize(&resize(&x, 32, true), 8, true), x);
        assert_eq!(resize(&x, 8, false), x);
    }
}
