//! Trace abstraction over the interleavings of a concurrent program ([`cegar`] runs the loop).
//! The program automaton is the product of the threads (`ir::threads::product`), each thread's
//! CFG encoded so that no block hides a point where another thread may touch shared state. A
//! letter is a statement of one thread: the same statement in every product state where the
//! thread takes it is one letter, so an interpolant automaton that proves one interleaving
//! infeasible removes every interleaving that fails for the same reason.

use crate::annotation::{self, Proof};
use crate::automizer::{proof_of, shortest_error_word};
use crate::cegar::{self, Abstraction, ErrorWord, Explicit, Kind, Letter, States};
use crate::predicate_dfa::{PredicateDfa, Shared};
use crate::{Config, Por, Retry, Stats, Unknown, Verdict};
use automata::{Interrupted, NestedReach, Nfa, Nwa};
use ir::interleavings::{product, Interleavings, MoveKind, ProductError, Reduction};
use ir::{Cfg, ThreadProgram, Violation};
use refine::nested::Nesting;
use smt::Term;
use std::cell::RefCell;
use std::rc::Rc;

pub(crate) struct Interleaved<'a> {
    tp: &'a ThreadProgram,
    /// The states, numbered as they are reached (the built product's locations are the same
    /// numbers).
    states: RefCell<Interleavings<'a>>,
    letters: Vec<Letter>,
    /// The variables dead after each letter.
    dead: Vec<Vec<Term>>,
    /// The interleavings built whole, for the engines that search an automaton: their CFG and
    /// automaton (whose accepting states change when one is set aside); `None` while an engine
    /// explores the states itself.
    built: Option<(Cfg, RefCell<Nfa>)>,
}

impl<'a> Interleaved<'a> {
    /// The interleavings of `tp`'s threads, built whole (their size counted in `stats`).
    pub(crate) fn new(tp: &'a ThreadProgram, config: &Config, stats: &mut Stats) -> Result<Interleaved<'a>, Unknown> {
        let mut a = Interleaved::lazy(tp, config);
        let product = product(&mut a.states.borrow_mut(), config.deadline).map_err(unbuilt)?;
        let mut transitions = vec![Vec::new(); product.cfg.locs.len()];
        for (e, &letter) in product.cfg.edges.iter().zip(&product.letters) {
            transitions[e.src].push((letter, e.dst));
        }
        let accepting = product.cfg.locs.iter().map(|l| l.error.is_some()).collect();
        let nfa = Nfa { initial: product.cfg.entry, transitions, accepting };
        tracing::debug!(threads = tp.threads.len(), states = product.cfg.locs.len(), letters = a.letters.len(), "interleavings");
        stats.interleaved_states += product.cfg.locs.len();
        stats.interleaved_transitions += product.cfg.edges.len();
        a.built = Some((product.cfg, RefCell::new(nfa)));
        Ok(a)
    }

    /// The interleavings of `tp`'s threads, explored as an engine asks for states.
    pub(crate) fn lazy(tp: &'a ThreadProgram, config: &Config) -> Interleaved<'a> {
        let encode = |t: &ir::threads::Thread| match config.large_blocks {
            true => ir::thread_block_encoding(&t.cfg, &tp.shared, !tp.race_data.is_empty()),
            false => t.cfg.clone(),
        };
        let reduction = Reduction {
            persistent: matches!(config.por, Por::Persistent | Por::Both),
            sleep: matches!(config.por, Por::Sleep | Por::Both).then_some(config.commutativity),
        };
        let states = Interleavings::new(tp, tp.threads.iter().map(encode).collect(), reduction);
        // The letter's edge is the thread's, between the thread's own locations.
        let letters = states.letters().iter().map(|l| Letter::new(l.edge.stmt(), Kind::Internal, &l.edge, l.action.thread)).collect();
        let dead = states.dead_after();
        Interleaved { tp, states: RefCell::new(states), letters, dead, built: None }
    }

    /// How many states were reached.
    pub(crate) fn reached(&self) -> usize {
        self.states.borrow().len()
    }

    /// The built interleavings (an engine that searches an automaton has them built).
    fn built(&self) -> &(Cfg, RefCell<Nfa>) {
        self.built.as_ref().expect("the interleavings are built for the engines that search an automaton")
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
        shortest_error_word(&self.built().1.borrow(), dfas, interrupt)
    }

    fn nesting(&self, _: &[usize]) -> Option<Nesting> {
        None
    }

    /// The product states a word runs through (a letter leads from a state to one state).
    fn path(&self, word: &[usize]) -> Option<Vec<usize>> {
        let nfa = self.built().1.borrow();
        let mut path = vec![nfa.initial];
        for &l in word {
            let here = *path.last()?;
            path.push(nfa.transitions[here].iter().find(|(x, _)| *x == l)?.1);
        }
        Some(path)
    }

    /// A fork beyond the thread instances is set aside: a run may still reach an error.
    fn set_aside(&self, state: usize) -> bool {
        let limit = self.violation(state).is_some_and(|v| v.kind == ir::ViolationKind::ThreadLimit);
        if limit {
            self.built().1.borrow_mut().accepting[state] = false;
        }
        limit
    }

    fn automaton(&self) -> Nwa {
        self.built().1.borrow().clone().into()
    }

    fn dead_after(&self, letter: usize) -> &[Term] {
        &self.dead[letter]
    }

    fn states(&self) -> Box<dyn States + '_> {
        match &self.built {
            Some((_, nfa)) => Box::new(Explicit::new(nfa.borrow().clone().into())),
            None => Box::new(OnTheFly(&self.states)),
        }
    }

    fn reach_proof(&self, entry: &str, reach: &NestedReach, annotation: &[Term], config: &Config) -> Proof {
        annotation::proof_of_states(entry, &self.built().0, reach, annotation, config)
    }

    /// The annotation of every product state, checked on the product.
    fn proof(&self, entry: &str, dfas: &mut [PredicateDfa], _: &Rc<RefCell<Shared>>, config: &Config) -> Option<Proof> {
        let (cfg, nfa) = self.built();
        proof_of(&nfa.borrow(), cfg, entry, dfas, config)
    }
}

/// The interleavings explored as an engine asks for states (every state may be reached by
/// several interleavings).
struct OnTheFly<'s, 'a>(&'s RefCell<Interleavings<'a>>);

impl States for OnTheFly<'_, '_> {
    fn initial(&self) -> usize {
        self.0.borrow().initial()
    }

    fn successors(&self, state: usize, _: Option<usize>) -> Result<Vec<(usize, usize)>, String> {
        self.0.borrow_mut().successors(state).map_err(|e| format!("interleavings: {e}"))
    }

    fn accepting(&self, state: usize) -> bool {
        self.0.borrow().violation(state).is_some()
    }

    fn join(&self, _: usize) -> bool {
        true
    }
}

/// Why the interleavings were not built; too many of them may be fewer with fewer thread
/// instances.
fn unbuilt(e: ProductError) -> Unknown {
    let retry = matches!(e, ProductError::TooLarge).then_some(Retry::FewerThreadInstances);
    Unknown { reason: format!("interleavings: {e}"), retry }
}

/// Runs trace abstraction on the interleavings of the threads of `tp`.
pub fn verify(entry: &str, tp: &ThreadProgram, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
    match Interleaved::new(tp, config, stats) {
        Ok(a) => cegar::run(entry, &a, config, stats),
        Err(u) => (Verdict::Unknown(u), None),
    }
}
