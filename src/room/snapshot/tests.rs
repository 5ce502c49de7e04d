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
    // Two files of an installed package (its `package.json` beside them): linked (`stores`).
    let package = d.outside.join("node_modules/pkg");
    let (x, y) = (package.join("x.py"), package.join("sub/y.py"));
    for path in [&a, &b, &c, &x, &y] {
        write(path, "same\n");
    }
    write(&package.join("package.json"), "{}");
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
    assert_eq!(
        objects_on_disk(&d.store),
        4,
        "two copies (one per content and mode), two linked files"
    );
    Snapshot::take(&paths, &d.store, &d.project).expect("taken again");
    assert_eq!(objects_on_disk(&d.store), 4);
}

/// A held file and its linked object, in a sandbox of their own.
struct Linked {
    d: Dirs,
    file: PathBuf,
    snapshot: Snapshot,
}

impl Linked {
    fn new(text: &str) -> Linked {
        let d = dirs();
        let file = d.outside.join("node_modules/pkg/index.js");
        write(&file, text);
        write(&d.outside.join("node_modules/pkg/package.json"), "{}");
        let snapshot = Snapshot::take(std::slice::from_ref(&file), &d.store, &d.project).expect("taken");
        Linked { d, file, snapshot }
    }

    fn key(&self) -> super::objects::Key<'_> {
        let entry = &self.snapshot.files[&key(&self.file)];
        assert!(
            matches!(entry, Entry::File { linked: true, .. }),
            "on the store's file system, linked: {entry:?}"
        );
        entry.key().expect("held by content")
    }

    fn object(&self) -> PathBuf {
        Objects::open(&self.d.store)
            .expect("store")
            .object(self.key())
            .expect("object")
    }

    /// A promise's check of the object, with what the store's last promise recorded, saved after it.
    fn intact(&self) -> bool {
        let objects = Objects::open(&self.d.store).expect("store");
        let mut seen = super::objects::Seen::load(&self.d.store);
        let intact = objects.intact(self.key(), &mut seen);
        seen.save(&self.d.store);
        intact
    }
}

fn edit_in_place(path: &Path, bytes: &[u8]) {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|mut f| std::io::Write::write_all(&mut f, bytes))
        .expect("edit in place");
}

/// The object of a file outside the places bound one by one is a hard link to it — no byte copied — and a path
/// replaced (written anew and renamed over, as a package manager does) or removed leaves it as the baseline read
/// it: the store holds the inode.
#[test]
fn a_linked_object_is_the_users_file_and_survives_its_replacement_and_removal() {
    let l = Linked::new("baseline\n");
    assert_eq!(
        std::fs::metadata(l.object()).expect("object").ino(),
        std::fs::metadata(&l.file).expect("file").ino(),
        "the object is the file itself"
    );
    assert_eq!(objects_on_disk(&l.d.store), 1);
    assert!(l.intact(), "as taken");
    let new = l.d.outside.join("node_modules/pkg/.index.js.tmp");
    write(&new, "AGENT");
    std::fs::rename(&new, &l.file).expect("rename over");
    assert!(l.intact(), "replaced");
    assert_eq!(std::fs::read_to_string(l.object()).expect("object"), "baseline\n");
    std::fs::remove_file(&l.file).expect("rm");
    assert!(l.intact(), "removed");
    assert_eq!(std::fs::read_to_string(l.object()).expect("object"), "baseline\n");
    assert!(
        l.snapshot
            .changed(&presented(&l.file), &l.d.store, &mut Default::default())
            .is_empty()
    );
}

fn presented(path: &Path) -> HashSet<&Path> {
    std::iter::once(path).collect()
}

/// An edit in place reaches the object: its bytes are no longer its name's, at this promise and the next, and the
/// presented path is named; put back byte for byte (an honest debugging edit reverted), it is intact again.
#[test]
fn an_edit_in_place_is_named_and_put_back_it_is_intact_again() {
    let l = Linked::new("baseline\n");
    assert!(l.intact());
    edit_in_place(&l.file, b"EDITED!!!");
    assert!(!l.intact(), "edited in place");
    assert!(!l.intact(), "and at the next promise");
    let mut seen = Default::default();
    assert_eq!(
        l.snapshot.changed(&presented(&l.file), &l.d.store, &mut seen),
        [key(&l.file)],
        "named although presented"
    );
    edit_in_place(&l.file, b"baseline\n");
    assert!(l.intact(), "put back byte for byte");
}

/// The change time is only a hint: another link to the file (another loop's store), a `chmod`, a `touch` move it
/// and the bytes are read again and found the same — no change; the new stat is recorded, so the next promise
/// does not read them again (once the change time is older than the clock's tick).
#[test]
fn a_change_time_moved_by_a_link_a_chmod_or_a_touch_is_no_change() {
    let l = Linked::new("baseline\n");
    assert!(l.intact());
    let ctime = |p: &Path| std::fs::metadata(p).expect("stat").ctime_nsec();
    let other = l.d.outside.join("other-loops-store-object");
    let before = std::fs::metadata(&l.file).expect("stat");
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::hard_link(&l.file, &other).expect("another loop's link");
    assert!(
        std::fs::metadata(&l.file).expect("stat").ctime() != before.ctime() || ctime(&l.file) != before.ctime_nsec(),
        "a link moves the change time"
    );
    assert!(l.intact(), "linked by another loop");
    std::fs::remove_file(&other).expect("the other loop ends");
    assert!(l.intact(), "unlinked by another loop");
    std::fs::set_permissions(&l.file, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    assert!(l.intact(), "chmod");
    std::fs::File::options()
        .write(true)
        .open(&l.file)
        .and_then(|f| f.set_modified(std::time::SystemTime::now()))
        .expect("touch");
    assert!(l.intact(), "touch");
    // Recorded once the change time is past the racy tick: the next check trusts the stat, so a file that the
    // store cannot read any more (made unreadable to the check by a swap of the object's bytes is impossible;
    // the record is what is tested) is still intact by its recorded stat.
    std::thread::sleep(std::time::Duration::from_millis(150));
    assert!(l.intact(), "read, and recorded");
    let recorded = std::fs::read_to_string(l.d.store.join("seen.json")).expect("recorded");
    let now = super::Stat::of(&std::fs::symlink_metadata(l.object()).expect("stat"));
    assert!(recorded.contains(&format!("\"ctime\":{}", now.ctime)), "{recorded}");
}

/// A write within the clock's tick of the read is never trusted by a stat recorded at that read (racily clean).
#[test]
fn a_fresh_change_time_is_not_recorded() {
    let l = Linked::new("baseline\n");
    assert!(l.intact());
    assert!(
        !l.d.store.join("seen.json").exists(),
        "the link made at setup is too fresh to vouch for anything"
    );
}

/// Where the store cannot link the file (another file system: here the store on a tmpfs), the object is a copy
/// as before, and an edit in place does not reach it.
#[test]
fn on_another_file_system_the_object_is_a_copy() {
    let d = dirs();
    let Ok(shm) = tempfile::tempdir_in("/dev/shm") else {
        return;
    };
    let store = shm.path().join("store");
    let file = d.outside.join("index.js");
    write(&file, "baseline\n");
    let dev = |p: &Path| std::fs::metadata(p).expect("stat").dev();
    if dev(shm.path()) == dev(&file) {
        return;
    }
    let snapshot = Snapshot::take(std::slice::from_ref(&file), &store, &d.project).expect("taken");
    let entry = &snapshot.files[&key(&file)];
    assert!(matches!(entry, Entry::File { linked: false, .. }), "{entry:?}");
    let object = Objects::open(&store)
        .expect("store")
        .object(entry.key().expect("by content"))
        .expect("object");
    edit_in_place(&file, b"EDITED!!!");
    assert_eq!(std::fs::read_to_string(&object).expect("object"), "baseline\n");
    assert!(snapshot.linked(&store).is_empty(), "nothing to watch");
    assert!(
        snapshot
            .changed(&presented(&file), &store, &mut Default::default())
            .is_empty(),
        "presented from the copy: the edit is no input"
    );
}

/// Two loops hold the same file (two projects under one `node_modules`): their setups and promises interleave,
/// each setup linking the file into its own store and each loop's end removing its link, while the other checks
/// before and after its runs. The file's change time moves under each loop throughout; no check fails.
#[test]
fn two_loops_holding_one_file_never_reject_each_other() {
    let d = dirs();
    let file = d.outside.join("node_modules/shared/index.js");
    write(&file, "module.exports = 1;\n");
    write(&d.outside.join("node_modules/shared/package.json"), "{}");
    let probe = Snapshot::take(std::slice::from_ref(&file), &d.outside.join("probe"), &d.project).expect("taken");
    assert!(
        matches!(probe.files[&key(&file)], Entry::File { linked: true, .. }),
        "an installed package's file is held by a link"
    );
    let stores: Vec<PathBuf> = (0..2).map(|i| d.outside.join(format!("store-{i}"))).collect();
    let rounds = 40;
    let failures = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for store in &stores {
            let (file, project, failures) = (&file, &d.project, &failures);
            scope.spawn(move || {
                for _ in 0..rounds {
                    // A setup, two promises (each checked before and after its run), and the loop's end.
                    let snapshot = Snapshot::take(std::slice::from_ref(file), store, project).expect("taken");
                    let shown = presented(file);
                    for _ in 0..2 {
                        // One promise's checks share what it saw, as `oracle::world::Outside` does: the first
                        // attempt at links required the stat not to move between them, and failed here.
                        let mut seen = super::objects::Seen::load(store);
                        for _ in ["before the run", "after it"] {
                            if !snapshot.changed(&shown, store, &mut seen).is_empty() {
                                failures.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                            }
                            std::thread::yield_now();
                        }
                        seen.save(store);
                    }
                    std::fs::remove_dir_all(store).expect("the loop ends");
                }
            });
        }
    });
    assert_eq!(failures.into_inner(), 0, "a false rejection");
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
    // `edited` is an installed package's file (linked); `config`, a user's configuration file (copied).
    let package = d.outside.join("node_modules/pkg");
    write(&package.join("package.json"), "{}");
    let (edited, linked, removed, same, config) = (
        package.join("edited.js"),
        d.outside.join("linked.py"),
        d.outside.join("removed.py"),
        d.outside.join("same.py"),
        d.outside.join(".npmrc"),
    );
    for path in [&edited, &linked, &removed, &same, &config] {
        write(path, "baseline\n");
    }
    let paths = [
        edited.clone(),
        linked.clone(),
        removed.clone(),
        same.clone(),
        config.clone(),
    ];
    let snapshot = Snapshot::take(&paths, &d.store, &d.project).expect("taken");
    let changed =
        |presented: &HashSet<&Path>| snapshot.changed(presented, &d.store, &mut super::objects::Seen::load(&d.store));
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
    // The configuration file edited in place (`npm config set`).
    edit_in_place(&config, b"registry=x\n");
    assert_eq!(
        changed(&HashSet::new()),
        [key(&config), key(&linked), key(&edited), key(&removed)]
    );
    // Presented, a path replaced by a link reads the snapshot, and so does the configuration file edited in place
    // (its object is a copy); the package's file edited in place was its object (a link to it), so it is no
    // longer what the baseline read and is named still.
    let presented: HashSet<&Path> = [edited.as_path(), linked.as_path(), config.as_path()]
        .into_iter()
        .collect();
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
    // An installed module of a site-packages (its `RECORD` lists it): linked, so an edit in place is named.
    let site_packages = user.join(".local/lib/python3.11/site-packages");
    let edited = site_packages.join("y.py");
    write(&edited, "Y");
    write(&site_packages.join("y-1.0.dist-info/RECORD"), "y.py,sha256=x,1\n");
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
    assert_eq!(presented, [dep.clone(), edited.clone(), site.clone(), npmrc.clone()]);
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
