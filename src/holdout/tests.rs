use super::*;

/// A project with `files`, and an empty store beside it (never loopgate's real home).
fn setup(files: &[(&str, &str)]) -> (tempfile::TempDir, Project, PathBuf) {
    let temp = tempfile::tempdir().expect("temp dir");
    let root = temp.path().join("project");
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
        std::fs::write(path, text).expect("write");
    }
    std::fs::create_dir_all(&root).expect("root");
    let store = temp.path().join("store");
    (temp, Project { root }, store)
}

fn read(root: &Path, path: &str) -> Option<String> {
    std::fs::read_to_string(root.join(path)).ok()
}

const PROJECT: [(&str, &str); 3] = [
    ("calc.py", "def add(a, b):\n    return a - b\n"),
    ("tests/test_calc.py", "def test_add(): pass\n"),
    (
        "tests/acceptance/test_more.py",
        "def test_big(): assert add(10, 20) == 30\n",
    ),
];

fn take_acceptance(project: &Project, store: &Path) -> Holdout {
    take::take_into(
        store.to_path_buf(),
        project,
        &["tests/acceptance/**".to_string()],
        "lg-test",
    )
    .expect("take")
}

#[test]
fn setup_moves_the_matching_files_out_and_the_end_puts_them_back_unchanged() {
    let (_t, project, store) = setup(&PROJECT);
    let holdout = take_acceptance(&project, &store);
    assert_eq!(holdout.moved.len(), 1, "{holdout:?}");
    assert!(
        read(&project.root, "tests/acceptance/test_more.py").is_none(),
        "moved out"
    );
    assert!(
        read(&project.root, "tests/test_calc.py").is_some(),
        "the visible test stays"
    );
    assert!(store.join(MANIFEST).exists(), "the manifest lists what is out");
    let restored = restore_in(&store, &project.root).expect("restore");
    assert_eq!(restored.back, 1);
    assert_eq!(
        read(&project.root, "tests/acceptance/test_more.py").as_deref(),
        Some(PROJECT[2].1)
    );
    assert!(!store.join(MANIFEST).exists(), "nothing is out any more");
    assert!(!store.join(FILES).exists(), "the store's copies are gone");
    // Putting back again (every end calls it; a crash may repeat it) changes nothing.
    assert_eq!(restore_in(&store, &project.root).expect("again"), Restored::default());
}

#[test]
fn a_path_recreated_during_the_loop_is_kept_beside_the_file_that_comes_back() {
    let (_t, project, store) = setup(&PROJECT);
    take_acceptance(&project, &store);
    let path = "tests/acceptance/test_more.py";
    std::fs::create_dir_all(project.root.join("tests/acceptance")).expect("dir");
    std::fs::write(project.root.join(path), "the agent's own\n").expect("recreate");
    let restored = restore_in(&store, &project.root).expect("restore");
    assert_eq!(
        read(&project.root, path).as_deref(),
        Some(PROJECT[2].1),
        "the held-out file is back"
    );
    let aside = project.root.join("tests/acceptance/test_more.py.loopgate-recreated");
    assert_eq!(restored.kept_aside, vec![(path.to_string(), aside.clone())]);
    assert_eq!(
        std::fs::read_to_string(&aside).expect("kept").as_str(),
        "the agent's own\n"
    );
    let line = crate::messages::holdout::restored(crate::schema::Speech::En, &restored);
    assert!(
        line.contains("was recreated during the loop") && line.contains(".loopgate-recreated"),
        "{line}"
    );
}

#[test]
fn a_put_back_cut_short_after_the_file_came_back_finishes_without_a_duplicate() {
    let (_t, project, store) = setup(&PROJECT);
    take_acceptance(&project, &store);
    // A crash between the copy back and removing the store's copy: the same content on both sides.
    let path = "tests/acceptance/test_more.py";
    std::fs::create_dir_all(project.root.join("tests/acceptance")).expect("dir");
    std::fs::copy(store.join(FILES).join(path), project.root.join(path)).expect("copy back");
    let restored = restore_in(&store, &project.root).expect("restore");
    assert!(restored.kept_aside.is_empty(), "{restored:?}");
    assert_eq!(read(&project.root, path).as_deref(), Some(PROJECT[2].1));
    assert!(
        !project
            .root
            .join("tests/acceptance/test_more.py.loopgate-recreated")
            .exists()
    );
}

#[test]
fn a_move_that_fails_halfway_puts_back_every_file_that_moved() {
    let (_t, project, store) = setup(&[("tests/acceptance/a.py", "a\n")]);
    let sha = moves::sha256_of(&project.root.join("tests/acceptance/a.py")).expect("sha");
    // The second file vanished between the match and its move: the first one, already out, comes back.
    let planned = BTreeMap::from([
        ("tests/acceptance/a.py".to_string(), sha.clone()),
        ("tests/acceptance/b.py".to_string(), sha),
    ]);
    let err = take::move_out(&project, &store, "lg-test", &planned).expect_err("b.py is gone");
    assert!(err.to_string().contains("tests/acceptance/b.py"), "{err}");
    assert_eq!(read(&project.root, "tests/acceptance/a.py").as_deref(), Some("a\n"));
    assert!(!store.join(MANIFEST).exists(), "nothing is out");
}

#[test]
fn a_glob_that_matches_nothing_is_a_one_line_error_naming_it() {
    let (_t, project, store) = setup(&PROJECT);
    let err = take::take_into(store, &project, &["acceptance/**".to_string()], "lg-test")
        .expect_err("no match")
        .to_string();
    assert!(
        err.contains("`--holdout acceptance/**`") && err.contains("matched no file"),
        "{err}"
    );
    assert!(!err.contains('\n'), "{err}");
}

#[test]
fn an_outside_directory_is_copied_and_later_edits_there_do_not_change_the_held_out_set() {
    let (temp, project, store) = setup(&PROJECT);
    let outside = temp.path().join("acceptance");
    std::fs::create_dir_all(outside.join("tests")).expect("dir");
    std::fs::write(outside.join("tests/test_hidden.py"), "original\n").expect("write");
    let value = outside.display().to_string();
    let holdout = take::take_into(store.clone(), &project, std::slice::from_ref(&value), "lg-test").expect("take");
    assert!(holdout.moved.is_empty());
    assert_eq!(holdout.copied.keys().collect::<Vec<_>>(), ["tests/test_hidden.py"]);
    std::fs::write(outside.join("tests/test_hidden.py"), "edited later\n").expect("edit");
    let kept = std::fs::read_to_string(store.join(OUTSIDE).join("tests/test_hidden.py")).expect("copy");
    assert_eq!(kept, "original\n");
    assert_eq!(
        read(&outside, "tests/test_hidden.py").as_deref(),
        Some("edited later\n"),
        "never moved"
    );
}

#[test]
fn a_directory_inside_the_project_is_refused_as_an_outside_path() {
    let (_t, project, store) = setup(&PROJECT);
    let inside = project.root.join("tests").display().to_string();
    let err = take::take_into(store, &project, &[inside], "lg-test")
        .expect_err("inside")
        .to_string();
    assert!(err.contains("is inside the project"), "{err}");
    assert!(read(&project.root, "tests/test_calc.py").is_some(), "nothing moved");
}

#[test]
fn the_private_copy_leaves_out_vcs_and_build_outputs_links_dependencies_and_lays_the_held_out_files_over_it() {
    let (_t, project, store) = setup(&[
        ("calc.py", "agent's code\n"),
        ("tests/test_calc.py", "agent's edit\n"),
        ("tests/test_new.py", "agent's new test\n"),
        (".git/HEAD", "ref\n"),
        ("target/debug/x", "build\n"),
        ("node_modules/dep/index.js", "dep\n"),
    ]);
    std::fs::create_dir_all(store.join(FILES).join("tests/acceptance")).expect("dir");
    std::fs::write(store.join(FILES).join("tests/acceptance/test_more.py"), "held out\n").expect("held");
    let overlay = copy::Overlay {
        sealed: vec![("tests/test_calc.py", "sealed\n")],
        left_out: vec!["tests/test_new.py".to_string()],
        held_out: vec![store.join(FILES), store.join(OUTSIDE)],
    };
    let tree = copy::build(&project.root, &store, &overlay).expect("build");
    assert_eq!(read(&tree, "calc.py").as_deref(), Some("agent's code\n"));
    assert_eq!(
        read(&tree, "tests/test_calc.py").as_deref(),
        Some("sealed\n"),
        "stands as sealed"
    );
    assert!(
        read(&tree, "tests/test_new.py").is_none(),
        "the agent's new test sits out"
    );
    assert_eq!(
        read(&tree, "tests/acceptance/test_more.py").as_deref(),
        Some("held out\n")
    );
    assert!(!tree.join(".git").exists() && !tree.join("target").exists());
    assert_eq!(
        std::fs::read_link(tree.join("node_modules")).expect("link"),
        project.root.join("node_modules")
    );
    assert!(
        read(&project.root, "tests/acceptance/test_more.py").is_none(),
        "never in the user's tree"
    );
    // The next promise: a removed file goes from the copy, an edited one is copied again.
    std::fs::remove_file(project.root.join("calc.py")).expect("rm");
    std::fs::write(project.root.join("lib.py"), "new module\n").expect("new");
    let tree = copy::build(&project.root, &store, &overlay).expect("rebuild");
    assert!(read(&tree, "calc.py").is_none());
    assert_eq!(read(&tree, "lib.py").as_deref(), Some("new module\n"));
    assert_eq!(
        read(&tree, "tests/acceptance/test_more.py").as_deref(),
        Some("held out\n")
    );
}

/// The copy leaves out below the root exactly what the oracle's room leaves out of its tree, every ecosystem's
/// caches and build outputs included (`room::tree::SKIPPED`), and copies a directory of any other name.
#[test]
fn the_private_copy_leaves_out_what_the_oracles_room_leaves_out() {
    let skipped = crate::room::tree::SKIPPED;
    assert!(skipped.len() > 10, "{skipped:?}");
    let mut files: Vec<(String, &str)> = skipped.iter().map(|name| (format!("pkg/{name}/f"), "x\n")).collect();
    files.push(("pkg/kept/f".to_string(), "kept\n"));
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), *t)).collect();
    let (_t, project, store) = setup(&files);
    let overlay = copy::Overlay {
        sealed: Vec::new(),
        left_out: Vec::new(),
        held_out: Vec::new(),
    };
    let tree = copy::build(&project.root, &store, &overlay).expect("build");
    let copied: Vec<&str> = skipped
        .iter()
        .copied()
        .filter(|name| tree.join("pkg").join(name).exists())
        .collect();
    assert!(copied.is_empty(), "copied: {copied:?}");
    assert_eq!(read(&tree, "pkg/kept/f").as_deref(), Some("kept\n"));
}

#[test]
fn moving_onto_an_existing_file_is_refused_and_keeps_both() {
    let temp = tempfile::tempdir().expect("temp");
    let (from, to) = (temp.path().join("a"), temp.path().join("b"));
    std::fs::write(&from, "a").expect("a");
    std::fs::write(&to, "b").expect("b");
    let sha = moves::sha256_of(&from).expect("sha");
    assert!(moves::move_verified(&from, &to, &sha).is_err());
    assert_eq!(std::fs::read_to_string(&from).expect("a"), "a");
    assert_eq!(std::fs::read_to_string(&to).expect("b"), "b");
}

#[test]
fn a_move_across_file_systems_checks_the_copy_by_hash_before_removing_the_original() {
    let temp = tempfile::tempdir().expect("temp");
    let (from, to) = (temp.path().join("a"), temp.path().join("sub/b"));
    std::fs::write(&from, "held out\n").expect("a");
    std::fs::create_dir_all(temp.path().join("sub")).expect("dir");
    // A hash that does not match (the file changed while it moved): the original stays, no copy is left.
    let err = moves::copy_then_remove(&from, &to, "0000").expect_err("mismatch");
    assert!(err.to_string().contains("does not match"), "{err}");
    assert!(from.exists() && !to.exists());
    assert_eq!(
        std::fs::read_dir(temp.path().join("sub")).expect("dir").count(),
        0,
        "no temporary copy left"
    );
    let sha = moves::sha256_of(&from).expect("sha");
    moves::copy_then_remove(&from, &to, &sha).expect("move");
    assert!(!from.exists());
    assert_eq!(std::fs::read_to_string(&to).expect("b"), "held out\n");
}

#[test]
fn a_moved_file_left_without_its_manifest_is_never_deleted() {
    let (_t, project, store) = setup(&PROJECT);
    take_acceptance(&project, &store);
    std::fs::remove_file(store.join(MANIFEST)).expect("manifest lost");
    restore_in(&store, &project.root).expect("nothing to put back");
    let kept = store.join(FILES).join("tests/acceptance/test_more.py");
    assert_eq!(std::fs::read_to_string(&kept).expect("still there"), PROJECT[2].1);
    // And a new loop refuses to take over the store while it holds them.
    let err = take::take_into(store.clone(), &project, &["calc.py".to_string()], "lg-2").expect_err("refused");
    assert!(err.to_string().contains("still in"), "{err}");
    assert!(project.root.join("calc.py").exists());
}

/// While the files were out the agent replaced their directory by a link to one outside the project: putting
/// back refuses it by name, nothing is put through the link, and the files stay in the store for the next try.
#[test]
fn a_directory_replaced_by_a_link_gets_no_file_put_back_through_it() {
    let (t, project, store) = setup(&PROJECT);
    take_acceptance(&project, &store);
    let outside = t.path().join("outside");
    std::fs::create_dir_all(&outside).expect("mkdir");
    let _ = std::fs::remove_dir_all(project.root.join("tests/acceptance"));
    std::os::unix::fs::symlink(&outside, project.root.join("tests/acceptance")).expect("link");
    let err = restore_in(&store, &project.root)
        .expect_err("put back through a link")
        .to_string();
    assert!(
        err.contains("`tests/acceptance` is a symbolic link loopgate did not make; remove it"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_dir(&outside).expect("ls").count(),
        0,
        "put back through the link"
    );
    assert!(store.join(MANIFEST).exists(), "the files wait in the store");
}
