//! Reporting options loopgate adds to every verify run (the baseline, every promise, `loopgate verify`) so
//! that the runners print each test by name — the per-test verdict (`crate::testjudge::baseline`) needs names, and some
//! runners print only failures by default. Each option changes what is *printed*, never what runs, and is
//! given through the runner's own environment variable so the sealed command stays exactly as the user wrote
//! it:
//!
//! - `PYTEST_ADDOPTS` gains `-rap`: pytest's short test summary lists every outcome (`PASSED tests/…::test_x`)
//!   except the captured output of passing tests. A `-r` on the command line itself still wins (pytest reads
//!   the command line last); such a run is judged by its totals.
//! - `GOFLAGS` gains `-v`: `go test` prints `--- PASS: TestX` for every test (other go commands print the
//!   packages they build, on stderr).
//!
//! What the user already set in these variables is kept, with ours after it. Runners that name their tests by
//! default (cargo test, nextest, node's test runner, mocha's spec reporter, Jest and Vitest by file) need
//! nothing; unittest names its tests only with `-v`, which it takes from no variable, so without it its totals
//! are used.

use std::ffi::OsString;

/// The variables to set for a verify run, given how the environment sets them now.
pub(crate) fn env(current: impl Fn(&str) -> Option<OsString>) -> Vec<(&'static str, OsString)> {
    [("PYTEST_ADDOPTS", "-rap"), ("GOFLAGS", "-v")]
        .into_iter()
        .map(|(name, ours)| {
            let value = match current(name) {
                Some(theirs) if !theirs.is_empty() => {
                    let mut value = theirs;
                    value.push(" ");
                    value.push(ours);
                    value
                }
                _ => OsString::from(ours),
            };
            (name, value)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_the_reporting_options_after_the_users_own() {
        let set = env(|name| (name == "PYTEST_ADDOPTS").then(|| OsString::from("-x --tb=short")));
        assert_eq!(
            set,
            vec![
                ("PYTEST_ADDOPTS", OsString::from("-x --tb=short -rap")),
                ("GOFLAGS", OsString::from("-v")),
            ]
        );
    }

    #[test]
    fn an_empty_variable_is_replaced() {
        let set = env(|_| Some(OsString::new()));
        assert_eq!(set[0].1, "-rap");
        assert_eq!(set[1].1, "-v");
    }
}
