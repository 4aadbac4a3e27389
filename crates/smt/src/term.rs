//! Hash-consed terms: structurally equal terms are the same allocation, so equality and hashing
//! are by id, and caches can key on terms directly.

use crate::sort::Sort;
use num_bigint::BigInt;
use num_rational::BigRational;
use rustc_hash::FxBuildHasher;
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex};

/// An uninterpreted function symbol with its signature.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct FuncDecl {
    pub name: Arc<str>,
    pub domain: Vec<Sort>,
    pub range: Sort,
}

/// Quantifier kinds.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Quantifier {
    Forall,
    Exists,
}

/// Built-in operators and function application.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Op {
    Not,
    And,
    Or,
    Implies,
    Ite,
    Eq,
    Distinct,
    Le,
    Lt,
    Add,
    Sub,
    Mul,
    Neg,
    /// Integer division (SMT-LIB `div`: floor for positive divisor, Euclidean).
    IntDiv,
    /// Integer remainder (SMT-LIB `mod`, always non-negative).
    Mod,
    RealDiv,
    ToReal,
    ToInt,
    Select,
    Store,
    /// The constant array of the given sort (`((as const S) v)`).
    ConstArray(Sort),
    /// An integer as a bit-vector of the given width, modulo `2^width` (`(_ int2bv n)`).
    Int2Bv(u32),
    /// The unsigned value of a bit-vector (`bv2nat`).
    Bv2Nat,
    /// Bitwise and, or, exclusive or of bit-vectors of one width.
    BvAnd,
    BvOr,
    BvXor,
    /// The other bit-vector operators (`bv` builds them).
    Bv(crate::bv::BvOp),
    /// Floating-point operators (`fp` builds them).
    Fp(crate::fp::FpOp),
    /// Application of an uninterpreted function.
    Apply(Arc<FuncDecl>),
}

/// What a term node is.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Kind {
    /// A free (or bound) variable, a.k.a. an SMT constant symbol.
    Var(Arc<str>),
    Bool(bool),
    Int(BigInt),
    Real(BigRational),
    App(Op),
    /// A quantifier over the given variables; the body is the only argument.
    Quant(Quantifier, Vec<Term>),
}

/// The data of one term node.
#[derive(Debug)]
pub struct TermData {
    pub id: u64,
    pub kind: Kind,
    pub args: Vec<Term>,
    pub sort: Sort,
}

/// A hash-consed term.
#[derive(Clone)]
pub struct Term(Arc<TermData>);

impl PartialEq for Term {
    fn eq(&self, other: &Self) -> bool {
        self.0.id == other.0.id
    }
}
impl Eq for Term {}
impl Hash for Term {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.id.hash(state)
    }
}
impl PartialOrd for Term {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Term {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.id.cmp(&other.0.id)
    }
}
impl std::ops::Deref for Term {
    type Target = TermData;
    fn deref(&self) -> &TermData {
        &self.0
    }
}
impl fmt::Debug for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[derive(PartialEq, Eq, Hash)]
struct Key {
    kind: Kind,
    args: Vec<u64>,
    sort: Sort,
}

/// The hash-consing table, in shards chosen by the key's hash: threads that build terms at
/// once (a parallel portfolio) contend only when they hit the same shard.
static TABLE: LazyLock<Vec<Mutex<HashMap<Key, Term, FxBuildHasher>>>> = LazyLock::new(|| (0..SHARDS).map(|_| Mutex::default()).collect());
const SHARDS: usize = 64;
static NEXT_ID: AtomicU64 = AtomicU64::new(0);
static FRESH: AtomicU64 = AtomicU64::new(0);

impl Term {
    /// Interns a node without any simplification (builders in `build` simplify).
    pub fn mk(kind: Kind, args: Vec<Term>, sort: Sort) -> Term {
        let key = Key { kind, args: args.iter().map(|a| a.id).collect(), sort };
        // (the shard by the high bits: the table's buckets use the low ones)
        let shard = &TABLE[(FxBuildHasher.hash_one(&key) >> 58) as usize % SHARDS];
        let mut table = shard.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = table.get(&key) {
            return t.clone();
        }
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        let t = Term(Arc::new(TermData { id, kind: key.kind.clone(), args, sort: key.sort.clone() }));
        table.insert(key, t.clone());
        t
    }

    /// The variable `name` of sort `sort`.
    pub fn var(name: &str, sort: Sort) -> Term {
        Term::mk(Kind::Var(Arc::from(name)), vec![], sort)
    }

    /// A variable whose name occurs nowhere else: `prefix@N`. `@` cannot occur in
    /// front-end identifiers, so fresh names never clash with program names.
    pub fn fresh(prefix: &str, sort: Sort) -> Term {
        let base = prefix.split('@').next().unwrap_or(prefix);
        let n = FRESH.fetch_add(1, Ordering::Relaxed);
        Term::var(&format!("{base}@{n}"), sort)
    }

    /// The unique id of this term.
    pub fn id(&self) -> u64 {
        self.0.id
    }

    /// The name if this is a variable.
    pub fn var_name(&self) -> Option<&str> {
        match &self.kind {
            Kind::Var(n) => Some(n),
            _ => None,
        }
    }

    /// A read `a[i₁]..[iₙ]` as its array and indices (the term itself and no index if it
    /// reads no array).
    pub fn select_chain(&self) -> (&Term, Vec<Term>) {
        let mut indices = vec![];
        let mut a = self;
        while let (Some(Op::Select), [arr, i]) = (a.op(), a.args.as_slice()) {
            indices.push(i.clone());
            a = arr;
        }
        indices.reverse();
        (a, indices)
    }

    /// Whether this is a variable.
    pub fn is_var(&self) -> bool {
        matches!(self.kind, Kind::Var(_))
    }

    /// The operator if this is an application.
    pub fn op(&self) -> Option<&Op> {
        match &self.kind {
            Kind::App(op) => Some(op),
            _ => None,
        }
    }

    /// Whether this is the literal `true`.
    pub fn is_true(&self) -> bool {
        matches!(self.kind, Kind::Bool(true))
    }

    /// Whether this is the literal `false`.
    pub fn is_false(&self) -> bool {
        matches!(self.kind, Kind::Bool(false))
    }

    /// The value if this is an integer literal.
    pub fn as_int(&self) -> Option<&BigInt> {
        match &self.kind {
            Kind::Int(i) => Some(i),
            _ => None,
        }
    }

    /// The value of an Int or Real literal as a rational.
    pub fn as_rational(&self) -> Option<BigRational> {
        match &self.kind {
            Kind::Int(i) => Some(BigRational::from_integer(i.clone())),
            Kind::Real(r) => Some(r.clone()),
            _ => None,
        }
    }

    /// Whether this is a Bool/Int/Real/bit-vector/floating-point literal.
    pub fn is_literal(&self) -> bool {
        matches!(self.kind, Kind::Bool(_) | Kind::Int(_) | Kind::Real(_)) || self.as_bv().is_some() || self.as_fp().is_some()
    }

    /// The IEEE pattern and the sort's exponent and significand widths if this is a
    /// floating-point literal.
    pub fn as_fp(&self) -> Option<(&BigInt, u32, u32)> {
        match (&self.kind, &self.sort) {
            (Kind::App(Op::Fp(crate::fp::FpOp::FromBits(..))), Sort::Float(e, s)) => Some((self.args[0].as_bv()?.0, *e, *s)),
            _ => None,
        }
    }

    /// The pattern (in `0..2^w`) and width `w` if this is a bit-vector literal.
    pub fn as_bv(&self) -> Option<(&BigInt, u32)> {
        match (&self.kind, &self.sort) {
            (Kind::App(Op::Int2Bv(_)), Sort::BitVec(w)) => Some((self.args[0].as_int()?, *w)),
            _ => None,
        }
    }

    /// Whether some node of the term DAG satisfies `p`.
    pub fn any_subterm(&self, p: impl Fn(&Term) -> bool) -> bool {
        let mut seen = std::collections::HashSet::new();
        fn go(t: &Term, p: &dyn Fn(&Term) -> bool, seen: &mut std::collections::HashSet<u64>) -> bool {
            if !seen.insert(t.id()) {
                return false;
            }
            p(t) || t.args.iter().any(|a| go(a, p, seen))
        }
        go(self, &p, &mut seen)
    }

    /// Whether the term contains a quantifier.
    pub fn has_quantifier(&self) -> bool {
        self.any_subterm(|t| matches!(t.kind, Kind::Quant(..)))
    }

    /// Whether the term has a bit-vector subterm.
    pub fn has_bitvector(&self) -> bool {
        self.any_subterm(|t| matches!(t.sort, Sort::BitVec(_)))
    }

    /// Number of distinct nodes in the term DAG.
    pub fn dag_size(&self) -> usize {
        self.subterms().len()
    }

    /// The distinct nodes of the term DAG (the term itself included), each once.
    pub fn subterms(&self) -> Vec<Term> {
        let mut seen = std::collections::HashSet::new();
        let mut out = vec![];
        let mut stack = vec![self.clone()];
        while let Some(t) = stack.pop() {
            if seen.insert(t.id()) {
                stack.extend(t.args.iter().cloned());
                out.push(t);
            }
        }
        out
    }
}
