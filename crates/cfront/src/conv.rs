//! The semantics of C's integer conversions and operators as terms, in one of two
//! representations ([`Sem`]): mathematical integers (the default) or bit-vectors of each type's
//! width (`--semantics bitvector`).
//!
//! Over mathematical integers, values of unsigned types are always kept in their type's range
//! (every operation wraps exactly, modulo 2^n); values of signed types are unbounded (overflow
//! is undefined behaviour and reported as a side condition the caller may check). Division and remainder truncate
//! toward zero like C (not SMT-LIB's Euclidean `div`/`mod`). Right shifts are arithmetic
//! (GCC's choice). All functions are pure term builders: on literal arguments they fold to
//! literals, which is how constant expressions are evaluated.
//!
//! As bit-vectors, every value is its two's complement pattern (signedness is in the operators:
//! `bvslt`/`bvult`, `bvsdiv`/`bvudiv`, ...); every operator is exact, bitwise ones included,
//! and signed overflow is a side condition computed in a wider bit-vector. ACSL's `integer`
//! stays a mathematical integer in both.

use crate::types::{CType, DataModel, IntKind};
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};
use smt::build::{
    add, and, bool_lit, bv2nat, bv_bitwise, eq, ge, int, int2bv, int_big, int_div, ite, le, lt, modulo, mul, neg, not, or, sub, tt,
};
use smt::bv::{self, BvOp};
use smt::{Op, Sort, Term};

/// How C integers are represented: the data model, and bit-vectors or mathematical integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sem {
    pub dm: DataModel,
    pub bitvector: bool,
}

impl Sem {
    /// Mathematical integers (constant expressions are always evaluated so).
    pub fn integer(dm: DataModel) -> Sem {
        Sem { dm, bitvector: false }
    }

    /// The sort of a value of type `t` (Int for what is not modelled: opaque floats).
    pub fn sort(self, t: &CType) -> Sort {
        match t.int_kind() {
            Some(k) if self.bitvector => Sort::BitVec(k.bits(self.dm)),
            _ => self.float_sort(t).unwrap_or(Sort::Int),
        }
    }

    /// The integer `v` as a value of type `t` (wrapped into its range).
    pub fn lit(self, v: &BigInt, t: &CType) -> Term {
        match self.sort(t) {
            Sort::BitVec(w) => bv::lit(v, w),
            _ => convert(&int_big(v.clone()), &CType::MathInt, t, self),
        }
    }

    /// The C value (an `int`, 0 or 1) of a formula.
    pub fn bool_to_int(self, phi: &Term) -> Term {
        ite(phi, &self.lit(&BigInt::one(), &CType::INT), &self.lit(&BigInt::zero(), &CType::INT))
    }
}

/// A binary arithmetic or bitwise operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `&`
    And,
    /// `|`
    Or,
    /// `^`
    Xor,
}

impl ArithOp {
    /// The C spelling.
    pub fn symbol(self) -> &'static str {
        match self {
            ArithOp::Add => "+",
            ArithOp::Sub => "-",
            ArithOp::Mul => "*",
            ArithOp::Div => "/",
            ArithOp::Rem => "%",
            ArithOp::Shl => "<<",
            ArithOp::Shr => ">>",
            ArithOp::And => "&",
            ArithOp::Or => "|",
            ArithOp::Xor => "^",
        }
    }
}

/// The result of an operator: its exact value if expressible, and side conditions.
#[derive(Clone, Debug)]
pub struct OpResult {
    /// The exact value; `None` when the operation must be over-approximated.
    pub value: Option<Term>,
    /// Holds iff no signed overflow happens (`true` when not applicable).
    pub no_overflow: Term,
    /// Holds iff the divisor is not zero (`true` when not applicable).
    pub nonzero: Term,
    /// Holds iff a shift amount is in range (`true` when not applicable); its violation is
    /// undefined behaviour.
    pub amount_ok: Term,
}

impl OpResult {
    fn exact(value: Term) -> OpResult {
        OpResult { value: Some(value), no_overflow: tt(), nonzero: tt(), amount_ok: tt() }
    }
}

/// `2^n` as a big integer.
pub fn pow2(n: u32) -> BigInt {
    BigInt::one() << n
}

/// The range of an integer type (`None` for ACSL's `integer` and non-integers).
pub fn bounds(t: &CType, dm: DataModel) -> Option<(BigInt, BigInt)> {
    match t {
        CType::Int(k) => Some(k.range(dm)),
        _ => None,
    }
}

/// `lo <= t <= hi` for the range of kind `k` (always true of a bit-vector of its width).
pub fn in_range(t: &Term, k: IntKind, dm: DataModel) -> Term {
    if matches!(t.sort, Sort::BitVec(_)) {
        return tt();
    }
    let (lo, hi) = k.range(dm);
    and(&[le(&int_big(lo), t), le(t, &int_big(hi))])
}

/// The value as a C integer (0 or 1) of a formula, over mathematical integers.
pub fn bool_to_int(phi: &Term) -> Term {
    Sem::integer(DataModel::LP64).bool_to_int(phi)
}

/// The zero of a value's sort (an SMT array of zeros for an array of integers; `+0.0`).
pub fn zero_of(sort: &Sort) -> Term {
    match sort {
        Sort::BitVec(w) => bv::lit(&BigInt::zero(), *w),
        Sort::Float(e, s) => crate::float::zero(*e, *s),
        Sort::Array(_, elem) => smt::build::const_array(sort, &zero_of(elem)),
        _ => int(0),
    }
}

/// The formula `t != 0` (C's truth of an integer or floating value).
pub fn truth(t: &Term) -> Term {
    if let Sort::Float(..) = t.sort {
        return crate::float::truth(t);
    }
    let value = |x: &Term| x.as_int().cloned().or_else(|| x.as_bv().map(|(v, _)| v.clone()));
    if t.op() == Some(&smt::Op::Ite) && value(&t.args[1]).is_some_and(|x| x.is_one()) && value(&t.args[2]).is_some_and(|x| x.is_zero()) {
        return t.args[0].clone();
    }
    not(&eq(t, &zero_of(&t.sort)))
}

/// Wraps `t` into the range of `k` modulo 2^n (two's complement for signed kinds, as GCC does).
pub fn wrap(t: &Term, k: IntKind, dm: DataModel) -> Term {
    if k == IntKind::Bool {
        return bool_to_int(&truth(t));
    }
    let n = k.bits(dm);
    let m = int_big(pow2(n));
    if k.is_signed() {
        let h = int_big(pow2(n - 1));
        sub(&modulo(&add(&[t.clone(), h.clone()]), &m), &h)
    } else {
        modulo(t, &m)
    }
}

/// Conversion of an integer value of type `from` to the integer type `to` (C11 6.3.1.3, with
/// GCC's modular semantics for signed targets).
pub fn convert(t: &Term, from: &CType, to: &CType, s: Sem) -> Term {
    if s.bitvector {
        return convert_bv(t, from, to, s);
    }
    let dm = s.dm;
    let CType::Int(k) = to else {
        return t.clone();
    };
    if *k == IntKind::Bool {
        if matches!(from, CType::Int(IntKind::Bool)) {
            return t.clone();
        }
        return bool_to_int(&truth(t));
    }
    let (lo, hi) = k.range(dm);
    if let Some((flo, fhi)) = bounds(from, dm) {
        if flo >= lo && fhi <= hi {
            return t.clone();
        }
    }
    if let Some(v) = t.as_int() {
        if *v >= lo && *v <= hi {
            return t.clone();
        }
    }
    wrap(t, *k, dm)
}

/// [`convert`] between bit-vectors (and ACSL's mathematical `integer`).
fn convert_bv(t: &Term, from: &CType, to: &CType, s: Sem) -> Term {
    let signed = from.int_kind().is_some_and(|k| k.is_signed());
    let Sort::BitVec(w) = s.sort(to) else {
        // to `integer`: the value of the pattern
        return if matches!(t.sort, Sort::BitVec(_)) { bv::to_int(t, signed) } else { t.clone() };
    };
    if to.int_kind() == Some(IntKind::Bool) {
        return ite(&truth(t), &bv::lit(&BigInt::one(), w), &bv::lit(&BigInt::zero(), w));
    }
    match t.sort {
        Sort::BitVec(_) => bv::resize(t, w, signed),
        _ => int2bv(w, t),
    }
}

/// `a + b` in unsigned kind `k` for operands in range.
fn wrap_add(s: &Term, k: IntKind, dm: DataModel) -> Term {
    let (_, hi) = k.range(dm);
    let m = int_big(pow2(k.bits(dm)));
    ite(&lt(&int_big(hi), s), &sub(s, &m), s)
}

/// `a - b` in unsigned kind `k` for operands in range.
fn wrap_sub(d: &Term, k: IntKind, dm: DataModel) -> Term {
    let m = int_big(pow2(k.bits(dm)));
    ite(&lt(d, &int(0)), &add(&[d.clone(), m]), d)
}

/// The product `p = a * c` (operand in range, `0 <= c`) wrapped into unsigned kind `k`: a
/// short chain of linear cases for small constant factors, `mod` otherwise.
fn wrap_mul(p: &Term, c: Option<&BigInt>, k: IntKind, dm: DataModel) -> Term {
    let m = pow2(k.bits(dm));
    match c.and_then(|c| c.to_u32()) {
        Some(c) if (1..=8).contains(&c) => {
            // p in [0, c*m): subtract the largest multiple j*m <= p
            let mut r = p.clone();
            for j in 1..c {
                let jm = int_big(&m * j);
                r = ite(&le(&jm, p), &sub(p, &jm), &r);
            }
            r
        }
        _ => modulo(p, &int_big(m)),
    }
}

/// C's `/` (truncation toward zero).
pub fn trunc_div(a: &Term, b: &Term) -> Term {
    ite(&ge(a, &int(0)), &int_div(a, b), &neg(&int_div(&neg(a), b)))
}

/// C's `%` (sign of the dividend).
pub fn trunc_rem(a: &Term, b: &Term) -> Term {
    ite(&ge(a, &int(0)), &modulo(a, b), &neg(&modulo(&neg(a), b)))
}

/// Unary minus in type `t`.
pub fn negate(a: &Term, t: &CType, s: Sem) -> OpResult {
    let dm = s.dm;
    if let (Sort::BitVec(w), Some(k)) = (&a.sort, t.int_kind()) {
        let v = bv::app(BvOp::Neg, std::slice::from_ref(a));
        let min = bv::lit(&(BigInt::one() << (w - 1)), *w);
        let no_overflow = if k.is_signed() { not(&eq(a, &min)) } else { tt() };
        return OpResult { value: Some(v), no_overflow, nonzero: tt(), amount_ok: tt() };
    }
    match t {
        CType::Int(k) if !k.is_signed() => {
            let m = int_big(pow2(k.bits(dm)));
            OpResult::exact(ite(&eq(a, &int(0)), &int(0), &sub(&m, a)))
        }
        CType::Int(k) => {
            let v = neg(a);
            OpResult { no_overflow: in_range(&v, *k, dm), value: Some(v), nonzero: tt(), amount_ok: tt() }
        }
        _ => OpResult::exact(neg(a)),
    }
}

/// `~a` in type `t` (exact: `-a-1`, or `max-a` for unsigned types).
pub fn bit_not(a: &Term, t: &CType, dm: DataModel) -> Term {
    if matches!(a.sort, Sort::BitVec(_)) {
        return bv::app(BvOp::Not, std::slice::from_ref(a));
    }
    match t {
        CType::Int(k) if !k.is_signed() => sub(&int_big(k.range(dm).1), a),
        _ => sub(&neg(a), &int(1)),
    }
}

/// The number of bits of an integer type (`None` for ACSL's `integer`).
fn width(t: &CType, dm: DataModel) -> Option<u32> {
    t.int_kind().map(|k| k.bits(dm))
}

/// Whether `x` (a bit pattern in `0..2^n`) is `2^k - 1`; returns `k`.
fn low_mask(x: &BigInt) -> Option<u32> {
    let y = x + 1u32;
    if x.is_positive() && (&y & (&y - 1u32)).is_zero() {
        Some(y.bits() as u32 - 1)
    } else {
        None
    }
}

/// A binary operator on operands already converted to the operation type `t` (for shifts,
/// `t` is the promoted left operand's type). `a_bool`/`b_bool` tell that an operand is known
/// to be 0 or 1 (the bitwise operators are then exact).
pub fn arith(op: ArithOp, a: &Term, b: &Term, t: &CType, s: Sem, a_bool: bool, b_bool: bool) -> OpResult {
    if let (Sort::BitVec(_), Some(k)) = (&a.sort, t.int_kind()) {
        return arith_bv(op, a, b, k.is_signed());
    }
    let dm = s.dm;
    let kind = t.int_kind();
    let signed = kind.is_none_or(|k| k.is_signed());
    let checked = |v: Term| -> OpResult {
        match kind {
            Some(k) if k.is_signed() => OpResult { no_overflow: in_range(&v, k, dm), value: Some(v), nonzero: tt(), amount_ok: tt() },
            _ => OpResult::exact(v),
        }
    };
    match op {
        ArithOp::Add => {
            let s = add(&[a.clone(), b.clone()]);
            match kind {
                Some(k) if !signed => OpResult::exact(wrap_add(&s, k, dm)),
                _ => checked(s),
            }
        }
        ArithOp::Sub => {
            let d = sub(a, b);
            match kind {
                Some(k) if !signed => OpResult::exact(wrap_sub(&d, k, dm)),
                _ => checked(d),
            }
        }
        ArithOp::Mul => {
            let p = mul(&[a.clone(), b.clone()]);
            match kind {
                Some(k) if !signed => {
                    let c = a.as_int().or(b.as_int());
                    OpResult::exact(if p.as_int().is_some() { convert(&p, &CType::MathInt, t, s) } else { wrap_mul(&p, c, k, dm) })
                }
                _ => checked(p),
            }
        }
        ArithOp::Div | ArithOp::Rem => {
            let nonzero = not(&eq(b, &int(0)));
            let value = if signed {
                if op == ArithOp::Div {
                    trunc_div(a, b)
                } else {
                    trunc_rem(a, b)
                }
            } else if op == ArithOp::Div {
                int_div(a, b)
            } else {
                modulo(a, b)
            };
            let no_overflow = match kind {
                Some(k) if signed && op == ArithOp::Div => {
                    let (lo, _) = k.range(dm);
                    not(&and(&[eq(a, &int_big(lo)), eq(b, &int(-1))]))
                }
                _ => tt(),
            };
            // a literal division by zero does not fold to a literal
            let value = if b.as_int().is_some_and(|x| x.is_zero()) { None } else { Some(value) };
            OpResult { value, no_overflow, nonzero, amount_ok: tt() }
        }
        ArithOp::Shl | ArithOp::Shr => {
            // the shift amount must lie in [0, width); a signed left operand of `<<` must be
            // non-negative and the result representable (C11 6.5.7)
            let w = width(t, dm);
            let amount_ok = match w {
                Some(w) => and(&[le(&int(0), b), lt(b, &int(w as i64))]),
                None => le(&int(0), b),
            };
            let shift_by = |c: u32| -> Term {
                let f = int_big(pow2(c));
                if op == ArithOp::Shr {
                    return int_div(a, &f);
                }
                let p = mul(&[a.clone(), f.clone()]);
                match kind {
                    Some(k) if !signed => {
                        if p.as_int().is_some() {
                            convert(&p, &CType::MathInt, t, s)
                        } else {
                            wrap_mul(&p, f.as_int(), k, dm)
                        }
                    }
                    _ => p,
                }
            };
            let value = match (b.as_int().and_then(|c| c.to_u32()), w) {
                (Some(c), Some(w)) if c < w => Some(shift_by(c)),
                (Some(c), None) if c <= 1024 => Some(shift_by(c)),
                (Some(_), _) => None,
                // a variable amount: one case per possible amount
                (None, Some(w)) if w <= 64 && !b.is_literal() => {
                    let mut r = shift_by(w - 1);
                    for c in (0..w - 1).rev() {
                        r = ite(&eq(b, &int(c as i64)), &shift_by(c), &r);
                    }
                    Some(r)
                }
                _ => None,
            };
            let no_overflow = match (op, kind) {
                (ArithOp::Shl, Some(k)) if k.is_signed() => {
                    let in_range_value = value.as_ref().map_or(tt(), |v| in_range(v, k, dm));
                    and(&[amount_ok.clone(), le(&int(0), a), in_range_value])
                }
                (ArithOp::Shr, Some(k)) if k.is_signed() => amount_ok.clone(),
                _ => tt(),
            };
            OpResult { value, no_overflow, nonzero: tt(), amount_ok }
        }
        ArithOp::And | ArithOp::Or | ArithOp::Xor => {
            OpResult { value: bitwise(op, a, b, t, dm, a_bool, b_bool), no_overflow: tt(), nonzero: tt(), amount_ok: tt() }
        }
    }
}

/// [`arith`] on bit-vectors of one width (a shift amount may have another): every value is
/// exact; signed overflow is checked in a wider bit-vector.
fn arith_bv(op: ArithOp, a: &Term, b: &Term, signed: bool) -> OpResult {
    let w = bv::width(a);
    let lit = |v: BigInt, w: u32| bv::lit(&v, w);
    // the exact result, computed `extra` bits wider, fits the type
    let fits = |f: BvOp, extra: u32| -> Term {
        let (x, y) = (bv::resize(a, w + extra, signed), bv::resize(b, w + extra, signed));
        let wide = bv::bin(f, &x, &y);
        eq(&bv::resize(&bv::resize(&wide, w, signed), w + extra, signed), &wide)
    };
    let exact = |v: Term, no_overflow: Term| OpResult { value: Some(v), no_overflow, nonzero: tt(), amount_ok: tt() };
    let checked = |f: BvOp, extra: u32| exact(bv::bin(f, a, b), if signed { fits(f, extra) } else { tt() });
    match op {
        ArithOp::Add => checked(BvOp::Add, 1),
        ArithOp::Sub => checked(BvOp::Sub, 1),
        ArithOp::Mul => checked(BvOp::Mul, w),
        ArithOp::Div | ArithOp::Rem => {
            let f = match (op, signed) {
                (ArithOp::Div, true) => BvOp::SDiv,
                (ArithOp::Div, false) => BvOp::UDiv,
                (_, true) => BvOp::SRem,
                _ => BvOp::URem,
            };
            let min_by_minus_one = and(&[eq(a, &lit(BigInt::one() << (w - 1), w)), eq(b, &lit(BigInt::from(-1), w))]);
            let no_overflow = if signed && op == ArithOp::Div { not(&min_by_minus_one) } else { tt() };
            OpResult { value: Some(bv::bin(f, a, b)), no_overflow, nonzero: not(&eq(b, &zero_of(&b.sort))), amount_ok: tt() }
        }
        ArithOp::Shl | ArithOp::Shr => {
            // the amount has its own (promoted) type; negative amounts are huge as unsigned
            let amount_ok = bv::bin(BvOp::Ult, b, &lit(BigInt::from(w), bv::width(b)));
            let k = bv::resize(b, w, false);
            let value = match (op, signed) {
                (ArithOp::Shl, _) => bv::bin(BvOp::Shl, a, &k),
                (_, true) => bv::bin(BvOp::AShr, a, &k),
                _ => bv::bin(BvOp::LShr, a, &k),
            };
            let no_overflow = match op {
                ArithOp::Shl if signed => {
                    let wide = bv::bin(BvOp::Shl, &bv::resize(a, 2 * w, true), &bv::resize(&k, 2 * w, false));
                    let representable = eq(&bv::resize(&value, 2 * w, true), &wide);
                    and(&[amount_ok.clone(), bv::bin(BvOp::Sle, &zero_of(&a.sort), a), representable])
                }
                _ if signed => amount_ok.clone(),
                _ => tt(),
            };
            OpResult { value: Some(value), no_overflow, nonzero: tt(), amount_ok }
        }
        ArithOp::And => exact(bv_bitwise(Op::BvAnd, a, b), tt()),
        ArithOp::Or => exact(bv_bitwise(Op::BvOr, a, b), tt()),
        ArithOp::Xor => exact(bv_bitwise(Op::BvXor, a, b), tt()),
    }
}

/// Exact bitwise operators where cheap: literals, masks `2^k-1` and their complements, neutral
/// and absorbing constants, operands known to be 0 or 1.
fn bitwise(op: ArithOp, a: &Term, b: &Term, t: &CType, dm: DataModel, a_bool: bool, b_bool: bool) -> Option<Term> {
    if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
        // two's complement on unbounded integers; in-range operands give in-range results
        let r = match op {
            ArithOp::And => x & y,
            ArithOp::Or => x | y,
            _ => x ^ y,
        };
        return Some(int_big(r));
    }
    if a_bool && b_bool {
        let (p, q) = (truth(a), truth(b));
        return Some(bool_to_int(&match op {
            ArithOp::And => and(&[p, q]),
            ArithOp::Or => or(&[p, q]),
            _ => not(&eq(&p, &q)),
        }));
    }
    let (c, x) = match (a.as_int(), b.as_int()) {
        (Some(c), None) => (c.clone(), b),
        (None, Some(c)) => (c.clone(), a),
        _ => return None,
    };
    // the bit pattern of the constant and the all-ones pattern
    let (pattern, ones) = match width(t, dm) {
        Some(n) => {
            let m = pow2(n);
            (((&c % &m) + &m) % &m, m - 1u32)
        }
        None if c == BigInt::from(-1) => (BigInt::from(-1), BigInt::from(-1)),
        None if !c.is_negative() => (c.clone(), BigInt::from(-1)),
        None => return None,
    };
    let is_zero = pattern.is_zero();
    let is_ones = pattern == ones;
    match op {
        ArithOp::And if is_zero => Some(int(0)),
        ArithOp::And if is_ones => Some(x.clone()),
        ArithOp::And => {
            if let Some(k) = low_mask(&pattern) {
                return Some(modulo(x, &int_big(pow2(k))));
            }
            if !ones.is_negative() {
                if let Some(k) = low_mask(&(&ones - &pattern)) {
                    return Some(sub(x, &modulo(x, &int_big(pow2(k)))));
                }
            }
            None
        }
        ArithOp::Or if is_zero => Some(x.clone()),
        ArithOp::Or if is_ones => Some(int_big(c)),
        ArithOp::Xor if is_zero => Some(x.clone()),
        ArithOp::Xor if is_ones => Some(bit_not(x, t, dm)),
        _ => None,
    }
}

/// The exact value of a bitwise operator `&`, `|`, `^` on operands of an integer type, as
/// bit-vector operations on their two's complement patterns (`None` for other operators and
/// types without a width). Too costly for proofs, it serves to re-check error traces.
pub fn exact_bitwise(op: ArithOp, a: &Term, b: &Term, t: &CType, dm: DataModel) -> Option<Term> {
    let bv_op = match op {
        ArithOp::And => Op::BvAnd,
        ArithOp::Or => Op::BvOr,
        ArithOp::Xor => Op::BvXor,
        _ => return None,
    };
    let n = width(t, dm)?;
    let pattern = bv2nat(&bv_bitwise(bv_op, &int2bv(n, a), &int2bv(n, b)));
    if !t.int_kind().is_some_and(|k| k.is_signed()) {
        return Some(pattern);
    }
    let negative = ge(&pattern, &int_big(pow2(n - 1)));
    Some(ite(&negative, &sub(&pattern, &int_big(pow2(n))), &pattern))
}

/// Sound constraints on the result `r` of an operator that is over-approximated (operands in
/// the range of `t`).
pub fn approx_constraint(op: ArithOp, a: &Term, b: &Term, r: &Term, t: &CType, dm: DataModel) -> Term {
    let zero = int(0);
    let mut c = vec![];
    if let Some(k) = t.int_kind() {
        c.push(in_range(r, k, dm));
    }
    let nonneg = |x: &Term| ge(x, &zero);
    let imp = |p: Term, q: Term| or(&[not(&p), q]);
    match op {
        ArithOp::And => {
            c.push(imp(or(&[nonneg(a), nonneg(b)]), nonneg(r)));
            c.push(imp(nonneg(a), le(r, a)));
            c.push(imp(nonneg(b), le(r, b)));
        }
        ArithOp::Or => {
            c.push(imp(and(&[nonneg(a), nonneg(b)]), and(&[ge(r, a), ge(r, b)])));
            c.push(imp(or(&[lt(a, &zero), lt(b, &zero)]), lt(r, &zero)));
        }
        ArithOp::Xor => {
            c.push(imp(and(&[nonneg(a), nonneg(b)]), nonneg(r)));
        }
        ArithOp::Shr => {
            // arithmetic shift by a non-negative amount moves toward zero (or -1)
            c.push(imp(and(&[nonneg(a), nonneg(b)]), and(&[nonneg(r), le(r, a)])));
            c.push(imp(and(&[lt(a, &zero), nonneg(b)]), and(&[le(a, r), lt(r, &zero)])));
        }
        _ => {}
    }
    and(&c)
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

/// The formula of a comparison of two values of the same (integer) type; `signed` tells how
/// bit-vectors compare.
pub fn compare(op: CmpOp, a: &Term, b: &Term, signed: bool) -> Term {
    if let Sort::Float(..) = a.sort {
        return crate::float::compare(op, a, b);
    }
    if matches!(a.sort, Sort::BitVec(_)) {
        let (lt, le) = if signed { (BvOp::Slt, BvOp::Sle) } else { (BvOp::Ult, BvOp::Ule) };
        return match op {
            CmpOp::Lt => bv::bin(lt, a, b),
            CmpOp::Le => bv::bin(le, a, b),
            CmpOp::Gt => bv::bin(lt, b, a),
            CmpOp::Ge => bv::bin(le, b, a),
            CmpOp::Eq => eq(a, b),
            CmpOp::Ne => not(&eq(a, b)),
        };
    }
    match op {
        CmpOp::Lt => lt(a, b),
        CmpOp::Le => le(a, b),
        CmpOp::Gt => lt(b, a),
        CmpOp::Ge => le(b, a),
        CmpOp::Eq => eq(a, b),
        CmpOp::Ne => not(&eq(a, b)),
    }
}

/// The literal `b` as a formula.
pub fn lit(b: bool) -> Term {
    bool_lit(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LP64: Sem = Sem { dm: DataModel::LP64, bitvector: false };

    fn ev(op: ArithOp, a: i64, b: i64, k: IntKind) -> Option<BigInt> {
        arith(op, &int(a), &int(b), &CType::Int(k), LP64, false, false).value?.as_int().cloned()
    }

    #[test]
    fn c_division_truncates() {
        assert_eq!(ev(ArithOp::Div, -7, 2, IntKind::Int), Some(BigInt::from(-3)));
        assert_eq!(ev(ArithOp::Rem, -7, 2, IntKind::Int), Some(BigInt::from(-1)));
        assert_eq!(ev(ArithOp::Div, 7, -2, IntKind::Int), Some(BigInt::from(-3)));
        assert_eq!(ev(ArithOp::Rem, 7, -2, IntKind::Int), Some(BigInt::from(1)));
        assert_eq!(ev(ArithOp::Div, -7, -2, IntKind::Int), Some(BigInt::from(3)));
        assert_eq!(ev(ArithOp::Rem, -7, -2, IntKind::Int), Some(BigInt::from(-1)));
        assert_eq!(ev(ArithOp::Div, 1, 0, IntKind::Int), None);
    }

    #[test]
    fn unsigned_wraps() {
        assert_eq!(ev(ArithOp::Add, 4294967295, 1, IntKind::UInt), Some(BigInt::from(0)));
        assert_eq!(ev(ArithOp::Sub, 0, 1, IntKind::UInt), Some(BigInt::from(4294967295u64)));
        assert_eq!(ev(ArithOp::Mul, 65536, 65536, IntKind::UInt), Some(BigInt::from(0)));
        assert_eq!(ev(ArithOp::Shl, 1, 31, IntKind::UInt), Some(BigInt::from(2147483648u64)));
        let t = convert(&int(-1), &CType::INT, &CType::Int(IntKind::UChar), LP64);
        assert_eq!(t.as_int(), Some(&BigInt::from(255)));
        let t = convert(&int(200), &CType::INT, &CType::Int(IntKind::Char), LP64);
        assert_eq!(t.as_int(), Some(&BigInt::from(-56)));
    }

    #[test]
    fn bit_vectors_are_exact_and_check_signed_overflow() {
        let bv = Sem { dm: DataModel::LP64, bitvector: true };
        let v = |x: i64, t: &CType| bv.lit(&BigInt::from(x), t);
        let (int_t, uint_t, uchar) = (CType::INT, CType::Int(IntKind::UInt), CType::Int(IntKind::UChar));
        let r = arith(ArithOp::Add, &v(i32::MAX as i64, &int_t), &v(1, &int_t), &int_t, bv, false, false);
        assert_eq!((r.value, r.no_overflow), (Some(v(i32::MIN as i64, &int_t)), smt::build::ff()));
        let r = arith(ArithOp::Add, &v(-1, &uint_t), &v(1, &uint_t), &uint_t, bv, false, false);
        assert_eq!((r.value, r.no_overflow), (Some(v(0, &uint_t)), tt()));
        let r = arith(ArithOp::Div, &v(i32::MIN as i64, &int_t), &v(-1, &int_t), &int_t, bv, false, false);
        assert_eq!(r.no_overflow, smt::build::ff());
        let r = arith(ArithOp::Shl, &v(-1, &int_t), &v(1, &int_t), &int_t, bv, false, false);
        assert_eq!(r.no_overflow, smt::build::ff(), "a negative left operand of << is undefined");
        let r = arith(ArithOp::Shr, &v(-8, &int_t), &v(40, &int_t), &int_t, bv, false, false);
        assert_eq!(r.amount_ok, smt::build::ff());
        let x = Term::var("x", Sort::BitVec(32));
        let r = arith(ArithOp::Or, &x, &v(6, &int_t), &int_t, bv, false, false);
        assert!(r.value.is_some(), "bitwise operators are exact on bit-vectors");
        assert_eq!(convert(&v(-56, &CType::Int(IntKind::Char)), &CType::Int(IntKind::Char), &uchar, bv), v(200, &uchar));
        assert_eq!(convert(&v(200, &uchar), &uchar, &CType::MathInt, bv), int(200));
        assert_eq!(compare(CmpOp::Lt, &v(-1, &int_t), &v(0, &int_t), false), smt::build::ff());
    }

    #[test]
    fn bitwise_constants() {
        assert_eq!(ev(ArithOp::And, -1, 255, IntKind::Int), Some(BigInt::from(255)));
        assert_eq!(ev(ArithOp::Xor, 5, 3, IntKind::Int), Some(BigInt::from(6)));
        assert_eq!(ev(ArithOp::Shr, -7, 1, IntKind::Int), Some(BigInt::from(-4)));
        let x = Term::var("x", smt::Sort::Int);
        let r = arith(ArithOp::And, &x, &int(255), &CType::INT, LP64, false, false);
        assert_eq!(r.value, Some(modulo(&x, &int(256))));
        let r = arith(ArithOp::And, &x, &int(-1), &CType::INT, LP64, false, false);
        assert_eq!(r.value, Some(x.clone()));
        let r = arith(ArithOp::And, &x, &int(-2), &CType::INT, LP64, false, false);
        assert_eq!(r.value, Some(sub(&x, &modulo(&x, &int(2)))));
        let r = arith(ArithOp::Or, &x, &int(6), &CType::INT, LP64, false, false);
        assert_eq!(r.value, None);
    }
}
