//! The guard and the promise give one judgement: the guard's protection comes from the same sealed inputs the
//! promise checks (`inputs::Inputs::guard` / `check`), and every denial says how to put the file back that works
//! for it (git, `rm`, or by hand).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use crate::guard::{Protected, Verdict, check_with_env};
use crate::inputs::{Checks, Inputs, Tests, UserGlobs};
use crate::schema::Check;
use crate::testseal::Inventory;
use crate::testsig::Lang;

const TEST: &str = "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n";

/// A pytest project with one test file, committed to git when `git` is set.
struct Project {
    _tmp: tempfile::TempDir,
    root: PathBuf,
}

impl Project {
    fn new(git: bool) -> Project {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().canonicalize().expect("canonicalize");
        std::fs::create_dir_all(root.join("tests")).expect("mkdir");
        std::fs::write(root.join("calc.py"), "def add(a, b):\n    return a + b\n").expect("write");
        std::fs::write(root.join("tests/test_calc.py"), TEST).expect("write");
        if git {
            for args in [
                &["init", "-q"][..],
                &["add", "-A"],
                &["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"],
            ] {
                let ok = Command::new("git").arg("-C").arg(&root).args(args).status();
                assert!(ok.is_ok_and(|s| s.success()), "git {args:?}");
            }
        }
        Project { _tmp: tmp, root }
    }

    /// The sealed inputs as setup takes them: the `--seal` globs given, and the existing tests.
    fn take(&self, globs: &[&str]) -> Inputs {
        let patterns: Vec<String> = globs.iter().map(|g| (*g).to_string()).collect();
        let inventory = Inventory::take(&self.root, vec![Lang::Python]);
        let mut inputs = Inputs::default();
        inputs.globs = UserGlobs::take(&patterns, &self.root).expect("hash the globs");
        inputs.tests = Tests {
            names: inventory.files.keys().cloned().collect(),
            inventory: Some(inventory),
        };
        inputs
    }

    /// What the guard would decide for the loop whose sealed inputs are `inputs`.
    fn guard(&self, inputs: &Inputs, tool: &str, input: &Value) -> Verdict {
        self.guard_with(inputs, &|_| true, tool, input)
    }

    /// [`Project::guard`] for a loop with only the checks `checks` on.
    fn guard_with(&self, inputs: &Inputs, checks: Checks, tool: &str, input: &Value) -> Verdict {
        let mut protected = Protected {
            project_root: self.root.clone(),
            ..Protected::default()
        };
        inputs.guard(checks).seal_into(&mut protected).expect("globs compile");
        check_with_env(tool, input, &self.root, &protected, &|_| None)
    }

    /// Whether the promise would accept the tree as it is now.
    fn promise_accepts(&self, inputs: &Inputs) -> bool {
        self.promise_accepts_with(inputs, &|_| true)
    }

    fn promise_accepts_with(&self, inputs: &Inputs, checks: Checks) -> bool {
        inputs.check(&self.root, checks).expect("check").is_empty()
    }

    fn path(&self, relative: &str) -> String {
        self.root.join(relative).to_string_lossy().into_owned()
    }
}

fn comment_edit(p: &Project) -> Value {
    json!({
        "file_path": p.path("tests/test_calc.py"),
        "old_string": "from calc import add\n",
        "new_string": "from calc import add  # the function under test\n",
    })
}

fn reason(v: Verdict) -> String {
    match v {
        Verdict::Deny { reason } => reason,
        other => panic!("expected a denial, got {other:?}"),
    }
}

/// The edit applied as the Edit tool would.
fn apply_comment(p: &Project) {
    let path = p.root.join("tests/test_calc.py");
    let text = std::fs::read_to_string(&path).expect("read");
    let after = text.replacen(
        "from calc import add\n",
        "from calc import add  # the function under test\n",
        1,
    );
    std::fs::write(path, after).expect("write");
}

#[test]
fn an_edit_of_a_file_under_seal_is_denied_like_the_promise_rejects_it() {
    let p = Project::new(true);
    let inputs = p.take(&["tests/**"]);
    let why = reason(p.guard(&inputs, "Edit", &comment_edit(&p)));
    assert!(why.contains("`tests/test_calc.py` is sealed"), "{why}");
    assert!(why.contains("`git checkout -- tests/test_calc.py`"), "{why}");
    assert!(!why.contains("yours to change"), "{why}");
    // Made anyway (by a script the guard cannot see), the promise rejects it: the same judgement.
    apply_comment(&p);
    assert!(!p.promise_accepts(&inputs));
}

#[test]
fn the_same_change_through_bash_is_denied_too() {
    let p = Project::new(true);
    let inputs = p.take(&["tests/**"]);
    let command = json!({"command": "echo '# the function under test' >> tests/test_calc.py"});
    let why = reason(p.guard(&inputs, "Bash", &command));
    assert!(why.contains("`git checkout -- tests/test_calc.py`"), "{why}");
}

#[test]
fn an_edit_that_leaves_the_tests_alone_is_allowed_and_accepted_without_a_seal_glob() {
    let p = Project::new(true);
    let inputs = p.take(&[]);
    let edit = comment_edit(&p);
    assert_eq!(
        p.guard(&inputs, "Edit", &edit),
        Verdict::Inspect {
            path: PathBuf::from("tests/test_calc.py")
        }
    );
    apply_comment(&p);
    assert!(p.promise_accepts(&inputs), "{:?}", inputs.check(&p.root, &|_| true));
    // An edit of the sealed test itself is refused by the inspection and rejected by the promise.
    std::fs::write(p.root.join("tests/test_calc.py"), TEST.replace("== 3", "== 4")).expect("write");
    assert!(!p.promise_accepts(&inputs));
}

#[test]
fn a_new_file_under_seal_is_denied_with_advice_that_removes_it() {
    let p = Project::new(true);
    let inputs = p.take(&["tests/**"]);
    let write = json!({"file_path": p.path("tests/test_new.py"), "content": "def test_new():\n    pass\n"});
    let why = reason(p.guard(&inputs, "Write", &write));
    assert!(why.contains("`rm -- tests/test_new.py`"), "{why}");
    assert!(!why.contains("git checkout"), "{why}");
    // Created anyway, the promise rejects it, and the advice works: `rm` is allowed and puts the seal back.
    std::fs::write(p.root.join("tests/test_new.py"), "def test_new():\n    pass\n").expect("write");
    assert!(!p.promise_accepts(&inputs));
    let rm = json!({"command": "rm -- tests/test_new.py"});
    assert_eq!(p.guard(&inputs, "Bash", &rm), Verdict::Allow);
    std::fs::remove_file(p.root.join("tests/test_new.py")).expect("rm");
    assert!(p.promise_accepts(&inputs));
    // A sealed file that existed at setup may not be removed.
    let rm_old = json!({"command": "rm -- tests/test_calc.py"});
    assert!(matches!(p.guard(&inputs, "Bash", &rm_old), Verdict::Deny { .. }));
    // Nor may a glob of them.
    let rm_all = json!({"command": "rm -- tests/*.py"});
    assert!(matches!(p.guard(&inputs, "Bash", &rm_all), Verdict::Deny { .. }));
}

#[test]
fn a_sealed_file_git_cannot_restore_gets_advice_that_does_not_name_git_checkout() {
    let p = Project::new(false);
    let inputs = p.take(&["tests/**"]);
    let why = reason(p.guard(&inputs, "Edit", &comment_edit(&p)));
    assert!(!why.contains("git checkout"), "{why}");
    assert!(why.contains("as it was when the loop started"), "{why}");
    assert!(why.contains("`loopgate allow tests/test_calc.py`"), "{why}");
}

#[test]
fn tracked_asks_git() {
    let p = Project::new(true);
    assert!(crate::guard::tracked(&p.root, "tests/test_calc.py"));
    std::fs::write(p.root.join("tests/loose.py"), "x = 1\n").expect("write");
    assert!(!crate::guard::tracked(&p.root, "tests/loose.py"));
    assert!(!crate::guard::tracked(Path::new("/"), "/etc/passwd"));
}

/// A new `conftest.py` beside new tests only (nothing sealed in its directory or below) may be written, and the
/// promise lets it through, as it sits out the oracle's run with them (`Inputs::new_files_aside`); one above a
/// sealed test, or any where new tests do not sit out, is judged by what it defines: a file tool's write of
/// fixtures a test asks for by name is inspected and passes, one with a hook is refused and rejected.
#[test]
fn a_new_conftest_sits_out_beside_new_tests_and_is_judged_by_what_it_defines_elsewhere() {
    let p = Project::new(true);
    let mut inputs = p.take(&[]);
    inputs.derived = Some(crate::closure::Closure::take("python3 -m pytest -q", &p.root));
    let fixture = "import pytest\n\n\n@pytest.fixture\ndef pair():\n    return (2, 5)\n";
    let write = |path: &str| json!({"file_path": p.path(path), "content": fixture});
    let aside_off = |c: Check| c != Check::NewTestsAside;
    assert_eq!(
        p.guard(&inputs, "Write", &write("tests/api/conftest.py")),
        Verdict::Allow
    );
    let inspected = p.guard_with(&inputs, &aside_off, "Write", &write("tests/api/conftest.py"));
    assert!(
        matches!(inspected, Verdict::Inspect { .. }),
        "new tests do not sit out: a new conftest is judged by what it defines"
    );
    assert!(matches!(
        p.guard(&inputs, "Write", &write("tests/conftest.py")),
        Verdict::Inspect { .. }
    ));
    assert!(matches!(
        p.guard(&inputs, "Bash", &json!({"command": "touch conftest.py"})),
        Verdict::Deny { .. }
    ));
    std::fs::create_dir_all(p.root.join("tests/api")).expect("mkdir");
    std::fs::write(p.root.join("tests/api/conftest.py"), fixture).expect("write");
    assert!(p.promise_accepts(&inputs), "{:?}", inputs.check(&p.root, &|_| true));
    assert_eq!(
        inputs.new_files_aside(&p.root, &|_| true),
        vec!["tests/api/conftest.py"]
    );
    assert!(p.promise_accepts_with(&inputs, &aside_off));
    assert!(inputs.new_files_aside(&p.root, &aside_off).is_empty());
    std::fs::write(p.root.join("tests/conftest.py"), fixture).expect("write");
    assert!(p.promise_accepts(&inputs), "{:?}", inputs.check(&p.root, &|_| true));
    let hook = format!("{fixture}\n\ndef pytest_collection_modifyitems(items):\n    items.clear()\n");
    std::fs::write(p.root.join("tests/conftest.py"), &hook).expect("write");
    assert!(!p.promise_accepts(&inputs));
    assert_eq!(
        inputs.new_files_aside(&p.root, &|_| true),
        vec!["tests/api/conftest.py"]
    );
}
