//! Maven Surefire and the JUnit Platform console launcher: their failures, counts and test names, from their
//! output.
//!
//! Surefire prints a line per test class (`Tests run: 2, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.3
//! s <<< FAILURE! - in calc.CalcTest`), then per module its results: the failures and errors
//! (`  CalcTest.addsNegative:6 negative ==> expected: <-2> but was: <-1>`) and the module's totals (`Tests run:
//! 2, Failures: 1, Errors: 0, Skipped: 0`), every line behind Maven's `[INFO] ` / `[ERROR] ` level. It names no
//! passing test: the names are those of its reports (`room::surefire`). The console launcher prints a tree of
//! engines, classes and tests (`│  └─ CalcTest ✔` / `│     ├─ adds() ✔`), its failures (`JUnit
//! Jupiter:CalcTest:addsNegative()` then `=> org.opentest4j.AssertionFailedError: …`) and a box of totals
//! (`[         1 tests failed          ]`); a test is named by its classes and its own name, `CalcTest.adds()`.

use super::{Row, Runner};
use crate::readout::counts::TestCounts;
use crate::readout::lines::{Found, Lines};
use crate::readout::results::{TestOutcome, TestResults};

/// Maven's level prefix, taken off a line.
fn unlevelled(line: &str) -> &str {
    for level in ["[INFO] ", "[ERROR] ", "[WARNING] ", "[WARN] "] {
        if let Some(rest) = line.strip_prefix(level) {
            return rest;
        }
    }
    line
}

/// Surefire's totals, `Tests run: N, Failures: F, Errors: E, Skipped: S`, with what follows them.
fn surefire_totals(line: &str) -> Option<(TestCounts, &str)> {
    let rest = unlevelled(line).trim_start().strip_prefix("Tests run: ")?;
    let mut numbers = [0u64; 4];
    let mut rest = rest;
    for (i, label) in ["", "Failures: ", "Errors: ", "Skipped: "].iter().enumerate() {
        rest = rest.strip_prefix(", ").unwrap_or(rest).strip_prefix(label)?;
        let end = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        numbers[i] = rest[..end].parse().ok()?;
        rest = &rest[end..];
    }
    let [run, failures, errors, skipped] = numbers;
    let failed = failures + errors;
    let counts = TestCounts::new(run.saturating_sub(failed + skipped), failed, skipped, 0);
    Some((counts, rest))
}

pub(super) fn is_surefire_marker(line: &str) -> bool {
    unlevelled(line).trim() == "T E S T S" || surefire_totals(line).is_some()
}

/// The failures and errors Surefire lists under a module's results, each with its message.
pub(super) fn surefire_failures(lines: &Lines) -> Found {
    let mut found = Found::default();
    let mut listing = false;
    for line in lines.iter() {
        let rest = unlevelled(line);
        if matches!(rest.trim_end(), "Failures:" | "Errors:" | "Flakes:") {
            listing = rest.trim_end() != "Flakes:";
            continue;
        }
        let Some(entry) = rest.strip_prefix("  ").filter(|_| listing) else {
            listing = listing && rest.trim().is_empty();
            continue;
        };
        let entry = entry.trim();
        if entry.starts_with("Run ") {
            continue;
        }
        // `CalcTest.addsNegative:6 message`, `CalcTest.divides:9 » Arithmetic / by zero`, `CalcTest » Weird`.
        let (name, message) = entry.split_once(' ').unwrap_or((entry, ""));
        let name = name.split(':').next().unwrap_or(name);
        let message = message.trim_start_matches(['»', ' ']).trim();
        found.add_test(name, (!message.is_empty()).then(|| message.to_string()));
    }
    found
}

/// The JVM family's count and name scanner: Surefire's and the console launcher's, fed the same lines.
#[derive(Debug, Clone, Default)]
pub(super) struct Scanner {
    surefire: SurefireScanner,
    console: ConsoleScanner,
}

impl Scanner {
    /// The counts of the summaries that end on `line` (both runners', added, should one line be both); the
    /// names it reports go in `names`.
    pub(super) fn feed(&mut self, line: &str, names: &mut TestResults) -> Option<TestCounts> {
        let surefire = self.surefire.feed(line);
        let console = self.console.feed(line, names);
        match (surefire, console) {
            (Some(mut counts), Some(more)) => {
                counts.add(more);
                Some(counts)
            }
            (counts, more) => counts.or(more),
        }
    }
}

/// Surefire's totals: a module's results (the per-class lines carry `Time elapsed` and are not summed again).
#[derive(Debug, Clone, Default)]
struct SurefireScanner;

impl SurefireScanner {
    fn feed(&mut self, line: &str) -> Option<TestCounts> {
        let (counts, rest) = surefire_totals(line)?;
        (!rest.contains("Time elapsed")).then_some(counts)
    }
}

/// The console launcher's two themes (`--details-theme`; ASCII where the locale is not UTF-8, as in a bare
/// environment): the branch marks, the width of one level of indentation, the characters that indent, and the
/// status marks with the outcome each gives (`None`: skipped).
const THEMES: [Theme; 2] = [
    Theme {
        branches: ["├─ ", "└─ "],
        level: 3,
        indent: ['│', ' '],
        marks: [
            (" ✔", Some(TestOutcome::Passed)),
            (" ✘", Some(TestOutcome::Failed)),
            (" ■", Some(TestOutcome::Failed)),
            (" ↷", None),
        ],
    },
    Theme {
        branches: ["+-- ", "'-- "],
        level: 2,
        indent: ['|', ' '],
        marks: [
            (" [OK]", Some(TestOutcome::Passed)),
            (" [X]", Some(TestOutcome::Failed)),
            (" [A]", Some(TestOutcome::Failed)),
            (" [S]", None),
        ],
    },
];

struct Theme {
    branches: [&'static str; 2],
    level: usize,
    indent: [char; 2],
    marks: [(&'static str, Option<TestOutcome>); 4],
}

/// A console-launcher tree line: its depth (engines at 0) and the node's text up to its status mark, with the
/// outcome that mark gives (`None` for a skip).
fn tree_node(line: &str) -> Option<(usize, &str, Option<TestOutcome>)> {
    THEMES.iter().find_map(|theme| {
        let (at, branch) = theme
            .branches
            .iter()
            .filter_map(|b| line.find(b).map(|at| (at, *b)))
            .min()?;
        let prefix = &line[..at];
        if !prefix.chars().all(|c| theme.indent.contains(&c)) {
            return None;
        }
        let depth = prefix.chars().count() / theme.level;
        let rest = &line[at + branch.len()..];
        theme
            .marks
            .iter()
            .find_map(|(mark, outcome)| rest.find(mark).map(|end| (depth, &rest[..end], *outcome)))
    })
}

pub(super) fn is_console_marker(line: &str) -> bool {
    line.starts_with("Thanks for using JUnit!") || line.starts_with("Test run finished after ")
}

/// The failures the console launcher lists after its tree: `JUnit Jupiter:CalcTest:addsNegative()` then
/// `=> Exception: message`.
pub(super) fn console_failures(lines: &Lines) -> Found {
    let mut found = Found::default();
    let mut listing = false;
    let mut last: Option<String> = None;
    for line in lines.iter() {
        if line.starts_with("Failures (") {
            listing = true;
            continue;
        }
        if !listing {
            continue;
        }
        if line.starts_with("Test run finished after ") {
            break;
        }
        let t = line.trim();
        if let Some(said) = t.strip_prefix("=> ") {
            if let Some(name) = last.take() {
                let message = said.split_once(": ").map_or(said, |(_, m)| m);
                found.add_test(&name, Some(message.to_string()));
            }
        } else if line.starts_with("  ")
            && !line.starts_with("   ")
            && t.contains(':')
            && let Some(name) = last.replace(console_name(t))
        {
            found.add_test(&name, None);
        }
    }
    if let Some(name) = last {
        found.add_test(&name, None);
    }
    found
}

/// `JUnit Jupiter:CalcTest:addsNegative()` as the tree names the test: `CalcTest.addsNegative()`.
fn console_name(listed: &str) -> String {
    listed.split(':').skip(1).collect::<Vec<_>>().join(".")
}

/// The console launcher's tree and totals box: every test by its path of classes, and the totals.
#[derive(Debug, Clone, Default)]
struct ConsoleScanner {
    /// The nodes above the last one read, by depth.
    path: Vec<String>,
    /// The last node read, not yet known to be a test (it is one if nothing comes under it).
    last: Option<(usize, String, Option<TestOutcome>)>,
    counts: TestCounts,
}

impl ConsoleScanner {
    fn feed(&mut self, line: &str, names: &mut TestResults) -> Option<TestCounts> {
        if let Some((depth, text, outcome)) = tree_node(line) {
            if let Some((last_depth, last_text, last_outcome)) = self.last.take() {
                if depth > last_depth {
                    self.path.truncate(last_depth);
                    self.path.push(last_text);
                } else {
                    self.leaf(&last_text, last_depth, last_outcome, names);
                }
            }
            self.last = Some((depth, text.to_string(), outcome));
            return None;
        }
        if let Some((depth, text, outcome)) = self.last.take() {
            self.leaf(&text, depth, outcome, names);
            self.path.clear();
        }
        let boxed = line.trim().strip_prefix('[')?.strip_suffix(']')?.trim();
        let (number, label) = boxed.split_once(' ')?;
        let number: u64 = number.parse().ok()?;
        match label.trim() {
            "tests successful" => self.counts.passed = number,
            "tests skipped" => self.counts.skipped += number,
            "tests aborted" => self.counts.failed += number,
            "tests failed" => {
                self.counts.failed += number;
                return Some(std::mem::take(&mut self.counts));
            }
            _ => {}
        }
        None
    }

    /// A node with nothing under it: a test, named by the classes above it (not the engine, at depth 0).
    fn leaf(&mut self, text: &str, depth: usize, outcome: Option<TestOutcome>, names: &mut TestResults) {
        if depth == 0 {
            return;
        }
        self.path.truncate(depth);
        let mut parts: Vec<&str> = self.path.iter().skip(1).map(String::as_str).collect();
        parts.push(text);
        let name = parts.join(".");
        if let Some(outcome) = outcome {
            names.record(&name, outcome);
        }
    }
}

/// Its runners' rows of the output readers' table (`readout::runner::FAMILIES`), in extraction order.
pub(super) const ROWS: &[Row] = &[
    Row {
        runner: Runner::Maven,
        is_marker: is_surefire_marker,
        failures: surefire_failures,
        unless: None,
    },
    Row {
        runner: Runner::JunitConsole,
        is_marker: is_console_marker,
        failures: console_failures,
        unless: None,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// `mvn test` with Surefire 2.22.3, a failure and an error, as Maven 3.8.7 prints it (colors taken off).
    const MAVEN: &str = "[INFO] -------------------------------------------------------
[INFO]  T E S T S
[INFO] -------------------------------------------------------
[INFO] Running calc.CalcTest
[ERROR] Tests run: 3, Failures: 1, Errors: 1, Skipped: 0, Time elapsed: 0.33 s <<< FAILURE! - in calc.CalcTest
[ERROR] addsNegative  Time elapsed: 0.045 s  <<< FAILURE!
org.opentest4j.AssertionFailedError: negative ==> expected: <-2> but was: <-1>
\tat calc.CalcTest.addsNegative(CalcTest.java:6)

[INFO] Running calc.MoreTest
[INFO] Tests run: 2, Failures: 0, Errors: 0, Skipped: 1, Time elapsed: 0.01 s - in calc.MoreTest
[INFO] 
[INFO] Results:
[INFO] 
[ERROR] Failures: 
[ERROR]   CalcTest.addsNegative:6 negative ==> expected: <-2> but was: <-1>
[ERROR] Errors: 
[ERROR]   CalcTest.divides:9 » Arithmetic / by zero
[INFO] 
[ERROR] Tests run: 5, Failures: 1, Errors: 1, Skipped: 1
[INFO] 
[INFO] BUILD FAILURE
";

    /// `java -jar junit-platform-console-standalone.jar` 1.9.1: a nested class, a skip, a failure.
    const CONSOLE: &str = "
Thanks for using JUnit! Support its development at https://junit.org/sponsoring

╷
├─ JUnit Platform Suite ✔
├─ JUnit Jupiter ✔
│  ├─ CalcTest ✔
│  │  ├─ adds() ✔
│  │  ├─ later() ↷ not yet
│  │  ├─ Negative ✔
│  │  │  └─ addsNegative() ✘ negative ==> expected: <-2> but was: <-1>
│  │  └─ zero() ✔
│  └─ MoreTest ✔
│     └─ more() ✔
└─ JUnit Vintage ✔

Failures (1):
  JUnit Jupiter:CalcTest:Negative:addsNegative()
    MethodSource [className = 'calc.CalcTest$Negative', methodName = 'addsNegative', methodParameterTypes = '']
    => org.opentest4j.AssertionFailedError: negative ==> expected: <-2> but was: <-1>
       org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)

Test run finished after 233 ms
[         6 containers found      ]
[         4 tests successful      ]
[         1 tests skipped         ]
[         0 tests aborted         ]
[         1 tests failed          ]
";

    fn lines(text: &str) -> Lines<'_> {
        Lines::new(text)
    }

    #[test]
    fn surefires_module_totals_are_counted_once_and_its_failures_carry_their_messages() {
        let mut scanner = SurefireScanner;
        let counts: Vec<_> = MAVEN.lines().filter_map(|l| scanner.feed(l)).collect();
        assert_eq!(counts, vec![TestCounts::new(2, 2, 1, 0)]);
        assert!(MAVEN.lines().any(is_surefire_marker));
        let found = surefire_failures(&lines(MAVEN));
        let named: Vec<_> = found
            .tests
            .iter()
            .map(|t| (t.name.as_str(), t.message.as_deref()))
            .collect();
        assert_eq!(
            named,
            vec![
                (
                    "CalcTest.addsNegative",
                    Some("negative ==> expected: <-2> but was: <-1>")
                ),
                ("CalcTest.divides", Some("Arithmetic / by zero")),
            ]
        );
    }

    /// The same run in the ASCII theme, where the locale is not UTF-8.
    const CONSOLE_ASCII: &str = ".
+-- JUnit Platform Suite [OK]
+-- JUnit Jupiter [OK]
| +-- CalcTest [OK]
| | +-- adds() [OK]
| | +-- later() [S] not yet
| | +-- Negative [OK]
| | | '-- addsNegative() [X] negative ==> expected: <-2> but was: <-1>
| | '-- zero() [OK]
| '-- MoreTest [OK]
|   '-- more() [OK]
'-- JUnit Vintage [OK]

Test run finished after 233 ms
[         4 tests successful      ]
[         1 tests skipped         ]
[         0 tests aborted         ]
[         1 tests failed          ]
";

    #[test]
    fn the_console_launchers_tree_names_every_test_by_its_classes() {
        for text in [CONSOLE, CONSOLE_ASCII] {
            console_tree(text);
        }
    }

    fn console_tree(text: &str) {
        let mut scanner = ConsoleScanner::default();
        let mut names = TestResults::default();
        let counts: Vec<_> = text.lines().filter_map(|l| scanner.feed(l, &mut names)).collect();
        assert_eq!(counts, vec![TestCounts::new(4, 1, 1, 0)]);
        assert_eq!(names.get("CalcTest.adds()"), Some(TestOutcome::Passed));
        assert_eq!(names.get("CalcTest.Negative.addsNegative()"), Some(TestOutcome::Failed));
        assert_eq!(names.get("CalcTest.zero()"), Some(TestOutcome::Passed));
        assert_eq!(names.get("MoreTest.more()"), Some(TestOutcome::Passed));
        assert_eq!(names.get("CalcTest.later()"), None, "a skip did not run");
        assert_eq!(names.tests.len(), 4, "engines and classes are no tests: {names:?}");
        assert!(text.lines().any(is_console_marker));
    }

    #[test]
    fn the_console_launchers_failures_carry_their_messages() {
        let found = console_failures(&lines(CONSOLE));
        assert_eq!(found.tests.len(), 1, "{found:?}");
        assert_eq!(found.tests[0].name, "CalcTest.Negative.addsNegative()");
        assert_eq!(
            found.tests[0].message.as_deref(),
            Some("negative ==> expected: <-2> but was: <-1>")
        );
    }
}
