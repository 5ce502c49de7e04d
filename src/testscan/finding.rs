//! What the model reads about a weakened test file: one line per finding, in English and Chinese.
//!
//! The caller puts the file's path in front ([`Finding::render`]); a finding that points at a line of the new
//! file quotes that line exactly, so the model sees what to undo.

use serde::{Deserialize, Serialize};

use super::{MarkerKind, UnitKind};
use crate::schema::Speech;

/// A change to a test file that weakens its existing tests.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "finding", rename_all = "snake_case")]
pub enum Finding {
    /// An existing test's code changed (its body, decorators, title line), or a new definition replaces it.
    TestChanged { name: String, line: u32, text: String },
    /// An existing test is gone, or renamed so the runner no longer collects it (`test_x` → `_test_x`).
    TestDeleted { name: String },
    /// An existing helper, import, setup, block or other code changed (`line`/`text`: where it is now) or is
    /// gone (`line` is `None`); `old_line` is where it was.
    BlockChanged {
        kind: UnitKind,
        name: String,
        line: Option<u32>,
        text: Option<String>,
        old_line: u32,
    },
    /// New code that runs around existing tests: a fixture, hook, mock, `init`, `TestMain`, module-level code.
    SetupAdded {
        kind: UnitKind,
        what: String,
        line: u32,
        text: String,
    },
    /// A new skip / only / xfail / ignore / todo / exclusion marker.
    MarkerAdded { kind: MarkerKind, line: u32, text: String },
}

impl Finding {
    /// The line of the new file the finding points at, if any.
    pub fn line(&self) -> Option<u32> {
        match self {
            Finding::TestChanged { line, .. }
            | Finding::SetupAdded { line, .. }
            | Finding::MarkerAdded { line, .. } => Some(*line),
            Finding::BlockChanged { line, .. } => *line,
            Finding::TestDeleted { .. } => None,
        }
    }

    /// `path:line: description` (or `path: description` without a line), one line.
    pub fn render(&self, lang: Speech, path: &str) -> String {
        match self.line() {
            Some(line) => format!("{path}:{line}: {}", self.describe(lang)),
            None => format!("{path}: {}", self.describe(lang)),
        }
    }

    /// The finding in words, without the location; one line.
    pub fn describe(&self, lang: Speech) -> String {
        let text = match self {
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
