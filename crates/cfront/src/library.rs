//! Models of C library functions written in C (`library/models.c`): `string.h`, the byte
//! functions, `ctype.h`, `strtol` & co., `<stdio.h>`'s streams, `ffs` & co., `qsort` and `bsearch`, `atexit`, and `main`'s arguments. A program that calls one and does not define it gets the model's
//! definition, translated like its own functions (only if reachable), with positions in the
//! pseudo-file `<library>`.

use crate::preprocess::{blank_comments, LineMap};
use lang_c::ast::{Declaration, ExternalDeclaration, FunctionDefinition, TranslationUnit};
use lang_c::span::Node;
use std::sync::{Arc, OnceLock};

/// The name of the models' file in positions.
pub const LIBRARY_FILE: &str = "<library>";

/// The model that calls the functions registered with `atexit` (at the ends of a program
/// that `exit` and the return from `main` make).
pub const EXIT_HANDLERS: &str = "__tracery_exit_handlers";

/// The streams `<stdio.h>` declares, objects of the library's stream type when the program
/// declares them without a definition.
pub const STD_STREAMS: &[&str] = &["stdin", "stdout", "stderr"];

/// The tag of the library's stream type.
pub const STREAM_TAG: &str = "__tracery_stream";

/// The parsed models and the map of their positions.
pub struct Library {
    unit: TranslationUnit,
    /// Positions in the models' text.
    pub map: LineMap,
}

/// The models, parsed once (`None` if they do not parse: a defect, reported by a test).
pub fn library() -> Option<&'static Library> {
    static LIBRARY: OnceLock<Option<Library>> = OnceLock::new();
    LIBRARY
        .get_or_init(|| {
            let text = blank_comments(include_str!("library/models.c"));
            let file: Arc<str> = Arc::from(LIBRARY_FILE);
            let map = LineMap::new(&text, &file, false, &file);
            let config = lang_c::driver::Config { cpp_command: String::new(), cpp_options: vec![], flavor: lang_c::driver::Flavor::GnuC11 };
            let parsed = lang_c::driver::parse_preprocessed(&config, text).ok()?;
            Some(Library { unit: parsed.unit, map })
        })
        .as_ref()
}

impl Library {
    /// The models' declarations (of the intrinsics they use).
    pub fn declarations(&self) -> impl Iterator<Item = &Node<Declaration>> {
        self.unit.0.iter().filter_map(|d| match &d.node {
            ExternalDeclaration::Declaration(decl) => Some(decl),
            _ => None,
        })
    }

    /// The models' function definitions with their names.
    pub fn definitions(&self) -> impl Iterator<Item = (String, &Node<FunctionDefinition>)> {
        self.unit.0.iter().filter_map(|d| match &d.node {
            ExternalDeclaration::FunctionDefinition(f) => Some((crate::translate::declarator_name(&f.node.declarator.node)?, f)),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_models_parse() {
        let lib = super::library().expect("library/models.c parses");
        assert!(lib.definitions().any(|(n, _)| n == "strlen"));
    }
}
