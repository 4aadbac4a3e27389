mod common;

use common::*;
use ir::Stmt;
use lasso::{ranking_function, ranking_function_with_stats, Settings, Stats, Template};
use smt::build::{add, and, ge, gt, int, mul, select, sub};
use smt::{Sort, Term};

#[test]
fn countdown_is_affine() {
    let x = int_var("x");
    let l = lasso(vec![], vec![Stmt::Assume(gt(&x, &int(0))), assign(&x, sub(&x, &int(1)))]);
    let rf = ranking_function(&l, &Settings::default()).unwrap().expect("a ranking function");
    assert_eq!(rf.template, Template::Affine);
    assert_eq!(rf.components.len(), 1);
    assert!(rf.supporting_invariants.is_empty());
    assert_ranking_valid(&l, &rf);
    assert_eq!(rf.template.to_string(), "affine");
}

#[test]
fn negative_step_needs_a_supporting_invariant() {
    let (x, y) = (int_var("x"), int_var("y"));
    let l = lasso(vec![assign(&y, int(-1))], vec![Stmt::Assume(gt(&x, &int(0))), assign(&x, add(&[x.clone(), y.clone()]))]);
    let mut stats = Stats::default();
    let rf = ranking_function_with_stats(&l, &Settings::default(), &mut stats).unwrap().expect("a ranking function");
    assert_eq!(rf.template, Template::Affine);
    assert!(!rf.supporting_invariants.is_empty());
    assert_ranking_valid(&l, &rf);
    assert_eq!(stats.found, Some(Template::Affine));
    assert!(stats.queries > 0);
    // without the stem's fact there is none
    let free = lasso(vec![], vec![Stmt::Assume(gt(&x, &int(0))), assign(&x, add(&[x.clone(), y.clone()]))]);
    assert_eq!(ranking_function(&free, &Settings::default()).unwrap(), None);
}

#[test]
fn two_phases_need_more_than_affine() {
    let (x, y) = (int_var("x"), int_var("y"));
    let body = vec![Stmt::Assume(ge(&x, &int(0))), assign(&x, add(&[x.clone(), y.clone()])), assign(&y, sub(&y, &int(1)))];
    let l = lasso(vec![], body);
    let mut stats = Stats::default();
    let rf = ranking_function_with_stats(&l, &Settings::default(), &mut stats).unwrap().expect("a ranking function");
    assert_eq!(rf.template, Template::Nested(2));
    assert_eq!(stats.tried[0], Template::Affine);
    assert_ranking_valid(&l, &rf);
    // and with only multiphase templates
    let settings = Settings { templates: vec![Template::Affine, Template::Multiphase(2)], ..Settings::default() };
    let rf = ranking_function(&l, &settings).unwrap().expect("a multiphase ranking function");
    assert_eq!(rf.template, Template::Multiphase(2));
    assert_eq!(rf.template.to_string(), "multiphase-2");
    assert_ranking_valid(&l, &rf);
}

#[test]
fn choice_is_lexicographic() {
    let (x, y) = (int_var("x"), int_var("y"));
    let left = assign(&x, sub(&x, &int(1)));
    let right = Stmt::Seq(vec![Stmt::Havoc(vec![x.clone()]), assign(&y, sub(&y, &int(1)))]);
    let guard = Stmt::Assume(and(&[gt(&x, &int(0)), gt(&y, &int(0))]));
    let l = lasso(vec![], vec![guard, Stmt::Choice(vec![left, right])]);
    let rf = ranking_function(&l, &Settings::default()).unwrap().expect("a ranking function");
    assert_eq!(rf.template, Template::Lexicographic(2));
    assert_eq!(rf.template.to_string(), "lexicographic-2");
    assert_ranking_valid(&l, &rf);
}

#[test]
fn growing_loop_has_no_ranking_function() {
    let x = int_var("x");
    let l = lasso(vec![], vec![Stmt::Assume(gt(&x, &int(0))), assign(&x, add(&[x.clone(), int(1)]))]);
    let mut stats = Stats::default();
    assert_eq!(ranking_function_with_stats(&l, &Settings::default(), &mut stats).unwrap(), None);
    assert_eq!(stats.tried.len(), Settings::default().templates.len());
    assert_eq!(stats.found, None);
}

#[test]
fn dropped_atoms_weaken_the_premise_only() {
    // while (x > 0 && a[x] == 0 && b) { x := x - 1; y := y * y }: the array read, the Boolean
    // and the product are dropped, the ranking function still holds
    let (x, y) = (int_var("x"), int_var("y"));
    let a = Term::var("a", Sort::array(Sort::Int, Sort::Int));
    let b = Term::var("b", Sort::Bool);
    let guard = and(&[gt(&x, &int(0)), smt::build::eq(&select(&a, &x), &int(0)), b.clone()]);
    let l = lasso(vec![], vec![Stmt::Assume(guard), assign(&x, sub(&x, &int(1))), assign(&y, mul(&[y.clone(), y.clone()]))]);
    let rf = ranking_function(&l, &Settings::default()).unwrap().expect("a ranking function");
    assert_eq!(rf.template, Template::Affine);
    assert_ranking_valid(&l, &rf);
}

#[test]
fn div_and_mod_are_exact() {
    // while (x > 1) x := x div 2
    let x = int_var("x");
    let l = lasso(vec![], vec![Stmt::Assume(gt(&x, &int(1))), assign(&x, smt::build::int_div(&x, &int(2)))]);
    let rf = ranking_function(&l, &Settings::default()).unwrap().expect("a ranking function");
    assert_eq!(rf.template, Template::Affine);
    assert_ranking_valid(&l, &rf);
}

#[test]
fn odd_input_gives_no_answer_and_no_panic() {
    // only Booleans: no arithmetic template variables
    let b = Term::var("b", Sort::Bool);
    let l = lasso(vec![], vec![Stmt::Assume(b.clone()), Stmt::Havoc(vec![b])]);
    assert_eq!(ranking_function(&l, &Settings::default()).unwrap(), None);
    // a quantifier in the guard
    let (x, q) = (int_var("x"), int_var("q"));
    let all = smt::build::forall(std::slice::from_ref(&q), &ge(&add(&[q.clone(), x.clone()]), &q));
    let l = lasso(vec![], vec![Stmt::Assume(and(&[all, gt(&x, &int(0))])), assign(&x, sub(&x, &int(1)))]);
    let rf = ranking_function(&l, &Settings::default()).unwrap().expect("the quantifier is only dropped");
    assert_ranking_valid(&l, &rf);
    // bit-vectors
    let v = Term::var("v", Sort::BitVec(8));
    let l = lasso(vec![], vec![Stmt::Havoc(vec![v])]);
    assert_eq!(ranking_function(&l, &Settings::default()).unwrap(), None);
}

#[test]
fn three_nested_phases() {
    // while (x >= 0) { x := x + y; y := y + z; z := z - 1 }
    let (x, y, z) = (int_var("x"), int_var("y"), int_var("z"));
    let body = vec![
        Stmt::Assume(ge(&x, &int(0))),
        assign(&x, add(&[x.clone(), y.clone()])),
        assign(&y, add(&[y.clone(), z.clone()])),
        assign(&z, sub(&z, &int(1))),
    ];
    let l = lasso(vec![], body);
    let started = std::time::Instant::now();
    let rf = ranking_function(&l, &Settings::default()).unwrap().expect("a ranking function");
    eprintln!("three phases in {:?}", started.elapsed());
    assert_eq!(rf.template, Template::Nested(3));
    assert_ranking_valid(&l, &rf);
}

#[test]
fn malformed_formulas_are_errors() {
    // an instance whose sort is not its variable's
    let (x, b) = (int_var("x"), Term::var("b", Sort::Bool));
    let mut looped = trans(&Stmt::Assume(b.clone()));
    looped.in_vars.insert(x.clone(), b);
    let l = lasso::Lasso { stem: ir::TransFormula::skip(), looped };
    assert!(ranking_function(&l, &Settings::default()).is_err());
    assert!(lasso::nontermination(&l, &Settings::default()).is_err());
}

#[test]
fn deadline_in_the_past_gives_up_at_once() {
    let x = int_var("x");
    let l = lasso(vec![], vec![Stmt::Assume(gt(&x, &int(0))), assign(&x, sub(&x, &int(1)))]);
    let settings = Settings { deadline: Some(std::time::Instant::now()), ..Settings::default() };
    let mut stats = Stats::default();
    assert_eq!(ranking_function_with_stats(&l, &settings, &mut stats).unwrap(), None);
    assert_eq!(stats.queries, 0);
    assert_eq!(stats.note.as_deref(), Some("deadline"));
}

#[test]
fn array_cells_are_ranked() {
    // while (a[i] >= 0) a[i] := a[i] - 1: the cell counts down
    let i = int_var("i");
    let a = Term::var("a", Sort::array(Sort::Int, Sort::Int));
    let cell = select(&a, &i);
    let down = smt::build::store(&a, &i, &sub(&cell, &int(1)));
    let l = lasso(vec![], vec![Stmt::Assume(ge(&cell, &int(0))), assign(&a, down)]);
    let rf = ranking_function(&l, &Settings::default()).unwrap().expect("a ranking function");
    assert_eq!(rf.template, Template::Affine);
    assert_eq!(rf.components, vec![cell.clone()]);
    assert_ranking_valid(&l, &rf);
    // a pointer walk bounded by its object's length: while (o + 1 <= len[p]) { p := p; o := o + 1 }
    let (p, o) = (int_var("p"), int_var("o"));
    let len = Term::var("len", Sort::array(Sort::Int, Sort::Int));
    let bound = smt::build::le(&add(&[o.clone(), int(1)]), &select(&len, &p));
    let l = lasso(vec![], vec![Stmt::Assume(bound), Stmt::Assign(vec![(p.clone(), p.clone()), (o.clone(), add(&[o.clone(), int(1)]))])]);
    let rf = ranking_function(&l, &Settings::default()).unwrap().expect("a ranking function");
    assert_eq!(rf.template, Template::Affine);
    assert_ranking_valid(&l, &rf);
}

#[test]
fn the_stems_facts_about_kept_variables_hold_in_the_loop() {
    // assume i != j; while (a[i] >= 0) { a[j] := a[j] + 1; a[i] := a[i] - 1 }: the cell a[i]
    // decreases only because the other write is elsewhere, which no linear invariant says
    let (i, j) = (int_var("i"), int_var("j"));
    let a = Term::var("a", Sort::array(Sort::Int, Sort::Int));
    let up = smt::build::store(&a, &j, &add(&[select(&a, &j), int(1)]));
    let down = smt::build::store(&a, &i, &sub(&select(&a, &i), &int(1)));
    let body = vec![Stmt::Assume(ge(&select(&a, &i), &int(0))), assign(&a, up), assign(&a, down)];
    let apart = Stmt::Assume(smt::build::not(&smt::build::eq(&i, &j)));
    let l = lasso(vec![apart], body.clone());
    // (the quick linear problems suffice: the others without the fact would take their time)
    let quick_problems = Settings { stage: lasso::Stage::Quick, ..Settings::default() };
    let rf = ranking_function(&l, &quick_problems).unwrap().expect("a ranking function");
    assert_eq!(rf.components, vec![select(&a, &i)]);
    assert!(rf.supporting_invariants.contains(&smt::build::not(&smt::build::eq(&i, &j))), "{rf:?}");
    assert_ranking_valid(&l, &rf);
    // without the fact, a[i] may grow when i = j
    let quick = Settings { templates: vec![Template::Affine], timeout_ms: 1000, ..Settings::default() };
    assert_eq!(ranking_function(&lasso(vec![], body), &quick).unwrap(), None);
}

#[test]
fn real_variables_are_ranked_over_the_reals() {
    // while (x >= y) x := x - 1.0 over the reals; the function is real-valued
    let (x, y) = (Term::var("x", Sort::Real), Term::var("y", Sort::Real));
    let one = smt::build::real(num_rational::BigRational::from_integer(1.into()));
    let l = lasso(vec![], vec![Stmt::Assume(ge(&x, &y)), assign(&x, sub(&x, &one))]);
    let rf = ranking_function(&l, &Settings::default()).unwrap().expect("a ranking function");
    assert_eq!(rf.template, Template::Affine);
    assert_eq!(rf.components[0].sort, Sort::Real);
    assert_ranking_valid(&l, &rf);
}

#[test]
fn a_boolean_and_its_negation_exclude_a_case() {
    // while (true) { b := x >= 0; assume b; x := x - 1 }: the case b ∧ x < 0 of the
    // definition contradicts `assume b` although the DNF drops both Boolean atoms
    let x = int_var("x");
    let b = Term::var("b", Sort::Bool);
    let body = vec![assign(&b, ge(&x, &int(0))), Stmt::Assume(b.clone()), assign(&x, sub(&x, &int(1)))];
    let l = lasso(vec![], body);
    let rf = ranking_function(&l, &Settings::default()).unwrap().expect("a ranking function");
    assert_eq!(rf.template, Template::Affine);
    assert_ranking_valid(&l, &rf);
}

#[test]
fn a_template_premise_that_does_not_help_is_left_out() {
    // while (x >= 0 || y >= 0) { x--; y-- }: multiphase (y + 1, x + 1) — once y < 0 the
    // guard gives x ≥ 0 in the case `x >= 0` without the premise `y + 1 ≤ 0`, which no row
    // of that case could cancel; the linear problems find it
    let (x, y) = (int_var("x"), int_var("y"));
    let guard = Stmt::Assume(smt::build::or(&[ge(&x, &int(0)), ge(&y, &int(0))]));
    let l = lasso(vec![], vec![guard, assign(&x, sub(&x, &int(1))), assign(&y, sub(&y, &int(1)))]);
    let linear = Settings { stage: lasso::Stage::Linear, ..Settings::default() };
    let rf = ranking_function(&l, &linear).unwrap().expect("a ranking function");
    assert_eq!(rf.template, Template::Multiphase(2));
    assert_ranking_valid(&l, &rf);
}

#[test]
fn ranking_functions_leave_out_kept_variables_where_they_can() {
    // assume n > 0; while (i > 0 && j <= n) { i := i - 1 }: `i` ranks the loop; a function that
    // adds the kept `n` or `j` would hold too, but only under the stem's facts
    let (i, j, n) = (int_var("i"), int_var("j"), int_var("n"));
    let body = vec![Stmt::Assume(gt(&i, &int(0))), Stmt::Assume(smt::build::le(&j, &n)), assign(&i, sub(&i, &int(1)))];
    let l = lasso(vec![Stmt::Assume(gt(&n, &int(0)))], body);
    let rf = ranking_function(&l, &Settings::default()).unwrap().expect("a ranking function");
    let vars = smt::subst::free_vars(&rf.components[0]);
    assert!(vars.iter().all(|v| *v == i), "{rf:?}");
    assert_ranking_valid(&l, &rf);
}

#[test]
fn ranking_functions_leave_out_changed_variables_where_they_can() {
    // while (i > 0 && j <= 0) { j := n; i := i - 1; assume j > 0; j := j - 1 } (a round of a
    // loop that resets `j`): `i` ranks it, and so would `2·i - j`, which only ranks the other
    // rounds of the program's loop while `j` stays below `n`
    let (i, j, n) = (int_var("i"), int_var("j"), int_var("n"));
    let body = vec![
        Stmt::Assume(gt(&i, &int(0))),
        Stmt::Assume(smt::build::le(&j, &int(0))),
        assign(&j, n.clone()),
        assign(&i, sub(&i, &int(1))),
        Stmt::Assume(gt(&j, &int(0))),
        assign(&j, sub(&j, &int(1))),
    ];
    let l = lasso(vec![], body);
    let rf = ranking_function(&l, &Settings::default()).unwrap().expect("a ranking function");
    let vars = smt::subst::free_vars(&rf.components[0]);
    assert!(vars.iter().all(|v| *v == i), "{rf:?}");
    assert_ranking_valid(&l, &rf);
}

#[test]
fn a_supporting_invariant_is_a_premise_only_where_it_helps() {
    // t := 1; x := t + 2; while (y < 100) y := y + x: `99 - y` decreases because `x ≥ 1`;
    // an invariant whose multiplier were fixed to 1 would be a premise of the bound `99 - y ≥ 0`
    // and of the other invariant's consecution, where nothing cancels its `x`
    let (t, x, y) = (int_var("t"), int_var("x"), int_var("y"));
    let stem = vec![assign(&t, int(1)), assign(&x, add(&[t.clone(), int(2)]))];
    let body = vec![Stmt::Assume(smt::build::lt(&y, &int(100))), assign(&y, add(&[y.clone(), x.clone()]))];
    let l = lasso(stem, body);
    let linear = Settings { stage: lasso::Stage::Linear, ..Settings::default() };
    let rf = ranking_function(&l, &linear).unwrap().expect("a ranking function");
    assert_eq!(rf.template, Template::Affine);
    assert_eq!(smt::subst::free_vars(&rf.components[0]), [y].into_iter().collect(), "{rf:?}");
    // over the kept variable alone: the bounds of `y` play no part
    assert!(!rf.supporting_invariants.is_empty(), "{rf:?}");
    for si in &rf.supporting_invariants {
        assert_eq!(smt::subst::free_vars(si), [x.clone()].into_iter().collect(), "{rf:?}");
    }
    assert_ranking_valid(&l, &rf);
}

#[test]
fn euclids_loop_needs_two_invariants_each_where_it_helps() {
    // assume y1 > 0 && y2 > 0; while (y1 != y2) if (y1 > y2) y1 := y1 - y2 else y2 := y2 - y1:
    // `y1 + y2` decreases by `y2 ≥ 1` in one branch and by `y1 ≥ 1` in the other
    let (y1, y2) = (int_var("y1"), int_var("y2"));
    let stem = vec![Stmt::Assume(and(&[gt(&y1, &int(0)), gt(&y2, &int(0))]))];
    let left = Stmt::Seq(vec![Stmt::Assume(gt(&y1, &y2)), assign(&y1, sub(&y1, &y2))]);
    let right = Stmt::Seq(vec![Stmt::Assume(smt::build::le(&y1, &y2)), assign(&y2, sub(&y2, &y1))]);
    let guard = Stmt::Assume(smt::build::not(&smt::build::eq(&y1, &y2)));
    let l = lasso(stem, vec![guard, Stmt::Choice(vec![left, right])]);
    let linear = Settings { stage: lasso::Stage::Linear, ..Settings::default() };
    let rf = ranking_function(&l, &linear).unwrap().expect("a ranking function");
    assert_eq!(rf.template, Template::Affine);
    assert_eq!(rf.supporting_invariants.len(), 2, "{rf:?}");
    assert_ranking_valid(&l, &rf);
}
