//! Assertion sources as values behind one trait. Each source says what it is called, what it
//! needs, and gives sequences for flat traces (with their path program) and, where it can, for
//! nested traces; the portfolio is a list of sources; [`Source`] names them for the command line
//! and [`Source::get`] is the registry.
//!
//! A source that does not apply to a trace says so ([`RefineError::NotApplicable`]);
//! [`with_fallback`] then uses `it-sp-lv`, which always applies, and records why.

use crate::craig_smtlib::smtlib_sequence;
use crate::farkas::{farkas_nested_sequence, farkas_sequence};
use crate::hoare::HoareChecker;
use crate::intervals::interval_sequence;
use crate::nested::{newton_nested, weaken_nested, Nesting};
use crate::newton::{newton, NewtonOptions, Transformer};
use crate::portfolio::{is_perfect, portfolio, PathProgram};
use crate::{check_inductive, count_quantified, RefineError, Sequence, Source};
use ir::TransFormula;
use smt::{SmtLibSolver, Solver, Term};
use std::collections::BTreeSet;

/// An infeasible trace and its unsat core (step indices; empty means the whole trace).
pub struct Infeasible<'a> {
    pub trace: &'a [TransFormula],
    pub core: &'a BTreeSet<usize>,
}

/// The solvers a source may use: the trace solver, the interpolating process (for sources that
/// need one), and the run's Hoare-triple checker (perfectness is decided with its cache).
pub struct Solvers<'a> {
    pub solver: &'a mut dyn Solver,
    pub interpolator: Option<&'a mut SmtLibSolver>,
    pub hoare: Option<&'a mut HoareChecker>,
}

/// The sequences a source gave for a trace, and how many it computed and found perfect.
#[derive(Default)]
pub struct Found {
    pub sequences: Vec<Sequence>,
    pub computed: usize,
    pub perfect: usize,
}

/// A source of inductive assertion sequences for infeasible traces.
pub trait AssertionSource: Sync {
    /// Its name on the command line.
    fn name(&self) -> &'static str;
    /// Whether it needs an interpolating SMT-LIB process ([`Solvers::interpolator`]).
    fn needs_interpolator(&self) -> bool {
        false
    }
    /// Whether it gives sequences for nested traces (otherwise they fall back).
    fn nested_support(&self) -> bool;
    /// Sequences for a flat trace; `path` is its path program where the engine knows it.
    fn flat(&self, t: &Infeasible, path: Option<&PathProgram>, s: &mut Solvers) -> Result<Found, RefineError>;
    /// Sequences for a nested trace (tree interpolants or nested Newton sequences).
    fn nested(&self, _: &Infeasible, _: &Nesting, _: &mut Solvers) -> Result<Found, RefineError> {
        Err(RefineError::NotApplicable("not for nested traces".into()))
    }
}

/// One sequence from `source`, counted as computed, and as perfect when it is inductive for
/// the path program.
fn one(source: Source, preds: Vec<Term>, t: &Infeasible, path: Option<&PathProgram>, s: &mut Solvers) -> Found {
    let perfect = match (path, s.hoare.as_deref_mut()) {
        (Some(path), Some(hoare)) => is_perfect(&preds, t.trace, path, hoare),
        _ => false,
    };
    let seq = Sequence { quantified: count_quantified(&preds), preds, source_used: source, fallback: None };
    Found { sequences: vec![seq], computed: 1, perfect: perfect as usize }
}

/// Adds a sequence unless an equal one is there.
fn push_new(found: &mut Found, preds: Vec<Term>, source_used: Source) {
    found.computed += 1;
    if !found.sequences.iter().any(|q| q.preds == preds) {
        found.sequences.push(Sequence { quantified: count_quantified(&preds), preds, source_used, fallback: None });
    }
}

/// A Newton variant: unsat core or not, strongest post or weakest pre, live variables or not.
pub struct Newton(pub Source, pub NewtonOptions);

impl AssertionSource for Newton {
    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn nested_support(&self) -> bool {
        true
    }

    fn flat(&self, t: &Infeasible, path: Option<&PathProgram>, s: &mut Solvers) -> Result<Found, RefineError> {
        let preds = newton(t.trace, t.core, self.1, s.solver)?.preds;
        Ok(one(self.0, preds, t, path, s))
    }

    /// With the unsat core and strongest post, also the sequence without the conjuncts this
    /// trace does not need (what makes a recursion's summary general).
    fn nested(&self, t: &Infeasible, nesting: &Nesting, s: &mut Solvers) -> Result<Found, RefineError> {
        let preds = newton_nested(t.trace, nesting, t.core, self.1, s.solver)?.preds;
        let mut found = Found::default();
        if self.1.transformer == Transformer::Sp && self.1.it {
            push_new(&mut found, weaken_nested(&preds, t.trace, nesting, s.solver, 200), self.0);
        }
        push_new(&mut found, preds, self.0);
        found.computed = found.sequences.len();
        Ok(found)
    }
}

/// Craig interpolants by Farkas' lemma (sequence interpolants; tree interpolants for nested
/// traces).
pub struct Craig;

impl AssertionSource for Craig {
    fn name(&self) -> &'static str {
        Source::Craig.name()
    }

    fn nested_support(&self) -> bool {
        true
    }

    fn flat(&self, t: &Infeasible, path: Option<&PathProgram>, s: &mut Solvers) -> Result<Found, RefineError> {
        let preds = farkas_sequence(t.trace, t.core, s.solver)?;
        Ok(one(Source::Craig, preds, t, path, s))
    }

    fn nested(&self, t: &Infeasible, nesting: &Nesting, s: &mut Solvers) -> Result<Found, RefineError> {
        let preds = farkas_nested_sequence(t.trace, nesting, t.core, s.solver)?;
        Ok(one(Source::Craig, preds, t, None, s))
    }
}

/// Craig interpolants from an external SMT-LIB solver by repeated binary interpolation, used
/// only once the trace solver has shown them inductive.
pub struct CraigSmtLib;

impl AssertionSource for CraigSmtLib {
    fn name(&self) -> &'static str {
        Source::CraigSmtLib.name()
    }

    fn needs_interpolator(&self) -> bool {
        true
    }

    fn nested_support(&self) -> bool {
        false
    }

    fn flat(&self, t: &Infeasible, path: Option<&PathProgram>, s: &mut Solvers) -> Result<Found, RefineError> {
        let Some(itp) = s.interpolator.as_deref_mut() else {
            return Err(RefineError::NotApplicable("no interpolating solver".into()));
        };
        let preds = smtlib_sequence(t.trace, t.core, itp)?;
        let command = itp.command();
        match check_inductive(&preds, t.trace, s.solver) {
            Some(true) => Ok(one(Source::CraigSmtLib, preds, t, path, s)),
            Some(false) => Err(RefineError::NotApplicable(format!("{command} gave a non-inductive sequence"))),
            None => Err(RefineError::NotApplicable("the inductivity of the interpolants is undecided".into())),
        }
    }
}

/// Interval invariants of the trace's path program, where it has a loop.
pub struct Intervals;

impl AssertionSource for Intervals {
    fn name(&self) -> &'static str {
        Source::Intervals.name()
    }

    fn nested_support(&self) -> bool {
        false
    }

    fn flat(&self, t: &Infeasible, path: Option<&PathProgram>, s: &mut Solvers) -> Result<Found, RefineError> {
        let Some(path) = path else { return Err(RefineError::NotApplicable("intervals need the trace's path program".into())) };
        let preds = interval_sequence(t.trace, path)?;
        Ok(one(Source::Intervals, preds, t, Some(path), s))
    }
}

/// The portfolio: on flat traces the sources of [`crate::portfolio::ORDER`] until a perfect
/// sequence; on nested traces every sequence of [`Portfolio::NESTED`].
pub struct Portfolio;

impl Portfolio {
    /// The sources run on a nested trace: Craig's tree interpolants, it-sp-lv (and its
    /// weakening), sp-lv and it-wp, every sequence kept.
    pub const NESTED: [Source; 4] = [Source::Craig, Source::NewtonItSpLv, Source::NewtonSpLv, Source::NewtonItWp];
}

impl AssertionSource for Portfolio {
    fn name(&self) -> &'static str {
        Source::Portfolio.name()
    }

    fn nested_support(&self) -> bool {
        true
    }

    fn flat(&self, t: &Infeasible, path: Option<&PathProgram>, s: &mut Solvers) -> Result<Found, RefineError> {
        let (Some(path), Some(hoare)) = (path, s.hoare.as_deref_mut()) else {
            return Err(RefineError::NotApplicable("the portfolio needs the trace's path program".into()));
        };
        let r = portfolio(t.trace, path, t.core, s.solver, hoare)?;
        Ok(Found { sequences: r.sequences, computed: r.computed, perfect: r.perfect })
    }

    fn nested(&self, t: &Infeasible, nesting: &Nesting, s: &mut Solvers) -> Result<Found, RefineError> {
        let mut all = Found::default();
        let mut error = None;
        for source in Portfolio::NESTED {
            match source.get().nested(t, nesting, s) {
                Ok(found) => {
                    for seq in found.sequences {
                        push_new(&mut all, seq.preds, seq.source_used);
                    }
                }
                Err(e) => {
                    tracing::debug!("{source}: {e}");
                    error = Some(e);
                }
            }
        }
        all.computed = all.sequences.len();
        match (all.sequences.is_empty(), error) {
            (true, Some(e)) => Err(e),
            _ => Ok(all),
        }
    }
}

/// The source that always applies: `it-sp-lv`.
const FALLBACK: Source = Source::NewtonItSpLv;

/// The sequences of `source` for a flat trace (`nesting: None`) or a nested one; where the
/// source does not apply (on a nested trace: where it fails), those of `it-sp-lv`, with the
/// reason in [`Sequence::fallback`].
pub fn with_fallback(
    source: Source,
    t: &Infeasible,
    path: Option<&PathProgram>,
    nesting: Option<&Nesting>,
    s: &mut Solvers,
) -> Result<Found, RefineError> {
    let attempt = match nesting {
        None => source.get().flat(t, path, s),
        Some(n) => source.get().nested(t, n, s),
    };
    let why = match attempt {
        Ok(found) if nesting.is_none() || !found.sequences.is_empty() => return Ok(found),
        Ok(_) => "no sequence".to_string(),
        Err(RefineError::NotApplicable(why)) => why,
        Err(e) if nesting.is_some() && source != FALLBACK => e.to_string(),
        Err(e) => return Err(e),
    };
    tracing::debug!("{source} not applicable ({why}); falling back to {FALLBACK}");
    let mut found = match nesting {
        None => FALLBACK.get().flat(t, path, s)?,
        Some(n) => FALLBACK.get().nested(t, n, s)?,
    };
    let why = format!("{source}: {why}");
    found.sequences.iter_mut().for_each(|seq| seq.fallback = Some(why.clone()));
    Ok(found)
}
