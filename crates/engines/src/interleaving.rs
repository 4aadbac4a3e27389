//! Trace abstraction over the interleavings of a concurrent program ([`cegar`] runs the loop).
//! The program automaton is the product of the threads (`ir::threads::product`), each thread's
//! CFG encoded so that no block hides a point where another thread may touch shared state. A
//! letter is a statement of one thread: the same statement in every product state where the
//! thread takes it is one letter, so an interpolant automaton that proves one interleaving
//! infeasible removes every interleaving that fails for the same reason.

use crate::annotation::{self, Proof};
use crate::automizer::{proof_of, shortest_error_word};
use crate::cegar::{self, Abstraction, ErrorWord, Kind, Letter};
use crate::predicate_dfa::{PredicateDfa, Shared};
use crate::{Config, Por, Retry, Stats, Unknown, Verdict};
use automata::{Interrupted, NestedReach, Nfa, Nwa};
use ir::threads::{product, Move, MoveKind, Product, ProductError};
use ir::{Cfg, ThreadProgram, Violation};
use refine::nested::Nesting;
use smt::Term;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

pub(crate) struct Interleaved<'a> {
    tp: &'a ThreadProgram,
    product: Product,
    /// The product as an automaton (its accepting states change when one is set aside).
    nfa: RefCell<Nfa>,
    letters: Vec<Letter>,
    /// The move of each letter.
    moves: Vec<Move>,
}

impl<'a> Interleaved<'a> {
    /// The interleavings of `tp`'s threads (their size counted in `stats`).
    pub(crate) fn new(tp: &'a ThreadProgram, config: &Config, stats: &mut Stats) -> Result<Interleaved<'a>, Unknown> {
        let encode = |t: &ir::threads::Thread| match config.large_blocks {
            true => ir::thread_block_encoding(&t.cfg, &tp.shared, !tp.race_data.is_empty()),
            false => t.cfg.clone(),
        };
        let encoded: Vec<Cfg> = tp.threads.iter().map(encode).collect();
        let product = product(tp, &encoded, matches!(config.por, Por::Persistent | Por::Both), config.deadline).map_err(unbuilt)?;
        let full = product.cfg.locs.len();
        let product = match config.por {
            Por::None | Por::Persistent => product,
            Por::Sleep | Por::Both => {
                let templates: Vec<&str> = tp.threads.iter().map(|t| t.template.as_str()).collect();
                ir::por::sleep_set_reduction(&product, &templates, config.commutativity, config.deadline).map_err(unbuilt)?
            }
        };
        tracing::debug!(product = full, reduced = product.cfg.locs.len(), edges = product.cfg.edges.len(), "partial-order reduction");
        let mut ids: HashMap<Move, usize> = HashMap::new();
        let mut letters = vec![];
        let mut moves = vec![];
        let mut transitions = vec![Vec::new(); product.cfg.locs.len()];
        for (pe, m) in product.cfg.edges.iter().zip(&product.moves) {
            let letter = *ids.entry(*m).or_insert_with(|| {
                // The letter's edge is the thread's, between the thread's own locations.
                let own = &encoded[m.thread].edges[m.edge];
                letters.push(Letter::new(pe.stmt(), Kind::Internal, &pe.between(own.src, own.dst), m.thread));
                moves.push(*m);
                letters.len() - 1
            });
            transitions[pe.src].push((letter, pe.dst));
        }
        let accepting = product.cfg.locs.iter().map(|l| l.error.is_some()).collect();
        let nfa = Nfa { initial: product.cfg.entry, transitions, accepting };
        tracing::debug!(threads = tp.threads.len(), states = product.cfg.locs.len(), letters = letters.len(), "interleavings");
        stats.interleaved_states += product.cfg.locs.len();
        stats.interleaved_transitions += product.cfg.edges.len();
        Ok(Interleaved { tp, product, nfa: RefCell::new(nfa), letters, moves })
    }
}

impl Abstraction for Interleaved<'_> {
    fn letters(&self) -> &[Letter] {
        &self.letters
    }

    fn violation(&self, state: usize) -> Option<Violation> {
        self.product.cfg.locs[state].error.clone()
    }

    fn original(&self, thread: usize) -> &Cfg {
        &self.tp.threads[thread].cfg
    }

    fn thread_of(&self, letter: usize) -> Option<(usize, Option<usize>)> {
        let m = self.moves[letter];
        Some((m.thread, if let MoveKind::Fork(j) = m.kind { Some(j) } else { None }))
    }

    fn error_word(
        &self,
        dfas: &mut [PredicateDfa],
        interrupt: &mut dyn FnMut(usize) -> Option<String>,
    ) -> Result<Option<ErrorWord>, Interrupted> {
        shortest_error_word(&self.nfa.borrow(), dfas, interrupt)
    }

    fn nesting(&self, _: &[usize]) -> Option<Nesting> {
        None
    }

    /// The product states a word runs through (a letter leads from a state to one state).
    fn path(&self, word: &[usize]) -> Option<Vec<usize>> {
        let nfa = self.nfa.borrow();
        let mut path = vec![nfa.initial];
        for &l in word {
            let here = *path.last()?;
            path.push(nfa.transitions[here].iter().find(|(x, _)| *x == l)?.1);
        }
        Some(path)
    }

    /// A fork beyond the thread instances is set aside: a run may still reach an error.
    fn set_aside(&self, state: usize) -> bool {
        let limit = self.product.cfg.locs[state].error.as_ref().is_some_and(|v| v.kind == ir::ViolationKind::ThreadLimit);
        if limit {
            self.nfa.borrow_mut().accepting[state] = false;
        }
        limit
    }

    fn automaton(&self) -> Nwa {
        self.nfa.borrow().clone().into()
    }

    fn reach_proof(&self, entry: &str, reach: &NestedReach, annotation: &[Term], config: &Config) -> Proof {
        annotation::proof_of_states(entry, &self.product.cfg, reach, annotation, config)
    }

    /// The annotation of every product state, checked on the product.
    fn proof(&self, entry: &str, dfas: &mut [PredicateDfa], _: &Rc<RefCell<Shared>>, config: &Config) -> Option<Proof> {
        proof_of(&self.nfa.borrow(), &self.product.cfg, entry, dfas, config)
    }
}

/// Why the interleavings were not built; too many of them may be fewer with fewer thread
/// instances.
fn unbuilt(e: ProductError) -> Unknown {
    let retry = matches!(e, ProductError::TooLarge { .. }).then_some(Retry::FewerThreadInstances);
    Unknown { reason: format!("interleavings: {e}"), retry }
}

/// Runs trace abstraction on the interleavings of the threads of `tp`.
pub fn verify(entry: &str, tp: &ThreadProgram, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
    match Interleaved::new(tp, config, stats) {
        Ok(a) => cegar::run(entry, &a, config, stats),
        Err(u) => (Verdict::Unknown(u), None),
    }
}
