use std::collections::HashSet;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::objects::Objects;
use super::{Entry, Snapshot, candidates};
use crate::trace::{Access, Event};

/// A sandbox: `outside/` (places the baseline read), `project/`, `store/` (the snapshot's store).
struct Dirs {
    _temp: tempfile::TempDir,
    outside: PathBuf,
    project: PathBuf,
    store: PathBuf,
}

fn dirs() -> Dirs {
    let temp = tempfile::tempdir().expect("tempdir");
    let base = temp.path().canonicalize().expect("canonical");
    let (outside, project, store) = (base.join("outside"), base.join("project"), base.join("store"));
    for dir in [&outside, &project] {
        std::fs::create_dir_all(dir).expect("dir");
    }
    Dirs {
        _temp: temp,
        outside,
        project,
        store,
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("parents");
    std::fs::write(path, text).expect("write");
}

fn objects_on_disk(store: &Path) -> usize {
    std::fs::read_dir(store.join("objects"))
        .expect("objects")
        .flatten()
        .filter(|shard| shard.path().is_dir())
        .map(|shard| std::fs::read_dir(shard.path()).expect("shard").count())
        .sum()
}

fn key(path: &Path) -> String {
    path.to_str().expect("utf-8").to_string()
}

#[test]
fn the_same_content_is_stored_once_and_another_mode_apart() {
    let d = dirs();
    let (a, b, c) = (
        d.outside.join("a.py"),
        d.outside.join("sub/b.py"),
        d.outside.join("c.sh"),
    );
    write(&a, "same\n");
    write(&b, "same\n");
    write(&c, "same\n");
    std::fs::set_permissions(&c, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let snapshot = Snapshot::take(&[a.clone(), b.clone(), c.clone()], &d.store, &d.project).expect("taken");
    let digest = |p: &Path| match &snapshot.files[&key(p)] {
        Entry::File { digest, mode, .. } => (digest.clone(), *mode),
        other => panic!("{other:?}"),
    };
    assert_eq!(digest(&a), digest(&b));
    assert_eq!(digest(&a).0, digest(&c).0);
    assert_eq!(digest(&c).1, 0o755);
    assert_eq!(objects_on_disk(&d.store), 2, "one object per content and mode");
    // Taking again adds nothing.
    Snapshot::take(&[a, b, c], &d.store, &d.project).expect("taken again");
    assert_eq!(objects_on_disk(&d.store), 2);
}

#[test]
fn the_stored_object_is_a_copy_that_an_edit_in_place_does_not_reach() {
    let d = dirs();
    let a = d.outside.join("a.py");
    write(&a, "baseline\n");
    let snapshot = Snapshot::take(std::slice::from_ref(&a), &d.store, &d.project).expect("taken");
    let Entry::File { digest, mode, .. } = &snapshot.files[&key(&a)] else {
        panic!("a file");
    };
    let object = Objects::open(&d.store)
        .expect("store")
        .object(digest, *mode)
        .expect("object");
    assert_ne!(
        std::fs::metadata(&object).expect("object").ino(),
        std::fs::metadata(&a).expect("file").ino(),
        "never a hard link to the user's file"
    );
    std::fs::OpenOptions::new()
        .write(true)
        .open(&a)
        .and_then(|mut f| std::io::Write::write_all(&mut f, b"EDITED!!!"))
        .expect("edit in place");
    assert_eq!(std::fs::read_to_string(&object).expect("object"), "baseline\n");
}

#[test]
fn missing_files_directories_the_project_and_the_system_are_not_held() {
    let d = dirs();
    let inside = d.project.join("src/lib.py");
    write(&inside, "x\n");
    let paths = [
        d.outside.join("gone.py"),
        d.outside.clone(),
        inside,
        PathBuf::from("/usr/bin/env"),
    ];
    let snapshot = Snapshot::take(&paths, &d.store, &d.project).expect("taken");
    assert!(snapshot.files.is_empty(), "{:?}", snapshot.files);
}

#[test]
fn links_on_the_way_are_held_as_links_and_the_file_at_its_real_path() {
    let d = dirs();
    let real = d.outside.join("real/pkg/mod.py");
    write(&real, "code\n");
    std::os::unix::fs::symlink(d.outside.join("real"), d.outside.join("via")).expect("dir link");
    std::os::unix::fs::symlink("pkg/mod.py", d.outside.join("real/alias.py")).expect("file link");
    let paths = [d.outside.join("via/pkg/mod.py"), d.outside.join("real/alias.py")];
    let snapshot = Snapshot::take(&paths, &d.store, &d.project).expect("taken");
    assert_eq!(
        snapshot.files[&key(&d.outside.join("via"))],
        Entry::Link {
            target: d.outside.join("real")
        }
    );
    assert_eq!(
        snapshot.files[&key(&d.outside.join("real/alias.py"))],
        Entry::Link {
            target: PathBuf::from("pkg/mod.py")
        }
    );
    assert!(matches!(snapshot.files[&key(&real)], Entry::File { .. }));
    assert_eq!(snapshot.files.len(), 3);
}

#[test]
fn candidates_are_what_was_read_outside_and_not_written_by_the_run() {
    let root = Path::new("/work/project");
    let home = Path::new("/work/loopgate");
    let event = |access, path: &str| Event {
        access,
        path: PathBuf::from(path),
    };
    let events = [
        event(Access::Read, "/home/u/.local/lib/python3/site-packages/x.py"),
        event(Access::Executed, "/home/u/.cargo/bin/cargo"),
        event(Access::Read, "/work/project/src/lib.rs"),
        event(Access::Read, "/work/loopgate/seals/s.json"),
        event(Access::Read, "/usr/lib/python3/os.py"),
        event(Access::Read, "/home/u/build/out.txt"),
        event(Access::Wrote, "/home/u/build"),
        event(Access::Probed, "/home/u/.npmrc"),
        event(Access::Missing, "/home/u/.pythonrc"),
        event(Access::Read, "/home/u/.local/lib/python3/site-packages/x.py"),
    ];
    assert_eq!(
        candidates(&events, root, home),
        [
            PathBuf::from("/home/u/.cargo/bin/cargo"),
            PathBuf::from("/home/u/.local/lib/python3/site-packages/x.py"),
        ]
    );
}

#[test]
fn what_changed_is_found_by_content_whatever_the_stat_says() {
    let d = dirs();
    let (edited, linked, removed, same) = (
        d.outside.join("edited.py"),
        d.outside.join("linked.py"),
        d.outside.join("removed.py"),
        d.outside.join("same.py"),
    );
    for path in [&edited, &linked, &removed, &same] {
        write(path, "baseline\n");
    }
    let paths = [edited.clone(), linked.clone(), removed.clone(), same.clone()];
    let snapshot = Snapshot::take(&paths, &d.store, &d.project).expect("taken");
    assert!(snapshot.changed(&HashSet::new()).is_empty());
    // Same size, the old modification time put back: the content still tells.
    let old = std::fs::metadata(&edited).expect("stat").modified().expect("mtime");
    std::fs::write(&edited, "BASELINE\n").expect("edit");
    std::fs::File::options()
        .write(true)
        .open(&edited)
        .and_then(|f| f.set_modified(old))
        .expect("old mtime");
    let elsewhere = d.outside.join("elsewhere.py");
    write(&elsewhere, "baseline\n");
    std::fs::remove_file(&linked).expect("rm");
    std::os::unix::fs::symlink(&elsewhere, &linked).expect("link");
    std::fs::remove_file(&removed).expect("rm");
    // Rewritten with the same bytes: not a change.
    std::fs::write(&same, "baseline\n").expect("rewrite");
    assert_eq!(
        snapshot.changed(&HashSet::new()),
        [key(&edited), key(&linked), key(&removed)]
    );
    let presented: HashSet<&Path> = [edited.as_path(), linked.as_path()].into_iter().collect();
    assert_eq!(snapshot.changed(&presented), [key(&removed)]);
}

#[test]
fn a_layer_is_hard_links_to_the_objects_with_the_places_modes() {
    let d = dirs();
    let file = d.outside.join("mod/cache/pkg@v1/x.go");
    write(&file, "package x\n");
    write(&d.outside.join("mod/cache/pkg@v1/unread.go"), "package x\n");
    std::os::unix::fs::symlink("pkg@v1", d.outside.join("mod/cache/latest")).expect("link");
    let deeper = d.outside.join("mod/deeper/y.go");
    write(&deeper, "package y\n");
    // Go's module cache is read-only.
    std::fs::set_permissions(
        d.outside.join("mod/cache/pkg@v1"),
        std::fs::Permissions::from_mode(0o555),
    )
    .expect("chmod");
    let paths = [file.clone(), d.outside.join("mod/cache/latest"), deeper.clone()];
    let snapshot = Snapshot::take(&paths, &d.store, &d.project).expect("taken");
    let place = d.outside.join("mod");
    let below = [d.outside.join("mod/deeper")];
    let layer = snapshot
        .layer(&d.store, &place, &below)
        .expect("built")
        .expect("a layer");
    let linked = layer.join("cache/pkg@v1/x.go");
    assert_eq!(std::fs::read_to_string(&linked).expect("held"), "package x\n");
    assert!(
        std::fs::metadata(&linked).expect("held").nlink() >= 2,
        "a hard link to the object"
    );
    assert!(!layer.join("cache/pkg@v1/unread.go").exists(), "only what was read");
    assert!(!layer.join("deeper").exists(), "a place below is its own");
    assert_eq!(
        std::fs::read_link(layer.join("cache/latest")).expect("a link"),
        Path::new("pkg@v1")
    );
    let mode = std::fs::metadata(layer.join("cache/pkg@v1")).expect("dir").mode() & 0o777;
    assert_eq!(mode, 0o555);
    // Built once: the marker makes the next run reuse it.
    assert_eq!(
        snapshot.layer(&d.store, &place, &below).expect("again"),
        Some(layer.clone())
    );
    // And nothing held below a place: no layer.
    assert_eq!(snapshot.layer(&d.store, &d.project, &[]).expect("none"), None);
    super::make_removable(&d.store).expect("removable");
    std::fs::set_permissions(
        d.outside.join("mod/cache/pkg@v1"),
        std::fs::Permissions::from_mode(0o755),
    )
    .expect("chmod back");
}

#[test]
fn places_are_the_outermost_directories_away_from_the_project_and_the_store() {
    let mut snapshot = Snapshot::default();
    for path in [
        "/home/u/.local/lib/python3/site-packages/a.py",
        "/home/u/.local/lib/python3/site-packages/b.py",
        "/home/u/.cargo/registry/src/x/lib.rs",
        "/home/u/.npmrc",
        "/work/dep/src/lib.rs",
    ] {
        snapshot.files.insert(
            path.to_string(),
            Entry::Link {
                target: PathBuf::from("x"),
            },
        );
    }
    let places = snapshot.places(
        Path::new("/home/u/project"),
        &[PathBuf::from("/home/u/.local/state/loopgate")],
    );
    assert_eq!(
        places,
        [
            PathBuf::from("/home/u/.cargo"),
            PathBuf::from("/home/u/.local/lib"),
            PathBuf::from("/work"),
        ]
    );
}

#[test]
fn a_corrupt_digest_or_a_missing_object_is_an_error_naming_it() {
    let d = dirs();
    let objects = Objects::open(&d.store).expect("store");
    let err = objects.object("../../etc/passwd", 0o644).expect_err("not a digest");
    assert!(err.to_string().contains("no SHA-256 digest"), "{err}");
    let missing = "0".repeat(64);
    let err = objects
        .link(&missing, 0o644, &d.outside.join("x"))
        .expect_err("no object");
    assert!(err.to_string().contains("is missing"), "{err}");
    // A snapshot whose object is gone binds nothing for it (the promise compares instead).
    let mut snapshot = Snapshot::default();
    let held = d.outside.join("held.py");
    write(&held, "x\n");
    let stat = super::Stat::of(&std::fs::metadata(&held).expect("stat"));
    snapshot.files.insert(
        key(&held),
        Entry::File {
            digest: missing,
            mode: 0o644,
            stat,
        },
    );
    assert!(snapshot.file_binds(&d.store, &[]).is_empty());
    assert!(snapshot.layer(&d.store, &d.outside, &[]).is_err());
}

/// In the room's namespace, the snapshot is what the run reads at every held path, however the path was
/// changed since — edited in place (a file in a place overlaid inside `$HOME`, and a dotfile in the `$HOME` that
/// holds the project, bound file by file), replaced by a link (a sibling dependency outside `$HOME`) — while a
/// new file beside a held one (a dependency the baseline never read) is the agent's and is seen.
#[cfg(target_os = "linux")]
#[test]
fn a_run_in_the_namespace_reads_the_snapshot_at_every_held_path() {
    if crate::room::tests::no_scratch() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let base = dir.path().canonicalize().expect("canonical");
    let user = base.join("user");
    let root = user.join("src/project");
    let store = user.join(".local/state/loopgate");
    let room = crate::room::Room::at(store.join("rooms/abc"));
    let site = user.join(".local/lib/site/x.py");
    let npmrc = user.join(".npmrc");
    let dep = base.join("dep/src/lib.rs");
    for (path, text) in [(&site, "SITE"), (&npmrc, "NPMRC"), (&dep, "DEP")] {
        write(path, text);
    }
    write(&root.join("calc.py"), "code");
    std::fs::create_dir_all(room.dir()).expect("room");
    let held = [site.clone(), npmrc.clone(), dep.clone()];
    let snapshot = Snapshot::take(&held, &room.snapshot_dir(), &root).expect("taken");
    // The agent's moves, and an honest new file.
    std::fs::write(&site, "EDIT").expect("edit");
    std::fs::write(&npmrc, "EDITED").expect("edit");
    let evil = base.join("evil.rs");
    write(&evil, "EVIL");
    std::fs::remove_file(&dep).expect("rm");
    std::os::unix::fs::symlink(&evil, &dep).expect("link");
    write(&base.join("dep/src/new.rs"), "NEW");
    let mut synced = crate::room::Synced::baseline(&root, std::iter::empty()).expect("baseline");
    let tree = room.dir().join("tree");
    let done = synced.sync(&root, &tree).expect("synced");
    let mount = crate::room::Mount::prepare(
        &root,
        &tree,
        &done.bound,
        std::slice::from_ref(&user),
        &[],
        &store,
        room.dir(),
        &[],
        &[],
        Some(&super::Presenting {
            snapshot: &snapshot,
            store: room.snapshot_dir(),
        }),
    )
    .expect("mount prepared");
    let mut presented = mount.presented().to_vec();
    presented.sort();
    assert_eq!(presented, [dep.clone(), site.clone(), npmrc.clone()]);
    let script = format!(
        "cat {site} {npmrc} {dep} {new}; echo; echo x > {dep} && echo WROTE",
        site = site.display(),
        npmrc = npmrc.display(),
        dep = dep.display(),
        new = base.join("dep/src/new.rs").display(),
    );
    let log = base.join("verify.log");
    let outcome = crate::room::tests::run_mounted(&script, &root, &log, None, &mount);
    let text = outcome.output_text();
    assert!(text.contains("SITENPMRCDEPNEW\nWROTE"), "{text}");
    // The run's write went to its scratch: neither the snapshot nor the agent's file changed.
    assert_eq!(std::fs::read_to_string(&evil).expect("evil"), "EVIL");
    assert!(snapshot.changed(&HashSet::new()).len() == 3);
    let again = crate::room::tests::run_mounted(&script, &root, &log, None, &mount);
    assert!(
        again.output_text().contains("SITENPMRCDEPNEW"),
        "{}",
        again.output_text()
    );
}
