//! C floating point as SMT floating-point terms (under `--semantics bitvector`): `float` is
//! IEEE binary32, `double` binary64; arithmetic and conversions to a floating type round to
//! nearest (ties to even), conversions to an integer type truncate. `long double` (x87
//! extended precision) stays opaque, as do all floats under integer semantics.

use crate::conv::{ArithOp, CmpOp, Sem};
use crate::types::{CType, FloatKind, IntKind};
use num_bigint::BigInt;
use smt::build::{and, ite, not, tt};
use smt::fp::{self, FpOp};
use smt::{bv, Sort, Term};

/// The floating type whose values have sort `s`.
pub fn type_of(s: &Sort) -> Option<CType> {
    [FloatKind::Float, FloatKind::Double].into_iter().find(|k| format(*k).is_some_and(|(e, m)| *s == Sort::Float(e, m))).map(CType::Float)
}

/// The exponent and significand widths of a floating type modelled exactly.
pub fn format(k: FloatKind) -> Option<(u32, u32)> {
    match k {
        FloatKind::Float => Some((8, 24)),
        FloatKind::Double => Some((11, 53)),
        FloatKind::LongDouble => None,
    }
}

impl Sem {
    /// The sort of a value of floating type `t`, when floats are modelled (bit-vector semantics).
    pub fn float_sort(self, t: &CType) -> Option<Sort> {
        match t {
            CType::Float(k) if self.bitvector => format(*k).map(|(e, s)| Sort::Float(e, s)),
            _ => None,
        }
    }

    /// A floating constant of type `t` (its value already rounded to `t`), when modelled.
    pub fn float_lit(self, value: Option<f64>, t: &CType) -> Option<Term> {
        match self.float_sort(t)? {
            Sort::Float(e, s) => fp::from_f64(value?, e, s),
            _ => None,
        }
    }
}

/// `a op b` for `+`, `-`, `*`, `/` (the others do not apply to floats).
pub fn arith(op: ArithOp, a: &Term, b: &Term) -> Option<Term> {
    let op = match op {
        ArithOp::Add => FpOp::Add,
        ArithOp::Sub => FpOp::Sub,
        ArithOp::Mul => FpOp::Mul,
        ArithOp::Div => FpOp::Div,
        _ => return None,
    };
    Some(fp::bin(op, a, b))
}

/// A comparison of floats (IEEE: every comparison with NaN is false but `!=`).
pub fn compare(op: CmpOp, a: &Term, b: &Term) -> Term {
    match op {
        CmpOp::Lt => fp::bin(FpOp::Lt, a, b),
        CmpOp::Le => fp::bin(FpOp::Leq, a, b),
        CmpOp::Gt => fp::bin(FpOp::Lt, b, a),
        CmpOp::Ge => fp::bin(FpOp::Leq, b, a),
        CmpOp::Eq => fp::bin(FpOp::Eq, a, b),
        CmpOp::Ne => not(&fp::bin(FpOp::Eq, a, b)),
    }
}

/// `x != 0` (true for NaN).
pub fn truth(x: &Term) -> Term {
    not(&fp::un(FpOp::IsZero, x))
}

/// `+0.0` of a floating-point sort.
pub fn zero(e: u32, s: u32) -> Term {
    fp::lit(&BigInt::from(0), e, s)
}

/// An integer value (a bit-vector of type `from`) converted to the float sort `(e, s)`.
pub fn from_int(v: &Term, from: &CType, (e, s): (u32, u32)) -> Term {
    let signed = from.int_kind().is_some_and(|k| k.is_signed());
    fp::un(if signed { FpOp::FromSigned(e, s) } else { FpOp::FromUnsigned(e, s) }, v)
}

/// A float converted to the float sort `(e, s)`.
pub fn to_float(x: &Term, (e, s): (u32, u32)) -> Term {
    fp::un(FpOp::FromFloat(e, s), x)
}

/// A float converted to integer type `to`: the value (a bit-vector) and the condition under
/// which the conversion is defined (the truncated value fits `to`; NaN and infinities do not).
/// A conversion to `_Bool` compares with zero instead and is always defined.
pub fn to_int(x: &Term, to: &CType, sem: Sem) -> (Term, Term) {
    let Sort::BitVec(w) = sem.sort(to) else { return (x.clone(), tt()) };
    if *to == CType::Int(IntKind::Bool) {
        let bit = |v: u32| bv::lit(&BigInt::from(v), 1);
        return (ite(&truth(x), &bit(1), &bit(0)), tt());
    }
    let Sort::Float(e, s) = x.sort else { return (x.clone(), tt()) };
    let signed = to.int_kind().is_some_and(|k| k.is_signed());
    // the truncated value r fits iff lo <= r < hi, powers of two that every format holds exactly
    let bound = |exp: u32, negative: bool| {
        let v = 2f64.powi(exp as i32);
        fp::from_f64(if negative { -v } else { v }, e, s).unwrap_or_else(|| zero(e, s))
    };
    let (lo, hi) = if signed { (bound(w - 1, true), bound(w - 1, false)) } else { (zero(e, s), bound(w, false)) };
    let r = fp::un(FpOp::Trunc, x);
    let defined = and(&[not(&fp::un(FpOp::IsNaN, x)), fp::bin(FpOp::Leq, &lo, &r), fp::bin(FpOp::Lt, &r, &hi)]);
    let value = fp::un(if signed { FpOp::ToSigned(w) } else { FpOp::ToUnsigned(w) }, x);
    (value, defined)
}

/// The value of a floating constant's text rounded to `kind` (as an `f64`; a `float` value is
/// exact in it). `None` for hexadecimal constants and `long double`.
pub fn parse_constant(number: &str, hexadecimal: bool, kind: FloatKind) -> Option<f64> {
    if hexadecimal {
        return None;
    }
    match kind {
        FloatKind::Float => number.parse::<f32>().ok().map(f64::from),
        FloatKind::Double => number.parse::<f64>().ok(),
        FloatKind::LongDouble => None,
    }
}

/// The IEEE operation of a `math.h` function of one argument that C defines exactly (correctly
/// rounded or exact): `fabs`, `sqrt`, `floor`, `ceil`, `round`, `trunc` and their `f` forms.
pub fn math_operation(name: &str) -> Option<smt::fp::FpOp> {
    use smt::fp::FpOp;
    // (none of the `double` names ends in `f`)
    Some(match name.strip_suffix('f').unwrap_or(name) {
        "fabs" => FpOp::Abs,
        "sqrt" => FpOp::Sqrt,
        "floor" => FpOp::Floor,
        "ceil" => FpOp::Ceil,
        "round" => FpOp::Round,
        "trunc" => FpOp::Trunc,
        _ => return None,
    })
}

/// Whether `name` is a `math.h` function or classification that [`math_operation`],
/// [`classification`] or [`min_max`] translates exactly under bit-vector semantics.
pub fn is_ieee_function(name: &str) -> bool {
    let x = Term::var("x", Sort::Float(11, 53));
    math_operation(name).is_some() || classification(name, &x).is_some() || min_max(name, &x, &x, &tt()).is_some()
}

/// A classification macro of `math.h` as GCC's builtin (`isnan`, `isinf`, `isfinite`,
/// `isnormal`) of the float `x`: a truth value; `isinf_sign` as -1, 0 or 1.
pub fn classification(name: &str, x: &Term) -> Option<ClassValue> {
    let Sort::Float(e, s) = x.sort else { return None };
    let abs = fp::un(FpOp::Abs, x);
    let inf = fp::from_f64(f64::INFINITY, e, s)?;
    let infinite = fp::bin(FpOp::Eq, &abs, &inf);
    let nan = fp::un(FpOp::IsNaN, x);
    let smallest_normal = fp::from_f64(if (e, s) == (8, 24) { f64::from(f32::MIN_POSITIVE) } else { f64::MIN_POSITIVE }, e, s)?;
    Some(match name.strip_prefix("__builtin_").unwrap_or(name) {
        "isnan" | "isnanf" => ClassValue::Truth(nan),
        "isinf" | "isinff" => ClassValue::Truth(infinite),
        "isfinite" | "finite" | "finitef" => ClassValue::Truth(not(&smt::build::or(&[nan, infinite]))),
        "isnormal" => ClassValue::Truth(and(&[fp::bin(FpOp::Leq, &smallest_normal, &abs), fp::bin(FpOp::Lt, &abs, &inf)])),
        "isinf_sign" => ClassValue::Sign(infinite, fp::bin(FpOp::Lt, x, &zero(e, s))),
        _ => return None,
    })
}

/// The value of a classification: a truth value, or the sign of an infinity (`Sign(infinite,
/// negative)`: -1, 1, or 0 when not infinite).
pub enum ClassValue {
    Truth(Term),
    Sign(Term, Term),
}

/// `fmax`/`fmin` (and their `f` forms) of `x` and `y`: a NaN operand gives the other one; of
/// two zeros of different signs, either (C leaves it open: `pick_x` chooses).
pub fn min_max(name: &str, x: &Term, y: &Term, pick_x: &Term) -> Option<Term> {
    let max = match name.strip_suffix('f').unwrap_or(name) {
        "fmax" => true,
        "fmin" => false,
        _ => return None,
    };
    let (greater, less) = (fp::bin(FpOp::Lt, y, x), fp::bin(FpOp::Lt, x, y));
    let (x_wins, y_wins) = if max { (greater, less) } else { (less, greater) };
    let tie = ite(pick_x, x, y);
    let ordered = ite(&x_wins, x, &ite(&y_wins, y, &tie));
    Some(ite(&fp::un(FpOp::IsNaN, x), y, &ite(&fp::un(FpOp::IsNaN, y), x, &ordered)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DataModel;
    use smt::build::eq;
    use smt::{SatResult, Solver};

    fn sem() -> Sem {
        Sem { dm: DataModel::LP64, bitvector: true }
    }

    /// Whether `f` is satisfiable.
    fn sat(f: &Term) -> bool {
        let mut s = smt::z3backend::Z3Solver::new();
        s.assert(f);
        s.check() == SatResult::Sat
    }

    #[test]
    fn constants_round_to_their_type() {
        assert_eq!(parse_constant("0.1", false, FloatKind::Float), Some(f64::from(0.1f32)));
        assert_eq!(parse_constant("0.1", false, FloatKind::Double), Some(0.1));
        assert_eq!(parse_constant("1e400", false, FloatKind::Double), Some(f64::INFINITY));
        assert_eq!(parse_constant("1.8p3", true, FloatKind::Double), None);
        assert_eq!(sem().float_lit(Some(0.5), &CType::Float(FloatKind::LongDouble)), None);
        assert_eq!(Sem::integer(DataModel::LP64).float_lit(Some(0.5), &CType::Float(FloatKind::Double)), None);
    }

    #[test]
    fn conversions_to_integers_truncate_and_are_defined_in_range() {
        let d = |v: f64| fp::from_f64(v, 11, 53).unwrap();
        let int = CType::Int(IntKind::Int);
        let uint = CType::Int(IntKind::UInt);
        let i = |v: i64| bv::lit(&BigInt::from(v), 32);
        // (int) -2.7 == -2, defined
        let (v, ok) = to_int(&d(-2.7), &int, sem());
        assert!(sat(&and(&[eq(&v, &i(-2)), ok.clone()])) && !sat(&not(&ok)));
        // (int) 2147483647.9 is defined, (int) 2147483648.0 and NaN are not
        assert!(!sat(&not(&to_int(&d(2147483647.9), &int, sem()).1)));
        assert!(!sat(&to_int(&d(2147483648.0), &int, sem()).1));
        assert!(!sat(&to_int(&d(f64::NAN), &int, sem()).1));
        // (unsigned) -0.5 == 0, defined; (unsigned) -1.0 is not
        let (v, ok) = to_int(&d(-0.5), &uint, sem());
        assert!(!sat(&not(&and(&[eq(&v, &i(0)), ok]))));
        assert!(!sat(&to_int(&d(-1.0), &uint, sem()).1));
        // (_Bool) NaN == 1
        let (v, _) = to_int(&d(f64::NAN), &CType::Int(IntKind::Bool), sem());
        assert!(!sat(&not(&eq(&v, &bv::lit(&BigInt::from(1), 1)))));
    }

    #[test]
    fn arithmetic_rounds_and_nan_compares_unequal() {
        let f = |v: f64| fp::from_f64(v, 8, 24).unwrap();
        let x = Term::var("x", Sort::Float(8, 24));
        // 16777216.0f + 1.0f == 16777216.0f (the sum rounds back)
        let sum = arith(ArithOp::Add, &f(16777216.0), &f(1.0)).unwrap();
        assert!(!sat(&not(&compare(CmpOp::Eq, &sum, &f(16777216.0)))));
        // x != x only for NaN
        assert!(sat(&compare(CmpOp::Ne, &x, &x)));
        assert!(!sat(&and(&[compare(CmpOp::Ne, &x, &x), not(&fp::un(FpOp::IsNaN, &x))])));
        // (double) 0.1f != 0.1
        let widened = to_float(&f(0.1), (11, 53));
        assert!(!sat(&compare(CmpOp::Eq, &widened, &fp::from_f64(0.1, 11, 53).unwrap())));
        assert_eq!(arith(ArithOp::Rem, &x, &x), None);
    }
}
