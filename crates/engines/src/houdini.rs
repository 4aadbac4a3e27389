//! Houdini: the largest inductive subset of a set of candidate invariants. Every location
//! but the entry starts with all candidates; an edge whose step from its source's conjunction
//! can falsify candidates at its target drops those the solver's model falsifies, until no
//! edge drops any. The result is an annotation of the CFG if, in addition, no edge into an
//! error location can be taken from its source's conjunction. Of the candidates kept, only
//! those the proof needs are reported: unsat cores, from the error edges backwards, tell which.

use crate::annotation::millis_left;
use ir::{Cfg, TransFormula};
use refine::hoare::step_instances;
use smt::build::{and, ff, not, tt};
use smt::{SatResult, Solver, SolverSpec, Term};
use std::collections::{BTreeSet, VecDeque};
use std::time::Instant;

/// The time of one query about all candidates of a location.
const QUERY_MS: u64 = 2000;
/// The time of one query about a single candidate, when the query about all was too hard.
const SINGLE_QUERY_MS: u64 = 200;

/// An inductive annotation of `cfg` (`true` at the entry, `false` at error locations, a
/// conjunction of `candidates` elsewhere), or `None` if the candidates do not make one or
/// the solver gave up before `deadline`.
pub fn annotation(cfg: &Cfg, candidates: &[Term], deadline: Option<Instant>, spec: &SolverSpec) -> Option<Vec<Term>> {
    let solver = spec.create().map_err(|e| tracing::debug!("Houdini: cannot start {spec}: {e}")).ok()?;
    let mut h = Houdini { cfg, steps: cfg.edges.iter().map(|e| e.trans_formula().clone()).collect(), solver, deadline };
    tracing::debug!("Houdini: {} candidates", candidates.len());
    candidates.iter().for_each(|c| tracing::trace!("candidate {c}"));
    let inv = h.fixpoint(candidates)?;
    let needed = h.needed(&inv)?;
    tracing::debug!(
        "Houdini: {} candidates kept, {} needed",
        inv.iter().map(Vec::len).sum::<usize>(),
        needed.iter().map(BTreeSet::len).sum::<usize>()
    );
    Some(
        needed
            .iter()
            .enumerate()
            .map(|(l, n)| {
                if h.is_error(l) {
                    ff()
                } else if l == cfg.entry {
                    tt()
                } else {
                    and(&n.iter().map(|&k| inv[l][k].clone()).collect::<Vec<_>>())
                }
            })
            .collect(),
    )
}

struct Houdini<'a> {
    cfg: &'a Cfg,
    steps: Vec<TransFormula>,
    solver: Box<dyn Solver>,
    deadline: Option<Instant>,
}

impl Houdini<'_> {
    fn is_error(&self, l: usize) -> bool {
        self.cfg.locs[l].error.is_some()
    }

    /// Checks `parts` alone (a one-shot query, see `Z3Solver::reset`) within `cap_ms` and the
    /// time left; the solver keeps them for a model or core.
    fn check(&mut self, parts: &[&Term], named: &[Term], cap_ms: u64) -> SatResult {
        self.solver.reset();
        self.solver.set_timeout_ms(millis_left(self.deadline, cap_ms).max(1));
        parts.iter().for_each(|p| self.solver.assert(p));
        named.iter().enumerate().for_each(|(k, p)| self.solver.assert_named(&format!("c{k}"), p));
        self.solver.check()
    }

    /// The candidates each location keeps.
    fn fixpoint(&mut self, candidates: &[Term]) -> Option<Vec<Vec<Term>>> {
        let cfg = self.cfg;
        let mut inv: Vec<Vec<Term>> =
            (0..cfg.locs.len()).map(|l| if l == cfg.entry || self.is_error(l) { vec![] } else { candidates.to_vec() }).collect();
        let succ = cfg.successors();
        let mut queue: VecDeque<usize> = (0..cfg.edges.len()).filter(|&e| !self.is_error(cfg.edges[e].dst)).collect();
        let mut queued = vec![true; cfg.edges.len()];
        while let Some(e) = queue.pop_front() {
            queued[e] = false;
            let (src, dst) = (cfg.edges[e].src, cfg.edges[e].dst);
            let (pres, mut posts) = step_instances(&inv[src], &self.steps[e], &inv[dst]);
            let pre_step = and(&[and(&pres), self.steps[e].formula.clone()]);
            let mut dropped = false;
            while !posts.is_empty() {
                let keep: Vec<bool> = match self.check(&[&pre_step, &not(&and(&posts))], &[], QUERY_MS) {
                    SatResult::Unsat => break,
                    SatResult::Sat => {
                        let model = self.solver.model(&posts);
                        // A candidate the model does not evaluate counts as false.
                        let keep: Vec<bool> =
                            posts.iter().map(|p| model.as_ref().is_ok_and(|m| m.get(p).is_some_and(Term::is_true))).collect();
                        if keep.iter().all(|&k| k) {
                            return None;
                        }
                        keep
                    }
                    SatResult::Unknown(why) => {
                        if millis_left(self.deadline, 1) == 0 {
                            tracing::debug!("Houdini gave up: {why}");
                            return None;
                        }
                        // Too hard at once: keep the candidates the step keeps one by one.
                        let keep: Vec<bool> =
                            posts.iter().map(|p| self.check(&[&pre_step, &not(p)], &[], SINGLE_QUERY_MS) == SatResult::Unsat).collect();
                        if keep.iter().all(|&k| k) {
                            break;
                        }
                        keep
                    }
                };
                let mut k = keep.iter();
                inv[dst].retain(|_| *k.next().unwrap_or(&false));
                let mut k = keep.iter();
                posts.retain(|_| *k.next().unwrap_or(&false));
                dropped = true;
            }
            if dropped {
                for &next in &succ[dst] {
                    if !queued[next] && !self.is_error(cfg.edges[next].dst) {
                        queued[next] = true;
                        queue.push_back(next);
                    }
                }
            }
        }
        Some(inv)
    }

    /// The indices of the candidates in `inv` that make error locations unreachable and the
    /// needed candidates inductive; `None` if an error location is reachable from them.
    fn needed(&mut self, inv: &[Vec<Term>]) -> Option<Vec<BTreeSet<usize>>> {
        let cfg = self.cfg;
        let mut needed: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); cfg.locs.len()];
        let preds = cfg.predecessors();
        // (location, candidate) pairs whose support is still to be found; `None`: `false`.
        let mut todo: Vec<(usize, Option<usize>)> = cfg.error_locs().into_iter().map(|l| (l, None)).collect();
        while let Some((loc, goal)) = todo.pop() {
            for &e in &preds[loc] {
                let src = cfg.edges[e].src;
                // The source's candidates must establish the goal across the step (`false` at
                // an error location: the step cannot be taken).
                let goal = goal.map_or(ff(), |k| inv[loc][k].clone());
                let (pres, posts) = step_instances(&inv[src], &self.steps[e], &[goal]);
                // Without a core, every candidate of the source is kept (the annotation's own
                // check decides then).
                let core: Vec<usize> = match self.check(&[&self.steps[e].formula.clone(), &not(&posts[0])], &pres, QUERY_MS) {
                    SatResult::Unsat => match self.solver.unsat_core() {
                        Ok(names) => names.iter().filter_map(|n| n.strip_prefix('c')?.parse().ok()).collect(),
                        Err(_) => (0..pres.len()).collect(),
                    },
                    SatResult::Unknown(_) => (0..pres.len()).collect(),
                    SatResult::Sat => {
                        tracing::debug!("Houdini: {} is reachable from {}'s candidates", cfg.locs[loc].name, cfg.locs[src].name);
                        return None;
                    }
                };
                for k in core {
                    if needed[src].insert(k) {
                        todo.push((src, Some(k)));
                    }
                }
            }
        }
        Some(needed)
    }
}
