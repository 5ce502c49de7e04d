//! The generic fallback for output no runner extractor understood (`make`, compilers, scripts,
//! runners without an extractor), and the runner-independent "no test ran" check.

use super::lines::{Found, Lines, detail_of, is_noise, next_text};

/// The generic fallback: error-looking lines, each with up to two assertion details that follow
/// it (`left:`/`right:`, `expected`/`received`, `actual`).
pub(super) fn extract(lines: &Lines) -> Found {
    let mut items: Vec<(String, Vec<String>)> = Vec::new();
    for i in 0..lines.len() {
        let t = lines.get(i).trim();
        if let Some(detail) = detail_of(t) {
            if let Some((_, details)) = items.last_mut()
                && details.len() < 2
            {
                details.push(detail);
            }
        } else if is_error_line(t) && !is_noise(t) && !items.iter().any(|(l, _)| l == t) {
            if items.len() >= 8 {
                break;
            }
            let mut item = t.to_owned();
            // `panicked at file:line:col:` puts the message on the next line.
            if t.contains("panicked at ")
                && t.ends_with(':')
                && let Some((_, message)) = next_text(lines, i + 1, 1)
            {
                item = format!("{item} {message}");
            }
            items.push((item, Vec::new()));
        }
    }
    let mut found = Found::default();
    for (line, details) in items {
        if details.is_empty() {
            found.add_error(&line);
        } else {
            found.add_error(&format!("{line} ({})", details.join(", ")));
        }
    }
    found
}

fn is_error_line(t: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "error:",
        "error[",
        "ERROR",
        "Error:",
        "FAILED",
        "FAIL:",
        "FAIL ",
        "fatal:",
        "fatal error:",
        "panic:",
        "not ok ",
        "AssertionError",
        "assert ",
        "assertion",
    ];
    PREFIXES.iter().any(|p| t.starts_with(p))
        || t.contains(": error:")
        || t.contains(" error: ")
        || t.contains("panicked at")
        || names_an_error_type(t)
}

/// `SomethingError: …`, `SomethingException: …` or `AssertionError [CODE]: …`.
fn names_an_error_type(t: &str) -> bool {
    ["Error", "Exception"].iter().any(|kind| {
        t.match_indices(kind).any(|(at, _)| {
            let before_ok = t[..at].chars().last().is_some_and(char::is_alphanumeric) || at == 0;
            let rest = &t[at + kind.len()..];
            let rest = match rest.strip_prefix(" [") {
                Some(code) => code.split_once(']').map_or(rest, |(_, after)| after),
                None => rest,
            };
            before_ok && rest.starts_with(": ")
        })
    })
}

/// Evidence that no test ran, unless something says one did; the evidence is quoted in the
/// summary.
pub(super) fn zero_tests(lines: &Lines) -> Option<&'static str> {
    const ZERO: &[&str] = &[
        "running 0 tests",
        "no tests ran",
        "No tests found",
        "No test files found",
        "[no test files]",
        "[no tests to run]",
        "no tests to run",
        "collected 0 items",
        "Starting 0 tests",
        "0 tests run",
        "Ran 0 tests",
        "NO TESTS RAN",
        "# tests 0",
        "0 passed",
        "No tests executed!",
    ];
    let mut evidence = None;
    for line in lines.iter() {
        if ran_some(line) {
            return None;
        }
        if evidence.is_none() {
            evidence = ZERO.iter().find(|z| mentions(line, z)).copied();
            if evidence.is_none() && line.trim_start().starts_with("Tests:") && line.ends_with(" 0 total") {
                evidence = Some("Tests: 0 total");
            }
        }
    }
    evidence
}

/// `phrase` in `line`, not as part of a larger number (`10 passed` does not mention `0 passed`).
fn mentions(line: &str, phrase: &str) -> bool {
    line.match_indices(phrase)
        .any(|(at, _)| !line[..at].ends_with(|c: char| c.is_ascii_digit()))
}

/// The line says at least one test ran: `N passed|failed|passing|failing` or `running N tests`
/// with N > 0, a go `--- PASS`/`--- FAIL`, or a go `ok` package line.
fn ran_some(line: &str) -> bool {
    let t = line.trim_start();
    if t.starts_with("--- PASS") || t.starts_with("--- FAIL") || (t.starts_with("ok ") && !t.contains("[no test")) {
        return true;
    }
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .collect();
    words.windows(2).any(|w| {
        let count = w[0].parse::<u64>().is_ok_and(|n| n > 0);
        let noun = w[1].trim_end_matches(|c: char| !c.is_alphabetic());
        count && matches!(noun, "passed" | "failed" | "passing" | "failing")
    }) || words
        .windows(3)
        .any(|w| w[0] == "running" && w[1].parse::<u64>().is_ok_and(|n| n > 0) && w[2].starts_with("test"))
}
