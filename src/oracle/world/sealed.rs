//! The test side stood as sealed for one oracle run (see `testswap`): the existing test files and their data as
//! sealed, the agent's new test files and snapshots aside, and all of it put back after the run, whatever it did.
//!
//! Why a stage of its own: a new test the agent wrote cannot change the verdict on the old ones, and an edited
//! old one runs as it was sealed — so what the run judges is the user's tests, as they were (principle 1). The
//! held-out run (`oracle::holdout`) lays the same [`plan`] over its private copy.

use crate::error::Error;
use crate::inputs::Inputs;
use crate::lifecycle::ActiveLoop;
use crate::schema::Check;
use crate::testswap::{Copies, Journal, Plan};

/// The test side as it stands for the run, and how to put it back.
pub(crate) struct Standing<'i> {
    /// The copies that stand in the run (none when existing tests run as edited: `--no-test-seal`).
    pub(crate) copies: Option<&'i Copies>,
    /// The agent's new test files (and new snapshots) that sit out the run.
    pub(crate) sat_out: Vec<String>,
    /// The existing test files that stand as sealed with their imports of renamed code respelled
    /// (`testseal::renamed`), with the content they stand with.
    pub(crate) respelled: Vec<(String, String)>,
    /// The journal of the moves, where the store could not keep it (see [`Standing::stand`]).
    unstored: Option<Journal>,
}

impl<'i> Standing<'i> {
    /// Makes the test side stand as sealed for the run. The caller puts it back with [`Standing::put_back`],
    /// whatever the run did.
    ///
    /// The store keeps the journal so that a run killed midway is put back at the next stop. Where this process
    /// cannot write the store (the agent's own `loopgate verify` in its world, see `confine::world`), the journal
    /// stays in this process, which puts the files back itself.
    pub(crate) fn stand(active: &ActiveLoop, inputs: &'i Inputs) -> Result<Standing<'i>, Error> {
        active.put_back_tests()?;
        let fields = &active.seal.fields;
        let (store, project) = (&active.store, &active.project);
        let plan = plan(active, inputs);
        let mut unstored = None;
        if !plan.is_empty() {
            let keeps = store.writable();
            let journal = crate::testswap::swap(&project.root, &plan, |journal| {
                if !keeps {
                    return Ok(());
                }
                store
                    .save_companion(project, crate::seal::SWAP_JOURNAL, journal)
                    .map_err(std::io::Error::other)
            })
            .map_err(|source| Error::Io {
                action: "set the test files aside for the oracle's run under",
                path: crate::testswap::stash_dir(&project.root),
                source,
            })?;
            unstored = (!keeps).then_some(journal);
        }
        Ok(Standing {
            copies: fields.checks(Check::Tests).then_some(&inputs.data.copies),
            sat_out: plan.sat_out(),
            respelled: plan.respelled.clone(),
            unstored,
        })
    }

    /// Puts the test files set aside for the run back: from this process's journal where the store could not
    /// keep it, else from the store's.
    pub(crate) fn put_back(&self, active: &ActiveLoop) -> Result<(), Error> {
        let root = &active.project.root;
        match &self.unstored {
            Some(journal) => crate::testswap::put_back(root, &journal.moved).map_err(|source| Error::Io {
                action: "put back the test files set aside for the oracle's run under",
                path: crate::testswap::stash_dir(root),
                source,
            }),
            None => active.put_back_tests(),
        }
    }
}

/// What stands as sealed in the oracle's runs: the existing test files that differ from their seal, and the
/// agent's new test files and snapshots that sit out (see `testswap`), with the new `conftest.py` files beside
/// them that the promise's check lets through ([`Inputs::new_files_aside`]). A new test file sits out as its
/// language's unit with no test where the language has one ([`stand_in`]), else as an absent file.
pub(crate) fn plan<'a>(active: &ActiveLoop, inputs: &'a Inputs) -> Plan<'a> {
    let fields = &active.seal.fields;
    let project = &active.project;
    let copies = &inputs.data.copies;
    let mut restore = if fields.checks(Check::Tests) {
        crate::testswap::changed(&project.root, copies)
    } else {
        Vec::new()
    };
    // An existing test file whose only change follows a rename of the code it imports stands as sealed with
    // those imports respelled (`testseal::renamed`).
    let mut respelled = Vec::new();
    if let Some(inventory) = &inputs.tests.inventory {
        restore.retain(
            |(path, sealed)| match inventory.respelled(&project.root, path, sealed) {
                Some(content) => {
                    respelled.push((path.to_string(), content));
                    false
                }
                None => true,
            },
        );
    }
    let (stood_in, mut aside) = match &inputs.tests.inventory {
        Some(inventory) if fields.checks(Check::NewTestsAside) => {
            stand_in(inventory.new_test_files(&project.root), &restore)
        }
        _ => (Vec::new(), Vec::new()),
    };
    if fields.checks(Check::NewTestsAside) && inputs.tests.inventory.is_some() {
        aside.extend(copies.new_snapshots(&project.root));
    }
    aside.extend(inputs.new_files_aside(&project.root, &|check| fields.checks(check)));
    Plan {
        restore,
        cut: {
            let mut cut = match &inputs.tests.inventory {
                Some(inventory) if fields.checks(Check::Tests) => inventory.new_test_files_cut(&project.root),
                _ => Vec::new(),
            };
            cut.extend(
                stood_in
                    .iter()
                    .map(|(path, content)| (path.clone(), content.to_string())),
            );
            cut.extend(respelled.iter().cloned());
            cut
        },
        aside,
        stood_in: stood_in.into_iter().map(|(path, _)| path).collect(),
        respelled,
    }
}

/// Splits the agent's new test files into those that stand in the run as their language's unit with no test
/// (`schema::Lang::stand_in`: the name stays, so a manifest naming the file finds it, and nothing of the
/// agent's runs) and those simply absent from it. A new file whose unit name is a restored sealed file's is
/// absent: it is that file moved (`tests/api.rs` to `tests/api/main.rs`, `tests/test_calc.py` to
/// `tests/unit/test_calc.py`), whose sealed tests run from their old place, and a stand-in beside them would be
/// a second unit of that name, which the runner refuses (cargo's duplicate target, pytest's import mismatch).
fn stand_in(new_tests: Vec<String>, restored: &[(&str, &str)]) -> (Vec<(String, &'static str)>, Vec<String>) {
    let restored_units: Vec<&str> = restored.iter().filter_map(|(path, _)| unit_name(path)).collect();
    let mut stood_in = Vec::new();
    let mut absent = Vec::new();
    for path in new_tests {
        let moved = unit_name(&path).is_some_and(|unit| restored_units.contains(&unit));
        match crate::schema::Lang::of(std::path::Path::new(&path)).and_then(crate::schema::Lang::stand_in) {
            Some(content) if !moved => stood_in.push((path, content)),
            _ => absent.push(path),
        }
    }
    (stood_in, absent)
}

/// The name a runner knows a test file's unit by: its stem, or its directory's name for a file that stands for
/// its directory (`main.rs`, `mod.rs`, `__init__.py`).
fn unit_name(path: &str) -> Option<&str> {
    let path = std::path::Path::new(path);
    let stem = path.file_stem()?.to_str()?;
    match stem {
        "main" | "mod" | "__init__" => path.parent()?.file_name()?.to_str(),
        _ => Some(stem),
    }
}

#[cfg(test)]
mod tests {
    use super::stand_in;

    fn split(new: &[&str], restored: &[&str]) -> (Vec<String>, Vec<String>) {
        let restored: Vec<(&str, &str)> = restored.iter().map(|path| (*path, "")).collect();
        let (stood_in, absent) = stand_in(new.iter().map(|path| path.to_string()).collect(), &restored);
        (stood_in.into_iter().map(|(path, _)| path).collect(), absent)
    }

    #[test]
    fn a_new_test_file_stands_in_unless_it_is_a_restored_file_moved() {
        let (stood_in, absent) = split(&["tests/unit/test_more.py", "tests/other.rs"], &["tests/test_calc.py"]);
        assert_eq!(stood_in, ["tests/unit/test_more.py", "tests/other.rs"]);
        assert!(absent.is_empty());
        let (stood_in, absent) = split(
            &["tests/unit/test_calc.py", "tests/api/main.rs", "spec/calc.test.js"],
            &["tests/test_calc.py", "tests/api.rs"],
        );
        assert!(stood_in.is_empty(), "{stood_in:?}");
        assert_eq!(
            absent,
            ["tests/unit/test_calc.py", "tests/api/main.rs", "spec/calc.test.js"]
        );
    }
}
