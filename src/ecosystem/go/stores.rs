//! Go's module cache for the snapshot (`room::snapshot::stores`): a file of a module extracted at
//! `…/pkg/mod/<module>@<version>/…`, where the go command recorded the module's download beside it
//! (`pkg/mod/cache/download/<module>/@v/<version>.ziphash`). The go command extracts a module once, read-only,
//! and removes it only with `go clean -modcache`; nothing edits it in place. Anything else (`go/env`, a module
//! replaced by a directory of the user's) is copied.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use super::{Memo, is_file};

pub(crate) fn installed(path: &Path, _memo: &Memo) -> bool {
    // The first `pkg/mod` (a module may hold a `pkg/` of its own).
    let parts: Vec<&OsStr> = path.iter().collect();
    let Some(i) = parts.windows(2).position(|pair| pair[0] == "pkg" && pair[1] == "mod") else {
        return false;
    };
    let (pkg, rest): (PathBuf, &[&OsStr]) = (parts[..=i].iter().collect(), &parts[i + 1..]);
    if rest.len() <= 2 || rest[1] == "cache" {
        return false;
    }
    // The first component with an `@` ends the module's path: `golang.org/x/text@v0.14.0`.
    let Some(at) = rest.iter().position(|part| part.as_encoded_bytes().contains(&b'@')) else {
        return false;
    };
    if at + 1 >= rest.len() {
        return false;
    }
    let Some((name, version)) = rest[at].to_str().and_then(|part| part.split_once('@')) else {
        return false;
    };
    let download = rest[1..at]
        .iter()
        .fold(pkg.join("mod/cache/download"), |dir, part| dir.join(part))
        .join(name)
        .join("@v")
        .join(format!("{version}.ziphash"));
    is_file(&download)
}
