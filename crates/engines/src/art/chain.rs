//! The formula chain of a path of the tree followed by one more letter, as the trace whose
//! infeasibility conditional interpolation asks about: in full, or simplified to the formulas
//! the letter's guard depends on (path simplification).
//!
//! The chain has, for each node of the path from its first kept node on, an `assume` of the
//! node's predicates it keeps (facts: every label holds in every concrete state at its node),
//! then the letter to the next node. Simplification walks the path backwards from the
//! variables the last letter reads: a fact about one of them is kept and settles those
//! variables; a letter is kept when it assigns one of them or is a guard on one of them, and
//! then what it reads becomes relevant; every other letter becomes a havoc of what it assigns.
//! Once no variable is relevant, the path before is dropped. Each step only weakens the
//! chain, so an unsatisfiable simplified chain proves the full one unsatisfiable, and its
//! assertion sequence holds along the path.

use ir::{Stmt, TransFormula};
use smt::subst::free_vars;
use smt::Term;
use std::collections::BTreeSet;

/// What one position of a chain is (the key of the chain cache).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Item {
    /// The kept predicates of a node.
    Facts(Vec<u64>),
    /// A letter with its formula.
    Letter(usize),
    /// A letter that only its assignments matter of: a havoc of the variables.
    Havoc(usize),
}

/// A chain: its positions, their transition formulas, and for each node of the path from
/// `first` on, the position after its facts (where its assertion is).
pub(crate) struct Chain {
    pub(crate) items: Vec<Item>,
    pub(crate) trace: Vec<TransFormula>,
    /// The index in the path of the chain's first node.
    pub(crate) first: usize,
}

impl Chain {
    /// The assertion position of the `i`-th node of the path (`i ≥ first`): after its facts.
    pub(crate) fn position(&self, i: usize) -> usize {
        2 * (i - self.first) + 1
    }
}

/// Whether a statement constrains the state it starts from.
pub(crate) fn guarded(stmt: &Stmt) -> bool {
    match stmt {
        Stmt::Assume(t) => !t.is_true(),
        Stmt::Assign(_) | Stmt::Havoc(_) => false,
        Stmt::Seq(s) | Stmt::Choice(s) => s.iter().any(guarded),
    }
}

/// The chain of the path (its nodes' regions `facts`, the letters between them) and `last`,
/// in full (`simplify` false: every letter, no facts) or simplified.
pub(crate) fn chain(facts: &[&BTreeSet<Term>], word: &[usize], last: usize, letters: &[(TransFormula, bool)], simplify: bool) -> Chain {
    let n = facts.len() - 1;
    let mut kept_facts: Vec<Vec<Term>> = vec![vec![]; n + 1];
    let mut kept_letters = vec![!simplify; n];
    let mut first = 0;
    if simplify {
        let mut relevant: BTreeSet<Term> = letters[last].0.read_vars();
        for i in (0..=n).rev() {
            for f in facts[i] {
                let vars = free_vars(f);
                if !vars.is_disjoint(&relevant) {
                    kept_facts[i].push(f.clone());
                }
            }
            for f in &kept_facts[i] {
                for v in free_vars(f) {
                    relevant.remove(&v);
                }
            }
            if relevant.is_empty() || i == 0 {
                first = i;
                break;
            }
            let (tf, is_guard) = &letters[word[i - 1]];
            let assigned = tf.assigned_vars();
            let reads = tf.read_vars();
            if !assigned.is_disjoint(&relevant) || (*is_guard && !reads.is_disjoint(&relevant)) {
                kept_letters[i - 1] = true;
                relevant.retain(|v| !assigned.contains(v));
                relevant.extend(reads);
            }
        }
    }
    let mut items = vec![];
    let mut trace = vec![];
    for i in first..=n {
        let f = &kept_facts[i];
        items.push(Item::Facts(f.iter().map(Term::id).collect()));
        trace.push(TransFormula::assume(&smt::build::and(f)));
        let (l, tf) = match word.get(i) {
            Some(&l) => (l, &letters[l].0),
            None => (last, &letters[last].0),
        };
        if i == n || kept_letters[i] {
            items.push(Item::Letter(l));
            trace.push(tf.clone());
        } else {
            items.push(Item::Havoc(l));
            trace.push(TransFormula::havoc(&tf.assigned_vars().into_iter().collect::<Vec<_>>()));
        }
    }
    Chain { items, trace, first }
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
        let letters: Vec<(TransFormula, bool)> = vec![
            (TransFormula::assign(&[(x.clone(), int(0))]), false),
            (TransFormula::assign(&[(y.clone(), add(&[x.clone(), int(1)]))]), false),
            (TransFormula::assign(&[(m.clone(), int(5))]), false),
            (TransFormula::assume(&lt(&y, &int(0))), true),
            (TransFormula::assume(&ge(&x, &int(0))), true),
        ];
        let none = BTreeSet::new();
        let x_zero = BTreeSet::from([eq(&x, &int(0))]);
        // x := 0 ; [x = 0] y := x + 1 ; m := 5 ; then assume y < 0
        let full = chain(&[&none, &x_zero, &none, &none], &[0, 1, 2], 3, &letters, false);
        assert_eq!(full.first, 0);
        assert_eq!(full.trace.len(), 8);
        let short = chain(&[&none, &x_zero, &none, &none], &[0, 1, 2], 3, &letters, true);
        assert_eq!(short.first, 1, "the fact x = 0 settles x: x := 0 is not needed");
        assert_eq!(
            short.items,
            vec![
                Item::Facts(vec![eq(&x, &int(0)).id()]),
                Item::Letter(1),
                Item::Facts(vec![]),
                Item::Havoc(2),
                Item::Facts(vec![]),
                Item::Letter(3)
            ]
        );
        assert_eq!(short.position(2), 3);
        // a guard on a relevant variable is kept, one on another variable is not
        let guarded = chain(&[&none, &none, &none], &[4, 1], 3, &letters, true);
        assert_eq!(guarded.items[1], Item::Letter(4));
        let other = chain(&[&none, &none, &none], &[3, 1], 4, &letters, true);
        assert_eq!(other.items[1], Item::Havoc(3));
    }
}
