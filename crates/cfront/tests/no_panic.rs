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
    let _ = std::fs::remove_dir_all(&dir);
}

/// The tokens of C source text, which concatenated give the text back: identifier and number
/// runs, string and character literals, runs of blanks, line ends and every other character alone.
fn tokens(text: &str) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let mut t = c.to_string();
        if c.is_alphanumeric() || c == '_' {
            while let Some(&d) = chars.peek().filter(|d| d.is_alphanumeric() || **d == '_') {
                t.push(d);
                chars.next();
            }
        } else if c == '"' || c == '\'' {
            while let Some(d) = chars.next() {
                t.push(d);
                if d == '\\' {
                    t.extend(chars.next());
                } else if d == c || d == '\n' {
                    break;
                }
            }
        } else if c.is_whitespace() && c != '\n' {
            while let Some(&d) = chars.peek().filter(|d| d.is_whitespace() && **d != '\n') {
                t.push(d);
                chars.next();
            }
        }
        out.push(t);
    }
    out
}

/// Mutants of the front end's own test programs (tokens deleted, repeated, replaced by another
/// token of the file or by one of the constructs the front end treats specially) translate or
/// get a diagnostic, under both semantics, and never panic.
#[test]
fn mutated_programs_are_diagnosed() {
    const SPECIAL: [&str; 12] = ["*", "&", "(", "[", "]", "{", "struct", "union", "sizeof", "...", "\"s\"", "__attribute__((packed))"];
    let programs = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let mut files = vec![];
    sources(&programs, &mut files);
    files.sort();
    let dir = std::env::temp_dir().join(format!("tracery-mutants-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // a fixed sequence (xorshift), so that a failure repeats
    let mut state: u64 = 0x853c_49e6_748f_ea9b;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n.max(1) as u64) as usize
    };
    let mut internal = vec![];
    let (mut translated, mut diagnosed) = (0, 0);
    for (k, f) in files.iter().enumerate() {
        let words = tokens(&std::fs::read_to_string(f).expect("readable"));
        for m in 0..8 {
            let mut w = words.clone();
            for _ in 0..1 + next(3) {
                let i = next(w.len());
                match next(4) {
                    0 => drop(w.remove(i)),
                    1 => w.insert(i, words[next(words.len())].clone()),
                    2 => w[i] = words[next(words.len())].clone(),
                    _ => w.insert(i, format!(" {} ", SPECIAL[next(SPECIAL.len())])),
                }
            }
            let mutant = dir.join(format!("m{k}-{m}.c"));
            std::fs::write(&mutant, w.concat()).expect("written");
            let opts = COptions { bitvector: m % 2 == 1, ..COptions::default() };
            match std::panic::catch_unwind(|| translate_file(&mutant, &opts)) {
                Err(_) => internal.push(format!("{} (mutant of {}): panic", mutant.display(), f.display())),
                Ok(Err(e)) if e.message.starts_with("internal error") => internal.push(format!("{e} (mutant of {})", f.display())),
                Ok(Err(_)) => diagnosed += 1,
                Ok(Ok(_)) => translated += 1,
            }
        }
    }
    println!("{translated} mutants translated, {diagnosed} diagnosed");
    if internal.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(internal.is_empty(), "{}", internal.join("\n"));
    assert!(translated > 0 && diagnosed > 0, "{translated} mutants translated, {diagnosed} diagnosed");
}
