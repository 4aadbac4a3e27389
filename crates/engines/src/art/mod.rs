//! Predicate abstraction over an abstract reachability tree (`--engine art`), with lazy
//! refinement by reachability interpolants and, optionally, conditional interpolation.
//!
//! The tree unwinds the program automaton that trace abstraction refines (one call-free CFG,
//! or the product of the threads of a concurrent program, with its partial-order reduction):
//! a node is a state of it with a region, the conjunction of the predicates of the state's
//! precision that the parent's region and the letter imply (Cartesian abstraction). Large
//! blocks decide where the abstraction happens: at every block end, so at loop heads and
//! wherever another thread may interfere (`--no-large-blocks`: after every statement).
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
//! state is an inductive invariant ([`tree`]): it is checked like every other proof.

mod chain;
mod tree;

use crate::annotation::{self, Proof};
use crate::automizer::Flat;
use crate::cegar::{self, timed, Abstraction, NO_PROGRESS};
use crate::interleaving::Interleaved;
use crate::sources::Session;
use crate::strategy::{encode, Engine, Prepared, Task};
use crate::{Config, Stats, Unknown, Verdict};
use automata::Nfa;
use chain::{Chain, Item, LetterInfo, VarsOf};
use ir::TransFormula;
use refine::portfolio::PathProgram;
use refine::source::Infeasible;
use refine::{check_scoped_trace, infeasible_core, Source, TraceCheck};
use smt::build::{and, ff, or};
use smt::subst::conjuncts;
use smt::Term;
use std::collections::{BTreeSet, HashMap, VecDeque};
use tree::{Region, Tree};

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
}

impl Default for ArtOptions {
    fn default() -> Self {
        ArtOptions { conditional: true, simplify: true, depth_first: false, global_precision: false }
    }
}

/// Beyond this many nodes the search gives up (the tree lives in memory).
const MAX_NODES: usize = 2_000_000;

/// The engine `art`.
pub struct Art;

impl Engine for Art {
    fn name(&self) -> &'static str {
        "art"
    }

    fn about(&self) -> &'static str {
        "predicate abstraction over an abstract reachability tree, lazy refinement, conditional interpolation"
    }

    fn not_applicable(&self, task: &Task, _: &Config) -> Option<String> {
        matches!(task.prepared, Prepared::Nested(_)).then(|| "art: recursive programs are not supported".into())
    }

    fn run(&self, task: &Task, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
        let built = match task.prepared {
            Prepared::Flat(cfg) => {
                let encoded = encode(cfg, config);
                Flat::new(cfg, &encoded).map(|a| explore(task.entry, &a, config, stats))
            }
            Prepared::Concurrent(tp) => Interleaved::new(tp, config, stats).map(|a| explore(task.entry, &a, config, stats)),
            Prepared::Nested(_) => Err("recursive programs are not supported".into()),
        };
        built.unwrap_or_else(|e| (Verdict::unknown(format!("art: {e}")), None))
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
    nfa: Nfa,
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
}

/// At most this many conditional interpolants per branch: a branch that needs more is a
/// loop's, whose interpolants count its iterations (`k = 0`, `k = 1`, ...) and keep the tree
/// from covering it; lazy refinement finds that loop's invariant instead.
const MAX_CONDITIONAL_PER_BRANCH: usize = 2;

/// Builds the tree of `a`'s program automaton until no node is left to expand, an error path
/// is feasible, or the budget ends.
fn explore(entry: &str, a: &dyn Abstraction, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
    let Some((nfa, cfg)) = a.automaton() else { return (Verdict::unknown("art: nested words are not supported"), None) };
    let letters: Vec<LetterInfo> = a.letters().iter().map(|l| LetterInfo::new(l.formula.clone(), &l.stmt)).collect();
    let session = match Session::start(config, letters.iter().map(|l| l.formula.clone()).collect(), HashMap::new(), BTreeSet::new()) {
        Ok(s) => s,
        Err(e) => return (Verdict::unknown(e), None),
    };
    let precision = match config.art.global_precision {
        true => Precision::Global(BTreeSet::new()),
        false => Precision::PerState(HashMap::new(), BTreeSet::new()),
    };
    let tree = Tree::new(nfa.initial);
    let mut x = Explorer {
        entry,
        a,
        nfa,
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
    let inv: Vec<Term> =
        x.tree.regions_by_state(cfg.locs.len()).iter().map(|rs| or(&rs.iter().map(|r| and_of(r)).collect::<Vec<_>>())).collect();
    let proof = annotation::proof(entry, cfg, &inv, config.deadline, &config.solver);
    if proof.checked == Some(false) {
        // as for every engine, the answer comes from the construction (each triple valid)
        tracing::debug!("art: the invariant of the tree failed its check (a query may be undecided)");
    }
    (Verdict::Safe, Some(proof))
}

fn and_of(region: &Region) -> Term {
    and(&region.iter().cloned().collect::<Vec<_>>())
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
            if self.nfa.accepting[state] {
                if let Some(v) = self.at_error(n, stats) {
                    return v;
                }
                continue;
            }
            if self.tree.try_cover(n) {
                continue;
            }
            if self.config.art.conditional && self.nfa.transitions[state].len() > 1 {
                let started = std::time::Instant::now();
                self.conditional(n, stats);
                stats.time_conditional_ms += started.elapsed().as_millis();
                // a stronger region may now be covered
                if self.tree.try_cover(n) {
                    continue;
                }
            }
            self.expand(n, stats);
        }
        Verdict::Safe
    }

    /// The region of the successor of `n` by `letter` at `state`, `None` if the letter is
    /// infeasible from `n`'s region.
    fn post(&mut self, n: usize, letter: usize, state: usize) -> Option<Region> {
        let pre = and_of(&self.tree.nodes[n].region);
        let mut shared = self.session.shared.borrow_mut();
        if shared.valid(&pre, letter, &ff()) {
            return None;
        }
        Some(self.precision.at(state).iter().filter(|p| shared.valid(&pre, letter, p)).cloned().collect())
    }

    fn expand(&mut self, n: usize, stats: &mut Stats) {
        self.tree.mark_expanded(n);
        let state = self.tree.nodes[n].state;
        for i in 0..self.nfa.transitions[state].len() {
            let (letter, dst) = self.nfa.transitions[state][i];
            if let Some(region) = timed(&mut stats.time_abstraction_ms, || self.post(n, letter, dst)) {
                let child = self.tree.add(n, letter, dst, region);
                self.work.push_back(child);
            }
        }
    }

    /// Checks the path to `n`, at an error state: the verdict if the search ends.
    fn at_error(&mut self, n: usize, stats: &mut Stats) -> Option<Verdict> {
        let (nodes, word) = self.tree.path(n);
        let trace: Vec<TransFormula> = word.iter().map(|&l| self.letters[l].formula.clone()).collect();
        stats.trace_checks += 1;
        let refiner = &mut self.session.refiner;
        refiner.set_timeout_ms(self.session.budget.next_ms());
        let check = timed(&mut stats.time_trace_check_ms, || check_scoped_trace(&trace, None, refiner.trace.as_mut()));
        let state = self.tree.nodes[n].state;
        match check {
            TraceCheck::Unknown(r) => Some(Verdict::unknown(self.session.budget.give_up(format!("trace check: {r}")))),
            TraceCheck::Feasible(model) => {
                match cegar::counterexample(self.entry, self.a, &word, state, &model, refiner.trace.as_mut(), self.config) {
                    // a location beyond the model's bounds: no proof any more, but an error
                    // elsewhere may still be found
                    Verdict::Unknown(u) if self.a.set_aside(state) => {
                        self.nfa.accepting[state] = false;
                        self.beyond.get_or_insert(u);
                        self.work.push_back(n);
                        None
                    }
                    v => Some(v),
                }
            }
            TraceCheck::Infeasible { core } => self.refine(&nodes, &word, &trace, &core, stats).err(),
        }
    }

    /// Adds the assertions of an infeasible error path to the precision and rebuilds the
    /// subtree of the first node whose region misses its assertion.
    fn refine(
        &mut self,
        nodes: &[usize],
        word: &[usize],
        trace: &[TransFormula],
        core: &BTreeSet<usize>,
        stats: &mut Stats,
    ) -> Result<(), Verdict> {
        stats.iterations += 1;
        let states: Vec<usize> = nodes.iter().map(|&m| self.tree.nodes[m].state).collect();
        let path = PathProgram { letters: word, locs: &states };
        let started = std::time::Instant::now();
        let sequences = self.session.refiner.sequences(&Infeasible { trace, core }, Some(&path), None, stats);
        stats.time_sequence_ms += started.elapsed().as_millis();
        let sequences = sequences.map_err(|e| Verdict::unknown(self.session.budget.give_up(format!("refinement failed: {e}"))))?;
        let mut pivot = nodes.len() - 1;
        for seq in &sequences {
            for (i, (&m, assertion)) in nodes.iter().zip(&seq.preds).enumerate().skip(1) {
                let preds = predicates(assertion);
                self.precision.add(states[i], &preds);
                if !preds.iter().all(|p| self.tree.nodes[m].region.contains(p)) {
                    pivot = pivot.min(i);
                }
            }
        }
        let Some((parent, letter)) = self.tree.nodes[nodes[pivot]].parent else {
            return Err(Verdict::unknown(NO_PROGRESS));
        };
        let old = std::mem::take(&mut self.tree.nodes[nodes[pivot]].region);
        let uncovered = self.tree.remove_subtree(nodes[pivot]);
        self.work.extend(uncovered);
        if let Some(region) = self.post(parent, letter, states[pivot]) {
            if region == old {
                return Err(Verdict::unknown(self.session.budget.give_up(NO_PROGRESS)));
            }
            let child = self.tree.add(parent, letter, states[pivot], region);
            self.work.push_back(child);
        }
        Ok(())
    }

    /// Conditional interpolation at `n`: each guard that `n`'s region allows but its path
    /// contradicts strengthens the path's regions with a sequence that excludes it.
    fn conditional(&mut self, n: usize, stats: &mut Stats) {
        let state = self.tree.nodes[n].state;
        let mut path = None;
        for (letter, _) in self.nfa.transitions[state].clone() {
            let done = self.pruned.get(&(state, letter)).copied().unwrap_or(0);
            if !self.letters[letter].guard || done >= MAX_CONDITIONAL_PER_BRANCH || self.post_is_empty(n, letter) {
                continue;
            }
            let (nodes, word) = path.get_or_insert_with(|| self.tree.path(n));
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
                let uncovered = self.tree.strengthen(m, assertion);
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
