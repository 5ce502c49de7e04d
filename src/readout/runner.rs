//! The test runners whose output loopgate reads, one module per family — `rust` (cargo test, nextest),
//! `python` (pytest, unittest), `js` (Jest, Vitest, mocha, node's runner), `go` (go test), `shell` (bats), `ruby` (minitest,
//! RSpec), `php` (PHPUnit), `cpp` (ctest, GoogleTest), `jvm` (Maven Surefire, the JUnit console launcher), each in its
//! ecosystem's folder (`src/ecosystem/<name>/readout.rs`, loaded here with `#[path]`) — and the table that
//! registers them.
//!
//! A family's module holds everything read from its output: the markers that recognize it, the failures it
//! reports (for the summary), and a `Scanner` that reads its counts and test names line by line (for the
//! ratchet and the per-test verdict). The runners are the one [`Runner`] of the runner table (`crate::runner`,
//! which holds what is declared about each: configuration, test files, report); what is read from their output
//! needs the line helpers here. Adding a runner: its functions in its family's module (or a new ecosystem's `readout.rs`),
//! a row in [`RUNNERS`], and — for a new family — a field of [`Scanners`].

#[path = "../ecosystem/cpp/readout.rs"]
mod cpp;
#[path = "../ecosystem/go/readout.rs"]
mod go;
#[path = "../ecosystem/js/readout.rs"]
mod js;
#[path = "../ecosystem/jvm/readout.rs"]
mod jvm;
#[path = "../ecosystem/php/readout.rs"]
mod php;
#[path = "../ecosystem/python/readout.rs"]
mod python;
#[path = "../ecosystem/ruby/readout.rs"]
mod ruby;
#[path = "../ecosystem/rust/readout.rs"]
mod rust;
#[path = "../ecosystem/shell/readout.rs"]
mod shell;

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

/// Every runner, in extraction order.
const RUNNERS: [Row; 13] = [
    Row {
        runner: Runner::Nextest,
        is_marker: rust::is_nextest_marker,
        failures: rust::nextest_failures,
        unless: None,
    },
    Row {
        runner: Runner::Cargo,
        is_marker: rust::is_cargo_marker,
        failures: rust::cargo_failures,
        unless: Some(Runner::Nextest),
    },
    Row {
        runner: Runner::Pytest,
        is_marker: python::is_marker,
        failures: python::failures,
        unless: None,
    },
    Row {
        runner: Runner::Vitest,
        is_marker: js::is_vitest_marker,
        failures: js::vitest_failures,
        unless: None,
    },
    Row {
        runner: Runner::Jest,
        is_marker: js::is_jest_marker,
        failures: js::jest_failures,
        unless: Some(Runner::Vitest),
    },
    Row {
        runner: Runner::Go,
        is_marker: go::is_marker,
        failures: go::failures,
        unless: None,
    },
    Row {
        runner: Runner::Bats,
        is_marker: shell::is_marker,
        failures: shell::failures,
        unless: None,
    },
    Row {
        runner: Runner::Ctest,
        is_marker: cpp::is_marker,
        failures: cpp::failures,
        unless: None,
    },
    Row {
        runner: Runner::Minitest,
        is_marker: ruby::is_minitest_marker,
        failures: ruby::minitest_failures,
        unless: None,
    },
    Row {
        runner: Runner::Rspec,
        is_marker: ruby::is_rspec_marker,
        failures: ruby::rspec_failures,
        unless: None,
    },
    Row {
        runner: Runner::Phpunit,
        is_marker: php::is_marker,
        failures: php::failures,
        unless: None,
    },
    Row {
        runner: Runner::Maven,
        is_marker: jvm::is_surefire_marker,
        failures: jvm::surefire_failures,
        unless: None,
    },
    Row {
        runner: Runner::JunitConsole,
        is_marker: jvm::is_console_marker,
        failures: jvm::console_failures,
        unless: None,
    },
];

/// The runners whose markers appear, in extraction order.
pub(super) fn detect(lines: &Lines) -> Vec<Runner> {
    let mut found = Vec::new();
    for row in &RUNNERS {
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
    match RUNNERS.iter().find(|row| row.runner == runner) {
        Some(row) => (row.failures)(lines),
        None => generic::extract(lines),
    }
}

/// Every family's count and name scanner, fed the same lines.
#[derive(Debug, Clone, Default)]
pub(super) struct Scanners {
    rust: rust::Scanner,
    python: python::Scanner,
    js: js::Scanner,
    go: go::Scanner,
    shell: shell::Scanner,
    cpp: cpp::Scanner,
    ruby: ruby::Scanner,
    php: php::Scanner,
    surefire: jvm::SurefireScanner,
    junit_console: jvm::ConsoleScanner,
}

impl Scanners {
    /// The counts of the summaries that end on `line`, one per family at most; the names it reports go in `names`.
    pub(super) fn feed(&mut self, line: &str, names: &mut TestResults) -> [Option<TestCounts>; 10] {
        [
            self.rust.feed(line, names),
            self.python.feed(line, names),
            self.js.feed(line, names),
            self.go.feed(line, names),
            self.shell.feed(line, names),
            self.cpp.feed(line, names),
            self.ruby.feed(line, names),
            self.php.feed(line, names),
            self.surefire.feed(line),
            self.junit_console.feed(line, names),
        ]
    }

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
