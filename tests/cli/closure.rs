//! The verify command's closure (issue 11): the files that define what it runs are sealed at setup, a promise
//! made after one of them moved is rejected before the verify runs, honest edits elsewhere pass, the guard
//! judges edits to partly sealed files on their content, and only the user accepts a change (`loopgate allow`).

use serde_json::json;

use crate::project::{Project, assert_has};

const PROMISE: &str = "<promise>LOOP_DONE</promise>";
/// `npm test` runs `sh check.sh`, which passes once `done.txt` exists and leaves `verify-ran` behind.
const PACKAGE: &str = r#"{"name": "app", "version": "1.0.0", "scripts": {"test": "sh check.sh", "lint": "true"}}"#;
const CHECK: &str = "touch verify-ran\ntest -f done.txt || { echo 'FAIL: done.txt is missing'; exit 1; }\n";

fn npm_project() -> Project {
    let p = Project::new()
        .in_project_tree()
        .file("package.json", PACKAGE)
        .file("check.sh", CHECK);
    p.setup("S", "\"make the check pass\" --verify 'npm test --silent'");
    // The baseline ran the check once at setup; what the tests ask is whether a stop runs it again.
    assert!(p.exists("verify-ran"), "the baseline runs the verify command at setup");
    std::fs::remove_file(p.path("verify-ran")).expect("remove the baseline's marker");
    p
}

/// A PreToolUse call of `tool` with `input`.
fn tool(p: &Project, tool: &str, input: serde_json::Value) -> crate::project::Output {
    p.hook(
        "pre-tool-use",
        &json!({"session_id": "S", "cwd": p.root(), "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input}),
    )
}

#[test]
fn editing_the_npm_test_script_is_rejected_before_the_verify_runs() {
    let p = npm_project();
    p.write("package.json", PACKAGE.replace("sh check.sh", "exit 0"));
    let block = p.stop("S", PROMISE).blocked();
    assert_has(
        &block.reason,
        "- `package.json`: `scripts.test` changed (it configures `npm test --silent`)",
    );
    assert_has(&block.reason, "put back `package.json` as it was when the loop started");
    assert_has(&block.system_message, "1 sealed input(s) of the oracle changed");
    assert!(
        !p.exists("verify-ran"),
        "the verify command ran although its closure moved"
    );
    let record = p.last_record("promise_rejected");
    assert_eq!(
        record["sealed_changes"][0],
        "`package.json`: `scripts.test` changed (it configures `npm test --silent`)"
    );
}

#[test]
fn the_scripts_the_npm_script_runs_are_sealed_whole() {
    let p = npm_project();
    p.write("check.sh", "exit 0\n");
    let block = p.stop("S", PROMISE).blocked();
    assert_has(&block.reason, "- `check.sh` changed (it is run by `sh check.sh`)");
}

#[test]
fn honest_edits_to_package_json_and_the_code_are_not_flagged() {
    let p = npm_project();
    let honest = json!({
        "name": "app", "version": "1.1.0",
        "scripts": {"lint": "eslint .", "test": "sh check.sh"},
        "dependencies": {"left-pad": "^1.3.0"}
    });
    p.write("package.json", serde_json::to_string_pretty(&honest).expect("json"));
    p.write("done.txt", "the fix\n");
    let notice = p.stop("S", PROMISE).allowed();
    assert!(notice.contains("verified complete"), "{notice}");
    assert!(p.exists("verify-ran"));
}

#[test]
fn creating_configuration_that_did_not_exist_is_rejected() {
    let p = Project::new().file("tests/test_a.py", "def test_a():\n    assert False\n");
    p.setup("S", "\"fix it\" --verify 'python3 -m pytest -q'");
    p.write("tests/conftest.py", "collect_ignore_glob = ['*']\n");
    p.write("pytest.ini", "[pytest]\naddopts = -k nothing\n");
    let block = p.stop("S", PROMISE).blocked();
    for line in [
        "- `pytest.ini` was created (it configures `pytest`; it did not exist at setup)",
        "- `tests/conftest.py` was created (it configures `pytest`; it did not exist at setup)",
    ] {
        assert!(block.reason.contains(line), "missing {line:?} in\n{}", block.reason);
    }
    assert_has(&block.reason, "`rm -- pytest.ini tests/conftest.py`");
}

/// A file tool's new `conftest.py` where pytest looked for one is judged on what it would hold, as the promise
/// judges it: fixtures a test asks for by a new name pass the guard and the promise; a hook, or a fixture of a
/// name pytest provides, is refused with the definition named.
#[test]
fn a_new_conftest_beside_the_sealed_tests_is_judged_by_what_it_defines() {
    let p = Project::new().file("tests/test_a.py", "def test_a():\n    assert True\n");
    p.setup(
        "S",
        "\"add a test\" --verify 'python3 -m pytest -q -p no:cacheprovider'",
    );
    let conftest = p.path("tests/conftest.py");
    let fixture = "import pytest\n\n\n@pytest.fixture\ndef pairs():\n    return [(1, 1, 2)]\n";
    let write = |content: &str| json!({"file_path": conftest, "content": content});
    for counts in [
        format!("{fixture}\n\ndef pytest_collection_modifyitems(items):\n    items.clear()\n"),
        fixture.replace("def pairs", "def tmp_path"),
    ] {
        let reason = tool(&p, "Write", write(&counts)).deny_reason();
        assert!(reason.contains("tests/conftest.py"), "{reason}");
    }
    tool(&p, "Write", write(fixture)).silent();
    p.write("tests/conftest.py", fixture);
    p.write(
        "tests/test_pairs.py",
        "def test_pairs(pairs):\n    for a, b, want in pairs:\n        assert a + b == want\n",
    );
    let notice = p.stop("S", PROMISE).allowed();
    assert!(notice.contains("verified complete"), "{notice}");
}

#[test]
fn the_user_accepts_a_change_with_loopgate_allow_and_only_that_change() {
    let p = npm_project();
    p.write("package.json", PACKAGE.replace("sh check.sh", "exit 0"));
    p.write("check.sh", "exit 0\n");
    let listing = p.loopgate(["allow"]).run();
    listing.success();
    listing.stdout_contains("`package.json`: `scripts.test` changed");
    listing.stdout_contains("`check.sh` changed");
    p.stop("S", PROMISE).blocked();

    p.loopgate(["allow", "package.json"])
        .run()
        .success()
        .stdout_contains("accepted as the new baseline: package.json");
    assert_eq!(p.last_record("allowed")["accepted"], json!(["package.json"]));
    let block = p.stop("S", PROMISE).blocked();
    assert_has(&block.reason, "`check.sh` changed");
    assert!(!block.reason.contains("package.json"), "{}", block.reason);

    p.loopgate(["allow", "--all"]).run().success();
    let notice = p.stop("S", PROMISE).allowed();
    assert!(notice.contains("verified complete"), "{notice}");
}

#[test]
fn allow_refuses_what_is_not_sealed_and_needs_a_loop() {
    let p = npm_project();
    let out = p.loopgate(["allow", "src/index.js"]).run();
    out.code(2);
    assert_eq!(
        out.stderr_line(),
        "loopgate: `src/index.js` is not sealed for this loop, so there is nothing to allow (run `loopgate allow` to list what changed)"
    );
    p.loopgate(["allow"])
        .run()
        .success()
        .stdout_contains("nothing sealed has changed");
    let none = Project::new();
    none.loopgate(["allow", "--all"]).run().code(3);
}

#[test]
fn the_guard_judges_edits_to_package_json_by_what_they_would_leave() {
    let p = npm_project();
    let path = p.path("package.json");
    let add_dependency = json!({"file_path": path, "old_string": "\"name\": \"app\",", "new_string": "\"name\": \"app\", \"dependencies\": {\"x\": \"1\"},"});
    tool(&p, "Edit", add_dependency).silent();
    let weaken = json!({"file_path": path, "old_string": "sh check.sh", "new_string": "true"});
    let reason = tool(&p, "Edit", weaken).deny_reason();
    assert!(reason.contains("`package.json`: `scripts.test` changed"), "{reason}");
    let rewrite = json!({"file_path": path, "content": PACKAGE.replace("\"lint\": \"true\"", "\"lint\": \"eslint\"")});
    tool(&p, "Write", rewrite).silent();
    let posttest =
        json!({"file_path": path, "content": PACKAGE.replace("\"lint\"", "\"posttest\": \"exit 0\", \"lint\"")});
    let reason = tool(&p, "Write", posttest).deny_reason();
    assert!(reason.contains("`scripts.posttest` was added"), "{reason}");
    // A `pretest` is a step of the run: the promise judges it by what its processes do (`oracle::steps`), so the
    // guard lets it be written where a tracer can watch it.
    if std::process::Command::new("strace").arg("-V").output().is_ok() {
        let pretest = json!({"file_path": path, "content": PACKAGE.replace("\"lint\"", "\"pretest\": \"node --check a.js\", \"lint\"")});
        tool(&p, "Write", pretest).silent();
    }
    // The script `npm test` runs is judged by what the edit would leave too: a print line is free, `exit 0` is not.
    let print = json!({"file_path": p.path("check.sh"), "content": format!("echo 'running the check'\n{CHECK}")});
    tool(&p, "Write", print).silent();
    let script = json!({"file_path": p.path("check.sh"), "content": "exit 0\n"});
    let reason = tool(&p, "Write", script).deny_reason();
    assert!(reason.contains("`check.sh`"), "{reason}");
    let npmrc = json!({"command": "echo script-shell=/bin/true >> .npmrc"});
    assert!(tool(&p, "Bash", npmrc).deny_reason().contains(".npmrc"));
    let allow = json!({"command": "loopgate allow --all"});
    assert!(
        tool(&p, "Bash", allow)
            .deny_reason()
            .contains("only the user can accept")
    );
}

#[test]
fn status_lists_the_closure_and_why() {
    let p = npm_project();
    let out = p.loopgate(["status"]).run();
    out.success();
    out.stdout_contains("  derived:     package.json [scripts.pretest, scripts.test, scripts.posttest] — it configures `npm test --silent`");
    out.stdout_contains("check.sh — it is run by `sh check.sh`");
    out.stdout_contains("configuration file(s) that must stay absent");
    let json = p.loopgate(["status", "--json"]).run().stdout_json();
    let inputs = &json["oracle_inputs"];
    assert_eq!(inputs["checks"]["closure"], true);
    let files = inputs["closure"].as_array().expect("closure list");
    assert!(
        files.iter().any(|f| f["path"] == ".npmrc" && f["exists"] == false),
        "{inputs}"
    );
    // Every sealed input, whatever its kind, with where it comes from and why.
    let all = inputs["inputs"].as_array().expect("inputs list");
    let check = all.iter().find(|f| f["path"] == "check.sh").expect("check.sh listed");
    assert_eq!(check["source"], "derived", "{check}");
    assert_eq!(check["why"], "it is run by `sh check.sh`", "{check}");
}

/// A typo beside real changes accepts nothing, in any kind of input: the error comes before anything is written
/// (a test's signature lives in a companion file of the seal, the closure in the seal itself).
#[test]
fn allow_with_an_unknown_path_accepts_nothing() {
    let test = "tests/add.test.js";
    let p = Project::new()
        .file("package.json", PACKAGE)
        .file("check.sh", CHECK)
        .file(test, "test('adds', () => { expect(1 + 1).toBe(2); });\n");
    p.setup(
        "S",
        "\"make the check pass\" --verify 'npm test --silent' --no-baseline",
    );
    p.write(test, "test('adds', () => { expect(1 + 1).toBe(3); });\n");
    p.write("check.sh", "exit 0\n");
    p.loopgate(["allow", "check.sh", test, "src/index.js"]).run().code(2);
    let listing = p.loopgate(["allow"]).run();
    listing.success().stdout_contains("`check.sh` changed");
    listing.stdout_contains(test);
    p.loopgate(["allow", "check.sh", test]).run().success();
    p.loopgate(["allow"])
        .run()
        .success()
        .stdout_contains("nothing sealed has changed");
}

/// `status` names every kind of sealed input by its source: the user's glob, the derived closure, the tests
/// and their data.
#[test]
fn status_lists_every_sealed_input_by_source() {
    let p = Project::new()
        .file("package.json", PACKAGE)
        .file("check.sh", CHECK)
        .file("docs/spec.md", "the spec\n")
        .file("tests/add.test.js", "test('adds', () => { expect(1 + 1).toBe(2); });\n")
        .file("tests/__snapshots__/add.test.js.snap", "exports[`adds 1`] = `2`;\n");
    p.setup(
        "S",
        "\"make the check pass\" --verify 'npm test --silent' --seal 'docs/**' --no-baseline",
    );
    let out = p.loopgate(["status"]).run();
    out.success();
    out.stdout_contains("  user glob:   docs/** (1 file)");
    out.stdout_contains("  derived:     package.json");
    out.stdout_contains(
        "  tests:       1 test file(s), sealed test by test; 1 test data file(s) stand as sealed in the oracle's run",
    );
    let json = p.loopgate(["status", "--json"]).run().stdout_json();
    let all = json["oracle_inputs"]["inputs"].as_array().expect("inputs list").clone();
    let source_of = |path: &str| {
        all.iter()
            .find(|f| f["path"] == path)
            .map(|f| f["source"].as_str().unwrap_or_default().to_string())
    };
    assert_eq!(source_of("docs/spec.md").as_deref(), Some("user_glob"), "{all:?}");
    assert_eq!(source_of("package.json").as_deref(), Some("derived"), "{all:?}");
    assert_eq!(source_of("tests/add.test.js").as_deref(), Some("test"), "{all:?}");
    assert_eq!(
        source_of("tests/__snapshots__/add.test.js.snap").as_deref(),
        Some("test_data"),
        "{all:?}"
    );
}

#[test]
fn opting_out_leaves_the_closure_unchecked() {
    let p = Project::new()
        .in_project_tree()
        .file("package.json", PACKAGE)
        .file("check.sh", CHECK);
    p.setup(
        "S",
        "\"make the check pass\" --verify 'npm test --silent' --no-closure-seal",
    );
    let status = p.loopgate(["status"]).run();
    status.stdout_contains("checks off:  closure (opted out at setup)");
    p.write("package.json", PACKAGE.replace("sh check.sh", "exit 0"));
    let notice = p.stop("S", PROMISE).allowed();
    assert!(notice.contains("verified complete"), "{notice}");
}

/// The count ratchet: a pass that ran fewer tests than an earlier verify is rejected with the numbers, until the
/// user accepts the new count from a terminal.
#[test]
fn a_pass_with_fewer_tests_is_rejected_until_the_user_allows_the_counts() {
    let p = Project::new()
        .file("check.sh", "cat result.txt\ntest -f done.txt\n")
        .file("result.txt", "========== 1 failed, 2 passed in 0.05s ==========\n");
    p.setup("S", "\"fix it\" --verify 'sh check.sh'");
    p.stop("S", PROMISE).blocked();
    assert_eq!(
        p.last_record("promise_rejected")["counts"],
        json!({"passed": 2, "failed": 1, "skipped": 0, "ignored": 0})
    );
    p.write("done.txt", "")
        .write("result.txt", "========== 2 passed in 0.05s ==========\n");
    let block = p.stop("S", PROMISE).blocked();
    assert_has(
        &block.reason,
        "REJECTED: the verify passed with fewer tests run, or more skipped, than before",
    );
    assert_has(&block.reason, "(ran 3 → 2)");
    assert_has(
        &block.system_message,
        "exit 0, but ran 3 → 2; if that is intended, accept it with `loopgate allow --counts`",
    );
    assert_eq!(p.last_record("promise_rejected")["ratchet"][0]["count"], "ran");

    p.loopgate(["allow", "--counts"])
        .run()
        .success()
        .stdout_contains("test counts (ran 2, skipped 0)");
    let notice = p.stop("S", PROMISE).allowed();
    assert!(notice.contains("verified complete"), "{notice}");
}

/// The counts come from the whole output as it streams, not from the head and tail the runner keeps: a workspace
/// whose first crate's summary sits in the cut middle of a long output still counts that crate's tests.
#[test]
fn test_counts_are_read_from_the_whole_output_not_the_kept_head_and_tail() {
    let noise = "x".repeat(99);
    let p = Project::new().file(
        "check.sh",
        format!(
            "i=0; while [ $i -lt 200 ]; do echo {noise}; i=$((i+1)); done\n\
             echo 'test result: ok. 5 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out'\n\
             i=0; while [ $i -lt 800 ]; do echo {noise}; i=$((i+1)); done\n\
             echo 'test result: ok. 7 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out'\n\
             exit 1\n"
        ),
    );
    p.setup("S", "\"fix it\" --verify 'sh check.sh'");
    p.stop("S", PROMISE).blocked();
    let record = p.last_record("promise_rejected");
    assert_eq!(
        record["counts"],
        json!({"passed": 12, "failed": 0, "skipped": 0, "ignored": 1})
    );
}

#[test]
fn allowing_counts_before_any_verify_is_refused() {
    let p = npm_project();
    let out = p.loopgate(["allow", "--counts"]).run();
    out.code(2);
    assert_eq!(
        out.stderr_line(),
        "loopgate: no verify of this loop has printed test counts yet, so there are none to accept"
    );
}

/// make's plan for the verify's goals (issue 39, item 4) is accepted with the makefile: after `loopgate allow
/// Makefile` the next promise takes the plan afresh and passes.
#[test]
fn allowing_the_makefile_accepts_makes_plan_too() {
    let p = make_project("test:\n\tsh check.sh\n");
    p.write("Makefile", "test:\n\ttrue\n");
    allowed_by_name(&p, "`Makefile`", "Makefile");
}

/// A project whose verify is `make -s test` with `makefile`, its check failing until `done.txt` exists.
fn make_project(makefile: &str) -> Project {
    let p = Project::new()
        .in_project_tree()
        .file("Makefile", makefile)
        .file("check.sh", CHECK);
    p.setup("S", "\"make the check pass\" --verify 'make -s test'");
    p
}

/// The promise is rejected saying `said`; `loopgate allow PATH` accepts `path`, and the next promise completes.
#[track_caller]
fn allowed_by_name(p: &Project, said: &str, path: &str) {
    let block = p.stop("S", PROMISE).blocked();
    assert_has(&block.reason, said);
    p.loopgate(["allow", path])
        .run()
        .success()
        .stdout_contains(&format!("accepted as the new baseline: {path}"));
    let notice = p.stop("S", PROMISE).allowed();
    assert!(notice.contains("verified complete"), "{notice}");
}

/// The recipe changed again after the user accepted one change, before the next promise: rejected, naming the
/// makefile (what the user accepted is the makefile as it stood at `allow`).
#[test]
fn after_allowing_one_change_to_the_makefile_the_next_is_rejected() {
    let p = Project::new()
        .in_project_tree()
        .file("Makefile", "test:\n\tsh check.sh\n")
        .file("check.sh", CHECK)
        .file("done.txt", "");
    p.setup("S", "\"make the check pass\" --verify 'make -s test'");
    p.write("Makefile", "test:\n\tsh check.sh && true\n");
    p.stop("S", PROMISE).blocked();
    p.loopgate(["allow", "Makefile"]).run().success();
    p.write("Makefile", "test:\n\tsh check.sh && true\n\ntest: EXTRA = 1\n");
    let block = p.stop("S", PROMISE).blocked();
    assert_has(&block.reason, "`Makefile`");
}

/// A makefile that make's plan named (a new included one, whose export a dry run cannot show) is accepted by
/// its name, and the promise after it completes. The export is of a variable that steers a run (`PYTHONPATH`,
/// `runner::steers`): one no runner reads, a program's own `CHECK_VERBOSE`, is free and names nothing.
#[test]
fn a_new_makefile_the_plan_named_is_accepted_by_its_name() {
    let p = make_project("-include local.mk\ntest:\n\tsh check.sh\n");
    p.write("done.txt", "");
    p.write("local.mk", "export PYTHONPATH = vendor\n");
    allowed_by_name(
        &p,
        "`local.mk`: `its exports and reads of how make was called` was added",
        "local.mk",
    );
}
