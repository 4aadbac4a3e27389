//! Concurrent programs. A procedure started by `fork` is a thread *template*; each template gets
//! numbered *instances* (its prepared CFG with its variables renamed apart), and a program
//! state is a location of every running instance. [`product`] builds the interleavings of the
//! instances as one automaton whose edges are statements of one instance at a time: a fork
//! starts the lowest free instance of its template (the instances of a template are
//! symmetric), a join ends an instance that reached its exit and whose thread id matches (and
//! whose results have the types of the join's targets, if it has any), an atomic section keeps
//! every other instance still, and a thread's `Exit` takes it to its exit. A fork when every
//! instance of the template runs leads to a location of kind [`ViolationKind::ThreadLimit`]: an
//! engine never calls a program safe while it is reachable, and never reports it as a
//! violation. A thread reads its own id from [`own_id`].

use crate::cfg::{Cfg, Edge, Label, LocId, Procedure, Program, ThreadOp, Violation, ViolationKind};
use crate::inline::{prepare, subst_stmt, PrepareError};
use crate::stmt::Stmt;
use rustc_hash::FxHashMap;
use smt::build::{and, eq, or, tt};
use smt::subst::{free_vars, substitute};
use smt::{Op, Sort, Term};
use std::collections::{BTreeSet, HashMap, VecDeque};
use std::time::Instant;

/// The variable a thread reads its own id from: a global that the program sets for the entry's
/// thread, and in an instance of a template whose thread ids are one integer, that id.
pub fn own_id() -> Term {
    Term::var("#self", Sort::Int)
}

/// One thread instance: the entry procedure's (number 0) or an instance of a template.
#[derive(Clone, Debug)]
pub struct Thread {
    /// The procedure the thread runs.
    pub template: String,
    /// The prepared CFG, its variables renamed apart from every other instance's.
    pub cfg: Cfg,
    /// The variables that hold the thread id (none for the entry's thread).
    pub id: Vec<Term>,
    /// The renamed parameters and results.
    pub params: Vec<Term>,
    pub rets: Vec<Term>,
    /// Every variable of the instance (fresh values when it starts).
    pub locals: Vec<Term>,
}

/// A concurrent program: its thread instances and the variables they share.
#[derive(Clone, Debug)]
pub struct ThreadProgram {
    /// The entry's thread first, then `instances` instances of each template.
    pub threads: Vec<Thread>,
    /// The global variables (shared by all threads).
    pub shared: BTreeSet<Term>,
    /// Instances per template.
    pub instances: usize,
    /// The shared variables whose concurrent accesses are data races (empty: not checked).
    pub race_data: BTreeSet<Term>,
}

/// The program of `entry` as threads, or `None` if no thread is ever started.
pub fn prepare_threads(program: &Program, entry: &str, instances: usize) -> Result<Option<ThreadProgram>, PrepareError> {
    if !program.procedures.values().filter_map(|p| p.body.as_ref()).any(forks) {
        return Ok(None);
    }
    let main = prepare(program, entry)?;
    if !forks(&main) {
        return Ok(None);
    }
    recursion_free(program, entry)?;
    let shared: BTreeSet<Term> = program.globals.iter().cloned().collect();
    let mut threads = vec![Thread { template: entry.to_string(), cfg: main, id: vec![], params: vec![], rets: vec![], locals: vec![] }];
    // Each template's instances are added when a fork of it is first seen; they are scanned
    // for forks in turn. Forks of one procedure with thread ids of different types start
    // instances of different templates.
    let mut templates: BTreeSet<(String, Vec<Sort>)> = BTreeSet::new();
    let mut next = 0;
    while next < threads.len() {
        let forks: Vec<(String, Vec<Term>)> = threads[next]
            .cfg
            .edges
            .iter()
            .filter_map(|e| match &e.label {
                Label::Thread(ThreadOp::Fork { ids, callee, .. }) => Some((callee.clone(), ids.clone())),
                _ => None,
            })
            .collect();
        for (callee, ids) in forks {
            if callee == entry {
                return Err(PrepareError::Unsupported(format!("the entry procedure `{entry}` started as a thread")));
            }
            if templates.insert((callee.clone(), sorts(&ids))) {
                for _ in 0..instances {
                    let n = threads.len();
                    threads.push(instance(program, &callee, &ids, n, &shared)?);
                }
            }
        }
        next += 1;
    }
    Ok(Some(ThreadProgram { threads, shared, instances, race_data: program.race_data.clone() }))
}

/// An error if a thread runs a recursive procedure (inlining would replace its calls by
/// contracts, which nothing checks in a concurrent program).
fn recursion_free(program: &Program, name: &str) -> Result<(), PrepareError> {
    match crate::nested::recursive_procedures(program, name).into_iter().next() {
        Some(r) => Err(PrepareError::Unsupported(format!("the recursive procedure `{r}` in a program that starts threads"))),
        None => Ok(()),
    }
}

/// The sorts of a tuple of terms.
fn sorts(ts: &[Term]) -> Vec<Sort> {
    ts.iter().map(|t| t.sort.clone()).collect()
}

/// Whether a CFG starts a thread.
fn forks(cfg: &Cfg) -> bool {
    cfg.edges.iter().any(|e| matches!(e.label, Label::Thread(ThreadOp::Fork { .. })))
}

/// The program with its thread operations as statements, for a program that starts no thread
/// (`None` if it has no thread operation): atomic sections mean nothing, and the end of the only
/// thread ends the execution. Forks and joins stay (an engine rejects them).
pub fn without_atomic_sections(program: &Program) -> Option<Program> {
    let sequential = |op: &ThreadOp| match op {
        ThreadOp::AtomicBegin | ThreadOp::AtomicEnd => Some(tt()),
        ThreadOp::Exit { .. } => Some(smt::build::ff()),
        ThreadOp::Fork { .. } | ThreadOp::Join { .. } => None,
    };
    let replaced = |e: &Edge| match &e.label {
        Label::Thread(op) => sequential(op),
        _ => None,
    };
    if !program.procedures.values().filter_map(|p| p.body.as_ref()).any(|b| b.edges.iter().any(|e| replaced(e).is_some())) {
        return None;
    }
    let mut p = program.clone();
    for body in p.procedures.values_mut().filter_map(|p| p.body.as_mut()) {
        for e in body.edges.iter_mut() {
            if let Some(c) = replaced(e) {
                *e = e.with_stmt(Stmt::Assume(c));
            }
        }
    }
    Some(p)
}

/// Instance number `n` of the template `name`, whose thread ids look like `ids`.
fn instance(program: &Program, name: &str, ids: &[Term], n: usize, shared: &BTreeSet<Term>) -> Result<Thread, PrepareError> {
    let proc = program.procedures.get(name).ok_or_else(|| PrepareError::UnknownProcedure(name.into()))?;
    recursion_free(program, name)?;
    if proc.requires.iter().any(|r| !r.free) {
        return Err(PrepareError::Unsupported(format!("a precondition of `{name}`, which is started as a thread")));
    }
    let cfg = prepare(program, name)?;
    let consts: BTreeSet<&Term> = program.consts.iter().collect();
    let mut vars: BTreeSet<Term> = BTreeSet::new();
    for e in &cfg.edges {
        match &e.label {
            Label::Stmt(_) => {
                let tf = e.trans_formula();
                vars.extend(tf.in_vars.keys().chain(tf.out_vars.keys()).cloned());
            }
            Label::Thread(op) => vars.extend(op.terms().iter().flat_map(free_vars)),
            Label::Call(_) => {}
        }
    }
    let reads_own_id = vars.contains(&own_id());
    vars.extend(proc.params.iter().chain(&proc.rets).cloned());
    vars.retain(|v| !shared.contains(v) && !consts.contains(v));
    let rename = |v: &Term| Term::var(&format!("{}@t{n}", v.var_name().unwrap_or("v")), v.sort.clone());
    let mut map: HashMap<Term, Term> = vars.iter().map(|v| (v.clone(), rename(v))).collect();
    let id: Vec<Term> = ids.iter().enumerate().map(|(k, t)| Term::var(&format!("{name}.tid{k}@t{n}"), t.sort.clone())).collect();
    if reads_own_id {
        match id.as_slice() {
            [i] if i.sort == Sort::Int => map.insert(own_id(), i.clone()),
            _ => return Err(PrepareError::Unsupported(format!("the thread's own id in `{name}`, whose thread ids are not one integer"))),
        };
    }
    let sub = |t: &Term| substitute(t, &map);
    let mut renamed = cfg.clone();
    for e in &mut renamed.edges {
        let label = match &e.label {
            Label::Stmt(s) => Label::Stmt(subst_stmt(s, &map)),
            Label::Thread(op) => Label::Thread(op.map_terms(&sub)),
            Label::Call(c) => return Err(PrepareError::Unsupported(format!("the call of `{}` in a thread", c.callee))),
        };
        let mut edge = e.with_label(label);
        edge.exact = e.exact.as_ref().map(|x| subst_stmt(x, &map));
        *e = edge;
    }
    for l in &mut renamed.locs {
        l.name = format!("{}@t{n}", l.name);
    }
    Ok(Thread {
        template: name.to_string(),
        cfg: renamed,
        id,
        params: proc.params.iter().map(&sub).collect(),
        rets: proc.rets.iter().map(&sub).collect(),
        locals: vars.iter().map(sub).collect(),
    })
}

/// Bound on the locations of a product.
pub const MAX_PRODUCT_LOCS: usize = 500_000;

/// Why the interleavings of a program's threads were not built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProductError {
    /// More than [`MAX_PRODUCT_LOCS`] states (counted after the sleep-set reduction when
    /// `reduced`).
    TooLarge { reduced: bool },
    /// A statement the product cannot interleave.
    Unsupported(String),
    /// The deadline passed before the product was complete.
    OutOfTime,
}

impl From<&String> for ProductError {
    fn from(why: &String) -> ProductError {
        ProductError::Unsupported(why.clone())
    }
}

impl std::fmt::Display for ProductError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProductError::TooLarge { reduced: false } => write!(f, "more than {MAX_PRODUCT_LOCS} interleaved states"),
            ProductError::TooLarge { reduced: true } => write!(f, "more than {MAX_PRODUCT_LOCS} interleaved states after the reduction"),
            ProductError::Unsupported(why) => f.write_str(why),
            ProductError::OutOfTime => f.write_str("timeout before they were all built"),
        }
    }
}

/// What one edge of the product does: an edge of one thread's CFG, taken in one of these ways.
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

/// The interleavings of a concurrent program's threads as one CFG: each location a product
/// state, each edge a statement of one thread ([`Product::moves`]).
pub struct Product {
    pub cfg: Cfg,
    /// The move of each edge of `cfg`.
    pub moves: Vec<Move>,
    /// The location of every thread at each location of `cfg` (`None`: not running).
    pub states: Vec<Vec<Option<LocId>>>,
}

/// A state of the product: each thread's location, and which thread is in an atomic section
/// (with its nesting depth).
#[derive(Clone, PartialEq, Eq, Hash)]
struct State {
    locs: Vec<Option<LocId>>,
    atomic: Option<(usize, u32)>,
}

/// The product under construction: its CFG, the state of each location, and the states whose
/// successors are still to be added.
struct Explorer<'a> {
    cfgs: &'a [Cfg],
    cfg: Cfg,
    index: FxHashMap<State, LocId>,
    states: Vec<Vec<Option<LocId>>>,
    queue: VecDeque<State>,
    deadline: Option<Instant>,
}

impl Explorer<'_> {
    /// The location of `s`, added (and queued) if it is new.
    fn intern(&mut self, s: State) -> Result<LocId, ProductError> {
        if let Some(&l) = self.index.get(&s) {
            return Ok(l);
        }
        if self.cfg.locs.len() >= MAX_PRODUCT_LOCS {
            return Err(ProductError::TooLarge { reduced: false });
        }
        if past(self.deadline) {
            return Err(ProductError::OutOfTime);
        }
        let cfgs = self.cfgs;
        let violation = s.locs.iter().enumerate().find_map(|(t, l)| l.and_then(|l| cfgs[t].locs[l].error.clone()));
        let name = s.locs.iter().enumerate().filter_map(|(t, l)| l.map(|l| cfgs[t].locs[l].name.clone())).collect::<Vec<_>>().join(" | ");
        let id = match violation {
            Some(v) => self.cfg.add_error_loc(v),
            None => self.cfg.add_loc("", s.locs[0].and_then(|l| cfgs[0].locs[l].pos.clone())),
        };
        self.cfg.locs[id].name = name;
        self.index.insert(s.clone(), id);
        self.states.push(s.locs.clone());
        self.queue.push_back(s);
        Ok(id)
    }
}

/// Whether `deadline` has passed (checked as each state of a product is added: a product of a
/// hundred thousand states takes seconds).
pub(crate) fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
}

/// The product of the threads, whose CFGs are `cfgs` (each thread's CFG encoded, with the
/// thread's locations), explored from the entry's thread alone before `deadline`; with
/// `persistent`, only the moves of a persistent set where one exists
/// ([`crate::por::Persistent`]).
pub fn product(tp: &ThreadProgram, cfgs: &[Cfg], persistent: bool, deadline: Option<Instant>) -> Result<Product, ProductError> {
    let succ: Vec<Vec<Vec<usize>>> = cfgs.iter().map(|c| c.successors()).collect();
    let persistent = persistent.then(|| crate::por::Persistent::new(tp, cfgs));
    let mut x = Explorer { cfgs, cfg: Cfg::default(), index: FxHashMap::default(), states: vec![], queue: VecDeque::new(), deadline };
    let mut moves = vec![];
    let mut limit_loc = None;
    let access = race_accesses(tp, cfgs);
    let mut race_locs: HashMap<(usize, usize, usize, usize), LocId> = HashMap::new();
    let start = State { locs: (0..cfgs.len()).map(|t| (t == 0).then_some(cfgs[0].entry)).collect(), atomic: None };
    x.cfg.entry = x.intern(start)?;
    while let Some(s) = x.queue.pop_front() {
        let src = x.index[&s];
        if x.cfg.locs[src].error.is_some() {
            continue;
        }
        let only = persistent.as_ref().filter(|_| s.atomic.is_none()).and_then(|p| p.choose(cfgs, &succ, &s.locs));
        for (t, loc) in s.locs.iter().enumerate() {
            let Some(loc) = *loc else { continue };
            if s.atomic.is_some_and(|(owner, _)| owner != t) || only.is_some_and(|o| o != t) {
                continue;
            }
            for &e in &succ[t][loc] {
                let edge = &cfgs[t].edges[e];
                for (kind, stmt, next) in moves_of(tp, cfgs, &s, t, edge) {
                    let dst = match next {
                        Some(next) => x.intern(next)?,
                        None => *limit_loc.get_or_insert_with(|| {
                            x.states.push(vec![]);
                            x.cfg.add_error_loc(Violation { kind: ViolationKind::ThreadLimit, pos: edge.pos.clone() })
                        }),
                    };
                    let product_edge = match stmt {
                        None => edge.between(src, dst),
                        Some(stmt) => edge.with_stmt(stmt).between(src, dst),
                    };
                    x.cfg.add_edge(product_edge);
                    moves.push(Move { thread: t, edge: e, kind });
                }
            }
        }
        // two threads at accesses of one place, one of them writing (an access inside an
        // atomic section races with one outside it)
        for (t, u) in running_pairs(&s) {
            let (lt, lu) = (s.locs[t].unwrap_or_default(), s.locs[u].unwrap_or_default());
            for (&e, &f) in succ[t][lt].iter().flat_map(|e| succ[u][lu].iter().map(move |f| (e, f))) {
                let Some(same) = conflict(access[t][e].as_ref()?, access[u][f].as_ref()?) else { continue };
                let dst = *race_locs.entry((t, e, u, f)).or_insert_with(|| {
                    x.states.push(vec![]);
                    x.cfg.add_error_loc(Violation { kind: ViolationKind::DataRace, pos: cfgs[u].edges[f].pos.clone() })
                });
                x.cfg.add_edge(cfgs[t].edges[e].with_stmt(Stmt::Assume(same)).between(src, dst));
                moves.push(Move { thread: t, edge: e, kind: MoveKind::Race(u, f) });
            }
        }
    }
    x.cfg.exit = x.cfg.entry;
    Ok(Product { cfg: x.cfg, moves, states: x.states })
}

/// The pairs of threads running in `s`.
fn running_pairs(s: &State) -> Vec<(usize, usize)> {
    let running: Vec<usize> = (0..s.locs.len()).filter(|&t| s.locs[t].is_some()).collect();
    running.iter().enumerate().flat_map(|(k, &t)| running[k + 1..].iter().map(move |&u| (t, u))).collect()
}

/// The accesses of an edge, or why they have no places (an error only where another thread
/// runs beside the edge).
type Accesses = Result<Vec<(Place, bool)>, String>;

/// The accesses of every edge of every thread to the data whose races are checked (none when
/// they are not).
fn race_accesses(tp: &ThreadProgram, cfgs: &[Cfg]) -> Vec<Vec<Accesses>> {
    let of = |e: &Edge| match &e.label {
        Label::Stmt(s) if !tp.race_data.is_empty() => accesses(s, &tp.race_data).map_err(|why| format!("unsupported: data races: {why}")),
        _ => Ok(vec![]),
    };
    cfgs.iter().map(|c| c.edges.iter().map(of).collect()).collect()
}

/// The moves of thread `t` along `edge` from `s`: how, the statement if it is not the edge's
/// own, and the next state (`None`: a fork with no free instance).
fn moves_of(tp: &ThreadProgram, cfgs: &[Cfg], s: &State, t: usize, edge: &Edge) -> Vec<(MoveKind, Option<Stmt>, Option<State>)> {
    let exits = matches!(edge.label, Label::Thread(ThreadOp::Exit { .. }));
    let step = |partner: Option<(usize, Option<LocId>)>, atomic: Option<(usize, u32)>| {
        let mut next = State { locs: s.locs.clone(), atomic };
        let to = if exits { cfgs[t].exit } else { edge.dst };
        next.locs[t] = Some(to);
        if let Some((p, l)) = partner {
            next.locs[p] = l;
        }
        if to == cfgs[t].exit && next.atomic.is_some_and(|(o, _)| o == t) {
            next.atomic = None; // a thread that ends leaves its atomic sections
        }
        next
    };
    let op = match &edge.label {
        Label::Thread(op) => op,
        _ => return vec![(MoveKind::Step, None, Some(step(None, s.atomic)))],
    };
    match op {
        ThreadOp::AtomicBegin => {
            let depth = s.atomic.map_or(0, |(_, d)| d);
            vec![(MoveKind::Atomic, Some(Stmt::Assume(tt())), Some(step(None, Some((t, depth + 1)))))]
        }
        ThreadOp::Exit { values } => {
            // the thread's results (the entry's thread has none: the others go on)
            let rets = &tp.threads[t].rets;
            let stmt = match rets.len() == values.len() && !rets.is_empty() {
                true => Stmt::Assign(rets.iter().cloned().zip(values.iter().cloned()).collect()),
                false => Stmt::Assume(tt()),
            };
            vec![(MoveKind::Step, Some(stmt), Some(step(None, s.atomic)))]
        }
        ThreadOp::AtomicEnd => {
            let atomic = s.atomic.and_then(|(o, d)| (d > 1).then_some((o, d - 1)));
            vec![(MoveKind::Atomic, Some(Stmt::Assume(tt())), Some(step(None, atomic)))]
        }
        ThreadOp::Fork { ids, callee, args } => {
            let template = |j: usize| tp.threads[j].template == *callee && sorts(&tp.threads[j].id) == sorts(ids);
            let free = (1..tp.threads.len()).find(|&j| template(j) && s.locs[j].is_none());
            let Some(j) = free else { return vec![(MoveKind::Limit, Some(Stmt::Assume(tt())), None)] };
            let th = &tp.threads[j];
            let mut assign: Vec<(Term, Term)> = th.id.iter().cloned().zip(ids.iter().cloned()).collect();
            assign.extend(th.params.iter().cloned().zip(args.iter().cloned()));
            let stmt = Stmt::Seq(vec![Stmt::Havoc(th.locals.clone()), Stmt::Assign(assign)]);
            vec![(MoveKind::Fork(j), Some(stmt), Some(step(Some((j, Some(cfgs[j].entry))), s.atomic)))]
        }
        ThreadOp::Join { ids, rets } => (1..tp.threads.len())
            .filter(|&j| j != t && s.locs[j] == Some(cfgs[j].exit))
            .filter(|&j| sorts(&tp.threads[j].id) == sorts(ids) && (rets.is_empty() || sorts(&tp.threads[j].rets) == sorts(rets)))
            .map(|j| {
                let th = &tp.threads[j];
                let same: Vec<Term> = th.id.iter().zip(ids).map(|(a, b)| eq(a, b)).collect();
                let mut stmt = vec![Stmt::Assume(and(&same))];
                if !rets.is_empty() {
                    stmt.push(Stmt::Assign(rets.iter().cloned().zip(th.rets.iter().cloned()).collect()));
                }
                (MoveKind::Join(j), Some(Stmt::Seq(stmt)), Some(step(Some((j, None)), s.atomic)))
            })
            .collect(),
    }
}

/// Splits the statements of `proc` that access shared data more than once, for a language
/// whose statements are not atomic (C: `x = x + 1` reads `x`, then writes it, and another
/// thread may write in between). Each read of a variable of `data` (a cell of it, for an
/// array) moves to a statement of its own before the rest, which reads a fresh local instead.
/// A statement whose parts write what a later part reads (a composed statement of the front
/// end) stays whole.
pub fn split_shared_reads(proc: &mut Procedure, data: &BTreeSet<Term>) {
    let Some(body) = proc.body.as_mut() else { return };
    let edges = std::mem::take(&mut body.edges);
    for e in edges {
        let Label::Stmt(s) = &e.label else {
            body.edges.push(e);
            continue;
        };
        let reads = shared_reads(s, data);
        let writes = e.trans_formula().assigned_vars().iter().any(|v| data.contains(v));
        if reads.len() + usize::from(writes) <= 1 || (!matches!(s, Stmt::Assign(_) | Stmt::Assume(_)) && reads_written(s, &reads)) {
            body.edges.push(e);
            continue;
        }
        let mut map = HashMap::new();
        let mut src = e.src;
        for r in reads {
            let t = Term::fresh("#read", r.sort.clone());
            proc.locals.push(t.clone());
            let next = body.add_loc(format!("read{}", body.locs.len()), e.pos.clone());
            body.add_stmt(src, next, Stmt::Assign(vec![(t.clone(), substitute(&r, &map))]), e.pos.clone());
            map.insert(r, t);
            src = next;
        }
        let mut rest = e.with_stmt(replace_reads(s, &map)).between(src, e.dst);
        rest.exact = e.exact.as_ref().map(|x| replace_reads(x, &map));
        body.add_edge(rest);
    }
}

/// The reads of shared data in `s`, without repetitions and each after the reads inside it (a
/// cell's index may be read from memory too): variables of `data` that are not arrays, and
/// cells `select(..select(a, i).., j)` of arrays `a` of `data`.
fn shared_reads(s: &Stmt, data: &BTreeSet<Term>) -> Vec<Term> {
    fn visit(t: &Term, data: &BTreeSet<Term>, out: &mut Vec<Term>) {
        t.args.iter().for_each(|a| visit(a, data, out));
        let cell = !matches!(t.sort, Sort::Array(..)) && array_of(t).is_some_and(|a| data.contains(a));
        if (cell || (t.is_var() && data.contains(t) && !matches!(t.sort, Sort::Array(..)))) && !out.contains(t) {
            out.push(t.clone());
        }
    }
    fn stmt(s: &Stmt, data: &BTreeSet<Term>, out: &mut Vec<Term>) {
        match s {
            Stmt::Assume(c) => visit(c, data, out),
            Stmt::Assign(pairs) => pairs.iter().for_each(|(_, e)| visit(e, data, out)),
            Stmt::Havoc(_) => {}
            Stmt::Seq(ss) | Stmt::Choice(ss) => ss.iter().for_each(|s| stmt(s, data, out)),
        }
    }
    let mut out = vec![];
    stmt(s, data, &mut out);
    out
}

/// `s` with the reads of `map` replaced (the variables it assigns stay).
fn replace_reads(s: &Stmt, map: &HashMap<Term, Term>) -> Stmt {
    match s {
        Stmt::Assume(c) => Stmt::Assume(substitute(c, map)),
        Stmt::Assign(pairs) => Stmt::Assign(pairs.iter().map(|(x, e)| (x.clone(), substitute(e, map))).collect()),
        Stmt::Havoc(vs) => Stmt::Havoc(vs.clone()),
        Stmt::Seq(ss) => Stmt::Seq(ss.iter().map(|s| replace_reads(s, map)).collect()),
        Stmt::Choice(ss) => Stmt::Choice(ss.iter().map(|s| replace_reads(s, map)).collect()),
    }
}

/// The array variable a chain of `select`s reads from.
fn array_of(t: &Term) -> Option<&Term> {
    match t.op() {
        Some(Op::Select) => {
            let a = &t.args[0];
            if a.is_var() {
                Some(a)
            } else {
                array_of(a)
            }
        }
        _ => None,
    }
}

/// Whether a part of `s` writes a variable that one of `reads` reads.
fn reads_written(s: &Stmt, reads: &[Term]) -> bool {
    let written = s.trans_formula().assigned_vars();
    reads.iter().any(|r| free_vars(r).iter().any(|v| written.contains(v)))
}

/// One location of shared data: a variable, or a cell of an array variable (its indices).
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    pub var: Term,
    pub indices: Vec<Term>,
}

/// The place a read term (as [`shared_reads`] returns them) accesses.
fn read_place(t: &Term) -> Place {
    let (var, indices) = t.select_chain();
    Place { var: var.clone(), indices }
}

/// The cells an update `store(a, i, store(select(a, i), j, v))` of the array `a` writes (several
/// for nested updates), or `None` if `rhs` is not such an update.
fn written_places(a: &Term, rhs: &Term) -> Option<Vec<Place>> {
    /// Collects the index paths (after `prefix`) that `t`, an update of `base`, writes.
    fn go(base: &Term, t: &Term, prefix: &[Term], out: &mut Vec<Vec<Term>>) -> bool {
        if t == base {
            return true;
        }
        let (Some(Op::Store), [inner, i, v]) = (t.op(), t.args.as_slice()) else { return false };
        let mut path = prefix.to_vec();
        path.push(i.clone());
        let value = match v.sort {
            Sort::Array(..) => go(&smt::build::select(inner, i), v, &path, out),
            _ => {
                out.push(path);
                true
            }
        };
        value && go(base, inner, prefix, out)
    }
    let mut paths = vec![];
    go(a, rhs, &[], &mut paths).then(|| paths.into_iter().map(|indices| Place { var: a.clone(), indices }).collect())
}

/// The places of `data` a statement accesses, each with whether it writes there (a place it
/// reads and writes counts as written). A whole array is a place without indices: a copy
/// writes (or reads) every cell of it. An error for an update that keeps some cells in a way
/// other than a store of the others, whose cells written no place says exactly.
pub fn accesses(s: &Stmt, data: &BTreeSet<Term>) -> Result<Vec<(Place, bool)>, String> {
    let whole = |a: &Term| Place { var: a.clone(), indices: vec![] };
    let mut writes: Vec<Place> = vec![];
    let assigned = assignments(s);
    for (x, rhs) in assigned.iter().cloned() {
        if !data.contains(&x) {
            continue;
        }
        match (&x.sort, written_places(&x, &rhs)) {
            (Sort::Array(..), Some(cells)) => writes.extend(cells),
            (Sort::Array(..), None) if free_vars(&rhs).contains(&x) => {
                return Err(format!("an update of `{x}` that is not a store of cells"))
            }
            _ => writes.push(whole(&x)),
        }
    }
    // a havoc writes every cell of an array (an assignment writes what it stores)
    for v in s.trans_formula().assigned_vars().into_iter().filter(|v| data.contains(v)) {
        if !assigned.iter().any(|(x, _)| *x == v) {
            writes.push(whole(&v));
        }
    }
    let read_terms = shared_reads(s, data);
    let whole_reads = whole_array_reads(s, data, &read_terms).into_iter().map(whole);
    let reads: Vec<Place> = read_terms.iter().map(read_place).chain(whole_reads).filter(|p| !writes.contains(p)).collect();
    Ok(writes.into_iter().map(|p| (p, true)).chain(reads.into_iter().map(|p| (p, false))).collect())
}

/// When two sets of accesses conflict (some place of both, one of them writing): the condition
/// that their indices agree, `None` if no two of them can meet. A place with fewer indices
/// (a whole array, or a row of one) contains every cell whose indices start with its own.
pub fn conflict(a: &[(Place, bool)], b: &[(Place, bool)]) -> Option<Term> {
    let mut cases = vec![];
    for (p, pw) in a {
        for (q, qw) in b {
            if p.var == q.var && (*pw || *qw) {
                cases.push(and(&p.indices.iter().zip(&q.indices).map(|(i, j)| eq(i, j)).collect::<Vec<_>>()));
            }
        }
    }
    (!cases.is_empty()).then(|| or(&cases))
}

/// The arrays of `data` that `s` reads other than through the cells `cells` or updates other
/// than cell by cell (a copy of the whole array).
fn whole_array_reads<'d>(s: &Stmt, data: &'d BTreeSet<Term>, cells: &[Term]) -> Vec<&'d Term> {
    let hole = |t: &Term| Term::var("#cell", t.sort.clone());
    let map: HashMap<Term, Term> = cells.iter().map(|c| (c.clone(), hole(c))).collect();
    let rest = replace_reads(s, &map);
    let mut left = BTreeSet::new();
    for (x, rhs) in assignments(&rest) {
        // an update of `x` cell by cell reads `x` only to keep its other cells
        if written_places(&x, &rhs).is_none() {
            left.extend(free_vars(&rhs));
        } else {
            let inner = |t: &Term| free_vars(t).into_iter().filter(|v| *v != x).collect::<Vec<_>>();
            left.extend(inner(&rhs));
        }
    }
    for c in conditions(&rest) {
        left.extend(free_vars(&c));
    }
    data.iter().filter(|v| matches!(v.sort, Sort::Array(..)) && left.contains(*v)).collect()
}

/// The conditions of a statement's `assume`s.
fn conditions(s: &Stmt) -> Vec<Term> {
    match s {
        Stmt::Assume(c) => vec![c.clone()],
        Stmt::Seq(ss) | Stmt::Choice(ss) => ss.iter().flat_map(conditions).collect(),
        _ => vec![],
    }
}

/// The assignments of a statement (of its parts, for a composed one).
fn assignments(s: &Stmt) -> Vec<(Term, Term)> {
    match s {
        Stmt::Assign(pairs) => pairs.clone(),
        Stmt::Seq(ss) | Stmt::Choice(ss) => ss.iter().flat_map(assignments).collect(),
        _ => vec![],
    }
}
