//! Setup under Claude Code's sandbox in a project with no `.claude/` folder (issue 31, item 5): Claude Code
//! 2.1.197 mounts an empty, read-only `.claude/` there for the commands it runs, so `/loopgate:pua-loop`'s block
//! cannot write its request into the project. An honest loop must still start — sealed by a hook outside the
//! sandbox — and complete, on every listed client version, and the user never sees a bare "Read-only file
//! system".

use super::control::enable_user_sandbox;
use super::{TASK, assert_contains, promise, records, timer};
use crate::common::CHECK_SH;
use crate::harness::Project;
use crate::mock_api::Reply;

#[test]
fn with_the_sandbox_and_no_claude_folder_an_honest_loop_starts_and_completes() {
    let _t = timer("sandbox, no .claude/: an honest loop starts and completes");
    let project = Project::new();
    project.write("check.sh", CHECK_SH).write("src.txt", "broken\n");
    enable_user_sandbox(&project);
    assert!(
        !project.exists(".claude"),
        "the scenario needs a project without `.claude/`"
    );
    let run = project
        .session(format!(
            "/loopgate:pua-loop \"{TASK}\" --verify 'sh check.sh' --max-iterations 4"
        ))
        .replies([
            Reply::bash("echo SANDBOX_RUNTIME=$SANDBOX_RUNTIME; echo fixed > src.txt"),
            promise(),
        ])
        .run();
    let out: String = run.tool_results().iter().map(|(_, t)| format!("{t}\n")).collect();
    assert_contains(
        &out,
        "SANDBOX_RUNTIME=1",
        "COULD NOT RUN: the agent's Bash was not sandboxed",
        &run,
    );
    let prompt = run.prompt_text();
    assert!(
        !prompt.contains("Read-only file system") && !run.local_command_errors().contains("Read-only file system"),
        "the user saw a bare OS error:\n{}",
        run.describe()
    );
    // The block's note: the request waits for a hook outside the sandbox — in the temp directory where Claude
    // Code 2.1.197 keeps `.claude/` read-only.
    assert_contains(&prompt, "seals this loop", "the block's note", &run);
    if crate::harness::claude_version() == "2.1.197" {
        assert_contains(&prompt, "`.claude/` is read-only here", "the block's note", &run);
    }
    let history = project.history();
    assert_eq!(
        records(&history, "init").len(),
        1,
        "the loop did not start\n{}",
        run.describe()
    );
    assert_eq!(
        records(&history, "complete").len(),
        1,
        "the loop did not complete\n{}",
        run.describe()
    );
    assert!(!project.loop_live(), "{}", run.describe());
}

/// The file tools run in Claude Code's own process, outside any sandbox: an agent that links Claude Code's user
/// settings into the project with a script (which the guard does not read) and then writes the link with the
/// Write tool is refused, and the reason names what the link resolved to; the honest fix still completes.
#[test]
fn a_symlink_made_by_a_script_then_written_with_write_is_denied() {
    let _t = timer("symlink then Write: denied");
    let project = Project::new();
    project.write("check.sh", CHECK_SH).write("src.txt", "broken\n");
    let settings = project.home.join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().expect("parent")).expect("mkdir ~/.claude");
    std::fs::write(&settings, "{}\n").expect("write user settings");
    let link = project.path("cfg.json");
    let run = project
        .session(format!(
            "/loopgate:pua-loop \"{TASK}\" --verify 'sh check.sh' --max-iterations 4"
        ))
        .replies([
            Reply::bash("printf 'ln -s \"$HOME/.claude/settings.json\" cfg.json\\n' > mk.sh; sh mk.sh; ls -l cfg.json"),
            // Claude Code refuses to Write an existing file the agent has not read.
            Reply::tool("Read", serde_json::json!({"file_path": link})),
            Reply::tool(
                "Write",
                serde_json::json!({"file_path": link, "content": "{\"disableAllHooks\": true}\n"}),
            ),
            Reply::bash("echo fixed > src.txt"),
            promise(),
        ])
        // As a user who trusts the agent with their home directory: Claude Code's own permissions then let the
        // calls through, and only loopgate's guard stands between the Write and the settings.
        .arg("--allowedTools")
        .arg("Write")
        .arg("--add-dir")
        .arg(project.home.to_string_lossy())
        .run();
    let denial = run
        .tool_results()
        .into_iter()
        .find(|(error, text)| *error && text.contains("cfg.json"))
        .map(|(_, text)| text)
        .unwrap_or_default();
    assert_contains(
        &denial,
        "`cfg.json` resolves through a symbolic link to `~/.claude/settings.json`",
        "the Write tool's denial",
        &run,
    );
    assert_contains(&denial, "Claude Code's user settings", "why it is refused", &run);
    assert_eq!(
        std::fs::read_to_string(&settings).ok().as_deref(),
        Some("{}\n"),
        "{}",
        run.describe()
    );
    assert_eq!(records(&project.history(), "complete").len(), 1, "{}", run.describe());
}
