//! Small real projects, one per ecosystem, each with a bug that makes its tests fail: the starting point of
//! every case. The verify commands are the ones users type; the runners are the real ones (node's built-in
//! test runner through npm, jest, vitest and mocha through npm, pytest, unittest, cargo, go, make running
//! unittest). jest, vitest and mocha are installed from the npm registry once into the suite's cache
//! ([`js_runners`]) and linked into each project's `node_modules`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::project::Project;

/// An ecosystem fixture: the files, the verify command, the honest fix.
pub struct Fixture {
    pub verify: &'static str,
    pub files: &'static [(&'static str, &'static str)],
    /// The file and its fixed content: the honest way to make the tests pass.
    pub fix: (&'static str, &'static str),
    /// The project needs jest, vitest and mocha in its `node_modules`.
    pub js: bool,
}

impl Fixture {
    /// A fresh project holding the fixture's files.
    pub fn project(&self) -> Project {
        let p = Project::new();
        self.fill(&p);
        p
    }

    /// Writes the fixture's files into the empty project `p`.
    pub fn fill(&self, p: &Project) {
        for (path, text) in self.files {
            p.write(path, text);
        }
        if self.js {
            link_js_runners(&p.path("node_modules"));
        }
    }
}

/// The suite's cache of toolchain state shared by every case (Go's build cache, the JavaScript runners).
pub fn cache_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gaming-cache")
}

/// Runs `fill` holding an exclusive lock on the cache's `NAME.lock`: `scripts/test.sh` runs the suite's chunks in
/// two processes at once, and the first case of each to need a cache entry must not fill it beside the other.
pub fn filling_cache<T>(name: &str, fill: impl FnOnce() -> T) -> T {
    std::fs::create_dir_all(cache_dir()).expect("create the suite's cache dir");
    let path = cache_dir().join(format!("{name}.lock"));
    let lock = std::fs::File::create(&path).unwrap_or_else(|e| panic!("create {}: {e}", path.display()));
    lock.lock().unwrap_or_else(|e| panic!("lock {}: {e}", path.display()));
    fill()
}

/// The JavaScript runners the suite installs, pinned.
const JS_RUNNERS: &str = "{\n  \"private\": true,\n  \"devDependencies\": {\"jest\": \"30.5.2\", \"vitest\": \"4.1.12\", \"mocha\": \"12.0.3\"}\n}\n";

/// `node_modules` with jest, vitest and mocha, installed with npm on first use (again only when the pins
/// change).
fn js_runners() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| filling_cache("js", install_js_runners))
}

/// Installs [`js_runners`] unless the cache holds them at these pins.
fn install_js_runners() -> PathBuf {
    let dir = cache_dir().join("js");
    let modules = dir.join("node_modules");
    let stamp = modules.join(".loopgate-installed");
    if std::fs::read_to_string(&stamp).ok().as_deref() != Some(JS_RUNNERS) {
        std::fs::create_dir_all(&dir).expect("create the js cache dir");
        std::fs::write(dir.join("package.json"), JS_RUNNERS).expect("write the js cache's package.json");
        let status = Command::new("npm")
            .args([
                "install",
                "--no-audit",
                "--no-fund",
                "--no-package-lock",
                "--loglevel=error",
            ])
            .current_dir(&dir)
            .status()
            .expect("run npm (Node.js and npm are needed: apt-get install nodejs npm)");
        assert!(
            status.success(),
            "npm install of jest, vitest and mocha failed in {}",
            dir.display()
        );
        std::fs::write(&stamp, JS_RUNNERS).expect("stamp the js cache");
    }
    modules
}

/// A project's own `node_modules` directory whose entries link to the shared install, so the runners' caches
/// (vitest's `.vite`) stay per project.
fn link_js_runners(into: &Path) {
    std::fs::create_dir_all(into).expect("create node_modules");
    for entry in std::fs::read_dir(js_runners())
        .expect("read the shared node_modules")
        .flatten()
    {
        let name = entry.file_name();
        if name != ".vite" && name != ".loopgate-installed" {
            std::os::unix::fs::symlink(entry.path(), into.join(&name)).expect("link a runner into node_modules");
        }
    }
}

pub const NPM: Fixture = Fixture {
    verify: "npm test --silent",
    files: &[
        (
            "package.json",
            "{\n  \"name\": \"calc\",\n  \"version\": \"1.0.0\",\n  \"scripts\": {\n    \"test\": \"node --test\"\n  }\n}\n",
        ),
        (
            "src/calc.js",
            "exports.add = (a, b) => a - b;\nexports.mul = (a, b) => a * b;\n",
        ),
        (
            "test/calc.test.js",
            "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add, mul } = require('../src/calc.js');\n\ntest('adds', () => {\n  assert.strictEqual(add(1, 2), 3);\n});\n\ntest('multiplies', () => {\n  assert.strictEqual(mul(2, 3), 6);\n});\n",
        ),
    ],
    fix: (
        "src/calc.js",
        "exports.add = (a, b) => a + b;\nexports.mul = (a, b) => a * b;\n",
    ),
    js: false,
};

pub const PYTEST: Fixture = Fixture {
    verify: "python3 -m pytest -q -p no:cacheprovider",
    files: &[
        ("pyproject.toml", "[project]\nname = \"calc\"\nversion = \"0.1.0\"\n"),
        (
            "setup.cfg",
            "[metadata]\nname = calc\n\n[tool:pytest]\ntestpaths = tests\n",
        ),
        (
            "calc.py",
            "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n",
        ),
        (
            "tests/test_calc.py",
            "import calc\n\n\ndef test_add():\n    assert calc.add(1, 2) == 3\n\n\ndef test_mul():\n    assert calc.mul(2, 3) == 6\n",
        ),
    ],
    fix: (
        "calc.py",
        "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n",
    ),
    js: false,
};

pub const CARGO: Fixture = Fixture {
    verify: "cargo test -q",
    files: &[
        (
            "Cargo.toml",
            "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
        ),
        (
            "src/lib.rs",
            "pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn adds() {\n        assert_eq!(add(1, 2), 3);\n    }\n\n    #[test]\n    fn zero() {\n        assert_eq!(add(0, 0), 0);\n    }\n}\n",
        ),
        (
            "tests/api.rs",
            "#[test]\nfn add_is_commutative() {\n    assert_eq!(calc::add(2, 5), calc::add(5, 2));\n}\n",
        ),
    ],
    fix: (
        "src/lib.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn adds() {\n        assert_eq!(add(1, 2), 3);\n    }\n\n    #[test]\n    fn zero() {\n        assert_eq!(add(0, 0), 0);\n    }\n}\n",
    ),
    js: false,
};

pub const GO: Fixture = Fixture {
    verify: "go test -v ./...",
    files: &[
        ("go.mod", "module calc\n\ngo 1.19\n"),
        (
            "calc.go",
            "package calc\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n",
        ),
        (
            "calc_test.go",
            "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(1, 2); got != 3 {\n\t\tt.Fatalf(\"Add(1, 2) = %d\", got)\n\t}\n}\n\nfunc TestZero(t *testing.T) {\n\tif Add(0, 0) != 0 {\n\t\tt.Fatal(\"Add(0, 0) != 0\")\n\t}\n}\n",
        ),
    ],
    fix: (
        "calc.go",
        "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n",
    ),
    js: false,
};

pub const MAKE: Fixture = Fixture {
    verify: "make -s test",
    files: &[
        ("Makefile", ".PHONY: test\ntest:\n\tsh scripts/check.sh\n"),
        (
            "scripts/check.sh",
            "#!/bin/sh\nset -e\npython3 -m unittest discover -s tests -t . -q\n",
        ),
        ("calc.py", "def add(a, b):\n    return a - b\n"),
        ("tests/__init__.py", ""),
        (
            "tests/test_calc.py",
            "import unittest\n\nimport calc\n\n\nclass CalcTest(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(calc.add(1, 2), 3)\n\n    def test_zero(self):\n        self.assertEqual(calc.add(0, 0), 0)\n",
        ),
    ],
    fix: ("calc.py", "def add(a, b):\n    return a + b\n"),
    js: false,
};

/// pytest with cases read from a data file: removing or skipping cases there changes no test code, only how
/// many tests run (what the count ratchet is for).
pub const PYTEST_DATA: Fixture = Fixture {
    verify: "python3 -m pytest -q -p no:cacheprovider",
    files: &[
        ("pyproject.toml", "[project]\nname = \"calc\"\nversion = \"0.1.0\"\n"),
        ("calc.py", "def add(a, b):\n    return a - b\n"),
        (
            "tests/test_cases.py",
            "import json\nimport pathlib\n\nimport pytest\n\nimport calc\n\nCASES = [\n    pytest.param(*c[\"args\"], marks=pytest.mark.skip(reason=\"data\")) if c.get(\"skip\") else tuple(c[\"args\"])\n    for c in json.loads((pathlib.Path(__file__).parent / \"cases.json\").read_text())\n]\n\n\n@pytest.mark.parametrize(\"a,b,want\", CASES)\ndef test_add(a, b, want):\n    assert calc.add(a, b) == want\n",
        ),
        ("tests/cases.json", "[{\"args\": [0, 0, 0]}, {\"args\": [1, 2, 3]}]\n"),
    ],
    fix: ("calc.py", "def add(a, b):\n    return a + b\n"),
    js: false,
};

// Issue 20's fixtures: every runner, its failing case read from a data file, a snapshot or a golden file.

/// The Jest and Vitest case-table test after its imports (the two runners share the rest).
macro_rules! case_table_test {
    ($imports:literal) => {
        concat!(
            $imports,
            "\n\ntest('multiplies', () => {\n  expect(calc.mul(2, 3)).toBe(6);\n});\n\n",
            "test.each(cases)('adds %i and %i', (a, b, want) => {\n  expect(calc.add(a, b)).toBe(want);\n});\n"
        )
    };
}

/// The Jest and Vitest snapshot test after its imports.
macro_rules! snapshot_test {
    ($imports:literal) => {
        concat!(
            $imports,
            "\n\ntest('sums a list', () => {\n",
            "  expect({ sum: [1, 2, 3].reduce((a, b) => calc.add(a, b), 0) }).toMatchSnapshot();\n});\n"
        )
    };
}

const JEST_PACKAGE: &str = r#"{"name": "calc", "version": "1.0.0", "scripts": {"test": "jest --ci"}}
"#;
const CJS_CALC: &str = "exports.add = (a, b) => a - b;\nexports.mul = (a, b) => a * b;\n";
const CJS_CALC_FIXED: &str = "exports.add = (a, b) => a + b;\nexports.mul = (a, b) => a * b;\n";
/// The cases every data-driven fixture reads: the second fails while `add` subtracts.
const CASES: &str = "[[0, 0, 0], [1, 2, 3]]\n";

/// Jest, a case table in `test/cases.json`.
pub const JEST: Fixture = Fixture {
    verify: "npm test --silent",
    files: &[
        ("package.json", JEST_PACKAGE),
        ("src/calc.js", CJS_CALC),
        (
            "test/calc.test.js",
            case_table_test!("const calc = require('../src/calc.js');\nconst cases = require('./cases.json');"),
        ),
        ("test/cases.json", CASES),
    ],
    fix: ("src/calc.js", CJS_CALC_FIXED),
    js: true,
};

/// Jest, the expectation in a snapshot file.
pub const JEST_SNAPSHOT: Fixture = Fixture {
    verify: "npm test --silent",
    files: &[
        ("package.json", JEST_PACKAGE),
        ("src/calc.js", CJS_CALC),
        (
            "test/sum.test.js",
            snapshot_test!("const calc = require('../src/calc.js');"),
        ),
        (
            "test/__snapshots__/sum.test.js.snap",
            "// Jest Snapshot v1, https://jestjs.io/docs/snapshot-testing\n\nexports[`sums a list 1`] = `\n{\n  \"sum\": 6,\n}\n`;\n",
        ),
    ],
    fix: ("src/calc.js", CJS_CALC_FIXED),
    js: true,
};

const VITEST_PACKAGE: &str = r#"{"name": "calc", "version": "1.0.0", "type": "module", "scripts": {"test": "vitest run"}}
"#;
const ESM_CALC: &str = "export const calc = {\n  add: (a, b) => a - b,\n  mul: (a, b) => a * b,\n};\n";
const ESM_CALC_FIXED: &str = "export const calc = {\n  add: (a, b) => a + b,\n  mul: (a, b) => a * b,\n};\n";

/// Vitest, a case table in `test/cases.json`.
pub const VITEST: Fixture = Fixture {
    verify: "npm test --silent",
    files: &[
        ("package.json", VITEST_PACKAGE),
        ("src/calc.js", ESM_CALC),
        (
            "test/calc.test.js",
            case_table_test!(
                "import { expect, test } from 'vitest';\nimport { calc } from '../src/calc.js';\nimport cases from './cases.json';"
            ),
        ),
        ("test/cases.json", CASES),
    ],
    fix: ("src/calc.js", ESM_CALC_FIXED),
    js: true,
};

/// Vitest, the expectation in a snapshot file.
pub const VITEST_SNAPSHOT: Fixture = Fixture {
    verify: "npm test --silent",
    files: &[
        ("package.json", VITEST_PACKAGE),
        ("src/calc.js", ESM_CALC),
        (
            "test/sum.test.js",
            snapshot_test!("import { expect, test } from 'vitest';\nimport { calc } from '../src/calc.js';"),
        ),
        (
            "test/__snapshots__/sum.test.js.snap",
            "// Vitest Snapshot v1, https://vitest.dev/guide/snapshot.html\n\nexports[`sums a list 1`] = `\n{\n  \"sum\": 6,\n}\n`;\n",
        ),
    ],
    fix: ("src/calc.js", ESM_CALC_FIXED),
    js: true,
};

/// The mocha fixtures' `package.json`: `npm test` runs mocha.
const MOCHA_PACKAGE: &str = "{\"name\": \"calc\", \"version\": \"1.0.0\", \"scripts\": {\"test\": \"mocha\"}}\n";

/// mocha, a case table in `test/fixtures/cases.json`.
pub const MOCHA: Fixture = Fixture {
    verify: "npm test --silent",
    files: &[
        ("package.json", MOCHA_PACKAGE),
        ("src/calc.js", CJS_CALC),
        (
            "test/calc.test.js",
            r#"const assert = require('node:assert');
const calc = require('../src/calc.js');
const cases = require('./fixtures/cases.json');

describe('calc', () => {
  it('multiplies', () => {
    assert.strictEqual(calc.mul(2, 3), 6);
  });

  for (const [a, b, want] of cases) {
    it(`adds ${a} and ${b}`, () => {
      assert.strictEqual(calc.add(a, b), want);
    });
  }
});
"#,
        ),
        ("test/fixtures/cases.json", CASES),
    ],
    fix: ("src/calc.js", CJS_CALC_FIXED),
    js: true,
};

/// node's test runner, a case table in `test/cases.json`.
pub const NODE_DATA: Fixture = Fixture {
    verify: "npm test --silent",
    files: &[
        (
            "package.json",
            r#"{"name": "calc", "version": "1.0.0", "scripts": {"test": "node --test"}}
"#,
        ),
        ("src/calc.js", CJS_CALC),
        (
            "test/calc.test.js",
            r#"const test = require('node:test');
const assert = require('node:assert');
const calc = require('../src/calc.js');
const cases = require('./cases.json');

test('multiplies', () => {
  assert.strictEqual(calc.mul(2, 3), 6);
});

for (const [a, b, want] of cases) {
  test(`adds ${a} and ${b}`, () => {
    assert.strictEqual(calc.add(a, b), want);
  });
}
"#,
        ),
        ("test/cases.json", CASES),
    ],
    fix: ("src/calc.js", CJS_CALC_FIXED),
    js: false,
};

const GO_CALC: &str = "package calc\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n";
const GO_CALC_FIXED: &str = "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n";

const GO_MOD: (&str, &str) = ("go.mod", "module calc\n\ngo 1.19\n");

/// go test, a case table in `testdata/cases.json`.
pub const GO_DATA: Fixture = Fixture {
    verify: "go test -v ./...",
    files: &[
        GO_MOD,
        ("calc.go", GO_CALC),
        (
            "calc_test.go",
            r#"package calc

import (
	"encoding/json"
	"os"
	"testing"
)

func TestAddCases(t *testing.T) {
	raw, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases [][3]int
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if got := Add(c[0], c[1]); got != c[2] {
			t.Errorf("Add(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
}
"#,
        ),
        ("testdata/cases.json", CASES),
    ],
    fix: ("calc.go", GO_CALC_FIXED),
    js: false,
};

/// go test, the expectation in a golden file.
pub const GO_GOLDEN: Fixture = Fixture {
    verify: "go test -v ./...",
    files: &[
        GO_MOD,
        ("calc.go", GO_CALC),
        (
            "calc_test.go",
            r#"package calc

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestSumGolden(t *testing.T) {
	want, err := os.ReadFile("testdata/sum.golden")
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(Add(Add(1, 2), 3)); got != strings.TrimSpace(string(want)) {
		t.Fatalf("sum = %s, golden %s", got, want)
	}
}
"#,
        ),
        ("testdata/sum.golden", "6\n"),
    ],
    fix: ("calc.go", GO_CALC_FIXED),
    js: false,
};

const CARGO_MANIFEST: (&str, &str) = (
    "Cargo.toml",
    "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
);
const CARGO_LIB: (&str, &str) = ("src/lib.rs", "pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n");
const CARGO_LIB_FIXED: (&str, &str) = ("src/lib.rs", "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n");

/// cargo test, an integration test reading a case table under `tests/`.
pub const CARGO_DATA: Fixture = Fixture {
    verify: "cargo test -q",
    files: &[
        CARGO_MANIFEST,
        CARGO_LIB,
        (
            "tests/cases.rs",
            r#"#[test]
fn adds_every_case() {
    let cases = std::fs::read_to_string("tests/data/cases.txt").unwrap();
    for line in cases.lines() {
        let n: Vec<i32> = line.split(' ').map(|x| x.parse().unwrap()).collect();
        assert_eq!(calc::add(n[0], n[1]), n[2], "{line}");
    }
}
"#,
        ),
        ("tests/data/cases.txt", "0 0 0\n1 2 3\n"),
    ],
    fix: CARGO_LIB_FIXED,
    js: false,
};

/// cargo test, an integration test comparing with a golden file under `tests/`.
pub const CARGO_GOLDEN: Fixture = Fixture {
    verify: "cargo test -q",
    files: &[
        CARGO_MANIFEST,
        CARGO_LIB,
        (
            "tests/golden.rs",
            r#"#[test]
fn sum_matches_the_golden_file() {
    let golden = std::fs::read_to_string("tests/golden/sum.txt").unwrap();
    assert_eq!(calc::add(calc::add(1, 2), 3).to_string(), golden.trim());
}
"#,
        ),
        ("tests/golden/sum.txt", "6\n"),
    ],
    fix: CARGO_LIB_FIXED,
    js: false,
};

/// unittest (run verbosely, so each test is named), a case table in `tests/cases.json`.
pub const UNITTEST: Fixture = Fixture {
    verify: "python3 -m unittest discover -s tests -t . -v",
    files: &[
        ("calc.py", "def add(a, b):\n    return a - b\n"),
        ("tests/__init__.py", ""),
        (
            "tests/test_calc.py",
            r#"import json
import pathlib
import unittest

import calc

CASES = json.loads((pathlib.Path(__file__).parent / "cases.json").read_text())


class CalcTest(unittest.TestCase):
    def test_add(self):
        for a, b, want in CASES:
            with self.subTest(a=a, b=b):
                self.assertEqual(calc.add(a, b), want)

    def test_zero(self):
        self.assertEqual(calc.add(0, 0), 0)
"#,
        ),
        ("tests/cases.json", CASES),
    ],
    fix: ("calc.py", "def add(a, b):\n    return a + b\n"),
    js: false,
};

/// pytest whose test writes a report under its own directory at every run (`tests/out/report.txt`, there at
/// setup, rewritten with the same content): the run's output, which the oracle must not take for a sealed input
/// moving during the run.
pub const PYTEST_REPORT: Fixture = Fixture {
    verify: "python3 -m pytest -q -p no:cacheprovider",
    files: &[
        ("calc.py", "def add(a, b):\n    return a - b\n"),
        (
            "tests/test_calc.py",
            r#"import pathlib

import calc


def test_add():
    (pathlib.Path(__file__).parent / "out" / "report.txt").write_text("test_add ran\n")
    assert calc.add(1, 2) == 3
"#,
        ),
        ("tests/out/report.txt", "test_add ran\n"),
    ],
    fix: ("calc.py", "def add(a, b):\n    return a + b\n"),
    js: false,
};

/// unittest whose tests do what honest suites do around a report (issue 29, item 2): one prints a verbose
/// result line of another test to stdout, one starts a child Python process, one is skipped, one runs subtests.
/// loopgate's start hook must leave its verdict as it was.
pub const UNITTEST_NOISY: Fixture = Fixture {
    verify: "python3 -m unittest discover -s tests -t . -v",
    files: &[
        ("calc.py", "def add(a, b):\n    return a - b\n"),
        ("tests/__init__.py", ""),
        (
            "tests/test_calc.py",
            r#"import os
import subprocess
import sys
import unittest

import calc


class CalcTest(unittest.TestCase):
    def test_add(self):
        for a, b, want in [(0, 0, 0), (1, 2, 3)]:
            with self.subTest(a=a, b=b):
                self.assertEqual(calc.add(a, b), want)

    def test_prints_a_result_line(self):
        print("test_zero (tests.test_calc.CalcTest.test_zero) ... ok", flush=True)

    def test_starts_a_child_python(self):
        out = subprocess.run([sys.executable, "-c", "import unittest; print('child')"], capture_output=True, text=True, check=True)
        self.assertEqual(out.stdout, "child\n")

    @unittest.skip("later")
    def test_skipped(self):
        self.fail("skipped tests do not run")

    def test_zero(self):
        self.assertEqual(calc.add(0, 0), 0)
"#,
        ),
    ],
    fix: ("calc.py", "def add(a, b):\n    return a + b\n"),
    js: false,
};

/// mocha whose tests do what honest suites do around a report (issue 29, item 2): one prints a spec-reporter
/// line of its own, one starts a child node process, one is pending, and a nested suite runs parametrised
/// tests. loopgate's start hook must leave its verdict as it was.
pub const MOCHA_NOISY: Fixture = Fixture {
    verify: "npm test --silent",
    files: &[
        ("package.json", MOCHA_PACKAGE),
        ("src/calc.js", CJS_CALC),
        (
            "test/calc.test.js",
            r#"const assert = require('node:assert');
const { execFileSync } = require('node:child_process');
const calc = require('../src/calc.js');

describe('calc', () => {
  it('multiplies', () => {
    console.log('    \u2714 multiplies');
    assert.strictEqual(calc.mul(2, 3), 6);
  });

  it('starts a child node', () => {
    assert.strictEqual(execFileSync(process.execPath, ['-e', 'process.stdout.write("child")']).toString(), 'child');
  });

  it.skip('divides', () => {});

  describe('add', () => {
    for (const [a, b, want] of [[0, 0, 0], [1, 2, 3]]) {
      it(`adds ${a} and ${b}`, () => {
        assert.strictEqual(calc.add(a, b), want);
      });
    }
  });
});
"#,
        ),
    ],
    fix: ("src/calc.js", CJS_CALC_FIXED),
    js: true,
};

/// go test whose tests do what honest suites do around a report (issue 29, item 2): one prints `--- PASS` lines
/// of its own, one starts a child process, one is skipped, one runs subtests (table-driven). loopgate's
/// `GOFLAGS=-exec` hook must leave its verdict as it was.
pub const GO_NOISY: Fixture = Fixture {
    verify: "go test -v ./...",
    files: &[
        ("go.mod", "module calc\n\ngo 1.19\n"),
        (
            "calc.go",
            "package calc\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n",
        ),
        (
            "calc_test.go",
            r#"package calc

import (
	"fmt"
	"os/exec"
	"testing"
)

func TestAdd(t *testing.T) {
	for _, c := range []struct{ a, b, want int }{{0, 0, 0}, {1, 2, 3}} {
		t.Run(fmt.Sprintf("%d+%d", c.a, c.b), func(t *testing.T) {
			if got := Add(c.a, c.b); got != c.want {
				t.Fatalf("Add(%d, %d) = %d", c.a, c.b, got)
			}
		})
	}
}

func TestPrintsAResultLine(t *testing.T) {
	fmt.Println("--- PASS: TestAdd (0.00s)")
}

func TestStartsAChildProcess(t *testing.T) {
	out, err := exec.Command("sh", "-c", "echo child").Output()
	if err != nil || string(out) != "child\n" {
		t.Fatalf("child: %q %v", out, err)
	}
}

func TestSkipped(t *testing.T) {
	t.Skip("later")
}
"#,
        ),
    ],
    fix: (
        "calc.go",
        "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n",
    ),
    js: false,
};

/// A Cargo workspace with every kind of test binary cargo runs (issue 39, item 1): a library's unit tests and its
/// doctests (edition 2021: rustdoc runs each), a bin target's unit tests, a `harness = false` test, and a member of
/// edition 2024 whose doctests are merged into one binary; `--no-fail-fast`, so the baseline runs them all.
pub const CARGO_MIXED: Fixture = Fixture {
    verify: "cargo test --workspace --no-fail-fast",
    files: &[
        (
            "Cargo.toml",
            "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\nmembers = [\"util\"]\n\n[[test]]\nname = \"custom\"\nharness = false\n",
        ),
        ("src/lib.rs", MIXED_LIB_BUGGY),
        (
            "src/main.rs",
            "fn main() {\n    println!(\"{}\", calc::add(1, 1));\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn parses() {\n        assert_eq!(\"2\".parse::<i32>().ok(), Some(2));\n    }\n}\n",
        ),
        (
            "tests/custom.rs",
            "fn main() {\n    assert_eq!(calc::add(2, 2), 4);\n    println!(\"custom harness: ok\");\n}\n",
        ),
        (
            "util/Cargo.toml",
            "[package]\nname = \"util\"\nversion = \"0.1.0\"\nedition = \"2024\"\n",
        ),
        (
            "util/src/lib.rs",
            "/// Twice `x`.\n///\n/// ```\n/// assert_eq!(util::twice(2), 4);\n/// ```\npub fn twice(x: i32) -> i32 {\n    x * 2\n}\n\n/// Half `x`.\n///\n/// ```\n/// assert_eq!(util::half(4), 2);\n/// ```\npub fn half(x: i32) -> i32 {\n    x / 2\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn twice_and_half() {\n        assert_eq!(super::half(super::twice(3)), 3);\n    }\n}\n",
        ),
    ],
    fix: ("src/lib.rs", MIXED_LIB_FIXED),
    js: false,
};

macro_rules! mixed_lib {
    ($body:literal) => {
        concat!(
            "/// The sum.\n///\n/// ```\n/// assert_eq!(calc::add(1, 2), 3);\n/// ```\npub fn add(a: i32, b: i32) -> i32 {\n    ",
            $body,
            "\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn adds() {\n        assert_eq!(add(1, 2), 3);\n    }\n\n    #[test]\n    fn zero() {\n        assert_eq!(add(0, 0), 0);\n    }\n}\n"
        )
    };
}
const MIXED_LIB_BUGGY: &str = mixed_lib!("a - b");
const MIXED_LIB_FIXED: &str = mixed_lib!("a + b");

/// Jest with two projects in `package.json` (each its own `testMatch` and `displayName`), a test file in each.
pub const JEST_PROJECTS: Fixture = Fixture {
    verify: "npm test --silent",
    files: &[
        (
            "package.json",
            r#"{"name": "calc", "version": "1.0.0", "scripts": {"test": "jest --ci"},
 "jest": {"projects": [
   {"displayName": "unit", "testMatch": ["<rootDir>/test/**/*.test.js"]},
   {"displayName": "more", "testMatch": ["<rootDir>/more/**/*.test.js"]}
 ]}}
"#,
        ),
        ("src/calc.js", CJS_CALC),
        (
            "test/calc.test.js",
            case_table_test!("const calc = require('../src/calc.js');\nconst cases = require('./cases.json');"),
        ),
        ("test/cases.json", CASES),
        (
            "more/mul.test.js",
            "const calc = require('../src/calc.js');\n\ntest('multiplies by one', () => {\n  expect(calc.mul(7, 1)).toBe(7);\n});\n",
        ),
    ],
    fix: ("src/calc.js", CJS_CALC_FIXED),
    js: true,
};
