//! `loopgate warden ROOT` (hidden): the process that outlives a Stop hook or `loopgate verify` killed outright
//! (`process::tether` has the why and the protocol). It waits for the tethered process to say it is done; if the
//! process dies first, it stops the verify's group and puts the test files that sat out the run back in the
//! project at once, under the project lock, from the stash's journal — what the next stop would otherwise do,
//! too late for an agent that looks for its new test file in the meantime.

use std::path::PathBuf;

use crate::exit_codes;
use crate::lifecycle::{Lookup, lookup};
use crate::process::{KILL_GRACE, tether};
use crate::project::Project;

/// Runs the warden; its stdin is the tether. Always exits 0: no one reads its exit or its output.
pub(crate) fn run(root: PathBuf) -> u8 {
    let Some(left) = tether::listen(std::io::stdin().lock()) else {
        return exit_codes::OK;
    };
    tether::stop(&left.groups, KILL_GRACE);
    if left.aside {
        let project = Project { root };
        // Past the lock's bounded wait it puts back anyway, as `cancel` does: the hook that held it is dead. A
        // failure leaves the files where the journal says, and the next stop puts them back.
        let _lock = super::lock(&project);
        if let Ok(Lookup::Loop(active)) = lookup(&project) {
            let _ = active.put_back_tests();
        }
    }
    exit_codes::OK
}
