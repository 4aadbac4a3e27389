//! End-to-end tests of deep bugs: loops with polynomial closed forms, counters that wrap or
//! overflow after many iterations, bounded model checking over accelerated loops, symbolic
//! execution of deterministic and deep recursions (and its proofs of programs whose paths all
//! end or return to states they passed), and slicing that leaves loops accelerable.
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
fn symbolic_execution_proves_programs_whose_paths_all_end() {
    for name in ["rec-count.c", "exec-branches.c"] {
        let out = output(&own(name), &["--timeout", "30", "--engine", "exec"]);
        assert!(out.starts_with("TRUE\n") && out.contains("every path explored [entry main]: "), "{name}: {out}");
    }
    // every interleaving ends
    let out = output(&own("conc-race-cells.c"), &["--timeout", "30", "--engine", "exec", "--property", "no-data-race"]);
    assert!(out.starts_with("TRUE\n") && out.contains("every path explored"), "{out}");
}

#[test]
fn symbolic_execution_proves_nothing_when_a_path_may_not_end() {
    // the recursion is as deep as the input is small
    let out = output(&own("lecture-mccarthy91.c"), &["--timeout", "3", "--engine", "exec"]);
    assert!(out.starts_with("UNKNOWN\n") && out.contains("exec:"), "{out}");
    // every path ends, but some start more threads than the program model has
    let out = output(&own("conc-unbounded-threads.c"), &["--timeout", "30", "--engine", "exec"]);
    assert!(out.starts_with("UNKNOWN\n") && out.contains("more threads than modeled"), "{out}");
}

#[test]
fn symbolic_execution_ends_paths_that_return_to_a_state_they_passed() {
    // loops that never end, over finitely many states: sequential, `while (*)` in Boogie, and
    // a thread that runs forever beside main
    for name in ["exec-cycle.c", "exec-oscillate.bpl", "conc-cycle.c"] {
        let out = output(&own(name), &["--timeout", "30", "--engine", "exec"]);
        assert!(out.starts_with("TRUE\n") && out.contains("every path explored [entry main]: "), "{name}: {out}");
    }
    // the bugs behind such loops are still found: the eleventh state of the cycle, and the
    // interleaving where the thread counts twice before main reads
    assert_false_at("exec-cycle-bug.c", &["--timeout", "30", "--engine", "exec"], "unreach-call", "exec-cycle-bug.c:12:7");
    assert_false_at("conc-cycle-bug.c", &["--timeout", "30", "--engine", "exec"], "unreach-call", "conc-cycle-bug.c:16:5");
}

#[test]
fn symbolic_execution_runs_deterministic_code_on_values() {
    // a CRC table of 2,048 rounds of bitwise operators and the checksum of a string, under
    // integer semantics (the operators' exact statements) and bit-vectors, in exec-finite's
    // share of the default strategy: proved, and its bug found with the path run again
    for semantics in ["integer", "bitvector"] {
        let args = ["--timeout", "30", "--engine", "exec-finite:5%:0.5s", "--semantics", semantics];
        let out = output(&own("exec-crc-table.c"), &args);
        assert!(out.starts_with("TRUE\n") && out.contains("every path explored [entry main]: "), "{semantics}: {out}");
        assert_false_at("exec-crc-table-bug.c", &args, "unreach-call", "exec-crc-table-bug.c:17:9");
    }
}

#[test]
fn symbolic_execution_reports_a_bug_only_if_no_over_approximated_choice_decides_it() {
    // an address comparison that the model decides exactly on this path, though the program
    // makes a pointer from an integer
    assert_false_at(
        "exec-address-comparison-bug.c",
        &["--timeout", "30", "--engine", "exec"],
        "unreach-call",
        "exec-address-comparison-bug.c:10:9",
    );
    // a comparison of doubles, which integer semantics does not model, decides the error
    let out = output(&own("exec-float-choice.c"), &["--timeout", "30", "--engine", "exec", "--semantics", "integer"]);
    assert!(out.starts_with("UNKNOWN\n") && out.contains("over-approximation: floating-point comparison"), "{out}");
    assert_false_at(
        "exec-float-choice.c",
        &["--timeout", "30", "--engine", "exec", "--semantics", "bitvector"],
        "unreach-call",
        "exec-float-choice.c:8:9",
    );
}

#[test]
fn symbolic_execution_of_few_paths_gives_up_on_many() {
    // eleven paths, ten branches on the input: decided
    let out = output(&own("exec-branches.c"), &["--timeout", "30", "--engine", "exec-finite"]);
    assert!(out.starts_with("TRUE\n") && out.contains("every path explored [entry main]: "), "{out}");
    // a loop that decides on an input at every iteration: it gives up without waiting for the limit
    let out = output(&own("exec-input-loop.c"), &["--timeout", "30", "--engine", "exec-finite"]);
    assert!(out.starts_with("UNKNOWN\n") && out.contains("branched on inputs 32 times at one statement (too many paths)"), "{out}");
    // a recursion as deep as its input is not such a loop: a bug two hundred calls deep is found
    let out = output(&own("id-depth-bug.c"), &["--timeout", "60", "--engine", "exec-finite"]);
    assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains("id-depth-bug.c:14:5") && out.contains("= 200"), "{out}");
    // bugs on paths with fewer such branches are found
    assert_false_at(
        "lecture-mccarthy91-bug.c",
        &["--timeout", "30", "--engine", "exec-finite"],
        "unreach-call",
        "lecture-mccarthy91-bug.c:15:20",
    );
    assert_false_at("fib-bug.c", &["--timeout", "30", "--engine", "exec-finite"], "unreach-call", "fib-bug.c:15:5");
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

#[test]
fn symbolic_execution_runs_the_library_models_of_conversions() {
    for model in ["ilp32", "lp64"] {
        let args = ["--engine", "exec", "--timeout", "120", "--data-model", model];
        let out = output(&own("library-conversions.c"), &args);
        assert!(out.starts_with("TRUE\n") && out.contains("every path explored"), "{model}: {out}");
        assert_false_at("library-conversions-bug.c", &args, "unreach-call", "library-conversions-bug.c:13:5");
    }
}

#[test]
fn constraint_problems_with_an_abort_after_each_check_are_one_block() {
    // a satisfiable SAT instance of 100 variables and 600 input checks, each an `abort()` and
    // each clause a `|` of `&`s of comparisons: the path to `reach_error` is one large block,
    // decided exactly with integers, and its source steps come from the one trace check
    let Some(f) = common::shared("sv/xcsp", "aim-100-1-6-sat-1.c") else { return };
    for engine in ["automizer", "bmc"] {
        let out = output(&f, &["--timeout", "60", "--data-model", "ilp32", "--semantics", "integer", "--engine", engine]);
        assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains("aim-100-1-6-sat-1.c:587:3"), "{engine}: {out}");
        assert!(out.contains("condition false"), "{engine}: {out}");
    }
}
