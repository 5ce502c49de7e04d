//! The selections rebuilt from their entries, walked over a small tree: a widening by new tests is inert, one
//! that takes a helper, a narrowing that drops a sealed test, or an entry outside the runner's directory is not.

use serde_json::json;

use super::*;

fn write(root: &Path, path: &str) {
    let file = root.join(path);
    std::fs::create_dir_all(file.parent().expect("a parent")).expect("mkdir");
    std::fs::write(file, "x").expect("write");
}

fn parts(config: &[(&str, Value)]) -> Parts {
    config
        .iter()
        .flat_map(|(key, value)| entries(key, value).expect("a selection key"))
        .collect()
}

fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for path in [
        "test/calc.test.js",
        "test/helpers/setup.js",
        "test-integration/mul.test.js",
        "src/calc.js",
        "node_modules/x/y.test.js",
    ] {
        write(dir.path(), path);
    }
    dir
}

const NEW: &str = "test-integration/mul.test.js";
const SEALED_TEST: &str = "test/calc.test.js";

fn judge(runner: Runner, root: &Path, sealed: &Parts, now: &Parts) -> bool {
    let may_join = |p: &str| p == NEW || p == SEALED_TEST;
    let may_leave = |p: &str| p == NEW;
    let members = Members {
        may_join: &may_join,
        may_leave: &may_leave,
    };
    inert(runner, root, "", sealed, now, &members)
}

#[test]
fn jest_roots_widened_by_new_tests_is_inert_and_narrowed_past_a_sealed_test_is_not() {
    let dir = tree();
    let jest = |roots: Value, test_match: Value, ignore: Value| {
        parts(&[
            ("roots", roots),
            ("testMatch", test_match),
            ("testRegex", json!([])),
            ("testPathIgnorePatterns", ignore),
        ])
    };
    let default_match = json!([
        "**/__tests__/**/*.?([mc])[jt]s?(x)",
        "**/?(*.)+(spec|test).?([mc])[jt]s?(x)"
    ]);
    let sealed = jest(
        json!(["<rootDir>/test"]),
        default_match.clone(),
        json!(["/node_modules/"]),
    );
    let wider = jest(
        json!(["<rootDir>/test", "<rootDir>/test-integration"]),
        default_match.clone(),
        json!(["/node_modules/"]),
    );
    assert!(judge(Runner::Jest, dir.path(), &sealed, &wider));
    // Every `.js` file under `test/`: the helper that holds no test joins.
    let every = jest(json!(["<rootDir>/test"]), json!(["**/*.js"]), json!(["/node_modules/"]));
    assert!(!judge(Runner::Jest, dir.path(), &sealed, &every));
    // An ignore pattern that drops the sealed test.
    let ignoring = jest(
        json!(["<rootDir>/test"]),
        default_match,
        json!(["/node_modules/", "calc"]),
    );
    assert!(!judge(Runner::Jest, dir.path(), &sealed, &ignoring));
    // A regular expression the `regex` crate cannot spell (a look-ahead) counts.
    let lookahead = parts(&[
        ("roots", json!(["<rootDir>"])),
        ("testMatch", json!([])),
        ("testRegex", json!(["(?=x)"])),
        ("testPathIgnorePatterns", json!([])),
    ]);
    assert!(!judge(Runner::Jest, dir.path(), &sealed, &lookahead));
    // A root outside the project: its files are not walked here, so it counts.
    let outside = jest(
        json!(["<rootDir>/test", "<rootDir>/../shared"]),
        json!(["**/*.test.js"]),
        json!([]),
    );
    assert!(!judge(Runner::Jest, dir.path(), &sealed, &outside));
}

#[test]
fn vitest_include_and_dir_widened_by_new_tests_is_inert_and_exclude_of_a_sealed_test_is_not() {
    let dir = tree();
    let sealed = parts(&[("test.include", json!(["test/**/*.test.js"]))]);
    let wider = parts(&[(
        "test.include",
        json!(["test/**/*.test.js", "test-integration/**/*.test.js"]),
    )]);
    assert!(judge(Runner::Vitest, dir.path(), &sealed, &wider));
    // The default include from an explicit one: here it adds only the new test.
    assert!(judge(Runner::Vitest, dir.path(), &sealed, &Parts::new()));
    // A pattern that takes the helper.
    let helper = parts(&[("test.include", json!(["test/**/*.js"]))]);
    assert!(!judge(Runner::Vitest, dir.path(), &sealed, &helper));
    // An exclude that drops the sealed test.
    let exclude = parts(&[
        ("test.include", json!(["test/**/*.test.js"])),
        ("test.exclude", json!(["**/node_modules/**", "**/.git/**", "**/calc.*"])),
    ]);
    assert!(!judge(Runner::Vitest, dir.path(), &sealed, &exclude));
    // A pattern out of the directory.
    let up = parts(&[("test.include", json!(["test/**/*.test.js", "../shared/**/*.test.js"]))]);
    assert!(!judge(Runner::Vitest, dir.path(), &sealed, &up));
    // `dir` outside the project.
    let outside = parts(&[("test.dir", json!("../elsewhere"))]);
    assert!(!judge(Runner::Vitest, dir.path(), &Parts::new(), &outside));
    // `dir` narrowed to the new tests' directory drops the sealed test.
    let narrowed = parts(&[("test.dir", json!("test-integration"))]);
    assert!(!judge(Runner::Vitest, dir.path(), &Parts::new(), &narrowed));
    // An exclude that lets `node_modules` in: its files are walked (and links there make it count).
    let open = parts(&[("test.exclude", json!([]))]);
    assert!(!judge(Runner::Vitest, dir.path(), &Parts::new(), &open));
}

#[test]
fn an_empty_list_is_not_an_absent_key() {
    assert_ne!(
        parts(&[("test.include", json!([]))]),
        Parts::new(),
        "an empty include selects nothing; an absent one, Vitest's default"
    );
    assert!(entries("testTimeout", &json!(5)).is_none());
    assert!(entries("testMatch", &json!([{"(regexp)": "/x/"}])).is_none());
}
