//! Spelling of user symbols for an external solver, and the table of what is declared.
//!
//! Every user symbol gets a prefix by kind (`v_` variables, `f_` functions, `S_` sorts, `n_`
//! assertion names) and an injective escape of the characters outside SMT-LIB's simple-symbol
//! alphabet, so no program name can clash with a theory symbol (`abs`, `div`, ...) or need
//! `|..|` quotes, and every symbol a solver prints maps back to exactly one term.

use crate::print::{write_sort, Names, Symbols};
use crate::sort::Sort;
use crate::term::{FuncDecl, Term};
use std::collections::HashMap;
use std::sync::Arc;

/// Escapes `name` injectively into simple-symbol characters: `%`, the code point in hex, `.`.
pub fn escape(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c != '%' && (c.is_ascii_alphanumeric() || "~!@$^&*_-+=<>.?/".contains(c)) {
            out.push(c);
        } else {
            out.push_str(&format!("%{:x}.", c as u32));
        }
    }
    out
}

/// The inverse of [`escape`] (`None` for text `escape` cannot produce).
pub fn unescape(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(p) = rest.find('%') {
        out.push_str(&rest[..p]);
        let after = &rest[p + 1..];
        let end = after.find('.')?;
        out.push(char::from_u32(u32::from_str_radix(&after[..end], 16).ok()?)?);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Some(out)
}

/// The spelling of variables, functions and sorts for external solvers.
pub struct Mangled;

impl Names for Mangled {
    fn var(&self, name: &str) -> String {
        format!("v_{}", escape(name))
    }
    fn func(&self, f: &FuncDecl) -> String {
        format!("f_{}", escape(&f.name))
    }
    fn sort(&self, name: &str) -> String {
        format!("S_{}", escape(name))
    }
}

/// The symbol under which an assertion name is sent.
pub fn assertion_symbol(name: &str) -> String {
    format!("n_{}", escape(name))
}

/// The assertion name a symbol of an unsat core stands for.
pub fn assertion_name(symbol: &str) -> Option<String> {
    unescape(symbol.strip_prefix("n_")?)
}

/// A term (or sort) in the mangled spelling.
pub fn term_text(t: &Term) -> String {
    let mut s = String::new();
    let _ = crate::print::write_term(&mut s, t, &Mangled);
    s
}

/// A sort in the mangled spelling.
pub fn sort_text(s: &Sort) -> String {
    let mut out = String::new();
    let _ = write_sort(&mut out, s, &Mangled);
    out
}

/// What a declared symbol stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    Var(Term),
    Func(Arc<FuncDecl>),
    Sort(Arc<str>),
}

/// The declared symbols, by mangled name, with the scope depth each was declared at.
#[derive(Default)]
pub struct Table {
    entries: HashMap<String, (Entry, usize)>,
}

impl Table {
    /// What a symbol stands for, if declared.
    pub fn get(&self, symbol: &str) -> Option<&Entry> {
        self.entries.get(symbol).map(|(e, _)| e)
    }

    /// Whether every user symbol of `t` is declared.
    pub fn covers(&self, t: &Term) -> bool {
        let s = Symbols::of(std::slice::from_ref(t));
        s.vars.iter().all(|v| self.has(&Mangled.var(v.var_name().unwrap_or("")), &Entry::Var(v.clone())))
            && s.funcs.iter().all(|f| self.has(&Mangled.func(f), &Entry::Func(f.clone())))
    }

    fn has(&self, symbol: &str, e: &Entry) -> bool {
        self.get(symbol) == Some(e)
    }

    /// The declarations `terms` still need at scope `depth` (recorded as declared), or the
    /// clash that prevents them (one name for two different symbols).
    pub fn declare(&mut self, terms: &[Term], depth: usize) -> Result<Vec<String>, String> {
        let s = Symbols::of(terms);
        let mut wanted: Vec<(String, Entry, String)> = Vec::new();
        for n in &s.sorts {
            wanted.push((Mangled.sort(n), Entry::Sort(n.clone()), format!("(declare-sort {} 0)", Mangled.sort(n))));
        }
        for v in &s.vars {
            let sym = Mangled.var(v.var_name().unwrap_or(""));
            let cmd = format!("(declare-fun {sym} () {})", sort_text(&v.sort));
            wanted.push((sym, Entry::Var(v.clone()), cmd));
        }
        for f in &s.funcs {
            let sym = Mangled.func(f);
            let dom: Vec<String> = f.domain.iter().map(sort_text).collect();
            let cmd = format!("(declare-fun {sym} ({}) {})", dom.join(" "), sort_text(&f.range));
            wanted.push((sym, Entry::Func(f.clone()), cmd));
        }
        let mut out = Vec::new();
        for (sym, entry, cmd) in wanted {
            match self.entries.get(&sym) {
                Some((e, _)) if *e == entry => {}
                Some((e, _)) => return Err(format!("symbol {sym} stands for both {e:?} and {entry:?}")),
                None => {
                    self.entries.insert(sym, (entry, depth));
                    out.push(cmd);
                }
            }
        }
        Ok(out)
    }

    /// Forgets the symbols declared deeper than `depth` (after a pop to `depth`).
    pub fn pop_to(&mut self, depth: usize) {
        self.entries.retain(|_, (_, d)| *d <= depth);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{add, apply, eq, int};

    #[test]
    fn escape_is_injective_and_simple() {
        for n in ["x", "a b", "a|b", "a_b", "x@ssa3", "%", "%25.", "ü", "abs", ""] {
            let e = escape(n);
            assert!(e.chars().all(|c| c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c)), "{e}");
            assert_eq!(unescape(&e).as_deref(), Some(n));
        }
        assert_ne!(escape("a|b"), escape("a_b"));
        assert_eq!(unescape("%zz."), None);
    }

    #[test]
    fn declarations_once_per_scope_and_clashes() {
        let x = Term::var("x", Sort::Int);
        let f = Arc::new(FuncDecl { name: Arc::from("abs"), domain: vec![Sort::Uninterpreted(Arc::from("U"))], range: Sort::Int });
        let u = Term::var("u", Sort::Uninterpreted(Arc::from("U")));
        let t = eq(&add(&[x.clone(), apply(&f, &[u])]), &int(1));
        let mut table = Table::default();
        let d = table.declare(std::slice::from_ref(&t), 0).unwrap();
        assert_eq!(d[0], "(declare-sort S_U 0)", "sorts first");
        let mut rest = d[1..].to_vec();
        rest.sort();
        assert_eq!(rest, vec!["(declare-fun f_abs (S_U) Int)", "(declare-fun v_u () S_U)", "(declare-fun v_x () Int)"]);
        assert!(table.declare(std::slice::from_ref(&t), 1).unwrap().is_empty());
        assert!(table.covers(&t));
        let y = Term::var("y", Sort::Int);
        assert_eq!(table.declare(std::slice::from_ref(&y), 1).unwrap(), vec!["(declare-fun v_y () Int)"]);
        table.pop_to(0);
        assert!(!table.covers(&y));
        assert!(table.declare(&[Term::var("x", Sort::Bool)], 0).is_err());
        assert_eq!(term_text(&t), "(= 1 (+ v_x (f_abs v_u)))");
    }
}
