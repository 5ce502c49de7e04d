use std::path::Path;

use super::*;

fn write(root: &Path, relative: &str, text: &str) {
    let path = root.join(relative);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn read(root: &Path, relative: &str) -> Option<String> {
    std::fs::read_to_string(root.join(relative)).ok()
}

/// A project with a test under `tests/`, a module, and its baseline.
fn project() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf, Synced) {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("project");
    let tree = dir.path().join("room/tree");
    write(&root, "src/calc.py", "def add(a, b): return a + b\n");
    write(&root, "tests/test_calc.py", "from calc import add\n");
    write(&root, "tests/data/case.json", "{}\n");
    let synced = Synced::baseline(&root, ["tests/test_calc.py".to_string()].iter()).expect("baseline");
    (dir, root, tree, synced)
}

#[test]
fn a_sync_copies_new_and_changed_files_and_removes_deleted_ones() {
    let (_dir, root, tree, mut synced) = project();
    let first = synced.sync(&root, &tree).expect("sync");
    assert_eq!(first.copied, 3);
    assert_eq!(read(&tree, "tests/data/case.json").as_deref(), Some("{}\n"));
    let again = synced.sync(&root, &tree).expect("sync");
    assert_eq!(
        (again.copied, again.removed),
        (0, 0),
        "an unchanged tree copies nothing"
    );
    write(&root, "src/calc.py", "def add(a, b): return b + a\n");
    write(&root, "src/new_module.py", "X = 1\n");
    std::fs::remove_file(root.join("tests/data/case.json")).expect("rm");
    let done = synced.sync(&root, &tree).expect("sync");
    assert_eq!((done.copied, done.removed), (2, 1));
    assert_eq!(
        read(&tree, "src/calc.py").as_deref(),
        Some("def add(a, b): return b + a\n")
    );
    assert_eq!(read(&tree, "src/new_module.py").as_deref(), Some("X = 1\n"));
    assert_eq!(read(&tree, "tests/data/case.json"), None);
    assert!(!synced.files.contains_key("tests/data/case.json"));
}

#[test]
fn a_file_put_back_with_its_old_modification_time_is_copied_again() {
    let (_dir, root, tree, mut synced) = project();
    synced.sync(&root, &tree).expect("sync");
    let path = root.join("src/calc.py");
    let old = std::fs::metadata(&path).and_then(|m| m.modified()).expect("mtime");
    // Same size, same modification time: only the change time (and the content) moved.
    std::fs::write(&path, "def add(a, b): return a - b\n").expect("write");
    std::fs::File::options()
        .write(true)
        .open(&path)
        .and_then(|f| f.set_modified(old))
        .expect("touch");
    assert_eq!(synced.sync(&root, &tree).expect("sync").copied, 1);
    assert_eq!(
        read(&tree, "src/calc.py").as_deref(),
        Some("def add(a, b): return a - b\n")
    );
}

#[test]
fn what_a_run_wrote_into_its_tree_is_undone_by_the_next_sync() {
    let (_dir, root, tree, mut synced) = project();
    synced.sync(&root, &tree).expect("sync");
    write(&tree, "src/calc.py", "def add(a, b): return 3\n");
    write(&tree, "tests/conftest.py", "planted = True\n");
    let done = synced.sync(&root, &tree).expect("sync");
    assert_eq!((done.copied, done.removed), (1, 1));
    assert_eq!(
        read(&tree, "src/calc.py").as_deref(),
        Some("def add(a, b): return a + b\n")
    );
    assert_eq!(read(&tree, "tests/conftest.py"), None);
}

#[test]
fn a_symbolic_link_is_copied_as_a_link_and_copies_are_never_hard_links() {
    let (_dir, root, tree, mut synced) = project();
    std::os::unix::fs::symlink("calc.py", root.join("src/alias.py")).expect("symlink");
    synced.sync(&root, &tree).expect("sync");
    assert_eq!(
        std::fs::read_link(tree.join("src/alias.py")).expect("link"),
        Path::new("calc.py")
    );
    let (source, copy) = (
        std::fs::metadata(root.join("src/calc.py")).expect("meta"),
        std::fs::metadata(tree.join("src/calc.py")).expect("meta"),
    );
    assert_ne!(source.ino(), copy.ino());
    assert_eq!(
        source.modified().ok(),
        copy.modified().ok(),
        "the copy keeps the file's time"
    );
}

/// A sealed test file or datum the agent made a link (to a copy outside the project, which the code under test
/// could rewrite during the run) is carried as the regular file it resolves to, and carried again when what it
/// resolves to changes; the same link elsewhere stays a link.
#[test]
fn a_sealed_file_made_a_link_is_carried_as_the_file_it_resolves_to() {
    let (dir, root, tree, mut synced) = project();
    synced.sealed.insert("tests/data/case.json".to_string());
    let outside = dir.path().join("outside-case.json");
    std::fs::write(&outside, "{}\n").expect("write");
    std::fs::remove_file(root.join("tests/data/case.json")).expect("rm");
    std::os::unix::fs::symlink(&outside, root.join("tests/data/case.json")).expect("symlink");
    std::os::unix::fs::symlink(&outside, root.join("src/other.json")).expect("symlink");
    synced.sync(&root, &tree).expect("sync");
    let carried = std::fs::symlink_metadata(tree.join("tests/data/case.json")).expect("meta");
    assert!(carried.is_file(), "a sealed datum is a regular file in the tree");
    assert_eq!(read(&tree, "tests/data/case.json").as_deref(), Some("{}\n"));
    assert!(
        std::fs::symlink_metadata(tree.join("src/other.json"))
            .expect("meta")
            .file_type()
            .is_symlink(),
        "a link that is no sealed file stays a link"
    );
    std::fs::write(&outside, "[1]\n").expect("write");
    synced.sync(&root, &tree).expect("sync");
    assert_eq!(
        read(&tree, "tests/data/case.json").as_deref(),
        Some("[1]\n"),
        "a change where the link points is carried"
    );
}

#[test]
fn build_outputs_and_caches_are_not_copied_and_the_runs_own_are_kept() {
    let (_dir, root, tree, mut synced) = project();
    write(&root, "target/debug/stale-test-binary", "old");
    write(&root, "tests/__pycache__/test_calc.cpython-312.pyc", "weakened");
    write(&root, ".pytest_cache/v/cache/lastfailed", "{}");
    write(&root, ".claude/pua-loop.local.md", "state");
    synced.sync(&root, &tree).expect("sync");
    for path in [
        "target/debug/stale-test-binary",
        "tests/__pycache__/test_calc.cpython-312.pyc",
        ".pytest_cache/v/cache/lastfailed",
        ".claude/pua-loop.local.md",
    ] {
        assert_eq!(read(&tree, path), None, "{path}");
    }
    write(&tree, "target/debug/built-by-the-oracle", "fresh");
    synced.sync(&root, &tree).expect("sync");
    assert_eq!(
        read(&tree, "target/debug/built-by-the-oracle").as_deref(),
        Some("fresh")
    );
}

#[test]
fn new_files_a_runner_loads_on_its_own_stay_out_where_they_reach_a_baseline_test() {
    let (_dir, root, tree, mut synced) = project();
    let left = [
        "conftest.py",
        "tests/conftest.py",
        "tests/__init__.py",
        "sitecustomize.py",
        "src/usercustomize.py",
        "src/shadow.pth",
        "__mocks__/fs.js",
        "jest.config.js",
        "tests/pytest.ini",
        ".cargo/config.toml",
        "tests/setup_suite.bash",
        "rakelib/env.rake",
    ];
    let kept = [
        // A module turned into a package, a new module, a new crate, a conftest beside the agent's own new tests.
        "src/calc/__init__.py",
        "src/helpers.py",
        "crates/extra/Cargo.toml",
        "newtests/conftest.py",
        "docs/conf.py",
        // Not where the tools look: a task file outside `rakelib/`, a `rakelib/` below no baseline test.
        "tasks/env.rake",
        "tools/rakelib/env.rake",
    ];
    for path in left.iter().chain(&kept) {
        write(&root, path, "x = 1\n");
    }
    let done = synced.sync(&root, &tree).expect("sync");
    let mut expected: Vec<String> = left.iter().map(|p| (*p).to_string()).collect();
    expected.sort();
    let mut got = done.left_out.clone();
    got.sort();
    assert_eq!(got, expected);
    for path in left {
        assert_eq!(read(&tree, path), None, "{path}");
    }
    for path in kept {
        assert!(read(&tree, path).is_some(), "{path}");
    }
}

/// A new configuration file left to what its runner resolves (`closure::js_config`) is carried: the reading before
/// the run and the run must see it. The same name elsewhere, judged by no reading, stays out.
#[test]
fn a_new_configuration_file_judged_by_its_reading_is_carried() {
    let (_dir, root, tree, mut synced) = project();
    synced.judged.insert("jest.config.js".to_string());
    write(&root, "jest.config.js", "module.exports = {};\n");
    write(&root, "tests/jest.config.js", "module.exports = {};\n");
    let done = synced.sync(&root, &tree).expect("sync");
    assert_eq!(done.left_out, ["tests/jest.config.js"]);
    assert!(read(&tree, "jest.config.js").is_some());
}

#[test]
fn a_file_the_runner_loads_that_existed_at_the_baseline_is_copied() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("project");
    write(&root, "tests/conftest.py", "import pytest\n");
    write(&root, "tests/test_a.py", "def test_a(): pass\n");
    let mut synced = Synced::baseline(&root, std::iter::empty()).expect("baseline");
    write(&root, "tests/conftest.py", "import pytest  # edited\n");
    let done = synced.sync(&root, &dir.path().join("tree")).expect("sync");
    assert!(done.left_out.is_empty(), "{done:?}");
    assert_eq!(
        read(&dir.path().join("tree"), "tests/conftest.py").as_deref(),
        Some("import pytest  # edited\n")
    );
}

#[test]
fn dependency_and_vcs_directories_are_bound_not_copied() {
    let (_dir, root, tree, mut synced) = project();
    write(&root, "node_modules/left-pad/index.js", "module.exports = 1\n");
    write(&root, "packages/web/package.json", "{}\n");
    write(&root, "packages/web/node_modules/dep/index.js", "1\n");
    write(&root, ".venv/lib/site.py", "\n");
    write(&root, ".git/HEAD", "ref: refs/heads/main\n");
    let done = synced.sync(&root, &tree).expect("sync");
    assert_eq!(
        done.bound,
        [".git", ".venv", "node_modules", "packages/web/node_modules"]
    );
    assert!(tree.join("node_modules").is_dir(), "a mount point");
    assert_eq!(read(&tree, "node_modules/left-pad/index.js"), None);
}

/// Every file each ecosystem declares its runners load on their own is left out where new above a baseline
/// test (or anywhere, for what loads anywhere), and is copied where it lies beside no baseline test.
#[test]
fn every_ecosystems_self_loaded_files_are_left_out_above_the_tests() {
    let (_dir, _root, _tree, synced) = project();
    for files in TREES {
        for name in files.above_tests {
            assert!(synced.left_out(&format!("tests/{name}")), "tests/{name}");
            assert!(!synced.left_out(&format!("docs/{name}")), "docs/{name} reaches no test");
        }
        for prefix in files.config_prefixes {
            assert!(synced.left_out(&format!("{prefix}x")), "{prefix}x");
        }
        for (dir, prefix, suffix) in files.config_dirs {
            assert!(
                synced.left_out(&format!("{dir}/{prefix}x{suffix}")),
                "{dir}/{prefix}x{suffix}"
            );
        }
        for name in files.anywhere {
            assert!(synced.left_out(&format!("docs/deep/{name}")), "{name}");
        }
    }
}

/// Every ecosystem's caches and build outputs stay out of the room's tree.
#[test]
fn every_ecosystems_caches_are_not_copied() {
    let (_dir, root, tree, mut synced) = project();
    let skipped: Vec<&str> = TREES.iter().flat_map(|files| files.skipped.iter().copied()).collect();
    assert_eq!(skipped, SKIPPED, "the walk skips every ecosystem's names and no other");
    for name in &skipped {
        write(&root, &format!("{name}/planted.txt"), "x\n");
    }
    synced.sync(&root, &tree).expect("sync");
    for name in &skipped {
        assert_eq!(read(&tree, &format!("{name}/planted.txt")), None, "{name}");
    }
}
