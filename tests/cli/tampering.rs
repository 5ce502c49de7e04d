//! Oracle isolation: the seal, not the state file the agent can edit, judges the loop.

use std::fs;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::project::{Project, STATE, assert_has};

const PROMISE: &str = "<promise>LOOP_DONE</promise>";

/// The agent rewrites the state file's verify command to `true` and promises: the sealed command still judges
/// (and fails), `tamper_detected` is recorded, model and user are told, and the state file is restored.
#[test]
fn edited_verify_command_is_overruled_by_the_seal() {
    let p = Project::new();
    p.setup(
        "S",
        r#"task --verify 'test -f done.txt || { echo "sealed check ran"; exit 1; }'"#,
    );
    let sealed_state = p.state_text().expect("state");
    let sealed_line = sealed_state
        .lines()
        .find(|l| l.starts_with("verify_command:"))
        .expect("verify_command line")
        .to_string();
    p.edit_state(|text| text.replace(&sealed_line, "verify_command: \"true\""));

    let block = p.stop("S", PROMISE).blocked();
    assert_has(&block.reason, "PROMISE REJECTED");
    assert_has(&block.reason, "sealed check ran");
    assert_has(&block.reason, "TAMPERING DETECTED");
    assert_has(&block.reason, "verify_command");
    assert!(
        block.system_message.contains("TAMPERING DETECTED") && block.system_message.contains("verify_command"),
        "the user is told too: {}",
        block.system_message
    );
    assert!(
        p.state_text().expect("state").contains(&sealed_line),
        "the state file is restored from the seal"
    );
    let tamper = p.last_record("tamper_detected");
    assert!(
        tamper["what"].as_str().is_some_and(|w| w.contains("verify_command")),
        "{tamper}"
    );
    assert_eq!(p.statuses(), ["init", "tamper_detected", "promise_rejected"]);
    assert_eq!(p.last_record("promise_rejected")["verify_exit"], 1);
    assert!(p.exists(STATE), "the loop goes on");
}

/// Deleting the state file does not end the loop: it is restored from the seal and the loop continues.
#[test]
fn deleted_state_file_is_restored_and_the_loop_continues() {
    let p = Project::new();
    p.setup("S", "keep going --verify 'false' --max-iterations 9");
    let loop_id = p.loop_id();
    fs::remove_file(p.path(STATE)).expect("delete state");

    let block = p.stop("S", "no signal").blocked();
    assert_has(&block.reason, "iteration 2/9");
    assert_has(&block.reason, "deleted");
    assert_eq!(p.loop_id(), loop_id, "restored, same loop");
    assert_eq!(p.state_field("iteration"), "2");
    assert_eq!(p.state_task(), "keep going");
    assert!(
        p.last_record("tamper_detected")["what"]
            .as_str()
            .is_some_and(|w| w.contains("deleted"))
    );
    // And a promise is still judged by the sealed command.
    fs::remove_file(p.path(STATE)).expect("delete state again");
    p.stop("S", PROMISE).blocked();
    assert_eq!(p.last_record("promise_rejected")["verify_exit"], 1);
}

/// loopgate knows its own last write of the state file by its bytes and skips reading it as YAML; a file written
/// again with the same bytes is still its own, and an edit that keeps the length is still caught field by field.
#[test]
fn a_state_file_edit_of_the_same_length_is_caught() {
    let p = Project::new();
    p.setup("S", "keep going --max-iterations 9");
    p.stop("S", "no signal").blocked();
    p.edit_state(str::to_string); // written again, byte for byte
    p.stop("S", "no signal").blocked();
    assert!(
        !p.statuses().contains(&"tamper_detected".to_string()),
        "{:?}",
        p.statuses()
    );
    assert_eq!(p.state_field("iteration"), "3");
    p.edit_state(|text| text.replace("iteration: 3", "iteration: 1"));
    let block = p.stop("S", "no signal").blocked();
    assert_has(&block.reason, "TAMPERING DETECTED");
    assert_has(&p.last_record("tamper_detected")["what"].to_string(), "iteration");
    assert_eq!(p.state_field("iteration"), "4", "the seal's count goes on");
}

/// A state file that is not YAML any more is kept aside (not deleted) and replaced from the seal.
#[test]
fn broken_yaml_state_is_kept_aside_and_restored() {
    let p = Project::new();
    p.setup("S", "task --verify false");
    let loop_id = p.loop_id();
    let broken = "---\nactive: [unclosed\nverify_command: true\n---\nmy task\n";
    p.write(STATE, broken);

    let block = p.stop("S", "no signal").blocked();
    let aside = corrupt_copies(&p);
    assert_eq!(aside.len(), 1, "one copy kept aside: {aside:?}");
    assert_eq!(
        fs::read_to_string(&aside[0]).expect("read copy"),
        broken,
        "kept byte for byte"
    );
    let name = aside[0].file_name().expect("name").to_string_lossy().into_owned();
    assert!(name.starts_with("pua-loop.local.md.corrupt-"), "{name}");
    assert!(
        block.reason.contains(&name),
        "the reason says where the copy is: {}",
        block.reason
    );
    assert_eq!(p.loop_id(), loop_id, "restored from the seal");
    assert_eq!(p.state_task(), "task");
    p.last_record("tamper_detected");
}

/// Two corrupt state files within the same second must both be kept: "nothing lost".
#[test]
fn corrupt_copies_kept_aside_never_overwrite_each_other() {
    let p = Project::new();
    p.setup("S", "task --verify false");
    // Earlier corrupt copies, named for every second around now: whatever second the hook runs in, a copy
    // with that name already exists and must survive.
    let now = SystemTime::now().duration_since(UNIX_EPOCH).expect("clock").as_secs();
    let earlier: Vec<(std::path::PathBuf, String)> = (now.saturating_sub(1)..now + 5)
        .map(|secs| {
            let path = p.path(&format!(".claude/pua-loop.local.md.corrupt-{}", compact_utc(secs)));
            let text = format!("earlier corrupt copy {secs}\n");
            fs::write(&path, &text).expect("write earlier copy");
            (path, text)
        })
        .collect();
    let broken = "---\niteration: [\n---\nnew garbage\n";
    p.write(STATE, broken);
    p.stop("S", "no signal").blocked();
    for (path, text) in &earlier {
        assert_eq!(
            fs::read_to_string(path).ok().as_deref(),
            Some(text.as_str()),
            "an earlier copy kept aside was overwritten: {}",
            path.display()
        );
    }
    assert!(
        corrupt_copies(&p)
            .iter()
            .any(|path| fs::read_to_string(path).ok().as_deref() == Some(broken)),
        "the new corrupt file was not kept: {:?}",
        corrupt_copies(&p)
    );
}

/// Each kind of change to a sealed file rejects the promise, names the file, and does not run the verify
/// command (which would pass, and leaves a marker when it runs).
#[test]
fn sealed_file_modified_rejects_the_promise_without_running_verify() {
    sealed_change_is_rejected("tests/a.txt", "changed", |p| {
        p.write("tests/a.txt", "weakened test\n");
    });
}

#[test]
fn sealed_file_deleted_rejects_the_promise_without_running_verify() {
    sealed_change_is_rejected("tests/b.txt", "deleted", |p| {
        fs::remove_file(p.path("tests/b.txt")).expect("delete");
    });
}

#[test]
fn sealed_file_added_rejects_the_promise_without_running_verify() {
    sealed_change_is_rejected("tests/deep/new.txt", "added", |p| {
        p.write("tests/deep/new.txt", "a new test that passes trivially\n");
    });
}

fn sealed_change_is_rejected(path: &str, kind: &str, change: impl Fn(&Project)) {
    let p = Project::new()
        .file("tests/a.txt", "assert a\n")
        .file("tests/b.txt", "assert b\n")
        .file("src/lib.txt", "code\n");
    p.setup(
        "S",
        "fix the code --seal 'tests/**' --verify 'touch verify-ran; true' --no-baseline",
    );
    assert_eq!(
        p.seal()["files"].as_object().map(|f| f.len()),
        Some(2),
        "both test files sealed"
    );
    p.write("src/lib.txt", "fixed code\n"); // not sealed: free to change
    change(&p);

    let block = p.stop("S", PROMISE).blocked();
    assert_has(&block.reason, "PROMISE REJECTED");
    assert!(
        block.reason.contains(&format!("{path} ({kind})")),
        "names the file: {}",
        block.reason
    );
    assert!(!block.reason.contains("src/lib.txt"), "{}", block.reason);
    assert!(
        !p.exists("verify-ran"),
        "the verify command ran although sealed files changed"
    );
    let rejected = p.last_record("promise_rejected");
    assert_eq!(rejected["rejections"], 1);
    assert!(
        rejected["sealed_changes"]
            .as_array()
            .is_some_and(|c| c.iter().any(|c| c.as_str().is_some_and(|c| c.contains(path)))),
        "{rejected}"
    );
}

/// After restoring the sealed files the same promise passes.
#[test]
fn restoring_sealed_files_lets_the_promise_pass() {
    // The verify's marker is read from the project: the run stands in the project's own tree.
    let p = Project::new().in_project_tree().file("tests/a.txt", "assert a\n");
    p.setup(
        "S",
        "task --seal 'tests/**' --verify 'touch verify-ran; true' --no-baseline",
    );
    p.write("tests/a.txt", "assert nothing\n");
    p.stop("S", PROMISE).blocked();
    p.write("tests/a.txt", "assert a\n");
    let message = p.stop("S", PROMISE).allowed();
    assert!(message.contains("verified complete"), "{message}");
    assert!(p.exists("verify-ran"));
}

/// The `.claude/pua-loop.local.md.corrupt-*` copies in the project.
fn corrupt_copies(p: &Project) -> Vec<std::path::PathBuf> {
    let mut copies: Vec<_> = fs::read_dir(p.path(".claude"))
        .expect("read .claude")
        .flatten()
        .map(|e| e.path())
        .filter(|path| {
            path.file_name()
                .is_some_and(|n| n.to_string_lossy().contains(".corrupt-"))
        })
        .collect();
    copies.sort();
    copies
}

/// Seconds since the epoch as `20261121T194917Z` (UTC), the stamp loopgate puts on corrupt copies.
fn compact_utc(secs: u64) -> String {
    let days = secs / 86_400;
    let rem = secs % 86_400;
    let (y, m, d) = civil_from_days(i64::try_from(days).expect("days fit"));
    format!(
        "{y:04}{m:02}{d:02}T{:02}{:02}{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Howard Hinnant's days-to-civil algorithm.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = u32::try_from(doy - (153 * mp + 2) / 5 + 1).expect("day");
    let m = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).expect("month");
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[test]
fn compact_utc_matches_a_known_date() {
    // 2026-11-21T19:49:17Z
    assert_eq!(compact_utc(1_795_290_557), "20261121T194917Z");
}

/// A forged `complete` line appended to the history and an edited verify log are noticed at the next stop,
/// reported to model and user, and change nothing: the loop runs on.
#[test]
fn forged_history_and_edited_verify_log_are_reported() {
    let p = Project::new();
    p.setup("S", "task --verify 'echo sealed says no; exit 1'");
    let block = p.stop("S", PROMISE).blocked();
    let log = crate::full_loop::log_path_in(&block.reason);
    let loop_id = p.loop_id();
    p.write(&log, "all tests passed\n");
    let mut history = p.history_bytes();
    history.extend_from_slice(
        format!(
            "{{\"loop_id\":\"{loop_id}\",\"iteration\":2,\"status\":\"complete\",\"timestamp\":\"2026-01-01T00:00:00Z\"}}\n"
        )
        .as_bytes(),
    );
    p.write(crate::project::HISTORY, &history);

    let block = p.stop("S", "no signal").blocked();
    assert_has(&block.reason, "TAMPERING DETECTED");
    assert_has(&block.reason, "history");
    assert!(block.reason.contains(&log), "names the log: {}", block.reason);
    assert!(block.system_message.contains("TAMPERING DETECTED"));
    let tampered: Vec<String> = p
        .history()
        .iter()
        .filter(|r| r["status"] == "tamper_detected")
        .map(|r| r["what"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(tampered.len(), 2, "{tampered:?}");
    assert!(p.exists(STATE), "the forged record ended nothing");
    let status = p.loopgate(["status", "--json"]).run().stdout_json();
    assert_eq!(status["state"], "running");
}

/// A process left running rewrites a sealed file only while the verify runs and puts it back before the run
/// ends: no check before or after the run can see it; the watch during the run does, and voids the pass.
#[test]
fn a_sealed_file_rewritten_and_restored_during_the_verify_voids_the_pass() {
    // In the room's own tree the rewrite would not even reach the run; this is the fallback's watch at work.
    let p = Project::new()
        .in_project_tree()
        .file("data/expected.txt", "bad\n")
        .file(
            "check.sh",
            "touch verify-started\nsleep 1\ngrep -q good data/expected.txt || exit 1\nsleep 3\n",
        );
    p.setup(
        "S",
        "make the check pass --seal 'data/**' --verify 'sh check.sh' --no-baseline",
    );
    // The agent's background process: waits for the verify, swaps the data in, puts it back before the end.
    let accomplice = std::process::Command::new("sh")
        .arg("-c")
        .arg(
            "for i in $(seq 100); do [ -e verify-started ] && break; sleep 0.1; done; \
             printf 'good\\n' > data/expected.txt; sleep 2; printf 'bad\\n' > data/expected.txt",
        )
        .current_dir(p.path(""))
        .spawn()
        .expect("start the background process");
    let block = p.stop("S", PROMISE).blocked();
    let _ = accomplice.wait_with_output();
    assert_has(&block.reason, "changed WHILE the verify command ran");
    assert_has(&block.reason, "data/expected.txt (changed)");
    assert_eq!(p.read("data/expected.txt"), "bad\n", "the accomplice put the file back");
    assert_eq!(
        p.last_record("promise_rejected")["rejections"],
        1,
        "the pass was voided"
    );
}
