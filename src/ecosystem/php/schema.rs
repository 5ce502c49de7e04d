//! PHP's files as `schema::Lang` knows them (`Lang::of`, `Lang::ALL`),
//! registered by its line of `schema::LANGS`.

use super::{Lang, LangFiles};

/// Its files, by their extension.
pub(super) const FILES: LangFiles = LangFiles {
    lang: Lang::Php,
    extensions: &["php"],
    new_tests_sit_out: true,
    stand_in: Some("<?php\n"),
};
