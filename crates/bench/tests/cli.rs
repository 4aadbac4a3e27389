//! The command line as the `tracery` binary wires it: `tracery FILE ...` next to
//! `tracery bench ...` (the same clap structure the owner of crates/cli adds).

use bench::{BenchArgs, BenchCommand};
use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(name = "tracery", args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[arg(required = true)]
    file: Option<PathBuf>,
    #[arg(long, default_value_t = 900.0)]
    timeout: f64,
}

#[derive(Subcommand, Debug)]
enum Command {
    Bench(BenchArgs),
}

fn bench_args(argv: &[&str]) -> BenchArgs {
    match Cli::try_parse_from(argv).unwrap_or_else(|e| panic!("{e}")).command {
        Some(Command::Bench(b)) => b,
        None => panic!("no bench subcommand"),
    }
}

#[test]
fn the_command_definition_is_consistent() {
    use clap::CommandFactory;
    Cli::command().debug_assert();
}

#[test]
fn verifying_a_file_still_parses() {
    let cli = Cli::try_parse_from(["tracery", "x.bpl", "--timeout", "5"]).unwrap();
    assert_eq!((cli.file, cli.timeout, cli.command.is_none()), (Some(PathBuf::from("x.bpl")), 5.0, true));
    assert!(Cli::try_parse_from(["tracery"]).is_err());
}

#[test]
fn bench_options() {
    let b = bench_args(&[
        "tracery",
        "bench",
        "a",
        "b.yml",
        "--jobs",
        "2",
        "--timeout",
        "30",
        "--memory",
        "4000",
        "--property",
        "termination",
        "--out",
        "o",
        "--compare",
        "old.json",
        "--",
        "--refinement",
        "craig",
    ]);
    assert_eq!(b.command, None);
    assert_eq!(b.paths, vec![PathBuf::from("a"), PathBuf::from("b.yml")]);
    assert_eq!((b.jobs, b.timeout, b.memory), (2, 30.0, 4000));
    assert_eq!(b.property.as_deref(), Some("termination"));
    assert_eq!(b.out, Some(PathBuf::from("o")));
    assert_eq!(b.compare, Some(PathBuf::from("old.json")));
    assert_eq!(b.extra, vec!["--refinement", "craig"]);
    let d = bench_args(&["tracery", "bench", "dir"]);
    assert_eq!((d.jobs, d.timeout, d.memory, d.out, d.verifier), (1, 60.0, 8192, None, None));
    let v = bench_args(&["tracery", "bench", "--verifier", "./fake.sh", "dir"]);
    assert_eq!(v.verifier, Some(PathBuf::from("./fake.sh")));
    assert!(Cli::try_parse_from(["tracery", "bench"]).is_err(), "a PATH is required");
}

#[test]
fn bench_plot_subcommand() {
    let b = bench_args(&["tracery", "bench", "plot", "A.json", "B.json", "--out", "plot.svg"]);
    match b.command {
        Some(BenchCommand::Plot(p)) => {
            assert_eq!(p.results, vec![PathBuf::from("A.json"), PathBuf::from("B.json")]);
            assert_eq!(p.out, PathBuf::from("plot.svg"));
        }
        other => panic!("{other:?}"),
    }
    assert!(Cli::try_parse_from(["tracery", "bench", "plot"]).is_err());
}

#[test]
fn help_mentions_the_testing_aid() {
    let err = Cli::try_parse_from(["tracery", "bench", "--help"]).unwrap_err();
    let help = err.to_string();
    assert!(help.contains("--verifier <PATH>") && help.contains("Testing aid"), "{help}");
    assert!(help.contains("-32 wrong TRUE"));
}

#[test]
fn timestamps_in_utc() {
    assert_eq!(bench::timestamps(0), ("1970-01-01T00:00:00Z".to_string(), "19700101-000000".to_string()));
    assert_eq!(bench::timestamps(951_782_400).0, "2000-02-29T00:00:00Z");
    assert_eq!(bench::timestamps(1_767_225_599).1, "20251231-235959");
}

#[test]
fn options_in_help_texts() {
    assert!(bench::lists_option("  --property <NAME>  the property", "--property"));
    assert!(bench::lists_option("--data-model=ILP32", "--data-model"));
    assert!(!bench::lists_option("  --property-file <F>", "--property"));
    assert!(!bench::lists_option("  --no-property", "--property"));
}
