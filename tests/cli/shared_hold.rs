//! Two loops holding one file outside both projects (a `node_modules` or a venv above two projects): where the
//! store cannot reflink, each loop's snapshot object is a hard link to that very file
//! (`room::snapshot::objects`), so every setup, every layer built and every loop's end moves the file's change
//! time under the other loop's checks. The change time is only a hint there; the bytes decide, so no loop may
//! reject the other's honest work (the first attempt at links did, in the full gaming suite).

use std::fs;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::project::Project;

const PROMISE: &str = "<promise>LOOP_DONE</promise>";

#[test]
fn two_loops_holding_one_file_above_them_never_reject_each_other() {
    let (shared_dir, shared) = held_file();
    let (a, b) = (Project::new(), Project::new());
    for p in [&a, &b] {
        p.write("calc.txt", "fixed\n");
        p.write(
            "check.sh",
            format!("grep -q ok {} && grep -q fixed calc.txt\n", shared.display()),
        );
    }
    let setup = "\"t\" --verify 'sh check.sh' --stall-limit 0";
    a.setup("A", setup);
    let linked = |p: &Project| {
        walk(p.loopgate_home())
            .iter()
            .any(|path| path.to_string_lossy().ends_with(".l"))
    };
    let on_one_fs = linked(&a);
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        // The other loop's setups, and a third hand linking and unlinking the file throughout (another
        // loop's store made and removed), while this loop's checks before and after its runs go on.
        scope.spawn(|| b.setup("B", setup));
        scope.spawn(|| {
            let other = shared_dir.path().join("another-store-object");
            while !done.load(Ordering::SeqCst) {
                let _ = fs::hard_link(&shared, &other);
                std::thread::sleep(Duration::from_millis(3));
                let _ = fs::remove_file(&other);
                std::thread::sleep(Duration::from_millis(3));
            }
        });
        for _ in 0..3 {
            let out = a.loopgate(["verify"]).run();
            assert_eq!(
                out.code,
                Some(0),
                "a false rejection while the other loop held the file:\n{out}"
            );
        }
        done.store(true, Ordering::SeqCst);
    });
    assert!(
        !on_one_fs || linked(&b),
        "both loops hold the file by a link where the first does"
    );
    for (p, session) in [(&a, "A"), (&b, "B")] {
        let out = p.stop(session, PROMISE);
        assert!(
            out.json()["systemMessage"]
                .as_str()
                .is_some_and(|m| m.contains("verified complete")),
            "{out}"
        );
    }
    // The shared file was never edited: both loops' ends leave it as it was.
    assert_eq!(fs::read_to_string(&shared).expect("the shared file"), "ok\n");
}

/// A file outside every project (`lib.txt`, holding `ok`), in a directory of its own.
fn held_file() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix("loopgate-cli-shared-")
        .tempdir()
        .expect("a place above the projects");
    // A file of an installed package (its manifest beside it): what the snapshot links rather than copies
    // (`room::snapshot::stores`).
    let package = dir
        .path()
        .canonicalize()
        .expect("canonical")
        .join("node_modules/shared");
    fs::create_dir_all(&package).expect("the package");
    fs::write(package.join("package.json"), "{\"name\": \"shared\"}\n").expect("its manifest");
    let file = package.join("lib.txt");
    fs::write(&file, "ok\n").expect("the held file");
    (dir, file)
}

/// Every path under `dir`.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            out.extend(walk(&path));
        }
        out.push(path);
    }
    out
}

/// A held file outside the project edited in place while the oracle runs and put back before the run ends (a
/// process the agent left running): where its object is the file itself, the watch on the objects hears the
/// write, and the pass is void, naming the file. Where the object is a copy (a file system with reflinks, or
/// another one than the store's), the run never read the edit: nothing to name.
#[test]
fn a_held_file_edited_in_place_during_the_run_and_put_back_voids_the_pass() {
    let (_shared_dir, shared) = held_file();
    let p = Project::new();
    p.write("calc.txt", "fixed\n");
    p.write(
        "check.sh",
        format!("sleep 6; grep -q ok {} && grep -q fixed calc.txt\n", shared.display()),
    );
    p.setup("S", "\"t\" --verify 'sh check.sh' --stall-limit 0");
    let linked = walk(p.loopgate_home())
        .iter()
        .any(|path| path.to_string_lossy().ends_with(".l"));
    let edit = |text: &[u8]| {
        use std::io::Write;
        fs::OpenOptions::new()
            .write(true)
            .open(&shared)
            .and_then(|mut f| f.write_all(text))
            .expect("edit in place");
    };
    let out = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(2000));
            edit(b"no\n");
            std::thread::sleep(Duration::from_millis(2500));
            edit(b"ok\n");
        });
        p.stop("S", PROMISE)
    });
    if !linked {
        return;
    }
    let block = out.blocked();
    assert!(
        block.reason.contains("lib.txt"),
        "the file edited during the run is named:\n{}",
        block.reason
    );
}
