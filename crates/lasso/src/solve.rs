//! One-shot solver queries under the per-query timeout and the overall deadline, counted in
//! the statistics; models read as rationals.

use crate::Stats;
use num_rational::BigRational;
use num_traits::Zero;
use smt::{SatResult, Solver, Term, Z3Solver};
use std::time::Instant;

/// A Z3 solver used for one query at a time (reset before each: Z3's non-incremental
/// preprocessing and its non-linear tactic apply only then).
pub(crate) struct Oracle<'a> {
    solver: Z3Solver,
    timeout_ms: u64,
    deadline: Option<Instant>,
    pub stats: &'a mut Stats,
}

impl<'a> Oracle<'a> {
    pub fn new(timeout_ms: u64, deadline: Option<Instant>, stats: &'a mut Stats) -> Oracle<'a> {
        Oracle { solver: Z3Solver::new(), timeout_ms, deadline, stats }
    }

    /// Whether the deadline has passed.
    pub fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Checks the conjunction of `assertions`.
    pub fn check(&mut self, assertions: &[Term]) -> SatResult {
        let mut ms = self.timeout_ms;
        if let Some(d) = self.deadline {
            let left = d.saturating_duration_since(Instant::now()).as_millis() as u64;
            if left == 0 {
                return SatResult::Unknown("deadline".into());
            }
            ms = if ms == 0 { left } else { ms.min(left) };
        }
        self.solver.reset();
        self.solver.set_timeout_ms(ms);
        for a in assertions {
            self.solver.assert(a);
        }
        let started = Instant::now();
        let r = self.solver.check();
        self.stats.queries += 1;
        self.stats.solver_time += started.elapsed();
        tracing::trace!("lasso query: {r:?}");
        r
    }

    /// After `Sat`: the model's values of `terms` (literals; a term the model leaves out is
    /// missing from the map).
    pub fn model(&mut self, terms: &[Term]) -> Option<smt::Model> {
        self.solver.model(terms).ok()
    }

    /// After `Sat`: the values of Real/Int `terms` as rationals (`None` if one is not a
    /// rational literal, e.g. an algebraic number of a non-linear model).
    pub fn rationals(&mut self, terms: &[Term]) -> Option<Vec<BigRational>> {
        let m = self.model(terms)?;
        terms.iter().map(|t| m.get(t).map_or(Some(BigRational::zero()), smt::linear::literal_value)).collect()
    }
}
