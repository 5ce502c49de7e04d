//! The shell's files as the room's tree knows them (`room::tree`): what its runners load on their own from
//! above the tests or from anywhere, and what the walk does not copy. Registered by its line of `tree::TREES`.

use super::TreeFiles;

pub(super) const TREE: TreeFiles = TreeFiles {
    // bats sources `setup_suite.bash` from the directory of the tests it is given, before any test.
    above_tests: &["setup_suite.bash"],
    ..TreeFiles::NONE
};
