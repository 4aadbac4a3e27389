//! Threads: splitting non-atomic statements, the encoding of a thread's CFG, and the
//! interleavings of thread instances.

use ir::interleavings::{Interleavings, Reduction};
use ir::por::Commutativity;
use ir::threads::split_shared_reads;
use ir::ThreadProgram;
use ir::{Cfg, Edge, Label, Procedure, Program, Stmt, ThreadOp, ViolationKind};
use smt::build::*;
use smt::{Sort, Term};
use std::collections::{BTreeMap, BTreeSet};

/// Every state of the interleavings reachable from the initial one, explored to the end.
struct Explored {
    /// Each state's thread locations (none for the state after a race check or a fork beyond
    /// the instances).
    states: Vec<Vec<Option<usize>>>,
    violations: Vec<Option<ViolationKind>>,
    transitions: usize,
}

/// The interleavings of `tp`'s threads (each its prepared CFG) with `reduction`, every state
/// expanded.
fn explore(tp: &ThreadProgram, reduction: Reduction) -> Explored {
    let cfgs: Vec<Cfg> = tp.threads.iter().map(|t| t.cfg.clone()).collect();
    let mut x = Interleavings::new(tp, cfgs, reduction, None);
    let (mut next, mut transitions) = (0, 0);
    while next < x.len() {
        transitions += x.successors(next).expect("successors").len();
        next += 1;
    }
    let states = (0..x.len()).map(|s| x.locations(s)).collect();
    let violations = (0..x.len()).map(|s| x.violation(s).map(|v| v.kind)).collect();
    Explored { states, violations, transitions }
}

const PERSISTENT: Reduction = Reduction { persistent: true, sleep: None };

fn sleep(c: Commutativity) -> Reduction {
    Reduction { persistent: false, sleep: Some(c) }
}

fn var(name: &str) -> Term {
    Term::var(name, Sort::Int)
}

/// A procedure whose body is a chain of edges with these labels.
fn chain(name: &str, labels: Vec<Label>) -> Procedure {
    let mut cfg = Cfg::default();
    let mut cur = cfg.add_loc("entry", None);
    cfg.entry = cur;
    for l in labels {
        let next = cfg.add_loc(format!("L{}", cfg.locs.len()), None);
        cfg.add_edge(Edge::new(cur, next, l, None, None));
        cur = next;
    }
    cfg.exit = cur;
    Procedure {
        name: name.into(),
        params: vec![],
        rets: vec![],
        locals: vec![],
        modifies: vec![],
        requires: vec![],
        ensures: vec![],
        body: Some(cfg),
        pos: None,
    }
}

fn stmts(p: &Procedure) -> Vec<Stmt> {
    p.body.as_ref().map(|b| b.edges.iter().map(|e| e.stmt()).collect()).unwrap_or_default()
}

/// A parallel assignment's pairs.
type Pairs = Vec<(Term, Term)>;

/// The two assignments a split statement became.
fn read_then_write(p: &Procedure) -> (Pairs, Pairs) {
    match stmts(p).as_slice() {
        [Stmt::Assign(read), Stmt::Assign(write)] => (read.clone(), write.clone()),
        other => panic!("expected a read and a write, got {other:?}"),
    }
}

#[test]
fn an_increment_of_shared_data_is_a_read_and_then_a_write() {
    let (x, y) = (var("x"), var("y"));
    let data: BTreeSet<Term> = [x.clone()].into();
    let inc = Stmt::Assign(vec![(x.clone(), add(&[x.clone(), int(1)]))]);
    let mut p = chain("p", vec![Label::Stmt(inc)]);
    split_shared_reads(&mut p, &data);
    let (read, write) = read_then_write(&p);
    let t = read[0].0.clone();
    assert_eq!(read, vec![(t.clone(), x.clone())]);
    assert_eq!(write, vec![(x.clone(), add(&[t.clone(), int(1)]))], "the write keeps its target");
    assert!(p.locals.contains(&t));
    // one access only: a read into a local, a write of a constant, a condition
    for s in [Stmt::Assign(vec![(y.clone(), x.clone())]), Stmt::Assign(vec![(x.clone(), int(5))]), Stmt::Assume(lt(&x, &y))] {
        let mut q = chain("q", vec![Label::Stmt(s.clone())]);
        split_shared_reads(&mut q, &data);
        assert_eq!(stmts(&q), vec![s]);
    }
}

#[test]
fn a_cell_of_shared_memory_is_read_on_its_own_and_written_in_place() {
    let m = Term::var("M", Sort::array(Sort::Int, Sort::Int));
    let (i, j) = (var("i"), var("j"));
    let data: BTreeSet<Term> = [m.clone()].into();
    // M[i] := M[j] + 1
    let s = Stmt::Assign(vec![(m.clone(), store(&m, &i, &add(&[select(&m, &j), int(1)])))]);
    let mut p = chain("p", vec![Label::Stmt(s)]);
    split_shared_reads(&mut p, &data);
    let (read, write) = read_then_write(&p);
    let t = read[0].0.clone();
    assert_eq!(read[0].1, select(&m, &j));
    assert_eq!(write, vec![(m.clone(), store(&m, &i, &add(&[t, int(1)])))], "the store still reads the array it updates");
}

#[test]
fn a_havoc_and_the_assumption_on_its_value_stay_one_statement() {
    let x = var("x");
    let data: BTreeSet<Term> = [x.clone()].into();
    let s = Stmt::Seq(vec![Stmt::Havoc(vec![x.clone()]), Stmt::Assume(le(&int(0), &x))]);
    let mut p = chain("p", vec![Label::Stmt(s.clone())]);
    split_shared_reads(&mut p, &data);
    assert_eq!(stmts(&p), vec![s]);
}

#[test]
fn a_thread_keeps_its_shared_accesses_apart_and_composes_the_rest() {
    let (g, a, b) = (var("g"), var("a"), var("b"));
    let shared: BTreeSet<Term> = [g.clone()].into();
    let labels = vec![
        Label::Stmt(Stmt::Assign(vec![(a.clone(), int(1))])),
        Label::Stmt(Stmt::Assign(vec![(b.clone(), add(&[a.clone(), int(1)]))])),
        Label::Stmt(Stmt::Assign(vec![(g.clone(), b.clone())])),
        Label::Stmt(Stmt::Assign(vec![(a.clone(), g.clone())])),
    ];
    let p = chain("p", labels);
    let encoded = ir::thread_block_encoding(p.body.as_ref().expect("body"), &shared, false);
    // a := 1; b := a + 1 compose; the write and the read of g stay letters of their own
    assert_eq!(encoded.edges.len(), 3, "{encoded:?}");
    // inside an atomic section everything composes
    let mut labels = vec![Label::Thread(ThreadOp::AtomicBegin)];
    labels.push(Label::Stmt(Stmt::Assign(vec![(g.clone(), int(1))])));
    labels.push(Label::Stmt(Stmt::Assign(vec![(g.clone(), add(&[g.clone(), int(1)]))])));
    labels.push(Label::Thread(ThreadOp::AtomicEnd));
    let q = chain("q", labels);
    let encoded = ir::thread_block_encoding(q.body.as_ref().expect("body"), &shared, false);
    assert_eq!(encoded.edges.len(), 3, "{encoded:?}");
}

/// `main` forks `n` threads of `worker` (each `g := g + 1`) and joins none.
fn forking(n: usize) -> Program {
    let g = var("g");
    let mut labels = vec![];
    for k in 0..n {
        labels.push(Label::Thread(ThreadOp::Fork { ids: vec![int(k as i64)], callee: "worker".into(), args: vec![] }));
    }
    let main = chain("main", labels);
    let worker = chain("worker", vec![Label::Stmt(Stmt::Assign(vec![(g.clone(), add(&[g.clone(), int(1)]))]))]);
    Program {
        file: "test".into(),
        globals: vec![g],
        consts: vec![],
        functions: vec![],
        axioms: vec![],
        procedures: BTreeMap::from([("main".to_string(), main), ("worker".to_string(), worker)]),
        entries: vec!["main".into()],
        race_data: Default::default(),
    }
}

#[test]
fn the_interleavings_interleave_the_instances_and_mark_a_fork_beyond_them() {
    let tp = ir::prepare_threads(&forking(2), "main", 2).expect("prepared").expect("threads");
    assert_eq!(tp.threads.len(), 3);
    let cfgs: Vec<Cfg> = tp.threads.iter().map(|t| t.cfg.clone()).collect();
    let all = explore(&tp, Reduction::NONE);
    assert!(all.violations.iter().all(Option::is_none), "two instances suffice for two forks");
    // both increments in either order: the final state (every thread at its exit) is reached
    // by two paths
    let ends = all.states.iter().filter(|s| s.iter().enumerate().all(|(t, l)| *l == Some(cfgs[t].exit))).count();
    assert_eq!(ends, 1);
    let tp = ir::prepare_threads(&forking(3), "main", 2).expect("prepared").expect("threads");
    let all = explore(&tp, Reduction::NONE);
    let limits = all.violations.iter().filter(|v| **v == Some(ViolationKind::ThreadLimit)).count();
    assert_eq!(limits, 1, "the third fork finds no free instance");
}

#[test]
fn a_program_without_forks_is_not_concurrent() {
    let p = chain("main", vec![Label::Thread(ThreadOp::AtomicBegin), Label::Thread(ThreadOp::AtomicEnd)]);
    let program = Program {
        file: "test".into(),
        globals: vec![],
        consts: vec![],
        functions: vec![],
        axioms: vec![],
        procedures: BTreeMap::from([("main".to_string(), p)]),
        entries: vec!["main".into()],
        race_data: Default::default(),
    };
    assert!(ir::prepare_threads(&program, "main", 2).expect("prepared").is_none());
    let sequential = ir::threads::without_atomic_sections(&program).expect("had atomic sections");
    let body = sequential.procedures["main"].body.as_ref().expect("body");
    assert!(body.edges.iter().all(|e| matches!(e.label, Label::Stmt(_))));
}

/// `main` forks one thread of each of `a` and `b`, which run `sa` and `sb` over the globals
/// `ga` and `gb`.
fn two_threads(sa: Vec<Stmt>, sb: Vec<Stmt>) -> Program {
    let thread = |name: &str, stmts: Vec<Stmt>| chain(name, stmts.into_iter().map(Label::Stmt).collect());
    let fork = |callee: &str, id: i64| Label::Thread(ThreadOp::Fork { ids: vec![int(id)], callee: callee.into(), args: vec![] });
    let main = chain("main", vec![fork("a", 1), fork("b", 2)]);
    Program {
        file: "test".into(),
        globals: vec![var("ga"), var("gb")],
        procedures: BTreeMap::from([("main".to_string(), main), ("a".to_string(), thread("a", sa)), ("b".to_string(), thread("b", sb))]),
        entries: vec!["main".into()],
        ..Program::default()
    }
}

/// `x := e`.
fn set(x: &str, e: Term) -> Stmt {
    Stmt::Assign(vec![(var(x), e)])
}

/// Threads `a` and `b` write the globals `ga` and `gb` twice.
fn independent_writers() -> Program {
    two_threads(vec![set("ga", int(1)), set("ga", int(2))], vec![set("gb", int(1)), set("gb", int(2))])
}

/// The edges of the sleep-set reduction of `program`'s product with `commutativity`.
fn sleep_set_edges(program: &Program, commutativity: Commutativity) -> usize {
    let tp = ir::prepare_threads(program, "main", 1).expect("prepared").expect("threads");
    explore(&tp, sleep(commutativity)).transitions
}

#[test]
fn statements_that_commute_concretely_are_independent_and_others_not() {
    use Commutativity::{Semantic, Syntactic};
    // an increment and a decrement of one counter: both orders end the same
    let up = |k: i64| set("ga", add(&[var("ga"), int(k)]));
    let counters = two_threads(vec![up(1), up(2)], vec![up(-2), up(-1)]);
    assert!(sleep_set_edges(&counters, Semantic) < sleep_set_edges(&counters, Syntactic));
    // an increment and a doubling do not commute; neither do two writes of different values
    let doubling = two_threads(vec![up(1)], vec![set("ga", mul(&[int(2), var("ga")]))]);
    assert_eq!(sleep_set_edges(&doubling, Semantic), sleep_set_edges(&doubling, Syntactic));
    let writes = two_threads(vec![set("ga", int(1))], vec![set("ga", int(2))]);
    assert_eq!(sleep_set_edges(&writes, Semantic), sleep_set_edges(&writes, Syntactic));
    // a guard that the other thread's write falsifies: the orders differ in whether they run
    let guarded = two_threads(vec![Stmt::Assume(eq(&var("ga"), &int(0))), set("gb", int(1))], vec![set("ga", int(1))]);
    assert_eq!(sleep_set_edges(&guarded, Semantic), sleep_set_edges(&guarded, Syntactic));
}

#[test]
fn reductions_keep_every_state_and_explore_less() {
    let tp = ir::prepare_threads(&independent_writers(), "main", 1).expect("prepared").expect("threads");
    let cfgs: Vec<Cfg> = tp.threads.iter().map(|t| t.cfg.clone()).collect();
    let full = explore(&tp, Reduction::NONE);
    let states = |p: &Explored| p.states.iter().cloned().collect::<BTreeSet<_>>();
    // sleep sets: every state, fewer transitions (the writers commute)
    let reduced = explore(&tp, sleep(Commutativity::Syntactic));
    assert_eq!(states(&reduced), states(&full));
    assert!(reduced.transitions < full.transitions, "{} < {}", reduced.transitions, full.transitions);
    // persistent sets: fewer states, the final one among them
    let persistent = explore(&tp, PERSISTENT);
    assert!(persistent.states.len() < full.states.len());
    let end: Vec<Option<usize>> = cfgs.iter().map(|c| Some(c.exit)).collect();
    assert!(states(&persistent).contains(&end) && states(&full).contains(&end));
}

#[test]
fn a_thread_variable_is_dead_after_its_last_read() {
    // thread `a` reads `ga` into its own `t`, then writes `t + 1`: `t` is live between the two
    let program = two_threads(vec![set("t", var("ga")), set("ga", add(&[var("t"), int(1)]))], vec![set("gb", int(1))]);
    let tp = ir::prepare_threads(&program, "main", 1).expect("prepared").expect("threads");
    let cfgs: Vec<Cfg> = tp.threads.iter().map(|t| t.cfg.clone()).collect();
    let x = Interleavings::new(&tp, cfgs, Reduction::NONE, None);
    let dead = x.dead_after();
    let after = |stmt: &str| {
        let k = x.letters().iter().position(|l| format!("{:?}", l.edge.stmt()).contains(stmt)).expect("the letter");
        dead[k].iter().map(|v| v.var_name().unwrap_or("").to_string()).collect::<Vec<_>>()
    };
    let t = |names: Vec<String>| names.iter().any(|n| n.starts_with("t@"));
    assert!(!t(after("Assign([(t@")), "t is read after it is assigned");
    assert!(t(after("Assign([(ga")), "t is dead after its last read");
    // shared variables are never forgotten
    assert!(after("Assign([(ga").iter().all(|n| n != "ga" && n != "gb"));
}
