mod common;

use common::*;
use ir::Stmt;
use lasso::{nontermination, nontermination_with_stats, NonterminationArgument, Settings, Stats};
use num_bigint::BigInt;
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

/// The states x_1, .., x_n of a geometric argument, as the crate documents them.
fn ray(x1: &BTreeMap<Term, Term>, y: &BTreeMap<Term, Term>, lambda: &BigInt, n: usize) -> Vec<BTreeMap<Term, Term>> {
    let lambda = BigRational::from_integer(lambda.clone());
    let mut s = BigRational::from_integer(0.into());
    let mut out = vec![];
    for _ in 0..n {
        out.push(
            x1.iter()
                .map(|(x, v)| {
                    let d = y.get(x).map(value).unwrap_or_else(|| BigRational::from_integer(0.into()));
                    (x.clone(), num(value(v) + &s * d, &x.sort))
                })
                .collect(),
        );
        s = BigRational::from_integer(1.into()) + &lambda * s;
    }
    out
}

/// Checks a geometric argument on its first `n` steps (the crate proves all of them).
fn assert_geometric_runs(l: &lasso::Lasso, arg: &NonterminationArgument, n: usize) -> BigInt {
    let NonterminationArgument::Geometric { x0, x1, directions, eigenvalues, .. } = arg else {
        panic!("not geometric: {arg:?}");
    };
    eprintln!("geometric: x0 {x0:?} x1 {x1:?} y {directions:?} λ {eigenvalues:?}");
    assert_eq!((directions.len(), eigenvalues.len()), (1, 1));
    assert!(stem_reaches(l, x0));
    assert!(loop_steps(l, x0, x1));
    let states = ray(x1, &directions[0], &eigenvalues[0], n);
    for w in states.windows(2) {
        assert!(loop_steps(l, &w[0], &w[1]), "{:?} -> {:?}", w[0], w[1]);
    }
    eigenvalues[0].clone()
}

#[test]
fn growing_loop_is_geometric_with_eigenvalue_one() {
    let x = int_var("x");
    let l = lasso(vec![], vec![Stmt::Assume(gt(&x, &int(0))), assign(&x, add(&[x.clone(), int(1)]))]);
    let arg = nontermination(&l, &Settings::default()).unwrap().expect("an argument");
    assert_eq!(assert_geometric_runs(&l, &arg, 8), BigInt::from(1));
}

#[test]
fn doubling_loop_has_eigenvalue_two() {
    let (x, y) = (int_var("x"), int_var("y"));
    let l = lasso(vec![], vec![Stmt::Assume(gt(&x, &int(0))), assign(&y, x.clone()), assign(&x, add(&[x.clone(), y.clone()]))]);
    let arg = nontermination(&l, &Settings::default()).unwrap().expect("an argument");
    assert_eq!(assert_geometric_runs(&l, &arg, 8), BigInt::from(2));
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
        NonterminationArgument::FixedPoint { state } => {
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
    let NonterminationArgument::FixedPoint { state } = &arg else { panic!("not a fixed point: {arg:?}") };
    assert_eq!(state.get(&x), Some(&int(3)));
    assert!(stem_reaches(&l, state) && loop_steps(&l, state, state));
    // a loop that keeps x but changes nothing else
    let y = int_var("y");
    let l = lasso(vec![], vec![Stmt::Assume(gt(&x, &int(0))), assign(&y, x.clone())]);
    let arg = nontermination(&l, &Settings::default()).unwrap().expect("an argument");
    let NonterminationArgument::FixedPoint { state } = &arg else { panic!("not a fixed point: {arg:?}") };
    assert_eq!(state[&x], state[&y]);
}

#[test]
fn arrays_and_products_give_no_argument() {
    // while (a[0] > 0) a[0] := a[0] + 1 — it does not terminate, but we cannot argue
    let a = Term::var("a", Sort::array(Sort::Int, Sort::Int));
    let cell = select(&a, &int(0));
    let l = lasso(vec![], vec![Stmt::Assume(gt(&cell, &int(0))), assign(&a, store(&a, &int(0), &add(&[cell.clone(), int(1)])))]);
    let mut stats = Stats::default();
    assert_eq!(nontermination_with_stats(&l, &Settings::default(), &mut stats).unwrap(), None);
    assert!(stats.note.is_some());
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
    // a disjunctive loop whose branches alternate cannot be fooled by one branch's ray:
    // while (x > 0) { if * { x := x + 1; assume x < 10 } else { x := x - 1 } }
    let grow = Stmt::Seq(vec![assign(&x, add(&[x.clone(), int(1)])), Stmt::Assume(smt::build::lt(&x, &int(10)))]);
    let shrink = assign(&x, add(&[x.clone(), int(-1)]));
    let l = lasso(vec![], vec![Stmt::Assume(gt(&x, &int(0))), Stmt::Choice(vec![grow, shrink])]);
    // it does not terminate (x = 1 → 2 → 1 ...), but no fixed point and no ray exists
    let r = nontermination(&l, &Settings::default()).unwrap();
    assert_eq!(r, None);
}
