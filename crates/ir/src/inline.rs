//! Preparation of one entry procedure for an engine: a single CFG with every call expanded.
//! Calls of implemented, non-recursive procedures are inlined; calls of procedures without
//! implementation use their contract (exact by Boogie's semantics); recursive calls use the
//! callee's contract and are marked as over-approximations.

use crate::cfg::{old_var, Call, Cfg, Edge, Label, LocId, Procedure, Program, SourcePos, Spec, Violation, ViolationKind};
use crate::stmt::Stmt;
use smt::build::{and, not, tt};
use smt::subst::{free_vars, substitute};
use smt::Term;
use std::collections::{BTreeSet, HashMap};

/// Why a program could not be prepared.
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    #[error("no procedure named `{0}`")]
    UnknownProcedure(String),
    #[error("procedure `{0}` has no implementation")]
    NoBody(String),
    #[error("call of `{callee}` with {got} arguments/results, expected {expected}")]
    Arity { callee: String, got: usize, expected: usize },
    #[error("program too large after inlining (more than {0} locations)")]
    TooLarge(usize),
    #[error("unsupported: {0}")]
    Unsupported(String),
}

/// Upper bound on locations of an inlined CFG.
const MAX_LOCS: usize = 200_000;

pub(crate) struct Inliner<'a> {
    pub(crate) program: &'a Program,
    pub(crate) cfg: Cfg,
    stack: Vec<String>,
    /// Procedures whose calls stay `Call` edges (the recursive ones, for nested words).
    pub(crate) keep: BTreeSet<String>,
}

/// The CFG of `entry` with all calls expanded, preceded by the axioms, the entry's
/// preconditions and the snapshot of `old(..)` values.
pub fn prepare(program: &Program, entry: &str) -> Result<Cfg, PrepareError> {
    prepare_keeping(program, entry, BTreeSet::new())
}

/// [`prepare`], with the calls of the procedures in `keep` left as `Call` edges.
pub(crate) fn prepare_keeping(program: &Program, entry: &str, keep: BTreeSet<String>) -> Result<Cfg, PrepareError> {
    let proc = program.procedures.get(entry).ok_or_else(|| PrepareError::UnknownProcedure(entry.into()))?;
    if proc.body.is_none() {
        return Err(PrepareError::NoBody(entry.into()));
    }
    let mut inl = Inliner::new(program, keep);
    let init = inl.cfg.add_loc(format!("{entry}.init"), proc.pos.clone());
    inl.cfg.entry = init;
    let after_init = inl.cfg.add_loc(format!("{entry}.start"), proc.pos.clone());
    let snapshot: Vec<(Term, Term)> = program.globals.iter().map(|g| (old_var(g), g.clone())).filter(|(o, _)| mentions(proc, o)).collect();
    let mut assumptions = program.axioms.clone();
    assumptions.extend(proc.requires.iter().map(|r| r.formula.clone()));
    let mut init_stmts = vec![];
    if !snapshot.is_empty() {
        init_stmts.push(Stmt::Assign(snapshot));
    }
    init_stmts.push(Stmt::Assume(and(&assumptions)));
    inl.cfg.add_stmt(init, after_init, seq(init_stmts), proc.pos.clone());
    let (b_entry, b_exit) = inl.copy_body(proc, &HashMap::new())?;
    inl.cfg.add_stmt(after_init, b_entry, Stmt::Assume(tt()), None);
    inl.cfg.exit = b_exit;
    Ok(inl.cfg)
}

fn seq(mut stmts: Vec<Stmt>) -> Stmt {
    if stmts.len() == 1 {
        stmts.pop().unwrap_or(Stmt::Assume(tt()))
    } else {
        Stmt::Seq(stmts)
    }
}

/// Whether `v` occurs in the procedure's body or contract.
pub(crate) fn mentions(proc: &Procedure, v: &Term) -> bool {
    let specs = proc.requires.iter().chain(proc.ensures.iter());
    specs.map(|s| s.formula.clone()).chain(body_terms(proc)).any(|t| free_vars(&t).contains(v))
}

fn body_terms(proc: &Procedure) -> Vec<Term> {
    let mut out = vec![];
    if let Some(b) = &proc.body {
        for e in &b.edges {
            match &e.label {
                Label::Stmt(_) => out.push(e.trans_formula().formula.clone()),
                Label::Call(c) => out.extend(c.args.iter().cloned()),
                Label::Thread(op) => out.extend(op.terms()),
            }
        }
    }
    out
}

pub(crate) fn subst_stmt(s: &Stmt, map: &HashMap<Term, Term>) -> Stmt {
    let sub = |t: &Term| substitute(t, map);
    match s {
        Stmt::Assume(phi) => Stmt::Assume(sub(phi)),
        Stmt::Assign(pairs) => Stmt::Assign(pairs.iter().map(|(x, e)| (sub(x), sub(e))).collect()),
        Stmt::Havoc(vs) => Stmt::Havoc(vs.iter().map(sub).collect()),
        Stmt::Seq(ss) => Stmt::Seq(ss.iter().map(|s| subst_stmt(s, map)).collect()),
        Stmt::Choice(ss) => Stmt::Choice(ss.iter().map(|s| subst_stmt(s, map)).collect()),
    }
}

impl<'a> Inliner<'a> {
    pub(crate) fn new(program: &'a Program, keep: BTreeSet<String>) -> Inliner<'a> {
        Inliner { program, cfg: Cfg::default(), stack: vec![], keep }
    }

    /// Copies `proc`'s body with variables renamed by `rename`; returns its entry and exit.
    pub(crate) fn copy_body(&mut self, proc: &Procedure, rename: &HashMap<Term, Term>) -> Result<(LocId, LocId), PrepareError> {
        let body = proc.body.as_ref().ok_or_else(|| PrepareError::NoBody(proc.name.clone()))?;
        if self.cfg.locs.len() + body.locs.len() > MAX_LOCS {
            return Err(PrepareError::TooLarge(MAX_LOCS));
        }
        self.stack.push(proc.name.clone());
        let base = self.cfg.locs.len();
        for l in &body.locs {
            let id = self.cfg.add_loc(format!("{}.{}", proc.name, l.name), l.pos.clone());
            self.cfg.locs[id].error = l.error.clone();
        }
        for e in &body.edges {
            let (src, dst) = (base + e.src, base + e.dst);
            match &e.label {
                Label::Stmt(s) => {
                    let mut renamed = e.with_stmt(subst_stmt(s, rename));
                    (renamed.src, renamed.dst, renamed.block) = (src, dst, None);
                    renamed.exact = e.exact.as_ref().map(|x| subst_stmt(x, rename));
                    self.cfg.add_edge(renamed);
                }
                Label::Call(c) => {
                    let call = Call {
                        callee: c.callee.clone(),
                        args: c.args.iter().map(|a| substitute(a, rename)).collect(),
                        rets: c.rets.iter().map(|r| substitute(r, rename)).collect(),
                    };
                    if self.keep.contains(&call.callee) {
                        self.cfg.add_edge(Edge::new(src, dst, Label::Call(call), e.pos.clone(), None));
                        continue;
                    }
                    self.expand_call(src, dst, &call, e.pos.clone())?;
                }
                Label::Thread(op) => {
                    let op = op.map_terms(&|t| substitute(t, rename));
                    self.cfg.add_edge(Edge::new(src, dst, Label::Thread(op), e.pos.clone(), None));
                }
            }
        }
        self.stack.pop();
        Ok((base + body.entry, base + body.exit))
    }

    /// Adds, for each checked precondition, an edge to an error location if it fails.
    pub(crate) fn check_requires(&mut self, at: LocId, requires: &[Spec], map: &HashMap<Term, Term>, pos: &Option<SourcePos>) {
        for r in requires.iter().filter(|r| !r.free) {
            let err = self.cfg.add_error_loc(Violation { kind: ViolationKind::Requires, pos: pos.clone() });
            self.cfg.add_stmt(at, err, Stmt::Assume(not(&substitute(&r.formula, map))), pos.clone());
        }
    }

    fn expand_call(&mut self, src: LocId, dst: LocId, call: &Call, pos: Option<SourcePos>) -> Result<(), PrepareError> {
        let callee = self.program.procedures.get(&call.callee).ok_or_else(|| PrepareError::UnknownProcedure(call.callee.clone()))?;
        if callee.params.len() != call.args.len() || callee.rets.len() != call.rets.len() {
            return Err(PrepareError::Arity {
                callee: callee.name.clone(),
                got: call.args.len() + call.rets.len(),
                expected: callee.params.len() + callee.rets.len(),
            });
        }
        // Fresh instances of the callee's parameters, results, locals and old() snapshots.
        let mut map: HashMap<Term, Term> = HashMap::new();
        let fresh = |v: &Term| Term::fresh(v.var_name().unwrap_or("v"), v.sort.clone());
        for v in callee.params.iter().chain(&callee.rets).chain(&callee.locals) {
            map.insert(v.clone(), fresh(v));
        }
        let mut entry_assign: Vec<(Term, Term)> = callee.params.iter().zip(&call.args).map(|(p, a)| (map[p].clone(), a.clone())).collect();
        for g in &self.program.globals {
            let o = old_var(g);
            if mentions(callee, &o) {
                let snap = fresh(&o);
                map.insert(o, snap.clone());
                entry_assign.push((snap, g.clone()));
            }
        }
        let recursive = self.stack.contains(&callee.name);
        let start = self.cfg.add_loc(format!("call.{}", callee.name), pos.clone());
        self.cfg.add_stmt(src, start, Stmt::Assign(entry_assign), pos.clone());
        self.check_requires(start, &callee.requires, &map, &pos);
        let requires = and(&callee.requires.iter().map(|r| substitute(&r.formula, &map)).collect::<Vec<_>>());
        let ret_assign: Vec<(Term, Term)> = call.rets.iter().zip(&callee.rets).map(|(lhs, r)| (lhs.clone(), map[r].clone())).collect();
        let ret_stmt = if ret_assign.is_empty() { Stmt::Assume(tt()) } else { Stmt::Assign(ret_assign) };
        if callee.body.is_some() && !recursive {
            let (b_entry, b_exit) = self.copy_body(callee, &map)?;
            let mut havoc: Vec<Term> = callee.rets.iter().chain(&callee.locals).map(|v| map[v].clone()).collect();
            havoc.dedup();
            let enter = if havoc.is_empty() { Stmt::Assume(requires) } else { Stmt::Seq(vec![Stmt::Assume(requires), Stmt::Havoc(havoc)]) };
            self.cfg.add_stmt(start, b_entry, enter, pos.clone());
            self.cfg.add_stmt(b_exit, dst, ret_stmt, pos);
        } else {
            let mut havoc: Vec<Term> = callee.rets.iter().map(|v| map[v].clone()).collect();
            havoc.extend(callee.modifies.iter().cloned());
            let ensures = and(&callee.ensures.iter().map(|e| substitute(&e.formula, &map)).collect::<Vec<_>>());
            let summary = Stmt::Seq(vec![Stmt::Assume(requires), Stmt::Havoc(havoc), Stmt::Assume(ensures), ret_stmt]);
            let overapprox = (callee.body.is_some()).then(|| format!("contract of recursive procedure {}", callee.name));
            self.cfg.add_edge(Edge::new(start, dst, Label::Stmt(summary), pos, overapprox));
        }
        Ok(())
    }
}
