//! Read denial for held-out material: refused where it names the held-out store, an outside directory or a
//! held-out file in git history; ordinary reads stay allowed.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::guard::unread::{Unreadable, check};

fn unreadable() -> Unreadable {
    Unreadable {
        dirs: vec![PathBuf::from("/lg/holdout"), PathBuf::from("/home/u/acceptance/proj")],
        in_git: vec!["tests/acceptance/test_more.py".to_string()],
    }
}

fn env(name: &str) -> Option<String> {
    match name {
        "HOME" => Some("/home/u".to_string()),
        "LOOPGATE_HOME" => Some("/lg".to_string()),
        _ => None,
    }
}

fn verdict(tool: &str, input: serde_json::Value) -> Option<String> {
    check(tool, &input, Path::new("/p"), &unreadable(), &env)
}

#[track_caller]
fn refused(tool: &str, input: serde_json::Value) {
    let reason = verdict(tool, input.clone());
    assert!(
        reason.as_deref().is_some_and(|r| r.contains("held-out")),
        "{tool} {input} should be refused: {reason:?}"
    );
}

#[track_caller]
fn allowed(tool: &str, input: serde_json::Value) {
    assert_eq!(verdict(tool, input.clone()), None, "{tool} {input} should be allowed");
}

#[test]
fn file_tools_may_not_read_the_held_out_store_or_an_outside_directory() {
    refused(
        "Read",
        json!({"file_path": "/lg/holdout/abc/files/tests/acceptance/test_more.py"}),
    );
    refused("Read", json!({"file_path": "~/acceptance/proj/tests/test_x.py"}));
    refused("Grep", json!({"pattern": "assert", "path": "/home/u/acceptance/proj"}));
    refused(
        "Glob",
        json!({"pattern": "**/*.py", "path": "/lg/holdout/../holdout/abc"}),
    );
    refused("Glob", json!({"pattern": "/lg/holdout/**/*.py"}));
    allowed("Glob", json!({"pattern": "tests/**/*.py"}));
    allowed("Read", json!({"file_path": "/p/calc.py"}));
    allowed("Grep", json!({"pattern": "assert", "path": "/p/tests"}));
    allowed("Read", json!({"file_path": "/lg/seals/x.json"}));
}

#[test]
fn bash_may_not_name_held_out_material() {
    refused(
        "Bash",
        json!({"command": "cat /lg/holdout/abc/files/tests/acceptance/test_more.py"}),
    );
    refused("Bash", json!({"command": "ls ~/acceptance/proj"}));
    refused("Bash", json!({"command": "cat $HOME/acceptance/proj/tests/test_x.py"}));
    refused(
        "Bash",
        json!({"command": "python3 -c \"print(open('/lg/holdout/abc/x').read())\""}),
    );
    refused(
        "Bash",
        json!({"command": "cd /tmp && find $LOOPGATE_HOME/holdout -name '*.py'"}),
    );
    allowed("Bash", json!({"command": "cat calc.py && python3 -m pytest -q"}));
    allowed("Bash", json!({"command": "ls /lg/seals"}));
}

#[test]
fn git_may_not_print_a_held_out_file_from_history() {
    refused(
        "Bash",
        json!({"command": "git show HEAD:tests/acceptance/test_more.py"}),
    );
    refused("Bash", json!({"command": "git log -p -- tests/acceptance"}));
    refused(
        "Bash",
        json!({"command": "git checkout -- tests/acceptance/test_more.py"}),
    );
    refused("Bash", json!({"command": "git -C /p log --patch"}));
    refused("Bash", json!({"command": "git diff"}));
    refused("Bash", json!({"command": "git stash"}));
    refused("Bash", json!({"command": "git checkout main"}));
    refused("Bash", json!({"command": "git diff HEAD -- ."}));
    refused("Bash", json!({"command": "echo x && $(git show HEAD~1)"}));
    allowed("Bash", json!({"command": "git status && git log --oneline -5"}));
    allowed("Bash", json!({"command": "git diff -- calc.py src/"}));
    allowed("Bash", json!({"command": "git checkout -- calc.py"}));
    allowed("Bash", json!({"command": "git add -A && git commit -m wip"}));
}

#[test]
fn without_held_out_files_in_git_history_git_is_left_alone() {
    let outside_only = Unreadable {
        in_git: Vec::new(),
        ..unreadable()
    };
    for command in ["git diff", "git show HEAD", "git log -p", "git stash"] {
        let input = json!({ "command": command });
        assert_eq!(
            check("Bash", &input, Path::new("/p"), &outside_only, &env),
            None,
            "{command}"
        );
    }
}
