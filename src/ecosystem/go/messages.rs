//! What loopgate says of Go in its own words, asked by `messages` through its line of the ecosystems' wording
//! tables (`messages::FACT_WORDS`, `messages::OUTSIDE_WORDS`), so the core's sentences name no runner.

use crate::detect::go::Found;
use crate::schema::Speech;

/// A `--verify auto` fact of this ecosystem (`detect::Fact::Own`) as one clause; `None` for another ecosystem's fact.
pub(super) fn fact(lang: Speech, fact: &crate::detect::Own) -> Option<String> {
    let fact: &Found = fact.get()?;
    Some(match (lang, fact) {
        (Speech::En, Found::GoMod) => "go.mod is here".into(),
        (Speech::Zh, Found::GoMod) => "存在 go.mod".into(),
    })
}

/// Its place outside the project that a run reads on its own (`room::outside::go`), as a list's item.
pub(super) fn outside(lang: Speech) -> &'static str {
    match lang {
        Speech::En => "Go's user configuration",
        Speech::Zh => "Go 的用户配置",
    }
}
