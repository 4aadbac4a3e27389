//! Automata over program statements. Letters are statement ids (`usize`); the automata know
//! nothing about what a letter means.
//!
//! Trace abstraction needs one operation: the shortest word accepted by the program automaton
//! and rejected by every subtrahend automaton (the difference, built on the fly). Subtrahends
//! are deterministic automata computed lazily ([`LazyDfa`]) whose accepting states are sinks,
//! so a product state in which any subtrahend accepts can be pruned with all its successors.

pub mod buchi;
pub mod nested;

pub use buchi::{shortest_lasso_in_difference, Lasso, LazyDba};
pub use nested::{nested_reachable_in_difference, nested_word_in_difference, LazyDnwa, NestedEmptiness, NestedReach, NestedReturn, Nwa};

use std::borrow::Cow;
use std::collections::HashMap;
use std::collections::VecDeque;

/// A letter of the alphabet (a statement id).
pub type Letter = usize;

/// A state of a difference: the program automaton's state and each subtrahend's state.
pub type ProductState = (usize, Vec<usize>);

/// A finite automaton given explicitly: the control-flow graph as an automaton.
#[derive(Clone, Debug, Default)]
pub struct Nfa {
    pub initial: usize,
    /// Outgoing transitions `(letter, target)` of each state.
    pub transitions: Vec<Vec<(Letter, usize)>>,
    pub accepting: Vec<bool>,
}

/// An automaton whose transitions a search asks for state by state (a [`Nfa`] built whole, or
/// one explored on the fly, which may fail to give a state's transitions).
pub trait Explorable {
    fn initial(&self) -> usize;
    /// The transitions `(letter, target)` that leave `state`.
    fn transitions(&mut self, state: usize) -> Result<Cow<'_, [(Letter, usize)]>, Interrupted>;
    fn accepting(&self, state: usize) -> bool;
}

impl Explorable for &Nfa {
    fn initial(&self) -> usize {
        self.initial
    }

    fn transitions(&mut self, state: usize) -> Result<Cow<'_, [(Letter, usize)]>, Interrupted> {
        Ok(Cow::Borrowed(self.transitions.get(state).map(Vec::as_slice).unwrap_or(&[])))
    }

    fn accepting(&self, state: usize) -> bool {
        self.accepting.get(state).copied().unwrap_or(false)
    }
}

/// A deterministic automaton whose transitions are computed on demand. Accepting states are
/// sinks (every extension of an accepted word is accepted); `None` stands for them.
pub trait LazyDfa {
    /// The initial state, or `None` if it already accepts.
    fn initial(&mut self) -> Option<usize>;
    /// The successor of `state` under `letter`, or `None` for the accepting sink.
    fn successor(&mut self, state: usize, letter: Letter) -> Option<usize>;
}

/// Why a search stopped early.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interrupted(pub String);

/// The result of a difference emptiness check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Emptiness {
    /// No word is accepted by the difference.
    Empty,
    /// A shortest accepted word: its letters and the accepting state reached.
    Word { letters: Vec<Letter>, target: usize },
}

/// Breadth-first search for a shortest word in `L(nfa) \ ⋃ L(subtrahends)`. `interrupt` is
/// polled regularly; returning `Some(reason)` stops the search.
pub fn shortest_in_difference(
    nfa: &mut dyn Explorable,
    subtrahends: &mut [&mut dyn LazyDfa],
    interrupt: &mut dyn FnMut(usize) -> Option<String>,
) -> Result<Emptiness, Interrupted> {
    let search = explore(nfa, subtrahends, interrupt)?;
    Ok(match search.accepted {
        Some(id) => Emptiness::Word { letters: word_to(&search.parent, id), target: search.states[id].0 },
        None => Emptiness::Empty,
    })
}

/// Every state of the difference's product reachable from the initial one, as the pair of the
/// program automaton's state and the subtrahends' states; `None` if the difference is not
/// empty (an accepting state is reachable). Transitions of the lazy automata computed before
/// are reused, so after an emptiness check this costs no new transitions.
pub fn reachable_in_difference(
    nfa: &mut dyn Explorable,
    subtrahends: &mut [&mut dyn LazyDfa],
    interrupt: &mut dyn FnMut(usize) -> Option<String>,
) -> Result<Option<Vec<ProductState>>, Interrupted> {
    let search = explore(nfa, subtrahends, interrupt)?;
    Ok(search.accepted.is_none().then_some(search.states))
}

struct Search {
    states: Vec<ProductState>,
    parent: Vec<Option<(usize, Letter)>>,
    /// The first accepting product state found (the search stops there).
    accepted: Option<usize>,
}

fn explore(
    nfa: &mut dyn Explorable,
    subtrahends: &mut [&mut dyn LazyDfa],
    interrupt: &mut dyn FnMut(usize) -> Option<String>,
) -> Result<Search, Interrupted> {
    let mut init = Vec::with_capacity(subtrahends.len());
    for d in subtrahends.iter_mut() {
        match d.initial() {
            Some(s) => init.push(s),
            None => return Ok(Search { states: vec![], parent: vec![], accepted: None }),
        }
    }
    let mut ids: HashMap<ProductState, usize> = HashMap::new();
    let mut states: Vec<ProductState> = vec![];
    let mut parent: Vec<Option<(usize, Letter)>> = vec![];
    let mut queue = VecDeque::new();
    ids.insert((nfa.initial(), init.clone()), 0);
    states.push((nfa.initial(), init));
    parent.push(None);
    queue.push_back(0);
    while let Some(id) = queue.pop_front() {
        if let Some(reason) = interrupt(states.len()) {
            return Err(Interrupted(reason));
        }
        let (q, dfa_states) = states[id].clone();
        if nfa.accepting(q) {
            return Ok(Search { states, parent, accepted: Some(id) });
        }
        'edges: for &(letter, q2) in nfa.transitions(q)?.iter() {
            let mut next = Vec::with_capacity(dfa_states.len());
            for (d, &s) in subtrahends.iter_mut().zip(&dfa_states) {
                match d.successor(s, letter) {
                    Some(s2) => next.push(s2),
                    None => continue 'edges,
                }
            }
            let key = (q2, next);
            if !ids.contains_key(&key) {
                let nid = states.len();
                ids.insert(key.clone(), nid);
                states.push(key);
                parent.push(Some((id, letter)));
                queue.push_back(nid);
            }
        }
    }
    Ok(Search { states, parent, accepted: None })
}

fn word_to(parent: &[Option<(usize, Letter)>], mut id: usize) -> Vec<Letter> {
    let mut word = vec![];
    while let Some((p, l)) = parent[id] {
        word.push(l);
        id = p;
    }
    word.reverse();
    word
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rejects every word containing letter `bad`.
    struct Avoid {
        bad: Letter,
    }
    impl LazyDfa for Avoid {
        fn initial(&mut self) -> Option<usize> {
            Some(0)
        }
        fn successor(&mut self, state: usize, letter: Letter) -> Option<usize> {
            (letter != self.bad).then_some(state)
        }
    }

    fn diamond() -> Nfa {
        // 0 -a-> 1 -b-> 3 ; 0 -c-> 2 -d-> 4 -e-> 3 ; 3 accepting
        Nfa {
            initial: 0,
            transitions: vec![vec![(0, 1), (2, 2)], vec![(1, 3)], vec![(3, 4)], vec![], vec![(4, 3)]],
            accepting: vec![false, false, false, true, false],
        }
    }

    #[test]
    fn finds_shortest_word() {
        let r = shortest_in_difference(&mut &diamond(), &mut [], &mut |_| None);
        assert_eq!(r, Ok(Emptiness::Word { letters: vec![0, 1], target: 3 }));
    }

    #[test]
    fn subtrahend_removes_words() {
        let mut a = Avoid { bad: 1 };
        let r = shortest_in_difference(&mut &diamond(), &mut [&mut a], &mut |_| None);
        assert_eq!(r, Ok(Emptiness::Word { letters: vec![2, 3, 4], target: 3 }));
        let mut b = Avoid { bad: 4 };
        let mut a = Avoid { bad: 1 };
        let r = shortest_in_difference(&mut &diamond(), &mut [&mut a, &mut b], &mut |_| None);
        assert_eq!(r, Ok(Emptiness::Empty));
    }

    #[test]
    fn reachable_states_of_an_empty_difference() {
        let mut a = Avoid { bad: 1 };
        let mut b = Avoid { bad: 4 };
        let r = reachable_in_difference(&mut &diamond(), &mut [&mut a, &mut b], &mut |_| None).unwrap().unwrap();
        let mut locs: Vec<usize> = r.iter().map(|(q, _)| *q).collect();
        locs.sort();
        assert_eq!(locs, vec![0, 1, 2, 4]);
        let r = reachable_in_difference(&mut &diamond(), &mut [], &mut |_| None).unwrap();
        assert!(r.is_none());
    }

    #[test]
    fn interrupt_stops_search() {
        let r = shortest_in_difference(&mut &diamond(), &mut [], &mut |_| Some("timeout".into()));
        assert_eq!(r, Err(Interrupted("timeout".into())));
    }
}
