//! What `loopgate install` puts on disk: the plugin's own files, embedded in the binary so that the plugin it
//! installs always matches the binary the hooks run, and the bare user-level commands, derived from the
//! plugin's commands so that both spellings (`/pua-loop` and `/loopgate:pua-loop`) do exactly the same thing.
//!
//! Invariants: a user-level command calls the binary by its absolute path, in double quotes, and its
//! `allowed-tools` allows exactly that binary; the user's text still reaches `loopgate setup --args-stdin`
//! through the plugin command's quoted here-document, never through a shell. Every file loopgate writes
//! carries [`MARKER`] as its first frontmatter line (a YAML comment); a file without it is the user's own.

/// One file of the plugin, relative to the plugin's root.
pub(crate) struct PluginFile {
    pub(crate) path: &'static str,
    pub(crate) text: &'static str,
    pub(crate) executable: bool,
}

macro_rules! plugin_file {
    ($path:literal, $executable:literal) => {
        PluginFile {
            path: $path,
            text: include_str!(concat!("../../../", $path)),
            executable: $executable,
        }
    };
}

/// The plugin as this binary knows it: manifest, marketplace, hooks, namespaced commands, skill.
pub(crate) const PLUGIN: &[PluginFile] = &[
    plugin_file!(".claude-plugin/plugin.json", false),
    plugin_file!(".claude-plugin/marketplace.json", false),
    plugin_file!("hooks/hooks.json", false),
    plugin_file!("hooks/loopgate.sh", true),
    plugin_file!("commands/pua-loop.md", false),
    plugin_file!("commands/cancel-loop.md", false),
    plugin_file!("commands/resume-loop.md", false),
    plugin_file!("commands/loop-status.md", false),
    plugin_file!("skills/pua-loop/SKILL.md", false),
];

/// The file of the installed plugin copy that names the binary its hooks run (read by `hooks/loopgate.sh`).
pub(crate) const RECORDED_BINARY: &str = "hooks/loopgate.bin";

/// The plugin's id in its own marketplace (`claude plugin install loopgate@loopgate`).
pub(crate) const PLUGIN_ID: &str = "loopgate@loopgate";
/// The marketplace the embedded plugin is registered as.
pub(crate) const MARKETPLACE: &str = "loopgate";

/// The commands that also get a bare, user-level spelling.
pub(crate) const COMMANDS: [&str; 4] = ["pua-loop", "cancel-loop", "resume-loop", "loop-status"];

/// The first line of every user-level command loopgate writes.
pub(crate) const MARKER: &str = "# Written by `loopgate install`";

/// How the plugin's commands call loopgate; replaced by the binary's path in the user-level copies.
const PLUGIN_CALL: &str = "\"${CLAUDE_PLUGIN_ROOT}/hooks/loopgate.sh\"";

/// The user-level command `NAME.md` for one of [`COMMANDS`], calling `binary` directly.
///
/// `binary` must be safe inside double quotes (see [`check_path`]).
pub(crate) fn user_command(name: &str, binary: &str) -> Option<String> {
    let path = format!("commands/{name}.md");
    let plugin = PLUGIN.iter().find(|f| f.path == path)?;
    let body = plugin.text.strip_prefix("---\n")?;
    let call = format!("\"{binary}\"");
    Some(format!(
        "---\n{MARKER} and calls `{binary}`; `loopgate uninstall` removes it. Delete this line to keep the file as your own.\n{}",
        body.replace(PLUGIN_CALL, &call)
    ))
}

/// Whether a command file was written by `loopgate install`.
pub(crate) fn is_ours(text: &str) -> bool {
    text.lines().nth(1).is_some_and(|line| line.starts_with(MARKER))
}

/// A binary path the commands can quote: inside double quotes a shell still expands `$`, `` ` `` and `\`, and a
/// `"` or a line break would end the quoting, so such a path is refused (with what to do about it).
pub(crate) fn check_path(path: &str) -> Result<(), String> {
    match path.chars().find(|c| matches!(c, '"' | '$' | '`' | '\\' | '\n' | '\r')) {
        None => Ok(()),
        Some(c) => Err(format!(
            "failed to install: the path of the `loopgate` binary `{}` holds {c:?}, which a shell would interpret; install the binary elsewhere (e.g. `{}`)",
            path.escape_debug(),
            crate::messages::INSTALL_ELSEWHERE
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_commands_call_the_binary_the_way_the_plugin_calls_its_script() {
        for name in COMMANDS {
            let text = user_command(name, "/opt/my tools/loopgate").expect("a plugin command");
            assert!(is_ours(&text), "{text}");
            assert!(!text.contains("CLAUDE_PLUGIN_ROOT"), "{text}");
            assert!(
                text.contains("allowed-tools: Bash(\"/opt/my tools/loopgate\":*)"),
                "allows exactly the binary:\n{text}"
            );
            assert!(text.contains("disable-model-invocation: true"), "{text}");
            assert!(
                text.contains("\"/opt/my tools/loopgate\" --project-dir \"${CLAUDE_PROJECT_DIR}\""),
                "{text}"
            );
        }
        let setup = user_command("pua-loop", "/bin/loopgate").expect("pua-loop");
        assert!(
            setup.contains(
                "--session-id \"${CLAUDE_SESSION_ID}\" <<'LOOPGATE_ARGS_END'\n$ARGUMENTS\nLOOPGATE_ARGS_END\n"
            ),
            "the text goes through the quoted here-document:\n{setup}"
        );
        assert_eq!(user_command("no-such-command", "/bin/loopgate"), None);
    }

    #[test]
    fn a_file_is_ours_only_with_the_marker_line() {
        let ours = user_command("cancel-loop", "/bin/loopgate").expect("cancel-loop");
        assert!(is_ours(&ours));
        assert!(!is_ours(&ours.replacen(MARKER, "# mine now", 1)));
        assert!(!is_ours("---\ndescription: my own pua-loop\n---\nhello\n"));
        assert!(!is_ours(""));
    }

    #[test]
    fn paths_a_shell_would_interpret_are_refused() {
        assert!(check_path("/home/me/.cargo/bin/loopgate").is_ok());
        assert!(check_path("/home/my files/loopgate").is_ok());
        for bad in [
            "/a/$HOME/loopgate",
            "/a/`x`/loopgate",
            "/a/\"q\"/loopgate",
            "/a\\b/loopgate",
            "/a\nb",
        ] {
            let err = check_path(bad).expect_err(bad);
            assert!(err.contains("cargo install --root") && !err.contains('\n'), "{err}");
        }
    }
}
