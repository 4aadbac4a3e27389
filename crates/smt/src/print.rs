//! SMT-LIB2 printing of terms and declarations.
//!
//! [`Display`](fmt::Display) prints user symbols as they are named (quoted where needed);
//! [`write_term`] takes a [`Names`] that chooses how variables, functions and uninterpreted
//! sorts are spelled (the SMT-LIB process backend uses it to give every user symbol a name
//! that cannot clash with a theory symbol).

use crate::bv::BvOp;
use crate::sort::Sort;
use crate::term::{FuncDecl, Kind, Op, Quantifier, Term};
use num_traits::Signed;
use std::fmt::{self, Write};

/// Quotes a symbol with `|..|` when it is not a simple SMT-LIB symbol.
pub fn quote_symbol(s: &str) -> String {
    let simple = !s.is_empty()
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c));
    if simple {
        s.to_string()
    } else {
        format!("|{}|", s.replace(['|', '\\'], "_"))
    }
}

/// How user symbols are spelled in SMT-LIB text.
pub trait Names {
    /// The symbol of a variable (free or bound).
    fn var(&self, name: &str) -> String;
    /// The symbol of an uninterpreted function.
    fn func(&self, f: &FuncDecl) -> String;
    /// The symbol of an uninterpreted sort.
    fn sort(&self, name: &str) -> String;
}

/// The names as they are, quoted where SMT-LIB needs it.
pub struct Plain;

impl Names for Plain {
    fn var(&self, name: &str) -> String {
        quote_symbol(name)
    }
    fn func(&self, f: &FuncDecl) -> String {
        quote_symbol(&f.name)
    }
    fn sort(&self, name: &str) -> String {
        quote_symbol(name)
    }
}

/// Writes a sort, spelling uninterpreted sorts by `names`.
pub fn write_sort(out: &mut impl Write, s: &Sort, names: &dyn Names) -> fmt::Result {
    match s {
        Sort::Array(i, e) => {
            write!(out, "(Array ")?;
            write_sort(out, i, names)?;
            write!(out, " ")?;
            write_sort(out, e, names)?;
            write!(out, ")")
        }
        Sort::Uninterpreted(n) => write!(out, "{}", names.sort(n)),
        _ => write!(out, "{s}"),
    }
}

fn write_op(out: &mut impl Write, op: &Op, names: &dyn Names) -> fmt::Result {
    let s = match op {
        Op::Not => "not",
        Op::And => "and",
        Op::Or => "or",
        Op::Implies => "=>",
        Op::Ite => "ite",
        Op::Eq => "=",
        Op::Distinct => "distinct",
        Op::Le => "<=",
        Op::Lt => "<",
        Op::Add => "+",
        Op::Sub | Op::Neg => "-",
        Op::Mul => "*",
        Op::IntDiv => "div",
        Op::Mod => "mod",
        Op::RealDiv => "/",
        Op::ToReal => "to_real",
        Op::ToInt => "to_int",
        Op::Select => "select",
        Op::Store => "store",
        Op::ConstArray(s) => {
            write!(out, "(as const ")?;
            write_sort(out, s, names)?;
            return write!(out, ")");
        }
        Op::Apply(f) => return write!(out, "{}", names.func(f)),
        Op::Int2Bv(n) => return write!(out, "(_ int2bv {n})"),
        Op::Bv2Nat => "bv2nat",
        Op::BvAnd => "bvand",
        Op::BvOr => "bvor",
        Op::BvXor => "bvxor",
        Op::Bv(b) => {
            return match b {
                BvOp::Extract(hi, lo) => write!(out, "(_ extract {hi} {lo})"),
                BvOp::ZeroExt(n) | BvOp::SignExt(n) => write!(out, "(_ {} {n})", b.name()),
                _ => write!(out, "{}", b.name()),
            }
        }
        Op::Fp(f) => {
            let indices = f.indices();
            if indices.is_empty() {
                write!(out, "{}", f.name())?;
            } else {
                write!(out, "(_ {}", f.name())?;
                indices.iter().try_for_each(|i| write!(out, " {i}"))?;
                write!(out, ")")?;
            }
            // the rounding mode is the operator's first argument
            return match f.rounding() {
                Some(rm) => write!(out, " {rm}"),
                None => Ok(()),
            };
        }
    };
    write!(out, "{s}")
}

/// Writes a term in SMT-LIB syntax, spelling user symbols by `names`.
pub fn write_term(out: &mut impl Write, t: &Term, names: &dyn Names) -> fmt::Result {
    match &t.kind {
        Kind::Var(n) => write!(out, "{}", names.var(n)),
        Kind::Bool(b) => write!(out, "{b}"),
        Kind::App(Op::Int2Bv(w)) if t.as_bv().is_some() => write!(out, "(_ bv{} {w})", t.args[0]),
        Kind::Int(i) if i.is_negative() => write!(out, "(- {})", -i),
        Kind::Int(i) => write!(out, "{i}"),
        Kind::Real(r) => {
            let (n, d) = (r.numer(), r.denom());
            let body = if d == &1.into() { format!("{}.0", n.abs()) } else { format!("(/ {}.0 {}.0)", n.abs(), d) };
            if n.is_negative() {
                write!(out, "(- {body})")
            } else {
                write!(out, "{body}")
            }
        }
        Kind::Quant(q, vars) => {
            let q = match q {
                Quantifier::Forall => "forall",
                Quantifier::Exists => "exists",
            };
            write!(out, "({q} (")?;
            for (i, v) in vars.iter().enumerate() {
                if i > 0 {
                    write!(out, " ")?;
                }
                write!(out, "(")?;
                write_term(out, v, names)?;
                write!(out, " ")?;
                write_sort(out, &v.sort, names)?;
                write!(out, ")")?;
            }
            write!(out, ") ")?;
            write_term(out, &t.args[0], names)?;
            write!(out, ")")
        }
        Kind::App(op) => {
            if t.args.is_empty() {
                return write_op(out, op, names);
            }
            write!(out, "(")?;
            write_op(out, op, names)?;
            for a in &t.args {
                write!(out, " ")?;
                write_term(out, a, names)?;
            }
            write!(out, ")")
        }
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_term(f, self, &Plain)
    }
}

/// SMT-LIB declarations (`declare-fun`) for the free variables and function symbols of `terms`.
pub fn declarations(terms: &[Term]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let symbols = Symbols::of(terms);
    for v in &symbols.vars {
        out.push(format!("(declare-fun {} () {})", v, v.sort));
    }
    for fd in &symbols.funcs {
        let dom: Vec<String> = fd.domain.iter().map(|s| s.to_string()).collect();
        out.push(format!("(declare-fun {} ({}) {})", quote_symbol(&fd.name), dom.join(" "), fd.range));
    }
    out
}

/// The user symbols of some terms: free variables, uninterpreted functions, uninterpreted sorts.
#[derive(Default, Debug)]
pub struct Symbols {
    pub vars: std::collections::BTreeSet<Term>,
    /// Distinct by name, in name order.
    pub funcs: Vec<std::sync::Arc<FuncDecl>>,
    /// Names of uninterpreted sorts (of variables, bound variables, function signatures).
    pub sorts: std::collections::BTreeSet<std::sync::Arc<str>>,
}

fn collect_sorts(s: &Sort, out: &mut std::collections::BTreeSet<std::sync::Arc<str>>) {
    match s {
        Sort::Array(i, e) => {
            collect_sorts(i, out);
            collect_sorts(e, out);
        }
        Sort::Uninterpreted(n) => {
            out.insert(n.clone());
        }
        _ => {}
    }
}

impl Symbols {
    /// The symbols `terms` use.
    pub fn of(terms: &[Term]) -> Symbols {
        let mut funcs = std::collections::BTreeMap::new();
        let mut sorts = std::collections::BTreeSet::new();
        let mut seen = std::collections::HashSet::new();
        let mut stack: Vec<Term> = terms.to_vec();
        while let Some(t) = stack.pop() {
            if !seen.insert(t.id()) {
                continue;
            }
            collect_sorts(&t.sort, &mut sorts);
            match (&t.kind, t.op()) {
                (_, Some(Op::Apply(fd))) => {
                    fd.domain.iter().for_each(|s| collect_sorts(s, &mut sorts));
                    funcs.insert(fd.name.to_string(), fd.clone());
                }
                (_, Some(Op::ConstArray(s))) => collect_sorts(s, &mut sorts),
                (Kind::Quant(_, vars), _) => vars.iter().for_each(|v| collect_sorts(&v.sort, &mut sorts)),
                _ => {}
            }
            stack.extend(t.args.iter().cloned());
        }
        let mut vars = std::collections::BTreeSet::new();
        for t in terms {
            vars.extend(crate::subst::free_vars(t));
        }
        Symbols { vars, funcs: funcs.into_values().collect(), sorts }
    }
}
