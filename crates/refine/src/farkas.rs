//! Craig sequence interpolants for linear arithmetic by Farkas' lemma.
//!
//! Every step in the unsat core must be a conjunction of linear (in)equalities over Int or Real.
//! Each becomes rows `a·x ≤ b` or `a·x < b` over SSA versions. A solver finds multipliers
//! `λ ≥ 0` with `Σ λ_j a_j = 0` and `Σ λ_j b_j < 0` (or `= 0` with some `λ_j > 0` on a strict
//! row); the interpolant at position `i` is the sum of the rows of the steps before `i`, renamed
//! back to canonical variables. Over integers the rational relaxation may be satisfiable: then
//! there are no multipliers and the source is not applicable.
//!
//! On a nested trace the same certificate gives *tree* interpolants: the assertion at a
//! position sums the rows of the steps of its own invocation so far ([`summands`]), so an
//! assertion inside a callee speaks only of the callee's frame and the globals (a summary that
//! holds at every call site), and a return's assertion follows from the callee's exit, the call
//! site's assertion and the steps in between.

use crate::error::RefineError;
use crate::nested::{Nesting, StepKind};
use crate::ssa::{ssa_scoped, Ssa};
use ir::TransFormula;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use smt::build::{add, and, eq, ff, ge, le, lt, mul, num, or, real, tt};
use smt::{Kind, Op, SatResult, Solver, Sort, Term};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// One linear row `Σ coeffs·x ≤ bound` (or `<` if strict), from step `step`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Coefficients of SSA variables (no zero entries).
    pub coeffs: BTreeMap<Term, BigRational>,
    /// The right-hand side.
    pub bound: BigRational,
    /// Whether the row is a strict inequality.
    pub strict: bool,
    /// The step the row comes from.
    pub step: usize,
}

fn na(msg: impl Into<String>) -> RefineError {
    RefineError::NotApplicable(msg.into())
}

type Lin = (BTreeMap<Term, BigRational>, BigRational);

/// The linear form `Σ c·x + k` of an arithmetic term, or `None` if it is not linear.
pub fn linear_form(t: &Term) -> Option<Lin> {
    let e = smt::linear::linearize(t)?;
    let coeffs = e.coeffs.into_iter().filter(|(_, c)| !c.is_zero()).collect::<BTreeMap<_, _>>();
    if coeffs.keys().any(|v| !v.is_var() || !v.sort.is_arith()) {
        return None;
    }
    Some((coeffs, e.constant))
}

fn sub_lin(a: &Lin, b: &Lin) -> Lin {
    let mut coeffs = a.0.clone();
    for (v, c) in &b.0 {
        let e = coeffs.entry(v.clone()).or_insert_with(BigRational::zero);
        *e -= c;
    }
    coeffs.retain(|_, c| !c.is_zero());
    (coeffs, &a.1 - &b.1)
}

fn neg_lin(a: &Lin) -> Lin {
    (a.0.iter().map(|(v, c)| (v.clone(), -c)).collect(), -&a.1)
}

/// Pushes the row `l ≤ 0` (or `l < 0`).
fn push_row(rows: &mut Vec<Row>, l: Lin, strict: bool, step: usize) {
    rows.push(Row { coeffs: l.0, bound: -l.1, strict, step });
}

fn diff(a: &Term, b: &Term) -> Result<Lin, RefineError> {
    if !a.sort.is_arith() || !b.sort.is_arith() {
        return Err(na(format!("non-arithmetic atom over {a} and {b}")));
    }
    let la = linear_form(a).ok_or_else(|| na(format!("non-linear term {a}")))?;
    let lb = linear_form(b).ok_or_else(|| na(format!("non-linear term {b}")))?;
    Ok(sub_lin(&la, &lb))
}

/// The rows of one step formula (a conjunction of linear atoms), or why it has none.
pub fn rows_of(f: &Term, step: usize, rows: &mut Vec<Row>) -> Result<(), RefineError> {
    match &f.kind {
        Kind::Bool(true) => return Ok(()),
        Kind::Bool(false) => {
            rows.push(Row { coeffs: BTreeMap::new(), bound: -BigRational::one(), strict: false, step });
            return Ok(());
        }
        _ => {}
    }
    match f.op() {
        Some(Op::And) => {
            for a in &f.args {
                rows_of(a, step, rows)?;
            }
            Ok(())
        }
        Some(Op::Le) if f.args.len() == 2 => {
            push_row(rows, diff(&f.args[0], &f.args[1])?, false, step);
            Ok(())
        }
        Some(Op::Lt) if f.args.len() == 2 => {
            push_row(rows, diff(&f.args[0], &f.args[1])?, true, step);
            Ok(())
        }
        Some(Op::Eq) if f.args.len() == 2 && f.args[0].sort.is_arith() => {
            let d = diff(&f.args[0], &f.args[1])?;
            push_row(rows, neg_lin(&d), false, step);
            push_row(rows, d, false, step);
            Ok(())
        }
        Some(Op::Not) if f.args.len() == 1 => {
            let g = &f.args[0];
            match g.op() {
                // ¬(a ≤ b) ⇔ b < a
                Some(Op::Le) if g.args.len() == 2 => {
                    push_row(rows, diff(&g.args[1], &g.args[0])?, true, step);
                    Ok(())
                }
                // ¬(a < b) ⇔ b ≤ a
                Some(Op::Lt) if g.args.len() == 2 => {
                    push_row(rows, diff(&g.args[1], &g.args[0])?, false, step);
                    Ok(())
                }
                // ¬(a ∨ b) ⇔ ¬a ∧ ¬b
                Some(Op::Or) => {
                    for a in &g.args {
                        rows_of(&smt::build::not(a), step, rows)?;
                    }
                    Ok(())
                }
                _ => Err(na(format!("not a linear atom: {f}"))),
            }
        }
        _ => Err(na(format!("not a linear atom: {f}"))),
    }
}

fn lit(r: &BigRational) -> Term {
    real(r.clone())
}

fn weighted_sum(terms: &[(BigRational, Term)]) -> Term {
    if terms.is_empty() {
        return lit(&BigRational::zero());
    }
    let parts: Vec<Term> = terms.iter().map(|(c, l)| mul(&[lit(c), l.clone()])).collect();
    add(&parts)
}

/// Finds Farkas multipliers for `rows` with a solver; `Ok(None)` if there are none.
pub fn farkas_multipliers(rows: &[Row], solver: &mut dyn Solver) -> Result<Option<Vec<BigRational>>, RefineError> {
    let lambdas: Vec<Term> = (0..rows.len()).map(|j| Term::var(&format!("farkas@l{j}"), Sort::Real)).collect();
    let zero = lit(&BigRational::zero());
    let one = lit(&BigRational::one());
    let mut cons: Vec<Term> = lambdas.iter().map(|l| ge(l, &zero)).collect();
    let mut by_var: BTreeMap<Term, Vec<(BigRational, Term)>> = BTreeMap::new();
    for (row, l) in rows.iter().zip(&lambdas) {
        for (v, c) in &row.coeffs {
            by_var.entry(v.clone()).or_default().push((c.clone(), l.clone()));
        }
    }
    for terms in by_var.values() {
        cons.push(eq(&weighted_sum(terms), &zero));
    }
    let bsum = weighted_sum(
        &rows.iter().zip(&lambdas).filter(|(r, _)| !r.bound.is_zero()).map(|(r, l)| (r.bound.clone(), l.clone())).collect::<Vec<_>>(),
    );
    let strict: Vec<Term> = rows.iter().zip(&lambdas).filter(|(r, _)| r.strict).map(|(_, l)| l.clone()).collect();
    let neg_one = lit(&-BigRational::one());
    let mut goal = vec![le(&bsum, &neg_one)];
    if !strict.is_empty() {
        goal.push(and(&[eq(&bsum, &zero), ge(&add(&strict), &one)]));
    }
    cons.push(or(&goal));
    solver.push();
    for c in &cons {
        solver.assert(c);
    }
    let res = solver.check();
    let out = match res {
        SatResult::Unsat => Ok(None),
        SatResult::Unknown(why) => Err(RefineError::Unknown(format!("Farkas LP: {why}"))),
        SatResult::Sat => match solver.model(&lambdas) {
            Err(e) => Err(RefineError::Solver(format!("Farkas LP model: {e}"))),
            Ok(m) => {
                let mut vals = Vec::with_capacity(lambdas.len());
                for l in &lambdas {
                    // A multiplier the model leaves out is unconstrained: take 0.
                    let v = match m.get(l) {
                        None => Some(BigRational::zero()),
                        Some(t) => smt::linear::literal_value(t),
                    };
                    match v {
                        Some(v) => vals.push(v),
                        None => {
                            solver.pop();
                            return Err(RefineError::Solver(format!("Farkas LP: non-numeric value for {l}")));
                        }
                    }
                }
                Ok(Some(vals))
            }
        },
    };
    solver.pop();
    out
}

/// Whether `lambda` is a Farkas certificate for `rows` (checked exactly, in rationals).
pub fn is_certificate(rows: &[Row], lambda: &[BigRational]) -> bool {
    if rows.len() != lambda.len() || lambda.iter().any(|l| l.is_negative()) {
        return false;
    }
    let mut sum = RowSum::default();
    for (r, l) in rows.iter().zip(lambda).filter(|(_, l)| !l.is_zero()) {
        sum.add_row(r, l);
    }
    sum.coeffs.values().all(|c| c.is_zero()) && (sum.bound.is_negative() || (sum.bound.is_zero() && sum.strict > 0))
}

fn lcm(a: &BigInt, b: &BigInt) -> BigInt {
    num_integer::Integer::lcm(a, b)
}

fn gcd(a: &BigInt, b: &BigInt) -> BigInt {
    num_integer::Integer::gcd(a, b)
}

/// Builds `Σ coeffs·x ≤ bound` (or `<`) over canonical variables, scaled to integral, coprime
/// coefficients and written `P ≤ N + b` with positive coefficients on both sides. Over the
/// integers a strict atom becomes `≤` and the bound is rounded (equivalent over ℤ).
fn build_atom(coeffs: &BTreeMap<Term, BigRational>, bound: &BigRational, strict: bool) -> Term {
    if coeffs.is_empty() {
        let holds = if strict { BigRational::zero() < *bound } else { BigRational::zero() <= *bound };
        return if holds { tt() } else { ff() };
    }
    let sort = if coeffs.keys().all(|v| v.sort == Sort::Int) { Sort::Int } else { Sort::Real };
    let den = coeffs.values().fold(BigInt::one(), |acc, c| lcm(&acc, c.denom()));
    let ints: Vec<(Term, BigInt)> =
        coeffs.iter().map(|(v, c)| (v.clone(), (c * BigRational::from_integer(den.clone())).to_integer())).collect();
    let g = ints.iter().fold(BigInt::zero(), |acc, (_, c)| gcd(&acc, c));
    let g = if g.is_zero() { BigInt::one() } else { g };
    let ints: Vec<(Term, BigInt)> = ints.into_iter().map(|(v, c)| (v, c / &g)).collect();
    let mut b = bound * BigRational::from_integer(den) / BigRational::from_integer(g);
    let mut strict = strict;
    if sort == Sort::Int {
        // Σ a x ≤ b ⇔ Σ a x ≤ ⌊b⌋ and Σ a x < b ⇔ Σ a x ≤ ⌈b⌉ - 1 over the integers.
        b = if strict { b.ceil() - BigRational::one() } else { b.floor() };
        strict = false;
    }
    let (pos, negs): (Vec<_>, Vec<_>) = ints.into_iter().partition(|(_, c)| c.is_positive());
    let side = |v: Vec<(Term, BigInt)>| -> Vec<Term> {
        v.into_iter()
            .map(|(x, c)| {
                let c = c.abs();
                if c.is_one() {
                    x
                } else {
                    mul(&[num(BigRational::from_integer(c), &x.sort), x])
                }
            })
            .collect()
    };
    let (lhs, rhs) = match (pos.is_empty(), negs.is_empty()) {
        // -N ≤ b  as  -b ≤ N
        (true, _) => (num(-b, &sort), add(&side(negs))),
        (false, true) => (add(&side(pos)), num(b, &sort)),
        (false, false) => {
            let mut r = side(negs);
            if !b.is_zero() {
                r.push(num(b, &sort));
            }
            (add(&side(pos)), add(&r))
        }
    };
    if strict {
        lt(&lhs, &rhs)
    } else {
        le(&lhs, &rhs)
    }
}

/// Which of the interpolants one Farkas certificate gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// The sum of the certificate's rows up to the position (McMillan's interpolant).
    Strongest,
    /// The negated sum of the rows after the position: same atom, the loosest bound (often
    /// the loop bound a trace leaves the loop at, where the strongest one counts iterations).
    Weakest,
}

/// One summand of the interpolant at a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Summand {
    /// The sum at an earlier position.
    Sum(usize),
    /// The rows of a step.
    Step(usize),
}

/// For each position `0..=n`, the summands of its interpolant. For a flat trace the sum at the
/// position before and the step in between (a prefix sum). For a nested trace the steps of the
/// invocation the position is in, back to its call (excluded): after a return, the sum at its
/// call's position, the call, the callee's sum at its exit and the return; at a callee's entry
/// nothing; a call still pending at the end of the trace counts like an ordinary step (its
/// callee's assertions may then keep facts of the caller, who never comes back).
pub fn summands(n: usize, nesting: Option<&Nesting>) -> Vec<Vec<Summand>> {
    let returned: BTreeSet<usize> = nesting.map(|ns| (0..n).filter_map(|j| ns.matching_call(j)).collect()).unwrap_or_default();
    let mut out = vec![vec![]];
    for step in 0..n {
        out.push(match nesting.map(|ns| &ns.kinds[step]) {
            Some(StepKind::Return { call, .. }) => {
                vec![Summand::Sum(*call), Summand::Step(*call), Summand::Sum(step), Summand::Step(step)]
            }
            Some(StepKind::Call) if returned.contains(&step) => vec![],
            _ => vec![Summand::Sum(step), Summand::Step(step)],
        });
    }
    out
}

/// For each position, whether its interpolant sums the rows of `step`.
pub fn sums_step(summands: &[Vec<Summand>], step: usize) -> Vec<bool> {
    let mut out: Vec<bool> = Vec::with_capacity(summands.len());
    for parts in summands {
        let summed = parts.iter().any(|p| match *p {
            Summand::Sum(k) => out[k],
            Summand::Step(j) => j == step,
        });
        out.push(summed);
    }
    out
}

/// A linear combination of rows: coefficients, bound, and how many strict rows it has.
#[derive(Clone, Default)]
struct RowSum {
    coeffs: BTreeMap<Term, BigRational>,
    bound: BigRational,
    strict: usize,
}

impl RowSum {
    fn add(&mut self, other: &RowSum) {
        for (v, c) in &other.coeffs {
            *self.coeffs.entry(v.clone()).or_insert_with(BigRational::zero) += c;
        }
        self.bound += &other.bound;
        self.strict += other.strict;
    }

    fn add_row(&mut self, r: &Row, l: &BigRational) {
        for (v, c) in &r.coeffs {
            *self.coeffs.entry(v.clone()).or_insert_with(BigRational::zero) += c * l;
        }
        self.bound += &r.bound * l;
        self.strict += usize::from(r.strict);
    }
}

/// The sequence interpolants `I_0 = true, .., I_n = false` from Farkas multipliers, `I_k` the
/// sum of `summands[k]`; both strengths are inductive on a flat trace (the weakest by the dual
/// argument on the suffixes), the strongest also on a nested one.
fn interpolants(
    s: &Ssa,
    rows: &[Row],
    lambda: &[BigRational],
    summands: &[Vec<Summand>],
    strength: Strength,
) -> Result<Vec<Term>, RefineError> {
    let n = summands.len() - 1;
    let mut of_step = vec![RowSum::default(); n];
    let mut total = RowSum::default();
    for (r, l) in rows.iter().zip(lambda).filter(|(r, l)| !l.is_zero() && r.step < n) {
        of_step[r.step].add_row(r, l);
        total.add_row(r, l);
    }
    let mut sums: Vec<RowSum> = Vec::with_capacity(n + 1);
    let mut preds = vec![tt()];
    for (k, parts) in summands.iter().enumerate() {
        let mut sum = RowSum::default();
        for p in parts {
            sum.add(match *p {
                Summand::Sum(j) => &sums[j],
                Summand::Step(j) => &of_step[j],
            });
        }
        sum.coeffs.retain(|_, c| !c.is_zero());
        if (1..n).contains(&k) {
            let back: HashMap<Term, Term> = s.back_to_canonical(k);
            let mut canon = BTreeMap::new();
            for (v, c) in &sum.coeffs {
                let x = back.get(v).ok_or_else(|| na(format!("interpolant at position {k} mentions {v}, not current there")))?;
                canon.insert(x.clone(), c.clone());
            }
            preds.push(match strength {
                Strength::Strongest => build_atom(&canon, &sum.bound, sum.strict > 0),
                // not(the rest of the certificate): same coefficients, the bound moved by -total
                Strength::Weakest => build_atom(&canon, &(&sum.bound - &total.bound), sum.strict == total.strict),
            });
        }
        sums.push(sum);
    }
    if n > 0 {
        preds.push(ff());
    }
    Ok(preds)
}

/// How many conjunctive traces `farkas_sequence` may split a trace into (one LP each).
const MAX_CASES: usize = 16;

/// Craig sequence interpolants for an infeasible trace by Farkas' lemma (`core`: the steps
/// to use; empty means all). A core step with a disjunction (a large block's choice) or a
/// disequality `a ≠ b` (the cases `a < b`, `b < a`) is split into one trace per case; their
/// sequences `I¹..Iᵏ` combine into `I¹ ∧ .. ∧ Iᵏ` up to the step and `I¹ ∨ .. ∨ Iᵏ` after it,
/// which is inductive for the original trace (each case's triple holds for its disjunct).
/// `NotApplicable` if a core step is not linear, there are too many cases, or the rational
/// relaxation is satisfiable.
pub fn farkas_sequence(trace: &[TransFormula], core: &BTreeSet<usize>, solver: &mut dyn Solver) -> Result<Vec<Term>, RefineError> {
    farkas_sequence_of(trace, core, solver, Strength::Strongest)
}

/// [`farkas_sequence`] with the interpolants of the given strength.
pub fn farkas_sequence_of(
    trace: &[TransFormula],
    core: &BTreeSet<usize>,
    solver: &mut dyn Solver,
    strength: Strength,
) -> Result<Vec<Term>, RefineError> {
    split_sequence(trace, None, core, solver, MAX_CASES, strength)
}

/// Tree interpolants of an infeasible nested trace (the strongest ones; see the module
/// documentation), with the case splits of [`farkas_sequence`].
pub fn farkas_nested_sequence(
    trace: &[TransFormula],
    nesting: &Nesting,
    core: &BTreeSet<usize>,
    solver: &mut dyn Solver,
) -> Result<Vec<Term>, RefineError> {
    split_sequence(trace, Some(nesting), core, solver, MAX_CASES, Strength::Strongest)
}

/// The cases' sequences combine per position: by `∧` where the position's interpolant does not
/// sum the split step (each case's assertion holds there), by `∨` where it does.
fn split_sequence(
    trace: &[TransFormula],
    nesting: Option<&Nesting>,
    core: &BTreeSet<usize>,
    solver: &mut dyn Solver,
    budget: usize,
    strength: Strength,
) -> Result<Vec<Term>, RefineError> {
    let Some((step, cases)) = split_step(trace, core) else {
        return plain_sequence(trace, nesting, core, solver, strength);
    };
    if cases.len() > budget {
        return Err(na("too many disjunctions and disequalities"));
    }
    let mut seqs = vec![];
    for case in &cases {
        let mut t = trace.to_vec();
        t[step].formula = case.clone();
        seqs.push(split_sequence(&t, nesting, core, solver, budget / cases.len(), strength)?);
    }
    let summed = sums_step(&summands(trace.len(), nesting), step);
    let combined = (0..=trace.len())
        .map(|i| {
            let parts: Vec<Term> = seqs.iter().map(|s| s[i].clone()).collect();
            if summed[i] {
                or(&parts)
            } else {
                and(&parts)
            }
        })
        .collect();
    Ok(combined)
}

/// The first core step with a disjunction (also a negated conjunction) or an arithmetic
/// disequality among its conjuncts, and its formula with that conjunct replaced by each case
/// (each disjunct; the two strict inequalities).
fn split_step(trace: &[TransFormula], core: &BTreeSet<usize>) -> Option<(usize, Vec<Term>)> {
    for (i, tf) in trace.iter().enumerate() {
        if !core.is_empty() && !core.contains(&i) {
            continue;
        }
        let conj = smt::subst::conjuncts(&tf.formula);
        for (k, c) in conj.iter().enumerate() {
            let alternatives = match c.op() {
                Some(Op::Or) => c.args.clone(),
                // ¬(a ∧ b) ⇔ ¬a ∨ ¬b
                Some(Op::Not) if c.args[0].op() == Some(&Op::And) => c.args[0].args.iter().map(smt::build::not).collect(),
                Some(Op::Not) if c.args[0].op() == Some(&Op::Eq) && c.args[0].args.len() == 2 && c.args[0].args[0].sort.is_arith() => {
                    let e = &c.args[0];
                    vec![lt(&e.args[0], &e.args[1]), lt(&e.args[1], &e.args[0])]
                }
                _ => continue,
            };
            let case = |alt: &Term| {
                let mut parts = conj.clone();
                parts[k] = alt.clone();
                and(&parts)
            };
            return Some((i, alternatives.iter().map(case).collect()));
        }
    }
    None
}

/// Farkas interpolation of a trace whose core steps are conjunctions of linear atoms.
fn plain_sequence(
    trace: &[TransFormula],
    nesting: Option<&Nesting>,
    core: &BTreeSet<usize>,
    solver: &mut dyn Solver,
    strength: Strength,
) -> Result<Vec<Term>, RefineError> {
    let n = trace.len();
    if n == 0 {
        return Err(RefineError::NotInfeasible("empty trace".into()));
    }
    let s = ssa_scoped(trace, nesting);
    let mut rows = Vec::new();
    for (i, f) in s.conjuncts.iter().enumerate() {
        if core.is_empty() || core.contains(&i) {
            rows_of(f, i, &mut rows)?;
        }
    }
    let sorts: BTreeSet<&Sort> = rows.iter().flat_map(|r| r.coeffs.keys().map(|v| &v.sort)).collect();
    if sorts.contains(&Sort::Int) && sorts.contains(&Sort::Real) {
        return Err(na("mixed Int and Real variables"));
    }
    if !sorts.contains(&Sort::Real) {
        rows.iter_mut().for_each(tighten_integer_row);
    }
    let lambda = match farkas_multipliers(&rows, solver)? {
        Some(l) => l,
        None => return Err(na("the rational relaxation of the trace is satisfiable")),
    };
    if !is_certificate(&rows, &lambda) {
        return Err(na("solver's multipliers are not a Farkas certificate"));
    }
    interpolants(&s, &rows, &lambda, &summands(n, nesting), strength)
}

/// Over integer variables, scales a row to coprime integral coefficients and rounds its bound
/// (`Σ a x < b` ⇔ `Σ a x ≤ ⌈b⌉ - 1`, `Σ a x ≤ b` ⇔ `Σ a x ≤ ⌊b⌋`): equivalent over ℤ and
/// stronger over ℚ, so more integer-infeasible traces get a rational certificate.
fn tighten_integer_row(r: &mut Row) {
    if r.coeffs.is_empty() {
        return;
    }
    let den = r.coeffs.values().fold(BigInt::one(), |acc, c| lcm(&acc, c.denom()));
    let scaled: Vec<BigInt> = r.coeffs.values().map(|c| (c * BigRational::from_integer(den.clone())).to_integer()).collect();
    let g = scaled.iter().fold(BigInt::zero(), |acc, c| gcd(&acc, c));
    if g.is_zero() {
        return;
    }
    let factor = BigRational::from_integer(den) / BigRational::from_integer(g);
    for c in r.coeffs.values_mut() {
        *c = &*c * &factor;
    }
    let b = &r.bound * &factor;
    r.bound = if r.strict { b.ceil() - BigRational::one() } else { b.floor() };
    r.strict = false;
}

#[cfg(test)]
mod tests {
    use super::*;
    use smt::build::{distinct, int, not};

    fn x() -> Term {
        Term::var("x", Sort::Int)
    }
    fn y() -> Term {
        Term::var("y", Sort::Int)
    }

    #[test]
    fn rows_of_linear_atoms() {
        let mut rows = Vec::new();
        let f = and(&[eq(&x(), &mul(&[int(2), y()])), not(&le(&x(), &int(3)))]);
        rows_of(&f, 4, &mut rows).unwrap();
        assert_eq!(rows.len(), 3);
        // x - 2y ≤ 0 and -(x - 2y) ≤ 0, then 3 - x < 0
        let two = BigRational::from_integer(2.into());
        assert!(rows.iter().all(|r| r.step == 4));
        assert_eq!(rows[1].coeffs[&y()], -rows[0].coeffs[&y()].clone());
        assert_eq!(rows[0].coeffs[&y()].abs(), two);
        assert_eq!(rows[0].coeffs[&x()], -rows[0].coeffs[&y()].clone() / BigRational::from_integer(2.into()));
        assert!(rows[2].strict);
        assert_eq!(rows[2].coeffs[&x()], -BigRational::one());
        assert_eq!(rows[2].bound, BigRational::from_integer((-3).into()));
    }

    #[test]
    fn non_linear_atoms_are_not_applicable() {
        let mut rows = Vec::new();
        for f in [
            distinct(&[x(), y(), int(0)]),
            le(&mul(&[x(), y()]), &int(1)),
            or(&[le(&x(), &int(0)), le(&y(), &int(0))]),
            not(&eq(&x(), &y())),
            smt::build::ite(&le(&x(), &int(0)), &le(&y(), &int(0)), &tt()),
        ] {
            assert!(matches!(rows_of(&f, 0, &mut rows), Err(RefineError::NotApplicable(_))), "{f}");
        }
    }

    #[test]
    fn negated_disjunctions_are_conjunctions_of_rows() {
        let mut rows = Vec::new();
        rows_of(&not(&or(&[lt(&x(), &int(0)), lt(&int(9), &x())])), 0, &mut rows).unwrap();
        // 0 ≤ x and x ≤ 9: -x ≤ 0 and x ≤ 9
        assert_eq!(rows.len(), 2);
        assert!(rows.iter().all(|r| !r.strict && r.coeffs.len() == 1));
        assert_eq!(
            rows.iter().map(|r| r.bound.clone()).collect::<Vec<_>>(),
            vec![BigRational::zero(), BigRational::from_integer(9.into())]
        );
    }

    #[test]
    fn tree_interpolants_sum_the_steps_of_their_invocation() {
        let ret = ir::ReturnLetter { assign: vec![], links: vec![], kept: vec![] };
        let nesting = |kinds: Vec<StepKind>| Nesting { kinds, globals: BTreeSet::new(), locals: BTreeSet::new() };
        let (i, c) = (StepKind::Internal, StepKind::Call);
        // x; call; y; return; z
        let n = nesting(vec![i.clone(), c.clone(), i.clone(), StepKind::Return { call: 1, letter: ret }, i.clone()]);
        let parts = summands(5, Some(&n));
        let by_step: Vec<Vec<bool>> = (0..5).map(|j| sums_step(&parts, j)).collect();
        let steps = |k: usize| (0..5).filter(|&j| by_step[j][k]).collect::<Vec<_>>();
        assert_eq!(steps(1), vec![0]);
        assert_eq!(steps(2), Vec::<usize>::new(), "the callee's entry knows nothing of the caller");
        assert_eq!(steps(3), vec![2]);
        assert_eq!(steps(4), vec![0, 1, 2, 3]);
        assert_eq!(steps(5), vec![0, 1, 2, 3, 4]);
        // A call still pending at the end counts like an ordinary step.
        let pending = summands(3, Some(&nesting(vec![i.clone(), c, i])));
        assert_eq!((0..3).map(|j| sums_step(&pending, j)[3]).collect::<Vec<_>>(), vec![true, true, true]);
        assert_eq!((0..3).map(|j| sums_step(&pending, j)[2]).collect::<Vec<_>>(), vec![true, true, false]);
        // A flat trace: prefix sums.
        assert_eq!(summands(2, None), vec![vec![], vec![Summand::Sum(0), Summand::Step(0)], vec![Summand::Sum(1), Summand::Step(1)]]);
    }

    #[test]
    fn certificates_are_checked_exactly() {
        let mut rows = Vec::new();
        rows_of(&le(&x(), &int(0)), 0, &mut rows).unwrap();
        rows_of(&le(&int(1), &x()), 1, &mut rows).unwrap();
        let one = BigRational::one();
        assert!(is_certificate(&rows, &[one.clone(), one.clone()]));
        assert!(!is_certificate(&rows, &[one.clone(), one.clone() + one.clone()]));
        assert!(!is_certificate(&rows, &[BigRational::zero(), BigRational::zero()]));
    }

    #[test]
    fn integer_atoms_are_rounded() {
        let mut c = BTreeMap::new();
        c.insert(x(), BigRational::from_integer(2.into()));
        // 2x < 3 ⇔ x ≤ 1 over ℤ
        assert_eq!(build_atom(&c, &BigRational::from_integer(3.into()), true), le(&x(), &int(1)));
        c.insert(y(), BigRational::from_integer((-4).into()));
        // 2x - 4y ≤ 5 ⇔ x ≤ 2y + 2
        assert_eq!(build_atom(&c, &BigRational::from_integer(5.into()), false), le(&x(), &add(&[mul(&[int(2), y()]), int(2)])));
    }
}
