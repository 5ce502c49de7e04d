//! Maven Surefire's JUnit reports, read from the run's own build directory (issue 40, item 2).
//!
//! Surefire writes `TEST-<class>.xml` per test class into `target/surefire-reports/` of every module it tests,
//! and nothing moves that directory from outside the project (`reportsDirectory` is no property; see
//! `runner::jvm::MAVEN`). So the room reads it where the run wrote it: in the room's tree (`<room>/tree/`), which
//! never copies a `target/` from the project — nothing the agent built or planted there is read — and which
//! [`clear`] empties of every module's `surefire-reports/` before each run, so a report is this run's or none.
//! A test is named `package.Class.method` (`calc.CalcTest.adds`; a parameterized case keeps Surefire's
//! suffix, `adds(int)[1]`); a skipped one (`@Disabled`, a failed assumption) did not run; one that failed or
//! erred in any report failed.
//!
//! Where the run stands in the project itself (no room tree: `LOOPGATE_ROOM_TREE=0`, or a machine with
//! neither mounts nor a copy), nothing is read here and the verdict reads Surefire's output, which names test
//! classes only. What stays forgeable: the tests run in a JVM that can write files, so code under test that
//! finds `target/surefire-reports/` (beside its own classes) can write a report of its own; the reviewer and
//! held-out tests stand behind it, as for every runner.

use std::path::{Path, PathBuf};

use super::report::{Problem, Report};
use crate::readout::{TestOutcome, TestResults};

/// Where Surefire writes, under a module's directory.
const REPORTS: [&str; 2] = ["target", "surefire-reports"];

/// How deep under the tree's root a module's directory may lie (`services/api/core/`).
const MODULE_DEPTH: usize = 6;

/// Every module's reports directory under `tree` that exists: the root's, and those of directories below it
/// (not inside a build directory, a hidden or a dependency directory). Only a Maven module (a directory with a
/// `pom.xml`) is walked below the first level, so a project of another ecosystem costs two directory levels
/// at each run, not a walk of its tree.
fn dirs(tree: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![(tree.to_path_buf(), 0)];
    while let Some((dir, depth)) = stack.pop() {
        let reports = dir.join(REPORTS[0]).join(REPORTS[1]);
        if reports.is_dir() {
            found.push(reports);
        }
        if depth >= MODULE_DEPTH || (depth >= 1 && !dir.join("pom.xml").is_file()) {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let plain = !name.starts_with('.') && name != REPORTS[0] && name != "node_modules" && name != "src";
            if plain && entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push((entry.path(), depth + 1));
            }
        }
    }
    found.sort();
    found
}

/// Empties every module's reports directory under `tree` before a run, so that only this run's are read.
pub(crate) fn clear(tree: &Path) -> std::io::Result<()> {
    for dir in dirs(tree) {
        match std::fs::remove_dir_all(&dir) {
            Err(err) if err.kind() != std::io::ErrorKind::NotFound => return Err(err),
            _ => {}
        }
    }
    Ok(())
}

/// Every `TEST-*.xml` under `tree`'s reports directories, merged: the tests by name, with how they ended, and
/// why they hold no pass where they do not (a failure). None at all, or one that does not read whole (a JVM
/// killed while Surefire wrote), is a [`Problem`].
pub(crate) fn read(tree: &Path) -> Result<(TestResults, Option<Problem>), Problem> {
    let mut files: Vec<PathBuf> = dirs(tree)
        .iter()
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flat_map(|entries| entries.flatten().map(|entry| entry.path()))
        .filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("TEST-") && n.ends_with(".xml"))
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(Problem::Missing);
    }
    let mut merged = Report::default();
    for file in &files {
        merged.absorb(Report::read(file)?);
    }
    let mut results = TestResults::default();
    for (name, outcome) in &merged.tests {
        results.record(&Report::dotted(name), *outcome);
    }
    let failed = merged.tests.values().filter(|o| **o == TestOutcome::Failed).count();
    Ok((results, (failed > 0).then_some(Problem::Failed(failed))))
}

/// Surefire's reports as the room's channel (`room::channels`): read in the room's tree, where the run wrote
/// them, and their names are the run's.
pub(crate) struct Channel;

/// The key the room's record stores whether the baseline's report stood under (persisted: never changed).
pub(crate) const KEY: &str = "surefire_report";

impl super::channels::ReportChannel for Channel {
    fn key(&self) -> &'static str {
        KEY
    }

    fn who(&self) -> &'static str {
        "surefire"
    }

    fn names_the_run(&self) -> bool {
        true
    }

    fn clear(&self, room: &super::Room) -> std::io::Result<()> {
        clear(&room.tree_dir())
    }

    fn stands(&self, room: &super::Room, _results: &TestResults) -> bool {
        read(&room.tree_dir()).is_ok_and(|(named, _)| !named.tests.is_empty())
    }

    fn add_named(&self, room: &super::Room, results: &mut TestResults) {
        if let Ok((named, _)) = read(&room.tree_dir()) {
            results.merge(&named);
        }
    }

    fn problem(&self, room: &super::Room, _results: &TestResults) -> Option<Problem> {
        read(&room.tree_dir()).map_or_else(Some, |(_, problem)| problem)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As Surefire 2.22.3 writes it for JUnit 5: a pass, a failure, a skip (`@Disabled`), an error.
    const CALC: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="calc.CalcTest" time="0.33" tests="4" errors="1" skipped="1" failures="1">
  <properties>
    <property name="java.version" value="17.0.15"/>
  </properties>
  <testcase name="adds" classname="calc.CalcTest" time="0.204"/>
  <testcase name="addsNegative" classname="calc.CalcTest" time="0.045">
    <failure message="negative ==&gt; expected: &lt;-2&gt; but was: &lt;-1&gt;" type="org.opentest4j.AssertionFailedError"><![CDATA[org.opentest4j.AssertionFailedError: negative
]]></failure>
  </testcase>
  <testcase name="later" classname="calc.CalcTest" time="0">
    <skipped message="void calc.CalcTest.later() is @Disabled"/>
  </testcase>
  <testcase name="divides" classname="calc.CalcTest" time="0.001">
    <error message="/ by zero" type="java.lang.ArithmeticException"><![CDATA[java.lang.ArithmeticException: / by zero
]]></error>
  </testcase>
</testsuite>
"#;
    const MORE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="calc.more.MoreTest" tests="1" errors="0" skipped="0" failures="0">
  <testcase name="adds(int)[1]" classname="calc.more.MoreTest" time="0.01"/>
</testsuite>
"#;

    fn write(root: &Path, relative: &str, text: &str) {
        let path = root.join(relative);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }

    /// Every module's reports are read together, by `package.Class.method` — a module below the first level
    /// only inside Maven modules (`app/pom.xml`), not in any directory (`docs/site/`) —; a skip did not run;
    /// a failure and an error failed, and the run's reports hold no pass.
    #[test]
    fn every_modules_reports_name_the_tests() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(dir.path(), "target/surefire-reports/TEST-calc.CalcTest.xml", CALC);
        write(dir.path(), "target/surefire-reports/calc.CalcTest.txt", "not a report");
        write(
            dir.path(),
            "more/target/surefire-reports/TEST-calc.more.MoreTest.xml",
            MORE,
        );
        write(dir.path(), "src/test/java/target/surefire-reports/TEST-x.xml", MORE);
        write(dir.path(), "app/pom.xml", "<project/>");
        let core = MORE.replace("more.MoreTest", "core.CoreTest");
        write(
            dir.path(),
            "app/core/target/surefire-reports/TEST-calc.core.CoreTest.xml",
            &core,
        );
        write(dir.path(), "docs/site/target/surefire-reports/TEST-stale.xml", MORE);
        let (results, problem) = read(dir.path()).expect("reports");
        assert_eq!(results.tests.len(), 5, "{results:?}");
        assert_eq!(
            results.get("calc.core.CoreTest.adds(int)[1]"),
            Some(TestOutcome::Passed)
        );
        assert_eq!(results.get("calc.CalcTest.adds"), Some(TestOutcome::Passed));
        assert_eq!(results.get("calc.CalcTest.addsNegative"), Some(TestOutcome::Failed));
        assert_eq!(results.get("calc.CalcTest.divides"), Some(TestOutcome::Failed));
        assert_eq!(results.get("calc.CalcTest.later"), None);
        assert_eq!(
            results.get("calc.more.MoreTest.adds(int)[1]"),
            Some(TestOutcome::Passed)
        );
        assert_eq!(problem, Some(Problem::Failed(2)));
    }

    /// Before a run every module's reports go; after it, none written is missing, and one cut short is no
    /// report.
    #[test]
    fn cleared_reports_are_missing_and_a_cut_report_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(dir.path(), "target/surefire-reports/TEST-calc.CalcTest.xml", CALC);
        write(
            dir.path(),
            "more/target/surefire-reports/TEST-calc.more.MoreTest.xml",
            MORE,
        );
        clear(dir.path()).expect("clear");
        assert!(!dir.path().join("more/target/surefire-reports").exists());
        assert_eq!(read(dir.path()).err(), Some(Problem::Missing));
        write(
            dir.path(),
            "target/surefire-reports/TEST-calc.CalcTest.xml",
            &CALC[..CALC.len() / 2],
        );
        assert!(read(dir.path()).is_err());
        clear(&dir.path().join("absent")).expect("nothing to clear");
    }
}
