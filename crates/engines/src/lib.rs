//! Verification algorithms over the program model. An engine answers which error location is
//! reachable and by which path, or proves that none is; it never prints.

pub mod annotation;
mod art;
pub mod automizer;
mod bmc;
mod buchi;
mod budget;
mod cegar;
mod cex;
pub mod chc;
mod exec;
pub mod houdini;
mod interleaving;
pub mod nested;
pub mod portfolio;
mod predicate_dfa;
mod sources;
pub mod strategy;

use smt::SolverSpec;
use std::time::{Duration, Instant};

pub use annotation::{Invariant, Proof, Role};
pub use art::ArtOptions;
pub use budget::CancelToken;
pub use lasso::Family as RankingFamily;
pub use refine::Source;
pub use strategy::{Engine, Prepared, Strategy, Task};
pub use verdict::{
    CexStep, Counterexample, NondetValue, Outcome, Property, PropertyError, Question, Retry, SolverUse, Stats, Unknown, Verdict,
};

/// Settings of a verification run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Source of assertion sequences for infeasible traces.
    pub source: Source,
    /// Wall-clock deadline of the whole run.
    pub deadline: Option<Instant>,
    /// Compose straight-line code and branches into large blocks.
    pub large_blocks: bool,
    /// Slice call-free programs to the cone of influence of their error locations (not for
    /// termination, which every statement may decide).
    pub slice: bool,
    /// Add an accelerated self-loop next to each self-loop path with a closed form (linear
    /// ones; the engine `bmc` takes every closed form); `false`: none.
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
    /// What the run checks: only engines that decide this question run.
    pub question: Question,
    /// The ranking template families termination tries.
    pub ranking_families: Vec<RankingFamily>,
    /// How many instances of each procedure started as a thread a concurrent program has (a
    /// run that starts more at once ends UNKNOWN).
    pub thread_instances: usize,
    /// The partial-order reduction of the interleavings of threads.
    pub por: Por,
    /// When statements of different threads commute, for the sleep sets.
    pub commutativity: ir::por::Commutativity,
    /// How the engine `art` builds its tree.
    pub art: ArtOptions,
}

/// A partial-order reduction of the interleavings of threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Por {
    /// Every interleaving.
    None,
    /// Sleep sets: of the words that differ in the order of independent moves, the least
    /// (`ir::por`).
    Sleep,
    /// Persistent sets: in a state, only one thread's moves where they are independent of all
    /// the others may still do (`ir::por::Persistent`).
    Persistent,
    /// Persistent sets, then sleep sets.
    Both,
}

impl std::str::FromStr for Por {
    type Err = String;

    fn from_str(s: &str) -> Result<Por, String> {
        match s {
            "none" => Ok(Por::None),
            "sleep" => Ok(Por::Sleep),
            "persistent" => Ok(Por::Persistent),
            "both" => Ok(Por::Both),
            _ => Err(format!("unknown reduction `{s}` (expected none, sleep, persistent or both)")),
        }
    }
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
            slice: true,
            accelerate: true,
            strategy: Strategy::default(),
            inline: false,
            query_timeout: Duration::from_secs(10),
            exact_recheck_timeout: Duration::from_secs(10),
            solver: SolverSpec::Z3,
            interpolator: smt::backend::split_command(smt::backend::DEFAULT_INTERPOLATOR),
            cancel: CancelToken::default(),
            jobs: 1,
            question: Question::default(),
            ranking_families: RankingFamily::ALL.to_vec(),
            thread_instances: 4,
            por: Por::Both,
            commutativity: ir::por::Commutativity::Semantic,
            art: ArtOptions::default(),
        }
    }
}

/// The program of `entry` as the engines take it: threads if it starts any, nested words if it
/// is recursive (and not `--inline`), otherwise one call-free CFG.
fn prepare(program: &ir::Program, entry: &str, config: &Config, stats: &mut Stats) -> Result<Prepared, ir::PrepareError> {
    if let Some(tp) = ir::prepare_threads(program, entry, config.thread_instances)? {
        return Ok(Prepared::Concurrent(tp));
    }
    let sequential = ir::threads::without_atomic_sections(program);
    let program = sequential.as_ref().unwrap_or(program);
    let nested = if config.inline { None } else { ir::prepare_nested(program, entry)? };
    match nested {
        Some(np) => Ok(Prepared::Nested(np)),
        None => {
            let cfg = ir::prepare(program, entry)?;
            if !config.slice || config.question == Question::Termination {
                return Ok(Prepared::Flat(cfg));
            }
            let (sliced, size) = ir::slice(&cfg);
            stats.statements_before_slicing += size.statements.0;
            stats.statements_after_slicing += size.statements.1;
            Ok(Prepared::Flat(sliced))
        }
    }
}

/// Verifies every entry procedure of the program; the first FALSE decides, all TRUE gives TRUE.
/// A program that starts threads is verified again, while time is left, with more thread
/// instances when a run needed more (one more, then two, four, ...: the fewest instances that
/// start the threads a bug needs have the fewest interleavings); each run is exact for its number
/// of instances (a fork beyond them is never TRUE), so any of them may decide.
pub fn verify(program: &ir::Program, config: &Config) -> Outcome {
    let mut outcome = verify_entries(program, config);
    let mut config = config.clone();
    let mut step = 1;
    let mut first_reason: Option<String> = None;
    while let Verdict::Unknown(u) = &outcome.verdict {
        if u.retry != Some(Retry::MoreThreadInstances) {
            break;
        }
        step *= 2;
        let instances = config.thread_instances + step / 2;
        if config.cancel.is_cancelled() || config.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        tracing::info!("{}; verifying again with {instances} thread instances", u.reason);
        let first = first_reason.get_or_insert_with(|| u.reason.clone()).clone();
        config.thread_instances = instances;
        // (a tenth of the time left is kept: a run cut at the deadline may take a while to let
        // go of its solvers, and the answer should still say why the first run did not decide)
        let run = Config { deadline: config.deadline.map(|d| d - d.saturating_duration_since(Instant::now()) / 10), ..config.clone() };
        let mut again = verify_entries(program, &run);
        again.stats.absorb(&outcome.stats);
        again.stats.time_total_ms += outcome.stats.time_total_ms;
        if let Verdict::Unknown(u) = &mut again.verdict {
            // the first reason, and what the last run with other instances says
            u.reason = format!("{first}; with {instances} thread instances: {}", u.reason);
        }
        outcome = again;
    }
    outcome
}

/// One run of [`verify`] with the configured thread instances.
fn verify_entries(program: &ir::Program, config: &Config) -> Outcome {
    let start = Instant::now();
    let mut stats = Stats { solver: config.solver.to_string(), strategy: config.strategy.to_string(), ..Stats::default() };
    let prepared: Vec<Result<Prepared, String>> =
        program.entries.iter().map(|entry| prepare(program, entry, config, &mut stats).map_err(|e| format!("{entry}: {e}"))).collect();
    let tasks: Vec<Task> =
        program.entries.iter().zip(&prepared).filter_map(|(entry, p)| Some(Task { entry, prepared: p.as_ref().ok()? })).collect();
    let mut answers: Vec<(Verdict, Option<Proof>)> = vec![];
    // the entries in order; the first FALSE ends the run
    config.strategy.run_each(&tasks, config, &mut stats, &mut |answer| {
        let go_on = !matches!(answer.0, Verdict::Unsafe(_));
        answers.push(answer);
        go_on
    });
    let mut answers = answers.into_iter();
    // A Boogie program without implementations has no execution to check: it is correct.
    let mut unknown = None;
    let mut proof = Proof { checked: Some(true), ..Proof::default() };
    for prepared in &prepared {
        let (verdict, entry_proof) = match prepared {
            // (no answer: the portfolio could not run; an entry after a FALSE is never reached)
            Ok(_) => answers.next().unwrap_or_else(|| (Verdict::unknown("the engines gave no answer"), None)),
            Err(e) => (Verdict::unknown(e.clone()), None),
        };
        match (entry_proof, proof.checked) {
            (Some(p), Some(ok)) => {
                proof.invariants.extend(p.invariants);
                proof.rankings.extend(p.rankings);
                proof.explorations.extend(p.explorations);
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
