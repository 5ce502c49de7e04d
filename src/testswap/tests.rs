use std::cell::RefCell;

use super::*;

fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
        std::fs::write(path, text).expect("write");
    }
    dir
}

fn read(root: &Path, path: &str) -> Option<String> {
    std::fs::read_to_string(root.join(path)).ok()
}

/// The sealed copies as setup took them, then the agent's edits.
fn sealed_then_edited() -> (tempfile::TempDir, Copies) {
    let dir = project(&[("tests/test_a.py", "sealed a\n"), ("tests/test_b.py", "sealed b\n")]);
    let names = ["tests/test_a.py".to_string(), "tests/test_b.py".to_string()];
    let copies = Copies::take(dir.path(), &names);
    std::fs::write(dir.path().join("tests/test_a.py"), "agent's a\n").expect("edit");
    std::fs::remove_file(dir.path().join("tests/test_b.py")).expect("delete");
    std::fs::write(dir.path().join("tests/test_new.py"), "agent's new\n").expect("new");
    std::fs::write(dir.path().join("tests/split_test.cc"), "agent's split\n").expect("new");
    (dir, copies)
}

#[test]
fn during_the_run_the_test_side_stands_as_sealed_and_afterwards_as_the_agent_left_it() {
    let (dir, copies) = sealed_then_edited();
    let root = dir.path();
    let restore = changed(root, &copies);
    assert_eq!(
        restore.len(),
        2,
        "an edited and a deleted test file differ from their copies"
    );
    let plan = Plan {
        restore,
        cut: vec![("tests/split_test.cc".into(), "split, cut\n".into())],
        aside: vec!["tests/test_new.py".into()],
        stood_in: Vec::new(),
        respelled: Vec::new(),
    };
    let journaled = RefCell::new(None);
    let journal = swap(root, &plan, |j| {
        *journaled.borrow_mut() = Some(j.clone());
        Ok(())
    })
    .expect("swap");
    assert_eq!(
        journaled.into_inner(),
        Some(journal.clone()),
        "the journal is written before anything moves"
    );
    assert_eq!(read(root, "tests/test_a.py").as_deref(), Some("sealed a\n"));
    assert_eq!(read(root, "tests/test_b.py").as_deref(), Some("sealed b\n"));
    assert_eq!(read(root, "tests/test_new.py"), None);
    assert_eq!(read(root, "tests/split_test.cc").as_deref(), Some("split, cut\n"));

    put_back(root, &journal.moved).expect("put back");
    assert_eq!(read(root, "tests/split_test.cc").as_deref(), Some("agent's split\n"));
    assert_eq!(read(root, "tests/test_a.py").as_deref(), Some("agent's a\n"));
    assert_eq!(read(root, "tests/test_b.py"), None, "the agent's deletion stands");
    assert_eq!(read(root, "tests/test_new.py").as_deref(), Some("agent's new\n"));
    let stash: Vec<_> = std::fs::read_dir(stash_dir(root)).expect("stash").collect();
    assert!(stash.is_empty(), "the stash is left empty");
}

#[test]
fn a_run_killed_right_after_the_journal_loses_nothing_when_recovered() {
    let (dir, copies) = sealed_then_edited();
    let root = dir.path();
    let plan = Plan {
        restore: changed(root, &copies),
        cut: vec![],
        aside: vec!["tests/test_new.py".into()],
        stood_in: Vec::new(),
        respelled: Vec::new(),
    };
    // The journal is written, then the process dies before the first move.
    let mut kept = None;
    let failed = swap(root, &plan, |j| {
        kept = Some(j.clone());
        Err(std::io::Error::other("killed"))
    });
    assert!(failed.is_err());
    let journal = kept.expect("journal");
    put_back(root, &journal.moved).expect("recover");
    assert_eq!(read(root, "tests/test_a.py").as_deref(), Some("agent's a\n"));
    assert_eq!(read(root, "tests/test_b.py"), None);
    assert_eq!(read(root, "tests/test_new.py").as_deref(), Some("agent's new\n"));
}

#[test]
fn recovery_after_a_completed_swap_and_a_second_recovery_change_nothing_more() {
    let (dir, copies) = sealed_then_edited();
    let root = dir.path();
    let plan = Plan {
        restore: changed(root, &copies),
        cut: vec![],
        aside: vec!["tests/test_new.py".into()],
        stood_in: Vec::new(),
        respelled: Vec::new(),
    };
    let journal = swap(root, &plan, |_| Ok(())).expect("swap");
    // Killed during the run: the next loopgate call recovers from the journal, and may do so twice.
    put_back(root, &journal.moved).expect("recover");
    put_back(root, &journal.moved).expect("recover again");
    assert_eq!(read(root, "tests/test_a.py").as_deref(), Some("agent's a\n"));
    assert_eq!(read(root, "tests/test_b.py"), None);
    assert_eq!(read(root, "tests/test_new.py").as_deref(), Some("agent's new\n"));
}

#[test]
fn an_unchanged_test_side_plans_nothing() {
    let dir = project(&[("tests/test_a.py", "same\n")]);
    let copies = Copies::take(dir.path(), &["tests/test_a.py".to_string()]);
    assert!(changed(dir.path(), &copies).is_empty());
}

#[test]
fn copies_keep_test_data_beside_the_tests_and_snapshots_anywhere() {
    let dir = project(&[
        ("tests/test_a.py", "def test_a(): pass\n"),
        ("tests/cases.json", "[1, 2]\n"),
        ("src/__snapshots__/view.test.js.snap", "exports[`view 1`] = `<b/>`;\n"),
        ("pkg/testdata/golden.txt", "expected\n"),
        ("pkg/output.golden", "gold\n"),
        ("src/app.py", "code\n"),
        ("README.md", "docs\n"),
    ]);
    let copies = Copies::take(dir.path(), &["tests/test_a.py".to_string()]);
    let kept: Vec<&str> = copies.files.keys().map(String::as_str).collect();
    assert_eq!(
        kept,
        vec![
            "pkg/output.golden",
            "pkg/testdata/golden.txt",
            "src/__snapshots__/view.test.js.snap",
            "tests/cases.json",
            "tests/test_a.py",
        ],
        "the code under test and the docs are not test data"
    );
}

#[test]
fn only_snapshot_files_that_did_not_exist_at_setup_are_new() {
    let dir = project(&[
        ("test/a.test.js", "a\n"),
        ("test/__snapshots__/a.test.js.snap", "sealed\n"),
    ]);
    let root = dir.path();
    std::fs::write(root.join("test/__snapshots__/binary.snap"), [0xff, 0xfe]).expect("binary");
    let copies = Copies::take(root, &["test/a.test.js".to_string()]);
    assert!(
        copies.uncopied.contains("test/__snapshots__/binary.snap"),
        "a snapshot too large or not UTF-8 is known, not kept: {copies:?}"
    );
    std::fs::write(root.join("test/__snapshots__/b.test.js.snap"), "agent's\n").expect("new snapshot");
    std::fs::create_dir_all(root.join("src/snapshots")).expect("dirs");
    // insta's snapshots of inline tests, which run as the agent left them, stay in.
    std::fs::write(root.join("src/snapshots/calc__sum.snap"), "agent's\n").expect("new insta snapshot");
    assert_eq!(
        copies.new_snapshots(root),
        vec!["test/__snapshots__/b.test.js.snap".to_string()]
    );
}

#[test]
fn what_the_baseline_run_wrote_under_a_test_directory_is_its_output_not_test_data() {
    let dir = project(&[
        ("tests/test_a.py", "sealed a\n"),
        ("tests/cases.json", "[1]\n"),
        ("tests/out/report.txt", "run 1\n"),
        ("tests/out/tmp.txt", "scratch\n"),
        ("tests/out/same.txt", "same\n"),
    ]);
    let root = dir.path();
    let mut copies = Copies::take(root, &["tests/test_a.py".to_string()]);
    let stamps = copies.stamps(root);
    std::thread::sleep(std::time::Duration::from_millis(20));
    // The baseline run rewrites its reports (one with the same content) and removes its scratch file; the test
    // file changing is not output.
    std::fs::write(root.join("tests/out/report.txt"), "run 2\n").expect("report");
    std::fs::write(root.join("tests/out/same.txt"), "same\n").expect("same report");
    std::fs::remove_file(root.join("tests/out/tmp.txt")).expect("scratch");
    std::fs::write(root.join("tests/test_a.py"), "odd\n").expect("test");
    copies.drop_run_outputs(root, &stamps, |path| path == "tests/test_a.py");
    let kept: Vec<&str> = copies.files.keys().map(String::as_str).collect();
    assert_eq!(kept, ["tests/cases.json", "tests/test_a.py"]);
    assert!(
        ["report.txt", "same.txt", "tmp.txt"]
            .iter()
            .all(|name| copies.uncopied.contains(&format!("tests/out/{name}"))),
        "outputs are known, so not new: {copies:?}"
    );
}

/// A test directory the agent replaced by a link to a directory outside the project: the swap refuses it by name
/// and neither moves the file there into the stash nor writes the sealed copy through the link.
#[test]
fn a_test_directory_replaced_by_a_link_is_refused_and_nothing_goes_through_it() {
    let (dir, copies) = sealed_then_edited();
    let root = dir.path();
    let outside = tempfile::tempdir().expect("outside");
    std::fs::write(outside.path().join("test_a.py"), "the user's own file\n").expect("write");
    std::fs::rename(root.join("tests"), root.join("tests.moved")).expect("move");
    std::os::unix::fs::symlink(outside.path(), root.join("tests")).expect("link");
    let plan = Plan {
        restore: changed(root, &copies),
        cut: vec![],
        aside: vec![],
        stood_in: Vec::new(),
        respelled: Vec::new(),
    };
    let err = swap(root, &plan, |_| Ok(())).expect_err("went through the link");
    assert_eq!(
        err.to_string(),
        "`tests` is a symbolic link loopgate did not make; remove it"
    );
    let names: Vec<_> = std::fs::read_dir(outside.path())
        .expect("ls")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(names, ["test_a.py"], "something was made through the link");
    assert_eq!(
        std::fs::read_to_string(outside.path().join("test_a.py")).expect("read"),
        "the user's own file\n"
    );
}
