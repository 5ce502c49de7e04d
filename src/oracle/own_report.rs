//! The verify command's own report (`--report junit:PATH`, issue 40, item 3): a runner loopgate has no reader
//! for is judged test by test from the JUnit XML it writes at `PATH` (relative to the project). The baseline
//! and every oracle run read it in place of the output's names, so a test passes only where the report names it
//! as passed; a run that wrote none (or one cut short), or one whose report holds a failed test while it exited 0,
//! is no pass.
//!
//! The file is read where the run wrote it: in the room's tree where the run stood there (mounted at the
//! project's path, or at the copy's own path; see `room::Placed::written`), else in the project. A report left
//! there before the run — by an earlier run, or by anyone — is removed first, so only this run's can stand.
//! The reader is pytest's (`room::report`): one JUnit reader for both. Unlike pytest's private report, this path
//! is the user's choice and known to the code under test, which could write a report of its own there: the
//! per-test verdict reads what the runner the user chose says, and the reviewer and held-out tests stand behind
//! it as for every runner.

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::readout::TestResults;
use crate::room::report::{Problem, Report};
use crate::schema::VerifyReport;

/// Where one run's own report is found.
pub(crate) struct OwnReport {
    /// Where the run writes it, as the user gave it (project-relative).
    pub(crate) shown: String,
    at: PathBuf,
}

impl OwnReport {
    /// The report `report` of a run of the project at `root` that stands in `placed` (`None`: in the project).
    pub(crate) fn at(report: &VerifyReport, root: &Path, placed: Option<&crate::room::Placed>) -> Self {
        let at = placed.map_or_else(|| root.join(&report.path), |placed| placed.written(root, &report.path));
        Self {
            shown: report.path.clone(),
            at,
        }
    }

    /// Removes a report this run did not write (left by an earlier run, or put there), before the run.
    pub(crate) fn clear(&self) -> Result<(), Error> {
        match std::fs::remove_file(&self.at) {
            Err(err) if err.kind() != std::io::ErrorKind::NotFound => Err(Error::Io {
                action: "remove the verify command's earlier report at",
                path: self.at.clone(),
                source: err,
            }),
            _ => Ok(()),
        }
    }

    /// The run's tests as its report names them, and why the report holds no pass (missing, cut short, a
    /// failed test) if it does not.
    pub(crate) fn read(&self) -> (TestResults, Option<Problem>) {
        match Report::read(&self.at) {
            Ok(report) => {
                let results = report.results();
                let problem = report.holds(&results);
                (results, problem)
            }
            Err(problem) => (TestResults::default(), Some(problem)),
        }
    }
}
