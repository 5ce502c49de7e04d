//! Tests of the test-file scanner: per language, a realistic test file and a table of edits to it, each with
//! the findings it must give (none for honest edits); the lexers on their tricky literals; file conventions;
//! and properties over arbitrary text.

include!(concat!(env!("OUT_DIR"), "/ecosystem/testsig/tests.rs"));
mod doctest;
mod lang;
mod lex;
mod markers;
mod props;

use super::{FileSig, Finding, Lang, Scope, compare};
use crate::schema::Speech;

/// An edit of a base file and what it must give. Each `(old, new)` replaces text that occurs exactly once;
/// `old` may be `END` to append.
pub(super) struct Case {
    pub(super) name: &'static str,
    pub(super) edits: &'static [(&'static str, &'static str)],
    /// Findings as [`short`] writes them, in any order.
    pub(super) expect: &'static [&'static str],
}

/// Appends instead of replacing.
pub(super) const END: &str = "<<END>>";

/// A finding in a few words: `changed NAME`, `deleted NAME`, `block KIND NAME`, `setup KIND WHAT`,
/// `marker KIND LINE-TEXT`.
pub(super) fn short(finding: &Finding) -> String {
    match finding {
        Finding::TestChanged { name, .. } => format!("changed {name}"),
        Finding::TestDeleted { name } => format!("deleted {name}"),
        Finding::BlockChanged { kind, name, .. } => format!("block {kind:?} {name}"),
        Finding::SetupAdded { kind, what, .. } => format!("setup {kind:?} {what}"),
        Finding::MarkerAdded { kind, text, .. } => format!("marker {kind:?} {text}"),
    }
}

#[track_caller]
pub(super) fn apply(base: &str, edits: &[(&str, &str)], case: &str) -> String {
    let mut text = base.to_string();
    for (old, new) in edits {
        if *old == END {
            text.push_str(new);
            continue;
        }
        assert_eq!(
            text.matches(old).count(),
            1,
            "case `{case}`: `{old}` must occur exactly once"
        );
        text = text.replacen(old, new, 1);
    }
    text
}

/// Runs a table against a base file: every case's findings, and every finding rendered on one line in both
/// languages.
#[track_caller]
pub(super) fn run_table(lang: Lang, scope: Scope, base: &str, cases: &[Case]) {
    let sig = match scope {
        Scope::TestFile => FileSig::of(lang, base),
        Scope::Inline => FileSig::inline(lang, base),
    };
    assert!(
        compare(&sig, base, lang).is_empty(),
        "the base file compared with itself gives findings"
    );
    let mut failures = Vec::new();
    for case in cases {
        let text = apply(base, case.edits, case.name);
        let findings = compare(&sig, &text, lang);
        let mut got: Vec<String> = findings.iter().map(short).collect();
        let mut want: Vec<String> = case.expect.iter().map(|s| (*s).to_string()).collect();
        got.sort();
        want.sort();
        if got != want {
            failures.push(format!("case `{}`:\n  want {want:?}\n  got  {got:?}", case.name));
        }
        for finding in &findings {
            for speech in [Speech::En, Speech::Zh] {
                let line = crate::messages::finding::line(speech, "tests/x", finding);
                assert!(
                    !line.contains('\n'),
                    "case `{}`: multi-line finding {line:?}",
                    case.name
                );
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
