//! Java's files as `schema::Lang` knows them (`Lang::of`, `Lang::ALL`),
//! registered by its line of `schema::LANGS`.

use super::{Lang, LangFiles};

/// Its files, by their extension.
pub(super) const FILES: LangFiles = LangFiles {
    lang: Lang::Java,
    extensions: &["java"],
    new_tests_sit_out: true,
    stand_in: None,
};
