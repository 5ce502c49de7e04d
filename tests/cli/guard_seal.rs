//! The guard and the promise give one judgement (issue 33): for a table of edits, the PreToolUse guard allows
//! an edit exactly when the promise made after it accepts the tree (no sealed input moved). With `--seal
//! 'tests/**'` a sealed file is sealed whole; without it, an existing test file is sealed test by test.

use serde_json::{Value, json};

use crate::project::Project;

const PROMISE: &str = "<promise>LOOP_DONE</promise>";
const TEST: &str = "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n";

/// One edit: made through `tool` with `input` (paths relative to the project root), or written as `file`,
/// `text` when the guard lets it run.
struct Row {
    name: &'static str,
    seal: bool,
    tool: &'static str,
    input: Value,
    file: &'static str,
    text: String,
}

fn rows() -> Vec<Row> {
    let comment = TEST.replace("from calc import add\n", "from calc import add  # under test\n");
    let new_test = "from calc import add\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n".to_string();
    let edit_comment = json!({"file_path": "tests/test_calc.py", "old_string": "from calc import add\n",
        "new_string": "from calc import add  # under test\n"});
    let weaken = json!({"file_path": "tests/test_calc.py", "old_string": "== 3", "new_string": "== 4"});
    let fix = json!({"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"});
    let fixed = "def add(a, b):\n    return a + b\n".to_string();
    let write_new = json!({"file_path": "tests/test_zero.py", "content": new_test});
    let bash_comment = json!({"command": "printf '# note\\n' >> tests/test_calc.py"});
    let row = |name, seal, tool, input: &Value, file, text: &String| Row {
        name,
        seal,
        tool,
        input: input.clone(),
        file,
        text: text.clone(),
    };
    vec![
        row(
            "seal: Edit adds a comment to a sealed test",
            true,
            "Edit",
            &edit_comment,
            "tests/test_calc.py",
            &comment,
        ),
        row(
            "seal: Bash adds a comment",
            true,
            "Bash",
            &bash_comment,
            "tests/test_calc.py",
            &format!("{TEST}# note\n"),
        ),
        row(
            "seal: Write of a new file under the glob",
            true,
            "Write",
            &write_new,
            "tests/test_zero.py",
            &new_test,
        ),
        row(
            "seal: Edit of the code under test",
            true,
            "Edit",
            &fix,
            "calc.py",
            &fixed,
        ),
        row(
            "tests: Edit adds a comment beside the tests",
            false,
            "Edit",
            &edit_comment,
            "tests/test_calc.py",
            &comment,
        ),
        row(
            "tests: Edit weakens a sealed test",
            false,
            "Edit",
            &weaken,
            "tests/test_calc.py",
            &TEST.replace("== 3", "== 4"),
        ),
        row(
            "tests: Write of a new test file",
            false,
            "Write",
            &write_new,
            "tests/test_zero.py",
            &new_test,
        ),
        row(
            "tests: Edit of the code under test",
            false,
            "Edit",
            &fix,
            "calc.py",
            &fixed,
        ),
    ]
}

/// A pytest project whose one test fails until `calc.add` adds.
fn project(seal: bool) -> Project {
    let p = Project::new()
        .file("calc.py", "def add(a, b):\n    return a - b\n")
        .file("tests/test_calc.py", TEST);
    let seal = if seal { " --seal 'tests/**'" } else { "" };
    p.setup("S", &format!("\"make add add\" --verify 'python3 -m pytest -q'{seal}"));
    p
}

/// The input with its `file_path` made absolute, as Claude Code sends it.
fn absolute(p: &Project, input: &Value) -> Value {
    let mut input = input.clone();
    if let Some(path) = input.get("file_path").and_then(Value::as_str) {
        input["file_path"] = json!(p.path(path));
    }
    input
}

#[test]
fn the_guard_allows_an_edit_exactly_when_the_promise_accepts_it() {
    let mut disagree = Vec::new();
    for row in rows() {
        let p = project(row.seal);
        let out = p.tool_call("S", row.tool, absolute(&p, &row.input));
        out.success();
        let denied = out.stdout.contains("\"deny\"");
        // The edit is made whatever the guard said (as a script it cannot see would make it).
        p.write(row.file, &row.text);
        let block = p.stop("S", PROMISE);
        let rejected = p
            .history()
            .iter()
            .rev()
            .any(|record| record.get("sealed_changes").is_some_and(|c| !c.is_null()));
        if denied != rejected {
            disagree.push(format!(
                "{}: guard {}, promise {}\n{}\n{}",
                row.name,
                if denied { "denied" } else { "allowed" },
                if rejected { "rejected" } else { "accepted" },
                out.stdout,
                block.stdout
            ));
        }
        if denied {
            // The denial's advice works for that file: no `git checkout` outside git, `rm` for a new file.
            let reason = out.deny_reason();
            assert!(!reason.contains("git checkout"), "{}: {reason}", row.name);
            assert!(
                !(row.seal && reason.contains("yours to change")),
                "{}: {reason}",
                row.name
            );
            if row.file == "tests/test_zero.py" {
                assert!(reason.contains("`rm -- tests/test_zero.py`"), "{}: {reason}", row.name);
            }
        }
    }
    assert!(disagree.is_empty(), "{}", disagree.join("\n\n"));
}
