//! PHPUnit's own JUnit reports in the room, which the PHP start hook (`prepend.php`, `room::hook`) has every
//! PHPUnit process of an oracle run write: one file per process (`report/phpunit-PID-RANDOM.xml`), so a verify
//! command that runs PHPUnit more than once (`phpunit --testsuite unit && phpunit --testsuite api`) is read
//! whole rather than by its last run. Their tests, together, are the run's names (PHPUnit's output names only its
//! failures); read with the one JUnit reader (`room::report`).

use std::path::{Path, PathBuf};

use super::report::{Problem, Report};
use crate::readout::{TestOutcome, TestResults};

/// The room's directory the reports are written in (beside the other reports), and their names' shape.
pub(crate) const DIR: &str = "report";
const PREFIX: &str = "phpunit-";
const SUFFIX: &str = ".xml";

/// The reports PHPUnit wrote in the room at `room`, in name order.
pub(crate) fn files(room: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(room.join(DIR)) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with(PREFIX) && name.ends_with(SUFFIX)
        })
        .map(|e| e.path())
        .collect();
    files.sort();
    files
}

/// Every test the reports name, with how it ended (failed in one, failed); why they are no report if they are
/// not: none written (`Missing`), or one cut short.
pub(crate) fn read(room: &Path) -> Result<TestResults, Problem> {
    let files = files(room);
    if files.is_empty() {
        return Err(Problem::Missing);
    }
    let mut results = TestResults::default();
    for file in files {
        for (name, outcome) in &Report::read(&file)?.results().tests {
            results.record(name, *outcome);
        }
    }
    Ok(results)
}

/// Why a run that exited 0 is no pass by its reports: none written or one cut short, a failed test in them, or
/// no test at all where the baseline's named them.
pub(crate) fn problem(room: &Path) -> Option<Problem> {
    match read(room) {
        Err(problem) => Some(problem),
        Ok(results) if results.is_empty() => Some(Problem::NoTests),
        Ok(results) => {
            let failed = results.tests.values().filter(|o| **o == TestOutcome::Failed).count();
            (failed > 0).then_some(Problem::Failed(failed))
        }
    }
}

/// PHPUnit's reports as the room's channel (`room::channels`): the PHP start hook asks for them, and their
/// names are the run's.
pub(crate) struct Channel;

/// The key the room's record stores whether the baseline's report stood under (persisted: never changed).
pub(crate) const KEY: &str = "phpunit_report";

impl super::channels::ReportChannel for Channel {
    fn key(&self) -> &'static str {
        KEY
    }

    fn who(&self) -> &'static str {
        "phpunit"
    }

    fn names_the_run(&self) -> bool {
        true
    }

    fn clear(&self, room: &super::Room) -> std::io::Result<()> {
        files(&room.dir).iter().try_for_each(|file| super::remove_stale(file))
    }

    fn stands(&self, room: &super::Room, _results: &TestResults) -> bool {
        read(&room.dir).is_ok_and(|named| !named.is_empty())
    }

    fn add_named(&self, room: &super::Room, results: &mut TestResults) {
        if let Ok(named) = read(&room.dir) {
            for (name, outcome) in &named.tests {
                results.record(name, *outcome);
            }
        }
    }

    fn problem(&self, room: &super::Room, _results: &TestResults) -> Option<Problem> {
        problem(&room.dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuites><testsuite name="unit"><testcase name="testAdds" class="CalcTest" classname="CalcTest"/><testcase name="testLater" class="CalcTest" classname="CalcTest"><skipped/></testcase></testsuite></testsuites>
"#;
    const TWO: &str = r#"<testsuites><testsuite name="api"><testcase name="testGet" class="ApiTest" classname="ApiTest"><failure>no</failure></testcase></testsuite></testsuites>"#;

    fn room(reports: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join(DIR)).expect("mkdir");
        for (name, text) in reports {
            std::fs::write(dir.path().join(DIR).join(name), text).expect("write");
        }
        dir
    }

    #[test]
    fn every_phpunit_process_of_a_run_is_read() {
        let dir = room(&[("phpunit-1-a.xml", ONE), ("phpunit-2-b.xml", TWO), ("pytest.xml", TWO)]);
        let results = read(dir.path()).expect("read");
        let names: Vec<(&str, TestOutcome)> = results.tests.iter().map(|(n, o)| (n.as_str(), *o)).collect();
        assert_eq!(
            names,
            vec![
                ("ApiTest::testGet", TestOutcome::Failed),
                ("CalcTest::testAdds", TestOutcome::Passed)
            ],
            "a skipped test did not run; pytest's report is not PHPUnit's"
        );
        assert_eq!(problem(dir.path()), Some(Problem::Failed(1)));
    }

    #[test]
    fn no_report_one_cut_short_or_one_of_no_test_is_no_pass() {
        assert_eq!(problem(room(&[]).path()), Some(Problem::Missing));
        let cut = &ONE[..ONE.len() / 2];
        assert_eq!(
            problem(room(&[("phpunit-1-a.xml", ONE), ("phpunit-2-b.xml", cut)]).path()),
            Some(Problem::CutShort)
        );
        assert_eq!(
            problem(room(&[("phpunit-1-a.xml", "<testsuites/>\n")]).path()),
            Some(Problem::NoTests)
        );
        assert_eq!(problem(room(&[("phpunit-1-a.xml", ONE)]).path()), None);
    }
}
