//! Verdicts, counterexamples and statistics as text and JSON
