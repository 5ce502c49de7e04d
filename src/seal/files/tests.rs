use super::*;

fn write(root: &Path, rel: &str, body: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, body).expect("write");
}

fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for rel in [
        "tests/a.rs",
        "tests/deep/b.rs",
        "src/lib.rs",
        "src/x.snap",
        "snap/y.snap",
        ".git/config",
        "README.md",
    ] {
        write(dir.path(), rel, rel);
    }
    dir
}

fn keys(patterns: &[&str], root: &Path) -> Vec<String> {
    let patterns: Vec<String> = patterns.iter().map(|p| (*p).to_string()).collect();
    SealedFiles::new(&patterns)
        .expect("compile")
        .hash_all(root)
        .expect("hash")
        .into_keys()
        .collect()
}

#[test]
fn anchored_and_unanchored_patterns_follow_gitignore() {
    let dir = tree();
    assert_eq!(keys(&["tests/**"], dir.path()), ["tests/a.rs", "tests/deep/b.rs"]);
    assert_eq!(keys(&["tests/"], dir.path()), ["tests/a.rs", "tests/deep/b.rs"]);
    assert_eq!(keys(&["tests"], dir.path()), ["tests/a.rs", "tests/deep/b.rs"]);
    assert_eq!(keys(&["*.snap"], dir.path()), ["snap/y.snap", "src/x.snap"]);
    assert_eq!(keys(&["README.md"], dir.path()), ["README.md"]);
    assert_eq!(
        keys(&["src/lib.rs", "tests/*.rs"], dir.path()),
        ["src/lib.rs", "tests/a.rs"]
    );
    assert!(keys(&["**/config"], dir.path()).is_empty(), ".git must never be walked");
}

#[test]
fn changes_name_added_changed_and_deleted_files() {
    let dir = tree();
    let sealed = SealedFiles::new(&["tests/**".to_string()]).expect("compile");
    let before = sealed.hash_all(dir.path()).expect("hash");
    write(dir.path(), "tests/a.rs", "weakened");
    std::fs::remove_file(dir.path().join("tests/deep/b.rs")).expect("rm");
    write(dir.path(), "tests/new.rs", "new");
    let now = sealed.hash_all(dir.path()).expect("hash");
    let found = changes(&before, &now);
    assert_eq!(
        found,
        vec![
            FileChange::Changed("tests/a.rs".into()),
            FileChange::Deleted("tests/deep/b.rs".into()),
            FileChange::Added("tests/new.rs".into()),
        ]
    );
    assert!(changes(&before, &before).is_empty());
}

#[test]
fn invalid_pattern_is_named() {
    let err = SealedFiles::new(&["tests/[".to_string()]).err().expect("must fail");
    assert!(err.contains("tests/["), "{err}");
}
