//! Partial quantifier elimination, as in Dietsch et al., "Craig vs. Newton in software model
//! checking" (ESEC/FSE 2017): two cheap syntactic steps, then Z3's `qe-light` and `qe`.
//!
//! * DER (destructive equality resolution): `∃x. x = t ∧ φ` ≡ `φ[t/x]` if `x` does not occur
//!   in `t`; dually `∀x. x ≠ t ∨ φ` ≡ `φ[t/x]`.
//! * UPD (unconnected parameter drop): `∃v1..vn. φ1 ∧ φ2` ≡ `φ1` if `φ2` is satisfiable and every
//!   symbol of `φ2` is one of `v1..vn` not occurring in `φ1` or an interpreted (theory) symbol.
//!
//! Every step is an equivalence; when elimination fails the result is still quantified.

use crate::build;
use crate::linear::{linearize, to_term, LinExpr};
use crate::sort::Sort;
use crate::subst::{conjuncts, disjuncts, free_vars, substitute, substitute1};
use crate::term::{Kind, Op, Quantifier, Term};
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::{Duration, Instant};

/// Budget of Z3 work of each elimination in [`project_exists`] and [`project_forall`].
pub const DEFAULT_QE_TIMEOUT_MS: u64 = 2_000;

/// Timeout of the satisfiability check UPD makes for each unconnected group.
const UPD_SAT_TIMEOUT_MS: u64 = 500;

/// The negation of `t`, pushed through one level of `∧`, `∨`, `⇒`, `¬` and quantifiers.
fn push_not(t: &Term) -> Term {
    match (&t.kind, t.args.as_slice()) {
        (Kind::App(Op::Not), [a]) => a.clone(),
        (Kind::App(Op::And), _) => build::or(&t.args.iter().map(not_flip).collect::<Vec<_>>()),
        (Kind::App(Op::Or), _) => build::and(&t.args.iter().map(not_flip).collect::<Vec<_>>()),
        (Kind::App(Op::Implies), [a, b]) => build::and(&[a.clone(), not_flip(b)]),
        (Kind::Quant(q, vars), [b]) => build::quant(dual(*q), vars, &push_not(b)),
        _ => build::not(t),
    }
}

/// `¬t`, as the dual quantifier when `t` is quantified.
fn not_flip(t: &Term) -> Term {
    match &t.kind {
        Kind::Quant(..) => push_not(t),
        _ => build::not(t),
    }
}

fn dual(q: Quantifier) -> Quantifier {
    match q {
        Quantifier::Exists => Quantifier::Forall,
        Quantifier::Forall => Quantifier::Exists,
    }
}

/// Runs an ∃-procedure on a ∀-problem through `∀v.φ ≡ ¬∃v.¬φ`.
fn via_exists(q: Quantifier, vars: &[Term], body: &Term, f: impl Fn(&[Term], &Term) -> (Vec<Term>, Term)) -> (Vec<Term>, Term) {
    match q {
        Quantifier::Exists => f(vars, body),
        Quantifier::Forall => {
            let (v, b) = f(vars, &push_not(body));
            (v, push_not(&b))
        }
    }
}

/// The variables bound by quantifiers anywhere inside `t`.
fn bound_vars(t: &Term) -> HashSet<Term> {
    let mut out = HashSet::new();
    let mut seen = HashSet::new();
    let mut stack = vec![t.clone()];
    while let Some(t) = stack.pop() {
        if !seen.insert(t.id()) {
            continue;
        }
        if let Kind::Quant(_, vs) = &t.kind {
            out.extend(vs.iter().cloned());
        }
        stack.extend(t.args.iter().cloned());
    }
    out
}

/// Keeps the variables of `vars` (deduplicated, in order) that occur free in `body`.
fn live_vars(vars: &[Term], body: &Term) -> Vec<Term> {
    let fv = free_vars(body);
    let mut out: Vec<Term> = Vec::new();
    for v in vars {
        if fv.contains(v) && !out.contains(v) {
            out.push(v.clone());
        }
    }
    out
}

/// If the conjunct `c` defines a variable of `vars` (`x = t` with `x` not in `t`, a Boolean
/// literal `x`/`¬x`, or a linear equation with a unit coefficient for an Int `x`, any non-zero
/// coefficient for a Real `x`), returns `(x, t)`.
fn definition(c: &Term, vars: &[Term]) -> Option<(Term, Term)> {
    let is_q = |x: &Term| vars.contains(x);
    if is_q(c) && c.sort == Sort::Bool {
        return Some((c.clone(), build::tt()));
    }
    match (c.op(), c.args.as_slice()) {
        (Some(Op::Not), [x]) if is_q(x) => return Some((x.clone(), build::ff())),
        (Some(Op::Eq), [a, b]) => {
            for (x, t) in [(a, b), (b, a)] {
                if is_q(x) && x.sort == t.sort && !free_vars(t).contains(x) {
                    return Some((x.clone(), t.clone()));
                }
            }
            if a.sort.is_arith() && a.sort == b.sort {
                return solve_linear(a, b, vars);
            }
        }
        _ => {}
    }
    None
}

/// Solves the linear equation `a = b` for a quantified variable, if one has a suitable
/// coefficient and occurs nowhere else in the equation.
fn solve_linear(a: &Term, b: &Term, vars: &[Term]) -> Option<(Term, Term)> {
    let mut e = linearize(a)?;
    e.add_scaled(&linearize(b)?, &-BigRational::one());
    for (x, c) in &e.coeffs {
        if !vars.contains(x) || x.sort != a.sort {
            continue;
        }
        if x.sort == Sort::Int && !c.abs().is_one() {
            continue;
        }
        let mut rest: LinExpr = e.clone();
        rest.coeffs.remove(x);
        if rest.coeffs.keys().any(|k| free_vars(k).contains(x)) {
            continue;
        }
        // c·x + rest = 0  ⇒  x = -rest / c
        let t = to_term(&rest.scale(&(-BigRational::one() / c)), &x.sort);
        return Some((x.clone(), t));
    }
    None
}

/// For a conjunct `t = store(x, i, v)` with a quantified array `x` that occurs in neither `t`
/// nor `i`: every element of `x` but the one at `i` is fixed by `t`, so `x = store(t, i, w)`
/// for a fresh element `w`, and the conjunct becomes `t[i] = v[x := store(t, i, w)]`.
/// `∃x` then becomes `∃w` (arrays are extensional).
fn store_definition(c: &Term, vars: &[Term]) -> Option<StoreElimination> {
    let (Some(Op::Eq), [a, b]) = (c.op(), c.args.as_slice()) else { return None };
    for (t, s) in [(a, b), (b, a)] {
        let (Some(Op::Store), [x, i, v]) = (s.op(), s.args.as_slice()) else { continue };
        if !vars.contains(x) || free_vars(t).contains(x) || free_vars(i).contains(x) {
            continue;
        }
        let Sort::Array(_, elem) = &x.sort else { continue };
        let element = Term::fresh(x.var_name().unwrap_or("x"), (**elem).clone());
        let value = build::store(t, i, &element);
        let fact = build::eq(&build::select(t, i), &substitute1(v, x, &value));
        return Some(StoreElimination { var: x.clone(), element, value, fact });
    }
    None
}

/// For a conjunct `x = store(..store(x, i1, v1).., ik, vk)` with a quantified array `x` that
/// occurs in no index or value: the equation only fixes `x` at the indices written, so it is
/// `x[i1] = s[i1] ∧ .. ∧ x[ik] = s[ik]` for the store chain `s`, each `s[i]` read through the
/// writes (`x` is then only read, and [`array_reads`] can take it).
fn self_update(c: &Term, vars: &[Term]) -> Option<Vec<Term>> {
    let (Some(Op::Eq), [a, b]) = (c.op(), c.args.as_slice()) else { return None };
    for (x, chain) in [(a, b), (b, a)] {
        if !vars.contains(x) {
            continue;
        }
        let mut writes = vec![];
        let mut base = chain;
        while let (Some(Op::Store), [inner, i, v]) = (base.op(), base.args.as_slice()) {
            writes.push((i, v));
            base = inner;
        }
        let clean = writes.iter().all(|(i, v)| !free_vars(i).contains(x) && !free_vars(v).contains(x));
        if base == x && !writes.is_empty() && clean {
            return Some(writes.iter().map(|(i, _)| build::eq(&build::select(x, i), &read_over_writes(chain, i))).collect());
        }
    }
    None
}

/// `s[i]` for a store chain `s`, through the writes whose index is `i` or differs from it by a
/// constant (an `ite` on the others).
fn read_over_writes(s: &Term, i: &Term) -> Term {
    match (s.op(), s.args.as_slice()) {
        (Some(Op::Store), [_, j, v]) if j == i => v.clone(),
        (Some(Op::Store), [inner, j, v]) => {
            let below = read_over_writes(inner, i);
            let apart = crate::linear::difference(i, j).is_some_and(|d| d.coeffs.values().all(|c| c.is_zero()) && !d.constant.is_zero());
            if apart {
                below
            } else {
                build::ite(&build::eq(i, j), v, &below)
            }
        }
        _ => build::select(s, i),
    }
}

/// Most distinct reads of one array that [`array_reads`] hands to Ackermann's reduction (it
/// adds a constraint per pair).
const MAX_ARRAY_READS: usize = 4;

/// The distinct reads `x[i_1]..[i_n]` (through every dimension, down to a non-array value)
/// in `t` if an array variable `x` occurs only in such reads, with indices that mention
/// neither `x` nor a variable bound inside `t` (then `∃x` is `∃` of the read values).
fn array_reads(t: &Term, x: &Term) -> Option<Vec<Term>> {
    fn walk(t: &Term, x: &Term, reads: &mut Vec<Term>) -> bool {
        if t == x {
            return false;
        }
        if let Some(indices) = read_indices(t, x) {
            if matches!(t.sort, Sort::Array(..)) {
                return false;
            }
            if !reads.contains(t) {
                reads.push(t.clone());
            }
            return indices.iter().all(|i| walk(i, x, reads));
        }
        t.args.iter().all(|a| walk(a, x, reads))
    }
    if !matches!(x.sort, Sort::Array(..)) {
        return None;
    }
    let mut reads = vec![];
    if !walk(t, x, &mut reads) || reads.len() > MAX_ARRAY_READS {
        return None;
    }
    let bound = bound_vars(t);
    let closed = |r: &Term| {
        let indices = read_indices(r, x).unwrap_or_default();
        indices.iter().flat_map(free_vars).all(|v| v != *x && !bound.contains(&v))
    };
    reads.iter().all(closed).then_some(reads)
}

/// The indices `[i_1, .., i_n]` if `t` is `x[i_1]..[i_n]` (n ≥ 1).
fn read_indices(t: &Term, x: &Term) -> Option<Vec<Term>> {
    let (Some(Op::Select), [a, i]) = (t.op(), t.args.as_slice()) else { return None };
    let mut indices = if a == x { vec![] } else { read_indices(a, x)? };
    indices.push(i.clone());
    Some(indices)
}

/// Ackermann's reduction of reads `x[..]`: fresh values `v_1..v_k` and the constraint that
/// reads at equal indices have equal values.
fn ackermannize(x: &Term, reads: &[Term]) -> (Vec<Term>, Term) {
    let name = x.var_name().unwrap_or("x");
    let values: Vec<Term> = reads.iter().map(|r| Term::fresh(name, r.sort.clone())).collect();
    let indices: Vec<Vec<Term>> = reads.iter().map(|r| read_indices(r, x).unwrap_or_default()).collect();
    let mut consistency = vec![];
    for a in 0..reads.len() {
        for b in a + 1..reads.len() {
            let same: Vec<Term> = indices[a].iter().zip(&indices[b]).map(|(i, j)| build::eq(i, j)).collect();
            consistency.push(build::implies(&build::and(&same), &build::eq(&values[a], &values[b])));
        }
    }
    (values, build::and(&consistency))
}

/// The result of [`store_definition`]: `var` is `value` = `store(t, i, element)`; the
/// conjunct is replaced by `fact`.
struct StoreElimination {
    var: Term,
    element: Term,
    value: Term,
    fact: Term,
}

fn der_exists(vars: &[Term], body: &Term) -> (Vec<Term>, Term) {
    let vars = live_vars(vars, body);
    if vars.is_empty() {
        return (vars, body.clone());
    }
    if body.op() == Some(&Op::Or) {
        let parts: Vec<Term> = disjuncts(body)
            .iter()
            .map(|d| {
                let (v, b) = der_exists(&vars, d);
                build::exists(&v, &b)
            })
            .collect();
        return (vec![], build::or(&parts));
    }
    let mut vars = vars;
    let mut conj = conjuncts(body);
    loop {
        let inner_bound: HashSet<Term> = conj.iter().flat_map(bound_vars).collect();
        let found = conj.iter().enumerate().find_map(|(i, c)| {
            let (x, t) = definition(c, &vars)?;
            // Substituting must not capture: no variable of t may be bound inside the body.
            let capture = free_vars(&t).iter().any(|v| inner_bound.contains(v));
            (!capture).then_some((i, x, t))
        });
        let Some((i, x, t)) = found else {
            // No definition: try to reduce an array variable to one of its elements.
            // (its value `t[i := w]` must not mention a variable bound inside the body)
            let store_elim = |(i, c): (usize, &Term)| {
                let elim = store_definition(c, &vars)?;
                let capture = free_vars(&elim.value).iter().any(|v| inner_bound.contains(v));
                (!capture).then_some((i, elim))
            };
            let Some((i, elim)) = conj.iter().enumerate().find_map(store_elim) else {
                // Or read an array that an equation updates in place at the indices written.
                if let Some((i, reads)) = conj.iter().enumerate().find_map(|(i, c)| Some((i, self_update(c, &vars)?))) {
                    conj.splice(i..=i, reads);
                    continue;
                }
                // Or replace an array that is only read by its elements.
                let body = build::and(&conj);
                let Some((x, reads)) = vars.iter().find_map(|x| Some((x.clone(), array_reads(&body, x)?))) else {
                    break;
                };
                let (elements, consistency) = ackermannize(&x, &reads);
                let map: HashMap<Term, Term> = reads.into_iter().zip(elements.iter().cloned()).collect();
                conj = conjuncts(&build::and(&[substitute(&body, &map), consistency]));
                vars.retain(|v| *v != x);
                vars.extend(elements);
                vars = live_vars(&vars, &build::and(&conj));
                if vars.is_empty() {
                    break;
                }
                continue;
            };
            conj[i] = elim.fact;
            conj = conj.iter().map(|c| substitute1(c, &elim.var, &elim.value)).collect();
            vars.retain(|v| *v != elim.var);
            vars.push(elim.element);
            vars = live_vars(&vars, &build::and(&conj));
            if vars.is_empty() {
                break;
            }
            continue;
        };
        conj.remove(i);
        conj = conj.iter().map(|c| substitute1(c, &x, &t)).collect();
        vars.retain(|v| *v != x);
        if vars.is_empty() {
            break;
        }
    }
    let body = build::and(&conj);
    (live_vars(&vars, &body), body)
}

/// DER: drops quantified variables defined by an equality conjunct (∃) or a disequality
/// disjunct (∀), to a fixpoint. For ∃ over a disjunction (∀ over a conjunction) it distributes
/// the quantifier over the parts first; the returned variables are then empty and the body
/// holds the per-part quantifiers. Returns `(remaining variables, body)` of the same quantifier.
pub fn der(q: Quantifier, vars: &[Term], body: &Term) -> (Vec<Term>, Term) {
    via_exists(q, vars, body, der_exists)
}

/// Whether `t` mentions a symbol that is neither a variable nor interpreted: an uninterpreted
/// function or a term of an uninterpreted sort (whose interpretation is not fixed).
fn has_foreign_symbol(t: &Term) -> bool {
    fn foreign_sort(s: &Sort) -> bool {
        match s {
            Sort::Uninterpreted(_) => true,
            Sort::Array(i, e) => foreign_sort(i) || foreign_sort(e),
            _ => false,
        }
    }
    let mut seen = HashSet::new();
    let mut stack = vec![t.clone()];
    while let Some(t) = stack.pop() {
        if !seen.insert(t.id()) {
            continue;
        }
        if matches!(t.op(), Some(Op::Apply(_))) || foreign_sort(&t.sort) {
            return true;
        }
        if let Kind::Quant(_, vs) = &t.kind {
            if vs.iter().any(|v| foreign_sort(&v.sort)) {
                return true;
            }
        }
        stack.extend(t.args.iter().cloned());
    }
    false
}

fn upd_exists(vars: &[Term], body: &Term) -> (Vec<Term>, Term) {
    let vars = live_vars(vars, body);
    if vars.is_empty() {
        return (vars, body.clone());
    }
    let conj = conjuncts(body);
    let qset: BTreeSet<Term> = vars.iter().cloned().collect();
    let fvs: Vec<BTreeSet<Term>> = conj.iter().map(free_vars).collect();
    // Union-find over conjuncts linked by shared quantified variables.
    let mut parent: Vec<usize> = (0..conj.len()).collect();
    fn find(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    for v in &vars {
        let users: Vec<usize> = (0..conj.len()).filter(|&i| fvs[i].contains(v)).collect();
        for w in users.windows(2) {
            let (a, b) = (find(&mut parent, w[0]), find(&mut parent, w[1]));
            parent[a] = b;
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut root_of: Vec<Option<usize>> = vec![None; conj.len()];
    for i in 0..conj.len() {
        let r = find(&mut parent, i);
        match root_of[r] {
            Some(g) => groups[g].push(i),
            None => {
                root_of[r] = Some(groups.len());
                groups.push(vec![i]);
            }
        }
    }
    let mut drop = vec![false; conj.len()];
    for g in &groups {
        // φ2 may only mention quantified variables (which then occur nowhere else, by
        // construction of the groups) and interpreted symbols.
        let closed = g.iter().all(|&i| fvs[i].is_subset(&qset) && !has_foreign_symbol(&conj[i]));
        if !closed {
            continue;
        }
        let phi2 = build::and(&g.iter().map(|&i| conj[i].clone()).collect::<Vec<_>>());
        match crate::simplify::is_sat(&phi2, UPD_SAT_TIMEOUT_MS) {
            Some(true) => g.iter().for_each(|&i| drop[i] = true),
            // ∃v. φ1 ∧ φ2 with φ2 unsatisfiable is false.
            Some(false) => return (vec![], build::ff()),
            None => {}
        }
    }
    let kept: Vec<Term> = conj.iter().zip(&drop).filter(|(_, d)| !**d).map(|(c, _)| c.clone()).collect();
    let body = build::and(&kept);
    (live_vars(&vars, &body), body)
}

/// UPD: for ∃ over a conjunction, drops each group of conjuncts that is connected to no free
/// symbol (its symbols are quantified variables, shared with no other conjunct, and
/// interpreted symbols; no uninterpreted functions or sorts) and that Z3 shows satisfiable;
/// if such a group is unsatisfiable the result is `false`; if Z3 cannot decide, it stays.
/// For ∀ the dual (over a disjunction, dropping groups that are not valid). Returns
/// `(remaining variables, body)`.
pub fn upd(q: Quantifier, vars: &[Term], body: &Term) -> (Vec<Term>, Term) {
    via_exists(q, vars, body, upd_exists)
}

/// Whether `body` is a junction the quantifier distributes over (∃ over ∨, ∀ over ∧).
fn distributes(q: Quantifier, body: &Term) -> bool {
    matches!((q, body.op()), (Quantifier::Exists, Some(Op::Or)) | (Quantifier::Forall, Some(Op::And)))
}

/// Most parts [`to_junction_of_junctions`] may create.
const MAX_SPREAD: usize = 16;

/// For ∃ over a conjunction with disjunctive conjuncts, the equivalent disjunction of
/// conjunctions (for ∀ the dual), so that the quantifier distributes over small parts, each
/// with its own definitions; `None` if there is nothing to spread or it would exceed
/// [`MAX_SPREAD`] parts.
fn to_junction_of_junctions(q: Quantifier, body: &Term) -> Option<Term> {
    let (outer, inner) = match q {
        Quantifier::Exists => (Op::And, Op::Or),
        Quantifier::Forall => (Op::Or, Op::And),
    };
    if body.op() != Some(&outer) || !body.args.iter().any(|a| a.op() == Some(&inner)) {
        return None;
    }
    let mut parts: Vec<Vec<Term>> = vec![vec![]];
    for a in &body.args {
        let choices = if a.op() == Some(&inner) { a.args.clone() } else { vec![a.clone()] };
        if parts.len() * choices.len() > MAX_SPREAD {
            return None;
        }
        parts = parts.iter().flat_map(|p| choices.iter().map(move |c| [p.clone(), vec![c.clone()]].concat())).collect();
    }
    let junction = |op: &Op, ts: &[Term]| if *op == Op::And { build::and(ts) } else { build::or(ts) };
    Some(junction(&inner, &parts.iter().map(|p| junction(&outer, p)).collect::<Vec<_>>()))
}

/// An equivalent of `q vars. body` with as few quantifiers as DER, UPD and Z3's `qe-light`
/// and `qe` achieve within `budget_ms` of Z3 work in all; still quantified where they fail.
/// (One budget for the whole elimination: a body that splits into thousands of parts must not
/// take thousands of timeouts.)
pub fn eliminate(q: Quantifier, vars: &[Term], body: &Term, budget_ms: u64) -> Term {
    eliminate_with(q, vars, body, Some(Instant::now() + Duration::from_millis(budget_ms)))
}

/// Milliseconds left until `deadline`; `None` once it has passed.
fn ms_left(deadline: Instant) -> Option<u64> {
    let left = deadline.saturating_duration_since(Instant::now()).as_millis();
    (left > 0).then(|| u64::try_from(left).unwrap_or(u64::MAX))
}

/// [`eliminate`]; Z3's tactics only if a `z3_deadline` is given, and only until it.
fn eliminate_with(q: Quantifier, vars: &[Term], body: &Term, z3_deadline: Option<Instant>) -> Term {
    let vars = live_vars(vars, body);
    if vars.is_empty() {
        return body.clone();
    }
    if distributes(q, body) {
        let parts: Vec<Term> = body.args.iter().map(|p| eliminate_with(q, &vars, p, z3_deadline)).collect();
        return match q {
            Quantifier::Exists => build::or(&parts),
            Quantifier::Forall => build::and(&parts),
        };
    }
    if let Some(spread) = to_junction_of_junctions(q, body) {
        return eliminate_with(q, &vars, &spread, z3_deadline);
    }
    let (v, b) = der(q, &vars, body);
    if v.is_empty() {
        return b;
    }
    if distributes(q, &b) {
        return eliminate_with(q, &v, &b, z3_deadline);
    }
    let (v, b) = upd(q, &v, &b);
    if v.is_empty() {
        return b;
    }
    let f = build::quant(q, &v, &b);
    let Some(deadline) = z3_deadline else { return f };
    let Some(timeout) = ms_left(deadline) else { return f };
    // A part that is unsatisfiable (∃) or valid (∀) needs no elimination.
    let trivial = match q {
        Quantifier::Exists => crate::simplify::is_sat(&b, timeout).map(|sat| (!sat).then(build::ff)),
        Quantifier::Forall => crate::simplify::is_valid(&b, timeout).map(|valid| valid.then(build::tt)),
    };
    if let Some(Some(r)) = trivial {
        return r;
    }
    let r = crate::z3backend::with_thread_ctx(|cx| {
        let Some(timeout) = ms_left(deadline) else { return Ok(f.clone()) };
        let light = cx.apply_tactic(&f, "qe-light", timeout).unwrap_or_else(|_| f.clone());
        if !light.has_quantifier() {
            return Ok(light);
        }
        let Some(timeout) = ms_left(deadline) else { return Ok(light) };
        Ok(cx.apply_tactic(&light, "qe", timeout).unwrap_or(light))
    })
    .unwrap_or(f);
    // Z3 may leave quantifiers whose bodies DER and UPD now handle, and unsatisfiable parts.
    let r = sweep(&crate::simplify::simplify(&r));
    crate::simplify::simplify(&drop_unsat_parts(&r, deadline))
}

/// Timeout of each satisfiability check of [`drop_unsat_parts`].
const PART_CHECK_TIMEOUT_MS: u64 = 200;

/// Time for all the checks of one [`drop_unsat_parts`]: an elimination may return thousands of
/// disjuncts; past this budget the rest stay unchecked (dropping them is only a simplification).
const PART_CHECKS_BUDGET_MS: u64 = 1_000;

/// `t` without the disjuncts (also under ∃ and ∧) that Z3 quickly shows unsatisfiable, checked
/// until `deadline` or for [`PART_CHECKS_BUDGET_MS`], whichever ends first.
fn drop_unsat_parts(t: &Term, deadline: Instant) -> Term {
    drop_unsat_parts_until(t, deadline.min(Instant::now() + Duration::from_millis(PART_CHECKS_BUDGET_MS)))
}

fn drop_unsat_parts_until(t: &Term, deadline: Instant) -> Term {
    match (&t.kind, t.op()) {
        (_, Some(Op::Or)) => {
            let parts: Vec<Term> = t
                .args
                .iter()
                .map(|a| drop_unsat_parts_until(a, deadline))
                .filter(|p| Instant::now() >= deadline || crate::simplify::is_sat(p, PART_CHECK_TIMEOUT_MS) != Some(false))
                .collect();
            build::or(&parts)
        }
        (_, Some(Op::And)) => build::and(&t.args.iter().map(|a| drop_unsat_parts_until(a, deadline)).collect::<Vec<_>>()),
        (Kind::Quant(Quantifier::Exists, _), _) => build::rebuild(t, vec![drop_unsat_parts_until(&t.args[0], deadline)]),
        _ => t.clone(),
    }
}

/// Applies DER and UPD (not Z3) to every quantified subterm of `t`, innermost first.
fn sweep(t: &Term) -> Term {
    if !t.has_quantifier() {
        return t.clone();
    }
    let args: Vec<Term> = t.args.iter().map(sweep).collect();
    match &t.kind {
        Kind::Quant(q, vars) => eliminate_with(*q, vars, &args[0], None),
        _ => build::rebuild(t, args),
    }
}

fn project(q: Quantifier, phi: &Term, keep: &BTreeSet<Term>) -> Term {
    let vars: Vec<Term> = free_vars(phi).into_iter().filter(|v| !keep.contains(v)).collect();
    eliminate(q, &vars, phi, DEFAULT_QE_TIMEOUT_MS)
}

/// `∃ (free vars of phi not in keep). phi`, with the quantifier eliminated where possible.
pub fn project_exists(phi: &Term, keep: &BTreeSet<Term>) -> Term {
    project(Quantifier::Exists, phi, keep)
}

/// `∀ (free vars of phi not in keep). phi`, with the quantifier eliminated where possible.
pub fn project_forall(phi: &Term, keep: &BTreeSet<Term>) -> Term {
    project(Quantifier::Forall, phi, keep)
}

#[cfg(test)]
#[allow(clippy::cloned_ref_to_slice_refs)]
mod tests {
    use super::*;
    use crate::build::*;
    use crate::simplify::is_equiv;
    use crate::sort::Sort;
    use crate::term::FuncDecl;
    use std::sync::Arc;

    fn v(n: &str) -> Term {
        Term::var(n, Sort::Int)
    }

    fn assert_equiv(a: &Term, b: &Term) {
        assert_eq!(is_equiv(a, b, 5000), Some(true), "{a}  vs  {b}");
    }

    #[test]
    fn qe_even_nonnegative() {
        let (k, y) = (v("k"), v("y"));
        let body = and(&[ge(&k, &int(0)), eq(&y, &mul(&[int(2), k.clone()]))]);
        let r = eliminate(Quantifier::Exists, &[k], &body, 5000);
        assert!(!r.has_quantifier(), "{r}");
        assert_equiv(&r, &and(&[ge(&y, &int(0)), eq(&modulo(&y, &int(2)), &int(0))]));
    }

    #[test]
    fn a_spent_budget_leaves_the_quantifier() {
        let (x, y, z) = (v("x"), v("y"), v("z"));
        let body = and(&[lt(&x, &y), lt(&y, &z)]);
        assert!(eliminate(Quantifier::Exists, &[y.clone()], &body, 0).has_quantifier());
        let r = eliminate(Quantifier::Exists, &[y], &body, 5000);
        assert!(!r.has_quantifier(), "{r}");
        assert_equiv(&r, &lt(&add(&[x, int(1)]), &z));
    }

    #[test]
    fn der_substitutes_definitions() {
        let (x, y, z) = (v("x"), v("y"), v("z"));
        let yp1 = add(&[y.clone(), int(1)]);
        let (vars, body) = der(Quantifier::Exists, &[x.clone()], &and(&[eq(&x, &yp1), gt(&x, &z)]));
        assert!(vars.is_empty());
        assert_eq!(body, gt(&yp1, &z));
        // ∀ dual: ∀x. x ≠ y+1 ∨ x > z
        let (vars, body) = der(Quantifier::Forall, &[x.clone()], &or(&[not(&eq(&x, &yp1)), gt(&x, &z)]));
        assert!(vars.is_empty());
        assert_eq!(body, gt(&yp1, &z));
        // Boolean literal and linear equation with a unit coefficient
        let b = Term::var("b", Sort::Bool);
        let body = and(&[b.clone(), eq(&add(&[x.clone(), y.clone()]), &int(3)), implies(&b, &gt(&x, &z))]);
        let (vars, r) = der(Quantifier::Exists, &[x.clone(), b], &body);
        assert!(vars.is_empty(), "{vars:?}");
        assert_equiv(&r, &gt(&sub(&int(3), &y), &z));
    }

    /// `∃x. m = x[p := x[p][o := 0]] ∧ x[q][0] > 5` (a write to nested memory) has no
    /// definition of `x`, but `x` is `m` except at `p`: the array is reduced to its elements.
    #[test]
    fn der_reduces_a_stored_array_to_its_element() {
        let int_arr = Sort::array(Sort::Int, Sort::Int);
        let mem = Sort::array(Sort::Int, int_arr);
        let (m, x) = (Term::var("m", mem.clone()), Term::var("x", mem));
        let (p, o, q) = (v("p"), v("o"), v("q"));
        let write = store(&x, &p, &store(&select(&x, &p), &o, &int(0)));
        let body = and(&[eq(&m, &write), gt(&select(&select(&x, &q), &int(0)), &int(5))]);
        let (vars, r) = der(Quantifier::Exists, &[x.clone()], &body);
        assert!(!r.has_quantifier(), "{r}");
        assert!(!free_vars(&r).contains(&x), "{r}");
        assert_equiv(&exists(&vars, &r), &exists(&[x], &body));
    }

    /// `∃x. x = store(store(store(x, t, w), t - 1, a), t, n) ∧ x[t] ≤ k`: the equation fixes
    /// `x` at `t` and `t - 1` only (the last write at `t` wins), then `x` is only read.
    #[test]
    fn der_reads_an_array_updated_in_place() {
        let x = Term::var("x", Sort::array(Sort::Int, Sort::Int));
        let (t, w, a, n, k) = (v("t"), v("w"), v("a"), v("n"), v("k"));
        let t1 = sub(&t, &int(1));
        let chain = store(&store(&store(&x, &t, &w), &t1, &a), &t, &n);
        let body = and(&[eq(&x, &chain), le(&select(&x, &t), &k)]);
        let (vars, r) = der(Quantifier::Exists, &[x.clone()], &body);
        assert!(!free_vars(&r).contains(&x), "{r}");
        assert_equiv(&exists(&vars, &r), &exists(&[x], &body));
        // the same as `n ≤ k`
        assert_equiv(&exists(&vars, &r), &le(&n, &k));
    }

    /// `∃x. x[p][o] = i ∧ x[q][o] > i`: only reads of `x`, so their values replace it.
    #[test]
    fn der_replaces_a_read_only_array_by_its_reads() {
        let mem = Sort::array(Sort::Int, Sort::array(Sort::Int, Sort::Int));
        let x = Term::var("x", mem);
        let (p, q, o, i) = (v("p"), v("q"), v("o"), v("i"));
        let read = |b: &Term| select(&select(&x, b), &o);
        let body = and(&[eq(&read(&p), &i), gt(&read(&q), &i)]);
        let (vars, r) = der(Quantifier::Exists, &[x.clone()], &body);
        assert!(!free_vars(&r).contains(&x), "{r}");
        assert!(vars.iter().all(|v| v.sort == Sort::Int), "{vars:?}");
        let r = eliminate(Quantifier::Exists, &vars, &r, 5000);
        assert!(!r.has_quantifier(), "{r}");
        assert_equiv(&r, &not(&eq(&p, &q)));
        // a read at a bound index is not a value of its own
        let k = v("k");
        let body = forall(&[k.clone()], &gt(&select(&select(&x, &k), &o), &i));
        let (vars, _) = der(Quantifier::Exists, &[x.clone()], &body);
        assert_eq!(vars, vec![x]);
    }

    #[test]
    fn der_distributes_and_keeps_what_it_cannot_eliminate() {
        let (x, y, z) = (v("x"), v("y"), v("z"));
        let body = or(&[and(&[eq(&x, &y), gt(&x, &int(0))]), and(&[gt(&x, &z), lt(&x, &y)])]);
        let (vars, r) = der(Quantifier::Exists, &[x.clone()], &body);
        assert!(vars.is_empty());
        let expect = or(&[gt(&y, &int(0)), exists(&[x.clone()], &and(&[gt(&x, &z), lt(&x, &y)]))]);
        assert_eq!(r, expect);
        // 2x = y cannot be solved for an Int x by DER
        let (vars, _) = der(Quantifier::Exists, &[x.clone()], &eq(&mul(&[int(2), x.clone()]), &y));
        assert_eq!(vars, vec![x]);
    }

    #[test]
    fn der_avoids_capture() {
        let (x, y) = (v("x"), v("y"));
        let a = Term::var("a", Sort::array(Sort::Int, Sort::Int));
        // ∃x. x = y ∧ ∀y. a[y] ≤ x: substituting y for x would capture y.
        let body = and(&[eq(&x, &y), forall(&[y.clone()], &le(&select(&a, &y), &x))]);
        let (vars, _) = der(Quantifier::Exists, &[x.clone()], &body);
        assert_eq!(vars, vec![x]);
    }

    #[test]
    fn upd_drops_unconnected_satisfiable_groups() {
        let (x, y, z, w) = (v("x"), v("y"), v("z"), v("w"));
        let body = and(&[gt(&z, &int(0)), gt(&x, &y), gt(&y, &int(5)), le(&w, &z)]);
        let (vars, r) = upd(Quantifier::Exists, &[x.clone(), y.clone(), w.clone()], &body);
        // {x > y, y > 5} is unconnected and satisfiable; w ≤ z is connected to z.
        assert_eq!(vars, vec![w.clone()]);
        assert_eq!(r, and(&[gt(&z, &int(0)), le(&w, &z)]));
        // an unsatisfiable unconnected group makes the whole formula false
        let body = and(&[gt(&z, &int(0)), gt(&x, &int(1)), lt(&x, &int(0))]);
        assert_eq!(upd(Quantifier::Exists, &[x.clone()], &body).1, ff());
        // uninterpreted functions are free symbols: nothing is dropped
        let f = Arc::new(FuncDecl { name: Arc::from("f"), domain: vec![Sort::Int], range: Sort::Int });
        let body = and(&[gt(&z, &int(0)), eq(&apply(&f, &[x.clone()]), &int(1))]);
        assert_eq!(upd(Quantifier::Exists, &[x.clone()], &body), (vec![x.clone()], body.clone()));
        // ∀ dual: ∀x. z > 0 ∨ x > 3  ≡  z > 0
        let (vars, r) = upd(Quantifier::Forall, &[x.clone()], &or(&[gt(&z, &int(0)), gt(&x, &int(3))]));
        assert!(vars.is_empty());
        assert_eq!(r, gt(&z, &int(0)));
    }

    #[test]
    fn eliminate_is_equivalence_preserving() {
        let (x, y, z) = (v("x"), v("y"), v("z"));
        let r = Term::var("r", Sort::Real);
        let s = Term::var("s", Sort::Real);
        let cases = vec![
            (Quantifier::Exists, vec![x.clone()], and(&[lt(&y, &x), lt(&x, &z)])),
            (Quantifier::Forall, vec![x.clone()], or(&[le(&x, &y), gt(&x, &z)])),
            (Quantifier::Exists, vec![x.clone()], eq(&mul(&[int(3), x.clone()]), &add(&[y.clone(), int(1)]))),
            (Quantifier::Exists, vec![r.clone()], and(&[lt(&s, &r), lt(&r, &real_from(3))])),
            (Quantifier::Forall, vec![x.clone(), y.clone()], or(&[not(&eq(&x, &add(&[z.clone(), int(1)]))), le(&y, &x), gt(&y, &z)])),
        ];
        for (q, vars, body) in cases {
            let orig = quant(q, &vars, &body);
            let res = eliminate(q, &vars, &body, 5000);
            assert!(!res.has_quantifier(), "{orig} -> {res}");
            assert_equiv(&orig, &res);
        }
    }

    fn real_from(i: i64) -> Term {
        real(num_rational::BigRational::from_integer(i.into()))
    }

    #[test]
    fn eliminate_with_arrays_stays_correct() {
        let (i, j) = (v("i"), v("j"));
        let a = Term::var("a", Sort::array(Sort::Int, Sort::Int));
        let body = and(&[eq(&select(&a, &i), &int(5)), eq(&select(&a, &j), &int(6))]);
        let res = eliminate(Quantifier::Exists, &[a.clone()], &body, 2000);
        // Whatever Z3 manages, the result must not be inequivalent.
        assert_ne!(is_equiv(&exists(&[a], &body), &res, 5000), Some(false), "{res}");
    }

    #[test]
    fn projections() {
        let (x, xp) = (v("x"), v("x'"));
        let phi = and(&[eq(&xp, &add(&[x.clone(), int(1)])), ge(&x, &int(0))]);
        let keep: BTreeSet<Term> = [xp.clone()].into_iter().collect();
        let p = project_exists(&phi, &keep);
        assert!(!p.has_quantifier(), "{p}");
        assert_equiv(&p, &ge(&xp, &int(1)));
        let y = v("y");
        let keep: BTreeSet<Term> = [y.clone()].into_iter().collect();
        let p = project_forall(&or(&[gt(&x, &int(0)), gt(&y, &int(0))]), &keep);
        assert!(!p.has_quantifier(), "{p}");
        assert_equiv(&p, &gt(&y, &int(0)));
    }
}
