//! The assertion source of a run as the CEGAR loop uses it: the configured source
//! (`refine::source`) with the solver instances it needs, and its statistics.

use crate::budget::QueryBudget;
use crate::cegar::Scopes;
use crate::predicate_dfa::{PredicateDfa, Shared};
use crate::{Config, Stats};
use ir::TransFormula;
use refine::nested::Nesting;
use refine::portfolio::PathProgram;
use refine::source::{with_fallback, Infeasible, Solvers};
use refine::{HoareChecker, RefineError, Sequence, Source};
use smt::{SmtLibSolver, Solver};
use std::cell::RefCell;
use std::rc::Rc;

/// What a refinement loop over predicate automata sets up once: the run's budget, the state
/// its automata share (letters, Hoare checker) and the configured source with its solvers.
pub(crate) struct Session {
    pub(crate) budget: QueryBudget,
    pub(crate) shared: Rc<RefCell<Shared>>,
    pub(crate) refiner: Refiner,
}

impl Session {
    /// Starts the solvers of a run over `letters` (with the scopes of nested words; empty for
    /// flat ones).
    pub(crate) fn start(config: &Config, letters: Vec<TransFormula>, (returns, locals): Scopes) -> Result<Session, String> {
        let budget = QueryBudget::of(config);
        let solver = config.solver.create().map_err(|e| format!("cannot start the Hoare-triple solver {}: {e}", config.solver))?;
        let hoare = HoareChecker::new(solver);
        let shared = Rc::new(RefCell::new(Shared { letters, returns, locals, hoare, checks: 0, budget: budget.clone() }));
        let refiner = Refiner::new(config, shared.clone())?;
        Ok(Session { budget, shared, refiner })
    }

    /// Adds what the solvers and the automata `dfas` did to `stats`.
    pub(crate) fn add_stats(&self, dfas: &[PredicateDfa], stats: &mut Stats) {
        self.refiner.add_stats(stats);
        stats.abstraction_states += dfas.iter().map(|d| d.state_count()).sum::<usize>();
        let mut sh = self.shared.borrow_mut();
        stats.hoare_checks += sh.checks;
        stats.hoare_solver_calls += sh.hoare.stats.solver_calls as usize;
        stats.hoare_solver += sh.hoare.solver().stats();
    }
}

/// The configured source with its solvers: the trace solver (trace checks and the sources'
/// own queries) and, for `craig-smtlib`, the interpolating process.
pub(crate) struct Refiner {
    pub(crate) source: Source,
    pub(crate) trace: Box<dyn Solver>,
    interpolator: Option<SmtLibSolver>,
    /// The Hoare-triple checker the interpolant automata share (perfectness is decided with
    /// its cache).
    shared: Rc<RefCell<Shared>>,
}

impl Refiner {
    /// Starts the solvers `config`'s source needs; `shared` holds the run's Hoare checker.
    pub(crate) fn new(config: &Config, shared: Rc<RefCell<Shared>>) -> Result<Refiner, String> {
        let trace = config.solver.create().map_err(|e| format!("cannot start the trace-check solver {}: {e}", config.solver))?;
        let interpolator = match config.source.get().needs_interpolator() {
            true => {
                Some(SmtLibSolver::interpolating(&config.interpolator).map_err(|e| format!("cannot start the interpolating solver: {e}"))?)
            }
            false => None,
        };
        Ok(Refiner { source: config.source, trace, interpolator, shared })
    }

    /// Limits the next queries of every solver to `ms`.
    pub(crate) fn set_timeout_ms(&mut self, ms: u64) {
        self.trace.set_timeout_ms(ms);
        if let Some(itp) = self.interpolator.as_mut() {
            itp.set_timeout_ms(ms);
        }
    }

    /// Adds what the solvers did to `stats`.
    fn add_stats(&self, stats: &mut Stats) {
        stats.trace_solver += self.trace.stats();
        if let Some(itp) = &self.interpolator {
            stats.interpolator += itp.stats();
        }
    }

    /// The sequences of the configured source for an infeasible trace: a flat one whose steps
    /// run along `path`, or a nested one (`nesting`), with `it-sp-lv` where the source does not
    /// apply ([`with_fallback`]).
    pub(crate) fn sequences(
        &mut self,
        t: &Infeasible,
        path: Option<&PathProgram>,
        nesting: Option<&Nesting>,
        stats: &mut Stats,
    ) -> Result<Vec<Sequence>, RefineError> {
        self.sequences_from(self.source, t, path, nesting, stats)
    }

    /// [`Self::sequences`] of another source than the configured one.
    pub(crate) fn sequences_from(
        &mut self,
        source: Source,
        t: &Infeasible,
        path: Option<&PathProgram>,
        nesting: Option<&Nesting>,
        stats: &mut Stats,
    ) -> Result<Vec<Sequence>, RefineError> {
        let mut shared = self.shared.borrow_mut();
        let mut solvers = Solvers { solver: self.trace.as_mut(), interpolator: self.interpolator.as_mut(), hoare: Some(&mut shared.hoare) };
        let found = with_fallback(source, t, path, nesting, &mut solvers)?;
        stats.sequences += found.computed;
        stats.perfect_sequences += found.perfect;
        stats.quantified_predicates += found.sequences.iter().map(|s| s.quantified).sum::<usize>();
        if let Some(why) = found.sequences.iter().find_map(|s| s.fallback.clone()) {
            stats.fallbacks += 1;
            stats.first_fallback.get_or_insert(why);
        }
        Ok(found.sequences)
    }
}
