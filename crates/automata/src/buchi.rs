//! Büchi automata for termination. The program automaton is an [`Nfa`] read as a Büchi
//! automaton (a run is accepting when it visits accepting states infinitely often); the
//! subtrahends are deterministic Büchi automata with accepting transitions, computed lazily
//! ([`LazyDba`]). A word of the difference is a lasso `stem loop^ω`: a cycle of the product
//! through an accepting state of the program automaton on which no subtrahend takes an
//! accepting transition (a deterministic automaton's run on `stem loop^ω` ends in that cycle,
//! so it rejects the word).

use crate::{Interrupted, LazyDfa, Letter, Nfa, ProductState};
use std::collections::{HashMap, VecDeque};

/// A deterministic Büchi automaton whose transitions are computed on demand; a run is
/// accepting when it takes accepting transitions infinitely often. `None` (from [`LazyDfa`])
/// is an accepting sink: every infinite word that reaches it is accepted.
pub trait LazyDba: LazyDfa {
    /// Whether the transition from `state` under `letter` is accepting.
    fn accepting(&self, state: usize, letter: Letter) -> bool;
}

/// An ultimately periodic word `stem loop^ω` (`loop` is not empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lasso {
    pub stem: Vec<Letter>,
    pub looped: Vec<Letter>,
    /// The program automaton's state where the loop starts and ends.
    pub honda: usize,
}

/// The reachable part of the product, with every transition.
struct Product {
    states: Vec<ProductState>,
    edges: Vec<Vec<(Letter, usize)>>,
    parent: Vec<Option<(usize, Letter)>>,
}

/// A shortest lasso (shortest stem plus cycle over the candidate hondas) of
/// `L(nba) \ ⋃ L(subtrahends)`, `None` if the difference is empty. `interrupt` is polled
/// regularly; returning `Some(reason)` stops the search.
pub fn shortest_lasso_in_difference(
    nba: &Nfa,
    subtrahends: &mut [&mut dyn LazyDba],
    interrupt: &mut dyn FnMut(usize) -> Option<String>,
) -> Result<Option<Lasso>, Interrupted> {
    let Some(mut product) = explore(nba, subtrahends, interrupt)? else { return Ok(None) };
    // A cycle may only take transitions on which no subtrahend accepts.
    for (id, edges) in product.edges.iter_mut().enumerate() {
        let ds = &product.states[id].1;
        edges.retain(|&(letter, _)| ds.iter().zip(subtrahends.iter()).all(|(&s, d)| !d.accepting(s, letter)));
    }
    let mut component = vec![usize::MAX; product.states.len()];
    let mut hondas = vec![];
    for (c, scc) in sccs(&product.edges).into_iter().enumerate() {
        for s in scc {
            component[s] = c;
            if nba.accepting.get(product.states[s].0).copied().unwrap_or(false) {
                hondas.push(s);
            }
        }
    }
    // Ids are in breadth-first order, so stems only grow along the sorted candidates.
    hondas.sort_unstable();
    let mut best: Option<Lasso> = None;
    for h in hondas {
        let stem = crate::word_to(&product.parent, h);
        if best.as_ref().is_some_and(|b| stem.len() + 1 >= b.stem.len() + b.looped.len()) {
            break;
        }
        let Some(looped) = cycle(&product.edges, &component, h) else { continue };
        if best.as_ref().is_none_or(|b| stem.len() + looped.len() < b.stem.len() + b.looped.len()) {
            best = Some(Lasso { stem, looped, honda: product.states[h].0 });
        }
    }
    Ok(best)
}

/// Breadth-first exploration of the product; `None` when a subtrahend's initial state is
/// already the accepting sink (nothing is left).
fn explore(
    nba: &Nfa,
    subtrahends: &mut [&mut dyn LazyDba],
    interrupt: &mut dyn FnMut(usize) -> Option<String>,
) -> Result<Option<Product>, Interrupted> {
    let mut init = Vec::with_capacity(subtrahends.len());
    for d in subtrahends.iter_mut() {
        match d.initial() {
            Some(s) => init.push(s),
            None => return Ok(None),
        }
    }
    let mut ids: HashMap<ProductState, usize> = HashMap::from([((nba.initial, init.clone()), 0)]);
    let mut p = Product { states: vec![(nba.initial, init)], edges: vec![vec![]], parent: vec![None] };
    let mut queue = VecDeque::from([0]);
    while let Some(id) = queue.pop_front() {
        if let Some(reason) = interrupt(p.states.len()) {
            return Err(Interrupted(reason));
        }
        let (q, ds) = p.states[id].clone();
        'edges: for &(letter, q2) in nba.transitions.get(q).map(Vec::as_slice).unwrap_or(&[]) {
            let mut next = Vec::with_capacity(ds.len());
            for (d, &s) in subtrahends.iter_mut().zip(&ds) {
                match d.successor(s, letter) {
                    Some(s2) => next.push(s2),
                    // The sink accepts every continuation: nothing of the difference is left.
                    None => continue 'edges,
                }
            }
            let key = (q2, next);
            let target = match ids.get(&key) {
                Some(&t) => t,
                None => {
                    let t = p.states.len();
                    ids.insert(key.clone(), t);
                    p.states.push(key);
                    p.edges.push(vec![]);
                    p.parent.push(Some((id, letter)));
                    queue.push_back(t);
                    t
                }
            };
            p.edges[id].push((letter, target));
        }
    }
    Ok(Some(p))
}

/// The strongly connected components (Tarjan's algorithm, iterative) of the graph that
/// contain a cycle (more than one node, or a self-loop).
fn sccs(edges: &[Vec<(Letter, usize)>]) -> Vec<Vec<usize>> {
    let n = edges.len();
    let (mut index, mut low, mut on_stack) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut out, mut counter) = (vec![], vec![], 0);
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // (node, next edge to look at)
        let mut work = vec![(root, 0)];
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut next)) = work.last_mut() {
            if let Some(&(_, w)) = edges[v].get(*next) {
                *next += 1;
                if index[w] == usize::MAX {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut scc = vec![];
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    scc.push(w);
                    if w == v {
                        break;
                    }
                }
                let cyclic = scc.len() > 1 || edges[v].iter().any(|&(_, w)| w == v);
                if cyclic {
                    out.push(scc);
                }
            }
        }
    }
    out
}

/// A shortest cycle from `h` back to `h` within its strongly connected `component`
/// (breadth-first).
fn cycle(edges: &[Vec<(Letter, usize)>], component: &[usize], h: usize) -> Option<Vec<Letter>> {
    let mut parent: HashMap<usize, (usize, Letter)> = HashMap::new();
    let mut queue = VecDeque::from([h]);
    while let Some(v) = queue.pop_front() {
        for &(letter, w) in &edges[v] {
            if component[w] != component[h] {
                continue;
            }
            if w == h {
                let mut word = vec![letter];
                let mut at = v;
                while at != h {
                    let (p, l) = parent[&at];
                    word.push(l);
                    at = p;
                }
                word.reverse();
                return Some(word);
            }
            if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(w) {
                e.insert((v, letter));
                queue.push_back(w);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Accepts (as a Büchi automaton) the words with infinitely many `good` letters: one
    /// state, the `good` transitions accepting.
    struct InfinitelyOften {
        good: Letter,
    }
    impl LazyDfa for InfinitelyOften {
        fn initial(&mut self) -> Option<usize> {
            Some(0)
        }
        fn successor(&mut self, _: usize, _: Letter) -> Option<usize> {
            Some(0)
        }
    }
    impl LazyDba for InfinitelyOften {
        fn accepting(&self, _: usize, letter: Letter) -> bool {
            letter == self.good
        }
    }

    /// 0 -a-> 1; 1 -b-> 1; 1 -c-> 2; 2 -d-> 1 (every state accepting).
    fn two_loops() -> Nfa {
        Nfa { initial: 0, transitions: vec![vec![(0, 1)], vec![(1, 1), (2, 2)], vec![(3, 1)]], accepting: vec![true; 3] }
    }

    #[test]
    fn finds_the_shortest_lasso() {
        let r = shortest_lasso_in_difference(&two_loops(), &mut [], &mut |_| None).unwrap();
        assert_eq!(r, Some(Lasso { stem: vec![0], looped: vec![1], honda: 1 }));
    }

    #[test]
    fn subtrahends_remove_lassos() {
        let mut no_b = InfinitelyOften { good: 1 };
        let r = shortest_lasso_in_difference(&two_loops(), &mut [&mut no_b], &mut |_| None).unwrap();
        assert_eq!(r, Some(Lasso { stem: vec![0], looped: vec![2, 3], honda: 1 }));
        // Words with infinitely many `b` or infinitely many `d`: all of them.
        let (mut no_b, mut no_d) = (InfinitelyOften { good: 1 }, InfinitelyOften { good: 3 });
        let r = shortest_lasso_in_difference(&two_loops(), &mut [&mut no_b, &mut no_d], &mut |_| None).unwrap();
        assert_eq!(r, None);
    }

    #[test]
    fn a_program_without_cycles_has_no_lasso() {
        let nfa = Nfa { initial: 0, transitions: vec![vec![(0, 1)], vec![]], accepting: vec![true; 2] };
        assert_eq!(shortest_lasso_in_difference(&nfa, &mut [], &mut |_| None).unwrap(), None);
    }

    #[test]
    fn interrupt_stops_the_search() {
        let r = shortest_lasso_in_difference(&two_loops(), &mut [], &mut |_| Some("timeout".into()));
        assert_eq!(r, Err(Interrupted("timeout".into())));
    }
}
