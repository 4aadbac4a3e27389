//! Errors of the refinement layer.

/// Why no assertion sequence could be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RefineError {
    /// The source does not apply to this trace (e.g. Farkas on non-linear steps).
    #[error("not applicable: {0}")]
    NotApplicable(String),
    /// The trace (or its abstraction) is not infeasible, so no sequence ends in `false`.
    #[error("trace is not infeasible: {0}")]
    NotInfeasible(String),
    /// The solver could not decide a query the source needed.
    #[error("solver gave up: {0}")]
    Unknown(String),
    /// The solver reported an error.
    #[error("solver error: {0}")]
    Solver(String),
}
