//! The persisted vocabulary: types that the state file, the seal and the history records hold, and that
//! behaviour modules (checkpoints, the ratchet, the Stop hook, the messages) share. A schema module imports no
//! behaviour: whatever it holds can be read by every layer above it without an import circle (see
//! `tests/architecture.rs` and `ARCHITECTURE.md`).

mod env_reads;
mod holdout;
mod ranges;
mod review;

pub use env_reads::EnvReads;
pub use holdout::{Holdout, HoldoutRestored};
pub use review::{DEFAULT_REVIEW_TIMEOUT, ReviewBy, ReviewCli, ReviewNote, ReviewVerdict, Reviewer};

use serde::{Deserialize, Serialize};

include!(concat!(env!("OUT_DIR"), "/ecosystem/schema.rs"));

/// Language of everything loopgate tells the model and the user (`--lang en|zh`; the state field `lang`).
/// Not to be confused with a programming language ([`Lang`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Speech {
    #[default]
    En,
    Zh,
}

// `Lang`, a programming language whose tests loopgate reads: an ecosystem a verify command runs tests in (the
// closure derives them from the command and the seal keeps them), and the language of a test file (the test
// scanner and the inventory read it). Not to be confused with the language loopgate speaks ([`Speech`]). It is
// declared by `build.rs` in the generated file included above, a variant per `lang:RANK:Variant` of
// `src/ecosystem/ECOSYSTEMS` (what each language's files are: its folder's `schema.rs`). Its declaration order,
// the ranks', is the order the seal lists a command's ecosystems in (a sorted set); its serde keys are the ones
// those lines name, which seals store.

/// What is known of a language's files, in its ecosystem's folder (`src/ecosystem/<name>/schema.rs`).
struct LangFiles {
    lang: Lang,
    /// The extensions of its files.
    extensions: &'static [&'static str],
    /// Whether a test file of it that is new since setup sits out the oracle's run ([`Lang::new_tests_sit_out`]).
    new_tests_sit_out: bool,
    /// What a new test file of it that sits out stands as in the oracle's run ([`Lang::stand_in`]): a unit of the
    /// language that defines no test, or `None` where its runners fail on such a unit and no manifest of its
    /// ecosystem names a test file.
    stand_in: Option<&'static str>,
}

/// Every language's files: each registered folder's `schema.rs`, in the registration's order
/// (`src/ecosystem/ECOSYSTEMS`), which is the order the test inventory reads them in ([`Lang::ALL`]).
const LANGS: [&LangFiles; LANG_COUNT] = each_schema!(&FILES);

/// How many languages are registered: one per folder with a `schema.rs`, counted by `build.rs`.
const LANG_COUNT: usize = each_schema!(&FILES).len();

impl Lang {
    /// Every language, in the order the test inventory reads them when the verify command names none.
    pub const ALL: [Lang; LANG_COUNT] = {
        let mut all = [LANGS[0].lang; LANG_COUNT];
        let mut i = 0;
        while i < LANGS.len() {
            all[i] = LANGS[i].lang;
            i += 1;
        }
        all
    };

    /// Whether a test file of this language that is new since setup sits out the oracle's run (`testswap`); a
    /// language whose build names every test source does not (see its ecosystem's `schema.rs`).
    pub fn new_tests_sit_out(self) -> bool {
        LANGS
            .iter()
            .find(|files| files.lang == self)
            .is_none_or(|files| files.new_tests_sit_out)
    }

    /// What a new test file of this language stands as in the oracle's run while the agent's version sits out
    /// (`oracle::world::sealed::plan`): a unit that defines no test and does nothing, or `None` where the file is
    /// simply absent from the run.
    ///
    /// Why: a sitting-out test was only ever *absent*, and a manifest that names the file (Cargo's `[[test]]
    /// path`, PHPUnit's `<file>`, a Makefile prerequisite) then fails the whole run on a missing file — though the
    /// entry naming it is honest and the seal lets it through. A stand-in keeps the name and drops what it runs,
    /// for every manifest at once: the new test still cannot run a line of the agent's in the oracle's run (so it
    /// cannot change a sealed test's outcome, principle 1), and nothing has to read each manifest for the entries
    /// that name new files. `None` where the language's runners refuse a unit with no test (jest, vitest) or its
    /// compiler one without its package clause (Go): there nothing names a test file, and absence is harmless.
    pub fn stand_in(self) -> Option<&'static str> {
        LANGS
            .iter()
            .find(|files| files.lang == self)
            .and_then(|files| files.stand_in)
    }

    /// The language of a file, by its extension; `None` for anything else.
    pub fn of(path: &std::path::Path) -> Option<Lang> {
        Lang::of_extension(path.extension()?.to_str()?)
    }

    /// The language whose files have the extension `ext` (`py`, without the dot).
    pub fn of_extension(ext: &str) -> Option<Lang> {
        LANGS
            .iter()
            .find(|files| files.extensions.contains(&ext))
            .map(|files| files.lang)
    }
}

/// A check on the oracle's inputs that setup turns on by default and the user may opt out of
/// (`--no-closure-seal`, `--no-test-seal`, `--no-count-ratchet`, `--no-skip-check`,
/// `--no-test-awareness-check`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    /// The files that define what the verify command runs (`package.json` scripts, `pytest.ini`, …).
    Closure,
    /// The existing tests: edits to them are rejected; new tests are welcome.
    Tests,
    /// A passing verify must run at least as many tests, and skip no more, than the most this loop has seen.
    Counts,
    /// Skip / ignore / xfail / only markers added, and tests deleted.
    Skips,
    /// A pass must run and pass every test that ran at baseline, by name (see `testjudge::baseline`).
    ByName,
    /// The agent's new test files sit out the oracle's run (see `testswap`); off with `--with-new-tests`.
    NewTestsAside,
    /// New code under test that knows it is being tested, or reads the tests (see `aware`).
    TestAwareness,
}

/// Where a sealed input of the oracle comes from: what `loopgate status` says of each file and what a
/// rejection's history record is grouped by (see `inputs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// A file a `--seal GLOB` the user gave matched.
    UserGlob,
    /// A file the derivation names for the verify command: its scripts, its runner's configuration.
    Derived,
    /// A file the traced baseline run read, ran or looked for (or a directory it searched).
    Observed,
    /// An existing test file, sealed test by test.
    Test,
    /// Test data beside the tests (a snapshot, a golden file, a case table), which stands as sealed in the
    /// oracle's run.
    TestData,
    /// The code under test, whose traces of the test run are checked (see `aware`); it seals no file.
    Code,
}

impl Source {
    /// The name `status` prints and `status --json` writes.
    pub fn label(self) -> &'static str {
        match self {
            Source::UserGlob => "user glob",
            Source::Derived => "derived",
            Source::Observed => "observed",
            Source::Test => "test",
            Source::TestData => "test data",
            Source::Code => "code under test",
        }
    }
}

/// A driver other than the Stop hook: `driver: {kind: run, pid: 4242}` for `loopgate run` (its process id, so
/// `status` can say whether it still runs and a loop left behind by a killed `run` can be told from a live one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Driver {
    Run { pid: u32 },
}

// The checkpoint track (behaviour in `checkpoint`).

/// Which iteration checkpoints are kept when the loop ends (`--keep-checkpoints`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Keep {
    /// The start (`0`), the last one and the one with the best verify result.
    #[default]
    Best,
    /// Every one.
    All,
    /// None of them (saves made by a rollback are always kept).
    None,
}

/// A loop's checkpoint settings and progress, kept in its seal (absent: checkpoints are off).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Track {
    pub keep: Keep,
    /// The latest checkpoint taken, reused while the working tree does not change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last: Option<Taken>,
    /// Iterations after `last` whose tree did not change: their checkpoint is `last`'s commit, and their refs
    /// are not written yet (see the module's invariants).
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "ranges")]
    pub unwritten: Vec<u64>,
}

/// One checkpoint taken at a stop.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Taken {
    pub iteration: u64,
    pub commit: String,
    /// The working-tree fingerprint (`treeprobe`) when it was taken, if the loop takes fingerprints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
}

// The test-count ratchet's record (behaviour in `testjudge::ratchet`).

/// The best test counts a loop has seen. Fields missing from an older seal read as "not seen".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Best {
    /// The most tests any verify of the loop ran (passed + failed).
    pub most_ran: Option<u64>,
    /// The fewest tests a passing verify of the loop skipped (skipped + ignored).
    pub fewest_skipped: Option<u64>,
}

impl Best {
    /// Nothing recorded yet (no verify printed counts).
    pub fn is_unset(&self) -> bool {
        *self == Best::default()
    }
}

/// Which count moved the wrong way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Count {
    /// Fewer tests ran than the most seen.
    Ran,
    /// More tests were skipped or ignored than the fewest seen.
    Skipped,
}

/// One count that moved the wrong way: the best seen, and now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MovedCount {
    pub count: Count,
    pub best: u64,
    pub now: u64,
}

// The Stop hook's own records in the seal (behaviour in `stop::block_cap` and `stop::duplicate`).

/// loopgate's last block, kept in the seal until the turn comes back to a Stop.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingBlock {
    /// The `prompt_id` of the stop that blocked, when Claude Code sent one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_id: Option<String>,
    /// Blocks in a row with no tool call in between, this one included.
    pub without_tool: u64,
}

/// The last stop the loop decided, in the seal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastStop {
    pub key: String,
    /// When the stop took the loop (ns since the epoch).
    pub arrived_ns: i128,
    /// When its decision was made; `None` while it is being made (a verify running).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_ns: Option<i128>,
}

// Cost receipts (behaviour in `cost`).

/// What one run of the agent used and cost, as its own JSON output reported the usage.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Receipt {
    /// Input tokens not read from the prompt cache.
    #[serde(default)]
    pub tokens_in: u64,
    #[serde(default)]
    pub tokens_out: u64,
    #[serde(default)]
    pub cache_read: u64,
    #[serde(default)]
    pub cache_write: u64,
    /// The model(s) the usage was reported for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub models: Vec<String>,
    /// Dollars: priced by the table where it knows every model, else what the agent reported; absent when
    /// neither could say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
}

// The verify command's own report (`--report`; behaviour in `oracle`).

/// A structured report the verify command writes itself, which the verdict reads test by test (`--report
/// junit:PATH`): for a runner loopgate has no reader of its own for. Persisted as its flag's value, `junit:PATH`,
/// `PATH` relative to the project.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct VerifyReport {
    /// Where the run writes it, relative to the project (`/`-separated, no `..`).
    pub path: String,
}

impl VerifyReport {
    /// The kinds of report `--report` takes (the part before the `:`).
    pub const KINDS: [&str; 1] = ["junit"];

    /// The flag's value `text` for the project at `root`: `junit:PATH`, `PATH` relative to the project or an
    /// absolute path inside it. The error says what to give.
    pub fn parse(text: &str, root: Option<&std::path::Path>) -> Result<VerifyReport, String> {
        let Some((kind, path)) = text.split_once(':') else {
            return Err(format!(
                "give the kind of report and its path, e.g. `junit:build/test-results.xml` (kinds: {})",
                Self::KINDS.join(", ")
            ));
        };
        if !Self::KINDS.contains(&kind) {
            return Err(format!(
                "`{kind}` is not a kind of report loopgate reads: give `junit:PATH` (the JUnit XML the verify command writes)"
            ));
        }
        let path = path.trim();
        if path.is_empty() {
            return Err(
                "no path after `junit:`: give where the verify command writes its JUnit XML, relative to the project, e.g. `junit:build/test-results.xml`"
                    .to_string(),
            );
        }
        let given = std::path::Path::new(path);
        let relative = if given.is_absolute() {
            let inside = root.and_then(|root| {
                let canonical = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
                given
                    .strip_prefix(root)
                    .or_else(|_| given.strip_prefix(&canonical))
                    .ok()
                    .map(std::path::Path::to_path_buf)
            });
            inside.ok_or_else(|| {
                format!("`{path}` is outside the project: give the report's path relative to the project")
            })?
        } else {
            given.to_path_buf()
        };
        let mut parts = Vec::new();
        for part in relative.components() {
            match part {
                std::path::Component::Normal(name) => parts.push(name.to_string_lossy().into_owned()),
                std::path::Component::CurDir => {}
                _ => {
                    return Err(format!(
                        "`{path}` leaves the project: give the report's path inside it, relative to the project"
                    ));
                }
            }
        }
        if parts.is_empty() {
            return Err(format!(
                "`{path}` names the project itself: give the report file's path"
            ));
        }
        Ok(VerifyReport { path: parts.join("/") })
    }
}

impl std::fmt::Display for VerifyReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "junit:{}", self.path)
    }
}

impl From<VerifyReport> for String {
    fn from(report: VerifyReport) -> String {
        report.to_string()
    }
}

impl TryFrom<String> for VerifyReport {
    type Error = String;

    fn try_from(text: String) -> Result<Self, String> {
        VerifyReport::parse(&text, None)
    }
}

#[cfg(test)]
mod lang_tests {
    use super::*;

    /// Every language is registered once, in the inventory's order, and no extension is claimed twice.
    #[test]
    fn every_language_is_registered_once_and_claims_its_own_extensions() {
        assert_eq!(
            Lang::ALL,
            [
                Lang::Python,
                Lang::JavaScript,
                Lang::Rust,
                Lang::Go,
                Lang::Shell,
                Lang::Cpp,
                Lang::Ruby,
                Lang::Php,
                Lang::Java,
            ]
        );
        let mut seen = std::collections::BTreeSet::new();
        for files in LANGS {
            for ext in files.extensions {
                assert!(seen.insert(*ext), "`.{ext}` is claimed twice");
                let path = format!("src/x.{ext}");
                assert_eq!(Lang::of(std::path::Path::new(&path)), Some(files.lang), "{path}");
            }
        }
        assert_eq!(Lang::of(std::path::Path::new("README.md")), None);
        assert_eq!(Lang::of(std::path::Path::new("Makefile")), None);
        let taking_part: Vec<Lang> = Lang::ALL.into_iter().filter(|l| !l.new_tests_sit_out()).collect();
        assert_eq!(taking_part, [Lang::Cpp], "new tests of these take part in the run");
        let absent: Vec<Lang> = Lang::ALL
            .into_iter()
            .filter(|l| l.new_tests_sit_out() && l.stand_in().is_none())
            .collect();
        assert_eq!(
            absent,
            [Lang::JavaScript, Lang::Go, Lang::Java],
            "new tests of these sit out as absent files: no manifest of theirs names a test file"
        );
    }

    /// The variants' order (`Ord`: the order a seal lists a command's ecosystems in) and their stored keys,
    /// pinned, so that declaring the enum from the ranks of `src/ecosystem/ECOSYSTEMS` keeps both.
    #[test]
    fn the_languages_keep_their_ranked_order_and_stored_keys() {
        let mut ordered = Lang::ALL;
        ordered.sort();
        let names: Vec<String> = ordered.iter().map(|lang| format!("{lang:?}")).collect();
        assert_eq!(
            names,
            [
                "Rust",
                "Python",
                "JavaScript",
                "Go",
                "Shell",
                "Cpp",
                "Ruby",
                "Php",
                "Java"
            ]
        );
        assert_eq!(
            serde_json::to_string(&ordered).expect("serialize"),
            r#"["rust","python","js","go","shell","cpp","ruby","php","java"]"#
        );
        for lang in ordered {
            let key = serde_json::to_string(&lang).expect("serialize");
            assert_eq!(serde_json::from_str::<Lang>(&key).expect("read back"), lang, "{key}");
        }
    }
}
