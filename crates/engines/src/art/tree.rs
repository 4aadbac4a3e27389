//! The abstract reachability tree: nodes labelled with a state of the program automaton (a
//! location, or a vector of locations for threads), a call stack and a region (a conjunction
//! of predicates), and the covering relation between them.
//!
//! The call stack of a node is its pending call: the node where the innermost call that has
//! not returned was taken, and its letter (that node's own pending call continues the stack).
//! A return is taken only from the pending call's callee, and its region is the post of the
//! callee's region together with the caller's at the call.
//!
//! Every label is inductive relative to its parent's (`region(parent) ∧ letter ⇒ region'`),
//! and a node is covered only by an expanded node at the same state with the same call stack
//! whose region is weaker (implied by its own: a subset of its predicates, or, under Boolean
//! abstraction, by the solver). So the regions of the expanded nodes at a state
//! over-approximate every concrete state that reaches it, and when no node is left to expand
//! their disjunction is an inductive invariant.

use automata::{NestedReach, NestedReturn};
use smt::build::and;
use smt::Term;
use std::collections::{BTreeSet, HashMap};

/// A region: the conjunction of its predicates.
pub(crate) type Region = BTreeSet<Term>;

/// Whether a region is weaker than another (`weaker(a, b)`: `b` implies `a`).
pub(crate) type Weaker<'w> = dyn FnMut(&Region, &Region) -> bool + 'w;

/// The conjunction of a region's predicates.
pub(crate) fn and_of(region: &Region) -> Term {
    and(&region.iter().cloned().collect::<Vec<_>>())
}

/// A pending call: the node that took it and the call letter.
pub(crate) type Call = Option<(usize, usize)>;

/// How a node is reached from its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    Internal,
    Call,
    /// A return, with the node of the call it returns from.
    Return {
        hier: usize,
    },
}

/// Weaker by the predicates alone: a subset of them.
pub(crate) fn subset(a: &Region, b: &Region) -> bool {
    a.is_subset(b)
}

pub(crate) struct Node {
    pub(crate) state: usize,
    pub(crate) region: Region,
    /// The parent and the letter from it.
    pub(crate) parent: Option<(usize, usize)>,
    /// The innermost pending call (`None`: in the entry procedure).
    pub(crate) call: Call,
    children: Vec<usize>,
    covered_by: Option<usize>,
    expanded: bool,
    alive: bool,
}

pub(crate) struct Tree {
    pub(crate) nodes: Vec<Node>,
    /// The nodes each node covers (some may have been uncovered or removed since).
    covers: Vec<Vec<usize>>,
    /// The expanded nodes of each state and call stack, the candidates to cover a node there.
    expanded_at: HashMap<(usize, Call), Vec<usize>>,
}

impl Tree {
    /// A tree of one node, the root at `state` with the region `true`.
    pub(crate) fn new(state: usize) -> Tree {
        let mut tree = Tree { nodes: vec![], covers: vec![], expanded_at: HashMap::new() };
        tree.push(None, state, None, Region::new());
        tree
    }

    fn push(&mut self, parent: Option<(usize, usize)>, state: usize, call: Call, region: Region) -> usize {
        self.nodes.push(Node { state, region, parent, call, children: vec![], covered_by: None, expanded: false, alive: true });
        self.covers.push(vec![]);
        self.nodes.len() - 1
    }

    /// A new child of `parent` by `letter`, with the pending call `call`.
    pub(crate) fn add(&mut self, parent: usize, letter: usize, state: usize, call: Call, region: Region) -> usize {
        let n = self.push(Some((parent, letter)), state, call, region);
        self.nodes[parent].children.push(n);
        n
    }

    /// The pending call after taking `letter` by `step` from `n`.
    pub(crate) fn call_after(&self, n: usize, letter: usize, step: Step) -> Call {
        match step {
            Step::Internal => self.nodes[n].call,
            Step::Call => Some((n, letter)),
            Step::Return { hier } => self.nodes[hier].call,
        }
    }

    /// The parent of `c`, the letter and how (`None` for the root).
    pub(crate) fn step_to(&self, c: usize) -> Option<(usize, usize, Step)> {
        let (p, letter) = self.nodes[c].parent?;
        let step = match self.nodes[p].call {
            call if self.nodes[c].call == call => Step::Internal,
            _ if self.nodes[c].call == Some((p, letter)) => Step::Call,
            Some((hier, _)) => Step::Return { hier },
            None => unreachable!("a return needs a pending call"),
        };
        Some((p, letter, step))
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

    /// Covers `n` by an expanded node at its state with a weaker region, if there is one
    /// (`weaker(a, b)`: `b` implies `a`).
    pub(crate) fn try_cover(&mut self, n: usize, weaker: &mut Weaker) -> bool {
        let node = &self.nodes[n];
        let by = self
            .expanded_at
            .get(&(node.state, node.call))
            .and_then(|at| at.iter().copied().find(|&m| weaker(&self.nodes[m].region, &node.region)));
        if let Some(m) = by {
            self.nodes[n].covered_by = Some(m);
            self.covers[m].push(n);
        }
        by.is_some()
    }

    pub(crate) fn mark_expanded(&mut self, n: usize) {
        self.nodes[n].expanded = true;
        self.expanded_at.entry((self.nodes[n].state, self.nodes[n].call)).or_default().push(n);
    }

    /// The nodes `m` covers that it no longer may (removed, or its region is no longer weaker),
    /// now uncovered.
    fn uncover_from(&mut self, m: usize, mut weaker: Option<&mut Weaker>) -> Vec<usize> {
        let mut uncovered = vec![];
        for k in std::mem::take(&mut self.covers[m]) {
            if self.nodes[k].covered_by != Some(m) || !self.nodes[k].alive {
                continue;
            }
            if !weaker.as_mut().is_some_and(|w| w(&self.nodes[m].region, &self.nodes[k].region)) {
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
                if let Some(at) = self.expanded_at.get_mut(&(node.state, node.call)) {
                    at.retain(|&m| m != x);
                }
            }
            uncovered.extend(self.uncover_from(x, None));
        }
        uncovered.retain(|&k| self.nodes[k].alive);
        uncovered
    }

    /// Conjoins `preds` to the region of `n`; the nodes it covered and no longer covers.
    pub(crate) fn strengthen(&mut self, n: usize, preds: impl IntoIterator<Item = Term>, weaker: &mut Weaker) -> Vec<usize> {
        let before = self.nodes[n].region.len();
        self.nodes[n].region.extend(preds);
        if self.nodes[n].region.len() == before {
            return vec![];
        }
        self.uncover_from(n, Some(weaker))
    }

    /// The expanded nodes as reachable states (`(state, [node])`) with their regions, and the
    /// steps between them: a step to a covered node goes to the node that covers it, a return
    /// comes with its pending call's node. When the search ends every alive node is expanded
    /// or covered, and this is the tree's proof.
    pub(crate) fn reach(&self) -> (NestedReach, Vec<Term>) {
        let expanded: Vec<usize> = (0..self.nodes.len()).filter(|&n| self.nodes[n].alive && self.nodes[n].expanded).collect();
        let index: HashMap<usize, usize> = expanded.iter().enumerate().map(|(i, &n)| (n, i)).collect();
        let mut reach = NestedReach { states: expanded.iter().map(|&n| (self.nodes[n].state, vec![n])).collect(), ..Default::default() };
        for (c, node) in self.nodes.iter().enumerate().filter(|(_, node)| node.alive) {
            let (Some((p, letter, step)), Some(&target)) = (self.step_to(c), index.get(&node.covered_by.unwrap_or(c))) else { continue };
            match step {
                Step::Internal | Step::Call => reach.steps.push((index[&p], letter, target)),
                Step::Return { hier } => reach.returns.push(NestedReturn { state: index[&p], hier: index[&hier], letter, target }),
            }
        }
        let annotation = expanded.iter().map(|&n| and_of(&self.nodes[n].region)).collect();
        (reach, annotation)
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
        let a = t.add(0, 0, 1, None, Region::from([pred(1)]));
        let b = t.add(0, 1, 1, None, Region::from([pred(1), pred(2)]));
        assert!(!t.try_cover(b, &mut subset), "nothing expanded at state 1 yet");
        t.mark_expanded(a);
        assert!(t.try_cover(b, &mut subset) && !t.waiting(b));
        assert_eq!(t.strengthen(a, [pred(2)], &mut subset), Vec::<usize>::new(), "b still implies a's region");
        assert_eq!(t.strengthen(a, [pred(3)], &mut subset), vec![b]);
        assert!(t.waiting(b));
        assert!(!t.try_cover(b, &mut subset));
        let c = t.add(0, 2, 1, None, Region::from([pred(1), pred(2), pred(3)]));
        assert!(t.try_cover(c, &mut subset));
        assert_eq!(t.remove_subtree(a), vec![c]);
        assert!(t.waiting(c) && !t.try_cover(c, &mut subset));
        assert_eq!(t.path(c), (vec![0, c], vec![2]));
    }
}
