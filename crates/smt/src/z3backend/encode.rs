//! Encoding: smt [`Term`]s (and their sorts and function symbols) to Z3 ASTs.

use super::context::{cstring, Owner, Z3Ctx};
use super::ownership::Owned;
use super::{unsupported, Res};
use crate::solver::SolverError;
use crate::sort::Sort;
use crate::term::{FuncDecl, Kind, Op, Quantifier, Term};
use crate::z3ffi as ffi;
use std::os::raw::c_uint;
use std::sync::Arc;

/// `z3-sys` constructors by arity (n-ary, binary, unary).
type NaryFn = unsafe extern "C" fn(ffi::Z3_context, c_uint, *const ffi::Z3_ast) -> Option<ffi::Z3_ast>;
pub(super) type BinFn = unsafe extern "C" fn(ffi::Z3_context, ffi::Z3_ast, ffi::Z3_ast) -> Option<ffi::Z3_ast>;
type UnFn = unsafe extern "C" fn(ffi::Z3_context, ffi::Z3_ast) -> Option<ffi::Z3_ast>;

fn len_u32(n: usize) -> Res<c_uint> {
    c_uint::try_from(n).map_err(|_| unsupported("too many arguments"))
}

impl Z3Ctx {
    /// Translates a sort (cached per context).
    pub(super) fn sort(&mut self, s: &Sort) -> Res<Owned<ffi::Z3_sort>> {
        if let Some(o) = self.sorts.get(s) {
            return Ok(o.clone());
        }
        let c = self.c();
        // SAFETY: valid context; component sorts are held alive by `Owned` values.
        let p = unsafe {
            match s {
                Sort::Bool => ffi::Z3_mk_bool_sort(c),
                Sort::Int => ffi::Z3_mk_int_sort(c),
                Sort::Real => ffi::Z3_mk_real_sort(c),
                Sort::BitVec(n) => ffi::Z3_mk_bv_sort(c, *n),
                Sort::Float(e, m) => ffi::Z3_mk_fpa_sort(c, *e, *m),
                Sort::Array(i, e) => {
                    let i = self.sort(i)?;
                    let e = self.sort(e)?;
                    ffi::Z3_mk_array_sort(c, i.p, e.p)
                }
                Sort::Uninterpreted(n) => ffi::Z3_mk_uninterpreted_sort(c, self.symbol(n)?),
            }
        };
        let o = self.own(p, "sort")?;
        self.sorts.insert(s.clone(), o.clone());
        Ok(o)
    }

    /// Translates a term into a Z3 AST (cached per context). Iterative: deep terms cannot
    /// overflow the stack.
    pub(super) fn encode(&mut self, t: &Term) -> Res<Owned<ffi::Z3_ast>> {
        if let Some(o) = self.terms.get(t) {
            return Ok(o.clone());
        }
        let mut stack: Vec<(Term, bool)> = vec![(t.clone(), false)];
        while let Some((u, expanded)) = stack.pop() {
            if self.terms.contains_key(&u) {
                continue;
            }
            if expanded {
                // Whatever Z3 rejects here is input we cannot translate.
                let o = self.encode_node(&u).map_err(|e| match e {
                    SolverError::Failure(m) => unsupported(m),
                    e => e,
                })?;
                self.terms.insert(u, o);
                continue;
            }
            stack.push((u.clone(), true));
            let bound = match &u.kind {
                Kind::Quant(_, vs) => vs.as_slice(),
                _ => &[],
            };
            for c in u.args.iter().chain(bound) {
                if !self.terms.contains_key(c) {
                    stack.push((c.clone(), false));
                }
            }
        }
        self.child(t)
    }

    /// The translation of an already translated subterm.
    fn child(&self, t: &Term) -> Res<Owned<ffi::Z3_ast>> {
        self.terms.get(t).cloned().ok_or_else(|| SolverError::Failure(format!("subterm not translated: {t}")))
    }

    /// Translates `t` and converts it from Int to Real when `to` is Real.
    fn arg_as(&mut self, t: &Term, to: &Sort) -> Res<Owned<ffi::Z3_ast>> {
        let a = self.child(t)?;
        if t.sort == Sort::Int && *to == Sort::Real {
            // SAFETY: `a` is a live Int AST.
            let p = unsafe { ffi::Z3_mk_int2real(self.c(), a.p) };
            return self.ast(p, "to_real");
        }
        Ok(a)
    }

    /// Translates arithmetic arguments, all at Real if any is Real.
    fn arith_args(&mut self, args: &[Term]) -> Res<Vec<Owned<ffi::Z3_ast>>> {
        let target = if args.iter().any(|a| a.sort == Sort::Real) { Sort::Real } else { Sort::Int };
        args.iter().map(|a| self.arg_as(a, &target)).collect()
    }

    fn mk_nary(&self, f: NaryFn, args: &[Owned<ffi::Z3_ast>], what: &str) -> Res<Owned<ffi::Z3_ast>> {
        let ps: Vec<ffi::Z3_ast> = args.iter().map(|a| a.p).collect();
        // SAFETY: all arguments are live ASTs of this context.
        let p = unsafe { f(self.c(), len_u32(ps.len())?, ps.as_ptr()) };
        self.ast(p, what)
    }

    /// Applies a binary constructor to exactly two arguments.
    pub(super) fn mk_bin(&self, f: BinFn, args: &[Owned<ffi::Z3_ast>], what: &str) -> Res<Owned<ffi::Z3_ast>> {
        match args {
            // SAFETY: live ASTs of this context.
            [a, b] => self.ast(unsafe { f(self.c(), a.p, b.p) }, what),
            _ => Err(unsupported(format!("{what} with {} arguments", args.len()))),
        }
    }

    /// Applies a unary constructor to exactly one argument.
    pub(super) fn mk_un(&self, f: UnFn, args: &[Owned<ffi::Z3_ast>], what: &str) -> Res<Owned<ffi::Z3_ast>> {
        match args {
            // SAFETY: live AST of this context.
            [a] => self.ast(unsafe { f(self.c(), a.p) }, what),
            _ => Err(unsupported(format!("{what} with {} arguments", args.len()))),
        }
    }

    /// A chain `a0 R a1 ∧ a1 R a2 ∧ ...` for chainable relations.
    fn mk_chain(&self, f: BinFn, args: &[Owned<ffi::Z3_ast>], what: &str) -> Res<Owned<ffi::Z3_ast>> {
        if args.len() < 2 {
            return Err(unsupported(format!("{what} with {} arguments", args.len())));
        }
        let parts = args.windows(2).map(|w| self.mk_bin(f, w, what)).collect::<Res<Vec<_>>>()?;
        if parts.len() == 1 {
            return parts.into_iter().next().ok_or_else(|| unsupported("empty chain"));
        }
        self.mk_nary(ffi::Z3_mk_and, &parts, what)
    }

    /// The Z3 declaration of a function symbol, under a name unique in this context.
    pub(super) fn func_decl(&mut self, fd: &Arc<FuncDecl>) -> Res<Owned<ffi::Z3_func_decl>> {
        if let Some(o) = self.funcs.get(fd) {
            return Ok(o.clone());
        }
        let dom = fd.domain.iter().map(|s| self.sort(s)).collect::<Res<Vec<_>>>()?;
        let range = self.sort(&fd.range)?;
        let name = self.unique_name(&fd.name, Owner::Func(fd.clone()));
        let sym = self.symbol(&name)?;
        let ps: Vec<ffi::Z3_sort> = dom.iter().map(|s| s.p).collect();
        // SAFETY: live sorts of this context.
        let p = unsafe { ffi::Z3_mk_func_decl(self.c(), sym, len_u32(ps.len())?, ps.as_ptr(), range.p) };
        let o = self.own(p, "func decl")?;
        self.funcs.insert(fd.clone(), o.clone());
        Ok(o)
    }

    fn encode_node(&mut self, t: &Term) -> Res<Owned<ffi::Z3_ast>> {
        let c = self.c();
        match &t.kind {
            Kind::Var(name) => {
                let sort = self.sort(&t.sort)?;
                let name = self.unique_name(name, Owner::Var(t.clone()));
                let sym = self.symbol(&name)?;
                // SAFETY: live sort of this context.
                self.ast(unsafe { ffi::Z3_mk_const(c, sym, sort.p) }, "const")
            }
            // SAFETY: plain constructors.
            Kind::Bool(true) => self.ast(unsafe { ffi::Z3_mk_true(c) }, "true"),
            Kind::Bool(false) => self.ast(unsafe { ffi::Z3_mk_false(c) }, "false"),
            Kind::Int(i) => self.numeral(&i.to_string(), &Sort::Int),
            Kind::Real(r) => self.numeral(&format!("{}/{}", r.numer(), r.denom()), &Sort::Real),
            Kind::Quant(q, vars) => {
                let body = t.args.first().ok_or_else(|| unsupported("quantifier without body"))?;
                if body.sort != Sort::Bool {
                    return Err(unsupported("quantifier over a non-Boolean body"));
                }
                let mut apps = Vec::new();
                let mut keep = Vec::new();
                for v in vars {
                    if !v.is_var() {
                        return Err(unsupported(format!("bound non-variable {v}")));
                    }
                    let a = self.child(v)?;
                    // SAFETY: `a` is a live constant.
                    let app = unsafe { ffi::Z3_to_app(c, a.p) };
                    apps.push(self.check_ptr(app, "bound variable")?);
                    keep.push(a);
                }
                let b = self.child(body)?;
                // SAFETY: bound constants (kept alive by `keep`) and body are live.
                let p = unsafe {
                    ffi::Z3_mk_quantifier_const(
                        c,
                        *q == Quantifier::Forall,
                        0,
                        len_u32(apps.len())?,
                        apps.as_ptr(),
                        0,
                        std::ptr::null(),
                        b.p,
                    )
                };
                self.ast(p, "quantifier")
            }
            Kind::App(op) => self.encode_app(op, t),
        }
    }

    fn numeral(&mut self, s: &str, sort: &Sort) -> Res<Owned<ffi::Z3_ast>> {
        let z = self.sort(sort)?;
        let cs = cstring(s);
        // SAFETY: live sort, valid string.
        self.ast(unsafe { ffi::Z3_mk_numeral(self.c(), cs.as_ptr(), z.p) }, "numeral")
    }

    fn encode_app(&mut self, op: &Op, t: &Term) -> Res<Owned<ffi::Z3_ast>> {
        let args = &t.args;
        let plain = |s: &mut Self| args.iter().map(|a| s.child(a)).collect::<Res<Vec<_>>>();
        match op {
            Op::Not => {
                let a = plain(self)?;
                self.mk_un(ffi::Z3_mk_not, &a, "not")
            }
            Op::And | Op::Or => {
                let a = plain(self)?;
                let f = if *op == Op::And { ffi::Z3_mk_and } else { ffi::Z3_mk_or };
                self.mk_nary(f, &a, "and/or")
            }
            Op::Implies => {
                let a = plain(self)?;
                match a.split_last() {
                    Some((last, init)) if !init.is_empty() => {
                        // (=> a b c) is a => (b => c)
                        let mut acc = last.clone();
                        for x in init.iter().rev() {
                            acc = self.mk_bin(ffi::Z3_mk_implies, &[x.clone(), acc], "=>")?;
                        }
                        Ok(acc)
                    }
                    _ => Err(unsupported("=> with fewer than 2 arguments")),
                }
            }
            Op::Ite => {
                let [cnd, a, b] = args.as_slice() else {
                    return Err(unsupported("ite arity"));
                };
                let target = if a.sort == Sort::Real || b.sort == Sort::Real { Sort::Real } else { a.sort.clone() };
                let cz = self.child(cnd)?;
                let az = self.arg_as(a, &target)?;
                let bz = self.arg_as(b, &target)?;
                // SAFETY: live ASTs.
                self.ast(unsafe { ffi::Z3_mk_ite(self.c(), cz.p, az.p, bz.p) }, "ite")
            }
            Op::Eq | Op::Distinct => {
                let a = if args.iter().all(|a| a.sort.is_arith()) { self.arith_args(args)? } else { plain(self)? };
                if *op == Op::Eq {
                    self.mk_chain(ffi::Z3_mk_eq, &a, "=")
                } else {
                    self.mk_nary(ffi::Z3_mk_distinct, &a, "distinct")
                }
            }
            Op::Le | Op::Lt => {
                let a = self.arith_args(args)?;
                let f = if *op == Op::Le { ffi::Z3_mk_le } else { ffi::Z3_mk_lt };
                self.mk_chain(f, &a, "<=/<")
            }
            Op::Add | Op::Mul | Op::Sub if args.is_empty() => Err(unsupported("nullary arithmetic")),
            // SMT-LIB: (- x) is negation
            Op::Sub if args.len() == 1 => {
                let a = plain(self)?;
                self.mk_un(ffi::Z3_mk_unary_minus, &a, "-")
            }
            Op::Add | Op::Mul | Op::Sub => {
                let a = self.arith_args(args)?;
                let f = match op {
                    Op::Add => ffi::Z3_mk_add,
                    Op::Mul => ffi::Z3_mk_mul,
                    _ => ffi::Z3_mk_sub,
                };
                self.mk_nary(f, &a, "+/*/-")
            }
            Op::Neg => {
                let a = plain(self)?;
                self.mk_un(ffi::Z3_mk_unary_minus, &a, "-")
            }
            Op::IntDiv | Op::Mod => {
                if args.iter().any(|a| a.sort != Sort::Int) {
                    return Err(unsupported("div/mod on non-integers"));
                }
                let f = if *op == Op::IntDiv { ffi::Z3_mk_div } else { ffi::Z3_mk_mod };
                let a = plain(self)?;
                self.mk_bin(f, &a, "div/mod")
            }
            Op::RealDiv => {
                let a = args.iter().map(|a| self.arg_as(a, &Sort::Real)).collect::<Res<Vec<_>>>()?;
                self.mk_bin(ffi::Z3_mk_div, &a, "/")
            }
            Op::ToReal | Op::ToInt => {
                let [a] = args.as_slice() else {
                    return Err(unsupported("conversion arity"));
                };
                let z = self.child(a)?;
                match (op, &a.sort) {
                    (Op::ToReal, Sort::Int) => self.mk_un(ffi::Z3_mk_int2real, &[z], "to_real"),
                    (Op::ToInt, Sort::Real) => self.mk_un(ffi::Z3_mk_real2int, &[z], "to_int"),
                    (Op::ToReal, Sort::Real) | (Op::ToInt, Sort::Int) => Ok(z),
                    _ => Err(unsupported(format!("conversion of sort {}", a.sort))),
                }
            }
            Op::Select | Op::Store => {
                let (idx_sort, elem_sort) = match args.first().map(|a| &a.sort) {
                    Some(Sort::Array(i, e)) => ((**i).clone(), (**e).clone()),
                    _ => return Err(unsupported("select/store on a non-array")),
                };
                let mut z = vec![self.child(&args[0])?];
                if let Some(i) = args.get(1) {
                    z.push(self.arg_as(i, &idx_sort)?);
                }
                if let Some(v) = args.get(2) {
                    z.push(self.arg_as(v, &elem_sort)?);
                }
                match (op, z.as_slice()) {
                    // SAFETY: live ASTs.
                    (Op::Select, [a, i]) => self.ast(unsafe { ffi::Z3_mk_select(self.c(), a.p, i.p) }, "select"),
                    (Op::Store, [a, i, v]) => self.ast(unsafe { ffi::Z3_mk_store(self.c(), a.p, i.p, v.p) }, "store"),
                    _ => Err(unsupported("select/store arity")),
                }
            }
            Op::ConstArray(sort) => {
                let Sort::Array(idx, elem) = sort else {
                    return Err(unsupported("const array of a non-array sort"));
                };
                let [v] = args.as_slice() else {
                    return Err(unsupported("const array arity"));
                };
                let d = self.sort(idx)?;
                let vz = self.arg_as(v, elem)?;
                // SAFETY: live sort and AST.
                self.ast(unsafe { ffi::Z3_mk_const_array(self.c(), d.p, vz.p) }, "const array")
            }
            Op::Int2Bv(n) if t.as_bv().is_some() => self.numeral(&args[0].to_string(), &t.sort),
            Op::Bv(b) => {
                let a = plain(self)?;
                self.encode_bv(*b, &a)
            }
            Op::Fp(f) => {
                let a = plain(self)?;
                self.encode_fp(*f, &a)
            }
            Op::Int2Bv(n) => {
                let a = plain(self)?;
                let [x] = a.as_slice() else { return Err(unsupported("int2bv arity")) };
                // SAFETY: live AST.
                self.ast(unsafe { ffi::Z3_mk_int2bv(self.c(), *n, x.p) }, "int2bv")
            }
            Op::Bv2Nat => {
                let a = plain(self)?;
                let [x] = a.as_slice() else { return Err(unsupported("bv2nat arity")) };
                // SAFETY: live AST.
                self.ast(unsafe { ffi::Z3_mk_bv2int(self.c(), x.p, false) }, "bv2nat")
            }
            Op::BvAnd | Op::BvOr | Op::BvXor => {
                let a = plain(self)?;
                let f = match op {
                    Op::BvAnd => ffi::Z3_mk_bvand,
                    Op::BvOr => ffi::Z3_mk_bvor,
                    _ => ffi::Z3_mk_bvxor,
                };
                self.mk_bin(f, &a, "bitwise")
            }
            Op::Apply(fd) => {
                if fd.domain.len() != args.len() {
                    return Err(unsupported(format!("{} applied to {} arguments", fd.name, args.len())));
                }
                let decl = self.func_decl(fd)?;
                let z = args.iter().zip(fd.domain.iter()).map(|(a, s)| self.arg_as(a, s)).collect::<Res<Vec<_>>>()?;
                let ps: Vec<ffi::Z3_ast> = z.iter().map(|a| a.p).collect();
                // SAFETY: live declaration and arguments.
                self.ast(unsafe { ffi::Z3_mk_app(self.c(), decl.p, len_u32(ps.len())?, ps.as_ptr()) }, "apply")
            }
        }
    }
}
