//! SV-COMP witnesses in GraphML, format 1.0: a violation witness is a path automaton whose
//! edges carry the source lines, the sides of branches and the values of input functions (in
//! a program that starts threads: every step, with the thread that takes it, `threadId`, and
//! on a `pthread_create` the thread it starts, `createThread`); for nontermination the path
//! is a lasso, its loop a cycle back to the node marked `cyclehead`; a correctness witness
//! attaches each loop invariant to a node reached at the loop's line.

use crate::task::{now_iso8601, Task};
use cfront::BackTranslation;
use std::fmt::Write;
use verdict::{Counterexample, Invariant, Role};

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

const KEYS: &[(&str, &str)] = &[
    ("witness-type", "graph"),
    ("sourcecodelang", "graph"),
    ("producer", "graph"),
    ("specification", "graph"),
    ("programfile", "graph"),
    ("programhash", "graph"),
    ("architecture", "graph"),
    ("creationtime", "graph"),
    ("entry", "node"),
    ("violation", "node"),
    ("cyclehead", "node"),
    ("invariant", "node"),
    ("invariant.scope", "node"),
    ("startline", "edge"),
    ("control", "edge"),
    ("assumption", "edge"),
    ("assumption.resultfunction", "edge"),
    ("enterFunction", "edge"),
    ("threadId", "edge"),
    ("createThread", "edge"),
];

fn header(task: &Task, kind: &str) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
    out.push_str("<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n");
    for (k, f) in KEYS {
        let _ = writeln!(out, " <key attr.name=\"{k}\" attr.type=\"string\" for=\"{f}\" id=\"{k}\"/>");
    }
    out.push_str(" <graph edgedefault=\"directed\">\n");
    let spec = format!("CHECK( init(main()), LTL({}) )", task.specification);
    for (k, v) in [
        ("witness-type", kind.to_string()),
        ("sourcecodelang", "C".into()),
        ("producer", format!("Tracery {}", env!("CARGO_PKG_VERSION"))),
        ("specification", spec),
        ("programfile", task.file_name()),
        ("programhash", task.file_hash()),
        ("architecture", task.architecture().into()),
        ("creationtime", now_iso8601()),
    ] {
        let _ = writeln!(out, "  <data key=\"{k}\">{}</data>", escape(&v));
    }
    out
}

fn node(out: &mut String, id: usize, data: &[(&str, String)]) {
    let _ = writeln!(out, "  <node id=\"N{id}\">");
    for (k, v) in data {
        let _ = writeln!(out, "   <data key=\"{k}\">{}</data>", escape(v));
    }
    out.push_str("  </node>\n");
}

fn edge(out: &mut String, from: usize, to: usize, data: &[(&str, String)]) {
    let _ = writeln!(out, "  <edge source=\"N{from}\" target=\"N{to}\">");
    for (k, v) in data {
        let _ = writeln!(out, "   <data key=\"{k}\">{}</data>", escape(v));
    }
    out.push_str("  </edge>\n");
}

const FOOTER: &str = " </graph>\n</graphml>\n";

type Data = Vec<(&'static str, String)>;

/// The violation witness of a counterexample (`back`: the program's map back to C).
pub fn violation_witness(task: &Task, c: &Counterexample, back: &BackTranslation) -> String {
    let mut out = header(task, "violation_witness");
    // each node's data, each edge's ends and data
    let mut nodes: Vec<Data> = vec![vec![("entry", "true".into())]];
    let mut edges: Vec<(usize, usize, Data)> = vec![];
    let mut head = None;
    // with threads, every step tells the interleaving
    let threads = c.steps.iter().any(|s| s.thread.is_some());
    for (i, step) in c.steps.iter().enumerate() {
        if c.loop_start == Some(i) {
            head = Some(nodes.len() - 1);
        }
        let Some(pos) = step.pos.as_ref().filter(|p| task.in_program(p)) else { continue };
        let mut data = vec![("startline", pos.line.to_string())];
        if let Some(t) = step.thread {
            data.push(("threadId", t.to_string()));
        }
        if let Some(t) = step.starts_thread {
            data.push(("createThread", t.to_string()));
        }
        if let Some(b) = step.branch {
            data.push(("control", if b { "condition-true" } else { "condition-false" }.into()));
        }
        // (an input in the loop may return other values in later rounds)
        let input = step.nondet.as_ref().filter(|_| head.is_none());
        if let Some((v, c)) = input.and_then(|v| Some((v, back.input_type(v.ty)?.acsl_constant(&v.value)?))) {
            data.push(("assumption", format!("\\result == {c};")));
            data.push(("assumption.resultfunction", v.function.clone()));
        }
        if data.len() == 1 && !threads && head.is_none() {
            continue;
        }
        nodes.push(vec![]);
        edges.push((nodes.len() - 2, nodes.len() - 1, data));
    }
    let line = c.violation.pos.as_ref().map_or(0, |p| p.line);
    match head {
        // a lasso: its loop's last edge returns to the head, and the run goes around forever
        Some(h) => {
            nodes[h].push(("cyclehead", "true".into()));
            match edges.last_mut() {
                Some(last) if last.1 > h => {
                    last.1 = h;
                    nodes.pop();
                }
                _ => edges.push((h, h, vec![("startline", line.to_string())])),
            }
        }
        None => {
            nodes.push(vec![("violation", "true".into())]);
            let mut data = vec![("startline", line.to_string())];
            if let Some(t) = c.steps.last().and_then(|s| s.thread) {
                data.push(("threadId", t.to_string()));
            }
            edges.push((nodes.len() - 2, nodes.len() - 1, data));
        }
    }
    for (id, data) in nodes.iter().enumerate() {
        node(&mut out, id, data);
    }
    for (from, to, data) in &edges {
        edge(&mut out, *from, *to, data);
    }
    out.push_str(FOOTER);
    out
}

/// The correctness witness: each C-expressible loop invariant at a node entered at its line
/// (`back`: the program's map back to C).
pub fn correctness_witness(task: &Task, invariants: &[Invariant], back: &BackTranslation) -> String {
    let mut out = header(task, "correctness_witness");
    node(&mut out, 0, &[("entry", "true".into())]);
    let mut n = 0;
    for inv in invariants.iter().filter(|inv| inv.role == Role::LoopHead) {
        let (Some(pos), Ok(value)) = (&inv.pos, back.term_to_c(&inv.formula)) else { continue };
        n += 1;
        let scope = inv.function.clone().unwrap_or_else(|| inv.entry.clone());
        node(&mut out, n, &[("invariant", value), ("invariant.scope", scope)]);
        edge(&mut out, 0, n, &[("startline", pos.line.to_string())]);
    }
    out.push_str(FOOTER);
    out
}
