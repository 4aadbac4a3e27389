//! What a verdict comes with: the counterexample as source steps, the test harness that replays
//! it with gcc, SV-COMP witnesses (checked against the structure the format 2.0 specification
//! requires), and loop invariants that pass their own check.

use serde_yaml::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Says on the terminal that a test did not run, and why. Written to stderr directly, since the
/// test harness hides what a passing test `eprintln!`s.
fn skipped(why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {why}");
}

fn own(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs").join(name)
}

/// Runs the binary on `file`, one engine at a time (in a portfolio, which engine answers first
/// decides the invariants a witness holds).
fn tracery(args: &[&str], file: &Path) -> String {
    let out =
        Command::new(env!("CARGO_BIN_EXE_tracery")).arg("--jobs").arg("1").args(args).arg(file).output().expect("the tracery binary runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A path for a file a test writes, under the build's folder for test files (so that runs leave
/// nothing behind in the system's temporary folder).
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("evidence");
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

#[test]
fn counterexample_of_p_flag_bug_has_the_error_line_and_the_input() {
    let out = tracery(&["--json"], &own("lecture-p-flag-bug.c"));
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(v["verdict"], "FALSE(unreach-call)");
    let c = &v["counterexample"];
    assert_eq!(c["violation"]["line"], 11);
    assert_eq!(c["source_steps"], true);
    assert_eq!(c["inputs"], serde_json::json!([{"function": "__VERIFIER_nondet_int", "type": "int", "value": "2"}]));
    let steps = c["steps"].as_array().expect("steps");
    let last = steps.last().expect("a step");
    assert_eq!((last["line"].as_u64(), last["branch"].as_bool()), (Some(11), Some(true)));
    assert_eq!(last["source"], "if (p != 1) reach_error();");
    assert!(steps.iter().any(|s| s["line"] == 13 && s["assigned"]["p"] == "0"), "{steps:?}");
    let text = tracery(&[], &own("lecture-p-flag-bug.c"));
    assert!(text.starts_with("FALSE(unreach-call)\n") && text.contains("lecture-p-flag-bug.c:11:19"), "{text}");
    assert!(text.contains("__VERIFIER_nondet_int() returns 2 (int)"), "{text}");
}

/// Writes the harness of `program`'s counterexample, builds it with the program and runs it:
/// it must reach the error (exit status 1). The harness alone compiles as well.
fn assert_harness_replays(program: &str) {
    if Command::new("gcc").arg("--version").output().is_err() {
        skipped(&format!("the replay of {program}'s harness: gcc is not installed"));
        return;
    }
    let harness = scratch(&format!("harness-{program}"));
    tracery(&["--harness", harness.to_str().unwrap()], &own(program));
    let exe = scratch(&format!("replay-{program}"));
    let built = Command::new("gcc").arg(&harness).arg(own(program)).arg("-o").arg(&exe).output().expect("gcc runs");
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let run = Command::new(&exe).output().expect("the replay runs");
    assert_eq!(run.status.code(), Some(1), "{program}: {}", String::from_utf8_lossy(&run.stderr));
    let alone = Command::new("gcc").args(["-c", "-o"]).arg(scratch(&format!("{program}.o"))).arg(&harness).output().expect("gcc runs");
    assert!(alone.status.success());
}

/// Asserts that `program` is FALSE(unreach-call) at `line` with the `inputs` printed, and that
/// its harness replays; the verifier's output.
fn assert_bug_replays(program: &str, line: u32, inputs: &[&str]) -> String {
    let text = tracery(&[], &own(program));
    assert!(text.starts_with("FALSE(unreach-call)\n") && text.contains(&format!("{program}:{line}:")), "{text}");
    assert!(inputs.iter().all(|i| text.contains(i)), "{inputs:?}: {text}");
    assert_harness_replays(program);
    text
}

#[test]
fn harness_replays_p_flag_bug_with_gcc() {
    assert_harness_replays("lecture-p-flag-bug.c");
}

#[test]
fn harness_replays_a_bug_through_recursion() {
    // Found on nested words: the path through the recursive calls is resolved into source
    // steps too, so the input that leads to the bug is known.
    let text = tracery(&[], &own("lecture-mccarthy91-bug.c"));
    assert!(text.contains("__VERIFIER_nondet_int() returns"), "{text}");
    assert!(!text.contains("could not resolve"), "{text}");
    assert_harness_replays("lecture-mccarthy91-bug.c");
}

#[test]
fn harness_replays_a_float_bug() {
    // Integers leave floats opaque; the default semantics verifies again with IEEE floats,
    // whose inputs print as exact C constants (NaN as `NAN`).
    let text = assert_bug_replays("float-nan-bug.c", 8, &["__VERIFIER_nondet_double() returns NAN (double)"]);
    assert!(text.contains("semantics: bitvector (with integers: "), "{text}");
}

// The structure SV-COMP witness format 2.0 requires (written from the format's specification:
// the JSON schema of sosy-lab/sv-witnesses is not available offline).

fn key<'a>(v: &'a Value, k: &str) -> &'a Value {
    v.get(k).unwrap_or_else(|| panic!("missing `{k}` in {v:?}"))
}

fn string(v: &Value, k: &str) -> String {
    key(v, k).as_str().unwrap_or_else(|| panic!("`{k}` is not a string")).to_string()
}

fn check_metadata(m: &Value) {
    assert_eq!(string(m, "format_version"), "2.0");
    assert_eq!(string(m, "uuid").len(), 36);
    assert!(string(m, "creation_time").contains('T'));
    let p = key(m, "producer");
    assert!(!string(p, "name").is_empty() && !string(p, "version").is_empty());
    let t = key(m, "task");
    let files = key(t, "input_files").as_sequence().expect("input_files is a list");
    let hashes = key(t, "input_file_hashes");
    for f in files {
        let h = hashes.get(f.as_str().unwrap()).and_then(Value::as_str).expect("a hash per input file");
        assert!(h.len() == 64 && h.chars().all(|c| c.is_ascii_hexdigit()), "sha256: {h}");
    }
    assert!(!string(t, "specification").is_empty());
    assert!(["ILP32", "LP64"].contains(&string(t, "data_model").as_str()));
    assert_eq!(string(t, "language"), "C");
}

fn check_location(l: &Value) {
    assert!(!string(l, "file_name").is_empty() && !string(l, "function").is_empty());
    assert!(key(l, "line").as_u64().is_some_and(|x| x >= 1));
    assert!(key(l, "column").as_u64().is_some_and(|x| x >= 1));
}

fn entries(path: &Path) -> Vec<Value> {
    let doc: Value = serde_yaml::from_str(&std::fs::read_to_string(path).expect("witness written")).expect("YAML");
    doc.as_sequence().expect("a witness is a list of entries").clone()
}

#[test]
fn violation_witness_has_the_required_structure() {
    let w = scratch("violation.yml");
    tracery(&["--witness", w.to_str().unwrap()], &own("lecture-p-flag-bug.c"));
    let entries = entries(&w);
    assert_eq!(entries.len(), 1);
    let e = &entries[0];
    assert_eq!(string(e, "entry_type"), "violation_sequence");
    check_metadata(key(e, "metadata"));
    let segments = key(e, "content").as_sequence().expect("content is a list of segments");
    let mut kinds = vec![];
    for s in segments {
        let waypoints = key(s, "segment").as_sequence().expect("a segment is a list");
        let follows = waypoints.iter().filter(|w| string(key(w, "waypoint"), "action") == "follow").count();
        assert_eq!(follows, 1, "one follow waypoint per segment");
        for w in waypoints {
            let w = key(w, "waypoint");
            let kind = string(w, "type");
            assert!(["assumption", "branching", "function_enter", "function_return", "target"].contains(&kind.as_str()));
            check_location(key(w, "location"));
            if kind != "target" {
                assert!(!string(key(w, "constraint"), "value").is_empty());
            }
            kinds.push((kind, key(key(w, "location"), "line").as_u64().unwrap()));
        }
    }
    assert_eq!(kinds.first(), Some(&("function_return".to_string(), 6)));
    assert_eq!(kinds.last(), Some(&("target".to_string(), 11)));
    assert!(kinds.iter().any(|(k, _)| k == "branching"));
}

#[test]
fn invariant_of_p_flag_passes_its_check_and_goes_into_the_witness() {
    let w = scratch("correctness.yml");
    let out = tracery(&["--witness", w.to_str().unwrap()], &own("lecture-p-flag.c"));
    assert!(out.starts_with("TRUE\n"), "{out}");
    assert!(out.contains("invariant check: passed"), "{out}");
    assert!(out.contains("loop invariants:\n  ") && out.contains(" (main): "), "{out}");
    let entries = entries(&w);
    let e = &entries[0];
    assert_eq!(string(e, "entry_type"), "invariant_set");
    check_metadata(key(e, "metadata"));
    let content = key(e, "content").as_sequence().expect("content is a list");
    assert_eq!(content.len(), 1);
    let inv = key(&content[0], "invariant");
    assert_eq!(string(inv, "type"), "loop_invariant");
    assert_eq!(string(inv, "format"), "c_expression");
    assert!(string(inv, "value").contains('p'));
    check_location(key(inv, "location"));
    // at the loop head: the `while` of line 10
    assert_eq!(key(key(inv, "location"), "line").as_u64(), Some(10));
    assert!(out.contains("lecture-p-flag.c:10:5 (main)"), "{out}");
}

#[test]
fn graphml_witnesses_are_written() {
    let w = scratch("violation.graphml");
    tracery(&["--witness", w.to_str().unwrap(), "--witness-format", "graphml"], &own("lecture-p-flag-bug.c"));
    let text = std::fs::read_to_string(&w).expect("witness written");
    assert!(text.contains("<data key=\"witness-type\">violation_witness</data>") && text.contains("<data key=\"violation\">true</data>"));
    assert!(text.contains("\\result == 2;"));
}

#[test]
fn harness_replays_a_bug_through_a_function_pointer() {
    // The call through the pointer branches to the handler the input chose.
    assert_bug_replays("fnptr-dispatch-bug.c", 7, &["__VERIFIER_nondet_int() returns 1 (int)", "__VERIFIER_nondet_int() returns 7 (int)"]);
}

#[test]
fn harness_replays_a_bug_found_through_a_string() {
    // The string literals live in memory: the input that picks "bee" reaches the error.
    assert_bug_replays("string-pick-bug.c", 11, &["__VERIFIER_nondet_int() returns 1 (int)"]);
}

/// The data of each edge of a GraphML witness, in order.
fn graphml_edges(text: &str) -> Vec<Vec<(String, String)>> {
    text.split("<edge ")
        .skip(1)
        .map(|e| {
            let body = e.split("</edge>").next().unwrap_or("");
            body.split("<data key=\"")
                .skip(1)
                .filter_map(|d| {
                    let (k, rest) = d.split_once("\">")?;
                    Some((k.to_string(), rest.split("</data>").next()?.to_string()))
                })
                .collect()
        })
        .collect()
}

#[test]
fn graphml_violation_witness_names_each_steps_thread() {
    let w = scratch("threads.graphml");
    tracery(&["--witness", w.to_str().unwrap(), "--witness-format", "graphml"], &own("conc-increment-bug.c"));
    let edges = graphml_edges(&std::fs::read_to_string(&w).expect("witness written"));
    let get = |e: &[(String, String)], k: &str| e.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
    assert!(edges.iter().all(|e| get(e, "threadId").is_some()), "{edges:?}");
    // each thread is created by the main thread (at lines 12 and 13) before it takes a step
    for (t, line) in [("1", "12"), ("2", "13")] {
        let created = edges.iter().position(|e| get(e, "createThread").as_deref() == Some(t)).expect("created");
        assert_eq!((get(&edges[created], "threadId").as_deref(), get(&edges[created], "startline").as_deref()), (Some("0"), Some(line)));
        let first = edges.iter().position(|e| get(e, "threadId").as_deref() == Some(t)).expect("a step");
        assert!(first > created, "{edges:?}");
    }
    let last = edges.last().expect("an edge");
    assert_eq!((get(last, "startline").as_deref(), get(last, "threadId").as_deref()), (Some("16"), Some("0")));
    // a data race's witness states SV-COMP's property
    let r = scratch("race.graphml");
    let race = ["--witness", r.to_str().unwrap(), "--witness-format", "graphml", "--property", "no-data-race"];
    tracery(&race, &own("conc-increment-bug.c"));
    let text = std::fs::read_to_string(&r).expect("witness written");
    assert!(text.contains("CHECK( init(main()), LTL(G ! data-race) )"), "{text}");
    // witness format 2.0 has no threads: no witness, and the reason
    let y = scratch("threads.yml");
    let out = Command::new(env!("CARGO_BIN_EXE_tracery")).arg("--witness").arg(&y).arg(own("conc-increment-bug.c")).output().expect("runs");
    assert!(!y.exists() && String::from_utf8_lossy(&out.stderr).contains("--witness-format graphml"));
}

#[test]
fn a_lasso_is_a_cycle_in_the_witness_and_its_harness_runs_past_the_bound() {
    let args = ["--property", "termination", "--timeout", "30"];
    let w = scratch("lasso.graphml");
    tracery(&[&args[..], &["--witness", w.to_str().unwrap(), "--witness-format", "graphml"]].concat(), &own("nonterm-stuck.c"));
    let text = std::fs::read_to_string(&w).expect("witness written");
    assert!(text.contains("LTL(F end)") && !text.contains("\"violation\">true"), "{text}");
    // the node marked as the cycle's head is where the loop's last edge returns
    let head =
        text.split("<node id=\"").find(|n| n.contains("\"cyclehead\">true")).and_then(|n| n.split('"').next()).expect("a cycle head");
    assert!(text.contains(&format!("target=\"{head}\"")) && text.contains(&format!("source=\"{head}\"")), "{text}");
    // the harness feeds the stem's input, and the loop never ends
    if Command::new("gcc").arg("--version").output().is_err() {
        skipped("the replay of a lasso's harness: gcc is not installed");
        return;
    }
    let harness = scratch("harness-lasso.c");
    tracery(&[&args[..], &["--harness", harness.to_str().unwrap()]].concat(), &own("nonterm-stuck.c"));
    let exe = scratch("replay-lasso");
    let built = Command::new("gcc").arg(&harness).arg(own("nonterm-stuck.c")).arg("-o").arg(&exe).output().expect("gcc runs");
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let run = Command::new(&exe).output().expect("the replay runs");
    assert_eq!(run.status.code(), Some(1), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(String::from_utf8_lossy(&run.stderr).contains("the loop does not end"));
    // witness format 2.0 has no cycles: no witness, and the reason
    let y = scratch("lasso.yml");
    let out =
        Command::new(env!("CARGO_BIN_EXE_tracery")).args(args).arg("--witness").arg(&y).arg(own("nonterm-stuck.c")).output().expect("runs");
    assert!(!y.exists() && String::from_utf8_lossy(&out.stderr).contains("--witness-format graphml"));
}
