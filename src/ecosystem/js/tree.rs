//! JavaScript's files as the room's tree knows them (`room::tree`): what its runners load on their own from
//! above the tests or from anywhere, and what the walk does not copy. Registered by its line of `tree::TREES`.

use super::TreeFiles;

pub(super) const TREE: TreeFiles = TreeFiles {
    above_tests: &["package.json", ".nvmrc", ".node-version", ".babelrc", "tsconfig.json"],
    config_prefixes: &[
        "jest.config.",
        "vitest.config.",
        "vite.config.",
        "babel.config.",
        ".babelrc.",
        ".mocharc.",
        "karma.conf.",
    ],
    skipped: &[".next", ".turbo", ".parcel-cache", "node_modules"],
    ..TreeFiles::NONE
};
