//! Verification algorithms over the program model (trace abstraction)
