//! Issue 44: `loopgate check --base REF` on a real repository (git, pytest) built in the test. The honest head
//! passes; every way a head can move what judges it — a weakened, deleted or skipped base test, a changed runner
//! configuration, an edited `.loopgate.toml` — fails (exit 1) naming the test or the setting; bad input exits 2
//! with one line. The check leaves nothing behind: no worktree, no scratch, no seal, the user's loop untouched.

use serde_json::Value;

use crate::project::{Output, Project, STATE};

const GIT: &str = "git -c user.name=t -c user.email=t@t";

pub const CALC: &str = "def add(a, b):\n    return a + b\n\n\ndef neg(a):\n    return -a\n";

pub const TESTS: &str = "from calc import add, neg\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\n\
def test_zero():\n    assert add(0, 0) == 0\n\n\ndef test_neg():\n    assert neg(4) == -4\n";

const INI: &str = "[pytest]\npythonpath = .\n";

const TOML: &str = "verify = \"python3 -m pytest -q -p no:cacheprovider\"\n";

/// A repository whose `main` holds the code, its tests, pytest's configuration and `.loopgate.toml`, checked
/// out on a branch `head` with nothing changed yet.
pub fn repo() -> Project {
    let p = Project::new();
    p.write("calc.py", CALC)
        .write("tests/test_calc.py", TESTS)
        .write("pytest.ini", INI)
        .write(".loopgate.toml", TOML)
        .write(".gitignore", "__pycache__/\n");
    p.sh(&format!(
        "git init -q -b main && {GIT} add -A && {GIT} commit -qm base && git checkout -qb head"
    ))
    .run()
    .success();
    p
}

/// The tests with `test_neg` cut out.
fn without_test_neg() -> &'static str {
    &TESTS[..TESTS.find("\n\n\ndef test_neg").expect("test_neg is in TESTS")]
}

/// A change a head makes to the repository.
type Change = &'static dyn Fn(&Project);

/// Commits the head's changes (deletions too).
pub fn commit(p: &Project) {
    p.sh(&format!("{GIT} add -A && {GIT} commit -qm head")).run().success();
}

fn check(p: &Project) -> Output {
    p.loopgate(["check", "--base", "main"]).run()
}

fn json_check(p: &Project) -> (Output, Value) {
    let out = p.loopgate(["check", "--base", "main", "--json"]).run();
    let value = serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("JSON: {e}\n{out}"));
    (out, value)
}

/// What loopgate's home holds: the seals, rooms, held-out stores and verify windows.
pub fn store(p: &Project) -> Vec<std::path::PathBuf> {
    let mut all: Vec<_> = ["seals", "rooms", "holdout", "verifies"]
        .iter()
        .flat_map(|dir| {
            std::fs::read_dir(p.loopgate_home().join(dir))
                .into_iter()
                .flatten()
                .flatten()
        })
        .map(|e| e.path())
        .collect();
    all.sort();
    all
}

/// Nothing of the check stays: no worktree, no scratch clone, and loopgate's home as it was `before` (no seal,
/// room, held-out store or verify window of the check's).
#[track_caller]
pub fn left_nothing(p: &Project, before: &[std::path::PathBuf]) {
    let worktrees = p.sh("git worktree list").run();
    assert_eq!(worktrees.stdout.lines().count(), 1, "{worktrees}");
    assert_eq!(store(p), before, "loopgate's home is as before the check");
    let scratch: Vec<_> = std::fs::read_dir(p.tmp_dir())
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("loopgate-check-"))
        .map(|e| e.path())
        .collect();
    assert!(scratch.is_empty(), "the check's clone is gone: {scratch:?}");
}

#[test]
fn an_honest_head_passes_and_leaves_the_users_loop_and_repository_as_they_were() {
    let p = repo();
    // A refactor, a new function and its new test file: the change's own work.
    p.write(
        "calc.py",
        format!("{CALC}\n\ndef sub(a, b):\n    return add(a, neg(b))\n"),
    )
    .write(
        "tests/test_sub.py",
        "from calc import sub\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n",
    );
    commit(&p);
    // The user's own loop in the checkout is not the check's business.
    p.setup("S", "\"keep going\" --verify 'true' --no-baseline");
    let state = p.read(STATE);
    let before = store(&p);
    let (out, value) = json_check(&p);
    out.success();
    assert_eq!(value["passed"], true, "{out}");
    let verdicts: Vec<(&str, &str)> = value["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .map(|t| (t["name"].as_str().unwrap_or(""), t["verdict"].as_str().unwrap_or("")))
        .collect();
    for name in ["test_add", "test_zero", "test_neg"] {
        assert!(
            verdicts.iter().any(|(n, v)| n.ends_with(name) && *v == "passed"),
            "{name} passed: {verdicts:?}"
        );
    }
    assert_eq!(value["findings"].as_array().map(Vec::len), Some(0), "{out}");
    assert_eq!(p.read(STATE), state, "the user's loop is untouched");
    p.loopgate(["status"]).run().success().stdout_contains("keep going");
    p.sh("git diff --quiet HEAD").run().success();
    left_nothing(&p, &before);
}

/// Every way a head can weaken what judges it: what it does, and what the output must name.
fn moves() -> [(&'static str, Change, &'static [&'static str]); 8] {
    [
        (
            "weakens a test",
            &|p| {
                p.write(
                    "tests/test_calc.py",
                    TESTS.replace("assert add(1, 2) == 3", "assert add(1, 2) is not None"),
                );
            },
            &["test_add", "tests/test_calc.py"],
        ),
        (
            "deletes a test",
            &|p| {
                p.write("tests/test_calc.py", without_test_neg());
            },
            &["test_neg"],
        ),
        (
            "deletes the test file",
            &|p| {
                std::fs::remove_file(p.path("tests/test_calc.py")).expect("remove the test file");
            },
            &["tests/test_calc.py"],
        ),
        (
            "renames a test so it is no longer collected",
            &|p| {
                p.write("tests/test_calc.py", TESTS.replace("def test_zero", "def _test_zero"));
            },
            &["test_zero"],
        ),
        (
            "marks a test expected to fail",
            &|p| {
                p.write(
                    "tests/test_calc.py",
                    format!(
                        "import pytest\n{}",
                        TESTS.replace("def test_add", "@pytest.mark.xfail\ndef test_add")
                    ),
                );
            },
            &["xfail", "tests/test_calc.py"],
        ),
        (
            "adds a skip",
            &|p| {
                p.write(
                    "tests/test_calc.py",
                    format!(
                        "import pytest\n{}",
                        TESTS.replace("def test_neg", "@pytest.mark.skip(reason='later')\ndef test_neg")
                    ),
                );
            },
            &["skip", "tests/test_calc.py"],
        ),
        (
            "deselects a test in the runner's configuration",
            &|p| {
                p.write("pytest.ini", format!("{INI}addopts = -k 'not test_neg'\n"));
            },
            &["pytest.ini"],
        ),
        (
            "adds a conftest that changes what runs",
            &|p| {
                p.write(
                    "tests/conftest.py",
                    "def pytest_collection_modifyitems(items):\n    items[:] = [i for i in items if 'neg' not in i.name]\n",
                );
            },
            &["tests/conftest.py"],
        ),
    ]
}

/// Move `index` of [`moves`], on its own repository: the exit is 1 and the output names the test or the setting.
#[track_caller]
fn fails_naming(index: usize) {
    let (what, change, named) = moves()[index];
    let p = repo();
    change(&p);
    commit(&p);
    let out = check(&p);
    assert_eq!(out.code, Some(1), "{what}: exit 1\n{out}");
    assert!(out.stdout.contains("loopgate check: FAIL"), "{what}\n{out}");
    for name in named {
        assert!(out.stdout.contains(name), "{what}: names `{name}`\n{out}");
    }
    left_nothing(&p, &[]);
}

/// One test per move, so they run in parallel.
macro_rules! moved {
    ($($name:ident: $index:expr),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                fails_naming($index);
            }
        )*
    };
}

moved!(
    a_weakened_test_fails: 0,
    a_deleted_test_fails: 1,
    a_deleted_test_file_fails: 2,
    a_renamed_test_fails: 3,
    an_xfail_marker_fails: 4,
    a_skip_marker_fails: 5,
    a_deselection_in_the_runners_configuration_fails: 6,
    a_new_conftest_that_changes_what_runs_fails: 7,
);

#[test]
fn a_head_that_changes_the_verify_script_fails_naming_it() {
    let p = repo();
    p.write("ci/test.sh", "python3 -m pytest -q -p no:cacheprovider\n")
        .write(".loopgate.toml", "verify = \"sh ci/test.sh\"\n");
    p.sh(&format!(
        "{GIT} add -A && {GIT} commit -qm script && git branch -f main"
    ))
    .run()
    .success();
    p.write("ci/test.sh", "python3 -m pytest -q -p no:cacheprovider -k 'not neg'\n");
    commit(&p);
    let out = check(&p);
    assert_eq!(out.code, Some(1), "{out}");
    assert!(out.stdout.contains("ci/test.sh"), "{out}");
}

#[test]
fn the_heads_loopgate_toml_is_ignored_the_bases_judges() {
    let p = repo();
    // The head turns the oracle into `true` and deletes a test: the base's command still judges it.
    p.write(".loopgate.toml", "verify = \"true\"\n[checks]\ntests = false\n")
        .write("tests/test_calc.py", without_test_neg());
    commit(&p);
    let out = check(&p);
    assert_eq!(out.code, Some(1), "{out}");
    assert!(out.stdout.contains("python3 -m pytest"), "the base's command: {out}");
    assert!(out.stdout.contains("test_neg"), "{out}");
    // A head whose `.loopgate.toml` does not even parse, with honest work: passes, and the edit is noted.
    let p = repo();
    p.write(".loopgate.toml", "verify = [not toml\n")
        .write("calc.py", CALC.replace("return -a", "return 0 - a"));
    commit(&p);
    let out = check(&p);
    out.success();
    assert!(out.stdout.contains("the head changes `.loopgate.toml`"), "{out}");
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let p = repo();
    let one_line = |out: &Output, needle: &str| {
        assert_eq!(out.code, Some(2), "{out}");
        let line = out.stderr_line();
        assert!(line.contains(needle), "`{needle}` in: {line}");
    };
    one_line(
        &p.loopgate(["check", "--base", "no-such-branch"]).run(),
        "`--base no-such-branch` is not a commit",
    );
    for (toml, needle) in [
        ("verify = \"x\"\nverfy = \"y\"\n", "line 2: unknown field `verfy`"),
        ("verify = \"x\"\nverify_timeout = \"soon\"\n", "line 2"),
        ("verify = \"x\"\n[checks]\ntests = \"yes\"\n", "line 3"),
        ("verify_timeout = 10\n", "no `verify` command"),
        ("verify = \"x\"\n[holdout]\nrequired = true\n", "holdout.required"),
    ] {
        p.write(".loopgate.toml", toml);
        p.sh(&format!("{GIT} commit -qam bad && git branch -f bad"))
            .run()
            .success();
        let out = p.loopgate(["check", "--base", "bad"]).run();
        one_line(&out, needle);
        assert!(
            out.stderr_line().contains("`.loopgate.toml` on the base `bad`"),
            "{out}"
        );
    }
    p.sh(&format!(
        "git rm -q .loopgate.toml && {GIT} commit -qm none && git branch -f none"
    ))
    .run()
    .success();
    one_line(
        &p.loopgate(["check", "--base", "none"]).run(),
        "`.loopgate.toml` is not on the base `none`",
    );
    let plain = Project::new();
    one_line(
        &plain.loopgate(["check", "--base", "main"]).run(),
        "needs a git repository",
    );
    left_nothing(&p, &[]);
}

#[test]
fn verify_overrides_for_local_use_and_writes_the_summary_and_report() {
    let p = repo();
    p.sh(&format!(
        "git rm -q .loopgate.toml && {GIT} commit -qm none && git branch -f main"
    ))
    .run()
    .success();
    // Code that breaks a base test: the test fails, by name.
    p.write("calc.py", CALC.replace("return -a", "return a"));
    commit(&p);
    let out = p
        .loopgate([
            "check",
            "--base",
            "main",
            "--verify",
            "python3 -m pytest -q -p no:cacheprovider",
            "--summary",
            "summary.md",
            "--html",
            "report.html",
        ])
        .run();
    assert_eq!(out.code, Some(1), "{out}");
    let md = p.read("summary.md");
    assert!(md.starts_with("## loopgate check: FAIL"), "{md}");
    assert!(
        md.contains("| `tests/test_calc.py::test_neg` | passed | FAILED |"),
        "{md}"
    );
    assert!(
        md.contains("base test `tests/test_calc.py::test_neg` failed on the head"),
        "{md}"
    );
    assert!(
        md.contains("| `tests/test_calc.py::test_add` | passed | passed |"),
        "{md}"
    );
    let html = p.read("report.html");
    assert!(html.contains("<h1 class=\"fail\">loopgate check: FAIL</h1>"), "{html}");
}

#[test]
fn held_out_tests_from_outside_the_repository_catch_code_fitted_to_the_visible_tests() {
    let p = repo();
    let hidden = p.outside("holdout");
    crate::common::write_file(
        &hidden.join("tests/test_hidden.py"),
        "from calc import add\n\n\ndef test_more():\n    assert add(20, 22) == 42\n",
    );
    // Fitted: right for the visible inputs only.
    p.write(
        "calc.py",
        CALC.replace("return a + b", "return {(1, 2): 3, (0, 0): 0}.get((a, b), 0)"),
    );
    commit(&p);
    let hidden_flag = hidden.to_string_lossy().into_owned();
    let out = p
        .loopgate(["check", "--base", "main", "--holdout-from", &hidden_flag])
        .run();
    assert_eq!(out.code, Some(1), "{out}");
    assert!(out.stdout.contains("held-out"), "{out}");
    // The same held-out tests pass honest work.
    let p = repo();
    p.write("calc.py", CALC.replace("return a + b", "return b + a"));
    commit(&p);
    p.loopgate(["check", "--base", "main", "--holdout-from", &hidden_flag])
        .run()
        .success();
    left_nothing(&p, &[]);
}
