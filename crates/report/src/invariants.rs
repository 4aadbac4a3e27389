//! The evidence of a TRUE answer: one invariant per loop head (and per entry and exit of a
//! recursive procedure) with its position, as a C expression for C programs (Boogie syntax
//! otherwise), and whether the annotation passed its independent check; for termination, the
//! ranking function of each lasso loop with its supporting invariants.

use crate::source::is_c_file;
use cfront::BackTranslation;
use ir::SourcePos;
use serde_json::{json, Value};
use smt::Term;
use std::fmt::Write;
use verdict::{Invariant, Proof, Ranking, Role};

/// How an invariant is shown: the text and, for a C program (`back`: its map back to C),
/// whether it is a C expression.
pub fn invariant_text(inv: &Invariant, back: Option<&BackTranslation>) -> (String, Option<String>) {
    term_text(&inv.formula, inv.pos.as_ref(), back)
}

/// A term at `pos` as a C expression in a C file (with the reason when it is not one), in
/// Boogie syntax otherwise.
fn term_text(t: &Term, pos: Option<&SourcePos>, back: Option<&BackTranslation>) -> (String, Option<String>) {
    let c = back.filter(|_| pos.is_some_and(|p| is_c_file(&p.file)));
    match c.map(|b| b.term_to_c(t)) {
        Some(Ok(text)) => (text, None),
        Some(Err(why)) => (ir::print::term_to_boogie(t), Some(why)),
        None => (ir::print::term_to_boogie(t), None),
    }
}

/// A ranking function's components and supporting invariants as text.
fn ranking_texts(r: &Ranking, back: Option<&BackTranslation>) -> (Vec<String>, Vec<String>) {
    let texts = |ts: &[Term]| ts.iter().map(|t| term_text(t, r.pos.as_ref(), back).0).collect();
    (texts(&r.components), texts(&r.supporting_invariants))
}

fn check_word(p: &Proof) -> &'static str {
    match p.checked {
        Some(true) => "passed",
        Some(false) => "failed",
        None => "not decided (time was up)",
    }
}

/// How the text and the JSON name a role.
fn role_name(role: Role) -> &'static str {
    match role {
        Role::LoopHead => "loop invariant",
        Role::Entry => "requires",
        Role::Exit => "ensures",
    }
}

/// The invariants and the check's result as text: loop invariants, then procedure contracts.
pub fn render_proof(p: &Proof, back: Option<&BackTranslation>) -> String {
    let mut out = String::new();
    for (heading, loops) in [("loop invariants:", true), ("procedure contracts:", false)] {
        let mut shown = p.invariants.iter().filter(|inv| (inv.role == Role::LoopHead) == loops).peekable();
        if shown.peek().is_some() {
            let _ = writeln!(out, "{heading}");
        }
        for inv in shown {
            let at = inv.pos.as_ref().map(|p| p.to_string()).unwrap_or_else(|| "-".into());
            let f = inv.function.as_deref().unwrap_or(&inv.entry);
            let (text, not_c) = invariant_text(inv, back);
            match inv.role {
                Role::LoopHead => {
                    let _ = writeln!(out, "  {at} ({f}): {text}");
                }
                role => {
                    let _ = writeln!(out, "  {f} {} [entry {}]: {text}", role_name(role), inv.entry);
                }
            }
            if let Some(why) = not_c {
                let _ = writeln!(out, "      not expressible in C: {why}");
            }
        }
    }
    let q = ir::cells::distinguished_index();
    if p.invariants.iter().any(|inv| smt::subst::free_vars(&inv.formula).contains(&q)) {
        let _ = writeln!(out, "  (array cell abstraction: `a#q` stands for `a[#q]`, and each invariant holds for every `#q`)");
    }
    if !p.rankings.is_empty() {
        let _ = writeln!(out, "ranking functions:");
    }
    for r in &p.rankings {
        let at = r.pos.as_ref().map(|p| p.to_string()).unwrap_or_else(|| "-".into());
        let (components, invariants) = ranking_texts(r, back);
        let _ = writeln!(out, "  {at}: {} ({})", r.template, components.join(", "));
        if !invariants.is_empty() {
            let _ = writeln!(out, "      supporting invariants: {}", invariants.join(" && "));
        }
    }
    for e in &p.explorations {
        let _ = writeln!(
            out,
            "every path explored [entry {}]: {} statements executed, the longest path {} statements",
            e.entry, e.steps, e.longest
        );
    }
    if (p.rankings.is_empty() && p.explorations.is_empty()) || !p.invariants.is_empty() {
        let _ = writeln!(out, "invariant check: {}", check_word(p));
    }
    out
}

/// The invariants and the check's result as JSON.
pub fn proof_json(p: &Proof, back: Option<&BackTranslation>) -> Value {
    let entries = |loops: bool| -> Vec<Value> {
        p.invariants
            .iter()
            .filter(|inv| (inv.role == Role::LoopHead) == loops)
            .map(|inv| {
                let (text, not_c) = invariant_text(inv, back);
                let mut v = json!({
                    "file": inv.pos.as_ref().map(|p| p.file.to_string()),
                    "line": inv.pos.as_ref().map(|p| p.line),
                    "column": inv.pos.as_ref().map(|p| p.col),
                    "function": inv.function,
                    "invariant": text,
                    "expressible_in_c": not_c.is_none(),
                });
                if !loops {
                    v["kind"] = json!(role_name(inv.role));
                    v["entry"] = json!(inv.entry);
                }
                v
            })
            .collect()
    };
    let rankings: Vec<Value> = p
        .rankings
        .iter()
        .map(|r| {
            let (components, invariants) = ranking_texts(r, back);
            json!({
                "file": r.pos.as_ref().map(|p| p.file.to_string()),
                "line": r.pos.as_ref().map(|p| p.line),
                "template": r.template,
                "components": components,
                "supporting_invariants": invariants,
            })
        })
        .collect();
    json!({
        "loop_invariants": entries(true),
        "procedure_contracts": entries(false),
        "invariant_check": check_word(p),
        "ranking_functions": rankings,
        "explored": p.explorations.iter().map(|e| json!({ "entry": e.entry, "steps": e.steps, "longest_path": e.longest })).collect::<Vec<_>>(),
    })
}
