//! Results: reading the verifier's output, classifying a run against the expected answer,
//! SV-COMP scoring, and `results.json` / `results.csv`.

use crate::runner::{signal_name, RunOutcome, Termination};
use crate::tasks::{Expected, Task};
use anyhow::Context;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::Path;

/// What became of one task.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// TRUE or FALSE, as expected.
    Correct,
    /// TRUE or FALSE, against the expected answer.
    Wrong,
    /// UNKNOWN (other than a timeout), or a FALSE for another memory-safety subproperty.
    Unknown,
    /// The CPU-time limit, the wall-clock guard, or the verifier's own timeout.
    Timeout,
    /// The memory limit.
    Memout,
    /// A crash, an input error, output without a verdict, or a malformed task.
    Error,
    /// TRUE or FALSE for a task that states no expected answer.
    Unscored,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Correct => "correct",
            Status::Wrong => "wrong",
            Status::Unknown => "unknown",
            Status::Timeout => "timeout",
            Status::Memout => "memout",
            Status::Error => "error",
            Status::Unscored => "unscored",
        }
    }
}

/// The result of one task, as stored in `results.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The task file (the `.yml`, or the program).
    pub file: String,
    /// The program that was verified.
    pub input: String,
    /// The property (`unreach-call`, `termination`, ...), if the task names one.
    pub property: Option<String>,
    /// The folder the summary groups the task under.
    pub folder: String,
    /// `true`, `false`, `false(<subproperty>)`, or none.
    pub expected: Option<String>,
    /// The verifier's first line (`TRUE`, `FALSE(unreach-call)`, `UNKNOWN`), if it gave one.
    pub verdict: Option<String>,
    pub status: Status,
    /// CPU time in seconds (user + system).
    pub cpu: f64,
    /// Wall-clock time in seconds.
    pub wall: f64,
    /// Peak resident memory in MiB.
    pub memory_mb: f64,
    /// How the process ended (`exit 0`, `signal 11 (SIGSEGV)`, ...); none if it was not run.
    pub exit: Option<String>,
    /// The UNKNOWN reason, or why the run counts as timeout, memout or error.
    pub reason: Option<String>,
    /// The verifier's statistics (its `--json-stats` line).
    #[serde(default)]
    pub stats: Option<serde_json::Value>,
}

impl Record {
    /// A number from the verifier's statistics (`a.b` for the field `b` of the object `a`).
    pub fn stat(&self, key: &str) -> Option<f64> {
        key.split('.').try_fold(self.stats.as_ref()?, |v, k| v.get(k))?.as_f64()
    }

    /// What identifies the task across runs: its file and property.
    pub fn key(&self) -> (String, Option<String>) {
        (self.file.clone(), self.property.clone())
    }

    /// A short name: the file, with the property for `.yml` tasks.
    pub fn name(&self) -> String {
        match &self.property {
            Some(p) if self.file.ends_with(".yml") || self.file.ends_with(".yaml") => {
                format!("{} [{p}]", self.file)
            }
            _ => self.file.clone(),
        }
    }

    /// Whether the verifier answered TRUE.
    pub fn says_true(&self) -> bool {
        self.verdict.as_deref() == Some("TRUE")
    }

    /// The SV-COMP score: +2 correct TRUE, +1 correct FALSE, -32 wrong TRUE, -16 wrong FALSE.
    pub fn score(&self) -> i64 {
        score(self.status, self.says_true())
    }
}

/// The SV-COMP score of a result with this status; `said_true`: the answer was TRUE (else FALSE).
pub fn score(status: Status, said_true: bool) -> i64 {
    match (status, said_true) {
        (Status::Correct, true) => 2,
        (Status::Correct, false) => 1,
        (Status::Wrong, true) => -32,
        (Status::Wrong, false) => -16,
        _ => 0,
    }
}

/// A verdict line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    True,
    /// `FALSE(<property>)`, or a bare `FALSE`.
    False(Option<String>),
    Unknown,
}

/// Parses a first output line: exactly `TRUE`, `FALSE(<property>)`, `FALSE` or `UNKNOWN`.
pub fn parse_verdict(line: &str) -> Option<Verdict> {
    match line.trim() {
        "TRUE" => Some(Verdict::True),
        "FALSE" => Some(Verdict::False(None)),
        "UNKNOWN" => Some(Verdict::Unknown),
        l => {
            let p = l.strip_prefix("FALSE(")?.strip_suffix(')')?;
            Some(Verdict::False(Some(p.to_string())))
        }
    }
}

/// What the verifier's stdout says.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Output {
    /// The first line, if it is a verdict.
    pub verdict_line: Option<String>,
    pub verdict: Option<Verdict>,
    /// The `reason: ...` line's text.
    pub reason: Option<String>,
    /// The last line, if it is a JSON object.
    pub stats: Option<serde_json::Value>,
}

/// Reads the verifier's stdout.
pub fn parse_output(stdout: &str) -> Output {
    let mut out = Output::default();
    let first = stdout.lines().next().unwrap_or("").trim();
    if let Some(v) = parse_verdict(first) {
        out.verdict = Some(v);
        out.verdict_line = Some(first.to_string());
    }
    out.reason = stdout.lines().skip(1).find_map(|l| l.trim().strip_prefix("reason:").map(|r| r.trim().to_string()));
    if let Some(last) = stdout.lines().rev().find(|l| !l.trim().is_empty()) {
        if let Ok(v @ serde_json::Value::Object(_)) = serde_json::from_str::<serde_json::Value>(last.trim()) {
            out.stats = Some(v);
        }
    }
    out
}

/// Whether stderr shows that the process ran out of memory.
pub fn looks_like_memout(stderr: &str) -> bool {
    let s = stderr.to_ascii_lowercase();
    (s.contains("memory allocation of") && s.contains("failed"))
        || s.contains("out of memory")
        || s.contains("bad_alloc")
        || s.contains("cannot allocate memory")
        || s.contains("memoryerror")
}

fn first_line(s: &str, max: usize) -> Option<String> {
    let line = s.lines().map(str::trim).find(|l| !l.is_empty())?;
    Some(if line.chars().count() > max { format!("{}…", line.chars().take(max).collect::<String>()) } else { line.to_string() })
}

/// The status of an answer against the expected one (BenchExec's rules: a FALSE for a
/// memory-safety task must name the expected subproperty, or it counts as unknown).
pub fn judge(expected: Option<&Expected>, verdict: &Verdict) -> (Status, Option<String>) {
    let Some(exp) = expected else {
        return match verdict {
            Verdict::Unknown => (Status::Unknown, None),
            _ => (Status::Unscored, None),
        };
    };
    match verdict {
        Verdict::Unknown => (Status::Unknown, None),
        Verdict::True => (if exp.holds { Status::Correct } else { Status::Wrong }, None),
        Verdict::False(p) => {
            if let Some(sub) = &exp.subproperty {
                if p.as_deref() != Some(sub.as_str()) {
                    let said = p.as_deref().map(|p| format!("FALSE({p})")).unwrap_or_else(|| "FALSE".into());
                    return (Status::Unknown, Some(format!("{said} does not match the expected violation of {sub}")));
                }
            }
            (if exp.holds { Status::Wrong } else { Status::Correct }, None)
        }
    }
}

fn base_record(task: &Task) -> Record {
    Record {
        file: task.file.display().to_string(),
        input: task.input.display().to_string(),
        property: task.property.clone(),
        folder: task.folder().display().to_string(),
        expected: task.expected.as_ref().map(Expected::to_string),
        verdict: None,
        status: Status::Error,
        cpu: 0.0,
        wall: 0.0,
        memory_mb: 0.0,
        exit: None,
        reason: None,
        stats: None,
    }
}

/// The record of a task that was not run (malformed task definition, missing input file).
pub fn error_record(task: &Task, reason: &str) -> Record {
    Record { reason: Some(reason.to_string()), ..base_record(task) }
}

/// Classifies one run of a task. `timeout`: the task's CPU-time limit in seconds; a run that
/// used more CPU time counts as timeout whatever it answered.
pub fn classify(task: &Task, run: &RunOutcome, timeout: f64, cpu_rlimit: u64) -> Record {
    let out = parse_output(&run.stdout);
    let mut rec = Record {
        verdict: out.verdict_line.clone(),
        cpu: run.cpu,
        wall: run.wall,
        memory_mb: run.peak_kib as f64 / 1024.0,
        exit: Some(run.termination.describe()),
        stats: out.stats.clone(),
        ..base_record(task)
    };
    let (status, reason) = match &run.termination {
        Termination::SpawnFailed(e) => (Status::Error, Some(format!("cannot run the verifier: {e}"))),
        Termination::WallGuard => (Status::Timeout, Some(format!("wall-clock guard ({:.0} s)", run.wall))),
        Termination::Signaled(sig) => {
            let hit_cpu = *sig == libc::SIGXCPU || (*sig == libc::SIGKILL && run.cpu + 0.5 >= cpu_rlimit as f64);
            if hit_cpu {
                (Status::Timeout, Some(format!("CPU-time limit (killed by {})", signal_name(*sig))))
            } else if looks_like_memout(&run.stderr) {
                (Status::Memout, Some(format!("memory limit (killed by {})", signal_name(*sig))))
            } else {
                let mut r = format!("crashed: {}", run.termination.describe());
                if let Some(l) = first_line(&run.stderr, 200) {
                    r.push_str(&format!(": {l}"));
                }
                (Status::Error, Some(r))
            }
        }
        Termination::Exited(code) => match &out.verdict {
            _ if run.cpu > timeout => (Status::Timeout, Some(format!("CPU time {:.1} s over the limit", run.cpu))),
            None if *code != 0 && looks_like_memout(&run.stderr) => {
                (Status::Memout, Some(first_line(&run.stderr, 200).unwrap_or_else(|| "out of memory".into())))
            }
            None if *code == 2 => {
                (Status::Error, Some(format!("input error: {}", first_line(&run.stderr, 300).unwrap_or_else(|| "(no message)".into()))))
            }
            None => {
                let said = first_line(&run.stdout, 100).map(|l| format!("first line `{l}`")).unwrap_or_else(|| "no output".into());
                let mut r = format!("no verdict (exit {code}, {said})");
                if let Some(l) = first_line(&run.stderr, 200) {
                    r.push_str(&format!(": {l}"));
                }
                (Status::Error, Some(r))
            }
            Some(Verdict::Unknown) => {
                let reason = out.reason.clone().unwrap_or_else(|| "(no reason given)".into());
                if reason.to_ascii_lowercase().starts_with("timeout") {
                    (Status::Timeout, Some(reason))
                } else {
                    (Status::Unknown, Some(reason))
                }
            }
            Some(v) => judge(task.expected.as_ref(), v),
        },
    };
    rec.status = status;
    rec.reason = reason;
    rec
}

/// The settings of a bench run, stored with its results.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunConfig {
    /// A name for plots and comparisons (the output folder's name).
    pub name: String,
    /// When the run started (UTC, `YYYY-MM-DDTHH:MM:SSZ`).
    pub started: String,
    /// The verifier program.
    pub verifier: String,
    /// Extra verifier options.
    pub options: Vec<String>,
    /// CPU-time limit per task (s).
    pub timeout: f64,
    /// Memory limit per task (MiB).
    pub memory_mb: Option<u64>,
    pub jobs: usize,
    /// The property filter.
    pub property: Option<String>,
}

/// The content of `results.json`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ResultsFile {
    #[serde(default)]
    pub config: RunConfig,
    pub results: Vec<Record>,
}

impl ResultsFile {
    pub fn load(path: &Path) -> anyhow::Result<ResultsFile> {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        serde_json::from_str(&text).with_context(|| format!("{} is not a results.json of tracery bench", path.display()))
    }

    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        let text = serde_json::to_string_pretty(self)?;
        std::fs::write(path, text + "\n").with_context(|| format!("cannot write {}", path.display()))
    }

    /// A name for this configuration: the stored one, else the file's folder or stem.
    pub fn label(&self, path: &Path) -> String {
        if !self.config.name.is_empty() {
            return self.config.name.clone();
        }
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("results");
        if stem == "results" {
            if let Some(dir) = path.parent().and_then(|d| d.file_name()).and_then(|n| n.to_str()) {
                return dir.to_string();
            }
        }
        stem.to_string()
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The records as CSV: one header line, one line per task.
pub fn to_csv(records: &[Record]) -> String {
    let mut out = String::from("file,property,expected,verdict,status,score,cpu_s,wall_s,memory_mb,exit,reason,stats\n");
    for r in records {
        let fields = [
            csv_field(&r.file),
            csv_field(r.property.as_deref().unwrap_or("")),
            csv_field(r.expected.as_deref().unwrap_or("")),
            csv_field(r.verdict.as_deref().unwrap_or("")),
            r.status.as_str().to_string(),
            r.score().to_string(),
            format!("{:.3}", r.cpu),
            format!("{:.3}", r.wall),
            format!("{:.1}", r.memory_mb),
            csv_field(r.exit.as_deref().unwrap_or("")),
            csv_field(r.reason.as_deref().unwrap_or("")),
            csv_field(&r.stats.as_ref().map(|s| s.to_string()).unwrap_or_default()),
        ];
        let _ = writeln!(out, "{}", fields.join(","));
    }
    out
}
