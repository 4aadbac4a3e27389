//! Geometric nontermination arguments over array cells (`while (a[i] >= 0) a[i]++`).
//!
//! The loop's cells at the loop head (`lasso::cells`: `a[i]` with `i` a variable the loop
//! keeps) become scalar variables, every array and every conjunct that mentions one is dropped,
//! and the scalar search of [`crate::nontermination`] proposes a ray over the scalars and cells.
//! The check is exact: the stem reaches `x0` and one iteration leads to `x1` with each cell
//! holding its value there (`a[i] = c`), and for every `kᵢ ≥ 0` the loop steps from the arrays
//! `store(B, i, c + Σkᵢyᵢ)` to `store(B, i, c + Σ(1 + λⱼkⱼ + μⱼkⱼ₊₁)yⱼ)` (the scalars as in the
//! scalar check) *for every array `B`*, the arrays the loop reached included.

use crate::cells::Cells;
use crate::nontermination::{along, check, rays, Ray};
use crate::relation::Relation;
use crate::solve::Oracle;
use crate::{NonterminationArgument, Settings};
use smt::build::{and, eq, select, store};
use smt::subst::{conjuncts, free_vars, substitute};
use smt::{Sort, Term};
use std::collections::{BTreeMap, HashMap};

/// A geometric argument whose states name array cells (`select(a, i)` over canonical
/// variables) besides variables, or `None`.
pub(crate) fn search(rel: &Relation, settings: &Settings, oracle: &mut Oracle) -> Option<NonterminationArgument> {
    // the loop's auxiliary variables would need values along the ray
    if !rel.loop_aux.is_empty() {
        oracle.stats.note = Some("auxiliary variables in a loop over arrays".into());
        return None;
    }
    let cells = Cells::of(rel, false, false);
    // each cell one read of an array variable at an index the loop keeps
    let keeps = |t: &Term| free_vars(t).iter().all(|v| rel.consts.contains(v) || rel.vars.contains(v) && !rel.changes(v));
    let simple = |cell: &Term| matches!(cell.args.as_slice(), [a, i] if a.is_var() && rel.vars.contains(a) && keeps(i));
    if cells.terms.is_empty() || !cells.terms.values().all(simple) {
        oracle.stats.note = Some("array reads other than cells at indices the loop keeps".into());
        return None;
    }
    let scalar = scalars(&cells.rel);
    let arrays: Vec<&Term> = rel.vars.iter().filter(|v| matches!(v.sort, Sort::Array(..))).collect();
    let found = rays(&scalar, settings, oracle, &mut |arg, oracle| {
        let at = |state: &BTreeMap<Term, Term>, instance: &BTreeMap<Term, Term>| -> Vec<Term> {
            cells.terms.iter().map(|(c, cell)| eq(&select(&instance[&cell.args[0]], &index(cell, state)), &state[c])).collect()
        };
        let pins = [at(&arg.x0, &rel.pre), at(&arg.x1, &rel.post)].concat();
        let along_ray = |ray: &Ray| -> HashMap<Term, Term> {
            let mut sigma = HashMap::new();
            for a in &arrays {
                let base = Term::fresh("base", a.sort.clone());
                let at_ray = |coefs: &[Term]| {
                    cells.terms.iter().filter(|(_, cell)| cell.args[0] == **a).fold(base.clone(), |arr, (c, cell)| {
                        let ys: Vec<Term> = arg.directions.iter().map(|y| y[c].clone()).collect();
                        store(&arr, &index(cell, &arg.x1), &along(&arg.x1[c], &ys, coefs, &c.sort))
                    })
                };
                sigma.insert(rel.pre[*a].clone(), at_ray(&ray.ks));
                if rel.changes(a) {
                    sigma.insert(rel.post[*a].clone(), at_ray(&ray.next));
                }
            }
            sigma
        };
        check(rel, arg, &pins, &along_ray, oracle)
    })?;
    // the scalars keep their names, the cells become selects; the reads left are no loop aux
    Some(found.into_argument(&|x| cells.terms.get(&x).cloned().unwrap_or(x), &|_| None))
}

/// The index of `cell` (`select(a, i)` over canonical variables) in `state`.
fn index(cell: &Term, state: &BTreeMap<Term, Term>) -> Term {
    substitute(&cell.args[1], &state.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
}

/// The relation without its arrays: their variables and every conjunct that mentions one are
/// dropped (the cells stand for what the loop reads), and the reads left (opaque variables) are
/// the loop's auxiliary variables.
fn scalars(rel: &Relation) -> Relation {
    let is_array = |v: &Term| matches!(v.sort, Sort::Array(..));
    let without = |t: &Term| and(&conjuncts(t).into_iter().filter(|c| !free_vars(c).iter().any(is_array)).collect::<Vec<_>>());
    let mut out = rel.clone();
    out.vars.retain(|v| !is_array(v));
    out.loop_vars.retain(|v| !is_array(v));
    out.pre.retain(|v, _| !is_array(v));
    out.post.retain(|v, _| !is_array(v));
    out.stem = without(&rel.stem);
    out.looped = without(&rel.looped);
    let states: Vec<&Term> = out.pre.values().chain(out.post.values()).collect();
    out.loop_aux =
        free_vars(&out.looped).into_iter().filter(|v| !states.contains(&v) && !out.consts.contains(v)).map(|v| (v.clone(), v)).collect();
    out
}
