//! Disjunctive normal form over linear rows, the input Farkas' lemma needs.
//!
//! `ite` is lifted out of atoms, disequalities become two strict cases, `div`/`mod` by a
//! nonzero literal become a fresh quotient and remainder with their exact definition, integer
//! rows are tightened (`a < b` ⇒ `a + 1 ≤ b`, coefficients coprime, bound rounded: the same
//! integer points). Literals that are not linear (products, selects, Booleans, quantifiers) are
//! dropped and strict real rows weakened: each disjunct then over-approximates its part of the
//! formula, which is sound for premises of a ranking proof, and `exact` says it happened.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use smt::build::{and, eq, int, int_big, le, lt, mul, not, or};
use smt::{Kind, Op, Sort, Term};
use std::collections::{BTreeMap, HashMap};

/// One row `Σ coeffs·v + constant ≤ 0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Row {
    pub coeffs: BTreeMap<Term, BigRational>,
    pub constant: BigRational,
}

/// A disjunction of conjunctions of rows.
#[derive(Clone, Debug)]
pub(crate) struct Dnf {
    pub disjuncts: Vec<Vec<Row>>,
    /// Nothing was dropped or weakened: every disjunct implies the formula (with the fresh
    /// quotients and remainders as extra existential variables).
    pub exact: bool,
}

/// The size of DNF beyond which we give up.
struct TooBig;

type Lits = Vec<Vec<(Term, bool)>>;

/// The linear DNF of `t`, or `None` if it has more than `limit` disjuncts.
pub(crate) fn dnf(t: &Term, limit: usize) -> Option<Dnf> {
    let mut defs = Vec::new();
    let t = eliminate_div_mod(t, &mut HashMap::new(), &mut HashMap::new(), &mut defs);
    let t = and(&[vec![t], defs].concat());
    let lits = go(&t, true, limit, &mut HashMap::new()).ok()?;
    let mut exact = true;
    let mut disjuncts = Vec::new();
    'next: for conj in lits {
        // an atom and its negation: Boolean atoms are dropped below, their contradiction not
        if conj.iter().any(|(a, pos)| *pos && conj.contains(&(a.clone(), false))) {
            continue;
        }
        let mut rows = Vec::new();
        for (atom, pos) in conj {
            match literal_rows(&atom, pos) {
                Lit::Rows(rs, weakened) => {
                    exact &= !weakened;
                    for r in rs {
                        if r.coeffs.is_empty() {
                            if r.constant.is_positive() {
                                continue 'next;
                            }
                        } else if !rows.contains(&r) {
                            rows.push(r);
                        }
                    }
                }
                Lit::Dropped => exact = false,
            }
        }
        for c in cuts(&rows) {
            if !rows.contains(&c) {
                rows.push(c);
            }
        }
        disjuncts.push(rows);
    }
    Some(Dnf { disjuncts, exact })
}

/// Replaces `div`/`mod` by a nonzero integer literal (outside quantifiers) by fresh `q`, `r`
/// with `a = d·q + r ∧ 0 ≤ r ≤ |d| - 1` (SMT-LIB's Euclidean division), collected in `defs`.
fn eliminate_div_mod(
    t: &Term,
    memo: &mut HashMap<Term, Term>,
    qr: &mut HashMap<(Term, BigInt), (Term, Term)>,
    defs: &mut Vec<Term>,
) -> Term {
    if t.args.is_empty() || matches!(t.kind, Kind::Quant(..)) {
        return t.clone();
    }
    if let Some(r) = memo.get(t) {
        return r.clone();
    }
    let args: Vec<Term> = t.args.iter().map(|a| eliminate_div_mod(a, memo, qr, defs)).collect();
    let divisor = match (t.op(), args.get(1).and_then(|d| d.as_int())) {
        (Some(Op::IntDiv | Op::Mod), Some(d)) if args.len() == 2 && !d.is_zero() => Some(d.clone()),
        _ => None,
    };
    let r = match divisor {
        Some(d) => {
            let (q, r) = qr
                .entry((args[0].clone(), d.clone()))
                .or_insert_with(|| {
                    let q = Term::fresh("div", Sort::Int);
                    let r = Term::fresh("mod", Sort::Int);
                    defs.push(eq(&args[0], &smt::build::add(&[mul(&[int_big(d.clone()), q.clone()]), r.clone()])));
                    defs.push(le(&int(0), &r));
                    defs.push(le(&r, &int_big(d.abs() - BigInt::one())));
                    (q, r)
                })
                .clone();
            if t.op() == Some(&Op::IntDiv) {
                q
            } else {
                r
            }
        }
        None if args == t.args => t.clone(),
        None => Term::mk(t.kind.clone(), args, t.sort.clone()),
    };
    memo.insert(t.clone(), r.clone());
    r
}

/// The first non-Boolean `ite` in `t` outside quantifiers.
fn find_ite(t: &Term) -> Option<Term> {
    if matches!(t.kind, Kind::Quant(..)) {
        return None;
    }
    if t.op() == Some(&Op::Ite) && t.sort != Sort::Bool {
        return Some(t.clone());
    }
    t.args.iter().find_map(find_ite)
}

fn product(a: Lits, b: &Lits, limit: usize) -> Result<Lits, TooBig> {
    if a.len().saturating_mul(b.len()) > limit * limit {
        return Err(TooBig);
    }
    let mut out = Vec::new();
    for x in &a {
        for y in b {
            out.push([x.clone(), y.clone()].concat());
        }
    }
    if out.len() > limit {
        return Err(TooBig);
    }
    Ok(out)
}

/// The DNF of `t` (or of `¬t` when `!pos`) as lists of literals.
fn go(t: &Term, pos: bool, limit: usize, memo: &mut HashMap<(Term, bool), Lits>) -> Result<Lits, TooBig> {
    if let Some(r) = memo.get(&(t.clone(), pos)) {
        return Ok(r.clone());
    }
    let conj = |parts: &[Term], pos: bool, memo: &mut HashMap<(Term, bool), Lits>| -> Result<Lits, TooBig> {
        let mut acc: Lits = vec![vec![]];
        for p in parts {
            acc = product(acc, &go(p, pos, limit, memo)?, limit)?;
        }
        Ok(acc)
    };
    let disj = |parts: &[Term], pos: bool, memo: &mut HashMap<(Term, bool), Lits>| -> Result<Lits, TooBig> {
        let mut acc: Lits = vec![];
        for p in parts {
            acc.extend(go(p, pos, limit, memo)?);
            if acc.len() > limit {
                return Err(TooBig);
            }
        }
        Ok(acc)
    };
    let r = match (&t.kind, t.op()) {
        (Kind::Bool(b), _) => {
            if *b == pos {
                vec![vec![]]
            } else {
                vec![]
            }
        }
        (_, Some(Op::Not)) if t.args.len() == 1 => go(&t.args[0], !pos, limit, memo)?,
        (_, Some(Op::And)) if pos => conj(&t.args, true, memo)?,
        (_, Some(Op::And)) => disj(&t.args, false, memo)?,
        (_, Some(Op::Or)) if pos => disj(&t.args, true, memo)?,
        (_, Some(Op::Or)) => conj(&t.args, false, memo)?,
        (_, Some(Op::Implies)) if t.args.len() == 2 => go(&or(&[not(&t.args[0]), t.args[1].clone()]), pos, limit, memo)?,
        (_, Some(Op::Ite)) if t.args.len() == 3 => {
            let (c, a, b) = (&t.args[0], &t.args[1], &t.args[2]);
            go(&or(&[and(&[c.clone(), a.clone()]), and(&[not(c), b.clone()])]), pos, limit, memo)?
        }
        (_, Some(Op::Eq)) if t.args.len() == 2 && t.args[0].sort == Sort::Bool => {
            let (a, b) = (&t.args[0], &t.args[1]);
            go(&or(&[and(&[a.clone(), b.clone()]), and(&[not(a), not(b)])]), pos, limit, memo)?
        }
        (_, Some(Op::Distinct)) => {
            let mut pairs = Vec::new();
            for (i, a) in t.args.iter().enumerate() {
                for b in &t.args[i + 1..] {
                    pairs.push(not(&eq(a, b)));
                }
            }
            go(&and(&pairs), pos, limit, memo)?
        }
        (_, Some(Op::Le | Op::Lt | Op::Eq)) if t.args.len() == 2 && t.args[0].sort.is_arith() => {
            if let Some(i) = find_ite(t) {
                let (c, a, b) = (&i.args[0], &i.args[1], &i.args[2]);
                let with = |v: &Term| smt::subst::substitute1(t, &i, v);
                let lifted = or(&[and(&[c.clone(), with(a)]), and(&[not(c), with(b)])]);
                go(&lifted, pos, limit, memo)?
            } else if !pos && t.op() == Some(&Op::Eq) {
                let (a, b) = (&t.args[0], &t.args[1]);
                go(&or(&[lt(a, b), lt(b, a)]), true, limit, memo)?
            } else {
                vec![vec![(t.clone(), pos)]]
            }
        }
        _ => vec![vec![(t.clone(), pos)]],
    };
    memo.insert((t.clone(), pos), r.clone());
    Ok(r)
}

enum Lit {
    /// The rows of the literal, and whether they weaken it.
    Rows(Vec<Row>, bool),
    Dropped,
}

/// The linear form of `a - b` over arithmetic variables, or `None` if something is not linear.
fn difference(a: &Term, b: &Term) -> Option<(BTreeMap<Term, BigRational>, BigRational)> {
    let e = smt::linear::difference(a, b)?;
    if e.coeffs.keys().any(|v| !v.is_var() || !v.sort.is_arith()) {
        return None;
    }
    Some((e.coeffs.into_iter().filter(|(_, c)| !c.is_zero()).collect(), e.constant))
}

/// The row `e ≤ 0` (or `e < 0` if `strict`): tightened over the integers, weakened over the reals.
fn row(coeffs: BTreeMap<Term, BigRational>, constant: BigRational, strict: bool) -> (Row, bool) {
    let integral = coeffs.keys().all(|v| v.sort == Sort::Int);
    if !integral {
        return (Row { coeffs, constant }, strict);
    }
    // scale to coprime integer coefficients: Σ a·v ≤ -k (or < -k), then round -k
    let den = coeffs.values().fold(BigInt::one(), |acc, c| acc.lcm(c.denom()));
    let scaled: BTreeMap<Term, BigInt> =
        coeffs.into_iter().map(|(v, c)| (v, (c * BigRational::from_integer(den.clone())).to_integer())).collect();
    let g = scaled.values().fold(BigInt::zero(), |acc, c| acc.gcd(c));
    let g = if g.is_zero() { BigInt::one() } else { g };
    let factor = BigRational::from_integer(den) / BigRational::from_integer(g.clone());
    let bound = -(constant * factor);
    let bound = if strict { bound.ceil() - BigRational::one() } else { bound.floor() };
    let coeffs = scaled.into_iter().map(|(v, c)| (v, BigRational::from_integer(c / &g))).collect();
    (Row { coeffs, constant: -bound }, false)
}

/// The most integer rows whose pairs [`cuts`] combines.
const MAX_CUT_ROWS: usize = 16;

/// The integer rows that two rows of `rows` give by eliminating a variable, where rounding
/// the bound makes them stronger than the rows' rational combination (a Chvátal–Gomory cut:
/// `x2 ≤ x1 ∧ 1 ≤ x1 + x2` gives `1 ≤ x1`, which Farkas' lemma over the rationals misses).
fn cuts(rows: &[Row]) -> Vec<Row> {
    let integral: Vec<&Row> = rows.iter().filter(|r| !r.coeffs.is_empty() && r.coeffs.keys().all(|v| v.sort == Sort::Int)).collect();
    if integral.len() > MAX_CUT_ROWS {
        return vec![];
    }
    let mut out = vec![];
    for (i, r) in integral.iter().enumerate() {
        for s in &integral[i + 1..] {
            for (v, a) in &r.coeffs {
                let Some(b) = s.coeffs.get(v).filter(|b| b.is_positive() != a.is_positive()) else { continue };
                let (wr, ws) = (b.abs(), a.abs());
                let mut coeffs = r.coeffs.clone();
                for c in coeffs.values_mut() {
                    *c *= &wr;
                }
                for (x, c) in &s.coeffs {
                    *coeffs.entry(x.clone()).or_insert_with(BigRational::zero) += c * &ws;
                }
                coeffs.retain(|_, c| !c.is_zero());
                let Some((x, c)) = coeffs.iter().next().map(|(x, c)| (x.clone(), c.clone())) else { continue };
                let constant = &r.constant * &wr + &s.constant * &ws;
                let (cut, _) = row(coeffs, constant.clone(), false);
                // the same row scaled without rounding has the constant `constant·factor`
                let factor = &cut.coeffs[&x] / c;
                if cut.constant > constant * factor {
                    out.push(cut);
                }
            }
        }
    }
    out
}

fn literal_rows(atom: &Term, pos: bool) -> Lit {
    let (op, a, b) = match (atom.op(), atom.args.as_slice()) {
        (Some(op @ (Op::Le | Op::Lt | Op::Eq)), [a, b]) if a.sort.is_arith() && b.sort.is_arith() => (op, a, b),
        _ => return Lit::Dropped,
    };
    let (Some(ab), Some(ba)) = (difference(a, b), difference(b, a)) else {
        return Lit::Dropped;
    };
    let parts = match (op, pos) {
        (Op::Le, true) => vec![(ab, false)],
        (Op::Le, false) => vec![(ba, true)],
        (Op::Lt, true) => vec![(ab, true)],
        (Op::Lt, false) => vec![(ba, false)],
        (Op::Eq, true) => vec![(ab, false), (ba, false)],
        // disequalities were split into cases before
        _ => return Lit::Dropped,
    };
    let mut rows = Vec::new();
    let mut weakened = false;
    for ((coeffs, constant), strict) in parts {
        let (r, w) = row(coeffs, constant, strict);
        weakened |= w;
        rows.push(r);
    }
    Lit::Rows(rows, weakened)
}

#[cfg(test)]
mod tests {
    use super::*;
    use smt::build::{distinct, ge, gt, int_div, ite, modulo, select};

    fn x() -> Term {
        Term::var("x", Sort::Int)
    }
    fn y() -> Term {
        Term::var("y", Sort::Int)
    }

    #[test]
    fn ite_and_disequalities_split() {
        // ite(x > 0, x, -x) = y ∧ x ≠ 3: 2 × 2 cases
        let abs = ite(&gt(&x(), &int(0)), &x(), &smt::build::neg(&x()));
        let d = dnf(&and(&[eq(&abs, &y()), distinct(&[x(), int(3)])]), 32).unwrap();
        assert_eq!(d.disjuncts.len(), 4);
        assert!(d.exact);
        // integer strict rows are tightened: x > 0 is -x + 1 ≤ 0
        let d = dnf(&gt(&x(), &int(0)), 32).unwrap();
        let one = BigRational::one();
        assert_eq!(d.disjuncts, vec![vec![Row { coeffs: [(x(), -one.clone())].into_iter().collect(), constant: one }]]);
    }

    #[test]
    fn div_mod_are_defined_and_others_dropped() {
        let d = dnf(&eq(&y(), &add2(int_div(&x(), &int(2)), modulo(&x(), &int(2)))), 32).unwrap();
        assert!(d.exact);
        // y = q + r, x = 2q + r (two rows each), 0 ≤ r, r ≤ 1
        assert_eq!(d.disjuncts[0].len(), 6);
        let a = Term::var("a", Sort::array(Sort::Int, Sort::Int));
        let d = dnf(&and(&[gt(&select(&a, &x()), &int(0)), gt(&x(), &int(0))]), 32).unwrap();
        assert!(!d.exact);
        assert_eq!(d.disjuncts[0].len(), 1);
    }

    #[test]
    fn too_many_disjuncts_give_up() {
        let parts: Vec<Term> = (0..6).map(|i| or(&[gt(&x(), &int(i)), gt(&y(), &int(i))])).collect();
        assert!(dnf(&and(&parts), 32).is_none());
        assert!(dnf(&and(&parts[..5]), 32).is_some());
    }

    #[test]
    fn integer_rows_get_their_cuts() {
        // x1 ≥ y ∧ x1 + y ≥ 1 over the integers: 2·x1 ≥ 1, so x1 ≥ 1
        let x1 = Term::var("x1", Sort::Int);
        let d = dnf(&and(&[ge(&x1, &y()), ge(&add2(x1.clone(), y()), &int(1))]), 32).unwrap();
        let one = BigRational::one();
        let cut = Row { coeffs: [(x1.clone(), -one.clone())].into_iter().collect(), constant: one };
        assert!(d.disjuncts[0].contains(&cut), "{:?}", d.disjuncts);
        assert_eq!(d.disjuncts[0].len(), 3);
        // 2·x1 ≥ 2 rounds to nothing stronger: no cut
        let d = dnf(&and(&[ge(&x1, &y()), ge(&add2(x1.clone(), y()), &int(2))]), 32).unwrap();
        assert_eq!(d.disjuncts[0].len(), 2);
    }

    fn add2(a: Term, b: Term) -> Term {
        smt::build::add(&[a, b])
    }
}
