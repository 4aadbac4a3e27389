//! The portfolio of "Craig vs. Newton": try sources in a fixed order (the interval invariants
//! of the trace's path program where it loops, Craig with its strongest, then its weakest
//! interpolants, then Newton: the weakest-precondition variant first, which the experiment of
//! `docs/craig-vs-newton.md` found strongest), stop at the first *perfect*
//! sequence (inductive for the trace's path program, so it also holds loop invariants of that
//! program), otherwise keep every sequence found.

use crate::farkas::{self, Strength};
use crate::hoare::{HoareChecker, Validity};
use crate::intervals::{as_sequence, path_boxes};
use crate::newton::newton_with;
use crate::{RefineError, Sequence, Source};
use ir::TransFormula;
use smt::build::and;
use smt::{Solver, Term};
use std::collections::{BTreeMap, BTreeSet};

/// The order in which the portfolio tries sources. Its weakest preconditions give up where
/// quantifier elimination fails or they grow large ([`newton_with`]): such sequences are
/// rarely perfect and make every later elimination expensive.
pub const ORDER: [Source; 5] = [Source::Intervals, Source::Craig, Source::NewtonItWpLv, Source::NewtonItSpLv, Source::NewtonSpLv];

/// Where a trace runs: `letters[i]` is the id of step `i` (stable across traces, so the Hoare
/// cache can be shared) and `locs[i]`, `locs[i + 1]` the locations it connects.
pub struct PathProgram<'a> {
    pub letters: &'a [usize],
    pub locs: &'a [usize],
}

/// The portfolio's sequences and which of them is perfect.
pub struct PortfolioResult {
    pub sequences: Vec<Sequence>,
    /// How many sequences the portfolio computed (perfect or not).
    pub computed: usize,
    pub perfect: usize,
}

/// The sequences of a single source (Craig without fallback, with its strongest and its
/// weakest interpolants), each with whether to keep it when it is not perfect: the weakest
/// Craig sequence and the intervals are only worth their states in the abstraction when they
/// are perfect.
fn sequences_from(
    source: Source,
    trace: &[TransFormula],
    boxes: &Result<Vec<Term>, RefineError>,
    core: &BTreeSet<usize>,
    solver: &mut dyn Solver,
) -> Result<Vec<(Sequence, bool)>, RefineError> {
    let mut all = match source.newton_options() {
        Some(opts) => vec![(newton_with(trace, core, opts, solver, true)?.preds, true)],
        None if source == Source::Intervals => vec![(as_sequence(boxes.clone()?)?, false)],
        None => vec![
            (farkas::farkas_sequence_of(trace, core, solver, Strength::Strongest)?, true),
            (farkas::farkas_sequence_of(trace, core, solver, Strength::Weakest)?, false),
        ],
    };
    all.dedup_by(|b, a| a.0 == b.0);
    let sequence = |preds: Vec<Term>| Sequence {
        quantified: preds.iter().filter(|p| p.has_quantifier()).count(),
        preds,
        source_used: source,
        fallback: None,
    };
    Ok(all.into_iter().map(|(preds, keep)| (sequence(preds), keep)).collect())
}

/// Whether the sequence is inductive for the path program: with `P(L)` the conjunction of the
/// assertions at the positions of location `L`, every path edge `(L, st, L')` has a valid
/// `{P(L)} st {P(L')}`. Undecided triples count as not valid.
pub fn is_perfect(preds: &[Term], trace: &[TransFormula], path: &PathProgram, hoare: &mut HoareChecker) -> bool {
    let mut at: BTreeMap<usize, Vec<Term>> = BTreeMap::new();
    for (i, p) in preds.iter().enumerate() {
        at.entry(path.locs[i]).or_default().push(p.clone());
    }
    let at: BTreeMap<usize, Term> = at.into_iter().map(|(l, ps)| (l, and(&ps))).collect();
    let mut edges = BTreeSet::new();
    for (i, tf) in trace.iter().enumerate() {
        if edges.insert((path.locs[i], path.letters[i], path.locs[i + 1])) {
            let (pre, post) = (&at[&path.locs[i]], &at[&path.locs[i + 1]]);
            if hoare.check(pre, path.letters[i], tf, post) != Validity::Valid {
                return false;
            }
        }
    }
    true
}

/// Runs the portfolio on an infeasible trace.
pub fn portfolio(
    trace: &[TransFormula],
    path: &PathProgram,
    core: &BTreeSet<usize>,
    solver: &mut dyn Solver,
    hoare: &mut HoareChecker,
) -> Result<PortfolioResult, RefineError> {
    let mut result = PortfolioResult { sequences: vec![], computed: 0, perfect: 0 };
    let mut last_error = None;
    let boxes = path_boxes(trace, path);
    for source in ORDER {
        match sequences_from(source, trace, &boxes, core, solver) {
            Ok(seqs) => {
                for (seq, keep_imperfect) in seqs {
                    result.computed += 1;
                    // The boxes hold along the trace too, so a sequence strengthened by them
                    // stays inductive, and may become perfect where the loop's range was missing.
                    let strengthened = boxes.as_ref().ok().filter(|_| source != Source::Intervals).map(|b| {
                        let preds = seq.preds.iter().zip(b).map(|(p, b)| and(&[p.clone(), b.clone()])).collect();
                        Sequence { preds, ..seq.clone() }
                    });
                    let mut candidates = std::iter::once(seq.clone()).chain(strengthened);
                    if let Some(perfect) = candidates.find(|s| is_perfect(&s.preds, trace, path, hoare)) {
                        result.perfect += 1;
                        result.sequences = vec![perfect];
                        return Ok(result);
                    }
                    if keep_imperfect {
                        result.sequences.push(seq);
                    }
                }
            }
            Err(RefineError::NotApplicable(why)) => tracing::debug!("{source} not applicable: {why}"),
            Err(e) => last_error = Some(e),
        }
    }
    match (result.sequences.is_empty(), last_error) {
        (true, Some(e)) => Err(e),
        _ => Ok(result),
    }
}
