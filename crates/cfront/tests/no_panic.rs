//! Every `.c`/`.i` file of the shared benchmark either translates or gets a diagnostic: the
//! front end never panics (a panic would surface as an "internal error" diagnostic).

use cfront::{translate_file, COptions};
use std::path::{Path, PathBuf};

/// Says on the terminal that a test did not run, and why. Written to stderr directly, since the
/// test harness hides what a passing test `eprintln!`s.
fn skipped(why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {why}");
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "c" || x == "i") {
            out.push(p);
        }
    }
}

#[test]
fn no_panic_on_any_benchmark_file() {
    let bench = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench");
    if !bench.is_dir() {
        skipped(&format!("no_panic_on_any_benchmark_file: the shared benchmarks ({}) are not there", bench.display()));
        return;
    }
    let mut files = vec![];
    sources(&bench, &mut files);
    files.sort();
    assert!(!files.is_empty(), "no .c or .i file under {}", bench.display());
    let mut internal = vec![];
    // both semantics: integers and bit-vectors
    for bitvector in [false, true] {
        let opts = COptions { bitvector, ..COptions::default() };
        for f in &files {
            let r = std::panic::catch_unwind(|| translate_file(f, &opts));
            match r {
                Err(_) => internal.push(format!("{} (bitvector: {bitvector}): panic", f.display())),
                Ok(Err(e)) if e.message.starts_with("internal error") => internal.push(e.to_string()),
                Ok(_) => {}
            }
        }
    }
    assert!(internal.is_empty(), "{}", internal.join("\n"));
}

/// Hostile input gets a diagnostic with its position or its meaning: bytes that are not ASCII in
/// an ACSL annotation (or not UTF-8 at all), comments in a preprocessed `.i` file, and 10,000
/// nested parentheses (which would take the parser minutes and gigabytes).
#[test]
fn hostile_input_is_diagnosed() {
    let dir = std::env::temp_dir().join(format!("tracery-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let deep = format!("int main(void) {{\n  int x = 1;\n  return {}x{};\n}}\n", "-(".repeat(10_000), ")".repeat(10_000));
    let cases: [(&str, &[u8], Option<&str>); 4] = [
        ("acsl-utf8.c", "int main(void) {\n//@ assert \u{e9} == 1;\n  return 0;\n}\n".as_bytes(), Some("2:1")),
        ("acsl-bytes.c", b"int main(void) {\n//@ assert \xfe\\false;\n  return 0;\n}\n", Some("2:1")),
        ("comments.i", b"// a comment\nint main(void) { /* another */ return 0; }\n", None),
        ("deep.c", deep.as_bytes(), Some(":3:4011")),
    ];
    for (name, text, error_at) in cases {
        let f = dir.join(name);
        std::fs::write(&f, text).expect("written");
        match (translate_file(&f, &COptions::default()), error_at) {
            (Err(e), Some(at)) => assert!(e.kind == cfront::ErrorKind::Unsupported && e.to_string().contains(at), "{name}: {e}"),
            (Ok(_), None) => {}
            (r, _) => panic!("{name}: {:?}", r.err()),
        }
    }
}
