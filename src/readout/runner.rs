//! The test runners whose output loopgate reads, one module per family — `rust` (cargo test, nextest),
//! `python` (pytest, unittest), `js` (Jest, Vitest, mocha, node's runner), `go` (go test), `shell` (bats), `ruby` (minitest,
//! RSpec), `php` (PHPUnit), `cpp` (ctest, GoogleTest), `jvm` (Maven Surefire, the JUnit console launcher), each in its
//! ecosystem's folder (`src/ecosystem/<name>/readout.rs`, declared here by `build.rs` from the registration) — and the table that
//! registers them.
//!
//! A family's module holds everything read from its output: the markers that recognize it, the failures it
//! reports (for the summary), and a `Scanner` that reads its counts and test names line by line (for the
//! ratchet and the per-test verdict). The runners are the one [`Runner`] of the runner table (`crate::runner`,
//! which holds what is declared about each: configuration, test files, report); what is read from their output
//! needs the line helpers here. Adding a runner: its functions in its family's module (or a new ecosystem's `readout.rs`),
//! a row in its `ROWS`; a new ecosystem's `readout:RANK` on its line of `src/ecosystem/ECOSYSTEMS` puts its `ROWS` in
//! [`FAMILIES`] and its `Scanner` in [`Scanners`], in its rank's place.

include!(concat!(env!("OUT_DIR"), "/ecosystem/readout/runner.rs"));

use super::counts::TestCounts;
use super::generic;
use super::lines::{Found, Lines};
use super::results::TestResults;
pub(crate) use crate::runner::Runner;

/// One runner whose failures the summary reads.
struct Row {
    runner: Runner,
    /// A line only this runner prints.
    is_marker: fn(&str) -> bool,
    /// The failing tests and error lines in its output.
    failures: fn(&Lines) -> Found,
    /// Not looked for when this runner was recognized: nextest's output embeds libtest's, and an output with
    /// Vitest's markers is read as Vitest's alone.
    unless: Option<Runner>,
}

/// Every family's rows: the runners, in extraction order, the families in their ranks' order (`readout:RANK` on
/// each folder's line of `src/ecosystem/ECOSYSTEMS`; `build/ranked.rs`, `RANKED`).
const FAMILIES: &[&[Row]] = &ranked_readout!(ROWS);

/// Lines an ecosystem's tools print after every failure that say nothing about it, one line per ecosystem that
/// has some (its `NOISE`).
const NOISE: &[&[&str]] = &[js::NOISE];

/// Whether a line (trimmed at its start) is an ecosystem's noise (see [`NOISE`]).
pub(super) fn is_noise(line: &str) -> bool {
    NOISE.iter().flat_map(|noise| noise.iter()).any(|n| line.starts_with(n))
}

/// Every runner's row, in extraction order.
fn rows() -> impl Iterator<Item = &'static Row> {
    FAMILIES.iter().flat_map(|rows| rows.iter())
}

/// The runners whose markers appear, in extraction order.
pub(super) fn detect(lines: &Lines) -> Vec<Runner> {
    let mut found = Vec::new();
    for row in rows() {
        if row.unless.is_some_and(|other| found.contains(&other)) {
            continue;
        }
        if lines.iter().any(row.is_marker) {
            found.push(row.runner);
        }
    }
    found
}

/// The failures `runner` reports in `lines` (a runner without a row here: the generic reading).
pub(super) fn failures(runner: Runner, lines: &Lines) -> Found {
    match rows().find(|row| row.runner == runner) {
        Some(row) => (row.failures)(lines),
        None => generic::extract(lines),
    }
}

/// Declares [`Scanners`], a field per family (named after its module), in [`FAMILIES`]' order.
macro_rules! scanners {
    ($($family:ident),*) => {
        /// Every family's count and name scanner, fed the same lines.
        #[derive(Debug, Clone, Default)]
        pub(super) struct Scanners {
            $($family: $family::Scanner,)*
        }

        impl Scanners {
            /// The counts of the summaries that end on `line`, one per family at most; the names it reports go in
            /// `names`.
            pub(super) fn feed(&mut self, line: &str, names: &mut TestResults) -> [Option<TestCounts>; FAMILIES.len()] {
                [$(self.$family.feed(line, names)),*]
            }
        }
    };
}

ranked_readout!(@modules scanners);

impl Scanners {
    /// Counts read but not yet reported: go's last result line, a leaf since nothing came under it.
    pub(super) fn pending(&self) -> Option<TestCounts> {
        self.go.pending()
    }

    /// Names read but not yet recorded — go tests whose package line never came (the output was cut) — into
    /// `names`.
    pub(super) fn flush_into(&self, names: &mut TestResults) {
        self.go.flush_into(names);
    }
}

#[cfg(test)]
mod order_tests {
    use super::*;

    /// The order the runners' output is read in (`FAMILIES`: which runner is named first, which one's failures
    /// the summary reads) and the scanners are fed in (`Scanners`), pinned by name, so that building them from
    /// the ranks of `src/ecosystem/ECOSYSTEMS` keeps them.
    #[test]
    fn the_families_are_read_and_scanned_in_their_ranked_order() {
        let runners: Vec<&str> = rows().map(|row| row.runner.name()).collect();
        assert_eq!(
            runners,
            [
                "cargo nextest",
                "cargo test",
                "pytest",
                "vitest",
                "jest",
                "go test",
                "bats",
                "ctest",
                "minitest",
                "rspec",
                "phpunit",
                "maven",
                "junit console launcher",
            ]
        );
        // The struct's own fields, at the first indentation of its pretty `Debug` (not its scanners' fields).
        let scanners = format!("{:#?}", Scanners::default());
        let fields: Vec<&str> = scanners
            .lines()
            .filter_map(|line| line.strip_prefix("    ")?.split_once(": ").map(|(field, _)| field))
            .filter(|field| !field.starts_with(' '))
            .collect();
        assert_eq!(
            fields,
            ["rust", "python", "js", "go", "shell", "cpp", "ruby", "php", "jvm"],
            "{scanners}"
        );
    }
}
