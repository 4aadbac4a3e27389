//! Nested traces: scoped SSA, trace checks and nested Newton sequences with exact outcomes.
//!
//! The trace: `x := 5; y := f(x + 1); assume φ` with `f(x) { r := 2 * x; return r }` — the
//! callee's parameter has the caller's name `x`, as in a recursive procedure.

use ir::{ReturnLetter, Stmt, TransFormula};
use refine::farkas::farkas_nested_sequence;
use refine::nested::{check_inductive_nested, newton_nested, Nesting, StepKind};
use refine::newton::{NewtonOptions, Transformer};
use refine::{check_scoped_trace, TraceCheck};
use smt::build::*;
use smt::z3backend::Z3Solver;
use smt::{Sort, Term};
use std::collections::BTreeSet;

fn iv(n: &str) -> Term {
    Term::var(n, Sort::Int)
}

fn trace(last: Term) -> (Vec<TransFormula>, Nesting) {
    let (x, y, r) = (iv("x"), iv("y"), iv("r"));
    // The callee does not assign its parameter: it is linked to the argument.
    let ret = ReturnLetter { assign: vec![(y.clone(), r.clone())], links: vec![(x.clone(), add(&[x.clone(), int(1)]))], kept: vec![] };
    let steps = [
        Stmt::Assign(vec![(x.clone(), int(5))]),
        Stmt::Seq(vec![Stmt::Assign(vec![(x.clone(), add(&[x.clone(), int(1)]))]), Stmt::Havoc(vec![r.clone()])]),
        Stmt::Assign(vec![(r.clone(), mul(&[int(2), x.clone()]))]),
        Stmt::Assign(ret.assign.clone()),
        Stmt::Assume(last),
    ];
    let kinds = vec![StepKind::Internal, StepKind::Call, StepKind::Internal, StepKind::Return { call: 1, letter: ret }, StepKind::Internal];
    let nesting = Nesting { kinds, globals: BTreeSet::new(), locals: [x, y, r].into_iter().collect() };
    (steps.iter().map(Stmt::trans_formula).collect(), nesting)
}

#[test]
fn caller_frame_comes_back_after_the_return() {
    let (x, y) = (iv("x"), iv("y"));
    let (t, n) = trace(and(&[eq(&x, &int(5)), eq(&y, &int(12))]));
    assert!(matches!(check_scoped_trace(&t, Some(&n), &mut Z3Solver::new()), TraceCheck::Feasible(_)));
    // Without scopes, x would still be the callee's 6.
    let (t, n) = trace(not(&eq(&x, &int(5))));
    assert!(matches!(check_scoped_trace(&t, Some(&n), &mut Z3Solver::new()), TraceCheck::Infeasible { .. }));
    assert!(matches!(refine::check_trace(&t, &mut Z3Solver::new()), TraceCheck::Feasible(_)));
}

#[test]
fn nested_sequences_are_inductive() {
    let y = iv("y");
    let (t, n) = trace(not(&eq(&y, &int(12))));
    let mut s = Z3Solver::new();
    let core = match check_scoped_trace(&t, Some(&n), &mut s) {
        TraceCheck::Infeasible { core } => core,
        other => panic!("expected infeasible, got {other:?}"),
    };
    let variants = [(false, false), (true, true), (false, true), (true, false)];
    for (transformer, it, lv) in
        variants.map(|(i, l)| (Transformer::Sp, i, l)).into_iter().chain([(Transformer::Wp, false, false), (Transformer::Wp, true, false)])
    {
        let opts = NewtonOptions { transformer, it, lv };
        let seq = newton_nested(&t, &n, &core, opts, &mut s).expect("a sequence");
        assert_eq!(check_inductive_nested(&seq.preds, &t, &n, &mut s), Some(true), "{}: {:?}", opts.name(), seq.preds);
    }
    // With lv, the assertion inside the callee speaks of its own frame only (x, r), not of y.
    let opts = NewtonOptions { transformer: Transformer::Sp, it: true, lv: true };
    let seq = newton_nested(&t, &n, &core, opts, &mut s).unwrap();
    assert!(!smt::subst::free_vars(&seq.preds[3]).contains(&y), "{:?}", seq.preds);
}

#[test]
fn tree_interpolants_are_inductive_summaries() {
    let (x, y, r) = (iv("x"), iv("y"), iv("r"));
    // y = 12 is the only outcome; y ≠ 12 is split into y < 12 and 12 < y.
    let (t, n) = trace(not(&eq(&y, &int(12))));
    let mut s = Z3Solver::new();
    let core = match check_scoped_trace(&t, Some(&n), &mut s) {
        TraceCheck::Infeasible { core } => core,
        other => panic!("expected infeasible, got {other:?}"),
    };
    let preds = farkas_nested_sequence(&t, &n, &core, &mut s).expect("tree interpolants");
    assert_eq!(check_inductive_nested(&preds, &t, &n, &mut s), Some(true), "{preds:?}");
    // The callee's entry knows nothing of the call site; after `r := 2 * x` its assertion
    // relates its own frame only: a summary that holds for every argument.
    assert!(preds[2].is_true(), "{preds:?}");
    let inside = smt::subst::free_vars(&preds[3]);
    assert!(!inside.is_empty() && inside.iter().all(|v| *v == x || *v == r), "{preds:?}");
}
