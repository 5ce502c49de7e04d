//! The test-relevant content of a sealed configuration file, as digests that can be compared later.
//!
//! Sealing a whole `package.json` would stop an agent from adding a dependency, which is honest work; what
//! decides what `npm test` runs is only `scripts.test` (and the scripts it calls) and the test runner's own
//! key. So a sealed file has a [`Scope`]: the whole file, some keys of a JSON or TOML document, or some
//! sections of an INI file. [`digests`] turns the file's bytes into one digest per sealed *part*, labelled so
//! a change can be named exactly (`package.json: scripts.test changed`).
//!
//! A part that is absent has no digest, so adding `scripts.pretest` shows up as a part that appeared. A file
//! that no longer parses gets the single label [`UNPARSABLE`]: every part it had then reads as changed.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

pub use super::options::OptionsKey;
use crate::fsutil;
use crate::schema::Lang;

/// The label of a whole file's one part.
pub const WHOLE: &str = "";
/// The last segment of a free JSON key path (`Scope::JsonBut`) that frees the key above it only while its value
/// is the JSON text after this prefix: a runner's option set to what the runner uses without it
/// (`jest.testEnvironment` `"node"`) is as if absent; another value counts.
pub const IF_EQUAL: &str = "(if equal to) ";
/// The last segment of a free JSON key path (`Scope::JsonBut`) that makes the key above it a test selection
/// (mocha's `spec`: a glob or a list of them): cut from the key's digest and sealed one part per entry, each
/// labelled by `selection::label`, so an entry added that holds only new tests is judged by the files it selects
/// (`closure::selection`). A value that is no list of plain globs (an extglob, an object) stays in the digest.
pub const SELECTS: &str = "(test selection)";
/// The label standing in for every part of a JSON or TOML file that does not parse.
pub const UNPARSABLE: &str = "(the file does not parse)";
/// The last segment of a TOML key path that seals only the *test settings* of an array of tables
/// (`bin.(test settings)`): the entries that set `test`, `doctest`, `harness` or `required-features` (for
/// `[[bench]]`, only `test`: a bench runs under `cargo test` only when it says so), each reduced to those keys
/// and its `name` and `path`. So a new `[[bin]]` or a `[[bench]]` with `harness = false` is honest, while
/// `test = false` on a target whose tests ran (even one declared anew for `src/main.rs`) counts.
pub const TEST_SETTINGS: &str = "(test settings)";
/// The last segment of a TOML key path that seals only what of a build profile changes how the code behaves
/// (`profile.test.(behaviour)`): the profile's table, in it and in its `package.*` and `build-override` tables,
/// without the keys that only change how fast it builds or runs and what debug information it keeps
/// ([`SPEED_KEYS`]). So `opt-level = 1` in `[profile.test]` is as if absent, while `overflow-checks`,
/// `debug-assertions` or `panic` there (a test's arithmetic wrapping instead of panicking) counts.
pub const BEHAVIOUR: &str = "(behaviour)";
/// The keys of a build profile that change neither what the code computes nor how its tests end: optimisation,
/// debug information and how the build is cut up. `lto` and `codegen-units` only move where code is optimised.
const SPEED_KEYS: &[&str] = &[
    "opt-level",
    "debug",
    "split-debuginfo",
    "strip",
    "codegen-units",
    "incremental",
    "lto",
];
/// The name of [`Scope::IniBut`]'s section that stands for the file itself (its lines before any section).
pub const PREAMBLE: &str = "";

/// Which content of a file is sealed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "parts")]
pub enum Scope {
    /// Every byte.
    Whole,
    /// These key paths of a JSON document (`["scripts", "test"]`, `["jest"]`).
    Json(Vec<Vec<String>>),
    /// These key paths of a TOML document (`["tool", "pytest"]`, `["lib"]`).
    Toml(Vec<Vec<String>>),
    /// These sections of an INI file (`tool:pytest`, `pytest`).
    Ini(Vec<String>),
    /// These key paths of a TOML document (an empty path: the whole document) but for the `free` key paths under
    /// them (a last segment ending in `*` frees every key that starts with what precedes it: `env.CALC_*`): keys that change neither what runs nor what counts (`alias` in `.cargo/config.toml`, `markers` in
    /// pytest's table). A document left empty once they are cut out is no configuration (a `.cargo/config.toml`
    /// of aliases alone is as if absent); a table is still there (`[tool.pytest.ini_options]` makes the file
    /// pytest's configuration, whatever it holds).
    TomlBut {
        paths: Vec<Vec<String>>,
        free: Vec<Vec<String>>,
        /// Keys under them whose value is a runner's command-line options (pytest's `addopts`, a string or a list
        /// of words), judged option by option ([`OptionsKey`]).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        options: Vec<OptionsKey>,
    },
    /// These key paths of a JSON document but for the `free` key paths under them (a runner's options that change
    /// neither what runs nor what counts, `mocha.slow`). A key left an empty object once they are cut out is as
    /// if absent: the runner reads `{}` as its defaults.
    JsonBut {
        paths: Vec<Vec<String>>,
        free: Vec<Vec<String>>,
    },
    /// These sections of an INI file but for the `free` keys in them (with their continuation lines), and the keys
    /// whose value is a runner's command-line options judged option by option ([`OptionsKey`], by name). With
    /// the section named [`PREAMBLE`] (the lines before the first section), the file counts by existing
    /// (`pytest.ini` configures pytest even when empty): its sections are then one part, the whole file's.
    IniBut {
        sections: Vec<String>,
        free: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        options: Vec<OptionsKey>,
    },
    /// A shell file a script sources, but for its functions that are no command (`add() { … }`): those are the
    /// code the tests call; everything else — top-level statements, variables, a function that shadows a
    /// command (`python3() { … }`) — changes how the script runs. See `closure::shell`.
    Shell,
    /// [`Scope::Shell`], read beside the values the run inherited at setup of the runners' options variables the
    /// start channel completes (`inherited`: `PYTEST_ADDOPTS` → `-ra`): an assignment that replaces one is free
    /// where the words it drops and adds are, as a make recipe's setting is (`closure::recipe_line`). Seals made
    /// before it keep [`Scope::Shell`].
    ShellBeside { inherited: BTreeMap<String, String> },
    /// A shell script the verify command runs (`sh scripts/check.sh`), but for its inert lines: those that only
    /// print, in a place where their status reaches nothing (`echo "running checks"`, `python3 --version`, a
    /// comment). Everything that can change the shell's state, the exit status or what the runner reads stays
    /// sealed. See `closure::script`.
    Script,
    /// [`Scope::Script`], for a script that runs in `home`, the place named relative to the script's own directory
    /// (`..` for `scripts/check.sh` run from the project's root): a `cd` to the script's own directory's `home`
    /// (`cd "$(dirname "$0")/.."`) lands where the script already stands, so it is inert too. Seals made before it
    /// keep [`Scope::Script`]. Where a shell named on the command line runs it (`by_shell`: `sh scripts/check.sh`),
    /// its `#!` line is a comment like any other; run by its path, the line names the interpreter and is sealed.
    ScriptIn {
        home: String,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        by_shell: bool,
    },
    /// A toolchain pin, judged by the toolchain it selects (`of`: `rustup` or `pyenv`), not by its bytes: a pin
    /// that selects what would be in effect without it (the toolchain that ran the baseline) is as if absent. Read by
    /// `closure::read_parts`, which knows the file's place.
    Toolchain { of: String },
    /// The code under test, named by the derivation so that no other reading seals it (a program a test
    /// script runs): no part, so nothing of it is sealed.
    Code,
    /// A file of a runner's command-line options (RSpec's `.rspec`: words split as a shell splits them, a line
    /// starting with `#` left out), but for the `free` ones: a word listed (`--color`), or a word and the one
    /// after it listed joined by `=` (`--format=documentation` also stands for `--format documentation`), `*`
    /// for any value, one-letter options clustered (see `closure::options`). Options that change only what the
    /// runner prints; a file of those alone is as if absent.
    Options { free: Vec<String> },
    /// A file of `key = value` lines with no sections that matter (npm's `.npmrc`), but for the `free` keys: those
    /// that change neither what runs nor what counts (`fund`, `loglevel`, the registry; an entry with one `*`
    /// stands for every key it matches, `//*` for a registry's credentials), and the `options` keys whose value is
    /// a runtime's command-line options judged option by option ([`OptionsKey`], by name: `node-options`). A line
    /// is read as the tool's INI parser reads it (blank lines and `#` / `;` comments left out, the key trimmed);
    /// every other line, a section header included, is sealed as it stands. A file of free keys alone is as if
    /// absent, so a new one that only quiets the tool moves nothing, while one key that changes how a script runs
    /// (`script-shell`, a `node-options` preload) counts. An entry `key=value` frees the key with that value only
    /// (`script-shell=/bin/bash`: a system shell, which runs a script as the default one does, while a shell of the
    /// agent's counts).
    KeysBut {
        free: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        options: Vec<OptionsKey>,
    },
    /// Code a runner loads from every directory on the way to its tests (pytest's `conftest.py`), in `lang`,
    /// judged by what it defines: a new helper or import may appear, unless the helper takes a `reserved` name (one
    /// the runner provides); everything else is a part (see `closure::units`). Read by `closure::read_parts`,
    /// which adds the names the same-named files above it define.
    Units { lang: Lang, reserved: Vec<String> },
    /// An XML document but for the `free` attributes of its `root` element: what only changes what the runner
    /// prints (PHPUnit's `colors`), see `closure::xml_root`.
    XmlRootBut { root: String, free: Vec<String> },
    /// The test side of a Maven `pom.xml`: the Surefire plugin's declarations, the properties it reads, the
    /// test directories (see `closure::pom`).
    Pom,
    /// The size and modification time only: a program or library so large that reading every byte at each
    /// promise would cost more than the check is worth (see `closure::observed`).
    Stat,
    /// The configuration a runner resolves in this file's directory, by its content under whichever name the
    /// runner reads: for each search order (versions of a runner that search differently), the first of its
    /// names that exists. So the same content under the name read next (`phpunit.xml` renamed
    /// `phpunit.xml.dist`) moves nothing, while another content, or a new file read before the sealed one, does.
    /// Read by `closure::read_parts` through [`first_of`], which knows the file's place; each file found is read
    /// in scope `each` (PHPUnit's: whole but for its root's display attributes, [`Scope::XmlRootBut`]).
    FirstOf { orders: Vec<Vec<String>>, each: Box<Scope> },
    /// The parts an ecosystem's own reader of a kind of file cuts it into, for these names ([`Read`]): what a
    /// Makefile runs for some goals, a `CMakeLists.txt`'s test side for the tests it registered. Stored as the
    /// reader's kind and the names, `{"kind": "cmake", "parts": ["calc_test"]}` (the form of the enum variant
    /// each reader was), and last: a kind none of the variants above has is looked up among the readers.
    #[serde(untagged)]
    Read(Read),
}

/// A file cut into parts by an ecosystem's reader ([`Scope::Read`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Read {
    pub kind: Reader,
    /// The names its parts are for (a Makefile's goals, none: the default goal; a CMake file's tests).
    pub parts: Vec<String>,
}

impl Read {
    /// A file read by `reader` for `names`.
    pub(crate) fn by(reader: &'static Reading, names: Vec<String>) -> Scope {
        Scope::Read(Read {
            kind: Reader(reader),
            parts: names,
        })
    }
}

/// A file's parts as a reader cuts it: label, the part's text.
pub(crate) type Texts = Vec<(String, String)>;

/// An ecosystem's reader of a kind of file: a handle on its [`Reading`], registered by one line of
/// `closure::READERS` and persisted by its kind, which is never changed.
#[derive(Clone, Copy)]
pub struct Reader(&'static Reading);

/// What an ecosystem's reader of a kind of file declares, in its folder (`make/makefile.rs`, `cpp/cmake.rs`).
pub struct Reading {
    /// The persisted name of the kind (`make`, `cmake`): never changed once released.
    pub(crate) kind: &'static str,
    /// The file's parts for these names.
    pub(crate) parts: fn(&str, &[String]) -> Texts,
    /// The labels of the parts for these names, for people.
    pub(crate) labels: fn(&[String]) -> Vec<String>,
    /// For a configuration a runner *resolves* by a search over several files and formats (pytest's rootdir and
    /// configuration file), how to read it from its place rather than from one file's text: every file the search
    /// may read is sealed with the same scope, and each reads the resolution, so moving the configuration from
    /// one of them to another moves nothing while a key that differs does, whichever file holds it.
    pub(crate) resolves: Option<Resolving>,
}

/// A file's content as a file tool would leave it: its path relative to the project's root, its bytes.
pub(crate) type Edited<'a> = (&'a str, &'a [u8]);

/// How a [`Reading`] reads a configuration a runner resolves by a search ([`Reading::resolves`]).
#[derive(Clone, Copy)]
pub struct Resolving {
    /// The resolution's parts as labelled texts (a text starting with `closure::units::ADDABLE` may appear: a
    /// key that only makes the run stricter), from the project `root`, the scope's names, and a file's content
    /// as a file tool would leave it (its path relative to the root, its bytes) in place of the file on disk.
    pub(crate) parts: fn(&std::path::Path, &[String], Option<Edited>) -> Texts,
    /// The file the search reads now (relative to the root, or absolute), to name a change by.
    pub(crate) file: fn(&std::path::Path, &[String]) -> Option<String>,
    /// Whether that file existed when the scope was derived (at setup): a change read from a file that did not is
    /// also named as the file's creation, whose undo is to remove it.
    pub(crate) existed: fn(&[String], &str) -> bool,
    /// The suffix of the labels of a second resolution beside the first (another version of the runner, whose
    /// search differs): a part of it is named only where the same part of the first did not move the same way.
    pub(crate) also: &'static str,
}

impl Reader {
    /// Whether this is `reading`'s handle.
    pub(crate) fn is(self, reading: &Reading) -> bool {
        self.0.kind == reading.kind
    }

    /// The reading's search, where it reads a configuration from its place ([`Reading::resolves`]).
    pub(crate) fn resolves(self) -> Option<Resolving> {
        self.0.resolves
    }
}

impl PartialEq for Reader {
    fn eq(&self, other: &Reader) -> bool {
        self.0.kind == other.0.kind
    }
}

impl Eq for Reader {}

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.kind)
    }
}

impl Serialize for Reader {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.kind)
    }
}

impl<'de> Deserialize<'de> for Reader {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let kind = String::deserialize(deserializer)?;
        super::READERS
            .iter()
            .find(|reading| reading.kind == kind)
            .map(|reading| Reader(reading))
            .ok_or_else(|| serde::de::Error::custom(format!("unknown scope kind `{kind}`")))
    }
}

impl Scope {
    /// Seals, where this scope frees the variables no runner reads ([`DATA_VARIABLES`]), those the tests read
    /// (`reads`) too: their names follow the segment; a test that reads the environment whole leaves no
    /// variable free. Whether the scope changed.
    pub(crate) fn seal_read_variables(&mut self, reads: &crate::schema::EnvReads) -> bool {
        let free = match self {
            Scope::TomlBut { free, .. } | Scope::JsonBut { free, .. } => free,
            // A reader told of the marker (phpunit's `<php>`): the names follow it; none free when read whole.
            // A reader told of the constants' marker (phpunit's `<const>`, [`DATA_CONSTANTS`]) likewise, after the
            // variables': the names the tests read follow it; none free when a test builds a name at run time.
            Scope::Read(read) => {
                let has = |marker: &str| read.parts.iter().any(|name| name == marker);
                let (variables, constants) = (has(DATA_VARIABLES), has(DATA_CONSTANTS));
                let Some(at) = read
                    .parts
                    .iter()
                    .position(|name| name == DATA_VARIABLES || name == DATA_CONSTANTS)
                else {
                    return false;
                };
                let before = read.parts.clone();
                read.parts.truncate(at);
                if variables && !reads.wholesale {
                    read.parts.push(DATA_VARIABLES.to_string());
                    read.parts.extend(reads.names.iter().cloned());
                }
                if constants && !reads.all_constants {
                    read.parts.push(DATA_CONSTANTS.to_string());
                    read.parts.extend(reads.constants.iter().cloned());
                }
                return read.parts != before;
            }
            Scope::FirstOf { each, .. } => return each.seal_read_variables(reads),
            _ => return false,
        };
        let before = free.len();
        if reads.wholesale {
            free.retain(|path| !path.contains(&DATA_VARIABLES.to_string()));
            return free.len() != before;
        }
        let mut changed = false;
        for path in free.iter_mut() {
            if let Some(at) = path.iter().position(|segment| segment == DATA_VARIABLES) {
                let sealed: Vec<String> = reads.names.iter().cloned().collect();
                changed |= path[at + 1..] != sealed[..];
                path.truncate(at + 1);
                path.extend(sealed);
            }
        }
        changed
    }

    /// Widens `self` to also cover `other` (the same file reached twice, e.g. `package.json` through
    /// `npm test` and through the `jest` key). Whole absorbs everything; kinds that differ become whole.
    pub fn merge(&mut self, other: Scope) {
        if *self == other {
            return;
        }
        // `package.json` read by two tools (its scripts for `npm test`, a runner's key), one with free options.
        if (matches!(self, Scope::JsonBut { .. }) || matches!(other, Scope::JsonBut { .. }))
            && let (Some(mine), Some(more)) = (self.json_keys(), other.json_keys())
        {
            *self = merge_json_keys(mine, more);
            return;
        }
        match (&mut *self, other) {
            (Scope::Whole, _) => {}
            (_, Scope::Whole) => *self = Scope::Whole,
            (Scope::Json(mine), Scope::Json(more)) | (Scope::Toml(mine), Scope::Toml(more)) => {
                for path in more {
                    if !mine.contains(&path) {
                        mine.push(path);
                    }
                }
            }
            (
                Scope::TomlBut {
                    paths: mine,
                    free,
                    options,
                },
                Scope::TomlBut {
                    paths: more,
                    free: also_free,
                    options: also_options,
                },
            ) => {
                for path in more {
                    if !mine.contains(&path) {
                        mine.push(path);
                    }
                }
                // Free only where both readings leave it free.
                free.retain(|key| also_free.contains(key));
                options.retain(|key| also_options.contains(key));
            }
            (
                Scope::IniBut {
                    sections: mine,
                    free,
                    options,
                },
                Scope::IniBut {
                    sections: more,
                    free: also_free,
                    options: also_options,
                },
            ) => {
                for name in more {
                    if !mine.contains(&name) {
                        mine.push(name);
                    }
                }
                free.retain(|key| also_free.contains(key));
                options.retain(|key| also_options.contains(key));
            }
            (Scope::Ini(mine), Scope::Ini(more)) => {
                for name in more {
                    if !mine.contains(&name) {
                        mine.push(name);
                    }
                }
            }
            (Scope::Read(mine), Scope::Read(more)) if mine.kind == more.kind => {
                for name in more.parts {
                    if !mine.parts.contains(&name) {
                        mine.parts.push(name);
                    }
                }
            }
            _ => *self = Scope::Whole,
        }
    }

    /// Whether the reading of this scope sees everything the file can do: a whole TOML document read key by key
    /// (`.cargo/config.toml`) holds no code, so what the reading frees is free in the run too, and a new file of it
    /// may be carried into the room's tree (`commands::setup`, `room::tree`'s `judged`) rather than left out like
    /// a runner's file of code. A document read for some tables only (pytest's in `pyproject.toml`) is not: the
    /// file's mere presence can matter to a runner beyond them.
    ///
    /// A file of a resolved search ([`Reading::resolves`]) is read as the runner reads it, whatever file holds the
    /// configuration: a new one is carried too, so the run resolves what the reading judged.
    pub fn reads_all_of_it(&self) -> bool {
        matches!(self, Scope::TomlBut { paths, .. } if paths.iter().any(Vec::is_empty)) || self.resolved().is_some()
    }

    /// The search this scope reads, where it is a resolved configuration ([`Reading::resolves`]).
    pub fn resolved(&self) -> Option<Resolving> {
        match self {
            Scope::Read(read) => read.kind.resolves(),
            _ => None,
        }
    }

    /// A JSON scope's sealed key paths and free ones under them.
    fn json_keys(&self) -> Option<JsonKeys<'_>> {
        match self {
            Scope::Json(paths) => Some((paths, &[])),
            Scope::JsonBut { paths, free } => Some((paths, free)),
            _ => None,
        }
    }

    /// The labels of the parts, as [`digests`] names them (`scripts.test`, `[tool:pytest]`), for people.
    pub fn labels(&self) -> Vec<String> {
        match self {
            Scope::Whole
            | Scope::Stat
            | Scope::Shell
            | Scope::ShellBeside { .. }
            | Scope::Script
            | Scope::ScriptIn { .. }
            | Scope::Code
            | Scope::Toolchain { .. }
            | Scope::Pom
            | Scope::XmlRootBut { .. }
            | Scope::Options { .. }
            | Scope::KeysBut { .. }
            | Scope::Units { .. }
            | Scope::FirstOf { .. } => Vec::new(),
            Scope::Json(paths) | Scope::Toml(paths) | Scope::TomlBut { paths, .. } | Scope::JsonBut { paths, .. } => {
                paths.iter().map(|p| p.join(".")).collect()
            }
            Scope::Ini(names) | Scope::IniBut { sections: names, .. } if !names.iter().any(|n| n == PREAMBLE) => {
                names.iter().map(|n| format!("[{n}]")).collect()
            }
            Scope::Ini(_) | Scope::IniBut { .. } => Vec::new(),
            Scope::Read(read) => (read.kind.0.labels)(&read.parts),
        }
    }
}

/// A JSON reading's sealed key paths, and the free ones under them.
type JsonKeys<'a> = (&'a [Vec<String>], &'a [Vec<String>]);

/// Two JSON readings of one file as one: every key path either seals, and free only what no reading seals
/// (a free key stays free where each reading that seals a key above it lists it free too).
fn merge_json_keys(mine: JsonKeys, more: JsonKeys) -> Scope {
    let mut paths = mine.0.to_vec();
    for path in more.0 {
        if !paths.contains(path) {
            paths.push(path.clone());
        }
    }
    let free_in = |key: &Vec<String>, (sealed, free): JsonKeys| {
        !sealed.iter().any(|path| key.starts_with(path)) || free.contains(key)
    };
    let mut free: Vec<Vec<String>> = Vec::new();
    for key in mine.1.iter().chain(more.1) {
        if free_in(key, mine) && free_in(key, more) && !free.contains(key) {
            free.push(key.clone());
        }
    }
    if free.is_empty() {
        Scope::Json(paths)
    } else {
        Scope::JsonBut { paths, free }
    }
}

/// Part label → SHA-256 hex of the part's canonical form. Empty when the file does not exist.
pub type Parts = BTreeMap<String, String>;

/// The digests of the sealed parts of a file's bytes (`None`: the file does not exist).
pub fn digests(scope: &Scope, bytes: Option<&[u8]>) -> Parts {
    let Some(bytes) = bytes else {
        return Parts::new();
    };
    match scope {
        // A resolved configuration from one file's bytes alone (a file tool's edit of it) is that file whole.
        Scope::Whole | Scope::Stat => Parts::from([(WHOLE.to_string(), sha256(bytes))]),
        Scope::FirstOf { each, .. } => digests(each, Some(bytes)),
        Scope::Shell | Scope::ShellBeside { .. } | Scope::Script | Scope::ScriptIn { .. } => {
            let text = String::from_utf8_lossy(bytes);
            let sealed = match scope {
                Scope::Shell => super::shell::sealed_text(&text),
                Scope::ShellBeside { inherited } => super::shell::sealed_text_beside(&text, inherited),
                Scope::ScriptIn { home, by_shell } => super::script::sealed_text(&text, Some(home), *by_shell),
                _ => super::script::sealed_text(&text, None, false),
            };
            Parts::from([(WHOLE.to_string(), sha256(sealed.as_bytes()))])
        }
        Scope::Code => Parts::new(),
        // Judged by its place (`closure::read_parts`); from bytes alone, as a whole file.
        Scope::Toolchain { .. } => Parts::from([(WHOLE.to_string(), sha256(bytes))]),
        Scope::Json(paths) => match serde_json::from_slice::<serde_json::Value>(bytes) {
            Ok(doc) => tree_parts(paths, |path| lookup_json(&doc, path).map(canonical)),
            Err(_) => unparsable(bytes),
        },
        Scope::JsonBut { paths, free } => match json_or_yaml(bytes) {
            Ok(doc) => {
                let mut entries: Vec<String> = Vec::new();
                let mut parts = tree_parts(paths, |path| {
                    let mut value = lookup_json(&doc, path)?.clone();
                    for key in free.iter().filter(|k| k.len() > path.len() && k.starts_with(path)) {
                        if let Some(at) = key.iter().position(|segment| segment == SCRIPT_LINE) {
                            if at == path.len() {
                                read_script_line(&mut value, &key[at + 1..]);
                            }
                            continue;
                        }
                        if let Some((last, selected)) = key.split_last()
                            && last == SELECTS
                        {
                            let at = &selected[path.len()..];
                            if let Some(labels) = selection_entries(&value, at, &selected.join(".")) {
                                entries.extend(labels);
                                cut_json(&mut value, at);
                            }
                            continue;
                        }
                        cut_json(&mut value, &key[path.len()..]);
                    }
                    if value.as_object().is_some_and(serde_json::Map::is_empty) {
                        return None;
                    }
                    Some(canonical(&value))
                });
                parts.extend(entries.into_iter().map(|label| (label, sha256(b""))));
                with_nothing_sealed(parts, paths)
            }
            Err(_) => unparsable(bytes),
        },
        Scope::Toml(paths) => match std::str::from_utf8(bytes)
            .ok()
            .and_then(|t| t.parse::<toml::Table>().ok())
        {
            Some(doc) => hashed(toml_texts(&doc, paths)),
            None => unparsable(bytes),
        },
        Scope::TomlBut { paths, free, options } => match std::str::from_utf8(bytes)
            .ok()
            .and_then(|t| t.parse::<toml::Table>().ok())
        {
            Some(doc) => with_nothing_sealed(
                tree_parts(paths, |path| {
                    let mut value = if path.is_empty() {
                        toml::Value::Table(doc.clone())
                    } else {
                        lookup_toml(&doc, path)?.clone()
                    };
                    for key in free.iter().filter(|k| k.len() > path.len() && k.starts_with(path)) {
                        cut(&mut value, &key[path.len()..]);
                    }
                    for option in options
                        .iter()
                        .filter(|o| o.key.len() > path.len() && o.key.starts_with(path))
                    {
                        sealed_options_at(&mut value, &option.key[path.len()..], &option.free);
                    }
                    if path.is_empty() && value.as_table().is_some_and(toml::Table::is_empty) {
                        return None;
                    }
                    serde_json::to_value(value).ok().map(|v| canonical(&v))
                }),
                paths,
            ),
            None => unparsable(bytes),
        },
        Scope::Ini(names) => ini_parts(names, &[], &[], &String::from_utf8_lossy(bytes)),
        Scope::IniBut {
            sections,
            free,
            options,
        } => ini_parts(sections, free, options, &String::from_utf8_lossy(bytes)),
        Scope::Read(read) => marked((read.kind.0.parts)(&String::from_utf8_lossy(bytes), &read.parts)),
        Scope::Pom => hashed(super::pom::parts(&String::from_utf8_lossy(bytes))),
        Scope::XmlRootBut { root, free } => {
            let sealed = super::xml_root::sealed_text(&String::from_utf8_lossy(bytes), root, free);
            Parts::from([(
                WHOLE.to_string(),
                sealed.map_or_else(|| sha256(bytes), |text| sha256(text.as_bytes())),
            )])
        }
        Scope::Units { lang, reserved } => {
            marked(super::units::parts(*lang, reserved, &String::from_utf8_lossy(bytes)))
        }
        Scope::KeysBut { free, options } => {
            let text = String::from_utf8_lossy(bytes);
            let sealed = sealed_key_lines(&text, free, options);
            if sealed.is_empty() {
                Parts::new()
            } else {
                Parts::from([(WHOLE.to_string(), sha256(sealed.join("\n").as_bytes()))])
            }
        }
        Scope::Options { free } => {
            let sealed = super::options::sealed_text(&String::from_utf8_lossy(bytes), free);
            if sealed.is_empty() {
                Parts::new()
            } else {
                Parts::from([(WHOLE.to_string(), sha256(sealed.join("\n").as_bytes()))])
            }
        }
    }
}

/// The parts of the configuration a runner resolves in `dir` (see [`Scope::FirstOf`]): per search order, the
/// parts of the first of its names that exists (by content, not name) in scope `each`, each labelled by the order
/// and its own label ([`first_of_part`]), so a reader that cuts the file setting by setting is judged setting by
/// setting here too; none for an order that finds no file.
pub(crate) fn first_of(dir: &std::path::Path, orders: &[Vec<String>], each: &Scope) -> Parts {
    orders
        .iter()
        .flat_map(|order| {
            let Some(name) = first_of_now(dir, order) else {
                return Vec::new();
            };
            let label = first_of_label(order);
            match std::fs::read(dir.join(name)) {
                Err(_) => vec![(label, UNREADABLE_CONTENT.to_string())],
                // What is free in the file is free here too.
                Ok(bytes) => digests(each, Some(&bytes))
                    .into_iter()
                    .map(|(part, digest)| (first_of_part(&label, &part), digest))
                    .collect(),
            }
        })
        .collect()
}

/// The label of a part `part` of the file a search order (labelled `order`) reads: `the first of phpunit.xml,
/// phpunit.xml.dist: bootstrap`; the order's label alone for a file read whole.
pub(crate) fn first_of_part(order: &str, part: &str) -> String {
    if part == WHOLE {
        order.to_string()
    } else {
        format!("{order}: {part}")
    }
}

/// The search order's label and the part's own label of a part [`first_of`] names.
pub(crate) fn first_of_split(label: &str) -> (&str, &str) {
    label.split_once(": ").unwrap_or((label, WHOLE))
}

/// The label of a search order's part: `the first of phpunit.xml, phpunit.xml.dist`.
pub(crate) fn first_of_label(order: &[String]) -> String {
    format!("the first of {}", order.join(", "))
}

/// The first name of `order` that is a file in `dir` now.
pub(crate) fn first_of_now(dir: &std::path::Path, order: &[String]) -> Option<String> {
    order.iter().find(|name| dir.join(name).is_file()).cloned()
}

/// The digest standing for a resolved configuration that exists but cannot be read.
const UNREADABLE_CONTENT: &str = "(unreadable)";

/// Labelled texts as parts, each text's digest, a text that may appear (`closure::units::ADDABLE`) keeping its
/// mark outside the digest for [`compare`].
pub(crate) fn marked(parts: Texts) -> Parts {
    parts
        .into_iter()
        .map(|(label, text)| {
            let mark = if text.starts_with(super::units::ADDABLE) {
                super::units::ADDABLE
            } else {
                ""
            };
            (label, format!("{mark}{}", sha256(text.as_bytes())))
        })
        .collect()
}

/// Labelled texts as parts: each text's digest.
fn hashed<T: AsRef<str>>(parts: impl IntoIterator<Item = (String, T)>) -> Parts {
    parts
        .into_iter()
        .map(|(label, text)| (label, sha256(text.as_ref().as_bytes())))
        .collect()
}

/// The selection labels of the test selection at `at` under `value` ([`SELECTS`]): a glob or a list of them,
/// each a plain glob (no extglob, nothing outside the directory) whose files a walk can list exactly; a path
/// with no pattern stands for itself, itself with an extension, and every file with an extension below it, as
/// mocha reads one (its `extension` beside the selection included).
/// `None` where the key is absent or any entry is not such a glob: the key is then digested whole.
fn selection_entries(value: &serde_json::Value, at: &[String], group: &str) -> Option<Vec<String>> {
    let globs: Vec<&str> = match lookup_json(value, at)? {
        serde_json::Value::String(one) => vec![one.as_str()],
        serde_json::Value::Array(list) => list.iter().map(serde_json::Value::as_str).collect::<Option<_>>()?,
        _ => return None,
    };
    // The extensions mocha looks for in a directory or after a name without one: its defaults and the
    // document's `extension` beside the selection.
    let mut extensions = vec!["js".to_string(), "cjs".to_string(), "mjs".to_string()];
    let (_, above) = at.split_last()?;
    match lookup_json(value, above).and_then(|v| v.get("extension")) {
        Some(serde_json::Value::String(one)) => extensions.push(one.clone()),
        Some(serde_json::Value::Array(list)) => {
            extensions.extend(list.iter().filter_map(|v| v.as_str().map(str::to_string)));
        }
        None => {}
        Some(_) => return None,
    }
    extensions.retain(|ext| !ext.contains(['{', '}', ',', '*', '?', '[', '/']));
    globs
        .into_iter()
        .map(|glob| {
            let glob = glob.trim_start_matches("./").trim_end_matches('/');
            let plain = !glob.is_empty()
                && !glob.starts_with('/')
                && !glob.contains(['(', ')', '!', '|', '\\'])
                && !glob.split('/').any(|c| c == "..");
            if !plain {
                return None;
            }
            let spelled = if glob.contains(['*', '?', '[', '{']) {
                glob.to_string()
            } else {
                let mut alternatives = vec![glob.to_string()];
                for ext in &extensions {
                    alternatives.push(format!("{glob}.{ext}"));
                    alternatives.push(format!("{glob}/**/*.{ext}"));
                }
                format!("{{{}}}", alternatives.join(","))
            };
            Some(super::selection::label(group, &spelled))
        })
        .collect()
}

/// The digest of a document's whole part ([`WHOLE`], a scope's empty key path) where the file exists and every
/// key of it is free: nothing of it is sealed, yet it existed at setup. A change that leaves it so is none either
/// way (the file created or removed with only free keys); one that adds a key that counts is the file's change,
/// not its creation, so no message or undo offers to delete a file the user had. Persisted in seals.
pub(crate) const NOTHING_SEALED: &str = "(exists; nothing sealed)";

/// Whether `parts` seal nothing of a file: none at all (it does not exist), or [`NOTHING_SEALED`] alone.
#[cfg(test)]
pub(crate) fn seal_nothing(parts: &Parts) -> bool {
    parts.values().all(|digest| digest == NOTHING_SEALED)
}

/// `parts` with [`NOTHING_SEALED`] as the whole part where the scope reads the whole document (`paths` holds the
/// empty path) and no key of it counts.
fn with_nothing_sealed(mut parts: Parts, paths: &[Vec<String>]) -> Parts {
    if paths.iter().any(Vec::is_empty) && !parts.contains_key(WHOLE) {
        parts.insert(WHOLE.to_string(), NOTHING_SEALED.to_string());
    }
    parts
}

fn tree_parts(paths: &[Vec<String>], mut value_at: impl FnMut(&[String]) -> Option<String>) -> Parts {
    paths
        .iter()
        .filter_map(|path| Some((path.join("."), sha256(value_at(path)?.as_bytes()))))
        .collect()
}

/// A configuration document read key by key: JSON, or else YAML (a runner that reads one reads the other with the
/// same keys, `.mocharc.json` and `.mocharc.yml`). A JSON document reads the same either way; YAML counts only as
/// a mapping (any text is a YAML scalar); what neither reads is unparsable, so any change to it counts.
fn json_or_yaml(bytes: &[u8]) -> Result<serde_json::Value, ()> {
    serde_json::from_slice(bytes).or_else(|_| match yaml_serde::from_slice::<serde_json::Value>(bytes) {
        Ok(doc) if doc.is_object() => Ok(doc),
        _ => Err(()),
    })
}

/// The digests of the file at `path` holding `bytes` under `scope`, read as its name says: a JavaScript module
/// read key by key (`.mocharc.js`) is read as the object literal it exports (`closure::js_literal`) and as nothing
/// else — a line of JavaScript can read as a YAML mapping (`timeout: require('./patch.js')` is a labelled
/// statement that runs the patch), and a YAML file as a literal wrapped in a comment — so one that is more than a
/// literal is unparsable, and any change to it counts. Every other file is [`digests`]'.
pub fn file_digests(path: &str, scope: &Scope, bytes: Option<&[u8]>) -> Parts {
    let module = path
        .rsplit_once('.')
        .is_some_and(|(_, ext)| super::js_literal::MODULE_EXTS.contains(&ext));
    match (scope, bytes) {
        (Scope::JsonBut { .. }, Some(bytes)) if module => match super::js_literal::exported(bytes) {
            Some(value) => digests(scope, Some(&serde_json::to_vec(&value).unwrap_or_default())),
            None => unparsable(bytes),
        },
        _ => digests(scope, bytes),
    }
}

fn unparsable(bytes: &[u8]) -> Parts {
    Parts::from([(UNPARSABLE.to_string(), sha256(bytes))])
}

fn lookup_json<'a>(doc: &'a serde_json::Value, path: &[String]) -> Option<&'a serde_json::Value> {
    path.iter().try_fold(doc, |v, key| v.get(key))
}

/// A free key path's segment that stands for every key of its table naming an environment variable no
/// program of the run reads to decide what runs or counts (`runner::steers`): `env.` this, in cargo's
/// configuration, frees `TZ` and `CALC_MODE` and keeps `LD_PRELOAD` and `RUSTFLAGS`. The segments after it name
/// the variables the project's sealed tests read (`Scope::seal_read_variables`), which stay sealed too: `env.`
/// this `.CALC_QUICK` keeps `CALC_QUICK`. Persisted in seals.
pub(crate) const DATA_VARIABLES: &str = "(variables no runner reads)";

/// A free key path's segment right after a `package.json` script's key (`scripts`, `test`, this): the script's
/// text is compared as the program it starts (`closure::recipe_line`), as a make recipe's line is, so a leading
/// free setting of a runner's options variable, a plain `env` and a built-in reporter are as if absent. The
/// segments after it are the run's inherited value of each completed variable (`NAME=value`, recorded where the
/// closure was derived), then [`DATA_VARIABLES`] and the names the sealed tests read
/// ([`Scope::seal_read_variables`]); where a test reads the environment whole the path goes, and the script is
/// compared as written. Persisted in seals.
pub(crate) const SCRIPT_LINE: &str = "(read as the program it starts)";

/// The free key path that reads the script at `key` (`["scripts", "test"]`) as the program it starts
/// ([`SCRIPT_LINE`]), beside `inherited`: the run's value of each completed variable it holds.
pub(crate) fn script_line(key: &[String], inherited: impl IntoIterator<Item = (String, String)>) -> Vec<String> {
    let mut path = key.to_vec();
    path.push(SCRIPT_LINE.to_string());
    path.extend(inherited.into_iter().map(|(name, value)| format!("{name}={value}")));
    path.push(DATA_VARIABLES.to_string());
    path
}

/// Replaces a script's text in `value` by the program it starts (`closure::recipe_line`), read beside `reading`:
/// the segments after [`SCRIPT_LINE`]. A value that is no string is left as it is.
fn read_script_line(value: &mut serde_json::Value, reading: &[String]) {
    let Some(text) = value.as_str() else { return };
    let at = reading
        .iter()
        .position(|segment| segment == DATA_VARIABLES)
        .unwrap_or(reading.len());
    let inherited: BTreeMap<&str, &str> = reading[..at].iter().filter_map(|s| s.split_once('=')).collect();
    let reads = crate::schema::EnvReads {
        names: reading.get(at + 1..).unwrap_or_default().iter().cloned().collect(),
        ..Default::default()
    };
    let line =
        super::recipe_line::without_free_settings(text, &|name| inherited.get(name).map(|v| (*v).to_string()), &reads);
    *value = serde_json::Value::String(line);
}

/// A reading's name that frees the named constants no sealed test reads (PHPUnit's `<const>` in `<php>`): the
/// names after it are the constants the sealed tests and the test-side files they load read
/// (`schema::EnvReads::constants`, set by [`Scope::seal_read_variables`]), which stay sealed. It follows
/// [`DATA_VARIABLES`]'s names when both are there. A seal without it holds every `<const>`. Persisted in seals.
pub(crate) const DATA_CONSTANTS: &str = "(constants no test reads)";

/// Removes the key at `path` (relative to `value`) and any table it leaves empty on the way.
/// A segment `*` above the last stands for every key of its table (`target.*.linker`: the linker of every target);
/// a last segment `key=value` removes the key only while its value is the string `value` (`linker=cc`: set to
/// what the tool uses without it, the key is as if absent; another value counts); a last segment
/// [`DATA_VARIABLES`] removes every key no runner reads.
fn cut(value: &mut toml::Value, path: &[String]) {
    let Some((first, rest)) = path.split_first() else {
        return;
    };
    let Some(table) = value.as_table_mut() else { return };
    if first == DATA_VARIABLES {
        // The names after it are the tests' own reads: sealed as the runners' are.
        table.retain(|key, _| crate::runner::steers(key) || rest.iter().any(|name| name == key));
        return;
    }
    if rest.is_empty() {
        if let Some((key, equal)) = first.split_once('=') {
            if table.get(key).and_then(toml::Value::as_str) == Some(equal) {
                table.remove(key);
            }
            return;
        }
        match first.strip_suffix('*') {
            Some(prefix) => table.retain(|key, _| !key.starts_with(prefix)),
            None => {
                table.remove(first);
            }
        }
        return;
    }
    let keys: Vec<String> = if first == "*" {
        table.keys().cloned().collect()
    } else {
        vec![first.clone()]
    };
    for key in keys {
        if let Some(inner) = table.get_mut(&key) {
            cut(inner, rest);
            if inner.as_table().is_some_and(toml::Table::is_empty) {
                table.remove(&key);
            }
        }
    }
}

/// Replaces the options at `path` (relative to `value`: a string of words or a list of them) by those of them
/// that are not `free`, as one list of words; removes the key when none is left. A value of another type is left
/// as it is, and so counts whole.
fn sealed_options_at(value: &mut toml::Value, path: &[String], free: &[String]) {
    let Some((last, above)) = path.split_last() else {
        return;
    };
    let Some(table) = above
        .iter()
        .try_fold(&mut *value, |v, key| v.get_mut(key))
        .and_then(toml::Value::as_table_mut)
    else {
        return;
    };
    let words = match table.get(last) {
        Some(toml::Value::String(text)) => super::options::shell_words(text),
        Some(toml::Value::Array(items)) => items.iter().map(|w| w.as_str().map(str::to_string)).collect(),
        _ => None,
    };
    let Some(words) = words else { return };
    let sealed = super::options::sealed(&words, free, true);
    if sealed.is_empty() {
        table.remove(last);
    } else {
        table.insert(
            last.clone(),
            toml::Value::Array(sealed.into_iter().map(toml::Value::String).collect()),
        );
    }
}

/// Removes the key at `path` from a JSON object, and an object it leaves empty on the way.
fn cut_json(value: &mut serde_json::Value, path: &[String]) {
    let Some((first, rest)) = path.split_first() else {
        return;
    };
    let Some(object) = value.as_object_mut() else { return };
    if rest.is_empty() {
        object.remove(first);
        return;
    }
    if let [only] = rest
        && let Some(default) = only.strip_prefix(IF_EQUAL)
    {
        let equal = serde_json::from_str::<serde_json::Value>(default).is_ok_and(|d| object.get(first) == Some(&d));
        if equal {
            object.remove(first);
        }
        return;
    }
    if let Some(inner) = object.get_mut(first) {
        cut_json(inner, rest);
        if inner.as_object().is_some_and(serde_json::Map::is_empty) {
            object.remove(first);
        }
    }
}

/// The texts of these key paths of a TOML document ([`Scope::Toml`]'s parts before their digests; a path ending in
/// [`TEST_SETTINGS`] stands for the test settings of an array of tables): none for a path the document lacks.
pub(crate) fn toml_texts(doc: &toml::Table, paths: &[Vec<String>]) -> Texts {
    paths
        .iter()
        .filter_map(|path| {
            let text = match path.split_last() {
                Some((last, targets)) if last == TEST_SETTINGS => test_settings(doc, targets),
                Some((last, profile)) if last == BEHAVIOUR => behaviour(doc, profile),
                _ => lookup_toml(doc, path)
                    .and_then(|v| serde_json::to_value(v).ok())
                    .map(|v| canonical(&v)),
            }?;
            Some((path.join("."), text))
        })
        .collect()
}

fn lookup_toml<'a>(doc: &'a toml::Table, path: &[String]) -> Option<&'a toml::Value> {
    let (first, rest) = path.split_first()?;
    rest.iter().try_fold(doc.get(first)?, |v, key| v.get(key))
}

/// The [`TEST_SETTINGS`] of the array of tables at `targets`; none when no entry sets any.
fn test_settings(doc: &toml::Table, targets: &[String]) -> Option<String> {
    const KEYS: [&str; 6] = ["name", "path", "test", "doctest", "harness", "required-features"];
    let bench = targets.last().is_some_and(|t| t == "bench");
    let mut entries: Vec<String> = lookup_toml(doc, targets)?
        .as_array()?
        .iter()
        .filter_map(toml::Value::as_table)
        .filter(|entry| {
            let set = |key: &str| entry.contains_key(key);
            set("test") || (!bench && (set("doctest") || set("harness") || set("required-features")))
        })
        .filter_map(|entry| {
            let kept: toml::Table = KEYS
                .iter()
                .filter_map(|k| Some((k.to_string(), entry.get(*k)?.clone())))
                .collect();
            serde_json::to_value(kept).ok().map(|v| canonical(&v))
        })
        .collect();
    // Sorted: the order of the entries does not matter to cargo.
    entries.sort();
    (!entries.is_empty()).then(|| entries.join("\n"))
}

/// The [`BEHAVIOUR`] of the build profile at `profile`: its table without [`SPEED_KEYS`], in it and in the tables
/// under `package` and `build-override`; none when nothing else is left.
fn behaviour(doc: &toml::Table, profile: &[String]) -> Option<String> {
    fn without_speed(table: &toml::Table) -> toml::Table {
        table
            .iter()
            .filter(|(key, _)| !SPEED_KEYS.contains(&key.as_str()))
            .filter_map(|(key, value)| {
                let kept = match (key.as_str(), value) {
                    ("build-override", toml::Value::Table(inner)) => toml::Value::Table(without_speed(inner)),
                    ("package", toml::Value::Table(packages)) => toml::Value::Table(
                        packages
                            .iter()
                            .filter_map(|(name, settings)| {
                                let settings = settings
                                    .as_table()
                                    .map_or_else(|| settings.clone(), |t| toml::Value::Table(without_speed(t)));
                                let empty = settings.as_table().is_some_and(toml::Table::is_empty);
                                (!empty).then(|| (name.clone(), settings))
                            })
                            .collect(),
                    ),
                    _ => value.clone(),
                };
                let empty = kept.as_table().is_some_and(toml::Table::is_empty);
                (!empty).then(|| (key.clone(), kept))
            })
            .collect()
    }
    let table = match lookup_toml(doc, profile)? {
        toml::Value::Table(table) => without_speed(table),
        other => return serde_json::to_value(other).ok().map(|v| canonical(&v)),
    };
    (!table.is_empty())
        .then(|| serde_json::to_value(table).ok().map(|v| canonical(&v)))
        .flatten()
}

/// JSON with object keys sorted (serde_json's map is a `BTreeMap`), so key order and spacing do not count.
fn canonical(value: &serde_json::Value) -> String {
    value.to_string()
}

/// The lines of each named section, trimmed, without blank and comment lines, nor the `free` keys with their
/// continuation lines (indented lines after them); an `options` key's value, with its continuation lines, as
/// the words of it that are not free (the key left out when none is). The [`PREAMBLE`] is a part whenever the
/// file exists.
fn ini_parts(names: &[String], free: &[String], options: &[OptionsKey], text: &str) -> Parts {
    let preamble = names.iter().find(|n| *n == PREAMBLE).map(String::as_str);
    let mut found: BTreeMap<&str, Vec<Cow<str>>> = BTreeMap::new();
    if let Some(name) = preamble {
        found.entry(name).or_default();
    }
    let mut current: Option<&str> = preamble;
    let mut in_free = false;
    // An options key being read: its section, its free options and its value's lines so far.
    let mut reading: Option<OptionsRead> = None;
    for raw in text.lines() {
        let line = raw.trim();
        let continuation = raw.starts_with([' ', '\t']) && !line.is_empty();
        if continuation && in_free {
            continue;
        }
        if continuation
            && !line.starts_with(['#', ';'])
            && let Some((_, _, lines)) = &mut reading
        {
            lines.push(line);
            continue;
        }
        if !continuation && !line.is_empty() && !line.starts_with(['#', ';']) {
            flush_options(reading.take(), &mut found);
            let (key, value) = line.split_once(['=', ':']).unwrap_or((line, ""));
            let key = key.trim();
            let in_section = current.filter(|c| *c != PREAMBLE && line.contains(['=', ':']));
            in_free = in_section.is_some() && free.iter().any(|f| f == key);
            if in_free {
                continue;
            }
            if let (Some(section), Some(options)) = (in_section, options.iter().find(|o| o.key == [key])) {
                reading = Some((section, options, vec![value.trim()]));
                continue;
            }
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let name = name.trim();
            current = names.iter().find(|n| *n == name).map(String::as_str);
            if let Some(name) = current {
                found.entry(name).or_default();
            }
            continue;
        }
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(name) = current {
            found.entry(name).or_default().push(Cow::Borrowed(line));
        }
    }
    flush_options(reading.take(), &mut found);
    let parts = found
        .into_iter()
        .map(|(name, lines)| (format!("[{name}]"), sha256(lines.join("\n").as_bytes())));
    if preamble.is_none() {
        return parts.collect();
    }
    // A file that counts by existing is one part: it was created, changed or deleted.
    let text: String = parts.map(|(label, digest)| format!("{label}\0{digest}\n")).collect();
    Parts::from([(WHOLE.to_string(), sha256(text.as_bytes()))])
}

/// The lines of a file of `key = value` lines ([`Scope::KeysBut`]) that are neither blank, a comment, nor a `free`
/// key's (or a `free` `key=value`'s), trimmed; an `options` key's line with only its sealed words, and left out when none is.
fn sealed_key_lines(text: &str, free: &[String], options: &[OptionsKey]) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with(['#', ';']))
        .filter_map(|line| {
            let (key, value) = line
                .split_once('=')
                .map_or((line, ""), |(key, value)| (key.trim(), value.trim()));
            if free
                .iter()
                .any(|entry| key_matches(entry, key) || entry.split_once('=') == Some((key, value)))
            {
                return None;
            }
            let Some(option) = options.iter().find(|o| o.key.len() == 1 && o.key[0] == key) else {
                return Some(line.to_string());
            };
            // npm's INI parser takes the quotes off a quoted value; node splits what is left into options.
            let value = ['"', '\'']
                .into_iter()
                .find_map(|quote| value.strip_prefix(quote)?.strip_suffix(quote))
                .unwrap_or(value);
            let words = super::options::shell_words(value).unwrap_or_else(|| vec![value.to_string()]);
            let sealed = super::options::sealed(&words, &option.free, false);
            (!sealed.is_empty()).then(|| format!("{key}={}", sealed.join(" ")))
        })
        .collect()
}

/// Whether a free key `entry` stands for `key`: itself, or, with one `*`, every key it matches (`@*:registry`).
fn key_matches(entry: &str, key: &str) -> bool {
    match entry.split_once('*') {
        Some((head, tail)) => key.len() >= head.len() + tail.len() && key.starts_with(head) && key.ends_with(tail),
        None => entry == key,
    }
}

/// An INI options key being read: its section, the key and its value's lines so far.
type OptionsRead<'a> = (&'a str, &'a OptionsKey, Vec<&'a str>);

/// Adds what an options key read whole seals to its section: one line of its sealed words, none when all are free.
fn flush_options<'a>(reading: Option<OptionsRead<'a>>, found: &mut BTreeMap<&'a str, Vec<Cow<'a, str>>>) {
    let Some((section, key, lines)) = reading else { return };
    let value = lines.join("\n");
    // Text that does not split is kept whole: pytest refuses it, and any change to it counts.
    let sealed = match super::options::shell_words(&value) {
        Some(words) => super::options::sealed(&words, &key.free, true),
        None => vec![value],
    };
    if !sealed.is_empty() {
        let line = format!("{} = {}", key.key.join("."), serde_json::Value::from(sealed));
        found.entry(section).or_default().push(Cow::Owned(line));
    }
}

fn sha256(bytes: &[u8]) -> String {
    fsutil::hex(&Sha256::digest(bytes))
}

/// How one sealed part moved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartChange {
    Added,
    Changed,
    Removed,
}

/// The parts that differ between `sealed` and `now`, by label; a part that may appear (`closure::units`) is
/// free to.
pub fn compare(sealed: &Parts, now: &Parts) -> Vec<(String, PartChange)> {
    let mut out: Vec<(String, PartChange)> = sealed
        .iter()
        .filter_map(|(label, digest)| match now.get(label) {
            None if digest == NOTHING_SEALED => None,
            None => Some((label.clone(), PartChange::Removed)),
            Some(d) if d != digest => Some((label.clone(), PartChange::Changed)),
            Some(_) => None,
        })
        .collect();
    out.extend(
        now.iter()
            .filter(|(label, digest)| {
                !sealed.contains_key(*label) && !digest.starts_with(super::units::ADDABLE) && *digest != NOTHING_SEALED
            })
            .map(|(label, _)| (label.clone(), PartChange::Added)),
    );
    out
}

/// [`compare`] for a resolved search ([`Resolving::also`]): a part of its second resolution (labelled with `also`
/// after the first's label) is left out where the first's same part moved the same way.
pub fn compare_also(sealed: &Parts, now: &Parts, also: &str) -> Vec<(String, PartChange)> {
    let changes = compare(sealed, now);
    if also.is_empty() {
        return changes;
    }
    let twice = |part: &str, change: &PartChange| {
        part.strip_suffix(also)
            .is_some_and(|first| changes.iter().any(|(p, c)| p == first && c == change))
    };
    changes.iter().filter(|(p, c)| !twice(p, c)).cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JavaScript rc is read as the literal it exports and as nothing else, a YAML file never as a literal: each
    /// text that one reading takes for free options alone while the runner reads a `require` from it counts.
    #[test]
    fn a_module_reads_only_as_its_literal_and_yaml_only_as_yaml() {
        let scope = Scope::JsonBut {
            paths: vec![Vec::new()],
            free: vec![vec!["timeout".to_string()], vec!["slow".to_string()]],
        };
        let read = |path: &str, text: &str| file_digests(path, &scope, Some(text.as_bytes()));
        assert!(seal_nothing(&read(
            ".mocharc.js",
            "module.exports = { timeout: 5000 };\n"
        )));
        assert!(seal_nothing(&read(".mocharc.yml", "timeout: 5000\nslow: 100\n")));
        for (path, text) in [
            // A labelled statement that runs the patch; as YAML, a mapping of `timeout` alone.
            (".mocharc.js", "timeout: require('./src/patch.js')\n"),
            // As JavaScript, a literal and a comment; as YAML (what mocha reads), a `require`.
            (
                ".mocharc.yaml",
                "module.exports = {timeout: 5000} /*\nrequire: ./src/patch.js #*/\n",
            ),
        ] {
            assert!(!seal_nothing(&read(path, text)), "{path}: {text}");
        }
    }

    /// A seal's closure as loopgate wrote it while `make` and `cmake` were variants of [`Scope`]: it still reads,
    /// its files read by the readers of those kinds, its digests compare, and it writes back as it was.
    #[test]
    fn a_closure_written_when_make_and_cmake_were_variants_reads_and_writes_back_the_same() {
        let cmake =
            "enable_testing()\nadd_executable(calc_test calc_test.cc)\nadd_test(NAME calc_test COMMAND calc_test)\n";
        let make = "test:\n\t./run-tests\n";
        let cmake_parts = digests(
            &Read::by(&crate::closure::cmake::READING, vec!["calc_test".into()]),
            Some(cmake.as_bytes()),
        );
        let make_parts = digests(
            &Read::by(&crate::closure::makefile::READING, vec!["test".into()]),
            Some(make.as_bytes()),
        );
        assert!(
            cmake_parts.contains_key("calc_test") && make_parts.contains_key("test:"),
            "{cmake_parts:?} {make_parts:?}"
        );
        let written = format!(
            r#"{{"files":[{{"path":"CMakeLists.txt","scope":{{"kind":"cmake","parts":["calc_test"]}},"why":{{"kind":"configures","what":"ctest"}},"parts":{}}},{{"path":"Makefile","scope":{{"kind":"make","parts":["test"]}},"why":{{"kind":"run_by","what":"make test"}},"parts":{}}},{{"path":"setup.cfg","scope":{{"kind":"ini","parts":["tool:pytest"]}},"why":{{"kind":"configures","what":"pytest"}},"parts":{{}}}}],"watches":[],"ecosystems":["cpp"],"runners":["ctest"]}}"#,
            serde_json::to_string(&cmake_parts).expect("json"),
            serde_json::to_string(&make_parts).expect("json"),
        );
        let closure: crate::closure::Closure = serde_json::from_str(&written).expect("an old closure reads");
        let [cmake_file, make_file, ini] = &closure.files[..] else {
            panic!("{closure:?}")
        };
        assert!(matches!(&cmake_file.scope, Scope::Read(read) if read.kind.is(&crate::closure::cmake::READING)));
        assert!(matches!(&make_file.scope, Scope::Read(read) if read.kind.is(&crate::closure::makefile::READING)));
        assert_eq!(ini.scope, Scope::Ini(vec!["tool:pytest".into()]));
        assert_eq!(digests(&cmake_file.scope, Some(cmake.as_bytes())), cmake_file.parts);
        assert_eq!(digests(&make_file.scope, Some(make.as_bytes())), make_file.parts);
        assert_eq!(cmake_file.scope.labels(), ["enable_testing()", "calc_test"]);
        assert_eq!(make_file.scope.labels(), ["test:"]);
        assert_eq!(serde_json::to_string(&closure).expect("json"), written);
    }

    /// Every reader's scope writes `{"kind": its kind, "parts": …}` and reads back as itself; a kind no variant
    /// or reader has is a clear error naming it.
    #[test]
    fn every_readers_scope_round_trips_by_its_kind_and_an_unknown_kind_is_refused() {
        assert!(crate::closure::READERS.len() >= 2);
        for reading in crate::closure::READERS {
            let scope = Read::by(reading, vec!["a".into(), "b c".into()]);
            let json = serde_json::to_string(&scope).expect("json");
            assert_eq!(json, format!(r#"{{"kind":"{}","parts":["a","b c"]}}"#, reading.kind));
            assert_eq!(serde_json::from_str::<Scope>(&json).expect(&json), scope);
        }
        let kinds: Vec<&str> = crate::closure::READERS.iter().map(|r| r.kind).collect();
        let unique: std::collections::BTreeSet<&&str> = kinds.iter().collect();
        assert_eq!(unique.len(), kinds.len(), "a kind claimed twice: {kinds:?}");
        assert!(serde_json::from_str::<Scope>(r#"{"kind":"nope","parts":[]}"#).is_err());
        assert_eq!(
            serde_json::to_string(&Scope::Whole).expect("json"),
            r#"{"kind":"whole"}"#
        );
    }

    fn keys(paths: &[&str]) -> Vec<Vec<String>> {
        paths
            .iter()
            .map(|p| p.split('.').map(str::to_string).collect())
            .collect()
    }

    fn moved(scope: &Scope, before: &str, after: &str) -> Vec<(String, PartChange)> {
        compare(
            &digests(scope, Some(before.as_bytes())),
            &digests(scope, Some(after.as_bytes())),
        )
    }

    const PACKAGE: &str = r#"{"name":"x","scripts":{"test":"jest","lint":"eslint ."},"dependencies":{"a":"1"}}"#;

    /// A file of keys is sealed line by line but for its free keys (however spaced, between comments); one of free
    /// keys alone is as if absent, and any other key, or a free key's name hidden in another's, counts.
    #[test]
    fn a_file_of_keys_is_sealed_but_for_its_free_keys() {
        let scope = Scope::KeysBut {
            free: ["fund", "audit", "@*:registry", "//*", "script-shell=/bin/bash"]
                .map(str::to_string)
                .to_vec(),
            options: vec![OptionsKey {
                key: vec!["node-options".to_string()],
                free: vec!["--max-old-space-size=*".to_string()],
            }],
        };
        for (before, after) in [
            (None, "fund=false\n; quiet\naudit = false\n"),
            (None, "script-shell = /bin/bash\n"),
            (Some("registry=https://a\n"), "# x\nregistry=https://a\nfund=false\n"),
            (
                None,
                "@acme:registry=https://r.example/\n//r.example/:_authToken=${TOKEN}\n",
            ),
            (
                None,
                "node-options=--max-old-space-size=4096\nnode-options = \"--max-old-space-size 512\"\n",
            ),
        ] {
            let now = digests(&scope, Some(after.as_bytes()));
            assert_eq!(
                compare(&digests(&scope, before.map(str::as_bytes)), &now),
                vec![],
                "{after}"
            );
        }
        for gaming in [
            "fund=false\nscript-shell=./pass\n",
            "node-options = --require ./x.js\n",
            "fundx=false\n",
            "[fund]\nscript-shell=./pass\n",
            "@acme:registry=https://r.example/\n@acme:script-shell=./pass\n",
            "/script-shell=./pass\n",
            "node-options=--max-old-space-size=4096 --require ./x.js\n",
            "node-options=--test-only\n",
            "node-options=--require --max-old-space-size=4096\n",
            "script-shell=/bin/bash/../true\n",
            "script-shell=/bin/bash -e\n",
            "script-shell\n",
        ] {
            let now = digests(&scope, Some(gaming.as_bytes()));
            assert!(!compare(&digests(&scope, None), &now).is_empty(), "{gaming}");
        }
    }

    /// An options file is sealed word by word but for its free options (however spelled), which never stand in
    /// for the value of an option before them; one of free options alone is as if absent.
    #[test]
    fn an_options_file_is_sealed_but_for_its_free_options() {
        let scope = Scope::Options {
            free: ["--color", "--format=documentation", "-fd"]
                .map(str::to_string)
                .to_vec(),
        };
        let base = "--require spec_helper\n";
        for honest in [
            "--require spec_helper\n--format documentation\n",
            "# shown to people\n--color --require spec_helper --format=documentation\n-fd\n",
        ] {
            assert_eq!(moved(&scope, base, honest), vec![], "{honest}");
        }
        for gaming in [
            "--require spec_helper\n--tag ~slow\n",
            "--require --color spec_helper\n",
            "--require spec_helper\n--format CalcFormatter\n",
        ] {
            assert_eq!(
                moved(&scope, base, gaming),
                vec![(WHOLE.to_string(), PartChange::Changed)],
                "{gaming}"
            );
        }
        assert_eq!(digests(&scope, Some(b"--color\n-fd\n")), Parts::new());
    }

    #[test]
    fn json_keys_outside_the_scope_may_change() {
        let scope = Scope::Json(keys(&["scripts.test", "scripts.pretest", "jest"]));
        let after = r#"{
            "dependencies": {"a": "1", "left-pad": "^1.3.0"},
            "scripts": {"lint": "eslint src", "test": "jest"},
            "name": "x"
        }"#;
        assert_eq!(moved(&scope, PACKAGE, after), vec![]);
    }

    #[test]
    fn json_keys_in_the_scope_are_named_when_they_move() {
        let scope = Scope::Json(keys(&["scripts.test", "scripts.pretest", "jest"]));
        let after = r#"{"scripts":{"test":"exit 0","pretest":"x"},"jest":{"bail":true}}"#;
        assert_eq!(
            moved(&scope, PACKAGE, after),
            vec![
                ("scripts.test".to_string(), PartChange::Changed),
                ("jest".to_string(), PartChange::Added),
                ("scripts.pretest".to_string(), PartChange::Added),
            ]
        );
        let gone = moved(&scope, PACKAGE, r#"{"scripts":{}}"#);
        assert_eq!(gone, vec![("scripts.test".to_string(), PartChange::Removed)]);
    }

    #[test]
    fn a_file_that_stops_parsing_moves_every_part() {
        let scope = Scope::Json(keys(&["scripts.test"]));
        let moves = moved(&scope, PACKAGE, "{ not json");
        assert!(moves.contains(&("scripts.test".to_string(), PartChange::Removed)));
        assert!(moves.contains(&(UNPARSABLE.to_string(), PartChange::Added)));
    }

    #[test]
    fn toml_tables_are_compared_by_value_not_by_text() {
        let scope = Scope::Toml(keys(&["tool.pytest", "lib"]));
        let before = "[project]\nname = \"x\"\n\n[tool.pytest.ini_options]\naddopts = \"-q\"\n";
        let reformatted = "[tool.pytest.ini_options]\naddopts   =   \"-q\"   # quiet\n[project]\nname = \"x\"\ndependencies = [\"requests\"]\n";
        assert_eq!(moved(&scope, before, reformatted), vec![]);
        let gamed = "[project]\nname = \"x\"\n[tool.pytest.ini_options]\naddopts = \"-q -k 'not slow'\"\n";
        assert_eq!(
            moved(&scope, before, gamed),
            vec![("tool.pytest".to_string(), PartChange::Changed)]
        );
    }

    /// A runner's `package.json` key is judged without its free options: a key of them alone is as if absent, an
    /// option beside them that changes the run counts; merged with the scripts' reading, both stay.
    #[test]
    fn a_json_key_of_free_options_alone_is_as_if_absent() {
        let mocha = Scope::JsonBut {
            paths: keys(&["mocha"]),
            free: keys(&["mocha.slow", "mocha.diff"]),
        };
        let bare = "{\"name\": \"calc\"}";
        let slow = "{\"name\": \"calc\", \"mocha\": {\"slow\": 300, \"diff\": false}}";
        assert_eq!(moved(&mocha, bare, slow), vec![]);
        let required = "{\"name\": \"calc\", \"mocha\": {\"slow\": 300, \"require\": \"./patch.js\"}}";
        assert_eq!(
            moved(&mocha, bare, required),
            vec![("mocha".to_string(), PartChange::Added)]
        );
        assert_eq!(moved(&mocha, "not json", slow).len(), 1, "an unparsable file moves");
        // The same keys in YAML (`.mocharc.yml`) read the same.
        let rc = Scope::JsonBut {
            paths: vec![Vec::new()],
            free: keys(&["slow", "timeout"]),
        };
        assert_eq!(moved(&rc, "{}", "slow: 300\ntimeout: 5000\n"), vec![]);
        assert_eq!(moved(&rc, "slow: 300\n", "slow: 300\nretries: 1\n").len(), 1);
        assert_eq!(
            moved(&rc, "slow: 300\n", "- not a mapping\n").len(),
            1,
            "a YAML list is unparsable"
        );
        // YAML's own ways to spell a key (a merge, a quoted escape, a duplicate) do not hide one that counts.
        for hidden in [
            "<<: {retries: 1}\n",
            "\"re\\x74ries\": 1\n",
            "slow: 300\nslow: 400\nretries: 1\n",
        ] {
            assert_eq!(moved(&rc, "slow: 300\n", hidden).len(), 1, "{hidden}");
        }

        let mut scope = Scope::Json(keys(&["scripts.test"]));
        scope.merge(mocha.clone());
        assert_eq!(
            scope,
            Scope::JsonBut {
                paths: keys(&["scripts.test", "mocha"]),
                free: keys(&["mocha.slow", "mocha.diff"]),
            }
        );
        // A reading that seals the whole key takes its options back.
        scope.merge(Scope::Json(keys(&["mocha"])));
        assert_eq!(scope, Scope::Json(keys(&["scripts.test", "mocha"])));
    }

    /// An option set to the runner's default is as if absent (`parts::IF_EQUAL`); set to anything else, or beside
    /// an option that counts, it is named.
    #[test]
    fn an_option_set_to_the_runners_default_is_as_if_absent() {
        let default =
            |option: &str, value: &str| vec!["jest".to_string(), option.to_string(), format!("{IF_EQUAL}{value}")];
        let jest = Scope::JsonBut {
            paths: keys(&["jest"]),
            free: vec![
                default("testEnvironment", "\"node\""),
                default("testEnvironment", "\"jest-environment-node\""),
                default("clearMocks", "false"),
                default("roots", "[\"<rootDir>\"]"),
            ],
        };
        let bare = "{\"name\": \"calc\"}";
        for honest in [
            "{\"name\": \"calc\", \"jest\": {\"testEnvironment\": \"node\"}}",
            "{\"jest\": {\"testEnvironment\": \"jest-environment-node\", \"clearMocks\": false}, \"name\": \"calc\"}",
            "{\"name\": \"calc\", \"jest\": {\"roots\": [\"<rootDir>\"]}}",
        ] {
            assert_eq!(moved(&jest, bare, honest), vec![], "{honest}");
        }
        for counts in [
            "{\"name\": \"calc\", \"jest\": {\"testEnvironment\": \"jsdom\"}}",
            "{\"name\": \"calc\", \"jest\": {\"testEnvironment\": \"./src/env.js\"}}",
            "{\"name\": \"calc\", \"jest\": {\"clearMocks\": true}}",
            "{\"name\": \"calc\", \"jest\": {\"roots\": [\"<rootDir>/src\"]}}",
            "{\"name\": \"calc\", \"jest\": {\"testEnvironment\": \"node\", \"setupFiles\": [\"./patch.js\"]}}",
        ] {
            assert_eq!(
                moved(&jest, bare, counts),
                vec![("jest".to_string(), PartChange::Added)],
                "{counts}"
            );
        }
    }

    /// Key by key: a free key moves nothing, a sealed key beside it does; a document of free keys alone is no
    /// configuration, a section of free keys alone is still a section.
    #[test]
    fn free_keys_move_nothing_and_the_keys_beside_them_still_count() {
        let cargo = Scope::TomlBut {
            paths: vec![Vec::new(), vec!["alias".into(), "test".into()]],
            free: vec![vec!["alias".into()], vec!["term".into()]],
            options: Vec::new(),
        };
        let aliases = "[alias]\nt2 = \"test -q\"\n[term]\ncolor = \"never\"\n";
        // It exists, and nothing of it is sealed: a key that counts added to it is its change, not its creation.
        assert_eq!(
            digests(&cargo, Some(aliases.as_bytes())),
            Parts::from([(WHOLE.to_string(), NOTHING_SEALED.to_string())])
        );
        let runner = format!("{aliases}[target.x86_64-unknown-linux-gnu]\nrunner = \"true\"\n");
        assert_eq!(
            moved(&cargo, aliases, &runner),
            vec![(WHOLE.to_string(), PartChange::Changed)]
        );
        // Created with a key that counts, it was created; created or removed with free keys alone, nothing moved.
        let created = compare(&digests(&cargo, None), &digests(&cargo, Some(runner.as_bytes())));
        assert_eq!(created, vec![(WHOLE.to_string(), PartChange::Added)]);
        for (before, after) in [(None, Some(aliases)), (Some(aliases), None)] {
            let (before, after) = (before.map(str::as_bytes), after.map(str::as_bytes));
            assert_eq!(compare(&digests(&cargo, before), &digests(&cargo, after)), vec![]);
        }
        let shadow = "[term]\ncolor = \"never\"\n[alias]\ntest = \"check\"\n";
        assert_eq!(
            moved(&cargo, aliases, shadow),
            vec![("alias.test".to_string(), PartChange::Added)]
        );

        let pytest = Scope::IniBut {
            sections: vec!["tool:pytest".into()],
            free: vec!["markers".into()],
            options: Vec::new(),
        };
        let before = "[tool:pytest]\ntestpaths = tests\n";
        let marked = "[tool:pytest]\ntestpaths = tests\nmarkers =\n    slow: slow tests\n    db: needs a db\n";
        assert_eq!(moved(&pytest, before, marked), vec![]);
        let narrowed = format!("{marked}addopts = -k 'not add'\n");
        assert_eq!(
            moved(&pytest, before, &narrowed),
            vec![("[tool:pytest]".to_string(), PartChange::Changed)]
        );
        assert_eq!(
            moved(&pytest, "", "[tool:pytest]\nmarkers = slow\n"),
            vec![("[tool:pytest]".to_string(), PartChange::Added)]
        );
    }

    #[test]
    fn ini_sections_ignore_comments_blank_lines_and_other_sections() {
        let scope = Scope::Ini(vec!["tool:pytest".into()]);
        let before = "[metadata]\nname = x\n\n[tool:pytest]\ntestpaths = tests\n";
        let honest = "[metadata]\nname = y\nversion = 2\n\n[tool:pytest]\n# where tests live\ntestpaths = tests\n\n";
        assert_eq!(moved(&scope, before, honest), vec![]);
        let gamed = "[metadata]\nname = x\n[tool:pytest]\ntestpaths = tests\naddopts = --deselect tests/test_a.py\n";
        assert_eq!(
            moved(&scope, before, gamed),
            vec![("[tool:pytest]".to_string(), PartChange::Changed)]
        );
        let added = moved(&scope, "[metadata]\nname = x\n", "[tool:pytest]\naddopts = -x\n");
        assert_eq!(added, vec![("[tool:pytest]".to_string(), PartChange::Added)]);
    }

    #[test]
    fn whole_files_and_absent_files() {
        let scope = Scope::Whole;
        assert_eq!(moved(&scope, "a", "a"), vec![]);
        assert_eq!(moved(&scope, "a", "b"), vec![(WHOLE.to_string(), PartChange::Changed)]);
        let created = compare(&digests(&scope, None), &digests(&scope, Some(b"x")));
        assert_eq!(created, vec![(WHOLE.to_string(), PartChange::Added)]);
        let deleted = compare(&digests(&scope, Some(b"x")), &digests(&scope, None));
        assert_eq!(deleted, vec![(WHOLE.to_string(), PartChange::Removed)]);
    }

    #[test]
    fn merging_scopes() {
        let mut scope = Scope::Json(keys(&["scripts.test"]));
        scope.merge(Scope::Json(keys(&["jest", "scripts.test"])));
        assert_eq!(scope, Scope::Json(keys(&["scripts.test", "jest"])));
        scope.merge(Scope::Whole);
        assert_eq!(scope, Scope::Whole);
        let mut mixed = Scope::Ini(vec!["pytest".into()]);
        mixed.merge(Scope::Toml(keys(&["tool.tox"])));
        assert_eq!(mixed, Scope::Whole);
    }
}
