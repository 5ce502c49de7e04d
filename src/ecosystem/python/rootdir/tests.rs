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

#[test]
fn testpaths_widened_by_a_directory_is_free_and_narrowed_or_by_a_file_counts() {
    let widened = ("setup.cfg", "[tool:pytest]\ntestpaths = tests integration\n");
    assert_eq!(moved(&[SETUP_CFG], &[widened, ("integration/test_x.py", "")]), []);
    // An entry that does not exist yet adds nothing either.
    assert_eq!(moved(&[SETUP_CFG], &[widened]), []);
    assert_eq!(
        moved(&[widened], &[SETUP_CFG]),
        [("testpaths: integration".to_string(), PartChange::Removed)]
    );
    let narrowed = ("setup.cfg", "[tool:pytest]\ntestpaths = integration\n");
    assert_eq!(
        moved(&[SETUP_CFG], &[narrowed]),
        [("testpaths: tests".to_string(), PartChange::Removed)]
    );
    for entry in ["tools/plugin.py", "tools/*", "../elsewhere", "/tmp"] {
        let file = ("tools/plugin.py", "import calc\n");
        let text = format!("[tool:pytest]\ntestpaths = tests {entry}\n");
        let after = [("setup.cfg", text.as_str()), file];
        assert_eq!(
            moved(&[SETUP_CFG, file], &after),
            [(format!("testpaths: {entry}"), PartChange::Added)],
            "{entry}"
        );
    }
    // Where doctests are collected from every module, a new directory's plain modules are imported.
    let doctests = (
        "setup.cfg",
        "[tool:pytest]\ntestpaths = tests\naddopts = --doctest-modules\n",
    );
    let wider = (
        "setup.cfg",
        "[tool:pytest]\ntestpaths = tests tools\naddopts = --doctest-modules\n",
    );
    assert_eq!(
        moved(&[doctests], &[wider]),
        [("testpaths: tools".to_string(), PartChange::Added)]
    );
    // `testpaths` set where the baseline had none narrows what runs.
    let labels: Vec<String> = compare_also(&resolved(&[PYPROJECT]), &resolved(&[PYPROJECT, SETUP_CFG]), PYTEST_8)
        .into_iter()
        .map(|(l, _)| l)
        .collect();
    assert!(labels.contains(&"testpaths".to_string()), "{labels:?}");
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
