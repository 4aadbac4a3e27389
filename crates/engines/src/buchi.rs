//! Termination by trace abstraction over Büchi automata (Büchi Automizer). The program is a
//! Büchi automaton over its statements that accepts every infinite run of its CFG. Each
//! iteration takes a shortest lasso `stem loop^ω` of the difference with the automata learnt
//! so far and analyses it:
//! - a stem, a loop, a stem-and-loop or a stem and the loop twice that is infeasible as a
//!   finite trace is refined as in safety: an interpolant automaton of its assertion sequence
//!   (its `false` sink accepts every word that contains such a trace);
//! - a feasible lasso with a ranking function (`lasso::ranking_function`, for each round of a
//!   loop that passes its honda several times, else for the whole loop) gives a
//!   rank-certified automaton ([`Certificate`]): the stem's assertions lead to the supporting
//!   invariants, the rounds' carry the rank's old value, and a visit of the honda is
//!   accepting where "the rank decreased since the last visit" holds, breaking where it does
//!   not; every word it accepts terminates;
//! - a feasible lasso with a nontermination argument (`lasso::nontermination`) on exact
//!   statements is FALSE(termination); otherwise UNKNOWN.
//!
//! Every automaton transition is a Hoare triple the solver found valid (an unknown answer
//! drops the predicate), so an empty difference (no lasso left) proves termination.

use crate::annotation::Proof;
use crate::automizer::letters_and_transitions;
use crate::cegar::{timed, Letter};
use crate::cex::{basic_path, steps_with_values, Origin, TraceChecker};
use crate::predicate_dfa::{Certificate, PredicateDfa};
use crate::sources::Session;
use crate::{Config, Counterexample, Stats, Verdict};
use automata::{shortest_lasso_in_difference, Lasso, LazyDba, Nfa};
use ir::{Cfg, Stmt, TransFormula, Violation, ViolationKind};
use refine::source::Infeasible;
use refine::{check_trace, conjunct_core, infeasible_core};
use smt::build::{and, and2, eq, ff, not, or2};
use smt::{Sort, Term};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use verdict::Ranking;

/// How often the loop of a lasso is run through an automaton before its run is taken to have
/// no cycle (a safety net: predicate automata are finite, their runs cycle much earlier).
const MAX_LOOP_UNROLLINGS: usize = 256;

/// The program's CFG as a Büchi automaton: letters are its edges, every location is
/// accepting (an infinite run visits some location infinitely often), and error locations
/// have no successors (an execution ends there: termination has no error locations).
struct Program<'a> {
    /// The CFG before large-block encoding (a counterexample's steps are its edges).
    original: &'a Cfg,
    cfg: Cfg,
    nba: Nfa,
    letters: Vec<Letter>,
}

impl<'a> Program<'a> {
    fn new(original: &'a Cfg, cfg: Cfg) -> Result<Program<'a>, String> {
        let (letters, mut transitions) = letters_and_transitions(&cfg)?;
        for (loc, out) in transitions.iter_mut().enumerate() {
            if cfg.locs[loc].error.is_some() {
                out.clear();
            }
        }
        let nba = Nfa { initial: cfg.entry, transitions, accepting: vec![true; cfg.locs.len()] };
        Ok(Program { original, cfg, nba, letters })
    }

    fn formulas(&self, word: &[usize]) -> Vec<TransFormula> {
        word.iter().map(|&l| self.letters[l].formula.clone()).collect()
    }

    /// The composition of a word's statements (the identity for the empty word).
    fn composed(&self, word: &[usize]) -> TransFormula {
        word.iter().fold(TransFormula::skip(), |tf, &l| tf.sequence(&self.letters[l].formula))
    }

    /// The same word with its honda at a location the loop passes only once, if its own is
    /// passed more often (a rank certificate saves at every visit of the honda: a ranking
    /// function of the whole loop need not decrease between two visits within a round).
    fn rotated(&self, lasso: Lasso) -> Lasso {
        let sources: Vec<usize> = lasso.looped.iter().map(|&l| self.letters[l].edge.src).collect();
        let once = |loc: &usize| sources.iter().filter(|&s| s == loc).count() == 1;
        if once(&lasso.honda) {
            return lasso;
        }
        let Some(k) = sources.iter().position(once) else { return lasso };
        let (stem, looped) = ([&lasso.stem, &lasso.looped[..k]].concat(), [&lasso.looped[k..], &lasso.looped[..k]].concat());
        Lasso { stem, looped, honda: sources[k] }
    }

    /// The loop split where it passes its honda: rounds from the honda back to it, each
    /// distinct round once (one round when the loop passes the honda only at its start).
    fn rounds(&self, lasso: &Lasso) -> Vec<Vec<usize>> {
        let mut rounds: Vec<Vec<usize>> = vec![];
        for (i, &l) in lasso.looped.iter().enumerate() {
            if i == 0 || self.letters[l].edge.src == lasso.honda {
                rounds.push(vec![]);
            }
            rounds.last_mut().into_iter().for_each(|r| r.push(l));
        }
        rounds.sort();
        rounds.dedup();
        rounds
    }

    /// The first over-approximating statement of a word, if any.
    fn overapprox(&self, word: &[usize]) -> Option<String> {
        word.iter().find_map(|&l| self.letters[l].edge.overapprox.clone())
    }
}

impl LazyDba for PredicateDfa {
    fn accepting(&self, state: usize, letter: usize) -> bool {
        PredicateDfa::accepting(self, state, letter)
    }

    fn breaking(&self, state: usize, letter: usize) -> bool {
        PredicateDfa::breaking(self, state, letter)
    }
}

/// What the analysis of one lasso gives.
enum Analysis {
    /// Automata that remove it (and more).
    Refined(Vec<PredicateDfa>),
    /// The lasso is an infinite execution.
    Nonterminating(Box<Counterexample>),
    Unknown(String),
}

/// The state of one termination run.
struct Run<'a> {
    entry: &'a str,
    program: Program<'a>,
    session: Session,
    config: &'a Config,
    /// The ranking functions of the rank-certified automata so far.
    rankings: Vec<Ranking>,
}

/// Decides termination of the entry procedure `entry` (a call-free CFG).
pub(crate) fn verify(entry: &str, original: &Cfg, config: &Config, stats: &mut Stats) -> (Verdict, Option<Proof>) {
    let cfg = if config.large_blocks { ir::sequential_block_encoding(original) } else { original.clone() };
    let program = match Program::new(original, cfg) {
        Ok(p) => p,
        Err(e) => return (Verdict::unknown(e), None),
    };
    let letters = program.letters.iter().map(|l| l.formula.clone()).collect();
    let session = match Session::start(config, letters, Default::default()) {
        Ok(s) => s,
        Err(e) => return (Verdict::unknown(e), None),
    };
    let mut run = Run { entry, program, session, config, rankings: vec![] };
    let mut dfas: Vec<PredicateDfa> = vec![];
    let verdict = run.refine_until_decided(&mut dfas, stats);
    run.session.add_stats(&dfas, stats);
    let proof = matches!(verdict, Verdict::Safe).then(|| Proof { checked: Some(true), rankings: run.rankings, ..Proof::default() });
    (verdict, proof)
}

impl Run<'_> {
    fn refine_until_decided(&mut self, dfas: &mut Vec<PredicateDfa>, stats: &mut Stats) -> Verdict {
        loop {
            if let Some(why) = self.session.budget.stopped() {
                return Verdict::unknown(why);
            }
            self.session.refiner.set_timeout_ms(self.session.budget.next_ms());
            stats.iterations += 1;
            let search = timed(&mut stats.time_abstraction_ms, || {
                let mut subtrahends: Vec<&mut dyn LazyDba> = dfas.iter_mut().map(|d| d as &mut dyn LazyDba).collect();
                let budget = &self.session.budget;
                shortest_lasso_in_difference(&self.program.nba, &mut subtrahends, &mut |_| budget.stopped().map(String::from))
            });
            let lasso = match search {
                Err(i) => return Verdict::unknown(i.0),
                Ok(None) => return Verdict::Safe,
                Ok(Some(l)) => l,
            };
            let lasso = self.program.rotated(lasso);
            tracing::debug!(iteration = stats.iterations, "lasso: stem {:?} loop {:?}", lasso.stem, lasso.looped);
            stats.lassos += 1;
            match self.analyse(&lasso, dfas.len(), stats) {
                Analysis::Refined(new) if new.is_empty() => {
                    return Verdict::unknown(self.session.budget.give_up("refinement made no progress: no automaton removes the lasso"))
                }
                Analysis::Refined(new) => dfas.extend(new),
                Analysis::Nonterminating(c) => return Verdict::Unsafe(c),
                Analysis::Unknown(why) => return Verdict::unknown(self.session.budget.give_up(why)),
            }
        }
    }

    /// The limit of each query of the periodic nontermination arguments tried before ranking
    /// functions (a later, full search asks them again with the whole query limit).
    const PERIODIC_FIRST_MS: u64 = 1000;

    /// Refines with an infeasible part of the lasso, or looks for a ranking function, or a
    /// nontermination argument. `learnt` automata exist so far (for fresh cache keys).
    fn analyse(&mut self, lasso: &Lasso, learnt: usize, stats: &mut Stats) -> Analysis {
        let whole = [lasso.stem.as_slice(), lasso.looped.as_slice()].concat();
        for word in [&lasso.stem, &lasso.looped, &whole] {
            if let Some(found) = self.refined_if_infeasible(word, lasso, stats) {
                return found;
            }
        }
        let l = lasso::Lasso { stem: self.program.composed(&lasso.stem), looped: self.program.composed(&lasso.looped) };
        let settings = lasso::Settings {
            timeout_ms: self.session.budget.next_ms(),
            deadline: self.config.deadline,
            ..lasso::Settings::with_families(&self.config.ranking_families)
        };
        // cheap arguments first: a fixed point or two-state cycle of the loop (no ranking
        // function exists then; a loop of thirty variables spends seconds on the templates
        // before the geometric search), quick linear ranking problems, a loop that cannot run
        // twice, then nontermination, then the linear ranking problems that choose where each
        // supporting invariant is a premise, then the non-linear ones that can take the whole
        // time limit. A loop that passes its honda several times first gets a ranking function
        // that decreases in each of its rounds (its certificate can save at every visit). A
        // ranking function whose certificate does not remove the lasso leaves the next one a
        // chance.
        let rounds = self.program.rounds(lasso);
        let whole_loop = vec![lasso.looped.clone()];
        let mut ranking_problems = vec![(whole_loop, l.clone())];
        if rounds.len() > 1 {
            let each: Vec<TransFormula> = rounds.iter().map(|r| self.program.composed(r)).collect();
            ranking_problems.insert(0, (rounds, lasso::Lasso { stem: l.stem.clone(), looped: TransFormula::choice(&each) }));
        }
        let overapprox = self.program.overapprox(&whole);
        if overapprox.is_none() {
            let quick = lasso::Settings { timeout_ms: settings.timeout_ms.min(Self::PERIODIC_FIRST_MS), ..settings.clone() };
            if let Some(found) =
                self.nonterminating(lasso, timed(&mut stats.time_lasso_ms, || lasso::periodic_nontermination(&l, &quick)), stats)
            {
                return found;
            }
        }
        let mut not_generalized = None;
        for (rounds, problem) in &ranking_problems {
            match self.ranked(lasso, rounds, problem, lasso::Stage::Quick, &settings, learnt, stats) {
                Some(Analysis::Unknown(why)) => not_generalized = Some(why),
                Some(found) => return found,
                None => {}
            }
        }
        let twice = [whole.as_slice(), lasso.looped.as_slice()].concat();
        if let Some(found) = self.refined_if_infeasible(&twice, lasso, stats) {
            return found;
        }
        if overapprox.is_none() {
            if let Some(found) = self.nonterminating(lasso, timed(&mut stats.time_lasso_ms, || lasso::nontermination(&l, &settings)), stats)
            {
                return found;
            }
        }
        for (stage, (rounds, problem)) in
            [lasso::Stage::Linear, lasso::Stage::Nonlinear].into_iter().flat_map(|s| ranking_problems.iter().map(move |p| (s, p)))
        {
            match self.ranked(lasso, rounds, problem, stage, &settings, learnt, stats) {
                Some(Analysis::Unknown(why)) => not_generalized = Some(why),
                Some(found) => return found,
                None => {}
            }
        }
        Analysis::Unknown(not_generalized.unwrap_or_else(|| match overapprox {
            Some(why) => format!("no ranking function for a lasso whose statements over-approximate ({why})"),
            None => format!("no ranking function and no nontermination argument for the lasso at {}", self.honda_pos(lasso)),
        }))
    }

    /// The answer a nontermination argument of the lasso gives, if one was found.
    fn nonterminating(
        &mut self,
        lasso: &Lasso,
        argument: Result<Option<lasso::NonterminationArgument>, lasso::LassoError>,
        stats: &mut Stats,
    ) -> Option<Analysis> {
        match argument {
            Ok(Some(arg)) => Some(match self.counterexample(lasso, &arg) {
                Some(c) => {
                    stats.nontermination_arguments += 1;
                    Analysis::Nonterminating(Box::new(c))
                }
                None => Analysis::Unknown("a nontermination argument whose path could not be confirmed".into()),
            }),
            Ok(None) => None,
            Err(e) => {
                tracing::debug!("no nontermination argument: {e}");
                None
            }
        }
    }

    /// The automata that remove the lasso if `word`, a finite part of it, is infeasible (those
    /// of its assertion sequences that reject the lasso).
    fn refined_if_infeasible(&mut self, word: &[usize], lasso: &Lasso, stats: &mut Stats) -> Option<Analysis> {
        if word.is_empty() {
            return None;
        }
        match self.infeasible(&self.program.formulas(word), stats) {
            Ok(None) => None,
            Ok(Some(sequences)) => {
                let dfas = sequences.iter().map(|p| PredicateDfa::new(p, self.session.shared.clone()));
                Some(Analysis::Refined(self.rejecting(dfas, lasso)))
            }
            Err(e) => Some(Analysis::Unknown(e)),
        }
    }

    /// The certified automaton of a ranking function of `l` found at `stage`, if any: `l` is
    /// the lasso's stem and the choice of its `rounds`.
    #[allow(clippy::too_many_arguments)]
    fn ranked(
        &mut self,
        lasso: &Lasso,
        rounds: &[Vec<usize>],
        l: &lasso::Lasso,
        stage: lasso::Stage,
        settings: &lasso::Settings,
        learnt: usize,
        stats: &mut Stats,
    ) -> Option<Analysis> {
        let settings = lasso::Settings { stage, ..settings.clone() };
        match timed(&mut stats.time_lasso_ms, || lasso::ranking_function(l, &settings)) {
            Ok(Some(rf)) => {
                *stats.ranking_templates.entry(rf.template.to_string()).or_default() += 1;
                Some(self.certified(lasso, rounds, &rf, learnt, stats))
            }
            Ok(None) => None,
            Err(e) => {
                tracing::debug!("no ranking function: {e}");
                None
            }
        }
    }

    /// Where a lasso's loop starts, for messages.
    fn honda_pos(&self, lasso: &Lasso) -> String {
        let first = lasso.looped.first().and_then(|&l| self.program.letters[l].edge.pos.clone());
        first.map_or_else(|| self.program.cfg.locs[lasso.honda].name.clone(), |p| p.to_string())
    }

    /// The assertion sequences of `trace` if it is infeasible (`None` if feasible).
    fn infeasible(&mut self, trace: &[TransFormula], stats: &mut Stats) -> Result<Option<Vec<Vec<Term>>>, String> {
        stats.trace_checks += 1;
        // (a feasible part needs no model: the lasso analysis reads the formulas)
        let check = timed(&mut stats.time_trace_check_ms, || infeasible_core(trace, self.session.refiner.trace.as_mut()));
        let core = match check {
            Ok(None) => return Ok(None),
            Err(r) => return Err(format!("trace check: {r}")),
            Ok(Some(core)) => core,
        };
        // a lasso's letters are large blocks: their conjuncts that the contradiction does not
        // use (branch conditions, memory updates) would only weigh on the assertions
        let cut = timed(&mut stats.time_trace_check_ms, || conjunct_core(trace, self.session.refiner.trace.as_mut()));
        let (trace, core) = match &cut {
            Some(cut) => (cut.as_slice(), (0..cut.len()).filter(|&i| !cut[i].formula.is_true()).collect()),
            None => (trace, core),
        };
        let started = std::time::Instant::now();
        let sequences = self.session.refiner.sequences(&Infeasible { trace, core: &core }, None, None, stats);
        stats.time_sequence_ms += started.elapsed().as_millis();
        match sequences {
            Ok(s) => Ok(Some(s.into_iter().map(|s| s.preds).collect())),
            Err(e) => Err(format!("refinement failed: {e}")),
        }
    }

    /// The automata among `candidates` that reject the lasso.
    fn rejecting(&self, candidates: impl Iterator<Item = PredicateDfa>, lasso: &Lasso) -> Vec<PredicateDfa> {
        candidates.filter_map(|mut d| rejects(&mut d, lasso).then_some(d)).collect()
    }

    /// The rank-certified automaton of a ranking function for the lasso.
    fn certified(
        &mut self,
        lasso: &Lasso,
        rounds: &[Vec<usize>],
        rf: &lasso::RankingFunction,
        learnt: usize,
        stats: &mut Stats,
    ) -> Analysis {
        let old: Vec<Term> = rf
            .components
            .iter()
            .enumerate()
            .map(|(i, c)| match c.sort {
                Sort::Real => Term::var(&format!("#oldrnk{i}.real"), Sort::Real),
                _ => Term::var(&format!("#oldrnk{i}"), Sort::Int),
            })
            .collect();
        let first_visit = Term::var("#unseeded", Sort::Bool);
        let invariant = and(&rf.supporting_invariants);
        let accepting = and2(&invariant, &or2(&first_visit, &rf.decreases(&old)));
        let mut saves: Vec<(Term, Term)> = old.iter().cloned().zip(rf.components.iter().cloned()).collect();
        saves.push((first_visit.clone(), ff()));
        let assign = Stmt::Assign(saves).trans_formula();
        // The stem establishes the supporting invariants; each round, entered where the
        // accepting predicate holds, saves the rank and returns to it.
        let mut stem_trace = self.program.formulas(&lasso.stem);
        stem_trace.push(TransFormula::assume(&not(&invariant)));
        let round_traces = rounds.iter().map(|r| {
            let mut trace = vec![TransFormula::assume(&accepting), assign.clone()];
            trace.extend(self.program.formulas(r));
            trace.push(TransFormula::assume(&not(&accepting)));
            trace
        });
        let traces: Vec<Vec<TransFormula>> = std::iter::once(stem_trace).chain(round_traces).collect();
        let mut preds = vec![];
        for trace in traces {
            match self.infeasible(&trace, stats) {
                Ok(Some(sequences)) => preds.extend(sequences.into_iter().flatten()),
                Ok(None) => return Analysis::Unknown("the ranking function's certificate does not hold on the lasso".into()),
                Err(e) => return Analysis::Unknown(e),
            }
        }
        tracing::debug!(template = %rf.template, "certificate {accepting}; predicates: {}", preds.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("  |  "));
        let key_offset = self.program.letters.len() * (learnt + 1);
        let saving: BTreeSet<usize> = self.program.nba.transitions[lasso.honda].iter().map(|&(l, _)| l).collect();
        // saving at every visit generalizes to lassos that visited the loop before; a loop
        // that passes its head more than once may need saves at the accepting visits only
        let certified = |every_visit| {
            let certificate = Certificate {
                accepting: accepting.clone(),
                assign: assign.clone(),
                initially: first_visit.clone(),
                saving: saving.clone(),
                every_visit,
                key_offset,
            };
            PredicateDfa::certified(&preds, certificate, self.session.shared.clone())
        };
        let Some(kept) = [true, false].into_iter().map(certified).find_map(|mut d| rejects(&mut d, lasso).then_some(d)) else {
            return Analysis::Unknown(format!("the ranking function of the lasso at {} could not be generalized", self.honda_pos(lasso)));
        };
        self.rankings.push(Ranking {
            pos: lasso.looped.first().and_then(|&l| self.program.letters[l].edge.pos.clone()),
            template: rf.template.to_string(),
            components: rf.components.clone(),
            supporting_invariants: rf.supporting_invariants.clone(),
        });
        Analysis::Refined(vec![kept])
    }

    /// The lasso as source steps, its stem leading to the argument's state at the loop head.
    fn counterexample(&mut self, lasso: &Lasso, arg: &lasso::NonterminationArgument) -> Option<Counterexample> {
        // the state at the loop head, and the one the first iteration ends in where the
        // argument names it (so that the loop shown is one that repeats)
        let (at_honda, after) = match arg {
            lasso::NonterminationArgument::FixedPoint { state, period } => (state, (*period == 1).then_some(state)),
            lasso::NonterminationArgument::Geometric { x0, x1, .. } => (x0, Some(x1)),
        };
        let state = |s: &BTreeMap<Term, Term>| TransFormula::assume(&and(&s.iter().map(|(x, v)| eq(x, v)).collect::<Vec<_>>()));
        let constraint = state(at_honda);
        let stem_len = lasso.stem.len();
        let word = [lasso.stem.as_slice(), lasso.looped.as_slice()].concat();
        let steps: Vec<_> = word.iter().enumerate().map(|(i, &l)| (self.program.letters[l].edge.as_block(), i)).collect();
        let original = self.program.original;
        let solver = self.session.refiner.trace.as_mut();
        // with the end state first; the loop's values then need not repeat
        let mut ends = after.map(state).into_iter().map(Some).chain([None]);
        let resolved = ends.find_map(|end| {
            let check: &mut TraceChecker<usize> = &mut |tfs, tags| {
                let mut trace = tfs.to_vec();
                if let Some(first) = tags.iter().position(|&t| t >= stem_len) {
                    trace[first] = constraint.sequence(&trace[first]);
                }
                trace.extend(end.clone());
                check_trace(&trace, &mut *solver)
            };
            let path = basic_path(steps.clone(), check)?;
            let loop_start = path.iter().position(|(_, t)| *t >= stem_len);
            let (initial, steps) = steps_with_values(&path, &|_| Origin::sequential(original), check)?;
            Some((initial, steps, loop_start))
        });
        let (initial, steps, loop_start) = resolved?;
        let pos = lasso.looped.first().and_then(|&l| self.program.letters[l].edge.pos.clone());
        Some(Counterexample {
            entry: self.entry.to_string(),
            violation: Violation { kind: ViolationKind::Nontermination, pos },
            initial,
            steps,
            source_steps: true,
            loop_start,
        })
    }
}

/// Whether the automaton removes the lasso: its run on `stem loop^ω` reaches the sink, or
/// the cycle of rounds it ends in takes an accepting transition and no breaking one.
fn rejects(dfa: &mut PredicateDfa, lasso: &Lasso) -> bool {
    use automata::LazyDfa;
    let Some(mut state) = dfa.initial() else { return true };
    for &l in &lasso.stem {
        match dfa.successor(state, l) {
            Some(s) => state = s,
            None => return true,
        }
    }
    // The state at the start of each round, and whether the round took an accepting and a
    // breaking transition.
    let mut rounds: HashMap<usize, usize> = HashMap::new();
    let mut marks: Vec<(bool, bool)> = vec![];
    while rounds.len() < MAX_LOOP_UNROLLINGS {
        if let Some(&first) = rounds.get(&state) {
            let cycle = &marks[first..];
            return cycle.iter().any(|&(a, _)| a) && !cycle.iter().any(|&(_, b)| b);
        }
        rounds.insert(state, marks.len());
        let (mut accepting, mut breaking) = (false, false);
        for &l in &lasso.looped {
            accepting |= dfa.accepting(state, l);
            breaking |= dfa.breaking(state, l);
            match dfa.successor(state, l) {
                Some(s) => state = s,
                None => return true,
            }
        }
        marks.push((accepting, breaking));
    }
    false
}
