//! Trace checks and assertion sources (Newton, Craig by Farkas), Hoare triples
