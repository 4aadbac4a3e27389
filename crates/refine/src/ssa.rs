//! The SSA trace formula of a trace: one conjunct per step, instances renamed to versions.
//!
//! Position `i` is the point before step `i` (and after step `i - 1`); a trace of `n` steps
//! has positions `0..=n`. Every canonical variable the trace mentions has a *version* (an SSA
//! variable) current at each position. Step `i` reads the versions current at position `i` and
//! defines a new version, current from position `i + 1` on, for each variable it assigns.

use ir::TransFormula;
use smt::subst::substitute;
use smt::Term;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The SSA form of a trace.
#[derive(Clone, Debug)]
pub struct Ssa {
    /// One conjunct per step, over versions (and step-local auxiliary variables).
    pub conjuncts: Vec<Term>,
    /// `versions[i]`: the version of each canonical variable current at position `i` (`n + 1` maps).
    pub versions: Vec<BTreeMap<Term, Term>>,
}

/// The name under which step `i` is asserted, so that unsat cores name steps.
pub fn step_name(i: usize) -> String {
    format!("s{i}")
}

/// The step a name from [`step_name`] stands for.
pub fn step_of_name(name: &str) -> Option<usize> {
    name.strip_prefix('s')?.parse().ok()
}

/// The name under which conjunct `j` of step `i` is asserted (for cores finer than steps).
pub fn conjunct_name(i: usize, j: usize) -> String {
    format!("c{i}_{j}")
}

/// The step and conjunct a name from [`conjunct_name`] stands for.
pub fn conjunct_of_name(name: &str) -> Option<(usize, usize)> {
    let (i, j) = name.strip_prefix('c')?.split_once('_')?;
    Some((i.parse().ok()?, j.parse().ok()?))
}

/// The canonical variables a transition formula mentions (in or out).
pub fn mentioned_vars(tf: &TransFormula) -> BTreeSet<Term> {
    tf.in_vars.keys().chain(tf.out_vars.keys()).cloned().collect()
}

fn version_var(x: &Term, pos: usize) -> Term {
    Term::var(&format!("{}@ssa{pos}", x.var_name().unwrap_or("v")), x.sort.clone())
}

pub(crate) fn aux_var(a: &Term, step: usize) -> Term {
    Term::var(&format!("{}@aux{step}", a.var_name().unwrap_or("v")), a.sort.clone())
}

/// Renames the instances of `tf` for a step that reads the versions `cur` and defines the
/// versions `next` for the variables it assigns; aux variables are renamed by `aux`.
pub fn rename_step(tf: &TransFormula, cur: &BTreeMap<Term, Term>, next: &BTreeMap<Term, Term>, aux: &mut dyn FnMut(&Term) -> Term) -> Term {
    let mut map: HashMap<Term, Term> = HashMap::new();
    for (x, inst) in &tf.in_vars {
        if let Some(v) = cur.get(x) {
            map.insert(inst.clone(), v.clone());
        }
    }
    for (x, inst) in &tf.out_vars {
        if tf.in_vars.get(x) == Some(inst) {
            continue;
        }
        if let Some(v) = next.get(x) {
            map.insert(inst.clone(), v.clone());
        }
    }
    for a in &tf.aux_vars {
        let r = aux(a);
        map.insert(a.clone(), r);
    }
    substitute(&tf.formula, &map)
}

/// Builds the SSA trace formula of `trace`.
pub fn ssa(trace: &[TransFormula]) -> Ssa {
    ssa_scoped(trace, None)
}

/// The SSA trace formula of a nested trace (with `nesting`): after a return, the variables that
/// are not global are current in the versions of its matching call's position (the caller's
/// frame comes back), globals in the versions at the callee's exit; the return's own formula
/// reads the callee's exit and defines new versions of the caller's result variables.
pub fn ssa_scoped(trace: &[TransFormula], nesting: Option<&crate::nested::Nesting>) -> Ssa {
    let vars: BTreeSet<Term> = trace.iter().flat_map(mentioned_vars).collect();
    let mut cur: BTreeMap<Term, Term> = vars.iter().map(|x| (x.clone(), version_var(x, 0))).collect();
    let mut versions = vec![cur.clone()];
    let mut conjuncts = Vec::with_capacity(trace.len());
    for (i, tf) in trace.iter().enumerate() {
        let assigned = tf.assigned_vars();
        let mut next = cur.clone();
        if let Some((n, c)) = nesting.and_then(|n| Some((n, n.matching_call(i)?))) {
            next.extend(versions[c].iter().filter(|(x, _)| !n.globals.contains(*x)).map(|(x, v)| (x.clone(), v.clone())));
        }
        for x in &assigned {
            next.insert(x.clone(), version_var(x, i + 1));
        }
        let f = rename_step(tf, &cur, &next, &mut |a| aux_var(a, i));
        conjuncts.push(f);
        cur = next;
        versions.push(cur.clone());
    }
    Ssa { conjuncts, versions }
}

impl Ssa {
    /// The map from versions current at position `pos` back to canonical variables.
    pub fn back_to_canonical(&self, pos: usize) -> HashMap<Term, Term> {
        self.versions.get(pos).map(|m| m.iter().map(|(x, v)| (v.clone(), x.clone())).collect()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::Stmt;
    use smt::build::{add, gt, int};
    use smt::Sort;

    #[test]
    fn versions_and_conjuncts() {
        let x = Term::var("x", Sort::Int);
        let y = Term::var("y", Sort::Int);
        let trace = vec![
            Stmt::Assign(vec![(x.clone(), add(&[x.clone(), int(1)]))]).trans_formula(),
            Stmt::Havoc(vec![y.clone()]).trans_formula(),
            Stmt::Assume(gt(&x, &y)).trans_formula(),
        ];
        let s = ssa(&trace);
        assert_eq!(s.versions.len(), 4);
        let v = |name: &str| Term::var(name, Sort::Int);
        assert_eq!(s.versions[0][&x], v("x@ssa0"));
        assert_eq!(s.versions[1][&x], v("x@ssa1"));
        assert_eq!(s.versions[3][&x], v("x@ssa1"));
        assert_eq!(s.versions[1][&y], v("y@ssa0"));
        assert_eq!(s.versions[2][&y], v("y@ssa2"));
        assert_eq!(s.conjuncts[0], smt::build::eq(&v("x@ssa1"), &add(&[v("x@ssa0"), int(1)])));
        assert!(s.conjuncts[1].is_true());
        assert_eq!(s.conjuncts[2], gt(&v("x@ssa1"), &v("y@ssa2")));
        assert_eq!(s.back_to_canonical(3)[&v("y@ssa2")], y);
        // step 1 assigns y alone: only its version changes
        let changed: BTreeSet<Term> = s.versions[1].iter().filter(|(x, v)| s.versions[2][*x] != **v).map(|(x, _)| x.clone()).collect();
        assert_eq!(changed, [y].into_iter().collect());
    }

    #[test]
    fn step_names_round_trip() {
        for i in [0, 7, 123] {
            assert_eq!(step_of_name(&step_name(i)), Some(i));
        }
        assert_eq!(step_of_name("x3"), None);
    }
}
