//! End-to-end tests: the real binary on the project's own programs and, when the shared
//! benchmark folder is present, on its Boogie tasks.

mod common;

use common::{own, proved};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

/// Says on the terminal that a test did not run, and why. Written to stderr directly, since the
/// test harness hides what a passing test `eprintln!`s.
fn skipped(why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {why}");
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs the binary on `file`, one engine at a time unless `args` say `--jobs` (in a portfolio,
/// which engine answers first decides the statistics and the invariants printed).
fn tracery(args: &[&str], file: &Path) -> Run {
    let jobs: &[&str] = if args.contains(&"--jobs") { &[] } else { &["--jobs", "1"] };
    let out = Command::new(env!("CARGO_BIN_EXE_tracery")).args(jobs).args(args).arg(file).output().expect("the tracery binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn bench() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench");
    if !p.is_dir() {
        skipped(&format!("the shared benchmarks ({}) are not there: the parts of the test that need them do not run", p.display()));
    }
    p.is_dir().then_some(p)
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// The verdict a file's first line announces (`#Safe` → TRUE, `#Unsafe` → FALSE).
fn expected(file: &Path) -> Option<bool> {
    let bytes = std::fs::read(file).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let line = text.lines().next()?;
    if line.contains("#Safe") {
        Some(true)
    } else if line.contains("#Unsafe") {
        Some(false)
    } else {
        None
    }
}

#[test]
fn own_programs_give_their_verdicts() {
    for (name, verdict) in [
        ("count-up.bpl", "TRUE"),
        ("count-up-bug.bpl", "FALSE(unreach-call)"),
        ("contract-call.bpl", "TRUE"),
        ("requires-violated.bpl", "FALSE(unreach-call)"),
        ("external-contract.bpl", "TRUE"),
        ("array-swap.bpl", "TRUE"),
        ("no-implementation.bpl", "TRUE"),
        ("smtdefined-unused.bpl", "TRUE"),
        ("smtdefined-used.bpl", "UNKNOWN"),
    ] {
        let r = tracery(&["--timeout", "30"], &own(name));
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        assert_eq!(first_line(&r.stdout), verdict, "{name}: {}", r.stdout);
    }
}

#[test]
fn accelerated_loops_reach_deep_bugs() {
    let r = tracery(&["--timeout", "30"], &own("deep-bug.bpl"));
    assert_eq!(first_line(&r.stdout), "FALSE(unreach-call)", "{}", r.stdout);
    assert!(r.stdout.contains("deep-bug.bpl:9:") && r.stdout.contains("x = 1000000"), "{}", r.stdout);
    let r = tracery(&["--timeout", "3", "--no-acceleration"], &own("deep-bug.bpl"));
    assert_eq!(first_line(&r.stdout), "UNKNOWN", "{}", r.stdout);
}

/// Nested counting loops: the interval invariants of path programs prove them in a few
/// iterations (interpolants of unrolled loops count iterations), and the loop invariants
/// reported pass their check.
#[test]
fn interval_invariants_prove_nested_counting_loops() {
    let mut tasks = vec![own("nested-counters.c")];
    if let Some(bench) = bench() {
        tasks.extend(["nested_4.c", "nested_5.c", "nested_6.c"].map(|n| bench.join("sv/loop-simple").join(n)));
    }
    for file in &tasks {
        for source in ["portfolio", "intervals"] {
            let r = tracery(&["--timeout", "60", "--data-model", "ILP32", "--refinement", source, "--engine", "automizer"], file);
            assert_eq!(first_line(&r.stdout), "TRUE", "{source} on {}: {}", file.display(), r.stdout);
            assert!(r.stdout.contains("invariant check: passed"), "{source} on {}: {}", file.display(), r.stdout);
        }
    }
}

/// The array cell abstraction proves loops over arrays whose invariants quantify over the
/// cells (own program and SV-COMP array-cav19 tasks); without it they time out; an array bug
/// stays FALSE (the abstraction can only prove).
#[test]
fn cell_abstraction_proves_array_loops() {
    let mut tasks = vec![own("array-init.c")];
    if let Some(bench) = bench() {
        let names = ["array_init_var_plus_ind.c", "array_init_var_plus_ind2.c", "array_init_var_plus_ind3.c", "array_init_nondet_vars.c"];
        tasks.extend(names.map(|n| bench.join("sv/array-cav19").join(n)));
    }
    for file in &tasks {
        // The engine alone: in the default strategy its share of the time is a third, which a
        // loaded machine (tests run in parallel) can exhaust.
        let r = tracery(&["--timeout", "60", "--data-model", "ILP32", "--property", "unreach-call", "--engine", "cells", "--stats"], file);
        assert_eq!(first_line(&r.stdout), "TRUE", "{}: {}", file.display(), r.stdout);
        assert!(
            r.stdout.contains("invariant check: passed") && r.stdout.contains("a#q` stands for `a[#q]`"),
            "{}: {}",
            file.display(),
            r.stdout
        );
        assert!(r.stdout.contains("cell_abstraction_proof: true"), "{}: {}", file.display(), r.stdout);
    }
    let r = tracery(&["--timeout", "5", "--property", "unreach-call", "--no-cell-abstraction", "--no-horn"], &own("array-init.c"));
    assert_eq!(first_line(&r.stdout), "UNKNOWN", "{}", r.stdout);
    let r = tracery(&["--property", "unreach-call"], &own("array-init-bug.c"));
    assert_eq!(first_line(&r.stdout), "FALSE(unreach-call)", "{}", r.stdout);
    assert!(r.stdout.contains("array-init-bug.c:8:"), "{}", r.stdout);
}

/// Where Spacer unrolls (a constant bound, three loops over three arrays, a copy from both
/// ends), Houdini over range templates proves the cell abstraction.
#[test]
fn houdini_proves_array_loops_spacer_unrolls() {
    let Some(bench) = bench() else { return };
    for name in ["array_init_pair_sum_const.c", "array_init_pair_symmetr2.c", "array_tiling_tcpy.c"] {
        let file = bench.join("sv/array-cav19").join(name);
        let r = tracery(&["--timeout", "60", "--data-model", "ILP32", "--property", "unreach-call", "--stats"], &file);
        assert_eq!(first_line(&r.stdout), "TRUE", "{name}: {}", r.stdout);
        assert!(r.stdout.contains("invariant check: passed") && r.stdout.contains("houdini_proof: true"), "{name}: {}", r.stdout);
    }
}

/// Horn solving proves a loop whose invariant is disjunctive (the allocated cell is valid while
/// `i > 0` and freed once the loop is left), which trace abstraction only unrolls.
#[test]
fn horn_solving_proves_disjunctive_invariants() {
    let Some(bench) = bench() else { return };
    let file = bench.join("seeds/lecture-malloc-free.c");
    let r = tracery(&["--timeout", "60", "--property", "default,valid-memsafety", "--stats", "--engine", "horn"], &file);
    assert_eq!(first_line(&r.stdout), "TRUE", "{}", r.stdout);
    assert!(r.stdout.contains("invariant check: passed") && r.stdout.contains("horn_proof: true"), "{}", r.stdout);
    // (trace abstraction alone does not find the disjunction in time)
    let r = tracery(&["--timeout", "5", "--property", "default,valid-memsafety", "--engine", "automizer"], &file);
    assert_eq!(first_line(&r.stdout), "UNKNOWN", "{}", r.stdout);
}

/// A feasible error path through an over-approximated bitwise operator is FALSE only if it
/// stays feasible with the operator's exact bit-vector form.
#[test]
fn bitwise_error_paths_are_rechecked_exactly() {
    let Some(bench) = bench() else { return };
    let dir = bench.join("ultimate/programs/regression/c");
    let r = tracery(&["--timeout", "60"], &dir.join("bitwiseOrUnsignedMinimal.c"));
    assert_eq!(first_line(&r.stdout), "FALSE(unreach-call)", "{}", r.stdout);
    assert!(r.stdout.contains("bitwiseOrUnsignedMinimal.c:17:"), "{}", r.stdout);
    // safe: the over-approximation reaches the error, the exact form does not
    let r = tracery(&["--timeout", "60", "--semantics", "integer"], &dir.join("bitwiseUnsignedEquals.c"));
    assert_eq!(first_line(&r.stdout), "UNKNOWN", "{}", r.stdout);
    assert!(r.stdout.contains("over-approximated"), "{}", r.stdout);
}

/// `&`, `|` and `^` of values that are 0 or 1 (comparisons, and such operators of them) are
/// exact with integers: no over-approximation, no second run with bit-vectors.
#[test]
fn bitwise_operators_of_truth_values_are_exact_with_integers() {
    let r = tracery(&["--timeout", "30", "--semantics", "integer"], &own("bitwise-conditions.c"));
    assert_eq!(first_line(&r.stdout), "TRUE", "{}", r.stdout);
    let r = tracery(&["--timeout", "30"], &own("bitwise-conditions-bug.c"));
    assert_eq!(first_line(&r.stdout), "FALSE(unreach-call)", "{}", r.stdout);
    assert!(r.stdout.contains("bitwise-conditions-bug.c:11:7") && !r.stdout.contains("semantics: bitvector"), "{}", r.stdout);
}

/// Under `--semantics bitvector` the bitwise operators are exact: tasks the integer semantics
/// leaves UNKNOWN are proved, bugs are still found, and inputs read as C values. The default,
/// `auto`, gets there by verifying again with bit-vectors, and says so.
#[test]
fn bitvector_semantics_proves_what_integers_over_approximate() {
    let Some(bench) = bench() else { return };
    let dir = bench.join("ultimate/programs/regression/c");
    let bv = ["--semantics", "bitvector", "--timeout", "60"];
    for task in ["bitwiseUnsignedEquals.c", "BitwiseOperations01.c"] {
        let file = dir.join(task);
        assert_eq!(expected(&file), Some(true), "{task}");
        let r = tracery(&bv, &file);
        assert_eq!(first_line(&r.stdout), "TRUE", "{task}: {}", r.stdout);
        // integers over-approximate these tasks' bitwise operators
        let r = tracery(&["--timeout", "60", "--semantics", "integer"], &file);
        assert_eq!(first_line(&r.stdout), "UNKNOWN", "{task}: {}", r.stdout);
        let r = tracery(&["--timeout", "60"], &file);
        assert_eq!(first_line(&r.stdout), "TRUE", "{task}: {}", r.stdout);
        assert!(
            r.stdout.contains("semantics: bitvector (with integers: feasible error trace uses an over-approximation"),
            "{task}: {}",
            r.stdout
        );
    }
    // a bug behind over-approximated operators: with integers, the error path's exact
    // statements are checked with the over-approximation's values as hints, and confirm it
    let file = dir.join("BitwiseOperations02.c");
    for args in [&bv[..], &["--timeout", "60", "--semantics", "integer"], &["--timeout", "60"]] {
        let r = tracery(args, &file);
        assert!(r.stdout.starts_with("FALSE(unreach-call)\n") && r.stdout.contains("BitwiseOperations02.c:28:3"), "{args:?}: {}", r.stdout);
    }
    let r = tracery(&bv, &dir.join("bitwiseOrUnsignedMinimal.c"));
    assert_eq!(first_line(&r.stdout), "FALSE(unreach-call)", "{}", r.stdout);
    assert!(r.stdout.contains("bitwiseOrUnsignedMinimal.c:17:"), "{}", r.stdout);
    let bug = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cfront/tests/programs/bitwise_exact_false.c");
    let r = tracery(&bv, &bug);
    assert_eq!(first_line(&r.stdout), "FALSE(unreach-call)", "{}", r.stdout);
    let inputs = r.stdout.lines().find(|l| l.starts_with("inputs:")).unwrap_or_default();
    assert!(!inputs.is_empty() && !inputs.contains("bv"), "inputs are shown as C integers: {}", r.stdout);
}

/// Floats: integers leave the comparisons of these tasks over-approximated (UNKNOWN); the
/// default verifies again with IEEE floats and proves them.
#[test]
fn ieee_floats_prove_what_integers_leave_opaque() {
    let Some(bench) = bench() else { return };
    let dir = bench.join("ultimate/programs/toy/tooDifficultLoopInvariant/HierarchicalTraceAbstraction");
    for task in ["BasiliqueDuSacreCoeur.c", "RunningAtTheSaine.c"] {
        let file = dir.join(task);
        assert_eq!(expected(&file), Some(true), "{task} is labelled safe");
        let r = tracery(&["--timeout", "60", "--semantics", "integer"], &file);
        assert_eq!(first_line(&r.stdout), "UNKNOWN", "{task}: {}", r.stdout);
        assert!(r.stdout.contains("floating-point comparison"), "{task}: {}", r.stdout);
        let r = tracery(&["--timeout", "60"], &file);
        assert_eq!(first_line(&r.stdout), "TRUE", "{task}: {}", r.stdout);
        assert!(r.stdout.contains("invariant check: passed") && r.stdout.contains("semantics: bitvector"), "{task}: {}", r.stdout);
    }
}

#[test]
fn counterexample_names_the_violated_line() {
    let r = tracery(&[], &own("count-up-bug.bpl"));
    assert!(r.stdout.contains("assertion may fail at") && r.stdout.contains("count-up-bug.bpl:11:"), "{}", r.stdout);
    let r = tracery(&[], &own("requires-violated.bpl"));
    assert!(r.stdout.contains("precondition of call may not hold") && r.stdout.contains("requires-violated.bpl:13:"), "{}", r.stdout);
}

/// Craig and the four weakest-precondition variants of Newton give the right verdicts on the
/// own programs and, when the shared benchmark folder is present, on the seed safety tasks.
#[test]
fn craig_and_wp_refinements_give_the_same_verdicts() {
    let mut tasks = vec![(own("count-up.bpl"), "TRUE"), (own("count-up-bug.bpl"), "FALSE(unreach-call)")];
    if let Some(bench) = bench() {
        let seeds = bench.join("seeds");
        for name in ["paper-fig1-arrays.bpl", "paper-live-variables.bpl", "lecture-p-flag.bpl", "lecture-p-flag.c"] {
            tasks.push((seeds.join(name), "TRUE"));
        }
        tasks.push((seeds.join("lecture-p-flag-bug.c"), "FALSE(unreach-call)"));
    }
    for source in ["craig", "wp", "it-wp", "wp-lv", "it-wp-lv"] {
        for (file, verdict) in &tasks {
            let r = tracery(&["--timeout", "60", "--refinement", source], file);
            assert_eq!(first_line(&r.stdout), *verdict, "{source} on {}: {}", file.display(), r.stdout);
        }
    }
}

/// A parallel portfolio gives the seed tasks' verdicts, whichever engine answers first, and a
/// TRUE's invariants pass their check.
#[test]
fn a_parallel_portfolio_gives_the_seed_verdicts() {
    let mut tasks = vec![(own("count-up.bpl"), "TRUE"), (own("count-up-bug.bpl"), "FALSE(unreach-call)")];
    if let Some(bench) = bench() {
        let seeds = bench.join("seeds");
        for name in ["paper-fig1-arrays.bpl", "paper-live-variables.bpl", "lecture-p-flag.c", "lecture-mccarthy91.c", "lecture-double.c"] {
            tasks.push((seeds.join(name), "TRUE"));
        }
        for name in ["lecture-p-flag-bug.c", "lecture-mccarthy91-bug.c"] {
            tasks.push((seeds.join(name), "FALSE(unreach-call)"));
        }
    }
    for (file, verdict) in &tasks {
        for jobs in ["2", "3"] {
            let r = tracery(&["--timeout", "60", "--jobs", jobs, "--stats"], file);
            assert_eq!(first_line(&r.stdout), *verdict, "--jobs {jobs} on {}: {}", file.display(), r.stdout);
            if *verdict == "TRUE" {
                assert!(proved(&r.stdout), "--jobs {jobs} on {}: {}", file.display(), r.stdout);
            }
            assert!(r.stdout.contains("engine: \""), "{}", r.stdout);
        }
    }
}

fn installed(prog: &str) -> bool {
    let found = std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(prog).is_file()));
    if !found {
        skipped(&format!("`{prog}` is not installed: the part of the test that needs it does not run (.ci/run installs it)"));
    }
    found
}

const CVC5: &str = "smtlib:cvc5 --incremental --lang smt2";

/// A solver process killed at the end of the run (its pipe closed under a pending write) ends
/// neither Tracery nor its answer.
#[test]
fn a_solver_killed_at_the_timeout_leaves_an_answer() {
    let Some(bench) = bench() else { return };
    if !installed("cvc5") {
        return;
    }
    let file = bench.join("ultimate/programs/loopAcceleration/array/HavocRange02-Kovel.bpl");
    let r = tracery(&["--solver", CVC5, "--timeout", "3"], &file);
    assert_eq!(r.code, 0, "{} {}", r.stdout, r.stderr);
    assert!(["UNKNOWN", "FALSE(unreach-call)"].contains(&first_line(&r.stdout)), "{}", r.stdout);
}

#[test]
fn smtlib_solvers_give_the_same_verdicts() {
    for (solver, prog) in [(CVC5, "cvc5"), ("smtlib:z3 -in", "z3")] {
        if !installed(prog) {
            continue;
        }
        for (name, verdict) in [("count-up.bpl", "TRUE"), ("count-up-bug.bpl", "FALSE(unreach-call)")] {
            let r = tracery(&["--solver", solver, "--json-stats"], &own(name));
            assert_eq!(first_line(&r.stdout), verdict, "{solver} {name}: {} {}", r.stdout, r.stderr);
            assert!(r.stdout.contains(&format!("\"solver\":\"{solver}\"")), "{}", r.stdout);
        }
        let Some(bench) = bench() else { continue };
        let r = tracery(&["--solver", solver, "--timeout", "60"], &bench.join("seeds/lecture-p-flag.bpl"));
        assert_eq!(first_line(&r.stdout), "TRUE", "{solver}: {} {}", r.stdout, r.stderr);
    }
}

#[test]
fn craig_smtlib_gives_the_right_verdicts() {
    if !installed("cvc5") {
        return;
    }
    let r = tracery(&["--refinement", "craig-smtlib"], &own("count-up-bug.bpl"));
    assert_eq!(first_line(&r.stdout), "FALSE(unreach-call)", "{}", r.stdout);
    let Some(bench) = bench() else { return };
    for name in ["lecture-p-flag.bpl", "paper-live-variables.bpl", "paper-fig1-arrays.bpl"] {
        // Without Horn solving, which would prove these before the interpolator is asked.
        let r = tracery(&["--refinement", "craig-smtlib", "--timeout", "60", "--json-stats", "--no-horn"], &bench.join("seeds").join(name));
        assert_eq!(first_line(&r.stdout), "TRUE", "{name}: {} {}", r.stdout, r.stderr);
        let stats: serde_json::Value = serde_json::from_str(r.stdout.lines().last().unwrap_or("")).expect("JSON statistics");
        assert!(stats["interpolator"]["queries"].as_u64() > Some(0), "{name}: {stats}");
    }
}

#[test]
fn a_solver_that_cannot_start_is_an_error() {
    let r = tracery(&["--solver", "smtlib:/nonexistent/solver -in"], &own("count-up.bpl"));
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.stderr.contains("cannot start `/nonexistent/solver -in`"), "{}", r.stderr);
    let r = tracery(&["--refinement", "craig-smtlib", "--interpolator", "/nonexistent/cvc5"], &own("count-up.bpl"));
    assert_eq!(r.code, 2, "{}", r.stdout);
    let r = tracery(&["--solver", "cvc5"], &own("count-up.bpl"));
    assert_eq!(r.code, 2, "{}", r.stdout);
}

#[test]
fn syntax_and_type_errors_are_diagnosed_with_exit_code_2() {
    let r = tracery(&[], &own("syntax-error.bpl"));
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.stderr.contains("syntax-error.bpl:4:"), "{}", r.stderr);
    let r = tracery(&[], &own("type-error.bpl"));
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.stderr.contains("type-error.bpl:5:"), "{}", r.stderr);
}

#[test]
fn dump_ir_prints_boogie() {
    let r = tracery(&["--dump-ir"], &own("count-up.bpl"));
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("procedure main"), "{}", r.stdout);
}

#[test]
fn stats_report_iterations() {
    let r = tracery(&["--stats"], &own("count-up.bpl"));
    assert_eq!(first_line(&r.stdout), "TRUE");
    assert!(r.stdout.contains("iterations:"), "{}", r.stdout);
}

#[test]
fn seed_boogie_tasks() {
    let Some(bench) = bench() else { return };
    for name in ["paper-fig1-arrays.bpl", "paper-live-variables.bpl", "lecture-p-flag.bpl"] {
        let file = bench.join("seeds").join(name);
        let r = tracery(&["--timeout", "10"], &file);
        assert_eq!(first_line(&r.stdout), "TRUE", "{name}: {}", r.stdout);
    }
}

#[test]
fn seed_c_tasks() {
    let Some(bench) = bench() else { return };
    let seeds = bench.join("seeds");
    for (name, props, verdict) in [
        ("lecture-p-flag.c", "default", "TRUE"),
        ("lecture-p-flag-bug.c", "default", "FALSE(unreach-call)"),
        ("lecture-malloc-free.c", "default,valid-memsafety", "TRUE"),
        ("lecture-malloc-free-bug.c", "default,valid-memsafety", "FALSE(valid-deref)"),
    ] {
        let r = tracery(&["--timeout", "60", "--property", props], &seeds.join(name));
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        assert_eq!(first_line(&r.stdout), verdict, "{name}: {}", r.stdout);
    }
    let r = tracery(&[], &seeds.join("lecture-p-flag-bug.c"));
    assert!(r.stdout.contains("lecture-p-flag-bug.c:11:"), "{}", r.stdout);
}

/// `sizeof(long) == 4` holds under ILP32 only: the data model decides the verdict.
#[test]
fn data_model_decides_the_size_of_long() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cfront/tests/programs/long_size.c");
    let r = tracery(&["--data-model", "ILP32"], &file);
    assert_eq!(first_line(&r.stdout), "TRUE", "{}", r.stdout);
    let r = tracery(&["--data-model", "LP64"], &file);
    assert_eq!(first_line(&r.stdout), "FALSE(unreach-call)", "{}", r.stdout);
}

#[test]
fn properties_select_what_is_checked() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cfront/tests/programs/signed_overflow.c");
    let r = tracery(&["--property", "no-overflow"], &file);
    assert_eq!(first_line(&r.stdout), "FALSE(no-overflow)", "{}", r.stdout);
    let r = tracery(&["--property", "unreach-call"], &file);
    assert_eq!(first_line(&r.stdout), "TRUE", "{}", r.stdout);
    // a property Tracery does not check is never answered TRUE
    let r = tracery(&["--property", "def-behavior"], &file);
    assert_eq!(first_line(&r.stdout), "UNKNOWN", "{}", r.stdout);
    // a program that starts no thread has no data race
    let r = tracery(&["--property", "no-data-race"], &file);
    assert_eq!(first_line(&r.stdout), "TRUE", "{}", r.stdout);
    let r = tracery(&["--property", "no-overflow"], &own("count-up.bpl"));
    assert_eq!(first_line(&r.stdout), "UNKNOWN", "{}", r.stdout);
    let r = tracery(&["--property", "no-such-property"], &file);
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.stderr.contains("unknown property `no-such-property`"), "{}", r.stderr);
}

#[test]
fn other_inputs_are_unknown_with_the_reason() {
    let dir = std::env::temp_dir().join(format!("tracery-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("program.java");
    std::fs::write(&file, "class A {}").unwrap();
    let r = tracery(&[], &file);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(first_line(&r.stdout), "UNKNOWN");
    assert!(r.stdout.contains("Tracery reads C (.c, .i) and Boogie (.bpl) programs"), "{}", r.stdout);
    let r = tracery(&[], &dir.join("missing.c"));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("cannot read"), "{}", r.stderr);
    std::fs::remove_dir_all(&dir).ok();
}

fn files_with(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files_with(&p, exts, out);
        } else if p.extension().and_then(|x| x.to_str()).is_some_and(|x| exts.contains(&x)) {
            out.push(p);
        }
    }
}

/// The entries of the project's `MISLABELED`: a line `PATH  LABEL` each (the reason below it).
fn mislabeled() -> impl Iterator<Item = (&'static str, &'static str)> {
    let entries = include_str!("../../../MISLABELED").lines().filter(|l| !l.starts_with(['#', ' ']) && !l.is_empty());
    entries.filter_map(|l| l.split_once(char::is_whitespace)).map(|(path, label)| (path, label.trim()))
}

/// The verdict a corpus task must get: its annotation, unless `MISLABELED` disputes it, then the
/// opposite of its label.
fn semantic_verdict(file: &Path) -> Option<bool> {
    match mislabeled().find(|(path, _)| file.ends_with(path)) {
        Some((_, label)) => Some(matches!(label, "#Unsafe" | "#rNonTermination" | "#rNonTerminationDerivable" | "false-termination")),
        None => expected(file),
    }
}

#[test]
fn mislabeled_names_existing_tasks_by_their_labels() {
    let Some(bench) = bench() else { return };
    for (path, label) in mislabeled() {
        let text = std::fs::read_to_string(bench.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(text.contains(label) || path.contains(label), "{path} is not labelled {label}");
    }
}

/// Runs every file with one of the extensions `exts` under `dirs` (two at a time, with the
/// options `args`) and returns the failures: wrong verdicts, crashes (an exit code other
/// than 0 and 2), and TRUE answers whose invariants fail their own check.
fn run_corpus(bench: &Path, dirs: &[&str], exts: &[&str], args: &[&str]) -> Vec<String> {
    let mut files = vec![];
    for d in dirs {
        files_with(&bench.join(d), exts, &mut files);
    }
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    files.sort();
    let queue = Arc::new(Mutex::new(files));
    let failures = Arc::new(Mutex::new(Vec::new()));
    let counts = Arc::new(Mutex::new([0usize; 3]));
    let workers: Vec<_> = (0..2)
        .map(|_| {
            let (queue, failures, counts) = (queue.clone(), failures.clone(), counts.clone());
            let args = args.clone();
            std::thread::spawn(move || {
                while let Some(file) = queue.lock().map(|mut q| q.pop()).ok().flatten() {
                    let r = tracery(&args.iter().map(String::as_str).collect::<Vec<_>>(), &file);
                    let line = first_line(&r.stdout).to_string();
                    let verdict = match line.as_str() {
                        "TRUE" => Some(true),
                        l if l.starts_with("FALSE") => Some(false),
                        _ => None,
                    };
                    let mut c = counts.lock().expect("counts");
                    match (verdict, semantic_verdict(&file)) {
                        (Some(v), Some(e)) if v != e => {
                            failures.lock().expect("failures").push(format!("WRONG {}: {}", file.display(), r.stdout))
                        }
                        (Some(_), _) => c[0] += 1,
                        (None, _) => c[1] += 1,
                    }
                    if r.code != 0 && r.code != 2 {
                        failures.lock().expect("failures").push(format!("CRASH {} (exit {}): {}", file.display(), r.code, r.stderr));
                    }
                    if verdict == Some(true) && r.stdout.contains("invariant check: failed") {
                        failures.lock().expect("failures").push(format!("INVARIANTS FAIL THEIR CHECK {}", file.display()));
                    }
                    c[2] += 1;
                }
            })
        })
        .collect();
    for w in workers {
        w.join().expect("worker");
    }
    let c = counts.lock().expect("counts");
    eprintln!("{dirs:?}: {} tasks, {} decided, {} unknown", c[2], c[0], c[1]);
    let f = failures.lock().expect("failures");
    f.clone()
}

/// The Boogie corpus of the core issue: no wrong verdict and no crash on any task.
#[test]
fn boogie_corpus_has_no_wrong_verdict() {
    let Some(bench) = bench() else { return };
    let dirs = ["ultimate/programs/regression/bpl", "ultimate/programs/toy", "ultimate/programs/loopAcceleration"];
    let failures = run_corpus(&bench, &dirs, &["bpl"], &["--timeout", "20"]);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every other Boogie file of the shared benchmarks: no crash and no wrong verdict.
#[test]
fn other_boogie_files_do_not_crash() {
    let Some(bench) = bench() else { return };
    let dirs = ["seeds", "ultimate/programs/recursive", "ultimate/programs/bitvector"];
    let failures = run_corpus(&bench, &dirs, &["bpl"], &["--timeout", "5"]);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A fixed sample of the concurrent corpus (Boogie fork/join, pthreads with atomic sections,
/// data races), each with its property: no wrong verdict, no crash.
#[test]
fn concurrent_corpus_sample_has_no_wrong_verdict() {
    let Some(bench) = bench() else { return };
    let p = "ultimate/concurrent";
    let runs: [(&str, &[&str], &[&str]); 4] = [
        ("bpl/regression", &["bpl"], &["--timeout", "10"]),
        ("pthreads/regression/atomic", &["c"], &["--timeout", "10"]),
        ("pthreads/unsupported-atomic", &["c"], &["--timeout", "10"]),
        ("pthreads/races/regression", &["c"], &["--timeout", "10", "--property", "no-data-race"]),
    ];
    let mut failures = vec![];
    for (dir, exts, args) in runs {
        failures.extend(run_corpus(&bench, &[&format!("{p}/{dir}")], exts, args));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The C corpora of the C front-end issue, each with its properties: no wrong verdict, no crash.
#[test]
fn c_corpus_has_no_wrong_verdict() {
    let Some(bench) = bench() else { return };
    let p = "ultimate/programs";
    let runs: [(&[&str], &[&str]); 3] = [
        (&["regression/c", "toy", "bitvector", "recursive"], &["--timeout", "10"]),
        (&["SignedIntegerOverflow"], &["--timeout", "10", "--property", "default,no-overflow"]),
        (&["memsafety"], &["--timeout", "10", "--property", "default,valid-memsafety", "--data-model", "ILP32"]),
    ];
    let mut failures = vec![];
    for (dirs, args) in runs {
        let dirs: Vec<String> = dirs.iter().map(|d| format!("{p}/{d}")).collect();
        let dirs: Vec<&str> = dirs.iter().map(String::as_str).collect();
        failures.extend(run_corpus(&bench, &dirs, &["c", "i"], args));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A C program without `main` is checked from each function that no other function calls,
/// and says so; `--entry` picks one, and an entry without a definition is UNKNOWN.
#[test]
fn programs_without_main_are_checked_from_their_uncalled_functions() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cfront/tests/programs/no_main_bug.c");
    let r = tracery(&["--timeout", "30"], &file);
    assert_eq!(first_line(&r.stdout), "FALSE(unreach-call)", "{}", r.stdout);
    assert!(r.stdout.contains("no_main_bug.c:7:") && r.stdout.contains("entries: scale, clamp (no `main`"), "{}", r.stdout);
    let r = tracery(&["--timeout", "30", "--entry", "clamp"], &file);
    assert!(proved(&r.stdout), "{}", r.stdout);
    let r = tracery(&["--entry", "main"], &file);
    assert!(r.stdout.starts_with("UNKNOWN\nreason: unsupported: no definition of the entry function `main`"), "{}", r.stdout);
    if let Some(bench) = bench() {
        let r = tracery(&["--timeout", "30"], &bench.join("ultimate/programs/toy/multiply.c"));
        assert!(proved(&r.stdout) && r.stdout.contains("entries: multiply"), "{}", r.stdout);
    }
}
