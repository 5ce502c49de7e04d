//! The oracle's sealed inputs in `loopgate status`: which checks are on, and every sealed input by where it
//! comes from (user glob, derived, observed, test, test data) and why (`inputs::Inputs::describe`). Read from
//! the seal and its companion files, never from the state file.

use serde::{Serialize, Serializer};

use crate::closure::observed::Tracing;
use crate::inputs::{Described, Inputs};
use crate::schema::{Check, Source};
use crate::seal::Seal;

/// The `oracle_inputs` object of `status --json`: the checks, every sealed file (`inputs`, each with its
/// `source` and `why`), the derived closure alone (`closure`, as before), how the baseline was traced
/// (`observed`) and how many test files are sealed.
#[derive(Debug, Serialize)]
pub(super) struct InputsReport {
    checks: Checks,
    inputs: Vec<FileReport>,
    closure: Vec<FileReport>,
    observed: ObservedReport,
    test_files: usize,
}

/// Which checks of the oracle's inputs are on (all are, unless opted out at setup).
#[derive(Debug, Serialize)]
struct Checks {
    closure: bool,
    tests: bool,
    counts: bool,
    skips: bool,
    test_awareness: bool,
}

impl Checks {
    /// The names of the checks turned off, in the JSON's order.
    fn off(&self) -> Vec<&'static str> {
        [
            ("closure", self.closure),
            ("tests", self.tests),
            ("counts", self.counts),
            ("skips", self.skips),
            ("test_awareness", self.test_awareness),
        ]
        .into_iter()
        .filter(|(_, on)| !on)
        .map(|(name, _)| name)
        .collect()
    }
}

/// How the baseline run was traced, and what the trace sealed.
#[derive(Debug, Serialize)]
#[serde(tag = "tracing", rename_all = "snake_case")]
enum ObservedReport {
    Traced {
        events: u64,
        files: Vec<FileReport>,
        searched_dirs: usize,
        used_modules: usize,
    },
    Unavailable {
        why: String,
    },
    /// No traced baseline run (`--no-baseline`).
    NotRun,
}

/// One sealed file in the JSON: path, source, which parts are sealed, why, and whether it existed.
#[derive(Debug, Serialize)]
struct FileReport {
    path: String,
    source: Source,
    /// `"whole"`, or the labels of the sealed parts.
    #[serde(serialize_with = "parts_or_whole")]
    sealed: Vec<String>,
    why: String,
    exists: bool,
}

fn parts_or_whole<S: Serializer>(parts: &Vec<String>, serializer: S) -> Result<S::Ok, S::Error> {
    if parts.is_empty() {
        serializer.serialize_str("whole")
    } else {
        parts.serialize(serializer)
    }
}

/// The inputs of a loop's report.
pub(super) fn report(seal: &Seal, inputs: &Inputs) -> InputsReport {
    let f = &seal.fields;
    let described = inputs.describe(&|check| f.checks(check));
    let of = |source: Source| described.iter().filter(move |d| d.source == source).map(file);
    let observed = match inputs.observed.as_ref().map(|o| (o, &o.tracing)) {
        Some((o, Tracing::Traced { events })) => ObservedReport::Traced {
            events: *events,
            files: of(Source::Observed).collect(),
            searched_dirs: o.searched.len(),
            used_modules: o.used.len(),
        },
        Some((_, Tracing::Unavailable { why })) => ObservedReport::Unavailable { why: why.clone() },
        _ => ObservedReport::NotRun,
    };
    InputsReport {
        checks: Checks {
            closure: f.checks(Check::Closure),
            tests: f.checks(Check::Tests),
            counts: f.checks(Check::Counts),
            skips: f.checks(Check::Skips),
            test_awareness: f.checks(Check::TestAwareness),
        },
        inputs: described.iter().map(file).collect(),
        closure: of(Source::Derived).collect(),
        observed,
        test_files: inputs.tests.names.len(),
    }
}

fn file(d: &Described) -> FileReport {
    let why = match &d.why {
        Some(why) => crate::messages::breach::why(crate::schema::Speech::En, why),
        None => source_why(d.source).to_string(),
    };
    FileReport {
        path: d.path.clone(),
        source: d.source,
        sealed: d.parts.clone(),
        why,
        exists: d.exists,
    }
}

/// Why a file of a source that says it alone is sealed.
fn source_why(source: Source) -> &'static str {
    match source {
        Source::UserGlob => "a `--seal` glob matches it",
        Source::Test => "it holds existing tests, sealed test by test",
        Source::TestData => "test data: the oracle's run uses it as sealed",
        Source::Code => "code under test: new traces of the test run in it are rejected",
        Source::Derived | Source::Observed => "",
    }
}

/// The lines `status` prints for the inputs, one block per source (none when no check applies).
pub(super) fn render(report: &InputsReport) -> String {
    let mut out = String::new();
    let off = report.checks.off();
    if !off.is_empty() {
        out.push_str(&format!("\n  checks off:  {} (opted out at setup)", off.join(", ")));
    }
    if report.checks.closure {
        out.push_str(&render_derived(&report.closure));
        out.push_str(&render_observed(&report.observed));
    }
    out.push_str(&render_tests(report));
    out
}

/// The `derived:` block: each existing file of the derived closure with its sealed parts and why, then how
/// many must stay absent.
fn render_derived(files: &[FileReport]) -> String {
    let mut out = String::new();
    let (mut existing, absent): (Vec<&FileReport>, Vec<&FileReport>) = files.iter().partition(|f| f.exists);
    // The project's own files first, then those outside it (`~/.npmrc`).
    existing.sort_by_key(|f| f.path.starts_with('/'));
    let label = |first: bool| if first { "  derived:     " } else { "               " };
    for (i, file) in existing.iter().enumerate() {
        let parts = if file.sealed.is_empty() {
            String::new()
        } else {
            format!(" [{}]", file.sealed.join(", "))
        };
        out.push_str(&format!("\n{}{}{parts} — {}", label(i == 0), file.path, file.why));
    }
    if !absent.is_empty() {
        out.push_str(&format!(
            "\n{}+ {} configuration file(s) that must stay absent (`loopgate status --json` lists them)",
            label(existing.is_empty()),
            absent.len()
        ));
    }
    out
}

/// The `observed:` line: what the traced baseline run sealed, or why the derived closure stands alone.
fn render_observed(observed: &ObservedReport) -> String {
    let label = "\n  observed:    ";
    match observed {
        ObservedReport::Traced {
            files, searched_dirs, ..
        } => {
            let present = files.iter().filter(|f| f.exists).count();
            format!(
                "{label}{present} file(s) the baseline run read or ran, {} it looked for (must stay absent), {searched_dirs} searched director(ies) — traced with strace (`status --json` lists them)",
                files.len() - present
            )
        }
        ObservedReport::Unavailable { why } => format!("{label}not traced ({why}): the derived closure only"),
        ObservedReport::NotRun => {
            format!("{label}no traced baseline run (`--no-baseline`): the derived closure only")
        }
    }
}

/// The `tests:` line: the existing tests sealed test by test, and the test data that stands as sealed.
fn render_tests(report: &InputsReport) -> String {
    let files = report.test_files;
    let data = report.inputs.iter().filter(|f| f.source == Source::TestData).count();
    if files == 0 && data == 0 {
        return String::new();
    }
    let mut said = Vec::new();
    if files > 0 {
        said.push(format!("{files} test file(s), sealed test by test"));
    }
    if data > 0 {
        said.push(format!("{data} test data file(s) stand as sealed in the oracle's run"));
    }
    format!("\n  tests:       {}", said.join("; "))
}
