//! Trace checks and assertion sources (Newton, Craig by Farkas), Hoare triples.
//!
//! A *trace* is a sequence of transition formulas from precondition `true` to postcondition
//! `false`. [`check_trace`] decides its feasibility; for an infeasible trace an assertion source
//! ([`assertion_sequence`]) computes an inductive sequence of assertions `I_0 = true, .., I_n =
//! false` over canonical program variables with `{I_i} st_i {I_{i+1}}` for every step.

pub mod craig_smtlib;
pub mod error;
pub mod farkas;
pub mod hoare;
pub mod intervals;
pub mod nested;
pub mod newton;
pub mod portfolio;
pub mod source;
pub mod ssa;
pub mod trace_check;
pub mod transformer;

pub use error::RefineError;
pub use hoare::{HoareChecker, HoareStats, Validity};
pub use trace_check::{
    check_scoped_trace, check_scoped_trace_with_hints, check_trace, conjunct_core, infeasible_core, Counterexample, TraceCheck,
};

use ir::TransFormula;
use newton::{NewtonOptions, Transformer};
use smt::build::not;
use smt::{SatResult, Solver, Term};
use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

/// The sources of inductive assertion sequences.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Source {
    /// Newton: infeasible core, strongest post, live-variable projection (the default).
    #[default]
    NewtonItSpLv,
    /// Newton: infeasible core and strongest post.
    NewtonItSp,
    /// Newton: strongest post with live-variable projection.
    NewtonSpLv,
    /// Plain strongest post along the trace.
    NewtonSp,
    /// Newton: infeasible core, weakest precondition, past-live-variable projection.
    NewtonItWpLv,
    /// Newton: infeasible core and weakest precondition.
    NewtonItWp,
    /// Newton: weakest precondition with past-live-variable projection.
    NewtonWpLv,
    /// Plain weakest precondition backwards along the trace.
    NewtonWp,
    /// Craig sequence interpolants by Farkas' lemma (falls back to `NewtonItSpLv`).
    Craig,
    /// Craig interpolants from an external SMT-LIB solver by repeated binary interpolation
    /// (falls back to `NewtonItSpLv` when the solver gives none or the sequence is not inductive).
    CraigSmtLib,
    /// Interval invariants of the trace's path program where it has a loop (falls back to
    /// `NewtonItSpLv`; see [`intervals`]).
    Intervals,
    /// Intervals, Craig, then it-wp-lv, it-sp-lv and sp-lv, stopping at the first perfect sequence
    /// (see [`portfolio::portfolio`]; run by the engine, which knows the path program).
    Portfolio,
}

impl Source {
    /// Every source, in the order of their names in [`Source::name`].
    pub const ALL: [Source; 12] = [
        Source::NewtonItSpLv,
        Source::Craig,
        Source::CraigSmtLib,
        Source::NewtonSp,
        Source::NewtonItSp,
        Source::NewtonSpLv,
        Source::NewtonWp,
        Source::NewtonItWp,
        Source::NewtonWpLv,
        Source::NewtonItWpLv,
        Source::Intervals,
        Source::Portfolio,
    ];

    /// The name used on the command line (`it-sp-lv`, `craig`, `craig-smtlib`, `sp`, `it-sp`,
    /// `sp-lv`, `wp`, `it-wp`, `wp-lv`, `it-wp-lv`, `intervals`, `portfolio`).
    pub fn name(self) -> &'static str {
        match self {
            Source::NewtonItSpLv => "it-sp-lv",
            Source::NewtonItSp => "it-sp",
            Source::NewtonSpLv => "sp-lv",
            Source::NewtonSp => "sp",
            Source::NewtonWp => "wp",
            Source::NewtonItWp => "it-wp",
            Source::NewtonWpLv => "wp-lv",
            Source::NewtonItWpLv => "it-wp-lv",
            Source::Craig => "craig",
            Source::CraigSmtLib => "craig-smtlib",
            Source::Intervals => "intervals",
            Source::Portfolio => "portfolio",
        }
    }

    /// The source itself (the registry of [`source::AssertionSource`]s).
    pub fn get(self) -> &'static dyn source::AssertionSource {
        use source::{Craig, CraigSmtLib, Intervals, Newton, Portfolio};
        const fn newton(s: Source, transformer: Transformer, it: bool, lv: bool) -> Newton {
            Newton(s, NewtonOptions { transformer, it, lv })
        }
        match self {
            Source::NewtonItSpLv => &const { newton(Source::NewtonItSpLv, Transformer::Sp, true, true) },
            Source::NewtonItSp => &const { newton(Source::NewtonItSp, Transformer::Sp, true, false) },
            Source::NewtonSpLv => &const { newton(Source::NewtonSpLv, Transformer::Sp, false, true) },
            Source::NewtonSp => &const { newton(Source::NewtonSp, Transformer::Sp, false, false) },
            Source::NewtonItWpLv => &const { newton(Source::NewtonItWpLv, Transformer::Wp, true, true) },
            Source::NewtonItWp => &const { newton(Source::NewtonItWp, Transformer::Wp, true, false) },
            Source::NewtonWpLv => &const { newton(Source::NewtonWpLv, Transformer::Wp, false, true) },
            Source::NewtonWp => &const { newton(Source::NewtonWp, Transformer::Wp, false, false) },
            Source::Craig => &Craig,
            Source::CraigSmtLib => &CraigSmtLib,
            Source::Intervals => &Intervals,
            Source::Portfolio => &Portfolio,
        }
    }

    /// The Newton variant this source runs, if it is one.
    pub fn newton_options(self) -> Option<NewtonOptions> {
        let (transformer, it, lv) = match self {
            Source::NewtonItSpLv => (Transformer::Sp, true, true),
            Source::NewtonItSp => (Transformer::Sp, true, false),
            Source::NewtonSpLv => (Transformer::Sp, false, true),
            Source::NewtonSp => (Transformer::Sp, false, false),
            Source::NewtonItWpLv => (Transformer::Wp, true, true),
            Source::NewtonItWp => (Transformer::Wp, true, false),
            Source::NewtonWpLv => (Transformer::Wp, false, true),
            Source::NewtonWp => (Transformer::Wp, false, false),
            Source::Craig | Source::CraigSmtLib | Source::Intervals | Source::Portfolio => return None,
        };
        Some(NewtonOptions { transformer, it, lv })
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A source name that is not one of [`Source::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown assertion source `{0}` (expected it-sp-lv, craig, craig-smtlib, sp, it-sp, sp-lv, wp, it-wp, wp-lv, it-wp-lv, intervals or portfolio)")]
pub struct UnknownSource(pub String);

impl FromStr for Source {
    type Err = UnknownSource;
    fn from_str(s: &str) -> Result<Source, UnknownSource> {
        Source::ALL.into_iter().find(|src| src.name() == s).ok_or_else(|| UnknownSource(s.to_string()))
    }
}

/// An inductive sequence of assertions for a trace, and how it was obtained.
#[derive(Clone, Debug)]
pub struct Sequence {
    /// `I_0 = true, .., I_n = false` over canonical program variables.
    pub preds: Vec<Term>,
    /// The source that produced it (differs from the request after a fallback).
    pub source_used: Source,
    /// How many assertions contain a quantifier.
    pub quantified: usize,
    /// Why the requested source was not used (after a fallback).
    pub fallback: Option<String>,
}

/// Computes an inductive assertion sequence for the infeasible `trace` with unsat core `core`
/// (step indices from [`check_trace`]; empty means the whole trace), falling back to `it-sp-lv`
/// where the source does not apply ([`source::with_fallback`]): `Craig` where Farkas
/// interpolation does not, `Portfolio` and `Intervals`, which need the path program, and
/// `CraigSmtLib`, which needs an interpolating solver (see [`assertion_sequence_with`]).
pub fn assertion_sequence(
    source: Source,
    trace: &[TransFormula],
    core: &BTreeSet<usize>,
    solver: &mut dyn Solver,
) -> Result<Sequence, RefineError> {
    assertion_sequence_with(source, trace, core, solver, None, None)
}

/// [`assertion_sequence`] with the interpolating solver `CraigSmtLib` asks (its sequences are
/// checked with `solver` ([`check_inductive`]); one that is not inductive, or not known to be,
/// is never used: the source falls back to `it-sp-lv` and says why) and the trace's path
/// program that `Intervals` needs. The first sequence of the source.
pub fn assertion_sequence_with(
    source: Source,
    trace: &[TransFormula],
    core: &BTreeSet<usize>,
    solver: &mut dyn Solver,
    interpolator: Option<&mut smt::SmtLibSolver>,
    path: Option<&portfolio::PathProgram>,
) -> Result<Sequence, RefineError> {
    let mut solvers = source::Solvers { solver, interpolator, hoare: None };
    let found = source::with_fallback(source, &source::Infeasible { trace, core }, path, None, &mut solvers)?;
    let seq = found.sequences.into_iter().next().ok_or_else(|| RefineError::NotApplicable(format!("{source} gave no sequence")))?;
    debug_assert!(
        check_inductive(&seq.preds, trace, solvers.solver) != Some(false),
        "{} produced a non-inductive sequence {:?}",
        seq.source_used,
        seq.preds
    );
    Ok(seq)
}

/// How many of the assertions contain a quantifier.
pub fn count_quantified(preds: &[Term]) -> usize {
    preds.iter().filter(|p| p.has_quantifier()).count()
}

/// Whether `preds` is an inductive sequence for `trace`: `I_0 ≡ true`, `{I_i} st_i {I_{i+1}}`
/// for every step, `I_n ≡ false`. `false` also when the solver cannot decide.
pub fn is_inductive(preds: &[Term], trace: &[TransFormula], solver: &mut dyn Solver) -> bool {
    check_inductive(preds, trace, solver) == Some(true)
}

/// Like [`is_inductive`], with `None` when some query is undecided.
pub fn check_inductive(preds: &[Term], trace: &[TransFormula], solver: &mut dyn Solver) -> Option<bool> {
    if preds.len() != trace.len() + 1 {
        return Some(false);
    }
    let mut unknown = false;
    let first = &preds[0];
    if !first.is_true() {
        match is_sat(&not(first), solver) {
            Some(true) => return Some(false),
            Some(false) => {}
            None => unknown = true,
        }
    }
    if let Some(last) = preds.last() {
        if !last.is_false() {
            match is_sat(last, solver) {
                Some(true) => return Some(false),
                Some(false) => {}
                None => unknown = true,
            }
        }
    }
    for (i, tf) in trace.iter().enumerate() {
        match hoare::check_triple(&preds[i], tf, &preds[i + 1], solver) {
            Validity::Valid => {}
            Validity::Invalid => return Some(false),
            Validity::Unknown => unknown = true,
        }
    }
    if unknown {
        None
    } else {
        Some(true)
    }
}

fn is_sat(t: &Term, solver: &mut dyn Solver) -> Option<bool> {
    solver.push();
    solver.assert(t);
    let r = solver.check();
    solver.pop();
    match r {
        SatResult::Sat => Some(true),
        SatResult::Unsat => Some(false),
        SatResult::Unknown(_) => None,
    }
}
