//! C semantics against gcc: programs that csmith writes (free of undefined behaviour by
//! construction, without inputs) are compiled and run by gcc, and the checksum they print is
//! asserted at their end. Tracery must prove the program with gcc's checksum (TRUE) and find
//! the violation of the checksum plus one (FALSE): a disagreement is a bug of the front end or
//! of an engine. Skipped, with a `SKIPPED:` line, where csmith or gcc is missing (`.ci/run`
//! installs csmith).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many seeds the test tries, from 1 on, and how many of their programs must end under
/// gcc within its time (csmith writes some that loop for minutes).
const SEEDS: usize = 60;
const PROGRAMS: usize = 50;

/// The size of the programs: a few functions, shallow blocks, small arrays and structs (gcc
/// runs them in milliseconds; their paths are some ten thousand statements long).
const CSMITH_OPTIONS: &[&str] = &[
    "--no-argc",
    "--max-funcs",
    "3",
    "--max-block-depth",
    "3",
    "--max-expr-complexity",
    "5",
    "--max-array-dim",
    "2",
    "--max-array-len-per-dim",
    "4",
    "--max-struct-fields",
    "4",
    "--max-union-fields",
    "3",
    "--concise",
];

/// Where csmith's runtime headers are (Debian's `libcsmith-dev`).
const RUNTIME: &str = "/usr/include/csmith";

/// The end of a csmith program's `main`, which prints the checksum.
const CHECKSUM_LINE: &str = "platform_main_end(crc32_context ^ 0xFFFFFFFFUL, print_hash_value);";

fn tool(name: &str) -> bool {
    Command::new(name).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok()
}

fn work_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("csmith");
    std::fs::create_dir_all(&dir).expect("a folder for the programs");
    dir
}

/// The program of `seed`, and the checksum gcc's build of it prints (`None`: gcc's build did
/// not end within its time).
fn generate(seed: usize, dir: &Path) -> Option<(String, String)> {
    let out = Command::new("csmith").args(["--seed", &seed.to_string()]).args(CSMITH_OPTIONS).output().expect("csmith runs");
    assert!(out.status.success(), "csmith --seed {seed}: {}", String::from_utf8_lossy(&out.stderr));
    let program = String::from_utf8(out.stdout).expect("csmith writes text");
    let source = dir.join(format!("raw{seed}.c"));
    let binary = dir.join(format!("raw{seed}"));
    std::fs::write(&source, &program).expect("the program is written");
    let gcc = Command::new("gcc").args(["-w", "-O0", "-I", RUNTIME]).arg(&source).arg("-o").arg(&binary).output().expect("gcc runs");
    assert!(gcc.status.success(), "gcc on seed {seed}: {}", String::from_utf8_lossy(&gcc.stderr));
    let run = Command::new("timeout").arg("5").arg(&binary).output().expect("the program runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let checksum = stdout.lines().find_map(|l| l.strip_prefix("checksum = "))?.trim().to_string();
    Some((program, checksum))
}

/// The verification task of `program` asserting `checksum` at its end, preprocessed.
fn task(program: &str, checksum: &str, dir: &Path, name: &str) -> PathBuf {
    assert!(program.contains(CHECKSUM_LINE), "csmith's main ends otherwise now");
    let check = format!("if ((crc32_context ^ 0xFFFFFFFFUL) != {checksum}) reach_error();");
    let text = format!("extern void reach_error(void);\n{}", program.replace(CHECKSUM_LINE, &check));
    let c = dir.join(format!("{name}.c"));
    let i = dir.join(format!("{name}.i"));
    std::fs::write(&c, text).expect("the task is written");
    let cpp = Command::new("gcc").args(["-w", "-E", "-P", "-I", RUNTIME]).arg(&c).arg("-o").arg(&i).output().expect("gcc -E runs");
    assert!(cpp.status.success(), "gcc -E on {name}: {}", String::from_utf8_lossy(&cpp.stderr));
    i
}

#[test]
fn programs_without_inputs_compute_what_gcc_computes() {
    if !tool("csmith") || !tool("gcc") || !Path::new(RUNTIME).is_dir() {
        common::skipped("csmith (Debian's csmith and libcsmith-dev) or gcc is missing");
        return;
    }
    let dir = work_dir();
    let next = AtomicUsize::new(1);
    let (tried, ran) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let failures: Vec<String> = std::thread::scope(|scope| {
        let lanes: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    let mut failures = vec![];
                    loop {
                        let seed = next.fetch_add(1, Ordering::Relaxed);
                        if seed > SEEDS {
                            return failures;
                        }
                        tried.fetch_add(1, Ordering::Relaxed);
                        let Some((program, checksum)) = generate(seed, &dir) else { continue };
                        ran.fetch_add(1, Ordering::Relaxed);
                        let expected =
                            [("", format!("0x{checksum}"), "TRUE"), ("-bug", format!("0x{checksum} + 1"), "FALSE(unreach-call)")];
                        for (suffix, asserted, verdict) in expected {
                            let file = task(&program, &asserted, &dir, &format!("s{seed}{suffix}"));
                            let got =
                                common::verdict(&file, &["--engine", "exec", "--semantics", "bitvector", "--timeout", "10", "--jobs", "1"]);
                            if got != verdict {
                                failures.push(format!("seed {seed}{suffix}: {got}, expected {verdict} ({})", file.display()));
                            }
                        }
                    }
                })
            })
            .collect();
        lanes.into_iter().flat_map(|l| l.join().expect("a lane of seeds")).collect()
    });
    let (tried, ran) = (tried.into_inner(), ran.into_inner());
    assert!(failures.is_empty(), "{} of {ran} programs disagree with gcc:\n{}", failures.len(), failures.join("\n"));
    assert!(ran >= PROGRAMS, "only {ran} of {tried} seeds gave programs that end under gcc");
}
