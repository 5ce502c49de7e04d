//! Renames read back: an import respelled to where the code now is, and the moves that look like one.

use std::path::Path;

use super::{Renamed, reading, record_files, respell_sealed};
use crate::testsig::{FileSig, Lang, Scope};

const TEST: &str =
    "const { add } = require('../src/calc.js');\n\ntest('adds', () => {\n  expect(add(1, 2)).toBe(3);\n});\n";

/// A project with `files` (path, content), the test at `test/calc.test.js` sealed as [`TEST`].
fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (path, text) in files {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().expect("a parent")).expect("its directory");
        std::fs::write(full, text).expect("a file of the project");
    }
    dir
}

/// The test sealed where `src/calc.js` was, then read against the project as `files` leave it.
fn read(root: &Path, text: &str) -> Option<Vec<Renamed>> {
    read_file(root, Lang::JavaScript, "test/calc.test.js", TEST, "src/calc.js", text)
}

/// `sealed`, the test file `path`, sealed while `was` (the code it imports) stood in the project; then `was` is
/// gone unless the project holds it again, and `text` is read against the project.
fn read_file(root: &Path, lang: Lang, path: &str, sealed: &str, was: &str, text: &str) -> Option<Vec<Renamed>> {
    let had = root.join(was).exists();
    if !had {
        std::fs::create_dir_all(root.join(was).parent().expect("a parent")).expect("its directory");
        std::fs::write(root.join(was), "// the code as it was\n").expect("the code as it was");
    }
    let mut sig = FileSig::of(lang, sealed);
    record_files(root, path, &mut sig);
    if !had {
        std::fs::remove_file(root.join(was)).expect("the code renamed away");
    }
    reading(root, path, &sig, text)
}

#[test]
fn a_renamed_module_with_the_require_respelled_reads_as_the_sealed_test() {
    let dir = project(&[("src/arith.js", "exports.add = (a, b) => a + b;\n")]);
    let now = TEST.replace("../src/calc.js", "../src/arith.js");
    let renames = read(dir.path(), &now).expect("read as the rename");
    assert_eq!(
        renames,
        [Renamed {
            was: "../src/calc.js".into(),
            now: "../src/arith.js".into()
        }]
    );
    assert_eq!(
        respell_sealed(Lang::JavaScript, Scope::TestFile, TEST, &renames).as_deref(),
        Some(now.as_str()),
        "the sealed file, loading the code where it is now"
    );
}

#[test]
fn an_extensionless_specifier_and_double_quotes_read_alike() {
    let dir = project(&[("src/arith/index.js", "exports.add = (a, b) => a + b;\n")]);
    let now = TEST.replace("'../src/calc.js'", "\"../src/arith\"");
    assert!(read(dir.path(), &now).is_some());
}

#[test]
fn an_import_moved_away_from_code_that_is_still_there_is_no_rename() {
    let dir = project(&[
        ("src/calc.js", "exports.add = (a, b) => a - b;\n"),
        ("src/fake.js", "exports.add = () => 3;\n"),
    ]);
    assert!(read(dir.path(), &TEST.replace("../src/calc.js", "../src/fake.js")).is_none());
}

#[test]
fn the_old_path_found_elsewhere_in_the_project_is_no_rename() {
    // A bundler's alias or a second copy: the old name still answers somewhere.
    let dir = project(&[
        ("lib/src/calc.js", "exports.add = (a, b) => a - b;\n"),
        ("src/arith.js", "exports.add = () => 3;\n"),
    ]);
    assert!(read(dir.path(), &TEST.replace("../src/calc.js", "../src/arith.js")).is_none());
}

#[test]
fn a_new_path_that_is_a_test_file_a_package_or_missing_is_no_rename() {
    let dir = project(&[
        ("test/fake.test.js", "exports.add = () => 3;\n"),
        ("node_modules/fake/index.js", "exports.add = () => 3;\n"),
    ]);
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
    let dir = project(&[("src/arith.js", "exports.add = (a, b) => a + b;\n")]);
    let now = TEST
        .replace("../src/calc.js", "../src/arith.js")
        .replace("toBe(3)", "toBe(add(1, 2))");
    assert!(read(dir.path(), &now).is_none());
}

#[test]
fn other_names_bound_from_the_new_path_are_no_rename() {
    let dir = project(&[("src/arith.js", "exports.sum = (a, b) => a + b;\n")]);
    let now = TEST.replace(
        "const { add } = require('../src/calc.js')",
        "const { sum: add } = require('../src/arith.js')",
    );
    assert!(read(dir.path(), &now).is_none());
}

#[test]
fn a_quoted_include_of_a_renamed_header() {
    let sealed = "#include <gtest/gtest.h>\n#include \"calc.h\"\n\nTEST(Calc, Adds) { EXPECT_EQ(add(1, 2), 3); }\n";
    let dir = project(&[("src/arith.h", "int add(int, int);\n")]);
    let now = sealed.replace("\"calc.h\"", "\"arith.h\"");
    let read = |root: &Path| read_file(root, Lang::Cpp, "tests/calc_test.cc", sealed, "src/calc.h", &now);
    assert!(read(dir.path()).is_some());
    let kept = project(&[
        ("src/arith.h", "int add(int, int);\n"),
        ("lib/x/calc.h", "int add(int, int);\n"),
    ]);
    assert!(read(kept.path()).is_none(), "a calc.h is still in the project");
}

#[test]
fn a_python_module_renamed_with_the_from_import_respelled() {
    let sealed = "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n";
    let now = sealed.replace("from calc import", "from arith import");
    let dir = project(&[("arith.py", "def add(a, b):\n    return a + b\n")]);
    let read = |root: &Path, was: &str| read_file(root, Lang::Python, "tests/test_calc.py", sealed, was, &now);
    let renames = read(dir.path(), "calc.py").expect("read as the rename");
    assert_eq!(
        respell_sealed(Lang::Python, Scope::TestFile, sealed, &renames).as_deref(),
        Some(now.as_str())
    );
    // A package of that name anywhere in the project, or a module the baseline found in no file of the project
    // (an installed one: the sealed import recorded no file), is no rename.
    let kept = project(&[
        ("arith.py", "def add(a, b):\n    return 3\n"),
        ("lib/calc/__init__.py", ""),
    ]);
    assert!(read(kept.path(), "calc.py").is_none());
    let mut sig = FileSig::of(Lang::Python, sealed);
    record_files(dir.path(), "tests/test_calc.py", &mut sig);
    assert!(reading(dir.path(), "tests/test_calc.py", &sig, &now).is_none());
}

#[test]
fn a_python_module_imported_whole_renamed_with_its_uses() {
    let sealed = "import calc\n\n\ndef test_add():\n    assert calc.add(1, 2) == 3\n";
    let now = sealed.replace("calc", "arith");
    let dir = project(&[("arith.py", "def add(a, b):\n    return a + b\n")]);
    let read = |text: &str| read_file(dir.path(), Lang::Python, "tests/test_calc.py", sealed, "calc.py", text);
    let renames = read(&now).expect("read as the rename");
    assert_eq!(
        respell_sealed(Lang::Python, Scope::TestFile, sealed, &renames).as_deref(),
        Some(now.as_str())
    );
    // A use of the new name that is no use of the module (a local, a keyword argument) is no rename.
    let local = now.replace("    assert arith.add", "    arith = 3\n    assert arith.add");
    assert!(read(&local).is_none());
    let keyword = now.replace("arith.add(1, 2)", "arith.add(1, b=arith)");
    assert!(read(&keyword).is_none());
}
