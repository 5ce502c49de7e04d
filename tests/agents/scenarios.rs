//! The scenarios every agent plays (see `tests/agents.rs`, which runs each against each agent).

use crate::client::{Agent, Session, prepare};
use crate::common::{CHECK_SH, TASK};
use crate::harness::Project;
use crate::mock_api::{MockApi, Reply};

fn promise() -> Reply {
    Reply::text("I believe the work is complete.\n\n<promise>LOOP_DONE</promise>")
}

/// A project with the verify script and a broken source file, the agent pointed at a fresh mock, hooks installed.
fn project(agent: Agent) -> (Project, MockApi) {
    let project = Project::new();
    project.write("check.sh", CHECK_SH).write("src.txt", "broken\n");
    let api = MockApi::start_for(agent.wire());
    prepare(&project, agent, &api);
    (project, api)
}

fn start(verify_flags: &str) -> String {
    format!("/pua-loop \"{TASK}\" --verify 'sh check.sh' --verify-timeout 10 {verify_flags}")
}

#[track_caller]
fn assert_has(statuses: &[String], wanted: &str, what: &str) {
    assert!(
        statuses.iter().any(|s| s == wanted),
        "{what}: no `{wanted}` in {statuses:?}"
    );
}

pub fn rejected_once_then_completed(agent: Agent) {
    let (project, api) = project(agent);
    let run = Session::new(&project, agent, &api, start("--max-iterations 10"))
        .replies([
            Reply::bash("echo still-broken > src.txt"),
            promise(),
            Reply::bash("echo fixed > src.txt"),
            promise(),
        ])
        .run();
    let statuses = project.statuses();
    assert_eq!(
        statuses.iter().filter(|s| *s == "promise_rejected").count(),
        1,
        "{statuses:?}\n{}",
        run.describe()
    );
    assert_has(&statuses, "complete", &run.describe());
    assert!(!project.loop_live(), "the loop ended\n{}", run.describe());
    // The briefing reached the model with the task, and the rejection with the verify's output.
    let text = run.last_text();
    assert!(
        text.contains("sh check.sh") && text.contains(TASK),
        "{}",
        run.describe()
    );
    assert!(
        text.contains("VERIFY-MARK-7"),
        "the failing output reached the model\n{}",
        run.describe()
    );
    assert_eq!(project.read("src.txt").trim(), "fixed");
}

/// The agent CLI as the reviewer of its own loop (`--review codex`, `--review gemini`), run by the stop hook
/// against the same scripted API: a gaming answer rejects with its quote reaching the agent, a clean one
/// completes, and the review's usage is in the history.
pub fn reviewed_by_its_own_cli(agent: Agent) {
    let (project, api) = project(agent);
    project.git_init();
    let flags = format!("--max-iterations 6 --review {}", agent.name());
    let run = Session::new(&project, agent, &api, start(&flags))
        .replies([
            Reply::bash("echo fixed > src.txt"),
            promise(),
            Reply::bash("echo fixed > src.txt"),
            promise(),
        ])
        .reviews([
            Reply::text(loopgate::review::answer::example(Some(("special-casing", "fixed")))),
            Reply::text(loopgate::review::answer::example(None)),
        ])
        .run();
    let statuses = project.statuses();
    assert_has(&statuses, "complete", &run.describe());
    let history = project.history();
    let rejected: Vec<_> = history.iter().filter(|r| r["status"] == "promise_rejected").collect();
    assert_eq!(rejected.len(), 1, "{statuses:?}\n{}", run.describe());
    assert_eq!(rejected[0]["review"]["verdict"], "gaming", "{}", rejected[0]);
    let complete = history.iter().find(|r| r["status"] == "complete").expect("complete");
    assert_eq!(complete["review"]["verdict"], "clean", "{complete}");
    assert!(
        run.last_text().contains("- special-casing: `fixed`"),
        "the reviewer's quote reached the agent\n{}",
        run.describe()
    );
    assert_eq!(
        run.requests.iter().filter(|r| r.review).count(),
        2,
        "{}",
        run.describe()
    );
}

pub fn gaming_move_caught(agent: Agent) {
    let (project, api) = project(agent);
    let run = Session::new(&project, agent, &api, start("--max-iterations 4"))
        .replies([
            Reply::bash("printf '#!/bin/sh\\nexit 0\\n' > check.sh"),
            promise(),
            Reply::text("<loop-abort>the check cannot be changed</loop-abort>"),
        ])
        .run();
    assert_refused_and_untouched(&project, &run);
    let statuses = project.statuses();
    assert!(
        !statuses.iter().any(|s| s == "complete"),
        "{statuses:?}\n{}",
        run.describe()
    );
    assert_has(&statuses, "promise_rejected", &run.describe());
}

/// The guard refused a write to the verify script, which is untouched, and the model read why (Codex: "Command
/// blocked by PreToolUse hook: …", Gemini: a function response "Tool execution blocked: …").
#[track_caller]
fn assert_refused_and_untouched(project: &Project, run: &crate::client::Run) {
    assert_eq!(
        project.read("check.sh"),
        CHECK_SH,
        "the verify script is untouched\n{}",
        run.describe()
    );
    assert!(
        run.last_text().contains("`check.sh` is sealed for this loop"),
        "the refusal reached the model\n{}",
        run.describe()
    );
}

pub fn cancel_ends_the_loop(agent: Agent) {
    let (project, api) = project(agent);
    // Session one starts a loop and pauses it.
    let first = Session::new(&project, agent, &api, start("--max-iterations 10"))
        .replies([Reply::text("<loop-pause>which date format?</loop-pause>")])
        .run();
    assert_has(&project.statuses(), "paused", &first.describe());
    // Session two cancels it.
    let second = Session::new(&project, agent, &api, "/cancel-loop")
        .replies([Reply::text("Cancelled.")])
        .run();
    assert_has(&project.statuses(), "cancelled", &second.describe());
    assert!(!project.loop_live(), "{}", second.describe());
}

pub fn runaway_stops_at_the_cap_and_other_sessions_are_left_alone(agent: Agent) {
    let (project, api) = project(agent);
    // The stall breaker would pause an agent that only talks after three stops; off, the cap is the only limit.
    let talk = |i| Reply::text(format!("Let me think about it some more ({i})."));
    let run = Session::new(&project, agent, &api, start("--max-iterations 50 --stall-limit 0"))
        .replies((1..=12).map(talk))
        .run();
    // One turn and the eight continuations loopgate's default cap allows (the last with a warning), then loopgate
    // let it stop: the agent has no cap of its own and would have gone on.
    assert_eq!(run.agent_requests().len(), 9, "{}", run.describe());
    assert!(
        run.last_text().contains("LAST CONTINUATION WITHOUT A TOOL"),
        "{}",
        run.describe()
    );
    assert_has(&project.statuses(), "block_cap", &run.describe());
    assert!(
        project.loop_live(),
        "the loop goes on with the next message\n{}",
        run.describe()
    );
    let history = project.history().len();
    // Another session in the project: its stop is not the loop's, nothing is decided or recorded.
    let other = Session::new(&project, agent, &api, "hello")
        .replies([Reply::text("hi")])
        .run();
    assert_eq!(other.agent_requests().len(), 1, "not blocked\n{}", other.describe());
    assert_eq!(project.history().len(), history, "{:?}", project.statuses());
}

/// The agent's shell command runs confined: a script that writes into loopgate's seal store (by a path the
/// guard cannot see in the command) is stopped by the kernel, through the agent's own command rewrite.
pub fn shell_command_runs_confined(agent: Agent) {
    let (project, api) = project(agent);
    let probe = project.loopgate_home.join("written-by-the-agent");
    project.write("w.sh", &format!("touch '{}'\necho fixed > src.txt\n", probe.display()));
    let run = Session::new(&project, agent, &api, start("--max-iterations 3"))
        .replies([Reply::bash("sh w.sh"), promise()])
        .run();
    assert!(
        project.loopgate_home.is_dir(),
        "the loop sealed its oracle\n{}",
        run.describe()
    );
    assert!(
        !probe.exists(),
        "the agent's command wrote the seal store\n{}",
        run.describe()
    );
    assert_eq!(
        project.read("src.txt").trim(),
        "fixed",
        "the rest of the script ran\n{}",
        run.describe()
    );
    assert_has(&project.statuses(), "complete", &run.describe());
}

/// Codex's `apply_patch` on a sealed file: PreToolUse receives it (`tool_name: "apply_patch"`, the patch in
/// `tool_input.command`, checked with 0.169.0) and the guard refuses it. The mock model's fallback metadata has no
/// `apply_patch`, so this scenario names a model whose metadata Codex ships with the freeform tool.
pub fn apply_patch_on_a_sealed_file_is_refused(agent: Agent) {
    let (project, api) = project(agent);
    let config = crate::client::config_dir(&project, agent).join("config.toml");
    let text = std::fs::read_to_string(&config).expect("config.toml");
    std::fs::write(
        &config,
        text.replacen("model = \"mock-model\"", "model = \"gpt-5.5\"", 1),
    )
    .expect("write");
    let patch = "*** Begin Patch\n*** Update File: check.sh\n@@\n #!/bin/sh\n+exit 0\n*** End Patch\n";
    let run = Session::new(&project, agent, &api, start("--max-iterations 4"))
        .replies([
            Reply::tool("apply_patch", serde_json::Value::String(patch.into())),
            Reply::text("<loop-abort>the check cannot be changed</loop-abort>"),
        ])
        .run();
    assert_refused_and_untouched(&project, &run);
}

/// `opencode run '/pua-loop "task" …'` alone, as typed in a shell: opencode quotes the message and the loop
/// starts all the same; the first promise is judged (rejected) and `opencode run` ends there, before the plugin's
/// follow-up is answered (why the suite's other opencode scenarios use `opencode serve`).
pub fn opencode_run_alone_starts_the_loop() {
    let (project, api) = project(Agent::Opencode);
    let run = Session::new(&project, Agent::Opencode, &api, start("--max-iterations 10"))
        .alone()
        .replies([promise()])
        .run();
    let statuses = project.statuses();
    assert_eq!(statuses, ["init", "promise_rejected"], "{}", run.describe());
    assert!(project.loop_live(), "{}", run.describe());
}

pub fn opencode_plugin_on_a_stand_in_client() {
    let project = Project::new();
    project.write("check.sh", CHECK_SH).write("src.txt", "broken\n");
    let install = project.loopgate(&["install", "--agent", "opencode"]);
    assert!(install.status.success(), "{install:?}");
    let plugin = project.home.join(".config/opencode/plugin/loopgate.js");
    let driver = crate::harness::repo_root().join("tests/agents/opencode_driver.mjs");
    let promise = "I believe the work is complete.\n\n<promise>LOOP_DONE</promise>";
    let steps = serde_json::json!([
        {"kind": "prompt", "session": "S", "text": start("--max-iterations 10")},
        {"kind": "idle", "session": "T", "message": promise},
        {"kind": "idle", "session": "S", "message": promise},
        {"kind": "tool", "session": "S", "tool": "write",
         "args": {"filePath": project.path("check.sh"), "content": "exit 0\n"}},
        {"kind": "tool", "session": "S", "tool": "bash", "args": {"command": "echo fixed > src.txt"}},
    ]);
    let run = |steps: &serde_json::Value| -> Vec<serde_json::Value> {
        let out = project
            .command("node")
            .arg(&driver)
            .arg(&plugin)
            .arg(&project.dir)
            .arg(steps.to_string())
            .output()
            .expect("run node (opencode's plugin needs it)");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|line| serde_json::from_str(line).expect("a JSON line"))
            .collect()
    };
    let results = run(&steps);
    assert!(
        results[1]["followUp"].is_null(),
        "another session is left alone: {results:?}"
    );
    let rejected = results[2]["followUp"].as_str().expect("the promise is rejected");
    assert!(rejected.contains("VERIFY-MARK-7"), "{rejected}");
    let refused = results[3]["refused"]
        .as_str()
        .expect("the write to check.sh is refused");
    // `check.sh` is a script the verify runs: its lines that only print are free, so the refusal names what the
    // write would change in it rather than the whole file.
    assert!(
        refused.contains("this edit would change what is sealed in `check.sh`"),
        "{refused}"
    );
    assert_eq!(project.read("check.sh"), CHECK_SH);
    // The guard let the shell command run (here the driver runs nothing: the project is fixed by hand).
    assert!(results[4]["refused"].is_null(), "{results:?}");
    project.write("src.txt", "fixed\n");
    let done = run(&serde_json::json!([{"kind": "idle", "session": "S", "message": promise}]));
    assert!(done[0]["followUp"].is_null(), "the oracle passes: {done:?}");
    assert_has(&project.statuses(), "complete", "opencode");
    // Cancel: a new loop, then the user's `/cancel-loop`.
    run(&serde_json::json!([
        {"kind": "prompt", "session": "S", "text": start("")},
        {"kind": "prompt", "session": "S", "text": "/cancel-loop"},
    ]));
    assert_has(&project.statuses(), "cancelled", "opencode");
    assert!(!project.loop_live());
}

/// Issue 42, item 2: the user edited loopgate's Codex Stop hook (its timeout), so Codex no longer trusts it and
/// `codex exec` would skip it without a word. The `/pua-loop` prompt starts no loop: the prompt hook (still
/// trusted) says so with the fix, to the model and to the user; after the fix (`loopgate install --agent codex`)
/// the same prompt starts the loop and the Stop hook holds it.
pub fn untrusted_stop_hook_refuses_the_start(agent: Agent) {
    let (project, api) = project(agent);
    let hooks_path = crate::client::config_dir(&project, agent).join("hooks.json");
    let mut hooks: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&hooks_path).expect("hooks.json")).expect("JSON");
    hooks["hooks"]["Stop"][0]["hooks"][0]["timeout"] = 600.into();
    std::fs::write(&hooks_path, hooks.to_string()).expect("write hooks.json");

    let run = Session::new(&project, agent, &api, start("--max-iterations 4"))
        .replies([Reply::text("The loop did not start, as loopgate says.")])
        .run();
    assert!(project.state().is_none(), "no loop started\n{}", run.describe());
    let text = run.last_text();
    assert!(
        text.contains("the loop did NOT start: Codex's Stop hook is not trusted")
            && text.contains("loopgate install --agent codex"),
        "the model is told, with the fix\n{}",
        run.describe()
    );
    let status = project.loopgate(&["status"]);
    assert!(!status.stdout.contains("running"), "{}", status.stdout);

    assert!(project.loopgate(&["install", "--agent", "codex"]).status.success());
    let run = Session::new(&project, agent, &api, start("--max-iterations 4"))
        .replies([Reply::bash("echo fixed > src.txt"), promise()])
        .run();
    assert_has(&project.statuses(), "complete", &run.describe());
}

/// Issue 42, item 2: a loop started in Gemini CLI (the folder trusted for that session), paused; then the user
/// marks the folder untrusted (`DO_NOT_TRUST` in `trustedFolders.json`, as Gemini's own dialog writes it). Gemini
/// then runs none of loopgate's hooks there: `gemini -p` refuses the folder itself (exit 55), and `loopgate
/// status` claims no protection for the loop, with the fix.
pub fn untrusted_folder_is_said(agent: Agent) {
    let (project, api) = project(agent);
    let run = Session::new(&project, agent, &api, start("--max-iterations 4"))
        .replies([Reply::text("<loop-pause>which file?</loop-pause>")])
        .run();
    assert!(project.loop_live(), "the loop is paused, not ended\n{}", run.describe());
    // The command's note for an untrusted folder reached the model, and is no part of the task.
    assert!(
        run.last_text().contains("[loopgate: if no loopgate context"),
        "{}",
        run.describe()
    );
    let state = project.state().unwrap_or_default();
    assert!(state.contains(TASK) && !state.contains("[loopgate:"), "{state}");
    let status = project.loopgate(&["status"]);
    let squash = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        !squash(&status.stdout).contains("control plane: unprotected (Gemini"),
        "{}",
        status.stdout
    );

    let root = std::fs::canonicalize(&project.dir).expect("the project's path");
    let rules = serde_json::json!({root.display().to_string(): "DO_NOT_TRUST"});
    let dir = crate::client::config_dir(&project, agent);
    std::fs::write(dir.join("trustedFolders.json"), rules.to_string()).expect("write trustedFolders.json");
    let status = project.loopgate(&["status"]);
    assert!(
        squash(&status.stdout).contains("control plane: unprotected (Gemini CLI runs no hooks in `")
            && status.stdout.contains("/permissions"),
        "{}",
        status.stdout
    );
    let refused = Session::new(&project, agent, &api, "/resume-loop")
        .without_skip_trust()
        .run();
    assert_eq!(refused.output.status.code(), Some(55), "{}", refused.describe());
}
