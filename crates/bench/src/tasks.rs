//! Task discovery: which verification tasks a list of paths holds, and what answer each expects.
//!
//! Two kinds of task:
//! - an SV-COMP task definition (`.yml`, format 2.0): one task per verification property it lists
//!   (`coverage-*` properties are test-generation tasks and are left out), with the property's
//!   `expected_verdict`, its `subproperty` (memory safety) and `options.data_model`;
//! - a program (`.c`, `.i` (also `.c.i`), `.bpl`) whose answer is announced
//!   - by its first non-blank line, after `//`, `/*` (or both) with or without a space: `#Safe`,
//!     `#Unsafe` (property `unreach-call`), `#Terminating`, `#Nonterminating` (property
//!     `termination`), or Ultimate's lasso spellings `#rTermination`, `#rTerminationDerivable`
//!     (terminates), `#rNonTermination`, `#rNonTerminationDerivable` (does not) and
//!     `#rTerminationUnknown` (property `termination`, no expected answer);
//!   - or, without such a line, by a termination marker in its file name (SV-COMP 2015 naming,
//!     `Foo_true-alloca_true-termination.c.i`): `_true-termination` terminates,
//!     `_false-termination` does not, `_unknown-termination` is property `termination` with no
//!     expected answer. Other properties in the name are ignored.
//!
//!   In Ultimate's folders of other properties, `#Safe`/`#Unsafe` are about that property:
//!   `races` (`no-data-race`), `SignedIntegerOverflow` (`no-overflow`), `memsafety`
//!   (`valid-memsafety`).
//!
//!   Annotated programs assume LP64, except in Ultimate's `memsafety` folder, whose labels are
//!   those of its 32-bit settings (ILP32): `negative-size.c` is unsafe and `negative-size-fixed.c`
//!   safe only where `size_t` has 32 bits (`sizeof(int) * size` wraps to 0).
//!
//!   When both are there the first line wins; a first line and a file name that announce opposite
//!   termination verdicts make the task malformed. A program with neither is a task with no
//!   property and no expected answer.
//!
//! A program that some `.yml` found under the same paths names as its input file is a task through
//! that `.yml` only. A malformed task (unreadable or invalid `.yml`, missing input file,
//! contradicting verdicts) is still a task: it carries the reason and is recorded as `error`
//! without being run.

use serde::Deserialize;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// Folders of annotated programs whose `#Safe`/`#Unsafe` are about another property than
/// `unreach-call`.
const FOLDER_PROPERTIES: [(&str, &str); 3] =
    [("races", "no-data-race"), ("SignedIntegerOverflow", "no-overflow"), ("memsafety", "valid-memsafety")];

/// Folders of annotated programs labelled for the 32-bit data model (see the module's text).
const ILP32_FOLDERS: [&str; 1] = ["memsafety"];

/// The C data model a task assumes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataModel {
    Ilp32,
    Lp64,
}

impl DataModel {
    /// The name SV-COMP and the verifier's `--data-model` option use.
    pub fn as_str(self) -> &'static str {
        match self {
            DataModel::Ilp32 => "ILP32",
            DataModel::Lp64 => "LP64",
        }
    }
}

/// The answer a task expects.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Expected {
    /// `true`: the property holds (the verifier should say TRUE).
    pub holds: bool,
    /// For a violated memory-safety property: which part is violated (`valid-deref`, ...).
    pub subproperty: Option<String>,
}

impl Expected {
    pub fn holds() -> Expected {
        Expected { holds: true, subproperty: None }
    }
    pub fn violated() -> Expected {
        Expected { holds: false, subproperty: None }
    }
}

impl fmt::Display for Expected {
    /// `true`, `false` or `false(<subproperty>)` (BenchExec's spelling).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.holds, &self.subproperty) {
            (true, _) => write!(f, "true"),
            (false, None) => write!(f, "false"),
            (false, Some(s)) => write!(f, "false({s})"),
        }
    }
}

/// Where a task came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskKind {
    /// An SV-COMP `.yml` task definition.
    Yml,
    /// A program with (or without) a first-line annotation.
    Annotated,
}

/// One verification task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// The task file as found: the `.yml`, or the program itself.
    pub file: PathBuf,
    /// The program to verify (for a `.yml`: its input file, resolved beside it).
    pub input: PathBuf,
    pub kind: TaskKind,
    /// The property's name (`unreach-call`, `termination`, `valid-memsafety`, `no-overflow`, ...).
    /// Annotated programs: `unreach-call` for `#Safe`/`#Unsafe`, `termination` for the termination
    /// annotations and file-name markers, none without either.
    pub property: Option<String>,
    pub expected: Option<Expected>,
    pub data_model: Option<DataModel>,
    /// Why the task cannot be run (malformed task definition, missing input file, contradicting
    /// verdicts).
    pub error: Option<String>,
}

impl Task {
    /// The folder the summary groups this task under.
    pub fn folder(&self) -> PathBuf {
        self.file.parent().map(Path::to_path_buf).unwrap_or_default()
    }
}

/// The answer an annotation line (or a file name) announces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Annotation {
    Safe,
    Unsafe,
    Terminating,
    Nonterminating,
    /// A termination task without a known answer (`#rTerminationUnknown`, `_unknown-termination`).
    TerminationUnknown,
}

impl Annotation {
    /// The property and expected answer the annotation stands for.
    pub fn property_and_expected(self) -> (&'static str, Option<Expected>) {
        match self {
            Annotation::Safe => ("unreach-call", Some(Expected::holds())),
            Annotation::Unsafe => ("unreach-call", Some(Expected::violated())),
            Annotation::Terminating => ("termination", Some(Expected::holds())),
            Annotation::Nonterminating => ("termination", Some(Expected::violated())),
            Annotation::TerminationUnknown => ("termination", None),
        }
    }

    /// What the annotation says, for messages.
    fn says(self) -> &'static str {
        match self {
            Annotation::Safe => "is safe",
            Annotation::Unsafe => "is unsafe",
            Annotation::Terminating => "terminates",
            Annotation::Nonterminating => "does not terminate",
            Annotation::TerminationUnknown => "has an unknown termination verdict",
        }
    }
}

/// The annotation of a program's first non-blank line: `//#Safe`, `// #Unsafe`, `/* #Safe`,
/// `/* //#Safe`, `#Terminating`, `//#rNonTerminationDerivable`, ... (a byte-order mark and
/// trailing text are allowed).
pub fn parse_annotation(text: &str) -> Option<Annotation> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let line = text.lines().find(|l| !l.trim().is_empty())?;
    let mut rest = line.trim_start();
    loop {
        let before = rest;
        rest = rest.trim_start();
        rest = rest.strip_prefix("//").or_else(|| rest.strip_prefix("/*")).unwrap_or(rest);
        if rest == before {
            break;
        }
    }
    let word = rest.strip_prefix('#')?;
    let end = word.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(word.len());
    match &word[..end] {
        "Safe" => Some(Annotation::Safe),
        "Unsafe" => Some(Annotation::Unsafe),
        "Terminating" => Some(Annotation::Terminating),
        "Nonterminating" => Some(Annotation::Nonterminating),
        // Ultimate's lasso programs; `Deriveable` is a misspelling found in its corpus.
        "rTermination" | "rTerminationDerivable" | "rTerminationDeriveable" => Some(Annotation::Terminating),
        "rNonTermination" | "rNonTerminationDerivable" => Some(Annotation::Nonterminating),
        "rTerminationUnknown" => Some(Annotation::TerminationUnknown),
        _ => None,
    }
}

/// The termination verdict a file name announces (SV-COMP 2015 naming): `_true-termination`,
/// `_false-termination` or `_unknown-termination`, followed by `_`, `.` or the end of the name
/// (`Foo_true-alloca_true-termination.c.i`). Markers of other properties are ignored; a name
/// with two different termination markers is an error.
pub fn parse_file_name(name: &str) -> Result<Option<Annotation>, String> {
    const MARKERS: [(&str, Annotation); 3] = [
        ("_true-termination", Annotation::Terminating),
        ("_false-termination", Annotation::Nonterminating),
        ("_unknown-termination", Annotation::TerminationUnknown),
    ];
    let mut found: Option<(&str, Annotation)> = None;
    for (marker, a) in MARKERS {
        let whole = name.match_indices(marker).any(|(i, _)| matches!(name[i + marker.len()..].chars().next(), None | Some('_' | '.')));
        if whole {
            if let Some((other, _)) = found {
                return Err(format!("contradicting verdicts: the file name says both `{other}` and `{marker}`"));
            }
            found = Some((marker, a));
        }
    }
    Ok(found.map(|(_, a)| a))
}

/// What a program announces, from its first-line annotation and its file name's marker: the first
/// line wins, but opposite termination verdicts are an error.
pub fn combine(line: Option<Annotation>, name: Option<Annotation>) -> Result<Option<Annotation>, String> {
    match (line, name) {
        (Some(l), Some(n)) => {
            let (lp, le) = l.property_and_expected();
            let (np, ne) = n.property_and_expected();
            match (le, ne) {
                (Some(le), Some(ne)) if lp == np && le != ne => {
                    Err(format!("contradicting verdicts: the first line says the program {}, the file name says it {}", l.says(), n.says()))
                }
                _ => Ok(Some(l)),
            }
        }
        (l, n) => Ok(l.or(n)),
    }
}

/// Why a `.yml` is not a usable task definition.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TaskError {
    #[error("cannot read {path}: {msg}")]
    Read { path: String, msg: String },
    #[error("invalid task definition: {0}")]
    Yaml(String),
    #[error("task definition has no input_files")]
    NoInput,
    #[error("task definition has {0} input files; only one is supported")]
    SeveralInputs(usize),
    #[error("input file {0} does not exist")]
    MissingInput(String),
    #[error("invalid data_model `{0}` (expected ILP32 or LP64)")]
    DataModel(String),
    #[error("property {index}: {msg}")]
    Property { index: usize, msg: String },
    #[error("task definition lists no verification property")]
    NoProperty,
}

#[derive(Deserialize)]
struct YmlTask {
    format_version: Option<serde_yaml::Value>,
    input_files: Option<serde_yaml::Value>,
    #[serde(default)]
    properties: Option<Vec<YmlProperty>>,
    #[serde(default)]
    options: Option<YmlOptions>,
}

#[derive(Deserialize)]
struct YmlProperty {
    property_file: Option<String>,
    expected_verdict: Option<serde_yaml::Value>,
    subproperty: Option<String>,
}

#[derive(Deserialize)]
struct YmlOptions {
    data_model: Option<String>,
}

/// One verification property of a parsed `.yml`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YmlEntry {
    pub property: String,
    pub expected: Option<Expected>,
}

/// A parsed `.yml` task definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YmlDefinition {
    /// The input file, resolved against the `.yml`'s folder.
    pub input: PathBuf,
    pub data_model: Option<DataModel>,
    /// The verification properties (`coverage-*` left out), in file order.
    pub properties: Vec<YmlEntry>,
}

/// The property name of a property file path: `../properties/unreach-call.prp` → `unreach-call`.
pub fn property_name(property_file: &str) -> String {
    let base = property_file.rsplit(['/', '\\']).next().unwrap_or(property_file);
    base.strip_suffix(".prp").unwrap_or(base).to_string()
}

fn yaml_bool(v: &serde_yaml::Value) -> Option<bool> {
    match v {
        serde_yaml::Value::Bool(b) => Some(*b),
        serde_yaml::Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// Parses a `.yml` text. `Ok(None)`: the YAML is valid but is no task definition (it has none of
/// `format_version`, `input_files`, `properties`), e.g. a CI configuration in the folder.
pub fn parse_yml(text: &str, dir: &Path) -> Result<Option<YmlDefinition>, TaskError> {
    let value: serde_yaml::Value = serde_yaml::from_str(text).map_err(|e| TaskError::Yaml(e.to_string()))?;
    let is_task = value.as_mapping().is_some_and(|m| ["format_version", "input_files", "properties"].iter().any(|k| m.contains_key(*k)));
    if !is_task {
        return Ok(None);
    }
    let def: YmlTask = serde_yaml::from_value(value).map_err(|e| TaskError::Yaml(e.to_string()))?;
    let _ = def.format_version;
    let inputs: Vec<String> = match def.input_files {
        None | Some(serde_yaml::Value::Null) => return Err(TaskError::NoInput),
        Some(serde_yaml::Value::String(s)) => vec![s],
        Some(serde_yaml::Value::Sequence(items)) => items
            .iter()
            .map(|i| i.as_str().map(str::to_string).ok_or_else(|| TaskError::Yaml("input_files: not a string".into())))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(TaskError::Yaml("input_files: expected a file name or a list".into())),
    };
    let input = match inputs.as_slice() {
        [] => return Err(TaskError::NoInput),
        [one] => dir.join(one),
        more => return Err(TaskError::SeveralInputs(more.len())),
    };
    let data_model = match def.options.and_then(|o| o.data_model) {
        None => None,
        Some(m) => match m.trim() {
            "ILP32" => Some(DataModel::Ilp32),
            "LP64" => Some(DataModel::Lp64),
            other => return Err(TaskError::DataModel(other.to_string())),
        },
    };
    let mut properties = Vec::new();
    for (index, p) in def.properties.unwrap_or_default().into_iter().enumerate() {
        let Some(file) = p.property_file else {
            return Err(TaskError::Property { index, msg: "no property_file".into() });
        };
        let property = property_name(&file);
        if property.starts_with("coverage-") {
            continue;
        }
        let expected = match &p.expected_verdict {
            None | Some(serde_yaml::Value::Null) => None,
            Some(v) => {
                let holds = yaml_bool(v)
                    .ok_or_else(|| TaskError::Property { index, msg: format!("expected_verdict is not true or false: {v:?}") })?;
                let subproperty = if holds { None } else { p.subproperty.clone() };
                Some(Expected { holds, subproperty })
            }
        };
        properties.push(YmlEntry { property, expected });
    }
    if properties.is_empty() {
        return Err(TaskError::NoProperty);
    }
    Ok(Some(YmlDefinition { input, data_model, properties }))
}

/// The tasks of one `.yml` file (`Ok(None)` if it is no task definition).
pub fn yml_tasks(file: &Path) -> Option<Vec<Task>> {
    let error_task = |msg: String| {
        vec![Task {
            file: file.to_path_buf(),
            input: file.to_path_buf(),
            kind: TaskKind::Yml,
            property: None,
            expected: None,
            data_model: None,
            error: Some(msg),
        }]
    };
    let text = match std::fs::read(file) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => return Some(error_task(TaskError::Read { path: file.display().to_string(), msg: e.to_string() }.to_string())),
    };
    let dir = file.parent().unwrap_or(Path::new(""));
    let def = match parse_yml(&text, dir) {
        Ok(None) => return None,
        Ok(Some(d)) => d,
        Err(e) => return Some(error_task(e.to_string())),
    };
    let missing = (!def.input.is_file()).then(|| TaskError::MissingInput(def.input.display().to_string()).to_string());
    Some(
        def.properties
            .into_iter()
            .map(|p| Task {
                file: file.to_path_buf(),
                input: def.input.clone(),
                kind: TaskKind::Yml,
                property: Some(p.property),
                expected: p.expected,
                data_model: def.data_model,
                error: missing.clone(),
            })
            .collect(),
    )
}

/// The task of one program file (`.c`, `.i`, `.bpl`), from its annotation or file name.
pub fn program_task(file: &Path) -> Task {
    let mut task = Task {
        file: file.to_path_buf(),
        input: file.to_path_buf(),
        kind: TaskKind::Annotated,
        property: None,
        expected: None,
        data_model: None,
        error: None,
    };
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) => {
            task.error = Some(format!("cannot read {}: {e}", file.display()));
            return task;
        }
    };
    // The annotation is on the first lines; 4 KiB is plenty.
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]).into_owned();
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    match parse_file_name(&name).and_then(|n| combine(parse_annotation(&head), n)) {
        Ok(Some(a)) => {
            let (p, e) = a.property_and_expected();
            let folder_property = FOLDER_PROPERTIES.iter().find(|(f, _)| file.components().any(|c| c.as_os_str() == *f));
            task.property = Some(
                match folder_property {
                    Some((_, q)) if p == "unreach-call" => q,
                    _ => p,
                }
                .to_string(),
            );
            task.expected = e;
            if ILP32_FOLDERS.iter().any(|f| file.components().any(|c| c.as_os_str() == *f)) && !is_boogie(file) {
                task.data_model = Some(DataModel::Ilp32);
            }
        }
        Ok(None) => {}
        Err(msg) => {
            // Only termination verdicts can contradict: keep the task among the termination tasks.
            task.property = Some("termination".to_string());
            task.error = Some(msg);
        }
    }
    task
}

fn is_boogie(p: &Path) -> bool {
    p.extension().and_then(|e| e.to_str()) == Some("bpl")
}

fn is_yml(p: &Path) -> bool {
    matches!(p.extension().and_then(|e| e.to_str()), Some("yml" | "yaml"))
}

fn is_program(p: &Path) -> bool {
    matches!(p.extension().and_then(|e| e.to_str()), Some("c" | "i" | "bpl"))
}

/// Every `.yml` and program file under `dir`, recursively, in sorted order. Hidden entries
/// (names starting with `.`) are skipped; symbolic links to folders are followed once.
fn walk(dir: &Path, seen: &mut HashSet<PathBuf>, ymls: &mut Vec<PathBuf>, programs: &mut Vec<PathBuf>, errors: &mut Vec<String>) {
    if let Ok(canon) = dir.canonicalize() {
        if !seen.insert(canon) {
            return;
        }
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            errors.push(format!("cannot read folder {}: {e}", dir.display()));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with('.')) {
            continue;
        }
        if p.is_dir() {
            walk(&p, seen, ymls, programs, errors);
        } else if is_yml(&p) {
            ymls.push(p);
        } else if is_program(&p) {
            programs.push(p);
        }
    }
}

/// What discovery found: the tasks, and paths that could not be used at all.
#[derive(Debug, Default)]
pub struct Discovery {
    pub tasks: Vec<Task>,
    /// Paths given on the command line that do not exist or are no task file, unreadable folders.
    pub problems: Vec<String>,
}

/// Discovers the tasks under the given paths (files or folders searched recursively).
///
/// A program given directly as a path is always a task of its own. A program found in a folder is
/// one only if no `.yml` found under the paths names it as input. Duplicates (the same task file
/// reached twice) are dropped; the order is the order of the paths, each folder sorted.
pub fn discover(paths: &[PathBuf]) -> Discovery {
    let mut found = Discovery::default();
    let mut seen_dirs = HashSet::new();
    // Every candidate file in order: (path, given directly on the command line).
    let mut order: Vec<(PathBuf, bool)> = Vec::new();
    for path in paths {
        if path.is_dir() {
            let (mut ymls, mut programs) = (Vec::new(), Vec::new());
            walk(path, &mut seen_dirs, &mut ymls, &mut programs, &mut found.problems);
            let mut all: Vec<PathBuf> = ymls.into_iter().chain(programs).collect();
            all.sort();
            order.extend(all.into_iter().map(|p| (p, false)));
        } else if path.is_file() {
            if is_yml(path) || is_program(path) {
                order.push((path.clone(), true));
            } else {
                found.problems.push(format!("{}: not a task file (.yml, .yaml, .c, .i, .bpl)", path.display()));
            }
        } else {
            found.problems.push(format!("{}: no such file or folder", path.display()));
        }
    }
    let canon = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    // The ymls first, to know which programs are their input files.
    let mut yml_tasks_of: HashMap<PathBuf, Vec<Task>> = HashMap::new();
    let mut inputs: HashSet<PathBuf> = HashSet::new();
    for (path, _) in order.iter().filter(|(p, _)| is_yml(p)) {
        if let Some(tasks) = yml_tasks(path) {
            for t in tasks.iter().filter(|t| t.input != t.file) {
                inputs.insert(canon(&t.input));
            }
            yml_tasks_of.insert(path.clone(), tasks);
        }
    }
    let mut seen_tasks: HashSet<(PathBuf, Option<String>)> = HashSet::new();
    for (path, direct) in order {
        let tasks = if is_yml(&path) {
            match yml_tasks_of.remove(&path) {
                Some(ts) => ts,
                None => continue,
            }
        } else if !direct && inputs.contains(&canon(&path)) {
            continue;
        } else {
            vec![program_task(&path)]
        };
        for t in tasks {
            if seen_tasks.insert((canon(&t.file), t.property.clone())) {
                found.tasks.push(t);
            }
        }
    }
    found
}
