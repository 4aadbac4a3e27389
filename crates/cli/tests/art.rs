//! End-to-end tests of the engine `art`: predicate abstraction over an abstract reachability
//! tree, with reachability interpolants (R), conditional interpolation (C) and path
//! simplification (S), on concurrent and sequential programs.

mod common;

use common::{assert_concurrent_seeds, output, own, shared};

/// R, R+C and R+C+S.
const TOGGLES: [[&str; 4]; 3] = [
    ["--conditional-interpolation", "off", "--path-simplification", "off"],
    ["--conditional-interpolation", "on", "--path-simplification", "off"],
    ["--conditional-interpolation", "on", "--path-simplification", "on"],
];

fn art(file: &std::path::Path, extra: &[&str]) -> String {
    output(file, &[&["--engine", "art", "--timeout", "30"], extra].concat())
}

/// A number of the `--json-stats` line.
fn stat(out: &str, key: &str) -> u64 {
    let last = out.lines().last().unwrap_or("");
    let v: serde_json::Value = serde_json::from_str(last).unwrap_or_else(|e| panic!("{e}: {out}"));
    v[key].as_u64().unwrap_or_else(|| panic!("no {key}: {out}"))
}

#[test]
fn the_concurrent_seeds_give_their_verdicts_with_every_toggle() {
    for toggles in TOGGLES {
        assert_concurrent_seeds(&[&["--engine", "art", "--timeout", "30"], &toggles[..]].concat());
    }
}

#[test]
fn conditional_interpolation_prunes_branches_the_path_contradicts() {
    let Some(f) = shared("seeds", "concurrent-single-writer.c") else { return };
    let [r, rc, rcs] = TOGGLES.map(|t| art(&f, &[&t[..], &["--json-stats"]].concat()));
    assert_eq!(stat(&r, "conditional_checks"), 0, "{r}");
    for out in [&rc, &rcs] {
        assert!(stat(out, "conditional_interpolants") > 0, "{out}");
        assert!(stat(out, "art_nodes") < stat(&r, "art_nodes"), "{out}\n{r}");
    }
    // simplification keeps fewer letters of the paths than there are
    assert_eq!(stat(&rc, "conditional_chain_steps"), stat(&rc, "conditional_path_steps"), "{rc}");
    assert!(stat(&rcs, "conditional_chain_steps") < stat(&rcs, "conditional_path_steps"), "{rcs}");
}

#[test]
fn interleavings_keep_every_error_and_statements_stay_non_atomic() {
    for toggles in TOGGLES {
        let out = art(&own("conc-increment-bug.c"), &toggles);
        assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains("conc-increment-bug.c:16:15"), "{toggles:?}: {out}");
        let out = art(&own("conc-atomic-increment.c"), &toggles);
        assert!(out.starts_with("TRUE\n") && out.contains("invariant check: passed"), "{toggles:?}: {out}");
        let out = art(&own("conc-increment-bug.c"), &[&toggles[..], &["--property", "no-data-race"]].concat());
        assert!(out.starts_with("FALSE(no-data-race)\n") && out.contains("conc-increment-bug.c:7:3"), "{toggles:?}: {out}");
        let out = art(&own("conc-unbounded-threads-bug.c"), &toggles);
        assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains("conc-unbounded-threads-bug.c:18:15"), "{toggles:?}: {out}");
    }
    let out = art(&own("conc-unbounded-threads.c"), &[]);
    assert!(out.starts_with("UNKNOWN\n") && out.contains("more threads than instances"), "{out}");
}

#[test]
fn sequential_programs_are_proved_with_checked_invariants_and_their_bugs_found() {
    for order in ["bfs", "dfs"] {
        for precision in ["location", "global"] {
            let args = ["--art-order", order, "--art-precision", precision];
            for name in ["lecture-p-flag.c", "nested-counters.c", "count-up.bpl"] {
                let out = art(&own(name), &args);
                assert!(out.starts_with("TRUE\n") && out.contains("invariant check: passed"), "{name} {args:?}: {out}");
            }
            let out = art(&own("lecture-p-flag-bug.c"), &args);
            assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains("lecture-p-flag-bug.c:11:19"), "{args:?}: {out}");
            let out = art(&own("deep-bug.bpl"), &args);
            assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains("deep-bug.bpl:9:3"), "{args:?}: {out}");
        }
    }
}

#[test]
fn recursion_runs_on_a_call_stack_and_unbounded_recursion_is_never_true() {
    for abstraction in ["cartesian", "boolean"] {
        let args = ["--art-abstraction", abstraction];
        let out = art(&own("rec-count.c"), &args);
        assert!(out.starts_with("TRUE\n") && out.contains("invariant check: passed"), "{args:?}: {out}");
        let out = art(&own("rec-count-bug.c"), &args);
        assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains("rec-count-bug.c:17:5"), "{args:?}: {out}");
        let out = art(&own("lecture-mccarthy91-bug.c"), &args);
        assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains("lecture-mccarthy91-bug.c:15:20"), "{args:?}: {out}");
    }
    // any input: a call stack of every depth, so the tree does not end
    let out = output(&own("lecture-mccarthy91.c"), &["--engine", "art", "--timeout", "3"]);
    assert!(out.starts_with("UNKNOWN\n") && out.contains("timeout"), "{out}");
}

#[test]
fn boolean_abstraction_proves_and_refutes_what_cartesian_does() {
    assert_concurrent_seeds(&["--engine", "art", "--timeout", "30", "--art-abstraction", "boolean"]);
    let args = ["--art-abstraction", "boolean"];
    for name in ["lecture-p-flag.c", "nested-counters.c", "count-up.bpl", "conc-atomic-increment.c"] {
        let out = art(&own(name), &args);
        assert!(out.starts_with("TRUE\n") && out.contains("invariant check: passed"), "{name}: {out}");
    }
    let out = art(&own("conc-increment-bug.c"), &args);
    assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains("conc-increment-bug.c:16:15"), "{out}");
    let out = art(&own("deep-bug.bpl"), &args);
    assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains("deep-bug.bpl:9:3"), "{out}");
}

#[test]
fn the_default_strategy_runs_the_tree_first_on_programs_with_threads_only() {
    let args = ["--timeout", "30", "--jobs", "1", "--stats"];
    // (a program whose interleavings symbolic execution cannot all follow, so it passes on)
    let out = output(&own("conc-loop-counter.c"), &args);
    assert!(
        out.starts_with("TRUE\n")
            && out.contains("strategy: \"exec-finite:5%:0.5s,bmc@polynomial:5%:1s,cells:33.3%,horn:12.5%:10s,exec@threads:25%,art@threads:50%,automizer:80%,bmc:50%,exec\""),
        "{out}"
    );
    assert!(out.contains("engine: \"art\""), "{out}");
    let out = output(&own("lecture-p-flag.c"), &args);
    assert!(out.starts_with("TRUE\n") && !out.contains("engine: \"art\""), "{out}");
}
