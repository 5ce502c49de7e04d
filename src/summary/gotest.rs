//! `go test`: `--- FAIL: TestX (0.00s)` with the `file_test.go:12: message` line under it,
//! build errors (`./x.go:3:1: undefined: y`), panics, and `FAIL\tpkg` lines as a last resort.
//! Under `-v` a test's log lines come between its `=== RUN   TestX` line and its result instead.

use std::collections::HashMap;

use super::parsers::{Found, Lines};

pub(super) fn is_marker(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("--- FAIL: ")
        || t.starts_with("=== RUN ")
        || line.starts_with("FAIL\t")
        || line.starts_with("ok  \t")
        || line.ends_with("[no test files]")
}

pub(super) fn extract(lines: &Lines) -> Found {
    let mut found = Found::default();
    let mut packages = Vec::new();
    let mut runs: HashMap<&str, usize> = HashMap::new();
    for i in 0..lines.len() {
        let line = lines.get(i);
        let t = line.trim_start();
        if let Some(name) = t.strip_prefix("=== RUN ") {
            runs.insert(name.trim(), i);
        } else if let Some(rest) = t.strip_prefix("--- FAIL: ") {
            let name = rest.split(" (").next().unwrap_or(rest);
            let message = runs
                .get(name)
                .and_then(|&run| verbose_message(lines, run + 1))
                .or_else(|| message(lines, i + 1));
            found.add_test(name, message);
        } else if line.starts_with("panic: ") || is_go_location(line) {
            found.add_error(line);
        } else if let Some(package) = line.strip_prefix("FAIL\t") {
            packages.push(package.split('\t').next().unwrap_or(package).to_owned());
        }
    }
    // A failing subtest fails its parent too; the leaf names the failure.
    let names: Vec<String> = found.tests.iter().map(|t| t.name.clone()).collect();
    found.tests.retain(|t| {
        !names
            .iter()
            .any(|n| n.len() > t.name.len() && n.starts_with(&format!("{}/", t.name)))
    });
    if found.is_empty() {
        for package in packages {
            found.add_error(&format!("FAIL {package}"));
        }
    }
    found
}

/// The message under a `--- FAIL:` line: its first `file.go:N: …` line or a panic (which `-v`
/// prints there too), before the next test's lines.
fn message(lines: &Lines, from: usize) -> Option<String> {
    (from..(from + 8).min(lines.len()))
        .map(|i| lines.get(i))
        .take_while(|l| {
            let t = l.trim_start();
            !t.starts_with("--- ") && !t.starts_with("=== ") && !l.starts_with("FAIL")
        })
        .map(str::trim)
        .find(|t| t.starts_with("panic: ") || is_go_location(t))
        .map(str::to_owned)
}

/// Under `-v`: the first `file.go:N: …` line or panic between a test's `=== RUN` line and the
/// next `=== ` or `--- ` line.
fn verbose_message(lines: &Lines, from: usize) -> Option<String> {
    (from..lines.len())
        .map(|i| lines.get(i).trim())
        .take_while(|t| !t.starts_with("=== ") && !t.starts_with("--- "))
        .find(|t| t.starts_with("panic: ") || is_go_location(t))
        .map(str::to_owned)
}

/// `name.go:12: …` or `./dir/name.go:3:14: …`.
fn is_go_location(t: &str) -> bool {
    let Some((file, rest)) = t.split_once(".go:") else {
        return false;
    };
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    !file.is_empty() && !file.contains(' ') && digits > 0 && rest[digits..].starts_with(':')
}
