//! What the model reads about a weakened test file (a `testsig::Finding`): one line per finding, in English
//! and Chinese.
//!
//! The path goes in front ([`line`]); a finding that points at a line of the new file quotes that line exactly,
//! so the model sees what to undo. Quoted source is folded onto one line, whatever it held.

use crate::schema::Speech;
use crate::testsig::{Finding, MarkerKind, UnitKind};

/// `path:line: description` (or `path: description` without a line), one line.
pub fn line(lang: Speech, path: &str, finding: &Finding) -> String {
    match finding.line() {
        Some(line) => format!("{path}:{line}: {}", describe(lang, finding)),
        None => format!("{path}: {}", describe(lang, finding)),
    }
}

/// The finding in words, without the location; one line.
pub(crate) fn describe(lang: Speech, finding: &Finding) -> String {
    let text = match finding {
        Finding::TestChanged { name, text, .. } => match lang {
            Speech::En => format!("existing test `{name}` was changed: `{text}`"),
            Speech::Zh => format!("已有测试 `{name}` 被修改:`{text}`"),
        },
        Finding::TestDeleted { name } => match lang {
            Speech::En => format!("existing test `{name}` was deleted, or renamed so it is no longer collected"),
            Speech::Zh => format!("已有测试 `{name}` 被删除,或被改名而不再被收集运行"),
        },
        Finding::BlockChanged {
            kind,
            name,
            text: Some(text),
            ..
        } => match lang {
            Speech::En => format!(
                "{} `{name}` that existing tests rely on was changed: `{text}`",
                unit_word(lang, *kind)
            ),
            Speech::Zh => format!("已有测试依赖的{} `{name}` 被修改:`{text}`", unit_word(lang, *kind)),
        },
        Finding::BlockChanged {
            kind, name, old_line, ..
        } => match lang {
            Speech::En => format!(
                "{} `{name}` (line {old_line} before) that existing tests rely on was removed or changed",
                unit_word(lang, *kind)
            ),
            Speech::Zh => {
                format!(
                    "已有测试依赖的{} `{name}`(原第 {old_line} 行)被删除或修改",
                    unit_word(lang, *kind)
                )
            }
        },
        Finding::SetupAdded { kind, what, text, .. } => {
            let what = if *kind == UnitKind::Other || what == text {
                String::new()
            } else {
                format!(" `{what}`")
            };
            match lang {
                Speech::En => format!(
                    "new {}{what} runs around existing tests: `{text}`",
                    unit_word(lang, *kind)
                ),
                Speech::Zh => {
                    let what = if what.is_empty() { what } else { format!("{what} ") };
                    format!("新增的{}{what}会影响已有测试的运行:`{text}`", unit_word(lang, *kind))
                }
            }
        }
        Finding::MarkerAdded { kind, text, .. } => match lang {
            Speech::En => format!("{} marker added: `{text}`", marker_word(lang, *kind)),
            Speech::Zh => format!("新增了{}标记:`{text}`", marker_word(lang, *kind)),
        },
    };
    // One line, whatever the quoted source held.
    text.replace(['\n', '\r'], " ")
}

fn unit_word(lang: Speech, kind: UnitKind) -> &'static str {
    match (lang, kind) {
        (Speech::En, UnitKind::Test) => "test",
        (Speech::En, UnitKind::Container) => "test block",
        (Speech::En, UnitKind::Import) => "import",
        (Speech::En, UnitKind::Helper) => "helper",
        (Speech::En, UnitKind::Setup) => "setup code",
        (Speech::En, UnitKind::Other) => "module-level code",
        (Speech::Zh, UnitKind::Test) => "测试",
        (Speech::Zh, UnitKind::Container) => "测试组",
        (Speech::Zh, UnitKind::Import) => "导入",
        (Speech::Zh, UnitKind::Helper) => "辅助代码",
        (Speech::Zh, UnitKind::Setup) => "前置/后置代码",
        (Speech::Zh, UnitKind::Other) => "模块级代码",
    }
}

fn marker_word(lang: Speech, kind: MarkerKind) -> &'static str {
    match (lang, kind) {
        (Speech::En, MarkerKind::Skip) => "skip",
        (Speech::En, MarkerKind::Only) => "only (runs the marked tests alone)",
        (Speech::En, MarkerKind::Xfail) => "expected-failure",
        (Speech::En, MarkerKind::Ignore) => "ignore",
        (Speech::En, MarkerKind::Todo) => "todo",
        (Speech::En, MarkerKind::Exclude) => "exclusion",
        (Speech::Zh, MarkerKind::Skip) => "跳过",
        (Speech::Zh, MarkerKind::Only) => "仅运行(only)",
        (Speech::Zh, MarkerKind::Xfail) => "预期失败",
        (Speech::Zh, MarkerKind::Ignore) => "忽略",
        (Speech::Zh, MarkerKind::Todo) => "待办(todo)",
        (Speech::Zh, MarkerKind::Exclude) => "排除",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_in_words() {
        use crate::testsig::{MarkerKind, UnitKind};
        let findings = [
            Finding::TestChanged {
                name: "TestErrors::test_message".into(),
                line: 12,
                text: "def test_message(self):".into(),
                old_line: 12,
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
        let en: Vec<String> = findings.iter().map(|f| line(Speech::En, "tests/t.py", f)).collect();
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
        let zh: Vec<String> = findings.iter().map(|f| describe(Speech::Zh, f)).collect();
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
}
