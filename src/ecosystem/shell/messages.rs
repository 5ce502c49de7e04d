//! What loopgate says of the shell (bats) in its own words, asked by `messages` through its line of the
//! ecosystems' wording tables (`messages::FACT_WORDS`), so the core's sentences name no runner.

use crate::detect::Fact;
use crate::schema::Speech;

/// A `--verify auto` fact of this ecosystem as one clause; `None` for another ecosystem's fact.
pub(super) fn fact(lang: Speech, fact: &Fact) -> Option<String> {
    Some(match (lang, fact) {
        (Speech::En, Fact::BatsFiles { dir }) => format!("{dir}/ holds bats test files (*.bats)"),
        (Speech::Zh, Fact::BatsFiles { dir }) => format!("{dir}/ 中有 bats 测试文件(*.bats)"),
        _ => return None,
    })
}
