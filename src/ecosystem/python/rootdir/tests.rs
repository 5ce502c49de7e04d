use std::collections::BTreeMap;

use super::*;
use crate::closure::parts::{PartChange, compare_also, marked};

/// The resolution's parts in a project holding `files`, searched from its root.
fn resolved(files: &[(&str, &str)]) -> BTreeMap<String, String> {
    resolved_with(files, &[""])
}

fn resolved_with(files: &[(&str, &str)], names: &[&str]) -> BTreeMap<String, String> {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, text) in files {
        let at = dir.path().join(path);
        std::fs::create_dir_all(at.parent().expect("parent")).expect("mkdir");
        std::fs::write(at, text).expect("write");
    }
    let names: Vec<String> = names.iter().map(ToString::to_string).collect();
    marked(parts(dir.path(), &names, None))
}

/// How the resolution moved from `before` to `after`, by label.
fn moved(before: &[(&str, &str)], after: &[(&str, &str)]) -> Vec<(String, PartChange)> {
    compare_also(&resolved(before), &resolved(after), PYTEST_8)
}

const SETUP_CFG: (&str, &str) = (
    "setup.cfg",
    "[metadata]\nname = calc\n\n[tool:pytest]\ntestpaths = tests\n",
);
const PYPROJECT: (&str, &str) = ("pyproject.toml", "[project]\nname = \"calc\"\n");

#[test]
fn the_configuration_moved_to_the_file_pytest_prefers_moves_nothing() {
    let base = [PYPROJECT, SETUP_CFG, ("tests/test_calc.py", "")];
    for (pyproject, setup) in [
        (
            "[project]\nname = \"calc\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n",
            "[metadata]\nname = calc\n",
        ),
        // pytest 9's native table: read by pytest 9 only, so pytest 8's resolution is named.
        (
            "[project]\nname = \"calc\"\n\n[tool.pytest.ini_options]\ntestpaths = \"tests\"\n",
            "[metadata]\nname = calc\n",
        ),
    ] {
        let after = [
            ("pyproject.toml", pyproject),
            ("setup.cfg", setup),
            ("tests/test_calc.py", ""),
        ];
        assert_eq!(moved(&base, &after), [], "{pyproject}");
    }
    // Into `tox.ini` and `pytest.ini`, same directory.
    for file in [
        ("tox.ini", "[pytest]\ntestpaths = tests\n"),
        ("pytest.ini", "[pytest]\ntestpaths =\n    tests\n"),
    ] {
        let after = [PYPROJECT, ("setup.cfg", "[metadata]\nname = calc\n"), file];
        assert_eq!(moved(&base, &after), [], "{file:?}");
    }
}

#[test]
fn a_weaker_key_in_the_file_pytest_now_reads_first_counts() {
    let base = [PYPROJECT, SETUP_CFG];
    let after = [
        PYPROJECT,
        SETUP_CFG,
        (
            "pytest.ini",
            "[pytest]\ntestpaths = tests\naddopts = -p no:calc_checks\n",
        ),
    ];
    assert_eq!(moved(&base, &after), [("addopts".to_string(), PartChange::Added)]);
    // An empty `pytest.ini` drops `testpaths`.
    let after = [PYPROJECT, SETUP_CFG, ("pytest.ini", "")];
    let labels: Vec<String> = moved(&base, &after).into_iter().map(|(l, _)| l).collect();
    assert!(labels.contains(&"testpaths".to_string()), "{labels:?}");
    // A configuration in a parent directory moves the rootdir, which names every test.
    let base = [("app/setup.cfg", SETUP_CFG.1)];
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("app")).expect("mkdir");
    std::fs::write(dir.path().join("app/setup.cfg"), SETUP_CFG.1).expect("write");
    let before = marked(parts(&dir.path().join("app"), &[String::new()], None));
    std::fs::write(dir.path().join("app/setup.cfg"), "[metadata]\n").expect("write");
    std::fs::write(dir.path().join("pytest.ini"), "[pytest]\ntestpaths = app/tests\n").expect("write");
    let after = marked(parts(&dir.path().join("app"), &[String::new()], None));
    let labels: Vec<String> = compare_also(&before, &after, PYTEST_8)
        .into_iter()
        .map(|(l, _)| l)
        .collect();
    assert!(labels.contains(&"rootdir".to_string()), "{labels:?} {base:?}");
}

#[test]
fn a_strict_key_is_free_to_appear_and_counts_when_it_goes() {
    let strict = (
        "setup.cfg",
        "[tool:pytest]\ntestpaths = tests\nxfail_strict = true\nlog_cli = true\n",
    );
    assert_eq!(moved(&[SETUP_CFG], &[strict]), []);
    assert_eq!(
        moved(&[strict], &[SETUP_CFG]),
        [("strict xfail".to_string(), PartChange::Removed)]
    );
    // Set to false, as absent.
    let off = ("setup.cfg", "[tool:pytest]\ntestpaths = tests\nxfail_strict = false\n");
    assert_eq!(moved(&[SETUP_CFG], &[off]), []);
    assert_eq!(
        moved(&[strict], &[off]),
        [("strict xfail".to_string(), PartChange::Removed)]
    );
    // The same meaning by another spelling (`addopts`, pytest 9's `strict`) moves nothing.
    let markers = (
        "setup.cfg",
        "[tool:pytest]\ntestpaths = tests\naddopts = --strict-markers -q\n",
    );
    let key = ("setup.cfg", "[tool:pytest]\ntestpaths = tests\nstrict_markers = true\n");
    assert_eq!(moved(&[SETUP_CFG], &[markers]), []);
    assert_eq!(moved(&[markers], &[key]), []);
    assert_eq!(
        moved(&[key], &[SETUP_CFG]),
        [("strict markers".to_string(), PartChange::Removed)]
    );
    // A strict option beside one that counts: the other one counts.
    let paired = (
        "setup.cfg",
        "[tool:pytest]\ntestpaths = tests\naddopts = --strict-markers -p no:randomly\n",
    );
    assert_eq!(
        moved(&[SETUP_CFG], &[paired]),
        [("addopts".to_string(), PartChange::Added)]
    );
    // `-W error` is no strict key: a warning raised can satisfy `pytest.raises(Exception)`.
    let warnings = ("setup.cfg", "[tool:pytest]\ntestpaths = tests\naddopts = -W error\n");
    assert_eq!(
        moved(&[SETUP_CFG], &[warnings]),
        [("addopts".to_string(), PartChange::Added)]
    );
}

/// The selection entries `after` adds to `before` where they are inert (`closure::selection::inert`): every file
/// they add is one `may_join` accepts (a new test that sits out the run, a sealed test).
fn widening(before: &[(&str, &str)], after: &[(&str, &str)], may_join: &dyn Fn(&str) -> bool) -> Option<Vec<String>> {
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |files: &[(&str, &str)]| {
        for (path, text) in files {
            let at = dir.path().join(path);
            std::fs::create_dir_all(at.parent().expect("parent")).expect("mkdir");
            std::fs::write(at, text).expect("write");
        }
    };
    let names = [String::new()];
    write(before);
    let sealed = marked(parts(dir.path(), &names, None));
    write(after);
    let now = marked(parts(dir.path(), &names, None));
    crate::closure::selection::inert(dir.path(), Path::new(""), &sealed, &now, may_join, may_join)
}

#[test]
fn testpaths_widened_by_new_tests_is_inert_and_by_anything_else_counts() {
    let widened = ("setup.cfg", "[tool:pytest]\ntestpaths = tests integration\n");
    let new_test = |p: &str| p == "integration/test_x.py";
    let added = widening(&[SETUP_CFG], &[widened, ("integration/test_x.py", "")], &new_test).expect("inert");
    assert!(
        !added.is_empty() && added.iter().all(|l| l.starts_with("testpaths: integration selects ")),
        "{added:?}"
    );
    // An entry that does not exist yet adds nothing either.
    assert!(widening(&[SETUP_CFG], &[widened], &new_test).is_some());
    // Beside the new test, a text file pytest collects as a doctest, which can run any code.
    let notes = ("integration/test_notes.txt", ">>> import calc\n");
    assert_eq!(widening(&[SETUP_CFG], &[widened, notes], &new_test), None);
    // A file named in `testpaths` is collected whatever its name.
    let plugin = ("tools/plugin.py", "import calc\n");
    let file = ("setup.cfg", "[tool:pytest]\ntestpaths = tests tools/plugin.py\n");
    assert_eq!(widening(&[SETUP_CFG, plugin], &[file], &new_test), None);
    // Where doctests are collected from every module, a new directory's plain modules are imported.
    let doctests = (
        "setup.cfg",
        "[tool:pytest]\ntestpaths = tests\naddopts = --doctest-modules\n",
    );
    let wider = (
        "setup.cfg",
        "[tool:pytest]\ntestpaths = tests tools\naddopts = --doctest-modules\n",
    );
    assert_eq!(widening(&[doctests, plugin], &[wider], &new_test), None);
    // Narrowed: an entry removed drops its sealed test; one that held none drops nothing.
    let sealed = ("integration/test_old.py", "def test_old():\n    pass\n");
    assert_eq!(widening(&[widened, sealed], &[SETUP_CFG], &new_test), None);
    assert!(widening(&[widened], &[SETUP_CFG], &new_test).is_some());
    assert!(
        moved(&[widened], &[SETUP_CFG])
            .iter()
            .all(|(l, change)| l.starts_with("testpaths: integration") && *change == PartChange::Removed)
    );
    // What no walk can list exactly is a part as any other: a glob, a path leaving the project.
    for entry in ["tools/*", "../elsewhere", "/tmp"] {
        let text = format!("[tool:pytest]\ntestpaths = tests {entry}\n");
        let after = [("setup.cfg", text.as_str()), plugin];
        let moves = moved(&[SETUP_CFG, plugin], &after);
        assert!(
            moves.contains(&(format!("testpaths: {entry}"), PartChange::Added)),
            "{entry}: {moves:?}"
        );
    }
    // `testpaths` set where the baseline had none narrows what runs.
    let labels: Vec<String> = compare_also(&resolved(&[PYPROJECT]), &resolved(&[PYPROJECT, SETUP_CFG]), PYTEST_8)
        .into_iter()
        .map(|(l, _)| l)
        .collect();
    assert!(labels.contains(&"testpaths".to_string()), "{labels:?}");
}

#[test]
fn python_files_widened_is_judged_by_the_files_it_newly_collects() {
    let wider = (
        "setup.cfg",
        "[tool:pytest]\ntestpaths = tests\npython_files = test_*.py check_*.py\n",
    );
    let new_check = ("tests/check_roundtrip.py", "def test_x():\n    pass\n");
    let may_join = |p: &str| p == "tests/check_roundtrip.py";
    // pytest's defaults rewritten as the documentation's example does, dropping `*_test.py` where none stands.
    let added = widening(&[SETUP_CFG], &[wider, new_check], &may_join).expect("inert");
    assert_eq!(
        added,
        [
            "testpaths: tests selects {tests,tests/**/check_*.py}",
            "testpaths: tests selects {tests,tests/**/*_test.py}"
        ]
    );
    // Where a sealed `*_test.py` stands, that drops it.
    let sealed = ("tests/calc_test.py", "def test_y():\n    pass\n");
    assert_eq!(widening(&[SETUP_CFG, sealed], &[wider, new_check], &may_join), None);
    // A module of the test directory that is neither a new test nor a sealed one, newly collected.
    let shim = ("tests/check_shim.py", "import calc\n");
    assert_eq!(widening(&[SETUP_CFG, shim], &[wider], &may_join), None);
    // Without `testpaths`, the patterns are judged over the directory the run starts in.
    let bare = ("setup.cfg", "[tool:pytest]\nxfail_strict = true\n");
    let bare_wider = (
        "setup.cfg",
        "[tool:pytest]\nxfail_strict = true\npython_files = test_*.py check_*.py\n",
    );
    let added = widening(&[bare], &[bare_wider, new_check], &may_join).expect("inert");
    assert_eq!(
        added,
        [
            "python_files selects **/check_*.py",
            "python_files selects **/*_test.py"
        ]
    );
    assert_eq!(
        widening(&[bare, ("tools/check_env.py", "")], &[bare_wider], &may_join),
        None
    );
    // Narrowed: a pattern removed drops the sealed tests it collected.
    let sealed_check = ("tests/check_calc.py", "def test_z():\n    pass\n");
    assert_eq!(widening(&[wider, sealed_check], &[SETUP_CFG], &may_join), None);
    // A pattern with a directory in it is matched against the whole path: a part as any other.
    let path_pattern = (
        "setup.cfg",
        "[tool:pytest]\ntestpaths = tests\npython_files = test_*.py */check_*.py\n",
    );
    assert!(moved(&[SETUP_CFG], &[path_pattern]).contains(&("python_files".to_string(), PartChange::Added)));
    // `python_functions` and `python_classes` widen which names count in files already collected, sealed test
    // files' helpers among them: a part as any other.
    let functions = (
        "setup.cfg",
        "[tool:pytest]\ntestpaths = tests\npython_functions = test_* check_*\n",
    );
    assert_eq!(
        moved(&[SETUP_CFG], &[functions]),
        [("python_functions".to_string(), PartChange::Added)]
    );
}

#[test]
fn testpaths_is_a_selection_beside_a_plugin_option_and_its_value() {
    let covered = (
        "setup.cfg",
        "[tool:pytest]\ntestpaths = tests\naddopts = --cov calc -q\n",
    );
    let widened = (
        "setup.cfg",
        "[tool:pytest]\ntestpaths = tests integration\naddopts = --cov calc -q\n",
    );
    let new_test = |p: &str| p == "integration/test_x.py";
    assert!(widening(&[covered], &[widened, ("integration/test_x.py", "")], &new_test).is_some());
    // A path in `addopts` is collected instead of `testpaths`: the entries are then parts as any other.
    let named = ("setup.cfg", "[tool:pytest]\ntestpaths = tests\naddopts = -q tests\n");
    let wider = (
        "setup.cfg",
        "[tool:pytest]\ntestpaths = tests integration\naddopts = -q tests\n",
    );
    assert!(moved(&[named], &[wider]).contains(&("testpaths: integration".to_string(), PartChange::Added)));
}

#[test]
fn testpaths_is_no_selection_where_the_command_names_what_pytest_collects() {
    let widened = ("setup.cfg", "[tool:pytest]\ntestpaths = tests integration\n");
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join(SETUP_CFG.0), SETUP_CFG.1).expect("write");
    let names = [String::new(), NAMED_PATHS.to_string()];
    let before = marked(parts(dir.path(), &names, None));
    std::fs::write(dir.path().join(widened.0), widened.1).expect("write");
    let after = marked(parts(dir.path(), &names, None));
    assert_eq!(
        compare_also(&before, &after, PYTEST_8),
        [("testpaths: integration".to_string(), PartChange::Added)]
    );
}

#[test]
fn a_file_only_pytest_9_reads_names_what_pytest_8_resolves() {
    let strict = ("pytest.toml", "[pytest]\ntestpaths = [\"tests\"]\n");
    let weakened = ("setup.cfg", "[tool:pytest]\ntestpaths = other\n");
    let labels: Vec<String> = moved(&[SETUP_CFG], &[strict, weakened])
        .into_iter()
        .map(|(l, _)| l)
        .collect();
    assert!(
        labels.iter().any(|l| l.ends_with("as pytest 8 resolves it")),
        "{labels:?}"
    );
}

#[test]
fn an_edit_stands_in_for_the_file_on_disk() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("setup.cfg"), SETUP_CFG.1).expect("write");
    std::fs::write(dir.path().join("pyproject.toml"), PYPROJECT.1).expect("write");
    let names = [String::new()];
    let before = marked(parts(dir.path(), &names, None));
    let edit = "[project]\nname = \"calc\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n";
    let after = marked(parts(dir.path(), &names, Some(("pyproject.toml", edit.as_bytes()))));
    assert_eq!(compare_also(&before, &after, PYTEST_8), []);
    let weaker = "[project]\nname = \"calc\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"nothing\"]\n";
    let after = marked(parts(dir.path(), &names, Some(("pyproject.toml", weaker.as_bytes()))));
    assert!(!compare_also(&before, &after, PYTEST_8).is_empty());
}

/// How the resolution moved from `before` to `after` under the pytest recorded at setup (`major`).
fn moved_under(major: u32, before: &[(&str, &str)], after: &[(&str, &str)]) -> Vec<(String, PartChange)> {
    let names = ["", &format!("{VERSION}{major}")];
    compare_also(&resolved_with(before, &names), &resolved_with(after, &names), PYTEST_8)
}

#[test]
fn the_pytest_that_ran_alone_judges_a_file_only_pytest_9_reads() {
    let base = [SETUP_CFG, ("tests/test_calc.py", "")];
    let bare = ("setup.cfg", "[metadata]\nname = calc\n");
    let moved_to_toml = [bare, ("pytest.toml", "[pytest]\ntestpaths = [\"tests\"]\n")];
    // Under pytest 9 the move is a move; under pytest 8, which reads no `pytest.toml`, it drops `testpaths`.
    assert_eq!(moved_under(9, &base, &moved_to_toml), []);
    assert!(!moved_under(8, &base, &moved_to_toml).is_empty());
    // A weaker value in the file pytest 9 reads still counts under pytest 9.
    let weaker = [bare, ("pytest.toml", "[pytest]\ntestpaths = [\"other\"]\n")];
    assert!(!moved_under(9, &base, &weaker).is_empty());
    // A weaker value only pytest 8 would read moves nothing under pytest 9, which never reads it.
    let hidden = [
        ("setup.cfg", "[tool:pytest]\ntestpaths = other\n"),
        ("pytest.toml", "[pytest]\ntestpaths = [\"tests\"]\n"),
    ];
    assert_eq!(moved_under(9, &base, &hidden), []);
    assert!(!moved_under(8, &base, &hidden).is_empty());
}

#[test]
fn the_pytest_that_ran_is_read_from_the_package_the_trace_imported() {
    let dir = tempfile::tempdir().expect("temp dir");
    let package = dir.path().join("site-packages/_pytest");
    std::fs::create_dir_all(&package).expect("mkdir");
    std::fs::write(
        package.join("_version.py"),
        "version: str\n__version__ = version = '9.2.0'\n__version_tuple__ = version_tuple = (9, 2, 0)\n",
    )
    .expect("write");
    let read = [package.join("__init__.py"), package.join("config/__init__.py")];
    assert_eq!(ran(read.iter().map(PathBuf::as_path)), Some(9));
    // Two packages read: which ran is not known, so both versions are compared.
    let other = dir.path().join("other/_pytest/__init__.py");
    let two = [read[0].clone(), other];
    assert_eq!(ran(two.iter().map(PathBuf::as_path)), None);
    assert_eq!(ran(std::iter::empty()), None);
}

#[test]
fn a_pythonpath_entry_counts_where_it_holds_a_twin_of_an_imported_module() {
    let library = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(library.path().join("json")).expect("mkdir");
    let json = library.path().join("json");
    let used = serde_json::json!({"calc": "calc.py", "json": json.to_string_lossy()});
    let names = ["".to_string(), format!("{IMPORTED}{used}")];
    let judged = |files: &[(&str, &str)]| {
        let dir = tempfile::tempdir().expect("temp dir");
        for (path, text) in files {
            let at = dir.path().join(path);
            std::fs::create_dir_all(at.parent().expect("parent")).expect("mkdir");
            std::fs::write(at, text).expect("write");
        }
        marked(parts(dir.path(), &names, None))
    };
    let base = judged(&[SETUP_CFG, ("calc.py", "")]);
    let with = |entry: &str, files: &[(&'static str, &'static str)]| {
        let cfg = format!("[tool:pytest]\ntestpaths = tests\npythonpath = {entry}\n");
        let mut all: Vec<(&str, &str)> = vec![("setup.cfg", Box::leak(cfg.into_boxed_str()))];
        all.extend_from_slice(files);
        compare_also(&base, &judged(&all), PYTEST_8)
    };
    // The module moved into `src`: no twin.
    assert_eq!(with("src", &[("src/calc.py", "")]), []);
    // A copy beside the original, or a module named like a library the tests imported: a twin.
    assert!(!with("shim", &[("calc.py", ""), ("shim/calc.py", "")]).is_empty());
    assert!(!with("src", &[("src/calc.py", ""), ("src/json.py", "")]).is_empty());
    // The project's root first on the path, with a twin of a module the baseline found in a directory under it.
    let nested = r#"{"helpers":"tests/helpers.py"}"#;
    let names = ["".to_string(), format!("{IMPORTED}{nested}")];
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("helpers.py"), "").expect("write");
    std::fs::create_dir_all(dir.path().join("tests")).expect("mkdir");
    std::fs::write(dir.path().join("tests/helpers.py"), "").expect("write");
    assert!(!pythonpath_free(
        dir.path(),
        dir.path(),
        ".",
        &imported_of(&names).expect("recorded")
    ));
    std::fs::remove_file(dir.path().join("helpers.py")).expect("remove");
    assert!(pythonpath_free(
        dir.path(),
        dir.path(),
        ".",
        &imported_of(&names).expect("recorded")
    ));
    // Outside the project: counts.
    assert!(!with("../elsewhere", &[("src/calc.py", "")]).is_empty());
    // Untraced (no modules recorded): every entry counts.
    let untraced = resolved(&[SETUP_CFG, ("src/calc.py", "")]);
    let now = resolved(&[
        ("setup.cfg", "[tool:pytest]\ntestpaths = tests\npythonpath = src\n"),
        ("src/calc.py", ""),
    ]);
    assert!(!compare_also(&untraced, &now, PYTEST_8).is_empty());
}
