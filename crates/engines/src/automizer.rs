//! Trace abstraction (Automizer) on flat words: the program automaton of one call-free CFG,
//! searched breadth-first for a shortest error word ([`cegar`] runs the loop).

use crate::annotation::{self, Proof};
use crate::cegar::{self, Abstraction, ErrorWord, Explicit, Kind, Letter, States};
use crate::predicate_dfa::{PredicateDfa, Shared};
use crate::{Config, Stats, Verdict};
use automata::{reachable_in_difference, shortest_in_difference, Emptiness, Explorable, Interrupted, LazyDfa, NestedReach, Nfa};
use ir::{Cfg, Label, Violation};
use refine::nested::Nesting;
use smt::Term;
use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Instant;

/// A call-free CFG as a finite automaton whose letters are its edges and whose accepting
/// states are the error locations.
pub(crate) struct Flat<'a> {
    /// The CFG the automaton is built from (large blocks or not).
    cfg: &'a Cfg,
    /// The prepared CFG before large-block encoding (its edges are a counterexample's steps).
    original: &'a Cfg,
    nfa: Nfa,
    letters: Vec<Letter>,
}

impl<'a> Flat<'a> {
    pub(crate) fn new(original: &'a Cfg, cfg: &'a Cfg) -> Result<Flat<'a>, String> {
        let (letters, transitions) = letters_and_transitions(cfg)?;
        let nfa = Nfa { initial: cfg.entry, transitions, accepting: cfg.locs.iter().map(|l| l.error.is_some()).collect() };
        Ok(Flat { cfg, original, nfa, letters })
    }
}

/// Each location's outgoing transitions `(letter, target)`.
pub(crate) type Transitions = Vec<Vec<(usize, usize)>>;

/// The letters of a call-free CFG (one per edge, in order) and its transitions.
pub(crate) fn letters_and_transitions(cfg: &Cfg) -> Result<(Vec<Letter>, Transitions), String> {
    let mut transitions = vec![Vec::new(); cfg.locs.len()];
    let mut letters = vec![];
    for (i, e) in cfg.edges.iter().enumerate() {
        transitions[e.src].push((i, e.dst));
        match &e.label {
            Label::Stmt(s) => letters.push(Letter::new(s.clone(), Kind::Internal, e, 0)),
            Label::Call(c) => return Err(format!("call of {} was not expanded", c.callee)),
            Label::Thread(_) => return Err("a thread operation outside of the interleaving of threads".into()),
        }
    }
    Ok((letters, transitions))
}

fn as_lazy(dfas: &mut [PredicateDfa]) -> Vec<&mut dyn LazyDfa> {
    dfas.iter_mut().map(|d| d as &mut dyn LazyDfa).collect()
}

/// A shortest error word of the difference of a finite automaton with `dfas`.
pub(crate) fn shortest_error_word(
    nfa: &mut dyn Explorable,
    dfas: &mut [PredicateDfa],
    interrupt: &mut dyn FnMut(usize) -> Option<String>,
) -> Result<Option<ErrorWord>, Interrupted> {
    Ok(match shortest_in_difference(nfa, &mut as_lazy(dfas), interrupt)? {
        Emptiness::Empty => None,
        Emptiness::Word { letters, target } => Some((letters, target)),
    })
}

/// The checked annotation of the CFG `cfg` gives once the reachable states of the empty
/// difference of `nfa` (its automaton) with `dfas` are known (`None` if time ran out).
pub(crate) fn proof_of<'c>(
    nfa: &mut dyn Explorable,
    cfg: impl FnOnce() -> Cow<'c, Cfg>,
    entry: &str,
    dfas: &mut [PredicateDfa],
    config: &Config,
) -> Option<Proof> {
    let deadline = config.deadline;
    let interrupt = &mut |_| deadline.is_some_and(|d| Instant::now() >= d).then(|| "timeout".to_string());
    let states = reachable_in_difference(nfa, &mut as_lazy(dfas), interrupt).ok().flatten()?;
    let cfg = cfg();
    let inv = annotation::annotation(&cfg, &states, dfas);
    Some(annotation::proof(entry, &cfg, &inv, deadline, &config.solver))
}

impl Abstraction for Flat<'_> {
    fn letters(&self) -> &[Letter] {
        &self.letters
    }

    fn violation(&self, state: usize) -> Option<Violation> {
        self.cfg.locs[state].error.clone()
    }

    fn original(&self, _: usize) -> &Cfg {
        self.original
    }

    fn error_word(
        &self,
        dfas: &mut [PredicateDfa],
        interrupt: &mut dyn FnMut(usize) -> Option<String>,
    ) -> Result<Option<ErrorWord>, Interrupted> {
        shortest_error_word(&mut &self.nfa, dfas, interrupt)
    }

    fn nesting(&self, _: &[usize]) -> Option<Nesting> {
        None
    }

    fn path(&self, word: &[usize]) -> Option<Vec<usize>> {
        Some(std::iter::once(self.cfg.entry).chain(word.iter().map(|&l| self.cfg.edges[l].dst)).collect())
    }

    fn states(&self) -> Box<dyn States + '_> {
        Box::new(Explicit::new(self.nfa.clone().into()))
    }

    fn reach_proof(&self, entry: &str, reach: &NestedReach, annotation: &[Term], config: &Config) -> Proof {
        annotation::proof_of_states(entry, self.cfg, reach, annotation, config)
    }

    /// The loop invariants of an empty difference, from its reachable product states.
    fn proof(&self, entry: &str, dfas: &mut [PredicateDfa], _: &Rc<RefCell<Shared>>, config: &Config) -> Option<Proof> {
        proof_of(&mut &self.nfa, || Cow::Borrowed(self.cfg), entry, dfas, config)
    }
}

/// Runs trace abstraction on a prepared (call-free) CFG of the entry procedure `entry`:
/// `cfg` is the CFG the automaton is built from (large blocks or not), `original` the prepared
/// CFG before large-block encoding (its edges are the steps of a counterexample).
pub fn verify_cfg(entry: &str, original: &Cfg, cfg: &Cfg, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
    match Flat::new(original, cfg) {
        Ok(flat) => cegar::run(entry, &flat, config, stats),
        Err(e) => (Verdict::unknown(e), None),
    }
}
