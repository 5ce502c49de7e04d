//! The table itself: one row per runner, the persisted names, the facts other modules rely on.

use super::*;

#[test]
fn every_runner_has_its_own_row_and_name() {
    let mut names: Vec<&str> = Runner::all().map(|r| r.name()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), Runner::all().count(), "two runners share a name");
}

#[test]
fn the_persisted_names_load() {
    // Seals written before the table record the closure's runners by these names.
    let old = r#"["pytest","pytest_doctest_modules","unittest","node_test","jest","vitest","mocha","cargo","go"]"#;
    let runners: Vec<Runner> = serde_json::from_str(old).expect("an old seal's runners load");
    assert_eq!(runners.len(), 9);
    assert_eq!(
        serde_json::to_string(&Runner::Nextest).ok().as_deref(),
        Some("\"nextest\"")
    );
}

#[test]
fn pytest_writes_a_report_through_the_environment_and_the_hooks_cover_unittest_jest_vitest_mocha_go_cargo_ruby_phpunit_and_surefire_its_build_dir()
 {
    let private: Vec<Runner> = Runner::all().filter(|r| r.row().report.missing().is_none()).collect();
    assert_eq!(
        private,
        vec![
            Runner::Pytest,
            Runner::PytestDoctestModules,
            Runner::Unittest,
            Runner::Jest,
            Runner::Vitest,
            Runner::Mocha,
            Runner::Cargo,
            Runner::Go,
            Runner::Ctest,
            Runner::Gtest,
            Runner::Minitest,
            Runner::Rspec,
            Runner::Phpunit,
            Runner::Maven
        ]
    );
    assert_eq!(
        Runner::Maven.row().report,
        Report::BuildDir {
            format: super::Format::JunitXml
        }
    );
    assert_eq!(
        Runner::JunitConsole.row().report.missing(),
        Some(NoReport::CommandLineOnly)
    );
    assert_eq!(Runner::Minitest.row().report, Report::HookNamed);
    assert_eq!(Runner::Rspec.row().report, Report::HookNamed);
    assert_eq!(Runner::Unittest.row().report, Report::Hook);
    assert_eq!(Runner::Jest.row().report, Report::Hook);
    assert_eq!(Runner::Cargo.row().report, Report::HookNamed);
    assert_eq!(Runner::Vitest.row().report, Report::Hook);
}

#[test]
fn configuration_file_names_cover_stems_and_sections() {
    let jest = Runner::Jest.row().config.file_names();
    assert!(jest.contains(&"jest.config.ts".to_string()), "{jest:?}");
    let pytest = Runner::Pytest.row().config.file_names();
    assert_eq!(pytest.first().map(String::as_str), Some("pytest.ini"));
    assert!(pytest.contains(&"setup.cfg".to_string()), "{pytest:?}");
}

#[test]
fn configuration_names_are_the_rows_files_and_stems() {
    for name in [
        "pytest.ini",
        ".mocharc.yml",
        "jest.config.ts",
        "vite.config.mjs",
        "vitest.workspace.json",
    ] {
        assert!(is_config_name(name), "{name}");
    }
    for name in [
        "pyproject.toml",
        "nextest.toml",
        "jest.config.bak",
        "jest.configure.js",
        "setup.cfg",
    ] {
        assert!(!is_config_name(name), "{name}");
    }
}

/// pytest's row asks for a JUnit report; the oracle's reader (`room::report`) reads a real one (made by
/// `tests/fixtures/runner-output/regen.sh` with `pytest-fail-reported.txt`, the same run's output) as the output's
/// names, and the output's failures hold in it.
#[test]
fn pytests_report_reads_a_real_capture_as_its_output_does() {
    let Report::Private { format, var, option } = Runner::Pytest.row().report else {
        panic!("pytest's row has a private report");
    };
    assert_eq!(
        (format, var, option),
        (Format::JunitXml, "PYTEST_ADDOPTS", "--junitxml=")
    );
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/runner-output");
    let report = crate::room::report::Report::read(std::path::Path::new(&format!("{dir}/pytest-fail-report.xml")))
        .expect("the capture reads");
    let output = std::fs::read_to_string(format!("{dir}/pytest-fail-reported.txt")).expect("the capture reads");
    let mut scanner = crate::readout::CountScanner::new();
    for line in output.split_inclusive('\n') {
        scanner.feed_line(line.as_bytes());
    }
    let results = scanner.into_results();
    assert!(report.matches(&results), "{report:?}\n{results:?}");
    assert_eq!(report.holds(&results), Some(crate::room::report::Problem::Failed(3)));
}

/// A new `conftest.py` sits out with the new tests only where no sealed file lies in its directory or below; at
/// or above one, or anywhere its path is not plainly inside the project, it counts.
#[test]
fn a_new_per_directory_file_sits_out_only_beside_unsealed_files() {
    let sealed = ["tests/test_calc.py", "pytest.ini", "tests/data/cases.json"];
    let sits_out = |path: &str| sits_out_with_new_tests(Path::new(path), sealed);
    assert!(sits_out("tests/api/conftest.py"));
    assert!(sits_out("tests/api/v2/conftest.py"));
    assert!(
        sits_out("tests/dataset/conftest.py"),
        "a directory is not a prefix of its name"
    );
    assert!(!sits_out("tests/conftest.py"), "above a sealed test");
    assert!(!sits_out("conftest.py"), "at the root, above every sealed file");
    assert!(!sits_out("tests/data/conftest.py"), "beside sealed test data");
    assert!(
        !sits_out("tests/api/helpers.py"),
        "no runner loads it from every directory"
    );
    assert!(!sits_out("tests/api/../conftest.py"));
    assert!(!sits_out("/elsewhere/conftest.py"));
    assert!(
        sits_out_with_new_tests(Path::new("conftest.py"), [] as [&str; 0]),
        "nothing sealed at all"
    );
}

#[test]
fn the_table_keeps_the_ids_and_the_order_seals_were_written_with() {
    // The ids and order of the enum the table was: a seal's closure lists its runners in this order.
    let ids: Vec<String> = Runner::all()
        .map(|r| serde_json::to_string(&r).unwrap_or_default())
        .collect();
    assert_eq!(
        ids.join(","),
        r#""pytest","pytest_doctest_modules","unittest","node_test","jest","vitest","mocha","cargo","nextest","go","bats","ctest","gtest","minitest","rspec","phpunit","maven","junit_console""#
    );
    for runner in Runner::all() {
        let back: Runner = serde_json::from_str(&serde_json::to_string(&runner).unwrap_or_default())
            .unwrap_or_else(|e| panic!("{runner:?} does not load back: {e}"));
        assert_eq!(back, runner);
    }
    let sorted: std::collections::BTreeSet<Runner> = Runner::all().collect::<Vec<_>>().into_iter().rev().collect();
    assert!(
        sorted.into_iter().eq(Runner::all()),
        "a set of runners is ordered as the table"
    );
}

#[test]
fn a_runner_no_longer_in_the_table_fails_to_load_by_its_id() {
    let err = serde_json::from_str::<Vec<Runner>>(r#"["pytest","tape"]"#)
        .map(|_| ())
        .expect_err("a seal naming a runner no longer in the table does not load");
    assert!(err.to_string().contains("unknown runner `tape`"), "{err}");
}

#[test]
fn every_runner_belongs_to_one_ecosystem() {
    for runner in Runner::all() {
        let owners = ECOSYSTEMS.iter().filter(|e| e.runners().contains(&runner)).count();
        assert_eq!(owners, 1, "{runner:?} is listed by {owners} ecosystems");
    }
}
