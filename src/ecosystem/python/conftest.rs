//! pytest's `conftest.py`, judged by what it defines (`Scope::Units`, `closure::units`), wherever pytest looks
//! for one: sealed as absent where there was none, by its definitions where there was one.
//!
//! pytest imports every `conftest.py` on the way to a test, so one can run code around every test below it: a
//! hook (`pytest_runtest_makereport`), an autouse fixture, top-level code, a fixture that replaces one a test
//! already asks for. Those are named. A fixture a test must ask for by name, that no existing test can ask for
//! (its name is new: not one of pytest's own, [`RESERVED`], nor defined twice in the file or in a `conftest.py`
//! above), and an import, change no existing test: they are the agent's, as the same lines in a new test module
//! are. So a fixture-only `conftest.py` beside the tests, for a new test file, is honest wherever the baseline
//! looked — as the same file in a new subdirectory of new tests was (it sits out the oracle's run with them).
//!
//! An **edit of an existing `conftest.py`** gets the same reading, against its definitions at setup: a new
//! fixture a test asks for by a new name, or a new import, is free; a changed or removed definition, new setup
//! or top-level code is named. Why not sealed whole: a fixture shared by new tests belongs in the `conftest.py`
//! that is already there, and refusing it falsely rejects honest work; nothing it adds runs for an existing test
//! unless that test asks for it, which it cannot by a name that did not exist. What the reading does not see
//! (code a decorator's arguments run, an imported module's import-time code, a fixture an installed plugin
//! provides shadowed by one of the same name) is covered by the room where it can be: a `conftest.py` under a
//! test directory stands as sealed in the oracle's run (`testswap`'s test data), and a new one above a
//! baseline test is left out of the oracle's tree (`room::tree`).

use crate::closure::Scope;
use crate::schema::Lang;

/// The names pytest reads in a `conftest.py` (`*`: a prefix): its hooks, whatever defines or imports them, and
/// `pytest_plugins`; the files it leaves out of collection; and the fixtures pytest itself provides (pytest 8
/// and 9, with its `pytester` plugin's) — a test asks for them by name, so a `conftest.py` fixture of one of
/// these names replaces pytest's for every test below it.
const RESERVED: &[&str] = &[
    "pytest_*",
    "collect_ignore",
    "collect_ignore_glob",
    "cache",
    "capfd",
    "capfdbinary",
    "caplog",
    "capsys",
    "capsysbinary",
    "capteesys",
    "doctest_namespace",
    "monkeypatch",
    "pytestconfig",
    "pytester",
    "record_property",
    "record_testsuite_property",
    "record_xml_attribute",
    "recwarn",
    "request",
    "subtests",
    "testdir",
    "tmp_path",
    "tmp_path_factory",
    "tmpdir",
    "tmpdir_factory",
];

/// The scope every `conftest.py` of the project is sealed in.
pub(super) fn scope() -> Scope {
    Scope::Units {
        lang: Lang::Python,
        reserved: RESERVED.iter().map(|name| (*name).to_string()).collect(),
    }
}
