//! `bats`: it reads no configuration file (its options are its command line, which the seal holds). What it
//! loads is the tests' own doing: `load`/`source` of helpers under `test/` (the test side, sealed with the
//! tests) and of the code under test (`lib/*.sh`, the agent's, see `runner::TestFiles::loads_scripts`).

use super::{Deriver, Lang, Runner, Scripts, Simple};

/// Shell scripts, bats' test files among them (`derive::SCRIPTS`); `sh FILE` is read by `code_under_test` itself.
pub(super) const SCRIPTS: Scripts = Scripts {
    extensions: &["sh", "bash", "zsh", "bats"],
    runs_first_word: |_| false,
};

impl Deriver<'_> {
    pub(super) fn bats(&mut self) {
        self.plan.ecosystems.insert(Lang::Shell);
        self.plan.runners.insert(Runner::Bats);
    }
}

/// The closure's rule for bats (`closure::derive::PROGRAMS`): whether `cmd` runs one, whose configuration
/// it then reads.
pub(super) fn program(d: &mut Deriver, cmd: &Simple) -> bool {
    match cmd.name {
        "bats" => d.bats(),
        _ => return false,
    }
    true
}
