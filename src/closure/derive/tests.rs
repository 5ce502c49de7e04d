//! Which files each kind of verify command seals, on small fixture projects.

use std::path::Path;

use super::*;

/// A temporary project holding `files` (path, text).
pub(crate) fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    dir
}

fn plan(command: &str, root: &Path) -> Plan {
    derive(command, root, Some(Path::new("/home/u")), &|_| None)
}

fn scope_of<'p>(plan: &'p Plan, path: &str) -> Option<&'p Scope> {
    plan.targets.iter().find(|t| t.path == path).map(|t| &t.scope)
}

fn json_keys(scope: Option<&Scope>) -> Vec<String> {
    match scope {
        Some(Scope::Json(paths) | Scope::JsonBut { paths, .. }) => paths.iter().map(|p| p.join(".")).collect(),
        other => panic!("expected JSON keys, got {other:?}"),
    }
}

#[test]
fn npm_test_seals_the_script_its_hooks_and_what_the_script_runs() {
    let dir = project(&[
        (
            "package.json",
            r#"{"scripts":{"test":"npm run unit && node scripts/check.js","unit":"jest --ci","lint":"eslint"},"jest":{}}"#,
        ),
        ("scripts/check.js", "process.exit(0)"),
    ]);
    let plan = plan("npm test", dir.path());
    let keys = json_keys(scope_of(&plan, "package.json"));
    for key in [
        "scripts.pretest",
        "scripts.test",
        "scripts.posttest",
        "scripts.unit",
        "scripts.preunit",
        "jest",
    ] {
        assert!(keys.contains(&key.to_string()), "{key} not in {keys:?}");
    }
    assert!(!keys.contains(&"scripts.lint".to_string()));
    assert_eq!(scope_of(&plan, "scripts/check.js"), Some(&Scope::Whole));
    assert_eq!(
        scope_of(&plan, "jest.config.js"),
        Some(&Scope::Whole),
        "absent configs are sealed as absent"
    );
    // An `.npmrc` by its keys: one that only quiets npm moves nothing, `script-shell` counts (`parts.rs`).
    for npmrc in [".npmrc", "/home/u/.npmrc"] {
        assert!(
            matches!(scope_of(&plan, npmrc), Some(Scope::KeysBut { free, .. }) if free.contains(&"fund".to_string()) && !free.contains(&"script-shell".to_string())),
            "{npmrc}"
        );
    }
    assert_eq!(plan.ecosystems, BTreeSet::from([Lang::JavaScript]));
}

#[test]
fn yarn_pnpm_and_bun_spellings() {
    let dir = project(&[("web/package.json", r#"{"scripts":{"test:unit":"vitest run"}}"#)]);
    for command in [
        "cd web && yarn test:unit",
        "pnpm --dir web run test:unit",
        "npm --prefix web run test:unit",
    ] {
        let plan = plan(command, dir.path());
        let keys = json_keys(scope_of(&plan, "web/package.json"));
        assert!(keys.contains(&"scripts.test:unit".to_string()), "{command}: {keys:?}");
        assert!(scope_of(&plan, "web/vitest.config.ts").is_some(), "{command}");
        assert!(scope_of(&plan, "web/vite.config.ts").is_some(), "{command}");
    }
    let bun = plan("bun test", dir.path());
    assert!(scope_of(&bun, "bunfig.toml").is_some());
}

#[test]
fn pytest_seals_its_config_files_sections_and_every_conftest() {
    let dir = project(&[("pyproject.toml", "[project]\nname='x'\n")]);
    for command in [
        "pytest -q",
        "python -m pytest tests/",
        "python3 -m pytest",
        "uv run pytest",
        "timeout 300 env PYTHONHASHSEED=0 py.test",
    ] {
        let plan = plan(command, dir.path());
        // Every file pytest's search may read has one scope: the configuration it resolves (`closure::rootdir`).
        let resolved = scope_of(&plan, "pytest.ini").cloned();
        assert!(
            matches!(&resolved, Some(Scope::Read(read)) if read.kind.is(&crate::closure::rootdir::READING)),
            "{command}: {resolved:?}"
        );
        for file in [
            "pytest.toml",
            ".pytest.toml",
            ".pytest.ini",
            "pyproject.toml",
            "tox.ini",
            "setup.cfg",
        ] {
            assert_eq!(scope_of(&plan, file).cloned(), resolved, "{command}: {file}");
        }
        assert!(
            plan.watches
                .iter()
                .any(|w| w.name == "conftest.py" && w.new_file_counts)
        );
        assert_eq!(plan.ecosystems, BTreeSet::from([Lang::Python]), "{command}");
    }
    let tox = plan("tox -e py311", dir.path());
    assert_eq!(
        scope_of(&tox, "tox.ini"),
        Some(&Scope::Whole),
        "tox reads all of tox.ini"
    );
}

/// `$CARGO_HOME` moves cargo's own configuration; an empty one is as if unset (`~/.cargo`).
#[test]
fn cargo_home_is_read_from_the_environment_before_the_home_directory() {
    let dir = project(&[("Cargo.toml", "[package]\nname='x'\n")]);
    let home = Some(Path::new("/home/u"));
    let moved = super::derive("cargo test", dir.path(), home, &|name| {
        (name == "CARGO_HOME").then(|| "/opt/cargo".into())
    });
    assert!(
        scope_of(&moved, "/opt/cargo/config.toml").is_some(),
        "{:?}",
        moved.targets
    );
    assert!(scope_of(&moved, "/home/u/.cargo/config.toml").is_none());
    let empty = super::derive("cargo test", dir.path(), home, &|_| Some("".into()));
    assert!(scope_of(&empty, "/home/u/.cargo/config.toml").is_some());
}

#[test]
fn cargo_seals_config_in_every_ancestor_cargo_home_and_manifest_tables() {
    let dir = project(&[("Cargo.toml", "[package]\nname='x'\n")]);
    let plan = plan("cargo test --workspace", dir.path());
    assert!(scope_of(&plan, ".cargo/config.toml").is_some());
    assert!(scope_of(&plan, "/home/u/.cargo/config.toml").is_some());
    let parent = dir.path().parent().expect("parent").join(".cargo/config.toml");
    assert!(
        scope_of(&plan, &parent.to_string_lossy()).is_some(),
        "ancestors: {:?}",
        plan.targets
    );
    let manifest = plan
        .watches
        .iter()
        .find(|w| w.name == "Cargo.toml")
        .expect("Cargo.toml watch");
    assert!(!manifest.new_file_counts, "a new crate is not a change to the oracle");
    let nextest = super::derive("cargo nextest run", dir.path(), None, &|_| None);
    assert!(scope_of(&nextest, ".config/nextest.toml").is_some());
    let build = super::derive("cargo build", dir.path(), None, &|_| None);
    assert!(build.targets.is_empty());
}

#[test]
fn make_and_just_follow_the_recipe_into_the_scripts_it_runs() {
    let dir = project(&[
        (
            "Makefile",
            "all:\n\techo hi\n\ntest: unit\n\n.PHONY: unit\nunit:\n\t./scripts/test.sh\n",
        ),
        (
            "scripts/test.sh",
            "#!/bin/sh\nset -e\npython -m pytest -q\nsh tools/extra.sh\n",
        ),
        ("tools/extra.sh", "go test ./...\n"),
        ("justfile", "test:\n    cargo test\n"),
    ]);
    let plan = plan("make test", dir.path());
    assert_eq!(
        scope_of(&plan, "Makefile"),
        Some(&crate::closure::parts::Read::by(
            &crate::closure::makefile::READING,
            vec!["test".into()]
        ))
    );
    // Shell scripts the recipe runs are read as a shell runs them (`closure::script`).
    assert_eq!(scope_of(&plan, "scripts/test.sh"), Some(&script_in("..", false)));
    assert_eq!(scope_of(&plan, "tools/extra.sh"), Some(&script_in("..", true)));
    assert!(scope_of(&plan, "pytest.ini").is_some(), "the script runs pytest");
    assert_eq!(plan.ecosystems, BTreeSet::from([Lang::Python, Lang::Go]));
    let just = super::derive("just test", dir.path(), None, &|_| None);
    assert_eq!(scope_of(&just, "justfile"), Some(&Scope::Whole));
    assert!(scope_of(&just, ".cargo/config.toml").is_some());
}

#[test]
fn scripts_and_files_named_in_the_command_are_sealed_but_test_files_are_not() {
    let dir = project(&[
        ("ci.sh", "#!/usr/bin/env bash\nnpm test\n"),
        ("check.py", "print('ok')"),
        ("score.txt", "0.5"),
        ("tests/test_a.py", "def test_a(): pass"),
        ("package.json", r#"{"scripts":{"test":"node t.js"}}"#),
    ]);
    let plan = plan(
        "./ci.sh && python check.py --data=check.py && pytest tests/test_a.py && cat score.txt",
        dir.path(),
    );
    assert_eq!(scope_of(&plan, "ci.sh"), Some(&script_in(".", false)));
    assert_eq!(scope_of(&plan, "check.py"), Some(&Scope::Whole));
    assert!(scope_of(&plan, "package.json").is_some(), "ci.sh runs npm test");
    assert!(
        scope_of(&plan, "tests/test_a.py").is_none(),
        "tests are sealed test by test"
    );
    let why = &plan
        .targets
        .iter()
        .find(|t| t.path == "check.py")
        .expect("check.py")
        .why;
    assert_eq!(why, &Why::RunBy("python check.py --data=check.py".into()));
}

#[test]
fn nested_shells_substitutions_and_cycles_are_followed_without_running_anything() {
    let dir = project(&[
        ("a.sh", "sh b.sh\n"),
        ("b.sh", "sh a.sh\n$(touch pwned)\n"),
        ("Makefile", "test:\n\t$(MAKE) test\n"),
    ]);
    let plan = plan("bash -c 'sh a.sh' ; echo $(make test)", dir.path());
    assert!(scope_of(&plan, "a.sh").is_some());
    assert!(scope_of(&plan, "b.sh").is_some());
    assert!(scope_of(&plan, "Makefile").is_some());
    assert!(!dir.path().join("pwned").exists());
}

#[test]
fn unknown_commands_and_garbage_seal_nothing_and_never_panic() {
    let dir = project(&[]);
    for command in [
        "",
        "true",
        "echo 'unterminated",
        "$(((((",
        "cd ../.. && ls",
        "go build ./...",
        "\u{0}\u{1}",
    ] {
        let plan = plan(command, dir.path());
        assert!(
            plan.targets.iter().all(|t| !t.path.starts_with("..")),
            "{command}: {:?}",
            plan.targets
        );
    }
    assert!(
        plan("go test ./...", dir.path()).targets.is_empty(),
        "go test seals nothing beyond test files"
    );
}

/// Every way a verify command runs ctest or a GoogleTest binary names the C++ ecosystem and its runner, and seals
/// each `CMakeLists.txt` that registers tests (not one in a CMake build directory, nor one without tests).
#[test]
fn ctest_cmake_target_test_and_a_googletest_binary_seal_cmakes_test_side() {
    let dir = project(&[
        ("CMakeLists.txt", "enable_testing()\nadd_subdirectory(tests)\n"),
        (
            "tests/CMakeLists.txt",
            "add_executable(calc_test calc_test.cc)\ngtest_discover_tests(calc_test)\n",
        ),
        ("src/CMakeLists.txt", "add_library(calc calc.cc)\n"),
        ("build/CMakeCache.txt", ""),
        (
            "build/_deps/googletest-src/CMakeLists.txt",
            "enable_testing()\nadd_test(NAME x COMMAND x)\n",
        ),
    ]);
    for (command, runner) in [
        ("ctest", Runner::Ctest),
        (
            "cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure",
            Runner::Ctest,
        ),
        ("cmake --build build --target test", Runner::Ctest),
        ("cmake --build build -t all,test", Runner::Ctest),
        ("cmake --build build && ./build/calc_test", Runner::Gtest),
        (
            "cmake --build build && build/tests/calc_unittest --gtest_brief=1",
            Runner::Gtest,
        ),
    ] {
        let plan = plan(command, dir.path());
        assert!(plan.ecosystems.contains(&Lang::Cpp), "{command}");
        assert!(plan.runners.contains(&runner), "{command}: {:?}", plan.runners);
        assert_eq!(
            scope_of(&plan, "CMakeLists.txt"),
            Some(&crate::closure::parts::Read::by(
                &crate::closure::cmake::READING,
                vec![crate::closure::cmake::CTEST_ENABLES_TESTING.into()]
            )),
            "{command}: testing is on at the root"
        );
        assert_eq!(
            scope_of(&plan, "tests/CMakeLists.txt"),
            Some(&crate::closure::parts::Read::by(
                &crate::closure::cmake::READING,
                vec!["calc_test".into(), crate::closure::cmake::CTEST_ENABLES_TESTING.into()]
            )),
            "{command}"
        );
        assert_eq!(scope_of(&plan, "src/CMakeLists.txt"), None, "{command}: no test side");
        assert!(
            plan.targets.iter().all(|t| !t.path.starts_with("build/")),
            "{command}: a build directory's files are the build's"
        );
    }
    let build_only = plan("cmake --build build", dir.path());
    assert!(build_only.ecosystems.contains(&Lang::Cpp) && build_only.runners.is_empty());
    let script = project(&[("scripts/run_test", "#!/bin/sh\nexit 0\n")]);
    assert!(
        plan("./scripts/run_test", script.path()).runners.is_empty(),
        "a script named like a test binary is no GoogleTest binary"
    );
}
#[test]
fn ruby_runners_seal_their_option_files_and_the_rakefile() {
    let dir = project(&[
        ("Rakefile", "require \"rake/testtask\"\nRake::TestTask.new(:test)\n"),
        ("rakelib/ci.rake", "task :ci\n"),
        ("spec/calc_spec.rb", "RSpec.describe 1 do\nend\n"),
        ("test/calc_test.rb", "require \"minitest/autorun\"\n"),
    ]);
    assert_eq!(
        plan("bundle3.1 exec rspec", dir.path()).runners,
        plan("rspec", dir.path()).runners
    );
    let rspec = plan("bundle exec rspec --format progress", dir.path());
    assert_eq!(rspec.runners.iter().collect::<Vec<_>>(), vec![&Runner::Rspec]);
    assert!(rspec.ecosystems.contains(&Lang::Ruby));
    for file in [".rspec", ".rspec-local", "/home/u/.rspec"] {
        assert!(
            matches!(scope_of(&rspec, file), Some(Scope::Options { free }) if free.contains(&"-fd".to_string())),
            "{file}, option by option: {:?}",
            rspec.targets
        );
    }
    let rake = plan("rake test", dir.path());
    assert_eq!(rake.runners.iter().collect::<Vec<_>>(), vec![&Runner::Minitest]);
    for file in ["Rakefile", "rakefile", "Rakefile.rb"] {
        assert!(
            matches!(scope_of(&rake, file), Some(Scope::Read(read)) if read.kind.is(&crate::closure::rakefile::READING)),
            "{file}, as code: {:?}",
            rake.targets
        );
    }
    assert_eq!(
        scope_of(&rake, "rakelib/ci.rake"),
        Some(&Scope::Whole),
        "{:?}",
        rake.targets
    );
    assert_eq!(scope_of(&rake, ".rspec"), None, "rake test runs minitest");
    let default = plan("rake", dir.path());
    assert!(
        default.runners.contains(&Runner::Rspec),
        "the default task, where spec/ holds the tests"
    );
    for command in [
        "ruby -Ilib -Itest test/calc_test.rb",
        "ruby -Itest -rminitest/autorun -e 'require \"calc\"'",
        "ruby -Ilib -e 'Dir.glob(\"./test/**/*_test.rb\").each { |f| require f }'",
    ] {
        let plan = plan(command, dir.path());
        assert_eq!(
            plan.runners.iter().collect::<Vec<_>>(),
            vec![&Runner::Minitest],
            "{command}"
        );
    }
    assert!(
        plan("ruby script/build.rb", dir.path()).runners.is_empty(),
        "a Ruby script is no test run"
    );
}

/// The scope of PHPUnit's configuration as it resolves it (`ecosystem/php/closure.rs`): each file it finds is
/// read setting by setting by PHPUnit's reader (`closure::phpunit_config`).
fn resolved() -> Scope {
    let order = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
    let each = match plan("phpunit", project(&[]).path())
        .targets
        .first()
        .map(|t| t.scope.clone())
    {
        Some(Scope::FirstOf { each, .. }) => each,
        other => panic!("phpunit.xml sealed as {other:?}"),
    };
    assert!(
        matches!(&*each, Scope::Read(read) if read.kind.is(&crate::closure::phpunit_config::READING)),
        "{each:?}"
    );
    Scope::FirstOf {
        orders: vec![
            order(&["phpunit.xml", "phpunit.xml.dist"]),
            order(&["phpunit.xml", "phpunit.dist.xml", "phpunit.xml.dist"]),
        ],
        each,
    }
}

/// A file the configuration pulls in with XInclude is the configuration's too: sealed whole, beside the
/// configuration read setting by setting; a URL names no file.
#[test]
fn phpunit_seals_the_files_its_configuration_xincludes() {
    let config = "<phpunit xmlns:x=\"http://www.w3.org/2001/XInclude\"><x:include href=\"config/php.xml\"/><coverage><include><directory>src</directory></include></coverage><x:include href=\"https://example.com/a.xml\"/></phpunit>";
    let dir = project(&[("phpunit.xml", config), ("config/php.xml", "<php/>")]);
    for command in ["phpunit", "phpunit -c phpunit.xml"] {
        let plan = plan(command, dir.path());
        assert_eq!(scope_of(&plan, "config/php.xml"), Some(&Scope::Whole), "{command}");
        assert_eq!(
            plan.targets.iter().filter(|t| t.path.contains("example.com")).count(),
            0,
            "{command}"
        );
    }
}

#[test]
fn phpunit_seals_the_configuration_it_resolves_in_the_directory_it_runs_in() {
    let dir = project(&[("phpunit.xml.dist", "<phpunit/>"), ("ci/phpunit.xml", "<phpunit/>")]);
    for command in [
        "phpunit",
        "vendor/bin/phpunit --testdox",
        "php -d memory_limit=-1 vendor/bin/phpunit tests",
        "php vendor/phpunit/phpunit/phpunit --filter Calc",
        "XDEBUG_MODE=off ./vendor/bin/phpunit",
    ] {
        let plan = plan(command, dir.path());
        // One entry, under the name PHPUnit reads at setup.
        assert_eq!(scope_of(&plan, "phpunit.xml.dist"), Some(&resolved()), "{command}");
        assert_eq!(scope_of(&plan, "phpunit.xml"), None, "{command}");
        assert_eq!(plan.ecosystems, BTreeSet::from([Lang::Php]), "{command}");
        assert!(plan.runners.contains(&Runner::Phpunit), "{command}");
    }
    let named = plan("phpunit -c ci/phpunit.xml", dir.path());
    // A named file is read setting by setting too.
    let Scope::FirstOf { each, .. } = resolved() else {
        unreachable!("resolved() is a search")
    };
    assert_eq!(scope_of(&named, "ci/phpunit.xml"), Some(&*each));
    assert_eq!(
        scope_of(&named, "phpunit.xml.dist"),
        None,
        "a named file replaces the search"
    );
    let in_dir = plan("phpunit --configuration ci", dir.path());
    assert_eq!(scope_of(&in_dir, "ci/phpunit.xml"), Some(&resolved()));
    let none = plan("phpunit --no-configuration tests", dir.path());
    assert_eq!(scope_of(&none, "phpunit.xml.dist"), None);
    assert!(none.runners.contains(&Runner::Phpunit));
    let other = plan("php artisan serve", dir.path());
    assert!(other.runners.is_empty(), "php running another script is no PHPUnit");
}

#[test]
fn composer_test_seals_its_script_and_follows_it_to_phpunit() {
    let dir = project(&[(
        "composer.json",
        r#"{"require":{"php":">=8.1"},"scripts":{"test":["@lint","@php vendor/bin/phpunit"],"lint":"App\\Lint::run","other":"rm -rf /"}}"#,
    )]);
    for command in [
        "composer test",
        "composer run-script test",
        "composer --no-interaction run test -- --filter x",
    ] {
        let plan = plan(command, dir.path());
        let keys = json_keys(scope_of(&plan, "composer.json"));
        assert_eq!(
            keys,
            vec!["scripts.test".to_string(), "scripts.lint".to_string()],
            "{command}"
        );
        assert!(plan.runners.contains(&Runner::Phpunit), "{command}");
        // None exists: sealed as absent under the first name.
        assert_eq!(scope_of(&plan, "phpunit.xml"), Some(&resolved()), "{command}");
    }
    let elsewhere = project(&[("app/composer.json", r#"{"scripts":{"test":"phpunit"}}"#)]);
    let plan = plan("composer -d app test", elsewhere.path());
    assert_eq!(
        json_keys(scope_of(&plan, "app/composer.json")),
        vec!["scripts.test".to_string()]
    );
    assert_eq!(scope_of(&plan, "app/phpunit.xml"), Some(&resolved()));
}

/// Maven with a goal that runs Surefire seals every `pom.xml` by its test side and Maven's option files whole;
/// a goal that runs no test is the ecosystem's build; the console launcher is named by its jar or main class.
#[test]
fn maven_seals_every_pom_by_its_test_side_and_the_console_launcher_is_recognised() {
    let dir = project(&[
        ("pom.xml", "<project/>"),
        ("core/pom.xml", "<project/>"),
        ("src/test/java/calc/CalcTest.java", "class CalcTest {}"),
    ]);
    for command in [
        "mvn test",
        "mvn -o -q test",
        "./mvnw -B verify",
        "mvn -f pom.xml -pl core install",
        "mvn -Dmaven.repo.local=/usr/share/maven-repo -o surefire:test",
    ] {
        let plan = plan(command, dir.path());
        assert_eq!(plan.ecosystems, BTreeSet::from([Lang::Java]), "{command}");
        assert!(plan.runners.contains(&Runner::Maven), "{command}");
        assert_eq!(scope_of(&plan, "pom.xml"), Some(&Scope::Pom), "{command}");
        assert_eq!(scope_of(&plan, "core/pom.xml"), Some(&Scope::Pom), "{command}");
        // Maven's own options, option by option: hiding the transfer progress is free, a property is not.
        assert!(
            matches!(scope_of(&plan, ".mvn/maven.config"), Some(Scope::Options { free }) if free.contains(&"-ntp".to_string()) && !free.iter().any(|f| f.starts_with("-Dmaven") || f.starts_with("-DskipTests") || f.starts_with("-Dtest") || f == "-q")),
            "{command}"
        );
        // Maven's own JVM options, option by option: a heap size is free, a property is not.
        assert!(
            matches!(scope_of(&plan, ".mvn/jvm.config"), Some(Scope::Options { free }) if free.contains(&"-Xmx*".to_string()) && !free.iter().any(|f| f.starts_with("-Dmaven") || f.starts_with("-DskipTests"))),
            "{command}"
        );
    }
    for command in ["mvn compile", "mvn -pl test compile"] {
        let build = plan(command, dir.path());
        assert!(build.runners.is_empty(), "{command}: {:?}", build.runners);
        assert_eq!(scope_of(&build, "pom.xml"), None, "{command}");
    }
    for command in [
        "java -jar /usr/share/java/junit-platform-console-standalone.jar -cp out --scan-classpath",
        "java -cp out:lib/* org.junit.platform.console.ConsoleLauncher --select-class calc.CalcTest",
    ] {
        let launcher = plan(command, dir.path());
        assert!(launcher.runners.contains(&Runner::JunitConsole), "{command}");
        assert_eq!(launcher.ecosystems, BTreeSet::from([Lang::Java]), "{command}");
    }
    assert!(plan("java -jar app.jar", dir.path()).runners.is_empty());
}

/// Every script extension of every ecosystem (`SCRIPTS`) makes a project file named in the command sealed
/// whole, and a file of another extension (data) is not.
#[test]
fn a_file_named_in_the_command_with_any_ecosystems_script_extension_is_sealed_whole() {
    let extensions: Vec<&str> = SCRIPTS.iter().flat_map(|s| s.extensions.iter().copied()).collect();
    assert!(extensions.len() > 15, "{extensions:?}");
    for ext in extensions.iter().chain(["txt"].iter()) {
        let name = format!("tool.{ext}");
        let dir = project(&[(name.as_str(), "x\n")]);
        let plan = plan(&format!("some-program {name}"), dir.path());
        let expected = (*ext != "txt").then_some(&Scope::Whole);
        assert_eq!(scope_of(&plan, &name), expected, "{name}");
    }
}

/// Within a test script, a program of the project run by an interpreter that runs its first word
/// (`python3 tool.py`, `node tool.js`) is the code under test: named as such, not sealed.
#[test]
fn a_script_a_test_script_runs_through_an_interpreter_is_the_code_under_test() {
    let dir = project(&[
        ("tests/run.sh", "python3 bin/tool.py 4\nnode bin/tool.js 4\n"),
        ("bin/tool.py", "print(4)\n"),
        ("bin/tool.js", "console.log(4)\n"),
    ]);
    let plan = plan("sh tests/run.sh", dir.path());
    assert_eq!(scope_of(&plan, "bin/tool.py"), Some(&Scope::Code));
    assert_eq!(scope_of(&plan, "bin/tool.js"), Some(&Scope::Code));
    assert_eq!(
        scope_of(&plan, "tests/run.sh"),
        Some(&Scope::Whole),
        "a script on the test side is sealed whole"
    );
}

/// [`Scope::ScriptIn`]: a shell script read line by line, run in `home` as named from its own directory.
fn script_in(home: &str, by_shell: bool) -> Scope {
    Scope::ScriptIn {
        home: home.to_string(),
        by_shell,
    }
}

/// `from_dir` names a place from another, both relative to the root.
#[test]
fn a_place_is_named_from_a_directory() {
    for (dir, to, named) in [
        ("scripts", "", Some("..")),
        ("", "", Some(".")),
        ("ci/sub", "", Some("../..")),
        ("scripts", "scripts", Some(".")),
        ("scripts", "src/app", Some("../src/app")),
        ("", "tests", Some("tests")),
        ("..", "", None),
    ] {
        assert_eq!(
            super::from_dir(Path::new(dir), Path::new(to)).as_deref(),
            named,
            "{dir} → {to}"
        );
    }
}

/// A shell script the command runs is read line by line (`Scope::ScriptIn`: where it runs, as named from its own
/// directory), however the shell is asked to run it; the other files its command line names are still sealed
/// whole.
#[test]
fn a_shell_script_the_command_runs_is_read_as_a_shell_runs_it() {
    let dir = project(&[
        (
            "scripts/check.sh",
            "set -e
python3 -m unittest
",
        ),
        ("ci/settings.toml", "x = 1\n"),
        ("tools/check.py", "print(1)\n"),
    ]);
    for command in [
        "sh scripts/check.sh",
        "bash -e -o pipefail scripts/check.sh ci/settings.toml",
        "./scripts/check.sh ci/settings.toml",
        "cd scripts && sh ./check.sh",
    ] {
        let plan = plan(command, dir.path());
        let home = if command.starts_with("cd scripts") { "." } else { ".." };
        let by_shell = !command.starts_with("./");
        assert_eq!(
            scope_of(&plan, "scripts/check.sh"),
            Some(&script_in(home, by_shell)),
            "{command}"
        );
        assert!(plan.runners.contains(&Runner::Unittest), "{command}");
        if command.contains("settings") {
            assert_eq!(scope_of(&plan, "ci/settings.toml"), Some(&Scope::Whole), "{command}");
        }
    }
    // A shell given a string runs no file: the string is read as the command's own.
    let plan = plan("sh -c 'python3 tools/check.py'", dir.path());
    assert_eq!(scope_of(&plan, "tools/check.py"), Some(&Scope::Whole));
}

/// The order the ecosystems' program rules are tried in (`PROGRAMS`: the first that recognises a program reads
/// its configuration) and the scripts' table (`SCRIPTS`), pinned by name, so that building them from the ranks
/// of `src/ecosystem/ECOSYSTEMS` keeps them.
#[test]
fn the_ecosystems_program_rules_and_scripts_keep_their_ranked_order() {
    type Program = fn(&mut Deriver, &Simple) -> bool;
    let expected: [(&str, Program); 10] = [
        ("js", js::program),
        ("python", python::program),
        ("rust", cargo::program),
        ("go", go::program),
        ("shell", shell::program),
        ("cpp", cpp::program),
        ("ruby", ruby::program),
        ("php", php::program),
        ("jvm", jvm::program),
        ("make", make::program),
    ];
    assert_eq!(PROGRAMS.len(), expected.len());
    for (at, ((name, program), actual)) in expected.iter().zip(PROGRAMS).enumerate() {
        assert!(
            std::ptr::fn_addr_eq(*program, *actual),
            "PROGRAMS[{at}] is not {name}'s"
        );
    }
    let scripts: Vec<&str> = SCRIPTS.iter().map(|s| s.extensions[0]).collect();
    assert_eq!(scripts, ["pl", "sh", "py", "js", "rb", "php", "mk"]);
}
