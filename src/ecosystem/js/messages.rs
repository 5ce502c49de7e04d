//! What loopgate says of JavaScript (Node, its package managers and runners) in its own words, asked by
//! `messages` through its line of the ecosystems' wording tables (`messages::OUTSIDE_WORDS`), so the core's
//! sentences name no runner.

use crate::schema::Speech;

/// Its places outside the project that a run reads on its own (`room::outside::js`), as a list's item.
pub(super) fn outside(lang: Speech) -> &'static str {
    match lang {
        Speech::En => "~/.npmrc, ~/.node_modules",
        Speech::Zh => "~/.npmrc、~/.node_modules",
    }
}
