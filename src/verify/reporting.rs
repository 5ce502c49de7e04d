//! Reporting options loopgate adds to every verify run (the baseline, every promise, `loopgate verify`) so
//! that the runners print each test by name — the per-test verdict (`crate::testjudge::baseline`) needs names, and some
//! runners print only failures by default. Each option changes what is *printed*, never what runs, and is
//! given through the runner's own environment variable so the sealed command stays exactly as the user wrote
//! it: each runner that needs one declares it beside its row (`runner::NAMING_OPTIONS`: pytest's `-rap` through
//! `PYTEST_ADDOPTS`, go test's `-v` through `GOFLAGS`).
//!
//! What the user already set in these variables is kept, with ours after it. Runners that name their tests by
//! default (cargo test, nextest, node's test runner, mocha's spec reporter, Jest and Vitest by file) need
//! nothing; unittest names its tests only with `-v`, which it takes from no variable, so without it its totals
//! are used.

use std::ffi::OsString;

/// The variables to set for a verify run, given how the environment sets them now.
pub(crate) fn env(current: impl Fn(&str) -> Option<OsString>) -> Vec<(&'static str, OsString)> {
    crate::runner::NAMING_OPTIONS
        .iter()
        .map(|&(name, ours)| {
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
