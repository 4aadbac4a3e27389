//! The formula chain of a path of the tree followed by one more letter, as the trace whose
//! infeasibility conditional interpolation asks about: in full, or simplified to the formulas
//! the letter's guard depends on (path simplification).
//!
//! Simplification walks the path backwards from the variables the last letter reads. At each
//! node, its predicates about one of them are kept as an `assume` (every label holds in every
//! concrete state at its node) and settle those variables; a letter is kept when it assigns
//! one of them or is a guard on one of them, and then what it reads becomes relevant. Once no
//! variable is relevant, the path before is dropped. A letter that is not kept becomes a havoc
//! of what it assigns, and disappears when no kept formula mentions those variables. Each step
//! only weakens the chain, so an unsatisfiable simplified chain proves the full one
//! unsatisfiable, and its assertions hold along the path; two paths with the same simplified
//! chain share one solver call (the chain is the cache key).

use ir::{Stmt, TransFormula};
use smt::subst::free_vars;
use smt::Term;
use std::collections::{BTreeSet, HashMap};

/// One formula of a chain (the key of the chain cache).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Item {
    /// Kept predicates of a node.
    Facts(Vec<u64>),
    /// A letter with its formula.
    Letter(usize),
    /// A letter that only its assignments matter of: a havoc of the variables.
    Havoc(usize),
}

/// A chain: its formulas, and where each node of the path is in it.
pub(crate) struct Chain {
    pub(crate) items: Vec<Item>,
    pub(crate) trace: Vec<TransFormula>,
    /// For each node of the path, the position in `trace` after its facts (its assertion in
    /// a sequence for the chain is the one at that position); `None` before the chain starts.
    pub(crate) positions: Vec<Option<usize>>,
}

/// Whether a statement constrains the state it starts from.
pub(crate) fn guarded(stmt: &Stmt) -> bool {
    match stmt {
        Stmt::Assume(t) => !t.is_true(),
        Stmt::Assign(_) | Stmt::Havoc(_) => false,
        Stmt::Seq(s) | Stmt::Choice(s) => s.iter().any(guarded),
    }
}

/// What the chain needs to know of a letter (computed once per letter).
pub(crate) struct LetterInfo {
    pub(crate) formula: TransFormula,
    /// Whether it is a guard (a conditional branch).
    pub(crate) guard: bool,
    pub(crate) assigned: BTreeSet<Term>,
    pub(crate) reads: BTreeSet<Term>,
}

impl LetterInfo {
    pub(crate) fn new(formula: TransFormula, stmt: &Stmt) -> LetterInfo {
        LetterInfo { guard: guarded(stmt), assigned: formula.assigned_vars(), reads: formula.read_vars(), formula }
    }
}

/// The free variables of predicates, remembered.
#[derive(Default)]
pub(crate) struct VarsOf(HashMap<Term, BTreeSet<Term>>);

impl VarsOf {
    fn get(&mut self, t: &Term) -> &BTreeSet<Term> {
        self.0.entry(t.clone()).or_insert_with(|| free_vars(t))
    }
}

/// What a position of the chain holds before the chain is assembled.
enum Part {
    Facts(Vec<Term>),
    Letter(usize),
    Havoc(usize, Vec<Term>),
}

/// The chain of the path (its nodes' regions `facts`, the letters `word` between them) and
/// `last`, in full (`simplify` false: every letter, no facts) or simplified.
pub(crate) fn chain(
    facts: &[&BTreeSet<Term>],
    word: &[usize],
    last: usize,
    letters: &[LetterInfo],
    simplify: bool,
    vars: &mut VarsOf,
) -> Chain {
    let n = facts.len() - 1;
    if !simplify {
        let items: Vec<Item> = word.iter().chain([&last]).map(|&l| Item::Letter(l)).collect();
        let trace = word.iter().chain([&last]).map(|&l| letters[l].formula.clone()).collect();
        return Chain { items, trace, positions: (0..=n).map(Some).collect() };
    }
    // node i's facts, then the letter after it (backwards, then reversed)
    let mut parts: Vec<(usize, Part)> = vec![(n, Part::Letter(last))];
    let mut relevant: BTreeSet<Term> = letters[last].reads.clone();
    let mut first = 0;
    for i in (0..=n).rev() {
        let kept: Vec<Term> = facts[i].iter().filter(|f| !vars.get(f).is_disjoint(&relevant)).cloned().collect();
        for f in &kept {
            for v in vars.get(f) {
                relevant.remove(v);
            }
        }
        if !kept.is_empty() {
            parts.push((i, Part::Facts(kept)));
        }
        if relevant.is_empty() || i == 0 {
            first = i;
            break;
        }
        let l = word[i - 1];
        let info = &letters[l];
        if !info.assigned.is_disjoint(&relevant) || (info.guard && !info.reads.is_disjoint(&relevant)) {
            relevant.retain(|v| !info.assigned.contains(v));
            relevant.extend(info.reads.iter().cloned());
            parts.push((i - 1, Part::Letter(l)));
        } else if !info.assigned.is_empty() {
            parts.push((i - 1, Part::Havoc(l, info.assigned.iter().cloned().collect())));
        }
    }
    parts.reverse();
    // a havoc of variables no kept formula mentions changes nothing the chain says
    let mut mentioned: BTreeSet<Term> = BTreeSet::new();
    for (_, p) in &parts {
        match p {
            Part::Facts(fs) => fs.iter().for_each(|f| mentioned.extend(vars.get(f).iter().cloned())),
            Part::Letter(l) => mentioned.extend(letters[*l].reads.iter().chain(&letters[*l].assigned).cloned()),
            Part::Havoc(..) => {}
        }
    }
    parts.retain(|(_, p)| !matches!(p, Part::Havoc(_, vars) if vars.iter().all(|v| !mentioned.contains(v))));
    let mut items = vec![];
    let mut trace = vec![];
    let mut positions = vec![None; n + 1];
    let mut next = parts.iter().peekable();
    for (i, slot) in positions.iter_mut().enumerate().skip(first) {
        // node i's facts come before its position, the letter after it
        while let Some((_, Part::Facts(fs))) = next.peek().filter(|(at, p)| *at == i && matches!(p, Part::Facts(_))) {
            items.push(Item::Facts(fs.iter().map(Term::id).collect()));
            trace.push(TransFormula::assume(&smt::build::and(fs)));
            next.next();
        }
        *slot = Some(trace.len());
        while let Some((_, p)) = next.peek().filter(|(at, p)| *at == i && !matches!(p, Part::Facts(_))) {
            let (item, tf) = match p {
                Part::Letter(l) => (Item::Letter(*l), letters[*l].formula.clone()),
                Part::Havoc(l, vars) => (Item::Havoc(*l), TransFormula::havoc(vars)),
                Part::Facts(_) => unreachable!("facts are taken above"),
            };
            items.push(item);
            trace.push(tf);
            next.next();
        }
    }
    Chain { items, trace, positions }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smt::build::{add, eq, ge, int, lt};
    use smt::Sort;

    fn var(name: &str) -> Term {
        Term::var(name, Sort::Int)
    }

    #[test]
    fn simplification_keeps_what_the_guard_depends_on_and_stops_at_a_fact() {
        let (x, y, m) = (var("x"), var("y"), var("m"));
        let letters: Vec<LetterInfo> = [
            Stmt::Assign(vec![(x.clone(), int(0))]),
            Stmt::Assign(vec![(y.clone(), add(&[x.clone(), int(1)]))]),
            Stmt::Assign(vec![(m.clone(), int(5))]),
            Stmt::Assume(lt(&y, &int(0))),
            Stmt::Assume(ge(&x, &int(0))),
            Stmt::Assign(vec![(x.clone(), y.clone())]),
        ]
        .iter()
        .map(|s| LetterInfo::new(s.trans_formula(), s))
        .collect();
        let chain = |facts: &[&BTreeSet<Term>], word: &[usize], last: usize, simplify: bool| {
            chain(facts, word, last, &letters, simplify, &mut VarsOf::default())
        };
        let none = BTreeSet::new();
        let x_zero = BTreeSet::from([eq(&x, &int(0))]);
        // x := 0 ; [x = 0] y := x + 1 ; m := 5 ; then assume y < 0
        let full = chain(&[&none, &x_zero, &none, &none], &[0, 1, 2], 3, false);
        assert_eq!(full.items, vec![Item::Letter(0), Item::Letter(1), Item::Letter(2), Item::Letter(3)]);
        assert_eq!(full.positions, vec![Some(0), Some(1), Some(2), Some(3)]);
        let short = chain(&[&none, &x_zero, &none, &none], &[0, 1, 2], 3, true);
        // the fact x = 0 settles x, so x := 0 is not needed; m := 5 touches nothing kept
        assert_eq!(short.items, vec![Item::Facts(vec![eq(&x, &int(0)).id()]), Item::Letter(1), Item::Letter(3)]);
        assert_eq!(short.positions, vec![None, Some(1), Some(2), Some(2)]);
        // a guard on a relevant variable is kept
        let guarded = chain(&[&none, &none, &none], &[4, 1], 3, true);
        assert_eq!(guarded.items, vec![Item::Letter(4), Item::Letter(1), Item::Letter(3)]);
        // a guard on another variable is not; an assignment to a variable a kept formula
        // mentions is a havoc: assume y < 0 ; y := x + 1 ; x := y ; then assume x >= 0
        let other = chain(&[&none, &none, &none, &none], &[3, 1, 5], 4, true);
        assert_eq!(other.items, vec![Item::Letter(1), Item::Letter(5), Item::Letter(4)]);
        assert_eq!(other.positions, vec![Some(0), Some(0), Some(1), Some(2)]);
        let havoc = chain(&[&none, &none, &none], &[1, 0], 4, true);
        assert_eq!(havoc.items, vec![Item::Letter(0), Item::Letter(4)], "x := 0 settles x: y := x + 1 is before the chain");
    }
}
