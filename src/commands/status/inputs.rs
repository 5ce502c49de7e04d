//! The oracle's sealed inputs in `loopgate status`: which checks are on, and the verify command's closure
//! (each file, the parts of it that are sealed, and why). Read from the seal, never from the state file.

use serde_json::{Value, json};

use crate::closure::Closure;
use crate::closure::observed::{Observed, Tracing};
use crate::schema::Check;
use crate::seal::Seal;

/// The `oracle_inputs` object of `status --json`; `observed` is what the traced baseline run used, if any.
pub fn report(seal: &Seal, observed: Option<&Observed>) -> Value {
    let f = &seal.fields;
    let closure = seal.closure.as_ref().map(closure_files).unwrap_or_default();
    let observed = match observed.map(|o| (o, &o.tracing)) {
        Some((o, Tracing::Traced { events })) => json!({
            "tracing": "traced",
            "events": events,
            "files": closure_files(&o.closure),
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
        },
        "closure": closure,
        "observed": observed,
        "test_files": seal.test_files.len(),
    })
}

fn closure_files(closure: &Closure) -> Vec<Value> {
    closure
        .files
        .iter()
        .map(|file| {
            let labels = file.scope.labels();
            json!({
                "path": file.path,
                "sealed": if labels.is_empty() { json!("whole") } else { json!(labels) },
                "why": crate::messages::breach::why(crate::schema::Speech::En, &file.why),
                "exists": !file.parts.is_empty(),
            })
        })
        .collect()
}

/// The lines `status` prints for the inputs (none when no check applies).
pub fn render(report: &Value) -> String {
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
    if report.pointer("/checks/closure").and_then(Value::as_bool) == Some(false) {
        return out;
    }
    let (mut existing, absent): (Vec<&Value>, Vec<&Value>) = files
        .iter()
        .partition(|f| f.get("exists").and_then(Value::as_bool) == Some(true));
    // The project's own files first, then those outside it (`~/.npmrc`).
    existing.sort_by_key(|f| {
        f.get("path")
            .and_then(Value::as_str)
            .is_some_and(|p| p.starts_with('/'))
    });
    for (i, file) in existing.iter().enumerate() {
        let label = if i == 0 { "  closure:     " } else { "               " };
        let path = file.get("path").and_then(Value::as_str).unwrap_or("?");
        let parts = match file.get("sealed") {
            Some(Value::Array(parts)) => {
                let names: Vec<&str> = parts.iter().filter_map(Value::as_str).collect();
                format!(" [{}]", names.join(", "))
            }
            _ => String::new(),
        };
        let why = file.get("why").and_then(Value::as_str).unwrap_or("");
        out.push_str(&format!("\n{label}{path}{parts} — {why}"));
    }
    if !absent.is_empty() {
        let label = if existing.is_empty() {
            "  closure:     "
        } else {
            "               "
        };
        out.push_str(&format!(
            "\n{label}+ {} configuration file(s) that must stay absent (`loopgate status --json` lists them)",
            absent.len()
        ));
    }
    out.push_str(&render_observed(report));
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
