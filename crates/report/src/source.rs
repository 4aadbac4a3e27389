//! The text of source lines, read once per file, for showing a step as it is written.

use std::collections::HashMap;

/// Lines of the source files a report mentions.
#[derive(Default)]
pub struct SourceLines {
    files: HashMap<String, Option<Vec<String>>>,
}

impl SourceLines {
    /// Line `line` (1-based) of `file`, trimmed; `None` if the file cannot be read.
    pub fn line(&mut self, file: &str, line: u32) -> Option<String> {
        let lines = self.files.entry(file.to_string()).or_insert_with(|| {
            let bytes = std::fs::read(file).ok()?;
            Some(String::from_utf8_lossy(&bytes).lines().map(|l| l.trim().to_string()).collect())
        });
        let text = lines.as_ref()?.get((line as usize).checked_sub(1)?)?;
        (!text.is_empty()).then(|| text.clone())
    }
}

/// Whether a file is C (steps are shown as their source line rather than in Boogie syntax).
pub fn is_c_file(file: &str) -> bool {
    file.ends_with(".c") || file.ends_with(".i") || file.ends_with(".h")
}
