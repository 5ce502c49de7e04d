//! Python: a pytest module with fixtures, parametrized tests and a test class, plus a unittest `TestCase`.

use super::{Case, END, run_table};
use crate::testsig::{Lang, MarkerKind, Scope, UnitKind, markers, parse};

const BASE: &str = r#""""Tests for the tokenizer."""
import os
import unittest

import pytest

from mypkg.tokenizer import Token, tokenize

TOLERANCE = 1e-6


def approx(a, b):
    return abs(a - b) < TOLERANCE


@pytest.fixture
def sample():
    return "a + b"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    monkeypatch.delenv("TOKENIZER_DEBUG", raising=False)


def test_tokenize_simple(sample):
    tokens = tokenize(sample)
    assert [t.kind for t in tokens] == ["name", "op", "name"]


@pytest.mark.parametrize("text,count", [
    ("a", 1),
    ("a b", 2),
])
def test_count(text, count):
    assert len(tokenize(text)) == count


def test_float():
    assert approx(tokenize("1.5")[0].value, 1.5)


class TestErrors:
    """Error cases."""

    def setup_method(self):
        self.bad = "\x00"

    def test_rejects_nul(self):
        with pytest.raises(ValueError):
            tokenize(self.bad)

    def test_message(self):
        if os.name == "nt":
            return
        with pytest.raises(ValueError, match="NUL"):
            tokenize(self.bad)


class TokenTests(unittest.TestCase):
    def setUp(self):
        self.tok = Token("name", "x")

    def test_repr(self):
        self.assertEqual(repr(self.tok), "Token(name, 'x')")

    def test_eq(self):
        self.assertEqual(self.tok, Token("name", "x"))


if __name__ == "__main__":
    unittest.main()
"#;

const CASES: &[Case] = &[
    // Honest edits: no finding.
    Case {
        name: "reformat: quotes, a reflowed list without its magic trailing comma, blank lines, comments",
        edits: &[
            ("    return \"a + b\"", "    return 'a + b'  # the usual sample"),
            (
                "@pytest.mark.parametrize(\"text,count\", [\n    (\"a\", 1),\n    (\"a b\", 2),\n])",
                "@pytest.mark.parametrize('text,count', [('a', 1), ('a b', 2)])",
            ),
            ("def test_float():\n", "# floats\n\n\ndef test_float():\n\n"),
            (
                "        with pytest.raises(ValueError):\n",
                "        with pytest.raises(\n            ValueError,\n        ):\n",
            ),
        ],
        expect: &[],
    },
    Case {
        name: "reindent a class from 4 to 2 spaces and change its docstring",
        edits: &[(
            r#"    """Error cases."""

    def setup_method(self):
        self.bad = "\x00"

    def test_rejects_nul(self):
        with pytest.raises(ValueError):
            tokenize(self.bad)

    def test_message(self):
        if os.name == "nt":
            return
        with pytest.raises(ValueError, match="NUL"):
            tokenize(self.bad)
"#,
            r#"  """What must fail, and how."""
  def setup_method(self):
    self.bad = "\x00"
  def test_rejects_nul(self):
    with pytest.raises(ValueError):
      tokenize(self.bad)
  def test_message(self):
    if os.name == "nt":
      return
    with pytest.raises(ValueError,
                       match="NUL"):
      tokenize(self.bad)
"#,
        )],
        expect: &[],
    },
    Case {
        name: "docstrings added to a test function and a method, and one reworded",
        edits: &[
            (
                "def test_float():\n",
                "def test_float():\n    \"\"\"A float's value survives tokenizing.\"\"\"\n",
            ),
            (
                "    def test_repr(self):\n",
                "    def test_repr(self):\n        '''The repr names the kind\n        and the text.'''\n",
            ),
        ],
        expect: &[],
    },
    Case {
        name: "a docstring with a doctest example added to a test, and a test's body turned into a docstring",
        edits: &[
            (
                "def test_float():\n",
                "def test_float():\n    \"\"\"\n    >>> 1 + 1\n    2\n    \"\"\"\n",
            ),
            (
                "        self.assertEqual(self.tok, Token(\"name\", \"x\"))",
                "        \"self.assertEqual(self.tok, Token('name', 'x'))\"",
            ),
        ],
        expect: &["changed test_float", "changed TokenTests::test_eq"],
    },
    Case {
        name: "new tests at module level and in both classes, a new helper and a new import",
        edits: &[
            ("import os\n", "import os\nimport re\n"),
            (
                "class TestErrors:",
                "def _kinds(tokens):\n    return [t.kind for t in tokens]\n\n\ndef test_empty():\n    assert tokenize(\"\") == []\n\n\nclass TestErrors:",
            ),
            (
                "    def test_eq(self):",
                "    def test_ne(self):\n        self.assertNotEqual(self.tok, Token(\"op\", \"+\"))\n\n    def test_eq(self):",
            ),
            (
                END,
                "\n\nclass TestMore:\n    @pytest.mark.parametrize(\"n\", [1, 2])\n    def test_n(self, n):\n        assert n\n",
            ),
        ],
        expect: &[],
    },
    Case {
        name: "a name added to an existing import, the import reflowed, and a test that uses it",
        edits: &[
            (
                "from mypkg.tokenizer import Token, tokenize\n",
                "from mypkg.tokenizer import (\n    Token,\n    detokenize,\n    tokenize,\n)\n",
            ),
            (
                END,
                "\n\ndef test_round_trip():\n    assert detokenize(tokenize(\"a\")) == \"a\"\n",
            ),
        ],
        expect: &[],
    },
    Case {
        name: "a new test inside an existing class",
        edits: &[(
            "    def test_message(self):",
            "    def test_tab(self):\n        tokenize(\"\\t\")\n\n    def test_message(self):",
        )],
        expect: &[],
    },
    Case {
        name: "a row added to a parametrize table",
        edits: &[("    (\"a b\", 2),\n])", "    (\"a b\", 2),\n    (\"a b c\", 3),\n])")],
        expect: &[],
    },
    // Weakening edits.
    Case {
        name: "a row of a parametrize table changed",
        edits: &[("    (\"a b\", 2),\n", "    (\"a b\", 1),\n")],
        expect: &["changed test_count"],
    },
    Case {
        name: "an item added to an expected list is no table row",
        edits: &[(
            "== [\"name\", \"op\", \"name\"]",
            "in ([\"name\", \"op\", \"name\"], [])",
        )],
        expect: &["changed test_tokenize_simple"],
    },
    Case {
        name: "a test body weakened",
        edits: &[(
            "    assert [t.kind for t in tokens] == [\"name\", \"op\", \"name\"]",
            "    assert tokens",
        )],
        expect: &["changed test_tokenize_simple"],
    },
    Case {
        name: "a method body weakened",
        edits: &[(
            "        if os.name == \"nt\":\n            return\n",
            "        return\n",
        )],
        expect: &["changed TestErrors::test_message"],
    },
    Case {
        name: "a statement moved out of a block: same tokens, different structure",
        edits: &[(
            "        if os.name == \"nt\":\n            return\n        with",
            "        if os.name == \"nt\":\n            pass\n        return\n        with",
        )],
        expect: &["changed TestErrors::test_message"],
    },
    Case {
        name: "a test deleted",
        edits: &[(
            "def test_float():\n    assert approx(tokenize(\"1.5\")[0].value, 1.5)\n",
            "",
        )],
        expect: &["deleted test_float"],
    },
    Case {
        name: "a test renamed out of collection",
        edits: &[("def test_count(", "def _test_count(")],
        expect: &["deleted test_count"],
    },
    Case {
        name: "a unittest method renamed out of collection",
        edits: &[("    def test_eq(self):", "    def check_eq(self):")],
        expect: &["deleted TokenTests::test_eq"],
    },
    Case {
        // Its setup method, now in a new class of no test, runs around nothing.
        name: "a test class renamed out of collection: its tests are gone",
        edits: &[("class TestErrors:", "class Errors:")],
        expect: &[
            "deleted TestErrors::test_rejects_nul",
            "deleted TestErrors::test_message",
        ],
    },
    Case {
        name: "a test redefined later in the module replaces the first",
        edits: &[(END, "\n\ndef test_float():\n    pass\n")],
        expect: &["changed test_float"],
    },
    Case {
        name: "a helper redefined later in the module replaces the first",
        edits: &[(END, "\n\ndef approx(a, b):\n    return True\n")],
        expect: &["block Helper approx"],
    },
    Case {
        name: "a function that replaces an imported name",
        edits: &[(END, "\n\ndef tokenize(text):\n    return []\n")],
        expect: &["block Helper tokenize"],
    },
    Case {
        name: "a helper changed",
        edits: &[("    return abs(a - b) < TOLERANCE", "    return abs(a - b) < 1")],
        expect: &["block Helper approx"],
    },
    Case {
        name: "a module constant changed",
        edits: &[("TOLERANCE = 1e-6", "TOLERANCE = 1e9")],
        expect: &["block Helper TOLERANCE"],
    },
    Case {
        name: "an import pointed at another module",
        edits: &[(
            "from mypkg.tokenizer import Token, tokenize",
            "from tests.fakes import Token, tokenize",
        )],
        expect: &["block Import mypkg.tokenizer (Token, tokenize)"],
    },
    Case {
        name: "a new import that rebinds pytest",
        edits: &[(
            "import pytest\n",
            "import pytest\nimport tests.lenient_pytest as pytest\n",
        )],
        expect: &["setup Other import tests.lenient_pytest as pytest"],
    },
    Case {
        name: "an import removed",
        edits: &[("import os\n", "")],
        expect: &["block Import import os"],
    },
    Case {
        name: "an existing fixture changed",
        edits: &[("    return \"a + b\"", "    return \"\"")],
        expect: &["block Helper sample"],
    },
    Case {
        name: "a new fixture without autouse, asked for by a new test only",
        edits: &[(
            END,
            "\n\n@pytest.fixture\ndef base():\n    return 10\n\n\ndef test_base(base):\n    assert base\n",
        )],
        expect: &[],
    },
    Case {
        name: "a new autouse fixture",
        edits: &[(
            END,
            "\n\n@pytest.fixture(autouse=True)\ndef fake_tokenize(monkeypatch):\n    monkeypatch.setattr(\"mypkg.tokenizer.tokenize\", lambda s: [])\n",
        )],
        expect: &["setup Setup fake_tokenize"],
    },
    Case {
        name: "a new fixture inside an existing class",
        edits: &[(
            "    def test_rejects_nul(self):",
            "    @pytest.fixture(autouse=True)\n    def no_errors(self):\n        yield\n\n    def test_rejects_nul(self):",
        )],
        expect: &["setup Setup TestErrors::no_errors"],
    },
    Case {
        name: "new module-level setup and teardown functions",
        edits: &[(
            END,
            "\n\ndef setup_module(module):\n    os.environ[\"TOKENIZER_LENIENT\"] = \"1\"\n",
        )],
        expect: &["setup Setup setup_module"],
    },
    Case {
        name: "a new setUpClass in a TestCase",
        edits: &[(
            "    def setUp(self):",
            "    @classmethod\n    def setUpClass(cls):\n        pass\n\n    def setUp(self):",
        )],
        expect: &["setup Setup TokenTests::setUpClass"],
    },
    Case {
        name: "an assertion method overridden in a TestCase",
        edits: &[(
            "    def setUp(self):",
            "    def assertEqual(self, first, second, msg=None):\n        pass\n\n    def setUp(self):",
        )],
        expect: &["setup Setup TokenTests::assertEqual"],
    },
    Case {
        name: "an __init__ that stops pytest collecting a class",
        edits: &[(
            "    def setup_method(self):",
            "    def __init__(self):\n        pass\n\n    def setup_method(self):",
        )],
        expect: &["setup Setup TestErrors::__init__"],
    },
    Case {
        name: "a custom assertion helper in snake case is a helper",
        edits: &[(
            "    def test_eq(self):",
            "    def assert_token(self, tok):\n        self.assertIsInstance(tok, Token)\n\n    def test_eq(self):",
        )],
        expect: &[],
    },
    Case {
        name: "module-level monkeypatching",
        edits: &[(
            "TOLERANCE = 1e-6\n",
            "TOLERANCE = 1e-6\nos.environ[\"TOKENIZER_LENIENT\"] = \"1\"\n",
        )],
        expect: &["setup Other os.environ[\"TOKENIZER_LENIENT\"] = \"1\""],
    },
    Case {
        name: "a new pytest hook",
        edits: &[(
            END,
            "\n\ndef pytest_collection_modifyitems(items):\n    items.clear()\n",
        )],
        expect: &["setup Setup pytest_collection_modifyitems"],
    },
    // Markers.
    Case {
        name: "@pytest.mark.skip",
        edits: &[(
            "def test_float():",
            "@pytest.mark.skip(reason=\"flaky\")\ndef test_float():",
        )],
        expect: &["changed test_float", "marker Skip @pytest.mark.skip(reason=\"flaky\")"],
    },
    Case {
        name: "@pytest.mark.skipif",
        edits: &[(
            "def test_float():",
            "@pytest.mark.skipif(True, reason=\"later\")\ndef test_float():",
        )],
        expect: &[
            "changed test_float",
            "marker Skip @pytest.mark.skipif(True, reason=\"later\")",
        ],
    },
    Case {
        name: "@pytest.mark.xfail",
        edits: &[("def test_float():", "@pytest.mark.xfail\ndef test_float():")],
        expect: &["changed test_float", "marker Xfail @pytest.mark.xfail"],
    },
    Case {
        name: "pytest.skip() in a body",
        edits: &[(
            "    tokens = tokenize(sample)\n",
            "    pytest.skip(\"not yet\")\n    tokens = tokenize(sample)\n",
        )],
        expect: &["changed test_tokenize_simple", "marker Skip pytest.skip(\"not yet\")"],
    },
    Case {
        name: "pytest.xfail() in a body",
        edits: &[(
            "    tokens = tokenize(sample)\n",
            "    pytest.xfail(\"known\")\n    tokens = tokenize(sample)\n",
        )],
        expect: &["changed test_tokenize_simple", "marker Xfail pytest.xfail(\"known\")"],
    },
    Case {
        name: "pytest.importorskip at module level",
        edits: &[(
            "import pytest\n",
            "import pytest\n\nnumpy = pytest.importorskip(\"numpy\")\n",
        )],
        expect: &[
            "setup Other numpy = pytest.importorskip(\"numpy\")",
            "marker Skip numpy = pytest.importorskip(\"numpy\")",
        ],
    },
    Case {
        name: "a skip in a parametrize case",
        edits: &[(
            "    (\"a b\", 2),",
            "    pytest.param(\"a b\", 2, marks=pytest.mark.skip),",
        )],
        expect: &[
            "changed test_count",
            "marker Skip pytest.param(\"a b\", 2, marks=pytest.mark.skip),",
        ],
    },
    Case {
        name: "@unittest.skip",
        edits: &[(
            "    def test_eq(self):",
            "    @unittest.skip(\"broken\")\n    def test_eq(self):",
        )],
        expect: &["changed TokenTests::test_eq", "marker Skip @unittest.skip(\"broken\")"],
    },
    Case {
        name: "@unittest.skipIf on the class",
        edits: &[(
            "class TokenTests(",
            "@unittest.skipIf(os.name == \"posix\", \"\")\nclass TokenTests(",
        )],
        expect: &[
            "block Container TokenTests",
            "marker Skip @unittest.skipIf(os.name == \"posix\", \"\")",
        ],
    },
    Case {
        name: "@unittest.expectedFailure",
        edits: &[(
            "    def test_repr(self):",
            "    @unittest.expectedFailure\n    def test_repr(self):",
        )],
        expect: &[
            "changed TokenTests::test_repr",
            "marker Xfail @unittest.expectedFailure",
        ],
    },
    Case {
        name: "self.skipTest()",
        edits: &[(
            "        self.assertEqual(repr(self.tok)",
            "        self.skipTest(\"later\")\n        self.assertEqual(repr(self.tok)",
        )],
        expect: &["changed TokenTests::test_repr", "marker Skip self.skipTest(\"later\")"],
    },
    Case {
        name: "raise unittest.SkipTest in setUp",
        edits: &[(
            "        self.tok = Token(\"name\", \"x\")",
            "        raise unittest.SkipTest(\"off\")",
        )],
        expect: &[
            "block Setup TokenTests::setUp",
            "marker Skip raise unittest.SkipTest(\"off\")",
        ],
    },
    Case {
        name: "pytestmark at module level",
        edits: &[(END, "\npytestmark = pytest.mark.skip(reason=\"wip\")\n")],
        expect: &[
            "setup Other pytestmark = pytest.mark.skip(reason=\"wip\")",
            "marker Skip pytestmark = pytest.mark.skip(reason=\"wip\")",
        ],
    },
    Case {
        name: "__test__ = False in a class",
        edits: &[(
            "    \"\"\"Error cases.\"\"\"\n",
            "    \"\"\"Error cases.\"\"\"\n    __test__ = False\n",
        )],
        expect: &[
            "setup Other TestErrors::__test__ = False",
            "marker Exclude __test__ = False",
        ],
    },
    Case {
        name: "__test__ = False set on a test function",
        edits: &[(END, "\ntest_float.__test__ = False\n")],
        expect: &[
            "setup Other test_float.__test__ = False",
            "marker Exclude test_float.__test__ = False",
        ],
    },
    Case {
        name: "a default value added beside annotations is a change",
        edits: &[
            ("def test_float():", "def test_float() -> None:"),
            (
                "def test_count(text, count):",
                "def test_count(text: str, count: int = 0) -> None:",
            ),
        ],
        expect: &["changed test_count"],
    },
    Case {
        name: "type annotations alone are no change",
        edits: &[
            ("def test_float():", "def test_float() -> None:"),
            (
                "def test_count(text, count):",
                "def test_count(text: str, count: \"list[int]\") -> None:",
            ),
        ],
        expect: &[],
    },
    Case {
        name: "markers in comments and strings do not count",
        edits: &[(
            "def test_float():\n",
            "def test_float():\n    # pytest.skip(\"no\")  @pytest.mark.xfail\n",
        )],
        expect: &[],
    },
];

#[test]
fn python_table() {
    run_table(Lang::Python, Scope::TestFile, BASE, CASES);
}

#[test]
fn python_units_have_the_expected_shape() {
    let units = parse(Lang::Python, BASE);
    let shape: Vec<(UnitKind, &str, u32)> = units.iter().map(|u| (u.kind, u.name.as_str(), u.line)).collect();
    assert_eq!(
        shape,
        vec![
            (UnitKind::Import, "import", 2),
            (UnitKind::Import, "import", 3),
            (UnitKind::Import, "import", 5),
            (UnitKind::Import, "mypkg.tokenizer", 7),
            (UnitKind::Helper, "TOLERANCE", 9),
            (UnitKind::Helper, "approx", 12),
            (UnitKind::Helper, "sample", 17),
            (UnitKind::Setup, "clean_env", 22),
            (UnitKind::Test, "test_tokenize_simple", 26),
            (UnitKind::Test, "test_count", 35),
            (UnitKind::Test, "test_float", 39),
            (UnitKind::Container, "TestErrors", 43),
            (UnitKind::Container, "TokenTests", 60),
            (UnitKind::Helper, "__main__", 71),
        ]
    );
    let errors: Vec<(UnitKind, &str)> = units[11].children.iter().map(|u| (u.kind, u.name.as_str())).collect();
    assert_eq!(
        errors,
        vec![
            (UnitKind::Setup, "setup_method"),
            (UnitKind::Test, "test_rejects_nul"),
            (UnitKind::Test, "test_message")
        ]
    );
    assert!(units[11].shell_hash.is_some() && units[8].shell_hash.is_none());
}

#[test]
fn python_markers_on_their_lines() {
    let text = "import pytest\n\n@pytest.mark.skip\ndef test_a():\n    pytest.skip('x')\n\n# pytest.skip()\ns = 'pytest.skip()'\n";
    let found: Vec<(u32, MarkerKind)> = markers(Lang::Python, text).iter().map(|m| (m.line, m.kind)).collect();
    assert_eq!(found, vec![(3, MarkerKind::Skip), (5, MarkerKind::Skip)]);
}

/// A table of cases kept in a module constant and passed whole to `parametrize`.
const NAMED_TABLE: &str = r#"import pytest
from os import path
from os import sep

CASES = [
    ("1", 1),
    ("1+2", 3),
]

LIMITS = [1, 2]


@pytest.mark.parametrize("text,want", CASES)
def test_eval(text, want):
    assert eval(text) == want
"#;

const NAMED_TABLE_CASES: &[Case] = &[
    Case {
        name: "isort merges two imports from one module",
        edits: &[(
            "from os import path\nfrom os import sep\n",
            "from os import path, sep\n",
        )],
        expect: &[],
    },
    Case {
        name: "a row added to the table",
        edits: &[("    (\"1+2\", 3),\n", "    (\"1+2\", 3),\n    (\"2*3\", 6),\n")],
        expect: &[],
    },
    Case {
        name: "a row of the table changed",
        edits: &[("    (\"1+2\", 3),\n", "    (\"1+2\", 4),\n")],
        expect: &["block Helper CASES"],
    },
    Case {
        name: "an item added to a list that is no table",
        edits: &[("LIMITS = [1, 2]", "LIMITS = [1, 2, 3]")],
        expect: &["block Helper LIMITS"],
    },
];

#[test]
fn python_named_table() {
    run_table(Lang::Python, Scope::TestFile, NAMED_TABLE, NAMED_TABLE_CASES);
}
