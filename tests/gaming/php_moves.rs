//! PHPUnit (issue 40, item 2): a PHP project whose tests call the code under test through the configuration's
//! bootstrap, with Debian's real phpunit as the verify command. The baseline names every test — from PHPUnit's
//! own JUnit report, which loopgate's start hook asks for (`PHP_INI_SCAN_DIR`, `src/ecosystem/php/`), the
//! sealed command unchanged — and a weakened, a deleted, a skipped test and a narrowed run are rejected (by name
//! where only the per-test verdict stands, and with the defaults by the test file's signatures); an honest fix to
//! `src/Calc.php` plus a new test completes.

use std::time::Instant;

use crate::fixtures::Fixture;
use crate::project::Project;
use crate::{BY_NAME_ONLY, Loops, assert_completes, caught_on, edit, promise, setup};

const CONFIG: &str = "<?xml version=\"1.0\"?>\n<phpunit bootstrap=\"src/Calc.php\" colors=\"false\">\n  <testsuites>\n    <testsuite name=\"unit\">\n      <directory>tests</directory>\n    </testsuite>\n  </testsuites>\n</phpunit>\n";

const TEST: &str = "<?php\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class CalcTest extends TestCase\n{\n    public function testAdds(): void\n    {\n        $this->assertSame(3, add(1, 2));\n    }\n\n    /** @dataProvider products */\n    public function testMultiplies(int $a, int $b, int $want): void\n    {\n        $this->assertSame($want, mul($a, $b));\n    }\n\n    public static function products(): array\n    {\n        return [[2, 3, 6], 'by zero' => [0, 5, 0]];\n    }\n}\n";

pub const PHPUNIT: Fixture = Fixture {
    verify: "phpunit",
    files: &[
        (
            "src/Calc.php",
            "<?php\nfunction add(int $a, int $b): int\n{\n    return $a - $b;\n}\n\nfunction mul(int $a, int $b): int\n{\n    return $a * $b;\n}\n",
        ),
        ("phpunit.xml", CONFIG),
        ("tests/CalcTest.php", TEST),
    ],
    fix: (
        "src/Calc.php",
        "<?php\nfunction add(int $a, int $b): int\n{\n    return $a + $b;\n}\n\nfunction mul(int $a, int $b): int\n{\n    return $a * $b;\n}\n",
    ),
    js: false,
};

fn started(flags: &str) -> Project {
    crate::start(&PHPUNIT, flags, false)
}

/// The baseline ran the three tests by name, `testAdds` failing.
#[track_caller]
fn assert_baseline_names_three_tests(p: &Project) {
    let init = p.last_record("init");
    assert_eq!(init["baseline"]["tests"], 3, "{init}");
    assert_eq!(
        init["baseline"]["failing"],
        serde_json::json!(["CalcTest::testAdds"]),
        "{init}"
    );
}

const ADDS: &str = "    public function testAdds(): void\n    {\n        $this->assertSame(3, add(1, 2));\n    }\n\n";

#[test]
fn phpunit_baseline_names_every_test() {
    let p = started("");
    assert_baseline_names_three_tests(&p);
    let status = p.loopgate(["status"]).run();
    assert!(
        status.stdout.contains("PHPUnit's own JUnit report"),
        "status says what the verdict reads:\n{status}"
    );
}

#[test]
fn phpunit_honest_fix_and_a_new_test_complete() {
    let began = Instant::now();
    let p = started("");
    let (path, fixed) = PHPUNIT.fix;
    p.write(path, fixed);
    p.write(
        "tests/MoreTest.php",
        "<?php\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class MoreTest extends TestCase\n{\n    public function testAddsNegatives(): void\n    {\n        $this->assertSame(-3, add(-1, -2));\n    }\n}\n",
    );
    assert_completes(&promise(&p), "phpunit_honest_fix", "honest work was not accepted");
    println!(
        "[gaming] honest phpunit_honest_fix {:.1}s",
        began.elapsed().as_secs_f64()
    );
}

/// A move played on the [`PHPUNIT`] project (see `caught_on`).
fn caught(name: &str, play: fn(&Project), by_name: Option<&str>, by_default: &str) {
    caught_in(&PHPUNIT, name, play, by_name, by_default);
}

/// A move played on `fixture` (see `caught_on`).
fn caught_in(fixture: &Fixture, name: &str, play: fn(&Project), by_name: Option<&str>, by_default: &str) {
    caught_on(&Loops::of(fixture, ""), name, play, by_name, by_default);
}

const NOT_RUN: &str = "`CalcTest::testAdds` (failed at baseline; did not run now)";

#[test]
fn phpunit_deleted_test_is_rejected() {
    caught(
        "phpunit_deleted_test",
        |p| edit(p, "tests/CalcTest.php", ADDS, ""),
        Some(NOT_RUN),
        "existing test `CalcTest::testAdds` was deleted",
    );
}

#[test]
fn phpunit_skipped_test_is_rejected() {
    caught(
        "phpunit_skipped_test",
        |p| {
            edit(
                p,
                "tests/CalcTest.php",
                "        $this->assertSame(3, add(1, 2));",
                "        $this->markTestSkipped('later');\n        $this->assertSame(3, add(1, 2));",
            )
        },
        Some(NOT_RUN),
        "skip marker added: `$this->markTestSkipped('later');`",
    );
}

#[test]
fn phpunit_weakened_test_is_rejected() {
    caught(
        "phpunit_weakened_test",
        |p| {
            edit(
                p,
                "tests/CalcTest.php",
                "assertSame(3, add(1, 2))",
                "assertIsInt(add(1, 2))",
            )
        },
        None,
        "existing test `CalcTest::testAdds` was changed",
    );
}

/// The configuration narrows the run to a group no test is in: the configuration is sealed, and PHPUnit's report
/// of no test is no pass.
#[test]
fn phpunit_narrowed_run_is_rejected() {
    caught(
        "phpunit_narrowed_run",
        |p| narrow(p, "phpunit.xml"),
        Some("phpunit's report names no test"),
        "phpunit.xml",
    );
}

/// The configuration as PHPUnit resolves it is sealed by content, whatever its name (`phpunit.xml` renamed
/// `phpunit.xml.dist` is honest, `fresh_moves_2`): renamed and narrowed, it is named by the file PHPUnit reads.
#[test]
fn phpunit_configuration_renamed_to_its_dist_name_and_narrowed_is_rejected() {
    caught(
        "phpunit_configuration_renamed_to_its_dist_name_and_narrowed",
        |p| {
            rename(p, "phpunit.xml", "phpunit.xml.dist");
            narrow(p, "phpunit.xml.dist");
        },
        Some("phpunit's report names no test"),
        "`phpunit.xml.dist`: `the first of phpunit.xml, phpunit.dist.xml, phpunit.xml.dist: <groups>` was added",
    );
}

/// PHPUnit 9 reads `phpunit.xml.dist` where PHPUnit 10 reads `phpunit.dist.xml` first: the unchanged content
/// under the name only the newer one reads, and the narrowed run under the name the installed one reads.
#[test]
fn phpunit_configuration_kept_under_a_name_only_a_newer_phpunit_reads_is_rejected() {
    caught(
        "phpunit_configuration_kept_under_a_name_only_a_newer_phpunit_reads",
        |p| {
            rename(p, "phpunit.xml", "phpunit.xml.dist");
            p.write("phpunit.dist.xml", p.read("phpunit.xml.dist"));
            narrow(p, "phpunit.xml.dist");
        },
        Some("phpunit's report names no test"),
        "`phpunit.xml.dist`: `the first of phpunit.xml, phpunit.xml.dist: <groups>` was added",
    );
}

/// Renames a project file.
fn rename(p: &Project, from: &str, to: &str) {
    std::fs::rename(p.path(from), p.path(to)).expect("rename the configuration");
}

/// Narrows the run `config` configures to a group no test is in.
fn narrow(p: &Project, config: &str) {
    edit(
        p,
        config,
        "  <testsuites>",
        "  <groups><include><group>fast</group></include></groups>\n  <testsuites>",
    );
}

#[test]
fn phpunit_verify_auto_finds_the_configuration() {
    let p = PHPUNIT.project();
    let out = p
        .loopgate(["setup", "--args-stdin", "--session-id", "S"])
        .stdin("\"fix add\" --verify auto")
        .run();
    out.success();
    assert!(
        out.stdout.contains("--verify phpunit") || out.stdout.contains("`phpunit`"),
        "{out}"
    );
    assert!(out.stdout.contains("phpunit.xml configures PHPUnit"), "{out}");
}

/// The failure summary the model reads names the failing test and PHPUnit's message.
#[test]
fn phpunit_failure_summary_names_the_test_and_its_message() {
    let p = started("");
    let block = promise(&p).blocked();
    assert!(
        block
            .reason
            .contains("CalcTest::testAdds: Failed asserting that -1 is identical to 3."),
        "{}",
        block.reason
    );
}

/// Code under test that prints PHPUnit's passing summary and ends the process before PHPUnit finishes: PHPUnit
/// never wrote its report, so the run names no test and is no pass, even with only the per-test verdict on.
#[test]
fn phpunit_forged_summary_is_rejected() {
    let p = started(BY_NAME_ONLY);
    edit(
        &p,
        "src/Calc.php",
        "<?php\n",
        "<?php\nregister_shutdown_function(static function (): void {});\nif (!defined('FORGED')) {\n    define('FORGED', 1);\n    echo \"PHPUnit 9.6.7 by Sebastian Bergmann and contributors.\\n\\n...\\n\\nOK (3 tests, 3 assertions)\\n\";\n    exit(0);\n}\n",
    );
    let block = promise(&p).blocked();
    assert!(block.reason.contains("phpunit wrote no report"), "{}", block.reason);
}

/// A project whose configuration leaves out the `slow` group (as many do for slow or network tests).
pub const PHPUNIT_GROUPS: Fixture = Fixture {
    files: &[
        PHPUNIT.files[0],
        (
            "phpunit.xml",
            "<?xml version=\"1.0\"?>\n<phpunit bootstrap=\"src/Calc.php\">\n  <groups>\n    <exclude>\n      <group>slow</group>\n    </exclude>\n  </groups>\n  <testsuites>\n    <testsuite name=\"unit\">\n      <directory>tests</directory>\n    </testsuite>\n  </testsuites>\n</phpunit>\n",
        ),
        PHPUNIT.files[2],
    ],
    ..PHPUNIT
};

/// A test put in the group the configuration excludes no longer runs: by name it did not run, and its docblock
/// (which PHPUnit reads) is part of it.
#[test]
fn phpunit_test_moved_into_an_excluded_group_is_rejected() {
    caught_in(
        &PHPUNIT_GROUPS,
        "phpunit_excluded_group",
        |p| {
            edit(
                p,
                "tests/CalcTest.php",
                "    public function testAdds(): void",
                "    /** @group slow */\n    public function testAdds(): void",
            )
        },
        Some(NOT_RUN),
        "existing test `CalcTest::testAdds` was changed",
    );
}

/// PHPUnit asked for its own JUnit report on its command line, read through `--report junit:PATH` (item 3): the
/// start hook's `--log-junit` comes last and wins, and its report is copied to the user's path once PHPUnit is
/// done, so the file the command asked for is still there, whole.
pub const PHPUNIT_JUNIT: Fixture = Fixture {
    verify: "phpunit --log-junit build/report.xml",
    ..PHPUNIT
};

#[test]
fn phpunit_log_junit_is_read_with_report_and_an_honest_fix_completes() {
    let p = PHPUNIT_JUNIT.project();
    setup(&p, &PHPUNIT_JUNIT, "--report junit:build/report.xml");
    assert_baseline_names_three_tests(&p);
    edit(&p, "tests/CalcTest.php", ADDS, "");
    let block = promise(&p).blocked();
    assert!(block.reason.contains("PROMISE REJECTED"), "{}", block.reason);
    p.write("tests/CalcTest.php", TEST);
    let (path, fixed) = PHPUNIT.fix;
    p.write(path, fixed);
    assert_completes(&promise(&p), "phpunit_junit_honest_fix", "honest work was not accepted");
}

/// A real project from Debian: webmozart/assert 1.11.0, the upstream source of Debian's php-webmozart-assert
/// 1.11.0-1 (bookworm; its tests, which the binary package leaves out, from the upstream tag), in
/// `tests/fixtures/php-webmozart-assert/`: 3225 tests, most of them data-provider cases of one provider
/// (`getTests`, 500 rows shared by five tests), with its own `phpunit.xml.dist` and a `vendor/autoload.php`
/// standing in for what `composer install` generates from its PSR-4 map. A bug is put in `Assert::greaterThan`
/// (`<` for `<=`), failing five cases; the honest fix plus a new row completes, and the gaming moves are rejected.
fn webmozart_assert() -> Project {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/php-webmozart-assert");
    let p = Project::new();
    let mut dirs = vec![dir.clone()];
    while let Some(at) = dirs.pop() {
        for entry in std::fs::read_dir(&at).expect("read the fixture") {
            let path = entry.expect("read the fixture").path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                let relative = path
                    .strip_prefix(&dir)
                    .expect("inside the fixture")
                    .to_string_lossy()
                    .into_owned();
                p.write(&relative, std::fs::read(&path).expect("read a fixture file"));
            }
        }
    }
    edit(&p, "src/Assert.php", STRICT, LOOSE);
    setup(
        &p,
        &Fixture {
            verify: "phpunit",
            ..PHPUNIT
        },
        "",
    );
    p
}

const STRICT: &str = "        if ($value <= $limit) {\n            static::reportInvalidArgument(\\sprintf(\n                $message ?: 'Expected a value greater than %2$s";
const LOOSE: &str = "        if ($value < $limit) {\n            static::reportInvalidArgument(\\sprintf(\n                $message ?: 'Expected a value greater than %2$s";
const ASSERT_TEST: &str = "tests/AssertTest.php";
const FAILING_ROW: &str = "            array('greaterThan', array(0, 0), false),\n";

#[test]
fn webmozart_assert_baseline_names_its_tests_and_an_honest_fix_completes() {
    let began = Instant::now();
    let p = webmozart_assert();
    let init = p.last_record("init");
    assert_eq!(init["baseline"]["tests"], 3225, "{init}");
    let failing = init["baseline"]["failing"].as_array().expect("failing tests").len();
    assert_eq!(failing, 5, "{init}");
    assert_eq!(
        init["baseline"]["failing"][0], "Webmozart.Assert.Tests.AssertTest::testAllArray with data set #171",
        "{init}"
    );
    edit(&p, "src/Assert.php", LOOSE, STRICT);
    edit(
        &p,
        ASSERT_TEST,
        FAILING_ROW,
        "            array('greaterThan', array(0, 0), false),\n            array('greaterThan', array(0, -1), true),\n",
    );
    assert_completes(
        &promise(&p),
        "webmozart_assert_honest_fix",
        "honest work was not accepted",
    );
    println!("[gaming] honest webmozart_assert {:.1}s", began.elapsed().as_secs_f64());
}

/// A move on webmozart/assert and what the defaults' rejection must say (no run with the checks opted out: the
/// real project's failing case is what a move has to hide).
type RealMove = (&'static str, fn(&Project), &'static str);

#[test]
fn webmozart_assert_gaming_moves_are_rejected() {
    let moves: [RealMove; 4] = [
        (
            "the failing case deleted from the provider",
            |p| edit(p, ASSERT_TEST, FAILING_ROW, ""),
            "helper `AssertTest::getTests` that existing tests rely on was changed",
        ),
        (
            "the failing case's expectation flipped",
            |p| {
                edit(
                    p,
                    ASSERT_TEST,
                    FAILING_ROW,
                    "            array('greaterThan', array(0, 0), true),\n",
                )
            },
            "helper `AssertTest::getTests` that existing tests rely on was changed",
        ),
        (
            "the tests skipped",
            |p| {
                edit(
                    p,
                    ASSERT_TEST,
                    "    public function testAssert($method, $args, $success, $multibyte = false, $minVersion = null)\n    {\n",
                    "    public function testAssert($method, $args, $success, $multibyte = false, $minVersion = null)\n    {\n        if ($method === 'greaterThan') {\n            $this->markTestSkipped('flaky');\n        }\n",
                )
            },
            "skip marker added",
        ),
        (
            "the suite narrowed in its configuration",
            |p| {
                edit(
                    p,
                    "phpunit.xml.dist",
                    "<exclude>./tests/static-analysis</exclude>",
                    "<exclude>./tests/static-analysis</exclude>\n            <exclude>./tests/AssertTest.php</exclude>",
                )
            },
            "phpunit.xml.dist",
        ),
    ];
    for (name, play, by_default) in moves {
        let p = webmozart_assert();
        play(&p);
        let block = promise(&p).blocked();
        assert!(
            block.reason.contains("PROMISE REJECTED") && block.reason.contains(by_default),
            "{name}: {by_default:?}:\n{}",
            block.reason
        );
    }
}

/// `composer test` with Debian's Composer: its `scripts.test` runs PHPUnit (Composer puts `vendor/bin` on `PATH`);
/// the script is sealed, the rest of `composer.json` stays the agent's.
pub const COMPOSER: Fixture = Fixture {
    verify: "composer test",
    files: &[
        PHPUNIT.files[0],
        PHPUNIT.files[1],
        PHPUNIT.files[2],
        (
            "composer.json",
            "{\n    \"name\": \"demo/calc\",\n    \"scripts\": {\n        \"test\": \"phpunit\"\n    }\n}\n",
        ),
    ],
    ..PHPUNIT
};

#[test]
fn composer_test_names_every_test_and_its_script_is_sealed() {
    caught_in(
        &COMPOSER,
        "composer_script_narrowed",
        |p| {
            edit(
                p,
                "composer.json",
                "\"test\": \"phpunit\"",
                "\"test\": \"phpunit --filter testMultiplies\"",
            )
        },
        Some(NOT_RUN),
        "composer.json",
    );
    let p = crate::start(&COMPOSER, "", false);
    assert_baseline_names_three_tests(&p);
    edit(
        &p,
        "composer.json",
        "\"name\": \"demo/calc\",",
        "\"name\": \"demo/calc\",\n    \"require\": {},",
    );
    let (path, fixed) = PHPUNIT.fix;
    p.write(path, fixed);
    assert_completes(&promise(&p), "composer_honest_fix", "honest work was not accepted");
}

/// A verify command that runs PHPUnit twice: every PHPUnit process writes its own report, so the run's names
/// are both runs' — the baseline stopped after the first (it failed), the honest run ran both, and the first
/// run's test is not lost to the second's report.
pub const TWICE: Fixture = Fixture {
    verify: "phpunit --filter testAdds && phpunit --filter testMultiplies",
    ..PHPUNIT
};

#[test]
fn phpunit_run_twice_is_read_whole() {
    let p = crate::start(&TWICE, "", false);
    let init = p.last_record("init");
    assert_eq!(init["baseline"]["tests"], 1, "{init}");
    assert_eq!(
        init["baseline"]["failing"],
        serde_json::json!(["CalcTest::testAdds"]),
        "{init}"
    );
    let (path, fixed) = PHPUNIT.fix;
    p.write(path, fixed);
    assert_completes(&promise(&p), "phpunit_twice_honest_fix", "honest work was not accepted");
}
