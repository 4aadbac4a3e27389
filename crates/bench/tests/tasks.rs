//! Task discovery and expected-verdict parsing on the fixture files.

use bench::tasks::{discover, parse_annotation, parse_yml, property_name, Annotation, DataModel, Expected, TaskKind};
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
    assert_eq!(Annotation::Safe.property_and_expected(), ("unreach-call", Expected::holds()));
    assert_eq!(Annotation::Unsafe.property_and_expected(), ("unreach-call", Expected::violated()));
    assert_eq!(Annotation::Terminating.property_and_expected(), ("termination", Expected::holds()));
    assert_eq!(Annotation::Nonterminating.property_and_expected(), ("termination", Expected::violated()));
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
