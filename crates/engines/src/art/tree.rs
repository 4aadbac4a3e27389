//! The abstract reachability tree: nodes labelled with a state of the program automaton (a
//! location, or a vector of locations for threads) and a region (a conjunction of
//! predicates), and the covering relation between them.
//!
//! Every label is inductive relative to its parent's (`region(parent) ∧ letter ⇒ region'`),
//! and a node is covered only by an expanded node at the same state whose region is weaker
//! (a subset of its predicates). So the regions of the expanded nodes at a state over-
//! approximate every concrete state that reaches it, and when no node is left to expand their
//! disjunction is an inductive invariant.

use smt::Term;
use std::collections::{BTreeSet, HashMap};

/// A region: the conjunction of its predicates.
pub(crate) type Region = BTreeSet<Term>;

pub(crate) struct Node {
    pub(crate) state: usize,
    pub(crate) region: Region,
    /// The parent and the letter from it.
    pub(crate) parent: Option<(usize, usize)>,
    children: Vec<usize>,
    covered_by: Option<usize>,
    expanded: bool,
    alive: bool,
}

pub(crate) struct Tree {
    pub(crate) nodes: Vec<Node>,
    /// The nodes each node covers (some may have been uncovered or removed since).
    covers: Vec<Vec<usize>>,
    /// The expanded nodes of each state, the candidates to cover a node there.
    expanded_at: HashMap<usize, Vec<usize>>,
}

impl Tree {
    /// A tree of one node, the root at `state` with the region `true`.
    pub(crate) fn new(state: usize) -> Tree {
        let mut tree = Tree { nodes: vec![], covers: vec![], expanded_at: HashMap::new() };
        tree.push(None, state, Region::new());
        tree
    }

    fn push(&mut self, parent: Option<(usize, usize)>, state: usize, region: Region) -> usize {
        self.nodes.push(Node { state, region, parent, children: vec![], covered_by: None, expanded: false, alive: true });
        self.covers.push(vec![]);
        self.nodes.len() - 1
    }

    /// A new child of `parent` by `letter`.
    pub(crate) fn add(&mut self, parent: usize, letter: usize, state: usize, region: Region) -> usize {
        let n = self.push(Some((parent, letter)), state, region);
        self.nodes[parent].children.push(n);
        n
    }

    /// Whether `n` still waits to be expanded (alive, not covered, not expanded).
    pub(crate) fn waiting(&self, n: usize) -> bool {
        let node = &self.nodes[n];
        node.alive && !node.expanded && node.covered_by.is_none()
    }

    /// The nodes from the root to `n` and the letters between them.
    pub(crate) fn path(&self, n: usize) -> (Vec<usize>, Vec<usize>) {
        let mut nodes = vec![n];
        let mut letters = vec![];
        let mut here = n;
        while let Some((p, l)) = self.nodes[here].parent {
            nodes.push(p);
            letters.push(l);
            here = p;
        }
        nodes.reverse();
        letters.reverse();
        (nodes, letters)
    }

    /// Covers `n` by an expanded node at its state with a weaker region, if there is one.
    pub(crate) fn try_cover(&mut self, n: usize) -> bool {
        let node = &self.nodes[n];
        let by =
            self.expanded_at.get(&node.state).and_then(|at| at.iter().copied().find(|&m| self.nodes[m].region.is_subset(&node.region)));
        if let Some(m) = by {
            self.nodes[n].covered_by = Some(m);
            self.covers[m].push(n);
        }
        by.is_some()
    }

    pub(crate) fn mark_expanded(&mut self, n: usize) {
        self.nodes[n].expanded = true;
        self.expanded_at.entry(self.nodes[n].state).or_default().push(n);
    }

    /// The nodes `m` covers that it no longer may (removed, or its region is no longer weaker),
    /// now uncovered.
    fn uncover_from(&mut self, m: usize, all: bool) -> Vec<usize> {
        let mut uncovered = vec![];
        for k in std::mem::take(&mut self.covers[m]) {
            if self.nodes[k].covered_by != Some(m) || !self.nodes[k].alive {
                continue;
            }
            if all || !self.nodes[m].region.is_subset(&self.nodes[k].region) {
                self.nodes[k].covered_by = None;
                uncovered.push(k);
            } else {
                self.covers[m].push(k);
            }
        }
        uncovered
    }

    /// Removes `n` and its descendants; the nodes they covered, now uncovered.
    pub(crate) fn remove_subtree(&mut self, n: usize) -> Vec<usize> {
        if let Some((p, _)) = self.nodes[n].parent {
            self.nodes[p].children.retain(|&c| c != n);
        }
        let mut uncovered = vec![];
        let mut stack = vec![n];
        while let Some(x) = stack.pop() {
            let node = &mut self.nodes[x];
            node.alive = false;
            stack.append(&mut node.children);
            if node.expanded {
                if let Some(at) = self.expanded_at.get_mut(&node.state) {
                    at.retain(|&m| m != x);
                }
            }
            uncovered.extend(self.uncover_from(x, true));
        }
        uncovered.retain(|&k| self.nodes[k].alive);
        uncovered
    }

    /// Conjoins `preds` to the region of `n`; the nodes it covered and no longer covers.
    pub(crate) fn strengthen(&mut self, n: usize, preds: impl IntoIterator<Item = Term>) -> Vec<usize> {
        let before = self.nodes[n].region.len();
        self.nodes[n].region.extend(preds);
        if self.nodes[n].region.len() == before {
            return vec![];
        }
        self.uncover_from(n, false)
    }

    /// The regions of the expanded nodes at each state (every alive node is expanded or
    /// covered by one of them when the search ends).
    pub(crate) fn regions_by_state(&self, states: usize) -> Vec<Vec<&Region>> {
        let mut by = vec![vec![]; states];
        for (&s, at) in &self.expanded_at {
            by[s] = at.iter().map(|&m| &self.nodes[m].region).collect();
        }
        by
    }

    /// Nodes created so far.
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smt::build::{int, le};
    use smt::Sort;

    fn pred(k: i64) -> Term {
        le(&Term::var("x", Sort::Int), &int(k))
    }

    #[test]
    fn a_node_is_covered_by_a_weaker_expanded_node_and_uncovered_when_it_is_removed_or_strengthened() {
        let mut t = Tree::new(0);
        let a = t.add(0, 0, 1, Region::from([pred(1)]));
        let b = t.add(0, 1, 1, Region::from([pred(1), pred(2)]));
        assert!(!t.try_cover(b), "nothing expanded at state 1 yet");
        t.mark_expanded(a);
        assert!(t.try_cover(b) && !t.waiting(b));
        assert_eq!(t.strengthen(a, [pred(2)]), Vec::<usize>::new(), "b still implies a's region");
        assert_eq!(t.strengthen(a, [pred(3)]), vec![b]);
        assert!(t.waiting(b));
        assert!(!t.try_cover(b));
        let c = t.add(0, 2, 1, Region::from([pred(1), pred(2), pred(3)]));
        assert!(t.try_cover(c));
        assert_eq!(t.remove_subtree(a), vec![c]);
        assert!(t.waiting(c) && !t.try_cover(c));
        assert_eq!(t.path(c), (vec![0, c], vec![2]));
    }
}
