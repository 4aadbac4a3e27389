//! Parses every `.bpl` file of the shared benchmark folder (when present) and checks that the
//! front end never panics; prints how many files parse and why the others do not.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Says on the terminal that a test did not run, and why. Written to stderr directly, since the
/// test harness hides what a passing test `eprintln!`s.
fn skipped(why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {why}");
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "bpl") {
            out.push(p);
        }
    }
}

fn bench_root() -> Option<PathBuf> {
    let candidates = [
        std::env::var("TRACERY_BENCH").ok().map(PathBuf::from),
        Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench")),
        Some(PathBuf::from("/work/shared/bench")),
    ];
    candidates.into_iter().flatten().find(|p| p.is_dir())
}

/// The folders whose files are all expected to parse unless they use unsupported features.
const MUST_PARSE: &[&str] = &["ultimate/programs/regression/bpl", "ultimate/programs/toy", "ultimate/programs/loopAcceleration"];

#[test]
fn every_bench_file_parses_without_panic() {
    let Some(root) = bench_root() else {
        skipped("every_bench_file_parses_without_panic: no benchmark folder ($TRACERY_BENCH, ../shared/bench beside the checkout)");
        return;
    };
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    for m in MUST_PARSE {
        assert!(files.iter().any(|f| f.strip_prefix(&root).is_ok_and(|r| r.starts_with(m))), "no .bpl file under {}/{m}", root.display());
    }
    let mut ok = 0usize;
    let mut panics = Vec::new();
    let mut errors: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut bad_in_must = Vec::new();
    let (mut printed, mut reparse_failures) = (0usize, Vec::new());
    for f in &files {
        let Ok(bytes) = std::fs::read(f) else { continue };
        let name = f.strip_prefix(&root).unwrap_or(f).display().to_string();
        let n2 = name.clone();
        let r = std::panic::catch_unwind(move || boogie::parse_program(&n2, &bytes));
        match r {
            Err(_) => panics.push(name),
            Ok(Ok(program)) => {
                ok += 1;
                // the printed program model is Boogie again (unless it names fresh variables)
                let text = ir::print::program_to_boogie(&program);
                if !text.contains('@') && !text.contains("lambda") {
                    printed += 1;
                    if let Err(e) = boogie::parse_program("printed.bpl", text.as_bytes()) {
                        reparse_failures.push(format!("{name}: {e}"));
                    }
                }
            }
            Ok(Err(e)) => {
                let msg = format!("{}: {}", e.kind, e.message);
                if e.kind != boogie::ErrorKind::Unsupported && MUST_PARSE.iter().any(|m| name.starts_with(m)) {
                    bad_in_must.push(e.to_string());
                }
                errors.entry(msg).or_default().push(e.to_string());
            }
        }
    }
    println!("bench: {} of {} .bpl files parse", ok, files.len());
    for (msg, fs) in &errors {
        println!("  {} file(s): {msg}", fs.len());
        for f in fs.iter().take(3) {
            println!("      {f}");
        }
    }
    println!("printer round trip: {printed} printed programs re-parsed");
    assert!(panics.is_empty(), "panics on: {panics:?}");
    assert!(reparse_failures.is_empty(), "printed programs that do not parse: {reparse_failures:#?}");
    assert!(bad_in_must.is_empty(), "unexpected errors: {bad_in_must:#?}");
}
