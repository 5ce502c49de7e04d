//! `loopgate status`'s part on held-out tests (see `crate::holdout`): whether the loop has them, how many,
//! where they wait, what setup's run found, and how the last run at a promise ended — with the path of its
//! private log, which only the user reads.

use serde_json::{Value, json};

use crate::schema::Holdout;

/// The `holdout` object of `status --json`.
pub(super) fn report(holdout: &Holdout) -> Value {
    let setup = crate::holdout::load_baseline(holdout).map(|b| {
        json!({
            "tests": b.results.len(),
            "failed": b.failing().len(),
            "exit": b.exit,
        })
    });
    let last = crate::holdout::load_last(holdout).map(|last| {
        json!({
            "iteration": last.iteration,
            "passed": last.passed,
            // Cut as the model reads them: the agent may run `status` too (the full names are in the log).
            "failing": last.failing.iter().map(|name| crate::messages::holdout::without_cases(name)).collect::<Vec<_>>(),
            "duration_ms": last.duration_ms,
            "log": last.log,
        })
    });
    json!({
        "files": holdout.len(),
        "moved": holdout.moved.keys().collect::<Vec<_>>(),
        "copied": holdout.copied.len(),
        "sources": holdout.sources,
        "store": holdout.dir,
        "in_git": holdout.in_git,
        "at_setup": setup,
        "last": last,
    })
}

/// The text lines of the `holdout` object.
pub(super) fn render(v: &Value) -> String {
    let list = |key: &str| {
        v[key]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(", "))
            .unwrap_or_default()
    };
    let mut out = format!(
        "\n  held out:    {} file(s) kept from the agent ({}), waiting in {}",
        v["files"].as_u64().unwrap_or(0),
        list("sources"),
        v["store"].as_str().unwrap_or_default()
    );
    if let Some(setup) = v["at_setup"].as_object() {
        out.push_str(&format!(
            "\n               at setup: {} held-out test(s) ran, {} failed",
            setup["tests"].as_u64().unwrap_or(0),
            setup["failed"].as_u64().unwrap_or(0)
        ));
    }
    let in_git = list("in_git");
    if !in_git.is_empty() {
        out.push_str(&format!(
            "\n               git history holds {in_git}: readable from git objects; keep such tests outside the project"
        ));
    }
    out.push_str(&match v["last"].as_object() {
        None => "\n  held-out run: not yet (runs after the verify passes at a promise)".to_string(),
        Some(last) => {
            let how = if last["passed"] == true {
                "pass".to_string()
            } else {
                let failing: Vec<&str> = last["failing"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                format!(
                    "fail ({})",
                    if failing.is_empty() {
                        "no test named".to_string()
                    } else {
                        failing.join(", ")
                    }
                )
            };
            format!(
                "\n  held-out run: iteration {}: {how}, {:.1}s; full log (yours only): {}",
                last["iteration"].as_u64().unwrap_or(0),
                last["duration_ms"].as_u64().unwrap_or(0) as f64 / 1000.0,
                last["log"].as_str().unwrap_or_default()
            )
        }
    });
    out
}
