//! The interface's laws, checked over every kind at once: whatever a check reports can be named to `allow`, and
//! accepting everything leaves nothing to report; the order and the one-item-per-path rule; what the guard and
//! the watch get; what `status` describes.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::*;
use crate::closure::observed::{Observed, Searched, Tracing, Used};
use crate::closure::{Closure, Scope, SealedFile, read_parts};
use crate::testseal::Inventory;
use crate::testsig::Lang;

/// A Python project: a pytest configuration, a module under test, one test file and its data, a `--seal`
/// glob over `docs/`, a venv the baseline run imported from and a directory it searched.
struct Fixture {
    _tmp: tempfile::TempDir,
    root: PathBuf,
}

const TEST: &str = "from calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n";

impl Fixture {
    fn new() -> Fixture {
        let tmp = tempfile::tempdir().expect("test fixture");
        let root = tmp.path().to_path_buf();
        let f = Fixture { _tmp: tmp, root };
        f.write("pytest.ini", "[pytest]\naddopts = -q\n");
        f.write("calc.py", "def add(a, b):\n    return a + b\n");
        f.write("tests/test_calc.py", TEST);
        f.write("tests/cases.txt", "1 2 3\n");
        f.write("docs/spec.md", "# spec\n");
        f.write(".venv/lib/site-packages/pytest/__init__.py", "# pytest\n");
        f
    }

    fn write(&self, relative: &str, text: &str) {
        let path = self.root.join(relative);
        std::fs::create_dir_all(path.parent().expect("test fixture")).expect("test fixture");
        std::fs::write(path, text).expect("test fixture");
    }

    /// Every kind taken as setup takes it.
    fn take(&self) -> Inputs {
        let root = &self.root;
        let globs = UserGlobs::take(&["docs/**".to_string()], root).expect("hash the globs");
        let mut derived = Closure::take("pytest", root);
        // What the tests read of the environment and of the run's output, as the derived kind records it.
        derived.steer_by(root, crate::testseal::env_reads::read(root, &derived));
        let venv_file = ".venv/lib/site-packages/pytest/__init__.py";
        let observed = Observed {
            tracing: Tracing::Traced { events: 3 },
            closure: Closure {
                files: vec![observed_file(root, venv_file), observed_file(root, "pytest.ini")],
                ..Closure::default()
            },
            searched: vec![Searched {
                dir: String::new(),
                names: entries(root),
            }],
            used: vec![Used {
                name: "pytest".to_string(),
                path: venv_file.to_string(),
            }],
            loaded: Vec::new(),
            ran: None,
        };
        let inventory = Inventory::take(root, vec![Lang::Python]);
        let tests = Tests {
            names: inventory.files.keys().cloned().collect(),
            inventory: Some(inventory),
        };
        let own = tests.own_files();
        let copies = crate::testswap::Copies::take(root, &own);
        Inputs {
            globs,
            derived: Some(derived),
            observed: Some(observed),
            data: TestData::new(copies, own),
            tests,
            aware: None,
            accepted: Default::default(),
        }
    }

    fn check(&self, inputs: &Inputs) -> Vec<Move> {
        inputs.check(&self.root, &|_| true).expect("check")
    }
}

fn observed_file(root: &Path, path: &str) -> SealedFile {
    let why = crate::closure::Why::Observed(crate::closure::observed::Seen::Read);
    SealedFile {
        parts: read_parts(root, path, &Scope::Whole),
        path: path.to_string(),
        scope: Scope::Whole,
        why,
    }
}

fn entries(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .expect("test fixture")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

/// One move of every kind: a glob's file, a derived file (also observed), a venv file, a shadow, a test.
fn move_everything(f: &Fixture) {
    f.write("docs/spec.md", "# spec, rewritten\n");
    f.write("pytest.ini", "[pytest]\naddopts = -q -k nothing\n");
    f.write(".venv/lib/site-packages/pytest/__init__.py", "# patched\n");
    f.write("pytest.py", "# a stand-in for pytest\n");
    f.write("tests/test_calc.py", &TEST.replace("== 3", "== 3 or True"));
}

#[test]
fn a_fresh_take_reports_nothing() {
    let f = Fixture::new();
    assert_eq!(f.check(&f.take()), Vec::new());
}

#[test]
fn every_kind_reports_its_moves_in_order_one_item_per_closure_file() {
    let f = Fixture::new();
    let inputs = f.take();
    move_everything(&f);
    let moves = f.check(&inputs);
    let seen: Vec<(Source, &str)> = moves.iter().map(|m| (m.source(), m.path())).collect();
    assert_eq!(
        seen,
        vec![
            (Source::UserGlob, "docs/spec.md"),
            (Source::Derived, "pytest.ini"),
            (Source::Observed, ".venv/lib/site-packages/pytest/__init__.py"),
            (Source::Observed, "pytest.py"),
            (Source::Test, "tests/test_calc.py"),
        ],
        "{moves:#?}"
    );
    assert!(matches!(moves[3], Move::Shadow(_)));
}

#[test]
fn whatever_a_check_reports_can_be_named_and_accepting_it_all_leaves_nothing() {
    let f = Fixture::new();
    let mut inputs = f.take();
    move_everything(&f);
    let moves = f.check(&inputs);
    for m in &moves {
        assert!(
            inputs.seals(&f.root, m.path()),
            "`loopgate allow {}` would be refused",
            m.path()
        );
    }
    let named: Vec<String> = moves.iter().map(|m| m.path().to_string()).collect();
    let accepted = inputs
        .accept(&f.root, &|path| named.iter().any(|n| n == path))
        .expect("accept");
    for path in &named {
        assert!(accepted.contains(path), "{path} not accepted: {accepted:?}");
    }
    assert_eq!(f.check(&inputs), Vec::new());
    assert_eq!(
        inputs.accepted,
        ["globs", "derived", "observed", "tests", "data"].into_iter().collect()
    );
}

#[test]
fn accepting_one_path_leaves_the_others_reported() {
    let f = Fixture::new();
    let mut inputs = f.take();
    move_everything(&f);
    let accepted = inputs.accept(&f.root, &|path| path == "pytest.ini").expect("accept");
    assert_eq!(accepted, vec!["pytest.ini".to_string()]);
    let left: Vec<String> = f.check(&inputs).iter().map(|m| m.path().to_string()).collect();
    assert!(!left.iter().any(|p| p == "pytest.ini"), "{left:?}");
    assert_eq!(left.len(), 4, "{left:?}");
    assert_eq!(inputs.accepted, ["derived", "observed"].into_iter().collect());
}

#[test]
fn an_unknown_path_is_not_sealed() {
    let f = Fixture::new();
    let inputs = f.take();
    for key in ["calc.py", "README.md", "src/parser.py"] {
        assert!(!inputs.seals(&f.root, key), "{key}");
    }
}

#[test]
fn the_closure_opt_out_silences_both_closures_and_the_test_opt_out_their_watch() {
    let f = Fixture::new();
    let inputs = f.take();
    move_everything(&f);
    let no_closure = |check| check != Check::Closure;
    let sources: BTreeSet<Source> = inputs
        .check(&f.root, &no_closure)
        .expect("check")
        .iter()
        .map(Move::source)
        .collect();
    assert_eq!(sources, BTreeSet::from([Source::UserGlob, Source::Test]));
    let no_tests = |check| check != Check::Tests;
    let watched = inputs.watched(&f.root, &no_tests);
    assert!(watched.contains(&f.root.join("pytest.ini")));
    assert!(!watched.contains(&f.root.join("tests/test_calc.py")), "{watched:?}");
    assert!(!watched.contains(&f.root.join("tests/cases.txt")), "{watched:?}");
    let all = inputs.watched(&f.root, &|_| true);
    for path in ["docs/spec.md", "tests/test_calc.py", "tests/cases.txt", "pytest.ini"] {
        assert!(all.contains(&f.root.join(path)), "{path} not watched: {all:?}");
    }
    // The venv holds thousands of files: checked after the run, not watched.
    assert!(!all.iter().any(|p| p.starts_with(f.root.join(".venv"))), "{all:?}");
}

#[test]
fn the_guard_sees_what_the_seal_holds_and_no_companion() {
    let f = Fixture::new();
    let taken = f.take();
    let seal_only = Inputs {
        observed: None,
        tests: Tests {
            inventory: None,
            ..taken.tests.clone()
        },
        data: TestData::default(),
        ..taken.clone()
    };
    let guard = seal_only.guard(&|_| true);
    assert_eq!(guard, taken.guard(&|_| true), "the companions add nothing to the guard");
    assert_eq!(guard.patterns, vec!["docs/**".to_string()]);
    for path in ["docs/spec.md", "pytest.ini", "tests/test_calc.py"] {
        assert!(guard.files.contains(&PathBuf::from(path)), "{path}: {guard:?}");
    }
    assert!(guard.inspect.contains(&PathBuf::from("tests/test_calc.py")));
    assert!(guard.names.contains(&"conftest.py".to_string()), "{guard:?}");
    let off = seal_only.guard(&|check| check != Check::Closure && check != Check::Tests && check != Check::Skips);
    assert_eq!(off.files, vec![PathBuf::from("docs/spec.md")]);
}

#[test]
fn status_describes_every_file_with_its_source() {
    let f = Fixture::new();
    let described = f.take().describe(&|_| true);
    let of = |source| {
        described
            .iter()
            .filter(|d| d.source == source)
            .map(|d| d.path.as_str())
            .collect::<Vec<_>>()
    };
    assert_eq!(of(Source::UserGlob), vec!["docs/spec.md"]);
    assert!(of(Source::Derived).contains(&"pytest.ini"), "{described:?}");
    assert!(of(Source::Observed).contains(&"pytest.ini"));
    assert_eq!(of(Source::Test), vec!["tests/test_calc.py"]);
    assert_eq!(of(Source::TestData), vec!["tests/cases.txt"]);
    let absent = described.iter().filter(|d| !d.exists).count();
    assert!(
        absent > 0,
        "the derivation seals absent configuration too: {described:?}"
    );
    assert!(
        described
            .iter()
            .all(|d| d.why.is_some() == matches!(d.source, Source::Derived | Source::Observed))
    );
}

/// Setup's loop over the kinds takes each as the kind's own module does, in the list's order: the tests through
/// the derived closure, the test data and the traces past the tests' own files; the observed closure is left to
/// the baseline run.
#[test]
fn setup_takes_every_kind_through_the_kinds_before_it() {
    let f = Fixture::new();
    let by_hand = f.take();
    let patterns = ["docs/**".to_string()];
    let mut taking = Taking {
        root: &f.root,
        command: Some("pytest"),
        patterns: &patterns,
        checks: &|_| true,
        handed: Handed::default(),
    };
    let taken = Inputs::take(&mut taking).expect("take");
    assert_eq!(taken.globs, by_hand.globs);
    assert_eq!(taken.derived, by_hand.derived);
    assert_eq!(taken.observed, None);
    assert_eq!(taken.tests.names, vec!["tests/test_calc.py".to_string()]);
    assert_eq!(taking.handed.own_tests, taken.tests.own_files());
    assert_eq!(taken.data.copies.files, by_hand.data.copies.files);
    assert!(taken.data.copies.files.contains_key("tests/cases.txt"));
    assert!(taken.aware.is_some());
}

/// Without a verify command nothing runs the tests: only the globs and the test data the walk finds are taken.
#[test]
fn without_a_command_setup_takes_no_closure_tests_or_traces() {
    let f = Fixture::new();
    let mut taking = Taking {
        root: &f.root,
        command: None,
        patterns: &[],
        checks: &|_| true,
        handed: Handed::default(),
    };
    let taken = Inputs::take(&mut taking).expect("take");
    assert_eq!(taken.derived, None);
    assert!(taken.tests.names.is_empty() && taken.tests.inventory.is_none());
    assert!(taken.aware.is_none());
    assert!(taken.globs.files.is_empty());
}
