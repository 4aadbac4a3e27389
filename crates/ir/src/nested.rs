//! Procedures as nested words: the preparation of an entry whose call graph has cycles.
//!
//! Calls of non-recursive procedures are inlined as by [`crate::prepare`]; a call of a
//! procedure on a cycle of the call graph stays a `Call` edge, and that procedure gets a CFG of
//! its own. An engine reads each `Call` edge as two letters:
//! - the *call* ([`NestedProgram::call_stmt`]): binds the callee's parameters to the arguments
//!   and `old(g)` to `g`, and havocs the callee's results and locals — an ordinary statement
//!   over the (shared) canonical variables;
//! - the *return* ([`ReturnLetter`]): assigns the callee's results to the caller's result
//!   variables; every variable that is not global gets back its value at the call (its
//!   hierarchical predecessor), globals flow through from the callee's exit.

use crate::cfg::{old_var, Call, Cfg, Label, Procedure, Program, ThreadOp};
use crate::inline::{mentions, prepare_keeping, Inliner, PrepareError};
use crate::stmt::{Stmt, TransFormula};
use smt::build::{and, eq, tt};
use smt::subst::{free_vars, substitute};
use smt::Term;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// An entry prepared for nested words.
#[derive(Clone, Debug)]
pub struct NestedProgram {
    /// The entry's CFG, prepared like [`crate::prepare`] (axioms, preconditions, `old` snapshots).
    pub entry: Cfg,
    /// One CFG per recursive procedure reachable from the entry: its preconditions are checked
    /// at its entry (for every caller), then its body.
    pub procedures: BTreeMap<String, Cfg>,
    /// Variables whose value flows through calls and returns: mutable globals and constants.
    pub globals: BTreeSet<Term>,
    /// For each recursive procedure, the globals it may assign, directly or through calls.
    pub modified: BTreeMap<String, BTreeSet<Term>>,
    /// Every variable of the CFGs that is not global.
    pub locals: BTreeSet<Term>,
    /// For each recursive procedure: parameters, results, locals, the `old(g)` it mentions.
    frames: BTreeMap<String, Frame>,
}

#[derive(Clone, Debug)]
struct Frame {
    params: Vec<Term>,
    rets: Vec<Term>,
    locals: Vec<Term>,
    olds: Vec<(Term, Term)>,
    /// The variables a call of the procedure may change before it returns: its frame and the
    /// variables its CFG assigns (a nested call's changes are undone by its return).
    assigned: BTreeSet<Term>,
    /// The variables its CFG assigns (a parameter outside keeps its argument's value).
    body_assigned: BTreeSet<Term>,
}

/// The variables a CFG mentions, and those it assigns (statements and call results).
fn cfg_vars(cfg: &Cfg) -> (BTreeSet<Term>, BTreeSet<Term>) {
    let (mut mentioned, mut assigned) = (BTreeSet::new(), BTreeSet::new());
    for e in &cfg.edges {
        match &e.label {
            Label::Stmt(_) => {
                let tf = e.trans_formula();
                mentioned.extend(tf.in_vars.keys().chain(tf.out_vars.keys()).cloned());
                assigned.extend(tf.assigned_vars());
            }
            Label::Call(c) => {
                mentioned.extend(c.args.iter().flat_map(free_vars).chain(c.rets.iter().cloned()));
                assigned.extend(c.rets.iter().cloned());
            }
            Label::Thread(op) => {
                mentioned.extend(op.terms().iter().flat_map(free_vars));
                if let ThreadOp::Join { rets, .. } = op {
                    assigned.extend(rets.iter().cloned());
                }
            }
        }
    }
    (mentioned, assigned)
}

/// The procedures on a cycle of the call graph that `entry` can reach.
pub fn recursive_procedures(program: &Program, entry: &str) -> BTreeSet<String> {
    let callees = |p: &str| -> BTreeSet<String> {
        let body = program.procedures.get(p).and_then(|p| p.body.as_ref());
        let calls = body.into_iter().flat_map(|b| b.edges.iter()).filter_map(|e| match &e.label {
            Label::Call(c) => Some(c.callee.clone()),
            Label::Stmt(_) | Label::Thread(_) => None,
        });
        calls.filter(|c| program.procedures.get(c).is_some_and(|q| q.body.is_some())).collect()
    };
    let reach = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<String> = callees(from).into_iter().collect();
        while let Some(p) = stack.pop() {
            if seen.insert(p.clone()) {
                stack.extend(callees(&p));
            }
        }
        seen
    };
    let mut from_entry = reach(entry);
    from_entry.insert(entry.to_string());
    from_entry.into_iter().filter(|p| reach(p).contains(p)).collect()
}

/// The entry prepared for nested words, or `None` when it reaches no recursion (then
/// [`crate::prepare`] inlines every call).
pub fn prepare_nested(program: &Program, entry: &str) -> Result<Option<NestedProgram>, PrepareError> {
    let rec = recursive_procedures(program, entry);
    if rec.is_empty() {
        return Ok(None);
    }
    let entry_cfg = prepare_keeping(program, entry, rec.clone())?;
    let mut procedures = BTreeMap::new();
    let mut frames = BTreeMap::new();
    let mut locals = cfg_vars(&entry_cfg).0;
    let modified = modified_globals(&program.procedures, &program.globals);
    for name in &rec {
        let proc = program.procedures.get(name).ok_or_else(|| PrepareError::UnknownProcedure(name.clone()))?;
        let mut inl = Inliner::new(program, rec.clone());
        let pre = inl.cfg.add_loc(format!("{name}.pre"), proc.pos.clone());
        inl.cfg.entry = pre;
        let (b_entry, b_exit) = inl.copy_body(proc, &HashMap::new())?;
        inl.check_requires(pre, &proc.requires, &HashMap::new(), &proc.pos);
        let requires = and(&proc.requires.iter().map(|r| r.formula.clone()).collect::<Vec<_>>());
        inl.cfg.add_stmt(pre, b_entry, Stmt::Assume(requires), proc.pos.clone());
        inl.cfg.exit = b_exit;
        // `old(g)` for every global the procedure mentions as old or may modify: assertions in
        // the callee then relate `g` to its value at the call (the summary of the callee).
        let olds: Vec<(Term, Term)> = program
            .globals
            .iter()
            .map(|g| (old_var(g), g.clone()))
            .filter(|(o, g)| mentions(proc, o) || modified.get(name).is_some_and(|m| m.contains(g)))
            .collect();
        let (mentioned, body_assigned) = cfg_vars(&inl.cfg);
        let mut assigned = body_assigned.clone();
        assigned.extend(proc.params.iter().chain(&proc.rets).chain(&proc.locals).chain(olds.iter().map(|(o, _)| o)).cloned());
        locals.extend(mentioned.into_iter().chain(assigned.iter().cloned()));
        procedures.insert(name.clone(), inl.cfg);
        frames.insert(
            name.clone(),
            Frame { params: proc.params.clone(), rets: proc.rets.clone(), locals: proc.locals.clone(), olds, assigned, body_assigned },
        );
    }
    let globals: BTreeSet<Term> = program.globals.iter().chain(&program.consts).cloned().collect();
    locals.retain(|x| !globals.contains(x));
    let modified = modified.into_iter().filter(|(p, _)| rec.contains(p)).collect();
    Ok(Some(NestedProgram { entry: entry_cfg, procedures, globals, modified, locals, frames }))
}

/// The globals each procedure may assign, directly or through calls (a fixpoint on the call
/// graph; a procedure without body assigns its `modifies`).
pub fn modified_globals(procs: &BTreeMap<String, Procedure>, globals: &[Term]) -> BTreeMap<String, BTreeSet<Term>> {
    let gs: BTreeSet<&Term> = globals.iter().collect();
    let mut m: BTreeMap<String, BTreeSet<Term>> = BTreeMap::new();
    let mut calls: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (name, p) in procs {
        let mut own: BTreeSet<Term> = BTreeSet::new();
        match &p.body {
            None => own.extend(p.modifies.iter().cloned()),
            Some(b) => {
                for e in &b.edges {
                    match &e.label {
                        Label::Stmt(_) => own.extend(e.trans_formula().assigned_vars().into_iter().filter(|v| gs.contains(v))),
                        Label::Call(c) => {
                            own.extend(c.rets.iter().filter(|v| gs.contains(v)).cloned());
                            calls.entry(name.clone()).or_default().push(c.callee.clone());
                        }
                        Label::Thread(ThreadOp::Join { rets, .. }) => own.extend(rets.iter().filter(|v| gs.contains(v)).cloned()),
                        Label::Thread(_) => {}
                    }
                }
            }
        }
        m.insert(name.clone(), own);
    }
    loop {
        let mut changed = false;
        for (name, callees) in &calls {
            let add: BTreeSet<Term> = callees.iter().flat_map(|c| m.get(c).cloned().unwrap_or_default()).collect();
            let own = m.entry(name.clone()).or_default();
            let before = own.len();
            own.extend(add);
            changed |= own.len() != before;
        }
        if !changed {
            return m;
        }
    }
}

/// The return of one call site: `lhs := callee's results`, the rest of the caller's frame
/// restored from the call site.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ReturnLetter {
    /// `(caller's variable, callee's result)`.
    pub assign: Vec<(Term, Term)>,
    /// `(callee's variable at its exit, term at the call site)` with equal values in every
    /// execution: `old(g)` and `g`, each global the callee does not modify, and each parameter
    /// the callee does not assign with its argument.
    pub links: Vec<(Term, Term)>,
    /// The variables outside the callee's frame that no step of the callee assigns: the same at
    /// the call and at the callee's exit.
    pub kept: Vec<Term>,
}

impl NestedProgram {
    /// The statement of a call letter (see the module documentation), or an arity error.
    pub fn call_stmt(&self, call: &Call) -> Result<Stmt, PrepareError> {
        let f = self.frame(call)?;
        let mut bind: Vec<(Term, Term)> = f.params.iter().cloned().zip(call.args.iter().cloned()).collect();
        bind.extend(f.olds.iter().cloned());
        let havoc: Vec<Term> = f.rets.iter().chain(&f.locals).filter(|v| !f.params.contains(v)).cloned().collect();
        let mut parts = vec![];
        if !bind.is_empty() {
            parts.push(Stmt::Assign(bind));
        }
        if !havoc.is_empty() {
            parts.push(Stmt::Havoc(havoc));
        }
        Ok(match parts.len() {
            0 => Stmt::Assume(tt()),
            1 => parts.remove(0),
            _ => Stmt::Seq(parts),
        })
    }

    /// The return letter of a call.
    pub fn return_letter(&self, call: &Call) -> Result<ReturnLetter, PrepareError> {
        let f = self.frame(call)?;
        let assign = call.rets.iter().cloned().zip(f.rets.iter().cloned()).collect();
        let mut links: Vec<(Term, Term)> = f.olds.clone();
        let modified = self.modified.get(&call.callee).cloned().unwrap_or_default();
        links.extend(self.globals.iter().filter(|g| !modified.contains(*g)).map(|g| (g.clone(), g.clone())));
        let params = f.params.iter().zip(&call.args).filter(|(p, _)| !f.body_assigned.contains(*p));
        links.extend(params.map(|(p, a)| (p.clone(), a.clone())));
        let kept = self.locals.iter().filter(|x| !f.assigned.contains(*x)).cloned().collect();
        Ok(ReturnLetter { assign, links, kept })
    }

    fn frame(&self, call: &Call) -> Result<&Frame, PrepareError> {
        let f = self.frames.get(&call.callee).ok_or_else(|| PrepareError::UnknownProcedure(call.callee.clone()))?;
        if f.params.len() != call.args.len() || f.rets.len() != call.rets.len() {
            return Err(PrepareError::Arity {
                callee: call.callee.clone(),
                got: call.args.len() + call.rets.len(),
                expected: f.params.len() + f.rets.len(),
            });
        }
        Ok(f)
    }
}

fn fresh(x: &Term) -> Term {
    Term::fresh(x.var_name().unwrap_or("v"), x.sort.clone())
}

impl ReturnLetter {
    /// The return as an ordinary transition formula for the hierarchical predecessor `h` (an
    /// assertion at the call site, before the call letter): its in-state is the callee's exit,
    /// its out-state the caller's state after the return. `locals` must contain every variable
    /// that is not global (they all come back from the call site, where `h` constrains them);
    /// globals keep their value from the callee's exit.
    pub fn formula(&self, h: &Term, locals: &BTreeSet<Term>) -> TransFormula {
        let mut in_vars: BTreeMap<Term, Term> = BTreeMap::new();
        let mut out_vars: BTreeMap<Term, Term> = BTreeMap::new();
        let mut aux: BTreeSet<Term> = BTreeSet::new();
        let lhs: BTreeSet<&Term> = self.assign.iter().map(|(l, _)| l).collect();
        // The instance of each variable at the call site.
        let mut site: HashMap<Term, Term> = HashMap::new();
        for x in locals.iter().filter(|x| !lhs.contains(x)) {
            let c = fresh(x);
            out_vars.insert(x.clone(), c.clone());
            site.insert(x.clone(), c);
        }
        let mut site_of = |x: &Term, aux: &mut BTreeSet<Term>| -> Term {
            site.entry(x.clone())
                .or_insert_with(|| {
                    let c = fresh(x);
                    aux.insert(c.clone());
                    c
                })
                .clone()
        };
        // The instance of a variable at the callee's exit.
        let exit_of = |x: &Term, in_vars: &mut BTreeMap<Term, Term>, out_vars: &mut BTreeMap<Term, Term>| -> Term {
            if let Some(i) = in_vars.get(x) {
                return i.clone();
            }
            let i = if locals.contains(x) || lhs.contains(x) { fresh(x) } else { x.clone() };
            in_vars.insert(x.clone(), i.clone());
            out_vars.entry(x.clone()).or_insert_with(|| i.clone());
            i
        };
        let mut conj = vec![];
        let kept = self.kept.iter().map(|x| (x.clone(), x.clone()));
        for (callee_var, site_term) in self.links.iter().cloned().chain(kept) {
            let e = exit_of(&callee_var, &mut in_vars, &mut out_vars);
            let map: HashMap<Term, Term> = free_vars(&site_term).into_iter().map(|x| (x.clone(), site_of(&x, &mut aux))).collect();
            conj.push(eq(&e, &substitute(&site_term, &map)));
        }
        for (l, r) in &self.assign {
            let e = exit_of(r, &mut in_vars, &mut out_vars);
            let o = fresh(l);
            out_vars.insert(l.clone(), o.clone());
            conj.push(eq(&o, &e));
        }
        let map: HashMap<Term, Term> = free_vars(h).into_iter().map(|x| (x.clone(), site_of(&x, &mut aux))).collect();
        conj.insert(0, substitute(h, &map));
        TransFormula { formula: and(&conj), in_vars, out_vars, aux_vars: aux }
    }

    /// The variables the return reads at the callee's exit: the callee's results and the
    /// callee's side of the links (a `kept` variable comes back from the call site: assertions
    /// in the callee need not mention it).
    pub fn exit_vars(&self) -> BTreeSet<Term> {
        self.assign.iter().map(|(_, r)| r).chain(self.links.iter().map(|(e, _)| e)).cloned().collect()
    }

    /// The variables the links read at the call site.
    pub fn site_vars(&self) -> BTreeSet<Term> {
        self.links.iter().flat_map(|(_, c)| free_vars(c)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smt::build::{add, int};
    use smt::Sort;

    /// The return of `y := f(..)` with `h: x = 7 ∧ g = 3` at the call site.
    #[test]
    fn return_formula_restores_locals() {
        let x = Term::var("x", Sort::Int);
        let r = Term::var("r", Sort::Int);
        let y = Term::var("y", Sort::Int);
        let g = Term::var("g", Sort::Int);
        let ret = ReturnLetter { assign: vec![(y.clone(), r.clone())], links: vec![(g.clone(), g.clone())], kept: vec![] };
        let locals: BTreeSet<Term> = [x.clone(), r.clone(), y.clone()].into_iter().collect();
        let h = and(&[eq(&x, &int(7)), eq(&g, &int(3))]);
        let tf = ret.formula(&h, &locals);
        // x comes back from the call site, y gets the callee's r, g flows through.
        assert!(tf.out_vars.contains_key(&x) && tf.out_vars.contains_key(&y));
        assert!(free_vars(&tf.formula).contains(&tf.out_vars[&x]));
        assert!(!free_vars(&tf.formula).contains(&x) && !free_vars(&tf.formula).contains(&add(&[x.clone(), int(1)])));
        assert_ne!(tf.in_vars.get(&x), tf.out_vars.get(&x));
        assert_eq!(tf.in_vars.get(&g), Some(&g));
    }
}
