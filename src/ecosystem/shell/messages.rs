//! What loopgate says of the shell (bats) in its own words, asked by `messages` through its line of the
//! ecosystems' wording tables (`messages::FACT_WORDS`), so the core's sentences name no runner.

use crate::detect::shell::Found;
use crate::schema::Speech;

/// A `--verify auto` fact of this ecosystem (`detect::Fact::Own`) as one clause; `None` for another ecosystem's fact.
pub(super) fn fact(lang: Speech, fact: &crate::detect::Own) -> Option<String> {
    let fact: &Found = fact.get()?;
    Some(match (lang, fact) {
        (Speech::En, Found::BatsFiles { dir }) => format!("{dir}/ holds bats test files (*.bats)"),
        (Speech::Zh, Found::BatsFiles { dir }) => format!("{dir}/ 中有 bats 测试文件(*.bats)"),
    })
}
