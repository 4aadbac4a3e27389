//! The results of a verification run, shared by the layers above the program model: the
//! engines produce them, `report` and `witness` read them. A verdict (TRUE, FALSE with a
//! counterexample, UNKNOWN with the reason), the proof of a TRUE answer (invariants), and the
//! run's statistics. Everything is over the program model (`ir` statements and locations, `smt`
//! terms): the source language's names and types are the front end's back-translation map's.

mod question;

pub use question::{Property, PropertyError, Question, UNCHECKED_PROPERTIES};

use ir::{SourcePos, SourceType, Stmt, Violation};
use serde::Serialize;
use smt::{SolverStats, Term};
use std::collections::BTreeMap;

/// One step of a counterexample.
#[derive(Clone, Debug)]
pub struct CexStep {
    /// Where the step is in the source, when known.
    pub pos: Option<SourcePos>,
    /// What the step does (an original edge's statement, or a large block's).
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
    /// In a concurrent program: the thread that takes the step (0: the entry's thread).
    pub thread: Option<usize>,
    /// For a step that starts a thread: which.
    pub starts_thread: Option<usize>,
}

/// A value chosen by an input function (`__VERIFIER_nondet_int()`).
#[derive(Clone, Debug)]
pub struct NondetValue {
    /// The input function called (`__VERIFIER_nondet_int`).
    pub function: String,
    /// The source-language type of the value (the front end's back-translation map says which).
    pub ty: SourceType,
    /// The value returned (a literal).
    pub value: Term,
}

/// A feasible error path.
#[derive(Clone, Debug)]
pub struct Counterexample {
    /// The procedure verified as entry point.
    pub entry: String,
    /// The property violated, and where.
    pub violation: Violation,
    /// Values before the first step.
    pub initial: BTreeMap<Term, Term>,
    /// The steps from the entry to the error location.
    pub steps: Vec<CexStep>,
    /// Whether the steps are the program's own statements; false when the solver could not
    /// resolve the large blocks of the error trace (the steps are then large blocks).
    pub source_steps: bool,
    /// A nontermination counterexample (a lasso): the steps from this index on are the loop,
    /// which repeats forever; the steps before it are the stem.
    pub loop_start: Option<usize>,
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
        Verdict::Unknown(Unknown::new(reason))
    }

    /// An UNKNOWN that another run may decide ([`Retry`]): the run ends there (the other
    /// engines read the same statements, and the other run needs the time).
    pub fn awaits_retry(&self) -> bool {
        matches!(self, Verdict::Unknown(u) if u.retry.is_some())
    }
}

/// Why a run ended without a verdict.
#[derive(Clone, Debug)]
pub struct Unknown {
    /// Why (a timeout, an over-approximation on a feasible error trace, an unsupported construct).
    pub reason: String,
    /// Another run that may decide where this one could not.
    pub retry: Option<Retry>,
}

impl Unknown {
    /// UNKNOWN for `reason`, which no other run would change.
    pub fn new(reason: impl Into<String>) -> Unknown {
        Unknown { reason: reason.into(), retry: None }
    }

    /// The same, its reason said to come from `origin` (an engine's name).
    pub fn prefixed(self, origin: &str) -> Unknown {
        Unknown { reason: format!("{origin}: {}", self.reason), ..self }
    }
}

/// A run that may decide where an UNKNOWN one could not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Retry {
    /// The run ended at a feasible error trace that no exact statement confirms, and every
    /// over-approximation on it is one the front end's bit-precise translation models exactly
    /// (`Edge::bit_precise_exact`: bitwise operators, `float` and `double` under integer
    /// semantics): that translation can still decide, where this one cannot refine.
    BitPrecise,
    /// A feasible trace starts more threads of one procedure than the model has instances, and
    /// every other error is unreachable: more instances may decide.
    MoreThreadInstances,
}

/// Counters and timings of a run (the figures the seed paper reports).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Stats {
    /// Refinement iterations of the CEGAR loop.
    pub iterations: usize,
    /// Error traces checked for feasibility.
    pub trace_checks: usize,
    /// Assertion sequences computed for infeasible traces.
    pub sequences: usize,
    /// Sequences that are inductive for the trace's path program (portfolio only).
    pub perfect_sequences: usize,
    /// Sequences the requested source could not produce (another source was used).
    pub fallbacks: usize,
    /// Predicates with quantifiers (left by quantifier elimination).
    pub quantified_predicates: usize,
    /// Hoare triples the interpolant automata asked for (cache hits included).
    pub hoare_checks: usize,
    /// Hoare triples neither the cache nor a syntactic check decided (the solver did).
    pub hoare_solver_calls: usize,
    /// States of the interpolant automata.
    pub abstraction_states: usize,
    /// Statements of the entries' call-free programs before and after slicing (an assignment
    /// or havoc counts once per variable; 0 when nothing was sliced).
    pub statements_before_slicing: usize,
    pub statements_after_slicing: usize,
    /// Time spent searching the abstraction for an error trace.
    pub time_abstraction_ms: u128,
    /// Time spent checking traces.
    pub time_trace_check_ms: u128,
    /// Time spent computing assertion sequences.
    pub time_sequence_ms: u128,
    /// Time of the whole run.
    pub time_total_ms: u128,
    /// The solver of trace checks and Hoare triples (`z3` or `smtlib:COMMAND`).
    pub solver: String,
    /// The solver instance of trace checks.
    pub trace_solver: SolverUse,
    /// The solver instance of Hoare-triple queries.
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
    /// Termination: lassos analysed (each iteration of the Büchi loop takes one).
    pub lassos: usize,
    /// Termination: lassos refuted by a ranking function, by the template that found it.
    pub ranking_templates: BTreeMap<String, usize>,
    /// Termination: nontermination arguments found.
    pub nontermination_arguments: usize,
    /// Termination: time spent synthesizing ranking functions and nontermination arguments.
    pub time_lasso_ms: u128,
    /// Concurrent programs: the states and transitions of the product of the threads, after
    /// the partial-order reduction.
    pub interleaved_states: usize,
    pub interleaved_transitions: usize,
    /// The engine `art`: nodes of the abstract reachability tree created.
    pub art_nodes: usize,
    /// Bounded model checking: the depth (letters) the unrolling reached.
    pub bmc_depth: usize,
    /// Conditional interpolation: guards checked against their path, how many of them the
    /// chain cache answered, and how many gave an interpolant (pruned the branch).
    pub conditional_checks: usize,
    pub conditional_cache_hits: usize,
    pub conditional_interpolants: usize,
    /// Guards not checked because their chain reads arrays.
    pub conditional_skipped: usize,
    /// The letters of the paths of those checks, and of their chains (after simplification).
    pub conditional_path_steps: usize,
    pub conditional_chain_steps: usize,
    /// Time spent in conditional interpolation.
    pub time_conditional_ms: u128,
}

impl Stats {
    /// Adds what another part of the run did (a lane of a parallel portfolio): counters and
    /// times are summed, flags joined; the names (`solver`, `strategy`, `engine`) stay.
    pub fn absorb(&mut self, o: &Stats) {
        self.iterations += o.iterations;
        self.statements_before_slicing += o.statements_before_slicing;
        self.statements_after_slicing += o.statements_after_slicing;
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
        self.lassos += o.lassos;
        for (t, n) in &o.ranking_templates {
            *self.ranking_templates.entry(t.clone()).or_default() += n;
        }
        self.nontermination_arguments += o.nontermination_arguments;
        self.time_lasso_ms += o.time_lasso_ms;
        self.interleaved_states += o.interleaved_states;
        self.interleaved_transitions += o.interleaved_transitions;
        self.art_nodes += o.art_nodes;
        self.bmc_depth = self.bmc_depth.max(o.bmc_depth);
        self.conditional_checks += o.conditional_checks;
        self.conditional_cache_hits += o.conditional_cache_hits;
        self.conditional_interpolants += o.conditional_interpolants;
        self.conditional_skipped += o.conditional_skipped;
        self.conditional_path_steps += o.conditional_path_steps;
        self.conditional_chain_steps += o.conditional_chain_steps;
        self.time_conditional_ms += o.time_conditional_ms;
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
    /// Satisfiability checks.
    pub queries: u64,
    /// Time spent in them.
    pub time_ms: u128,
    /// Checks answered `unknown`.
    pub unknowns: u64,
    /// Checks stopped by their timeout.
    pub timeouts: u64,
    /// Restarts of an external solver process.
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
    /// The answer.
    pub verdict: Verdict,
    /// The run's counters and timings.
    pub stats: Stats,
    /// For TRUE: the loop invariants of every entry procedure and whether they passed their check.
    pub proof: Option<Proof>,
}

/// Where an invariant holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// At a loop head, before each evaluation of the loop condition.
    LoopHead,
    /// At the entry of a procedure (its precondition, for the calls the program makes).
    Entry,
    /// At the exit of a procedure (its postcondition, over the procedure's frame and `old(g)`).
    Exit,
}

/// The invariant of one loop head, or of a procedure's entry or exit.
#[derive(Clone, Debug)]
pub struct Invariant {
    /// Where it holds.
    pub role: Role,
    /// The entry procedure whose verification produced it.
    pub entry: String,
    /// The procedure (C function) of the loop.
    pub function: Option<String>,
    /// The position of the loop (its first statement: the loop condition), or of the procedure.
    pub pos: Option<SourcePos>,
    /// Over the program variables.
    pub formula: Term,
}

/// The evidence of a TRUE answer: the loop invariants (and procedure entry and exit
/// invariants of recursive programs) and the result of checking the whole annotation they
/// belong to.
#[derive(Clone, Debug, Default)]
pub struct Proof {
    /// The invariants reported.
    pub invariants: Vec<Invariant>,
    /// `Some(true)`: every location's invariant is inductive and error locations get `false`;
    /// `Some(false)`: a query failed; `None`: the check did not run or a query was undecided
    /// (time was up).
    pub checked: Option<bool>,
    /// Termination: the ranking function of each lasso loop the proof needed.
    pub rankings: Vec<Ranking>,
    /// Entries proved by following every path to its end or back to a state it passed (none
    /// reaches an error).
    pub explorations: Vec<Exploration>,
}

/// A proof by exhaustion: every path of an entry's program was followed to its end or until it
/// returned to a state it had passed, and none reaches an error (the program has finitely many
/// paths, or finitely many states on its paths).
#[derive(Clone, Debug)]
pub struct Exploration {
    /// The entry procedure.
    pub entry: String,
    /// The statements executed, summed over all paths (shared prefixes once).
    pub steps: usize,
    /// The length of the longest path, in statements.
    pub longest: usize,
}

/// A ranking function that shows a loop of a lasso terminates: every iteration from a state
/// satisfying the supporting invariants decreases it (as its template defines), and it
/// cannot decrease forever.
#[derive(Clone, Debug)]
pub struct Ranking {
    /// Where the loop is (its first statement).
    pub pos: Option<SourcePos>,
    /// The template that found it (`affine`, `nested-2`, `lexicographic-2`, ...).
    pub template: String,
    /// Its components (one for an affine function), over program variables.
    pub components: Vec<Term>,
    /// What holds at the loop head whenever the loop is entered.
    pub supporting_invariants: Vec<Term>,
}
