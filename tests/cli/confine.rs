//! `loopgate confine`: a confined command and everything it starts — a grandchild, a double fork, a background
//! job, `env -i`, an interpreter, a hard link, a symlink, `mv` over the binary — cannot write the loopgate store,
//! the binary or Claude Code's user settings, while honest work (the project, `/tmp`, `target/`, git) goes on.
//!
//! The fixture lives under Cargo's target temp directory, not `/tmp`: Landlock closes every directory above a
//! protected path to new entries, and here `/tmp` itself must stay a place where new files can be made, as it
//! is for a real user whose store is `~/.local/state/loopgate`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::LOOPGATE;

struct Fixture {
    _dir: tempfile::TempDir,
    base: PathBuf,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::Builder::new()
            .prefix("confine-")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .expect("tempdir");
        let base = dir.path().canonicalize().expect("canonical");
        for sub in [
            "project",
            "home/.claude/plugins",
            "home/.claude/shell-snapshots",
            "store/seals",
            "bin",
        ] {
            fs::create_dir_all(base.join(sub)).expect("mkdir");
        }
        fs::write(base.join("store/seals/seal.json"), "{}").expect("seal");
        fs::write(base.join("home/.claude/settings.json"), "{\"user\":true}").expect("settings");
        fs::write(
            base.join("home/.claude/shell-snapshots/snapshot-bash-1.sh"),
            "# snapshot\n",
        )
        .expect("snapshot");
        fs::write(base.join("home/.bashrc"), "# bashrc\n").expect("bashrc");
        fs::copy(LOOPGATE, base.join("bin/loopgate")).expect("copy loopgate");
        Fixture { _dir: dir, base }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.base.join(rel)
    }

    /// `bin/loopgate confine --loop-home store -- sh -c SCRIPT` in the project, `$S` naming the store.
    fn confined(&self, script: &str) -> Output {
        Command::new(self.path("bin/loopgate"))
            .args(["confine", "--loop-home"])
            .arg(self.path("store"))
            .args(["--", "sh", "-c", script])
            .current_dir(self.path("project"))
            .env("HOME", self.path("home"))
            .env("S", self.path("store"))
            .env("BIN", self.path("bin/loopgate"))
            .env_remove("LOOPGATE_HOME")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("LOOPGATE_BIN")
            .output_retrying()
    }

    fn unchanged(&self) {
        assert_eq!(
            fs::read_to_string(self.path("store/seals/seal.json")).expect("seal"),
            "{}"
        );
        assert_eq!(
            fs::read_to_string(self.path("home/.claude/settings.json")).expect("settings"),
            "{\"user\":true}"
        );
        for (file, text) in [
            ("home/.claude/shell-snapshots/snapshot-bash-1.sh", "# snapshot\n"),
            ("home/.bashrc", "# bashrc\n"),
        ] {
            assert_eq!(
                fs::read_to_string(self.path(file)).expect(file),
                text,
                "{file} was changed"
            );
        }
        assert_eq!(
            fs::read(self.path("bin/loopgate")).expect("bin"),
            fs::read(LOOPGATE).expect("loopgate")
        );
        let forged: Vec<_> = walk(&self.path("store"))
            .into_iter()
            .filter(|p| p.to_string_lossy().contains("forged"))
            .collect();
        assert!(forged.is_empty(), "forged files in the store: {forged:?}");
    }
}

/// `Command::output` that retries while the copied binary is "Text file busy": another test thread's child,
/// forked while the copy was open for writing, holds it until that child execs.
trait OutputRetrying {
    fn output_retrying(&mut self) -> Output;
}

impl OutputRetrying for Command {
    fn output_retrying(&mut self) -> Output {
        for _ in 0..50 {
            match self.output() {
                Err(err) if err.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                result => return result.expect("run loopgate confine"),
            }
        }
        self.output().expect("run loopgate confine")
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        }
        out.push(path);
    }
    out
}

/// Each route prints `ROUTE:name:status`; every status must be non-zero.
#[track_caller]
fn assert_routes_failed(out: &Output, names: &[&str]) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    for name in names {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with(&format!("ROUTE:{name}:")) && !l.ends_with(":0")),
            "route {name} should have failed:\n{stdout}\n{stderr}"
        );
    }
    assert!(
        ["Permission denied", "cross-device", "Read-only file system", "busy"]
            .iter()
            .any(|said| stderr.contains(said)),
        "{stderr}"
    );
}

#[test]
fn confine_no_descendant_of_a_confined_command_can_write_the_control_plane() {
    let fx = Fixture::new();
    let script = r#"
sh -c 'sh -c "echo x > \"$S/seals/forged-grandchild\""'; echo ROUTE:grandchild:$?
(setsid sh -c 'echo x > "$S/forged-df"' &); sleep 0.3; test -e "$S/forged-df"; echo ROUTE:double-fork:$?
(echo x > "$S/forged-bg") & wait $!; echo ROUTE:background:$?
env -i /bin/sh -c "echo x > '$S/forged-envi'"; echo ROUTE:env-i:$?
python3 -c "import os; open(os.environ['S'] + '/seals/seal.json', 'w').write('forged')"; echo ROUTE:python:$?
ln "$S/seals/seal.json" hard-linked; echo ROUTE:hard-link:$?
ln -s "$S/seals" store-link && echo x > store-link/forged-sym; echo ROUTE:symlink:$?
cp /bin/true new-bin && mv -f new-bin "$BIN"; echo ROUTE:mv-binary:$?
echo '{}' > "$HOME/.claude/settings.json"; echo ROUTE:settings:$?
mkdir "$HOME/.claude/plugins/forged"; echo ROUTE:plugins:$?
rm -rf "$S"; echo ROUTE:remove-store:$?
echo 'touch /tmp/escaped' >> "$HOME/.claude/shell-snapshots/snapshot-bash-1.sh"; echo ROUTE:snapshot:$?
echo 'touch /tmp/escaped' >> "$HOME/.bashrc"; echo ROUTE:bashrc:$?
"#;
    let out = fx.confined(script);
    assert_routes_failed(
        &out,
        &[
            "grandchild",
            "double-fork",
            "background",
            "env-i",
            "python",
            "hard-link",
            "symlink",
            "mv-binary",
            "settings",
            "plugins",
            "remove-store",
            "snapshot",
            "bashrc",
        ],
    );
    fx.unchanged();
    assert!(!fx.path("home/.claude/plugins/forged").exists());
}

#[test]
fn confine_honest_work_goes_on_and_the_exit_code_is_the_commands() {
    let fx = Fixture::new();
    let script = r#"set -e
mkdir -p target/debug node_modules/x && echo built > target/debug/app && echo '{}' > node_modules/x/package.json
t=$(mktemp) && echo tmp > "$t" && rm "$t"
git init -q && git add -A && git -c user.name=a -c user.email=a@b commit -qm honest
exit 7
"#;
    let out = fx.confined(script);
    assert_eq!(out.status.code(), Some(7), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(fx.path("project/target/debug/app").exists());
    assert!(fx.path("project/.git/HEAD").exists());
    fx.unchanged();
}

/// The agent's world (issue 39, item 5): everything but the control plane is the user's to write. Each of
/// these failed under a Landlock domain that closed `$HOME` and the directory beside the project to new entries.
#[test]
fn confine_the_agents_world_is_everything_but_the_control_plane() {
    let fx = Fixture::new();
    let script = r#"set -e
echo note > "$HOME/notes.txt"
echo beside > ../beside.txt
git config --global user.name agent
mkdir -p "$HOME/.cache/tool" && echo warm > "$HOME/.cache/tool/cache"
mkdir -p "$HOME/.claude/projects/p" && echo t > "$HOME/.claude/projects/p/t.jsonl"
echo sibling > "$(dirname "$S")/sibling-of-the-store.txt"
unshare -Urm sh -c 'mount -t tmpfs scratch "$HOME/.cache" && echo in-its-own-namespace > "$HOME/.cache/x"'
echo "$LOOPGATE_CONFINED"
"#;
    let out = fx.confined(script);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "namespace");
    assert!(fx.path("home/notes.txt").exists() && fx.path("beside.txt").exists());
    let gitconfig = fs::read_to_string(fx.path("home/.gitconfig")).expect("~/.gitconfig");
    assert!(gitconfig.contains("agent"), "{gitconfig}");
    assert!(fx.path("home/.cache/tool/cache").exists() && !fx.path("home/.cache/x").exists());
    assert!(fx.path("sibling-of-the-store.txt").exists());
    fx.unchanged();
}

/// The binds that keep the plane read-only hold against the process they confine: it cannot unmount or remount
/// them (they are locked by a nested namespace, in its own further namespaces too), rename a directory above
/// the store to put a forged one at its name, or reach the plane through an outside process's `/proc/PID/root`.
#[test]
fn confine_the_read_only_binds_hold_against_the_process_they_confine() {
    let fx = Fixture::new();
    let script = r#"
umount -l "$S"; echo x > "$S/seals/forged-umount"; echo ROUTE:umount:$?
mount -o remount,rw,bind "$S"; echo x > "$S/seals/forged-remount"; echo ROUTE:remount:$?
unshare -Urm sh -c 'umount -l "$S" 2>/dev/null; mount -o remount,rw,bind "$S" 2>/dev/null; echo x > "$S/seals/forged-nested"'; echo ROUTE:nested:$?
d=$(dirname "$S"); mv "$d" "$d-moved" && mkdir -p "$S/seals" && echo forged > "$S/seals/seal.json"; echo ROUTE:rename-above:$?
echo x > "/proc/$PPID/root$S/seals/forged-proc"; echo ROUTE:proc-root:$?
mv "$S" "$S-moved"; echo ROUTE:rename-store:$?
"#;
    let out = fx.confined(script);
    assert_routes_failed(
        &out,
        &[
            "umount",
            "remount",
            "nested",
            "rename-above",
            "proc-root",
            "rename-store",
        ],
    );
    assert!(
        !fx.base
            .with_file_name(format!(
                "{}-moved",
                fx.base.file_name().expect("a name").to_string_lossy()
            ))
            .exists()
    );
    fx.unchanged();
}

#[test]
fn confine_a_missing_command_is_127_and_a_non_executable_one_126() {
    let fx = Fixture::new();
    fs::write(fx.path("project/plain.txt"), "not a program").expect("write");
    let run = |program: &str| {
        Command::new(fx.path("bin/loopgate"))
            .args(["confine", "--loop-home"])
            .arg(fx.path("store"))
            .args(["--", program])
            .current_dir(fx.path("project"))
            .output_retrying()
    };
    let missing = run("no-such-program-here");
    assert_eq!(missing.status.code(), Some(127));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no-such-program-here"));
    assert_eq!(run("./plain.txt").status.code(), Some(126));
}

#[test]
fn confine_the_script_form_reports_its_directory_on_descriptor_three() {
    let fx = Fixture::new();
    fs::create_dir_all(fx.path("project/sub")).expect("mkdir");
    // What the PreToolUse rewrite runs: the outer shell follows the confined shell's `cd`, and a background job
    // (its own output elsewhere, as Claude Code would see it end)
    // does not keep it waiting.
    let outer = format!(
        "{{ d=$('{}' confine --loop-home '{}' --shell \"$0\" -c '{{ cd sub && sleep 5; }} >/dev/null 2>&1 &
cd sub' 3>&1 1>&4 4>&-); }} 4>&1; echo \"rc=$? dir=$d\"",
        fx.path("bin/loopgate").display(),
        fx.path("store").display()
    );
    let started = std::time::Instant::now();
    let out = Command::new("bash")
        .args(["-c", &outer])
        .current_dir(fx.path("project"))
        .output()
        .expect("bash");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!("rc=0 dir={}", fx.path("project/sub").display())),
        "{stdout}"
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(4),
        "the background job held the capture: {:?} {stdout}",
        started.elapsed()
    );
}

/// Claude Code's auto mode asks at every rewritten command, so the hook does not rewrite there: the gap is said
/// once per loop (a `systemMessage` at the first Bash call) and `loopgate status` shows it.
#[test]
fn confine_in_auto_mode_the_gap_is_said_once_and_status_shows_it() {
    let p = crate::project::Project::new();
    p.write("check.sh", "exit 1\n");
    p.setup("S", "fix it --verify 'sh check.sh'");
    let call = |mode: &str| {
        let input = serde_json::json!({
            "session_id": "S",
            "cwd": p.root(),
            "hook_event_name": "PreToolUse",
            "permission_mode": mode,
            "tool_name": "Bash",
            "tool_input": {"command": "echo hi"},
        });
        let out = p.hook("pre-tool-use", &input);
        // Nothing to say is no output at all.
        if out.stdout.trim().is_empty() {
            serde_json::Value::Null
        } else {
            out.json()
        }
    };
    let first = call("auto");
    assert!(
        first["systemMessage"]
            .as_str()
            .is_some_and(|m| m.contains("control plane: unprotected (auto mode)")),
        "{first}"
    );
    assert!(first["hookSpecificOutput"]["updatedInput"].is_null(), "{first}");
    assert_eq!(call("auto")["systemMessage"], serde_json::Value::Null, "said twice");
    assert!(call("default")["hookSpecificOutput"]["updatedInput"]["command"].is_string());
    let status = p.loopgate(["status"]).run();
    assert!(
        status.stdout.contains("control plane: unprotected (auto mode)"),
        "{}",
        status.stdout
    );
}
