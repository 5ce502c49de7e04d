//! `loopgate run` end to end with scripted fake agents: small shell scripts that record the prompt they were
//! given, fix (or fail to fix) the project, print tags, sleep, ignore SIGTERM or leave grandchildren behind.
//! The real binary runs in a temp project with its own `HOME` and seal store (see `run/support.rs`).

#[path = "support/common.rs"]
mod common;
#[path = "run/matrix.rs"]
mod matrix;
#[path = "run/picture.rs"]
mod picture;
#[path = "run/report.rs"]
mod report;
#[path = "run/support.rs"]
mod support;
// The run suite reads the screen only (the typing helpers are the interactive suites').
#[allow(dead_code)]
#[path = "support/tmux.rs"]
mod tmux;
#[path = "run/tournament.rs"]
mod tournament;

use std::time::Duration;

use loopgate::messages::how_to_finish;
use loopgate::schema::Speech;
use support::{Project, TASK, alive, eventually, s};

/// Records its prompt (last argument) as `prompts/N.txt`, says where it is, fixes the work at iteration 2.
const FIXER: &str = r#"mkdir -p prompts
printf '%s' "$1" > "prompts/$LOOPGATE_ITERATION.txt"
echo "agent at iteration $LOOPGATE_ITERATION"
if [ "$LOOPGATE_ITERATION" = 2 ]; then echo fixed > src.txt; fi"#;

/// Sleeps with a grandchild, both recorded in pid files.
const SLEEPER: &str = r#"echo $$ > agent.pid
sleep 60 &
echo $! > child.pid
wait"#;

fn opening(task: &str) -> String {
    format!("{task}\n\n{}", how_to_finish(Speech::En, "LOOP_DONE", true))
}

#[test]
fn agent_that_fixes_the_work_on_iteration_two_completes_with_exit_0() {
    let p = Project::new();
    let agent = p.agent("fixer", FIXER);
    let out = p.loopgate(&[
        "run",
        "--verify",
        "sh check.sh",
        "--max-iterations",
        "5",
        TASK,
        "--",
        &agent,
    ]);

    out.code(0).stderr_has("verified complete after 2 iteration(s)");
    assert_eq!(
        p.statuses(),
        ["init", "agent_run", "verify_failed", "agent_run", "complete"]
    );
    assert!(
        out.stdout.contains("agent at iteration 1\n"),
        "agent output is streamed: {out:#?}"
    );
    assert!(p.state().is_none(), "the loop ended");

    // Iteration 1: the task and how to finish. Iteration 2: the Stop hook's block reason.
    assert_eq!(p.read("prompts/1.txt"), opening(TASK));
    let second = p.read("prompts/2.txt");
    assert!(
        second.starts_with("[loopgate] iteration 2/5 · verify command still failing · promise rejections: 0"),
        "{second}"
    );
    for needle in [
        "test parser::roundtrip ... FAILED",
        "VERIFY-MARK-7: expected 'fixed' in src.txt, found 'broken'",
        "Last lines of `sh check.sh` (exit 1 after",
        &format!("Your task (unchanged):\n{TASK}"),
        "<promise>LOOP_DONE</promise>",
        "<loop-abort>why</loop-abort>",
    ] {
        assert!(second.contains(needle), "the second prompt lacks {needle:?}:\n{second}");
    }

    // The history names the driver and records each agent run.
    let init = p.last("init");
    assert_eq!(init["driver"]["kind"], "run", "{init}");
    assert!(
        init["session_id"].as_str().is_some_and(|id| id.starts_with("run-")),
        "{init}"
    );
    let run = p.last("agent_run");
    assert_eq!(
        (run["iteration"].as_u64(), run["agent_exit"].as_i64()),
        (Some(2), Some(0)),
        "{run}"
    );
    assert_eq!(run["agent_timed_out"], false);
    assert!(run["agent_ms"].is_u64(), "{run}");
    assert!(
        run["agent_tail"]
            .as_str()
            .is_some_and(|t| t.contains("agent at iteration 2")),
        "{run}"
    );

    // `loopgate history` shows the agent runs like any other record.
    let history = p.loopgate(&["history"]);
    history.code(0);
    assert!(history.stdout.contains("agent_run"), "{history:#?}");
    assert!(history.stdout.contains("agent exit 0"), "{history:#?}");
}

#[test]
fn agent_that_never_fixes_the_work_ends_at_max_iterations() {
    let p = Project::new();
    let agent = p.agent("idler", "echo 'I looked around.'");
    let out = p.loopgate(&[
        "run",
        "--verify",
        "sh check.sh",
        "--max-iterations",
        "3",
        TASK,
        "--",
        &agent,
    ]);
    out.code(6).stderr_has("max_iterations reached at iteration 3");
    let statuses = p.statuses();
    assert_eq!(statuses.iter().filter(|s| *s == "agent_run").count(), 3, "{statuses:?}");
    assert_eq!(
        statuses.last().map(String::as_str),
        Some("max_iterations"),
        "{statuses:?}"
    );
    assert!(p.state().is_none());
    // The summary table lists the three iterations.
    for n in 1..=3 {
        assert!(
            out.stderr
                .lines()
                .any(|l| l.starts_with(&format!("{n} ")) && l.contains("✗ exit 1")),
            "summary row {n}: {out:#?}"
        );
    }
}

#[test]
fn abort_tag_ends_the_loop_with_exit_7() {
    let p = Project::new();
    let agent = p.agent(
        "quitter",
        "echo 'Not possible.'; echo '<loop-abort>src.txt is generated</loop-abort>'",
    );
    let out = p.loopgate(&["run", "--verify", "sh check.sh", TASK, "--", &agent]);
    out.code(7)
        .stderr_has("the agent aborted the loop: src.txt is generated");
    assert_eq!(p.statuses(), ["init", "agent_run", "aborted"]);
    assert_eq!(p.last("aborted")["reason"], "src.txt is generated");
}

#[test]
fn pause_tag_keeps_the_loop_and_run_resume_continues_it() {
    let p = Project::new();
    let pauser = p.agent(
        "pauser",
        "echo 'I need the staging password.'; echo '<loop-pause>the staging password</loop-pause>'",
    );
    let out = p.loopgate(&["run", "--verify", "sh check.sh", TASK, "--", &pauser]);
    out.code(8)
        .stderr_has("the agent needs: the staging password")
        .stderr_has("loopgate run --resume");
    assert_eq!(p.statuses(), ["init", "agent_run", "paused"]);
    let state = p.state().expect("a paused loop keeps its state file");
    assert!(state.contains("status: paused"), "{state}");
    assert!(
        !state.contains("driver:"),
        "a paused loop is not driven by a gone process:\n{state}"
    );
    let status = p.loopgate(&["status"]);
    assert!(status.stdout.contains("paused"), "{status:#?}");

    let resumer = p.agent("resumer", "printf '%s' \"$1\" > resumed.txt; echo fixed > src.txt");
    let out = p.loopgate(&["run", "--resume", "--", &resumer]);
    out.code(0).stderr_has("verified complete");
    assert_eq!(
        p.statuses(),
        ["init", "agent_run", "paused", "resumed", "agent_run", "complete"]
    );
    let prompt = p.read("resumed.txt");
    for needle in ["the staging password", TASK, "<promise>LOOP_DONE</promise>"] {
        assert!(
            prompt.contains(needle),
            "the resumed prompt lacks {needle:?}:\n{prompt}"
        );
    }
    assert_eq!(p.last("resumed")["source"], "loopgate run --resume");
}

#[test]
fn require_promise_runs_the_verify_only_when_the_agent_promises() {
    let p = Project::new();
    // Fixes the work at once but promises only at iteration 2.
    let agent = p.agent(
        "promiser",
        r#"echo fixed > src.txt
if [ "$LOOPGATE_ITERATION" = 2 ]; then echo 'All done. <promise>LOOP_DONE</promise>'; else echo 'Fixed, I think.'; fi"#,
    );
    let out = p.loopgate(&[
        "run",
        "--require-promise",
        "--verify",
        "sh check.sh",
        TASK,
        "--",
        &agent,
    ]);
    out.code(0);
    assert_eq!(p.statuses(), ["init", "agent_run", "continue", "agent_run", "complete"]);
    assert_eq!(p.last("init")["verify_command"], "sh check.sh");
}

#[test]
fn an_agent_that_echoes_its_prompt_is_not_taken_at_its_word() {
    let p = Project::new();
    // Like `codex exec`, it prints the prompt it got — which quotes the promise, pause and abort tags.
    let agent = p.agent(
        "echoer",
        r#"printf 'user\n%s\n\n' "$1"
echo 'working on it'
if [ "$LOOPGATE_ITERATION" = 2 ]; then echo fixed > src.txt; fi"#,
    );
    let out = p.loopgate(&[
        "run",
        "--require-promise",
        "--verify",
        "sh check.sh",
        "--max-iterations",
        "2",
        TASK,
        "--",
        &agent,
    ]);
    out.code(6);
    assert_eq!(
        p.statuses(),
        [
            "init",
            "agent_run",
            "continue",
            "agent_run",
            "continue",
            "max_iterations"
        ],
        "the echoed tags must not count as a promise, a pause or an abort"
    );
}

#[test]
fn prompt_on_stdin_is_the_same_text() {
    let p = Project::new();
    let agent = p.agent(
        "reader",
        r#"mkdir -p prompts
cat > "prompts/$LOOPGATE_ITERATION.txt"
if [ "$LOOPGATE_ITERATION" = 2 ]; then echo fixed > src.txt; fi"#,
    );
    let out = p.loopgate(&[
        "run",
        "--stdin",
        "--verify",
        "sh check.sh",
        TASK,
        "--",
        &agent,
        "--flag",
    ]);
    out.code(0);
    assert_eq!(p.read("prompts/1.txt"), opening(TASK));
    let second = p.read("prompts/2.txt");
    assert!(second.starts_with("[loopgate] iteration 2 ·"), "{second}");
    assert!(second.contains("VERIFY-MARK-7") && second.contains(TASK), "{second}");
}

#[test]
fn prompt_replaces_every_placeholder_and_the_task_is_passed_verbatim() {
    let p = Project::new();
    let task = "fix `parse()` — it's \"quoted\", $(touch pwned) and\n---\nstays; $HOME too";
    // $1 = --message, $2 = the prompt, $3 = --tag=<prompt>
    let agent = p.agent(
        "aiderish",
        r#"printf '%s' "$2" > prompt.txt
printf '%s' "$3" > tag.txt
echo fixed > src.txt"#,
    );
    let out = p.loopgate(&[
        "run",
        "--verify",
        "sh check.sh",
        task,
        "--",
        &agent,
        "--message",
        "{prompt}",
        "--tag=<{prompt}>",
    ]);
    out.code(0);
    assert_eq!(p.read("prompt.txt"), opening(task));
    assert_eq!(p.read("tag.txt"), format!("--tag=<{}>", opening(task)));
    assert!(!p.exists("pwned"), "the task must never run");
}

#[test]
fn agent_timeout_stops_the_agent_group_and_counts_as_an_iteration() {
    let p = Project::new();
    let agent = p.agent("sleeper", SLEEPER);
    let out = p.loopgate(&[
        "run",
        "--agent-timeout",
        "1s",
        "--max-iterations",
        "2",
        "--verify",
        "sh check.sh",
        TASK,
        "--",
        &agent,
    ]);
    out.code(6);
    assert!(out.elapsed < Duration::from_secs(20), "took {:?}", out.elapsed);
    let runs: Vec<_> = p.history().into_iter().filter(|r| r["status"] == "agent_run").collect();
    assert_eq!(runs.len(), 2, "{:?}", p.statuses());
    for run in &runs {
        assert_eq!(run["agent_timed_out"], true, "{run}");
        assert!(run["agent_exit"].is_null(), "{run}");
    }
    // The verify still ran after each timed-out iteration.
    assert_eq!(
        p.statuses(),
        [
            "init",
            "agent_run",
            "verify_failed",
            "agent_run",
            "verify_failed",
            "max_iterations"
        ]
    );
    for file in ["agent.pid", "child.pid"] {
        let pid = p.wait_pid(file);
        assert!(
            eventually(Duration::from_secs(5), || !alive(pid)),
            "{file}: {pid} still runs"
        );
    }
}

#[test]
fn missing_agent_is_a_clear_error_and_the_loop_is_ended() {
    let p = Project::new();
    let out = p.loopgate(&["run", "--verify", "sh check.sh", TASK, "--", "no-such-agent-7f3", "-p"]);
    out.code(1)
        .stderr_has("failed to start the agent `no-such-agent-7f3`")
        .stderr_has("on `PATH`");
    assert_eq!(p.statuses(), ["init", "cancelled"]);
    let reason = p.last("cancelled")["reason"].as_str().unwrap_or_default().to_string();
    assert!(reason.contains("could not be started"), "{reason}");
    assert!(p.state().is_none());
}

#[test]
fn agent_failing_the_same_way_three_times_ends_the_run() {
    let p = Project::new();
    let agent = p.agent("broken", "echo 'error: unknown flag --frobnicate' >&2; exit 3");
    let out = p.loopgate(&["run", "--verify", "sh check.sh", TASK, "--", &agent]);
    out.code(1)
        .stderr_has("failed the same way 3 iterations in a row (exit 3: error: unknown flag --frobnicate)");
    assert_eq!(p.statuses().iter().filter(|s| *s == "agent_run").count(), 3);
    assert_eq!(p.statuses().last().map(String::as_str), Some("cancelled"));
}

#[test]
fn ctrl_c_stops_the_agent_records_cancelled_and_exits_130() {
    let p = Project::new();
    let agent = p.agent("sleeper", SLEEPER);
    let run = p.start(&["run", "--verify", "sh check.sh", TASK, "--", &agent]);
    let (agent_pid, child_pid) = (p.wait_pid("agent.pid"), p.wait_pid("child.pid"));
    run.signal(libc::SIGINT);
    let out = run.wait(Duration::from_secs(30));
    out.interrupted().stderr_has("interrupted (SIGINT)");
    assert!(out.elapsed < Duration::from_secs(20), "took {:?}", out.elapsed);
    assert_eq!(p.statuses(), ["init", "cancelled"]);
    assert_eq!(p.last("cancelled")["reason"], "interrupted (SIGINT)");
    assert!(p.state().is_none());
    for pid in [agent_pid, child_pid] {
        assert!(eventually(Duration::from_secs(5), || !alive(pid)), "{pid} still runs");
    }
}

#[test]
fn ctrl_c_during_the_verify_stops_it_and_records_no_verify_result() {
    let p = Project::new();
    let agent = p.agent("quick", "echo done");
    // The pids go outside the project: the oracle's run stands in the room's copy of it.
    let (verify_pid, child_pid) = (p.signal_path("verify.pid"), p.signal_path("verify-child.pid"));
    let verify = format!(
        "echo $$ > '{}'; sleep 60 & echo $! > '{}'; wait",
        verify_pid.display(),
        child_pid.display()
    );
    // No baseline: the Ctrl-C must land in the verify after the agent's run, not in the one at setup.
    let run = p.start(&["run", "--no-baseline", "--verify", &verify, TASK, "--", &agent]);
    let (verify_pid, child_pid) = (p.wait_pid_at(&verify_pid), p.wait_pid_at(&child_pid));
    run.signal(libc::SIGINT);
    let out = run.wait(Duration::from_secs(30));
    out.interrupted();
    assert_eq!(p.statuses(), ["init", "agent_run", "cancelled"]);
    for pid in [verify_pid, child_pid] {
        assert!(eventually(Duration::from_secs(5), || !alive(pid)), "{pid} still runs");
    }
}

#[test]
fn a_second_ctrl_c_kills_at_once() {
    let p = Project::new();
    // Ignores SIGTERM (and so does its grandchild), so the first Ctrl-C would wait out the grace.
    let agent = p.agent("stubborn", &format!("trap '' TERM\n{SLEEPER}"));
    let run = p.start(&["run", "--verify", "sh check.sh", TASK, "--", &agent]);
    let (agent_pid, child_pid) = (p.wait_pid("agent.pid"), p.wait_pid("child.pid"));
    run.signal(libc::SIGINT);
    std::thread::sleep(Duration::from_millis(300));
    run.signal(libc::SIGINT);
    let second = std::time::Instant::now();
    let out = run.wait(Duration::from_secs(30));
    out.code(130);
    // Counted from the second Ctrl-C, not from the start (setup's baseline run is slow on a loaded machine); a
    // loose bound, since it only has to tell "ends now" from "waits on a stubborn agent that ignores TERM".
    assert!(
        second.elapsed() < Duration::from_secs(10),
        "took {:?}",
        second.elapsed()
    );
    for pid in [agent_pid, child_pid] {
        assert!(eventually(Duration::from_secs(5), || !alive(pid)), "{pid} still runs");
    }
    assert!(p.statuses().contains(&"cancelled".to_string()), "{:?}", p.statuses());
}

#[test]
fn output_without_a_terminal_or_with_no_color_has_no_color_codes() {
    let p = Project::new();
    let agent = p.agent("fixer", FIXER);
    let out = p.loopgate(&["run", "--verify", "sh check.sh", TASK, "--", &agent]);
    out.code(0);
    assert!(!out.stdout.contains('\x1b') && !out.stderr.contains('\x1b'), "{out:#?}");

    // On a terminal (a pty from `script`): colors, unless NO_COLOR is set.
    let pty = |no_color: bool| {
        std::fs::write(p.path("src.txt"), "broken\n").expect("reset");
        let line = format!(
            "{} run --verify 'sh check.sh' '{TASK}' -- {agent}",
            env!("CARGO_BIN_EXE_loopgate")
        );
        let mut script = p.program("script");
        script.args(["-qfec", &line, "/dev/null"]).env("TERM", "xterm");
        if no_color {
            script.env("NO_COLOR", "1");
        }
        let out = script.output().expect("run `script` (util-linux) for a pty");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let sgr = |text: &str| text.contains("\x1b[31m") || text.contains("\x1b[32m") || text.contains("\x1b[1m");
    let colored = pty(false);
    assert!(sgr(&colored), "a terminal gets colors:\n{colored:?}");
    assert!(
        colored.contains("⟳ iteration"),
        "a terminal gets the status line:\n{colored:?}"
    );
    let plain = pty(true);
    assert!(!sgr(&plain), "NO_COLOR means no colors:\n{plain:?}");
    assert!(plain.contains("verified complete"), "{plain:?}");
}

#[test]
fn run_and_a_claude_code_loop_never_share_a_project() {
    let p = Project::new();
    let fixer = p.agent("fixer", FIXER);
    // A Stop-hook loop of a session refuses `run`.
    p.loopgate(&["setup", "--session-id", "sess-A", "--verify", "sh check.sh", TASK])
        .code(0);
    let out = p.loopgate(&["run", "--verify", "sh check.sh", TASK, "--", &fixer]);
    out.code(5).stderr_has("for session `sess-A`");
    assert!(!p.exists("prompts"), "the agent must not run");
    p.loopgate(&["cancel"]).code(0);

    // A running `loopgate run` refuses `setup`, its Stop hook ignores it, and `status` shows the driver.
    let sleeper = p.agent("sleeper", SLEEPER);
    let run = p.start(&["run", "--verify", "sh check.sh", TASK, "--", &sleeper]);
    let agent_pid = p.wait_pid("agent.pid");
    let out = p.loopgate(&["setup", "--session-id", "sess-B", "--verify", "sh check.sh", TASK]);
    out.code(5)
        .stderr_has("a `loopgate run` loop")
        .stderr_has(&format!("(pid {})", run.pid()));
    let stop = format!(
        r#"{{"session_id":"sess-B","cwd":"{}","hook_event_name":"Stop","last_assistant_message":"<promise>LOOP_DONE</promise>"}}"#,
        s(&p.dir)
    );
    let mut hook = p.command(&["hook", "stop"]);
    hook.stdin(std::process::Stdio::piped());
    let mut child = hook.spawn().expect("hook");
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), stop.as_bytes()).expect("write");
    let hook_out = child.wait_with_output().expect("hook output");
    assert!(hook_out.status.success() && hook_out.stdout.is_empty(), "{hook_out:?}");
    let status = p.loopgate(&["status"]);
    assert!(
        status
            .stdout
            .contains(&format!("driver:      loopgate run (pid {})", run.pid())),
        "{status:#?}"
    );

    // `loopgate cancel` from another terminal stops the run and its agent.
    p.loopgate(&["cancel"]).code(0);
    let out = run.wait(Duration::from_secs(20));
    out.code(9).stderr_has("cancelled by the user");
    assert!(eventually(Duration::from_secs(5), || !alive(agent_pid)));
}

#[test]
fn a_loop_left_by_a_killed_run_is_refused_then_resumed() {
    let p = Project::new();
    let sleeper = p.agent("sleeper", SLEEPER);
    let run = p.start(&["run", "--verify", "sh check.sh", TASK, "--", &sleeper]);
    let agent_pid = p.wait_pid("agent.pid");
    run.signal(libc::SIGKILL);
    let _ = run.wait(Duration::from_secs(10));
    // SAFETY: the orphaned agent leads its own group; a killed `loopgate run` cannot stop it.
    unsafe { libc::killpg(agent_pid, libc::SIGKILL) };

    let fixer = p.agent("fixer", "echo fixed > src.txt");
    let out = p.loopgate(&["run", "--verify", "sh check.sh", TASK, "--", &fixer]);
    out.code(5)
        .stderr_has("which is gone")
        .stderr_has("loopgate run --resume");
    let status = p.loopgate(&["status"]);
    assert!(status.stdout.contains("not running"), "{status:#?}");

    let out = p.loopgate(&["run", "--resume", "--", &fixer]);
    out.code(0);
    assert_eq!(p.statuses(), ["init", "resumed", "agent_run", "complete"]);
}

#[test]
fn bad_flags_are_refused_before_anything_starts() {
    let p = Project::new();
    let cases: &[(&[&str], &str)] = &[
        (&["run", "--verify", "x", "--", "agent"], "no task given"),
        (&["run", "--stdin", "t", "--", "agent", "{prompt}"], "choose one way"),
        (
            &["run", "--agent-timeout", "soon", "t", "--", "agent"],
            "--agent-timeout",
        ),
        (&["run", "--max-tokens", "5", "t", "--", "agent"], "--max-tokens"),
        (&["run", "--session-id", "s", "t", "--", "agent"], "--session-id"),
        (&["run", "--resume", "--verify", "x", "--", "agent"], "--resume"),
        (
            &[
                "run",
                "--require-promise",
                "--verify-on",
                "always",
                "--verify",
                "x",
                "t",
                "--",
                "agent",
            ],
            "contradict",
        ),
    ];
    for (args, needle) in cases {
        let out = p.loopgate(args);
        out.code(2).stderr_has(needle);
    }
    assert!(p.history().is_empty(), "nothing was started");
}

#[test]
fn quiet_hides_the_agent_output_and_verbose_shows_every_prompt() {
    let p = Project::new();
    let agent = p.agent("fixer", FIXER);
    let out = p.loopgate(&["run", "--quiet", "--verify", "sh check.sh", TASK, "--", &agent]);
    out.code(0);
    assert!(out.stdout.is_empty(), "{out:#?}");
    assert!(!out.stderr.contains("── iteration"), "{out:#?}");
    out.stderr_has("iteration 1: agent exit 0")
        .stderr_has("verify ✗ exit 1");

    std::fs::write(p.path("src.txt"), "broken\n").expect("reset");
    let out = p.loopgate(&["run", "--verbose", "--verify", "sh check.sh", TASK, "--", &agent]);
    out.code(0)
        .stderr_has(&format!("prompt:\n{TASK}"))
        .stderr_has("prompt:\n[loopgate] iteration 2");
    assert!(out.stdout.contains("agent at iteration 2"), "{out:#?}");
}

#[test]
fn a_relative_agent_path_is_found_from_a_subdirectory() {
    let p = Project::new();
    p.agent("fixer", "echo fixed > src.txt");
    std::fs::create_dir_all(p.path("sub/dir")).expect("mkdir");
    // A loop already recorded here makes `sub/dir` part of this project (as git finds `.git`).
    std::fs::create_dir_all(p.path(".claude")).expect("mkdir");
    std::fs::write(p.path(".claude/pua-loop-history.jsonl"), "").expect("touch");
    let mut cmd = p.command(&["run", "--verify", "sh check.sh", TASK, "--", "../../agents/fixer"]);
    cmd.current_dir(p.path("sub/dir"));
    let out = p.start_with(cmd).wait(Duration::from_secs(30));
    out.code(0);
    assert_eq!(p.read("src.txt"), "fixed\n", "the agent ran in the project root");
}

#[test]
fn an_agent_that_changes_nothing_is_paused_as_stalled() {
    let p = Project::new();
    let agent = p.agent("idler", "echo 'Hmm.'");
    let out = p.loopgate(&[
        "run",
        "--stall-limit",
        "2",
        "--verify",
        "sh check.sh",
        TASK,
        "--",
        &agent,
    ]);
    out.code(8).stderr_has("loopgate run --resume");
    let statuses = p.statuses();
    assert_eq!(statuses.last().map(String::as_str), Some("stalled"), "{statuses:?}");
    assert!(p.state().is_some_and(|s| s.contains("status: paused")));
}

#[test]
fn max_duration_also_stops_a_running_agent() {
    let p = Project::new();
    let agent = p.agent("sleeper", SLEEPER);
    let out = p.loopgate(&[
        "run",
        "--max-duration",
        "2s",
        "--verify",
        "sh check.sh",
        TASK,
        "--",
        &agent,
    ]);
    out.code(6);
    assert!(out.elapsed < Duration::from_secs(15), "took {:?}", out.elapsed);
    assert_eq!(p.last("agent_run")["agent_timed_out"], true);
    assert_eq!(p.statuses().last().map(String::as_str), Some("max_duration"));
}

/// `--verify auto` works for `loopgate run` too: the header says what was chosen and why, and the oracle runs it.
#[test]
fn verify_auto_picks_the_test_command_for_a_run() {
    let p = Project::new();
    p.write("Makefile", "test:\n\tsh check.sh\n");
    let agent = p.agent("fixer", FIXER);
    let out = p.loopgate(&["run", "--verify", "auto", "--max-iterations", "5", TASK, "--", &agent]);
    out.code(0)
        .stderr_has("(--verify auto: Makefile has a `test` target)")
        .stderr_has("verified complete after 2 iteration(s)");
    assert_eq!(p.last("init")["verify_command"], "make test");
}
