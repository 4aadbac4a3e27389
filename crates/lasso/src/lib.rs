//! Lasso analysis for termination: given a lasso `stem loop^ω` as two transition formulas,
//! find a ranking function with supporting invariants (the loop cannot run forever after the
//! stem) or a nontermination argument (it can).
//!
//! Ranking functions come from templates solved by Farkas' lemma over the rationals
//! ([`farkas`], [`templates`]) on a linear DNF of the formulas ([`dnf`]); every candidate is
//! checked on the exact formulas with integer semantics before it is returned
//! ([`validate`]). Nontermination arguments are a fixed point of the loop or a geometric
//! ray ([`nontermination`]), also checked on the exact formulas. Anything that is not checked
//! is not returned: the answer is then `None` (unknown).

mod array_rays;
mod cells;
mod dnf;
mod farkas;
mod nontermination;
mod ranking;
mod relation;
mod solve;
mod templates;
mod validate;

use num_rational::BigRational;
use smt::Term;
use std::collections::BTreeMap;
use std::fmt;
use std::time::{Duration, Instant};

/// A lasso: the stem reaches the loop head, the loop returns to it.
#[derive(Clone, Debug)]
pub struct Lasso {
    pub stem: ir::TransFormula,
    pub looped: ir::TransFormula,
}

/// A ranking template (Leike & Heizmann); see [`RankingFunction::decreases`] for what each
/// means.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Template {
    /// One affine function, bounded below and decreasing (Podelski–Rybalchenko).
    Affine,
    /// `k` nested functions: the first decreases, each next one decreases by the previous.
    Nested(usize),
    /// `k` phases: each function decreases once the previous one is exhausted.
    Multiphase(usize),
    /// `k` bounded functions ordered lexicographically.
    Lexicographic(usize),
}

/// A family of ranking templates (each has its sizes in [`Settings::default`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Affine,
    Nested,
    Multiphase,
    Lexicographic,
}

impl Family {
    pub const ALL: [Family; 4] = [Family::Affine, Family::Nested, Family::Multiphase, Family::Lexicographic];

    /// The family a template belongs to.
    pub fn of(t: &Template) -> Family {
        match t {
            Template::Affine => Family::Affine,
            Template::Nested(_) => Family::Nested,
            Template::Multiphase(_) => Family::Multiphase,
            Template::Lexicographic(_) => Family::Lexicographic,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Family::Affine => "affine",
            Family::Nested => "nested",
            Family::Multiphase => "multiphase",
            Family::Lexicographic => "lexicographic",
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Family {
    type Err = String;

    fn from_str(s: &str) -> Result<Family, String> {
        Family::ALL.into_iter().find(|f| f.name() == s).ok_or_else(|| {
            let names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
            format!("unknown ranking template family `{s}` (one of {})", names.join(", "))
        })
    }
}

impl fmt::Display for Template {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Template::Affine => write!(f, "affine"),
            Template::Nested(k) => write!(f, "nested-{k}"),
            Template::Multiphase(k) => write!(f, "multiphase-{k}"),
            Template::Lexicographic(k) => write!(f, "lexicographic-{k}"),
        }
    }
}

/// A ranking function of a lasso, checked on its exact formulas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankingFunction {
    pub template: Template,
    /// Int-sorted affine terms over canonical program variables and array cells (selects of
    /// them), integer coefficients.
    pub components: Vec<Term>,
    /// Linear inequalities over canonical program variables (and array cells) that hold at the
    /// loop head after the stem and are preserved by the loop.
    pub supporting_invariants: Vec<Term>,
}

impl RankingFunction {
    /// A formula over the canonical variables (current state at a loop-head visit) and `old`
    /// (one Int term per component: the components' values at the previous visit) that every
    /// loop iteration from a state satisfying the supporting invariants establishes, and that
    /// is well-founded (no infinite sequence of states `s₀, s₁, ..` with
    /// `decreases(old = components(sᵢ))` holding in `sᵢ₊₁` for all `i`). With `cᵢ` the
    /// components and `oᵢ` the old values:
    /// - affine / nested-k: `o_k ≥ 0 ∧ c₁ ≤ o₁ - 1 ∧ ⋀ᵢ₌₂..k cᵢ ≤ oᵢ + oᵢ₋₁`;
    /// - multiphase-k: `(⋁ᵢ oᵢ > 0) ∧ c₁ ≤ o₁ - 1 ∧ ⋀ᵢ₌₂..k (oᵢ₋₁ > 0 ∨ cᵢ ≤ oᵢ - 1)`;
    /// - lexicographic-k: `⋀ᵢ oᵢ ≥ 0 ∧ ⋀ᵢ₌₁..k-1 (cᵢ ≤ oᵢ ∨ ⋁ⱼ₌₁..i-1 cⱼ ≤ oⱼ - 1) ∧ ⋁ᵢ cᵢ ≤ oᵢ - 1`.
    ///
    /// `false` if `old` has the wrong length. The well-foundedness arguments are in
    /// `templates::decreases`.
    pub fn decreases(&self, old: &[Term]) -> Term {
        templates::decreases(&self.template, &self.components, old)
    }
}

/// A proof that the lasso has an infinite execution, checked on its exact formulas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NonterminationArgument {
    /// A state at the loop head (reached by the stem) that the loop leads back to itself in
    /// `period` iterations (1 or 2). Values of canonical variables (those the model could
    /// name).
    FixedPoint { state: BTreeMap<Term, Term>, period: usize },
    /// A geometric nontermination argument with directions `y₁..yₙ`, eigenvalues `λᵢ > 0`
    /// and a nilpotent part `μᵢ ≥ 0` (`n - 1` of them): the stem reaches `x0`, one iteration
    /// leads from `x0` to `x1`, and from every state `x1 + Σ kᵢ·yᵢ` with `kᵢ ≥ 0` (integers
    /// when a variable of the argument is an integer; then the `λᵢ` and `μᵢ` are integers
    /// too) one iteration leads to `x1 + Σⱼ (1 + λⱼ·kⱼ + μⱼ·kⱼ₊₁)·yⱼ`, again such a state
    /// (with the loop's auxiliary variables at `aux_point + Σ kᵢ·aux_directions[i]`). From
    /// `x1` (all `kᵢ = 0`) the loop thus runs forever. Checked as: `σ(x0) ∧ τ(x0, x1)` is
    /// satisfiable, and the step from `x1 + Σ kᵢ·yᵢ` holds for every `kᵢ ≥ 0` (one ground
    /// query with the `kᵢ` free). Variables the loop keeps have direction 0.
    Geometric {
        x0: BTreeMap<Term, Term>,
        x1: BTreeMap<Term, Term>,
        directions: Vec<BTreeMap<Term, Term>>,
        eigenvalues: Vec<BigRational>,
        nilpotent: Vec<BigRational>,
        /// The loop's auxiliary instances (as in `Lasso::looped.aux_vars`) in the first
        /// iteration of the ray, and their direction along each `yᵢ`.
        aux_point: BTreeMap<Term, Term>,
        aux_directions: Vec<BTreeMap<Term, Term>>,
    },
}

/// What the analysis may try and for how long.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Templates in the order tried; the first that gives a checked function wins.
    pub templates: Vec<Template>,
    /// Limit of each solver query (ms; 0: none).
    pub timeout_ms: u64,
    /// No query starts after this, and running ones are cut off at it.
    pub deadline: Option<Instant>,
    /// How many supporting invariants a template may use.
    pub supporting_invariants: usize,
    /// The largest DNF of the loop the analysis accepts (the stem's beyond it is read as
    /// `true`, which only weakens what supporting invariants can start from).
    pub max_disjuncts: usize,
    /// Which constraint problems the ranking search solves.
    pub stage: Stage,
}

/// The ranking search's constraint problems by cost: quick linear ones (Farkas' lemma with the
/// supporting invariants' multipliers fixed to 1), linear ones (every multiplier chosen from
/// {0, 1}: an unsatisfiable one takes a search), non-linear ones (free multipliers) that can
/// take the whole time limit. A caller can put other work in between.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Quick,
    Linear,
    Nonlinear,
    All,
}

impl Settings {
    /// The default settings with the templates of `families` only.
    pub fn with_families(families: &[Family]) -> Settings {
        let mut settings = Settings::default();
        settings.templates.retain(|t| families.contains(&Family::of(t)));
        settings
    }
}

impl Default for Settings {
    fn default() -> Settings {
        let mut templates = vec![Template::Affine];
        templates.extend((2..=4).map(Template::Nested));
        templates.extend((2..=4).map(Template::Multiphase));
        templates.extend((2..=3).map(Template::Lexicographic));
        Settings { templates, timeout_ms: 10_000, deadline: None, supporting_invariants: 2, max_disjuncts: 32, stage: Stage::All }
    }
}

/// What an analysis did.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Solver queries and the time they took.
    pub queries: u64,
    pub solver_time: Duration,
    /// Wall-clock time of the analysis.
    pub time: Duration,
    /// Templates tried, in order, and the one that gave the answer.
    pub tried: Vec<Template>,
    pub found: Option<Template>,
    /// Candidates the exact check rejected.
    pub rejected: u64,
    /// Why nothing was found, when there is a reason beyond "no candidate".
    pub note: Option<String>,
}

/// Why the analysis could not run.
#[derive(Debug, thiserror::Error)]
pub enum LassoError {
    #[error("unsupported lasso: {0}")]
    Unsupported(String),
}

/// A ranking function of the lasso, or `None` (unknown).
pub fn ranking_function(lasso: &Lasso, settings: &Settings) -> Result<Option<RankingFunction>, LassoError> {
    ranking_function_with_stats(lasso, settings, &mut Stats::default())
}

/// [`ranking_function`], counting into `stats`.
pub fn ranking_function_with_stats(lasso: &Lasso, settings: &Settings, stats: &mut Stats) -> Result<Option<RankingFunction>, LassoError> {
    let started = Instant::now();
    let r = ranking::search(lasso, settings, stats);
    stats.time += started.elapsed();
    r
}

/// A nontermination argument for the lasso, or `None` (unknown).
pub fn nontermination(lasso: &Lasso, settings: &Settings) -> Result<Option<NonterminationArgument>, LassoError> {
    nontermination_with_stats(lasso, settings, &mut Stats::default())
}

/// A nontermination argument that is a fixed point or a cycle of two states of the loop (two
/// queries: the cheap part of [`nontermination`]), or `None`.
pub fn periodic_nontermination(lasso: &Lasso, settings: &Settings) -> Result<Option<NonterminationArgument>, LassoError> {
    nontermination::periodic(lasso, settings, &mut Stats::default())
}

/// [`nontermination`], counting into `stats`.
pub fn nontermination_with_stats(
    lasso: &Lasso,
    settings: &Settings,
    stats: &mut Stats,
) -> Result<Option<NonterminationArgument>, LassoError> {
    let started = Instant::now();
    let r = nontermination::search(lasso, settings, stats);
    stats.time += started.elapsed();
    r
}
