//! Which held files may be linked rather than copied (`room::snapshot::objects`): those a package manager put in
//! its store, which it writes only by **replacing** files, never by editing one in place.
//!
//! Why it matters. On a file system without reflinks a linked object *is* the user's file (one inode): a package
//! manager's write-new-then-rename, an `rm`, a `git checkout` leave the object the baseline's bytes, but an edit in
//! place reaches it, and then the run cannot be shown what the baseline read and the promise is rejected. That is
//! right for a dependency nobody edits, and a false rejection for a file honest work edits in place every day:
//! `~/.npmrc` under `npm config set`, `~/.gitconfig` under `git config --global`, a venv's `pyvenv.cfg`, a tool's
//! settings file. Under a copy the agent's edit of such a file is irrelevant to the run: it reads the baseline's
//! bytes.
//!
//! The principle. What is large is what package managers install — `node_modules`, site-packages, Cargo's registry
//! sources and git checkouts, Go's module cache, gem directories, Maven's and Gradle's caches, rustup's toolchains
//! — and those trees are written by installing and removing whole files: nothing honest edits a file there in
//! place (debugging a dependency by hand and putting it back is judged by bytes and passes). Everything else the
//! baseline read outside the project (dotfiles, configuration, a venv's `pyvenv.cfg`, `bin/` scripts) is small, so
//! a copy costs little disk. So a file is linked only where it is *known* to be a package's, by what its path is:
//! a component naming a package store **and** what the package manager recorded there when it installed it (a
//! `package.json` in the package's directory, a `RECORD` of the site-packages listing its top-level name, Cargo's
//! `.cargo-ok`, …). Every ecosystem says so for its own stores in its folder (`src/ecosystem/<name>/stores.rs`,
//! its `installed`); anything no ecosystem vouches for — an unknown tool's files, a store without its record, a
//! user's file dropped into a store — is copied. A wrong "no" costs disk; only a wrong "yes" could reject, so
//! every rule errs to "no". No list of dotfile names: a configuration file is copied because no package manager
//! recorded it, whatever its name.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::path::{Component, Path, PathBuf};

include!(concat!(env!("OUT_DIR"), "/ecosystem/room/snapshot/stores.rs"));

/// An ecosystem's rule: whether the file at `path` (a real path: no link on the way) lies in one of its package
/// stores and was recorded there by its package manager; `memo` keeps what was read of records shared by many
/// files (a site-packages' `RECORD`s).
type Installed = fn(&Path, &Memo) -> bool;

/// Every ecosystem's rule (`src/ecosystem/<name>/stores.rs`), in the registration's order.
const INSTALLED: &[Installed] = &each_stores!(installed);

/// Whether the file at `path` was installed by a package manager into its store (see the module doc): only then
/// may its object be a link to it.
pub(crate) fn installed(path: &Path, memo: &Memo) -> bool {
    INSTALLED.iter().any(|rule| rule(path, memo))
}

/// What was read once for many files: per directory, the names a package manager's records list in it.
#[derive(Default)]
pub(crate) struct Memo {
    listed: RefCell<HashMap<PathBuf, HashSet<OsString>>>,
}

impl Memo {
    /// Whether `read(dir)` (the names the records in `dir` list; read once per directory) holds `name`.
    pub(crate) fn lists(&self, dir: &Path, name: &OsStr, read: fn(&Path) -> HashSet<OsString>) -> bool {
        self.listed
            .borrow_mut()
            .entry(dir.to_path_buf())
            .or_insert_with(|| read(dir))
            .contains(name)
    }
}

/// The directory of the last component of `path` named one of `names`, and the components below it (`path`'s
/// parent among them, its file name last): where a file lies in a store named by a component.
pub(crate) fn below<'p>(path: &'p Path, names: &[&str]) -> Option<(PathBuf, Vec<&'p OsStr>)> {
    let parts: Vec<Component> = path.components().collect();
    let at = parts
        .iter()
        .rposition(|part| matches!(part, Component::Normal(name) if names.iter().any(|n| OsStr::new(n) == *name)))?;
    let store: PathBuf = parts[..=at].iter().collect();
    let rest = parts[at + 1..]
        .iter()
        .filter_map(|part| match part {
            Component::Normal(name) => Some(*name),
            _ => None,
        })
        .collect();
    Some((store, rest))
}

/// Whether `path` is a regular file (not followed through a link).
pub(crate) fn is_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|meta| meta.is_file())
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{Memo, installed};

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("parents");
        std::fs::write(path, text).expect("write");
    }

    /// Each store's file, with what its package manager recorded, is linked; the same place without the record,
    /// the store's own bookkeeping, and every configuration file beside it are copied (see the module doc).
    #[test]
    fn a_package_managers_recorded_file_is_installed_and_nothing_else() {
        let temp = tempfile::tempdir().expect("tempdir");
        let home = temp.path().canonicalize().expect("canonical");
        let at = |rel: &str| home.join(rel);
        let recorded = [
            ("node_modules/lodash/package.json", "{}"),
            ("node_modules/@scope/pkg/package.json", "{}"),
            ("node_modules/.pnpm/x@1/node_modules/x/package.json", "{}"),
            (
                "venv/lib/python3.11/site-packages/click-8.1.7.dist-info/RECORD",
                "click/__init__.py,sha256=a,1\n",
            ),
            (".cargo/registry/src/index.crates.io-1/serde-1.0.0/.cargo-ok", "ok"),
            (".cargo/git/checkouts/repo-1/abc123/.cargo-ok", "ok"),
            (".rustup/toolchains/stable-x86_64/lib/rustlib/components", "rustc\n"),
            ("go/pkg/mod/cache/download/golang.org/x/text/@v/v0.14.0.ziphash", "h1:x"),
            ("gomodcache/cache/download/example.com/helper/@v/v1.0.0.ziphash", "h1:x"),
            (".gem/ruby/3.1.0/specifications/rake-13.0.6.gemspec", "spec"),
            (".m2/repository/junit/junit/4.13/_remote.repositories", "x"),
            (".config/composer/vendor/composer/installed.json", "{}"),
        ];
        for (path, text) in recorded {
            write(&at(path), text);
        }
        let memo = Memo::default();
        for linked in [
            "node_modules/lodash/lodash.js",
            "node_modules/lodash/fp/map.js",
            "node_modules/@scope/pkg/index.js",
            "node_modules/.pnpm/x@1/node_modules/x/index.js",
            "venv/lib/python3.11/site-packages/click/__init__.py",
            "venv/lib/python3.11/site-packages/click/core.py",
            ".cargo/registry/src/index.crates.io-1/serde-1.0.0/src/lib.rs",
            ".cargo/git/checkouts/repo-1/abc123/src/lib.rs",
            ".rustup/toolchains/stable-x86_64/lib/rustlib/src/rust/library/std/src/lib.rs",
            ".rustup/toolchains/stable-x86_64/bin/rustc",
            ".rustup/toolchains/stable-x86_64/lib/rustlib/x86_64-unknown-linux-gnu/lib/libstd.rlib",
            "go/pkg/mod/golang.org/x/text@v0.14.0/pkg/language/tags.go",
            "gomodcache/example.com/helper@v1.0.0/helper.go",
            ".gem/ruby/3.1.0/gems/rake-13.0.6/lib/rake.rb",
            ".m2/repository/junit/junit/4.13/junit-4.13.jar",
            ".m2/repository/junit/junit/4.13/junit-4.13.pom",
            ".gradle/caches/modules-2/files-2.1/org.junit/junit/4.13/5a3b0c/junit-4.13.jar",
            ".config/composer/vendor/phpunit/phpunit/src/Framework/Assert.php",
        ] {
            assert!(installed(&at(linked), &memo), "{linked} is a package manager's");
        }
        for copied in [
            // What honest work edits in place, whatever its name.
            ".npmrc",
            ".gitconfig",
            ".config/pip/pip.conf",
            ".cargo/config.toml",
            ".cargo/bin/cargo-nextest",
            "venv/pyvenv.cfg",
            "venv/bin/activate",
            ".gemrc",
            ".m2/settings.xml",
            "go/env",
            // A store's own bookkeeping, rewritten in place by its tool.
            ".rustup/toolchains/stable-x86_64/lib/rustlib/components",
            ".rustup/toolchains/stable-x86_64/lib/rustlib/multirust-channel-manifest.toml",
            ".cargo/registry/src/index.crates.io-1/serde-1.0.0/.cargo-ok",
            ".m2/repository/junit/junit/4.13/_remote.repositories",
            ".m2/repository/junit/junit/4.13/resolver-status.properties",
            "node_modules/.package-lock.json",
            "node_modules/lodash",
            "node_modules/.pnpm/x@1/node_modules/.modules.yaml",
            ".config/composer/vendor/autoload.php",
            ".config/composer/vendor/composer/autoload_real.php",
            // A store without the record its package manager writes.
            "node_modules/unrecorded/index.js",
            "venv/lib/python3.11/site-packages/usercustomize.py",
            "venv/lib/python3.11/site-packages/my.pth",
            ".cargo/registry/src/index.crates.io-1/half-0.1.0/src/lib.rs",
            "go/pkg/mod/example.com/m@v1.0.0/m.go",
            ".gem/ruby/3.1.0/gems/hand-1.0/lib/hand.rb",
            "elsewhere/repository/a/b/1.0/b-1.0.jar",
        ] {
            assert!(!installed(&at(copied), &memo), "{copied} is copied");
        }
    }
}
