//! The printed summary: counts, SV-COMP score and CPU time per folder and in total, and the most
//! frequent UNKNOWN reasons and errors.

use crate::results::{Record, Status};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

/// Counts over a set of results.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub tasks: usize,
    pub correct_true: usize,
    pub correct_false: usize,
    pub wrong_true: usize,
    pub wrong_false: usize,
    pub unknown: usize,
    pub timeout: usize,
    pub memout: usize,
    pub error: usize,
    pub unscored: usize,
    pub score: i64,
    /// CPU time of all runs (s).
    pub cpu: f64,
    /// CPU time of the correct results (s).
    pub cpu_correct: f64,
}

impl Tally {
    pub fn add(&mut self, r: &Record) {
        self.tasks += 1;
        match (r.status, r.says_true()) {
            (Status::Correct, true) => self.correct_true += 1,
            (Status::Correct, false) => self.correct_false += 1,
            (Status::Wrong, true) => self.wrong_true += 1,
            (Status::Wrong, false) => self.wrong_false += 1,
            (Status::Unknown, _) => self.unknown += 1,
            (Status::Timeout, _) => self.timeout += 1,
            (Status::Memout, _) => self.memout += 1,
            (Status::Error, _) => self.error += 1,
            (Status::Unscored, _) => self.unscored += 1,
        }
        self.score += r.score();
        self.cpu += r.cpu;
        if r.status == Status::Correct {
            self.cpu_correct += r.cpu;
        }
    }

    pub fn of<'a>(records: impl IntoIterator<Item = &'a Record>) -> Tally {
        let mut t = Tally::default();
        for r in records {
            t.add(r);
        }
        t
    }

    pub fn correct(&self) -> usize {
        self.correct_true + self.correct_false
    }

    pub fn wrong(&self) -> usize {
        self.wrong_true + self.wrong_false
    }
}

/// The tallies per folder, sorted by folder.
pub fn by_folder(records: &[Record]) -> BTreeMap<String, Tally> {
    let mut map: BTreeMap<String, Tally> = BTreeMap::new();
    for r in records {
        map.entry(r.folder.clone()).or_default().add(r);
    }
    map
}

/// A reason with what varies from task to task blanked out (text in backquotes, numbers), so
/// that equal reasons group together.
pub fn normalize_reason(reason: &str) -> String {
    let mut out = String::new();
    let mut in_quote = false;
    let mut last_digit = false;
    for c in reason.chars() {
        if in_quote {
            if c == '`' {
                in_quote = false;
                out.push('`');
            }
            continue;
        }
        if c == '`' {
            in_quote = true;
            out.push_str("`…");
            last_digit = false;
        } else if c.is_ascii_digit() {
            if !last_digit {
                out.push('N');
            }
            last_digit = true;
        } else {
            out.push(c);
            last_digit = false;
        }
    }
    if out.chars().count() > 120 {
        out = format!("{}…", out.chars().take(120).collect::<String>());
    }
    out
}

/// The most frequent (normalized) reasons of the results with this status, most frequent first
/// (ties by text), at most `n`.
pub fn frequent_reasons(records: &[Record], status: Status, n: usize) -> Vec<(String, usize)> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for r in records.iter().filter(|r| r.status == status) {
        *counts.entry(normalize_reason(r.reason.as_deref().unwrap_or("(none)"))).or_default() += 1;
    }
    let mut v: Vec<(String, usize)> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v.truncate(n);
    v
}

const HEADER: [&str; 10] =
    ["tasks", "correct (T/F)", "wrong (T/F)", "unknown", "timeout", "memout", "error", "unscored", "score", "cpu (s)"];

fn row(t: &Tally) -> [String; 10] {
    [
        t.tasks.to_string(),
        format!("{} ({}/{})", t.correct(), t.correct_true, t.correct_false),
        format!("{} ({}/{})", t.wrong(), t.wrong_true, t.wrong_false),
        t.unknown.to_string(),
        t.timeout.to_string(),
        t.memout.to_string(),
        t.error.to_string(),
        t.unscored.to_string(),
        t.score.to_string(),
        format!("{:.1}", t.cpu),
    ]
}

/// Short names for folders: each relative to the parent of their longest common ancestor
/// (`/a/b/x`, `/a/b/y/z` → `b/x`, `b/y/z`); a single folder keeps its whole name.
pub fn short_folder_names(folders: &[String]) -> Vec<String> {
    if folders.len() < 2 {
        return folders.iter().map(|f| if f.is_empty() { ".".to_string() } else { f.clone() }).collect();
    }
    let split: Vec<Vec<&str>> = folders.iter().map(|f| f.split('/').collect()).collect();
    let mut common = split[0].len();
    for parts in &split[1..] {
        common = common.min(parts.iter().zip(&split[0]).take_while(|(a, b)| a == b).count());
    }
    // Keep the common ancestor's own name (and never strip a whole folder name away).
    let keep_from = common.saturating_sub(1);
    split
        .iter()
        .zip(folders)
        .map(|(parts, f)| {
            let short = parts[keep_from.min(parts.len())..].join("/");
            if short.is_empty() {
                if f.is_empty() {
                    ".".to_string()
                } else {
                    f.clone()
                }
            } else {
                short
            }
        })
        .collect()
}

/// The summary table (per folder, then the total) and the most frequent reasons.
pub fn render(records: &[Record]) -> String {
    let folders = by_folder(records);
    let total = Tally::of(records);
    let names = short_folder_names(&folders.keys().cloned().collect::<Vec<_>>());
    let mut rows: Vec<(String, [String; 10])> = names.into_iter().zip(folders.values()).map(|(n, t)| (n, row(t))).collect();
    rows.push(("total".to_string(), row(&total)));
    let name_w = rows.iter().map(|(n, _)| n.chars().count()).max().unwrap_or(5).max("folder".len());
    let mut widths: Vec<usize> = HEADER.iter().map(|h| h.chars().count()).collect();
    for (_, cells) in &rows {
        for (w, c) in widths.iter_mut().zip(cells.iter()) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let line = |out: &mut String, name: &str, cells: &[String]| {
        let _ = write!(out, "{name:<name_w$}");
        for (c, w) in cells.iter().zip(&widths) {
            let _ = write!(out, "  {c:>w$}");
        }
        out.push('\n');
    };
    let header: Vec<String> = HEADER.iter().map(|h| h.to_string()).collect();
    line(&mut out, "folder", &header);
    for (i, (name, cells)) in rows.iter().enumerate() {
        if i + 1 == rows.len() && rows.len() > 2 {
            let _ = writeln!(out, "{}", "-".repeat(name_w + widths.iter().map(|w| w + 2).sum::<usize>()));
        }
        line(&mut out, name, cells);
    }
    let _ = writeln!(out, "CPU time of the correct results: {:.1} s", total.cpu_correct);
    for (status, title) in [(Status::Unknown, "most frequent UNKNOWN reasons"), (Status::Error, "most frequent errors")] {
        let reasons = frequent_reasons(records, status, 10);
        if !reasons.is_empty() {
            let _ = writeln!(out, "{title}:");
            for (reason, n) in reasons {
                let _ = writeln!(out, "  {n:>5}  {reason}");
            }
        }
    }
    let wrong: Vec<&Record> = records.iter().filter(|r| r.status == Status::Wrong).collect();
    if !wrong.is_empty() {
        let _ = writeln!(out, "wrong results:");
        for r in wrong {
            let _ = writeln!(
                out,
                "  {}: {} (expected {})",
                r.name(),
                r.verdict.as_deref().unwrap_or("?"),
                r.expected.as_deref().unwrap_or("?")
            );
        }
    }
    out
}
