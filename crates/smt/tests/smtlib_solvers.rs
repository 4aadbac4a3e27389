//! `SmtLibSolver` against the solver binaries that are installed (`.ci/run` installs cvc5 and
//! z3; each test prints a note and passes when its binary is absent).

use num_rational::BigRational;
use smt::build::*;
use smt::{FuncDecl, SatResult, SmtLibSolver, Solver, Sort, Term};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Says on the terminal that a test did not run, and why. Written to stderr directly, since the
/// test harness hides what a passing test `eprintln!`s.
fn skipped(why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {why}");
}

const SOLVERS: [&str; 3] = ["z3 -in", "cvc5 --incremental --lang smt2", "yices-smt2 --incremental"];

fn argv(cmd: &str) -> Vec<String> {
    cmd.split_whitespace().map(String::from).collect()
}

fn installed(cmd: &str) -> bool {
    let prog = cmd.split_whitespace().next().unwrap_or("");
    let found = std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(prog).is_file()));
    if !found {
        skipped(&format!("`{prog}` is not installed: its SMT-LIB tests do not run (.ci/run installs it)"));
    }
    found
}

fn each_solver(f: impl Fn(&str, SmtLibSolver)) {
    for cmd in SOLVERS {
        if installed(cmd) {
            let s = SmtLibSolver::new(&argv(cmd)).unwrap_or_else(|e| panic!("{cmd}: {e}"));
            f(cmd, s);
        }
    }
}

fn x() -> Term {
    Term::var("x", Sort::Int)
}

#[test]
fn models_with_exact_values() {
    each_solver(|cmd, mut s| {
        let r = Term::var("r", Sort::Real);
        let b = Term::var("abs", Sort::Bool); // a theory symbol's name as a program name
        let a = Term::var("a b", Sort::array(Sort::Int, Sort::Int));
        s.assert(&lt(&x(), &int(-3)));
        s.assert(&gt(&x(), &int(-5)));
        s.assert(&eq(&r, &real(BigRational::new((-1).into(), 3.into()))));
        s.assert(&not(&b));
        s.assert(&eq(&select(&a, &int(1)), &int(5)));
        assert_eq!(s.check(), SatResult::Sat, "{cmd}");
        let m = s.model(&[x(), r.clone(), b.clone(), a.clone(), add(&[x(), int(1)]), Term::var("unused", Sort::Int)]).unwrap();
        assert_eq!(m.get(&x()), Some(&int(-4)), "{cmd}");
        assert_eq!(m.get(&add(&[x(), int(1)])), Some(&int(-3)), "{cmd}");
        assert_eq!(m.get(&r), Some(&real(BigRational::new((-1).into(), 3.into()))), "{cmd}");
        assert_eq!(m.get(&b), Some(&ff()), "{cmd}");
        assert_eq!(m.get(&Term::var("unused", Sort::Int)), None, "{cmd}: not declared, not invented");
        // yices prints arrays as abstract values: then the array has no value in the model.
        if let Some(av) = m.get(&a) {
            assert_eq!(select(av, &int(1)), int(5), "{cmd}: {av}");
        } else {
            assert!(cmd.starts_with("yices"), "{cmd}: array value missing");
        }
    });
}

#[test]
fn scopes_declarations_and_unsat_cores() {
    each_solver(|cmd, mut s| {
        let y = Term::var("y", Sort::Int);
        s.assert(&ge(&x(), &int(0)));
        for round in 0..3 {
            s.push();
            // `y` is declared again in each scope; names are reused after pop.
            s.assert_named("s0", &eq(&y, &add(&[x(), int(1)])));
            s.assert_named("s1", &eq(&Term::var("z", Sort::Bool), &tt()));
            s.assert_named("s2", &le(&y, &int(0)));
            assert_eq!(s.check(), SatResult::Unsat, "{cmd} round {round}");
            let mut core = s.unsat_core().unwrap();
            core.sort();
            assert_eq!(core, vec!["s0".to_string(), "s2".to_string()], "{cmd}");
            s.pop();
        }
        assert_eq!(s.check(), SatResult::Sat, "{cmd}");
        s.pop(); // no scope: ignored
        assert!(s.model(&[x()]).unwrap().get(&x()).is_some());
        assert!(s.stats().queries >= 4);
    });
}

#[test]
fn errors_poison_their_scope_only() {
    each_solver(|cmd, mut s| {
        s.assert(&gt(&x(), &int(0)));
        s.push();
        // ill-sorted: Int + Bool
        let bad = Term::mk(smt::Kind::App(smt::Op::Add), vec![x(), tt()], Sort::Int);
        s.assert(&eq(&bad, &int(1)));
        assert!(matches!(s.check(), SatResult::Unknown(_)), "{cmd}");
        s.pop();
        assert_eq!(s.check(), SatResult::Sat, "{cmd}: the error stayed in its scope");
        // one name for two symbols
        s.push();
        s.assert(&Term::var("x", Sort::Bool));
        assert!(matches!(s.check(), SatResult::Unknown(_)), "{cmd}");
        s.pop();
        assert_eq!(s.check(), SatResult::Sat, "{cmd}");
    });
}

#[test]
fn uninterpreted_sorts_and_functions() {
    each_solver(|cmd, mut s| {
        let u = Sort::Uninterpreted(Arc::from("U"));
        let p = Term::var("p", u.clone());
        let q = Term::var("q", u.clone());
        let f = Arc::new(FuncDecl { name: Arc::from("f"), domain: vec![u], range: Sort::Int });
        s.assert(&eq(&p, &q));
        s.assert(&not(&eq(&apply(&f, std::slice::from_ref(&p)), &apply(&f, std::slice::from_ref(&q)))));
        assert_eq!(s.check(), SatResult::Unsat, "{cmd}");
    });
}

#[test]
fn timeout_is_unknown_and_the_solver_recovers() {
    each_solver(|cmd, mut s| {
        let (y, z) = (Term::var("y", Sort::Int), Term::var("z", Sort::Int));
        let cube = |v: &Term| mul(&[v.clone(), v.clone(), v.clone()]);
        s.assert(&ge(&x(), &int(-1000)));
        s.push();
        s.assert(&eq(&add(&[cube(&x()), cube(&y), cube(&z)]), &int(33)));
        s.assert(&gt(&mul(&[x(), y.clone()]), &int(100000)));
        s.set_timeout_ms(300);
        let start = Instant::now();
        let r = s.check();
        assert!(matches!(r, SatResult::Unknown(_)), "{cmd}: {r:?}");
        assert!(start.elapsed() < Duration::from_secs(5), "{cmd}");
        s.pop();
        s.assert(&le(&x(), &int(-1000)));
        assert_eq!(s.check(), SatResult::Sat, "{cmd}: replayed after the restart");
        assert_eq!(s.model(&[x()]).unwrap().get(&x()), Some(&int(-1000)), "{cmd}");
    });
}

#[test]
fn cvc5_interpolants() {
    let cmd = "cvc5 --incremental --lang smt2";
    if !installed(cmd) {
        return;
    }
    let mut s = SmtLibSolver::interpolating(&argv(cmd)).unwrap();
    let (i0, p1) = (Term::var("i0", Sort::Int), Term::var("p1", Sort::Int));
    let a = [gt(&i0, &int(0)), eq(&p1, &add(&[i0.clone(), int(1)]))];
    let b = le(&p1, &int(1));
    let itp = s.interpolant(&a, &b).unwrap();
    assert_eq!(smt::subst::free_vars(&itp).into_iter().collect::<Vec<_>>(), vec![p1.clone()]);
    // a ⇒ I and I ∧ b unsat
    assert_eq!(smt::simplify::is_valid(&implies(&and(&a), &itp), 2000), Some(true), "{itp}");
    assert_eq!(smt::simplify::is_sat(&and2(&itp, &b), 2000), Some(false), "{itp}");
}

#[test]
fn a_command_that_cannot_start_is_an_error() {
    assert!(SmtLibSolver::new(&argv("/nonexistent/solver -in")).is_err());
    if installed("cat") {
        // `cat` echoes commands: not an SMT-LIB solver.
        assert!(SmtLibSolver::new(&argv("cat")).is_err());
    }
}
