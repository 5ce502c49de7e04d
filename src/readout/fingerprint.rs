//! Fingerprints: FNV-1a 64 over the normalized failure.
//!
//! Normalization masks what changes between runs of the same failure: digit runs (counts,
//! durations like `0.12s` or `34ms`, line-independent timestamps, pids), hex (`0x7ff…` addresses,
//! build hashes like `sample-e6daf73c296d6df0`, UUIDs) and temp paths (`/tmp/…`,
//! `/var/folders/…`, the platform temp dir). Test names are sorted: parallel runners report
//! failures in any order. Identifiers keep their digits (`test_case_12`, `E0308`).

use super::FailureSummary;
use super::lines::Lines;

/// Lines of the output's end used when the summary found nothing.
const TAIL_LINES: usize = 30;

pub(super) fn of(summary: &FailureSummary, output: &str) -> String {
    let mut basis: Vec<String> = if summary.failing_tests.is_empty() && summary.errors.is_empty() {
        let lines = Lines::new(output);
        let tail: Vec<&str> = lines.iter().filter(|l| !l.trim().is_empty()).collect();
        tail[tail.len().saturating_sub(TAIL_LINES)..]
            .iter()
            .map(|l| normalize(l))
            .collect()
    } else {
        let mut tests: Vec<String> = summary
            .failing_tests
            .iter()
            .map(|t| format!("test {}", normalize(t)))
            .collect();
        let mut errors: Vec<String> = summary
            .errors
            .iter()
            .map(|e| format!("error {}", normalize(e)))
            .collect();
        tests.sort();
        errors.sort();
        tests.extend(errors);
        tests
    };
    basis.dedup();
    let mut hash = Fnv1a::new();
    for line in &basis {
        hash.write(line.as_bytes());
        hash.write(b"\n");
    }
    format!("{:016x}", hash.0)
}

struct Fnv1a(u64);

impl Fnv1a {
    fn new() -> Fnv1a {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// The line with volatile parts masked: temp paths → `<tmp>`, hex → `H`, numbers → `N`.
pub(super) fn normalize(line: &str) -> String {
    let temp = std::env::temp_dir();
    let temp = temp.to_str().map(|t| t.trim_end_matches('/')).filter(|t| t.len() > 1);
    let mut out = String::with_capacity(line.len());
    let mut rest = line.trim();
    while !rest.is_empty() {
        if let Some(len) = temp_path_len(rest, temp) {
            out.push_str("<tmp>");
            rest = &rest[len..];
            continue;
        }
        let word_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if word_len == 0 {
            let c = rest.chars().next().unwrap_or(' ');
            if !(c.is_whitespace() && out.ends_with(' ')) {
                out.push(if c.is_whitespace() { ' ' } else { c });
            }
            rest = &rest[c.len_utf8()..];
            continue;
        }
        mask_word(&rest[..word_len], &mut out);
        rest = &rest[word_len..];
    }
    out
}

fn mask_word(word: &str, out: &mut String) {
    let is_hex = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_hexdigit());
    let has_digit = word.chars().any(|c| c.is_ascii_digit());
    if let Some(hex) = word.strip_prefix("0x").or_else(|| word.strip_prefix("0X"))
        && is_hex(hex)
    {
        out.push_str("0xH");
    } else if has_digit && word.len() >= 8 && is_hex(word) {
        out.push('H');
    } else if has_digit && word.len() == 4 && is_hex(word) && out.ends_with('-') {
        out.push('H'); // a UUID's inner group, e.g. `-b138-`
    } else if word.starts_with(|c: char| c.is_ascii_digit()) {
        // Numbers, durations (`34ms`, `002s`), timestamp parts (`01T12`): every digit run → N.
        let mut in_digits = false;
        for c in word.chars() {
            if c.is_ascii_digit() {
                if !in_digits {
                    out.push('N');
                }
                in_digits = true;
            } else {
                out.push(c);
                in_digits = false;
            }
        }
    } else {
        out.push_str(word);
    }
}

/// Length of a temp path at the start of `s` (up to white space, a quote or a bracket).
fn temp_path_len(s: &str, temp: Option<&str>) -> Option<usize> {
    const ROOTS: &[&str] = &[
        "/tmp/",
        "/var/folders/",
        "/private/var/folders/",
        "/private/tmp/",
        "/dev/shm/",
    ];
    let is_temp = ROOTS.iter().any(|r| s.starts_with(r))
        || temp.is_some_and(|t| s.strip_prefix(t).is_some_and(|r| r.starts_with('/')));
    is_temp.then(|| {
        s.find(|c: char| c.is_whitespace() || "'\"`()[]{}<>,;".contains(c))
            .unwrap_or(s.len())
    })
}
