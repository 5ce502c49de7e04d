//! Each file judged by the settings it runs under: a configuration split into projects, a project of new tests, a
//! sealed test left to none or given settings of its own.

use std::path::Path;

use serde_json::{Map, Value, json};

use super::*;
use crate::closure::parts::Parts;

fn write(root: &Path, path: &str) {
    let file = root.join(path);
    std::fs::create_dir_all(file.parent().expect("a parent")).expect("mkdir");
    std::fs::write(file, "x").expect("write");
}

const NEW: &str = "packages/fmt/test/fmt.test.js";
const SEALED_TEST: &str = "test/calc.test.js";

/// A Vitest project's document: `include` relative to `root`, a setup file.
fn vitest(root: &str, include: &str, setup: &[&str]) -> Value {
    json!({
        "test.root": root,
        "test.include": [include],
        "test.exclude": ["**/node_modules/**", "**/.git/**"],
        "test.setupFiles": setup,
        "test.environment": "node",
        "test.name": "ignored",
    })
}

/// The parts of a reading: one document at the top level, or projects by name.
fn one(document: Value) -> Parts {
    super::super::keys::parts_of(document.as_object().expect("an object"), true).0
}

fn projects(projects: &[(&str, Value)]) -> Parts {
    let mut config = Map::new();
    for (name, project) in projects {
        config.insert(format!("project \"{name}\""), project.clone());
    }
    super::super::keys::parts_of(&config, true).0
}

/// The judgment of `sealed` → `now` over a tree of a sealed test, a helper, the code and a new test.
fn judged(sealed: &Parts, now: &Parts) -> Result<(), Vec<String>> {
    let dir = tempfile::tempdir().expect("tempdir");
    for path in [SEALED_TEST, "test/helpers.js", NEW, "src/calc.js"] {
        write(dir.path(), path);
    }
    let may_join = |p: &str| p == NEW || p == SEALED_TEST;
    let may_leave = |p: &str| p == NEW;
    let members = Members {
        may_join: &may_join,
        may_leave: &may_leave,
    };
    let moved: Vec<String> = crate::closure::parts::compare(sealed, now)
        .into_iter()
        .map(|(label, _)| label)
        .collect();
    judge(Runner::Vitest, dir.path(), "", sealed, now, &moved, &members)
}

#[test]
fn a_configuration_split_into_projects_is_free_where_each_test_keeps_its_settings() {
    let sealed = one(vitest("<rootDir>", "**/*.test.js", &["<rootDir>/test/setup.js"]));
    let app = (
        "app",
        vitest("<rootDir>", "test/**/*.test.js", &["<rootDir>/test/setup.js"]),
    );
    let fmt = (
        "fmt",
        vitest("<rootDir>/packages/fmt", "**/*.test.js", &["<rootDir>/lenient.js"]),
    );
    assert_eq!(judged(&sealed, &projects(&[app.clone(), fmt])), Ok(()));
    // The name of a project is a label: the same settings under another name are the same.
    let renamed = ("core", app.1.clone());
    assert_eq!(
        judged(&projects(std::slice::from_ref(&app)), &projects(&[renamed])),
        Ok(())
    );
}

#[test]
fn a_sealed_test_left_to_no_project_or_given_settings_of_its_own_counts() {
    let sealed = one(vitest("<rootDir>", "**/*.test.js", &[]));
    let dropped = ("app", vitest("<rootDir>", "test/**/extra.test.js", &[]));
    let reasons = judged(&sealed, &projects(&[dropped])).expect_err("the sealed test runs nowhere");
    assert!(
        reasons[0].contains(SEALED_TEST) && reasons[0].contains("test.include"),
        "{reasons:?}"
    );
    let lenient = ("app", vitest("<rootDir>", "**/*.test.js", &["<rootDir>/lenient.js"]));
    let reasons = judged(&sealed, &projects(&[lenient])).expect_err("another setup file");
    assert!(reasons[0].contains("test.setupFiles"), "{reasons:?}");
    // A second project over the sealed test under the very same settings adds nothing; under others it does.
    let again = ("again", vitest("<rootDir>", "test/**/*.test.js", &[]));
    let same = ("app", vitest("<rootDir>", "**/*.test.js", &[]));
    assert_eq!(judged(&sealed, &projects(&[same.clone(), again])), Ok(()));
    let other = ("other", vitest("<rootDir>", "test/**/*.test.js", &["<rootDir>/x.js"]));
    assert!(judged(&sealed, &projects(&[same, other])).is_err());
}

#[test]
fn a_helper_taken_as_a_test_or_a_new_global_setup_counts() {
    let sealed = one(vitest("<rootDir>", "test/**/*.test.js", &[]));
    let helpers = one(vitest("<rootDir>", "test/**/*.js", &[]));
    let reasons = judged(&sealed, &helpers).expect_err("a helper runs as a test file");
    assert!(reasons[0].contains("test/helpers.js"), "{reasons:?}");
    // A project of new tests only, with a global setup: it runs in the runner's process whatever it takes.
    let app = ("app", vitest("<rootDir>", "test/**/*.test.js", &[]));
    let mut fmt = vitest("<rootDir>/packages/fmt", "**/*.test.js", &[]);
    fmt["test.globalSetup"] = json!(["<rootDir>/patch.js"]);
    let reasons = judged(&projects(std::slice::from_ref(&app)), &projects(&[app, ("fmt", fmt)]))
        .expect_err("a global setup of its own");
    assert!(reasons[0].contains("test.globalSetup"), "{reasons:?}");
}
