//! What loopgate says of Go in its own words, asked by `messages` through its line of the ecosystems' wording
//! tables (`messages::OUTSIDE_WORDS`), so the core's sentences name no runner.

use crate::schema::Speech;

/// Its place outside the project that a run reads on its own (`room::outside::go`), as a list's item.
pub(super) fn outside(lang: Speech) -> &'static str {
    match lang {
        Speech::En => "Go's user configuration",
        Speech::Zh => "Go 的用户配置",
    }
}
