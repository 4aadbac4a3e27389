//! SV-COMP witnesses in YAML, format 2.0: a `violation_sequence` for FALSE (one segment per
//! waypoint: the value each input function returned, the side of each branch, the target), an
//! `invariant_set` with `loop_invariant` entries for TRUE.

use crate::task::{now_iso8601, uuid_v4, Task};
use cfront::BackTranslation;
use serde_json::{json, Value};
use verdict::{CexStep, Counterexample, Invariant, Role};

/// The version of the format written.
pub const FORMAT_VERSION: &str = "2.0";

/// The `metadata` of an entry.
pub fn metadata(task: &Task) -> Value {
    json!({
        "format_version": FORMAT_VERSION,
        "uuid": uuid_v4(),
        "creation_time": now_iso8601(),
        "producer": { "name": "Tracery", "version": env!("CARGO_PKG_VERSION") },
        "task": {
            "input_files": [task.file_name()],
            "input_file_hashes": { task.file_name(): task.file_hash() },
            "specification": task.specification,
            "data_model": task.data_model,
            "language": "C",
        },
    })
}

fn location(task: &Task, line: u32, column: u32, function: &str) -> Value {
    json!({ "file_name": task.file_name(), "line": line, "column": column, "function": function })
}

/// The column (1-based) of the closing parenthesis of the call of `function` that starts at or
/// after `col` on a source line.
pub fn call_end_column(line: &str, col: u32, function: &str) -> Option<u32> {
    let from = (col as usize).saturating_sub(1);
    let start = from + line.get(from..)?.find(function)?;
    let open = start + line[start..].find('(')?;
    let close = open + line[open..].find(')')?;
    Some(close as u32 + 1)
}

fn source_line(file: &str, line: u32) -> Option<String> {
    let text = std::fs::read_to_string(file).ok()?;
    text.lines().nth((line as usize).checked_sub(1)?).map(str::to_string)
}

fn waypoint(step: &CexStep, task: &Task, back: &BackTranslation) -> Option<Value> {
    let pos = step.pos.as_ref()?;
    let function = step.function.as_deref().unwrap_or("main");
    if let Some(n) = &step.nondet {
        let col = source_line(&pos.file, pos.line).and_then(|l| call_end_column(&l, pos.col, &n.function))?;
        let value = back.input_type(n.ty)?.acsl_constant(&n.value)?;
        return Some(json!({
            "type": "function_return",
            "action": "follow",
            "location": location(task, pos.line, col, function),
            "constraint": { "value": format!("\\result == {value}"), "format": "acsl_expression" },
        }));
    }
    let taken = step.branch?;
    Some(json!({
        "type": "branching",
        "action": "follow",
        "location": location(task, pos.line, pos.col, function),
        "constraint": { "value": taken.to_string() },
    }))
}

/// The violation witness of a counterexample (`back`: the program's map back to C).
pub fn violation_witness(task: &Task, c: &Counterexample, back: &BackTranslation) -> String {
    let mut content: Vec<Value> =
        c.steps.iter().filter_map(|s| waypoint(s, task, back)).map(|w| json!({ "segment": [ { "waypoint": w } ] })).collect();
    let function = c.steps.iter().rev().find_map(|s| s.function.clone()).unwrap_or_else(|| c.entry.clone());
    let (line, col) = c.violation.pos.as_ref().map_or((0, 0), |p| (p.line, p.col));
    let target = json!({ "type": "target", "action": "follow", "location": location(task, line, col, &function) });
    content.push(json!({ "segment": [ { "waypoint": target } ] }));
    let doc = json!([{ "entry_type": "violation_sequence", "metadata": metadata(task), "content": content }]);
    serde_yaml::to_string(&doc).unwrap_or_default()
}

/// The correctness witness: the loop invariants that are C expressions (`back`: the program's
/// map back to C).
pub fn correctness_witness(task: &Task, invariants: &[Invariant], back: &BackTranslation) -> String {
    let content: Vec<Value> = invariants
        .iter()
        .filter(|inv| inv.role == Role::LoopHead)
        .filter_map(|inv| {
            let pos = inv.pos.as_ref()?;
            let value = back.term_to_c(&inv.formula).ok()?;
            let function = inv.function.as_deref().unwrap_or(&inv.entry);
            Some(json!({ "invariant": {
                "type": "loop_invariant",
                "location": location(task, pos.line, pos.col, function),
                "value": value,
                "format": "c_expression",
            }}))
        })
        .collect();
    let doc = json!([{ "entry_type": "invariant_set", "metadata": metadata(task), "content": content }]);
    serde_yaml::to_string(&doc).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_closing_parenthesis_of_a_call() {
        let line = "  int i = __VERIFIER_nondet_int();";
        assert_eq!(call_end_column(line, 11, "__VERIFIER_nondet_int"), Some(33));
    }
}
