//! Which files of the project are test files of the languages a loop seals.

use std::path::Path;

use super::rules::Rules;
use crate::testsig::{self, Inline, Lang};

/// A file to scan: its path, language, and whether it holds tests without being a test file.
pub(crate) struct Candidate {
    pub(crate) path: String,
    pub(crate) lang: Lang,
    pub(crate) inline: bool,
}

/// Whether a path (project-relative) names a test file of one of `langs` by its name alone: the conventions or
/// the runners' `rules` (not a source holding inline tests).
pub(crate) fn test_namer<'a>(langs: &'a [Lang], rules: &Rules) -> impl Fn(&str) -> bool + 'a {
    let matcher = rules.matcher();
    move |relative| {
        let path = Path::new(relative);
        Lang::of(path).is_some_and(|l| langs.contains(&l)) && (testsig::is_test_file(path) || matcher.matches(relative))
    }
}

/// The project's test files of `langs` by convention or by the runners' `rules` and, when `with_inline`, the
/// source files that hold tests (those are read to find out).
pub(crate) fn candidates(root: &Path, langs: &[Lang], rules: &Rules, with_inline: bool) -> Vec<Candidate> {
    let mut out = Vec::new();
    let matcher = rules.matcher();
    crate::walk::files(root, |relative, _| {
        let path = Path::new(relative);
        let Some(lang) = Lang::of(path).filter(|l| langs.contains(l)) else {
            return;
        };
        let inline =
            if testsig::is_test_file(path) || matcher.matches(relative) {
                false
            } else if with_inline
                && match testsig::language(lang).inline() {
                    Inline::Never => false,
                    Inline::Always => true,
                    Inline::Doctests { .. } => rules.doctest_modules,
                } && std::fs::read_to_string(root.join(relative)).is_ok_and(|text| {
                testsig::may_hold_tests(lang, &text)
                    || matches!(testsig::language(lang).inline(), Inline::Doctests { prompt } if text.contains(prompt))
            }) {
                true
            } else {
                return;
            };
        out.push(Candidate {
            path: relative.to_string(),
            lang,
            inline,
        });
    });
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}
