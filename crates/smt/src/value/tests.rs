//! The evaluator against Z3: each operator on values at the edges of its domain (zero, one,
//! the extremes of each sign, division by zero) and on pseudo-random ones, as a validity query
//! `x = a ∧ y = b → op(x, y) = eval(op)(a, b)` over variables, so that no folding of the term
//! builders stands between the two.

use super::*;
use crate::build::{and, eq, implies, int};
use crate::bv;
use crate::simplify::is_valid;

/// The same pseudo-random numbers on every run (xorshift).
struct Numbers(u64);

impl Numbers {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Asserts that `t`, with its variables `vars` at `values`, is `eval`'s value by Z3.
fn agrees(t: &Term, vars: &[Term], values: &[Value]) {
    let env: HashMap<Term, Value> = vars.iter().cloned().zip(values.iter().cloned()).collect();
    let v = eval(t, &|x| env.get(x).cloned()).unwrap_or_else(|| panic!("{t} has no value at {values:?}"));
    let fixed: Vec<Term> = vars.iter().zip(values).map(|(x, v)| eq(x, &v.to_term(&x.sort))).collect();
    let claim = implies(&and(&fixed), &eq(t, &v.to_term(&t.sort)));
    assert_eq!(is_valid(&claim, 10_000), Some(true), "{t} at {values:?} is not {v:?}");
}

fn edge_bits(w: u32, numbers: &mut Numbers) -> Vec<u128> {
    let m = mask(w);
    let mut v = vec![0, 1, 2, m, m - 1, m >> 1, (m >> 1) + 1, 7 & m];
    v.extend((0..4).map(|_| (u128::from(numbers.next()) << 64 | u128::from(numbers.next())) & m));
    v
}

#[test]
fn bit_vector_operators_agree_with_z3() {
    let mut numbers = Numbers(0x9e37_79b9_7f4a_7c15);
    let binary = [
        BvOp::Add,
        BvOp::Sub,
        BvOp::Mul,
        BvOp::UDiv,
        BvOp::SDiv,
        BvOp::URem,
        BvOp::SRem,
        BvOp::Shl,
        BvOp::LShr,
        BvOp::AShr,
        BvOp::Ult,
        BvOp::Ule,
        BvOp::Slt,
        BvOp::Sle,
        BvOp::Concat,
    ];
    for w in [8, 32, 64] {
        let (x, y) = (Term::var("x", Sort::BitVec(w)), Term::var("y", Sort::BitVec(w)));
        let edges = edge_bits(w, &mut numbers);
        let unary = [BvOp::Neg, BvOp::Not, BvOp::ZeroExt(3), BvOp::SignExt(5), BvOp::Extract(w - 2, 1)];
        for &a in &edges {
            let va = Value::Bv { width: w, bits: a };
            for op in unary {
                agrees(&bv::app(op, std::slice::from_ref(&x)), std::slice::from_ref(&x), std::slice::from_ref(&va));
            }
            // shift amounts past the width too
            for b in edges.iter().copied().chain([u128::from(w), u128::from(w) - 1, u128::from(w) + 1]) {
                let values = [va.clone(), Value::Bv { width: w, bits: b & mask(w) }];
                for op in binary {
                    agrees(&bv::bin(op, &x, &y), &[x.clone(), y.clone()], &values);
                }
                for op in [Op::BvAnd, Op::BvOr, Op::BvXor] {
                    agrees(&build::bv_bitwise(op, &x, &y), &[x.clone(), y.clone()], &values);
                }
            }
        }
    }
}

#[test]
fn integer_operators_agree_with_z3() {
    let (x, y) = (Term::var("x", Sort::Int), Term::var("y", Sort::Int));
    let terms = [
        build::int_div(&x, &y),
        build::modulo(&x, &y),
        build::add(&[x.clone(), y.clone(), int(3)]),
        build::sub(&x, &y),
        build::mul(&[x.clone(), y.clone()]),
        build::neg(&x),
        build::le(&x, &y),
        build::lt(&x, &y),
        build::int2bv(8, &x),
        bv::to_int(&build::int2bv(16, &x), true),
        build::ite(&build::lt(&x, &y), &x, &y),
    ];
    for a in [-7i64, -1, 0, 1, 7, 1 << 40] {
        for b in [-3i64, -1, 1, 2, 3, 7] {
            for t in &terms {
                agrees(t, &[x.clone(), y.clone()], &[Value::Int(a.into()), Value::Int(b.into())]);
            }
        }
    }
    // integer division by zero has no value of its own in SMT-LIB
    let zero = |_: &Term| Some(Value::Int(0.into()));
    assert_eq!(eval(&build::int_div(&x, &y), &zero), None);
}

#[test]
fn arrays_are_total_maps_with_one_representation_each() {
    let sort = Sort::array(Sort::Int, Sort::Int);
    let (a, i) = (Term::var("a", sort.clone()), Term::var("i", Sort::Int));
    let zero = Value::constant_array(Value::Int(0.into()));
    let one = zero.store(&Value::Int(5.into()), Value::Int(1.into())).expect("an array");
    // writing the default back gives the constant array itself
    assert_eq!(one.store(&Value::Int(5.into()), Value::Int(0.into())), Some(zero.clone()));
    assert_ne!(one, zero);
    let written = build::store(&a, &i, &int(9));
    for (array, index) in [(&zero, 5), (&one, 5), (&one, 4)] {
        let values = [array.clone(), Value::Int(index.into())];
        agrees(&written, &[a.clone(), i.clone()], &values);
        agrees(&build::select(&a, &i), &[a.clone(), i.clone()], &values);
        agrees(&eq(&written, &a), &[a.clone(), i.clone()], &values);
    }
    assert_eq!(Value::of_literal(&one.to_term(&sort)), None);
    assert_eq!(eval(&one.to_term(&sort), &|_| None), Some(one));
}
