//! Translation of function definitions, statements and block-scope declarations into
//! control-flow graphs, and of the initialization of static storage.

use crate::error::{CError, Result};
use crate::func::{Fx, Loc, Place, Val};
use crate::shape::Shape;
use crate::tast::{Expr, ExprKind, Sel, VarId};
use crate::translate::{Ordinary, StaticInit, Tr, VarInfo, INIT_PROC};
use crate::types::{promote, CType};
use ir::{Call, Label, Procedure, SourcePos, Stmt};
use lang_c::ast;
use lang_c::span::Node;
use smt::build::{and, eq, int, le, mul, not, tt};
use smt::{Sort, Term};

impl Tr {
    /// Translates a function definition into a procedure.
    /// Translates a function definition into the procedure `name` (an entry function's
    /// procedure for its calls has a name of its own).
    pub fn function_definition(&mut self, f: &Node<ast::FunctionDefinition>, name: &str) -> Result<()> {
        let (_, fty, params) = self.definition_params(f)?;
        let name = name.to_string();
        let pos = self.pos(f.span);
        let is_entry = self.is_entry(&name);
        let mut fx = Fx::new(self, &name, Some(pos.clone()));
        fx.tr.scopes.push(Default::default());
        let r = fx.body(f, &fty, &params, is_entry, &pos);
        fx.tr.scopes.pop();
        let proc = r?;
        self.procedures.insert(name, proc);
        Ok(())
    }
}

/// The keys (declaration offsets) of a function definition's parameters.
fn param_keys(f: &Node<ast::FunctionDefinition>) -> Vec<usize> {
    fn find(d: &ast::Declarator) -> Option<Vec<usize>> {
        if let ast::DeclaratorKind::Declarator(inner) = &d.kind.node {
            if let Some(k) = find(&inner.node) {
                return Some(k);
            }
        }
        d.derived.iter().find_map(|dd| match &dd.node {
            ast::DerivedDeclarator::Function(fd) => Some(fd.node.parameters.iter().map(|p| p.span.start).collect()),
            ast::DerivedDeclarator::KRFunction(ids) => Some(ids.iter().map(|i| i.span.start).collect()),
            _ => None,
        })
    }
    find(&f.node.declarator.node).unwrap_or_default()
}

/// Whether the C text names the identifier `id` as a whole word (a mention in a string or a
/// shadowing declaration counts too: the cost is a model built for nothing).
fn names(text: &str, id: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(id).any(|(at, _)| !text[..at].ends_with(word) && !text[at + id.len()..].starts_with(word))
}

/// Whether a statement is an ACSL loop invariant (see `acsl`).
fn is_loop_invariant(s: &Node<ast::Statement>) -> bool {
    let ast::Statement::Expression(Some(e)) = &s.node else { return false };
    let ast::Expression::Call(c) = &e.node else { return false };
    matches!(&c.node.callee.node, ast::Expression::Identifier(id) if id.node.name == crate::acsl::ACSL_LOOP_INVARIANT)
}

/// The scope id of the function's parameters.
const FUNCTION_SCOPE: usize = usize::MAX;

/// The scope id of a statement (its address).
fn scope_id(s: &Node<ast::Statement>) -> usize {
    s as *const Node<ast::Statement> as usize
}

/// The size expression of the outermost dimension of a declared array (for variable-length
/// arrays).
fn vla_size(d: &ast::Declarator) -> Option<&Node<ast::Expression>> {
    if let ast::DeclaratorKind::Declarator(inner) = &d.kind.node {
        if let Some(e) = vla_size(&inner.node) {
            return Some(e);
        }
    }
    d.derived.iter().find_map(|dd| match &dd.node {
        ast::DerivedDeclarator::Array(a) => match &a.node.size {
            ast::ArraySize::VariableExpression(e) | ast::ArraySize::StaticExpression(e) => Some(&**e),
            _ => None,
        },
        _ => None,
    })
}

/// The procedure that initializes every variable with static storage.
pub(crate) fn init_procedure(tr: &mut Tr, pos: Option<SourcePos>) -> Result<Procedure> {
    let statics = std::mem::take(&mut tr.statics);
    let mut fx = Fx::new(tr, INIT_PROC, pos.clone());
    let r = fx.init_statics(&statics);
    let (b, locals) = (std::mem::replace(&mut fx.b, ir::builder::Builder::new(None)), std::mem::take(&mut fx.locals));
    tr.statics = statics;
    r?;
    Ok(Procedure {
        name: INIT_PROC.to_string(),
        params: vec![],
        rets: vec![],
        locals,
        modifies: vec![],
        requires: vec![],
        ensures: vec![],
        body: Some(b.finish(INIT_PROC)),
        pos,
    })
}

impl Fx<'_> {
    fn init_statics(&mut self, statics: &[StaticInit]) -> Result<()> {
        for p in self.tr.static_failures.clone() {
            self.static_assertion(false, &p);
        }
        if self.tr.uses_threads {
            let pos = statics.first().map(|s| s.pos.clone()).unwrap_or_else(|| SourcePos { file: self.tr.file.clone(), line: 0, col: 0 });
            self.emit(Stmt::Assign(crate::pthreads::thread_vars_init()), &pos, None);
        }
        let memory = self.tr.uses_memory || statics.iter().any(|s| matches!(self.tr.vars[s.var].shape, Shape::Mem(_)));
        if memory {
            let pos = statics.first().map(|s| s.pos.clone()).unwrap_or_else(|| SourcePos { file: self.tr.file.clone(), line: 0, col: 0 });
            self.init_memory(&pos);
        }
        for s in statics {
            let info = self.tr.vars[s.var].clone();
            if matches!(info.shape, Shape::Unsupported(_)) {
                continue;
            }
            if let Shape::Mem(b) = &info.shape {
                let size = self
                    .tr
                    .layout()
                    .size(&info.ty)
                    .ok_or_else(|| CError::unsupported(&s.pos, format!("object of {}", self.tr.unknown_size(&info.ty))))?;
                self.allocate(b, &int(size as i64), false, &s.pos);
            }
            if s.init.is_empty() && s.external {
                match (&info.shape, self.tr.std_stream_size(&info.c_name)) {
                    (Shape::Ptr(b, o), Some(size)) => {
                        self.allocate(b, &int(size as i64), false, &s.pos);
                        self.emit(Stmt::Assign(vec![(o.clone(), int(0))]), &s.pos, None);
                    }
                    (Shape::Mem(_), _) => {}
                    _ => self.havoc_object(&info.shape, &s.pos),
                }
            } else {
                self.zero_object(&info.shape, &s.pos);
                self.init_entries(s.var, &s.init)?;
            }
        }
        let exit = self.b.exit;
        self.b.jump(self.cur, exit, None);
        Ok(())
    }

    /// Sets every integer of an object to zero.
    fn zero_object(&mut self, shape: &Shape, pos: &SourcePos) {
        if let Shape::Mem(b) = shape {
            self.zero_memory(b, pos);
            return;
        }
        let pairs: Vec<(Term, Term)> = shape
            .leaves()
            .into_iter()
            .map(|l| {
                let z = crate::conv::zero_of(&l.sort);
                (l, z)
            })
            .collect();
        if !pairs.is_empty() {
            self.emit(Stmt::Assign(pairs), pos, None);
        }
    }

    /// Gives every integer of an object an arbitrary value (in its type's range for scalars;
    /// array elements are range-checked when read).
    fn havoc_object(&mut self, shape: &Shape, pos: &SourcePos) {
        let leaves = shape.typed_leaves();
        if leaves.is_empty() {
            return;
        }
        let vars: Vec<Term> = leaves.iter().map(|(t, _)| t.clone()).collect();
        let ranges: Vec<Term> = leaves.iter().filter(|(t, _)| t.sort == Sort::Int).map(|(t, ty)| self.range(t, ty)).collect();
        self.emit(Stmt::Seq(vec![Stmt::Havoc(vars), Stmt::Assume(and(&ranges))]), pos, None);
    }

    /// Stores the initializer's values into the variable `v`.
    fn init_entries(&mut self, v: VarId, entries: &[(Vec<Sel>, Expr)]) -> Result<()> {
        for (path, e) in entries {
            let info = self.tr.vars[v].clone();
            let place = match &info.shape {
                Shape::Mem(b) => {
                    let mut place = Place::Mem(crate::memory::MemLoc { b: b.clone(), o: int(0), ty: info.ty.clone(), checked: false });
                    for sel in path {
                        let Place::Mem(mut m) = place else {
                            return Err(CError::syntax(&e.pos, "initializer does not match the object"));
                        };
                        place = match (sel, &m.ty) {
                            (Sel::Field(k), CType::Record(r)) => {
                                let r = *r;
                                let f = self.tr.records.get(r).and_then(|rec| rec.fields.as_ref()).and_then(|fs| fs.get(*k)).cloned();
                                let Some(f) = f else { return Err(CError::syntax(&e.pos, "initializer does not match the object")) };
                                // (an initializer is converted to a bit-field's declared type)
                                self.member_place(m, r, *k, &f.ty, &e.pos)?
                            }
                            (Sel::Index(c), CType::Array(el, _)) => {
                                let es = self.tr.layout().size(el).ok_or_else(|| CError::unsupported(&e.pos, "element of unknown size"))?;
                                m.o = smt::build::add(&[m.o, int((c * es) as i64)]);
                                m.ty = (**el).clone();
                                Place::Mem(m)
                            }
                            _ => return Err(CError::syntax(&e.pos, "initializer does not match the object")),
                        };
                    }
                    place
                }
                _ => {
                    let mut loc = Loc { shape: info.shape.clone(), index: None, run: None, name: info.c_name.clone() };
                    for sel in path {
                        loc.shape = match (sel, loc.shape) {
                            (Sel::Field(k), Shape::Struct(mut fs)) if *k < fs.len() => fs.swap_remove(*k),
                            (Sel::Index(c), Shape::Array(n, elem)) => {
                                let c = int(*c as i64);
                                loc.index = Some(match loc.index {
                                    None => c,
                                    Some(f) => smt::build::add(&[smt::build::mul(&[f, n]), c]),
                                });
                                *elem
                            }
                            (_, Shape::Unsupported(w)) => Shape::Unsupported(w),
                            _ => return Err(CError::syntax(&e.pos, "initializer does not match the object")),
                        };
                    }
                    if let Shape::Unsupported(_) = loc.shape {
                        // a member this translation cannot represent: its value is never read
                        if self.may_emit(e) {
                            self.effect(e)?;
                        }
                        continue;
                    }
                    Place::Reg(loc)
                }
            };
            let val = self.rvalue(e)?;
            let pos = e.pos.clone();
            self.store_place(place, &val, &pos)?;
        }
        Ok(())
    }

    /// Translates a function body into a procedure.
    fn body(
        &mut self,
        f: &Node<ast::FunctionDefinition>,
        fty: &crate::types::FuncType,
        params: &[(Option<String>, CType)],
        is_entry: bool,
        pos: &SourcePos,
    ) -> Result<Procedure> {
        let mut ir_params = Vec::new();
        let mut ranges = Vec::new();
        let keys = param_keys(f);
        // parameters whose address is taken are copied into memory on entry
        let mut to_memory = vec![];
        let mut regs = vec![];
        for (k, (pname, ty)) in params.iter().enumerate() {
            let base = pname.clone().unwrap_or_else(|| format!("#p{k}"));
            let ir_name = self.local_name(&base);
            let reg = self.tr.shape(&ir_name, ty, 0, None);
            ir_params.extend(Fx::passed(&reg, &ir_name));
            regs.push((Fx::passed(&reg, &ir_name), ty.clone()));
            for (t, ty) in reg.typed_leaves() {
                ranges.push(self.range(&t, &ty));
            }
            let key = keys.get(k).copied();
            let shape = if key.is_some_and(|k| self.tr.mem_locals.contains(&k)) || self.tr.members_share_bytes(ty) {
                let b = Term::var(&self.local_name(&format!("&{ir_name}")), Sort::Int);
                self.locals.push(b.clone());
                to_memory.push((b.clone(), ty.clone(), reg.clone()));
                Shape::Mem(b)
            } else {
                reg
            };
            self.tr.vars.push(VarInfo { c_name: base.clone(), ir_name, ty: ty.clone(), shape, is_static: false, decl_key: key });
            if let Some(n) = pname {
                let v = self.tr.vars.len() - 1;
                self.tr.declare(n, Ordinary::Var(v));
            }
        }
        if fty.variadic {
            // the base of the variadic arguments (an entry function's are unknown)
            let va = Term::var(&self.local_name(crate::varargs::VA_PARAM), Sort::Int);
            ir_params.push(va.clone());
            self.va = (!is_entry).then_some(va);
        }
        let ret_ty = &fty.ret;
        let rets = if *ret_ty == CType::Void {
            vec![]
        } else {
            let r = self.local_name("#res");
            let shape = self.tr.shape(&r, ret_ty, 0, None);
            self.result_val = shape.value().filter(|v| !matches!(v, Val::Float(None)));
            Fx::passed(&shape, &r)
        };
        self.tr.acsl_result = (*ret_ty != CType::Void).then(|| ret_ty.clone());
        self.param_vars = ir_params.clone();
        self.params_in_memory = !to_memory.is_empty();
        self.ret = rets.clone();
        self.ret_ty = ret_ty.clone();
        if is_entry {
            let call = Call { callee: INIT_PROC.to_string(), args: vec![], rets: vec![] };
            self.emit_label(Label::Call(call), pos, None);
            self.assume(&and(&ranges), pos);
            if self.name == "main" {
                let body = &self.tr.text[f.node.statement.span.start..f.node.statement.span.end];
                let named: Vec<bool> = params.iter().map(|(n, _)| n.as_ref().is_some_and(|n| names(body, n))).collect();
                self.main_arguments(&regs, &named, pos)?;
            }
        }
        self.frames.push((FUNCTION_SCOPE, vec![]));
        for (b, ty, reg) in to_memory {
            let size = self.tr.layout().size(&ty).ok_or_else(|| CError::unsupported(pos, "parameter of unknown size"))?;
            self.allocate(&b, &int(size as i64), false, pos);
            if let Some(f) = self.frames.last_mut() {
                f.1.push(b.clone());
            }
            let val = reg.value().ok_or_else(|| CError::unsupported(pos, "parameter of this type in memory"))?;
            let m = crate::memory::MemLoc { b, o: int(0), ty, checked: false };
            self.mem_store(&m, &val, pos)?;
        }
        if is_entry {
            // returns of the entry function go through the leak checks
            self.ret_loc = self.loc(pos);
        }
        self.tr.promotable.extend(crate::promote::candidates(f));
        let mut path = vec![FUNCTION_SCOPE];
        self.collect_labels(&f.node.statement, &mut path);
        self.stmt(&f.node.statement)?;
        self.no_pending_loop_invariant()?;
        self.release_frames(0, pos);
        self.frames.clear();
        let ret = self.ret_loc;
        self.b.jump(self.cur, ret, None);
        self.cur = ret;
        self.check_postconditions()?;
        if is_entry {
            self.run_exit_handlers(pos)?;
            self.leak_checks(false, pos);
        }
        let exit = self.b.exit;
        if self.cur != exit {
            self.b.jump(self.cur, exit, None);
        }
        let b = std::mem::replace(&mut self.b, ir::builder::Builder::new(None));
        Ok(Procedure {
            name: self.name.clone(),
            params: ir_params,
            rets,
            locals: std::mem::take(&mut self.locals),
            modifies: vec![],
            requires: vec![],
            ensures: vec![],
            body: Some(b.finish(&self.name)),
            pos: Some(pos.clone()),
        })
    }

    /// The variables an object of this shape is passed in (a struct's leaves; one variable,
    /// possibly a dummy, for anything else).
    pub fn passed(shape: &Shape, name: &str) -> Vec<Term> {
        match shape {
            Shape::Struct(_) => shape.leaves(),
            Shape::Int(t, _) => vec![t.clone()],
            Shape::Ptr(b, o) => vec![b.clone(), o.clone()],
            Shape::Float(Some(t)) => vec![t.clone()],
            _ => vec![Term::var(name, Sort::Int)],
        }
    }

    /// Creates the locations of the labels of a function body; `path` holds the enclosing
    /// scopes (statement addresses).
    fn collect_labels(&mut self, s: &Node<ast::Statement>, path: &mut Vec<usize>) {
        use ast::Statement as S;
        match &s.node {
            S::Labeled(l) => {
                if let ast::Label::Identifier(id) = &l.node.label.node {
                    let p = self.tr.pos(id.span);
                    let loc = self.b.label_loc(&id.node.name, Some(p));
                    self.labels.insert(id.node.name.clone(), loc);
                    self.label_paths.insert(id.node.name.clone(), path.clone());
                }
                self.collect_labels(&l.node.statement, path);
            }
            S::Compound(items) => {
                path.push(scope_id(s));
                for i in items {
                    if let ast::BlockItem::Statement(s) = &i.node {
                        self.collect_labels(s, path);
                    }
                }
                path.pop();
            }
            S::If(i) => {
                self.collect_labels(&i.node.then_statement, path);
                if let Some(e) = &i.node.else_statement {
                    self.collect_labels(e, path);
                }
            }
            S::Switch(w) => self.collect_labels(&w.node.statement, path),
            S::While(w) => self.collect_labels(&w.node.statement, path),
            S::DoWhile(w) => self.collect_labels(&w.node.statement, path),
            S::For(w) => {
                path.push(scope_id(s));
                self.collect_labels(&w.node.statement, path);
                path.pop();
            }
            _ => {}
        }
    }

    /// Opens a scope (block scope for names, a frame for objects in memory).
    fn open_scope(&mut self, id: usize) {
        self.tr.scopes.push(Default::default());
        self.frames.push((id, vec![]));
    }

    /// Closes the innermost scope, ending the lifetime of its objects in memory.
    fn close_scope(&mut self, pos: &SourcePos) {
        self.tr.scopes.pop();
        if let Some((_, bases)) = self.frames.pop() {
            // the end of the function's body is its return (see `release_frames`)
            if self.frames.len() == 1 && self.ends_execution() {
                return;
            }
            self.release(&bases, pos);
        }
    }

    /// Creates the locations of the case labels of a switch body (not of nested switches).
    fn collect_cases(&mut self, s: &Node<ast::Statement>, out: &mut Vec<(usize, Node<ast::Label>)>) {
        use ast::Statement as S;
        match &s.node {
            S::Labeled(l) => {
                if !matches!(l.node.label.node, ast::Label::Identifier(_)) {
                    out.push((&l.node as *const ast::LabeledStatement as usize, l.node.label.clone()));
                }
                self.collect_cases(&l.node.statement, out);
            }
            S::Compound(items) => {
                for i in items {
                    if let ast::BlockItem::Statement(s) = &i.node {
                        self.collect_cases(s, out);
                    }
                }
            }
            S::If(i) => {
                self.collect_cases(&i.node.then_statement, out);
                if let Some(e) = &i.node.else_statement {
                    self.collect_cases(e, out);
                }
            }
            S::While(w) => self.collect_cases(&w.node.statement, out),
            S::DoWhile(w) => self.collect_cases(&w.node.statement, out),
            S::For(w) => self.collect_cases(&w.node.statement, out),
            _ => {}
        }
    }

    fn typed(&mut self, e: &Node<ast::Expression>) -> Result<Expr> {
        self.tr.expr(e)
    }

    /// Jumps from the current location to `target` and continues at a dead location.
    fn goto(&mut self, target: usize, pos: &SourcePos) {
        self.b.jump(self.cur, target, Some(pos.clone()));
        self.cur = self.loc(pos);
    }

    /// Branches on `phi` to `then` and `els` (a constant condition becomes a jump).
    fn branch(&mut self, phi: &Term, then: usize, els: usize, pos: &SourcePos) {
        if phi.is_true() {
            self.b.jump(self.cur, then, Some(pos.clone()));
        } else if phi.is_false() {
            self.b.jump(self.cur, els, Some(pos.clone()));
        } else {
            self.b.edge(self.cur, then, Label::Stmt(Stmt::Assume(phi.clone())), Some(pos.clone()), None);
            self.b.edge(self.cur, els, Label::Stmt(Stmt::Assume(not(phi))), Some(pos.clone()), None);
        }
    }

    /// Branches on the truth of `e` to `then` and `els`; `&&`, `||` and `!` with side effects
    /// in their operands become control flow.
    fn branch_cond(&mut self, e: &Expr, then: usize, els: usize, pos: &SourcePos) -> Result<()> {
        match &e.kind {
            ExprKind::LogAnd(a, b) | ExprKind::LogOr(a, b) if self.may_emit(b) => {
                let is_and = matches!(e.kind, ExprKind::LogAnd(..));
                let mid = self.loc(pos);
                if is_and {
                    self.branch_cond(a, mid, els, pos)?;
                } else {
                    self.branch_cond(a, then, mid, pos)?;
                }
                self.cur = mid;
                self.branch_cond(b, then, els, pos)
            }
            ExprKind::Not(a) if self.may_emit(a) => self.branch_cond(a, els, then, pos),
            _ => {
                let phi = self.cond(e)?;
                self.branch(&phi, then, els, pos);
                Ok(())
            }
        }
    }

    /// Translates a statement at the current location.
    pub fn stmt(&mut self, s: &Node<ast::Statement>) -> Result<()> {
        use ast::Statement as S;
        let pos = self.tr.pos(s.span);
        if !matches!(s.node, S::While(_) | S::DoWhile(_) | S::For(_)) && !is_loop_invariant(s) {
            self.no_pending_loop_invariant()?;
        }
        match &s.node {
            S::Labeled(l) => {
                let target = match &l.node.label.node {
                    ast::Label::Identifier(id) => self.labels.get(&id.node.name).copied(),
                    _ => self.cases.get(&(&l.node as *const ast::LabeledStatement as usize)).copied(),
                };
                let Some(target) = target else {
                    return Err(CError::syntax(&pos, "case label outside of a switch statement"));
                };
                self.b.jump(self.cur, target, Some(pos.clone()));
                self.cur = target;
                self.stmt(&l.node.statement)
            }
            S::Compound(items) => {
                self.open_scope(scope_id(s));
                let r = self.block_items(items);
                self.close_scope(&pos);
                r
            }
            S::Expression(None) => Ok(()),
            S::Expression(Some(_)) if is_loop_invariant(s) => {
                self.loop_invariants.push(s.clone());
                Ok(())
            }
            S::Expression(Some(e)) => {
                let te = self.typed(e)?;
                self.effect(&te)
            }
            S::If(i) => {
                let c = self.typed(&i.node.condition)?;
                let (then, els, join) = (self.loc(&pos), self.loc(&pos), self.loc(&pos));
                self.branch_cond(&c, then, els, &pos)?;
                self.cur = then;
                self.stmt(&i.node.then_statement)?;
                self.b.jump(self.cur, join, None);
                self.cur = els;
                if let Some(e) = &i.node.else_statement {
                    self.stmt(e)?;
                }
                self.b.jump(self.cur, join, None);
                self.cur = join;
                Ok(())
            }
            S::While(w) => {
                let (head, body, after) = (self.loc(&pos), self.loc(&pos), self.loc(&pos));
                self.b.jump(self.cur, head, Some(pos.clone()));
                self.cur = head;
                self.check_loop_invariants()?;
                let c = self.typed(&w.node.expression)?;
                self.branch_cond(&c, body, after, &pos)?;
                self.cur = body;
                self.loop_body(&w.node.statement, after, head)?;
                self.b.jump(self.cur, head, None);
                self.cur = after;
                Ok(())
            }
            S::DoWhile(w) => {
                let (body, test, after) = (self.loc(&pos), self.loc(&pos), self.loc(&pos));
                self.b.jump(self.cur, body, Some(pos.clone()));
                self.cur = body;
                self.check_loop_invariants()?;
                self.loop_body(&w.node.statement, after, test)?;
                self.b.jump(self.cur, test, None);
                self.cur = test;
                let c = self.typed(&w.node.expression)?;
                // the back edge goes to a fresh location: `body` already has outgoing edges
                let again = self.loc(&pos);
                self.branch_cond(&c, again, after, &pos)?;
                self.b.edge(again, body, Label::Stmt(Stmt::Assume(tt())), Some(pos.clone()), None);
                self.cur = after;
                Ok(())
            }
            S::For(fs) => {
                self.open_scope(scope_id(s));
                let r = self.for_loop(fs, &pos);
                self.close_scope(&pos);
                r
            }
            S::Switch(sw) => self.switch(sw, &pos),
            S::Goto(id) => {
                let target = self
                    .labels
                    .get(&id.node.name)
                    .copied()
                    .ok_or_else(|| CError::syntax(&pos, format!("undefined label `{}`", id.node.name)))?;
                // objects of the scopes left by the jump end their lifetime
                let path = self.label_paths.get(&id.node.name).cloned().unwrap_or_default();
                let common = self.frames.iter().zip(&path).take_while(|((a, _), b)| a == *b).count();
                self.release_frames(common, &pos);
                self.goto(target, &pos);
                Ok(())
            }
            S::Continue => {
                let (t, depth) = *self.continues.last().ok_or_else(|| CError::syntax(&pos, "`continue` outside of a loop"))?;
                self.release_frames(depth, &pos);
                self.goto(t, &pos);
                Ok(())
            }
            S::Break => {
                let (t, depth) = *self.breaks.last().ok_or_else(|| CError::syntax(&pos, "`break` outside of a loop or switch"))?;
                self.release_frames(depth, &pos);
                self.goto(t, &pos);
                Ok(())
            }
            S::Return(e) => {
                if let Some(e) = e {
                    let te = self.typed(e)?;
                    let ret_ty = self.ret_ty.clone();
                    if ret_ty == CType::Void {
                        self.effect(&te)?;
                    } else {
                        let te = self.tr.convert_assign(te, &ret_ty, e.span)?;
                        let v = self.rvalue(&te)?;
                        let vals = v.flatten(self.tr.sem());
                        if vals.len() != self.ret.len() {
                            return Err(CError::syntax(&pos, "return value does not match the result type"));
                        }
                        let pairs: Vec<(Term, Term)> = self.ret.iter().cloned().zip(vals).collect();
                        if !pairs.is_empty() {
                            self.emit(Stmt::Assign(pairs), &pos, None);
                        }
                    }
                }
                self.release_frames(0, &pos);
                let r = self.ret_loc;
                self.goto(r, &pos);
                Ok(())
            }
            S::Asm(_) => Err(CError::unsupported(&pos, "inline assembly")),
        }
    }

    fn block_items(&mut self, items: &[Node<ast::BlockItem>]) -> Result<()> {
        for i in items {
            match &i.node {
                ast::BlockItem::Declaration(d) => self.local_declaration(d)?,
                ast::BlockItem::StaticAssert(sa) => {
                    let holds = self.tr.static_assert_holds(&sa.node.expression)?;
                    let p = self.tr.pos(sa.span);
                    self.static_assertion(holds, &p);
                }
                ast::BlockItem::Statement(s) => self.stmt(s)?,
            }
        }
        Ok(())
    }

    /// A static assertion: one that fails is a violation (as Ultimate reports it).
    pub fn static_assertion(&mut self, holds: bool, pos: &SourcePos) {
        if !holds && self.checks(verdict::Property::UnreachCall) {
            self.fail(ir::ViolationKind::Assert, pos);
        }
    }

    /// The value of a statement expression: its block, the last expression statement's value.
    pub fn stmt_expr(&mut self, s: &Node<ast::Statement>, needed: bool) -> Result<Val> {
        let ast::Statement::Compound(items) = &s.node else {
            return Err(CError::unsupported(&self.tr.pos(s.span), "statement expression without a block"));
        };
        let pos = self.tr.pos(s.span);
        self.open_scope(scope_id(s));
        let r = self.stmt_expr_items(items, needed);
        self.close_scope(&pos);
        r
    }

    fn stmt_expr_items(&mut self, items: &[Node<ast::BlockItem>], needed: bool) -> Result<Val> {
        let Some((last, init)) = items.split_last() else { return Ok(Val::Void) };
        self.block_items(init)?;
        if let ast::BlockItem::Statement(s) = &last.node {
            if let ast::Statement::Expression(Some(e)) = &s.node {
                let te = self.typed(e)?;
                let te = self.tr.decay(te);
                return self.eval_expr(&te, needed);
            }
        }
        self.block_items(std::slice::from_ref(last))?;
        Ok(Val::Void)
    }

    fn loop_body(&mut self, body: &Node<ast::Statement>, brk: usize, cont: usize) -> Result<()> {
        let depth = self.frames.len();
        self.breaks.push((brk, depth));
        self.continues.push((cont, depth));
        let r = self.stmt(body);
        self.breaks.pop();
        self.continues.pop();
        r
    }

    fn for_loop(&mut self, fs: &Node<ast::ForStatement>, pos: &SourcePos) -> Result<()> {
        match &fs.node.initializer.node {
            ast::ForInitializer::Empty => {}
            ast::ForInitializer::StaticAssert(sa) => {
                let holds = self.tr.static_assert_holds(&sa.node.expression)?;
                let p = self.tr.pos(sa.span);
                self.static_assertion(holds, &p);
            }
            ast::ForInitializer::Expression(e) => {
                let te = self.typed(e)?;
                self.effect(&te)?;
            }
            ast::ForInitializer::Declaration(d) => self.local_declaration(d)?,
        }
        let (head, body, step, after) = (self.loc(pos), self.loc(pos), self.loc(pos), self.loc(pos));
        self.b.jump(self.cur, head, Some(pos.clone()));
        self.cur = head;
        self.check_loop_invariants()?;
        match &fs.node.condition {
            Some(c) => {
                let te = self.typed(c)?;
                self.branch_cond(&te, body, after, pos)?;
            }
            None => self.b.jump(self.cur, body, Some(pos.clone())),
        }
        self.cur = body;
        self.loop_body(&fs.node.statement, after, step)?;
        self.b.jump(self.cur, step, None);
        self.cur = step;
        if let Some(e) = &fs.node.step {
            let te = self.typed(e)?;
            self.effect(&te)?;
        }
        self.b.jump(self.cur, head, None);
        self.cur = after;
        Ok(())
    }

    /// Translates the pending ACSL loop invariants at the current location, a loop's head:
    /// they must hold whenever the loop is entered and after every iteration.
    fn check_loop_invariants(&mut self) -> Result<()> {
        for s in std::mem::take(&mut self.loop_invariants) {
            if let ast::Statement::Expression(Some(e)) = &s.node {
                let te = self.typed(e)?;
                self.effect(&te)?;
            }
        }
        Ok(())
    }

    /// Prepares the checks of ACSL `ensures` clauses: the parameters' values on entry are kept,
    /// and returns go through a location of their own where the clauses are checked.
    pub fn start_postconditions(&mut self, pos: &SourcePos) {
        for p in self.param_vars.clone() {
            let t = self.temp_of(p.sort.clone());
            self.assign(&t, &p, pos);
            self.param_entry.insert(p, t);
        }
        if self.ret_loc == self.b.exit {
            self.ret_loc = self.loc(pos);
        }
    }

    /// Asserts (or for a function known by its contract, assumes) the ACSL `ensures` clauses
    /// at the current location (where the function returns), the parameters read with their
    /// values on entry.
    fn check_postconditions(&mut self) -> Result<()> {
        for (e, pos, assumed) in std::mem::take(&mut self.ensures) {
            let c = self.cond(&e)?;
            let c = smt::subst::substitute(&c, &self.param_entry);
            if assumed {
                self.assume(&c, &pos);
            } else {
                self.assertion(&c, ir::ViolationKind::Ensures, &pos);
            }
        }
        Ok(())
    }

    /// An error if ACSL loop invariants wait for a loop that did not come.
    pub fn no_pending_loop_invariant(&self) -> Result<()> {
        match self.loop_invariants.first() {
            Some(s) => Err(CError::unsupported(&self.tr.pos(s.span), "ACSL loop invariant not followed by a loop")),
            None => Ok(()),
        }
    }

    fn switch(&mut self, sw: &Node<ast::SwitchStatement>, pos: &SourcePos) -> Result<()> {
        let te = self.typed(&sw.node.expression)?;
        if !te.ty.is_integer() {
            return Err(CError::syntax(pos, "switch on a non-integer value"));
        }
        let ty = promote(&te.ty);
        let te = self.tr.cast(te, &ty, pos.clone());
        let v = self.int_value(&te)?;
        let mut labels = Vec::new();
        self.collect_cases(&sw.node.statement, &mut labels);
        let after = self.loc(pos);
        let mut not_any = Vec::new();
        let mut default = None;
        let dispatch = self.cur;
        let mut saved = Vec::new();
        for (key, label) in &labels {
            let lpos = self.tr.pos(label.span);
            let target = self.loc(&lpos);
            saved.push((*key, self.cases.insert(*key, target)));
            let guard = match &label.node {
                ast::Label::Case(e) => {
                    let c = self.case_value(e, &ty)?;
                    eq(&v, &c)
                }
                ast::Label::CaseRange(r) => {
                    let lo = self.case_value(&r.node.low, &ty)?;
                    let hi = self.case_value(&r.node.high, &ty)?;
                    and(&[le(&lo, &v), le(&v, &hi)])
                }
                ast::Label::Default => {
                    default = Some(target);
                    continue;
                }
                ast::Label::Identifier(_) => continue,
            };
            not_any.push(not(&guard));
            if !guard.is_false() {
                self.b.edge(dispatch, target, Label::Stmt(Stmt::Assume(guard)), Some(lpos), None);
            }
        }
        let otherwise = and(&not_any);
        if !otherwise.is_false() {
            let t = default.unwrap_or(after);
            self.b.edge(dispatch, t, Label::Stmt(Stmt::Assume(otherwise)), Some(pos.clone()), None);
        }
        // the body is entered only through the case labels
        self.cur = self.loc(pos);
        let depth = self.frames.len();
        self.breaks.push((after, depth));
        let r = self.stmt(&sw.node.statement);
        self.breaks.pop();
        for (key, old) in saved {
            match old {
                Some(o) => self.cases.insert(key, o),
                None => self.cases.remove(&key),
            };
        }
        r?;
        self.b.jump(self.cur, after, None);
        self.cur = after;
        Ok(())
    }

    fn case_value(&mut self, e: &Node<ast::Expression>, ty: &CType) -> Result<Term> {
        let te = self.typed(e)?;
        let p = te.pos.clone();
        let te = self.tr.cast(te, ty, p);
        let v = self.tr.const_int(&te).ok_or_else(|| self.tr.error(e.span, "case label is not an integer constant"))?;
        Ok(self.tr.sem().lit(&v, ty))
    }

    /// The pointee type of a local pointer `p` declared with the key `key`, type `ty` and the
    /// initializer `inits` when `*p` can become a scalar (`promote`, conditions 1–4).
    fn promotable_pointee(&self, key: usize, ty: &CType, inits: &[(Vec<Sel>, Expr)]) -> Option<CType> {
        if !self.tr.promotable.contains(&key) || self.tr.mem_locals.contains(&key) {
            return None;
        }
        let CType::Pointer(t) = ty else { return None };
        if !matches!(**t, CType::Int(_) | CType::Pointer(_)) {
            return None;
        }
        let [(path, e)] = inits else { return None };
        let mut e = e;
        while let ExprKind::Cast(inner) = &e.kind {
            e = inner;
        }
        let ExprKind::Call(crate::tast::Callee::Named(f), args) = &e.kind else { return None };
        let [n] = args.as_slice() else { return None };
        let size = self.tr.layout().size(t)?;
        let n = self.tr.const_int(n)?;
        let fits = path.is_empty() && crate::promote::STACK_ALLOCATORS.contains(&f.as_str()) && !self.tr.defined.contains(f);
        (fits && n >= num_bigint::BigInt::from(size)).then(|| (**t).clone())
    }

    /// Declares the promoted pointer `name` (a variable of no representation: only `*p` may
    /// occur, and typing turns it into the scalar) and the scalar `*name` of type `pointee`,
    /// havocked like the contents of a fresh object.
    fn promote(&mut self, name: &str, key: usize, ty: CType, pointee: CType, pos: &SourcePos) {
        let c_name = format!("*{name}");
        let ir_name = self.local_name(&c_name);
        self.tr.back.name_deref(&ir_name, name);
        let shape = self.tr.shape(&ir_name, &pointee, 0, None);
        self.locals.extend(shape.leaves());
        self.havoc_object(&shape, pos);
        // the same key: should the scalar's address be taken after all, the next translation
        // attempt keeps `p` in memory
        let scalar = VarInfo { c_name, ir_name, ty: pointee, shape, is_static: false, decl_key: Some(key) };
        self.tr.vars.push(scalar);
        let s = self.tr.vars.len() - 1;
        let unrepresented = Shape::Unsupported("pointer whose object became a scalar".into());
        let p = VarInfo {
            c_name: name.to_string(),
            ir_name: name.to_string(),
            ty,
            shape: unrepresented,
            is_static: false,
            decl_key: Some(key),
        };
        self.tr.vars.push(p);
        let v = self.tr.vars.len() - 1;
        self.tr.promoted.insert(v, s);
        self.tr.declare(name, Ordinary::Var(v));
    }

    /// Declares `name` (declared at `key`) for its own initializer, where it is in scope
    /// (`struct node *n = malloc(sizeof *n);`, `struct list_head h = { &h, &h };`) but its
    /// object does not exist yet: the initializer may use its type, and its address when the
    /// object lives in memory (the name of its base, returned, is the object's; the object is
    /// allocated before the initializer runs); a use of its value is unsupported (C leaves it
    /// indeterminate), and taking its address puts it in memory (the translation starts over).
    fn declare_in_own_initializer(&mut self, name: &str, ty: &CType, key: usize) -> Option<String> {
        let ir_name = self.tr.mem_locals.contains(&key).then(|| self.local_name(name));
        let shape = match &ir_name {
            Some(n) => Shape::Mem(Term::var(&format!("&{n}"), Sort::Int)),
            None => Shape::Unsupported("object in its own initializer".into()),
        };
        self.tr.vars.push(VarInfo {
            c_name: name.to_string(),
            ir_name: String::new(),
            ty: ty.clone(),
            shape,
            is_static: false,
            decl_key: Some(key),
        });
        self.tr.declare(name, Ordinary::Var(self.tr.vars.len() - 1));
        ir_name
    }

    /// A declaration in a block.
    fn local_declaration(&mut self, decl: &Node<ast::Declaration>) -> Result<()> {
        let spec = self.tr.decl_spec(&decl.node.specifiers, decl.span)?;
        for id in &decl.node.declarators {
            let (name, ty) = self.tr.derive(spec.ty.clone(), &id.node.declarator)?;
            let Some(name) = name else { continue };
            let pos = self.tr.pos(id.span);
            if spec.typedef {
                self.tr.declare(&name, Ordinary::Typedef(ty));
                continue;
            }
            if let CType::Func(f) = &ty {
                self.tr.declare_function(&name, f.clone());
                continue;
            }
            if spec.is_extern {
                let existing = match self.tr.scopes.first().and_then(|s| s.ords.get(&name)) {
                    Some(Ordinary::Var(v)) => Some(*v),
                    _ => None,
                };
                let v = match existing {
                    Some(v) => v,
                    None => {
                        let ir_name = self.tr.global_name(&name);
                        let v = self.tr.add_static(&name, &ir_name, ty.clone());
                        self.tr.statics.push(StaticInit { var: v, init: vec![], external: true, pos: pos.clone() });
                        if let Some(s) = self.tr.scopes.first_mut() {
                            s.ords.insert(name.clone(), Ordinary::Var(v));
                        }
                        v
                    }
                };
                self.tr.declare(&name, Ordinary::Var(v));
                continue;
            }
            if spec.is_static {
                let ir_name = self.tr.global_name(&format!("{}::{}", self.name, name));
                self.used.insert(ir_name.clone());
                let v = self.tr.add_static(&name, &ir_name, ty.clone());
                let key = id.node.declarator.span.start;
                self.tr.vars[v].decl_key = Some(key);
                if self.tr.mem_locals.contains(&key) {
                    self.tr.vars[v].shape = Shape::Mem(Term::var(&format!("&{ir_name}"), Sort::Int));
                }
                self.tr.declare(&name, Ordinary::Var(v));
                let init = match &id.node.initializer {
                    Some(i) => self.tr.static_initializer(v, i)?,
                    None => vec![],
                };
                self.tr.statics.push(StaticInit { var: v, init, external: false, pos });
                continue;
            }
            let key = id.node.declarator.span.start;
            let (ty, inits, ir_name) = match &id.node.initializer {
                Some(init) => {
                    let ir_name = self.declare_in_own_initializer(&name, &ty, key);
                    let (t, i) = self.tr.initializer(&ty, init)?;
                    (t, Some(i), ir_name)
                }
                None => (ty, None, None),
            };
            if let Some(inits) = &inits {
                if let Some(pointee) = self.promotable_pointee(key, &ty, inits) {
                    self.promote(&name, key, ty, pointee, &pos);
                    continue;
                }
            }
            let ir_name = ir_name.unwrap_or_else(|| self.local_name(&name));
            // the length of a variable-length array
            let len = match (&ty, vla_size(&id.node.declarator.node)) {
                (CType::Array(elem, None), Some(size)) => {
                    let te = self.typed(size)?;
                    let n = self.int_value(&te)?;
                    // the size in bytes is computed in `size_t`: a length whose size wraps
                    // around gives a smaller array
                    let es = self.tr.layout().size(elem).ok_or_else(|| CError::unsupported(&pos, "array of elements of unknown size"))?;
                    let lty = self.tr.size_t();
                    let sem = self.tr.sem();
                    let n = crate::conv::convert(&n, &crate::types::promote(&te.ty), &lty, sem);
                    let n = crate::conv::convert(&n, &lty, &CType::MathInt, sem);
                    let n = if es > 1 {
                        let bytes = mul(&[n.clone(), int(es as i64)]);
                        let bytes = crate::conv::convert(&bytes, &CType::MathInt, &lty, crate::conv::Sem::integer(sem.dm));
                        smt::build::int_div(&bytes, &int(es as i64))
                    } else {
                        n
                    };
                    let l = Term::var(&self.local_name(&format!("{ir_name}#len")), Sort::Int);
                    self.locals.push(l.clone());
                    self.assign(&l, &n, &pos);
                    Some(l)
                }
                _ => None,
            };
            let shape = if self.tr.mem_locals.contains(&key) || self.tr.members_share_bytes(&ty) {
                // the address is taken (or the members overlap): the object lives in memory
                let b = Term::var(&self.local_name(&format!("&{ir_name}")), Sort::Int);
                let size = match (&ty, &len) {
                    (CType::Array(e, None), Some(l)) => {
                        let es = self.tr.layout().size(e).ok_or_else(|| CError::unsupported(&pos, "array of elements of unknown size"))?;
                        smt::build::mul(&[l.clone(), int(es as i64)])
                    }
                    _ => int(self.tr.layout().size(&ty).ok_or_else(|| CError::unsupported(&pos, "object of unknown size"))? as i64),
                };
                self.allocate(&b, &size, false, &pos);
                if let Some(f) = self.frames.last_mut() {
                    f.1.push(b.clone());
                }
                Shape::Mem(b)
            } else {
                self.tr.shape(&ir_name, &ty, 0, len.as_ref())
            };
            self.locals.extend(shape.leaves());
            self.tr.vars.push(VarInfo {
                c_name: name.clone(),
                ir_name,
                ty: ty.clone(),
                shape: shape.clone(),
                is_static: false,
                decl_key: Some(key),
            });
            let v = self.tr.vars.len() - 1;
            self.tr.declare(&name, Ordinary::Var(v));
            match inits {
                Some(entries) => {
                    let whole = matches!(entries.as_slice(), [(p, _)] if p.is_empty());
                    if !whole {
                        if let Shape::Unsupported(why) = &shape {
                            return Err(CError::unsupported(&pos, format!("initialization of `{name}` of type {why}")));
                        }
                        self.zero_object(&shape, &pos);
                    }
                    self.init_entries(v, &entries)?;
                }
                None => {
                    if !matches!(shape, Shape::Mem(_)) {
                        self.havoc_object(&shape, &pos)
                    }
                }
            }
        }
        Ok(())
    }
}
