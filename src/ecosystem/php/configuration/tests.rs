//! PHPUnit's configuration, setting by setting: what moves a part and what does not.

use super::parts;

const BASE: &str = "<?xml version=\"1.0\"?>\n<phpunit bootstrap=\"src/Calc.php\" colors=\"false\">\n  <testsuites>\n    <testsuite name=\"unit\">\n      <directory>tests</directory>\n    </testsuite>\n  </testsuites>\n</phpunit>\n";

fn labels(text: &str) -> Vec<String> {
    parts(text, &[]).into_iter().map(|(label, _)| label).collect()
}

/// The parts that differ between two documents, by label.
fn moved(before: &str, after: &str) -> Vec<String> {
    let (a, b) = (parts(before, &[]), parts(after, &[]));
    let mut out: Vec<String> = a
        .iter()
        .filter(|part| !b.contains(part))
        .chain(b.iter().filter(|part| !a.contains(part)))
        .map(|(label, _)| label.clone())
        .collect();
    out.dedup();
    out
}

#[test]
fn the_base_reads_as_its_bootstrap_and_one_selection_entry() {
    assert_eq!(
        labels(BASE),
        vec![
            "the configuration".to_string(),
            "bootstrap".to_string(),
            "testsuite unit selects tests/**/*Test.php".to_string()
        ]
    );
}

#[test]
fn display_cache_coverage_and_logging_are_free() {
    let after = BASE
        .replace(
            "colors=\"false\">",
            "colors=\"true\" cacheResult=\"true\" cacheResultFile=\".phpunit.cache/test-results\" displayDetailsOnSkippedTests=\"true\" testdox=\"true\">\n  <coverage>\n    <include>\n      <directory suffix=\".php\">src</directory>\n    </include>\n    <report><html outputDirectory=\"build/coverage\"/></report>\n  </coverage>\n  <logging><junit outputFile=\"build/junit.xml\"/></logging>\n  <source><include><directory>src</directory></include></source>",
        );
    assert_eq!(moved(BASE, &after), Vec::<String>::new());
}

#[test]
fn what_can_change_a_verdict_counts() {
    for (what, after) in [
        ("bootstrap", BASE.replace("src/Calc.php", "tests/patch.php")),
        ("<php>", BASE.replace("</phpunit>", "<php><ini name=\"assert.active\" value=\"0\"/></php>\n</phpunit>")),
        ("<extensions>", BASE.replace("</phpunit>", "<extensions><extension class=\"Patch\"/></extensions>\n</phpunit>")),
        ("executionOrder", BASE.replace("colors=", "executionOrder=\"defects\" colors=")),
        (
            "testsuite unit <exclude>",
            BASE.replace("</directory>", "</directory>\n<exclude>tests/CalcTest.php</exclude>"),
        ),
        ("<coverage>", BASE.replace("</phpunit>", "<coverage processUncoveredFiles=\"true\"><include><directory>src</directory></include></coverage></phpunit>")),
    ] {
        let moved = moved(BASE, &after);
        assert!(moved.iter().any(|label| label.starts_with(what)), "{what}: {moved:?}");
    }
}

#[test]
fn a_cache_counts_while_the_order_reads_it() {
    let defects = BASE.replace("colors=", "executionOrder=\"defects\" colors=");
    let cached = defects.replace("colors=", "cacheResultFile=\"elsewhere\" colors=");
    assert_eq!(moved(&defects, &cached), vec!["cacheResultFile".to_string()]);
}

#[test]
fn a_stricter_setting_may_appear_but_not_go() {
    let strict = BASE.replace(
        "colors=",
        "beStrictAboutOutputDuringTests=\"true\" failOnRisky=\"true\" colors=",
    );
    let (before, after) = (
        super::super::parts::digests(&read(), Some(BASE.as_bytes())),
        super::super::parts::digests(&read(), Some(strict.as_bytes())),
    );
    assert_eq!(super::super::parts::compare(&before, &after), vec![]);
    let back = super::super::parts::compare(&after, &before);
    assert_eq!(back.len(), 2, "{back:?}");
    let laxer = BASE.replace("colors=", "failOnRisky=\"false\" colors=");
    let laxer = super::super::parts::digests(&read(), Some(laxer.as_bytes()));
    assert_eq!(super::super::parts::compare(&before, &laxer).len(), 1);
}

fn read() -> super::super::parts::Scope {
    super::super::parts::Read::by(&super::READING, Vec::new())
}

#[test]
fn a_suite_and_its_entries_are_entries_of_the_selection() {
    let after = BASE.replace(
        "  </testsuites>",
        "    <testsuite name=\"integration\">\n      <directory suffix=\".php\">./tests-integration/</directory>\n      <file>src/patch.php</file>\n      <directory phpVersion=\"8.1\">more</directory>\n    </testsuite>\n  </testsuites>",
    );
    assert_eq!(
        moved(BASE, &after),
        vec![
            "testsuite integration selects tests-integration/**/*.php".to_string(),
            "testsuite integration selects src/patch.php".to_string(),
            "testsuite integration <directory>".to_string(),
        ]
    );
}

#[test]
fn layout_moves_nothing_and_what_does_not_parse_is_one_part() {
    let relaid = "<phpunit colors=\"true\"\n bootstrap=\"src/Calc.php\"><testsuites><testsuite name=\"unit\"><directory>./tests/</directory></testsuite></testsuites></phpunit>";
    assert_eq!(moved(BASE, relaid), Vec::<String>::new());
    assert_eq!(labels("<phpunit>"), vec![super::super::parts::UNPARSABLE.to_string()]);
}

/// `<env>` and `<server>` entries naming a variable no runner and no test reads are data; one a sealed test reads
/// (after the marker), or one PHP reads (`XDEBUG_MODE`), counts; a seal without the marker keeps `<php>` whole.
#[test]
fn the_php_sections_variables_are_judged_by_who_reads_them() {
    let marked = |read: &[&str]| {
        let mut names = vec![crate::closure::parts::DATA_VARIABLES.to_string()];
        names.extend(read.iter().map(|n| n.to_string()));
        names
    };
    let config = |php: &str| format!("<phpunit bootstrap=\"src/Calc.php\">\n  <php>\n{php}  </php>\n</phpunit>\n");
    let has_php = |text: &str, names: &[String]| parts(text, names).iter().any(|(label, _)| label == "<php>");
    let app_env = config("    <env name=\"APP_ENV\" value=\"testing\"/>\n    <server name=\"TZ\" value=\"UTC\"/>\n");
    assert!(!has_php(&app_env, &marked(&["CALC_QUICK"])));
    assert!(has_php(&app_env, &[]), "an older seal keeps <php> whole");
    assert!(has_php(&app_env, &marked(&["APP_ENV"])));
    let quick = config("    <env name=\"CALC_QUICK\" value=\"1\"/>\n");
    assert!(has_php(&quick, &marked(&["CALC_QUICK"])));
    let xdebug =
        config("    <env name=\"XDEBUG_MODE\" value=\"off\"/>\n    <ini name=\"memory_limit\" value=\"-1\"/>\n");
    assert!(has_php(&xdebug, &marked(&[])));
}
