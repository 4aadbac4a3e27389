//! Verification algorithms over the program model. An engine answers which error location is
//! reachable and by which path, or proves that none is; it never prints.

pub mod annotation;
pub mod automizer;
mod budget;
mod cegar;
mod cex;
pub mod chc;
pub mod houdini;
pub mod nested;
pub mod portfolio;
mod predicate_dfa;
mod sources;
pub mod strategy;

use ir::{SourcePos, Stmt, Violation};
use serde::Serialize;
use smt::{SolverSpec, SolverStats, Term};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

pub use annotation::{Invariant, Proof, Role};
pub use budget::CancelToken;
pub use refine::Source;
pub use strategy::{Engine, Prepared, Strategy, Task};

/// Settings of a verification run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Source of assertion sequences for infeasible traces.
    pub source: Source,
    /// Wall-clock deadline of the whole run.
    pub deadline: Option<Instant>,
    /// Compose straight-line code and branches into large blocks.
    pub large_blocks: bool,
    /// Add an accelerated self-loop next to each self-loop that is a guarded translation.
    pub accelerate: bool,
    /// The engines to run and their shares of the time.
    pub strategy: Strategy,
    /// Inline every call, replacing recursive calls by their contracts (otherwise an entry
    /// that reaches recursion is verified on nested words).
    pub inline: bool,
    /// Per-query solver timeout.
    pub query_timeout: Duration,
    /// Per-query timeout of re-checking a feasible error trace with the exact statements of
    /// its over-approximations (short when a bit-precise run will decide otherwise: the exact
    /// statements mix integers and bit-vectors, which can be slow to solve).
    pub exact_recheck_timeout: Duration,
    /// The solver of trace checks and of Hoare-triple queries (one instance each).
    pub solver: SolverSpec,
    /// The command `craig-smtlib` asks for interpolants (an SMT-LIB process).
    pub interpolator: Vec<String>,
    /// Raised when the run's answer is no longer needed (another engine decided).
    pub cancel: CancelToken,
    /// How many engines of the strategy may run at once (a parallel portfolio when above 1).
    pub jobs: usize,
}

impl Config {
    /// The solver time of one query of an exact re-check.
    pub(crate) fn exact_recheck_ms(&self) -> u64 {
        budget::QueryBudget { per_query: self.exact_recheck_timeout, ..budget::QueryBudget::of(self) }.next_ms()
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            source: Source::NewtonItSpLv,
            deadline: None,
            large_blocks: true,
            accelerate: true,
            strategy: Strategy::default(),
            inline: false,
            query_timeout: Duration::from_secs(10),
            exact_recheck_timeout: Duration::from_secs(10),
            solver: SolverSpec::Z3,
            interpolator: smt::backend::split_command(smt::backend::DEFAULT_INTERPOLATOR),
            cancel: CancelToken::default(),
            jobs: 1,
        }
    }
}

/// One step of a counterexample.
#[derive(Clone, Debug)]
pub struct CexStep {
    pub pos: Option<SourcePos>,
    pub stmt: Stmt,
    /// Values of the variables the trace mentions, after the step.
    pub values: BTreeMap<Term, Term>,
    /// The variables the step assigns.
    pub assigned: Vec<Term>,
    /// For a step that takes one side of a two-way branch: whether the condition holds.
    pub branch: Option<bool>,
    /// The value an input function returned in this step.
    pub nondet: Option<NondetValue>,
    /// The procedure (C function) the step belongs to, when known.
    pub function: Option<String>,
}

/// A value chosen by an input function (`__VERIFIER_nondet_int()`).
#[derive(Clone, Debug)]
pub struct NondetValue {
    pub function: String,
    /// The source-language type of the value (the front end's back-translation map says which).
    pub ty: ir::SourceType,
    pub value: Term,
}

/// A feasible error path.
#[derive(Clone, Debug)]
pub struct Counterexample {
    /// The procedure verified as entry point.
    pub entry: String,
    pub violation: Violation,
    /// Values before the first step.
    pub initial: BTreeMap<Term, Term>,
    pub steps: Vec<CexStep>,
    /// Whether the steps are the program's own statements; false when the solver could not
    /// resolve the large blocks of the error trace (the steps are then large blocks).
    pub source_steps: bool,
}

/// The answer of an engine.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// No error location is reachable.
    Safe,
    /// An error location is reachable by a feasible path.
    Unsafe(Box<Counterexample>),
    /// Neither could be established.
    Unknown(Unknown),
}

impl Verdict {
    /// UNKNOWN for `reason`.
    pub fn unknown(reason: impl Into<String>) -> Verdict {
        Verdict::Unknown(Unknown { reason: reason.into(), bit_precise_may_decide: false })
    }
}

/// Why a run ended without a verdict.
#[derive(Clone, Debug)]
pub struct Unknown {
    pub reason: String,
    /// The run ended at a feasible error trace that no exact statement confirms, and every
    /// over-approximation on it is one the front end's bit-precise translation models exactly
    /// (`Edge::bit_precise_exact`: bitwise operators, `float` and `double` under integer
    /// semantics): that translation can still decide, where this one cannot refine.
    pub bit_precise_may_decide: bool,
}

/// Counters and timings of a run (the figures the seed paper reports).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Stats {
    pub iterations: usize,
    pub trace_checks: usize,
    pub sequences: usize,
    /// Sequences that are inductive for the trace's path program (portfolio only).
    pub perfect_sequences: usize,
    /// Sequences the requested source could not produce (another source was used).
    pub fallbacks: usize,
    pub quantified_predicates: usize,
    pub hoare_checks: usize,
    pub hoare_solver_calls: usize,
    pub abstraction_states: usize,
    pub time_abstraction_ms: u128,
    pub time_trace_check_ms: u128,
    pub time_sequence_ms: u128,
    pub time_total_ms: u128,
    /// The solver of trace checks and Hoare triples (`z3` or `smtlib:COMMAND`).
    pub solver: String,
    pub trace_solver: SolverUse,
    pub hoare_solver: SolverUse,
    /// The interpolating solver of `craig-smtlib`.
    pub interpolator: SolverUse,
    /// Why the requested source was not used, the first time it was not.
    pub first_fallback: Option<String>,
    /// Whether the array cell abstraction proved the program (`ir::cells`, by Horn solving or
    /// by Houdini).
    pub cell_abstraction_proof: bool,
    /// Whether that proof came from Houdini over templates (`houdini`, `ir::cell_templates`).
    pub houdini_proof: bool,
    /// Whether Horn solving of the program itself proved it (`chc`).
    pub horn_proof: bool,
    /// The strategy of the run (`--engine`).
    pub strategy: String,
    /// The engine of the strategy that decided (of the last entry procedure).
    pub engine: Option<String>,
}

impl Stats {
    /// Adds what another part of the run did (a lane of a parallel portfolio): counters and
    /// times are summed, flags joined; the names (`solver`, `strategy`, `engine`) stay.
    pub fn absorb(&mut self, o: &Stats) {
        self.iterations += o.iterations;
        self.trace_checks += o.trace_checks;
        self.sequences += o.sequences;
        self.perfect_sequences += o.perfect_sequences;
        self.fallbacks += o.fallbacks;
        self.quantified_predicates += o.quantified_predicates;
        self.hoare_checks += o.hoare_checks;
        self.hoare_solver_calls += o.hoare_solver_calls;
        self.abstraction_states += o.abstraction_states;
        self.time_abstraction_ms += o.time_abstraction_ms;
        self.time_trace_check_ms += o.time_trace_check_ms;
        self.time_sequence_ms += o.time_sequence_ms;
        self.trace_solver += o.trace_solver;
        self.hoare_solver += o.hoare_solver;
        self.interpolator += o.interpolator;
        if self.first_fallback.is_none() {
            self.first_fallback.clone_from(&o.first_fallback);
        }
        self.cell_abstraction_proof |= o.cell_abstraction_proof;
        self.houdini_proof |= o.houdini_proof;
        self.horn_proof |= o.horn_proof;
    }
}

impl std::ops::AddAssign for SolverUse {
    fn add_assign(&mut self, o: SolverUse) {
        self.queries += o.queries;
        self.time_ms += o.time_ms;
        self.unknowns += o.unknowns;
        self.timeouts += o.timeouts;
        self.restarts += o.restarts;
    }
}

/// What one solver instance did (summed over entry procedures).
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct SolverUse {
    pub queries: u64,
    pub time_ms: u128,
    pub unknowns: u64,
    pub timeouts: u64,
    pub restarts: u64,
}

impl std::ops::AddAssign<SolverStats> for SolverUse {
    fn add_assign(&mut self, s: SolverStats) {
        self.queries += s.queries;
        self.time_ms += s.time.as_millis();
        self.unknowns += s.unknowns;
        self.timeouts += s.timeouts;
        self.restarts += s.restarts;
    }
}

/// A verdict with the run's statistics.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    pub stats: Stats,
    /// For TRUE: the loop invariants of every entry procedure and whether they passed their check.
    pub proof: Option<Proof>,
}

/// Verifies every entry procedure of the program; the first FALSE decides, all TRUE gives TRUE.
pub fn verify(program: &ir::Program, config: &Config) -> Outcome {
    let start = Instant::now();
    let mut stats = Stats { solver: config.solver.to_string(), strategy: config.strategy.to_string(), ..Stats::default() };
    // A Boogie program without implementations has no execution to check: it is correct.
    let mut unknown = None;
    let mut proof = Proof { invariants: vec![], checked: Some(true) };
    for entry in &program.entries {
        let prepared = if config.inline { Ok(None) } else { ir::prepare_nested(program, entry) }.and_then(|n| match n {
            Some(np) => Ok(Prepared::Nested(np)),
            None => ir::prepare(program, entry).map(Prepared::Flat),
        });
        let (verdict, entry_proof) = match prepared {
            Ok(prepared) => config.strategy.run(&Task { entry, prepared: &prepared }, config, &mut stats),
            Err(e) => (Verdict::unknown(format!("{entry}: {e}")), None),
        };
        match (entry_proof, proof.checked) {
            (Some(p), Some(ok)) => {
                proof.invariants.extend(p.invariants);
                proof.checked = p.checked.map(|c| c && ok);
            }
            _ => proof.checked = None,
        }
        match verdict {
            Verdict::Safe => {}
            Verdict::Unsafe(c) => {
                stats.time_total_ms = start.elapsed().as_millis();
                return Outcome { verdict: Verdict::Unsafe(c), stats, proof: None };
            }
            Verdict::Unknown(u) => {
                unknown.get_or_insert(u);
            }
        }
    }
    stats.time_total_ms = start.elapsed().as_millis();
    let verdict = unknown.map_or(Verdict::Safe, Verdict::Unknown);
    let proof = matches!(verdict, Verdict::Safe).then_some(proof);
    Outcome { verdict, stats, proof }
}
