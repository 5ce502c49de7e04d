//! How the plugin finds the binary (`hooks/loopgate.sh`, and `bin/loopgate`, the agent's `loopgate`): the
//! prebuilt binary npm installed into the plugin, then the one `loopgate install` recorded, then `PATH`; and
//! `bin/loopgate` on `PATH` never runs itself in a circle when no binary is there.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::Duration;

use crate::common::Sandbox;

/// A copy of the plugin's scripts in a sandbox, run with a bare `PATH` and no `LOOPGATE_BIN`.
struct Plugin {
    sandbox: Sandbox,
    root: PathBuf,
}

impl Plugin {
    fn new() -> Self {
        let sandbox = Sandbox::new("loopgate-plugin-script-");
        let root = sandbox.base.join("plugin");
        let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
        for script in ["hooks/loopgate.sh", "bin/loopgate"] {
            let text = fs::read_to_string(repo.join(script)).expect("read the plugin script");
            executable(&root.join(script), &text);
        }
        Plugin { sandbox, root }
    }

    /// Puts a fake binary at `rel` (under the plugin root) that prints `NAME ARGS`.
    fn fake(&self, rel: &str, name: &str) -> PathBuf {
        let path = self.root.join(rel);
        executable(&path, &format!("#!/bin/sh\necho \"{name} $*\"\n"));
        path
    }

    /// A fake binary recorded in `hooks/loopgate.bin` (as `loopgate install` records one) and another on a
    /// `PATH`, which is returned.
    fn recorded_and_on_path(&self) -> (PathBuf, String) {
        let recorded = self.fake("elsewhere/loopgate", "recorded");
        fs::write(
            self.root.join("hooks/loopgate.bin"),
            format!("{}\n", recorded.display()),
        )
        .expect("record");
        let on_path = self.sandbox.base.join("path");
        executable(&on_path.join("loopgate"), "#!/bin/sh\necho \"path $*\"\n");
        (recorded, format!("{}:/usr/bin:/bin", on_path.display()))
    }

    fn run(&self, script: &str, path: &str, args: &[&str]) -> Output {
        let mut cmd = self.sandbox.command(self.root.join(script));
        cmd.args(args)
            .env("PATH", path)
            .env_remove("LOOPGATE_BIN")
            .stdin(Stdio::null());
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn the script");
        let (stdout, stderr) = crate::common::drain_output(&mut child);
        let finished = crate::common::eventually(Duration::from_secs(20), || {
            child.try_wait().is_ok_and(|status| status.is_some())
        });
        if !finished {
            let _ = child.kill();
        }
        let status = child.wait().expect("reap the script");
        assert!(finished, "the script did not finish (it must not exec itself forever)");
        Output {
            status,
            stdout: stdout.join().unwrap_or_default().into_bytes(),
            stderr: stderr.join().unwrap_or_default().into_bytes(),
        }
    }
}

fn executable(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().expect("a parent")).expect("create dir");
    fs::write(path, text).expect("write script");
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).expect("chmod");
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
fn the_hook_script_runs_the_binary_npm_installed_into_the_plugin_first() {
    let plugin = Plugin::new();
    plugin.fake("node_modules/@loopgate/linux-x64/bin/loopgate", "npm");
    let (_, path) = plugin.recorded_and_on_path();
    let out = plugin.run("hooks/loopgate.sh", &path, &["status", "--json"]);
    assert_eq!(stdout(&out), "npm status --json", "{out:?}");
}

#[test]
fn the_hook_script_runs_the_binary_loopgate_install_recorded_before_path() {
    let plugin = Plugin::new();
    let (recorded, path) = plugin.recorded_and_on_path();
    let out = plugin.run("hooks/loopgate.sh", &path, &["hook", "stop"]);
    assert_eq!(stdout(&out), "recorded hook stop", "{out:?}");

    // A recorded binary that is gone falls through to PATH.
    fs::remove_file(&recorded).expect("remove");
    let out = plugin.run("hooks/loopgate.sh", &path, &["verify"]);
    assert_eq!(stdout(&out), "path verify", "{out:?}");
}

#[test]
fn the_agents_loopgate_runs_the_plugins_binary_and_never_itself() {
    let plugin = Plugin::new();
    let bin_dir = plugin.root.join("bin");
    let path = format!("{}:/usr/bin:/bin", bin_dir.display());
    // No binary anywhere: the missing-binary message and 127, not an endless exec of bin/loopgate.
    let out = plugin.run("bin/loopgate", &path, &["verify"]);
    assert_eq!(out.status.code(), Some(127), "{out:?}");
    assert!(stdout(&out).contains("not found"), "{out:?}");
    // The hooks, with bin/ on their PATH too, report it the hook way (exit 0, JSON for the user).
    let out = plugin.run("hooks/loopgate.sh", &path, &["hook", "session-start"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(stdout(&out).starts_with("{\"systemMessage\":"), "{out:?}");

    plugin.fake("node_modules/@loopgate/linux-arm64/bin/loopgate", "npm");
    let out = plugin.run("bin/loopgate", &path, &["verify"]);
    assert_eq!(stdout(&out), "npm verify", "{out:?}");
}
