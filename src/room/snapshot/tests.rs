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

/// Copies (of files bound one by one: beside the project) are stored once per content and mode; a linked
/// object is its own file's, one per file whatever its content. Taking again adds nothing.
#[test]
fn the_same_content_is_copied_once_and_another_mode_apart() {
    let d = dirs();
    let beside = d.project.parent().expect("base").to_path_buf();
    let (a, b, c) = (beside.join(".a.py"), beside.join(".b.py"), beside.join(".c.sh"));
    let (x, y) = (d.outside.join("x.py"), d.outside.join("sub/y.py"));
    for path in [&a, &b, &c, &x, &y] {
        write(path, "same\n");
    }
    std::fs::set_permissions(&c, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let paths = [a.clone(), b.clone(), c.clone(), x.clone(), y.clone()];
    let snapshot = Snapshot::take(&paths, &d.store, &d.project).expect("taken");
    let digest = |p: &Path| match &snapshot.files[&key(p)] {
        Entry::File { digest, mode, .. } => (digest.clone(), *mode),
        other => panic!("{other:?}"),
    };
    assert_eq!(digest(&a), digest(&b));
    assert_eq!(digest(&a).0, digest(&c).0);
    assert_eq!(digest(&c).1, 0o755);
    assert_eq!(digest(&x), digest(&a));
    assert_eq!(objects_on_disk(&d.store), 4, "two copies (one per content and mode), two linked files");
    Snapshot::take(&paths, &d.store, &d.project).expect("taken again");
    assert_eq!(objects_on_disk(&d.store), 4);
}

/// The object of a file outside the places bound one by one is a hard link to it — no byte copied — and is
/// never trusted by name: an edit in place is seen, at the next promise and between the checks of one promise,
/// while a path replaced, renamed over or removed leaves the object as the baseline read it.
#[test]
fn a_linked_object_is_the_users_file_and_an_edit_in_place_is_seen_not_trusted() {
    let d = dirs();
    let (a, b) = (d.outside.join("pkg/a.py"), d.outside.join("pkg/b.py"));
    write(&a, "baseline a\n");
    write(&b, "baseline b\n");
    let snapshot = Snapshot::take(&[a.clone(), b.clone()], &d.store, &d.project).expect("taken");
    let objects = Objects::open(&d.store).expect("store");
    let key = |p: &Path| {
        let entry = &snapshot.files[&key(p)];
        assert!(
            matches!(entry, Entry::File { linked: true, .. }),
            "on the store's file system, linked: {entry:?}"
        );
        entry.key().expect("held by content")
    };
    let object_a = objects.object(key(&a)).expect("object");
    assert_eq!(
        std::fs::metadata(&object_a).expect("object").ino(),
        std::fs::metadata(&a).expect("file").ino(),
        "the object is the file itself"
    );
    let fresh = || super::objects::Seen::load(&d.store);
    let mut seen = fresh();
    assert!(objects.intact(key(&a), &mut seen), "as taken");
    seen.save(&d.store);
    // Replaced by a new file: the object keeps the baseline's content.
    std::fs::write(d.outside.join("new.py"), "AGENT").expect("new");
    std::fs::rename(d.outside.join("new.py"), &a).expect("rename over");
    let mut next = fresh();
    assert!(objects.intact(key(&a), &mut next));
    assert_eq!(std::fs::read_to_string(&object_a).expect("object"), "baseline a\n");
    // Edited in place: the object moved with it, and is no longer what its name says.
    assert!(objects.intact(key(&b), &mut next), "checked before the run");
    std::fs::OpenOptions::new()
        .write(true)
        .open(&b)
        .and_then(|mut f| std::io::Write::write_all(&mut f, b"EDITED!!!!!"))
        .expect("edit in place");
    assert!(!objects.intact(key(&b), &mut next), "after the run: it moved");
    assert!(!objects.intact(key(&b), &mut fresh()), "at the next promise");
    // Put back as it was: the same content, read afresh, is intact at the next promise — but not within the
    // promise that saw it move (its run may have read the edit).
    std::fs::write(&b, "baseline b\n").expect("put back");
    assert!(!objects.intact(key(&b), &mut next));
    assert!(objects.intact(key(&b), &mut fresh()));
}

/// A file in a directory that holds the project is bound over its path in the run, not overlaid: its object is a
/// copy (a bound link would let the run write the user's file), which an edit in place does not reach.
#[test]
fn a_file_beside_the_project_is_held_as_a_copy() {
    let d = dirs();
    let base = d.project.parent().expect("base").to_path_buf();
    let dotfile = base.join(".npmrc");
    write(&dotfile, "baseline\n");
    let snapshot = Snapshot::take(std::slice::from_ref(&dotfile), &d.store, &d.project).expect("taken");
    let entry = &snapshot.files[&key(&dotfile)];
    assert!(matches!(entry, Entry::File { linked: false, .. }), "{entry:?}");
    let object = Objects::open(&d.store)
        .expect("store")
        .object(entry.key().expect("held by content"))
        .expect("object");
    assert_ne!(
        std::fs::metadata(&object).expect("object").ino(),
        std::fs::metadata(&dotfile).expect("file").ino()
    );
    std::fs::write(&dotfile, "EDITED!!!").expect("edit in place");
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
    let changed = |presented: &HashSet<&Path>| {
        snapshot.changed(presented, &d.store, &mut super::objects::Seen::load(&d.store))
    };
    assert!(changed(&HashSet::new()).is_empty());
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
        changed(&HashSet::new()),
        [key(&edited), key(&linked), key(&removed)]
    );
    // Presented, a path replaced by a link reads the snapshot; the file edited in place was its object (a link
    // to it), so it is no longer what the baseline read and is named still.
    let presented: HashSet<&Path> = [edited.as_path(), linked.as_path()].into_iter().collect();
    assert_eq!(changed(&presented), [key(&edited), key(&removed)]);
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
    let bad = |digest| super::objects::Key {
        digest,
        mode: 0o644,
        linked: None,
    };
    let err = objects.object(bad("../../etc/passwd")).expect_err("not a digest");
    assert!(err.to_string().contains("no SHA-256 digest"), "{err}");
    let missing = "0".repeat(64);
    let err = objects
        .link(bad(&missing), &d.outside.join("x"))
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
            linked: false,
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
    let edited = user.join(".local/lib/site/y.py");
    write(&edited, "Y");
    let held = [site.clone(), npmrc.clone(), dep.clone(), edited.clone()];
    let snapshot = Snapshot::take(&held, &room.snapshot_dir(), &root).expect("taken");
    // The agent's moves, and an honest new file.
    write(&user.join("x.new"), "EDIT");
    std::fs::rename(user.join("x.new"), &site).expect("replace");
    std::fs::write(&npmrc, "EDITED").expect("edit");
    std::fs::write(&edited, "YEDIT").expect("edit in place");
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
    assert_eq!(presented, [dep.clone(), site.clone(), edited.clone(), npmrc.clone()]);
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
    let mut seen = super::objects::Seen::default();
    assert_eq!(
        snapshot.changed(&HashSet::new(), &room.snapshot_dir(), &mut seen).len(),
        4,
        "compared where nothing is presented"
    );
    // Presented, only the object edited in place through its path is not what the baseline read.
    let shown: HashSet<&Path> = presented.iter().map(PathBuf::as_path).collect();
    assert_eq!(
        snapshot.changed(&shown, &room.snapshot_dir(), &mut seen),
        [key(&edited)]
    );
    let again = crate::room::tests::run_mounted(&script, &root, &log, None, &mount);
    assert!(
        again.output_text().contains("SITENPMRCDEPNEW"),
        "{}",
        again.output_text()
    );
}
