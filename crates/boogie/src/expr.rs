//! Type checking and translation of expressions into `smt` terms.

use crate::ast::{BinOp, Expr, ExprKind, QuantKind, UnOp};
use crate::error::{ErrorKind, Pos, Result};
use crate::translate::{FuncDef, Translator};
use ir::print::sort_to_boogie;
use smt::build as b;
use smt::{Sort, Term};
use std::collections::HashMap;

/// A variable visible in a local scope (parameter, local, or bound variable).
#[derive(Clone, Debug)]
pub(crate) struct Local {
    /// Its canonical term.
    pub term: Term,
    /// Whether it may be assigned (locals and out-parameters).
    pub mutable: bool,
}

/// How `old(..)` is treated in a context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OldMode {
    /// `old` is an error (axioms, function bodies).
    Forbidden,
    /// `old(e)` is `e` (preconditions).
    Identity,
    /// Globals inside `old(e)` become their `old(x)` variables.
    Replace,
}

/// The names visible while translating an expression.
#[derive(Clone, Debug)]
pub(crate) struct Scope {
    /// Innermost scope last.
    pub frames: Vec<HashMap<String, Local>>,
    /// Treatment of `old`.
    pub old: OldMode,
    /// Whether we are inside `old(..)`.
    pub in_old: bool,
    /// Whether mutable global variables may be mentioned.
    pub globals: bool,
}

impl Scope {
    /// A scope with one (empty) frame.
    pub fn new(old: OldMode, globals: bool) -> Scope {
        Scope { frames: vec![HashMap::new()], old, in_old: false, globals }
    }

    /// Finds a local name, innermost first.
    pub fn lookup(&self, name: &str) -> Option<&Local> {
        self.frames.iter().rev().find_map(|f| f.get(name))
    }
}

/// What a variable name resolves to.
pub(crate) enum Resolved {
    /// A parameter, local or bound variable.
    Local(Local),
    /// A mutable global variable.
    Global(Term),
    /// A constant.
    Const(Term),
}

impl Translator {
    /// A type error at `pos`.
    pub(crate) fn type_err(&self, pos: Pos, msg: impl Into<String>) -> crate::error::BoogieError {
        crate::error::err(&self.file, pos, ErrorKind::Type, msg)
    }

    /// An unsupported-construct error at `pos`.
    pub(crate) fn unsupported(&self, pos: Pos, msg: impl Into<String>) -> crate::error::BoogieError {
        crate::error::err(&self.file, pos, ErrorKind::Unsupported, msg)
    }

    /// Resolves a variable name.
    pub(crate) fn resolve(&self, name: &str, sc: &Scope, pos: Pos) -> Result<Resolved> {
        if let Some(l) = sc.lookup(name) {
            return Ok(Resolved::Local(l.clone()));
        }
        match self.globals.get(name) {
            Some(g) if g.is_const => Ok(Resolved::Const(g.term.clone())),
            Some(g) => Ok(Resolved::Global(g.term.clone())),
            None => Err(self.type_err(pos, format!("undeclared identifier `{name}`"))),
        }
    }

    /// Translates a Boolean expression.
    pub(crate) fn formula(&mut self, e: &Expr, sc: &mut Scope) -> Result<Term> {
        let t = self.expr(e, sc)?;
        self.expect_sort(&t, &Sort::Bool, e.pos, "formula")?;
        Ok(t)
    }

    /// Checks that `t` has sort `s`.
    pub(crate) fn expect_sort(&self, t: &Term, s: &Sort, pos: Pos, what: &str) -> Result<()> {
        if &t.sort != s {
            return Err(
                self.type_err(pos, format!("{what} must have type {}, but has type {}", sort_to_boogie(s), sort_to_boogie(&t.sort)))
            );
        }
        Ok(())
    }

    fn arith_pair(&self, op: BinOp, a: &Term, b: &Term, pos: Pos) -> Result<Sort> {
        if !a.sort.is_arith() || a.sort != b.sort {
            return Err(self.type_err(
                pos,
                format!(
                    "operator `{}` needs two int or two real operands, got {} and {}",
                    op.symbol(),
                    sort_to_boogie(&a.sort),
                    sort_to_boogie(&b.sort)
                ),
            ));
        }
        Ok(a.sort.clone())
    }

    fn bool_pair(&self, op: BinOp, a: &Term, b: &Term, pos: Pos) -> Result<()> {
        if a.sort != Sort::Bool || b.sort != Sort::Bool {
            return Err(self.type_err(
                pos,
                format!("operator `{}` needs bool operands, got {} and {}", op.symbol(), sort_to_boogie(&a.sort), sort_to_boogie(&b.sort)),
            ));
        }
        Ok(())
    }

    /// `m[i]` with type checking.
    pub(crate) fn select(&self, m: &Term, i: &Term, pos: Pos) -> Result<Term> {
        match &m.sort {
            Sort::Array(idx, _) if **idx == i.sort => Ok(b::select(m, i)),
            Sort::Array(idx, _) => {
                Err(self
                    .type_err(pos, format!("map index must have type {}, but has type {}", sort_to_boogie(idx), sort_to_boogie(&i.sort))))
            }
            s => Err(self.type_err(pos, format!("indexing a value of non-map type {}", sort_to_boogie(s)))),
        }
    }

    /// `m[i1][i2].. := v` as a nested store, with type checking.
    pub(crate) fn update(&self, m: &Term, idx: &[Term], v: &Term, pos: Pos) -> Result<Term> {
        match idx.split_first() {
            None => {
                self.expect_sort(v, &m.sort, pos, "assigned value")?;
                Ok(v.clone())
            }
            Some((i, rest)) => {
                let inner = self.select(m, i, pos)?;
                let nv = self.update(&inner, rest, v, pos)?;
                Ok(b::store(m, i, &nv))
            }
        }
    }

    /// Translates and type-checks an expression.
    pub(crate) fn expr(&mut self, e: &Expr, sc: &mut Scope) -> Result<Term> {
        let pos = e.pos;
        Ok(match &e.kind {
            ExprKind::Bool(v) => b::bool_lit(*v),
            ExprKind::Int(i) => b::int_big(i.clone()),
            ExprKind::Real(r) => b::real(r.clone()),
            ExprKind::Var(name) => match self.resolve(name, sc, pos)? {
                Resolved::Local(l) => l.term,
                Resolved::Const(t) => t,
                Resolved::Global(t) => {
                    if !sc.globals {
                        return Err(self.type_err(pos, format!("mutable variable `{name}` cannot be used here")));
                    }
                    if sc.in_old && sc.old == OldMode::Replace {
                        ir::old_var(&t)
                    } else {
                        t
                    }
                }
            },
            ExprKind::Unary(op, a) => {
                let t = self.expr(a, sc)?;
                match op {
                    UnOp::Not => {
                        self.expect_sort(&t, &Sort::Bool, pos, "operand of `!`")?;
                        b::not(&t)
                    }
                    UnOp::Neg => {
                        if !t.sort.is_arith() {
                            return Err(
                                self.type_err(pos, format!("operand of unary `-` must be int or real, not {}", sort_to_boogie(&t.sort)))
                            );
                        }
                        b::neg(&t)
                    }
                }
            }
            ExprKind::Binary(op, l, r) => {
                let x = self.expr(l, sc)?;
                let y = self.expr(r, sc)?;
                self.binary(*op, &x, &y, pos)?
            }
            ExprKind::Select(m, idx) => {
                let mut t = self.expr(m, sc)?;
                for i in idx {
                    let it = self.expr(i, sc)?;
                    t = self.select(&t, &it, i.pos)?;
                }
                t
            }
            ExprKind::Update(m, idx, v) => {
                let mt = self.expr(m, sc)?;
                let mut it = Vec::with_capacity(idx.len());
                for i in idx {
                    it.push(self.expr(i, sc)?);
                }
                let vt = self.expr(v, sc)?;
                self.update(&mt, &it, &vt, pos)?
            }
            ExprKind::Old(a) => {
                if sc.old == OldMode::Forbidden {
                    return Err(self.type_err(pos, "`old` is not allowed here"));
                }
                let saved = sc.in_old;
                sc.in_old = true;
                let t = self.expr(a, sc);
                sc.in_old = saved;
                t?
            }
            ExprKind::Ite(c, x, y) => {
                let ct = self.formula(c, sc)?;
                let xt = self.expr(x, sc)?;
                let yt = self.expr(y, sc)?;
                if xt.sort != yt.sort {
                    return Err(self.type_err(
                        pos,
                        format!(
                            "branches of `if then else` have different types {} and {}",
                            sort_to_boogie(&xt.sort),
                            sort_to_boogie(&yt.sort)
                        ),
                    ));
                }
                b::ite(&ct, &xt, &yt)
            }
            ExprKind::Quant(kind, vars, body) => {
                let mut frame = HashMap::new();
                let mut bound = Vec::new();
                for (id, ty) in vars {
                    let sort = self.sort(ty)?;
                    let v = Term::fresh(&id.name, sort);
                    if frame.insert(id.name.clone(), Local { term: v.clone(), mutable: false }).is_some() {
                        return Err(self.type_err(id.pos, format!("duplicate bound variable `{}`", id.name)));
                    }
                    bound.push(v);
                }
                sc.frames.push(frame);
                let t = self.formula(body, sc);
                sc.frames.pop();
                let t = t?;
                match kind {
                    QuantKind::Forall => b::forall(&bound, &t),
                    QuantKind::Exists => b::exists(&bound, &t),
                }
            }
            ExprKind::Apply(f, args) => {
                let mut ts = Vec::with_capacity(args.len());
                for a in args {
                    ts.push(self.expr(a, sc)?);
                }
                self.apply(&f.name, &ts, f.pos, args)?
            }
            ExprKind::ToInt(a) => {
                let t = self.expr(a, sc)?;
                if !t.sort.is_arith() {
                    return Err(self.type_err(pos, "argument of `int(..)` must be int or real"));
                }
                b::to_int(&t)
            }
            ExprKind::ToReal(a) => {
                let t = self.expr(a, sc)?;
                if !t.sort.is_arith() {
                    return Err(self.type_err(pos, "argument of `real(..)` must be int or real"));
                }
                b::to_real(&t)
            }
        })
    }

    fn binary(&self, op: BinOp, x: &Term, y: &Term, pos: Pos) -> Result<Term> {
        Ok(match op {
            BinOp::Iff | BinOp::Implies | BinOp::Explies | BinOp::Or | BinOp::And => {
                self.bool_pair(op, x, y, pos)?;
                match op {
                    BinOp::Iff => b::eq(x, y),
                    BinOp::Implies => b::implies(x, y),
                    BinOp::Explies => b::implies(y, x),
                    BinOp::Or => b::or2(x, y),
                    _ => b::and2(x, y),
                }
            }
            BinOp::Eq | BinOp::Neq => {
                if x.sort != y.sort {
                    return Err(self.type_err(
                        pos,
                        format!(
                            "operands of `{}` have different types {} and {}",
                            op.symbol(),
                            sort_to_boogie(&x.sort),
                            sort_to_boogie(&y.sort)
                        ),
                    ));
                }
                let e = b::eq(x, y);
                if op == BinOp::Eq {
                    e
                } else {
                    b::not(&e)
                }
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                self.arith_pair(op, x, y, pos)?;
                match op {
                    BinOp::Lt => b::lt(x, y),
                    BinOp::Le => b::le(x, y),
                    BinOp::Gt => b::gt(x, y),
                    _ => b::ge(x, y),
                }
            }
            BinOp::Add => {
                self.arith_pair(op, x, y, pos)?;
                b::add(&[x.clone(), y.clone()])
            }
            BinOp::Sub => {
                self.arith_pair(op, x, y, pos)?;
                b::sub(x, y)
            }
            BinOp::Mul => {
                self.arith_pair(op, x, y, pos)?;
                b::mul(&[x.clone(), y.clone()])
            }
            BinOp::Div => {
                if self.arith_pair(op, x, y, pos)? == Sort::Int {
                    b::int_div(x, y)
                } else {
                    b::real_div(x, y)
                }
            }
            BinOp::IntDiv | BinOp::Mod => {
                if x.sort != Sort::Int || y.sort != Sort::Int {
                    return Err(self.type_err(
                        pos,
                        format!(
                            "operator `{}` needs int operands, got {} and {}",
                            op.symbol(),
                            sort_to_boogie(&x.sort),
                            sort_to_boogie(&y.sort)
                        ),
                    ));
                }
                if op == BinOp::IntDiv {
                    b::int_div(x, y)
                } else {
                    b::modulo(x, y)
                }
            }
        })
    }

    /// Application of function `name` to already translated arguments.
    fn apply(&mut self, name: &str, args: &[Term], pos: Pos, arg_exprs: &[Expr]) -> Result<Term> {
        let Some(f) = self.funcs.get(name) else {
            if self.procs.contains_key(name) {
                return Err(self.type_err(pos, format!("procedure `{name}` cannot be used in an expression")));
            }
            return Err(self.type_err(pos, format!("undeclared function `{name}`")));
        };
        if f.domain.len() != args.len() {
            return Err(self.type_err(pos, format!("function `{name}` expects {} arguments, got {}", f.domain.len(), args.len())));
        }
        for (k, (s, a)) in f.domain.iter().zip(args).enumerate() {
            let apos = arg_exprs.get(k).map(|e| e.pos).unwrap_or(pos);
            self.expect_sort(a, s, apos, &format!("argument {} of `{name}`", k + 1))?;
        }
        let range = f.range.clone();
        match &f.def {
            FuncDef::Uninterpreted(decl) => Ok(b::apply(decl, args)),
            FuncDef::ConstArray => match args.first() {
                Some(v) => Ok(b::const_array(&range, v)),
                None => Err(self.type_err(pos, "constant-array function needs one argument")),
            },
            FuncDef::Unsupported(why) => Err(self.unsupported(pos, why.clone())),
            FuncDef::Defined => {
                let (params, body) = self.func_body(name, pos)?;
                let map: HashMap<Term, Term> = params.into_iter().zip(args.iter().cloned()).collect();
                Ok(smt::subst::substitute(&body, &map))
            }
        }
    }
}
