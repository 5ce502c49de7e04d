//! What loopgate says of JavaScript (Node, its package managers and runners) in its own words, asked by
//! `messages` through its line of the ecosystems' wording tables (`messages::FACT_WORDS`,
//! `messages::OUTSIDE_WORDS`), so the core's
//! sentences name no runner.

use crate::detect::js::Found;
use crate::schema::Speech;

/// A `--verify auto` fact of this ecosystem (`detect::Fact::Own`) as one clause; `None` for another ecosystem's fact.
pub(super) fn fact(lang: Speech, fact: &crate::detect::Own) -> Option<String> {
    let fact: &Found = fact.get()?;
    Some(match (lang, fact) {
        (Speech::En, Found::NodeScript) => "package.json has a `test` script".into(),
        (Speech::En, Found::Lockfile { file, manager }) => format!("{file} says {manager}"),
        (Speech::En, Found::PackageManagerField { manager }) => format!("its packageManager field says {manager}"),
        (Speech::En, Found::NoLockfile) => "no lockfile names another package manager".into(),
        (Speech::Zh, Found::NodeScript) => "package.json 中有 `test` 脚本".into(),
        (Speech::Zh, Found::Lockfile { file, manager }) => format!("{file} 表明使用 {manager}"),
        (Speech::Zh, Found::PackageManagerField { manager }) => format!("packageManager 字段表明使用 {manager}"),
        (Speech::Zh, Found::NoLockfile) => "没有指明其他包管理器的锁文件".into(),
    })
}

/// Its places outside the project that a run reads on its own (`room::outside::js`), as a list's item.
pub(super) fn outside(lang: Speech) -> &'static str {
    match lang {
        Speech::En => "~/.npmrc, ~/.node_modules",
        Speech::Zh => "~/.npmrc、~/.node_modules",
    }
}
