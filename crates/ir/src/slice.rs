//! Slicing: the cone of influence of a call-free program's error locations.
//!
//! Edges out of locations from which neither an error location nor the exit can be reached (the
//! branches that `abort`, loops that never end without an error) are dropped, and the edges into
//! them count for nothing: no path through them reaches an error. (Paths to the exit stay, so
//! every loop keeps its exit and the proof of the slice keeps its shape.) Of the statements on
//! the paths to errors and to the exit, every `assume` stays; a variable is *relevant* if one
//! of them reads it, or an assignment to a relevant variable reads it (flow-insensitive, so it
//! holds for every path and through memory arrays alike). Assignments and havocs of the other
//! variables are dropped: they change no condition, so the sliced program reaches an error
//! location along the same paths as the program (a run of one is a run of the other with the
//! irrelevant variables changed), and an invariant of the slice is one of the program. A sliced edge keeps its statement as it was
//! ([`Edge::unsliced`]) for the report of a counterexample.

use crate::cfg::{Cfg, Edge, Label};
use crate::stmt::Stmt;
use smt::build::tt;
use smt::subst::free_vars;
use smt::Term;
use std::collections::{BTreeSet, HashMap};

/// What slicing left of a program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SliceSize {
    /// Statements (assignments of one variable, havocs of one, and assumes) before and after.
    pub statements: (usize, usize),
    /// Edges before and after.
    pub edges: (usize, usize),
}

/// The slice of `cfg` for the reachability of its error locations, and its size. A CFG with
/// calls or thread operations is left as it is.
pub fn slice(cfg: &Cfg) -> (Cfg, SliceSize) {
    let before = (count(cfg.edges.iter().map(|e| &e.label)), cfg.edges.len());
    if cfg.edges.iter().any(|e| !matches!(e.label, Label::Stmt(_))) {
        return (cfg.clone(), SliceSize { statements: (before.0, before.0), edges: (before.1, before.1) });
    }
    let live = cfg.reaching([cfg.error_locs(), vec![cfg.exit]].concat());
    let relevant = relevant_vars(cfg.edges.iter().filter(|e| live[e.dst]).map(stmt_of));
    let mut out = Cfg { locs: cfg.locs.clone(), edges: vec![], entry: cfg.entry, exit: cfg.exit };
    for e in cfg.edges.iter().filter(|e| live[e.src]) {
        let s = stmt_of(e);
        // an over-approximated statement stays whole (its exact statement replaces it as it
        // is), and so does the edge into a dead end (a branch keeps its sibling for the report)
        let sliced = if e.overapprox.is_some() || !live[e.dst] { s.clone() } else { slice_stmt(s, &relevant) };
        if sliced == *s {
            out.edges.push(e.clone());
        } else {
            let mut kept = e.with_stmt(sliced);
            kept.unsliced = Some(s.clone());
            out.edges.push(kept);
        }
    }
    let after = (count(out.edges.iter().map(|e| &e.label)), out.edges.len());
    (out, SliceSize { statements: (before.0, after.0), edges: (before.1, after.1) })
}

/// `cfg` without the statement edges into its dead ends: locations from which no error
/// location, the exit, a call or a thread operation (whose callee or thread may reach an error)
/// can be reached. No execution that enters one reaches an error, so the engines that search
/// paths drop them; [`slice`] keeps them for the report, where a branch shows its direction.
/// Large blocks need them gone: otherwise the `abort()` after each of a thousand input checks
/// gives each check's block the whole path before it.
pub fn without_dead_ends(cfg: &Cfg) -> Cfg {
    let mut targets = cfg.error_locs();
    targets.push(cfg.exit);
    targets.extend(cfg.edges.iter().filter(|e| !matches!(e.label, Label::Stmt(_))).map(|e| e.src));
    let live = cfg.reaching(targets);
    let mut pruned = cfg.clone();
    pruned.edges.retain(|e| live[e.dst] || !matches!(e.label, Label::Stmt(_)));
    pruned
}

fn stmt_of(e: &Edge) -> &Stmt {
    match &e.label {
        Label::Stmt(s) => s,
        Label::Call(_) | Label::Thread(_) => unreachable!("slice only takes call-free CFGs"),
    }
}

/// The variables the conditions of `stmts` depend on: those the assumes read, closed under
/// what the assignments to them read (each statement is read once).
fn relevant_vars<'a>(stmts: impl Iterator<Item = &'a Stmt>) -> BTreeSet<Term> {
    let mut relevant = BTreeSet::new();
    let mut reads: HashMap<Term, BTreeSet<Term>> = HashMap::new();
    stmts.for_each(|s| dependences(s, &mut relevant, &mut reads));
    let mut todo: Vec<Term> = relevant.iter().cloned().collect();
    while let Some(x) = todo.pop() {
        for y in reads.get(&x).into_iter().flatten() {
            if relevant.insert(y.clone()) {
                todo.push(y.clone());
            }
        }
    }
    relevant
}

/// Adds the variables the assumes of `s` read to `conditions`, and to `reads` what each
/// assignment of `s` reads, by the variable it assigns.
fn dependences(s: &Stmt, conditions: &mut BTreeSet<Term>, reads: &mut HashMap<Term, BTreeSet<Term>>) {
    match s {
        Stmt::Assume(phi) => conditions.extend(free_vars(phi)),
        Stmt::Assign(pairs) => pairs.iter().for_each(|(x, e)| reads.entry(x.clone()).or_default().extend(free_vars(e))),
        Stmt::Havoc(_) => {}
        Stmt::Seq(ss) | Stmt::Choice(ss) => ss.iter().for_each(|s| dependences(s, conditions, reads)),
    }
}

/// `s` without its assignments and havocs of variables outside `relevant`.
fn slice_stmt(s: &Stmt, relevant: &BTreeSet<Term>) -> Stmt {
    let skip = || Stmt::Assume(tt());
    match s {
        Stmt::Assume(_) => s.clone(),
        Stmt::Assign(pairs) => {
            let kept: Vec<(Term, Term)> = pairs.iter().filter(|(x, _)| relevant.contains(x)).cloned().collect();
            if kept.is_empty() {
                skip()
            } else {
                Stmt::Assign(kept)
            }
        }
        Stmt::Havoc(vars) => {
            let kept: Vec<Term> = vars.iter().filter(|x| relevant.contains(*x)).cloned().collect();
            if kept.is_empty() {
                skip()
            } else {
                Stmt::Havoc(kept)
            }
        }
        Stmt::Seq(ss) => {
            let kept: Vec<Stmt> = ss.iter().map(|s| slice_stmt(s, relevant)).filter(|s| !is_skip(s)).collect();
            match kept.len() {
                0 => skip(),
                1 => kept.into_iter().next().unwrap_or_else(skip),
                _ => Stmt::Seq(kept),
            }
        }
        Stmt::Choice(ss) => Stmt::Choice(ss.iter().map(|s| slice_stmt(s, relevant)).collect()),
    }
}

fn is_skip(s: &Stmt) -> bool {
    matches!(s, Stmt::Assume(t) if t.is_true())
}

/// The number of statements of the labels (an assignment or havoc counts once per variable).
fn count<'a>(labels: impl Iterator<Item = &'a Label>) -> usize {
    fn of(s: &Stmt) -> usize {
        match s {
            Stmt::Assume(t) => usize::from(!t.is_true()),
            Stmt::Assign(pairs) => pairs.len(),
            Stmt::Havoc(vars) => vars.len(),
            Stmt::Seq(ss) | Stmt::Choice(ss) => ss.iter().map(of).sum(),
        }
    }
    labels.map(|l| if let Label::Stmt(s) = l { of(s) } else { 1 }).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::{Violation, ViolationKind};
    use smt::build::{add, eq, gt, int, lt, not};
    use smt::Sort;

    fn v(name: &str) -> Term {
        Term::var(name, Sort::Int)
    }

    /// `i := 0; s := 0; while (i < 10) { t := t + s; s := s + 1; i := i + 1 } assert(i >= 0)`
    /// where `t` feeds no condition and `s` only `t`; after the loop, `u := 5; assume u > 3`
    /// leads to the exit, and `assume i > 100` to a dead end (an abort that loops on `t := 1`).
    fn program() -> Cfg {
        let mut cfg = Cfg::default();
        let (entry, head, body, after, done) = (
            cfg.add_loc("entry", None),
            cfg.add_loc("head", None),
            cfg.add_loc("body", None),
            cfg.add_loc("after", None),
            cfg.add_loc("done", None),
        );
        let aborted = cfg.add_loc("aborted", None);
        let err = cfg.add_error_loc(Violation { kind: ViolationKind::Assert, pos: None });
        let (i, s, t, u) = (v("i"), v("s"), v("t"), v("u"));
        cfg.entry = entry;
        cfg.exit = done;
        cfg.add_stmt(entry, head, Stmt::Assign(vec![(i.clone(), int(0)), (s.clone(), int(0))]), None);
        cfg.add_stmt(head, body, Stmt::Assume(lt(&i, &int(10))), None);
        let step = Stmt::Seq(vec![
            Stmt::Assign(vec![(t.clone(), add(&[t.clone(), s.clone()]))]),
            Stmt::Assign(vec![(s.clone(), add(&[s.clone(), int(1)]))]),
            Stmt::Assign(vec![(i.clone(), add(&[i.clone(), int(1)]))]),
        ]);
        cfg.add_stmt(body, head, step, None);
        cfg.add_stmt(head, after, Stmt::Assume(not(&lt(&i, &int(10)))), None);
        cfg.add_stmt(after, err, Stmt::Assume(lt(&i, &int(0))), None);
        cfg.add_stmt(after, done, Stmt::Seq(vec![Stmt::Assign(vec![(u.clone(), int(5))]), Stmt::Assume(gt(&u, &int(3)))]), None);
        cfg.add_stmt(after, aborted, Stmt::Assume(gt(&i, &int(100))), None);
        cfg.add_stmt(aborted, aborted, Stmt::Assign(vec![(t.clone(), int(1))]), None);
        cfg
    }

    #[test]
    fn only_what_the_conditions_depend_on_stays() {
        let cfg = program();
        let (sliced, size) = slice(&cfg);
        let (i, s) = (v("i"), v("s"));
        let stmts: Vec<Stmt> = sliced.edges.iter().map(Edge::stmt).collect();
        // `s` and `t` are gone from the loop, the initialization keeps `i` only
        assert_eq!(stmts[0], Stmt::Assign(vec![(i.clone(), int(0))]));
        assert_eq!(stmts[2], Stmt::Assign(vec![(i.clone(), add(&[i.clone(), int(1)]))]));
        assert!(stmts.iter().all(|st| !st.trans_formula().assigned_vars().contains(&s)));
        // the edge into `aborted` (no error or exit beyond it) stays as it is, the one out of it
        // goes; the one into the exit stays whole
        assert_eq!(sliced.edges.len(), cfg.edges.len() - 1);
        assert!(sliced.edges.iter().all(|e| sliced.locs[e.src].name != "aborted"));
        assert_eq!(sliced.edges[6].stmt(), cfg.edges[6].stmt());
        assert_eq!(sliced.edges[5].stmt(), cfg.edges[5].stmt());
        assert_eq!(size, SliceSize { statements: (12, 8), edges: (8, 7) });
        // the sliced edges remember their statements
        assert_eq!(sliced.edges[2].unsliced.as_ref(), Some(&cfg.edges[2].stmt()));
        assert_eq!(sliced.edges[1].unsliced, None);
    }

    #[test]
    fn a_variable_read_by_a_relevant_assignment_is_relevant() {
        // `x := y; assume x == 1` keeps `y := ...` before it
        let mut cfg = Cfg::default();
        let (a, b, c) = (cfg.add_loc("a", None), cfg.add_loc("b", None), cfg.add_loc("c", None));
        let err = cfg.add_error_loc(Violation { kind: ViolationKind::Assert, pos: None });
        let (x, y) = (v("x"), v("y"));
        cfg.entry = a;
        cfg.exit = c;
        cfg.add_stmt(a, b, Stmt::Havoc(vec![y.clone()]), None);
        cfg.add_stmt(b, c, Stmt::Assign(vec![(x.clone(), y.clone())]), None);
        cfg.add_stmt(c, err, Stmt::Assume(eq(&x, &int(1))), None);
        let (sliced, _) = slice(&cfg);
        assert!(sliced.edges.iter().all(|e| e.unsliced.is_none()));
        assert_eq!(sliced.edges.len(), 3);
    }
}
