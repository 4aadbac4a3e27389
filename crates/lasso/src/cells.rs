//! Array cells as state variables. A ranking function may need the value of an array cell at
//! the loop head (`a[i]` counting down, `#length[p] - p#o` bounding a pointer walk), which the
//! linear DNF drops with every select. Each cell the loop reads at the loop head becomes a
//! variable of the lasso, defined by its select before and after an iteration (the array's new
//! value substituted where the loop defines it, reads over writes split into cases); then every
//! select left is an opaque variable, and reads of one array at equal indices are equal (a
//! disjunction for each pair). The result over-approximates the lasso: a ranking function
//! found on it is read back over the cells and checked on the exact formulas.
//!
//! The loop is also analysed under the stem's facts about the variables it keeps (`i != j`
//! before a loop that changes neither): they hold at every visit of the loop head, and join the
//! supporting invariants of a ranking function that needs them (the stem states them, the loop
//! keeps them), where a linear template could not express them.

use crate::relation::{equations, Relation};
use crate::RankingFunction;
use smt::build::{and, eq, ite, not, or, select};
use smt::subst::{conjuncts, free_vars, substitute};
use smt::{Op, Sort, Term};
use std::collections::{BTreeSet, HashMap};

/// At most this many cells become variables, and at most this many pairs of reads get their
/// congruence (each pair multiplies the loop's disjuncts).
const MAX_CELLS: usize = 6;
const MAX_PAIRS: usize = 6;

/// A lasso's relation with its cells as variables and no selects.
pub(crate) struct Cells {
    pub rel: Relation,
    /// Each cell's variable (canonical) → the cell over canonical variables.
    pub terms: HashMap<Term, Term>,
    /// The stem's facts about variables the loop keeps (over canonical variables).
    pub facts: Vec<Term>,
}

impl Cells {
    /// `rel` itself, without cells or facts.
    pub fn none(rel: &Relation) -> Cells {
        Cells { rel: rel.clone(), terms: HashMap::new(), facts: vec![] }
    }

    /// The abstraction of `rel`: its cells variables (when it reads arrays), with the
    /// congruence of reads if `congruence`, its loop under the stem's facts if `facts`.
    pub fn of(rel: &Relation, facts: bool, congruence: bool) -> Cells {
        let canonical: HashMap<Term, Term> = rel.pre.iter().map(|(x, p)| (p.clone(), x.clone())).collect();
        let facts = if facts { stem_facts(rel) } else { vec![] };
        let mut out = rel.clone();
        let (mut stem, mut looped) = (vec![rel.stem.clone()], vec![rel.looped.clone()]);
        looped.extend(facts.iter().cloned());
        let facts = facts.iter().map(|f| substitute(f, &canonical)).collect();
        let loop_reads = reads(&rel.looped);
        if loop_reads.is_empty() && reads(&rel.stem).is_empty() {
            out.looped = and(&looped);
            return Cells { rel: out, terms: HashMap::new(), facts };
        }
        let at_head = |t: &Term| free_vars(t).iter().all(|v| canonical.contains_key(v) || rel.consts.contains(v));
        let mut cells: Vec<Term> = loop_reads.into_iter().filter(|r| at_head(r)).collect();
        cells.truncate(MAX_CELLS);
        let defined = definitions(&rel.looped, rel);
        let mut terms = HashMap::new();
        for read in cells {
            let cell = substitute(&read, &canonical);
            let var = Term::fresh(&format!("cell{}", terms.len()), read.sort.clone());
            let pre = Term::fresh("cell", read.sort.clone());
            let after = resolve(&rel.at_post(&cell), &defined);
            let post = if after == read { pre.clone() } else { Term::fresh("cell", read.sort.clone()) };
            stem.push(eq(&pre, &read));
            looped.push(eq(&pre, &read));
            if post != pre {
                looped.push(eq(&post, &after));
            }
            out.vars.push(var.clone());
            out.loop_vars.push(var.clone());
            out.pre.insert(var.clone(), pre);
            out.post.insert(var.clone(), post);
            terms.insert(var, cell);
        }
        out.stem = opaque_reads(&and(&stem), congruence);
        out.looped = decided(&opaque_reads(&decided(&and(&looped)), congruence));
        Cells { rel: out, terms, facts }
    }

    /// `rf` over the cells instead of their variables.
    pub fn concrete(&self, rf: RankingFunction) -> RankingFunction {
        let back = |ts: Vec<Term>| ts.iter().map(|t| substitute(t, &self.terms)).collect();
        RankingFunction { components: back(rf.components), supporting_invariants: back(rf.supporting_invariants), ..rf }
    }
}

/// The conjuncts of the stem about variables the loop keeps and that touch the loop's
/// variables (directly or through other such facts).
fn stem_facts(rel: &Relation) -> Vec<Term> {
    let kept: BTreeSet<&Term> = rel.pre.iter().filter(|(x, _)| !rel.changes(x)).map(|(_, p)| p).collect();
    let about_kept = |t: &Term| free_vars(t).iter().all(|v| kept.contains(v) || rel.consts.contains(v));
    let mut candidates: Vec<Term> = conjuncts(&rel.stem).into_iter().filter(|c| !c.is_true() && about_kept(c)).collect();
    let mut touched = free_vars(&rel.looped);
    let mut facts = vec![];
    while let Some(k) = candidates.iter().position(|c| free_vars(c).iter().any(|v| touched.contains(v))) {
        let fact = candidates.swap_remove(k);
        touched.extend(free_vars(&fact));
        facts.push(fact);
    }
    facts
}

/// The arithmetic reads of arrays in `t` (outermost selects), in order of appearance.
fn reads(t: &Term) -> Vec<Term> {
    // (a term is a DAG: each shared subterm is visited once)
    fn go(t: &Term, seen: &mut std::collections::HashSet<u64>, out: &mut Vec<Term>) {
        if !seen.insert(t.id()) {
            return;
        }
        if t.op() == Some(&Op::Select) && t.sort.is_arith() {
            out.push(t.clone());
            return;
        }
        t.args.iter().for_each(|a| go(a, seen, out));
    }
    let mut out = vec![];
    go(t, &mut Default::default(), &mut out);
    out
}

/// The arrays the loop defines by an equation at its top level (a new value of an array, an
/// intermediate one), each mapped to its value.
fn definitions(looped: &Term, rel: &Relation) -> HashMap<Term, Term> {
    let heads: BTreeSet<&Term> = rel.pre.values().collect();
    let mut defs = HashMap::new();
    for (a, b) in equations(looped) {
        for (v, value) in [(&a, &b), (&b, &a)] {
            if v.is_var() && matches!(v.sort, Sort::Array(..)) && !heads.contains(v) && !free_vars(value).contains(v) {
                defs.entry(v.clone()).or_insert_with(|| value.clone());
                break;
            }
        }
    }
    defs
}

/// `t` with the defined arrays replaced by their values (to a bounded depth) and every read
/// of a written array split into the cases of its index.
fn resolve(t: &Term, defined: &HashMap<Term, Term>) -> Term {
    let mut t = t.clone();
    for _ in 0..8 {
        let next = substitute(&t, defined);
        if next == t {
            break;
        }
        t = next;
    }
    read_over_write(&t)
}

/// `select(store(a, k, v), j)` as `ite(j = k, v, select(a, j))`, throughout `t`.
fn read_over_write(t: &Term) -> Term {
    // (each shared subterm rewritten once)
    fn go(t: &Term, memo: &mut HashMap<u64, Term>) -> Term {
        if t.args.is_empty() {
            return t.clone();
        }
        if let Some(r) = memo.get(&t.id()) {
            return r.clone();
        }
        let args: Vec<Term> = t.args.iter().map(|a| go(a, memo)).collect();
        let r = match (t.op(), &args[..]) {
            (Some(Op::Select), [a, j]) => match (a.op(), a.args.as_slice(), select(a, j)) {
                // decided by the builder: the same index, or two literals
                (Some(Op::Store), _, s) if s.op() != Some(&Op::Select) || s.args[0] != *a => go(&s, memo),
                (Some(Op::Store), [inner, k, v], _) => {
                    // each case knows its condition
                    let same = eq(j, k);
                    let assuming = |t: &Term, b: bool| smt::subst::substitute1(t, &same, &smt::build::bool_lit(b));
                    let other = go(&select(inner, j), memo);
                    ite(&same, &assuming(v, true), &assuming(&other, false))
                }
                (_, _, s) => s,
            },
            _ => smt::build::rebuild(t, args),
        };
        memo.insert(t.id(), r.clone());
        r
    }
    go(t, &mut HashMap::new())
}

/// `t` with the equalities that its conjuncts state or deny replaced by their truth value (the
/// cases of a read over a write at an index known to be another are one case).
fn decided(t: &Term) -> Term {
    let conj = conjuncts(t);
    let mut known = HashMap::new();
    for c in &conj {
        match c.op() {
            Some(Op::Eq) => known.insert(c.clone(), smt::build::tt()),
            Some(Op::Not) if c.args[0].op() == Some(&Op::Eq) => known.insert(c.args[0].clone(), smt::build::ff()),
            _ => None,
        };
    }
    // a stated (dis)equality stays, the others inside it are decided
    fn inside(c: &Term, known: &HashMap<Term, Term>) -> Term {
        match c.op() {
            Some(Op::Eq) => smt::build::rebuild(c, c.args.iter().map(|a| substitute(a, known)).collect()),
            Some(Op::Not) if c.args[0].op() == Some(&Op::Eq) => not(&inside(&c.args[0], known)),
            _ => substitute(c, known),
        }
    }
    and(&conj.iter().map(|c| inside(c, &known)).collect::<Vec<_>>())
}

/// `t` with every arithmetic read of an array replaced by a fresh variable, and (with
/// `congruence`) the reads of one array at equal indices equal.
fn opaque_reads(t: &Term, congruence: bool) -> Term {
    let all = reads(t);
    let vars: HashMap<Term, Term> = all.iter().map(|r| (r.clone(), Term::fresh("read", r.sort.clone()))).collect();
    let mut congruent = vec![];
    let pairs = all.iter().enumerate().flat_map(|(k, r)| all[k + 1..].iter().map(move |s| (r, s)));
    for (r, s) in pairs.filter(|_| congruence) {
        if congruent.len() == MAX_PAIRS {
            break;
        }
        let ((a, i), (b, j)) = (r.select_chain(), s.select_chain());
        if a != b || i.len() != j.len() {
            continue;
        }
        let same: Vec<Term> = i.iter().zip(&j).map(|(x, y)| eq(x, y)).collect();
        congruent.push(or(&[not(&and(&same)), eq(&vars[r], &vars[s])]));
    }
    let mut parts = vec![substitute(t, &vars)];
    // an index may itself read an array: its reads are variables too
    parts.extend(congruent.iter().map(|c| substitute(c, &vars)));
    and(&parts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::Stmt;
    use smt::build::{add, ge, int, store};

    #[test]
    fn a_cell_counting_down_is_a_variable() {
        // while (a[0] >= 0) a[0] := a[0] - 1
        let a = Term::var("a", Sort::array(Sort::Int, Sort::Int));
        let cell = select(&a, &int(0));
        let body = Stmt::Seq(vec![
            Stmt::Assume(ge(&cell, &int(0))),
            Stmt::Assign(vec![(a.clone(), store(&a, &int(0), &add(&[cell.clone(), int(-1)])))]),
        ]);
        let rel = Relation::new(&ir::TransFormula::skip(), &body.trans_formula()).unwrap();
        let cells = Cells::of(&rel, true, true);
        assert_eq!(cells.terms.len(), 1);
        let (var, term) = cells.terms.iter().next().unwrap();
        assert_eq!(*term, cell);
        assert!(cells.rel.changes(var));
        assert!(reads(&cells.rel.looped).is_empty() && reads(&cells.rel.stem).is_empty());
    }
}
