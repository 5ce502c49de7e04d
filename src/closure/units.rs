//! A file of code a runner loads on its own from every directory on the way to its tests ([`Scope::Units`]:
//! pytest's `conftest.py`), judged by what it defines, as a new test file is (`testsig`), not by its bytes.
//!
//! Such a file runs around the tests: its setup (hooks, a fixture that applies itself) and its other top-level
//! code run for every test below it, so each of those is a part, and so is every definition already there (a
//! changed fixture changes the tests that ask for it). A *helper* — a definition that runs only when a test asks
//! for it by name (a fixture that does not apply itself, a plain function, a constant) — and an import are free
//! to appear: no existing test asks for a name that was not there, unless the name is one the runner reads or
//! provides itself (`reserved`, an entry ending in `*` a prefix: pytest's hooks and own fixtures,
//! `pytest_plugins`, `collect_ignore`), one defined twice in the file (the later replaces the earlier), one a
//! file of the same name above defines (the nearer one wins for every test below it), or the definition is
//! renamed by its decorator (`@fixture(name=…)`). Those count like setup, and so does an import that binds such
//! a name or every name (`*`).
//! So a new fixture beside new tests is honest work wherever the file is, while a fixture that shadows one the
//! existing tests use, an autouse fixture or a hook is named.
//!
//! What a lexical reading cannot see (as for test files, `testsig`): code a definition runs as it is defined (a
//! decorator's arguments, a default value) and what an imported module does when it loads.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::schema::Lang;
use crate::testsig::{self, Unit, UnitKind};

/// What a digest of a part that may appear starts with ([`super::parts::compare`] lets it appear; changed or
/// removed, it counts like any other).
pub const ADDABLE: &str = "(may appear) ";

/// The parts of `text` as labelled texts to digest, a part that may appear marked [`ADDABLE`] in its text.
pub(crate) fn parts(lang: Lang, reserved: &[String], text: &str) -> Vec<(String, String)> {
    let units = testsig::parse(lang, text);
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for unit in &units {
        *seen.entry(unit.name.as_str()).or_default() += 1;
    }
    let mut labels: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for unit in &units {
        let addable = match unit.kind {
            UnitKind::Import => true,
            UnitKind::Helper => {
                seen[unit.name.as_str()] == 1 && !is_reserved(reserved, &unit.name) && !renamed(&lines, unit.line)
            }
            _ => false,
        };
        if unit.kind == UnitKind::Import && !unit.names.is_empty() {
            // One part per name it binds: a name added to an import is an import added, unless it binds a name
            // the runner reads (a hook, a fixture of its own) or every name (`*`).
            for name in &unit.names {
                let bound = name.rsplit(" as ").next().unwrap_or(name);
                let bound = bound.rsplit('.').next().unwrap_or(bound);
                let mark = if bound == "*" || is_reserved(reserved, bound) {
                    ""
                } else {
                    ADDABLE
                };
                let label = match unit.name.as_str() {
                    "import" => format!("import {name}"),
                    module => format!("from {module} import {name}"),
                };
                out.push((label, format!("{mark}{name}")));
            }
            continue;
        }
        let mut label = format!("{} {}", kind_word(unit.kind), unit.name);
        let n = labels.entry(label.clone()).or_default();
        *n += 1;
        if *n > 1 {
            label = format!("{label} ({})", *n);
        }
        let mark = if addable { ADDABLE } else { "" };
        out.push((label, format!("{mark}{}", unit.hash)));
    }
    out
}

/// Whether `name` is one of `reserved`: listed, or starting with an entry that ends in `*` (`pytest_*`).
fn is_reserved(reserved: &[String], name: &str) -> bool {
    reserved.iter().any(|entry| match entry.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => entry == name,
    })
}

/// Whether the decorators above line `line` (1-based) give the definition another name (`@fixture(name="x")`):
/// it is then known by that name, which this reading does not follow, so it counts.
fn renamed(lines: &[&str], line: u32) -> bool {
    let above = lines[..(line as usize).saturating_sub(1).min(lines.len())].iter().rev();
    above
        .take_while(|l| !l.trim().is_empty() && !l.starts_with(|c: char| c.is_alphabetic()))
        .any(|l| {
            let l: String = l.chars().filter(|c| !c.is_whitespace()).collect();
            l.contains("name=")
        })
}

/// The names the files named like `path` in the directories above it, up to `root`, define: a definition of
/// one of them in `path` replaces it for the tests below.
pub(crate) fn defined_above(root: &Path, path: &str, lang: Lang) -> BTreeSet<String> {
    let relative = Path::new(path);
    let (Some(name), Some(dir)) = (relative.file_name(), relative.parent()) else {
        return BTreeSet::new();
    };
    dir.ancestors()
        .skip(1)
        .filter_map(|above| std::fs::read_to_string(root.join(above).join(name)).ok())
        .flat_map(|text| testsig::parse(lang, &text).into_iter().map(|unit: Unit| unit.name))
        .collect()
}

/// How a part of a kind is named to people.
fn kind_word(kind: UnitKind) -> &'static str {
    match kind {
        UnitKind::Test => "test",
        UnitKind::Container => "class",
        UnitKind::Import => "import",
        UnitKind::Helper => "definition",
        UnitKind::Setup => "setup code",
        UnitKind::Other => "top-level code",
    }
}

#[cfg(test)]
mod tests {
    use super::super::parts::{PartChange, compare, digests};
    use super::super::{Scope, read_parts};
    use crate::schema::Lang;

    const BASE: &str = "import pytest\n\nimport calc\n\n\n@pytest.fixture\ndef add():\n    return calc.add\n";

    fn scope() -> Scope {
        Scope::Units {
            lang: Lang::Python,
            reserved: vec![
                "monkeypatch".into(),
                "tmp_path".into(),
                "pytest_*".into(),
                "collect_ignore".into(),
            ],
        }
    }

    fn moved(before: Option<&str>, after: &str) -> Vec<(String, PartChange)> {
        let scope = scope();
        compare(
            &digests(&scope, before.map(str::as_bytes)),
            &digests(&scope, Some(after.as_bytes())),
        )
    }

    /// Where there was no file and where there was one, what only a test asking by a new name runs is free:
    /// a fixture without `autouse`, a plain function, an import, a name added to an import, a docstring.
    #[test]
    fn new_helpers_and_imports_may_appear_in_a_new_file_or_an_existing_one() {
        let more = "\n\n@pytest.fixture(scope=\"module\")\ndef pairs():\n    return [(1, 1, 2)]\n\n\ndef helper(x):\n    return x\n";
        for (before, after) in [
            (None, BASE.to_string()),
            (None, format!("\"\"\"Fixtures.\"\"\"\n{BASE}{more}")),
            (Some(BASE), format!("{BASE}{more}")),
            (Some(BASE), format!("import json\n{BASE}{more}")),
            (
                Some(BASE),
                BASE.replace("import calc", "import calc\nfrom calc import add as plus, mul"),
            ),
            (
                Some(BASE),
                BASE.replace("    return calc.add", "    # the code under test\n    return calc.add"),
            ),
        ] {
            assert_eq!(moved(before, &after), vec![], "{before:?} → {after}");
        }
    }

    /// Everything that runs around existing tests, or changes what they ask for, is a part: a hook, an autouse
    /// fixture, top-level code, a changed or removed definition, a definition replacing another of its name or
    /// one the runner provides, or one the runner reads.
    #[test]
    fn what_runs_around_the_tests_or_replaces_a_definition_counts() {
        // A hook, defined bare or decorated; an autouse fixture; top-level code; a definition again; one of a name
        // pytest provides; pytest's own module-level names; a hook or a provided name imported, or every name; a
        // fixture renamed by its decorator.
        for added in [
            "\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    yield\n",
            "\n\ndef pytest_collection_modifyitems(items):\n    items.clear()\n",
            "\n\n@pytest.fixture(autouse=True)\ndef fixed(monkeypatch):\n    monkeypatch.setattr(calc, \"add\", lambda a, b: a + b)\n",
            "\ncalc.add = lambda a, b: a + b\n",
            "\n\n@pytest.fixture\ndef add():\n    return lambda a, b: a + b\n",
            "\n\n@pytest.fixture\ndef tmp_path():\n    return None\n",
            "\npytest_plugins = [\"passall\"]\n",
            "\ncollect_ignore = [\"tests/test_calc.py\"]\n",
            "\nfrom passall import pytest_runtest_makereport\n",
            "\nfrom passall import *\n",
            "\nfrom helpers import fake as tmp_path\n",
            "\n\n@pytest.fixture(\n    name=\"add\",\n)\ndef fake_add():\n    return None\n",
        ] {
            for before in [None, Some(BASE)] {
                let after = format!("{BASE}{added}");
                assert!(
                    moved(before, &after)
                        .iter()
                        .any(|(_, change)| *change == PartChange::Added),
                    "{before:?} → {after}"
                );
            }
        }
        let changed = BASE.replace("return calc.add", "return lambda a, b: a + b");
        assert_eq!(
            moved(Some(BASE), &changed),
            vec![("definition add".into(), PartChange::Changed)]
        );
        let removed = BASE.replace("import calc", "import os");
        assert!(moved(Some(BASE), &removed).contains(&("import calc".into(), PartChange::Removed)));
        let autouse_now = BASE.replace("@pytest.fixture", "@pytest.fixture(autouse=True)");
        assert_eq!(
            moved(Some(BASE), &autouse_now).len(),
            2,
            "the fixture became setup code"
        );
    }

    /// A definition of a name a same-named file above defines replaces that one for every test below: read in
    /// its place, the file counts it.
    #[test]
    fn a_definition_of_a_name_defined_above_counts() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("conftest.py"), BASE).expect("write");
        std::fs::create_dir(dir.path().join("tests")).expect("mkdir");
        let fixture = |name: &str| format!("import pytest\n\n\n@pytest.fixture\ndef {name}():\n    return 3\n");
        let at = |text: &str| {
            std::fs::write(dir.path().join("tests/conftest.py"), text).expect("write");
            compare(
                &Default::default(),
                &read_parts(dir.path(), "tests/conftest.py", &scope()),
            )
        };
        assert_eq!(at(&fixture("pairs")), vec![]);
        assert_eq!(at(&fixture("add")), vec![("definition add".into(), PartChange::Added)]);
    }
}
