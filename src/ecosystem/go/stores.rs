//! Go's module cache for the snapshot (`room::snapshot::stores`): a file of a module extracted at
//! `<cache>/<module>@<version>/…` (`GOMODCACHE`, `$GOPATH/pkg/mod` by default, wherever it is), where the go
//! command recorded the module's download in the same cache (`<cache>/cache/download/<module>/@v/<version>.ziphash`).
//! The go command extracts a module once, read-only, and removes it only with `go clean -modcache`; nothing
//! edits it in place. Anything else (`go/env`, a module replaced by a directory of the user's) is copied.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use super::{Memo, is_file};

pub(crate) fn installed(path: &Path, _memo: &Memo) -> bool {
    let parts: Vec<&OsStr> = path.iter().collect();
    // The first component with an `@` ends the module's path (`golang.org/x/text@v0.14.0`); a file lies below it.
    let Some(at) = parts.iter().position(|part| part.as_encoded_bytes().contains(&b'@')) else {
        return false;
    };
    let Some((name, version)) = parts[at].to_str().and_then(|part| part.split_once('@')) else {
        return false;
    };
    if at + 1 >= parts.len() || name.is_empty() || version.is_empty() {
        return false;
    }
    // The cache's root is one of the directories above: the module's path is what lies between it and the `@`.
    (1..at).any(|root| {
        let cache: PathBuf = parts[..root].iter().collect();
        let download = parts[root..at]
            .iter()
            .fold(cache.join("cache/download"), |dir, part| dir.join(part))
            .join(name)
            .join("@v")
            .join(format!("{version}.ziphash"));
        is_file(&download)
    })
}
