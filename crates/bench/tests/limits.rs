//! Running tasks under limits with fake verifiers (shell scripts passed like `--verifier PATH`):
//! a CPU-time limit, the wall-clock guard, crashes, a memory limit, malformed tasks, and whole
//! bench runs through the library entry point.

use bench::results::{classify, Status};
use bench::runner::{self, Limits, Termination};
use bench::tasks::{discover, Task, TaskKind};
use bench::{child_args, probe, run_task, select, select_forced, BenchArgs, Capabilities, RunOptions};
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Says on the terminal that a test did not run, and why. Written to stderr directly, since the
/// test harness hides what a passing test `eprintln!`s.
fn skipped(why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {why}");
}

/// The fake verifier: answers by the input file's name, prints a help text without
/// --data-model/--property unless told otherwise, and logs its arguments to `<input>.args`.
const FAKE: &str = r#"#!/bin/sh
if [ "$1" = "--help" ]; then
  echo "Usage: fake [OPTIONS] <FILE>"
  echo "      --timeout <SECS>"
  echo "      --json-stats"
  HELP_EXTRA
  exit 0
fi
echo "$*" > "$1.args"
f=$(basename "$1")
case "$f" in
  true-*) echo TRUE; echo '{"iterations":3}';;
  false-*) echo "FALSE(unreach-call)"; echo "assertion may fail"; echo '{"iterations":1}';;
  unknown-*) echo UNKNOWN; echo "reason: unsupported: goto at 3:4"; echo '{}';;
  limits-*) echo UNKNOWN; echo "reason: limits $(ulimit -t) $(ulimit -v)";;
  loop-*) while :; do :; done;;
  sleep-*) sleep 100;;
  segv-*) kill -SEGV $$;;
  abort-*) kill -ABRT $$;;
  oom-*) echo "memory allocation of 1048576 bytes failed" >&2; kill -ABRT $$;;
  syntax-*) echo "$f:1:1: syntax error" >&2; exit 2;;
  garbage-*) echo "hello";;
  *) echo "unexpected $f" >&2; exit 3;;
esac
"#;

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tracery-bench-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write_script(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn fake(dir: &Path, help_extra: &str) -> PathBuf {
    let p = dir.join("fake-verifier");
    write_script(&p, &FAKE.replace("HELP_EXTRA", help_extra));
    p
}

fn program(dir: &Path, name: &str, first_line: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, format!("{first_line}\nprocedure main() {{ }}\n")).unwrap();
    p
}

fn plain_task(file: &Path) -> Task {
    bench::tasks::program_task(file)
}

fn opts(verifier: &Path, timeout: f64, memory_mb: Option<u64>) -> RunOptions {
    RunOptions { verifier: verifier.to_path_buf(), timeout, memory_mb, jobs: 1, extra: vec![], caps: Capabilities::default() }
}

#[test]
fn answers_are_scored() {
    let dir = scratch("answers");
    let v = fake(&dir, "");
    let o = opts(&v, 10.0, Some(1024));
    let r = run_task(&plain_task(&program(&dir, "true-a.bpl", "//#Safe")), &o);
    assert_eq!((r.status, r.verdict.as_deref()), (Status::Correct, Some("TRUE")));
    assert_eq!(r.stats, Some(serde_json::json!({"iterations": 3})));
    assert!(r.memory_mb > 0.0 && r.wall > 0.0, "{r:?}");
    let r = run_task(&plain_task(&program(&dir, "false-a.bpl", "//#Safe")), &o);
    assert_eq!((r.status, r.score()), (Status::Wrong, -16));
    let r = run_task(&plain_task(&program(&dir, "false-b.bpl", "//#Unsafe")), &o);
    assert_eq!((r.status, r.score()), (Status::Correct, 1));
    let r = run_task(&plain_task(&program(&dir, "unknown-a.bpl", "//#Unsafe")), &o);
    assert_eq!((r.status, r.reason.as_deref()), (Status::Unknown, Some("unsupported: goto at 3:4")));
    let r = run_task(&plain_task(&program(&dir, "true-b.bpl", "// no answer")), &o);
    assert_eq!(r.status, Status::Unscored);
    let r = run_task(&plain_task(&program(&dir, "syntax-a.bpl", "//#Safe")), &o);
    assert_eq!((r.status, r.reason.as_deref()), (Status::Error, Some("input error: syntax-a.bpl:1:1: syntax error")));
    let r = run_task(&plain_task(&program(&dir, "garbage-a.bpl", "//#Safe")), &o);
    assert_eq!((r.status, r.reason.as_deref()), (Status::Error, Some("no verdict (exit 0, first line `hello`)")));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn limits_are_set_in_the_child() {
    let dir = scratch("rlimits");
    let v = fake(&dir, "");
    // CPU: the timeout rounded up plus one second; memory in KiB as `ulimit -v` shows it.
    let r = run_task(&plain_task(&program(&dir, "limits-a.bpl", "//#Safe")), &opts(&v, 1.5, Some(512)));
    assert_eq!(r.reason.as_deref(), Some("limits 3 524288"));
    let r = run_task(&plain_task(&program(&dir, "limits-b.bpl", "//#Safe")), &opts(&v, 7.0, None));
    assert_eq!(r.reason.as_deref(), Some("limits 8 unlimited"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_looping_task_is_killed_by_its_cpu_limit() {
    let dir = scratch("loop");
    let v = fake(&dir, "");
    let task = plain_task(&program(&dir, "loop-a.bpl", "//#Safe"));
    // As `run_task` does, but with a wall-clock guard far away, so that a loaded machine (where
    // two CPU seconds take longer) cannot make the guard the one that stops the loop.
    let o = opts(&v, 1.0, Some(1024));
    let limits = Limits { cpu_secs: 1.0, memory_mb: Some(1024), wall_secs: 300.0 };
    let out = runner::run(&v, &child_args(&task, &o), &limits);
    let r = classify(&task, &out, 1.0, limits.rlimit_cpu_soft());
    assert_eq!(r.status, Status::Timeout, "{r:?}");
    assert_eq!(r.exit.as_deref(), Some("signal 24 (SIGXCPU)"));
    assert_eq!(r.reason.as_deref(), Some("CPU-time limit (killed by SIGXCPU)"));
    // the kernel samples CPU time at ticks; rusage may report a little less than the limit
    assert!(r.cpu >= 1.5 && r.cpu < 4.0, "cpu {}", r.cpu);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_sleeping_task_is_killed_by_the_wall_clock_guard() {
    let dir = scratch("sleep");
    let v = fake(&dir, "");
    let start = Instant::now();
    // The guard fires at 2 × 0.5 + 5 = 6 s; `sleep` is a grandchild that keeps the pipes open
    // unless the whole process group is killed.
    let r = run_task(&plain_task(&program(&dir, "sleep-a.bpl", "//#Safe")), &opts(&v, 0.5, None));
    let took = start.elapsed().as_secs_f64();
    assert_eq!(r.status, Status::Timeout, "{r:?}");
    assert_eq!(r.exit.as_deref(), Some("killed by the wall-clock guard"));
    assert!((5.9..60.0).contains(&took), "took {took}");
    assert!(r.cpu < 1.0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn crashing_tasks_are_errors() {
    let dir = scratch("crash");
    let v = fake(&dir, "");
    let o = opts(&v, 10.0, Some(1024));
    let r = run_task(&plain_task(&program(&dir, "segv-a.bpl", "//#Safe")), &o);
    assert_eq!((r.status, r.reason.as_deref()), (Status::Error, Some("crashed: signal 11 (SIGSEGV)")));
    let r = run_task(&plain_task(&program(&dir, "abort-a.bpl", "//#Safe")), &o);
    assert_eq!((r.status, r.reason.as_deref()), (Status::Error, Some("crashed: signal 6 (SIGABRT)")));
    let r = run_task(&plain_task(&program(&dir, "oom-a.bpl", "//#Safe")), &o);
    assert_eq!((r.status, r.reason.as_deref()), (Status::Memout, Some("memory limit (killed by SIGABRT)")));
    // A verifier that does not exist.
    let r = run_task(&plain_task(&program(&dir, "true-a.bpl", "//#Safe")), &opts(&dir.join("nope"), 10.0, None));
    assert_eq!(r.status, Status::Error);
    assert!(r.reason.unwrap().starts_with("cannot run the verifier: "));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Not a test of its own: the memory hog that `a_task_over_its_memory_limit_is_a_memout` runs
/// (this test binary, under the limit) as its verifier. Its allocation must fail: the allocator
/// then aborts (SIGABRT), which that test expects; getting the memory is a failure.
#[test]
#[ignore = "the verifier a_task_over_its_memory_limit_is_a_memout runs, not a test of its own"]
fn fake_memory_hog() {
    if std::env::var_os("TRACERY_BENCH_FAKE_HOG").is_none() {
        skipped(
            "fake_memory_hog: only a_task_over_its_memory_limit_is_a_memout runs it (with TRACERY_BENCH_FAKE_HOG=1, under a memory limit)",
        );
        return;
    }
    let v: Vec<u8> = vec![1u8; 8 << 30];
    std::hint::black_box(&v);
    panic!("8 GiB allocated: the memory limit was not applied");
}

#[test]
fn a_task_over_its_memory_limit_is_a_memout() {
    let dir = scratch("memout");
    let me = std::env::current_exe().unwrap();
    let v = dir.join("hog");
    write_script(
        &v,
        &format!(
            "#!/bin/sh\n[ \"$1\" = --help ] && exit 0\nTRACERY_BENCH_FAKE_HOG=1 exec '{}' --exact fake_memory_hog --include-ignored --nocapture --test-threads=1\n",
            me.display()
        ),
    );
    let r = run_task(&plain_task(&program(&dir, "hog.bpl", "//#Safe")), &opts(&v, 20.0, Some(400)));
    assert_eq!(r.status, Status::Memout, "{r:?}");
    assert_eq!(r.exit.as_deref(), Some("signal 6 (SIGABRT)"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn malformed_tasks_are_errors_without_a_run() {
    let dir = scratch("malformed");
    let v = fake(&dir, "");
    std::fs::write(dir.join("bad.yml"), "format_version: '2.0'\ninput_files: [unclosed\n").unwrap();
    std::fs::write(
        dir.join("missing.yml"),
        "format_version: '2.0'\ninput_files: gone.c\nproperties:\n  - property_file: unreach-call.prp\n    expected_verdict: true\n",
    )
    .unwrap();
    let tasks = discover(std::slice::from_ref(&dir)).tasks;
    assert_eq!(tasks.len(), 2);
    for t in &tasks {
        let r = run_task(t, &opts(&v, 10.0, None));
        assert_eq!(r.status, Status::Error);
        assert_eq!(r.exit, None, "a malformed task is not run");
        assert_eq!(r.reason, t.error);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn child_arguments_follow_the_verifiers_help() {
    let dir = scratch("args");
    let plain = fake(&dir, "");
    assert_eq!(probe(&plain), Capabilities::default());
    let rich = dir.join("rich");
    write_script(
        &rich,
        &FAKE.replace("HELP_EXTRA", "echo '      --data-model <ILP32|LP64>'; echo '      --property <NAME>'; echo '      --jobs <N>'"),
    );
    assert_eq!(probe(&rich), Capabilities { data_model: true, property: true, jobs: true });
    let other = dir.join("other");
    write_script(&other, &FAKE.replace("HELP_EXTRA", "echo '      --property-file <F>'"));
    assert_eq!(probe(&other), Capabilities::default());
    assert_eq!(probe(&dir.join("nope")), Capabilities::default());

    let yml = Task {
        file: "t.yml".into(),
        input: "t.c".into(),
        kind: TaskKind::Yml,
        property: Some("valid-memsafety".into()),
        expected: None,
        data_model: Some(bench::tasks::DataModel::Lp64),
        error: None,
    };
    let strs = |v: Vec<OsString>| v.into_iter().map(|s| s.into_string().unwrap()).collect::<Vec<_>>().join(" ");
    let mut o = opts(&plain, 5.0, None);
    assert_eq!(strs(child_args(&yml, &o)), "t.c --timeout 5 --json-stats");
    o.caps = Capabilities { data_model: true, property: true, jobs: true };
    assert_eq!(strs(child_args(&yml, &o)), "t.c --timeout 5 --json-stats --jobs 1 --data-model LP64 --property valid-memsafety");
    o.extra = vec!["--refinement".into(), "craig".into(), "--timeout=9".into()];
    o.timeout = 2.5;
    assert_eq!(
        strs(child_args(&yml, &o)),
        "t.c --json-stats --jobs 1 --data-model LP64 --property valid-memsafety --refinement craig --timeout=9"
    );
    o.extra.push("--jobs=2".into());
    assert_eq!(
        strs(child_args(&yml, &o)),
        "t.c --json-stats --data-model LP64 --property valid-memsafety --refinement craig --timeout=9 --jobs=2"
    );
    o.extra.pop();
    let safe = Task { kind: TaskKind::Annotated, property: Some("unreach-call".into()), data_model: None, ..yml.clone() };
    let term = Task { property: Some("termination".into()), ..safe.clone() };
    o.extra.clear();
    assert_eq!(strs(child_args(&safe, &o)), "t.c --timeout 2.5 --json-stats --jobs 1");
    assert_eq!(strs(child_args(&term, &o)), "t.c --timeout 2.5 --json-stats --jobs 1 --property termination");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn selection_by_property() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let tasks = discover(&[dir.join("sv"), dir.join("annotated")]).tasks;
    let props = |ts: &[Task]| ts.iter().map(|t| t.property.clone().unwrap_or("-".into())).collect::<Vec<_>>().join(",");
    let (kept, notes) = select(tasks.clone(), None, Capabilities::default());
    // sv: bad-model, bad, loose, missing-input, no-verdict, reach; annotated: block-nested, block,
    // safe, blank-first-line, no-answer, not-an-annotation, trailing-space, unsafe-space.
    let u = "unreach-call";
    assert_eq!(props(&kept), ["-", "-", u, u, u, u, u, u, u, u, "-", "-", u, u].join(","));
    assert_eq!(
        notes,
        vec!["left out tasks of properties the verifier cannot be asked for (its --help lists no --property): \
              no-overflow (1), termination (3), valid-memsafety (1); use --property NAME to run them anyway"
            .to_string()]
    );
    let (kept, notes) = select(tasks.clone(), None, Capabilities { data_model: true, property: true, jobs: true });
    assert_eq!((kept.len(), notes.len()), (tasks.len(), 0));
    let (kept, notes) = select(tasks.clone(), Some("termination"), Capabilities::default());
    // The two malformed ymls (property unknown) stay visible.
    assert_eq!(props(&kept), "-,-,termination,termination,termination");
    assert_eq!(notes.len(), 1);
    // A property forced on the verifier (after `--`) keeps the tasks it answers.
    let (kept, notes) = select_forced(tasks.clone(), "default,no-overflow");
    assert_eq!(props(&kept), "-,-,no-overflow,-,-");
    assert_eq!(
        notes,
        vec![format!("left out {} tasks of other properties than the forced --property default,no-overflow", tasks.len() - 5)]
    );
}

/// A verifier that lists --property, answers by the file name when told `--property termination`
/// and TRUE otherwise.
const FAKE_TERMINATION: &str = r#"#!/bin/sh
if [ "$1" = "--help" ]; then echo "      --property <LIST>"; exit 0; fi
case " $* " in
  *" --property termination "*) ;;
  *) echo TRUE; exit 0;;
esac
case "$(basename "$1")" in
  *nonterminating*|*_false-termination*) echo "FALSE(termination)";;
  *) echo TRUE;;
esac
"#;

#[test]
fn termination_tasks_are_told_their_property_and_scored() {
    let dir = scratch("termination");
    let v = dir.join("fake-termination");
    write_script(&v, FAKE_TERMINATION);
    let mut o = opts(&v, 10.0, Some(1024));
    o.caps = probe(&v);
    assert!(o.caps.property);
    let tasks = discover(&[Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/termination")]).tasks;
    let got: Vec<(String, Status, Option<String>)> = tasks
        .iter()
        .map(|t| {
            let r = run_task(t, &o);
            (Path::new(&r.file).file_name().unwrap().to_string_lossy().into_owned(), r.status, r.verdict)
        })
        .collect();
    let (c, u) = (Status::Correct, Status::Unscored);
    let (t, f) = (Some("TRUE".to_string()), Some("FALSE(termination)".to_string()));
    let want = vec![
        ("nonterminating-derivable.bpl", c, f.clone()),
        ("nonterminating.bpl", c, f.clone()),
        ("terminating-derivable.bpl", c, t.clone()),
        ("terminating.bpl", c, t.clone()),
        ("unknown.bpl", u, t.clone()),
        ("Agree_false-termination.c", c, f.clone()),
        ("Alloca_true-alloca_false-termination.c.i", c, f.clone()),
        ("Conflict_true-termination.c", Status::Error, None),
        ("Count_true-termination.c", c, t.clone()),
        ("Count_true-termination.c.i", c, t.clone()),
        ("Plain_true-terminations.c", u, t.clone()),
        // An unreach-call task (first line #Safe): not told --property termination.
        ("Safe_false-termination.c", c, t.clone()),
        ("Spin_false-termination.c", c, f.clone()),
        ("Square_unknown-termination.c", u, t.clone()),
    ];
    let want: Vec<(String, Status, Option<String>)> = want.into_iter().map(|(n, s, v)| (n.to_string(), s, v)).collect();
    assert_eq!(got, want);
    let _ = std::fs::remove_dir_all(&dir);
}

fn args(paths: Vec<PathBuf>, verifier: &Path, out: &Path) -> BenchArgs {
    BenchArgs {
        command: None,
        paths,
        jobs: 2,
        timeout: 10.0,
        memory: 1024,
        property: None,
        out: Some(out.to_path_buf()),
        compare: None,
        verifier: Some(verifier.to_path_buf()),
        extra: vec![],
    }
}

#[test]
fn a_whole_bench_run_through_the_library() {
    let dir = scratch("whole");
    let v = fake(&dir, "");
    let tasks = dir.join("tasks");
    std::fs::create_dir_all(tasks.join("sub")).unwrap();
    program(&tasks, "true-1.bpl", "//#Safe");
    program(&tasks, "false-1.bpl", "// #Unsafe");
    program(&tasks.join("sub"), "unknown-1.bpl", "/* #Safe");
    program(&tasks.join("sub"), "segv-1.bpl", "//#Safe");
    std::fs::write(tasks.join("sub/bad.yml"), "format_version: '2.0'\ninput_files: [\n").unwrap();
    let out1 = dir.join("run1");
    let code = bench::run(&args(vec![tasks.clone()], &v, &out1)).unwrap();
    assert_eq!(code, std::process::ExitCode::SUCCESS);
    for f in ["results.json", "results.csv", "quantile.svg"] {
        assert!(out1.join(f).is_file(), "{f} missing");
    }
    let first = bench::results::ResultsFile::load(&out1.join("results.json")).unwrap();
    let statuses: Vec<(String, Status)> =
        first.results.iter().map(|r| (Path::new(&r.file).file_name().unwrap().to_string_lossy().into_owned(), r.status)).collect();
    assert_eq!(
        statuses,
        vec![
            ("false-1.bpl".to_string(), Status::Correct),
            ("bad.yml".to_string(), Status::Error),
            ("segv-1.bpl".to_string(), Status::Error),
            ("unknown-1.bpl".to_string(), Status::Unknown),
            ("true-1.bpl".to_string(), Status::Correct),
        ]
    );
    assert_eq!(first.config.name, "run1");
    assert_eq!(first.config.timeout, 10.0);
    assert_eq!(std::fs::read_to_string(out1.join("results.csv")).unwrap().lines().count(), 6);
    assert_eq!(
        std::fs::read_to_string(tasks.join("true-1.bpl.args")).unwrap().trim_end(),
        format!("{} --timeout 10 --json-stats", tasks.join("true-1.bpl").display())
    );

    // A second run where one answer turned wrong: exit code 1, and the comparison sees it.
    std::fs::rename(tasks.join("true-1.bpl"), tasks.join("false-2.bpl")).unwrap();
    let out2 = dir.join("run2");
    let mut a = args(vec![tasks.clone()], &v, &out2);
    a.compare = Some(out1.join("results.json"));
    let code = bench::run(&a).unwrap();
    assert_eq!(code, std::process::ExitCode::from(1));
    let second = bench::results::ResultsFile::load(&out2.join("results.json")).unwrap();
    let c = bench::compare::compare(&first.results, &second.results);
    assert_eq!(c.became_wrong.len(), 1);
    assert_eq!(c.lost.len(), 0);
    assert_eq!((c.only_new, c.only_old), (1, 1));

    // The plot of both runs.
    let plot_out = dir.join("both.svg");
    let plot = bench::PlotArgs {
        results: vec![out1.join("results.json"), out2.join("results.json")],
        out: plot_out.clone(),
        title: "two runs".into(),
        metric: bench::plot::Metric::Time,
    };
    assert_eq!(bench::run_plot(&plot).unwrap(), std::process::ExitCode::SUCCESS);
    let svg = std::fs::read_to_string(&plot_out).unwrap();
    assert!(svg.contains("run1 (2 correct)") && svg.contains("run2 (1 correct)"), "{svg}");

    // Unusable arguments are errors, not panics.
    assert!(bench::run(&args(vec![dir.join("nope")], &v, &dir.join("run3"))).is_err());
    let mut bad = args(vec![tasks.clone()], &v, &dir.join("run4"));
    bad.compare = Some(dir.join("nope.json"));
    assert!(bench::run(&bad).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn runner_reports_exit_codes_and_output() {
    let limits = Limits::for_timeout(5.0, None);
    let out = runner::run(Path::new("/bin/sh"), &["-c".into(), "echo out; echo err >&2; exit 7".into()], &limits);
    assert_eq!(out.termination, Termination::Exited(7));
    assert_eq!((out.stdout.as_str(), out.stderr.as_str()), ("out\n", "err\n"));
    // Long output keeps its first and last lines.
    let out = runner::run(
        Path::new("/bin/sh"),
        &["-c".into(), "echo FIRST; head -c 5000000 /dev/zero | tr '\\0' x; echo; echo LAST".into()],
        &limits,
    );
    assert!(out.stdout.starts_with("FIRST\n") && out.stdout.ends_with("LAST\n"));
    assert!(out.stdout.len() < 2_200_000 && out.stdout.contains("bytes left out"));
}
