//! Term builders. Each performs cheap local simplification (flattening, constant folding,
//! neutral and absorbing elements), so that terms stay small without a separate pass.

use crate::sort::Sort;
use crate::term::{FuncDecl, Kind, Op, Quantifier, Term};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::collections::BTreeSet;
use std::sync::Arc;

/// The literal `true`.
pub fn tt() -> Term {
    Term::mk(Kind::Bool(true), vec![], Sort::Bool)
}

/// The literal `false`.
pub fn ff() -> Term {
    Term::mk(Kind::Bool(false), vec![], Sort::Bool)
}

/// A Boolean literal.
pub fn bool_lit(b: bool) -> Term {
    if b {
        tt()
    } else {
        ff()
    }
}

/// An integer literal.
pub fn int(i: i64) -> Term {
    int_big(BigInt::from(i))
}

/// An integer literal from a big integer.
pub fn int_big(i: BigInt) -> Term {
    Term::mk(Kind::Int(i), vec![], Sort::Int)
}

/// A real literal.
pub fn real(r: BigRational) -> Term {
    Term::mk(Kind::Real(r), vec![], Sort::Real)
}

/// A numeric literal of the given arithmetic sort.
pub fn num(r: BigRational, sort: &Sort) -> Term {
    if *sort == Sort::Int && r.is_integer() {
        int_big(r.to_integer())
    } else {
        real(r)
    }
}

fn app(op: Op, args: Vec<Term>, sort: Sort) -> Term {
    Term::mk(Kind::App(op), args, sort)
}

/// Negation.
pub fn not(a: &Term) -> Term {
    match &a.kind {
        Kind::Bool(b) => bool_lit(!b),
        Kind::App(Op::Not) => a.args[0].clone(),
        _ => app(Op::Not, vec![a.clone()], Sort::Bool),
    }
}

fn junction(args: &[Term], is_and: bool) -> Term {
    let op = if is_and { Op::And } else { Op::Or };
    let mut flat: Vec<Term> = Vec::with_capacity(args.len());
    let mut stack: Vec<Term> = args.iter().rev().cloned().collect();
    while let Some(t) = stack.pop() {
        match &t.kind {
            Kind::Bool(b) if *b == is_and => {}
            Kind::Bool(_) => return bool_lit(!is_and),
            Kind::App(o) if *o == op => stack.extend(t.args.iter().rev().cloned()),
            _ => {
                if !flat.contains(&t) {
                    flat.push(t)
                }
            }
        }
    }
    let set: BTreeSet<&Term> = flat.iter().collect();
    if flat.iter().any(|t| t.op() == Some(&Op::Not) && set.contains(&t.args[0])) {
        return bool_lit(!is_and);
    }
    match flat.len() {
        0 => bool_lit(is_and),
        1 => flat.pop().unwrap_or_else(tt),
        _ => app(op, flat, Sort::Bool),
    }
}

/// Conjunction (flattened, `true` dropped, `false` absorbing, duplicates removed).
pub fn and(args: &[Term]) -> Term {
    junction(args, true)
}

/// Disjunction (flattened, `false` dropped, `true` absorbing, duplicates removed).
pub fn or(args: &[Term]) -> Term {
    junction(args, false)
}

/// Binary conjunction.
pub fn and2(a: &Term, b: &Term) -> Term {
    and(&[a.clone(), b.clone()])
}

/// Binary disjunction.
pub fn or2(a: &Term, b: &Term) -> Term {
    or(&[a.clone(), b.clone()])
}

/// Implication, as `¬a ∨ b`.
pub fn implies(a: &Term, b: &Term) -> Term {
    or(&[not(a), b.clone()])
}

/// If-then-else.
pub fn ite(c: &Term, a: &Term, b: &Term) -> Term {
    if c.is_true() || a == b {
        return a.clone();
    }
    if c.is_false() {
        return b.clone();
    }
    if a.sort == Sort::Bool {
        if a.is_true() && b.is_false() {
            return c.clone();
        }
        if a.is_false() && b.is_true() {
            return not(c);
        }
    }
    app(Op::Ite, vec![c.clone(), a.clone(), b.clone()], a.sort.clone())
}

/// Equality (for Bool operands: equivalence).
pub fn eq(a: &Term, b: &Term) -> Term {
    if a == b {
        return tt();
    }
    // a = a[i := v] says only that a[i] = v
    for (x, y) in [(a, b), (b, a)] {
        if y.op() == Some(&Op::Store) && y.args[0] == *x {
            return eq(&select(x, &y.args[1]), &y.args[2]);
        }
    }
    if a.is_literal() && b.is_literal() {
        return bool_lit(literal_eq(a, b));
    }
    if a.sort == Sort::Bool {
        if a.is_true() {
            return b.clone();
        }
        if b.is_true() {
            return a.clone();
        }
        if a.is_false() {
            return not(b);
        }
        if b.is_false() {
            return not(a);
        }
    }
    let (a, b) = if a.id() <= b.id() { (a, b) } else { (b, a) };
    app(Op::Eq, vec![a.clone(), b.clone()], Sort::Bool)
}

fn literal_eq(a: &Term, b: &Term) -> bool {
    match (a.as_rational(), b.as_rational()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// Pairwise distinctness.
pub fn distinct(args: &[Term]) -> Term {
    match args.len() {
        0 | 1 => tt(),
        2 => not(&eq(&args[0], &args[1])),
        _ => app(Op::Distinct, args.to_vec(), Sort::Bool),
    }
}

fn cmp_lits(a: &Term, b: &Term) -> Option<std::cmp::Ordering> {
    Some(a.as_rational()?.cmp(&b.as_rational()?))
}

/// `a <= b`.
pub fn le(a: &Term, b: &Term) -> Term {
    if a == b {
        return tt();
    }
    match cmp_lits(a, b) {
        Some(o) => bool_lit(o != std::cmp::Ordering::Greater),
        None => app(Op::Le, vec![a.clone(), b.clone()], Sort::Bool),
    }
}

/// `a < b`.
pub fn lt(a: &Term, b: &Term) -> Term {
    if a == b {
        return ff();
    }
    match cmp_lits(a, b) {
        Some(o) => bool_lit(o == std::cmp::Ordering::Less),
        None => app(Op::Lt, vec![a.clone(), b.clone()], Sort::Bool),
    }
}

/// `a >= b`, as `b <= a`.
pub fn ge(a: &Term, b: &Term) -> Term {
    le(b, a)
}

/// `a > b`, as `b < a`.
pub fn gt(a: &Term, b: &Term) -> Term {
    lt(b, a)
}

/// Sum (flattened, literals folded).
pub fn add(args: &[Term]) -> Term {
    let sort = args.first().map(|a| a.sort.clone()).unwrap_or(Sort::Int);
    let mut constant = BigRational::zero();
    let mut rest = Vec::new();
    let mut stack: Vec<Term> = args.iter().rev().cloned().collect();
    while let Some(t) = stack.pop() {
        if let Some(r) = t.as_rational() {
            constant += r;
        } else if t.op() == Some(&Op::Add) {
            stack.extend(t.args.iter().rev().cloned());
        } else {
            rest.push(t);
        }
    }
    if !constant.is_zero() || rest.is_empty() {
        rest.push(num(constant, &sort));
    }
    if rest.len() == 1 {
        return rest.pop().unwrap_or_else(|| int(0));
    }
    app(Op::Add, rest, sort)
}

/// `a - b`.
pub fn sub(a: &Term, b: &Term) -> Term {
    if let (Some(x), Some(y)) = (a.as_rational(), b.as_rational()) {
        return num(x - y, &a.sort);
    }
    if b.as_rational().is_some_and(|r| r.is_zero()) {
        return a.clone();
    }
    if a == b {
        return num(BigRational::zero(), &a.sort);
    }
    app(Op::Sub, vec![a.clone(), b.clone()], a.sort.clone())
}

/// `-a`.
pub fn neg(a: &Term) -> Term {
    if let Some(x) = a.as_rational() {
        return num(-x, &a.sort);
    }
    if a.op() == Some(&Op::Neg) {
        return a.args[0].clone();
    }
    app(Op::Neg, vec![a.clone()], a.sort.clone())
}

/// Product (literals folded).
pub fn mul(args: &[Term]) -> Term {
    let sort = args.first().map(|a| a.sort.clone()).unwrap_or(Sort::Int);
    let mut constant = BigRational::one();
    let mut rest = Vec::new();
    for t in args {
        match t.as_rational() {
            Some(r) => constant *= r,
            None => rest.push(t.clone()),
        }
    }
    if constant.is_zero() {
        return num(constant, &sort);
    }
    if rest.is_empty() {
        return num(constant, &sort);
    }
    if !constant.is_one() {
        rest.insert(0, num(constant, &sort));
    }
    if rest.len() == 1 {
        return rest.pop().unwrap_or_else(|| int(0));
    }
    app(Op::Mul, rest, sort)
}

/// Integer division (SMT-LIB `div`).
pub fn int_div(a: &Term, b: &Term) -> Term {
    if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
        if !y.is_zero() {
            return int_big(euclid_div(x, y));
        }
    }
    if b.as_int().is_some_and(|y| y.is_one()) {
        return a.clone();
    }
    app(Op::IntDiv, vec![a.clone(), b.clone()], Sort::Int)
}

/// Integer remainder (SMT-LIB `mod`).
pub fn modulo(a: &Term, b: &Term) -> Term {
    if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
        if !y.is_zero() {
            return int_big(x - y * euclid_div(x, y));
        }
    }
    if b.as_int().is_some_and(|y| y.abs().is_one()) {
        return int(0);
    }
    if let Some(n) = b.as_int().filter(|n| n.is_positive()) {
        // a wrap-around inside (`(x + c) mod 2^32 - c`, of a conversion) is the solver's work
        // for nothing: modulo `n` it is `x`
        // (the spine is only rebuilt where something drops: `modulo` is on every rebuild)
        let inner = if drops_mod(a, n) { congruent_mod(a, n) } else { a.clone() };
        if let Some(x) = inner.as_int() {
            return int_big(x.mod_floor(n));
        }
        return app(Op::Mod, vec![inner, b.clone()], Sort::Int);
    }
    app(Op::Mod, vec![a.clone(), b.clone()], Sort::Int)
}

/// A term congruent to the integer term `t` modulo `n > 0`: a `mod m` inside sums,
/// differences and products with `n | m` dropped, constant summands reduced modulo `n`.
fn congruent_mod(t: &Term, n: &BigInt) -> Term {
    let divides = |m: &Term| m.as_int().is_some_and(|m| m.is_positive() && (m % n).is_zero());
    match t.op() {
        Some(Op::Mod) if divides(&t.args[1]) => congruent_mod(&t.args[0], n),
        Some(Op::Add) => add(&t.args.iter().map(|a| congruent_mod(a, n)).collect::<Vec<_>>()),
        Some(Op::Sub) => sub(&congruent_mod(&t.args[0], n), &congruent_mod(&t.args[1], n)),
        Some(Op::Mul) => mul(&t.args.iter().map(|a| congruent_mod(a, n)).collect::<Vec<_>>()),
        _ => match t.as_int() {
            Some(c) if c.is_negative() || c >= n => int_big(c.mod_floor(n)),
            _ => t.clone(),
        },
    }
}

/// Whether [`congruent_mod`] changes `t`.
fn drops_mod(t: &Term, n: &BigInt) -> bool {
    match t.op() {
        Some(Op::Mod) => t.args[1].as_int().is_some_and(|m| m.is_positive() && (m % n).is_zero()),
        Some(Op::Add | Op::Sub | Op::Mul) => t.args.iter().any(|a| drops_mod(a, n)),
        _ => t.as_int().is_some_and(|c| c.is_negative() || c >= n),
    }
}

/// `t mod 2^width` as a bit-vector of that width.
pub fn int2bv(width: u32, t: &Term) -> Term {
    // `(x mod c)` with `2^width | c` is `x` modulo `2^width` (and Z3 4.8.12's incremental
    // solver gives up on `mod` directly under `int2bv`)
    let m = BigInt::one() << width;
    if let Some(v) = t.as_int() {
        if v.is_negative() || *v >= m {
            return int2bv(width, &int_big(v.mod_floor(&m)));
        }
    }
    if t.op() == Some(&Op::Mod) && t.args[1].as_int().is_some_and(|c| c.is_positive() && (c % &m).is_zero()) {
        return int2bv(width, &t.args[0]);
    }
    app(Op::Int2Bv(width), vec![t.clone()], Sort::BitVec(width))
}

/// The unsigned integer value of a bit-vector.
pub fn bv2nat(t: &Term) -> Term {
    app(Op::Bv2Nat, vec![t.clone()], Sort::Int)
}

/// A bitwise operator (`Op::BvAnd`, `Op::BvOr`, `Op::BvXor`) on bit-vectors of one width.
pub fn bv_bitwise(op: Op, a: &Term, b: &Term) -> Term {
    debug_assert!(matches!(op, Op::BvAnd | Op::BvOr | Op::BvXor) && a.sort == b.sort);
    app(op, vec![a.clone(), b.clone()], a.sort.clone())
}

/// Euclidean division as SMT-LIB defines `div`: `x = y*q + r` with `0 <= r < |y|`.
pub fn euclid_div(x: &BigInt, y: &BigInt) -> BigInt {
    let (q, r) = x.div_mod_floor(y);
    if r.is_negative() || (y.is_negative() && !r.is_zero()) {
        // div_mod_floor gives r with the sign of y; shift to a non-negative remainder
        if y.is_negative() {
            q + 1
        } else {
            q - 1
        }
    } else {
        q
    }
}

/// Real division.
pub fn real_div(a: &Term, b: &Term) -> Term {
    if let (Some(x), Some(y)) = (a.as_rational(), b.as_rational()) {
        if !y.is_zero() {
            return real(x / y);
        }
    }
    app(Op::RealDiv, vec![a.clone(), b.clone()], Sort::Real)
}

/// Int to Real conversion.
pub fn to_real(a: &Term) -> Term {
    if let Some(x) = a.as_int() {
        return real(BigRational::from_integer(x.clone()));
    }
    if a.sort == Sort::Real {
        return a.clone();
    }
    app(Op::ToReal, vec![a.clone()], Sort::Real)
}

/// Real to Int conversion (floor).
pub fn to_int(a: &Term) -> Term {
    if let Kind::Real(r) = &a.kind {
        return int_big(r.floor().to_integer());
    }
    if a.sort == Sort::Int {
        return a.clone();
    }
    app(Op::ToInt, vec![a.clone()], Sort::Int)
}

/// Array read.
pub fn select(a: &Term, i: &Term) -> Term {
    let elem = match &a.sort {
        Sort::Array(_, e) => (**e).clone(),
        s => s.clone(),
    };
    match a.op() {
        Some(Op::Store) if a.args[1] == *i => return a.args[2].clone(),
        Some(Op::Store) if a.args[1].is_literal() && i.is_literal() => return select(&a.args[0], i),
        Some(Op::ConstArray(_)) => return a.args[0].clone(),
        _ => {}
    }
    app(Op::Select, vec![a.clone(), i.clone()], elem)
}

/// Array write.
pub fn store(a: &Term, i: &Term, v: &Term) -> Term {
    if a.op() == Some(&Op::Store) && a.args[1] == *i {
        return store(&a.args[0], i, v);
    }
    app(Op::Store, vec![a.clone(), i.clone(), v.clone()], a.sort.clone())
}

/// The constant array of sort `sort` (an array sort) whose every element is `v`.
pub fn const_array(sort: &Sort, v: &Term) -> Term {
    app(Op::ConstArray(sort.clone()), vec![v.clone()], sort.clone())
}

/// Application of an uninterpreted function.
pub fn apply(f: &Arc<FuncDecl>, args: &[Term]) -> Term {
    app(Op::Apply(f.clone()), args.to_vec(), f.range.clone())
}

/// A quantified formula. Variables that do not occur free in `body` are dropped.
pub fn quant(q: Quantifier, vars: &[Term], body: &Term) -> Term {
    let free = crate::subst::free_vars(body);
    let vars: Vec<Term> = vars.iter().filter(|v| free.contains(*v)).cloned().collect();
    if vars.is_empty() {
        return body.clone();
    }
    Term::mk(Kind::Quant(q, vars), vec![body.clone()], Sort::Bool)
}

/// `∀ vars. body`.
pub fn forall(vars: &[Term], body: &Term) -> Term {
    quant(Quantifier::Forall, vars, body)
}

/// `∃ vars. body`.
pub fn exists(vars: &[Term], body: &Term) -> Term {
    quant(Quantifier::Exists, vars, body)
}

/// Rebuilds a node of the same kind as `t` over new arguments, simplifying on the way.
pub fn rebuild(t: &Term, args: Vec<Term>) -> Term {
    if args.iter().zip(t.args.iter()).all(|(a, b)| a == b) && args.len() == t.args.len() {
        return t.clone();
    }
    match &t.kind {
        Kind::Quant(q, vars) => quant(*q, vars, &args[0]),
        Kind::App(op) => apply_op(op, &args, &t.sort),
        _ => t.clone(),
    }
}

/// Builds `op(args)` with the simplifying builder for `op`.
pub fn apply_op(op: &Op, args: &[Term], sort: &Sort) -> Term {
    match op {
        Op::Not => not(&args[0]),
        Op::And => and(args),
        Op::Or => or(args),
        Op::Implies => implies(&args[0], &args[1]),
        Op::Ite => ite(&args[0], &args[1], &args[2]),
        Op::Eq if args.len() == 2 => eq(&args[0], &args[1]),
        Op::Distinct => distinct(args),
        Op::Le if args.len() == 2 => le(&args[0], &args[1]),
        Op::Lt if args.len() == 2 => lt(&args[0], &args[1]),
        Op::Add => add(args),
        Op::Sub if args.len() == 2 => sub(&args[0], &args[1]),
        Op::Neg => neg(&args[0]),
        Op::Mul => mul(args),
        Op::IntDiv => int_div(&args[0], &args[1]),
        Op::Mod => modulo(&args[0], &args[1]),
        Op::RealDiv => real_div(&args[0], &args[1]),
        Op::ToReal => to_real(&args[0]),
        Op::ToInt => to_int(&args[0]),
        Op::Select => select(&args[0], &args[1]),
        Op::Store => store(&args[0], &args[1], &args[2]),
        Op::Bv(op) => crate::bv::app(*op, args),
        Op::Fp(op) => crate::fp::app(*op, args),
        _ => app(op.clone(), args.to_vec(), sort.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A wrap-around modulo a multiple of `n` inside a term taken modulo `n` is dropped.
    #[test]
    fn modulo_drops_inner_wrap_arounds() {
        let v = Term::var("v", Sort::Int);
        let h = int(1 << 31);
        let wrapped = sub(&modulo(&add(&[v.clone(), h.clone()]), &int(1 << 32)), &h);
        assert_eq!(modulo(&wrapped, &int(8)), modulo(&v, &int(8)));
        let scaled = add(&[mul(&[int(2), modulo(&v, &int(16))]), int(19)]);
        assert_eq!(modulo(&scaled, &int(4)), modulo(&add(&[mul(&[int(2), v.clone()]), int(3)]), &int(4)));
        // a modulus that is not a multiple stays
        assert_eq!(modulo(&modulo(&v, &int(6)), &int(4)).args[0], modulo(&v, &int(6)));
        assert_eq!(modulo(&add(&[wrapped, int(8)]), &int(8)), modulo(&v, &int(8)));
    }
}
