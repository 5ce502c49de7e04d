//! Properties over arbitrary text and over generated test files: nothing panics; a file compared with itself
//! gives no finding; appending a new test, or a comment, to a well-formed file gives no finding; signatures
//! survive a JSON round trip. Plus deep nesting, which a recursive reader would overflow on.

use proptest::prelude::*;

#[path = "../../../tests/support/proptest_config.rs"]
mod proptest_config;
use proptest_config::config;

use crate::testsig::{FileSig, Lang, compare, deleted_file, markers, parse};

const LANGS: [Lang; Lang::ALL.len()] = Lang::ALL;

/// Text made of the pieces the scanners care about, white space of every kind, and any character.
fn nasty_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => any::<char>().prop_map(String::from),
        2 => "[ \t\r\n]{1,4}",
        2 => "[a-zA-Z_0-9]{1,8}",
        4 => prop::sample::select(vec![
            "def test_", "class Test", "async def ", ":\n    ", "@pytest.mark.skip\n", "@pytest.fixture\n", "\"\"\"",
            "'''", "f\"{", "rb'", "\\\n", "import ", "from x import y\n", "pytestmark = ", "__test__ = False",
            "describe('", "it('", "it.skip('", "test.each`", "() => {", "})", "function (", "beforeEach(",
            "vi.mock(", "${", "`", "/[", "/", "//", "/*", "*/", "=>", "require(", "const ", "if (import.meta.vitest) {",
            "#[test]", "#[cfg(test)]", "mod tests {", "fn t() {", "r#\"", "\"#", "'a", "'\\''", "#![cfg(any())]",
            "proptest! {", "#[ignore]", "func TestX(t *testing.T) {", "func init() {", "//go:build ignore\n",
            "t.Skip(", "package x\n", "import (", "(", ")", "[", "]", "{", "}", "'", "\"", "#", "@", ";", ",", "\\",
        ])
        .prop_map(str::to_string),
        1 => Just("\u{0}".to_string()),
        1 => Just("\u{feff}é中\u{2028}".to_string()),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
}

/// A well-formed test file of `lang`, from realistic units with names drawn from `names`.
fn test_file(lang: Lang) -> impl Strategy<Value = String> {
    let unit = prop::sample::select(units(lang));
    (prop::collection::vec((unit, 0u32..1000), 0..12)).prop_map(move |chosen| {
        let mut text = String::from(header(lang));
        for (template, n) in chosen {
            text.push_str(&template.replace("NAME", &format!("n{n}")));
        }
        text
    })
}

fn header(lang: Lang) -> &'static str {
    match lang {
        Lang::Python => "import pytest\n",
        Lang::JavaScript => "import { describe, it, expect } from 'vitest'\n",
        Lang::Rust => "use super::*;\n",
        Lang::Go => "package calc\n\nimport \"testing\"\n",
        Lang::Shell => "setup() {\n  load ../lib/calc.sh\n}\n",
        Lang::Cpp => "#include <gtest/gtest.h>\n#include \"calc.h\"\n",
        Lang::Ruby => "require \"minitest/autorun\"\nrequire_relative \"../lib/calc\"\n",
        Lang::Php => "<?php\nuse PHPUnit\\Framework\\TestCase;\n",
        Lang::Java => {
            "package calc;\n\nimport org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\n"
        }
    }
}

fn units(lang: Lang) -> Vec<&'static str> {
    match lang {
        Lang::Python => vec![
            "\n\ndef test_NAME():\n    assert f(1) == 1\n",
            "\n\n@pytest.mark.skip\ndef test_NAME(x):\n    '''doc'''\n    if x:\n        return\n",
            "\n\ndef helper_NAME(a, b=(1,)):\n    return a + b\n",
            "\n\n@pytest.fixture(autouse=True)\ndef fix_NAME():\n    yield\n",
            "\n\nclass TestNAME:\n    def setup_method(self):\n        self.x = 1\n\n    def test_a(self):\n        assert self.x\n",
            "\n\nclass NAMETests(unittest.TestCase):\n    @unittest.skip('x')\n    def test_b(self):\n        self.assertTrue(f'{1}')\n",
            "\nCONST_NAME = [\n    1,\n    2,\n]\n",
        ],
        Lang::JavaScript => vec![
            "\ntest('NAME', () => {\n  expect(f(1)).toBe(1)\n})\n",
            "\ndescribe('NAME', () => {\n  beforeEach(() => {})\n  it.each([[1]])('x %s', (a) => expect(a).toBe(1))\n  it.skip(`t`, function () { this.skip() })\n})\n",
            "\nfunction helperNAME(a) {\n  return a / 2 / 1\n}\n",
            "\nconst dataNAME = { a: [1, 2], re: /x[/]y/g }\n",
            "\nvi.mock('./NAME')\n",
            "\nconst { NAME } = require('./NAME');\n",
        ],
        Lang::Rust => vec![
            "\n#[test]\nfn t_NAME() {\n    assert_eq!(f(1), 1);\n}\n",
            "\n#[tokio::test]\n#[ignore]\nasync fn a_NAME<'a>() {\n    let c = '{';\n}\n",
            "\nfn helper_NAME(x: &str) -> String {\n    format!(r#\"{x}\"#)\n}\n",
            "\n#[cfg(test)]\nmod m_NAME {\n    use super::*;\n    #[test]\n    fn inner() {}\n}\n",
            "\nproptest! {\n    #[test]\n    fn p_NAME(n in 0..10u8) { prop_assert!(n < 10); }\n}\n",
            "\nconst C_NAME: &[u8] = b\"x\";\n",
        ],
        Lang::Go => vec![
            "\nfunc TestNAME(t *testing.T) {\n\tif f(1) != 1 {\n\t\tt.Fatal(\"x\")\n\t}\n}\n",
            "\nfunc TestSkipNAME(t *testing.T) {\n\tt.Skip(`raw`)\n}\n",
            "\nfunc helperNAME(s string) int {\n\treturn len(s)\n}\n",
            "\nvar casesNAME = []struct{ in string }{{\"a\"}}\n",
            "\nfunc ExampleNAME() {\n\tfmt.Println(1)\n\t// Output: 1\n}\n",
        ],
        Lang::Shell => vec![
            "\n@test \"NAME\" {\n  [ \"$(f 1)\" -eq 1 ]\n}\n",
            "\n@test 'skip NAME' {\n  skip \"later\"\n}\n",
            "\nhelper_NAME() {\n  echo \"${1:-x}\" | tr a b\n}\n",
            "\nCASES_NAME=(1 2 3)\n",
        ],
        Lang::Cpp => vec![
            "\nTEST(Calc, NAME) {\n  EXPECT_EQ(add(1, 2), 3);\n}\n",
            "\nTEST_F(Fixture, DISABLED_NAME) {\n  GTEST_SKIP() << \"later\";\n}\n",
            "\nstatic int helper_NAME(int a) {\n  return a * 2; // '{'\n}\n",
            "\nnamespace n_NAME {\nTEST_CASE(\"NAME works\", \"[.][!mayfail]\") {\n  SECTION(\"a\") { REQUIRE(f(R\"x(\")\")x\") == 1); }\n}\n}\n",
            "\nstruct Fixture_NAME : ::testing::Test {\n  void SetUp() override { x = 1; }\n  int x;\n};\n",
            "\n#define CASES_NAME \\\n  1, 2\n",
        ],
        Lang::Ruby => vec![
            "\nclass NAMETest < Minitest::Test\n  def test_a\n    assert_equal 1, f(\"#{1}\")\n  end\nend\n",
            "\ndescribe \"NAME\" do\n  before { @x = 1 }\n  it \"works\" do\n    expect(f(1)).to eq 1 if @x\n  end\n  xit(\"later\") { skip }\nend\n",
            "\ndef helper_NAME(a, b = [1])\n  a + b.sum / 2\nend\n",
            "\nTEXT_NAME = <<~EOS\n  end\nEOS\n",
            "\nCASES_NAME = %w[a b].map { |s| s =~ /x[\\/]y/ }\n",
        ],
        Lang::Php => vec![
            "\nfinal class NAMETest extends TestCase\n{\n    public function testA(): void\n    {\n        $this->assertSame(1, f(1));\n    }\n}\n",
            "\nclass SkipNAMETest extends TestCase\n{\n    /** @dataProvider rows */\n    public function testB(int $x): void\n    {\n        $this->markTestSkipped(\"x {$x}\");\n    }\n\n    public static function rows(): array\n    {\n        return [[1], 'two' => [2]];\n    }\n}\n",
            "\nfunction helper_NAME(string $s): string\n{\n    return <<<EOT\n    {$s} # }\n    EOT;\n}\n",
            "\n$casesNAME = ['a' => 1, \"b\" => 2]; // x\n",
        ],
        Lang::Java => vec![
            "\nclass NAMETest {\n    @Test\n    void adds() {\n        assertEquals(3, add(1, '}'));\n    }\n}\n",
            "\nclass SkipNAMETest {\n    @org.junit.jupiter.api.Disabled(\"later\")\n    @ParameterizedTest\n    @ValueSource(ints = {1, 2})\n    void b(int x) {\n        Assumptions.assumeTrue(x > 0, \"\"\"\n  } \" \"\"\");\n    }\n}\n",
            "\nclass HelperNAME {\n    private static final int[] CASES = {1, 2};\n    @BeforeEach\n    void setUp() { x = 1; }\n    static int twice(int a) { return a * 2; /* { */ }\n}\n",
        ],
    }
}

/// A test whose name no generated unit uses.
fn appended_test(lang: Lang) -> &'static str {
    match lang {
        Lang::Python => "\n\ndef test_appended_zz():\n    assert True\n",
        Lang::JavaScript => "\ntest('appended zz', () => {\n  expect(true).toBe(true)\n})\n",
        Lang::Rust => "\n#[test]\nfn appended_zz() {\n    assert!(true);\n}\n",
        Lang::Go => "\nfunc TestAppendedZz(t *testing.T) {\n\tt.Log(\"ok\")\n}\n",
        Lang::Shell => "\n@test \"appended zz\" {\n  true\n}\n",
        Lang::Cpp => "\nTEST(Appended, Zz) {\n  EXPECT_TRUE(true);\n}\n",
        Lang::Ruby => "\nit \"appended zz\" do\n  expect(true).to be true\nend\n",
        Lang::Java => "\nclass AppendedZzTest {\n    @Test\n    void zz() {\n        assertTrue(true);\n    }\n}\n",
        Lang::Php => {
            "\nclass AppendedZzTest extends TestCase\n{\n    public function testZz(): void\n    {\n        $this->assertTrue(true);\n    }\n}\n"
        }
    }
}

fn comment(lang: Lang) -> &'static str {
    match lang {
        Lang::Python | Lang::Shell | Lang::Ruby | Lang::Php => {
            "\n# a note: it.skip() @pytest.mark.skip skip xit markTestSkipped()\n"
        }
        _ => "\n// a note: it.skip() #[ignore] t.Skip() GTEST_SKIP() [.] @Disabled assumeTrue()\n",
    }
}

fn any_lang() -> impl Strategy<Value = Lang> {
    prop::sample::select(LANGS.to_vec())
}

proptest! {
    #![proptest_config(config(384))]

    /// Any text in any language: every entry point answers, and a file compared with itself is clean.
    #[test]
    fn nothing_panics_and_self_compare_is_clean(lang in any_lang(), a in nasty_text(), b in nasty_text()) {
        let _ = parse(lang, &a);
        let _ = markers(lang, &a);
        let sig = FileSig::of(lang, &a);
        let _ = compare(&sig, &b, lang);
        let _ = deleted_file(&sig);
        prop_assert_eq!(compare(&sig, &a, lang), vec![]);
        let inline = FileSig::inline(lang, &a);
        prop_assert_eq!(compare(&inline, &a, lang), vec![]);
    }

    /// Byte-level garbage that is still UTF-8.
    #[test]
    fn lossy_bytes_never_panic(lang in any_lang(), bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        let sig = FileSig::of(lang, &text);
        prop_assert_eq!(compare(&sig, &text, lang), vec![]);
    }
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn appending_a_new_test_is_allowed_python(file in test_file(Lang::Python)) {
        check_append(Lang::Python, &file)?;
    }

    #[test]
    fn appending_a_new_test_is_allowed_js(file in test_file(Lang::JavaScript)) {
        check_append(Lang::JavaScript, &file)?;
    }

    #[test]
    fn appending_a_new_test_is_allowed_rust(file in test_file(Lang::Rust)) {
        check_append(Lang::Rust, &file)?;
    }

    #[test]
    fn appending_a_new_test_is_allowed_go(file in test_file(Lang::Go)) {
        check_append(Lang::Go, &file)?;
    }

    /// A comment between units (holding marker spellings) changes nothing.
    #[test]
    fn a_comment_between_units_is_no_change(lang in any_lang(), seed in any::<prop::sample::Index>()) {
        let file = units(lang).concat();
        let file = format!("{}{file}", header(lang));
        let cuts: Vec<usize> = file.match_indices("\n\n").map(|(at, _)| at + 1).collect();
        prop_assume!(!cuts.is_empty());
        let at = cuts[seed.index(cuts.len())];
        let edited = format!("{}{}{}", &file[..at], comment(lang), &file[at..]);
        prop_assert_eq!(compare(&FileSig::of(lang, &file), &edited, lang), vec![]);
    }

    /// Signatures survive JSON.
    #[test]
    fn signatures_round_trip(lang in any_lang(), text in nasty_text()) {
        let sig = FileSig::of(lang, &text);
        let json = serde_json::to_string(&sig).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let back: FileSig = serde_json::from_str(&json).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(back, sig);
    }
}

fn check_append(lang: Lang, file: &str) -> Result<(), TestCaseError> {
    let sig = FileSig::of(lang, file);
    let edited = format!("{file}{}", appended_test(lang));
    prop_assert_eq!(compare(&sig, &edited, lang), vec![], "appending to:\n{}", file);
    let appended = parse(lang, &edited);
    prop_assert!(
        appended.len() == parse(lang, file).len() + 1,
        "the appended test is one more unit"
    );
    Ok(())
}

#[test]
fn deep_nesting_is_answered_without_overflow() {
    // Far deeper than a reader that recursed without a cap could go on a test thread's stack.
    let depth = 5_000;
    let texts = [
        (Lang::JavaScript, "describe('a', () => {\n".repeat(depth)),
        (
            Lang::Python,
            (0..2_000)
                .map(|i| format!("{}class T:\n", " ".repeat(i)))
                .collect::<String>(),
        ),
        (Lang::Rust, "mod m {\n".repeat(depth)),
        (Lang::Rust, "/*".repeat(depth * 10)),
        (Lang::Python, "f'{".repeat(depth * 10)),
        (Lang::JavaScript, "`${".repeat(depth * 10)),
        (Lang::Go, "func f() {\n".repeat(depth)),
    ];
    for (lang, text) in texts {
        let sig = FileSig::of(lang, &text);
        assert!(compare(&sig, &text, lang).is_empty(), "{lang:?}");
        let _ = deleted_file(&sig);
    }
}
