//! End-to-end tests of the engine `bmc`: bounded model checking of the program automaton.

mod common;

use common::{output, own};

fn bmc(name: &str, timeout: &str) -> String {
    output(&own(name), &["--engine", "bmc", "--timeout", timeout])
}

#[test]
fn bugs_are_found_with_their_error_location() {
    for (name, at) in [
        ("deep-bug.bpl", "deep-bug.bpl:9:3"),
        ("lecture-p-flag-bug.c", "lecture-p-flag-bug.c:11:19"),
        // a bug behind 100 iterations of a loop
        ("poly-sum-bug.c", "poly-sum-bug.c:11:5"),
        // interleavings: a statement of a thread is a letter
        ("conc-increment-bug.c", "conc-increment-bug.c:16:15"),
    ] {
        let out = bmc(name, "30");
        assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains(at), "{name}: {out}");
    }
}

#[test]
fn a_correct_program_is_never_true_and_recursion_is_not_taken() {
    let out = bmc("lecture-p-flag.c", "2");
    assert!(out.starts_with("UNKNOWN\n") && out.contains("bmc: timeout: no error path of fewer than"), "{out}");
    let out = bmc("rec-count-bug.c", "10");
    assert!(out.starts_with("UNKNOWN\n") && out.contains("bmc: recursive programs are not supported"), "{out}");
}
