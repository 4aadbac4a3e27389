//! End-to-end tests of recursion on nested words (and of `--inline`, which uses contracts).

mod common;

use common::{output, own, verdict};

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
fn a_recursive_proof_comes_with_checked_procedure_contracts() {
    for (name, function) in [("lecture-mccarthy91.c", "f91"), ("updown-local.bpl", "UpDown")] {
        let out = output(&own(name), &["--timeout", "60"]);
        assert!(out.starts_with("TRUE\n"), "{name}: {out}");
        assert!(out.contains("procedure contracts:"), "{name}: {out}");
        for role in ["requires", "ensures"] {
            assert!(out.contains(&format!("  {function} {role} [entry ")), "{name}: no {role} of {function}: {out}");
        }
        assert!(out.contains("invariant check: passed"), "{name}: {out}");
    }
    let json = output(&own("lecture-mccarthy91.c"), &["--json", "--timeout", "60"]);
    let v: serde_json::Value = serde_json::from_str(json.lines().last().unwrap_or("")).expect("JSON");
    let contracts = v["proof"]["procedure_contracts"].as_array().expect("contracts");
    assert_eq!(contracts.len(), 2, "{v}");
    assert_eq!(contracts[0]["kind"], "requires");
    assert_eq!(contracts[1]["kind"], "ensures");
    assert_eq!(v["proof"]["invariant_check"], "passed");
}

#[test]
fn inline_uses_contracts_and_never_claims_a_bug_through_them() {
    // Without contracts the recursive call is a havoc: the error is reachable through it.
    assert_eq!(verdict(&own("lecture-mccarthy91.c"), &["--inline", "--timeout", "60"]), "UNKNOWN");
    // The bug (x = 102, f91 returns 92) needs no recursive call: its path avoids the havoc,
    // although the large block it lies in also holds the call.
    let out = output(&own("lecture-mccarthy91-bug.c"), &["--inline", "--timeout", "60"]);
    assert!(out.starts_with("FALSE(unreach-call)\n") && out.contains("res = 92"), "{out}");
}

/// `craig` on nested words uses tree interpolants: McCarthy's 91 function and the up-and-down
/// program are proved without falling back to Newton, the bug is still found.
#[test]
fn tree_interpolants_prove_recursive_programs() {
    for (name, expected) in
        [("lecture-mccarthy91.c", "TRUE"), ("updown-local.bpl", "TRUE"), ("lecture-mccarthy91-bug.c", "FALSE(unreach-call)")]
    {
        let out = output(&own(name), &["--refinement", "craig", "--json-stats", "--timeout", "60"]);
        assert_eq!(out.lines().next(), Some(expected), "{name}: {out}");
        let stats: serde_json::Value = serde_json::from_str(out.lines().last().unwrap_or("")).expect("JSON statistics");
        assert_eq!(stats["fallbacks"], 0, "{name}: {stats}");
    }
}
