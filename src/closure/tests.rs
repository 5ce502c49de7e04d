//! Taking the closure at setup and checking it later, on real files.

use std::path::Path;

use super::*;

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn moved(closure: &Closure, root: &Path) -> Vec<(String, String, PartChange)> {
    closure
        .check(root)
        .into_iter()
        .map(|m| (m.path, m.part, m.change))
        .collect()
}

#[test]
fn nothing_moves_until_a_sealed_part_does() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "package.json", r#"{"scripts":{"test":"jest"},"dependencies":{}}"#);
    write(root, "src/a.js", "module.exports = 1");
    let closure = Closure::take("npm test", root);
    assert_eq!(moved(&closure, root), vec![]);

    // Honest: a new dependency, a source change.
    write(
        root,
        "package.json",
        r#"{"dependencies":{"left-pad":"1"},"scripts":{"test":"jest"}}"#,
    );
    write(root, "src/a.js", "module.exports = 2");
    assert_eq!(moved(&closure, root), vec![]);

    // Gaming: the test script, a new jest config.
    write(root, "package.json", r#"{"scripts":{"test":"exit 0"}}"#);
    write(
        root,
        "jest.config.js",
        "module.exports = {testPathIgnorePatterns: ['.']}",
    );
    assert_eq!(
        moved(&closure, root),
        vec![
            ("jest.config.js".into(), String::new(), PartChange::Added),
            ("package.json".into(), "scripts.test".into(), PartChange::Changed),
        ]
    );
}

/// A runner's JSON configuration file is its `package.json` key by another name: the same options are free in
/// it, so one holding only those is as if absent, and any other option beside them counts.
#[test]
fn a_mocharc_json_is_sealed_key_by_key_like_the_mocha_key() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "package.json", r#"{"scripts":{"test":"mocha"}}"#);
    let closure = Closure::take("npm test", root);
    write(root, ".mocharc.json", r#"{"slow": 300, "full-trace": true}"#);
    assert_eq!(moved(&closure, root), vec![]);
    write(root, ".mocharc.json", r#"{"slow": 300, "require": "./src/patch.js"}"#);
    assert_eq!(
        moved(&closure, root),
        vec![(".mocharc.json".into(), String::new(), PartChange::Added)]
    );
}

#[test]
fn a_new_conftest_anywhere_counts_a_new_crate_does_not() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "tests/conftest.py", "import pytest\n");
    write(root, "Cargo.toml", "[package]\nname = 'x'\n");
    let closure = Closure::take("pytest && cargo test", root);
    assert!(
        closure.file("tests/conftest.py").is_some(),
        "existing conftest sealed at setup"
    );
    write(root, "tests/unit/conftest.py", "collect_ignore = ['.']\n");
    write(root, "crates/b/Cargo.toml", "[package]\nname = 'b'\n");
    assert_eq!(
        moved(&closure, root),
        vec![("tests/unit/conftest.py".into(), String::new(), PartChange::Added)]
    );
    std::fs::remove_file(root.join("tests/conftest.py")).expect("rm");
    assert!(moved(&closure, root).contains(&("tests/conftest.py".into(), "import pytest".into(), PartChange::Removed)));
}

#[test]
fn accepting_re_takes_only_the_selected_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "pytest.ini", "[pytest]\n");
    let mut closure = Closure::take("pytest", root);
    write(root, "pytest.ini", "[pytest]\naddopts = -x\n");
    write(root, "conftest.py", "collect_ignore = ['tests']\n");
    assert_eq!(moved(&closure, root).len(), 2);
    assert_eq!(closure.accept(root, |p| p == "pytest.ini"), vec!["pytest.ini"]);
    assert_eq!(
        moved(&closure, root),
        vec![("conftest.py".into(), String::new(), PartChange::Added)]
    );
    assert_eq!(closure.accept(root, |_| true), vec!["conftest.py"]);
    assert_eq!(moved(&closure, root), vec![]);
}

#[test]
fn a_file_that_cannot_be_read_counts_as_changed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "ci.ini", "[pytest]\n");
    let closure = Closure::take("pytest -c ci.ini", root);
    // A directory where the file was: reading fails with something other than "not found".
    std::fs::remove_file(root.join("ci.ini")).expect("rm");
    std::fs::create_dir(root.join("ci.ini")).expect("mkdir");
    let moves = moved(&closure, root);
    assert!(
        moves.contains(&("ci.ini".into(), UNREADABLE.into(), PartChange::Added)),
        "{moves:?}"
    );
    assert!(
        moves.contains(&("ci.ini".into(), String::new(), PartChange::Removed)),
        "{moves:?}"
    );
}

#[test]
fn test_paths_by_convention() {
    for yes in [
        "tests/test_a.py",
        "test/a.js",
        "src/__tests__/a.ts",
        "pkg/a_test.go",
        "a.test.ts",
        "web/a.spec.js",
        "test_x.py",
        "x_test.py",
        "tests/it.rs",
    ] {
        assert!(is_test_path(Path::new(yes)), "{yes}");
    }
    for no in [
        "src/lib.rs",
        "conftest.py",
        "testing.py",
        "tests",
        "package.json",
        "contest.py",
    ] {
        assert!(!is_test_path(Path::new(no)), "{no}");
    }
}

/// PHPUnit's configuration is sealed as PHPUnit resolves it, by content under whichever name it reads.
#[test]
fn phpunits_configuration_is_judged_by_what_it_resolves_not_by_its_name() {
    const CONFIG: &str =
        "<phpunit><testsuites><testsuite name=\"u\"><directory>tests</directory></testsuite></testsuites></phpunit>\n";
    const NINE: &str = "the first of phpunit.xml, phpunit.xml.dist";
    const TEN: &str = "the first of phpunit.xml, phpunit.dist.xml, phpunit.xml.dist";
    let fresh = || {
        let dir = tempfile::tempdir().expect("tempdir");
        write(dir.path(), "phpunit.xml", CONFIG);
        let closure = Closure::take("vendor/bin/phpunit", dir.path());
        (dir, closure)
    };
    let mv = |root: &Path, from: &str, to: &str| std::fs::rename(root.join(from), root.join(to)).expect("rename");
    let at = |path: &str, part: &str, change: PartChange| (path.to_string(), part.to_string(), change);
    // Renamed to the name PHPUnit reads next, content unchanged: nothing moved.
    let (dir, closure) = fresh();
    mv(dir.path(), "phpunit.xml", "phpunit.xml.dist");
    assert_eq!(moved(&closure, dir.path()), vec![]);
    // Then edited: named once (both versions read it), by the file PHPUnit now reads, setting by setting.
    write(
        dir.path(),
        "phpunit.xml.dist",
        &CONFIG.replace(">tests<", " suffix=\".php\">tests<"),
    );
    let entry = |glob: &str| format!("{TEN}: testsuite u selects {glob}");
    assert_eq!(
        moved(&closure, dir.path()),
        vec![
            at("phpunit.xml.dist", &entry("tests/**/*.php"), PartChange::Added),
            at("phpunit.xml.dist", &entry("tests/**/*Test.php"), PartChange::Removed),
        ]
    );
    // Renamed to `phpunit.dist.xml`, which PHPUnit 9 does not read: its search finds nothing.
    let (dir, closure) = fresh();
    mv(dir.path(), "phpunit.xml", "phpunit.dist.xml");
    let gone = |path: &str, order: &str| {
        vec![
            at(
                path,
                &format!("{order}: testsuite u selects tests/**/*Test.php"),
                PartChange::Removed,
            ),
            at(path, &format!("{order}: the configuration"), PartChange::Removed),
        ]
    };
    assert_eq!(moved(&closure, dir.path()), gone("phpunit.xml", NINE));
    // A `phpunit.dist.xml` with the old content beside an edited `phpunit.xml.dist`: PHPUnit 9 reads the edit.
    let (dir, closure) = fresh();
    mv(dir.path(), "phpunit.xml", "phpunit.xml.dist");
    write(dir.path(), "phpunit.dist.xml", CONFIG);
    write(dir.path(), "phpunit.xml.dist", &CONFIG.replace(">tests<", ">nothing<"));
    assert_eq!(
        moved(&closure, dir.path()),
        vec![
            at(
                "phpunit.xml.dist",
                &format!("{NINE}: testsuite u selects nothing/**/*Test.php"),
                PartChange::Added
            ),
            at(
                "phpunit.xml.dist",
                &format!("{NINE}: testsuite u selects tests/**/*Test.php"),
                PartChange::Removed
            ),
        ]
    );
    // A new `phpunit.xml` read before a sealed `phpunit.xml.dist`.
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "phpunit.xml.dist", CONFIG);
    let closure = Closure::take("vendor/bin/phpunit", dir.path());
    assert_eq!(
        closure.files.iter().filter(|f| f.path.starts_with("phpunit")).count(),
        1
    );
    write(dir.path(), "phpunit.xml", "<phpunit/>\n");
    assert_eq!(
        moved(&closure, dir.path()),
        vec![at(
            "phpunit.xml",
            &format!("{TEN}: testsuite u selects tests/**/*Test.php"),
            PartChange::Removed
        )]
    );
    // Deleted: named by the name it was sealed under.
    std::fs::remove_file(dir.path().join("phpunit.xml")).expect("rm");
    std::fs::remove_file(dir.path().join("phpunit.xml.dist")).expect("rm");
    assert_eq!(moved(&closure, dir.path()), gone("phpunit.xml.dist", TEN));
}

/// Each part of one file that moves is named, however many move the same way: two keys added to `Cargo.toml` are
/// two lines (only a resolved configuration's search orders that read one file name it once).
#[test]
fn every_part_that_moves_is_named_even_when_several_move_alike() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(
        root,
        "Cargo.toml",
        "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    write(root, "src/lib.rs", "pub fn one() -> i32 { 1 }\n");
    let closure = Closure::take("cargo test", root);
    assert_eq!(moved(&closure, root), vec![]);
    write(
        root,
        "Cargo.toml",
        "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\nautotests = false\n\n[lib]\ntest = false\n",
    );
    let parts: Vec<String> = moved(&closure, root).into_iter().map(|(_, part, _)| part).collect();
    assert!(
        parts.contains(&"lib".to_string()) && parts.contains(&"package.autotests".to_string()),
        "{parts:?}"
    );
}
