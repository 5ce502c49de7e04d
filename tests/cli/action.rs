//! Issue 44: the GitHub Action and the best-of-N workflow. Their YAML is parsed and checked for what GitHub
//! would only find at run time (a step output or input that does not exist, a `run` step without a shell, a
//! job that needs one that is not there); and the Action's steps are run in order, locally, by
//! `scripts/action-local.py` with GitHub's environment set, on a real repository: the summary, the outputs, the
//! annotations and the uploaded report are checked.

use std::collections::BTreeSet;
use std::path::Path;

use regex::Regex;
use serde_json::Value;

use crate::check::{TESTS, commit, repo};
use crate::project::Project;

fn yaml(rel: &str) -> (String, Value) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let value: Value = yaml_serde::from_str(&text).unwrap_or_else(|e| panic!("{rel} is not YAML: {e}"));
    (text, value)
}

fn keys(value: &Value) -> BTreeSet<String> {
    value
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default()
}

/// Every `${{ … }}` reference of the form `PREFIX.NAME` (with `-` and `_` in names) in `text`.
fn references(text: &str, pattern: &str) -> BTreeSet<(String, String)> {
    let re = Regex::new(pattern).expect("regex");
    re.captures_iter(text)
        .map(|c| {
            (
                c[1].to_string(),
                c.get(2).map_or(String::new(), |m| m.as_str().to_string()),
            )
        })
        .collect()
}

#[test]
fn the_actions_yaml_is_a_composite_action_whose_references_all_exist() {
    let (text, action) = yaml("action.yml");
    assert_eq!(action["runs"]["using"], "composite");
    let steps = action["runs"]["steps"].as_array().expect("steps");
    let ids: BTreeSet<String> = steps
        .iter()
        .filter_map(|s| s["id"].as_str().map(String::from))
        .collect();
    for step in steps {
        if step.get("run").is_some() {
            assert_eq!(step["shell"], "bash", "a composite `run` step needs a shell: {step}");
        } else {
            assert!(step["uses"].as_str().is_some_and(|u| u.contains('@')), "pinned: {step}");
        }
    }
    for (id, output) in references(&text, r"steps\.([\w-]+)\.outputs\.([\w-]+)") {
        assert!(ids.contains(&id), "step `{id}` (for `{output}`) does not exist");
    }
    let inputs = keys(&action["inputs"]);
    for (input, _) in references(&text, r"inputs\.([\w-]+)()") {
        assert!(inputs.contains(&input), "input `{input}` is not declared");
    }
    for name in ["passed", "exit", "findings", "tests", "failed", "missing", "report"] {
        assert!(action["outputs"][name]["value"].is_string(), "output `{name}`");
    }
}

#[test]
fn the_best_of_n_workflow_is_reusable_and_its_jobs_fit_together() {
    let (text, workflow) = yaml(".github/workflows/loopgate-best-of-n.yml");
    let call = &workflow["on"]["workflow_call"];
    assert!(call.is_object(), "a reusable workflow: on.workflow_call");
    let jobs = keys(&workflow["jobs"]);
    assert_eq!(jobs, ["candidate", "emit", "rank"].map(String::from).into());
    for (job, output) in references(&text, r"needs\.([\w-]+)\.outputs\.([\w-]+)") {
        assert!(
            workflow["jobs"][&job]["outputs"][&output].is_string(),
            "`needs.{job}.outputs.{output}` is not an output of job `{job}`"
        );
    }
    for (job, output) in references(&text, r"jobs\.([\w-]+)\.outputs\.([\w-]+)") {
        assert!(
            workflow["jobs"][&job]["outputs"][&output].is_string(),
            "jobs.{job}.outputs.{output}"
        );
    }
    let inputs = keys(&call["inputs"]);
    for (input, _) in references(&text, r"inputs\.([\w-]+)()") {
        assert!(inputs.contains(&input), "input `{input}` is not declared");
    }
    for job in &jobs {
        let steps = workflow["jobs"][job]["steps"].as_array().expect("steps");
        let ids: BTreeSet<String> = steps
            .iter()
            .filter_map(|s| s["id"].as_str().map(String::from))
            .collect();
        let steps_text = yaml_serde::to_string(&workflow["jobs"][job]).expect("yaml");
        for (id, _) in references(&steps_text, r"steps\.([\w-]+)\.outputs\.([\w-]+)") {
            assert!(ids.contains(&id), "job `{job}`: step `{id}` does not exist");
        }
        if let Some(needs) = workflow["jobs"][job]["needs"].as_array() {
            for need in needs.iter().filter_map(Value::as_str) {
                assert!(jobs.contains(need), "job `{job}` needs `{need}`");
            }
        }
    }
    // The three commands the workflow runs are the ones `loopgate run` has.
    for flag in ["--emit-matrix", "--oracle", "--collect"] {
        assert!(text.contains(&format!("loopgate run {flag}")), "{flag}");
    }
    assert_eq!(
        workflow["jobs"]["candidate"]["strategy"]["matrix"],
        "${{ fromJSON(needs.emit.outputs.matrix) }}"
    );
}

/// Runs the Action's steps in order on `p` with GitHub's environment (`GITHUB_BASE_REF=main`, so the base is
/// `origin/main`); the script's JSON.
fn run_action(p: &Project) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/action-local.py");
    let artifacts = p.outside("artifacts");
    let out = p
        .sh(&format!(
            "git update-ref refs/remotes/origin/main main && python3 '{}' --workspace . --base-ref main --input install=\"$LOOPGATE\" --artifacts '{}'",
            script.display(),
            artifacts.display()
        ))
        .run();
    assert_eq!(out.code, Some(0), "the script itself ran: {out}");
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("JSON: {e}\n{out}"))
}

#[test]
fn the_actions_steps_run_in_order_with_githubs_environment() {
    let p = repo();
    p.write("calc.py", crate::check::CALC.replace("return a + b", "return b + a"));
    commit(&p);
    let ran = run_action(&p);
    assert_eq!(ran["exit"], 0, "{ran:#}");
    let outputs = &ran["outputs"];
    assert_eq!(outputs["passed"], "true", "{ran:#}");
    assert_eq!(outputs["exit"], "0", "{ran:#}");
    assert_eq!(outputs["tests"], "3", "{ran:#}");
    assert_eq!(outputs["findings"], "0", "{ran:#}");
    assert!(
        outputs["report"]
            .as_str()
            .is_some_and(|r| r.ends_with("loopgate-report.html")),
        "{ran:#}"
    );
    let summary = ran["summary"].as_str().unwrap_or_default();
    assert!(summary.starts_with("## loopgate check: PASS"), "{summary}");
    assert!(summary.contains("against base `origin/main`"), "{summary}");
    assert!(
        summary.contains("| `tests/test_calc.py::test_neg` | passed | passed |"),
        "{summary}"
    );
    assert_eq!(ran["artifacts"][0], "loopgate-report/loopgate-report.html", "{ran:#}");

    // A head that skips a base test: the job fails, the summary and the annotation name it, the report is
    // uploaded all the same.
    let p = repo();
    p.write(
        "tests/test_calc.py",
        format!(
            "import pytest\n{}",
            TESTS.replace("def test_neg", "@pytest.mark.skip\ndef test_neg")
        ),
    );
    commit(&p);
    let ran = run_action(&p);
    assert_eq!(ran["exit"], 1, "{ran:#}");
    assert_eq!(ran["outputs"]["passed"], "false", "{ran:#}");
    assert_eq!(ran["outputs"]["exit"], "1", "{ran:#}");
    let summary = ran["summary"].as_str().unwrap_or_default();
    assert!(summary.starts_with("## loopgate check: FAIL"), "{summary}");
    assert!(summary.contains("skip marker added"), "{summary}");
    let stdout = ran["stdout"].as_str().unwrap_or_default();
    assert!(
        stdout.contains("::error file=tests/test_calc.py,line=13,title=loopgate check::"),
        "the annotation points at the skip's line: {stdout}"
    );
    assert_eq!(ran["artifacts"][0], "loopgate-report/loopgate-report.html", "{ran:#}");
}
