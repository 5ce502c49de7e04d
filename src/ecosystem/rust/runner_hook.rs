//! `cargo test`'s report through a private channel (issue 39, item 1): libtest has no stable structured report
//! (its JSON needs `-Z unstable-options`), and what it prints can be printed by the code under test too, which
//! then ends the process with status 0. Cargo runs every test binary through the program its
//! `CARGO_TARGET_<triple>_RUNNER` names; the oracle's runs name loopgate's hook (`test-runner.sh` beside this
//! file, installed in the room by `room::hook`), which gives each libtest binary a log of its own (libtest's
//! `--logfile`, written by the harness as each test ends) and turns it into the start hooks' events. The runner's
//! row is then `Report::HookNamed`: the events name the tests (`cargo test -q` prints a dot per test), so a run
//! whose binaries never reached their tests names none of the baseline's, and falls short by name.
//!
//! A project whose own Cargo configuration or environment names a runner keeps it ([`theirs`]: the variable
//! would replace it), and its verdict reads the output alone, as before. Doctests are rustdoc's, run outside the
//! target directory: the hook runs them as they are (see the script).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::Path;

/// The key the room's record stores under whether the project names a test runner of its own ([`theirs`]): the
/// room then names none (persisted: the field it was).
pub(crate) const THEIRS: &str = "cargo_runner_theirs";

/// The name the hook's events give the test the output names `name`: the same, but that a unit-test binary of a
/// target other than the library is named by its file alone (`tool(src/main.rs) tests::x` is `tool tests::x`:
/// the hook sees the binary, not the source cargo announced); `None` for a doctest (`doc calc src/lib.rs -
/// add`), which rustdoc runs outside the hook.
pub(crate) fn event_name(name: &str) -> Option<String> {
    if name.starts_with("doc ") {
        return None;
    }
    let (binary, test) = name.split_once(' ')?;
    Some(match binary.split_once('(') {
        Some((stem, source)) if source.ends_with(')') => format!("{stem} {test}"),
        _ => name.to_string(),
    })
}

/// The host triples this build of loopgate may run test binaries for: cargo reads the runner of the triple it
/// builds for, and a variable for a triple not built for is never read.
fn host_triples() -> Vec<String> {
    let arch = std::env::consts::ARCH;
    match std::env::consts::OS {
        "macos" => vec![format!("{arch}-apple-darwin")],
        "linux" => ["gnu", "musl"]
            .iter()
            .map(|libc| format!("{arch}-unknown-linux-{libc}"))
            .collect(),
        _ => Vec::new(),
    }
}

/// The variable that names the runner of `triple` (`CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER`).
fn runner_var(triple: &str) -> String {
    format!("CARGO_TARGET_{}_RUNNER", triple.to_uppercase().replace(['-', '.'], "_"))
}

/// Whether a run of the project at `root`, with the baseline's variables `vars`, has a test runner of its own:
/// a `CARGO_TARGET_*_RUNNER` variable, or a `runner` key in a Cargo configuration file up the tree or in
/// `$CARGO_HOME` (read as text: a `runner` anywhere there keeps loopgate's out, the safe side).
pub(crate) fn theirs(root: &Path, vars: &BTreeMap<String, String>) -> bool {
    if vars
        .keys()
        .any(|name| name.starts_with("CARGO_TARGET_") && name.ends_with("_RUNNER"))
    {
        return true;
    }
    let home = vars
        .get("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| vars.get("HOME").map(|home| Path::new(home).join(".cargo")));
    let dirs = root.ancestors().map(|dir| dir.join(".cargo")).chain(home);
    dirs.into_iter().any(|dir| {
        ["config.toml", "config"]
            .iter()
            .any(|name| std::fs::read_to_string(dir.join(name)).is_ok_and(|text| text.contains("runner")))
    })
}

/// Points the run's test binaries at the hook `hook` (a path in the room), for every host triple.
pub(crate) fn set(hook: &Path, vars: &mut BTreeMap<String, OsString>) {
    for triple in host_triples() {
        vars.insert(runner_var(&triple), hook.as_os_str().to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_is_cargos_for_the_triple() {
        assert_eq!(
            runner_var("x86_64-unknown-linux-gnu"),
            "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER"
        );
        assert_eq!(
            runner_var("thumbv7em-none-eabihf"),
            "CARGO_TARGET_THUMBV7EM_NONE_EABIHF_RUNNER"
        );
        let mut vars = BTreeMap::new();
        set(Path::new("/room/hook/rust/loopgate-test-runner"), &mut vars);
        if cfg!(target_os = "linux") {
            let gnu = runner_var(&format!("{}-unknown-linux-gnu", std::env::consts::ARCH));
            assert_eq!(vars[&gnu], "/room/hook/rust/loopgate-test-runner");
        }
    }

    #[test]
    fn the_events_name_a_test_as_the_output_does_but_for_the_binarys_source() {
        assert_eq!(event_name("calc tests::adds").as_deref(), Some("calc tests::adds"));
        assert_eq!(
            event_name("tool(src/main.rs) tests::x").as_deref(),
            Some("tool tests::x")
        );
        assert_eq!(
            event_name("api case::with(parens) x").as_deref(),
            Some("api case::with(parens) x")
        );
        assert_eq!(event_name("doc calc src/lib.rs - add"), None);
    }

    #[test]
    fn a_runner_of_the_projects_own_is_kept() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("crate");
        std::fs::create_dir_all(root.join(".cargo")).expect("mkdir");
        let home = BTreeMap::from([("CARGO_HOME".to_string(), dir.path().join("home").display().to_string())]);
        assert!(!theirs(&root, &home), "no runner anywhere");
        std::fs::write(root.join(".cargo/config.toml"), "[alias]\nt = \"test\"\n").expect("write");
        assert!(!theirs(&root, &home), "an alias is no runner");
        std::fs::write(
            root.join(".cargo/config.toml"),
            "[target.'cfg(unix)']\nrunner = \"valgrind\"\n",
        )
        .expect("write");
        assert!(theirs(&root, &home), "the project's configuration");
        std::fs::remove_file(root.join(".cargo/config.toml")).expect("rm");
        std::fs::create_dir_all(dir.path().join(".cargo")).expect("mkdir");
        std::fs::write(
            dir.path().join(".cargo/config"),
            "[target.x86_64-unknown-linux-gnu]\nrunner = \"qemu\"\n",
        )
        .expect("write");
        assert!(theirs(&root, &home), "a configuration up the tree");
        let other = tempfile::tempdir().expect("tempdir");
        let mut env = home.clone();
        assert!(!theirs(other.path(), &env));
        env.insert(
            "CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER".into(),
            "qemu-aarch64".into(),
        );
        assert!(theirs(other.path(), &env), "the environment");
    }
}
