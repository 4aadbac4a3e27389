//! Translation of procedure bodies (statements) into control-flow graphs.

use crate::ast::{Ident, Stmt as AStmt, StmtKind};
use crate::error::{Pos, Result};
use crate::expr::{Local, OldMode, Resolved, Scope};
use crate::translate::{NameAlloc, Translator};
use ir::builder::Builder;
use ir::{Call, Cfg, Label, SourcePos, Stmt, ThreadOp, Violation, ViolationKind};
use smt::build::{not, tt};
use smt::{Op, Term};
use std::collections::{HashMap, HashSet};

/// Everything needed to translate one implementation.
pub(crate) struct BodyInput<'a> {
    /// The procedure's name.
    pub name: &'a str,
    /// Parameters (immutable) and out-parameters (mutable) under the implementation's names.
    pub frame: HashMap<String, Local>,
    /// The statements.
    pub stmts: &'a [AStmt],
    /// Checked postconditions with their positions.
    pub ensures: Vec<(Term, Pos)>,
    /// Global variables the procedure may modify.
    pub modifies: HashSet<Term>,
    /// Names already taken (globals, parameters).
    pub alloc: NameAlloc,
    /// Position of the implementation.
    pub pos: Pos,
}

struct Body<'t> {
    tr: &'t mut Translator,
    name: String,
    b: Builder,
    sc: Scope,
    alloc: NameAlloc,
    locals: Vec<Term>,
    modifies: HashSet<Term>,
    labels: HashMap<String, usize>,
    /// Enclosing breakable statements: their labels, exit location, and whether a loop.
    breaks: Vec<(Vec<String>, usize, bool)>,
    ret: usize,
    /// Inside an atomic block: how many breakable statements enclose it (a jump out of it is
    /// not supported).
    atomic: Option<usize>,
}

/// Translates a body; returns its CFG and its local variables.
pub(crate) fn translate_body(tr: &mut Translator, input: BodyInput) -> Result<(Cfg, Vec<Term>)> {
    let ppos = Some(input.pos.at(&tr.file));
    let mut sc = Scope::new(OldMode::Replace, true);
    sc.frames = vec![input.frame];
    let mut body = Body {
        tr,
        name: input.name.to_string(),
        b: Builder::new(ppos),
        sc,
        alloc: input.alloc,
        locals: Vec::new(),
        modifies: input.modifies,
        labels: HashMap::new(),
        breaks: Vec::new(),
        ret: 0,
        atomic: None,
    };
    // the postcondition checks, between `return` and the exit
    let exit = body.b.exit;
    let mut cur = if input.ensures.is_empty() { exit } else { body.b.loc(None) };
    body.ret = cur;
    let n = input.ensures.len();
    for (k, (phi, pos)) in input.ensures.into_iter().enumerate() {
        let err = body.b.error_loc(Violation { kind: ViolationKind::Ensures, pos: body.sp(pos) });
        let next = if k + 1 == n { exit } else { body.b.loc(body.sp(pos)) };
        body.edge(cur, err, Stmt::Assume(not(&phi)), pos);
        body.edge(cur, next, Stmt::Assume(phi), pos);
        cur = next;
    }
    body.collect_labels(input.stmts)?;
    let entry = body.b.entry;
    let end = body.block(input.stmts, entry, false)?;
    body.b.jump(end, body.ret, None);
    let locals = body.locals;
    Ok((body.b.finish(&body.name), locals))
}

impl Body<'_> {
    fn sp(&self, pos: Pos) -> Option<SourcePos> {
        Some(pos.at(&self.tr.file))
    }

    fn overapprox(&self, terms: &[&Term]) -> Option<String> {
        if self.tr.overapprox.is_empty() {
            return None;
        }
        let mut seen = HashSet::new();
        let mut stack: Vec<Term> = terms.iter().map(|t| (*t).clone()).collect();
        while let Some(t) = stack.pop() {
            if !seen.insert(t.id()) {
                continue;
            }
            if let Some(Op::Apply(f)) = t.op() {
                if let Some(r) = self.tr.overapprox.get(&*f.name) {
                    return Some(r.clone());
                }
            }
            stack.extend(t.args.iter().cloned());
        }
        None
    }

    fn edge(&mut self, src: usize, dst: usize, stmt: Stmt, pos: Pos) {
        if matches!(&stmt, Stmt::Assume(phi) if phi.is_false()) {
            return;
        }
        let terms: Vec<&Term> = match &stmt {
            Stmt::Assume(phi) => vec![phi],
            Stmt::Assign(pairs) => pairs.iter().map(|(_, e)| e).collect(),
            _ => Vec::new(),
        };
        let oa = self.overapprox(&terms);
        let p = self.sp(pos);
        self.b.edge(src, dst, Label::Stmt(stmt), p, oa);
    }

    fn collect_labels(&mut self, stmts: &[AStmt]) -> Result<()> {
        for s in stmts {
            match &s.kind {
                StmtKind::Label(id) => {
                    if self.labels.contains_key(&id.name) {
                        return Err(self.tr.type_err(id.pos, format!("duplicate label `{}`", id.name)));
                    }
                    let p = self.sp(id.pos);
                    let l = self.b.label_loc(&id.name, p);
                    self.labels.insert(id.name.clone(), l);
                }
                StmtKind::If(_, a, b) => {
                    self.collect_labels(a)?;
                    if let Some(b) = b {
                        self.collect_labels(b)?;
                    }
                }
                StmtKind::While(_, _, a) | StmtKind::Block(a) | StmtKind::Atomic(a) => self.collect_labels(a)?,
                _ => {}
            }
        }
        Ok(())
    }

    fn label(&self, id: &Ident) -> Result<usize> {
        self.labels.get(&id.name).copied().ok_or_else(|| self.tr.type_err(id.pos, format!("undeclared label `{}`", id.name)))
    }

    fn block(&mut self, stmts: &[AStmt], cur: usize, new_frame: bool) -> Result<usize> {
        if new_frame {
            self.sc.frames.push(HashMap::new());
        }
        let r = self.block_inner(stmts, cur);
        if new_frame {
            self.sc.frames.pop();
        }
        r
    }

    fn block_inner(&mut self, stmts: &[AStmt], mut cur: usize) -> Result<usize> {
        let mut pending: Vec<String> = Vec::new();
        for s in stmts {
            if let StmtKind::Label(id) = &s.kind {
                let l = self.label(id)?;
                let p = self.sp(s.pos);
                self.b.jump(cur, l, p);
                cur = l;
                pending.push(id.name.clone());
                continue;
            }
            let labels = std::mem::take(&mut pending);
            cur = self.stmt(s, cur, labels)?;
        }
        Ok(cur)
    }

    fn formula(&mut self, e: &crate::ast::Expr) -> Result<Term> {
        self.tr.formula(e, &mut self.sc)
    }

    /// The variable `id` as the target of an assignment, havoc or call.
    fn assignable(&self, id: &Ident) -> Result<Term> {
        match self.tr.resolve(&id.name, &self.sc, id.pos)? {
            Resolved::Local(l) if l.mutable => Ok(l.term),
            Resolved::Local(_) => Err(self.tr.type_err(id.pos, format!("in-parameter `{}` cannot be assigned", id.name))),
            Resolved::Const(_) => Err(self.tr.type_err(id.pos, format!("constant `{}` cannot be assigned", id.name))),
            Resolved::Global(t) => {
                if self.modifies.contains(&t) {
                    Ok(t)
                } else {
                    Err(self.tr.type_err(
                        id.pos,
                        format!("global variable `{}` is assigned but not in the modifies clause of `{}`", id.name, self.name),
                    ))
                }
            }
        }
    }

    fn stmt(&mut self, s: &AStmt, cur: usize, labels: Vec<String>) -> Result<usize> {
        let pos = s.pos;
        let sp = self.sp(pos);
        match &s.kind {
            StmtKind::Label(_) => Ok(cur),
            StmtKind::Var(decls) => {
                for d in decls {
                    let sort = self.tr.sort(&d.ty)?;
                    let frame_has = self.sc.frames.last().is_some_and(|f| f.contains_key(&d.name.name));
                    if frame_has {
                        return Err(self.tr.type_err(d.name.pos, format!("duplicate declaration of `{}`", d.name.name)));
                    }
                    let name = self.alloc.alloc(&d.name.name);
                    let term = Term::var(&name, sort);
                    self.locals.push(term.clone());
                    if let Some(f) = self.sc.frames.last_mut() {
                        f.insert(d.name.name.clone(), Local { term, mutable: true });
                    }
                }
                Ok(cur)
            }
            StmtKind::Assert(e) => {
                let phi = self.formula(e)?;
                if phi.is_true() {
                    return Ok(cur);
                }
                let err = self.b.error_loc(Violation { kind: ViolationKind::Assert, pos: sp.clone() });
                let next = self.b.loc(sp);
                self.edge(cur, err, Stmt::Assume(not(&phi)), pos);
                self.edge(cur, next, Stmt::Assume(phi), pos);
                Ok(next)
            }
            StmtKind::Assume(e) => {
                let phi = self.formula(e)?;
                if phi.is_true() {
                    return Ok(cur);
                }
                let next = self.b.loc(sp);
                self.edge(cur, next, Stmt::Assume(phi), pos);
                Ok(next)
            }
            StmtKind::Havoc(ids) => {
                let mut vars: Vec<Term> = Vec::new();
                for id in ids {
                    let v = self.assignable(id)?;
                    if !vars.contains(&v) {
                        vars.push(v);
                    }
                }
                let next = self.b.loc(sp);
                self.edge(cur, next, Stmt::Havoc(vars), pos);
                Ok(next)
            }
            StmtKind::Assign(lhss, rhss) => {
                if lhss.len() != rhss.len() {
                    return Err(self.tr.type_err(pos, format!("{} left-hand sides but {} right-hand sides", lhss.len(), rhss.len())));
                }
                let mut pairs: Vec<(Term, Term)> = Vec::new();
                for (lhs, rhs) in lhss.iter().zip(rhss) {
                    let var = self.assignable(&lhs.var)?;
                    if pairs.iter().any(|(x, _)| *x == var) {
                        return Err(self.tr.type_err(lhs.var.pos, format!("variable `{}` is assigned more than once", lhs.var.name)));
                    }
                    let value = self.tr.expr(rhs, &mut self.sc)?;
                    let mut idx = Vec::new();
                    for group in &lhs.indices {
                        for i in group {
                            idx.push(self.tr.expr(i, &mut self.sc)?);
                        }
                    }
                    let v = self.tr.update(&var, &idx, &value, rhs.pos)?;
                    pairs.push((var, v));
                }
                let next = self.b.loc(sp);
                self.edge(cur, next, Stmt::Assign(pairs), pos);
                Ok(next)
            }
            StmtKind::Call(lhs, callee, args) => self.call(lhs, callee, args, cur, pos),
            StmtKind::If(guard, then, els) => {
                let phi = match guard {
                    Some(g) => self.formula(g)?,
                    None => tt(),
                };
                let neg = if guard.is_some() { not(&phi) } else { tt() };
                let then_start = self.b.loc(sp.clone());
                let join = self.b.loc(sp.clone());
                let else_start = if els.is_some() { self.b.loc(sp.clone()) } else { join };
                self.branch(cur, guard.is_some(), (phi, then_start), (neg, else_start), pos, sp);
                self.breaks.push((labels, join, false));
                let r = self.if_branches(then, els.as_deref(), then_start, else_start, join);
                self.breaks.pop();
                r?;
                Ok(join)
            }
            StmtKind::While(guard, invs, body) => {
                let head = self.b.loc(sp.clone());
                self.b.jump(cur, head, sp.clone());
                let mut c = head;
                for inv in invs {
                    let phi = self.formula(&inv.expr)?;
                    if phi.is_true() {
                        continue;
                    }
                    if !inv.free {
                        let err = self.b.error_loc(Violation { kind: ViolationKind::LoopInvariant, pos: self.sp(inv.pos) });
                        self.edge(c, err, Stmt::Assume(not(&phi)), inv.pos);
                    }
                    let next = self.b.loc(self.sp(inv.pos));
                    self.edge(c, next, Stmt::Assume(phi), inv.pos);
                    c = next;
                }
                let (phi, neg) = match guard {
                    Some(g) => {
                        let phi = self.formula(g)?;
                        let neg = not(&phi);
                        (phi, neg)
                    }
                    None => (tt(), tt()),
                };
                let body_start = self.b.loc(sp.clone());
                let after = self.b.loc(sp.clone());
                self.branch(c, guard.is_some(), (phi, body_start), (neg, after), pos, sp.clone());
                self.breaks.push((labels, after, true));
                let end = self.block(body, body_start, true);
                self.breaks.pop();
                self.b.jump(end?, head, sp);
                Ok(after)
            }
            StmtKind::Goto(_) | StmtKind::Return if self.atomic.is_some() => {
                Err(self.tr.unsupported(pos, "jumps out of an `atomic` block are not supported"))
            }
            StmtKind::Break(target) => {
                let found = match target {
                    None => self.breaks.iter().rev().find(|(_, _, is_loop)| *is_loop),
                    Some(id) => self.breaks.iter().rev().find(|(ls, _, _)| ls.contains(&id.name)),
                };
                let Some(&(_, dst, _)) = found else {
                    let msg = match target {
                        None => "`break` outside of a loop".to_string(),
                        Some(id) => format!("`break {}` does not name an enclosing loop or if statement", id.name),
                    };
                    return Err(self.tr.type_err(pos, msg));
                };
                if self.atomic.is_some_and(|outer| self.breaks.iter().rposition(|b| b.1 == dst).is_some_and(|i| i < outer)) {
                    return Err(self.tr.unsupported(pos, "jumps out of an `atomic` block are not supported"));
                }
                self.b.jump(cur, dst, sp.clone());
                Ok(self.b.loc(sp))
            }
            StmtKind::Goto(ids) => {
                let mut targets = Vec::new();
                for id in ids {
                    let l = self.label(id)?;
                    if !targets.contains(&l) {
                        targets.push(l);
                    }
                }
                if let [only] = targets.as_slice() {
                    self.b.jump(cur, *only, sp.clone());
                } else {
                    for t in targets {
                        self.edge(cur, t, Stmt::Assume(tt()), pos);
                    }
                }
                Ok(self.b.loc(sp))
            }
            StmtKind::Return => {
                self.b.jump(cur, self.ret, sp.clone());
                Ok(self.b.loc(sp))
            }
            StmtKind::Block(stmts) => self.block(stmts, cur, true),
            StmtKind::Fork(ids, callee, args) => self.fork(ids, callee, args, cur, pos),
            StmtKind::Join(ids, lhs) => {
                let ids = ids.iter().map(|e| self.tr.expr(e, &mut self.sc)).collect::<Result<Vec<_>>>()?;
                let rets = lhs.iter().map(|id| self.assignable(id)).collect::<Result<Vec<_>>>()?;
                Ok(self.thread_op(cur, ThreadOp::Join { ids, rets }, pos))
            }
            StmtKind::Atomic(stmts) => {
                let outer = self.atomic.replace(self.atomic.unwrap_or(self.breaks.len()));
                let start = self.thread_op(cur, ThreadOp::AtomicBegin, pos);
                let end = self.block(stmts, start, true);
                self.atomic = outer;
                Ok(self.thread_op(end?, ThreadOp::AtomicEnd, pos))
            }
        }
    }

    /// An edge from `cur` to a new location carrying a thread operation; the new location.
    fn thread_op(&mut self, cur: usize, op: ThreadOp, pos: Pos) -> usize {
        let sp = self.sp(pos);
        let next = self.b.loc(sp.clone());
        self.b.edge(cur, next, Label::Thread(op), sp, None);
        next
    }

    /// `fork ids callee(args)`: the arguments are checked against the callee's parameters.
    fn fork(&mut self, ids: &[crate::ast::Expr], callee: &Ident, args: &[crate::ast::Expr], cur: usize, pos: Pos) -> Result<usize> {
        let (_, targs) = self.arguments(callee, args)?;
        let ids = ids.iter().map(|e| self.tr.expr(e, &mut self.sc)).collect::<Result<Vec<_>>>()?;
        Ok(self.thread_op(cur, ThreadOp::Fork { ids, callee: callee.name.clone(), args: targs }, pos))
    }

    /// The signature of the procedure `callee` and the arguments of a call or fork of it, checked
    /// against its parameters.
    fn arguments(&mut self, callee: &Ident, args: &[crate::ast::Expr]) -> Result<(crate::translate::ProcSig, Vec<Term>)> {
        let Some(sig) = self.tr.procs.get(&callee.name).cloned() else {
            let msg = if self.tr.funcs.contains_key(&callee.name) {
                format!("`{}` is a function, not a procedure", callee.name)
            } else {
                format!("undeclared procedure `{}`", callee.name)
            };
            return Err(self.tr.type_err(callee.pos, msg));
        };
        if args.len() != sig.params.len() {
            return Err(self
                .tr
                .type_err(callee.pos, format!("procedure `{}` expects {} arguments, got {}", callee.name, sig.params.len(), args.len())));
        }
        let mut targs = Vec::new();
        for (k, (a, s)) in args.iter().zip(&sig.params).enumerate() {
            let t = self.tr.expr(a, &mut self.sc)?;
            self.tr.expect_sort(&t, s, a.pos, &format!("argument {} of `{}`", k + 1, callee.name))?;
            targs.push(t);
        }
        Ok((sig, targs))
    }

    /// Two-way branch from `cur`; a guard that simplified to a constant becomes a jump.
    fn branch(&mut self, cur: usize, det: bool, a: (Term, usize), b: (Term, usize), pos: Pos, sp: Option<SourcePos>) {
        if det && a.0.is_true() {
            self.b.jump(cur, a.1, sp);
        } else if det && b.0.is_true() {
            self.b.jump(cur, b.1, sp);
        } else {
            self.edge(cur, a.1, Stmt::Assume(a.0), pos);
            self.edge(cur, b.1, Stmt::Assume(b.0), pos);
        }
    }

    fn if_branches(&mut self, then: &[AStmt], els: Option<&[AStmt]>, then_start: usize, else_start: usize, join: usize) -> Result<()> {
        let t_end = self.block(then, then_start, true)?;
        self.b.jump(t_end, join, None);
        if let Some(e) = els {
            let e_end = self.block(e, else_start, true)?;
            self.b.jump(e_end, join, None);
        }
        Ok(())
    }

    fn call(&mut self, lhs: &[Ident], callee: &Ident, args: &[crate::ast::Expr], cur: usize, pos: Pos) -> Result<usize> {
        // The SV-COMP functions that delimit an atomic section, as Ultimate's dialect calls them.
        let atomic = match callee.name.as_str() {
            "__VERIFIER_atomic_begin" => Some(ThreadOp::AtomicBegin),
            "__VERIFIER_atomic_end" => Some(ThreadOp::AtomicEnd),
            _ => None,
        };
        if let Some(op) = atomic.filter(|_| lhs.is_empty() && args.is_empty()) {
            return Ok(self.thread_op(cur, op, pos));
        }
        let (sig, targs) = self.arguments(callee, args)?;
        if lhs.len() != sig.rets.len() {
            return Err(self.tr.type_err(
                callee.pos,
                format!("procedure `{}` returns {} values, but {} are assigned", callee.name, sig.rets.len(), lhs.len()),
            ));
        }
        let mut rets: Vec<Term> = Vec::new();
        for (k, (id, s)) in lhs.iter().zip(&sig.rets).enumerate() {
            let v = self.assignable(id)?;
            if rets.contains(&v) {
                return Err(self.tr.type_err(id.pos, format!("variable `{}` is assigned more than once", id.name)));
            }
            self.tr.expect_sort(&v, s, id.pos, &format!("result {} of `{}`", k + 1, callee.name))?;
            rets.push(v);
        }
        for g in &sig.modifies {
            if !self.modifies.contains(g) {
                return Err(self.tr.type_err(
                    callee.pos,
                    format!(
                        "call of `{}` may modify `{}`, which is not in the modifies clause of `{}`",
                        callee.name,
                        g.var_name().unwrap_or("?"),
                        self.name
                    ),
                ));
            }
        }
        let arg_refs: Vec<&Term> = targs.iter().collect();
        let oa = self.overapprox(&arg_refs);
        let sp = self.sp(pos);
        let next = self.b.loc(sp.clone());
        self.b.edge(cur, next, Label::Call(Call { callee: callee.name.clone(), args: targs, rets }), sp, oa);
        Ok(next)
    }
}
