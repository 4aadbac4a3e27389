//! The check every ranking function passes before it is returned: on the exact formulas
//! (nothing dropped, integer semantics), (1) the stem establishes the supporting invariants,
//! (2) the loop preserves them, (3) from a state satisfying them the loop establishes
//! `decreases` of the components' values before the iteration. Each as one query that must
//! be `Unsat`; anything else rejects the candidate.

use crate::relation::Relation;
use crate::solve::Oracle;
use crate::RankingFunction;
use smt::build::{and, not};
use smt::{SatResult, Term};

/// Whether the supporting invariants and the ranking function are proved for the lasso.
pub(crate) fn ranking_function(rel: &Relation, rf: &RankingFunction, oracle: &mut Oracle) -> bool {
    let si = and(&rf.supporting_invariants);
    let si_pre = rel.at_pre(&si);
    let old: Vec<Term> = rf.components.iter().map(|c| rel.at_pre(c)).collect();
    let dec = rel.at_post(&rf.decreases(&old));
    let checks = [
        ("stem establishes the supporting invariants", vec![rel.stem.clone(), not(&si_pre)]),
        ("loop preserves the supporting invariants", vec![si_pre.clone(), rel.looped.clone(), not(&rel.at_post(&si))]),
        ("loop decreases the ranking function", vec![si_pre, rel.looped.clone(), not(&dec)]),
    ];
    for (what, query) in checks {
        if query.iter().any(|t| t.is_false()) {
            continue;
        }
        let r = oracle.check(&query);
        if r != SatResult::Unsat {
            tracing::debug!("lasso: {} {rf:?} rejected: {what} is not proved ({r:?})", rf.template);
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Stats, Template};
    use ir::Stmt;
    use smt::build::{add, gt, int};
    use smt::Sort;

    #[test]
    fn wrong_candidates_are_rejected() {
        // while (x > 0) x := x + 1 with the "ranking function" x
        let x = Term::var("x", Sort::Int);
        let body = Stmt::Seq(vec![Stmt::Assume(gt(&x, &int(0))), Stmt::Assign(vec![(x.clone(), add(&[x.clone(), int(1)]))])]);
        let rel = Relation::new(&ir::TransFormula::skip(), &body.trans_formula()).unwrap();
        let mut stats = Stats::default();
        let mut oracle = Oracle::new(5000, None, &mut stats);
        let rf = RankingFunction { template: Template::Affine, components: vec![x.clone()], supporting_invariants: vec![] };
        assert!(!ranking_function(&rel, &rf, &mut oracle));
        // an invariant the stem does not establish
        let down = Stmt::Seq(vec![Stmt::Assume(gt(&x, &int(0))), Stmt::Assign(vec![(x.clone(), add(&[x.clone(), int(-1)]))])]);
        let rel = Relation::new(&ir::TransFormula::skip(), &down.trans_formula()).unwrap();
        let good = RankingFunction { template: Template::Affine, components: vec![x.clone()], supporting_invariants: vec![] };
        assert!(ranking_function(&rel, &good, &mut oracle));
        let bad = RankingFunction { supporting_invariants: vec![gt(&x, &int(5))], ..good.clone() };
        assert!(!ranking_function(&rel, &bad, &mut oracle));
        // nested-2 components of an affine function are not a nested ranking function here
        let wrong = RankingFunction { template: Template::Nested(2), components: vec![int(0), x.clone()], ..good };
        assert!(!ranking_function(&rel, &wrong, &mut oracle));
    }
}
