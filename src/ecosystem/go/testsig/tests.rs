//! Go: a `_test.go` file with a table test and subtests, a benchmark, a fuzz test, an example and a testify
//! suite.

use super::{Case, END, run_table};
use crate::testsig::{Lang, MarkerKind, Scope, UnitKind, markers, parse};

const BASE: &str = r#"package calc

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/suite"
)

var cases = []struct {
	name string
	in   string
	want int
}{
	{"one", "1", 1},
	{"sum", "1+2", 3},
}

func TestEval(t *testing.T) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Eval(tc.in); got != tc.want {
				t.Errorf("Eval(%q) = %d, want %d", tc.in, got, tc.want)
			}
		})
	}
}

func TestEmpty(t *testing.T) {
	if Eval("") != 0 {
		t.Fatal("empty input should be 0")
	}
}

func BenchmarkEval(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Eval("1+2")
	}
}

func FuzzEval(f *testing.F) {
	f.Add("1")
	f.Fuzz(func(t *testing.T, s string) { _ = Eval(s) })
}

func ExampleEval() {
	fmt.Println(Eval("2+2"))
	// Output: 4
}

func mustEval(t *testing.T, in string) int {
	t.Helper()
	return Eval(in)
}

type CalcSuite struct{ suite.Suite }

func (s *CalcSuite) TestNegative() {
	s.Equal(-1, Eval("-1"))
}

func TestCalcSuite(t *testing.T) {
	suite.Run(t, new(CalcSuite))
}
"#;

const CASES: &[Case] = &[
    Case {
        name: "comments and spacing",
        edits: &[
            (
                "func TestEmpty(t *testing.T) {\n",
                "// TestEmpty checks the empty input.\nfunc TestEmpty(t *testing.T) {\n\t/* no input */\n",
            ),
            ("\t{\"one\", \"1\", 1},", "\t{\"one\",   \"1\", 1}, // the simplest"),
        ],
        expect: &[],
    },
    Case {
        name: "new tests, a new helper and a new suite method",
        edits: &[(
            END,
            "\nfunc TestSpaces(t *testing.T) {\n\tif mustEval(t, \" 1 \") != 1 {\n\t\tt.Fatal(\"spaces\")\n\t}\n}\n\nfunc parseAll(in []string) []int { return nil }\n\nfunc (s *CalcSuite) TestZero() {\n\ts.Equal(0, Eval(\"0\"))\n}\n",
        )],
        expect: &[],
    },
    Case {
        name: "an import added to the block for a new test",
        edits: &[
            ("\t\"fmt\"\n", "\t\"fmt\"\n\t\"strings\"\n"),
            (
                END,
                "\nfunc TestTrim(t *testing.T) {\n\tif Eval(strings.TrimSpace(\" 1\")) != 1 {\n\t\tt.Fatal(\"trim\")\n\t}\n}\n",
            ),
        ],
        expect: &[],
    },
    Case {
        name: "a blank import added: it runs a package's init",
        edits: &[("\t\"fmt\"\n", "\t\"fmt\"\n\t_ \"example.com/calc/lenient\"\n")],
        expect: &[
            "block Import import \"fmt\", \"github.com/stretchr/testify/suite\", \"testing\"",
            "setup Other import (",
        ],
    },
    Case {
        name: "a subtest's check weakened",
        edits: &[(
            "\t\t\tif got := Eval(tc.in); got != tc.want {",
            "\t\t\tif got := Eval(tc.in); got != tc.want && false {",
        )],
        expect: &["changed TestEval"],
    },
    Case {
        name: "a case added to the package-level table",
        edits: &[(
            "\t{\"sum\", \"1+2\", 3},\n",
            "\t{\"sum\", \"1+2\", 3},\n\t{\"product\", \"2*3\", 6},\n",
        )],
        expect: &[],
    },
    Case {
        name: "a case removed from the package-level table",
        edits: &[("\t{\"sum\", \"1+2\", 3},\n", "")],
        expect: &["block Helper cases"],
    },
    Case {
        name: "a test deleted",
        edits: &[(
            "func TestEmpty(t *testing.T) {\n\tif Eval(\"\") != 0 {\n\t\tt.Fatal(\"empty input should be 0\")\n\t}\n}\n",
            "",
        )],
        expect: &["deleted TestEmpty"],
    },
    Case {
        name: "TestX renamed to testX: no longer collected",
        edits: &[("func TestEmpty(", "func testEmpty(")],
        expect: &["deleted TestEmpty"],
    },
    Case {
        name: "Testx (lower case after the prefix) is not collected either",
        edits: &[("func TestEmpty(", "func Testempty(")],
        expect: &["deleted TestEmpty"],
    },
    Case {
        name: "a test's parameter type changed: no longer a test",
        edits: &[("func TestEmpty(t *testing.T)", "func TestEmpty(t *testing.B)")],
        expect: &["deleted TestEmpty"],
    },
    Case {
        name: "an example's expected output changed",
        edits: &[("\t// Output: 4", "\t// Output: 5")],
        expect: &["changed ExampleEval"],
    },
    Case {
        name: "a suite test deleted",
        edits: &[(
            "func (s *CalcSuite) TestNegative() {\n\ts.Equal(-1, Eval(\"-1\"))\n}\n",
            "",
        )],
        expect: &["deleted CalcSuite.TestNegative"],
    },
    Case {
        name: "the helper changed",
        edits: &[("\treturn Eval(in)", "\treturn 0")],
        expect: &["block Helper mustEval"],
    },
    Case {
        name: "a new func init",
        edits: &[(END, "\nfunc init() {\n\tlenient = true\n}\n")],
        expect: &["setup Setup init"],
    },
    Case {
        name: "a new TestMain",
        edits: &[(END, "\nfunc TestMain(m *testing.M) {\n\tos.Exit(0)\n}\n")],
        expect: &["setup Setup TestMain"],
    },
    Case {
        name: "a new suite hook",
        edits: &[(END, "\nfunc (s *CalcSuite) SetupTest() {\n\tlenient = true\n}\n")],
        expect: &["setup Setup CalcSuite.SetupTest"],
    },
    Case {
        name: "a suite method that replaces testify's Equal",
        edits: &[(
            END,
            "\nfunc (s *CalcSuite) Equal(expected, actual interface{}, msg ...interface{}) bool {\n\treturn true\n}\n",
        )],
        expect: &["setup Setup CalcSuite.Equal"],
    },
    Case {
        name: "a package-level variable initialized by a call",
        edits: &[(END, "\nvar _ = setLenient(true)\n")],
        expect: &["setup Other var _ = setLenient(true)"],
    },
    Case {
        name: "t.Skip",
        edits: &[("\tif Eval(\"\") != 0 {", "\tt.Skip(\"later\")\n\tif Eval(\"\") != 0 {")],
        expect: &["changed TestEmpty", "marker Skip t.Skip(\"later\")"],
    },
    Case {
        name: "t.Skipf in a subtest",
        edits: &[(
            "\t\t\tif got := Eval(tc.in);",
            "\t\t\tt.Skipf(\"%s\", tc.name)\n\t\t\tif got := Eval(tc.in);",
        )],
        expect: &["changed TestEval", "marker Skip t.Skipf(\"%s\", tc.name)"],
    },
    Case {
        name: "t.SkipNow",
        edits: &[("\tif Eval(\"\") != 0 {", "\tt.SkipNow()\n\tif Eval(\"\") != 0 {")],
        expect: &["changed TestEmpty", "marker Skip t.SkipNow()"],
    },
    Case {
        name: "b.Skip in a benchmark",
        edits: &[(
            "\tfor i := 0; i < b.N; i++ {",
            "\tb.Skip()\n\tfor i := 0; i < b.N; i++ {",
        )],
        expect: &["changed BenchmarkEval", "marker Skip b.Skip()"],
    },
    Case {
        name: "testing.Short",
        edits: &[(
            "\tif Eval(\"\") != 0 {",
            "\tif testing.Short() {\n\t\treturn\n\t}\n\tif Eval(\"\") != 0 {",
        )],
        expect: &["changed TestEmpty", "marker Skip if testing.Short() {"],
    },
    Case {
        name: "//go:build ignore",
        edits: &[("package calc\n", "//go:build ignore\n\npackage calc\n")],
        expect: &["marker Exclude //go:build ignore"],
    },
    Case {
        name: "// +build ignore",
        edits: &[("package calc\n", "// +build ignore\n\npackage calc\n")],
        expect: &["marker Exclude // +build ignore"],
    },
    Case {
        name: "a build tag that keeps the file out of a plain go test",
        edits: &[("package calc\n", "//go:build integration\n\npackage calc\n")],
        expect: &["marker Exclude //go:build integration"],
    },
    Case {
        name: "markers in strings and comments do not count",
        edits: &[(
            "\t\tt.Fatal(\"empty input should be 0\")",
            "\t\tt.Fatal(\"t.Skip() is not called\") // t.Skip()",
        )],
        expect: &["changed TestEmpty"],
    },
];

#[test]
fn go_table() {
    run_table(Lang::Go, Scope::TestFile, BASE, CASES);
}

#[test]
fn go_units_have_the_expected_shape() {
    let units = parse(Lang::Go, BASE);
    let shape: Vec<(UnitKind, &str)> = units.iter().map(|u| (u.kind, u.name.as_str())).collect();
    assert_eq!(
        shape,
        vec![
            (UnitKind::Import, "package calc"),
            (UnitKind::Import, "import"),
            (UnitKind::Helper, "cases"),
            (UnitKind::Test, "TestEval"),
            (UnitKind::Test, "TestEmpty"),
            (UnitKind::Test, "BenchmarkEval"),
            (UnitKind::Test, "FuzzEval"),
            (UnitKind::Test, "ExampleEval"),
            (UnitKind::Helper, "mustEval"),
            (UnitKind::Helper, "CalcSuite"),
            (UnitKind::Test, "CalcSuite.TestNegative"),
            (UnitKind::Test, "TestCalcSuite"),
        ]
    );
}

#[test]
fn go_build_constraints_are_read_from_comments_only_at_line_start() {
    let text = "//go:build ignore\n\npackage x\n\nvar s = \"//go:build ignore\"\n";
    let found: Vec<(u32, MarkerKind)> = markers(Lang::Go, text).iter().map(|m| (m.line, m.kind)).collect();
    assert_eq!(found, vec![(1, MarkerKind::Exclude)]);
}
