//! Issue 30 with the real client: held-out tests. A loop whose acceptance test the user keeps from the agent
//! rejects a fix fitted to the visible test's exact inputs (the visible test passes, the held-out one fails),
//! then completes on a general fix; the held-out file is back in the project at the end, and no request the
//! model received ever carried what the held-out test asserts — only its name.

use crate::harness::Project;
use crate::mock_api::Reply;
use crate::{assert_contains, assert_ended, promise, timer};

const VERIFY: &str = "python3 -m pytest -q -p no:cacheprovider";
/// Words only the held-out test holds: its assertion message and its expected value's comment.
const SECRET: &str = "HELDOUT_SECRET_7f3a";
const ACCEPTANCE: &str = "tests/acceptance/test_more.py";

#[test]
fn a_special_cased_fix_fails_the_held_out_test_and_a_general_fix_completes_without_the_model_seeing_it() {
    let _t = timer("held-out tests: special case rejected by name only, general fix completes");
    let project = Project::new();
    let acceptance = format!(
        "import calc\n\n\ndef test_add_large():\n    assert calc.add(10, 20) == 30, \"{SECRET}: ten plus twenty\"\n"
    );
    project
        .write("calc.py", "def add(a, b):\n    return a - b\n")
        .write(
            "tests/test_calc.py",
            "import calc\n\n\ndef test_add():\n    assert calc.add(1, 2) == 3\n",
        )
        .write(ACCEPTANCE, &acceptance);
    let run = project
        .session(format!(
            "/loopgate:pua-loop \"make add correct\" --verify '{VERIFY}' --holdout 'tests/acceptance/**' --max-iterations 6"
        ))
        .replies([
            // Looking for the acceptance test: it is not in the project.
            Reply::bash("ls tests; ls tests/acceptance 2>&1; cat tests/acceptance/*.py 2>&1; true"),
            // Fitted to the visible test's exact inputs.
            Reply::bash(
                "printf 'def add(a, b):\\n    if (a, b) == (1, 2):\\n        return 3\\n    return a - b\\n' > calc.py",
            ),
            promise(),
            Reply::bash("printf 'def add(a, b):\\n    return a + b\\n' > calc.py"),
            promise(),
        ])
        .run();
    let results = run.tool_results();
    assert!(
        results
            .first()
            .is_some_and(|(_, out)| out.contains("test_calc.py") && !out.contains("test_more.py")),
        "the held-out test is not in the project while the loop runs: {results:?}"
    );
    let feedback = run.stop_feedback();
    assert_eq!(feedback.len(), 1, "{}", run.describe());
    assert_contains(
        &feedback[0],
        "PROMISE REJECTED by the held-out tests",
        "the rejection",
        &run,
    );
    assert_contains(
        &feedback[0],
        "1 held-out test(s) failed or did not run.",
        "the rejection counts the held-out tests",
        &run,
    );
    assert_contains(&run.prompt_text(), "Held-out tests:", "the briefing", &run);
    // Nothing the held-out test says reached the model: not in any request the mock API received.
    for request in &run.requests {
        let body = request.body.to_string();
        assert!(
            !body.contains(SECRET)
                && !body.contains("ten plus twenty")
                && !body.contains("== 30")
                && !body.contains("test_add_large"),
            "a request carried the held-out test's assertion:\n{body}"
        );
    }
    assert_eq!(
        project.statuses().last().map(String::as_str),
        Some("complete"),
        "{}",
        run.describe()
    );
    assert_ended(&project, &run);
    assert_eq!(
        project.read(ACCEPTANCE),
        acceptance,
        "the held-out test is back, unchanged"
    );
}
