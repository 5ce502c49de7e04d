//! What a check found, as one typed value: every base test with its verdict, every finding (with the file and
//! line it points at where there is one), and whether the head passed. The Markdown summary, the JSON, the HTML
//! report and GitHub's annotations and outputs are renderers of it (`render`).

use serde::Serialize;

use crate::oracle::{Breach, Run, Verdict};
use crate::readout::{TestOutcome, TestResults};
use crate::schema::Speech;
use crate::testjudge::baseline::Baseline;

/// How one base test fared on the head.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum TestVerdict {
    /// Passed on the head (whatever it did at the base).
    Passed,
    /// Ran on the head and failed.
    Failed,
    /// Did not run on the head: deleted, renamed, skipped or deselected.
    Missing,
    /// Not judged: the verify command did not run (the oracle's inputs moved), or no test was reported by name.
    NotJudged,
    /// New on the head: not a base test, so it decides nothing (listed so a reviewer sees it).
    New,
}

/// One test of the summary.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct TestLine {
    pub(crate) name: String,
    /// How it ended at the base: `passed` / `failed`; `None` for a test new on the head.
    pub(crate) base: Option<&'static str>,
    pub(crate) verdict: TestVerdict,
}

/// Something the check found wrong, pointing at a file and line where it knows them.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Finding {
    pub(crate) text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) line: Option<u32>,
}

/// The whole result of a check.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Outcome {
    pub(crate) passed: bool,
    /// The base as named, and its commit.
    pub(crate) base: String,
    pub(crate) base_commit: String,
    /// The head's commit (`HEAD` of the checkout), and whether the checkout had changes on top of it.
    pub(crate) head_commit: String,
    pub(crate) head_dirty: bool,
    pub(crate) verify: String,
    /// The verify command's exit code on the head (`None`: it did not run, or was killed or timed out).
    pub(crate) exit: Option<i32>,
    pub(crate) tests: Vec<TestLine>,
    pub(crate) findings: Vec<Finding>,
    /// What a reader should know that is not a finding (an ignored `.loopgate.toml` edit, tests that sat out).
    pub(crate) notes: Vec<String>,
    /// The last lines of the verify command's output on the head.
    pub(crate) output_tail: String,
}

/// Lines of the verify output kept in the outcome.
const TAIL_LINES: usize = 40;

/// What the loop's oracle said about the head, before the facts of the check (base, head) are added.
pub(crate) struct Judgement {
    pub(crate) passed: bool,
    pub(crate) exit: Option<i32>,
    pub(crate) tests: Vec<TestLine>,
    pub(crate) findings: Vec<Finding>,
    pub(crate) notes: Vec<String>,
    pub(crate) output_tail: String,
}

impl Judgement {
    /// Reads the oracle's verdict on the head against the base's `baseline`.
    pub(crate) fn of(verdict: &Verdict, baseline: Option<&Baseline>) -> Judgement {
        match verdict {
            Verdict::Honor => Judgement {
                passed: false,
                exit: None,
                tests: tests(baseline, None),
                findings: vec![Finding {
                    text: "no verify command was sealed, so nothing judged the head".into(),
                    file: None,
                    line: None,
                }],
                notes: Vec::new(),
                output_tail: String::new(),
            },
            Verdict::SealBroken(breach) => Judgement {
                passed: false,
                exit: None,
                tests: tests(baseline, None),
                findings: breach_findings(breach),
                notes: vec![
                    "the verify command did not run on the head: what it depends on moved (the findings), so no test was judged".into(),
                ],
                output_tail: String::new(),
            },
            Verdict::Pass(run) | Verdict::Fail(run) => of_run(run, baseline, matches!(verdict, Verdict::Pass(_))),
        }
    }
}

fn of_run(run: &Run, baseline: Option<&Baseline>, passed: bool) -> Judgement {
    let tests = tests(baseline, Some(&run.results));
    // Every base test the head did not hold, by name, whatever else failed: a failing command's tests too.
    let mut findings: Vec<Finding> = tests
        .iter()
        .filter_map(|t| {
            let how = match t.verdict {
                TestVerdict::Failed => "failed",
                TestVerdict::Missing => "did not run (deleted, renamed, skipped or deselected)",
                _ => return None,
            };
            Some(Finding {
                text: format!("base test `{}` {how} on the head", t.name),
                file: None,
                line: None,
            })
        })
        .collect();
    if !run.outcome.passed() {
        let how = run.result_text(Speech::En);
        let summary = run.summary.text.trim();
        let text = if summary.is_empty() {
            format!("the verify command `{}` failed ({how})", run.command)
        } else {
            format!("the verify command `{}` failed ({how}): {summary}", run.command)
        };
        findings.push(Finding {
            text: text.replace('\n', " "),
            file: None,
            line: None,
        });
    }
    if !passed && let Some(note) = &run.note {
        findings.push(Finding {
            text: note.replace('\n', " "),
            file: None,
            line: None,
        });
    }
    if !passed && findings.is_empty() {
        findings.push(Finding {
            text: format!("the verify command `{}` did not pass", run.command),
            file: None,
            line: None,
        });
    }
    let mut notes = Vec::new();
    if !run.sat_out.is_empty() {
        notes.push(format!(
            "new test files of the head sat out the run (they are the change's, not the base's): {}",
            run.sat_out.join(", ")
        ));
    }
    Judgement {
        passed,
        exit: run.outcome.exit_code,
        tests,
        findings,
        notes,
        output_tail: run.outcome.tail_text(TAIL_LINES).trim_end().to_string(),
    }
}

/// Every base test with its verdict on the head (`now`: the head run's results; `None` when it did not run),
/// then the head's new tests.
fn tests(baseline: Option<&Baseline>, now: Option<&TestResults>) -> Vec<TestLine> {
    let word = |o: TestOutcome| match o {
        TestOutcome::Passed => "passed",
        TestOutcome::Failed => "failed",
    };
    let base = baseline.map(|b| &b.results.tests);
    let judged = now.filter(|n| !n.is_empty());
    let mut lines: Vec<TestLine> = base
        .into_iter()
        .flatten()
        .map(|(name, &was)| TestLine {
            name: name.clone(),
            base: Some(word(was)),
            verdict: match judged.map(|n| n.get(name)) {
                None => TestVerdict::NotJudged,
                Some(Some(TestOutcome::Passed)) => TestVerdict::Passed,
                Some(Some(TestOutcome::Failed)) => TestVerdict::Failed,
                Some(None) => TestVerdict::Missing,
            },
        })
        .collect();
    if let Some(now) = judged {
        lines.extend(
            now.tests
                .keys()
                .filter(|name| base.is_none_or(|b| !b.contains_key(*name)))
                .map(|name| TestLine {
                    name: name.clone(),
                    base: None,
                    verdict: TestVerdict::New,
                }),
        );
    }
    lines
}

/// One finding per moved input, with the file and (for a test) the line.
fn breach_findings(breach: &Breach) -> Vec<Finding> {
    breach
        .lines(Speech::En)
        .into_iter()
        .zip(&breach.moves)
        .map(|(text, moved)| Finding {
            text: text.replace('\n', " "),
            file: Some(moved.path().to_string()).filter(|p| !p.starts_with('/')),
            line: match moved {
                crate::inputs::Move::Test(test) => test.finding.line(),
                _ => None,
            },
        })
        .collect()
}
