//! Terms from solver output: formulas (interpolants) over declared symbols, and model values.
//! Everything is sort-checked; anything not understood is an error, never a guess.

use super::names::{Entry, Table};
use crate::build::*;
use crate::sexp::Sexp;
use crate::sort::Sort;
use crate::term::{Quantifier, Term};
use std::sync::Arc;

type Res<T> = Result<T, String>;

/// Reads sorts and terms against a symbol table, with `let`/quantifier bindings in scope.
pub struct Reader<'a> {
    table: &'a Table,
    locals: Vec<(String, Term)>,
}

fn bad(e: &Sexp, what: &str) -> String {
    let mut s = e.to_string();
    if s.len() > 200 {
        let cut = (0..=200).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0);
        s.truncate(cut);
        s.push_str("...");
    }
    format!("{what}: {s}")
}

/// Int arguments become Real when some argument is Real (SMT-LIB solvers print mixed terms).
fn unify_arith(args: Vec<Term>, e: &Sexp) -> Res<Vec<Term>> {
    if args.iter().any(|a| !a.sort.is_arith()) {
        return Err(bad(e, "non-arithmetic argument"));
    }
    if args.iter().any(|a| a.sort == Sort::Real) {
        Ok(args.iter().map(to_real).collect())
    } else {
        Ok(args)
    }
}

/// `b` converted to the sort `s` if it has it or is Int where Real is wanted.
fn coerce(b: Term, s: &Sort, e: &Sexp) -> Res<Term> {
    if b.sort == *s {
        Ok(b)
    } else if *s == Sort::Real && b.sort == Sort::Int {
        Ok(to_real(&b))
    } else {
        Err(bad(e, &format!("expected sort {s}, found {}", b.sort)))
    }
}

/// Pairwise application of a binary relation to a chain `(op a b c ...)`.
fn chain(args: &[Term], f: fn(&Term, &Term) -> Term) -> Term {
    and(&args.windows(2).map(|w| f(&w[0], &w[1])).collect::<Vec<_>>())
}

impl<'a> Reader<'a> {
    pub fn new(table: &'a Table) -> Reader<'a> {
        Reader { table, locals: Vec::new() }
    }

    /// A sort.
    pub fn sort(&self, e: &Sexp) -> Res<Sort> {
        match e {
            Sexp::Symbol(s) => match s.as_str() {
                "Bool" => Ok(Sort::Bool),
                "Int" => Ok(Sort::Int),
                "Real" => Ok(Sort::Real),
                _ => match self.table.get(s) {
                    Some(Entry::Sort(n)) => Ok(Sort::Uninterpreted(n.clone())),
                    _ => Err(bad(e, "unknown sort")),
                },
            },
            Sexp::List(l) if l.len() == 3 && l[0].is_symbol("Array") => Ok(Sort::array(self.sort(&l[1])?, self.sort(&l[2])?)),
            _ => Err(bad(e, "unsupported sort")),
        }
    }

    fn formula(&mut self, e: &Sexp) -> Res<Term> {
        let t = self.term(e)?;
        if t.sort == Sort::Bool {
            Ok(t)
        } else {
            Err(bad(e, "not a formula"))
        }
    }

    fn symbol(&self, e: &Sexp, s: &str) -> Res<Term> {
        if let Some((_, t)) = self.locals.iter().rev().find(|(n, _)| n == s) {
            return Ok(t.clone());
        }
        match (s, self.table.get(s)) {
            ("true", _) => Ok(tt()),
            ("false", _) => Ok(ff()),
            (_, Some(Entry::Var(v))) => Ok(v.clone()),
            (_, Some(Entry::Func(f))) if f.domain.is_empty() => Ok(apply(f, &[])),
            _ => Err(bad(e, "unknown symbol")),
        }
    }

    /// A term.
    pub fn term(&mut self, e: &Sexp) -> Res<Term> {
        match e {
            Sexp::Symbol(s) => self.symbol(e, s),
            Sexp::Numeral(n) => Ok(int_big(n.clone())),
            Sexp::Decimal(d) => Ok(real(d.clone())),
            Sexp::List(l) => match l.split_first() {
                Some((head, rest)) => self.application(e, head, rest),
                None => Err(bad(e, "empty application")),
            },
            _ => Err(bad(e, "unsupported term")),
        }
    }

    fn bind(&mut self, e: &Sexp, bindings: &Sexp, body: &Sexp, q: Option<Quantifier>) -> Res<Term> {
        let items = bindings.list().ok_or_else(|| bad(e, "malformed binder"))?;
        let mut new = Vec::with_capacity(items.len());
        for b in items {
            match b.list() {
                Some([Sexp::Symbol(n), v]) => {
                    let t = match q {
                        None => self.term(v)?,
                        Some(_) => Term::fresh("q", self.sort(v)?),
                    };
                    new.push((n.clone(), t));
                }
                _ => return Err(bad(e, "malformed binding")),
            }
        }
        let vars: Vec<Term> = new.iter().map(|(_, t)| t.clone()).collect();
        let depth = self.locals.len();
        self.locals.extend(new);
        let body = self.term(body);
        self.locals.truncate(depth);
        let body = body?;
        match q {
            None => Ok(body),
            Some(q) if body.sort == Sort::Bool => Ok(quant(q, &vars, &body)),
            Some(_) => Err(bad(e, "quantifier over a non-formula")),
        }
    }

    fn application(&mut self, e: &Sexp, head: &Sexp, rest: &[Sexp]) -> Res<Term> {
        // ((as const (Array I E)) v)
        if let Some([as_, konst, s]) = head.list() {
            if as_.is_symbol("as") && konst.is_symbol("const") && rest.len() == 1 {
                let sort = self.sort(s)?;
                let Sort::Array(_, elem) = &sort else { return Err(bad(e, "constant array of a non-array sort")) };
                let v = self.term(&rest[0])?;
                let v = coerce(v, elem, e)?;
                return Ok(const_array(&sort, &v));
            }
        }
        let name = head.symbol().ok_or_else(|| bad(e, "unsupported operator"))?;
        match (name, rest) {
            ("let", [b, body]) => return self.bind(e, b, body, None),
            ("forall", [b, body]) => return self.bind(e, b, body, Some(Quantifier::Forall)),
            ("exists", [b, body]) => return self.bind(e, b, body, Some(Quantifier::Exists)),
            ("!", [t, ..]) => return self.term(t),
            _ => {}
        }
        let args = rest.iter().map(|a| self.term(a)).collect::<Res<Vec<Term>>>()?;
        self.operator(e, name, args)
    }

    fn operator(&mut self, e: &Sexp, name: &str, args: Vec<Term>) -> Res<Term> {
        let bools = |args: &[Term]| -> Res<()> {
            if args.iter().all(|a| a.sort == Sort::Bool) {
                Ok(())
            } else {
                Err(bad(e, "non-Boolean argument"))
            }
        };
        let n = args.len();
        Ok(match name {
            "not" if n == 1 => {
                bools(&args)?;
                not(&args[0])
            }
            "and" => {
                bools(&args)?;
                and(&args)
            }
            "or" => {
                bools(&args)?;
                or(&args)
            }
            "=>" if n >= 2 => {
                bools(&args)?;
                let (last, init) = args.split_last().ok_or_else(|| bad(e, "empty implication"))?;
                init.iter().rev().fold(last.clone(), |acc, a| implies(a, &acc))
            }
            "xor" if n == 2 => {
                bools(&args)?;
                not(&eq(&args[0], &args[1]))
            }
            "ite" if n == 3 => {
                bools(&args[..1])?;
                let (a, b) = (args[1].clone(), args[2].clone());
                let (a, b) = if a.sort.is_arith() && b.sort.is_arith() {
                    let u = unify_arith(vec![a, b], e)?;
                    (u[0].clone(), u[1].clone())
                } else {
                    (a, b)
                };
                if a.sort != b.sort {
                    return Err(bad(e, "ite branches of different sorts"));
                }
                ite(&args[0], &a, &b)
            }
            "=" | "distinct" if n >= 2 => {
                let args = if args.iter().all(|a| a.sort.is_arith()) { unify_arith(args, e)? } else { args };
                if args.iter().any(|a| a.sort != args[0].sort) {
                    return Err(bad(e, "comparison of different sorts"));
                }
                if name == "=" {
                    chain(&args, eq)
                } else {
                    distinct(&args)
                }
            }
            "<=" | "<" | ">=" | ">" if n >= 2 => {
                let args = unify_arith(args, e)?;
                chain(&args, [le, lt, ge, gt][["<=", "<", ">=", ">"].iter().position(|o| *o == name).unwrap_or(0)])
            }
            "+" if n >= 1 => add(&unify_arith(args, e)?),
            "*" if n >= 1 => mul(&unify_arith(args, e)?),
            "-" if n == 1 => neg(&unify_arith(args, e)?[0]),
            "-" if n >= 2 => {
                let args = unify_arith(args, e)?;
                args[1..].iter().fold(args[0].clone(), |acc, a| sub(&acc, a))
            }
            "/" if n == 2 => {
                let args = unify_arith(args, e)?;
                real_div(&to_real(&args[0]), &to_real(&args[1]))
            }
            "div" | "mod" if n == 2 && args.iter().all(|a| a.sort == Sort::Int) => {
                if name == "div" {
                    int_div(&args[0], &args[1])
                } else {
                    modulo(&args[0], &args[1])
                }
            }
            "abs" if n == 1 && args[0].sort.is_arith() => {
                let zero = num(num_traits::Zero::zero(), &args[0].sort);
                ite(&ge(&args[0], &zero), &args[0], &neg(&args[0]))
            }
            "to_real" if n == 1 && args[0].sort == Sort::Int => to_real(&args[0]),
            "to_int" if n == 1 && args[0].sort == Sort::Real => to_int(&args[0]),
            "select" if n == 2 => match &args[0].sort {
                Sort::Array(i, _) => select(&args[0], &coerce(args[1].clone(), i, e)?),
                _ => return Err(bad(e, "select from a non-array")),
            },
            "store" if n == 3 => match &args[0].sort {
                Sort::Array(i, v) => store(&args[0], &coerce(args[1].clone(), i, e)?, &coerce(args[2].clone(), v, e)?),
                _ => return Err(bad(e, "store into a non-array")),
            },
            _ => match self.table.get(name) {
                Some(Entry::Func(f)) if f.domain.len() == n => {
                    let f: Arc<_> = f.clone();
                    let args = args.into_iter().zip(&f.domain).map(|(a, s)| coerce(a, s, e)).collect::<Res<Vec<_>>>()?;
                    apply(&f, &args)
                }
                _ => return Err(bad(e, "unsupported operator")),
            },
        })
    }
}

/// An interpolant or other formula printed by a solver, over the symbols of `table`.
pub fn formula(e: &Sexp, table: &Table) -> Res<Term> {
    Reader::new(table).formula(e)
}

/// Whether `t` is a ground value: a literal, or stores into a constant array of values.
fn is_value(t: &Term) -> bool {
    use crate::term::Op;
    match t.op() {
        Some(Op::ConstArray(_)) => is_value(&t.args[0]),
        Some(Op::Store) => t.args.iter().all(is_value),
        _ => t.is_literal(),
    }
}

/// The value a model gives a term of sort `sort`: Bool, Int, Real literals and arrays as
/// stores into constant arrays. `Err` for anything else (abstract values, `as-array`,
/// `lambda`, algebraic numbers): the value is unavailable, never guessed.
pub fn value(e: &Sexp, sort: &Sort) -> Res<Term> {
    let empty = Table::default();
    let t = Reader::new(&empty).term(e)?;
    let t = coerce(t, sort, e)?;
    if is_value(&t) {
        Ok(t)
    } else {
        Err(bad(e, "not a value"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sexp::read_all;
    use num_rational::BigRational;

    fn one(text: &str) -> Sexp {
        read_all(text).unwrap().remove(0)
    }
    fn r(n: i64, d: i64) -> Term {
        real(BigRational::new(n.into(), d.into()))
    }

    #[test]
    fn scalar_values_exactly() {
        assert_eq!(value(&one("true"), &Sort::Bool), Ok(tt()));
        assert_eq!(value(&one("(- 5)"), &Sort::Int), Ok(int(-5)));
        assert_eq!(value(&one("123456789012345678901234567890"), &Sort::Int).unwrap().to_string(), "123456789012345678901234567890");
        assert_eq!(value(&one("(/ 1 2)"), &Sort::Real), Ok(r(1, 2)));
        assert_eq!(value(&one("(/ (- 1) 3)"), &Sort::Real), Ok(r(-1, 3)));
        assert_eq!(value(&one("(- (/ 1.0 3.0))"), &Sort::Real), Ok(r(-1, 3)));
        assert_eq!(value(&one("2.5"), &Sort::Real), Ok(r(5, 2)));
        assert_eq!(value(&one("4"), &Sort::Real), Ok(r(4, 1)));
        assert!(value(&one("2.5"), &Sort::Int).is_err());
        assert!(value(&one("(root-obj (+ (^ x 2) (- 2)) 1)"), &Sort::Real).is_err());
        assert!(value(&one("(/ 1 0)"), &Sort::Real).is_err());
        assert!(value(&one("@fun_8"), &Sort::array(Sort::Int, Sort::Int)).is_err());
        assert!(value(&one("1"), &Sort::Bool).is_err());
    }

    #[test]
    fn array_values() {
        let s = Sort::array(Sort::Int, Sort::Int);
        let v = value(&one("(store (store ((as const (Array Int Int)) 0) 1 5) 2 (- 7))"), &s).unwrap();
        assert_eq!(v, store(&store(&const_array(&s, &int(0)), &int(1), &int(5)), &int(2), &int(-7)));
        let b = Sort::array(Sort::Int, Sort::Bool);
        assert_eq!(value(&one("((as const (Array Int Bool)) true)"), &b), Ok(const_array(&b, &tt())));
        assert!(value(&one("(_ as-array k!0)"), &s).is_err());
        assert!(value(&one("(lambda ((x Int)) 0)"), &s).is_err());
        assert!(value(&one("((as const (Array Int Bool)) 1)"), &b).is_err());
    }

    #[test]
    fn formulas_over_declared_symbols() {
        let x = Term::var("x", Sort::Int);
        let a = Term::var("a b", Sort::array(Sort::Int, Sort::Int));
        let mut table = Table::default();
        table.declare(&[eq(&select(&a, &x), &int(0))], 0).unwrap();
        let f = formula(&one("(let ((t (+ v_x 1))) (and (<= 4 (+ t t)) (not (= (select v_a%20.b v_x) (- 2)))))"), &table).unwrap();
        let t = add(&[x.clone(), int(1)]);
        assert_eq!(f, and(&[le(&int(4), &add(&[t.clone(), t])), not(&eq(&select(&a, &x), &int(-2)))]));
        let q = formula(&one("(forall ((k Int)) (>= (select v_a%20.b k) v_x))"), &table).unwrap();
        assert!(q.has_quantifier());
        assert!(formula(&one("(> y 0)"), &table).is_err(), "undeclared symbol");
        assert!(formula(&one("(+ v_x 1)"), &table).is_err(), "not a formula");
        assert!(formula(&one("(and v_x true)"), &table).is_err(), "ill-sorted");
        assert_eq!(formula(&one("(< 1 2 3)"), &table), Ok(tt()));
    }
}
