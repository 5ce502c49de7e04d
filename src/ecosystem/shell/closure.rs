//! `bats`: it reads no configuration file (its options are its command line, which the seal holds). What it
//! loads is the tests' own doing: `load`/`source` of helpers under `test/` (the test side, sealed with the
//! tests) and of the code under test (`lib/*.sh`, the agent's, see `runner::TestFiles::loads_scripts`).

use super::{Deriver, Lang, Runner};

impl Deriver<'_> {
    pub(super) fn bats(&mut self) {
        self.plan.ecosystems.insert(Lang::Shell);
        self.plan.runners.insert(Runner::Bats);
    }
}
