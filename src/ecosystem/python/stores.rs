//! Python's package store for the snapshot (`room::snapshot::stores`): a file in a `site-packages` or
//! `dist-packages` directory (a venv's `lib/`, the user site, a system-wide one this user owns) whose top-level
//! name below it — a package's directory, a module, a `.dist-info` — is listed in one of that directory's
//! `*.dist-info/RECORD`s, the file pip (and uv, poetry, installer) writes of what it installed. Installers write
//! a new file and rename it over, and uninstall by removing; nothing they installed is edited in place. A file
//! no `RECORD` lists (a `.pth` or `sitecustomize.py` written by hand, a package of an egg-link) is copied, and so
//! is all of a venv outside `site-packages` (`pyvenv.cfg`, `bin/`).

use std::collections::HashSet;
use std::ffi::OsString;
use std::path::Path;

use super::{Memo, below};

pub(crate) fn installed(path: &Path, memo: &Memo) -> bool {
    let Some((site, rest)) = below(path, &["site-packages", "dist-packages"]) else {
        return false;
    };
    let Some(top) = rest.first() else {
        return false;
    };
    memo.lists(&site, top, recorded)
}

/// The top-level names the `RECORD`s of the site-packages `site` list (a `RECORD` line is `path,hash,size`; the
/// path is relative to the site, `/`-separated).
fn recorded(site: &Path) -> HashSet<OsString> {
    let mut names = HashSet::new();
    let Ok(entries) = std::fs::read_dir(site) else {
        return names;
    };
    for entry in entries.flatten() {
        if !entry.file_name().as_encoded_bytes().ends_with(b".dist-info") {
            continue;
        }
        let Ok(record) = std::fs::read_to_string(entry.path().join("RECORD")) else {
            continue;
        };
        for line in record.lines() {
            let path = line.split(',').next().unwrap_or("");
            let top = path.split('/').next().unwrap_or("");
            // A path climbing out of the site (`../../bin/black`) names no file in it.
            if !top.is_empty() && top != ".." && top != "." {
                names.insert(OsString::from(top));
            }
        }
    }
    names
}
