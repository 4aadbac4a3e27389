//! The error path of a FALSE answer as source steps: position, the statement as written (the C
//! line, or the statement in Boogie syntax), the values it assigned and the inputs it read.

use crate::source::{is_c_file, SourceLines};
use cfront::back::float_constant;
use cfront::BackTranslation;
use serde_json::{json, Value};
use smt::Term;
use std::collections::BTreeMap;
use std::fmt::Write;
use verdict::{CexStep, Counterexample, NondetValue};

/// Whether a variable is the front end's own (a temporary, a result slot, memory): not shown
/// among the values of a step.
pub fn is_internal(v: &Term) -> bool {
    v.var_name().is_none_or(|n| n.starts_with('#'))
}

/// A value: a float of a C program as a C constant, anything else in Boogie syntax.
fn value(t: &Term, back: Option<&BackTranslation>) -> String {
    back.and_then(|_| float_constant(t)).unwrap_or_else(|| ir::print::term_to_boogie(t))
}

/// The C type of an input's value, when the program is C.
fn input_type(n: &NondetValue, back: Option<&BackTranslation>) -> Option<cfront::ValueType> {
    back?.input_type(n.ty)
}

/// An input's value as a C constant of its type where it is one.
fn input_value(n: &NondetValue, back: Option<&BackTranslation>) -> String {
    input_type(n, back).and_then(|t| t.c_constant(&n.value)).unwrap_or_else(|| value(&n.value, back))
}

/// The statement of a step as the reader wrote it.
pub fn step_text(step: &CexStep, sources: &mut SourceLines) -> String {
    let from_source = step.pos.as_ref().filter(|p| is_c_file(&p.file)).and_then(|p| sources.line(&p.file, p.line));
    from_source.unwrap_or_else(|| ir::print::stmt_to_boogie(&step.stmt).replace('\n', " "))
}

/// The values a step assigned to source variables.
pub fn assigned_values(step: &CexStep, back: Option<&BackTranslation>) -> BTreeMap<String, String> {
    let shown = step.assigned.iter().filter(|v| !is_internal(v));
    shown.filter_map(|v| Some((v.var_name()?.to_string(), value(step.values.get(v)?, back)))).collect()
}

/// `line:col` in the violation's file, `file:line:col` elsewhere.
fn position(step: &CexStep, main_file: Option<&str>) -> String {
    match &step.pos {
        Some(p) if Some(&*p.file) == main_file => format!("{:>4}:{:<3}", p.line, p.col),
        Some(p) => format!("{}:{}:{}", p.file, p.line, p.col),
        None => format!("{:>8}", "-"),
    }
}

/// Whether a step is worth showing: it assigns or constrains something.
fn visible(step: &CexStep) -> bool {
    !step.assigned.is_empty() || !step.stmt.trans_formula().formula.is_true()
}

/// The error path as text (`back`: the map back to C of a C program).
pub fn render_counterexample(c: &Counterexample, back: Option<&BackTranslation>) -> String {
    let mut out = String::new();
    let mut sources = SourceLines::default();
    let at = c.violation.pos.as_ref().map(|p| format!(" at {p}")).unwrap_or_default();
    let _ = writeln!(out, "{}{} (entry procedure {})", c.violation.kind.describe(), at, c.entry);
    let inputs: Vec<String> = c.steps.iter().filter_map(|s| s.nondet.as_ref()).map(|n| input_value(n, back)).collect();
    if !inputs.is_empty() {
        let _ = writeln!(out, "inputs: {}", inputs.join(", "));
    }
    let _ = writeln!(out, "error path{}:", if c.source_steps { "" } else { " (large blocks: the solver could not resolve them)" });
    let main_file = c.violation.pos.as_ref().map(|p| p.file.to_string());
    let mut last_line = None;
    for (i, step) in c.steps.iter().enumerate() {
        if c.loop_start == Some(i) {
            let _ = writeln!(out, "loop, repeated forever:");
            last_line = None;
        }
        // the last step is shown: it reaches the error (for a data race, the other access)
        if !visible(step) && i + 1 < c.steps.len() {
            continue;
        }
        // a step of a concurrent program says its thread (T0 is the entry's)
        let thread = step.thread.map(|t| format!("T{t:<2} ")).unwrap_or_default();
        let line = step.pos.as_ref().map(|p| (p.file.clone(), p.line, step.thread));
        if line.is_none() || line != last_line {
            let _ = writeln!(out, "  {thread}{}  {}", position(step, main_file.as_deref()), step_text(step, &mut sources));
        }
        last_line = line;
        if let Some(t) = step.starts_thread {
            let _ = writeln!(
                out,
                "      starts thread T{t} ({})",
                c.steps
                    .iter()
                    .find(|s| s.thread == Some(t))
                    .and_then(|s| s.function.clone())
                    .unwrap_or_else(|| "not scheduled on this path".into())
            );
        }
        if let Some(b) = step.branch {
            let _ = writeln!(out, "      condition {b}");
        }
        if let Some(n) = &step.nondet {
            let ty = input_type(n, back).map(|t| format!(" ({})", t.name())).unwrap_or_default();
            let _ = writeln!(out, "      {}() returns {}{ty}", n.function, input_value(n, back));
        }
        let assigned = assigned_values(step, back);
        if !assigned.is_empty() {
            let shown: Vec<String> = assigned.iter().map(|(v, x)| format!("{v} = {x}")).collect();
            let _ = writeln!(out, "      {}", shown.join(", "));
        }
    }
    out
}

fn nondet_json(n: &NondetValue, back: Option<&BackTranslation>) -> Value {
    json!({"function": n.function, "type": input_type(n, back).map(|t| t.name()), "value": input_value(n, back)})
}

/// The error path as JSON (`back`: the map back to C of a C program).
pub fn counterexample_json(c: &Counterexample, back: Option<&BackTranslation>) -> Value {
    let mut sources = SourceLines::default();
    let steps: Vec<Value> = c
        .steps
        .iter()
        .filter(|s| visible(s))
        .map(|s| {
            json!({
                "file": s.pos.as_ref().map(|p| p.file.to_string()),
                "line": s.pos.as_ref().map(|p| p.line),
                "column": s.pos.as_ref().map(|p| p.col),
                "source": step_text(s, &mut sources),
                "statement": ir::print::stmt_to_boogie(&s.stmt).replace('\n', " "),
                "branch": s.branch,
                "assigned": assigned_values(s, back),
                "nondet": s.nondet.as_ref().map(|n| nondet_json(n, back)),
                "thread": s.thread,
                "starts_thread": s.starts_thread,
            })
        })
        .collect();
    let inputs: Vec<Value> = c.steps.iter().filter_map(|s| s.nondet.as_ref()).map(|n| nondet_json(n, back)).collect();
    json!({
        "entry": c.entry,
        "violation": {
            "kind": c.violation.kind.describe(),
            "file": c.violation.pos.as_ref().map(|p| p.file.to_string()),
            "line": c.violation.pos.as_ref().map(|p| p.line),
            "column": c.violation.pos.as_ref().map(|p| p.col),
        },
        "source_steps": c.source_steps,
        // the index among `steps` where the loop of a nontermination lasso starts
        "loop_start": c.loop_start.map(|l| c.steps[..l].iter().filter(|s| visible(s)).count()),
        "inputs": inputs,
        "steps": steps,
    })
}
