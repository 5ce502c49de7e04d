//! cargo test's start hook (`room::hook`): `test-runner.sh` beside this file, the runner cargo runs every test
//! binary through. No variable of its own loads it: `room::cargo_hook` names [`FILE`] in
//! `CARGO_TARGET_<triple>_RUNNER` where the project has no runner of its own.

use std::io;
use std::path::Path;

/// The hook, in the room.
pub(crate) const FILE: &str = "hook/rust/loopgate-test-runner";
const RUNNER: &str = include_str!("test-runner.sh");

pub(super) struct Hook;

impl super::StartHook for Hook {
    fn install(&self, room: &Path) -> io::Result<()> {
        super::write(room, FILE, RUNNER, true)
    }
}
