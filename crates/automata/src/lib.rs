//! Automata over program statements: product, on-the-fly difference, shortest accepted words
