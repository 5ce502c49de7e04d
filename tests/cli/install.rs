//! Issue 12: `loopgate install` / `loopgate uninstall`, against a stand-in `claude` that records each call and
//! keeps its plugin list in `$HOME/.fake-claude/` (the real CLI is driven by the end-to-end suite). Install
//! writes the bare user-level commands and installs the plugin once; running it again changes nothing; a
//! user's own command file is never overwritten or removed; uninstall removes exactly what install wrote.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::project::{LOOPGATE, Output, Project};

/// Answers `plugin list --json`, `plugin marketplace list --json`, `plugin marketplace add|remove`,
/// `plugin install|uninstall` from files; `FAKE_CLAUDE_FAIL=WORD` makes the call containing WORD fail.
const FAKE_CLAUDE: &str = r#"#!/bin/sh
state="$HOME/.fake-claude"
mkdir -p "$state"
echo "$*" >> "$state/calls"
case "$*" in *"${FAKE_CLAUDE_FAIL:-no such call}"*) echo "✘ boom: $*" >&2; exit 1 ;; esac
list() { [ -f "$state/$1" ] || { echo '[]'; return; }; printf '['; sep=''; while read -r v; do printf '%s{"%s":"%s"}' "$sep" "$2" "$v"; sep=','; done < "$state/$1"; echo ']'; }
case "$1 $2 $3" in
    "plugin list --json") list installed id ;;
    "plugin marketplace list") list marketplaces name ;;
    "plugin marketplace add") [ -d "$4" ] || exit 1; echo loopgate >> "$state/marketplaces"; echo "$4" > "$state/marketplace-dir" ;;
    "plugin marketplace remove") grep -vx "$4" "$state/marketplaces" > "$state/m.tmp"; mv "$state/m.tmp" "$state/marketplaces" ;;
    "plugin install "*) grep -qx "$3" "$state/installed" 2>/dev/null || echo "$3" >> "$state/installed" ;;
    "plugin uninstall "*) grep -vx "$3" "$state/installed" > "$state/i.tmp"; mv "$state/i.tmp" "$state/installed" ;;
    *) echo "fake claude: unknown call $*" >&2; exit 2 ;;
esac
"#;

struct Setup {
    p: Project,
    bin_dir: PathBuf,
}

impl Setup {
    fn new() -> Self {
        let p = Project::new();
        let bin_dir = p.outside("fake-bin");
        fs::create_dir_all(&bin_dir).expect("create fake bin dir");
        let claude = bin_dir.join("claude");
        fs::write(&claude, FAKE_CLAUDE).expect("write fake claude");
        fs::set_permissions(&claude, fs::Permissions::from_mode(0o755)).expect("chmod fake claude");
        Self { p, bin_dir }
    }

    fn path_var(&self) -> OsString {
        let mut dirs = vec![self.bin_dir.clone()];
        dirs.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
        std::env::join_paths(dirs).expect("join PATH")
    }

    fn run(&self, command: &str) -> Output {
        self.p.loopgate([command]).env("PATH", self.path_var()).run()
    }

    fn home(&self, relative: &str) -> PathBuf {
        self.p.home().join(relative)
    }

    fn calls(&self) -> Vec<String> {
        fs::read_to_string(self.home(".fake-claude/calls"))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }

    fn state(&self, name: &str) -> String {
        fs::read_to_string(self.home(&format!(".fake-claude/{name}"))).unwrap_or_default()
    }

    /// Every file under HOME except the stand-in's own records, with its bytes and modification time.
    fn snapshot(&self) -> BTreeMap<PathBuf, (Vec<u8>, std::time::SystemTime)> {
        fn walk(dir: &Path, out: &mut BTreeMap<PathBuf, (Vec<u8>, std::time::SystemTime)>) {
            for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.ends_with(".fake-claude") {
                    continue;
                }
                if path.is_dir() {
                    walk(&path, out);
                } else {
                    let meta = fs::metadata(&path).expect("metadata");
                    out.insert(
                        path.clone(),
                        (fs::read(&path).expect("read"), meta.modified().expect("mtime")),
                    );
                }
            }
        }
        let mut out = BTreeMap::new();
        walk(self.p.home(), &mut out);
        out
    }
}

fn binary() -> String {
    Path::new(LOOPGATE)
        .canonicalize()
        .expect("canonical binary")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn install_writes_the_bare_commands_and_installs_the_plugin_and_a_second_run_changes_nothing() {
    let s = Setup::new();
    let out = s.run("install");
    out.success();
    assert!(out.stdout.contains("/pua-loop \"task\" --verify"), "{out}");
    for name in ["pua-loop", "cancel-loop", "resume-loop", "loop-status"] {
        let text = fs::read_to_string(s.home(&format!(".claude/commands/{name}.md"))).expect("command written");
        assert!(text.starts_with("---\n# Written by `loopgate install`"), "{text}");
        let call = format!("\"{}\" --project-dir \"${{CLAUDE_PROJECT_DIR}}\"", binary());
        assert!(text.contains(&call), "calls the binary directly:\n{text}");
        assert!(
            text.contains(&format!("allowed-tools: Bash(\"{}\":*)", binary())),
            "{text}"
        );
        assert!(text.contains("disable-model-invocation: true"), "{text}");
    }
    let plugin = s.home(".local/share/loopgate/plugin");
    assert_eq!(s.state("marketplace-dir").trim(), plugin.to_string_lossy());
    assert_eq!(s.state("installed").trim(), "loopgate@loopgate");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in [
        "hooks/hooks.json",
        "hooks/loopgate.sh",
        "commands/pua-loop.md",
        ".claude-plugin/plugin.json",
    ] {
        assert_eq!(
            fs::read(plugin.join(file)).expect("plugin file"),
            fs::read(root.join(file)).expect("repo file"),
            "{file} is the repository's"
        );
    }
    assert_eq!(
        fs::read_to_string(plugin.join("hooks/loopgate.bin")).expect("the recorded binary"),
        format!("{}\n", binary()),
        "the plugin's hooks run the binary that installed it"
    );
    let mode = fs::metadata(plugin.join("hooks/loopgate.sh"))
        .expect("loopgate.sh")
        .permissions()
        .mode();
    assert_eq!(mode & 0o111, 0o111, "the hook script is executable");
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(s.home(".local/share/loopgate/install.json")).expect("manifest"))
            .expect("manifest is JSON");
    assert_eq!(manifest["plugin_installed"], true, "{manifest}");

    // Idempotent: the second run only looks.
    let before = s.snapshot();
    let calls = s.calls().len();
    let again = s.run("install");
    again.success();
    assert!(again.stdout.contains("up to date"), "{again}");
    assert_eq!(s.snapshot(), before, "a second install changed files");
    assert_eq!(&s.calls()[calls..], ["plugin list --json"]);
}

#[test]
fn a_users_own_command_file_is_never_overwritten_or_removed() {
    let s = Setup::new();
    let own = s.home(".claude/commands/pua-loop.md");
    fs::create_dir_all(own.parent().expect("parent")).expect("create commands dir");
    let mine = "---\ndescription: my own loop\n---\nDo it my way: $ARGUMENTS\n";
    fs::write(&own, mine).expect("write own command");
    let out = s.run("install");
    out.success();
    assert!(
        out.stderr.contains("kept your own") && out.stderr.contains("/loopgate:pua-loop"),
        "{out}"
    );
    assert_eq!(fs::read_to_string(&own).expect("own file"), mine);
    assert!(s.home(".claude/commands/cancel-loop.md").exists());

    let gone = s.run("uninstall");
    gone.success();
    assert_eq!(fs::read_to_string(&own).expect("own file survives"), mine);
    assert!(gone.stdout.contains("kept"), "{gone}");
    assert!(!s.home(".claude/commands/cancel-loop.md").exists());
    assert!(!s.home(".claude/commands/loop-status.md").exists());
}

#[test]
fn an_installed_loopgate_plugin_is_used_and_never_installed_twice() {
    let s = Setup::new();
    fs::create_dir_all(s.home(".fake-claude")).expect("state dir");
    fs::write(s.home(".fake-claude/installed"), "loopgate@my-clone\n").expect("installed list");
    let out = s.run("install");
    out.success();
    assert!(out.stdout.contains("loopgate@my-clone is already installed"), "{out}");
    assert_eq!(s.calls(), ["plugin list --json"], "no marketplace add, no install");
    assert!(s.home(".claude/commands/pua-loop.md").exists());
    // Uninstall leaves the plugin it did not install.
    s.run("uninstall").success();
    assert_eq!(s.state("installed"), "loopgate@my-clone\n");
    assert!(!s.calls().iter().any(|c| c.contains("uninstall")), "{:?}", s.calls());
    assert!(!s.home(".claude/commands/pua-loop.md").exists());
}

#[test]
fn uninstall_removes_exactly_what_install_wrote() {
    let s = Setup::new();
    let settings = s.home(".claude/settings.json");
    fs::create_dir_all(settings.parent().expect("parent")).expect("create .claude");
    fs::write(&settings, "{\"theme\": \"dark\"}\n").expect("user settings");
    let before: Vec<PathBuf> = s.snapshot().into_keys().collect();
    s.run("install").success();
    let gone = s.run("uninstall");
    gone.success();
    assert!(
        gone.stdout.contains("uninstalled the plugin loopgate@loopgate"),
        "{gone}"
    );
    let after: Vec<PathBuf> = s.snapshot().into_keys().collect();
    assert_eq!(after, before, "uninstall left or removed files");
    assert!(!s.home(".local/share/loopgate").exists());
    assert_eq!(s.state("installed").trim(), "");
    assert_eq!(s.state("marketplaces").trim(), "");
    // Nothing left to do: says so, succeeds.
    let again = s.run("uninstall");
    again.success();
    assert!(again.stdout.contains("nothing to remove"), "{again}");
}

#[test]
fn without_claude_or_when_it_fails_install_says_which_command_failed() {
    let s = Setup::new();
    let out = s.p.loopgate(["install"]).env("PATH", "/usr/bin:/bin").run();
    out.code(1);
    assert_eq!(
        out.stderr_line(),
        "loopgate: failed to run `claude`: it is not on PATH; install Claude Code first, or pass `--claude PATH`"
    );
    assert!(!s.home(".claude").exists(), "nothing written without claude");

    let out =
        s.p.loopgate(["install"])
            .env("PATH", s.path_var())
            .env("FAKE_CLAUDE_FAIL", "plugin install")
            .run();
    out.code(1);
    let line = out.stderr_line();
    assert!(
        line.contains("plugin install loopgate@loopgate`: it exited with 1: ✘ boom"),
        "{line}"
    );
    // `--claude` names the CLI explicitly.
    let out =
        s.p.loopgate(["install", "--claude", &s.bin_dir.join("claude").to_string_lossy()])
            .env("PATH", "/usr/bin:/bin")
            .run();
    out.success();
}

#[test]
fn project_dir_points_every_command_at_that_project() {
    let p = Project::new();
    let root = p.root().to_string_lossy().into_owned();
    p.loopgate(["--project-dir", &root, "setup", "--session-id", "S", "make it so"])
        .current_dir("..")
        .run()
        .success();
    assert!(p.exists(".claude/pua-loop.local.md"));
    let status = p.loopgate(["--project-dir", &root, "status"]).current_dir("..").run();
    status.success();
    assert!(status.stdout.contains("make it so"), "{status}");
    // An empty value (an unsubstituted variable) is ignored, as in hooks/loopgate.sh.
    p.loopgate(["--project-dir", "", "status"]).run().success();
}

#[test]
fn an_outdated_install_is_refreshed_and_the_plugin_reinstalled() {
    let s = Setup::new();
    s.run("install").success();
    // An older loopgate wrote these: another plugin file and a command calling a binary that moved.
    let hooks = s.home(".local/share/loopgate/plugin/hooks/hooks.json");
    fs::write(&hooks, "{\"hooks\": {}}\n").expect("age the plugin copy");
    let command = s.home(".claude/commands/loop-status.md");
    let old = fs::read_to_string(&command)
        .expect("command")
        .replace(&binary(), "/old/place/loopgate");
    fs::write(&command, old).expect("age the command");
    let calls = s.calls().len();
    let out = s.run("install");
    out.success();
    assert!(out.stdout.contains("updated /loop-status"), "{out}");
    assert!(out.stdout.contains("installed the plugin"), "{out}");
    assert_eq!(
        &s.calls()[calls..],
        [
            "plugin list --json".to_string(),
            "plugin uninstall loopgate@loopgate".to_string(),
            format!(
                "plugin marketplace add {}",
                s.home(".local/share/loopgate/plugin").display()
            ),
            "plugin install loopgate@loopgate".to_string(),
        ]
    );
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("hooks/hooks.json");
    assert_eq!(fs::read(&hooks).expect("hooks"), fs::read(repo).expect("repo hooks"));
    assert!(!fs::read_to_string(&command).expect("command").contains("/old/place"));
}

/// `install --sandbox` merges Claude Code's sandbox settings into the user's settings file, keeping every key of
/// theirs, and running it again changes nothing; a settings file that is not JSON is named, and left alone.
#[test]
fn install_sandbox_turns_on_claude_codes_sandbox_keeping_the_users_settings() {
    let s = Setup::new();
    let settings = s.home(".claude/settings.json");
    fs::create_dir_all(settings.parent().expect("parent")).expect("mkdir");
    fs::write(
        &settings,
        r#"{"model": "x", "sandbox": {"excludedCommands": ["docker"]}}"#,
    )
    .expect("write");
    let install = || s.p.loopgate(["install", "--sandbox"]).env("PATH", s.path_var()).run();
    let out = install();
    out.success().stdout_contains("turned on Claude Code's sandbox");
    // Issue 33, item 6: every change is said, old value → new, and that uninstall puts them back.
    out.stdout_contains("sandbox.enabled: unset → true")
        .stdout_contains("sandbox.allowUnsandboxedCommands: unset → false")
        .stdout_contains("for every project")
        .stdout_contains("`loopgate uninstall` puts these back");
    assert!(out.stderr.contains("`sandbox.excludedCommands` (\"docker\")"), "{out}");
    let text = fs::read_to_string(&settings).expect("read");
    assert!(
        text.find("\"model\"") < text.find("\"sandbox\""),
        "the user's key order is kept:\n{text}"
    );
    let written: serde_json::Value = serde_json::from_str(&fs::read_to_string(&settings).expect("read")).expect("json");
    let store = s.p.loopgate_home().to_string_lossy().into_owned();
    assert_eq!(
        written,
        serde_json::json!({"model": "x", "sandbox": {"excludedCommands": ["docker"], "enabled": true,
            "allowUnsandboxedCommands": false, "filesystem": {"denyWrite": [store]}}})
    );
    install().success();
    let again: serde_json::Value = serde_json::from_str(&fs::read_to_string(&settings).expect("read")).expect("json");
    assert_eq!(again, written, "a second run changes nothing");

    // `uninstall --sandbox` is refused; `uninstall` puts the settings back as they were.
    let refused = s.p.loopgate(["uninstall", "--sandbox"]).env("PATH", s.path_var()).run();
    refused.code(2);
    assert!(
        refused
            .stderr_line()
            .contains("`--sandbox` is a flag of `loopgate install`"),
        "{refused}"
    );
    let out = s.p.loopgate(["uninstall"]).env("PATH", s.path_var()).run();
    out.success().stdout_contains("put Claude Code's sandbox settings");
    let restored: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&settings).expect("read")).expect("json");
    assert_eq!(
        restored,
        serde_json::json!({"model": "x", "sandbox": {"excludedCommands": ["docker"]}})
    );
    install().success();

    fs::write(&settings, "{not json").expect("write");
    let out = install();
    out.code(2);
    assert!(
        out.stderr_line().starts_with(&format!(
            "loopgate: failed to update `{}`: it is not valid JSON",
            settings.display()
        )),
        "{out}"
    );
    assert_eq!(fs::read_to_string(&settings).expect("read"), "{not json");
}

/// Issue 34: `loopgate install --agent codex` writes Codex's hooks, their trust and the loop's skills; again, it
/// changes nothing; the user's own hooks and settings are kept; uninstall removes exactly what it wrote.
#[test]
fn install_for_codex_keeps_the_users_hooks_and_uninstall_removes_only_loopgates() {
    let p = Project::new();
    let codex = p.home().join(".codex");
    fs::create_dir_all(&codex).expect("create ~/.codex");
    let own_hook = r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"my-notify"}]}]}}"#;
    fs::write(codex.join("hooks.json"), own_hook).expect("write hooks.json");
    fs::write(codex.join("config.toml"), "model = \"o3\"\n").expect("write config.toml");
    let run = |args: &[&str]| p.loopgate(args.iter().copied()).run();

    run(&["install", "--agent", "codex"]).success();
    let hooks = fs::read_to_string(codex.join("hooks.json")).expect("hooks.json");
    let config = fs::read_to_string(codex.join("config.toml")).expect("config.toml");
    run(&["install", "--agent", "codex"]).success();
    assert_eq!(
        fs::read_to_string(codex.join("hooks.json")).expect("again"),
        hooks,
        "install twice = once"
    );
    assert_eq!(fs::read_to_string(codex.join("config.toml")).expect("again"), config);

    let parsed: serde_json::Value = serde_json::from_str(&hooks).expect("JSON");
    let stop = parsed["hooks"]["Stop"].as_array().expect("Stop groups");
    assert_eq!(stop.len(), 2, "the user's hook and loopgate's: {hooks}");
    assert_eq!(stop[0]["hooks"][0]["command"], "my-notify");
    let ours = stop[1]["hooks"][0]["command"].as_str().expect("loopgate's command");
    assert!(
        ours.ends_with(" hook --agent codex stop") && ours.starts_with(&format!("'{LOOPGATE}")),
        "{ours}"
    );
    assert_eq!(
        stop[1]["hooks"][0]["timeout"], 3700,
        "above the longest verify, in seconds"
    );
    for event in ["SessionStart", "UserPromptSubmit", "PreToolUse"] {
        assert_eq!(
            parsed["hooks"][event].as_array().map(Vec::len),
            Some(1),
            "{event}: {hooks}"
        );
    }
    // Trust for each of loopgate's hooks, at its place (the Stop group is the second: index 1).
    assert!(config.starts_with("model = \"o3\"\n"), "{config}");
    let key = format!("[hooks.state.\"{}:stop:1:0\"]", codex.join("hooks.json").display());
    assert!(config.contains(&key), "{config}");
    assert_eq!(config.matches("trusted_hash = \"sha256:").count(), 4, "{config}");
    // The commands are skills (Codex's UI runs no custom `/` command): named in their frontmatter, as Codex lists
    // them when the user presses `$`.
    let skill = fs::read_to_string(codex.join("skills/pua-loop/SKILL.md")).expect("the $pua-loop skill");
    assert!(
        skill.starts_with("---\nname: pua-loop\ndescription: \"loopgate: "),
        "{skill}"
    );
    assert!(skill.contains("loopgate install --agent codex"), "{skill}");
    assert!(codex.join("skills/loop-status/SKILL.md").is_file());

    run(&["uninstall", "--agent", "codex"]).success();
    let left: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(codex.join("hooks.json")).expect("hooks.json")).expect("JSON");
    assert_eq!(
        left["hooks"]["Stop"],
        serde_json::json!([{"hooks": [{"type": "command", "command": "my-notify"}]}])
    );
    assert_eq!(
        fs::read_to_string(codex.join("config.toml")).expect("config"),
        "model = \"o3\"\n"
    );
    assert!(
        !codex.join("skills").exists(),
        "the skills install made, and their directory"
    );
}

/// Issue 42: the `prompts/` files versions before it wrote (which no Codex checked loads) go at the next install;
/// the user's own prompt stays.
#[test]
fn install_for_codex_removes_the_prompts_earlier_versions_wrote() {
    let p = Project::new();
    let prompts = p.home().join(".codex/prompts");
    fs::create_dir_all(&prompts).expect("create prompts");
    let old = "---\ndescription: \"loopgate: /pua-loop (loopgate-installed: loopgate install --agent rewrites this file)\"\n---\n/pua-loop $ARGUMENTS\n";
    fs::write(prompts.join("pua-loop.md"), old).expect("write");
    fs::write(prompts.join("cancel-loop.md"), old.replace("pua-loop", "cancel-loop")).expect("write");
    p.loopgate(["install", "--agent", "codex"]).run().success();
    assert!(
        !prompts.exists(),
        "loopgate's old prompts and the directory they were alone in"
    );

    fs::create_dir_all(&prompts).expect("create prompts");
    fs::write(prompts.join("pua-loop.md"), old).expect("write");
    fs::write(prompts.join("mine.md"), "my prompt\n").expect("write");
    p.loopgate(["uninstall", "--agent", "codex"]).run().success();
    assert!(!prompts.join("pua-loop.md").exists());
    assert_eq!(
        fs::read_to_string(prompts.join("mine.md")).expect("the user's prompt"),
        "my prompt\n"
    );
}

/// Issue 42: install twice and uninstall keep everything of Codex's own in `config.toml` byte for byte — the
/// tables before loopgate's, the ones Codex appends after install (a folder's `trust_level`, `[tui]`), comments
/// and order — and its `hooks.json`; only loopgate's tables and hooks come and go.
#[test]
fn install_twice_and_uninstall_keep_codexs_own_settings_byte_for_byte() {
    let p = Project::new();
    let codex = p.home().join(".codex");
    fs::create_dir_all(&codex).expect("create ~/.codex");
    let hooks = "{\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"my-notify\"\n          }\n        ]\n      }\n    ]\n  },\n  \"zeta\": 1,\n  \"alpha\": 2\n}\n";
    fs::write(codex.join("hooks.json"), hooks).expect("write hooks.json");
    let before = "# my Codex\nmodel = \"o3\"  # the model\n\n[model_providers.mock]\nbase_url = \"http://127.0.0.1:1/v1\"\n\n[hooks.state.\"/elsewhere/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:mine\"\n";
    fs::write(codex.join("config.toml"), before).expect("write config.toml");
    let run = |args: &[&str]| p.loopgate(args.iter().copied()).run();

    run(&["install", "--agent", "codex"]).success();
    // What Codex itself appends once it runs: after loopgate's tables.
    let appended = "\n[projects.\"/work/p\"]\ntrust_level = \"trusted\"\n\n# Codex's UI\n[tui]\nnotifications = true\n";
    let mut config = fs::read_to_string(codex.join("config.toml")).expect("config.toml");
    assert!(config.starts_with(before), "{config}");
    config.push_str(appended);
    fs::write(codex.join("config.toml"), &config).expect("append");
    run(&["install", "--agent", "codex"]).success();
    let again = fs::read_to_string(codex.join("config.toml")).expect("config.toml");
    assert!(
        again.contains(appended),
        "install again keeps what Codex appended:\n{again}"
    );
    assert_eq!(again.matches("trusted_hash = \"sha256:").count(), 5, "{again}");

    let gone = run(&["uninstall", "--agent", "codex"]);
    gone.success();
    assert_eq!(
        fs::read_to_string(codex.join("config.toml")).expect("config.toml"),
        format!("{before}{appended}")
    );
    assert_eq!(fs::read_to_string(codex.join("hooks.json")).expect("hooks.json"), hooks);
    assert!(!codex.join("skills").exists(), "the skills directory install made");
    assert!(gone.stdout.contains("kept loopgate's store of loops"), "{gone}");
}

/// Issue 42: the same for Gemini CLI's `settings.json` (written as Gemini writes it: two spaces, its own key
/// order): install twice and uninstall give it back byte for byte.
#[test]
fn install_twice_and_uninstall_keep_geminis_settings_byte_for_byte() {
    let p = Project::new();
    let gemini = p.home().join(".gemini");
    fs::create_dir_all(&gemini).expect("create ~/.gemini");
    let settings = "{\n  \"security\": {\n    \"auth\": {\n      \"selectedType\": \"gemini-api-key\"\n    }\n  },\n  \"hooks\": {\n    \"AfterAgent\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"my-notify\"\n          }\n        ]\n      }\n    ]\n  },\n  \"general\": {\n    \"vimMode\": true\n  },\n  \"a\": []\n}\n";
    fs::write(gemini.join("settings.json"), settings).expect("write settings.json");
    let run = |args: &[&str]| p.loopgate(args.iter().copied()).run();
    run(&["install", "--agent", "gemini"]).success();
    let once = fs::read_to_string(gemini.join("settings.json")).expect("settings.json");
    run(&["install", "--agent", "gemini"]).success();
    assert_eq!(fs::read_to_string(gemini.join("settings.json")).expect("again"), once);
    let keys: Vec<String> = serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(&once)
        .expect("JSON")
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys, ["security", "hooks", "general", "a"], "the user's key order");
    run(&["uninstall", "--agent", "gemini"]).success();
    assert_eq!(
        fs::read_to_string(gemini.join("settings.json")).expect("settings.json"),
        settings
    );
    assert!(!gemini.join("commands").exists());
}

/// Issue 42: in a fresh `$HOME`, install then uninstall leaves nothing of the agent's behind.
#[test]
fn install_then_uninstall_in_a_fresh_home_leaves_nothing() {
    for agent in ["codex", "gemini", "cursor", "copilot", "opencode"] {
        let p = Project::new();
        let listing = |home: &std::path::Path| -> Vec<String> {
            let mut found = Vec::new();
            let mut stack = vec![home.to_path_buf()];
            while let Some(dir) = stack.pop() {
                for entry in fs::read_dir(&dir).into_iter().flatten().flatten() {
                    let path = entry.path();
                    found.push(path.strip_prefix(home).expect("below home").display().to_string());
                    if path.is_dir() {
                        stack.push(path);
                    }
                }
            }
            found.sort();
            found
        };
        let before = listing(p.home());
        p.loopgate(["install", "--agent", agent]).run().success();
        assert_ne!(listing(p.home()), before, "{agent}: install wrote something");
        p.loopgate(["uninstall", "--agent", agent]).run().success();
        assert_eq!(listing(p.home()), before, "{agent}");
    }
}

/// Issue 42: `uninstall --purge` removes loopgate's store too; without it, uninstall names the store and the
/// command that removes it. A store that is `$HOME` (or above it) is never purged.
#[test]
fn uninstall_purge_removes_loopgates_store_and_only_a_store_of_its_own() {
    let p = Project::new();
    p.loopgate(["setup", "--verify", "true", "do it"]).run().success();
    assert!(p.loopgate_home().exists(), "setup wrote the store");
    p.loopgate(["install", "--agent", "codex"]).run().success();
    let kept = p.loopgate(["uninstall", "--agent", "codex"]).run();
    kept.success();
    assert!(
        kept.stdout.contains("`loopgate uninstall --purge` removes it too"),
        "{kept}"
    );
    assert!(p.loopgate_home().exists());
    p.loopgate(["install", "--purge"]).run().code(2);
    let gone = p.loopgate(["uninstall", "--agent", "codex", "--purge"]).run();
    gone.success();
    assert!(gone.stdout.contains("removed loopgate's store"), "{gone}");
    assert!(!p.loopgate_home().exists());
    let refused = p
        .loopgate(["uninstall", "--agent", "codex", "--purge"])
        .env("LOOPGATE_HOME", p.home())
        .run();
    refused.code(2);
    assert!(refused.stderr.contains("refusing to purge"), "{refused}");
    assert!(p.home().exists());
}

/// Gemini CLI reads `$GEMINI_CLI_HOME/.gemini/settings.json` (the variable stands for `~`, Gemini CLI 0.61.0's
/// `homedir()`): install writes there, not in `$GEMINI_CLI_HOME` itself.
#[test]
fn install_for_gemini_follows_gemini_cli_home_as_gemini_does() {
    let p = Project::new();
    let elsewhere = p.home().join("g");
    p.loopgate(["install", "--agent", "gemini"])
        .env("GEMINI_CLI_HOME", &elsewhere)
        .run()
        .success();
    assert!(elsewhere.join(".gemini/settings.json").is_file());
    assert!(!elsewhere.join("settings.json").exists());
}
