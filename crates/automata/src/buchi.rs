//! Büchi automata for termination. The program automaton is an [`Nfa`] read as a Büchi
//! automaton (a run is accepting when it visits accepting states infinitely often); the
//! subtrahends are deterministic automata computed lazily ([`LazyDba`]) whose runs accept
//! when they take accepting transitions infinitely often and breaking transitions only
//! finitely often (a Streett pair; without breaking transitions, a Büchi condition). A word
//! of the difference is a lasso `stem loop^ω`: a cycle of the product through an accepting
//! state of the program automaton on which every subtrahend takes a breaking transition or
//! no accepting one (a deterministic automaton's run on `stem loop^ω` ends in that cycle, so
//! it rejects the word).

use crate::{Interrupted, LazyDfa, Letter, Nfa, ProductState};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

/// A deterministic automaton whose transitions are computed on demand; a run is accepting
/// when it takes accepting transitions infinitely often and breaking ones finitely often.
/// `None` (from [`LazyDfa`]) is an accepting sink: every infinite word that reaches it is
/// accepted.
pub trait LazyDba: LazyDfa {
    /// Whether the transition from `state` under `letter` is accepting.
    fn accepting(&self, state: usize, letter: Letter) -> bool;
    /// Whether the transition from `state` under `letter` is breaking.
    fn breaking(&self, _state: usize, _letter: Letter) -> bool {
        false
    }
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

/// A product transition: its state and the index of the edge among the state's.
type EdgeRef = (usize, usize);

/// Which subtrahends accept, and which break, on each product transition.
struct Marks {
    accepting: Vec<Vec<Vec<usize>>>,
    breaking: Vec<Vec<Vec<usize>>>,
}

/// A set of product states whose cycles are in the difference: a strongly connected
/// component of the transitions still allowed, and one breaking transition of each subtrahend
/// that accepts on one of them (a cycle through all of those is a lasso's loop).
struct Component {
    states: Vec<usize>,
    required: Vec<EdgeRef>,
}

/// A shortest lasso (shortest stem plus cycle over the candidate hondas) of
/// `L(nba) \ ⋃ L(subtrahends)`, `None` if the difference is empty. `interrupt` is polled
/// regularly; returning `Some(reason)` stops the search.
pub fn shortest_lasso_in_difference(
    nba: &Nfa,
    subtrahends: &mut [&mut dyn LazyDba],
    interrupt: &mut dyn FnMut(usize) -> Option<String>,
) -> Result<Option<Lasso>, Interrupted> {
    let Some(product) = explore(nba, subtrahends, interrupt)? else { return Ok(None) };
    let marks = marks(&product, subtrahends);
    let mut allowed: Vec<Vec<bool>> = product.edges.iter().map(|es| vec![true; es.len()]).collect();
    let components = components(&product.edges, &marks, &mut allowed);
    let mut component = vec![usize::MAX; product.states.len()];
    let mut hondas = vec![];
    for (c, comp) in components.iter().enumerate() {
        for &s in &comp.states {
            component[s] = c;
            if nba.accepting.get(product.states[s].0).copied().unwrap_or(false) {
                hondas.push(s);
            }
        }
    }
    let usable = |v: usize, k: usize| allowed[v][k] && component[product.edges[v][k].1] == component[v];
    // Ids are in breadth-first order, so stems only grow along the sorted candidates.
    hondas.sort_unstable();
    let mut best: Option<Lasso> = None;
    for h in hondas {
        let stem = crate::word_to(&product.parent, h);
        if best.as_ref().is_some_and(|b| stem.len() + 1 >= b.stem.len() + b.looped.len()) {
            break;
        }
        let required = &components[component[h]].required;
        let Some(looped) = cycle_through(&product.edges, &usable, h, required) else { continue };
        if best.as_ref().is_none_or(|b| stem.len() + looped.len() < b.stem.len() + b.looped.len()) {
            best = Some(Lasso { stem, looped, honda: product.states[h].0 });
        }
    }
    Ok(best)
}

fn marks(product: &Product, subtrahends: &[&mut dyn LazyDba]) -> Marks {
    let of = |test: &dyn Fn(&dyn LazyDba, usize, Letter) -> bool| -> Vec<Vec<Vec<usize>>> {
        let at = |id: usize, letter: Letter| -> Vec<usize> {
            let ds = &product.states[id].1;
            (0..subtrahends.len()).filter(|&i| test(&*subtrahends[i], ds[i], letter)).collect()
        };
        product.edges.iter().enumerate().map(|(id, es)| es.iter().map(|&(letter, _)| at(id, letter)).collect()).collect()
    };
    Marks { accepting: of(&|d, s, l| d.accepting(s, l)), breaking: of(&|d, s, l| d.breaking(s, l)) }
}

/// The components whose cycles are in the difference (the emptiness check of Streett
/// automata): in a strongly connected component where some subtrahend accepts but never
/// breaks, no cycle of the difference may take that subtrahend's accepting transitions; they
/// are disallowed and the component is split again. The components split in one round are
/// decomposed together in the next (removing transitions joins no two of them).
fn components(edges: &[Vec<(Letter, usize)>], marks: &Marks, allowed: &mut [Vec<bool>]) -> Vec<Component> {
    let mut found = vec![];
    let mut pending: Vec<usize> = (0..edges.len()).collect();
    while !pending.is_empty() {
        let states = std::mem::take(&mut pending);
        for scc in sccs(edges, &states, &|v, k| allowed[v][k]) {
            let inside: BTreeSet<usize> = scc.iter().copied().collect();
            let internal: Vec<EdgeRef> = scc
                .iter()
                .flat_map(|&v| (0..edges[v].len()).map(move |k| (v, k)))
                .filter(|&(v, k)| allowed[v][k] && inside.contains(&edges[v][k].1))
                .collect();
            let accepting: BTreeSet<usize> = internal.iter().flat_map(|&(v, k)| marks.accepting[v][k].iter().copied()).collect();
            let mut breaking: BTreeMap<usize, EdgeRef> = BTreeMap::new();
            for &(v, k) in &internal {
                for &i in &marks.breaking[v][k] {
                    breaking.entry(i).or_insert((v, k));
                }
            }
            let violated: BTreeSet<usize> = accepting.iter().filter(|i| !breaking.contains_key(i)).copied().collect();
            if violated.is_empty() {
                let required = accepting.iter().map(|i| breaking[i]).collect();
                found.push(Component { states: scc, required });
                continue;
            }
            for &(v, k) in &internal {
                if marks.accepting[v][k].iter().any(|i| violated.contains(i)) {
                    allowed[v][k] = false;
                }
            }
            pending.extend(scc);
        }
    }
    found
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

/// The strongly connected components (Tarjan's algorithm, iterative) of the graph on the
/// states `within` and the transitions `keep` allows, that contain a cycle (more than one
/// state, or a self-loop).
fn sccs(edges: &[Vec<(Letter, usize)>], within: &[usize], keep: &dyn Fn(usize, usize) -> bool) -> Vec<Vec<usize>> {
    let n = edges.len();
    let mut member = vec![false; n];
    within.iter().for_each(|&v| member[v] = true);
    let kept = |v: usize, k: usize| keep(v, k) && member[edges[v][k].1];
    let (mut index, mut low, mut on_stack) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut out, mut counter) = (vec![], vec![], 0);
    for &root in within {
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
                let k = *next;
                *next += 1;
                if !kept(v, k) {
                    continue;
                }
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
                let cyclic = scc.len() > 1 || (0..edges[v].len()).any(|k| kept(v, k) && edges[v][k].1 == v);
                if cyclic {
                    out.push(scc);
                }
            }
        }
    }
    out
}

/// A cycle from `h` back to `h` over the `usable` transitions that takes every `required`
/// one (in that order, each reached by a shortest path); a shortest cycle when none is
/// required.
fn cycle_through(
    edges: &[Vec<(Letter, usize)>],
    usable: &dyn Fn(usize, usize) -> bool,
    h: usize,
    required: &[EdgeRef],
) -> Option<Vec<Letter>> {
    let mut word = vec![];
    let mut at = h;
    for &(v, k) in required {
        if at != v {
            word.extend(path(edges, usable, at, v)?);
        }
        word.push(edges[v][k].0);
        at = edges[v][k].1;
    }
    if at != h || word.is_empty() {
        word.extend(path(edges, usable, at, h)?);
    }
    Some(word)
}

/// A shortest non-empty path from `from` to `to` over the `usable` transitions (breadth-first).
fn path(edges: &[Vec<(Letter, usize)>], usable: &dyn Fn(usize, usize) -> bool, from: usize, to: usize) -> Option<Vec<Letter>> {
    let mut parent: HashMap<usize, (usize, Letter)> = HashMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(v) = queue.pop_front() {
        for (k, &(letter, w)) in edges[v].iter().enumerate() {
            if !usable(v, k) {
                continue;
            }
            if w == to {
                let mut word = vec![letter];
                let mut at = v;
                while at != from {
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

    /// Accepts the words with infinitely many letters of `good` and finitely many `bad`.
    struct Streett {
        good: Vec<Letter>,
        bad: Letter,
    }
    impl LazyDfa for Streett {
        fn initial(&mut self) -> Option<usize> {
            Some(0)
        }
        fn successor(&mut self, _: usize, _: Letter) -> Option<usize> {
            Some(0)
        }
    }
    impl LazyDba for Streett {
        fn accepting(&self, _: usize, letter: Letter) -> bool {
            self.good.contains(&letter)
        }
        fn breaking(&self, _: usize, letter: Letter) -> bool {
            letter == self.bad
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
    fn a_cycle_that_breaks_infinitely_often_stays() {
        // b^ω is accepted; (cd)^ω accepts on c but breaks on d, so it stays
        let mut sub = Streett { good: vec![1, 2], bad: 3 };
        let r = shortest_lasso_in_difference(&two_loops(), &mut [&mut sub], &mut |_| None).unwrap();
        assert_eq!(r, Some(Lasso { stem: vec![0], looped: vec![2, 3], honda: 1 }));
        // automata for infinitely many b and infinitely many c remove everything
        let (mut sub, mut c_often) = (Streett { good: vec![1, 2], bad: 3 }, InfinitelyOften { good: 2 });
        let mut b_often = InfinitelyOften { good: 1 };
        let r = shortest_lasso_in_difference(&two_loops(), &mut [&mut sub, &mut c_often, &mut b_often], &mut |_| None).unwrap();
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
