//! The interleavings of a concurrent program's threads, explored on the fly. A *global state* is
//! the location of every thread instance (`None`: not running), the owner of an atomic section
//! (with its nesting depth) and, under sleep sets, the letters asleep there; [`Interleavings`]
//! numbers the states as an engine reaches them and yields the letters enabled in each, so
//! memory grows with what the engine explores, never with every interleaving.
//!
//! The alphabet is known before any state: a letter is a [`Move`], an edge of one thread taken in
//! one way, with the same statement wherever it is taken. From a state, every running instance
//! that may move (all, or only the owner of an atomic section) takes any of its edges: a
//! statement; a fork, which starts the lowest free instance of its template (the instances of a
//! template are symmetric), or with none free leads to a [`ViolationKind::ThreadLimit`] state; a
//! join, which ends an instance at its exit whose thread id matches; an atomic section's
//! boundary. A thread's `Exit` takes it to its exit. A state where a thread is at an error
//! location has no successors. Where data races are checked, two threads at accesses of one
//! place (one writing) have a letter to a [`ViolationKind::DataRace`] state, whose statement is
//! the condition that the places agree.
//!
//! [`Reduction`] chooses the partial-order reductions applied while the states are explored
//! (`docs/concurrency.md`): persistent sets ([`crate::por::Persistent`]) and sleep sets with the
//! order of the letters ([`crate::por::Independence`]).

use crate::cfg::{Cfg, Edge, Label, LocId, ThreadOp, Violation, ViolationKind};
use crate::por::{Commutativity, Footprint, Independence, Persistent};
use crate::stmt::Stmt;
use crate::threads::{conflict, race_accesses, sorts, Accesses, ThreadProgram};
use indexmap::IndexSet;
use rustc_hash::{FxBuildHasher, FxHashMap};
use smt::build::{and, eq, tt};
use smt::Term;
use std::collections::BTreeSet;
use std::time::Instant;

/// What one letter does: an edge of one thread's CFG, taken in one of these ways.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub thread: usize,
    pub edge: usize,
    pub kind: MoveKind,
}

/// How a move takes its thread's edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveKind {
    /// Its statement.
    Step,
    /// It enters or leaves an atomic section.
    Atomic,
    /// It starts this thread.
    Fork(usize),
    /// It starts a thread when every instance of the procedure runs.
    Limit,
    /// It ends this thread.
    Join(usize),
    /// The check that the edge and the edge `.1` of the thread `.0` access one place at once
    /// (a data race).
    Race(usize, usize),
}

/// A letter of the interleavings: its move, and its thread's edge with the move's statement.
#[derive(Clone, Debug)]
pub struct Letter {
    pub action: Move,
    pub edge: Edge,
}

/// The partial-order reductions applied while the states are explored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reduction {
    pub persistent: bool,
    /// Sleep sets, with this notion of independence.
    pub sleep: Option<Commutativity>,
}

impl Reduction {
    pub const NONE: Reduction = Reduction { persistent: false, sleep: None };
}

/// A global state, in one allocation (a search keeps millions of them).
#[derive(Clone, PartialEq, Eq, Hash)]
enum Node {
    /// The owner of an atomic section (with its depth), and every thread's location
    /// ([`NOT_RUNNING`] if it does not run) followed by the letters asleep (an error state has
    /// none: it has no successors).
    Threads { atomic: Option<(u32, u32)>, words: Box<[u32]> },
    /// The error state a letter leads to (a data race, a fork beyond the instances).
    After(usize),
}

/// The location of a thread that does not run, in [`Node::Threads`].
const NOT_RUNNING: u32 = u32::MAX;

impl Node {
    fn threads(locs: &[Option<LocId>], atomic: Option<(usize, u32)>, sleep: &[usize]) -> Node {
        let locs = locs.iter().map(|l| l.map_or(NOT_RUNNING, |l| l as u32));
        let words = locs.chain(sleep.iter().map(|&a| a as u32)).collect();
        Node::Threads { atomic: atomic.map(|(t, d)| (t as u32, d)), words }
    }
}

/// The interleavings of a program's threads, whose CFGs are `cfgs` (each thread's CFG encoded,
/// with the thread's locations), from the entry's thread alone.
pub struct Interleavings<'a> {
    tp: &'a ThreadProgram,
    cfgs: Vec<Cfg>,
    succ: Vec<Vec<Vec<usize>>>,
    access: Vec<Vec<Accesses>>,
    persistent: Option<Persistent>,
    independence: Option<Independence>,
    letters: Vec<Letter>,
    ids: FxHashMap<Move, usize>,
    /// The states reached, numbered by their position.
    states: IndexSet<Node, FxBuildHasher>,
}

impl<'a> Interleavings<'a> {
    /// The interleavings of `tp`'s threads; after `deadline` no solver query decides whether two
    /// letters commute.
    pub fn new(tp: &'a ThreadProgram, cfgs: Vec<Cfg>, reduction: Reduction, deadline: Option<Instant>) -> Interleavings<'a> {
        let succ: Vec<Vec<Vec<usize>>> = cfgs.iter().map(|c| c.successors()).collect();
        let access = race_accesses(tp, &cfgs);
        let letters = alphabet(tp, &cfgs, &access);
        let ids = letters.iter().enumerate().map(|(k, l)| (l.action, k)).collect();
        let persistent = reduction.persistent.then(|| Persistent::new(tp, &cfgs));
        let templates: Vec<String> = tp.threads.iter().map(|t| t.template.clone()).collect();
        let independence = reduction.sleep.map(|c| Independence::new(&letters, templates, c, deadline));
        let start: Vec<Option<LocId>> = (0..cfgs.len()).map(|t| (t == 0).then_some(cfgs[0].entry)).collect();
        let mut x = Interleavings { tp, cfgs, succ, access, persistent, independence, letters, ids, states: IndexSet::default() };
        x.states.insert(Node::threads(&start, None, &[]));
        x
    }

    /// Every letter, in the order of their moves (the order of the sleep sets).
    pub fn letters(&self) -> &[Letter] {
        &self.letters
    }

    /// For each letter, the variables of threads that no other thread reads which are dead
    /// after it: no path of their thread reads them before writing them again (an instance
    /// that a join ends has every variable dead). A search that forgets them finds that two
    /// interleavings reach one state where they differ only in values never read again.
    pub fn dead_after(&self) -> Vec<Vec<Term>> {
        let cfgs = &self.cfgs;
        let joined: BTreeSet<Term> = self.tp.threads.iter().flat_map(|t| t.id.iter().chain(&t.rets)).cloned().collect();
        let vars: Vec<BTreeSet<Term>> =
            cfgs.iter().zip(&self.tp.threads).map(|(c, t)| thread_vars(c).into_iter().chain(t.locals.iter().cloned()).collect()).collect();
        let own: Vec<BTreeSet<Term>> =
            vars.iter().map(|v| v.iter().filter(|x| !self.tp.shared.contains(*x) && !joined.contains(*x)).cloned().collect()).collect();
        let live: Vec<Vec<BTreeSet<Term>>> = cfgs.iter().map(live_vars).collect();
        let (own, live) = (&own, &live);
        let dead_at = move |t: usize, l: LocId| own[t].iter().filter(move |x| !live[t][l].contains(*x)).cloned();
        let after = |l: &Letter| -> Vec<Term> {
            let Move { thread: t, edge: e, kind } = l.action;
            let edge = &cfgs[t].edges[e];
            let to = if matches!(edge.label, Label::Thread(ThreadOp::Exit { .. })) { cfgs[t].exit } else { edge.dst };
            match kind {
                MoveKind::Step | MoveKind::Atomic => dead_at(t, to).collect(),
                MoveKind::Fork(j) => dead_at(t, to).chain(dead_at(j, cfgs[j].entry)).collect(),
                MoveKind::Join(j) => dead_at(t, to).chain(vars[j].iter().filter(|x| !self.tp.shared.contains(*x)).cloned()).collect(),
                MoveKind::Limit | MoveKind::Race(..) => vec![],
            }
        };
        self.letters.iter().map(after).collect()
    }

    /// The initial state.
    pub fn initial(&self) -> usize {
        0
    }

    /// How many states were reached so far.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The location of every thread at `state` (`None`: not running; empty for the state after
    /// a race check or a fork beyond the instances).
    pub fn locations(&self, state: usize) -> Vec<Option<LocId>> {
        self.locs(state).collect()
    }

    fn locs(&self, state: usize) -> impl Iterator<Item = Option<LocId>> + '_ {
        let words = match &self.states[state] {
            Node::Threads { words, .. } => &words[..self.cfgs.len()],
            Node::After(_) => &[],
        };
        words.iter().map(|&l| (l != NOT_RUNNING).then_some(l as LocId))
    }

    /// Adds a location for `state` to `cfg`: an error location at an error state, named by the
    /// threads' locations, at the position of the entry thread's.
    pub fn add_location(&self, cfg: &mut Cfg, state: usize) -> LocId {
        let locs = self.locations(state);
        let name =
            locs.iter().enumerate().filter_map(|(t, l)| l.map(|l| self.cfgs[t].locs[l].name.clone())).collect::<Vec<_>>().join(" | ");
        let l = match self.violation(state) {
            Some(v) => cfg.add_error_loc(v),
            None => cfg.add_loc("", locs.first().copied().flatten().and_then(|l| self.cfgs[0].locs[l].pos.clone())),
        };
        cfg.locs[l].name = name;
        l
    }

    /// The violation at `state`, if it is an error state.
    pub fn violation(&self, state: usize) -> Option<Violation> {
        match &self.states[state] {
            Node::Threads { .. } => self.locs(state).enumerate().find_map(|(t, l)| l.and_then(|l| self.cfgs[t].locs[l].error.clone())),
            Node::After(letter) => {
                let m = self.letters[*letter].action;
                match m.kind {
                    MoveKind::Race(u, f) => Some(Violation { kind: ViolationKind::DataRace, pos: self.cfgs[u].edges[f].pos.clone() }),
                    _ => Some(Violation { kind: ViolationKind::ThreadLimit, pos: self.cfgs[m.thread].edges[m.edge].pos.clone() }),
                }
            }
        }
    }

    /// The letters enabled at `state` and the states they lead to (in the order of the
    /// letters), or why a letter there cannot be interleaved (an unsupported access where a
    /// race is checked).
    pub fn successors(&mut self, state: usize) -> Result<Vec<(usize, usize)>, String> {
        let Node::Threads { atomic, words } = &self.states[state] else { return Ok(vec![]) };
        let atomic = atomic.map(|(t, d)| (t as usize, d));
        let sleep: Vec<usize> = words[self.cfgs.len()..].iter().map(|&a| a as usize).collect();
        let locs = self.locations(state);
        if self.at_error(&locs) {
            return Ok(vec![]);
        }
        let mut out = self.enabled(&locs, atomic)?;
        out.sort_by_key(|(letter, _)| *letter);
        let Some(independence) = self.independence.as_mut() else {
            return Ok(out.into_iter().map(|(a, next)| (a, self.intern_at(a, next, vec![]))).collect());
        };
        // sleep sets: a letter is explored unless asleep; its successor sleeps on the letters
        // asleep here and the smaller siblings already explored that are independent of it
        let mut explored: Vec<usize> = vec![];
        let mut next_states = vec![];
        for (a, next) in out {
            if sleep.contains(&a) {
                continue;
            }
            let mut asleep: Vec<usize> = sleep.iter().chain(&explored).copied().filter(|&b| independence.independent(a, b)).collect();
            asleep.sort_unstable();
            asleep.dedup();
            explored.push(a);
            next_states.push((a, next, asleep));
        }
        Ok(next_states.into_iter().map(|(a, next, asleep)| (a, self.intern_at(a, next, asleep))).collect())
    }

    /// The letters enabled where the threads are at `locs` (with the atomic section's owner),
    /// each with the next locations and owner (`None`: the letter's own error state).
    fn enabled(&self, locs: &[Option<LocId>], atomic: Option<(usize, u32)>) -> Result<Vec<(usize, Next)>, String> {
        let cfgs = &self.cfgs;
        let only = self.persistent.as_ref().filter(|_| atomic.is_none()).and_then(|p| p.choose(cfgs, &self.succ, locs));
        let mut out = vec![];
        for (t, loc) in locs.iter().enumerate() {
            let Some(loc) = *loc else { continue };
            if atomic.is_some_and(|(owner, _)| owner != t) || only.is_some_and(|o| o != t) {
                continue;
            }
            for &e in &self.succ[t][loc] {
                for (kind, next) in transitions(self.tp, cfgs, locs, atomic, t, e) {
                    out.push((self.ids[&Move { thread: t, edge: e, kind }], next));
                }
            }
        }
        // two threads at accesses of one place, one of them writing (an access inside an
        // atomic section races with one outside it)
        if self.tp.race_data.is_empty() {
            return Ok(out);
        }
        for (t, u) in running_pairs(locs) {
            let (lt, lu) = (locs[t].unwrap_or_default(), locs[u].unwrap_or_default());
            for (&e, &f) in self.succ[t][lt].iter().flat_map(|e| self.succ[u][lu].iter().map(move |f| (e, f))) {
                if let (Err(why), _) | (_, Err(why)) = (&self.access[t][e], &self.access[u][f]) {
                    return Err(why.clone());
                }
                // (the alphabet has a race check for every two accesses that conflict)
                if let Some(&check) = self.ids.get(&Move { thread: t, edge: e, kind: MoveKind::Race(u, f) }) {
                    out.push((check, None));
                }
            }
        }
        Ok(out)
    }

    /// Whether a thread is at an error location.
    fn at_error(&self, locs: &[Option<LocId>]) -> bool {
        locs.iter().enumerate().any(|(t, l)| l.is_some_and(|l| self.cfgs[t].locs[l].error.is_some()))
    }

    /// The state after `letter` (`next`: the locations and the atomic section's owner, `None`
    /// for the letter's own error state) with the letters asleep.
    fn intern_at(&mut self, letter: usize, next: Next, sleep: Vec<usize>) -> usize {
        let node = match next {
            None => Node::After(letter),
            Some((locs, atomic)) => {
                let sleep = if self.at_error(&locs) { &[][..] } else { &sleep };
                Node::threads(&locs, atomic, sleep)
            }
        };
        self.states.insert_full(node).0
    }
}

/// Every variable a CFG's edges read or write.
fn thread_vars(cfg: &Cfg) -> BTreeSet<Term> {
    cfg.edges.iter().map(Footprint::of).flat_map(|f| f.reads.into_iter().chain(f.writes)).collect()
}

/// The variables live at each location of a thread's CFG: read on some path from it before
/// they are written (an `Exit` edge leads to the exit).
fn live_vars(cfg: &Cfg) -> Vec<BTreeSet<Term>> {
    let effects: Vec<Footprint> = cfg.edges.iter().map(Footprint::of).collect();
    let mut live: Vec<BTreeSet<Term>> = vec![BTreeSet::new(); cfg.locs.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for (e, f) in cfg.edges.iter().zip(&effects) {
            let to = if matches!(e.label, Label::Thread(ThreadOp::Exit { .. })) { cfg.exit } else { e.dst };
            let flow: Vec<Term> = f.reads.iter().chain(live[to].iter().filter(|x| !f.writes.contains(*x))).cloned().collect();
            for x in flow {
                changed |= live[e.src].insert(x);
            }
        }
    }
    live
}

/// The locations and the atomic section's owner after a letter (`None`: its own error state).
type Next = Option<(Vec<Option<LocId>>, Option<(usize, u32)>)>;

/// The pairs of threads running at `locs`.
fn running_pairs(locs: &[Option<LocId>]) -> Vec<(usize, usize)> {
    let running: Vec<usize> = (0..locs.len()).filter(|&t| locs[t].is_some()).collect();
    running.iter().enumerate().flat_map(|(k, &t)| running[k + 1..].iter().map(move |&u| (t, u))).collect()
}

/// Every letter of the interleavings, in the order of their moves: each edge of each thread in
/// every way it can be taken, and the race checks of every two edges of two threads whose
/// accesses conflict.
fn alphabet(tp: &ThreadProgram, cfgs: &[Cfg], access: &[Vec<Accesses>]) -> Vec<Letter> {
    let mut letters = vec![];
    for (t, cfg) in cfgs.iter().enumerate() {
        for (e, edge) in cfg.edges.iter().enumerate() {
            for (kind, stmt) in ways(tp, t, edge) {
                let edge = match stmt {
                    None => edge.clone(),
                    Some(s) => edge.with_stmt(s),
                };
                letters.push(Letter { action: Move { thread: t, edge: e, kind }, edge });
            }
            for (u, other) in cfgs.iter().enumerate().skip(t + 1) {
                for f in 0..other.edges.len() {
                    let (Ok(a), Ok(b)) = (&access[t][e], &access[u][f]) else { continue };
                    if let Some(same) = conflict(a, b) {
                        letters.push(Letter {
                            action: Move { thread: t, edge: e, kind: MoveKind::Race(u, f) },
                            edge: edge.with_stmt(Stmt::Assume(same)),
                        });
                    }
                }
            }
        }
    }
    letters.sort_by_key(|l| l.action);
    letters
}

/// The ways thread `t` can take `edge`, each with its statement if it is not the edge's own.
fn ways(tp: &ThreadProgram, t: usize, edge: &Edge) -> Vec<(MoveKind, Option<Stmt>)> {
    let nothing = || Some(Stmt::Assume(tt()));
    let Label::Thread(op) = &edge.label else { return vec![(MoveKind::Step, None)] };
    match op {
        ThreadOp::AtomicBegin | ThreadOp::AtomicEnd => vec![(MoveKind::Atomic, nothing())],
        ThreadOp::Exit { values } => {
            // the thread's results (the entry's thread has none: the others go on)
            let rets = &tp.threads[t].rets;
            match rets.len() == values.len() && !rets.is_empty() {
                true => vec![(MoveKind::Step, Some(Stmt::Assign(rets.iter().cloned().zip(values.iter().cloned()).collect())))],
                false => vec![(MoveKind::Step, nothing())],
            }
        }
        ThreadOp::Fork { ids, callee, args } => {
            let mut ways: Vec<(MoveKind, Option<Stmt>)> = (1..tp.threads.len())
                .filter(|&j| starts(tp, j, callee, ids))
                .map(|j| {
                    let th = &tp.threads[j];
                    let mut assign: Vec<(Term, Term)> = th.id.iter().cloned().zip(ids.iter().cloned()).collect();
                    assign.extend(th.params.iter().cloned().zip(args.iter().cloned()));
                    (MoveKind::Fork(j), Some(Stmt::Seq(vec![Stmt::Havoc(th.locals.clone()), Stmt::Assign(assign)])))
                })
                .collect();
            ways.push((MoveKind::Limit, nothing()));
            ways
        }
        ThreadOp::Join { ids, rets } => (1..tp.threads.len())
            .filter(|&j| j != t && joins(tp, j, ids, rets))
            .map(|j| {
                let th = &tp.threads[j];
                let same: Vec<Term> = th.id.iter().zip(ids).map(|(a, b)| eq(a, b)).collect();
                let mut stmt = vec![Stmt::Assume(and(&same))];
                if !rets.is_empty() {
                    stmt.push(Stmt::Assign(rets.iter().cloned().zip(th.rets.iter().cloned()).collect()));
                }
                (MoveKind::Join(j), Some(Stmt::Seq(stmt)))
            })
            .collect(),
    }
}

/// Whether a fork of `callee` with thread ids `ids` starts an instance `j`.
fn starts(tp: &ThreadProgram, j: usize, callee: &str, ids: &[Term]) -> bool {
    tp.threads[j].template == callee && sorts(&tp.threads[j].id) == sorts(ids)
}

/// Whether a join with thread ids `ids` into `rets` may end instance `j`.
fn joins(tp: &ThreadProgram, j: usize, ids: &[Term], rets: &[Term]) -> bool {
    sorts(&tp.threads[j].id) == sorts(ids) && (rets.is_empty() || sorts(&tp.threads[j].rets) == sorts(rets))
}

/// The ways thread `t` takes its edge `e` from the locations `locs` (with the atomic section's
/// owner), each with where it leads (`None`: a fork with no free instance).
fn transitions(
    tp: &ThreadProgram,
    cfgs: &[Cfg],
    locs: &[Option<LocId>],
    atomic: Option<(usize, u32)>,
    t: usize,
    e: usize,
) -> Vec<(MoveKind, Next)> {
    let edge = &cfgs[t].edges[e];
    let exits = matches!(edge.label, Label::Thread(ThreadOp::Exit { .. }));
    let step = |partner: Option<(usize, Option<LocId>)>, atomic: Option<(usize, u32)>| {
        let mut next = locs.to_vec();
        let to = if exits { cfgs[t].exit } else { edge.dst };
        next[t] = Some(to);
        if let Some((p, l)) = partner {
            next[p] = l;
        }
        // a thread that ends leaves its atomic sections
        let atomic = atomic.filter(|&(o, _)| !(to == cfgs[t].exit && o == t));
        Some((next, atomic))
    };
    let Label::Thread(op) = &edge.label else { return vec![(MoveKind::Step, step(None, atomic))] };
    match op {
        ThreadOp::AtomicBegin => {
            let depth = atomic.map_or(0, |(_, d)| d);
            vec![(MoveKind::Atomic, step(None, Some((t, depth + 1))))]
        }
        ThreadOp::AtomicEnd => vec![(MoveKind::Atomic, step(None, atomic.and_then(|(o, d)| (d > 1).then_some((o, d - 1)))))],
        ThreadOp::Exit { .. } => vec![(MoveKind::Step, step(None, atomic))],
        ThreadOp::Fork { ids, callee, .. } => match (1..tp.threads.len()).find(|&j| starts(tp, j, callee, ids) && locs[j].is_none()) {
            Some(j) => vec![(MoveKind::Fork(j), step(Some((j, Some(cfgs[j].entry))), atomic))],
            None => vec![(MoveKind::Limit, None)],
        },
        ThreadOp::Join { ids, rets } => (1..tp.threads.len())
            .filter(|&j| j != t && locs[j] == Some(cfgs[j].exit) && joins(tp, j, ids, rets))
            .map(|j| (MoveKind::Join(j), step(Some((j, None)), atomic)))
            .collect(),
    }
}
