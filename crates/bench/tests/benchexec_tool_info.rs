//! Runs the Python tests of the BenchExec tool-info module (contrib/benchexec) when python3 with
//! BenchExec is installed (`pip install benchexec`); otherwise says so and passes.

use std::path::Path;
use std::process::Command;

/// Says on the terminal that a test did not run, and why. Written to stderr directly, since the
/// test harness hides what a passing test `eprintln!`s.
fn skipped(why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {why}");
}

#[test]
fn benchexec_tool_info_module() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../contrib/benchexec");
    let has_benchexec = Command::new("python3").args(["-c", "import benchexec.tools.template"]).output().is_ok_and(|o| o.status.success());
    if !has_benchexec {
        skipped("benchexec_tool_info_module: python3 with BenchExec is not installed (pip install benchexec)");
        return;
    }
    let out = Command::new("python3")
        .args(["-m", "unittest", "discover", "-s"])
        .arg(&dir)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("python3 runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && stderr.contains("\nOK"), "{stderr}");
    // Python before 3.12 says OK when it found no test at all.
    assert!(!stderr.contains("Ran 0 tests"), "no Python test found in {}: {stderr}", dir.display());
}
