//! Faults (issue 23, item 1): a full disk, a half-finished write, concurrent stops, odd paths. Each test first
//! reproduces the fault as it was reported, then checks that loopgate neither lies in its history nor accuses
//! the agent of what loopgate itself left unfinished.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::is_root;
use crate::project::{HISTORY, Project, STATE, assert_has, set_mode};

/// A full file system under the project's `.claude/`: a small tmpfs mounted over it (as root, where mounting
/// works) and filled up, else (unprivileged) the directory made read-only, which fails the same writes — new
/// files, as the atomic state-file write needs — while the existing history can still be appended to, as in
/// the report (a full disk still has room in the history's last block).
struct FullDisk {
    mount: Option<PathBuf>,
    dir: PathBuf,
}

impl FullDisk {
    /// `None` when neither way works here (the caller says why it skips).
    fn new(p: &Project) -> Option<Self> {
        let dir = p.path(".claude");
        if is_root() && Self::mount_tmpfs(&dir) {
            // Fill what is left, so the next new file fails with ENOSPC.
            let _ = fs::write(dir.join("fill"), vec![0u8; 1 << 20]);
            return Some(Self {
                mount: Some(dir.clone()),
                dir,
            });
        }
        if is_root() {
            return None;
        }
        set_mode(&dir, 0o555);
        Some(Self { mount: None, dir })
    }

    /// Mounts a 256 KiB tmpfs over `dir` with `dir`'s files copied in.
    fn mount_tmpfs(dir: &Path) -> bool {
        let saved = dir.with_extension("saved");
        let copy = |from: &Path, to: &Path| {
            Command::new("cp")
                .arg("-a")
                .arg(from.join("."))
                .arg(to)
                .status()
                .is_ok_and(|s| s.success())
        };
        let _ = fs::create_dir_all(&saved);
        if !copy(dir, &saved) {
            return false;
        }
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"])
            .arg(dir)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        mounted && copy(&saved, dir)
    }

    /// Makes room again; the files stay where they are.
    fn free(&self) {
        let _ = fs::remove_file(self.dir.join("fill"));
        set_mode(&self.dir, 0o755);
    }
}

impl Drop for FullDisk {
    fn drop(&mut self) {
        if let Some(dir) = &self.mount {
            let _ = Command::new("umount").arg("-l").arg(dir).status();
        }
    }
}

/// Reported: with the disk full the Stop hook failed open although the history recorded `continue`, and once
/// there was space again the next stop called loopgate's own unfinished state-file write "TAMPERING DETECTED:
/// the state file's `iteration` … changed". Now the seal (outside the project) carries the loop: the stop is
/// decided as usual, the user is told the state file could not be written, and the next stop restores the
/// file without a word of tampering.
#[test]
fn a_full_disk_is_no_accusation() {
    let p = Project::new().file("a.txt", "hi\n");
    p.setup("S", "task --verify 'false' --max-iterations 20");
    p.stop("S", "working").blocked();
    let Some(disk) = FullDisk::new(&p) else {
        eprintln!("SKIPPED a_full_disk_is_no_accusation: root, but `mount -t tmpfs` is not allowed here");
        return;
    };
    p.write("a.txt", "changed\n");
    let out = p.stop("S", "still working");
    let block = out.blocked();
    assert_has(&block.system_message, "pua-loop.local.md");
    assert_has(&block.system_message, "failed to write");
    let last = p.history().pop().expect("a record");
    assert_eq!(
        last["status"], "continue",
        "the record tells what happened: the stop was blocked"
    );
    assert_eq!(p.seal()["fields"]["iteration"], 3);

    disk.free();
    let block = p.stop("S", "again").blocked();
    assert!(!block.reason.contains("TAMPERING"), "{}", block.reason);
    assert!(!block.system_message.contains("TAMPERING"), "{}", block.system_message);
    assert!(
        p.history().iter().all(|r| r["status"] != "tamper_detected"),
        "{:?}",
        p.statuses()
    );
    assert_eq!(p.state_field("iteration"), "4", "the state file is whole again");
    assert!(p.exists(STATE) && p.exists(HISTORY));
}

/// Reported: an escape sequence in a task (a window title, a screen clear) reached the terminal through
/// `setup` and `status`. Now every control character is shown (`\u{1b}`), never sent as is; `--json` escapes
/// them as JSON does.
#[test]
fn escape_sequences_in_a_task_never_reach_the_terminal() {
    let p = Project::new();
    let task = "fix it \u{1b}]0;owned\u{7}\u{1b}[2J\u{1b}[31mred";
    let setup = p.loopgate(["setup", "--session-id", "S", task]).run();
    setup.success();
    let status = p.loopgate(["status"]).run();
    status.success();
    p.stop("S", "still at it \u{1b}[2J").blocked();
    let history = p.loopgate(["history"]).run();
    for (what, out) in [("setup", &setup), ("status", &status), ("history", &history)] {
        assert!(
            !out.stdout.contains('\u{1b}') && !out.stdout.contains('\u{7}'),
            "{what}:\n{out}"
        );
    }
    assert_has(&setup.stdout, "fix it \\u{1b}]0;owned\\u{7}\\u{1b}[2J");
    assert_has(&status.stdout, "\\u{1b}[2J");
    let json = p.loopgate(["status", "--json"]).run().stdout_json();
    assert_eq!(json["task"], task, "the task itself is kept byte for byte");
}

/// Reported: `status` and `history` exited 0 with no loop although the README said 3. They are reports, and
/// Claude Code fails a slash command whose `!` block exits non-zero (checked with 2.1.197: `/loop-status`
/// showed "Shell command failed" with no loop), so they keep 0 and the README now says so; a script reads
/// `status --json`'s `state`. Commands that need a loop (`cancel`, `verify`, `allow`) exit 3.
#[test]
fn status_and_history_are_reports_and_commands_needing_a_loop_exit_3() {
    let p = Project::new();
    p.loopgate(["status"]).run().success().stdout_contains("no loop");
    assert_eq!(p.loopgate(["status", "--json"]).run().stdout_json()["state"], "none");
    p.loopgate(["history"]).run().success();
    for command in ["cancel", "verify"] {
        p.loopgate([command]).run().code(3);
    }
}

/// Reported: `loopgate diff` ignored `NO_COLOR` (git does not read it).
#[test]
fn diff_honours_no_color() {
    let p = Project::new().file("a.txt", "one\n");
    p.sh(
        "git init -q && git config color.ui always && git add -A && git -c user.name=t -c user.email=t@t commit -qm a",
    )
    .run()
    .success();
    p.setup("S", "task");
    p.write("a.txt", "two\n");
    let colored = p.loopgate(["diff", "0"]).run();
    colored.success();
    assert!(
        colored.stdout.contains('\u{1b}'),
        "git colors it as configured:\n{colored}"
    );
    let plain = p.loopgate(["diff", "0"]).env("NO_COLOR", "1").run();
    plain.success().stdout_contains("+two");
    assert!(!plain.stdout.contains('\u{1b}'), "{plain}");
}

/// Reported: with the binary missing, every session start told the user to run `cargo install --path` on the
/// plugin copy `loopgate install` writes, a folder without a `Cargo.toml`. The hint now names a folder that
/// builds (a clone), or says to clone one.
#[test]
fn the_missing_binary_hint_names_a_folder_that_builds() {
    let p = Project::new();
    let copy = p.outside("plugin");
    fs::create_dir_all(copy.join("hooks")).expect("plugin dir");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    fs::copy(repo.join("hooks/loopgate.sh"), copy.join("hooks/loopgate.sh")).expect("copy loopgate.sh");
    let hint = |plugin_root: &Path| {
        let out = p
            .sh("sh \"$CLAUDE_PLUGIN_ROOT/hooks/loopgate.sh\" hook session-start </dev/null")
            .env("CLAUDE_PLUGIN_ROOT", plugin_root)
            .env("PATH", "/usr/bin:/bin")
            .env("LOOPGATE_BIN", "")
            .run();
        out.success();
        out.json()["systemMessage"].as_str().unwrap_or_default().to_string()
    };
    let from_copy = hint(&copy);
    assert_has(&from_copy, "loops are OFF");
    assert!(
        !from_copy.contains(&format!("--path {}", copy.display())),
        "{from_copy}"
    );
    assert_has(&from_copy, "from a clone of https://github.com/loopgate/loopgate");
    // A clone (its own build, if any, left out of the picture: only its Cargo.toml matters here).
    let clone = p.outside("clone");
    fs::create_dir_all(clone.join("hooks")).expect("clone dir");
    fs::copy(repo.join("hooks/loopgate.sh"), clone.join("hooks/loopgate.sh")).expect("copy loopgate.sh");
    fs::write(clone.join("Cargo.toml"), "[package]\nname = \"loopgate\"\n").expect("Cargo.toml");
    let from_clone = hint(&clone);
    assert_has(
        &from_clone,
        &format!("cargo install --locked --path {}", clone.display()),
    );
}

/// The Stop hook input with `transcript_path` set to `path` and no `last_assistant_message` (older clients),
/// so the transcript is the fallback for the message too.
fn stop_with_transcript(p: &Project, path: &Path) -> crate::project::Output {
    let mut input = p.stop_input("S", "");
    input["transcript_path"] = serde_json::json!(path);
    input.as_object_mut().expect("object").remove("last_assistant_message");
    p.loopgate(["hook", "stop"])
        .stdin(input.to_string())
        .deadline(std::time::Duration::from_secs(10))
        .run()
}

/// Reported: `--max-tokens` was silently not enforced when the transcript could not be read, a transcript path
/// of `/dev/zero` grew the hook's memory to gigabytes, and a FIFO hung it. Now only a regular file is read (the
/// open never blocks), and a budget that cannot be measured is named to the user at that stop.
#[test]
fn a_transcript_that_is_no_file_is_refused_and_the_unmeasured_budget_is_named() {
    let p = Project::new();
    p.setup("S", "task --max-tokens 1000 --stall-limit 0");
    let fifo = p.outside("fifo.jsonl");
    assert!(
        Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()),
        "mkfifo"
    );
    let missing = p.outside("missing.jsonl");
    for path in [Path::new("/dev/zero"), fifo.as_path(), missing.as_path()] {
        let out = stop_with_transcript(&p, path);
        let block = out.blocked();
        assert_has(&block.system_message, "`--max-tokens` is not enforced at this stop");
        assert_has(&block.system_message, &path.display().to_string());
    }
    assert_eq!(p.state_field("tokens_used"), "0");
}

/// Reported: concurrent stops of one session (the Stop hook registered twice runs twice, at once, with the same
/// input) corrupted the counters — each moved the loop on — and two verify runs writing one log recorded a false
/// "verify log replaced". Now the same stop heard twice moves the loop once: one decision, one record, one
/// verify; the twins print nothing (Claude Code takes the one block).
#[test]
fn the_same_stop_heard_six_times_moves_the_loop_once() {
    let p = Project::new();
    p.setup("S", "task --verify 'sleep 0.3; false'");
    // Claude Code's transcript of the session: the same for twins, longer for the next real stop.
    fs::write(p.outside("S.jsonl"), "{\"type\":\"user\"}\n").expect("transcript");
    let project = &p;
    // Each batch continues the turn the block before it kept going (`stop_hook_active`). Claude Code starts the
    // twins at once; so that a loaded test machine cannot start one a whole process start-up late (which would
    // make it a later stop, not a twin), the test holds the project lock until all six have started and wait.
    let twins = |message: &str, continuing: bool| -> Vec<crate::project::Output> {
        let mut input = project.stop_input("S", message);
        input["stop_hook_active"] = continuing.into();
        let input = input.to_string();
        let lock = fs::File::open(project.path(".claude/loopgate/lock")).expect("the project lock");
        lock.lock().expect("hold the project lock");
        std::thread::scope(|scope| {
            let runs: Vec<_> = (0..6)
                .map(|_| {
                    let input = input.clone();
                    scope.spawn(move || project.loopgate(["hook", "stop"]).stdin(input).run())
                })
                .collect();
            std::thread::sleep(std::time::Duration::from_millis(500));
            lock.unlock().expect("release the project lock");
            runs.into_iter().map(|r| r.join().expect("a stop")).collect()
        })
    };
    let outs = twins("<promise>LOOP_DONE</promise>", false);
    let blocks = outs.iter().filter(|o| o.stdout.contains("\"block\"")).count();
    let shown: Vec<String> = outs.iter().map(ToString::to_string).collect();
    assert_eq!(blocks, 1, "one decision: {shown:#?}");
    assert!(
        outs.iter()
            .all(|o| o.stdout.contains("\"block\"") || o.stdout.trim().is_empty())
    );
    assert_eq!(p.statuses(), ["init", "promise_rejected"]);
    assert_eq!(p.seal()["fields"]["iteration"], 2);

    let outs = twins("still working", true);
    assert_eq!(outs.iter().filter(|o| o.stdout.contains("\"block\"")).count(), 1);
    assert_eq!(
        p.statuses(),
        ["init", "promise_rejected", "gave_up"],
        "one (talk-only) stop"
    );
    assert_eq!(
        p.seal()["fields"]["unchanged_streak"],
        2,
        "one per stop: the promise's and this one"
    );
    // The next stop, with the same words, is an answer to that block: a new stop (the transcript grew).
    fs::write(p.outside("S.jsonl"), "{\"type\":\"user\"}\n{\"type\":\"assistant\"}\n").expect("grown");
    let mut input = p.stop_input("S", "still working");
    input["stop_hook_active"] = true.into();
    p.loopgate(["hook", "stop"]).stdin(input.to_string()).run().blocked();
    assert_eq!(p.seal()["fields"]["iteration"], 4);
    assert!(
        p.history().iter().all(|r| r["status"] != "tamper_detected"),
        "{:?}",
        p.statuses()
    );
}

/// Issue 23, item 5: a turn that ends on an API error (Claude Code's `StopFailure` hook: a rate limit, billing)
/// is recorded, changes nothing else, forgets the block that waited to be answered (so the next stop does not
/// report a `turn_ended`), leaves the loop running, and `loopgate status` says what happened and what to do.
#[test]
fn a_stop_failure_is_recorded_and_the_loop_stays_resumable() {
    let p = Project::new();
    p.setup("S", "task --verify false");
    p.stop("S", "working").blocked();
    let input = serde_json::json!({
        "session_id": "S",
        "transcript_path": p.outside("S.jsonl"),
        "cwd": p.root(),
        "hook_event_name": "StopFailure",
        "error": "rate_limit",
        "error_details": {"status": 429},
    });
    let out = p.hook("stop-failure", &input);
    let notice = out.allowed();
    assert_has(&notice, "API error (rate_limit)");
    assert_has(&notice, "still running");
    let record = p.last_record("stop_failure");
    assert_eq!(record["error"], "rate_limit", "{record}");
    assert_eq!(record["error_details"], "{\"status\":429}", "{record}");
    assert_eq!(p.seal()["fields"]["iteration"], 2, "nothing moved");
    let status = p.loopgate(["status"]).run();
    status
        .success()
        .stdout_contains("turn:        the agent's turn ended on an API error at iteration 2");
    // Another session's failure is not this loop's.
    let mut other = input.clone();
    other["session_id"] = "OTHER".into();
    p.hook("stop-failure", &other).silent();
    // The user sends a message once the API answers: the loop goes on, with no `turn_ended`.
    p.new_prompt("S");
    p.stop("S", "back at it").blocked();
    assert_eq!(p.statuses(), ["init", "continue", "stop_failure", "continue"]);
}

/// Issue 23, item 5: a desktop notification when a loop completes, pauses, stalls or ends — Claude Code's
/// `terminalSequence` (2.1.197 and 2.1.330 accept OSC 9) — and none with `--no-notify`.
#[test]
fn a_loop_that_lets_the_agent_go_notifies_the_desktop_unless_told_not_to() {
    let sequence = |out: &crate::project::Output| out.json()["terminalSequence"].as_str().map(str::to_string);
    let p = Project::new();
    p.setup("S", "task");
    let done = p.stop("S", "<promise>LOOP_DONE</promise>");
    done.allowed();
    assert_eq!(
        sequence(&done).as_deref(),
        Some("\u{1b}]9;loopgate: loop complete\u{7}")
    );
    p.setup("S", "task");
    let paused = p.stop("S", "<loop-pause>the \u{1b}[2J VPN key</loop-pause>");
    assert_eq!(
        sequence(&paused).as_deref(),
        Some("\u{1b}]9;loopgate: loop paused: the [2J VPN key\u{7}")
    );
    // A block is no news for the desktop.
    let q = Project::new();
    q.setup("S", "task --no-notify --verify false");
    assert!(sequence(&q.stop("S", "working")).is_none());
    let aborted = q.stop("S", "<loop-abort>impossible</loop-abort>");
    aborted.allowed();
    assert!(sequence(&aborted).is_none(), "{aborted}");
}

/// Reported: a 9 MB Bash command made the PreToolUse guard peak at 600 MB (tokenizing it word by word). A
/// command over 1 MiB is now refused with a reason the model can act on, at once and with little memory.
#[test]
fn a_huge_command_is_refused_without_tokenizing_it() {
    let p = Project::new();
    p.setup("S", "task");
    let command = "echo x; ".repeat(1_200_000);
    let out = p.tool_call("S", "Bash", serde_json::json!({"command": command}));
    let json = out.json();
    let decision = &json["hookSpecificOutput"];
    assert_eq!(decision["permissionDecision"], "deny", "{json}");
    assert!(
        decision["permissionDecisionReason"]
            .as_str()
            .is_some_and(|r| r.contains("9.2 MiB") && r.contains("Write tool")),
        "{json}"
    );
    assert!(
        out.elapsed < std::time::Duration::from_secs(5),
        "took {:?}",
        out.elapsed
    );
    // Under the limit, the guard still reads every word.
    let near = format!("{}rm .claude/pua-loop.local.md", "true; ".repeat(100_000));
    let json = p.tool_call("S", "Bash", serde_json::json!({"command": near})).json();
    assert_eq!(json["hookSpecificOutput"]["permissionDecision"], "deny", "{json}");
}

/// Reported: no shell completions. `loopgate completions SHELL` prints one generated from the same definitions
/// as the help (so every flag is in it), and bash accepts it.
#[test]
fn shell_completions_cover_every_command_and_flag() {
    let p = Project::new();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = p.loopgate(["completions", shell]).run();
        out.success();
        for word in ["checkpoints", "rollback", "no-notify", "keep-checkpoints"] {
            assert_has(&out.stdout, word);
        }
    }
    let bash = p.loopgate(["completions", "bash"]).run().stdout.clone();
    p.write("c.bash", &bash);
    p.sh("bash -n c.bash && bash -c '. ./c.bash && complete -p loopgate'")
        .run()
        .success()
        .stdout_contains("_loopgate");
    p.loopgate(["completions", "tcsh"]).run().code(2);
}
