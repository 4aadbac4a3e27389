//! End-to-end tests of deep bugs: loops with polynomial closed forms, counters that wrap or
//! overflow after many iterations, bounded model checking over accelerated loops, symbolic
//! execution of deterministic and deep recursions, and slicing that leaves loops accelerable.
//! (How fast is measured by `tracery bench` over these programs, not here.)

mod common;

use common::{output, own};

fn assert_false_at(name: &str, args: &[&str], property: &str, at: &str) {
    let out = output(&own(name), args);
    assert!(out.starts_with(&format!("FALSE({property})\n")) && out.contains(at), "{name} {args:?}: {out}");
}

#[test]
fn polynomial_loops_are_accelerated() {
    // a million iterations of `i++; s += i`
    assert_false_at("poly-sum-deep-bug.c", &["--timeout", "30"], "unreach-call", "poly-sum-deep-bug.c:13:5");
    let out = output(&own("poly-sum-deep-bug.c"), &["--timeout", "3", "--no-acceleration"]);
    assert!(out.starts_with("UNKNOWN\n"), "{out}");
}

#[test]
fn counters_wrap_and_overflow_after_many_iterations() {
    // 2^32 - 1 iterations until an unsigned counter wraps
    assert_false_at("wrap-counter-bug.c", &["--timeout", "30"], "unreach-call", "wrap-counter-bug.c:13:5");
    // a signed sum of a counter overflows at the 65536th iteration
    assert_false_at("overflow-sum-bug.c", &["--timeout", "30", "--property", "no-overflow"], "no-overflow", "overflow-sum-bug.c:7:");
}

#[test]
fn bounded_model_checking_takes_accelerated_loops() {
    assert_false_at("poly-sum-deep-bug.c", &["--timeout", "30", "--engine", "bmc"], "unreach-call", "poly-sum-deep-bug.c:13:5");
}

#[test]
fn symbolic_execution_follows_deep_recursions() {
    // two thousand calls, every value a constant
    assert_false_at("fib-bug.c", &["--timeout", "30", "--engine", "exec"], "unreach-call", "fib-bug.c:15:5");
    // two hundred calls deep on a symbolic input
    let out = output(&own("id-depth-bug.c"), &["--timeout", "60", "--engine", "exec"]);
    assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains("id-depth-bug.c:14:5") && out.contains("= 200"), "{out}");
}

#[test]
fn symbolic_execution_never_proves() {
    let out = output(&own("rec-count.c"), &["--timeout", "3", "--engine", "exec"]);
    assert!(out.starts_with("UNKNOWN\n") && out.contains("exec:"), "{out}");
}

#[test]
fn slicing_leaves_the_loop_a_closed_form() {
    // the report still shows the sliced statements: both inputs and the loop's initialization
    let out = output(&own("sliced-junk-bug.c"), &["--timeout", "30"]);
    assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains("sliced-junk-bug.c:14:5"), "{out}");
    assert!(out.contains("inputs: 42, ") && out.contains("s = 0"), "{out}");
    let out = output(&own("sliced-junk-bug.c"), &["--timeout", "3", "--no-slicing"]);
    assert!(out.starts_with("UNKNOWN\n"), "{out}");
}
