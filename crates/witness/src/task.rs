//! The verification task a witness is about, and the metadata every witness carries.

use sha2::{Digest, Sha256};
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

/// The task: the program file, the specification (LTL text) and the data model.
#[derive(Clone, Debug)]
pub struct Task {
    pub file: PathBuf,
    /// The property's LTL formula (`G ! call(reach_error())`).
    pub specification: String,
    /// `ILP32` or `LP64`.
    pub data_model: String,
}

impl Task {
    /// The SHA-256 hash of the program file in lower-case hex (empty if it cannot be read).
    pub fn file_hash(&self) -> String {
        let Ok(bytes) = std::fs::read(&self.file) else { return String::new() };
        Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The file name as given.
    pub fn file_name(&self) -> String {
        self.file.display().to_string()
    }

    /// Whether a source position is in the program file (not in a header it includes).
    pub fn in_program(&self, pos: &ir::SourcePos) -> bool {
        *pos.file == *self.file_name()
    }

    /// The data model as GraphML witnesses spell it (`32bit`/`64bit`).
    pub fn architecture(&self) -> &'static str {
        if self.data_model == "ILP32" {
            "32bit"
        } else {
            "64bit"
        }
    }
}

/// A random (version 4) UUID.
pub fn uuid_v4() -> String {
    let mut b = [0u8; 16];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut f| std::io::Read::read_exact(&mut f, &mut b));
    if read.is_err() {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        b = (nanos ^ ((std::process::id() as u128) << 64)).to_le_bytes();
    }
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h: Vec<String> = b.iter().map(|x| format!("{x:02x}")).collect();
    format!("{}-{}-{}-{}-{}", h[0..4].concat(), h[4..6].concat(), h[6..8].concat(), h[8..10].concat(), h[10..16].concat())
}

/// The current time in ISO 8601 (UTC, `2024-05-01T12:00:00Z`).
pub fn now_iso8601() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // civil date from days since 1970-01-01 (Howard Hinnant's algorithm)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuid_has_version_4_shape() {
        let u = uuid_v4();
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "4");
        assert_eq!(u.matches('-').count(), 4);
    }

    #[test]
    fn time_is_iso8601() {
        let t = now_iso8601();
        assert!(t.len() == 20 && t.ends_with('Z') && &t[10..11] == "T", "{t}");
        assert!(t.as_str() > "2024");
    }
}
