//! Links the agent planted where loopgate writes (issue 39, item 5). The agent can write the project, `.claude/`
//! included, and loopgate's hooks run unconfined as the user, so a link in place of one of loopgate's files
//! (`.claude/pua-loop-history.jsonl -> ~/.bashrc`) or directories (`.claude/loopgate -> ~/.config/x`) would
//! have loopgate write outside the project for it. Each test plants one, drives the real binary through the step
//! that writes there, and checks that the file outside is untouched (and nothing is created through a dangling
//! link), that the user is told in one line naming the path, and that nothing panicked.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use crate::project::{CONTEXT, HISTORY, Output, Project, STATE, assert_has};

const PLANTED: &str = "is a symbolic link loopgate did not make; remove it";
const PROMISE: &str = "<promise>LOOP_DONE</promise>";
const BASHRC: &str = "# the user's bashrc\n";

/// The user's `~/.bashrc`, as it was.
fn bashrc(p: &Project) -> PathBuf {
    let path = p.home().join(".bashrc");
    fs::write(&path, BASHRC).expect("write");
    path
}

/// Replaces the project's `relative` (a file or a directory, or nothing) with a link to `target`.
fn plant(p: &Project, relative: &str, target: &Path) {
    let path = p.path(relative);
    let _ = fs::remove_file(&path);
    let _ = fs::remove_dir_all(&path);
    symlink(target, &path).expect("plant a link");
}

#[track_caller]
fn untouched(bashrc: &Path) {
    assert_eq!(
        fs::read_to_string(bashrc).expect("read"),
        BASHRC,
        "written through a link"
    );
}

#[track_caller]
fn no_panic(out: &Output) {
    assert!(
        !out.stderr.contains("panicked") && !out.stdout.contains("internal error"),
        "{out}"
    );
}

/// The history replaced by a link to `~/.bashrc` at a promise the verify rejects: nothing is written through
/// it; the stop is let through (failing open, as for any history that cannot be written: nothing is decided
/// that the record would not tell) with one line naming the link; the loop is not moved on, and judges the
/// same promise once the history is back.
#[test]
fn a_linked_history_is_never_appended_to_and_the_loop_waits_for_it() {
    let p = Project::new().file("a.txt", "hi\n");
    p.setup("S", "task --verify 'false' --max-iterations 20");
    let outside = bashrc(&p);
    fs::rename(p.path(HISTORY), p.outside("history")).expect("move the history");
    plant(&p, HISTORY, &outside);
    let iteration = p.seal()["fields"]["iteration"].clone();
    let out = p.stop("S", PROMISE);
    no_panic(&out);
    untouched(&outside);
    let message = out.allowed();
    assert_has(&message, &format!("`{HISTORY}` {PLANTED}"));
    assert_has(&message, "not enforced");
    assert_eq!(out.stderr.trim().lines().count(), 1, "one line: {}", out.stderr);
    assert_eq!(p.seal()["fields"]["iteration"], iteration, "the loop did not move on");

    fs::remove_file(p.path(HISTORY)).expect("rm link");
    fs::rename(p.outside("history"), p.path(HISTORY)).expect("history back");
    let block = p.stop("S", PROMISE).blocked();
    assert_has(&block.reason, "PROMISE REJECTED");
    assert_eq!(p.last_record("promise_rejected")["loop_id"], p.loop_id());
    untouched(&outside);
}

/// A passing verify with the history linked away: the loop is not called complete (no `complete` could be
/// recorded), the user hears why, and once the link is gone the same promise completes it.
#[test]
fn a_completion_is_not_lost_to_a_linked_history() {
    let p = Project::new().file("a.txt", "hi\n");
    p.setup("S", "task --verify 'true'");
    let outside = bashrc(&p);
    fs::rename(p.path(HISTORY), p.outside("history")).expect("move the history");
    plant(&p, HISTORY, &outside);
    let out = p.stop("S", PROMISE);
    no_panic(&out);
    untouched(&outside);
    assert_has(&out.allowed(), PLANTED);
    assert!(p.exists(STATE), "the loop is still there");

    fs::remove_file(p.path(HISTORY)).expect("rm link");
    fs::rename(p.outside("history"), p.path(HISTORY)).expect("history back");
    p.stop("S", PROMISE).allowed();
    assert_eq!(p.statuses().last().map(String::as_str), Some("complete"));
    untouched(&outside);
}

/// A hard link is no way around it: the history hard-linked to `~/.bashrc` is not appended to.
#[test]
fn a_hard_linked_history_is_never_appended_to() {
    let p = Project::new().file("a.txt", "hi\n");
    p.setup("S", "task --verify 'false' --max-iterations 20");
    let outside = bashrc(&p);
    fs::remove_file(p.path(HISTORY)).expect("rm");
    fs::hard_link(&outside, p.path(HISTORY)).expect("hard link");
    let out = p.stop("S", PROMISE);
    no_panic(&out);
    untouched(&outside);
    assert_has(&out.allowed(), "a hard link to another file");
}

/// `setup` in a project whose history is already a link: refused in one line naming it, nothing written.
#[test]
fn setup_refuses_a_linked_history() {
    let p = Project::new().file("a.txt", "hi\n");
    let outside = bashrc(&p);
    fs::create_dir_all(p.path(".claude")).expect("mkdir");
    plant(&p, HISTORY, &outside);
    let out = p
        .loopgate(["setup", "--args-stdin", "--session-id", "S"])
        .stdin("task --verify 'false'")
        .run();
    no_panic(&out);
    untouched(&outside);
    assert_ne!(out.code, Some(0), "{out}");
    assert_has(&out.stderr, PLANTED);
}

/// `.claude/loopgate` replaced by a link to a directory outside (or a dangling one): nothing is made there — no
/// lock, no log, no checkpoint index — and the user is told.
#[test]
fn a_linked_work_directory_gets_nothing() {
    let p = Project::new().file("a.txt", "hi\n");
    p.setup("S", "task --verify 'false' --max-iterations 20");
    let outside = p.home().join(".config/x");
    fs::create_dir_all(&outside).expect("mkdir");
    plant(&p, ".claude/loopgate", &outside);
    let out = p.stop("S", PROMISE);
    no_panic(&out);
    let verify = p.loopgate(["verify"]).run();
    no_panic(&verify);
    let made: Vec<_> = fs::read_dir(&outside)
        .expect("ls")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(made.is_empty(), "written through the link: {made:?}");
    assert_has(&out.stdout, &format!("`.claude/loopgate` {PLANTED}"));
    assert_has(&format!("{}{}", verify.stdout, verify.stderr), PLANTED);

    let gone = p.home().join("gone");
    plant(&p, ".claude/loopgate", &gone);
    let out = p.stop("S", PROMISE);
    no_panic(&out);
    assert!(!gone.exists(), "made through a dangling link");
}

/// The project lock at a stop, the verify lock at `loopgate verify` and the tool marker at a tool call after a
/// block, each a dangling link to `~/.profile`: never created through, and the user told where loopgate speaks.
#[test]
fn locks_and_markers_are_never_created_through_a_link() {
    let setup = |name: &str| {
        let p = Project::new().file("a.txt", "hi\n");
        p.setup("S", "task --verify 'false' --max-iterations 20");
        let profile = p.home().join(".profile");
        plant(&p, &format!(".claude/loopgate/{name}"), &profile);
        (p, profile)
    };
    let (p, profile) = setup("lock");
    let out = p.stop("S", PROMISE);
    no_panic(&out);
    assert!(!profile.exists(), "created through a link");
    assert_has(&out.allowed(), &format!("`.claude/loopgate/lock` {PLANTED}"));

    let (p, profile) = setup("verify.lock");
    let verify = p.loopgate(["verify"]).run();
    no_panic(&verify);
    p.stop("S", PROMISE).blocked();
    assert!(!profile.exists(), "created through a link");

    let (p, profile) = setup("tool-ran");
    p.stop("S", "working").blocked();
    p.tool_call("S", "Read", serde_json::json!({"file_path": "a.txt"}));
    assert!(!profile.exists(), "created through a link");
}

/// The state file as a link: like a corrupt state file, it is kept aside (the link renamed, never followed), the
/// file restored from the seal, `tamper_detected` recorded, and the stop decided from the seal as usual.
#[test]
fn a_linked_state_file_is_kept_aside_not_written_through() {
    let p = Project::new().file("a.txt", "hi\n");
    p.setup("S", "task --verify 'false' --max-iterations 20");
    let outside = bashrc(&p);
    plant(&p, STATE, &outside);
    let out = p.stop("S", PROMISE);
    no_panic(&out);
    untouched(&outside);
    let block = out.blocked();
    assert_has(&block.system_message, "it is a symbolic link loopgate did not make");
    assert_has(&block.system_message, "pua-loop.local.md.corrupt-");
    assert!(
        !fs::symlink_metadata(p.path(STATE))
            .expect("state")
            .file_type()
            .is_symlink()
    );
    assert_eq!(p.state_field("iteration"), "2");
    assert_eq!(p.statuses().iter().filter(|s| *s == "tamper_detected").count(), 1);
}

/// The verify logs at a stop and at `loopgate verify`, and the report of a loop that ends at its limit, as links
/// to `~/.bashrc`: a log is written to a new file renamed over the link (replacing it, never following it); the
/// report is refused and the user told.
#[test]
fn logs_and_reports_are_never_written_through_a_link() {
    let p = Project::new().file("a.txt", "hi\n");
    p.setup(
        "S",
        "task --verify 'echo \"\\$(touch PWNED); x\"; false' --max-iterations 2",
    );
    let outside = bashrc(&p);
    p.stop("S", PROMISE).blocked();
    let id = p.loop_id();
    let logs = || -> Vec<String> {
        fs::read_dir(p.path(".claude/loopgate"))
            .expect("ls")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".log"))
            .collect()
    };
    let before = logs();
    assert!(!before.is_empty());
    for name in before
        .iter()
        .cloned()
        .chain((0..4).map(|n| format!("verify-{id}-{n}.log")))
    {
        plant(&p, &format!(".claude/loopgate/{name}"), &outside);
    }
    plant(&p, &format!(".claude/loopgate/report-{id}.md"), &outside);
    let verify = p.loopgate(["verify"]).run();
    no_panic(&verify);
    untouched(&outside);
    let out = p.stop("S", "working");
    no_panic(&out);
    untouched(&outside);
    assert_has(&out.allowed(), &format!("`.claude/loopgate/report-{id}.md` {PLANTED}"));
    assert!(!p.exists("PWNED") && !p.home().join("PWNED").exists());
}

/// The pause's context file as a link: not written through, and the user told.
#[test]
fn the_context_file_is_never_written_through_a_link() {
    let p = Project::new().file("a.txt", "hi\n");
    p.setup("S", "task --verify 'false' --max-iterations 20");
    let outside = bashrc(&p);
    plant(&p, CONTEXT, &outside);
    let out = p.stop("S", "<loop-pause>the API key</loop-pause>");
    no_panic(&out);
    untouched(&outside);
    assert_has(&out.allowed(), &format!("`{CONTEXT}` {PLANTED}"));
}

/// The private checkpoint index as a link: git's own write goes beside it and replaces the link, loopgate's copy
/// too; `~/.bashrc` keeps its bytes.
#[test]
fn a_linked_checkpoint_index_is_not_written_through() {
    let p = Project::new().file("a.txt", "hi\n");
    p.sh("git init -q -b main && git add a.txt && git -c user.name=t -c user.email=t@t commit -q -m first")
        .run()
        .success();
    p.setup("S", "task --verify 'false' --max-iterations 20");
    let outside = bashrc(&p);
    plant(&p, ".claude/loopgate/checkpoint-index", &outside);
    p.write("a.txt", "changed\n");
    let out = p.stop("S", "working");
    no_panic(&out);
    untouched(&outside);
    out.blocked();
}
