//! What loopgate says of Python (pytest, unittest) in its own words, asked by `messages` through its line of the
//! ecosystems' wording tables (`messages::FACT_WORDS`, `messages::REPORT_WORDS`,
//! `messages::WHY_WORDS`, `messages::SHADOW_WORDS`), so the core's sentences name no runner.

use crate::detect::python::Found;
use crate::schema::Speech;

/// A `--verify auto` fact of this ecosystem (`detect::Fact::Own`) as one clause; `None` for another ecosystem's fact.
pub(super) fn fact(lang: Speech, fact: &crate::detect::Own) -> Option<String> {
    let fact: &Found = fact.get()?;
    Some(match (lang, fact) {
        (Speech::En, Found::PytestConfig { file }) => format!("{file} configures pytest"),
        (Speech::En, Found::Conftest) => "conftest.py is here".into(),
        (Speech::En, Found::TestFiles { dir }) => format!("{dir}/ holds Python test files"),
        (Speech::En, Found::Pyproject) => "pyproject.toml is here".into(),
        (Speech::En, Found::Virtualenv { python }) => format!("the virtualenv `{python}` is used"),
        (Speech::En, Found::Runner { lock, tool }) => format!("{lock} says {tool}"),
        (Speech::En, Found::Python3) => "`python` is not on PATH, so `python3`".into(),
        (Speech::Zh, Found::PytestConfig { file }) => format!("{file} 配置了 pytest"),
        (Speech::Zh, Found::Conftest) => "存在 conftest.py".into(),
        (Speech::Zh, Found::TestFiles { dir }) => format!("{dir}/ 中有 Python 测试文件"),
        (Speech::Zh, Found::Pyproject) => "存在 pyproject.toml".into(),
        (Speech::Zh, Found::Virtualenv { python }) => format!("使用虚拟环境 `{python}`"),
        (Speech::Zh, Found::Runner { lock, tool }) => format!("{lock} 表明使用 {tool}"),
        (Speech::Zh, Found::Python3) => "PATH 中没有 `python`,因此使用 `python3`".into(),
    })
}

/// Its place outside the project that a run reads on its own (`room::outside::python`), as a list's item.
pub(super) fn outside(lang: Speech) -> &'static str {
    match lang {
        Speech::En => "the user site-packages",
        Speech::Zh => "用户 site-packages",
    }
}

/// What setup and `status` say of its report channel (`crate::room::report::KEY`).
pub(super) fn report(key: &str) -> Option<super::ReportWords> {
    (key == crate::room::report::KEY).then_some(super::ReportWords {
        en: " A pass must also hold in pytest's own report, which it writes to a private path.",
        zh: "通过还必须与 pytest 写到私有路径的报告一致。",
        verdict_reads: "pytest's own JUnit report, written to a private path, beside the runner's output",
    })
}

/// Why pytest's cache stays the user's, in one clause (`room::caches`).
pub(super) fn why(why: &crate::room::caches::Why) -> Option<String> {
    (why.kind == crate::room::caches::python::CACHE_OFF)
        .then(|| "the run turns pytest's cache provider off".to_string())
}

/// A new file Python or pytest would load on its own (`closure::observed::ShadowKind`), in one clause.
pub(super) fn shadow(lang: Speech, shadow: &crate::closure::observed::Shadow) -> Option<String> {
    use crate::closure::observed::ShadowKind;
    let path = &shadow.path;
    Some(match (lang, &shadow.kind) {
        (Speech::En, ShadowKind::PathFile) => {
            format!("`{path}` is new: Python runs a `.pth` file's import lines at start-up, before any test")
        }
        (Speech::En, ShadowKind::Plugin) => {
            format!("`{path}` is new and declares a pytest plugin (a `pytest11` entry point)")
        }
        (Speech::Zh, ShadowKind::PathFile) => {
            format!("新建了 `{path}`:Python 会在启动时、任何测试之前执行 `.pth` 文件中的 import 行")
        }
        (Speech::Zh, ShadowKind::Plugin) => format!("新建的 `{path}` 声明了一个 pytest 插件(`pytest11` 入口点)"),
        _ => return None,
    })
}
