//! What Tracery prints: the verdict line in SV-COMP form, then the evidence (the error path
//! with values, or the reason for UNKNOWN), and statistics as text or JSON.

use engines::{Counterexample, Outcome, Stats, Verdict};
use smt::Term;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The first output line: `TRUE`, `FALSE(<property>)` or `UNKNOWN`.
pub fn verdict_line(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Safe => "TRUE".into(),
        Verdict::Unsafe(c) => format!("FALSE({})", c.violation.kind.property()),
        Verdict::Unknown(_) => "UNKNOWN".into(),
    }
}

/// The whole text report of an outcome (verdict line first).
pub fn render(outcome: &Outcome, with_stats: bool) -> String {
    let mut out = verdict_line(&outcome.verdict);
    out.push('\n');
    match &outcome.verdict {
        Verdict::Safe => {}
        Verdict::Unsafe(c) => out.push_str(&render_counterexample(c)),
        Verdict::Unknown(reason) => {
            let _ = writeln!(out, "reason: {reason}");
        }
    }
    if with_stats {
        out.push_str(&render_stats(&outcome.stats));
    }
    out
}

fn show_values(values: &BTreeMap<Term, Term>) -> String {
    let shown: Vec<String> = values.iter().map(|(v, x)| format!("{}={}", v, ir::print::term_to_boogie(x))).collect();
    shown.join(", ")
}

/// The error path: each step with its position, statement, and the values it assigned.
pub fn render_counterexample(c: &Counterexample) -> String {
    let mut out = String::new();
    let at = c.violation.pos.as_ref().map(|p| format!(" at {p}")).unwrap_or_default();
    let _ = writeln!(out, "{}{} (entry procedure {})", c.violation.kind.describe(), at, c.entry);
    let _ = writeln!(out, "error path:");
    let _ = writeln!(out, "  initial: {}", show_values(&c.initial));
    let mut before = &c.initial;
    for step in &c.steps {
        let pos = step.pos.as_ref().map(|p| format!("{}:{}", p.line, p.col)).unwrap_or_else(|| "-".into());
        let changed: BTreeMap<Term, Term> =
            step.values.iter().filter(|(v, x)| before.get(*v) != Some(*x)).map(|(v, x)| (v.clone(), x.clone())).collect();
        let stmt = ir::print::stmt_to_boogie(&step.stmt).replace('\n', " ");
        let _ = writeln!(out, "  {pos:>8}  {stmt}");
        if !changed.is_empty() {
            let _ = writeln!(out, "            -> {}", show_values(&changed));
        }
        before = &step.values;
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
