use serde_json::json;

use super::*;

fn parts(config: Value) -> (Parts, bool) {
    parts_of(config.as_object().expect("an object"))
}

fn keys(config: Value) -> Vec<String> {
    parts(config).0.into_keys().collect()
}

/// What only prints or times has no part; everything else, a key nobody listed too, has one each.
#[test]
fn free_keys_have_no_part_and_every_other_key_has_one() {
    assert!(
        keys(json!({"testTimeout": 10000, "verbose": true, "silent": true, "seed": 7, "test.testTimeout": 1}))
            .is_empty()
    );
    assert_eq!(
        keys(json!({"testMatch": ["a"], "bail": 1, "anything": 1, "testTimeout (global)": 5})),
        ["anything", "bail", "testMatch"]
    );
}

/// A value that moved changes its key's digest and no other.
#[test]
fn a_moved_value_moves_its_key_only() {
    let (was, _) = parts(json!({"testMatch": ["**/*.test.js"], "roots": ["<rootDir>"]}));
    let (now, _) = parts(json!({"testMatch": ["**/extra.test.js"], "roots": ["<rootDir>"]}));
    assert_eq!(
        parts::compare(&was, &now),
        [("testMatch".to_string(), PartChange::Changed)]
    );
}

/// A Vitest option set to the runner's default is as if absent; another value counts.
#[test]
fn an_option_at_its_default_is_as_if_absent() {
    assert!(keys(json!({"test.environment": "node", "test.passWithNoTests": false})).is_empty());
    assert_eq!(keys(json!({"test.passWithNoTests": true})), ["test.passWithNoTests"]);
}

/// Reporters the runner ships only print; a reporter that is a path is code and counts.
#[test]
fn built_in_reporters_are_free_and_a_custom_one_counts() {
    assert!(keys(json!({"reporters": [["default", {}], ["summary", {}]], "test.reporters": ["verbose"]})).is_empty());
    assert_eq!(
        keys(json!({"reporters": [["default", {}], ["<rootDir>/tools/reporter.js", {}]]})),
        ["reporters"]
    );
    assert_eq!(
        keys(json!({"test.reporters": "./tools/reporter.js"})),
        ["test.reporters"]
    );
    assert_eq!(
        keys(json!({"coverageReporters": ["text", "./mine.js"]})),
        ["coverageReporters"]
    );
}

/// Coverage's own settings are free under a key that counts for what else it holds.
#[test]
fn coverage_settings_are_free_but_its_provider_counts() {
    assert!(keys(json!({"test.coverage": {"enabled": true, "thresholds": {"lines": 90}}})).is_empty());
    assert!(keys(json!({"test.coverage": {"provider": "v8", "enabled": true}})).is_empty());
    assert_eq!(
        keys(json!({"test.coverage": {"provider": "custom", "customProviderModule": "./p.js"}})),
        ["test.coverage"]
    );
}

/// Code in a key that counts is seen (such a reading is not trusted at the baseline); in a free key it is not.
#[test]
fn code_in_a_key_that_counts_is_seen() {
    assert!(parts(json!({"plugins": [{"name": "x", "transform": {"(code)": "transform() {}"}}]})).1);
    assert!(!parts(json!({"testMatch": ["a"]})).1);
    assert!(!parts(json!({"logLevel": {"(code)": "() => 'info'"}})).1);
}
