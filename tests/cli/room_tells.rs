//! The room is not a tell (issue 39, item 7): a program that prints what it can see of its process — its user
//! and group, its working directory, the names in its environment — prints the same run bare (as the user's
//! shell runs it) and as the oracle's run in the room, but for what the room adds on purpose, which
//! `docs/threat-model.md` lists ("What still tells").

use std::collections::BTreeSet;

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
    "LOOPGATE_REPORT",
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

#[test]
fn a_run_in_the_room_sees_the_users_ids_cwd_and_environment_but_what_it_adds_on_purpose() {
    let p = Project::new();
    p.write("probe.py", PROBE);
    let bare = p.sh("python3 probe.py").run();
    bare.success();
    p.setup("S", "\"t\" --verify 'python3 probe.py' --stall-limit 0");
    p.loopgate(["verify"]).run().success();
    let logs = std::fs::read_dir(p.root().join(".claude/loopgate")).expect("the project's loopgate folder");
    let log = logs
        .flatten()
        .map(|e| e.path())
        .find(|path| path.to_string_lossy().ends_with(".self-check.log"))
        .expect("the self-check's log");
    let in_room = std::fs::read_to_string(&log).expect("the log");
    let (bare_lines, bare_names) = seen(&bare.stdout);
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
    assert!(!room_names.contains("LOOPGATE_CONFINED"), "{room_names:?}");
    // `sh` in the harness names the binary under test (`$LOOPGATE`); the room's run keeps the rest of the user's.
    let lost: Vec<&String> = bare_names
        .difference(&room_names)
        .filter(|n| *n != "LOOPGATE")
        .collect();
    assert!(lost.is_empty(), "the room's run lost the user's {lost:?}");
}
