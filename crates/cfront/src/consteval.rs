//! Evaluation of integer constant expressions (array sizes, enumeration values, case labels,
//! bit-field widths) with the same term-level semantics (`conv`) the translation uses.

use crate::conv::{self, truth, Sem};
use crate::tast::{Expr, ExprKind};
use crate::types::DataModel;
use num_bigint::BigInt;
use smt::build::int_big;
use smt::Term;

/// The value of an integer constant expression, or `None` if it is not one.
pub fn const_int(e: &Expr, dm: DataModel) -> Option<BigInt> {
    eval(e, dm)?.as_int().cloned()
}

fn eval(e: &Expr, dm: DataModel) -> Option<Term> {
    if !e.ty.is_integer() {
        return None;
    }
    let lit = |t: Term| t.as_int().is_some().then_some(t);
    match &e.kind {
        ExprKind::IntLit(v) => Some(int_big(v.clone())),
        ExprKind::Cast(x) => {
            if !x.ty.is_integer() {
                return None;
            }
            lit(conv::convert(&eval(x, dm)?, &x.ty, &e.ty, Sem::integer(dm)))
        }
        ExprKind::Neg(x) => lit(conv::negate(&eval(x, dm)?, &e.ty, Sem::integer(dm)).value?),
        ExprKind::BitNot(x) => lit(conv::bit_not(&eval(x, dm)?, &e.ty, dm)),
        ExprKind::Not(x) => {
            let v = eval(x, dm)?;
            lit(conv::bool_to_int(&smt::build::not(&truth(&v))))
        }
        ExprKind::Arith(op, a, b) => {
            let (x, y) = (eval(a, dm)?, eval(b, dm)?);
            lit(conv::arith(*op, &x, &y, &e.ty, Sem::integer(dm), a.is_boolean(), b.is_boolean()).value?)
        }
        ExprKind::Cmp(op, a, b) => {
            let (x, y) = (eval(a, dm)?, eval(b, dm)?);
            lit(conv::bool_to_int(&conv::compare(*op, &x, &y, true)))
        }
        ExprKind::LogAnd(a, b) => {
            let x = eval(a, dm)?;
            if truth(&x).is_false() {
                return Some(smt::build::int(0));
            }
            let y = eval(b, dm)?;
            lit(conv::bool_to_int(&truth(&y)))
        }
        ExprKind::LogOr(a, b) => {
            let x = eval(a, dm)?;
            if truth(&x).is_true() {
                return Some(smt::build::int(1));
            }
            let y = eval(b, dm)?;
            lit(conv::bool_to_int(&truth(&y)))
        }
        ExprKind::Cond(c, a, b) => {
            let x = eval(c, dm)?;
            if truth(&x).is_true() {
                eval(a, dm)
            } else {
                eval(b, dm)
            }
        }
        _ => None,
    }
}
