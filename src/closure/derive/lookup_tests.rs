//! The files the runners' own lookups find (issue 21): each is sealed, and the honest edits beside them are not
//! flagged. Every case takes a real closure and checks it after the edit.

use std::path::Path;

use crate::closure::{Closure, PartChange};

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// `(path, part)` of every move.
fn moved(closure: &Closure, root: &Path) -> Vec<(String, String)> {
    closure.check(root).into_iter().map(|m| (m.path, m.part)).collect()
}

fn moved_paths(closure: &Closure, root: &Path) -> Vec<String> {
    closure.check(root).into_iter().map(|m| m.path).collect()
}

/// A project directory inside a scratch directory, so its parent is ours to write.
fn nested() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("proj");
    std::fs::create_dir_all(&root).expect("mkdir");
    (dir, root)
}

#[test]
fn pytest_9_toml_files_are_sealed_as_absent() {
    let (_dir, root) = nested();
    write(&root, "tests/test_a.py", "def test_a(): pass\n");
    let closure = Closure::take("pytest -q", &root);
    write(&root, "pytest.toml", "[pytest]\naddopts = ['-k', 'nothing']\n");
    write(&root, ".pytest.toml", "[pytest]\n");
    // The resolution moved, named by the file pytest reads now (`closure::rootdir`), which was created.
    assert_eq!(
        moved(&closure, &root),
        vec![
            ("pytest.toml".to_string(), String::new()),
            ("pytest.toml".to_string(), "addopts".to_string())
        ]
    );
    std::fs::remove_file(root.join("pytest.toml")).expect("rm");
    assert_eq!(moved(&closure, &root), vec![]);
    write(&root, ".pytest.toml", "[pytest]\naddopts = ['-k', 'nothing']\n");
    assert_eq!(moved_paths(&closure, &root), vec![".pytest.toml", ".pytest.toml"]);
}

#[test]
fn pytest_looks_from_the_named_directory_up_to_the_root_of_the_file_system() {
    let (dir, root) = nested();
    write(&root, "tests/unit/test_a.py", "def test_a(): pass\n");
    let closure = Closure::take("cd tests && python -m pytest unit/test_a.py::test_a", &root);
    write(&root, "tests/unit/pytest.ini", "[pytest]\naddopts = --co\n");
    write(&root, "tests/tox.ini", "[pytest]\naddopts = -x\n");
    write(dir.path(), "pytest.ini", "[pytest]\naddopts = --co\n");
    write(dir.path(), "conftest.py", "collect_ignore_glob = ['*']\n");
    let outside = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    // The resolution moved (its `addopts`), named by the file pytest reads now, created; the conftest above.
    assert_eq!(
        moved_paths(&closure, &root),
        vec![
            outside("conftest.py"),
            "tests/unit/pytest.ini".to_string(),
            "tests/unit/pytest.ini".to_string()
        ]
    );
    // Without it, the one in `tests/` is read, then the one above the project.
    std::fs::remove_file(root.join("tests/unit/pytest.ini")).expect("rm");
    assert!(moved_paths(&closure, &root).contains(&"tests/tox.ini".to_string()));
    std::fs::remove_file(root.join("tests/tox.ini")).expect("rm");
    assert!(moved_paths(&closure, &root).contains(&outside("pytest.ini")));
}

#[test]
fn pytest_config_file_option_replaces_the_search() {
    let (_dir, root) = nested();
    write(&root, "ci/pytest.ini", "[pytest]\n");
    let closure = Closure::take("pytest -c ci/pytest.ini tests", &root);
    assert!(closure.file("ci/pytest.ini").is_some());
    assert!(closure.file("pytest.ini").is_none());
}

#[test]
fn honest_pyproject_and_setup_cfg_edits_are_not_flagged() {
    let (_dir, root) = nested();
    write(
        &root,
        "pyproject.toml",
        "[project]\nname = 'x'\n\n[tool.pytest.ini_options]\ntestpaths = ['tests']\n",
    );
    let closure = Closure::take("pytest", &root);
    write(
        &root,
        "pyproject.toml",
        "[project]\nname = 'x'\ndependencies = ['requests']\n\n[tool.ruff]\nline-length = 100\n\n[tool.pytest.ini_options]\ntestpaths = ['tests']\n",
    );
    write(&root, "setup.cfg", "[flake8]\nmax-line-length = 100\n");
    write(&root, "README.md", "# x\n");
    write(&root, ".ruff.toml", "line-length = 100\n");
    assert_eq!(moved(&closure, &root), vec![]);
}

#[test]
fn make_reads_gnumakefile_and_makefile_before_makefile() {
    let (_dir, root) = nested();
    write(&root, "Makefile", ".PHONY: test\ntest:\n\tpython3 -m unittest\n");
    let closure = Closure::take("make test", &root);
    write(&root, "GNUmakefile", "test:\n\ttrue\n");
    write(&root, "makefile", "test:\n\ttrue\n");
    assert_eq!(moved_paths(&closure, &root), vec!["GNUmakefile", "makefile"]);

    // With GNUmakefile found first, a new Makefile is not read by make.
    let (_dir, root) = nested();
    write(&root, "GNUmakefile", "test:\n\tgo test ./...\n");
    let closure = Closure::take("make test", &root);
    write(&root, "Makefile", "test:\n\ttrue\n");
    assert_eq!(moved(&closure, &root), vec![]);
}

#[test]
fn make_includes_with_wildcards_and_variables() {
    let (_dir, root) = nested();
    write(
        &root,
        "Makefile",
        "MK := mk\n-include $(wildcard $(MK)/*.mk)\ninclude common.mk\n\ntest: unit\n",
    );
    write(&root, "common.mk", "PYTHON ?= python3\n");
    write(&root, "mk/unit.mk", "unit:\n\t$(PYTHON) -m pytest\n");
    let closure = Closure::take("make test", &root);
    assert!(closure.file("mk/unit.mk").is_some());
    assert!(closure.file("common.mk").is_some());
    assert!(
        closure.file("pytest.ini").is_some(),
        "the included recipe runs pytest through $(PYTHON)"
    );
    write(&root, "mk/zz-override.mk", "unit:\n\ttrue\n");
    write(&root, "mk/notes.txt", "not a makefile\n");
    write(&root, "common.mk", "PYTHON = true\n");
    let moves = closure.check(&root);
    let paths: Vec<&str> = moves.iter().map(|m| m.path.as_str()).collect();
    assert_eq!(paths, vec!["common.mk", "mk/zz-override.mk"]);
    assert_eq!(moves[1].change, PartChange::Added);
}

#[test]
fn make_honest_new_target_and_gamed_recipe() {
    let (_dir, root) = nested();
    let makefile = "PYTHON ?= python3\n.PHONY: test\ntest:\n\t$(PYTHON) -m unittest\n";
    write(&root, "Makefile", makefile);
    let closure = Closure::take("make test", &root);
    write(
        &root,
        "Makefile",
        &format!("{makefile}\n.PHONY: lint\nLINTER = ruff\nlint:\n\t$(LINTER) check .\n"),
    );
    assert_eq!(moved(&closure, &root), vec![]);
    write(&root, "Makefile", &makefile.replace("-m unittest", "-c pass"));
    assert_eq!(moved(&closure, &root), vec![("Makefile".into(), "test:".into())]);
}

#[test]
fn babel_configuration_and_key_for_jest() {
    let (_dir, root) = nested();
    write(
        &root,
        "package.json",
        r#"{"scripts":{"test":"cross-env NODE_ENV=test jest"},"devDependencies":{}}"#,
    );
    let closure = Closure::take("npm test", &root);
    write(
        &root,
        "package.json",
        r#"{"scripts":{"test":"cross-env NODE_ENV=test jest"},"devDependencies":{"lodash":"4"}}"#,
    );
    assert_eq!(moved(&closure, &root), vec![], "a new dependency is honest");
    write(&root, ".babelrc", r#"{"plugins":["./strip-asserts"]}"#);
    write(&root, "jest.config.js", "module.exports = {}");
    write(
        &root,
        "package.json",
        r#"{"scripts":{"test":"cross-env NODE_ENV=test jest"},"babel":{"plugins":["x"]}}"#,
    );
    assert_eq!(
        moved(&closure, &root),
        vec![
            (".babelrc".into(), String::new()),
            ("jest.config.js".into(), String::new()),
            ("package.json".into(), "babel".into()),
        ]
    );
}

#[test]
fn wrappers_in_front_of_the_runner() {
    let (_dir, root) = nested();
    for command in [
        "npx jest --ci",
        "npx --yes -p jest jest",
        "env CI=1 jest",
        "dotenv -e .env.test -- jest",
        "dotenvx run -f .env.test -- jest",
        "nyc --reporter=lcov mocha",
        "c8 -r text vitest run",
    ] {
        let closure = Closure::take(command, &root);
        let has = |p: &str| closure.file(p).is_some();
        assert!(
            has("jest.config.js") || has(".mocharc.yml") || has("vitest.config.ts"),
            "{command}: {:?}",
            closure.files
        );
        if command.starts_with("dotenv") {
            assert!(has(".env.test"), "{command}");
        }
    }
    assert!(Closure::take("dotenv jest", &root).file(".env").is_some());
    assert!(
        Closure::take("node --env-file=.env.ci --test", &root)
            .file(".env.ci")
            .is_some()
    );
    assert!(
        Closure::take("coverage run -m pytest", &root)
            .file("pytest.ini")
            .is_some()
    );
    assert!(
        Closure::take("python -m coverage run -m pytest", &root)
            .file("pytest.ini")
            .is_some()
    );
}

#[test]
fn rust_toolchain_files_build_scripts_and_default_features() {
    let (dir, root) = nested();
    let manifest =
        "[package]\nname = 'x'\nversion = '0.1.0'\n\n[features]\ndefault = []\nfast = []\n\n[dependencies]\n";
    write(&root, "Cargo.toml", manifest);
    write(
        &root,
        "crates/b/Cargo.toml",
        "[package]\nname = 'b'\nversion = '0.1.0'\n",
    );
    write(&root, "crates/b/build.rs", "fn main() {}\n");
    write(&root, "src/lib.rs", "");
    // A test compiled differently under `fast`: the default features reach it (`closure::cargo_manifest`).
    write(
        &root,
        "tests/api.rs",
        "#[test]\nfn api() {\n    #[cfg(not(feature = \"fast\"))]\n    assert!(true);\n}\n",
    );
    let closure = Closure::take("cargo test", &root);
    assert!(
        closure.file("crates/b/build.rs").is_none(),
        "an existing build script is the project's code"
    );

    // Honest: a dependency, a new binary and a bench without the harness, a new feature, a lint table.
    write(
        &root,
        "Cargo.toml",
        &format!(
            "{manifest}serde = '1'\n\n[[bin]]\nname = 'tool'\npath = 'src/bin/tool.rs'\n\n[[bench]]\nname = 'speed'\nharness = false\n\n[lints.rust]\nunsafe_code = 'forbid'\n"
        )
        .replace("fast = []", "fast = []\nextra = []"),
    );
    write(
        &root,
        "crates/b/build.rs",
        "fn main() { println!(\"cargo:rerun-if-changed=build.rs\"); }\n",
    );
    assert_eq!(moved(&closure, &root), vec![]);

    // Honest: a new build script (it generates code; the room keeps the tests read-only while it runs).
    write(&root, "build.rs", "fn main() {}\n");
    assert_eq!(moved(&closure, &root), vec![]);

    // Gamed: a toolchain here and above, the default features, a target's tests off.
    // (Each pin is judged by the toolchain it selects over the one above it: the project's names another.)
    write(&root, "rust-toolchain.toml", "[toolchain]\nchannel = 'other'\n");
    write(dir.path(), "rust-toolchain", "fake\n");
    write(&root, "build.rs", "fn main() {}\n");
    write(
        &root,
        "Cargo.toml",
        &(manifest.replace("default = []", "default = ['fast']")
            + "\n[[bin]]\nname = 'x'\npath = 'src/main.rs'\ntest = false\n"),
    );
    let outside = dir.path().join("rust-toolchain").to_string_lossy().into_owned();
    assert_eq!(
        moved(&closure, &root),
        vec![
            (outside, String::new()),
            ("Cargo.toml".into(), "bin.(test settings)".into()),
            ("Cargo.toml".into(), "features.default".into()),
            ("rust-toolchain.toml".into(), String::new()),
        ]
    );
}

#[test]
fn scripts_sourced_or_run_by_a_shell_are_followed_whatever_their_name() {
    let (_dir, root) = nested();
    write(&root, "ci/run", "set -e\n. ci/env\nsource ./ci/more\n");
    write(&root, "ci/env", "export PYTHONPATH=src\n");
    write(&root, "ci/more", "python -m pytest -q\n");
    let closure = Closure::take("sh ci/run", &root);
    for path in ["ci/run", "ci/env", "ci/more", "pytest.ini"] {
        assert!(closure.file(path).is_some(), "{path}: {:?}", closure.files);
    }
    write(&root, "ci/env", "export PYTEST_ADDOPTS='-k nothing'\n");
    assert_eq!(moved_paths(&closure, &root), vec!["ci/env"]);
}

#[test]
fn the_runners_are_recorded() {
    use crate::closure::Runner;
    let (_dir, root) = nested();
    let runners = |command: &str| Closure::take(command, &root).runners;
    assert_eq!(runners("python -m unittest discover"), vec![Runner::Unittest]);
    assert_eq!(runners("python manage.py test"), vec![Runner::Unittest]);
    assert_eq!(runners("node --test"), vec![Runner::NodeTest]);
    assert_eq!(
        runners("pytest && go test ./... && cargo test"),
        vec![Runner::Pytest, Runner::Cargo, Runner::Go]
    );
    assert_eq!(runners("npx jest"), vec![Runner::Jest]);
}

#[test]
fn bats_load_candidates_ahead_of_the_file_read_at_setup_are_sealed_as_absent() {
    let (_dir, root) = nested();
    write(&root, "lib/calc.sh", "add() { echo $(( $1 - $2 )); }\n");
    write(&root, "test/test_helper", "load ../lib/calc.sh\n");
    write(
        &root,
        "test/calc.bats",
        "setup() {\n  load ../lib/calc.sh\n  load test_helper\n}\n\n@test \"adds\" {\n  [ \"$(add 1 2)\" -eq 3 ]\n}\n",
    );
    let closure = Closure::take("bats test", &root);
    // The code under test and the helpers are not the closure's; a new file of the code is the agent's.
    write(&root, "lib/calc.sh", "add() { echo $(( $1 + $2 )); }\n");
    write(&root, "lib/more.sh", "mul() { echo $(( $1 * $2 )); }\n");
    assert_eq!(moved_paths(&closure, &root), Vec::<String>::new());
    // `load NAME` reads `NAME.bash` first: created, it would stand in for what the sealed test loaded.
    write(&root, "lib/calc.sh.bash", "add() { echo 3; }\n");
    write(&root, "test/test_helper.bash", "add() { echo 3; }\n");
    assert_eq!(
        moved_paths(&closure, &root),
        vec!["lib/calc.sh.bash", "test/test_helper.bash"]
    );
}
