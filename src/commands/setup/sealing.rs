//! What setup seals besides the loop's state: the files under `--seal`, the verify command's closure (the
//! files that define what it runs) and the test inventory (every existing test's signature). Each is taken
//! once, here, before the loop starts; afterwards only `loopgate allow` changes them.

use std::collections::BTreeMap;
use std::path::Path;

use super::Config;
use crate::closure::Closure;
use crate::error::Error;
use crate::inventory::Inventory;
use crate::schema::Check;

/// The oracle's inputs as they are at setup.
pub(crate) struct Sealed {
    /// `--seal` files: relative path → SHA-256.
    pub(crate) files: BTreeMap<String, String>,
    pub(crate) closure: Option<Closure>,
    pub(crate) inventory: Option<Inventory>,
    /// The traces of the test run the code under test already holds (see `aware`).
    pub(crate) aware: Option<crate::aware::Known>,
}

impl Sealed {
    /// Takes everything `config` asks to seal in `root`.
    pub(crate) fn take(config: &Config, root: &Path) -> Result<Sealed, Error> {
        let files = crate::inputs::UserGlobs::take(&config.seal, root)?.files;
        let on = |check| !config.opt_out.contains(&check);
        // Without a verify command nothing runs the tests, so there is nothing of theirs to seal.
        let Some(command) = config.verify.as_deref() else {
            return Ok(Sealed {
                files,
                closure: None,
                inventory: None,
                aware: None,
            });
        };
        let closure = Closure::take(command, root);
        // No existing test: nothing to protect, and no file to keep.
        let inventory = (on(Check::Tests) || on(Check::Skips))
            .then(|| Inventory::take_for(root, &closure))
            .filter(|inventory| !inventory.files.is_empty());
        let own_tests = inventory.iter().flat_map(Inventory::own_test_files).cloned();
        let aware = on(Check::TestAwareness).then(|| crate::aware::Known::take(root, own_tests));
        Ok(Sealed {
            files,
            closure: Some(closure),
            inventory,
            aware,
        })
    }

    /// `(existing, named)` files of the closure, for the briefing.
    pub(crate) fn closure_counts(&self) -> (usize, usize) {
        self.closure
            .as_ref()
            .map_or((0, 0), |c| (c.existing_files(), c.files.len()))
    }

    /// How many test files and tests the inventory seals.
    pub(crate) fn test_counts(&self) -> (usize, usize) {
        self.inventory
            .as_ref()
            .map_or((0, 0), |i| (i.files.len(), i.test_count()))
    }
}
