//! Renames read back: an import respelled to where the code now is, and the moves that look like one.

use std::path::Path;

use super::{Renamed, reading, record_files, respell_sealed};
use crate::testsig::{FileSig, Lang};

const TEST: &str =
    "const { add } = require('../src/calc.js');\n\ntest('adds', () => {\n  expect(add(1, 2)).toBe(3);\n});\n";

/// The code under test as it was sealed (its bug in `add`).
const CODE: &str = "// Sums and products.\nexports.add = (a, b) => a - b;\nexports.mul = (a, b) => a * b;\nexports.neg = (a) => -a;\nexports.abs = (a) => (a < 0 ? -a : a);\n";

/// The same code, its bug fixed.
fn fixed() -> String {
    CODE.replace("a - b", "a + b")
}

/// A project with `files` (path, content).
fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (path, text) in files {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().expect("a parent")).expect("its directory");
        std::fs::write(full, text).expect("a file of the project");
    }
    dir
}

/// A test file sealed while the code it imports stood in the project.
struct Sealed<'a> {
    lang: Lang,
    /// The test file, project-relative.
    path: &'a str,
    text: &'a str,
    /// The code it imports, and that code's text when the test was sealed.
    was: (&'a str, &'a str),
}

impl Sealed<'_> {
    /// Its signature, taken while the code stood in the project (removed again unless it is there now).
    fn sig(&self, root: &Path) -> FileSig {
        let (was, code) = self.was;
        let had = root.join(was).exists();
        if !had {
            std::fs::create_dir_all(root.join(was).parent().expect("a parent")).expect("its directory");
            std::fs::write(root.join(was), code).expect("the code as it was");
        }
        let mut sig = FileSig::of(self.lang, self.text);
        record_files(root, self.path, &mut sig);
        if !had {
            std::fs::remove_file(root.join(was)).expect("the code renamed away");
        }
        sig
    }

    /// `now`, the test file as the agent left it, read against the project as it is.
    fn read(&self, root: &Path, now: &str) -> Option<Vec<Renamed>> {
        reading(root, self.path, &self.sig(root), now)
    }

    /// The sealed file as the run stands it after `renames`.
    fn stood(&self, root: &Path, renames: &[Renamed]) -> Option<String> {
        respell_sealed(self.path, &self.sig(root), self.text, renames)
    }
}

/// [`TEST`] sealed while `src/calc.js` held [`CODE`].
const JS: Sealed = Sealed {
    lang: Lang::JavaScript,
    path: "test/calc.test.js",
    text: TEST,
    was: ("src/calc.js", CODE),
};

fn read(root: &Path, text: &str) -> Option<Vec<Renamed>> {
    JS.read(root, text)
}

#[test]
fn a_renamed_module_with_the_require_respelled_reads_as_the_sealed_test() {
    let dir = project(&[("src/arith.js", &fixed())]);
    let now = TEST.replace("../src/calc.js", "../src/arith.js");
    let renames = read(dir.path(), &now).expect("read as the rename");
    assert_eq!(
        renames,
        [Renamed {
            was: "../src/calc.js".into(),
            now: "../src/arith.js".into(),
            names: vec!["add".into()],
            statement: None,
        }]
    );
    assert_eq!(
        JS.stood(dir.path(), &renames).as_deref(),
        Some(now.as_str()),
        "the sealed file, loading the code where it is now"
    );
}

#[test]
fn an_extensionless_specifier_and_double_quotes_read_alike() {
    let dir = project(&[("src/arith/index.js", CODE)]);
    let now = TEST.replace("'../src/calc.js'", "\"../src/arith\"");
    assert!(read(dir.path(), &now).is_some());
    // A directory whose `package.json` node reads first: the file loaded is not known.
    let manifest = project(&[
        ("src/arith/index.js", CODE),
        ("src/arith/package.json", "{\"main\": \"fast.js\"}"),
    ]);
    assert!(read(manifest.path(), &now).is_none());
}

#[test]
fn an_import_moved_away_from_code_that_is_still_there_is_no_rename() {
    let dir = project(&[("src/calc.js", CODE), ("src/fake.js", &fixed())]);
    assert!(read(dir.path(), &TEST.replace("../src/calc.js", "../src/fake.js")).is_none());
}

#[test]
fn a_new_module_that_is_not_the_code_renamed_is_no_rename() {
    // The code kept under another name (`.cjs` too), the test pointed at a copy or at a module of the agent's.
    let now = TEST.replace("../src/calc.js", "../src/arith.js");
    for kept in ["src/impl.js", "lib/calc.cjs"] {
        let dir = project(&[(kept, CODE), ("src/arith.js", &fixed())]);
        assert!(read(dir.path(), &now).is_none(), "{kept}");
    }
    let fake = project(&[("src/arith.js", "exports.add = () => 3;\nexports.mul = () => 6;\n")]);
    assert!(read(fake.path(), &now).is_none());
}

#[test]
fn the_old_path_found_elsewhere_in_the_project_is_no_rename() {
    // A bundler's alias, a second copy, an include directory under `node_modules`: the old name still answers.
    for elsewhere in ["lib/src/calc.js", "node_modules/x/src/calc.js"] {
        let dir = project(&[(elsewhere, CODE), ("src/arith.js", &fixed())]);
        let now = TEST.replace("../src/calc.js", "../src/arith.js");
        assert!(read(dir.path(), &now).is_none(), "{elsewhere}");
    }
}

#[test]
fn a_new_path_that_is_a_test_file_a_package_or_missing_is_no_rename() {
    let dir = project(&[("test/fake.test.js", CODE), ("node_modules/fake/index.js", CODE)]);
    for now in [
        "../test/fake.test.js",
        "../node_modules/fake/index.js",
        "../src/nowhere.js",
        "fake",
    ] {
        assert!(
            read(dir.path(), &TEST.replace("../src/calc.js", now)).is_none(),
            "{now}"
        );
    }
}

#[test]
fn a_rename_beside_another_change_to_the_test_is_no_rename() {
    let dir = project(&[("src/arith.js", CODE)]);
    let now = TEST
        .replace("../src/calc.js", "../src/arith.js")
        .replace("toBe(3)", "toBe(add(1, 2))");
    assert!(read(dir.path(), &now).is_none());
}

#[test]
fn other_names_bound_from_the_new_path_are_no_rename() {
    let dir = project(&[("src/arith.js", CODE)]);
    let now = TEST.replace(
        "const { add } = require('../src/calc.js')",
        "const { sum: add } = require('../src/arith.js')",
    );
    assert!(read(dir.path(), &now).is_none());
}

#[test]
fn a_quoted_include_of_a_renamed_header() {
    let header = "#pragma once\nint add(int, int);\nint mul(int, int);\n";
    let test = Sealed {
        lang: Lang::Cpp,
        path: "tests/calc_test.cc",
        text: "#include <gtest/gtest.h>\n#include \"calc.h\"\n\nTEST(Calc, Adds) { EXPECT_EQ(add(1, 2), 3); }\n",
        was: ("src/calc.h", header),
    };
    let now = test.text.replace("\"calc.h\"", "\"arith.h\"");
    assert!(test.read(project(&[("src/arith.h", header)]).path(), &now).is_some());
    let kept = project(&[("src/arith.h", header), ("lib/x/calc.h", header)]);
    assert!(
        test.read(kept.path(), &now).is_none(),
        "a calc.h is still in the project"
    );
}

/// A Python module's code as sealed.
const PY: &str =
    "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n\n\ndef neg(a):\n    return -a\n";

/// A pytest test file importing `calc` as `text` does, sealed while `calc.py` held [`PY`].
fn python(text: &str) -> Sealed<'_> {
    Sealed {
        lang: Lang::Python,
        path: "tests/test_calc.py",
        text,
        was: ("calc.py", PY),
    }
}

#[test]
fn a_python_module_renamed_with_the_from_import_respelled() {
    let test = python("from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n");
    let now = test.text.replace("from calc import", "from arith import");
    let dir = project(&[("arith.py", &PY.replace("a - b", "a + b"))]);
    let renames = test.read(dir.path(), &now).expect("read as the rename");
    assert_eq!(test.stood(dir.path(), &renames).as_deref(), Some(now.as_str()));
    // A package of the old name anywhere in the project, or a package of the new name beside the renamed module
    // (Python's finder takes the package first), is no rename.
    let kept = project(&[("arith.py", PY), ("lib/calc/__init__.py", "")]);
    assert!(test.read(kept.path(), &now).is_none());
    let package = project(&[
        ("arith.py", PY),
        ("arith/__init__.py", "def add(a, b):\n    return 3\n"),
    ]);
    assert!(test.read(package.path(), &now).is_none());
    // A module the baseline found in no file of the project (an installed one) records no file: no rename.
    let mut sig = FileSig::of(Lang::Python, test.text);
    record_files(dir.path(), test.path, &mut sig);
    assert!(reading(dir.path(), test.path, &sig, &now).is_none());
}

#[test]
fn a_python_module_split_in_two_is_no_rename() {
    let test = python(
        "from calc import add\nfrom calc import mul\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n",
    );
    let now = test
        .text
        .replace("from calc import add", "from sums import add")
        .replace("from calc import mul", "from products import mul");
    let (sums, products) = PY.split_at(PY.find("def mul").expect("mul"));
    let dir = project(&[("sums.py", sums), ("products.py", products)]);
    // Each half keeps half of the code's shingles or less: neither is read as the code renamed.
    assert!(test.read(dir.path(), &now).is_none());
}

#[test]
fn a_python_module_imported_whole_renamed_with_its_uses() {
    let test = python("import calc\n\n\ndef test_add():\n    assert calc.add(1, 2) == 3\n");
    let now = test.text.replace("calc", "arith");
    let dir = project(&[("arith.py", PY)]);
    let renames = test.read(dir.path(), &now).expect("read as the rename");
    assert_eq!(test.stood(dir.path(), &renames).as_deref(), Some(now.as_str()));
    // A use of the new name that is no use of the module (a local, a keyword argument) is no rename.
    let local = now.replace("    assert arith.add", "    arith = 3\n    assert arith.add");
    assert!(test.read(dir.path(), &local).is_none());
    let keyword = now.replace("arith.add(1, 2)", "arith.add(1, b=arith)");
    assert!(test.read(dir.path(), &keyword).is_none());
}

#[test]
fn a_python_relative_import_in_a_package_is_respelled_where_the_test_is() {
    let test = Sealed {
        path: "pkg/tests/test_calc.py",
        was: ("pkg/calc.py", PY),
        ..python("from ..calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n")
    };
    let now = test.text.replace("..calc", "..arith");
    let dir = project(&[("pkg/arith.py", PY)]);
    let renames = test.read(dir.path(), &now).expect("a rename");
    assert_eq!(test.stood(dir.path(), &renames).as_deref(), Some(now.as_str()));
}

#[test]
fn a_ruby_require_by_the_load_path_become_require_relative() {
    let test = Sealed {
        lang: Lang::Ruby,
        path: "test/calc_test.rb",
        text: "require \"minitest/autorun\"\nrequire \"calc\"\n\nclass CalcTest < Minitest::Test\n  def test_add\n    assert_equal 3, Calc.add(1, 2)\n  end\nend\n",
        was: (
            "lib/calc.rb",
            "module Calc\n  def self.add(a, b)\n    a - b\n  end\nend\n",
        ),
    };
    let now = test
        .text
        .replace("require \"calc\"", "require_relative \"../lib/arith\"");
    let dir = project(&[("lib/arith.rb", test.was.1)]);
    let renames = test.read(dir.path(), &now).expect("read as the rename");
    assert_eq!(
        test.stood(dir.path(), &renames).as_deref(),
        Some(now.as_str()),
        "the agent's statement stands for the sealed one"
    );
    // `load`, which runs the file again at every call, is no require.
    let load = test.text.replace("require \"calc\"", "load \"../lib/arith.rb\"");
    assert!(test.read(dir.path(), &load).is_none());
}
