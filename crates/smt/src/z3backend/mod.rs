//! Z3 backend: translation of terms to Z3 ASTs and back, and [`Z3Solver`], an incremental
//! solver behind the [`Solver`](crate::solver::Solver) trait.
//!
//! The solvers and one-shot queries of a thread share one Z3 context (`thread_ctx`), and a
//! solver stays on the thread that made it, so threads never share Z3 state. Z3 errors are
//! reported as [`SolverError`]s (the C error handler is disabled, every call is checked),
//! never as panics.

mod context;
mod decode;
mod decode_bv_fp;
mod encode;
mod encode_bv_fp;
mod horn;
mod ownership;
mod solver;
mod tactics;
#[cfg(test)]
mod tests;
mod thread_ctx;
mod watchdog;

use crate::solver::SolverError;

pub use horn::solve_horn;
pub use solver::Z3Solver;
pub(crate) use thread_ctx::with_thread_ctx;
pub use watchdog::{inside_solver, interrupt_when};

/// The result of a backend operation.
type Res<T> = Result<T, SolverError>;

/// An error for input the backend cannot translate.
fn unsupported(what: impl Into<String>) -> SolverError {
    SolverError::Unsupported(what.into())
}
