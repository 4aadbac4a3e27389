//! Prints the program model of each Boogie file given on the command line.

fn main() {
    for f in std::env::args().skip(1) {
        match std::fs::read(&f) {
            Ok(bytes) => match boogie::parse_program(&f, &bytes) {
                Ok(p) => print!("{}", ir::print::program_to_boogie(&p)),
                Err(e) => eprintln!("{e}"),
            },
            Err(e) => eprintln!("{f}: {e}"),
        }
    }
}
