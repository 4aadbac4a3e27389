//! The comparison table of several runs over the same tasks (the Craig-vs-Newton experiment):
//! per configuration its correct results (all, Boogie, C), wrong ones, the tasks that no other
//! configuration solved, CPU time, iterations and perfect sequences; a last row counts the tasks
//! that some configuration solved.

use crate::results::{Record, Status};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One configuration's results.
pub struct Run {
    pub label: String,
    pub records: Vec<Record>,
}

type Key = (String, Option<String>);

fn correct(run: &Run) -> impl Iterator<Item = &Record> {
    run.records.iter().filter(|r| r.status == Status::Correct)
}

fn is_boogie(r: &Record) -> bool {
    r.input.ends_with(".bpl")
}

fn median(mut xs: Vec<f64>) -> Option<f64> {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    (n > 0).then(|| if n % 2 == 1 { xs[n / 2] } else { (xs[n / 2 - 1] + xs[n / 2]) / 2.0 })
}

/// The table in Markdown, with a column for each statistic of `stats`: its median over the tasks
/// every configuration solves, and the median of its per-task ratio to the first configuration.
pub fn markdown(runs: &[Run], stats: &[String]) -> String {
    // How many configurations solved each task, and whether it is a Boogie task.
    let mut solvers: BTreeMap<Key, (usize, bool)> = BTreeMap::new();
    for run in runs {
        let solved: BTreeMap<Key, bool> = correct(run).map(|r| (r.key(), is_boogie(r))).collect();
        for (key, boogie) in solved {
            solvers.entry(key).or_insert((0, boogie)).0 += 1;
        }
    }
    let everywhere: Vec<&Key> = solvers.iter().filter(|(_, (n, _))| *n == runs.len()).map(|(k, _)| k).collect();
    let mut s = String::new();
    let stat_heads: String = stats.iter().map(|k| format!(" median {k} ({} tasks all solve; ratio) |", everywhere.len())).collect();
    let _ = writeln!(
        s,
        "| configuration | correct | Boogie | C | wrong | solved by no other | CPU time of correct (s) | median iterations | perfect sequences |{stat_heads}"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|---:|{}", "---:|".repeat(stats.len()));
    for run in runs {
        let ok: Vec<&Record> = correct(run).collect();
        let boogie = ok.iter().filter(|r| is_boogie(r)).count();
        let wrong = run.records.iter().filter(|r| r.status == Status::Wrong).count();
        let only = ok.iter().filter(|r| solvers.get(&r.key()).is_some_and(|(n, _)| *n == 1)).count();
        let cpu: f64 = ok.iter().map(|r| r.cpu).filter(|c| c.is_finite()).sum();
        let iterations = median(ok.iter().filter_map(|r| r.stat("iterations")).collect()).map_or("–".to_string(), |m| format!("{m}"));
        let sequences: f64 = ok.iter().filter_map(|r| r.stat("sequences")).sum();
        let perfect: f64 = ok.iter().filter_map(|r| r.stat("perfect_sequences")).sum();
        let perfect = if sequences > 0.0 { format!("{:.0} % of {sequences}", 100.0 * perfect / sequences) } else { "–".to_string() };
        let columns: String = stats.iter().map(|k| format!(" {} |", stat_column(&runs[0], run, &everywhere, k))).collect();
        let _ = writeln!(
            s,
            "| {} | {} | {boogie} | {} | {wrong} | {only} | {cpu:.1} | {iterations} | {perfect} |{columns}",
            run.label,
            ok.len(),
            ok.len() - boogie
        );
    }
    let boogie = solvers.values().filter(|(_, boogie)| *boogie).count();
    let _ =
        writeln!(s, "| any of them | {} | {boogie} | {} | | | | | |{}", solvers.len(), solvers.len() - boogie, " |".repeat(stats.len()));
    s
}

/// The median of statistic `key` of `run` over the tasks `keys`, and the median of its ratio to
/// `first`'s on each of them (where both are positive).
fn stat_column(first: &Run, run: &Run, keys: &[&Key], key: &str) -> String {
    let of = |run: &Run| -> BTreeMap<Key, f64> { correct(run).filter_map(|r| Some((r.key(), r.stat(key)?))).collect() };
    let (base, mine) = (of(first), of(run));
    let values: Vec<f64> = keys.iter().filter_map(|k| mine.get(*k).copied()).collect();
    let ratios: Vec<f64> =
        keys.iter().filter_map(|k| Some((mine.get(*k)?, base.get(*k)?))).filter(|(_, b)| **b > 0.0).map(|(m, b)| m / b).collect();
    match (median(values), median(ratios)) {
        (Some(m), Some(r)) => format!("{m} (×{r:.2})"),
        (Some(m), None) => format!("{m}"),
        _ => "–".to_string(),
    }
}
