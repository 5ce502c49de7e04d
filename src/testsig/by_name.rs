//! Tests by name, not by file: the name a runner gives a test whatever file it sits in, with its signature's
//! hash, so that a test moved unchanged to another file (a module turned into a directory, inline tests moved to a
//! file of their own, a test module renamed or moved into a subdirectory) is the same test.
//!
//! The name is the test's path in its file (`CalcTest::test_add`, `tests::adds`), qualified where the language
//! names tests by more than that: Rust prefixes the module path rustc gives the file (`src/ops.rs` and
//! `src/ops/mod.rs` are both `ops`), as libtest prints it. Python, JavaScript and Go name a test by its path in
//! its file; the runner's report may add the file, which is what a move changes and what this leaves out.

use super::{FileSig, Lang, Unit, UnitKind, rust, sig};

/// A test, by the name its runner gives it apart from its file, and its hash.
pub(crate) type Named = (String, String);

/// The file-independent name of the test at `name` (its path in the file at `path`).
pub(crate) fn qualified(lang: Lang, path: &str, name: &str) -> String {
    match lang {
        Lang::Rust => {
            let module = rust::module_path(path);
            if module.is_empty() {
                name.to_string()
            } else {
                format!("{module}::{name}")
            }
        }
        _ => name.to_string(),
    }
}

/// Every test of `sig` (the file at `path`), by name and hash.
pub(crate) fn tests(sig: &FileSig, path: &str) -> Vec<Named> {
    let mut out = Vec::new();
    walk(&sig.units, "", sig::separator(sig.lang), &mut |name, unit| {
        out.push((qualified(sig.lang, path, name), unit.hash.clone()));
    });
    out
}

/// The hash of the test at `name` in `sig`, if it has one by that name.
pub(crate) fn hash_of(sig: &FileSig, name: &str) -> Option<String> {
    let mut found = None;
    walk(&sig.units, "", sig::separator(sig.lang), &mut |n, unit| {
        if found.is_none() && n == name {
            found = Some(unit.hash.clone());
        }
    });
    found
}

fn walk(units: &[Unit], path: &str, sep: &str, each: &mut impl FnMut(&str, &Unit)) {
    for unit in units {
        let name = if path.is_empty() {
            unit.name.clone()
        } else {
            format!("{path}{sep}{}", unit.name)
        };
        match unit.kind {
            UnitKind::Test => each(&name, unit),
            UnitKind::Container => walk(&unit.children, &name, sep, each),
            _ => {}
        }
    }
}
