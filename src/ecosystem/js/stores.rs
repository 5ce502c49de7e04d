//! node's package store for the snapshot (`room::snapshot::stores`): a file in a package of a `node_modules`
//! (npm, yarn, pnpm's `.pnpm/<id>/node_modules/<name>`), where the package's directory holds the `package.json`
//! its package manager unpacked with it. npm, yarn and pnpm install by writing new files and renaming or linking
//! them in, never by editing a package's file in place. Files of the `node_modules` directory itself
//! (`.package-lock.json`, `.yarn-integrity`, `.modules.yaml`) and anything without a manifest are copied.

use std::path::Path;

use super::{Memo, below, is_file};

pub(crate) fn installed(path: &Path, _memo: &Memo) -> bool {
    let Some((store, rest)) = below(path, &["node_modules"]) else {
        return false;
    };
    // `@scope/name/…` or `name/…`, and at least one component (the file) below the package's directory.
    let depth = if rest
        .first()
        .is_some_and(|first| first.as_encoded_bytes().starts_with(b"@"))
    {
        2
    } else {
        1
    };
    if rest.len() <= depth
        || rest[..depth]
            .iter()
            .any(|part| part.as_encoded_bytes().starts_with(b"."))
    {
        return false;
    }
    let package = rest[..depth].iter().fold(store, |dir, part| dir.join(part));
    is_file(&package.join("package.json"))
}
