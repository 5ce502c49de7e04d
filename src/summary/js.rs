//! Jest (`● Suite › test` blocks, `✕ test` lines, `FAIL file`) and Vitest (`FAIL  file > suite >
//! test` blocks, `× test` lines).

use super::parsers::{Found, Lines, details, next_text};

pub(super) fn is_jest_marker(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("Test Suites:")
        || t.starts_with("Tests:")
        || t.starts_with("No tests found, exiting")
        || (t.starts_with("● ") && !t.starts_with("● Console"))
}

pub(super) fn is_vitest_marker(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("RUN  v")
        || t.starts_with("Test Files  ")
        || t.starts_with("No test files found, exiting")
        || (t.starts_with("FAIL  ") && t.contains(" > "))
}

pub(super) fn jest(lines: &Lines) -> Found {
    let mut found = Found::default();
    let mut file = "";
    let mut files = Vec::new();
    for i in 0..lines.len() {
        let t = lines.get(i).trim();
        if let Some(path) = t.strip_prefix("FAIL ") {
            file = path.trim();
            files.push(file);
        } else if let Some(title) = t.strip_prefix("● ") {
            if title.starts_with("Console") {
                continue;
            }
            let name = if title == "Test suite failed to run" {
                format!("{file} (test suite failed to run)")
            } else {
                title.to_owned()
            };
            found.add_test(&name, message(lines, i + 1));
        }
    }
    if found.tests.is_empty() {
        for line in lines.iter() {
            if let Some(name) = line.trim().strip_prefix("✕ ") {
                found.add_test(without_duration(name), None);
            }
        }
    }
    if found.tests.is_empty() {
        for file in files {
            found.add_test(file, None);
        }
    }
    found
}

pub(super) fn vitest(lines: &Lines) -> Found {
    let mut found = Found::default();
    for i in 0..lines.len() {
        let t = lines.get(i).trim();
        if let Some(name) = t.strip_prefix("FAIL ") {
            found.add_test(name, message(lines, i + 1));
        }
    }
    if found.tests.is_empty() {
        for line in lines.iter() {
            if let Some(name) = line.trim().strip_prefix("× ") {
                found.add_test(without_duration(name), None);
            }
        }
    }
    found
}

/// The first line of a failure block plus its Expected/Received (or diff) details.
fn message(lines: &Lines, from: usize) -> Option<String> {
    let (at, first) = next_text(lines, from, 4)?;
    Some(format!("{first}{}", details(lines, at + 1, 14)))
}

/// `adds numbers (3 ms)` or `adds numbers 4ms` → `adds numbers`.
fn without_duration(name: &str) -> &str {
    let name = name.trim();
    if let Some(stripped) = name.strip_suffix(" ms)").and_then(|n| n.rsplit_once(" (")) {
        return stripped.0;
    }
    match name.rsplit_once(' ') {
        Some((head, last)) if last.ends_with('s') && last.starts_with(|c: char| c.is_ascii_digit()) => head,
        _ => name,
    }
}
