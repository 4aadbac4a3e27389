//! End-to-end tests: the C programs in `tests/programs/` with the verdict each expects (first
//! line `// expect: VERDICT`, or `// expect: lp64=VERDICT ilp32=VERDICT`, optionally followed by
//! `bitvector=VERDICT`, the verdict under `--semantics bitvector` in both data models, and
//! `properties=LIST`), and the seed tasks of the shared benchmark when it exists.

use cfront::{translate_file, COptions, DataModel};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use verdict::Property;

/// Says on the terminal that a test did not run, and why. Written to stderr directly, since the
/// test harness hides what a passing test `eprintln!`s.
fn skipped(why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {why}");
}

fn verdict(path: &Path, opts: &COptions) -> String {
    let program = match translate_file(path, opts) {
        Ok(t) => t.program,
        // the CLI answers UNKNOWN for an unsupported construct
        Err(e) if e.kind == cfront::ErrorKind::Unsupported => return "UNKNOWN".into(),
        Err(e) => return format!("ERROR {e}"),
    };
    // generous limits: the machine may be busy, and a solver timeout would give UNKNOWN
    let config = engines::Config {
        deadline: Some(Instant::now() + Duration::from_secs(300)),
        query_timeout: Duration::from_secs(60),
        ..Default::default()
    };
    let outcome = engines::verify(&program, &config);
    report::verdict_line(&outcome.verdict)
}

/// The expected verdicts of a test program, per data model and semantics (bit-vectors or not),
/// and the properties to check.
fn expectations(path: &Path) -> (Vec<(DataModel, bool, String)>, String) {
    let text = std::fs::read_to_string(path).expect("test program is readable");
    let first = text.lines().next().unwrap_or("");
    let spec = first.split("expect:").nth(1).unwrap_or_else(|| panic!("{} has no `// expect:` line", path.display()));
    let mut models = vec![];
    let mut props = "default".to_string();
    for word in spec.split_whitespace() {
        if let Some(v) = word.strip_prefix("lp64=") {
            models.push((DataModel::LP64, false, v.to_string()));
        } else if let Some(v) = word.strip_prefix("ilp32=") {
            models.push((DataModel::ILP32, false, v.to_string()));
        } else if let Some(p) = word.strip_prefix("properties=") {
            props = p.to_string();
        } else {
            let (bitvector, v) = match word.strip_prefix("bitvector=") {
                Some(v) => (true, v),
                None => (false, word),
            };
            models.push((DataModel::LP64, bitvector, v.to_string()));
            models.push((DataModel::ILP32, bitvector, v.to_string()));
        }
    }
    (models, props)
}

fn programs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/programs exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .c file in {}", dir.display());
    files
}

#[test]
fn programs_and_seed_tasks_have_their_expected_verdicts() {
    let mut failures = vec![];
    for path in programs() {
        let (models, props) = expectations(&path);
        for (dm, bitvector, expected) in models {
            let opts = COptions {
                data_model: dm,
                properties: Property::parse_list(&props).expect("valid property list"),
                entry: "main".into(),
                entry_by_default: true,
                bitvector,
            };
            let got = verdict(&path, &opts);
            if got != expected {
                let semantics = if bitvector { "bit-vectors" } else { "integers" };
                failures.push(format!("{} ({dm:?}, {semantics}): expected {expected}, got {got}", path.display()));
            }
        }
    }
    // the seed tasks of the shared benchmark (in the same test: verification runs one at a time)
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench/seeds");
    if seeds.exists() {
        let opts = COptions::default();
        for (task, expected) in [("lecture-p-flag.c", "TRUE"), ("lecture-p-flag-bug.c", "FALSE(unreach-call)")] {
            let got = verdict(&seeds.join(task), &opts);
            if got != expected {
                failures.push(format!("{task}: expected {expected}, got {got}"));
            }
        }
    } else {
        skipped(&format!("the seed tasks of programs_and_seed_tasks_have_their_expected_verdicts: {} is not there", seeds.display()));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A preprocessing error names the line and column the preprocessor gives.
#[test]
fn a_missing_header_is_diagnosed_at_its_include() {
    let path = std::env::temp_dir().join(format!("tracery-missing-header-{}.c", std::process::id()));
    std::fs::write(&path, "int x;\n\n#include <no-such-header>\nint main(void) { return 0; }\n").expect("temp file");
    let e = translate_file(&path, &COptions::default()).expect_err("the header does not exist");
    let _ = std::fs::remove_file(&path);
    assert_eq!((e.kind, e.pos.line, e.pos.col), (cfront::ErrorKind::Syntax, 3, 10), "{e}");
    assert!(e.message.contains("no-such-header"), "{e}");
}
