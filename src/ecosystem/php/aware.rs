//! PHP's traces of the test runner in code under test (`aware::rules`): PHPUnit's constants and classes asked
//! for by name (`class_exists('PHPUnit\Framework\TestCase', false)`, `defined('PHPUNIT_COMPOSER_INSTALL')`).
//! PHP names a class or a constant it is asked about as a string, so the names are strong: a string holding one,
//! in code under test, is a trace whatever reads it. Test support (a `tests/` helper that extends
//! `TestCase`) is the test side's and free.

use crate::aware::Family;
use crate::aware::names::{Match, Traces};
use crate::testsig::Lang;

pub(super) const TRACES: Traces = Traces {
    strong: &[
        // The constants PHPUnit's launcher defines (Composer's install, the PHAR).
        (Match::Exact("PHPUNIT_COMPOSER_INSTALL"), Family::RunnerLoaded),
        (Match::Exact("__PHPUNIT_PHAR__"), Family::RunnerLoaded),
        (Match::Exact("__PHPUNIT_PHAR_ROOT__"), Family::RunnerLoaded),
        // Its classes by name, in a string (`'PHPUnit\Framework\TestCase'`, `"\\PHPUnit\\Runner\\Version"`).
        (Match::Prefix("PHPUnit\\"), Family::RunnerLoaded),
        (Match::Prefix("\\PHPUnit\\"), Family::RunnerLoaded),
        (Match::Prefix("\\\\PHPUnit\\"), Family::RunnerLoaded),
    ],
    weak: &["phpunit"],
    defined_checks: &["class_exists", "interface_exists", "defined"],
    runner_constants: &["PHPUnit"],
    ..Traces::none(Lang::Php)
};
