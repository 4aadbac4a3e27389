//! `tracery bench`: run the verifier over folders of verification tasks with operating-system
//! limits, score the answers against the expected ones (SV-COMP scoring), and write
//! `results.json`, `results.csv` and a quantile plot.
//!
//! The `tracery` binary embeds [`BenchArgs`] as its `bench` subcommand and calls [`run`]. Each task
//! runs in a child process of the same binary (`std::env::current_exe()`, or `--verifier PATH`).
//!
//! Wiring in crates/cli (`Cargo.toml`: `bench.workspace = true`):
//!
//! ```ignore
//! #[derive(Parser)]
//! #[command(name = "tracery", version, about, args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
//! struct Cli {
//!     #[command(subcommand)]
//!     command: Option<Command>,
//!     /// The program to verify (`.bpl`).
//!     #[arg(required = true)]
//!     file: Option<PathBuf>,
//!     // ... the other options unchanged ...
//! }
//!
//! #[derive(clap::Subcommand)]
//! enum Command {
//!     /// Run Tracery over benchmark tasks with limits and score its answers (SV-COMP scoring).
//!     Bench(bench::BenchArgs),
//! }
//!
//! // in main(), before verifying:
//! if let Some(Command::Bench(args)) = &cli.command {
//!     return bench::run(args).unwrap_or_else(|e| { eprintln!("tracery: error: {e:#}"); ExitCode::from(2) });
//! }
//! ```
//!
//! Modules: [`tasks`] (discovery, expected answers), [`runner`] (one process under limits),
//! [`results`] (classification, scoring, files), [`summary`] (the printed table), [`plot`] (the
//! SVG), [`table`] (several runs side by side), [`compare`] (against an older `results.json`).

pub mod compare;
pub mod plot;
pub mod results;
pub mod runner;
pub mod summary;
pub mod table;
pub mod tasks;

use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use results::{Record, ResultsFile, RunConfig, Status};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use tasks::{Task, TaskKind};

/// The long help of `tracery bench` (after the options).
pub const BENCH_HELP: &str = "\
Tasks: SV-COMP .yml task definitions (one task per verification property, with its
expected_verdict, subproperty and data_model; coverage-* properties are left out), and .c/.i/.bpl
programs whose first line announces the answer (//#Safe, // #Unsafe, /* #Terminating,
#Nonterminating; Ultimate's lassos: #rTermination[Derivable], #rNonTermination[Derivable],
#rTerminationUnknown) or, without such a line, whose file name does (SV-COMP 2015:
_true-termination, _false-termination, _unknown-termination). A first line and a file name with
opposite verdicts make the task an error. Programs without an answer are run and reported as
unscored. A program that a .yml names as its input file is a task through that .yml only.

Each task runs in a child process (the tracery binary itself) with the task's file, --timeout S,
--json-stats and the extra options after `--` (for .yml tasks also --data-model and --property
when the verifier's --help lists them), under a CPU-time limit (S plus one second of grace) and
an address-space limit set by the operating system, and a wall-clock guard at 2*S+5 s.

Writes results.json, results.csv and quantile.svg to the output folder and prints a summary per
folder: correct (TRUE/FALSE), wrong, unknown, timeout, memout, error, unscored, the SV-COMP score
(+2 correct TRUE, +1 correct FALSE, -32 wrong TRUE, -16 wrong FALSE) and CPU time, and the most
frequent UNKNOWN reasons. Exit code 1 when any answer is wrong, 0 otherwise.

Quantile plot of several runs: tracery bench plot A/results.json B/results.json --out plot.svg
(--metric time, iterations or perfect). Side by side: tracery bench table A/results.json B/results.json";

/// Arguments of `tracery bench` (see [`BENCH_HELP`]).
#[derive(clap::Args, Debug, Clone, PartialEq)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true, after_long_help = BENCH_HELP)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub command: Option<BenchCommand>,

    /// Task files (.yml, .c, .i, .bpl) or folders searched recursively.
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,

    /// Tasks run in parallel.
    #[arg(long, short = 'j', value_name = "N", default_value_t = 1)]
    pub jobs: usize,

    /// CPU-time limit per task in seconds (also passed to the verifier as --timeout).
    #[arg(long, value_name = "S", default_value_t = 60.0)]
    pub timeout: f64,

    /// Memory (address-space) limit per task in MiB; 0: no limit.
    #[arg(long, value_name = "MB", default_value_t = 8192)]
    pub memory: u64,

    /// Only tasks of this property (unreach-call, termination, valid-memsafety, no-overflow, ...).
    /// Without it, tasks of properties other than unreach-call are left out when the verifier's
    /// --help lists no --property option, and a --property NAMES after `--` (forced on the
    /// verifier) keeps the tasks of those properties and those without one.
    #[arg(long, value_name = "NAME")]
    pub property: Option<String>,

    /// Output folder [default: bench-results/YYYYMMDD-HHMMSS, the start time in UTC].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Compare with an older results.json: tasks that became wrong, newly solved, lost, and the
    /// CPU-time ratio on the tasks solved by both.
    #[arg(long, value_name = "OLD.json")]
    pub compare: Option<PathBuf>,

    /// Testing aid: run this program as the verifier instead of the tracery binary itself.
    #[arg(long, value_name = "PATH", hide_short_help = true)]
    pub verifier: Option<PathBuf>,

    /// Extra options passed to the verifier for every task (after `--`).
    #[arg(last = true, value_name = "VERIFIER OPTIONS", allow_hyphen_values = true)]
    pub extra: Vec<OsString>,
}

/// Subcommands of `tracery bench`.
#[derive(clap::Subcommand, Debug, Clone, PartialEq)]
pub enum BenchCommand {
    /// Draw one quantile plot of the correct results of several results.json files (one line
    /// per file).
    Plot(PlotArgs),
    /// Print a Markdown table of several results.json files over the same tasks (one row per
    /// file): correct results (Boogie, C), wrong ones, tasks no other file solved, CPU time,
    /// median iterations, perfect sequences.
    Table(TableArgs),
}

/// `tracery bench table A.json B.json`.
#[derive(clap::Args, Debug, Clone, PartialEq)]
pub struct TableArgs {
    /// results.json files written by `tracery bench`.
    #[arg(value_name = "RESULTS.json", required = true)]
    pub results: Vec<PathBuf>,

    /// A statistic of the verifier (a key of its `--json-stats`, e.g. `art_nodes`) to add as a
    /// column: its median over the tasks every file solves, and the median of its per-task
    /// ratio to the first file's (repeatable).
    #[arg(long = "stat", value_name = "KEY")]
    pub stats: Vec<String>,
}

/// `tracery bench plot A.json B.json --out plot.svg`.
#[derive(clap::Args, Debug, Clone, PartialEq)]
pub struct PlotArgs {
    /// results.json files written by `tracery bench`.
    #[arg(value_name = "RESULTS.json", required = true)]
    pub results: Vec<PathBuf>,

    /// The SVG file to write.
    #[arg(long, value_name = "FILE", default_value = "quantile.svg")]
    pub out: PathBuf,

    /// The plot's title.
    #[arg(long, default_value = "Tracery: CPU time of correct results")]
    pub title: String,

    /// What to draw for each correct result.
    #[arg(long, value_enum, default_value_t = plot::Metric::Time)]
    pub metric: plot::Metric,
}

/// Which task options the verifier accepts (from its `--help`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Capabilities {
    /// `--data-model ILP32|LP64`.
    pub data_model: bool,
    /// `--property NAME`.
    pub property: bool,
    /// `--jobs N` (threads of one run: the benchmark passes 1 so that its parallel tasks do
    /// not oversubscribe the cores).
    pub jobs: bool,
}

/// Whether a help text lists the option `opt` (as a whole word: `--property` is not
/// `--property-file`).
pub fn lists_option(help: &str, opt: &str) -> bool {
    help.match_indices(opt).any(|(i, _)| {
        let after = help[i + opt.len()..].chars().next();
        let before = help[..i].chars().next_back();
        !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            && !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
    })
}

/// Asks the verifier for its `--help` and reads which task options it lists.
pub fn probe(verifier: &Path) -> Capabilities {
    let limits = runner::Limits { cpu_secs: 20.0, memory_mb: None, wall_secs: 30.0 };
    let out = runner::run(verifier, &[OsString::from("--help")], &limits);
    Capabilities {
        data_model: lists_option(&out.stdout, "--data-model"),
        property: lists_option(&out.stdout, "--property"),
        jobs: lists_option(&out.stdout, "--jobs"),
    }
}

/// How to run the tasks.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub verifier: PathBuf,
    /// CPU-time limit per task (s).
    pub timeout: f64,
    pub memory_mb: Option<u64>,
    pub jobs: usize,
    pub extra: Vec<OsString>,
    pub caps: Capabilities,
}

impl RunOptions {
    pub fn limits(&self) -> runner::Limits {
        runner::Limits::for_timeout(self.timeout, self.memory_mb)
    }
}

fn has_option(extra: &[OsString], opt: &str) -> bool {
    extra.iter().any(|a| a.to_str().is_some_and(|a| a == opt || a.starts_with(&format!("{opt}="))))
}

/// The value of `opt` among the extra options (`--opt V` or `--opt=V`).
fn option_value(extra: &[OsString], opt: &str) -> Option<String> {
    let args: Vec<&str> = extra.iter().filter_map(|a| a.to_str()).collect();
    args.iter().enumerate().find_map(|(i, a)| match a.strip_prefix(opt) {
        Some("") => args.get(i + 1).map(|v| v.to_string()),
        Some(rest) => rest.strip_prefix('=').map(str::to_string),
        None => None,
    })
}

/// The verifier's arguments for a task: the program, `--timeout S`, `--json-stats` and
/// `--jobs 1` (unless the extra options give them; `--jobs` when the verifier lists it), `--data-model` and `--property` when the verifier lists them
/// (for `.yml` tasks; `--property termination` also for programs whose annotation or file name
/// makes them termination tasks), then the extra options.
pub fn child_args(task: &Task, opts: &RunOptions) -> Vec<OsString> {
    let mut args: Vec<OsString> = vec![task.input.clone().into_os_string()];
    if !has_option(&opts.extra, "--timeout") {
        args.push("--timeout".into());
        args.push(format!("{}", opts.timeout).into());
    }
    if !has_option(&opts.extra, "--json-stats") {
        args.push("--json-stats".into());
    }
    if opts.caps.jobs && !has_option(&opts.extra, "--jobs") {
        args.push("--jobs".into());
        args.push("1".into());
    }
    let pass_property = match task.kind {
        TaskKind::Yml => true,
        // an annotated `unreach-call` task means the default properties (see the corpus README)
        TaskKind::Annotated => task.property.as_deref() != Some("unreach-call"),
    };
    if opts.caps.data_model && !has_option(&opts.extra, "--data-model") {
        if let Some(m) = task.data_model {
            args.push("--data-model".into());
            args.push(m.as_str().into());
        }
    }
    if pass_property && opts.caps.property && !has_option(&opts.extra, "--property") {
        if let Some(p) = &task.property {
            args.push("--property".into());
            args.push(p.into());
        }
    }
    args.extend(opts.extra.iter().cloned());
    args
}

/// Runs one task (or records it as `error` when it is malformed).
pub fn run_task(task: &Task, opts: &RunOptions) -> Record {
    if let Some(e) = &task.error {
        return results::error_record(task, e);
    }
    let limits = opts.limits();
    let outcome = runner::run(&opts.verifier, &child_args(task, opts), &limits);
    results::classify(task, &outcome, opts.timeout, limits.rlimit_cpu_soft())
}

/// Runs the tasks, `opts.jobs` at a time; `on_done(record)` is called (on this thread) as each
/// one finishes. The records come back in the order of the tasks.
pub fn run_tasks(tasks: &[Task], opts: &RunOptions, mut on_done: impl FnMut(&Record)) -> Vec<Record> {
    let next = AtomicUsize::new(0);
    let mut done: Vec<Option<Record>> = vec![None; tasks.len()];
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Record)>();
    std::thread::scope(|scope| {
        for _ in 0..opts.jobs.max(1).min(tasks.len().max(1)) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(task) = tasks.get(i) else { break };
                if tx.send((i, run_task(task, opts))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (i, rec) in rx {
            on_done(&rec);
            done[i] = Some(rec);
        }
    });
    done.into_iter().zip(tasks).map(|(r, t)| r.unwrap_or_else(|| results::error_record(t, "the task's run was lost"))).collect()
}

/// Keeps the tasks the run is about: those of `property` if given; otherwise, when the verifier
/// cannot be told the property, those of `unreach-call` (and the ones without a property).
/// Returns the kept tasks and notes for the user.
pub fn select(tasks: Vec<Task>, property: Option<&str>, caps: Capabilities) -> (Vec<Task>, Vec<String>) {
    let mut notes = Vec::new();
    match property {
        Some(p) => {
            let kept: Vec<Task> = tasks
                .into_iter()
                .filter(|t| t.property.as_deref() == Some(p) || (t.error.is_some() && t.property.is_none() && t.kind == TaskKind::Yml))
                .collect();
            if !caps.property && p != "unreach-call" {
                notes.push(format!("the verifier's --help lists no --property option: it is not told to check `{p}`"));
            }
            (kept, notes)
        }
        None if !caps.property => {
            let mut left_out: BTreeMap<String, usize> = BTreeMap::new();
            let kept = tasks
                .into_iter()
                .filter(|t| match t.property.as_deref() {
                    None | Some("unreach-call") => true,
                    Some(other) => {
                        *left_out.entry(other.to_string()).or_default() += 1;
                        false
                    }
                })
                .collect();
            if !left_out.is_empty() {
                let list: Vec<String> = left_out.iter().map(|(p, n)| format!("{p} ({n})")).collect();
                notes.push(format!(
                    "left out tasks of properties the verifier cannot be asked for (its --help lists no --property): {}; \
                     use --property NAME to run them anyway",
                    list.join(", ")
                ));
            }
            (kept, notes)
        }
        None => (tasks, notes),
    }
}

/// Keeps the tasks a verifier told `--property forced` (after `--`, names joined by commas)
/// is scored on: those of one of the forced properties and those without a property. A task
/// of another property would be scored against an answer to a question it was not asked.
pub fn select_forced(tasks: Vec<Task>, forced: &str) -> (Vec<Task>, Vec<String>) {
    let names: Vec<&str> = forced.split(',').map(str::trim).collect();
    let (kept, left_out): (Vec<Task>, Vec<Task>) =
        tasks.into_iter().partition(|t| t.property.as_deref().is_none_or(|p| names.contains(&p)));
    let notes = if left_out.is_empty() {
        vec![]
    } else {
        vec![format!("left out {} tasks of other properties than the forced --property {forced}", left_out.len())]
    };
    (kept, notes)
}

/// Days since 1970-01-01 to (year, month, day) in the proleptic Gregorian calendar.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// UTC date and time of a Unix time: (`YYYY-MM-DDTHH:MM:SSZ`, `YYYYMMDD-HHMMSS`).
pub fn timestamps(unix_secs: i64) -> (String, String) {
    let (y, mo, d) = civil_from_days(unix_secs.div_euclid(86_400));
    let s = unix_secs.rem_euclid(86_400);
    let (h, mi, se) = (s / 3600, s % 3600 / 60, s % 60);
    (format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{se:02}Z"), format!("{y:04}{mo:02}{d:02}-{h:02}{mi:02}{se:02}"))
}

/// Writes to stdout, ignoring a closed pipe (`tracery bench ... | head` must not panic).
fn out(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// Writes a line to stderr, ignoring errors.
fn err_line(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

fn now_unix() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

fn progress_message(counts: &BTreeMap<Status, usize>) -> String {
    let get = |s| counts.get(&s).copied().unwrap_or(0);
    format!(
        "correct {}  wrong {}  unknown {}  timeout {}  error {}",
        get(Status::Correct),
        get(Status::Wrong),
        get(Status::Unknown),
        get(Status::Timeout) + get(Status::Memout),
        get(Status::Error)
    )
}

/// Writes results.json, results.csv and quantile.svg into `dir`.
pub fn write_outputs(dir: &Path, file: &ResultsFile) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    file.save(&dir.join("results.json"))?;
    std::fs::write(dir.join("results.csv"), results::to_csv(&file.results))
        .with_context(|| format!("cannot write {}", dir.join("results.csv").display()))?;
    let series = [plot::Series::from_records(&file.config.name, &file.results, plot::Metric::Time)];
    let svg = plot::quantile_svg(&series, "Tracery: CPU time of correct results", plot::Metric::Time);
    std::fs::write(dir.join("quantile.svg"), svg).with_context(|| format!("cannot write {}", dir.join("quantile.svg").display()))?;
    Ok(())
}

/// `tracery bench plot`: one quantile plot of several results files.
pub fn run_plot(args: &PlotArgs) -> anyhow::Result<ExitCode> {
    let mut series = Vec::new();
    for path in &args.results {
        let file = ResultsFile::load(path)?;
        series.push(plot::Series::from_records(&file.label(path), &file.results, args.metric));
    }
    std::fs::write(&args.out, plot::quantile_svg(&series, &args.title, args.metric))
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    out(&format!("wrote {}\n", args.out.display()));
    Ok(ExitCode::SUCCESS)
}

/// `tracery bench table`: the runs side by side.
pub fn run_table(args: &TableArgs) -> anyhow::Result<ExitCode> {
    let mut runs = Vec::new();
    for path in &args.results {
        let file = ResultsFile::load(path)?;
        runs.push(table::Run { label: file.label(path), records: file.results });
    }
    out(&table::markdown(&runs, &args.stats));
    Ok(ExitCode::SUCCESS)
}

/// The entry point of `tracery bench`. Returns exit code 1 when any task's answer is wrong, 0
/// otherwise; an `Err` for unusable arguments (a missing path, an unreadable --compare file, an
/// output folder that cannot be written).
pub fn run(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    match &args.command {
        Some(BenchCommand::Plot(p)) => return run_plot(p),
        Some(BenchCommand::Table(t)) => return run_table(t),
        None => {}
    }
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        bail!("--timeout must be a positive number of seconds");
    }
    let verifier = match &args.verifier {
        Some(v) => v.clone(),
        None => std::env::current_exe().context("cannot find the tracery binary itself")?,
    };
    let old = match &args.compare {
        Some(p) => Some(ResultsFile::load(p)?),
        None => None,
    };
    let discovery = tasks::discover(&args.paths);
    let missing: Vec<&String> = discovery.problems.iter().filter(|p| p.ends_with("no such file or folder")).collect();
    if !missing.is_empty() {
        bail!("{}", missing.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("; "));
    }
    for p in &discovery.problems {
        err_line(&format!("tracery bench: warning: {p}"));
    }
    let caps = probe(&verifier);
    let (mut tasks, mut notes) = select(discovery.tasks, args.property.as_deref(), caps);
    if let (None, Some(forced)) = (&args.property, option_value(&args.extra, "--property")) {
        let (kept, more) = select_forced(tasks, &forced);
        tasks = kept;
        notes.extend(more);
    }
    for n in &notes {
        err_line(&format!("tracery bench: note: {n}"));
    }
    if tasks.is_empty() {
        bail!("no tasks found under the given paths");
    }

    let (started, stamp) = timestamps(now_unix());
    let out_dir = match &args.out {
        Some(d) => d.clone(),
        None => {
            let base = PathBuf::from("bench-results").join(&stamp);
            let mut dir = base.clone();
            let mut k = 2;
            while dir.exists() {
                dir = PathBuf::from(format!("{}-{k}", base.display()));
                k += 1;
            }
            dir
        }
    };
    std::fs::create_dir_all(&out_dir).with_context(|| format!("cannot create {}", out_dir.display()))?;
    let name =
        out_dir.canonicalize().ok().and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned())).unwrap_or_else(|| stamp.clone());

    let opts = RunOptions {
        verifier: verifier.clone(),
        timeout: args.timeout,
        memory_mb: (args.memory > 0).then_some(args.memory),
        jobs: args.jobs.max(1),
        extra: args.extra.clone(),
        caps,
    };
    let pb = ProgressBar::with_draw_target(Some(tasks.len() as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} [{elapsed_precise}] {msg}") {
        pb.set_style(style);
    }
    pb.set_message(progress_message(&BTreeMap::new()));
    let mut counts: BTreeMap<Status, usize> = BTreeMap::new();
    let total = tasks.len();
    let mut finished = 0usize;
    let records = run_tasks(&tasks, &opts, |r| {
        finished += 1;
        *counts.entry(r.status).or_default() += 1;
        let line = format!(
            "[{finished}/{total}] {:<8} {} ({:.1} s){}",
            r.status.as_str(),
            r.name(),
            r.cpu,
            if r.status == Status::Wrong {
                format!(": {} but expected {}", r.verdict.as_deref().unwrap_or("?"), r.expected.as_deref().unwrap_or("?"))
            } else {
                String::new()
            }
        );
        if pb.is_hidden() {
            err_line(&line);
        } else if r.status == Status::Wrong {
            pb.println(format!("WRONG {line}"));
        }
        pb.set_message(progress_message(&counts));
        pb.inc(1);
    });
    pb.finish_and_clear();

    let file = ResultsFile {
        config: RunConfig {
            name,
            started,
            verifier: verifier.display().to_string(),
            options: args.extra.iter().map(|o| o.to_string_lossy().into_owned()).collect(),
            timeout: args.timeout,
            memory_mb: opts.memory_mb,
            jobs: opts.jobs,
            property: args.property.clone(),
        },
        results: records,
    };
    write_outputs(&out_dir, &file)?;
    out(&summary::render(&file.results));
    if let Some(old) = &old {
        out(&format!("\ncompared with {}:\n", args.compare.as_ref().map(|p| p.display().to_string()).unwrap_or_default()));
        out(&compare::compare(&old.results, &file.results).to_string());
    }
    out(&format!("\nresults: {}\n", out_dir.display()));
    let any_wrong = file.results.iter().any(|r| r.status == Status::Wrong);
    Ok(if any_wrong { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
