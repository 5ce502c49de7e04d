//! Shell: a `.bats` file that loads the code under test, with setup, a helper and a skipped test's neighbour.

use super::{Case, END, run_table};
use crate::testsig::{Lang, MarkerKind, Scope, UnitKind, markers, parse};

const BASE: &str = r#"#!/usr/bin/env bats
# Tests of lib/calc.sh.

setup() {
  load ../lib/calc.sh
  export SCALE=1
}

double() {
  echo $(( $1 * 2 ))
}

@test "adds two numbers" {
  [ "$(add 1 2)" -eq 3 ]
}

@test 'multiplies; with a # in its name' {
  result="$(mul 2 3)"
  [ "$result" -eq 6 ] # six
}

@test "prints usage when called without arguments" {
  run add
  [ "$status" -ne 0 ]
  [[ "$output" == *"usage"* ]]
}
"#;

const CASES: &[Case] = &[
    Case {
        name: "comments and spacing",
        edits: &[
            (
                "  [ \"$(add 1 2)\" -eq 3 ]\n",
                "  # one plus two\n  [ \"$(add 1 2)\"   -eq 3 ]\n",
            ),
            ("double() {", "double()   {"),
        ],
        expect: &[],
    },
    Case {
        name: "a new test and a new helper",
        edits: &[(
            END,
            "\nhalf() {\n  echo $(( $1 / 2 ))\n}\n\n@test \"adds negatives\" {\n  [ \"$(add -1 -2)\" -eq -3 ]\n}\n",
        )],
        expect: &[],
    },
    Case {
        name: "the load spelled with the test directory",
        edits: &[(
            "  load ../lib/calc.sh\n",
            "  load \"$BATS_TEST_DIRNAME/../lib/calc.sh\"\n",
        )],
        expect: &[],
    },
    Case {
        name: "the load spelled as a source of the test directory",
        edits: &[(
            "  load ../lib/calc.sh\n",
            "  source \"${BATS_TEST_DIRNAME}/../lib/calc.sh\"\n",
        )],
        expect: &[],
    },
    Case {
        name: "the load quoted",
        edits: &[("  load ../lib/calc.sh\n", "  load '../lib/calc.sh'\n")],
        expect: &[],
    },
    Case {
        name: "a load of another file, a computed one or a source from where bats runs",
        edits: &[(
            "  load ../lib/calc.sh\n",
            "  load \"$BATS_TEST_DIRNAME/../lib/fast.sh\"\n  load \"$LIB/calc.sh\"\n  source ../lib/calc.sh\n",
        )],
        expect: &["block Setup setup"],
    },
    Case {
        name: "an assertion weakened",
        edits: &[("[ \"$(add 1 2)\" -eq 3 ]", "[ -n \"$(add 1 2)\" ]")],
        expect: &["changed adds two numbers"],
    },
    Case {
        name: "a test deleted",
        edits: &[("@test \"adds two numbers\" {\n  [ \"$(add 1 2)\" -eq 3 ]\n}\n\n", "")],
        expect: &["deleted adds two numbers"],
    },
    Case {
        name: "a test skipped",
        edits: &[("  run add\n", "  skip \"flaky\"\n  run add\n")],
        expect: &[
            "changed prints usage when called without arguments",
            "marker Skip skip \"flaky\"",
        ],
    },
];

#[test]
fn shell_table() {
    run_table(Lang::Shell, Scope::TestFile, BASE, CASES);
}

#[test]
fn shell_units_have_the_expected_shape() {
    let units = parse(Lang::Shell, BASE);
    let shape: Vec<(UnitKind, &str)> = units.iter().map(|u| (u.kind, u.name.as_str())).collect();
    assert_eq!(
        shape,
        vec![
            (UnitKind::Setup, "setup"),
            (UnitKind::Helper, "double"),
            (UnitKind::Test, "adds two numbers"),
            (UnitKind::Test, "multiplies; with a # in its name"),
            (UnitKind::Test, "prints usage when called without arguments"),
        ]
    );
}

#[test]
fn shell_skip_is_a_command_not_a_word_in_a_string_or_comment() {
    let text = "@test \"a\" {\n  echo \"skip this\" # skip\n  run skip\n  true && skip 'later'\n}\n";
    let found: Vec<(u32, MarkerKind)> = markers(Lang::Shell, text).iter().map(|m| (m.line, m.kind)).collect();
    assert_eq!(found, vec![(4, MarkerKind::Skip)]);
}
