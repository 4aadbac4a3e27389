//! End-to-end tests of `--property termination`: ranking functions for TRUE, lassos with a
//! nontermination argument for FALSE.

mod common;

use common::{output, own, shared, verdict};
use std::path::PathBuf;

fn seed(name: &str) -> Option<PathBuf> {
    shared("seeds", name)
}

/// A task of `../shared/bench/ultimate/termination/svcomp15`.
fn svcomp15(folder: &str, name: &str) -> Option<PathBuf> {
    shared(&format!("ultimate/termination/svcomp15/{folder}"), name)
}

const TERMINATION: [&str; 4] = ["--property", "termination", "--timeout", "30"];

#[test]
fn the_seeds_give_their_verdicts() {
    if let Some(f) = seed("lecture-termination.c") {
        let out = output(&f, &TERMINATION);
        assert!(out.starts_with("TRUE\n"), "{out}");
        assert!(out.contains("ranking functions:"), "{out}");
    }
    if let Some(f) = seed("lecture-nontermination.bpl") {
        let out = output(&f, &TERMINATION);
        assert!(out.starts_with("FALSE(termination)\n"), "{out}");
        assert!(out.contains("loop, repeated forever:"), "{out}");
    }
}

#[test]
fn own_programs_give_their_verdicts() {
    for (name, expected) in [
        ("term-error-call.c", "TRUE"),
        ("term-supporting-invariant.bpl", "TRUE"),
        ("nonterm-stuck.c", "FALSE(termination)"),
        // an empty loop is a cycle of the CFG, not a location without successors
        ("nonterm-empty-loop.c", "FALSE(termination)"),
        // the inner loop's lassos come back to it after the outer loop went around
        ("term-nested-loops.c", "TRUE"),
        ("nonterm-nested-loops.c", "FALSE(termination)"),
        // a program's own `__VERIFIER_assume` blocks where the assumption fails (SV-COMP's meaning)
        ("term-own-assume.c", "TRUE"),
        ("nonterm-own-assume.c", "FALSE(termination)"),
    ] {
        assert_eq!(verdict(&own(name), &TERMINATION), expected, "{name}");
    }
}

#[test]
fn an_overridden_intrinsic_is_named_on_stderr() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tracery"))
        .args(TERMINATION)
        .arg(own("term-own-assume.c"))
        .output()
        .expect("tracery runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("term-own-assume.c:4:1: the program's definition of `__VERIFIER_assume` is not followed"), "{stderr}");
}

#[test]
fn a_lasso_names_its_loop() {
    let out = output(&own("nonterm-stuck.c"), &TERMINATION);
    assert!(out.contains("the program may run forever at "), "{out}");
    assert!(out.contains("nonterm-stuck.c:7"), "{out}");
    let (stem, looped) = out.split_once("loop, repeated forever:").expect("a loop part");
    assert!(stem.contains("__VERIFIER_nondet_int() returns -"), "a negative input: {out}");
    assert!(!looped.is_empty());
}

#[test]
fn a_ranking_function_names_its_supporting_invariant() {
    let out = output(&own("term-supporting-invariant.bpl"), &TERMINATION);
    assert!(out.starts_with("TRUE\n"), "{out}");
    assert!(out.contains(": affine ("), "{out}");
    assert!(out.contains("supporting invariants:"), "{out}");
}

#[test]
fn termination_is_checked_on_its_own() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tracery"))
        .args(["--property", "termination,unreach-call"])
        .arg(own("term-error-call.c"))
        .output()
        .expect("tracery runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`termination` is checked on its own"));
}

#[test]
fn safety_engines_never_answer_termination() {
    // A nonterminating program has no error location: a safety engine would call it TRUE.
    let out = output(&own("nonterm-stuck.c"), &["--property", "termination", "--engine", "automizer"]);
    assert!(out.starts_with("UNKNOWN\n"), "{out}");
    assert!(out.contains("automizer: does not decide termination"), "{out}");
}

#[test]
fn recursion_descends_into_calls_and_steps_over_them() {
    // a ranking function on the parameter of the recursive call
    if let Some(f) = svcomp15("termination-numeric", "Fibonacci01_true-termination.c") {
        assert_eq!(verdict(&f, &TERMINATION), "TRUE");
    }
    // rec(x, y) calls rec(2*y-2, x+1): rec(0, 1) calls itself forever, the stack grows
    if let Some(f) = svcomp15("termination-crafted", "RecursiveNonterminating_false-termination.c") {
        let out = output(&f, &TERMINATION);
        assert!(out.starts_with("FALSE(termination)\n"), "{out}");
        assert!(out.contains("loop, repeated forever:"), "{out}");
    }
    // `while (res < 1);` after `res = rec(i)` ends because rec returns i ≥ 1; a step over the
    // call forgets that, so the loop has no ranking function, and the lasso through the step
    // (an over-approximation) is no counterexample
    if let Some(f) = svcomp15("termination-numeric", "rec_counter3_true-termination.c") {
        let out = output(&f, &TERMINATION);
        assert!(out.starts_with("UNKNOWN\n"), "{out}");
        assert!(out.contains("a recursive call's effect"), "{out}");
    }
}

#[test]
fn nested_loops_get_a_ranking_function_each() {
    let out = output(&own("term-nested-loops.c"), &TERMINATION);
    assert!(out.contains("term-nested-loops.c:8:5: affine (x)"), "{out}");
    assert!(out.contains("term-nested-loops.c:10:9: affine ((x + ((-1) * y)))"), "{out}");
}

#[test]
fn ranking_template_families_can_be_switched_off() {
    let f = own("term-nested-rank.bpl");
    let out = output(&f, &TERMINATION);
    assert!(out.contains(": nested-2 (y, x)"), "{out}");
    let affine = [&TERMINATION[..], &["--ranking-templates", "affine"]].concat();
    assert_eq!(verdict(&f, &affine), "UNKNOWN");
    let multiphase = [&TERMINATION[..], &["--ranking-templates", "affine,multiphase"]].concat();
    assert!(output(&f, &multiphase).contains(": multiphase-2 ("));
}

#[test]
fn ranking_functions_range_over_array_cells_and_reals() {
    // a pointer walk, bounded by the length of the object it walks
    if let Some(f) = svcomp15("termination-memory-alloca", "cstrlen-alloca_true-termination.c") {
        let out = output(&f, &TERMINATION);
        assert!(out.starts_with("TRUE\n") && out.contains("#length["), "{out}");
    }
    // a cell that counts down while the loop writes two others, at indices the stem keeps apart
    if let Some(f) = shared("ultimate/lassos/arrays", "SyntaxSupportArrays15-DisjointIndices.bpl") {
        let out = output(&f, &TERMINATION);
        assert!(out.starts_with("TRUE\n") && out.contains(": affine (a[i])"), "{out}");
        assert!(out.contains("supporting invariants: !(i == j) && !(i == k)"), "{out}");
    }
    if let Some(f) = shared("ultimate/lassos/website", "ATVA2013-bound-real.bpl") {
        let out = output(&f, &TERMINATION);
        // a real-valued function of the real variables
        assert!(out.starts_with("TRUE\n") && out.contains(": affine (") && out.contains(".0 * "), "{out}");
    }
}

#[test]
fn a_nonterminating_loop_is_shown_returning_to_its_state() {
    // over bit-vectors `2 * old` wraps: from x = 2^30 the input 2^30 keeps the loop going, and
    // the loop shown is one such iteration (its input is the state it started from)
    let f = own("nonterm-wrap.c");
    let bv = [&TERMINATION[..], &["--semantics", "bitvector"]].concat();
    let out = output(&f, &bv);
    assert!(out.starts_with("FALSE(termination)\n"), "{out}");
    assert!(out.contains("inputs: 1073741824, 1073741824\n"), "{out}");
    assert!(out.contains("nonterm-wrap.c:7"), "{out}");
    // over integers the loop ends (`2147483647 - 2·x` ranks it)
    let integers = [&TERMINATION[..], &["--semantics", "integer"]].concat();
    assert!(output(&f, &integers).starts_with("TRUE\n"));
}

#[test]
fn a_loop_with_a_fixed_point_is_nonterminating_before_ranking_templates() {
    // thirty variables: every ranking template is tried in seconds per lasso, the fixed point
    // `cond != 0` with every lock open is one query
    let Some(f) = shared("sv/locks", "test_locks_14-2.c") else { return };
    let out = output(&f, &["--property", "termination", "--data-model", "ilp32", "--timeout", "60", "--stats"]);
    assert!(out.starts_with("FALSE(termination)\n") && out.contains("nontermination_arguments: 1"), "{out}");
}
