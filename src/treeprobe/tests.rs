use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};

use super::*;

#[track_caller]
fn git(root: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "core.excludesFile=/dev/null",
        ])
        .args(args)
        .current_dir(root)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("git");
    assert!(ok.success(), "git {args:?}");
}

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    fs::write(path, text).expect("write");
}

/// A repository with one commit of `a.txt` and `src/b.txt`.
fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    git(root, &["init", "-q"]);
    write(root, "a.txt", "alpha\n");
    write(root, "src/b.txt", "beta\n");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "0"]);
    dir
}

/// What `git status` says of the work tree, the oracle the in-process probe is checked against (it was the
/// probe's own fallback before issue 19): `HEAD`'s id plus, for every path it reports, its status line, size and
/// modification time; and the uncommitted work it counts.
fn git_status_fingerprint(root: &Path) -> Option<(String, Changes)> {
    let out = Command::new("git")
        .args([
            "status",
            "--porcelain=v2",
            "--branch",
            "-z",
            "--untracked-files=all",
            "--",
            ".",
            ":(exclude).claude",
        ])
        .current_dir(root)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let mut hasher = Sha256::new();
    let mut changes = Changes::default();
    let mut items = out.stdout.split(|&b| b == 0).filter(|item| !item.is_empty());
    while let Some(item) = items.next() {
        // Of the headers only `HEAD`'s id counts: the branch name or its distance to upstream is not progress.
        if item.starts_with(b"# ") {
            if item.starts_with(b"# branch.oid ") {
                hasher.update(item);
            }
            continue;
        }
        hasher.update(item);
        hasher.update([0]);
        // A rename or copy (`2 …`) is followed by its original path as the next item.
        if item.starts_with(b"2 ") {
            hasher.update(items.next().unwrap_or_default());
        }
        count(item, &mut changes);
        let Some(path) = changed_path(item) else { continue };
        if let Ok(meta) = fs::symlink_metadata(root.join(String::from_utf8_lossy(path).as_ref())) {
            hash_meta(&mut hasher, &meta);
        }
    }
    Some((fsutil::hex(&hasher.finalize())[..16].to_string(), changes))
}

/// Counts one `git status --porcelain=v2` entry: its work-tree column (`1 XY …`), or an untracked `?`.
fn count(item: &[u8], changes: &mut Changes) {
    match (item.first(), item.get(3)) {
        (Some(b'?'), _) | (Some(b'1'), Some(b'A')) => changes.added += 1,
        (Some(b'1' | b'2' | b'u'), Some(b'D')) => changes.deleted += 1,
        (Some(b'1' | b'2'), Some(b'.')) => {}
        (Some(b'1' | b'2' | b'u'), Some(_)) => changes.modified += 1,
        _ => {}
    }
}

/// The path of a `git status --porcelain=v2` entry: after 8 fields for `1` (changed), 9 for `2` (renamed or
/// copied), 10 for `u` (unmerged), 1 for `?` (untracked) and `!` (ignored).
fn changed_path(item: &[u8]) -> Option<&[u8]> {
    let fields = match item.first()? {
        b'1' => 8,
        b'2' => 9,
        b'u' => 10,
        b'?' | b'!' => 1,
        _ => return None,
    };
    item.splitn(fields + 1, |&b| b == b' ').nth(fields)
}

/// The in-process probe, checked against `git status`: both must see a change, or both none, and count the
/// same uncommitted work. Returns the in-process fingerprint and summary.
#[track_caller]
fn look(root: &Path) -> (String, String) {
    let (probe, changes) = take(root);
    assert_eq!(
        probe.method,
        Method::Git,
        "the in-process reader handles this repository"
    );
    let (_, by_git) = git_status_fingerprint(root).expect("git status");
    let changes = changes.expect("changes");
    assert_eq!(changes, by_git, "in-process and `git status` count the same work");
    (probe.fingerprint, changes.summary())
}

/// A named change to make to a work tree.
type Step<'a> = (&'a str, &'a dyn Fn(&Path));

/// Each step changes the fingerprint in process exactly when it changes `git status`'s.
#[track_caller]
fn same_verdicts(root: &Path, steps: &[Step]) {
    let mut before = (look(root).0, git_status_fingerprint(root).expect("git").0);
    for (name, step) in steps {
        step(root);
        let now = (look(root).0, git_status_fingerprint(root).expect("git").0);
        assert_eq!(
            now.0 != before.0,
            now.1 != before.1,
            "step `{name}`: in process says changed = {}, git status says {}",
            now.0 != before.0,
            now.1 != before.1
        );
        before = now;
    }
}

#[test]
fn metadata_probe_sees_changes_but_not_loopgate_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    fs::write(dir.path().join("a.txt"), "1").expect("write");
    let first = probe(dir.path());
    assert_eq!(first.method, Method::Metadata);
    fs::create_dir_all(dir.path().join(".claude/loopgate")).expect("mkdir");
    fs::write(dir.path().join(".claude/pua-loop-history.jsonl"), "{}").expect("write");
    assert_eq!(probe(dir.path()), first, "loopgate's own files are not progress");
    fs::write(dir.path().join("a.txt"), "22").expect("write");
    assert_ne!(probe(dir.path()), first);
}

#[test]
fn stable_while_nothing_changes_and_blind_to_loopgate_files() {
    let dir = repo();
    let root = dir.path();
    let (first, summary) = look(root);
    assert_eq!(summary, "no unstaged changes");
    assert_eq!(look(root).0, first, "stable");
    write(root, ".claude/pua-loop.local.md", "state");
    write(root, ".claude/loopgate/verify-1.log", "log");
    assert_eq!(look(root).0, first, "loopgate's own files are not progress");
    // git refreshing its stat cache rewrites the index without changing anything: not progress.
    git(root, &["update-index", "--refresh"]);
    assert_eq!(look(root).0, first, "a refreshed index is the same tree");
}

#[test]
fn edits_new_files_deletions_staging_commits_and_renames_all_count() {
    let dir = repo();
    let root = dir.path();
    let (first, _) = look(root);
    write(root, "a.txt", "alpha, edited\n");
    let (edited, summary) = look(root);
    assert_ne!(edited, first);
    assert_eq!(summary, "1 file changed: 1 modified");
    write(root, "a.txt", "alpha, edited again\n");
    let (again, _) = look(root);
    assert_ne!(again, edited, "a second edit of a modified file is a change too");
    write(root, "new dir/c d.txt", "gamma\n");
    let (created, summary) = look(root);
    assert_ne!(created, again);
    assert_eq!(summary, "2 files changed: 1 modified, 1 new");
    fs::remove_file(root.join("src/b.txt")).expect("rm");
    let (deleted, summary) = look(root);
    assert_ne!(deleted, created);
    assert_eq!(summary, "3 files changed: 1 modified, 1 new, 1 deleted");
    git(root, &["add", "a.txt"]);
    let (staged, summary) = look(root);
    assert_ne!(staged, deleted, "staging is a change");
    assert_eq!(summary, "2 files changed: 1 new, 1 deleted");
    git(root, &["commit", "-q", "-m", "1"]);
    let (committed, _) = look(root);
    assert_ne!(committed, staged, "a commit moves HEAD");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "2"]);
    git(root, &["mv", "a.txt", "e f.txt"]);
    let (renamed, _) = look(root);
    assert_eq!(look(root).0, renamed, "stable with a rename staged");
    write(root, "e f.txt", "renamed and edited\n");
    assert_ne!(
        look(root).0,
        renamed,
        "a renamed file (with a space in its name) is still watched"
    );
}

/// The hardest edit for a stat cache: same size, and the modification time set back to the very same
/// nanosecond. The change time (which no user can set) still moves. `git status` itself misses this edit when
/// it happens in the same second as the index's refresh (it compares the change time's seconds only), so the
/// edit is checked in process alone.
#[test]
fn an_edit_of_the_same_size_with_the_same_mtime_is_seen() {
    let dir = repo();
    let root = dir.path();
    let when = SystemTime::UNIX_EPOCH + Duration::new(1_600_000_000, 123_456_789);
    let set_mtime = |t: SystemTime| {
        fs::File::options()
            .write(true)
            .open(root.join("a.txt"))
            .expect("open")
            .set_modified(t)
            .expect("set mtime");
    };
    set_mtime(when);
    // The index caches the old time: the file is clean, and not racy.
    git(root, &["update-index", "--refresh"]);
    let (clean, summary) = look(root);
    assert_eq!(summary, "no unstaged changes");
    write(root, "a.txt", "ALPHA\n");
    set_mtime(when);
    let (edited, changes) = take(root);
    assert_ne!(edited.fingerprint, clean);
    assert_eq!(
        changes.map(|c| c.summary()).as_deref(),
        Some("1 file changed: 1 modified")
    );
}

#[test]
fn an_undone_edit_and_a_touch_are_not_changes() {
    let dir = repo();
    let root = dir.path();
    git(root, &["update-index", "--refresh"]);
    let (first, _) = look(root);
    write(root, "a.txt", "something else\n");
    assert_ne!(look(root).0, first);
    write(root, "a.txt", "alpha\n");
    assert_eq!(look(root).0, first, "the content is back: the same tree");
    std::thread::sleep(Duration::from_millis(20));
    write(root, "src/b.txt", "beta\n");
    assert_eq!(look(root).0, first, "rewritten with the same content");
}

#[test]
fn untracked_files_count_and_ignored_ones_do_not() {
    let dir = repo();
    let root = dir.path();
    write(root, ".gitignore", "*.log\nbuild/\n!keep.log\n");
    git(root, &["add", ".gitignore"]);
    git(root, &["commit", "-q", "-m", "ignore"]);
    write(root, ".git/info/exclude", "scratch.txt\n");
    let (first, _) = look(root);
    for ignored in ["debug.log", "build/out.bin", "src/deep/trace.log", "scratch.txt"] {
        write(root, ignored, "noise");
        assert_eq!(look(root).0, first, "{ignored} is ignored");
    }
    // An ignored directory that holds a tracked file: its other files are still ignored.
    write(root, "build/tracked.txt", "tracked");
    git(root, &["add", "-f", "build/tracked.txt"]);
    git(root, &["commit", "-q", "-m", "forced"]);
    let (first, _) = look(root);
    write(root, "build/other.bin", "noise");
    assert_eq!(look(root).0, first, "build/other.bin is ignored");
    write(root, "keep.log", "kept");
    let (kept, summary) = look(root);
    assert_ne!(kept, first, "a negated pattern brings a file back");
    assert_eq!(summary, "1 file changed: 1 new");
    write(root, "keep.log", "kept, edited");
    let (edited, _) = look(root);
    assert_ne!(edited, kept, "an untracked file's edit is a change");
    fs::remove_file(root.join("keep.log")).expect("rm");
    assert_eq!(look(root).0, first, "deleting the new file brings the tree back");
}

#[test]
fn every_step_agrees_with_git_status() {
    let dir = repo();
    let root = dir.path();
    let steps: &[Step] = &[
        ("nothing", &|_| {}),
        ("edit", &|r| write(r, "a.txt", "x\n")),
        ("nothing again", &|_| {}),
        ("new file", &|r| write(r, "n.txt", "n\n")),
        ("chmod +x", &|r| {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(r.join("src/b.txt"), fs::Permissions::from_mode(0o755)).expect("chmod");
        }),
        ("stage all", &|r| git(r, &["add", "-A"])),
        ("commit", &|r| git(r, &["commit", "-q", "-m", "c"])),
        ("symlink", &|r| {
            std::os::unix::fs::symlink("a.txt", r.join("link")).expect("symlink")
        }),
        ("intent to add", &|r| {
            write(r, "later.txt", "later\n");
            git(r, &["add", "-N", "later.txt"]);
        }),
        ("delete", &|r| fs::remove_file(r.join("n.txt")).expect("rm")),
        ("ignored file", &|r| {
            write(r, ".gitignore", "*.tmp\n");
            write(r, "x.tmp", "t");
        }),
        ("ignored file edit", &|r| write(r, "x.tmp", "tt")),
    ];
    same_verdicts(root, steps);
}

#[test]
fn index_versions_3_and_4_read_like_version_2() {
    let dir = repo();
    let root = dir.path();
    write(root, "dir/with/a/long/path/one.txt", "1\n");
    write(root, "dir/with/a/long/path/two.txt", "2\n");
    git(root, &["add", "-A"]);
    write(root, "pending.txt", "p\n");
    git(root, &["add", "-N", "pending.txt"]); // an extended flag: version 3
    let entries = |root: &Path| {
        let repo = repo::find(root).expect("repo");
        index::parse(&fs::read(repo.git_dir.join("index")).expect("index"))
            .expect("parsed")
            .entries
    };
    let v3 = entries(root);
    assert_eq!(v3.len(), 5);
    assert!(v3.iter().any(|e| e.intent_to_add && e.path == b"pending.txt"));
    let (print, _) = look(root);
    git(root, &["update-index", "--index-version", "4"]);
    let v4 = entries(root);
    let paths = |v: &[index::Entry]| v.iter().map(|e| (e.path.clone(), e.oid, e.mode)).collect::<Vec<_>>();
    assert_eq!(paths(&v4), paths(&v3), "version 4's compressed paths come out whole");
    assert_eq!(look(root).0, print, "the same tree whatever the index version");
}

#[test]
fn a_project_in_a_subdirectory_sees_only_its_subtree() {
    let dir = repo();
    let root = dir.path();
    let project = root.join("src");
    let (first, _) = look(&project);
    write(root, "a.txt", "changed outside the project\n");
    write(root, "outside.txt", "new outside the project\n");
    assert_eq!(look(&project).0, first, "outside the project root");
    write(root, "src/b.txt", "changed inside\n");
    let (inside, summary) = look(&project);
    assert_ne!(inside, first);
    assert_eq!(summary, "1 file changed: 1 modified");
    write(root, "src/.claude/pua-loop.local.md", "state");
    assert_eq!(look(&project).0, inside, "the project's own .claude/ is loopgate's");
}

#[test]
fn a_linked_work_tree_is_read_through_its_git_file() {
    let dir = repo();
    let linked = dir.path().join("linked");
    git(
        dir.path(),
        &["worktree", "add", "-q", linked.to_str().expect("utf-8"), "-b", "side"],
    );
    let (first, _) = look(&linked);
    write(&linked, "a.txt", "edited in the linked tree\n");
    let (edited, summary) = look(&linked);
    assert_ne!(edited, first);
    assert_eq!(summary, "1 file changed: 1 modified");
    git(&linked, &["commit", "-q", "-am", "side"]);
    assert_ne!(
        look(&linked).0,
        edited,
        "a commit on the linked tree's branch moves its HEAD"
    );
}

#[test]
fn an_unsupported_repository_falls_back_to_file_metadata() {
    let dir = repo();
    let root = dir.path();
    git(root, &["config", "core.splitIndex", "true"]);
    git(root, &["update-index", "--split-index"]);
    let first = probe(root);
    assert_eq!(first.method, Method::Metadata, "a split index is not read in process");
    write(root, "a.txt", "edited\n");
    let (edited, summary) = probe_since(root, Some(&first.fingerprint));
    assert_ne!(edited, first, "the edit is still seen");
    assert_eq!(summary, None, "without the index, no count of the uncommitted work");
}

#[test]
fn the_search_for_the_repository_stops_below_a_ceiling_directory() {
    let dir = repo();
    let root = dir.path();
    write(root, "sub/inner/c.txt", "c\n");
    let inner = root.join("sub/inner");
    let ceiling = |path: &Path| vec![fs::canonicalize(path).expect("canonical")];
    assert!(repo::find_below(&inner, &[]).is_some());
    assert!(
        repo::find_below(&inner, &ceiling(&root.join("sub"))).is_none(),
        "never steps up into `sub`"
    );
    assert!(
        repo::find_below(&inner, &ceiling(&inner)).is_some(),
        "the starting directory is looked at, and the ceiling is not above it"
    );
    assert!(
        repo::find_below(root, &ceiling(root)).is_some(),
        "a ceiling at the work tree itself"
    );
}

#[test]
fn observe_summarizes_only_when_the_tree_changed() {
    let dir = repo();
    let root = dir.path();
    write(root, "a.txt", "alpha\nmore\n");
    let (first, summary) = probe_since(root, None);
    assert_eq!(first, probe(root));
    assert_eq!(summary.as_deref(), Some("1 file changed: 1 modified"));
    let (again, summary) = probe_since(root, Some(&first.fingerprint));
    assert_eq!((again, summary), (first, None), "nothing changed: no summary");
    let plain = tempfile::tempdir().expect("tempdir");
    let (outside, summary) = probe_since(plain.path(), None);
    assert_eq!((outside.method, summary), (Method::Metadata, None));
}

#[test]
fn an_empty_repository_has_a_fingerprint_and_sees_its_first_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    git(root, &["init", "-q"]);
    let (empty, _) = look(root);
    write(root, "first.txt", "1\n");
    let (first, summary) = look(root);
    assert_ne!(first, empty);
    assert_eq!(summary, "1 file changed: 1 new");
}
