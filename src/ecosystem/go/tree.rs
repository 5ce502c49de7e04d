//! Go's files as the room's tree knows them (`room::tree`): what its runners load on their own from
//! above the tests or from anywhere, and what the walk does not copy. Registered by its line of `tree::TREES`.

use super::TreeFiles;

pub(super) const TREE: TreeFiles = TreeFiles {
    above_tests: &["go.mod", "go.work"],
    ..TreeFiles::NONE
};
