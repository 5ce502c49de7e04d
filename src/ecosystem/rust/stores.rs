//! Cargo's and rustup's package stores for the snapshot (`room::snapshot::stores`): a crate unpacked in the
//! registry (`registry/src/<index>/<crate>-<version>/…`) or checked out from git (`git/checkouts/<repo>/<rev>/…`),
//! where cargo left the `.cargo-ok` it writes once the crate is whole; and a rustup toolchain
//! (`toolchains/<name>/…`) with the `lib/rustlib/components` rustup records of what it installed (the records
//! themselves, which rustup rewrites where they stand, are copied, as is `.cargo-ok`). Cargo never
//! edits an unpacked crate (it unpacks anew), rustup installs and removes whole components; an edit there to
//! debug a dependency is named, not hidden. Cargo's own configuration (`config.toml`, `credentials.toml`) and
//! binaries under `bin/` are no package of a store, so they are copied.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use super::{Memo, is_file};

pub(crate) fn installed(path: &Path, _memo: &Memo) -> bool {
    let parts: Vec<&OsStr> = path.iter().collect();
    // The directory of the first `n` components joined with `more`.
    let at = |n: usize, more: &str| parts[..n].iter().collect::<PathBuf>().join(more);
    parts.windows(2).enumerate().any(|(i, pair)| {
        // `…/registry/src/<index>/<crate>/<file…>`, `…/git/checkouts/<repo>/<rev>/<file…>`
        let crate_dir = i + 4;
        let store = (pair[0] == "registry" && pair[1] == "src") || (pair[0] == "git" && pair[1] == "checkouts");
        if store && parts.len() > crate_dir {
            // The record itself is cargo's bookkeeping, not the crate's: copied.
            return parts.last() != Some(&OsStr::new(".cargo-ok")) && is_file(&at(crate_dir, ".cargo-ok"));
        }
        // `…/toolchains/<name>/<file…>`, but not rustup's own records in `lib/rustlib/` (`components`, its
        // manifests), which `rustup component add` rewrites where they stand.
        let toolchain = i + 3;
        let records = parts.len() == toolchain + 3 && parts[toolchain] == "lib" && parts[toolchain + 1] == "rustlib";
        pair[1] == "toolchains"
            && parts.len() > toolchain
            && !records
            && is_file(&at(toolchain, "lib/rustlib/components"))
    })
}
