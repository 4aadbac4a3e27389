//! Symbolic execution (`--engine exec`): a depth-first search of the program automaton's
//! words (one statement per letter, calls and returns with a call stack) that carries the
//! values of the variables: known values ([`Value`]s: numbers, arrays as persistent maps) where
//! they are known, terms over symbols elsewhere. A letter whose reads are known runs on values
//! without building a term, so a deterministic computation (a checksum table, a recursion to
//! depth 20, a loop of a thousand iterations) costs what it costs to run; a branch on symbolic
//! values asks the solver whether the path condition stays satisfiable. An error word is run
//! again on values, its letters' formulas evaluated ([`Search::replay`]): a model of its trace
//! formula without a solver; where the word needs particular inputs, the solver checks it. A
//! word through an over-approximating statement that chose a value (a havoc) is a
//! counterexample only if no constraint on its path read that value. The search deepens its
//! bound (×4 from 256 letters, up to 2^22) until an error is reached or time ends. A word that
//! reaches an error is checked exactly and resolved into source steps like every FALSE
//! ([`cegar::counterexample`]). A search that follows every path to its end (a program with
//! finitely many paths, such as a deterministic one) without reaching an error proves the
//! program: TRUE, with the exploration as its proof. A path that comes back to a
//! state it passed (the same location, values, call stack and path condition) is not followed
//! again: every error it could reach, the earlier state reaches by a shorter path, so a finite
//! state space is exhausted too (`while (1)` over a few constant values). Across paths, a node
//! with the state, values, call stack and path condition of one explored in the round at most
//! as deep is not explored again; on the interleavings of threads (explored on the fly) the
//! values dead after a letter are forgotten and symbols are named by where they arise, so two
//! orders of commuting statements meet in one node and the search is stateful
//! (`docs/concurrency.md`).
//!
//! The engine `exec-finite` is the same search for programs with few paths: it gives up as soon
//! as the bound cuts a path on which one branch, in one procedure frame, has depended on
//! symbolic values (inputs) [`SYMBOLIC_BRANCHES`] times: a loop that decides on inputs at every
//! iteration, whose paths multiply with the bound so that only a long search could end. A
//! recursion as deep as its input goes on (to the end of its time): each of its frames branches
//! once, and the bugs behind such recursions (`id(n)` for a symbolic `n`) are what the search
//! finds fast.

use crate::annotation::Proof;
use crate::budget::QueryBudget;
use crate::cegar::{self, Abstraction, Kind, States};
use crate::cex::Choices;
use crate::strategy::{on_automaton, Engine, Task};
use crate::{Config, Stats, Unknown, Verdict};
use cegar::Confirmation;
use ir::{TransFormula, ViolationKind};
use refine::{check_scoped_trace_with_hints, TraceCheck};
use rustc_hash::FxBuildHasher;
use smt::build::eq;
use smt::subst::{conjuncts, free_vars, substitute};
use smt::value::{eval, Value};
use smt::{Op, SatResult, Solver, Term};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::BuildHasher;
use std::rc::Rc;
use verdict::Exploration;

/// The engines `exec` and (`finite`) `exec-finite`.
pub struct Exec {
    pub finite: bool,
}

/// How often one branch of a path cut by the bound may have depended on symbolic values before
/// `exec-finite` gives up.
pub const SYMBOLIC_BRANCHES: usize = 32;

impl Engine for Exec {
    fn name(&self) -> &'static str {
        if self.finite {
            "exec-finite"
        } else {
            "exec"
        }
    }

    /// It proves only programs whose paths all end: a bug finder, never the main engine.
    fn decides_both(&self) -> bool {
        false
    }

    fn about(&self) -> &'static str {
        if self.finite {
            "`exec` for programs with few paths: it gives up when the bound cuts a path on which one statement, in one procedure frame, branched on inputs 32 times"
        } else {
            "symbolic execution: a depth-first search of the program's paths with constant folding and a solver for symbolic branches (proves only programs with finitely many paths or states)"
        }
    }

    fn not_applicable(&self, _: &Task, _: &Config) -> Option<String> {
        None
    }

    fn run(&self, task: &Task, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
        // one statement per letter keeps each letter a conjunction whose values fold; an
        // accelerated loop would make them symbolic
        let single = Config { large_blocks: false, accelerate: false, ..config.clone() };
        // On a thread of its own, so with a Z3 context of its own: after the search's deep
        // solver scopes, Z3 4.8.12 crashed in a later engine's query on the thread's shared
        // context (POPL2023/map-aggr-update1-3modifiers.bpl, `exec` then `art`).
        let searched = std::thread::scope(|scope| {
            let run = std::thread::Builder::new().name("exec".into()).stack_size(crate::portfolio::LANE_STACK).spawn_scoped(scope, || {
                smt::z3backend::interrupt_when(Some(config.cancel.flag()));
                on_automaton(task, &single, ir::Acceleration::Linear, stats, |a, stats| search(task.entry, a, self, config, stats))
            });
            match run {
                Ok(handle) => handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                Err(e) => Err(Unknown::new(format!("cannot start its thread: {e}"))),
            }
        });
        searched.unwrap_or_else(|u| (Verdict::Unknown(u.prefixed(self.name())), None))
    }
}

/// The first bound on the length of a word, its factor from one round to the next, and the
/// last bound (a longer path could not be checked exactly in time, and its search state would
/// fill gigabytes).
const FIRST_BOUND: usize = 256;
const BOUND_FACTOR: usize = 4;
const LAST_BOUND: usize = 1 << 22;

/// A call that has not returned: its letter, the caller's local variables at the call, and a
/// hash of the call stack up to it.
struct Pending {
    letter: usize,
    locals: Vec<(Term, Option<Val>)>,
    hash: u64,
}

/// How to take back one change of the search state.
enum Undo {
    Value(Term, Option<Val>),
    Called,
    Returned(Pending),
}

/// A node of the search: its automaton state, the successor to try next, the letter that led
/// to it (and whether it branched on symbolic values), where its changes begin and end on the
/// trail, whether it opened a solver scope, the scopes open on its path, the depth of its call
/// stack, and a hash of its values and call stack.
struct Node {
    state: usize,
    next: usize,
    letter: Option<usize>,
    branched: bool,
    trail: usize,
    at: usize,
    scoped: bool,
    scopes: usize,
    depth: usize,
    hash: u64,
    /// The node of the path with the same key before this one.
    shadows: Option<usize>,
    /// The letters that leave its state and their targets, once asked for.
    successors: Option<Rc<[(usize, usize)]>>,
    /// A hash of the path condition (the sum of hashes of what the path asserted: the same
    /// for the same assertions in any order).
    pc: u64,
    /// Whether the path to it relies on an over-approximation: it constrains a value that an
    /// over-approximating statement chose, or passes one that chooses nothing.
    relies: bool,
}

impl Node {
    /// The key of the node among the nodes of the path.
    fn key(&self) -> u64 {
        mix(self.state as u64, self.hash)
    }
}

/// What a step does: blocked, or taken (with a solver scope when it added definitions or
/// constraints, whether the constraints depend on symbolic values, the constant values it
/// assigned, and a hash of what it asserted).
enum Step {
    Blocked,
    Taken { scoped: bool, branched: bool, relies: bool, constants: Vec<(Term, Value)>, asserted: u64 },
}

/// The value of a variable on the path: known (a constant, an array of constants), or a
/// symbol or term over symbols.
#[derive(Clone, PartialEq, Eq, Debug)]
enum Val {
    Known(Value),
    Symbolic(Term),
}

impl Val {
    /// A term's value: known where it has one without symbols (an array symbol is an array
    /// whose contents are not known, and writes into it are).
    fn of(t: Term) -> Val {
        let unknown_array = |x: &Term| matches!(x.sort, smt::Sort::Array(..)).then(|| Value::unknown_array(x.clone()));
        if t.is_var() && unknown_array(&t).is_none() {
            return Val::Symbolic(t);
        }
        match eval(&t, &unknown_array) {
            Some(v) => Val::Known(v),
            None => Val::Symbolic(t),
        }
    }

    fn term(&self, sort: &smt::Sort) -> Term {
        match self {
            Val::Known(v) => v.to_term(sort),
            Val::Symbolic(t) => t.clone(),
        }
    }

    fn fingerprint(&self) -> u64 {
        match self {
            Val::Known(v) => v.fingerprint(),
            Val::Symbolic(t) => mix(u64::MAX, t.id()),
        }
    }
}

/// A letter as assignments of values: each instance it writes (an out-instance or an
/// auxiliary) with the expression that defines it, in an order where each expression reads
/// only in-instances and instances defined before, and the conjuncts left as guards.
struct Plan {
    reads: Vec<(Term, Term)>,
    defs: Vec<(Term, Term)>,
    guards: Vec<Term>,
    writes: Vec<(Term, Term)>,
    /// The instances that no equation defines: the letter chooses their values.
    chosen: Vec<Term>,
    exact: bool,
    /// The formula the plan solves.
    formula: Term,
}

impl Plan {
    /// The plan of `tf` (the exact statement of an over-approximation: `exact`).
    fn of(tf: &TransFormula, exact: bool) -> Rc<Plan> {
        let writes: Vec<(Term, Term)> =
            tf.out_vars.iter().filter(|(x, o)| tf.in_vars.get(*x) != Some(*o)).map(|(x, o)| (x.clone(), o.clone())).collect();
        let mut open: BTreeSet<Term> = writes.iter().map(|(_, o)| o.clone()).chain(tf.aux_vars.iter().cloned()).collect();
        let mut guards = conjuncts(&tf.formula);
        let mut defs = vec![];
        while let Some((i, o, e)) = definition(&guards, &|t| open.contains(t)) {
            guards.remove(i);
            open.remove(&o);
            defs.push((o, e));
        }
        let reads = tf.in_vars.iter().map(|(x, i)| (x.clone(), i.clone())).collect();
        let chosen = open.into_iter().collect();
        Rc::new(Plan { reads, defs, guards, writes, chosen, exact, formula: tf.formula.clone() })
    }

    /// The values of the letter's instances given those it reads: `None` where one is not
    /// known, `Some(None)` where a guard fails.
    fn apply(&self, mut env: HashMap<Term, Value, FxBuildHasher>) -> Option<Option<HashMap<Term, Value, FxBuildHasher>>> {
        for (o, e) in &self.defs {
            let v = eval(e, &|t| env.get(t).cloned())?;
            env.insert(o.clone(), v);
        }
        for g in &self.guards {
            match eval(g, &|t| env.get(t).cloned())? {
                Value::Bool(true) => {}
                Value::Bool(false) => return Some(None),
                _ => return None,
            }
        }
        Some(Some(env))
    }
}

/// What a letter does to known values: blocked, the values it writes, or `None` where it
/// reads a value that is not known or computes one that is not.
enum Run {
    Blocked,
    /// The values it wrote, and whether by the exact statement of an over-approximation.
    Wrote(Vec<(Term, Value)>, bool),
}

struct Search<'a> {
    a: &'a dyn Abstraction,
    states: Box<dyn States + 'a>,
    locals: BTreeSet<Term>,
    values: HashMap<Term, Val>,
    /// The symbols that over-approximating statements chose, and those defined from them.
    tainted: HashSet<Term>,
    /// Each letter's plan, once asked for.
    plans: HashMap<usize, Rc<Plan>>,
    /// A hash of `values` (kept as they change), and the nodes of the path by state and hash.
    hash: u64,
    on_path: HashMap<u64, usize, FxBuildHasher>,
    /// Every node explored in the round (by [`Node::key`], path condition and reliance on an
    /// over-approximation), with the fewest letters it was reached by.
    explored: HashMap<(u64, u64, bool), usize, FxBuildHasher>,
    /// How often each letter branched on symbolic values on the path, by the depth of the call
    /// stack it was taken at, and whether a path cut with [`SYMBOLIC_BRANCHES`] of them ends the
    /// search.
    branches: HashMap<(usize, usize), usize>,
    finite: bool,
    calls: Vec<Pending>,
    trail: Vec<Undo>,
    word: Vec<usize>,
    /// The constant values each letter of the word assigned: the hints of its trace checks.
    hints: Vec<Vec<(Term, Value)>>,
    solver: Box<dyn Solver>,
    /// The statements taken in the current round, and the longest word.
    steps: usize,
    longest: usize,
    /// An accepting state that is no error was reached (more threads than the bound): an
    /// exhausted search proves nothing.
    beyond_model: bool,
}

/// Searches `a`'s program automaton until an error is confirmed, every path has ended, or the
/// budget ends.
fn search(entry: &str, a: &dyn Abstraction, engine: &Exec, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
    let name = engine.name();
    let (solver, mut checker) = match (config.solver.create(), config.solver.create()) {
        (Ok(s), Ok(c)) => (s, c),
        (Err(e), _) | (_, Err(e)) => return (Verdict::unknown(format!("{name}: cannot start the solver {}: {e}", config.solver)), None),
    };
    let states = a.states();
    let mut s = Search {
        a,
        states,
        locals: a.scopes().1,
        values: HashMap::new(),
        plans: HashMap::new(),
        tainted: HashSet::new(),
        hash: 0,
        on_path: HashMap::default(),
        explored: HashMap::default(),
        branches: HashMap::new(),
        finite: engine.finite,
        calls: vec![],
        trail: vec![],
        word: vec![],
        hints: vec![],
        solver,
        steps: 0,
        longest: 0,
        beyond_model: false,
    };
    // a path to an error is checked exactly; one the check does not confirm (through an
    // over-approximated statement, or beyond the solver) is a dead end, and the first reason is
    // kept for the answer
    let mut unconfirmed: Option<Verdict> = None;
    let mut confirm =
        |word: &[usize], hints: &cegar::Hints, ran: Option<&[BTreeMap<Term, Term>]>, target: usize, choices: Choices| -> Option<Verdict> {
            tracing::debug!("{name}: an error path of {} letters", word.len());
            stats.trace_checks += 1;
            checker.set_timeout_ms(config.exact_recheck_ms());
            // The letters are single statements: resolving them into source steps is one trace
            // check of the path, which confirms it; only if that fails is the word checked alone.
            let unchecked = refine::Counterexample { states: vec![] };
            if let Verdict::Unsafe(cex) = cegar::counterexample_with_hints(
                entry,
                a,
                word,
                target,
                &unchecked,
                ran.map_or(Confirmation::Solver(hints), Confirmation::Ran),
                checker.as_mut(),
                config,
                choices,
            ) {
                if cex.source_steps {
                    return Some(Verdict::Unsafe(cex));
                }
            }
            let trace: Vec<TransFormula> = word.iter().map(|&l| a.letters()[l].formula.clone()).collect();
            let step_hints: Vec<&[(Term, Term)]> = hints.iter().map(|h| &h[..]).collect();
            match check_scoped_trace_with_hints(&trace, a.nesting(word).as_ref(), checker.as_mut(), &step_hints) {
                TraceCheck::Feasible(model) => match cegar::counterexample_with_hints(
                    entry,
                    a,
                    word,
                    target,
                    &model,
                    Confirmation::Solver(&cegar::model_hints(&model)),
                    checker.as_mut(),
                    config,
                    choices,
                ) {
                    v @ Verdict::Unknown(_) => {
                        unconfirmed.get_or_insert(v);
                    }
                    v => return Some(v),
                },
                TraceCheck::Infeasible { .. } => {}
                TraceCheck::Unknown(why) => {
                    unconfirmed
                        .get_or_insert_with(|| Verdict::unknown(format!("{name}: the solver could not check an error path ({why})")));
                }
            }
            None
        };
    let mut bound = FIRST_BOUND;
    let end = loop {
        match s.round(bound, config, &mut confirm) {
            Round::Decided(v) => return (v, None),
            Round::Stopped(why) if bound == FIRST_BOUND => break Some(format!("{name}: {why}: no error path found")),
            Round::Stopped(why) => break Some(format!("{name}: {why}: no error path of at most {} letters", bound / BOUND_FACTOR)),
            Round::GaveUp => {
                break Some(format!(
                    "{name}: a path longer than {bound} statements branched on inputs {SYMBOLIC_BRANCHES} times at one statement (too many paths): no error path found"
                ))
            }
            Round::Exhausted => break None,
            Round::Failed(why) => break Some(format!("{name}: {why}")),
            // every node was left: the values, the call stack and the solver are as at the start
            Round::Bounded if bound >= LAST_BOUND => {
                break Some(format!("{name}: no error path of at most {bound} letters (the longest it searches)"))
            }
            Round::Bounded => bound *= BOUND_FACTOR,
        }
    };
    match (unconfirmed, end) {
        (Some(v), _) => (v, None),
        (None, Some(why)) => (Verdict::unknown(why), None),
        (None, None) if s.beyond_model => {
            // (a run with more instances explores what these paths could not)
            let reason = format!("{name}: every path ends, but some start more threads than modeled");
            (Verdict::Unknown(Unknown { reason, retry: Some(crate::Retry::MoreThreadInstances) }), None)
        }
        // every path ended, and every error path on the way was infeasible
        (None, None) => {
            let exploration = Exploration { entry: entry.to_string(), steps: s.steps, longest: s.longest };
            (Verdict::Safe, Some(Proof { checked: Some(true), explorations: vec![exploration], ..Proof::default() }))
        }
    }
}

/// Confirms an error word (its letters, their hints, the error state): a FALSE, or `None`.
type Confirm<'c> = dyn FnMut(&[usize], &cegar::Hints, Option<&[BTreeMap<Term, Term>]>, usize, Choices) -> Option<Verdict> + 'c;

/// How a round of the search ended.
enum Round {
    /// A path to an error was confirmed.
    Decided(Verdict),
    /// The budget ended.
    Stopped(&'static str),
    /// A branch of a path depended on symbolic values too often for `exec-finite`.
    GaveUp,
    /// Every path ends before the bound without an error.
    Exhausted,
    /// Some path was cut at the bound.
    Bounded,
    /// The successors of a state are not known (why).
    Failed(String),
}

impl Search<'_> {
    /// A depth-first search of the words of at most `bound` letters.
    fn round(&mut self, bound: usize, config: &Config, confirm: &mut Confirm) -> Round {
        let first = Node {
            state: self.states.initial(),
            next: 0,
            letter: None,
            branched: false,
            trail: 0,
            at: 0,
            scoped: false,
            scopes: 0,
            depth: 0,
            hash: self.state_hash(),
            shadows: None,
            successors: None,
            pc: 0,
            relies: false,
        };
        self.on_path.insert(first.key(), 0);
        self.explored.clear();
        self.explored(&first, 0);
        let mut nodes = vec![first];
        let mut cut = false;
        let mut steps = 0usize;
        self.steps = 0;
        while let Some(node) = nodes.last_mut() {
            steps += 1;
            // (often enough for steps that each ask the solver, seldom enough to cost nothing)
            if steps.is_multiple_of(16) {
                if let Some(why) = QueryBudget::of(config).stopped() {
                    return Round::Stopped(why);
                }
            }
            let successors = match &node.successors {
                Some(s) => s.clone(),
                None => match self.successors(node.state) {
                    Ok(s) => node.successors.insert(s).clone(),
                    Err(why) => return Round::Failed(why),
                },
            };
            if node.next >= successors.len() || self.word.len() >= bound {
                if node.next < successors.len() {
                    cut = true;
                    if self.finite && self.branches.values().any(|&n| n >= SYMBOLIC_BRANCHES) {
                        return Round::GaveUp;
                    }
                }
                let done = nodes.pop().expect("a node");
                self.leave(&done);
                if done.scoped {
                    self.solver.pop();
                }
                self.word.pop();
                self.hints.pop();
                continue;
            }
            let (letter, target) = successors[node.next];
            // (a statement without alternatives, such as the range of a value read, constrains
            // symbols without branching on them)
            let alternatives = successors.len() > 1;
            node.next += 1;
            let trail = self.trail.len();
            let scopes = node.scopes;
            let relied = node.relies;
            let pc = node.pc;
            // (what the step chooses is named by where it is made)
            let tag = mix(mix(node.key(), node.pc), mix(self.word.len() as u64, letter as u64));
            match self.take(letter, tag, config) {
                Step::Blocked => self.undo_to(trail),
                Step::Taken { scoped, branched, relies, constants, asserted } => {
                    // (values never read again make no state of their own)
                    for x in self.a.dead_after(letter) {
                        if self.values.contains_key(x) {
                            self.set(x, None);
                        }
                    }
                    let mut node = Node {
                        state: target,
                        next: 0,
                        letter: Some(letter),
                        branched: branched && alternatives,
                        trail,
                        at: self.trail.len(),
                        scoped,
                        scopes: scopes + usize::from(scoped),
                        depth: self.calls.len(),
                        hash: self.state_hash(),
                        shadows: None,
                        successors: None,
                        pc: pc.wrapping_add(asserted),
                        relies: relied || relies,
                    };
                    let join = self.states.join(target);
                    if join && (self.revisits(&nodes, &node) || self.explored(&node, self.word.len() + 1)) {
                        if scoped {
                            self.solver.pop();
                        }
                        self.undo_to(trail);
                        continue;
                    }
                    if branched && alternatives {
                        *self.branches.entry((letter, node.depth)).or_default() += 1;
                    }
                    self.word.push(letter);
                    self.hints.push(constants);
                    self.steps += 1;
                    self.longest = self.longest.max(self.word.len());
                    self.beyond_model |= self.states.accepting(target) && !self.is_error(target);
                    if join {
                        node.shadows = self.on_path.insert(node.key(), nodes.len());
                    }
                    nodes.push(node);
                    if self.is_error(target) {
                        let choices = if relied || relies { Choices::Matter } else { Choices::Irrelevant };
                        // the path run again on values, its letters' formulas evaluated on them
                        let ran = self.replay();
                        tracing::debug!("exec: the error path ran again on values: {}", ran.is_some());
                        let hints: Vec<Vec<(Term, Term)>> = match &ran {
                            Some(wrote) => wrote.iter().map(|m| m.iter().map(|(x, v)| (x.clone(), v.clone())).collect()).collect(),
                            None => self.hints.iter().map(|h| h.iter().map(|(x, v)| (x.clone(), v.to_term(&x.sort))).collect()).collect(),
                        };
                        if let Some(v) = confirm(&self.word, &hints, ran.as_deref(), target, choices) {
                            return Round::Decided(v);
                        }
                        // a confirmation is a solver call or several: the budget may be over
                        if let Some(why) = QueryBudget::of(config).stopped() {
                            return Round::Stopped(why);
                        }
                    }
                }
            }
        }
        tracing::debug!(bound, steps = self.steps, explored = self.explored.len(), "exec: a round ended");
        if cut {
            Round::Bounded
        } else {
            Round::Exhausted
        }
    }

    /// Whether a node with `node`'s state, values, call stack and path condition was explored
    /// in this round at most `depth` letters deep (every error it reaches within the bound,
    /// that one reached); if not, it is recorded at `depth`. States are matched by hashes.
    fn explored(&mut self, node: &Node, depth: usize) -> bool {
        let shallowest = self.explored.entry((node.key(), node.pc, node.relies)).or_insert(usize::MAX);
        if *shallowest <= depth {
            return true;
        }
        *shallowest = depth;
        false
    }

    /// A hash of the values and the call stack.
    fn state_hash(&self) -> u64 {
        self.hash ^ self.calls.last().map_or(0, |p| p.hash)
    }

    /// Whether `node` repeats the last node of the path with its state and hash: the same
    /// values and call stack, and no constraint added since (the futures are the same, and the
    /// earlier node has them). (Only the last: an older one with the same hash differs from it
    /// too, but for a collision, since constraints only grow along the path.)
    fn revisits(&self, path: &[Node], node: &Node) -> bool {
        let Some(&earlier) = self.on_path.get(&node.key()) else { return false };
        let e = &path[earlier];
        e.state == node.state
            && e.hash == node.hash
            && e.scopes == node.scopes
            && e.depth == node.depth
            && self.unchanged_since(e.at, e.depth)
    }

    /// Whether the values and the call stack are as they were when the trail was `len` long
    /// and the stack `depth` deep: every value changed since is back, and every call since has
    /// returned without the stack going below `depth`.
    fn unchanged_since(&self, len: usize, depth: usize) -> bool {
        let mut seen = BTreeSet::new();
        let mut now = depth;
        self.trail[len..].iter().all(|undo| match undo {
            Undo::Value(x, old) => !seen.insert(x) || self.values.get(x) == old.as_ref(),
            Undo::Called => {
                now += 1;
                true
            }
            Undo::Returned(_) if now > depth => {
                now -= 1;
                true
            }
            Undo::Returned(_) => false,
        })
    }

    /// Whether `t` reads a value that an over-approximation chose.
    fn mentions_choice(&self, t: &Term) -> bool {
        !self.tainted.is_empty() && free_vars(t).iter().any(|x| self.tainted.contains(x))
    }

    /// Takes back `node` and what it changed.
    fn leave(&mut self, node: &Node) {
        self.undo_to(node.trail);
        if self.states.join(node.state) {
            match node.shadows {
                Some(earlier) => self.on_path.insert(node.key(), earlier),
                None => self.on_path.remove(&node.key()),
            };
        }
        if let (true, Some(letter)) = (node.branched, node.letter) {
            if let Some(count) = self.branches.get_mut(&(letter, node.depth)) {
                *count -= 1;
            }
        }
    }

    fn is_error(&self, state: usize) -> bool {
        self.states.accepting(state) && self.a.violation(state).is_some_and(|v| v.kind != ViolationKind::ThreadLimit)
    }

    /// The letters that leave `state` and their targets (returns only to the pending call).
    fn successors(&self, state: usize) -> Result<Rc<[(usize, usize)]>, String> {
        self.states.successors(state, self.calls.last().map(|p| p.letter)).map(Rc::from)
    }

    /// Takes `letter`: updates the values, the call stack and the path condition (the symbols
    /// it chooses named by `tag`).
    fn take(&mut self, letter: usize, tag: u64, config: &Config) -> Step {
        let a = self.a;
        let (tf, kind) = (&a.letters()[letter].formula, &a.letters()[letter].kind);
        let overapprox = a.letters()[letter].edge.overapprox.is_some();
        let relies;
        let ran = self.run(letter);
        let (outs, constraints, constants) = match ran {
            Some(Run::Blocked) => return Step::Blocked,
            Some(Run::Wrote(outs, exact)) => {
                // (an over-approximation that chooses nothing may still differ from the program)
                relies = overapprox && !exact;
                let constants = outs.iter().filter(|(_, v)| !matches!(v, Value::Array(_))).cloned().collect();
                (outs.into_iter().map(|(x, v)| (x, Val::Known(v))).collect(), vec![], constants)
            }
            None => {
                // the values the letter reads (a return reads the callee's exit)
                let mut map: HashMap<Term, Term> = HashMap::new();
                for (x, i) in &tf.in_vars {
                    let v = self.value(x).term(&x.sort);
                    map.insert(i.clone(), v);
                }
                for aux in &tf.aux_vars {
                    map.insert(aux.clone(), symbol(aux, mix(tag, aux.id())));
                }
                let Some(Effect { values, constraints, chosen }) = effect(tf, &map, tag) else { return Step::Blocked };
                let choices = || chosen.iter().chain(tf.aux_vars.iter().map(|aux| &map[aux]));
                // (constraints only on what the letter chooses: the range of its type)
                let in_itself = !constraints.iter().any(|c| free_vars(c).iter().any(|x| !choices().any(|y| y == x)));
                relies = if overapprox {
                    // a pure choice, constrained only in itself
                    let pure = values.iter().all(|(_, v)| chosen.contains(v));
                    self.tainted.extend(choices().cloned());
                    !pure || !in_itself
                } else {
                    constraints.iter().any(|c| self.mentions_choice(c))
                };
                let outs: Vec<(Term, Val)> = values.into_iter().map(|(x, v)| (x, Val::of(v))).collect();
                let constants = outs
                    .iter()
                    .filter_map(|(x, v)| match v {
                        Val::Known(v) if !matches!(v, Value::Array(_)) => Some((x.clone(), v.clone())),
                        _ => None,
                    })
                    .collect();
                (outs, constraints, constants)
            }
        };
        match kind {
            Kind::Internal => {}
            Kind::Call => {
                let locals: Vec<(Term, Option<Val>)> = self.locals.iter().map(|x| (x.clone(), self.values.get(x).cloned())).collect();
                let below = mix(self.calls.last().map_or(0, |p| p.hash), letter as u64);
                let hash = locals.iter().fold(below, |h, (x, v)| mix(h, pair_hash(x, v.as_ref())));
                self.calls.push(Pending { letter, locals, hash });
                self.trail.push(Undo::Called);
            }
            Kind::Return(_) => {
                let Some(pending) = self.calls.pop() else { return Step::Blocked };
                for (x, v) in &pending.locals {
                    self.set(x, v.clone());
                }
                self.trail.push(Undo::Returned(pending));
            }
        }
        // A value that is neither known nor a symbol becomes a symbol defined in the solver:
        // values stay small however long the path (`x - 1` a thousand times over).
        let mut definitions = vec![];
        for (x, v) in outs {
            let v = match v {
                Val::Symbolic(t) if !t.is_var() => {
                    // (named by its definition: the same on every path that computes it)
                    let symbol = symbol(&x, mix(t.id(), u64::MAX));
                    if self.mentions_choice(&t) {
                        self.tainted.insert(symbol.clone());
                    }
                    definitions.push(eq(&symbol, &t));
                    Val::Symbolic(symbol)
                }
                v => v,
            };
            self.set(&x, Some(v));
        }
        if constraints.is_empty() && definitions.is_empty() {
            return Step::Taken { scoped: false, branched: false, relies, constants, asserted: 0 };
        }
        self.solver.push();
        let mut asserted = 0u64;
        for c in definitions.iter().chain(&constraints) {
            self.solver.assert(c);
            asserted = asserted.wrapping_add(mix(c.id(), 0));
        }
        if constraints.is_empty() {
            return Step::Taken { scoped: true, branched: false, relies, constants, asserted };
        }
        self.solver.set_timeout_ms(QueryBudget::of(config).next_ms());
        match self.solver.check() {
            SatResult::Unsat => {
                self.solver.pop();
                Step::Blocked
            }
            _ => Step::Taken { scoped: true, branched: true, relies, constants, asserted },
        }
    }

    /// `letter` run on known values, without terms or the solver: `None` where it reads a
    /// value that is not known, chooses one, or computes one the evaluator leaves open. An
    /// over-approximating statement with an exact one that is costly for a solver (bitwise
    /// operators under integer semantics) runs the exact one: on known values it costs nothing.
    fn run(&mut self, letter: usize) -> Option<Run> {
        let plan = self.plan(letter);
        if !plan.chosen.is_empty() {
            return None;
        }
        let mut reads = HashMap::default();
        for (x, i) in &plan.reads {
            let Val::Known(v) = self.value(x) else { return None };
            reads.insert(i.clone(), v);
        }
        match plan.apply(reads)? {
            None => Some(Run::Blocked),
            Some(env) => Some(Run::Wrote(plan.writes.iter().map(|(x, o)| (x.clone(), env[o].clone())).collect(), plan.exact)),
        }
    }

    fn plan(&mut self, letter: usize) -> Rc<Plan> {
        let info = &self.a.letters()[letter];
        self.plans
            .entry(letter)
            .or_insert_with(|| match info.edge.exact.as_ref().filter(|_| info.edge.overapprox.is_some()) {
                Some(exact) => Plan::of(&exact.trans_formula(), true),
                None => Plan::of(&info.formula, false),
            })
            .clone()
    }

    /// The values each letter of the current word wrote (arrays left out), by a run of the word
    /// from the start on values, which evaluates each letter's whole formula on the values
    /// before and after it: a model of the word's trace formula, so the word is feasible. A
    /// value that the search left symbolic (an input, a havoc, an over-approximation's choice,
    /// memory never written) is its sort's first value. `None` if a letter's formula does not
    /// hold on them (the word needs other inputs: the solver finds them) or a value is not one
    /// the evaluator has.
    fn replay(&mut self) -> Option<Vec<BTreeMap<Term, Term>>> {
        let word = self.word.clone();
        let mut values: HashMap<Term, Value> = HashMap::new();
        let mut frames: Vec<Vec<(Term, Option<Value>)>> = vec![];
        let mut wrote = Vec::with_capacity(word.len());
        for &letter in &word {
            let plan = self.plan(letter);
            let mut reads = HashMap::default();
            for (x, i) in &plan.reads {
                let v = match values.get(x) {
                    Some(v) => v.clone(),
                    None => {
                        let v = Value::first(&x.sort)?;
                        values.insert(x.clone(), v.clone());
                        v
                    }
                };
                reads.insert(i.clone(), v);
            }
            for c in &plan.chosen {
                reads.insert(c.clone(), Value::first(&c.sort)?);
            }
            let env = plan.apply(reads)??;
            if eval(&plan.formula, &|t| env.get(t).cloned()) != Some(Value::Bool(true)) {
                tracing::warn!("exec: a letter's formula does not hold on the values its run computed: {}", plan.formula);
                return None;
            }
            match &self.a.letters()[letter].kind {
                Kind::Internal => {}
                Kind::Call => frames.push(self.locals.iter().map(|x| (x.clone(), values.get(x).cloned())).collect()),
                Kind::Return(_) => {
                    for (x, v) in frames.pop()? {
                        match v {
                            Some(v) => values.insert(x, v),
                            None => values.remove(&x),
                        };
                    }
                }
            }
            let mut step = BTreeMap::new();
            for (x, o) in &plan.writes {
                let v = env[o].clone();
                if !matches!(v, Value::Array(_)) {
                    step.insert(x.clone(), v.to_term(&x.sort));
                }
                values.insert(x.clone(), v);
            }
            wrote.push(step);
        }
        Some(wrote)
    }

    /// The value of `x` (a symbol of its own until something is assigned).
    fn value(&mut self, x: &Term) -> Val {
        if let Some(v) = self.values.get(x) {
            return v.clone();
        }
        // (the value before any assignment: one value on every path)
        let symbol = symbol(x, x.id());
        // (an array's writes are known however unknown its first contents)
        let v = match x.sort {
            smt::Sort::Array(..) => Val::Known(Value::unknown_array(symbol)),
            _ => Val::Symbolic(symbol),
        };
        self.set(x, Some(v.clone()));
        v
    }

    fn set(&mut self, x: &Term, v: Option<Val>) {
        let old = self.put(x.clone(), v);
        self.trail.push(Undo::Value(x.clone(), old));
    }

    /// Gives `x` the value `v` (none: unassigned) and returns the old one, keeping the hash.
    fn put(&mut self, x: Term, v: Option<Val>) -> Option<Val> {
        if let Some(v) = &v {
            self.hash ^= pair_hash(&x, Some(v));
        }
        let old = match v {
            Some(v) => self.values.insert(x.clone(), v),
            None => self.values.remove(&x),
        };
        if let Some(old) = &old {
            self.hash ^= pair_hash(&x, Some(old));
        }
        old
    }

    fn undo_to(&mut self, len: usize) {
        while self.trail.len() > len {
            match self.trail.pop() {
                Some(Undo::Value(x, v)) => {
                    self.put(x, v);
                }
                Some(Undo::Called) => {
                    self.calls.pop();
                }
                Some(Undo::Returned(p)) => self.calls.push(p),
                None => {}
            }
        }
    }
}

/// The symbol `tag` names for a value of `x`. Symbols are named by where they arise, not
/// numbered, so that two paths into one state (two orders of commuting statements) reach it
/// with the same terms and the search matches them: a choice by the state, letter and depth it
/// is made at (never twice on one path), a defined value by its definition, a value never
/// assigned by its variable.
fn symbol(x: &Term, tag: u64) -> Term {
    let base = x.var_name().unwrap_or("v");
    Term::var(&format!("{}@@{tag:x}", base.split('@').next().unwrap_or(base)), x.sort.clone())
}

/// A hash of two numbers: the search hashes every value it assigns.
fn mix(a: u64, b: u64) -> u64 {
    FxBuildHasher.hash_one((a, b))
}

/// A hash of a variable and its value (`None`: unassigned).
fn pair_hash(x: &Term, v: Option<&Val>) -> u64 {
    mix(x.id(), v.map_or(u64::MAX, Val::fingerprint))
}

/// The first of `parts` that defines an `open` instance by an expression over no open one: its
/// position, the instance and the expression.
fn definition(parts: &[Term], open: &dyn Fn(&Term) -> bool) -> Option<(usize, Term, Term)> {
    parts.iter().enumerate().find_map(|(i, p)| {
        let (Some(Op::Eq), [a, b]) = (p.op(), p.args.as_slice()) else { return None };
        [(a, b), (b, a)].into_iter().find_map(|(o, e)| (open(o) && !free_vars(e).iter().any(open)).then(|| (i, o.clone(), e.clone())))
    })
}

/// The new values of the variables a letter assigns, and the constraints it adds.
struct Effect {
    values: Vec<(Term, Term)>,
    constraints: Vec<Term>,
    /// The symbols of the variables that no equation defines (a havoc).
    chosen: Vec<Term>,
}

/// What a letter does given the values it reads (`map`: its in-instances and auxiliaries to
/// terms): the new value of each variable it assigns, and the constraints on the symbols left
/// over; `None` when a constraint folds to false. An out-instance gets the value of an equation
/// that defines it; one that none defines becomes a symbol of its own (named by `tag`).
fn effect(tf: &TransFormula, map: &HashMap<Term, Term>, tag: u64) -> Option<Effect> {
    let outs: HashMap<Term, Term> =
        tf.out_vars.iter().filter(|(x, o)| tf.in_vars.get(*x) != Some(*o)).map(|(x, o)| (o.clone(), x.clone())).collect();
    let mut parts: Vec<Term> = conjuncts(&substitute(&tf.formula, map));
    let mut defined: HashMap<Term, Term> = HashMap::new();
    while let Some((i, o, e)) = definition(&parts, &|t| outs.contains_key(t) && !defined.contains_key(t)) {
        parts.remove(i);
        let e = substitute(&e, &defined);
        defined.insert(o, e);
    }
    let mut chosen = vec![];
    for (o, x) in &outs {
        defined.entry(o.clone()).or_insert_with(|| {
            let symbol = symbol(x, mix(tag, x.id()));
            chosen.push(symbol.clone());
            symbol
        });
    }
    let mut constraints = vec![];
    for p in parts {
        let p = substitute(&p, &defined);
        if p.is_false() {
            return None;
        }
        if !p.is_true() {
            constraints.push(p);
        }
    }
    let values = outs.iter().map(|(o, x)| (x.clone(), defined[o].clone())).collect();
    Some(Effect { values, constraints, chosen })
}
