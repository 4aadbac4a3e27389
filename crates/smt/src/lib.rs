//! SMT layer of Tracery: hash-consed terms and sorts, simplifying builders, substitution,
//! SMT-LIB printing, partial quantifier elimination, and solver backends behind one trait.

pub mod backend;
pub mod build;
pub mod bv;
pub mod fp;
pub mod linear;
pub mod print;
pub mod qe;
pub mod sexp;
pub mod simplify;
pub mod smtlib;
pub mod solver;
pub mod sort;
pub mod subst;
pub mod term;
pub mod value;
pub mod z3backend;
mod z3ffi;

pub use backend::SolverSpec;
pub use smtlib::SmtLibSolver;
pub use solver::{Model, SatResult, Solver, SolverError, SolverStats};
pub use sort::Sort;
pub use term::{FuncDecl, Kind, Op, Quantifier, Term};
pub use z3backend::Z3Solver;
