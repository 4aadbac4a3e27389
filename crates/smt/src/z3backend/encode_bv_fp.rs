//! Encoding of bit-vector and floating-point operators to Z3 ASTs.

use super::context::Z3Ctx;
use super::encode::BinFn;
use super::ownership::Owned;
use super::{unsupported, Res};
use crate::bv::BvOp;
use crate::fp::FpOp;
use crate::sort::Sort;
use crate::z3ffi as ffi;
use std::os::raw::c_uint;

impl Z3Ctx {
    /// Applies a bit-vector operator to translated arguments.
    pub(super) fn encode_bv(&self, op: BvOp, a: &[Owned<ffi::Z3_ast>]) -> Res<Owned<ffi::Z3_ast>> {
        let what = op.name();
        let indexed = |f: unsafe extern "C" fn(ffi::Z3_context, c_uint, ffi::Z3_ast) -> Option<ffi::Z3_ast>, n: u32| match a {
            // SAFETY: live AST of this context.
            [x] => self.ast(unsafe { f(self.c(), n, x.p) }, what),
            _ => Err(unsupported(format!("{what} with {} arguments", a.len()))),
        };
        match op {
            BvOp::Neg => self.mk_un(ffi::Z3_mk_bvneg, a, what),
            BvOp::Not => self.mk_un(ffi::Z3_mk_bvnot, a, what),
            BvOp::ZeroExt(n) => indexed(ffi::Z3_mk_zero_ext, n),
            BvOp::SignExt(n) => indexed(ffi::Z3_mk_sign_ext, n),
            BvOp::Extract(hi, lo) => match a {
                // SAFETY: live AST of this context.
                [x] => self.ast(unsafe { ffi::Z3_mk_extract(self.c(), hi, lo, x.p) }, what),
                _ => Err(unsupported("extract arity")),
            },
            _ => {
                let f: BinFn = match op {
                    BvOp::Add => ffi::Z3_mk_bvadd,
                    BvOp::Sub => ffi::Z3_mk_bvsub,
                    BvOp::Mul => ffi::Z3_mk_bvmul,
                    BvOp::UDiv => ffi::Z3_mk_bvudiv,
                    BvOp::SDiv => ffi::Z3_mk_bvsdiv,
                    BvOp::URem => ffi::Z3_mk_bvurem,
                    BvOp::SRem => ffi::Z3_mk_bvsrem,
                    BvOp::Shl => ffi::Z3_mk_bvshl,
                    BvOp::LShr => ffi::Z3_mk_bvlshr,
                    BvOp::AShr => ffi::Z3_mk_bvashr,
                    BvOp::Ult => ffi::Z3_mk_bvult,
                    BvOp::Ule => ffi::Z3_mk_bvule,
                    BvOp::Slt => ffi::Z3_mk_bvslt,
                    BvOp::Sle => ffi::Z3_mk_bvsle,
                    _ => ffi::Z3_mk_concat,
                };
                self.mk_bin(f, a, what)
            }
        }
    }

    /// Applies a floating-point operator to translated arguments (rounding modes as C uses them).
    pub(super) fn encode_fp(&mut self, op: FpOp, a: &[Owned<ffi::Z3_ast>]) -> Res<Owned<ffi::Z3_ast>> {
        let what = op.name();
        let c = self.c();
        // SAFETY (all calls below): live context; arguments are live ASTs of this context.
        // the rounding mode (unused by the operators without one)
        let rm = match op.rounding() {
            Some("RTZ") => self.ast(unsafe { ffi::Z3_mk_fpa_rtz(c) }, "RTZ")?,
            Some("RTN") => self.ast(unsafe { ffi::Z3_mk_fpa_rtn(c) }, "RTN")?,
            Some("RTP") => self.ast(unsafe { ffi::Z3_mk_fpa_rtp(c) }, "RTP")?,
            Some("RNA") => self.ast(unsafe { ffi::Z3_mk_fpa_rna(c) }, "RNA")?,
            _ => self.ast(unsafe { ffi::Z3_mk_fpa_rne(c) }, "RNE")?,
        };
        let rm = rm.p;
        let sort = |s: &mut Self, e: u32, m: u32| s.sort(&Sort::Float(e, m));
        let p = match (op, a) {
            (FpOp::Neg, _) => return self.mk_un(ffi::Z3_mk_fpa_neg, a, what),
            (FpOp::IsNaN, _) => return self.mk_un(ffi::Z3_mk_fpa_is_nan, a, what),
            (FpOp::IsZero, _) => return self.mk_un(ffi::Z3_mk_fpa_is_zero, a, what),
            (FpOp::Lt, _) => return self.mk_bin(ffi::Z3_mk_fpa_lt, a, what),
            (FpOp::Leq, _) => return self.mk_bin(ffi::Z3_mk_fpa_leq, a, what),
            (FpOp::Eq, _) => return self.mk_bin(ffi::Z3_mk_fpa_eq, a, what),
            (FpOp::Add, [x, y]) => unsafe { ffi::Z3_mk_fpa_add(c, rm, x.p, y.p) },
            (FpOp::Sub, [x, y]) => unsafe { ffi::Z3_mk_fpa_sub(c, rm, x.p, y.p) },
            (FpOp::Mul, [x, y]) => unsafe { ffi::Z3_mk_fpa_mul(c, rm, x.p, y.p) },
            (FpOp::Div, [x, y]) => unsafe { ffi::Z3_mk_fpa_div(c, rm, x.p, y.p) },
            (FpOp::Abs, _) => return self.mk_un(ffi::Z3_mk_fpa_abs, a, what),
            (FpOp::Trunc | FpOp::Floor | FpOp::Ceil | FpOp::Round, [x]) => unsafe { ffi::Z3_mk_fpa_round_to_integral(c, rm, x.p) },
            (FpOp::Sqrt, [x]) => unsafe { ffi::Z3_mk_fpa_sqrt(c, rm, x.p) },
            (FpOp::ToSigned(w), [x]) => unsafe { ffi::Z3_mk_fpa_to_sbv(c, rm, x.p, w) },
            (FpOp::ToUnsigned(w), [x]) => unsafe { ffi::Z3_mk_fpa_to_ubv(c, rm, x.p, w) },
            (FpOp::FromBits(e, m), [x]) => {
                let s = sort(self, e, m)?;
                unsafe { ffi::Z3_mk_fpa_to_fp_bv(c, x.p, s.p) }
            }
            (FpOp::FromSigned(e, m), [x]) => {
                let s = sort(self, e, m)?;
                unsafe { ffi::Z3_mk_fpa_to_fp_signed(c, rm, x.p, s.p) }
            }
            (FpOp::FromUnsigned(e, m), [x]) => {
                let s = sort(self, e, m)?;
                unsafe { ffi::Z3_mk_fpa_to_fp_unsigned(c, rm, x.p, s.p) }
            }
            (FpOp::FromFloat(e, m), [x]) => {
                let s = sort(self, e, m)?;
                unsafe { ffi::Z3_mk_fpa_to_fp_float(c, rm, x.p, s.p) }
            }
            _ => return Err(unsupported(format!("{what} with {} arguments", a.len()))),
        };
        self.ast(p, what)
    }
}
