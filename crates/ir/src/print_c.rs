//! Formulas over program variables as C expressions (for invariants of C programs). Only what C
//! can say with the same meaning is printed: variables with a C name, integer arithmetic
//! without division, comparisons and Boolean connectives. Anything else (memory arrays, SMT
//! division, the front end's own variables) makes the formula not expressible in C.

use smt::{Kind, Op, Term};

/// The C name of a program variable: the front end's suffix `#k` (a renamed shadowing local)
/// is stripped; names that are no C identifiers (`#t1`, `old(x)`, `#mem_int`) have none.
pub fn c_name(var: &str) -> Option<&str> {
    let base = match var.split_once('#') {
        Some((b, k)) if !b.is_empty() && k.chars().all(|c| c.is_ascii_digit()) => b,
        Some(_) => return None,
        None => var,
    };
    let ident = base.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && base.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    ident.then_some(base)
}

/// `t` as a C expression, or the reason it has none.
pub fn term_to_c(t: &Term) -> Result<String, String> {
    let args = || t.args.iter().map(term_to_c).collect::<Result<Vec<_>, _>>();
    let join = |op: &str| -> Result<String, String> { Ok(format!("({})", args()?.join(&format!(" {op} ")))) };
    match &t.kind {
        Kind::Var(name) => c_name(name).map(str::to_string).ok_or_else(|| format!("`{name}` has no C name")),
        _ if t.is_true() => Ok("1".into()),
        _ if t.is_false() => Ok("0".into()),
        _ if t.as_int().is_some() => {
            let n = t.as_int().map(|n| n.to_string()).unwrap_or_default();
            Ok(if n.starts_with('-') { format!("({n})") } else { n })
        }
        _ => match t.op() {
            Some(Op::Not) => Ok(format!("!{}", args()?.concat())),
            Some(Op::And) => join("&&"),
            Some(Op::Or) => join("||"),
            Some(Op::Implies) => {
                let a = args()?;
                Ok(format!("(!{} || {})", a[0], a[1..].join(" || ")))
            }
            Some(Op::Ite) => {
                let a = args()?;
                Ok(format!("({} ? {} : {})", a[0], a[1], a[2]))
            }
            Some(Op::Eq) if t.args.len() == 2 => join("=="),
            Some(Op::Distinct) if t.args.len() == 2 => join("!="),
            Some(Op::Le) => join("<="),
            Some(Op::Lt) => join("<"),
            Some(Op::Add) => join("+"),
            Some(Op::Sub) => join("-"),
            Some(Op::Mul) => join("*"),
            Some(Op::Neg) => Ok(format!("(-{})", args()?.concat())),
            _ => Err(format!("`{}` has no C counterpart", crate::print::term_to_boogie(t))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smt::build::{and, eq, int, le, not};
    use smt::Sort;

    #[test]
    fn prints_c_and_refuses_internal_names() {
        let i = Term::var("i", Sort::Int);
        let p = Term::var("p#2", Sort::Int);
        let f = and(&[le(&int(0), &i), not(&eq(&p, &int(1)))]);
        assert_eq!(term_to_c(&f).unwrap(), "((0 <= i) && !(1 == p))");
        assert!(term_to_c(&eq(&Term::var("#t1", Sort::Int), &int(0))).is_err());
        assert_eq!(c_name("old(x)"), None);
    }
}
