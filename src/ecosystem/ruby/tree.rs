//! Ruby's files as the room's tree knows them (`room::tree`): what its runners load on their own from
//! above the tests or from anywhere, and what the walk does not copy. Registered by its line of `tree::TREES`.

use super::TreeFiles;

pub(super) const TREE: TreeFiles = TreeFiles {
    // the task files rake imports from `rakelib/` beside the Rakefile before it runs any task (one can set `RUBYOPT` for the test task's ruby).
    config_dirs: &[("rakelib", "", ".rake")],
    ..TreeFiles::NONE
};
