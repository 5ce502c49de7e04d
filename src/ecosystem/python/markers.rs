//! Python's markers (`testsig::markers::python`): `@pytest.mark.skip` / `skipif` / `xfail`, unittest's
//! `@skip…` decorators and `self.skipTest(…)`, and the like, found on tokens.

use super::{Found, object_of, push};
use crate::testsig::MarkerKind;
use crate::testsig::lex::{Lexed, TokKind};

pub(crate) fn at(lx: &Lexed, i: usize, out: &mut Vec<Found>) -> usize {
    if lx.kind(i) != Some(TokKind::Ident) {
        return i + 1;
    }
    let word = lx.s(i);
    let object = object_of(lx, i);
    let decorator = i >= 1 && lx.is(i - 1, b'@');
    let called = lx.is(i + 1, b'(');
    use MarkerKind::{Exclude, Skip, Xfail};
    let found = match (word, object) {
        ("skip" | "skipif", Some("mark")) => Some((Skip, format!("mark.{word}"))),
        ("xfail", Some("mark")) => Some((Xfail, "mark.xfail".into())),
        ("skip" | "importorskip", Some("pytest")) if called => Some((Skip, format!("pytest.{word}("))),
        ("xfail", Some("pytest")) if called => Some((Xfail, "pytest.xfail(".into())),
        ("skip" | "skipIf" | "skipUnless", Some("unittest")) => Some((Skip, format!("unittest.{word}"))),
        ("skip" | "skipIf" | "skipUnless" | "skipif", None) if decorator => Some((Skip, format!("@{word}"))),
        ("xfail", None) if decorator => Some((Xfail, "@xfail".into())),
        ("expectedFailure", _) if decorator || object.is_some() => Some((Xfail, "expectedFailure".into())),
        ("skipTest", Some(_)) if called => Some((Skip, "skipTest(".into())),
        ("SkipTest" | "Skipped", _) if (i.saturating_sub(3)..i).any(|k| lx.is_word(k, "raise")) => {
            Some((Skip, format!("raise {word}")))
        }
        // `__test__ = False` in a module or class, or `test_x.__test__ = False` on a function.
        ("__test__", _) if lx.is(i + 1, b'=') && !lx.is(i + 2, b'=') => Some((Exclude, "__test__ =".into())),
        ("collect_ignore" | "collect_ignore_glob", None) => Some((Exclude, word.to_string())),
        _ => None,
    };
    if let Some((kind, key)) = found {
        push(out, lx, i, kind, key);
    }
    i + 1
}
