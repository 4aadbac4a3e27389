//! Boogie parser and type checker producing the Tracery program model
