//! Renderers of a check's [`Outcome`]: the Markdown summary (a pull request's step summary), the HTML report
//! (the Action's artifact), GitHub's workflow commands (`::error file=…,line=…::`, one per finding) and step
//! outputs (`key=value` lines for `$GITHUB_OUTPUT`), and the terminal's lines. JSON is the outcome's serde form.

use std::fmt::Write as _;

use super::outcome::{Finding, Outcome, TestLine, TestVerdict};

fn verdict_word(v: TestVerdict) -> &'static str {
    match v {
        TestVerdict::Passed => "passed",
        TestVerdict::Failed => "FAILED",
        TestVerdict::Missing => "MISSING (did not run)",
        TestVerdict::NotJudged => "not judged",
        TestVerdict::New => "new (decides nothing)",
    }
}

/// The head and base line every renderer starts with.
fn headline(o: &Outcome) -> String {
    let dirty = if o.head_dirty { " with uncommitted changes" } else { "" };
    let exit = o
        .exit
        .map_or_else(|| "did not run to an exit".into(), |e| format!("exit {e}"));
    format!(
        "head `{}`{dirty} judged against base `{}` (`{}`) by `{}` ({exit})",
        short(&o.head_commit),
        o.base,
        short(&o.base_commit),
        o.verify
    )
}

fn short(sha: &str) -> &str {
    &sha[..sha.len().min(12)]
}

/// Counts of base tests by verdict, in a fixed order, the zero ones left out.
fn counts(tests: &[TestLine]) -> String {
    let order = [
        TestVerdict::Passed,
        TestVerdict::Failed,
        TestVerdict::Missing,
        TestVerdict::NotJudged,
        TestVerdict::New,
    ];
    order
        .iter()
        .filter_map(|&v| {
            let n = tests.iter().filter(|t| t.verdict == v).count();
            (n > 0).then(|| format!("{n} {}", verdict_word(v)))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Where a finding points, after its text; nothing where the text already says it.
fn location(f: &Finding) -> String {
    let at = match (&f.file, f.line) {
        (Some(file), Some(line)) => format!("{file}:{line}"),
        (Some(file), None) => file.clone(),
        _ => return String::new(),
    };
    if f.text.contains(&at) {
        String::new()
    } else {
        format!(" (`{at}`)")
    }
}

/// The Markdown summary: verdict, findings, every test by verdict, notes, the output's last lines.
pub(crate) fn markdown(o: &Outcome) -> String {
    let mut md = String::new();
    let word = if o.passed { "PASS" } else { "FAIL" };
    let _ = writeln!(md, "## loopgate check: {word}\n\n{}\n", headline(o));
    if !o.findings.is_empty() {
        let _ = writeln!(md, "### Findings ({})\n", o.findings.len());
        for f in &o.findings {
            let _ = writeln!(md, "- {}{}", f.text, location(f));
        }
        md.push('\n');
    }
    let base_tests = o.tests.iter().filter(|t| t.base.is_some()).count();
    let _ = writeln!(md, "### Tests ({base_tests} of the base; {})\n", counts(&o.tests));
    if o.tests.is_empty() {
        md.push_str("No test was reported by name (the verify command's exit code decided).\n\n");
    } else {
        md.push_str("| test | base | head |\n|---|---|---|\n");
        for t in &o.tests {
            let _ = writeln!(
                md,
                "| `{}` | {} | {} |",
                t.name.replace('|', "\\|").replace('`', "'"),
                t.base.unwrap_or("—"),
                verdict_word(t.verdict)
            );
        }
        md.push('\n');
    }
    if !o.notes.is_empty() {
        md.push_str("### Notes\n\n");
        for n in &o.notes {
            let _ = writeln!(md, "- {n}");
        }
        md.push('\n');
    }
    if !o.output_tail.is_empty() {
        let _ = writeln!(
            md,
            "<details><summary>verify output (last lines)</summary>\n\n```\n{}\n```\n</details>",
            o.output_tail.replace("```", "'''")
        );
    }
    md
}

/// The HTML report: the same content as the summary, one self-contained page.
pub(crate) fn html(o: &Outcome) -> String {
    use crate::report::html::escape;
    let word = if o.passed { "PASS" } else { "FAIL" };
    let mut page = format!(
        "<!doctype html><meta charset=\"utf-8\"><title>loopgate check: {word}</title><style>{STYLE}</style>\
         <h1 class=\"{}\">loopgate check: {word}</h1><p>{}</p>",
        word.to_lowercase(),
        escape(&headline(o))
    );
    if !o.findings.is_empty() {
        let _ = write!(page, "<h2>Findings ({})</h2><ul>", o.findings.len());
        for f in &o.findings {
            let _ = write!(page, "<li>{}{}</li>", escape(&f.text), escape(&location(f)));
        }
        page.push_str("</ul>");
    }
    let _ = write!(
        page,
        "<h2>Tests ({})</h2><table><tr><th>test</th><th>base</th><th>head</th></tr>",
        escape(&counts(&o.tests))
    );
    for t in &o.tests {
        let _ = write!(
            page,
            "<tr class=\"{:?}\"><td>{}</td><td>{}</td><td>{}</td></tr>",
            t.verdict,
            escape(&t.name),
            t.base.unwrap_or("—"),
            verdict_word(t.verdict)
        );
    }
    page.push_str("</table>");
    for n in &o.notes {
        let _ = write!(page, "<p class=\"note\">{}</p>", escape(n));
    }
    if !o.output_tail.is_empty() {
        let _ = write!(
            page,
            "<h2>Verify output (last lines)</h2><pre>{}</pre>",
            escape(&o.output_tail)
        );
    }
    page.push('\n');
    page
}

const STYLE: &str = "body{font:14px system-ui,sans-serif;margin:24px;color:#222}.pass{color:#1a7f37}\
.fail{color:#cf222e}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}\
.Failed,.Missing{background:#ffebe9}.New{color:#666}pre{background:#f6f8fa;padding:8px;overflow:auto}";

/// A workflow command's message: `%`, CR and LF escaped (GitHub's rules).
fn escape_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A workflow command's property: as data, and `:` and `,` too.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// One `::error …::` line per finding (on the file and line where known) and per failed or missing test.
pub(crate) fn annotations(o: &Outcome) -> String {
    let mut out = String::new();
    for f in &o.findings {
        let mut props = Vec::new();
        if let Some(file) = &f.file {
            props.push(format!("file={}", escape_property(file)));
        }
        if let Some(line) = f.line {
            props.push(format!("line={line}"));
        }
        props.push("title=loopgate check".into());
        let _ = writeln!(out, "::error {}::{}", props.join(","), escape_data(&f.text));
    }
    out
}

/// `key=value` lines for `$GITHUB_OUTPUT`.
pub(crate) fn outputs(o: &Outcome, summary: Option<&std::path::Path>, html: Option<&std::path::Path>) -> String {
    let bad = |v: TestVerdict| o.tests.iter().filter(|t| t.verdict == v).count();
    let mut out = format!(
        "passed={}\nfindings={}\ntests={}\nfailed={}\nmissing={}\n",
        o.passed,
        o.findings.len(),
        o.tests.iter().filter(|t| t.base.is_some()).count(),
        bad(TestVerdict::Failed),
        bad(TestVerdict::Missing),
    );
    for (key, path) in [("summary", summary), ("report", html)] {
        if let Some(path) = path {
            let _ = writeln!(out, "{key}={}", path.display());
        }
    }
    out
}

/// What the terminal shows: the verdict, the headline, the findings, the counts.
pub(crate) fn text(o: &Outcome) -> String {
    let word = if o.passed { "PASS" } else { "FAIL" };
    let mut out = format!("loopgate check: {word}: {}\n", headline(o));
    for f in &o.findings {
        let _ = writeln!(out, "  - {}{}", f.text, location(f));
    }
    let _ = writeln!(out, "  tests: {}", counts(&o.tests));
    for n in &o.notes {
        let _ = writeln!(out, "  note: {n}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome() -> Outcome {
        Outcome {
            passed: false,
            base: "main".into(),
            base_commit: "0123456789abcdef".into(),
            head_commit: "fedcba9876543210".into(),
            head_dirty: false,
            verify: "pytest -q".into(),
            exit: Some(0),
            tests: vec![
                TestLine {
                    name: "t.py::test_a|b".into(),
                    base: Some("passed"),
                    verdict: TestVerdict::Missing,
                },
                TestLine {
                    name: "t.py::test_new".into(),
                    base: None,
                    verdict: TestVerdict::New,
                },
            ],
            findings: vec![Finding {
                text: "a skip marker, 50%: `@pytest.mark.skip`\nsecond".into(),
                file: Some("tests/a,b.py".into()),
                line: Some(7),
            }],
            notes: vec![],
            output_tail: "1 passed".into(),
        }
    }

    #[test]
    fn annotations_escape_githubs_special_characters_and_point_at_the_line() {
        let a = annotations(&outcome());
        assert_eq!(
            a,
            "::error file=tests/a%2Cb.py,line=7,title=loopgate check::a skip marker, 50%25: `@pytest.mark.skip`%0Asecond\n"
        );
    }

    #[test]
    fn the_summary_lists_every_test_by_verdict_and_every_finding() {
        let md = markdown(&outcome());
        assert!(md.starts_with("## loopgate check: FAIL"), "{md}");
        assert!(
            md.contains("| `t.py::test_a\\|b` | passed | MISSING (did not run) |"),
            "{md}"
        );
        assert!(md.contains("| `t.py::test_new` | — | new (decides nothing) |"), "{md}");
        assert!(md.contains("(`tests/a,b.py:7`)"), "{md}");
        assert!(
            md.contains("### Tests (1 of the base; 1 MISSING (did not run), 1 new"),
            "{md}"
        );
        let html = html(&outcome());
        assert!(html.contains("<td>t.py::test_a|b</td><td>passed</td>"), "{html}");
        let mut hostile = outcome();
        hostile.notes.push("<script>x</script>".into());
        let html = super::html(&hostile);
        assert!(html.contains("&lt;script&gt;x") && !html.contains("<script>"), "{html}");
        let out = outputs(&outcome(), None, Some(std::path::Path::new("r.html")));
        assert_eq!(
            out,
            "passed=false\nfindings=1\ntests=1\nfailed=0\nmissing=1\nreport=r.html\n"
        );
    }
}
