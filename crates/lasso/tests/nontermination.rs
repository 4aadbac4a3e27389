mod common;

use common::*;
use ir::Stmt;
use lasso::{nontermination, nontermination_with_stats, NonterminationArgument, Settings, Stats};
use num_rational::BigRational;
use smt::build::{add, eq, ge, gt, int, mul, num, select, store, tt};
use smt::{Sort, Term};
use std::collections::BTreeMap;

fn value(t: &Term) -> BigRational {
    lasso_value(t).unwrap_or_else(|| panic!("not a number: {t}"))
}

fn lasso_value(t: &Term) -> Option<BigRational> {
    t.as_rational().or_else(|| match t.op() {
        Some(smt::Op::Neg) => Some(-lasso_value(&t.args[0])?),
        _ => None,
    })
}

/// The states x_1, .., x_n of a geometric argument's run from x1, as the crate documents
/// them: the coefficients `k` of the directions start at 0 and step to `1 + λⱼkⱼ + μⱼkⱼ₊₁`.
fn ray(
    x1: &BTreeMap<Term, Term>,
    ys: &[BTreeMap<Term, Term>],
    lambdas: &[BigRational],
    mus: &[BigRational],
    n: usize,
) -> Vec<BTreeMap<Term, Term>> {
    let zero = || BigRational::from_integer(0.into());
    let mut k = vec![zero(); ys.len()];
    let mut out = vec![];
    for _ in 0..n {
        out.push(
            x1.iter()
                .map(|(x, v)| {
                    let moved = ys.iter().zip(&k).map(|(y, kj)| y.get(x).map(value).unwrap_or_else(zero) * kj).fold(value(v), |a, b| a + b);
                    (x.clone(), num(moved, &x.sort))
                })
                .collect(),
        );
        k = (0..k.len())
            .map(|j| {
                BigRational::from_integer(1.into())
                    + &lambdas[j] * &k[j]
                    + mus.get(j).map_or_else(zero, |m| m * k.get(j + 1).cloned().unwrap_or_else(zero))
            })
            .collect();
    }
    out
}

/// Checks a geometric argument on its first `n` steps (the crate proves all of them); its
/// eigenvalues.
fn assert_geometric_runs(l: &lasso::Lasso, arg: &NonterminationArgument, n: usize) -> Vec<BigRational> {
    let NonterminationArgument::Geometric { x0, x1, directions, eigenvalues, nilpotent, .. } = arg else {
        panic!("not geometric: {arg:?}");
    };
    eprintln!("geometric: x0 {x0:?} x1 {x1:?} y {directions:?} λ {eigenvalues:?} μ {nilpotent:?}");
    assert_eq!((directions.len(), nilpotent.len() + 1), (eigenvalues.len(), eigenvalues.len()));
    assert!(stem_reaches(l, x0));
    assert!(loop_steps(l, x0, x1));
    let states = ray(x1, directions, eigenvalues, nilpotent, n);
    for w in states.windows(2) {
        assert!(loop_steps(l, &w[0], &w[1]), "{:?} -> {:?}", w[0], w[1]);
    }
    eigenvalues.clone()
}

fn rationals(v: &[i64]) -> Vec<BigRational> {
    v.iter().map(|&i| BigRational::from_integer(i.into())).collect()
}

#[test]
fn growing_loop_is_geometric_with_eigenvalue_one() {
    let x = int_var("x");
    let l = lasso(vec![], vec![Stmt::Assume(gt(&x, &int(0))), assign(&x, add(&[x.clone(), int(1)]))]);
    let arg = nontermination(&l, &Settings::default()).unwrap().expect("an argument");
    assert_eq!(assert_geometric_runs(&l, &arg, 8), rationals(&[1]));
}

#[test]
fn doubling_loop_has_eigenvalue_two() {
    let (x, y) = (int_var("x"), int_var("y"));
    let l = lasso(vec![], vec![Stmt::Assume(gt(&x, &int(0))), assign(&y, x.clone()), assign(&x, add(&[x.clone(), y.clone()]))]);
    let arg = nontermination(&l, &Settings::default()).unwrap().expect("an argument");
    assert_eq!(assert_geometric_runs(&l, &arg, 8), rationals(&[2]));
}

#[test]
fn the_stem_is_respected() {
    // x := 5; while (x >= 0) x := x + y — nonterminating only with y >= 0, which the stem
    // leaves open; with y := -1 it terminates
    let (x, y) = (int_var("x"), int_var("y"));
    let body = vec![Stmt::Assume(ge(&x, &int(0))), assign(&x, add(&[x.clone(), y.clone()]))];
    let l = lasso(vec![assign(&x, int(5))], body.clone());
    let arg = nontermination(&l, &Settings::default()).unwrap().expect("an argument");
    match &arg {
        NonterminationArgument::FixedPoint { state, period: 1 } => {
            assert!(stem_reaches(&l, state) && loop_steps(&l, state, state));
        }
        g => {
            assert_geometric_runs(&l, g, 6);
        }
    }
    let l = lasso(vec![assign(&x, int(5)), assign(&y, int(-1))], body);
    assert_eq!(nontermination(&l, &Settings::default()).unwrap(), None);
}

#[test]
fn skip_loop_is_a_fixed_point() {
    let x = int_var("x");
    let l = lasso(vec![assign(&x, int(3))], vec![Stmt::Assume(eq(&x, &x)), Stmt::Assume(tt())]);
    let arg = nontermination(&l, &Settings::default()).unwrap().expect("an argument");
    let NonterminationArgument::FixedPoint { state, period: 1 } = &arg else { panic!("not a fixed point: {arg:?}") };
    assert_eq!(state.get(&x), Some(&int(3)));
    assert!(stem_reaches(&l, state) && loop_steps(&l, state, state));
    // a loop that keeps x but changes nothing else
    let y = int_var("y");
    let l = lasso(vec![], vec![Stmt::Assume(gt(&x, &int(0))), assign(&y, x.clone())]);
    let arg = nontermination(&l, &Settings::default()).unwrap().expect("an argument");
    let NonterminationArgument::FixedPoint { state, period: 1 } = &arg else { panic!("not a fixed point: {arg:?}") };
    assert_eq!(state[&x], state[&y]);
}

#[test]
fn array_cells_move_along_rays() {
    // while (a[0] > 0) a[0] := a[0] + 1: the cell a[0] grows forever
    let a = Term::var("a", Sort::array(Sort::Int, Sort::Int));
    let cell = select(&a, &int(0));
    let l = lasso(vec![], vec![Stmt::Assume(gt(&cell, &int(0))), assign(&a, store(&a, &int(0), &add(&[cell.clone(), int(1)])))]);
    let arg = nontermination(&l, &Settings::default()).unwrap().expect("an argument");
    let NonterminationArgument::Geometric { x1, directions, .. } = &arg else { panic!("not geometric: {arg:?}") };
    assert!(value(&x1[&cell]) > BigRational::from_integer(0.into()));
    assert_eq!(value(&directions[0][&cell]), BigRational::from_integer(1.into()));
    // while (a[0] > 0) { a[0] := a[0] + 1; a[1] := a[0] - 5 }: the loop also writes a cell it
    // does not read at its head; the exact check refuses the ray of a[0] alone
    let write = assign(&a, store(&a, &int(1), &add(&[select(&a, &int(0)), int(-5)])));
    let l = lasso(vec![], vec![Stmt::Assume(gt(&cell, &int(0))), assign(&a, store(&a, &int(0), &add(&[cell.clone(), int(1)]))), write]);
    assert_eq!(nontermination(&l, &Settings::default()).unwrap(), None);
}

#[test]
fn products_give_no_argument() {
    // while (x > 0) x := x*x + 1: no fixed point, and not linear
    let x = int_var("x");
    let l = lasso(vec![], vec![Stmt::Assume(gt(&x, &int(0))), assign(&x, add(&[mul(&[x.clone(), x.clone()]), int(1)]))]);
    let mut stats = Stats::default();
    assert_eq!(nontermination_with_stats(&l, &Settings::default(), &mut stats).unwrap(), None);
    assert_eq!(stats.note.as_deref(), Some("the loop is not linear"));
}

#[test]
fn terminating_loops_give_no_argument() {
    let x = int_var("x");
    let l = lasso(vec![], vec![Stmt::Assume(gt(&x, &int(0))), assign(&x, add(&[x.clone(), int(-1)]))]);
    assert_eq!(nontermination(&l, &Settings::default()).unwrap(), None);
    // two growth rates: y/x grows by 3/2 per iteration, so y ≤ x fails eventually; no ray of
    // either eigenvalue (nor both) survives the exact check
    let y = int_var("y");
    let stem = vec![Stmt::Assume(ge(&y, &int(1)))];
    let body = vec![
        Stmt::Assume(ge(&x, &int(1))),
        Stmt::Assume(smt::build::le(&y, &x)),
        assign(&x, mul(&[int(2), x.clone()])),
        assign(&y, mul(&[int(3), y.clone()])),
    ];
    assert_eq!(nontermination(&lasso(stem, body), &Settings::default()).unwrap(), None);
}

#[test]
fn alternating_branches_are_a_cycle_of_two() {
    // while (x > 0) { if * { x := x + 1; assume x < 10 } else { x := x - 1 } }: no fixed
    // point and no ray, but x = 1 → 2 → 1 ...
    let x = int_var("x");
    let grow = Stmt::Seq(vec![assign(&x, add(&[x.clone(), int(1)])), Stmt::Assume(smt::build::lt(&x, &int(10)))]);
    let shrink = assign(&x, add(&[x.clone(), int(-1)]));
    let l = lasso(vec![], vec![Stmt::Assume(gt(&x, &int(0))), Stmt::Choice(vec![grow, shrink])]);
    let arg = nontermination(&l, &Settings::default()).unwrap().expect("an argument");
    let NonterminationArgument::FixedPoint { state, period: 2 } = &arg else { panic!("not a cycle of two: {arg:?}") };
    let at =
        |d: i64| -> BTreeMap<Term, Term> { [(x.clone(), num(value(&state[&x]) + BigRational::from_integer(d.into()), &Sort::Int))].into() };
    assert!([1, -1].iter().any(|&d| loop_steps(&l, state, &at(d)) && loop_steps(&l, &at(d), state)));
}

#[test]
fn two_growth_rates_need_two_directions() {
    // x, y := 1, 1; while (x - y >= -2 && y >= 1) { x := 3x; y := 2y }: x - y = 3^t - 2^t
    // grows, but the direction of y alone leaves the guard: its image is coupled (μ = 1)
    // to the direction of x
    let (x, y) = (int_var("x"), int_var("y"));
    let stem = vec![assign(&x, int(1)), assign(&y, int(1))];
    let body = vec![
        Stmt::Assume(ge(&smt::build::sub(&x, &y), &int(-2))),
        Stmt::Assume(ge(&y, &int(1))),
        assign(&x, mul(&[int(3), x.clone()])),
        assign(&y, mul(&[int(2), y.clone()])),
    ];
    let l = lasso(stem, body);
    let arg = nontermination(&l, &Settings::default()).unwrap().expect("an argument");
    let mut lambdas = assert_geometric_runs(&l, &arg, 10);
    lambdas.sort();
    assert_eq!(lambdas, rationals(&[2, 3]));
}

#[test]
fn real_loops_may_have_fractional_eigenvalues() {
    // while (x + y >= 1 && x <= -1) { x := 2.5x; y := 3y } over the reals
    let (x, y) = (Term::var("x", Sort::Real), Term::var("y", Sort::Real));
    let r = |v: i64, d: i64| smt::build::real(BigRational::new(v.into(), d.into()));
    let body = vec![
        Stmt::Assume(ge(&add(&[x.clone(), y.clone()]), &r(1, 1))),
        Stmt::Assume(smt::build::le(&x, &r(-1, 1))),
        assign(&x, mul(&[r(5, 2), x.clone()])),
        assign(&y, mul(&[r(3, 1), y.clone()])),
    ];
    let l = lasso(vec![], body);
    let arg = nontermination(&l, &Settings::default()).unwrap().expect("an argument");
    let lambdas = assert_geometric_runs(&l, &arg, 10);
    assert!(lambdas.contains(&BigRational::new(5.into(), 2.into())), "{lambdas:?}");
}

#[test]
fn strict_real_guards_still_give_rays() {
    // while (x > 0.0) x := 2.0·x + 1.0 over the reals: the DNF weakens `x > 0` to `x ≥ 0`,
    // so the first step is taken on the exact loop
    let x = Term::var("x", Sort::Real);
    let r = |v: i64| smt::build::real(BigRational::from_integer(v.into()));
    let l = lasso(vec![], vec![Stmt::Assume(gt(&x, &r(0))), assign(&x, add(&[mul(&[r(2), x.clone()]), r(1)]))]);
    let arg = nontermination(&l, &Settings::default()).unwrap().expect("an argument");
    assert_geometric_runs(&l, &arg, 8);
}
