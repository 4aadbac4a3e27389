//! Decoding of bit-vector and floating-point applications and values from Z3 ASTs.

use super::context::{read_str, Z3Ctx};
use super::{unsupported, Res};
use crate::build;
use crate::bv::{self, BvOp};
use crate::fp::{self, FpOp};
use crate::sort::Sort;
use crate::term::{Op, Term};
use crate::z3ffi as ffi;
use num_bigint::BigInt;
use std::os::raw::c_uint;

/// A floating-point value as the literal of its IEEE pattern (NaN: the quiet NaN with only the
/// top significand bit set).
pub(super) fn fp_numeral(cx: &Z3Ctx, a: ffi::Z3_ast, e: u32, m: u32) -> Res<Term> {
    use ffi::op::{FPA_MINUS_INF, FPA_MINUS_ZERO, FPA_NAN, FPA_PLUS_INF, FPA_PLUS_ZERO};
    let c = cx.c();
    let one = || BigInt::from(1);
    let (sign, infinite) = (one() << (e + m - 1), ((one() << e) - 1) << (m - 1));
    let kind = cx.app_kind(a)?;
    let special = match kind {
        FPA_NAN => Some(&infinite | (one() << (m - 2))),
        FPA_PLUS_INF => Some(infinite.clone()),
        FPA_MINUS_INF => Some(&sign | &infinite),
        FPA_PLUS_ZERO => Some(BigInt::from(0)),
        FPA_MINUS_ZERO => Some(sign.clone()),
        _ => None,
    };
    if let Some(bits) = special {
        return Ok(fp::lit(&bits, e, m));
    }
    let part = |p: Option<ffi::Z3_ast>, what: &str| -> Res<BigInt> {
        let p = cx.check_ptr(p, what)?;
        // SAFETY: `p` is a bit-vector numeral Z3 just returned.
        let s = read_str(unsafe { ffi::Z3_get_numeral_string(c, p) }).ok_or_else(|| unsupported(format!("{what} of a float")))?;
        s.parse::<BigInt>().map_err(|_| unsupported(format!("{what} {s}")))
    };
    // SAFETY: `a` is a floating-point numeral other than NaN.
    let (sign, exp, sig) = unsafe {
        (
            part(ffi::Z3_fpa_get_numeral_sign_bv(c, a), "sign")?,
            part(ffi::Z3_fpa_get_numeral_exponent_bv(c, a, true), "exponent")?,
            part(ffi::Z3_fpa_get_numeral_significand_bv(c, a), "significand")?,
        )
    };
    Ok(fp::lit(&((sign << (e + m - 1)) | (exp << (m - 1)) | sig), e, m))
}

/// The sort of rounding modes, which terms have only as markers (see [`rounding_marker`]).
pub(super) const ROUNDING_MODE: &str = "RoundingMode";

/// A rounding-mode constant, kept as a marker argument of the operator that takes it.
fn rounding_marker(name: &str) -> Term {
    Term::var(name, Sort::Uninterpreted(ROUNDING_MODE.into()))
}

/// A floating-point application of declaration kind `k` (libz3 4.8.12 numbering) with the
/// rounding modes C uses; `None` for others.
pub(super) fn decode_fp(cx: &Z3Ctx, k: u32, decl: Option<ffi::Z3_func_decl>, args: &[Term]) -> Option<Term> {
    use ffi::op::*;
    // SAFETY: live declaration; its integer parameters are read only for indexed operators.
    let param = |i: c_uint| decl.map_or(0, |d| unsafe { ffi::Z3_get_decl_int_parameter(cx.c(), d, i) } as u32);
    let rounded = |rm: &str| match args {
        [m, rest @ ..] if *m == rounding_marker(rm) => Some(rest),
        _ => None,
    };
    let float_sort = |t: &Term| matches!(t.sort, Sort::Float(..));
    let bin = |op: FpOp, xs: &[Term]| match xs {
        [x, y] => Some(fp::bin(op, x, y)),
        _ => None,
    };
    let un = |op: FpOp, xs: &[Term]| match xs {
        [_] => Some(fp::app(op, xs)),
        _ => None,
    };
    match k {
        FPA_RM_NEAREST_TIES_TO_EVEN => Some(rounding_marker("RNE")),
        FPA_RM_TOWARD_ZERO => Some(rounding_marker("RTZ")),
        FPA_RM_TOWARD_NEGATIVE => Some(rounding_marker("RTN")),
        FPA_RM_TOWARD_POSITIVE => Some(rounding_marker("RTP")),
        FPA_RM_NEAREST_TIES_TO_AWAY => Some(rounding_marker("RNA")),
        FPA_ADD => bin(FpOp::Add, rounded("RNE")?),
        FPA_SUB => bin(FpOp::Sub, rounded("RNE")?),
        FPA_MUL => bin(FpOp::Mul, rounded("RNE")?),
        FPA_DIV => bin(FpOp::Div, rounded("RNE")?),
        FPA_NEG => un(FpOp::Neg, args),
        FPA_EQ => bin(FpOp::Eq, args),
        FPA_LT => bin(FpOp::Lt, args),
        FPA_LE => bin(FpOp::Leq, args),
        FPA_GT => bin(FpOp::Lt, &[args.get(1)?.clone(), args.first()?.clone()]),
        FPA_GE => bin(FpOp::Leq, &[args.get(1)?.clone(), args.first()?.clone()]),
        FPA_IS_NAN => un(FpOp::IsNaN, args),
        FPA_IS_ZERO => un(FpOp::IsZero, args),
        FPA_ROUND_TO_INTEGRAL => [FpOp::Trunc, FpOp::Floor, FpOp::Ceil, FpOp::Round]
            .into_iter()
            .find_map(|op| Some((op, rounded(op.rounding()?)?)))
            .and_then(|(op, xs)| un(op, xs)),
        FPA_ABS => un(FpOp::Abs, args),
        FPA_SQRT => un(FpOp::Sqrt, rounded("RNE")?),
        FPA_TO_SBV => un(FpOp::ToSigned(param(0)), rounded("RTZ")?),
        FPA_TO_UBV => un(FpOp::ToUnsigned(param(0)), rounded("RTZ")?),
        FPA_TO_FP_UNSIGNED => un(FpOp::FromUnsigned(param(0), param(1)), rounded("RNE")?),
        FPA_TO_FP => match args {
            [x] if matches!(x.sort, Sort::BitVec(_)) => un(FpOp::FromBits(param(0), param(1)), args),
            _ => {
                let xs = rounded("RNE")?;
                let op = if float_sort(xs.first()?) { FpOp::FromFloat(param(0), param(1)) } else { FpOp::FromSigned(param(0), param(1)) };
                un(op, xs)
            }
        },
        // `(fp sign exponent significand)`
        FPA_FP => match args {
            [s, e, m] => {
                let bits = bv::bin(BvOp::Concat, &bv::bin(BvOp::Concat, s, e), m);
                Some(fp::app(FpOp::FromBits(bv::width(e), bv::width(m) + 1), &[bits]))
            }
            _ => None,
        },
        _ => None,
    }
}

/// A bit-vector application of declaration kind `k` (libz3 4.8.12 numbering).
pub(super) fn decode_bv(cx: &Z3Ctx, k: u32, decl: ffi::Z3_func_decl, args: &[Term]) -> Option<Term> {
    use ffi::op::*;
    // SAFETY: live declaration; its integer parameters are read only for indexed operators.
    let param = |i: c_uint| unsafe { ffi::Z3_get_decl_int_parameter(cx.c(), decl, i) } as u32;
    let (first, rest) = args.split_first()?;
    let chain = |op: BvOp| Some(rest.iter().fold(first.clone(), |acc, x| bv::bin(op, &acc, x)));
    let bitwise = |op: Op| Some(rest.iter().fold(first.clone(), |acc, x| build::bv_bitwise(op.clone(), &acc, x)));
    let flip = |op: BvOp| Some(bv::bin(op, args.get(1)?, first));
    match k {
        BADD => chain(BvOp::Add),
        BSUB => chain(BvOp::Sub),
        BMUL => chain(BvOp::Mul),
        BCONCAT => chain(BvOp::Concat),
        BAND => bitwise(Op::BvAnd),
        BOR => bitwise(Op::BvOr),
        BXOR => bitwise(Op::BvXor),
        BNEG => Some(bv::app(BvOp::Neg, args)),
        BNOT => Some(bv::app(BvOp::Not, args)),
        BSDIV | BSDIV_I => chain(BvOp::SDiv),
        BUDIV | BUDIV_I => chain(BvOp::UDiv),
        BSREM | BSREM_I => chain(BvOp::SRem),
        BUREM | BUREM_I => chain(BvOp::URem),
        BSHL => chain(BvOp::Shl),
        BLSHR => chain(BvOp::LShr),
        BASHR => chain(BvOp::AShr),
        ULEQ => chain(BvOp::Ule),
        SLEQ => chain(BvOp::Sle),
        ULT => chain(BvOp::Ult),
        SLT => chain(BvOp::Slt),
        UGEQ => flip(BvOp::Ule),
        SGEQ => flip(BvOp::Sle),
        UGT => flip(BvOp::Ult),
        SGT => flip(BvOp::Slt),
        ZERO_EXT => Some(bv::app(BvOp::ZeroExt(param(0)), args)),
        SIGN_EXT => Some(bv::app(BvOp::SignExt(param(0)), args)),
        EXTRACT => Some(bv::app(BvOp::Extract(param(0), param(1)), args)),
        BV2INT => Some(build::bv2nat(first)),
        INT2BV => Some(build::int2bv(param(0), first)),
        _ => None,
    }
}
