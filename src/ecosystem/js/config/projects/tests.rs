//! A new project judged by the files it takes and its settings; an old one setting by setting.

use std::path::Path;

use serde_json::{Value, json};

use super::*;
use crate::closure::parts::Parts;

fn write(root: &Path, path: &str) {
    let file = root.join(path);
    std::fs::create_dir_all(file.parent().expect("a parent")).expect("mkdir");
    std::fs::write(file, "x").expect("write");
}

const NEW: &str = "packages/fmt/mul.test.js";
const SEALED_TEST: &str = "test/calc.test.js";

/// The parts of a reading by project: each `(name, config)` a resolved project.
fn reading(projects: &[(&str, Value)]) -> Parts {
    let mut config = serde_json::Map::new();
    config.insert("bail".to_string(), json!(0));
    for (name, project) in projects {
        config.insert(format!("{PROJECT}\"{name}\""), project.clone());
    }
    super::super::keys::parts_of(&config, true).0
}

fn project(test_match: &str, setup: &[&str]) -> Value {
    json!({
        "roots": ["<rootDir>"],
        "testMatch": [test_match],
        "testRegex": [],
        "testPathIgnorePatterns": ["/node_modules/"],
        "setupFiles": setup,
        "testEnvironment": "node",
        "displayName": {"name": "x"},
    })
}

/// Whether every change between `sealed` and `now` is free, over a tree of a sealed test, a helper and a new test.
fn judged_free(sealed: &Parts, now: &Parts) -> bool {
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
    let changes = crate::closure::parts::compare(sealed, now);
    assert!(!changes.is_empty(), "something moved");
    let free = free(Runner::Jest, dir.path(), "", sealed, now, &changes, &members);
    changes.iter().all(|(label, _)| free.contains(label))
}

#[test]
fn a_new_project_of_new_tests_is_free_whatever_its_settings() {
    let unit = ("unit", project("<rootDir>/test/**/*.test.js", &[]));
    let sealed = reading(std::slice::from_ref(&unit));
    let fmt = (
        "fmt",
        project("<rootDir>/packages/fmt/**/*.test.js", &["<rootDir>/lenient.js"]),
    );
    assert!(judged_free(&sealed, &reading(&[unit.clone(), fmt])));
    // Landing first in the list changes nothing: projects are matched by name.
    let docs = ("docs", project("<rootDir>/packages/**/*.test.js", &[]));
    assert!(judged_free(&sealed, &reading(&[docs, unit])));
}

#[test]
fn a_new_project_over_the_sealed_tests_counts_with_settings_of_its_own() {
    let unit = ("unit", project("<rootDir>/test/**/*.test.js", &[]));
    let sealed = reading(std::slice::from_ref(&unit));
    let same = ("again", project("<rootDir>/{test,packages}/**/*.test.js", &[]));
    assert!(judged_free(&sealed, &reading(&[unit.clone(), same])));
    let lenient = (
        "lenient",
        project("<rootDir>/test/**/*.test.js", &["<rootDir>/lenient.js"]),
    );
    assert!(!judged_free(&sealed, &reading(&[unit.clone(), lenient])));
    let mut node_env = project("<rootDir>/test/**/*.test.js", &[]);
    node_env["testEnvironment"] = json!("<rootDir>/env.js");
    assert!(!judged_free(&sealed, &reading(&[unit.clone(), ("env", node_env)])));
    let helper = ("helper", project("<rootDir>/test/*.js", &[]));
    assert!(!judged_free(&sealed, &reading(&[unit, helper])));
}

#[test]
fn an_old_project_narrowed_past_a_sealed_test_or_gone_counts() {
    let unit = ("unit", project("<rootDir>/test/**/*.test.js", &[]));
    let more = ("more", project("<rootDir>/packages/**/*.test.js", &[]));
    let sealed = reading(&[unit.clone(), more.clone()]);
    let narrowed = ("unit", project("<rootDir>/test/none/*.test.js", &[]));
    assert!(!judged_free(&sealed, &reading(&[narrowed, more.clone()])));
    assert!(!judged_free(&sealed, &reading(std::slice::from_ref(&more))));
    let widened = ("unit", project("<rootDir>/{test,packages/fmt}/**/*.test.js", &[]));
    assert!(judged_free(&sealed, &reading(&[widened, more])));
}

#[test]
fn a_project_that_came_or_went_is_told_as_one_change_naming_its_own_keys() {
    let unit = ("unit", project("<rootDir>/test/**/*.test.js", &[]));
    let sealed = reading(std::slice::from_ref(&unit));
    let ready = ("ready", project("<rootDir>/test/**/*.test.js", &["<rootDir>/ready.js"]));
    let now = reading(&[ready]);
    let told = told(&sealed, &now, crate::closure::parts::compare(&sealed, &now));
    let labels: Vec<&str> = told.iter().map(|(label, _)| label.as_str()).collect();
    assert_eq!(
        labels,
        ["project \"unit\"", "project \"ready\" (its own: setupFiles)"],
        "{told:?}"
    );
}
