//! Statements and their transition formulas.
//!
//! Program variables are `smt` variables with the variable's own name (the *canonical*
//! instance). A statement's semantics is a [`TransFormula`]: a formula over in-instances,
//! out-instances and auxiliary variables.

use smt::build::{and, eq, or, tt};
use smt::subst::{free_vars, substitute};
use smt::Term;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A program statement: the letter of the program automaton.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stmt {
    /// Blocks unless the formula holds.
    Assume(Term),
    /// Parallel assignment `x1, .., xn := e1, .., en`.
    Assign(Vec<(Term, Term)>),
    /// Nondeterministic assignment.
    Havoc(Vec<Term>),
    /// Sequential composition (large-block encoding).
    Seq(Vec<Stmt>),
    /// Nondeterministic choice (large-block encoding).
    Choice(Vec<Stmt>),
}

/// The semantics of a statement: `formula` relates the values of `in_vars` before and
/// `out_vars` after. A variable not in `out_vars` keeps its value; a variable whose in- and
/// out-instance are the same term is read and kept. `aux_vars` are existentially quantified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransFormula {
    pub formula: Term,
    pub in_vars: BTreeMap<Term, Term>,
    pub out_vars: BTreeMap<Term, Term>,
    pub aux_vars: BTreeSet<Term>,
}

impl TransFormula {
    /// The identity relation.
    pub fn skip() -> TransFormula {
        TransFormula::assume(&tt())
    }

    /// `assume φ` over canonical variables.
    pub fn assume(phi: &Term) -> TransFormula {
        let vars: BTreeMap<Term, Term> = free_vars(phi).into_iter().map(|v| (v.clone(), v)).collect();
        TransFormula { formula: phi.clone(), in_vars: vars.clone(), out_vars: vars, aux_vars: BTreeSet::new() }
    }

    /// Parallel assignment.
    pub fn assign(pairs: &[(Term, Term)]) -> TransFormula {
        let mut in_vars: BTreeMap<Term, Term> = BTreeMap::new();
        for (_, e) in pairs {
            for v in free_vars(e) {
                in_vars.insert(v.clone(), v);
            }
        }
        let mut out_vars: BTreeMap<Term, Term> = in_vars.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        let mut conj = Vec::new();
        for (x, e) in pairs {
            let fresh = Term::fresh(x.var_name().unwrap_or("v"), x.sort.clone());
            conj.push(eq(&fresh, e));
            out_vars.insert(x.clone(), fresh);
        }
        TransFormula { formula: and(&conj), in_vars, out_vars, aux_vars: BTreeSet::new() }
    }

    /// Havoc of the given variables.
    pub fn havoc(vars: &[Term]) -> TransFormula {
        let out_vars = vars.iter().map(|x| (x.clone(), Term::fresh(x.var_name().unwrap_or("v"), x.sort.clone()))).collect();
        TransFormula { formula: tt(), in_vars: BTreeMap::new(), out_vars, aux_vars: BTreeSet::new() }
    }

    /// The variables whose value may change.
    pub fn assigned_vars(&self) -> BTreeSet<Term> {
        self.out_vars.iter().filter(|(k, v)| self.in_vars.get(*k) != Some(*v)).map(|(k, _)| k.clone()).collect()
    }

    /// The variables read (their in-instance occurs in the formula).
    pub fn read_vars(&self) -> BTreeSet<Term> {
        let fv = free_vars(&self.formula);
        self.in_vars.iter().filter(|(_, v)| fv.contains(*v)).map(|(k, _)| k.clone()).collect()
    }

    /// Renames every instance apart with fresh names (so two formulas share nothing).
    pub fn fresh_copy(&self) -> TransFormula {
        let mut map = HashMap::new();
        let rename = |t: &Term, map: &mut HashMap<Term, Term>| -> Term {
            map.entry(t.clone()).or_insert_with(|| Term::fresh(t.var_name().unwrap_or("v"), t.sort.clone())).clone()
        };
        let in_vars = self.in_vars.iter().map(|(k, v)| (k.clone(), rename(v, &mut map))).collect();
        let out_vars = self.out_vars.iter().map(|(k, v)| (k.clone(), rename(v, &mut map))).collect();
        let aux_vars = self.aux_vars.iter().map(|v| rename(v, &mut map)).collect();
        TransFormula { formula: substitute(&self.formula, &map), in_vars, out_vars, aux_vars }
    }

    /// Sequential composition `self ; next`.
    pub fn sequence(&self, next: &TransFormula) -> TransFormula {
        let a = self.fresh_copy();
        let b = next.fresh_copy();
        // Glue: b's in-instance of x is a's out-instance (or a's in-instance if a keeps x).
        let mut glue = HashMap::new();
        let mut in_vars = a.in_vars.clone();
        let mut aux: BTreeSet<Term> = a.aux_vars.union(&b.aux_vars).cloned().collect();
        for (x, bin) in &b.in_vars {
            let mid = match a.out_vars.get(x) {
                Some(t) => t.clone(),
                None => in_vars.entry(x.clone()).or_insert_with(|| Term::fresh(x.var_name().unwrap_or("v"), x.sort.clone())).clone(),
            };
            glue.insert(bin.clone(), mid);
        }
        let b_formula = substitute(&b.formula, &glue);
        let mut out_vars = a.out_vars.clone();
        for (x, bout) in &b.out_vars {
            let v = glue.get(bout).cloned().unwrap_or_else(|| bout.clone());
            if let Some(prev) = out_vars.insert(x.clone(), v.clone()) {
                if prev != v && Some(&prev) != in_vars.get(x) {
                    aux.insert(prev);
                }
            }
        }
        TransFormula { formula: and(&[a.formula, b_formula]), in_vars, out_vars, aux_vars: aux }
    }

    /// Sequential composition of `parts` in order (the identity if there are none). Each part is
    /// renamed once: folding [`Self::sequence`] would rename the growing prefix at every step,
    /// quadratic in a long block of straight-line code.
    pub fn sequence_all<'a>(parts: impl IntoIterator<Item = &'a TransFormula>) -> TransFormula {
        let fresh = |x: &Term| Term::fresh(x.var_name().unwrap_or("v"), x.sort.clone());
        let mut in_vars: BTreeMap<Term, Term> = BTreeMap::new();
        // each variable's instance after the parts so far
        let mut current: BTreeMap<Term, Term> = BTreeMap::new();
        let mut aux_vars = BTreeSet::new();
        let mut conj = vec![];
        for part in parts {
            let mut map = HashMap::new();
            for (x, i) in &part.in_vars {
                let now = current.entry(x.clone()).or_insert_with(|| in_vars.entry(x.clone()).or_insert_with(|| fresh(x)).clone());
                map.insert(i.clone(), now.clone());
            }
            for a in &part.aux_vars {
                let f = fresh(a);
                aux_vars.insert(f.clone());
                map.insert(a.clone(), f);
            }
            for (x, o) in part.out_vars.iter().filter(|(x, o)| part.in_vars.get(*x) != Some(*o)) {
                let f = fresh(x);
                map.insert(o.clone(), f.clone());
                // an instance overwritten inside the block is existentially quantified
                if let Some(before) = current.insert(x.clone(), f) {
                    if in_vars.get(x) != Some(&before) {
                        aux_vars.insert(before);
                    }
                }
            }
            conj.push(substitute(&part.formula, &map));
        }
        TransFormula { formula: and(&conj), in_vars, out_vars: current, aux_vars }
    }

    /// Nondeterministic choice between several transition formulas.
    pub fn choice(branches: &[TransFormula]) -> TransFormula {
        let copies: Vec<TransFormula> = branches.iter().map(|b| b.fresh_copy()).collect();
        let mut in_vars: BTreeMap<Term, Term> = BTreeMap::new();
        let mut out_vars: BTreeMap<Term, Term> = BTreeMap::new();
        let mut aux = BTreeSet::new();
        let mut mentioned = BTreeSet::new();
        for c in &copies {
            mentioned.extend(c.in_vars.keys().cloned());
            mentioned.extend(c.out_vars.keys().cloned());
        }
        for x in &mentioned {
            in_vars.insert(x.clone(), Term::fresh(x.var_name().unwrap_or("v"), x.sort.clone()));
        }
        let changed: BTreeSet<Term> = copies.iter().flat_map(|c| c.assigned_vars()).collect();
        for x in &mentioned {
            let o = if changed.contains(x) { Term::fresh(x.var_name().unwrap_or("v"), x.sort.clone()) } else { in_vars[x].clone() };
            out_vars.insert(x.clone(), o);
        }
        let mut disj = Vec::new();
        for c in &copies {
            let mut map = HashMap::new();
            let mut conj = Vec::new();
            for (x, v) in &c.in_vars {
                map.insert(v.clone(), in_vars[x].clone());
            }
            for x in &mentioned {
                let o = &out_vars[x];
                match c.out_vars.get(x) {
                    Some(v) if c.in_vars.get(x) == Some(v) => {
                        if o != &in_vars[x] {
                            conj.push(eq(o, &in_vars[x]));
                        }
                    }
                    Some(v) => {
                        map.insert(v.clone(), o.clone());
                    }
                    None => {
                        if o != &in_vars[x] {
                            conj.push(eq(o, &in_vars[x]));
                        }
                    }
                }
            }
            aux.extend(c.aux_vars.iter().cloned());
            conj.insert(0, substitute(&c.formula, &map));
            disj.push(and(&conj));
        }
        TransFormula { formula: or(&disj), in_vars, out_vars, aux_vars: aux }
    }
}

impl Stmt {
    /// The transition formula of the statement.
    pub fn trans_formula(&self) -> TransFormula {
        match self {
            Stmt::Assume(phi) => TransFormula::assume(phi),
            Stmt::Assign(pairs) => TransFormula::assign(pairs),
            Stmt::Havoc(vars) => TransFormula::havoc(vars),
            Stmt::Seq(parts) => TransFormula::sequence_all(&parts.iter().map(Stmt::trans_formula).collect::<Vec<_>>()),
            Stmt::Choice(branches) => TransFormula::choice(&branches.iter().map(|b| b.trans_formula()).collect::<Vec<_>>()),
        }
    }
}
