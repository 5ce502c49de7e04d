//! Setups shared by the cases that start alike. A case's loop is set up on a fresh project of its fixture, with
//! its flags and setup's environment: most of a case's CPU (the baseline run under a trace, the snapshot, the
//! room; BENCHMARKS.md, "what a gaming case costs"), and the same work for every case of a fixture that starts
//! with the same flags — 165 cases start on the pytest fixture. So the first such case's loop, as setup left it,
//! is kept, and the next restores it instead of setting up again.
//!
//! A loop is not relocatable: setup writes the project's, the store's and `HOME`'s absolute paths into what it
//! keeps. So a case claims a **slot**, a directory at a fixed path (`$TMPDIR/loopgate-slot-N`, beside the
//! temporary directories other projects take) locked for as long as its project lives, and a slot keeps its own
//! loops: restored, a loop stands at the path it was set up at, byte for byte, with every mode, modification time
//! and hard link ([`copy`]). Only the inode numbers and change times differ from a fresh setup's, which loopgate reads as "may
//! have changed" and checks by content. A case plays its move after the restore, so nothing a move does reaches
//! a kept loop.
//!
//! A kept loop is named by everything that makes its setup: the fixture's files and verify command, the flags,
//! setup's environment, and whether its first promise was played; and it is kept per build, in a directory
//! named by the loopgate under test and this test binary (their size and modification time), so a rebuilt
//! binary sets every loop up afresh (the directories of other builds, once an hour old, are removed when a run
//! first keeps one). A slot's directory outlives its last case, as a panicking case's temporary directory does.
//! `LOOPGATE_GAMING_SHARED_SETUP=0` sets every case's loop up afresh, as before (to measure the sharing, or to
//! rule it out).

use std::collections::HashMap;
use std::fs::File;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::fixtures::Fixture;
use crate::project::{Project, under_test};

/// A loop set up on a fresh project of `fixture` by `set_up`, named by `how` (the flags, setup's environment and
/// whatever else besides the fixture makes the setup): restored from the slot's kept loop of that name where it
/// has one, else set up and kept.
pub(crate) fn started(fixture: &Fixture, how: &str, set_up: impl FnOnce(&Project)) -> Project {
    if std::env::var("LOOPGATE_GAMING_SHARED_SETUP").as_deref() == Ok("0") {
        let p = fixture.project();
        set_up(&p);
        return p;
    }
    let name = name_of(fixture, how);
    let (slot, claim) = claim_a_slot(&name);
    let kept = kept_loops().join(slot_name(slot)).join(&name);
    empty(&slot_dir(slot));
    // What the slot's last case wrote where the oracle's run signals a test (`Sandbox::signals`) goes too.
    let signals = crate::common::signals_base().join(slot_name(slot));
    if signals.exists() {
        empty(&signals);
    }
    if kept.is_dir() {
        copy(&kept, &slot_dir(slot));
        return Project::at(&slot_dir(slot), claim);
    }
    let p = Project::at(&slot_dir(slot), claim);
    fixture.fill(&p);
    set_up(&p);
    // Kept under a name of its own, then renamed: a loop is kept whole or not at all.
    let part = kept.with_extension(format!("part-{}", std::process::id()));
    empty(&part);
    copy(&slot_dir(slot), &part);
    if std::fs::rename(&part, &kept).is_err() {
        empty(&part);
        let _ = std::fs::remove_dir(&part);
    }
    p
}

/// The name of the loop `how` sets up on `fixture`.
fn name_of(fixture: &Fixture, how: &str) -> String {
    let mut hasher = DefaultHasher::new();
    (fixture.verify, fixture.files, fixture.fix, fixture.js, how).hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

/// A slot no project holds, and the lock that claims it (released when the project is dropped): one that keeps
/// the loop `name` where one is free, else the first free one. Slots are claimed across processes
/// (`scripts/test.sh` runs two lanes of the suite at once) by an exclusive lock on the slot's lock file.
fn claim_a_slot(name: &str) -> (usize, File) {
    let keeping = std::fs::read_dir(kept_loops())
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| entry.path().join(name).is_dir())
        .filter_map(|entry| entry.file_name().to_str()?.strip_prefix(SLOT)?.parse().ok());
    for slot in keeping.chain(0..) {
        let path = std::env::temp_dir().join(format!("{}.lock", slot_name(slot)));
        let lock = File::create(&path).unwrap_or_else(|e| panic!("create {}: {e}", path.display()));
        if lock.try_lock().is_ok() {
            return (slot, lock);
        }
    }
    unreachable!("an unbounded range")
}

/// The names of the slots' directories, each followed by its number.
const SLOT: &str = "loopgate-slot-";

fn slot_name(slot: usize) -> String {
    format!("{SLOT}{slot}")
}

/// Where a slot's project stands: the path its kept loops were set up at.
fn slot_dir(slot: usize) -> PathBuf {
    std::env::temp_dir().join(slot_name(slot))
}

/// This build's kept loops: a directory named by the loopgate under test and this test binary. The first call
/// removes the directories of other builds.
fn kept_loops() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let mut hasher = DefaultHasher::new();
        for binary in [
            PathBuf::from(under_test()),
            std::env::current_exe().expect("the test binary"),
        ] {
            let meta = std::fs::metadata(&binary).unwrap_or_else(|e| panic!("stat {}: {e}", binary.display()));
            (binary, meta.len(), meta.modified().ok()).hash(&mut hasher);
        }
        let all = crate::fixtures::cache_dir().join("kept-loops");
        let this = format!("{:016x}", hasher.finish());
        // Another build's, untouched for an hour: a run of it beside this one keeps its own.
        let stale = |entry: &std::fs::DirEntry| {
            entry.metadata().and_then(|m| m.modified()).is_ok_and(|when| {
                when.elapsed()
                    .is_ok_and(|age| age > std::time::Duration::from_secs(3600))
            })
        };
        crate::fixtures::filling_cache("kept-loops", || {
            for entry in std::fs::read_dir(&all).into_iter().flatten().flatten() {
                if entry.file_name() != *this && stale(&entry) {
                    empty(&entry.path());
                    let _ = std::fs::remove_dir(entry.path());
                }
            }
        });
        let dir = all.join(this);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
        dir
    })
}

/// Makes `dir` an empty directory, whatever modes loopgate left inside it (a sealed store's read-only
/// directories). Only directories' modes change: a file may be a hard link to a toolchain's or a module cache's
/// own (`copy`), whose mode is theirs.
fn empty(dir: &Path) {
    fn open_up(dir: &Path) {
        use std::os::unix::fs::PermissionsExt;
        let Ok(meta) = dir.symlink_metadata() else { return };
        if !meta.is_dir() {
            return;
        }
        let mode = meta.permissions().mode();
        if mode & 0o700 != 0o700 {
            let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(mode | 0o700));
        }
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            open_up(&entry.path());
        }
    }
    if dir.symlink_metadata().is_ok() {
        open_up(dir);
        std::fs::remove_dir_all(dir).unwrap_or_else(|e| panic!("remove {}: {e}", dir.display()));
    }
    std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
}

/// Copies what `from` holds into `to` as it is — modes, modification times, links — and with the same hard links:
/// files linked to each other inside `from` are linked to each other in `to`, and a file also linked from outside
/// `from` is linked, not copied. So a loop's snapshot (`room::snapshot::objects`), whose objects are hard links to
/// the files the baseline read where no byte needs copying (a toolchain's, an installed package's), stands in the
/// copy as setup left it, and costs no more disk kept than it did set up.
fn copy(from: &Path, to: &Path) {
    let mut inside = HashMap::new();
    count_links(from, &mut inside);
    copy_dir(from, to, &inside, &mut HashMap::new());
}

/// A file's identity: its device and inode.
type Inode = (u64, u64);

/// How many of each file's links lie inside `dir`.
fn count_links(dir: &Path, inside: &mut HashMap<Inode, u64>) {
    for entry in std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .flatten()
    {
        let Ok(meta) = entry.path().symlink_metadata() else {
            continue;
        };
        if meta.is_dir() {
            count_links(&entry.path(), inside);
        } else if meta.is_file() && meta.nlink() > 1 {
            *inside.entry((meta.dev(), meta.ino())).or_default() += 1;
        }
    }
}

fn copy_dir(from: &Path, to: &Path, inside: &HashMap<Inode, u64>, made: &mut HashMap<Inode, PathBuf>) {
    let failed = |what: &str, path: &Path, e: std::io::Error| -> ! { panic!("{what} {}: {e}", path.display()) };
    if let Err(e) = std::fs::create_dir(to).or_else(|e| if to.is_dir() { Ok(()) } else { Err(e) }) {
        failed("create", to, e);
    }
    for entry in std::fs::read_dir(from)
        .unwrap_or_else(|e| failed("read", from, e))
        .flatten()
    {
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        let meta = source.symlink_metadata().unwrap_or_else(|e| failed("stat", &source, e));
        if meta.is_dir() {
            copy_dir(&source, &target, inside, made);
        } else if meta.is_symlink() {
            let link = std::fs::read_link(&source).unwrap_or_else(|e| failed("read the link", &source, e));
            std::os::unix::fs::symlink(link, &target).unwrap_or_else(|e| failed("link", &target, e));
        } else if meta.is_file() {
            let inode = (meta.dev(), meta.ino());
            let linked_outside = meta.nlink() > inside.get(&inode).copied().unwrap_or(1);
            if let Some(first) = made.get(&inode) {
                std::fs::hard_link(first, &target).unwrap_or_else(|e| failed("link", &target, e));
            } else if linked_outside {
                std::fs::hard_link(&source, &target).unwrap_or_else(|e| failed("link", &target, e));
            } else {
                std::fs::copy(&source, &target).unwrap_or_else(|e| failed("copy", &source, e));
                stamp(&target, &meta);
            }
            made.insert(inode, target);
        }
    }
    let meta = from.symlink_metadata().unwrap_or_else(|e| failed("stat", from, e));
    std::fs::set_permissions(to, meta.permissions()).unwrap_or_else(|e| failed("set the mode of", to, e));
    stamp(to, &meta);
}

/// Gives `path` the modification time of `meta` (its owner may, whatever its mode: one its owner may not read
/// is made readable for as long as it takes).
fn stamp(path: &Path, meta: &std::fs::Metadata) {
    use std::os::unix::fs::PermissionsExt;
    let when = meta.modified().expect("a modification time");
    let date = || File::open(path).and_then(|f| f.set_modified(when));
    let dated = date().or_else(|_| {
        let mode = meta.permissions().mode();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode | 0o400))?;
        date()?;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
    });
    dated.unwrap_or_else(|e| panic!("date {}: {e}", path.display()));
}
