//! Trace abstraction over the interleavings of a concurrent program ([`cegar`] runs the loop).
//! The program automaton is the product of the threads (`ir::interleavings`), each thread's CFG
//! encoded so that no block hides a point where another thread may touch shared state, explored
//! as a search asks for states: the difference search of trace abstraction reaches only states
//! that no interpolant automaton has cut off yet, and keeps the transitions of each state it
//! expanded (the proof's CFG is made of them). A letter is a statement of one thread: the same
//! statement in every state where the thread takes it is one letter, so an interpolant automaton
//! that proves one interleaving infeasible removes every interleaving that fails for the same
//! reason.

use crate::annotation::{self, Proof};
use crate::automizer::{proof_of, shortest_error_word};
use crate::cegar::{self, Abstraction, ErrorWord, Kind, Letter, States};
use crate::predicate_dfa::{PredicateDfa, Shared};
use crate::{Config, Por, Stats, Verdict};
use automata::{Explorable, Interrupted, NestedReach};
use ir::interleavings::{Interleavings, MoveKind, Reduction};
use ir::{Cfg, ThreadProgram, Violation};
use refine::nested::Nesting;
use rustc_hash::FxHashSet;
use smt::Term;
use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;

pub(crate) struct Interleaved<'a> {
    tp: &'a ThreadProgram,
    /// The states, numbered as they are reached.
    states: RefCell<Interleavings<'a>>,
    letters: Vec<Letter>,
    /// The variables dead after each letter.
    dead: Vec<Vec<Term>>,
    /// The transitions of each state expanded so far.
    expanded: RefCell<Expanded>,
    /// The states beyond a bound of the model that a feasible trace reached: no longer accepting.
    aside: RefCell<FxHashSet<usize>>,
}

impl<'a> Interleaved<'a> {
    /// The interleavings of `tp`'s threads, explored as an engine asks for states.
    pub(crate) fn new(tp: &'a ThreadProgram, config: &Config) -> Interleaved<'a> {
        let encode = |t: &ir::threads::Thread| match config.large_blocks {
            true => ir::thread_block_encoding(&t.cfg, &tp.shared, !tp.race_data.is_empty()),
            false => t.cfg.clone(),
        };
        let reduction = Reduction {
            persistent: matches!(config.por, Por::Persistent | Por::Both),
            sleep: matches!(config.por, Por::Sleep | Por::Both).then_some(config.commutativity),
        };
        let states = Interleavings::new(tp, tp.threads.iter().map(encode).collect(), reduction, config.deadline);
        // The letter's edge is the thread's, between the thread's own locations.
        let letters = states.letters().iter().map(|l| Letter::new(l.edge.stmt(), Kind::Internal, &l.edge, l.action.thread)).collect();
        let dead = states.dead_after();
        Interleaved { tp, states: RefCell::new(states), letters, dead, expanded: RefCell::default(), aside: RefCell::default() }
    }

    /// Counts the states reached and the transitions expanded in `stats`.
    pub(crate) fn count(&self, stats: &mut Stats) {
        stats.interleaved_states += self.reached();
        stats.interleaved_transitions += self.expanded.borrow().transitions.len();
    }

    fn reached(&self) -> usize {
        self.states.borrow().len()
    }

    /// The transitions that leave `state` (expanded once), or why they are not known.
    fn transitions(&self, state: usize) -> Result<Vec<(usize, usize)>, String> {
        if let Some(t) = self.expanded.borrow().get(state) {
            return Ok(t);
        }
        let t = self.states.borrow_mut().successors(state).map_err(|why| format!("interleavings: {why}"))?;
        self.expanded.borrow_mut().insert(state, &t);
        Ok(t)
    }

    fn accepting(&self, state: usize) -> bool {
        self.violation(state).is_some() && !self.aside.borrow().contains(&state)
    }

    /// The states reached and the transitions expanded so far as a CFG (a location per state).
    fn cfg(&self) -> Cfg {
        let states = self.states.borrow();
        let mut cfg = Cfg::default();
        for s in 0..states.len() {
            states.add_location(&mut cfg, s);
        }
        let expanded = self.expanded.borrow();
        for s in 0..states.len() {
            for (letter, next) in expanded.get(s).unwrap_or_default() {
                cfg.add_edge(states.letters()[letter].edge.between(s, next));
            }
        }
        cfg.entry = states.initial();
        cfg.exit = cfg.entry;
        cfg
    }
}

impl Abstraction for Interleaved<'_> {
    fn letters(&self) -> &[Letter] {
        &self.letters
    }

    fn violation(&self, state: usize) -> Option<Violation> {
        self.states.borrow().violation(state)
    }

    fn original(&self, thread: usize) -> &Cfg {
        &self.tp.threads[thread].cfg
    }

    fn thread_of(&self, letter: usize) -> Option<(usize, Option<usize>)> {
        let m = self.states.borrow().letters()[letter].action;
        Some((m.thread, if let MoveKind::Fork(j) = m.kind { Some(j) } else { None }))
    }

    fn error_word(
        &self,
        dfas: &mut [PredicateDfa],
        interrupt: &mut dyn FnMut(usize) -> Option<String>,
    ) -> Result<Option<ErrorWord>, Interrupted> {
        shortest_error_word(&mut OnTheFly(self), dfas, interrupt)
    }

    fn nesting(&self, _: &[usize]) -> Option<Nesting> {
        None
    }

    /// The product states a word runs through (a letter leads from a state to one state).
    fn path(&self, word: &[usize]) -> Option<Vec<usize>> {
        let mut path = vec![self.states.borrow().initial()];
        for &l in word {
            let here = *path.last()?;
            path.push(self.transitions(here).ok()?.iter().find(|(x, _)| *x == l)?.1);
        }
        Some(path)
    }

    /// A fork beyond the thread instances is set aside: a run may still reach an error.
    fn set_aside(&self, state: usize) -> bool {
        let limit = self.violation(state).is_some_and(|v| v.kind == ir::ViolationKind::ThreadLimit);
        if limit {
            self.aside.borrow_mut().insert(state);
        }
        limit
    }

    /// The states expanded so far (all of them, for interleavings [`Interleaved::built`]).
    fn dead_after(&self, letter: usize) -> &[Term] {
        &self.dead[letter]
    }

    fn states(&self) -> Box<dyn States + '_> {
        Box::new(OnTheFly(self))
    }

    fn reach_proof(&self, entry: &str, reach: &NestedReach, annotation: &[Term], config: &Config) -> Proof {
        annotation::proof_of_states(entry, &self.cfg(), reach, annotation, config)
    }

    /// The annotation of every state the difference reaches, checked on the states expanded.
    fn proof(&self, entry: &str, dfas: &mut [PredicateDfa], _: &Rc<RefCell<Shared>>, config: &Config) -> Option<Proof> {
        proof_of(&mut OnTheFly(self), || Cow::Owned(self.cfg()), entry, dfas, config)
    }
}

/// The transitions `(letter, target)` of the states expanded so far, packed in one vector (a
/// search expands millions of states).
#[derive(Default)]
struct Expanded {
    /// Per state, where its transitions start and how many there are (`None`: not expanded).
    at: Vec<Option<(usize, usize)>>,
    transitions: Vec<(u32, u32)>,
}

impl Expanded {
    fn get(&self, state: usize) -> Option<Vec<(usize, usize)>> {
        let (start, n) = (*self.at.get(state)?)?;
        Some(self.transitions[start..start + n].iter().map(|&(l, t)| (l as usize, t as usize)).collect())
    }

    fn insert(&mut self, state: usize, transitions: &[(usize, usize)]) {
        if self.at.len() <= state {
            self.at.resize(state + 1, None);
        }
        self.at[state] = Some((self.transitions.len(), transitions.len()));
        self.transitions.extend(transitions.iter().map(|&(l, t)| (l as u32, t as u32)));
    }
}

/// The interleavings as an automaton a search explores state by state (every state may be
/// reached by several interleavings).
struct OnTheFly<'s, 'a>(&'s Interleaved<'a>);

impl States for OnTheFly<'_, '_> {
    fn initial(&self) -> usize {
        self.0.states.borrow().initial()
    }

    fn successors(&self, state: usize, _: Option<usize>) -> Result<Vec<(usize, usize)>, String> {
        self.0.transitions(state)
    }

    fn accepting(&self, state: usize) -> bool {
        self.0.accepting(state)
    }

    fn join(&self, _: usize) -> bool {
        true
    }
}

impl Explorable for OnTheFly<'_, '_> {
    fn initial(&self) -> usize {
        self.0.states.borrow().initial()
    }

    fn transitions(&mut self, state: usize) -> Result<Cow<'_, [(usize, usize)]>, Interrupted> {
        self.0.transitions(state).map(Cow::Owned).map_err(Interrupted)
    }

    fn accepting(&self, state: usize) -> bool {
        self.0.accepting(state)
    }
}

/// Runs trace abstraction on the interleavings of the threads of `tp`.
pub fn verify(entry: &str, tp: &ThreadProgram, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
    let a = Interleaved::new(tp, config);
    let result = cegar::run(entry, &a, config, stats);
    a.count(stats);
    result
}
