//! The room's caches of Python's tools (`room::caches`): bytecode, pytest's cache (through its own option, after
//! the user's `PYTEST_ADDOPTS`), mypy's and ruff's; and pytest's rules for what stays the user's: its cache where
//! the run turns the cache provider off (`-o cache_dir` would then be an unknown option, an error under
//! `--strict-config`), and its JUnit report where the project asks for one of its own.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::Path;

use super::{Cache, How, Shared, Why};

pub(super) use crate::room::pycache::from_seed as seed;

/// Holds Python bytecode (the tree's `__pycache__` is not read).
pub(super) const BYTECODE: Cache = Cache {
    vars: &["PYTHONPYCACHEPREFIX"],
    place: "pycache",
    file: false,
    how: How::Var,
};

/// Holds pytest's cache (`--lf`, `--sw`).
pub(super) const TEST_CACHE: Cache = Cache {
    vars: &[OPTIONS],
    place: "pytest-cache",
    file: false,
    how: How::Rule(set_cache_dir),
};

/// Holds mypy's cache.
pub(super) const MYPY: Cache = Cache {
    vars: &["MYPY_CACHE_DIR"],
    place: "mypy",
    file: false,
    how: How::Var,
};

/// Holds ruff's cache.
pub(super) const RUFF: Cache = Cache {
    vars: &["RUFF_CACHE_DIR"],
    place: "ruff",
    file: false,
    how: How::Var,
};

/// The variable pytest reads extra options from.
const OPTIONS: &str = "PYTEST_ADDOPTS";

/// How a pytest run turns its cache provider off.
const NO_CACHE: &str = "no:cacheprovider";

/// The reason its cache stays the user's (persisted: never changed).
pub(crate) const CACHE_OFF: &str = "pytest_cache_off";

/// pytest's cache at `path`: `-o cache_dir=…`, one word whatever the path.
fn set_cache_dir(path: &Path, vars: &mut BTreeMap<String, OsString>) {
    add_option(
        vars,
        &format!("-o {}", shell_word(&format!("cache_dir={}", path.display()))),
    );
}

/// pytest's cache stays the user's where the run turns its cache provider off (on its command line, in
/// `PYTEST_ADDOPTS` or in its configuration at the project root).
pub(super) fn shared(root: &Path, command: &str, vars: &BTreeMap<String, String>) -> Option<Shared> {
    let addopts = vars.get(OPTIONS).map_or("", String::as_str);
    let configured =
        configs().any(|name| std::fs::read_to_string(root.join(name)).is_ok_and(|text| text.contains(NO_CACHE)));
    (command.contains(NO_CACHE) || addopts.contains(NO_CACHE) || configured).then(|| Shared {
        var: OPTIONS.to_string(),
        why: Why::new(CACHE_OFF, None),
    })
}

/// Whether the project asks pytest for a JUnit report of its own (on the command line, in `PYTEST_ADDOPTS` or in
/// its configuration): the room then adds none, since the last `--junitxml` wins and theirs must stay theirs.
pub(super) fn junit_theirs(root: &Path, command: &str, vars: &BTreeMap<String, String>) -> bool {
    let addopts = vars.get(OPTIONS).map_or("", String::as_str);
    [command, addopts].iter().any(|text| text.contains("junit"))
        || configs().any(|name| std::fs::read_to_string(root.join(name)).is_ok_and(|text| text.contains("junit")))
}

/// The files pytest reads its configuration from at the project root (its row of `runner`).
fn configs() -> impl Iterator<Item = &'static str> {
    let config = &crate::runner::Runner::Pytest.row().config;
    config
        .files
        .iter()
        .copied()
        .chain(config.sections.iter().map(|(file, _)| *file))
}

/// Appends `option` (one or more words, already quoted) to `PYTEST_ADDOPTS`, after what is there.
pub(crate) fn add_option(vars: &mut BTreeMap<String, OsString>, option: &str) {
    let mut value = vars.get(OPTIONS).cloned().unwrap_or_default();
    if !value.is_empty() {
        value.push(" ");
    }
    value.push(option);
    vars.insert(OPTIONS.to_string(), value);
}

/// `word` as one word for `shlex.split` (how pytest splits `PYTEST_ADDOPTS`).
pub(crate) fn shell_word(word: &str) -> String {
    if word
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"=/._-+:,@".contains(&b))
    {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', "'\\''"))
}
