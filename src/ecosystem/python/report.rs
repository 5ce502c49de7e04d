//! pytest's report through a private path (issue 29, item 2, for pytest): every oracle run asks pytest for a
//! JUnit XML report in the room (`--junitxml=…` after the user's own `PYTEST_ADDOPTS`), a path the code under
//! test does not know and the agent's tools cannot write. Stdout stays what the model reads; a *pass* must
//! also hold in the report, so code under test that prints a plausible pytest summary — every baseline test
//! `PASSED` — and ends the process with status 0 before pytest finishes is no pass: pytest never wrote its report.
//!
//! The report is used only where the baseline showed it can be: at setup, the report of the baseline run must
//! name exactly the tests the baseline read from stdout ([`Report::matches`]). A verify command that runs pytest
//! twice (each run overwrites the report), runs other runners beside it, or runs pytest from another directory
//! (stdout's names are then relative to it) falls back to stdout alone, and `status` says which one the
//! verdict reads. A pass is then refused when the report is missing, cut short (no closing tag), holds a failed
//! test (the exit disagrees with it), or lacks a test stdout says passed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::readout::{TestOutcome, TestResults};

/// Where the report is written, in the room.
pub(crate) const PLACE: &str = "report/pytest.xml";

/// Why a passing run's report does not hold the pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Problem {
    Missing,
    CutShort,
    /// The report holds failed tests although the run exited 0 (this many).
    Failed(usize),
    /// Tests stdout says passed that the report does not hold as passed.
    Unreported(Vec<String>),
    /// The report is whole but names no test, where the baseline's named them all (PHPUnit's, whose output
    /// names none: a run narrowed to nothing, `No tests executed!`).
    NoTests,
    /// The start hooks' record holds what no hook sent (`hook::record`), and why.
    Forged(String),
}

/// A structured report: every test with how it ended. pytest's JUnit report names a test by its stdout name's
/// report form (`tests/test_x.py::TestC::test_m[1]` is `tests.test_x.TestC` and `test_m[1]`, joined as
/// `tests.test_x.TestC::test_m[1]`); the start hooks' events (`hook`) name it as the output does.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Report {
    pub tests: BTreeMap<String, TestOutcome>,
    /// The names are JUnit's (see [`junit_name`]), not the output's.
    junit: bool,
    /// The tests of the runners whose events name them where their output does not
    /// (`runner::Report::HookNamed`), with how they ended; skipped ones are left out (they did not run).
    named: BTreeMap<String, TestOutcome>,
    /// The same tests by the name a reporter prints on one line, where it differs from the event's: mocha's
    /// events name a test by its title path joined by ` > ` (`calc > adds`, as its `spec` reporter's indented
    /// output reads), its `tap` and `list` reporters print the path joined by spaces (`calc adds`). Keyed by
    /// that printed name, the event's name as the value.
    printed: BTreeMap<String, String>,
    /// Runs recorded whole rather than test by test (`go test`'s binaries, by file name), with how they ended.
    runs: BTreeMap<String, TestOutcome>,
    /// Some events are cargo's runner hook's, whose names differ from the output's in ways of their own
    /// (`room::cargo_hook::event_name`).
    cargo: bool,
}

/// How mocha's start hook joins a test's title path into its name (`ecosystem/js/report.cjs`).
const TITLE_JOIN: &str = " > ";

/// The runner name of the Go hook's events, which record whole test binaries, not tests.
const GO_TEST: &str = "go test";

/// The runners whose start hooks append to the events file at `hook::PLACE` (Ruby's hook, Go's and cargo's shims);
/// node's and Python's report over the room's socket, to the record loopgate writes beside it
/// (`hook::record`), and a line of theirs in the file is none of theirs — unless the run had no socket
/// (`hook::record::OFF`), when they wrote the file too.
const FILE_RUNNERS: &[&str] = &["minitest", "rspec", GO_TEST, "cargo test"];

/// The start hooks' events of a run: the file's lines of the runners that write it, then the record's (see
/// [`FILE_RUNNERS`]). Neither there: missing; a line of the file that is not whole: cut short.
fn hook_events(path: &Path) -> Result<Vec<Event>, Problem> {
    let file = std::fs::read_to_string(path).ok();
    let record = path
        .parent()
        .zip(Path::new(crate::room::hook::record::PLACE).file_name())
        .and_then(|(dir, name)| std::fs::read_to_string(dir.join(name)).ok());
    if file.is_none() && record.is_none() {
        return Err(Problem::Missing);
    }
    // No socket for this run: every hook wrote the file.
    let whole = path
        .parent()
        .zip(Path::new(crate::room::hook::record::OFF).file_name())
        .is_some_and(|(dir, name)| dir.join(name).exists());
    let mut events = Vec::new();
    if let Some(text) = file {
        if !text.is_empty() && !text.ends_with('\n') {
            return Err(Problem::CutShort);
        }
        for line in text.lines() {
            let event: Event = serde_json::from_str(line).map_err(|_| Problem::CutShort)?;
            if whole || FILE_RUNNERS.contains(&event.runner.as_str()) {
                events.push(event);
            }
        }
    }
    for line in record.iter().flat_map(|text| text.lines()) {
        events.push(serde_json::from_str(line).map_err(|_| Problem::CutShort)?);
    }
    Ok(events)
}

/// One line of the start hooks' events file (`hook`).
#[derive(serde::Deserialize)]
struct Event {
    runner: String,
    pid: u64,
    event: String,
    #[serde(default)]
    name: String,
}

impl Report {
    /// Adds `other`'s tests to these: a test that failed in either failed (reports of several processes or
    /// modules, read together).
    pub(crate) fn absorb(&mut self, other: Report) {
        for (name, outcome) in other.tests {
            let before = self.tests.entry(name).or_insert(outcome);
            *before = (*before).max(outcome);
        }
    }

    /// A report's `classname::name` as the runner prints it, `classname.name` (GoogleTest's `Suite.Name`,
    /// Java's `package.Class.method`); no class, the name alone.
    pub(crate) fn dotted(name: &str) -> String {
        match name.split_once("::") {
            Some(("", test)) => test.to_string(),
            Some((class, test)) => format!("{class}.{test}"),
            None => name.to_string(),
        }
    }

    /// Reads the JUnit report at `path`.
    pub(crate) fn read(path: &Path) -> Result<Report, Problem> {
        let text = std::fs::read_to_string(path).map_err(|_| Problem::Missing)?;
        parse(&text)
    }

    /// Reads the start hooks' events at `path` (see `hook`): every test run that began ended (per process), and
    /// every line is whole; a test that failed anywhere is failed, a skipped one did not run.
    pub(crate) fn read_events(path: &Path) -> Result<Report, Problem> {
        let events = hook_events(path)?;
        let mut open: BTreeMap<u64, i64> = BTreeMap::new();
        let mut report = Report::default();
        let mut unrun = false;
        for event in events {
            if event.event == crate::room::hook::record::FORGED {
                return Err(Problem::Forged(event.name));
            }
            unrun |= event.event == crate::room::hook::record::UNRUN;
            report.cargo |= event.runner == crate::runner::Runner::Cargo.name();
            let outcome = match event.event.as_str() {
                "begin" => {
                    *open.entry(event.pid).or_default() += 1;
                    continue;
                }
                "end" => {
                    *open.entry(event.pid).or_default() -= 1;
                    if event.runner == GO_TEST {
                        report.runs.entry(event.name).or_insert(TestOutcome::Passed);
                    }
                    continue;
                }
                "pass" => TestOutcome::Passed,
                "fail" => TestOutcome::Failed,
                _ => continue,
            };
            if names_tests(&event.runner) {
                let before = report.named.entry(event.name.clone()).or_insert(outcome);
                *before = (*before).max(outcome);
                let printed = event.name.replace(TITLE_JOIN, " ");
                if printed != event.name {
                    report.printed.insert(printed, event.name.clone());
                }
            }
            let map = if event.runner == GO_TEST {
                &mut report.runs
            } else {
                &mut report.tests
            };
            let before = map.entry(event.name).or_insert(outcome);
            *before = (*before).max(outcome);
        }
        if open.is_empty() || unrun {
            return Err(Problem::Missing);
        }
        if open.values().any(|depth| *depth != 0) {
            return Err(Problem::CutShort);
        }
        Ok(report)
    }

    /// The report's tests as the verdict's results, for a runner whose output loopgate does not read (`--report
    /// junit:PATH`): each named `classname::name` as the report gives them (the name alone where it gives no
    /// class), a skipped test not run.
    pub(crate) fn results(&self) -> TestResults {
        let mut results = TestResults::default();
        for (name, outcome) in &self.tests {
            results.record(name.strip_prefix("::").unwrap_or(name), *outcome);
        }
        results
    }

    /// Adds the tests these events name for runners whose output does not name them, or names them as the
    /// reporter the project chose prints them (see `hook::add_named`). A test the output names by its printed
    /// form (`calc adds`, mocha's `tap` and `list` reporters) is the events' test by the events' name, so which
    /// reporter printed the run changes no name the verdict compares: the output's form is taken out, its
    /// outcome kept under the events' name (a failure either way stays one).
    pub(crate) fn add_named(&self, results: &mut TestResults) {
        for (printed, name) in &self.printed {
            if self.named.contains_key(printed) {
                continue;
            }
            if let Some(outcome) = results.tests.remove(printed) {
                results.record(name, outcome);
            }
        }
        for (name, outcome) in &self.named {
            results.record(name, *outcome);
        }
    }

    /// A name of the output as this report names it; `None` for a name no hook of this report could record
    /// (cargo's doctests, which rustdoc runs).
    fn key(&self, name: &str) -> Option<String> {
        if self.junit {
            Some(junit_name(name))
        } else if self.cargo {
            super::cargo_hook::event_name(name)
        } else {
            Some(name.to_string())
        }
    }

    /// Whether the report holds the output's test `name` (any way where no hook could record it).
    fn has(&self, name: &str, outcome: Option<TestOutcome>) -> bool {
        self.key(name).is_none_or(|key| {
            let key = match self.printed.get(&key) {
                Some(named) if !self.tests.contains_key(&key) => named.clone(),
                _ => key,
            };
            match outcome {
                Some(outcome) => self.tests.get(&key) == Some(&outcome),
                None => self.tests.contains_key(&key),
            }
        })
    }

    /// Whether the report names exactly the tests `results` holds (read from stdout), no more, no fewer.
    pub(crate) fn matches(&self, results: &TestResults) -> bool {
        !results.truncated
            && !self.tests.is_empty()
            && results.tests.len() == self.tests.len()
            && results.tests.keys().all(|name| self.has(name, None))
    }

    /// Whether the report names every test `results` holds (read from stdout), and maybe more: the start hooks
    /// see tests the output names nowhere (unittest prints a failed subtest under its own description, not the
    /// test's), and those cannot make a pass fall short of the report ([`Report::holds`] asks only for the
    /// output's passes, and a failure in a run that exited 0).
    pub(crate) fn covers(&self, results: &TestResults) -> bool {
        if self.tests.is_empty() && !self.runs.is_empty() {
            return !results.tests.is_empty();
        }
        if results.tests.is_empty() {
            // The output names no test (unittest's `-q`, a runner behind `make`): the events name them alone, so a
            // failure they hold in a run that exited 0 (code that ends the process with status 0 from an exit
            // handler, after the runner reported it) is seen.
            return !results.truncated && !self.tests.is_empty();
        }
        !results.truncated && results.tests.keys().all(|name| self.has(name, None))
    }

    /// Why a run that passed by its exit status and stdout (`results`) does not pass by this report.
    pub(crate) fn holds(&self, results: &TestResults) -> Option<Problem> {
        let failed = self
            .tests
            .values()
            .chain(self.runs.values())
            .filter(|o| **o == TestOutcome::Failed)
            .count();
        if failed > 0 {
            return Some(Problem::Failed(failed));
        }
        if self.tests.is_empty() {
            // Whole runs, every one finished: the output's names are all there is. Whole events that name no test
            // at all, where the baseline's named every one (they stand for the verdict only then): the run ran
            // none, whatever its summary says — RSpec's dry run counts every example passed without running it,
            // and the hook reports those skipped (`ruby/report.rb`).
            return self.runs.is_empty().then_some(Problem::NoTests);
        }
        let unreported: Vec<String> = results
            .tests
            .iter()
            .filter(|(name, outcome)| **outcome == TestOutcome::Passed && !self.has(name, Some(TestOutcome::Passed)))
            .map(|(name, _)| name.clone())
            .collect();
        (!unreported.is_empty()).then_some(Problem::Unreported(unreported))
    }
}

/// Whether the events of the runner named `runner` (as its row names it) name its tests for the verdict.
fn names_tests(runner: &str) -> bool {
    crate::runner::Runner::all().any(|r| r.name() == runner && r.row().report == crate::runner::Report::HookNamed)
}

/// The runners whose start hooks wrote the events at `path`, as one phrase (`unittest`, `unittest and mocha`);
/// `None` where there are none.
pub(crate) fn runners_of(path: &Path) -> Option<String> {
    let runners: BTreeSet<String> = hook_events(path)
        .ok()?
        .into_iter()
        .filter(|e| {
            use crate::room::hook::record::{FORGED, IDLE, RAN};
            ![FORGED, RAN, IDLE].contains(&e.event.as_str())
        })
        .map(|e| e.runner)
        .collect();
    (!runners.is_empty()).then(|| runners.into_iter().collect::<Vec<_>>().join(" and "))
}

/// The command lines of the processes whose hooks reported over the room's socket (`hook::record`): those
/// that ran a run, and those that ran none without having said they would.
pub(crate) fn hooked_commands(path: &Path) -> (BTreeSet<String>, BTreeSet<String>) {
    let (mut ran, mut idle) = (BTreeSet::new(), BTreeSet::new());
    for event in hook_events(path).unwrap_or_default() {
        if event.event == crate::room::hook::record::RAN {
            ran.insert(event.name);
        } else if event.event == crate::room::hook::record::IDLE {
            idle.insert(event.name);
        }
    }
    (ran, idle)
}

/// A stdout test id as the report names it (pytest's `mangle_test_address`): the file path dotted without
/// `.py`, the classes joined to it with dots, `::` before the test's own name.
fn junit_name(nodeid: &str) -> String {
    let (path, params) = match nodeid.find('[') {
        Some(at) => nodeid.split_at(at),
        None => (nodeid, ""),
    };
    let mut names: Vec<String> = path.split("::").map(str::to_string).collect();
    if let Some(file) = names.first_mut() {
        *file = file.replace('/', ".");
        if let Some(stem) = file.strip_suffix(".py") {
            *file = stem.to_string();
        }
    }
    let name = names.pop().unwrap_or_default();
    format!("{}::{name}{params}", names.join("."))
}

/// The tests of a report, each with how it ended (a skipped test did not run, as in `readout::results`).
fn parse(text: &str) -> Result<Report, Problem> {
    let end = text.trim_end();
    // PHPUnit writes a run of no test as `<testsuites/>`.
    if !(end.ends_with("</testsuites>") || end.ends_with("</testsuite>") || end.ends_with("<testsuites/>")) {
        return Err(Problem::CutShort);
    }
    let mut report = Report {
        junit: true,
        ..Report::default()
    };
    let mut rest = text;
    while let Some(at) = rest.find("<testcase ") {
        rest = &rest[at..];
        let head_end = rest.find('>').ok_or(Problem::CutShort)?;
        let head = &rest[..head_end];
        let (body, next) = if head.ends_with('/') {
            ("", &rest[head_end + 1..])
        } else {
            let close = rest.find("</testcase>").ok_or(Problem::CutShort)?;
            (&rest[head_end + 1..close], &rest[close..])
        };
        let name = format!("{}::{}", attribute(head, "classname"), attribute(head, "name"));
        // GoogleTest lists a `DISABLED_` test as `status="notrun"`, with no element for it.
        let outcome = if body.contains("<failure") || body.contains("<error") {
            Some(TestOutcome::Failed)
        } else if body.contains("<skipped") || attribute(head, "status") == "notrun" {
            None
        } else {
            Some(TestOutcome::Passed)
        };
        if let Some(outcome) = outcome {
            let before = report.tests.entry(name).or_insert(outcome);
            *before = (*before).max(outcome);
        }
        rest = next;
    }
    Ok(report)
}

/// The value of `name="…"` in a tag, unescaped.
fn attribute(head: &str, name: &str) -> String {
    let key = format!(" {name}=\"");
    let Some(start) = head.find(&key).map(|at| at + key.len()) else {
        return String::new();
    };
    let value = head[start..].split('"').next().unwrap_or_default();
    value
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// pytest's report as the room's channel (`room::channels`): asked for through `PYTEST_ADDOPTS` unless the
/// project asks for one of its own (`Recorded::junit_theirs`), standing beside the output where the baseline's
/// named exactly its tests.
pub(crate) struct Channel;

/// The key the room's record stores whether the baseline's report stood under (persisted: never changed).
pub(crate) const KEY: &str = "pytest_report";

impl super::channels::ReportChannel for Channel {
    fn key(&self) -> &'static str {
        KEY
    }

    fn who(&self) -> &'static str {
        "pytest"
    }

    fn names_the_run(&self) -> bool {
        false
    }

    fn clear(&self, room: &super::Room) -> std::io::Result<()> {
        super::remove_stale(&room.dir.join(PLACE))
    }

    fn set(&self, room: &super::Room, recorded: &super::Recorded, vars: &mut BTreeMap<String, std::ffi::OsString>) {
        if !recorded.junit_theirs
            && let crate::runner::Report::Private { option, .. } = crate::runner::Runner::Pytest.row().report
        {
            let option = format!("{option}{}", room.dir.join(PLACE).display());
            super::caches::python::add_option(vars, &super::caches::python::shell_word(&option));
        }
    }

    fn stands(&self, room: &super::Room, results: &TestResults) -> bool {
        Report::read(&room.dir.join(PLACE)).is_ok_and(|r| r.matches(results))
    }

    fn problem(&self, room: &super::Room, results: &TestResults) -> Option<Problem> {
        match Report::read(&room.dir.join(PLACE)) {
            Ok(report) => report.holds(results),
            Err(problem) => Some(problem),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = r#"<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" errors="0" failures="1" skipped="1" tests="4"><testcase classname="tests.test_calc" name="test_add" time="0.001"><failure message="assert -1 == 3">x</failure></testcase><testcase classname="tests.test_calc" name="test_mul" time="0.001" /><testcase classname="tests.test_calc.TestCases" name="test_case[a&amp;b-1]" time="0.0"/><testcase classname="tests.test_calc" name="test_later" time="0.0"><skipped type="pytest.skip" message="later">s</skipped></testcase></testsuite></testsuites>"#;

    fn results(list: &[(&str, TestOutcome)]) -> TestResults {
        let mut results = TestResults::default();
        for (name, outcome) in list {
            results.record(name, *outcome);
        }
        results
    }

    #[test]
    fn a_report_reads_as_stdouts_names() {
        let report = parse(REPORT).expect("parses");
        let stdout = results(&[
            ("tests/test_calc.py::test_add", TestOutcome::Failed),
            ("tests/test_calc.py::test_mul", TestOutcome::Passed),
            ("tests/test_calc.py::TestCases::test_case[a&b-1]", TestOutcome::Passed),
        ]);
        assert!(report.matches(&stdout), "{report:?}");
        assert_eq!(report.holds(&stdout), Some(Problem::Failed(1)));
    }

    #[test]
    fn a_report_read_as_the_results_of_a_runner_loopgate_does_not_read() {
        let text = r#"<testsuites><testsuite name="x.bats"><testcase classname="x.bats" name="it&#39;s adding"/><testcase name="bare"><failure/></testcase><testcase classname="x.bats" name="later"><skipped/></testcase></testsuite></testsuites>"#;
        let results = parse(text).expect("parses").results();
        assert_eq!(
            results.tests,
            BTreeMap::from([
                ("bare".to_string(), TestOutcome::Failed),
                ("x.bats::it's adding".to_string(), TestOutcome::Passed),
            ]),
            "a skipped test did not run"
        );
    }

    #[test]
    fn a_forged_pass_does_not_hold() {
        let report = parse(
            REPORT
                .replace("<failure message=\"assert -1 == 3\">x</failure>", "")
                .as_str(),
        )
        .expect("parses");
        let forged = results(&[
            ("tests/test_calc.py::test_add", TestOutcome::Passed),
            ("tests/test_calc.py::test_invented", TestOutcome::Passed),
        ]);
        assert_eq!(
            report.holds(&forged),
            Some(Problem::Unreported(vec!["tests/test_calc.py::test_invented".into()]))
        );
        let honest = results(&[("tests/test_calc.py::test_add", TestOutcome::Passed)]);
        assert_eq!(report.holds(&honest), None);
    }

    #[test]
    fn phpunits_report_of_no_test_is_whole_and_empty() {
        let report = parse("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites/>\n").expect("parses");
        assert!(report.tests.is_empty());
    }

    #[test]
    fn a_report_cut_short_or_missing_is_no_report() {
        let cut = &REPORT[..REPORT.len() / 2];
        assert_eq!(parse(cut), Err(Problem::CutShort));
        assert_eq!(
            Report::read(Path::new("/nonexistent/report.xml")),
            Err(Problem::Missing)
        );
    }

    /// The events `lines` as a run leaves them: the shims' runners' in the events file, the others' in the record
    /// loopgate writes from the socket (`hook::record`).
    fn events(lines: &[&str]) -> Result<Report, Problem> {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("events.jsonl");
        let (file, record): (Vec<&str>, Vec<&str>) = lines
            .iter()
            .partition(|l| FILE_RUNNERS.iter().any(|r| l.contains(&format!("\"runner\":\"{r}\""))));
        let text = |lines: Vec<&str>| lines.iter().map(|l| format!("{l}\n")).collect::<String>();
        std::fs::write(&path, text(file)).expect("write");
        if !record.is_empty() {
            std::fs::write(dir.path().join("record.jsonl"), text(record)).expect("write");
        }
        Report::read_events(&path)
    }

    const BEGIN: &str = r#"{"runner":"unittest","pid":7,"event":"begin","name":""}"#;
    const END: &str = r#"{"runner":"unittest","pid":7,"event":"end","name":""}"#;
    const PASS: &str = r#"{"runner":"unittest","pid":7,"event":"pass","name":"tests.test_calc.CalcTest.test_add"}"#;

    #[test]
    fn the_hooks_events_stand_alone_where_the_output_names_no_test() {
        let fail = r#"{"runner":"unittest","pid":7,"event":"fail","name":"tests.test_calc.CalcTest.test_zero"}"#;
        let quiet = TestResults::default();
        let baseline = events(&[BEGIN, PASS, fail, END]).expect("reads");
        assert!(baseline.covers(&quiet), "{baseline:?}");
        assert_eq!(
            baseline.holds(&quiet),
            Some(Problem::Failed(1)),
            "a failure in a run that exited 0"
        );
        assert_eq!(events(&[BEGIN, PASS, END]).expect("reads").holds(&quiet), None);
        assert!(
            !events(&[BEGIN, END]).expect("reads").covers(&quiet),
            "events that name no test name nothing"
        );
        // Whole events naming no test, every example skipped (RSpec's dry run, as `ruby/report.rb` reports it):
        // the run ran none, whatever its summary counted.
        let dry = r#"{"runner":"rspec","pid":7,"event":"skip","name":"Calc adds two numbers"}"#;
        let rspec = |event: &str| format!(r#"{{"runner":"rspec","pid":7,"event":"{event}","name":""}}"#);
        let report = events(&[&rspec("begin"), dry, &rspec("end")]).expect("reads");
        assert_eq!(report.holds(&quiet), Some(Problem::NoTests));
        assert_eq!(
            events(&[BEGIN, END]).expect("reads").holds(&quiet),
            Some(Problem::NoTests)
        );
    }

    #[test]
    fn the_hooks_events_read_as_the_outputs_names() {
        let skip = r#"{"runner":"unittest","pid":7,"event":"skip","name":"tests.test_calc.CalcTest.test_later"}"#;
        let report = events(&[BEGIN, PASS, skip, END]).expect("reads");
        let honest = results(&[("tests.test_calc.CalcTest.test_add", TestOutcome::Passed)]);
        assert!(report.covers(&honest), "{report:?}");
        assert_eq!(report.holds(&honest), None);
        let printed = results(&[("tests.test_calc.CalcTest.test_printed", TestOutcome::Passed)]);
        assert!(
            !report.covers(&printed),
            "a name only the output has keeps the hook's events out"
        );
        let forged = results(&[
            ("tests.test_calc.CalcTest.test_add", TestOutcome::Passed),
            ("tests.test_calc.CalcTest.test_zero", TestOutcome::Passed),
        ]);
        assert_eq!(
            report.holds(&forged),
            Some(Problem::Unreported(vec!["tests.test_calc.CalcTest.test_zero".into()]))
        );
    }

    /// Mocha's events name its tests (`runner::Report::HookNamed`), so a reporter that prints the title path
    /// joined by spaces (`tap`, `list`) names the same tests as the `spec` reporter's indented path did.
    #[test]
    fn mochas_events_name_its_tests_whichever_reporter_printed_them() {
        let mocha =
            |event: &str, name: &str| format!(r#"{{"runner":"mocha","pid":9,"event":"{event}","name":"{name}"}}"#);
        let lines = [
            mocha("begin", ""),
            mocha("pass", "calc > multiplies"),
            mocha("fail", "calc > adds 1 and 2"),
            mocha("end", ""),
        ];
        let report = events(&lines.iter().map(String::as_str).collect::<Vec<_>>()).expect("reads");
        let tap = results(&[
            ("calc multiplies", TestOutcome::Passed),
            ("calc adds 1 and 2", TestOutcome::Passed),
        ]);
        assert!(
            report.covers(&tap),
            "the printed names are the events' tests: {report:?}"
        );
        let mut named = tap.clone();
        report.add_named(&mut named);
        assert_eq!(
            named.tests,
            BTreeMap::from([
                ("calc > adds 1 and 2".to_string(), TestOutcome::Failed),
                ("calc > multiplies".to_string(), TestOutcome::Passed),
            ]),
            "the events' names, the failure kept"
        );
        let spec = results(&[("calc > multiplies", TestOutcome::Passed)]);
        let mut named = spec.clone();
        report.add_named(&mut named);
        assert_eq!(named.get("calc > multiplies"), Some(TestOutcome::Passed));
        assert_eq!(named.tests.len(), 2);
        // A test titled like another's printed path keeps its own name.
        let both = [
            mocha("begin", ""),
            mocha("pass", "calc > multiplies"),
            mocha("pass", "calc multiplies"),
            mocha("end", ""),
        ];
        let report = events(&both.iter().map(String::as_str).collect::<Vec<_>>()).expect("reads");
        let mut named = results(&[("calc multiplies", TestOutcome::Passed)]);
        report.add_named(&mut named);
        assert_eq!(named.tests.len(), 2, "{named:?}");
    }

    #[test]
    fn events_of_a_run_that_never_ended_or_never_began_are_no_report() {
        assert_eq!(events(&[BEGIN, PASS]), Err(Problem::CutShort));
        assert_eq!(events(&[BEGIN, &PASS[..20]]), Err(Problem::CutShort));
        assert_eq!(events(&[]), Err(Problem::Missing));
        let other = END.replace("\"pid\":7", "\"pid\":8");
        let go = |event: &str| format!(r#"{{"runner":"go test","pid":9,"event":"{event}","name":"calc.test"}}"#);
        assert_eq!(
            events(&[&go("begin")]),
            Err(Problem::CutShort),
            "a test binary that never finished"
        );
        let go_names = results(&[("calc TestAdd", TestOutcome::Passed)]);
        let finished = events(&[&go("begin"), &go("end")]).expect("reads");
        assert!(finished.covers(&go_names));
        assert_eq!(finished.holds(&go_names), None);
        let failed = events(&[&go("begin"), &go("fail"), &go("end")]).expect("reads");
        assert_eq!(failed.holds(&go_names), Some(Problem::Failed(1)));
        assert_eq!(events(&[BEGIN, PASS, &other]), Err(Problem::CutShort));
        let fail = PASS.replace("pass", "fail");
        assert_eq!(
            events(&[BEGIN, PASS, &fail, END]).map(|r| r.holds(&TestResults::default())),
            Ok(Some(Problem::Failed(1)))
        );
    }

    /// cargo's hook names a bin target's unit tests by the binary alone and cannot see doctests: the output's
    /// names of both are held as the hook can hold them, so a project with doctests keeps its events.
    #[test]
    fn cargos_events_hold_the_outputs_names_of_bins_and_leave_doctests_to_the_output() {
        let cargo =
            |event: &str, name: &str| format!(r#"{{"runner":"cargo test","pid":3,"event":"{event}","name":"{name}"}}"#);
        let lines = [
            cargo("begin", ""),
            cargo("pass", "calc tests::adds"),
            cargo("pass", "tool tests::parses"),
            cargo("end", ""),
        ];
        let report = events(&lines.iter().map(String::as_str).collect::<Vec<_>>()).expect("reads");
        let honest = results(&[
            ("calc tests::adds", TestOutcome::Passed),
            ("tool(src/main.rs) tests::parses", TestOutcome::Passed),
            ("doc calc src/lib.rs - add", TestOutcome::Passed),
        ]);
        assert!(report.covers(&honest), "{report:?}");
        assert_eq!(report.holds(&honest), None);
        let forged = results(&[
            ("calc tests::adds", TestOutcome::Passed),
            ("calc tests::zero", TestOutcome::Passed),
        ]);
        assert_eq!(
            report.holds(&forged),
            Some(Problem::Unreported(vec!["calc tests::zero".into()]))
        );
        assert_eq!(
            events(&[&cargo("begin", ""), &cargo("pass", "calc tests::adds")]),
            Err(Problem::CutShort),
            "a binary that exited before its tests were done"
        );
    }

    #[test]
    fn stdout_with_other_runners_names_does_not_match() {
        let report = parse(REPORT).expect("parses");
        let mixed = results(&[
            ("tests/test_calc.py::test_add", TestOutcome::Failed),
            ("tests/test_calc.py::test_mul", TestOutcome::Passed),
            ("tests/test_calc.py::TestCases::test_case[a&b-1]", TestOutcome::Passed),
            ("calc::tests::adds", TestOutcome::Passed),
        ]);
        assert!(!report.matches(&mixed));
    }
}
