//! Partial-order reduction of the interleavings of threads: sleep sets and persistent sets,
//! applied while [`crate::interleavings`] explores the states. Two moves of different
//! threads are *independent* when each can be taken after the other and both orders end in the
//! same state: neither writes a variable the other reads or writes, neither is an atomic
//! section's boundary or a data-race check, and they do not compete for thread instances (forks
//! and joins of one procedure's instances). Words that differ only in the order of adjacent
//! independent moves reach the same state by the same values, so one of them suffices: the
//! reduction keeps, of each class, the word that is least in the lexicographic order of moves.
//! Its automaton has a state per product state and *sleep set* (the moves whose exploration an
//! earlier, smaller sibling already covers); every error location reachable in the product is
//! reachable in it, by a word of the same class ([`Independence`] decides the pairs).
//!
//! With [`Commutativity::Semantic`], two statements of different threads whose footprints clash
//! are still independent when they *commute concretely*: both orders have the same guard and
//! assign every variable the same value (`x := x + 1` and `x := x - 1`; writes of an array at
//! indices the guards keep apart). The check is a validity query to the in-process Z3, once per
//! pair of letters; a statement that havocs or chooses is compared by its footprint only.

use crate::cfg::{Cfg, Edge, Label, LocId, ThreadOp};
use crate::interleavings::{Move, MoveKind};
use crate::stmt::Stmt;
use crate::threads::ThreadProgram;
use rustc_hash::FxHashMap;
use smt::build::{and, eq, implies, not, tt};
use smt::subst::{free_vars, substitute};
use smt::Term;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Instant;

/// The variables an edge reads and those it writes: a statement's, or a thread operation's
/// terms (a join writes its targets).
pub(crate) struct Footprint {
    pub(crate) reads: BTreeSet<Term>,
    pub(crate) writes: BTreeSet<Term>,
}

impl Footprint {
    pub(crate) fn of(e: &Edge) -> Footprint {
        let vars = |ts: &[Term]| ts.iter().flat_map(free_vars).collect();
        match &e.label {
            Label::Thread(ThreadOp::Join { ids, rets }) => Footprint { reads: vars(ids), writes: vars(rets) },
            Label::Thread(op) => Footprint { reads: vars(&op.terms()), writes: BTreeSet::new() },
            _ => {
                let tf = e.trans_formula();
                Footprint { reads: tf.in_vars.keys().cloned().collect(), writes: tf.assigned_vars() }
            }
        }
    }
}

/// When two statements of different threads are independent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Commutativity {
    /// Neither writes what the other reads or writes.
    Syntactic,
    /// Also when both orders do the same (see the module documentation).
    Semantic,
}

impl std::str::FromStr for Commutativity {
    type Err = String;

    fn from_str(s: &str) -> Result<Commutativity, String> {
        match s {
            "syntactic" => Ok(Commutativity::Syntactic),
            "semantic" => Ok(Commutativity::Semantic),
            _ => Err(format!("unknown commutativity `{s}` (expected syntactic or semantic)")),
        }
    }
}

/// A letter as the independence check sees it: its move, footprint and statement.
struct Letter {
    action: Move,
    print: Footprint,
    stmt: Stmt,
}

/// Whether two moves commute (see the module documentation); `same_template(j, k)` tells
/// whether two threads are instances of one procedure.
fn independent(a: &Letter, b: &Letter, same_template: &dyn Fn(usize, usize) -> bool, commutativity: Commutativity) -> bool {
    use MoveKind::*;
    if a.action.thread == b.action.thread {
        return false;
    }
    let competing = match (a.action.kind, b.action.kind) {
        (Atomic | Race(..) | Limit, _) | (_, Atomic | Race(..) | Limit) => true,
        (Fork(j), Fork(k)) | (Fork(j), Join(k)) | (Join(k), Fork(j)) => same_template(j, k),
        (Join(j), Join(k)) => j == k,
        _ => false,
    };
    let clash = |x: &Footprint, y: &Footprint| x.writes.iter().any(|v| y.reads.contains(v) || y.writes.contains(v));
    if competing {
        return false;
    }
    if !clash(&a.print, &b.print) && !clash(&b.print, &a.print) {
        return true;
    }
    let steps = matches!((a.action.kind, b.action.kind), (Step, Step));
    steps && commutativity == Commutativity::Semantic && commute(&a.stmt, &b.stmt)
}

/// A statement of assumptions and assignments as its guard and what it assigns, both over the
/// values before it.
#[derive(Clone, Default)]
struct Effect {
    guard: Vec<Term>,
    assigns: BTreeMap<Term, Term>,
}

impl Effect {
    /// The effect of `s` after `self`; `None` if `s` havocs or chooses.
    fn then(mut self, s: &Stmt) -> Option<Effect> {
        let before: HashMap<Term, Term> = self.assigns.iter().map(|(x, v)| (x.clone(), v.clone())).collect();
        match s {
            Stmt::Assume(c) => self.guard.push(substitute(c, &before)),
            Stmt::Assign(pairs) => self.assigns.extend(pairs.iter().map(|(x, e)| (x.clone(), substitute(e, &before)))),
            Stmt::Seq(parts) => return parts.iter().try_fold(self, Effect::then),
            Stmt::Havoc(_) | Stmt::Choice(_) => return None,
        }
        Some(self)
    }

    /// The value of `x` after the statement.
    fn value(&self, x: &Term) -> Term {
        self.assigns.get(x).cloned().unwrap_or_else(|| x.clone())
    }
}

/// Whether `a; b` and `b; a` are the same relation (`false` when unknown).
fn commute(a: &Stmt, b: &Stmt) -> bool {
    let order = |x: &Stmt, y: &Stmt| Effect::default().then(x)?.then(y);
    let (Some(ab), Some(ba)) = (order(a, b), order(b, a)) else { return false };
    let (gab, gba) = (and(&ab.guard), and(&ba.guard));
    let written: BTreeSet<&Term> = ab.assigns.keys().chain(ba.assigns.keys()).collect();
    let same: Vec<Term> = written.into_iter().map(|x| eq(&ab.value(x), &ba.value(x))).collect();
    let claim = and(&[eq(&gab, &gba), implies(&gab, &and(&same))]);
    smt::simplify::is_valid(&claim, COMMUTE_MS) == Some(true)
}

/// The solver time of one commutativity check.
const COMMUTE_MS: u64 = 200;

/// The independence of the letters of the interleavings, decided once per pair.
pub struct Independence {
    letters: Vec<Letter>,
    /// The procedure each thread runs.
    templates: Vec<String>,
    commutativity: Commutativity,
    /// After it, no solver query decides a pair (the syntactic answer is given, not kept).
    deadline: Option<Instant>,
    cache: FxHashMap<(usize, usize), bool>,
}

impl Independence {
    pub fn new(
        letters: &[crate::interleavings::Letter],
        templates: Vec<String>,
        commutativity: Commutativity,
        deadline: Option<Instant>,
    ) -> Independence {
        let letters = letters.iter().map(|l| Letter { action: l.action, print: Footprint::of(&l.edge), stmt: l.edge.stmt() }).collect();
        Independence { letters, templates, commutativity, deadline, cache: FxHashMap::default() }
    }

    /// Whether the letters `a` and `b` commute.
    pub fn independent(&mut self, a: usize, b: usize) -> bool {
        let key = (a.min(b), a.max(b));
        if let Some(&known) = self.cache.get(&key) {
            return known;
        }
        let late = self.deadline.is_some_and(|d| Instant::now() >= d);
        let commutativity = if late { Commutativity::Syntactic } else { self.commutativity };
        let same_template = |j: usize, k: usize| self.templates[j] == self.templates[k];
        let answer = independent(&self.letters[a], &self.letters[b], &same_template, commutativity);
        if !late {
            self.cache.insert(key, answer);
        }
        answer
    }
}

/// What a thread may still do from a location: the variables its statements read and write,
/// whether it may enter an atomic section (stopping every other thread) or join a thread
/// (reading that thread's results).
#[derive(Clone, Default)]
struct Future {
    reads: BTreeSet<Term>,
    writes: BTreeSet<Term>,
    atomic: bool,
    joins: bool,
}

/// Persistent sets of the product: in a state, the moves of one thread suffice when every
/// one of them is a statement (no thread operation), none goes back to a loop head of the
/// thread (so every cycle of the reduced product has a state with all its moves, and no thread
/// is ignored forever), and each is independent of everything the other threads may still do,
/// from where they are (or from their start, for those not running). Any run from the state
/// then either takes one of those moves first or can be reordered so that it does, reaching
/// the same error.
pub struct Persistent {
    /// Per thread, per location: its future.
    futures: Vec<Vec<Future>>,
    /// Per thread, per edge: whether it goes back to a loop head (depth-first from the entry).
    back: Vec<Vec<bool>>,
    /// Per thread, per edge: what it reads and writes.
    prints: Vec<Vec<Footprint>>,
    /// Per thread: its results (a join reads them).
    rets: Vec<BTreeSet<Term>>,
}

impl Persistent {
    pub fn new(tp: &ThreadProgram, cfgs: &[Cfg]) -> Persistent {
        let futures = cfgs.iter().map(futures).collect();
        let back = cfgs.iter().map(Cfg::back_edges).collect();
        let rets = tp.threads.iter().map(|t| t.rets.iter().cloned().collect()).collect();
        let prints = cfgs.iter().map(|c| c.edges.iter().map(Footprint::of).collect()).collect();
        Persistent { futures, back, rets, prints }
    }

    /// The thread whose moves form a persistent set in the state `locs`, if one does.
    pub fn choose(&self, cfgs: &[Cfg], succ: &[Vec<Vec<usize>>], locs: &[Option<LocId>]) -> Option<usize> {
        let running = |t: usize| locs[t].filter(|&l| !succ[t][l].is_empty());
        (0..locs.len())
            .filter_map(|t| running(t).map(|l| (t, l)))
            .find(|&(t, l)| {
                let edges = &succ[t][l];
                let steps = edges.iter().all(|&e| matches!(cfgs[t].edges[e].label, Label::Stmt(_)) && !self.back[t][e]);
                if !steps || !always_one_enabled(edges.iter().map(|&e| cfgs[t].edges[e].stmt())) {
                    return false;
                }
                let mine = || edges.iter().map(|&e| &self.prints[t][e]);
                let reads: BTreeSet<&Term> = mine().flat_map(|f| &f.reads).collect();
                let writes: BTreeSet<&Term> = mine().flat_map(|f| &f.writes).collect();
                (0..locs.len()).filter(|&u| u != t).all(|u| {
                    let f = &self.futures[u][locs[u].unwrap_or(cfgs[u].entry)];
                    // an atomic section stops `t`; a join may read its results
                    let stops_or_joins = f.atomic || (f.joins && writes.iter().any(|v| self.rets[t].contains(v)));
                    !stops_or_joins
                        && writes.iter().all(|v| !f.reads.contains(v) && !f.writes.contains(v))
                        && reads.iter().all(|v| !f.writes.contains(v))
                })
            })
            .map(|(t, _)| t)
    }
}

/// Whether one of the statements can always be taken (so that a thread whose moves are these
/// cannot block the exploration): one without a condition, or the two sides of a branch.
fn always_one_enabled(stmts: impl Iterator<Item = Stmt>) -> bool {
    let Some(guards) = stmts.map(|s| guard(&s)).collect::<Option<Vec<Term>>>() else { return false };
    guards.iter().any(Term::is_true) || guards.iter().any(|g| guards.contains(&not(g)))
}

/// The condition under which a statement can be taken, when it is its leading `assume`s
/// followed by assignments only.
fn guard(s: &Stmt) -> Option<Term> {
    fn unconditional(s: &Stmt) -> bool {
        match s {
            Stmt::Assign(_) | Stmt::Havoc(_) => true,
            Stmt::Seq(ss) => ss.iter().all(unconditional),
            Stmt::Assume(c) => c.is_true(),
            Stmt::Choice(_) => false,
        }
    }
    match s {
        Stmt::Assume(c) => Some(c.clone()),
        Stmt::Seq(ss) => {
            let n = ss.iter().take_while(|s| matches!(s, Stmt::Assume(_))).count();
            let conds: Vec<Term> = ss[..n].iter().filter_map(|s| if let Stmt::Assume(c) = s { Some(c.clone()) } else { None }).collect();
            ss[n..].iter().all(unconditional).then(|| and(&conds))
        }
        s => unconditional(s).then(tt),
    }
}

/// The future of every location of a thread's CFG (what the edges reachable from it do).
fn futures(cfg: &Cfg) -> Vec<Future> {
    let mut out: Vec<Future> = vec![Future::default(); cfg.locs.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for e in &cfg.edges {
            let mut f = out[e.dst].clone();
            match &e.label {
                Label::Call(_) => f.atomic = true,
                label => {
                    let p = Footprint::of(e);
                    f.reads.extend(p.reads);
                    f.writes.extend(p.writes);
                    f.atomic |= matches!(label, Label::Thread(ThreadOp::AtomicBegin));
                    f.joins |= matches!(label, Label::Thread(ThreadOp::Join { .. }));
                }
            }
            let here = &mut out[e.src];
            let before = (here.reads.len(), here.writes.len(), here.atomic, here.joins);
            here.reads.extend(f.reads);
            here.writes.extend(f.writes);
            here.atomic |= f.atomic;
            here.joins |= f.joins;
            changed |= before != (here.reads.len(), here.writes.len(), here.atomic, here.joins);
        }
    }
    out
}
