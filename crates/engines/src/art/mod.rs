//! Predicate abstraction over an abstract reachability tree (`--engine art`), with lazy
//! refinement by reachability interpolants and, optionally, conditional interpolation.
//!
//! The tree unwinds the program automaton that trace abstraction refines (one call-free CFG,
//! the product of the threads of a concurrent program with its partial-order reduction, or
//! the nested word automaton of a recursive program, with a call stack per node): a node is a
//! state of it with a region, the conjunction of the predicates of the state's precision that
//! the parent's region and the letter imply (Cartesian abstraction; Boolean abstraction keeps
//! the disjunction of their valuations instead). Large blocks decide where the abstraction
//! happens: at every block end, so at loop heads and wherever another thread may interfere
//! (`--no-large-blocks`: after every statement).
//!
//! A node at an error state gives its path: a feasible path is a counterexample, an
//! infeasible one an assertion sequence (`--refinement`) whose predicates join the precision
//! of the path's states; the subtree of the first node whose region misses its assertion is
//! rebuilt. Conditional interpolation ([`chain`]) runs at every node with several
//! successors: a guard the path contradicts gives a Craig sequence that strengthens the
//! regions along the path at once, which prunes the branch. The seed strengthens only the
//! branching node; strengthening the whole path keeps every label inductive relative to its
//! parent's, which a region that another node's covering relies on needs.
//!
//! When no node is left to expand, the disjunction of the expanded nodes' regions at each
//! state is an inductive invariant ([`tree`]): it is checked like every other proof (for
//! recursion, the tree's steps and returns are checked instead).

mod chain;
mod tree;

use crate::annotation::Proof;
use crate::cegar::{self, timed, Abstraction, Kind, States, NO_PROGRESS};
use crate::predicate_dfa::Shared;
use crate::sources::Session;
use crate::strategy::{on_automaton, Engine, Task};
use crate::{Config, Stats, Unknown, Verdict};
use chain::{Chain, Item, LetterInfo, VarsOf};
use ir::TransFormula;
use refine::nested::Nesting;
use refine::portfolio::PathProgram;
use refine::source::Infeasible;
use refine::{check_scoped_trace, infeasible_core, Source, TraceCheck};
use smt::build::{and, ff, not, or};
use smt::subst::conjuncts;
use smt::Term;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, VecDeque};
use tree::{and_of, subset, Region, Step, Tree};

/// How the tree is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArtOptions {
    /// Conditional interpolation at nodes with several successors.
    pub conditional: bool,
    /// Path simplification of conditional interpolation's chains.
    pub simplify: bool,
    /// Expand the newest node first (otherwise the oldest: breadth-first).
    pub depth_first: bool,
    /// One precision for every state (otherwise one per state).
    pub global_precision: bool,
    /// Boolean abstraction: a region is the disjunction of the valuations of the predicates
    /// that the abstract post allows (otherwise Cartesian: the conjunction of those it implies).
    pub boolean: bool,
}

impl Default for ArtOptions {
    fn default() -> Self {
        ArtOptions { conditional: true, simplify: true, depth_first: false, global_precision: false, boolean: false }
    }
}

/// Beyond this many nodes the search gives up (the tree lives in memory).
const MAX_NODES: usize = 2_000_000;

/// Boolean abstraction enumerates at most this many valuations of a post; beyond, the post
/// is Cartesian (weaker, so still sound).
const MAX_VALUATIONS: usize = 32;

/// The engine `art`.
pub struct Art;

impl Engine for Art {
    fn name(&self) -> &'static str {
        "art"
    }

    fn about(&self) -> &'static str {
        "predicate abstraction over an abstract reachability tree, lazy refinement, conditional interpolation"
    }

    fn not_applicable(&self, _: &Task, _: &Config) -> Option<String> {
        None
    }

    fn run(&self, task: &Task, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
        on_automaton(task, config, ir::Acceleration::Linear, stats, |a, stats| explore(task.entry, a, config, stats))
            .unwrap_or_else(|u| (Verdict::Unknown(u.prefixed("art")), None))
    }
}

/// The predicates of each state (or of all of them).
enum Precision {
    /// The predicates of each state, and the empty set of the others.
    PerState(HashMap<usize, BTreeSet<Term>>, BTreeSet<Term>),
    Global(BTreeSet<Term>),
}

impl Precision {
    fn at(&self, state: usize) -> &BTreeSet<Term> {
        match self {
            Precision::PerState(m, none) => m.get(&state).unwrap_or(none),
            Precision::Global(p) => p,
        }
    }

    fn add(&mut self, state: usize, preds: &[Term]) {
        let set = match self {
            Precision::PerState(m, _) => m.entry(state).or_default(),
            Precision::Global(p) => p,
        };
        set.extend(preds.iter().filter(|p| !p.is_false()).cloned());
    }
}

/// An error path of the tree: its nodes, letters, their formulas and how they nest.
struct Path<'p> {
    nodes: &'p [usize],
    word: &'p [usize],
    trace: &'p [TransFormula],
    nesting: Option<&'p Nesting>,
}

/// The predicates of an assertion: its conjuncts (`true` has none).
fn predicates(t: &Term) -> Vec<Term> {
    if t.is_false() {
        return vec![t.clone()];
    }
    conjuncts(t).into_iter().filter(|c| !c.is_true()).collect()
}

struct Explorer<'a> {
    entry: &'a str,
    a: &'a dyn Abstraction,
    states: Box<dyn States + 'a>,
    letters: Vec<LetterInfo>,
    /// The free variables of the predicates the chains look at.
    vars: VarsOf,
    tree: Tree,
    precision: Precision,
    work: VecDeque<usize>,
    session: Session,
    config: &'a Config,
    /// Conditional interpolation: the sequence (or none) of each chain seen.
    chains: HashMap<Vec<Item>, Option<Vec<Term>>>,
    /// Conditional interpolants so far at each branch (state and letter).
    pruned: HashMap<(usize, usize), usize>,
    /// Why the answer can be UNKNOWN at best (a location beyond the model's bounds).
    beyond: Option<Unknown>,
    /// Under Boolean abstraction, the letter `skip` with which the solver compares regions
    /// (`{b} skip {a}`: `b` implies `a`) that their predicates do not order.
    skip: Option<usize>,
}

/// At most this many conditional interpolants per branch: a branch that needs more is a
/// loop's, whose interpolants count its iterations (`k = 0`, `k = 1`, ...) and keep the tree
/// from covering it; lazy refinement finds that loop's invariant instead.
const MAX_CONDITIONAL_PER_BRANCH: usize = 2;

/// Builds the tree of `a`'s program automaton until no node is left to expand, an error path
/// is feasible, or the budget ends.
fn explore(entry: &str, a: &dyn Abstraction, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
    let states = a.states();
    let letters: Vec<LetterInfo> = a.letters().iter().map(|l| LetterInfo::new(l.formula.clone(), &l.stmt)).collect();
    let skip = config.art.boolean.then_some(letters.len());
    let formulas = letters.iter().map(|l| l.formula.clone()).chain(skip.map(|_| TransFormula::skip())).collect();
    let session = match Session::start(config, formulas, a.scopes()) {
        Ok(s) => s,
        Err(e) => return (Verdict::unknown(e), None),
    };
    let precision = match config.art.global_precision {
        true => Precision::Global(BTreeSet::new()),
        false => Precision::PerState(HashMap::new(), BTreeSet::new()),
    };
    let tree = Tree::new(states.initial());
    let mut x = Explorer {
        entry,
        a,
        states,
        letters,
        vars: VarsOf::default(),
        tree,
        precision,
        work: VecDeque::from([0]),
        session,
        config,
        chains: HashMap::new(),
        pruned: HashMap::new(),
        beyond: None,
        skip,
    };
    let verdict = x.search(stats);
    x.session.add_stats(&[], stats);
    stats.art_nodes += x.tree.len();
    let verdict = match (verdict, x.beyond.take()) {
        (Verdict::Safe, Some(u)) => Verdict::Unknown(u),
        (v, _) => v,
    };
    if !matches!(verdict, Verdict::Safe) {
        return (verdict, None);
    }
    let (reach, annotation) = x.tree.reach();
    let proof = a.reach_proof(entry, &reach, &annotation, config);
    if proof.checked == Some(false) {
        // as for every engine, the answer comes from the construction (each triple valid)
        tracing::debug!("art: the invariant of the tree failed its check (a query may be undecided)");
    }
    (Verdict::Safe, Some(proof))
}

/// Whether region `a` is weaker than `b` ([`tree::Weaker`]); with a `skip` letter, the solver
/// decides what the predicates do not.
fn weaker(shared: &RefCell<Shared>, skip: Option<usize>) -> impl FnMut(&Region, &Region) -> bool + '_ {
    move |a, b| subset(a, b) || skip.is_some_and(|k| shared.borrow_mut().valid(&and_of(b), k, &and_of(a)))
}

/// The region of the valuations `vals` of `preds` (Boolean abstraction): the literals every
/// valuation agrees on, and the disjunction of the valuations of the other predicates unless
/// it allows all of them.
fn boolean_region(preds: &[Term], vals: &[Vec<bool>]) -> Region {
    let literal = |i: usize, b: bool| if b { preds[i].clone() } else { not(&preds[i]) };
    let (fixed, varying): (Vec<usize>, Vec<usize>) = (0..preds.len()).partition(|&i| vals.iter().all(|v| v[i] == vals[0][i]));
    let mut region: Region = fixed.iter().map(|&i| literal(i, vals[0][i])).collect();
    let cubes: BTreeSet<Vec<bool>> = vals.iter().map(|v| varying.iter().map(|&i| v[i]).collect()).collect();
    if 1usize.checked_shl(varying.len() as u32).is_none_or(|all| cubes.len() < all) {
        let cube = |c: &Vec<bool>| and(&varying.iter().zip(c).map(|(&i, &b)| literal(i, b)).collect::<Vec<_>>());
        region.insert(or(&cubes.iter().map(cube).collect::<Vec<_>>()));
    }
    region
}

impl Explorer<'_> {
    fn search(&mut self, stats: &mut Stats) -> Verdict {
        while let Some(n) = if self.config.art.depth_first { self.work.pop_back() } else { self.work.pop_front() } {
            if let Some(why) = self.session.budget.stopped() {
                return Verdict::unknown(why);
            }
            if self.tree.len() > MAX_NODES {
                return Verdict::unknown(format!("art: the tree has more than {MAX_NODES} nodes"));
            }
            if !self.tree.waiting(n) {
                continue;
            }
            let state = self.tree.nodes[n].state;
            if self.states.accepting(state) {
                if let Some(v) = self.at_error(n, stats) {
                    return v;
                }
                continue;
            }
            if self.tree.try_cover(n, &mut weaker(&self.session.shared, self.skip)) {
                continue;
            }
            // the successors depend on the state and the call stack, which nothing below changes
            let successors = match self.successors(n) {
                Ok(s) => s,
                Err(why) => return Verdict::unknown(format!("art: {why}")),
            };
            if self.config.art.conditional && successors.len() > 1 {
                let started = std::time::Instant::now();
                self.conditional(n, stats);
                stats.time_conditional_ms += started.elapsed().as_millis();
                // a stronger region may now be covered
                if self.tree.try_cover(n, &mut weaker(&self.session.shared, self.skip)) {
                    continue;
                }
            }
            self.expand(n, successors, stats);
        }
        Verdict::Safe
    }

    /// The transitions of the automaton from `n` (`(letter, target, step)`): the internal
    /// ones and the calls of its state, and the returns to its pending call.
    fn successors(&self, n: usize) -> Result<Vec<(usize, usize, Step)>, String> {
        let node = &self.tree.nodes[n];
        let step = |l: usize| match self.a.letters()[l].kind {
            Kind::Internal => Step::Internal,
            Kind::Call => Step::Call,
            // (only returns to the pending call are among the successors)
            Kind::Return(_) => Step::Return { hier: node.call.map_or(0, |(hier, _)| hier) },
        };
        let successors = self.states.successors(node.state, node.call.map(|(_, call)| call))?;
        Ok(successors.into_iter().map(|(l, d)| (l, d, step(l))).collect())
    }

    /// The region of the successor of `n` by `letter` (taken by `step`) at `state`, `None`
    /// if the letter is infeasible from `n`'s region.
    fn post(&mut self, n: usize, letter: usize, step: Step, state: usize) -> Option<Region> {
        let pre = and_of(&self.tree.nodes[n].region);
        // a return's formula depends on the caller's region at the call: not a cached letter
        let ret = match (step, &self.a.letters()[letter].kind) {
            (Step::Return { hier }, Kind::Return(r)) => {
                Some(r.formula(&and_of(&self.tree.nodes[hier].region), &self.session.shared.borrow().locals))
            }
            _ => None,
        };
        let holds = |sh: &mut Shared, post: &Term| match &ret {
            Some(tf) => sh.valid_formula(&pre, tf, post),
            None => sh.valid(&pre, letter, post),
        };
        if self.session.budget.stopped().is_some() {
            // the weakest region, without a query: the search stops at the next node
            return Some(Region::default());
        }
        let mut shared = self.session.shared.borrow_mut();
        if holds(&mut shared, &ff()) {
            return None;
        }
        let preds = self.precision.at(state);
        if self.config.art.boolean && !preds.is_empty() {
            let preds: Vec<Term> = preds.iter().cloned().collect();
            let tf = ret.as_ref().unwrap_or(&self.letters[letter].formula);
            if let Some(vals) = shared.valuations(&pre, tf, &preds, MAX_VALUATIONS) {
                return (!vals.is_empty()).then(|| boolean_region(&preds, &vals));
            }
        }
        Some(preds.iter().filter(|p| holds(&mut shared, p)).cloned().collect())
    }

    fn expand(&mut self, n: usize, successors: Vec<(usize, usize, Step)>, stats: &mut Stats) {
        self.tree.mark_expanded(n);
        for (letter, dst, step) in successors {
            if let Some(region) = timed(&mut stats.time_abstraction_ms, || self.post(n, letter, step, dst)) {
                let call = self.tree.call_after(n, letter, step);
                let child = self.tree.add(n, letter, dst, call, region);
                self.work.push_back(child);
            }
        }
    }

    /// Checks the path to `n`, at an error state: the verdict if the search ends.
    fn at_error(&mut self, n: usize, stats: &mut Stats) -> Option<Verdict> {
        let (nodes, word) = self.tree.path(n);
        let trace: Vec<TransFormula> = word.iter().map(|&l| self.letters[l].formula.clone()).collect();
        let nesting = self.a.nesting(&word);
        stats.trace_checks += 1;
        let refiner = &mut self.session.refiner;
        refiner.set_timeout_ms(self.session.budget.next_ms());
        let check = timed(&mut stats.time_trace_check_ms, || check_scoped_trace(&trace, nesting.as_ref(), refiner.trace.as_mut()));
        let state = self.tree.nodes[n].state;
        match check {
            TraceCheck::Unknown(r) => Some(Verdict::unknown(self.session.budget.give_up(format!("trace check: {r}")))),
            TraceCheck::Feasible(model) => {
                match cegar::counterexample(self.entry, self.a, &word, state, &model, refiner.trace.as_mut(), self.config) {
                    // a location beyond the model's bounds: no proof any more, but an error
                    // elsewhere may still be found
                    Verdict::Unknown(u) if self.a.set_aside(state) => {
                        self.beyond.get_or_insert(u);
                        self.work.push_back(n);
                        None
                    }
                    v => Some(v),
                }
            }
            TraceCheck::Infeasible { core } => {
                let path = Path { nodes: &nodes, word: &word, trace: &trace, nesting: nesting.as_ref() };
                self.refine(&path, &core, stats).err()
            }
        }
    }

    /// Adds the assertions of an infeasible error path to the precision and rebuilds the
    /// subtree of the first node whose region misses its assertion.
    fn refine(&mut self, path: &Path, core: &BTreeSet<usize>, stats: &mut Stats) -> Result<(), Verdict> {
        stats.iterations += 1;
        let Path { nodes, word, trace, nesting } = *path;
        let states: Vec<usize> = nodes.iter().map(|&m| self.tree.nodes[m].state).collect();
        // the sources' path programs are flat
        let program = nesting.is_none().then_some(PathProgram { letters: word, locs: &states });
        let started = std::time::Instant::now();
        let sequences = self.session.refiner.sequences(&Infeasible { trace, core }, program.as_ref(), nesting, stats);
        stats.time_sequence_ms += started.elapsed().as_millis();
        let sequences = sequences.map_err(|e| Verdict::unknown(self.session.budget.give_up(format!("refinement failed: {e}"))))?;
        let mut pivot = nodes.len() - 1;
        let shared = self.session.shared.clone();
        let mut weaker = weaker(&shared, self.skip);
        for seq in &sequences {
            for (i, (&m, assertion)) in nodes.iter().zip(&seq.preds).enumerate().skip(1) {
                let preds = predicates(assertion);
                self.precision.add(states[i], &preds);
                if !preds.iter().all(|p| weaker(&Region::from([p.clone()]), &self.tree.nodes[m].region)) {
                    pivot = pivot.min(i);
                }
            }
        }
        let Some((parent, letter, step)) = self.tree.step_to(nodes[pivot]) else {
            return Err(Verdict::unknown(NO_PROGRESS));
        };
        let call = self.tree.nodes[nodes[pivot]].call;
        let old = std::mem::take(&mut self.tree.nodes[nodes[pivot]].region);
        let uncovered = self.tree.remove_subtree(nodes[pivot]);
        self.work.extend(uncovered);
        if let Some(region) = self.post(parent, letter, step, states[pivot]) {
            if region == old {
                return Err(Verdict::unknown(self.session.budget.give_up(NO_PROGRESS)));
            }
            let child = self.tree.add(parent, letter, states[pivot], call, region);
            self.work.push_back(child);
        }
        Ok(())
    }

    /// Conditional interpolation at `n`: each guard that `n`'s region allows but its path
    /// contradicts strengthens the path's regions with a sequence that excludes it.
    fn conditional(&mut self, n: usize, stats: &mut Stats) {
        let state = self.tree.nodes[n].state;
        let mut path = None;
        // (a state whose successors are not known is reported when it is expanded)
        let internal = self
            .states
            .successors(state, None)
            .unwrap_or_default()
            .into_iter()
            .filter(|&(l, _)| matches!(self.a.letters()[l].kind, Kind::Internal));
        for (letter, _) in internal.collect::<Vec<_>>() {
            if self.session.budget.stopped().is_some() {
                return; // pruning only strengthens: the search stops at the next node
            }
            let done = self.pruned.get(&(state, letter)).copied().unwrap_or(0);
            if !self.letters[letter].guard || done >= MAX_CONDITIONAL_PER_BRANCH || self.post_is_empty(n, letter) {
                continue;
            }
            let (nodes, word) = path.get_or_insert_with(|| self.tree.path(n));
            if word.iter().any(|&l| !matches!(self.a.letters()[l].kind, Kind::Internal)) {
                // chains are flat: a path through calls has scopes they do not model
                return;
            }
            let facts: Vec<&Region> = nodes.iter().map(|&m| &self.tree.nodes[m].region).collect();
            // what is checked is decided on the simplified chain, whichever chain is checked
            let simplified = chain::chain(&facts, word, letter, &self.letters, true, &mut self.vars);
            stats.conditional_checks += 1;
            if simplified.items.len() == 1 {
                // the guard alone, which the region (about none of its variables) allows
                continue;
            }
            if simplified.trace.iter().any(|tf| tf.in_vars.keys().chain(tf.out_vars.keys()).any(|v| matches!(v.sort, smt::Sort::Array(..))))
            {
                // Farkas interpolation does not apply to arrays, and Z3 takes tens of
                // milliseconds for such a chain: more than the branch would cost
                stats.conditional_skipped += 1;
                continue;
            }
            let chain = match self.config.art.simplify {
                true => simplified,
                false => chain::chain(&facts, word, letter, &self.letters, false, &mut self.vars),
            };
            stats.conditional_path_steps += word.len() + 1;
            stats.conditional_chain_steps += chain.items.iter().filter(|i| matches!(i, Item::Letter(_))).count();
            let Some(preds) = self.chain_sequence(&chain, stats) else { continue };
            stats.conditional_interpolants += 1;
            *self.pruned.entry((state, letter)).or_default() += 1;
            for (&m, position) in nodes.iter().zip(&chain.positions) {
                let Some(k) = position else { continue };
                let assertion = predicates(&preds[*k]);
                self.precision.add(self.tree.nodes[m].state, &assertion);
                let uncovered = self.tree.strengthen(m, assertion, &mut weaker(&self.session.shared, self.skip));
                self.work.extend(uncovered);
            }
        }
    }

    /// Whether `letter` is infeasible from `n`'s region.
    fn post_is_empty(&mut self, n: usize, letter: usize) -> bool {
        let pre = and_of(&self.tree.nodes[n].region);
        self.session.shared.borrow_mut().valid(&pre, letter, &ff())
    }

    /// The Craig sequence of an unsatisfiable chain (`None`: satisfiable or undecided), cached.
    fn chain_sequence(&mut self, chain: &Chain, stats: &mut Stats) -> Option<Vec<Term>> {
        if let Some(known) = self.chains.get(&chain.items) {
            stats.conditional_cache_hits += 1;
            return known.clone();
        }
        let refiner = &mut self.session.refiner;
        refiner.set_timeout_ms(self.session.budget.next_ms());
        let found = match infeasible_core(&chain.trace, refiner.trace.as_mut()) {
            Ok(Some(core)) => refiner
                .sequences_from(Source::Craig, &Infeasible { trace: &chain.trace, core: &core }, None, None, stats)
                .ok()
                .and_then(|s| s.into_iter().next())
                // a quantified assertion would make every later query harder than the branch
                // it prunes is worth
                .filter(|s| s.quantified == 0)
                .map(|s| s.preds),
            Ok(None) | Err(_) => None,
        };
        self.chains.insert(chain.items.clone(), found.clone());
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smt::build::{int, le};
    use smt::Sort;

    #[test]
    fn a_boolean_region_fixes_what_every_valuation_agrees_on_and_lists_the_rest() {
        let p: Vec<Term> = (0..3).map(|k| le(&Term::var("x", Sort::Int), &int(k))).collect();
        let region = boolean_region(&p, &[vec![true, false, true], vec![false, true, true]]);
        let both = or(&[and(&[not(&p[0]), p[1].clone()]), and(&[p[0].clone(), not(&p[1])])]);
        assert_eq!(region, Region::from([p[2].clone(), both]));
        let all = [vec![true, true, false], vec![true, false, false], vec![false, true, false], vec![false, false, false]];
        assert_eq!(boolean_region(&p, &all), Region::from([not(&p[2])]), "every valuation of x <= 0 and x <= 1: no disjunction");
    }
}
