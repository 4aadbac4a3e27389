//! Typing of expressions: `lang-c` expressions become typed expressions (`tast`) with every
//! implicit conversion explicit. Constructs the translation cannot handle yet are typed where
//! possible (so `sizeof` works on them) and become `Unsupported` nodes.

use crate::conv::{ArithOp, CmpOp};
use crate::error::Result;
use crate::tast::{Callee, Expr, ExprKind, VarId};
use crate::translate::{Ordinary, Tr};
use crate::types::{promote, usual_arith, CType, FloatKind, FuncType, IntKind};
use ir::SourcePos;
use lang_c::ast;
use lang_c::span::{Node, Span};
use num_bigint::BigInt;
use num_traits::{Num, Zero};
use std::rc::Rc;

fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}

impl Tr {
    /// Types an expression.
    pub fn expr(&mut self, e: &Node<ast::Expression>) -> Result<Expr> {
        let pos = self.pos(e.span);
        use ast::Expression as E;
        match &e.node {
            E::Identifier(id) => self.identifier(&id.node.name, id.span, pos),
            E::Constant(c) => self.constant(&c.node, c.span, pos),
            E::StringLiteral(s) => {
                let bytes = self.string_literal(&s.node, s.span)?;
                let n = bytes.len() as u64 + 1;
                Ok(Expr::new(ExprKind::StrLit(bytes), CType::Array(Rc::new(CType::Int(IntKind::Char)), Some(n)), pos))
            }
            E::Member(m) => {
                let base = self.expr(&m.node.expression)?;
                let name = &m.node.identifier.node.name;
                let file_pos = self.pos(m.node.identifier.span);
                let no_member = || crate::error::CError::syntax(&file_pos, format!("no member named `{name}`"));
                match m.node.operator.node {
                    ast::MemberOperator::Direct => {
                        let CType::Record(r) = base.ty else { return Err(no_member()) };
                        let path = self.field_path(r, name).ok_or_else(no_member)?;
                        let mut e = base;
                        for (k, t) in path {
                            e = Expr::new(ExprKind::Member(bx(e), k), t, pos.clone());
                        }
                        Ok(e)
                    }
                    ast::MemberOperator::Indirect => {
                        let base = self.decay(base);
                        let CType::Pointer(t) = &base.ty else { return Err(no_member()) };
                        let CType::Record(r) = **t else { return Err(no_member()) };
                        let path = self.field_path(r, name).ok_or_else(no_member)?;
                        let ty = (**t).clone();
                        let mut e = Expr::new(ExprKind::Deref(bx(base)), ty, pos.clone());
                        for (k, t) in path {
                            e = Expr::new(ExprKind::Member(bx(e), k), t, pos.clone());
                        }
                        Ok(e)
                    }
                }
            }
            E::Call(c) => self.call(&c.node, e.span, pos),
            E::CompoundLiteral(c) => {
                let ty = self.type_name(&c.node.type_name)?;
                if matches!(ty, CType::Array(..)) {
                    // (an array literal decays to a pointer: its object must outlive the expression)
                    return Ok(Expr::new(ExprKind::Unsupported("compound literal of array type".into()), ty, pos));
                }
                // `(T){...}` as a value: `({ T literal = {...}; literal; })`
                let block = compound_literal_block(&c.node, e.span);
                Ok(Expr::new(ExprKind::StmtExpr(Box::new(block)), ty, pos))
            }
            E::SizeOfTy(s) => {
                let ty = self.type_name(&s.node.0)?;
                self.size_lit(&ty, e.span, pos, "sizeof")
            }
            E::SizeOfVal(s) => {
                let te = self.expr(&s.node.0)?;
                self.size_lit(&te.ty, e.span, pos, "sizeof")
            }
            E::AlignOf(a) => {
                let ty = self.type_name(&a.node.0)?;
                let al = self.layout().align(&ty).ok_or_else(|| self.unsupported(e.span, "_Alignof of this type"))?;
                Ok(Tr::int_lit(BigInt::from(al), self.size_t(), pos))
            }
            E::UnaryOperator(u) => self.unary(&u.node.operator.node, &u.node.operand, e.span, pos),
            E::Cast(c) => {
                let ty = self.type_name(&c.node.type_name)?;
                let x = self.expr(&c.node.expression)?;
                let x = self.decay(x);
                Ok(self.cast(x, &ty, pos))
            }
            E::BinaryOperator(b) => self.binary(&b.node.operator.node, &b.node.lhs, &b.node.rhs, e.span, pos),
            E::Conditional(c) => {
                let cond = self.expr(&c.node.condition)?;
                let cond = self.scalar(cond, c.node.condition.span)?;
                let a = self.expr(&c.node.then_expression)?;
                let a = self.decay(a);
                let b = self.expr(&c.node.else_expression)?;
                let b = self.decay(b);
                let ty = if a.ty.is_arith() && b.ty.is_arith() {
                    self.common(&a.ty, &b.ty)
                } else if a.ty == b.ty {
                    a.ty.clone()
                } else if a.ty == CType::Void || b.ty == CType::Void {
                    CType::Void
                } else if a.ty.is_pointer() {
                    a.ty.clone()
                } else {
                    b.ty.clone()
                };
                let (a, b) = (self.cast(a, &ty, pos.clone()), self.cast(b, &ty, pos.clone()));
                Ok(Expr::new(ExprKind::Cond(bx(cond), bx(a), bx(b)), ty, pos))
            }
            E::Comma(es) => {
                let mut acc: Option<Expr> = None;
                for x in es.iter() {
                    let t = self.expr(x)?;
                    let t = self.decay(t);
                    acc = Some(match acc {
                        None => t,
                        Some(prev) => {
                            let ty = t.ty.clone();
                            Expr::new(ExprKind::Comma(bx(prev), bx(t)), ty, pos.clone())
                        }
                    });
                }
                acc.ok_or_else(|| self.error(e.span, "empty comma expression"))
            }
            E::GenericSelection(_) => Err(self.unsupported(e.span, "_Generic")),
            E::OffsetOf(o) => self.offset_of(&o.node, e.span, pos),
            E::VaArg(v) => {
                let ty = self.type_name(&v.node.type_name)?;
                let ap = self.expr(&v.node.va_list)?;
                Ok(Expr::new(ExprKind::Call(Callee::Named(crate::varargs::VA_ARG.into()), vec![ap]), ty, pos))
            }
            E::Statement(st) => {
                let ast::Statement::Compound(items) = &st.node else {
                    return Err(self.unsupported(e.span, "statement expression without a block"));
                };
                // the type is that of the last expression statement, typed in the block's scope
                self.scopes.push(Default::default());
                let r = self.stmt_expr_type(items);
                self.scopes.pop();
                Ok(Expr::new(ExprKind::StmtExpr(Box::new((**st).clone())), r?, pos))
            }
        }
    }

    /// The type of a statement expression's block (declarations are entered for typing only).
    fn stmt_expr_type(&mut self, items: &[Node<ast::BlockItem>]) -> Result<CType> {
        let Some((last, init)) = items.split_last() else { return Ok(CType::Void) };
        for i in init {
            if let ast::BlockItem::Declaration(d) = &i.node {
                let spec = self.decl_spec(&d.node.specifiers, d.span)?;
                for id in &d.node.declarators {
                    let (name, ty) = self.derive(spec.ty.clone(), &id.node.declarator)?;
                    let Some(name) = name else { continue };
                    if spec.typedef {
                        self.declare(&name, Ordinary::Typedef(ty));
                    } else if let CType::Func(f) = &ty {
                        self.declare_function(&name, f.clone());
                    } else {
                        let shape = crate::shape::Shape::Unsupported("typing only".into());
                        let decl_key = Some(id.node.declarator.span.start);
                        self.vars.push(crate::translate::VarInfo {
                            c_name: name.clone(),
                            ir_name: name.clone(),
                            ty,
                            shape,
                            is_static: false,
                            decl_key,
                        });
                        let v = self.vars.len() - 1;
                        self.declare(&name, Ordinary::Var(v));
                    }
                }
            }
        }
        match &last.node {
            ast::BlockItem::Statement(s) => match &s.node {
                ast::Statement::Expression(Some(e)) => {
                    let t = self.expr(e)?;
                    Ok(self.decay(t).ty)
                }
                _ => Ok(CType::Void),
            },
            _ => Ok(CType::Void),
        }
    }

    /// The type `size_t`.
    pub fn size_t(&self) -> CType {
        CType::Int(IntKind::ULong)
    }

    fn size_lit(&self, ty: &CType, span: Span, pos: SourcePos, what: &str) -> Result<Expr> {
        let n = self.layout().size(ty).ok_or_else(|| self.unsupported(span, format!("{what} of {}", self.unknown_size(ty))))?;
        Ok(Tr::int_lit(BigInt::from(n), self.size_t(), pos))
    }

    /// `offsetof(T, m.n[i]...)` (C11 7.19): the sum of the members' offsets and of the
    /// indices scaled by their element sizes, a constant unless an index is not.
    fn offset_of(&mut self, o: &ast::OffsetOfExpression, span: Span, pos: SourcePos) -> Result<Expr> {
        let size_t = self.size_t();
        let d = &o.designator.node;
        let record = self.type_name(&o.type_name)?;
        let (mut offset, mut ty) = self.member_offset(record, &d.base)?;
        let mut scaled_indices = Vec::new();
        for m in &d.members {
            match &m.node {
                ast::OffsetMember::Member(id) => {
                    let (at, t) = self.member_offset(ty, id)?;
                    offset += at;
                    ty = t;
                }
                ast::OffsetMember::IndirectMember(id) => return Err(self.unsupported(id.span, "`->` in offsetof")),
                ast::OffsetMember::Index(ix) => {
                    let CType::Array(elem, _) = ty else { return Err(self.error(ix.span, "subscript of a non-array in offsetof")) };
                    let size = self
                        .layout()
                        .size(&elem)
                        .ok_or_else(|| self.unsupported(span, format!("offsetof through {}", self.unknown_size(&elem))))?;
                    let i = self.expr(ix)?;
                    let i = self.decay(i);
                    let i = self.cast(i, &size_t, pos.clone());
                    match self.const_int(&i).and_then(|c| u64::try_from(c * size).ok()) {
                        Some(at) => offset += at,
                        None => scaled_indices.push(Expr::new(
                            ExprKind::Arith(ArithOp::Mul, bx(i), bx(Tr::int_lit(size.into(), size_t.clone(), pos.clone()))),
                            size_t.clone(),
                            pos.clone(),
                        )),
                    }
                    ty = (*elem).clone();
                }
            }
        }
        let constant = Tr::int_lit(offset.into(), size_t.clone(), pos.clone());
        Ok(scaled_indices
            .into_iter()
            .fold(constant, |e, i| Expr::new(ExprKind::Arith(ArithOp::Add, bx(e), bx(i)), size_t.clone(), pos.clone())))
    }

    /// The offset and type of member `id` of the record type `ty` (through anonymous members).
    fn member_offset(&self, ty: CType, id: &Node<ast::Identifier>) -> Result<(u64, CType)> {
        let name = &id.node.name;
        let CType::Record(mut r) = ty else { return Err(self.error(id.span, format!("offsetof of member `{name}` of a non-record"))) };
        let path = self.field_path(r, name).ok_or_else(|| self.error(id.span, format!("no member named `{name}`")))?;
        let (mut offset, mut ty) = (0, ty);
        for (k, t) in path {
            let what = || format!("offsetof of a bit-field or of a member of {}", self.unknown_size(&CType::Record(r)));
            offset += self.layout().field_offset(r, k).ok_or_else(|| self.unsupported(id.span, what()))?;
            if let CType::Record(inner) = t {
                r = inner;
            }
            ty = t;
        }
        Ok((offset, ty))
    }

    /// The members to go through to reach the member `name` of the record `r` (more than one
    /// through anonymous members), with their types as expressions (see [`bit_field_type`]).
    fn field_path(&self, r: usize, name: &str) -> Option<Vec<(usize, CType)>> {
        let fields = self.records.get(r)?.fields.as_ref()?;
        for (k, f) in fields.iter().enumerate() {
            match (&f.name, &f.ty) {
                (Some(n), t) if n == name => return Some(vec![(k, f.bit_width.map_or_else(|| t.clone(), |w| bit_field_type(t, w)))]),
                (None, CType::Record(inner)) => {
                    if let Some(mut rest) = self.field_path(*inner, name) {
                        rest.insert(0, (k, f.ty.clone()));
                        return Some(rest);
                    }
                }
                _ => {}
            }
        }
        None
    }

    fn identifier(&mut self, name: &str, span: Span, pos: SourcePos) -> Result<Expr> {
        match self.lookup(name) {
            Some(Ordinary::Var(v)) => {
                let ty = self.vars[*v].ty.clone();
                Ok(Expr::new(ExprKind::Var(*v), ty, pos))
            }
            Some(Ordinary::Const(c)) => Ok(Tr::int_lit(c.clone(), CType::INT, pos)),
            Some(Ordinary::Func(f)) => {
                let ty = self.funcs.get(f).map(|fi| CType::Func(fi.ty.clone())).unwrap_or(CType::Void);
                Ok(Expr::new(ExprKind::Function(name.to_string()), ty, pos))
            }
            Some(Ordinary::Typedef(_)) => Err(self.error(span, format!("unexpected type name `{name}`"))),
            None => match name {
                "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__" => {
                    Ok(Expr::new(ExprKind::StrLit(vec![]), CType::Array(Rc::new(CType::Int(IntKind::Char)), Some(1)), pos))
                }
                crate::acsl::ACSL_RESULT => match &self.acsl_result {
                    Some(ty) => Ok(Expr::new(ExprKind::Call(Callee::Named(name.to_string()), vec![]), ty.clone(), pos)),
                    None => Err(self.unsupported(span, "ACSL `\\result` of a void function")),
                },
                // e.g. a global declared after the function whose contract names it
                _ if self.acsl => Err(self.unsupported(span, format!("ACSL annotation naming `{name}`, undeclared there"))),
                _ => Err(self.error(span, format!("undeclared identifier `{name}`"))),
            },
        }
    }

    fn constant(&mut self, c: &ast::Constant, span: Span, pos: SourcePos) -> Result<Expr> {
        match c {
            ast::Constant::Integer(i) => {
                if i.suffix.imaginary {
                    return Err(self.unsupported(span, "imaginary constant"));
                }
                let radix = match i.base {
                    ast::IntegerBase::Decimal => 10,
                    ast::IntegerBase::Octal => 8,
                    ast::IntegerBase::Hexadecimal => 16,
                    ast::IntegerBase::Binary => 2,
                };
                let digits: String = i.number.chars().filter(|c| *c != '\'').collect();
                let v = if digits.is_empty() {
                    BigInt::zero()
                } else {
                    BigInt::from_str_radix(&digits, radix).map_err(|_| self.error(span, "malformed integer constant"))?
                };
                let dec = radix == 10;
                use IntKind::*;
                let cands: &[IntKind] = match (i.suffix.size, i.suffix.unsigned) {
                    (ast::IntegerSize::Int, false) if dec => &[Int, Long, LongLong],
                    (ast::IntegerSize::Int, false) => &[Int, UInt, Long, ULong, LongLong, ULongLong],
                    (ast::IntegerSize::Int, true) => &[UInt, ULong, ULongLong],
                    (ast::IntegerSize::Long, false) if dec => &[Long, LongLong],
                    (ast::IntegerSize::Long, false) => &[Long, ULong, LongLong, ULongLong],
                    (ast::IntegerSize::Long, true) => &[ULong, ULongLong],
                    (ast::IntegerSize::LongLong, false) if dec => &[LongLong],
                    (ast::IntegerSize::LongLong, false) => &[LongLong, ULongLong],
                    (ast::IntegerSize::LongLong, true) => &[ULongLong],
                };
                let dm = self.dm();
                let k = cands
                    .iter()
                    .find(|k| v <= k.range(dm).1)
                    .ok_or_else(|| self.unsupported(span, "integer constant too large for its type"))?;
                Ok(Tr::int_lit(v, CType::Int(*k), pos))
            }
            ast::Constant::Float(f) => {
                let k = match f.suffix.format {
                    ast::FloatFormat::Float => FloatKind::Float,
                    ast::FloatFormat::Double => FloatKind::Double,
                    _ => FloatKind::LongDouble,
                };
                if f.suffix.imaginary {
                    return Err(self.unsupported(span, "imaginary constant"));
                }
                let value = crate::float::parse_constant(&f.number, f.base == ast::FloatBase::Hexadecimal, k);
                Ok(Expr::new(ExprKind::FloatLit(value), CType::Float(k), pos))
            }
            ast::Constant::Character(s) => {
                let (prefix, body) = match s.find('\'') {
                    Some(q) => (&s[..q], &s[q..]),
                    None => ("", s.as_str()),
                };
                let inner = body.strip_prefix('\'').and_then(|b| b.strip_suffix('\'')).unwrap_or(body);
                let units = unescape(inner, prefix.is_empty()).ok_or_else(|| self.unsupported(span, "character constant"))?;
                let [u] = units.as_slice() else {
                    return Err(self.unsupported(span, "multi-character constant"));
                };
                let (v, ty) = match prefix {
                    "" => {
                        // `char` is signed: the byte is converted to char, then to int
                        let b = (*u & 0xff) as i64;
                        (if b >= 128 { b - 256 } else { b }, CType::INT)
                    }
                    "L" => (*u as i64, CType::INT),
                    "u" => (*u as i64, CType::Int(IntKind::UShort)),
                    "U" => (*u as i64, CType::Int(IntKind::UInt)),
                    _ => return Err(self.unsupported(span, "character constant prefix")),
                };
                Ok(Tr::int_lit(BigInt::from(v), ty, pos))
            }
        }
    }

    fn string_literal(&self, parts: &[String], span: Span) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        for p in parts {
            let q = p.find('"').ok_or_else(|| self.error(span, "malformed string literal"))?;
            let inner = p[q..].strip_prefix('"').and_then(|b| b.strip_suffix('"')).unwrap_or(&p[q..]);
            let units = unescape(inner, q == 0).ok_or_else(|| self.unsupported(span, "string literal escape"))?;
            out.extend(units.iter().map(|u| (*u & 0xff) as u8));
        }
        Ok(out)
    }

    /// The scalar that stands for `*p` when `p` is a promoted pointer (`promote`).
    fn promoted_scalar(&self, p: &Expr) -> Option<VarId> {
        match &p.kind {
            ExprKind::Var(v) => self.promoted.get(v).copied(),
            _ => None,
        }
    }

    /// Marks the variable at the root of an lvalue whose address is taken: it must live in
    /// memory (a translation attempt that assumed otherwise is repeated).
    pub fn mark_address_taken(&mut self, e: &Expr) {
        let mut x = e;
        loop {
            match &x.kind {
                ExprKind::Member(b, _) | ExprKind::Index(b, _) => x = b,
                ExprKind::Var(v) => {
                    let info = &self.vars[*v];
                    if matches!(info.shape, crate::shape::Shape::Mem(_)) {
                        return;
                    }
                    let fresh = match info.decl_key {
                        None => self.mem_globals.insert(*v),
                        Some(k) => self.mem_locals.insert(k),
                    };
                    self.new_marks |= fresh;
                    return;
                }
                _ => return,
            }
        }
    }

    /// The address of an lvalue.
    fn address_of(&mut self, e: Expr, ty: CType, pos: SourcePos) -> Expr {
        if let ExprKind::Deref(p) = e.kind {
            return Expr { ty, ..*p };
        }
        self.mark_address_taken(&e);
        Expr::new(ExprKind::AddrOf(bx(e)), ty, pos)
    }

    /// Array-to-pointer and function-to-pointer conversion of an rvalue's type.
    pub fn decay(&mut self, e: Expr) -> Expr {
        match &e.ty {
            CType::Array(t, _) => {
                let ty = CType::Pointer(t.clone());
                if matches!(e.kind, ExprKind::StrLit(_) | ExprKind::Unsupported(_) | ExprKind::Function(_)) {
                    return Expr { ty, ..e };
                }
                let pos = e.pos.clone();
                self.address_of(e, ty, pos)
            }
            CType::Func(_) => {
                let ty = CType::Pointer(Rc::new(e.ty.clone()));
                Expr { ty, ..e }
            }
            _ => e,
        }
    }

    /// Converts `e` to `ty` (no node if the types agree; literals fold).
    pub fn cast(&self, e: Expr, ty: &CType, pos: SourcePos) -> Expr {
        if e.ty == *ty {
            return e;
        }
        if let (ExprKind::IntLit(v), true, true) = (&e.kind, e.ty.is_integer(), ty.is_integer()) {
            let t = crate::conv::convert(&smt::build::int_big(v.clone()), &e.ty, ty, crate::conv::Sem::integer(self.dm()));
            if let Some(x) = t.as_int() {
                return Tr::int_lit(x.clone(), ty.clone(), pos);
            }
        }
        Expr::new(ExprKind::Cast(bx(e)), ty.clone(), pos)
    }

    /// The conversion as if by assignment to an object of type `ty`.
    pub fn convert_assign(&mut self, e: Expr, ty: &CType, span: Span) -> Result<Expr> {
        let e = self.decay(e);
        if matches!(ty, CType::Record(_) | CType::Array(..)) || matches!(e.ty, CType::Record(_)) {
            if e.ty == *ty {
                return Ok(e);
            }
            let pos = self.pos(span);
            return Ok(Expr::new(ExprKind::Unsupported("assignment of a struct or array".into()), ty.clone(), pos));
        }
        let pos = e.pos.clone();
        Ok(self.cast(e, ty, pos))
    }

    /// Checks that `e` is a scalar (after decay).
    fn scalar(&mut self, e: Expr, span: Span) -> Result<Expr> {
        let e = self.decay(e);
        if e.ty.is_scalar() || matches!(e.kind, ExprKind::Unsupported(_) | ExprKind::Function(_)) {
            Ok(e)
        } else {
            Err(self.error(span, "scalar value required"))
        }
    }

    /// The integer promotion (in ACSL: conversion to `integer`).
    fn promoted(&self, e: Expr) -> Expr {
        let ty = if self.acsl && e.ty.is_integer() { CType::MathInt } else { promote(&e.ty) };
        let pos = e.pos.clone();
        self.cast(e, &ty, pos)
    }

    /// The common type of the usual arithmetic conversions (in ACSL: `integer`).
    fn common(&self, a: &CType, b: &CType) -> CType {
        if self.acsl && a.is_integer() && b.is_integer() {
            return CType::MathInt;
        }
        usual_arith(a, b, self.dm())
    }

    fn unary(&mut self, op: &ast::UnaryOperator, operand: &Node<ast::Expression>, span: Span, pos: SourcePos) -> Result<Expr> {
        use ast::UnaryOperator as U;
        let x = self.expr(operand)?;
        match op {
            U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement => {
                let post = matches!(op, U::PostIncrement | U::PostDecrement);
                let aop = if matches!(op, U::PostIncrement | U::PreIncrement) { ArithOp::Add } else { ArithOp::Sub };
                if x.ty.is_pointer() {
                    let ty = x.ty.clone();
                    let one = Tr::int_lit(BigInt::from(1), CType::Int(IntKind::Long), pos.clone());
                    return Ok(Expr::new(ExprKind::CompoundAssign { op: aop, lv: bx(x), rhs: bx(one), op_ty: ty.clone(), post }, ty, pos));
                }
                if !x.ty.is_arith() {
                    return Err(self.error(span, "increment of a non-arithmetic value"));
                }
                let op_ty = self.common(&x.ty, &CType::INT);
                let one = Tr::int_lit(BigInt::from(1), CType::INT, pos.clone());
                let one = self.cast(one, &op_ty, pos.clone());
                let ty = x.ty.clone();
                Ok(Expr::new(ExprKind::CompoundAssign { op: aop, lv: bx(x), rhs: bx(one), op_ty, post }, ty, pos))
            }
            U::Address => {
                if let CType::Func(_) = x.ty {
                    // `&f` or `&*fp`: the pointer the function designator stands for
                    return Ok(self.decay(x));
                }
                if matches!(x.kind, ExprKind::Unsupported(_) | ExprKind::Function(_)) {
                    let ty = CType::Pointer(Rc::new(x.ty.clone()));
                    return Ok(Expr { ty, ..x });
                }
                let ty = CType::Pointer(Rc::new(x.ty.clone()));
                Ok(self.address_of(x, ty, pos))
            }
            U::Indirection => {
                let x = self.decay(x);
                let ty = match &x.ty {
                    CType::Pointer(t) => (**t).clone(),
                    _ => return Err(self.error(span, "dereference of a non-pointer")),
                };
                if let CType::Func(_) = ty {
                    // `*fp` designates the function `fp` points to: the same value, as a designator
                    return Ok(Expr { ty, ..x });
                }
                if let Some(s) = self.promoted_scalar(&x) {
                    return Ok(Expr::new(ExprKind::Var(s), ty, pos));
                }
                Ok(Expr::new(ExprKind::Deref(bx(x)), ty, pos))
            }
            U::Plus | U::Minus | U::Complement => {
                if !x.ty.is_arith() {
                    return Err(self.error(span, "arithmetic operand required"));
                }
                let x = self.promoted(x);
                let ty = x.ty.clone();
                Ok(match op {
                    U::Plus => x,
                    U::Minus => Expr::new(ExprKind::Neg(bx(x)), ty, pos),
                    _ => {
                        if !ty.is_integer() {
                            return Err(self.error(span, "integer operand required for `~`"));
                        }
                        Expr::new(ExprKind::BitNot(bx(x)), ty, pos)
                    }
                })
            }
            U::Negate => {
                let x = self.scalar(x, span)?;
                Ok(Expr::new(ExprKind::Not(bx(x)), CType::INT, pos))
            }
        }
    }

    fn arith_op(op: &ast::BinaryOperator) -> Option<ArithOp> {
        use ast::BinaryOperator as B;
        Some(match op {
            B::Multiply | B::AssignMultiply => ArithOp::Mul,
            B::Divide | B::AssignDivide => ArithOp::Div,
            B::Modulo | B::AssignModulo => ArithOp::Rem,
            B::Plus | B::AssignPlus => ArithOp::Add,
            B::Minus | B::AssignMinus => ArithOp::Sub,
            B::ShiftLeft | B::AssignShiftLeft => ArithOp::Shl,
            B::ShiftRight | B::AssignShiftRight => ArithOp::Shr,
            B::BitwiseAnd | B::AssignBitwiseAnd => ArithOp::And,
            B::BitwiseXor | B::AssignBitwiseXor => ArithOp::Xor,
            B::BitwiseOr | B::AssignBitwiseOr => ArithOp::Or,
            _ => return None,
        })
    }

    /// Typed arithmetic `a op b` (operands not yet converted).
    fn arith(&mut self, op: ArithOp, a: Expr, b: Expr, span: Span, pos: SourcePos) -> Result<Expr> {
        let (a, b) = (self.decay(a), self.decay(b));
        if a.ty.is_pointer() || b.ty.is_pointer() {
            return self.pointer_arith(op, a, b, span, pos);
        }
        if !a.ty.is_arith() || !b.ty.is_arith() {
            if matches!(a.kind, ExprKind::Unsupported(_) | ExprKind::Function(_))
                || matches!(b.kind, ExprKind::Unsupported(_) | ExprKind::Function(_))
            {
                return Ok(Expr::new(ExprKind::Unsupported(format!("operator `{}` on this operand", op.symbol())), CType::INT, pos));
            }
            return Err(self.error(span, format!("invalid operands to `{}`", op.symbol())));
        }
        let integer_only = matches!(op, ArithOp::Rem | ArithOp::Shl | ArithOp::Shr | ArithOp::And | ArithOp::Or | ArithOp::Xor);
        if integer_only && (!a.ty.is_integer() || !b.ty.is_integer()) {
            return Err(self.error(span, format!("integer operands required for `{}`", op.symbol())));
        }
        if matches!(op, ArithOp::Shl | ArithOp::Shr) {
            let a = self.promoted(a);
            let b = self.promoted(b);
            let ty = a.ty.clone();
            return Ok(Expr::new(ExprKind::Arith(op, bx(a), bx(b)), ty, pos));
        }
        let ty = self.common(&a.ty, &b.ty);
        let (a, b) = (self.cast(a, &ty, pos.clone()), self.cast(b, &ty, pos.clone()));
        Ok(Expr::new(ExprKind::Arith(op, bx(a), bx(b)), ty, pos))
    }

    /// The size of the objects a pointer points to (1 for `void`, as GCC does).
    pub fn pointee_size(&self, ptr: &CType, span: Span) -> Result<u64> {
        let CType::Pointer(t) = ptr else { return Err(self.error(span, "pointer required")) };
        match &**t {
            CType::Void => Ok(1),
            t => self
                .layout()
                .size(t)
                .ok_or_else(|| self.unsupported(span, "pointer arithmetic on a pointer to an incomplete or variable-size type")),
        }
    }

    /// `p + i`, `i + p`, `p - i`, `p - q`.
    fn pointer_arith(&mut self, op: ArithOp, a: Expr, b: Expr, span: Span, pos: SourcePos) -> Result<Expr> {
        match (op, a.ty.is_pointer(), b.ty.is_pointer()) {
            (ArithOp::Add | ArithOp::Sub, true, false) if b.ty.is_integer() => {
                let size = self.pointee_size(&a.ty, span)?;
                let ty = a.ty.clone();
                let b = self.promoted(b);
                Ok(Expr::new(ExprKind::PtrOffset(bx(a), bx(b), size, op == ArithOp::Sub), ty, pos))
            }
            (ArithOp::Add, false, true) if a.ty.is_integer() => {
                let size = self.pointee_size(&b.ty, span)?;
                let ty = b.ty.clone();
                let a = self.promoted(a);
                Ok(Expr::new(ExprKind::PtrOffset(bx(b), bx(a), size, false), ty, pos))
            }
            (ArithOp::Sub, true, true) => {
                let size = self.pointee_size(&a.ty, span)?;
                Ok(Expr::new(ExprKind::PtrDiff(bx(a), bx(b), size), CType::Int(IntKind::Long), pos))
            }
            _ => Err(self.error(span, format!("invalid pointer operands to `{}`", op.symbol()))),
        }
    }

    /// Whether the expression at `span` is written in parentheses (its span includes them).
    fn parenthesized(&self, span: Span) -> bool {
        let text = self.text.get(span.start..span.end).unwrap_or("").trim_end().as_bytes();
        // the opening parenthesis closes at the end
        let mut depth = 0;
        for (k, c) in text.iter().enumerate() {
            match c {
                b'(' => depth += 1,
                b')' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                return k > 0 && k + 1 == text.len();
            }
        }
        false
    }

    fn binary(
        &mut self,
        op: &ast::BinaryOperator,
        lhs: &Node<ast::Expression>,
        rhs: &Node<ast::Expression>,
        span: Span,
        pos: SourcePos,
    ) -> Result<Expr> {
        use ast::BinaryOperator as B;
        let a = self.expr(lhs)?;
        let b = self.expr(rhs)?;
        match op {
            B::Index => {
                let (arr, idx) = if matches!(b.ty, CType::Array(..)) && b.ty != a.ty { (b, a) } else { (a, b) };
                if let CType::Array(elem, _) = &arr.ty {
                    if !idx.ty.is_integer() {
                        return Err(self.error(span, "array subscript is not an integer"));
                    }
                    let elem = (**elem).clone();
                    let idx = self.promoted(idx);
                    return Ok(Expr::new(ExprKind::Index(bx(arr), bx(idx)), elem, pos));
                }
                let (arr, idx) = (self.decay(arr), self.decay(idx));
                let (p, i) = if arr.ty.is_pointer() { (arr, idx) } else { (idx, arr) };
                let CType::Pointer(t) = p.ty.clone() else {
                    return Err(self.error(span, "subscript of a non-array"));
                };
                if !i.ty.is_integer() {
                    return Err(self.error(span, "array subscript is not an integer"));
                }
                let size = self.pointee_size(&p.ty, span)?;
                let i = self.promoted(i);
                if let Some(s) = self.promoted_scalar(&p).filter(|_| self.const_int(&i).is_some_and(|k| k.is_zero())) {
                    return Ok(Expr::new(ExprKind::Var(s), (*t).clone(), pos));
                }
                let pty = p.ty.clone();
                let addr = Expr::new(ExprKind::PtrOffset(bx(p), bx(i), size, false), pty, pos.clone());
                Ok(Expr::new(ExprKind::Deref(bx(addr)), (*t).clone(), pos))
            }
            B::Less | B::Greater | B::LessOrEqual | B::GreaterOrEqual | B::Equals | B::NotEquals => {
                let cop = match op {
                    B::Less => CmpOp::Lt,
                    B::Greater => CmpOp::Gt,
                    B::LessOrEqual => CmpOp::Le,
                    B::GreaterOrEqual => CmpOp::Ge,
                    B::Equals => CmpOp::Eq,
                    _ => CmpOp::Ne,
                };
                let (a, b) = (self.decay(a), self.decay(b));
                let chained = (matches!(a.kind, ExprKind::Cmp(..)) && !self.parenthesized(lhs.span))
                    || (matches!(b.kind, ExprKind::Cmp(..)) && !self.parenthesized(rhs.span));
                if self.acsl && chained {
                    return Err(self.unsupported(span, "chained comparison in ACSL"));
                }
                if a.ty.is_pointer() || b.ty.is_pointer() {
                    // a null pointer constant (or, as GCC allows, any integer) compares as a pointer
                    let ty = if a.ty.is_pointer() { a.ty.clone() } else { b.ty.clone() };
                    let ok = |e: &Expr| e.ty.is_pointer() || e.ty.is_integer();
                    if !ok(&a) || !ok(&b) {
                        return Ok(Expr::new(ExprKind::Unsupported("comparison of a pointer with a non-integer".into()), CType::INT, pos));
                    }
                    let (a, b) = (self.cast(a, &ty, pos.clone()), self.cast(b, &ty, pos.clone()));
                    return Ok(Expr::new(ExprKind::Cmp(cop, bx(a), bx(b)), CType::INT, pos));
                }
                if !a.ty.is_arith() || !b.ty.is_arith() {
                    return Ok(Expr::new(ExprKind::Unsupported("comparison of non-arithmetic values".into()), CType::INT, pos));
                }
                let ty = self.common(&a.ty, &b.ty);
                let (a, b) = (self.cast(a, &ty, pos.clone()), self.cast(b, &ty, pos.clone()));
                Ok(Expr::new(ExprKind::Cmp(cop, bx(a), bx(b)), CType::INT, pos))
            }
            B::LogicalAnd | B::LogicalOr => {
                let a = self.scalar(a, lhs.span)?;
                let b = self.scalar(b, rhs.span)?;
                let k = if *op == B::LogicalAnd { ExprKind::LogAnd(bx(a), bx(b)) } else { ExprKind::LogOr(bx(a), bx(b)) };
                Ok(Expr::new(k, CType::INT, pos))
            }
            B::Assign => {
                let ty = a.ty.clone();
                let b = self.convert_assign(b, &ty, rhs.span)?;
                Ok(Expr::new(ExprKind::Assign(bx(a), bx(b)), ty, pos))
            }
            _ => {
                let aop = Tr::arith_op(op).ok_or_else(|| self.error(span, "unknown operator"))?;
                let is_assign = !matches!(
                    op,
                    B::Multiply
                        | B::Divide
                        | B::Modulo
                        | B::Plus
                        | B::Minus
                        | B::ShiftLeft
                        | B::ShiftRight
                        | B::BitwiseAnd
                        | B::BitwiseXor
                        | B::BitwiseOr
                );
                if !is_assign {
                    return self.arith(aop, a, b, span, pos);
                }
                let ty = a.ty.clone();
                let b = self.decay(b);
                if ty.is_pointer() && matches!(aop, ArithOp::Add | ArithOp::Sub) && b.ty.is_integer() {
                    let _ = self.pointee_size(&ty, span)?;
                    let b = self.promoted(b);
                    return Ok(Expr::new(
                        ExprKind::CompoundAssign { op: aop, lv: bx(a), rhs: bx(b), op_ty: ty.clone(), post: false },
                        ty,
                        pos,
                    ));
                }
                if !ty.is_arith() || !b.ty.is_arith() {
                    if matches!(a.kind, ExprKind::Unsupported(_) | ExprKind::Function(_))
                        || matches!(b.kind, ExprKind::Unsupported(_) | ExprKind::Function(_))
                    {
                        return Ok(Expr::new(ExprKind::Unsupported("compound assignment on this operand".into()), ty, pos));
                    }
                    return Err(self.error(span, "invalid operands to compound assignment"));
                }
                let (op_ty, b) = if matches!(aop, ArithOp::Shl | ArithOp::Shr) {
                    (self.promoted_ty(&ty), self.promoted(b))
                } else {
                    let op_ty = self.common(&ty, &b.ty);
                    let b = self.cast(b, &op_ty, pos.clone());
                    (op_ty, b)
                };
                Ok(Expr::new(ExprKind::CompoundAssign { op: aop, lv: bx(a), rhs: bx(b), op_ty, post: false }, ty, pos))
            }
        }
    }

    fn promoted_ty(&self, t: &CType) -> CType {
        if self.acsl && t.is_integer() {
            CType::MathInt
        } else {
            promote(t)
        }
    }

    fn call(&mut self, c: &ast::CallExpression, span: Span, pos: SourcePos) -> Result<Expr> {
        let name = match &c.callee.node {
            ast::Expression::Identifier(id) => match self.lookup(&id.node.name) {
                Some(Ordinary::Func(f)) => Some(f.clone()),
                None => Some(id.node.name.clone()),
                _ => None,
            },
            _ => None,
        };
        let Some(name) = name else {
            let callee = self.expr(&c.callee)?;
            let callee = self.decay(callee);
            let Some(fty) = callee.ty.pointed_function() else {
                return Err(self.error(span, "called object is not a function or function pointer"));
            };
            let args = self.call_arguments(&fty, &c.arguments, span, "a function pointer")?;
            return Ok(Expr::new(ExprKind::Call(Callee::Pointer(bx(callee)), args), fty.ret.clone(), pos));
        };
        match name.as_str() {
            "__builtin_expect" if c.arguments.len() == 2 => return self.expr(&c.arguments[0]),
            crate::acsl::ACSL_ASSERT
            | crate::acsl::ACSL_LOOP_INVARIANT
            | crate::acsl::ACSL_REQUIRES
            | crate::acsl::ACSL_ENSURES
            | crate::acsl::ACSL_ASSUMES
            | crate::acsl::ACSL_CONTRACT_RESULT => {
                let saved = self.acsl;
                self.acsl = true;
                let r = c.arguments.iter().map(|a| self.expr(a)).collect::<Result<Vec<_>>>();
                self.acsl = saved;
                return Ok(Expr::new(ExprKind::Call(Callee::Named(name), r?), CType::Void, pos));
            }
            _ => {}
        }
        let fty = match self.funcs.get(&name) {
            Some(f) => f.ty.clone(),
            None => {
                // implicit declaration: `int name()`, except for the allocation functions,
                // which get their standard prototypes (as GCC's built-in declarations)
                let void_ptr = CType::Pointer(Rc::new(CType::Void));
                let (ret, params) = match name.as_str() {
                    "malloc" | "alloca" | "__builtin_alloca" | "valloc" => (void_ptr, vec![self.size_t()]),
                    "calloc" => (void_ptr, vec![self.size_t(), self.size_t()]),
                    "free" => (CType::Void, vec![void_ptr]),
                    _ => (CType::INT, vec![]),
                };
                let prototyped = !params.is_empty();
                let ty = Rc::new(FuncType { ret, params, variadic: false, prototyped });
                self.funcs.insert(name.clone(), crate::translate::FuncInfo { ty: ty.clone() });
                ty
            }
        };
        let args = self.call_arguments(&fty, &c.arguments, span, &format!("`{name}`"))?;
        Ok(Expr::new(ExprKind::Call(Callee::Named(name), args), fty.ret.clone(), pos))
    }

    /// The arguments of a call of a function of type `fty` (`callee` names it in errors),
    /// converted as if by assignment to prototyped parameters, else by the default promotions.
    fn call_arguments(&mut self, fty: &FuncType, arguments: &[Node<ast::Expression>], span: Span, callee: &str) -> Result<Vec<Expr>> {
        let mut args = Vec::new();
        for (k, a) in arguments.iter().enumerate() {
            let te = self.expr(a)?;
            let te = self.decay(te);
            let te = match fty.params.get(k) {
                Some(pt) if fty.prototyped => self.convert_assign(te, pt, a.span)?,
                // GCC's type-generic builtins classify the value as it is
                _ if type_generic(callee) => te,
                _ => {
                    // default argument promotions
                    let ty = match &te.ty {
                        CType::Float(FloatKind::Float) => CType::Float(FloatKind::Double),
                        t => promote(t),
                    };
                    let p = te.pos.clone();
                    self.cast(te, &ty, p)
                }
            };
            args.push(te);
        }
        if fty.prototyped && (args.len() < fty.params.len() || (args.len() > fty.params.len() && !fty.variadic)) {
            return Err(self.error(span, format!("wrong number of arguments in call of {callee}")));
        }
        Ok(args)
    }
}

/// The name of the object a compound literal's block declares (not a C identifier).
const COMPOUND_LITERAL: &str = "__tracery_compound_literal";

/// The block `{ T literal = {...}; literal; }` that a compound literal of a type that is no
/// array stands for (all of it at the literal's span).
fn compound_literal_block(c: &ast::CompoundLiteral, span: Span) -> Node<ast::Statement> {
    use ast::{DeclarationSpecifier as D, SpecifierQualifier as S};
    let specifiers = c
        .type_name
        .node
        .specifiers
        .iter()
        .map(|sq| {
            let d = match &sq.node {
                S::TypeSpecifier(t) => D::TypeSpecifier(t.clone()),
                S::TypeQualifier(q) => D::TypeQualifier(q.clone()),
                S::Extension(x) => D::Extension(x.clone()),
            };
            Node::new(d, span)
        })
        .collect();
    let name = || Node::new(ast::Identifier { name: COMPOUND_LITERAL.to_string() }, span);
    let mut declarator = c.type_name.node.declarator.clone().map_or_else(
        || ast::Declarator { kind: Node::new(ast::DeclaratorKind::Abstract, span), derived: vec![], extensions: vec![] },
        |d| d.node,
    );
    declarator.kind = Node::new(ast::DeclaratorKind::Identifier(name()), span);
    let initializer = Some(Node::new(ast::Initializer::List(c.initializer_list.clone()), span));
    let init = ast::InitDeclarator { declarator: Node::new(declarator, span), initializer };
    let declaration = ast::Declaration { specifiers, declarators: vec![Node::new(init, span)] };
    let value = ast::Statement::Expression(Some(Box::new(Node::new(ast::Expression::Identifier(Box::new(name())), span))));
    let items = vec![
        Node::new(ast::BlockItem::Declaration(Node::new(declaration, span)), span),
        Node::new(ast::BlockItem::Statement(Node::new(value, span)), span),
    ];
    Node::new(ast::Statement::Compound(items), span)
}

/// Decodes the escape sequences of a character or string literal body into code units.
fn unescape(s: &str, narrow: bool) -> Option<Vec<u32>> {
    let mut out = Vec::new();
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            if narrow {
                let mut buf = [0u8; 4];
                out.extend(c.encode_utf8(&mut buf).bytes().map(u32::from));
            } else {
                out.push(c as u32);
            }
            continue;
        }
        let e = it.next()?;
        let v = match e {
            'n' => 10,
            't' => 9,
            'r' => 13,
            'a' => 7,
            'b' => 8,
            'f' => 12,
            'v' => 11,
            'e' => 27,
            '\\' | '\'' | '"' | '?' => e as u32,
            '0'..='7' => {
                let mut v = e.to_digit(8)?;
                for _ in 0..2 {
                    match it.peek().and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            it.next();
                        }
                        None => break,
                    }
                }
                v
            }
            'x' => {
                let mut v: u32 = 0;
                let mut n = 0;
                while let Some(d) = it.peek().and_then(|d| d.to_digit(16)) {
                    v = v.wrapping_mul(16).wrapping_add(d);
                    it.next();
                    n += 1;
                }
                if n == 0 {
                    return None;
                }
                v
            }
            _ => return None,
        };
        out.push(v);
    }
    Some(out)
}

/// The type of a bit-field of declared type `t` and width `w` as an expression (GCC): `int` if
/// it holds every value of the field, else `unsigned int` if that does, else `t`; `_Bool`
/// stays `_Bool` (a store converts to it).
fn bit_field_type(t: &CType, w: u64) -> CType {
    match t.int_kind() {
        Some(IntKind::Bool) | None => t.clone(),
        Some(k) if w < 32 || (w == 32 && k.is_signed()) => CType::INT,
        Some(_) if w == 32 => CType::Int(IntKind::UInt),
        Some(_) => t.clone(),
    }
}

/// Whether the callee (as `call_arguments` names it) is one of GCC's type-generic
/// floating-point builtins (`isnan` and the other classifications of `math.h`), whose
/// arguments are not promoted.
fn type_generic(callee: &str) -> bool {
    let name = callee.trim_matches('`');
    name.starts_with("__builtin_is") || matches!(name, "__builtin_signbit" | "__builtin_fpclassify")
}
