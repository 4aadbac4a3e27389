//! Sorts of SMT terms.

use std::fmt;
use std::sync::Arc;

/// The sort (type) of a term.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Sort {
    Bool,
    Int,
    Real,
    /// Fixed-width bit vectors (room for bit-precise semantics).
    BitVec(u32),
    /// IEEE floating point with exponent and significand widths.
    Float(u32, u32),
    /// Total maps from the index sort to the element sort.
    Array(Arc<Sort>, Arc<Sort>),
    /// A user-declared sort without interpretation.
    Uninterpreted(Arc<str>),
}

impl Sort {
    /// The array sort `index -> elem`.
    pub fn array(index: Sort, elem: Sort) -> Sort {
        Sort::Array(Arc::new(index), Arc::new(elem))
    }

    /// Whether this is Int or Real.
    pub fn is_arith(&self) -> bool {
        matches!(self, Sort::Int | Sort::Real)
    }
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Bool => write!(f, "Bool"),
            Sort::Int => write!(f, "Int"),
            Sort::Real => write!(f, "Real"),
            Sort::BitVec(n) => write!(f, "(_ BitVec {n})"),
            Sort::Float(e, s) => write!(f, "(_ FloatingPoint {e} {s})"),
            Sort::Array(i, e) => write!(f, "(Array {i} {e})"),
            Sort::Uninterpreted(n) => write!(f, "{}", crate::print::quote_symbol(n)),
        }
    }
}
