//! PHP's constant reads, by class: a bare upper-case name, a call naming it, a name built at run time; and what
//! is no read of a global constant.

use crate::testsig::Lang;
use crate::testsig::env_reads::read;

/// The constants `text` reads and whether it reads them all.
fn constants(text: &str) -> (Vec<String>, bool) {
    let found = read(Lang::Php, text, false);
    (found.constants.into_iter().collect(), found.all_constants)
}

#[track_caller]
fn names(text: &str, expected: &[&str]) {
    let text = format!(
        "<?php\nfinal class CalcTest extends TestCase\n{{\n    public function testA(): void\n    {{\n{text}\n    }}\n}}\n"
    );
    assert_eq!(
        constants(&text),
        (expected.iter().map(|s| s.to_string()).collect(), false),
        "{text}"
    );
}

#[track_caller]
fn all(text: &str) {
    assert!(constants(&format!("<?php\n{text}\n")).1, "{text} reads every constant");
}

#[test]
fn a_bare_name_and_a_call_naming_it_read_it() {
    names("if (CALC_QUICK) { return; }", &["CALC_QUICK"]);
    names("if (\\CALC_QUICK === 1) { return; }", &["CALC_QUICK"]);
    names("$x = \\App\\CALC_QUICK . 'x';", &["CALC_QUICK"]);
    names("if (defined('CALC_QUICK')) { return; }", &["CALC_QUICK"]);
    names("if (Defined(\"CALC_QUICK\")) { return; }", &["CALC_QUICK"]);
    names("$q = constant('CALC_QUICK');", &["CALC_QUICK"]);
    names("define('CALC_SEED', 3);", &["CALC_SEED"]);
    names("$this->assertSame(PHP_EOL, \"\\n\");", &["PHP_EOL"]);
}

#[test]
fn class_constants_properties_declarations_and_strings_read_none() {
    names("$this->assertSame(3, self::LIMIT + Calc::MAX + $this->MAX);", &[]);
    names("$this->assertSame('CALC_QUICK', 'CALC_QUICK'); // CALC_QUICK", &[]);
    names("$x = new Calc(); $y = CalcTest::class;", &[]);
    assert_eq!(constants("<?php\nclass A { const LIMIT = 3; }\n"), (Vec::new(), false));
}

#[test]
fn a_name_built_at_run_time_reads_them_all() {
    all("$v = constant($name);");
    all("$v = constant('APP_' . $suffix);");
    all("if (defined(\"APP_$x\")) {}");
    all("$every = get_defined_constants(true);");
}

/// The globals PHPUnit's `<var>` sets are read through `$GLOBALS` by a literal, or brought in by `global`; any
/// other use of the map reads them all.
#[test]
fn a_global_is_read_through_the_map_or_the_keyword() {
    names("if (!empty($GLOBALS['calc_quick'])) { return; }", &["calc_quick"]);
    names("global $dsn, $CALC_SEED;\n$x = $dsn;", &["CALC_SEED", "dsn"]);
    names("$this->assertSame(3, add(1, 2));", &[]);
    all("$x = $GLOBALS[$name];");
    all("foreach ($GLOBALS as $k => $v) {}");
}
