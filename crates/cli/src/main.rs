//! The `tracery` command: verify a program and print the verdict.

mod last_word;

use anyhow::{Context, Result};
use clap::Parser;
use engines::{Config, Outcome, Property, PropertyError, Question, Retry, Source, Stats, Strategy, Verdict};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Tracery: a software model checker for C and Boogie programs by trace abstraction.
///
/// Prints `TRUE`, `FALSE(<property>)` or `UNKNOWN` on the first line of stdout, then the
/// evidence: the error path with values for FALSE, the reason for UNKNOWN.
#[derive(Parser, Debug)]
#[command(name = "tracery", version, about, long_about = None)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    /// The program to verify: C (`.c`, preprocessed with `cpp`; `.i`, already preprocessed) or Boogie (`.bpl`).
    #[arg(required = true)]
    file: Option<PathBuf>,

    /// Properties to check in a C program, comma-separated: unreach-call, no-overflow, div-by-zero,
    /// valid-deref, valid-free, valid-memtrack, valid-memsafety (the three before), valid-memcleanup,
    /// no-data-race (programs that start threads), default (unreach-call, div-by-zero,
    /// valid-deref, valid-free), or SV-COMP `.prp` files; or
    /// termination alone (every execution ends; C and Boogie).
    #[arg(long, value_name = "LIST", default_value = "default")]
    property: String,

    /// Sizes of C's integer types: ILP32 (int, long, pointers 32 bits) or LP64 (long and pointers 64 bits).
    #[arg(long, value_name = "MODEL", default_value = "LP64", value_parser = parse_data_model)]
    data_model: cfront::DataModel,

    /// C integers as `integer` (mathematical integers: unsigned arithmetic and conversions
    /// wrap exactly, bitwise operators are exact where cheap and otherwise over-approximated,
    /// floats are opaque), `bitvector` (bit-vectors of each type's width: every integer
    /// operator exact; float and double as IEEE floating point), or `auto`: integers, then
    /// bit-vectors with the time left when the integer run ends UNKNOWN at an error path that
    /// only over-approximations bit-vectors remove make feasible.
    #[arg(long, value_name = "SEMANTICS", default_value = "auto")]
    semantics: Semantics,

    /// The function of a C program where execution starts [default: main; a program without
    /// `main` is checked from every function that no other function calls]
    #[arg(long, value_name = "NAME")]
    entry: Option<String>,

    /// Give up after this many seconds (wall clock) and answer UNKNOWN.
    #[arg(long, value_name = "SECS", default_value_t = 900.0)]
    timeout: f64,

    /// The engines to run, in order, each with its share of the time left:
    /// `NAME[@KIND][:PERCENT%[:MAXs]]`, comma-separated; the first TRUE or FALSE decides.
    /// Engines: `cells` (the array cell abstraction proved by Horn solving, then Houdini over
    /// range templates; only proves), `horn` (Horn clauses of the program solved by Z3's
    /// Spacer, in-process; only proves), `automizer` (trace abstraction on flat or nested
    /// words), `art` (predicate abstraction over an abstract reachability tree with lazy
    /// refinement and conditional interpolation), `bmc` (bounded model checking of the
    /// program automaton; only refutes; no recursion), `exec` (symbolic execution: a
    /// depth-first search of paths with constant folding; proves only programs whose
    /// paths all end or come back to states they passed), `exec-finite` (`exec` that gives
    /// up when the bound cuts a path on which one statement, in one procedure frame,
    /// branched on inputs 32 times), `buchi` (termination: lassos, ranking functions,
    /// nontermination arguments). An engine without a share gets all the time left; one with
    /// a kind (`flat`, `polynomial`: call-free with a loop that only a non-linear closed form
    /// accelerates, `recursive`, `threads`) runs only on programs of that kind. Default:
    /// `exec-finite:5%:0.5s,bmc@polynomial:5%:1s,cells:33.3%,horn:12.5%:10s,exec@threads:25%,art@threads:50%,automizer:80%,bmc:50%,exec`,
    /// and `buchi` for `--property termination`; engines that decide the other question are
    /// skipped.
    #[arg(long, value_name = "STRATEGY")]
    engine: Option<Strategy>,

    /// How many engines of the strategy run at once (default: the number of cores). Above 1,
    /// the strategy's main engine (the last that answers both TRUE and FALSE) runs on a thread
    /// of its own with all the time, the others on the remaining threads; the first TRUE or
    /// FALSE wins and stops the rest.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,

    /// Source of assertion sequences for infeasible traces: portfolio, it-sp-lv, craig, craig-smtlib,
    /// sp, it-sp, sp-lv, wp, it-wp, wp-lv, it-wp-lv, intervals.
    #[arg(long, value_name = "NAME", default_value = "portfolio")]
    refinement: Source,

    /// The solver of trace checks, Hoare-triple queries, Houdini and the checks of proofs:
    /// `z3` (in-process) or `smtlib:COMMAND ARGS`, a process speaking SMT-LIB2 on
    /// stdin/stdout, e.g. `smtlib:cvc5 --incremental --lang smt2`, `smtlib:z3 -in`,
    /// `smtlib:yices-smt2 --incremental`. Horn solving (the engine `horn`, and `cells` before
    /// Houdini), simplification and quantifier elimination are in-process Z3 whatever is chosen.
    #[arg(long, value_name = "SOLVER", default_value = "z3")]
    solver: smt::SolverSpec,

    /// The SMT-LIB2 command `--refinement craig-smtlib` asks for interpolants (cvc5 1.0's
    /// `get-interpolant`).
    #[arg(long, value_name = "COMMAND", default_value = smt::backend::DEFAULT_INTERPOLATOR)]
    interpolator: String,

    /// Print statistics (iterations, trace checks, Hoare-triple checks, time per phase).
    #[arg(long)]
    stats: bool,

    /// Print statistics as one JSON object on the last line (implies --stats).
    #[arg(long)]
    json_stats: bool,

    /// Print the whole result (verdict, counterexample or invariants, statistics) as one JSON object.
    #[arg(long)]
    json: bool,

    /// For FALSE on a C program: write a C test harness that replays the counterexample
    /// (`gcc FILE program.c && ./a.out` exits with status 1).
    #[arg(long, value_name = "FILE")]
    harness: Option<PathBuf>,

    /// For a C program: write an SV-COMP witness (violation witness for FALSE, correctness witness for TRUE).
    #[arg(long, value_name = "FILE")]
    witness: Option<PathBuf>,

    /// Format of --witness: yaml (SV-COMP witness format 2.0) or graphml (format 1.0).
    #[arg(long, value_name = "FORMAT", default_value = "yaml", value_parser = ["yaml", "graphml"])]
    witness_format: String,

    /// Print the program model (control-flow graphs) in Boogie syntax and exit.
    #[arg(long)]
    dump_ir: bool,

    /// Keep one statement per edge instead of composing large blocks.
    #[arg(long)]
    no_large_blocks: bool,

    /// The ranking template families termination tries, comma-separated (they are tried in the
    /// order affine, nested with 2-4 components, multiphase with 2-4 phases, lexicographic
    /// with 2-3 components).
    #[arg(long, value_name = "FAMILIES", value_delimiter = ',', default_value = "affine,nested,multiphase,lexicographic")]
    ranking_templates: Vec<engines::RankingFamily>,

    /// Instances of each procedure started as a thread (`pthread_create`, Boogie `fork`): a run
    /// that has more threads of one procedure at once is never TRUE; it is repeated with one
    /// more, then two, four, ... more instances.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    thread_instances: u16,

    /// Partial-order reduction of the interleavings of threads: `sleep` (sleep sets: of the
    /// interleavings that differ only in the order of independent statements, one),
    /// `persistent` (persistent sets: where one thread's statements are independent of all that
    /// the others may still do, only that thread moves), `both` (persistent, then sleep sets;
    /// the default: it decides the most of the concurrent corpus), or `none`.
    #[arg(long, value_name = "REDUCTION", default_value = "both")]
    por: engines::Por,

    /// When two statements of different threads are independent, for the sleep sets:
    /// `syntactic` (neither writes what the other reads or writes) or `semantic` (also when
    /// both orders have the same effect, by a solver query per pair: `x := x + 1` and
    /// `x := x - 1`).
    #[arg(long, value_name = "KIND", default_value = "semantic")]
    commutativity: ir::por::Commutativity,

    /// The engine `art`: conditional interpolation (at a node with several successors, a
    /// guard that the node's path contradicts is pruned at once by a Craig interpolant that
    /// strengthens the path's regions).
    #[arg(long, value_name = "ON|OFF", default_value = "on")]
    conditional_interpolation: Switch,

    /// The engine `art`: before conditional interpolation, keep only the formulas of the path
    /// that the guard's variables depend on.
    #[arg(long, value_name = "ON|OFF", default_value = "on")]
    path_simplification: Switch,

    /// The engine `art`: the order nodes of the tree are expanded in, `bfs` (oldest first) or
    /// `dfs` (newest first).
    #[arg(long, value_name = "ORDER", default_value = "bfs", value_parser = ["bfs", "dfs"])]
    art_order: String,

    /// The engine `art`: predicates per location (`location`) or one set for all (`global`).
    #[arg(long, value_name = "SCOPE", default_value = "location", value_parser = ["location", "global"])]
    art_precision: String,

    /// The engine `art`: `cartesian` (a region is the conjunction of the predicates the
    /// abstract post implies) or `boolean` (the disjunction of the predicates' valuations the
    /// post allows, by enumerating models: more precise, more solver calls).
    #[arg(long, value_name = "ABSTRACTION", default_value = "cartesian", value_parser = ["cartesian", "boolean"])]
    art_abstraction: String,

    /// Do not slice: keep the statements that no condition of the program depends on, and the
    /// parts of the program from which neither an error location nor its end can be reached.
    #[arg(long)]
    no_slicing: bool,

    /// Do not add accelerated loops (k iterations at once of a loop whose body adds constants
    /// to integer variables under a linear guard).
    #[arg(long)]
    no_acceleration: bool,

    /// Do not first try the array cell abstraction (arrays seen through one cell at an
    /// arbitrary index, which can prove loops over arrays with quantifier-free invariants):
    /// the engine `cells` is removed from the strategy.
    #[arg(long)]
    no_cell_abstraction: bool,

    /// Do not first try to prove a call-free program by Horn solving (Z3's Spacer, with an
    /// eighth of the time, at most 10 s) before trace abstraction: the engine `horn` is
    /// removed from the strategy.
    #[arg(long)]
    no_horn: bool,

    /// Inline every call and replace recursive calls by their contracts (instead of nested words).
    #[arg(long)]
    inline: bool,
}

/// A setting that is on or off.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Switch {
    On,
    Off,
}

/// How the C front end represents integers.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Semantics {
    Integer,
    Bitvector,
    Auto,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Run Tracery over benchmark tasks with limits and score its answers (SV-COMP scoring).
    Bench(bench::BenchArgs),
}

fn main() -> ExitCode {
    last_word::catch_solver_crashes();
    tracing_subscriber::fmt().with_env_filter(tracing_subscriber::EnvFilter::from_env("TRACERY_LOG")).with_writer(std::io::stderr).init();
    let cli = Cli::parse();
    if let Some(Command::Bench(args)) = &cli.command {
        return bench::run(args).unwrap_or_else(|e| {
            eprintln!("tracery: error: {e:#}");
            ExitCode::from(2)
        });
    }
    match run(&cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tracery: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: &Cli) -> Result<ExitCode> {
    let start = Instant::now();
    let Some(file) = &cli.file else { anyhow::bail!("no program given") };
    let timeout = Duration::from_secs_f64(cli.timeout.max(0.0));
    // The limit bounds every phase, the front end's included.
    last_word::arm_deadline(start + timeout + last_word::GRACE);
    let question = match Question::parse(&cli.property) {
        Ok(q) => q,
        Err(PropertyError::Unsupported(reason)) => return Ok(unknown_at_once(reason)),
        Err(e) => anyhow::bail!("{e}"),
    };
    let (program, mut back) = match load(cli, &question, file, cli.semantics == Semantics::Bitvector)? {
        Loaded::Program(p, b) => (p, b),
        Loaded::Unsupported(reason) => return Ok(unknown_at_once(reason)),
        Loaded::Rejected(diagnostic) => {
            eprintln!("{diagnostic}");
            return Ok(ExitCode::from(2));
        }
    };
    if cli.dump_ir {
        out(&ir::print::program_to_boogie(&program));
        return Ok(ExitCode::SUCCESS);
    }
    let interpolator = smt::backend::split_command(&cli.interpolator);
    probe_solvers(cli, &interpolator)?;
    let query_timeout = timeout.min(Duration::from_secs(20));
    let config = Config {
        source: cli.refinement,
        deadline: Some(start + timeout),
        large_blocks: !cli.no_large_blocks,
        slice: !cli.no_slicing,
        accelerate: !cli.no_acceleration,
        strategy: strategy(cli, &question),
        inline: cli.inline,
        query_timeout,
        exact_recheck_timeout: if cli.semantics == Semantics::Auto { EXACT_RECHECK_BEFORE_BITVECTORS } else { query_timeout },
        solver: cli.solver.clone(),
        interpolator,
        cancel: Default::default(),
        jobs: cli.jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), |j| j as usize),
        question,
        ranking_families: cli.ranking_templates.clone(),
        thread_instances: cli.thread_instances as usize,
        por: cli.por,
        commutativity: cli.commutativity,
        art: engines::ArtOptions {
            conditional: cli.conditional_interpolation == Switch::On,
            simplify: cli.path_simplification == Switch::On,
            depth_first: cli.art_order == "dfs",
            global_precision: cli.art_precision == "global",
            boolean: cli.art_abstraction == "boolean",
        },
    };
    // a C program without `main`: which functions were the entries
    let entries_note = (is_c(file) && cli.entry.is_none() && program.entries != ["main"])
        .then(|| format!("entries: {} (no `main`: each function that no other function calls)", program.entries.join(", ")));
    let mut outcome = verify_on_worker(program, &config)?;
    let mut switched = None;
    if let Verdict::Unknown(u) = &outcome.verdict {
        let auto = cli.semantics == Semantics::Auto && is_c(file);
        if auto && u.retry == Some(Retry::BitPrecise) && Instant::now() < start + timeout {
            tracing::info!("integer semantics: {}; verifying again with bit-vectors", u.reason);
            if let Loaded::Program(p, b) = load(cli, &config.question, file, true)? {
                switched = Some(u.reason.clone());
                back = b;
                outcome = verify_on_worker(p, &config)?;
            }
        }
    }
    if last_word::claim() {
        write_evidence(cli, &config.question, file, &outcome, back.as_deref())?;
        // which semantics decided, when `auto` changed it
        let switch_note = switched.map(|r| format!("semantics: bitvector (with integers: {r})"));
        if cli.json {
            let mut v = report::render_json(&outcome, back.as_deref());
            if let Some(note) = switch_note {
                v["semantics_note"] = note.into();
            }
            if let Some(note) = entries_note {
                v["entries_note"] = note.into();
            }
            out(&format!("{v}\n"));
            return Ok(ExitCode::SUCCESS);
        }
        out(&report::render(&outcome, cli.stats || cli.json_stats, back.as_deref()));
        for note in [switch_note, entries_note].into_iter().flatten() {
            out(&format!("{note}\n"));
        }
        if cli.json_stats {
            out(&format!("{}\n", report::stats_json(&outcome.stats)));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The `--engine` strategy (or the default for the question asked) without the engines that
/// `--no-cell-abstraction` and `--no-horn` switch off.
fn strategy(cli: &Cli, question: &Question) -> Strategy {
    let default = || Strategy::for_question(question);
    let mut s = cli.engine.clone().unwrap_or_else(default);
    if cli.no_cell_abstraction {
        s = s.without("cells");
    }
    if cli.no_horn {
        s = s.without("horn");
    }
    s
}

/// Runs the engines on a thread of their own: Z3 and the term algorithms recurse over
/// formulas and need a deep stack.
fn verify_on_worker(program: ir::Program, config: &Config) -> Result<Outcome> {
    let config = config.clone();
    let worker = std::thread::Builder::new().stack_size(ENGINE_STACK).spawn(move || engines::verify(&program, &config));
    match worker.map(|w| w.join()) {
        Ok(Ok(outcome)) => Ok(outcome),
        Ok(Err(_)) => anyhow::bail!("the verification engine crashed"),
        Err(e) => anyhow::bail!("cannot start the verification engine: {e}"),
    }
}

fn is_c(file: &Path) -> bool {
    matches!(file.extension().and_then(|e| e.to_str()), Some("c" | "i"))
}

/// Writes the harness and the witness the options ask for (C programs only, with their map
/// back to C).
fn write_evidence(cli: &Cli, question: &Question, file: &Path, outcome: &Outcome, back: Option<&cfront::BackTranslation>) -> Result<()> {
    if cli.harness.is_none() && cli.witness.is_none() {
        return Ok(());
    }
    anyhow::ensure!(is_c(file), "--harness and --witness need a C program");
    let no_map = cfront::BackTranslation::default();
    let back = back.unwrap_or(&no_map);
    let violated = match &outcome.verdict {
        Verdict::Unsafe(c) => Property::of(c.violation.kind).into_iter().collect(),
        _ => question.properties(),
    };
    let specification = violated.iter().map(|p| p.ltl()).collect::<Vec<_>>().join(" && ");
    let data_model = match cli.data_model {
        cfront::DataModel::ILP32 => "ILP32",
        cfront::DataModel::LP64 => "LP64",
    };
    let graphml = cli.witness_format == "graphml";
    if back.starts_threads() {
        // A harness cannot choose the interleaving; invariants of thread instances have no C
        // names; witness format 2.0 has no threads. A GraphML violation witness names each
        // step's thread.
        let violation = matches!(&outcome.verdict, Verdict::Unsafe(c) if c.loop_start.is_none());
        if !(violation && graphml && cli.harness.is_none()) {
            eprintln!(
                "tracery: no harness or witness written: for programs that start threads, only violation witnesses in GraphML (--witness-format graphml) are implemented"
            );
            return Ok(());
        }
    }
    let task = witness::Task { file: file.to_path_buf(), specification, data_model: data_model.into() };
    match &outcome.verdict {
        Verdict::Unsafe(c) => {
            if let (Some(h), false) = (&cli.harness, c.source_steps) {
                // Without source steps the inputs are not known: a harness would not replay.
                eprintln!("tracery: no harness written to {}: the error path could not be resolved into source steps", h.display());
            } else if let Some(h) = &cli.harness {
                let text = witness::harness::harness(c, back, &file.display().to_string());
                std::fs::write(h, text).with_context(|| format!("cannot write {}", h.display()))?;
            }
            match &cli.witness {
                // a lasso is a cycle in the witness automaton, which format 2.0 cannot state
                Some(w) if c.loop_start.is_some() && !graphml => eprintln!(
                    "tracery: no witness written to {}: nontermination witnesses are GraphML (--witness-format graphml)",
                    w.display()
                ),
                Some(w) => {
                    let text = if graphml {
                        witness::graphml::violation_witness(&task, c, back)
                    } else {
                        witness::yaml::violation_witness(&task, c, back)
                    };
                    std::fs::write(w, text).with_context(|| format!("cannot write {}", w.display()))?;
                }
                None => {}
            }
        }
        Verdict::Safe => {
            if let (Some(w), Some(p)) = (&cli.witness, &outcome.proof) {
                let text = if graphml {
                    witness::graphml::correctness_witness(&task, &p.invariants, back)
                } else {
                    witness::yaml::correctness_witness(&task, &p.invariants, back)
                };
                std::fs::write(w, text).with_context(|| format!("cannot write {}", w.display()))?;
            }
        }
        Verdict::Unknown(_) => {}
    }
    Ok(())
}

/// Starts the external solvers the run will use once, so that one that cannot run is an
/// error (exit code 2) rather than an UNKNOWN.
fn probe_solvers(cli: &Cli, interpolator: &[String]) -> Result<()> {
    use smt::{SatResult, SmtLibSolver, Solver};
    let answers = |s: &mut SmtLibSolver| -> Result<()> {
        s.set_timeout_ms(10_000);
        match s.check() {
            SatResult::Sat => Ok(()),
            other => anyhow::bail!("`{}` does not answer `(check-sat)` with sat: {other:?}", s.command()),
        }
    };
    if let smt::SolverSpec::SmtLib(argv) = &cli.solver {
        answers(&mut SmtLibSolver::new(argv).context("cannot use --solver")?)?;
    }
    if cli.refinement == Source::CraigSmtLib {
        answers(&mut SmtLibSolver::interpolating(interpolator).context("cannot use --interpolator for craig-smtlib")?)?;
    }
    Ok(())
}

/// What the front end made of the input file.
enum Loaded {
    /// The program model, and for C its map back to C.
    Program(ir::Program, Option<Box<cfront::BackTranslation>>),
    /// A construct Tracery does not support: the answer is UNKNOWN with this reason.
    Unsupported(String),
    /// A syntax or type error: the diagnostic (`file:line:col: ...`), exit code 2.
    Rejected(String),
}

/// Translates the input file with the front end its extension names (C integers as bit-vectors
/// when `bitvector`).
fn load(cli: &Cli, question: &Question, file: &Path, bitvector: bool) -> Result<Loaded> {
    let name = file.display().to_string();
    let properties = question.properties();
    match file.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "bpl" => {
            // a Boogie program's assertions are its `unreach-call` (also under `default`)
            let fits =
                *question == Question::Termination || properties == [Property::UnreachCall].into() || properties == Property::defaults();
            if !fits {
                let extra: Vec<&str> = properties.iter().filter(|&&p| p != Property::UnreachCall).map(|p| p.name()).collect();
                return Ok(Loaded::Unsupported(format!(
                    "a Boogie program is checked for its assertions and contracts (unreach-call) or for termination, not for {}",
                    extra.join(", ")
                )));
            }
            let bytes = std::fs::read(file).with_context(|| format!("cannot read {name}"))?;
            Ok(match boogie::parse_program(&name, &bytes) {
                Ok(p) => Loaded::Program(p, None),
                Err(e) if e.kind == boogie::ErrorKind::Unsupported => Loaded::Unsupported(unsupported(&e.message, &e.pos)),
                Err(e) => Loaded::Rejected(e.to_string()),
            })
        }
        "c" | "i" => {
            anyhow::ensure!(file.is_file(), "cannot read {name}: no such file");
            let entry = cli.entry.clone().unwrap_or_else(|| "main".into());
            let opts = cfront::COptions { data_model: cli.data_model, properties, entry, entry_by_default: cli.entry.is_none(), bitvector };
            Ok(match cfront::translate_file(file, &opts) {
                Ok(t) => {
                    // once, on the first translation (`auto` may translate again with bit-vectors)
                    if bitvector == (cli.semantics == Semantics::Bitvector) {
                        t.warnings.iter().for_each(|w| eprintln!("tracery: warning: {w}"));
                    }
                    Loaded::Program(t.program, Some(Box::new(t.back)))
                }
                Err(e) if e.kind == cfront::ErrorKind::Unsupported => Loaded::Unsupported(unsupported(&e.message, &e.pos)),
                Err(e) => Loaded::Rejected(e.to_string()),
            })
        }
        _ => Ok(Loaded::Unsupported(format!("unsupported input `{name}`: Tracery reads C (.c, .i) and Boogie (.bpl) programs"))),
    }
}

/// The answer UNKNOWN for a question or an input Tracery does not check, before any engine runs.
fn unknown_at_once(reason: String) -> ExitCode {
    let outcome = Outcome { verdict: Verdict::unknown(reason), stats: Stats::default(), proof: None };
    out(&report::render(&outcome, false, None));
    ExitCode::SUCCESS
}

/// The reason of an UNKNOWN for a construct the front end does not support.
fn unsupported(construct: &str, pos: &ir::SourcePos) -> String {
    format!("unsupported: {construct} at {pos}")
}

fn parse_data_model(s: &str) -> Result<cfront::DataModel, String> {
    match s.to_ascii_uppercase().as_str() {
        "ILP32" => Ok(cfront::DataModel::ILP32),
        "LP64" => Ok(cfront::DataModel::LP64),
        _ => Err(format!("unknown data model `{s}` (ILP32 or LP64)")),
    }
}

/// Writes to stdout; a reader that went away (`tracery FILE | head -1`) is not an error.
/// (SIGPIPE stays ignored, as Rust sets it: a solver process that dies must not end Tracery.)
fn out(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// Per-query time of the exact re-check of an over-approximated error trace when bit-vectors
/// decide after it (`--semantics auto`).
const EXACT_RECHECK_BEFORE_BITVECTORS: Duration = Duration::from_secs(2);

/// Stack size of the engine thread.
const ENGINE_STACK: usize = 1 << 30;
