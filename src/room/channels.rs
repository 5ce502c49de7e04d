//! The structured reports runners write for the verdict where only loopgate looks, one [`ReportChannel`] per
//! ecosystem that has one, in its folder beside its reader (pytest's `--junitxml` in `python/report.rs`,
//! GoogleTest's directory in `cpp/report.rs`, Surefire's build directory in `jvm/report.rs`, the reports the PHP
//! start hook asks PHPUnit for in `php/report.rs`), registered by one line of `room::CHANNELS`. The room asks
//! each of them the same questions — empty it before a run, point the run's variables at it, whether the
//! baseline's report can stand for the verdict, which tests it names, why a passing run is no pass by it —
//! so the room names none of them. What the room decided of each at setup is stored in its record under the
//! channel's own key ([`Flags`]), the bool field it was when the room named them (`"pytest_report": true`), so
//! records written before and after read alike.
//!
//! The start hooks' events (`room::hook`) are no channel: every hook writes the same events file, and the
//! record names the runners whose events stood (`Recorded::hook_report`).

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::io;

use serde::{Deserialize, Serialize};

use super::report::Problem;
use super::{Recorded, Room};
use crate::readout::TestResults;

/// One ecosystem's report through a channel only loopgate knows.
pub(crate) trait ReportChannel: Sync {
    /// The key the room's record stores whether the baseline's report stood under (persisted: never changed).
    fn key(&self) -> &'static str;

    /// Whose report it is, as the verdict's note names it (`pytest`, `GoogleTest`).
    fn who(&self) -> &'static str;

    /// Whether its names are the run's (its runner's output names only failures, or whole binaries, or test
    /// classes), rather than standing beside the output's: `status` names such a report first.
    fn names_the_run(&self) -> bool;

    /// Removes what the last run wrote, before every run, so that what the verdict reads is this run's.
    fn clear(&self, room: &Room) -> io::Result<()>;

    /// Points a run's variables at it, where a variable does.
    fn set(&self, _room: &Room, _recorded: &Recorded, _vars: &mut BTreeMap<String, OsString>) {}

    /// After the baseline run (read as `results`): whether its report can stand for the verdict.
    fn stands(&self, room: &Room, results: &TestResults) -> bool;

    /// Adds to a run's `results` the tests its report names, where its names are the run's.
    fn add_named(&self, _room: &Room, _results: &mut TestResults) {}

    /// Why a run that passed by its exit and output (`results`) is no pass by its report.
    fn problem(&self, room: &Room, results: &TestResults) -> Option<Problem>;
}

/// The channel stored under `key`.
pub(crate) fn by_key(key: &str) -> Option<&'static dyn ReportChannel> {
    super::CHANNELS.iter().copied().find(|channel| channel.key() == key)
}

/// The room's decisions that belong to one ecosystem, taken at setup: the keys that hold (a channel's report
/// stood at the baseline, the project has a test runner of its own). Stored in the room's record as a bool field
/// per key the room knows (`room::flag_keys`), flattened into it, so the record reads as it did when each was a
/// field of its own; a key the room no longer knows is read past.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Flags(BTreeSet<&'static str>);

impl Flags {
    /// Whether `key` holds.
    pub(crate) fn holds(&self, key: &str) -> bool {
        self.0.contains(key)
    }

    /// Sets `key` to `on`.
    pub(crate) fn set(&mut self, key: &'static str, on: bool) {
        if on {
            self.0.insert(key);
        } else {
            self.0.remove(key);
        }
    }
}

impl Serialize for Flags {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let keys: Vec<&'static str> = super::flag_keys().collect();
        let mut map = serializer.serialize_map(Some(keys.len()))?;
        for key in keys {
            map.serialize_entry(key, &self.holds(key))?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Flags {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Flags;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("the room's decisions, a bool per key")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Flags, A::Error> {
                let mut flags = Flags::default();
                while let Some(name) = map.next_key::<String>()? {
                    match super::flag_keys().find(|key| *key == name) {
                        Some(key) => flags.set(key, map.next_value::<bool>()?),
                        None => {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(flags)
            }
        }
        deserializer.deserialize_map(Visitor)
    }
}
