//! SMT-LIB2 printing of terms and declarations.

use crate::term::{Kind, Op, Quantifier, Term};
use num_traits::Signed;
use std::fmt;

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

fn op_name(op: &Op) -> String {
    match op {
        Op::Not => "not".into(),
        Op::And => "and".into(),
        Op::Or => "or".into(),
        Op::Implies => "=>".into(),
        Op::Ite => "ite".into(),
        Op::Eq => "=".into(),
        Op::Distinct => "distinct".into(),
        Op::Le => "<=".into(),
        Op::Lt => "<".into(),
        Op::Add => "+".into(),
        Op::Sub => "-".into(),
        Op::Mul => "*".into(),
        Op::Neg => "-".into(),
        Op::IntDiv => "div".into(),
        Op::Mod => "mod".into(),
        Op::RealDiv => "/".into(),
        Op::ToReal => "to_real".into(),
        Op::ToInt => "to_int".into(),
        Op::Select => "select".into(),
        Op::Store => "store".into(),
        Op::ConstArray(s) => format!("(as const {s})"),
        Op::Apply(f) => quote_symbol(&f.name),
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::Var(n) => write!(f, "{}", quote_symbol(n)),
            Kind::Bool(b) => write!(f, "{b}"),
            Kind::Int(i) if i.is_negative() => write!(f, "(- {})", -i),
            Kind::Int(i) => write!(f, "{i}"),
            Kind::Real(r) => {
                let (n, d) = (r.numer(), r.denom());
                let body = if d == &1.into() {
                    format!("{}.0", n.abs())
                } else {
                    format!("(/ {}.0 {}.0)", n.abs(), d)
                };
                if n.is_negative() {
                    write!(f, "(- {body})")
                } else {
                    write!(f, "{body}")
                }
            }
            Kind::Quant(q, vars) => {
                let q = match q {
                    Quantifier::Forall => "forall",
                    Quantifier::Exists => "exists",
                };
                write!(f, "({q} (")?;
                for (i, v) in vars.iter().enumerate() {
                    if i > 0 {
                        write!(f, " ")?;
                    }
                    write!(f, "({} {})", v, v.sort)?;
                }
                write!(f, ") {})", self.args[0])
            }
            Kind::App(op) => {
                if self.args.is_empty() {
                    return write!(f, "{}", op_name(op));
                }
                write!(f, "({}", op_name(op))?;
                for a in &self.args {
                    write!(f, " {a}")?;
                }
                write!(f, ")")
            }
        }
    }
}

/// SMT-LIB declarations (`declare-fun`) for the free variables and function symbols of `terms`.
pub fn declarations(terms: &[Term]) -> Vec<String> {
    let mut vars = std::collections::BTreeSet::new();
    let mut funcs = std::collections::BTreeMap::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack: Vec<Term> = terms.to_vec();
    while let Some(t) = stack.pop() {
        if !seen.insert(t.id()) {
            continue;
        }
        if let Some(Op::Apply(fd)) = t.op() {
            funcs.insert(fd.name.to_string(), fd.clone());
        }
        stack.extend(t.args.iter().cloned());
    }
    for t in terms {
        vars.extend(crate::subst::free_vars(t));
    }
    let mut out: Vec<String> =
        vars.iter().map(|v| format!("(declare-fun {} () {})", v, v.sort)).collect();
    for fd in funcs.values() {
        let dom: Vec<String> = fd.domain.iter().map(|s| s.to_string()).collect();
        out.push(format!("(declare-fun {} ({}) {})", quote_symbol(&fd.name), dom.join(" "), fd.range));
    }
    out
}
