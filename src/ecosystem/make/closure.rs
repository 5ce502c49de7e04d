//! `make TARGET…`: the makefile GNU make would read, what it includes, and the recipe it would run.
//!
//! Without `-f`, GNU make reads the first of `GNUmakefile`, `makefile` and `Makefile` that exists, so the one
//! it reads is sealed together with the names before it, as absent (a new `GNUmakefile` beside a sealed
//! `Makefile` replaces it). Every `include`, `-include` and `sinclude` is sealed (as absent when missing) and
//! read for rules and variables, recursively; a `$(wildcard PATTERN)` (or a bare glob) in an include seals the
//! files matching now and watches the directory for new ones. The recipe's lines are followed like the
//! command itself, with the makefile's variables (and `NAME=value` words on the command line) expanded.

use std::path::{Path, PathBuf};

use super::{Deriver, Scripts, Simple, Why, normalize};
use crate::closure::parts::Scope;
use crate::recipes;

/// Makefile fragments (`derive::SCRIPTS`).
pub(super) const SCRIPTS: Scripts = Scripts {
    extensions: &["mk"],
    runs_first_word: |_| false,
};

/// How many makefiles one `make` may pull in through includes.
const MAX_INCLUDES: usize = 16;

impl Deriver<'_> {
    pub(super) fn make(&mut self, rest: &[String], cwd: &Path, depth: usize) {
        let mut dir = cwd.to_path_buf();
        let mut file = None;
        let mut targets = Vec::new();
        let mut overrides = Vec::new();
        let mut i = 0;
        while i < rest.len() {
            let w = &rest[i];
            match w.as_str() {
                "-C" | "--directory" => {
                    dir = normalize(&cwd.join(rest.get(i + 1).map_or("", String::as_str)));
                    i += 1;
                }
                "-f" | "--file" | "--makefile" => {
                    file = rest.get(i + 1).cloned();
                    i += 1;
                }
                _ if w.starts_with('-') || w.is_empty() => {}
                _ => match w.split_once('=') {
                    Some((name, value)) => overrides.push((name.to_string(), value.to_string())),
                    None => targets.push(w.clone()),
                },
            }
            i += 1;
        }
        let why = Why::Configures(format!("make {}", targets.join(" ")).trim().to_string());
        let makefile = match file {
            Some(f) => dir.join(f),
            None => {
                let mut found = None;
                for name in recipes::MAKEFILES {
                    let path = dir.join(name);
                    if self.is_file(&path) {
                        found = Some(path);
                        break;
                    }
                    self.whole(path, why.clone());
                }
                found.unwrap_or_else(|| dir.join("Makefile"))
            }
        };
        self.add(
            makefile.clone(),
            crate::closure::parts::Read::by(&super::super::makefile::READING, targets.clone()),
            why.clone(),
        );
        let Ok(mut text) = std::fs::read_to_string(self.root.join(&makefile)) else {
            return;
        };
        if !self
            .followed
            .insert((makefile.to_string_lossy().into_owned(), targets.join(" ")))
        {
            return;
        }
        let mut read: Vec<PathBuf> = vec![normalize(&makefile)];
        while read.len() < MAX_INCLUDES {
            let (_, includes) = recipes::make_recipes(&text, &targets, &overrides);
            let mut more = String::new();
            for include in includes {
                for path in self.include(&dir, &include, &why) {
                    if read.len() < MAX_INCLUDES && !read.contains(&path) {
                        if let Ok(included) = std::fs::read_to_string(self.root.join(&path)) {
                            more.push('\n');
                            more.push_str(&included);
                        }
                        read.push(path);
                    }
                }
            }
            if more.is_empty() {
                break;
            }
            text.push_str(&more);
        }
        let (lines, _) = recipes::make_recipes(&text, &targets, &overrides);
        for line in lines {
            self.source(&line, &dir, depth + 1);
        }
    }

    /// Seals one include word (relative to the make directory) and returns the files it names now.
    fn include(&mut self, dir: &Path, word: &str, why: &Why) -> Vec<PathBuf> {
        let path = normalize(&dir.join(word));
        if !word.contains(['*', '?', '[']) {
            self.whole(path.clone(), why.clone());
            return vec![path];
        }
        let (Some(parent), Some(pattern)) = (path.parent(), path.file_name()) else {
            return Vec::new();
        };
        if parent.to_string_lossy().contains(['*', '?', '[']) || parent.starts_with("..") || parent.is_absolute() {
            return Vec::new();
        }
        let parent_text = super::display(parent);
        self.pattern_watch(&parent_text, &pattern.to_string_lossy(), why);
        let Ok(entries) = std::fs::read_dir(self.root.join(parent)) else {
            return Vec::new();
        };
        let Ok(glob) = globset::Glob::new(&pattern.to_string_lossy()) else {
            return Vec::new();
        };
        let glob = glob.compile_matcher();
        let mut found: Vec<PathBuf> = entries
            .flatten()
            .filter(|e| glob.is_match(e.file_name()))
            .map(|e| parent.join(e.file_name()))
            .collect();
        found.sort();
        for path in &found {
            self.whole(path.clone(), why.clone());
        }
        found
    }

    /// A watch for new files matching `pattern` in `dir`: each is a change to the oracle.
    fn pattern_watch(&mut self, dir: &str, pattern: &str, why: &Why) {
        let known = self
            .plan
            .watches
            .iter()
            .any(|w| w.name == pattern && w.dir.as_deref() == Some(dir));
        if !known {
            self.plan.watches.push(super::Watch {
                name: pattern.to_string(),
                dir: Some(dir.to_string()),
                scope: Scope::Whole,
                why: why.clone(),
                new_file_counts: true,
            });
        }
    }
}

/// The closure's rule for GNU make (`closure::derive::PROGRAMS`): whether `cmd` runs one, whose configuration
/// it then reads.
pub(super) fn program(d: &mut Deriver, cmd: &Simple) -> bool {
    match cmd.name {
        "make" | "gmake" => d.make(cmd.rest, cmd.cwd, cmd.depth),
        _ => return false,
    }
    true
}
