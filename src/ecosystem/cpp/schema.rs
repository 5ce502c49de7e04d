//! C and C++ sources and the headers beside them as `schema::Lang` knows them (`Lang::of`, `Lang::ALL`),
//! registered by its line of `schema::LANGS`.

use super::{Lang, LangFiles};

/// A new test source does not sit out the oracle's run: its build names every source
/// (`add_executable(neg_test tests/neg_test.cc)`), so one set aside would break the build of the whole project and
/// no baseline test could run. It takes part as the agent wrote it; the build's test side is sealed
/// (`closure::cmake`: a new source added to an existing test binary is a change to that binary's part).
pub(super) const FILES: LangFiles = LangFiles {
    lang: Lang::Cpp,
    extensions: &["cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h"],
    new_tests_sit_out: false,
    stand_in: None,
};
