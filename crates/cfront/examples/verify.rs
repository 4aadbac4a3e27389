//! Verifies a C file end to end: `cargo run --example verify -- FILE.c [--ilp32] [--property LIST] [--entry NAME] [--dump]`.

use cfront::{translate_file, COptions, DataModel, Property};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut opts = COptions::default();
    let mut file = None;
    let mut dump = false;
    let mut timeout = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--ilp32" => opts.data_model = DataModel::ILP32,
            "--dump" => dump = true,
            "--property" => {
                i += 1;
                opts.properties = Property::parse_list(&args[i]).unwrap_or_else(|e| {
                    eprintln!("{e}");
                    std::process::exit(2)
                });
            }
            "--entry" => {
                i += 1;
                opts.entry = args[i].clone();
            }
            "--timeout" => {
                i += 1;
                timeout = args[i].parse::<f64>().ok();
            }
            f => file = Some(f.to_string()),
        }
        i += 1;
    }
    let Some(file) = file else {
        eprintln!("usage: verify FILE.c [--ilp32] [--property LIST] [--entry NAME] [--timeout SECS] [--dump]");
        std::process::exit(2);
    };
    let start = Instant::now();
    let program = match translate_file(std::path::Path::new(&file), &opts) {
        Ok(p) => p,
        Err(e) if e.kind == cfront::ErrorKind::Unsupported => {
            println!("UNKNOWN\nreason: unsupported: {e}");
            return;
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if dump {
        print!("{}", ir::print::program_to_boogie(&program));
        return;
    }
    let mut config = engines::Config::default();
    if let Some(t) = timeout {
        config.deadline = Some(start + Duration::from_secs_f64(t));
    }
    let outcome = engines::verify(&program, &config);
    print!("{}", report::render(&outcome, std::env::var("CFRONT_STATS").is_ok()));
}
