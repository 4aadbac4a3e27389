//! Transition formulas, large-block encoding and entry preparation, checked semantically.

use ir::{Acceleration, Call, Cfg, Edge, Label, Procedure, Program, Stmt, TransFormula, Violation, ViolationKind};
use smt::build::*;
use smt::simplify::is_valid;
use smt::subst::substitute;
use smt::{Sort, Term};
use std::collections::HashMap;

fn x() -> Term {
    Term::var("x", Sort::Int)
}
fn y() -> Term {
    Term::var("y", Sort::Int)
}

/// The relation of a transition formula with in-instances renamed to `pre` and out-instances
/// to `post` (unchanged variables get `post = pre`).
fn relation(tf: &TransFormula, vars: &[Term], pre: &[Term], post: &[Term]) -> Term {
    let mut map = HashMap::new();
    let mut frame = vec![];
    for (i, v) in vars.iter().enumerate() {
        if let Some(t) = tf.in_vars.get(v) {
            map.insert(t.clone(), pre[i].clone());
        }
        match tf.out_vars.get(v) {
            Some(t) if tf.in_vars.get(v) != Some(t) => {
                map.insert(t.clone(), post[i].clone());
            }
            _ => frame.push(eq(&post[i], &pre[i])),
        }
    }
    let body = and(&[substitute(&tf.formula, &map), and(&frame)]);
    exists(&tf.aux_vars.iter().cloned().collect::<Vec<_>>(), &body)
}

/// The relation of `tf` over `x` and `y`, with the values `x0`, `y0` before and `x1`, `y1` after.
fn xy_relation(tf: &TransFormula) -> (Term, [Term; 4]) {
    let [x0, y0, x1, y1] = ["x0", "y0", "x1", "y1"].map(|n| Term::var(n, Sort::Int));
    let rel = relation(tf, &[x(), y()], &[x0.clone(), y0.clone()], &[x1.clone(), y1.clone()]);
    (rel, [x0, y0, x1, y1])
}

fn equivalent(a: &Term, b: &Term) -> bool {
    is_valid(&and(&[implies(a, b), implies(b, a)]), 5000) == Some(true)
}

#[test]
fn sequential_composition_is_relational_product() {
    let s = Stmt::Seq(vec![
        Stmt::Assign(vec![(x(), add(&[x(), int(1)]))]),
        Stmt::Assign(vec![(y(), mul(&[int(2), x()]))]),
        Stmt::Havoc(vec![x()]),
        Stmt::Assume(lt(&x(), &y())),
    ]);
    let tf = s.trans_formula();
    let (rel, [x0, _, x1, y1]) = xy_relation(&tf);
    let expected = and(&[eq(&y1, &mul(&[int(2), add(&[x0, int(1)])])), lt(&x1, &y1)]);
    assert!(equivalent(&rel, &expected), "{rel}");
}

#[test]
fn a_sequence_renames_each_part_once_to_the_same_relation() {
    // assignments, a havoc, a read, a choice with its own auxiliaries, written twice over
    let parts = [
        Stmt::Assign(vec![(x(), add(&[x(), y()]))]),
        Stmt::Havoc(vec![y()]),
        Stmt::Assume(gt(&y(), &x())),
        Stmt::Choice(vec![Stmt::Assign(vec![(x(), int(5))]), Stmt::Havoc(vec![x()])]),
        Stmt::Assign(vec![(y(), sub(&y(), &x()))]),
        Stmt::Assume(le(&x(), &int(7))),
    ]
    .map(|s| s.trans_formula());
    let folded = parts.iter().fold(TransFormula::skip(), |tf, p| tf.sequence(p));
    let at_once = TransFormula::sequence_all(&parts);
    let (rel, _) = xy_relation(&at_once);
    let (expected, _) = xy_relation(&folded);
    assert!(equivalent(&rel, &expected), "{rel}\n{expected}");
    assert!(equivalent(&xy_relation(&TransFormula::sequence_all([])).0, &xy_relation(&TransFormula::skip()).0));
}

#[test]
fn choice_keeps_untouched_variables_in_each_branch() {
    let s = Stmt::Choice(vec![Stmt::Assign(vec![(x(), int(5))]), Stmt::Assume(gt(&y(), &int(0)))]);
    let tf = s.trans_formula();
    let (rel, [x0, y0, x1, y1]) = xy_relation(&tf);
    let expected = or(&[and(&[eq(&x1, &int(5)), eq(&y1, &y0)]), and(&[gt(&y0, &int(0)), eq(&x1, &x0), eq(&y1, &y0)])]);
    assert!(equivalent(&rel, &expected), "{rel}");
}

/// entry -a-> 1 -b-> 2 (loop head) -c-> 2, 2 -d-> exit, plus a diamond 1 -e-> 3 -f-> 2.
fn sample_cfg() -> Cfg {
    let mut cfg = Cfg::default();
    let l: Vec<usize> = (0..5).map(|i| cfg.add_loc(format!("L{i}"), None)).collect();
    cfg.entry = l[0];
    cfg.exit = l[4];
    let st = |t: Term| Stmt::Assume(t);
    cfg.add_stmt(l[0], l[1], st(gt(&x(), &int(0))), None);
    cfg.add_stmt(l[1], l[2], Stmt::Assign(vec![(y(), int(1))]), None);
    cfg.add_stmt(l[1], l[3], Stmt::Assign(vec![(y(), int(2))]), None);
    cfg.add_stmt(l[3], l[2], st(tt()), None);
    cfg.add_stmt(l[2], l[2], Stmt::Assign(vec![(x(), sub(&x(), &int(1)))]), None);
    cfg.add_stmt(l[2], l[4], st(le(&x(), &int(0))), None);
    cfg
}

#[test]
fn large_blocks_keep_entry_exit_and_loop_heads_only() {
    let lbe = ir::large_block_encoding(&sample_cfg());
    assert_eq!(lbe.locs.len(), 3, "{:?}", lbe.locs);
    assert_eq!(lbe.edges.len(), 3);
    let into_head = lbe.edges.iter().find(|e| e.src == lbe.entry).expect("entry edge");
    assert!(matches!(&into_head.label, Label::Stmt(Stmt::Choice(b)) if b.len() == 2), "{:?}", into_head.label);
}

#[test]
fn a_long_chain_of_statements_is_one_block() {
    // entry -> 1 -> ... -> 2000 -> exit, x := x + 1 on each edge
    let mut cfg = Cfg::default();
    let locs: Vec<usize> = (0..2002).map(|i| cfg.add_loc(format!("L{i}"), None)).collect();
    cfg.entry = locs[0];
    cfg.exit = locs[2001];
    for w in locs.windows(2) {
        cfg.add_stmt(w[0], w[1], Stmt::Assign(vec![(x(), add(&[x(), int(1)]))]), None);
    }
    let lbe = ir::large_block_encoding(&cfg);
    assert_eq!((lbe.locs.len(), lbe.edges.len()), (2, 1));
    let (rel, [x0, y0, x1, y1]) = xy_relation(lbe.edges[0].trans_formula());
    assert!(equivalent(&rel, &and(&[eq(&x1, &add(&[x0, int(2001)])), eq(&y1, &y0)])), "{rel}");
}

#[test]
fn statements_into_dead_ends_leave_the_blocks() {
    // L0 -[x > 0]-> L1 -[x > 1]-> ... -> L2000 -> exit, each Li -[x <= i]-> Di (a dead end,
    // as after `abort()`), and L2000 -[x < 0]-> error
    let mut cfg = Cfg::default();
    let locs: Vec<usize> = (0..2001).map(|i| cfg.add_loc(format!("L{i}"), None)).collect();
    cfg.entry = locs[0];
    cfg.exit = cfg.add_loc("exit", None);
    let error = cfg.add_error_loc(Violation { kind: ViolationKind::Assert, pos: None });
    for (i, w) in locs.windows(2).enumerate() {
        let dead = cfg.add_loc(format!("D{i}"), None);
        cfg.add_stmt(w[0], w[1], Stmt::Assume(gt(&x(), &int(i as i64))), None);
        cfg.add_stmt(w[0], dead, Stmt::Assume(le(&x(), &int(i as i64))), None);
    }
    cfg.add_stmt(locs[2000], cfg.exit, Stmt::Assume(ge(&x(), &int(0))), None);
    cfg.add_stmt(locs[2000], error, Stmt::Assume(lt(&x(), &int(0))), None);
    let pruned = ir::without_dead_ends(&cfg);
    assert_eq!((pruned.locs.len(), pruned.edges.len()), (cfg.locs.len(), 2002));
    let lbe = ir::large_block_encoding(&pruned);
    assert_eq!((lbe.locs.len(), lbe.edges.len()), (3, 2));
    let to = |l: usize| lbe.edges.iter().find(|e| lbe.locs[e.dst].name == cfg.locs[l].name).unwrap();
    let (rel, [x0, y0, x1, y1]) = xy_relation(to(cfg.exit).trans_formula());
    assert!(equivalent(&rel, &and(&[gt(&x0, &int(1999)), eq(&x1, &x0), eq(&y1, &y0)])), "{rel}");
    let (rel, _) = xy_relation(to(error).trans_formula());
    assert!(equivalent(&rel, &bool_lit(false)), "{rel}");
    // a dead end that a call leaves stays: the callee may reach an error
    let mut called = Cfg::default();
    let (a, b, d) = (called.add_loc("a", None), called.add_loc("b", None), called.add_loc("d", None));
    (called.entry, called.exit) = (a, called.add_loc("exit", None));
    called.add_stmt(a, b, Stmt::Assume(gt(&x(), &int(0))), None);
    called.add_edge(Edge::new(b, d, Label::Call(Call { callee: "p".into(), args: vec![], rets: vec![] }), None, None));
    called.add_stmt(a, called.exit, Stmt::Assume(le(&x(), &int(0))), None);
    assert_eq!(ir::without_dead_ends(&called).edges.len(), 3);
}

fn proc_with(name: &str, params: Vec<Term>, rets: Vec<Term>, body: Option<Cfg>) -> Procedure {
    Procedure { name: name.into(), params, rets, locals: vec![], modifies: vec![], requires: vec![], ensures: vec![], body, pos: None }
}

/// `main` calls `f` (recursive); `f`'s body calls itself. Inlining expands `main`'s call once,
/// and the recursive call inside is replaced by the contract, marked as an over-approximation.
#[test]
fn recursive_calls_become_marked_contracts() {
    let a = Term::var("a", Sort::Int);
    let r = Term::var("r", Sort::Int);
    let mut f = Cfg::default();
    f.entry = f.add_loc("f0", None);
    f.exit = f.add_loc("f1", None);
    f.add_edge(Edge::new(
        f.entry,
        f.exit,
        Label::Call(Call { callee: "f".into(), args: vec![a.clone()], rets: vec![r.clone()] }),
        None,
        None,
    ));
    let mut main = Cfg::default();
    main.entry = main.add_loc("m0", None);
    main.exit = main.add_loc("m1", None);
    let err = main.add_error_loc(Violation { kind: ViolationKind::Assert, pos: None });
    main.add_edge(Edge::new(
        main.entry,
        main.exit,
        Label::Call(Call { callee: "f".into(), args: vec![int(1)], rets: vec![x()] }),
        None,
        None,
    ));
    main.add_stmt(main.exit, err, Stmt::Assume(tt()), None);
    let mut program = Program::default();
    program.procedures.insert("f".into(), proc_with("f", vec![a], vec![r], Some(f)));
    program.procedures.insert("main".into(), proc_with("main", vec![], vec![], Some(main)));
    let cfg = ir::prepare(&program, "main").expect("prepared");
    assert!(cfg.edges.iter().all(|e| matches!(e.label, Label::Stmt(_))));
    let marked: Vec<&Edge> = cfg.edges.iter().filter(|e| e.overapprox.is_some()).collect();
    assert_eq!(marked.len(), 1);
    assert_eq!(marked[0].overapprox.as_deref(), Some("contract of recursive procedure f"));
    assert_eq!(cfg.error_locs().len(), 1);
}

/// One location with the self-loop `body` (and nothing else).
fn self_loop(body: Stmt) -> Cfg {
    let mut cfg = Cfg::default();
    let h = cfg.add_loc("head", None);
    cfg.entry = h;
    cfg.exit = h;
    cfg.add_stmt(h, h, body, None);
    cfg
}

#[test]
fn accelerated_translation_is_every_number_of_iterations() {
    // while (x < 10 && y > 0) x := x + 3;
    let body = Stmt::Seq(vec![Stmt::Assume(and(&[lt(&x(), &int(10)), gt(&y(), &int(0))])), Stmt::Assign(vec![(x(), add(&[x(), int(3)]))])]);
    let cfg = ir::accelerate(&self_loop(body.clone()), Acceleration::Linear);
    assert_eq!(cfg.edges.len(), 2);
    // linear closed forms are no polynomial loop
    assert!(!ir::has_polynomial_loop(&self_loop(body.clone())));
    let Label::Stmt(accelerated) = &cfg.edges[1].label else { panic!("a statement") };
    let (rel, [x0, y0, x1, y1]) = xy_relation(&accelerated.trans_formula());
    let n = Term::var("n", Sort::Int);
    let closed = exists(
        std::slice::from_ref(&n),
        &and(&[
            ge(&n, &int(1)),
            eq(&x1, &add(&[x0.clone(), mul(&[int(3), n.clone()])])),
            lt(&x0, &int(10)),
            lt(&add(&[x0.clone(), mul(&[int(3), n.clone()]), int(-3)]), &int(10)),
            gt(&y0, &int(0)),
            eq(&y1, &y0),
        ]),
    );
    assert!(equivalent(&rel, &closed), "{rel}");
    // Three iterations of the body are one accelerated step, and back.
    let (three, _) = xy_relation(&Stmt::Seq(vec![body.clone(), body.clone(), body]).trans_formula());
    let by_nine = and(&[rel.clone(), eq(&x1, &add(&[x0.clone(), int(9)]))]);
    assert!(equivalent(&three, &by_nine), "{three}");
}

#[test]
fn accelerated_sum_of_a_counter_is_every_number_of_iterations() {
    // while (y < 100) { x := x + 1; y := y + x; }: y grows quadratically
    let body = Stmt::Seq(vec![
        Stmt::Assume(lt(&y(), &int(100))),
        Stmt::Assign(vec![(x(), add(&[x(), int(1)]))]),
        Stmt::Assign(vec![(y(), add(&[y(), x()]))]),
    ]);
    assert_eq!(ir::accelerate(&self_loop(body.clone()), Acceleration::Linear).edges.len(), 1);
    assert!(ir::has_polynomial_loop(&self_loop(body.clone())));
    let cfg = ir::accelerate(&self_loop(body.clone()), Acceleration::Polynomial);
    assert_eq!(cfg.edges.len(), 2);
    let Label::Stmt(accelerated) = &cfg.edges[1].label else { panic!("a statement") };
    let (rel, [x0, y0, x1, y1]) = xy_relation(&accelerated.trans_formula());
    // against an interpreter of the loop, from states where it runs and where it stops
    for (a, b) in [(-3, -50), (0, 90), (5, 99), (2, 100), (-10, 0)] {
        let (mut x, mut y) = (a, b);
        for n in 1..=6 {
            let runs = y < 100;
            (x, y) = (x + 1, y + x + 1);
            let at = and(&[rel.clone(), eq(&x0, &int(a)), eq(&y0, &int(b)), eq(&x1, &int(x))]);
            if !runs {
                assert_eq!(is_valid(&not(&at), 5000), Some(true), "({a}, {b}) stops before {n} iterations");
                break;
            }
            assert_eq!(is_valid(&implies(&at, &eq(&y1, &int(y))), 5000), Some(true), "({a}, {b}) after {n}");
            assert_eq!(is_valid(&not(&at), 5000), Some(false), "({a}, {b}) runs {n} iterations");
        }
    }
}

#[test]
fn only_loops_with_closed_forms_are_accelerated() {
    let not_convex = Stmt::Seq(vec![Stmt::Assume(not(&eq(&x(), &int(10)))), Stmt::Assign(vec![(x(), add(&[x(), int(1)]))])]);
    let doubling = Stmt::Seq(vec![Stmt::Assume(lt(&x(), &int(10))), Stmt::Assign(vec![(x(), mul(&[int(2), x()]))])]);
    let non_linear_guard = Stmt::Seq(vec![Stmt::Assume(lt(&mul(&[x(), y()]), &int(10))), Stmt::Assign(vec![(x(), add(&[x(), int(1)]))])]);
    for body in [not_convex, doubling, non_linear_guard] {
        assert_eq!(ir::accelerate(&self_loop(body.clone()), Acceleration::Linear).edges.len(), 1, "{body:?}");
        assert!(!ir::has_polynomial_loop(&self_loop(body.clone())), "{body:?}");
    }
    // a reset has the closed form `x = 0` from the first iteration on
    assert_eq!(ir::accelerate(&self_loop(Stmt::Assign(vec![(x(), int(0))])), Acceleration::Linear).edges.len(), 2);
    // A guard over variables the loop does not assign may be anything.
    let any_guard = Stmt::Seq(vec![
        Stmt::Assume(and(&[lt(&x(), &int(10)), or(&[eq(&y(), &int(1)), eq(&y(), &int(5))])])),
        Stmt::Assign(vec![(x(), add(&[x(), int(1)]))]),
    ]);
    assert_eq!(ir::accelerate(&self_loop(any_guard), Acceleration::Linear).edges.len(), 2);
}

#[test]
fn each_path_through_a_branching_body_is_accelerated_on_its_own() {
    // while (x < 10) { if (*) { x := x + 1; } else { x := x + 2; y := y + 1; } }, after large blocks.
    let mut cfg = self_loop(Stmt::Seq(vec![Stmt::Assume(lt(&x(), &int(10))), Stmt::Assign(vec![(x(), add(&[x(), int(1)]))])]));
    let h = cfg.entry;
    let second =
        Stmt::Seq(vec![Stmt::Assume(lt(&x(), &int(10))), Stmt::Assign(vec![(x(), add(&[x(), int(2)])), (y(), add(&[y(), int(1)]))])]);
    cfg.add_stmt(h, h, second, None);
    let lbe = ir::large_block_encoding(&cfg);
    assert_eq!(lbe.edges.len(), 1, "{:?}", lbe.edges);
    let accelerated = ir::accelerate(&lbe, Acceleration::Linear);
    assert_eq!(accelerated.edges.len(), 3);
    // The second path's edge moves y by k and x by 2k.
    let (rel, [x0, y0, x1, y1]) = xy_relation(&accelerated.edges[2].stmt().trans_formula());
    let n = Term::var("n", Sort::Int);
    let closed = exists(
        std::slice::from_ref(&n),
        &and(&[
            ge(&n, &int(1)),
            eq(&x1, &add(&[x0.clone(), mul(&[int(2), n.clone()])])),
            eq(&y1, &add(&[y0.clone(), n.clone()])),
            lt(&x0, &int(10)),
            lt(&add(&[x1.clone(), int(-2)]), &int(10)),
        ]),
    );
    assert!(equivalent(&rel, &closed), "{rel}");
}
