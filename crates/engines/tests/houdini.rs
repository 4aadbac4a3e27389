//! Houdini over the candidate invariants of an array cell abstraction.

use ir::{Cfg, Stmt, Violation, ViolationKind};
use smt::build::*;
use smt::{Sort, Term};

fn int_var(name: &str) -> Term {
    Term::var(name, Sort::Int)
}

/// `for (i = 0; i < n; i++) a[i] = v; for (j = 0; j < n; j++) assert(a[j] == expected);`
/// with `n = 100000`, as a CFG (a constant bound: Spacer unrolls it).
fn init_then_check(v: i64, expected: i64) -> Cfg {
    let a = Term::var("a", Sort::array(Sort::Int, Sort::Int));
    let (i, j, n) = (int_var("i"), int_var("j"), int_var("n"));
    let mut cfg = Cfg::default();
    let entry = cfg.add_loc("entry", None);
    let fill = cfg.add_loc("fill", None);
    let check = cfg.add_loc("check", None);
    let exit = cfg.add_loc("exit", None);
    let error = cfg.add_error_loc(Violation { kind: ViolationKind::Assert, pos: None });
    (cfg.entry, cfg.exit) = (entry, exit);
    let assign = |x: &Term, e: Term| Stmt::Assign(vec![(x.clone(), e)]);
    cfg.add_stmt(entry, fill, Stmt::Seq(vec![Stmt::Havoc(vec![a.clone()]), assign(&n, int(100000)), assign(&i, int(0))]), None);
    let write = Stmt::Seq(vec![Stmt::Assume(lt(&i, &n)), assign(&a, store(&a, &i, &int(v))), assign(&i, add(&[i.clone(), int(1)]))]);
    cfg.add_stmt(fill, fill, write, None);
    cfg.add_stmt(fill, check, Stmt::Seq(vec![Stmt::Assume(not(&lt(&i, &n))), assign(&j, int(0))]), None);
    let read = select(&a, &j);
    cfg.add_stmt(check, error, Stmt::Seq(vec![Stmt::Assume(lt(&j, &n)), Stmt::Assume(not(&eq(&read, &int(expected))))]), None);
    let next = Stmt::Seq(vec![Stmt::Assume(lt(&j, &n)), Stmt::Assume(eq(&read, &int(expected))), assign(&j, add(&[j.clone(), int(1)]))]);
    cfg.add_stmt(check, check, next, None);
    cfg.add_stmt(check, exit, Stmt::Assume(not(&lt(&j, &n))), None);
    cfg
}

/// The abstraction of `cfg`, its candidates, and what Houdini makes of them.
fn houdini(cfg: &Cfg) -> (Cfg, Option<Vec<Term>>) {
    let cells = ir::cell_abstraction(cfg).expect("an array program");
    let candidates = ir::cell_candidates(&cells);
    let encoded = ir::large_block_encoding(&cells);
    let inv = engines::houdini::annotation(&encoded, &candidates, None, &smt::SolverSpec::Z3);
    (encoded, inv)
}

#[test]
fn range_guarded_candidates_prove_an_initialization_loop() {
    let (encoded, inv) = houdini(&init_then_check(7, 7));
    let inv = inv.expect("an annotation");
    assert_eq!(engines::annotation::check(&encoded, &inv, 5000, &smt::SolverSpec::Z3), Some(true), "{inv:?}");
    // The fill loop's invariant is the guarded one: the cells below `i` hold 7.
    let fill = encoded.locs.iter().position(|l| l.name == "fill").expect("the loop head");
    let text = inv[fill].to_string();
    assert!(text.contains("a#q") && text.contains('7') && text.contains('i'), "{text}");
}

#[test]
fn no_annotation_when_the_assertion_fails() {
    let (_, inv) = houdini(&init_then_check(7, 8));
    assert!(inv.is_none(), "{inv:?}");
}
