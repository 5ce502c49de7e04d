//! GoogleTest's reports through a private directory (issue 40, item 2): every oracle run gets
//! `GTEST_OUTPUT=xml:<room>/report/gtest/`, which GoogleTest reads from the environment and ctest passes
//! through, so each test binary writes its own JUnit XML there — one file per process, never one over another
//! (`calc_test.xml`, `calc_test_1.xml`, … as `gtest_discover_tests` runs a process per test). The sealed command
//! and the project's files stay as the user wrote them, and the directory is one the code under test does not
//! know and the agent's tools cannot write.
//!
//! A run's reports' names join its output's in `room::Room::add_named`, the one place where the room's records
//! name a run's tests, at the baseline and at every oracle run (ctest's own lines name its tests,
//! which are whole binaries where a project registers them with `add_test`; a verify command that runs pytest
//! too keeps pytest's names): each test is
//! `Suite.Name` as GoogleTest prints it (`Calc.Adds`, `Inst/Suite.Name/0`), a skipped one (`GTEST_SKIP()`) or a
//! disabled one (`DISABLED_`) did not run, and one that failed in any process failed. A run that exited 0 with
//! no readable report or one that holds a failure is no pass, where the baseline's binaries wrote some
//! (`Recorded::report_problem`). A project that sets `GTEST_OUTPUT`
//! itself keeps its own, and its verdict reads the output alone.
//!
//! What stays forgeable: a test binary's code runs in the process that writes its report, so code under test
//! that finds the path (its own environment) can write a report of its own; the reviewer and held-out tests
//! stand behind it, as for every runner.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::Path;

use super::report::{Problem, Report};
use crate::readout::{TestOutcome, TestResults};

/// Where the test binaries write their reports, in the room (a directory).
pub(crate) const PLACE: &str = "report/gtest";

/// The variable GoogleTest reads its report's format and place from.
const VAR: &str = "GTEST_OUTPUT";

/// Points a run's variables at the room's report directory, unless the run's own variables name a report of
/// their own (`theirs`). GoogleTest takes a trailing `/` as a directory.
pub(crate) fn set(room: &Path, vars: &mut BTreeMap<String, OsString>) {
    if vars.contains_key(VAR) {
        return;
    }
    let mut value = OsString::from("xml:");
    value.push(room.join(PLACE));
    value.push("/");
    vars.insert(VAR.to_string(), value);
}

/// Empties the report directory at `dir` before a run, so that only this run's reports are read.
pub(crate) fn clear(dir: &Path) -> std::io::Result<()> {
    match std::fs::remove_dir_all(dir) {
        Err(err) if err.kind() != std::io::ErrorKind::NotFound => Err(err),
        _ => Ok(()),
    }
}

/// Every report in `dir`, merged: the tests by GoogleTest's names, with how they ended, and why they hold no
/// pass where they do not (a failure). No readable report at all is [`Problem::Missing`].
///
/// A report that does not read whole is passed over, not refused: under `ctest -j`, two processes of one binary
/// (`gtest_discover_tests`) race for the same free name and one report is lost or overwritten mid-way (measured:
/// 9 of 10 reports in 2 of 5 runs of GoogleTest's samples with `-j10`). That is no sign of a run cut short — a
/// binary writes its report after its last test, so one killed before has none, and its exit status fails the
/// run — and the tests of such processes are named by ctest's own lines (the same names) beside the reports.
pub(crate) fn read(dir: &Path) -> Result<(TestResults, Option<Problem>), Problem> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|_| Problem::Missing)?
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "xml"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(Problem::Missing);
    }
    let mut merged = Report::default();
    let mut read_any = false;
    for file in &files {
        if is_listing(&std::fs::read_to_string(file).unwrap_or_default()) {
            continue;
        }
        let Ok(report) = Report::read(file) else {
            continue;
        };
        read_any = true;
        merged.absorb(report);
    }
    if !read_any {
        return Err(Problem::Missing);
    }
    let mut results = TestResults::default();
    for (name, outcome) in &merged.tests {
        results.record(&Report::dotted(name), *outcome);
    }
    let failed = merged.tests.values().filter(|o| **o == TestOutcome::Failed).count();
    Ok((results, (failed > 0).then_some(Problem::Failed(failed))))
}

/// Whether a report is the list a binary wrote for `--gtest_list_tests` (what `gtest_discover_tests` runs at
/// build time, with the run's environment): whole, and its tests carry no `status`, for none of them ran.
fn is_listing(text: &str) -> bool {
    text.trim_end().ends_with("</testsuites>") && text.contains("<testcase ") && !text.contains(" status=\"")
}

/// GoogleTest's reports as the room's channel (`room::channels`): `GTEST_OUTPUT` names the room's directory,
/// and their names join the run's.
pub(crate) struct Channel;

/// The key the room's record stores whether the baseline's report stood under (persisted: never changed).
pub(crate) const KEY: &str = "gtest_report";

impl super::channels::ReportChannel for Channel {
    fn key(&self) -> &'static str {
        KEY
    }

    fn who(&self) -> &'static str {
        "GoogleTest"
    }

    fn names_the_run(&self) -> bool {
        true
    }

    fn clear(&self, room: &super::Room) -> std::io::Result<()> {
        clear(&room.dir.join(PLACE))
    }

    fn set(&self, room: &super::Room, _recorded: &super::Recorded, vars: &mut BTreeMap<String, OsString>) {
        set(&room.dir, vars);
    }

    fn stands(&self, room: &super::Room, _results: &TestResults) -> bool {
        read(&room.dir.join(PLACE)).is_ok_and(|(named, _)| !named.tests.is_empty())
    }

    fn add_named(&self, room: &super::Room, results: &mut TestResults) {
        if let Ok((named, _)) = read(&room.dir.join(PLACE)) {
            results.merge(&named);
        }
    }

    fn problem(&self, room: &super::Room, _results: &TestResults) -> Option<Problem> {
        read(&room.dir.join(PLACE)).map_or_else(Some, |(_, problem)| problem)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two processes of one binary (as `gtest_discover_tests` runs them) and a second binary, as GoogleTest 1.12
    /// writes them: a failure, a pass, a skip, a disabled test.
    const FIRST: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="1" failures="1" disabled="0" errors="0" time="0" name="AllTests">
  <testsuite name="Calc" tests="1" failures="1" disabled="0" skipped="0" errors="0" time="0">
    <testcase name="Adds" file="tests/calc_test.cc" line="3" status="run" result="completed" time="0" classname="Calc">
      <failure message="tests/calc_test.cc:3&#x0A;Expected equality" type=""><![CDATA[tests/calc_test.cc:3
Expected equality]]></failure>
    </testcase>
  </testsuite>
</testsuites>
"#;
    const SECOND: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="3" failures="0" disabled="1" errors="0" time="0" name="AllTests">
  <testsuite name="Calc" tests="3" failures="0" disabled="1" skipped="1" errors="0" time="0">
    <testcase name="Zero" file="tests/calc_test.cc" line="4" status="run" result="completed" time="0" classname="Calc" />
    <testcase name="Later" file="tests/calc_test.cc" line="5" status="run" result="skipped" time="0" classname="Calc">
      <skipped message="not yet"><![CDATA[not yet]]></skipped>
    </testcase>
    <testcase name="DISABLED_Off" file="tests/calc_test.cc" line="6" status="notrun" result="suppressed" time="0" classname="Calc" />
  </testsuite>
</testsuites>
"#;

    fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).expect("write");
        }
        dir
    }

    #[test]
    fn every_processs_report_is_read_by_googletests_names() {
        let dir = dir_with(&[
            ("calc_test.xml", FIRST),
            ("calc_test_1.xml", SECOND),
            ("notes.txt", "x"),
        ]);
        let (results, problem) = read(dir.path()).expect("reads");
        assert_eq!(
            results.tests,
            BTreeMap::from([
                ("Calc.Adds".to_string(), TestOutcome::Failed),
                ("Calc.Zero".to_string(), TestOutcome::Passed),
            ]),
            "a skipped and a disabled test did not run"
        );
        assert_eq!(problem, Some(Problem::Failed(1)));
        let passing = dir_with(&[("calc_test.xml", SECOND)]);
        assert_eq!(read(passing.path()).expect("reads").1, None);
    }

    /// `gtest_discover_tests` lists the tests at build time, and the binary writes that list as a report too.
    #[test]
    fn the_list_written_at_discovery_is_no_run() {
        let listing = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="2" name="AllTests">
  <testsuite name="Calc" tests="2">
    <testcase name="Adds" file="tests/calc_test.cc" line="3" />
    <testcase name="Zero" file="tests/calc_test.cc" line="4" />
  </testsuite>
</testsuites>
"#;
        let dir = dir_with(&[("calc_test.xml", listing), ("calc_test_1.xml", FIRST)]);
        let (results, _) = read(dir.path()).expect("reads");
        assert_eq!(
            results.tests,
            BTreeMap::from([("Calc.Adds".to_string(), TestOutcome::Failed)])
        );
    }

    /// No report is no pass; one that does not read whole (two processes raced for its name) is passed over.
    #[test]
    fn no_readable_report_holds_no_pass_and_a_broken_one_is_passed_over() {
        let empty = dir_with(&[]);
        assert_eq!(read(empty.path()), Err(Problem::Missing));
        assert_eq!(read(&empty.path().join("absent")), Err(Problem::Missing));
        let cut = &FIRST[..FIRST.len() / 2];
        let raced = dir_with(&[("calc_test.xml", SECOND), ("calc_test_1.xml", cut)]);
        let (results, problem) = read(raced.path()).expect("reads");
        assert_eq!(results.tests.keys().collect::<Vec<_>>(), vec!["Calc.Zero"]);
        assert_eq!(problem, None);
        let only_cut = dir_with(&[("calc_test.xml", cut)]);
        assert_eq!(read(only_cut.path()), Err(Problem::Missing));
    }

    #[test]
    fn the_room_names_a_directory_unless_the_run_names_its_own() {
        let mut vars = BTreeMap::new();
        set(Path::new("/rooms/r"), &mut vars);
        assert_eq!(vars[VAR], "xml:/rooms/r/report/gtest/");
        let mut theirs = BTreeMap::from([(VAR.to_string(), OsString::from("xml:out.xml"))]);
        set(Path::new("/rooms/r"), &mut theirs);
        assert_eq!(theirs[VAR], "xml:out.xml");
    }

    #[test]
    fn parameterized_and_typed_names_keep_their_slashes() {
        assert_eq!(Report::dotted("Inst/Suite::Name/0"), "Inst/Suite.Name/0");
        assert_eq!(Report::dotted("::bare"), "bare");
    }
}
