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
