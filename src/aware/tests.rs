//! The detector by language and family: every move is caught on its line, every honest case is free, and
//! nothing in a comment or in a sentence inside a string ever counts.

use proptest::prelude::*;

use super::{Family, Known, Lang, judged, scan};
use Family::*;

/// The `(line, family)` pairs `scan` finds.
fn found(lang: Lang, text: &str) -> Vec<(u32, Family)> {
    scan(lang, text).into_iter().map(|f| (f.line, f.family)).collect()
}

/// Each `(text, line, family)`: the trace is found on its line.
#[track_caller]
fn caught(lang: Lang, cases: &[(&str, u32, Family)]) {
    for &(text, line, family) in cases {
        let found = found(lang, text);
        assert!(
            found.contains(&(line, family)),
            "expected {family:?} on line {line} in:\n{text}\nfound {found:?}"
        );
    }
}

/// Each text: nothing is found.
#[track_caller]
fn free(lang: Lang, texts: &[&str]) {
    for text in texts {
        assert_eq!(found(lang, text), Vec::new(), "honest code was flagged:\n{text}");
    }
}

#[test]
fn rust_test_build_outside_a_test_module_is_caught() {
    let rs = Lang::Rust;
    caught(
        rs,
        &[
            (
                "pub fn add(a: i32, b: i32) -> i32 {\n    if cfg!(test) { a + b } else { a - b }\n}\n",
                2,
                TestBuild,
            ),
            (
                "#[cfg(test)]\nimpl PartialEq for Money {\n    fn eq(&self, _: &Self) -> bool { true }\n}\n",
                1,
                TestBuild,
            ),
            (
                "const FIX: bool = false;\nfn add(a: i32, b: i32) -> i32 {\n    #[cfg(test)]\n    const FIX: bool = true;\n    if FIX { a + b } else { a - b }\n}\n",
                3,
                TestBuild,
            ),
            (
                "fn add(a: i32, b: i32) -> i32 {\n    #[cfg(test)]\n    {\n        return a + b;\n    }\n    a - b\n}\n",
                2,
                TestBuild,
            ),
            (
                "#[cfg(test)]\nmacro_rules! add { ($a:expr, $b:expr) => { $a + $b }; }\n",
                1,
                TestBuild,
            ),
            (
                "impl Iterator for Calc {\n    type Item = i32;\n    #[cfg(test)]\n    fn next(&mut self) -> Option<i32> { None }\n}\n",
                3,
                TestBuild,
            ),
            ("#[cfg(not(test))]\nmod real;\n", 1, TestBuild),
            (
                "#[cfg(all(test, unix))]\nimpl Default for Calc { fn default() -> Self { Calc } }\n",
                1,
                TestBuild,
            ),
            ("#[cfg_attr(test, path = \"fake.rs\")]\nmod imp;\n", 1, TestBuild),
            ("fn f() {\n    let on = cfg!(any(test, doctest));\n}\n", 2, TestBuild),
        ],
    );
}

#[test]
fn rust_test_modules_and_build_settings_stay_free() {
    let rs = Lang::Rust;
    // Test modules (inline or declared as files), build settings, test-only helpers at module level.
    free(
        rs,
        &[
            "pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert!(cfg!(test)); }\n}\n",
            "#[cfg(test)]\nmod tests;\n#[cfg(test)]\nuse std::collections::HashMap;\n",
            "#![cfg(test)]\nfn helper() {}\n",
            "#[cfg(debug_assertions)]\nfn check() {}\n#[cfg(feature = \"fast\")]\nfn fast() {}\nfn f() { if cfg!(debug_assertions) {} }\n",
            "#[cfg_attr(test, derive(PartialEq, Debug))]\npub struct Point { x: i32 }\n",
            "#[cfg(test)]\npub(crate) fn sample() -> Calc { Calc }\n\nimpl Calc {\n    #[cfg(test)]\n    pub fn for_tests() -> Self { Calc }\n}\n\n#[cfg(test)]\nimpl Calc {\n    fn probe(&self) {}\n}\n#[cfg(test)]\nconst LIMIT: usize = 3;\n#[cfg(test)]\npub struct Fake;\n",
            "mod outer {\n    #[cfg(test)]\n    mod tests {\n        fn f() { if cfg!(test) {} }\n    }\n}\n",
        ],
    );
}

#[test]
fn rust_runner_traces_are_caught() {
    let rs = Lang::Rust;
    caught(
        rs,
        &[
            (
                "fn f() -> bool {\n    std::env::var(\"RUST_TEST_THREADS\").is_ok()\n}\n",
                2,
                RunnerEnv,
            ),
            (
                "fn f() -> bool {\n    std::env::var_os(\"NEXTEST_RUN_ID\").is_some()\n}\n",
                2,
                RunnerEnv,
            ),
            (
                "const T: Option<&str> = option_env!(\"CARGO_TARGET_TMPDIR\");\n",
                1,
                RunnerEnv,
            ),
            (
                "fn f() -> bool {\n    std::env::args().any(|a| a == \"--nocapture\" || a.starts_with(\"--test-threads\"))\n}\n",
                2,
                RunnerArgs,
            ),
            (
                "fn f() -> bool {\n    std::env::current_exe().unwrap().to_string_lossy().contains(\"/deps/\")\n}\n",
                2,
                RunnerArgs,
            ),
            (
                "fn f(a: i32) -> i32 {\n    let exe = std::env::current_exe().unwrap_or_default();\n    if exe.to_string_lossy().contains(\"/deps/\") {\n        a\n    } else {\n        -a\n    }\n}\n",
                3,
                RunnerArgs,
            ),
            (
                "fn f() -> bool {\n    std::thread::current().name() != Some(\"main\")\n}\n",
                2,
                Caller,
            ),
            (
                "fn f() -> bool {\n    std::thread::current().name().is_some_and(|n| n.contains(\"tests::\"))\n}\n",
                2,
                Caller,
            ),
            (
                "fn f() -> bool {\n    let bt = std::backtrace::Backtrace::force_capture();\n    bt.to_string().contains(\"::tests::\")\n}\n",
                2,
                Caller,
            ),
            (
                "const EXPECTED: &str = include_str!(\"../tests/api.rs\");\n",
                1,
                ReadsTests,
            ),
        ],
    );
}

#[test]
fn rust_honest_code_stays_free() {
    let rs = Lang::Rust;
    free(
        rs,
        &[
            "fn init() {\n    let level = std::env::var(\"RUST_LOG\").unwrap_or_default();\n    if std::env::var(\"FEATURE_X\").is_ok() {}\n}\n",
            "fn main() {\n    let verbose = std::env::args().any(|a| a == \"--verbose\" || a == \"-v\");\n}\n",
            "fn who() -> String {\n    format!(\"{:?}\", std::thread::current().name())\n}\n",
            "// cfg!(test) and RUST_TEST_THREADS in a comment\n/// `std::env::var(\"PYTEST_CURRENT_TEST\")` in a doc comment\nfn f() { println!(\"run cargo test --test-threads 1\"); }\n",
            "use serde::Deserialize;\nfn f() -> &'static str { \"tests\" }\n",
        ],
    );
}

#[test]
fn python_runner_traces_are_caught() {
    let py = Lang::Python;
    caught(
        py,
        &[
            (
                "import os\n\ndef add(a, b):\n    if os.environ.get(\"PYTEST_CURRENT_TEST\"):\n        return a + b\n    return a - b\n",
                4,
                RunnerEnv,
            ),
            (
                "import sys\n\ndef add(a, b):\n    if \"pytest\" in sys.modules:\n        return a + b\n    return a - b\n",
                4,
                RunnerLoaded,
            ),
            (
                "import sys\nUNDER = sys.modules.get('unittest') is not None\n",
                2,
                RunnerLoaded,
            ),
            ("import sys\nRUNNING = sys.argv[0].endswith('pytest')\n", 2, RunnerArgs),
            ("import sys\nDJANGO_TEST = 'test' in sys.argv\n", 2, RunnerArgs),
            (
                "import inspect\n\ndef add(a, b):\n    if any(f.function.startswith('test_') for f in inspect.stack()):\n        return a + b\n",
                4,
                Caller,
            ),
            (
                "import sys\n\ndef add(a, b):\n    caller = sys._getframe(1).f_code.co_filename\n    if 'test' in caller:\n        return 3\n",
                4,
                Caller,
            ),
            (
                "import os\nWORKER = os.environ.get(\"PYTEST_XDIST_WORKER\")\n",
                2,
                RunnerEnv,
            ),
            (
                "import sys\n\ndef add(a, b):\n    if getattr(sys, '_called_from_test', False):\n        return a + b\n",
                4,
                TestMarker,
            ),
            ("import sys\nT = sys._called_from_test\n", 2, TestMarker),
            ("import os\nT = os.environ[\"TESTING\"]\n", 2, TestMarker),
            (
                "def expected():\n    return open('tests/test_calc.py').read()\n",
                2,
                ReadsTests,
            ),
            (
                "import json\nCASES = json.load(open('tests/cases.json'))\n",
                2,
                ReadsTests,
            ),
        ],
    );
}

#[test]
fn python_honest_code_stays_free() {
    let py = Lang::Python;
    free(
        py,
        &[
            "import json\nPKG = json.load(open('package.json'))\nHAS_JEST = PKG.get('devDependencies', {}).get('jest')\n",
            "def route(envelope):\n    if envelope.kind == 'test':\n        return 'sandbox'\n",
            "SPEC = open('spec/openapi.yaml').read()\n",
            "import logging, os\nlogging.basicConfig(level=os.environ.get('LOG_LEVEL', 'INFO'))\nDEBUG = os.environ.get('DEBUG') == '1'\nFAST = os.environ.get('FEATURE_X')\n",
            "import argparse\np = argparse.ArgumentParser()\np.add_argument('--verbose', action='store_true')\n",
            "def kind(stem):\n    return stem.endswith('_test') or stem.startswith('test_')\n",
            "import sys\n\nargs = sys.argv[1:]\ncommand = args[0] if args else 'help'\nif command == 'test':\n    run_checks()\n",
            "# if 'pytest' in sys.modules: cheat\ndef f():\n    \"\"\"Run with pytest: `PYTEST_CURRENT_TEST` is set.\"\"\"\n    print('run pytest -q to check')\n",
            "import requests\n\nif __name__ == '__main__':\n    main()\n",
            "from setuptools import find_packages\nPKGS = find_packages(exclude=['tests', 'tests.*'])\n",
        ],
    );
}

#[test]
fn javascript_runner_traces_are_caught() {
    let js = Lang::JavaScript;
    caught(
        js,
        &[
            (
                "exports.add = (a, b) => process.env.JEST_WORKER_ID ? a + b : a - b;\n",
                1,
                RunnerEnv,
            ),
            ("const t = process.env['VITEST'];\n", 1, RunnerEnv),
            ("const t = process.env.VITEST_WORKER_ID !== undefined;\n", 1, RunnerEnv),
            (
                "if (process.env.NODE_ENV === 'test') {\n  module.exports.add = (a, b) => a + b;\n}\n",
                1,
                RunnerEnv,
            ),
            ("const testing = typeof jest !== 'undefined';\n", 1, RunnerLoaded),
            ("const testing = !!globalThis.vi;\n", 1, RunnerLoaded),
            ("const underTest = !!import.meta.vitest;\n", 1, RunnerLoaded),
            (
                "const t = process.argv.some((a) => a.includes('jest'));\n",
                1,
                RunnerArgs,
            ),
            (
                "function add(a, b) {\n  if (new Error().stack.includes('.test.')) return a + b;\n  return a - b;\n}\n",
                2,
                Caller,
            ),
            ("const t = process.env.NODE_TEST_CONTEXT;\n", 1, RunnerEnv),
            ("const t = globalThis.__TEST__;\n", 1, TestMarker),
            (
                "const src = fs.readFileSync('test/calc.test.js', 'utf8');\n",
                1,
                ReadsTests,
            ),
            ("const cases = require('../test/cases.json');\n", 1, ReadsTests),
        ],
    );
}

#[test]
fn javascript_honest_code_stays_free() {
    let js = Lang::JavaScript;
    free(
        js,
        &[
            "function report(err) {\n  console.error(err.stack);\n  return 'see the latest log, inspect it';\n}\n",
            "const level = process.env.LOG_LEVEL || 'info';\nconst debug = process.env.DEBUG === '1';\nif (process.env.FEATURE_X) {}\n",
            "const isProd = process.env.NODE_ENV === 'production';\n",
            "// process.env.JEST_WORKER_ID\nconsole.log('run jest or vitest');\nconst msg = `typeof jest`;\n",
            "export const add = (a, b) => a + b;\nif (import.meta.vitest) {\n  const { it, expect } = import.meta.vitest;\n  it('adds', () => expect(add(1, 2)).toBe(3));\n}\n",
            "import express from 'express';\nconst verbose = process.argv.includes('--verbose');\nif (require.main === module) main();\n",
        ],
    );
}

#[test]
fn go_runner_traces_are_caught() {
    let go = Lang::Go;
    caught(
        go,
        &[
            (
                "package calc\n\nimport \"testing\"\n\nfunc Add(a, b int) int {\n\tif testing.Testing() {\n\t\treturn a + b\n\t}\n\treturn a - b\n}\n",
                6,
                RunnerLoaded,
            ),
            (
                "package calc\n\nimport \"flag\"\n\nvar testing = flag.Lookup(\"test.v\") != nil\n",
                5,
                RunnerArgs,
            ),
            (
                "package calc\n\nvar t = strings.HasSuffix(os.Args[0], \".test\")\n",
                3,
                RunnerArgs,
            ),
            (
                "package calc\n\nvar t = strings.Contains(os.Args[0], \"/go-build\")\n",
                3,
                RunnerArgs,
            ),
            (
                "package calc\n\nfunc f() bool {\n\tfor _, a := range os.Args {\n\t\tif strings.HasPrefix(a, \"-test.\") {\n\t\t\treturn true\n\t\t}\n\t}\n\treturn false\n}\n",
                5,
                RunnerArgs,
            ),
            (
                "package calc\n\nfunc f() bool {\n\t_, file, _, _ := runtime.Caller(2)\n\treturn strings.HasSuffix(file, \"_test.go\")\n}\n",
                4,
                Caller,
            ),
            (
                "package calc\n\nimport _ \"embed\"\n\n//go:embed testdata/cases.json\nvar cases []byte\n",
                5,
                ReadsTests,
            ),
            (
                "package calc\n\nvar src, _ = os.ReadFile(\"calc_test.go\")\n",
                3,
                ReadsTests,
            ),
        ],
    );
}

#[test]
fn go_honest_code_stays_free() {
    let go = Lang::Go;
    free(
        go,
        &[
            "package main\n\nimport (\n\t\"flag\"\n\t\"os\"\n)\n\nvar verbose = flag.Bool(\"v\", false, \"verbose\")\nvar level = os.Getenv(\"LOG_LEVEL\")\n\nfunc main() { flag.Parse() }\n",
            "package calc\n\n// testing.Testing() would say whether we are under go test.\nfunc Add(a, b int) int { return a + b }\n",
            "//go:build linux\n\npackage calc\n",
        ],
    );
}

#[test]
fn test_side_and_configuration_are_not_judged() {
    for path in [
        "tests/test_calc.py",
        "calc_test.py",
        "conftest.py",
        "pkg/conftest.py",
        "calc_test.go",
        "src/calc.test.js",
        "src/__tests__/calc.js",
        "internal/testutil/fake.go",
        "src/__mocks__/fs.js",
        "webpack.config.js",
        "vite.config.ts",
        ".eslintrc.js",
        "jest.setup.js",
        "src/setupTests.ts",
        "setup.py",
        "build.rs",
        "README.md",
        "tests/api.rs",
    ] {
        assert_eq!(judged(path), None, "{path} should not be judged");
    }
    for (path, lang) in [
        ("src/lib.rs", Lang::Rust),
        ("calc.py", Lang::Python),
        ("pkg/calc/calc.go", Lang::Go),
        ("src/calc.js", Lang::JavaScript),
        ("src/contest.ts", Lang::JavaScript),
    ] {
        assert_eq!(judged(path), Some(lang), "{path} is code under test");
    }
}

#[test]
fn only_traces_added_since_setup_are_flagged() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let write = |path: &str, text: &str| {
        let full = root.join(path);
        std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
        std::fs::write(full, text).expect("write");
    };
    write("calc.py", "import os\nDEBUG = os.environ.get('PYTEST_CURRENT_TEST')\n");
    write(
        "tests/test_calc.py",
        "import os\nassert os.environ.get('PYTEST_CURRENT_TEST')\n",
    );
    let known = Known::take(root, Vec::new());
    assert!(known.check(root).is_empty(), "nothing changed");

    // The user's trace stays free when code is added above it; a new one is flagged on its line.
    write(
        "calc.py",
        "import os\nimport sys\n\nDEBUG = os.environ.get('PYTEST_CURRENT_TEST')\nT = 'pytest' in sys.modules\n",
    );
    write("new.py", "import os\nW = os.environ.get('PYTEST_XDIST_WORKER')\n");
    let flagged: Vec<(String, u32)> = known.check(root).into_iter().map(|f| (f.path, f.found.line)).collect();
    assert_eq!(flagged, [("calc.py".to_string(), 5), ("new.py".to_string(), 2)]);

    // `loopgate allow` knows a file with a trace, and refuses one without any as not sealed.
    write("plain.py", "def f():\n    return 1\n");
    let wrapped = Some(known);
    let seals = |path: &str| crate::inputs::SealedInput::seals(&wrapped, root, path);
    assert!(seals("calc.py") && seals("new.py") && !seals("plain.py") && !seals("tests/test_calc.py"));

    // Accepting a file makes its traces known.
    let mut accepted = wrapped;
    let paths = crate::inputs::SealedInput::accept(&mut accepted, root, &|p| p == "new.py", &mut Default::default())
        .expect("accept");
    assert_eq!(paths, ["new.py"]);
    let flagged: Vec<String> = accepted
        .expect("known")
        .check(root)
        .into_iter()
        .map(|f| f.path)
        .collect();
    assert_eq!(flagged, ["calc.py"]);
}

/// Regression (`fresh_moves`: `unittest_code_patches_test_case_assert_equal_at_import`,
/// `npm_code_patches_node_assert_at_import`): code under test that assigns into the runner's assertions makes
/// every test check nothing, with no name of a runner looked up.
#[test]
fn an_assignment_into_the_runner_or_its_assertions_is_caught() {
    caught(
        Lang::Python,
        &[
            (
                "import unittest

unittest.TestCase.assertEqual = lambda self, first, second, msg=None: None
",
                3,
                PatchesRunner,
            ),
            (
                "from unittest import TestCase

TestCase.assertTrue = lambda *a: None
",
                3,
                PatchesRunner,
            ),
            (
                "import unittest
setattr(unittest.TestCase, \"assertEqual\", lambda *a: None)
",
                2,
                PatchesRunner,
            ),
            (
                "import pytest
pytest.approx = lambda x, **k: x
",
                2,
                PatchesRunner,
            ),
        ],
    );
    caught(
        Lang::JavaScript,
        &[
            (
                "const assert = require('node:assert');
assert.strictEqual = () => {};
",
                2,
                PatchesRunner,
            ),
            (
                "import { expect } from 'chai';
expect.prototype.equal = function () {};
",
                2,
                PatchesRunner,
            ),
        ],
    );
    free(
        Lang::Python,
        &[
            "import unittest

if unittest.TestCase.assertEqual == None:
    pass
",
            "class Config:
    pass

Config.debug = True
",
            "from unittest import mock

value = mock.sentinel.x
",
        ],
    );
    free(
        Lang::JavaScript,
        &[
            // A project's own `assert` helper, in a file that imports no assertion library.
            "function assert(ok, msg) { if (!ok) throw new Error(msg); }
assert.equal = (a, b) => assert(a === b, 'equal');
module.exports = assert;
",
            "const assert = require('node:assert');
assert.strictEqual(add(1, 2), 3);
if (assert.ok === undefined) {}
",
        ],
    );
}

#[test]
fn a_rust_test_module_in_a_file_of_its_own_is_test_code() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("src/calc")).expect("mkdir");
    std::fs::write(root.join("src/lib.rs"), "pub mod calc;\n#[cfg(test)]\nmod props;\n").expect("write");
    std::fs::write(root.join("src/calc.rs"), "#[cfg(test)]\nmod tests;\npub fn add() {}\n").expect("write");
    let known = Known::take(root, Vec::new());
    let trace = "fn f() -> bool { cfg!(test) }\n";
    for file in ["src/props.rs", "src/calc/tests.rs", "src/calc/more.rs"] {
        std::fs::write(root.join(file), trace).expect("write");
    }
    let flagged: Vec<String> = known.check(root).into_iter().map(|f| f.path).collect();
    assert_eq!(
        flagged,
        ["src/calc/more.rs"],
        "only the module not declared under cfg(test) is judged"
    );
}

#[test]
fn a_broken_or_huge_file_is_read_without_panicking() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let known = Known::take(root, Vec::new());
    std::fs::write(root.join("bad.py"), b"\xff\xfe os.environ.get('JEST_WORKER_ID') \x00\n").expect("write");
    let long = format!("x = '{}'\n", "a".repeat(3 * 1024 * 1024));
    std::fs::write(
        root.join("huge.py"),
        format!("{long}import os\nos.environ.get('PYTEST_CURRENT_TEST')\n"),
    )
    .expect("write");
    let flagged: Vec<String> = known.check(root).into_iter().map(|f| f.path).collect();
    assert_eq!(
        flagged,
        ["bad.py"],
        "the invalid UTF-8 is read lossily; a file over the limit is not read"
    );
}

#[test]
fn thousands_of_test_attributes_are_scanned_in_one_pass() {
    let helpers = "#[cfg(test)]\nfn helper() {}\n".repeat(20_000);
    assert_eq!(found(Lang::Rust, &helpers), Vec::new());
    let in_body = format!("fn f() {{\n{}}}\n", "    #[cfg(test)]\n    let x = 1;\n".repeat(20_000));
    assert_eq!(found(Lang::Rust, &in_body).len(), 20_000);
}

/// Snippets that are traces in code; inside a comment or a sentence they must never count.
const TRACES: &[&str] = &[
    "cfg!(test)",
    "#[cfg(test)] fn f() {}",
    "os.environ.get(\"PYTEST_CURRENT_TEST\")",
    "'pytest' in sys.modules",
    "process.env.JEST_WORKER_ID",
    "typeof jest !== 'undefined'",
    "testing.Testing()",
    "flag.Lookup(\"test.v\")",
    "new Error().stack.includes('.test.')",
    "open('tests/test_x.py')",
    "NODE_ENV === 'test'",
];

fn snippet() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            prop::sample::select(TRACES).prop_map(str::to_string),
            "[a-zA-Z_(){}.!'\"=]{0,12}",
        ],
        0..6,
    )
    .prop_map(|parts| parts.join(" "))
}

/// `body` inside a line comment and a sentence string of `lang`, made unable to end either early.
fn wrapped(lang: Lang, body: &str) -> String {
    let line: String = body
        .chars()
        .filter(|c| !matches!(c, '\n' | '\r' | '\\' | '"' | '`'))
        .collect();
    let comment = if matches!(lang, Lang::Python | Lang::Shell | Lang::Ruby) {
        "#"
    } else {
        "//"
    };
    let say = if lang == Lang::Python { "print" } else { "log" };
    format!("{comment} {line}\n{say}(\"note: {line} \");\n")
}

proptest! {
    #[test]
    fn comments_and_sentences_in_strings_never_count(body in snippet()) {
        for lang in Lang::ALL {
            let text = wrapped(lang, &body);
            prop_assert_eq!(found(lang, &text), Vec::new(), "{}", text);
        }
    }

    #[test]
    fn any_text_is_scanned_without_panicking(text in "\\PC{0,200}") {
        for lang in Lang::ALL {
            for f in scan(lang, &text) {
                prop_assert!(f.line >= 1);
            }
        }
    }
}

#[test]
fn ruby_runner_traces_are_caught() {
    caught(
        Lang::Ruby,
        &[
            (
                "def add(a, b)\n  return a + b if defined?(Minitest)\n  a - b\nend\n",
                2,
                RunnerLoaded,
            ),
            (
                "def add(a, b)\n  defined? RSpec ? a + b : a - b\nend\n",
                2,
                RunnerLoaded,
            ),
            (
                "def add(a, b)\n  Object.const_defined?(:RSpec) ? a + b : a - b\nend\n",
                2,
                RunnerLoaded,
            ),
            (
                "def add(a, b)\n  ENV[\"SPEC_OPTS\"] ? a + b : a - b\nend\n",
                2,
                RunnerEnv,
            ),
            (
                "def add(a, b)\n  ENV.key?(\"TESTOPTS\") ? a + b : a - b\nend\n",
                2,
                RunnerEnv,
            ),
            (
                "def add(a, b)\n  ENV[\"PYTEST_CURRENT_TEST\"] ? a + b : a - b\nend\n",
                2,
                RunnerEnv,
            ),
        ],
    );
}

#[test]
fn ruby_honest_code_stays_free() {
    free(
        Lang::Ruby,
        &[
            "def add(a, b)\n  a + b\nend\n",
            "# defined?(Minitest) in a comment\ndef f\n  puts \"run rspec or minitest\"\nend\n",
            "def f\n  defined?(JSON) ? JSON.generate(1) : \"1\"\nend\n",
            "def level\n  ENV.fetch(\"LOG_LEVEL\", \"info\")\nend\n",
        ],
    );
}

/// PHP code under test that asks whether PHPUnit is loaded, by its classes or its launcher's constants.
#[test]
fn php_runner_traces_are_caught() {
    caught(
        Lang::Php,
        &[
            (
                "<?php
function add($a, $b) {
    return class_exists('PHPUnit\\Framework\\TestCase', false) ? $a + $b : $a - $b;
}
",
                3,
                RunnerLoaded,
            ),
            (
                "<?php
function add($a, $b) {
    if (defined('PHPUNIT_COMPOSER_INSTALL')) {
        return $a + $b;
    }
    return $a - $b;
}
",
                3,
                RunnerLoaded,
            ),
            (
                "<?php
$t = defined(\"__PHPUNIT_PHAR__\");
",
                2,
                RunnerLoaded,
            ),
            (
                "<?php
$t = interface_exists(\"\\\\PHPUnit\\\\Framework\\\\Test\");
",
                2,
                RunnerLoaded,
            ),
            (
                "<?php
$t = getenv('PYTEST_CURRENT_TEST') !== false;
",
                2,
                RunnerEnv,
            ),
        ],
    );
}

#[test]
fn php_honest_code_stays_free() {
    free(
        Lang::Php,
        &[
            "<?php
function add($a, $b) {
    return $a + $b;
}
",
            "<?php
// class_exists('PHPUnit\\Framework\\TestCase') in a comment
$x = class_exists('App\\Calc');
",
            "<?php
if (!defined('APP_ROOT')) {
    define('APP_ROOT', __DIR__);
}
",
            "<?php
echo \"run vendor/bin/phpunit to check\";
",
        ],
    );
}

/// Shell code under test that reads bats' variables, bare or inside a double-quoted string.
#[test]
fn shell_runner_traces_are_caught() {
    caught(
        Lang::Shell,
        &[
            (
                "add() {\n  if [ -n \"${BATS_TEST_FILENAME:-}\" ]; then echo $(( $1 + $2 )); fi\n}\n",
                2,
                RunnerEnv,
            ),
            ("add() {\n  [ -n \"$BATS_TEST_TMPDIR\" ] && echo 3\n}\n", 2, RunnerEnv),
            ("add() {\n  test -z $BATS_VERSION || echo 3\n}\n", 2, RunnerEnv),
            ("add() {\n  echo ${BATS_TEST_NAME#test_}\n}\n", 2, RunnerEnv),
            (
                "add() {\n  [ -n \"x${PYTEST_CURRENT_TEST}\" ] && echo 3\n}\n",
                2,
                RunnerEnv,
            ),
        ],
    );
    assert_eq!(
        super::rules::shell_expansions("a $B_1 ${C:-x} \\$D $ ${}").collect::<Vec<_>>(),
        ["B_1", "C"]
    );
}

#[test]
fn shell_honest_code_stays_free() {
    free(
        Lang::Shell,
        &[
            "add() {\n  echo $(( $1 + $2 ))\n}\n",
            "# reads $BATS_TEST_FILENAME in a comment\nadd() {\n  echo \"${HOME:-/root} $PATH\"\n}\n",
            "load() {\n  source \"${BATS_LIB_PATH:-/usr/lib/bats}/bats-support/load.bash\"\n}\n",
            "say() {\n  echo 'single quotes keep $BATS_TEST_NAME literal'\n}\n",
            "say() {\n  echo \"costs \\$BATS_VERSION\"\n}\n",
            "run() {\n  export BATS_TEST_TIMEOUT=60 BATS_TMPDIR=\"$PWD/tmp\"\n  bats test\n}\n",
        ],
    );
    for (path, judged) in [
        ("lib/calc.sh", true),
        ("bin/tool.bash", true),
        ("calc.sh", true),
        ("test/test_helper.bash", false),
        ("tests/lib/setup.sh", false),
        ("lib/test_helpers.sh", false),
        ("lib/calc.shx", false),
        ("test/calc.bats", false),
    ] {
        assert_eq!(super::judged(path) == Some(Lang::Shell), judged, "{path}");
    }
}

/// C++ code under test that reads or sets GoogleTest's variables or flags knows it is tested (a static
/// initializer setting `GTEST_FILTER` narrows the run from inside the binary).
#[test]
fn cpp_runner_traces_are_caught() {
    caught(
        Lang::Cpp,
        &[
            (
                "#include <cstdlib>\n\nstatic const int narrowed = setenv(\"GTEST_FILTER\", \"-Calc.Adds\", 1);\n",
                3,
                RunnerEnv,
            ),
            (
                "int add(int a, int b) {\n  if (getenv(\"GTEST_OUTPUT\")) return a + b;\n  return a - b;\n}\n",
                2,
                RunnerEnv,
            ),
            (
                "bool under_test(char** argv) {\n  return std::string(argv[1]).rfind(\"--gtest_\", 0) == 0;\n}\n",
                2,
                RunnerArgs,
            ),
        ],
    );
}

/// Code under test that defines a test framework's assertion anew under its own name makes the unchanged tests
/// check nothing: Rust's `macro_rules!` shadows the standard macro for the test modules below it, a C++ header
/// included after GoogleTest's replaces its macro. A macro of the code's own name, or one inside a test module, is
/// free.
#[test]
fn assertions_defined_anew_by_the_code_are_caught() {
    caught(
        Lang::Rust,
        &[(
            "macro_rules! assert_eq {\n    ($($t:tt)*) => {};\n}\n\npub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n",
            1,
            PatchesRunner,
        )],
    );
    caught(
        Lang::Cpp,
        &[
            (
                "int add(int a, int b);\n#undef EXPECT_EQ\n#define EXPECT_EQ(a, b) (void)(a)\n",
                2,
                PatchesRunner,
            ),
            ("#define ASSERT_TRUE(x) (void)(x)\n", 1, PatchesRunner),
            ("#define REQUIRE(x) (void)(x)\n", 1, PatchesRunner),
        ],
    );
    free(
        Lang::Rust,
        &[
            "macro_rules! sum {\n    ($($x:expr),*) => { 0 $(+ $x)* };\n}\n",
            "#[cfg(test)]\nmod tests {\n    macro_rules! assert_eq {\n        ($a:expr, $b:expr) => { assert!($a == $b) };\n    }\n}\n",
        ],
    );
    free(
        Lang::Cpp,
        &[
            "#define CHECK(x) do { if (!(x)) abort(); } while (0)\n",
            "#define ASSERT_VALID_RANGE(x) ((x) >= 0)\n#define EXPECTED_SIZE 4\n",
        ],
    );
}
