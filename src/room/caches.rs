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

include!(concat!(env!("OUT_DIR"), "/ecosystem/room/caches.rs"));

/// A cache of some runner, and how the room points it at its private place.
#[derive(Debug)]
pub(crate) struct Cache {
    /// The variables set (the first one names the cache in `status` and in [`Shared`]).
    pub vars: &'static [&'static str],
    /// Its place in the room.
    pub place: &'static str,
    /// A file, not a directory.
    pub file: bool,
    how: How,
}

#[derive(Debug)]
enum How {
    /// Every variable names the place.
    Var,
    /// Only where the baseline's environment set the variable (setting it would turn a feature on).
    WhereSet,
    /// The ecosystem's own rule points the run's variables at the place (pytest's `-o cache_dir=…`, after the
    /// user's own `PYTEST_ADDOPTS`).
    Rule(fn(&Path, &mut BTreeMap<String, OsString>)),
}

/// The variables that name the temporary directory (the first row of [`CACHES`]).
pub(crate) const TEMPORARY: &[&str] = &["TMPDIR", "TMP", "TEMP"];

/// The temporary directory, every runner's: it holds temporary files (jest's transform cache, go test's binaries,
/// `t.TempDir()`, pytest's `tmp_path`).
const TMP: Cache = Cache {
    vars: TEMPORARY,
    place: "tmp",
    file: false,
    how: How::Var,
};

/// Every cache the room knows, one line per cache; each ecosystem's rows are in its folder
/// (`src/ecosystem/<name>/caches.rs`). The order is the one setup and `status` list them in.
pub(crate) const CACHES: &[&Cache] = &[
    &TMP,
    &python::BYTECODE,
    &python::TEST_CACHE,
    &go::BUILD,
    &rust::TARGET,
    &python::MYPY,
    &python::RUFF,
    &js::BABEL,
    &js::COMPILE,
];

/// The caches whose contents are the builds of one tree (Cargo's target): a run in another tree, the held-out
/// tests' private copy, would rebuild over the room's, so it gets a place of its own for each
/// (`oracle::holdout`). One line per such cache.
pub(crate) const PER_TREE: &[&Cache] = &[&rust::TARGET];

/// The caches a setup starts from a seed instead of empty (see [`Seeding`]), each with the rule of its
/// ecosystem that finds or builds the seed. One line per seeded cache.
const SEEDED: &[(&Cache, Seed)] = &[(&go::BUILD, go::seed), (&python::BYTECODE, python::seed)];

/// The caches whose toolchain names every entry by everything that made it (the sources, the flags, the tools
/// themselves), each with the names of that toolchain's programs: an entry those programs alone wrote is the
/// one the runner would compute from the same inputs, so a step of the run that fed the rest only through such
/// entries (`go vet` before `go test`) fed it nothing of its own (`oracle::steps::Filled`). One line per such
/// cache.
pub(crate) const FILLED: &[(&Cache, &[&str])] = &[(&go::BUILD, go::TOOLCHAIN)];

/// Names another directory of seeds than the store's ([`seeds_dir`]): a test suite that gives each
/// case a store of its own points them all at one. It is as trusted as `LOOPGATE_HOME`, which names the store:
/// whoever sets setup's environment chooses both.
pub(crate) const SEEDS_ENV: &str = "LOOPGATE_SEEDS";

/// Where the seeds of the rooms' caches live: [`SEEDS_ENV`]'s directory, else `seeds/` in loopgate's store,
/// beside the rooms, shared by every project's, since what fills them runs no project's code.
pub(crate) fn seeds_dir() -> std::path::PathBuf {
    std::env::var_os(SEEDS_ENV).map_or_else(
        || crate::project::loopgate_home().join("seeds"),
        std::path::PathBuf::from,
    )
}

/// An ecosystem's rule that fills a room's empty cache from a seed in loopgate's store before the baseline runs.
pub(crate) type Seed = fn(&Seeding) -> std::io::Result<()>;

/// What a [`Seed`] rule is given. A seed is a head start and nothing else (issue 39, Speed: a Go setup spent
/// most of its CPU compiling and vetting the standard library into the room's empty build cache): what fills it
/// runs no code of any project — only the toolchain, over its own sources, in a directory of loopgate's store —
/// so a room that starts from it trusts nothing a run of the code under test wrote, as a room that starts empty
/// does. The rule fails soft: any error leaves the cache empty, and the baseline runs cold as before.
pub(crate) struct Seeding<'a> {
    /// loopgate's directory of seeds, beside the rooms (out of every agent's reach, as the store is).
    pub seeds: &'a Path,
    /// The project's root (the rule may ask what it needs, `go list`, never run its code).
    pub root: &'a Path,
    /// The baseline's recorded environment.
    pub vars: &'a BTreeMap<String, String>,
    /// The room's empty cache directory to fill.
    pub into: &'a Path,
}

/// The seed rule of `cache`, where it has one.
pub(crate) fn seed_rule(cache: &Cache) -> Option<Seed> {
    // By place, which no two caches share: a `const` has no one address to compare by.
    SEEDED
        .iter()
        .find(|(seeded, _)| seeded.place == cache.place)
        .map(|(_, rule)| *rule)
}

/// The ecosystems' rules for a cache that must stay the user's (see [`decide`]), one line per ecosystem with
/// one, in the order setup lists what they find.
const SHARED: &[SharedRule] = &[rust::shared, python::shared];

/// An ecosystem's rule for a cache of its own that stays the user's: given the project's root, the verify
/// command and the baseline's variables.
type SharedRule = fn(&Path, &str, &BTreeMap<String, String>) -> Option<Shared>;

impl Cache {
    /// The variable that names the cache.
    pub(crate) fn name(&self) -> &'static str {
        self.vars[0]
    }

    /// Whether the room makes it private, given the baseline's variables.
    pub(crate) fn applies(&self, vars: &BTreeMap<String, String>) -> bool {
        !matches!(self.how, How::WhereSet) || vars.contains_key(self.name())
    }
}

/// A cache left to the user, and why (decided at setup).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Shared {
    /// The cache's variable (`CARGO_TARGET_DIR`).
    pub var: String,
    pub why: Why,
}

/// Why a private cache would change an honest verdict: a reason of the ecosystem whose rule found it, by the
/// name it is stored under (defined in that ecosystem's `caches.rs`, worded in its `messages.rs`), and the file
/// that shows it, where one does. Stored as the tagged enum it was (`{"why": "target_dir_configured", "file":
/// ".cargo/config.toml"}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Why {
    #[serde(rename = "why")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
}

impl Why {
    /// The reason `kind`, shown by `file` where one shows it.
    pub(crate) fn new(kind: &str, file: Option<String>) -> Why {
        Why {
            kind: kind.to_string(),
            file,
        }
    }
}

/// The caches that stay the user's for a project whose verify command is `command` and whose baseline
/// environment is `vars`: what the ecosystems' rules ([`SHARED`]) find.
pub(crate) fn decide(root: &Path, command: &str, vars: &BTreeMap<String, String>) -> Vec<Shared> {
    SHARED.iter().filter_map(|rule| rule(root, command, vars)).collect()
}

/// Whether the project asks its runner for a JUnit report of its own (on the command line, in the variable the
/// runner reads its options from or in its configuration): the room then adds none, since the last report option
/// wins and theirs must stay theirs. Asked of the runner whose report the room asks for that way
/// (`runner::Report::Private`).
pub(crate) fn junit_theirs(root: &Path, command: &str, vars: &BTreeMap<String, String>) -> bool {
    python::junit_theirs(root, command, vars)
}

/// Points `cache` at `path` in a run's variables.
pub(crate) fn set(cache: &Cache, path: &Path, vars: &mut BTreeMap<String, OsString>) {
    match cache.how {
        How::Var | How::WhereSet => {
            for var in cache.vars {
                vars.insert((*var).to_string(), path.as_os_str().to_owned());
            }
        }
        How::Rule(rule) => rule(path, vars),
    }
}
