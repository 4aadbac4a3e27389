//! Candidate invariants of an array cell abstraction (`cells`), for a Houdini search: the
//! atoms of the program's conditions and of what its writes store, each also guarded by a
//! range of the distinguished index, `#q < lo ∨ #q ≥ hi ∨ A` ("the cells in [lo, hi) hold A")
//! and `lo ≤ #q < hi ∨ A` ("the cells outside"). The bounds are the array indices the
//! program uses (and one past them) and the bounds its loop conditions compare them with.
//! Candidates only propose: whatever survives is checked as an inductive annotation.

use crate::cells::distinguished_index;
use crate::{Cfg, Label, Stmt};
use num_bigint::Sign;
use smt::build::{add, and, eq, ge, int, le, lt, or, sub};
use smt::simplify::simplify;
use smt::subst::{free_vars, substitute, substitute1};
use smt::{Kind, Op, Sort, Term};
use std::collections::{BTreeSet, HashMap};

/// More candidates than this per location make each Houdini query slow; the guarded ones are
/// then left out.
const MAX_CANDIDATES: usize = 4000;

/// The candidate invariants of `abstraction`, the cell abstraction of a program.
pub fn cell_candidates(abstraction: &Cfg) -> Vec<Term> {
    let mut found = Found::default();
    let succ = abstraction.successors();
    for e in &abstraction.edges {
        if let Label::Stmt(s) = &e.label {
            found.stmt(s);
            // The conditions of branches between program locations: loop conditions, not the
            // checks that lead to errors.
            if let Stmt::Assume(f) = s {
                if succ[e.src].len() > 1 && abstraction.locs[e.dst].error.is_none() {
                    comparisons_in(f, &mut found.guards);
                }
            }
        }
    }
    found.candidates()
}

/// What the statements tell.
#[derive(Default)]
struct Found {
    /// Comparisons of integers, reads at `#q` resolved to the cell.
    atoms: BTreeSet<Term>,
    /// The comparisons of branch conditions.
    guards: BTreeSet<Term>,
    /// `x = v` for a cell written with `v` or a variable assigned `v`.
    defs: Vec<(Term, Term)>,
    /// The array indices (with `#q`) and what loop conditions compare their variables with.
    bounds: BTreeSet<Term>,
    /// The variables of array indices.
    counters: BTreeSet<Term>,
}

impl Found {
    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Assume(f) => self.comparisons(f),
            Stmt::Assign(pairs) => {
                for (x, e) in pairs {
                    self.comparisons(e);
                    self.assignment(x, e);
                }
            }
            Stmt::Havoc(_) => {}
            Stmt::Seq(ss) | Stmt::Choice(ss) => ss.iter().for_each(|s| self.stmt(s)),
        }
    }

    fn assignment(&mut self, x: &Term, e: &Term) {
        if is_ghost(x) || x.sort != Sort::Int {
            return;
        }
        // A write of the cell: `x#q := ite(index = #q, v, x#q)`.
        if e.op() == Some(&Op::Ite) && e.args[2] == *x {
            if let Some(index) = index_of(&e.args[0]) {
                let v = resolve_reads(&e.args[1]);
                if let Kind::Var(_) = index.kind {
                    // The value at the cell in the index's terms: `a[i] = i` stores `#q`.
                    self.defs.push((x.clone(), substitute1(&v, &index, &distinguished_index())));
                }
                self.defs.push((x.clone(), v));
            }
            return;
        }
        let e = resolve_reads(e);
        if !free_vars(&e).contains(x) {
            self.defs.push((x.clone(), e));
        }
    }

    /// Collects the integer comparisons of `t` and the indices of its reads and writes.
    fn comparisons(&mut self, t: &Term) {
        comparisons_in(t, &mut self.atoms);
        self.indices(t);
    }

    fn indices(&mut self, t: &Term) {
        if let Some(index) = (t.op() == Some(&Op::Ite)).then(|| index_of(&t.args[0])).flatten() {
            self.index(&index);
        }
        t.args.iter().for_each(|a| self.indices(a));
    }

    fn index(&mut self, index: &Term) {
        self.counters.extend(free_vars(index));
        self.bounds.insert(simplify(index));
        self.bounds.insert(simplify(&add(&[index.clone(), int(1)])));
    }

    fn candidates(mut self) -> Vec<Term> {
        self.atoms.extend(self.defs.iter().map(|(x, v)| eq(x, v)));
        self.rename_through_cells();
        let weakened: Vec<Term> = self.atoms.iter().filter_map(weakened).collect();
        self.atoms.extend(weakened);
        self.bounds_from_guards();
        self.bounds.insert(int(0));
        let q = distinguished_index();
        // Wrap-around terms (`4·n mod 2^64 div 4`) make queries hard and invariants unreadable.
        let usable =
            |t: &Term| free_vars(t).iter().all(|v| !is_ghost(v)) && !t.any_subterm(|s| matches!(s.op(), Some(Op::Mod | Op::IntDiv)));
        let bounds: Vec<&Term> = self.bounds.iter().filter(|b| usable(b) && !free_vars(b).contains(&q)).collect();
        let atoms = self.atoms.iter().map(simplify).filter(|a| usable(a) && !a.is_true() && !a.is_false());
        let (cell, plain): (Vec<Term>, Vec<Term>) = atoms.partition(mentions_cell);
        let mut out: Vec<Term> = plain.into_iter().filter(|a| !free_vars(a).contains(&q)).collect();
        out.extend(cell.iter().cloned());
        // Guarded: what relates cells with each other and with the bounds' variables (a
        // cell's type range holds everywhere, no need to guard it).
        let bound_vars: BTreeSet<Term> = bounds.iter().flat_map(|b| free_vars(b)).chain([q.clone()]).collect();
        let guardable = |a: &Term| !has_type_limit(a) && free_vars(a).iter().all(|v| is_cell(v) || bound_vars.contains(v));
        let cell: Vec<Term> = cell.into_iter().filter(guardable).collect();
        // The ranges [lo, hi), without those that are empty for sure (they propose nothing).
        let empty = |lo: &Term, hi: &Term| matches!(&simplify(&sub(hi, lo)).kind, Kind::Int(d) if d.sign() != Sign::Plus);
        let ranges: Vec<(&Term, &Term)> =
            bounds.iter().flat_map(|&lo| bounds.iter().map(move |&hi| (lo, hi))).filter(|(lo, hi)| !empty(lo, hi)).collect();
        if out.len() + cell.len() * ranges.len() * 2 > MAX_CANDIDATES {
            return out;
        }
        for a in &cell {
            for &(lo, hi) in &ranges {
                out.push(or(&[lt(&q, lo), ge(&q, hi), a.clone()]));
                out.push(or(&[and(&[le(lo, &q), lt(&q, hi)]), a.clone()]));
            }
        }
        out
    }

    /// A value stored in a cell stands for the variable it came from: `a[i] = x` with `x > y`
    /// and `b[i] = y` gives `a#q > b#q`. Two rounds, for two such variables.
    fn rename_through_cells(&mut self) {
        let renamings: Vec<&(Term, Term)> = self.defs.iter().filter(|(_, v)| matches!(v.kind, Kind::Var(_))).collect();
        for _ in 0..2 {
            let renamed: Vec<Term> = self
                .atoms
                .iter()
                .flat_map(|a| renamings.iter().filter(|(_, v)| free_vars(a).contains(v)).map(|(x, v)| substitute1(a, v, x)))
                .collect();
            self.atoms.extend(renamed);
        }
    }

    /// A loop condition `i < n` bounds the cells by `n` (and `n + 1`, for `i <= n`).
    fn bounds_from_guards(&mut self) {
        for g in self.guards.iter().filter(|g| !has_type_limit(g)) {
            let (l, r) = match g.op() {
                Some(Op::Lt | Op::Le) => (&g.args[0], &g.args[1]),
                _ => continue,
            };
            for (counter_side, other) in [(l, r), (r, l)] {
                let counters: Vec<Term> = free_vars(counter_side).into_iter().filter(|v| self.counters.contains(v)).collect();
                if !counters.is_empty() && !free_vars(other).iter().any(|v| counters.contains(v)) {
                    self.bounds.insert(simplify(other));
                    self.bounds.insert(simplify(&add(&[other.clone(), int(1)])));
                }
            }
        }
    }
}

/// A loop condition `i < n` or `i <= n` weakened to what holds at the exit: `i <= n`,
/// `i <= n + 1`.
fn weakened(a: &Term) -> Option<Term> {
    if has_type_limit(a) {
        return None;
    }
    match a.op() {
        Some(Op::Lt) => Some(simplify(&le(&a.args[0], &a.args[1]))),
        Some(Op::Le) => Some(simplify(&le(&a.args[0], &add(&[a.args[1].clone(), int(1)])))),
        _ => None,
    }
}

/// Whether `t` mentions a bound of an integer type (`±2^k`, `2^k - 1` with `k ≥ 7`):
/// the range assumption of a value of that type, no loop bound.
fn has_type_limit(t: &Term) -> bool {
    t.any_subterm(|s| match &s.kind {
        Kind::Int(c) => {
            let m = c.magnitude();
            [m.clone(), m + 1u32].iter().any(|x| x.count_ones() == 1 && x.bits() >= 8)
        }
        _ => false,
    })
}

/// The names the abstraction introduces for reads and for the last read's index.
fn is_ghost(v: &Term) -> bool {
    v.var_name().is_some_and(|n| n.starts_with("#rd") || n == "#last")
}

fn is_cell(v: &Term) -> bool {
    v.var_name().is_some_and(|n| n.ends_with("#q") && n != "#q")
}

fn mentions_cell(t: &Term) -> bool {
    free_vars(t).iter().any(is_cell)
}

/// Adds the integer comparisons of `t` to `out`, reads at `#q` resolved to the cell.
fn comparisons_in(t: &Term, out: &mut BTreeSet<Term>) {
    if matches!(t.op(), Some(Op::Le | Op::Lt | Op::Eq)) && t.args.iter().all(|a| a.sort == Sort::Int) {
        out.insert(resolve_reads(t));
    }
    t.args.iter().for_each(|a| comparisons_in(a, out));
}

/// `index` of a condition `index = #q` (either way round).
fn index_of(cond: &Term) -> Option<Term> {
    let q = distinguished_index();
    if cond.op() != Some(&Op::Eq) || cond.args.len() != 2 {
        return None;
    }
    match (&cond.args[0], &cond.args[1]) {
        (a, b) if *b == q && *a != q => Some(a.clone()),
        (a, b) if *a == q && *b != q => Some(b.clone()),
        _ => None,
    }
}

/// `t` with every read `ite(index = #q, cell, #rdK)` replaced by the cell: the value the
/// abstraction tracks.
fn resolve_reads(t: &Term) -> Term {
    let mut map = HashMap::new();
    collect_reads(t, &mut map);
    if map.is_empty() {
        t.clone()
    } else {
        substitute(t, &map)
    }
}

fn collect_reads(t: &Term, map: &mut HashMap<Term, Term>) {
    if t.op() == Some(&Op::Ite) && index_of(&t.args[0]).is_some() && is_ghost(&t.args[2]) {
        map.insert(t.clone(), resolve_reads(&t.args[1]));
        return;
    }
    t.args.iter().for_each(|a| collect_reads(a, map));
}
