#![allow(clippy::cloned_ref_to_slice_refs)]

use super::context::Z3Ctx;
use super::ownership::Owned;
use super::thread_ctx::with_thread_ctx;
use super::Z3Solver;
use crate::build;
use crate::build::*;
use crate::simplify::is_equiv;
use crate::solver::{SatResult, Solver};
use crate::sort::Sort;
use crate::term::{FuncDecl, Kind, Op, Quantifier, Term};
use crate::z3ffi as ffi;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Num;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Translates a term to Z3 and back.
fn round_trip(t: &Term) -> Result<Term, crate::solver::SolverError> {
    with_thread_ctx(|cx| {
        let a = cx.encode(t)?;
        cx.decode(&a)
    })
}

fn x() -> Term {
    Term::var("x", Sort::Int)
}
fn y() -> Term {
    Term::var("y", Sort::Int)
}

#[test]
fn sat_unsat_and_model_values() {
    let mut s = Z3Solver::new();
    let r = Term::var("r", Sort::Real);
    let b = Term::var("b", Sort::Bool);
    let big = BigInt::from_str_radix("123456789012345678901234567890", 10).unwrap();
    s.assert(&eq(&x(), &int(3)));
    s.assert(&eq(&y(), &int_big(-big.clone())));
    s.assert(&eq(&r, &real(BigRational::new(1.into(), 3.into()))));
    s.assert(&b);
    assert_eq!(s.check(), SatResult::Sat);
    let m = s.model(&[x(), y(), r.clone(), b.clone(), add(&[x(), int(1)])]).unwrap();
    assert_eq!(m.get(&x()), Some(&int(3)));
    assert_eq!(m.get(&y()), Some(&int_big(-big)));
    assert_eq!(m.get(&r), Some(&real(BigRational::new(1.into(), 3.into()))));
    assert_eq!(m.get(&b), Some(&tt()));
    assert_eq!(m.get(&add(&[x(), int(1)])), Some(&int(4)));
    s.assert(&lt(&x(), &int(0)));
    assert_eq!(s.check(), SatResult::Unsat);
    assert!(s.model(&[x()]).is_err());
}

#[test]
fn array_and_uninterpreted_model_values() {
    let mut s = Z3Solver::new();
    let a = Term::var("a", Sort::array(Sort::Int, Sort::Int));
    let u = Sort::Uninterpreted(Arc::from("U"));
    let p = Term::var("p", u.clone());
    let f = Arc::new(FuncDecl { name: Arc::from("f"), domain: vec![u], range: Sort::Int });
    s.assert(&eq(&select(&a, &int(1)), &int(5)));
    s.assert(&eq(&select(&a, &int(2)), &int(7)));
    s.assert(&eq(&apply(&f, &[p.clone()]), &int(9)));
    assert_eq!(s.check(), SatResult::Sat);
    let m = s.model(&[a.clone(), p.clone(), apply(&f, &[p.clone()])]).unwrap();
    assert!(m.get(&p).is_none(), "uninterpreted values are skipped");
    assert_eq!(m.get(&apply(&f, &[p])), Some(&int(9)));
    let av = m.get(&a).expect("array value");
    assert!(crate::subst::free_vars(av).is_empty());
    let ok = and(&[eq(&select(av, &int(1)), &int(5)), eq(&select(av, &int(2)), &int(7))]);
    assert_eq!(crate::simplify::is_valid(&ok, 1000), Some(true));
}

#[test]
fn unsat_core_names_the_right_subset() {
    let mut s = Z3Solver::new();
    s.assert_named("pos", &gt(&x(), &int(0)));
    s.assert_named("other", &eq(&y(), &int(1)));
    s.assert_named("neg", &lt(&x(), &int(0)));
    assert_eq!(s.check(), SatResult::Unsat);
    let mut core = s.unsat_core().unwrap();
    core.sort();
    assert_eq!(core, vec!["neg".to_string(), "pos".to_string()]);
}

#[test]
fn push_pop_and_untranslatable_assertions() {
    let mut s = Z3Solver::new();
    s.pop(); // popping with no scope is ignored
    s.assert(&gt(&x(), &int(0)));
    s.push();
    s.assert(&lt(&x(), &int(0)));
    assert_eq!(s.check(), SatResult::Unsat);
    s.pop();
    assert_eq!(s.check(), SatResult::Sat);
    s.push();
    // ill-sorted: Int + Bool
    let bad = Term::mk(Kind::App(Op::Add), vec![x(), tt()], Sort::Int);
    s.assert(&eq(&bad, &int(1)));
    s.assert(&x()); // not a formula
    assert!(matches!(s.check(), SatResult::Unknown(_)));
    s.pop();
    assert_eq!(s.check(), SatResult::Sat);
}

#[test]
fn timeout_gives_unknown() {
    let mut s = Z3Solver::new();
    let z = Term::var("z", Sort::Int);
    let cube = |v: &Term| mul(&[v.clone(), v.clone(), v.clone()]);
    // x^3 + y^3 + z^3 = 33 (first solved in 2019, with 16-digit numbers)
    s.assert(&eq(&add(&[cube(&x()), cube(&y()), cube(&z)]), &int(33)));
    s.set_timeout_ms(200);
    let start = Instant::now();
    assert!(matches!(s.check(), SatResult::Unknown(_)));
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn a_short_limit_armed_while_a_long_one_runs_is_kept() {
    // The watchdog sleeps until the earliest limit it knows: a later, shorter one must wake it.
    let hard = || {
        let mut s = Z3Solver::new();
        let z = Term::var("z", Sort::Int);
        let cube = |v: &Term| mul(&[v.clone(), v.clone(), v.clone()]);
        s.assert(&eq(&add(&[cube(&x()), cube(&y()), cube(&z)]), &int(33)));
        s
    };
    let long = std::thread::spawn(move || {
        let mut s = hard();
        s.set_timeout_ms(3_000);
        s.check()
    });
    std::thread::sleep(Duration::from_millis(100));
    let mut s = hard();
    s.set_timeout_ms(200);
    let start = Instant::now();
    assert!(matches!(s.check(), SatResult::Unknown(_)));
    assert!(start.elapsed() < Duration::from_millis(1_500), "{:?}", start.elapsed());
    assert!(matches!(long.join().unwrap(), SatResult::Unknown(_)));
}

#[test]
fn a_raised_cancellation_flag_interrupts_a_query_in_flight() {
    let flag = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let raiser = {
        let flag = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            flag.store(true, std::sync::atomic::Ordering::SeqCst);
        })
    };
    super::interrupt_when(Some(flag));
    let mut s = Z3Solver::new();
    let z = Term::var("z", Sort::Int);
    let cube = |v: &Term| mul(&[v.clone(), v.clone(), v.clone()]);
    s.assert(&eq(&add(&[cube(&x()), cube(&y()), cube(&z)]), &int(33)));
    // No time limit: only the flag ends the query.
    let start = Instant::now();
    assert!(matches!(s.check(), SatResult::Unknown(_)));
    assert!(start.elapsed() < Duration::from_secs(10));
    super::interrupt_when(None);
    raiser.join().unwrap();
}

#[test]
fn a_raised_cancellation_flag_interrupts_only_cancellable_calls() {
    // (tactics are not cancellable: Z3 4.8.12's `qe` crashes when interrupted)
    let cx = Z3Ctx::new().unwrap();
    super::interrupt_when(Some(Arc::new(std::sync::atomic::AtomicBool::new(true))));
    let call =
        |cancellable| super::watchdog::with_deadline(cx.c(), 5_000, cancellable, || std::thread::sleep(Duration::from_millis(200))).1;
    let (cancellable, not_cancellable) = (call(true), call(false));
    super::interrupt_when(None);
    assert!(cancellable && !not_cancellable);
}

#[test]
fn decl_kind_numbers_match_the_linked_libz3() {
    // `ffi::op` takes its numbers from z3-sys' `DeclKind` (Z3 5.3 numbering); each must be
    // what the linked libz3 reports for an application of that kind. (OP_IFF and OP_OEQ
    // cannot be built through the API; they sit in the basic range with OP_EQ..OP_IMPLIES.)
    use ffi::op;
    let mut cx = Z3Ctx::new().unwrap();
    let c = cx.c();
    let (si, sr, sb) = (cx.sort(&Sort::Int).unwrap(), cx.sort(&Sort::Real).unwrap(), cx.sort(&Sort::Bool).unwrap());
    let sa = cx.sort(&Sort::array(Sort::Int, Sort::Int)).unwrap();
    let f = cx.func_decl(&Arc::new(FuncDecl { name: Arc::from("f"), domain: vec![Sort::Int], range: Sort::Int })).unwrap();
    let konst = |cx: &Z3Ctx, name: &str, s: &Owned<ffi::Z3_sort>| {
        // SAFETY: live sort.
        cx.ast(unsafe { ffi::Z3_mk_const(c, cx.symbol(name).unwrap(), s.p) }, name).unwrap()
    };
    let (x, y, r, p, q, a) = (
        konst(&cx, "x", &si),
        konst(&cx, "y", &si),
        konst(&cx, "r", &sr),
        konst(&cx, "p", &sb),
        konst(&cx, "q", &sb),
        konst(&cx, "a", &sa),
    );
    let kind = |t: Option<ffi::Z3_ast>| {
        let t = cx.ast(t, "term").unwrap();
        // SAFETY: `t` is a live application.
        unsafe { ffi::get_decl_kind(c, ffi::Z3_get_app_decl(c, ffi::Z3_to_app(c, t.p).unwrap()).unwrap()) }
    };
    let (xy, pq) = ([x.p, y.p], [p.p, q.p]);
    // SAFETY: all arguments are live ASTs of `cx`; each result is owned by `kind` at once.
    let cases = unsafe {
        [
            (op::TRUE, kind(ffi::Z3_mk_true(c))),
            (op::FALSE, kind(ffi::Z3_mk_false(c))),
            (op::EQ, kind(ffi::Z3_mk_eq(c, x.p, y.p))),
            (op::DISTINCT, kind(ffi::Z3_mk_distinct(c, 2, xy.as_ptr()))),
            (op::ITE, kind(ffi::Z3_mk_ite(c, p.p, x.p, y.p))),
            (op::AND, kind(ffi::Z3_mk_and(c, 2, pq.as_ptr()))),
            (op::OR, kind(ffi::Z3_mk_or(c, 2, pq.as_ptr()))),
            (op::XOR, kind(ffi::Z3_mk_xor(c, p.p, q.p))),
            (op::NOT, kind(ffi::Z3_mk_not(c, p.p))),
            (op::IMPLIES, kind(ffi::Z3_mk_implies(c, p.p, q.p))),
            (op::LE, kind(ffi::Z3_mk_le(c, x.p, y.p))),
            (op::GE, kind(ffi::Z3_mk_ge(c, x.p, y.p))),
            (op::LT, kind(ffi::Z3_mk_lt(c, x.p, y.p))),
            (op::GT, kind(ffi::Z3_mk_gt(c, x.p, y.p))),
            (op::ADD, kind(ffi::Z3_mk_add(c, 2, xy.as_ptr()))),
            (op::SUB, kind(ffi::Z3_mk_sub(c, 2, xy.as_ptr()))),
            (op::UMINUS, kind(ffi::Z3_mk_unary_minus(c, x.p))),
            (op::MUL, kind(ffi::Z3_mk_mul(c, 2, xy.as_ptr()))),
            (op::DIV, kind(ffi::Z3_mk_div(c, r.p, r.p))),
            (op::IDIV, kind(ffi::Z3_mk_div(c, x.p, y.p))),
            (op::REM, kind(ffi::Z3_mk_rem(c, x.p, y.p))),
            (op::MOD, kind(ffi::Z3_mk_mod(c, x.p, y.p))),
            (op::TO_REAL, kind(ffi::Z3_mk_int2real(c, x.p))),
            (op::TO_INT, kind(ffi::Z3_mk_real2int(c, r.p))),
            (op::IS_INT, kind(ffi::Z3_mk_is_int(c, r.p))),
            (op::POWER, kind(ffi::Z3_mk_power(c, x.p, y.p))),
            (op::STORE, kind(ffi::Z3_mk_store(c, a.p, x.p, y.p))),
            (op::SELECT, kind(ffi::Z3_mk_select(c, a.p, x.p))),
            (op::CONST_ARRAY, kind(ffi::Z3_mk_const_array(c, si.p, x.p))),
            (op::AS_ARRAY, kind(ffi::Z3_mk_as_array(c, f.p))),
            (op::UNINTERPRETED_4_8_12, kind(Some(x.p))),
        ]
    };
    for (i, (expected, actual)) in cases.into_iter().enumerate() {
        assert_eq!(expected, actual, "case {i}");
    }
    assert_eq!(cx.uninterpreted, op::UNINTERPRETED_4_8_12);
}

fn sample_formulas() -> Vec<Term> {
    let r = Term::var("r", Sort::Real);
    let b = Term::var("b", Sort::Bool);
    let a = Term::var("a", Sort::array(Sort::Int, Sort::Int));
    let ar = Term::var("ar", Sort::array(Sort::Int, Sort::Real));
    let f = Arc::new(FuncDecl { name: Arc::from("f"), domain: vec![Sort::Int, Sort::Real], range: Sort::Int });
    let i = Term::fresh("i", Sort::Int);
    let j = Term::fresh("j", Sort::Int);
    let big = BigInt::from_str_radix("-98765432109876543210987654321", 10).unwrap();
    vec![
        and(&[le(&x(), &y()), not(&eq(&x(), &int_big(big)))]),
        or(&[lt(&to_real(&x()), &r), eq(&to_int(&r), &y())]),
        eq(&add(&[x(), mul(&[int(3), y()]), neg(&x())]), &sub(&y(), &int(7))),
        eq(&int_div(&x(), &int(3)), &modulo(&y(), &int(-4))),
        eq(&real_div(&r, &real(BigRational::new(7.into(), 2.into()))), &real(BigRational::new((-5).into(), 3.into()))),
        Term::mk(Kind::App(Op::Implies), vec![b.clone(), gt(&x(), &int(0))], Sort::Bool),
        eq(&ite(&b, &x(), &y()), &int(2)),
        distinct(&[x(), y(), int(0)]),
        eq(&select(&store(&a, &x(), &y()), &int(1)), &int(4)),
        eq(&a, &const_array(&Sort::array(Sort::Int, Sort::Int), &int(0))),
        eq(&select(&ar, &x()), &r),
        eq(&apply(&f, &[x(), r.clone()]), &y()),
        forall(&[i.clone()], &le(&select(&a, &i), &x())),
        exists(&[i.clone()], &and(&[eq(&select(&a, &i), &y()), forall(&[j.clone()], &le(&select(&a, &j), &select(&a, &i)))])),
        // Int/Real mixing without explicit conversion
        Term::mk(Kind::App(Op::Le), vec![x(), r.clone()], Sort::Bool),
    ]
}

#[test]
fn round_trip_preserves_equivalence() {
    for t in sample_formulas() {
        let back = round_trip(&t).unwrap_or_else(|e| panic!("{t}: {e}"));
        assert_eq!(is_equiv(&t, &back, 2000), Some(true), "{t} vs {back}");
    }
}

#[test]
fn independent_solvers_on_threads() {
    let handles: Vec<_> = (0..4)
        .map(|k| {
            // a solver lives in its thread's context, so each thread makes its own
            std::thread::spawn(move || {
                let mut s = Z3Solver::new();
                for n in 0..20 {
                    s.push();
                    s.assert(&eq(&x(), &int(k * 100 + n)));
                    assert_eq!(s.check(), SatResult::Sat);
                    assert_eq!(s.model(&[x()]).unwrap().get(&x()), Some(&int(k * 100 + n)));
                    s.pop();
                    let t = exists(&[y()], &and(&[eq(&x(), &mul(&[int(2), y()])), gt(&y(), &int(k))]));
                    assert!(round_trip(&t).is_ok());
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}

#[test]
fn bit_vector_terms_round_trip_and_get_models() {
    use crate::bv::{self, BvOp};
    let b = Term::var("b", Sort::BitVec(8));
    let lit = |v: i64, w: u32| bv::lit(&BigInt::from(v), w);
    let wide = bv::resize(&b, 32, true);
    let f = and(&[
        bv::bin(BvOp::Slt, &b, &lit(0, 8)),
        eq(&bv::bin(BvOp::AShr, &wide, &lit(1, 32)), &lit(-3, 32)),
        eq(&bv::app(BvOp::Extract(7, 4), &[b.clone()]), &lit(15, 4)),
        eq(&build::bv_bitwise(Op::BvAnd, &b, &lit(3, 8)), &lit(2, 8)),
    ]);
    let back = round_trip(&f).unwrap();
    assert_eq!(is_equiv(&f, &back, 2000), Some(true), "{f} vs {back}");
    let mut s = Z3Solver::new();
    s.assert(&f);
    assert_eq!(s.check(), SatResult::Sat);
    // b = -6 = 0xfa: negative, -6 >> 1 = -3, high nibble 15, low bits 10
    assert_eq!(s.model(&[b.clone()]).unwrap().get(&b), Some(&lit(-6, 8)));
}

#[test]
fn floating_point_terms_round_trip_and_get_models() {
    use crate::bv;
    use crate::fp::{self, FpOp};
    let (x, y) = (Term::var("x", Sort::Float(11, 53)), Term::var("y", Sort::Float(8, 24)));
    let d = |v: f64| fp::from_f64(v, 11, 53).unwrap();
    let i = Term::var("i", Sort::BitVec(32));
    // x + 0.5 == 2.0, y = (float) x, i = (int) (x * 3.0) (truncated: 4)
    let f = and(&[
        fp::bin(FpOp::Eq, &fp::bin(FpOp::Add, &x, &d(0.5)), &d(2.0)),
        eq(&y, &fp::app(FpOp::FromFloat(8, 24), &[x.clone()])),
        eq(&i, &fp::app(FpOp::ToSigned(32), &[fp::bin(FpOp::Mul, &x, &d(3.0))])),
        not(&fp::app(FpOp::IsNaN, &[fp::app(FpOp::Trunc, &[x.clone()])])),
        fp::bin(FpOp::Lt, &fp::app(FpOp::FromSigned(11, 53), &[i.clone()]), &d(5.0)),
    ]);
    let back = round_trip(&f).unwrap();
    assert_eq!(is_equiv(&f, &back, 2000), Some(true), "{f} vs {back}");
    let mut s = Z3Solver::new();
    s.assert(&f);
    assert_eq!(s.check(), SatResult::Sat);
    let m = s.model(&[x.clone(), y.clone(), i.clone()]).unwrap();
    assert_eq!(m.get(&x).and_then(fp::to_f64), Some(1.5));
    assert_eq!(m.get(&y).and_then(fp::to_f64), Some(1.5));
    assert_eq!(m.get(&i), Some(&bv::lit(&BigInt::from(4), 32)));
    // special values come back with their patterns (NaN as the quiet NaN)
    for v in [f64::NAN, f64::INFINITY, -0.0, 5e-324, -1e300] {
        let mut s = Z3Solver::new();
        s.assert(&eq(&x, &d(v)));
        assert_eq!(s.check(), SatResult::Sat);
        let got = s.model(&[x.clone()]).unwrap().get(&x).and_then(fp::to_f64).unwrap();
        assert!(got.to_bits() == v.to_bits() || (v.is_nan() && got.is_nan()), "{v} came back as {got}");
    }
}

#[test]
fn deep_terms_do_not_overflow_the_stack() {
    let x = x();
    let mut t = x.clone();
    for i in 0..5000 {
        let c = Term::var(&format!("c{i}"), Sort::Bool);
        t = ite(&c, &add(&[x.clone(), int(i)]), &t);
    }
    let f = eq(&t, &int(3));
    assert_eq!(round_trip(&f).unwrap(), f);
}

#[test]
fn malformed_terms_are_errors_not_panics() {
    let app = |op: Op, args: Vec<Term>, sort: Sort| Term::mk(Kind::App(op), args, sort);
    let b = Term::var("b", Sort::Bool);
    let f = Arc::new(FuncDecl { name: Arc::from("f"), domain: vec![Sort::Int], range: Sort::Int });
    let bad = vec![
        app(Op::Not, vec![], Sort::Bool),
        app(Op::Ite, vec![b.clone(), x()], Sort::Int),
        app(Op::Eq, vec![x(), b.clone()], Sort::Bool),
        app(Op::Le, vec![x()], Sort::Bool),
        app(Op::Select, vec![x(), y()], Sort::Int),
        app(Op::Store, vec![x()], Sort::Int),
        app(Op::IntDiv, vec![Term::var("r", Sort::Real), x()], Sort::Int),
        app(Op::ConstArray(Sort::Int), vec![x()], Sort::Int),
        app(Op::Apply(f), vec![x(), y()], Sort::Int),
        Term::mk(Kind::Quant(Quantifier::Forall, vec![int(1)]), vec![b.clone()], Sort::Bool),
        Term::mk(Kind::Quant(Quantifier::Forall, vec![x()]), vec![], Sort::Bool),
        Term::var("bv", Sort::BitVec(8)),
    ];
    for t in bad {
        let f = app(Op::Or, vec![b.clone(), t.clone()], Sort::Bool);
        assert!(round_trip(&f).is_err() || t.sort == Sort::BitVec(8), "{f}");
        let _ = crate::simplify::simplify(&f);
        let _ = crate::simplify::simplify_strong(&f, 100);
        let _ = crate::simplify::is_sat(&f, 100);
        let _ = crate::linear::normalize(&f);
        let _ = crate::linear::linearize(&t);
        let mut s = Z3Solver::new();
        s.assert(&f);
        assert!(matches!(s.check(), SatResult::Unknown(_) | SatResult::Sat), "{f}");
        let _ = s.model(&[t.clone(), x()]);
        let _ = s.unsat_core();
    }
}

#[test]
fn an_interrupt_that_lands_between_calls_is_taken_back() {
    // The watchdog's interrupt may land just after the call it was meant for returned; Z3
    // 4.8.12 then answers sat for the next incremental query, unsatisfiable as it is.
    let cx = super::thread_ctx::thread_ctx().unwrap();
    let c = cx.borrow().c();
    // SAFETY: the thread's live context.
    unsafe { ffi::Z3_interrupt(c) };
    super::watchdog::clear_interrupt(c);
    let mut s = Z3Solver::new();
    s.push();
    s.assert(&gt(&add(&[x(), int(0)]), &int(1)));
    s.assert(&lt(&x(), &int(1)));
    assert_eq!(s.check(), SatResult::Unsat);
}
