//! Java: a JUnit 5 test class with a hook, a field extension, a parameterized test with a method source, a
//! nested class, a text block and a char literal that look like code.

use super::{Case, END, run_table};
use crate::testsig::{Lang, MarkerKind, Scope, UnitKind, markers, parse};

const BASE: &str = r##"package calc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;
import org.junit.jupiter.api.*;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Tests of Calc. */
class CalcTest {
    private Calc calc;

    @BeforeEach
    void setUp() {
        calc = new Calc(); // fresh
    }

    @Test
    void adds() {
        assertEquals(3, calc.add(1, 2));
    }

    @ParameterizedTest
    @MethodSource("products")
    void multiplies(int a, int b, int want) {
        assertEquals(want, calc.mul(a, b));
    }

    static Stream<Object[]> products() {
        return Stream.of(new Object[] {2, 3, 6}, new Object[] {0, 5, 0});
    }

    @Test
    void printsUsage() {
        String usage = """
            usage: calc { add | mul } // not a comment
            """;
        assertEquals('}', usage.charAt(usage.length() - 3) == '}' ? '}' : '{');
    }

    @Nested
    class Negative {
        @Test
        void addsNegatives() {
            assertEquals(-3, calc.add(-1, -2));
        }
    }

    private static String helper(String s) {
        return "#" + s;
    }
}
"##;

const CASES: &[Case] = &[
    Case {
        name: "comments, spacing and a reformatted call",
        edits: &[
            (
                "        assertEquals(3, calc.add(1, 2));",
                "        // one plus two\n        assertEquals(3,\n            calc.add(1, 2));",
            ),
            ("/** Tests of Calc. */", "/** Tests of the calculator. */"),
        ],
        expect: &[],
    },
    Case {
        name: "a new test, a new helper, a new test class",
        edits: &[
            (
                "    private static String helper(",
                "    @Test\n    void addsZero() {\n        assertEquals(1, calc.add(1, 0));\n    }\n\n    private int other() {\n        return 1;\n    }\n\n    private static String helper(",
            ),
            (
                END,
                "\nclass MoreTest {\n    @BeforeEach\n    void before() {\n    }\n\n    @Test\n    void more() {\n        assertEquals(1, 1);\n    }\n}\n",
            ),
        ],
        expect: &[],
    },
    Case {
        name: "an assertion weakened",
        edits: &[(
            "assertEquals(3, calc.add(1, 2));",
            "assertEquals(calc.add(1, 2), calc.add(1, 2));",
        )],
        expect: &["changed CalcTest::adds"],
    },
    Case {
        name: "a test deleted",
        edits: &[(
            "    @Test\n    void adds() {\n        assertEquals(3, calc.add(1, 2));\n    }\n\n",
            "",
        )],
        expect: &["deleted CalcTest::adds"],
    },
    Case {
        name: "a test loses its annotation",
        edits: &[("    @Test\n    void adds()", "    void adds()")],
        expect: &["deleted CalcTest::adds"],
    },
    Case {
        name: "a nested test weakened",
        edits: &[("assertEquals(-3, calc.add(-1, -2));", "calc.add(-1, -2);")],
        expect: &["changed CalcTest::Negative::addsNegatives"],
    },
    Case {
        name: "a test disabled",
        edits: &[(
            "    @Test\n    void adds()",
            "    @Test\n    @Disabled(\"later\")\n    void adds()",
        )],
        expect: &["changed CalcTest::adds", "marker Skip @Disabled(\"later\")"],
    },
    Case {
        name: "a test tagged out of the run",
        edits: &[(
            "    @Test\n    void adds()",
            "    @Test @Tag(\"slow\")\n    void adds()",
        )],
        expect: &["changed CalcTest::adds"],
    },
    Case {
        name: "an assumption that skips",
        edits: &[(
            "        assertEquals(3, calc.add(1, 2));",
            "        Assumptions.assumeTrue(false);\n        assertEquals(3, calc.add(1, 2));",
        )],
        expect: &["changed CalcTest::adds", "marker Skip Assumptions.assumeTrue(false);"],
    },
    Case {
        name: "a hook changed",
        edits: &[("calc = new Calc(); // fresh", "calc = new Calc(true);")],
        expect: &["block Setup CalcTest::setUp"],
    },
    Case {
        name: "a provider's row weakened",
        edits: &[("new Object[] {2, 3, 6}", "new Object[] {2, 3, 2 * 3}")],
        expect: &["block Helper CalcTest::products"],
    },
];

#[test]
fn java_table() {
    run_table(Lang::Java, Scope::TestFile, BASE, CASES);
}

/// Each unit as `Kind path`, depth first: a nested unit's path holds its containers (`CalcTest/adds`).
fn outline(units: &[crate::testsig::Unit], path: &str, out: &mut Vec<String>) {
    for unit in units {
        let name = if unit.kind == UnitKind::Import {
            "import".to_string()
        } else {
            format!("{path}{}", unit.name)
        };
        out.push(format!("{:?} {name}", unit.kind));
        outline(&unit.children, &format!("{name}/"), out);
    }
}

#[test]
fn java_units_have_the_expected_shape() {
    let mut got = Vec::new();
    outline(&parse(Lang::Java, BASE), "", &mut got);
    let mut want = vec!["Import import"; 6];
    want.extend([
        "Container CalcTest",
        "Helper CalcTest/calc",
        "Setup CalcTest/setUp",
        "Test CalcTest/adds",
        "Test CalcTest/multiplies",
        "Helper CalcTest/products",
        "Test CalcTest/printsUsage",
        "Container CalcTest/Negative",
        "Test CalcTest/Negative/addsNegatives",
        "Helper CalcTest/helper",
    ]);
    assert_eq!(got, want);
}

#[test]
fn java_markers_are_code_not_words_in_strings_comments_or_text_blocks() {
    let text = "class ATest {\n  @Test\n  void a() {\n    // @Disabled assumeTrue(x);\n    String s = \"\"\"\n      @Ignore assumeFalse(y)\n      \"\"\";\n    /* @Disabled */\n    assumeTrue(s.isEmpty());\n  }\n  @org.junit.Ignore\n  @DisabledOnOs(OS.LINUX)\n  @Test void b() { Assumptions.abort(); }\n}\n";
    let found: Vec<(u32, MarkerKind)> = markers(Lang::Java, text).iter().map(|m| (m.line, m.kind)).collect();
    assert_eq!(
        found,
        vec![
            (9, MarkerKind::Skip),
            (11, MarkerKind::Skip),
            (12, MarkerKind::Skip),
            (13, MarkerKind::Skip)
        ]
    );
}
