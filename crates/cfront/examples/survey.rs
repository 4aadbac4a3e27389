//! Translates files and prints one line per file: `OK` or the diagnostic (for corpus surveys).
fn main() {
    for a in std::env::args().skip(1) {
        match cfront::translate_file(std::path::Path::new(&a), &cfront::COptions::default()) {
            Ok(_) => println!("OK|{a}"),
            Err(e) => println!("ERR|{a}|{}|{}", e.kind, e.message),
        }
    }
}
