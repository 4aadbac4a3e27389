//! Task discovery and expected-verdict parsing on the fixture files.

use bench::tasks::{
    combine, discover, parse_annotation, parse_file_name, parse_yml, property_name, Annotation, DataModel, Expected, TaskKind,
};
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// (file relative to the fixtures, property, expected, data model, error?) of a task.
type Row = (String, Option<String>, Option<String>, Option<&'static str>, bool);

fn summary(paths: &[PathBuf]) -> Vec<Row> {
    let root = fixtures();
    discover(paths)
        .tasks
        .iter()
        .map(|t| {
            (
                t.file.strip_prefix(&root).unwrap_or(&t.file).display().to_string(),
                t.property.clone(),
                t.expected.as_ref().map(|e| e.to_string()),
                t.data_model.map(DataModel::as_str),
                t.error.is_some(),
            )
        })
        .collect()
}

fn s(x: &str) -> Option<String> {
    Some(x.to_string())
}

#[test]
fn annotations_in_all_spellings() {
    assert_eq!(parse_annotation("//#Safe\nint x;"), Some(Annotation::Safe));
    assert_eq!(parse_annotation("// #Unsafe\n"), Some(Annotation::Unsafe));
    assert_eq!(parse_annotation("/* #Safe\n*/"), Some(Annotation::Safe));
    assert_eq!(parse_annotation("/*#Unsafe*/\n"), Some(Annotation::Unsafe));
    assert_eq!(parse_annotation("/* //#Safe\n"), Some(Annotation::Safe));
    assert_eq!(parse_annotation("//#Safe \r\n"), Some(Annotation::Safe));
    assert_eq!(parse_annotation("\u{feff}//#Terminating\n"), Some(Annotation::Terminating));
    assert_eq!(parse_annotation("//#Nonterminating\n"), Some(Annotation::Nonterminating));
    assert_eq!(parse_annotation("#Safe\n"), Some(Annotation::Safe));
    assert_eq!(parse_annotation("\n\n//#Unsafe\n"), Some(Annotation::Unsafe));
    // Not annotations.
    assert_eq!(parse_annotation("//#Safety first\n"), None);
    assert_eq!(parse_annotation("// Safe\n"), None);
    assert_eq!(parse_annotation("int main() {}\n//#Safe\n"), None);
    assert_eq!(parse_annotation(""), None);
    assert_eq!(parse_annotation("//#safe\n"), None);
}

#[test]
fn annotations_stand_for_property_and_answer() {
    assert_eq!(Annotation::Safe.property_and_expected(), ("unreach-call", Some(Expected::holds())));
    assert_eq!(Annotation::Unsafe.property_and_expected(), ("unreach-call", Some(Expected::violated())));
    assert_eq!(Annotation::Terminating.property_and_expected(), ("termination", Some(Expected::holds())));
    assert_eq!(Annotation::Nonterminating.property_and_expected(), ("termination", Some(Expected::violated())));
    assert_eq!(Annotation::TerminationUnknown.property_and_expected(), ("termination", None));
}

#[test]
fn ultimate_lasso_annotations() {
    assert_eq!(
        parse_annotation(
            "//#rTermination
"
        ),
        Some(Annotation::Terminating)
    );
    assert_eq!(
        parse_annotation(
            "//#rTerminationDerivable
"
        ),
        Some(Annotation::Terminating)
    );
    assert_eq!(
        parse_annotation(
            "//#rTerminationDeriveable
"
        ),
        Some(Annotation::Terminating)
    );
    assert_eq!(
        parse_annotation(
            "//#rNonTermination
"
        ),
        Some(Annotation::Nonterminating)
    );
    assert_eq!(parse_annotation("// #rNonTerminationDerivable \r\n"), Some(Annotation::Nonterminating));
    assert_eq!(
        parse_annotation(
            "//#rTerminationUnknown
"
        ),
        Some(Annotation::TerminationUnknown)
    );
    // Not annotations.
    assert_eq!(
        parse_annotation(
            "//#rterminationDerivable
"
        ),
        None
    );
    assert_eq!(
        parse_annotation(
            "//#rTerminationMaybe
"
        ),
        None
    );
    assert_eq!(
        parse_annotation(
            "//#Termination
"
        ),
        None
    );
}

#[test]
fn termination_verdicts_in_file_names() {
    let name = |n: &str| parse_file_name(n).unwrap();
    assert_eq!(name("Foo_true-termination.c"), Some(Annotation::Terminating));
    assert_eq!(name("Foo_true-termination.c.i"), Some(Annotation::Terminating));
    assert_eq!(name("Ex2.3-alloca_false-termination.c"), Some(Annotation::Nonterminating));
    assert_eq!(name("Foo_true-alloca_true-termination.c.i"), Some(Annotation::Terminating));
    assert_eq!(name("Foo_false-termination_true-valid-memsafety.i"), Some(Annotation::Nonterminating));
    assert_eq!(name("Foo-alloca_unknown-termination.c"), Some(Annotation::TerminationUnknown));
    assert_eq!(name("Foo_true-termination"), Some(Annotation::Terminating));
    // No termination marker.
    assert_eq!(name("Foo_true-unreach-call.c"), None);
    assert_eq!(name("Foo_true-terminations.c"), None);
    assert_eq!(name("Foo-true-termination.c"), None);
    assert_eq!(name("foo.c"), None);
    assert_eq!(
        parse_file_name("Foo_true-termination_false-termination.c").unwrap_err(),
        "contradicting verdicts: the file name says both `_true-termination` and `_false-termination`"
    );
}

#[test]
fn first_line_wins_over_file_name_unless_they_contradict() {
    use Annotation::*;
    assert_eq!(combine(None, Some(Terminating)), Ok(Some(Terminating)));
    assert_eq!(combine(Some(Nonterminating), None), Ok(Some(Nonterminating)));
    assert_eq!(combine(None, None), Ok(None));
    assert_eq!(combine(Some(Nonterminating), Some(Nonterminating)), Ok(Some(Nonterminating)));
    // Another property on the first line, or no verdict on one side: the first line.
    assert_eq!(combine(Some(Safe), Some(Nonterminating)), Ok(Some(Safe)));
    assert_eq!(combine(Some(Terminating), Some(TerminationUnknown)), Ok(Some(Terminating)));
    assert_eq!(combine(Some(TerminationUnknown), Some(Terminating)), Ok(Some(TerminationUnknown)));
    assert_eq!(
        combine(Some(Nonterminating), Some(Terminating)),
        Err("contradicting verdicts: the first line says the program does not terminate, the file name says it terminates".into())
    );
    assert_eq!(
        combine(Some(Terminating), Some(Nonterminating)),
        Err("contradicting verdicts: the first line says the program terminates, the file name says it does not terminate".into())
    );
}

#[test]
fn termination_folders() {
    let got = summary(&[fixtures().join("termination")]);
    let t = s("termination");
    let want = vec![
        ("termination/lassos/nonterminating-derivable.bpl".into(), t.clone(), s("false"), None, false),
        ("termination/lassos/nonterminating.bpl".into(), t.clone(), s("false"), None, false),
        ("termination/lassos/terminating-derivable.bpl".into(), t.clone(), s("true"), None, false),
        ("termination/lassos/terminating.bpl".into(), t.clone(), s("true"), None, false),
        ("termination/lassos/unknown.bpl".into(), t.clone(), None, None, false),
        // ALL.prp is no task file.
        ("termination/svcomp15/Agree_false-termination.c".into(), t.clone(), s("false"), None, false),
        ("termination/svcomp15/Alloca_true-alloca_false-termination.c.i".into(), t.clone(), s("false"), None, false),
        ("termination/svcomp15/Conflict_true-termination.c".into(), t.clone(), None, None, true),
        // X.c and X.c.i are two tasks.
        ("termination/svcomp15/Count_true-termination.c".into(), t.clone(), s("true"), None, false),
        ("termination/svcomp15/Count_true-termination.c.i".into(), t.clone(), s("true"), None, false),
        ("termination/svcomp15/Plain_true-terminations.c".into(), None, None, None, false),
        // The first line wins over the file name.
        ("termination/svcomp15/Safe_false-termination.c".into(), s("unreach-call"), s("true"), None, false),
        ("termination/svcomp15/Spin_false-termination.c".into(), t.clone(), s("false"), None, false),
        ("termination/svcomp15/Square_unknown-termination.c".into(), t.clone(), None, None, false),
    ];
    assert_eq!(got, want);
    let d = discover(&[fixtures().join("termination/svcomp15/Conflict_true-termination.c")]);
    assert_eq!(
        d.tasks[0].error.as_deref(),
        Some("contradicting verdicts: the first line says the program does not terminate, the file name says it terminates")
    );
    assert!(d.tasks.iter().all(|t| t.kind == TaskKind::Annotated));
}

/// Counts of (terminating, nonterminating, no verdict, other) tasks under the paths.
fn termination_counts(paths: &[PathBuf]) -> (usize, usize, usize, usize) {
    let d = discover(paths);
    assert!(d.problems.is_empty(), "{:?}", d.problems);
    let mut c = (0, 0, 0, 0);
    for t in &d.tasks {
        match (t.property.as_deref(), t.expected.as_ref().map(|e| e.holds), &t.error) {
            (Some("termination"), Some(true), None) => c.0 += 1,
            (Some("termination"), Some(false), None) => c.1 += 1,
            (Some("termination"), None, None) => c.2 += 1,
            _ => c.3 += 1,
        }
    }
    c
}

#[test]
fn shared_termination_corpora() {
    let bench = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench");
    if !bench.is_dir() {
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "SKIPPED: shared_termination_corpora: {} is not there", bench.display());
        return;
    }
    let svcomp15 = bench.join("ultimate/termination/svcomp15");
    let counts = |folder: &str| termination_counts(&[svcomp15.join(folder)]);
    assert_eq!(counts("termination-crafted-lit"), (135, 23, 0, 0));
    assert_eq!(counts("termination-crafted"), (26, 18, 1, 0));
    assert_eq!(counts("termination-memory-alloca"), (240, 6, 10, 0));
    assert_eq!(counts("termination-numeric"), (68, 0, 0, 0));
    assert_eq!(counts(""), (469, 47, 11, 0));
    // lassos/*.bpl, then the folder with its subfolders (arrays, regression, ...).
    let lassos = bench.join("ultimate/lassos");
    let mut top: Vec<PathBuf> = std::fs::read_dir(&lassos).unwrap().map(|e| e.unwrap().path()).collect();
    top.retain(|p| p.extension().is_some_and(|e| e == "bpl"));
    assert_eq!(termination_counts(&top), (80, 56, 1, 0));
    assert_eq!(termination_counts(&[lassos]), (154, 82, 1, 0));
}

#[test]
fn expected_text_is_benchexec_spelling() {
    assert_eq!(Expected::holds().to_string(), "true");
    assert_eq!(Expected::violated().to_string(), "false");
    assert_eq!(Expected { holds: false, subproperty: Some("valid-free".into()) }.to_string(), "false(valid-free)");
}

#[test]
fn property_names_from_property_files() {
    assert_eq!(property_name("../properties/unreach-call.prp"), "unreach-call");
    assert_eq!(property_name("valid-memsafety.prp"), "valid-memsafety");
    assert_eq!(property_name("..\\properties\\termination.prp"), "termination");
}

#[test]
fn annotated_folder() {
    let got = summary(&[fixtures().join("annotated")]);
    let want = vec![
        ("annotated/block-nested.c".into(), s("unreach-call"), s("true"), None, false),
        ("annotated/block.c".into(), s("unreach-call"), s("true"), None, false),
        ("annotated/safe.bpl".into(), s("unreach-call"), s("true"), None, false),
        ("annotated/sub/blank-first-line.bpl".into(), s("unreach-call"), s("false"), None, false),
        ("annotated/sub/no-answer.bpl".into(), None, None, None, false),
        ("annotated/sub/nonterminating.bpl".into(), s("termination"), s("false"), None, false),
        ("annotated/sub/not-an-annotation.c".into(), None, None, None, false),
        ("annotated/sub/terminating.c".into(), s("termination"), s("true"), None, false),
        ("annotated/trailing-space.i".into(), s("unreach-call"), s("true"), None, false),
        ("annotated/unsafe-space.c".into(), s("unreach-call"), s("false"), None, false),
    ];
    assert_eq!(got, want);
}

#[test]
fn folders_of_other_properties() {
    let got = summary(&[fixtures().join("folders")]);
    let want = vec![
        ("folders/SignedIntegerOverflow/inc.c".into(), s("no-overflow"), s("false"), None, false),
        ("folders/memsafety/leak.c".into(), s("valid-memsafety"), s("false"), Some("ILP32"), false),
        ("folders/races/none.c".into(), s("no-data-race"), s("true"), None, false),
    ];
    assert_eq!(got, want);
}

#[test]
fn sv_folder_tasks_come_from_the_ymls() {
    let got = summary(&[fixtures().join("sv")]);
    let want = vec![
        ("sv/bad-model.yml".into(), None, None, None, true),
        ("sv/bad.yml".into(), None, None, None, true),
        // ci-config.yml is valid YAML but no task definition: not a task.
        // loose.c is no yml's input file: a task of its own.
        ("sv/loose.c".into(), s("unreach-call"), s("true"), None, false),
        // mem.c is mem.yml's input: a task through the yml only.
        ("sv/mem.yml".into(), s("valid-memsafety"), s("false(valid-deref)"), Some("LP64"), false),
        ("sv/mem.yml".into(), s("no-overflow"), s("true"), Some("LP64"), false),
        ("sv/missing-input.yml".into(), s("unreach-call"), s("true"), Some("ILP32"), true),
        ("sv/no-verdict.yml".into(), s("unreach-call"), None, None, false),
        // reach.c (annotated #Unsafe) is reach.yml's input; coverage-branches is left out.
        ("sv/reach.yml".into(), s("termination"), s("true"), Some("ILP32"), false),
        ("sv/reach.yml".into(), s("unreach-call"), s("false"), Some("ILP32"), false),
    ];
    assert_eq!(got, want);
}

#[test]
fn malformed_tasks_carry_their_reason() {
    let d = discover(&[fixtures().join("sv")]);
    let reason = |name: &str| d.tasks.iter().find(|t| t.file.ends_with(name)).and_then(|t| t.error.clone()).unwrap_or_default();
    assert!(reason("bad.yml").starts_with("invalid task definition: "), "{}", reason("bad.yml"));
    assert_eq!(reason("bad-model.yml"), "invalid data_model `ILP16` (expected ILP32 or LP64)");
    let missing = reason("missing-input.yml");
    assert!(missing.starts_with("input file ") && missing.ends_with("does-not-exist.c does not exist"), "{missing}");
}

#[test]
fn a_program_named_directly_is_a_task_even_if_a_yml_names_it() {
    let sv = fixtures().join("sv");
    let got = summary(&[sv.join("reach.yml"), sv.join("reach.c")]);
    assert_eq!(
        got,
        vec![
            ("sv/reach.yml".into(), s("termination"), s("true"), Some("ILP32"), false),
            ("sv/reach.yml".into(), s("unreach-call"), s("false"), Some("ILP32"), false),
            ("sv/reach.c".into(), s("unreach-call"), s("false"), None, false),
        ]
    );
    let d = discover(&[sv.join("reach.yml")]);
    assert!(d.tasks.iter().all(|t| t.kind == TaskKind::Yml && t.input == sv.join("reach.c")));
}

#[test]
fn paths_given_twice_give_each_task_once() {
    let a = fixtures().join("annotated");
    let once = summary(std::slice::from_ref(&a));
    let twice = summary(&[a.clone(), a.join("sub"), a.join("safe.bpl")]);
    assert_eq!(once, twice);
}

#[test]
fn missing_paths_and_other_files_are_problems_not_panics() {
    let d = discover(&[fixtures().join("nope"), fixtures().join("annotated/notes.txt")]);
    assert!(d.tasks.is_empty());
    assert_eq!(d.problems.len(), 2);
    assert!(d.problems[0].ends_with("no such file or folder"));
    assert!(d.problems[1].ends_with("not a task file (.yml, .yaml, .c, .i, .bpl)"));
}

#[test]
fn yml_text_variants() {
    let dir = Path::new("/x");
    // A list of one input file; a string expected_verdict; no options.
    let def = parse_yml(
        "format_version: '2.0'\ninput_files: ['a.i']\nproperties:\n  - property_file: p/unreach-call.prp\n    expected_verdict: 'false'\n",
        dir,
    )
    .unwrap()
    .unwrap();
    assert_eq!(def.input, Path::new("/x/a.i"));
    assert_eq!(def.data_model, None);
    assert_eq!(def.properties.len(), 1);
    assert_eq!(def.properties[0].expected, Some(Expected::violated()));
    // Several input files, a verdict that is no boolean, no property at all, not a mapping.
    assert_eq!(
        parse_yml("input_files: [a.c, b.c]\nproperties: []\n", dir).unwrap_err().to_string(),
        "task definition has 2 input files; only one is supported"
    );
    assert!(parse_yml("input_files: a.c\nproperties:\n  - property_file: unreach-call.prp\n    expected_verdict: maybe\n", dir)
        .unwrap_err()
        .to_string()
        .starts_with("property 0: expected_verdict is not true or false"));
    assert_eq!(
        parse_yml("input_files: a.c\nproperties:\n  - property_file: coverage-branches.prp\n", dir).unwrap_err().to_string(),
        "task definition lists no verification property"
    );
    assert_eq!(parse_yml("- just\n- a list\n", dir).unwrap(), None);
    assert!(parse_yml("input_files: a.c\nproperties: 3\n", dir).is_err());
}
