//! The untracked files of a git work tree that are not ignored, as `git status --untracked-files=all` lists
//! them, found without a git process: one `readdir` per directory that is not ignored; a name the index holds is
//! skipped at once, so the ignore rules are read and matched only for untracked files and for directories that
//! hold no tracked file (`target/`, `node_modules/`, a new directory). The rules
//! are git's, matched with the `ignore` crate's gitignore matcher, in git's order of precedence: the
//! `.gitignore` of the deepest directory first, up to the work tree's root, then `.git/info/exclude`, then the
//! global excludes file.

use std::fs;
use std::path::{Path, PathBuf};

use super::repo::Repo;
use super::tree::{Stat, bytes_path};

/// The untracked, not ignored files under the project root (its `.claude/` aside), sorted by path, with their
/// stat data (`None` for a nested repository, which counts by its path). `tracked` is the index's paths, sorted.
pub(super) fn untracked(repo: &Repo, tracked: &[&[u8]]) -> Vec<(Vec<u8>, Option<Stat>)> {
    let mut walk = Walk {
        tracked,
        layers: Vec::new(),
        found: Vec::new(),
        own: repo.work_tree.join(bytes_path(&repo.prefix)).join(".claude"),
    };
    for file in [global_excludes(), Some(repo.common_dir.join("info/exclude"))]
        .into_iter()
        .flatten()
    {
        walk.push_rules(&repo.work_tree, &file);
    }
    // The `.gitignore` files of the directories above the project root, inside the work tree.
    let mut above = repo.work_tree.clone();
    let prefix = bytes_path(&repo.prefix).to_path_buf();
    for part in prefix.components() {
        walk.push_rules(&above, &above.join(".gitignore"));
        above.push(part);
    }
    let root = repo.work_tree.join(&prefix);
    let mut relative = repo.prefix.clone();
    walk.dir(&root, &mut relative);
    walk.found.sort_by(|a, b| a.0.cmp(&b.0));
    walk.found
}

/// The state of the untracked walk.
struct Walk<'a> {
    /// The index's paths, sorted.
    tracked: &'a [&'a [u8]],
    /// The ignore files in force, lowest precedence first.
    layers: Vec<Layer>,
    found: Vec<(Vec<u8>, Option<Stat>)>,
    /// The project's `.claude/`, never walked.
    own: PathBuf,
}

/// One ignore file, compiled only when a path is first matched against it (most probes match nothing).
struct Layer {
    root: PathBuf,
    file: PathBuf,
    rules: std::cell::OnceCell<Option<ignore::gitignore::Gitignore>>,
}

impl Layer {
    fn rules(&self) -> Option<&ignore::gitignore::Gitignore> {
        self.rules
            .get_or_init(|| {
                let mut builder = ignore::gitignore::GitignoreBuilder::new(&self.root);
                let _ = builder.add(&self.file);
                builder.build().ok()
            })
            .as_ref()
    }
}

impl Walk<'_> {
    /// Adds the rules of `file` (if it exists), for paths under `root`; true when it did.
    fn push_rules(&mut self, root: &Path, file: &Path) -> bool {
        if !file.is_file() {
            return false;
        }
        self.layers.push(Layer {
            root: root.to_path_buf(),
            file: file.to_path_buf(),
            rules: std::cell::OnceCell::new(),
        });
        true
    }

    /// Whether git ignores `path`: by the deepest rule that matches it or, for a file, one of its directories.
    fn ignored(&self, path: &Path, is_dir: bool) -> bool {
        for rules in self.layers.iter().rev().filter_map(Layer::rules) {
            let matched = if is_dir {
                rules.matched(path, true)
            } else {
                rules.matched_path_or_any_parents(path, false)
            };
            if matched.is_ignore() {
                return true;
            }
            if matched.is_whitelist() {
                return false;
            }
        }
        false
    }

    /// Whether the index holds a path under the directory `relative` (which ends in `/`).
    fn holds_under(&self, relative: &[u8]) -> bool {
        let at = self.tracked.partition_point(|path| *path < relative);
        self.tracked.get(at).is_some_and(|path| path.starts_with(relative))
    }

    /// Walks `dir`, whose path relative to the work tree is `relative` (empty or ending in `/`). A directory
    /// that holds tracked files is walked without asking the ignore rules (its untracked files are matched
    /// with their directories); one that holds none is matched first, so `target/` is never read.
    fn dir(&mut self, dir: &Path, relative: &mut Vec<u8>) {
        let Ok(read) = fs::read_dir(dir) else { return };
        let entries: Vec<(std::ffi::OsString, fs::FileType)> = read
            .flatten()
            .filter_map(|e| Some((e.file_name(), e.file_type().ok()?)))
            .collect();
        let pushed = entries
            .iter()
            .any(|(name, kind)| name == ".gitignore" && !kind.is_dir())
            && self.push_rules(dir, &dir.join(".gitignore"));
        let base = relative.len();
        for (name, kind) in &entries {
            if name == ".git" {
                continue;
            }
            relative.truncate(base);
            relative.extend_from_slice(name.as_encoded_bytes());
            if kind.is_dir() {
                if self.tracked.binary_search(&relative.as_slice()).is_ok() {
                    continue; // a submodule, recorded in the index as a gitlink
                }
                let path = dir.join(name);
                relative.push(b'/');
                if !self.holds_under(relative) {
                    if path == self.own || self.ignored(&path, true) {
                        continue;
                    }
                    if path.join(".git").exists() {
                        // Another repository, not a submodule: one untracked path, as `git status` shows it.
                        relative.pop();
                        self.found.push((relative.clone(), None));
                        continue;
                    }
                } else if path == self.own {
                    continue;
                }
                self.dir(&path, relative);
            } else if self.tracked.binary_search(&relative.as_slice()).is_err() {
                let path = dir.join(name);
                if !self.ignored(&path, false) {
                    let stat = fs::symlink_metadata(&path).ok().map(|m| Stat::of(&m));
                    self.found.push((relative.clone(), stat));
                }
            }
        }
        relative.truncate(base);
        if pushed {
            self.layers.pop();
        }
    }
}

/// Git's global excludes file: `core.excludesFile` from the user's git config (`~/.gitconfig`, then
/// `$XDG_CONFIG_HOME/git/config`), else `$XDG_CONFIG_HOME/git/ignore` (`~/.config/git/ignore`).
fn global_excludes() -> Option<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| home.as_ref().map(|h| h.join(".config")));
    let configs = [
        home.as_ref().map(|h| h.join(".gitconfig")),
        xdg.as_ref().map(|x| x.join("git/config")),
    ];
    let mut found = None;
    for config in configs.iter().flatten() {
        if let Some(value) = fs::read_to_string(config)
            .ok()
            .and_then(|text| excludes_file_setting(&text))
        {
            found = Some(value);
        }
    }
    match found {
        Some(value) => match value.strip_prefix("~/") {
            Some(rest) => Some(home?.join(rest)),
            None => Some(PathBuf::from(value)),
        },
        None => Some(xdg?.join("git/ignore")),
    }
}

/// The last `excludesFile = VALUE` of the `[core]` section of a git config file's text.
fn excludes_file_setting(config: &str) -> Option<String> {
    let mut in_core = false;
    let mut value = None;
    for line in config.lines().map(str::trim) {
        if let Some(section) = line.strip_prefix('[') {
            in_core = section.trim_end_matches(']').trim().eq_ignore_ascii_case("core");
        } else if in_core
            && let Some((key, rest)) = line.split_once('=')
            && key.trim().eq_ignore_ascii_case("excludesfile")
        {
            value = Some(rest.trim().trim_matches('"').to_string());
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::excludes_file_setting;

    #[test]
    fn the_excludes_file_setting_is_read_from_the_core_section_only() {
        let config =
            "[user]\n\texcludesFile = wrong\n[core]\n\tautocrlf = false\n\texcludesfile = \"~/.gitignore_global\"\n";
        assert_eq!(excludes_file_setting(config).as_deref(), Some("~/.gitignore_global"));
        assert_eq!(excludes_file_setting("[core]\n\tbare = false\n"), None);
        assert_eq!(
            excludes_file_setting("[Core]\nExcludesFile=/etc/ignore\n").as_deref(),
            Some("/etc/ignore")
        );
    }
}
