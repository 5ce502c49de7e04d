//! The file tools (Write, Edit, NotebookEdit), which Claude Code runs in its own process where no confinement
//! reaches, through the real PreToolUse hook: the control plane outside the project — the seal store, loopgate's
//! binary, Claude Code's user settings and plugin cache — is refused however the path is reached (a hard link
//! the agent made with Bash, a symlink), and the reason says what the path resolved to; honest edits pass.

use std::path::Path;

use serde_json::json;

use crate::project::{Output, Project};

fn write(p: &Project, path: &Path) -> Output {
    p.tool_call("S", "Write", json!({"file_path": path, "content": "{}"}))
}

fn project_with_loop() -> Project {
    let p = Project::new();
    p.write("check.sh", "exit 1\n").write("src/lib.rs", "// code\n");
    p.setup("S", "fix it --verify 'sh check.sh'");
    p
}

#[cfg(unix)]
#[test]
fn a_hard_link_to_the_seal_made_with_bash_then_written_with_write_is_denied() {
    let p = project_with_loop();
    let seal = p.seal_path();
    std::fs::hard_link(&seal, p.path("x.json")).expect("hard link the seal into the project");
    let reason = write(&p, &p.path("x.json")).deny_reason();
    let name = seal
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    assert!(
        reason.contains("`x.json` is a hard link to `") && reason.contains(&name) && reason.contains("seals"),
        "{reason}"
    );
}

#[cfg(unix)]
#[test]
fn claude_codes_user_settings_plugins_and_loopgates_binary_are_refused_by_any_route() {
    let p = project_with_loop();
    let claude = p.home().join(".claude");
    std::fs::create_dir_all(claude.join("plugins/cache")).expect("mkdir plugins");
    std::fs::write(claude.join("settings.json"), "{}").expect("write settings");
    std::os::unix::fs::symlink(claude.join("settings.json"), p.path("cfg.json")).expect("symlink");
    std::os::unix::fs::symlink(claude.join("plugins"), p.path("plug")).expect("symlink dir");
    let binary = Path::new(env!("CARGO_BIN_EXE_loopgate"));
    for (path, says) in [
        (claude.join("settings.json"), "Claude Code's user settings"),
        (claude.join("settings.local.json"), "Claude Code's user settings"),
        (
            p.path("cfg.json"),
            "resolves through a symbolic link to `~/.claude/settings.json`",
        ),
        (
            p.path("plug/cache/loopgate/hooks/hooks.json"),
            "Claude Code's plugin cache",
        ),
        (binary.to_path_buf(), "loopgate's own binary"),
        (
            p.loopgate_home().join("prompts/forged.json"),
            "store of seals, requests and tickets",
        ),
    ] {
        let reason = write(&p, &path).deny_reason();
        assert!(reason.contains(says), "{}: {reason}", path.display());
    }
    // Honest work, and Claude Code's auto-memory beside the transcripts, still pass.
    for path in [
        p.path("src/lib.rs"),
        p.path("settings.json"),
        claude.join("projects/-p/memory/MEMORY.md"),
    ] {
        write(&p, &path).silent();
    }
}
