//! Translation of typed expressions into terms, emitting the edges their side effects,
//! short-circuit evaluation and checks need at the current location.

use crate::conv::{self, truth, ArithOp};
use crate::error::{CError, Result};
use crate::func::{Fx, Loc, Place, Val};
use crate::memory::MemLoc;
use crate::shape::Shape;
use crate::tast::{Callee, Expr, ExprKind};
use crate::types::{CType, IntKind};
use ir::{SourcePos, ViolationKind};
use smt::build::{add, int, ite, mul, not, or, select};
use smt::Term;
use verdict::Property;

impl Fx<'_> {
    /// The value of `e` (its side effects are emitted).
    pub fn rvalue(&mut self, e: &Expr) -> Result<Val> {
        let v = self.eval(e, true)?;
        Ok(self.modelled(v, &e.ty, &e.pos))
    }

    /// `v`, or where floats of type `ty` are modelled but `v` is opaque (read from memory,
    /// computed in `long double`, ...), an arbitrary value of `ty` marked as over-approximation.
    fn modelled(&mut self, v: Val, ty: &CType, pos: &SourcePos) -> Val {
        match v {
            Val::Float(None) if self.tr.sem().float_sort(ty).is_some() => {
                Val::Float(Some(self.nondet(ty, pos, Some("floating-point value not modelled".into()))))
            }
            v => v,
        }
    }

    /// The floating-point terms of two operands, when both are modelled.
    fn float_operands(&mut self, a: &Expr, b: &Expr) -> Result<Option<(Term, Term)>> {
        Ok(match (self.eval(a, true)?, self.eval(b, true)?) {
            (Val::Float(Some(x)), Val::Float(Some(y))) => Some((x, y)),
            _ => None,
        })
    }

    /// Evaluates `e` for its side effects only.
    pub fn effect(&mut self, e: &Expr) -> Result<()> {
        self.eval(e, false).map(|_| ())
    }

    /// Evaluates `e`; the value is needed unless `needed` is false.
    pub fn eval_expr(&mut self, e: &Expr, needed: bool) -> Result<Val> {
        self.eval(e, needed)
    }

    /// The truth of a scalar expression as a formula.
    pub fn cond(&mut self, e: &Expr) -> Result<Term> {
        let mut x = e;
        while let ExprKind::Cast(inner) = &x.kind {
            x = inner;
        }
        if matches!(x.kind, ExprKind::StrLit(_)) {
            // a string literal is a non-null pointer
            return Ok(smt::build::tt());
        }
        match self.rvalue(e)? {
            Val::Bool(phi) => Ok(phi),
            Val::Int(t) => Ok(truth(&t)),
            Val::Float(Some(x)) => Ok(truth(&x)),
            Val::Float(None) => {
                let c = self.nondet_bool(&e.pos, "floating-point value used as a condition");
                self.mark_bit_precise_exact(&e.ty);
                Ok(c)
            }
            Val::Ptr(b, o) => Ok(not(&smt::build::and(&[smt::build::eq(&b, &int(0)), smt::build::eq(&o, &int(0))]))),
            Val::Void | Val::Agg(_) => Err(CError::syntax(&e.pos, "non-scalar value used as a condition")),
        }
    }

    /// The value of an integer expression as a term.
    pub fn int_value(&mut self, e: &Expr) -> Result<Term> {
        match self.rvalue(e)? {
            Val::Int(t) => Ok(t),
            Val::Bool(phi) => Ok(self.tr.sem().bool_to_int(&phi)),
            _ => Err(CError::syntax(&e.pos, "integer value required")),
        }
    }

    /// The value of an integer expression as a mathematical integer (array indices, pointer
    /// offsets and sizes are integers in both semantics).
    pub fn index_value(&mut self, e: &Expr) -> Result<Term> {
        let v = self.int_value(e)?;
        Ok(conv::convert(&v, &e.ty, &CType::MathInt, self.tr.sem()))
    }

    fn unsupported(&self, pos: &SourcePos, what: impl Into<String>) -> CError {
        CError::unsupported(pos, what)
    }

    /// Where an lvalue lives.
    pub fn locate(&mut self, e: &Expr) -> Result<Place> {
        match &e.kind {
            ExprKind::Var(v) => {
                let info = &self.tr.vars[*v];
                if let Shape::Mem(b) = &info.shape {
                    return Ok(Place::Mem(MemLoc { b: b.clone(), o: int(0), ty: info.ty.clone(), checked: false }));
                }
                Ok(Place::Reg(Loc { shape: info.shape.clone(), index: None, run: None, name: info.c_name.clone() }))
            }
            ExprKind::Deref(p) => {
                let v = self.rvalue(p)?;
                let Val::Ptr(b, o) = v else {
                    return Err(CError::syntax(&e.pos, "dereference of a non-pointer"));
                };
                Ok(Place::Mem(MemLoc { b, o, ty: e.ty.clone(), checked: true }))
            }
            ExprKind::Member(base, k) => match self.locate(base)? {
                Place::Mem(m) => {
                    let CType::Record(r) = m.ty else { return Err(CError::syntax(&e.pos, "member access to a non-struct")) };
                    if self.tr.records.get(r).is_some_and(|rec| rec.is_union) {
                        // its members overlap: memory holds bytes (an initializer writes one
                        // member, which typed memory holds as well)
                        self.use_bytes();
                    }
                    self.member_place(m, r, *k, &e.ty, &e.pos)
                }
                Place::Reg(mut loc) => {
                    self.check_run(&mut loc, &e.pos);
                    match loc.shape {
                        Shape::Struct(mut fs) if *k < fs.len() => {
                            loc.shape = fs.swap_remove(*k);
                            Ok(Place::Reg(loc))
                        }
                        Shape::Unsupported(why) => Err(self.unsupported(&e.pos, format!("access to a member of a {why}"))),
                        _ => Err(CError::syntax(&e.pos, "member access to a non-struct")),
                    }
                }
                Place::Bits(_) => Err(CError::syntax(&e.pos, "member access to a bit-field")),
            },
            ExprKind::Index(base, i) => match self.locate(base)? {
                Place::Mem(mut m) => {
                    let iv = self.index_value(i)?;
                    let size = self.tr.layout().size(&e.ty).ok_or_else(|| self.unsupported(&e.pos, "element of unknown size"))?;
                    m.o = add(&[m.o, mul(&[iv, int(size as i64)])]);
                    m.ty = e.ty.clone();
                    m.checked = true;
                    Ok(Place::Mem(m))
                }
                Place::Reg(mut loc) => {
                    let iv = self.index_value(i)?;
                    match loc.shape {
                        Shape::Array(n, elem) => {
                            loc.index = Some(match loc.index {
                                None => iv.clone(),
                                Some(f) => add(&[mul(&[f, n.clone()]), iv.clone()]),
                            });
                            loc.run = Some(match loc.run {
                                None => (iv, n),
                                Some((f, t)) => (add(&[mul(&[f, n.clone()]), iv]), mul(&[t, n])),
                            });
                            loc.shape = *elem;
                            Ok(Place::Reg(loc))
                        }
                        Shape::Unsupported(why) => Err(self.unsupported(&e.pos, format!("subscript of a {why}"))),
                        _ => Err(CError::syntax(&e.pos, "subscript of a non-array")),
                    }
                }
                Place::Bits(_) => Err(CError::syntax(&e.pos, "subscript of a bit-field")),
            },
            ExprKind::Unsupported(what) => Err(self.unsupported(&e.pos, what.clone())),
            ExprKind::Function(f) => Err(CError::syntax(&e.pos, format!("the function `{f}` is not an object"))),
            ExprKind::StmtExpr(_) | ExprKind::Call(..) | ExprKind::Cond(..) | ExprKind::Comma(..) | ExprKind::Assign(..) => {
                Err(self.unsupported(&e.pos, "member or element of a struct or array value that is not an object"))
            }
            _ => Err(CError::syntax(&e.pos, "expression is not an lvalue")),
        }
    }

    /// The value of a place that is a scalar or pointer register variable (reading it after a
    /// store gives the stored value).
    pub fn register_var(p: &Place) -> Option<Val> {
        match p {
            Place::Reg(Loc { shape: Shape::Int(t, _), index: None, .. }) => Some(Val::Int(t.clone())),
            Place::Reg(Loc { shape: Shape::Ptr(b, o), index: None, .. }) => Some(Val::Ptr(b.clone(), o.clone())),
            Place::Reg(Loc { shape: Shape::Float(Some(t)), .. }) => Some(Val::Float(Some(t.clone()))),
            _ => None,
        }
    }

    /// Copies the parts of a value that are not literals or variables into temporaries (so
    /// that later stores do not change it).
    pub fn stabilize(&mut self, v: Val, pos: &SourcePos) -> Val {
        let keep = |fx: &mut Fx, t: Term| -> Term {
            if t.is_literal() || t.is_var() {
                return t;
            }
            let x = fx.temp_of(t.sort.clone());
            fx.assign(&x, &t, pos);
            x
        };
        match v {
            Val::Int(t) => Val::Int(keep(self, t)),
            Val::Bool(phi) => {
                let v = self.tr.sem().bool_to_int(&phi);
                Val::Int(keep(self, v))
            }
            Val::Ptr(b, o) => {
                let b = keep(self, b);
                Val::Ptr(b, keep(self, o))
            }
            Val::Agg(ts) => Val::Agg(ts.into_iter().map(|t| keep(self, t)).collect()),
            Val::Float(Some(t)) => Val::Float(Some(keep(self, t))),
            v => v,
        }
    }

    /// The value `v` as `place` holds it once stored, where that differs and is `needed` (a
    /// bit-field keeps the low bits of an integer).
    fn as_stored(&self, place: &Place, v: Val, needed: bool) -> Val {
        match (place, v.int(self.tr.sem())) {
            (Place::Bits(f), Some(x)) if needed => Val::Int(self.bits_value(f, &x)),
            _ => v,
        }
    }

    /// The value at a place.
    pub fn load_place(&mut self, p: Place, pos: &SourcePos) -> Result<Val> {
        match p {
            Place::Reg(loc) => self.load(loc, pos),
            Place::Mem(m) => self.mem_load(&m, pos),
            Place::Bits(f) => self.bits_load(&f, pos),
        }
    }

    /// Stores a value at a place.
    pub fn store_place(&mut self, p: Place, v: &Val, pos: &SourcePos) -> Result<()> {
        match p {
            Place::Reg(loc) => self.store(loc, v, pos),
            Place::Mem(m) => self.mem_store(&m, v, pos),
            Place::Bits(f) => self.bits_store(&f, v, pos),
        }
    }

    /// Checks (or, when `valid-deref` is not instrumented, assumes) that the pending run of
    /// subscripts stays inside its array.
    pub fn check_run(&mut self, loc: &mut Loc, pos: &SourcePos) {
        if let Some((f, total)) = loc.run.take() {
            let ok = smt::build::and(&[smt::build::le(&smt::build::int(0), &f), smt::build::lt(&f, &total)]);
            if self.checks(Property::ValidDeref) {
                self.check(&ok, ViolationKind::ValidDeref, pos);
            } else {
                self.assume(&ok, pos);
            }
        }
    }

    /// The value stored at a location.
    pub fn load(&mut self, mut loc: Loc, pos: &SourcePos) -> Result<Val> {
        self.check_run(&mut loc, pos);
        match &loc.shape {
            Shape::Int(t, ty) => match &loc.index {
                None => Ok(Val::Int(t.clone())),
                Some(f) => {
                    let v = select(t, f);
                    let r = self.range(&v, ty);
                    self.assume(&r, pos);
                    Ok(Val::Int(v))
                }
            },
            Shape::Float(v) => Ok(Val::Float(v.clone())),
            Shape::Ptr(b, o) => Ok(match &loc.index {
                None => Val::Ptr(b.clone(), o.clone()),
                Some(f) => Val::Ptr(select(b, f), select(o, f)),
            }),
            Shape::Mem(_) => Err(CError::syntax(pos, "object in memory accessed as a register")),
            Shape::Struct(_) => {
                if let Some(why) = loc.shape.unsupported() {
                    return Err(self.unsupported(pos, format!("struct with a {why} member")));
                }
                match &loc.index {
                    None => Ok(Val::Agg(loc.shape.leaves())),
                    Some(f) => {
                        if loc.shape.has_array() {
                            return Err(self.unsupported(pos, "copy of a struct with an array member out of an array"));
                        }
                        let mut vals = vec![];
                        for (t, ty) in loc.shape.typed_leaves() {
                            let v = select(&t, f);
                            let r = self.range(&v, &ty);
                            self.assume(&r, pos);
                            vals.push(v);
                        }
                        Ok(Val::Agg(vals))
                    }
                }
            }
            Shape::Array(..) => Err(self.unsupported(pos, format!("array `{}` used as a value (pointer)", loc.name))),
            Shape::Unsupported(why) => Err(self.unsupported(pos, format!("use of `{}` of type {why}", loc.name))),
        }
    }

    /// Stores a value at a location.
    pub fn store(&mut self, mut loc: Loc, val: &Val, pos: &SourcePos) -> Result<()> {
        self.check_run(&mut loc, pos);
        let pairs: Vec<(Term, Term)> = match (&loc.shape, val) {
            (Shape::Float(None), _) => return Ok(()),
            (Shape::Float(Some(t)), Val::Float(Some(x))) => vec![(t.clone(), x.clone())],
            (Shape::Float(Some(t)), _) => {
                self.emit(ir::Stmt::Havoc(vec![t.clone()]), pos, Some("floating-point value not modelled".into()));
                return Ok(());
            }
            (Shape::Int(t, _), v) => {
                let Some(x) = v.int(self.tr.sem()) else {
                    return Err(CError::syntax(pos, "integer value required"));
                };
                vec![(
                    t.clone(),
                    match &loc.index {
                        None => x,
                        Some(f) => smt::build::store(t, f, &x),
                    },
                )]
            }
            (Shape::Ptr(b, o), Val::Ptr(x, y)) => match &loc.index {
                None => vec![(b.clone(), x.clone()), (o.clone(), y.clone())],
                Some(f) => vec![(b.clone(), smt::build::store(b, f, x)), (o.clone(), smt::build::store(o, f, y))],
            },
            (Shape::Struct(_), Val::Agg(vs)) => {
                if let Some(why) = loc.shape.unsupported() {
                    return Err(self.unsupported(pos, format!("struct with a {why} member")));
                }
                if loc.index.is_some() && loc.shape.has_array() {
                    return Err(self.unsupported(pos, "copy of a struct with an array member into an array"));
                }
                let leaves = loc.shape.leaves();
                // below an array, a leaf is an SMT array and the value one of its elements
                let expected = |l: &Term| match (&loc.index, &l.sort) {
                    (Some(_), smt::Sort::Array(_, elem)) => (**elem).clone(),
                    _ => l.sort.clone(),
                };
                if leaves.len() != vs.len() || leaves.iter().zip(vs).any(|(l, v)| expected(l) != v.sort) {
                    return Err(self.unsupported(pos, "copy of a struct with array members between memory and variables"));
                }
                leaves
                    .iter()
                    .zip(vs)
                    .map(|(l, v)| match &loc.index {
                        None => (l.clone(), v.clone()),
                        Some(f) => (l.clone(), smt::build::store(l, f, v)),
                    })
                    .collect()
            }
            (Shape::Unsupported(why), _) => return Err(self.unsupported(pos, format!("assignment to `{}` of type {why}", loc.name))),
            _ => return Err(self.unsupported(pos, format!("assignment to `{}` of this type", loc.name))),
        };
        if !pairs.is_empty() {
            self.emit(ir::Stmt::Assign(pairs), pos, None);
        }
        Ok(())
    }

    fn eval(&mut self, e: &Expr, needed: bool) -> Result<Val> {
        let pos = &e.pos;
        match &e.kind {
            ExprKind::IntLit(v) => Ok(Val::Int(self.tr.sem().lit(v, &e.ty))),
            ExprKind::FloatLit(v) => Ok(Val::Float(self.tr.sem().float_lit(*v, &e.ty))),
            ExprKind::StrLit(bytes) => Ok(if needed { self.string_literal(bytes) } else { Val::Void }),
            ExprKind::Var(_) | ExprKind::Member(..) | ExprKind::Index(..) | ExprKind::Deref(_) => {
                let place = self.locate(e)?;
                self.load_place(place, pos)
            }
            ExprKind::AddrOf(x) => match self.locate(x)? {
                Place::Mem(m) => Ok(Val::Ptr(m.b, m.o)),
                Place::Bits(_) => Err(CError::syntax(pos, "address of a bit-field")),
                Place::Reg(_) => {
                    // the variable must live in memory: the translation is repeated
                    self.tr.mark_address_taken(x);
                    self.tr.new_marks = true;
                    Ok(Val::Ptr(int(0), int(0)))
                }
            },
            ExprKind::PtrOffset(p, i, size, minus) => {
                let Val::Ptr(b, o) = self.rvalue(p)? else {
                    return Err(CError::syntax(pos, "pointer required"));
                };
                let iv = self.index_value(i)?;
                let d = mul(&[iv, int(*size as i64)]);
                Ok(Val::Ptr(b, if *minus { smt::build::sub(&o, &d) } else { add(&[o, d]) }))
            }
            ExprKind::PtrDiff(p, q, size) => {
                let (Val::Ptr(_, o1), Val::Ptr(_, o2)) = (self.rvalue(p)?, self.rvalue(q)?) else {
                    return Err(CError::syntax(pos, "pointers required"));
                };
                let d = conv::trunc_div(&smt::build::sub(&o1, &o2), &int(*size as i64));
                Ok(Val::Int(conv::convert(&d, &CType::MathInt, &e.ty, self.tr.sem())))
            }
            ExprKind::Cast(x) => self.cast(x, &e.ty, pos, needed),
            ExprKind::Neg(x) => {
                let v = self.eval(x, true)?;
                if let Val::Float(f) = v {
                    return Ok(Val::Float(f.map(|f| smt::fp::app(smt::fp::FpOp::Neg, &[f]))));
                }
                let Some(a) = v.int(self.tr.sem()) else { return Err(CError::syntax(pos, "arithmetic value required")) };
                let r = conv::negate(&a, &e.ty, self.tr.sem());
                self.op_checks(&r, &e.ty, pos);
                Ok(Val::Int(r.value.unwrap_or(a)))
            }
            ExprKind::BitNot(x) => {
                let a = self.int_value(x)?;
                Ok(Val::Int(conv::bit_not(&a, &e.ty, self.tr.dm())))
            }
            ExprKind::Not(x) => {
                let c = self.cond(x)?;
                Ok(Val::Bool(not(&c)))
            }
            ExprKind::Arith(op, a, b) => {
                if !e.ty.is_integer() {
                    let operands = self.float_operands(a, b)?;
                    return Ok(Val::Float(operands.and_then(|(x, y)| crate::float::arith(*op, &x, &y))));
                }
                let x = self.int_value(a)?;
                let y = self.int_value(b)?;
                Ok(Val::Int(self.arith(*op, &x, &y, &e.ty, a.is_boolean(), b.is_boolean(), pos)))
            }
            ExprKind::Cmp(op, a, b) if a.ty.is_pointer() => {
                let (Val::Ptr(b1, o1), Val::Ptr(b2, o2)) = (self.rvalue(a)?, self.rvalue(b)?) else {
                    return Err(CError::syntax(pos, "pointers required"));
                };
                let same = smt::build::and(&[smt::build::eq(&b1, &b2), smt::build::eq(&o1, &o2)]);
                let less = |x: &Term, y: &Term, b1: &Term, b2: &Term| {
                    or(&[smt::build::lt(b1, b2), smt::build::and(&[smt::build::eq(b1, b2), smt::build::lt(x, y)])])
                };
                let exact = match op {
                    conv::CmpOp::Eq => same,
                    conv::CmpOp::Ne => not(&same),
                    conv::CmpOp::Lt => less(&o1, &o2, &b1, &b2),
                    conv::CmpOp::Gt => less(&o2, &o1, &b2, &b1),
                    conv::CmpOp::Le => not(&less(&o2, &o1, &b2, &b1)),
                    conv::CmpOp::Ge => not(&less(&o1, &o2, &b1, &b2)),
                };
                Ok(Val::Bool(self.address_comparison(exact, (&b1, &o1), (&b2, &o2), pos)))
            }
            ExprKind::Cmp(op, a, b) => {
                if !a.ty.is_integer() {
                    return Ok(Val::Bool(match self.float_operands(a, b)? {
                        Some((x, y)) => crate::float::compare(*op, &x, &y),
                        None => {
                            let c = self.nondet_bool(pos, "floating-point comparison");
                            self.mark_bit_precise_exact(&a.ty);
                            c
                        }
                    }));
                }
                let x = self.int_value(a)?;
                let y = self.int_value(b)?;
                Ok(Val::Bool(conv::compare(*op, &x, &y, a.ty.int_kind().is_some_and(|k| k.is_signed()))))
            }
            ExprKind::LogAnd(a, b) | ExprKind::LogOr(a, b) => {
                let is_and = matches!(e.kind, ExprKind::LogAnd(..));
                let c = self.cond(a)?;
                if c.is_true() != is_and && (c.is_true() || c.is_false()) {
                    // short-circuited: `false && ..`, `true || ..`
                    return Ok(Val::Bool(c));
                }
                let (start, edges) = (self.cur, self.b.edge_count());
                let scratch = self.loc(pos);
                self.cur = scratch;
                let d = self.cond(b)?;
                if self.cur == scratch && self.b.edge_count() == edges {
                    self.cur = start;
                    let r = if is_and { smt::build::and(&[c, d]) } else { or(&[c, d]) };
                    return Ok(Val::Bool(r));
                }
                // the right operand has effects: evaluate it under the left one
                let (rhs_end, d) = (self.cur, d);
                let sem = self.tr.sem();
                let t = self.temp(&CType::INT);
                let join = self.loc(pos);
                self.cur = rhs_end;
                self.assign(&t, &sem.bool_to_int(&d), pos);
                self.b.jump(self.cur, join, Some(pos.clone()));
                self.cur = start;
                let (go_rhs, skip) = if is_and { (c.clone(), not(&c)) } else { (not(&c), c.clone()) };
                self.b.edge(start, scratch, ir::Label::Stmt(ir::Stmt::Assume(go_rhs)), Some(pos.clone()), None);
                self.cur = start;
                self.emit(ir::Stmt::Assume(skip), pos, None);
                self.assign(&t, &sem.lit(&(if is_and { 0 } else { 1 }).into(), &CType::INT), pos);
                self.b.jump(self.cur, join, Some(pos.clone()));
                self.cur = join;
                Ok(Val::Bool(truth(&t)))
            }
            ExprKind::Cond(c, a, b) => {
                let phi = self.cond(c)?;
                if phi.is_true() {
                    return self.eval(a, needed);
                }
                if phi.is_false() {
                    return self.eval(b, needed);
                }
                let start = self.cur;
                let edges = self.b.edge_count();
                let la = self.loc(pos);
                self.cur = la;
                let va = self.eval(a, needed)?;
                let (ea, a_pure) = (self.cur, self.cur == la && self.b.edge_count() == edges);
                let edges2 = self.b.edge_count();
                let lb = self.loc(pos);
                self.cur = lb;
                let vb = self.eval(b, needed)?;
                let (eb, b_pure) = (self.cur, self.cur == lb && self.b.edge_count() == edges2);
                let kind = merged_kind(&[&va, &vb], needed);
                let (pa, pb) = (va.flatten(self.tr.sem()), vb.flatten(self.tr.sem()));
                if has_parts(&kind) && pa.len() != pb.len() {
                    return Err(CError::syntax(pos, "branches of `?:` have different types"));
                }
                if a_pure && b_pure {
                    self.cur = start;
                    return Ok(match &kind {
                        Some(k) if has_parts(&kind) => rebuild(k, pa.iter().zip(&pb).map(|(x, y)| ite(&phi, x, y)).collect()),
                        Some(k) => k.clone(),
                        None => Val::Void,
                    });
                }
                let v = self.join(&[(ea, va), (eb, vb)], &kind, pos);
                self.b.edge(start, la, ir::Label::Stmt(ir::Stmt::Assume(phi.clone())), Some(pos.clone()), None);
                self.b.edge(start, lb, ir::Label::Stmt(ir::Stmt::Assume(not(&phi))), Some(pos.clone()), None);
                Ok(v)
            }
            ExprKind::Comma(a, b) => {
                self.effect(a)?;
                self.eval(b, needed)
            }
            ExprKind::Assign(lv, rhs) => {
                let place = self.locate(lv)?;
                let v = self.eval(rhs, true)?;
                let v = self.as_stored(&place, v, needed);
                let reg = Fx::register_var(&place);
                let v = if needed && reg.is_none() { self.stabilize(v, pos) } else { v };
                self.store_place(place, &v, pos)?;
                Ok(reg.unwrap_or(v))
            }
            ExprKind::CompoundAssign { op, lv, rhs, op_ty, post } => {
                let mut place = self.locate(lv)?;
                if let Place::Reg(loc) = &mut place {
                    self.check_run(loc, pos);
                }
                let vb = self.eval(rhs, true)?;
                let old = self.load_place(place.clone(), pos)?;
                if let Place::Mem(m) = &mut place {
                    m.checked = false;
                }
                let reg = Fx::register_var(&place);
                let sem = self.tr.sem();
                if let Val::Ptr(b, o) = &old {
                    // pointer arithmetic: `p += i`, `p++`, ...
                    let size = match &lv.ty {
                        CType::Pointer(t) if **t == CType::Void => 1,
                        CType::Pointer(t) => {
                            self.tr.layout().size(t).ok_or_else(|| self.unsupported(pos, "pointer arithmetic on an incomplete type"))?
                        }
                        _ => return Err(CError::syntax(pos, "pointer required")),
                    };
                    let i = vb.int(sem).ok_or_else(|| CError::syntax(pos, "integer operand required"))?;
                    let i = conv::convert(&i, &rhs.ty, &CType::MathInt, sem);
                    let d = mul(&[i, int(size as i64)]);
                    let minus = *op == ArithOp::Sub;
                    let new_o = if minus { smt::build::sub(o, &d) } else { add(&[o.clone(), d.clone()]) };
                    let keep_old = if *post && needed && reg.is_none() { Some(self.stabilize(old.clone(), pos)) } else { None };
                    let new = Val::Ptr(b.clone(), new_o);
                    let new = if needed && reg.is_none() && !*post { self.stabilize(new, pos) } else { new };
                    self.store_place(place, &new, pos)?;
                    return Ok(match (post, keep_old, reg) {
                        (true, Some(k), _) => k,
                        (true, None, Some(Val::Ptr(rb, ro))) => {
                            // the old offset, recomputed from the new one
                            Val::Ptr(rb, if minus { add(&[ro, d]) } else { smt::build::sub(&ro, &d) })
                        }
                        (false, _, Some(r)) => r,
                        _ => new,
                    });
                }
                if !op_ty.is_integer() {
                    // computed in floating point, converted back to the object's type
                    let keep_old = match (&old, *post && needed) {
                        (Val::Float(Some(x)) | Val::Int(x), true) => {
                            let t = self.temp_of(x.sort.clone());
                            self.assign(&t, x, pos);
                            Some(if matches!(old, Val::Int(_)) { Val::Int(t) } else { Val::Float(Some(t)) })
                        }
                        _ => None,
                    };
                    let a = self.convert_float(old, &lv.ty, op_ty, pos);
                    let result = match (a, vb) {
                        (Val::Float(Some(a)), Val::Float(Some(b))) => crate::float::arith(*op, &a, &b),
                        _ => None,
                    };
                    let new = self.convert_float(Val::Float(result), op_ty, &lv.ty, pos);
                    let new = self.modelled(new, &lv.ty, pos);
                    let new = if needed && reg.is_none() { self.stabilize(new, pos) } else { new };
                    self.store_place(place, &new, pos)?;
                    return Ok(keep_old.or(reg).unwrap_or(new));
                }
                let Some(x) = old.int(sem) else {
                    return Err(CError::syntax(pos, "arithmetic value required"));
                };
                let scalar = match &reg {
                    Some(Val::Int(t)) => Some(t.clone()),
                    _ => None,
                };
                // the old value of `v++`/`v--` on a variable whose type is the operation type is
                // recomputed from the new one; otherwise it is kept in a temporary
                let invertible =
                    *post && scalar.is_some() && lv.ty == *op_ty && matches!(op, ArithOp::Add | ArithOp::Sub) && rhs_is_one(rhs);
                let keep_old = if *post && needed && !invertible {
                    let t = self.temp_of(x.sort.clone());
                    self.assign(&t, &x, pos);
                    Some(t)
                } else {
                    None
                };
                let result = if op_ty.is_integer() {
                    let a = conv::convert(&x, &lv.ty, op_ty, sem);
                    let b = vb.int(sem).ok_or_else(|| CError::syntax(pos, "integer operand required"))?;
                    let r = self.arith(*op, &a, &b, op_ty, lv.is_boolean(), rhs.is_boolean(), pos);
                    conv::convert(&r, op_ty, &lv.ty, sem)
                } else {
                    // computed in floating point: the integer result is unknown
                    self.nondet(&lv.ty, pos, Some("floating-point arithmetic".into()))
                };
                let result = match self.as_stored(&place, Val::Int(result.clone()), needed) {
                    Val::Int(r) => r,
                    _ => result,
                };
                let result = match (&scalar, needed && keep_old.is_none()) {
                    (None, true) => {
                        let t = self.temp_of(result.sort.clone());
                        self.assign(&t, &result, pos);
                        t
                    }
                    _ => result,
                };
                self.store_place(place, &Val::Int(result.clone()), pos)?;
                if let (true, true, Some(v)) = (invertible, needed, &scalar) {
                    let dm = sem.dm;
                    let one = smt::build::int(1);
                    let old = match (op_ty.int_kind(), op) {
                        // bit-vector arithmetic wraps, so the inverse is exact
                        _ if sem.bitvector => {
                            let inverse = if *op == ArithOp::Add { smt::bv::BvOp::Sub } else { smt::bv::BvOp::Add };
                            smt::bv::bin(inverse, v, &smt::bv::lit(&1.into(), smt::bv::width(v)))
                        }
                        (Some(k), ArithOp::Add) if !k.is_signed() => {
                            ite(&smt::build::eq(v, &smt::build::int(0)), &smt::build::int_big(k.range(dm).1), &smt::build::sub(v, &one))
                        }
                        (Some(k), _) if !k.is_signed() => {
                            ite(&smt::build::eq(v, &smt::build::int_big(k.range(dm).1)), &smt::build::int(0), &add(&[v.clone(), one]))
                        }
                        (_, ArithOp::Add) => smt::build::sub(v, &one),
                        _ => add(&[v.clone(), one]),
                    };
                    return Ok(Val::Int(old));
                }
                Ok(Val::Int(keep_old.or(scalar).unwrap_or(result)))
            }
            ExprKind::Call(Callee::Named(name), args) => self.call(name, args, &e.ty, pos, needed),
            ExprKind::Call(Callee::Pointer(p), args) => self.call_through(p, args, &e.ty, pos, needed),
            ExprKind::StmtExpr(s) => self.stmt_expr(s, needed),
            ExprKind::Unsupported(what) => Err(self.unsupported(pos, what.clone())),
            ExprKind::Function(f) => self.function_pointer(f, pos),
        }
    }

    /// Whether evaluating `e` may emit edges (side effects, calls, checks, over-approximations);
    /// `false` only when it certainly translates to a term.
    pub fn may_emit(&self, e: &Expr) -> bool {
        let overflow = self.checks(Property::NoOverflow);
        let signed = |t: &CType| t.int_kind().is_some_and(|k| k.is_signed());
        match &e.kind {
            ExprKind::IntLit(_) | ExprKind::FloatLit(_) => false,
            ExprKind::Var(v) => !matches!(self.tr.vars[*v].shape, Shape::Int(..)),
            ExprKind::Member(..) | ExprKind::Index(..) | ExprKind::Deref(_) | ExprKind::AddrOf(_) => true,
            ExprKind::PtrOffset(p, i, ..) => self.may_emit(p) || self.may_emit(i),
            ExprKind::PtrDiff(p, q, _) => self.may_emit(p) || self.may_emit(q),
            ExprKind::StrLit(_) | ExprKind::Unsupported(_) | ExprKind::Function(_) => true,
            ExprKind::Cast(x) => {
                !((x.ty.is_integer() || x.ty.is_pointer()) && (e.ty.is_integer() || e.ty.is_pointer())) || self.may_emit(x)
            }
            ExprKind::Neg(x) => (overflow && signed(&e.ty)) || self.may_emit(x),
            ExprKind::BitNot(x) | ExprKind::Not(x) => self.may_emit(x),
            ExprKind::Arith(op, a, b) => {
                matches!(op, ArithOp::Div | ArithOp::Rem | ArithOp::Shl | ArithOp::Shr | ArithOp::And | ArithOp::Or | ArithOp::Xor)
                    || !e.ty.is_integer()
                    || (overflow && signed(&e.ty))
                    || self.may_emit(a)
                    || self.may_emit(b)
            }
            ExprKind::Cmp(_, a, b) => {
                !(a.ty.is_integer() || a.ty.is_pointer())
                    || (a.ty.is_pointer() && self.tr.integer_pointers)
                    || self.may_emit(a)
                    || self.may_emit(b)
            }
            ExprKind::LogAnd(a, b) | ExprKind::LogOr(a, b) | ExprKind::Comma(a, b) => self.may_emit(a) || self.may_emit(b),
            ExprKind::Cond(c, a, b) => self.may_emit(c) || self.may_emit(a) || self.may_emit(b),
            ExprKind::Assign(..) | ExprKind::CompoundAssign { .. } | ExprKind::Call(..) | ExprKind::StmtExpr(_) => true,
        }
    }

    /// A value of arithmetic type `from` converted to arithmetic type `to`, one of them
    /// floating. Out of range of an integer type, the conversion is undefined: no behaviour
    /// is modelled.
    fn convert_float(&mut self, v: Val, from: &CType, to: &CType, pos: &SourcePos) -> Val {
        let sem = self.tr.sem();
        if let CType::Float(_) = to {
            let Some(smt::Sort::Float(e, s)) = sem.float_sort(to) else { return Val::Float(None) };
            return Val::Float(match v {
                Val::Float(x) => x.map(|x| crate::float::to_float(&x, (e, s))),
                v => v.int(sem).map(|i| crate::float::from_int(&i, from, (e, s))),
            });
        }
        match v {
            Val::Float(Some(x)) => {
                let (value, defined) = crate::float::to_int(&x, to, sem);
                self.assume(&defined, pos);
                Val::Int(value)
            }
            Val::Float(None) => {
                let v = self.nondet(to, pos, Some("conversion of a floating-point value to an integer".into()));
                self.mark_bit_precise_exact(from);
                Val::Int(v)
            }
            v => v,
        }
    }

    /// A conversion of `x` to `ty`.
    fn cast(&mut self, x: &Expr, ty: &CType, pos: &SourcePos, needed: bool) -> Result<Val> {
        if *ty == CType::Void {
            self.eval(x, false)?;
            return Ok(Val::Void);
        }
        let from = &x.ty;
        if from.is_integer() && ty.is_integer() {
            let v = self.int_value(x)?;
            return Ok(Val::Int(conv::convert(&v, from, ty, self.tr.sem())));
        }
        if (from.is_arith() && matches!(ty, CType::Float(_))) || (matches!(from, CType::Float(_)) && ty.is_integer()) {
            let v = self.eval(x, true)?;
            return Ok(self.convert_float(v, from, ty, pos));
        }
        if let ExprKind::Unsupported(what) = &x.kind {
            return Err(self.unsupported(&x.pos, what.clone()));
        }
        if from.is_pointer() && ty.is_pointer() {
            if let Some(why) = punning(from, ty, x) {
                if !self.reinterprets(from, ty) && !self.views_bytes(from, ty) {
                    if !objects(from, ty) {
                        return Err(self.unsupported(pos, why));
                    }
                    // one object read as another type: memory holds bytes
                    self.use_bytes();
                }
            }
            return self.eval(x, needed);
        }
        if from.is_integer() && ty.is_pointer() {
            let v = self.int_value(x)?;
            return Ok(self.integer_to_pointer(&v, from));
        }
        if from.is_pointer() && *ty == CType::Int(crate::types::IntKind::Bool) {
            let c = self.cond(x)?;
            let sem = self.tr.sem();
            return Ok(Val::Int(conv::convert(&sem.bool_to_int(&c), &CType::INT, ty, sem)));
        }
        if from.is_pointer() && ty.is_integer() {
            let Val::Ptr(b, o) = self.rvalue(x)? else { return Err(CError::syntax(pos, "conversion of a non-pointer")) };
            return Ok(self.pointer_to_integer(&b, &o, ty, pos));
        }
        Err(self.unsupported(pos, format!("conversion from {} to {}", type_name(from), type_name(ty))))
    }

    /// A binary operator on integer terms in type `ty`, with the checks it needs.
    #[allow(clippy::too_many_arguments)]
    pub fn arith(&mut self, op: ArithOp, a: &Term, b: &Term, ty: &CType, a_bool: bool, b_bool: bool, pos: &SourcePos) -> Term {
        let dm = self.tr.dm();
        let r = conv::arith(op, a, b, ty, self.tr.sem(), a_bool, b_bool);
        self.op_checks(&r, ty, pos);
        match r.value {
            Some(v) => v,
            None => {
                let reason = format!("bitwise or shift operator `{}` over-approximated", op.symbol());
                let (a, b, ty) = (a.clone(), b.clone(), ty.clone());
                let exact = conv::exact_bitwise(op, &a, &b, &ty, dm);
                let r = self.approx(&ty.clone(), pos, reason, |t| conv::approx_constraint(op, &a, &b, t, &ty, dm), exact);
                self.mark_bit_precise_exact(&ty);
                r
            }
        }
    }

    /// Emits the division-by-zero and overflow checks of an operator result.
    fn op_checks(&mut self, r: &conv::OpResult, ty: &CType, pos: &SourcePos) {
        if *ty == CType::MathInt {
            return;
        }
        if self.checks(Property::DivByZero) {
            self.check(&r.nonzero, ViolationKind::DivByZero, pos);
        } else {
            self.assume(&r.nonzero, pos);
        }
        if self.checks(Property::NoOverflow) {
            self.check(&r.no_overflow, ViolationKind::Overflow, pos);
        }
        // a shift by an amount out of range is undefined: no behaviour is modelled
        self.assume(&r.amount_ok, pos);
    }
}

/// Why a pointer conversion would make memory be accessed with a type other than the one it
/// was written with (the memory model is typed), if it would.
/// The value of a join of branches that computed `vals`: integers, pointers, structs and
/// modelled floats by their parts (`None`: no value needed).
pub(crate) fn merged_kind(vals: &[&Val], needed: bool) -> Option<Val> {
    match vals.first() {
        None | Some(Val::Void) => None,
        _ if !needed => None,
        Some(Val::Float(_)) if !vals.iter().all(|v| matches!(v, Val::Float(Some(_)))) => Some(Val::Float(None)),
        Some(v) => Some((*v).clone()),
    }
}

/// Whether a value of this kind is passed by its parts.
pub(crate) fn has_parts(kind: &Option<Val>) -> bool {
    matches!(kind, Some(Val::Int(_) | Val::Bool(_) | Val::Ptr(..) | Val::Agg(_) | Val::Float(Some(_))))
}

/// A value like `like` made of `parts`.
fn rebuild(like: &Val, parts: Vec<Term>) -> Val {
    match like {
        Val::Int(_) | Val::Bool(_) => Val::Int(parts[0].clone()),
        Val::Float(_) => Val::Float(Some(parts[0].clone())),
        Val::Ptr(..) => Val::Ptr(parts[0].clone(), parts[1].clone()),
        Val::Agg(_) => Val::Agg(parts),
        v => v.clone(),
    }
}

impl Fx<'_> {
    /// Joins branches that end at the given locations with the given values (of `kind`, of
    /// the same number of parts) at a new location, which becomes current.
    pub(crate) fn join(&mut self, ends: &[(usize, Val)], kind: &Option<Val>, pos: &SourcePos) -> Val {
        let join = self.loc(pos);
        let parts: Vec<Vec<Term>> = ends.iter().map(|(_, v)| v.flatten(self.tr.sem())).collect();
        let temps: Vec<Term> = match parts.first() {
            Some(first) if has_parts(kind) => first.iter().map(|x| self.temp_of(x.sort.clone())).collect(),
            _ => vec![],
        };
        for ((end, _), parts) in ends.iter().zip(&parts) {
            self.cur = *end;
            if !temps.is_empty() {
                let pairs: Vec<(Term, Term)> = temps.iter().cloned().zip(parts.iter().cloned()).collect();
                self.emit(ir::Stmt::Assign(pairs), pos, None);
            }
            self.b.jump(self.cur, join, Some(pos.clone()));
        }
        self.cur = join;
        match kind {
            Some(k) if has_parts(kind) => rebuild(k, temps),
            Some(k) => k.clone(),
            None => Val::Void,
        }
    }
}

fn punning(from: &CType, to: &CType, operand: &Expr) -> Option<String> {
    let (CType::Pointer(a), CType::Pointer(b)) = (from, to) else { return None };
    fn elem(t: &CType) -> &CType {
        match t {
            CType::Array(e, _) => elem(e),
            t => t,
        }
    }
    let (a, b) = (elem(a), elem(b));
    let is_char = |t: &CType| matches!(t, CType::Int(IntKind::Char | IntKind::SChar | IntKind::UChar));
    match (a, b) {
        _ if a == b => None,
        // a call through a pointer dispatches over the functions of the pointer's type
        (CType::Func(_), CType::Func(_)) => None,
        // memory holds every pointer the same way, whatever it points to
        (CType::Pointer(_), CType::Pointer(_)) => None,
        (CType::Void, _) if !is_char(b) => None,
        (CType::Void, _) => {
            // character access to fresh memory is fine; to other objects it reads their bytes
            let mut x = operand;
            while let ExprKind::Cast(inner) = &x.kind {
                x = inner;
            }
            let fresh = matches!(&x.kind, ExprKind::Call(Callee::Named(n), _) if matches!(n.as_str(), "malloc" | "calloc" | "alloca" | "__builtin_alloca"));
            (!fresh).then(|| "conversion of `void *` to a character pointer (byte access to memory)".to_string())
        }
        (_, CType::Void) => None,
        _ => Some(format!("conversion between pointers to {} and {} (type punning)", type_name(a), type_name(b))),
    }
}

/// Whether both pointer types point to objects (not functions).
fn objects(from: &CType, to: &CType) -> bool {
    let object = |t: &CType| matches!(t, CType::Pointer(x) if !matches!(**x, CType::Func(_)));
    object(from) && object(to)
}

impl Fx<'_> {
    /// Whether a conversion between the pointer types `from` and `to` reads objects as
    /// integers of another type of the same size (`char` as `unsigned char`, `int` as
    /// `unsigned`): memory keeps values as integers, and such a program reads them modulo
    /// the size of the type read, never assuming a cell is in its range.
    fn reinterprets(&mut self, from: &CType, to: &CType) -> bool {
        let (CType::Pointer(a), CType::Pointer(b)) = (from, to) else { return false };
        let integer = |t: &CType| t.is_integer() && !matches!(t, CType::Int(IntKind::Bool));
        let layout = self.tr.layout();
        if !(integer(a) && integer(b) && layout.size(a) == layout.size(b)) {
            return false;
        }
        self.reinterpret();
        true
    }

    /// Makes every load of an integer read its cell modulo the size of the type read.
    fn reinterpret(&mut self) {
        if !self.tr.reinterpreting {
            // loads translate differently from now on: start over
            self.tr.reinterpreting = true;
            self.tr.new_marks = true;
        }
    }
}

impl Fx<'_> {
    /// Whether a conversion between the pointer types `from` and `to` views an object through
    /// `void *` as characters. That is exact when memory holds only characters: the
    /// translation fails at the end if the program also accesses memory in larger units
    /// (`Tr::byte_views`).
    fn views_bytes(&mut self, from: &CType, to: &CType) -> bool {
        let (CType::Pointer(a), CType::Pointer(b)) = (from, to) else { return false };
        let byte = matches!(**b, CType::Int(IntKind::Char | IntKind::SChar | IntKind::UChar));
        if **a != CType::Void || !byte {
            return false;
        }
        self.tr.byte_views = true;
        if self.tr.wide_units {
            self.use_bytes();
        }
        // the characters may have been stored as another character type
        self.reinterpret();
        true
    }
}

/// Whether an expression is the constant 1 (the operand of `++`/`--`).
fn rhs_is_one(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::IntLit(v) if *v == num_bigint::BigInt::from(1))
}

/// A readable name of a type for messages.
pub(crate) fn type_name(t: &CType) -> String {
    match t {
        CType::Void => "void".into(),
        CType::Int(k) => k.name().into(),
        CType::MathInt => "integer".into(),
        CType::Float(_) => "floating type".into(),
        CType::Pointer(t) => format!("pointer to {}", type_name(t)),
        CType::Array(t, _) => format!("array of {}", type_name(t)),
        CType::Record(_) => "struct/union".into(),
        CType::Func(_) => "function".into(),
    }
}
