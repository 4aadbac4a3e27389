//! The evidence of a TRUE answer: one invariant per loop head with its position, as a C
//! expression for C programs (Boogie syntax otherwise), and whether the annotation passed its
//! independent check.

use crate::source::is_c_file;
use engines::{LoopInvariant, Proof};
use serde_json::{json, Value};
use std::fmt::Write;

/// How an invariant is shown: the text and, for a C program, whether it is a C expression.
pub fn invariant_text(inv: &LoopInvariant) -> (String, Option<String>) {
    let c = inv.pos.as_ref().is_some_and(|p| is_c_file(&p.file));
    match c.then(|| ir::print_c::term_to_c(&inv.formula)) {
        Some(Ok(text)) => (text, None),
        Some(Err(why)) => (ir::print::term_to_boogie(&inv.formula), Some(why)),
        None => (ir::print::term_to_boogie(&inv.formula), None),
    }
}

fn check_word(p: &Proof) -> &'static str {
    match p.checked {
        Some(true) => "passed",
        Some(false) => "failed",
        None => "not run (time was up, or recursion was verified on nested words)",
    }
}

/// The loop invariants and the check's result as text.
pub fn render_proof(p: &Proof) -> String {
    let mut out = String::new();
    if !p.invariants.is_empty() {
        let _ = writeln!(out, "loop invariants:");
    }
    for inv in &p.invariants {
        let at = inv.pos.as_ref().map(|p| p.to_string()).unwrap_or_else(|| "-".into());
        let f = inv.function.as_deref().unwrap_or(&inv.entry);
        let (text, not_c) = invariant_text(inv);
        let _ = writeln!(out, "  {at} ({f}): {text}");
        if let Some(why) = not_c {
            let _ = writeln!(out, "      not expressible in C: {why}");
        }
    }
    let _ = writeln!(out, "invariant check: {}", check_word(p));
    out
}

/// The loop invariants and the check's result as JSON.
pub fn proof_json(p: &Proof) -> Value {
    let invs: Vec<Value> = p
        .invariants
        .iter()
        .map(|inv| {
            let (text, not_c) = invariant_text(inv);
            json!({
                "file": inv.pos.as_ref().map(|p| p.file.to_string()),
                "line": inv.pos.as_ref().map(|p| p.line),
                "column": inv.pos.as_ref().map(|p| p.col),
                "function": inv.function,
                "invariant": text,
                "expressible_in_c": not_c.is_none(),
            })
        })
        .collect();
    json!({ "loop_invariants": invs, "invariant_check": check_word(p) })
}
