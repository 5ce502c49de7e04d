//! The caches the room makes private: one row per cache, found by asking of each runner "what does it trust
//! that it did not compute in this run?" — and where a private one would change an honest verdict, the reason
//! it stays the user's ([`Shared`], decided once at setup and shown by setup and `status`).
//!
//! Not made private, on purpose:
//! - `XDG_CACHE_HOME` as a whole: honest suites read what lives there and cannot be rebuilt offline
//!   (Playwright's browsers, Hugging Face models, uv's wheels). Each runner cache that lives there by default
//!   and holds verdicts (Go's `go-build`) has its own variable and its own row here instead.
//! - `HOME`, `XDG_CONFIG_HOME`: tests read the user's configuration; it is as at the baseline through the
//!   recorded environment, and its files are sealed by the observed closure.
//! - Download caches (`GOMODCACHE`, `CARGO_HOME`, npm's and pip's caches): filling them needs the network, and
//!   they are content-addressed by the tools; a redirected dependency is the resolution family (issue 29,
//!   item 3), not a cache.
//! - A cache directory the project's own configuration names inside the tree (jest's `cacheDirectory`,
//!   pytest's `cache_dir` in `pytest.ini`): the runner's configuration wins over a variable for most tools;
//!   where an option on the command line would be needed, the sealed command is left as the user wrote it.
//!
//! Honest breakage avoided (the `Shared` reasons): Cargo's target directory stays the user's when the
//! project's Cargo configuration names one (`build.target-dir`), or when its Rust files name `target/` by
//! path (a test running `target/debug/tool`); pytest's cache option is not added when the run turns the cache
//! provider off (`-p no:cacheprovider`: `-o cache_dir` would then be an unknown option, an error under
//! `--strict-config`). Known limits: Python before 3.8 ignores `PYTHONPYCACHEPREFIX` (the tree's
//! `__pycache__` is then read as before); a room under a long `$LOOPGATE_HOME` makes temporary paths longer,
//! and a Unix socket path is limited to about 100 bytes.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// A cache of some runner, and how the room points it at its private place.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Cache {
    /// The variables set (the first one names the cache in `status` and in [`Shared`]).
    pub vars: &'static [&'static str],
    /// Its place in the room.
    pub place: &'static str,
    /// A file, not a directory.
    pub file: bool,
    /// What the runners keep there.
    pub holds: &'static str,
    how: How,
}

#[derive(Debug, PartialEq, Eq)]
enum How {
    /// Every variable names the place.
    Var,
    /// Only where the baseline's environment set the variable (setting it would turn a feature on).
    WhereSet,
    /// pytest's `-o cache_dir=…`, after the user's own `PYTEST_ADDOPTS`.
    PytestOption,
}

/// The variables that name the temporary directory (the first row of [`CACHES`]).
pub(crate) const TEMPORARY: &[&str] = &["TMPDIR", "TMP", "TEMP"];

/// Every cache the room knows.
pub(crate) const CACHES: &[Cache] = &[
    Cache {
        vars: TEMPORARY,
        place: "tmp",
        file: false,
        holds: "temporary files (jest's transform cache, go test's binaries, `t.TempDir()`, pytest's `tmp_path`)",
        how: How::Var,
    },
    Cache {
        vars: &["PYTHONPYCACHEPREFIX"],
        place: "pycache",
        file: false,
        holds: "Python bytecode (the tree's `__pycache__` is not read)",
        how: How::Var,
    },
    Cache {
        vars: &["PYTEST_ADDOPTS"],
        place: "pytest-cache",
        file: false,
        holds: "pytest's cache (`--lf`, `--sw`)",
        how: How::PytestOption,
    },
    Cache {
        vars: &["GOCACHE"],
        place: "go-build",
        file: false,
        holds: "Go's build and test-result cache",
        how: How::Var,
    },
    Cache {
        vars: &["CARGO_TARGET_DIR"],
        place: "cargo-target",
        file: false,
        holds: "Cargo's build outputs (test binaries and their fingerprints)",
        how: How::Var,
    },
    Cache {
        vars: &["MYPY_CACHE_DIR"],
        place: "mypy",
        file: false,
        holds: "mypy's cache",
        how: How::Var,
    },
    Cache {
        vars: &["RUFF_CACHE_DIR"],
        place: "ruff",
        file: false,
        holds: "ruff's cache",
        how: How::Var,
    },
    Cache {
        vars: &["BABEL_CACHE_PATH"],
        place: "babel/cache.json",
        file: true,
        holds: "@babel/register's compiled files",
        how: How::Var,
    },
    Cache {
        vars: &["NODE_COMPILE_CACHE"],
        place: "node-compile",
        file: false,
        holds: "Node's compile cache",
        how: How::WhereSet,
    },
];

impl Cache {
    /// The variable that names the cache.
    pub(crate) fn name(&self) -> &'static str {
        self.vars[0]
    }

    /// Whether the room makes it private, given the baseline's variables.
    pub(crate) fn applies(&self, vars: &BTreeMap<String, String>) -> bool {
        self.how != How::WhereSet || vars.contains_key(self.name())
    }
}

/// A cache left to the user, and why (decided at setup).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Shared {
    /// The cache's variable (`CARGO_TARGET_DIR`).
    pub var: String,
    pub why: Why,
}

/// Why a private cache would change an honest verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "why")]
pub(crate) enum Why {
    /// The project's Cargo configuration names its target directory.
    TargetDirConfigured { file: String },
    /// A Rust file of the project names `target/` by path.
    TargetNamedByPath { file: String },
    /// The run turns pytest's cache provider off (on its command line, in `PYTEST_ADDOPTS` or in its
    /// configuration at the project root).
    PytestCacheOff,
}

/// The caches that stay the user's for a project whose verify command is `command` and whose baseline
/// environment is `vars`.
pub(crate) fn decide(root: &Path, command: &str, vars: &BTreeMap<String, String>) -> Vec<Shared> {
    let mut shared = Vec::new();
    let mut keep = |var: &str, why| {
        shared.push(Shared {
            var: var.to_string(),
            why,
        });
    };
    if let Some(why) = cargo_target_named(root) {
        keep("CARGO_TARGET_DIR", why);
    }
    let addopts = vars.get("PYTEST_ADDOPTS").map_or("", String::as_str);
    let configured =
        pytest_configs().any(|name| std::fs::read_to_string(root.join(name)).is_ok_and(|text| text.contains(NO_CACHE)));
    if command.contains(NO_CACHE) || addopts.contains(NO_CACHE) || configured {
        keep("PYTEST_ADDOPTS", Why::PytestCacheOff);
    }
    shared
}

/// Whether the project asks pytest for a JUnit report of its own (on the command line, in `PYTEST_ADDOPTS` or in
/// its configuration): the room then adds none, since the last `--junitxml` wins and theirs must stay theirs.
pub(crate) fn junit_theirs(root: &Path, command: &str, vars: &BTreeMap<String, String>) -> bool {
    let addopts = vars.get("PYTEST_ADDOPTS").map_or("", String::as_str);
    [command, addopts].iter().any(|text| text.contains("junit"))
        || pytest_configs()
            .any(|name| std::fs::read_to_string(root.join(name)).is_ok_and(|text| text.contains("junit")))
}

/// How a pytest run turns its cache provider off.
const NO_CACHE: &str = "no:cacheprovider";

/// The files pytest reads its configuration from at the project root (its row of `runner`).
fn pytest_configs() -> impl Iterator<Item = &'static str> {
    let config = &crate::runner::Runner::Pytest.row().config;
    config
        .files
        .iter()
        .copied()
        .chain(config.sections.iter().map(|(file, _)| *file))
}

/// Why Cargo's target directory must stay where the project expects it, if it must.
fn cargo_target_named(root: &Path) -> Option<Why> {
    let configured = root.ancestors().find_map(|dir| {
        ["config.toml", "config"].iter().find_map(|name| {
            let path = dir.join(".cargo").join(name);
            let text = std::fs::read_to_string(&path).ok()?;
            text.contains("target-dir").then(|| path.display().to_string())
        })
    });
    if let Some(file) = configured {
        return Some(Why::TargetDirConfigured { file });
    }
    let mut named = None;
    let _ = crate::walk::Walker::RUNNERS.walk(root, |entry| {
        if entry.relative.ends_with(".rs")
            && std::fs::read_to_string(entry.path).is_ok_and(|text| names_target_by_path(&text))
        {
            named = Some(entry.relative.to_string());
        }
        Ok(crate::walk::until(named.is_some()))
    });
    named.map(|file| Why::TargetNamedByPath { file })
}

/// `"target/debug/tool"`, `Path::new("target")`: a string literal that starts with the target directory.
fn names_target_by_path(text: &str) -> bool {
    text.contains("\"target/") || text.contains("\"target\"") || text.contains("\"./target/")
}

/// Points `cache` at `path` in a run's variables.
pub(crate) fn set(cache: &Cache, path: &Path, vars: &mut BTreeMap<String, OsString>) {
    match cache.how {
        How::Var | How::WhereSet => {
            for var in cache.vars {
                vars.insert((*var).to_string(), path.as_os_str().to_owned());
            }
        }
        How::PytestOption => add_pytest_option(
            vars,
            &format!("-o {}", shell_word(&format!("cache_dir={}", path.display()))),
        ),
    }
}

/// Appends `option` (one or more words, already quoted) to `PYTEST_ADDOPTS`, after what is there.
pub(crate) fn add_pytest_option(vars: &mut BTreeMap<String, OsString>, option: &str) {
    let mut value = vars.get("PYTEST_ADDOPTS").cloned().unwrap_or_default();
    if !value.is_empty() {
        value.push(" ");
    }
    value.push(option);
    vars.insert("PYTEST_ADDOPTS".to_string(), value);
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
