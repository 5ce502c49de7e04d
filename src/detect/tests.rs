use super::*;

/// The reason in English, as the history's `init` record holds it.
fn reason(found: &Detected) -> String {
    crate::messages::detect_reason(crate::schema::Speech::En, &found.why)
}

/// A project directory with `files` (path, contents), detected with only `installed` programs on the PATH.
fn detect_in(files: &[(&str, &str)], installed: &[&str]) -> Result<Detected, String> {
    let dir = tempfile::tempdir().expect("tempdir");
    for (path, contents) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, contents).expect("write");
    }
    detect_with(dir.path(), &|program| installed.contains(&program))
}

#[track_caller]
fn command(files: &[(&str, &str)], installed: &[&str]) -> String {
    detect_in(files, installed).expect("detected").command
}

const ALL: &[&str] = &[
    "cargo", "go", "npm", "pnpm", "yarn", "bun", "python", "uv", "poetry", "make", "just",
];

#[test]
fn rust_cargo_test_workspace_and_nextest() {
    let found = detect_in(&[("Cargo.toml", "[package]\nname = \"x\"\n")], ALL).expect("found");
    assert_eq!(
        (found.command.as_str(), reason(&found).as_str()),
        ("cargo test", "Cargo.toml is here")
    );
    assert_eq!(
        command(&[("Cargo.toml", "[workspace]\nmembers = [\"a\"]\n")], ALL),
        "cargo test --workspace"
    );
    let nextest = [
        ("Cargo.toml", "[package]\n"),
        (".config/nextest.toml", "[profile.default]\n"),
    ];
    let with = detect_in(&nextest, &["cargo", "cargo-nextest"]).expect("found");
    assert_eq!(with.command, "cargo nextest run");
    assert!(reason(&with).contains("configures cargo-nextest"), "{}", reason(&with));
    let without = detect_in(&nextest, &["cargo"]).expect("found");
    assert_eq!(without.command, "cargo test");
    assert!(
        reason(&without).contains("cargo-nextest is not installed"),
        "{}",
        reason(&without)
    );
}

#[test]
fn node_package_manager_comes_from_the_lockfile() {
    let pkg = r#"{"name": "x", "scripts": {"test": "vitest run"}}"#;
    assert_eq!(command(&[("package.json", pkg)], ALL), "npm test");
    assert_eq!(
        command(&[("package.json", pkg), ("package-lock.json", "{}")], ALL),
        "npm test"
    );
    assert_eq!(
        command(&[("package.json", pkg), ("pnpm-lock.yaml", "")], ALL),
        "pnpm test"
    );
    assert_eq!(command(&[("package.json", pkg), ("yarn.lock", "")], ALL), "yarn test");
    assert_eq!(
        command(&[("package.json", pkg), ("bun.lockb", "")], ALL),
        "bun run test"
    );
    let field = r#"{"scripts": {"test": "jest"}, "packageManager": "pnpm@9.1.0"}"#;
    let found = detect_in(&[("package.json", field)], ALL).expect("found");
    assert_eq!(found.command, "pnpm test");
    assert!(reason(&found).contains("packageManager field"), "{}", reason(&found));
    let found = detect_in(&[("package.json", pkg), ("yarn.lock", "")], &[]).expect("found");
    assert!(
        reason(&found).ends_with("note: `yarn` is not on PATH here"),
        "{}",
        reason(&found)
    );
}

#[test]
fn node_without_a_real_test_script_is_not_a_test_command() {
    let stub = r#"{"scripts": {"test": "echo \"Error: no test specified\" && exit 1"}}"#;
    for pkg in [
        stub,
        r#"{"scripts": {"build": "tsc"}}"#,
        "{not json",
        r#"{"scripts": {"test": 3}}"#,
    ] {
        assert!(detect_in(&[("package.json", pkg)], ALL).is_err(), "{pkg}");
    }
}

#[test]
fn python_pytest_from_its_configuration_or_test_files() {
    for (file, contents, why) in [
        ("pytest.ini", "[pytest]\n", "pytest.ini configures pytest"),
        // The same list as the closure's (pytest's row of `runner`): pytest 8.1 reads `.pytest.ini` too.
        (".pytest.ini", "[pytest]\n", ".pytest.ini configures pytest"),
        (
            "pyproject.toml",
            "[tool.pytest.ini_options]\n",
            "pyproject.toml configures pytest",
        ),
        ("setup.cfg", "[tool:pytest]\n", "setup.cfg configures pytest"),
        ("tox.ini", "[pytest]\n", "tox.ini configures pytest"),
        ("conftest.py", "", "conftest.py is here"),
        ("tests/test_parse.py", "", "tests/ holds Python test files"),
        ("test/unit/parse_test.py", "", "test/ holds Python test files"),
        ("pyproject.toml", "[project]\nname = \"x\"\n", "pyproject.toml is here"),
    ] {
        let found = detect_in(&[(file, contents)], ALL).expect(file);
        assert_eq!(
            (found.command.as_str(), reason(&found).as_str()),
            ("python -m pytest", why),
            "{file}"
        );
    }
    let ini = ("pytest.ini", "[pytest]\n");
    assert_eq!(
        command(&[ini, (".venv/bin/python", "")], ALL),
        ".venv/bin/python -m pytest"
    );
    assert_eq!(command(&[ini, ("uv.lock", "")], ALL), "uv run pytest");
    assert_eq!(command(&[ini, ("poetry.lock", "")], ALL), "poetry run pytest");
    assert_eq!(
        command(&[ini, ("uv.lock", "")], &["python"]),
        "python -m pytest",
        "uv not installed"
    );
    assert_eq!(command(&[ini], &["python3"]), "python3 -m pytest");
    assert!(
        detect_in(&[("tests/data.json", "{}")], ALL).is_err(),
        "no Python test files"
    );
}

#[test]
fn go_module() {
    let found = detect_in(&[("go.mod", "module example.com/x\n")], ALL).expect("found");
    assert_eq!(
        (found.command.as_str(), reason(&found).as_str()),
        ("go test ./...", "go.mod is here")
    );
}

#[test]
fn makefile_and_justfile_targets() {
    let make = "CC := gcc\nURL = http://x:80\n.PHONY: test\nbuild:\n\tcc -o x x.c\ntest check: build\n\t./run-tests\n";
    let found = detect_in(&[("Makefile", make)], ALL).expect("found");
    assert_eq!(
        (found.command.as_str(), reason(&found).as_str()),
        ("make test", "Makefile has a `test` target")
    );
    assert_eq!(
        command(&[("Makefile", "all:\n\tcc x.c\ncheck:\n\t./t\n")], ALL),
        "make check"
    );
    assert!(detect_in(&[("Makefile", "TEST := 1\ntest = x\n.PHONY: test\n")], ALL).is_err());
    let just = "set shell := [\"bash\", \"-c\"]\nalias t := test\n# test: not this\n@test *ARGS: build\n    cargo test {{ARGS}}\n";
    assert_eq!(command(&[("justfile", just)], ALL), "just test");
    assert_eq!(command(&[("Justfile", "check:\n  ./check\n")], ALL), "just check");
    assert!(detect_in(&[("justfile", "version := \"1\"\n")], ALL).is_err());
}

#[test]
fn a_declared_test_target_wins_and_the_others_are_named() {
    let files = [
        ("Cargo.toml", "[package]\n"),
        ("Makefile", "test:\n\tcargo test --all-features\n"),
        ("package.json", r#"{"scripts": {"test": "jest"}}"#),
    ];
    let found = detect_in(&files, ALL).expect("found");
    assert_eq!(found.command, "make test");
    assert_eq!(found.also, ["cargo test", "npm test"]);
    let zh = crate::messages::verify_detected(crate::schema::Speech::Zh, &found);
    assert!(
        zh.contains("选择了 `make test`:Makefile 中有 `test` 目标") && zh.contains("`cargo test`、`npm test`"),
        "{zh}"
    );
    // A `check` target comes after the language tools.
    let files = [("Cargo.toml", "[package]\n"), ("Makefile", "check:\n\t./lint\n")];
    assert_eq!(detect_in(&files, ALL).expect("found").command, "cargo test");
}

#[test]
fn nothing_fits_is_refused_with_what_was_looked_for() {
    let err = detect_in(&[("README.md", "# hi\n"), ("src/main.c", "")], ALL).expect_err("nothing fits");
    assert!(err.starts_with("`--verify auto` found no test command in `"), "{err}");
    assert!(err.contains("--verify 'CMD'") && err.contains("Cargo.toml"), "{err}");
}

#[test]
fn cmake_with_testing_on_is_configured_built_and_run_by_ctest() {
    let lists = "project(calc CXX)\nENABLE_TESTING ()\nadd_executable(calc_test tests/calc_test.cc)\n";
    let found = detect_in(&[("CMakeLists.txt", lists)], &["cmake"]).expect("found");
    assert_eq!(found.command, cpp::CMAKE);
    assert_eq!(reason(&found), "CMakeLists.txt turns testing on (ctest)");
    assert_eq!(
        command(&[("CMakeLists.txt", "include(CTest)\n")], &["cmake"]),
        cpp::CMAKE
    );
    assert!(
        detect_in(
            &[("CMakeLists.txt", "project(calc C)\nadd_library(calc calc.c)\n")],
            ALL
        )
        .is_err(),
        "a CMake project without tests has no test command"
    );
    let make = "test:\n\tctest --test-dir out\n";
    assert_eq!(
        command(&[("CMakeLists.txt", lists), ("Makefile", make)], ALL),
        "make test",
        "the project's own entry point comes first"
    );
}

#[test]
fn ruby_rspec_rake_test_or_ruby_on_the_test_files() {
    let rspec = detect_in(
        &[("spec/models/calc_spec.rb", ""), ("test/calc_test.rb", "")],
        &["rspec"],
    )
    .expect("found");
    assert_eq!(rspec.command, "rspec");
    assert_eq!(reason(&rspec), "spec/ holds Ruby test files rspec runs");
    let rake = detect_in(
        &[
            (
                "Rakefile",
                "Rake::TestTask.new(:test) { |t| t.pattern = \"test/**/*_test.rb\" }\n",
            ),
            ("test/calc_test.rb", ""),
        ],
        &["rake"],
    )
    .expect("found");
    assert_eq!(rake.command, "rake test");
    assert_eq!(reason(&rake), "Rakefile defines a rake test task");
    assert_eq!(
        command(
            &[("Rakefile", "task :build\n"), ("test/unit/test_calc.rb", "")],
            &["ruby"]
        ),
        super::ruby::RUBY_TESTS,
        "a Rakefile without a test task is not the test command"
    );
    assert!(detect_in(&[("lib/calc.rb", ""), ("spec/support/helpers.rb", "")], &["rspec"]).is_err());
}

#[test]
fn phpunit_from_its_configuration_or_its_tests() {
    let found = detect_in(&[("phpunit.xml.dist", "<phpunit/>")], &["phpunit"]).expect("found");
    assert_eq!(
        (found.command.as_str(), reason(&found).as_str()),
        ("phpunit", "phpunit.xml.dist configures PHPUnit")
    );
    let composer = detect_in(
        &[
            ("phpunit.dist.xml", "<phpunit/>"),
            ("vendor/bin/phpunit", "#!/usr/bin/env php\n"),
        ],
        &[],
    )
    .expect("found");
    assert_eq!(
        (composer.command.as_str(), reason(&composer).as_str()),
        (
            "vendor/bin/phpunit",
            "phpunit.dist.xml configures PHPUnit, installed by Composer"
        )
    );
    let tests = detect_in(&[("tests/CalcTest.php", "<?php\n")], &[]).expect("found");
    assert_eq!(tests.command, "phpunit tests");
    assert!(
        reason(&tests).contains("tests/ holds PHPUnit tests"),
        "{}",
        reason(&tests)
    );
    assert!(
        reason(&tests).contains("`phpunit` is not on PATH"),
        "{}",
        reason(&tests)
    );
    assert!(
        detect_in(&[("tests/helpers.php", "<?php\n")], ALL).is_err(),
        "no *Test.php, no PHPUnit"
    );
}

/// A root `pom.xml` is a Maven project: `mvn test`, or its own wrapper; the project's entry point still comes
/// first, and a pom below the root is no project here.
#[test]
fn a_maven_project_is_run_by_maven_or_its_wrapper() {
    let pom = "<project><modelVersion>4.0.0</modelVersion></project>\n";
    let found = detect_in(&[("pom.xml", pom)], &["mvn"]).expect("found");
    assert_eq!(found.command, "mvn test");
    assert_eq!(reason(&found), "pom.xml makes it a Maven project (Surefire)");
    assert_eq!(
        command(&[("pom.xml", pom), ("mvnw", "#!/bin/sh\n")], ALL),
        "./mvnw test"
    );
    assert_eq!(
        command(&[("pom.xml", pom), ("Makefile", "test:\n\tmvn -o test\n")], ALL),
        "make test"
    );
    assert!(detect_in(&[("lib/pom.xml", pom)], ALL).is_err());
}

#[test]
fn the_refusal_names_what_every_ecosystem_looks_for_in_the_order_they_are_tried() {
    let err = detect_in(&[("README.md", "# x\n")], ALL).expect_err("nothing to run");
    assert!(
        err.contains(
            "no justfile or Makefile with a `test` or `check` target, Cargo.toml, go.mod, package.json with a `test` \
             script, or pytest setup (pytest.ini, pyproject.toml, tests/), or bats tests (test/*.bats), or Ruby tests \
             (spec/*_spec.rb, test/*_test.rb), or PHPUnit (phpunit.xml, tests/*Test.php), or a CMakeLists.txt with \
             enable_testing(), or a Maven pom.xml; pass the command with `--verify 'CMD'`"
        ),
        "{err}"
    );
}

/// An ecosystem's own fact equals one of the same type and value only, and is read back by its own type alone:
/// two folders' facts never compare equal, whatever they hold.
#[test]
fn an_ecosystems_own_fact_is_equal_and_readable_by_its_own_type_only() {
    let cargo = Fact::own(rust::Found::Cargo { workspace: true });
    assert_eq!(cargo, Fact::own(rust::Found::Cargo { workspace: true }));
    assert_ne!(cargo, Fact::own(rust::Found::Cargo { workspace: false }));
    assert_ne!(cargo, Fact::own(jvm::Found::MavenPom { wrapper: true }));
    assert_ne!(Fact::own(go::Found::GoMod), Fact::own(cpp::Found::CMakeTests));
    let Fact::Own(own) = &cargo else {
        panic!("an own fact: {cargo:?}")
    };
    assert_eq!(own.get::<rust::Found>(), Some(&rust::Found::Cargo { workspace: true }));
    assert_eq!(own.get::<go::Found>(), None);
    assert_eq!(format!("{cargo:?}"), "Own(Cargo { workspace: true })");
}

/// The order the ecosystems' rules are tried in (`DETECTORS`): a project with two ecosystems' files gets the
/// first one's command, and the refusal lists them in it. Pinned, so that building the table from the ranks of
/// `src/ecosystem/ECOSYSTEMS` keeps it.
#[test]
fn the_ecosystems_rules_are_tried_in_their_ranked_order() {
    let looks_for: Vec<&str> = DETECTORS.iter().map(|d| d.looks_for).collect();
    assert_eq!(
        looks_for,
        [
            "Cargo.toml",
            "go.mod",
            "package.json with a `test` script",
            "or pytest setup (pytest.ini, pyproject.toml, tests/)",
            "or bats tests (test/*.bats)",
            "or Ruby tests (spec/*_spec.rb, test/*_test.rb)",
            "or PHPUnit (phpunit.xml, tests/*Test.php)",
            "or a CMakeLists.txt with enable_testing()",
            "or a Maven pom.xml",
        ]
    );
}
