//! Comparing a run with an older one: tasks that became wrong, were newly solved or were lost,
//! and the CPU time on the tasks both runs solved.

use crate::results::{Record, Status};
use std::collections::HashMap;
use std::fmt::{self, Write as _};

/// One task whose result changed.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub task: String,
    /// The old status (`None`: the task was not in the old run).
    pub old: Option<Status>,
    pub new: Status,
    /// The new verdict line (or the new reason when there is no verdict).
    pub detail: String,
}

/// The differences between an old and a new run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Comparison {
    /// Wrong now, not wrong before (or new tasks that are wrong).
    pub became_wrong: Vec<Change>,
    /// Correct now, not correct before (tasks of both runs only).
    pub newly_solved: Vec<Change>,
    /// Correct before, not correct now (tasks of both runs only).
    pub lost: Vec<Change>,
    /// Tasks correct in both runs.
    pub both_solved: usize,
    /// CPU time of those tasks in the old and in the new run (s).
    pub cpu_old: f64,
    pub cpu_new: f64,
    /// Tasks in only one of the runs.
    pub only_new: usize,
    pub only_old: usize,
}

impl Comparison {
    /// New CPU time over old CPU time on the tasks both runs solved (`None` if there are none or
    /// the old time is zero).
    pub fn cpu_ratio(&self) -> Option<f64> {
        (self.both_solved > 0 && self.cpu_old > 0.0).then(|| self.cpu_new / self.cpu_old)
    }
}

fn detail(r: &Record) -> String {
    match (&r.verdict, &r.reason) {
        (Some(v), _) if r.status != Status::Timeout && r.status != Status::Error => match &r.expected {
            Some(e) => format!("{v}, expected {e}"),
            None => v.clone(),
        },
        (_, Some(reason)) => reason.clone(),
        (Some(v), None) => v.clone(),
        (None, None) => String::new(),
    }
}

/// Compares the new records with the old ones, matching tasks by file and property.
pub fn compare(old: &[Record], new: &[Record]) -> Comparison {
    let old_by_key: HashMap<(String, Option<String>), &Record> = old.iter().map(|r| (r.key(), r)).collect();
    let new_keys: std::collections::HashSet<(String, Option<String>)> = new.iter().map(Record::key).collect();
    let mut c = Comparison { only_old: old.iter().filter(|r| !new_keys.contains(&r.key())).count(), ..Default::default() };
    for n in new {
        let o = old_by_key.get(&n.key()).copied();
        let change = || Change { task: n.name(), old: o.map(|o| o.status), new: n.status, detail: detail(n) };
        if n.status == Status::Wrong && o.is_none_or(|o| o.status != Status::Wrong) {
            c.became_wrong.push(change());
        }
        let Some(o) = o else {
            c.only_new += 1;
            continue;
        };
        match (o.status == Status::Correct, n.status == Status::Correct) {
            (true, true) => {
                c.both_solved += 1;
                c.cpu_old += o.cpu;
                c.cpu_new += n.cpu;
            }
            (false, true) => c.newly_solved.push(change()),
            (true, false) => c.lost.push(change()),
            (false, false) => {}
        }
    }
    c
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        let list = |out: &mut String, title: &str, changes: &[Change]| {
            let _ = writeln!(out, "{title}: {}", changes.len());
            for ch in changes {
                let was = ch.old.map(|s| s.as_str()).unwrap_or("absent");
                let _ = writeln!(out, "  {}: {} -> {} ({})", ch.task, was, ch.new.as_str(), ch.detail);
            }
        };
        list(&mut out, "became wrong", &self.became_wrong);
        list(&mut out, "newly solved", &self.newly_solved);
        list(&mut out, "lost", &self.lost);
        match self.cpu_ratio() {
            Some(r) => {
                let _ = writeln!(
                    out,
                    "CPU time on the {} tasks solved by both: {:.2} s now, {:.2} s before (ratio {:.3})",
                    self.both_solved, self.cpu_new, self.cpu_old, r
                );
            }
            None => {
                let _ = writeln!(out, "CPU time on the {} tasks solved by both: no ratio", self.both_solved);
            }
        }
        if self.only_new > 0 || self.only_old > 0 {
            let _ = writeln!(out, "tasks only in the new run: {}, only in the old run: {}", self.only_new, self.only_old);
        }
        f.write_str(&out)
    }
}
