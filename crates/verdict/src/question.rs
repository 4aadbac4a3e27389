//! What a run checks: the properties of SV-COMP's that Tracery knows, parsed once from
//! `--property` (names or `.prp` files), and the question they make. The front ends instrument a
//! safety question's properties as error locations; engines say which questions they decide;
//! `report`, `witness` and `bench` read the property's own SV-COMP text.

use ir::ViolationKind;
use std::collections::BTreeSet;

/// What a run checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// No error location of these properties is reachable (a data race is reached as one too).
    Safety(BTreeSet<Property>),
    /// Every execution terminates.
    Termination,
}

impl Question {
    /// The question of a `--property` list (see [`Property::parse_list`]).
    pub fn parse(spec: &str) -> Result<Question, PropertyError> {
        let properties = Property::parse_list(spec)?;
        Ok(match properties.contains(&Property::Termination) {
            true => Question::Termination,
            false => Question::Safety(properties),
        })
    }

    /// The properties it asks about.
    pub fn properties(&self) -> BTreeSet<Property> {
        match self {
            Question::Safety(p) => p.clone(),
            Question::Termination => [Property::Termination].into(),
        }
    }

    /// What kind of question it is, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Question::Safety(_) => "safety",
            Question::Termination => "termination",
        }
    }
}

impl Default for Question {
    /// The default properties' safety.
    fn default() -> Question {
        Question::Safety(Property::defaults())
    }
}

/// A property of SV-COMP's that Tracery checks (the front ends instrument the safety ones as
/// error locations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Property {
    /// `unreach-call`: no error function is called, no assertion fails.
    UnreachCall,
    /// `no-overflow`: no signed integer overflow.
    NoOverflow,
    /// `div-by-zero`: no integer division or remainder by zero.
    DivByZero,
    /// `valid-deref`: every dereferenced pointer is valid.
    ValidDeref,
    /// `valid-free`: every `free` is of a valid heap pointer.
    ValidFree,
    /// `valid-memtrack`: no memory leak.
    ValidMemtrack,
    /// `valid-memcleanup`: all memory is freed at exit.
    ValidMemcleanup,
    /// `no-data-race`: no two threads access one location at once, one of them writing.
    NoDataRace,
    /// `termination`: every execution terminates. Nothing is instrumented for it (it is no
    /// error location); the termination engine decides it, and it is checked on its own.
    Termination,
}

impl Property {
    /// The SV-COMP name.
    pub fn name(self) -> &'static str {
        match self {
            Property::UnreachCall => "unreach-call",
            Property::NoOverflow => "no-overflow",
            Property::DivByZero => "div-by-zero",
            Property::ValidDeref => "valid-deref",
            Property::ValidFree => "valid-free",
            Property::ValidMemtrack => "valid-memtrack",
            Property::ValidMemcleanup => "valid-memcleanup",
            Property::NoDataRace => "no-data-race",
            Property::Termination => "termination",
        }
    }

    /// The property a violation of this kind violates (none for a location beyond a bound of the
    /// model).
    pub fn of(kind: ViolationKind) -> Option<Property> {
        Property::ALL.into_iter().find(|p| p.name() == kind.property())
    }

    /// The property as SV-COMP's property files and witnesses state it (`LTL(...)`'s argument).
    pub fn ltl(self) -> &'static str {
        match self {
            Property::UnreachCall => "G ! call(reach_error())",
            Property::NoOverflow => "G ! overflow",
            Property::DivByZero => "G ! div-by-zero",
            Property::ValidDeref => "G valid-deref",
            Property::ValidFree => "G valid-free",
            Property::ValidMemtrack => "G valid-memtrack",
            Property::ValidMemcleanup => "G valid-memcleanup",
            Property::NoDataRace => "G ! data-race",
            Property::Termination => "F end",
        }
    }

    /// The default set: assertions and error functions, division by zero, pointer validity.
    pub fn defaults() -> BTreeSet<Property> {
        [Property::UnreachCall, Property::DivByZero, Property::ValidDeref, Property::ValidFree].into_iter().collect()
    }

    /// Parses a comma-separated list of property names (`unreach-call`, `no-overflow`,
    /// `div-by-zero`, `valid-deref`, `valid-free`, `valid-memtrack`, `valid-memsafety`,
    /// `valid-memcleanup`, `no-data-race`, `termination`, `default`) or paths of SV-COMP `.prp` files.
    /// Termination is checked on its own: together with another property it is a usage error.
    pub fn parse_list(spec: &str) -> Result<BTreeSet<Property>, PropertyError> {
        let mut out = BTreeSet::new();
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if item.ends_with(".prp") {
                let text = std::fs::read(item).map_err(|e| PropertyError::Invalid(format!("cannot read property file {item}: {e}")))?;
                out.extend(Property::from_prp(&String::from_utf8_lossy(&text))?);
                continue;
            }
            match item {
                "default" => out.extend(Property::defaults()),
                "valid-memsafety" => {
                    out.extend([Property::ValidDeref, Property::ValidFree, Property::ValidMemtrack]);
                }
                _ if UNCHECKED_PROPERTIES.contains(&item) => {
                    return Err(PropertyError::Unsupported(format!("the property `{item}` is not checked by Tracery")));
                }
                _ => {
                    let p = Property::ALL
                        .into_iter()
                        .find(|p| p.name() == item)
                        .ok_or_else(|| PropertyError::Invalid(format!("unknown property `{item}`")))?;
                    out.insert(p);
                }
            }
        }
        if out.contains(&Property::Termination) && out.len() > 1 {
            return Err(PropertyError::Invalid("`termination` is checked on its own, not together with other properties".into()));
        }
        Ok(out)
    }

    /// Every property, in the order of [`Property::name`].
    pub const ALL: [Property; 9] = [
        Property::UnreachCall,
        Property::NoOverflow,
        Property::DivByZero,
        Property::ValidDeref,
        Property::ValidFree,
        Property::ValidMemtrack,
        Property::ValidMemcleanup,
        Property::NoDataRace,
        Property::Termination,
    ];

    /// The properties an SV-COMP property file (`CHECK( init(main()), LTL(...) )`) asks for.
    pub fn from_prp(text: &str) -> Result<BTreeSet<Property>, PropertyError> {
        let mut out = BTreeSet::new();
        for line in text.lines().filter(|l| l.contains("CHECK")) {
            if line.contains("call(reach_error())") || line.contains("call(__VERIFIER_error())") {
                out.insert(Property::UnreachCall);
            } else if line.contains("overflow") {
                out.insert(Property::NoOverflow);
            } else if line.contains("valid-deref") {
                out.insert(Property::ValidDeref);
            } else if line.contains("valid-free") {
                out.insert(Property::ValidFree);
            } else if line.contains("valid-memtrack") {
                out.insert(Property::ValidMemtrack);
            } else if line.contains("valid-memcleanup") {
                out.insert(Property::ValidMemcleanup);
            } else if line.contains("data-race") {
                out.insert(Property::NoDataRace);
            } else if line.contains("LTL(F end)") {
                out.insert(Property::Termination);
            } else {
                return Err(PropertyError::Unsupported(format!("the property {} is not checked by Tracery", line.trim())));
            }
        }
        if out.is_empty() {
            return Err(PropertyError::Invalid("no property found in the property file".into()));
        }
        Ok(out)
    }
}

/// SV-COMP properties Tracery knows by name but does not check (a request for one is
/// answered UNKNOWN, never TRUE).
pub const UNCHECKED_PROPERTIES: [&str; 2] = ["def-behavior", "valid-memsafety-concurrent"];

/// Why a property list was not accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PropertyError {
    /// Not a property name or property file (a usage error).
    #[error("{0}")]
    Invalid(String),
    /// A property Tracery does not check.
    #[error("{0}")]
    Unsupported(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_property_list_makes_one_question() {
        assert_eq!(Question::parse("default"), Ok(Question::default()));
        assert_eq!(Question::parse("termination"), Ok(Question::Termination));
        let race = Question::parse("no-data-race").expect("a property");
        assert_eq!(race, Question::Safety([Property::NoDataRace].into()));
        assert_eq!(race.properties().iter().map(|p| p.ltl()).collect::<Vec<_>>(), ["G ! data-race"]);
        assert!(matches!(Question::parse("termination,unreach-call"), Err(PropertyError::Invalid(_))));
        assert!(matches!(Question::parse("def-behavior"), Err(PropertyError::Unsupported(_))));
        assert!(matches!(Question::parse("reach"), Err(PropertyError::Invalid(_))));
    }

    #[test]
    fn a_violation_names_its_property() {
        assert_eq!(Property::of(ViolationKind::Assert), Some(Property::UnreachCall));
        assert_eq!(Property::of(ViolationKind::DataRace), Some(Property::NoDataRace));
        assert_eq!(Property::of(ViolationKind::ThreadLimit), None);
    }
}
