use std::path::{Path, PathBuf};

use super::*;

/// A project at `<tmp>/w/p` with a home at `<tmp>/home`; files created as named.
struct Fixture {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
}

impl Fixture {
    fn new(files: &[&str]) -> Fixture {
        let tmp = tempfile::tempdir().expect("test fixture");
        let root = tmp.path().join("w/p");
        let home = tmp.path().join("home");
        for dir in [&root, &home] {
            std::fs::create_dir_all(dir).expect("test fixture");
        }
        let f = Fixture { _tmp: tmp, root, home };
        for file in files {
            f.write(file, "x\n");
        }
        f
    }

    fn write(&self, relative: &str, text: &str) {
        let path = self.root.join(relative);
        std::fs::create_dir_all(path.parent().expect("test fixture")).expect("test fixture");
        std::fs::write(path, text).expect("test fixture");
    }

    fn at(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    fn take(&self, events: &[(Access, PathBuf)]) -> Observed {
        let events: Vec<Event> = events
            .iter()
            .map(|(access, path)| Event {
                access: *access,
                path: path.clone(),
            })
            .collect();
        Observed::take(&events, &self.root, Some(&self.home), None)
    }
}

fn sealed(observed: &Observed) -> Vec<(&str, bool)> {
    observed
        .closure
        .files
        .iter()
        .map(|f| (f.path.as_str(), !f.parts.is_empty()))
        .collect()
}

#[test]
fn configuration_scripts_and_tool_places_are_sealed_the_code_and_tests_are_not() {
    let f = Fixture::new(&[
        "settings.ini",
        "scripts/run.sh",
        "src/calc.py",
        "src/data/table.json",
        "tests/test_calc.py",
        "tests/data/cases.json",
        "node_modules/jest/index.js",
        "Cargo.lock",
        "package.json",
    ]);
    let read = |p: &str| (Access::Read, f.at(p));
    let o = f.take(&[
        read("settings.ini"),
        read("scripts/run.sh"),
        read("src/calc.py"),
        read("src/data/table.json"),
        read("tests/test_calc.py"),
        read("tests/data/cases.json"),
        read("node_modules/jest/index.js"),
        read("Cargo.lock"),
        read("package.json"),
    ]);
    assert_eq!(
        sealed(&o),
        vec![
            ("node_modules/jest/index.js", true),
            ("scripts/run.sh", true),
            ("settings.ini", true)
        ]
    );
}

#[test]
fn looked_for_configuration_is_sealed_absent_but_not_a_source_file_or_a_directory_name() {
    let f = Fixture::new(&[]);
    let missing = |p: &str| (Access::Missing, f.at(p));
    let o = f.take(&[
        missing("pytest.toml"),
        missing("tests/conftest.py"),
        missing("build.rs"),
        missing("src/parser.js"),
        missing("benches"),
        missing("src/bin"),
        missing("tests/fixtures/new.json"),
        missing("pytest.ini"),
        (
            Access::Missing,
            f.root.parent().expect("test fixture").join("pytest.ini"),
        ),
        (
            Access::Missing,
            f.root.parent().expect("test fixture").join("notes.txt"),
        ),
    ]);
    let mut paths: Vec<&str> = sealed(&o).into_iter().map(|(p, _)| p).collect();
    paths.sort_unstable();
    let parent_ini = f.root.parent().expect("test fixture").join("pytest.ini");
    // `build.rs` is the project's code, a new one too: the room keeps the tests read-only while it runs.
    let mut want = vec![
        "pytest.ini",
        "pytest.toml",
        "tests/conftest.py",
        parent_ini.to_str().expect("test fixture"),
    ];
    want.sort_unstable();
    assert_eq!(paths, want);
}

#[test]
fn what_the_run_wrote_and_caches_are_not_inputs() {
    let f = Fixture::new(&[
        "out/report.txt",
        ".cache/x.ini",
        "target/debug/x.d",
        "Cargo.toml",
        "build/CACHEDIR.TAG",
        "build/a.cfg",
    ]);
    let o = f.take(&[
        (Access::Wrote, f.at("out")),
        (Access::Read, f.at("out/report.txt")),
        (Access::Read, f.at(".cache/x.ini")),
        (Access::Read, f.at("target/debug/x.d")),
        (Access::Read, f.at("build/a.cfg")),
        (Access::Read, f.at(".git/config")),
    ]);
    assert_eq!(sealed(&o), vec![]);
}

#[test]
fn bytecode_read_stands_for_its_source_and_names_the_module_used() {
    let f = Fixture::new(&[
        "lib/pkg/__init__.py",
        "lib/pkg/core.py",
        "lib/pkg/__pycache__/core.cpython-311.pyc",
        "calc.py",
    ]);
    let o = f.take(&[
        (Access::Read, f.at("lib/pkg/__pycache__/core.cpython-311.pyc")),
        (Access::Read, f.at("calc.py")),
        (Access::Listed, f.at("lib")),
        (Access::Listed, f.root.clone()),
    ]);
    let used: Vec<(&str, &str)> = o.used.iter().map(|u| (u.name.as_str(), u.path.as_str())).collect();
    assert_eq!(used, vec![("calc", "calc.py"), ("pkg", "lib/pkg")]);
    // A package named like the one used, earlier on the path: a shadow naming both.
    std::fs::create_dir_all(f.at("pkg")).expect("test fixture");
    f.write("lib/newmod.py", "");
    f.write("notes.md", "");
    let shadows = o.shadows(&f.root);
    assert_eq!(
        shadows,
        vec![Shadow {
            path: "pkg".into(),
            kind: ShadowKind::Module {
                name: "pkg".into(),
                used: "lib/pkg".into()
            }
        }]
    );
}

#[test]
fn a_new_pth_file_or_pytest_plugin_in_a_searched_place_is_a_shadow_an_ordinary_package_is_not() {
    let f = Fixture::new(&[".venv/pyvenv.cfg", ".venv/lib/site-packages/pytest/__init__.py"]);
    let site = f.at(".venv/lib/site-packages");
    let mut o = f.take(&[(Access::Listed, site.clone())]);
    f.write(".venv/lib/site-packages/evil.pth", "import evil\n");
    f.write(
        ".venv/lib/site-packages/plug-1.0.dist-info/entry_points.txt",
        "[pytest11]\nplug = plug\n",
    );
    f.write(
        ".venv/lib/site-packages/requests-2.0.dist-info/METADATA",
        "Name: requests\n",
    );
    f.write(".venv/lib/site-packages/requests/__init__.py", "");
    let kinds: Vec<(String, ShadowKind)> = o.shadows(&f.root).into_iter().map(|s| (s.path, s.kind)).collect();
    assert_eq!(
        kinds,
        vec![
            (".venv/lib/site-packages/evil.pth".to_string(), ShadowKind::PathFile),
            (
                ".venv/lib/site-packages/plug-1.0.dist-info".to_string(),
                ShadowKind::Plugin
            ),
        ]
    );
    // The user accepts one; the other still shows.
    let accepted = o.accept_entries(&f.root, |p| p.ends_with(".pth"));
    assert_eq!(accepted, vec![".venv/lib/site-packages/evil.pth".to_string()]);
    assert_eq!(o.shadows(&f.root).len(), 1);
}

#[test]
fn programs_looked_for_then_run_from_elsewhere_are_sealed_absent() {
    let f = Fixture::new(&["tools/checker"]);
    let o = f.take(&[
        (Access::Missing, f.at("bin/checker")),
        (Access::Executed, f.at("tools/checker")),
        (Access::MissingProgram, f.home.join(".local/bin/node")),
        (Access::Executed, PathBuf::from("/usr/bin/node")),
        (Access::MissingProgram, PathBuf::from("/usr/local/bin/node")),
    ]);
    // `~/.local/bin/node` was looked for on `PATH`, not searched for up from the project: a program the user
    // installs there later is theirs.
    let files: Vec<(&str, &Why)> = o.closure.files.iter().map(|f| (f.path.as_str(), &f.why)).collect();
    assert_eq!(
        files,
        vec![
            (
                "bin/checker",
                &Why::Observed(Seen::LookedForProgram {
                    ran: Some("tools/checker".into())
                })
            ),
            ("tools/checker", &Why::Observed(Seen::Ran)),
        ]
    );
}

#[test]
fn large_files_are_sealed_by_size_and_time() {
    let f = Fixture::new(&[]);
    f.write("node_modules/big.node", &"x".repeat(LARGE as usize + 1));
    let o = f.take(&[(Access::Read, f.at("node_modules/big.node"))]);
    assert_eq!(o.closure.files[0].scope, Scope::Stat);
    assert!(o.closure.check(&f.root).is_empty());
    f.write("node_modules/big.node", &"y".repeat(LARGE as usize + 2));
    assert_eq!(o.closure.check(&f.root).len(), 1);
}

#[test]
fn home_configuration_and_packages_are_sealed_other_home_files_are_not() {
    let f = Fixture::new(&[]);
    for (path, text) in [
        (".npmrc", "x"),
        (".cargo/registry/cache/a.crate", "x"),
        ("notes/todo.txt", "x"),
    ] {
        let p = f.home.join(path);
        std::fs::create_dir_all(p.parent().expect("test fixture")).expect("test fixture");
        std::fs::write(p, text).expect("test fixture");
    }
    let o = f.take(&[
        (Access::Read, f.home.join(".npmrc")),
        (Access::Read, f.home.join(".cargo/registry/cache/a.crate")),
        (Access::Read, f.home.join("notes/todo.txt")),
        (Access::Missing, f.home.join(".config/pip/pip.conf")),
    ]);
    let paths: Vec<String> = o.closure.files.iter().map(|f| f.path.clone()).collect();
    let home = |p: &str| f.home.join(p).to_string_lossy().into_owned();
    assert_eq!(paths, vec![home(".npmrc")]);
}

/// Issue 29's false rejections: the user creating `~/.inputrc`, or the user site-packages (`pip install
/// --user`), after setup changed their machine, not the project; only a name the run searched for up from the
/// project (`../pytest.ini`, `../.cargo/config.toml`) stands for it, also where the home is above the project.
#[test]
fn what_the_run_looked_for_in_the_users_places_is_not_sealed_absent_a_search_up_from_the_project_is() {
    let tmp = tempfile::tempdir().expect("test fixture");
    let home = tmp.path().join("home");
    let root = home.join("code/p");
    std::fs::create_dir_all(&root).expect("test fixture");
    let missing = |p: PathBuf| Event {
        access: Access::Missing,
        path: p,
    };
    let events = vec![
        missing(home.join(".inputrc")),
        missing(home.join(".local/lib/python3.11/site-packages")),
        missing(home.join(".config/pip/pip.conf")),
        missing(root.join("pytest.ini")),
        missing(home.join("code/pytest.ini")),
        missing(home.join("pytest.ini")),
        missing(root.join(".cargo/config.toml")),
        missing(home.join("code/.cargo/config.toml")),
        Event {
            access: Access::MissingProgram,
            path: home.join(".local/bin/pytest"),
        },
    ];
    let o = Observed::take(&events, &root, Some(&home), None);
    let mut paths: Vec<String> = o.closure.files.iter().map(|f| f.path.clone()).collect();
    paths.sort();
    let at = |p: &str| home.join(p).to_string_lossy().into_owned();
    let mut want = vec![
        ".cargo/config.toml".to_string(),
        "pytest.ini".to_string(),
        at("code/.cargo/config.toml"),
        at("code/pytest.ini"),
        at("pytest.ini"),
    ];
    want.sort();
    assert_eq!(paths, want);
}

/// A `.pth` an installer recorded (an editable install, a dependency that ships one) is the dependency's; one
/// no `RECORD` lists with its digest, or whose content no longer matches it, is a shadow.
#[test]
fn a_pth_an_installer_recorded_is_no_shadow_a_hand_placed_or_altered_one_is() {
    let f = Fixture::new(&[".venv/pyvenv.cfg", ".venv/lib/site-packages/pytest/__init__.py"]);
    let site = f.at(".venv/lib/site-packages");
    let o = f.take(&[(Access::Listed, site.clone())]);
    let pth = "import __editable___calc_0_1_0_finder; __editable___calc_0_1_0_finder.install()\n";
    f.write(".venv/lib/site-packages/__editable__.calc-0.1.0.pth", pth);
    f.write(".venv/lib/site-packages/__editable___calc_0_1_0_finder.py", "");
    let digest = {
        use sha2::Digest as _;
        crate::fsutil::base64_url(&sha2::Sha256::digest(pth.as_bytes()))
    };
    f.write(
        ".venv/lib/site-packages/calc-0.1.0.dist-info/RECORD",
        &format!(
            "__editable__.calc-0.1.0.pth,sha256={digest},{}\ncalc-0.1.0.dist-info/RECORD,,\n",
            pth.len()
        ),
    );
    f.write(".venv/lib/site-packages/calc-0.1.0.dist-info/INSTALLER", "pip\n");
    assert_eq!(o.shadows(&f.root), Vec::new());
    // Altered after the install, or dropped in by hand: no installer vouches for it.
    f.write(".venv/lib/site-packages/__editable__.calc-0.1.0.pth", "import evil\n");
    f.write(".venv/lib/site-packages/zz.pth", "import evil\n");
    let kinds: Vec<(String, ShadowKind)> = o.shadows(&f.root).into_iter().map(|s| (s.path, s.kind)).collect();
    assert_eq!(
        kinds,
        vec![
            (
                ".venv/lib/site-packages/__editable__.calc-0.1.0.pth".to_string(),
                ShadowKind::PathFile
            ),
            (".venv/lib/site-packages/zz.pth".to_string(), ShadowKind::PathFile),
        ]
    );
}

#[test]
fn module_names_of_directory_entries() {
    assert_eq!(module_name("calc.py"), Some("calc"));
    assert_eq!(module_name("calc"), Some("calc"));
    assert_eq!(module_name("_json.cpython-311-x86_64-linux-gnu.so"), Some("_json"));
    assert_eq!(module_name("README.md"), None);
    assert_eq!(module_name("my-tool"), None);
    assert!(Path::new("x").is_relative());
}

#[test]
fn a_runner_configuration_new_in_a_searched_directory_is_a_shadow_a_lint_configuration_is_not() {
    let f = Fixture::new(&["Makefile"]);
    let o = f.take(&[
        (Access::Executed, PathBuf::from("/usr/bin/make")),
        (Access::Listed, f.root.clone()),
        (Access::Read, f.at("Makefile")),
    ]);
    for name in [
        "GNUmakefile",
        "jest.config.js",
        ".eslintrc.json",
        "ruff.toml",
        ".editorconfig",
        "notes.md",
    ] {
        f.write(name, "x\n");
    }
    let shadows: Vec<(String, ShadowKind)> = o.shadows(&f.root).into_iter().map(|s| (s.path, s.kind)).collect();
    assert_eq!(
        shadows,
        vec![
            ("GNUmakefile".to_string(), ShadowKind::Configuration),
            ("jest.config.js".to_string(), ShadowKind::Configuration),
        ]
    );
}

/// A build file is read by its own program only: new beside a run that ran no make (`go test`), it is the
/// agent's (a lint target); beside a run of make it is a shadow; and in an observed closure taken before the
/// programs were kept, it counts as it did.
#[test]
fn a_new_build_file_is_a_shadow_only_where_its_program_ran() {
    let f = Fixture::new(&["go.mod"]);
    let o = f.take(&[
        (Access::Executed, PathBuf::from("/usr/lib/go/bin/go")),
        (Access::Listed, f.root.clone()),
        (Access::Read, f.at("go.mod")),
    ]);
    f.write("Makefile", "lint:\n\tgolangci-lint run\n");
    f.write("justfile", "lint:\n  golangci-lint run\n");
    f.write("jest.config.js", "module.exports = {};\n");
    let paths = |o: &Observed| -> Vec<String> { o.shadows(&f.root).into_iter().map(|s| s.path).collect() };
    assert_eq!(paths(&o), vec!["jest.config.js".to_string()]);
    let mut ran_make = o.clone();
    ran_make.ran = Some(["make".to_string()].into());
    assert_eq!(paths(&ran_make), vec!["Makefile", "jest.config.js"]);
    let mut older = o.clone();
    older.ran = None;
    assert_eq!(paths(&older), vec!["Makefile", "jest.config.js", "justfile"]);
}

#[test]
fn a_new_module_inside_a_package_is_a_submodule_not_a_shadow() {
    let f = Fixture::new(&["pkg/__init__.py", "pkg/core.py", "calc.py"]);
    let stdlib = f.home.join("lib/python3/types.py");
    std::fs::create_dir_all(stdlib.parent().expect("parent")).expect("test fixture");
    std::fs::write(&stdlib, "").expect("test fixture");
    let o = f.take(&[
        (Access::Read, stdlib.clone()),
        (Access::Listed, f.at("pkg")),
        (Access::Listed, f.root.clone()),
    ]);
    f.write("pkg/types.py", "");
    assert_eq!(o.shadows(&f.root), vec![]);
    f.write("types.py", "");
    assert_eq!(o.shadows(&f.root).len(), 1, "a top-level `types.py` does shadow it");
}

/// The oracle's room (`crate::room`) lives in loopgate's home, by default under the user's home: the test
/// binaries and temporary programs a run executes from it are the run's own outputs, never inputs to seal (a
/// rebuilt test binary would read as a program that changed).
#[test]
fn what_the_run_ran_or_read_in_loopgates_home_is_never_sealed() {
    let f = Fixture::new(&[]);
    let mut places = Places::new(&f.root, Some(&f.home), None, &[]);
    places.loopgate = f.home.join(".local/state/loopgate");
    let in_room = places.loopgate.join("rooms/0123/cargo-target/debug/deps/calc-9f2a");
    let elsewhere = f.home.join("bin/calc-9f2a");
    assert!(
        places.sealable(&elsewhere, &Seen::Ran),
        "a program run from the home is sealed"
    );
    assert!(!places.sealable(&in_room, &Seen::Ran));
    assert!(!places.sealable(&places.loopgate.join("rooms/0123/tmp/.npmrc"), &Seen::LookedFor));
    assert!(!places.searchable(&places.loopgate.join("rooms/0123/pycache/site-packages")));
}

/// What the run read in any ecosystem's cache directory (`runner::CACHE_DIRS`), at the root or below, is no
/// input of the oracle.
#[test]
fn what_the_run_read_in_any_ecosystems_cache_is_not_an_input() {
    let caches: Vec<&str> = crate::runner::CACHE_DIRS
        .iter()
        .flat_map(|d| d.iter().copied())
        .collect();
    assert!(caches.len() > 5, "{caches:?}");
    let files: Vec<String> = caches
        .iter()
        .flat_map(|c| [format!("{c}/x.ini"), format!("pkg/{c}/x.ini")])
        .collect();
    let f = Fixture::new(&files.iter().map(String::as_str).collect::<Vec<_>>());
    let events: Vec<(Access, PathBuf)> = files.iter().map(|file| (Access::Read, f.at(file))).collect();
    assert_eq!(sealed(&f.take(&events)), vec![]);
}

/// Every name each ecosystem's tools pick up by listing a directory (`FILES`: its `listed` names and
/// prefixes), new in a directory the baseline listed, is a shadow.
#[test]
fn every_ecosystems_listed_configuration_new_in_a_searched_directory_is_a_shadow() {
    let names: Vec<String> = FILES
        .iter()
        .flat_map(|files| {
            let prefixed = files.listed_prefixes.iter().map(|p| format!("{p}js"));
            files.listed.iter().map(|n| n.to_string()).chain(prefixed)
        })
        .collect();
    assert!(names.len() > 6, "{names:?}");
    let f = Fixture::new(&["Makefile"]);
    let o = f.take(&[(Access::Listed, f.root.clone()), (Access::Read, f.at("Makefile"))]);
    for name in &names {
        f.write(name, "x\n");
    }
    let mut shadows: Vec<String> = o.shadows(&f.root).into_iter().map(|s| s.path).collect();
    shadows.sort();
    let mut expected = names.clone();
    expected.sort();
    assert_eq!(shadows, expected);
}

/// Cargo's build scripts, as cargo runs them, are judged by their output; a test binary, cargo and rustc are not.
#[test]
fn cargo_build_scripts_are_judged_by_their_output() {
    for program in [
        "/p/target/debug/build/calc-0a1b/build-script-build",
        "/p/target/release/build/calc-0a1b/build_script_build-0a1b",
        "/elsewhere/target/x86_64-unknown-linux-musl/debug/build/kit-9/build-script-main",
    ] {
        assert!(judged_by_output(Path::new(program)), "{program}");
    }
    for program in [
        "/p/target/debug/deps/calc-0a1b",
        "/p/target/debug/build-script-build",
        "/usr/bin/cargo",
        "/p/build/x/run",
    ] {
        assert!(!judged_by_output(Path::new(program)), "{program}");
    }
}
