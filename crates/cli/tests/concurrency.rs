//! End-to-end tests of concurrent programs: pthreads and Boogie's fork/join, trace abstraction
//! over interleavings, the partial-order reduction (which must keep every reachable error),
//! thread instances, and data races.

mod common;

use common::{assert_concurrent_seeds, output, own, shared, verdict};

const POR: [&str; 4] = ["none", "sleep", "persistent", "both"];

#[test]
fn the_seeds_give_their_verdicts_with_every_reduction() {
    for por in POR {
        assert_concurrent_seeds(&["--timeout", "10", "--por", por]);
    }
}

#[test]
fn statements_of_c_threads_are_not_atomic() {
    for por in POR {
        let args = ["--timeout", "20", "--por", por];
        // `x++` reads, then writes: a lost update
        let out = output(&own("conc-increment-bug.c"), &args);
        assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains("conc-increment-bug.c:16:15"), "{por}: {out}");
        assert_eq!(verdict(&own("conc-atomic-increment.c"), &args), "TRUE", "{por}");
    }
}

#[test]
fn statements_that_commute_concretely_are_reordered_and_others_not() {
    for commutativity in ["syntactic", "semantic"] {
        for por in POR {
            let args = ["--timeout", "20", "--por", por, "--commutativity", commutativity];
            assert_eq!(verdict(&own("conc-commuting-counter.bpl"), &args), "TRUE", "{por}, {commutativity}");
            // the doubling first: the one order that fails
            let out = output(&own("conc-commuting-counter-bug.bpl"), &args);
            assert!(
                out.starts_with("FALSE(unreach-call)\n") && out.contains("conc-commuting-counter-bug.bpl:13:3"),
                "{por}, {commutativity}: {out}"
            );
        }
    }
}

#[test]
fn unboundedly_many_threads_are_never_safe_but_their_bugs_are_found() {
    // every run with more instances reaches a fork beyond them, until time runs out
    let out = output(&own("conc-unbounded-threads.c"), &["--timeout", "20"]);
    assert!(out.starts_with("UNKNOWN\n") && out.contains("more threads than instances"), "{out}");
    for por in POR {
        let out = output(&own("conc-unbounded-threads-bug.c"), &["--timeout", "20", "--por", por]);
        assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains("conc-unbounded-threads-bug.c:18:15"), "{por}: {out}");
    }
}

#[test]
fn a_run_that_needs_other_thread_instances_is_repeated_with_them() {
    // five threads at once: four instances reach a fork beyond them, more decide (also when
    // the stateful search alone explores every path of four)
    for engine in [&["--engine", "exec"][..], &[]] {
        let args = [&["--timeout", "20"], engine].concat();
        let out = output(&own("conc-five-threads.bpl"), &args);
        assert!(out.starts_with("TRUE\n"), "{out}");
        let out = output(&own("conc-five-threads-bug.bpl"), &args);
        assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains("conc-five-threads-bug.bpl:25:3"), "{out}");
    }
    // the interleavings of four instances are too many; two threads reach the error
    let Some(f) = shared("ultimate/concurrent/pthreads/regression", "globalVariableMultipleThreads.c") else { return };
    let out = output(&f, &["--timeout", "30"]);
    assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains("globalVariableMultipleThreads.c:25:5"), "{out}");
}

#[test]
fn a_join_assigns_the_results_of_the_thread_with_its_id() {
    let out = output(&own("conc-join-result.bpl"), &["--timeout", "20"]);
    // the first assertion holds (thread 2 returned 2), the second fails (thread 1 returned 1)
    assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains("conc-join-result.bpl:10:3"), "{out}");
}

#[test]
fn data_races_are_found_and_race_free_programs_proved() {
    for por in POR {
        let args = ["--property", "no-data-race", "--timeout", "20", "--por", por];
        let out = output(&own("conc-increment-bug.c"), &args);
        assert!(out.starts_with("FALSE(no-data-race)\n") && out.contains("conc-increment-bug.c:7:3"), "{por}: {out}");
        // the race is on a[0]: the read in `second` (its statement, or the read itself, as the
        // search meets them) and the write in `first`
        let out = output(&own("conc-race-array.c"), &args);
        assert!(out.starts_with("FALSE(no-data-race)\n") && out.contains("conc-race-array.c:12:"), "{por}: {out}");
        assert!(out.trim_end().ends_with("a[0] = 1;"), "{por}: {out}");
        assert_eq!(verdict(&own("conc-race-cells.c"), &args), "TRUE", "{por}");
        assert_eq!(verdict(&own("conc-race-free.c"), &args), "TRUE", "{por}");
        // a copy of a whole struct accesses every cell of its array member
        let out = output(&own("conc-race-copy.c"), &args);
        assert!(out.starts_with("FALSE(no-data-race)\n") && out.contains("conc-race-copy.c:7:3"), "{por}: {out}");
        assert!(out.trim_end().ends_with("copy = shared;"), "{por}: {out}");
        assert_eq!(verdict(&own("conc-race-copy-free.c"), &args), "TRUE", "{por}");
        // accesses through GCC's atomic builtins are atomic; a plain write beside them races
        assert_eq!(verdict(&own("conc-atomic-builtins.c"), &args), "TRUE", "{por}");
        let out = output(&own("conc-atomic-mixed.c"), &args);
        assert!(out.starts_with("FALSE(no-data-race)\n") && out.contains("conc-atomic-mixed.c:9:3"), "{por}: {out}");
    }
}

#[test]
fn unsupported_thread_operations_are_named() {
    let out = output(&own("conc-cancel.c"), &["--timeout", "10"]);
    assert!(out.starts_with("UNKNOWN\n") && out.contains("`pthread_cancel` at") && out.contains("conc-cancel.c:7:3"), "{out}");
    let out = output(&own("conc-recursion.bpl"), &["--timeout", "10"]);
    assert!(out.starts_with("UNKNOWN\n") && out.contains("the recursive procedure `worker`"), "{out}");
}

#[test]
fn the_thread_library_synchronizes_as_posix_defines() {
    // each program is proved, and its variant, which synchronizes less, fails at the line given
    let cases = [
        ("semaphore", "9:19"),
        ("barrier", "9:24"),
        ("rwlock", "9:15"),
        ("once", "16:18"),
        ("self", "19:39"),
        ("spin", "21:17"),
        ("recursive-mutex", "25:15"),
        ("errorcheck-mutex", "22:3"),
    ];
    for engine in [&["--engine", "exec"][..], &[]] {
        for (name, line) in cases {
            let args = [&["--timeout", "30"], engine].concat();
            let engine = engine.join(" ");
            assert_eq!(verdict(&own(&format!("conc-{name}.c")), &args), "TRUE", "{engine}: {name}");
            let out = output(&own(&format!("conc-{name}-bug.c")), &args);
            assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains(&format!("conc-{name}-bug.c:{line}")), "{engine}: {out}");
        }
    }
    // a semaphore orders accesses like a mutex; one that admits two threads lets them race
    let race = ["--property", "no-data-race", "--timeout", "30"];
    assert_eq!(verdict(&own("conc-semaphore.c"), &race), "TRUE");
    let out = output(&own("conc-semaphore-bug.c"), &race);
    assert!(out.starts_with("FALSE(no-data-race)\n") && out.contains("conc-semaphore-bug.c:8:3"), "{out}");
    // thread-specific data: each thread sees its own value
    if let Some(f) = shared("sv/pthread-divine", "tls_basic.i") {
        assert_eq!(verdict(&f, &["--timeout", "30"]), "TRUE");
    }
    // glibc's static initializer of a recursive mutex is not modelled (a normal mutex's is all
    // zeros)
    let out = output(&own("conc-recursive-mutex-static.c"), &["--timeout", "10"]);
    assert!(
        out.starts_with("UNKNOWN\n")
            && out.contains("a static initializer of a mutex type")
            && out.contains("conc-recursive-mutex-static.c:4:"),
        "{out}"
    );
    // an error-checking mutex unlocked by a thread that does not hold it stays held: the race is
    // the one where main unlocks it itself
    if let Some(f) = shared("sv/goblint-regression", "04-mutex_23-sound_unlock.c") {
        let out = output(&f, &race);
        assert!(out.starts_with("FALSE(no-data-race)\n") && out.contains("04-mutex_23-sound_unlock.c:13:3"), "{out}");
    }
}

#[test]
fn the_stateful_search_decides_programs_with_finitely_many_states() {
    // each state is explored once: a bug behind one interleaving of 20 atomic additions, its
    // fixed twin, and threads that read inputs (the bug needs two different ones), under every
    // reduction, by the search alone and by the default strategy
    for por in POR {
        for engine in [&["--engine", "exec"][..], &[]] {
            let args = [&["--timeout", "30", "--por", por], engine].concat();
            let how = format!("{por} {}", engine.join(" "));
            let out = output(&own("conc-handoff-bug.c"), &args);
            assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains("conc-handoff-bug.c:30:29"), "{how}: {out}");
            assert_eq!(verdict(&own("conc-handoff.c"), &args), "TRUE", "{how}");
            let out = output(&own("conc-input-sum-bug.c"), &args);
            assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains("conc-input-sum-bug.c:22:19"), "{how}: {out}");
            assert_eq!(verdict(&own("conc-input-sum.c"), &args), "TRUE", "{how}");
        }
    }
    // two threads through two barriers built of a mutex and condition variables, no input
    if let Some(f) = shared("sv/pthread-divine", "barrier_2t.i") {
        assert_eq!(verdict(&f, &["--timeout", "30", "--engine", "exec"]), "TRUE");
        assert_eq!(verdict(&f, &["--timeout", "30"]), "TRUE");
    }
}
