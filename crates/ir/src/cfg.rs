//! Programs, procedures and their control-flow graphs.

use crate::stmt::{Stmt, TransFormula};
use smt::{FuncDecl, Term};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// A position in a source file (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SourcePos {
    pub file: Arc<str>,
    pub line: u32,
    pub col: u32,
}

impl fmt::Display for SourcePos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// What an error location stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ViolationKind {
    /// An `assert` statement.
    Assert,
    /// A loop invariant that may not hold on entry or may not be maintained.
    LoopInvariant,
    /// A precondition at a call site.
    Requires,
    /// A postcondition at procedure exit.
    Ensures,
    /// A call of an error function (`reach_error`, `__VERIFIER_error`) in a C program.
    ErrorCall,
    /// A signed integer overflow (undefined behaviour in C).
    Overflow,
    /// An integer division or remainder by zero.
    DivByZero,
    /// An access outside of an object (or to an invalid one) in a C program.
    ValidDeref,
    /// A `free` of a pointer that is not the start of a live heap object.
    ValidFree,
    /// Allocated memory that is no longer tracked at program end (a leak).
    ValidMemtrack,
    /// Allocated memory that is not freed at program end.
    ValidMemcleanup,
    /// An execution that never ends (no error location: a lasso the termination engine found).
    Nontermination,
    /// Two threads may access one location at once, at least one of them writing.
    DataRace,
    /// A thread is started while every instance of its procedure runs: not a violation, but a
    /// state beyond the bounded number of thread instances (its reachability means UNKNOWN).
    ThreadLimit,
}

impl ViolationKind {
    /// The SV-COMP property this violation belongs to (printed as `FALSE(<property>)`).
    pub fn property(self) -> &'static str {
        match self {
            ViolationKind::Assert | ViolationKind::LoopInvariant | ViolationKind::Requires | ViolationKind::Ensures => "unreach-call",
            ViolationKind::ErrorCall => "unreach-call",
            ViolationKind::Overflow => "no-overflow",
            ViolationKind::DivByZero => "div-by-zero",
            ViolationKind::ValidDeref => "valid-deref",
            ViolationKind::ValidFree => "valid-free",
            ViolationKind::ValidMemtrack => "valid-memtrack",
            ViolationKind::ValidMemcleanup => "valid-memcleanup",
            ViolationKind::Nontermination => "termination",
            ViolationKind::DataRace => "no-data-race",
            ViolationKind::ThreadLimit => "thread-instances",
        }
    }

    /// A short human description.
    pub fn describe(self) -> &'static str {
        match self {
            ViolationKind::Assert => "assertion may fail",
            ViolationKind::LoopInvariant => "loop invariant may not hold",
            ViolationKind::Requires => "precondition of call may not hold",
            ViolationKind::Ensures => "postcondition may not hold",
            ViolationKind::ErrorCall => "error function may be called",
            ViolationKind::Overflow => "signed integer overflow may occur",
            ViolationKind::DivByZero => "division by zero may occur",
            ViolationKind::ValidDeref => "memory access may be out of bounds or invalid",
            ViolationKind::ValidFree => "free of an invalid pointer may occur",
            ViolationKind::ValidMemtrack => "allocated memory may be lost (memory leak)",
            ViolationKind::ValidMemcleanup => "allocated memory may not be freed at program end",
            ViolationKind::Nontermination => "the program may run forever",
            ViolationKind::DataRace => "data race: two threads may access one location at once, one of them writing",
            ViolationKind::ThreadLimit => "more threads may run at once than there are thread instances",
        }
    }
}

/// The property violated when an error location is reached.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Violation {
    pub kind: ViolationKind,
    pub pos: Option<SourcePos>,
}

/// Index of a location in its CFG.
pub type LocId = usize;
/// Index of an edge in its CFG.
pub type EdgeId = usize;

/// A control location.
#[derive(Clone, Debug)]
pub struct Location {
    /// A readable name (`L12`, `main.entry`, ...).
    pub name: String,
    pub pos: Option<SourcePos>,
    /// Set when reaching this location violates a property.
    pub error: Option<Violation>,
}

/// A call of a procedure: `rets := callee(args)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Call {
    pub callee: String,
    pub args: Vec<Term>,
    pub rets: Vec<Term>,
}

/// An operation on threads (concurrent programs). Only the interleaving of threads gives it a
/// meaning: an engine that reads an edge as a statement never sees one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ThreadOp {
    /// Starts a thread that runs `callee(args)` and whose thread id is the tuple `ids`.
    Fork { ids: Vec<Term>, callee: String, args: Vec<Term> },
    /// Waits until a thread whose id is `ids` has ended and assigns its results to `rets`.
    Join { ids: Vec<Term>, rets: Vec<Term> },
    /// Enters an atomic section: no other thread moves until the matching `AtomicEnd`.
    AtomicBegin,
    /// Leaves an atomic section.
    AtomicEnd,
    /// Ends the thread that takes it, with the results `values` (C's `pthread_exit`).
    Exit { values: Vec<Term> },
}

impl ThreadOp {
    /// The terms the operation reads or writes.
    pub fn terms(&self) -> Vec<Term> {
        match self {
            ThreadOp::Fork { ids, args, .. } => ids.iter().chain(args).cloned().collect(),
            ThreadOp::Join { ids, rets } => ids.iter().chain(rets).cloned().collect(),
            ThreadOp::Exit { values } => values.clone(),
            ThreadOp::AtomicBegin | ThreadOp::AtomicEnd => vec![],
        }
    }

    /// The operation with every term mapped by `f`.
    pub fn map_terms(&self, f: &dyn Fn(&Term) -> Term) -> ThreadOp {
        let all = |ts: &[Term]| ts.iter().map(f).collect();
        match self {
            ThreadOp::Fork { ids, callee, args } => ThreadOp::Fork { ids: all(ids), callee: callee.clone(), args: all(args) },
            ThreadOp::Join { ids, rets } => ThreadOp::Join { ids: all(ids), rets: all(rets) },
            ThreadOp::Exit { values } => ThreadOp::Exit { values: all(values) },
            op => op.clone(),
        }
    }
}

/// What an edge does.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Label {
    Stmt(Stmt),
    Call(Call),
    Thread(ThreadOp),
}

/// A CFG edge.
#[derive(Clone, Debug)]
pub struct Edge {
    pub src: LocId,
    pub dst: LocId,
    pub label: Label,
    pub pos: Option<SourcePos>,
    /// Set when the statement over-approximates the program's semantics (the reason):
    /// a feasible error trace through such an edge is not a counterexample.
    pub overapprox: Option<String>,
    /// For an over-approximating edge whose exact semantics is known but costly (bitwise
    /// operators as bit-vector operations): the exact statement, for re-checking a feasible
    /// error trace before it is reported.
    pub exact: Option<Stmt>,
    /// For an over-approximating edge: whether the front end's bit-precise translation of the
    /// program models the statement exactly (bitwise operators, `float` and `double` values
    /// under integer semantics).
    pub bit_precise_exact: bool,
    /// Set when the statement havocs the result of an input function (`__VERIFIER_nondet_int()`).
    pub nondet: Option<Nondet>,
    /// For an edge that large-block encoding composed: the original edges it is made of
    /// (its statement is the same composition of theirs). `None` for an original edge.
    pub block: Option<Arc<Block>>,
    /// For an edge that slicing took assignments from: its statement before (the report of a
    /// counterexample shows it).
    pub unsliced: Option<Stmt>,
    /// The statement's transition formula, computed once and shared by the edge's clones
    /// (private: an edge with another statement is made by [`Edge::with_stmt`]).
    tf: TfCache,
}

/// A transition formula computed on first use.
#[derive(Clone, Debug, Default)]
struct TfCache(Arc<OnceLock<TransFormula>>);

impl Edge {
    /// An original edge without attributes.
    pub fn new(src: LocId, dst: LocId, label: Label, pos: Option<SourcePos>, overapprox: Option<String>) -> Edge {
        Edge {
            src,
            dst,
            label,
            pos,
            overapprox,
            exact: None,
            bit_precise_exact: false,
            nondet: None,
            block: None,
            unsliced: None,
            tf: TfCache::default(),
        }
    }

    /// The edge with the statement `stmt` instead of its own (and with its transition formula).
    pub fn with_stmt(&self, stmt: Stmt) -> Edge {
        self.with_label(Label::Stmt(stmt))
    }

    /// The edge with the label `label` instead of its own.
    pub fn with_label(&self, label: Label) -> Edge {
        Edge { label, tf: TfCache::default(), unsliced: None, ..self.clone() }
    }

    /// The edge between other locations (with its attributes and transition formula).
    pub fn between(&self, src: LocId, dst: LocId) -> Edge {
        Edge { src, dst, ..self.clone() }
    }

    /// The transition formula of the edge's statement, computed once.
    pub fn trans_formula(&self) -> &TransFormula {
        self.tf.0.get_or_init(|| self.stmt().trans_formula())
    }

    /// The edge's statement (`assume true` for a call or a thread operation, which only an
    /// engine's input lacks).
    pub fn stmt(&self) -> Stmt {
        match &self.label {
            Label::Stmt(s) => s.clone(),
            Label::Call(_) | Label::Thread(_) => Stmt::Assume(smt::build::tt()),
        }
    }

    /// The statement of the source program: before slicing, if slicing changed it.
    pub fn source_stmt(&self) -> Stmt {
        self.unsliced.clone().unwrap_or_else(|| self.stmt())
    }

    /// The transition formula of [`Self::source_stmt`] (the edge's own, computed once, unless
    /// slicing changed it).
    pub fn source_trans_formula(&self) -> TransFormula {
        match &self.unsliced {
            Some(s) => s.trans_formula(),
            None => self.trans_formula().clone(),
        }
    }

    /// The original edges this edge is made of (itself for an original edge).
    pub fn as_block(&self) -> Block {
        match &self.block {
            Some(b) => (**b).clone(),
            None => Block::Edge(Box::new(self.clone())),
        }
    }
}

/// The value of an input function: the first variable the edge havocs is its result.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Nondet {
    /// The function called (`__VERIFIER_nondet_int`).
    pub function: String,
    /// The source-language type of the value, as the front end names it.
    pub ty: SourceType,
}

/// A front end's opaque key of a source-language type (for `cfront`, a C type such as
/// `unsigned char`): only that front end's back-translation map says what it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SourceType(
    /// The front end's number of the type.
    pub u32,
);

/// How a large-block edge is composed of original edges.
#[derive(Clone, Debug)]
pub enum Block {
    /// An original edge (its `src`/`dst` are locations of the CFG before the encoding).
    Edge(Box<Edge>),
    Seq(Vec<Block>),
    Choice(Vec<Block>),
}

impl Block {
    /// The statement the block stands for: the sequence of its parts' statements (nested
    /// sequences flattened, `assume true` left out), or the choice of its branches'.
    pub fn stmt(&self) -> Stmt {
        match self {
            Block::Edge(e) => e.stmt(),
            Block::Seq(parts) => {
                let mut flat = vec![];
                for s in parts.iter().map(Block::stmt) {
                    match s {
                        Stmt::Seq(ss) => flat.extend(ss),
                        Stmt::Assume(t) if t.is_true() => {}
                        s => flat.push(s),
                    }
                }
                match flat.len() {
                    0 => Stmt::Assume(smt::build::tt()),
                    1 => flat.pop().unwrap_or(Stmt::Assume(smt::build::tt())),
                    _ => Stmt::Seq(flat),
                }
            }
            Block::Choice(parts) => Stmt::Choice(parts.iter().map(Block::stmt).collect()),
        }
    }

    /// The transition formula of [`Self::stmt`] (an original edge's is computed once).
    pub fn trans_formula(&self) -> TransFormula {
        match self {
            Block::Edge(e) => e.trans_formula().clone(),
            _ => self.stmt().trans_formula(),
        }
    }
}

/// A control-flow graph with one entry and one exit.
#[derive(Clone, Debug, Default)]
pub struct Cfg {
    pub locs: Vec<Location>,
    pub edges: Vec<Edge>,
    pub entry: LocId,
    pub exit: LocId,
}

impl Cfg {
    /// Adds a location and returns its id.
    pub fn add_loc(&mut self, name: impl Into<String>, pos: Option<SourcePos>) -> LocId {
        self.locs.push(Location { name: name.into(), pos, error: None });
        self.locs.len() - 1
    }

    /// Adds an error location for the given violation.
    pub fn add_error_loc(&mut self, violation: Violation) -> LocId {
        let name = format!("ERR{}", self.locs.len());
        let pos = violation.pos.clone();
        self.locs.push(Location { name, pos, error: Some(violation) });
        self.locs.len() - 1
    }

    /// Adds an edge carrying a statement.
    pub fn add_stmt(&mut self, src: LocId, dst: LocId, stmt: Stmt, pos: Option<SourcePos>) -> EdgeId {
        self.add_edge(Edge::new(src, dst, Label::Stmt(stmt), pos, None))
    }

    /// Adds an edge.
    pub fn add_edge(&mut self, e: Edge) -> EdgeId {
        self.edges.push(e);
        self.edges.len() - 1
    }

    /// Outgoing edges of every location.
    pub fn successors(&self) -> Vec<Vec<EdgeId>> {
        let mut out = vec![Vec::new(); self.locs.len()];
        for (i, e) in self.edges.iter().enumerate() {
            out[e.src].push(i);
        }
        out
    }

    /// Incoming edges of every location.
    pub fn predecessors(&self) -> Vec<Vec<EdgeId>> {
        let mut inc = vec![Vec::new(); self.locs.len()];
        for (i, e) in self.edges.iter().enumerate() {
            inc[e.dst].push(i);
        }
        inc
    }

    /// Which locations can reach one of `targets` (the targets included).
    pub fn reaching(&self, targets: Vec<LocId>) -> Vec<bool> {
        let preds = self.predecessors();
        let mut live = vec![false; self.locs.len()];
        for &l in &targets {
            live[l] = true;
        }
        let mut stack = targets;
        while let Some(l) = stack.pop() {
            for &e in &preds[l] {
                let src = self.edges[e].src;
                if !std::mem::replace(&mut live[src], true) {
                    stack.push(src);
                }
            }
        }
        live
    }

    /// The locations that are targets of a back edge (depth-first from the entry).
    pub fn loop_heads(&self) -> Vec<LocId> {
        let mut heads = vec![false; self.locs.len()];
        for (e, back) in self.back_edges().into_iter().enumerate() {
            heads[self.edges[e].dst] |= back;
        }
        (0..self.locs.len()).filter(|&l| heads[l]).collect()
    }

    /// Which edges go back to a location on the depth-first path from the entry.
    pub fn back_edges(&self) -> Vec<bool> {
        let mut back = vec![false; self.edges.len()];
        if self.entry >= self.locs.len() {
            return back;
        }
        let succ = self.successors();
        let mut state = vec![0u8; self.locs.len()]; // 0 new, 1 on the path, 2 done
        let mut stack = vec![(self.entry, 0usize)];
        state[self.entry] = 1;
        while let Some((l, i)) = stack.pop() {
            if let Some(&e) = succ[l].get(i) {
                stack.push((l, i + 1));
                let d = self.edges[e].dst;
                match state[d] {
                    0 => {
                        state[d] = 1;
                        stack.push((d, 0));
                    }
                    1 => back[e] = true,
                    _ => {}
                }
            } else {
                state[l] = 2;
            }
        }
        back
    }

    /// Ids of the error locations.
    pub fn error_locs(&self) -> Vec<LocId> {
        (0..self.locs.len()).filter(|&l| self.locs[l].error.is_some()).collect()
    }
}

/// A pre- or postcondition.
#[derive(Clone, Debug)]
pub struct Spec {
    pub formula: Term,
    /// Free specs are assumed but never checked.
    pub free: bool,
    pub pos: Option<SourcePos>,
}

/// A procedure: signature, contract, and (if implemented) its body.
#[derive(Clone, Debug)]
pub struct Procedure {
    pub name: String,
    pub params: Vec<Term>,
    pub rets: Vec<Term>,
    pub locals: Vec<Term>,
    /// Global variables the procedure may modify.
    pub modifies: Vec<Term>,
    pub requires: Vec<Spec>,
    pub ensures: Vec<Spec>,
    pub body: Option<Cfg>,
    pub pos: Option<SourcePos>,
}

/// A whole program.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// The source file name (for messages).
    pub file: String,
    /// Mutable global variables.
    pub globals: Vec<Term>,
    /// Global constants (never assigned).
    pub consts: Vec<Term>,
    pub functions: Vec<Arc<FuncDecl>>,
    /// Assumptions about constants and functions that hold throughout.
    pub axioms: Vec<Term>,
    pub procedures: BTreeMap<String, Procedure>,
    /// Procedures to verify, each as an entry point.
    pub entries: Vec<String>,
    /// The shared variables whose accesses by two threads at once are data races to report
    /// (`no-data-race`; empty: races are not checked).
    pub race_data: BTreeSet<Term>,
}

/// The name of the variable that holds `x`'s value at procedure entry (`old(x)`).
pub fn old_name(x: &str) -> String {
    format!("old({x})")
}

/// The `old(x)` variable of a global `x`.
pub fn old_var(x: &Term) -> Term {
    Term::var(&old_name(x.var_name().unwrap_or("?")), x.sort.clone())
}
