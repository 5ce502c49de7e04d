//! Rust's files as `schema::Lang` knows them (`Lang::of`, `Lang::ALL`),
//! registered by its line of `schema::LANGS`.

use super::{Lang, LangFiles};

/// A new integration test's stand-in while it sits out: a `main` that does nothing, allowed to go unused, so the
/// target builds whether its `[[test]]` table keeps libtest's harness (which supplies its own `main` and runs no
/// test here) or turns it off (`harness = false`, where this `main` is the program and exits 0).
const RUST_STAND_IN: &str = "#[allow(dead_code)]\nfn main() {}\n";

/// Its files, by their extension.
pub(super) const FILES: LangFiles = LangFiles {
    lang: Lang::Rust,
    extensions: &["rs"],
    new_tests_sit_out: true,
    stand_in: Some(RUST_STAND_IN),
};
