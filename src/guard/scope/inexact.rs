//! Hits for paths known only in part: a known ending after an unknown prefix (`$DIR/tests/x.rs`), a glob
//! (`rm .claude/*`), or the files `find ROOT -name PAT` would visit.

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};

use super::super::finding::{Hit, Kind};
use super::super::paths;
use super::super::pattern::{self, PChar};
use super::{MAX_DIR_ENTRIES, Scope};

impl Scope<'_> {
    /// What a path reaches when only its ending is known (`$DIR/.claude/pua-loop.local.md`).
    pub(crate) fn hit_ending(&self, tail: &[&OsStr]) -> Option<Hit> {
        let (first, last) = (*tail.first()?, *tail.last()?);
        let via = || Some(tail.iter().map(|c| c.to_string_lossy()).collect::<Vec<_>>().join("/"));
        for r in self.records() {
            let comps = match (r.given.strip_prefix(self.root()), &r.kind) {
                (Ok(rel), _) => paths::comps(rel),
                (Err(_), Kind::Record | Kind::Sealed) => r.given.file_name().into_iter().collect(),
                // The control plane by its last two names (`.claude/settings.json`, `bin/loopgate`), all of
                // them in the ending: a bare `settings.json` or `plugins` is too common a name to deny.
                (Err(_), Kind::Plane(_)) => {
                    let all = paths::comps(&r.given);
                    let last_two = all[all.len().saturating_sub(2)..].to_vec();
                    if tail.windows(last_two.len()).any(|w| w == last_two.as_slice()) {
                        return Some(self.record_hit(r, None));
                    }
                    continue;
                }
            };
            if let Some(through) = seq_hit(tail, &comps) {
                return Some(self.record_hit(r, if through { via() } else { None }));
            }
        }
        for f in self.sealed() {
            // Cheap filter first: a match shares the file name or the first component.
            let name = f.file_name();
            let maybe = name.is_some_and(|n| n == last || tail.contains(&n)) || f.iter().next() == Some(first);
            if let Some(through) = maybe.then(|| seq_hit(tail, &paths::comps(f))).flatten() {
                return Some(Self::sealed_hit(f, if through { via() } else { None }));
            }
        }
        None
    }

    /// What an absolute glob pattern (braces already expanded) could reach.
    pub(crate) fn hit_pattern(&self, pat: &[PChar]) -> Option<Hit> {
        let comps = split_pattern(pat);
        let lit = comps.iter().take_while(|c| !pattern::has_glob(c)).count();
        let prefix: PathBuf = std::iter::once("/".to_owned())
            .chain(comps[..lit].iter().map(|c| c.iter().map(|&(ch, _)| ch).collect()))
            .collect();
        let mut variants = vec![comps.clone()];
        let resolved = paths::resolve(&prefix);
        if resolved != prefix {
            let mut v: Vec<Vec<PChar>> = paths::comps(&resolved)
                .iter()
                .map(|c| c.to_string_lossy().chars().map(|ch| (ch, false)).collect())
                .collect();
            v.extend_from_slice(&comps[lit..]);
            variants.push(v);
        }
        let shown = || Some(pat.iter().map(|&(c, _)| c).collect::<String>());
        for v in &variants {
            for r in self.records() {
                for q in r.forms() {
                    let qc = paths::comps(q);
                    let inside = r.dir && v.len() > qc.len() && reaches(&v[..qc.len()], &qc);
                    if inside || reaches(v, &qc) {
                        let through = qc.len() > v.len();
                        return Some(self.record_hit(r, if through { shown() } else { None }));
                    }
                }
            }
            // Only sealed files under the literal prefix can match.
            let rel_prefix = prefix.strip_prefix(self.root()).ok();
            let above = self.root().starts_with(&prefix);
            for f in self
                .sealed()
                .filter(|f| above || rel_prefix.is_some_and(|p| f.starts_with(p)))
            {
                let qc_owned = self.root().join(f);
                let qc = paths::comps(&qc_owned);
                if reaches(v, &qc) {
                    return Some(Self::sealed_hit(f, (qc.len() > v.len()).then(shown).flatten()));
                }
            }
        }
        None
    }

    /// `find ROOT -name PAT … -delete`: what the files found under `path` reach.
    pub(crate) fn hit_find(&self, path: &Path, cwd: &Path, names: &[Vec<PChar>]) -> Option<Hit> {
        if names.is_empty() {
            return self.hit_path(path, cwd);
        }
        // `-iname` patterns arrive lower-cased, so a lower-cased name is tried too.
        let named = |n: Option<&OsStr>| {
            n.is_some_and(|n| {
                let n = n.to_string_lossy();
                let lower = n.to_lowercase();
                names
                    .iter()
                    .any(|p| pattern::component_matches(p, &n) || pattern::component_matches(p, &lower))
            })
        };
        let listed = |dir: &Path| {
            let entries = fs::read_dir(dir).into_iter().flatten().flatten().take(MAX_DIR_ENTRIES);
            entries.map(|e| e.file_name()).any(|n| named(Some(&n)))
        };
        for c in paths::candidates(path, cwd) {
            let via = Some(self.display(&c));
            for r in self.records() {
                for q in r.forms() {
                    let under = q.starts_with(&c) || (r.dir && c.starts_with(q));
                    if under && (named(q.file_name()) || (r.dir && listed(q))) {
                        return Some(self.record_hit(r, via));
                    }
                }
            }
            let root = self.root();
            if let Some(f) = self
                .sealed()
                .find(|f| root.join(f).starts_with(&c) && named(f.file_name()))
            {
                return Some(Self::sealed_hit(f, via));
            }
        }
        None
    }
}

/// `Some(through)` if a path ending `tail` may be `comps` or inside it (`false`), or contain it (`true`).
fn seq_hit(tail: &[&OsStr], comps: &[&OsStr]) -> Option<bool> {
    if comps.is_empty() {
        return None;
    }
    if tail.windows(comps.len()).any(|w| w == comps) || comps.ends_with(tail) {
        Some(false)
    } else {
        comps.starts_with(tail).then_some(true)
    }
}

/// Pattern components of `pat`, with `.` dropped and `..` applied.
fn split_pattern(pat: &[PChar]) -> Vec<Vec<PChar>> {
    let mut out: Vec<Vec<PChar>> = Vec::new();
    for comp in pat.split(|&(c, _)| c == '/') {
        let text: String = comp.iter().map(|&(c, _)| c).collect();
        match text.as_str() {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            _ => out.push(comp.to_vec()),
        }
    }
    out
}

/// Whether pattern components `v` match the first `v.len()` components of `q`.
fn reaches(v: &[Vec<PChar>], q: &[&OsStr]) -> bool {
    q.len() >= v.len()
        && v.iter()
            .zip(q)
            .all(|(p, n)| pattern::component_matches(p, &n.to_string_lossy()))
}
