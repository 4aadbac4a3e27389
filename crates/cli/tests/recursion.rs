//! End-to-end tests of recursion on nested words (and of `--inline`, which uses contracts).

use std::path::{Path, PathBuf};
use std::process::Command;

fn verdict(file: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tracery")).arg(file).args(args).output().expect("tracery runs");
    String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or("").to_string()
}

fn own(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs").join(name)
}

#[test]
fn recursive_programs_give_their_verdicts() {
    for (name, expected) in [
        ("lecture-mccarthy91.c", "TRUE"),
        ("lecture-mccarthy91-bug.c", "FALSE(unreach-call)"),
        ("lecture-double.c", "TRUE"),
        ("updown-local.bpl", "TRUE"),
        ("updown-local-bug.bpl", "FALSE(unreach-call)"),
    ] {
        assert_eq!(verdict(&own(name), &["--timeout", "60"]), expected, "{name}");
    }
}

#[test]
fn inline_uses_contracts_and_never_claims_a_bug_through_them() {
    // Without contracts the recursive call is a havoc: the error is reachable through it.
    assert_eq!(verdict(&own("lecture-mccarthy91.c"), &["--inline", "--timeout", "60"]), "UNKNOWN");
    assert_eq!(verdict(&own("lecture-mccarthy91-bug.c"), &["--inline", "--timeout", "60"]), "UNKNOWN");
}
