//! Decoding: Z3 ASTs (formulas and model values) back to smt [`Term`]s.

use super::context::{read_str, Owner, Z3Ctx};
use super::decode_bv_fp::{decode_bv, decode_fp, fp_numeral, ROUNDING_MODE};
use super::ownership::Owned;
use super::{unsupported, Res};
use crate::build;
use crate::bv;
use crate::solver::SolverError;
use crate::sort::Sort;
use crate::term::{Quantifier, Term};
use crate::z3ffi as ffi;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;
use std::collections::HashMap;
use std::os::raw::c_uint;
use std::sync::Arc;

/// Maximal nesting of quantifiers (and model values) in Z3 terms we translate back; terms are
/// otherwise traversed iteratively, so their depth is not limited by the stack.
const MAX_NESTING: usize = 100;

impl Z3Ctx {
    fn sort_back(&self, s: ffi::Z3_sort, depth: usize) -> Res<Sort> {
        if depth > 100 {
            return Err(unsupported("sort nesting too deep"));
        }
        let c = self.c();
        // SAFETY: `s` is a live sort of this context (owned by an AST the caller holds).
        unsafe {
            Ok(match ffi::Z3_get_sort_kind(c, s) {
                ffi::SortKind::Bool => Sort::Bool,
                ffi::SortKind::Int => Sort::Int,
                ffi::SortKind::Real => Sort::Real,
                ffi::SortKind::Bv => Sort::BitVec(ffi::Z3_get_bv_sort_size(c, s)),
                ffi::SortKind::FloatingPoint => Sort::Float(ffi::Z3_fpa_get_ebits(c, s), ffi::Z3_fpa_get_sbits(c, s)),
                ffi::SortKind::RoundingMode => Sort::Uninterpreted(Arc::from(ROUNDING_MODE)),
                ffi::SortKind::Array => {
                    let d = self.check_ptr(ffi::Z3_get_array_sort_domain(c, s), "array domain")?;
                    let r = self.check_ptr(ffi::Z3_get_array_sort_range(c, s), "array range")?;
                    Sort::array(self.sort_back(d, depth + 1)?, self.sort_back(r, depth + 1)?)
                }
                ffi::SortKind::Uninterpreted => {
                    let name = self.symbol_name(self.check_ptr(ffi::Z3_get_sort_name(c, s), "sort name")?);
                    Sort::Uninterpreted(Arc::from(name.as_str()))
                }
                k => return Err(unsupported(format!("Z3 sort kind {}", k as u32))),
            })
        }
    }

    /// Translates a Z3 AST back into a term. Constants and functions must be ones this context
    /// created from terms; quantifiers get fresh bound variables.
    pub(super) fn decode(&mut self, a: &Owned<ffi::Z3_ast>) -> Res<Term> {
        let mut back = Back { env: Vec::new(), model: None };
        back.go(self, a.p, &mut HashMap::new(), 0)
    }

    /// Like [`decode`], resolving `as-array` values through `model`.
    pub(super) fn decode_value(&mut self, a: &Owned<ffi::Z3_ast>, model: &Owned<ffi::Z3_model>) -> Res<Term> {
        let mut back = Back { env: Vec::new(), model: Some(model.clone()) };
        back.go(self, a.p, &mut HashMap::new(), 0)
    }
}

/// State of one Z3 -> Term translation.
struct Back {
    /// Bound variables of enclosing quantifiers, outermost first.
    env: Vec<Term>,
    model: Option<Owned<ffi::Z3_model>>,
}

impl Back {
    /// Translates `root` (iteratively over applications; recursion only enters quantifier
    /// bodies and model values, whose nesting `depth` is bounded).
    fn go(&mut self, cx: &mut Z3Ctx, root: ffi::Z3_ast, memo: &mut HashMap<c_uint, Term>, depth: usize) -> Res<Term> {
        if depth > MAX_NESTING {
            return Err(unsupported("Z3 quantifiers nested too deeply"));
        }
        let c = cx.c();
        let mut stack: Vec<(ffi::Z3_ast, bool)> = vec![(root, false)];
        while let Some((a, expanded)) = stack.pop() {
            // SAFETY: `a` is a live AST of `cx` (held by the caller or by its parent).
            let (id, kind) = unsafe { (ffi::Z3_get_ast_id(c, a), ffi::Z3_get_ast_kind(c, a)) };
            if memo.contains_key(&id) {
                continue;
            }
            if kind == ffi::AstKind::App && !expanded {
                stack.push((a, true));
                // SAFETY: `a` is an application.
                let app = cx.check_ptr(unsafe { ffi::Z3_to_app(c, a) }, "to_app")?;
                for i in 0..unsafe { ffi::Z3_get_app_num_args(c, app) } {
                    // SAFETY: i < number of arguments.
                    let arg = cx.check_ptr(unsafe { ffi::Z3_get_app_arg(c, app, i) }, "arg")?;
                    stack.push((arg, false));
                }
                continue;
            }
            let t = match kind {
                ffi::AstKind::Numeral => self.numeral(cx, a)?,
                ffi::AstKind::Var => {
                    // SAFETY: `a` is a variable.
                    let idx = unsafe { ffi::Z3_get_index_value(c, a) } as usize;
                    let n = self.env.len();
                    if idx >= n {
                        return Err(unsupported("loose de Bruijn index"));
                    }
                    self.env[n - 1 - idx].clone()
                }
                ffi::AstKind::Quantifier => self.quantifier(cx, a, depth)?,
                ffi::AstKind::App => self.app(cx, a, memo, depth)?,
                k => return Err(unsupported(format!("Z3 AST kind {}", k as u32))),
            };
            memo.insert(id, t);
        }
        // SAFETY: live AST.
        let id = unsafe { ffi::Z3_get_ast_id(c, root) };
        memo.get(&id).cloned().ok_or_else(|| SolverError::Failure("Z3 term not translated".into()))
    }

    fn numeral(&mut self, cx: &Z3Ctx, a: ffi::Z3_ast) -> Res<Term> {
        let c = cx.c();
        // SAFETY: live AST.
        let sort = cx.sort_back(cx.check_ptr(unsafe { ffi::Z3_get_sort(c, a) }, "sort")?, 0)?;
        // SAFETY: `a` is a numeral.
        match &sort {
            Sort::Float(e, m) => return fp_numeral(cx, a, *e, *m),
            Sort::Uninterpreted(n) if &**n == ROUNDING_MODE => {
                let kind = cx.app_kind(a)?;
                return decode_fp(cx, kind, None, &[]).ok_or_else(|| unsupported("rounding mode"));
            }
            _ => {}
        }
        // SAFETY: `a` is a numeral.
        let s =
            read_str(unsafe { ffi::Z3_get_numeral_string(c, a) }).ok_or_else(|| unsupported(format!("numeral {}", cx.ast_string(a))))?;
        match sort {
            Sort::Int => s.parse::<BigInt>().map(build::int_big).map_err(|_| unsupported(format!("integer {s}"))),
            Sort::Real => s.parse::<BigRational>().map(build::real).map_err(|_| unsupported(format!("rational {s}"))),
            Sort::BitVec(w) => s.parse::<BigInt>().map(|v| bv::lit(&v, w)).map_err(|_| unsupported(format!("bit-vector {s}"))),
            other => Err(unsupported(format!("numeral of sort {other}"))),
        }
    }

    fn quantifier(&mut self, cx: &mut Z3Ctx, a: ffi::Z3_ast, depth: usize) -> Res<Term> {
        let c = cx.c();
        // SAFETY: `a` is a quantifier AST.
        let (forall, exists, n) =
            unsafe { (ffi::Z3_is_quantifier_forall(c, a), ffi::Z3_is_quantifier_exists(c, a), ffi::Z3_get_quantifier_num_bound(c, a)) };
        let q = match (forall, exists) {
            (true, _) => Quantifier::Forall,
            (_, true) => Quantifier::Exists,
            _ => return Err(unsupported("lambda")),
        };
        let mut vars = Vec::new();
        for i in 0..n {
            // SAFETY: i < number of bound variables.
            let (name, s) = unsafe { (ffi::Z3_get_quantifier_bound_name(c, a, i), ffi::Z3_get_quantifier_bound_sort(c, a, i)) };
            let name = cx.symbol_name(cx.check_ptr(name, "bound name")?);
            let sort = cx.sort_back(cx.check_ptr(s, "bound sort")?, 0)?;
            vars.push(Term::fresh(&name, sort));
        }
        // SAFETY: quantifier AST.
        let body = cx.check_ptr(unsafe { ffi::Z3_get_quantifier_body(c, a) }, "quantifier body")?;
        let outer = self.env.len();
        self.env.extend(vars.iter().cloned());
        let b = self.go(cx, body, &mut HashMap::new(), depth + 1);
        self.env.truncate(outer);
        Ok(build::quant(q, &vars, &b?))
    }

    fn app(&mut self, cx: &mut Z3Ctx, a: ffi::Z3_ast, memo: &mut HashMap<c_uint, Term>, depth: usize) -> Res<Term> {
        let c = cx.c();
        // SAFETY: `a` is an application; the declaration and arguments live as long as `a`.
        let (app, decl, kind, n) = unsafe {
            let app = cx.check_ptr(ffi::Z3_to_app(c, a), "to_app")?;
            let decl = cx.check_ptr(ffi::Z3_get_app_decl(c, app), "decl")?;
            (app, decl, ffi::get_decl_kind(c, decl), ffi::Z3_get_app_num_args(c, app))
        };
        if kind == ffi::op::AS_ARRAY {
            return self.as_array(cx, a, depth);
        }
        let mut args = Vec::with_capacity(n as usize);
        for i in 0..n {
            // SAFETY: i < n.
            let arg = cx.check_ptr(unsafe { ffi::Z3_get_app_arg(c, app, i) }, "arg")?;
            // SAFETY: live AST.
            let id = unsafe { ffi::Z3_get_ast_id(c, arg) };
            args.push(memo.get(&id).cloned().ok_or_else(|| SolverError::Failure("argument not translated".into()))?);
        }
        let bad = |cx: &Z3Ctx| unsupported(format!("Z3 term {}", cx.ast_string(a)));
        let t = match (kind, args.as_slice()) {
            (ffi::op::TRUE, []) => build::tt(),
            (ffi::op::FALSE, []) => build::ff(),
            (ffi::op::EQ | ffi::op::IFF | ffi::op::OEQ, [x, y]) => build::eq(x, y),
            (ffi::op::DISTINCT, _) => build::distinct(&args),
            (ffi::op::ITE, [x, y, z]) => build::ite(x, y, z),
            (ffi::op::AND, _) => build::and(&args),
            (ffi::op::OR, _) => build::or(&args),
            (ffi::op::XOR, [x, y]) => build::not(&build::eq(x, y)),
            (ffi::op::NOT, [x]) => build::not(x),
            (ffi::op::IMPLIES, [x, y]) => build::implies(x, y),
            (ffi::op::LE, [x, y]) => build::le(x, y),
            (ffi::op::GE, [x, y]) => build::ge(x, y),
            (ffi::op::LT, [x, y]) => build::lt(x, y),
            (ffi::op::GT, [x, y]) => build::gt(x, y),
            (ffi::op::ADD, [_, ..]) => build::add(&args),
            (ffi::op::SUB, [first, rest @ ..]) => rest.iter().fold(first.clone(), |acc, x| build::sub(&acc, x)),
            (ffi::op::UMINUS, [x]) => build::neg(x),
            (ffi::op::MUL, [_, ..]) => build::mul(&args),
            (ffi::op::DIV, [x, y]) => build::real_div(x, y),
            (ffi::op::IDIV, [x, y]) => build::int_div(x, y),
            (ffi::op::MOD, [x, y]) => build::modulo(x, y),
            // Z3: (rem x y) = (ite (>= y 0) (mod x y) (- (mod x y)))
            (ffi::op::REM, [x, y]) => {
                let m = build::modulo(x, y);
                build::ite(&build::ge(y, &build::int(0)), &m, &build::neg(&m))
            }
            (ffi::op::TO_REAL, [x]) => build::to_real(x),
            (ffi::op::TO_INT, [x]) => build::to_int(x),
            (ffi::op::IS_INT, [x]) => build::eq(&build::to_real(&build::to_int(x)), x),
            // x^n for a literal 1 <= n <= 64 is a product (Z3's simplifier writes x*x as x^2)
            (ffi::op::POWER, [x, n]) => match n.as_rational() {
                Some(r) if r.is_integer() => match r.to_integer().to_usize() {
                    Some(k @ 1..=64) => build::mul(&vec![x.clone(); k]),
                    _ => return Err(bad(cx)),
                },
                _ => return Err(bad(cx)),
            },
            (k, _) if (ffi::op::BV_FIRST..=ffi::op::BV_LAST).contains(&k) => decode_bv(cx, k, decl, &args).ok_or_else(|| bad(cx))?,
            (k @ ffi::op::FPA_NUM..=ffi::op::FPA_MINUS_ZERO, []) => {
                // SAFETY: live AST.
                let sort = cx.sort_back(cx.check_ptr(unsafe { ffi::Z3_get_sort(c, a) }, "sort")?, 0)?;
                match sort {
                    Sort::Float(e, m) => fp_numeral(cx, a, e, m)?,
                    _ => return Err(unsupported(format!("floating-point value of kind {k}"))),
                }
            }
            (k, _) if (ffi::op::FPA_FIRST..=ffi::op::FPA_LAST).contains(&k) => {
                decode_fp(cx, k, Some(decl), &args).ok_or_else(|| bad(cx))?
            }
            (ffi::op::SELECT, [x, y]) => build::select(x, y),
            (ffi::op::STORE, [x, y, z]) => build::store(x, y, z),
            (ffi::op::CONST_ARRAY, [v]) => {
                // SAFETY: live AST.
                let s = cx.sort_back(cx.check_ptr(unsafe { ffi::Z3_get_sort(c, a) }, "sort")?, 0)?;
                build::const_array(&s, v)
            }
            (k, _) if k == cx.uninterpreted => self.symbol_app(cx, decl, &args).map_err(|_| bad(cx))?,
            _ => return Err(bad(cx)),
        };
        Ok(t)
    }

    /// An uninterpreted constant or function known to the context.
    fn symbol_app(&mut self, cx: &Z3Ctx, decl: ffi::Z3_func_decl, args: &[Term]) -> Res<Term> {
        // SAFETY: live declaration.
        let name = cx.symbol_name(cx.check_ptr(unsafe { ffi::Z3_get_decl_name(cx.c(), decl) }, "decl name")?);
        match cx.names.get(&name) {
            Some(Owner::Var(v)) if args.is_empty() => Ok(v.clone()),
            Some(Owner::Func(fd)) if fd.domain.len() == args.len() => Ok(build::apply(fd, args)),
            _ => Err(unsupported(format!("unknown symbol {name}"))),
        }
    }

    /// A model's `(_ as-array f)` as a chain of stores over a constant array.
    fn as_array(&mut self, cx: &mut Z3Ctx, a: ffi::Z3_ast, depth: usize) -> Res<Term> {
        let model = self.model.clone().ok_or_else(|| unsupported("as-array outside a model"))?;
        let c = cx.c();
        // SAFETY: live AST, model and interpretation objects of this context.
        unsafe {
            let sort = cx.sort_back(cx.check_ptr(ffi::Z3_get_sort(c, a), "sort")?, 0)?;
            let f = cx.check_ptr(ffi::Z3_get_as_array_func_decl(c, a), "as-array decl")?;
            let interp = cx.own(ffi::Z3_model_get_func_interp(c, model.p, f), "func interp")?;
            let els = cx.check_ptr(ffi::Z3_func_interp_get_else(c, interp.p), "else value")?;
            let mut arr = build::const_array(&sort, &self.go(cx, els, &mut HashMap::new(), depth + 1)?);
            for i in 0..ffi::Z3_func_interp_get_num_entries(c, interp.p) {
                let e = cx.own(ffi::Z3_func_interp_get_entry(c, interp.p, i), "entry")?;
                if ffi::Z3_func_entry_get_num_args(c, e.p) != 1 {
                    return Err(unsupported("multi-dimensional array value"));
                }
                let k = cx.check_ptr(ffi::Z3_func_entry_get_arg(c, e.p, 0), "entry arg")?;
                let v = cx.check_ptr(ffi::Z3_func_entry_get_value(c, e.p), "entry value")?;
                let k = self.go(cx, k, &mut HashMap::new(), depth + 1)?;
                let v = self.go(cx, v, &mut HashMap::new(), depth + 1)?;
                arr = build::store(&arr, &k, &v);
            }
            Ok(arr)
        }
    }
}
