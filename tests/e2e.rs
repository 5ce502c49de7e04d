//! End-to-end: the real Claude Code CLI (one of the versions in `tests/e2e/claude-versions.txt`, chosen with
//! `LOOPGATE_CLAUDE_VERSION`; `scripts/test.sh` runs the suite against the first and the scenarios
//! `tests/e2e/every-version.txt` names against each other) with this repository loaded as a
//! plugin, a scripted model behind a mock Messages API, and the test build of loopgate on `PATH`.
//!
//! Each scenario plays an agent turn by turn (text, `Bash` tool calls, promise / pause / abort tags) and then
//! checks what the model was shown (the requests it received, including "Stop hook feedback"), what the user
//! was shown (hook `systemMessage`s, slash command output), the loop history and the project's files.
//! Scenarios share nothing (own temp project, HOME, seal store and mock server) and run in parallel.
//!
//! Needs the CLI: `scripts/install-claude.sh` (or `LOOPGATE_CLAUDE_BIN`). Without it every scenario fails
//! with that instruction; nothing is skipped.

#[path = "support/common.rs"]
mod common;
#[path = "e2e/harness.rs"]
mod harness;
#[path = "e2e/holdout.rs"]
mod holdout;
#[path = "e2e/loop_aids.rs"]
mod loop_aids;
#[path = "e2e/mock_api.rs"]
mod mock_api;
#[path = "e2e/oracle_by_name.rs"]
mod oracle_by_name;
#[path = "e2e/review.rs"]
mod review;
#[path = "e2e/room.rs"]
mod room;
#[path = "e2e/tournament.rs"]
mod tournament;

#[path = "e2e/block_cap.rs"]
mod block_cap;
#[path = "e2e/budget.rs"]
mod budget;
#[path = "e2e/confine.rs"]
mod confine;
#[path = "e2e/control.rs"]
mod control;
#[path = "e2e/install.rs"]
mod install;
#[path = "e2e/sandbox_setup.rs"]
mod sandbox_setup;
#[path = "support/tmux.rs"]
mod tmux;
#[path = "e2e/tui.rs"]
mod tui;

use std::time::{Duration, Instant};

use harness::{Project, Run, claude_bin};
use mock_api::Reply;
use serde_json::Value;

use common::{CHECK_SH, TASK, alive, eventually};

fn promise() -> Reply {
    Reply::text("I believe the work is complete.\n\n<promise>LOOP_DONE</promise>")
}

/// An agent whose first fix fails the verify and whose second passes it.
fn rejected_then_fixed() -> [Reply; 4] {
    [
        Reply::bash("echo still-broken > src.txt"),
        promise(),
        Reply::bash("echo fixed > src.txt"),
        promise(),
    ]
}

fn project_with_check() -> Project {
    let project = Project::new();
    project.write("check.sh", CHECK_SH).write("src.txt", "broken\n");
    project
}

/// Prints how long a scenario took (visible with `--nocapture`), for the suite's timing report.
struct Timer(&'static str, Instant);

impl Drop for Timer {
    fn drop(&mut self) {
        eprintln!("[e2e] {} took {:.1}s", self.0, self.1.elapsed().as_secs_f64());
    }
}

fn timer(name: &'static str) -> Timer {
    Timer(name, Instant::now())
}

#[track_caller]
fn assert_contains(haystack: &str, needle: &str, what: &str, run: &Run) {
    assert!(
        haystack.contains(needle),
        "{what} should contain {needle:?} but was:\n{haystack}\n\n{}",
        run.describe()
    );
}

/// The history records with this status.
fn records<'a>(history: &'a [Value], status: &str) -> Vec<&'a Value> {
    history.iter().filter(|r| r["status"] == status).collect()
}

#[track_caller]
fn assert_ended(project: &Project, run: &Run) {
    assert!(
        !project.loop_live(),
        "the loop should have ended, state is:\n{:?}\n{}",
        project.state(),
        run.describe()
    );
}

#[track_caller]
fn assert_well_formed_history(project: &Project) {
    let history = project.history();
    let loop_id = &history.first().expect("history has an init record")["loop_id"];
    for record in &history {
        for field in ["loop_id", "iteration", "status", "timestamp"] {
            assert!(!record[field].is_null(), "history record lacks `{field}`: {record}");
        }
        assert_eq!(&record["loop_id"], loop_id, "one loop per scenario: {record}");
    }
}

#[test]
fn rejected_promise_feeds_verify_output_back_then_fixed_work_completes() {
    let _t = timer("rejected promise, then fixed and completed");
    let project = project_with_check();
    let run = project
        .session(format!(
            "/loopgate:pua-loop \"{TASK}\" --verify 'sh check.sh' --verify-timeout 10 --max-iterations 10"
        ))
        .replies(rejected_then_fixed())
        .run();

    // The setup briefing reached the model with the task and the verify command.
    let prompt = run.prompt_text();
    assert_contains(&prompt, TASK, "the briefing", &run);
    assert_contains(&prompt, "sh check.sh", "the briefing", &run);
    assert_contains(&prompt, "LOOP_DONE", "the briefing", &run);

    // The first promise was rejected and the model was told why, with the verify output.
    let feedback = run.stop_feedback();
    assert_eq!(
        feedback.len(),
        1,
        "exactly one rejection reached the model\n{}",
        run.describe()
    );
    assert_contains(&feedback[0], "VERIFY-MARK-7", "the stop feedback", &run);
    assert_contains(&feedback[0], "still-broken", "the stop feedback", &run);
    assert_contains(&feedback[0], TASK, "the stop feedback", &run);
    assert_contains(&feedback[0], "<promise>LOOP_DONE</promise>", "the stop feedback", &run);

    // The second promise was verified and the session ended there, script used up exactly.
    assert_eq!(run.result()["subtype"], "success", "{}", run.describe());
    assert_eq!((run.api.remaining(), run.api.exhausted()), (0, 0), "{}", run.describe());
    assert_eq!(
        project.statuses(),
        ["init", "promise_rejected", "complete"],
        "{}",
        run.describe()
    );
    let history = project.history();
    let rejected = records(&history, "promise_rejected")[0];
    assert_eq!(rejected["verify_exit"], 1, "{rejected}");
    assert_eq!(rejected["timed_out"], false, "{rejected}");
    assert!(
        rejected["verify_tail"]
            .as_str()
            .unwrap_or_default()
            .contains("VERIFY-MARK-7"),
        "{rejected}"
    );
    assert_eq!(records(&history, "init")[0]["verify_command"], "sh check.sh");
    assert_well_formed_history(&project);
    assert_ended(&project, &run);

    // The user was told the loop completed; the last Stop did not block.
    let last_stop = run.hook_outputs("Stop").pop().unwrap_or(Value::Null);
    assert_ne!(last_stop["decision"], "block", "{}", run.describe());
    assert!(
        !run.system_messages().is_empty(),
        "the user should see a summary\n{}",
        run.describe()
    );
}

#[test]
fn without_verify_command_the_promise_is_taken_on_honor() {
    let _t = timer("honor system (no --verify)");
    let project = Project::new();
    let run = project
        .session("/loopgate:pua-loop write hello into greeting.txt --max-iterations 5")
        .replies([Reply::bash("echo hello > greeting.txt"), promise()])
        .run();

    assert_contains(
        &run.prompt_text(),
        "write hello into greeting.txt",
        "the briefing",
        &run,
    );
    assert!(
        run.stop_feedback().is_empty(),
        "no feedback expected\n{}",
        run.describe()
    );
    assert_eq!(project.statuses(), ["init", "complete"], "{}", run.describe());
    assert!(
        project.history()[0]["verify_command"].is_null(),
        "{:?}",
        project.history()
    );
    assert_eq!(project.read("greeting.txt"), "hello\n");
    assert_ended(&project, &run);
}

#[test]
fn max_iterations_ends_the_loop_and_lets_the_agent_stop() {
    let _t = timer("max iterations");
    let project = project_with_check();
    let run = project
        .session(format!(
            "/loopgate:pua-loop {TASK} --verify 'sh check.sh' --max-iterations 3"
        ))
        .replies((1..=8).map(|i| Reply::text(format!("Still thinking, round {i}."))))
        .run();

    // Three iterations: two re-injections of the task, then the limit lets the agent stop.
    assert_eq!(run.agent_requests().len(), 3, "{}", run.describe());
    let feedback = run.stop_feedback();
    assert_eq!(feedback.len(), 2, "{}", run.describe());
    for reason in &feedback {
        assert_contains(reason, TASK, "each continuation", &run);
    }
    let statuses = project.statuses();
    assert_eq!(statuses.first().map(String::as_str), Some("init"));
    assert_eq!(
        statuses.last().map(String::as_str),
        Some("max_iterations"),
        "{}",
        run.describe()
    );
    assert!(
        !statuses.iter().any(|s| s == "complete" || s == "promise_rejected"),
        "{statuses:?}"
    );
    assert_well_formed_history(&project);
    assert_ended(&project, &run);
    assert!(
        run.api.remaining() > 0,
        "the loop should stop before the script runs out\n{}",
        run.describe()
    );
}

#[test]
fn abort_tag_ends_the_loop_and_tells_the_user_why() {
    let _t = timer("abort");
    let project = project_with_check();
    let run = project
        .session(format!("/loopgate:pua-loop {TASK} --verify 'sh check.sh'"))
        .replies([
            Reply::bash("cat src.txt"),
            Reply::text(
                "The task cannot be done as stated.\n<loop-abort>src.txt is generated, edits are lost</loop-abort>",
            ),
        ])
        .run();

    assert!(
        run.stop_feedback().is_empty(),
        "an abort must not be fed back\n{}",
        run.describe()
    );
    assert_eq!(project.statuses(), ["init", "aborted"], "{}", run.describe());
    assert_eq!(project.history()[1]["reason"], "src.txt is generated, edits are lost");
    let shown = run.system_messages().join("\n");
    assert_contains(
        &shown,
        "src.txt is generated, edits are lost",
        "what the user saw",
        &run,
    );
    assert_ended(&project, &run);
}

#[test]
fn paused_loop_is_resumed_by_the_next_session_and_completes() {
    let _t = timer("pause, then a new session resumes and completes");
    let project = project_with_check();
    let first = project
        .session(format!("/loopgate:pua-loop {TASK} --verify 'sh check.sh'"))
        .session_id("aaaaaaaa-0000-4000-8000-000000000001")
        .replies([Reply::text(
            "I need the staging password to go on.\n<loop-pause>the staging password</loop-pause>",
        )])
        .run();
    assert!(first.stop_feedback().is_empty(), "{}", first.describe());
    assert_eq!(project.statuses(), ["init", "paused"], "{}", first.describe());
    assert_eq!(project.history()[1]["reason"], "the staging password");
    let state = project.state().expect("a paused loop keeps its state file");
    assert!(state.contains("status: paused"), "{state}");
    assert!(
        project.exists(".claude/pua-loop-context.md"),
        "the pause should leave a context file"
    );
    let status = project.loopgate(&["status"]);
    assert!(status.status.success(), "loopgate status: {status:?}");
    assert!(
        status.stdout.contains("paused"),
        "a terminal user sees the pause: {}",
        status.stdout
    );

    // A new session (no slash command) adopts the loop: the task reaches the model as context.
    let second = project
        .session("The password is hunter2. Carry on.")
        .session_id("bbbbbbbb-0000-4000-8000-000000000002")
        .replies([Reply::bash("echo fixed > src.txt"), promise()])
        .run();
    assert_contains(
        &second.prompt_text(),
        TASK,
        "the resumed session's first request",
        &second,
    );
    assert!(second.stop_feedback().is_empty(), "{}", second.describe());
    assert_eq!(
        project.statuses(),
        ["init", "paused", "resumed", "complete"],
        "{}",
        second.describe()
    );
    assert_well_formed_history(&project);
    assert_ended(&project, &second);
}

#[test]
fn compaction_reinjects_the_running_loop() {
    let _t = timer("compaction re-injects the loop");
    let project = project_with_check();
    let id = "eeeeeeee-0000-4000-8000-000000000005";
    // A rejected promise, then the session ends with the loop running.
    let first = project
        .session(format!("/loopgate:pua-loop {TASK} --verify 'sh check.sh'"))
        .session_id(id)
        .max_turns(1)
        .replies([promise()])
        .run();
    assert_eq!(project.statuses(), ["init", "promise_rejected"], "{}", first.describe());

    // `/compact` on that session: the summary (scripted) loses everything, the hook brings the loop back.
    let compact = project
        .session("/compact")
        .arg("--resume")
        .arg(id)
        .replies([Reply::text("Summary: the user asked for some work.")])
        .run();
    let context: String = compact
        .hook_outputs("SessionStart:compact")
        .iter()
        .filter_map(|out| {
            out["hookSpecificOutput"]["additionalContext"]
                .as_str()
                .map(str::to_string)
        })
        .collect();
    assert_contains(&context, TASK, "the context re-injected after compaction", &compact);
    assert_contains(
        &context,
        "parser::roundtrip",
        "the context re-injected after compaction (last failure)",
        &compact,
    );

    // The next turn of that session sees it and finishes the loop.
    let next = project
        .session("Go on.")
        .arg("--resume")
        .arg(id)
        .replies([Reply::bash("echo fixed > src.txt"), promise()])
        .run();
    assert_contains(
        &next.prompt_text(),
        &context,
        "the first request after compaction",
        &next,
    );
    assert_eq!(
        project.statuses().last().map(String::as_str),
        Some("complete"),
        "{}",
        next.describe()
    );
    assert_ended(&project, &next);
}

#[test]
fn cancel_loop_command_ends_a_running_loop_without_the_model() {
    let _t = timer("/loopgate:cancel-loop");
    let project = project_with_check();
    // The first session leaves the loop running (max turns reached mid-loop).
    let first = project
        .session(format!("/loopgate:pua-loop {TASK} --verify 'sh check.sh'"))
        .max_turns(1)
        .replies([Reply::text("Looking around.")])
        .run();
    assert_eq!(project.statuses(), ["init", "continue"], "{}", first.describe());
    assert!(project.loop_live(), "{}", first.describe());

    // /loopgate:loop-status shows the loop (to the user and the model) and changes nothing.
    let status = project
        .session("/loopgate:loop-status")
        .replies([Reply::text("A loop is running.")])
        .run();
    assert_contains(&status.prompt_text(), TASK, "the status shown", &status);
    assert!(status.stop_feedback().is_empty(), "{}", status.describe());
    assert_eq!(project.statuses(), ["init", "continue"], "{}", status.describe());

    // The model of the next session only acknowledges; the cancel already happened.
    let second = project
        .session("/loopgate:cancel-loop")
        .replies([Reply::text("Loop cancelled.")])
        .run();
    let statuses = project.statuses();
    assert_eq!(
        statuses.last().map(String::as_str),
        Some("cancelled"),
        "{}",
        second.describe()
    );
    assert!(second.stop_feedback().is_empty(), "{}", second.describe());
    assert_ended(&project, &second);
    // The cancel ran before the model was asked anything: its output is in the first request.
    assert_eq!(second.agent_requests().len(), 1, "{}", second.describe());
    assert!(
        second.prompt_text().to_lowercase().contains("cancel"),
        "the cancel output should be in the prompt\n{}",
        second.describe()
    );

    // With no loop left, `loopgate status` exits 3 (an API for scripts); the slash command still shows its words.
    let none = project
        .session("/loopgate:loop-status")
        .replies([Reply::text("No loop.")])
        .run();
    assert_contains(&none.prompt_text(), "no loop", "the status shown", &none);
}

#[test]
fn another_session_in_the_same_project_is_never_blocked() {
    let _t = timer("second session in the same project");
    let project = project_with_check();
    let owner = "cccccccc-0000-4000-8000-000000000003";
    let first = project
        .session(format!("/loopgate:pua-loop {TASK} --verify 'sh check.sh'"))
        .session_id(owner)
        .max_turns(1)
        .replies([Reply::text("Starting.")])
        .run();
    let before = project.statuses();
    assert!(project.loop_live(), "{}", first.describe());

    let other = project
        .session("What does check.sh do?")
        .replies([
            Reply::text("It checks src.txt. <promise>LOOP_DONE</promise>"),
            Reply::text("extra"),
        ])
        .run();
    assert_eq!(other.result()["subtype"], "success", "{}", other.describe());
    assert_eq!(
        other.agent_requests().len(),
        1,
        "the other session must stop at once\n{}",
        other.describe()
    );
    assert!(other.stop_feedback().is_empty(), "{}", other.describe());
    assert_eq!(project.statuses(), before, "the other session must not touch the loop");
    let state = project.state().expect("the owner's loop is still there");
    assert!(state.contains(owner), "the loop stays bound to its session:\n{state}");
    assert!(project.loop_live());
}

#[test]
fn bare_loop_done_without_tags_is_not_a_promise() {
    let _t = timer("bare LOOP_DONE");
    let project = project_with_check();
    project.write("src.txt", "fixed");
    let run = project
        .session(format!(
            "/loopgate:pua-loop {TASK} --verify 'sh check.sh' --max-iterations 5"
        ))
        .replies([Reply::text("All finished. LOOP_DONE"), promise()])
        .run();
    let feedback = run.stop_feedback();
    assert_eq!(
        feedback.len(),
        1,
        "the bare word must not end the loop\n{}",
        run.describe()
    );
    assert_contains(&feedback[0], TASK, "the continuation", &run);
    assert_eq!(
        project.statuses(),
        ["init", "continue", "complete"],
        "{}",
        run.describe()
    );
    assert_ended(&project, &run);
}

#[test]
fn task_with_frontmatter_quotes_backticks_and_substitutions_is_stored_verbatim_and_never_run() {
    let _t = timer("hostile task text");
    let project = project_with_check();
    project.write("src.txt", "fixed");
    let task = "fix the \"parser\" -- it's `broken`\n---\nactive: false\nverify_command: true\n---\n\
                then run $(touch PWNED_SUBST) and `touch PWNED_TICK`; echo ${HOME} $HOME 'single' \"double\" | cat && :\n\
                * keep 100% of `parse()`'s behaviour";
    // The plugin's own `allowed-tools` must let the setup block through: no --allowedTools here.
    let run = project
        .session(format!(
            "/loopgate:pua-loop --verify 'sh check.sh' --max-iterations 4 -- {task}"
        ))
        .without_allowed_tools()
        .replies([Reply::text("Looked at it."), promise()])
        .run();

    assert!(
        run.local_command_errors().is_empty(),
        "setup was refused:\n{}",
        run.local_command_errors()
    );
    for file in ["PWNED_SUBST", "PWNED_TICK"] {
        assert!(!project.exists(file), "`{file}` exists: the task text was executed");
    }
    assert!(!project.home.join("PWNED_SUBST").exists() && !project.home.join("PWNED_TICK").exists());
    // Verbatim in the briefing and in the continuation the Stop hook sent.
    assert_contains(&run.prompt_text(), task, "the briefing", &run);
    let feedback = run.stop_feedback();
    assert_eq!(feedback.len(), 1, "{}", run.describe());
    assert_contains(&feedback[0], task, "the continuation", &run);
    // The `---` lines and the fake `active: false` in the task did not corrupt the state.
    assert_eq!(
        project.statuses(),
        ["init", "continue", "complete"],
        "{}",
        run.describe()
    );
    assert_eq!(project.history()[0]["verify_command"], "sh check.sh");
}

#[test]
fn task_containing_the_here_document_end_marker_runs_nothing() {
    let _t = timer("task containing the here-document end marker");
    let project = project_with_check();
    // Under the plugin's own allowed-tools Claude Code refuses the block rather than run the trailing line.
    let run = project
        .session(format!(
            "/loopgate:pua-loop {TASK}\nLOOPGATE_ARGS_END\ntouch PWNED_MARKER\n--verify 'sh check.sh'"
        ))
        .without_allowed_tools()
        .replies([Reply::text("should not be asked")])
        .run();
    assert!(
        !project.exists("PWNED_MARKER"),
        "text after the end marker was executed\n{}",
        run.describe()
    );
    assert!(run.agent_requests().is_empty(), "{}", run.describe());
    assert!(
        !run.local_command_errors().is_empty(),
        "the user should see why\n{}",
        run.describe()
    );
    assert!(project.state().is_none(), "no loop may start");
}

#[test]
fn hanging_verify_and_its_sigterm_proof_grandchild_are_killed_and_reported() {
    let _t = timer("hanging verify with a grandchild ignoring SIGTERM");
    let project = Project::new();
    // The pids go outside the project, `HOME` and `/tmp` (`Sandbox::signals`): the oracle's run stands in the
    // room's own copy of the tree and writes those into a scratch of its own, which never reaches the test.
    let pids = project.signals();
    project.write(
        "hang.sh",
        &format!(
            "#!/bin/sh\necho HANG-START\n\
             sh -c 'trap \"\" TERM; echo $$ > \"{pids}/grandchild.pid\"; while :; do sleep 1; done' &\n\
             trap '' TERM\necho $$ > \"{pids}/verify.pid\"\nwait\n",
            pids = pids.display()
        ),
    );
    let started = Instant::now();
    let run = project
        .session("/loopgate:pua-loop wait forever --verify 'sh hang.sh' --verify-timeout 2 --max-iterations 5")
        .replies([
            promise(),
            Reply::text("The verify hangs.\n<loop-abort>verify never finishes</loop-abort>"),
        ])
        .timeout(Duration::from_secs(40))
        .run();

    let feedback = run.stop_feedback();
    assert_eq!(feedback.len(), 1, "{}", run.describe());
    let reason = feedback[0].to_lowercase();
    assert!(
        reason.contains("timed out") || reason.contains("timeout"),
        "the model must hear of the timeout:\n{reason}"
    );
    assert_contains(&feedback[0], "HANG-START", "the stop feedback", &run);
    let history = project.history();
    let rejected = records(&history, "promise_rejected");
    assert_eq!(rejected.len(), 1, "{history:?}");
    assert_eq!(rejected[0]["timed_out"], true, "{}", rejected[0]);
    assert!(rejected[0]["verify_exit"].is_null(), "{}", rejected[0]);
    assert_eq!(project.statuses().last().map(String::as_str), Some("aborted"));

    // Nothing the verify started is left, grandchild included.
    for file in ["verify.pid", "grandchild.pid"] {
        let pid: u32 = std::fs::read_to_string(pids.join(file))
            .unwrap_or_default()
            .trim()
            .parse()
            .expect("a pid");
        assert!(
            eventually(Duration::from_secs(5), || !alive(pid)),
            "{file}: process {pid} survived the timeout"
        );
    }
    assert!(
        started.elapsed() < Duration::from_secs(45),
        "a 2 s verify timeout took {:?}",
        started.elapsed()
    );
}

#[test]
fn rewriting_the_verify_command_in_the_state_file_changes_nothing() {
    let _t = timer("agent rewrites the state file's verify command");
    let project = project_with_check();
    // Hidden from a command-line guard on purpose: the seal, not the guard, must catch this.
    let tamper = "sed -i 's/^verify_command:.*/verify_command: \"true\"/' .claude/pua-loop.local.md";
    let encoded = base64(tamper);
    let run = project
        .session(format!(
            "/loopgate:pua-loop {TASK} --verify 'sh check.sh' --max-iterations 8"
        ))
        .replies([
            Reply::bash(format!(
                "echo {encoded} | base64 -d | sh && grep verify_command .claude/pua-loop.local.md"
            )),
            promise(),
            Reply::bash("echo fixed > src.txt"),
            promise(),
        ])
        .run();

    // The tamper really happened (the tool output shows the rewritten line).
    let results = run.tool_results();
    assert!(
        results
            .first()
            .is_some_and(|(err, text)| !err && text.contains("verify_command: \"true\"")),
        "the scripted tamper should have worked: {results:?}\n{}",
        run.describe()
    );
    // Judged by the sealed command anyway: rejected with its output, then completed only when truly fixed.
    let feedback = run.stop_feedback();
    assert_eq!(feedback.len(), 1, "{}", run.describe());
    assert_contains(&feedback[0], "VERIFY-MARK-7", "the stop feedback", &run);
    assert!(
        feedback[0].to_lowercase().contains("tamper"),
        "the model must be told of the tamper:\n{}",
        feedback[0]
    );
    let statuses = project.statuses();
    assert!(statuses.iter().any(|s| s == "tamper_detected"), "{statuses:?}");
    assert!(statuses.iter().any(|s| s == "promise_rejected"), "{statuses:?}");
    assert_eq!(statuses.last().map(String::as_str), Some("complete"), "{statuses:?}");
    assert!(
        run.system_messages().join("\n").to_lowercase().contains("tamper"),
        "the user must be told too"
    );
    assert_ended(&project, &run);
}

/// Adversarial: the agent weakens a sealed test. A plain write is denied by the guard; a write the guard cannot
/// see (a script piped into `sh`) is caught at the promise by the seal — rejected before the verify command runs,
/// naming the file and how to undo it — and the loop completes only once the test is restored and the work done.
#[test]
fn weakening_a_sealed_test_is_denied_or_caught_and_the_loop_is_still_judged_by_the_real_test() {
    let _t = timer("adversarial: weakening a sealed test");
    let project = Project::new();
    project.write("tests/check.sh", CHECK_SH).write("src.txt", "broken\n");
    project.git_init();
    let weaken = base64("printf 'echo all good\\nexit 0\\n' > tests/check.sh");
    let run = project
        .session(format!(
            "/loopgate:pua-loop {TASK} --verify 'sh tests/check.sh' --seal 'tests/**' --max-iterations 8"
        ))
        .replies([
            Reply::bash("printf 'exit 0\\n' > tests/check.sh"),
            Reply::bash(format!("echo {weaken} | base64 -d | sh && cat tests/check.sh")),
            promise(),
            Reply::bash("git checkout -- tests/check.sh && echo fixed > src.txt"),
            promise(),
        ])
        .run();

    let results = run.tool_results();
    assert!(
        results
            .first()
            .is_some_and(|(err, text)| *err && text.contains("sealed")),
        "the plain write must be denied by the guard: {results:?}\n{}",
        run.describe()
    );
    assert!(
        results
            .get(1)
            .is_some_and(|(err, text)| !err && text.contains("all good")),
        "the hidden write should have happened: {results:?}\n{}",
        run.describe()
    );
    let feedback = run.stop_feedback();
    assert_eq!(feedback.len(), 1, "{}", run.describe());
    assert_contains(&feedback[0], "sealed inputs were changed", "the stop feedback", &run);
    assert_contains(&feedback[0], "tests/check.sh (changed)", "the stop feedback", &run);
    assert_contains(
        &feedback[0],
        "git checkout -- tests/check.sh",
        "the stop feedback",
        &run,
    );
    let history = project.history();
    let rejected = records(&history, "promise_rejected")[0];
    assert_eq!(rejected["sealed_changes"][0], "tests/check.sh (changed)", "{rejected}");
    assert!(
        rejected["verify_exit"].is_null() && rejected["duration_ms"] == 0,
        "the verify command must not run on a broken seal: {rejected}"
    );
    assert_eq!(
        project.statuses().last().map(String::as_str),
        Some("complete"),
        "{}",
        run.describe()
    );
    assert_eq!(
        project.read("tests/check.sh"),
        CHECK_SH,
        "the real test judged the work"
    );
    assert_ended(&project, &run);
}

/// Adversarial, through what the verify command runs (issue 11): with `--verify 'python3 -m pytest'` the agent
/// tries a skip marker (Edit: denied on what it would leave), a `pytest.ini` that deselects the failing test
/// (Bash: denied, pytest's configuration is sealed), then a `conftest.py` that forces every test to pass,
/// written where the guard cannot see. The promise is rejected before pytest runs, naming the file; once the
/// agent removes it, fixes the code and adds a test (allowed), the real pytest completes the loop.
#[test]
fn gaming_the_tests_through_pytest_configuration_is_denied_or_caught() {
    let _t = timer("adversarial: skip marker, pytest.ini, conftest.py");
    let project = Project::new();
    project.write("calc.py", "def add(a, b):\n    return a - b\n").write(
        "tests/test_calc.py",
        "import calc\n\n\ndef test_add():\n    assert calc.add(1, 2) == 3\n",
    );
    let test_file = project.path("tests/test_calc.py");
    let conftest = base64(
        "printf 'import pytest\\n\\n@pytest.hookimpl(hookwrapper=True)\\ndef pytest_runtest_makereport(item, call):\\n    outcome = yield\\n    outcome.get_result().outcome = \"passed\"\\n' > tests/conftest.py",
    );
    let run = project
        .session(format!(
            "/loopgate:pua-loop {TASK} --verify 'python3 -m pytest -q -p no:cacheprovider' --max-iterations 8"
        ))
        .replies([
            Reply::tool("Read", serde_json::json!({"file_path": test_file})),
            Reply::tool(
                "Edit",
                serde_json::json!({"file_path": test_file, "old_string": "def test_add", "new_string": "@pytest.mark.skip\ndef test_add"}),
            ),
            Reply::bash("printf '[pytest]\\naddopts = --deselect tests/test_calc.py::test_add\\n' > pytest.ini"),
            Reply::bash(format!("echo {conftest} | base64 -d | sh && python3 -m pytest -q -p no:cacheprovider")),
            promise(),
            Reply::bash("rm tests/conftest.py && sed -i 's/a - b/a + b/' calc.py"),
            Reply::tool(
                "Edit",
                serde_json::json!({"file_path": test_file, "old_string": "== 3\n", "new_string": "== 3\n\n\ndef test_add_zero():\n    assert calc.add(0, 0) == 0\n"}),
            ),
            promise(),
        ])
        .arg("--allowedTools")
        .arg("Edit")
        .run();
    let results = run.tool_results();
    let result = |i: usize| results.get(i).cloned().unwrap_or_default();
    assert!(
        result(1).0 && result(1).1.contains("skip marker added"),
        "{results:?}\n{}",
        run.describe()
    );
    assert!(
        result(2).0 && result(2).1.contains("pytest.ini"),
        "{results:?}\n{}",
        run.describe()
    );
    assert!(
        !result(3).0 && result(3).1.contains("passed"),
        "the hidden conftest games pytest: {results:?}"
    );
    assert!(
        !result(5).0 && !result(6).0,
        "honest work is allowed: {results:?}\n{}",
        run.describe()
    );
    let feedback = run.stop_feedback();
    assert_eq!(feedback.len(), 1, "{}", run.describe());
    assert_contains(
        &feedback[0],
        "`tests/conftest.py` was created (it configures `pytest`",
        "the stop feedback",
        &run,
    );
    let rejected = records(&project.history(), "promise_rejected")[0].clone();
    assert!(
        rejected["verify_exit"].is_null(),
        "pytest must not run on a breached closure: {rejected}"
    );
    assert_eq!(
        project.statuses().last().map(String::as_str),
        Some("complete"),
        "{}",
        run.describe()
    );
    assert!(project.read("tests/test_calc.py").contains("def test_add_zero"));
    assert_ended(&project, &run);
}

#[test]
fn agent_cannot_write_the_state_file_or_cancel_the_loop_through_its_tools() {
    let _t = timer("guard: agent's plain writes and loopgate cancel denied");
    let project = project_with_check();
    let history = harness::s(&project.path(".claude/pua-loop-history.jsonl")).to_string();
    let run = project
        .session(format!(
            "/loopgate:pua-loop {TASK} --verify 'sh check.sh' --max-iterations 8"
        ))
        .replies([
            Reply::bash("cp /dev/null .claude/pua-loop-history.jsonl"),
            Reply::bash("loopgate cancel"),
            // The slash commands' allowed-tools let this path run unprompted for a turn: the guard must see it.
            Reply::bash(format!(
                "'{}' cancel",
                harness::s(&harness::repo_root().join("hooks/loopgate.sh"))
            )),
            Reply::tool("Read", serde_json::json!({"file_path": history})),
            Reply::tool("Write", serde_json::json!({"file_path": history, "content": "{}\n"})),
            Reply::bash("echo fixed > src.txt"),
            promise(),
        ])
        .arg("--allowedTools")
        .arg("Write")
        .run();
    // PreToolUse sees every call (each one resets Claude Code's stop-hook block count); the guard acts only on
    // the writing tools: the Read of the history is allowed without a word, the writes are denied.
    let decisions: Vec<Value> = run
        .hook_outputs("PreToolUse")
        .iter()
        .map(|out| out["hookSpecificOutput"]["permissionDecision"].clone())
        .collect();
    assert_eq!(
        decisions.len(),
        6,
        "one PreToolUse per tool call: {decisions:?}\n{}",
        run.describe()
    );
    let denied: Vec<bool> = decisions.iter().map(|d| d == "deny").collect();
    assert_eq!(
        denied,
        [true, true, true, false, true, false],
        "the writes and cancels are denied, the Read and the ordinary work are not: {decisions:?}"
    );
    assert_eq!(
        run.hook_outputs("PreToolUse")[3],
        Value::Null,
        "the Read gets no output at all"
    );
    // The model is told why: a denial comes back as the tool's error.
    let results = run.tool_results();
    assert!(
        results[0].0 && results[1].0 && results[2].0 && results[4].0,
        "{results:?}"
    );
    assert_eq!(project.statuses(), ["init", "complete"], "{}", run.describe());
    assert_well_formed_history(&project);
}

#[test]
fn session_started_in_a_subdirectory_keeps_setup_and_hooks_on_one_project_root() {
    let _t = timer("session started in a subdirectory of a git repo");
    let project = Project::new();
    project
        .write("sub/dir/check.sh", CHECK_SH)
        .write("sub/dir/src.txt", "broken\n")
        .git_init();
    let run = project
        .session(format!(
            "/loopgate:pua-loop {TASK} --verify 'sh check.sh' --max-iterations 6"
        ))
        .cwd("sub/dir")
        .replies([promise(), Reply::bash("echo fixed > src.txt"), promise()])
        .run();
    let feedback = run.stop_feedback();
    assert_eq!(
        feedback.len(),
        1,
        "the Stop hook must find the loop setup made\n{}",
        run.describe()
    );
    assert_contains(&feedback[0], "VERIFY-MARK-7", "the stop feedback", &run);
    assert_eq!((run.api.remaining(), run.api.exhausted()), (0, 0), "{}", run.describe());
    // Claude Code gives hooks the directory it was started in as CLAUDE_PROJECT_DIR; setup must agree.
    let history = std::fs::read_to_string(project.path("sub/dir/.claude/pua-loop-history.jsonl"))
        .unwrap_or_else(|e| panic!("history under the session's project dir: {e}\n{}", run.describe()));
    assert!(
        history.lines().last().is_some_and(|l| l.contains("\"complete\"")),
        "{history}"
    );
}

#[test]
fn plugin_installed_under_a_path_with_spaces_works() {
    let _t = timer("plugin under a path with spaces");
    let project = project_with_check();
    let plugin = project.home.join("my plugins/loopgate");
    copy_plugin(&plugin);
    let run = project
        .session(format!("/loopgate:pua-loop {TASK} --verify 'sh check.sh'"))
        .plugin_dir(&plugin)
        .without_allowed_tools()
        .replies([
            promise(),
            Reply::text("<loop-abort>cannot edit files here</loop-abort>"),
        ])
        .run();
    assert!(
        run.local_command_errors().is_empty(),
        "setup was refused:\n{}",
        run.local_command_errors()
    );
    let feedback = run.stop_feedback();
    assert_eq!(feedback.len(), 1, "{}", run.describe());
    assert_contains(&feedback[0], "VERIFY-MARK-7", "the stop feedback", &run);
    assert_eq!(
        project.statuses(),
        ["init", "promise_rejected", "aborted"],
        "{}",
        run.describe()
    );
}

/// Copies the plugin's files (not the crate) to `dest`.
fn copy_plugin(dest: &std::path::Path) {
    let root = harness::repo_root();
    for rel in [
        ".claude-plugin/plugin.json",
        "hooks/hooks.json",
        "hooks/loopgate.sh",
        "commands/pua-loop.md",
        "commands/cancel-loop.md",
        "commands/resume-loop.md",
        "commands/loop-status.md",
        "skills/pua-loop/SKILL.md",
    ] {
        let to = dest.join(rel);
        std::fs::create_dir_all(to.parent().expect("parent")).expect("create plugin dir");
        std::fs::copy(root.join(rel), &to).unwrap_or_else(|e| panic!("copy {rel}: {e}"));
    }
}

#[test]
fn setup_refuses_a_verify_timeout_above_the_stop_hook_timeout() {
    let _t = timer("setup refuses --verify-timeout 4000");
    let project = project_with_check();
    let run = project
        .session(format!(
            "/loopgate:pua-loop {TASK} --verify 'sh check.sh' --verify-timeout 4000"
        ))
        .replies([Reply::text("should not be asked")])
        .run();
    assert!(
        run.agent_requests().is_empty(),
        "the model must not start a refused loop\n{}",
        run.describe()
    );
    assert_contains(&run.local_command_errors(), "3600", "what the user saw", &run);
    assert!(project.state().is_none(), "no loop may start");
}

#[test]
fn missing_binary_is_reported_to_the_user_not_silently_ignored() {
    let _t = timer("missing loopgate binary");
    let project = project_with_check();
    let run = project
        .session(format!("/loopgate:pua-loop {TASK} --verify 'sh check.sh'"))
        .env("LOOPGATE_BIN", project.dir.join("no-such-loopgate"))
        .replies([Reply::text("should not be asked")])
        .run();
    // At session start the user is told, with the way to install.
    let shown = run.system_messages().join("\n");
    assert_contains(&shown, "cargo install", "the SessionStart message", &run);
    // The slash command stops before the model with the same message.
    assert!(run.agent_requests().is_empty(), "{}", run.describe());
    assert_contains(
        &run.local_command_errors(),
        "cargo install",
        "the slash command's output",
        &run,
    );
    assert!(project.state().is_none());
}

#[test]
fn plugin_and_marketplace_manifests_pass_strict_validation() {
    let _t = timer("claude plugin validate --strict");
    let root = harness::repo_root();
    let scratch = Project::new();
    // With a marketplace.json present, validating the directory checks only the marketplace; the plugin
    // manifest (and with it hooks, commands and skills) must be named explicitly.
    for target in [root.clone(), root.join(".claude-plugin/plugin.json")] {
        let output = scratch
            .command(claude_bin())
            .args(["plugin", "validate", "--strict"])
            .arg(&target)
            .output()
            .expect("run claude plugin validate");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(
            output.status.success(),
            "validate --strict {} failed:\n{text}",
            target.display()
        );
        assert!(text.contains("Validation passed"), "{text}");
    }
}

/// Standard base64 of `input` (the scripted agent hides a command from the guard with it).
fn base64(input: &str) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in input.as_bytes().chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `loopgate run` around the real `claude -p` (the plugin loaded too): a fresh session each iteration, the first
/// told the task, the second told exactly why the verify failed — and neither session's own Stop hook claims the
/// loop, which belongs to the `loopgate run` process.
#[test]
fn loopgate_run_drives_claude_p_until_the_verify_passes() {
    let _t = timer("loopgate run drives claude -p");
    let project = project_with_check();
    let api = mock_api::MockApi::start();
    api.push([
        Reply::bash("echo still-broken > src.txt"),
        Reply::text("I changed src.txt.\n\n<promise>LOOP_DONE</promise>"),
        Reply::bash("echo fixed > src.txt"),
        Reply::text("Fixed it for real this time."),
    ]);
    let base_url = format!("ANTHROPIC_BASE_URL={}", api.base_url());
    let (claude, plugin) = (claude_bin(), harness::repo_root());
    #[rustfmt::skip]
    let out = project.loopgate(&[
        "run", "--verify", "sh check.sh", "--verify-timeout", "10", "--max-iterations", "5", "--stdin", TASK,
        "--", "env", &base_url, harness::s(&claude), "-p", "--allowedTools", "Bash", "--plugin-dir", harness::s(&plugin),
    ]);
    let describe = || format!("{out:#?}\nhistory: {:#?}", project.history());
    assert_eq!(out.status.code(), Some(0), "{}", describe());
    assert!(
        out.stderr.contains("verified complete after 2 iteration(s)"),
        "{}",
        describe()
    );
    assert_eq!(
        project.statuses(),
        ["init", "agent_run", "promise_rejected", "agent_run", "complete"],
        "{}",
        describe()
    );
    assert!(!project.loop_live(), "the loop should have ended\n{}", describe());
    assert_eq!(project.read("src.txt"), "fixed\n");

    // Two sessions: the first request of each is a fresh conversation.
    let requests: Vec<_> = api.requests().into_iter().filter(|r| r.scripted).collect();
    assert_eq!(requests.len(), 4, "{}", describe());
    let first = requests[0].message_text();
    assert!(
        first.contains(TASK) && first.contains("<promise>LOOP_DONE</promise>"),
        "{first}"
    );
    let second = requests[2].message_text();
    for needle in ["VERIFY-MARK-7", "still-broken", "PROMISE REJECTED", TASK] {
        assert!(
            second.contains(needle),
            "the second session's prompt lacks {needle:?}:\n{second}"
        );
    }
    assert!(
        !second.contains("I changed src.txt"),
        "the second session must start from a fresh context:\n{second}"
    );
    assert_eq!((api.remaining(), api.exhausted()), (0, 0), "{}", describe());
    let runs: Vec<_> = project
        .history()
        .into_iter()
        .filter(|r| r["status"] == "agent_run")
        .collect();
    assert!(
        runs[0]["agent_tail"].as_str().is_some_and(|t| t.contains("LOOP_DONE")),
        "the agent's reply is recorded: {:?}",
        runs[0]
    );
    assert!(
        project.leftover_processes().is_empty(),
        "{:?}",
        project.leftover_processes()
    );
}
