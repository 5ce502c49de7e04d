//! C++'s traces of the test runner in code under test: a header that defines a test framework's assertion
//! anew (see `aware::rules`).

use crate::aware::Family;
use crate::aware::names::{Match, Traces};
use crate::testsig::Lang;
use crate::testsig::lex::Lexed;

/// GoogleTest's variables and flags, and its and Catch2's assertions defined anew.
pub(super) const TRACES: Traces = Traces {
    strong: &[
        (Match::Prefix("GTEST_"), Family::RunnerEnv),
        (Match::Prefix("--gtest_"), Family::RunnerArgs),
    ],
    redefines_assertion,
    ..Traces::none(Lang::Cpp)
};

/// The assertion and test macros of GoogleTest and Catch2 that a header of the code under test, included by a
/// test after the framework's own, can `#undef` and `#define` anew. Catch2's bare `CHECK` is left out: projects
/// name assertion macros of their own so.
fn assertion_macro(name: &str) -> bool {
    const EXACT: &[&str] = &[
        "TEST",
        "TEST_F",
        "TEST_P",
        "TEST_CASE",
        "SECTION",
        "REQUIRE",
        "REQUIRE_FALSE",
        "CHECK_FALSE",
    ];
    const GTEST: &[&str] = &[
        "EQ", "NE", "LT", "LE", "GT", "GE", "TRUE", "FALSE", "STREQ", "STRNE", "NEAR", "THROW",
    ];
    EXACT.contains(&name)
        || ["EXPECT_", "ASSERT_"]
            .iter()
            .filter_map(|prefix| name.strip_prefix(prefix))
            .any(|rest| GTEST.iter().any(|g| rest.starts_with(g)))
}

/// Whether the identifier at `i` of a C++ file is `#define` or `#undef` of one of those macros.
pub(super) fn redefines_assertion(lx: &Lexed, i: usize) -> bool {
    lx.lang == crate::schema::Lang::Cpp
        && ["define", "undef"].contains(&lx.s(i))
        && lx.is(i.wrapping_sub(1), b'#')
        && assertion_macro(lx.s(i + 1))
}
