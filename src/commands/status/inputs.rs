//! The oracle's sealed inputs in `loopgate status`: which checks are on, and every sealed input by where it
//! comes from (user glob, derived, observed, test, test data) and why (`inputs::Inputs::describe`). Read from
//! the seal and its companion files, never from the state file.

use serde_json::{Value, json};

use crate::closure::observed::Tracing;
use crate::inputs::{Described, Inputs};
use crate::schema::{Check, Source};
use crate::seal::Seal;

/// The `oracle_inputs` object of `status --json`: the checks, every sealed file (`inputs`, each with its
/// `source` and `why`), the derived closure alone (`closure`, as before), how the baseline was traced
/// (`observed`) and how many test files are sealed.
pub(super) fn report(seal: &Seal, inputs: &Inputs) -> Value {
    let f = &seal.fields;
    let described = inputs.describe(&|check| f.checks(check));
    let closure: Vec<Value> = described
        .iter()
        .filter(|d| d.source == Source::Derived)
        .map(file)
        .collect();
    let observed = match inputs.observed.as_ref().map(|o| (o, &o.tracing)) {
        Some((o, Tracing::Traced { events })) => json!({
            "tracing": "traced",
            "events": events,
            "files": described.iter().filter(|d| d.source == Source::Observed).map(file).collect::<Vec<_>>(),
            "searched_dirs": o.searched.len(),
            "used_modules": o.used.len(),
        }),
        Some((_, Tracing::Unavailable { why })) => json!({ "tracing": "unavailable", "why": why }),
        _ => json!({ "tracing": "not_run" }),
    };
    json!({
        "checks": {
            "closure": f.checks(Check::Closure),
            "tests": f.checks(Check::Tests),
            "counts": f.checks(Check::Counts),
            "skips": f.checks(Check::Skips),
            "test_awareness": f.checks(Check::TestAwareness),
        },
        "inputs": described.iter().map(file).collect::<Vec<_>>(),
        "closure": closure,
        "observed": observed,
        "test_files": inputs.tests.names.len(),
    })
}

/// One sealed file in the JSON: path, source, which parts are sealed, why, and whether it existed.
fn file(d: &Described) -> Value {
    let why = match &d.why {
        Some(why) => crate::messages::breach::why(crate::schema::Speech::En, why),
        None => source_why(d.source).to_string(),
    };
    json!({
        "path": d.path,
        "source": d.source,
        "sealed": if d.parts.is_empty() { json!("whole") } else { json!(d.parts) },
        "why": why,
        "exists": d.exists,
    })
}

/// Why a file of a source that says it alone is sealed.
fn source_why(source: Source) -> &'static str {
    match source {
        Source::UserGlob => "a `--seal` glob matches it",
        Source::Test => "it holds existing tests, sealed test by test",
        Source::TestData => "test data: the oracle's run uses it as sealed",
        Source::Code => "code under test: new traces of the test run in it are rejected",
        Source::Derived | Source::Observed => "",
    }
}

/// The lines `status` prints for the inputs, one block per source (none when no check applies).
pub(super) fn render(report: &Value) -> String {
    let mut out = String::new();
    let off: Vec<&str> = report
        .pointer("/checks")
        .and_then(Value::as_object)
        .map(|checks| {
            checks
                .iter()
                .filter(|(_, on)| on.as_bool() == Some(false))
                .map(|(name, _)| name.as_str())
                .collect()
        })
        .unwrap_or_default();
    if !off.is_empty() {
        out.push_str(&format!("\n  checks off:  {} (opted out at setup)", off.join(", ")));
    }
    let files = report
        .pointer("/closure")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if report.pointer("/checks/closure").and_then(Value::as_bool) != Some(false) {
        out.push_str(&render_derived(&files));
        out.push_str(&render_observed(report));
    }
    out.push_str(&render_tests(report));
    out
}

/// The `derived:` block: each existing file of the derived closure with its sealed parts and why, then how
/// many must stay absent.
fn render_derived(files: &[Value]) -> String {
    let mut out = String::new();
    let (mut existing, absent): (Vec<&Value>, Vec<&Value>) = files
        .iter()
        .partition(|f| f.get("exists").and_then(Value::as_bool) == Some(true));
    // The project's own files first, then those outside it (`~/.npmrc`).
    existing.sort_by_key(|f| {
        f.get("path")
            .and_then(Value::as_str)
            .is_some_and(|p| p.starts_with('/'))
    });
    let label = |first: bool| if first { "  derived:     " } else { "               " };
    for (i, file) in existing.iter().enumerate() {
        let path = file.get("path").and_then(Value::as_str).unwrap_or("?");
        let parts = match file.get("sealed") {
            Some(Value::Array(parts)) => {
                let names: Vec<&str> = parts.iter().filter_map(Value::as_str).collect();
                format!(" [{}]", names.join(", "))
            }
            _ => String::new(),
        };
        let why = file.get("why").and_then(Value::as_str).unwrap_or("");
        out.push_str(&format!("\n{}{path}{parts} — {why}", label(i == 0)));
    }
    if !absent.is_empty() {
        out.push_str(&format!(
            "\n{}+ {} configuration file(s) that must stay absent (`loopgate status --json` lists them)",
            label(existing.is_empty()),
            absent.len()
        ));
    }
    out
}

/// The `observed:` line: what the traced baseline run sealed, or why the derived closure stands alone.
fn render_observed(report: &Value) -> String {
    let label = "\n  observed:    ";
    match report.pointer("/observed/tracing").and_then(Value::as_str) {
        Some("traced") => {
            let files = report
                .pointer("/observed/files")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let present = files
                .iter()
                .filter(|f| f.get("exists").and_then(Value::as_bool) == Some(true))
                .count();
            let searched = report
                .pointer("/observed/searched_dirs")
                .and_then(Value::as_u64)
                .unwrap_or(0);
            format!(
                "{label}{present} file(s) the baseline run read or ran, {} it looked for (must stay absent), {searched} searched director(ies) — traced with strace (`status --json` lists them)",
                files.len() - present
            )
        }
        Some("unavailable") => {
            let why = report.pointer("/observed/why").and_then(Value::as_str).unwrap_or("?");
            format!("{label}not traced ({why}): the derived closure only")
        }
        _ => format!("{label}no traced baseline run (`--no-baseline`): the derived closure only"),
    }
}

/// The `tests:` line: the existing tests sealed test by test, and the test data that stands as sealed.
fn render_tests(report: &Value) -> String {
    let count = |pointer: &str| report.pointer(pointer).and_then(Value::as_u64).unwrap_or(0);
    let files = count("/test_files");
    let data = report.pointer("/inputs").and_then(Value::as_array).map_or(0, |all| {
        all.iter()
            .filter(|f| f.get("source").and_then(Value::as_str) == Some("test_data"))
            .count()
    });
    if files == 0 && data == 0 {
        return String::new();
    }
    let mut said = Vec::new();
    if files > 0 {
        said.push(format!("{files} test file(s), sealed test by test"));
    }
    if data > 0 {
        said.push(format!("{data} test data file(s) stand as sealed in the oracle's run"));
    }
    let line = format!("\n  tests:       {}", said.join("; "));
    line
}
