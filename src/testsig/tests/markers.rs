//! Every marker spelling, per language, and look-alikes that are not markers.

use crate::testsig::MarkerKind::{self, Exclude, Ignore, Only, Skip, Todo, Xfail};
use crate::testsig::{Lang, markers};

/// `(language, line of code, the kinds of marker on it)`.
const SPELLINGS: &[(Lang, &str, &[MarkerKind])] = &[
    (Lang::Python, "@pytest.mark.skip", &[Skip]),
    (
        Lang::Python,
        "@pytest.mark.skipif(sys.platform == 'win32', reason='x')",
        &[Skip],
    ),
    (Lang::Python, "@pytest.mark.xfail(strict=False)", &[Xfail]),
    (Lang::Python, "pytest.skip('x')", &[Skip]),
    (Lang::Python, "pytest.xfail('x')", &[Xfail]),
    (Lang::Python, "np = pytest.importorskip('numpy')", &[Skip]),
    (Lang::Python, "@unittest.skip('x')", &[Skip]),
    (Lang::Python, "@unittest.skipIf(True, 'x')", &[Skip]),
    (Lang::Python, "@unittest.skipUnless(False, 'x')", &[Skip]),
    (Lang::Python, "@skip('x')", &[Skip]),
    (Lang::Python, "@unittest.expectedFailure", &[Xfail]),
    (Lang::Python, "self.skipTest('x')", &[Skip]),
    (Lang::Python, "raise SkipTest('x')", &[Skip]),
    (Lang::Python, "raise unittest.SkipTest('x')", &[Skip]),
    (
        Lang::Python,
        "pytestmark = [pytest.mark.skipif(True, reason='x'), pytest.mark.xfail]",
        &[Skip, Xfail],
    ),
    (Lang::Python, "__test__ = False", &[Exclude]),
    (Lang::Python, "collect_ignore = ['test_old.py']", &[Exclude]),
    (Lang::Python, "assert x == 1  # pytest.skip('x')", &[]),
    (Lang::Python, "s = '@pytest.mark.skip'", &[]),
    (Lang::Python, "skip = compute_skip()", &[]),
    (Lang::Python, "if __test__ == 1: pass", &[]),
    (Lang::JavaScript, "it.skip('x', () => {})", &[Skip]),
    (Lang::JavaScript, "test.only('x', () => {})", &[Only]),
    (Lang::JavaScript, "it.todo('x')", &[Todo]),
    (Lang::JavaScript, "test.skipIf(process.env.CI)('x', () => {})", &[Skip]),
    (Lang::JavaScript, "test.runIf(false)('x', () => {})", &[Skip]),
    (Lang::JavaScript, "it.fails('x', () => {})", &[Xfail]),
    (Lang::JavaScript, "test.failing('x', () => {})", &[Xfail]),
    (Lang::JavaScript, "describe.skip('x', () => {})", &[Skip]),
    (Lang::JavaScript, "describe.only.each([1])('x %s', () => {})", &[Only]),
    (Lang::JavaScript, "test.describe.fixme('x', () => {})", &[Skip]),
    (Lang::JavaScript, "xit('x', () => {})", &[Skip]),
    (Lang::JavaScript, "xtest('x', () => {})", &[Skip]),
    (Lang::JavaScript, "xdescribe('x', () => {})", &[Skip]),
    (Lang::JavaScript, "fit('x', () => {})", &[Only]),
    (Lang::JavaScript, "fdescribe('x', () => {})", &[Only]),
    (Lang::JavaScript, "this.skip()", &[Skip]),
    (Lang::JavaScript, "ctx.skip()", &[Skip]),
    (Lang::JavaScript, "t.todo('later')", &[Todo]),
    (Lang::JavaScript, "const page = list.skip(2)", &[Skip]),
    (Lang::JavaScript, "const rows = query.only", &[]),
    (Lang::JavaScript, "const fit = 3", &[]),
    (Lang::JavaScript, "// it.only('x')", &[]),
    (Lang::JavaScript, "const s = 'it.only(' + `xit(`", &[]),
    (Lang::Rust, "#[ignore]", &[Ignore]),
    (Lang::Rust, "#[ignore = \"slow\"]", &[Ignore]),
    (Lang::Rust, "#[should_panic(expected = \"boom\")]", &[Xfail]),
    (Lang::Rust, "#[cfg(any())]", &[Exclude]),
    (Lang::Rust, "#[cfg(FALSE)]", &[Exclude]),
    (Lang::Rust, "#[cfg(false)]", &[Exclude]),
    (Lang::Rust, "#[cfg(not(test))]", &[Exclude]),
    (Lang::Rust, "#[cfg(all(unix, any()))]", &[Exclude]),
    (Lang::Rust, "#![cfg(loom)]", &[Exclude]),
    (Lang::Rust, "#[cfg_attr(not(feature = \"slow\"), ignore)]", &[Ignore]),
    (Lang::Rust, "#[cfg_attr(miri, should_panic)]", &[Xfail]),
    (Lang::Rust, "#[cfg(test)]", &[]),
    (Lang::Rust, "#[cfg(all())]", &[]),
    (Lang::Rust, "#[cfg(unix)]", &[]),
    (Lang::Rust, "#[cfg(feature = \"x\")]", &[]),
    (Lang::Rust, "#[cfg(any(test, feature = \"x\"))]", &[]),
    (Lang::Rust, "#[cfg_attr(test, derive(Debug))]", &[]),
    (Lang::Rust, "let ignore = \"#[ignore]\"; // #[ignore]", &[]),
    (Lang::Go, "t.Skip(\"x\")", &[Skip]),
    (Lang::Go, "t.Skipf(\"%d\", 1)", &[Skip]),
    (Lang::Go, "t.SkipNow()", &[Skip]),
    (Lang::Go, "b.Skip()", &[Skip]),
    (Lang::Go, "if testing.Short() {", &[Skip]),
    (Lang::Go, "//go:build ignore", &[Exclude]),
    (Lang::Go, "// +build ignore", &[Exclude]),
    (Lang::Go, "//go:build linux && integration", &[Exclude]),
    (Lang::Go, "s := \"t.Skip()\" // t.Skip()", &[]),
    (Lang::Go, "Skip()", &[]),
];

#[test]
fn marker_spellings() {
    let mut failures = Vec::new();
    for (lang, code, want) in SPELLINGS {
        let got: Vec<MarkerKind> = markers(*lang, code).iter().map(|m| m.kind).collect();
        if got != *want {
            failures.push(format!("{lang:?} `{code}`: want {want:?}, got {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn markers_carry_their_line() {
    let text = "def test_a():\n    x = 1\n    pytest.skip('later')\n";
    let found = markers(Lang::Python, text);
    assert_eq!(found.len(), 1);
    assert_eq!((found[0].line, found[0].text.as_str()), (3, "pytest.skip('later')"));
}
