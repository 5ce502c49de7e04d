//! Does a path reach something protected?
//!
//! A [`Scope`] wraps [`Protected`] for one `check` call: it resolves the protected paths once (lazily, so a
//! call that writes nothing costs no system call) and answers, for a path a tool call would write:
//! is it a protected file, inside a protected directory, sealed — or a directory *containing* any of those
//! (`rm -rf .claude`, `mv tests old`)? Every question errs towards "yes": a false deny costs the agent one
//! reworded command, a missed one costs the oracle its independence.

mod inexact;

use std::cell::OnceCell;
use std::path::{Path, PathBuf};

use super::Protected;
use super::finding::{Hit, Kind, Route};
use super::paths;

/// A hard-linked target is compared with at most this many sealed files.
const MAX_INODE_CHECKS: usize = 10_000;
/// `find -name` looks at most at this many entries of a protected directory.
const MAX_DIR_ENTRIES: usize = 256;
/// A hard-linked target is looked for in a protected directory among at most this many entries, this deep.
const MAX_INODE_WALK: usize = 4096;
const INODE_WALK_DEPTH: usize = 4;

/// A protected file or directory, as given and with its symlinks resolved.
struct Record {
    given: PathBuf,
    resolved: PathBuf,
    dir: bool,
    /// `Kind::Record` for the loop's own files, `Kind::Plane` for the control plane.
    kind: Kind,
}

impl Record {
    /// The record as given and, when symlinks make it differ, as resolved.
    fn forms(&self) -> impl Iterator<Item = &PathBuf> {
        std::iter::once(&self.given).chain((self.resolved != self.given).then_some(&self.resolved))
    }
}

/// The protected set, prepared for one call.
pub(crate) struct Scope<'a> {
    p: &'a Protected,
    home: Option<PathBuf>,
    env: &'a dyn Fn(&str) -> Option<String>,
    records: OnceCell<Vec<Record>>,
}

impl<'a> Scope<'a> {
    pub(crate) fn new(p: &'a Protected, env: &'a dyn Fn(&str) -> Option<String>) -> Self {
        let home = env("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
        Scope {
            p,
            home,
            env,
            records: OnceCell::new(),
        }
    }

    pub(crate) fn root(&self) -> &Path {
        &self.p.project_root
    }

    pub(crate) fn home(&self) -> Option<&Path> {
        self.home.as_deref()
    }

    /// The value of an environment variable as the agent's shell would see it.
    pub(crate) fn var(&self, name: &str) -> Option<String> {
        match name {
            "CLAUDE_PROJECT_DIR" => Some(self.root().to_string_lossy().into_owned()),
            _ => (self.env)(name),
        }
    }

    fn records(&self) -> &[Record] {
        self.records.get_or_init(|| {
            let files = self.p.files.iter().map(|f| (f, false, Kind::Record));
            let dirs = self.p.dirs.iter().map(|d| (d, true, Kind::Record));
            let plane = self.p.plane.iter().map(|p| (&p.path, p.dir, Kind::Plane(p.what)));
            let all: Vec<_> = files
                .chain(dirs)
                .chain(plane)
                .map(|(path, dir, kind)| (paths::lexical(&paths::absolute(path, self.root())), dir, kind))
                .collect();
            let resolved = paths::resolve_all(all.iter().map(|(given, _, _)| given.as_path()));
            all.into_iter()
                .zip(resolved)
                .map(|((given, dir, kind), resolved)| Record {
                    given,
                    resolved,
                    dir,
                    kind,
                })
                .collect()
        })
    }

    /// How the model should see `abs`: relative to the project root, `~/…`, or absolute.
    pub(crate) fn display(&self, abs: &Path) -> String {
        if let Ok(rel) = abs.strip_prefix(self.root()) {
            if rel.as_os_str().is_empty() {
                ".".to_owned()
            } else {
                rel.display().to_string()
            }
        } else if let Some(rel) = self.home().and_then(|h| abs.strip_prefix(h).ok()) {
            format!("~/{}", rel.display())
        } else {
            abs.display().to_string()
        }
    }

    /// Sealed files relative to the project root (they should be; absolute ones are tolerated).
    fn sealed(&self) -> impl Iterator<Item = &Path> {
        let root = self.root();
        self.p
            .sealed_files
            .iter()
            .map(move |f| f.strip_prefix(root).unwrap_or(f))
    }

    fn record_hit(&self, r: &Record, via: Option<String>) -> Hit {
        Hit {
            kind: r.kind.clone(),
            protected: self.display(&r.given),
            via,
            route: None,
        }
    }

    fn sealed_hit(rel: &Path, via: Option<String>) -> Hit {
        Hit {
            kind: Kind::Sealed,
            protected: rel.display().to_string(),
            via,
            route: None,
        }
    }

    /// Whether removing the sealed path `protected` (as [`Hit::protected`] names it) restores the seal: it did
    /// not exist at setup (a closure file sealed as absent, a `conftest.py` or a file a `--seal` glob matches
    /// that no sealed file is).
    pub(crate) fn removable(&self, protected: &str) -> bool {
        let path = Path::new(protected);
        let listed = self.p.removable.iter().any(|r| r == path);
        let named = path
            .file_name()
            .is_some_and(|n| self.p.sealed_names.iter().any(|s| n == s.as_str()));
        let literal = !protected.contains(['*', '?', '[', '{']) && !path.is_absolute();
        let globbed = literal && self.p.sealed.as_ref().is_some_and(|g| g.is_match(path));
        listed || ((named || globbed) && !self.sealed().any(|f| f == path))
    }

    /// What a write to the absolute, normalized path `abs` (or into it, if it is a directory) reaches.
    pub(crate) fn hit_abs(&self, abs: &Path) -> Option<Hit> {
        for r in self.records() {
            for q in r.forms() {
                if abs == q {
                    return Some(self.record_hit(r, None));
                }
                if r.dir && abs.starts_with(q) {
                    // Name the file inside the protected directory, as the model wrote it.
                    let inside = r.given.join(abs.strip_prefix(q).unwrap_or(abs));
                    return Some(Hit {
                        kind: r.kind.clone(),
                        protected: self.display(&inside),
                        via: None,
                        route: None,
                    });
                }
                if q.starts_with(abs) {
                    return Some(self.record_hit(r, Some(self.display(abs))));
                }
            }
        }
        let via = Some(self.display(abs));
        for f in &self.p.sealed_outside {
            if abs == f {
                return Some(Self::sealed_hit(Path::new(&self.display(f)), None));
            }
            if f.starts_with(abs) {
                return Some(Self::sealed_hit(Path::new(&self.display(f)), via));
            }
        }
        match abs.strip_prefix(self.root()) {
            Ok(rel) if !rel.as_os_str().is_empty() => {
                let globbed = self.p.sealed.as_ref().is_some_and(|g| g.is_match(rel));
                let named = rel
                    .file_name()
                    .is_some_and(|n| self.p.sealed_names.iter().any(|s| n == s.as_str()))
                    && !(self.p.names_sit_out && crate::runner::sits_out_with_new_tests(rel, self.sealed()));
                if globbed || named || self.sealed().any(|f| f == rel) {
                    return Some(Self::sealed_hit(rel, None));
                }
                self.sealed()
                    .find(|f| f.starts_with(rel))
                    .map(|f| Self::sealed_hit(f, via))
            }
            _ if self.root().starts_with(abs) => self.sealed().next().map(|f| Self::sealed_hit(f, via)),
            _ => None,
        }
    }

    /// What writing `path` (as written, relative to `cwd`) reaches, through any of its normal forms. A hit
    /// through a resolved form or a hard link says so in its `route`, so the reason names what the path became.
    pub(crate) fn hit_path(&self, path: &Path, cwd: &Path) -> Option<Hit> {
        let all = paths::candidates(path, cwd);
        let written = &all[0];
        if let Some(hit) = self.hit_abs(written) {
            return Some(hit);
        }
        let resolved = all[1..].iter().find_map(|c| Some((c, self.hit_abs(c)?)));
        let (mut hit, route) = match resolved {
            Some((c, hit)) => (
                hit,
                Route::Symlink {
                    written: self.display(written),
                    resolved: self.display(c),
                },
            ),
            None => (
                self.hit_inode(written)?,
                Route::HardLink {
                    written: self.display(written),
                },
            ),
        };
        hit.route = Some(route);
        Some(hit)
    }

    /// A hard link to a protected file is that file: a file record, a file inside a protected directory on the
    /// same device (looked for within a bounded walk — only files with more than one name get here), or a
    /// sealed file.
    fn hit_inode(&self, path: &Path) -> Option<Hit> {
        let meta = paths::hard_linked(path)?;
        for r in self.records() {
            if !r.dir && paths::same_inode(&meta, &r.given) {
                return Some(self.record_hit(r, None));
            }
            if r.dir && paths::same_device(&meta, &r.resolved) {
                let found = paths::find_inode(&r.resolved, &meta, INODE_WALK_DEPTH, MAX_INODE_WALK);
                if let Some(inside) = found {
                    let shown = r.given.join(inside.strip_prefix(&r.resolved).unwrap_or(&inside));
                    let mut hit = self.record_hit(r, None);
                    hit.protected = self.display(&shown);
                    return Some(hit);
                }
            }
        }
        let root = self.root();
        self.sealed()
            .take(MAX_INODE_CHECKS)
            .find(|f| paths::same_inode(&meta, &root.join(f)))
            .map(|f| Self::sealed_hit(f, None))
    }

    /// A protected record named in inline interpreter code (by file name, or relative path for directories).
    /// The control plane is not looked for by name (`settings.json`, `plugins` are common words in code);
    /// its paths in the code's string literals still are, by [`Self::hit_path`].
    pub(crate) fn hit_mention(&self, code: &str) -> Option<Hit> {
        self.records().iter().filter(|r| r.kind == Kind::Record).find_map(|r| {
            let needle = match (r.dir, r.given.strip_prefix(self.root())) {
                (true, Ok(rel)) => rel.to_string_lossy(),
                _ => r.given.file_name()?.to_string_lossy(),
            };
            (!needle.is_empty() && code.contains(&*needle)).then(|| self.record_hit(r, None))
        })
    }
}
