use std::path::Path;
use std::process::Command;

use super::list::{self, Ref};
use super::prune::{best_iteration, kept};
use super::*;

fn git(root: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t"])
        .args(args)
        .current_dir(root)
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// A repository with one commit, a staged change, a stash and an ignored file: everything loopgate must not touch.
fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    write(root, ".gitignore", "*.log\n");
    write(root, "a.txt", "one\n");
    write(root, "b.txt", "bee\n");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "first"]);
    write(root, "b.txt", "stashed\n");
    git(root, &["stash", "-q"]);
    write(root, "a.txt", "staged\n");
    git(root, &["add", "a.txt"]);
    write(root, "build.log", "ignored\n");
    dir
}

/// What the user owns in a repository: index bytes, HEAD, the branch, the stash list.
fn user_view(root: &Path) -> (Vec<u8>, String, String, String) {
    (
        std::fs::read(root.join(".git/index")).expect("index"),
        git(root, &["rev-parse", "HEAD"]),
        git(root, &["symbolic-ref", "HEAD"]),
        git(root, &["stash", "list"]),
    )
}

fn project(root: &Path) -> Project {
    Project {
        root: root.to_path_buf(),
    }
}

fn fields(id: &str) -> StateFields {
    StateFields {
        loop_id: id.into(),
        ..StateFields::default()
    }
}

fn files_of(root: &Path, commit: &str) -> Vec<String> {
    git(root, &["ls-tree", "-r", "--name-only", commit])
        .lines()
        .map(str::to_string)
        .collect()
}

fn refs_of(p: &Project, id: &str) -> Vec<Ref> {
    list::all(&Git::new(p)).expect("list").remove(id).unwrap_or_default()
}

#[test]
fn checkpoints_hold_tracked_and_untracked_files_and_never_touch_the_user_s_git_state() {
    let dir = repo();
    let root = dir.path();
    let p = project(root);
    let before = user_view(root);
    let mut f = fields("lg-a");
    assert_eq!(start(&p, &mut f, Some(Keep::Best)), Setup::On);
    write(root, "new/untracked.txt", "fresh\n");
    write(root, ".claude/pua-loop-history.jsonl", "{}\n");
    f.iteration = 1;
    let commit = at_stop(&p, &mut f).expect("on").expect("taken");
    let files = files_of(root, &commit);
    assert!(files.contains(&"new/untracked.txt".to_string()), "{files:?}");
    assert!(files.contains(&"a.txt".to_string()), "{files:?}");
    assert!(
        !files.iter().any(|f| f.ends_with(".log")),
        "ignored files are not saved: {files:?}"
    );
    assert!(
        !files.iter().any(|f| f.starts_with(".claude")),
        ".claude/ is not saved: {files:?}"
    );
    assert_eq!(git(root, &["show", &format!("{commit}:a.txt")]), "staged\n");
    assert_eq!(user_view(root), before, "index, HEAD, branch and stash untouched");
    assert_eq!(
        git(root, &["status", "--porcelain"]),
        "M  a.txt\n?? .claude/\n?? new/\n",
        "the user's status is what it was, plus the new files"
    );
    let names: Vec<Name> = refs_of(&p, "lg-a").iter().map(|r| r.name).collect();
    assert_eq!(names, [Name::Iteration(0), Name::Iteration(1)]);
    assert_eq!(
        git(root, &["rev-parse", &format!("{commit}^")]),
        before.1,
        "parent is HEAD"
    );
}

#[test]
fn an_unchanged_fingerprint_reuses_the_last_checkpoint() {
    let dir = repo();
    let p = project(dir.path());
    let mut f = fields("lg-b");
    f.tree_fingerprint = Some("same".into());
    start(&p, &mut f, Some(Keep::Best));
    f.iteration = 1;
    let first = at_stop(&p, &mut f).expect("on").expect("taken");
    // The tree did change, but the fingerprint says not: the checkpoint is reused, not retaken.
    write(dir.path(), "a.txt", "changed\n");
    f.iteration = 2;
    assert_eq!(at_stop(&p, &mut f).expect("on").expect("taken"), first);
    f.tree_fingerprint = Some("other".into());
    f.iteration = 3;
    assert_ne!(at_stop(&p, &mut f).expect("on").expect("taken"), first);
    let changes: Vec<(Name, String)> = refs_of(&p, "lg-b").into_iter().map(|r| (r.name, r.commit)).collect();
    assert_eq!(changes[1].1, changes[2].1);
}

#[test]
fn rollback_restores_files_removes_new_ones_keeps_ignored_ones_and_can_be_undone() {
    let dir = repo();
    let root = dir.path();
    let p = project(root);
    let mut f = fields("lg-c");
    start(&p, &mut f, Some(Keep::Best));
    write(root, "a.txt", "iteration one\n");
    write(root, "notes/one.txt", "1\n");
    f.iteration = 1;
    at_stop(&p, &mut f);
    write(root, "a.txt", "iteration two\n");
    std::fs::remove_file(root.join("notes/one.txt")).expect("rm");
    write(root, "deep/new/two.txt", "2\n");
    write(root, "two.log", "ignored, stays\n");
    let before = user_view(root);
    let git_ = Git::new(&p);
    let refs = refs_of(&p, "lg-c");
    let rolled = restore::rollback(&git_, "lg-c", &refs, &refs[1]).expect("rollback");
    assert_eq!(rolled.saved, Name::Save(1));
    let read = |path: &str| std::fs::read_to_string(root.join(path)).ok();
    assert_eq!(read("a.txt").as_deref(), Some("iteration one\n"));
    assert_eq!(read("notes/one.txt").as_deref(), Some("1\n"));
    assert_eq!(read("deep/new/two.txt"), None, "created after the checkpoint: removed");
    assert!(!root.join("deep").exists(), "and its empty directories");
    assert_eq!(read("two.log").as_deref(), Some("ignored, stays\n"));
    assert_eq!(read("build.log").as_deref(), Some("ignored\n"));
    assert_eq!(user_view(root), before, "index, HEAD, branch and stash untouched");
    // Undo: back to the save.
    let refs = refs_of(&p, "lg-c");
    let save = refs.iter().find(|r| r.name == Name::Save(1)).expect("save").clone();
    let again = restore::rollback(&git_, "lg-c", &refs, &save).expect("undo");
    assert_eq!(again.saved, Name::Save(2));
    assert_eq!(read("a.txt").as_deref(), Some("iteration two\n"));
    assert_eq!(read("deep/new/two.txt").as_deref(), Some("2\n"));
    assert_eq!(read("notes/one.txt"), None);
}

#[test]
fn changes_are_counted_between_trees_in_one_process() {
    let dir = repo();
    let root = dir.path();
    let p = project(root);
    let mut f = fields("lg-d");
    start(&p, &mut f, Some(Keep::All));
    write(root, "a.txt", "staged\nmore\nlines\n");
    write(root, "c.txt", "c\n");
    f.iteration = 1;
    at_stop(&p, &mut f);
    let refs = refs_of(&p, "lg-d");
    let (t0, t1) = (refs[0].tree.as_str(), refs[1].tree.as_str());
    let changes = list::changes(&Git::new(&p), &[(t0, t1), (t1, t1), (t1, t0)]).expect("changes");
    let counts: Vec<(u64, u64, u64)> = changes.iter().map(|c| (c.files, c.insertions, c.deletions)).collect();
    assert_eq!(counts, [(2, 3, 0), (0, 0, 0), (2, 0, 3)]);
}

#[test]
fn a_project_in_a_subdirectory_only_checkpoints_and_restores_itself() {
    let dir = repo();
    let root = dir.path();
    write(root, "sub/inside.txt", "in\n");
    let p = project(&root.join("sub"));
    let mut f = fields("lg-e");
    start(&p, &mut f, Some(Keep::Best));
    write(root, "sub/inside.txt", "changed\n");
    write(root, "outside.txt", "out\n");
    let refs = refs_of(&p, "lg-e");
    restore::rollback(&Git::new(&p), "lg-e", &refs, &refs[0]).expect("rollback");
    assert_eq!(
        std::fs::read_to_string(root.join("sub/inside.txt")).expect("read"),
        "in\n"
    );
    assert!(root.join("outside.txt").exists(), "outside the project: untouched");
}

#[test]
fn a_repository_without_commits_and_a_plain_directory() {
    let dir = tempfile::tempdir().expect("tempdir");
    git(dir.path(), &["init", "-q"]);
    write(dir.path(), "x.txt", "x\n");
    let p = project(dir.path());
    let mut f = fields("lg-f");
    assert_eq!(
        start(&p, &mut f, Some(Keep::Best)),
        Setup::On,
        "no HEAD yet: a commit without parent"
    );
    assert_eq!(
        files_of(dir.path(), &f.checkpoints.expect("on").last.expect("taken").commit),
        ["x.txt"]
    );
    let plain = tempfile::tempdir().expect("tempdir");
    let mut f = fields("lg-g");
    assert_eq!(start(&project(plain.path()), &mut f, Some(Keep::Best)), Setup::NotGit);
    assert_eq!(at_stop(&project(plain.path()), &mut f), None, "off: nothing at a stop");
    assert_eq!(start(&p, &mut f, None), Setup::Off);
}

#[test]
fn a_stale_or_unreadable_private_index_is_replaced() {
    let dir = repo();
    let p = project(dir.path());
    let mut f = fields("lg-h");
    start(&p, &mut f, Some(Keep::Best));
    let git_ = Git::new(&p);
    std::fs::write(git_.index(), b"garbage").expect("corrupt the private index");
    std::fs::write(git_.index().with_file_name("checkpoint-index.lock"), b"").expect("stale lock");
    f.iteration = 1;
    let commit = at_stop(&p, &mut f).expect("on").expect("taken despite both");
    assert!(files_of(dir.path(), &commit).contains(&"a.txt".to_string()));
}

#[test]
fn names_parse_and_print() {
    assert_eq!("3".parse::<Name>(), Ok(Name::Iteration(3)));
    assert_eq!(" save-2 ".parse::<Name>(), Ok(Name::Save(2)));
    for bad in ["", "x", "-1", "save-", "save-x", "3.5"] {
        assert!(bad.parse::<Name>().is_err(), "{bad}");
    }
    assert_eq!(Name::Save(4).to_string(), "save-4");
    assert_eq!(refname("lg-1/../x", Name::Iteration(2)), "refs/loopgate/lg-1____x/2");
}

#[test]
fn pruning_keeps_the_start_the_last_the_best_and_every_save() {
    let mk = |name| Ref {
        loop_id: "l".into(),
        name,
        commit: String::new(),
        tree: String::new(),
        time: 0,
    };
    let refs: Vec<Ref> = [0, 1, 2, 3, 4]
        .map(Name::Iteration)
        .into_iter()
        .chain([Name::Save(1)])
        .map(mk)
        .collect();
    let it = Name::Iteration;
    assert_eq!(kept(&refs, Keep::Best, Some(2)), [it(0), it(2), it(4), Name::Save(1)]);
    assert_eq!(kept(&refs, Keep::Best, None), [it(0), it(4), Name::Save(1)]);
    assert_eq!(kept(&refs, Keep::None, Some(2)), [Name::Save(1)]);
    assert_eq!(kept(&refs, Keep::All, None).len(), 6);
}

#[test]
fn the_best_iteration_is_the_latest_pass_else_the_best_score() {
    let verdict = |i, status: &str, score: f64| {
        crate::history::test_record_of(
            "l",
            i,
            serde_json::json!({"status": status, "score": score, "duration_ms": 1}),
        )
    };
    let records = [
        verdict(1, "promise_rejected", 0.5),
        verdict(2, "verify_failed", 0.9),
        verdict(3, "promise_rejected", 0.7),
        crate::history::test_record_of("l", 4, serde_json::json!({"status": "continue"})),
    ];
    let gate = |direction| crate::score::ScoreGate {
        regex: "x".into(),
        target: 1.0,
        direction,
        plateau: 0,
    };
    assert_eq!(best_iteration(&records, None), None, "no pass, no gate");
    assert_eq!(
        best_iteration(&records, Some(&gate(crate::score::Direction::Higher))),
        Some(2)
    );
    assert_eq!(
        best_iteration(&records, Some(&gate(crate::score::Direction::Lower))),
        Some(1)
    );
    let passed = [
        records[0].clone(),
        crate::history::test_record_of("l", 3, serde_json::json!({"status": "self_check", "passed": true})),
        crate::history::test_record_of(
            "l",
            5,
            serde_json::json!({"status": "promise_rejected", "passed": true}),
        ),
        crate::history::test_record_of("l", 6, serde_json::json!({"status": "complete"})),
    ];
    assert_eq!(best_iteration(&passed, None), Some(6));
    assert_eq!(
        best_iteration(&passed[..3], None),
        Some(5),
        "a self-check is not a stop's verdict"
    );
}
