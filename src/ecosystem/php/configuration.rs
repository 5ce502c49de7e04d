//! PHPUnit's XML configuration (`phpunit.xml`, `phpunit.dist.xml`, `phpunit.xml.dist`, or the file `-c` names)
//! read element by element and attribute by attribute: one place that says which of its settings can change a
//! verdict (`closure::phpunit_config`, a reader of `closure::READERS`).
//!
//! Free, because loopgate reads PHPUnit's own JUnit report and the per-test verdict, not its output:
//! - what only changes what it prints ([`DISPLAY`], `displayDetailsOn…`), a longer time limit, and the result
//!   cache (`cacheResult`, `cacheResultFile`, `cacheDirectory`) — but while `executionOrder` holds `defects` the
//!   cache decides the order the tests run in, and then it counts; `executionOrder="defects"` itself is free with
//!   `cacheResult="false"` (no cache is read, so the order is the default one: [`order_reads_nothing`]);
//! - the coverage and logging sections (`<coverage>`, `<filter>`, `<logging>`, and `<source>` while it sets none
//!   of its own attributes, whose `restrict…` / `ignore…` decide which issues count): what to measure and where to
//!   write it. Not while one of them sets `processUncoveredFiles…` (PHPUnit 9 then *loads* every source file it
//!   did not cover, code that runs in the test process): the section then counts whole;
//! - a stricter setting: `beStrictAbout…`, `failOn…`, `stopOn…`, `convert…ToExceptions`, `enforceTimeLimit`,
//!   `requireCoverageMetadata` set to `true` may appear (a part marked `units::ADDABLE`); set to anything else
//!   (PHPUnit 9 reads `1` or `yes` as the default, off), or removed where the baseline had it, it counts;
//! - in `<php>`, read entry by entry: an `<ini>` that only bounds the process (`memory_limit`,
//!   `max_execution_time`), and one that only makes the run stricter (`error_reporting` at `E_ALL`,
//!   `display_errors` on) may appear; an `<env>` or `<server>` no runner and no sealed test reads, and a
//!   `<const>` no sealed test (nor the bootstrap or helpers it loads) reads by its name
//!   (`testsig::env_reads::constants`: a bare upper-case name, `defined('X')`, `constant('X')`), and a `<var>`
//!   (a global) none reads (`$GLOBALS['X']`, `global $X;`; `$GLOBALS` used whole reads them all), are the code's
//!   input and free; every other entry counts, each its own part;
//! - a test selection widened by new tests only: each `<directory>` and `<file>` of a `<testsuite>` is one
//!   entry (`closure::selection`), judged by the files it selects — a new suite of the agent's new tests is free,
//!   because they sit out the oracle's run; a `<file>src/patch.php</file>` or a `<directory suffix=".php">`
//!   reaching a file that is no test counts.
//!
//! Everything else counts, each setting its own part: the root's other attributes (`bootstrap`,
//! `executionOrder`, `processIsolation`, `printerClass`, a stricter setting made laxer), a suite's `<exclude>` and
//! its other attributes, an entry PHPUnit filters by PHP version, `<php>`'s other entries (ini settings,
//! the environment and constants the tests read, include path), `extensionsDirectory` (PHPUnit loads every PHAR
//! there before the tests), `<extensions>`, `<listeners>`, `<groups>`, an `<xi:include>` (PHPUnit's loader runs XInclude), and any element
//! not named here. A document that does not parse is one part, its bytes.

use super::parts::{Reading, Texts};
use super::selection;
use super::units::ADDABLE;
use super::xml_tree::{self, Element};

/// The reader of a PHPUnit configuration file, in `closure::READERS`.
pub(crate) const READING: Reading = Reading {
    kind: "phpunit",
    parts: |text, names| parts(text, names),
    labels: |_| vec!["its settings, one by one".to_string()],
    resolves: None,
};

/// The root's attributes that only change what PHPUnit prints or how long a test may take (PHPUnit 8 to 12).
const DISPLAY: &[&str] = &[
    "colors",
    "columns",
    "testdox",
    "verbose",
    "reverseDefectList",
    "noInteraction",
    "cacheTokens",
    "timeoutForSmallTests",
    "timeoutForMediumTests",
    "timeoutForLargeTests",
    "defaultTimeLimit",
];

/// The result cache's attributes: free unless `executionOrder` reads the cache (`defects`).
const CACHE: &[&str] = &["cacheResult", "cacheResultFile", "cacheDirectory"];

/// Prefixes of the root's attributes whose `true` only makes more tests fail or the run stop sooner (a run
/// stopped before a baseline test ran is no pass).
const STRICTER: &[&str] = &[
    "beStrictAbout",
    "failOn",
    "stopOn",
    "enforceTimeLimit",
    "requireCoverageMetadata",
    "convertDeprecationsToExceptions",
    "convertErrorsToExceptions",
    "convertNoticesToExceptions",
    "convertWarningsToExceptions",
];

/// Sections that say what to measure and where to report it.
const REPORTING: &[&str] = &["coverage", "filter", "logging"];

/// Among the reading's names (persisted in seals): `<php>` is read entry by entry ([`php`]). A seal taken before
/// that reading holds `<php>` whole, and is read so, so a loop set up by an older build is judged as it was.
pub(crate) const BY_ENTRY: &str = "<php> entry by entry";

/// The label of the part standing for the document itself: a configuration there or not.
const DOCUMENT: &str = "the configuration";

/// The parts of a PHPUnit configuration, labelled for people (`bootstrap`, `<php>`, `testsuite unit selects …`).
/// `names` are the reading's, persisted in the seal: with [`BY_ENTRY`] among them `<php>` is read entry by entry
/// ([`php`]); with `parts::DATA_VARIABLES` (a seal taken since the tests' reads were recorded) its `<env>` and
/// `<server>` entries are judged variable by variable, the names the tests read following the marker
/// ([`data_variable`]).
pub(crate) fn parts(text: &str, names: &[String]) -> Texts {
    let Some(root) = xml_tree::parse(text) else {
        return vec![(super::parts::UNPARSABLE.to_string(), text.to_string())];
    };
    let mut out = Parts::default();
    out.push(DOCUMENT, root.name.clone());
    let defects = root
        .attribute("executionOrder")
        .is_some_and(|order| order.contains("defects"));
    let order_reads_nothing = order_reads_nothing(&root);
    for (name, value) in &root.attributes {
        let free = DISPLAY.contains(&name.as_str())
            || name.starts_with("displayDetailsOn")
            || name.starts_with("xmlns")
            || name.starts_with("xsi:")
            || (CACHE.contains(&name.as_str()) && (!defects || order_reads_nothing))
            || (name == "executionOrder" && order_reads_nothing);
        if free {
            continue;
        }
        let stricter = STRICTER.iter().any(|prefix| name.starts_with(prefix)) && value == "true";
        let text = if stricter {
            format!("{ADDABLE}{value}")
        } else {
            value.clone()
        };
        out.push(name, text);
    }
    for child in &root.children {
        match child.name.as_str() {
            name if REPORTING.contains(&name) => {
                if loads_code(child) {
                    out.push(&format!("<{name}>"), child.canonical());
                }
            }
            "source" => {
                if !child.attributes.is_empty() || loads_code(child) {
                    out.push("<source>", child.canonical());
                }
            }
            "testsuites" => suites(child, &mut out),
            "php" if names.iter().any(|n| n == BY_ENTRY) => php(child, names, &mut out),
            "php" => {
                if let Some(section) = php_section(child, names) {
                    out.push("<php>", section);
                }
            }
            name => out.push(&format!("<{name}>"), child.canonical()),
        }
    }
    out.0
}

/// The `ini` settings that only bound the process (memory, time): free, since running out of either fails a
/// run and never passes one.
const FREE_INI: &[&str] = &["memory_limit", "max_execution_time"];

/// `<php>`, entry by entry: PHPUnit applies it before the bootstrap (`ini_set`, `putenv`, `define`, the include
/// path), so every entry can change what the code under test does and counts, each its own part (`<php> <ini
/// error_reporting>`), but for an `<ini>` of [`FREE_INI`] and an `<ini>` that only makes the run stricter
/// ([`stricter_ini`]), which may appear (`closure::units::ADDABLE`) but not go or change, a variable that is
/// data ([`data_variable`]) and a constant no sealed test reads ([`data_constant`]).
fn php(section: &Element, names: &[String], out: &mut Parts) {
    for (name, value) in &section.attributes {
        out.push(&format!("<php> {name}"), value.clone());
    }
    for entry in &section.children {
        let name = entry.attribute("name").unwrap_or("");
        let value = entry.attribute("value").unwrap_or("");
        let plain_ini = entry.name == "ini"
            && entry.children.is_empty()
            && entry.attributes.iter().all(|(key, _)| key == "name" || key == "value");
        if (plain_ini && FREE_INI.contains(&name)) || data_variable(entry, names) || data_constant(entry, names) {
            continue;
        }
        let label = format!("<php> <{} {name}>", entry.name);
        if plain_ini && stricter_ini(name, value) {
            out.push(&label, format!("{ADDABLE}{value}"));
        } else {
            out.push(&label, entry.canonical());
        }
    }
}

/// Whether `<ini name value>` can only make more tests fail: every error reported (`error_reporting` at
/// `E_ALL`, which PHPUnit turns into failures as configured), or errors displayed where the tests' output is
/// captured (`display_errors` on, to standard output: output a test is strict about makes it risky, never
/// passing). `display_errors=stderr` is not: it takes the messages out of the captured output.
fn stricter_ini(name: &str, value: &str) -> bool {
    let value = value.trim().to_ascii_lowercase();
    match name {
        "error_reporting" => matches!(value.as_str(), "-1" | "e_all" | "32767"),
        "display_errors" | "display_startup_errors" => {
            matches!(value.as_str(), "1" | "on" | "yes" | "true" | "stdout")
        }
        _ => false,
    }
}

/// The `<php>` section as sealed where it is not read entry by entry (a seal without [`BY_ENTRY`]): whole, but
/// without the entries that are data ([`data_variable`]). A section left empty is as if absent.
fn php_section(php: &Element, names: &[String]) -> Option<String> {
    if !names.iter().any(|n| n == super::parts::DATA_VARIABLES) {
        return Some(php.canonical());
    }
    let mut kept = php.clone();
    kept.children.retain(|entry| !data_variable(entry, names));
    (!kept.children.is_empty() || !kept.attributes.is_empty()).then(|| kept.canonical())
}

/// Whether `<php>`'s `entry` sets a variable no program of the run reads to decide what runs or counts and the
/// tests do not read (`runner::steers`, or one of the names after `parts::DATA_VARIABLES` in `names`): `<env
/// name="APP_ENV" value="testing"/>` read by the code alone is data, as the same variable set by make is;
/// `CALC_QUICK` read by a sealed test, or `XDEBUG_MODE`, counts. Never data in a seal without the marker.
fn data_variable(entry: &Element, names: &[String]) -> bool {
    let Some(at) = names.iter().position(|n| n == super::parts::DATA_VARIABLES) else {
        return false;
    };
    let read = after(&names[at + 1..]);
    matches!(entry.name.as_str(), "env" | "server")
        && entry.attribute("name").is_some_and(|name| {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !crate::runner::steers(name)
                && !read.iter().any(|r| r == name)
        })
}

/// Whether `<php>`'s `entry` is a `<const name value/>` defining a constant, or a `<var name value/>` setting a
/// global (`$GLOBALS[name]`), that no sealed test (nor a test-side file it loads) reads (the names after `parts::DATA_CONSTANTS` in `names`, `schema::EnvReads::constants`): the
/// code under test's input, which the agent may give it as it may a new constant in the code. One a test reads
/// (`defined('CALC_QUICK')`, a bare `CALC_QUICK`) counts, as does every `<const>` where a test builds a constant's
/// name at run time (no marker then) or in a seal taken before the reading, and one PHPUnit itself reads
/// (`PHPUNIT_…`, `__PHPUNIT_…`).
fn data_constant(entry: &Element, names: &[String]) -> bool {
    let Some(at) = names.iter().position(|n| n == super::parts::DATA_CONSTANTS) else {
        return false;
    };
    let read = after(&names[at + 1..]);
    let plain = entry.children.is_empty()
        && entry.text.trim().is_empty()
        && entry.attributes.iter().all(|(key, _)| key == "name" || key == "value");
    matches!(entry.name.as_str(), "const" | "var")
        && plain
        && entry.attribute("name").is_some_and(|name| {
            // A namespaced name is read by its last segment (`testsig::env_reads::constants`).
            let last = name.rsplit('\\').next().unwrap_or("");
            !last.is_empty()
                && last.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                && !last.to_ascii_uppercase().trim_start_matches('_').starts_with("PHPUNIT")
                && !read.iter().any(|r| r == last)
        })
}

/// The names a marker's segment holds: those up to the next marker (a name in parentheses).
fn after(names: &[String]) -> &[String] {
    let end = names.iter().position(|n| n.starts_with('(')).unwrap_or(names.len());
    &names[..end]
}

/// Whether the root's `executionOrder` orders the tests by nothing at all: only `defects` (or `default`) while
/// `cacheResult="false"` — PHPUnit then neither reads nor writes a result cache, so defects first sorts every
/// test alike and the run keeps the default order (PHP's sort is stable). Any other order (`random`,
/// `reverse`, `duration`, which reads the cache's times, `size`, `depends`) counts, and so does `defects` with
/// the cache on: the cache is a file the agent can write, and an order decides what state each test meets.
fn order_reads_nothing(root: &Element) -> bool {
    root.attribute("cacheResult") == Some("false")
        && root.attribute("executionOrder").is_some_and(|order| {
            order
                .split(',')
                .all(|word| matches!(word.trim(), "default" | "defects"))
        })
}

/// Whether a reporting section makes PHPUnit load the files it did not cover (`processUncoveredFiles`,
/// `processUncoveredFilesFromWhitelist`), anywhere in it.
fn loads_code(element: &Element) -> bool {
    element
        .attributes
        .iter()
        .any(|(name, value)| name.starts_with("processUncoveredFiles") && value != "false")
        || element.children.iter().any(loads_code)
}

/// The test suites: each `<directory>` and `<file>` an entry of the selection where a glob spells exactly what
/// it selects, every other element and attribute a part.
fn suites(testsuites: &Element, out: &mut Parts) {
    for (name, value) in &testsuites.attributes {
        out.push(&format!("<testsuites> {name}"), value.clone());
    }
    for suite in &testsuites.children {
        if suite.name != "testsuite" {
            out.push(&format!("<testsuites> <{}>", suite.name), suite.canonical());
            continue;
        }
        let group = format!("testsuite {}", suite.attribute("name").unwrap_or(""));
        for (name, value) in suite.attributes.iter().filter(|(name, _)| name != "name") {
            out.push(&format!("{group} {name}"), value.clone());
        }
        for entry in &suite.children {
            match entry_glob(entry) {
                // The same entry twice selects the same files once.
                Some(glob) => out.push_once(selection::label(&group, &glob)),
                None => out.push(&format!("{group} <{}>", entry.name), entry.canonical()),
            }
        }
    }
}

/// The glob of what a `<directory>` (its files named `prefix*suffix`, below it at any depth) or a `<file>`
/// selects, relative to the configuration's directory; `None` where no glob says it exactly (a path outside
/// the project or with a pattern of its own, a filter by PHP version).
fn entry_glob(entry: &Element) -> Option<String> {
    let path = entry.text.trim().trim_start_matches("./").trim_end_matches('/');
    let plain = !path.starts_with('/')
        && !path.split('/').any(|c| c == "..")
        && !path.contains(['*', '?', '[', '{', '\\'])
        && !path.is_empty();
    if !plain {
        return None;
    }
    let only = |allowed: &[&str]| {
        entry
            .attributes
            .iter()
            .all(|(name, _)| allowed.contains(&name.as_str()))
    };
    match entry.name.as_str() {
        "directory" if only(&["suffix", "prefix"]) => {
            let suffix = entry.attribute("suffix").unwrap_or("Test.php");
            let prefix = entry.attribute("prefix").unwrap_or("");
            let name = format!("{}*{}", globset::escape(prefix), globset::escape(suffix));
            Some(if path == "." {
                format!("**/{name}")
            } else {
                format!("{path}/**/{name}")
            })
        }
        "file" if only(&[]) => Some(path.to_string()),
        _ => None,
    }
}

/// Parts in document order, a label met again numbered (`<php> (2)`).
#[derive(Default)]
struct Parts(Texts);

impl Parts {
    fn push_once(&mut self, label: String) {
        if !self.0.iter().any(|(l, _)| *l == label) {
            self.0.push((label, String::new()));
        }
    }

    fn push(&mut self, label: &str, text: String) {
        let mut unique = label.to_string();
        let mut n = 1;
        while self.0.iter().any(|(l, _)| *l == unique) {
            n += 1;
            unique = format!("{label} ({n})");
        }
        self.0.push((unique, text));
    }
}

#[cfg(test)]
#[path = "configuration/tests.rs"]
mod tests;
