//! Scoring, classification of runs, the summary, the comparison and the SVG plot, on
//! hand-made results (no verifier involved).

use bench::compare::compare;
use bench::plot::{quantile_svg, Metric, Series};
use bench::results::{classify, judge, parse_output, parse_verdict, score, to_csv, Record, ResultsFile, Status, Verdict};
use bench::runner::{RunOutcome, Termination};
use bench::summary::{frequent_reasons, normalize_reason, render, Tally};
use bench::tasks::{Expected, Task, TaskKind};
use std::path::PathBuf;

fn rec(file: &str, status: Status, verdict: Option<&str>, cpu: f64) -> Record {
    Record {
        file: file.to_string(),
        input: file.to_string(),
        property: Some("unreach-call".into()),
        folder: file.rsplit_once('/').map(|(d, _)| d.to_string()).unwrap_or_default(),
        expected: Some("true".into()),
        verdict: verdict.map(str::to_string),
        status,
        cpu,
        wall: cpu,
        memory_mb: 10.0,
        exit: Some("exit 0".into()),
        reason: None,
        stats: None,
    }
}

#[test]
fn svcomp_score_arithmetic() {
    assert_eq!(score(Status::Correct, true), 2);
    assert_eq!(score(Status::Correct, false), 1);
    assert_eq!(score(Status::Wrong, true), -32);
    assert_eq!(score(Status::Wrong, false), -16);
    for s in [Status::Unknown, Status::Timeout, Status::Memout, Status::Error, Status::Unscored] {
        assert_eq!(score(s, true), 0);
        assert_eq!(score(s, false), 0);
    }
    let records = vec![
        rec("a/1.c", Status::Correct, Some("TRUE"), 1.0),
        rec("a/2.c", Status::Correct, Some("TRUE"), 2.0),
        rec("a/3.c", Status::Correct, Some("FALSE(unreach-call)"), 3.0),
        rec("a/4.c", Status::Wrong, Some("TRUE"), 4.0),
        rec("b/5.c", Status::Wrong, Some("FALSE(unreach-call)"), 5.0),
        rec("b/6.c", Status::Unknown, Some("UNKNOWN"), 6.0),
        rec("b/7.c", Status::Timeout, None, 7.0),
        rec("b/8.c", Status::Error, None, 0.5),
    ];
    let t = Tally::of(&records);
    assert_eq!((t.correct_true, t.correct_false, t.wrong_true, t.wrong_false), (2, 1, 1, 1));
    assert_eq!((t.unknown, t.timeout, t.memout, t.error, t.unscored, t.tasks), (1, 1, 0, 1, 0, 8));
    assert_eq!(t.score, 2 + 2 + 1 - 32 - 16);
    assert_eq!(t.cpu, 28.5);
    assert_eq!(t.cpu_correct, 6.0);
}

#[test]
fn verdict_lines() {
    assert_eq!(parse_verdict("TRUE"), Some(Verdict::True));
    assert_eq!(parse_verdict("FALSE(unreach-call)"), Some(Verdict::False(Some("unreach-call".into()))));
    assert_eq!(parse_verdict("FALSE"), Some(Verdict::False(None)));
    assert_eq!(parse_verdict("UNKNOWN\r"), Some(Verdict::Unknown));
    assert_eq!(parse_verdict("true"), None);
    assert_eq!(parse_verdict("TRUE!"), None);
    let out = parse_output("UNKNOWN\nreason: unsupported: goto at 3:1\nstatistics:\n  x: 1\n{\"iterations\":4}\n");
    assert_eq!(out.verdict, Some(Verdict::Unknown));
    assert_eq!(out.reason.as_deref(), Some("unsupported: goto at 3:1"));
    assert_eq!(out.stats, Some(serde_json::json!({"iterations": 4})));
    assert_eq!(parse_output("TRUE\n").stats, None);
}

#[test]
fn judging_follows_benchexec() {
    let t = Expected::holds();
    let f = Expected::violated();
    let deref = Expected { holds: false, subproperty: Some("valid-deref".into()) };
    let fp = |p: &str| Verdict::False(Some(p.to_string()));
    assert_eq!(judge(Some(&t), &Verdict::True).0, Status::Correct);
    assert_eq!(judge(Some(&t), &fp("unreach-call")).0, Status::Wrong);
    assert_eq!(judge(Some(&f), &fp("unreach-call")).0, Status::Correct);
    assert_eq!(judge(Some(&f), &Verdict::False(None)).0, Status::Correct);
    assert_eq!(judge(Some(&f), &Verdict::True).0, Status::Wrong);
    assert_eq!(judge(Some(&deref), &fp("valid-deref")).0, Status::Correct);
    assert_eq!(judge(Some(&deref), &Verdict::True).0, Status::Wrong);
    assert_eq!(
        judge(Some(&deref), &fp("valid-free")),
        (Status::Unknown, Some("FALSE(valid-free) does not match the expected violation of valid-deref".into()))
    );
    assert_eq!(judge(None, &Verdict::True).0, Status::Unscored);
    assert_eq!(judge(None, &Verdict::Unknown).0, Status::Unknown);
    assert_eq!(judge(Some(&t), &Verdict::Unknown).0, Status::Unknown);
}

fn task(expected: Option<Expected>) -> Task {
    Task {
        file: PathBuf::from("dir/t.bpl"),
        input: PathBuf::from("dir/t.bpl"),
        kind: TaskKind::Annotated,
        property: Some("unreach-call".into()),
        expected,
        data_model: None,
        error: None,
    }
}

fn outcome(termination: Termination, cpu: f64, stdout: &str, stderr: &str) -> RunOutcome {
    RunOutcome { termination, cpu, wall: cpu, peak_kib: 2048, stdout: stdout.into(), stderr: stderr.into() }
}

#[test]
fn classifying_runs() {
    let t = task(Some(Expected::holds()));
    let c = |o: RunOutcome| {
        let r = classify(&t, &o, 10.0, 11);
        (r.status, r.reason)
    };
    let r = classify(&t, &outcome(Termination::Exited(0), 1.5, "TRUE\n{\"iterations\":2}\n", ""), 10.0, 11);
    assert_eq!((r.status, r.verdict.as_deref(), r.memory_mb), (Status::Correct, Some("TRUE"), 2.0));
    assert_eq!(r.stats, Some(serde_json::json!({"iterations": 2})));
    assert_eq!(r.exit.as_deref(), Some("exit 0"));
    assert_eq!(r.score(), 2);
    assert_eq!(c(outcome(Termination::Exited(0), 1.0, "FALSE(unreach-call)\n", "")).0, Status::Wrong);
    assert_eq!(
        c(outcome(Termination::Exited(0), 1.0, "UNKNOWN\nreason: unsupported: goto\n", "")),
        (Status::Unknown, Some("unsupported: goto".into()))
    );
    assert_eq!(c(outcome(Termination::Exited(0), 9.0, "UNKNOWN\nreason: timeout\n", "")), (Status::Timeout, Some("timeout".into())));
    // An answer after the CPU-time limit is a timeout.
    assert_eq!(c(outcome(Termination::Exited(0), 10.5, "TRUE\n", "")).0, Status::Timeout);
    assert_eq!(
        c(outcome(Termination::Signaled(libc::SIGXCPU), 11.0, "", "")),
        (Status::Timeout, Some("CPU-time limit (killed by SIGXCPU)".into()))
    );
    assert_eq!(c(outcome(Termination::Signaled(libc::SIGKILL), 12.9, "", "")).0, Status::Timeout);
    assert_eq!(c(outcome(Termination::WallGuard, 0.1, "", "")).0, Status::Timeout);
    assert_eq!(
        c(outcome(Termination::Signaled(libc::SIGABRT), 1.0, "", "memory allocation of 1024 bytes failed\n")),
        (Status::Memout, Some("memory limit (killed by SIGABRT)".into()))
    );
    assert_eq!(c(outcome(Termination::Signaled(libc::SIGSEGV), 1.0, "", "")), (Status::Error, Some("crashed: signal 11 (SIGSEGV)".into())));
    assert_eq!(
        c(outcome(Termination::Exited(2), 0.1, "", "t.bpl:1:5: syntax error: expected `;`\n")),
        (Status::Error, Some("input error: t.bpl:1:5: syntax error: expected `;`".into()))
    );
    assert_eq!(
        c(outcome(Termination::Exited(0), 0.1, "hello\n", "")),
        (Status::Error, Some("no verdict (exit 0, first line `hello`)".into()))
    );
    assert_eq!(
        c(outcome(Termination::SpawnFailed("x: No such file".into()), 0.0, "", "")),
        (Status::Error, Some("cannot run the verifier: x: No such file".into()))
    );
    let none = task(None);
    assert_eq!(classify(&none, &outcome(Termination::Exited(0), 1.0, "TRUE\n", ""), 10.0, 11).status, Status::Unscored);
}

#[test]
fn reasons_are_grouped() {
    assert_eq!(normalize_reason("unsupported input `a.c`: only Boogie at 12:3"), "unsupported input `…`: only Boogie at N:N");
    let mut rs = vec![];
    for (f, reason) in [("a", "unsupported: goto at 1:2"), ("b", "unsupported: goto at 7:9"), ("c", "solver gave up")] {
        let mut r = rec(f, Status::Unknown, Some("UNKNOWN"), 1.0);
        r.reason = Some(reason.into());
        rs.push(r);
    }
    assert_eq!(
        frequent_reasons(&rs, Status::Unknown, 10),
        vec![("unsupported: goto at N:N".to_string(), 2), ("solver gave up".to_string(), 1)]
    );
}

#[test]
fn summary_table() {
    let mut records = vec![
        rec("a/1.c", Status::Correct, Some("TRUE"), 1.0),
        rec("a/2.c", Status::Correct, Some("FALSE(unreach-call)"), 2.0),
        rec("b/3.c", Status::Wrong, Some("TRUE"), 4.0),
        rec("b/4.c", Status::Unknown, Some("UNKNOWN"), 0.5),
    ];
    records[2].expected = Some("false".into());
    records[3].reason = Some("unsupported: goto".into());
    let text = render(&records);
    let want = "\
folder  tasks  correct (T/F)  wrong (T/F)  unknown  timeout  memout  error  unscored  score  cpu (s)
a           2        2 (1/1)      0 (0/0)        0        0       0      0         0      3      3.0
b           2        0 (0/0)      1 (1/0)        1        0       0      0         0    -32      4.5
----------------------------------------------------------------------------------------------------
total       4        2 (1/1)      1 (1/0)        1        0       0      0         0    -29      7.5
CPU time of the correct results: 3.0 s
most frequent UNKNOWN reasons:
      1  unsupported: goto
wrong results:
  b/3.c: TRUE (expected false)
";
    assert_eq!(text, want);
}

#[test]
fn csv_quotes_fields() {
    let mut r = rec("a/1.c", Status::Unknown, Some("UNKNOWN"), 1.0);
    r.reason = Some("x, \"y\"".into());
    let csv = to_csv(&[r]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "file,property,expected,verdict,status,score,cpu_s,wall_s,memory_mb,exit,reason,stats");
    assert_eq!(lines[1], "a/1.c,unreach-call,true,UNKNOWN,unknown,0,1.000,1.000,10.0,exit 0,\"x, \"\"y\"\"\",");
}

#[test]
fn results_json_round_trips() {
    let file = ResultsFile { config: Default::default(), results: vec![rec("a/1.c", Status::Correct, Some("TRUE"), 1.0)] };
    let dir = std::env::temp_dir().join(format!("tracery-bench-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("results.json");
    file.save(&path).unwrap();
    let back = ResultsFile::load(&path).unwrap();
    assert_eq!(back, file);
    assert_eq!(back.label(&path), dir.file_name().unwrap().to_str().unwrap());
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"status\": \"correct\""));
    std::fs::write(&path, "{ not json").unwrap();
    assert!(ResultsFile::load(&path).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn comparison_of_two_runs() {
    let old = vec![
        rec("a/stays.c", Status::Correct, Some("TRUE"), 2.0),
        rec("a/lost.c", Status::Correct, Some("TRUE"), 1.0),
        rec("a/gained.c", Status::Timeout, None, 60.0),
        rec("a/broke.c", Status::Correct, Some("TRUE"), 3.0),
        rec("a/gone.c", Status::Correct, Some("TRUE"), 3.0),
        rec("a/still-wrong.c", Status::Wrong, Some("TRUE"), 3.0),
    ];
    let mut new = vec![
        rec("a/stays.c", Status::Correct, Some("TRUE"), 1.0),
        rec("a/lost.c", Status::Timeout, None, 60.0),
        rec("a/gained.c", Status::Correct, Some("TRUE"), 5.0),
        rec("a/broke.c", Status::Wrong, Some("FALSE(unreach-call)"), 3.0),
        rec("a/fresh.c", Status::Wrong, Some("TRUE"), 1.0),
        rec("a/still-wrong.c", Status::Wrong, Some("TRUE"), 3.0),
    ];
    new[1].reason = Some("CPU-time limit (killed by SIGXCPU)".into());
    new[4].expected = Some("false".into());
    let c = compare(&old, &new);
    assert_eq!(c.both_solved, 1);
    assert_eq!(c.cpu_ratio(), Some(0.5));
    let want = "\
became wrong: 2
  a/broke.c: correct -> wrong (FALSE(unreach-call), expected true)
  a/fresh.c: absent -> wrong (TRUE, expected false)
newly solved: 1
  a/gained.c: timeout -> correct (TRUE, expected true)
lost: 2
  a/lost.c: correct -> timeout (CPU-time limit (killed by SIGXCPU))
  a/broke.c: correct -> wrong (FALSE(unreach-call), expected true)
CPU time on the 1 tasks solved by both: 1.00 s now, 2.00 s before (ratio 0.500)
tasks only in the new run: 1, only in the old run: 1
";
    assert_eq!(c.to_string(), want);
    let none = compare(&[], &[]);
    assert_eq!(none.cpu_ratio(), None);
}

/// Parses an XML document completely; panics on any error.
fn assert_well_formed(xml: &str) -> (usize, usize, Vec<String>) {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let (mut polylines, mut depth, mut roots) = (0, 0i32, vec![]);
    let mut texts = vec![];
    loop {
        match reader.read_event() {
            Ok(Event::Eof) => break,
            Ok(Event::Start(e)) => {
                if depth == 0 {
                    roots.push(String::from_utf8_lossy(e.name().as_ref()).into_owned());
                }
                depth += 1;
                if e.name().as_ref() == b"polyline" {
                    polylines += 1;
                }
                for a in e.attributes() {
                    a.expect("attribute").unescape_value().expect("attribute value");
                }
            }
            Ok(Event::Empty(e)) => {
                assert!(depth > 0, "element outside the root");
                for a in e.attributes() {
                    a.expect("attribute").unescape_value().expect("attribute value");
                }
            }
            Ok(Event::End(_)) => depth -= 1,
            Ok(Event::Text(t)) => texts.push(t.decode().expect("text").into_owned()),
            Ok(Event::GeneralRef(r)) => {
                let name = r.decode().expect("reference").into_owned();
                assert!(r.is_char_ref() || ["amp", "lt", "gt", "quot", "apos"].contains(&name.as_str()), "undefined entity &{name};");
            }
            Ok(_) => {}
            Err(e) => panic!("invalid XML at {}: {e}", reader.buffer_position()),
        }
    }
    assert_eq!(depth, 0);
    assert_eq!(roots, vec!["svg".to_string()]);
    (polylines, roots.len(), texts)
}

#[test]
fn quantile_plot_is_valid_svg() {
    let a = Series { label: "base <&> \"quoted\"".into(), values: vec![0.001, 0.5, 1.0, 30.0, 899.0] };
    let b = Series { label: "craig".into(), values: vec![0.2, 0.3] };
    let empty = Series { label: "nothing".into(), values: vec![] };
    let svg = quantile_svg(&[a, b, empty], "title & <stuff>", Metric::Time);
    let (polylines, _, texts) = assert_well_formed(&svg);
    assert_eq!(polylines, 2);
    assert!(texts.iter().any(|t| t.contains("nothing (0 correct)")));
    // Log-scale ticks from 0.01 (the smallest time drawn) to 1000.
    for tick in ["0.01", "0.1", "1", "10", "100", "1000"] {
        assert!(texts.iter().any(|t| t == tick), "tick {tick} missing");
    }
    // Nothing to draw is still a valid document.
    let (polylines, _, texts) = assert_well_formed(&quantile_svg(&[], "empty", Metric::Time));
    assert_eq!(polylines, 0);
    assert!(texts.iter().any(|t| t == "no correct results"));
    let one = Series { label: "one".into(), values: vec![5.0] };
    assert_eq!(assert_well_formed(&quantile_svg(&[one], "one", Metric::Time)).0, 1);
}

#[test]
fn percent_plot_has_a_linear_axis_and_iterations_a_log_axis() {
    let s = Series { label: "it-sp-lv".into(), values: vec![0.0, 50.0, 100.0] };
    let (_, _, texts) = assert_well_formed(&quantile_svg(&[s], "perfect", Metric::Perfect));
    for tick in ["0", "20", "40", "60", "80", "100"] {
        assert!(texts.iter().any(|t| t == tick), "tick {tick} missing");
    }
    assert!(texts.iter().any(|t| t == "perfect sequences (%)"));
    let s = Series { label: "craig".into(), values: vec![1.0, 7.0, 230.0] };
    let (_, _, texts) = assert_well_formed(&quantile_svg(&[s], "iterations", Metric::Iterations));
    for tick in ["1", "10", "100", "1000"] {
        assert!(texts.iter().any(|t| t == tick), "tick {tick} missing");
    }
    assert!(!texts.iter().any(|t| t == "0.1"));
}

#[test]
fn series_holds_sorted_correct_times() {
    let records = vec![
        rec("a", Status::Correct, Some("TRUE"), 3.0),
        rec("b", Status::Timeout, None, 60.0),
        rec("c", Status::Correct, Some("FALSE(unreach-call)"), 1.0),
        rec("d", Status::Wrong, Some("TRUE"), 2.0),
    ];
    assert_eq!(Series::from_records("x", &records, Metric::Time).values, vec![1.0, 3.0]);
}

fn with_stats(mut r: Record, iterations: u64, sequences: u64, perfect: u64) -> Record {
    r.stats = Some(serde_json::json!({"iterations": iterations, "sequences": sequences, "perfect_sequences": perfect}));
    r
}

#[test]
fn series_of_statistics_leave_out_results_without_them() {
    let records = vec![
        with_stats(rec("a.bpl", Status::Correct, Some("TRUE"), 3.0), 7, 4, 1),
        with_stats(rec("b.bpl", Status::Correct, Some("TRUE"), 1.0), 1, 0, 0),
        rec("c.bpl", Status::Correct, Some("TRUE"), 1.0),
        with_stats(rec("d.bpl", Status::Timeout, None, 5.0), 30, 30, 30),
    ];
    assert_eq!(Series::from_records("x", &records, Metric::Iterations).values, vec![1.0, 7.0]);
    assert_eq!(Series::from_records("x", &records, Metric::Perfect).values, vec![25.0]);
}

#[test]
fn table_counts_tasks_solved_by_no_other_configuration() {
    use bench::table::{markdown, Run};
    let a = Run {
        label: "craig".into(),
        records: vec![
            with_stats(rec("x.bpl", Status::Correct, Some("TRUE"), 1.0), 3, 4, 2),
            with_stats(rec("y.c", Status::Correct, Some("TRUE"), 2.0), 5, 4, 0),
            rec("z.c", Status::Wrong, Some("TRUE"), 1.0),
        ],
    };
    let b = Run {
        label: "sp".into(),
        records: vec![
            with_stats(rec("x.bpl", Status::Correct, Some("TRUE"), 0.5), 2, 2, 2),
            rec("y.c", Status::Timeout, None, 5.0),
            rec("z.c", Status::Correct, Some("TRUE"), 0.25),
        ],
    };
    let table = markdown(&[a, b], &[]);
    let rows: Vec<&str> = table.lines().collect();
    assert_eq!(rows.len(), 5, "{table}");
    assert_eq!(rows[2], "| craig | 2 | 1 | 1 | 1 | 1 | 3.0 | 4 | 25 % of 8 |");
    assert_eq!(rows[3], "| sp | 2 | 1 | 1 | 0 | 1 | 0.8 | 2 | 100 % of 2 |");
    assert_eq!(rows[4], "| any of them | 3 | 1 | 2 | | | | | |");
    // x.bpl is the task both solve: 3 iterations with craig, 2 with sp
    let a = Run { label: "craig".into(), records: vec![with_stats(rec("x.bpl", Status::Correct, Some("TRUE"), 1.0), 3, 4, 2)] };
    let b = Run { label: "sp".into(), records: vec![with_stats(rec("x.bpl", Status::Correct, Some("TRUE"), 0.5), 2, 2, 2)] };
    let table = markdown(&[a, b], &["iterations".into()]);
    let rows: Vec<&str> = table.lines().collect();
    assert!(rows[0].ends_with("| median iterations (1 tasks all solve; ratio) |"), "{table}");
    assert!(rows[2].ends_with("| 3 (×1.00) |") && rows[3].ends_with("| 2 (×0.67) |"), "{table}");
    let mut nested = rec("x.bpl", Status::Correct, Some("TRUE"), 1.0);
    nested.stats = Some(serde_json::json!({"hoare_solver": {"time_ms": 12}}));
    assert_eq!(nested.stat("hoare_solver.time_ms"), Some(12.0));
    assert_eq!(nested.stat("hoare_solver.queries"), None);
}

#[test]
fn folder_names_are_shortened_to_their_common_ancestor() {
    use bench::summary::short_folder_names;
    let v = |xs: &[&str]| xs.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        short_folder_names(&v(&["/w/shared/bench/seeds", "/w/shared/bench/sv/loop-simple"])),
        v(&["bench/seeds", "bench/sv/loop-simple"])
    );
    assert_eq!(short_folder_names(&v(&["/a/b", "/a/b/c"])), v(&["b", "b/c"]));
    assert_eq!(short_folder_names(&v(&["x", "y/z"])), v(&["x", "y/z"]));
    assert_eq!(short_folder_names(&v(&["/only/one"])), v(&["/only/one"]));
    assert_eq!(short_folder_names(&v(&["", "sub"])), v(&[".", "sub"]));
}
