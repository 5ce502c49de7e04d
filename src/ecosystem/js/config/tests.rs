use serde_json::json;

use super::*;

fn parts(config: Value) -> (Parts, bool) {
    parts_of(config.as_object().expect("an object"), false)
}

/// The keys that count (the whole configuration's part left out where nothing of it is: `parts::NOTHING_SEALED`).
fn keys(config: Value) -> Vec<String> {
    let (parts, _) = parts(config);
    parts
        .into_iter()
        .filter(|(_, digest)| digest != crate::closure::parts::NOTHING_SEALED)
        .map(|(key, _)| key)
        .collect()
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
        ["anything", "bail", "testMatch selects (set)", "testMatch selects a"]
    );
}

/// A value that moved changes its key's digest and no other; a key of the test selection moves by entry
/// (`config::selection`).
#[test]
fn a_moved_value_moves_its_key_only() {
    let (was, _) = parts(json!({"testMatch": ["**/*.test.js"], "roots": ["<rootDir>"]}));
    let (now, _) = parts(json!({"testMatch": ["**/extra.test.js"], "roots": ["<rootDir>"]}));
    assert_eq!(
        parts::compare(&was, &now),
        [
            ("testMatch selects **/*.test.js".to_string(), PartChange::Removed),
            ("testMatch selects **/extra.test.js".to_string(), PartChange::Added)
        ]
    );
    let (bail, _) = parts(json!({"bail": 2, "roots": ["<rootDir>"]}));
    assert_eq!(
        parts::compare(&was, &bail).len(),
        3,
        "`bail` added, `testMatch`'s two entries removed"
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

/// The files a reading takes over: Jest's and Vitest's configuration files of code where the runner runs, grouped
/// by runner and directory; once left to the reading they keep their place in the closure with no part, so
/// creating one moves nothing the closure's own check sees, while Babel's configuration stays sealed.
#[test]
fn the_closure_leaves_the_runners_files_of_code_to_their_reading() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::write(
        root.join("package.json"),
        r#"{"scripts":{"test":"jest --ci && vitest run"}}"#,
    )
    .expect("write");
    let mut closure = Closure::take("npm test", root);
    let groups = left_to_reading(&closure);
    let jest = groups
        .iter()
        .find(|(r, _, _)| *r == Runner::Jest)
        .expect("jest's files");
    assert_eq!(jest.1, "");
    assert!(jest.2.contains(&"jest.config.js".to_string()) && jest.2.contains(&"jest.config.mjs".to_string()));
    // A JSON file is read key by key already; it is not taken over.
    assert!(!jest.2.contains(&"jest.config.json".to_string()));
    let vitest = groups
        .iter()
        .find(|(r, _, _)| *r == Runner::Vitest)
        .expect("vitest's files");
    assert!(vitest.2.contains(&"vite.config.js".to_string()));
    // Vitest 3's workspace file is its projects, which the reading resolves (Vitest 4 reads none).
    assert!(vitest.2.contains(&"vitest.workspace.ts".to_string()));
    assert!(vitest.2.contains(&"vitest.workspace.json".to_string()));
    let resolved: Vec<Resolved> = groups
        .into_iter()
        .map(|(runner, dir, files)| Resolved {
            runner: runner.row().id.to_string(),
            dir,
            files,
            parts: Parts::new(),
            accepted: std::collections::BTreeMap::new(),
            unconfigured: false,
            by_project: false,
            as_run: false,
        })
        .collect();
    closure.leave_configs_to(&resolved, root);
    std::fs::write(root.join("jest.config.js"), "module.exports = { testMatch: [] };\n").expect("write");
    std::fs::write(root.join("babel.config.js"), "module.exports = {};\n").expect("write");
    let moved: Vec<String> = closure.check(root).into_iter().map(|m| m.path).collect();
    assert_eq!(moved, ["babel.config.js"]);
}

/// A reading of `runner` recorded with no configuration (`unconfigured`) in a project at `root` where no runner is
/// installed: any reading taken there fails, and is named, so what `check` names tells whether it read.
fn checked(runner: Runner, root: &Path, unconfigured: bool) -> Vec<String> {
    let log = root.join("verify.log");
    let request = VerifyRequest {
        command: "true",
        cwd: root,
        timeout: Duration::from_secs(60),
        log_path: &log,
        prefix: &[],
        env: None,
        plane: None,
        mount: None,
    };
    let mut sealed = [Resolved {
        runner: runner.row().id.to_string(),
        dir: String::new(),
        files: Vec::new(),
        parts: Parts::new(),
        accepted: std::collections::BTreeMap::new(),
        unconfigured,
        by_project: false,
        as_run: false,
    }];
    check(&mut sealed, &request, Path::new(""), None)
        .into_iter()
        .map(|m| m.part)
        .collect()
}

/// With no configuration at the baseline and none now, a promise takes no reading; one that appears is read (and
/// judged) again, as is every reading of a seal that does not say its baseline had none. Needs `node` on `PATH`
/// (the reading is `node -e`), as the Jest and Vitest cases do.
#[test]
fn a_reading_is_taken_again_only_once_a_configuration_can_answer_otherwise() {
    let node = std::process::Command::new("node").arg("--version").output();
    if !node.is_ok_and(|out| out.status.success()) {
        eprintln!("skipped: no `node` on PATH to take a reading with");
        return;
    }
    let resolves = |parts: &[String]| parts.iter().any(|p| p.contains("does not resolve now"));
    for (runner, file) in [(Runner::Jest, "jest.config.js"), (Runner::Vitest, "vite.config.mjs")] {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::write(root.join("package.json"), r#"{"name": "p"}"#).expect("write");
        let stems = READ.iter().find(|(r, _)| *r == runner).expect("a row").1;
        if !presence::none_from(runner, stems, root.parent().expect("a parent")) {
            eprintln!("skipped: a configuration of {runner:?} stands above {}", root.display());
            continue;
        }
        assert!(
            checked(runner, root, true).is_empty(),
            "{runner:?}: read with no configuration"
        );
        // A seal that does not say its baseline had none is read: here, where the runner is absent, it fails.
        assert!(
            resolves(&checked(runner, root, false)),
            "{runner:?}: a seal from before was not read"
        );
        std::fs::write(root.join(file), "export default {};\n").expect("write");
        assert!(
            resolves(&checked(runner, root, true)),
            "{runner:?}: {file} appeared and was not read"
        );
    }
}

/// Vitest's built-in pools and running the files one at a time are free (how the same tests are spread over
/// workers); a pool that is a path is code that runs and reports the tests, and counts, and so does a key beside
/// them that narrows the run.
#[test]
fn built_in_pools_and_file_parallelism_are_free_and_a_custom_pool_counts() {
    assert!(keys(json!({"test.pool": "forks", "test.fileParallelism": false, "test.maxWorkers": 1})).is_empty());
    assert!(keys(json!({"test.pool": "vmThreads"})).is_empty());
    assert_eq!(keys(json!({"test.pool": "./tools/pool.js"})), ["test.pool"]);
    assert_eq!(
        keys(json!({"test.pool": "forks", "test.include": ["nothing/**"]})),
        ["test.include selects (set)", "test.include selects nothing/**"]
    );
}

/// Coverage's reporters istanbul ships only write reports; one that is a path is code and counts.
#[test]
fn built_in_coverage_reporters_are_free_and_a_custom_one_counts() {
    assert!(
        keys(json!({"test.coverage": {"provider": "v8", "reporter": ["text", "html"], "include": ["src/**"]}}))
            .is_empty()
    );
    assert_eq!(
        keys(json!({"test.coverage": {"reporter": ["text", "./tools/report.js"]}})),
        ["test.coverage"]
    );
    assert_eq!(
        keys(json!({"test.coverage": {"reporter": ["text"], "provider": "custom", "customProviderModule": "./p.js"}})),
        ["test.coverage"]
    );
}

/// `package.json`'s `jest` key frees what a resolved Jest configuration frees (`maxWorkers`), none of Vitest's
/// or Vite's; another runner's key gains nothing.
#[test]
fn the_jest_package_key_frees_the_resolved_configurations_free_keys() {
    let jest = package_free(Runner::Jest);
    assert!(
        jest.contains(&"maxWorkers") && jest.contains(&"maxConcurrency"),
        "{jest:?}"
    );
    assert!(
        jest.iter().all(|key| !key.starts_with("test.") && *key != "logLevel"),
        "{jest:?}"
    );
    assert!(package_free(Runner::Mocha).is_empty());
}

/// Mocha's options: how many files run at once (`parallel`, `jobs`) is free beside the display options, while a
/// `spec` or a `require` beside them still counts.
#[test]
fn mochas_parallel_run_is_free_and_a_spec_beside_it_counts() {
    let free: Vec<Vec<String>> = Runner::Mocha
        .row()
        .config
        .package_free
        .iter()
        .map(|option| vec![(*option).to_string()])
        .collect();
    let scope = Scope::JsonBut {
        paths: vec![Vec::new()],
        free,
    };
    let digest = |text: &str| parts::digests(&scope, Some(text.as_bytes()));
    assert_eq!(digest(r#"{"parallel": true, "jobs": 2, "color": false}"#), digest("{}"));
    for counts in [
        r#"{"parallel": true, "jobs": 2, "spec": "test/fixtures/*.json"}"#,
        r#"{"parallel": true, "require": "./pass.js"}"#,
    ] {
        assert_ne!(digest(counts), digest("{}"), "{counts}");
    }
}

/// Vitest's resolution draws a shuffled order's seed afresh at each reading: it is free, the shuffle is not.
#[test]
fn a_shuffled_orders_seed_is_free_and_the_shuffle_counts() {
    let seeded = |seed: u64, shuffle: bool| parts(json!({"test.sequence": {"seed": seed, "shuffle": shuffle}})).0;
    assert_eq!(seeded(1, true), seeded(2, true));
    assert_ne!(seeded(1, true), seeded(1, false));
}

/// One table for both spellings: every free option of Jest's and Vitest's command lines
/// (`runner::js::COMMAND_LINES`) is free as the key of their resolved configuration it sets, with the same value,
/// but the few that exist only on the command line.
#[test]
fn a_free_option_on_the_command_line_is_free_in_the_configuration() {
    const COMMAND_LINE_ONLY: &[&str] = &["runInBand", "colors"];
    let renamed = |runner: &str, option: &str| match (runner, option) {
        ("jest", "coverage") => "collectCoverage".to_string(),
        ("vitest", "reporter") => "test.reporters".to_string(),
        ("vitest", option) => format!("test.{option}"),
        (_, option) => option.to_string(),
    };
    let mut checked = 0;
    for line in crate::runner::js::COMMAND_LINES {
        let Some(runner) = ["jest", "vitest"].into_iter().find(|r| line.programs.contains(r)) else {
            continue;
        };
        for (option, takes) in line.options {
            if COMMAND_LINE_ONLY.contains(option) {
                continue;
            }
            let value = match takes {
                crate::runner::Takes::Flag => json!(false),
                crate::runner::Takes::Count => json!(2),
                crate::runner::Takes::OneOf(values) if option.ends_with('s') || *option == "reporter" => {
                    json!(values)
                }
                crate::runner::Takes::OneOf(values) => json!(values[values.len() - 1]),
            };
            let key = renamed(runner, option);
            let config = Value::Object(Map::from_iter([(key.clone(), value)]));
            assert_eq!(keys(config), Vec::<String>::new(), "{runner} --{option} as `{key}`");
            checked += 1;
        }
    }
    assert!(checked > 20, "{checked} options checked");
}

/// The start hook frees the same reporters on Vitest's command line as the closure does.
#[test]
fn the_start_hook_knows_vitests_reporters_as_the_closure_does() {
    let hook = include_str!("../report.cjs");
    let listed = hook
        .lines()
        .find_map(|line| line.trim().strip_prefix("const VITEST_REPORTERS = ["))
        .and_then(|rest| rest.strip_suffix("];"))
        .expect("the hook lists Vitest's reporters");
    let listed: Vec<&str> = listed.split(", ").map(|r| r.trim_matches('\'')).collect();
    assert_eq!(listed, crate::runner::js::VITEST_REPORTERS);
}
