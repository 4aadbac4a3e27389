//! Concurrent programs. A procedure started by `fork` is a thread *template*; each template gets
//! numbered *instances* (its prepared CFG with its variables renamed apart), whose interleavings
//! [`crate::interleavings`] explores. A thread reads its own id from [`own_id`]. C statements
//! are not atomic: [`split_shared_reads`] gives each read of shared data a statement of its
//! own; [`accesses`] names the places a statement accesses, for data races.

use crate::cfg::{Cfg, Edge, Label, Procedure, Program, ThreadOp};
use crate::inline::{prepare, subst_stmt, PrepareError};
use crate::stmt::Stmt;
use smt::build::{and, eq, or, tt};
use smt::subst::{free_vars, substitute};
use smt::{Op, Sort, Term};
use std::collections::{BTreeSet, HashMap};

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
pub(crate) fn sorts(ts: &[Term]) -> Vec<Sort> {
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

/// The accesses of an edge, or why they have no places (an error only where another thread
/// runs beside the edge).
pub(crate) type Accesses = Result<Vec<(Place, bool)>, String>;

/// The accesses of every edge of every thread to the data whose races are checked (none when
/// they are not).
pub(crate) fn race_accesses(tp: &ThreadProgram, cfgs: &[Cfg]) -> Vec<Vec<Accesses>> {
    let of = |e: &Edge| match &e.label {
        Label::Stmt(s) if !tp.race_data.is_empty() => accesses(s, &tp.race_data).map_err(|why| format!("unsupported: data races: {why}")),
        _ => Ok(vec![]),
    };
    cfgs.iter().map(|c| c.edges.iter().map(of).collect()).collect()
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
