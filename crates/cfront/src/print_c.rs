//! Formulas over program variables as C expressions (for invariants of C programs). Only what C
//! can say with the same meaning is printed: variables with a C name (the back-translation
//! map's), integer arithmetic without division, comparisons and Boolean connectives, and
//! `float`/`double` terms whose C operators round the same way (IEEE comparisons, arithmetic,
//! finite constants, conversions between the two). Anything else (memory arrays, SMT division,
//! SMT's structural equality of floats, the front end's own variables) makes the formula not
//! expressible in C.

use crate::back::BackTranslation;
use ir::print::term_to_boogie;
use smt::fp::{self, FpOp};
use smt::{Kind, Op, Sort, Term};

/// `t` as a C expression with the C names of `names`, or the reason it has none.
pub(crate) fn term_to_c(t: &Term, names: &BackTranslation) -> Result<String, String> {
    let args = || t.args.iter().map(|a| term_to_c(a, names)).collect::<Result<Vec<_>, _>>();
    let join = |op: &str| -> Result<String, String> { Ok(format!("({})", args()?.join(&format!(" {op} ")))) };
    match &t.kind {
        Kind::Var(name) => names.c_name(name).map(str::to_string).ok_or_else(|| format!("`{name}` has no C name")),
        _ if t.is_true() => Ok("1".into()),
        _ if t.is_false() => Ok("0".into()),
        _ if t.as_int().is_some() => {
            let n = t.as_int().map(|n| n.to_string()).unwrap_or_default();
            Ok(if n.starts_with('-') { format!("({n})") } else { n })
        }
        _ => match t.op() {
            Some(Op::Not) => Ok(format!("!{}", args()?.concat())),
            Some(Op::And) => join("&&"),
            Some(Op::Or) => join("||"),
            Some(Op::Implies) => {
                let a = args()?;
                Ok(format!("(!{} || {})", a[0], a[1..].join(" || ")))
            }
            Some(Op::Ite) => {
                let a = args()?;
                Ok(format!("({} ? {} : {})", a[0], a[1], a[2]))
            }
            // SMT's `=` of floats is structural (NaN equals NaN, -0 differs from +0), unlike C's
            Some(Op::Eq | Op::Distinct) if matches!(t.args[0].sort, Sort::Float(..)) => {
                Err("structural equality of floats has no C counterpart".into())
            }
            Some(Op::Eq) if t.args.len() == 2 => join("=="),
            Some(Op::Distinct) if t.args.len() == 2 => join("!="),
            Some(Op::Fp(op)) => float_to_c(*op, t, names),
            Some(Op::Le) => join("<="),
            Some(Op::Lt) => join("<"),
            Some(Op::Add) => join("+"),
            Some(Op::Sub) => join("-"),
            Some(Op::Mul) => join("*"),
            Some(Op::Neg) => Ok(format!("(-{})", args()?.concat())),
            _ => Err(format!("`{}` has no C counterpart", term_to_boogie(t))),
        },
    }
}

/// A floating-point application as C (see the module documentation).
fn float_to_c(op: FpOp, t: &Term, names: &BackTranslation) -> Result<String, String> {
    let args = || t.args.iter().map(|a| term_to_c(a, names)).collect::<Result<Vec<_>, _>>();
    let join = |c: &str| -> Result<String, String> { Ok(format!("({})", args()?.join(&format!(" {c} ")))) };
    match op {
        FpOp::FromBits(..) => match (fp::to_f64(t), &t.sort) {
            (Some(x), Sort::Float(8, 24)) if x.is_finite() => Ok(format!("{:?}f", x as f32)),
            (Some(x), Sort::Float(11, 53)) if x.is_finite() => Ok(format!("{x:?}")),
            _ => Err("a floating-point constant C cannot write".into()),
        },
        FpOp::Add => join("+"),
        FpOp::Sub => join("-"),
        FpOp::Mul => join("*"),
        FpOp::Div => join("/"),
        FpOp::Neg => Ok(format!("(-{})", args()?.concat())),
        FpOp::Lt => join("<"),
        FpOp::Leq => join("<="),
        FpOp::Eq => join("=="),
        FpOp::IsNaN => Ok(format!("({0} != {0})", args()?.concat())),
        FpOp::FromFloat(8, 24) => Ok(format!("((float) {})", args()?.concat())),
        FpOp::FromFloat(11, 53) => Ok(format!("((double) {})", args()?.concat())),
        _ => Err(format!("`{}` has no C counterpart", term_to_boogie(t))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smt::build::{and, eq, int, le, not};
    use smt::Sort;

    /// The map of a program with the variables `vars` (each named after itself or, with a
    /// suffix `#k`, after the C identifier before it).
    fn names(vars: &[&str]) -> BackTranslation {
        let mut b = BackTranslation::default();
        for v in vars {
            b.name_variable(v, v.split('#').next().unwrap_or(v));
        }
        b
    }

    #[test]
    fn prints_c_and_refuses_internal_names() {
        let i = Term::var("i", Sort::Int);
        let p = Term::var("p#2", Sort::Int);
        let f = and(&[le(&int(0), &i), not(&eq(&p, &int(1)))]);
        // (`and` and `=` order their arguments by term identity, which other tests can shift)
        let names = names(&["i", "p#2"]);
        let c = term_to_c(&f, &names).unwrap();
        assert!(c.contains("(0 <= i)") && (c.contains("!(1 == p)") || c.contains("!(p == 1)")) && c.contains(" && "), "{c}");
        assert!(term_to_c(&eq(&Term::var("#t1", Sort::Int), &int(0)), &names).is_err());
        assert!(term_to_c(&eq(&Term::var("old(i)", Sort::Int), &int(0)), &names).is_err());
        assert!(term_to_c(&f, &BackTranslation::default()).is_err(), "the empty map names nothing");
    }

    #[test]
    fn prints_floats_where_c_means_the_same() {
        let (x, y) = (Term::var("x", Sort::Float(8, 24)), Term::var("y", Sort::Float(8, 24)));
        let two = fp::from_f64(2.0, 8, 24).unwrap();
        let f =
            and(&[not(&fp::bin(FpOp::Eq, &y, &two)), fp::bin(FpOp::Leq, &fp::from_f64(0.0, 8, 24).unwrap(), &fp::bin(FpOp::Add, &x, &y))]);
        let names = names(&["x", "y"]);
        let c = term_to_c(&f, &names).unwrap();
        assert!(c.contains("!(y == 2.0f)") && c.contains("(0.0f <= (x + y))") && c.contains(" && "), "{c}");
        let d = fp::un(FpOp::FromFloat(11, 53), &x);
        assert_eq!(term_to_c(&fp::bin(FpOp::Lt, &d, &fp::from_f64(0.1, 11, 53).unwrap()), &names).unwrap(), "(((double) x) < 0.1)");
        assert!(term_to_c(&eq(&x, &y), &names).is_err(), "structural equality");
        assert!(term_to_c(&fp::bin(FpOp::Eq, &x, &fp::from_f64(f64::NAN, 8, 24).unwrap()), &names).is_err());
    }
}
