//! The in-process fingerprint of a git work tree: what `git status` would tell, without starting git.
//!
//! - **HEAD and the index's content**: `HEAD`'s commit id, and each index entry's path, mode, object id and
//!   stage — so a commit or a `git add` is a change, but git refreshing its stat cache is not.
//! - **Tracked files**, as git checks them: each file's `lstat` against the stat data the index cached
//!   (mtime, ctime, size, inode, owner, mode). A match means clean — unless the entry is *racy* (modified in
//!   the same instant the index was written, so a later edit could leave the same stat data), in which case,
//!   as for a mismatch, the file's content is hashed as a git blob and compared with the index's object id.
//!   Equal is clean (an edit undone, a `touch`); different, or too big to hash (over 4 MiB, or past 32 MiB
//!   hashed in one probe), adds the file's stat data to the fingerprint, so every further edit changes it.
//! - **Untracked files** that are not ignored (`.gitignore` files, `.git/info/exclude`, the global excludes
//!   file, matched as git does with the `ignore` crate's gitignore matcher): each one's path and stat data.
//!
//! Clean files add nothing but their index entry, so the fingerprint is stable while nothing changes. Only the
//! project root's subtree counts, and never its `.claude/` directory (loopgate's own files). Submodules are
//! taken as they are recorded (their inner changes are not looked at); a nested repository that is not a
//! submodule counts by its path only, as `git status` shows it.

use std::fs::{self, Metadata};
use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use sha1::Digest as _;
use sha2::Sha256;

use super::Changes;
use super::index::{self, Entry};
use super::repo::Repo;

/// Files up to this size are hashed when their stat data cannot vouch for them; bigger ones count by stat.
const HASH_LIMIT: u64 = 4 * 1024 * 1024;
/// At most this many bytes are hashed per probe (on each thread); past it, changed files count by stat.
const HASH_BUDGET: u64 = 32 * 1024 * 1024;
/// Index entries above which the `lstat`s are spread over threads.
const PARALLEL_FROM: usize = 4096;
/// Threads for the `lstat`s of a large index.
const THREADS: usize = 4;

const MODE_TYPE: u32 = 0o170_000;
const MODE_LINK: u32 = 0o120_000;
const MODE_GITLINK: u32 = 0o160_000;
const MODE_FILE: u32 = 0o100_000;

/// What one tracked file looks like next to its index entry.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Worktree {
    Clean,
    Deleted,
    /// Changed (or not provably unchanged): its stat data goes into the fingerprint.
    Changed(Stat),
}

/// The stat data that identifies one version of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stat {
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
    ino: u64,
    mode: u32,
}

impl Stat {
    fn of(meta: &Metadata) -> Stat {
        Stat {
            size: meta.len(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
            ino: meta.ino(),
            mode: meta.mode(),
        }
    }

    fn hash_into(&self, hasher: &mut Sha256) {
        for value in [self.mtime.0, self.mtime.1, self.ctime.0, self.ctime.1] {
            hasher.update(value.to_le_bytes());
        }
        hasher.update(self.size.to_le_bytes());
        hasher.update(self.ino.to_le_bytes());
        hasher.update(self.mode.to_le_bytes());
    }
}

/// Fingerprints the project in `repo`; `None` when the index cannot be read by [`index::parse`] (the caller
/// then asks `git status`).
pub fn fingerprint(repo: &Repo) -> Option<(String, Changes)> {
    let index_path = repo.git_dir.join("index");
    let (entries, index_mtime) = match fs::read(&index_path) {
        Ok(data) => {
            let mtime = fs::metadata(&index_path).ok().map(|m| (m.mtime(), m.mtime_nsec()))?;
            (index::parse(&data)?.entries, mtime)
        }
        // A repository without an index yet (nothing was ever added) has no tracked files.
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => (Vec::new(), (0, 0)),
        Err(_) => return None,
    };
    let own = [repo.prefix.as_slice(), b".claude/"].concat();
    let entries: Vec<&Entry> = entries
        .iter()
        .filter(|e| e.path.starts_with(&repo.prefix) && !e.path.starts_with(&own))
        .collect();
    let states = check_all(&repo.work_tree, &entries, index_mtime);

    let mut hasher = Sha256::new();
    hasher.update(b"loopgate-git-1\0");
    hasher.update(repo.head()?.as_bytes());
    let mut changes = Changes::default();
    for (entry, state) in entries.iter().zip(&states) {
        hasher.update([0, entry.stage]);
        hasher.update(&entry.path);
        hasher.update(entry.mode.to_le_bytes());
        hasher.update(entry.oid);
        match state {
            Worktree::Clean => hasher.update([0]),
            Worktree::Deleted => {
                hasher.update([1]);
                changes.deleted += 1;
            }
            Worktree::Changed(stat) => {
                hasher.update([2]);
                stat.hash_into(&mut hasher);
                if entry.intent_to_add {
                    changes.added += 1;
                } else {
                    changes.modified += 1;
                }
            }
        }
    }
    let tracked: Vec<&[u8]> = entries.iter().map(|e| e.path.as_slice()).collect();
    for (path, stat) in untracked(repo, &tracked) {
        hasher.update([3]);
        hasher.update(&path);
        hasher.update([0]);
        if let Some(stat) = stat {
            stat.hash_into(&mut hasher);
        }
        changes.added += 1;
    }
    Some((crate::fsutil::hex(&hasher.finalize())[..16].to_string(), changes))
}

/// Checks every entry against the work tree, on several threads when there are many.
fn check_all(work_tree: &Path, entries: &[&Entry], index_mtime: (i64, i64)) -> Vec<Worktree> {
    if entries.len() < PARALLEL_FROM {
        let mut budget = HASH_BUDGET;
        return entries
            .iter()
            .map(|e| check(work_tree, e, index_mtime, &mut budget))
            .collect();
    }
    let chunk = entries.len().div_ceil(THREADS);
    std::thread::scope(|scope| {
        let handles: Vec<_> = entries
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut budget = HASH_BUDGET;
                    part.iter()
                        .map(|e| check(work_tree, e, index_mtime, &mut budget))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    })
}

/// One tracked file next to its index entry, the way git's `ie_match_stat` decides.
fn check(work_tree: &Path, entry: &Entry, index_mtime: (i64, i64), budget: &mut u64) -> Worktree {
    if entry.skip {
        return Worktree::Clean;
    }
    let path = work_tree.join(bytes_path(&entry.path));
    let Ok(meta) = fs::symlink_metadata(&path) else {
        return Worktree::Deleted;
    };
    if entry.mode & MODE_TYPE == MODE_GITLINK {
        return if meta.is_dir() {
            Worktree::Clean
        } else {
            Worktree::Changed(Stat::of(&meta))
        };
    }
    if entry.stage != 0 || entry.intent_to_add || worktree_mode(&meta) != Some(entry.mode) {
        return Worktree::Changed(Stat::of(&meta));
    }
    let racy = (i64::from(entry.mtime.0), i64::from(entry.mtime.1)) >= index_mtime;
    if stat_matches(entry, &meta) && !racy {
        return Worktree::Clean;
    }
    if meta.len() <= HASH_LIMIT.min(*budget) {
        *budget -= meta.len();
        if blob_id(&path, &meta).is_some_and(|oid| oid == entry.oid) {
            return Worktree::Clean;
        }
    }
    Worktree::Changed(Stat::of(&meta))
}

/// The index mode git would record for this file: a symlink, or a regular file with or without its
/// executable bit; `None` for anything else (a directory where a file was).
fn worktree_mode(meta: &Metadata) -> Option<u32> {
    let kind = meta.file_type();
    if kind.is_symlink() {
        Some(MODE_LINK)
    } else if kind.is_file() {
        Some(MODE_FILE | if meta.mode() & 0o100 != 0 { 0o755 } else { 0o644 })
    } else {
        None
    }
}

/// Git's stat check: times (nanoseconds only when the index has them), size, inode and owner.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // the index keeps the low 32 bits of each
fn stat_matches(entry: &Entry, meta: &Metadata) -> bool {
    let time = |cached: (u32, u32), secs: i64, nanos: i64| {
        cached.0 == secs as u32 && (cached.1 == 0 || cached.1 == nanos as u32)
    };
    time(entry.mtime, meta.mtime(), meta.mtime_nsec())
        && time(entry.ctime, meta.ctime(), meta.ctime_nsec())
        && entry.size == meta.len() as u32
        && entry.ino == meta.ino() as u32
        && entry.uid == meta.uid()
        && entry.gid == meta.gid()
}

/// The git blob id of a file's content (or a symlink's target): SHA-1 of `blob LEN\0` and the bytes.
fn blob_id(path: &Path, meta: &Metadata) -> Option<[u8; 20]> {
    let content = if meta.file_type().is_symlink() {
        fs::read_link(path).ok()?.into_os_string().into_encoded_bytes()
    } else {
        let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).ok()?);
        fs::File::open(path).ok()?.read_to_end(&mut bytes).ok()?;
        bytes
    };
    let mut hasher = sha1::Sha1::new();
    hasher.update(format!("blob {}\0", content.len()).as_bytes());
    hasher.update(&content);
    Some(hasher.finalize().into())
}

/// The untracked, not ignored files under the project root, sorted by path, with their stat data (`None` for a
/// nested repository, which counts by its path).
///
/// One `readdir` per directory that is not ignored; a name the index holds is skipped at once, so the ignore
/// rules are matched only against directories and untracked files. The rules are git's, in its order of
/// precedence: the `.gitignore` of the deepest directory first, up to the work tree's root, then
/// `.git/info/exclude`, then the global excludes file.
fn untracked(repo: &Repo, tracked: &[&[u8]]) -> Vec<(Vec<u8>, Option<Stat>)> {
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
    /// The ignore rules in force, lowest precedence first.
    layers: Vec<ignore::gitignore::Gitignore>,
    found: Vec<(Vec<u8>, Option<Stat>)>,
    /// The project's `.claude/`, never walked.
    own: PathBuf,
}

impl Walk<'_> {
    /// Adds the rules of `file` (if it exists), for paths under `root`; true when it did.
    fn push_rules(&mut self, root: &Path, file: &Path) -> bool {
        if !file.is_file() {
            return false;
        }
        let mut builder = ignore::gitignore::GitignoreBuilder::new(root);
        let _ = builder.add(file);
        match builder.build() {
            Ok(rules) => {
                self.layers.push(rules);
                true
            }
            Err(_) => false,
        }
    }

    fn ignored(&self, path: &Path, is_dir: bool) -> bool {
        for rules in self.layers.iter().rev() {
            let matched = rules.matched(path, is_dir);
            if matched.is_ignore() {
                return true;
            }
            if matched.is_whitelist() {
                return false;
            }
        }
        false
    }

    /// Walks `dir`, whose path relative to the work tree is `relative` (empty or ending in `/`).
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
            let path = dir.join(name);
            if kind.is_dir() {
                if path == self.own || self.ignored(&path, true) {
                    continue;
                }
                if path.join(".git").exists() {
                    // Another repository: a submodule (tracked as a gitlink) or, if untracked, one path.
                    if self.tracked.binary_search(&relative.as_slice()).is_err() {
                        self.found.push((relative.clone(), None));
                    }
                    continue;
                }
                relative.push(b'/');
                self.dir(&path, relative);
            } else if self.tracked.binary_search(&relative.as_slice()).is_err() && !self.ignored(&path, false) {
                let stat = fs::symlink_metadata(&path).ok().map(|m| Stat::of(&m));
                self.found.push((relative.clone(), stat));
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

fn bytes_path(bytes: &[u8]) -> &Path {
    use std::os::unix::ffi::OsStrExt;
    Path::new(std::ffi::OsStr::from_bytes(bytes))
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
