//! The runners' own rules, read from real configuration files.

use std::path::Path;

use super::*;
use crate::closure::derive::tests::project;

fn rules(root: &Path, runners: &[Runner]) -> Rules {
    Rules::of(root, runners)
}

#[test]
fn pytest_python_files_from_each_configuration_file() {
    for (file, text) in [
        ("pytest.ini", "[pytest]\npython_files = check_*.py *_checks.py\n"),
        (
            "pytest.toml",
            "[pytest]\npython_files = [\"check_*.py\", \"*_checks.py\"]\n",
        ),
        (
            "pyproject.toml",
            "[tool.pytest.ini_options]\npython_files = [\"check_*.py\", \"*_checks.py\"]\n",
        ),
        ("setup.cfg", "[tool:pytest]\npython_files =\n    check_*.py\n"),
        ("tox.ini", "[pytest]\npython_files = check_*.py\n"),
    ] {
        let dir = project(&[(file, text)]);
        let rules = rules(dir.path(), &[Runner::Pytest]);
        assert!(rules.matches("pkg/check_calc.py"), "{file}: {rules:?}");
        assert!(!rules.matches("pkg/calc.py"), "{file}");
    }
}

#[test]
fn unittest_and_node_test_defaults() {
    let dir = project(&[]);
    let unittest = rules(dir.path(), &[Runner::Unittest]);
    assert!(unittest.matches("app/tests.py") && unittest.matches("testcalc.py"));
    assert!(!unittest.matches("app/models.py"));
    let node = rules(dir.path(), &[Runner::NodeTest]);
    for yes in [
        "test.js",
        "lib/calc_test.js",
        "lib/calc-test.mjs",
        "test-calc.cjs",
        "a/b.test.js",
    ] {
        assert!(node.matches(yes), "{yes}");
    }
    for no in ["lib/calc.js", "lib/testing.js", "contest.js"] {
        assert!(!node.matches(no), "{no}");
    }
    assert!(rules(dir.path(), &[Runner::Cargo, Runner::Go]).is_empty());
}

#[test]
fn jest_test_match_and_test_regex_from_package_json_and_config() {
    let dir = project(&[(
        "package.json",
        r#"{"jest":{"testMatch":["<rootDir>/checks/**/*.check.[jt]s?(x)"]}}"#,
    )]);
    let jest = rules(dir.path(), &[Runner::Jest]);
    assert!(jest.matches("checks/unit/calc.check.js"), "{jest:?}");
    assert!(jest.matches("checks/calc.check.tsx"));
    assert!(!jest.matches("src/calc.js"));

    let dir = project(&[(
        "jest.config.js",
        "module.exports = {\n  testRegex: '(/verify/.*|\\\\.verify)\\\\.js$',\n};\n",
    )]);
    let jest = rules(dir.path(), &[Runner::Jest]);
    assert!(
        jest.matches("verify/calc.js") && jest.matches("src/calc.verify.js"),
        "{jest:?}"
    );
    assert!(!jest.matches("src/calc.js"));
}

#[test]
fn vitest_include_and_mocha_spec() {
    let dir = project(&[(
        "vitest.config.ts",
        "export default defineConfig({ test: { include: ['src/**/*.check.ts'] } })\n",
    )]);
    let vitest = rules(dir.path(), &[Runner::Vitest]);
    assert!(vitest.matches("src/a/calc.check.ts") && !vitest.matches("src/calc.ts"));

    let dir = project(&[(
        ".mocharc.yml",
        "require: ts-node/register\nspec:\n  - 'checks/**/*.js'\n  - verify.js\n",
    )]);
    let mocha = rules(dir.path(), &[Runner::Mocha]);
    assert!(
        mocha.matches("checks/a/b.js") && mocha.matches("verify.js"),
        "{mocha:?}"
    );
    assert!(!mocha.matches("lib/calc.js"));
    let dir = project(&[("package.json", r#"{"mocha":{"spec":"checks/*.spec.js"}}"#)]);
    assert!(rules(dir.path(), &[Runner::Mocha]).matches("checks/a.spec.js"));
}
