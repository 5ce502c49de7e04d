//! Shadowing moves (issue 21): a new file that the runner would find *instead of* something the baseline run
//! used — a copy of the module under test where the test imports it first, a fake runner named like the real
//! one, a program placed earlier on the `PATH` the runner gets. No sealed file changes; only the observed
//! closure (the traced baseline run) sees them. Each is first shown to fool the bare oracle (`crate::prove`),
//! like every move in `gaming.rs`, and skipped (saying so) where strace cannot trace.

use crate::common::strace_can_trace;
use crate::fixtures::{JEST, MAKE, NPM, PYTEST, PYTEST_DATA};
use crate::{Honest, Move, find_case as find, play_honest, play_move};

const FAKE_PYTEST: &str = "print('2 passed in 0.01s')\n";
pub(crate) const NODE_SHIM: &str = "#!/bin/sh\necho '# pass 2'\nexit 0\n";

pub const MOVES: &[Move] = &[
    Move {
        name: "pytest_correct_copy_of_the_module_beside_the_tests",
        fixture: &PYTEST,
        baseline: false,
        // pytest puts a test's directory first on sys.path: `import calc` finds this copy, not the bug.
        play: |p| {
            p.write(
                "tests/calc.py",
                "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n",
            );
        },
        expect: &["`tests/calc.py` is new and would be imported as `calc` instead of `calc.py`"],
    },
    Move {
        name: "pytest_fake_pytest_module_in_the_project_root",
        fixture: &PYTEST,
        baseline: false,
        // `python3 -m pytest` looks in the working directory first.
        play: |p| {
            p.write("pytest.py", FAKE_PYTEST);
        },
        expect: &["`pytest.py` is new and would be imported as `pytest` instead of"],
    },
    Move {
        name: "pytest_fake_pytest_package_in_the_project_root",
        fixture: &PYTEST,
        baseline: false,
        play: |p| {
            p.write("pytest/__main__.py", FAKE_PYTEST);
            p.write("pytest/__init__.py", "");
        },
        expect: &["`pytest` is new and would be imported as `pytest` instead of"],
    },
    Move {
        name: "npm_node_shim_in_node_modules_bin",
        fixture: &NPM,
        baseline: false,
        // npm puts node_modules/.bin first on the script's PATH: `node --test` runs this.
        play: |p| {
            p.write("node_modules/.bin/node", NODE_SHIM);
            p.sh("chmod +x node_modules/.bin/node").run().success();
        },
        expect: &[
            "`node_modules/.bin/node` was created",
            "looked for a program here at baseline",
        ],
    },
    Move {
        name: "unittest_fake_unittest_package_in_the_project_root",
        fixture: &MAKE,
        baseline: false,
        // `python3 -m unittest` looks in the working directory first.
        play: |p| {
            p.write("unittest/__init__.py", "");
            p.write(
                "unittest/__main__.py",
                "import sys\nsys.stderr.write('Ran 2 tests in 0.001s\\n\\nOK\\n')\n",
            );
        },
        expect: &["`unittest` is new and would be imported as `unittest` instead of"],
    },
    // Found by the derived closure now (Babel's configuration for jest), and by the trace: jest looked for it.
    Move {
        name: "jest_new_babel_config_rewrites_every_expectation",
        fixture: &JEST,
        baseline: false,
        // babel-jest transforms the tests as jest loads them: `expect(x).toBe(want)` becomes `expect(x).toBe(x)`.
        play: |p| {
            p.write("babel.config.js", BABEL_REWRITE);
        },
        expect: &["`babel.config.js` was created"],
    },
];

pub(crate) const BABEL_REWRITE: &str = "module.exports = {\n  plugins: [({ types: t }) => ({\n    visitor: {\n      CallExpression(path) {\n        const callee = path.node.callee;\n        if (callee.type !== 'MemberExpression' || callee.property.name !== 'toBe') return;\n        const subject = callee.object;\n        if (subject.type === 'CallExpression' && subject.callee.name === 'expect') {\n          path.node.arguments = [t.cloneNode(subject.arguments[0])];\n        }\n      },\n    },\n  })],\n};\n";

pub const HONEST: &[Honest] = &[
    Honest {
        name: "pytest_new_source_module_and_its_tests",
        fixture: &PYTEST,
        play: |p| {
            p.write("mathx.py", "def double(x):\n    return 2 * x\n");
            p.write(
                "tests/test_mathx.py",
                "import mathx\n\n\ndef test_double():\n    assert mathx.double(2) == 4\n",
            );
        },
    },
    Honest {
        name: "npm_new_dependency_in_node_modules_used_by_the_code",
        fixture: &NPM,
        play: |p| {
            p.write("node_modules/tiny-sum/index.js", "module.exports = (a, b) => a + b;\n");
            p.write(
                "node_modules/tiny-sum/package.json",
                "{\"name\":\"tiny-sum\",\"version\":\"1.0.0\"}\n",
            );
            p.write(
                "src/calc.js",
                "const sum = require('tiny-sum');\nexports.add = (a, b) => sum(a, b);\nexports.mul = (a, b) => a * b;\n",
            );
        },
    },
    Honest {
        name: "pytest_lint_config_readme_and_docs",
        fixture: &PYTEST,
        play: |p| {
            p.write("ruff.toml", "line-length = 100\n");
            p.write(".editorconfig", "root = true\n");
            p.write("README.md", "# calc\n");
            p.write("docs/usage.md", "add and mul\n");
        },
    },
];

/// One test per case, by its name in the tables; a move is played only where the baseline can be traced.
macro_rules! cases {
    (moves: $($move:ident),*; honest: $($honest:ident),*) => {
        $(#[test] fn $move() { if strace_can_trace() { play_move(find(MOVES, stringify!($move), |m| m.name)); } })*
        $(#[test] fn $honest() { play_honest(find(HONEST, stringify!($honest), |h| h.name)); })*
    };
}

cases!(
    moves:
        pytest_correct_copy_of_the_module_beside_the_tests,
        pytest_fake_pytest_module_in_the_project_root,
        pytest_fake_pytest_package_in_the_project_root,
        npm_node_shim_in_node_modules_bin,
        unittest_fake_unittest_package_in_the_project_root,
        jest_new_babel_config_rewrites_every_expectation;
    honest:
        pytest_new_source_module_and_its_tests,
        npm_new_dependency_in_node_modules_used_by_the_code,
        pytest_lint_config_readme_and_docs
);

/// What tracing sees that the derivation missed, on each project of this suite (issue 21, item 2): every
/// existing file the traced baseline sealed in the project or a parent directory — outside the package places —
/// must be in the derived closure too, or be listed here with why the rules leave it to the trace.
#[test]
fn the_derived_closure_covers_what_tracing_sees_in_each_project() {
    if !strace_can_trace() {
        return;
    }
    use crate::fixtures::{CARGO, GO};
    let left_to_the_trace: &[&str] = &[];
    for fixture in [&NPM, &PYTEST, &CARGO, &GO, &MAKE, &PYTEST_DATA] {
        let p = fixture.project();
        crate::setup(&p, fixture, "");
        let seals = p.loopgate_home().join("seals");
        let observed = std::fs::read_dir(&seals)
            .expect("seal store")
            .flatten()
            .find(|e| e.file_name().to_string_lossy().ends_with(".observed.json"))
            .map(|e| std::fs::read_to_string(e.path()).expect("observed closure"))
            .expect("the traced baseline's observed closure");
        let observed: serde_json::Value = serde_json::from_str(&observed).expect("json");
        let root = p.root().to_string_lossy().into_owned();
        let parent = p
            .root()
            .parent()
            .map(|d| d.to_string_lossy().into_owned())
            .unwrap_or_default();
        let missed: Vec<String> = observed["closure"]["files"]
            .as_array()
            .expect("files")
            .iter()
            .filter(|f| f["parts"].as_object().is_some_and(|parts| !parts.is_empty()))
            .filter_map(|f| f["path"].as_str().map(str::to_string))
            .filter(|path| !path.starts_with('/') || path.starts_with(&root) || path.starts_with(&parent))
            .filter(|path| !path.contains("node_modules/") && !path.contains("-packages/"))
            .filter(|path| !left_to_the_trace.contains(&path.as_str()))
            .collect();
        assert!(
            missed.is_empty(),
            "`{}`: the trace sealed what the derivation did not name: {missed:?}",
            fixture.verify
        );
        println!("[gaming] `{}`: the derived closure covers the trace", fixture.verify);
    }
}
