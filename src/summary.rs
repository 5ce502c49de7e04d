//! TEMPORARY (being replaced by the full failure synthesis). Same API.
#[derive(Debug, Clone, Default)]
pub struct FailureSummary {
    pub text: String,
    pub failing_tests: Vec<String>,
    pub zero_tests: bool,
}
pub fn summarize(output: &str) -> FailureSummary {
    let text: String = output
        .lines()
        .filter(|l| l.contains("error") || l.contains("FAIL"))
        .take(5)
        .collect::<Vec<_>>()
        .join("\n");
    FailureSummary {
        text,
        failing_tests: Vec::new(),
        zero_tests: false,
    }
}
pub fn fingerprint(output: &str) -> String {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in output.bytes().filter(|b| !b.is_ascii_digit()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100000001b3);
    }
    format!("{h:016x}")
}
