//! What the end-to-end test files share: running the real binary.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The standard output of the binary on `file` with `args`.
#[allow(dead_code)] // e2e reads the exit code and stderr too, with its own runner
pub fn output(file: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tracery")).arg(file).args(args).output().expect("tracery runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The first line of [`output`]: the verdict.
#[allow(dead_code)] // not every test file needs only the verdict
pub fn verdict(file: &Path, args: &[&str]) -> String {
    output(file, args).lines().next().unwrap_or("").to_string()
}

/// A program of the project's own test programs.
#[allow(dead_code)] // the generated programs' tests have none
pub fn own(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs").join(name)
}

/// A file of the shared benchmark corpora, if they are there (a note on stderr if not).
#[allow(dead_code)] // not every test file reads the shared corpora
pub fn shared(folder: &str, name: &str) -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench").join(folder).join(name);
    if !p.is_file() {
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "SKIPPED: {} is not there", p.display());
    }
    p.is_file().then_some(p)
}

/// Whether `out` is TRUE with its proof: invariants checked, or every path explored.
#[allow(dead_code)] // only the files about proofs use it
pub fn proved(out: &str) -> bool {
    out.starts_with("TRUE\n") && (out.contains("invariant check: passed") || out.contains("every path explored"))
}

/// Asserts the verdicts of the three concurrent seeds under `args`: the lost update is FALSE at
/// its assertion with every step's thread and the fork's new thread named, the other two TRUE
/// with their proof.
#[allow(dead_code)] // only the files about threads use it
pub fn assert_concurrent_seeds(args: &[&str]) {
    if let Some(f) = shared("seeds", "concurrent-lost-update.c") {
        let out = output(&f, args);
        assert!(out.starts_with("FALSE(unreach-call)\n"), "{args:?}: {out}");
        assert!(out.contains("T1 ") && out.contains("T2 ") && out.contains("starts thread T1 (inc)"), "{args:?}: {out}");
        assert!(out.contains("concurrent-lost-update.c:17:15"), "{args:?}: {out}");
    }
    for name in ["concurrent-mutex.c", "concurrent-single-writer.c"] {
        if let Some(f) = shared("seeds", name) {
            let out = output(&f, args);
            assert!(proved(&out), "{name}, {args:?}: {out}");
        }
    }
}

/// Says on the terminal that a test did not run, and why. Written to stderr directly, since the
/// test harness hides what a passing test `eprintln!`s.
#[allow(dead_code)] // only the tests that need a tool use it
pub fn skipped(why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {why}");
}
