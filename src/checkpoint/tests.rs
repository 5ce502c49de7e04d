use std::path::Path;
use std::process::Command;

use super::list::{self, Ref};
use super::prune::{best_iteration, kept};
use super::*;
use crate::state::StateFields;

fn git(root: &Path, args: &[&str]) -> String {
    git_with_index(root, None, args)
}

/// Runs git in `root` (with `index` as its index file, when given); its stdout.
fn git_with_index(root: &Path, index: Option<&Path>, args: &[&str]) -> String {
    let mut cmd = Command::new("git");
    cmd.args(["-c", "user.name=t", "-c", "user.email=t@t"])
        .args(args)
        .current_dir(root);
    if let Some(index) = index {
        cmd.env("GIT_INDEX_FILE", index);
    }
    let out = cmd.output().expect("git");
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

/// [`super::start`] on a loop's fields, as setup calls it.
fn start(project: &Project, f: &mut StateFields, keep: Option<Keep>) -> Setup {
    let (setup, track) = super::start(
        project,
        &f.config.loop_id,
        f.progress.stall.tree_fingerprint.as_deref(),
        keep,
    );
    f.progress.checkpoints = track;
    setup
}

/// [`super::at_stop`] on a loop's fields, as a stop calls it.
fn at_stop(project: &Project, f: &mut StateFields, probe: Option<Probe>) -> Option<Result<String, String>> {
    super::at_stop(
        project,
        &f.config.loop_id,
        f.progress.iteration,
        f.progress.checkpoints.as_mut(),
        probe,
    )
}

fn fields(id: &str) -> StateFields {
    let mut fields = StateFields::default();
    fields.config.loop_id = id.into();
    fields
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
    f.progress.iteration = 1;
    let commit = at_stop(&p, &mut f, None).expect("on").expect("taken");
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

/// A probe that says the tree's fingerprint is `fingerprint`, without listing dirty paths.
fn probe_saying(fingerprint: &str) -> Option<Probe> {
    Some(Probe {
        fingerprint: fingerprint.into(),
        method: treeprobe::Method::Git,
        dirty: None,
    })
}

#[test]
fn an_unchanged_fingerprint_reuses_the_last_checkpoint_without_a_process() {
    let dir = repo();
    let p = project(dir.path());
    let mut f = fields("lg-b");
    f.progress.stall.tree_fingerprint = Some("same".into());
    start(&p, &mut f, Some(Keep::Best));
    let start_commit = f
        .progress
        .checkpoints
        .as_ref()
        .and_then(|t| t.last.clone())
        .expect("taken")
        .commit;
    // The tree did change, but the fingerprint says not: the checkpoint is reused, not retaken.
    write(dir.path(), "a.txt", "changed\n");
    for iteration in [1, 2] {
        f.progress.iteration = iteration;
        let reused = at_stop(&p, &mut f, probe_saying("same")).expect("on").expect("taken");
        assert_eq!(reused, start_commit);
    }
    assert_eq!(f.progress.checkpoints.as_ref().expect("on").unwritten, [1, 2]);
    let names: Vec<Name> = refs_of(&p, "lg-b").iter().map(|r| r.name).collect();
    assert_eq!(names, [Name::Iteration(0)], "no ref written (no git process ran)");
    let mut listed = refs_of(&p, "lg-b");
    list::add_unwritten(&mut listed, f.progress.checkpoints.as_ref().expect("on"));
    let listed: Vec<(Name, &str)> = listed.iter().map(|r| (r.name, r.commit.as_str())).collect();
    let it = Name::Iteration;
    assert_eq!(
        listed,
        [
            (it(0), &*start_commit),
            (it(1), &*start_commit),
            (it(2), &*start_commit)
        ]
    );

    f.progress.iteration = 3;
    let changed = at_stop(&p, &mut f, probe_saying("other")).expect("on").expect("taken");
    assert_ne!(changed, start_commit);
    assert!(f.progress.checkpoints.as_ref().expect("on").unwritten.is_empty());
    let written: Vec<(Name, String)> = refs_of(&p, "lg-b").into_iter().map(|r| (r.name, r.commit)).collect();
    let expected = [
        (it(0), &start_commit),
        (it(1), &start_commit),
        (it(2), &start_commit),
        (it(3), &changed),
    ];
    assert_eq!(
        written,
        expected.map(|(n, c)| (n, c.clone())),
        "written with the changed stop's ref"
    );
}

#[test]
fn unwritten_iterations_are_written_at_the_end_when_kept() {
    for (keep, expected) in [
        // The loop that just ended is the most recent: kept whole until it falls out of `RECENT_LOOPS`.
        (Keep::Best, vec![0, 1, 2]),
        (Keep::All, vec![0, 1, 2]),
        (Keep::None, vec![]),
    ] {
        let dir = repo();
        let p = project(dir.path());
        let mut f = fields("lg-k");
        f.progress.stall.tree_fingerprint = Some("same".into());
        start(&p, &mut f, Some(keep));
        for iteration in [1, 2] {
            f.progress.iteration = iteration;
            at_stop(&p, &mut f, probe_saying("same")).expect("on").expect("taken");
        }
        prune::at_end(&p, &f.config.loop_id, f.progress.checkpoints.as_ref()).expect("pruned");
        let names: Vec<Name> = refs_of(&p, "lg-k").iter().map(|r| r.name).collect();
        assert_eq!(
            names,
            expected.into_iter().map(Name::Iteration).collect::<Vec<_>>(),
            "{keep:?}"
        );
    }
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
    f.progress.iteration = 1;
    at_stop(&p, &mut f, None);
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
    f.progress.iteration = 1;
    at_stop(&p, &mut f, None);
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
        files_of(
            dir.path(),
            &f.progress.checkpoints.expect("on").last.expect("taken").commit
        ),
        ["x.txt"]
    );
    let plain = tempfile::tempdir().expect("tempdir");
    let mut f = fields("lg-g");
    assert_eq!(start(&project(plain.path()), &mut f, Some(Keep::Best)), Setup::NotGit);
    assert_eq!(
        at_stop(&project(plain.path()), &mut f, None),
        None,
        "off: nothing at a stop"
    );
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
    f.progress.iteration = 1;
    let commit = at_stop(&p, &mut f, None).expect("on").expect("taken despite both");
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

/// The tree `git add -A` writes for the project at `root`, on a fresh copy of the user's index in the
/// repository at `repo` (the slow path's result).
fn add_all_tree(repo: &Path, root: &Path) -> String {
    let scratch = tempfile::tempdir().expect("tempdir");
    let index = scratch.path().join("index");
    snapshot::copy_index(&repo.join(".git/index"), &index).expect("the user's index");
    git_with_index(root, Some(&index), &["add", "-A", "--", ".", ":(exclude).claude"]);
    git_with_index(root, Some(&index), &["write-tree"]).trim().to_string()
}

/// A small deterministic generator (xorshift), so a failure replays.
struct Dice(u64);

impl Dice {
    fn roll(&mut self, sides: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % sides as u64) as usize
    }
}

/// One random edit of the kind an agent makes, in `root`, among the `files` it knows of.
fn random_edit(root: &Path, dice: &mut Dice, files: &mut Vec<String>, step: usize) {
    let pick = |dice: &mut Dice, files: &[String]| files[dice.roll(files.len())].clone();
    match dice.roll(10) {
        0 | 1 if !files.is_empty() => write(root, &pick(dice, files), &format!("edit {step}\n")),
        2 => {
            let path = format!("d{}/n{step}.txt", dice.roll(3));
            write(root, &path, "new\n");
            files.push(path);
        }
        3 if !files.is_empty() => {
            let path = pick(dice, files);
            let _ = std::fs::remove_file(root.join(&path));
            files.retain(|f| *f != path);
        }
        4 if !files.is_empty() => {
            let from = pick(dice, files);
            let to = format!("moved/r{step}.txt");
            write(root, &to, "");
            std::fs::rename(root.join(&from), root.join(&to)).expect("rename");
            files.retain(|f| *f != from);
            files.push(to);
        }
        5 => {
            for i in 0..3 {
                let path = format!("fresh{step}/deep/f{i}.rs");
                write(root, &path, "fn main() {}\n");
                files.push(path);
            }
        }
        6 => write(root, &format!("d0/trace{step}.log"), "ignored\n"),
        // Back to the committed content: the same bytes under a new modification time.
        7 => write(root, "a.txt", "one\n"),
        8 if !files.is_empty() => {
            let path = pick(dice, files);
            if root.join(&path).exists() {
                git(root, &["add", "--", &path]);
            }
        }
        _ => {
            use std::os::unix::fs::PermissionsExt;
            if let Some(path) = files.iter().find(|f| root.join(f).exists()) {
                let mode = if dice.roll(2) == 0 { 0o755 } else { 0o644 };
                std::fs::set_permissions(root.join(path), std::fs::Permissions::from_mode(mode)).expect("chmod");
            }
        }
    }
}

#[test]
fn the_dirty_paths_tree_equals_what_git_add_all_writes_over_random_edits() {
    for seed in [1_u64, 7, 2026] {
        let dir = repo();
        let root = dir.path();
        let p = project(root);
        let git_ = Git::new(&p);
        let mut files: Vec<String> = ["a.txt", "b.txt"].map(String::from).to_vec();
        let mut dice = Dice(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        for step in 0..30 {
            for _ in 0..=dice.roll(3) {
                random_edit(root, &mut dice, &mut files, step);
            }
            let probe = treeprobe::probe(root);
            let dirty = probe.dirty.expect("the in-process probe lists dirty paths");
            let fast = snapshot::staged_tree(&git_, &dirty).expect("tree");
            let slow = add_all_tree(root, root);
            if fast != slow {
                let diff = git(root, &["diff-tree", "-r", &fast, &slow]);
                panic!(
                    "seed {seed}, step {step}: dirty {:?}; fast {fast} vs add -A {slow}:\n{diff}",
                    dirty.paths
                );
            }
        }
    }
}

#[test]
fn the_dirty_paths_tree_of_a_project_in_a_subdirectory_is_add_all_s() {
    let dir = repo();
    let root = dir.path();
    write(root, "sub/in.txt", "in\n");
    write(root, "sub/gone.txt", "gone\n");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "sub"]);
    write(root, "sub/in.txt", "changed\n");
    write(root, "sub/new/x.txt", "x\n");
    std::fs::remove_file(root.join("sub/gone.txt")).expect("rm");
    write(root, "outside.txt", "not the project's\n");
    let p = project(&root.join("sub"));
    let dirty = treeprobe::probe(&p.root).dirty.expect("in process");
    let fast = snapshot::staged_tree(&Git::new(&p), &dirty).expect("tree");
    assert_eq!(fast, add_all_tree(root, &p.root));
}

/// The starting checkpoint stages only the paths its probe found differing from the user's index (issue 41: in
/// a tournament, one walk of the tree fewer per candidate), and is still the tree `git add -A` makes: a staged
/// change, an unstaged one, a deletion, a rename, a mode change, a new file in a new directory, an ignored file
/// and loopgate's own `.claude/`.
#[test]
fn the_starting_checkpoint_from_the_probe_s_paths_is_the_tree_git_add_all_makes() {
    use std::os::unix::fs::PermissionsExt;
    let dir = repo();
    let root = dir.path();
    write(root, "c/d/deep.txt", "deep\n");
    write(root, "gone.txt", "gone\n");
    write(root, "moved.txt", "moved\n");
    git(root, &["add", "-A"]);
    write(root, "b.txt", "unstaged\n");
    std::fs::remove_file(root.join("gone.txt")).expect("delete");
    std::fs::rename(root.join("moved.txt"), root.join("c/moved.txt")).expect("rename");
    std::fs::set_permissions(root.join("c/d/deep.txt"), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    write(root, "new/dir/n.txt", "new\n");
    write(root, "more.log", "ignored\n");
    write(root, ".claude/loopgate/own", "loopgate's\n");
    let p = project(root);
    let mut f = fields("lg-s");
    assert_eq!(start(&p, &mut f, Some(Keep::Best)), Setup::On);
    let commit = f
        .progress
        .checkpoints
        .as_ref()
        .and_then(|t| t.last.as_ref())
        .expect("taken")
        .commit
        .clone();

    let scratch = tempfile::tempdir().expect("tempdir");
    let index = scratch.path().join("index");
    std::fs::copy(root.join(".git/index"), &index).expect("copy the index");
    git_with_index(root, Some(&index), &["add", "-A", "--", ".", ":(exclude).claude"]);
    let expected = git_with_index(root, Some(&index), &["write-tree"]);
    assert_eq!(
        git(root, &["rev-parse", &format!("{commit}^{{tree}}")]).trim(),
        expected.trim(),
        "{:?}",
        files_of(root, &commit)
    );
    assert!(files_of(root, &commit).contains(&"new/dir/n.txt".to_string()));
}
