//! Nested word automata: the program with procedures as a visibly pushdown automaton, and the
//! emptiness of its difference with lazily determinized subtrahends by *summaries*.
//!
//! A nested word is a word over internal, call and return letters; a return is matched with
//! the latest pending call. A return transition consults the state before its matching call
//! (the *hierarchical predecessor*). The search works on pairs `(E, P)`: product state `P` is
//! reachable from the procedure-entry state `E` by a well-matched word. A call from `P` opens
//! the pair `(E', E')`; an exit state reached from `E'` returns to every caller of `E'` (a
//! summary). Error words may end with pending calls (an error inside a callee).

use crate::{Interrupted, LazyDfa, Letter, Nfa};
use std::collections::{HashMap, VecDeque};

/// A nested word automaton given explicitly.
#[derive(Clone, Debug, Default)]
pub struct Nwa {
    pub initial: usize,
    /// Internal transitions `(letter, target)` of each state.
    pub internal: Vec<Vec<(Letter, usize)>>,
    /// Call transitions `(letter, target)` of each state.
    pub calls: Vec<Vec<(Letter, usize)>>,
    /// Return transitions `(matching call letter, return letter, target)` of each state. The
    /// call letter stands for the hierarchical predecessor: the state its call transitions leave.
    pub returns: Vec<Vec<(Letter, Letter, usize)>>,
    pub accepting: Vec<bool>,
}

impl From<Nfa> for Nwa {
    /// The automaton of flat words: internal transitions only.
    fn from(nfa: Nfa) -> Nwa {
        let n = nfa.transitions.len();
        Nwa { initial: nfa.initial, internal: nfa.transitions, calls: vec![vec![]; n], returns: vec![vec![]; n], accepting: nfa.accepting }
    }
}

/// A deterministic nested word automaton computed on demand: internal and call letters use
/// [`LazyDfa::successor`]; accepting states are sinks (`None`).
pub trait LazyDnwa: LazyDfa {
    /// The successor of `state` under the return `letter` whose matching call left `hier`.
    fn return_successor(&mut self, state: usize, hier: usize, letter: Letter) -> Option<usize>;
}

/// The result of a nested difference emptiness check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NestedEmptiness {
    Empty,
    /// An accepted nested word (calls and returns are letters of the word) and its target.
    Word {
        letters: Vec<Letter>,
        target: usize,
    },
}

use crate::ProductState as State;

/// How a pair `(entry, state)` was first reached.
#[derive(Clone, Copy, Debug)]
enum Origin {
    /// The initial pair, or a callee's entry pair (`state == entry`).
    Start,
    Internal {
        from: usize,
        letter: Letter,
    },
    /// Through a summary: the caller's pair, the call letter, the callee's exit pair, the return letter.
    Summary {
        caller: usize,
        call: Letter,
        exit: usize,
        ret: Letter,
    },
}

struct Search<'a> {
    nwa: &'a Nwa,
    states: Vec<State>,
    ids: HashMap<State, usize>,
    /// Pairs `(entry state id, state id)`, how each was reached, and the index.
    pairs: Vec<(usize, usize)>,
    origin: Vec<Origin>,
    pair_ids: HashMap<(usize, usize), usize>,
    /// For an entry state: the first call that reached it (pair of the caller, letter).
    first_call: HashMap<usize, (usize, Letter)>,
    /// For an entry state: every caller `(pair, call letter)`.
    callers: HashMap<usize, Vec<(usize, Letter)>>,
    /// For an entry state: the pairs of its exit states found so far.
    exits: HashMap<usize, Vec<usize>>,
    queue: VecDeque<usize>,
    /// The transitions taken between states (internal and call letters), and the returns.
    steps: Vec<(usize, Letter, usize)>,
    returns: Vec<NestedReturn>,
}

/// A return taken by the search: from the callee's exit `state`, with the hierarchical
/// predecessor `hier` (the caller's state at the call), by `letter`, to `target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NestedReturn {
    pub state: usize,
    pub hier: usize,
    pub letter: Letter,
    pub target: usize,
}

/// Everything reachable in a difference without an accepted word: the product states
/// `(location, subtrahend states)` and the transitions between them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NestedReach {
    pub states: Vec<State>,
    /// `(state, letter, target)` for internal and call letters.
    pub steps: Vec<(usize, Letter, usize)>,
    pub returns: Vec<NestedReturn>,
}

impl Search<'_> {
    fn state(&mut self, s: State) -> usize {
        if let Some(&id) = self.ids.get(&s) {
            return id;
        }
        self.states.push(s.clone());
        self.ids.insert(s, self.states.len() - 1);
        self.states.len() - 1
    }

    fn add(&mut self, entry: usize, state: usize, origin: Origin) -> usize {
        if let Some(&p) = self.pair_ids.get(&(entry, state)) {
            return p;
        }
        let p = self.pairs.len();
        self.pairs.push((entry, state));
        self.origin.push(origin);
        self.pair_ids.insert((entry, state), p);
        self.queue.push_back(p);
        p
    }

    /// The states reached from `caller` (a pair whose state left the call `call`) when the
    /// callee returns from `exit` (a pair), in every subtrahend.
    fn summary(&mut self, caller: usize, call: Letter, exit: usize, subs: &mut [&mut dyn LazyDnwa]) {
        let (e0, pc) = self.pairs[caller];
        let (_, x) = self.pairs[exit];
        let hier = self.states[pc].1.clone();
        let (qx, ds) = self.states[x].clone();
        let rets: Vec<(Letter, usize)> =
            self.nwa.returns.get(qx).into_iter().flatten().filter(|(c, _, _)| *c == call).map(|&(_, r, q)| (r, q)).collect();
        'rets: for (ret, q2) in rets {
            let mut next = Vec::with_capacity(ds.len());
            for ((d, &s), &h) in subs.iter_mut().zip(&ds).zip(&hier) {
                match d.return_successor(s, h, ret) {
                    Some(t) => next.push(t),
                    None => continue 'rets,
                }
            }
            let s2 = self.state((q2, next));
            self.returns.push(NestedReturn { state: x, hier: pc, letter: ret, target: s2 });
            self.add(e0, s2, Origin::Summary { caller, call, exit, ret });
        }
    }

    /// The well-matched word from the pair's entry to its state.
    fn same_level(&self, pair: usize, out: &mut Vec<Letter>) {
        match self.origin[pair] {
            Origin::Start => {}
            Origin::Internal { from, letter } => {
                self.same_level(from, out);
                out.push(letter);
            }
            Origin::Summary { caller, call, exit, ret } => {
                self.same_level(caller, out);
                out.push(call);
                self.same_level(exit, out);
                out.push(ret);
            }
        }
    }

    /// The whole word from the initial state to the pair's state (with pending calls).
    fn word(&self, pair: usize) -> Vec<Letter> {
        let mut chain = vec![pair];
        let mut entry = self.pairs[pair].0;
        while let Some(&(caller, _)) = self.first_call.get(&entry) {
            chain.push(caller);
            entry = self.pairs[caller].0;
        }
        let mut out = vec![];
        for (k, &p) in chain.iter().enumerate().rev() {
            self.same_level(p, &mut out);
            if k > 0 {
                let callee_entry = self.pairs[chain[k - 1]].0;
                out.push(self.first_call[&callee_entry].1);
            }
        }
        out
    }
}

/// The subtrahends' successors, or `None` when any reaches its accepting sink.
fn step(
    subs: &mut [&mut dyn LazyDnwa],
    ds: &[usize],
    mut succ: impl FnMut(&mut dyn LazyDnwa, usize) -> Option<usize>,
) -> Option<Vec<usize>> {
    let mut next = Vec::with_capacity(ds.len());
    for (d, &s) in subs.iter_mut().zip(ds) {
        next.push(succ(&mut **d, s)?);
    }
    Some(next)
}

/// A short nested word in `L(nwa) \ ⋃ L(subtrahends)` (breadth-first over pairs, so short but
/// not always shortest), or `Empty`. `interrupt` is polled regularly.
pub fn nested_word_in_difference(
    nwa: &Nwa,
    subtrahends: &mut [&mut dyn LazyDnwa],
    interrupt: &mut dyn FnMut(usize) -> Option<String>,
) -> Result<NestedEmptiness, Interrupted> {
    let (search, accepted) = explore(nwa, subtrahends, interrupt)?;
    Ok(match accepted {
        Some(p) => {
            let (_, st) = search.pairs[p];
            NestedEmptiness::Word { letters: search.word(p), target: search.states[st].0 }
        }
        None => NestedEmptiness::Empty,
    })
}

/// The reachable part of an empty difference (`None` if the difference accepts a word): the
/// states and transitions a Floyd–Hoare annotation of the program is read from.
pub fn nested_reachable_in_difference(
    nwa: &Nwa,
    subtrahends: &mut [&mut dyn LazyDnwa],
    interrupt: &mut dyn FnMut(usize) -> Option<String>,
) -> Result<Option<NestedReach>, Interrupted> {
    let (search, accepted) = explore(nwa, subtrahends, interrupt)?;
    Ok(accepted.is_none().then_some(NestedReach { states: search.states, steps: search.steps, returns: search.returns }))
}

/// The search over pairs, until it finds a pair at an accepting state (returned) or has
/// explored everything.
fn explore<'a>(
    nwa: &'a Nwa,
    subtrahends: &mut [&mut dyn LazyDnwa],
    interrupt: &mut dyn FnMut(usize) -> Option<String>,
) -> Result<(Search<'a>, Option<usize>), Interrupted> {
    let mut s = Search {
        nwa,
        states: vec![],
        ids: HashMap::new(),
        pairs: vec![],
        origin: vec![],
        pair_ids: HashMap::new(),
        first_call: HashMap::new(),
        callers: HashMap::new(),
        exits: HashMap::new(),
        queue: VecDeque::new(),
        steps: vec![],
        returns: vec![],
    };
    let mut init = Vec::with_capacity(subtrahends.len());
    for d in subtrahends.iter_mut() {
        match d.initial() {
            Some(x) => init.push(x),
            None => return Ok((s, None)),
        }
    }
    let i = s.state((nwa.initial, init));
    s.add(i, i, Origin::Start);
    while let Some(p) = s.queue.pop_front() {
        if let Some(reason) = interrupt(s.pairs.len()) {
            return Err(Interrupted(reason));
        }
        let (entry, st) = s.pairs[p];
        let (q, ds) = s.states[st].clone();
        if nwa.accepting.get(q).copied().unwrap_or(false) {
            return Ok((s, Some(p)));
        }
        for &(letter, q2) in nwa.internal.get(q).into_iter().flatten() {
            if let Some(next) = step(subtrahends, &ds, |d, x| d.successor(x, letter)) {
                let s2 = s.state((q2, next));
                s.steps.push((st, letter, s2));
                s.add(entry, s2, Origin::Internal { from: p, letter });
            }
        }
        for &(letter, q2) in nwa.calls.get(q).into_iter().flatten() {
            let Some(next) = step(subtrahends, &ds, |d, x| d.successor(x, letter)) else { continue };
            let e2 = s.state((q2, next));
            s.steps.push((st, letter, e2));
            s.first_call.entry(e2).or_insert((p, letter));
            s.callers.entry(e2).or_default().push((p, letter));
            s.add(e2, e2, Origin::Start);
            for x in s.exits.get(&e2).cloned().unwrap_or_default() {
                s.summary(p, letter, x, subtrahends);
            }
        }
        if !nwa.returns.get(q).is_none_or(Vec::is_empty) {
            s.exits.entry(entry).or_default().push(p);
            for (caller, call) in s.callers.get(&entry).cloned().unwrap_or_default() {
                s.summary(caller, call, p, subtrahends);
            }
        }
    }
    Ok((s, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// main: 0 -call 0-> f; f returns (letter 1) to 1; 1 -2-> 5 (error).
    /// f: 10 -3-> 11 (exit); 10 -call 4-> 10, return 5 to 12; 12 -6-> 11; 10 -7-> 13 (error).
    fn program() -> Nwa {
        let mut a =
            Nwa { initial: 0, internal: vec![vec![]; 14], calls: vec![vec![]; 14], returns: vec![vec![]; 14], accepting: vec![false; 14] };
        a.calls[0].push((0, 10));
        a.internal[1].push((2, 5));
        a.accepting[5] = true;
        a.internal[10].push((3, 11));
        a.calls[10].push((4, 10));
        a.returns[11].push((0, 1, 1));
        a.returns[11].push((4, 5, 12));
        a.internal[12].push((6, 11));
        a
    }

    /// States 0 (outermost frame of f or main) and 1 (inside a recursive call): call 4 enters
    /// 1, a return restores the hierarchical predecessor; `blocked` letters reach the sink in 0.
    struct Depth {
        blocked: Vec<Letter>,
    }
    impl LazyDfa for Depth {
        fn initial(&mut self) -> Option<usize> {
            Some(0)
        }
        fn successor(&mut self, state: usize, letter: Letter) -> Option<usize> {
            match letter {
                4 => Some(1),
                l if state == 0 && self.blocked.contains(&l) => None,
                _ => Some(state),
            }
        }
    }
    impl LazyDnwa for Depth {
        fn return_successor(&mut self, _state: usize, hier: usize, _letter: Letter) -> Option<usize> {
            Some(hier)
        }
    }

    fn run(a: &Nwa, subs: &mut [&mut dyn LazyDnwa]) -> NestedEmptiness {
        nested_word_in_difference(a, subs, &mut |_| None).unwrap()
    }

    #[test]
    fn well_matched_error_word() {
        let w = NestedEmptiness::Word { letters: vec![0, 3, 1, 2], target: 5 };
        assert_eq!(run(&program(), &mut []), w);
    }

    #[test]
    fn return_consults_the_hierarchical_predecessor() {
        // The base case is blocked at depth 0 only: the word must recurse once, and the
        // error letter 2 is allowed again after the returns restore state 0 and then 0.
        let mut d = Depth { blocked: vec![3] };
        let w = NestedEmptiness::Word { letters: vec![0, 4, 3, 5, 6, 1, 2], target: 5 };
        assert_eq!(run(&program(), &mut [&mut d]), w);
        let mut d = Depth { blocked: vec![3, 6] };
        assert_eq!(run(&program(), &mut [&mut d]), NestedEmptiness::Empty);
    }

    #[test]
    fn reach_of_an_empty_difference_has_every_transition() {
        let mut d = Depth { blocked: vec![3, 6] };
        let r = nested_reachable_in_difference(&program(), &mut [&mut d], &mut |_| None).unwrap().unwrap();
        // main; f at depth 0 (its base case blocked); f at depth 1, its exit, and the return
        // points at both depths (6 is blocked at depth 0, so main's return is never reached).
        let at = |q: usize, d: usize| r.states.iter().position(|s| *s == (q, vec![d])).unwrap();
        assert_eq!(r.states.len(), 6);
        let mut steps = r.steps.clone();
        steps.sort();
        let mut want = vec![
            (at(0, 0), 0, at(10, 0)),
            (at(10, 0), 4, at(10, 1)),
            (at(10, 1), 3, at(11, 1)),
            (at(10, 1), 4, at(10, 1)),
            (at(12, 1), 6, at(11, 1)),
        ];
        want.sort();
        assert_eq!(steps, want);
        let mut returns: Vec<_> = r.returns.iter().map(|x| (x.state, x.hier, x.letter, x.target)).collect();
        returns.sort();
        let mut want = vec![(at(11, 1), at(10, 0), 5, at(12, 0)), (at(11, 1), at(10, 1), 5, at(12, 1))];
        want.sort();
        assert_eq!(returns, want);
        assert!(nested_reachable_in_difference(&program(), &mut [], &mut |_| None).unwrap().is_none());
    }

    #[test]
    fn error_word_with_pending_calls() {
        let mut a = program();
        a.internal[10].push((7, 13));
        a.accepting[13] = true;
        assert_eq!(run(&a, &mut []), NestedEmptiness::Word { letters: vec![0, 7], target: 13 });
        let mut d = Depth { blocked: vec![7] };
        assert_eq!(run(&a, &mut [&mut d]), NestedEmptiness::Word { letters: vec![0, 4, 7], target: 13 });
    }
}
