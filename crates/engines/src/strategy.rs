//! Engines and the strategy that runs them. Every verification algorithm is an [`Engine`]: given
//! a prepared task and a configuration (whose deadline and cancellation token bound it), it
//! answers TRUE with a checked proof, FALSE with a feasible trace, or UNKNOWN with a reason. A
//! [`Strategy`] is data: a list of engines, each with its share of the time left, tried in order
//! until one answers TRUE or FALSE.

use crate::annotation::{self, Proof};
use crate::{automizer, buchi, chc, houdini, interleaving, nested, Config, Question, Stats, Unknown, Verdict};
use ir::{Cfg, NestedProgram, ThreadProgram};
use smt::Term;
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// One entry procedure, prepared for the engines.
pub enum Prepared {
    /// Every call inlined: one call-free CFG.
    Flat(Cfg),
    /// Recursion kept: the entry and each recursive procedure's CFG with call edges.
    Nested(NestedProgram),
    /// Threads: the entry's thread and the instances of every procedure it may start.
    Concurrent(ThreadProgram),
}

/// A verification task: an entry procedure and its prepared program.
pub struct Task<'a> {
    pub entry: &'a str,
    pub prepared: &'a Prepared,
}

/// A verification algorithm over prepared tasks.
pub trait Engine: Sync {
    /// The name `--engine` knows it by.
    fn name(&self) -> &'static str;
    /// What it does, in a few words (for `--help`).
    fn about(&self) -> &'static str;
    /// Why it does not apply to `task` under `config`, if it does not.
    fn not_applicable(&self, task: &Task, config: &Config) -> Option<String>;
    /// Whether it decides `question` (`Config::question`): the reachability of error locations,
    /// unless it says otherwise. A strategy skips the engines that do not.
    fn decides(&self, question: &Question) -> bool {
        matches!(question, Question::Safety(_))
    }
    /// Whether it answers both TRUE and FALSE on programs in general (not only proves, or only
    /// refutes, or proves only programs of a special shape). The last such step of a strategy
    /// is its main engine.
    fn decides_both(&self) -> bool {
        true
    }
    /// Verifies `task` within `config.deadline`, stopping early when `config.cancel` is raised.
    /// A TRUE answer comes with its checked proof.
    fn run(&self, task: &Task, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>);
}

/// The CFG the engines that search paths explore: without its dead ends
/// ([`ir::without_dead_ends`]), in large blocks and with loops accelerated by linear closed
/// forms, as configured.
pub(crate) fn encode(cfg: &Cfg, config: &Config) -> Cfg {
    encode_with(cfg, config, ir::Acceleration::Linear)
}

/// [`encode`] with loops accelerated by closed forms of the given kind.
pub(crate) fn encode_with(cfg: &Cfg, config: &Config, kind: ir::Acceleration) -> Cfg {
    accelerated(blocks(&ir::without_dead_ends(cfg), config), config, kind)
}

/// The CFG of the array cell abstraction whose Horn clauses `cells` solves: [`encode`] with the
/// edges into dead ends kept. Their clauses constrain nothing, but Spacer's search depends on
/// the clause set: without them it lost a proof it finds in a second (an `abort()` in an array
/// loop, sv's `array_init_nondet_vars`). (`horn` takes [`encode`]'s CFG: with the dead ends, a
/// thousand input checks made its encoding alone take longer than its share.)
fn cells_encoding(cfg: &Cfg, config: &Config) -> Cfg {
    accelerated(blocks(cfg, config), config, ir::Acceleration::Linear)
}

/// `cfg` with loops accelerated by closed forms of the given kind, if so configured.
fn accelerated(cfg: Cfg, config: &Config, kind: ir::Acceleration) -> Cfg {
    if config.accelerate {
        ir::accelerate(&cfg, kind)
    } else {
        cfg
    }
}

/// `cfg` in large blocks if so configured.
fn blocks(cfg: &Cfg, config: &Config) -> Cfg {
    if config.large_blocks {
        ir::large_block_encoding(cfg)
    } else {
        cfg.clone()
    }
}

/// Runs `f` on the program automaton of `task` (an engine that explores the automaton itself:
/// flat words, nested words, or the interleavings of threads), its flat loops accelerated by
/// closed forms of the given kind; `Err` if it cannot be built.
pub(crate) fn on_automaton<R>(
    task: &Task,
    config: &Config,
    acceleration: ir::Acceleration,
    stats: &mut Stats,
    f: impl FnOnce(&dyn crate::cegar::Abstraction, &mut Stats) -> R,
) -> Result<R, Unknown> {
    match task.prepared {
        Prepared::Flat(cfg) => {
            let encoded = encode_with(cfg, config, acceleration);
            automizer::Flat::new(cfg, &encoded).map(|a| f(&a, stats)).map_err(Unknown::new)
        }
        Prepared::Concurrent(tp) => {
            let a = interleaving::Interleaved::new(tp, config);
            let r = f(&a, stats);
            a.count(stats);
            Ok(r)
        }
        Prepared::Nested(np) => nested::build(np, config).map(|p| f(&p, stats)).map_err(Unknown::new),
    }
}

/// A checked proof of `encoded` from a model of its Horn clauses found within `limit`.
fn horn_proof(entry: &str, encoded: &Cfg, limit: Duration, config: &Config) -> Option<Proof> {
    match chc::annotation(encoded, limit.as_millis() as u64) {
        Ok(Some(inv)) => {
            let proof = annotation::proof(entry, encoded, &inv, config.deadline, &config.solver);
            if proof.checked == Some(true) {
                return Some(proof);
            }
            tracing::debug!("the Horn model of {entry} failed its check");
        }
        Ok(None) => tracing::debug!("the Horn clauses of {entry} have no model (an error is reachable)"),
        Err(e) => tracing::debug!("Horn solving of {entry}: {e}"),
    }
    None
}

/// A checked proof of `encoded` from the candidates that Houdini keeps before `deadline`.
fn houdini_proof(entry: &str, encoded: &Cfg, candidates: &[Term], deadline: Option<Instant>, config: &Config) -> Option<Proof> {
    let inv = houdini::annotation(encoded, candidates, deadline, &config.solver)?;
    let proof = annotation::proof(entry, encoded, &inv, config.deadline, &config.solver);
    if proof.checked != Some(true) {
        tracing::debug!("the Houdini annotation of {entry} failed its check");
        return None;
    }
    Some(proof)
}

/// The time left before the run's deadline (`None`: no deadline).
fn time_left(config: &Config) -> Option<Duration> {
    config.deadline.map(|d| d.saturating_duration_since(Instant::now()))
}

fn flat<'a>(task: &Task<'a>) -> Option<&'a Cfg> {
    match task.prepared {
        Prepared::Flat(cfg) => Some(cfg),
        Prepared::Nested(_) | Prepared::Concurrent(_) => None,
    }
}

/// Why an engine for call-free sequential programs does not apply to `task`.
fn not_flat(engine: &str, task: &Task) -> Option<String> {
    match task.prepared {
        Prepared::Flat(_) => None,
        Prepared::Nested(_) => Some(format!("{engine}: the program is recursive")),
        Prepared::Concurrent(_) => Some(format!("{engine}: the program starts threads")),
    }
}

/// The answer of an engine that can only prove: TRUE with the proof, or UNKNOWN.
fn proved(proof: Option<Proof>, why_not: &str) -> (Verdict, Option<Proof>) {
    match proof {
        Some(p) => (Verdict::Safe, Some(p)),
        None => (Verdict::unknown(why_not), None),
    }
}

/// The array cell abstraction (`ir::cells`) of a call-free program, proved by Horn solving
/// (at most [`CellAbstraction::HORN_LIMIT`]) and then by Houdini over templates.
pub struct CellAbstraction;

impl CellAbstraction {
    /// Horn solving proves a cell abstraction within a second or not at all (a loop bound that
    /// is a constant, such as 100000, makes it unroll): Houdini needs the time more.
    const HORN_LIMIT: Duration = Duration::from_secs(2);
}

impl Engine for CellAbstraction {
    fn name(&self) -> &'static str {
        "cells"
    }

    fn decides_both(&self) -> bool {
        false
    }

    fn about(&self) -> &'static str {
        "array cell abstraction by Horn solving, then Houdini over range templates (can only prove)"
    }

    fn not_applicable(&self, task: &Task, _: &Config) -> Option<String> {
        not_flat("cells", task)
    }

    fn run(&self, task: &Task, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
        // Computed once, here: a program without integer-indexed arrays has none.
        let Some(cells) = flat(task).and_then(ir::cell_abstraction) else {
            return (Verdict::unknown("cells: no integer-indexed array"), None);
        };
        let encoded = cells_encoding(&cells, config);
        let horn_limit = time_left(config).map_or(Self::HORN_LIMIT, |l| l.min(Self::HORN_LIMIT));
        let proof = horn_proof(task.entry, &encoded, horn_limit, config).or_else(|| {
            let proof = houdini_proof(task.entry, &encoded, &ir::cell_candidates(&cells), config.deadline, config);
            stats.houdini_proof = proof.is_some();
            proof
        });
        stats.cell_abstraction_proof = proof.is_some();
        proved(proof, "cells: no proof of the cell abstraction")
    }
}

/// Horn solving (Z3's Spacer, in-process) of a call-free program's large-block CFG.
pub struct Horn;

impl Engine for Horn {
    fn name(&self) -> &'static str {
        "horn"
    }

    fn decides_both(&self) -> bool {
        false
    }

    fn about(&self) -> &'static str {
        "constrained Horn clauses of the program solved by Z3's Spacer, in-process (can only prove)"
    }

    fn not_applicable(&self, task: &Task, _: &Config) -> Option<String> {
        not_flat("horn", task)
    }

    fn run(&self, task: &Task, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
        let Some(cfg) = flat(task) else { return (Verdict::unknown("horn: not applicable"), None) };
        let limit = time_left(config).unwrap_or(Share::NO_DEADLINE);
        let proof = horn_proof(task.entry, &encode(cfg, config), limit, config);
        stats.horn_proof = proof.is_some();
        proved(proof, "horn: no model of the Horn clauses")
    }
}

/// Trace abstraction: the CEGAR loop on flat words, or on nested words for recursion.
pub struct TraceAbstraction;

impl Engine for TraceAbstraction {
    fn name(&self) -> &'static str {
        "automizer"
    }

    fn about(&self) -> &'static str {
        "trace abstraction with interpolant automata (flat words, nested words, interleavings of threads)"
    }

    fn not_applicable(&self, _: &Task, _: &Config) -> Option<String> {
        None
    }

    fn run(&self, task: &Task, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
        match task.prepared {
            Prepared::Flat(cfg) => automizer::verify_cfg(task.entry, cfg, &encode(cfg, config), config, stats),
            Prepared::Nested(np) => nested::verify_nested(task.entry, np, config, stats),
            Prepared::Concurrent(tp) => interleaving::verify(task.entry, tp, config, stats),
        }
    }
}

/// Termination: lassos of the program's Büchi automaton, ranking functions and
/// nontermination arguments ([`buchi`]).
pub struct Termination;

impl Engine for Termination {
    fn name(&self) -> &'static str {
        "buchi"
    }

    fn about(&self) -> &'static str {
        "termination: lassos of the Büchi program automaton, ranking functions, nontermination arguments"
    }

    fn not_applicable(&self, task: &Task, _: &Config) -> Option<String> {
        matches!(task.prepared, Prepared::Concurrent(_))
            .then(|| "buchi: termination of programs that start threads is not supported".into())
    }

    fn decides(&self, question: &Question) -> bool {
        *question == Question::Termination
    }

    fn run(&self, task: &Task, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
        match task.prepared {
            Prepared::Flat(cfg) => buchi::verify(task.entry, cfg, config, stats),
            Prepared::Nested(np) => match np.unfold_calls() {
                Ok(cfg) => buchi::verify(task.entry, &cfg, config, stats),
                Err(e) => (Verdict::unknown(format!("buchi: {e}")), None),
            },
            Prepared::Concurrent(_) => (Verdict::unknown("buchi: not applicable"), None),
        }
    }
}

/// Every engine, by name.
pub const ENGINES: [&dyn Engine; 8] = [
    &CellAbstraction,
    &Horn,
    &TraceAbstraction,
    &crate::art::Art,
    &crate::bmc::Bmc,
    &crate::exec::Exec { finite: false },
    &crate::exec::Exec { finite: true },
    &Termination,
];

/// How much of the time left an engine of a strategy gets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Share {
    /// The fraction of the time left when the engine starts (`1.0`: all of it).
    pub fraction: f64,
    /// At most this long.
    pub max: Option<Duration>,
}

impl Share {
    /// The whole time left.
    pub const REST: Share = Share { fraction: 1.0, max: None };
    /// The time of a share when the run has no deadline (a share of infinity is no limit for
    /// an engine that can only prove, which must leave time for the others).
    const NO_DEADLINE: Duration = Duration::from_secs(10);

    /// The deadline of an engine that starts now under `config`.
    fn deadline(&self, config: &Config) -> Option<Instant> {
        let now = Instant::now();
        if *self == Share::REST {
            return config.deadline;
        }
        let share = match time_left(config) {
            Some(left) => left.mul_f64(self.fraction),
            None => Share::NO_DEADLINE,
        };
        let share = self.max.map_or(share, |m| share.min(m));
        Some(config.deadline.map_or(now + share, |d| d.min(now + share)))
    }
}

/// The programs a step of a strategy is for (`NAME@KIND`): one kind of prepared task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Call-free after inlining.
    Flat,
    /// Call-free, with a loop that only a non-linear closed form accelerates (whose deep bugs
    /// only the engines that take such closed forms reach at once).
    Polynomial,
    /// With recursion.
    Recursive,
    /// Starting threads.
    Threads,
}

impl Kind {
    const ALL: [Kind; 4] = [Kind::Flat, Kind::Polynomial, Kind::Recursive, Kind::Threads];

    fn name(self) -> &'static str {
        match self {
            Kind::Flat => "flat",
            Kind::Polynomial => "polynomial",
            Kind::Recursive => "recursive",
            Kind::Threads => "threads",
        }
    }

    fn fits(self, task: &Task, config: &Config) -> bool {
        match (self, &task.prepared) {
            (Kind::Flat, Prepared::Flat(_)) | (Kind::Recursive, Prepared::Nested(_)) | (Kind::Threads, Prepared::Concurrent(_)) => true,
            (Kind::Polynomial, Prepared::Flat(cfg)) => {
                config.accelerate && ir::has_polynomial_loop(&blocks(&ir::without_dead_ends(cfg), config))
            }
            _ => false,
        }
    }
}

/// An engine of a strategy with its share of the time, and the kind of program it is for
/// (`None`: every kind).
#[derive(Clone, Copy)]
pub struct Step {
    pub engine: &'static dyn Engine,
    pub share: Share,
    pub only: Option<Kind>,
}

/// The engines a run tries, in order, each with its share of the time left; the first TRUE or
/// FALSE decides.
#[derive(Clone)]
pub struct Strategy(pub Vec<Step>);

impl fmt::Debug for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Default for Strategy {
    /// Symbolic execution for at most half a second (it decides a deterministic program, or
    /// one with few paths, faster than any proof: two thirds of the regression corpora), bounded
    /// model checking for at most a second on programs with a loop that only a non-linear
    /// closed form accelerates (trace abstraction does not take those closed forms), the
    /// array cell abstraction with a third of the time, Horn solving of the program with an
    /// eighth (at most 10 s: it proves what it proves within about a second on the corpora, and
    /// trace abstraction needs the rest), for programs with threads the abstract reachability
    /// tree with half (the two decide different tasks: together more than either), then trace
    /// abstraction, and the bug finders with what it leaves.
    fn default() -> Self {
        Strategy(vec![
            Step {
                engine: &crate::exec::Exec { finite: true },
                share: Share { fraction: 0.05, max: Some(Duration::from_millis(500)) },
                only: None,
            },
            Step {
                engine: &crate::bmc::Bmc,
                share: Share { fraction: 0.05, max: Some(Duration::from_secs(1)) },
                only: Some(Kind::Polynomial),
            },
            Step { engine: &CellAbstraction, share: Share { fraction: 1.0 / 3.0, max: None }, only: None },
            Step { engine: &Horn, share: Share { fraction: 1.0 / 8.0, max: Some(Duration::from_secs(10)) }, only: None },
            Step { engine: &crate::exec::Exec { finite: false }, share: Share { fraction: 0.25, max: None }, only: Some(Kind::Threads) },
            Step { engine: &crate::art::Art, share: Share { fraction: 0.5, max: None }, only: Some(Kind::Threads) },
            Step { engine: &TraceAbstraction, share: Share { fraction: 0.8, max: None }, only: None },
            Step { engine: &crate::bmc::Bmc, share: Share { fraction: 0.5, max: None }, only: None },
            Step { engine: &crate::exec::Exec { finite: false }, share: Share::REST, only: None },
        ])
    }
}

impl Strategy {
    /// The default strategy for `question` (for termination: the Büchi engine with all the time).
    pub fn for_question(question: &Question) -> Strategy {
        match question {
            Question::Safety(_) => Strategy::default(),
            Question::Termination => Strategy(vec![Step { engine: &Termination, share: Share::REST, only: None }]),
        }
    }

    /// The strategy without the engine `name`.
    pub fn without(mut self, name: &str) -> Strategy {
        self.0.retain(|s| s.engine.name() != name);
        self
    }

    /// Runs the strategy on each of `tasks` in order, giving each answer to `answer` until it
    /// returns `false`: in turn, or with `config.jobs > 1` as a parallel portfolio
    /// ([`crate::portfolio`]) whose lanes go through the tasks together.
    pub fn run_each(&self, tasks: &[Task], config: &Config, stats: &mut Stats, answer: &mut dyn FnMut((Verdict, Option<Proof>)) -> bool) {
        if config.jobs > 1 && self.0.len() > 1 {
            return crate::portfolio::run(self, tasks, config, stats, answer);
        }
        for task in tasks {
            if !answer(self.run_in_turn(task, config, stats)) {
                return;
            }
        }
    }

    /// Each applicable engine in turn with its share of the time, until one answers TRUE or
    /// FALSE (or the run is out of time or canceled). UNKNOWN gives the reason of the last
    /// engine that decides both ways, or else of the last engine.
    pub fn run_in_turn(&self, task: &Task, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
        let mut answer = None;
        let mut main_answer = None;
        let mut skipped = vec![];
        for step in &self.0 {
            if !step.engine.decides(&config.question) {
                skipped.push(format!("{}: does not decide {}", step.engine.name(), config.question.kind()));
                continue;
            }
            if let Some(kind) = step.only.filter(|&k| !k.fits(task, config)) {
                skipped.push(format!("{}: only for {} programs in this strategy", step.engine.name(), kind.name()));
                continue;
            }
            if let Some(why) = step.engine.not_applicable(task, config) {
                skipped.push(why);
                continue;
            }
            let budget = crate::budget::QueryBudget::of(config);
            if let Some(why) = budget.stopped() {
                return (Verdict::unknown(why), None);
            }
            let share = Config { deadline: step.share.deadline(config), ..config.clone() };
            tracing::debug!(engine = step.engine.name(), "running on {}", task.entry);
            let (verdict, proof) = step.engine.run(task, &share, stats);
            if !matches!(verdict, Verdict::Unknown(_)) {
                stats.engine = Some(step.engine.name().to_string());
                return (verdict, proof);
            }
            if step.engine.decides_both() {
                if verdict.awaits_retry() {
                    return (verdict, proof);
                }
                main_answer = Some((verdict, proof));
            } else {
                answer = Some((verdict, proof));
            }
        }
        main_answer.or(answer).unwrap_or_else(|| (Verdict::unknown(format!("no engine applies: {}", skipped.join("; "))), None))
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let steps: Vec<String> = self.0.iter().map(Step::to_string).collect();
        f.write_str(&steps.join(","))
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.engine.name())?;
        if let Some(kind) = self.only {
            write!(f, "@{}", kind.name())?;
        }
        if self.share != Share::REST {
            write!(f, ":{}%", (self.share.fraction * 1000.0).round() / 10.0)?;
        }
        if let Some(max) = self.share.max {
            write!(f, ":{}s", max.as_secs_f64())?;
        }
        Ok(())
    }
}

impl FromStr for Strategy {
    type Err = String;

    /// `NAME[@KIND][:PERCENT%[:MAXs]]` separated by commas:
    /// `cells:33.3%,horn:12.5%:10s,exec@threads:25%,art@threads:50%,automizer`. An engine without a share gets
    /// all the time left; one with a kind (`flat`, `polynomial`, `recursive`, `threads`) runs
    /// only on programs of that kind.
    fn from_str(s: &str) -> Result<Strategy, String> {
        let names = || ENGINES.iter().map(|e| e.name()).collect::<Vec<_>>().join(", ");
        let mut steps = vec![];
        for item in s.split(',').map(str::trim) {
            let mut parts = item.split(':');
            let head = parts.next().unwrap_or("");
            let (name, only) = match head.split_once('@') {
                None => (head, None),
                Some((name, kind)) => {
                    let kinds = || Kind::ALL.map(Kind::name).join(", ");
                    let kind = Kind::ALL
                        .into_iter()
                        .find(|k| k.name() == kind)
                        .ok_or_else(|| format!("unknown kind `{kind}` (expected {})", kinds()))?;
                    (name, Some(kind))
                }
            };
            let engine =
                *ENGINES.iter().find(|e| e.name() == name).ok_or_else(|| format!("unknown engine `{name}` (expected {})", names()))?;
            let mut share = Share::REST;
            if let Some(p) = parts.next() {
                let percent: f64 =
                    p.strip_suffix('%').and_then(|p| p.parse().ok()).ok_or_else(|| format!("`{p}`: expected a share like 25%"))?;
                if !(percent > 0.0 && percent <= 100.0) {
                    return Err(format!("`{p}`: a share is more than 0% and at most 100%"));
                }
                share.fraction = percent / 100.0;
            }
            if let Some(m) = parts.next() {
                let secs: f64 =
                    m.strip_suffix('s').and_then(|m| m.parse().ok()).ok_or_else(|| format!("`{m}`: expected a time like 10s"))?;
                share.max = Some(Duration::try_from_secs_f64(secs).map_err(|_| format!("`{m}`: not a time"))?);
            }
            if let Some(extra) = parts.next() {
                return Err(format!("`{item}`: unexpected `:{extra}`"));
            }
            steps.push(Step { engine, share, only });
        }
        Ok(Strategy(steps))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_strategy_reads_back() {
        let text = Strategy::default().to_string();
        assert_eq!(text, "exec-finite:5%:0.5s,bmc@polynomial:5%:1s,cells:33.3%,horn:12.5%:10s,exec@threads:25%,art@threads:50%,automizer:80%,bmc:50%,exec");
        let back: Strategy = text.parse().expect("parses");
        assert_eq!(back.to_string(), text);
        assert_eq!(back.0[0].share, Share { fraction: 0.05, max: Some(Duration::from_millis(500)) });
        assert_eq!(back.0[1].only, Some(Kind::Polynomial));
        assert_eq!(back.0[3].share, Share { fraction: 0.125, max: Some(Duration::from_secs(10)) });
    }

    #[test]
    fn engines_without_shares_get_the_rest() {
        let s: Strategy = "horn,automizer".parse().expect("parses");
        assert_eq!(s.0.iter().map(|s| s.engine.name()).collect::<Vec<_>>(), ["horn", "automizer"]);
        assert!(s.0.iter().all(|s| s.share == Share::REST));
    }

    #[test]
    fn bad_strategies_are_rejected_with_the_reason() {
        let err = |s: &str| s.parse::<Strategy>().expect_err("rejected");
        assert!(err("cbmc").contains("unknown engine `cbmc`"));
        assert!(err("art@loops").contains("unknown kind `loops`"));
        assert!(err("horn:0%").contains("more than 0%"));
        assert!(err("horn:ten").contains("expected a share"));
        assert!(err("horn:10%:5").contains("expected a time"));
        assert!(err("horn:10%:5s:x").contains("unexpected"));
        assert!(err("").contains("unknown engine ``"));
    }

    #[test]
    fn a_share_is_cut_at_its_maximum_and_at_the_deadline() {
        let deadline = Instant::now() + Duration::from_secs(100);
        let config = Config { deadline: Some(deadline), ..Config::default() };
        let eighth = Share { fraction: 0.125, max: Some(Duration::from_secs(10)) };
        let d = eighth.deadline(&config).expect("a deadline");
        assert!(d <= Instant::now() + Duration::from_secs(10));
        let half = Share { fraction: 0.5, max: None }.deadline(&config).expect("a deadline");
        assert!(half < deadline && half > Instant::now() + Duration::from_secs(45));
        assert_eq!(Share::REST.deadline(&config), Some(deadline));
    }
}
