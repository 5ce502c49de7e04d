//! PHP's files as the room's tree knows them (`room::tree`): what its runners load on their own from
//! above the tests or from anywhere, and what the walk does not copy. Registered by its line of `tree::TREES`.

use super::TreeFiles;

/// Nothing: not PHPUnit's `phpunit.xml*` either — the closure seals the configuration PHPUnit resolves by its
/// content, whatever its name (`ecosystem/php/closure.rs`), and a promise whose resolved configuration moved never
/// runs; the same content under the name PHPUnit reads next is the configuration that ran the baseline.
pub(super) const TREE: TreeFiles = TreeFiles::NONE;
