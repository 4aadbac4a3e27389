//! Floating-point terms (SMT-LIB `FP`) with the rounding of C: arithmetic and conversions to
//! floating point round to nearest, ties to even; conversions to integers round toward zero.
//! The rounding mode is part of the operator (no term of sort `RoundingMode`).
//!
//! A literal is `((_ to_fp e s) b)` of a bit-vector literal `b` holding its IEEE 754 pattern
//! ([`lit`]; [`crate::Term::as_fp`] reads it), so NaN, infinities and signed zeros need no
//! node kind of their own.

use crate::bv;
use crate::sort::Sort;
use crate::term::{Kind, Op, Term};
use num_bigint::BigInt;

/// A floating-point operator.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FpOp {
    /// `fp.add RNE`
    Add,
    /// `fp.sub RNE`
    Sub,
    /// `fp.mul RNE`
    Mul,
    /// `fp.div RNE`
    Div,
    Neg,
    Lt,
    Leq,
    /// IEEE equality (`fp.eq`: NaN equals nothing, `-0` equals `+0`).
    Eq,
    IsNaN,
    IsZero,
    /// `fp.roundToIntegral RTZ`: the integral part.
    Trunc,
    /// `fp.roundToIntegral RTN`: the greatest integral value not above.
    Floor,
    /// `fp.roundToIntegral RTP`: the least integral value not below.
    Ceil,
    /// `fp.roundToIntegral RNA`: the nearest integral value, halfway cases away from zero.
    Round,
    /// `fp.abs`
    Abs,
    /// `fp.sqrt RNE`
    Sqrt,
    /// The float of sort `(e, s)` whose IEEE pattern is the bit-vector argument (`e + s` bits).
    FromBits(u32, u32),
    /// A signed bit-vector to the nearest float of sort `(e, s)`.
    FromSigned(u32, u32),
    /// An unsigned bit-vector to the nearest float of sort `(e, s)`.
    FromUnsigned(u32, u32),
    /// A float to the nearest float of sort `(e, s)`.
    FromFloat(u32, u32),
    /// The integral part as a signed bit-vector of the width (unspecified out of range).
    ToSigned(u32),
    /// The integral part as an unsigned bit-vector of the width (unspecified out of range).
    ToUnsigned(u32),
}

impl FpOp {
    /// The SMT-LIB name (indexed operators without their indices, rounding mode omitted).
    pub fn name(self) -> &'static str {
        match self {
            FpOp::Add => "fp.add",
            FpOp::Sub => "fp.sub",
            FpOp::Mul => "fp.mul",
            FpOp::Div => "fp.div",
            FpOp::Neg => "fp.neg",
            FpOp::Lt => "fp.lt",
            FpOp::Leq => "fp.leq",
            FpOp::Eq => "fp.eq",
            FpOp::IsNaN => "fp.isNaN",
            FpOp::IsZero => "fp.isZero",
            FpOp::Trunc | FpOp::Floor | FpOp::Ceil | FpOp::Round => "fp.roundToIntegral",
            FpOp::Abs => "fp.abs",
            FpOp::Sqrt => "fp.sqrt",
            FpOp::FromBits(..) | FpOp::FromSigned(..) | FpOp::FromFloat(..) => "to_fp",
            FpOp::FromUnsigned(..) => "to_fp_unsigned",
            FpOp::ToSigned(_) => "fp.to_sbv",
            FpOp::ToUnsigned(_) => "fp.to_ubv",
        }
    }

    /// The rounding mode the operator takes as its first SMT-LIB argument, if any.
    pub fn rounding(self) -> Option<&'static str> {
        match self {
            FpOp::Add | FpOp::Sub | FpOp::Mul | FpOp::Div | FpOp::Sqrt => Some("RNE"),
            FpOp::Floor => Some("RTN"),
            FpOp::Ceil => Some("RTP"),
            FpOp::Round => Some("RNA"),
            FpOp::FromSigned(..) | FpOp::FromUnsigned(..) | FpOp::FromFloat(..) => Some("RNE"),
            FpOp::Trunc | FpOp::ToSigned(_) | FpOp::ToUnsigned(_) => Some("RTZ"),
            _ => None,
        }
    }

    /// The indices of an indexed operator (`(_ to_fp e s)`, `(_ fp.to_sbv w)`).
    pub fn indices(self) -> Vec<u32> {
        match self {
            FpOp::FromBits(e, s) | FpOp::FromSigned(e, s) | FpOp::FromUnsigned(e, s) | FpOp::FromFloat(e, s) => vec![e, s],
            FpOp::ToSigned(w) | FpOp::ToUnsigned(w) => vec![w],
            _ => vec![],
        }
    }
}

/// `op(args)` (the argument sorts are the caller's to get right).
pub fn app(op: FpOp, args: &[Term]) -> Term {
    let first = args.first().map(|a| a.sort.clone()).unwrap_or(Sort::Bool);
    let sort = match op {
        FpOp::Lt | FpOp::Leq | FpOp::Eq | FpOp::IsNaN | FpOp::IsZero => Sort::Bool,
        FpOp::FromBits(e, s) | FpOp::FromSigned(e, s) | FpOp::FromUnsigned(e, s) | FpOp::FromFloat(e, s) => Sort::Float(e, s),
        FpOp::ToSigned(w) | FpOp::ToUnsigned(w) => Sort::BitVec(w),
        FpOp::Add
        | FpOp::Sub
        | FpOp::Mul
        | FpOp::Div
        | FpOp::Neg
        | FpOp::Trunc
        | FpOp::Floor
        | FpOp::Ceil
        | FpOp::Round
        | FpOp::Abs
        | FpOp::Sqrt => first.clone(),
    };
    if let (FpOp::FromFloat(..), Sort::Float(..)) = (op, &first) {
        if first == sort {
            return args[0].clone();
        }
    }
    Term::mk(Kind::App(Op::Fp(op)), args.to_vec(), sort)
}

/// `op(a)`.
pub fn un(op: FpOp, a: &Term) -> Term {
    app(op, std::slice::from_ref(a))
}

/// `op(a, b)`.
pub fn bin(op: FpOp, a: &Term, b: &Term) -> Term {
    app(op, &[a.clone(), b.clone()])
}

/// The float of sort `(e, s)` with the IEEE pattern `bits`.
pub fn lit(bits: &BigInt, e: u32, s: u32) -> Term {
    app(FpOp::FromBits(e, s), &[bv::lit(bits, e + s)])
}

/// The value of an `f64` as a float of sort `(e, s)`: exact for `(11, 53)` and `(8, 24)` (an
/// `f32` widened), `None` for other sorts.
pub fn from_f64(x: f64, e: u32, s: u32) -> Option<Term> {
    match (e, s) {
        (11, 53) => Some(lit(&BigInt::from(x.to_bits()), e, s)),
        (8, 24) => Some(lit(&BigInt::from((x as f32).to_bits()), e, s)),
        _ => None,
    }
}

/// The `f64` value of a literal of sort `(11, 53)` or `(8, 24)` (an `f32` widened exactly).
pub fn to_f64(t: &Term) -> Option<f64> {
    let (bits, e, s) = t.as_fp()?;
    let bits = u64::try_from(bits).ok()?;
    match (e, s) {
        (11, 53) => Some(f64::from_bits(bits)),
        (8, 24) => Some(f64::from(f32::from_bits(u32::try_from(bits).ok()?))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_keep_their_pattern() {
        let half = from_f64(0.5, 11, 53).unwrap();
        assert_eq!(half.sort, Sort::Float(11, 53));
        assert!(half.is_literal());
        assert_eq!(to_f64(&half), Some(0.5));
        let tenth = from_f64(0.1, 8, 24).unwrap();
        assert_eq!(to_f64(&tenth), Some(f64::from(0.1f32)));
        let nan = from_f64(f64::NAN, 11, 53).unwrap();
        assert!(to_f64(&nan).unwrap().is_nan());
        assert_eq!(to_f64(&from_f64(-0.0, 11, 53).unwrap()).map(f64::to_bits), Some((-0.0f64).to_bits()));
        assert_eq!(from_f64(1.0, 15, 64), None);
    }

    #[test]
    fn converting_to_the_own_sort_is_the_identity() {
        let x = Term::var("x", Sort::Float(8, 24));
        assert_eq!(un(FpOp::FromFloat(8, 24), &x), x);
        assert_eq!(un(FpOp::FromFloat(11, 53), &x).sort, Sort::Float(11, 53));
        assert_eq!(bin(FpOp::Lt, &x, &x).sort, Sort::Bool);
        assert_eq!(app(FpOp::ToSigned(32), &[x]).sort, Sort::BitVec(32));
    }
}
