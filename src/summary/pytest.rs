//! pytest: the `short test summary info` lines (`FAILED nodeid - message`), with the `E   …` lines
//! of the failure sections filling in messages, or standing in when `-rN` hid the summary.

use super::parsers::{Found, Lines};

pub(super) fn is_marker(line: &str) -> bool {
    line.contains("test session starts")
        || line.contains("short test summary info")
        || ((line.starts_with("FAILED ") || line.starts_with("ERROR ")) && line.contains(".py"))
        || (line.starts_with('=') && line.contains(" no tests ran in "))
}

pub(super) fn extract(lines: &Lines) -> Found {
    let mut found = Found::default();
    for line in lines.iter() {
        let Some(rest) = line.strip_prefix("FAILED ").or_else(|| line.strip_prefix("ERROR ")) else {
            continue;
        };
        let (node, message) = match rest.split_once(" - ") {
            Some((node, message)) => (node, Some(message.trim().to_owned())),
            None => (rest, None),
        };
        if node.contains(".py") && !node.contains(' ') {
            found.add_test(node, message);
        }
    }
    for (title, message) in sections(lines) {
        // Section titles: `test_x`, `TestClass.test_x`, `test_x[param]`, `ERROR collecting path.py`.
        let title = title.strip_prefix("ERROR collecting ").unwrap_or(&title);
        let suffix = format!("::{}", title.replace('.', "::"));
        let matches = |node: &str| node == title || node.ends_with(&suffix);
        match found.test_mut(matches) {
            Some(test) => {
                if test.message.is_none() {
                    test.message = message;
                }
            }
            None => found.add_test(title, message),
        }
    }
    found
}

/// `____ title ____` sections and the first `E   ` line in each.
fn sections(lines: &Lines) -> Vec<(String, Option<String>)> {
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    for line in lines.iter() {
        if line.len() > 6 && line.starts_with("___") && line.ends_with("___") {
            let title = line.trim_matches('_').trim();
            if !title.is_empty() {
                out.push((title.to_owned(), None));
            }
        } else if let Some(error) = line.strip_prefix("E ").map(str::trim).filter(|e| !e.is_empty())
            && let Some((_, message @ None)) = out.last_mut()
        {
            *message = Some(error.to_owned());
        }
    }
    out
}
