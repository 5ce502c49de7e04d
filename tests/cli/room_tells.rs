//! The room is not a tell (issue 39, item 7): a program that prints what it can see of its process — its user
//! and group, its working directory, the names in its environment — prints the same run bare (as the user's
//! shell runs it) and as the oracle's run in the room, but for what the room adds on purpose, which
//! `docs/threat-model.md` lists ("What still tells").

use std::collections::BTreeSet;
use std::ffi::OsString;

use crate::project::Project;

/// Prints one `key=value` line per thing it sees; the environment's names one per line as `env=NAME`.
const PROBE: &str = r#"import os
print("uid=%d gid=%d euid=%d" % (os.getuid(), os.getgid(), os.geteuid()))
print("cwd=" + os.getcwd())
print("PWD=" + os.environ.get("PWD", ""))
for name in sorted(os.environ):
    print("env=" + name)
"#;

/// What the room's run carries that a plain run does not, each on purpose (the start hooks that report the
/// tests, the private caches and temporary directory); the threat model lists them as what still tells.
const ADDED_ON_PURPOSE: &[&str] = &[
    "BABEL_CACHE_PATH",
    "CARGO_TARGET_DIR",
    "GOCACHE",
    "GOFLAGS",
    "GTEST_OUTPUT",
    "MYPY_CACHE_DIR",
    "NODE_OPTIONS",
    "PHP_INI_SCAN_DIR",
    "PYTEST_ADDOPTS",
    "PYTHONPATH",
    "PYTHONPYCACHEPREFIX",
    "RUBYOPT",
    "RUFF_CACHE_DIR",
    "TEMP",
    "TMP",
    "TMPDIR",
];

/// `CARGO_TARGET_<triple>_RUNNER`: the runner shim that gives each libtest binary its private log, set for the
/// host's triples (`room::cargo_hook`).
fn cargo_runner(name: &str) -> bool {
    name.starts_with("CARGO_TARGET_") && name.ends_with("_RUNNER")
}

/// The probe's lines, but the environment's names, and those names.
fn seen(output: &str) -> (Vec<String>, BTreeSet<String>) {
    let lines = output.lines().filter(|l| !l.starts_with("env=") && l.contains('='));
    let names = output
        .lines()
        .filter_map(|l| l.strip_prefix("env="))
        .map(str::to_string);
    (lines.map(str::to_string).collect(), names.collect())
}

/// What `command` printed run bare, and in the room (the log of `loopgate verify`'s self-check).
fn bare_and_in_room(p: &Project, command: &str) -> (String, String) {
    bare_and_in_room_with(p, command, &[])
}

/// [`bare_and_in_room`], with `env` added to the user's environment (a toolchain's places).
fn bare_and_in_room_with(p: &Project, command: &str, env: &[(&str, OsString)]) -> (String, String) {
    fn with<'a>(mut cmd: crate::project::Cmd<'a>, env: &[(&str, OsString)]) -> crate::project::Cmd<'a> {
        for (name, value) in env {
            cmd = cmd.env(name, value.clone());
        }
        cmd
    }
    let bare = with(p.sh(command), env).run();
    bare.success();
    with(p.loopgate(["setup", "--args-stdin", "--session-id", "S"]), env)
        .stdin(format!("\"t\" --verify '{command}' --stall-limit 0"))
        .run()
        .success();
    with(p.loopgate(["verify"]), env).run().success();
    let logs = std::fs::read_dir(p.root().join(".claude/loopgate")).expect("the project's loopgate folder");
    let log = logs
        .flatten()
        .map(|e| e.path())
        .find(|path| path.to_string_lossy().ends_with(".self-check.log"))
        .expect("the self-check's log");
    (bare.stdout, std::fs::read_to_string(&log).expect("the log"))
}

/// No variable named after loopgate reaches the code but the user's own (`LOOPGATE_HOME` where the user set it):
/// the start hooks find their events file from where they stand, and a confined command's marker stays out.
#[track_caller]
fn assert_no_loopgate_variable(room: &BTreeSet<String>, bare: &BTreeSet<String>) {
    let ours: Vec<&String> = room
        .difference(bare)
        .filter(|n| n.to_ascii_uppercase().contains("LOOPGATE"))
        .collect();
    assert!(ours.is_empty(), "the code sees loopgate's own variables: {ours:?}");
}

#[test]
fn a_run_in_the_room_sees_the_users_ids_cwd_and_environment_but_what_it_adds_on_purpose() {
    let p = Project::new();
    p.write("probe.py", PROBE);
    let (bare, in_room) = bare_and_in_room(&p, "python3 probe.py");
    let (bare_lines, bare_names) = seen(&bare);
    let (room_lines, room_names) = seen(&in_room);
    assert_eq!(room_lines, bare_lines, "ids, working directory:\n{in_room}");
    let added: Vec<&String> = room_names
        .difference(&bare_names)
        .filter(|n| !ADDED_ON_PURPOSE.contains(&n.as_str()) && !cargo_runner(n))
        .collect();
    assert!(
        added.is_empty(),
        "the room's run carries more than it adds on purpose: {added:?}"
    );
    assert_no_loopgate_variable(&room_names, &bare_names);
    // `sh` in the harness names the binary under test (`$LOOPGATE`); the room's run keeps the rest of the user's.
    let lost: Vec<&String> = bare_names
        .difference(&room_names)
        .filter(|n| *n != "LOOPGATE")
        .collect();
    assert!(lost.is_empty(), "the room's run lost the user's {lost:?}");
}

/// The test code under its runner: the start hook that loaded it took itself out of `PYTHONPATH` before the tests
/// were imported, so a test sees the user's `PYTHONPATH` (none here), as it would bare; and the hook still
/// recorded the run (`status` names its events as what the verdict reads beside the output).
#[test]
fn a_test_under_its_runner_sees_the_users_pythonpath_not_the_hooks() {
    let p = Project::new();
    p.write(
        "test_probe.py",
        "import os\nimport unittest\n\n\nclass Probe(unittest.TestCase):\n    def test_env(self):\n        print(\"PYTHONPATH=\" + os.environ.get(\"PYTHONPATH\", \"(unset)\"))\n        for name in sorted(os.environ):\n            print(\"env=\" + name)\n",
    );
    let (bare, in_room) = bare_and_in_room(&p, "python3 -m unittest -v test_probe");
    assert!(bare.contains("PYTHONPATH=(unset)"), "{bare}");
    assert!(
        in_room.contains("PYTHONPATH=(unset)"),
        "the hook's directory is left in PYTHONPATH:\n{in_room}"
    );
    assert_no_loopgate_variable(&seen(&in_room).1, &seen(&bare).1);
    let status = p.loopgate(["status", "--json"]).run().stdout_json();
    let reads = status["room"]["verdict_reads"].as_str().unwrap_or_default();
    assert!(reads.contains("recorded from unittest"), "{status}");
}

/// A libtest binary run by `cargo test`: the runner shim that gave it its private log took its own
/// `CARGO_TARGET_<triple>_RUNNER` out of the binary's environment, so the test sees what it sees bare.
#[test]
fn a_cargo_test_sees_no_runner_variable_of_the_hooks() {
    let p = Project::new();
    p.write(
        "Cargo.toml",
        "[package]\nname = \"probe\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    p.write(
        "src/lib.rs",
        "#[cfg(test)]\nmod tests {\n    #[test]\n    fn env() {\n        for (name, _) in std::env::vars() {\n            println!(\"env={name}\");\n        }\n    }\n}\n",
    );
    let home = std::env::var("HOME").unwrap_or_default();
    let place = |name: &'static str, default: String| (name, std::env::var_os(name).unwrap_or_else(|| default.into()));
    let env = [
        place("CARGO_HOME", format!("{home}/.cargo")),
        place("RUSTUP_HOME", format!("{home}/.rustup")),
    ];
    let (bare, in_room) = bare_and_in_room_with(&p, "cargo test -q -- --nocapture", &env);
    let (bare_names, room_names) = (seen(&bare).1, seen(&in_room).1);
    assert!(bare_names.contains("CARGO_MANIFEST_DIR"), "the probe ran bare:\n{bare}");
    assert!(
        room_names.contains("CARGO_MANIFEST_DIR"),
        "the probe ran in the room:\n{in_room}"
    );
    let runners: Vec<&String> = room_names.iter().filter(|n| cargo_runner(n)).collect();
    assert!(
        runners.is_empty(),
        "the test binary sees the hook's runner variables: {runners:?}"
    );
    assert_no_loopgate_variable(&room_names, &bare_names);
}
