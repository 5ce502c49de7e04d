//! `cargo test` (libtest), `cargo nextest run`, and rustc's compile errors.

use super::parsers::{Found, Lines, details, is_noise, next_text};

/// libtest or rustc output, at column 0 (nextest indents the libtest output it captures).
pub(super) fn is_cargo_marker(line: &str) -> bool {
    line.starts_with("running ") && line.contains(" test")
        || line.starts_with("test result: ")
        || line.starts_with("error[E")
        || (line.starts_with("---- ") && line.ends_with(" stdout ----"))
        || (line.starts_with("test ") && (line.ends_with(" ... FAILED") || line.ends_with(" ... ok")))
}

pub(super) fn is_nextest_marker(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("Nextest run ID")
        || (t.starts_with("Starting ") && t.contains(" tests across "))
        || failure(t).is_some()
}

pub(super) fn cargo(lines: &Lines) -> Found {
    let mut found = Found::default();
    compile_errors(lines, &mut found);
    let mut in_list = false;
    for line in lines.iter() {
        if let Some(name) = line.strip_prefix("test ").and_then(|r| r.strip_suffix(" ... FAILED")) {
            found.add_test(name.trim_end_matches(" - should panic"), None);
        } else if line == "failures:" {
            in_list = true;
        } else if in_list {
            // libtest's closing list: four-space-indented names after `failures:`.
            match line.strip_prefix("    ") {
                Some(name) if !name.starts_with(' ') => found.add_test(name, None),
                _ => in_list = line.is_empty(),
            }
        }
    }
    panics(lines, &mut found);
    found
}

pub(super) fn nextest(lines: &Lines) -> Found {
    let mut found = Found::default();
    compile_errors(lines, &mut found);
    for line in lines.iter() {
        if let Some(name) = failure(line.trim_start()) {
            found.add_test(name, None);
        }
    }
    panics(lines, &mut found);
    found
}

/// `FAIL [   0.004s] (2/4) binary test::name` → `binary test::name`. Retries (`TRY 2 FAIL`) and
/// passes are not failures; timeouts, aborts, signals and leaks are.
fn failure(t: &str) -> Option<&str> {
    let (status, rest) = t.split_once(" [")?;
    let failed = matches!(status, "FAIL" | "LEAK-FAIL" | "TIMEOUT" | "ABORT")
        || (status.starts_with("SIG") && status.len() <= 8 && status.chars().all(|c| c.is_ascii_uppercase()));
    let (duration, rest) = rest.split_once("] ")?;
    if !failed || !duration.trim().ends_with('s') {
        return None;
    }
    let rest = rest.trim_start();
    let name = match rest.strip_prefix('(') {
        Some(counter) => counter.split_once(") ")?.1,
        None => rest,
    };
    Some(name.trim()).filter(|n| !n.is_empty())
}

/// rustc's `error[E…]:` and `error:` lines, with the ` --> file:line:col` that follows.
fn compile_errors(lines: &Lines, found: &mut Found) {
    for i in 0..lines.len() {
        let line = lines.get(i);
        if !(line.starts_with("error[E") || line.starts_with("error: ")) || is_noise(line) {
            continue;
        }
        let location = (i + 1..i + 4)
            .find_map(|j| lines.get(j).trim_start().strip_prefix("--> "))
            .map(|loc| format!(" at {}", loc.trim()))
            .unwrap_or_default();
        found.add_error(&format!("{line}{location}"));
    }
}

/// Panic messages, attached to the test whose thread panicked, else kept as error lines.
/// Formats: `thread 'T' (PID) panicked at FILE:L:C:` + message line (Rust ≥ 1.73, pid since
/// 1.88), and the older `thread 'T' panicked at 'MESSAGE', FILE:L:C`.
fn panics(lines: &Lines, found: &mut Found) {
    for i in 0..lines.len() {
        let t = lines.get(i).trim_start();
        let Some((thread, after)) = t.strip_prefix("thread '").and_then(|r| r.split_once('\'')) else {
            continue;
        };
        let Some((_, at)) = after.split_once("panicked at ") else {
            continue;
        };
        let (location, message) = if let Some(location) = at.strip_suffix(':') {
            (location, next_text(lines, i + 1, 2).map_or("", |(_, m)| m))
        } else if let Some((message, location)) = at.strip_prefix('\'').and_then(|q| q.rsplit_once("', ")) {
            (location, message)
        } else {
            (at, "")
        };
        let message = format!("{message}{} at {location}", details(lines, i + 2, 4))
            .trim_start()
            .to_owned();
        let suffix = format!(" {thread}");
        match found.test_mut(|name| name == thread || name.ends_with(&suffix)) {
            Some(test) if test.message.is_none() => test.message = Some(message),
            Some(_) => {}
            None if thread == "main" || thread.is_empty() => found.add_error(&format!("panicked: {message}")),
            None => found.add_test(thread, Some(message)),
        }
    }
}
