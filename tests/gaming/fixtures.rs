//! Small real projects, one per ecosystem, each with a bug that makes its tests fail: the starting point of
//! every case. The verify commands are the ones users type; the runners are the real ones (node's built-in
//! test runner through npm, pytest, cargo, go, make running unittest).

use crate::project::Project;

/// An ecosystem fixture: the files, the verify command, the honest fix.
pub struct Fixture {
    pub verify: &'static str,
    pub files: &'static [(&'static str, &'static str)],
    /// The file and its fixed content: the honest way to make the tests pass.
    pub fix: (&'static str, &'static str),
}

impl Fixture {
    /// A fresh project holding the fixture's files.
    pub fn project(&self) -> Project {
        let p = Project::new();
        for (path, text) in self.files {
            p.write(path, text);
        }
        p
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
};
