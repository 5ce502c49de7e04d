//! PHPUnit's configuration, setting by setting: what moves a part and what does not.

use super::parts;

const BASE: &str = "<?xml version=\"1.0\"?>\n<phpunit bootstrap=\"src/Calc.php\" colors=\"false\">\n  <testsuites>\n    <testsuite name=\"unit\">\n      <directory>tests</directory>\n    </testsuite>\n  </testsuites>\n</phpunit>\n";

fn labels(text: &str) -> Vec<String> {
    parts(text, &by_entry()).into_iter().map(|(label, _)| label).collect()
}

/// The parts that differ between two documents, by label.
fn moved(before: &str, after: &str) -> Vec<String> {
    let (a, b) = (parts(before, &by_entry()), parts(after, &by_entry()));
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

/// Defects first with no result cache orders by nothing: free; with the cache on, or another order, it counts.
#[test]
fn defects_first_without_a_cache_is_free() {
    let uncached = BASE.replace("colors=", "executionOrder=\"defects\" cacheResult=\"false\" colors=");
    assert_eq!(moved(BASE, &uncached), Vec::<String>::new());
    for order in ["defects,random", "reverse", "duration"] {
        let other = uncached.replace("\"defects\"", &format!("\"{order}\""));
        assert!(moved(BASE, &other).iter().any(|l| l == "executionOrder"), "{order}");
    }
    let cached = uncached.replace("cacheResult=\"false\"", "cacheResult=\"true\"");
    assert!(moved(BASE, &cached).iter().any(|l| l == "executionOrder"));
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

/// The names of a reading that reads `<php>` entry by entry (no variable data: no `DATA_VARIABLES` marker).
fn by_entry() -> Vec<String> {
    vec![super::BY_ENTRY.to_string()]
}

fn read() -> super::super::parts::Scope {
    super::super::parts::Read::by(&super::READING, vec![super::BY_ENTRY.to_string()])
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

/// `<php>` entry by entry: a memory or time bound is free, every error reported or displayed may appear (but
/// not go), and everything else counts, each entry its own part.
#[test]
fn php_entries_count_one_by_one_and_bounds_and_stricter_ini_are_free() {
    let with = |entries: &str| BASE.replace("</phpunit>", &format!("  <php>\n{entries}  </php>\n</phpunit>"));
    let digests = |text: &str| super::super::parts::digests(&read(), Some(text.as_bytes()));
    let compare = |a: &str, b: &str| super::super::parts::compare(&digests(a), &digests(b));
    let honest = with(
        "    <ini name=\"memory_limit\" value=\"-1\"/>\n    <ini name=\"max_execution_time\" value=\"0\"/>\n    <ini name=\"error_reporting\" value=\"-1\"/>\n    <ini name=\"display_errors\" value=\"1\"/>\n",
    );
    assert_eq!(compare(BASE, &honest), vec![]);
    // A stricter entry, once there, may not go.
    assert_eq!(compare(&honest, BASE).len(), 2, "{:?}", compare(&honest, BASE));
    for (gamed, label) in [
        (
            "<ini name=\"error_reporting\" value=\"0\"/>",
            "<php> <ini error_reporting>",
        ),
        (
            "<ini name=\"error_reporting\" value=\"E_ALL &amp; ~E_WARNING\"/>",
            "<php> <ini error_reporting>",
        ),
        (
            "<ini name=\"display_errors\" value=\"stderr\"/>",
            "<php> <ini display_errors>",
        ),
        ("<ini name=\"assert.active\" value=\"0\"/>", "<php> <ini assert.active>"),
        ("<env name=\"APP_ENV\" value=\"testing\"/>", "<php> <env APP_ENV>"),
        ("<includePath>src/patch</includePath>", "<php> <includePath >"),
        (
            "<ini name=\"memory_limit\" value=\"-1\" force=\"x\"/>",
            "<php> <ini memory_limit>",
        ),
    ] {
        let moved = moved(BASE, &with(&format!("    {gamed}\n")));
        assert_eq!(moved, vec![label.to_string()], "{gamed}");
    }
}

/// A seal taken before `<php>` was read entry by entry (no [`super::BY_ENTRY`] among its names) holds it whole.
#[test]
fn a_seal_from_before_holds_php_whole() {
    let with = BASE.replace(
        "</phpunit>",
        "  <php>\n    <ini name=\"memory_limit\" value=\"-1\"/>\n  </php>\n</phpunit>",
    );
    let labels: Vec<String> = parts(&with, &[]).into_iter().map(|(label, _)| label).collect();
    assert!(labels.contains(&"<php>".to_string()), "{labels:?}");
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

/// As a seal takes it today (`php::closure`'s reading): `<php>` entry by entry and its variables by who reads
/// them — a variable only the code reads is free, one a sealed test reads counts as its own entry.
#[test]
fn entry_by_entry_the_variables_the_tests_read_count_and_the_rest_are_data() {
    let names: Vec<String> = [super::BY_ENTRY, crate::closure::parts::DATA_VARIABLES, "CALC_QUICK"]
        .iter()
        .map(|n| n.to_string())
        .collect();
    let config = |php: &str| format!("<phpunit bootstrap=\"src/Calc.php\">\n  <php>\n{php}  </php>\n</phpunit>\n");
    let labels = |text: &str| -> Vec<String> { parts(text, &names).into_iter().map(|(label, _)| label).collect() };
    let free = labels(&config("    <env name=\"APP_ENV\" value=\"testing\"/>\n"));
    assert!(!free.iter().any(|label| label.starts_with("<php>")), "{free:?}");
    let quick = labels(&config("    <env name=\"CALC_QUICK\" value=\"1\"/>\n"));
    assert!(quick.contains(&"<php> <env CALC_QUICK>".to_string()), "{quick:?}");
}

/// `<const>` entries are judged by whether a sealed test reads the constant (the names after
/// `parts::DATA_CONSTANTS`): `APP_DEBUG` the code alone reads is free, `CALC_QUICK` a test reads counts, and
/// every `<const>` counts where the marker is absent (a test builds names at run time, or an older seal).
#[test]
fn the_php_sections_constants_are_judged_by_whether_the_tests_read_them() {
    let names = |consts: Option<&[&str]>| -> Vec<String> {
        let mut names = vec![
            super::BY_ENTRY.to_string(),
            crate::closure::parts::DATA_VARIABLES.to_string(),
            "HOME_DIR".to_string(),
        ];
        if let Some(consts) = consts {
            names.push(crate::closure::parts::DATA_CONSTANTS.to_string());
            names.extend(consts.iter().map(|n| n.to_string()));
        }
        names
    };
    let config = |php: &str| format!("<phpunit bootstrap=\"src/Calc.php\">\n  <php>\n{php}  </php>\n</phpunit>\n");
    let labels = |text: &str, names: &[String]| -> Vec<String> {
        parts(text, names).into_iter().map(|(label, _)| label).collect()
    };
    let debug = config("    <const name=\"APP_DEBUG\" value=\"true\"/>\n");
    let free = labels(&debug, &names(Some(&["CALC_QUICK"])));
    assert!(!free.iter().any(|l| l.starts_with("<php>")), "{free:?}");
    assert!(labels(&debug, &names(None)).contains(&"<php> <const APP_DEBUG>".to_string()));
    let quick = config("    <const name=\"CALC_QUICK\" value=\"1\"/>\n");
    assert!(labels(&quick, &names(Some(&["CALC_QUICK"]))).contains(&"<php> <const CALC_QUICK>".to_string()));
    let spaced = config("    <const name=\"App\\CALC_QUICK\" value=\"1\"/>\n");
    assert!(
        labels(&spaced, &names(Some(&["CALC_QUICK"])))
            .iter()
            .any(|l| l.starts_with("<php> <const"))
    );
    let runner = config("    <const name=\"PHPUNIT_TESTSUITE\" value=\"1\"/>\n");
    assert!(
        labels(&runner, &names(Some(&[])))
            .iter()
            .any(|l| l.starts_with("<php> <const"))
    );
    // The variables' names stop at the constants' marker: a constant's name is not a variable read.
    let env = config("    <env name=\"CALC_QUICK\" value=\"1\"/>\n");
    assert!(
        !labels(&env, &names(Some(&["CALC_QUICK"])))
            .iter()
            .any(|l| l.starts_with("<php>"))
    );
}
