//! PHP: a PHPUnit test class with a hook, a data provider (named in a docblock and in an attribute), a test
//! marked by attribute, one by annotation, a heredoc and a trait.

use super::{Case, END, run_table};
use crate::testsig::{Lang, MarkerKind, Scope, UnitKind, markers, parse};

const BASE: &str = r#"<?php declare(strict_types=1);

namespace App\Tests;

use App\Calc;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\Attributes\Test;
use PHPUnit\Framework\TestCase;

# Tests of Calc; a hash comment.
final class CalcTest extends TestCase
{
    use Fixtures;

    private Calc $calc;

    protected function setUp(): void
    {
        $this->calc = new Calc(); // fresh
    }

    public function testAdds(): void
    {
        $this->assertSame(3, $this->calc->add(1, 2));
    }

    /**
     * @dataProvider products
     */
    public function testMultiplies(int $a, int $b, int $want): void
    {
        $this->assertSame($want, $this->calc->mul($a, $b));
    }

    public static function products(): array
    {
        return [
            [2, 3, 6],
            'by zero' => [0, 5, 0],
        ];
    }

    #[Test]
    #[DataProvider('sums')]
    public function sumsAList(array $xs, int $want): void
    {
        $this->assertSame($want, $this->calc->sum($xs));
    }

    public static function sums(): iterable
    {
        return array([[1, 2], 3]);
    }

    /** @test */
    public function printsUsage(): void
    {
        $usage = <<<TXT
            usage: calc { add | mul } // not a comment
            TXT;
        $this->assertStringContainsString('usage', $usage . "}");
    }

    private function helper(string $s): string
    {
        return '#' . $s;
    }
}
"#;

const CASES: &[Case] = &[
    Case {
        name: "comments and spacing",
        edits: &[
            (
                "        $this->assertSame(3, $this->calc->add(1, 2));",
                "        // one plus two\n        $this->assertSame(3,   $this->calc->add(1, 2));",
            ),
            ("# Tests of Calc; a hash comment.", "# Tests of Calc."),
        ],
        expect: &[],
    },
    Case {
        name: "a new test, a new helper, a new test class",
        edits: &[
            (
                "    private function helper(",
                "    public function testAddsNegatives(): void\n    {\n        $this->assertSame(-3, $this->calc->add(-1, -2));\n    }\n\n    private function other(): int\n    {\n        return 1;\n    }\n\n    private function helper(",
            ),
            (
                END,
                "\nfinal class MoreTest extends TestCase\n{\n    protected function setUp(): void\n    {\n    }\n\n    public function testMore(): void\n    {\n        $this->assertTrue(true);\n    }\n}\n",
            ),
        ],
        expect: &[],
    },
    Case {
        name: "a row added to a data provider",
        edits: &[(
            "            'by zero' => [0, 5, 0],\n",
            "            'by zero' => [0, 5, 0],\n            'negative' => [-1, 5, -5],\n",
        )],
        expect: &[],
    },
    Case {
        name: "a row of a data provider weakened",
        edits: &[("[2, 3, 6],", "[2, 3, 2 * 3],")],
        expect: &["block Helper CalcTest::products"],
    },
    Case {
        name: "an assertion weakened",
        edits: &[(
            "$this->assertSame(3, $this->calc->add(1, 2));",
            "$this->assertIsInt($this->calc->add(1, 2));",
        )],
        expect: &["changed CalcTest::testAdds"],
    },
    Case {
        name: "a test deleted",
        edits: &[(
            "    public function testAdds(): void\n    {\n        $this->assertSame(3, $this->calc->add(1, 2));\n    }\n\n",
            "",
        )],
        expect: &["deleted CalcTest::testAdds"],
    },
    Case {
        name: "a test renamed out of collection",
        edits: &[("public function testAdds()", "public function checkAdds()")],
        expect: &["deleted CalcTest::testAdds"],
    },
    Case {
        name: "an attribute test loses its attribute",
        edits: &[("    #[Test]\n", "")],
        expect: &["deleted CalcTest::sumsAList"],
    },
    Case {
        name: "an annotation test loses its annotation",
        edits: &[("    /** @test */\n", "")],
        expect: &["deleted CalcTest::printsUsage"],
    },
    Case {
        name: "a test put in an excluded group",
        edits: &[("    #[Test]\n", "    #[Test, Group('slow')]\n")],
        expect: &["changed CalcTest::sumsAList"],
    },
    Case {
        name: "a docblock folded onto one line, and the test-annotation's one spread over three",
        edits: &[
            (
                "    /**\n     * @dataProvider products\n     */\n",
                "    /** @dataProvider products */\n",
            ),
            ("    /** @test */\n", "    /**\n     * @test\n     */\n"),
        ],
        expect: &[],
    },
    Case {
        name: "a static analyser's docblock on the data provider",
        edits: &[(
            "    public static function products(): array\n",
            "    /**\n     * @return array<array-key, array{int, int, int}>\n     */\n    public static function products(): array\n",
        )],
        expect: &[],
    },
    Case {
        name: "a line added inside a docblock",
        edits: &[(
            "     * @dataProvider products\n",
            "     * @dataProvider products\n     * @group slow\n",
        )],
        expect: &["changed CalcTest::testMultiplies"],
    },
    Case {
        name: "a docblock's provider changed",
        edits: &[("@dataProvider products", "@dataProvider sums")],
        expect: &["changed CalcTest::testMultiplies"],
    },
    Case {
        name: "a test skipped",
        edits: &[(
            "        $this->assertSame(3, $this->calc->add(1, 2));",
            "        $this->markTestSkipped('later');\n        $this->assertSame(3, $this->calc->add(1, 2));",
        )],
        expect: &[
            "changed CalcTest::testAdds",
            "marker Skip $this->markTestSkipped('later');",
        ],
    },
    Case {
        name: "a hook changed",
        edits: &[(
            "$this->calc = new Calc(); // fresh",
            "$this->calc = new Calc(strict: false);",
        )],
        expect: &["block Setup CalcTest::setUp"],
    },
    Case {
        name: "a hook added beside the existing tests",
        edits: &[(
            "    private function helper(",
            "    #[\\PHPUnit\\Framework\\Attributes\\Before]\n    public function loosen(): void\n    {\n    }\n\n    private function helper(",
        )],
        expect: &["setup Setup CalcTest::loosen"],
    },
];

#[test]
fn php_table() {
    run_table(Lang::Php, Scope::TestFile, BASE, CASES);
}

#[test]
fn php_units_have_the_expected_shape() {
    let units = parse(Lang::Php, BASE);
    let top: Vec<(UnitKind, &str)> = units.iter().map(|u| (u.kind, u.name.as_str())).collect();
    assert_eq!(top.len(), 7, "{top:?}");
    assert!(top[..6].iter().all(|(kind, _)| *kind == UnitKind::Import), "{top:?}");
    assert_eq!(top[6], (UnitKind::Container, "CalcTest"));
    let members: Vec<(UnitKind, &str)> = units[6].children.iter().map(|u| (u.kind, u.name.as_str())).collect();
    assert_eq!(
        members,
        vec![
            (UnitKind::Setup, "use Fixtures;"),
            (UnitKind::Helper, "$calc"),
            (UnitKind::Setup, "setUp"),
            (UnitKind::Test, "testAdds"),
            (UnitKind::Test, "testMultiplies"),
            (UnitKind::Helper, "products"),
            (UnitKind::Test, "sumsAList"),
            (UnitKind::Helper, "sums"),
            (UnitKind::Test, "printsUsage"),
            (UnitKind::Helper, "helper"),
        ]
    );
    assert!(
        units[6].children[5].table.is_some(),
        "a data provider holds a table of test cases"
    );
    assert!(units[6].children[7].table.is_some(), "`return array(...)` too");
    assert!(units[6].children[9].table.is_none(), "a helper's list is no table");
}

#[test]
fn php_markers_are_calls_not_words_in_strings_comments_or_heredocs() {
    let text = "<?php\nclass ATest extends TestCase {\n  public function testA(): void {\n    // $this->markTestSkipped('x');\n    # markTestSkipped()\n    $s = 'markTestSkipped()' . <<<EOT\n  markTestSkipped()\n  EOT;\n    /* markTestIncomplete() */\n    $this->markTestIncomplete('todo');\n    self::markTestSkipped();\n  }\n}\n";
    let found: Vec<(u32, MarkerKind)> = markers(Lang::Php, text).iter().map(|m| (m.line, m.kind)).collect();
    assert_eq!(found, vec![(10, MarkerKind::Todo), (11, MarkerKind::Skip)]);
}

/// The `<?php` tag opens the file, not the statement after it: a `declare(strict_types=1);` put under the tag
/// leaves every statement that was there as it was.
#[test]
fn php_a_statement_put_under_the_open_tag_leaves_the_first_one_as_it_was() {
    let before = parse(
        Lang::Php,
        "<?php\n\nuse PHPUnit\\Framework\\TestCase;\n\nclass ATest extends TestCase {}\n",
    );
    let after = parse(
        Lang::Php,
        "<?php\n\ndeclare(strict_types=1);\n\nuse PHPUnit\\Framework\\TestCase;\n\nclass ATest extends TestCase {}\n",
    );
    assert_eq!(after.len(), before.len() + 1);
    assert_eq!(after[1].hash, before[0].hash, "the `use` under the tag");
    assert_eq!(after[2].hash, before[1].hash);
    assert_eq!(after[0].kind, UnitKind::Import);
}
