//! Timestamps as real date-times: the history's `timestamp` and the state's `started_at`.
//!
//! The crate is `chrono`: it was already a dependency (the state and the seal stamp with it, `--max-duration`
//! measures with it), it parses and prints RFC 3339 itself, and adding `jiff` or `time` would only bring a second
//! date library for the same job.
//!
//! Invariant: what is written is RFC 3339 in UTC with whole seconds and a `Z` (`2026-11-21T19:40:00Z`), as the
//! history has always been written; what is read must parse as RFC 3339 (any offset, fractions allowed) —
//! a value that does not is an error for the caller to name, never a silent "no time".

use chrono::{DateTime, SecondsFormat, SubsecRound, Utc};
use serde::{Deserialize, Deserializer, Serializer};

/// Now, to the second (what the file keeps).
pub fn now() -> DateTime<Utc> {
    Utc::now().trunc_subsecs(0)
}

/// The written form: `2026-11-21T19:40:00Z`.
pub fn format(time: &DateTime<Utc>) -> String {
    time.to_rfc3339_opts(SecondsFormat::AutoSi, true)
}

/// Parses an RFC 3339 date-time into UTC.
pub fn parse(text: &str) -> Result<DateTime<Utc>, chrono::ParseError> {
    DateTime::parse_from_rfc3339(text.trim()).map(|t| t.with_timezone(&Utc))
}

/// `serde(with)`: writes [`format`], reads [`parse`].
pub fn serialize<S: Serializer>(time: &DateTime<Utc>, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&format(time))
}

/// `serde(with)`: an unparsable timestamp makes the record invalid (a reader skips and reports its line).
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<DateTime<Utc>, D::Error> {
    let text = String::deserialize(deserializer)?;
    parse(&text).map_err(|e| serde::de::Error::custom(format!("invalid `timestamp` {text:?}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_whole_seconds_in_utc_and_reads_any_offset() {
        let t = parse("2026-11-21T20:40:00+01:00").expect("offset");
        assert_eq!(format(&t), "2026-11-21T19:40:00Z");
        assert_eq!(format(&now()).len(), "2026-11-21T19:40:00Z".len());
        assert!(parse("yesterday").is_err());
        assert!(parse("").is_err());
    }
}
