//! The assertion sources of a run as the CEGAR loop uses them: the configured source on flat
//! traces (with the trace's path program, for the portfolio and perfectness) and on nested
//! traces (the sources that apply there, and the fallback for those that do not), with the
//! solver instances they need.

use crate::predicate_dfa::Shared;
use crate::{Config, Stats};
use ir::TransFormula;
use refine::farkas::farkas_nested_sequence;
use refine::nested::{newton_nested, weaken_nested, Nesting};
use refine::newton::Transformer;
use refine::portfolio::{is_perfect, portfolio, PathProgram};
use refine::{assertion_sequence_with, count_quantified, RefineError, Sequence, Source};
use smt::{SmtLibSolver, Solver, Term};
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

/// The configured source with its solvers: the trace solver (trace checks and the sources'
/// own queries) and, for `craig-smtlib`, the interpolating process.
pub(crate) struct Refiner {
    pub(crate) source: Source,
    pub(crate) trace: Box<dyn Solver>,
    interpolator: Option<SmtLibSolver>,
    /// The Hoare-triple checker the interpolant automata share (perfectness is decided with
    /// its cache).
    pub(crate) shared: Option<Rc<RefCell<Shared>>>,
}

impl Refiner {
    /// Starts the solvers `config`'s source needs.
    pub(crate) fn new(config: &Config) -> Result<Refiner, String> {
        let trace = config.solver.create().map_err(|e| format!("cannot start the trace-check solver {}: {e}", config.solver))?;
        let interpolator = match config.source {
            Source::CraigSmtLib => {
                Some(SmtLibSolver::interpolating(&config.interpolator).map_err(|e| format!("cannot start the interpolating solver: {e}"))?)
            }
            _ => None,
        };
        Ok(Refiner { source: config.source, trace, interpolator, shared: None })
    }

    /// Limits the next queries of every solver to `ms`.
    pub(crate) fn set_timeout_ms(&mut self, ms: u64) {
        self.trace.set_timeout_ms(ms);
        if let Some(itp) = self.interpolator.as_mut() {
            itp.set_timeout_ms(ms);
        }
    }

    /// Why a refinement whose sequences did not reject the trace ends the run.
    pub(crate) fn no_progress(&self) -> &'static str {
        "refinement made no progress: the solver could not show that the new assertions reject the trace"
    }

    /// Adds what the solvers did to `stats`.
    pub(crate) fn add_stats(&self, stats: &mut Stats) {
        stats.trace_solver += self.trace.stats();
        if let Some(itp) = &self.interpolator {
            stats.interpolator += itp.stats();
        }
    }

    fn shared(&self) -> std::cell::RefMut<'_, Shared> {
        self.shared.as_ref().expect("the refiner's Hoare checker").borrow_mut()
    }

    /// The sequences for an infeasible flat trace whose steps run along `path`.
    pub(crate) fn flat(
        &mut self,
        trace: &[TransFormula],
        path: &PathProgram,
        core: &BTreeSet<usize>,
        stats: &mut Stats,
    ) -> Result<Vec<Sequence>, RefineError> {
        if self.source == Source::Portfolio {
            let shared = self.shared.clone().expect("the refiner's Hoare checker");
            let result = portfolio(trace, path, core, self.trace.as_mut(), &mut shared.borrow_mut().hoare)?;
            stats.sequences += result.computed;
            stats.perfect_sequences += result.perfect;
            stats.quantified_predicates += result.sequences.iter().map(|s| s.quantified).sum::<usize>();
            return Ok(result.sequences);
        }
        let seq = assertion_sequence_with(self.source, trace, core, self.trace.as_mut(), self.interpolator.as_mut(), Some(path))?;
        stats.sequences += 1;
        // Counted for every source, as in the paper's comparison (the Hoare triples are cached
        // for the interpolant automaton, which needs most of them anyway).
        if is_perfect(&seq.preds, trace, path, &mut self.shared().hoare) {
            stats.perfect_sequences += 1;
        }
        if seq.source_used != self.source {
            stats.fallbacks += 1;
            if stats.first_fallback.is_none() {
                stats.first_fallback = seq.fallback.clone();
            }
        }
        stats.quantified_predicates += seq.quantified;
        Ok(vec![seq])
    }

    /// The sequences for an infeasible nested trace: every sequence of the sources that apply
    /// ([`nested_sources`]), or the fallback's when none gives one.
    pub(crate) fn nested(
        &mut self,
        steps: &[TransFormula],
        nesting: &Nesting,
        core: &BTreeSet<usize>,
        stats: &mut Stats,
    ) -> Result<Vec<Sequence>, RefineError> {
        let (sources, fallback) = nested_sources(self.source);
        let solver = self.trace.as_mut();
        let mut sequences: Vec<Sequence> = vec![];
        let mut error = None;
        for source in sources {
            match nested_sequence(source, steps, nesting, core, solver) {
                Ok(preds) => {
                    if source.newton_options().is_some_and(|o| o.transformer == Transformer::Sp && o.it) {
                        // Also the sequence without the conjuncts this trace does not need.
                        push_new(&mut sequences, weaken_nested(&preds, steps, nesting, solver, 200), source, None);
                    }
                    push_new(&mut sequences, preds, source, None);
                }
                Err(e) => {
                    tracing::debug!("{source}: {e}");
                    error = Some(e)
                }
            }
        }
        if let (true, Some(fallback)) = (sequences.is_empty(), fallback) {
            let why = match &error {
                Some(e) => format!("{}: {e}", self.source),
                None => format!("{}: nested trace", self.source),
            };
            stats.fallbacks += 1;
            stats.first_fallback.get_or_insert_with(|| why.clone());
            match nested_sequence(fallback, steps, nesting, core, solver) {
                Ok(preds) => push_new(&mut sequences, preds, fallback, Some(why)),
                Err(e) => error = Some(e),
            }
        }
        stats.sequences += sequences.len();
        stats.quantified_predicates += sequences.iter().map(|s| s.quantified).sum::<usize>();
        match (sequences.is_empty(), error) {
            (true, Some(e)) => Err(e),
            _ => Ok(sequences),
        }
    }
}

/// The sources run on a nested trace for the configured one (the portfolio: Craig's tree
/// interpolants, it-sp-lv, sp-lv and it-wp, every sequence kept) and the source to fall back to
/// when none of them gives a sequence: `craig` falls back to it-sp-lv where Farkas does not
/// apply, `craig-smtlib` and `intervals` always (binary interpolants and path programs of one
/// procedure do not fit nested traces).
fn nested_sources(source: Source) -> (Vec<Source>, Option<Source>) {
    match source {
        Source::Portfolio => (vec![Source::Craig, Source::NewtonItSpLv, Source::NewtonSpLv, Source::NewtonItWp], None),
        Source::Craig => (vec![Source::Craig], Some(Source::NewtonItSpLv)),
        Source::CraigSmtLib | Source::Intervals => (vec![], Some(Source::NewtonItSpLv)),
        newton => (vec![newton], None),
    }
}

/// The assertion sequence of one source for an infeasible nested trace.
fn nested_sequence(
    source: Source,
    steps: &[TransFormula],
    nesting: &Nesting,
    core: &BTreeSet<usize>,
    solver: &mut dyn Solver,
) -> Result<Vec<Term>, RefineError> {
    match source.newton_options() {
        Some(opts) => Ok(newton_nested(steps, nesting, core, opts, solver)?.preds),
        None => farkas_nested_sequence(steps, nesting, core, solver),
    }
}

/// Adds a sequence unless an equal one is there.
fn push_new(sequences: &mut Vec<Sequence>, preds: Vec<Term>, source_used: Source, fallback: Option<String>) {
    if !sequences.iter().any(|q| q.preds == preds) {
        sequences.push(Sequence { quantified: count_quantified(&preds), preds, source_used, fallback });
    }
}
