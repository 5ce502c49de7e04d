//! C++: a GoogleTest source with a fixture, a helper in an anonymous namespace, a parameterized suite, and a
//! Catch2 source with sections and tags.

use super::{Case, END, run_table};
use crate::testsig::{Lang, MarkerKind, Scope, UnitKind, markers, parse};

const BASE: &str = r#"// Tests of src/calc.cc.
#include <gtest/gtest.h>

#include "calc.h"

namespace {

int twice(int a) {
  return a * 2;  // '{' in a comment
}

class CalcTest : public ::testing::Test {
 protected:
  void SetUp() override { base_ = 10; }
  int base_ = 0;
};

TEST(Calc, Adds) {
  EXPECT_EQ(add(1, 2), 3);
  EXPECT_EQ(add(-1, 1), 0) << "a \"quoted\" note";
}

TEST_F(CalcTest, AddsToBase) {
  EXPECT_EQ(add(base_, twice(1)), 12);
}

class Squares : public ::testing::TestWithParam<int> {};

TEST_P(Squares, ArePositive) {
  const char* raw = R"x(a ")" } { )x";
  EXPECT_GE(GetParam() * GetParam(), 0) << raw;
}

INSTANTIATE_TEST_SUITE_P(Some, Squares, ::testing::Values(-2, 0, 3));

}  // namespace
"#;

const CASES: &[Case] = &[
    Case {
        name: "comments and spacing",
        edits: &[
            (
                "  EXPECT_EQ(add(1, 2), 3);\n",
                "  // one plus two\n  EXPECT_EQ( add(1, 2),  3 );\n",
            ),
            ("int twice(int a) {", "int twice(int a)\n{"),
        ],
        expect: &[],
    },
    Case {
        name: "a new test and a new helper",
        edits: &[(
            "}  // namespace\n",
            "int half(int a) { return a / 2; }\n\nTEST(Calc, AddsNegatives) {\n  EXPECT_EQ(add(-1, -2), -3);\n}\n\n}  // namespace\n",
        )],
        expect: &[],
    },
    Case {
        name: "an assertion weakened",
        edits: &[("  EXPECT_EQ(add(1, 2), 3);\n", "  EXPECT_TRUE(add(1, 2));\n")],
        expect: &["changed Calc.Adds"],
    },
    Case {
        name: "a test deleted",
        edits: &[(
            "TEST(Calc, Adds) {\n  EXPECT_EQ(add(1, 2), 3);\n  EXPECT_EQ(add(-1, 1), 0) << \"a \\\"quoted\\\" note\";\n}\n\n",
            "",
        )],
        expect: &["deleted Calc.Adds"],
    },
    Case {
        name: "a test skipped",
        edits: &[(
            "  EXPECT_EQ(add(base_, twice(1)), 12);\n",
            "  GTEST_SKIP() << \"later\";\n  EXPECT_EQ(add(base_, twice(1)), 12);\n",
        )],
        expect: &["changed CalcTest.AddsToBase", "marker Skip GTEST_SKIP() << \"later\";"],
    },
    Case {
        name: "a test disabled by its name",
        edits: &[("TEST(Calc, Adds) {", "TEST(Calc, DISABLED_Adds) {")],
        expect: &["deleted Calc.Adds", "marker Skip TEST(Calc, DISABLED_Adds) {"],
    },
    Case {
        name: "the fixture's setup changed",
        edits: &[("base_ = 10;", "base_ = 12;")],
        expect: &["block Setup CalcTest"],
    },
    Case {
        name: "the suite's instances narrowed",
        edits: &[("::testing::Values(-2, 0, 3)", "::testing::Values(0)")],
        expect: &["block Setup INSTANTIATE_TEST_SUITE_P(Some, Squares)"],
    },
    Case {
        name: "a test appended after the namespace",
        edits: &[(END, "\nTEST(Calc, Late) {\n  EXPECT_EQ(add(0, 0), 0);\n}\n")],
        expect: &[],
    },
];

#[test]
fn cpp_table() {
    run_table(Lang::Cpp, Scope::TestFile, BASE, CASES);
}

#[test]
fn cpp_units_have_the_expected_shape() {
    let units = parse(Lang::Cpp, BASE);
    let shape: Vec<(UnitKind, &str)> = units.iter().map(|u| (u.kind, u.name.as_str())).collect();
    assert_eq!(
        shape,
        vec![
            (UnitKind::Import, "#include <gtest/gtest.h>"),
            (UnitKind::Import, "#include \"calc.h\""),
            (UnitKind::Helper, "twice"),
            (UnitKind::Setup, "CalcTest"),
            (UnitKind::Test, "Calc.Adds"),
            (UnitKind::Test, "CalcTest.AddsToBase"),
            (UnitKind::Setup, "Squares"),
            (UnitKind::Test, "Squares.ArePositive"),
            (UnitKind::Setup, "INSTANTIATE_TEST_SUITE_P(Some, Squares)"),
        ]
    );
}

const CATCH2: &str = r#"#include <catch2/catch.hpp>
#include "calc.h"

TEST_CASE("adds two numbers", "[calc]") {
  SECTION("positive") { REQUIRE(add(1, 2) == 3); }
  SECTION("negative") { REQUIRE(add(-1, -2) == -3); }
}

SCENARIO("adding zero") {
  REQUIRE(add(0, 5) == 5);
}
"#;

#[test]
fn catch2_tests_are_named_by_their_string_and_hidden_tags_are_skips() {
    let units = parse(Lang::Cpp, CATCH2);
    let tests: Vec<&str> = units
        .iter()
        .filter(|u| u.kind == UnitKind::Test)
        .map(|u| u.name.as_str())
        .collect();
    assert_eq!(tests, vec!["adds two numbers", "Scenario: adding zero"]);
    for tags in ["[.]", "[calc][.slow]", "[!mayfail]", "[!shouldfail]"] {
        let hidden = CATCH2.replace("\"[calc]\"", &format!("\"{tags}\""));
        let found: Vec<MarkerKind> = markers(Lang::Cpp, &hidden).iter().map(|m| m.kind).collect();
        assert_eq!(found, vec![MarkerKind::Skip], "{tags}");
    }
    assert!(markers(Lang::Cpp, CATCH2).is_empty(), "an ordinary tag hides nothing");
}

#[test]
fn skip_markers_are_code_not_words_in_strings_or_comments() {
    let text = "TEST(A, B) {\n  // GTEST_SKIP() later\n  const char* s = \"GTEST_SKIP() DISABLED_X\";\n  if (slow()) GTEST_SKIP();\n}\n";
    let found: Vec<(u32, MarkerKind)> = markers(Lang::Cpp, text).iter().map(|m| (m.line, m.kind)).collect();
    assert_eq!(found, vec![(4, MarkerKind::Skip)]);
}
