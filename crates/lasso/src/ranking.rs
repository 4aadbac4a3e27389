//! The search for a ranking function: for each template, the Farkas constraints of its
//! conditions and of the supporting invariants on every disjunct of the loop (and of the
//! stem), solved by Z3; the rational solution scaled to integers and checked exactly.
//!
//! Supporting invariants `SIⱼ(x) ≥ 0` are premises of the loop's conditions, and a
//! multiplier times an unknown invariant is not linear. Each template is tried first with no
//! invariant and with one whose multiplier is 1 (linear, quick), then with
//! `Settings::supporting_invariants` of them whose multipliers are chosen from {0, 1}
//! (linear, slower to refute), then with free multipliers (non-linear real arithmetic, Z3's
//! nlsat). The multiphase and lexicographic templates have premises with unknown coefficients
//! of their own, treated alike.

use crate::cells::Cells;
use crate::dnf::{dnf, Dnf};
use crate::farkas::{Constraints, Mode};
use crate::relation::Relation;
use crate::solve::Oracle;
use crate::templates::{conditions, size, Unknown};
use crate::{validate, Lasso, LassoError, RankingFunction, Settings, Stage, Stats, Template};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use smt::build::{eq, ge, int};
use smt::linear::{to_term, LinExpr};
use smt::{SatResult, Sort, Term};
use std::collections::BTreeMap;

pub(crate) fn search(lasso: &Lasso, settings: &Settings, stats: &mut Stats) -> Result<Option<RankingFunction>, LassoError> {
    let exact = Relation::new(&lasso.stem, &lasso.looped)?;
    // The templates range over the cells the loop reads too, with the reads' congruence as far
    // as the loop's cases stay few enough to split. The stem's facts come second: a function
    // found with them may hold only where they do, and its certificate then covers less.
    let fitting = |variants: &[(bool, bool)]| {
        variants.iter().map(|&(facts, congruence)| Cells::of(&exact, facts, congruence)).chain([Cells::none(&exact)]).find_map(|cells| {
            let d = dnf(&cells.rel.looped, settings.max_disjuncts)?;
            Some((cells, d))
        })
    };
    let Some(plain) = fitting(&[(false, true), (false, false)]) else {
        stats.note = Some(format!("the loop has more than {} disjuncts", settings.max_disjuncts));
        return Ok(None);
    };
    let with_facts = fitting(&[(true, true), (true, false)]).filter(|(cells, _)| !cells.facts.is_empty());
    let mut oracle = Oracle::new(settings.timeout_ms, settings.deadline, stats);
    for (cells, loop_dnf) in [Some(plain), with_facts].into_iter().flatten() {
        tracing::debug!(
            cells = cells.terms.len(),
            facts = cells.facts.len(),
            disjuncts = loop_dnf.disjuncts.len(),
            "lasso: loop {}",
            cells.rel.looped
        );
        if let Some(rf) = templates(&exact, &cells, &loop_dnf, settings, &mut oracle) {
            return Ok(Some(rf));
        }
    }
    if oracle.expired() && oracle.stats.note.is_none() {
        oracle.stats.note = Some("deadline".into());
    }
    Ok(None)
}

/// The templates in order on the abstraction `cells` of the lasso `exact` (whose loop's DNF is
/// `loop_dnf`): the first candidate that the exact formulas confirm.
fn templates(exact: &Relation, cells: &Cells, loop_dnf: &Dnf, settings: &Settings, oracle: &mut Oracle) -> Option<RankingFunction> {
    let rel = &cells.rel;
    let tvars: Vec<Term> = rel.loop_vars.iter().filter(|x| x.sort.is_arith()).cloned().collect();
    if tvars.is_empty() {
        oracle.stats.note = Some("the loop has no arithmetic variables".into());
        return None;
    }
    // a stem too large to split is read as `true` (supporting invariants must then hold anywhere)
    let stem_dnf = dnf(&rel.stem, settings.max_disjuncts).unwrap_or(Dnf { disjuncts: vec![vec![]], exact: false });
    let si = settings.supporting_invariants;
    for t in &settings.templates {
        if size(t) == 0 || oracle.expired() {
            continue;
        }
        if !oracle.stats.tried.contains(t) {
            oracle.stats.tried.push(t.clone());
        }
        let has_premises = matches!(t, Template::Multiphase(k) | Template::Lexicographic(k) if *k > 1);
        // quick: no invariant, one with its multiplier fixed; then the choices of both
        let mut attempts = vec![(Mode::Fixed, 0)];
        if si > 0 {
            attempts.extend([(Mode::Fixed, 1), (Mode::Linear, si)]);
        }
        if si > 0 || has_premises {
            attempts.push((Mode::Nonlinear, si));
        }
        attempts.retain(|&(mode, _)| match settings.stage {
            Stage::Quick => mode == Mode::Fixed,
            Stage::Linear => mode == Mode::Linear,
            Stage::Nonlinear => mode == Mode::Nonlinear,
            Stage::All => true,
        });
        for (mode, m) in attempts {
            if oracle.expired() {
                break;
            }
            let Some(rf) = attempt(rel, &tvars, loop_dnf, &stem_dnf, t, m, mode, oracle) else {
                continue;
            };
            // the stem's facts join the supporting invariants only if they are needed
            let rf = cells.concrete(rf);
            let mut candidates = vec![rf.clone()];
            if !cells.facts.is_empty() {
                candidates.push(RankingFunction { supporting_invariants: [&rf.supporting_invariants[..], &cells.facts].concat(), ..rf });
            }
            let checked = candidates.into_iter().find(|rf| validate::ranking_function(exact, rf, oracle));
            if let Some(rf) = checked {
                tracing::debug!("lasso: {t} ranking function {:?} with {:?}", rf.components, rf.supporting_invariants);
                oracle.stats.found = Some(t.clone());
                return Some(rf);
            }
            oracle.stats.rejected += 1;
        }
    }
    None
}

/// One constraint problem: the template with `m` supporting invariants; a candidate (not yet
/// checked) from its solution.
#[allow(clippy::too_many_arguments)]
fn attempt(
    rel: &Relation,
    tvars: &[Term],
    loop_dnf: &Dnf,
    stem_dnf: &Dnf,
    t: &Template,
    m: usize,
    mode: Mode,
    oracle: &mut Oracle,
) -> Option<RankingFunction> {
    let comps: Vec<Unknown> = (0..size(t)).map(|i| Unknown::fresh(&format!("rank{i}"), tvars)).collect();
    let sis: Vec<Unknown> = (0..m).map(|j| Unknown::fresh(&format!("si{j}"), tvars)).collect();
    let mut cs = Constraints::default();
    // SI(pre) ≥ 0 as premises `-SI(pre) ≤ 0`
    let si_pre: Vec<_> = sis.iter().map(|s| s.at(&rel.pre).negated()).collect();
    for s in &sis {
        for d in &stem_dnf.disjuncts {
            cs.implication(d, &[], &[], &s.at(&rel.pre).negated(), mode);
        }
        for d in &loop_dnf.disjuncts {
            cs.implication(d, &si_pre, &[], &s.at(&rel.post).negated(), mode);
        }
    }
    let f: Vec<_> = comps.iter().map(|c| c.at(&rel.pre)).collect();
    let g: Vec<_> = comps.iter().map(|c| c.at(&rel.post)).collect();
    for c in conditions(t, &f, &g) {
        for d in &loop_dnf.disjuncts {
            cs.implication(d, &si_pre, &c.premises, &c.conclusion, mode);
        }
    }
    match oracle.check(&cs.terms) {
        SatResult::Sat => {}
        r => {
            tracing::trace!("lasso: {t} with {m} invariants ({mode:?}): {r:?}");
            return None;
        }
    }
    let unknowns: Vec<Term> = comps.iter().chain(&sis).flat_map(|u| u.unknowns()).collect();
    let mut values: BTreeMap<Term, BigRational> = unknowns.iter().cloned().zip(oracle.rationals(&unknowns)?).collect();
    if mode != Mode::Nonlinear {
        values = sparser(&comps, &sis, rel, &cs.terms, &unknowns, values, oracle);
    }
    let comp_values: Vec<(BTreeMap<Term, BigRational>, BigRational)> = comps.iter().map(|u| read(u, &values)).collect();
    // one factor and one sort for all components: the templates' conditions relate them
    let den = comp_values.iter().flat_map(|(c, k)| c.values().chain([k])).fold(BigInt::one(), |acc, r| acc.lcm(r.denom()));
    let factor = BigRational::from_integer(den);
    let sort = match comp_values.iter().any(|(c, _)| c.keys().any(|x| x.sort == Sort::Real)) {
        true => Sort::Real,
        false => Sort::Int,
    };
    let components = comp_values.iter().map(|(c, k)| affine_term(c, k, &factor, &sort)).collect();
    let supporting_invariants = sis.iter().filter_map(|u| invariant(&read(u, &values))).collect();
    Some(RankingFunction { template: t.clone(), components, supporting_invariants })
}

/// The most re-solved problems [`sparser`] tries (a group of variables together is one).
const MAX_SPARSER_TRIES: usize = 4;

/// A solution of `constraints` whose components use fewer variables, where one exists. First
/// without the variables the loop keeps: a bound that leans on one (`N + 4·i` of an outer loop
/// whose inner loop ran `N` times) needs the stem's facts about it, and the certificate's
/// predicates then count the inner loop's iterations instead of leaving them out. Then
/// supporting invariants over the kept variables alone (`x ≥ 1`, not `2³¹·x + y + z ≥ 200`,
/// which leans on the bounds of `int`). Then without each other variable in turn: a function
/// of fewer variables ranks more of the program's lassos (`2·i - j` of a loop that resets `j`
/// ranks the rounds where `j` stays below its reset value, `i` all of them).
fn sparser(
    comps: &[Unknown],
    sis: &[Unknown],
    rel: &Relation,
    constraints: &[Term],
    unknowns: &[Term],
    mut values: BTreeMap<Term, BigRational>,
    oracle: &mut Oracle,
) -> BTreeMap<Term, BigRational> {
    // the coefficients' unknowns: of the kept variables together, then the invariants' of the
    // changed ones together, then of each changed one
    let coeffs = || comps.iter().flat_map(|u| u.coeffs.iter());
    let kept: Vec<Term> = coeffs().filter(|(x, _)| !rel.changes(x)).map(|(_, c)| c.clone()).collect();
    let si_changed: Vec<Term> = sis.iter().flat_map(|u| u.coeffs.iter()).filter(|(x, _)| rel.changes(x)).map(|(_, c)| c.clone()).collect();
    let changed = coeffs().filter(|(x, _)| rel.changes(x)).map(|(_, c)| vec![c.clone()]);
    let groups = [kept, si_changed].into_iter().chain(changed);
    let mut zeroed: Vec<Term> = vec![];
    let mut tries = 0;
    for group in groups {
        if !group.iter().any(|c| values.get(c).is_some_and(|v| !v.is_zero())) {
            continue;
        }
        if tries == MAX_SPARSER_TRIES {
            break;
        }
        tries += 1;
        let zero = |c: &Term| eq(c, &smt::build::real(BigRational::zero()));
        let trial: Vec<Term> = constraints.iter().cloned().chain(zeroed.iter().cloned()).chain(group.iter().map(zero)).collect();
        if oracle.check(&trial) == SatResult::Sat {
            if let Some(v) = oracle.rationals(unknowns) {
                values = unknowns.iter().cloned().zip(v).collect();
                zeroed.extend(group.iter().map(zero));
            }
        }
    }
    values
}

/// The coefficients and constant of an unknown function in a solution.
fn read(u: &Unknown, values: &BTreeMap<Term, BigRational>) -> (BTreeMap<Term, BigRational>, BigRational) {
    let val = |t: &Term| values.get(t).cloned().unwrap_or_else(BigRational::zero);
    (u.coeffs.iter().map(|(x, c)| (x.clone(), val(c))).filter(|(_, c)| !c.is_zero()).collect(), val(&u.constant))
}

/// `factor·(Σ c·x + k)` as a term of `sort` (integral coefficients by the choice of `factor`).
fn affine_term(coeffs: &BTreeMap<Term, BigRational>, constant: &BigRational, factor: &BigRational, sort: &Sort) -> Term {
    let e = LinExpr { coeffs: coeffs.iter().map(|(x, c)| (x.clone(), c * factor)).collect(), constant: constant * factor };
    to_term(&e, sort)
}

/// `Σ d·x + d₀ ≥ 0` with coprime integer coefficients, over the integers with the constant
/// rounded down (the same integer points); `None` if it is trivially true.
fn invariant((coeffs, constant): &(BTreeMap<Term, BigRational>, BigRational)) -> Option<Term> {
    if coeffs.keys().any(|x| x.sort == Sort::Real) {
        let den = coeffs.values().chain([constant]).fold(BigInt::one(), |acc, r| acc.lcm(r.denom()));
        let factor = BigRational::from_integer(den);
        let e = LinExpr { coeffs: coeffs.iter().map(|(x, c)| (x.clone(), c * &factor)).collect(), constant: constant * &factor };
        return Some(ge(&to_term(&e, &Sort::Real), &smt::build::num(BigRational::zero(), &Sort::Real)));
    }
    let den = coeffs.values().fold(BigInt::one(), |acc, r| acc.lcm(r.denom()));
    let scaled: BTreeMap<Term, BigInt> =
        coeffs.iter().map(|(x, c)| (x.clone(), (c * BigRational::from_integer(den.clone())).to_integer())).collect();
    let g = scaled.values().fold(BigInt::zero(), |acc, c| acc.gcd(c));
    if g.is_zero() {
        return if constant.is_negative() { Some(smt::build::ff()) } else { None };
    }
    let factor = BigRational::from_integer(den) / BigRational::from_integer(g.clone());
    let e = LinExpr {
        coeffs: scaled.into_iter().map(|(x, c)| (x, BigRational::from_integer(c / &g))).collect(),
        constant: (constant * factor).floor(),
    };
    Some(ge(&to_term(&e, &Sort::Int), &int(0)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::Stmt;
    use smt::build::{add, gt};

    #[test]
    fn free_multipliers_find_supporting_invariants_too() {
        // y := -1; while (x > 0) x := x + y, with non-linear constraints only
        let (x, y) = (Term::var("x", Sort::Int), Term::var("y", Sort::Int));
        let stem = Stmt::Assign(vec![(y.clone(), int(-1))]).trans_formula();
        let body = Stmt::Seq(vec![Stmt::Assume(gt(&x, &int(0))), Stmt::Assign(vec![(x.clone(), add(&[x.clone(), y.clone()]))])]);
        let rel = Relation::new(&stem, &body.trans_formula()).unwrap();
        let (l, s) = (dnf(&rel.looped, 32).unwrap(), dnf(&rel.stem, 32).unwrap());
        let mut stats = Stats::default();
        let mut oracle = Oracle::new(10_000, None, &mut stats);
        let tvars = [x.clone(), y.clone()];
        assert!(attempt(&rel, &tvars, &l, &s, &Template::Affine, 0, Mode::Nonlinear, &mut oracle).is_none());
        let rf = attempt(&rel, &tvars, &l, &s, &Template::Affine, 1, Mode::Nonlinear, &mut oracle).expect("a candidate");
        assert_eq!(rf.supporting_invariants.len(), 1);
        assert!(validate::ranking_function(&rel, &rf, &mut oracle));
    }
}
