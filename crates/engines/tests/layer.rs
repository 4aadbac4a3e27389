//! The engine layer on hand-made programs: the CEGAR loop on a tiny counter loop (safe and
//! buggy, flat), the strategy's order and fall-through, and the parallel portfolio's
//! cancellation.

use engines::annotation::Proof;
use engines::strategy::{Share, Step};
use engines::{Config, Engine, Prepared, Stats, Strategy, Task, Verdict};
use ir::{Cfg, Stmt, Violation, ViolationKind};
use smt::build::*;
use smt::{Sort, Term};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// `x = 0; while (x < 10) x++; assert(x == expected);` as a CFG.
fn counter(expected: i64) -> Cfg {
    let x = Term::var("x", Sort::Int);
    let mut cfg = Cfg::default();
    let entry = cfg.add_loc("main.entry", None);
    let head = cfg.add_loc("main.head", None);
    let after = cfg.add_loc("main.after", None);
    let exit = cfg.add_loc("main.exit", None);
    let error = cfg.add_error_loc(Violation { kind: ViolationKind::Assert, pos: None });
    (cfg.entry, cfg.exit) = (entry, exit);
    cfg.add_stmt(entry, head, Stmt::Assign(vec![(x.clone(), int(0))]), None);
    let step = Stmt::Seq(vec![Stmt::Assume(lt(&x, &int(10))), Stmt::Assign(vec![(x.clone(), add(&[x.clone(), int(1)]))])]);
    cfg.add_stmt(head, head, step, None);
    cfg.add_stmt(head, after, Stmt::Assume(not(&lt(&x, &int(10)))), None);
    cfg.add_stmt(after, error, Stmt::Assume(not(&eq(&x, &int(expected)))), None);
    cfg.add_stmt(after, exit, Stmt::Assume(eq(&x, &int(expected))), None);
    cfg
}

fn config(strategy: &str, jobs: usize) -> Config {
    Config {
        deadline: Some(Instant::now() + Duration::from_secs(60)),
        strategy: strategy.parse().expect("a strategy"),
        accelerate: false,
        jobs,
        ..Config::default()
    }
}

fn run(cfg: Cfg, config: &Config) -> (Verdict, Option<Proof>, Stats) {
    let (mut answers, stats) = run_all(vec![cfg], config);
    let (v, p) = answers.pop().expect("an answer");
    (v, p, stats)
}

/// The answers for the entries `cfgs` in order, up to the first FALSE.
fn run_all(cfgs: Vec<Cfg>, config: &Config) -> (Vec<(Verdict, Option<Proof>)>, Stats) {
    let prepared: Vec<Prepared> = cfgs.into_iter().map(Prepared::Flat).collect();
    let tasks: Vec<Task> = prepared.iter().map(|p| Task { entry: "main", prepared: p }).collect();
    let mut stats = Stats::default();
    let mut answers = vec![];
    config.strategy.run_each(&tasks, config, &mut stats, &mut |a| {
        let go_on = !matches!(a.0, Verdict::Unsafe(_));
        answers.push(a);
        go_on
    });
    (answers, stats)
}

#[test]
fn the_loop_proves_a_counter_with_a_checked_invariant() {
    let (verdict, proof, stats) = run(counter(10), &config("automizer", 1));
    assert!(matches!(verdict, Verdict::Safe), "{verdict:?}");
    let proof = proof.expect("a proof");
    assert_eq!(proof.checked, Some(true));
    assert_eq!(proof.invariants.len(), 1, "one loop head: {:?}", proof.invariants);
    assert!(stats.iterations >= 2 && stats.sequences >= 1, "{stats:?}");
    assert_eq!(stats.engine.as_deref(), Some("automizer"));
}

#[test]
fn the_loop_finds_the_bug_with_its_values() {
    let (verdict, _, stats) = run(counter(9), &config("automizer", 1));
    let Verdict::Unsafe(cex) = verdict else { panic!("expected FALSE, got {verdict:?}") };
    assert_eq!(cex.violation.kind, ViolationKind::Assert);
    assert!(cex.source_steps);
    // The path enters the loop ten times; after the last step x is 10.
    let x = Term::var("x", Sort::Int);
    assert_eq!(cex.steps.last().and_then(|s| s.values.get(&x)), Some(&int(10)));
    assert_eq!(stats.engine.as_deref(), Some("automizer"));
}

#[test]
fn a_strategy_falls_through_engines_that_only_prove() {
    // Horn solving proves the safe counter; on the buggy one it has no model, so trace
    // abstraction decides.
    let (verdict, _, stats) = run(counter(10), &config("horn:50%,automizer", 1));
    assert!(matches!(verdict, Verdict::Safe));
    assert_eq!(stats.engine.as_deref(), Some("horn"));
    assert!(stats.horn_proof);
    let (verdict, _, stats) = run(counter(9), &config("horn:50%,automizer", 1));
    assert!(matches!(verdict, Verdict::Unsafe(_)), "{verdict:?}");
    assert_eq!(stats.engine.as_deref(), Some("automizer"));
    // An engine alone that can only prove answers UNKNOWN on a bug, never FALSE.
    let (verdict, _, _) = run(counter(9), &config("horn", 1));
    assert!(matches!(verdict, Verdict::Unknown(_)), "{verdict:?}");
}

/// Set when [`Stubborn`] saw the cancellation.
static CANCELED: AtomicBool = AtomicBool::new(false);

/// An engine that never answers by itself: it waits until it is canceled or out of time.
struct Stubborn;

impl Engine for Stubborn {
    fn name(&self) -> &'static str {
        "stubborn"
    }
    fn about(&self) -> &'static str {
        "waits for its cancellation"
    }
    fn not_applicable(&self, _: &Task, _: &Config) -> Option<String> {
        None
    }
    fn run(&self, _: &Task, config: &Config, _: &mut Stats) -> (Verdict, Option<Proof>) {
        while config.deadline.is_none_or(|d| Instant::now() < d) {
            if config.cancel.is_cancelled() {
                CANCELED.store(true, Ordering::SeqCst);
                return (Verdict::unknown("canceled"), None);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        (Verdict::unknown("timeout"), None)
    }
}

#[test]
fn the_first_answer_of_a_portfolio_cancels_the_others() {
    // The stubborn engine is the strategy's last: it runs on a lane of its own with all the
    // time, and only the cancellation ends it.
    let strategy = Strategy(vec![
        Step { engine: &engines::strategy::TraceAbstraction, share: Share { fraction: 0.5, max: None }, only: None },
        Step { engine: &Stubborn, share: Share::REST, only: None },
    ]);
    let config = Config { strategy, ..config("automizer", 2) };
    let started = Instant::now();
    let (verdict, _, stats) = run(counter(9), &config);
    assert!(matches!(verdict, Verdict::Unsafe(_)), "{verdict:?}");
    assert_eq!(stats.engine.as_deref(), Some("automizer"));
    assert!(CANCELED.load(Ordering::SeqCst), "the other lane was not canceled");
    assert!(started.elapsed() < Duration::from_secs(30), "the portfolio waited for its deadline");
}

#[test]
fn a_portfolio_goes_through_the_entries_in_order_and_stops_at_a_false() {
    let config = config("horn:50%,automizer", 2);
    let (answers, _) = run_all(vec![counter(10), counter(9), counter(10)], &config);
    let verdicts: Vec<&str> = answers
        .iter()
        .map(|(v, _)| match v {
            Verdict::Safe => "TRUE",
            Verdict::Unsafe(_) => "FALSE",
            Verdict::Unknown(_) => "UNKNOWN",
        })
        .collect();
    assert_eq!(verdicts, ["TRUE", "FALSE"], "the third entry is not answered after the FALSE");
    assert!(answers[0].1.as_ref().is_some_and(|p| p.checked == Some(true)), "the TRUE comes with its checked proof");
}

/// An engine that answers UNKNOWN at once with its name as the reason.
struct GivesUp {
    name: &'static str,
    decides_both: bool,
}

impl Engine for GivesUp {
    fn name(&self) -> &'static str {
        self.name
    }
    fn about(&self) -> &'static str {
        "gives up"
    }
    fn not_applicable(&self, _: &Task, _: &Config) -> Option<String> {
        None
    }
    fn decides_both(&self) -> bool {
        self.decides_both
    }
    fn run(&self, _: &Task, _: &Config, _: &mut Stats) -> (Verdict, Option<Proof>) {
        (Verdict::unknown(self.name), None)
    }
}

static MAIN: GivesUp = GivesUp { name: "main", decides_both: true };
static FINDER: GivesUp = GivesUp { name: "finder", decides_both: false };

#[test]
fn an_unknown_gives_the_main_engines_reason() {
    // the bug finder after the main engine runs too, but the reason is the main engine's
    let strategy = Strategy(vec![
        Step { engine: &MAIN, share: Share { fraction: 0.8, max: None }, only: None },
        Step { engine: &FINDER, share: Share::REST, only: None },
    ]);
    for jobs in [1, 2] {
        let config = Config { strategy: strategy.clone(), ..config("automizer", jobs) };
        let (verdict, _, _) = run(counter(10), &config);
        assert!(matches!(&verdict, Verdict::Unknown(u) if u.reason == "main"), "{jobs}: {verdict:?}");
    }
}
