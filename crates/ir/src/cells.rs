//! Array cell abstraction. A program over integer-indexed arrays becomes a program over one
//! cell of each array: the cell at a distinguished index `#q`, chosen once (any value) and
//! never assigned. Array `a` becomes the scalar `a#q`; a write `a[e] := v` sets `a#q` when
//! `e = #q`; a read `a[e]` is `a#q` when `e = #q` and a fresh nondeterministic value otherwise.
//! The ghost `#last` holds the index of the most recent read (`#q` before any), and an error
//! location is entered only when `#last = #q`.
//!
//! Why a proof of the abstraction proves the program: take an execution of the program that
//! reaches an error, and let `v` be the index of its last read (any value if none). The
//! abstraction with `#q = v` has the same execution: reads at other indices may return the
//! values the program read, the cell at `v` holds what the program stores there, and at the
//! error `#last = v = #q`. So if no choice of `#q` reaches an error, the program reaches none.
//! The converse fails (reads away from `#q` are arbitrary), so the abstraction can only answer
//! TRUE. Its invariants speak of `a#q` for every `#q`: `∀q. φ(q, a[q])`, the quantified
//! invariants of array loops, found with quantifier-free predicates.
//!
//! The invariants such proofs need are disjunctive ("the loop has not reached `#q` yet, or
//! the cell is set"), which Horn solving finds more readily than interpolation.

use crate::{Cfg, Label, Stmt};
use smt::build::{eq, ite, rebuild};
use smt::subst::free_vars;
use smt::{Kind, Op, Sort, Term};
use std::collections::{BTreeSet, HashMap};

/// The distinguished index.
pub fn distinguished_index() -> Term {
    Term::var("#q", Sort::Int)
}

/// The cell abstraction of `cfg`, or `None` if it has no array of integer index and scalar
/// elements, or uses an array in another way than reading, writing, copying or havocking it.
pub fn cell_abstraction(cfg: &Cfg) -> Option<Cfg> {
    let vars: BTreeSet<Term> = cfg.edges.iter().flat_map(|e| variables(&e.stmt())).collect();
    let unsupported = |v: &Term| match &v.sort {
        Sort::Array(index, elem) => **index != Sort::Int || is_array(elem),
        _ => false,
    };
    let taken = |v: &Term| v.var_name().is_some_and(|n| n == "#q" || n == "#last" || n.ends_with("#q") || n.starts_with("#rd"));
    if !vars.iter().any(|v| is_array(&v.sort)) || vars.iter().any(|v| unsupported(v) || taken(v)) {
        // No array, one this abstraction cannot see through a cell, or a program variable
        // with one of the names the abstraction introduces.
        return None;
    }
    let mut cells = Cells { q: distinguished_index(), last: Term::var("#last", Sort::Int), reads: 0 };
    let mut out = Cfg { locs: cfg.locs.clone(), edges: vec![], entry: cfg.entry, exit: cfg.exit };
    for e in &cfg.edges {
        let Label::Stmt(s) = &e.label else { return None };
        let mut stmt = cells.stmt(s)?;
        if cfg.locs[e.dst].error.is_some() {
            stmt = Stmt::Seq(vec![stmt, Stmt::Assume(eq(&cells.last, &cells.q))]);
        }
        out.add_edge(e.with_stmt(stmt));
    }
    let entry = out.add_loc("cells.entry", None);
    out.add_stmt(entry, cfg.entry, Stmt::Assign(vec![(cells.last.clone(), cells.q.clone())]), None);
    out.entry = entry;
    Some(out)
}

fn is_array(s: &Sort) -> bool {
    matches!(s, Sort::Array(..))
}

/// The scalar that stands for `a[#q]`.
fn cell_var(a: &Term) -> Option<Term> {
    let (Kind::Var(name), Sort::Array(_, elem)) = (&a.kind, &a.sort) else { return None };
    Some(Term::var(&format!("{name}#q"), (**elem).clone()))
}

struct Cells {
    q: Term,
    last: Term,
    /// Fresh read variables made so far.
    reads: usize,
}

/// One statement under construction: what its accesses need.
#[derive(Default)]
struct Access {
    /// Fresh variables for reads away from `#q`.
    fresh: Vec<Term>,
    /// The index of the last read.
    last: Option<Term>,
    /// Reads already rewritten (a repeated read is one read).
    memo: HashMap<Term, Term>,
}

impl Cells {
    /// `s` in the abstraction.
    fn stmt(&mut self, s: &Stmt) -> Option<Stmt> {
        let mut acc = Access::default();
        let core = match s {
            Stmt::Assume(f) => Stmt::Assume(self.term(f, &mut acc)?),
            Stmt::Assign(pairs) => {
                let mut out = vec![];
                for (x, e) in pairs {
                    out.push(match &x.sort {
                        Sort::Array(..) => (cell_var(x)?, self.cell(e, &mut acc)?),
                        _ => (x.clone(), self.term(e, &mut acc)?),
                    });
                }
                out.extend(acc.last.take().map(|l| (self.last.clone(), l)));
                Stmt::Assign(out)
            }
            Stmt::Havoc(vars) => {
                Stmt::Havoc(vars.iter().map(|v| if is_array(&v.sort) { cell_var(v) } else { Some(v.clone()) }).collect::<Option<_>>()?)
            }
            Stmt::Seq(ss) => return Some(Stmt::Seq(ss.iter().map(|s| self.stmt(s)).collect::<Option<_>>()?)),
            Stmt::Choice(ss) => return Some(Stmt::Choice(ss.iter().map(|s| self.stmt(s)).collect::<Option<_>>()?)),
        };
        let mut parts = vec![];
        if !acc.fresh.is_empty() {
            parts.push(Stmt::Havoc(acc.fresh));
        }
        parts.push(core);
        parts.extend(acc.last.map(|l| Stmt::Assign(vec![(self.last.clone(), l)])));
        Some(if parts.len() == 1 { parts.remove(0) } else { Stmt::Seq(parts) })
    }

    /// A non-array term with its reads resolved.
    fn term(&mut self, t: &Term, acc: &mut Access) -> Option<Term> {
        if is_array(&t.sort) {
            return None;
        }
        if let Kind::Quant(..) = t.kind {
            return (!free_vars(t).iter().any(|v| is_array(&v.sort))).then(|| t.clone());
        }
        if t.op() == Some(&Op::Select) {
            if let Some(r) = acc.memo.get(t) {
                return Some(r.clone());
            }
            let index = self.term(&t.args[1], acc)?;
            let cell = self.cell(&t.args[0], acc)?;
            self.reads += 1;
            let fresh = Term::var(&format!("#rd{}", self.reads), t.sort.clone());
            acc.fresh.push(fresh.clone());
            let value = ite(&eq(&index, &self.q), &cell, &fresh);
            acc.last = Some(index);
            acc.memo.insert(t.clone(), value.clone());
            return Some(value);
        }
        let args = t.args.iter().map(|a| self.term(a, acc)).collect::<Option<Vec<_>>>()?;
        Some(rebuild(t, args))
    }

    /// The cell at `#q` of an array term.
    fn cell(&mut self, t: &Term, acc: &mut Access) -> Option<Term> {
        match (&t.kind, t.op()) {
            (Kind::Var(_), _) => cell_var(t),
            (_, Some(Op::Store)) => {
                let below = self.cell(&t.args[0], acc)?;
                let index = self.term(&t.args[1], acc)?;
                let value = self.term(&t.args[2], acc)?;
                Some(ite(&eq(&index, &self.q), &value, &below))
            }
            (_, Some(Op::ConstArray(_))) => self.term(&t.args[0], acc),
            (_, Some(Op::Ite)) => {
                let c = self.term(&t.args[0], acc)?;
                Some(ite(&c, &self.cell(&t.args[1], acc)?, &self.cell(&t.args[2], acc)?))
            }
            _ => None,
        }
    }
}

/// The variables a statement mentions.
fn variables(s: &Stmt) -> BTreeSet<Term> {
    let tf = s.trans_formula();
    tf.in_vars.into_keys().chain(tf.out_vars.into_keys()).collect()
}
