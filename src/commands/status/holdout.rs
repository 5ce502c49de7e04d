//! `loopgate status`'s part on held-out tests (see `crate::holdout`): whether the loop has them, how many,
//! where they wait, what setup's run found, and how the last run at a promise ended — with the path of its
//! private log, which only the user reads.

use std::path::PathBuf;

use serde::Serialize;

use crate::schema::Holdout;

/// The `holdout` object of `status --json`.
#[derive(Debug, Serialize)]
pub(super) struct HoldoutReport {
    files: usize,
    /// The project paths moved out of the tree.
    moved: Vec<String>,
    /// How many files were copied from outside the project.
    copied: usize,
    sources: Vec<String>,
    /// Where they wait.
    store: PathBuf,
    /// Held-out files git's history still holds.
    in_git: Vec<String>,
    at_setup: Option<AtSetup>,
    last: Option<LastReport>,
}

/// The held-out run at setup.
#[derive(Debug, Serialize)]
struct AtSetup {
    tests: usize,
    failed: usize,
    exit: Option<i32>,
}

/// The last held-out run at a promise.
#[derive(Debug, Serialize)]
struct LastReport {
    iteration: u64,
    passed: bool,
    /// Cut as the model reads them: the agent may run `status` too (the full names are in the log).
    failing: Vec<String>,
    duration_ms: u64,
    log: PathBuf,
}

/// The held-out tests of a loop's report.
pub(super) fn report(holdout: &Holdout) -> HoldoutReport {
    let at_setup = crate::holdout::load_baseline(holdout).map(|b| AtSetup {
        tests: b.results.len(),
        failed: b.failing().len(),
        exit: b.exit,
    });
    let last = crate::holdout::load_last(holdout).map(|last| LastReport {
        iteration: last.iteration,
        passed: last.passed,
        failing: last
            .failing
            .iter()
            .map(|name| crate::messages::holdout::without_cases(name))
            .collect(),
        duration_ms: last.duration_ms,
        log: last.log,
    });
    HoldoutReport {
        files: holdout.len(),
        moved: holdout.moved.keys().cloned().collect(),
        copied: holdout.copied.len(),
        sources: holdout.sources.clone(),
        store: holdout.dir.clone(),
        in_git: holdout.in_git.clone(),
        at_setup,
        last,
    }
}

/// The text lines of the `holdout` object.
pub(super) fn render(v: &HoldoutReport) -> String {
    let mut out = format!(
        "\n  held out:    {} file(s) kept from the agent ({}), waiting in {}",
        v.files,
        v.sources.join(", "),
        v.store.display()
    );
    if let Some(setup) = &v.at_setup {
        out.push_str(&format!(
            "\n               at setup: {} held-out test(s) ran, {} failed",
            setup.tests, setup.failed
        ));
    }
    if !v.in_git.is_empty() {
        out.push_str(&format!(
            "\n               git history holds {}: readable from git objects; keep such tests outside the project",
            v.in_git.join(", ")
        ));
    }
    out.push_str(&match &v.last {
        None => "\n  held-out run: not yet (runs after the verify passes at a promise)".to_string(),
        Some(last) => {
            let how = if last.passed {
                "pass".to_string()
            } else if last.failing.is_empty() {
                "fail (no test named)".to_string()
            } else {
                format!("fail ({})", last.failing.join(", "))
            };
            format!(
                "\n  held-out run: iteration {}: {how}, {:.1}s; full log (yours only): {}",
                last.iteration,
                last.duration_ms as f64 / 1000.0,
                last.log.display()
            )
        }
    });
    out
}
