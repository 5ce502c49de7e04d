//! The environment variables the baseline's test code reads (behaviour in `testsig::env_reads`, asked by
//! `runner::steers_in`), kept with the derived closure in the seal.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

/// What the sealed test files and the code they load (helpers, `conftest.py`, test support) read of the
/// environment: the names they read by a literal, and whether one reads it by a name built at run time (a
/// computed key, the environment iterated or copied whole), which no list can name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnvReads {
    /// The names read by a literal (`os.environ.get("CALC_QUICK")`, `ENV['CI']`, `$CALC_QUICK`).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub names: BTreeSet<String>,
    /// A test reads the environment wholesale: every variable the tree sets may be one it reads.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub wholesale: bool,
    /// The constants read by a literal name (PHP: a bare `CALC_QUICK`, `\CALC_QUICK`, `defined('CALC_QUICK')`,
    /// `constant('CALC_QUICK')`): a `<const>` of PHPUnit's `<php>` defines them before the tests run, so one a test
    /// reads steers it as a variable it reads would. Kept beside the environment's names: the same question
    /// (what did the tests read that the configuration can set) for the language's other channel.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub constants: BTreeSet<String>,
    /// A test reads constants by a name built at run time (`constant($name)`, `get_defined_constants()`): every
    /// constant the configuration defines may be one it reads.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub all_constants: bool,
    /// Every sealed test file was read for what the run prints or warns and none reads it (no output matcher,
    /// no warning hook, no captured stream, no subprocess's output, no call by a computed name): words that only
    /// silence warnings (`RUBYOPT=-W0`, `runner::Words::quiet`) are then free. False where one does, where a
    /// test file's language has no such reading, and in a seal taken before it was recorded.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub output_unread: bool,
}

impl EnvReads {
    /// Whether the tests may read `name` (compared as written: the environment's names are case-sensitive).
    pub fn reads(&self, name: &str) -> bool {
        self.wholesale || self.names.contains(name)
    }

    /// Whether nothing was read and nothing is known of the output (a seal taken before the names were
    /// recorded reads as this).
    pub fn is_empty(&self) -> bool {
        !self.wholesale && self.names.is_empty() && !self.output_unread
    }

    /// Adds what `other` reads.
    pub fn extend(&mut self, other: EnvReads) {
        self.names.extend(other.names);
        self.wholesale |= other.wholesale;
        self.constants.extend(other.constants);
        self.all_constants |= other.all_constants;
        self.output_unread &= other.output_unread;
    }

    /// Whether the tests may read the constant `name` (case-sensitive, as PHP 8's constants are).
    pub fn reads_constant(&self, name: &str) -> bool {
        self.all_constants || self.constants.contains(name)
    }
}
