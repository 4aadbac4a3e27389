//! Concrete values of terms: integers, booleans, bit-vectors and arrays, and the evaluation of a
//! term on them with SMT-LIB's semantics. A search that knows every value a statement reads
//! runs the statement without building terms or asking a solver; arrays are persistent maps,
//! so a write costs a logarithm of the array and keeping the old value for backtracking costs
//! nothing.

use crate::build;
use crate::bv::BvOp;
use crate::sort::Sort;
use crate::term::{Kind, Op, Term};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{ToPrimitive, Zero};
use rpds::HashTrieMapSync;
use rustc_hash::FxBuildHasher;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::Arc;

/// The widest bit-vector a value holds (wider ones are left to the solver).
pub const MAX_WIDTH: u32 = 128;

/// A concrete value.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Value {
    Bool(bool),
    Int(BigInt),
    /// A bit-vector of `width` bits, `bits < 2^width`.
    Bv {
        width: u32,
        bits: u128,
    },
    Array(Arc<ArrayValue>),
}

/// A total map: `entries` where written, elsewhere its base's. `hash` is kept as the entries
/// change.
#[derive(Clone, Debug)]
pub struct ArrayValue {
    base: Base,
    entries: HashTrieMapSync<Value, Value>,
    hash: u64,
}

/// What an array holds where nothing was written: one value (then no entry maps to it, so
/// that equal maps have equal representations), or the contents of an array term that is not
/// known (an array before its first write: only what is written later is known).
#[derive(Clone, PartialEq, Eq, Debug)]
enum Base {
    Constant(Value),
    Unknown(Term),
}

impl PartialEq for ArrayValue {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash && self.base == other.base && self.entries == other.entries
    }
}
impl Eq for ArrayValue {}

impl Hash for Value {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.fingerprint());
    }
}

fn mix(a: u64, b: u64) -> u64 {
    FxBuildHasher.hash_one((a, b))
}

impl Value {
    /// A hash of the value, in constant time (an array keeps its own).
    pub fn fingerprint(&self) -> u64 {
        match self {
            Value::Bool(b) => mix(1, u64::from(*b)),
            Value::Int(i) => mix(2, FxBuildHasher.hash_one(i)),
            Value::Bv { width, bits } => mix(3 + u64::from(*width), FxBuildHasher.hash_one(bits)),
            Value::Array(a) => a.hash,
        }
    }

    /// The bit-vector `v mod 2^width`.
    pub fn bv(width: u32, v: &BigInt) -> Option<Value> {
        if width == 0 || width > MAX_WIDTH {
            return None;
        }
        let m = BigInt::from(1u8) << width;
        Some(Value::Bv { width, bits: v.mod_floor(&m).to_u128()? })
    }

    /// A value of `sort` (false, zero, an array of them; `None` for the sorts without values
    /// here): what a value that nothing constrains may as well be.
    pub fn first(sort: &Sort) -> Option<Value> {
        match sort {
            Sort::Bool => Some(Value::Bool(false)),
            Sort::Int => Some(Value::Int(BigInt::zero())),
            Sort::BitVec(w) if *w <= MAX_WIDTH => Some(Value::Bv { width: *w, bits: 0 }),
            Sort::Array(_, elem) => Some(Value::constant_array(Value::first(elem)?)),
            _ => None,
        }
    }

    /// The constant array whose every element is `v`.
    pub fn constant_array(v: Value) -> Value {
        let hash = mix(4, v.fingerprint());
        Value::Array(Arc::new(ArrayValue { base: Base::Constant(v), entries: HashTrieMapSync::new_sync(), hash }))
    }

    /// The array `base` (a term of an array sort), whose elements are not known until they are
    /// written.
    pub fn unknown_array(base: Term) -> Value {
        let hash = mix(5, base.id());
        Value::Array(Arc::new(ArrayValue { base: Base::Unknown(base), entries: HashTrieMapSync::new_sync(), hash }))
    }

    /// Whether two values are equal (`None`: arrays whose unwritten parts are not known).
    pub fn equals(&self, other: &Value) -> Option<bool> {
        match (self, other) {
            (Value::Array(a), Value::Array(b)) => match (&a.base, &b.base) {
                (Base::Constant(_), Base::Constant(_)) => Some(a == b),
                _ if a == b => Some(true),
                _ => None,
            },
            _ => Some(self == other),
        }
    }

    /// The value of a literal term.
    pub fn of_literal(t: &Term) -> Option<Value> {
        match &t.kind {
            Kind::Bool(b) => Some(Value::Bool(*b)),
            Kind::Int(i) => Some(Value::Int(i.clone())),
            _ => t.as_bv().and_then(|(v, w)| Value::bv(w, v)),
        }
    }

    /// The value as a term of sort `sort` (an array as writes into a constant array).
    pub fn to_term(&self, sort: &Sort) -> Term {
        match (self, sort) {
            (Value::Bool(b), _) => build::bool_lit(*b),
            (Value::Int(i), _) => build::int_big(i.clone()),
            (Value::Bv { width, bits }, _) => crate::bv::lit(&BigInt::from(*bits), *width),
            (Value::Array(a), Sort::Array(index, elem)) => {
                let mut entries: Vec<(Term, Term)> = a.entries.iter().map(|(i, v)| (i.to_term(index), v.to_term(elem))).collect();
                // (an order of their own, so that equal arrays are equal terms)
                entries.sort();
                let base = match &a.base {
                    Base::Constant(v) => build::const_array(sort, &v.to_term(elem)),
                    Base::Unknown(t) => t.clone(),
                };
                entries.iter().fold(base, |t, (i, v)| build::store(&t, i, v))
            }
            (Value::Array(_), _) => panic!("an array value of sort {sort}"),
        }
    }

    fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    fn as_int(&self) -> Option<&BigInt> {
        match self {
            Value::Int(i) => Some(i),
            _ => None,
        }
    }

    fn as_bv(&self) -> Option<(u32, u128)> {
        match self {
            Value::Bv { width, bits } => Some((*width, *bits)),
            _ => None,
        }
    }

    fn as_array(&self) -> Option<&ArrayValue> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The element at `i` (`None`: not known).
    pub fn select(&self, i: &Value) -> Option<Value> {
        let a = self.as_array()?;
        match (a.entries.get(i), &a.base) {
            (Some(v), _) | (None, Base::Constant(v)) => Some(v.clone()),
            (None, Base::Unknown(t)) => match &t.sort {
                // (a row of an unknown array of arrays: its writes are known too)
                Sort::Array(index, elem) if matches!(**elem, Sort::Array(..)) => {
                    Some(Value::unknown_array(build::select(t, &i.to_term(index))))
                }
                _ => None,
            },
        }
    }

    /// The array with `v` at `i`.
    pub fn store(&self, i: &Value, v: Value) -> Option<Value> {
        let a = self.as_array()?;
        let entry = |v: &Value| mix(i.fingerprint(), v.fingerprint());
        let mut hash = a.hash;
        if let Some(old) = a.entries.get(i) {
            hash ^= entry(old);
        }
        let entries = if a.base == Base::Constant(v.clone()) {
            a.entries.remove(i)
        } else {
            hash ^= entry(&v);
            a.entries.insert(i.clone(), v)
        };
        Some(Value::Array(Arc::new(ArrayValue { base: a.base.clone(), entries, hash })))
    }
}

/// The value of `t` where `var` gives the values of its variables; `None` where a variable has
/// none, where SMT-LIB leaves the value open (integer division by zero), and for what this
/// does not evaluate (reals, floating point, uninterpreted functions, quantifiers).
pub fn eval(t: &Term, var: &dyn Fn(&Term) -> Option<Value>) -> Option<Value> {
    Evaluator { var, memo: HashMap::default() }.eval(t)
}

struct Evaluator<'a> {
    var: &'a dyn Fn(&Term) -> Option<Value>,
    memo: HashMap<u64, Value, FxBuildHasher>,
}

impl Evaluator<'_> {
    fn eval(&mut self, t: &Term) -> Option<Value> {
        match &t.kind {
            Kind::Var(_) => return (self.var)(t),
            Kind::Bool(b) => return Some(Value::Bool(*b)),
            Kind::Int(i) => return Some(Value::Int(i.clone())),
            Kind::Real(_) | Kind::Quant(..) => return None,
            Kind::App(_) => {}
        }
        if let Some(v) = self.memo.get(&t.id()) {
            return Some(v.clone());
        }
        let v = self.app(t)?;
        self.memo.insert(t.id(), v.clone());
        Some(v)
    }

    fn bools(&mut self, args: &[Term]) -> Option<Vec<bool>> {
        args.iter().map(|a| self.eval(a)?.as_bool()).collect()
    }

    fn ints(&mut self, args: &[Term]) -> Option<Vec<BigInt>> {
        args.iter().map(|a| self.eval(a)?.as_int().cloned()).collect()
    }

    fn app(&mut self, t: &Term) -> Option<Value> {
        let Kind::App(op) = &t.kind else { return None };
        let args = &t.args;
        let int = |i: BigInt| Some(Value::Int(i));
        match op {
            Op::Not => Some(Value::Bool(!self.eval(&args[0])?.as_bool()?)),
            // (the connectives stop at the first argument that decides them)
            Op::And | Op::Or => {
                let decisive = *op == Op::Or;
                for a in args {
                    if self.eval(a)?.as_bool()? == decisive {
                        return Some(Value::Bool(decisive));
                    }
                }
                Some(Value::Bool(!decisive))
            }
            Op::Implies => {
                let b = self.bools(args)?;
                Some(Value::Bool(!b[0] || b[1]))
            }
            Op::Ite => {
                let c = self.eval(&args[0])?.as_bool()?;
                self.eval(&args[if c { 1 } else { 2 }])
            }
            Op::Eq => {
                let first = self.eval(&args[0])?;
                for a in &args[1..] {
                    if !self.eval(a)?.equals(&first)? {
                        return Some(Value::Bool(false));
                    }
                }
                Some(Value::Bool(true))
            }
            Op::Distinct => {
                let vals: Vec<Value> = args.iter().map(|a| self.eval(a)).collect::<Option<_>>()?;
                for (i, a) in vals.iter().enumerate() {
                    for b in &vals[i + 1..] {
                        if a.equals(b)? {
                            return Some(Value::Bool(false));
                        }
                    }
                }
                Some(Value::Bool(true))
            }
            Op::Le | Op::Lt => {
                let v = self.ints(args)?;
                let holds = v.windows(2).all(|w| if *op == Op::Le { w[0] <= w[1] } else { w[0] < w[1] });
                Some(Value::Bool(holds))
            }
            Op::Add => int(self.ints(args)?.into_iter().sum()),
            Op::Mul => int(self.ints(args)?.into_iter().product()),
            Op::Sub => {
                let v = self.ints(args)?;
                let (first, rest) = v.split_first()?;
                if rest.is_empty() {
                    return int(-first);
                }
                int(rest.iter().fold(first.clone(), |acc, x| acc - x))
            }
            Op::Neg => int(-self.ints(args)?.pop()?),
            Op::IntDiv | Op::Mod => {
                let v = self.ints(args)?;
                if v[1].is_zero() {
                    return None;
                }
                let q = build::euclid_div(&v[0], &v[1]);
                int(if *op == Op::IntDiv { q } else { &v[0] - &v[1] * q })
            }
            Op::Select => {
                let a = self.eval(&args[0])?;
                a.select(&self.eval(&args[1])?)
            }
            Op::Store => {
                let a = self.eval(&args[0])?;
                let i = self.eval(&args[1])?;
                a.store(&i, self.eval(&args[2])?)
            }
            Op::ConstArray(_) => Some(Value::constant_array(self.eval(&args[0])?)),
            Op::Int2Bv(w) => Value::bv(*w, self.eval(&args[0])?.as_int()?),
            Op::Bv2Nat => int(BigInt::from(self.eval(&args[0])?.as_bv()?.1)),
            Op::BvAnd | Op::BvOr | Op::BvXor => {
                let mut vals = args.iter().map(|a| self.eval(a).and_then(|v| v.as_bv()));
                let (w, first) = vals.next()??;
                let bits = vals.try_fold(first, |acc, v| {
                    let (_, b) = v?;
                    Some(match op {
                        Op::BvAnd => acc & b,
                        Op::BvOr => acc | b,
                        _ => acc ^ b,
                    })
                })?;
                Some(Value::Bv { width: w, bits })
            }
            Op::Bv(bv) => {
                let vals: Vec<(u32, u128)> = args.iter().map(|a| self.eval(a)?.as_bv()).collect::<Option<_>>()?;
                bv_app(*bv, &vals)
            }
            Op::RealDiv | Op::ToReal | Op::ToInt | Op::Fp(_) | Op::Apply(_) => None,
        }
    }
}

/// The mask of the low `w` bits.
fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// The two's complement value of `bits` of width `w`.
fn signed(bits: u128, w: u32) -> i128 {
    let shift = 128 - w;
    ((bits << shift) as i128) >> shift
}

/// A bit-vector operator on values, with SMT-LIB's semantics (division by zero included).
fn bv_app(op: BvOp, v: &[(u32, u128)]) -> Option<Value> {
    let (w, a) = *v.first()?;
    let m = mask(w);
    let out = |bits: u128| Some(Value::Bv { width: w, bits: bits & m });
    let truth = |b: bool| Some(Value::Bool(b));
    let sa = signed(a, w);
    let Some(&(w2, b)) = v.get(1) else {
        return match op {
            BvOp::Neg => out(a.wrapping_neg()),
            BvOp::Not => out(!a),
            BvOp::ZeroExt(n) if w + n <= MAX_WIDTH => Some(Value::Bv { width: w + n, bits: a }),
            BvOp::SignExt(n) if w + n <= MAX_WIDTH => Some(Value::Bv { width: w + n, bits: (sa as u128) & mask(w + n) }),
            BvOp::Extract(hi, lo) if hi < w && lo <= hi => Some(Value::Bv { width: hi - lo + 1, bits: (a >> lo) & mask(hi - lo + 1) }),
            _ => None,
        };
    };
    let sb = signed(b, w);
    let shift = u32::try_from(b).ok().filter(|k| *k < w);
    match op {
        BvOp::Add => out(a.wrapping_add(b)),
        BvOp::Sub => out(a.wrapping_sub(b)),
        BvOp::Mul => out(a.wrapping_mul(b)),
        BvOp::UDiv if b == 0 => out(u128::MAX),
        BvOp::UDiv => out(a / b),
        BvOp::URem if b == 0 => out(a),
        BvOp::URem => out(a % b),
        // bvsdiv by zero: -1 for a non-negative dividend, 1 for a negative one
        BvOp::SDiv if b == 0 => out(if sa < 0 { 1 } else { u128::MAX }),
        BvOp::SDiv => out(sa.wrapping_div(sb) as u128),
        BvOp::SRem if b == 0 => out(a),
        BvOp::SRem => out(sa.wrapping_rem(sb) as u128),
        BvOp::Shl => out(shift.map_or(0, |k| a << k)),
        BvOp::LShr => out(shift.map_or(0, |k| a >> k)),
        BvOp::AShr => out((sa >> shift.unwrap_or(w - 1).min(127)) as u128),
        BvOp::Ult => truth(a < b),
        BvOp::Ule => truth(a <= b),
        BvOp::Slt => truth(sa < sb),
        BvOp::Sle => truth(sa <= sb),
        BvOp::Concat if w + w2 <= MAX_WIDTH => Some(Value::Bv { width: w + w2, bits: (a << w2) | b }),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
