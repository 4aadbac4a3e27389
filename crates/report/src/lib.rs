//! What Tracery prints: the verdict line in SV-COMP form, then the evidence (the error path
//! with values, or the reason for UNKNOWN), and statistics as text or JSON.

mod cex;
mod invariants;
mod source;

pub use cex::{counterexample_json, render_counterexample};
use cfront::BackTranslation;
pub use invariants::{invariant_text, proof_json, render_proof};
use serde_json::json;
use std::fmt::Write;
use verdict::{Outcome, Stats, Verdict};

/// The first output line: `TRUE`, `FALSE(<property>)` or `UNKNOWN`.
pub fn verdict_line(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Safe => "TRUE".into(),
        Verdict::Unsafe(c) => format!("FALSE({})", c.violation.kind.property()),
        Verdict::Unknown(_) => "UNKNOWN".into(),
    }
}

/// The whole text report of an outcome (verdict line first); `back` is the map back to C of a
/// C program (none for Boogie: its values and formulas are printed in Boogie syntax).
pub fn render(outcome: &Outcome, with_stats: bool, back: Option<&BackTranslation>) -> String {
    let mut out = verdict_line(&outcome.verdict);
    out.push('\n');
    match &outcome.verdict {
        Verdict::Safe => out.push_str(&outcome.proof.as_ref().map(|p| render_proof(p, back)).unwrap_or_default()),
        Verdict::Unsafe(c) => out.push_str(&render_counterexample(c, back)),
        Verdict::Unknown(u) => {
            let _ = writeln!(out, "reason: {}", u.reason);
        }
    }
    if with_stats {
        out.push_str(&render_stats(&outcome.stats));
    }
    out
}

/// Statistics as indented text.
pub fn render_stats(s: &Stats) -> String {
    let mut out = String::from("statistics:\n");
    if let Ok(serde_json::Value::Object(map)) = serde_json::to_value(s) {
        for (k, v) in map {
            let _ = writeln!(out, "  {k}: {v}");
        }
    }
    out
}

/// Statistics as a JSON object.
pub fn stats_json(s: &Stats) -> serde_json::Value {
    serde_json::to_value(s).unwrap_or(serde_json::Value::Null)
}

/// The whole result as one JSON object: verdict, property, and the evidence (`back` as for
/// [`render`]).
pub fn render_json(outcome: &Outcome, back: Option<&BackTranslation>) -> serde_json::Value {
    let mut v = json!({ "verdict": verdict_line(&outcome.verdict), "statistics": stats_json(&outcome.stats) });
    match &outcome.verdict {
        Verdict::Safe => {
            if let Some(p) = &outcome.proof {
                v["proof"] = proof_json(p, back);
            }
        }
        Verdict::Unsafe(c) => {
            v["property"] = json!(c.violation.kind.property());
            v["counterexample"] = counterexample_json(c, back);
        }
        Verdict::Unknown(u) => v["reason"] = json!(u.reason),
    }
    v
}
