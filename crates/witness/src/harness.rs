//! A C test harness that replays a counterexample natively: `gcc harness.c program.c && ./a.out`
//! exits with status 1 when the error is reached. It defines the functions the program declares
//! but does not define: the input functions return the counterexample's values in the order the
//! path calls them, the error functions print and exit with status 1, `__VERIFIER_assume` ends a
//! run that leaves the path with status 0. For a lasso (nontermination) the inputs of the loop
//! repeat round after round, and a run still going after [`BOUND_SECONDS`] exits with status 1:
//! the loop did not end (a run that ends exits with its own status).

use cfront::{BackTranslation, ValueType};
use std::collections::BTreeMap;
use std::fmt::Write;
use verdict::{Counterexample, NondetValue};

/// Whether a function is an input function whose values the harness supplies.
fn is_input(name: &str) -> bool {
    name.starts_with("__VERIFIER_nondet_") || name.starts_with("__lamp_any_")
}

/// A C constant for `v` of type `ty`: an integer as `long long` or `unsigned long long`, a float
/// exactly.
fn literal(v: &NondetValue, ty: Option<ValueType>) -> String {
    let Some(n) = ty.and_then(|t| t.integer(&v.value)).or_else(|| v.value.as_int().cloned()) else {
        return ty.and_then(|t| t.c_constant(&v.value)).unwrap_or_else(|| "0".into());
    };
    let s = n.to_string();
    if s == "-9223372036854775808" {
        "(-9223372036854775807LL - 1)".into()
    } else if s.starts_with('-') {
        format!("({s}LL)")
    } else {
        format!("{s}ULL")
    }
}

/// How long a replayed lasso runs before the harness calls it nonterminating.
pub const BOUND_SECONDS: u32 = 2;

/// The harness for a counterexample; `back` is the program's map back to C (the types of the
/// inputs, the functions the program declares but does not define).
pub fn harness(c: &Counterexample, back: &BackTranslation, program: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "// Test harness written by Tracery for {program}: replays the counterexample.");
    let outcome = match c.loop_start {
        Some(_) => format!("exit status 1: still running after {BOUND_SECONDS} s, the loop does not end"),
        None => "exit status 1: the error is reached".into(),
    };
    let _ = writeln!(out, "// Build and run: gcc harness.c program.c && ./a.out   ({outcome})");
    let _ = writeln!(out, "#include <math.h>\n#include <signal.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\n");
    let _ = writeln!(out, "static unsigned long tracery_input = 0; // inputs read so far\n");
    // a lasso: the inputs before the loop, then the loop's over and over
    let stem = c.steps[..c.loop_start.unwrap_or(c.steps.len())].iter().filter(|s| s.nondet.is_some()).count();
    let rounds = c.steps.iter().filter(|s| s.nondet.is_some()).count() - stem;
    if c.loop_start.is_some() {
        let _ = writeln!(
            out,
            "static void tracery_bound(int sig) {{\n  (void)sig;\n  fprintf(stderr, \"still running after {BOUND_SECONDS} s: the loop does not end\\n\");\n  _exit(1);\n}}\n"
        );
        let _ = writeln!(
            out,
            "__attribute__((constructor)) static void tracery_arm(void) {{\n  signal(SIGALRM, tracery_bound);\n  alarm({BOUND_SECONDS});\n}}\n"
        );
    }
    let next = match rounds {
        0 => "tracery_input++".to_string(),
        _ => format!("tracery_input < {stem} ? tracery_input++ : {stem} + (tracery_input++ - {stem}) % {rounds}"),
    };
    // the i-th value of the path, per function
    let mut calls: BTreeMap<&str, Vec<(usize, String)>> = BTreeMap::new();
    for (i, n) in c.steps.iter().filter_map(|s| s.nondet.as_ref()).enumerate() {
        calls.entry(n.function.as_str()).or_default().push((i, literal(n, back.input_type(n.ty))));
    }
    for (name, &ret) in back.externs() {
        let (void, ret) = (ret == ValueType::Void, ret.name());
        match name.as_str() {
            "reach_error" | "__VERIFIER_error" => {
                let _ = writeln!(out, "void {name}(void) {{\n  fprintf(stderr, \"{name}() reached\\n\");\n  exit(1);\n}}\n");
            }
            "__VERIFIER_assume" => {
                let _ = writeln!(out, "void __VERIFIER_assume(int cond) {{\n  if (!cond) exit(0);\n}}\n");
            }
            "__VERIFIER_assert" => {
                let _ = writeln!(out, "void __VERIFIER_assert(int cond) {{\n  if (!cond) {{\n    fprintf(stderr, \"__VERIFIER_assert failed\\n\");\n    exit(1);\n  }}\n}}\n");
            }
            n if is_input(n) && !void => {
                let _ = writeln!(out, "{ret} {n}(void) {{\n  switch ({next}) {{");
                for (i, v) in calls.get(n).into_iter().flatten() {
                    let _ = writeln!(out, "  case {i}: return ({ret}){v};");
                }
                let _ = writeln!(out, "  default: return 0;\n  }}\n}}\n");
            }
            n if n.starts_with("__VERIFIER_") && void => {
                let _ = writeln!(out, "void {n}() {{}}\n");
            }
            n if n.starts_with("__VERIFIER_") => {
                let _ = writeln!(out, "{ret} {n}() {{\n  return 0;\n}}\n");
            }
            _ => {}
        }
    }
    out
}
