//! The solver interface every backend implements.

use crate::term::Term;
use std::collections::HashMap;

/// Outcome of a satisfiability check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatResult {
    Sat,
    Unsat,
    /// The solver gave up; the string says why (timeout, incompleteness, ...).
    Unknown(String),
}

/// Errors a backend reports (never panics on solver trouble).
#[derive(Debug, thiserror::Error)]
pub enum SolverError {
    #[error("solver does not support {0}")]
    Unsupported(String),
    #[error("solver failure: {0}")]
    Failure(String),
}

/// A satisfying assignment, as values for the queried terms.
#[derive(Clone, Debug, Default)]
pub struct Model {
    /// Values of variables (literals, or array/uninterpreted values as terms).
    pub values: HashMap<Term, Term>,
}

impl Model {
    /// The value of a variable, if the model assigns it.
    pub fn get(&self, v: &Term) -> Option<&Term> {
        self.values.get(v)
    }
}

/// What a solver did so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolverStats {
    /// Satisfiability checks and other queries (interpolants).
    pub queries: u64,
    /// Time spent in them.
    pub time: std::time::Duration,
    /// Queries answered `Unknown` or failed (timeouts included).
    pub unknowns: u64,
    /// Queries stopped at their timeout.
    pub timeouts: u64,
    /// Times a solver process was started again (process backends).
    pub restarts: u64,
}

impl SolverStats {
    /// Counts one query that started at `started` and answered `r`.
    pub fn record(&mut self, started: std::time::Instant, r: &SatResult) {
        self.queries += 1;
        self.time += started.elapsed();
        if matches!(r, SatResult::Unknown(_)) {
            self.unknowns += 1;
        }
    }
}

/// An incremental SMT solver.
pub trait Solver {
    /// Opens a backtracking scope.
    fn push(&mut self);
    /// Closes the innermost scope, dropping its assertions.
    fn pop(&mut self);
    /// Drops every assertion and scope (for one-shot queries: Z3 then runs its
    /// non-incremental preprocessing).
    fn reset(&mut self);
    /// Asserts a formula.
    fn assert(&mut self, t: &Term);
    /// Asserts a formula under a name that can appear in unsat cores.
    fn assert_named(&mut self, name: &str, t: &Term);
    /// Checks satisfiability of the current assertions.
    fn check(&mut self) -> SatResult;
    /// After `Sat`: the values of the given terms (usually variables) in the model.
    fn model(&mut self, terms: &[Term]) -> Result<Model, SolverError>;
    /// After `Unsat`: the names of a subset of named assertions that is unsatisfiable.
    fn unsat_core(&mut self) -> Result<Vec<String>, SolverError>;
    /// Sets the per-check timeout in milliseconds (0: none).
    fn set_timeout_ms(&mut self, ms: u64);
    /// What the solver did so far.
    fn stats(&self) -> SolverStats;
}
