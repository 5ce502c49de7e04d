//! Tests of the test-file scanner: per language, a realistic test file and a table of edits to it, each with
//! the findings it must give (none for honest edits); the lexers on their tricky literals; file conventions;
//! and properties over arbitrary text.

mod doctest;
mod go;
mod js;
mod lang;
mod lex;
mod markers;
mod props;
mod python;
mod rust;

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
                let line = finding.render(speech, "tests/x");
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

#[test]
fn findings_in_words() {
    use super::{MarkerKind, UnitKind};
    let findings = [
        Finding::TestChanged {
            name: "TestErrors::test_message".into(),
            line: 12,
            text: "def test_message(self):".into(),
        },
        Finding::TestDeleted {
            name: "parse > errors > reports the column".into(),
        },
        Finding::BlockChanged {
            kind: UnitKind::Helper,
            name: "approx".into(),
            line: Some(14),
            text: Some("def approx(a, b):".into()),
            old_line: 12,
        },
        Finding::BlockChanged {
            kind: UnitKind::Import,
            name: "import os".into(),
            line: None,
            text: None,
            old_line: 2,
        },
        Finding::SetupAdded {
            kind: UnitKind::Setup,
            what: "fake_tokenize".into(),
            line: 80,
            text: "@pytest.fixture(autouse=True)".into(),
        },
        Finding::SetupAdded {
            kind: UnitKind::Other,
            what: "os.environ[\"X\"] = \"1\"".into(),
            line: 10,
            text: "os.environ[\"X\"] = \"1\"".into(),
        },
        Finding::MarkerAdded {
            kind: MarkerKind::Skip,
            line: 21,
            text: "it.skip('parses a number', () => {".into(),
        },
    ];
    let en: Vec<String> = findings.iter().map(|f| f.render(Speech::En, "tests/t.py")).collect();
    assert_eq!(
        en,
        [
            "tests/t.py:12: existing test `TestErrors::test_message` was changed: `def test_message(self):`",
            "tests/t.py: existing test `parse > errors > reports the column` was deleted, or renamed so it is no longer collected",
            "tests/t.py:14: helper `approx` that existing tests rely on was changed: `def approx(a, b):`",
            "tests/t.py: import `import os` (line 2 before) that existing tests rely on was removed or changed",
            "tests/t.py:80: new setup code `fake_tokenize` runs around existing tests: `@pytest.fixture(autouse=True)`",
            "tests/t.py:10: new module-level code runs around existing tests: `os.environ[\"X\"] = \"1\"`",
            "tests/t.py:21: skip marker added: `it.skip('parses a number', () => {`",
        ]
    );
    let zh: Vec<String> = findings.iter().map(|f| f.describe(Speech::Zh)).collect();
    assert_eq!(
        zh,
        [
            "已有测试 `TestErrors::test_message` 被修改:`def test_message(self):`",
            "已有测试 `parse > errors > reports the column` 被删除,或被改名而不再被收集运行",
            "已有测试依赖的辅助代码 `approx` 被修改:`def approx(a, b):`",
            "已有测试依赖的导入 `import os`(原第 2 行)被删除或修改",
            "新增的前置/后置代码 `fake_tokenize` 会影响已有测试的运行:`@pytest.fixture(autouse=True)`",
            "新增的模块级代码会影响已有测试的运行:`os.environ[\"X\"] = \"1\"`",
            "新增了跳过标记:`it.skip('parses a number', () => {`",
        ]
    );
}
