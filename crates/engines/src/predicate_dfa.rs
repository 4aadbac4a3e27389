//! The interpolant automaton of one refinement, determinized on the fly: a state is a set of
//! the refinement's predicates (read as their conjunction), and the successor of `S` under a
//! statement is every predicate `q` with a valid Hoare triple `{⋀S} st {q}`. Reaching a state
//! whose conjunction implies `false` proves the trace infeasible: that is the accepting sink.
//!
//! For termination an automaton may carry a rank [`Certificate`]: a transition by a letter
//! that leaves the loop head, from a state that contains the certificate's predicate, is
//! accepting and first saves the ranking function's value (`old := f(x)`), so that every
//! infinite word it accepts has no execution (Büchi interpolant automata, `crate::buchi`;
//! with a Streett pair when every visit saves).

use crate::budget::QueryBudget;
use automata::{LazyDfa, LazyDnwa, Letter};
use ir::{ReturnLetter, TransFormula};
use refine::{HoareChecker, Validity};
use smt::build::{and, ff};
use smt::Term;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

/// What all interpolant automata of a run share: the letters' semantics and the Hoare checker.
pub struct Shared {
    pub letters: Vec<TransFormula>,
    /// Nested words: the return letters, and every variable that is not global.
    pub returns: HashMap<Letter, ReturnLetter>,
    pub locals: BTreeSet<Term>,
    pub hoare: HoareChecker,
    pub checks: usize,
    /// Per-query solver budget, never beyond the run's deadline.
    pub budget: QueryBudget,
}

impl Shared {
    /// Asks `triple` within the per-query budget; no question once the run is stopped.
    pub(crate) fn ask(&mut self, triple: impl FnOnce(&mut Shared) -> Validity) -> bool {
        if self.budget.stopped().is_some() {
            // Past the deadline or canceled: no more queries, so that the search ends at once.
            return false;
        }
        self.checks += 1;
        let ms = self.budget.next_ms();
        self.hoare.solver().set_timeout_ms(ms);
        matches!(triple(self), Validity::Valid)
    }

    /// Whether `{pre} letter {post}` is valid (cached); unknown counts as not valid.
    pub(crate) fn valid(&mut self, pre: &Term, letter: Letter, post: &Term) -> bool {
        self.ask(|sh| {
            let Shared { letters, hoare, .. } = sh;
            hoare.check(pre, letter, &letters[letter], post)
        })
    }

    /// The valuations of `preds` after `tf` from `pre` (all-SAT, at most `limit`, each check
    /// within the per-query budget); `None` if undecided, beyond the limit, or stopped.
    pub(crate) fn valuations(&mut self, pre: &Term, tf: &TransFormula, preds: &[Term], limit: usize) -> Option<Vec<Vec<bool>>> {
        self.budget.stopped().is_none().then_some(())?;
        self.checks += 1;
        let ms = self.budget.next_ms();
        self.hoare.solver().set_timeout_ms(ms);
        refine::hoare::post_valuations(pre, tf, preds, limit, self.hoare.solver())
    }

    /// Whether `{pre} tf {post}` is valid for a formula that is no letter (not cached).
    pub(crate) fn valid_formula(&mut self, pre: &Term, tf: &TransFormula, post: &Term) -> bool {
        self.ask(|sh| refine::hoare::check_triple(pre, tf, post, sh.hoare.solver()))
    }
}

/// What makes a predicate automaton rank-certified: a transition by one of the `saving`
/// letters (those that leave the loop head) from a state containing `accepting` (a predicate
/// that says "the rank decreased since the last save, or nothing was saved yet") is
/// accepting and runs `assign` (save the rank, clear the nothing-saved flag) before the
/// letter; the initial state holds `initially` (the flag).
///
/// Without `every_visit`, saves happen exactly on accepting transitions, so infinitely many
/// of them would make the rank decrease forever. With `every_visit`, every saving letter
/// saves, and one from a state without `accepting` is breaking: a run accepts when from some
/// point on every visit of the loop head finds the rank decreased since the previous one, so
/// the automaton also accepts a lasso whose stem ran the loop before (with the rank saved
/// then) or left it and came back.
pub struct Certificate {
    pub accepting: Term,
    pub assign: TransFormula,
    pub initially: Term,
    pub saving: BTreeSet<Letter>,
    pub every_visit: bool,
    /// Letter `l` after `assign` is letter `key_offset + l` for the Hoare cache.
    pub key_offset: usize,
}

/// A lazily determinized interpolant automaton.
pub struct PredicateDfa {
    preds: Vec<Term>,
    states: Vec<Vec<usize>>,
    index: HashMap<Vec<usize>, usize>,
    transitions: HashMap<(usize, Letter), Option<usize>>,
    /// Return transitions `(state, hierarchical predecessor, letter)`.
    return_transitions: HashMap<(usize, usize, Letter), Option<usize>>,
    shared: Rc<RefCell<Shared>>,
    certificate: Option<Certificate>,
}

impl PredicateDfa {
    /// The automaton over the distinct predicates of a sequence (`true`/`false` are implicit).
    pub fn new(sequence: &[Term], shared: Rc<RefCell<Shared>>) -> PredicateDfa {
        let mut preds: Vec<Term> = vec![];
        for p in sequence {
            if !p.is_true() && !p.is_false() && !preds.contains(p) {
                preds.push(p.clone());
            }
        }
        PredicateDfa {
            preds,
            states: vec![],
            index: HashMap::new(),
            transitions: HashMap::new(),
            return_transitions: HashMap::new(),
            shared,
            certificate: None,
        }
    }

    /// The rank-certified automaton over `sequence` and the certificate's predicate.
    pub fn certified(sequence: &[Term], certificate: Certificate, shared: Rc<RefCell<Shared>>) -> PredicateDfa {
        let mut dfa = PredicateDfa::new(&[sequence, &[certificate.accepting.clone(), certificate.initially.clone()]].concat(), shared);
        dfa.certificate = Some(certificate);
        dfa
    }

    /// Whether the transition from `state` by `letter` is accepting (a saving letter from a
    /// state that contains the rank certificate's predicate).
    pub fn accepting(&self, state: usize, letter: Letter) -> bool {
        self.certificate.as_ref().is_some_and(|c| c.saving.contains(&letter) && self.holds(state, &c.accepting))
    }

    /// Whether the transition from `state` by `letter` is breaking (a saving letter from a
    /// state without the certificate's predicate, when every visit saves).
    pub fn breaking(&self, state: usize, letter: Letter) -> bool {
        self.certificate.as_ref().is_some_and(|c| c.every_visit && c.saving.contains(&letter) && !self.holds(state, &c.accepting))
    }

    /// Whether the predicate is one of the state's.
    fn holds(&self, state: usize, pred: &Term) -> bool {
        self.states[state].iter().any(|&i| self.preds[i] == *pred)
    }

    /// Whether the transition from `state` by `letter` saves the rank first.
    fn saves(&self, state: usize, letter: Letter) -> bool {
        self.certificate.as_ref().is_some_and(|c| if c.every_visit { c.saving.contains(&letter) } else { self.accepting(state, letter) })
    }

    /// Number of determinized states built so far.
    pub fn state_count(&self) -> usize {
        self.states.len()
    }

    /// The conjunction of a state's predicates.
    pub fn state_formula(&self, state: usize) -> Term {
        and(&self.states[state].iter().map(|&i| self.preds[i].clone()).collect::<Vec<_>>())
    }

    fn intern(&mut self, set: Vec<usize>) -> usize {
        if let Some(&id) = self.index.get(&set) {
            return id;
        }
        self.states.push(set.clone());
        self.index.insert(set, self.states.len() - 1);
        self.states.len() - 1
    }

    /// Whether `{pre} letter {post}` is valid; an unknown answer (or none, once the run is
    /// stopped) counts as not valid, which only removes transitions and so keeps the automaton
    /// sound.
    fn valid(&self, pre: &Term, letter: Letter, post: &Term) -> bool {
        self.shared.borrow_mut().valid(pre, letter, post)
    }

    /// Whether `{pre} tf {post}` is valid, cached under the letter key `key`.
    fn valid_keyed(&self, pre: &Term, key: Letter, tf: &TransFormula, post: &Term) -> bool {
        self.query(|sh| sh.hoare.check(pre, key, tf, post))
    }

    fn query(&self, triple: impl FnOnce(&mut Shared) -> Validity) -> bool {
        self.shared.borrow_mut().ask(triple)
    }

    /// Whether `{pre} tf {post}` is valid for a formula without letter (not cached).
    fn valid_formula(&self, pre: &Term, tf: &TransFormula, post: &Term) -> bool {
        self.shared.borrow_mut().valid_formula(pre, tf, post)
    }

    /// The successor state: the sink if `valid` holds for `false`, else every predicate it holds for.
    fn post_state(&mut self, valid: &dyn Fn(&Self, &Term) -> bool) -> Option<usize> {
        if valid(self, &ff()) {
            return None;
        }
        let post: Vec<usize> = (0..self.preds.len()).filter(|&i| valid(self, &self.preds[i])).collect();
        Some(self.intern(post))
    }
}

impl LazyDnwa for PredicateDfa {
    /// `{⋀S ∧ ⋀H} return {q}`: the return's formula for the hierarchical predecessor's
    /// conjunction (over the caller's frame at the call).
    fn return_successor(&mut self, state: usize, hier: usize, letter: Letter) -> Option<usize> {
        if let Some(&t) = self.return_transitions.get(&(state, hier, letter)) {
            return t;
        }
        let pre = self.state_formula(state);
        let h = self.state_formula(hier);
        let tf = {
            let sh = self.shared.borrow();
            sh.returns.get(&letter).map(|r| r.formula(&h, &sh.locals))
        };
        // An unknown letter has no return semantics: no transition is sound (never the sink).
        let target = match tf {
            Some(tf) => self.post_state(&|d, q| d.valid_formula(&pre, &tf, q)),
            None => Some(self.intern(vec![])),
        };
        self.return_transitions.insert((state, hier, letter), target);
        target
    }
}

impl LazyDfa for PredicateDfa {
    fn initial(&mut self) -> Option<usize> {
        let Some(initially) = self.certificate.as_ref().map(|c| c.initially.clone()) else {
            return Some(self.intern(vec![]));
        };
        let skip = TransFormula::skip();
        let set = (0..self.preds.len()).filter(|&i| self.valid_keyed(&initially, usize::MAX, &skip, &self.preds[i])).collect();
        Some(self.intern(set))
    }

    fn successor(&mut self, state: usize, letter: Letter) -> Option<usize> {
        if let Some(&t) = self.transitions.get(&(state, letter)) {
            return t;
        }
        let pre = self.state_formula(state);
        let target = match self.certificate.as_ref().filter(|_| self.saves(state, letter)) {
            Some(c) => {
                let (key, tf) = (c.key_offset + letter, c.assign.sequence(&self.shared.borrow().letters[letter]));
                self.post_state(&|d, q| d.valid_keyed(&pre, key, &tf, q))
            }
            None => self.post_state(&|d, q| d.valid(&pre, letter, q)),
        };
        self.transitions.insert((state, letter), target);
        target
    }
}
